#!/usr/bin/env bash
# Set up, build, and run the whole test suite (ctest) on whatever Vulkan device there is;
# on a machine without a GPU that is Mesa's lavapipe. Then the robustness checks of
# docs/robustness.md, each in its own build directory: the fuzz smoke (scripts/fuzz.sh:
# every libFuzzer target 10 s, two at a time, build-fuzz/) and the AddressSanitizer + UBSan
# build of the test suite and its run (scripts/sanitize.sh, build-asan-clang/).
# Arguments go to the first ctest. BRAGGVIEW_ROBUSTNESS=0 leaves the robustness checks out.
# Every step runs even when one before it failed; the exit status is 1 when any failed, and
# the last lines say which, with the time each took.
set -uo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh || exit 1
./scripts/build.sh || exit 1

results=()
failed=0
step() {
  local name=$1 start=$SECONDS result=ok
  shift
  echo "==== test.sh: $name"
  if ! "$@"; then
    result=FAILED
    failed=1
  fi
  results+=("$(printf '  %-36s %-7s %5d s' "$name" "$result" $((SECONDS - start)))")
}

step "ctest (build/)" ctest --test-dir build --output-on-failure -j"$(nproc)" "$@"
if [ "${BRAGGVIEW_ROBUSTNESS:-1}" != 0 ]; then
  step "fuzz smoke, 10 s a target (build-fuzz/)" env JOBS=2 ./scripts/fuzz.sh 10
  step "ASan+UBSan tests (build-asan-clang/)" ./scripts/sanitize.sh
fi

echo "==== test.sh: summary"
printf '%s\n' "${results[@]}"
exit $failed
