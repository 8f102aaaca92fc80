"""The kernels of a generated module (gen_kernels.py, mutate_kernels.py) one by one: tlec
parses the whole file it is given, so each check gets a file with only the kernels it needs
(the kernels call no helpers) instead of the 12,000-line module."""
import os
import re


def split(path):
    """(header, {kernel name: its source}) of a generated module."""
    source = open(path).read()
    header = source.split("\n\n", 1)[0] + "\n\n"
    own = {m.group(1): m.group(0) for m in re.finditer(r"@triton\.jit\ndef (\w+)\(.*\n(?:    .*\n)+", source)}
    return header, own


def write(directory, name, header, own, kernels):
    """A module of `kernels` (names) in directory/name.py; its path."""
    path = os.path.join(directory, name + ".py")
    with open(path, "w") as f:
        f.write(header + "\n".join(own.get(k, "") for k in kernels))
    return path
