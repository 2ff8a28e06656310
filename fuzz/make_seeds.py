#!/usr/bin/env python3
"""Writes the seed corpora fuzz/corpus/<target>/seed-* from tests/data, and the dictionaries
that list the command-line options (fuzz/dict/cli.dict, job.dict) from compute/request/Parameters.cpp.
Run it from anywhere; the output is checked in, so run it when the seeds or the option table
change. Files named crash-* in the corpus folders are reproducers of bugs found by fuzzing,
and hand-* are seeds written by hand (an indexed DIALS experiment, a job holding a session):
both are left alone, as are the other dictionaries, written by hand."""

import pathlib
import re
import struct

ROOT = pathlib.Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
CORPUS = ROOT / "fuzz" / "corpus"


def target(name):
    folder = CORPUS / name
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("seed-*"):
        old.unlink()
    return folder


def head_lines(path, count):
    return "".join(path.read_text().splitlines(keepends=True)[:count]).encode()


# ---- hkl --------------------------------------------------------------------------------
hkl = target("hkl")
inputs = DATA / "inputs"
(hkl / "seed-test_pattern.hkl").write_bytes((inputs / "test_pattern.hkl").read_bytes())
(hkl / "seed-P1-head.hkl").write_bytes(head_lines(inputs / "P1.hkl", 24))
(hkl / "seed-sparse-head.hkl").write_bytes(head_lines(inputs / "sparse.hkl", 24))
(hkl / "seed-crlf-blank.hkl").write_bytes(b"  1 2 3 10.5\r\n\r\n-1 -2 -3 7\r\n0 0 0 1e3")
(hkl / "seed-noninteger.hkl").write_bytes(b"1.5 0 0 20\n-2.5 1.6 -0.4 3.25\n0 0 0 +1.0E+02\n")
(hkl / "seed-duplicate.hkl").write_bytes(b"0 0 0 1\n0 0 0 2\n\t5\t-5\t5\t0.5\n")

# ---- fdump: nanoBragg's layout, (h+1)(k+1)(l+1) little-endian doubles ---------------------
fdump = target("fdump")


def fdump_bytes(h0, h1, k0, k1, l0, l1, value):
    header = f"{h0} {h1} {k0} {k1} {l0} {l1}\n\f".encode()
    data = []
    for h in range(h0, h1 + 2):
        for k in range(k0, k1 + 2):
            for l in range(l0, l1 + 2):
                pad = h > h1 or k > k1 or l > l1
                data.append(0.0 if pad else value(h, k, l))
    return header + struct.pack(f"<{len(data)}d", *data)


(fdump / "seed-test_pattern.bin").write_bytes(
    fdump_bytes(0, 2, 0, 2, 0, 0, lambda h, k, l: 100.0 / (1 + h + k)))
(fdump / "seed-cube.bin").write_bytes(
    fdump_bytes(-1, 1, -1, 1, -1, 1, lambda h, k, l: float(h * 9 + k * 3 + l) + 0.25))
(fdump / "seed-single.bin").write_bytes(fdump_bytes(3, 3, -4, -4, 5, 5, lambda h, k, l: 42.0))

# ---- matrix -----------------------------------------------------------------------------
matrix = target("matrix")
(matrix / "seed-A.mat").write_bytes((inputs / "A.mat").read_bytes())
(matrix / "seed-B.mat").write_bytes((inputs / "B.mat").read_bytes())
(matrix / "seed-mosflm-full.mat").write_bytes(
    (inputs / "A.mat").read_bytes() +
    b"       0.000       0.000       0.000\n"
    b"  0.9999  0.0000  0.0000\n  0.0000  1.0000  0.0000\n  0.0000  0.0000  1.0000\n"
    b"    79.1000    79.1000    38.4000    90.0000    90.0000    90.0000\n"
    b"       0.000       0.000       0.000\n")
(matrix / "seed-one-line.mat").write_bytes(b"1 0 0 0 1 0 0 0 1e-2\n")

# ---- spirv ------------------------------------------------------------------------------
# Small modules written word by word: the header, OpCapability Float64, a block decorated
# BufferBlock (or not) at set 0, binding 0, its pointer type and its variable.
spirv = target("spirv")
def spirv_module(float64, storage):
    def op(code, *operands):
        return [((len(operands) + 1) << 16) | code, *operands]
    words = [0x07230203, 0x00010300, 0, 20, 0]
    words += op(17, 1)                     # OpCapability Shader
    if float64:
        words += op(17, 10)                # OpCapability Float64
    words += op(71, 5, 3 if storage else 2)  # OpDecorate %5 BufferBlock | Block
    words += op(71, 7, 34, 0)              # OpDecorate %7 DescriptorSet 0
    words += op(71, 7, 33, 0)              # OpDecorate %7 Binding 0
    words += op(30, 5, 4)                  # OpTypeStruct %5 { %4 }
    words += op(32, 6, 2, 5)               # OpTypePointer %6 Uniform %5
    words += op(59, 6, 7, 2)               # OpVariable %6 %7 Uniform
    return struct.pack("<%dI" % len(words), *words)
