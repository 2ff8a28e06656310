#!/usr/bin/env python3
"""Writes the inputs of the --nonbragg/--noisify parity cases (tests/amorphous/cases.txt) into
tests/data/amorphous/inputs: small made-up images and tables, the same bytes on every run.
Usage: make_inputs.py OUTDIR"""
import math
import os
import struct
import sys

out = sys.argv[1]
os.makedirs(out, exist_ok=True)


def floats(name, values):
    with open(f"{out}/{name}", "wb") as f:
        f.write(struct.pack(f"<{len(values)}f", *values))


# 64 x 64 photons/pixel: a smooth background, two spots, a few negative pixels
photons = []
for y in range(64):
    for x in range(64):
        v = 20.0 + 10.0 * math.sin(x / 7.0) * math.cos(y / 5.0)
        v += 3000.0 * math.exp(-((x - 20) ** 2 + (y - 30) ** 2) / 6.0)
        v += 40000.0 * math.exp(-((x - 50) ** 2 + (y - 12) ** 2) / 2.0)
        photons.append(v)
for i in (5, 77, 300):
    photons[i] = -2.5
floats("photons.bin", photons)

# whole photon counts from 0 to 60, zeros among them (the fibre PSF's own radius per pixel)
floats("counts.bin", [float((x * 7 + y * 3) % 61 if (x + y) % 5 else 0) for y in range(64)
                      for x in range(64)])

# 32 x 64 (or 128 x 16): a ramp with negative values (the reference's casts of a negative ADU)
floats("rect_floatimage.bin", [(i % 32) - 4.25 + 0.5 * (i // 32) for i in range(2048)])

# an SMV image whose 512-byte header noisify copies (64 x 64, its own geometry)
header = ("{\nHEADER_BYTES=512;\nDIM=2;\nBYTE_ORDER=little_endian;\nTYPE=unsigned_short;\n"
          "SIZE1=64;\nSIZE2=64;\nPIXEL_SIZE=0.172;\nDISTANCE=250;\nWAVELENGTH=0.9795;\n"
          "BEAM_CENTER_X=5.5;\nBEAM_CENTER_Y=5.25;\nPHI=3;\nOSC_RANGE=0.1;\n"
          "DETECTOR_SN=123;\nBEAMLINE=test;\n}\f")
with open(f"{out}/header.img", "wb") as f:
    f.write(header.encode().ljust(512, b" "))
    f.write(struct.pack("<4096H", *[(i * 13) % 65536 for i in range(4096)]))

# sources: full lines and lines with missing trailing columns (the reference's defaults)
with open(f"{out}/sources.txt", "w") as f:
    f.write("-10 0 0 1 1.0e-10\n-10 0.01 0 0.5\n-10 0 0.02\n\n-10 -0.01 0.01 2 1.2e-10\n")

# a water-like curve in 4 stol (-4stol) and in Q (-Q)
curve = [(0.0, 2.57), (0.05, 2.6), (0.1, 3.2), (0.15, 5.5), (0.2, 6.8), (0.25, 5.9),
         (0.3, 4.4), (0.4, 3.9), (0.6, 3.0), (1.0, 2.0)]
with open(f"{out}/quad.stol", "w") as f:
    f.writelines(f"{4 * s:g} {F:g}\n" for s, F in curve)
with open(f"{out}/q.stol", "w") as f:
    f.writelines(f"{4 * math.pi * s:.6g}\t{F:g}\n" for s, F in curve)

# a measured SMV image for nonBragg's -img (64 x 48, a water ring on an ADC offset of 40,
# counting noise from a fixed sequence, one dead row of zeros and three hot pixels at 65535)
measured_header = ("{\nHEADER_BYTES=512;\nDIM=2;\nBYTE_ORDER=little_endian;\nTYPE=unsigned_short;\n"
                   "SIZE1=64;\nSIZE2=48;\nPIXEL_SIZE=0.4;\nDISTANCE=90;\nWAVELENGTH=1.1;\n"
                   "BEAM_CENTER_X=12.9;\nBEAM_CENTER_Y=9.7;\nORGX=32.25;\nORGY=23.75;\n"
                   "CLOSE_DISTANCE=90;\nPHI=2;\nOSC_START=2;\nOSC_RANGE=0.5;\nTWOTHETA=0;\n"
                   "DETECTOR_SN=000;\nBEAMLINE=fake;\n}\f")
state = 12345
counts = []
for y in range(48):
    for x in range(64):
        state = (1103515245 * state + 12345) % 2 ** 31
        r = math.hypot(x - 32.25, y - 23.75)
        v = 40 + 60 * math.exp(-((r - 20) ** 2) / 200.0) + 10 * math.exp(-r / 15.0)
        counts.append(0 if y == 7 else int(v + (state >> 16) % 9 - 4))
for i in (100, 1500, 3000):
    counts[i] = 65535
with open(f"{out}/measured.img", "wb") as f:
    f.write(measured_header.encode().ljust(512, b" "))
    f.write(struct.pack(f"<{len(counts)}H", *counts))
