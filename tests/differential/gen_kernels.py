#!/usr/bin/env python3
"""Generates small Triton kernels that probe the front end's typing rules (shapes,
broadcasting, dtypes, reductions, dots, casts, masks, atomics) for the differential check
against Triton: kernels.py (one @triton.jit function per case) and cases.json (each case's
kernel name and signature). Deterministic: the same cases every run."""
import itertools
import json
import sys

DTYPES = ["fp16", "bf16", "fp32", "i8", "i32", "i64", "u32"]
TL = {"fp16": "tl.float16", "bf16": "tl.bfloat16", "fp32": "tl.float32", "fp64": "tl.float64", "i8": "tl.int8",
      "i16": "tl.int16", "i32": "tl.int32", "i64": "tl.int64", "u32": "tl.uint32", "i1": "tl.int1"}
SHAPES = ["[16]", "[32]", "[16, 1]", "[1, 16]", "[16, 16]", "[32, 16]", "[16, 32]", "[]"]
cases = []
lines = ["import triton", "import triton.language as tl", ""]


def add(body, params, signature, note):
    name = "k%04d" % len(cases)
    lines.append("")
    lines.append("@triton.jit")
    lines.append("def %s(%s):" % (name, ", ".join(params)))
    for b in body:
        lines.append("    " + b)
    cases.append({"kernel": name, "signature": signature, "note": note})


def block(shape, var):
    """Code making a block of `shape` (a string like "[16, 1]") of int32 named var, or a scalar."""
    dims = json.loads(shape)
    if not dims:
        return ["%s = tl.program_id(0)" % var]
    if len(dims) == 1:
        return ["%s = tl.arange(0, %d)" % (var, dims[0])]
    return ["%s = tl.arange(0, %d)[:, None] * %d + tl.arange(0, %d)[None, :]" % (var, dims[0], dims[1], dims[1])]


# 1. Binary operators between shapes, stored through pointers of a third shape.
for a, b, out in itertools.product(SHAPES, SHAPES, ["[16]", "[16, 16]", "[]"]):
    body = block(a, "a") + block(b, "b") + block(out, "o") + ["tl.store(x_ptr + o, a + b)"]
    add(body, ["x_ptr"], "*i32", "binary %s + %s stored at %s" % (a, b, out))

# 2. Loads with a mask and `other` of various shapes.
for p, m, o in itertools.product(["[16]", "[16, 16]", "[]"], ["[16]", "[1, 16]", "[16, 1]", "[]"], ["none", "[16]", "[]"]):
    body = block(p, "p") + block(m, "m")
    other = "" if o == "none" else ", other=%s" % ("0" if o == "[]" else "tl.zeros([16], dtype=tl.float32)")
    body += ["v = tl.load(x_ptr + p, mask=m > 3%s)" % other, "tl.store(y_ptr + p, v)"]
    add(body, ["x_ptr", "y_ptr"], "*fp32, *fp32", "load at %s, mask %s, other %s" % (p, m, o))

# 3. Dtype promotion of two loaded values, stored as a third dtype.
for da, db in itertools.product(DTYPES, DTYPES):
    for op in ["+", "*", "/", "//", "%", "<", "&", ">>"]:
        body = ["o = tl.arange(0, 16)", "a = tl.load(a_ptr + o)", "b = tl.load(b_ptr + o)", "tl.store(c_ptr + o, a %s b)" % op]
        add(body, ["a_ptr", "b_ptr", "c_ptr"], "*%s, *%s, *fp32" % (da, db), "%s %s %s" % (da, op, db))

# 4. Reductions along axes.
for shape, axis, fn in itertools.product(["[16]", "[16, 32]"], ["0", "1", "-1", "2", "None"], ["sum", "max", "argmax", "xor_sum"]):
    store = "tl.store(x_ptr, r)" if axis == "None" else "tl.store(x_ptr, tl.sum(tl.ravel(r), axis=0))"
    body = block(shape, "a") + ["r = tl.%s(a, axis=%s)" % (fn, axis), store]
    add(body, ["x_ptr"], "*i32", "tl.%s(%s, axis=%s)" % (fn, shape, axis))

