"""Times Triton's tutorial kernels compiled by tlec against the same source JIT-compiled by
Triton, in one process on one GPU, with identical launch configurations; PyTorch where it
has the operation. Prints a table of times and throughput ratios (Triton time / tlec time:
above 1 means tlec is faster) and, with --compile-times, Triton's cold JIT compile time.
Run through scripts/gpu.sh."""
import argparse
import importlib.machinery
import importlib.util
import os
import sys
import tempfile
import time

import torch

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests", "gpu"))
import tlec_kernels  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def load_tutorial(name):
    """Imports a corpus .tle file (a Python module) so that Triton JIT-compiles the same source."""
    path = os.path.join(ROOT, "tests", "corpus", "triton", name)
    loader = importlib.machinery.SourceFileLoader(name.replace(".", "_"), path)
    spec = importlib.util.spec_from_loader(loader.name, loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def bench(fn):
    """Median time in ms; the better of two measurements, because a transient slowdown of the
    device (seen as one row in a run taking ~7 us longer, for either compiler) would
    otherwise decide a ratio."""
    import triton.testing
    return min(triton.testing.do_bench(fn, warmup=50, rep=200) for _ in range(2))


rows = []


def record(name, tlec_ms, triton_ms, torch_ms=None, bytes_moved=None):
    rows.append((name, tlec_ms, triton_ms, torch_ms, bytes_moved))
    gbs = f"{bytes_moved / tlec_ms / 1e6:8.0f}" if bytes_moved else "       -"
    torch_text = f"{torch_ms * 1e3:9.1f}" if torch_ms is not None else "        -"
    print(f"{name:36s} {tlec_ms * 1e3:9.1f} {triton_ms * 1e3:9.1f} {torch_text} {triton_ms / tlec_ms:7.2f}x {gbs}",
          flush=True)


def bench_vector_add(k, tri):
    for n in (1 << 24, (1 << 24) + 3):
        for dtype in (torch.float32, torch.float16):
            x = torch.randn(n, device="cuda", dtype=dtype)
            y = torch.randn(n, device="cuda", dtype=dtype)
            out = torch.empty_like(x)
            grid = ((n + 1023) // 1024,)
            # Triton specializes integer arguments divisible by 16; the tlec variant with the
            # ":16" hint is the same specialization.
            sym = {torch.float32: "add_fp32", torch.float16: "add_fp16"}[dtype] + ("_n16" if n % 16 == 0 else "")
            t_tlec = bench(lambda: k[sym](grid, x, y, out, n))
            t_tri = bench(lambda: tri.add_kernel[grid](x, y, out, n, BLOCK_SIZE=1024))
            t_torch = bench(lambda: torch.add(x, y, out=out))
            record(f"vector add {str(dtype)[6:]} n={n}", t_tlec, t_tri, t_torch, 3 * n * x.element_size())


def bench_softmax(k, tri):
    for n_rows, n_cols, sym, block in ((4096, 1024, "softmax_1024_s16", 1024), (4096, 4096, "softmax_4096_s16", 4096),
                                       (4096, 1000, "softmax_1024", 1024)):
        x = torch.randn(n_rows, n_cols, device="cuda")
        y = torch.empty_like(x)
        res = k[sym].resources()
        programs = min(res["sms"] * max(res["blocks_per_sm"], 1), n_rows)
        t_tlec = bench(lambda: k[sym]((programs,), y, x, x.stride(0), y.stride(0), n_rows, n_cols))
        # Triton: the tutorial's persistent launch, with its own occupancy.
        kernel = tri.softmax_kernel.warmup(y, x, x.stride(0), y.stride(0), n_rows, n_cols, BLOCK_SIZE=block,
                                           num_stages=4, num_warps=8, grid=(1,))
        kernel._init_handles()
        props = torch.cuda.get_device_properties(0)
        occupancy = min(props.max_threads_per_multi_processor // (8 * 32), 65536 // max(kernel.n_regs * 256, 1))
        if kernel.metadata.shared:
            occupancy = min(occupancy, props.shared_memory_per_multiprocessor // kernel.metadata.shared)
        tri_programs = min(props.multi_processor_count * max(occupancy, 1), n_rows)
        t_tri = bench(lambda: kernel[(tri_programs, 1, 1)](y, x, x.stride(0), y.stride(0), n_rows, n_cols, block, 4))
        t_torch = bench(lambda: torch.softmax(x, dim=1))
        record(f"softmax {n_rows}x{n_cols}", t_tlec, t_tri, t_torch, 2 * x.numel() * 4)


def bench_layer_norm(k, tri):
    eps = 1e-5
    for m, n, fwd, dx, block, warps in ((4096, 1024, "ln_fwd_1024_s16", "ln_bwd_dx_1024_s16", 1024, 4),
                                        (4096, 4096, "ln_fwd_4096_s16", "ln_bwd_dx_4096_s16", 4096, 8)):
        x = torch.randn(m, n, device="cuda", dtype=torch.float16)
        w = torch.rand(n, device="cuda", dtype=torch.float16)
        b = torch.rand(n, device="cuda", dtype=torch.float16)
        y = torch.empty_like(x)
        mean = torch.empty(m, device="cuda")
        rstd = torch.empty(m, device="cuda")
        t_tlec = bench(lambda: k[fwd]((m,), x, y, w, b, mean, rstd, x.stride(0), n, eps))
        t_tri = bench(lambda: tri._layer_norm_fwd_fused[(m,)](x, y, w, b, mean, rstd, x.stride(0), n, eps,
                                                              BLOCK_SIZE=block, num_warps=warps))
        t_torch = bench(lambda: torch.nn.functional.layer_norm(x, (n,), w, b, eps))
        record(f"layer norm fwd {m}x{n} fp16", t_tlec, t_tri, t_torch, 2 * x.numel() * 2)

        dy = torch.randn_like(x)
        group = 256 if n <= 1024 else 128
        locks = torch.zeros(2 * group, dtype=torch.int32, device="cuda")
        pdw = torch.zeros((group, n), dtype=x.dtype, device="cuda")
        pdb = torch.zeros((group, n), dtype=x.dtype, device="cuda")
        dxt = torch.empty_like(x)

        def run_tlec():
            locks.zero_()
            k[dx]((m,), dxt, dy, pdw, pdb, x, w, mean, rstd, locks, x.stride(0), n)

        def run_triton():
            locks.zero_()
            tri._layer_norm_bwd_dx_fused[(m,)](dxt, dy, pdw, pdb, x, w, mean, rstd, locks, x.stride(0), n,
                                               GROUP_SIZE_M=group, BLOCK_SIZE_N=block, num_warps=warps)

        record(f"layer norm bwd dx {m}x{n} fp16", bench(run_tlec), bench(run_triton), None, 3 * x.numel() * 2)
        dw = torch.empty_like(w)
        db = torch.empty_like(b)
        sym = "ln_bwd_dwdb_s16"
        grid = ((n + 127) // 128,)
        t_tlec = bench(lambda: k[sym](grid, pdw, pdb, dw, db, group, n))
        t_tri = bench(lambda: tri._layer_norm_bwd_dwdb[grid](pdw, pdb, dw, db, group, n, BLOCK_SIZE_M=32,
                                                             BLOCK_SIZE_N=128))
        record(f"layer norm bwd dwdb {group}x{n}", t_tlec, t_tri, None, 2 * pdw.numel() * 2)


def bench_matmul(k, tri):
    for m, n, kk, activation in ((4096, 4096, 4096, ""), (4096, 4096, 4096, "leaky_relu")):
        a = torch.randn(m, kk, device="cuda", dtype=torch.float16)
        b = torch.randn(kk, n, device="cuda", dtype=torch.float16)
        c = torch.empty(m, n, device="cuda", dtype=torch.float16)
        sym = "mm_fp16_leaky_128" if activation else "mm_fp16_128"
        grid = (((m + 127) // 128) * ((n + 127) // 128),)
        t_tlec = bench(lambda: k[sym](grid, a, b, c, m, n, kk, a.stride(0), b.stride(0), c.stride(0)))
        # Triton with the same configuration (bypassing the autotuner), then autotuned.
        t_same = bench(lambda: tri.matmul_kernel.fn[grid](a, b, c, m, n, kk, a.stride(0), a.stride(1), b.stride(0),
                                                          b.stride(1), c.stride(0), c.stride(1), BLOCK_SIZE_M=128,
                                                          BLOCK_SIZE_N=128, BLOCK_SIZE_K=64, GROUP_SIZE_M=8,
                                                          ACTIVATION=activation, num_warps=8, num_stages=3))
        tuned_grid = lambda meta: (((m + meta["BLOCK_SIZE_M"] - 1) // meta["BLOCK_SIZE_M"]) *
                                   ((n + meta["BLOCK_SIZE_N"] - 1) // meta["BLOCK_SIZE_N"]),)
        t_tuned = bench(lambda: tri.matmul_kernel[tuned_grid](a, b, c, m, n, kk, a.stride(0), a.stride(1), b.stride(0),
                                                            b.stride(1), c.stride(0), c.stride(1), ACTIVATION=activation))
        t_torch = bench(lambda: torch.matmul(a, b)) if not activation else None
        flops = 2 * m * n * kk
        name = f"matmul fp16 {m}x{n}x{kk} {activation or 'plain'}"
        record(name + " (same config)", t_tlec, t_same, t_torch)
        record(name + " (Triton autotuned)", t_tlec, t_tuned, t_torch)
        print(f"{'':36s} tlec {flops / t_tlec / 1e9:.0f} TFLOP/s, Triton same config {flops / t_same / 1e9:.0f}, "
              f"autotuned {flops / t_tuned / 1e9:.0f}" + (f", cuBLAS {flops / t_torch / 1e9:.0f}" if t_torch else ""))


def bench_persistent_matmul(k, tri):
    """The persistent matmul (after Triton's tutorial 09): NUM_SMS = 132 programs walking the
    output tiles, unhinted signatures (tlec picks its aligned variant at launch; Triton's JIT
    specializes the same way), the same config on both sides."""
    for sym, dtype, bm, bn, bk, warps in (("pm_fp16_128x256", torch.float16, 128, 256, 64, 8),
                                          ("pm_bf16_128x128_w4", torch.bfloat16, 128, 128, 32, 4)):
        for m, n, kk in ((4096, 4096, 4096), (8192, 1024, 4096)):
            a = torch.randn(m, kk, device="cuda", dtype=dtype)
            b = torch.randn(kk, n, device="cuda", dtype=dtype)
            c = torch.empty(m, n, device="cuda", dtype=dtype)
            grid = (min(132, ((m + bm - 1) // bm) * ((n + bn - 1) // bn)),)
            args = (a, b, c, m, n, kk, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1))
            t_tlec = bench(lambda: k[sym](grid, *args))
            t_same = bench(lambda: tri.matmul_kernel_persistent[grid](*args, BLOCK_SIZE_M=bm, BLOCK_SIZE_N=bn, BLOCK_SIZE_K=bk,
                                                                       GROUP_SIZE_M=8, NUM_SMS=132, num_warps=warps, num_stages=3))
            t_torch = bench(lambda: torch.matmul(a, b))
            flops = 2 * m * n * kk
            record(f"persistent matmul {sym} {m}x{n}x{kk}", t_tlec, t_same, t_torch)
            print(f"{'':36s} tlec {flops / t_tlec / 1e9:.0f} TFLOP/s, Triton same config {flops / t_same / 1e9:.0f}, "
                  f"cuBLAS {flops / t_torch / 1e9:.0f}")


def bench_attention(k, tri):
    z, h, n = 4, 16, 2048
    for d in (64, 128):
        for causal in (False, True):
            q = torch.randn(z, h, n, d, device="cuda", dtype=torch.float16)
            kk = torch.randn_like(q)
            v = torch.randn_like(q)
            out = torch.empty_like(q)
            m = torch.empty((z * h, n), device="cuda", dtype=torch.float32)
            sm_scale = 1.0 / d ** 0.5
            sym = f"attn_d{d}" + ("_causal" if causal else "")
            grid = (n // 64, z * h)
            args = (q, kk, v, sm_scale, m, out, *q.stride()[:3], *kk.stride()[:3], *v.stride()[:3], *out.stride()[:3],
                    z, h, n)
            t_tlec = bench(lambda: k[sym](grid, *args))
            full = (q, kk, v, sm_scale, m, out, *q.stride(), *kk.stride(), *v.stride(), *out.stride(), z, h, n)
            stage = 3 if causal else 1
            t_same = bench(lambda: tri._attn_fwd.fn[grid](*full, HEAD_DIM=d, BLOCK_M=64, BLOCK_N=64, STAGE=stage,
                                                          num_warps=4, num_stages=3))
            tuned_grid = lambda meta: ((n + meta["BLOCK_M"] - 1) // meta["BLOCK_M"], z * h, 1)
            t_tuned = bench(lambda: tri._attn_fwd[tuned_grid](*full, HEAD_DIM=d, STAGE=stage))
            t_torch = bench(lambda: torch.nn.functional.scaled_dot_product_attention(q, kk, v, is_causal=causal,
                                                                                     scale=sm_scale))
            flops = 4 * z * h * n * n * d * (0.5 if causal else 1)
            name = f"attention d={d} {'causal' if causal else 'full'} {z}x{h}x{n}"
            record(name + " (same config)", t_tlec, t_same, t_torch)
            record(name + " (Triton autotuned)", t_tlec, t_tuned, t_torch)
            print(f"{'':36s} tlec {flops / t_tlec / 1e9:.0f} TFLOP/s, Triton same config {flops / t_same / 1e9:.0f}, "
                  f"autotuned {flops / t_tuned / 1e9:.0f}, torch SDPA {flops / t_torch / 1e9:.0f}")


def bench_attention_desc(k, tri):
    """Triton 3.6's attention (tensor descriptors made in the kernel, K transposed after its
    load) at the configs of kernels.list."""
    from sweep_common import use_torch_allocator
    use_torch_allocator()
    z, h, n = 4, 16, 2048
    for sym, d, causal in (("attn36_d64_causal", 64, True), ("attn36_d128", 128, False)):
        q = torch.randn(z, h, n, d, device="cuda", dtype=torch.float16)
        kk, v = torch.randn_like(q), torch.randn_like(q)
        out = torch.empty_like(q)
        m = torch.empty((z * h, n), device="cuda", dtype=torch.float32)
        sm_scale = 1.0 / d ** 0.5
        grid = (n // 64, z * h)
        t_tlec = bench(lambda: k[sym](grid, sm_scale, m, z, h, q, kk, v, out, n))
        try:
            t_same = bench(lambda: tri._attn_fwd.fn[grid](sm_scale, m, z, h, q, kk, v, out, n, HEAD_DIM=d, BLOCK_M=64, BLOCK_N=64,
                                                          FP8_OUTPUT=False, STAGE=3 if causal else 1, warp_specialize=False,
                                                          IS_HOPPER=True, num_warps=4, num_stages=3))
        except Exception as e:  # noqa: BLE001 - the tlec time is still worth a row
            print(f"  (Triton's descriptor attention did not run here: {type(e).__name__}: {str(e)[:120]})")
            t_same = float("nan")
        record(f"attention 3.6 d={d} {'causal' if causal else 'full'} {z}x{h}x{n}", t_tlec, t_same)


def bench_specialization(k, _):
    """--specialize=auto: each tutorial compiled with no hint at all (auto), as hinted in
    kernels.list, and without variants (--specialize=none, what an unhinted signature gave
    before), against Triton's JIT on the same arguments, which qualify for the variants.
    auto / hinted is the issue's floor (within 5%)."""
    add, soft, ln = load_tutorial("01_vector_add.tle"), load_tutorial("02_fused_softmax.tle"), load_tutorial("05_layer_norm.tle")
    mm, attn = load_tutorial("03_matmul.tle"), load_tutorial("06_fused_attention_nodesc.tle")
    print(f"\n{'kernel (auto-specialization)':36s} {'hinted':>9s} {'auto':>9s} {'generic':>9s} {'triton':>9s} "
          f"{'hinted/auto':>11s} {'triton/auto':>11s}")
    cases = []
    n = 1 << 24
    x, y = torch.randn(n, device="cuda"), torch.randn(n, device="cuda")
    out = torch.empty_like(x)
    grid = ((n + 1023) // 1024,)
    cases.append(("vector add fp32 n=2^24", {s: (lambda s=s: k[s](grid, x, y, out, n)) for s in ("add_fp32_n16", "add_auto", "add_generic")},
                  lambda: add.add_kernel[grid](x, y, out, n, BLOCK_SIZE=1024)))
    xs = torch.randn(4096, 1024, device="cuda")
    ys = torch.empty_like(xs)

    def softmax(s):
        res = k[s].resources()
        programs = min(res["sms"] * max(res["blocks_per_sm"], 1), 4096)
        return lambda: k[s]((programs,), ys, xs, xs.stride(0), ys.stride(0), 4096, 1024)
    cases.append(("softmax 4096x1024", {s: softmax(s) for s in ("softmax_1024_s16", "softmax_auto", "softmax_generic")},
                  lambda: soft.softmax_kernel[(4096,)](ys, xs, xs.stride(0), ys.stride(0), 4096, 1024, BLOCK_SIZE=1024,
                                                       num_stages=4, num_warps=8)))
    xh = torch.randn(4096, 1024, device="cuda", dtype=torch.float16)
    w, b = torch.rand(1024, device="cuda", dtype=torch.float16), torch.rand(1024, device="cuda", dtype=torch.float16)
    yh, mean, rstd = torch.empty_like(xh), torch.empty(4096, device="cuda"), torch.empty(4096, device="cuda")
    cases.append(("layer norm fwd 4096x1024 fp16",
                  {s: (lambda s=s: k[s]((4096,), xh, yh, w, b, mean, rstd, xh.stride(0), 1024, 1e-5))
                   for s in ("ln_fwd_1024_s16", "ln_fwd_auto", "ln_fwd_generic")},
                  lambda: ln._layer_norm_fwd_fused[(4096,)](xh, yh, w, b, mean, rstd, xh.stride(0), 1024, 1e-5,
                                                            BLOCK_SIZE=1024, num_warps=4)))
    m = nn = kk = 4096
    a = torch.randn(m, kk, device="cuda", dtype=torch.float16)
    bm = torch.randn(kk, nn, device="cuda", dtype=torch.float16)
    c = torch.empty(m, nn, device="cuda", dtype=torch.float16)
    g = ((m // 128) * (nn // 128),)
    strides = (a.stride(0), a.stride(1), bm.stride(0), bm.stride(1), c.stride(0), c.stride(1))
    cases.append(("matmul fp16 4096^3 128x128x64 w8",
                  {"mm_fp16_128": lambda: k["mm_fp16_128"](g, a, bm, c, m, nn, kk, a.stride(0), bm.stride(0), c.stride(0)),
                   "mm_fp16_128_auto": lambda: k["mm_fp16_128_auto"](g, a, bm, c, m, nn, kk, *strides),
                   "mm_fp16_128_generic": lambda: k["mm_fp16_128_generic"](g, a, bm, c, m, nn, kk, *strides)},
                  lambda: mm.matmul_kernel.fn[g](a, bm, c, m, nn, kk, *strides, BLOCK_SIZE_M=128, BLOCK_SIZE_N=128,
                                                 BLOCK_SIZE_K=64, GROUP_SIZE_M=8, ACTIVATION="", num_warps=8,
                                                 num_stages=3)))
    z, h, n_ctx = 4, 16, 2048
    for d, causal in ((64, True), (128, False)):
        q = torch.randn(z, h, n_ctx, d, device="cuda", dtype=torch.float16)
        kt, v = torch.randn_like(q), torch.randn_like(q)
        o = torch.empty_like(q)
        lse = torch.empty((z * h, n_ctx), device="cuda", dtype=torch.float32)
        base = f"attn_d{d}" + ("_causal" if causal else "")
        ag = (n_ctx // 64, z * h)
        full = (q, kt, v, 0.125, lse, o, *q.stride(), *kt.stride(), *v.stride(), *o.stride(), z, h, n_ctx)
        hinted = (q, kt, v, 0.125, lse, o, *q.stride()[:3], *kt.stride()[:3], *v.stride()[:3], *o.stride()[:3], z, h, n_ctx)
        fns = {base: (lambda hinted=hinted, base=base: k[base](ag, *hinted)),
               base + "_auto": (lambda full=full, base=base: k[base + "_auto"](ag, *full))}
        if base + "_generic" in k:
            fns[base + "_generic"] = lambda full=full, base=base: k[base + "_generic"](ag, *full)
        cases.append((f"attention d={d} {'causal' if causal else 'full'} {z}x{h}x{n_ctx}", fns,
                      lambda full=full, d=d, causal=causal: attn._attn_fwd.fn[ag](*full, HEAD_DIM=d, BLOCK_M=64, BLOCK_N=64,
                                                                                 STAGE=3 if causal else 1, num_warps=4,
                                                                                 num_stages=3)))
    for name, fns, triton_fn in cases:
        times = {s: bench(f) for s, f in fns.items()}
        hinted_t = next(t for s, t in times.items() if not s.endswith(("_auto", "_generic")))
        auto_t = next(t for s, t in times.items() if s.endswith("_auto"))
        generic_t = next((t for s, t in times.items() if s.endswith("_generic")), None)
        tri_t = bench(triton_fn)
        generic_text = f"{generic_t * 1e3:9.1f}" if generic_t else "        -"
        print(f"{name:36s} {hinted_t * 1e3:9.1f} {auto_t * 1e3:9.1f} {generic_text} {tri_t * 1e3:9.1f} "
              f"{hinted_t / auto_t:10.3f}x {tri_t / auto_t:10.2f}x", flush=True)


def compile_times():
    """Triton's cold JIT compile time for the same kernels (empty cache, first call)."""
    os.environ["TRITON_CACHE_DIR"] = tempfile.mkdtemp()
    tri = {name: load_tutorial(name) for name in ("01_vector_add.tle", "02_fused_softmax.tle", "05_layer_norm.tle")}
    x = torch.randn(4096, 1024, device="cuda")
    h = x.half()
    cases = [
        ("add_kernel", lambda: tri["01_vector_add.tle"].add_kernel[(1,)](x, x, x, x.numel(), BLOCK_SIZE=1024)),
        ("softmax_kernel", lambda: tri["02_fused_softmax.tle"].softmax_kernel[(1,)](
            x, x, x.stride(0), x.stride(0), 4096, 1024, 1024, 4, num_warps=8)),
        ("_layer_norm_fwd_fused", lambda: tri["05_layer_norm.tle"]._layer_norm_fwd_fused[(1,)](
            h, h, h[0], h[0], x[0], x[0], h.stride(0), 1024, 1e-5, BLOCK_SIZE=1024, num_warps=4)),
    ]
    print("\nTriton cold JIT compile (empty cache; first call minus a cached call), ms")
    for name, fn in cases:
        torch.cuda.synchronize()
        start = time.perf_counter()
        fn()
        torch.cuda.synchronize()
        first = time.perf_counter() - start
        start = time.perf_counter()
        fn()
        torch.cuda.synchronize()
        again = time.perf_counter() - start
        print(f"  {name:28s} {(first - again) * 1e3:9.1f}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default="build-gpu")
    parser.add_argument("--compile-times", action="store_true")
    parser.add_argument("--only", default="", help="comma-separated groups: vector_add,softmax,layer_norm,matmul,persistent_matmul,attention,attention_desc,specialization")
    args = parser.parse_args()
    groups = set(args.only.split(",")) if args.only else None
    import triton
    print(f"device: {torch.cuda.get_device_name()}; torch {torch.__version__}; triton {triton.__version__}")
    if args.compile_times:
        compile_times()
    k = tlec_kernels.load(args.build)
    print(f"\n{'kernel':36s} {'tlec us':>9s} {'triton us':>9s} {'torch us':>9s} {'ratio':>8s} {'GB/s':>8s}")
    for group, run, source in (("vector_add", bench_vector_add, "01_vector_add.tle"),
                               ("softmax", bench_softmax, "02_fused_softmax.tle"),
                               ("layer_norm", bench_layer_norm, "05_layer_norm.tle"),
                               ("matmul", bench_matmul, "03_matmul.tle"),
                               ("persistent_matmul", bench_persistent_matmul, "09_persistent_matmul.tle"),
                               ("attention", bench_attention, "06_fused_attention_nodesc.tle"),
                               ("attention_desc", bench_attention_desc, "06_fused_attention.tle"),
                               ("specialization", bench_specialization, "01_vector_add.tle")):
        if groups is None or group in groups:
            run(k, load_tutorial(source))


if __name__ == "__main__":
    main()
