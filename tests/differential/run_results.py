#!/usr/bin/env python3
"""The run half of the differential check on results (GPU machine): builds what
build_results.py generated (nvcc, in parallel), compiles each case with Triton's JIT (a
process pool fills Triton's cache), then runs every case both accept, one program each, on
the same random buffers, and compares every buffer afterwards: integers exactly, floats
within the dtype's rounding. Prints the disagreements as a Markdown table and a summary.
Usage: run_results.py kernels.py OUTDIR"""
import concurrent.futures
import glob
import importlib.util
import json
import multiprocessing
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "gpu"))
ROOT = os.path.join(HERE, "..", "..")
N = 8192  # elements per buffer: every case indexes below this


def load_kernels(path):
    spec = importlib.util.spec_from_file_location("diff_kernels", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def torch_dtype(name):
    import torch
    return {"fp16": torch.float16, "bf16": torch.bfloat16, "fp32": torch.float32, "fp64": torch.float64, "i8": torch.int8,
            "i16": torch.int16, "i32": torch.int32, "i64": torch.int64, "u8": torch.uint8, "u16": torch.uint16,
            "u32": torch.uint32, "u64": torch.uint64, "i1": torch.bool}[name]


# Unsigned types torch cannot move or compare are made and compared as the signed type of
# their width (their bits).
SIGNED_OF = {"u16": "int16", "u32": "int32", "u64": "int64"}


def buffers(signature, seed):
    """Random inputs: floats ~N(0, 4); integers in [-7, 7] without 0 (divisors), unsigned in
    [1, 7]. Each buffer is the middle third of an allocation three times as long, so that a
    mutated kernel's offsets a little outside it (a constant turned negative) touch memory
    both compilers' programs share instead of stopping the GPU."""
    import torch
    g = torch.Generator(device="cpu").manual_seed(seed)
    out = []
    for t in (x.strip().lstrip("*") for x in signature.split(",")):
        dt = torch_dtype(t)
        if dt.is_floating_point:
            v = torch.randn(3 * N, generator=g, dtype=torch.float64) * 4
        else:
            v = torch.randint(-7, 8, (3 * N,), generator=g, dtype=torch.int64)
            if t.startswith("u"):
                v = v.abs()
            v[v == 0] = 3
        if t == "i1":
            whole = (v > 0).cuda()
        elif t in SIGNED_OF:
            whole = v.to(getattr(torch, SIGNED_OF[t])).cuda().view(dt)
        else:
            whole = v.to(dt).cuda()
        out.append(whole[N:2 * N])
    return out


def triton_warmup(args):
    """In a worker process: compile one case with Triton (fills the cache); its verdict."""
    kernels_path, case = args
    try:
        fn = getattr(load_kernels(kernels_path), case["kernel"])
        fn.warmup(*buffers(case["signature"], 0), grid=(1,))
        return case["kernel"], True, ""
    except Exception as e:  # noqa: BLE001 - the verdict
        msg = str(getattr(e, "error_message", None) or e).strip().splitlines()
        return case["kernel"], False, (type(e).__name__ + ": " + (msg[-1] if msg else ""))[:200]


def comparable(t):
    import torch
    t = t.cpu()
    signed = {torch.uint16: torch.int16, torch.uint32: torch.int32, torch.uint64: torch.int64}.get(t.dtype)
    return t.view(signed) if signed else t


def differences(a, b, dtype_name, tf32=False):
    """"" when the buffers agree, else how they differ. An fp32 dot runs on tf32 inputs (10
    mantissa bits; Triton's default input_precision) and its summation order is the
    compiler's: compared at that precision."""
    import torch
    a, b = comparable(a), comparable(b)
    if a.dtype.is_floating_point:
        tol = 4e-3 if tf32 else {"fp16": 2e-3, "bf16": 1.6e-2, "fp32": 1e-5, "fp64": 1e-12}[dtype_name]
        bad = ~torch.isclose(a.double(), b.double(), rtol=tol, atol=tol, equal_nan=True)
    else:
        bad = a != b
    if not bad.any():
        return ""
    first = bad.nonzero()[0].item()
    return "%d of %d elements differ, first at %d: tlec %s, Triton %s" % (bad.sum().item(), N, first, a[first].item(), b[first].item())


def main():
    kernels_path, out = sys.argv[1:3]
    cases = json.load(open(os.path.join(out, "accepted.json")))
    nvcc = os.environ.get("NVCC", "/usr/local/cuda/bin/nvcc")
    sources = sorted(glob.glob(os.path.join(out, "gen", "*.cu")))

    def build(src):
        obj = src[:-3] + ".o"
        return subprocess.run([nvcc, "-std=c++17", "-O2", "-arch=sm_90a", "-Xcompiler", "-fPIC", "-I" + ROOT + "/stdlib/include",
                               "-I" + ROOT + "/runtime/include", "-c", src, "-o", obj], capture_output=True, text=True), obj
    with concurrent.futures.ThreadPoolExecutor(16) as pool:
        built = list(pool.map(build, sources))
    for (p, obj) in built:
        if p.returncode != 0:
            print("nvcc failed on", obj, p.stderr[:2000])
            sys.exit(2)
    subprocess.run([nvcc, "-shared", "-arch=sm_90a", "-o", os.path.join(out, "libtle_gpu_kernels.so")] + [o for _, o in built],
                   check=True)
    print("nvcc: %d files built" % len(built), flush=True)

    ctx = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(14, mp_context=ctx) as pool:
        verdicts = {k: (ok, msg) for k, ok, msg in pool.map(triton_warmup, [(kernels_path, c) for c in cases])}
    print("triton: %d of %d compiled" % (sum(ok for ok, _ in verdicts.values()), len(cases)), flush=True)

    import torch
    import tlec_kernels
    tle = tlec_kernels.load(out)
    module = load_kernels(kernels_path)
    rows, compared, agree = [], 0, 0
    for i, case in enumerate(cases):
        ok, msg = verdicts[case["kernel"]]
        if not ok:
            rows.append((case, "tlec runs it, Triton does not compile it", msg))
            continue
        if os.environ.get("TLE_DIFF_TRACE"):  # which case stopped the GPU, if one does
            print("running", case["kernel"], file=sys.stderr, flush=True)
        names = [t.strip().lstrip("*") for t in case["signature"].split(",")]
        mine, theirs = buffers(case["signature"], i + 1), buffers(case["signature"], i + 1)
        try:
            tle[case["kernel"]]((1,), *mine)
            getattr(module, case["kernel"])[(1,)](*theirs)
            torch.cuda.synchronize()
        except Exception as e:  # noqa: BLE001 - reported
            rows.append((case, "error while running", str(e)[:200]))
            continue
        compared += 1
        # An fp32 dot (a generated case, or a mutant that kept the dot's shapes and dtype).
        tf32 = bool(re.match(r"dot \[\d+,\d+\]x\[\d+,\d+\] fp32($| \(k\d+\): (?!.*(constant|signature|dot)))", case["note"]))
        diffs = ["buffer %d: %s" % (j, d) for j, (a, b) in enumerate(zip(mine, theirs)) if (d := differences(a, b, names[j], tf32))]
        if diffs and tf32:
            # Both against float64: each within tf32's rounding (inputs rounded to 10 mantissa
            # bits, |error| <= 2^-10 * sum |a||b| per element) is agreement.
            m, k, n = (int(x) for x in re.match(r"dot \[(\d+),(\d+)\]x\[\d+,(\d+)\]", case["note"]).groups())
            a = mine[0].double()[:m * k].view(m, k)
            b = mine[1].double()[:k * n].view(k, n)
            bound = (a.abs() @ b.abs()) * 2.0 ** -10
            ref = a @ b
            err = [(x.double()[:m * n].view(m, n) - ref).abs() for x in (mine[2], theirs[2])]
            if all(bool((e <= bound).all()) for e in err):
                diffs = []
            else:
                diffs.append("max error against float64: tlec %.3g, Triton %.3g (tf32 bound %.3g)" % (
                    err[0].max().item(), err[1].max().item(), bound.max().item()))
        if diffs:
            rows.append((case, "different results", "; ".join(diffs)))
        else:
            agree += 1
    print("| case | outcome | detail |")
    print("|---|---|---|")
    for case, what, detail in rows:
        print("| %s: %s | %s | %s |" % (case["kernel"], case["note"], what, str(detail).replace("|", "\\|")[:200]))
    print()
    print("%d cases run by both, %d give the same results, %d differ; %d not compared" % (
        compared, agree, compared - agree, len(cases) - compared))


if __name__ == "__main__":
    main()
