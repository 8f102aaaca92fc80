#!/usr/bin/env python3
"""FlagTree's DeepSeek V3.2 TopK selector (issue 11's seed kernel) compiled by tlec from the
upstream tutorial file unmodified, against the same file's plain-Triton selector
(triton_topk_selector_kernel) JIT-compiled by Triton 3.6, and torch.topk, in one process.

The upstream file is not part of this repository: put FlagTree's
python/tutorials/tle/deepseek_v32/01-topk_selector.py (commit 08a2da3012a2) at
build-ref/flagtree/01-topk_selector.py, run `bench/gen_sweep.sh bench/topk_selector.list
build-gpu/topk build sm_90a build-ref/flagtree` where tlec is, and this script on the GPU
machine (it builds build-gpu/topk with nvcc when the library is missing). Triton cannot
import the file's TLE kernels (Triton 3.6 has no triton.experimental.tle), so the module is
loaded with a stand-in for that package; its plain-Triton kernel does not use it.

Every tlec kernel is first checked on rows with random bounds (starts/ends not aligned, odd
lengths) and on the benchmark shapes: the returned indices must be the set torch.topk
returns (recall 1.0) and lie inside each row's bounds. Then times (ms, median of
triton.testing.do_bench) at FlagTree's benchmark shapes and ratios (Triton / tlec).
Usage: bench/bench_topk_selector.py [--build build-gpu/topk] [--source FILE] [--check-only]"""
import argparse
import importlib.util
import os
import sys
import types

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..")
sys.path.insert(0, os.path.join(ROOT, "tests", "gpu"))
sys.path.insert(0, HERE)

# FlagTree's benchmark shapes (batch, seq_len, topk): its PR #489 table.
SHAPES = [(64, 4096, 128), (64, 8192, 256), (64, 32768, 1024), (64, 32768, 2048),
          (1, 131072, 2048), (1, 262144, 2048), (1, 524288, 2048)]
# Correctness only: odd lengths and rows that start and end inside the tensor.
CHECK_SHAPES = [(3, 5000, 128), (2, 4099, 256), (2, 20011, 1024), (2, 40000, 2048), (1, 100, 128), (2, 13000, 2048)]
VARIANTS = ("trt512", "trt1024", "cluster")


