#!/usr/bin/env python3
"""Random option sets, the reference programs against braggview, outside the test suite.

The golden cases pin the options one or two at a time; this draws a few of the reference's
options at once, with random values, runs the reference program and braggview on each set in
scratch folders and compares what they wrote. It needs the reference programs, built outside
the tree from bl831/nanoBragg (they are not part of braggview), so ctest does not run it.

    tests/parity/random_options.py nanobragg --reference /path/nanoBragg --seed 1 --sets 40
    tests/parity/random_options.py nanobragg ... --precision fast
    tests/parity/random_options.py nonbragg --reference /path/nonBragg --stol /path/water.stol
    tests/parity/random_options.py noisify --reference /path/noisify --float image.bin

nanobragg and nonbragg: the float images through braggview-compare's bars (--bar precise or
fast) and, in precise, the integer images' pixels; noisify: every file byte for byte. A set
that braggview refuses and the reference renders is printed with braggview's message: some
are refusals on purpose (docs/reference-quirks.md: unknown options, -bits other than 16 and
32), the rest are findings. Exit status 1 when any set failed.
"""
import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def option_pools(rng):
    def num(a, b, digits=3):
        return str(round(rng.uniform(a, b), digits))

    def count(a, b):
        return str(rng.randint(a, b))

    geometry = [
        lambda: ["-distance", num(50, 200)], lambda: ["-close_distance", num(50, 200)],
        lambda: ["-Xbeam", num(2, 10), "-Ybeam", num(2, 10)],
        lambda: ["-ORGX", num(10, 60, 1), "-ORGY", num(10, 60, 1)],
        lambda: ["-twotheta", num(-20, 20)],
        lambda: ["-detector_rotx", num(-5, 5), "-detector_roty", num(-5, 5),
                 "-detector_rotz", num(-5, 5)],
        lambda: ["-pivot", rng.choice(["beam", "sample"])], lambda: ["-point_pixel"],
        lambda: ["-curved_det"], lambda: ["-pixel", num(0.05, 0.3)],
        lambda: ["-detsize", num(5, 12)], lambda: ["-oversample", count(1, 3)],
        lambda: ["-roi", count(0, 20), count(40, 63), count(0, 20), count(40, 63)],
        lambda: ["-polar", num(0, 1)], lambda: ["-nopolar"],
        lambda: ["-fluence", rng.choice(["1e22", "3.2e23", "1e24"])],
        lambda: ["-flux", rng.choice(["1e12", "1e13"]), "-exposure", num(0.1, 2),
                 "-beamsize", num(0.05, 0.2)],
        lambda: ["-dispersion", num(0.1, 2), "-dispsteps", count(2, 4)],
        lambda: ["-divergence", num(0.01, 0.3), "-divsteps", count(2, 3)],
        lambda: ["-hdivrange", num(0.01, 0.3), "-vdivrange", num(0.01, 0.3),
                 "-hdivsteps", count(1, 3), "-vdivsteps", count(1, 3)],
        lambda: ["-beam_vector", num(0.9, 1), num(-0.1, 0.1), num(-0.1, 0.1)],
        lambda: ["-phi", num(0, 90), "-osc", num(0.1, 2)], lambda: ["-adc", num(0, 50, 0)],
        lambda: rng.choice([["-lambda", num(0.8, 3)], ["-energy", num(6000, 15000, 1)]]),
    ]
    nanobragg = geometry + [
        lambda: ["-cell"] + [num(40, 120, 2) for _ in range(3)] + [num(70, 110, 1) for _ in range(3)],
        lambda: ["-N", count(2, 8)],
        lambda: ["-Na", count(2, 8), "-Nb", count(2, 8), "-Nc", count(2, 8)],
        lambda: [rng.choice(["-mosflm", "-xds", "-adxv", "-denzo", "-dials"])],
        lambda: ["-detector_thick", num(50, 500, 0), "-detector_abs", num(100, 800, 0),
                 "-thicksteps", count(1, 4)],
        lambda: [rng.choice(["-square_xtal", "-round_xtal", "-gauss_xtal", "-tophat_spots"])],
        lambda: ["-mosaic", num(0.05, 1), "-mosaic_dom", count(2, 6),
                 "-mosaic_seed", str(rng.randint(-99999, -1))],
        lambda: ["-misset", num(-30, 30), num(-30, 30), num(-30, 30)],
        lambda: ["-phisteps", count(1, 4)], lambda: ["-phistep", num(0.1, 0.5)],
        lambda: ["-spindle_axis", num(-1, 1), num(-1, 1), num(0.2, 1)],
        lambda: ["-water", num(10, 200, 0)], lambda: ["-dmin", num(2, 6)],
        lambda: ["-hkl", "P1.hkl"], lambda: ["-mat", "A.mat"], lambda: ["-fudge", num(0.5, 2)],
        lambda: ["-nointerpolate"], lambda: ["-interpolate"],
        # sizes that make thousands of cells: fast precision then warns (RunNotices.h)
        lambda: ["-xtalsize", num(0.02, 0.1)], lambda: ["-sample_thick", num(0.01, 0.1)],
        lambda: ["-detpixels_f", count(48, 96), "-detpixels_s", count(48, 96)],
    ]
    nonbragg = geometry + [
        lambda: ["-thick", num(0.01, 0.5)], lambda: ["-sample_size", num(0.01, 0.2)],
        lambda: ["-width", num(0.01, 0.2), "-heigh", num(0.01, 0.2)],
        lambda: ["-sample_den", num(0.5, 2)], lambda: ["-molecular", num(10, 40)],
        lambda: ["-Xclose", num(3, 9), "-Yclose", num(3, 9)],
        lambda: ["-detpixels_x", count(40, 90), "-detpixels_y", count(40, 90)],
        lambda: [rng.choice(["-round_div", "-square_div"])], lambda: ["-gain", num(0.5, 2)],
        lambda: ["-source_distance", num(1, 20)], lambda: ["-coherent"],
        lambda: ["-scale", num(0.5, 3)],
    ]
    noisify = [
        lambda: ["-scale", rng.choice(["1e-9", "5e-10", "2e-8"])],
        lambda: ["-psf", rng.choice(["gauss", "fiber"]), "-psf_fwhm", num(20, 150, 1)],
        lambda: ["-psf", "gauss", "-psf_fwhm", num(20, 300, 1), "-psf_radius", count(1, 6)],
        lambda: ["-flicker", num(0, 0.1)], lambda: ["-calibration", num(0, 0.1)],
        lambda: ["-readnoise", num(0, 10)], lambda: ["-seed", str(rng.randint(-9999, 9999))],
        lambda: ["-calib_seed", str(rng.randint(-9999, 9999))],
        lambda: ["-adc", num(0, 100, 0)], lambda: ["-gain", num(0.5, 3)],
        lambda: ["-bits", rng.choice(["16", "32"])], lambda: ["-Xbeam", num(3, 9), "-Ybeam", num(3, 9)],
        lambda: ["-distance", num(50, 200)], lambda: ["-lambda", num(0.8, 2)],
        lambda: ["-phi", num(0, 90), "-osc", num(0.1, 2)], lambda: ["-nopgm"],
    ]
    return {"nanobragg": nanobragg, "nonbragg": nonbragg, "noisify": noisify}


