#!/usr/bin/env python3
"""The matmul config sweep (issue 12): every kernel of bench/sweep.list (Triton tutorial
03's CUDA autotune configs, fp16 and bf16, unhinted signatures) against Triton 3.6's JIT with
the same config, on several shapes, in one process; cuBLAS (torch.matmul) for reference.
fp8 kernels (bench/sweep_fp8.list: `mm_fp8...`) get the tutorial's fp8 inputs, float8_e5m2
A and pre-transposed B, fp16 C, checked against the float32 product; no cuBLAS column
(--fp8-b-row-major: B as `x @ W` passes it, N contiguous; the kernels without unit-stride
hints only). `pm_` kernels (bench/sweep_persistent.list) are tutorial 09's persistent matmul,
timed against Triton's JIT of that kernel with the same config; `dp_` kernels
(bench/sweep_descriptor.list) are its tensor-descriptor form, given B as an N x K copy.
bench/sweep_formulation.list's kernels (tr_, bp_, tb_, ce_, td_) are tutorial 03's other
spellings, each against Triton on the same source.
Builds build-gpu/sweep/gen/*.cu with nvcc first when the library is missing (run
bench/gen_sweep.sh where tlec is). Checks each result against torch before timing.
--baseline DIR times the same kernels of another build (an earlier commit's) in the same
process, as a column beside them: tlec / baseline throughput.
Usage: bench/bench_sweep.py [--build build-gpu/sweep] [--baseline DIR] [--shapes MxNxK,...]"""
import argparse
import os

from sweep_common import FORMULATIONS, build, matmul_launchers, summarize

