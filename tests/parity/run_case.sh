#!/usr/bin/env bash
# One parity case: run the headless program on a golden case's command line in a scratch
# directory and compare its images with the reference's.
#
#   run_case.sh COMPARE DATA CASE PRECISION HEADLESS...
#
# COMPARE: braggview-compare; DATA: tests/data; CASE: a folder of DATA/golden; PRECISION:
# precise or fast; HEADLESS...: the command that runs the headless program ("braggview
# --headless", or braggview-headless-dev). Exit 0 when every comparison meets its bar.
set -euo pipefail
compare=$1 data=$2 case=$3 precision=$4
shift 4
headless=("$@")
golden="$data/golden/$case"
work=$(mktemp -d "${TMPDIR:-/tmp}/braggview-parity.XXXXXX")
trap 'rm -rf "$work"' EXIT
cp "$data"/inputs/* "$work"/
cd "$work"

line=$(< "$golden/args.txt")
read -r -a args <<< "$line"
# the reference ran every case with these appended (tests/data/golden/README.md); misset_random
# depends on them: "-misset_seed 12345 -floatfile float.bin" also reads as a misset
# (docs/reference-quirks.md)
extra=(-floatfile float.bin -noprogress -precision "$precision")
# the int image always comes out; pgm and noise only when the case names them
[[ " ${args[*]} " == *" -pgmfile "* ]] || extra+=(-nopgm)
[[ " ${args[*]} " == *" -noisefile "* ]] || extra+=(-nonoise)

if ! "${headless[@]}" "${args[@]}" "${extra[@]}" > stdout.txt 2> stderr.txt; then
  echo "headless run failed:"; cat stderr.txt; exit 1
fi
# the suite runs with BRAGGVIEW_VALIDATION=1: the validation layer must have said nothing
if grep -q "validation:" stderr.txt; then
  echo "Vulkan validation messages:"; cat stderr.txt; exit 1
fi
status=0
echo "float.bin: $("$compare" float.bin "$golden/float.bin" --bar "$precision")" || true
"$compare" float.bin "$golden/float.bin" --bar "$precision" > /dev/null || status=1
for image in int.img noise.img image.pgm; do
  if [[ -f "$golden/$image" ]]; then
    if [[ ! -f "$image" ]]; then
      echo "$image: not written"; status=1; continue
    fi
    echo "$image: $("$compare" --pixels "$image" "$golden/$image" --bar "$precision")" || true
    "$compare" --pixels "$image" "$golden/$image" --bar "$precision" > /dev/null || status=1
  fi
done
exit $status
