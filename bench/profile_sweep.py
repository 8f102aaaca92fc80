#!/usr/bin/env python3
"""Runs chosen matmul sweep kernels once each, tlec's and then Triton's with the same config
and shape, so that a profiler can compare them, e.g. on the device machine:

  ncu --clock-control none --section SpeedOfLight --section WarpStateStats --launch-count 1 \
      -k regex:mm_ python3 bench/profile_sweep.py --build build-gpu/sweep --side tlec mm_fp16_64x256x32_s4_w4

(tlec's kernels are named after the sweep's symbols, Triton's `matmul_kernel`: -k regex:matmul
with --side triton). Each kernel runs twice; prints nothing of its own."""
import argparse
import os

from sweep_common import build, matmul_launchers


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
        run_tlec, run_triton = matmul_launchers(kernels, tri, sym, a, b, c)
        for _ in range(2 if args.side != "triton" else 0):
            run_tlec()
        for _ in range(2 if args.side != "tlec" else 0):
            run_triton()
        torch.cuda.synchronize()


if __name__ == "__main__":
    main()
