#!/usr/bin/env python3
"""Mutates the kernels of gen_kernels.py for the differential check against Triton: each
mutant is one generated case with one or two small edits (an operator, a signature dtype, a
constant, an axis, a broadcast, a function of the same family, a cast, a keyword dropped,
dot operands swapped or transposed, a store made an atomic). Writes mutants.py and
mutants.json in the cases.json format; every mutant is valid Python (checked with ast), and
no two are the same text. Deterministic for a given seed.
Usage: mutate_kernels.py kernels.py cases.json mutants.py mutants.json [COUNT [SEED]]"""
import ast
import json
import random
import re
import sys

OPERATORS = ["+", "-", "*", "/", "//", "%", "&", "|", "^", "<<", ">>", "<", ">", "==", "!=", "<=", ">="]
DTYPES = ["fp16", "bf16", "fp32", "fp64", "i1", "i8", "i16", "i32", "i64", "u8", "u32", "u64"]
TL_DTYPES = ["tl.float16", "tl.bfloat16", "tl.float32", "tl.float64", "tl.int1", "tl.int8", "tl.int16", "tl.int32",
             "tl.int64", "tl.uint8", "tl.uint32"]
NUMBERS = ["0", "1", "2", "3", "8", "15", "16", "17", "32", "64", "-1"]
FAMILIES = [
    ["tl.sum", "tl.max", "tl.min", "tl.xor_sum", "tl.argmax", "tl.argmin", "tl.reduce_or", "tl.reduce_and"],
    ["tl.exp", "tl.exp2", "tl.log", "tl.log2", "tl.sqrt", "tl.rsqrt", "tl.abs", "tl.floor", "tl.ceil", "tl.sigmoid", "tl.cos", "tl.erf"],
    ["tl.maximum", "tl.minimum"],
    ["tl.atomic_add", "tl.atomic_max", "tl.atomic_min", "tl.atomic_and", "tl.atomic_or", "tl.atomic_xor", "tl.atomic_xchg"],
    ["tl.where", "tl.maximum"],
    ["tl.expand_dims", "tl.sum"],
]


def sites(pattern, text):
    return list(re.finditer(pattern, text))


def replace_at(text, m, group, new):
    return text[:m.start(group)] + new + text[m.end(group):]


def substitute(body, sig, rng, pattern, options, note):
    """One match of `pattern`'s first group, chosen at random, replaced by another of
    `options` (`note` % (old, new) says which); None when nothing matches."""
    found = sites(pattern, body)
    if not found:
        return None
    m = rng.choice(found)
    new = rng.choice([o for o in options if o != m.group(1)])
    return replace_at(body, m, 1, new), sig, note % (m.group(1), new)


def mutate_operator(body, sig, rng):
    return substitute(body, sig, rng, r"(?<=[\w\)\]]) (\+|-|\*|//|/|%|&|\||\^|<<|>>|<=|>=|<|>|==|!=) (?=[\w\(])", OPERATORS,
                      "operator %s -> %s")


def mutate_signature(body, sig, rng):
    entries = [e.strip() for e in sig.split(",")]
    i = rng.randrange(len(entries))
    pointer = entries[i].startswith("*")
    new = rng.choice(DTYPES)
    old = entries[i]
    entries[i] = ("*" if pointer else "") + new
    return body, ", ".join(entries), "signature %s -> %s" % (old, entries[i])


def mutate_number(body, sig, rng):
    return substitute(body, sig, rng, r"(?<![\w.])(\d+)(?![\w.])", NUMBERS, "constant %s -> %s")


def mutate_axis(body, sig, rng):
    return substitute(body, sig, rng, r"axis=(-?\d+|None)", ["0", "1", "2", "-1", "-2", "None"], "axis=%s -> %s")


def mutate_broadcast(body, sig, rng):
    return substitute(body, sig, rng, r"(\[:, None\]|\[None, :\]|\[None, None, :\]|\[:, None, None\])",
                      ["[:, None]", "[None, :]", "[None, None, :]", "[:, None, None]", "[None]"], "index %s -> %s")


def mutate_function(body, sig, rng):
    options = []
    for family in FAMILIES:
        for name in family:
            for m in re.finditer(re.escape(name) + r"(?=\()", body):
                options.append((m, family))
    if not options:
        return None
    m, family = rng.choice(options)
    new = rng.choice([f for f in family if f != m.group(0)])
    return body[:m.start()] + new + body[m.end():], sig, "%s -> %s" % (m.group(0), new)


