#!/usr/bin/env bash
# Dataset throughput (issue "Dataset throughput"), whole processes on one machine, one call:
#
#   bench/throughput.sh BIN_DIR OUT_DIR [REFERENCE_C_PROGRAM] [THREADS]
#
# 1. series: a 512^2 rotation series with SMV noise images, SERIES_FRAMES frames (default
#    1000), as the batch path renders it with -threads 1 (one CPU thread makes each frame's
#    files after its render: the loop before frames in flight) and with the default (every
#    usable core); frames/s from the run's own last line, and exec -> exit wall time.
# 2. job: JOB_FRAMES (default 1000) simple_1024 images of random orientations from one job
#    file (float, int and noise images each, as nanoBragg writes them), against the reference
#    C program (OpenMP, THREADS threads) making the same images one process each; the noise
#    images of frames 1, middle and last must be identical (md5).
# REFERENCE_C_PROGRAM is nanoBragg built outside this project's tree; without it, step 2
# times braggview alone. Results: OUT_DIR/throughput.txt.
set -uo pipefail
bin=$(cd "$1" && pwd); out=$(mkdir -p "$2" && cd "$2" && pwd)
reference=${3:-}; threads=${4:-16}
series_frames=${SERIES_FRAMES:-1000}; job_frames=${JOB_FRAMES:-1000}
source "$(dirname "$0")/machine.sh"
work=$(mktemp -d)
now() { date +%s%N; }
ms_since() { echo $(( ($(now) - $1) / 1000000 )); }
{
  machine_lines
  series="-cell 50 60 70 90 90 90 -misset 10 20 30 -lambda 1.0 -N 10 -default_F 100 -distance 100
          -detpixels 512 -phi 0 -osc 0.1 -phisteps 4 -series $series_frames -seed 1 -noprogress"
  digits=$(( ${#series_frames} > 5 ? ${#series_frames} : 5 ))
  template="sim_$(printf '#%.0s' $(seq "$digits")).img"
  for t in 1 0; do
    dir="$work/series-$t"; mkdir -p "$dir"; cd "$dir"
    label=$([[ $t == 0 ]] && echo "default threads" || echo "-threads $t")
    opt=(); [[ $t != 0 ]] && opt=(-threads "$t")
    start=$(now)
    "$bin/braggview" --headless $series -noisefile "$template" "${opt[@]}" > log.txt 2>&1
    rc=$?
    wall=$(ms_since "$start")
    echo "series 512^2 x $series_frames, noise SMV, $label: rc $rc, exec->exit $wall ms;" \
         "$(grep -E '^[0-9]+ frames?: ' log.txt | tail -1)"
    md5sum "$(ls sim_*.img | head -1)" "$(ls sim_*.img | tail -1)" | sed 's/^/#   /'
    cd "$work"; rm -rf "$dir"
  done

  # the job: random orientations. Frame i (from 1) has -misset_seed i and, as every job frame,
  # the noise seed -seed + i - 1 (docs/series.md), so the reference's run i is the same command
  # line with -seed i -misset random -misset_seed i (last: see docs/reference-quirks.md; the
  # reference never gives -seed to the misset)
  simple="-cell 100 100 100 90 90 90 -lambda 6.2 -N 5 -default_F 100 -distance 100 -detpixels 1024"
  mkdir -p "$work/job"; cd "$work/job"
  jdigits=$(( ${#job_frames} > 4 ? ${#job_frames} : 4 ))
  hashes=$(printf '#%.0s' $(seq "$jdigits"))
  {
    printf '{"base": "%s -seed 1 -noprogress -nopgm -floatfile f_%s.bin -intfile i_%s.img -noisefile n_%s.img",\n "frames": [\n' \
      "$simple" "$hashes" "$hashes" "$hashes"
    for ((i = 1; i <= job_frames; i++)); do
      printf '  {"-misset": "random", "-misset_seed": %d}%s\n' "$i" "$([[ $i == "$job_frames" ]] || echo ,)"
    done
    printf ']}\n'
  } > job.json
  start=$(now)
  "$bin/braggview" --headless --job job.json > log.txt 2>&1
  rc=$?
  bv_wall=$(ms_since "$start")
  echo "job of $job_frames simple_1024 images (float, int, noise): braggview rc $rc, exec->exit $bv_wall ms;" \
       "$(grep -E '^[0-9]+ frames?: ' log.txt | tail -1)"
  if [[ -n $reference && ! -x $reference ]]; then
    echo "reference program $reference: not found"
  elif [[ -n $reference ]]; then
    mkdir -p "$work/ref"; cd "$work/ref"
    start=$(now)
    for ((i = 1; i <= job_frames; i++)); do
      n=$(printf "%0${jdigits}d" "$i")
      OMP_NUM_THREADS=$threads "$reference" $simple -seed "$i" -nopgm -floatfile "f_$n.bin" \
          -intfile "i_$n.img" -noisefile "n_$n.img" -misset random -misset_seed "$i" > /dev/null 2>&1 \
          || { echo "reference run $i failed"; [[ $i == 1 ]] && break; }
    done
    c_wall=$(ms_since "$start")
    echo "job of $job_frames simple_1024 images: nanoBragg (C, $threads threads), one process" \
         "each: $c_wall ms; braggview is $(awk -v c="$c_wall" -v b="$bv_wall" 'BEGIN{printf "%.1f", c/b}')x faster"
    for i in 1 $(( (job_frames + 1) / 2 )) "$job_frames"; do
      n=$(printf "%0${jdigits}d" "$i")
      a=$(md5sum < "$work/job/n_$n.img" 2> /dev/null | cut -c1-32)
      b=$(md5sum < "n_$n.img" 2> /dev/null | cut -c1-32)
      verdict=DIFFERENT; [[ -n $a && $a == "$b" ]] && verdict=identical
      echo "#   frame $i noise image: braggview ${a:-missing}, reference ${b:-missing} $verdict"
    done
  fi
  machine_end_line
} > "$out/throughput.txt" 2>&1
rm -rf "$work"
cat "$out/throughput.txt"
