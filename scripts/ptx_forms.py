#!/usr/bin/env python3
"""scripts/ptx_forms.py — the ground truth for which PTX memory-instruction forms are valid.

Generates the forms of ld, st, atom, red, fence, membar and bar/barrier that a litmus test may
write in real PTX spelling (qualifier combinations x state spaces x types x operand shapes),
assembles them all with ptxas (one kernel, one form per line; ptxas reports every bad line),
and writes tests/data/ptx-forms.tsv: FORM <tab> ok|bad <tab> ptxas's message.  The litmus
parser's unit test (tests/test_forms.c) requires the parser to refuse every 'bad' form and to
accept every 'ok' form (or refuse it as not expressible in a litmus test, with that reason).

Recorded with:  python3 scripts/ptx_forms.py /usr/local/cuda/bin/ptxas > tests/data/ptx-forms.tsv
(ptxas from CUDA 13.0, -arch=sm_90).  Operands: D = destination, A = address, B/C = sources;
the test substitutes litmus names, this script PTX registers of the type's width.
"""
import itertools, re, subprocess, sys, tempfile, os

PTXAS = sys.argv[1] if len(sys.argv) > 1 else "ptxas"

def reg(ty):
    w = {"b8": 16, "u8": 16, "s8": 16, "b16": 16, "u16": 16, "s16": 16, "f16": 16, "bf16": 16,
         "b64": 64, "u64": 64, "s64": 64, "f64": 64}.get(ty, 32)
    return {16: "%h", 32: "%r", 64: "%rd"}[w]

forms = []   # (litmus form, ptx text)

def add(form, ptx):
    forms.append((form, ptx))

LDST_TYPES = ["u8", "s8", "b16", "s16", "u32", "s32", "b32", "f32", "u64", "s64", "b64", "f64"]
SPACES = ["", "global", "shared", "shared::cta", "shared::cluster", "local", "const", "param"]
SCOPES = ["", "cta", "cluster", "gpu", "sys"]

def q(*parts):
    return "".join("." + p for p in parts if p)

# ld / st: semantics x scope x space, types, cache operators, both qualifier orders
for op, sems, cops in (("ld", ["", "weak", "relaxed", "acquire", "release", "acq_rel", "volatile",
                                "mmio.relaxed", "mmio", "relaxed.mmio", "sc"], ["ca", "cv"]),
                       ("st", ["", "weak", "relaxed", "release", "acquire", "acq_rel", "volatile",
                               "mmio.relaxed", "mmio", "sc"], ["wt", "cs"])):
    for sem, scope, space in itertools.product(sems, SCOPES, SPACES):
        for ty in (["u32"] if (sem, scope, space) != ("", "", "global") else LDST_TYPES):
            for order in (0, 1):
                mn = op + (q(sem, scope, space) if order == 0 else q(space, sem, scope)) + "." + ty
                if order == 1 and (not space or not (sem or scope)):
                    continue
                r = reg(ty)
                if op == "ld":
                    add(mn + " D, [A]", mn + " %s1, [%%rd1]" % r)
                else:
                    add(mn + " [A], B", mn + " [%%rd1], %s2" % r)
    for cop, sem in itertools.product(cops, ["", "weak", "relaxed.gpu", "volatile"]):
        mn = op + q(sem, "global", cop) + ".u32"
        add(mn + (" D, [A]" if op == "ld" else " [A], B"),
            mn + (" %r1, [%rd1]" if op == "ld" else " [%rd1], %r2"))
    for vec in ("v2", "v4"):
        mn = op + ".global." + vec + ".u32"
        add(mn + (" VD, [A]" if op == "ld" else " [A], VB"),
            mn + (" {%r1, %r2}, [%rd1]" if vec == "v2" else " {%r0, %r1, %r2, %r3}, [%rd1]")
            if op == "ld" else mn + (" [%rd1], {%r1, %r2}" if vec == "v2"
                                     else " [%rd1], {%r0, %r1, %r2, %r3}"))

