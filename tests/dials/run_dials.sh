#!/usr/bin/env bash
# DIALS reads and indexes braggview's rotation series (issue "Series and batch export"):
# the issue's 20-frame series is rendered with -series into a scratch directory, then
# dials.import, dials.find_spots and dials.index run on it, and the indexed cell must be
# the one DIALS finds for the reference program's own frames of this series, within 0.05%
# on every edge and 0.05 degrees on every angle.
#
#   run_dials.sh smv|cbf|nexus|panels|pilatus|smv_origin|experiment|spots HEADLESS...
#
# nexus: one -nexusfile of all 20 frames (NeXus/NXmx, dxtbx's FormatNXmx), whose counts are
# the CBF's, so spots need 50 counts there too; dials.show must report for it the beam
# centre, distance, pixel size and axes it reports for frame 1 written as CBF and as SMV.
# smv: the -noisefile images (nanoBragg's SMV, read by dxtbx's FormatSMVJHSim), DIALS'
# default spot finding. cbf: the -cbffile images (miniCBF, dxtbx's FormatCBFMini); their
# pixels are true photon counts on a background of exactly 0, where DIALS' default dispersion
# threshold takes the crystal's lattice-transform fringes for spots, so spots need 50 counts
# (docs/series.md, "DIALS").
# panels: the 4-module tilted detector of tests/data/detectors/four-module-tilted.expt (a DIALS
# experiment list) as -detector, the series as one -nexusfile, a module per panel: dials.import
# must read every panel where the .expt puts it (origin within 1 um, axes within 1e-6; also
# after -distance moves the detector), and dials.index, with the detector as the file states
# it (not refined), must find the -cell within 0.2% on edges and 0.2 degrees on angles.
set -euo pipefail
format=$1
shift
headless=("$@")
here=$(cd "$(dirname "$0")" && pwd)

for tool in dials.import dials.find_spots dials.index python3; do
  if ! command -v "$tool" > /dev/null; then
    echo "$tool not found: install the Debian package dials (scripts/setup.sh does)"
    exit 1
  fi
done

work=$(mktemp -d "${TMPDIR:-/tmp}/braggview-dials.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"

if [[ $format == experiment ]]; then
  # the round trip: a 3-frame series with an off-centre beam, written as CBF, SMV and one
  # NeXus file; dials.import of each; -experiment imported.expt -frame 3 with the crystal's
  # options must give the float image of the series' frame 3 bit for bit. dxtbx's readers of
  # the three formats state a polarization fraction of 0.999 whatever the file says (the NXmx
  # file carries the Stokes vector of what was simulated, which this dxtbx does not read), so
  # the runs take -polar 0 after -experiment (docs/dials-experiment.md).
  crystal=(-cell 50 60 70 90 90 90 -misset 10 20 30 -N 5 -default_F 100)
  geometry=(-lambda 1.0 -distance 100 -detpixels 256 -pixel 0.1 -Xbeam 14.73 -Ybeam 11.88)
  "${headless[@]}" "${crystal[@]}" "${geometry[@]}" -phi 0 -osc 1 -phisteps 2 -series 3 -seed 1 \
      -noprogress -nopgm -cbffile 'sim_#####.cbf' -noisefile 'sim_#####.img' -nexusfile sim.h5 \
      > render.log 2>&1 || { cat render.log; exit 1; }
  "${headless[@]}" "${crystal[@]}" "${geometry[@]}" -phi 2 -osc 1 -phisteps 2 -seed 1 -noprogress \
      -nopgm -nonoise -floatfile frame3.bin -intfile frame3.img > frame3.log 2>&1 ||
      { cat frame3.log; exit 1; }
  status=0
  for kind in cbf smv nexus; do
    mkdir "$kind"
    case $kind in
      cbf) files=(../sim_*.cbf); polar=(-polar 0) ;;
      smv) files=(../sim_*.img); polar=(-polar 0) ;;
      nexus) files=(../sim.h5); polar=(-polar 0) ;;
    esac
    ( cd "$kind" && dials.import "${files[@]}" > import.log 2>&1 ) ||
      { tail -20 "$kind/import.log"; exit 1; }
    "${headless[@]}" -experiment "$kind/imported.expt" -frame 3 "${crystal[@]}" "${polar[@]}" \
        -phisteps 2 -noprogress -nopgm -nonoise -floatfile "$kind/frame3.bin" > "$kind/run.log" 2>&1 ||
        { cat "$kind/run.log"; exit 1; }
    if cmp -s frame3.bin "$kind/frame3.bin"; then
      echo "$kind: -experiment imported.expt -frame 3 gives frame 3 bit for bit"
    else
      echo "$kind: -experiment imported.expt -frame 3 differs from frame 3"; status=1
    fi
  done
  # -compare with the experiment's own image of -frame 3 (the imageset's CBF: the same
  # photons with Poisson noise, 7 counts rms): the fit's scale is 1 within 5% and the
  # correlation above 0.95 (0.988 and 0.991 when written; another frame gives about 0.1)
  "${headless[@]}" -experiment cbf/imported.expt -frame 3 "${crystal[@]}" -polar 0 -phisteps 2 \
      -noprogress -nopgm -nonoise -floatfile compare.bin -compare > compare.log 2>&1 ||
      { cat compare.log; exit 1; }
  grep -A1 "^compare with" compare.log
  python3 - compare.log <<'PY' || status=1
