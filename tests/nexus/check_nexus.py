"""Reads a braggview NeXus file with h5py and checks it (tests/nexus/run_nexus.sh).

golden FILE.h5 FLOAT.bin REFERENCE_STDOUT: the data equal the float file, the geometry what
the reference printed. series FILE.h5 CBF...: the data equal the CBF frames, phi per frame.
panels FLOATS.h5 FLOAT.bin COUNTS.h5 DETECTOR.expt: a detector of panels (tests/data/detectors/
two-widths.expt), a module per panel: the data equal the stacked float image, each module's
hyperslab and geometry are the .expt's panel's; the counts are Poisson deviates of it.
polarization FOLDER: the beam's Stokes parameters of run_nexus.sh's runs (polarization()).
Expected geometry comes from the reference's own printout and from two published facts: the
NeXus (McStas) lab frame is the imgCIF/DIALS frame turned 180 degrees about y (dxtbx reads
it with diag(-1, 1, -1)), and nanoBragg prints its detector origin in the DIALS frame."""
import json
import re
import sys

import h5py
import numpy as np

MCSTAS_TO_DIALS = np.diag([-1.0, 1.0, -1.0])
failures = []


def expect(ok, what):
    if not ok:
        failures.append(what)


def close(a, b, tol):
    return np.allclose(np.asarray(a, float), np.asarray(b, float), rtol=0, atol=tol)


def text(node):
    value = node[()] if isinstance(node, h5py.Dataset) else node
    return value.decode() if isinstance(value, bytes) else str(value)


def chain_end(f, path):
    """Follows depends_on from a transformation to '.', summing translations (m)."""
    total = np.zeros(3)
    while path != ".":
        t = f[path]
        expect(text(t.attrs["transformation_type"]) == "translation", path + " is a translation")
        expect(text(t.attrs["units"]) == "m", path + " in m")
        total += float(t[()]) * np.asarray(t.attrs["vector"])
        path = text(t.attrs["depends_on"])
    return total


def common(f, modules=("module",)):
    expect(text(f["/entry/definition"]) == "NXmx", "definition NXmx")
    for path, cls in [("/entry", "NXentry"), ("/entry/data", "NXdata"),
                      ("/entry/instrument", "NXinstrument"), ("/entry/instrument/beam", "NXbeam"),
                      ("/entry/instrument/detector", "NXdetector"),
                      ("/entry/sample", "NXsample")] + \
            [("/entry/instrument/detector/" + m, "NXdetector_module") for m in modules]:
        expect(text(f[path].attrs["NX_class"]) == cls, path + " is " + cls)
    data = f["/entry/data/data"]
    plist = data.id.get_create_plist()
    filters = [plist.get_filter(i)[:3] for i in range(plist.get_nfilters())]
    # bitshuffle with its block size left to it (0) and LZ4 (2), as EIGER files have it
    expect([(code, tuple(values)[-2:]) for code, flags, values in filters] == [(32008, (0, 2))],
           "bitshuffle + LZ4 on the data: %s" % filters)
    expect(data.chunks == (1,) + data.shape[1:], "one frame a chunk: %s" % (data.chunks,))
    return data