# 5. Dots of various shapes and dtypes.
for (m, k, k2, n), dt in itertools.product([(16, 16, 16, 16), (32, 16, 16, 64), (16, 32, 16, 16), (8, 16, 16, 16), (16, 16, 16, 8), (64, 64, 64, 64)],
                                        ["fp16", "fp32", "i8", "bf16"]):
    body = ["a = tl.load(a_ptr + tl.arange(0, %d)[:, None] * %d + tl.arange(0, %d)[None, :])" % (m, k, k),
            "b = tl.load(b_ptr + tl.arange(0, %d)[:, None] * %d + tl.arange(0, %d)[None, :])" % (k2, n, n),
            "c = tl.dot(a, b)",
            "tl.store(c_ptr + tl.arange(0, %d)[:, None] * %d + tl.arange(0, %d)[None, :], c)" % (m, n, n)]
    add(body, ["a_ptr", "b_ptr", "c_ptr"], "*%s, *%s, *fp32" % (dt, dt), "dot [%d,%d]x[%d,%d] %s" % (m, k, k2, n, dt))

# 6. arange bounds.
for s, e in [(0, 16), (0, 10), (5, 21), (16, 0), (0, 0), (-16, 0), (0, 1), (0, 2048), (0, 1 << 20), (0, 1 << 21)]:
    add(["o = tl.arange(%d, %d)" % (s, e), "tl.store(x_ptr + o - %d, o)" % s], ["x_ptr"], "*i32", "arange(%d, %d)" % (s, e))

# 7. where with shapes.
for c, a, b in itertools.product(["[16]", "[16, 1]", "[]"], ["[16]", "[1, 16]", "[]"], ["[16]", "[]"]):
    body = block(c, "c") + block(a, "a") + block(b, "b") + ["r = tl.where(c > 2, a, b)", "tl.store(x_ptr + tl.arange(0, 16)[None, :] * 0 + r, r)"]
    add(body, ["x_ptr"], "*i32", "where(%s, %s, %s)" % (c, a, b))

# 8. reshape / trans / permute.
for to in ["[256]", "[16, 16]", "[8, 32]", "[4, 4, 16]", "[100]", "[512]", "[16, 17]"]:
    add(block("[16, 16]", "a") + ["r = tl.reshape(a, %s)" % to, "tl.store(x_ptr, tl.sum(tl.ravel(r), axis=0))"], ["x_ptr"], "*i32", "reshape [16,16] to %s" % to)
for dims in ["(1, 0)", "(0, 1)", "(0, 0)", "(2, 0)", "(1,)"]:
    add(block("[16, 32]", "a") + ["r = tl.permute(a, %s)" % dims, "tl.store(x_ptr, tl.sum(tl.ravel(r), axis=0))"], ["x_ptr"], "*i32", "permute %s" % dims)

# 9. Casts.
for src, dst in itertools.product(DTYPES, DTYPES + ["i1", "fp64"]):
    for bitcast in [False, True]:
        body = ["o = tl.arange(0, 16)", "v = tl.load(a_ptr + o).to(%s%s)" % (TL[dst], ", bitcast=True" if bitcast else ""),
                "tl.store(b_ptr + o, v)"]
        add(body, ["a_ptr", "b_ptr"], "*%s, *%s" % (src, dst if dst != "i1" else "i8"), "%s.to(%s, bitcast=%s)" % (src, dst, bitcast))

# 10. Atomics by dtype and operand shape.
for dt, fn, shape in itertools.product(["fp16", "fp32", "i32", "i64", "u32", "bf16"], ["atomic_add", "atomic_max", "atomic_xchg", "atomic_and"], ["[16]", "[]"]):
    body = block(shape, "o") + ["v = tl.load(b_ptr + o)", "tl.%s(a_ptr + o, v)" % fn]
    add(body, ["a_ptr", "b_ptr"], "*%s, *%s" % (dt, dt), "tl.%s %s %s" % (fn, dt, shape))

# 11. zeros/full shapes and broadcast_to.
for shape in ["[16]", "[10]", "[16, 3]", "[]", "[0]", "[1024, 1024]", "[2048, 1024]"]:
    add(["z = tl.zeros(%s, dtype=tl.float32)" % shape, "tl.store(x_ptr, tl.sum(tl.ravel(z), axis=0))"], ["x_ptr"], "*fp32", "zeros(%s)" % shape)
for src, to in itertools.product(["[16]", "[1, 16]", "[16, 1]"], ["[16, 16]", "[32, 16]", "[16]", "[4, 16, 16]"]):
    add(block(src, "a") + ["r = tl.broadcast_to(a, %s)" % to, "tl.store(x_ptr, tl.sum(tl.ravel(r), axis=0))"], ["x_ptr"], "*i32", "broadcast_to(%s, %s)" % (src, to))

# 12. Scalar pointers with block values (Triton rejects) and block pointers with scalars.
for val in ["[16]", "[]"]:
    for ptr in ["[16]", "[]"]:
        add(block(val, "v") + block(ptr, "p") + ["tl.store(x_ptr + p, v)"], ["x_ptr"], "*i32", "store %s through %s pointers" % (val, ptr))

