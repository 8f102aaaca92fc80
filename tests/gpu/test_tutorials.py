"""Correctness of Triton's tutorial kernels compiled by tlec, on a GPU, against PyTorch.

Every output buffer is poisoned (NaN or a sentinel) before the launch; sizes are chosen so
that masks matter; references are computed in float64 where precision matters. Exit status
is the number of failed checks. Run through scripts/gpu.sh."""
import argparse
import itertools
import math
import os
import sys

import torch

import tlec_kernels

failures = 0


def check(name, got, want, atol, rtol):
    global failures
    ok = got.shape == want.shape and torch.allclose(got.double().cpu(), want.double().cpu(), atol=atol, rtol=rtol,
                                                  equal_nan=False)
    err = (got.double().cpu() - want.double().cpu()).abs().max().item() if got.shape == want.shape else float("nan")
    print(f"{'PASS' if ok else 'FAIL'}  {name:48s} max|err| = {err:.3e}")
    if not ok:
        failures += 1


def poisoned_like(t, value=float("nan")):
    return torch.full_like(t, value)


def test_vector_add(k):
    for n in (98432, 1, 1023, 1025, 4096 * 16 + 7):
        for dtype, sym in ((torch.float32, "add_fp32"), (torch.float16, "add_fp16"), (torch.bfloat16, "add_bf16")):
            x = torch.randn(n, device="cuda", dtype=dtype)
            y = torch.randn(n, device="cuda", dtype=dtype)
            out = poisoned_like(x)
            k[sym]([triton_cdiv(n, 1024)], x, y, out, n)
            check(f"vector add {dtype} n={n}", out, x + y, 0, 0)
    n = 4096 * 16
    x, y = torch.randn(n, device="cuda"), torch.randn(n, device="cuda")
    out = poisoned_like(x)
    k["add_fp32_n16"]([n // 1024], x, y, out, n)
    check(f"vector add fp32 n={n} (n:16, vectorized)", out, x + y, 0, 0)
    # The launcher refuses arguments that break the ":16" hint instead of computing garbage.
    try:
        k["add_fp32_n16"]([1], x, y, out, 17)
        check("vector add: n=17 with n:16 is refused", torch.zeros(1), torch.ones(1), 0, 0)
    except tlec_kernels.TleStatusError:
        check("vector add: n=17 with n:16 is refused", torch.zeros(1), torch.zeros(1), 0, 0)


def triton_cdiv(a, b):
    return (a + b - 1) // b


def softmax_persistent(k, sym, x, y):
    n_rows, n_cols = x.shape
    res = k[sym].resources()
    programs = min(res["sms"] * max(res["blocks_per_sm"], 1), n_rows)
    k[sym]([programs], y, x, x.stride(0), y.stride(0), n_rows, n_cols)


def test_softmax(k):
    for rows, cols, sym in ((1823, 781, "softmax_1024"), (4, 1, "softmax_1024"), (784, 1024, "softmax_1024_s16"),
                            (1008, 4000, "softmax_4096_s16")):
        x = torch.randn(rows, cols, device="cuda")
        if sym.endswith("_s16") and cols % 16:
            continue
        y = poisoned_like(x)
        softmax_persistent(k, sym, x, y)
        check(f"softmax {rows}x{cols} ({sym})", y, torch.softmax(x.double(), dim=1), 1e-6, 1e-5)


def layer_norm_ref(x, w, b, eps):
    xd = x.double()
    mean = xd.mean(dim=1)
    var = ((xd - mean[:, None]) ** 2).mean(dim=1)
    rstd = 1 / torch.sqrt(var + eps)
    y = (xd - mean[:, None]) * rstd[:, None] * w.double() + b.double()
    return y, mean, rstd


def test_layer_norm(k):
    eps = 1e-5
    for rows, cols, fwd, dx, block in ((1151, 1000, "ln_fwd_1024", "ln_bwd_dx_1024", 1024),
                                       (64, 3000, "ln_fwd_1024", None, 1024),
                                       (512, 4096, "ln_fwd_4096_s16", "ln_bwd_dx_4096_s16", 4096)):
        x = torch.randn(rows, cols, device="cuda", dtype=torch.float16)
        w = torch.rand(cols, device="cuda", dtype=torch.float16)
        b = torch.rand(cols, device="cuda", dtype=torch.float16)
        y = poisoned_like(x)
        mean = torch.full((rows,), float("nan"), device="cuda")
        rstd = torch.full((rows,), float("nan"), device="cuda")
        k[fwd]([rows], x, y, w, b, mean, rstd, x.stride(0), cols, eps)
        y_ref, mean_ref, rstd_ref = layer_norm_ref(x, w, b, eps)
        check(f"layer norm fwd {rows}x{cols} y", y, y_ref, 2e-3, 2e-3)
        check(f"layer norm fwd {rows}x{cols} mean", mean, mean_ref, 1e-5, 1e-5)
        check(f"layer norm fwd {rows}x{cols} rstd", rstd, rstd_ref, 1e-4, 1e-4)
        if dx is None:
            continue
        # Backward: dx per row, then partial dw/db under spin locks, then the column sums.
        dy = torch.randn_like(x) * 0.1
        group = 256 if cols <= 1024 else 128
        locks = torch.zeros(2 * group, dtype=torch.int32, device="cuda")
        partial_dw = torch.zeros((group, cols), dtype=x.dtype, device="cuda")
        partial_db = torch.zeros((group, cols), dtype=x.dtype, device="cuda")
        dxt = poisoned_like(x)
        k[dx]([rows], dxt, dy, partial_dw, partial_db, x, w, mean, rstd, locks, x.stride(0), cols)
        dw = poisoned_like(w)
        db = poisoned_like(b)
        sym = "ln_bwd_dwdb_s16" if cols % 16 == 0 else "ln_bwd_dwdb"
        k[sym]([triton_cdiv(cols, 128)], partial_dw, partial_db, dw, db, min(group, rows), cols)
        xr = x.double().requires_grad_(True)
        wr = w.double().requires_grad_(True)
        br = b.double().requires_grad_(True)
        yr = torch.nn.functional.layer_norm(xr, (cols,), wr, br, eps)
        yr.backward(dy.double())
        check(f"layer norm bwd {rows}x{cols} dx", dxt, xr.grad, 2e-3, 2e-3)
        check(f"layer norm bwd {rows}x{cols} dw", dw, wr.grad, 0.25, 1e-2)
        check(f"layer norm bwd {rows}x{cols} db", db, br.grad, 0.25, 1e-2)


def matmul_ref(a, b, activation):
    c = a.double() @ b.double()
    if activation == "leaky_relu":
        c = torch.where(c >= 0, c, 0.01 * c)
    return c


def test_matmul(k):
    cases = [("mm_fp16_leaky_small", torch.float16, "leaky_relu", 64, 64), ("mm_fp16_small", torch.float16, "", 64, 64),
             ("mm_bf16_small", torch.bfloat16, "", 64, 64), ("mm_fp32_tf32_small", torch.float32, "", 64, 64)]
    for sym, dtype, activation, bm, bn in cases:
        for m, n, kk in ((333, 257, 129), (64, 64, 32), (1, 17, 40)):
            a = torch.randn(m, kk, device="cuda", dtype=dtype)
            b = torch.randn(kk, n, device="cuda", dtype=dtype)
            c = torch.full((m, n), float("nan"), device="cuda", dtype=dtype)
            grid = (triton_cdiv(m, bm) * triton_cdiv(n, bn),)
            k[sym](grid, a, b, c, m, n, kk, a.stride(0), b.stride(0), c.stride(0))
            # fp16/bf16 outputs are rounded once; tf32 inputs keep 10 mantissa bits.
            tol = {torch.float16: 2e-2, torch.bfloat16: 1e-1, torch.float32: 5e-2}[dtype]
            check(f"matmul {sym} {m}x{n}x{kk}", c, matmul_ref(a, b, activation), tol, 1e-2)
    # The large configurations (wgmma on sm_90a). Sizes are multiples of 16 (the :16 hints)
    # but not of the blocks; "kodd" has no hint on K and leading dimensions padded to 16.
    cases = [("mm_fp16_leaky_128", torch.float16, "leaky_relu", 128, 128), ("mm_fp16_128", torch.float16, "", 128, 128),
             ("mm_bf16_128", torch.bfloat16, "", 128, 128), ("mm_fp16_64_w4", torch.float16, "", 64, 64),
             ("mm_fp16_64x128_w8", torch.float16, "", 64, 128), ("mm_bf16_64x64_w8", torch.bfloat16, "", 64, 64),
             ("mm_fp16_64x32_w8", torch.float16, "", 64, 32), ("mm_fp16_128_s1", torch.float16, "", 128, 128),
             ("mm_bf16_64x64_s1_w4", torch.bfloat16, "", 64, 64)]
    for sym, dtype, activation, bm, bn in cases:
        for m, n, kk in ((1024, 512, 768), (400, 272, 208)):
            a = torch.randn(m, kk, device="cuda", dtype=dtype)
            b = torch.randn(kk, n, device="cuda", dtype=dtype)
            c = torch.full((m, n), float("nan"), device="cuda", dtype=dtype)
            k[sym]((triton_cdiv(m, bm) * triton_cdiv(n, bn),), a, b, c, m, n, kk, a.stride(0), b.stride(0), c.stride(0))
            tol = 5e-2 if dtype == torch.float16 else 2e-1
            check(f"matmul {sym} {m}x{n}x{kk}", c, matmul_ref(a, b, activation), tol, 1e-2)
    for m, n, kk in ((400, 272, 200), (256, 128, 77)):
        pad = (kk + 15) // 16 * 16
        a = torch.randn(m, pad, device="cuda", dtype=torch.float16)[:, :kk]
        b = torch.randn(kk, n, device="cuda", dtype=torch.float16)
        c = torch.full((m, n), float("nan"), device="cuda", dtype=torch.float16)
        k["mm_fp16_128_kodd"]((triton_cdiv(m, 128) * triton_cdiv(n, 128),), a, b, c, m, n, kk, a.stride(0), b.stride(0),
                              c.stride(0))
        check(f"matmul mm_fp16_128_kodd {m}x{n}x{kk}", c, matmul_ref(a, b, ""), 5e-2, 1e-2)
    # fp8 as tutorial 03's benchmark feeds it: B pre-transposed (K contiguous), C fp16. The
    # hinted kernel takes no unit strides (stride_ak, stride_bk, stride_cn).
    e5m2, e4m3 = torch.float8_e5m2, torch.float8_e4m3fn
    for sym, ta, tb, bm, bn in (("mm_fp8_small", e5m2, e5m2, 64, 64), ("mm_fp8_mixed", e4m3, e5m2, 64, 64),
                                ("mm_fp8_128", e5m2, e5m2, 128, 128)):
        shapes = ((400, 272, 208), (1024, 512, 768)) + (((333, 257, 129), (1, 17, 40)) if sym != "mm_fp8_128" else ())
        for m, n, kk in shapes:
            a = torch.randn(m, kk, device="cuda", dtype=torch.float16).to(ta)
            b = torch.randn(n, kk, device="cuda", dtype=torch.float16).to(tb).T
            c = torch.full((m, n), float("nan"), device="cuda", dtype=torch.float16)
            strides = (a.stride(0), b.stride(1), c.stride(0)) if sym == "mm_fp8_128" else \
                (a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1))
            k[sym]((triton_cdiv(m, bm) * triton_cdiv(n, bn),), a, b, c, m, n, kk, *strides)
            check(f"matmul {sym} {m}x{n}x{kk}", c, matmul_ref(a.float(), b.float(), ""), 5e-2, 1e-2)
    # fp8 with B row-major (x @ W): N contiguous, transposed in the slot for wgmma. Inputs
    # are quarters in [-1, 1] (exact in e4m3 and e5m2), so every partial sum is exact in
    # the tensor cores' fp8 accumulation and the fp16 result is the exact product: one
    # misplaced byte of the transpose shows. Rows padded by one element make every row stride
    # odd: the variant that knows nothing of the strides (tle-carry-pointer-bases and
    # tle-range-offsets-at-use rebuild its addresses).
    for sym, dt, bm, bn in (("mm_fp8_rowb_128", e5m2, 128, 128), ("mm_fp8_rowb_n64", e4m3, 128, 64), ("mm_fp8_rowb_w8", e5m2, 128, 256)):
        for (m, n, kk), pad in itertools.product(((1024, 512, 768), (400, 272, 208), (333, 257, 129)), (0, 1)):
            a = (torch.randint(-4, 5, (m, kk + pad), device="cuda") * 0.25).to(dt)[:, :kk]
            b = (torch.randint(-4, 5, (kk, n + pad), device="cuda") * 0.25).to(dt)[:, :n]
            c = torch.full((m, n + pad), float("nan"), device="cuda", dtype=torch.float16)[:, :n]
            k[sym]((triton_cdiv(m, bm) * triton_cdiv(n, bn),), a, b, c, m, n, kk, *a.stride(), *b.stride(), *c.stride())
            check(f"matmul {sym} {m}x{n}x{kk}{' rows+1' if pad else ''}", c, matmul_ref(a.float(), b.float(), ""), 0, 0)
    # B K-contiguous (x @ W.T): stride_bk hinted 1.
    for sym, dtype, bm, bn in (("mm_fp16_bt_k32", torch.float16, 128, 128), ("mm_bf16_bt_64x256", torch.bfloat16, 64, 256)):
        for m, n, kk in ((1024, 512, 768), (400, 272, 208)):
            a = torch.randn(m, kk, device="cuda", dtype=dtype)
            b = torch.randn(n, kk, device="cuda", dtype=dtype).T
            c = torch.full((m, n), float("nan"), device="cuda", dtype=dtype)
            k[sym]((triton_cdiv(m, bm) * triton_cdiv(n, bn),), a, b, c, m, n, kk, a.stride(0), b.stride(1), c.stride(0))
            check(f"matmul {sym} {m}x{n}x{kk}", c, matmul_ref(a, b, ""), 5e-2 if dtype == torch.float16 else 2e-1, 1e-2)
    # A M-contiguous (X^T): stride_am hinted 1.
    for sym, dtype, bm, bn in (("mm_fp16_at_128", torch.float16, 128, 128), ("mm_bf16_at_k32", torch.bfloat16, 128, 128),
                               ("mm_fp16_at_w2", torch.float16, 32, 64)):
        for m, n, kk in ((1024, 512, 768), (400, 272, 208)):
            a = torch.randn(kk, m, device="cuda", dtype=dtype).T
            b = torch.randn(kk, n, device="cuda", dtype=dtype)
            c = torch.full((m, n), float("nan"), device="cuda", dtype=dtype)
            k[sym]((triton_cdiv(m, bm) * triton_cdiv(n, bn),), a, b, c, m, n, kk, a.stride(1), b.stride(0), c.stride(0))
            check(f"matmul {sym} {m}x{n}x{kk}", c, matmul_ref(a, b, ""), 5e-2 if dtype == torch.float16 else 2e-1, 1e-2)
    # The persistent matmul: at most NUM_SMS (132) programs, each walking tiles NUM_SMS apart.
    # N stays a multiple of 8: the kernel's max_contiguous hint on its clamped column indices
    # (as in Triton's tutorial) is only true then; K = 33 makes rows unaligned (the generic
    # variant).
    for sym, dtype, bm, bn in (("pm_fp16_128x256", torch.float16, 128, 256), ("pm_bf16_128x128_w4", torch.bfloat16, 128, 128)):
        for m, n, kk in ((2048, 1536, 512), (400, 272, 208), (130, 96, 33)):
            a = torch.randn(m, kk, device="cuda", dtype=dtype)
            b = torch.randn(kk, n, device="cuda", dtype=dtype)
            c = torch.full((m, n), float("nan"), device="cuda", dtype=dtype)
            tiles = triton_cdiv(m, bm) * triton_cdiv(n, bn)
            k[sym]((min(132, tiles),), a, b, c, m, n, kk, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0),
                   c.stride(1))
            tol = 5e-2 if dtype == torch.float16 else 2e-1
            check(f"persistent matmul {sym} {m}x{n}x{kk}", c, matmul_ref(a, b, ""), tol, 1e-2)


