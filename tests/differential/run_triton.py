#!/usr/bin/env python3
"""Runs Triton's front end (the Python AST to TTIR, for sm_90) on every case of cases.json
and writes each verdict: {"kernel", "ok", "message"} to the output JSON. Needs Triton (the
GPU machine has 3.6); no GPU is used. Usage: run_triton.py kernels.py cases.json out.json"""
import importlib.util
import json
import sys
import traceback

from triton.backends.compiler import GPUTarget
from triton.compiler.compiler import ASTSource, make_backend
from triton._C.libtriton import ir

spec = importlib.util.spec_from_file_location("kernels", sys.argv[1])
kernels = importlib.util.module_from_spec(spec)
spec.loader.exec_module(kernels)
cases = json.load(open(sys.argv[2]))
target = GPUTarget("cuda", 90, 32)
backend = make_backend(target)
options = backend.parse_options({"num_warps": 4})
codegen_fns = backend.get_codegen_implementation(options)
module_map = backend.get_module_map()
results = []
for case in cases:
    fn = getattr(kernels, case["kernel"])
    names = fn.arg_names
    types = [t.strip() for t in case["signature"].split(",")]
    signature = {n: t for n, t in zip(names, types)}
    context = ir.context()
    ir.load_dialects(context)
    backend.load_dialects(context)
    try:
        src = ASTSource(fn, signature, {}, None)
        src.make_ir(target, options, codegen_fns, module_map, context)
        results.append({"kernel": case["kernel"], "ok": True, "message": ""})
    except Exception as e:  # Triton reports front-end errors as CompilationError and others
        # CompilationError carries the message apart from the source excerpt it prints.
        detail = getattr(e, "error_message", None) or str(e)
        text = str(detail).strip().splitlines()
        message = next((l for l in reversed(text) if l.strip() and not l.startswith(" ")), type(e).__name__)
        results.append({"kernel": case["kernel"], "ok": False, "message": (type(e).__name__ + ": " + message)[:300]})
json.dump(results, open(sys.argv[3], "w"), indent=0)
print("triton:", sum(r["ok"] for r in results), "accepted of", len(results))