import re, sys
text = open(sys.argv[1]).read()
m = re.search(r"all +pixels (\d+) +correlation ([-0-9.e]+) +scale ([-0-9.e]+)", text)
if not m:
    print("no comparison printed"); sys.exit(1)
r, k = float(m.group(2)), float(m.group(3))
if not (r > 0.95 and abs(k - 1) < 0.05):
    print("the measured frame 3 and its simulation: correlation %g, scale %g" % (r, k)); sys.exit(1)
PY
  exit $status
fi

if [[ $format == spots ]]; then
  # -spots with DIALS's own spot finding: one frame written as CBF (as
  # tests/data/dials/strong.refl was made, its README), dials.import and dials.find_spots;
  # -experiment imported.expt -frame 1 with the crystal's options, -compare -spots
  # strong.refl must match every spot DIALS found within 5 pixels, at under 0.5 pixel rms
  # (0.37 when written: DIALS's centroids of the pixels over its threshold against the
  # simulated spots' whole centroids), all of them on image 1 of the scan.
  crystal=(-cell 50 60 70 90 90 90 -misset 10 20 30 -N 10 -default_F 100)
  "${headless[@]}" "${crystal[@]}" -lambda 1.0 -distance 100 -detpixels 256 -pixel 0.2 -phi 0 \
      -osc 1 -phisteps 4 -seed 1 -noprogress -nopgm -cbffile sim_00001.cbf > render.log 2>&1 ||
      { cat render.log; exit 1; }
  dials.import sim_00001.cbf > import.log 2>&1 || { tail -20 import.log; exit 1; }
  dials.find_spots imported.expt nproc=2 spotfinder.threshold.dispersion.global_threshold=50 \
      output.shoeboxes=False > find.log 2>&1 || { tail -20 find.log; exit 1; }
  grep -E "^Saved .* reflections" find.log
  "${headless[@]}" -experiment imported.expt -frame 1 "${crystal[@]}" -polar 0 -phisteps 4 \
      -precision fast -noprogress -nopgm -nonoise -floatfile compare.bin -compare \
      -spots strong.refl > compare.log 2>&1 || { cat compare.log; exit 1; }
  sed -n '/^observed spots/,$p' compare.log
  python3 - compare.log find.log <<'PY'
