#!/usr/bin/env python3
"""The build half of the differential check on results: compiles, with tlec, every case of
cases.json that tlec accepts into CUDA C++ (OUTDIR/gen/chunkNN.cu and .h, default
--specialize=auto) for run_results.py to build with nvcc and run beside Triton on the GPU
machine. Cases whose blocks are too large to be worth running are left out. Writes
OUTDIR/accepted.json (the compiled cases) and OUTDIR/refused.json (cases tlec's front end
accepts but its CUDA lowering refuses, with the message).
Usage: build_results.py TLEC kernels.py cases.json OUTDIR"""
import json
import os
import subprocess
import sys
import tempfile

import kernel_files

CHUNK = 40
tlec, kernels, cases_path, out = sys.argv[1:5]
cases = json.load(open(cases_path))
os.makedirs(os.path.join(out, "gen"), exist_ok=True)
header, own = kernel_files.split(kernels)
scratch = tempfile.mkdtemp()


def compile_cases(chosen, path):
    module = kernel_files.write(scratch, os.path.basename(path)[:-3], header, own, [c["kernel"] for c in chosen])
    args = [tlec, module, "-o", path]
    for c in chosen:
        args += ["--kernel", c["kernel"], "--signature", c["signature"]]
    return subprocess.run(args, capture_output=True, text=True)


accepted = []
for case in cases:
    if "1048576" in case["note"] or "2097152" in case["note"] or "[2048, 1024]" in case["note"] or "[1024, 1024]" in case["note"]:
        continue  # a megabyte-sized block: nothing to learn that smaller ones do not show
    p = subprocess.run([tlec, "--emit=mlir", "--kernel", case["kernel"], "--signature", case["signature"],
                        kernel_files.write(scratch, case["kernel"], header, own, [case["kernel"]])], capture_output=True, text=True)
    if p.returncode == 0:
        accepted.append(case)

compiled, refused = [], []
for start in range(0, len(accepted), CHUNK):
    chunk = accepted[start:start + CHUNK]
    path = os.path.join(out, "gen", "chunk%02d.cu" % (start // CHUNK))
    if compile_cases(chunk, path).returncode == 0:
        compiled += chunk
        continue
    # One refusal fails the chunk: find it, keep the rest.
    good = []
    for c in chunk:
        p = compile_cases([c], os.path.join(out, "probe.cu"))
        if p.returncode == 0:
            good.append(c)
        else:
            err = next((l for l in p.stderr.splitlines() if "error:" in l), p.stderr.strip()[:200])
            refused.append({"kernel": c["kernel"], "note": c["note"], "message": err.split("error: ", 1)[-1]})
    for f in ("probe.cu", "probe.h"):
        if os.path.exists(os.path.join(out, f)):
            os.remove(os.path.join(out, f))
    if good and compile_cases(good, path).returncode == 0:
        compiled += good
json.dump(compiled, open(os.path.join(out, "accepted.json"), "w"), indent=0)
json.dump(refused, open(os.path.join(out, "refused.json"), "w"), indent=0)
print("tlec: %d cases compiled to CUDA in %s/gen, %d refused by the CUDA lowering" % (len(compiled), out, len(refused)))
