"""tools/dat3m/litmus.py - reads PTX litmus tests of the Dat3M dialect (LitmusPTX.g4) for the
independent evaluator (tools/dat3m/check.py), and turns each thread into events the way Dat3M's
PTX front end does: a load, a store, an atomic operation as a load and a store related by rmw
(the store always happens: a failed atom.cas writes back what it read), fences tagged with their
order (fence.sc: SC only), Dat3M's barriers with their instance, ID and quorum.

Only what the random generator (tools/dat3m/gen.py) writes and the straight-line tests of the
public suite use is read: no branches, no proxies or aliases; anything else raises Unsupported.
Shares no code with ptxlitmus's front end.
"""

import re


class Unsupported(Exception):
    pass


SEMS = {"weak": "WEAK", "relaxed": "RLX", "acquire": "ACQ", "release": "REL",
        "acq_rel": "ACQ_REL", "sc": "SC"}
SCOPES = {"cta": "CTA", "gpu": "GPU", "sys": "SYS"}


class Test:
    def __init__(self):
        self.name = ""
        self.init = {}          # location -> value
        self.reg_init = {}      # (thread, reg) -> value
        self.threads = []       # [(cta, gpu)]
        self.code = []          # per thread: list of instruction strings
        self.quant = "exists"
        self.cond = None        # condition AST
        self.locations = []     # observables listed by `locations [...]`


def split_cells(line):
    line = line.strip()
    if line.endswith(";"):
        line = line[:-1]
    return [c.strip() for c in line.split("|")]


def parse(text):
    t = Test()
    text = re.sub(r'"[^"]*"', " ", text, flags=re.S)      # doc strings
    lines = [l for l in text.split("\n")]
    head = lines[0].split()
    if not head or head[0] != "PTX":
        raise Unsupported("not a PTX test")
    t.name = head[1] if len(head) > 1 else ""
    body = "\n".join(lines[1:])
    m = re.search(r"\{(.*?)\}", body, re.S)
    if not m:
        raise Unsupported("no initial state")
    for item in re.split(r"[;\n]", m.group(1)):
        item = item.strip()
        if not item:
            continue
        lhs, _, rhs = item.partition("=")
        lhs, rhs = lhs.strip(), rhs.strip()
        if lhs.startswith("P") and ":" in lhs:
            th, reg = lhs.split(":")
            if not re.fullmatch(r"-?\d+", rhs):
                raise Unsupported("register holding an address")
            t.reg_init[(int(th[1:]), reg)] = int(rhs)
        else:
            lhs = lhs.split()[-1]
            if not re.fullmatch(r"-?\d+", rhs):
                raise Unsupported("location %s = %s" % (lhs, rhs))
            t.init[lhs] = int(rhs)
    rest = body[m.end():]
    rows = []
    tail = []
    for line in rest.split("\n"):
        s = line.strip()
        if not s:
            continue
        if tail or re.match(r"(exists|~exists|not exists|forall|locations|filter)\b", s):
            tail.append(s)
        else:
            rows.append(s)
    if not rows:
        raise Unsupported("no threads")
    hdr = split_cells(rows[0])
    for h in hdr:
        mm = re.fullmatch(r"P(\d+)\s*@\s*cta\s+(\d+)\s*,\s*gpu\s+(\d+)", h)
        if not mm:
            raise Unsupported("thread header %r" % h)
        t.threads.append((int(mm.group(2)), int(mm.group(3))))
    t.code = [[] for _ in t.threads]
    for r in rows[1:]:
        cells = split_cells(r)
        for i, c in enumerate(cells):
            if c and i < len(t.code):
                t.code[i].append(c)
    tail = " ".join(tail)
    lm = re.search(r"locations\s*\[(.*?)\]", tail)
    if lm:
        t.locations = [x.strip() for x in lm.group(1).split(";") if x.strip()]
        tail = tail[:lm.start()] + tail[lm.end():]
    tail = tail.strip().rstrip(";")
    qm = re.match(r"(~exists|not exists|exists|forall)", tail)
    if not qm:
        raise Unsupported("condition %r" % tail)
    t.quant = {"~exists": "~exists", "not exists": "~exists"}.get(qm.group(1), qm.group(1))
    t.cond = Cond(tail[qm.end():]).parse()
    return t


class Cond:
    """Conditions: atoms `P0:r0 == 1`, `x = 2`, `x != 0`; `/\\`, `\\/`, `~`, `not`, ()."""
    TOK = re.compile(r"\s*(/\\|\\/|==|!=|=|~|\(|\)|P\d+:\w+|\w+|-?\d+)")

    def __init__(self, text):
        self.toks = []
        pos = 0
        text = text.strip()
        while pos < len(text):
            m = self.TOK.match(text, pos)
            if not m:
                raise Unsupported("condition near %r" % text[pos:])
            self.toks.append(m.group(1))
            pos = m.end()
        self.i = 0

    def peek(self):
        return self.toks[self.i] if self.i < len(self.toks) else None

    def parse(self):
        e = self.disj()
        if self.peek() is not None:
            raise Unsupported("condition: %r left" % self.peek())
        return e

    def disj(self):
        return self.binary("\\/", "or", self.conj)

    def conj(self):
        return self.binary("/\\", "and", self.unary)

    def binary(self, tok, op, operand):
        e = operand()
        while self.peek() == tok:
            self.i += 1
            e = (op, e, operand())
        return e

    def unary(self):
        tok = self.peek()
        if tok in ("~", "not"):
            self.i += 1
            return ("not", self.unary())
        if tok == "(":
            self.i += 1
            e = self.disj()
            if self.peek() != ")":
                raise Unsupported("condition: ) expected")
            self.i += 1
            return e
        if tok in ("true", "false"):
            self.i += 1
            return ("const", tok == "true")
        lhs = self.toks[self.i]
        op = self.toks[self.i + 1]
        rhs = self.toks[self.i + 2]
        self.i += 3
        if op not in ("==", "=", "!="):
            raise Unsupported("comparison %r" % op)
        return ("cmp", op, lhs, int(rhs) if re.fullmatch(r"-?\d+", rhs) else rhs)


