#!/usr/bin/env bash
# braggview on lavapipe (Vulkan on the CPU) beside the reference C program on the same
# machine, in one run (performance issue, target 4): whole process, exec -> exit, for
# heavy_512 (fast and precise) and simple_1024, the reference with OMP_NUM_THREADS=THREADS.
#
#   bench/cpu-vs-reference.sh BRAGGVIEW NANOBRAGG OUT_FILE [THREADS] [REPEATS]
#
# NANOBRAGG is the reference built outside this tree (gcc -O3 -fopenmp nanoBragg.c); nothing
# of it is kept here. Both write the same files (-floatfile, -intfile; no noise, no PGM) into
# a scratch directory. Run it on an idle machine: the two share its cores.
set -euo pipefail
braggview=$(realpath "$1"); reference=$(realpath "$2"); out=$3
threads=${4:-2}; repeats=${5:-5}
simple="-cell 100 100 100 90 90 90 -lambda 6.2 -N 5 -default_F 100 -distance 100"
heavy="-mosaic 0.5 -mosaic_dom 10 -mosaic_seed -12345678 -phi 0 -osc 1 -phisteps 10 -oversample 2"
files="-floatfile float.bin -intfile int.img -nonoise -nopgm -noprogress"
source "$(dirname "$0")/machine.sh"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT; cd "$work"
now() { date +%s%N; }
# the median, min and max in seconds of REPEATS runs of the command (after one warm-up)
timed() {
  "$@" > /dev/null 2>&1
  local t=() start
  for i in $(seq "$repeats"); do
    start=$(now); "$@" > /dev/null 2>&1; t+=($(( ($(now) - start) / 1000000 )))
  done
  printf '%s\n' "${t[@]}" | sort -n | awk '{v[NR]=$1/1000} END {m = NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2;
                                            printf "%.3f s (%.3f-%.3f)", m, v[1], v[NR]}'
}
{
  machine_lines
  echo "# braggview on $("$braggview" --headless $simple -detpixels 64 $files -v 2>&1 | grep -m1 'GPU:' | sed 's/^ *GPU: //')"
  echo "# whole process exec -> exit, median (min-max) of $repeats runs after one"
  for case in heavy_512 simple_1024; do
    args="$simple -detpixels ${case#*_} $files"; [[ $case == heavy_* ]] && args="$args $heavy"
    echo "$case reference C ($threads threads): $(OMP_NUM_THREADS=$threads timed "$reference" $args)"
    for p in fast precise; do
      echo "$case braggview $p: $(OMP_NUM_THREADS=$threads timed "$braggview" --headless $args -precision $p)"
    done
  done
  machine_end_line
} | tee "$out"
