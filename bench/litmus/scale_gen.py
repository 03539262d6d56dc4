#!/usr/bin/env python3
"""bench/litmus/scale_gen.py FAMILY K — prints a litmus test of the scaling families of
docs/benchmarks.md ("Scale"): iriw (K readers), sb (a ring of K threads), mp (a chain of K
threads passing a message by release/acquire), lock (K threads taking a CAS spin lock twice).
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

fam, k = sys.argv[1], int(sys.argv[2])
print({"iriw": iriw, "sb": sb, "mp": mp, "lock": lock}[fam](k))
