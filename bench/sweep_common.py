"""What the sweep benchmarks share: building a directory of generated kernels with nvcc
(bench/gen_sweep.sh made them) into one library, timing one row on both sides, and the
sweep's summary line. Extra nvcc options come first from the environment's TLE_NVCC_FLAGS
(a -D, or an -I of another tree's device library to time the same kernels against it)."""
import concurrent.futures
import glob
import math
import os
import re
import subprocess
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, os.path.join(ROOT, "tests", "gpu"))  # tlec_kernels


def build(out):
    lib = os.path.join(out, "libtle_gpu_kernels.so")
    if os.path.exists(lib):
        return
    nvcc = os.environ.get("NVCC", "/usr/local/cuda/bin/nvcc")
    extra = os.environ.get("TLE_NVCC_FLAGS", "").split()

    def one(src):
        return subprocess.run([nvcc, "-std=c++17", "-O3", "-arch=sm_90a", "-Xcompiler", "-fPIC"] + extra +
                              ["-I" + ROOT + "/stdlib/include", "-I" + ROOT + "/runtime/include", "-c", src, "-o", src[:-3] + ".o"], capture_output=True, text=True)
    sources = sorted(glob.glob(os.path.join(out, "gen", "*.cu")))
    with concurrent.futures.ThreadPoolExecutor(16) as pool:
        for src, p in zip(sources, pool.map(one, sources)):
            if p.returncode:
                sys.exit("nvcc failed on %s:\n%s" % (src, p.stderr[:3000]))
    subprocess.run([nvcc, "-shared", "-arch=sm_90a", "-o", lib] + [s[:-3] + ".o" for s in sources], check=True)


def use_torch_allocator():
    """Gives Triton's JIT the scratch that descriptors made in a kernel need for their
    tensor maps: device bytes from PyTorch."""
    import torch
    import triton
    triton.set_allocator(lambda size, alignment, stream: torch.empty(size, device="cuda", dtype=torch.int8))


def compare(label, width, bench, run_tlec, run_triton, rate):
    """Times one row (tlec, then Triton; `rate` turns a time in ms into the throughput
    printed) and prints it; returns Triton time / tlec time, or None where Triton cannot run
    the config (reported: a result, not an error)."""
    t_tlec = bench(run_tlec)
    try:
        t_tri = bench(run_triton)
    except Exception as e:  # noqa: BLE001 - a config Triton cannot run is a result
        message = str(e).splitlines()[0][:160] if str(e) else ""
        print(f"{label:{width}s} {rate(t_tlec):9.0f} Triton cannot run it: {type(e).__name__}: {message}")
        return None
    ratio = t_tri / t_tlec
    print(f"{label:{width}s} {rate(t_tlec):9.0f} {rate(t_tri):7.0f} {ratio:10.2f}x", flush=True)
    return ratio


def summarize(ratios, label="Triton/tlec"):
    """The sweep's summary line: geometric mean, extremes and rows at the issue's 0.9x floor."""
    if not ratios:
        return
    geo = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
    print(f"\n{len(ratios)} rows: geometric mean {label} {geo:.2f}x, min {min(ratios):.2f}x, max {max(ratios):.2f}x, "
          f"{sum(r >= 0.9 for r in ratios)} rows >= 0.9x")


NUM_SMS = 132  # the persistent sweep kernels' NUM_SMS (bench/sweep_persistent.list)


