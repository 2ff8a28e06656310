"""The orientation error of a fit (tests/refine/run_refine.sh): the largest angle, in degrees,
between a refined cell vector and the truth's, from two -fit_report files (the truth's own
values are the start column of a fit that starts at the truth)."""
import json
import math


def orientation_error(truth_path, refined_path):
    t = json.load(open(truth_path))["crystal_angstrom_lab_frame"]["start"]
    r = json.load(open(refined_path))["crystal_angstrom_lab_frame"]["refined"]
    worst = 0.0
    for k in "abc":
        dot = sum(x * y for x, y in zip(t[k], r[k]))
        norm = math.sqrt(sum(x * x for x in t[k]) * sum(y * y for y in r[k]))
        worst = max(worst, math.degrees(math.acos(min(1.0, dot / norm))))
    return worst
