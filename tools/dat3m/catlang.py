"""tools/dat3m/catlang.py - a small interpreter of the cat language as Dat3M reads it
(../shared/spec/cat/dat3m-Cat.g4), written for the independent evaluation of Dat3M's PTX models
(tools/dat3m/check.py).  It shares no code with ptxlitmus's cat front end (frontend/cat_*.c)
or its Z3 evaluation (solver/cat_eval.c): a relation is a list of bit masks over the events of
one candidate execution, a set one bit mask, and every operator is computed directly.

Precedence (dat3m-Cat.g4, tightest first): cartesian `*` and the postfix operators
(`*` `+` `^-1` `?`), prefix `~`, `&`, `\\`, `;`, `|`.
"""

import re

TOKEN = re.compile(r"""
    (?P<ws>\s+) | (?P<lc>//[^\n]*) | (?P<bc>\(\*.*?\*\)|/\*.*?\*/) |
    (?P<str>"[^"]*") | (?P<inv>\^-1|-1(?![A-Za-z0-9_.\-])) | (?P<pow>\^) |
    (?P<name>[A-Za-z0-9_.\-]+) | (?P<p>[=*+?~&|;\\()\[\],])
""", re.S | re.X)

KEYWORDS = {"let", "rec", "and", "as", "acyclic", "irreflexive", "empty", "flag",
            "undefined_unless", "include", "show", "domain", "range", "toid"}


class CatError(Exception):
    pass


def tokenize(text):
    out, pos = [], 0
    while pos < len(text):
        m = TOKEN.match(text, pos)
        if not m:
            raise CatError("cannot read %r" % text[pos:pos + 20])
        pos = m.end()
        kind = m.lastgroup
        if kind in ("ws", "lc", "bc"):
            continue
        v = m.group(kind)
        if kind == "inv":
            out.append(("p", "^-1"))
        elif kind == "pow":
            continue          # `r^+` is `r+`: the caret only prefixes a postfix operator
        elif kind == "name":
            out.append(("kw" if v in KEYWORDS else "name", v))
        else:
            out.append((kind, v))
    out.append(("eof", None))
    return out