(spirv / "seed-uniform-fast.bin").write_bytes(spirv_module(False, False))
(spirv / "seed-storage-precise.bin").write_bytes(spirv_module(True, True))

# ---- source -----------------------------------------------------------------------------
source = target("source")
(source / "seed-sources.txt").write_bytes((inputs / "sources.txt").read_bytes())
(source / "seed-delimiters.txt").write_bytes(
    b"-10,0,0;1:1e-10\n\n-10!0.001\t0 0.5 nan\r\n-10 0 0\n1 2 3 4 5 6 7\n")

# ---- smv: tiny images cut from a golden int.img ------------------------------------------
smv = target("smv")
golden = (DATA / "golden" / "noise_int_pgm" / "int.img").read_bytes()
size = 128
pixels = struct.unpack_from(f"<{size * size}H", golden, 512)


def block(x0, y0, w, h):
    return [pixels[(y0 + y) * size + x0 + x] for y in range(h) for x in range(w)]


def smv_bytes(w, h, values, order="little_endian", header_bytes=512, extra=""):
    text = (
        "{\nHEADER_BYTES=%d;\nDIM=2;\nBYTE_ORDER=%s;\nTYPE=unsigned_short;\n"
        "SIZE1=%d;\nSIZE2=%d;\nPIXEL_SIZE=0.1;\nDISTANCE=100;\nWAVELENGTH=6.2;\n"
        "BEAM_CENTER_X=0.45;\nBEAM_CENTER_Y=0.45;\nDIALS_ORIGIN=-0.4,0.4,-100\n"
        "XDS_ORGX=4.5;\nXDS_ORGY=4.5;\nCLOSE_DISTANCE=100;\nPHI=0;\nOSC_START=0;\n"
        "OSC_RANGE=0;\nTWOTHETA=0;\n%s}\f" % (header_bytes, order, w, h, extra))
    head = text.encode().ljust(header_bytes, b" ")
    fmt = ("<" if order == "little_endian" else ">") + f"{len(values)}H"
    return head + struct.pack(fmt, *values)


center = block(60, 60, 8, 8)
(smv / "seed-8x8-little.img").write_bytes(smv_bytes(8, 8, center))
(smv / "seed-8x8-big.img").write_bytes(smv_bytes(8, 8, center, order="big_endian"))
(smv / "seed-4x2-header1024.img").write_bytes(
    smv_bytes(4, 2, block(62, 62, 4, 2), header_bytes=1024, extra="ORGX=1;\nDETECTOR_SN=000;\n"))
mask = [1 if (x + y) % 3 else 0 for y in range(8) for x in range(8)]
(smv / "seed-8x8-mask.img").write_bytes(smv_bytes(8, 8, mask))

# ---- cli: arguments one per line, optionally "@@file@@" and a file named f.img -------------
cli = target("cli")
MARKER = b"\n@@file@@\n"
for args in sorted((DATA / "golden").glob("*/args.txt")):
    tokens = args.read_text().split()
    (cli / f"seed-{args.parent.name}.args").write_bytes("\n".join(tokens).encode() + b"\n")
demo = (ROOT / "resources" / "demo.args").read_text().split()
(cli / "seed-demo.args").write_bytes("\n".join(demo).encode() + b"\n")
base = b"-cell\x00100\x00100\x00100\x0090\x0090\x0090\x00-default_F\x00100"
(cli / "seed-img.args").write_bytes(
    base + b"\n-img\nf.img" + MARKER + (smv / "seed-8x8-little.img").read_bytes())
(cli / "seed-mask.args").write_bytes(
    base + b"\n-mask\nf.img\n-pixel\n0.1" + MARKER + (smv / "seed-8x8-mask.img").read_bytes())
(cli / "seed-img-mask-roi.args").write_bytes(
    base + b"\n-mask\nf.img\n-img\nf.img\n-roi\n1\n6\n2\n7\n-xds\n-ORGX\n3" + MARKER +
    (smv / "seed-8x8-big.img").read_bytes())
(cli / "seed-help.args").write_bytes(b"-v\n-help\n")
(cli / "seed-misset-random.args").write_bytes(
    b"-mat\nA.mat\n-hkl\nP1.hkl\n-misset\nrandom\n-cell\n50\n-detsize\n20\n-pivot\nsample\n")

