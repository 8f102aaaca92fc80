"""Runs the tensor-core kernels once each (tlec's, then Triton's with the same configuration)
so that a profiler can look at them, e.g. on the device machine:

  ncu --section SpeedOfLight --section WarpStateStats --section Occupancy \
      python3 bench/profile_dot_kernels.py --build build-gpu

Prints nothing of its own; the profiler reports per kernel."""
import argparse
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests", "gpu"))
sys.path.insert(0, os.path.dirname(__file__))
import tlec_kernels  # noqa: E402
from bench_tutorials import load_tutorial  # noqa: E402


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default="build-gpu")
    parser.add_argument("--only", default="", help="matmul or attention")
    parser.add_argument("--head-dim", type=int, default=64, choices=(64, 128))
    parser.add_argument("--causal", action="store_true")
    args = parser.parse_args()
    k = tlec_kernels.load(args.build)
    if args.only in ("", "matmul"):
        tri = load_tutorial("03_matmul.tle")
        m = n = kk = 4096
        a = torch.randn(m, kk, device="cuda", dtype=torch.float16)
        b = torch.randn(kk, n, device="cuda", dtype=torch.float16)
        c = torch.empty(m, n, device="cuda", dtype=torch.float16)
        grid = ((m // 128) * (n // 128),)
        k["mm_fp16_128"](grid, a, b, c, m, n, kk, a.stride(0), b.stride(0), c.stride(0))
        tri.matmul_kernel.fn[grid](a, b, c, m, n, kk, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0),
                                   c.stride(1), BLOCK_SIZE_M=128, BLOCK_SIZE_N=128, BLOCK_SIZE_K=64, GROUP_SIZE_M=8,
                                   ACTIVATION="", num_warps=8, num_stages=3)
    if args.only in ("", "attention"):
        tri = load_tutorial("06_fused_attention_nodesc.tle")
        z, h, n, d = 4, 16, 2048, args.head_dim
        q = torch.randn(z, h, n, d, device="cuda", dtype=torch.float16)
        kk, v, out = torch.randn_like(q), torch.randn_like(q), torch.empty_like(q)
        mm = torch.empty((z * h, n), device="cuda", dtype=torch.float32)
        grid = (n // 64, z * h)
        sym = f"attn_d{d}" + ("_causal" if args.causal else "")
        k[sym](grid, q, kk, v, 0.125, mm, out, *q.stride()[:3], *kk.stride()[:3], *v.stride()[:3], *out.stride()[:3],
               z, h, n)
        tri._attn_fwd.fn[grid](q, kk, v, 0.125, mm, out, *q.stride(), *kk.stride(), *v.stride(), *out.stride(), z, h, n,
                               HEAD_DIM=d, BLOCK_M=64, BLOCK_N=64, STAGE=3 if args.causal else 1, num_warps=4,
                               num_stages=3)
    torch.cuda.synchronize()


if __name__ == "__main__":
    main()
