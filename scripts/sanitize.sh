#!/usr/bin/env bash
# Builds the test suite with AddressSanitizer + UBSan (clang) and runs it; fails on any test
# failure, sanitizer report (leaks included) or build error. docs/robustness.md ("In CI")
# says what it covers and why.
#
#   scripts/sanitize.sh [ctest arguments]
#
# Environment: BUILD_DIR (default build-asan-clang), SANITIZE_EXCLUDE (a ctest regex of
# further tests to leave out, e.g. while a suite does not build).
#
# Configuration: clang (gcc 12 miscompiles a Simulator loop under -fsanitize=bounds,shift),
# -O1 with line tables only (stack traces keep file:line), assertions on; the suites' own files
# at -O0 (half the compile time: they are assertions and set-up); each library compiled as a
# few unity sources of up to 8 files (CMAKE_UNITY_BUILD: a third less compile, the headers
# parsed once a batch; the main build keeps one file a source, which proves that each file
# compiles on its own). Only the programs
# the selected tests run are built (no bench/, no DIALS). Left out: DIALS (an outside program
# reading our files), headless.gpu_out_of_memory (ASan cannot run under ulimit -v), the soak
# (its memory limit means nothing with ASan's quarantine). The parity cases run on braggview-headless-dev, the same
# runHeadless() as "braggview --headless".
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build-asan-clang}
case $build in /*) ;; *) build=$root/$build ;; esac

for tool in clang clang++ cmake ctest setsid timeout; do
  if ! command -v "$tool" >/dev/null; then
    echo "sanitize: $tool not found (scripts/setup.sh installs clang and libclang-rt-14-dev)" >&2
    exit 2
  fi
done

# python.module: a library built with ASan cannot be loaded by a Python built without it;
# refine.water: the code of refine.geometry and refine.mosaic (which run here) on a frame 7
# times larger, a minute of lavapipe without the sanitizers; parity.generic_vs_specialised:
# every parity case 4 times on the parity runs' host code, to compare two SPIR-V forms run by
# lavapipe's JIT code (3 minutes under the sanitizers)
exclude='^(dials\..*|headless\.gpu_out_of_memory|soak\..*|python\..*|refine\.water|parity\.generic_vs_specialised)$'
# The parity and amorphous cases' fast variants run the precise variant's host code but for the
# float tables (the same templates) and the SPIR-V chosen (run in lavapipe's JIT code, which no
# sanitizer instruments): under the sanitizers the cases below keep them (every kind of table:
# sources, mosaic domains, phi steps, interpolated structure factors, a curved detector, the
# amorphous pass), and the other 55 would repeat their precise run at about 90 s of CI's time.
# The plain build runs every case in both precisions.
fast_kept='^(parity\.(comprehensive|hkl_interpolate|mosaic|phi_osc|sourcefile|curved_det|water)|amorphous\.(nonBragg\.water_sources|background_in_run))\.fast$'
if [ -n "${SANITIZE_EXCLUDE:-}" ]; then exclude="$exclude|$SANITIZE_EXCLUDE"; fi
# the viewer's suites that open a window (each under a private Xvfb, GuiTestMain.h)
gui='^(tst_viewer|tst_screenshots)$'

generator=()
if [ ! -f "$build/CMakeCache.txt" ] && command -v ninja >/dev/null; then generator=(-G Ninja); fi
CC=clang CXX=clang++ cmake -S "$root" -B "$build" "${generator[@]}" \
  -DBRAGGVIEW_SANITIZE=ON -DBRAGGVIEW_WITH_QT=ON -DBRAGGVIEW_BUILD_TESTS=ON \
  -DBRAGGVIEW_PARITY_DEV_BINARY=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" \
  -DBRAGGVIEW_TEST_COMPILE_OPTIONS=-O0 -DCMAKE_UNITY_BUILD=ON >/dev/null || exit 2

# the programs the selected tests run: a Qt Test suite's target has the test's name
# (bv_add_test in tests/CMakeLists.txt; the GUI suites depend on braggview themselves); the
# parity and headless.* tests run the headless program and the image comparison tool
fast_left=$(ctest --test-dir "$build" -N -R '^(parity|amorphous)\..*\.fast$' |
  sed -n 's/^ *Test *#[0-9]*: //p' | grep -Ev "$fast_kept" | sed 's/\./\\./g' | paste -sd'|')
[ -n "$fast_left" ] && exclude="$exclude|^($fast_left)\$"
mapfile -t tests < <(ctest --test-dir "$build" -N -E "$exclude" | sed -n 's/^ *Test *#[0-9]*: //p')
targets=()
for t in "${tests[@]}"; do
  case $t in
    tst_* | test_*) targets+=("$t") ;;
    parity.* | headless.*) ;;
    nexus.* | cli.* | mpi.* | refine.*) targets+=(braggview) ;; # they run the app's --headless
    amorphous.gpu_psf) targets+=(braggview-check-gpu-psf) ;;
    amorphous.*) ;;                        # --nonbragg, --noisify: as parity, below
    layering.*) ;;                         # cmake scripts: nothing to build
    *) echo "sanitize: no rule for the program of test $t: add it to scripts/sanitize.sh" >&2
       exit 2 ;;
  esac
done
if printf '%s\n' "${tests[@]}" | grep -qE '^(parity|headless|amorphous)\.'; then
  targets+=(braggview-headless-dev braggview-compare)
fi
if [ ${#targets[@]} -eq 0 ]; then
  echo "sanitize: no test programs found in $build" >&2
  exit 2
fi
echo "sanitize: building ${#targets[@]} programs with ASan+UBSan in $build"
cmake --build "$build" -j "$(nproc)" --target "${targets[@]}" || exit 1

# Every UBSan report fails its test. LeakSanitizer is on: lavapipe (and its LLVM) keeps
# memory until exit and is unloaded (dlclose) before LSan looks, so its allocations would
# show as "<unknown module>"; preloaded, it stays loaded, its frames are named, and
# lsan.supp names it (and the other libraries that keep memory on purpose), nothing of ours.
# (The validation layer is not preloaded: its exported vk* functions would then take the
# place of the loader's, and Qt finds no surface functions.)
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export ASAN_OPTIONS=detect_leaks=1
export LSAN_OPTIONS=suppressions=$root/scripts/lsan.supp:print_suppressions=0
for lib in /usr/lib/*-linux-gnu/libvulkan_lvp.so; do
  [ -f "$lib" ] && export LD_PRELOAD="$lib${LD_PRELOAD:+:$LD_PRELOAD}"
done

status=0
ctest --test-dir "$build" -E "$exclude|$gui" -j "$(nproc)" --output-on-failure "$@" || status=1
# A GUI suite that dies on a sanitizer report leaves its Xvfb running, which holds ctest's
# output pipe open until the test's 20-minute timeout: the suites run in a session of their
# own, at most 10 minutes, and whatever is left of it is ended after.
setsid -w timeout -k 10 600 ctest --test-dir "$build" -R "$gui" -E "$exclude" -j "$(nproc)" \
  --output-on-failure "$@" &
session=$!
wait "$session" || status=1
kill -- -"$session" 2>/dev/null
echo "sanitize: left out: $exclude"
exit $status