def cond_refs(c, out):
    if c[0] == "cmp":
        out.append(c[2])
        if isinstance(c[3], str):
            out.append(c[3])
    elif c[0] in ("and", "or"):
        cond_refs(c[1], out)
        cond_refs(c[2], out)
    elif c[0] == "not":
        cond_refs(c[1], out)
    return out


def cond_eval(c, state):
    k = c[0]
    if k == "const":
        return c[1]
    if k == "not":
        return not cond_eval(c[1], state)
    if k == "and":
        return cond_eval(c[1], state) and cond_eval(c[2], state)
    if k == "or":
        return cond_eval(c[1], state) or cond_eval(c[2], state)
    v = state[c[2]]
    w = state[c[3]] if isinstance(c[3], str) else c[3]
    return v != w if c[1] == "!=" else v == w


# ---------- events ----------

class Ev:
    def __init__(self, **kw):
        self.tid = None
        self.loc = None
        self.tags = set()
        self.dest = None         # register a load writes (after the whole operation)
        self.value = None        # a store: ("const", v) | ("reg", r) | ("rmw", op, b, c)
        self.pair = None         # the other event of an atomic operation
        self.bar = None          # (inst, named, id, quorum, arrive)
        self.__dict__.update(kw)


def operand(tok):
    tok = tok.strip()
    if re.fullmatch(r"-?\d+", tok):
        return ("const", int(tok))
    if re.fullmatch(r"r\d+", tok):
        return ("reg", tok)
    raise Unsupported("operand %r" % tok)


def load_store_mo(sem):
    """Dat3M's Tag.PTX.loadMO/storeMO: the orders of an atomic operation's two events."""
    ld = "ACQ" if sem in ("ACQ", "ACQ_REL") else "RLX"
    st = "REL" if sem in ("REL", "ACQ_REL") else "RLX"
    return ld, st


def thread_events(t, tid):
    """The events of thread tid, in program order."""
    evs = []
    for ins in t.code[tid]:
        word, _, args = ins.partition(" ")
        args = [a.strip() for a in args.split(",")] if args.strip() else []
        parts = word.split(".")
        op = parts[0]
        if op in ("ld", "st"):
            if op == "ld" and len(parts) == 1:
                raise Unsupported("ld of a constant")
            sem = SEMS.get(parts[1]) if len(parts) > 1 else None
            if sem is None or sem not in ("WEAK", "RLX", "ACQ", "REL"):
                raise Unsupported(word)
            scope = SCOPES[parts[2]] if len(parts) > 2 else "SYS"
            tags = {sem, scope, "GEN", "M"}
            if op == "ld":
                if not re.fullmatch(r"\w+", args[1]) or args[1].startswith("r"):
                    raise Unsupported(ins)
                evs.append(Ev(kind="R", tid=tid, loc=args[1], dest=args[0], tags=tags | {"R"}))
            else:
                evs.append(Ev(kind="W", tid=tid, loc=args[0], value=operand(args[1]),
                              tags=tags | {"W"}))
        elif op in ("atom", "red"):
            if len(parts) != 4 or parts[1] not in SEMS or parts[2] not in SCOPES:
                raise Unsupported(word)
            ld, st = load_store_mo(SEMS[parts[1]])
            scope, aop = SCOPES[parts[2]], parts[3]
            if op == "atom":
                dest, loc, ops = args[0], args[1], [operand(a) for a in args[2:]]
            else:
                dest, loc, ops = None, args[0], [operand(a) for a in args[1:]]
            if aop not in ("add", "sub", "exch", "cas", "and", "or", "xor") or \
                    len(ops) != (2 if aop == "cas" else 1):
                raise Unsupported(ins)
            r = Ev(kind="R", tid=tid, loc=loc, dest=dest, tags={ld, scope, "GEN", "M", "R"})
            w = Ev(kind="W", tid=tid, loc=loc, value=("rmw", aop) + tuple(ops),
                   tags={st, scope, "GEN", "M", "W"})
            r.pair, w.pair = w, r
            evs += [r, w]
        elif op == "fence":
            if len(parts) != 3 or parts[1] not in ("sc", "acq_rel") or parts[2] not in SCOPES:
                raise Unsupported(word)
            evs.append(Ev(kind="F", tid=tid, tags={SEMS[parts[1]], SCOPES[parts[2]], "GEN", "F"}))
        elif op == "bar" and len(parts) == 3 and parts[1] == "cta" and \
                parts[2] in ("sync", "arrive"):
            ops = [operand(a) for a in args]
            if ops[0][0] != "const":
                raise Unsupported(ins)
            named = len(ops) >= 2
            evs.append(Ev(kind="B", tid=tid, tags={"F"},
                          bar=(ops[0][1], named, ops[1] if named else None,
                               ops[2] if len(ops) == 3 else None, parts[2] == "arrive")))
        else:
            raise Unsupported(word)
    return evs
