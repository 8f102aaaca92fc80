"""FlagTree's warp-specialized Sparse MLA forward (tle_pipe_sparse_mla_fwd: a producer and two
consumer partitions over pipes) compiled by tlec, against the plain-Triton kernel of the same
file (triton_sparse_mla_fwd, JIT-compiled by Triton at the configuration FlagTree's interface
gives it: bk=32, 8 warps, 2 stages), in one process on one GPU, at FlagTree's benchmark shape.
Both read the same inputs (each query row's valid indices first, padding after, their count
in topk_length); outputs are checked against a float64 PyTorch reference first. FlagTree's
file is not part of this repository (bench/flagtree_mla.list says where it comes from).
Prints times and the ratio Triton time / tlec time."""
import argparse
import importlib.util
import os
import re
import sys
import tempfile

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sweep_common  # noqa: E402
import tlec_kernels  # noqa: E402  (sweep_common put tests/gpu on the path)
# The seed's benchmark: the same shape, inputs and float64 reference.
from bench_seeds import B, D, H, SKV, SM_SCALE, SQ, TD, TOPK, inputs, reference  # noqa: E402


def triton_variant(source):
    """FlagTree's plain-Triton kernel, taken from its file (whose imports need FlagTree)."""
    text = open(source).read()
    match = re.search(r"@triton\.jit\ndef triton_sparse_mla_fwd\(.*?(?=\n@triton\.jit)", text, re.S)
    if not match:
        sys.exit(f"no triton_sparse_mla_fwd in {source}")
    # Triton's JIT reads a kernel's source from its file.
    path = os.path.join(tempfile.mkdtemp(), "flagtree_sparse_mla_triton.py")
    open(path, "w").write("import triton\nimport triton.language as tl\n\n\n" + match.group(0) + "\n")
    spec = importlib.util.spec_from_file_location("flagtree_sparse_mla_triton", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.triton_sparse_mla_fwd


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", required=True, help="bench/gen_sweep.sh's output for bench/flagtree_mla.list")
    parser.add_argument("--source", default="build-ref/flagtree/02-sparse-mla.tle-pipe.py")
    parser.add_argument("--tlec-once", action="store_true", help="run tlec's kernel once and stop (for a profiler)")
    args = parser.parse_args()
    import triton
    import triton.testing
    # FlagTree's Triton kernel uses on-device tensor descriptors: their global scratch.
    sweep_common.use_torch_allocator()
    sweep_common.build(args.build)
    kernels = tlec_kernels.load(args.build)
    q, kv, indices = inputs()
    # Each row's valid indices come first, padding (SKV) after: their count bounds its loop.
    topk_length = ((indices >= 0) & (indices < SKV)).sum(dim=-1).int().contiguous()
    rows = [0, 1, 17, 255, 1000, 2047, 2048, 3001, 4095]
    ref_out, ref_lse = reference(q, kv, indices, rows)
    flops = sum(2 * H * min(TOPK, sq + 1) * (D + TD + D) for sq in range(SQ))
    print(f"device: {torch.cuda.get_device_name()}; Sparse MLA fwd B={B} SQ={SQ} SKV={SKV} H={H} DQK={D + TD} DV={D} "
          f"topk={TOPK}, causal, bf16")

    def tlec_run():
        out = torch.full((B, SQ, H, D), float("nan"), device="cuda", dtype=torch.bfloat16)
        lse = torch.full((B, SQ, H), float("nan"), device="cuda", dtype=torch.float32)
        q_flat, out_flat = q.view(B * SQ * H, D + TD), out.view(B * SQ * H, D)
        rows_total = B * SQ * H
        call = lambda: kernels["ft_pipe_sparse_mla"](
            (B, SQ, 2), q_flat, rows_total, D, D + TD, q_flat[:, D:], rows_total, TD, D + TD, out_flat, rows_total, D, D,
            kv, indices, topk_length, lse, SQ, SKV)
        return out, lse, call

    def triton_run():
        out = torch.full((B, SQ, H, D), float("nan"), device="cuda", dtype=torch.bfloat16)
        lse = torch.full((B, SQ, H), float("nan"), device="cuda", dtype=torch.float32)
        call = lambda: tri[(B, SQ, 2)](q, kv, indices, topk_length, SM_SCALE, out, lse, B, SQ, SKV, TOPK, D, TD, D, TD, H, H, 1,
                                      2, 32, 64, True, num_warps=8, num_stages=2)
        return out, lse, call

    if args.tlec_once:
        tlec_run()[2]()
        torch.cuda.synchronize()
        return
    tri = triton_variant(args.source)
    failures = 0
    print(f"{'kernel':36s} {'ms':>8s} {'TFLOP/s':>8s} {'max|err| out':>13s} {'lse rel':>8s}")
    results = {}
    for name, run in (("tlec: tle_pipe_sparse_mla_fwd", tlec_run), ("Triton 3.6: triton_sparse_mla_fwd", triton_run)):
        out, lse, call = run()
        call()
        torch.cuda.synchronize()
        err = (out[0, rows].double() - ref_out).abs().max().item()
        lerr = ((lse[0, rows].double() - ref_lse).abs() / (1 + ref_lse.abs())).max().item()
        ok = err < 3e-2 and lerr < 1e-3 and not out.isnan().any().item()
        failures += not ok
        if not ok:  # where: per checked row, the left and right halves of the output, and the lse
            for i, sq in enumerate(rows):
                diff = (out[0, sq].double() - ref_out[i]).abs()
                print(f"  row {sq}: topk_length {topk_length[0, sq, 0].item()}, max|err| left {diff[:, :D // 2].max().item():.2e} "
                      f"right {diff[:, D // 2:].max().item():.2e}, nan {out[0, sq].isnan().sum().item()}, "
                      f"lse err {(lse[0, sq].double() - ref_lse[i]).abs().max().item():.2e}")
        ms = triton.testing.do_bench(call, warmup=5, rep=50)
        results[name] = ms
        print(f"{name:36s} {ms:8.3f} {flops / ms / 1e9:8.1f} {err:13.2e} {lerr:8.1e} {'PASS' if ok else 'FAIL'}", flush=True)
    t_tlec, t_tri = results["tlec: tle_pipe_sparse_mla_fwd"], results["Triton 3.6: triton_sparse_mla_fwd"]
    print(f"ratio Triton / tlec: {t_tri / t_tlec:.2f}x")
    sys.exit(failures)


if __name__ == "__main__":
    main()
