#!/usr/bin/env bash
# run_mpi.sh CHECK MPIRUN HEADLESS...: one check of a batch under mpirun against the same
# batch as one process (tests/mpi/CMakeLists.txt says what each check shows).
set -uo pipefail
check=$1
mpirun=$2
shift 2
headless=("$@")

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export SOURCE_DATE_EPOCH=1700000000 # the CBF and NeXus time stamps of every run alike
# CI runs as root on a small machine without network: OpenMPI must be told that root is
# meant, that more ranks than cores are fine, and to talk through shared memory alone (no
# single-copy mechanism, which a container may forbid)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_hwloc_base_binding_policy=none
# Under scripts/sanitize.sh: OpenMPI's runtime keeps memory past MPI_Finalize in plugins it
# has unloaded by then (LeakSanitizer sees "<unknown module>", nothing to suppress by name),
# so leaks are not checked here; ASan's and UBSan's other checks stay on, and the batch code
# is leak-checked in one process by test_series_devices and test_series_framelog.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"

small="-cell 50 60 70 90 90 90 -misset 10 20 30 -lambda 1.0 -N 3 -default_F 100 -distance 60
       -detpixels 48 -noprogress"
failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

# run DIR K ARGS...: the batch in DIR, as one process (K = 0) or K ranks of mpirun
run() {
  local dir=$1 k=$2
  shift 2
  mkdir -p "$dir"
  if [ "$k" -eq 0 ]; then
    (cd "$dir" && "${headless[@]}" "$@" >log.txt 2>err.txt)
  else
    (cd "$dir" && timeout 120 "$mpirun" -n "$k" "${headless[@]}" "$@" >log.txt 2>err.txt)
  fi
}

# same_as ONE OTHER: every file of the one-process run, byte for byte, and no other file;
# the frames' lines the same, in the same order
same_as() {
  local one=$1 other=$2
  local a b
  a=$(cd "$one" && ls -A | grep -v -e '^log.txt$' -e '^err.txt$' | sort)
  b=$(cd "$other" && ls -A | grep -v -e '^log.txt$' -e '^err.txt$' | sort)
  [ -n "$a" ] || fail "$one: no files"
  [ "$a" = "$b" ] || fail "$other: files $(echo $b) instead of $(echo $a)"
  for f in $a; do
    cmp -s "$one/$f" "$other/$f" || fail "$other/$f differs from the one-process run's"
  done
  diff <(grep -e '^frame ' -e '^wrote ' "$one/log.txt") \
       <(grep -e '^frame ' -e '^wrote ' "$other/log.txt") >/dev/null ||
    fail "$other: the frame lines differ: $(diff <(grep '^frame ' "$one/log.txt") <(grep '^frame ' "$other/log.txt") | head -5)"
}

case $check in
series) # noise, float and CBF images of a rotation series, 1, 2 and 3 ranks
  args="$small -phi 0 -osc 1 -phisteps 2 -series 7 -seed 3
        -noisefile n_##.img -floatfile f_##.bin -cbffile c_##.cbf"
  run "$work/one" 0 $args || fail "one process: $(cat "$work/one/err.txt")"
  for k in 1 2 3; do
    run "$work/k$k" $k $args || fail "$k ranks: exit $?: $(cat "$work/k$k/err.txt")"
    same_as "$work/one" "$work/k$k"
  done
  grep -q "3 processes (mpirun)" "$work/k3/log.txt" || fail "3 ranks: no word of the ranks"
  ;;
nexus) # one NeXus file for the series: rank 0 appends every rank's frames in order
  args="$small -phi 0 -osc 1 -series 7 -seed 3 -nexusfile all.h5"
  run "$work/one" 0 $args || fail "one process: $(cat "$work/one/err.txt")"
  for k in 2 3; do
    run "$work/k$k" $k $args || fail "$k ranks: exit $?: $(cat "$work/k$k/err.txt")"
    same_as "$work/one" "$work/k$k"
  done
  ;;
job) # a job of unrelated images: cells, detector sizes, a table changed by -default_F
  cat >"$work/job.json" <<JSON
{"base": "-default_F 100 -N 3 -lambda 1.0 -distance 60 -detpixels 48 -seed 1 -noprogress -noisefile u_##.img -floatfile u_##.bin",
 "frames": [{"-cell": "50 60 70 90 90 90", "-misset": "random", "-misset_seed": 4},
            {"-cell": "40 40 40 90 90 90", "-distance": 80},
            {"-cell": "70 70 90 90 90 120", "-misset": "5 10 15", "-detpixels": 64},
            {"-cell": "50 60 70 90 90 90", "-lambda": 1.3, "-seed": 99},
            {"-cell": "30 40 50 80 85 95", "-detpixels": 32}]}