def mutate_cast(body, sig, rng):
    found = sites(r"tl\.store\(([^,]+), (.+)\)$", body)
    if not found:
        found = sites(r"(?m)tl\.store\(([^,]+), (.+)\)$", body)
    if not found:
        return None
    m = rng.choice(found)
    dtype = rng.choice(TL_DTYPES)
    bitcast = rng.random() < 0.3
    new = "(%s).to(%s%s)" % (m.group(2), dtype, ", bitcast=True" if bitcast else "")
    return replace_at(body, m, 2, new), sig, "stored value .to(%s%s)" % (dtype, ", bitcast" if bitcast else "")


def mutate_keyword(body, sig, rng):
    found = sites(r", (mask|other|sem|scope|axis|dims)=([^,()]+|\([^()]*\)|tl\.[a-z_]+\([^()]*\))", body)
    if not found:
        return None
    m = rng.choice(found)
    return body[:m.start()] + body[m.end():], sig, "%s= dropped" % m.group(1)


def mutate_dot(body, sig, rng):
    found = sites(r"tl\.dot\((\w+), (\w+)\)", body)
    if not found:
        return None
    m = rng.choice(found)
    a, b = m.group(1), m.group(2)
    new, what = rng.choice([("tl.dot(%s, %s)" % (b, a), "dot operands swapped"),
                            ("tl.dot(%s, tl.trans(%s))" % (a, b), "dot of trans(b)"),
                            ("tl.dot(tl.trans(%s), %s)" % (a, b), "dot of trans(a)"),
                            ("tl.dot(%s, %s, input_precision='ieee')" % (a, b), "dot ieee"),
                            ("tl.dot(%s, %s, out_dtype=tl.float16)" % (a, b), "dot out fp16")])
    return body[:m.start()] + new + body[m.end():], sig, what


def mutate_store(body, sig, rng):
    found = sites(r"tl\.store\(", body)
    if not found:
        return None
    m = rng.choice(found)
    new = rng.choice(["tl.atomic_add(", "tl.atomic_max(", "tl.atomic_xchg("])
    return body[:m.start()] + new + body[m.end():], sig, "store -> %s" % new[:-1]


MUTATIONS = [mutate_operator, mutate_signature, mutate_number, mutate_axis, mutate_broadcast, mutate_function,
             mutate_cast, mutate_keyword, mutate_dot, mutate_store]


def functions(source):
    """(name, params line, body) of each @triton.jit function of gen_kernels.py's output."""
    out = []
    for m in re.finditer(r"@triton\.jit\ndef (\w+)\(([^)]*)\):\n((?:    .*\n)+)", source):
        out.append((m.group(1), m.group(2), m.group(3)))
    return out


def main():
    kernels, cases_path, out_py, out_json = sys.argv[1:5]
    count = int(sys.argv[5]) if len(sys.argv) > 5 else 2000
    rng = random.Random(int(sys.argv[6]) if len(sys.argv) > 6 else 1)
    cases = {c["kernel"]: c for c in json.load(open(cases_path))}
    sources = [f for f in functions(open(kernels).read()) if f[0] in cases]
    lines = ["import triton", "import triton.language as tl", ""]
    mutants, seen = [], set()
    attempts = 0
    while len(mutants) < count and attempts < count * 20:
        attempts += 1
        name, params, body = rng.choice(sources)
        sig, notes = cases[name]["signature"], []
        for _ in range(rng.choice([1, 1, 2])):
            result = rng.choice(MUTATIONS)(body, sig, rng)
            if result:
                body, sig, note = result
                notes.append(note)
        if not notes or (body, sig) in seen:
            continue
        try:
            ast.parse("def f(%s):\n%s" % (params, body))
        except SyntaxError:
            continue
        seen.add((body, sig))
        kernel = "m%04d" % len(mutants)
        lines += ["", "@triton.jit", "def %s(%s):" % (kernel, params), body.rstrip("\n")]
        mutants.append({"kernel": kernel, "signature": sig, "note": "%s (%s): %s" % (cases[name]["note"], name, "; ".join(notes))})
    open(out_py, "w").write("\n".join(lines) + "\n")
    json.dump(mutants, open(out_json, "w"), indent=0)
    print(len(mutants), "mutants")


if __name__ == "__main__":
    main()