import re, sys
text, found = open(sys.argv[1]).read(), open(sys.argv[2]).read()
saved = int(re.search(r"Saved (\d+) reflections", found).group(1))
head = re.search(r"observed spots \(strong.refl: (\d+) of (\d+) rows, those of image 1\)", text)
m = re.search(r"id 0 panel 0 +(\d+) of (\d+) matched within 5 pixels, RMSD ([0-9.]+) pixels", text)
if not head or not m or int(head.group(1)) != saved or int(m.group(1)) != saved:
    print("not every one of DIALS's %d spots matched on image 1" % saved); sys.exit(1)
if float(m.group(3)) > 0.5:
    print("RMSD %s pixels, over 0.5" % m.group(3)); sys.exit(1)
PY
  exit 0
fi

if [[ $format == pilatus ]]; then
  # a PILATUS 100K (487 x 195 pixels of 0.172 mm, 0.45 mm of silicon): header convention
  # PILATUS_1.2, read by dxtbx's own PILATUS class, which applies the module geometry
  "${headless[@]}" -cell 50 60 70 90 90 90 -default_F 100 -N 5 -distance 200 -pixel 0.172 \
      -detpixels_f 487 -detpixels_s 195 -detector_thick 450 -phi 3 -osc 0.1 -seed 1 \
      -cbffile p100k_0001.cbf -nonoise -nopgm -noprogress -floatfile f.bin -intfile i.img \
      > render.log 2>&1 || { cat render.log; exit 1; }
  if ! dials.import p100k_0001.cbf > import.log 2>&1; then tail -40 import.log; exit 1; fi
  grep -E "format:|num images:" import.log
  grep -q "FormatCBFMiniPilatus" import.log || { echo "not read as a PILATUS image"; exit 1; }
  dials.show imported.expt > show.log 2>&1 || { tail -20 show.log; exit 1; }
  for expected in "image_size: \{487,195\}" "pixel_size:\{0.172,0.172\}" "thickness: 0.45" \
                  "material: Si" "oscillation: +\{3,0.1\}"; do
    grep -qE "$expected" show.log || { echo "dials.show lacks /$expected/"; cat show.log; exit 1; }
  done
  echo "PILATUS 100K geometry read back"
  exit 0
fi

if [[ $format == smv_origin ]]; then
  # an off-centre beam: dials.import must put each SMV image where its header's DIALS_ORIGIN
  # says (braggview writes BEAM_CENTER_X/Y as dxtbx's FormatSMVJHSim reads them), within
  # 1 um. The issue's 1024 x 1024 frame, then a non-square one at another distance and pixel.
  check_origin() { # check_origin NAME OPTIONS...
    local name=$1; shift
    "${headless[@]}" -cell 50 60 70 90 90 90 -default_F 100 -N 2 "$@" -nonoise -nopgm \
        -noprogress -floatfile "$name.bin" -intfile "${name}_0001.img" > "$name.log" 2>&1 ||
        { cat "$name.log"; exit 1; }
    dials.import "${name}_0001.img" output.experiments="$name.expt" > "import_$name.log" 2>&1 ||
        { tail -40 "import_$name.log"; exit 1; }
    grep -q "FormatSMVJHSim" "import_$name.log" || { echo "$name: not read as FormatSMVJHSim"; exit 1; }
    python3 - "${name}_0001.img" "$name.expt" <<'PY'
import json, sys
header = open(sys.argv[1], "rb").read(512).decode("ascii", "replace")
fields = dict(l.split("=", 1) for l in header.splitlines() if "=" in l)
said = [float(x) for x in fields["DIALS_ORIGIN"].strip().rstrip(";").split(",")]
panel = json.load(open(sys.argv[2]))["detector"][0]["panels"][0]
read = panel["origin"]
print("%s: DIALS_ORIGIN %s, dials.import %s" % (sys.argv[1], said, [round(x, 5) for x in read]))
if any(abs(a - b) > 1e-3 for a, b in zip(said, read)):
    print("the image is not where its header says"); sys.exit(1)
if panel["fast_axis"] != [1.0, 0.0, 0.0] or panel["slow_axis"] != [0.0, -1.0, 0.0]:
    print("unexpected axes", panel["fast_axis"], panel["slow_axis"]); sys.exit(1)
PY
  }
  check_origin issue -detpixels 1024 -Xbeam 51.73 -Ybeam 50.88
  check_origin wide -detpixels_f 300 -detpixels_s 200 -pixel 0.172 -distance 150 -Xbeam 12.3 -Ybeam 40.1
  exit 0
