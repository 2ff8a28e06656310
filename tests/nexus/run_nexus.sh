#!/usr/bin/env bash
# -nexusfile read back with h5py (tests/nexus/CMakeLists.txt).
#
#   run_nexus.sh golden|series|panels|polarization|errors DATA HEADLESS...
#
# golden: the case det_rotations (a tilted, rotated detector, so every axis matters) rendered
# with -nonoise -floatfile -nexusfile; /entry/data/data must equal the float file bit for bit
# and the geometry must be what the reference printed for the case (its stdout.txt).
# series: a 3-frame -series with noise: one file of int32 counts, equal to the -cbffile
# frames pixel for pixel, with each frame's phi. panels: the hand-made two-panel detector of
# different widths (tests/data/detectors/two-widths.expt) with -nonoise and with noise: a
# module per panel, the data the stacked float image, each module where the .expt puts its
# panel. polarization: the Kahn factor as the beam's Stokes parameters. errors: no bitshuffle plugin, a folder that
# does not exist, a write that fails (a file size limit standing in for a full disk): an error naming the file, exit status 1, no file and no temporary left.
set -euo pipefail
check=$1 data=$2
shift 2
headless=("$@")
here=$(cd "$(dirname "$0")" && pwd)

# the Python with h5py: Debian's (python3-h5py), whatever python3 comes first on PATH
python=
for candidate in /usr/bin/python3 python3; do
  if "$candidate" -c "import h5py, numpy" 2> /dev/null; then python=$candidate; break; fi
done
[[ -n $python ]] || { echo "no python3 with h5py: install python3-h5py (scripts/setup.sh does)"; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/braggview-nexus.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"

case $check in
  golden)
    read -r -a args < "$data/golden/det_rotations/args.txt"
    "${headless[@]}" "${args[@]}" -nonoise -nopgm -noprogress -floatfile float.bin \
        -nexusfile det.h5 > stdout.txt 2>&1 || { cat stdout.txt; exit 1; }
    "$python" "$here/check_nexus.py" golden det.h5 float.bin "$data/golden/det_rotations/stdout.txt"
    ;;
  series)
    "${headless[@]}" -cell 50 60 70 90 90 90 -misset 10 20 30 -default_F 100 -N 5 \
        -distance 100 -detpixels 64 -phi 2 -osc 0.5 -series 3 -seed 1 -noprogress \
        -cbffile 'f_#.cbf' -nexusfile series.h5 > stdout.txt 2>&1 || { cat stdout.txt; exit 1; }
    grep -q "wrote series.h5 (NeXus/NXmx, 3 frames)" stdout.txt || { cat stdout.txt; exit 1; }
    "$python" "$here/check_nexus.py" series series.h5 f_1.cbf f_2.cbf f_3.cbf
    ;;
  panels)
    run=(-detector "$data/detectors/two-widths.expt" -cell 50 60 70 90 90 90 -misset 10 20 30
         -default_F 100 -N 5 -seed 1 -nopgm -noprogress)
    "${headless[@]}" "${run[@]}" -nonoise -floatfile float.bin -nexusfile floats.h5 \
        > stdout.txt 2>&1 || { cat stdout.txt; exit 1; }
    "${headless[@]}" "${run[@]}" -floatfile float2.bin -nexusfile counts.h5 > stdout2.txt 2>&1 ||
        { cat stdout2.txt; exit 1; }
    cmp -s float.bin float2.bin || { echo "the float image changed with noise"; exit 1; }
    "$python" "$here/check_nexus.py" panels floats.h5 float.bin counts.h5 \
        "$data/detectors/two-widths.expt"
    ;;
  polarization)
    # what was simulated: nanoBragg's Kahn factor (-polar, default 0: unpolarized) as NXmx's
    # Stokes parameters, with the E-vector of each convention (docs/nexus.md, "Polarization")
    small=(-cell 100 100 100 90 90 90 -default_F 1 -detpixels 32 -nonoise -nopgm -noprogress)
    for run in "default:" "polar:-polar 0.6" "nopolar:-polar 0.6 -nopolar" "xds:-xds -polar 0.6" \
               "vertical:-polar 0.6 -polar_vector 0 1 0" "negative:-polar -0.3"; do
      name=${run%%:*} options=${run#*:}
      # shellcheck disable=SC2086
      "${headless[@]}" "${small[@]}" $options -floatfile "$name.bin" -nexusfile "$name.h5" \
          > "$name.txt" 2>&1 || { cat "$name.txt"; exit 1; }
    done
    "$python" "$here/check_nexus.py" polarization .
    ;;
  errors)
    small=(-cell 100 100 100 90 90 90 -default_F 1 -detpixels 32 -nonoise -nopgm -noprogress)
    expect_error() { # expect_error WORDS COMMAND...: exit 1, WORDS and the file in the message
      local words=$1; shift
      if "$@" > out.txt 2>&1; then echo "succeeded: $*"; cat out.txt; exit 1; fi
      grep -q -- "$words" out.txt || { echo "no '$words' in:"; cat out.txt; exit 1; }
    }
    # HDF5 looks for plugins only in HDF5_PLUGIN_PATH when it is set
    HDF5_PLUGIN_PATH=/nonexistent expect_error "bitshuffle" "${headless[@]}" "${small[@]}" \
        -floatfile a.bin -intfile a.img -nexusfile a.h5
    grep -q "a.h5" out.txt || { cat out.txt; exit 1; }
    # a folder that does not exist (root writes into any folder, so no permission test)
    expect_error "missing/b.h5" "${headless[@]}" "${small[@]}" -floatfile b.bin -intfile b.img \
        -nexusfile missing/b.h5
    # a series stops before its first frame: no CBF of frame 1 either
    HDF5_PLUGIN_PATH=/nonexistent expect_error "d.h5: cannot write NeXus data" "${headless[@]}" \
        "${small[@]}" -series 2 -cbffile 'd_#.cbf' -nexusfile d.h5
    expect_error "missing/d.h5" "${headless[@]}" "${small[@]}" -series 2 -cbffile 'd_#.cbf' \
        -nexusfile missing/d.h5
    # HDF5's own write failing, as on a full disk: files limited to 16 KB (SIGXFSZ ignored,
    # so write(2) fails with EFBIG), a series of 4 frames of 256 x 256 in one file
    ( trap '' XFSZ; ulimit -f 16
      expect_error "c.h5: cannot write NeXus file: .*File too large" "${headless[@]}" \
          -cell 50 60 70 90 90 90 -default_F 100 -N 5 -detpixels 256 -series 4 -osc 1 -seed 1 \
          -noprogress -nexusfile c.h5 )
    # nothing of any run: all or nothing
    leftovers=$(find . -name 'a.*' -o -name 'b.*' -o -name 'c.*' -o -name 'd*' -o -name '.*tmp-*')
    [[ -z $leftovers ]] || { echo "left behind: $leftovers"; exit 1; }
    echo "errors named the file, and no file was left"
    ;;
  *) echo "usage: run_nexus.sh golden|series|panels|polarization|errors DATA HEADLESS..."; exit 2 ;;
esac