def test_tma_copies(k):
    """Tutorial 09's tensor-descriptor persistent matmul (B given as N x K): its operand blocks
    go by TMA in the variants whose rows are 16-byte aligned (K a multiple of 8), edges past M,
    N and K reading zeros; K = 33 runs the generic variant (element by element); K = 0 has no
    tensor map (an extent of 0): the launcher runs the next variant. 3072 x 2048 gives each
    program two or more tiles, with fewer K blocks (3 of 64, 2 of 128) than ring slots: the
    ring's slots and barrier phases carry from one tile to the next."""
    for sym, dtype, bm, bn in (("dp_fp16_128x256x64", torch.float16, 128, 256), ("dp_bf16_128x128x64_e1", torch.bfloat16, 128, 128),
                               ("dp_fp16_128x128x128_w8", torch.float16, 128, 128), ("dp_fp16_64x64x32_w4", torch.float16, 64, 64)):
        for m, n, kk in ((2048, 1536, 512), (3072, 2048, 192), (400, 272, 208), (130, 96, 72), (130, 96, 33), (256, 200, 0)):
            a = torch.randn(m, kk, device="cuda", dtype=dtype)
            b = torch.randn(n, kk, device="cuda", dtype=dtype)
            c = torch.full((m, n), float("nan"), device="cuda", dtype=dtype)
            tiles = triton_cdiv(m, bm) * triton_cdiv(n, bn)
            k[sym]((min(132, tiles),), a, b, c, m, n, kk)
            tol = 5e-2 if dtype == torch.float16 else 2e-1
            check(f"descriptor persistent matmul {sym} {m}x{n}x{kk}", c, matmul_ref(a, b.T, ""), tol, 1e-2)


