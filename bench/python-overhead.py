#!/usr/bin/env python3
"""What a Python call costs above the GPU's work (throughput issue: <= 1 ms for 1024^2 once
warm): braggview.Simulator.simulate() on simple_1024, REPEATS calls after WARMUP, each call's
wall time against its GPU time (timestamp queries, Simulator.gpu_ms).

    PYTHONPATH=build/python python3 bench/python-overhead.py [REPEATS] [PRECISION]
"""
import statistics
import sys
import time

import braggview

repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 50
precision = sys.argv[2] if len(sys.argv) > 2 else "fast"
case = "-cell 100 100 100 90 90 90 -lambda 6.2 -N 5 -default_F 100 -distance 100 -detpixels 1024"
sim = braggview.Simulator(precision=precision)
for _ in range(5):
    sim.simulate(case)  # warm: pipeline, buffers, recording, driver
walls, gpus = [], []
for _ in range(repeats):
    start = time.perf_counter()
    image = sim.simulate(case)
    walls.append((time.perf_counter() - start) * 1e3)
    gpus.append(sim.gpu_ms)
above = [w - g for w, g in zip(walls, gpus)]
print(f"# {sim.device}; python {sys.version.split()[0]}; {repeats} calls after 5")
print(f"simple_1024 {precision}: call ms median {statistics.median(walls):.3f} "
      f"(min {min(walls):.3f}, max {max(walls):.3f}); GPU ms median {statistics.median(gpus):.3f}; "
      f"above the GPU median {statistics.median(above):.3f} ms (min {min(above):.3f}); "
      f"recordings {sim.record_count}; image {image.shape}")
