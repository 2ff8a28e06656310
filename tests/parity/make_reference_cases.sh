#!/usr/bin/env bash
# Makes the project's own parity cases (tests/data/reference) from the reference nanoBragg,
# which the user builds outside this tree (bl831/nanoBragg: gcc -O3 -fopenmp -o nanoBragg
# nanoBragg.c -lm); this script never builds it. Each case of reference_cases.txt runs as the
# golden cases were run: with OMP_NUM_THREADS=2, the inputs of tests/data/inputs beside it and
# "-floatfile float.bin -noprogress -nopgm -nonoise" appended.
#
#   make_reference_cases.sh NANOBRAGG [DATA_DIR]
set -euo pipefail
reference=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
data=${2:-$here/../data}
data=$(cd "$data" && pwd)
grep -v '^#' "$here/reference_cases.txt" | grep -v '^$' | while IFS='|' read -r name args; do
  work=$(mktemp -d)
  cp "$data"/inputs/* "$work"/
  read -r -a words <<< "$args"
  (cd "$work" && OMP_NUM_THREADS=2 "$reference" "${words[@]}" -floatfile float.bin -noprogress \
     -nopgm -nonoise > stdout.txt 2>&1) || { echo "$name: the reference failed"; cat "$work/stdout.txt"; exit 1; }
  dest="$data/reference/$name"
  rm -rf "$dest" && mkdir -p "$dest"
  echo "$args" > "$dest/args.txt"
  cp "$work/stdout.txt" "$work/float.bin" "$dest/"
  echo "$name: $(ls "$dest" | tr '\n' ' ')"
  rm -rf "$work"
done
