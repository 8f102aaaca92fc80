"""The seed kernels compiled by tlec against the same algorithm JIT-compiled by Triton, in one
process on one GPU: FlagTree's Sparse MLA forward (tests/corpus/seeds/sparse_mla_fwd.tle, the TLE
variant; Triton runs the plain variant, whose only difference is tl.load for the KV rows) at
FlagTree's benchmark shape, checked against a float64 PyTorch reference first. Prints times and
ratios (Triton time / tlec time: above 1 means tlec is faster). Needs build-gpu
(scripts/gpu-build.sh)."""
import argparse
import importlib.util
import math
import os
import sys
import tempfile

import torch

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests", "gpu"))
import tlec_kernels  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
B, SQ, SKV, H, D, TD, DV, TOPK, BK, BH = 1, 4096, 8192, 128, 512, 64, 512, 2048, 32, 64
SM_SCALE = 1.0 / math.sqrt(D + TD)


def triton_variant():
    """The seed's kernel as plain Triton: tle.load(..., is_async=True) -> tl.load(...)."""
    src = open(os.path.join(ROOT, "tests", "corpus", "seeds", "sparse_mla_fwd.tle")).read()
    src = src.replace("import triton.experimental.tle.language as tle\n", "")
    src = src.replace("tle.load(kv_ptr, kv_msk, other=0.0, is_async=True)", "tl.load(kv_ptr, kv_msk, other=0.0)")
    assert "tle." not in src.split("def triton_sparse_mla_fwd")[1]
    path = os.path.join(tempfile.mkdtemp(), "sparse_mla_triton.py")
    open(path, "w").write(src)
    spec = importlib.util.spec_from_file_location("sparse_mla_triton", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.triton_sparse_mla_fwd


def inputs():
    torch.manual_seed(0)
    q = torch.randn(B, SQ, H, D + TD, device="cuda", dtype=torch.bfloat16)
    kv = torch.randn(B, SKV, 1, D + TD, device="cuda", dtype=torch.bfloat16)
    # Each query row attends to up to TOPK distinct keys at or before it (causal); the rest
    # of its index list is padding (SKV, out of range).
    scores = torch.rand(SQ, SKV, device="cuda")
    scores.masked_fill_(torch.arange(SKV, device="cuda")[None, :] > torch.arange(SQ, device="cuda")[:, None], -1.0)
    top = scores.topk(TOPK, dim=1)
    idx = torch.where(top.values >= 0, top.indices, torch.full_like(top.indices, SKV)).int()
    indices = idx.view(B, SQ, 1, TOPK).contiguous()
    return q, kv, indices


def reference(q, kv, indices, rows):
    """float64 output and lse (base 2) for query rows `rows`."""
    out, lse = [], []
    for sq in rows:
        ids = indices[0, sq, 0].long()
        ids = ids[(ids >= 0) & (ids <= sq)]
        k = kv[0, ids, 0].double()                       # [n, 576]
        s = (q[0, sq].double() @ k.T) * SM_SCALE          # [H, n]
        m = s.max(dim=1, keepdim=True).values
        p = torch.exp(s - m)
        out.append((p @ k[:, :DV]) / p.sum(dim=1, keepdim=True))
        lse.append((m.squeeze(1) + torch.log(p.sum(dim=1))) / math.log(2))
    return torch.stack(out), torch.stack(lse)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default="build-gpu")
    args = parser.parse_args()
    import triton.testing
    k = tlec_kernels.load(args.build)
    tri = triton_variant()
    q, kv, indices = inputs()
    rows = [0, 1, 17, 255, 1000, 2047, 2048, 3001, 4095]
    ref_out, ref_lse = reference(q, kv, indices, rows)
    flops = 0
    for sq in range(SQ):
        flops += 2 * H * min(TOPK, sq + 1) * (D + TD + DV)
    print(f"device: {torch.cuda.get_device_name()}; Sparse MLA fwd B={B} SQ={SQ} SKV={SKV} H={H} DQK={D + TD} DV={DV} "
          f"topk={TOPK} BK={BK} BH={BH}, causal, bf16")
    grid = (B, SQ, H // BH)

    def tlec_run(sym):
        out = torch.full((B, SQ, H, DV), float("nan"), device="cuda", dtype=torch.bfloat16)
        lse = torch.full((B, SQ, H), float("nan"), device="cuda", dtype=torch.bfloat16)
        call = lambda: k[sym](grid, q, kv, indices, out, lse, q.stride(0), q.stride(2), q.stride(1), kv.stride(0),
                              kv.stride(2), kv.stride(1), indices.stride(0), indices.stride(2), indices.stride(1),
                              out.stride(0), out.stride(2), out.stride(1), lse.stride(0), lse.stride(1))
        return out, lse, call

    def triton_run(warps):
        out = torch.full((B, SQ, H, DV), float("nan"), device="cuda", dtype=torch.bfloat16)
        lse = torch.full((B, SQ, H), float("nan"), device="cuda", dtype=torch.bfloat16)
        call = lambda: tri[grid](q, kv, indices, SM_SCALE, out, lse, *q.stride()[:1], q.stride(2), q.stride(1), q.stride(3),
                                 kv.stride(0), kv.stride(2), kv.stride(1), kv.stride(3), indices.stride(0), indices.stride(2),
                                 indices.stride(1), indices.stride(3), out.stride(0), out.stride(2), out.stride(1),
                                 out.stride(3), lse.stride(0), lse.stride(2), lse.stride(1), B, SQ, SKV, TOPK, D, TD, D,
                                 TD, H, H, 1, BK, BH, True, num_warps=warps)
        return out, lse, call

    failures = 0
    print(f"{'config':28s} {'tlec ms':>9s} {'triton ms':>10s} {'ratio':>7s} {'tlec TF/s':>10s} {'max|err| out':>13s}")
    for warps in (4, 8):
        out, lse, call = tlec_run(f"sparse_mla_w{warps}")
        call()
        t_out, t_lse, t_call = triton_run(warps)
        t_call()
        torch.cuda.synchronize()
        err = (out[0, rows].double() - ref_out).abs().max().item()
        # lse is stored in bf16: its rounding step at |lse| ~ 10 is 1/16.
        lerr = ((lse[0, rows].double() - ref_lse).abs() / (1 + ref_lse.abs())).max().item()
        terr = (t_out[0, rows].double() - ref_out).abs().max().item()
        ok = err < 3e-2 and lerr < 1e-2 and not out.isnan().any().item()
        failures += not ok
        tl_ms, tr_ms = triton.testing.do_bench(call, warmup=5, rep=50), triton.testing.do_bench(t_call, warmup=5, rep=50)
        print(f"{'num_warps=' + str(warps):28s} {tl_ms:9.3f} {tr_ms:10.3f} {tr_ms / tl_ms:6.2f}x {flops / tl_ms / 1e9:10.1f} "
              f"{err:13.2e}  (lse rel {lerr:.1e}; Triton's out {terr:.1e}) {'PASS' if ok else 'FAIL'}", flush=True)
    sys.exit(failures)


if __name__ == "__main__":
    main()
