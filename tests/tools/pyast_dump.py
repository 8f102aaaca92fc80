#!/usr/bin/env python3
"""Prints CPython's own AST of a file in the format of `tlec --emit=ast`.

The differential test compares the two dumps: CPython is the reference parser for the
Python subset .tle files use, so any difference in structure, operators, constant values
or source ranges is a tlec bug. Locations are printed as tlec does: 1-based line and
code-point column, end exclusive.
"""
import ast
import sys


def quote(s, is_bytes=False):
    out = ["'"]
    for ch in s:
        c = ord(ch)
        if is_bytes and c >= 0x80:
            out.append("\\x%02x" % c)
            continue
        if ch == "\\":
            out.append("\\\\")
        elif ch == "'":
            out.append("\\'")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\r":
            out.append("\\r")
        elif c < 0x20 or c == 0x7F:
            out.append("\\x%02x" % c)
        else:
            out.append(ch)
    out.append("'")
    return "".join(out)


class Dumper:
    def __init__(self, source, name, locations):
        self.lines = source.split("\n")
        self.source = source
        self.out = []
        self.name = name
        self.locations = locations

    # CPython columns are UTF-8 byte offsets; tlec's are 1-based code points.
    def col(self, line, byte_col):
        text = self.lines[line - 1].encode("utf-8")
        return len(text[:byte_col].decode("utf-8", errors="replace")) + 1

    def loc(self, node, begin=None):
        if not self.locations or not hasattr(node, "lineno"):
            return ""
        bl, bc = begin if begin else (node.lineno, self.col(node.lineno, node.col_offset))
        el, ec = node.end_lineno, self.col(node.end_lineno, node.end_col_offset)
        return " <%d:%d-%d:%d>" % (bl, bc, el, ec)

    def open(self, depth, label, head, node=None, begin=None):
        text = "  " * depth + (label + ": " if label else "") + head
        if node is not None:
            text += self.loc(node, begin)
        self.out.append(text)

    def module(self, mod):
        self.out.append("Module " + quote(self.name))
        for s in mod.body:
            self.stmt(1, "", s)

    def block(self, d, label, stmts):
        if stmts:
            self.out.append("  " * d + label + ":")
            for s in stmts:
                self.stmt(d + 1, "", s)

    def opt(self, d, label, e):
        if e is not None:
            self.expr(d, label, e)

    def params(self, d, a):
        defaults = [None] * (len(a.posonlyargs) + len(a.args) - len(a.defaults)) + list(a.defaults)
        positional = [(p, True) for p in a.posonlyargs] + [(p, False) for p in a.args]
        for (p, posonly), default in zip(positional, defaults):
            self.param(d, p.arg, p, p.annotation, default, posonly=posonly)
        if a.vararg:
            self.param(d, "*" + a.vararg.arg, a.vararg, a.vararg.annotation, None, star=True)
        elif a.kwonlyargs:
            # CPython keeps no node (and no range) for a bare '*'.
            self.out.append("  " * d + "param *" + (" <?>" if self.locations else ""))
        for p, default in zip(a.kwonlyargs, a.kw_defaults):
            self.param(d, p.arg, p, p.annotation, default, kwonly=True)
        if a.kwarg:
            self.param(d, "**" + a.kwarg.arg, a.kwarg, a.kwarg.annotation, None, star=True)

    def param(self, d, name, node, annotation, default, posonly=False, kwonly=False, star=False):
        head = "param " + name + (" positional-only" if posonly else "") + (" keyword-only" if kwonly else "")
        # A tlec param spans `name: annotation = default`; CPython's arg node omits the default.
        text = "  " * d + head
        if self.locations:
            end = default if default is not None else node
            bl, bc = node.lineno, self.col(node.lineno, node.col_offset)
            if star:
                bc -= 2 if name.startswith("**") else 1
            text += " <%d:%d-%d:%d>" % (bl, bc, end.end_lineno, self.col(end.end_lineno, end.end_col_offset))
        self.out.append(text)
        self.opt(d + 1, "annotation", annotation)
        self.opt(d + 1, "default", default)

    def generators(self, d, gens):
        for g in gens:
            # tlec's comprehension node spans `for target in iter [if ...]`; CPython keeps no range.
            self.out.append("  " * d + "comprehension" + ("" if not self.locations else " <?>"))
            self.expr(d + 1, "target", g.target)
            self.expr(d + 1, "iter", g.iter)
            for c in g.ifs:
                self.expr(d + 1, "if", c)

    BINOPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.MatMult: "@", ast.Div: "/", ast.FloorDiv: "//",
              ast.Mod: "%", ast.Pow: "**", ast.LShift: "<<", ast.RShift: ">>", ast.BitOr: "|",
              ast.BitXor: "^", ast.BitAnd: "&"}
    UNOPS = {ast.Invert: "~", ast.Not: "not", ast.UAdd: "+", ast.USub: "-"}
    CMPOPS = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=",
              ast.Is: "is", ast.IsNot: "is not", ast.In: "in", ast.NotIn: "not in"}

    def constant(self, e):
        v = e.value
        if v is None:
            return "Constant None"
        if v is Ellipsis:
            return "Constant Ellipsis"
        if isinstance(v, bool):
            return "Constant bool " + str(v)
        if isinstance(v, (int, float)):
            spelling = ast.get_source_segment(self.source, e).replace("_", "")
            return ("Constant int " if isinstance(v, int) else "Constant float ") + spelling
        if isinstance(v, bytes):
            return "Constant bytes " + quote(v.decode("latin-1"), is_bytes=True)
        return "Constant str " + quote(v)

    def expr(self, d, label, e):
        t = type(e)
        if t is ast.Name:
            self.open(d, label, "Name " + e.id, e)
        elif t is ast.Constant:
            self.open(d, label, self.constant(e), e)
        elif t is ast.JoinedStr:
            self.open(d, label, "Constant fstring <f-string>", e)
        elif t is ast.Attribute:
            self.open(d, label, "Attribute ." + e.attr, e)
            self.expr(d + 1, "value", e.value)
        elif t is ast.Subscript:
            self.open(d, label, "Subscript", e)
            self.expr(d + 1, "value", e.value)
            self.expr(d + 1, "slice", e.slice)
        elif t is ast.Slice:
            self.open(d, label, "Slice", e)
            self.opt(d + 1, "lower", e.lower)
            self.opt(d + 1, "upper", e.upper)
            self.opt(d + 1, "step", e.step)
        elif t is ast.Call:
            self.open(d, label, "Call", e)
            self.expr(d + 1, "func", e.func)
            for a in e.args:
                self.expr(d + 1, "arg", a)
            for k in e.keywords:
                self.expr(d + 1, "keyword " + (k.arg if k.arg else "**"), k.value)
        elif t is ast.Starred:
            self.open(d, label, "Starred", e)
            self.expr(d + 1, "value", e.value)
        elif t is ast.BinOp:
            self.open(d, label, "BinOp " + self.BINOPS[type(e.op)], e)
            self.expr(d + 1, "left", e.left)
            self.expr(d + 1, "right", e.right)
        elif t is ast.UnaryOp:
            self.open(d, label, "UnaryOp " + self.UNOPS[type(e.op)], e)
            self.expr(d + 1, "operand", e.operand)
        elif t is ast.BoolOp:
            self.open(d, label, "BoolOp " + ("and" if type(e.op) is ast.And else "or"), e)
            for v in e.values:
                self.expr(d + 1, "value", v)
        elif t is ast.Compare:
            self.open(d, label, "Compare" + "".join(" " + self.CMPOPS[type(o)] for o in e.ops), e)
            self.expr(d + 1, "left", e.left)
            for c in e.comparators:
                self.expr(d + 1, "right", c)
        elif t is ast.IfExp:
            self.open(d, label, "IfExp", e)
            self.expr(d + 1, "test", e.test)
            self.expr(d + 1, "body", e.body)
            self.expr(d + 1, "orelse", e.orelse)
        elif t is ast.Lambda:
            self.open(d, label, "Lambda", e)
            self.params(d + 1, e.args)
            self.expr(d + 1, "body", e.body)
        elif t in (ast.Tuple, ast.List, ast.Set):
            self.open(d, label, t.__name__, e)
            for v in e.elts:
                self.expr(d + 1, "elt", v)
        elif t is ast.Dict:
            self.open(d, label, "Dict", e)
            for k, v in zip(e.keys, e.values):
                if k is not None:
                    self.expr(d + 1, "key", k)
                self.expr(d + 1, "value" if k is not None else "unpack", v)
        elif t in (ast.ListComp, ast.SetComp, ast.GeneratorExp):
            self.open(d, label, t.__name__, e)
            self.expr(d + 1, "elt", e.elt)
            self.generators(d + 1, e.generators)
        elif t is ast.DictComp:
            self.open(d, label, "DictComp", e)
            self.expr(d + 1, "key", e.key)
            self.expr(d + 1, "value", e.value)
            self.generators(d + 1, e.generators)
        else:
            raise SystemExit("pyast_dump: unsupported expression %s" % t.__name__)

    def stmt(self, d, label, s):
        t = type(s)
        if t is ast.FunctionDef:
            # tlec's FunctionDef range starts at the first decorator.
            begin = None
            if s.decorator_list:
                first = s.decorator_list[0]
                begin = (first.lineno, self.col(first.lineno, first.col_offset) - 1)
            self.open(d, label, "FunctionDef " + s.name, s, begin)
            for dec in s.decorator_list:
                self.expr(d + 1, "decorator", dec)
            self.params(d + 1, s.args)
            self.opt(d + 1, "returns", s.returns)
            self.block(d + 1, "body", s.body)
        elif t is ast.Return:
            self.open(d, label, "Return", s)
            self.opt(d + 1, "value", s.value)
        elif t is ast.Assign:
            self.open(d, label, "Assign", s)
            for tg in s.targets:
                self.expr(d + 1, "target", tg)
            self.expr(d + 1, "value", s.value)
        elif t is ast.AugAssign:
            self.open(d, label, "AugAssign " + self.BINOPS[type(s.op)] + "=", s)
            self.expr(d + 1, "target", s.target)
            self.expr(d + 1, "value", s.value)
        elif t is ast.AnnAssign:
            self.open(d, label, "AnnAssign", s)
            self.expr(d + 1, "target", s.target)
            self.expr(d + 1, "annotation", s.annotation)
            self.opt(d + 1, "value", s.value)
        elif t in (ast.For, ast.While, ast.If):
            self.open(d, label, t.__name__, s)
            if t is ast.For:
                self.expr(d + 1, "target", s.target)
                self.expr(d + 1, "iter", s.iter)
            else:
                self.expr(d + 1, "test", s.test)
            self.block(d + 1, "body", s.body)
            self.block(d + 1, "orelse", s.orelse)
        elif t is ast.With:
            self.open(d, label, "With", s)
            for item in s.items:
                self.expr(d + 1, "item", item.context_expr)
                self.opt(d + 2, "as", item.optional_vars)
            self.block(d + 1, "body", s.body)
        elif t is ast.Assert:
            self.open(d, label, "Assert", s)
            self.expr(d + 1, "test", s.test)
            self.opt(d + 1, "msg", s.msg)
        elif t in (ast.Import, ast.ImportFrom):
            head = "Import" if t is ast.Import else "ImportFrom " + "." * s.level + (s.module or "")
            self.open(d, label, head, s)
            for a in s.names:
                self.open(d + 1, "", "alias " + a.name + (" as " + a.asname if a.asname else ""), a)
        elif t is ast.Expr:
            self.open(d, label, "Expr", s)
            self.expr(d + 1, "value", s.value)
        elif t in (ast.Pass, ast.Break, ast.Continue):
            self.open(d, label, t.__name__, s)
        else:
            raise SystemExit("pyast_dump: unsupported statement %s" % t.__name__)


def main():
    args = sys.argv[1:]
    locations = "--no-locations" not in args
    args = [a for a in args if a != "--no-locations"]
    path = args[0]
    name = args[1] if len(args) > 1 else path
    with open(path, encoding="utf-8") as f:
        source = f.read()
    dumper = Dumper(source, name, locations)
    dumper.module(ast.parse(source, path))
    print("\n".join(dumper.out))


if __name__ == "__main__":
    main()