def matmul_launchers(kernels, tri, sym, a, b, c):
    """tlec's and Triton's launch of matmul sweep kernel `sym` computing c = a @ b, as two
    callables: mm_<dtype>_<BM>x<BN>x<BK>_s<stages>_w<warps> is Triton tutorial 03's kernel with
    that config (`tri` its module), pm_... tutorial 09's persistent kernel (`tri` that module),
    launched on min(NUM_SMS, tiles) programs on both sides; dp_..._e<0|1> its tensor-descriptor
    form (descriptors made in the kernel, epilogue subtiled or not), given B as a contiguous
    N x K copy of `b`, and Triton an allocator for its descriptors. The formulation sweep's
    kernels (FORMULATIONS: bench/sweep_formulation.list) are tutorial 03's other spellings,
    `tri` their module; None where a kernel cannot take these operands (a constexpr-size
    kernel compiled for another shape; tensor descriptors over operands not row-major)."""
    bm, bn, bk, stages, warps = (int(x) for x in re.match(r"[a-z]{2}_\w+?_(\d+)x(\d+)x(\d+)_s(\d+)_w(\d+)", sym).groups())
    (m, k), n = a.shape, b.shape[1]
    persistent = sym[:3] in ("pm_", "dp_")
    if sym.startswith("dp_"):
        return _descriptor_launchers(kernels, tri, sym, a, b, c, (bm, bn, bk, stages, warps))
    if sym[:3] in FORMULATIONS:
        return _formulation_launchers(kernels, tri, sym, a, b, c, (bm, bn, bk, stages, warps))
    tiles = math.ceil(m / bm) * math.ceil(n / bn)
    grid = (min(NUM_SMS, tiles),) if persistent else (tiles,)
    strides = (a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1))
    # stride_ak, stride_bk and stride_cn hinted 1 are no parameters of the mm_fp8k1_ kernels.
    tlec_strides = (a.stride(0), b.stride(1), c.stride(0)) if sym.startswith("mm_fp8k1_") else strides

    def tlec():
        kernels[sym](grid, a, b, c, m, n, k, *tlec_strides)

    def triton():
        config = dict(BLOCK_SIZE_M=bm, BLOCK_SIZE_N=bn, BLOCK_SIZE_K=bk, GROUP_SIZE_M=8, num_warps=warps, num_stages=stages)
        if persistent:
            tri.matmul_kernel_persistent[grid](a, b, c, m, n, k, *strides, NUM_SMS=NUM_SMS, **config)
        else:
            tri.matmul_kernel.fn[grid](a, b, c, m, n, k, *strides, ACTIVATION="", **config)
    return tlec, triton


_nk_copies = {}


def _descriptor_launchers(kernels, tri, sym, a, b, c, config):
    bm, bn, bk, stages, warps = config
    subtile = bool(int(re.search(r"_e(\d)$", sym).group(1)))
    (m, k), n = a.shape, b.shape[1]
    key = (b.data_ptr(), tuple(b.shape), tuple(b.stride()))
    if key not in _nk_copies:
        _nk_copies.clear()
        _nk_copies[key] = b.T.contiguous()
    b_nk = _nk_copies[key]
    assert a.is_contiguous() and c.is_contiguous(), "the descriptor kernel assumes row-major A and C"
    use_torch_allocator()
    grid = (min(NUM_SMS, math.ceil(m / bm) * math.ceil(n / bn)),)

    def tlec():
        kernels[sym](grid, a, b_nk, c, m, n, k)

    def triton_run():
        tri.matmul_kernel_descriptor_persistent[grid](
            a, b_nk, c, m, n, k, BLOCK_SIZE_M=bm, BLOCK_SIZE_N=bn, BLOCK_SIZE_K=bk, GROUP_SIZE_M=8,
            EPILOGUE_SUBTILE=subtile, NUM_SMS=NUM_SMS, WARP_SPECIALIZE=False, num_warps=warps, num_stages=stages)
    return tlec, triton_run


# The formulation sweep's prefixes: the kernel of triton/03_matmul_formulations.tle each runs.
FORMULATIONS = {"tr_": "matmul_kernel_tl_range", "bp_": "matmul_kernel_block_ptr", "tb_": "matmul_kernel_trans_b",
                "ce_": "matmul_kernel_constexpr_sizes", "td_": "matmul_kernel_descriptor"}
CONSTEXPR_SHAPE = (4096, 4096, 4096)  # the shape the ce_ kernels are compiled for


def _formulation_launchers(kernels, tri, sym, a, b, c, config):
    bm, bn, bk, stages, warps = config
    (m, k), n = a.shape, b.shape[1]
    grid = (math.ceil(m / bm) * math.ceil(n / bn),)
    strides = (a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1))
    meta = dict(BLOCK_SIZE_M=bm, BLOCK_SIZE_N=bn, BLOCK_SIZE_K=bk, GROUP_SIZE_M=8, num_warps=warps, num_stages=stages)
    kernel = getattr(tri, FORMULATIONS[sym[:3]])
    if sym.startswith("ce_"):
        if (m, n, k) != CONSTEXPR_SHAPE:
            return None
        return (lambda: kernels[sym](grid, a, b, c, *strides),
                lambda: kernel[grid](a, b, c, *strides, M=m, N=n, K=k, **meta))
    if sym.startswith("td_"):
        if not (a.is_contiguous() and b.is_contiguous() and c.is_contiguous()):
            return None
        use_torch_allocator()
        return (lambda: kernels[sym](grid, a, b, c, m, n, k),
                lambda: kernel[grid](a, b, c, m, n, k, **meta))
    return (lambda: kernels[sym](grid, a, b, c, m, n, k, *strides),
            lambda: kernel[grid](a, b, c, m, n, k, *strides, **meta))