# ---- job: job files (docs/series.md, compute/headless/Job.h) -------------------------------
job = target("job")
(job / "seed-series-doc.json").write_bytes(b"""{
  "comment": "a distance scan and still shots",
  "base": "-cell 50 60 70 90 90 90 -default_F 100 -N 10 -detpixels 512 -seed 1 -noisefile f_####.img -cbffile f_####.cbf",
  "frames": [
    {"-distance": 100},
    {"-distance": 120},
    {"-misset": "random", "-misset_seed": 7},
    {"-lambda": 1.1, "-seed": 99},
    {"-misset": [10, 20, 30], "-phi": 5, "-osc": 0.5}
  ]
}
""")
(job / "seed-count.json").write_bytes(
    b'{"base": ["-cell", 100, 100, 100, 90, 90, 90, "-default_F", 1e2, "-misset", "random"],'
    b' "frames": 3}')
(job / "seed-base-object.json").write_bytes(
    b'{"base": {"-cell": "70 80 90 75 85 95", "-nopgm": true, "-hkl": "my file.hkl"},\r\n'
    b' "frames": [{}, {"-detpixels": 64, "-roi": [0, 10, 0, 10]}, {"-noisefile": "n_##.img"}]}')
(job / "seed-session.json").write_bytes(b'{"session": "view.json", "frames": [{"-seed": -3}]}')
(job / "seed-strings.json").write_bytes(
    b'{"comment": ["\\u00e9\\ud83d\\ude00\\n\\t\\"\\\\\\/", null, false, -0.0, 1E+308, {}],'
    b' "base": "-cell 50", "frames": [{"-hkl": "a b\\u0000c"}]}')
(job / "seed-nested.json").write_bytes(b'[[[[[[[[[[{"a": [1, 2, {"b": "c"}]}]]]]]]]]]]')

# ---- geom: CrystFEL geometry files (compute/io/CrystfelGeometry.h) -----------------------
geom = target("geom")
detectors = DATA / "detectors"
(geom / "seed-two-panel.geom").write_bytes((detectors / "two-panel.geom").read_bytes())
one_panel = (b"clen = 0.1\nres = 13333.3\n"
             b"p0/min_fs = 0\np0/max_fs = 1029\np0/min_ss = 0\np0/max_ss = 513\n"
             b"p0/fs = +0.0x -1.0y\np0/ss = -1.0x +0.0y\np0/corner_x = 514.5\n"
             b"p0/corner_y = 520.1\np0/coffset = 0.0005\n")
(geom / "seed-one-panel.geom").write_bytes(one_panel)
(geom / "seed-tilted-crlf.geom").write_bytes(
    one_panel.replace(b"p0/fs = +0.0x -1.0y", b"p0/fs = +0.0012x -0.9999y +0.014z")
    .replace(b"\n", b"\r\n") + b"bad_row/min_fs = 3 ; masked\r\nrigid_group_a = p0")
(geom / "seed-clen-path.geom").write_bytes(
    one_panel.replace(b"clen = 0.1", b"clen = /LCLS/detector_1/EncoderValue"))

# ---- expt: DIALS experiment lists (compute/io/DialsExperiment.h) ---------------------------
expt = target("expt")
(expt / "seed-four-module-tilted.expt").write_bytes(
    (detectors / "four-module-tilted.expt").read_bytes())
(expt / "seed-one-panel.expt").write_bytes(
    b'{"experiment": [{"beam": 0, "detector": 0}], "beam": [{"direction": [0, 0, 1], '
    b'"wavelength": 1.0}], "detector": [{"panels": [{"name": "Panel", "type": "SENSOR_PAD", '
    b'"fast_axis": [1, 0, 0], "slow_axis": [0, -1, 0], "origin": [-211.8, 219.5, -190.0], '
    b'"pixel_size": [0.172, 0.172], "image_size": [2463, 2527], "thickness": 0.32, '
    b'"mu": 3.96, "material": "Si"}], "hierarchy": {"origin": [0, 0, 0], '
    b'"fast_axis": [1, 0, 0], "slow_axis": [0, 1, 0], "children": [{"panel": 0}]}}]}')
(expt / "seed-nested.expt").write_bytes(
    b'{"detector": [{"panels": [{"name": "a", "type": "SENSOR_CCD", "fast_axis": [1, 0, 0], '
    b'"slow_axis": [0, 1, 0], "origin": [0, 0, 0], "pixel_size": [0.1, 0.1], '
    b'"image_size": [8, 8]}], "hierarchy": {"children": [{"fast_axis": [0, 1, 0], '
    b'"slow_axis": [-1, 0, 0], "origin": [1, 2, -50], "children": [{"children": '
    b'[{"panel": 0}]}]}]}}]}')

