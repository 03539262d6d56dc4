#!/usr/bin/env python3
"""scripts/gen_coverage.py — writes docs/coverage.md: every instruction section of PTX ISA 8.4
chapter 9.7 (headings '9.7.N.M. ', plus the '9.7.N.M.K. ' headings that name instructions, e.g.
cp.async, mbarrier.*, wmma.*, video) with its status in the whole executor.

An instruction is implemented by
  * the semantics table exec/isa.c: an evaluable entry (class PURE or CARRY) for the mnemonic,
    with a type family that fits the section (f32/f64 for §9.7.3, f16 for §9.7.4/§9.7.6,
    integer/bit types otherwise), or
  * the executor's own decoder: exec/load.c's decode_insn names its base mnemonic
    (strcmp(base, "...")): memory, control flow, synchronization, warp ops, mbarrier, cp.async,
    cluster ops, stack, no-ops; or the parser (frontend/) for the syntax sections {} and @.
It is tested when
  * tests/test_isa.c decodes a matching mnemonic string (table entries), or
  * a PTX instruction with that mnemonic is in a kernel a test loads and runs successfully:
    the inline PTX of tests/test_exec_*.c (except the load-time rejection tests) or the .entry
    functions of tests/kernels/*.ptx that tests/test_exec_kernels.c launches, with the .func
    functions they call.  An opcode is matched to the most specific section whose name's
    components it contains (cp.async.bulk.commit_group -> §9.7.8.24.12, not §9.7.8.24.3).
A row is `implemented + tested` when every instruction the section names is both.  Run by
hand:  python3 scripts/gen_coverage.py
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SPEC = os.environ.get("PTX_SPEC", "/work/shared/spec/ptx-isa-8.4.txt")
ISA_C = os.path.join(ROOT, "exec", "isa.c")
TEST_C = os.path.join(ROOT, "tests", "test_isa.c")
LOAD_C = os.path.join(ROOT, "exec", "load.c")
TESTS = os.path.join(ROOT, "tests")
KERNELS = os.path.join(ROOT, "tests", "kernels")
# load-time rejection tests of tests/test_exec_insn.c: their PTX is refused, not run
REJECT_TESTS = re.compile(r"^START_TEST\((reject_\w+)\)", re.M)
# instructions the executor accepts and completes without an effect (documented choices)
NOOP = {
    "prefetch": "no-op (a cache hint)", "prefetchu": "no-op (a cache hint)",
    "applypriority": "no-op (a cache hint)", "discard": "no-op (a cache hint)",
    "griddepcontrol": "no-op (one grid at a time)", "pmevent": "no-op",
    "membar": "no-op (sequential execution)", "fence": "no-op (sequential execution)",
    "cp.async.commit_group": "no-op: cp.async copies when issued",
    "cp.async.wait_group": "no-op: cp.async copies when issued",
    "cp.async.wait_all": "no-op: cp.async copies when issued",
    "cp.async.bulk.commit_group": "no-op: cp.async.bulk copies when issued",
    "cp.async.bulk.wait_group": "no-op: cp.async.bulk copies when issued",
    "cp.async.bulk.prefetch": "no-op (a cache hint)",
    "createpolicy": "yields 0", "nanosleep": "ends the warp's quantum",
}
# syntax sections (§9.7.11.1-2): handled by the parser; exercised when a tested kernel has them
SYNTAX = {
    "{}": re.compile(r"^\s*\{\s*$"),
    "@": re.compile(r"^\s*@!?%?\w+\s"),
}
OUT = os.path.join(ROOT, "docs", "coverage.md")

# Sections whose variant exec/isa.c does not model although the mnemonic is in the table.
NOT_MODELLED = {}
# Sections reached through an extra API call: implemented + tested only if the test uses it.
SECTION_API = {
    "9.7.8.4": ("isa_mov_vector", re.compile(r"isa_mov_vector\(")),
}
# Known unmodelled variants of otherwise covered sections (shown as notes).
PARTIAL = {
    "9.7.4.4": "fma.oob is refused at decode: the ISA text does not give the OOB-NaN encoding",
    "9.7.8.4": ".b128 not modelled (values are uint64_t)",
}
# Sections covered by a non-table API.
OTHER_API = {
    "atom": ("isa_atom_apply", re.compile(r"isa_atom_apply|AP\(ISA_ATOM_")),
    "red": ("isa_atom_apply", re.compile(r"isa_atom_apply|AP\(ISA_ATOM_")),
}


def table_rows(src):
    """(name, mode, class, types) for every row of isa_ops[]."""
    body = src[src.index("const isa_opinfo isa_ops[] = {"):]
    body = body[: body.index("\n};")]
    rows = []
    for m in re.finditer(r'\{"([\w.]+)",\s*(NULL|"[\w]+"),\s*\d+,\s*\d+,\s*(\w+),\s*([^,]+),', body):
        rows.append((m.group(1), m.group(2).strip('"') if m.group(2) != "NULL" else None,
                     m.group(3), m.group(4).strip()))
    return rows


def family(section):
    grp = ".".join(section.split(".")[:3])
    if grp == "9.7.3":
        return "float"
    if grp in ("9.7.4", "9.7.6"):
        return "half"
    return "int"


FLOAT_ONLY = ("T_F", "TB(ISA_T_F32)", "TB(ISA_T_F64)")


def types_fit(types, fam):
    if fam == "float":
        return types == "T_F" or "F32" in types or "F64" in types
    if fam == "half":
        return "F16" in types
    return types not in FLOAT_ONLY


def test_strings(test_src):
    return re.findall(r'"([a-z][\w.]*)"', test_src)


def tested(mn, fam, strings):
    want = mn.split(".")
    for s in strings:
        tok = s.split(".")
        if tok[0] != want[0] or any(w not in tok[1:] for w in want[1:]):
            continue
        f = bool(re.search(r"\.f(32|64)$", s)) or ".f32." in s or ".f64." in s
        h = ".f16" in s or ".bf16" in s
        if fam == "float" and f:
            return True
        if fam == "half" and h:
            return True
        if fam == "int" and not h and (not f or mn in ("mov", "selp", "slct", "set", "setp", "cvt")):
            return True
    return False


def drop_calls(src, names):
    """src without the calls to the given functions (assertion messages are not PTX)."""
    out, i = [], 0
    pat = re.compile(r"\b(%s)\s*\(" % "|".join(names))
    while True:
        m = pat.search(src, i)
        if not m:
            return "".join(out) + src[i:]
        out.append(src[i:m.start()])
        j, depth, q = m.end(), 1, None
        while j < len(src) and depth:
            c = src[j]
            if q:
                if c == "\\":
                    j += 1
                elif c == q:
                    q = None
            elif c in "\"'":
                q = c
            elif c == "(":
                depth += 1
            elif c == ")":
                depth -= 1
            j += 1
        i = j


def c_strings(src):
    """The PTX text of the C string literals of a test source, one string per literal."""
    src = drop_calls(src, ["ck_assert\\w*", "ck_abort\\w*", "fprintf", "printf"])
    out = []
    for m in re.finditer(r'"((?:[^"\\\n]|\\.)*)"', src):
        out.append(m.group(1).replace("\\n", "\n").replace("\\t", "\t").replace('\\"', '"'))
    return out


def ptx_statements(text):
    """Statements of PTX text: (guarded?, opcode) for each instruction, and the raw lines."""
    insns = []
    text = re.sub(r"//[^\n]*", "", text)
    for stmt in re.split(r"[;\n]", text):
        st = stmt.strip()
        while True:   # labels
            m = re.match(r"^[$\w]+:\s*(.*)$", st)
            if not m or m.group(1).startswith(":"):
                break
            st = m.group(1).strip()
        st = st.lstrip("{} \t")
        guard = False
        m = re.match(r"^@!?%?\w+\s+(.*)$", st)
        if m:
            guard, st = True, m.group(1).strip()
        m = re.match(r"^([a-z][\w:.%]*)(\s|$)", st)
        if m and not st.startswith("."):
            insns.append(m.group(1))
    return insns


def ptx_functions(text):
    """{name: (is_entry, body)} of a PTX module (bodies between the outer braces)."""
    funcs = {}
    for m in re.finditer(r"\.(entry|func)\s+(?:\([^)]*\)\s*)?([$\w]+)", text):
        i = text.find("{", m.end())
        semi = text.find(";", m.end())
        if i < 0 or (0 <= semi < i):
            continue   # a declaration
        depth, j = 0, i
        while j < len(text):
            if text[j] == "{":
                depth += 1
            elif text[j] == "}":
                depth -= 1
                if depth == 0:
                    break
            j += 1
        funcs[m.group(2)] = (m.group(1) == "entry", text[i + 1:j])
    return funcs


def exec_exercised():
    """Opcodes (and raw PTX lines) in PTX that the executor's tests load and run, with where."""
    ops, lines = {}, []

    def add(text, where):
        for op in ptx_statements(text):
            ops.setdefault(op, set()).add(where)
        lines.extend(text.splitlines())

    for fn in sorted(os.listdir(TESTS)):
        if not (fn.startswith("test_exec") and fn.endswith(".c")):
            continue
        src = open(os.path.join(TESTS, fn), encoding="utf-8").read()
        # drop the rejection tests (their PTX must NOT load)
        parts = re.split(r"(?=^START_TEST\()", src, flags=re.M)
        keep = [p for p in parts if not REJECT_TESTS.match(p)]
        add("\n".join(c_strings("".join(keep))), fn)
        # kernels launched by load("file.ptx", "kernel")
        for f, k in re.findall(r'\bload\("([\w.]+\.ptx)",\s*"([$\w]+)"\)', "".join(keep)):
            path = os.path.join(KERNELS, f)
            if not os.path.exists(path):
                continue
            funcs = ptx_functions(open(path, encoding="utf-8").read())
            todo, seen = [k], set()
            while todo:
                name = todo.pop()
                if name in seen or name not in funcs:
                    continue
                seen.add(name)
                body = funcs[name][1]
                add(body, "kernels/" + f)
                todo += re.findall(r"\bcall(?:\.uni)?\s+(?:\([^)]*\)\s*,\s*)?([$\w]+)", body)
    return ops, lines


