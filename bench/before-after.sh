#!/usr/bin/env bash
# Two builds of braggview side by side on one machine, for a change that must keep its speed:
# the benchmark cases alternated between the two (before, after, before, after), then the
# parity suite in both precisions with the second build.
#
#   bench/before-after.sh BEFORE_BIN AFTER_BIN OUT_DIR [ROUNDS]
#
# Each BIN folder holds braggview, braggview-bench and braggview-compare built with
# -DBRAGGVIEW_WITH_QT=OFF. Results: OUT_DIR/bench-{before,after}-N.txt, parity.txt.
set -uo pipefail
before=$(cd "$1" && pwd); after=$(cd "$2" && pwd); out=$(mkdir -p "$3" && cd "$3" && pwd)
rounds=${4:-2}
cd "$(dirname "$0")/.."
data=$(pwd)/tests/data
cases=(--case simple_1024 --case simple_4096 --case heavy_512 --case heavy_1024)

for round in $(seq "$rounds"); do
  for side in before after; do
    bin=$before; [[ $side == after ]] && bin=$after
    "$bin/braggview-bench" --repeats 10 "${cases[@]}" > "$out/bench-$side-$round.txt" 2>&1
  done
done

{
  pass=0; fail=0
  for precision in precise fast; do
    for dir in "$data"/golden/*/; do
      case=$(basename "$dir")
      if result=$(tests/parity/run_case.sh "$after/braggview-compare" "$data" "$case" \
                    "$precision" "$after/braggview" --headless 2>&1); then
        pass=$((pass + 1)); verdict=PASS
      else
        fail=$((fail + 1)); verdict=FAIL
      fi
      echo "$case $precision $verdict"
      [[ $verdict == FAIL ]] && echo "$result" | sed 's/^/    /'
    done
  done
  echo "# $pass passed, $fail failed"
} > "$out/parity.txt" 2>&1
