#!/usr/bin/env python3
"""Runs tlec --emit=mlir on every case and compares its verdicts with Triton's
(run_triton.py's output). Prints the disagreements as a Markdown table and a summary.
Usage: compare.py TLEC kernels.py cases.json triton.json"""
import json
import subprocess
import sys
import tempfile

import kernel_files

tlec, kernels, cases_path, triton_path = sys.argv[1:5]
cases = json.load(open(cases_path))
triton = {r["kernel"]: r for r in json.load(open(triton_path))}
header, own = kernel_files.split(kernels)
scratch = tempfile.mkdtemp()
rows = []
agree = 0
for case in cases:
    path = kernel_files.write(scratch, case["kernel"], header, own, [case["kernel"]])
    p = subprocess.run([tlec, "--emit=mlir", "--kernel", case["kernel"], "--signature", case["signature"], path],
                       capture_output=True, text=True)
    ok = p.returncode == 0
    if p.returncode not in (0, 1) or "internal-error" in p.stderr:
        rows.append((case, "CRASH %d" % p.returncode, p.stderr.strip().splitlines()[:1]))
        continue
    t = triton.get(case["kernel"])
    if t is None:
        continue
    if ok == t["ok"]:
        agree += 1
        continue
    err = next((l for l in p.stderr.splitlines() if "error:" in l), "")
    rows.append((case, "tlec %s, triton %s" % ("accepts" if ok else "rejects", "accepts" if t["ok"] else "rejects"),
                 [err.split("error: ", 1)[-1], t["message"]]))
print("| case | verdicts | tlec says | Triton says |")
print("|---|---|---|---|")
for case, verdict, msgs in rows:
    msgs = list(msgs) + ["", ""]
    print("| %s: %s | %s | %s | %s |" % (case["kernel"], case["note"], verdict, msgs[0].replace("|", "\\|")[:160], msgs[1].replace("|", "\\|")[:160]))
print()
print("%d cases, %d agree, %d disagree" % (len(cases), agree, len(rows)))