def decoder_bases(load_src):
    """Base mnemonics exec/load.c's decode_insn dispatches on itself."""
    body = load_src[load_src.index("static int decode_insn("):]
    body = body[: body.index("\n}\n")]
    return set(re.findall(r'strcmp\(base, "(\w+)"\)', body))


def opcode_sections(ops, names_by_sec):
    """Map each exercised opcode to the most specific section name whose components it has."""
    hits = {}
    for op, where in ops.items():
        tok = [t for t in op.split(".") if "%" not in t]
        best, blen = [], 0
        for sec, names in names_by_sec.items():
            for n in names:
                want = n.split(".")
                if tok[:1] != want[:1] or any(w not in tok[1:] for w in want[1:]):
                    continue
                if len(want) > blen:
                    best, blen = [], len(want)
                if len(want) == blen:
                    best.append((sec, n))
        for b in best:   # ties (add in §9.7.1.1, §9.7.3.3, §9.7.4.1): the type family decides later
            hits.setdefault(b, {})[op] = where
    return hits


# Forms the executor refuses at load (docs/executor.md "Missing"), though their base mnemonic
# has a decoder branch: never reported as implemented.
REJECTED = {"st.async", "red.async", "cp.reduce.async.bulk", "cp.async.bulk.tensor",
            "cp.reduce.async.bulk.tensor", "cp.async.bulk.prefetch.tensor"}