def test_matmul_formulations(k):
    """Tutorial 03's other spellings (triton/03_matmul_formulations.tle), unhinted: sizes that
    are multiples of 8 (the specialized variants: cp.async rings, TMA for the descriptors),
    sizes that are not (the generic variant, element by element), B row-major and B held
    as N x K (a transposed view: the variants for stride_bk = 1), against float64."""
    pointer_forms = (("mf_tl_range_128x256x64", 128, 256), ("mf_block_ptr_128x256x64", 128, 256),
                     ("mf_block_ptr_64x64x32", 64, 64), ("mf_trans_b_128x256x64", 128, 256), ("mf_trans_b_64x128x32", 64, 128))
    for (sym, bm, bn), (m, n, kk), b_nk in itertools.product(pointer_forms, ((1024, 512, 768), (400, 272, 208), (333, 257, 129)),
                                                              (False, True)):
        a = torch.randn(m, kk, device="cuda", dtype=torch.float16)
        b = torch.randn(n, kk, device="cuda", dtype=torch.float16).T if b_nk else \
            torch.randn(kk, n, device="cuda", dtype=torch.float16)
        c = poisoned_like(torch.empty(m, n, device="cuda", dtype=torch.float16))
        k[sym]((triton_cdiv(m, bm) * triton_cdiv(n, bn),), a, b, c, m, n, kk, *a.stride(), *b.stride(), *c.stride())
        check(f"matmul formulation {sym} {m}x{n}x{kk}{' B as N x K' if b_nk else ''}", c, matmul_ref(a, b, ""), 5e-2, 1e-2)
    # M, N and K as constexpr: the kernel is compiled for 400 x 272 x 208.
    m, n, kk = 400, 272, 208
    for b_nk in (False, True):
        a = torch.randn(m, kk, device="cuda", dtype=torch.float16)
        b = torch.randn(n, kk, device="cuda", dtype=torch.float16).T if b_nk else torch.randn(kk, n, device="cuda", dtype=torch.float16)
        c = poisoned_like(torch.empty(m, n, device="cuda", dtype=torch.float16))
        k["mf_constexpr_400x272x208"]((triton_cdiv(m, 128) * triton_cdiv(n, 128),), a, b, c, *a.stride(), *b.stride(), *c.stride())
        check(f"matmul formulation mf_constexpr_400x272x208{' B as N x K' if b_nk else ''}", c, matmul_ref(a, b, ""), 5e-2, 1e-2)
    # Tensor descriptors (row-major operands); K = 129 and N = 257 leave rows unaligned: no TMA.
    for m, n, kk in ((1024, 512, 768), (400, 272, 208), (333, 257, 129)):
        a = torch.randn(m, kk, device="cuda", dtype=torch.float16)
        b = torch.randn(kk, n, device="cuda", dtype=torch.float16)
        c = poisoned_like(torch.empty(m, n, device="cuda", dtype=torch.float16))
        k["mf_descriptor_128x256x64"]((triton_cdiv(m, 128) * triton_cdiv(n, 256),), a, b, c, m, n, kk)
        check(f"matmul formulation mf_descriptor_128x256x64 {m}x{n}x{kk}", c, matmul_ref(a, b, ""), 5e-2, 1e-2)


def attention_ref(q, k, v, causal, sm_scale):
    s = (q.double() @ k.double().transpose(-1, -2)) * sm_scale
    if causal:
        n = q.shape[-2]
        s = s.masked_fill(torch.triu(torch.ones(n, n, dtype=torch.bool, device=q.device), 1), float("-inf"))
    p = torch.softmax(s, dim=-1)
    lse = torch.logsumexp(s, dim=-1) / 0.6931471805599453  # the kernel stores log2-based m + log2(l)
    return p @ v.double(), lse


def run_attention(k, sym, q, kk, v, sm_scale, block_m=64):
    z, h, n, d = q.shape
    out = torch.full_like(q, float("nan"))
    m = torch.full((z * h, n), float("nan"), device="cuda", dtype=torch.float32)
    k[sym]((triton_cdiv(n, block_m), z * h), q, kk, v, sm_scale, m, out, *q.stride()[:3], *kk.stride()[:3],
           *v.stride()[:3], *out.stride()[:3], z, h, n)
    return out, m


def test_attention(k):
    # BLOCK_M = 128 at d = 128 on 4 warps reads Q from shared memory (a resident operand), and
    # without causal masking leaves P V in flight across iterations.
    cases = [(d, causal, 64, f"attn_d{d}" + ("_causal" if causal else "")) for d in (64, 128) for causal in (True, False)]
    cases += [(128, causal, 128, "attn_d128_m128" + ("_causal" if causal else "")) for causal in (True, False)]
    cases += [(64, False, 64, "attn_d64_w8"), (128, True, 64, "attn_d128_causal_w8")]  # 8 warps: warpgroups along N
    cases += [(64, True, 64, "attn_d64_n32_w8")]  # 8 warps, 64 x 32 tiles: both warpgroups repeat the rows
    # 8 warps, BLOCK_M = 128, d = 128: Q from shared memory, P V in flight across iterations.
    cases += [(128, False, 128, "attn_d128_m128_w8"), (128, True, 128, "attn_d128_m128n32_w8_causal")]
    for d, causal, block_m, sym in cases:
        for z, h, n in ((2, 3, 256), (1, 2, 384)):
            q = torch.randn(z, h, n, d, device="cuda", dtype=torch.float16)
            kk = torch.randn(z, h, n, d, device="cuda", dtype=torch.float16)
            v = torch.randn(z, h, n, d, device="cuda", dtype=torch.float16)
            sm_scale = 0.5 / d ** 0.5 * 2
            out, m = run_attention(k, sym, q, kk, v, sm_scale, block_m)
            ref, lse = attention_ref(q, kk, v, causal, sm_scale)
            check(f"attention d={d} causal={causal} BLOCK_M={block_m} {z}x{h}x{n}", out, ref, 1e-2, 1e-2)
            check(f"attention d={d} causal={causal} BLOCK_M={block_m} {z}x{h}x{n} M", m.view(z, h, n), lse, 1e-3, 1e-3)


def test_specialization(k):
    """--specialize=auto: the launcher of a kernel compiled without hints picks a variant by
    its arguments. Each case is chosen so that a variant that assumed too much would compute
    garbage: misaligned pointers (a view one element in), strides other than 1 (transposed
    views), sizes and strides that are not multiples of 16."""
    for n in (1 << 20, 100003, 16):
        x, y = torch.randn(n + 1, device="cuda"), torch.randn(n + 1, device="cuda")
        for label, xs, ys in (("aligned", x[:n], y[:n]), ("misaligned", x[1:], y[1:])):
            out = poisoned_like(xs)
            k["add_auto"]([triton_cdiv(n, 1024)], xs, ys, out, n)
            check(f"auto vector add n={n} {label}", out, xs + ys, 0, 0)
    for rows, cols in ((512, 1024), (300, 1000), (77, 512)):
        x = torch.randn(rows, cols, device="cuda")
        for label, view in (("contiguous", x), ("row view", x[:, 1:])):
            y = poisoned_like(view.contiguous())
            softmax_persistent(k, "softmax_auto", view, y)
            check(f"auto softmax {rows}x{view.shape[1]} {label}", y, torch.softmax(view.double(), dim=1), 1e-6, 1e-5)
        w = torch.rand(cols, device="cuda", dtype=torch.float16)
        b = torch.rand(cols, device="cuda", dtype=torch.float16)
        xh = torch.randn(rows, cols, device="cuda", dtype=torch.float16)
        for sym in ("ln_fwd_auto", "ln_fwd_generic"):
            yh = poisoned_like(xh)
            mean = torch.full((rows,), float("nan"), device="cuda")
            rstd = torch.full((rows,), float("nan"), device="cuda")
            k[sym]([rows], xh, yh, w, b, mean, rstd, xh.stride(0), cols, 1e-5)
            check(f"{sym} {rows}x{cols} y", yh, layer_norm_ref(xh, w, b, 1e-5)[0], 2e-3, 2e-3)
    for m, n, kk in ((512, 512, 512), (500, 384, 512), (256, 256, 200), (130, 70, 33)):
        a = torch.randn(m, kk, device="cuda", dtype=torch.float16)
        bt = torch.randn(n, kk, device="cuda", dtype=torch.float16)
        for label, b in (("row-major B", bt.t().contiguous()), ("column-major B", bt.t())):
            for sym in ("mm_fp16_128_auto", "mm_fp16_128_generic"):
                c = torch.full((m, n), float("nan"), device="cuda", dtype=torch.float16)
                k[sym]((triton_cdiv(m, 128) * triton_cdiv(n, 128),), a, b, c, m, n, kk, a.stride(0), a.stride(1),
                       b.stride(0), b.stride(1), c.stride(0), c.stride(1))
                check(f"{sym} {m}x{n}x{kk} {label}", c, matmul_ref(a, b, ""), 2e-2, 1e-2)
    for sym, d, causal in (("attn_d64_causal_auto", 64, True), ("attn_d128_auto", 128, False)):
        for z, h, n, q_layout in ((1, 3, 256, "contiguous"), (2, 2, 128, "contiguous"), (1, 2, 128, "Q head dim strided")):
            q = torch.randn(z, h, n, d, device="cuda", dtype=torch.float16)
            if q_layout != "contiguous":
                q = torch.randn(z, h, d, n, device="cuda", dtype=torch.float16).transpose(2, 3)
            kk = torch.randn(z, h, n, d, device="cuda", dtype=torch.float16)
            v = torch.randn_like(q)
            out = torch.full_like(q, float("nan"))
            m = torch.full((z * h, n), float("nan"), device="cuda", dtype=torch.float32)
            k[sym]((triton_cdiv(n, 64), z * h), q, kk, v, 0.125, m, out, *q.stride(), *kk.stride(), *v.stride(),
                   *out.stride(), z, h, n)
            ref, lse = attention_ref(q, kk, v, causal, 0.125)
            check(f"{sym} {z}x{h}x{n} {q_layout}", out, ref, 1e-2, 1e-2)


