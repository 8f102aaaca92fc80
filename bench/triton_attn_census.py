#!/usr/bin/env python3
"""What Triton 3.6 makes of each attention sweep config (bench/attn_sweep.list): registers,
spills and shared memory of its compiled `_attn_fwd`, to compare with `nvcc -Xptxas -v` on
tlec's kernels. With --dump DIR, writes the PTX and cubin of the configs named by --configs there
(e.g. d128_full_128x128_s3_w4) for reading beside tlec's.
Usage: bench/triton_attn_census.py [--dump DIR] [--configs NAME,...]"""
import argparse
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "gpu"))
sys.path.insert(0, HERE)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dump", default=None)
    parser.add_argument("--configs", default="")
    args = parser.parse_args()
    import torch
    import triton
    from bench_tutorials import load_tutorial
    tri = load_tutorial("06_fused_attention_nodesc.tle")
    wanted = set(filter(None, args.configs.split(",")))
    names = []
    with open(os.path.join(HERE, "attn_sweep.list")) as f:
        for line in f:
            if line.startswith("attn_"):
                names.append(line.split("|")[0].strip()[5:])
    z, h, n = 1, 1, 1024
    print(f"{'config':28s} {'regs':>5s} {'spills':>6s} {'smem':>7s}")
    for name in names:
        d, kind, bm, bn, stages, warps = re.match(r"d(\d+)_(full|causal)_(\d+)x(\d+)_s(\d+)_w(\d+)", name).groups()
        d, bm, bn, stages, warps = int(d), int(bm), int(bn), int(stages), int(warps)
        q = torch.randn(z, h, n, d, device="cuda", dtype=torch.float16)
        out = torch.empty_like(q)
        m = torch.empty((z * h, n), device="cuda", dtype=torch.float32)
        grid = (triton.cdiv(n, bm), z * h)
        full = (q, q, q, 0.1, m, out, *q.stride(), *q.stride(), *q.stride(), *out.stride(), z, h, n)
        compiled = tri._attn_fwd.fn[grid](*full, HEAD_DIM=d, BLOCK_M=bm, BLOCK_N=bn, STAGE=3 if kind == "causal" else 1,
                                          num_warps=warps, num_stages=stages)
        print(f"{name:28s} {compiled.n_regs:5d} {compiled.n_spills:6d} {compiled.metadata.shared:7d}", flush=True)
        if args.dump and name in wanted:
            os.makedirs(args.dump, exist_ok=True)
            with open(os.path.join(args.dump, f"triton_{name}.ptx"), "w") as f:
                f.write(compiled.asm["ptx"])
            with open(os.path.join(args.dump, f"triton_{name}.cubin"), "wb") as f:
                f.write(compiled.asm["cubin"])


if __name__ == "__main__":
    main()