def main():
    spec = open(SPEC, encoding="utf-8").read().splitlines()
    src = open(ISA_C, encoding="utf-8").read()
    test_src = open(TEST_C, encoding="utf-8").read()
    load_src = open(LOAD_C, encoding="utf-8").read()
    rows = table_rows(src)
    strings = test_strings(test_src)
    bases = decoder_bases(load_src)
    ops, lines = exec_exercised()
    out = ["# PTX ISA 8.4 chapter 9.7 — instruction coverage of the executor", "",
           "Generated by `scripts/gen_coverage.py` from the section headings of the spec, the opcode",
           "table in `exec/isa.c`, the executor's decoder `exec/load.c` and the tests.",
           "`implemented + tested` = every instruction the section names is implemented — an",
           "evaluable `exec/isa.c` table entry of the right type family, or a `decode_insn` branch of",
           "`exec/load.c` (memory, control flow, synchronization, warp ops, mbarrier, cp.async, cluster",
           "ops, stack; `{}` and `@` by the parser) — AND tested: `tests/test_isa.c` evaluates it, or",
           "it is in PTX that a test loads and runs successfully (the inline PTX of",
           "`tests/test_exec_*.c` except the load-time rejection tests, and the kernels of",
           "`tests/kernels/*.ptx` that `tests/test_exec_kernels.c` launches, with the functions they",
           "call; the loader decodes every instruction, so it is accepted, though a kernel need not",
           "reach each of its instructions).  The notes say where (`isa` = test_isa.c; file names =",
           "executor tests).  Forms the executor refuses at load are listed as `refused at load`.",
           "`implemented, untested` = implemented as above, but no test runs it.",
           "`decoded (OTHER)` = only recognized by `isa_decode` as a memory/control/sync instruction.", "",
           "| section | instruction | status | notes |", "|---|---|---|---|"]
    n_done = n_all = 0
    heads = []
    for line in spec:
        m = re.match(r"^(9\.7\.\d+\.\d+(?:\.\d+)?)\. (.*)$", line)
        if m and (m.group(1).count(".") == 3 or ": " in m.group(2)):  # 5-level: instructions only
            heads.append((m.group(1), m.group(2).strip()))

    def section_names(title):
        instr = title.split(": ", 1)[1] if ": " in title else title
        names = [n.strip() for n in re.split(r"[,/]", instr)] if ": " in title else []
        return instr, [re.sub(r"\s*\(deprecated\)", "", n) for n in names]

    names_by_sec = {}
    for sec, title in heads:
        kids = [h for h in heads if h[0].startswith(sec + ".") and ": " in h[1]]
        _, names = section_names(title)
        if names and not kids:
            names_by_sec[sec] = names
    hits = opcode_sections(ops, names_by_sec)

    def where(d):
        w = sorted(set().union(*d.values())) if d else []
        return ", ".join(w[:3]) + (" ..." if len(w) > 3 else "")

    for sec, title in heads:
        instr, names = section_names(title)
        fam = family(sec)
        status, notes = "not yet", ""
        kids = [h for h in heads if h[0].startswith(sec + ".")]
        if not names or (kids and any(": " in h[1] for h in kids)):
            status = "n/a"
            notes = ("group heading: its instructions are the %s.* rows" % sec if kids
                     else "descriptive section, not an instruction")
            if not kids and any(w in title for w in ("instruction", "Instructions", "Operations")):
                status, notes = "not yet", "instruction group"
        else:
            n_all += 1
            done, why, impl_only, other, rejected = [], [], [], [], []
            for n in names:
                base, mode = (n.split(".", 1) + [None])[:2]
                cand = [r for r in rows if r[0] == n or (r[0] == base and (r[1] == mode or
                        (mode and mode.startswith(str(r[1]) + "."))))]
                ev = [r for r in cand if r[2] in ("PURE", "CARRY") and types_fit(r[3], fam)]
                ex = hits.get((sec, n), {})
                if sec in SECTION_API:
                    ex = {}   # reached through an extra API call: only its test counts
                if n in REJECTED:
                    rejected.append(n)
                elif ev:
                    t_isa = tested(n, fam, strings)
                    t_ex = [o for o in ex if tested(n, fam, [o])]
                    if t_isa or t_ex:
                        done.append(n)
                        why.append("isa" if t_isa else "")
                        if t_ex:
                            why.append(where({o: ex[o] for o in t_ex}))
                    else:
                        impl_only.append(n)
                elif n in SYNTAX:
                    if any(SYNTAX[n].match(l) for l in lines):
                        done.append(n)
                        why.append("parser; in the executor tests' PTX")
                elif base in bases:
                    if ex:
                        done.append(n)
                        why.append(where(ex))
                        if n in NOOP or base in NOOP:
                            why.insert(0, NOOP.get(n, NOOP.get(base)))
                    else:
                        impl_only.append(n)
                elif any(r[2] == "OTHER" for r in cand):
                    other.append(n)
            if sec in SECTION_API and done and not SECTION_API[sec][1].search(test_src) and not any(why):
                done = []
            if sec in NOT_MODELLED:
                notes = NOT_MODELLED[sec]
            elif len(done) == len(names):
                status = "implemented + tested"
                n_done += 1
                notes = "; ".join(w for w in dict.fromkeys(why) if w)
                if sec in SECTION_API:
                    notes = "via %s; " % SECTION_API[sec][0] + notes
                if sec in PARTIAL:
                    notes = (notes + "; " if notes else "") + PARTIAL[sec]
                if n in ("atom", "red"):
                    notes += "; RMW values by isa_atom_apply"
            else:
                parts = []
                if done:
                    parts.append("tested: %s" % ", ".join(done))
                if impl_only:
                    parts.append("no test runs: %s" % ", ".join(impl_only))
                    if not rejected:
                        status = "implemented, untested"
                if rejected:
                    parts.append("refused at load: %s" % ", ".join(rejected))
                notes = "; ".join(parts)
                if other and not done and not impl_only:
                    status = "decoded (OTHER)"
            if status == "not yet" and fam == "half" and not notes:
                notes = "half-precision types (f16/bf16) not modelled"
        out.append("| %s | %s | %s | %s |" % (sec, instr.replace("|", "\\|"), status, notes.strip("; ")))
    out += ["", "%d of %d instruction sections implemented + tested." % (n_done, n_all), ""]
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    open(OUT, "w", encoding="utf-8").write("\n".join(out))
    print("wrote %s: %d/%d implemented + tested" % (OUT, n_done, n_all))
    return 0


if __name__ == "__main__":
    sys.exit(main())
