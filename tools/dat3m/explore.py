"""tools/dat3m/explore.py - the reachable final states of a litmus test under a Dat3M cat model,
by brute force: every candidate execution of the test's events (tools/dat3m/litmus.py) is built
and the model (tools/dat3m/catlang.py) decides whether it is consistent.

A candidate, as Dat3M's encoding defines one for a terminating execution of straight-line code:
- rf: every read takes its value from one write of its location (the initial write included);
  values follow (an atomic store from the value its load read);
- co: a strict partial order of each location's writes, the initial write first (Dat3M's PTX
  coherence is not total; its cat file closes it with co+, so partial orders cover every
  acyclic relation up to closure);
- sync_fence: a strict order of the fence.sc pairs whose scopes include each other's thread
  (Dat3M's clock encoding); a pair that does not is unconstrained by Dat3M's encoding, so each
  such edge is free (--sc-nonms free), or absent (--sc-nonms none);
- syncbar: Dat3M's barriers: all reached (straight-line code), an instance of a quorum Q needs
  Q events of its ID, of which a chosen subset of at least Q synchronizes.
The final value of a location is that of a coherence-maximal write (Dat3M's lastCo).
Candidates whose rf and dependencies form a cycle are skipped: acyclic(rf | addr | data | ctrl)
is an axiom of both Dat3M PTX models (checked on the model text).
"""

import itertools

from . import catlang
from .litmus import thread_events, cond_eval


def partial_orders(k):
    """Every strict partial order on k elements, as lists of pairs."""
    out = []

    def closed(rel):
        for (a, b) in rel:
            for (c, d) in rel:
                if b == c and (a, d) not in rel:
                    return False
        return True

    # choose for each unordered pair: none, i<j, j<i; keep transitive, antisymmetric ones
    unordered = [(i, j) for i in range(k) for j in range(i + 1, k)]
    for choice in itertools.product((0, 1, 2), repeat=len(unordered)):
        rel = set()
        for (i, j), c in zip(unordered, choice):
            if c == 1:
                rel.add((i, j))
            elif c == 2:
                rel.add((j, i))
        if closed(rel):
            out.append(rel)
    return out


_PO_CACHE = {}


def orders(k):
    if k not in _PO_CACHE:
        _PO_CACHE[k] = partial_orders(k)
    return _PO_CACHE[k]


