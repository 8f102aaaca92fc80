#!/usr/bin/env python3
"""The attention config sweep (issue 12): every kernel of bench/attn_sweep.list (Triton
tutorial 06's forward kernel over BLOCK_M x BLOCK_N x warps, head dims 64 and 128, causal and
not; unhinted signatures) against Triton 3.6's JIT with the same config, in one process.
Kernels named attnptrs_* (bench/attn_formulation.list) are the same kernel written with
tensors of pointers and tl.trans (06_fused_attention_ptrs.tle); Triton runs that source.
Kernels named attn36_* (bench/attn36_sweep.list) are Triton 3.6's tensor-descriptor form
(06_fused_attention.tle), both sides making their descriptors in the kernel.
Builds build-gpu/attn_sweep/gen/*.cu with nvcc first when the library is missing (run
`bench/gen_sweep.sh bench/attn_sweep.list build-gpu/attn_sweep` where tlec is). Checks each
output against float32 PyTorch attention before timing; a config that either side cannot run
(resources) is reported, not timed.
With --resources each row is followed by both kernels' registers per thread, resident blocks
per multiprocessor and shared memory (tlec: its resource query, which covers every
specialization; Triton: the compiled kernel's metadata, spills included).
Usage: bench/bench_attn_sweep.py [--build build-gpu/attn_sweep] [--n-ctx 4096] [--resources]"""
import argparse
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "gpu"))
sys.path.insert(0, HERE)


def resources_line(kernel, compiled):
    """Registers, blocks per multiprocessor and shared memory of both sides of a row."""
    import torch
    mine = kernel.resources()
    props = torch.cuda.get_device_properties(0)
    threads = compiled.metadata.num_warps * 32
    by_registers = 65536 // max(1, compiled.n_regs * threads)
    shared = compiled.metadata.shared
    by_shared = (props.shared_memory_per_multiprocessor // shared) if shared else 32
    return (f"tlec {mine['registers']} regs, {mine['blocks_per_sm']} blocks/SM, "
            f"{(mine['dynamic_shared'] + mine['static_shared']) // 1024} KiB; "
            f"Triton {compiled.n_regs} regs, {compiled.n_spills} spills, ~{min(by_registers, by_shared)} blocks/SM, "
            f"{shared // 1024} KiB")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default=os.path.join("build-gpu", "attn_sweep"))
    parser.add_argument("--n-ctx", type=int, default=4096)
    parser.add_argument("--resources", action="store_true", help="print both kernels' registers and occupancy")
    args = parser.parse_args()
    from sweep_common import build, compare, summarize, use_torch_allocator
    build(args.build)
    import torch
    import triton
    import tlec_kernels
    from bench_tutorials import bench, load_tutorial
    sources = {"attn": load_tutorial("06_fused_attention_nodesc.tle"), "attnptrs": load_tutorial("06_fused_attention_ptrs.tle"),
               "attn36": load_tutorial("06_fused_attention.tle")}
    use_torch_allocator()  # Triton 3.6's descriptors made in the kernel
    kernels = tlec_kernels.load(args.build)
    print(f"device: {torch.cuda.get_device_name()}; torch {torch.__version__}; triton {triton.__version__}")
    z, h, n = 4, 16, args.n_ctx
    print(f"batch {z}, heads {h}, N_CTX {n}, fp16")
    print(f"{'config':34s} {'tlec TF/s':>9s} {'Triton':>7s} {'Triton/tlec':>11s}")
    ratios = []
    torch.manual_seed(0)
    for sym in sorted(kernels):
        form, d, kind, bm, bn, stages, warps = re.match(r"(attn|attnptrs|attn36)_d(\d+)_(full|causal)_(\d+)x(\d+)_s(\d+)_w(\d+)", sym).groups()
        tri = sources[form]
        d, bm, bn, stages, warps = int(d), int(bm), int(bn), int(stages), int(warps)
        causal = kind == "causal"
        q = torch.randn(z, h, n, d, device="cuda", dtype=torch.float16)
        k = torch.randn_like(q)
        v = torch.randn_like(q)
        out = torch.full_like(q, float("nan"))
        m = torch.empty((z * h, n), device="cuda", dtype=torch.float32)
        sm_scale = 1.0 / d ** 0.5
        grid = (triton.cdiv(n, bm), z * h)
        if form == "attn36":
            full = (sm_scale, m, z, h, q, k, v, out, n)
        else:
            full = (q, k, v, sm_scale, m, out, *q.stride(), *k.stride(), *v.stride(), *out.stride(), z, h, n)
        try:
            kernels[sym](grid, *full)
            torch.cuda.synchronize()
        except Exception as e:  # noqa: BLE001 - a launch the GPU refuses is a result
            print(f"{sym:34s} tlec cannot run it: {e}")
            continue
        ref = torch.nn.functional.scaled_dot_product_attention(q[:1, :2].float(), k[:1, :2].float(), v[:1, :2].float(),
                                                                 is_causal=causal, scale=sm_scale)
        err = (out[:1, :2].float() - ref).abs().max().item()
        if not err <= 2e-2:
            print(f"FAIL  {sym}: max error {err:.3g}")
            continue
        stage = 3 if causal else 1
        flops = 4.0 * z * h * n * n * d * (0.5 if causal else 1.0)
        # The tutorial's kernel is autotuned: run the JIT function under it with this config.
        jit = tri._attn_fwd.fn if hasattr(tri._attn_fwd, "configs") else tri._attn_fwd
        label = sym.split("_", 1)[1] if form == "attn" else sym
        meta = dict(HEAD_DIM=d, BLOCK_M=bm, BLOCK_N=bn, STAGE=stage, num_warps=warps, num_stages=stages)
        if form == "attn36":
            meta.update(FP8_OUTPUT=False, warp_specialize=False, IS_HOPPER=True)
        ratio = compare(label, 34, bench, lambda: kernels[sym](grid, *full), lambda: jit[grid](*full, **meta),
                        lambda ms: flops / ms / 1e9)
        if ratio is not None:
            ratios.append(ratio)
        if args.resources:
            print("    " + resources_line(kernels[sym], jit[grid](*full, **meta)))
    summarize(ratios)


if __name__ == "__main__":
    main()
