#!/usr/bin/env python3
"""bench/litmus/scale_gen.py FAMILY K [K2] — prints a litmus test of the scaling families of
docs/benchmarks.md ("Scale", "Values"): iriw (K readers), sb (a ring of K threads), mp (a chain
of K threads passing a message by release/acquire), lock (K threads taking a CAS spin lock
twice); counter (K threads each adding 1 to x K2 times with atom.add, forall x == K*K2), indep
(one thread, K atom.add on K locations, forall on every value), tickets (K threads taking a
ticket with atom.add, no two alike), tlock (K threads through a ticket lock: atom.add for a
ticket, spin until serving equals it, increment c, serve the next; forall c == K).
Each thread is in its own CTA of GPU 0."""
import sys

def table(threads, rows, cond):
    n = len(threads)
    out = [" | ".join("P%d@cta %d,gpu 0" % (i, i) for i in range(n)) + " ;"]
    depth = max(len(t) for t in threads)
    for r in range(depth):
        out.append(" | ".join(t[r] if r < len(t) else "" for t in threads) + " ;")
    return "\n".join(out) + "\n" + cond

def iriw(k):
    th = [["st.relaxed.gpu x, 1"], ["st.relaxed.gpu y, 1"]]
    for i in range(k):
        a, b = ("x", "y") if i % 2 == 0 else ("y", "x")
        th.append(["ld.relaxed.gpu r0, %s" % a, "fence.sc.gpu", "ld.relaxed.gpu r1, %s" % b])
    cond = "exists (" + " /\\ ".join("P%d:r0 == 1 /\\ P%d:r1 == 0" % (i + 2, i + 2) for i in range(k)) + ")"
    return "PTX IRIW-%d\n{ x=0; y=0; }\n" % k + table(th, None, cond)

def sb(k):
    th = [["st.relaxed.gpu x%d, 1" % i, "fence.sc.gpu", "ld.relaxed.gpu r0, x%d" % ((i + 1) % k)] for i in range(k)]
    init = " ".join("x%d=0;" % i for i in range(k))
    cond = "exists (" + " /\\ ".join("P%d:r0 == 0" % i for i in range(k)) + ")"
    return "PTX SB-ring-%d\n{ %s }\n" % (k, init) + table(th, None, cond)

def mp(k):
    th = [["st.weak data, 1", "st.release.gpu f1, 1"]]
    for i in range(1, k - 1):
        th.append(["ld.acquire.gpu r0, f%d" % i, "st.release.gpu f%d, r0" % (i + 1)])
    th.append(["ld.acquire.gpu r0, f%d" % (k - 1), "ld.weak r1, data"])
    init = "data=0; " + " ".join("f%d=0;" % i for i in range(1, k))
    cond = "exists (P%d:r0 == 1 /\\ P%d:r1 == 0)" % (k - 1, k - 1)
    return "PTX MP-chain-%d\n{ %s }\n" % (k, init) + table(th, None, cond)

def lock(k):
    th = []
    for i in range(k):
        t = []
        for rep in range(2):
            t += ["LC%d%d:" % (rep, 0), "atom.acquire.gpu.cas r0, l, 0, 1", "bne r0, 0, LC%d%d" % (rep, 0),
                  "ld.weak r1, c", "add r1, r1, 1", "st.weak c, r1", "st.release.gpu l, 0"]
        th.append(t)
    cond = "forall (c == %d)" % (2 * k)
    return "PTX lock-%d\n{ l=0; c=0; }\n" % k + table(th, None, cond)

def counter(t, k):
    th = [["atom.global.add.u32 %%r%d, [x], 1" % j for j in range(k)] for _ in range(t)]
    return "PTX counter-%dx%d\n{ x=0; }\n" % (t, k) + table(th, None, "forall (x == %d)" % (t * k))

def indep(k):
    th = [["atom.global.add.u32 %%r%d, [a%d], %d" % (i, i, i + 1) for i in range(k)]]
    cond = " /\\ ".join(["a%d == %d" % (i, i + 1) for i in range(k)] + ["P0:%%r%d == 0" % i for i in range(k)])
    init = " ".join("a%d=0;" % i for i in range(k))
    return "PTX indep-%d\n{ %s }\n" % (k, init) + table(th, None, "forall (" + cond + ")")

def tickets(k):
    th = [["atom.global.add.u32 %r0, [next], 1"] for _ in range(k)]
    pairs = ["P%d:%%r0 == P%d:%%r0" % (a, b) for a in range(k) for b in range(a + 1, k)]
    return "PTX tickets-%d\n{ next=0; }\n" % k + table(th, None, "~exists (" + " \\/ ".join(pairs) + ")")

def tlock(k):
    th = [["atom.acquire.gpu.add r0, next, 1", "LC%d0:" % i, "ld.acquire.gpu r1, serving",
           "bne r1, r0, LC%d0" % i, "ld.weak r2, c", "add r2, r2, 1", "st.weak c, r2",
           "add r3, r0, 1", "st.release.gpu serving, r3"] for i in range(k)]
    return "PTX tlock-%d\n{ next=0; serving=0; c=0; }\n" % k + table(th, None, "forall (c == %d)" % k)

fam, k = sys.argv[1], int(sys.argv[2])
if fam == "counter": print(counter(k, int(sys.argv[3])))
else: print({"iriw": iriw, "sb": sb, "mp": mp, "lock": lock, "indep": indep, "tickets": tickets,
             "tlock": tlock}[fam](k))
