#!/usr/bin/env bash
# The whole GPU set in one call, for the GPU machine (no Qt there): the parity suite in both
# precisions, the benchmark cases, and the whole headless process with a warm pipeline cache.
#
#   bench/gpu-suite.sh BIN_DIR OUT_DIR
#
# BIN_DIR holds braggview, braggview-compare and braggview-bench built with
# -DBRAGGVIEW_WITH_QT=OFF. Results: OUT_DIR/parity.txt, bench.txt, bench.json, process.txt
# (summary), process-runs.txt (every run with its -v breakdown), latency.txt (the viewer's
# compute path, 200 parameter changes at 2048^2, and the cold start) and memory.txt (peak
# resident memory of the headless process at 4096^2).
set -uo pipefail
bin=$(cd "$1" && pwd); out=$(mkdir -p "$2" && cd "$2" && pwd)
cd "$(dirname "$0")/.."
source bench/machine.sh
machine_lines > "$out/machine.txt"
data=$(pwd)/tests/data

{
  echo "# parity on $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null)"
  pass=0; fail=0
  for precision in precise fast; do
    for dir in "$data"/golden/*/; do
      case=$(basename "$dir")
      if result=$(OMP_NUM_THREADS=2 tests/parity/run_case.sh "$bin/braggview-compare" "$data" "$case" \
                    "$precision" "$bin/braggview" --headless 2>&1); then
        pass=$((pass + 1)); verdict=PASS
      else
        fail=$((fail + 1)); verdict=FAIL
      fi
      echo "$case $precision $verdict $(echo "$result" | grep '^float.bin' | cut -d' ' -f2-6)"
      [[ $verdict == FAIL ]] && echo "$result" | sed 's/^/    /'
    done
  done
  echo "# $pass passed, $fail failed"
} > "$out/parity.txt" 2>&1

"$bin/braggview-bench" --repeats 20 --case simple_1024 --case simple_2048 --case simple_4096 \
  --case heavy_512 --case heavy_1024 --json "$out/bench.json" > "$out/bench.txt" 2>&1

# the whole process, exec to file written; the first run fills the pipeline cache. Per run:
# exec -> last file's mtime (its data written) and exec -> exit, and the -v breakdown
# (docs/performance.md, "Whole process"). Also: a process that touches no GPU (-h), and the
# same runs with BRAGGVIEW_FSYNC=1 (fsync before each rename, as every commit did until 2026-11-22).
work=$(mktemp -d)
now() { date +%s%N; }
: > "$out/process-runs.txt"
{
  echo "# persistence mode: $(nvidia-smi --query-gpu=persistence_mode --format=csv,noheader 2>/dev/null)"
  echo "# implicit layers: $(ls /usr/share/vulkan/implicit_layer.d /etc/vulkan/implicit_layer.d 2>/dev/null | tr '\n' ' ')"
  times=()
  for i in $(seq 10); do
    start=$(now); "$bin/braggview" --headless -h > /dev/null 2>&1; times+=($(( ($(now) - start) / 1000 )))
  done
  echo "no_gpu (-h) process_us(sorted): $(printf '%s\n' "${times[@]}" | sort -n | tr '\n' ' ')"
  for n in 1024 4096; do
    args="-cell 100 100 100 90 90 90 -lambda 6.2 -N 5 -default_F 100 -distance 100 -detpixels $n"
    for precision in precise fast; do
      for fsync in 0 1; do
        (cd "$work" && BRAGGVIEW_FSYNC=$fsync "$bin/braggview" --headless $args -precision $precision -noprogress -nonoise -nopgm > /dev/null)
        times=(); written=()
        for i in $(seq 10); do
          rm -f "$work"/*.bin "$work"/*.img
          start=$(now)
          (cd "$work" && BRAGGVIEW_FSYNC=$fsync "$bin/braggview" --headless $args -precision $precision -noprogress -nonoise -nopgm -v > "$work/log.txt")
          end=$(now)
          last=$(stat -c %.9Y "$work/intimage.img" | tr -d .)
          times+=($(( (end - start) / 1000 ))); written+=($(( (last - start) / 1000 )))
          echo "simple_$n $precision fsync=$fsync run $i: exit $(( (end - start) / 1000 )) us, file $(( (last - start) / 1000 )) us" >> "$out/process-runs.txt"
          sed -n '/^timing/,$p' "$work/log.txt" | sed 's/^/    /' >> "$out/process-runs.txt"
        done
        echo "simple_$n $precision fsync=$fsync exec->exit us(sorted): $(printf '%s\n' "${times[@]}" | sort -n | tr '\n' ' ')"
        echo "simple_$n $precision fsync=$fsync exec->file us(sorted): $(printf '%s\n' "${written[@]}" | sort -n | tr '\n' ' ')"
      done
    done
    (cd "$work" && "$bin/braggview" --headless $args -v -noprogress -nonoise -nopgm | grep -E "GPU")
  done
} > "$out/process.txt" 2>&1

{
  for precision in fast precise; do
    "$bin/braggview-bench-latency" --case simple_2048 --changes 200 --precision $precision \
      --json "$out/latency-$precision.json"
  done
} > "$out/latency.txt" 2>&1

# peak resident memory (getrusage of the child, kB) of the headless process, simple_4096
peak_rss() { python3 -c 'import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' "$@"; }
{
  args="-cell 100 100 100 90 90 90 -lambda 6.2 -N 5 -default_F 100 -distance 100 -detpixels 4096 -noprogress"
  echo "# peak RSS in kB; the float image is 65536 kB"
  cd "$work"
  for outputs in "" "-nonoise -nopgm"; do
    for precision in fast precise; do
      echo "simple_4096 $precision ${outputs:-all outputs}: $(peak_rss "$bin/braggview" --headless $args -precision $precision $outputs) kB"
    done
  done
  echo "no GPU (-h): $(peak_rss "$bin/braggview" --headless -h) kB"
} > "$out/memory.txt" 2>&1
cd / && rm -rf "$work"
cat "$out/parity.txt" | tail -1; cat "$out/bench.txt"; cat "$out/process.txt" "$out/latency.txt" "$out/memory.txt"