class Parser:
    """Statements: ('let', name, ast) ('fun', name, params, ast) ('rec', [(name, ast)])
    ('check', kind, negated, flag, ast, name) ('include', path)."""

    def __init__(self, text):
        self.t = tokenize(text)
        self.i = 0

    def peek(self, k=0):
        return self.t[self.i + k]

    def take(self, kind=None, value=None):
        tok = self.t[self.i]
        if (kind and tok[0] != kind) or (value is not None and tok[1] != value):
            raise CatError("found %r, expected %s" % (tok[1], value or kind))
        self.i += 1
        return tok

    def model(self):
        stmts = []
        while self.peek()[0] == "name":      # the model's name
            self.i += 1
        if self.peek()[0] == "str":
            self.i += 1
        while self.peek()[0] != "eof":
            stmts.append(self.statement())
        return stmts

    def statement(self):
        tok = self.peek()
        if tok == ("kw", "include"):
            self.i += 1
            return ("include", self.take("str")[1].strip('"'))
        if tok == ("kw", "let"):
            self.i += 1
            if self.peek() == ("kw", "rec"):
                self.i += 1
                return ("rec", self.many(self.binding, ("kw", "and")))
            name = self.take("name")[1]
            if self.peek() == ("p", "("):
                self.i += 1
                params = self.many(lambda: self.take("name")[1], ("p", ","))
                self.take("p", ")")
                self.take("p", "=")
                return ("fun", name, params, self.expr())
            self.take("p", "=")
            return ("let", name, self.expr())
        flag = negated = False
        if tok in (("kw", "flag"), ("kw", "undefined_unless")):
            flag = True
            self.i += 1
        if self.peek() == ("p", "~"):
            negated = True
            self.i += 1
        kind = self.take("kw")[1]
        if kind not in ("acyclic", "irreflexive", "empty"):
            raise CatError("found %r, expected a check" % kind)
        e = self.expr()
        name = None
        if self.peek() == ("kw", "as"):
            self.i += 1
            name = self.take("name")[1]
        return ("check", kind, negated, flag, e, name)

    def many(self, item, sep):
        """item (sep item)*"""
        out = [item()]
        while self.peek() == sep:
            self.i += 1
            out.append(item())
        return out

    def binding(self):
        name = self.take("name")[1]
        self.take("p", "=")
        return (name, self.expr())

    # expression levels, loosest first
    def expr(self):
        return self.binary(0)

    LEVELS = ["|", ";", "\\", "&"]

    def binary(self, lvl):
        if lvl == len(self.LEVELS):
            return self.unary()
        op = self.LEVELS[lvl]
        left = self.binary(lvl + 1)
        while self.peek() == ("p", op):
            self.i += 1
            left = (op, left, self.binary(lvl + 1))
        return left

    def unary(self):
        if self.peek() == ("p", "~"):
            self.i += 1
            return ("~", self.unary())
        return self.postfix()

    def starts_expr(self, tok):
        return tok[0] == "name" or tok in (("p", "("), ("p", "["), ("p", "~"),
                                           ("kw", "domain"), ("kw", "range"), ("kw", "toid"))

    def postfix(self):
        e = self.primary()
        while True:
            tok = self.peek()
            if tok == ("p", "*") and self.starts_expr(self.peek(1)):
                self.i += 1
                e = ("cart", e, self.primary())
            elif tok in (("p", "*"), ("p", "+"), ("p", "?"), ("p", "^-1")):
                self.i += 1
                e = (tok[1], e)
            else:
                return e

    def primary(self):
        tok = self.take()
        if tok == ("p", "("):
            e = self.expr()
            self.take("p", ")")
            return e
        if tok == ("p", "["):
            e = self.expr()
            self.take("p", "]")
            return ("id", e)
        if tok[0] == "kw" and tok[1] in ("domain", "range", "toid"):
            self.take("p", "(")
            e = self.expr()
            self.take("p", ")")
            return ("id" if tok[1] == "toid" else tok[1], e)
        if tok[0] == "name":
            if self.peek() == ("p", "("):
                self.i += 1
                args = self.many(self.expr, ("p", ","))
                self.take("p", ")")
                return ("call", tok[1], args)
            return ("var", tok[1])
        raise CatError("found %r, expected an expression" % (tok[1],))


def load(path, search=()):
    """The statements of a cat file, its includes expanded in place (each once)."""
    import os
    seen = set()

    def read(p):
        if p in seen:
            return []
        seen.add(p)
        with open(p) as f:
            stmts = Parser(f.read()).model()
        out = []
        for s in stmts:
            if s[0] == "include":
                for d in [os.path.dirname(p)] + list(search):
                    q = os.path.join(d, s[1])
                    if os.path.exists(q):
                        out += read(q)
                        break
                else:
                    raise CatError("include %s: not found" % s[1])
            else:
                out.append(s)
        return out
    return read(path)


# ---------- values: a set is an int (bit i: event i), a relation a tuple of n row masks ----------

class Rel(tuple):
    pass


def bits(m):
    while m:
        low = m & -m
        yield low.bit_length() - 1
        m ^= low


def r_union(a, b):
    return Rel(x | y for x, y in zip(a, b))


def r_inter(a, b):
    return Rel(x & y for x, y in zip(a, b))


def r_diff(a, b):
    return Rel(x & ~y for x, y in zip(a, b))


def r_seq(a, b):
    out = []
    for row in a:
        acc = 0
        while row:
            low = row & -row
            acc |= b[low.bit_length() - 1]
            row ^= low
        out.append(acc)
    return Rel(out)


def r_inv(a):
    out = [0] * len(a)
    for i, row in enumerate(a):
        for j in bits(row):
            out[j] |= 1 << i
    return Rel(out)


def r_plus(a):
    rows = list(a)
    for k in range(len(rows)):
        bk = 1 << k
        rk = rows[k]
        for i in range(len(rows)):
            if rows[i] & bk:
                rows[i] |= rk
    return Rel(rows)


def r_id(s, n):
    return Rel((1 << i) if s >> i & 1 else 0 for i in range(n))