def load_upstream(path):
    """The upstream module with a stand-in for triton.experimental.tle (absent from Triton 3.6)."""
    class Anything:
        def __call__(self, *args, **kwargs):
            return Anything()

        def __getattr__(self, name):
            return Anything()

        def __iter__(self):  # Triton's JIT walks the attributes of the globals a kernel names
            return iter(())

    import triton
    try:
        import triton.experimental as experimental
    except ImportError:
        experimental = types.ModuleType("triton.experimental")
        sys.modules["triton.experimental"] = experimental
        triton.experimental = experimental
    import importlib.abc
    import importlib.machinery

    class StandIn(importlib.abc.MetaPathFinder, importlib.abc.Loader):
        # Every module under triton.experimental.tle: a package whose attributes are anything.
        def find_spec(self, name, path=None, target=None):
            if name == "triton.experimental.tle" or name.startswith("triton.experimental.tle."):
                return importlib.machinery.ModuleSpec(name, self, is_package=True)
            return None

        def create_module(self, spec):
            module = types.ModuleType(spec.name)
            module.__path__ = []
            module.__getattr__ = lambda attr: Anything()
            return module

        def exec_module(self, module):
            pass

    sys.meta_path.insert(0, StandIn())
    spec = importlib.util.spec_from_file_location("flagtree_topk_selector", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default=os.path.join("build-gpu", "topk"))
    parser.add_argument("--source", default=os.path.join("build-ref", "flagtree", "01-topk_selector.py"))
    parser.add_argument("--check-only", action="store_true", help="only the correctness checks (for compute-sanitizer)")
    parser.add_argument("--graphs", action="store_true",
                        help="time CUDA graphs of the launches (triton.testing.do_bench_cudagraph): kernel time without "
                             "the per-launch host overhead of either launcher")
    args = parser.parse_args()
    from sweep_common import build
    build(args.build)
    import torch
    import triton
    import tlec_kernels
    from bench_tutorials import bench
    if args.graphs:
        import triton.testing

        def bench(fn):  # noqa: F811 - the graph-based timing replaces the default one
            return min(triton.testing.do_bench_cudagraph(fn, rep=200) for _ in range(2))
    kernels = tlec_kernels.load(args.build)
    upstream = None if args.check_only else load_upstream(args.source)
    print(f"device: {torch.cuda.get_device_name()}; torch {torch.__version__}; triton {triton.__version__}")

    def symbol(variant, seq_len, topk):
        return f"topk_{variant}_k{topk}_r{int(seq_len >= 12288)}"

    def run_tlec(variant, x, starts, ends, topk, out):
        batch, seq_len = x.shape
        blocks = batch * 8 if variant == "cluster" else batch  # tlec's grid counts blocks
        kernels[symbol(variant, seq_len, topk)]((blocks,), x, out, starts, ends, x.stride(0), x.stride(1),
                                                out.stride(0), out.stride(1), seq_len)

    def reference(x, starts, ends, topk):
        rows = []
        for i in range(x.shape[0]):
            s, e = int(starts[i]), int(ends[i])
            k = min(topk, e - s)
            rows.append(set((torch.topk(x[i, s:e].double(), k).indices + s).tolist()))
        return rows

    def check(variant, x, starts, ends, topk):
        out = torch.full((x.shape[0], topk), -7, dtype=torch.int32, device="cuda")  # poisoned
        run_tlec(variant, x, starts, ends, topk, out)
        torch.cuda.synchronize()
        ref = reference(x, starts, ends, topk)
        for i, want in enumerate(ref):
            got = out[i].tolist()
            picked = [g for g in got if g != -1]
            padding = len(got) - len(picked)
            if set(picked) != want or len(picked) != len(want) or padding != topk - len(want):
                bad = sorted(set(picked) ^ want)[:5]
                return f"row {i} (bounds {int(starts[i])}..{int(ends[i])}): {len(set(picked) & want)} of {len(want)} found, " \
                       f"{padding} padding, differing {bad}"
        return None

    torch.manual_seed(0)
    failures = 0
    for variant in VARIANTS:
        for batch, seq_len, topk in CHECK_SHAPES + SHAPES:
            if args.check_only and (batch, seq_len, topk) in SHAPES:
                continue
            x = torch.randn(batch, seq_len, device="cuda", dtype=torch.float32)
            if (batch, seq_len, topk) in SHAPES:
                starts = torch.zeros(batch, dtype=torch.int32, device="cuda")
                ends = torch.full((batch,), seq_len, dtype=torch.int32, device="cuda")
            else:  # rows inside the tensor, some shorter than topk
                starts = torch.randint(0, max(1, seq_len // 8), (batch,), dtype=torch.int32, device="cuda")
                ends = torch.minimum(starts + torch.randint(1, seq_len, (batch,), device="cuda").int(),
                                     torch.tensor(seq_len, device="cuda")).int()
            problem = check(variant, x, starts, ends, topk)
            status = "FAIL" if problem else "ok  "
            failures += problem is not None
            print(f"{status} {variant:8s} batch {batch:3d} seq {seq_len:7d} topk {topk:5d}" + (f": {problem}" if problem else ""),
                  flush=True)
    if failures:
        sys.exit(f"{failures} checks failed")
    if args.check_only:
        return

    print(f"\n{'batch x seq x topk':>22s} {'trt512':>8s} {'trt1024':>8s} {'cluster':>8s} {'Triton':>8s} {'torch':>8s}"
          f" {'Triton/best':>11s} {'torch/best':>10s}   (ms)")
    for batch, seq_len, topk in SHAPES:
        torch.manual_seed(1)
        x = torch.randn(batch, seq_len, device="cuda", dtype=torch.float32)
        starts = torch.zeros(batch, dtype=torch.int32, device="cuda")
        ends = torch.full((batch,), seq_len, dtype=torch.int32, device="cuda")
        out = torch.full((batch, topk), -1, dtype=torch.int32, device="cuda")
        times = {v: bench(lambda v=v: run_tlec(v, x, starts, ends, topk, out)) for v in VARIANTS}
        cand0 = torch.empty((batch, seq_len), dtype=torch.int32, device="cuda")
        cand1 = torch.empty_like(cand0)
        tri_out = torch.full((batch, topk), -1, dtype=torch.int32, device="cuda")
        t_tri = bench(lambda: upstream.triton_topk_selector(x, starts, ends, topk, block_size=1024, out=tri_out, cand0=cand0,
                                                            cand1=cand1))
        tri_ref = reference(x, starts, ends, topk)
        tri_recall = sum(len(set(tri_out[i].tolist()) & tri_ref[i]) for i in range(batch)) / (batch * topk)
        t_torch = bench(lambda: torch.topk(x, topk, dim=1))
        best = min(times.values())
        print(f"{batch:5d} x {seq_len:6d} x {topk:4d} {times['trt512']:8.4f} {times['trt1024']:8.4f} {times['cluster']:8.4f}"
              f" {t_tri:8.4f} {t_torch:8.4f} {t_tri / best:10.2f}x {t_torch / best:9.2f}x   (Triton recall {tri_recall:.4f})",
              flush=True)


if __name__ == "__main__":
    main()