fi

series=(-cell 50 60 70 90 90 90 -misset 10 20 30 -lambda 1.0 -N 10 -default_F 100
        -distance 100 -detpixels 512 -phi 0 -osc 1 -phisteps 4 -series 20 -seed 1 -noprogress)
find_options=(nproc=2)
index_options=()
expt=$here/../data/detectors/four-module-tilted.expt
case $format in
  smv) "${headless[@]}" "${series[@]}" -noisefile 'sim_#####.img' > render.log 2>&1 || { cat render.log; exit 1; }
       images=(sim_*.img) ;;
  cbf) "${headless[@]}" "${series[@]}" -cbffile 'sim_#####.cbf' > render.log 2>&1 || { cat render.log; exit 1; }
       images=(sim_*.cbf)
       find_options+=(spotfinder.threshold.dispersion.global_threshold=50) ;;
  nexus) "${headless[@]}" "${series[@]}" -nexusfile sim.h5 > render.log 2>&1 || { cat render.log; exit 1; }
       images=(sim.h5)
       find_options+=(spotfinder.threshold.dispersion.global_threshold=50) ;;
  panels)
       # the series on the .expt's detector, where the file puts it (no -distance,
       # -detector_rot* or -twotheta; no -detpixels: the panels have theirs)
       panel_series=(-detector "$expt" -cell 50 60 70 90 90 90 -misset 10 20 30 -lambda 1.0 -N 10
                     -default_F 100 -phi 0 -osc 1 -phisteps 4 -series 20 -seed 1 -noprogress)
       "${headless[@]}" "${panel_series[@]}" -nexusfile sim.h5 > render.log 2>&1 || { cat render.log; exit 1; }
       images=(sim.h5)
       find_options+=(spotfinder.threshold.dispersion.global_threshold=50)
       # 4 x 2 cm at 19 cm: the distance and the cell trade off when DIALS refines the
       # detector, which would hide a misplaced panel; fixed, the cell is right only if the
       # file's geometry is
       index_options+=(refinement.parameterisation.detector.fix=all) ;;
  *) echo "usage: run_dials.sh smv|cbf|nexus|panels|pilatus|smv_origin|experiment HEADLESS..."; exit 2 ;;
