#!/usr/bin/env bash
# -background in a series: frame 1 of "-series 2" is byte for byte the single run of the same
# command line (as every series frame 1 is, docs/series.md), background included, and frame 2
# (another angle, the same layer) differs from it only by the Bragg part: both carry the
# layer, which here outweighs the crystal by far.
#
#   background_series.sh HEADLESS...
set -euo pipefail
work=$(mktemp -d "${TMPDIR:-/tmp}/braggview-background-series.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
args=(-cell 100 100 100 90 90 90 -default_F 1 -N 1 -detpixels 32 -pixel 0.2 -distance 80
      -background water -background_thickness 0.05 -osc 1 -nonoise -nopgm -noprogress)
"$@" "${args[@]}" -floatfile single.bin -intfile single.img > single.txt
"$@" "${args[@]}" -series 2 -floatfile frame_#.bin -intfile frame_#.img > series.txt
cmp single.bin frame_1.bin
cmp single.img frame_1.img
# the layer is in frame 2 as well: the crystal alone (F = 1, one cell) gives at most 1e-4
# photons a pixel, 0.05 mm of water ~1e10 at this distance
max2=$(od -An -v -tf4 frame_2.bin | tr -s ' ' '\n' | grep . | sort -g | tail -n 1)
if ! awk -v m="$max2" 'BEGIN { exit !(m > 1e6) }'; then
  echo "frame 2 holds no background (max $max2 photons)"; exit 1
fi
echo "frame 1 = single run, background in both frames"
