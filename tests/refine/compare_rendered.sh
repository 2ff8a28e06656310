#!/usr/bin/env bash
# -compare counts only what the simulation renders: a 64 x 64 frame braggview wrote (noise
# image), compared with the same experiment under -roi 0 31 0 63, has data in the left
# half alone; the run says how many pixels it took out. (docs/dials-experiment.md, "What the
# simulation leaves out"; io::applyRenderedArea.)
#
#   compare_rendered.sh HEADLESS...
set -euo pipefail
work=$(mktemp -d "${TMPDIR:-/tmp}/braggview-rendered.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
experiment=(-cell 79 79 38 90 90 90 -misset 10 20 30 -lambda 1.0 -N 5 -default_F 100
            -distance 150 -detpixels 64 -noprogress -nopgm)
"$@" "${experiment[@]}" -noisefile measured.img -seed 5 > write.log
"$@" "${experiment[@]}" -roi 0 31 0 63 -measured measured.img -compare -nonoise \
  -floatfile simulated.bin > compare.log
fail() { echo "$1"; cat compare.log; exit 1; }
grep -q "measured.img: 2048 pixels the simulation does not render (-mask, -roi) carry no data" \
  compare.log || fail "the pixels outside -roi were not taken out"
grep -q "(SMV, 64 x 64 pixels, 2048 with data)" compare.log || fail "not 2048 pixels with data"
grep -Eq "^  all +pixels 2048 " compare.log || fail "the comparison did not count 2048 pixels"
echo "compared the 2048 pixels of the left half"