class Execution:
    """The events of a test and its static relations."""

    def __init__(self, t):
        self.t = t
        self.ev = []
        locs = sorted(set(t.init) | {e.loc for th in range(len(t.threads))
                                     for e in thread_events(t, th) if e.loc})
        self.locs = locs
        for l in locs:
            self.ev.append(_init_ev(l, t.init.get(l, 0)))
        self.thread_ev = []
        for th in range(len(t.threads)):
            evs = thread_events(t, th)
            self.thread_ev.append(evs)
            self.ev += evs
        for i, e in enumerate(self.ev):
            e.id = i
        self.n = len(self.ev)
        n = self.n
        self.reads = [e for e in self.ev if e.kind == "R"]
        self.writes = [e for e in self.ev if e.kind == "W"]
        # registers: the writer (load) of each register read by an event, in program order
        self.reg_src = {}       # (event id, reg) -> load event or None (initial value)
        self.data = [0] * n
        for th, evs in enumerate(self.thread_ev):
            last = {}
            for e in evs:
                used = []
                if e.value and e.value[0] == "reg":
                    used.append(e.value[1])
                if e.value and e.value[0] == "rmw":
                    used += [o[1] for o in e.value[2:] if o[0] == "reg"]
                    if e.value[1] != "exch":          # its store reads its load's value
                        self.data[e.pair.id] |= 1 << e.id
                if e.bar:
                    used += [o[1] for o in e.bar[2:4] if o and o[0] == "reg"]
                for r in used:
                    src = last.get(r)
                    self.reg_src[(e.id, r)] = src
                    if src is not None and e.kind == "W":
                        self.data[src.id] |= 1 << e.id
                if e.dest:
                    last[e.dest] = e
            self.final_reg = getattr(self, "final_reg", {})
            for r, e in last.items():
                self.final_reg[(th, r)] = e
        self.static = self._static()

    def _static(self):
        n, ev, t = self.n, self.ev, self.t
        po = [0] * n
        for evs in self.thread_ev:
            for a, x in enumerate(evs):
                for y in evs[a + 1:]:
                    po[x.id] |= 1 << y.id
        rel = {"po": po, "data": self.data, "addr": [0] * n, "ctrl": [0] * n,
               "lxsx": [0] * n}
        loc = [0] * n
        for x in ev:
            for y in ev:
                if x.loc is not None and x.loc == y.loc:
                    loc[x.id] |= 1 << y.id
        rel["loc"] = loc
        rel["vloc"] = loc
        rel["amo"] = [(1 << e.pair.id) if e.kind == "R" and e.pair else 0 for e in ev]
        same_thread = [sum(1 << y.id for y in ev if y.tid == x.tid) for x in ev]
        rel["int"] = same_thread
        rel["ext"] = [((1 << n) - 1) & ~r for r in same_thread]

        def place(e):
            return t.threads[e.tid] if e.tid is not None else None

        def includes(e, f):        # e's scope includes f's thread (Dat3M canSyncAtScope)
            if e.tid is None or f.tid is None:
                return False
            (c1, g1), (c2, g2) = place(e), place(f)
            if "CTA" in e.tags:
                return (c1, g1) == (c2, g2)
            if "GPU" in e.tags:
                return g1 == g2
            return "SYS" in e.tags
        self.includes = includes
        rel["sr"] = [sum(1 << y.id for y in ev if includes(x, y) and includes(y, x))
                     for x in ev]
        rel["scta"] = [sum(1 << y.id for y in ev if x.tid is not None and y.tid is not None
                           and place(x) == place(y)) for x in ev]
        sets = {}
        for tag in ("R", "W", "M", "F", "IW", "WEAK", "RLX", "ACQ", "REL", "ACQ_REL", "SC",
                    "CTA", "GPU", "SYS", "GEN", "SUR", "TEX", "CON", "ALIAS", "UB"):
            sets[tag] = sum(1 << e.id for e in ev if tag in e.tags)
        return rel, sets

    # ---------- values ----------

    def values(self, rf):
        """Read and written values under rf (read id -> write id), or None when a value
        depends on itself (an rf | data cycle)."""
        rv, wv, busy = {}, {}, set()

        def reg(e, r):
            src = self.reg_src.get((e.id, r))
            if src is None:
                return self.t.reg_init.get((e.tid, r), 0)
            return read(src)

        def opnd(e, o):
            return o[1] if o[0] == "const" else reg(e, o[1])

        def write(w):
            if w.id in wv:
                return wv[w.id]
            if w.id in busy:
                raise _Cycle()
            busy.add(w.id)
            v = w.value
            if v[0] == "init":
                x = v[1]
            elif v[0] in ("const", "reg"):
                x = opnd(w, v)
            else:
                aop = v[1]
                b = opnd(w, v[2])
                old = None if aop == "exch" else read(w.pair)   # exch: no data dependency
                if aop == "cas":
                    x = opnd(w, v[3]) if old == b else old
                elif aop == "exch":
                    x = b
                elif aop == "add":
                    x = old + b
                elif aop == "sub":
                    x = old - b
                elif aop == "and":
                    x = old & b
                elif aop == "or":
                    x = old | b
                else:
                    x = old ^ b
            busy.discard(w.id)
            wv[w.id] = x
            return x

        def read(r):
            if r.id not in rv:
                rv[r.id] = write(self.ev[rf[r.id]])
            return rv[r.id]
        try:
            for r in self.reads:
                read(r)
            for w in self.writes:
                write(w)
            # a barrier's ID and quorum (registers read at the barrier)
            bv = {e.id: tuple(opnd(e, o) if o else None for o in e.bar[2:4])
                  for e in self.ev if e.kind == "B"}
        except _Cycle:
            return None
        return rv, wv, bv


class _Cycle(Exception):
    pass


def _init_ev(loc, v):
    from .litmus import Ev
    return Ev(kind="W", loc=loc, value=("init", v), tags={"W", "M", "IW"})


def explore(t, model, sc_nonms="free", limit=2_000_000):
    """The set of reachable final states (tuples over observables(t)), the observables, and
    the number of candidates examined; raises TooBig past limit candidates."""
    x = Execution(t)
    n = x.n
    (srel, sets) = x.static
    obs = observables(t)
    state = {}
    dyn = {}

    def base(name):
        if name in dyn:
            return dyn[name]
        if name in srel:
            return catlang.Rel(srel[name])
        return sets.get(name)
    model.dynamic = {"rf": 1, "sync_fence": 2, "syncbar": 2, "co": 3}
    ev_ = catlang.Evaluator(model, n, base)
    # rf candidates
    by_loc = {l: [w.id for w in x.writes if w.loc == l] for l in x.locs}
    rf_choices = [by_loc[r.loc] for r in x.reads]
    # Fence-SC: linear orders of the SC fences (restricted to pairs that include each other)
    scf = [e for e in x.ev if e.kind == "F" and "SC" in e.tags]
    ms = {(a.id, b.id) for a in scf for b in scf
          if a is not b and x.includes(a, b) and x.includes(b, a)}
    nonms = [(a.id, b.id) for i, a in enumerate(scf) for b in scf[i + 1:]
             if (a.id, b.id) not in ms]
    sf_choices = set()
    for perm in itertools.permutations(scf):
        rows = [0] * n
        for i, a in enumerate(perm):
            for b in perm[i + 1:]:
                if (a.id, b.id) in ms:
                    rows[a.id] |= 1 << b.id
        sf_choices.add(tuple(rows))
    if sc_nonms == "free" and nonms:
        more = set()
        for base_rows in sf_choices:
            for pick in itertools.product(range(4), repeat=len(nonms)):
                rows = list(base_rows)
                for (a, b), c in zip(nonms, pick):
                    if c & 1:
                        rows[a] |= 1 << b
                    if c & 2:
                        rows[b] |= 1 << a
                more.add(tuple(rows))
        sf_choices = more
    sf_choices = [catlang.Rel(r) for r in sorted(sf_choices)]
    total = 1
    for c in rf_choices:
        total *= len(c)
    for l in x.locs:
        total *= len(orders(len(by_loc[l]) - 1))
    total *= len(sf_choices) * 2 ** sum(1 for e in x.ev if e.kind == "B")
    if total > limit:
        raise TooBig(total)
    states, examined = set(), 0
    for rf_pick in itertools.product(*rf_choices):
        rf = {r.id: w for r, w in zip(x.reads, rf_pick)}
        vals = x.values(rf)
        if vals is None:
            continue
        rows = [0] * n
        for r, w in rf.items():
            rows[w] |= 1 << r
        dyn["rf"] = catlang.Rel(rows)
        ev_.forget(1)
        if ev_.run(1):
            continue
        rv, wv, bv = vals
        sb_choices = barrier_choices(x, bv)
        if sb_choices is None:      # a quorum never reached: no execution terminates
            continue
        regs = {}
        for (th, r), e in x.final_reg.items():
            regs["P%d:%s" % (th, r)] = rv[e.id]
        # Fence-SC and barrier choices before coherence: causality does not read co, so
        # each co candidate recomputes only what does (the evaluator's stages)
        for sf, sb in itertools.product(sf_choices, sb_choices):
            dyn["sync_fence"], dyn["syncbar"] = sf, sb
            ev_.forget(2)
            if ev_.run(2):
                continue
            for co_pick in itertools.product(*[orders(len(by_loc[l]) - 1) for l in x.locs]):
                finals, co = candidate_finals(x, obs, regs, wv, by_loc, co_pick)
                if all(f in states for f in finals):
                    continue
                examined += 1
                dyn["co"] = catlang.Rel(co)
                ev_.forget(3)
                if not ev_.run(3):
                    states.update(finals)
    return states, obs, examined


