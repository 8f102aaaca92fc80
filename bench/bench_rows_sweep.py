#!/usr/bin/env python3
"""The row-length sweep (issue 12): every kernel of bench/rows_sweep.list (Triton tutorial 02's
fused softmax and tutorial 05's layer-norm forward, row lengths 128 to 16384, several warp
counts, unhinted signatures) against Triton 3.6's JIT with the same config, in one process,
4096 rows each. Softmax runs the tutorial's persistent grid on both sides (as many programs
as each kernel's occupancy lets every multiprocessor hold); layer norm one program per row.
Each output is checked against float64 PyTorch before timing. Prints GB/s (read + written)
and the ratio Triton time / tlec time.
Builds DIR/gen/*.cu with nvcc first when the library is missing (run
`bench/gen_sweep.sh bench/rows_sweep.list DIR` where tlec is).
Usage: bench/bench_rows_sweep.py [--build build-gpu/rows_sweep] [--short-by T]"""
import argparse
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "gpu"))
sys.path.insert(0, HERE)

ROWS = 4096


def triton_softmax_programs(kernel, warps, n_rows):
    """The tutorial's persistent grid: the kernel's occupancy times the multiprocessors."""
    import torch
    props = torch.cuda.get_device_properties(0)
    threads = warps * 32
    occupancy = min(props.max_threads_per_multi_processor // threads, 65536 // max(kernel.n_regs * threads, 1))
    if kernel.metadata.shared:
        occupancy = min(occupancy, props.shared_memory_per_multiprocessor // kernel.metadata.shared)
    return min(props.multi_processor_count * max(occupancy, 1), n_rows)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default=os.path.join("build-gpu", "rows_sweep"))
    parser.add_argument("--short-by", type=int, default=0,
                        help="rows this many elements shorter than each kernel's block (8: lengths that are multiples "
                             "of 8 but not of 16, which Triton's JIT does not specialize on)")
    args = parser.parse_args()
    from sweep_common import build, compare, summarize
    build(args.build)
    import torch
    import triton
    import tlec_kernels
    from bench_tutorials import bench, load_tutorial
    softmax_src = load_tutorial("02_fused_softmax.tle")
    layer_norm_src = load_tutorial("05_layer_norm.tle")
    kernels = tlec_kernels.load(args.build)
    print(f"device: {torch.cuda.get_device_name()}; torch {torch.__version__}; triton {triton.__version__}")
    print(f"{ROWS} rows each; GB/s read + written")
    if args.short_by:
        print(f"each row {args.short_by} elements shorter than its kernel's block")
    print(f"{'config':22s} {'tlec GB/s':>9s} {'Triton':>7s} {'Triton/tlec':>11s}")
    ratios = []
    torch.manual_seed(0)

    def order(sym):
        kind, n, warps = re.match(r"(softmax|lnfwd)_n(\d+)_w(\d+)", sym).groups()
        return kind, int(n), int(warps)

    for sym in sorted(kernels, key=order):
        kind, block, warps = order(sym)
        n = block - args.short_by
        if kind == "softmax":
            x = torch.randn(ROWS, n, device="cuda")
            y = torch.full_like(x, float("nan"))
            res = kernels[sym].resources()
            programs = min(res["sms"] * max(res["blocks_per_sm"], 1), ROWS)

            def run_tlec():
                kernels[sym]((programs,), y, x, x.stride(0), y.stride(0), ROWS, n)

            run_tlec()
            torch.cuda.synchronize()
            err = (y.double() - torch.softmax(x.double(), dim=1)).abs().max().item()
            moved = 2 * x.numel() * 4
            jit = softmax_src.softmax_kernel
            compiled = jit.warmup(y, x, x.stride(0), y.stride(0), ROWS, n, BLOCK_SIZE=block, num_stages=4, num_warps=warps,
                                  grid=(1,))
            compiled._init_handles()
            tri_programs = triton_softmax_programs(compiled, warps, ROWS)

            def run_triton():
                compiled[(tri_programs, 1, 1)](y, x, x.stride(0), y.stride(0), ROWS, n, block, 4)
        else:
            x = torch.randn(ROWS, n, device="cuda", dtype=torch.float16)
            w = torch.rand(n, device="cuda", dtype=torch.float16)
            b = torch.rand(n, device="cuda", dtype=torch.float16)
            y = torch.full_like(x, float("nan"))
            mean = torch.empty(ROWS, device="cuda")
            rstd = torch.empty(ROWS, device="cuda")
            eps = 1e-5

            def run_tlec():
                kernels[sym]((ROWS,), x, y, w, b, mean, rstd, x.stride(0), n, eps)

            run_tlec()
            torch.cuda.synchronize()
            ref = torch.nn.functional.layer_norm(x.double(), (n,), w.double(), b.double(), eps)
            err = (y.double() - ref).abs().max().item() / 8  # fp16 output: tolerance 8x softmax's
            moved = 2 * x.numel() * 2

            def run_triton():
                layer_norm_src._layer_norm_fwd_fused[(ROWS,)](x, y, w, b, mean, rstd, x.stride(0), n, eps, BLOCK_SIZE=block,
                                                             num_warps=warps)
        if not err <= 2e-3:
            print(f"FAIL  {sym}: max error {err:.3g}")
            continue
        ratio = compare(sym, 22, bench, run_tlec, run_triton, lambda ms: moved / ms / 1e6)
        if ratio is not None:
            ratios.append(ratio)
    summarize(ratios)


if __name__ == "__main__":
    main()
