#!/usr/bin/env bash
# braggview beside the reference's own programs on the same machine, in one call
# (performance issue): for each case, the CUDA port (cuda/ of bl831/nanoBragg, -precision
# single|double; its kernel time is the KERNEL_MS line it prints) and the C program (OpenMP,
# THREADS threads), then braggview's headless process on the same command line.
#
#   bench/gpu-peers.sh BIN_DIR PEER_DIR OUT_DIR [THREADS]
#
# PEER_DIR holds nanoBraggCUDA and nanoBragg, built outside this project's tree from the
# reference's repository (nothing of them is kept here). Every program writes the same float
# image (-floatfile, no int/noise/PGM files) into its own scratch directory.
# Results: OUT_DIR/peers.txt, one line per program, case and precision: kernel or GPU ms
# (median, min-max of REPEATS runs) and exec -> exit ms.
set -uo pipefail
bin=$(cd "$1" && pwd); peers=$(cd "$2" && pwd); out=$(mkdir -p "$3" && cd "$3" && pwd)
threads=${4:-16}
repeats=${REPEATS:-10}
simple="-cell 100 100 100 90 90 90 -lambda 6.2 -N 5 -default_F 100 -distance 100 -noprogress"
heavy="-mosaic 0.5 -mosaic_dom 10 -mosaic_seed -12345678 -phi 0 -osc 1 -phisteps 10 -oversample 2"
declare -A cases=(
  [simple_1024]="$simple -detpixels 1024" [simple_2048]="$simple -detpixels 2048"
  [simple_4096]="$simple -detpixels 4096" [heavy_512]="$simple -detpixels 512 $heavy"
  [heavy_1024]="$simple -detpixels 1024 $heavy")
source "$(dirname "$0")/machine.sh"
work=$(mktemp -d)
now() { date +%s%N; }
# median min max of the numbers on stdin
summary() { sort -g | awk '{v[NR]=$1} END {m = NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2;
                                           printf "%.3f (%.3f-%.3f)", m, v[1], v[NR]}'; }
# run PROGRAM ARGS... REPEATS times; prints "<kernel/gpu ms summary> | <exec->exit ms summary>"
measure() {
  local kernel=() wall=() start log
  "$@" > "$work/log.txt" 2>&1   # warm-up (driver caches, pipeline cache)
  for i in $(seq "$repeats"); do
    start=$(now); "$@" > "$work/log.txt" 2>&1; wall+=($(( ($(now) - start) / 1000 )))
    kernel+=($(grep -Eo '(KERNEL_MS|GPU time) +[0-9.]+' "$work/log.txt" | grep -Eo '[0-9.]+$' | head -1))
  done
  echo "$(printf '%s\n' "${kernel[@]:-0}" | summary) | $(printf '%s\n' "${wall[@]}" | awk '{print $1/1000}' | summary)"
}
{
  machine_lines
  echo "# $repeats runs after one warm-up"
  echo "# program case precision: kernel/GPU ms median (min-max) | exec->exit ms median (min-max)"
  cd "$work"
  for name in ${CASES:-simple_1024 simple_2048 simple_4096 heavy_512 heavy_1024}; do
    args="${cases[$name]} -floatfile float.bin -nonoise -nopgm -intfile int.img"
    for p in single double; do
      echo "nanoBraggCUDA $name $p: $(measure "$peers/nanoBraggCUDA" $args -precision $p)"
    done
    for p in fast precise; do
      echo "braggview $name $p: $(measure "$bin/braggview" --headless $args -precision $p -v)"
    done
    c_repeats=3; [[ $name == simple_1024 ]] && c_repeats=5
    echo "nanoBragg(C, $threads threads) $name double: $(REPEATS=$c_repeats; repeats=$c_repeats; OMP_NUM_THREADS=$threads measure "$peers/nanoBragg" $args)"
  done
} > "$out/peers.txt" 2>&1
rm -rf "$work"
cat "$out/peers.txt"
