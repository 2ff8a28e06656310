#!/usr/bin/env bash
# Several GPUs (issue 13, docs/series.md): one series on one GPU, on every GPU of the machine
# in one process (-device all), and as one MPI rank per GPU, whole processes; the files of
# each must be the one-GPU bytes.
#
#   bench/multi-gpu.sh BIN_DIR OUT_DIR [MPIRUN]
#
# Three cases: "gpub" (issue 26's GPU-bound series: 1024^2, 100 mosaic domains x 10 phi steps x
# oversample 3, 40 frames), "heavy" (1024^2, 40 mosaic domains x 4 phi steps, 120 frames: the
# host's serial work per frame shows, the float image alone written) and "files" (1024^2, a
# quick render with SMV noise and CBF images: the CPU's files dominate). Also -device 0,0 (two renderers on GPU 0), which says whether a
# second stream of work fills gaps on one GPU. Without MPIRUN (say /usr/bin/mpirun) the MPI
# runs are left out. Results: OUT_DIR/multi-gpu.txt (wall time exec -> exit and the run's own
# frames/s line and its -v timeline per run, then the comparisons). PIXELS, GPUB_FRAMES,
# HEAVY_FRAMES and FILES_FRAMES (1024, 40, 120, 200) shrink it for a try on lavapipe; REPS
# (3) runs of each, the first of which warms the pipeline cache and the page cache; CASES
# ("gpub heavy files") picks some.
set -uo pipefail
pixels=${PIXELS:-1024}; heavy_frames=${HEAVY_FRAMES:-120}; files_frames=${FILES_FRAMES:-200}
gpub_frames=${GPUB_FRAMES:-40}; reps=${REPS:-3}; cases=${CASES:-gpub heavy files}
bin=$(cd "$1" && pwd); out=$(mkdir -p "$2" && cd "$2" && pwd); mpirun=${3:-}
source "$(dirname "$0")/machine.sh"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_hwloc_base_binding_policy=none
export SOURCE_DATE_EPOCH=1700000000 # the CBF time stamps of every run alike, for cmp
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU' || true)
[ "${gpus:-0}" -ge 1 ] || gpus=1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
run() { # NAME COMMAND...
  local name=$1; shift
  rm -rf "${work:?}/$name"; mkdir -p "$work/$name"
  local t0; t0=$(date +%s%N)
  (cd "$work/$name" && "$@" >log.txt 2>err.txt)
  local rc=$? ms=$(( ($(date +%s%N) - t0) / 1000000 ))
  echo "$name: exit $rc, $ms ms: $(grep -E '^[0-9]+ frames:' "$work/$name/log.txt") |$(grep -h 'this process' "$work/$name/log.txt" | sed 's/.*from its start://')"
  [ $rc -eq 0 ] || tail -3 "$work/$name/err.txt"
}
same() { # ONE OTHER
  local n=0 bad=0
  for f in $(cd "$work/$1" && ls | grep -v -e '^log.txt$' -e '^err.txt$'); do
    n=$((n + 1)); cmp -s "$work/$1/$f" "$work/$2/$f" || bad=$((bad + 1))
  done
  echo "$2 vs $1: $n files, $bad differ"
}
{
  machine_lines
  echo "# $gpus GPU(s)"
  common="-cell 79 79 38 90 90 90 -misset 10 20 30 -lambda 1.0 -N 10 -default_F 100
          -distance 150 -detpixels $pixels -phi 0 -osc 0.5 -seed 3 -noprogress -v"
  gpub="$common -mosaic 0.5 -mosaic_dom 100 -phisteps 10 -oversample 3 -series $gpub_frames -floatfile f_###.bin"
  heavy="$common -mosaic 0.5 -mosaic_dom 40 -phisteps 4 -series $heavy_frames -floatfile f_###.bin"
  files="$common -series $files_frames -noisefile n_###.img -cbffile c_###.cbf"
  for case in $cases; do
    args=${!case}
    for rep in $(seq "$reps"); do
      run "$case-one" "$bin/braggview" --headless $args -device 0
      run "$case-0,0" "$bin/braggview" --headless $args -device 0,0
      [ "$gpus" -gt 1 ] && run "$case-all" "$bin/braggview" --headless $args -device all
      [ -n "$mpirun" ] && run "$case-mpi$gpus" "$mpirun" -n "$gpus" "$bin/braggview" --headless $args
    done
    same "$case-one" "$case-0,0"
    [ "$gpus" -gt 1 ] && same "$case-one" "$case-all"
    [ -n "$mpirun" ] && same "$case-one" "$case-mpi$gpus"
  done
} > "$out/multi-gpu.txt" 2>&1
cat "$out/multi-gpu.txt"
