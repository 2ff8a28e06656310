#!/usr/bin/env bash
# -response_* in braggview's own run: its noise image holds the pixels that --noisify makes
# from the run's float image with the same seed and settings (--noisify itself is held to the
# reference noisify by the parity cases); only the headers differ (nanoBragg's SMV header in
# the run, noisify's in --noisify).
#
#   response_in_run.sh HEADLESS...
set -euo pipefail
work=$(mktemp -d "${TMPDIR:-/tmp}/braggview-response.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
"$@" -cell 100 100 100 90 90 90 -default_F 100 -N 5 -detpixels_f 64 -detpixels_s 48 -pixel 0.1 \
  -distance 100 -seed 12 -adc 25 -floatfile run.bin -noisefile run.img -nopgm -noprogress \
  -response_psf fiber -response_psf_fwhm 90 -response_readout 1.5 -response_flicker 0.02 \
  -response_calibration 0.03 -response_gain 2 > run.txt
"$@" --noisify -floatfile run.bin -detpixels_x 64 -pixel 0.1 -seed 12 -adc 25 -psf fiber \
  -psf_fwhm 90 -readout 1.5 -flicker 0.02 -calibration 0.03 -gain 2 -noisefile noisify.img \
  -intfile noisify_int.img -nopgm > noisify.txt
if ! cmp <(tail -c +513 run.img) <(tail -c +513 noisify.img); then
  echo "the run's noise pixels are not --noisify's"; exit 1
fi
# and they are not plain Poisson: the same run without -response_* differs
"$@" -cell 100 100 100 90 90 90 -default_F 100 -N 5 -detpixels_f 64 -detpixels_s 48 -pixel 0.1 \
  -distance 100 -seed 12 -adc 25 -floatfile plain.bin -noisefile plain.img -nopgm -noprogress > plain.txt
if cmp -s run.img plain.img; then echo "-response_* changed nothing"; exit 1; fi
echo "noise pixels = --noisify's"