def test_attention_descriptors(k):
    """Triton 3.6's attention tutorial, which makes tensor descriptors inside the kernel."""
    for sym, d, causal in (("attn36_d64_causal", 64, True), ("attn36_d128", 128, False)):
        z, h, n = 2, 3, 320
        q = torch.randn(z, h, n, d, device="cuda", dtype=torch.float16)
        kk = torch.randn_like(q)
        v = torch.randn_like(q)
        sm_scale = 1.0 / d ** 0.5
        out = torch.full_like(q, float("nan"))
        m = torch.full((z * h, n), float("nan"), device="cuda", dtype=torch.float32)
        k[sym]((triton_cdiv(n, 64), z * h), sm_scale, m, z, h, q, kk, v, out, n)
        ref, lse = attention_ref(q, kk, v, causal, sm_scale)
        check(f"attention (3.6, descriptors) d={d} causal={causal} {z}x{h}x{n}", out, ref, 1e-2, 1e-2)
        check(f"attention (3.6, descriptors) d={d} causal={causal} M", m.view(z, h, n), lse, 1e-3, 1e-3)


    # Host tensor descriptors (tensordesc<...> in the signature): each passed as base, sizes, strides.
    z, h, n, d = 2, 3, 320, 64
    q = torch.randn(z, h, n, d, device="cuda", dtype=torch.float16)
    kk = torch.randn_like(q)
    v = torch.randn_like(q)
    out = torch.full_like(q, float("nan"))
    m = torch.full((z * h, n), float("nan"), device="cuda", dtype=torch.float32)
    rows = z * h * n
    k["attn36_hostdesc"]((triton_cdiv(n, 64), z * h), 1.0 / d ** 0.5, m, z, h, q, rows, d, d, kk, rows, d, d, v, rows, d, d,
                         out, rows, d, d, n)
    ref, lse = attention_ref(q, kk, v, True, 1.0 / d ** 0.5)
    check(f"attention (3.6) with host tensor descriptors d={d} causal {z}x{h}x{n}", out, ref, 1e-2, 1e-2)
    check(f"attention (3.6) with host tensor descriptors d={d} causal M", m.view(z, h, n), lse, 1e-3, 1e-3)
    # A strided view (rows 200 apart, 150 wide): tiles past its edges read zeros, store nothing.
    big = torch.randn(130, 200, device="cuda", dtype=torch.float16)
    src = big[:, :150]
    dst_full = torch.full((130, 160), float("nan"), device="cuda")
    dst = dst_full[:, :150]
    k["desc_scale_copy"]((triton_cdiv(130, 64), triton_cdiv(150, 64)), src, 130, 150, 200, dst, 130, 150, 160, 0.5)
    check("host descriptors: a strided fp16 view scaled into an fp32 one (edges clipped)", dst, src.float() * 0.5, 0, 0)
    check("host descriptors: nothing stored past the view's columns", torch.isnan(dst_full[:, 150:]).all().int().view(1),
          torch.tensor([1], device="cuda", dtype=torch.int32), 0, 0)
    # tle.gpu.copy between a descriptor's block and a buffer, both ways (FlagTree's 4-argument form).
    dst_full = torch.full((130, 160), float("nan"), device="cuda", dtype=torch.float16)
    dst = dst_full[:, :150]
    k["desc_buffer_roundtrip"]((triton_cdiv(130, 64), triton_cdiv(150, 64)), src, 130, 150, 200, dst, 130, 150, 160)
    check("tle.gpu.copy(desc, buffer, shape, offsets) and back (edges clipped)", dst, src * 2, 0, 0)
    check("tle.gpu.copy(buffer, desc, ...): nothing stored past the view's columns", torch.isnan(dst_full[:, 150:]).all().int().view(1),
          torch.tensor([1], device="cuda", dtype=torch.int32), 0, 0)


def test_device_library(k):
    x = torch.randn(32, 64, device="cuda")
    y = torch.full((64, 32), float("nan"), device="cuda")
    k["transpose_32x64"]([1], x, y)
    check("tl.trans 32x64", y, x.t(), 0, 0)
    x = torch.randn(16 * 64, device="cuda")
    y = torch.full((16, 64), float("nan"), device="cuda")
    k["reshape_16x64"]([1], x, y)
    check("tl.reshape 1024 -> 16x64", y, 2 * x.view(16, 64), 0, 0)
    rows, cols = 300, 1000
    x = torch.randn(rows, cols, device="cuda")
    x[7, 3] = x[7, 900] = 100.0  # ties take the lower index, as in Triton
    values = torch.full((rows,), float("nan"), device="cuda")
    indices = torch.full((rows,), -1, device="cuda", dtype=torch.int32)
    k["row_argmax_1024"]([rows], x, values, indices, cols)
    check("tl.argmax rows (indices)", indices, x.argmax(dim=1).int(), 0, 0)
    check("tl.max rows", values, x.max(dim=1).values, 0, 0)
    n = 10007
    data = torch.randint(0, 1 << 20, (n,), device="cuda", dtype=torch.int32)
    counts = torch.zeros(64, device="cuda", dtype=torch.int32)
    k["histogram_256"]([triton_cdiv(n, 256)], data, counts, n)
    check("tl.atomic_add histogram", counts, torch.bincount(data % 64, minlength=64).int(), 0, 0)


def test_scans_and_rearrangement(k):
    rows, cols = 37, 1000
    x = torch.randn(rows, cols, device="cuda")
    y = torch.full_like(x, float("nan"))
    k["row_cumsum_1024"]([rows], x, y, cols)
    check("tl.cumsum rows (masked tail)", y, x.double().cumsum(dim=1), 1e-4, 1e-4)
    x = torch.rand(16, 64, device="cuda") + 0.5
    sums, prods, maxes = (torch.full_like(x, float("nan")) for _ in range(3))
    k["scans_16x64"]([1], x, sums, prods, maxes)
    check("tl.cumsum axis 0", sums, x.double().cumsum(dim=0), 1e-5, 1e-5)
    want = x.double().flip(1).cumprod(dim=1).flip(1)
    check("tl.cumprod axis 1 reverse", prods, want, 1e-6, 1e-4)
    check("tl.associative_scan (maximum)", maxes, x.cummax(dim=1).values, 0, 0)
    n = 128
    a, b = torch.randn(n, device="cuda"), torch.randn(n, device="cuda")
    joined = torch.full((n, 2), float("nan"), device="cuda")
    gathered = torch.full((n,), float("nan"), device="cuda")
    idx = torch.randint(0, n, (n,), device="cuda", dtype=torch.int32)
    k["join_split_gather_128"]([1], a, b, joined, gathered, idx)
    check("tl.join", joined, torch.stack([a, b], dim=1), 0, 0)
    check("tl.split + tl.gather", gathered, (a - b)[idx.long()], 0, 0)
    x, y = torch.randn(16, 32, device="cuda"), torch.randn(8, 16, device="cuda")
    sub, out = torch.full_like(y, float("nan")), torch.full_like(x, float("nan"))
    k["tiles_16x32"]([1], x, y, sub, out)
    check("tle extract_tile [1, 0]", sub, x[8:, :16], 0, 0)
    want = x.clone()
    want[8:, 16:] = y
    check("tle insert_tile [1, 1]", out, want, 0, 0)
    for sym, m, n, kdim in (("dot_halves_n_64x64", 64, 64, 32), ("dot_halves_m_64x64", 64, 64, 32),
                            ("dot_halves_n_128x256", 128, 256, 64), ("dot_halves_n_32x64", 32, 64, 32),
                            ("dot_halves_n_16x64", 16, 64, 32), ("dot_halves_n_64x256", 64, 256, 64)):
        a = torch.randn(m, kdim, device="cuda", dtype=torch.float16)
        b = torch.randn(kdim, n, device="cuda", dtype=torch.float16)
        c = torch.full((m, n), float("nan"), device="cuda", dtype=torch.float16)
        k[sym]([1], a, b, c)
        check(f"an accumulator's halves stored apart ({sym})", c, a.double() @ b.double(), 1e-2, 1e-2)
    m, n, kdim = 100, 75, 300
    a, b = torch.randn(m, kdim, device="cuda"), torch.randn(kdim, n, device="cuda")
    c = torch.full((m, n), float("nan"), device="cuda")
    k["dot_ieee_64"]([triton_cdiv(m, 64), triton_cdiv(n, 64)], a, b, c, m, n, kdim)
    # Exact fp32 products: far tighter than tf32 (about 1e-3 relative) would pass.
    check("tl.dot fp32 input_precision=ieee 100x75x300", c, a.double() @ b.double(), 1e-4, 1e-5)
    n = 201
    x = torch.randint(-1000, 1000, (n,), device="cuda", dtype=torch.int32)
    for sym, reverse in (("tle_cumsum_256", False), ("tle_cumsum_rev_256", True)):
        out = torch.full((n,), -7, device="cuda", dtype=torch.int32)
        total = torch.full((1,), -7, device="cuda", dtype=torch.int32)
        k[sym]([1], x, out, total, n)
        inclusive = (x.flip(0) if reverse else x).long().cumsum(0)
        exclusive = inclusive - (x.flip(0) if reverse else x).long()
        if reverse:
            exclusive = exclusive.flip(0)
        check(f"tle.cumsum exclusive reverse={reverse}", out, exclusive, 0, 0)
        check(f"tle.cumsum total reverse={reverse}", total, x.long().sum().view(1), 0, 0)


# device_print writes through the CUDA printf buffer, and a failed device_assert poisons the
# context: both run in a child process.
_DEBUG_CHILD = """
import sys, torch, tlec_kernels
k = tlec_kernels.load(sys.argv[1])
x = torch.tensor([int(v) for v in sys.argv[2].split(",")], device="cuda", dtype=torch.int32)
try:
    k["debug_ops_8"]([1], x, x.numel())
    torch.cuda.synchronize()
except Exception as e:
    print("ERROR", type(e).__name__, e, flush=True)
    sys.exit(3)
"""