def candidate_finals(x, obs, regs, wv, by_loc, co_pick):
    """The coherence order of one choice of partial orders per location, and the final states
    it gives (a location ends with the value of any of its coherence-maximal writes)."""
    n = x.n
    co = [0] * n
    maxima = []
    for l, po_ in zip(x.locs, co_pick):
        ws = by_loc[l]
        init, rest = ws[0], ws[1:]
        for w in rest:
            co[init] |= 1 << w
        for (a, b) in po_:
            co[rest[a]] |= 1 << rest[b]
        has_succ = {a for (a, _) in po_}
        tops = [w for k, w in enumerate(rest) if k not in has_succ]
        maxima.append(sorted({wv[w] for w in tops}) if tops else [wv[init]])
    finals = []
    for combo in itertools.product(*maxima):
        st = dict(regs)
        st.update(zip(x.locs, combo))
        finals.append(tuple(st[o] if o in st else x.t.reg_init.get(reg_of(o), 0) for o in obs))
    return finals, co


def reg_of(o):
    th, _, r = o.partition(":")
    return (int(th[1:]), r)


class TooBig(Exception):
    pass


def observables(t):
    from .litmus import cond_refs
    names = []
    for o in cond_refs(t.cond, []) + t.locations:
        if o not in names:
            names.append(o)
    return names


def barrier_choices(x, bv):
    """syncbar relations of the terminating executions (Dat3M's ProgramEncoder for control
    barriers), given each barrier's ID and quorum values bv: None when a quorum cannot be
    reached."""
    cache = x.__dict__.setdefault("bar_cache", {})
    key_ = tuple(sorted(bv.items()))
    if key_ not in cache:
        cache[key_] = _barrier_choices(x, bv)
    return cache[key_]


def _barrier_choices(x, bv):
    n = x.n
    bars = [e for e in x.ev if e.kind == "B"]
    if not bars:
        return [catlang.Rel([0] * n)]

    def idv(e):
        return bv[e.id][0]

    def key(e):
        return (x.t.threads[e.tid], e.bar[0], e.bar[1])

    def same(a, b):
        return key(a) == key(b) and (not a.bar[1] or idv(a) == idv(b))
    quorum = [e for e in bars if e.bar[3] is not None]
    for e in quorum:
        q = e.q = bv[e.id][1]
        if sum(1 for f in bars if same(e, f)) < q:
            return None
    out = set()
    for pick in itertools.product((0, 1), repeat=len(quorum)):
        sync = {e.id: True for e in bars}
        for e, p in zip(quorum, pick):
            sync[e.id] = bool(p)
        if any(sum(1 for f in bars if same(e, f) and sync[f.id]) < e.q for e in quorum):
            continue
        rows = [0] * n
        for a in bars:
            for b in bars:
                if a.tid != b.tid and same(a, b) and not b.bar[4] and sync[a.id]:
                    rows[a.id] |= 1 << b.id
        out.add(tuple(rows))
    return [catlang.Rel(r) for r in sorted(out)]


def verdict(t, states, obs):
    holds = [cond_eval(t.cond, dict(zip(obs, s))) for s in states]
    if t.quant == "exists":
        return any(holds)
    if t.quant == "~exists":
        return not any(holds)
    return all(holds)