# 13. Stores converting the value's dtype to the pointer's.
for dv, dp in itertools.product(DTYPES, DTYPES):
    body = ["o = tl.arange(0, 16)", "v = tl.load(a_ptr + o)", "tl.store(b_ptr + o, v)"]
    add(body, ["a_ptr", "b_ptr"], "*%s, *%s" % (dv, dp), "store %s into *%s" % (dv, dp))

# 14. Python constants with runtime values: overflow and float/int mixing.
for dt, const in itertools.product(["i8", "i32", "u32", "fp16", "fp32"], ["1", "-1", "300", "2**31", "2**40", "1.5", "True", "float('inf')"]):
    body = ["o = tl.arange(0, 16)", "v = tl.load(a_ptr + o)", "tl.store(a_ptr + o, v + %s)" % const]
    add(body, ["a_ptr"], "*%s" % dt, "%s + %s" % (dt, const))

# 15. program_id / num_programs axes.
for axis in ["0", "1", "2", "3", "-1"]:
    add(["tl.store(x_ptr, tl.program_id(%s) + tl.num_programs(%s))" % (axis, axis)], ["x_ptr"], "*i32", "program_id(%s)" % axis)

# 16. expand_dims, trans, split and join.
for shape, axis in itertools.product(["[16]", "[16, 32]"], ["0", "1", "2", "-1", "-3"]):
    add(block(shape, "a") + ["r = tl.expand_dims(a, %s)" % axis, "tl.store(x_ptr, tl.sum(tl.ravel(r), axis=0))"], ["x_ptr"], "*i32", "expand_dims(%s, %s)" % (shape, axis))
for shape in ["[16]", "[16, 32]", "[2, 16, 32]"]:
    add(block(shape, "a") if shape != "[2, 16, 32]" else ["a = tl.reshape(tl.arange(0, 1024), [2, 16, 32])"],
        ["x_ptr"], "*i32", "trans(%s)" % shape)
    lines.append("    r = tl.trans(a)")
    lines.append("    tl.store(x_ptr, tl.sum(tl.ravel(r), axis=0))")
for shape in ["[16, 2]", "[16, 4]", "[2]", "[16]"]:
    add(["a = tl.reshape(tl.arange(0, %d), %s)" % (eval("*".join(shape.strip("[]").split(", "))) if "," in shape else int(shape.strip("[]")), shape),
         "x, y = tl.split(a)", "tl.store(x_ptr, tl.sum(tl.ravel(tl.join(x, y)), axis=0))"], ["x_ptr"], "*i32", "split/join %s" % shape)

# 17. Atomics' sem and scope strings.
for sem, scope in itertools.product(["relaxed", "acquire", "release", "acq_rel", "seq_cst", "bogus"], ["gpu", "cta", "sys", "bogus"]):
    add(["tl.atomic_add(x_ptr + tl.arange(0, 16), 1, sem='%s', scope='%s')" % (sem, scope)], ["x_ptr"], "*i32", "atomic_add sem=%s scope=%s" % (sem, scope))

# 18. Shifts and comparisons between dtypes.
for da, db in itertools.product(["i8", "i32", "u32", "i64"], ["i8", "i32", "u32", "i64"]):
    for op in ["<<", "==", ">="]:
        body = ["o = tl.arange(0, 16)", "a = tl.load(a_ptr + o)", "b = tl.load(b_ptr + o)", "tl.store(c_ptr + o, (a %s b).to(tl.int32))" % op]
        add(body, ["a_ptr", "b_ptr", "c_ptr"], "*%s, *%s, *i32" % (da, db), "%s %s %s" % (da, op, db))

# 19. Math functions on dtypes.
for fn, dt in itertools.product(["exp", "sqrt", "abs", "floor", "sigmoid", "log2", "erf", "rsqrt"], ["fp16", "bf16", "fp32", "i32"]):
    add(["o = tl.arange(0, 16)", "tl.store(b_ptr + o, tl.%s(tl.load(a_ptr + o)))" % fn], ["a_ptr", "b_ptr"], "*%s, *fp32" % dt, "tl.%s(%s)" % (fn, dt))

open(sys.argv[1] if len(sys.argv) > 1 else "kernels.py", "w").write("\n".join(lines) + "\n")
json.dump(cases, open(sys.argv[2] if len(sys.argv) > 2 else "cases.json", "w"), indent=0)
print(len(cases), "cases")