def fast_pixels(stdout):
    m = re.search(r"\((\d+)x(\d+) pixels\)", stdout)
    return m.group(1) if m else None


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("program", choices=["nanobragg", "nonbragg", "noisify"])
    p.add_argument("--reference", required=True, help="the reference program's binary")
    p.add_argument("--braggview", default=os.path.join(ROOT, "build/bin/braggview"))
    p.add_argument("--compare", default=os.path.join(ROOT, "build/tests/braggview-compare"))
    p.add_argument("--inputs", default=os.path.join(ROOT, "tests/data/inputs"),
                   help="A.mat, P1.hkl ... (nanobragg)")
    p.add_argument("--stol", help="a .stol table (nonbragg)")
    p.add_argument("--float", help="a float image of 128 x 128 pixels (noisify)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--sets", type=int, default=20)
    p.add_argument("--precision", choices=["precise", "fast"], default="precise")
    p.add_argument("--timeout", type=int, default=60, help="seconds for the reference")
    a = p.parse_args()
    rng = random.Random(a.seed)
    # the reference's image depends on its OpenMP thread count (docs/reference-quirks.md, the
    # phi-0 carry-over) and braggview follows OMP_NUM_THREADS: the same for both, as in ctest
    env = dict(os.environ, OMP_NUM_THREADS="2")
    pool = option_pools(rng)[a.program]
    failures = 0
    for _ in range(a.sets):
        if a.program == "nanobragg":
            words = ["-cell", "78", "78", "38", "90", "90", "90", "-lambda", "1", "-default_F", "100",
                     "-N", "5", "-distance", "100", "-detpixels", "64", "-pixel", "0.2"]
            outputs = ["-floatfile", "float.bin", "-intfile", "int.img", "-nopgm", "-nonoise"]
            mode = ["--headless"]
        elif a.program == "nonbragg":
            words = ["-stol", "table.stol", "-lambda", "1", "-distance", "100", "-detpixels", "64",
                     "-pixel", "0.2"]
            outputs = ["-floatimage", "float.bin", "-intimage", "int.img", "-nopgm", "-nonoise"]
            mode = ["--headless", "--nonbragg"]
        else:
            # noisify seeds from the clock when -seed is not given
            words = ["-bin", "float.bin", "-pixel", "0.1", "-detpixels", "128",
                     "-seed", str(rng.randint(1, 99999))]
            outputs = []
            mode = ["--headless", "--noisify"]
        for option in rng.sample(pool, rng.randint(2, 6)):
            words += option()
        if a.program == "nanobragg" and "-oversample" not in words:
            words += ["-oversample", "1"]  # the automatic choice can take minutes at these sizes
        line = " ".join(words)
        work = tempfile.mkdtemp(prefix="braggview-random-")
        for side in ("reference", "braggview"):
            os.mkdir(os.path.join(work, side))
            if a.program == "nanobragg":
                for name in os.listdir(a.inputs):
                    shutil.copy(os.path.join(a.inputs, name), os.path.join(work, side))
            elif a.program == "nonbragg":
                shutil.copy(a.stol, os.path.join(work, side, "table.stol"))
            else:
                shutil.copy(a.float, os.path.join(work, side, "float.bin"))
        ref_dir, bv_dir = os.path.join(work, "reference"), os.path.join(work, "braggview")
        try:
            ref = subprocess.run([a.reference] + words + outputs, cwd=ref_dir,
                                 capture_output=True, text=True, timeout=a.timeout, env=env)
        except subprocess.TimeoutExpired:
            print("skipped (the reference took over %d s): %s" % (a.timeout, line), flush=True)
            shutil.rmtree(work)
            continue
        extra = ["-noprogress", "-precision", a.precision] if a.program == "nanobragg" else []
        if a.program == "nonbragg":
            extra = ["-precision", a.precision]
        bv = subprocess.run([a.braggview] + mode + words + outputs + extra, cwd=bv_dir,
                            capture_output=True, text=True, env=env)
        problems = []
        if a.program == "noisify":
            ref_files = sorted(os.listdir(ref_dir))
            bv_files = sorted(os.listdir(bv_dir))
            if ref_files != bv_files:
                problems.append("files %s against the reference's %s" % (bv_files, ref_files))
            for name in ref_files:
                if name in bv_files and open(os.path.join(ref_dir, name), "rb").read() != \
                        open(os.path.join(bv_dir, name), "rb").read():
                    problems.append(name + " differs")
        else:
            ref_float = os.path.join(ref_dir, "float.bin")
            bv_float = os.path.join(bv_dir, "float.bin")
            if os.path.exists(ref_float) != os.path.exists(bv_float):
                problems.append("the float image written by one program only")
            elif os.path.exists(ref_float):
                width = fast_pixels(ref.stdout)
                cmd = [a.compare, bv_float, ref_float, "--bar", a.precision]
                if width:
                    cmd += ["--fpixels", width]
                compared = subprocess.run(cmd, capture_output=True, text=True)
                if compared.returncode != 0:
                    problems.append("float image: " + compared.stdout.strip())
                if a.precision == "precise":
                    # the pixels after the 512-byte header; the header's beam centre is
                    # written for DIALS on purpose (docs/reference-quirks.md)
                    ints = [open(os.path.join(d, "int.img"), "rb").read()[512:]
                            for d in (ref_dir, bv_dir)]
                    if ints[0] != ints[1]:
                        problems.append("integer image pixels differ")
        if problems:
            failures += 1
            print("FAIL %s\n     %s\n     braggview said: %s" % (
                line, "; ".join(problems), bv.stderr.strip()[-400:]), flush=True)
            print("     kept in " + work, flush=True)
        else:
            print("ok   " + line, flush=True)
            shutil.rmtree(work)
    print("%d of %d sets failed" % (failures, a.sets))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