def golden(path, float_path, stdout_path):
    ref = open(stdout_path).read()

    def numbers(label):
        m = re.search(re.escape(label) + r"\s*([-0-9.e+]+)\s+([-0-9.e+]+)\s+([-0-9.e+]+)", ref)
        return np.array([float(x) for x in m.groups()])

    def number(label):
        return float(re.search(re.escape(label) + r"([-0-9.e+]+)", ref).group(1))

    fpix, spix = map(int, re.search(r"\((\d+)x(\d+) pixels\)", ref).groups())
    pixel = number("pixel=")
    image = np.fromfile(float_path, dtype="<f4").reshape(spix, fpix)
    with h5py.File(path, "r") as f:
        data = common(f)
        expect(data.dtype == np.float32, "float32 data with -nonoise, got %s" % data.dtype)
        expect(data.shape == (1, spix, fpix), "one frame of %dx%d: %s" % (fpix, spix, data.shape))
        expect(np.array_equal(data[0], image), "the data are the float image, bit for bit")
        det = f["/entry/instrument/detector"]
        module = det["module"]
        expect(list(module["data_size"][()]) == [spix, fpix], "data_size slow, fast")
        expect(list(module["data_origin"][()]) == [0, 0], "data_origin")
        fast, slow = module["fast_pixel_direction"], module["slow_pixel_direction"]
        expect(close(fast[()], pixel, 1e-12) and close(slow[()], pixel, 1e-12), "pixel size")
        expect(text(fast.attrs["depends_on"]) == module.name + "/module_offset", "fast depends on")
        # the module's origin: the reference's "dials origin" (mm, DIALS frame)
        origin = chain_end(f, module.name + "/module_offset")
        expect(close(MCSTAS_TO_DIALS @ origin * 1000, numbers("dials origin="), 2e-3),
               "origin %s vs the reference's dials origin" % (MCSTAS_TO_DIALS @ origin * 1000))
        # the reference prints the detector axes in its frame; it maps its frame to DIALS'
        # as it maps the dials origin: (x, y, z) -> (z, y, -x)
        def dials(v):
            return np.array([v[2], v[1], -v[0]])
        expect(close(MCSTAS_TO_DIALS @ fast.attrs["vector"],
                     dials(numbers("DIRECTION_OF_DETECTOR_X-AXIS=")), 2e-6), "fast axis")
        expect(close(MCSTAS_TO_DIALS @ slow.attrs["vector"],
                     dials(numbers("DIRECTION_OF_DETECTOR_Y-AXIS=")), 2e-6), "slow axis")
        expect(close(det["beam_center_x"][()], number("Fbeam=") / pixel, 1e-3), "beam_center_x")
        expect(close(det["beam_center_y"][()], number("Sbeam=") / pixel, 1e-3), "beam_center_y")
        expect(close(det["distance"][()], number("distance="), 1e-6), "distance")
        wavelength = f["/entry/instrument/beam/incident_wavelength"]
        expect(close(wavelength[()], number("lambda0 = ") * 1e10, 1e-9), "wavelength")
        expect(text(wavelength.attrs["units"]) == "angstrom", "wavelength in angstrom")
        phi = f[text(f["/entry/sample/depends_on"])]
        expect(text(phi.attrs["transformation_type"]) == "rotation", "phi is a rotation")
        expect(close(MCSTAS_TO_DIALS @ phi.attrs["vector"],
                     dials(numbers("spindle ROTATION_AXIS=")), 1e-12), "spindle")
        expect(text(det["sensor_material"]) == "Si", "sensor material")


def series(path, cbfs):
    with h5py.File(path, "r") as f:
        data = common(f)
        expect(data.dtype == np.int32, "int32 counts with noise, got %s" % data.dtype)
        expect(data.shape[0] == len(cbfs), "%d frames: %s" % (len(cbfs), data.shape))
        for i, cbf in enumerate(cbfs):
            expect(np.array_equal(data[i], read_cbf(cbf, data.shape[1:])),
                   "frame %d equals %s" % (i + 1, cbf))
        phi = f[text(f["/entry/sample/depends_on"])]
        expect(close(phi[()], [2.0, 2.5, 3.0], 1e-12), "phi per frame %s" % phi[()])
        expect(close(f[phi.name + "_end"][()], [2.5, 3.0, 3.5], 1e-12), "phi_end per frame")


def read_cbf(path, shape):
    """CBF byte-offset decompression (the CBF specification), for the comparison."""
    raw = open(path, "rb").read()
    start = raw.index(b"\x0c\x1a\x04\xd5") + 4
    count = shape[0] * shape[1]
    out = np.empty(count, dtype=np.int64)
    value, pos = 0, start
    for i in range(count):
        delta = np.frombuffer(raw, "<i1", 1, pos)[0]
        pos += 1
        if delta == -128:
            delta = np.frombuffer(raw, "<i2", 1, pos)[0]
            pos += 2
            if delta == -32768:
                delta = np.frombuffer(raw, "<i4", 1, pos)[0]
                pos += 4
        value += int(delta)
        out[i] = value
    return out.reshape(shape)


