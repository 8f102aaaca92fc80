#!/usr/bin/env python3
"""check_ast.py TLEC FILE: the differential parser test.

Parses FILE with `TLEC --emit=ast` and with CPython's `ast` module, prints both in the
same format (pyast_dump.py) and fails with a unified diff if they differ in any node,
operator, constant or source range. CPython has no range for a comprehension clause or
a bare `*` parameter; those two are compared without one.
"""
import difflib
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
import pyast_dump  # noqa: E402


def main():
    tlec, path = sys.argv[1], sys.argv[2]
    run = subprocess.run([tlec, "--emit=ast", path], capture_output=True, text=True)
    if run.returncode != 0:
        print("tlec failed on %s (exit %d):\n%s" % (path, run.returncode, run.stderr))
        return 1
    ours = re.sub(r"(comprehension|param \*) <[^>]*>", r"\1 <?>", run.stdout).splitlines()
    with open(path, encoding="utf-8") as f:
        source = f.read()
    dumper = pyast_dump.Dumper(source, path, locations=True)
    dumper.module(pyast_dump.ast.parse(source, path))
    theirs = dumper.out
    if ours == theirs:
        return 0
    sys.stdout.writelines(line + "\n" for line in difflib.unified_diff(theirs, ours, "cpython", "tlec", lineterm=""))
    return 1


if __name__ == "__main__":
    sys.exit(main())
