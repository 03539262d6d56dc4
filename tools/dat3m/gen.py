"""tools/dat3m/gen.py - random PTX litmus tests in the Dat3M dialect (LitmusPTX.g4), one per seed,
for comparing ptxlitmus with the independent evaluator (tools/dat3m/check.py): 2-4 threads
placed in one CTA, in several CTAs or on two GPUs; straight-line code of weak, relaxed, acquire
and release loads and stores, atom (add, exch, cas) and red at every order and scope, fence.sc
and fence.acq_rel at every scope, and Dat3M's barriers (instance, ID, quorum; sync and arrive).
The same seed always gives the same test.  Sizes stay within what brute force enumerates:
at most three writes per location and seven reads.
"""

import random

SCOPES = ["cta", "gpu", "sys"]


def generate(seed):
    for k in range(100):
        t = _try(random.Random(seed * 1009 + k), seed)
        if t:
            return t
    raise RuntimeError("seed %d: no test within the size limits" % seed)


def _try(rnd, seed):
    nth = rnd.choice([2, 2, 3, 3, 4])
    shape = rnd.choice(["cta", "ctas", "ctas", "mixed", "gpus"])
    place = []
    for i in range(nth):
        if shape == "cta":
            place.append((0, 0))
        elif shape == "ctas":
            place.append((i, 0))
        elif shape == "mixed":
            place.append((rnd.randint(0, 1), 0))
        else:
            place.append((i, rnd.randint(0, 1)))
    locs = ["x", "y"] if rnd.random() < 0.6 else ["x", "y", "z"]
    barriers = nth >= 2 and rnd.random() < 0.3 and shape in ("cta", "mixed")
    code = [[] for _ in range(nth)]
    regs = [0] * nth
    loaded = [[] for _ in range(nth)]       # registers loaded so far (for data dependencies)
    writes = {l: 0 for l in locs}
    reads = 0
    sc_fences = 0
    insts = [set() for _ in range(nth)]
    for th in range(nth):
        for _ in range(rnd.randint(1, 4)):
            kind = rnd.choices(["st", "ld", "atom", "red", "fence", "bar"],
                               [3, 3, 2, 1, 2, 2 if barriers else 0])[0]
            loc = rnd.choice(locs)
            scope = rnd.choice(SCOPES)
            if kind == "st":
                sem = rnd.choice(["weak", "relaxed", "release"])
                val = str(rnd.randint(1, 2))
                if loaded[th] and rnd.random() < 0.2:
                    val = rnd.choice(loaded[th])
                code[th].append("st.%s %s, %s" % (sem if sem == "weak" else sem + "." + scope,
                                                  loc, val))
                writes[loc] += 1
            elif kind == "ld":
                sem = rnd.choice(["weak", "relaxed", "acquire"])
                r = "r%d" % regs[th]
                regs[th] += 1
                code[th].append("ld.%s %s, %s" % (sem if sem == "weak" else sem + "." + scope,
                                                  r, loc))
                loaded[th].append(r)
                reads += 1
            elif kind == "atom":
                sem = rnd.choice(["relaxed", "acquire", "release", "acq_rel"])
                op = rnd.choice(["add", "exch", "cas", "cas"])
                r = "r%d" % regs[th]
                regs[th] += 1
                if op == "cas":
                    args = "%d, %d" % (rnd.randint(0, 2), rnd.randint(1, 3))
                else:
                    args = str(rnd.randint(1, 2))
                    if loaded[th] and rnd.random() < 0.15:
                        args = rnd.choice(loaded[th])
                code[th].append("atom.%s.%s.%s %s, %s, %s" % (sem, scope, op, r, loc, args))
                loaded[th].append(r)
                writes[loc] += 1
                reads += 1
            elif kind == "red":
                sem = rnd.choice(["relaxed", "release"])
                code[th].append("red.%s.%s.add %s, %d" % (sem, scope, loc, rnd.randint(1, 2)))
                writes[loc] += 1
                reads += 1
            elif kind == "fence":
                sem = rnd.choice(["sc", "acq_rel"])
                sc_fences += sem == "sc"
                code[th].append("fence.%s.%s" % (sem, scope))
            else:
                free = [i for i in (0, 1) if i not in insts[th]]
                if not free:
                    continue
                inst = rnd.choice(free)
                insts[th].add(inst)
                mode = rnd.choice(["sync", "sync", "arrive"])
                form = rnd.choice(["", "id", "quorum"])
                text = "bar.cta.%s %d" % (mode, inst)
                if form:
                    text += ", %d" % rnd.randint(0, 1)
                if form == "quorum":
                    text += ", %d" % rnd.randint(1, 3)
                code[th].append(text)
    if max(writes.values()) > 3 or reads > 7 or sc_fences > 3 or not any(code):
        return None
    # the condition: a few of the observables, under a random quantifier
    obs = ["P%d:r%d" % (th, r) for th in range(nth) for r in range(regs[th])] + locs
    atoms = []
    for o in rnd.sample(obs, min(len(obs), rnd.randint(1, 3))):
        atoms.append("%s == %d" % (o, rnd.randint(0, 3 if o in locs else 2)))
    quant = rnd.choice(["exists", "exists", "~exists", "forall"])
    lines = ["PTX R%d" % seed, "{ %s }" % " ".join("%s=0;" % l for l in locs)]
    lines.append(" " + " | ".join("P%d@cta %d,gpu %d" % (i, c, g)
                                  for i, (c, g) in enumerate(place)) + " ;")
    depth = max(len(c) for c in code)
    for k in range(depth):
        lines.append(" " + " | ".join(c[k] if k < len(c) else "" for c in code) + " ;")
    lines.append("locations [%s;]" % "; ".join(obs))
    lines.append("%s (%s)" % (quant, " /\\ ".join(atoms)))
    return "\n".join(lines) + "\n"