esac
tail -2 render.log
if [[ $format != nexus && $format != panels && ${#images[@]} -ne 20 ]]; then
  echo "expected 20 images, found ${#images[@]}"; exit 1
fi

# dials.show's geometry of the NeXus file against that of frame 1 as CBF and as SMV
check_geometry() {
  local single=() i
  for ((i = 0; i < ${#series[@]}; i++)); do # the series' line less "-series 20": frame 1
    if [[ ${series[i]} == -series ]]; then i=$((i + 1)); else single+=("${series[i]}"); fi
  done
  "${headless[@]}" "${single[@]}" -nopgm -cbffile one_0001.cbf -noisefile one_0001.img \
      -floatfile one.bin -intfile one_int.img > one.log 2>&1 || { cat one.log; exit 1; }
  local f
  for f in imported.expt one_0001.cbf one_0001.img; do
    dials.show "$f" > "show_$f.log" 2>&1 || { tail -20 "show_$f.log"; exit 1; }
  done
  python3 - show_imported.expt.log show_one_0001.cbf.log show_one_0001.img.log <<'PY'
import re, sys
def fields(path):
    text = open(path).read()
    def vec(key):
        m = re.search(key + r"\s*\{([^}]*)\}", text)
        return [float(x) for x in m.group(1).split(",")] if m else None
    beam = re.search(r"px: \(([-0-9.]+),([-0-9.]+)\)", text) or re.search(r"beam centre.*?px.*?\(([-0-9.]+),\s*([-0-9.]+)\)", text)
    return {"fast_axis": vec("fast_axis:"), "slow_axis": vec("slow_axis:"), "origin": vec("origin:"),
            "pixel_size": vec("pixel_size:"), "distance": [float(re.search(r"distance: ([-0-9.]+)", text).group(1))],
            "rotation axis": vec("Rotation axis:"),
            "beam centre": [float(x) for x in re.search(r"mm: \(([-0-9.]+),([-0-9.]+)\)", text).groups()]}
nexus, cbf, smv = (fields(p) for p in sys.argv[1:4])
print("NXmx geometry:", nexus)
bad = []
for key, tol in [("fast_axis", 1e-6), ("slow_axis", 1e-6), ("pixel_size", 1e-9), ("distance", 1e-3),
                 ("beam centre", 1e-3), ("origin", 1e-3), ("rotation axis", 1e-6)]:
    if any(abs(a - b) > tol for a, b in zip(nexus[key], cbf[key])) or len(nexus[key]) != len(cbf[key]):
        bad.append("%s: NXmx %s, CBF %s" % (key, nexus[key], cbf[key]))
# the SMV header's BEAM_CENTER_X/Y are dxtbx's (docs/reference-quirks.md): the same centre
for key, tol in [("fast_axis", 1e-6), ("slow_axis", 1e-6), ("pixel_size", 1e-9), ("distance", 1e-3),
                 ("beam centre", 1e-3)]:
    if any(abs(a - b) > tol for a, b in zip(nexus[key], smv[key])):
        bad.append("%s: NXmx %s, SMV %s" % (key, nexus[key], smv[key]))
if bad:
    print("geometry differs:\n  " + "\n  ".join(bad)); sys.exit(1)
print("NXmx geometry agrees with the CBF's and the SMV's")
PY
}

run() { # run LOG COMMAND...: the command's output goes to LOG, shown when it fails
  local log=$1; shift
  if ! "$@" > "$log" 2>&1; then
    echo "failed: $*"; tail -40 "$log"; exit 1
  fi
}
run import.log dials.import "${images[@]}"
grep -E "format:|num images:|sweep:" import.log
if [[ $format == nexus ]]; then
  # read as NXmx, with the geometry the CBF header of the same series' first frame gives
  grep -q "FormatNXmx" import.log || { echo "not read as NXmx"; cat import.log; exit 1; }
  check_geometry
fi
if [[ $format == panels ]]; then
  grep -q "FormatNXmx" import.log || { echo "not read as NXmx"; cat import.log; exit 1; }
  python3 "$here/compare_panels.py" "$expt" imported.expt
  # -distance moves the whole detector along the beam: one frame, read back the same way
  mkdir moved
  ( cd moved
    "${headless[@]}" -detector "$expt" -distance 150 -cell 50 60 70 90 90 90 -default_F 100 \
        -N 5 -nonoise -nopgm -noprogress -floatfile f.bin -nexusfile moved.h5 > render.log 2>&1 ||
        { cat render.log; exit 1; }
    run import.log dials.import moved.h5
    python3 "$here/compare_panels.py" "$expt" imported.expt 150 )
fi
if ! grep -q "num images: 20" import.log || ! grep -Eq "sweep: +1$" import.log; then
  echo "dials.import did not see one sweep of 20 images"; cat import.log; exit 1
fi
run find.log dials.find_spots imported.expt "${find_options[@]}"
grep -E "^Saved .* reflections" find.log
run index.log dials.index imported.expt strong.refl "${index_options[@]}"
grep -E "^\| +0 \| +[0-9]+ \| +[0-9]+ \|" index.log | tail -1 || true

# what DIALS finds for the reference program's own frames of this series, within 0.05% and
# 0.05 degrees; for the panels, the -cell given, within 0.2% and 0.2 degrees
bars=(50.004 59.996 69.993 90.001 90.004 89.993 0.0005 0.05)
[[ $format == panels ]] && bars=(50 60 70 90 90 90 0.002 0.2)
python3 - indexed.expt "${bars[@]}" <<'PY'
import json, math, sys
reference = tuple(float(x) for x in sys.argv[2:8])
edge_bar, angle_bar = float(sys.argv[8]), float(sys.argv[9])
crystal = json.load(open(sys.argv[1]))["crystal"][0]
a, b, c = (crystal["real_space_" + k] for k in "abc")
def norm(v): return math.sqrt(sum(x * x for x in v))
def angle(u, v): return math.degrees(math.acos(sum(x * y for x, y in zip(u, v)) / norm(u) / norm(v)))
cell = (norm(a), norm(b), norm(c), angle(b, c), angle(a, c), angle(a, b))
print("indexed cell: " + ", ".join("%.3f" % x for x in cell))
print("reference:    " + ", ".join("%.3f" % x for x in reference))
bad = [i for i in range(3) if abs(cell[i] - reference[i]) > edge_bar * reference[i]]
bad += [i for i in range(3, 6) if abs(cell[i] - reference[i]) > angle_bar]
if bad:
    names = ("a", "b", "c", "alpha", "beta", "gamma")
    print("outside the bars (%g%% on edges, %g degrees on angles): " % (100 * edge_bar, angle_bar)
          + ", ".join(names[i] for i in bad))
    sys.exit(1)
PY

if [[ $format == cbf ]]; then
  # the crystal DIALS found, through -experiment: frame 10 rendered from indexed.expt (its
  # orientation, cell, beam, detector and scan; -polar 0 as dxtbx's CBF reader states 0.999)
  # against the series' own frame 10. DIALS's crystal is refined, not the truth, so the
  # images agree as spots do: correlation above 0.95 (a crystal turned the wrong way, or at
  # the wrong frame, correlates below 0.1; DIALS's refined crystal gave 0.986 when this was
  # written). How many of the truth's 25 brightest pixels are not local maxima of the run
  # from indexed.expt is printed, for the record.
  "${headless[@]}" -experiment indexed.expt -frame 10 -N 10 -default_F 100 -phisteps 4 -polar 0 \
      -noprogress -nopgm -nonoise -floatfile indexed10.bin > indexed10.log 2>&1 ||
      { cat indexed10.log; exit 1; }
  single=()
  for ((i = 0; i < ${#series[@]}; i++)); do # the series' line less "-series 20" and -phi
    case ${series[i]} in
      -series|-phi) i=$((i + 1)) ;;
      *) single+=("${series[i]}") ;;
    esac
  done
  "${headless[@]}" "${single[@]}" -phi 9 -nopgm -nonoise -floatfile truth10.bin \
      -intfile truth10.img > truth10.log 2>&1 || { cat truth10.log; exit 1; }
  numpy_python=python3
  [[ -x /usr/bin/python3 ]] && numpy_python=/usr/bin/python3
  "$numpy_python" - indexed10.bin truth10.bin <<'PY'
import sys
import numpy as np
a = np.fromfile(sys.argv[1], dtype="<f4")
b = np.fromfile(sys.argv[2], dtype="<f4")
if a.size != b.size:
    print("sizes differ: %d and %d pixels" % (a.size, b.size)); sys.exit(1)
r = np.corrcoef(a, b)[0, 1]
# the 25 brightest pixels of the truth: are they local maxima of the DIALS run too?
n = int(round(np.sqrt(b.size)))
A, B = a.reshape(n, n), b.reshape(n, n)
bright = np.argsort(B, axis=None)[-25:]
moved = 0
for flat in bright:
    y, x = divmod(int(flat), n)
    window = A[max(0, y - 1):y + 2, max(0, x - 1):x + 2]
    if A[y, x] < window.max():
        moved += 1
print("frame 10 from indexed.expt against the truth: correlation %.5f, %d of 25 bright pixels moved" % (r, moved))
sys.exit(0 if r > 0.95 else 1)
PY
  # braggview refines from DIALS's .expt, against the series' own noisy frame 10 (the
  # imageset's CBF), and writes the refined list back, which dials.show must read: distance
  # (100 mm) within 0.05 mm and the cell (50, 60, 70) within 0.1 %
  "${headless[@]}" -experiment indexed.expt -frame 10 -N 10 -default_F 100 -phisteps 4 -polar 0 \
      -precision fast -noprogress -refine distance,beam,orientation,cell \
      -fit_report fit.json -refined_experiment refined.expt > refine.log 2>&1 ||
      { cat refine.log; exit 1; }
  sed -n '/^refinement:/,$p' refine.log
  dials.show refined.expt > show_refined.log 2>&1 || { tail -20 show_refined.log; exit 1; }
  python3 - fit.json refined.expt <<'PY'
import json, math, sys
fit = json.load(open(sys.argv[1]))
value = {p["name"]: p["value"] for p in fit["parameters"]}
crystal = json.load(open(sys.argv[2]))["crystal"][0]
cell = [math.sqrt(sum(x * x for x in crystal["real_space_" + k])) for k in "abc"]
print("refined from DIALS's experiment: distance %.4f mm, cell %.4f %.4f %.4f (written back)"
      % (value["distance"], *cell))
bad = abs(value["distance"] - 100) > 0.05
bad |= any(abs(c - t) > 0.001 * t for c, t in zip(cell, (50, 60, 70)))
sys.exit(1 if bad else 0)
PY
  # the detector's turn in its own plane, fitted with the crystal held, written back: dials.show
  # reads the list, and its detector's fast axis is turned from indexed.expt's by the angle
  # the fit printed, about the normal
  "${headless[@]}" -experiment indexed.expt -frame 10 -N 10 -default_F 100 -phisteps 4 -polar 0 \
      -precision fast -noprogress -refine detector_rotation -fit_report turn.json \
      -refined_experiment turned.expt > turn.log 2>&1 || { cat turn.log; exit 1; }
  dials.show turned.expt > show_turned.log 2>&1 || { tail -20 show_turned.log; exit 1; }
  python3 - turn.json indexed.expt turned.expt <<'PY'
import json, math, sys
turn = {p["name"]: p["value"] for p in json.load(open(sys.argv[1]))["parameters"]}["detector_rotation"]
cross = lambda u, v: [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]]
dot = lambda u, v: sum(x * y for x, y in zip(u, v))
def axes(path):  # the panel's fast and slow axes in the lab: its own in its root's frame
    d = json.load(open(path))["detector"][0]
    h, p = d["hierarchy"], d["panels"][0]
    frame = (h["fast_axis"], h["slow_axis"], cross(h["fast_axis"], h["slow_axis"]))
    lab = lambda v: [sum(frame[k][i] * v[k] for k in range(3)) for i in range(3)]
    return lab(p["fast_axis"]), lab(p["slow_axis"])
(f0, s0), (f1, s1) = axes(sys.argv[2]), axes(sys.argv[3])
normal = cross(f0, s0)
angle = math.degrees(math.atan2(dot(cross(f0, f1), normal), dot(f0, f1)))
print("detector turned %.6f deg in the fit, %.6f deg in the written list" % (turn, angle))
sys.exit(0 if abs(angle - turn) < 1e-6 and abs(dot(normal, cross(f1, s1)) - 1) < 1e-9 else 1)
PY
fi
