#!/usr/bin/env bash
# Builds the libFuzzer targets of fuzz/ with clang and runs each for a while; fails when any
# of them finds a crash, a sanitizer report, an escaped exception, a hang or an OOM.
#
#   scripts/fuzz.sh [seconds-per-target]          (default 30)
#
# Environment: BUILD_DIR (default build-fuzz), JOBS (targets run at once; default the number
# of cores), TARGETS (default: every fuzz_<target> built, e.g. "hkl fdump matrix source smv
# cli job"), FUZZ_ARGS (extra libFuzzer flags). The corpus each run grows lives in
# $BUILD_DIR/corpus/<target> and is reused by the next run; the checked-in seeds (and crash-*
# reproducers) in fuzz/corpus/<target> are only read. The findings of the last run land in
# $BUILD_DIR/artifacts/<target>/, logs in $BUILD_DIR/logs/. See docs/robustness.md.
set -uo pipefail

seconds=${1:-30}
if ! [[ $seconds =~ ^[0-9]+$ ]] || [ "$seconds" -lt 1 ]; then
  echo "usage: $0 [seconds-per-target]" >&2
  exit 2
fi
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build-fuzz}
case $build in /*) ;; *) build=$root/$build ;; esac
jobs=${JOBS:-$(nproc)}

for tool in clang clang++ cmake; do
  if ! command -v "$tool" >/dev/null; then
    echo "fuzz: $tool not found (scripts/setup.sh installs clang and libclang-rt-14-dev)" >&2
    exit 2
  fi
done

# The fuzz/ project configures on its own: it needs only clang and glm, not Qt or Vulkan. Its
# libraries compile as unity sources, as in the sanitizer build (scripts/sanitize.sh).
generator=()
if command -v ninja >/dev/null; then generator=(-G Ninja); fi
if [ ! -f "$build/CMakeCache.txt" ]; then
  CC=clang CXX=clang++ cmake -S "$root/fuzz" -B "$build" "${generator[@]}" \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_UNITY_BUILD=ON >/dev/null || exit 2
fi
cmake --build "$build" --target braggview_fuzzers -j "$(nproc)" || exit 2

if [ -n "${TARGETS:-}" ]; then
  targets=($TARGETS)
else
  targets=()
  for binary in "$build"/fuzz/fuzz_*; do
    [ -x "$binary" ] && targets+=("${binary##*/fuzz_}")
  done
fi

mkdir -p "$build/logs"
run_one() {
  local t=$1
  local corpus=$build/corpus/$t artifacts=$build/artifacts/$t/
  rm -rf "$artifacts" # this run's findings only
  mkdir -p "$corpus" "$artifacts"
  local dict=()
  if [ -f "$root/fuzz/dict/$t.dict" ]; then dict=(-dict="$root/fuzz/dict/$t.dict"); fi
  "$build/fuzz/fuzz_$t" "$corpus" "$root/fuzz/corpus/$t" "${dict[@]}" \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=8192 \
    -artifact_prefix="$artifacts" -print_final_stats=1 ${FUZZ_ARGS:-} \
    >"$build/logs/$t.log" 2>&1
}

declare -A status
running=0
pids=()
names=()
for t in "${targets[@]}"; do
  if [ ! -x "$build/fuzz/fuzz_$t" ]; then
    echo "fuzz: no target fuzz_$t in $build/fuzz" >&2
    status[$t]=missing
    continue
  fi
  echo "fuzz: fuzz_$t for ${seconds}s"
  run_one "$t" &
  pids+=($!)
  names+=("$t")
  running=$((running + 1))
  if [ "$running" -ge "$jobs" ]; then
    wait -n
    running=$((running - 1))
  fi
done
for i in "${!pids[@]}"; do
  wait "${pids[$i]}"
  rc=$?
  if [ $rc -eq 0 ]; then status[${names[$i]}]=ok; else status[${names[$i]}]="FAILED (exit $rc)"; fi
done

failed=0
printf '\n%-8s %12s %8s %8s %8s %8s  %s\n' target execs exec/s cov ft corpus result
for t in "${targets[@]}"; do
  log=$build/logs/$t.log
  execs=$(awk '$1 == "stat::number_of_executed_units:" {print $2}' "$log" 2>/dev/null)
  speed=$(awk '$1 == "stat::average_exec_per_sec:" {print $2}' "$log" 2>/dev/null)
  last=$(grep -E '^#[0-9]+' "$log" 2>/dev/null | grep -E 'cov: ' | tail -1)
  cov=$(sed -n 's/.*cov: \([0-9]*\).*/\1/p' <<<"$last")
  ft=$(sed -n 's/.*ft: \([0-9]*\).*/\1/p' <<<"$last")
  corp=$(sed -n 's/.*corp: \([0-9]*\).*/\1/p' <<<"$last")
  printf '%-8s %12s %8s %8s %8s %8s  %s\n' "$t" "${execs:--}" "${speed:--}" "${cov:--}" \
    "${ft:--}" "${corp:--}" "${status[$t]}"
  if [ "${status[$t]}" != ok ]; then
    failed=1
    echo "---- $log (tail)"
    tail -n 40 "$log" 2>/dev/null
    echo "---- findings in $build/artifacts/$t/:"
    ls -1 "$build/artifacts/$t/" 2>/dev/null
  fi
done
if [ $failed -ne 0 ]; then
  echo
  echo "fuzz: FAILED. Reproduce with $build/fuzz/fuzz_<target> <artifact>; keep the input as"
  echo "fuzz/corpus/<target>/crash-<what>.bin so that every later run checks the fix."
  exit 1
fi
echo "fuzz: no findings"
