#!/usr/bin/env python3
"""Whether two generated CUDA files hold the same code: tlec's output for two spellings of
one kernel (the formulation tests: tests/lit/cuda/matmul-formulations.test). Comment lines
(the source-line comments name each spelling's own lines) and the generated header's
#include are left out; --rename OLD=NEW renames identifiers of the first file (a variable
the spellings name differently); --kernel NAME compares only the device code of kernel NAME
in both (its layouts, its __global__ function and its shared-memory size: one variant of an
automatically specialized kernel against a kernel compiled alone; --second-kernel names
SECOND's when it differs, and the first's name is renamed to it). Prints a unified diff and
exits 1 where they differ.
Usage: same_code.py FIRST.cu SECOND.cu [--rename OLD=NEW ...] [--kernel NAME [--second-kernel NAME]]"""
import argparse
import difflib
import re
import sys


def kernel_lines(lines, name):
    """Kernel `name`'s layouts namespace, __global__ function and kSharedBytes constant."""
    out, inside = [], False
    for line in lines:
        if line.startswith("namespace %s_layouts {" % name) or re.match(r'extern "C" __global__ .*\b%s\(' % re.escape(name), line):
            inside = True
        if inside or line.startswith("constexpr int kSharedBytes_%s =" % name):
            out.append(line)
        if inside and line.startswith("}") and not line.startswith("}  // namespace"):
            inside = False
    return out


def code_lines(path, kernel, renames, kernel_rename=None):
    lines = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if re.match(r"\s*//", line) or re.match(r'#include "[^"/]*\.h"', line):
                continue
            lines.append(line)
    if kernel:
        lines = kernel_lines(lines, kernel)
    for old, new in renames:
        lines = [re.sub(r"\b%s\b" % re.escape(old), new, line) for line in lines]
    if kernel_rename:  # also inside names made from it (NAME_layouts, kSharedBytes_NAME)
        old, new = kernel_rename
        lines = [re.sub(r"(?<![A-Za-z0-9])%s(?![A-Za-z0-9])" % re.escape(old), new, line) for line in lines]
    return lines


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("first")
    parser.add_argument("second")
    parser.add_argument("--rename", action="append", default=[], metavar="OLD=NEW")
    parser.add_argument("--kernel", default="")
    parser.add_argument("--second-kernel", default="", help="the kernel of SECOND.cu, when not --kernel's name")
    args = parser.parse_args()
    renames = [tuple(r.split("=", 1)) for r in args.rename]
    second_kernel = args.second_kernel or args.kernel
    kernel_rename = (args.kernel, second_kernel) if args.kernel != second_kernel else None
    first, second = code_lines(args.first, args.kernel, renames, kernel_rename), code_lines(args.second, second_kernel, [])
    for path, kernel, lines in ((args.first, args.kernel, first), (args.second, second_kernel, second)):
        if kernel and not lines:
            sys.exit("same_code.py: no kernel %s in %s" % (kernel, path))
    diff = list(difflib.unified_diff(first, second, args.first, args.second))
    if diff:
        sys.stdout.writelines(diff)
        sys.exit(1)


if __name__ == "__main__":
    main()
