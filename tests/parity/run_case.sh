#!/usr/bin/env bash
# One parity case: run the headless program on a golden case's command line in a scratch
# directory and compare its images with the reference's.
#
#   run_case.sh COMPARE DATA CASE PRECISION HEADLESS...
#
# COMPARE: braggview-compare; DATA: tests/data; CASE: a folder of DATA/golden (or of
# DATA/reference); PRECISION:
# precise or fast; HEADLESS...: the command that runs the headless program ("braggview
# --headless", or braggview-headless-dev). Exit 0 when every comparison meets its bar.
set -euo pipefail
compare=$1 data=$2 case=$3 precision=$4
shift 4
headless=("$@")
golden="$data/golden/$case"
# the project's own reference cases (make_reference_cases.sh) beside the golden ones
[[ -d $golden ]] || golden="$data/reference/$case"
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
# The float files hold no size: the width is the reference's fast pixel count, which its
# stdout.txt states for every case ("(FPIXELSxSPIXELS pixels)"), whichever option set it
# (-detpixels, -detpixels_f, -detsize_f with -pixel, an -img or -mask file); failing that,
# the SIZE1 of its int image's SMV header.
fpixels=$(sed -n 's/.*(\([0-9][0-9]*\)x[0-9][0-9]* pixels).*/\1/p' "$golden/stdout.txt" 2>/dev/null | head -n 1)
if [[ -z "$fpixels" && -f "$golden/int.img" ]]; then
  fpixels=$(head -c 512 "$golden/int.img" | tr -d '\0' | sed -n 's/^SIZE1=\([0-9][0-9]*\);.*/\1/p' | head -n 1)
fi
if [[ -z "$fpixels" ]]; then
  echo "cannot tell the image width of $case: no '(FxS pixels)' in stdout.txt, no int.img"; exit 1
fi

status=0
float_line=$("$compare" float.bin "$golden/float.bin" --bar "$precision" --fpixels "$fpixels") || status=1
echo "float.bin: $float_line"
# Integer images: precise holds them to identity (braggview-compare --pixels); fast only
# checks that they were written with the reference's header and pixel count, because one
# float rounding may flip an int pixel and change every Poisson draw after it
# (shared/golden/README.md, docs/numerics/parity-metrics.md).
for image in int.img noise.img image.pgm; do
  if [[ -f "$golden/$image" ]]; then
    if [[ ! -f "$image" ]]; then
      echo "$image: not written"; status=1; continue
    fi
    line=$("$compare" --pixels "$image" "$golden/$image" --bar "$precision") || status=1
    echo "$image: $line"
  fi
done
exit $status