JSON
  run "$work/one" 0 --job "$work/job.json" || fail "one process: $(cat "$work/one/err.txt")"
  for k in 2 3; do
    run "$work/k$k" $k --job "$work/job.json" || fail "$k ranks: $(cat "$work/k$k/err.txt")"
    same_as "$work/one" "$work/k$k"
  done
  ;;
resume) # frames 2 and 5 on disk already (with the manifest that says so, docs/series.md):
        # each rank skips its own, the lines say so in order
  cat >"$work/job.json" <<JSON
{"base": "$(echo $small) -seed 4 -noisefile r_##.img",
 "frames": [{"-phi": 0}, {"-phi": 1}, {"-phi": 2}, {"-phi": 3}, {"-phi": 4}, {"-phi": 5}]}
JSON
  run "$work/one" 0 --job "$work/job.json" || fail "one process: $(cat "$work/one/err.txt")"
  mkdir -p "$work/part"
  cp "$work/one/r_02.img" "$work/one/r_05.img" "$work/one/r.manifest.jsonl" "$work/part/"
  run "$work/part" 2 --job "$work/job.json" || fail "2 ranks: $(cat "$work/part/err.txt")"
  grep -q '^frame 2/6: complete on disk, skipped' "$work/part/log.txt" || fail "no skip of frame 2"
  grep -q '^frame 5/6: complete on disk, skipped' "$work/part/log.txt" || fail "no skip of frame 5"
  grep -q '6 frames: 4 rendered, 2 complete on disk already' "$work/part/log.txt" ||
    fail "the count: $(grep '^6 frames' "$work/part/log.txt")"
  for f in r_01.img r_02.img r_03.img r_04.img r_05.img r_06.img; do
    cmp -s "$work/one/$f" "$work/part/$f" || fail "resumed $f differs"
  done
  ;;
errors)
  # frame 4 (rank 1 of 2) cannot be rendered (more pixels than an image holds, found when it
  # is resolved; a file that cannot be written is refused before any frame): every rank
  # stops, the exit is not 0, the message names the frame and its rank, and every image there
  # is is whole (the one-process bytes; a rank stopped in the middle of a frame leaves a
  # temporary, which a resumed job removes)
  frames='{"-phi": 0}, {"-phi": 1}, {"-phi": 2}, {"-phi": 3}, {"-phi": 4}, {"-phi": 5}'
  printf '{"base": "%s -seed 3 -noisefile n_##.img", "frames": [%s]}\n' "$(echo $small)" \
    "$frames" >"$work/good.json"
  printf '{"base": "%s -seed 3 -noisefile n_##.img", "frames": [%s]}\n' "$(echo $small)" \
    "${frames/'{"-phi": 3}'/'{"-detpixels": 32768}'}" >"$work/bad.json"
  run "$work/one" 0 --job "$work/good.json" || fail "one process: $(cat "$work/one/err.txt")"
  if run "$work/bad" 2 --job "$work/bad.json"; then fail "a frame's error under mpirun exits 0"; fi
  grep -q 'frame 4/6: the detector has too many pixels' "$work/bad/err.txt" ||
    fail "the error does not name frame 4: $(cat "$work/bad/err.txt")"
  grep -q 'rank 1 of 2' "$work/bad/err.txt" || fail "the error does not name its rank"
  for f in "$work"/bad/n_0?.img; do
    [ -d "$f" ] || cmp -s "$f" "$work/one/$(basename "$f")" || fail "$(basename "$f") is not whole"
  done
  # one image under mpirun: refused, every rank would write the same file
  if run "$work/single" 2 $small -floatfile one.bin; then fail "a single image under mpirun exits 0"; fi
  grep -q 'only a batch' "$work/single/err.txt" || fail "single: $(cat "$work/single/err.txt")"
  [ -e "$work/single/one.bin" ] && fail "single: one.bin written"
  ;;
*)
  echo "run_mpi.sh: no check $check"
  exit 2
  ;;
esac

if [ $failures -gt 0 ]; then
  echo "$check: $failures failure(s)"
  exit 1
fi
echo "$check: ok"