# atom / red: semantics x scope x space x operation x type
ATOM_TYPES = ["b16", "b32", "b64", "u32", "s32", "u64", "s64", "f32", "f64", "f16", "bf16",
              "f16x2", "bf16x2"]
OPS = ["add", "sub", "min", "max", "inc", "dec", "and", "or", "xor", "exch", "cas"]
for op in ("atom", "red"):
    for sem, scope, space in itertools.product(["", "relaxed", "acquire", "release", "acq_rel",
                                                "weak", "sc", "volatile"],
                                               SCOPES, ["", "global", "shared", "shared::cluster",
                                                        "local", "const"]):
        mn = op + q(sem, scope, space) + ".add.u32"
        add(mn + (" D, [A], B" if op == "atom" else " [A], B"),
            mn + (" %r1, [%rd1], %r2" if op == "atom" else " [%rd1], %r2"))
    for o, ty, nf in itertools.product(OPS, ATOM_TYPES, ("", "noftz")):
        mn = op + ".global." + o + q(nf) + "." + ty
        r = reg(ty)
        if op == "atom":
            ptx = mn + " %s1, [%%rd1], %s2" % (r, r) + (", %s3" % r if o == "cas" else "")
            form = mn + " D, [A], B" + (", C" if o == "cas" else "")
        else:
            ptx = mn + " [%%rd1], %s2" % r + (", %s3" % r if o == "cas" else "")
            form = mn + " [A], B" + (", C" if o == "cas" else "")
        add(form, ptx)
    # atom.inc/dec without the bound operand
    if op == "atom":
        add("atom.global.inc.u32 D, [A]", "atom.global.inc.u32 %r1, [%rd1]")

# fences and membar
for sem, scope in itertools.product(["", "sc", "acq_rel", "acquire", "release", "relaxed"],
                                    SCOPES):
    mn = "fence" + q(sem, scope)
    add(mn, mn)
for p in ("alias", "texture", "surface", "constant", "async", "async.global",
          "async.shared::cta", "async.shared::cluster", "tensormap::generic.release.gpu",
          "tensormap::generic.acquire.gpu", "generic"):
    add("fence.proxy." + p, "fence.proxy." + p + (" [%rd1], 128" if "acquire" in p else ""))
for s in ("cta", "gl", "sys", "gpu", ""):
    mn = "membar" + q(s)
    add(mn, mn)

# barriers: ids and counts
for mn in ("bar.sync", "bar.cta.sync", "barrier.sync", "barrier.cta.sync", "barrier.sync.aligned",
           "bar.arrive", "bar.cta.arrive", "barrier.arrive", "bar.red.popc.u32"):
    for args in ("0", "15", "16", "1, 32", "1, 0", "1, 33", "%r1", "%r1, 64"):
        if mn.startswith("bar.red"):
            add(mn + " D, " + args + ", %p1", mn + " %r2, " + args + ", %p1")
        else:
            add(mn + " " + args, mn + " " + args)

def main():
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "forms.ptx")
        head = [".version 8.4", ".target sm_90", ".address_size 64",
                ".visible .entry k(.param .u64 p) {",
                ".reg .b32 %r<4>; .reg .b64 %rd<4>; .reg .b16 %h<4>; .reg .pred %p<2>;"]
        with open(src, "w") as f:
            f.write("\n".join(head) + "\n")
            for _, ptx in forms:
                f.write(ptx + ";\n")
            f.write("ret;\n}\n")
        out = subprocess.run([PTXAS, "-arch=sm_90", src, "-o", os.path.join(d, "o")],
                             capture_output=True, text=True).stderr
    bad = {}
    for line in out.splitlines():
        m = re.search(r"line (\d+); error\s*:\s*(.*)", line)
        if m:
            bad.setdefault(int(m.group(1)) - len(head) - 1, m.group(2).strip())
    print("# form\tptxas\tmessage  (generated by scripts/ptx_forms.py with ptxas -arch=sm_90)")
    for i, (form, _) in enumerate(forms):
        print("%s\t%s\t%s" % (form, "bad" if i in bad else "ok", bad.get(i, "")))

main()
