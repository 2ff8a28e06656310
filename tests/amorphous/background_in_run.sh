#!/usr/bin/env bash
# -background in braggview's own run against --nonbragg: a run whose Bragg image is negligible
# (F = 1, 1 x 1 x 1 cells: 1e-4 photons at most) with 0.1 mm of water, and nonBragg's image of
# that water for the same detector, must agree within the precise bars. nanoBragg's MOSFLM
# convention puts the beam at (Ybeam + pixel/2, Xbeam + pixel/2) of nonBragg's frame, hence
# the shifted beam centre of the second run.
#
#   background_in_run.sh COMPARE PRECISION HEADLESS...
set -euo pipefail
compare=$1 precision=$2
shift 2
work=$(mktemp -d "${TMPDIR:-/tmp}/braggview-background.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
"$@" -cell 100 100 100 90 90 90 -default_F 1 -N 1 -detpixels_f 64 -detpixels_s 48 -pixel 0.1 \
  -distance 80 -Xbeam 2.5 -Ybeam 3.5 -lambda 1.2 -background water -background_thickness 0.1 \
  -background_density 1 -background_MW 18 -precision "$precision" -floatfile run.bin -nonoise \
  -nopgm -noprogress > run.txt
"$@" --nonbragg -stol water -thickness 0.1 -density 1 -MW 18 -detpixels_f 64 -detpixels_s 48 \
  -pixel 0.1 -distance 80 -Xbeam 3.55 -Ybeam 2.55 -lambda 1.2 -precision "$precision" \
  -floatfile nonbragg.bin -nonoise > nonbragg.txt
"$compare" run.bin nonbragg.bin --bar "$precision" --fpixels 64