def test_debug_ops(build):
    import os
    import subprocess
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.abspath(__file__)))
    run = subprocess.run([sys.executable, "-c", _DEBUG_CHILD, build, "5,0,7,1,2"], capture_output=True, text=True,
                         env=env, timeout=120)
    lines = sorted(l for l in run.stdout.splitlines() if l.startswith("pid"))
    # All 8 elements of the block print; the masked-off ones hold other=0.
    want = sorted(f"pid (0, 0, 0) idx ({i}) x: {v}" for i, v in enumerate([5, 0, 7, 1, 2, 0, 0, 0]))
    ok = run.returncode == 0 and lines == want
    print(f"{'PASS' if ok else 'FAIL'}  {'tl.device_print lines':48s} {len(lines)} of {len(want)}")
    if not ok:
        print(run.stdout[-2000:], run.stderr[-2000:])
    global failures
    failures += not ok
    run = subprocess.run([sys.executable, "-c", _DEBUG_CHILD, build, "5,-1,7"], capture_output=True, text=True,
                         env=env, timeout=120)
    ok = run.returncode != 0 and "negative input" in run.stdout + run.stderr
    print(f"{'PASS' if ok else 'FAIL'}  {'tl.device_assert stops the kernel':48s} exit {run.returncode}")
    if not ok:
        print(run.stdout[-2000:], run.stderr[-2000:])
    failures += not ok


def test_gpu_buffers(k):
    xs, ys = 100, 3
    a = torch.randn(96 * xs + 64 * ys, device="cuda")
    out = torch.full((3 * 32, 64), float("nan"), device="cuda")
    k["gpu_alloc_copy_load"]([3], a, out, xs, ys)
    rows = torch.arange(3 * 32, device="cuda")[:, None] * xs + torch.arange(64, device="cuda")[None, :] * ys
    check("tle.gpu.alloc + copy + local_load", out, a[rows], 0, 0)
    # Unit-stride rows: the specialized kernel copies 16 bytes per cp.async.
    for xs in (64, 80):
        a = torch.randn(96 * xs + 64, device="cuda")
        out = torch.full((3 * 32, 64), float("nan"), device="cuda")
        k["gpu_alloc_copy_load"]([3], a, out, xs, 1)
        rows = torch.arange(3 * 32, device="cuda")[:, None] * xs + torch.arange(64, device="cuda")[None, :]
        check(f"tle.gpu.copy by cp.async (unit-stride rows of stride {xs})", out, a[rows], 0, 0)
    x = torch.randn(128, device="cuda")
    out = torch.full((32,), float("nan"), device="cuda")
    k["gpu_local_ptr_1d"]([1], x, out, 77)
    check("tle.gpu.local_ptr slice [77:109]", out, x[77:109], 0, 0)
    out = torch.full((128,), -7, device="cuda", dtype=torch.int32)
    k["gpu_local_ptr_atomic"]([1], out)
    check("tl.atomic_add through tle.gpu.local_ptr", out, torch.ones(128, device="cuda", dtype=torch.int32), 0, 0)
    x = torch.randn(256, device="cuda")
    out = torch.full((256,), float("nan"), device="cuda")
    k["gpu_buffers_reuse"]([1], x, out)
    check("tle.gpu buffers sharing bytes (2x kept while x lands in a third)", out, 2 * x + 10 * x, 1e-6, 1e-6)
    n = 1001
    data = torch.randint(0, 1 << 20, (n,), device="cuda", dtype=torch.int32)
    out = torch.full((64,), -7, device="cuda", dtype=torch.int32)
    k["gpu_smem_histogram"]([1], data, out, n)
    check("shared-memory histogram (barriers before and after the atomics loop)", out, torch.bincount(data % 64, minlength=64).int(), 0, 0)
    x = torch.randint(-2**30, 2**30, (256,), device="cuda", dtype=torch.int32)
    out = torch.full_like(x, 7)
    res = torch.full((8,), 7, device="cuda", dtype=torch.int32)
    k["smem_copy_out_atomics"]([1], x, out, res)
    check("tle.gpu.copy global -> buffer -> global", out, x, 0, 0)
    xl = x.long()
    ors, ands, xors = 0, -1, 0
    for v in xl.tolist():
        ors |= v & 0xFF
        ands &= v | 0x7FFFFF00
        xors ^= v
    want = torch.tensor([max(0, xl.max().item()), min(1 << 30, xl.min().item()), ors, ands, xors, xl[7].item(), 42, 0],
                        dtype=torch.int32)
    check("shared-memory atomics: max, min, or, and, xor, xchg, cas", res.cpu(), want, 0, 0)
    f = torch.randn(256, device="cuda")
    res = torch.full((9,), 7, device="cuda", dtype=torch.int32)
    fres = torch.full((2,), float("nan"), device="cuda")
    slots = torch.full((256,), -7, device="cuda", dtype=torch.int32)
    gres = torch.tensor([5, -2**31], device="cuda", dtype=torch.int32)
    k["relaxed_atomics"]([1], x, f, res, fres, slots, gres)
    unsigned_max = (xl & 0xFFFFFFFF).max().item()
    want = torch.tensor([max(0, xl.max().item()), min(1 << 30, xl.min().item()), ors, ands, xors, xl[7].item(), 256, 0,
                         unsigned_max - (1 << 32) if unsigned_max >= 1 << 31 else unsigned_max], dtype=torch.int32)
    check("relaxed shared-memory atomics: max, min, or, and, xor, xchg, add, unsigned max", res.cpu(), want, 0, 0)
    check("relaxed atomic adds' old values: each slot once", slots.sort().values,
          torch.arange(256, device="cuda", dtype=torch.int32), 0, 0)
    check("relaxed float atomics on shared memory: add, xchg", fres.double(),
          torch.stack([f.double().sum(), f[3].double()]), 1e-4, 1e-5)
    check("relaxed device-scope atomics on global memory: add, max", gres.cpu(),
          torch.tensor([5 + int((xl & 0xFFFF).sum().item()), xl.max().item()], dtype=torch.int32), 0, 0)
    x = torch.randint(-1000, 1000, (512,), device="cuda", dtype=torch.int32)
    out = torch.full_like(x, 7)
    k["smem_volatile"]([1], x, out)
    check("volatile loads through shared-memory pointers", out, x + x[0], 0, 0)
    x = torch.randn(3, 32, 32, device="cuda")
    out = torch.full((32, 32), float("nan"), device="cuda")
    k["gpu_smem_transpose"]([1], x, out)
    check("transposes through a buffer, round after round (barriers inside the loop)", out, x.double().transpose(1, 2).sum(0).float(), 1e-5, 1e-5)
    out = torch.full((128,), -7, device="cuda", dtype=torch.int32)
    k["gpu_scatter_pairs"]([1], out, 5)
    # The first 128 of the 640 claims fill the buffer. Warps run their rounds at their own pace
    # (under compute-sanitizer they drift apart), so a lane may hold several slots and another
    # none: every slot holds a lane, and no lane more than its 5 rounds.
    counts = torch.bincount(out.clamp(0, 127).long(), minlength=128)
    ok = bool(((out >= 0) & (out < 128)).all()) and int(counts.max()) <= 5
    check("a compaction loop's scatter stores (slots from an atomic counter, no barrier per store)",
          torch.tensor([int(ok)]), torch.tensor([1]), 0, 0)
    out = torch.full((128,), -7, device="cuda", dtype=torch.int32)
    k["gpu_rotate_rounds"]([1], out, 37)
    check("one pointer tile at moving addresses, round after round (a barrier per round)", out,
          torch.arange(128, device="cuda", dtype=torch.int32) + 37, 0, 0)


