#!/usr/bin/env python3
"""Whether two generated CUDA files hold the same code: tlec's output for two spellings of
one kernel (the formulation tests: tests/lit/cuda/matmul-formulations.test). Comment lines
(the source-line comments name each spelling's own lines) and the generated header's
#include are left out; --rename OLD=NEW renames identifiers of the first file (a variable
the spellings name differently). Prints a unified diff and exits 1 where they differ.
Usage: same_code.py FIRST.cu SECOND.cu [--rename OLD=NEW ...]"""
import argparse
import difflib
import re
import sys


def code_lines(path, renames):
    lines = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if re.match(r"\s*//", line) or re.match(r'#include "[^"/]*\.h"', line):
                continue
            for old, new in renames:
                line = re.sub(r"\b%s\b" % re.escape(old), new, line)
            lines.append(line)
    return lines


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("first")
    parser.add_argument("second")
    parser.add_argument("--rename", action="append", default=[], metavar="OLD=NEW")
    args = parser.parse_args()
    renames = [tuple(r.split("=", 1)) for r in args.rename]
    diff = list(difflib.unified_diff(code_lines(args.first, renames), code_lines(args.second, []),
                                     args.first, args.second))
    if diff:
        sys.stdout.writelines(diff)
        sys.exit(1)


if __name__ == "__main__":
    main()