def panels(path, float_path, counts_path, expt_path):
    # the hand-made two-panel .expt (no hierarchy: its vectors are the lab frame, mm)
    expt = json.load(open(expt_path))["detector"][0]
    expect("hierarchy" not in expt, "a flat .expt")
    stated = expt["panels"]
    # the stacking by hand: "wide" (100 x 50) on rows 0-49, "narrow" (60 x 40) on rows 50-89;
    # the image is the widest panel's 100 pixels wide, and columns 60-99 of rows 50-89 are in
    # no panel
    rows, width = 90, 100
    hyperslabs = {"wide": ([0, 0], [50, 100]), "narrow": ([50, 0], [40, 60])}
    image = np.fromfile(float_path, dtype="<f4").reshape(rows, width)
    with h5py.File(path, "r") as f:
        data = common(f, ("wide", "narrow"))
        expect(data.dtype == np.float32, "float32 data with -nonoise, got %s" % data.dtype)
        expect(data.shape == (1, rows, width), "one frame of 100x90: %s" % (data.shape,))
        expect(np.array_equal(data[0], image), "the data are the stacked float image, bit for bit")
        det = f["/entry/instrument/detector"]
        # in the panels' order (dxtbx numbers its panels in the order it lists the groups)
        listed = [k for k in det if text(det[k].attrs.get("NX_class", "")) == "NXdetector_module"]
        expect(listed == ["wide", "narrow"], "modules in the panels' order: %s" % listed)
        expect("beam_center_x" not in det and "pixel_mask" not in det,
               "no beam centre (no one plane) and no pixel_mask")
        for panel in stated:
            module = det[panel["name"]]
            origin, size = hyperslabs[panel["name"]]
            expect(list(module["data_origin"][()]) == origin, panel["name"] + " data_origin")
            expect(list(module["data_size"][()]) == size, panel["name"] + " data_size")
            expect(list(module["data_size"][()]) == panel["image_size"][::-1],
                   panel["name"] + " data_size is the .expt's image_size, slow first")
            corner = MCSTAS_TO_DIALS @ chain_end(f, module.name + "/module_offset") * 1000
            expect(close(corner, panel["origin"], 1e-9),
                   "%s origin %s, the .expt's %s" % (panel["name"], corner, panel["origin"]))
            for axis in ("fast", "slow"):
                t = module[axis + "_pixel_direction"]
                expect(close(MCSTAS_TO_DIALS @ t.attrs["vector"], panel[axis + "_axis"], 1e-12),
                       panel["name"] + " " + axis + " axis")
                expect(close(t[()] * 1000, panel["pixel_size"][0], 1e-12),
                       panel["name"] + " pixel size")
                expect(text(t.attrs["depends_on"]) == module.name + "/module_offset",
                       panel["name"] + " " + axis + " depends on its offset")
    with h5py.File(counts_path, "r") as f:
        counts = common(f, ("wide", "narrow"))
        expect(counts.dtype == np.int32, "int32 counts with noise, got %s" % counts.dtype)
        c = counts[0].astype(np.int64)
        expect(not c[50:, 60:].any(), "no counts in the pixels of no panel")
        expect(not c[image == 0].any(), "no counts where the image has no photons")
        # Poisson deviates of the float image: their sum within 5 sigma of its sum
        expect(abs(c.sum() - image.sum()) < 5 * np.sqrt(image.sum()),
               "counts %d for %.1f photons" % (c.sum(), image.sum()))


def polarization(folder):
    """The beam's Stokes parameters (S0, S1, S2, S3) in NeXus' frame (x horizontal, y up, z
    along the beam) for the runs of run_nexus.sh: nanoBragg's Kahn factor K is the degree of
    linear polarization along its E-vector (-polar_vector). MOSFLM's default E-vector, its z,
    and XDS's, its x, are both horizontal: NeXus' x, so S1 = K; an E-vector along y (up) turns
    the polarization by 90 degrees, S1 = -K; -nopolar simulates no polarization factor, and
    no beam makes that image: the file says unpolarized. DIALS's polarization_fraction is
    (1 + K) / 2 (0.5: unpolarized)."""
    expected = {"default": [1, 0, 0, 0], "polar": [1, 0.6, 0, 0], "nopolar": [1, 0, 0, 0],
                "xds": [1, 0.6, 0, 0], "vertical": [1, -0.6, 0, 0], "negative": [1, -0.3, 0, 0]}
    for name, stokes in expected.items():
        with h5py.File("%s/%s.h5" % (folder, name), "r") as f:
            s = f["/entry/instrument/beam/incident_polarisation_stokes"]
            expect(s.shape == (1, 4), "%s: Stokes parameters of shape (1, 4), got %s" % (name, s.shape))
            expect(close(s[0], stokes, 1e-12), "%s: Stokes %s, expected %s" % (name, s[0], stokes))
            fraction = (1 + np.hypot(s[0][1], s[0][2]) / s[0][0]) / 2
            expect(close(fraction, (1 + np.hypot(*stokes[1:3])) / 2, 1e-12),
                   "%s: DIALS fraction %s" % (name, fraction))


if sys.argv[1] == "golden":
    golden(*sys.argv[2:5])
elif sys.argv[1] == "panels":
    panels(*sys.argv[2:6])
elif sys.argv[1] == "polarization":
    polarization(sys.argv[2])
else:
    series(sys.argv[2], sys.argv[3:])
if failures:
    print("NeXus file %s:\n  " % sys.argv[2] + "\n  ".join(failures))
    sys.exit(1)
print("NeXus file %s: data and geometry as expected" % sys.argv[2])
