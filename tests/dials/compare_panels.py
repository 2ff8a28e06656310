"""Compares the panels of two DIALS experiment lists, panel by panel (tests/dials/run_dials.sh).

    compare_panels.py STATED.expt IMPORTED.expt [DISTANCE]

STATED is the detector braggview was given (-detector FILE.expt), IMPORTED what dials.import
read back from braggview's NeXus file. Both are in DIALS' lab frame (mm). A panel's vectors
in the JSON are local to its group in "hierarchy" (dxtbx writes get_local_*), so each panel
is first put in the lab frame here, from the JSON alone: a group's frame is its parent's
fast, slow and normal (fast x slow) times the local components, plus the parent's origin.

Without a shift, every panel of IMPORTED must be the panel of STATED in the same place of
the list: origin within 1 um, fast and slow axes within 1e-6, the same pixel size and
image size. With DISTANCE (mm, braggview's -distance) every STATED origin is moved first
along the beam, DIALS' -z, until the detector's centre, the mean of its panels' centres,
lies DISTANCE from the sample along the beam (docs/numerics/detector-panels.md)."""
import json
import math
import sys


def lab_panels(path):
    detector = json.load(open(path))["detector"][0]
    panels = detector["panels"]
    placed = [None] * len(panels)

    def combine(frame, node):
        fast, slow, origin = frame
        normal = cross(fast, slow)

        def turn(v):
            return [fast[i] * v[0] + slow[i] * v[1] + normal[i] * v[2] for i in range(3)]

        return (turn(node["fast_axis"]), turn(node["slow_axis"]),
                [origin[i] + turn(node["origin"])[i] for i in range(3)])

    def walk(node, frame):
        here = combine(frame, node)
        for child in node.get("children", []):
            if "panel" in child:
                placed[child["panel"]] = combine(here, panels[child["panel"]])
            else:
                walk(child, here)

    identity = ([1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 0.0])
    if "hierarchy" in detector:
        walk(detector["hierarchy"], identity)
    for i, p in enumerate(panels):  # a panel in no group: its own vectors are the lab frame's
        if placed[i] is None:
            placed[i] = combine(identity, p)
    return [{"name": p["name"], "fast": f, "slow": s, "origin": o, "pixel_size": p["pixel_size"],
             "image_size": p["image_size"]} for p, (f, s, o) in zip(panels, placed)]


def cross(a, b):
    return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]


def largest(a, b):
    return max(abs(x - y) for x, y in zip(a, b))


stated, imported = lab_panels(sys.argv[1]), lab_panels(sys.argv[2])
shift = [0.0, 0.0, 0.0]
if len(sys.argv) > 3:
    centres = [[p["origin"][i] + (p["fast"][i] * p["image_size"][0] * p["pixel_size"][0] +
                                  p["slow"][i] * p["image_size"][1] * p["pixel_size"][1]) / 2
                for i in range(3)] for p in stated]
    along = -sum(c[2] for c in centres) / len(centres)  # the centre's distance along -z
    shift = [0.0, 0.0, -(float(sys.argv[3]) - along)]
    print("-distance %s: the stated detector's centre is %.4f mm along the beam, so every "
          "panel moves by %.4f mm along z" % (sys.argv[3], along, shift[2]))
bad = []
if len(stated) != len(imported):
    bad.append("%d panels stated, %d imported" % (len(stated), len(imported)))
worst_origin = worst_axis = 0.0
for s, m in zip(stated, imported):
    expected = [s["origin"][i] + shift[i] for i in range(3)]
    d_origin = largest(expected, m["origin"])
    d_axis = max(largest(s["fast"], m["fast"]), largest(s["slow"], m["slow"]))
    worst_origin, worst_axis = max(worst_origin, d_origin), max(worst_axis, d_axis)
    print("%-4s -> %-32s origin %s mm (expected %s), |d origin| %.1e mm, |d axis| %.1e" % (
        s["name"], m["name"], ", ".join("%.4f" % x for x in m["origin"]),
        ", ".join("%.4f" % x for x in expected), d_origin, d_axis))
    if d_origin > 1e-3:
        bad.append("%s: origin %s, expected %s (mm)" % (s["name"], m["origin"], expected))
    if d_axis > 1e-6:
        bad.append("%s: axes %s %s, expected %s %s" % (s["name"], m["fast"], m["slow"], s["fast"],
                                                        s["slow"]))
    if largest(s["pixel_size"], m["pixel_size"]) > 1e-9 or s["image_size"] != m["image_size"]:
        bad.append("%s: %s pixels of %s mm, expected %s of %s" % (
            s["name"], m["image_size"], m["pixel_size"], s["image_size"], s["pixel_size"]))
print("largest differences: origin %.1e mm, axes %.1e" % (worst_origin, worst_axis))
if bad:
    print("panels differ:\n  " + "\n  ".join(bad))
    sys.exit(1)
print("dials.import read the %d panels as stated, within 1 um and 1e-6" % len(stated))
