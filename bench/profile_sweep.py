#!/usr/bin/env python3
"""Runs chosen matmul sweep kernels once each, tlec's and then Triton's with the same config
and shape, so that a profiler can compare them, e.g. on the device machine:

  ncu --clock-control none --section SpeedOfLight --section WarpStateStats --launch-count 1 \
      -k regex:mm_ python3 bench/profile_sweep.py --build build-gpu/sweep --side tlec mm_fp16_64x256x32_s4_w4

(tlec's kernels are named after the sweep's symbols, Triton's `matmul_kernel`: -k regex:matmul
with --side triton). Each kernel runs twice; prints nothing of its own."""
import argparse
import math
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "gpu"))
sys.path.insert(0, HERE)

from sweep_common import build  # noqa: E402


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default=os.path.join("build-gpu", "sweep"))
    parser.add_argument("--shape", default="4096x4096x4096", help="MxNxK")
    parser.add_argument("--side", default="both", choices=("both", "tlec", "triton"))
    parser.add_argument("symbols", nargs="+", help="sweep symbols, e.g. mm_fp16_64x256x32_s4_w4")
    args = parser.parse_args()
    build(args.build)
    import torch
    import tlec_kernels
    from bench_tutorials import load_tutorial
    tri = load_tutorial("03_matmul.tle")
    kernels = tlec_kernels.load(args.build)
    m, n, k = (int(x) for x in args.shape.split("x"))
    for sym in args.symbols:
        dt = torch.bfloat16 if "_bf16_" in sym else torch.float16
        a = torch.randn(m, k, device="cuda", dtype=dt)
        b = torch.randn(k, n, device="cuda", dtype=dt)
        c = torch.empty(m, n, device="cuda", dtype=dt)
        bm, bn, bk, stages, warps = (int(x) for x in re.match(r"mm_\w+?_(\d+)x(\d+)x(\d+)_s(\d+)_w(\d+)", sym).groups())
        grid = (math.ceil(m / bm) * math.ceil(n / bn),)
        strides = (a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1))
        for _ in range(2 if args.side != "triton" else 0):
            kernels[sym](grid, a, b, c, m, n, k, *strides)
        for _ in range(2 if args.side != "tlec" else 0):
            tri.matmul_kernel.fn[grid](a, b, c, m, n, k, *strides, BLOCK_SIZE_M=bm, BLOCK_SIZE_N=bn, BLOCK_SIZE_K=bk,
                                       GROUP_SIZE_M=8, ACTIVATION="", num_warps=warps, num_stages=stages)
        torch.cuda.synchronize()


if __name__ == "__main__":
    main()