INF = 1 << 30


class Model:
    """A loaded model: its statements; `dynamic` maps the base names chosen per candidate to
    a stage (1, 2, ...): what depends only on earlier stages is computed once per stage."""

    def __init__(self, stmts, dynamic):
        self.stmts = stmts
        self.dynamic = dynamic


class Evaluator:
    """Evaluates a Model over n events: base(name) gives a set (int) or a relation (Rel) for the
    base names of the current candidate.  Every sub-expression is computed once per stage of
    the bases it reads (forget(stage) when a base of that stage changes)."""

    def __init__(self, model, n, base):
        self.m, self.n, self.base = model, n, base
        self.full = (1 << n) - 1
        self.stages = 1 + max([0] + list(model.dynamic.values()))
        self.memo = [dict() for _ in range(self.stages)]
        self.node_stage = {}
        self.recs = {}
        scope, self.plan = {}, []
        for idx, s in enumerate(model.stmts):
            if s[0] == "let":
                st = self.annotate(s[2], scope)
                scope[s[1]] = st
                self.plan.append((idx, st))
            elif s[0] == "fun":
                scope[s[1]] = INF
                self.plan.append((idx, INF))
            elif s[0] == "rec":
                inner = dict(scope)
                for name, _ in s[1]:
                    inner[name] = INF           # inside the fixpoint: recomputed each round
                for b in s[1]:
                    self.annotate(b[1], inner)
                st = max(self.stage_outside(b[1], scope, {nm for nm, _ in s[1]}) for b in s[1])
                for name, _ in s[1]:
                    scope[name] = st
                self.plan.append((idx, st))
            else:
                self.plan.append((idx, self.annotate(s[4], scope)))

    def stage_outside(self, a, scope, own):
        """The stage of a recursive binding: that of the names it reads besides its own."""
        if a[0] == "var":
            return 0 if a[1] in own else scope.get(a[1], self.m.dynamic.get(a[1], 0))
        kids = [c for c in a[1:] if isinstance(c, tuple)] + (a[2] if a[0] == "call" else [])
        return max([0] + [self.stage_outside(c, scope, own) for c in kids])

    def annotate(self, a, scope):
        k = a[0]
        if k == "var":
            st = scope.get(a[1], self.m.dynamic.get(a[1], 0))
        elif k == "call":
            for arg in a[2]:
                self.annotate(arg, scope)
            st = INF
        else:
            st = max([0] + [self.annotate(c, scope) for c in a[1:] if isinstance(c, tuple)])
        if st < INF and k != "var":
            self.node_stage[id(a)] = st
        return st

    def forget(self, stage):
        """A base of this stage changed: drop the values that depend on it."""
        for k in range(stage, self.stages):
            self.memo[k] = {}

    def environments(self):
        """The environment of every check (bindings are lazy: their values live in memo)."""
        env, out = {}, []
        for idx, st in self.plan:
            s = self.m.stmts[idx]
            if s[0] == "let":
                prev, env = env, dict(env)
                env[s[1]] = ("lazy", idx, st, s[2], prev)
            elif s[0] == "fun":
                prev, env = env, dict(env)
                env[s[1]] = ("fun", s[2], s[3], prev)
            elif s[0] == "rec":
                env = dict(env)
                for name, _ in s[1]:
                    env[name] = ("rec", idx, st, name)
                self.recs[idx] = (s[1], env)
            elif s[0] == "check" and not s[3]:
                out.append((idx, min(st, self.stages - 1), s, env))
        return out

    def run(self, upto):
        """Checks whose stage is at most upto; returns the failed check (name) or None."""
        if not hasattr(self, "checks"):
            self.checks = self.environments()
        for idx, st, s, env in self.checks:
            if st > upto:
                continue
            memo = self.memo[st]
            key = ("check", idx)
            ok = memo.get(key)
            if ok is None:
                ok = memo[key] = self.check(s[1], self.eval(s[4], env)) != s[2]
            if not ok:
                return s[5] or "%s#%d" % (s[1], idx)
        return None

    def check(self, kind, v):
        if isinstance(v, int):
            v = r_id(v, self.n)
        if kind == "empty":
            return not any(v)
        if kind == "irreflexive":
            return not any(row >> i & 1 for i, row in enumerate(v))
        return not any(row >> i & 1 for i, row in enumerate(r_plus(v)))

    def lookup(self, name, env):
        b = env.get(name)
        if b is None:
            if name == "_":
                return self.full
            if name == "id":
                return r_id(self.full, self.n)
            v = self.base(name)
            if v is None:
                raise CatError("unknown name %s" % name)
            return v
        if b[0] == "val":
            return b[1]
        if b[0] == "lazy":
            _, idx, st, ast, benv = b
            memo = self.memo[min(st, self.stages - 1)]
            key = ("let", idx)
            v = memo.get(key)
            if v is None:
                v = memo[key] = self.eval(ast, benv)
            return v
        if b[0] == "rec":
            _, idx, st, nm = b
            memo = self.memo[min(st, self.stages - 1)]
            key = ("rec", idx)
            v = memo.get(key)
            if v is None:
                v = memo[key] = self.fixpoint(*self.recs[idx])
            return v[nm]
        raise CatError("%s is a function" % name)

    def fixpoint(self, binds, env):
        vals = {name: Rel([0] * self.n) for name, _ in binds}
        while True:
            e = dict(env)
            for name in vals:
                e[name] = ("val", vals[name])
            new = {name: self.eval(ast, e) for name, ast in binds}
            if new == vals:
                return new
            vals = new

    def eval(self, a, env):
        st = self.node_stage.get(id(a))
        if st is None:
            return self.compute(a, env)
        memo = self.memo[min(st, self.stages - 1)]
        v = memo.get(id(a))
        if v is None:
            v = memo[id(a)] = self.compute(a, env)
        return v

    def compute(self, a, env):
        k = a[0]
        n = self.n
        if k == "var":
            return self.lookup(a[1], env)
        if k == "call":
            f = env.get(a[1])
            if not f or f[0] != "fun":
                raise CatError("%s is not a function" % a[1])
            e = dict(f[3])
            for p, arg in zip(f[1], a[2]):
                e[p] = ("val", self.eval(arg, env))
            return self.compute_body(f[2], e)
        if k in ("|", "&", "\\", ";"):
            x, y = self.eval(a[1], env), self.eval(a[2], env)
            if k == ";":
                x = r_id(x, n) if isinstance(x, int) else x
                y = r_id(y, n) if isinstance(y, int) else y
                return r_seq(x, y)
            if isinstance(x, int) and isinstance(y, int):
                return x | y if k == "|" else x & y if k == "&" else x & ~y
            x = r_id(x, n) if isinstance(x, int) else x
            y = r_id(y, n) if isinstance(y, int) else y
            return r_union(x, y) if k == "|" else r_inter(x, y) if k == "&" else r_diff(x, y)
        if k == "cart":
            x, y = self.eval(a[1], env), self.eval(a[2], env)
            return Rel(y if x >> i & 1 else 0 for i in range(n))
        if k == "id":
            return r_id(self.eval(a[1], env), n)
        if k == "~":
            x = self.eval(a[1], env)
            if isinstance(x, int):
                return self.full & ~x
            return Rel(self.full & ~row for row in x)
        if k in ("domain", "range"):
            x = self.eval(a[1], env)
            if k == "domain":
                return sum(1 << i for i, row in enumerate(x) if row)
            acc = 0
            for row in x:
                acc |= row
            return acc
        x = self.eval(a[1], env)
        if isinstance(x, int):
            x = r_id(x, n)
        if k == "^-1":
            return r_inv(x)
        if k == "+":
            return r_plus(x)
        if k == "*":
            return r_union(r_plus(x), r_id(self.full, n))
        if k == "?":
            return r_union(x, r_id(self.full, n))
        raise CatError("unknown operator %s" % k)

    def compute_body(self, a, env):
        """A function body: its parameters differ per call, so nothing in it is kept."""
        saved = self.node_stage
        self.node_stage = {}
        try:
            return self.compute(a, env)
        finally:
            self.node_stage = saved
