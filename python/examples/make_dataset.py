#!/usr/bin/env python3
"""A labelled training set from braggview: N images of one crystal in random orientations,
each with the orientation and the command line that made it.

    PYTHONPATH=build/python python3 python/examples/make_dataset.py OUT_DIR [N] [PIXELS] [SEED]

Writes OUT_DIR/images.npy (N x PIXELS x PIXELS float32 photons per pixel) and
OUT_DIR/labels.json: per image its index, the misset angles in degrees, the GPU time and the
full command line of the headless program that makes the same image bit for bit
(`braggview --headless` and nanoBragg's options, the drawn orientation as its
-misset_seed), as a shell line and as a list of words. The orientations are the Simulator's
own sequence (misset="random"), fixed by SEED: the same SEED gives the same set. One
Simulator for all images: one Vulkan device, and the command buffer recorded for the first
image is reused by every later one.
"""
import json
import os
import shlex
import sys

import numpy as np

import braggview


def main():
    out = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    pixels = int(sys.argv[3]) if len(sys.argv) > 3 else 512
    seed = int(sys.argv[4]) if len(sys.argv) > 4 else 20261124
    os.makedirs(out, exist_ok=True)

    sim = braggview.Simulator(precision="fast", seed=seed)
    crystal = dict(cell=(78, 78, 37, 90, 90, 90), N=10, default_F=100, lambda_=1.0,
                   distance=150, pixel=0.1, detpixels=pixels, mosaic=0.2, mosaic_dom=5,
                   mosaic_seed=-1)
    images = np.empty((count, pixels, pixels), dtype=np.float32)
    labels = []
    for i in range(count):
        images[i] = sim.simulate(misset="random", **crystal)
        words = ["braggview", "--headless"] + sim.command
        labels.append({"index": i, "misset_degrees": list(sim.misset), "gpu_ms": sim.gpu_ms,
                       "command": shlex.join(words), "arguments": words[2:]})
    np.save(os.path.join(out, "images.npy"), images)
    with open(os.path.join(out, "labels.json"), "w") as f:
        json.dump({"device": sim.device, "seed": sim.seed,
                   "crystal": {k.rstrip("_"): v for k, v in crystal.items()},
                   "images": labels}, f, indent=1)
    print(f"{count} images of {pixels}x{pixels} pixels in {out} ({sim.device}); "
          f"command buffer recorded {sim.record_count} time(s)")


if __name__ == "__main__":
    main()
