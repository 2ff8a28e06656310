#!/usr/bin/env bash
# One --nonbragg/--noisify parity case: braggview on the reference's arguments in a scratch
# folder, its files compared with the reference's (tests/data/amorphous/<program>/<case>).
#
#   run_case.sh COMPARE DATA PROGRAM CASE MODE HEADLESS...
#
# MODE exact: nonBragg on the host's threads (-engine host), noisify as it is; the float image
# within the precise bars and every other file (SMV int and noise images, 16 or 32 bits, and
# PGMs) identical byte for byte: the reference's generator is called in its order with the
# same seeds. MODE precise or fast: nonBragg on the Vulkan device in that precision; the float
# image within that mode's bars, the integer images held as the golden cases' are
# (braggview-compare --pixels: precise, 99.9% of the pixels identical and the headers; fast,
# the headers only). The .stol tables are not copied: braggview takes water.stol, air.stol,
# ... from its built-in materials.
set -euo pipefail
compare=$1 data=$2 program=$3 case=$4 mode=$5
shift 5
headless=("$@")
golden="$data/$program/$case"
work=$(mktemp -d "${TMPDIR:-/tmp}/braggview-amorphous.XXXXXX")
trap 'rm -rf "$work"' EXIT
cp "$data"/inputs/* "$work"/
cd "$work"
read -r -a args < "$golden/args.txt"
extra=()
if [[ $program == noisify ]]; then
  flag=--noisify
else
  flag=--nonbragg
  if [[ $mode == exact ]]; then extra=(-engine host); else extra=(-precision "$mode"); fi
fi
bar=$mode
[[ $mode == exact ]] && bar=precise
if ! "${headless[@]}" "$flag" "${args[@]}" "${extra[@]}" > stdout.txt 2> stderr.txt; then
  echo "braggview failed:"; cat stderr.txt; exit 1
fi
fpixels=$(sed -n 's/.*(\([0-9][0-9]*\)x[0-9][0-9]* pixels).*/\1/p' "$golden/stdout.txt" | head -n 1)
status=0
for reference in "$golden"/*; do
  name=$(basename "$reference")
  [[ $name == args.txt || $name == stdout.txt ]] && continue
  if [[ ! -f $name ]]; then
    echo "$name: not written"; status=1; continue
  fi
  if [[ $name == *.stol ]]; then
    # -img's curve comes from the measured image and the geometry on the host, in every mode
    if cmp -s "$name" "$reference"; then echo "$name: identical"; else
      echo "$name: DIFFERENT"; diff "$name" "$reference" | head -n 6; status=1; fi
  elif [[ $name == *.bin ]]; then
    line=$("$compare" "$name" "$reference" --bar "$bar" --fpixels "$fpixels") || status=1
    echo "$name: $line"
  elif [[ $mode != exact ]]; then
    line=$("$compare" --pixels "$name" "$reference" --bar "$bar") || status=1
    echo "$name: $line"
  elif cmp -s "$name" "$reference"; then
    echo "$name: identical"
  else
    echo "$name: DIFFERENT ($(cmp "$name" "$reference" 2>&1 | head -n 1))"; status=1
  fi
done
exit $status