# ---- mask: DIALS imageset masks, pickles of flex.bool (compute/io/DialsMask.h) ------------
mask = target("mask")
for name in ("two-panels.p2.mask", "two-panels.p4.mask"):
    (mask / ("seed-" + name)).write_bytes((DATA / "dials" / name).read_bytes())

# ---- refl: DIALS reflection tables, MessagePack (compute/io/DialsReflections.h) -----------
refl = target("refl")
(refl / "seed-strong.refl").write_bytes((DATA / "dials" / "strong.refl").read_bytes())


def mp_str(text):
    data = text.encode()
    return bytes([0xD9, len(data)]) + data


def mp_uint(value):
    return b"\xcf" + struct.pack(">Q", value)


def mp_array(*items):
    return bytes([0x90 + len(items)]) + b"".join(items)


def mp_map(*pairs):
    return bytes([0x80 + len(pairs)]) + b"".join(k + v for k, v in pairs)


def mp_column(kind, rows, data):
    return mp_array(mp_str(kind), mp_array(mp_uint(rows), b"\xc5" + struct.pack(">H", len(data)) + data))


def mp_table(version, rows, columns):
    return mp_array(mp_str("dials::af::reflection_table"), mp_uint(version),
                    mp_map((mp_str("identifiers"), mp_map((b"\x00", mp_str("a-b-c")))),
                           (mp_str("nrows"), mp_uint(rows)),
                           (mp_str("data"), mp_map(*[(mp_str(n), c) for n, c in columns]))))


two = [("xyzobs.px.value", mp_column("vec3<double>", 2, struct.pack("<6d", 10.25, 20.5, 0.5, 3, 4, 7.5))),
       ("panel", mp_column("std::size_t", 2, struct.pack("<2Q", 0, 3))),
       ("id", mp_column("int", 2, struct.pack("<2i", 0, -1))),
       ("flags", mp_column("std::size_t", 2, struct.pack("<2Q", 32, 36)))]
(refl / "seed-two-spots.refl").write_bytes(mp_table(2, 2, two))
(refl / "seed-centres-only.refl").write_bytes(mp_table(1, 2, two[:1]))

# ---- dictionaries with the option names --------------------------------------------------
DICT = ROOT / "fuzz" / "dict"


def dict_entry(data):
    out = ""
    for byte in data:
        ch = chr(byte)
        if ch == "\\":
            out += "\\\\"
        elif ch == '"':
            out += '\\"'
        elif 0x20 <= byte < 0x7F:
            out += ch
        else:
            out += "\\x%02x" % byte
    return '"' + out + '"'


flags_cpp = (ROOT / "compute" / "request" / "Parameters.cpp").read_text()
names = [n for group in re.findall(r"makeFlag\(\s*\{([^}]*)\}", flags_cpp)
         for n in re.findall(r'"([^"]*)"', group)]
cli_words = ["random", "infinity", "single", "double", "beam", "sample", "fast", "precise",
             "cpu", "0", "1", "-1", "90", "100", "1e-3", "1e308", "nan", "inf", "-inf", "0x1p3",
             "1.5e+2", "f.img", "\n@@file@@\n", "\0", "\n"]
(DICT / "cli.dict").write_text(
    "# Dictionary for fuzz_cli: every option name of compute/request/Parameters.cpp, keyword values, and\n"
    "# the harness's file marker and file name. Written by fuzz/make_seeds.py.\n" +
    "".join(dict_entry(w.encode()) + "\n" for w in names + cli_words))
json_words = ["{", "}", "[", "]", ":", ",", "true", "false", "null", '"', '\\"', "\\u",
              "\\ud83d\\ude00", "\\ud800", "\\u0000", "\\\\", "\\/", "\\n", "-0",
              "1e308", "1e309", "1e-400", "0.5", "1E+2", '"base"', '"frames"', '"comment"',
              '"session"', "10000000", "10000001", "1e300", "-1", '"random"', '" "', "\u00e9",
              "\n"]
(DICT / "job.dict").write_text(
    "# Dictionary for fuzz_job: JSON syntax, the job file's members, bytes that are not UTF-8,\n"
    "# and the option names of compute/request/Parameters.cpp. Written by fuzz/make_seeds.py.\n" +
    "".join(dict_entry(w.encode()) + "\n" for w in json_words) +
    "".join(dict_entry(b) + "\n"
            for b in [b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xc0\xaf", b"\xff"]) +
    "".join(dict_entry(('"' + n + '"').encode()) + "\n" for n in names))

print("seeds written under", CORPUS)