def test_core_functions(k):
    # tl.sort both ways, unsigned sort through tl.dtype("uint32"), tl.topk.
    r, n, kk = 8, 128, 16
    x = torch.randn(r, n, device="cuda")
    x[0, :8] = x[0, 8:16]  # ties
    u = torch.randint(-2**31, 2**31 - 1, (r, n), device="cuda", dtype=torch.int32)
    asc, desc, top = (torch.full_like(x, float("nan")) for _ in range(3))
    top = torch.full((r, kk), float("nan"), device="cuda")
    usort = torch.full_like(u, 7)
    k["sort_rows"]([1], x, u, asc, desc, usort, top)
    check("tl.sort ascending (rows of 128)", asc, x.sort(dim=1).values, 0, 0)
    check("tl.sort descending", desc, x.sort(dim=1, descending=True).values, 0, 0)
    unsigned = (u.long() & 0xFFFFFFFF).sort(dim=1).values
    check("tl.sort of uint32 (unsigned order)", usort.long() & 0xFFFFFFFF, unsigned, 0, 0)
    check("tl.topk (16 of 128, largest first)", top, x.topk(kk, dim=1).values, 0, 0)
    # tl.histogram with a mask, tl.reduce_or.
    vals = torch.randint(-5, 80, (1024,), device="cuda", dtype=torch.int32)
    hist = torch.full((64,), -1, device="cuda", dtype=torch.int32)
    ors = torch.full((16,), -1, device="cuda", dtype=torch.int32)
    used = 1000
    k["histogram_or"]([1], vals, hist, ors, used)
    v = vals[:used].long()
    v = v[(v >= 0) & (v < 64)]
    check("tl.histogram (masked, values outside the bins ignored)", hist, torch.bincount(v, minlength=64).int(), 0, 0)
    want = torch.zeros(16, dtype=torch.int64, device="cuda")
    for c in range(64):
        want |= vals.view(16, 64)[:, c].long() & 0xFFFFFFFF
    check("tl.reduce_or along rows", ors.long() & 0xFFFFFFFF, want, 0, 0)
    # Boolean tiles reduced whole by or / and (the barrier's vote): 64 elements on 128 threads
    # (copies in registers) and 2048 on 256 (8 a thread); rows all zero, one set at the end or
    # the start, all set, all but one, random.
    for n in (64, 2048):
        rows = torch.zeros(6, n, device="cuda", dtype=torch.int32)
        rows[1, -1] = 1
        rows[2] = 1
        rows[3] = 5
        rows[3, 0] = 0
        rows[4, n // 2 + 1] = -3
        rows[5] = torch.randint(0, 2, (n,), device="cuda", dtype=torch.int32)
        out = torch.full((18,), -1, device="cuda", dtype=torch.int32)
        k[f"block_votes_{n}"]([1], rows, out)
        nz = rows != 0
        want = torch.stack([nz.any(1).int(), nz.all(1).int(), torch.where(nz.all(1), 7, 9).int()], 1).flatten()
        check(f"tl.reduce_or / tl.reduce(and) of whole boolean tiles ({n})", out, want, 0, 0)
    # extract_tile / insert_tile at runtime indices.
    x = torch.randn(32, 64, device="cuda")
    for i, j in ((0, 0), (3, 1), (2, 3)):
        out = torch.full((8, 16), float("nan"), device="cuda")
        ins = torch.full_like(x, float("nan"))
        k["tiles_at"]([1], x, out, ins, i, j)
        check(f"extract_tile at runtime index ({i}, {j})", out, x[8 * i:8 * i + 8, 16 * j:16 * j + 16], 0, 0)
        want = x.clone()
        want[8 * i:8 * i + 8, 16 * j:16 * j + 16] = -1.0
        check(f"insert_tile at runtime index {i * 4 + j}", ins, want, 0, 0)


def test_async_loads(k):
    # tle.load(is_async=True) through cp.async: rows of 500 (a masked tail filled with 1.0),
    # 4-byte copies (n_cols unhinted) and 16-byte copies (n_cols hinted :16; 512 columns).
    for sym, cols in (("async_rows", 500), ("async_rows_16", 512)):
        rows = 37
        x = torch.randn(rows, cols, device="cuda")
        out = torch.full((512,), float("nan"), device="cuda")
        k[sym]([1], x, out, rows, cols)
        want = torch.zeros(512, dtype=torch.float64, device="cuda")
        padded = torch.ones(rows, 512, dtype=torch.float64, device="cuda")
        padded[:, :cols] = x.double()
        for r in range(rows):
            want = want * 0.5 + padded[r]
        check(f"{sym}: cp.async rows, waited at first use", out, want, 1e-5, 1e-5)
    x, y = torch.randn(1024, device="cuda"), torch.randn(1024, device="cuda")
    out = torch.full_like(x, float("nan"))
    k["async_pair"]([1], x, y, out)
    check("two asynchronous loads in flight (wait_group 1, then 0)", out, x.double() * 2 + y.double(), 1e-6, 1e-6)


def test_seed_kernels(k):
    # The seed's Sparse MLA forward (TLE variant) against float64 attention over the selected
    # keys, on its first 100 query rows (up to 4 key chunks; the whole shape runs in
    # bench/bench_seeds.py).
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench"))
    import bench_seeds as bs
    q, kv, ind = bs.inputs()
    rows = list(range(0, 100, 3)) + [99]
    ref_out, ref_lse = bs.reference(q, kv, ind, rows)
    for warps in (4, 8):
        out = torch.full((1, bs.SQ, bs.H, bs.DV), float("nan"), device="cuda", dtype=torch.bfloat16)
        lse = torch.full((1, bs.SQ, bs.H), float("nan"), device="cuda", dtype=torch.bfloat16)
        k[f"sparse_mla_w{warps}"]((1, 100, bs.H // bs.BH), q, kv, ind, out, lse, q.stride(0), q.stride(2), q.stride(1),
                                   kv.stride(0), kv.stride(2), kv.stride(1), ind.stride(0), ind.stride(2), ind.stride(1),
                                   out.stride(0), out.stride(2), out.stride(1), lse.stride(0), lse.stride(1))
        check(f"Sparse MLA fwd, {warps} warps: output (bf16)", out[0, rows], ref_out, 3e-2, 3e-2)
        check(f"Sparse MLA fwd, {warps} warps: lse (bf16, base 2)", lse[0, rows], ref_lse, 6e-2, 1e-2)


def test_pipes(k):
    # tle.pipe between warp_specialize partitions (tests/gpu/kernels/pipes.tle). Each program
    # streams n_tiles 32x32 tiles of x through the pipe; the consumer sums tile i times i + 1.
    B = 32
    def weighted(x, programs, n_tiles):
        tiles = x.double().reshape(programs, n_tiles, B, B)
        weights = torch.arange(1, n_tiles + 1, device="cuda", dtype=torch.float64)[None, :, None, None]
        return (tiles * weights).sum(1).float()
    for name in ("pipe_sum2", "pipe_sum3_w4", "pipe_sum4_w2"):
        for programs, n_tiles, tail in ((3, 7, 0), (2, 1, 0), (5, 13, 100), (4, 0, 0)):
            total = programs * n_tiles * B * B
            n_elems = total - tail
            x = torch.randn(max(total, 1), device="cuda")
            out = torch.full((programs, B, B), float("nan"), device="cuda")
            k[name]([programs], x, out, n_tiles, n_elems)
            xm = x[:total].clone()
            if tail:
                xm[n_elems:] = 0
            want = weighted(xm, programs, n_tiles) if n_tiles else torch.zeros_like(out)
            check(f"{name}: {programs} programs x {n_tiles} tiles through the pipe (tail {tail})", out, want, 1e-4, 1e-5)
    # The producer fills the slots with tle.gpu.copy (cp.async).
    for programs, n_tiles in ((3, 7), (2, 1)):
        x = torch.randn(programs * n_tiles * B * B, device="cuda")
        out = torch.full((programs, B, B), float("nan"), device="cuda")
        k["pipe_copy_sum"]([programs], x, out, n_tiles)
        check(f"pipe_copy_sum: slots filled by tle.gpu.copy ({programs}x{n_tiles})", out, weighted(x, programs, n_tiles), 1e-4, 1e-5)
    # Two readers of one pipe: the default partition sums, a 2-warp worker takes column maxima.
    for programs, n_tiles in ((3, 9), (1, 2)):
        total = programs * n_tiles * B * B
        x = torch.randn(total, device="cuda")
        sums = torch.full((programs, B, B), float("nan"), device="cuda")
        maxes = torch.full((programs, B), float("nan"), device="cuda")
        for name in ("pipe_two_readers", "pipe_two_readers_regs"):
            sums.fill_(float("nan"))
            maxes.fill_(float("nan"))
            k[name]([programs], x, sums, maxes, n_tiles, total)
            check(f"{name}: sums ({programs}x{n_tiles})", sums, weighted(x, programs, n_tiles), 1e-4, 1e-5)
            want = x.reshape(programs, n_tiles, B, B).amax(dim=(1, 2))
            check(f"{name}: maxima reduced across a worker's warps ({programs}x{n_tiles})", maxes, want, 0, 0)
    # A reader that stops when the writer closes the pipe.
    for programs, n_tiles in ((2, 5), (3, 0)):
        total = programs * n_tiles * B * B
        x = torch.randn(max(total, 1), device="cuda")
        out = torch.full((programs, B, B), float("nan"), device="cuda")
        count = torch.full((programs,), -1, dtype=torch.int32, device="cuda")
        k["pipe_until_closed"]([programs], x, out, count, n_tiles, total)
        want = x[:total].reshape(programs, n_tiles, B, B).sum(1) if n_tiles else torch.zeros_like(out)
        check(f"pipe closed by its writer: tiles seen ({programs}x{n_tiles})", count, torch.full_like(count, n_tiles), 0, 0)
        check(f"pipe closed by its writer: sums ({programs}x{n_tiles})", out, want, 1e-4, 1e-5)
    # A pipe between the same threads (no warp_specialize); the tiles are stored transposed.
    programs, n_tiles = 3, 5
    x = torch.randn(programs * n_tiles * B * B, device="cuda")
    out = torch.full((programs, B, B), float("nan"), device="cuda")
    k["pipe_without_partitions"]([programs], x, out, n_tiles)
    check("pipe without partitions (writer and reader the same threads)", out,
          x.reshape(programs, n_tiles, B, B).sum(1).transpose(1, 2), 1e-4, 1e-5)
    # The join: after warp_specialize the default partition reads what a worker wrote.
    x = torch.randn(6, 256, device="cuda")
    y = torch.randn(6, 256, device="cuda")
    out = torch.full_like(x, float("nan"))
    k["ws_join"]([6], x, y, out)
    check("warp_specialize join: a worker's buffer, the default partition's results", out,
          3 * x + 2 * y + y.sum(1, keepdim=True), 1e-4, 1e-5)


def test_pipe_dots(k):
    # Warp-specialized dots that read pipe slots in place, the slots filled by cp.async
    # (tests/gpu/kernels/pipe_dots.tle): S = Qt T^T + Q K^T over gathered rows of T and K (two
    # chained dots), P = exp(scale * S) on the valid columns (rounded to fp16), O = P @ K in
    # both consumers; Q's columns past q_cols read as zero.
    BM = 64
    for name, D in (("pipe_dots_d64", 64), ("pipe_dots_d128_s3", 128)):
        for programs, n_keys, n_idx, q_cols in ((3, 500, 200, D), (2, 300, 64, D - 3), (1, 100, 1, D), (2, 100, 0, D),
                                                (5, 2000, 1000, D - 9)):
            q_full = torch.randn(programs, BM, D, device="cuda").half()
            q = q_full.clone()
            q[:, :, q_cols:] = 0  # what the kernel reads of q_full
            q_tail = torch.randn(programs, BM, 64, device="cuda").half()
            keys_tail = torch.randn(n_keys, 64, device="cuda").half()
            keys = torch.randn(n_keys, D, device="cuda").half()
            idx = torch.randint(0, n_keys, (max(n_idx, 1), ), device="cuda", dtype=torch.int32)
            if n_idx > 3:
                idx[::7] = -1  # invalid entries inside the list as well as past its end
            scale = 1.0 / D
            out_l = torch.full((programs, BM, D), float("nan"), device="cuda")
            out_r = torch.full_like(out_l, float("nan"))
            k[name]([programs], q_full, q_tail, keys, keys_tail, idx, out_l, out_r, n_idx, q_cols, scale)
            ids = idx[:n_idx]
            chosen = keys[ids.clamp(min=0).long()].double()
            s = q.double() @ chosen.T + q_tail.double() @ keys_tail[ids.clamp(min=0).long()].double().T
            p = torch.where((ids >= 0)[None, None, :], torch.exp(s * scale), torch.zeros_like(s)).half().double()
            want = (p @ chosen).float()
            check(f"{name}: P @ K, B in place ({programs}x{n_idx} keys, {q_cols} columns of Q)", out_l, want, 3e-2, 1e-2)
            check(f"{name}: P @ K, A and B in place ({programs}x{n_idx} keys, {q_cols} columns of Q)", out_r, want, 3e-2, 1e-2)


def test_branch_dots(k):
    # Dots under a branch of a loop without pipelining (tests/gpu/kernels/branch_dots.tle):
    # chunks of keys run, are skipped, and run again after skips. In branch_dots_d128 the
    # second dot stays in flight across iterations (its V slot rotates with every iteration,
    # and a skipping one waits for the group); in branch_dots_d64 it is synchronous. Ragged
    # key counts, unhinted signatures (the launcher's aligned variant).
    BM = 64
    for name, BN, D in (("branch_dots_d128", 32, 128), ("branch_dots_d64", 64, 64)):
        for programs, n_keys, pattern in ((2, 500, "random"), (1, 64, "all"), (3, 1000, "alternate"), (1, 300, "none"),
                                          (2, 777, "runs")):
            chunks = (n_keys + BN - 1) // BN
            if pattern == "random":
                keep = (torch.rand(chunks, device="cuda") < 0.6).int()
            elif pattern == "alternate":
                keep = (torch.arange(chunks, device="cuda") % 2).int()
            elif pattern == "runs":  # two runs, a skip, two runs, three skips, ...
                keep = torch.tensor([1, 1, 0, 1, 1, 0, 0, 0] * chunks, device="cuda")[:chunks].int()
            else:
                keep = torch.full((chunks, ), int(pattern == "all"), device="cuda", dtype=torch.int32)
            q = torch.randn(programs * BM, D, device="cuda").half()
            keys = torch.randn(n_keys, D, device="cuda").half()
            values = torch.randn(n_keys, D, device="cuda").half()
            scale = 0.5 / math.sqrt(D)
            out = torch.full((programs * BM, D), float("nan"), device="cuda")
            k[name]([programs], q, keys, values, keep, out, n_keys, scale)
            want = torch.zeros(programs * BM, D, dtype=torch.float64, device="cuda")
            for c in range(chunks):
                if keep[c]:
                    rows = slice(c * BN, min(n_keys, (c + 1) * BN))
                    p = torch.exp((q.double() @ keys[rows].double().T) * scale).half().double()
                    want += p @ values[rows].double()
            check(f"{name}: chunks {pattern} ({programs}x{n_keys} keys)", out, want.float(), 5e-2, 1e-2)


def test_clusters(k):
    # Coordinates: a 2 x 2 cluster (cy fastest), and a block level over clusters of 4.
    out = torch.full((8 * 3,), -1, dtype=torch.int32, device="cuda")
    k["cluster_coordinates"]([8], out)
    pid = torch.arange(8, device="cuda")
    want = torch.stack([(pid % 4) // 2, pid % 2, pid % 4], 1).flatten().int()
    check("cluster 2x2: shard_id of cx, cy and the level", out, want, 0, 0)
    out = torch.full((12 * 2,), -1, dtype=torch.int32, device="cuda")
    k["cluster_grid_coordinates"]([12], out)
    pid = torch.arange(12, device="cuda")
    check("clusters of 4 under a block level: (b, cx)", out, torch.stack([(pid // 4) % 3, pid % 4], 1).flatten().int(), 0, 0)
    # Distributed shared memory: each block reads the next block's buffer.
    for n, block in ((2, 128), (4, 128), (8, 256), (16, 128)):  # 16: a non-portable cluster size
        grid = 3 * n
        x = torch.randn(grid, block, device="cuda")
        out = torch.full_like(x, float("nan"))
        k[f"cluster_ring{n}"]([grid], x, out)
        pid = torch.arange(grid, device="cuda")
        peer = pid - pid % n + (pid % n + 1) % n
        check(f"cluster of {n}: DSMEM load from the next block", out, x[peer], 0, 0)
    x = torch.randn(12, 128, device="cuda")
    out = torch.full_like(x, float("nan"))
    k["cluster_self_remote"]([12], x, out)
    check("cluster of 4: a block's own buffer through tle.remote, then overwritten", out, 2 * x.flip(1), 0, 0)
    # Remote stores (2-D pointer tiles) and remote atomics into block 0 of each cluster.
    for n, block in ((2, 128), (8, 64)):
        clusters = 5
        x = torch.randn(clusters * n, block, device="cuda")
        rows = torch.full((clusters, n, block), float("nan"), device="cuda")
        hist = torch.full((clusters, block), -1, dtype=torch.int32, device="cuda")
        k[f"cluster_gather{n}"]([clusters * n], x, rows, hist)
        check(f"cluster of {n}: DSMEM stores gather rows in block 0", rows, x.view(clusters, n, block), 0, 0)
        bins = ((x.abs() * 7.0).int() % block).view(clusters, n * block).long()
        want = torch.zeros(clusters, block, dtype=torch.int32, device="cuda").scatter_add_(1, bins, torch.ones_like(bins, dtype=torch.int32))
        check(f"cluster of {n}: DSMEM atomics (histogram in block 0)", hist, want, 0, 0)
    # Sub-mesh barriers: the rows of 2 x 2 clusters exchange buffers round after round.
    rounds, block, grid = 7, 64, 4 * 6
    out = torch.full((grid, rounds, block), -1, dtype=torch.int32, device="cuda")
    k["cluster_row_exchange"]([grid], out, rounds)
    pid = torch.arange(grid, device="cuda")
    partner = pid ^ 1
    want = partner.view(-1, 1, 1) * 1000 + torch.arange(rounds, device="cuda").view(1, -1, 1) * 10 + \
        (torch.arange(block, device="cuda") % 10).view(1, 1, -1)
    check("cluster 2x2: sub-mesh (row) barriers, 7 rounds", out, want.int(), 0, 0)
    # The launcher refuses a grid that is not a multiple of the cluster, and reports clusters.
    try:
        k["cluster_ring4"]([6], x, out)
        torch.cuda.synchronize()
        status = 0
    except tlec_kernels.TleStatusError as e:
        status = e.args[1]
    check("cluster of 4: grid 6 is refused (TLE_ERROR_CLUSTER_GRID)", torch.tensor([status]), torch.tensor([-6]), 0, 0)
    # A grid barrier (cooperative launch): every block sees every block's partial sum.
    for blocks in (16, 37):
        x = torch.randn(blocks, 256, device="cuda")
        partial = torch.full((max(blocks, 16),), 0.0, device="cuda")
        out = torch.full((blocks,), float("nan"), device="cuda")
        k["grid_two_phase"]([blocks], x, partial, out)
        want = x[:16].double().sum() if blocks >= 16 else None
        check(f"grid barrier over {blocks} blocks: each reads all 16 partial sums", out,
              torch.full((blocks,), want.item(), dtype=torch.float64), 1e-3, 1e-5)
    # The same over clusters of 4 (a cooperative launch of clusters): partial sums of the next
    # block's row, read through DSMEM, then every partial after the grid barrier.
    for blocks in (16, 32):
        x = torch.randn(blocks, 256, device="cuda")
        partial = torch.full((blocks,), float("nan"), device="cuda")
        out = torch.full((blocks,), float("nan"), device="cuda")
        k["grid_two_phase_clusters"]([blocks], x, partial, out)
        pid = torch.arange(blocks, device="cuda")
        check(f"grid barrier over {blocks} blocks in clusters of 4: DSMEM partials", partial,
              x.double().sum(1)[pid - pid % 4 + (pid % 4 + 1) % 4], 1e-3, 1e-5)
        check(f"grid barrier over {blocks} blocks in clusters of 4: each reads all 16 partial sums", out,
              torch.full((blocks,), x[:16].double().sum().item(), dtype=torch.float64), 1e-3, 1e-5)
    r = k["cluster_ring8"].resources()
    print(f"      cluster_ring8 resources: {r}")
    check("resources: cluster size 8, some clusters fit", torch.tensor([r["cluster_size"], int(r["max_active_clusters"] > 0)]),
          torch.tensor([8, 1]), 0, 0)
    r = k["cluster_ring16"].resources()
    print(f"      cluster_ring16 resources: {r}")
    check("resources: cluster size 16 (non-portable), some clusters fit",
          torch.tensor([r["cluster_size"], int(r["max_active_clusters"] > 0)]), torch.tensor([16, 1]), 0, 0)


def test_raw_call(k):
    n = 100
    x = torch.randn(128, device="cuda")
    out = torch.full((128,), float("nan"), device="cuda")
    k["raw_scale_128"]([1], x, out, n)
    check("TLE-Raw CUDA function (2x + 1, n=100)", out[:n], 2 * x[:n] + 1, 0, 0)
    check("TLE-Raw: masked tail untouched", out[n:].isnan().float(), torch.ones(128 - n, device="cuda"), 0, 0)


def test_elementwise(k):
    n, block = 200, 256
    x, y = torch.randn(n, device="cuda"), torch.randn(n, device="cuda")
    i = torch.randint(0, 1 << 20, (n,), device="cuda", dtype=torch.int32)
    out, outi, f8 = torch.full_like(x, float("nan")), torch.full_like(i, -7), torch.full_like(x, float("nan"))
    k["elementwise_256"]([1], x, y, i, out, outi, f8, n)
    xd, yd = x.double(), y.double()
    r = (xd.exp() + torch.exp2(yd) + (xd.abs() + 1).log() + (yd.abs() + 1).log2() + xd.abs().sqrt() +
         (yd.abs() + 1).rsqrt() + xd.sin() + yd.cos() + xd.floor() + yd.ceil() + (xd * yd + xd) + torch.erf(xd) +
         torch.maximum(xd, yd) + torch.minimum(xd, yd) + torch.where(xd > yd, xd, yd))
    check("math: exp, exp2, log, log2, sqrt, rsqrt, sin, cos, ...", out, r, 1e-4, 1e-4)
    il = i.long()
    j = (il * 2654435761) >> 32
    j = j + il // 3 + il % 3 + (il >> 1) + (il << 2) + (il ^ 5) + (il & 7) + (il | 8)
    padded = torch.cat([il, torch.ones(block - n, device="cuda", dtype=torch.long)])
    xor = 0
    for v in padded.tolist():
        xor ^= v
    argmin = torch.cat([x, torch.ones(block - n, device="cuda")]).argmin().item()
    check("integers: umulhi, //, %, shifts, bit ops, xor_sum, argmin", outi, (j + xor + argmin).int(), 0, 0)
    want = (x.to(torch.float8_e4m3fn).float() + x.to(torch.float8_e5m2).float() + x.to(torch.bfloat16).float())
    check("casts: fp8 e4m3, fp8 e5m2, bf16 (round to nearest even)", f8, want, 0, 0)
    a, b = torch.randint(0, 2, (n,), device="cuda", dtype=torch.int32), torch.randint(0, 2, (n,), device="cuda", dtype=torch.int32)
    outs = [torch.full_like(a, -7) for _ in range(3)]
    k["bool_arith_256"]([1], a, b, *outs, n)
    # i1 values are 0 and 1 here, as Triton's int1 -> int32 conversion gives them.
    for label, got, want in (("+", outs[0], a ^ b), ("-", outs[1], a ^ b), ("*", outs[2], a & b)):
        check(f"i1 arithmetic modulo 2: a {label} b", got, want, 0, 0)
    # eviction_policy (L1 eviction priorities): the same values as plain loads and stores;
    # an odd length (per-element masks) unhinted, and a multiple of 16 both ways.
    for sym, n in (("evict_256", 1000), ("evict_256", 1024), ("evict_256_h", 1024)):
        grid = (n + 255) // 256
        x = torch.randn(n, device="cuda", dtype=torch.float16)
        y = torch.randn(n, device="cuda")
        b = torch.randint(-100, 100, (grid,), device="cuda", dtype=torch.int8)
        out = torch.full((n + 7,), float("nan"), device="cuda")
        k[sym]([grid], x, y, b, out, n)
        want = x.double() + y.double() + b.double().repeat_interleave(256)[:n]
        check(f"eviction_policy loads and store {sym} n={n}", out[:n], want, 1e-6, 1e-6)
        check(f"eviction_policy store leaves the tail {sym} n={n}", out[n:].isnan(), torch.ones(7, dtype=torch.bool), 0, 0)


def test_module_loader(build):
    """tle/module.h: tlec's --emit=cubin and --emit=ptx output loaded and launched through the
    driver API."""
    import ctypes
    import os
    global failures
    try:
        shim = ctypes.CDLL(os.path.join(build, "libtle_module_shim.so"))
    except OSError as e:
        failures += 1
        print(f"FAIL  tle/module.h shim could not be loaded: {e}")
        return
    shim.tle_shim_vector_add.restype = ctypes.c_int
    shim.tle_shim_vector_add.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_void_p, ctypes.c_void_p,
                                         ctypes.c_void_p, ctypes.c_int, ctypes.c_uint]
    # The second size and the aligned views run the variants tlec compiled beside the kernel
    # (tle/module.h reads their table); the others the generic kernel.
    for image in ("add.cubin", "add.ptx", "add_auto.cubin"):
        for n, offset in ((100003, 0), (100000, 0), (100000, 1)):
            x, y = torch.randn(n + 1, device="cuda")[offset:], torch.randn(n + 1, device="cuda")[offset:]
            if offset and image != "add_auto.cubin":
                continue  # the hinted pointers must be aligned
            torch.cuda.synchronize()
            out = poisoned_like(x)
            status = shim.tle_shim_vector_add(os.path.join(build, image).encode(), b"add_kernel", x.data_ptr(),
                                              y.data_ptr(), out.data_ptr(), n, triton_cdiv(n, 1024))
            torch.cuda.synchronize()
            if status != 0:
                failures += 1
                print(f"FAIL  tle/module.h {image}: status {status}")
                continue
            check(f"tle/module.h loads and launches {image} n={n} offset={offset}", out[:n], x[:n] + y[:n], 0, 0)
    # Tutorial 09's descriptor matmul: aligned rows run a variant that takes TMA tensor maps,
    # which the loader encodes from the arguments; K = 33 the generic kernel; K = 0 encodes no
    # map, so the next variant runs.
    shim.tle_shim_descriptor_matmul.restype = ctypes.c_int
    shim.tle_shim_descriptor_matmul.argtypes = [ctypes.c_char_p, ctypes.c_char_p] + [ctypes.c_void_p] * 3 + [ctypes.c_int] * 3 + \
        [ctypes.c_uint]
    for m, n, kk in ((384, 320, 256), (130, 96, 72), (130, 96, 33), (256, 200, 0)):
        a = torch.randn(m, kk, device="cuda", dtype=torch.float16)
        b = torch.randn(n, kk, device="cuda", dtype=torch.float16)
        c = torch.full((m, n), float("nan"), device="cuda", dtype=torch.float16)
        torch.cuda.synchronize()
        status = shim.tle_shim_descriptor_matmul(os.path.join(build, "desc_mm.cubin").encode(), b"matmul_kernel_descriptor_persistent",
                                                 a.data_ptr(), b.data_ptr(), c.data_ptr(), m, n, kk,
                                                 min(132, triton_cdiv(m, 128) * triton_cdiv(n, 128)))
        torch.cuda.synchronize()
        if status != 0:
            failures += 1
            print(f"FAIL  tle/module.h desc_mm.cubin {m}x{n}x{kk}: status {status}")
            continue
        check(f"tle/module.h launches desc_mm.cubin (TMA tensor maps) {m}x{n}x{kk}", c, matmul_ref(a, b.T, ""), 5e-2, 1e-2)
    # A cluster of 16 blocks, beyond the portable size: the loader opts the kernel in.
    shim.tle_shim_two_pointers.restype = ctypes.c_int
    shim.tle_shim_two_pointers.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_uint]
    n, block = 16, 128
    x = torch.randn(2 * n, block, device="cuda")
    out = poisoned_like(x)
    torch.cuda.synchronize()
    status = shim.tle_shim_two_pointers(os.path.join(build, "ring16.cubin").encode(), b"cluster_ring16", x.data_ptr(),
                                        out.data_ptr(), 2 * n)
    torch.cuda.synchronize()
    if status != 0:
        failures += 1
        print(f"FAIL  tle/module.h ring16.cubin: status {status}")
    else:
        pid = torch.arange(2 * n, device="cuda")
        check("tle/module.h launches a cluster of 16 (ring16.cubin)", out, x[pid - pid % n + (pid % n + 1) % n], 0, 0)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default="build-gpu")
    parser.add_argument("--only", default="", help="comma-separated groups, e.g. gpu_buffers,raw_call (the test_ functions' names)")
    args = parser.parse_args()
    torch.manual_seed(0)
    k = tlec_kernels.load(args.build)
    print(f"device: {torch.cuda.get_device_name()}; {len(k)} tlec kernels")
    global failures
    groups = [(test_vector_add, k), (test_softmax, k), (test_layer_norm, k), (test_matmul, k), (test_attention, k),
              (test_attention_descriptors, k), (test_tma_copies, k), (test_matmul_formulations, k), (test_device_library, k), (test_scans_and_rearrangement, k),
              (test_gpu_buffers, k), (test_core_functions, k), (test_async_loads, k), (test_seed_kernels, k), (test_pipes, k), (test_pipe_dots, k), (test_branch_dots, k), (test_clusters, k), (test_raw_call, k), (test_elementwise, k), (test_module_loader, args.build), (test_specialization, k),
              (test_debug_ops, args.build)]
    if args.only:
        groups = [(test, arg) for test, arg in groups if test.__name__[len("test_"):] in args.only.split(",")]
    for test, arg in groups:
        # One broken group (a kernel that faults, a missing symbol) must not hide the others'
        # results. A device fault poisons the context, so later groups then fail too: the
        # first FAIL is the one to read. The debug group, which ends in an assert, runs its
        # kernels in child processes.
        try:
            test(arg)
            torch.cuda.synchronize()
        except Exception as e:  # noqa: BLE001 - reported and counted
            failures += 1
            print(f"FAIL  {test.__name__} raised {type(e).__name__}: {e}")
    torch.cuda.synchronize()
    print(f"{failures} failure(s)")
    sys.exit(min(failures, 100))


if __name__ == "__main__":
    main()