SHAPES = [(4096, 4096, 4096), (8192, 8192, 8192), (8192, 1024, 4096), (1024, 1024, 16384)]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default=os.path.join("build-gpu", "sweep"))
    parser.add_argument("--b-k-contiguous", action="store_true",
                        help="fp16/bf16 B pre-transposed as for fp8 (x @ W.T): K contiguous, stride_bk = 1")
    parser.add_argument("--a-m-contiguous", action="store_true",
                        help="fp16/bf16 A a transposed view (X.T @ dY): M contiguous, stride_am = 1")
    parser.add_argument("--shapes", default="",
                        help="comma-separated MxNxK shapes instead of the default four (e.g. 4095x4096x4096: M not a "
                             "multiple of 16 runs the variant for such sizes)")
    parser.add_argument("--padded", action="store_true",
                        help="fp16/bf16 operands and C as views of storage whose rows are padded to multiples of 8 "
                             "elements: odd sizes with 16-byte row strides (a slice of a larger buffer)")
    parser.add_argument("--baseline", default="",
                        help="another build of the same kernels (bench/gen_sweep.sh at an earlier commit), timed beside them")
    parser.add_argument("--configs", default="",
                        help="comma-separated config names to run (e.g. fp16_128x256x64_s3_w8_e0), instead of all")
    parser.add_argument("--fp8-b-row-major", action="store_true",
                        help="fp8 B row-major (N contiguous, stride_bn = 1) instead of the tutorial's pre-transposed B")
    args = parser.parse_args()
    build(args.build)
    import torch
    import triton
    import tlec_kernels
    from bench_tutorials import bench, load_tutorial
    persistent = load_tutorial("09_persistent_matmul.tle")
    formulations = load_tutorial("03_matmul_formulations.tle")
    tutorials = {"mm_": load_tutorial("03_matmul.tle"), "pm_": persistent, "dp_": persistent,
                 **{prefix: formulations for prefix in FORMULATIONS}}
    kernels = tlec_kernels.load(args.build)
    if args.baseline:
        build(args.baseline)
    baseline = tlec_kernels.load(args.baseline) if args.baseline else {}
    print(f"device: {torch.cuda.get_device_name()}; torch {torch.__version__}; triton {triton.__version__}")
    print(f"{'config':30s} {'M x N x K':>18s} {'tlec TF/s':>9s} {'Triton':>7s} {'cuBLAS':>7s} {'Triton/tlec':>11s}" +
          (f" {'baseline':>8s} {'tlec/base':>9s}" if baseline else ""))
    ratios, base_ratios = [], []
    torch.manual_seed(0)
    shapes = [tuple(int(x) for x in s.split("x")) for s in args.shapes.split(",")] if args.shapes else SHAPES
    for (m, n, k) in shapes:
        for dt_name, dt in (("fp16", torch.float16), ("bf16", torch.bfloat16), ("fp8", torch.float8_e5m2)):
            syms = sorted(s for s in kernels if s[3:].startswith(dt_name) and s[:3] in tutorials and
                          (not args.configs or s[3:] in args.configs.split(",")))
            if not syms:
                continue
            flops = 2.0 * m * n * k
            if dt_name == "fp8":  # tutorial 03's fp8 benchmark: b = b.T, then to float8_e5m2
                a = torch.randn(m, k, device="cuda", dtype=torch.float16).to(dt)
                b = torch.randn(k, n, device="cuda", dtype=torch.float16).to(dt) if args.fp8_b_row_major else \
                    torch.randn(n, k, device="cuda", dtype=torch.float16).to(dt).T
                c = torch.empty(m, n, device="cuda", dtype=torch.float16)
                ref = torch.matmul(a.float(), b.float())
                t_cublas = float("nan")
            else:
                def matrix(rows, cols, make=torch.randn):
                    # --padded: a view of the first `cols` columns of rows padded to multiples of 8
                    padded = (cols + 7) // 8 * 8 if args.padded else cols
                    return make(rows, padded, device="cuda", dtype=dt)[:, :cols]
                a = matrix(k, m).T if args.a_m_contiguous else matrix(m, k)
                b = matrix(n, k).T if args.b_k_contiguous else matrix(k, n)
                c = matrix(m, n, torch.empty)
                ref = torch.matmul(a, b)
                t_cublas = bench(lambda: torch.matmul(a, b))
            for sym in syms:
                if args.fp8_b_row_major and sym.startswith("mm_fp8k1_"):
                    continue  # hinted stride_bk = 1
                launchers = matmul_launchers(kernels, tutorials[sym[:3]], sym, a, b, c)
                if launchers is None:
                    continue  # a formulation kernel that cannot take these operands
                run_tlec, run_triton = launchers
                c.fill_(float("nan"))
                run_tlec()
                err = (c.float() - ref.float()).abs().max().item()
                scale = ref.float().abs().max().item()
                if not err <= 2e-2 * scale:
                    print(f"FAIL  {sym} {m}x{n}x{k}: max error {err:.3g} (scale {scale:.3g})")
                    continue
                t_tlec = bench(run_tlec)
                try:
                    t_tri = bench(run_triton)
                except Exception as e:  # noqa: BLE001 - a config Triton cannot run is a result
                    print(f"{sym[3:]:30s} {f'{m}x{n}x{k}':>18s} {flops / t_tlec / 1e9:9.0f}  Triton cannot run it: {str(e)[:80]}")
                    continue
                ratio = t_tri / t_tlec
                ratios.append(ratio)
                extra = ""
                if sym in baseline:
                    run_base, _ = matmul_launchers(baseline, tutorials[sym[:3]], sym, a, b, c)
                    c.fill_(float("nan"))
                    run_base()
                    t_base = bench(run_base)
                    base_ratios.append(t_base / t_tlec)
                    extra = f" {flops / t_base / 1e9:8.0f} {t_base / t_tlec:8.2f}x"
                print(f"{sym[3:]:30s} {f'{m}x{n}x{k}':>18s} {flops / t_tlec / 1e9:9.0f} {flops / t_tri / 1e9:7.0f} "
                      f"{flops / t_cublas / 1e9:7.0f} {ratio:10.2f}x{extra}", flush=True)
    summarize(ratios)
    if base_ratios:
        summarize(base_ratios, "baseline/tlec time")


if __name__ == "__main__":
    main()
