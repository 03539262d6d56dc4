#!/usr/bin/env python3
# suites/llvm/gen.py - writes the LLVM-level litmus tests of suites/llvm, their manifest (the PTX
# verdict of the nvptx lowering, what `ptxlitmus verify` decides) and expected-check.tsv (what
# `ptxlitmus llvm-check` says under each mapping: ok, bug, racy, unsupported).  Each test's doc
# string argues its verdicts: at source from scoped RC11 (model/rc11-scoped.cat, the C++
# standard's [intro.races]/[atomics.order]) and after lowering from the PTX ISA 8.4 chapter 8.
import os, textwrap
OUT = os.path.dirname(os.path.abspath(__file__))
tests = []

def ss(scope):
    return f' syncscope("{scope}")' if scope else ""
def ld(r, o, scope, loc):
    if o == "na": return f"%{r} = load i32, ptr %{loc}, align 4"
    if o == "vol": return f"%{r} = load volatile i32, ptr %{loc}, align 4"
    return f"%{r} = load atomic i32, ptr %{loc}{ss(scope)} {o}, align 4"
def st(o, scope, loc, v):
    if o == "na": return f"store i32 {v}, ptr %{loc}, align 4"
    if o == "vol": return f"store volatile i32 {v}, ptr %{loc}, align 4"
    return f"store atomic i32 {v}, ptr %{loc}{ss(scope)} {o}, align 4"
def fence(o, scope): return f"fence{ss(scope)} {o}"
def rmw(r, op, o, scope, loc, v): return f"%{r} = atomicrmw {op} ptr %{loc}, i32 {v}{ss(scope)} {o}"
def cas(r, o, f, scope, loc, c, n): return f"%{r} = cmpxchg ptr %{loc}, i32 {c}, i32 {n}{ss(scope)} {o} {f}"

# T(name, ptx verdict of the nvptx lowering, {mapping: llvm-check verdict}, argument, threads, cond)
def T(name, ptx, check, arg, threads, cond, locs=("x", "y"), place=None):
    tests.append((name, ptx, check, arg, threads, cond, locs, place))

def write():
    man = ["suite: llvm",
           "description: LLVM-level litmus tests (header LLVM, docs/llvm-mapping.md) - C++/LLVM atomics with orderings and sync scopes, decided after the nvptx lowering under the PTX model; expected-check.tsv holds what llvm-check says under each mapping; every verdict argued in the test's doc string",
           "tests:"]
    tsv = ["# file\tmapping\tllvm-check verdict (suites/llvm/gen.py)"]
    for (name, ptx, check, arg, threads, cond, locs, place) in tests:
        arg = arg.replace('"', "'")
        doc = "\n".join(" " + l if k else l for k, l in enumerate(textwrap.wrap(arg, 96)))
        body = [f"LLVM {name}", f'"{doc}"', "{ " + " ".join(f"i32 {l} = 0;" for l in locs) + " }"]
        for i, ops in enumerate(threads):
            p = place[i] if place else f"cta {i},gpu 0"
            body.append(f"P{i}@{p} {{")
            body += ["  " + o for o in ops]
            body.append("}")
        body.append(cond)
        fn = name + ".llvm.litmus"
        open(os.path.join(OUT, fn), "w").write("\n".join(body) + "\n")
        man += [f"  - file: {fn}", f"    expect: {{ ptx: {ptx} }}",
                '    source: "own: LLVM front end (nvptx lowering), docs/llvm-mapping.md, PTX ISA 8.4 chapter 8"']
        for m in ("nvptx", "llc14", "no-fence-sc"):
            tsv.append(f"{fn}\t{m}\t{check.get(m, check.get('*'))}")
    open(os.path.join(OUT, "manifest.yaml"), "w").write("\n".join(man) + "\n")
    open(os.path.join(OUT, "expected-check.tsv"), "w").write("\n".join(tsv) + "\n")

OK = {"*": "ok"}
MPC = "exists (P1:r0 == 1 /\\ P1:r1 == 0)"
SBC = "exists (P0:r0 == 0 /\\ P1:r1 == 0)"
LBC = "exists (P0:r0 == 1 /\\ P1:r1 == 1)"
IRIWC = "exists (P2:r0 == 1 /\\ P2:r1 == 0 /\\ P3:r2 == 1 /\\ P3:r3 == 0)"
NOLLC = "llc 14 stops with 'Cannot select' on acquire/release/seq_cst loads and stores and on fences (suites/llvm/llc/), so llc14 is unsupported."
D = "device"

# ---------------- MP ----------------
T("MP+rlx+rlx.device", "Ok", OK,
  "MP with monotonic device-scope atomics only. C++: monotonic accesses create no synchronizes-with, so the reader may see the flag and the old data (allowed; no race: all accesses are atomics of inclusive scope). nvptx: st.relaxed.gpu / ld.relaxed.gpu: no release or acquire pattern (PTX 8.8), allowed. llc14: st.volatile / ld.volatile (relaxed.sys), also allowed. Every mapping: ok.",
  [[st("monotonic",D,"x",1), st("monotonic",D,"y",1)], [ld("r0","monotonic",D,"y"), ld("r1","monotonic",D,"x")]], MPC)
T("MP+rel+acq.device", "No", {"nvptx": "ok", "llc14": "unsupported", "no-fence-sc": "ok"},
  "MP with a release store and an acquire load of the flag, monotonic data, device scope. C++: the acquire load reading the release store synchronizes with it ([atomics.order] p2, RC11 sw), so the data load happens after the data store and reading 0 violates coherence (forbidden). nvptx: st.release.gpu / ld.acquire.gpu form release and acquire patterns that synchronize (PTX 8.8, 8.9.4); forbidden by Causality (8.10.6). " + NOLLC,
  [[st("monotonic",D,"x",1), st("release",D,"y",1)], [ld("r0","acquire",D,"y"), ld("r1","monotonic",D,"x")]], MPC)
T("MP+rel+acq.block-two-ctas", "Ok", {"nvptx": "racy", "llc14": "unsupported", "no-fence-sc": "racy"},
  "MP+rel+acq with syncscope(\"block\") and the threads on two CTAs. Scoped C++: the accesses' scopes do not include each other's thread, so the conflicting accesses to x and y are a heterogeneous race (Lustig et al. ASPLOS 2019 section 6; model/rc11-scoped.cat flags data-race): undefined behaviour, llvm-check does not judge it (racy). nvptx: .cta operations of different CTAs are not morally strong (PTX 8.7), no synchronization: PTX allows the outcome (Ok). " + NOLLC,
  [[st("monotonic","block","x",1), st("release","block","y",1)], [ld("r0","acquire","block","y"), ld("r1","monotonic","block","x")]], MPC)
T("MP+rel+acq.block-one-cta", "No", {"nvptx": "ok", "llc14": "unsupported", "no-fence-sc": "ok"},
  "MP+rel+acq.block-two-ctas with both threads on CTA 0: the block scope includes both, so C++ synchronizes (forbidden) and PTX .cta operations of one CTA are morally strong and synchronize (PTX 8.7, 8.9.4): forbidden. " + NOLLC,
  [[st("monotonic","block","x",1), st("release","block","y",1)], [ld("r0","acquire","block","y"), ld("r1","monotonic","block","x")]], MPC,
  place=["cta 0,gpu 0", "cta 0,gpu 0"])
T("MP+sc+sc", "No", {"nvptx": "ok", "llc14": "unsupported", "no-fence-sc": "ok"},
  "MP with seq_cst flag accesses (system scope) and monotonic data. C++: seq_cst store/load are release/acquire, so they synchronize: forbidden. nvptx: fence.sc.sys; st.release.sys and fence.sc.sys; ld.acquire.sys: the release and acquire patterns synchronize (PTX 8.8): forbidden. no-fence-sc keeps st.release/ld.acquire: forbidden too. " + NOLLC,
  [[st("monotonic","","x",1), st("seq_cst","","y",1)], [ld("r0","seq_cst","","y"), ld("r1","monotonic","","x")]], MPC)
T("MP+fence.rel+fence.acq", "No", {"nvptx": "ok", "llc14": "unsupported", "no-fence-sc": "ok"},
  "MP with monotonic accesses and fences: fence release before the flag store, fence acquire after the flag load (device scope). C++: fence-to-fence synchronization ([atomics.fences] p2; RC11 sw with ([F];po)? and (po;[F])?): forbidden. nvptx: fence.acq_rel.gpu; st.relaxed.gpu and ld.relaxed.gpu; fence.acq_rel.gpu are release and acquire patterns (PTX 8.8 second forms): forbidden. " + NOLLC,
  [[st("monotonic",D,"x",1), fence("release",D), st("monotonic",D,"y",1)], [ld("r0","monotonic",D,"y"), fence("acquire",D), ld("r1","monotonic",D,"x")]], MPC)
T("MP+xchg.rel+acq", "No", {"nvptx": "ok", "llc14": "unsupported", "no-fence-sc": "ok"},
  "MP whose flag is written by atomicrmw xchg release (device). C++: a release RMW heads a release sequence; the acquire load reading it synchronizes: forbidden. nvptx: atom.release.gpu.exch (its write is a release operation, PTX 8.4): forbidden. " + NOLLC,
  [[st("monotonic",D,"x",1), rmw("r9","xchg","release",D,"y",1)], [ld("r0","acquire",D,"y"), ld("r1","monotonic",D,"x")]], MPC)
T("MP+xchg.rel+add.acq", "No", {"nvptx": "ok", "llc14": "bug", "no-fence-sc": "ok"},
  "MP with RMWs on the flag only (xchg release, add 0 acquire) and monotonic data, device scope. C++: the acquire RMW reading the release RMW synchronizes: forbidden. nvptx: atom.release.gpu.exch and atom.acquire.gpu.add synchronize (PTX 8.8, 8.9.4): forbidden. llc14 compiles this test: it drops the orderings of every atomicrmw (atom.exch.b32 / atom.add.u32, i.e. .relaxed.gpu, PTX 9.7.12.5 defaults) and keeps the data as ld.volatile/st.volatile: no pattern synchronizes and PTX allows r0 == 1 /\\ r1 == 0: a mapping BUG of llc 14.",
  [[st("monotonic",D,"x",1), rmw("r9","xchg","release",D,"y",1)], [rmw("r0","add","acquire",D,"y",0), ld("r1","monotonic",D,"x")]], MPC)
T("MP+xchg.sc+cas.sc", "No", {"nvptx": "ok", "llc14": "bug", "no-fence-sc": "ok"},
  "MP with seq_cst RMWs on the flag (xchg, and cmpxchg 1 -> 2 reading it) and monotonic data, system scope. C++: seq_cst RMWs are acq_rel: the cmpxchg reading the xchg synchronizes: forbidden. nvptx: fence.sc.sys; atom.acq_rel.sys: forbidden. llc14: atom.exch and atom.cas without ordering (relaxed, .gpu): no synchronization, PTX allows the outcome: BUG.",
  [[st("monotonic","","x",1), rmw("r9","xchg","seq_cst","","y",1)], [cas("r0","seq_cst","seq_cst","","y",1,2), ld("r1","monotonic","","x")]], MPC)
T("MP+acq_rel.rmw", "No", {"nvptx": "ok", "llc14": "bug", "no-fence-sc": "ok"},
  "MP with acq_rel atomicrmw on the flag on both sides (xchg 1, add 0), device scope, monotonic data. C++ and nvptx (atom.acq_rel.gpu) synchronize: forbidden. llc14 lowers both to relaxed atom: allowed: BUG.",
  [[st("monotonic",D,"x",1), rmw("r9","xchg","acq_rel",D,"y",1)], [rmw("r0","add","acq_rel",D,"y",0), ld("r1","monotonic",D,"x")]], MPC)
T("MP+rel+acq+na-data", "No", {"nvptx": "racy", "llc14": "unsupported", "no-fence-sc": "racy"},
  "The PTX-style MP with non-atomic data: the reader loads x whatever the flag, so in the executions where it reads flag 0 its non-atomic load races with the non-atomic store ([intro.races] p21): undefined behaviour at source (racy), although the condition's outcome is forbidden in every race-free execution. nvptx: weak ld/st, release/acquire flag: PTX forbids the outcome (No). " + NOLLC,
  [[st("na","","x",1), st("release",D,"y",1)], [ld("r0","acquire",D,"y"), ld("r1","na","","x")]], MPC)
T("MP+volatile", "Ok", {"nvptx": "racy", "llc14": "racy", "no-fence-sc": "racy"},
  "MP with volatile (non-atomic) loads and stores, the old CUDA idiom: LLVM volatile is not atomic, so the accesses race: undefined at source (racy under every mapping). nvptx and llc14: ld.volatile/st.volatile are relaxed.sys (PTX 9.7.8.8): no synchronization, PTX allows the outcome (Ok).",
  [[st("vol","","x",1), st("vol","","y",1)], [ld("r0","vol","","y"), ld("r1","vol","","x")]], MPC)
T("MP+rel+acq.sys-two-gpus", "No", {"nvptx": "ok", "llc14": "unsupported", "no-fence-sc": "ok"},
  "MP+rel+acq at system scope (no syncscope) with the threads on two GPUs: the system scope includes both: C++ forbidden; nvptx: st.release.sys / ld.acquire.sys synchronize across GPUs: forbidden. " + NOLLC,
  [[st("monotonic","","x",1), st("release","","y",1)], [ld("r0","acquire","","y"), ld("r1","monotonic","","x")]], MPC,
  place=["cta 0,gpu 0", "cta 0,gpu 1"])
T("MP+xchg.rel+add.acq.sys-two-gpus", "No", {"nvptx": "ok", "llc14": "bug", "no-fence-sc": "ok"},
  "MP+xchg.rel+add.acq at system scope on two GPUs. C++: forbidden. nvptx: atom.release.sys / atom.acquire.sys: forbidden. llc14: atom without scope is .gpu (PTX 9.7.12.5), which does not include the other GPU, and relaxed: allowed: BUG (two reasons).",
  [[st("monotonic","","x",1), rmw("r9","xchg","release","","y",1)], [rmw("r0","add","acquire","","y",0), ld("r1","monotonic","","x")]], MPC,
  place=["cta 0,gpu 0", "cta 0,gpu 1"])
# ---------------- SB ----------------
T("SB+sc", "No", {"nvptx": "ok", "llc14": "unsupported", "no-fence-sc": "bug"},
  "SB with seq_cst stores and loads (system scope). C++: the four seq_cst accesses are in the single total order S ([atomics.order] p4; RC11 psc acyclic), so one load reads the other thread's store: forbidden. nvptx: each access preceded by fence.sc.sys; the fences are ordered by Fence-SC order (PTX 8.9.3) and the later one's thread sees the earlier's store: forbidden. no-fence-sc (st.release / ld.acquire only): release/acquire do not forbid SB in PTX: allowed: BUG (this is why seq_cst needs fence.sc). " + NOLLC,
  [[st("seq_cst","","x",1), ld("r0","seq_cst","","y")], [st("seq_cst","","y",1), ld("r1","seq_cst","","x")]], SBC)
T("SB+rlx", "Ok", OK,
  "SB with monotonic accesses: allowed in C++ (no SC order on relaxed accesses) and in PTX (relaxed, or volatile under llc14): ok under every mapping.",
  [[st("monotonic",D,"x",1), ld("r0","monotonic",D,"y")], [st("monotonic",D,"y",1), ld("r1","monotonic",D,"x")]], SBC)
T("SB+rel+acq", "Ok", {"nvptx": "ok", "llc14": "unsupported", "no-fence-sc": "ok"},
  "SB with release stores and acquire loads: allowed in C++ (release/acquire give no store-load order) and in PTX (no read reads the other thread, no synchronization): ok. " + NOLLC,
  [[st("release",D,"x",1), ld("r0","acquire",D,"y")], [st("release",D,"y",1), ld("r1","acquire",D,"x")]], SBC)
T("SB+fence.sc", "No", {"nvptx": "ok", "llc14": "unsupported", "no-fence-sc": "bug"},
  "SB with monotonic accesses and a seq_cst fence between store and load (device). C++: the two SC fences are ordered in S; the load after the later fence must see the store before the earlier one ([atomics.fences], RC11 psc-f): forbidden. nvptx: fence.sc.gpu: Fence-SC order (PTX 8.9.3) makes one fence synchronize with the other: forbidden. no-fence-sc lowers the fence to fence.acq_rel: allowed: BUG. " + NOLLC,
  [[st("monotonic",D,"x",1), fence("seq_cst",D), ld("r0","monotonic",D,"y")], [st("monotonic",D,"y",1), fence("seq_cst",D), ld("r1","monotonic",D,"x")]], SBC)
T("SB+fence.acq_rel", "Ok", {"nvptx": "ok", "llc14": "unsupported", "no-fence-sc": "ok"},
  "SB with acq_rel fences: no SC order, allowed in C++ and (fence.acq_rel) in PTX: ok. " + NOLLC,
  [[st("monotonic",D,"x",1), fence("acq_rel",D), ld("r0","monotonic",D,"y")], [st("monotonic",D,"y",1), fence("acq_rel",D), ld("r1","monotonic",D,"x")]], SBC)
T("SB+sc.block-one-cta", "No", {"nvptx": "ok", "llc14": "unsupported", "no-fence-sc": "bug"},
  "SB+sc with syncscope(\"block\") and both threads on one CTA: scopes inclusive, C++ forbidden; nvptx fence.sc.cta of one CTA are morally strong and Fence-SC ordered: forbidden; no-fence-sc: allowed: BUG. " + NOLLC,
  [[st("seq_cst","block","x",1), ld("r0","seq_cst","block","y")], [st("seq_cst","block","y",1), ld("r1","seq_cst","block","x")]], SBC,
  place=["cta 0,gpu 0", "cta 0,gpu 0"])
T("SB+sc.cluster", "No", {"nvptx": "ok", "llc14": "unsupported", "no-fence-sc": "bug"},
  "SB+sc with syncscope(\"cluster\") and the threads on two CTAs of one cluster: inclusive, C++ forbidden; nvptx fence.sc.cluster: forbidden (PTX 8.5 cluster scope, 8.9.3); no-fence-sc: BUG. " + NOLLC,
  [[st("seq_cst","cluster","x",1), ld("r0","seq_cst","cluster","y")], [st("seq_cst","cluster","y",1), ld("r1","seq_cst","cluster","x")]], SBC,
  place=["cta 0,cluster 0,gpu 0", "cta 1,cluster 0,gpu 0"])
T("SB+sc.rmw", "No", {"nvptx": "ok", "llc14": "bug", "no-fence-sc": "ok"},
  "SB with seq_cst RMWs only (xchg to store, add 0 to load). C++: forbidden (S order; also RMWs read their mo-predecessor, which synchronizes). nvptx: fence.sc; atom.acq_rel: forbidden. no-fence-sc: atom.acq_rel alone still forbids it (the add-0 RMW on each location must read the other thread's xchg or be read by it, and acq_rel RMWs synchronize): ok. llc14: relaxed .gpu atoms: no synchronization: allowed: BUG.",
  [[rmw("r8","xchg","seq_cst","","x",1), rmw("r0","add","seq_cst","","y",0)], [rmw("r9","xchg","seq_cst","","y",1), rmw("r1","add","seq_cst","","x",0)]], SBC)
# ---------------- LB ----------------
T("LB+rlx", "Ok", OK,
  "LB with monotonic accesses. C++ allows load buffering of relaxed atomics (the standard's thin-air note only excludes values from nowhere); the source model uses the dependency form of No-Thin-Air, not RC11's acyclic(po | rf) (model/rc11-scoped.cat header). PTX allows it (no dependencies, PTX 8.10.4). ok.",
  [[ld("r0","monotonic",D,"x"), st("monotonic",D,"y",1)], [ld("r1","monotonic",D,"y"), st("monotonic",D,"x",1)]], LBC)
T("LB+acq+rel", "No", {"nvptx": "ok", "llc14": "unsupported", "no-fence-sc": "ok"},
  "LB with acquire loads and release stores: each read of the other's release store synchronizes, so each load happens before the store it reads from (C++ coherence, RC11 irreflexive(hb; eco?)): forbidden. nvptx: the same synchronization in PTX, against Causality (8.10.6): forbidden. " + NOLLC,
  [[ld("r0","acquire",D,"x"), st("release",D,"y",1)], [ld("r1","acquire",D,"y"), st("release",D,"x",1)]], LBC)
T("LB+rlx+data", "No", OK,
  "LB where each thread stores the value it loaded (monotonic): 1 would come out of thin air. Forbidden in C++ (no write of 1 can be justified) and in PTX (No-Thin-Air, rf and data dependencies acyclic, 8.10.4); both models use the dependency axiom: ok under every mapping.",
  [[ld("r0","monotonic",D,"x"), f"store atomic i32 %r0, ptr %y syncscope(\"device\") monotonic, align 4"],
   [ld("r1","monotonic",D,"y"), f"store atomic i32 %r1, ptr %x syncscope(\"device\") monotonic, align 4"]], LBC)
# ---------------- IRIW / WRC / others ----------------
T("IRIW+sc", "No", {"nvptx": "ok", "llc14": "unsupported", "no-fence-sc": "bug"},
  "IRIW with seq_cst stores and loads (system). C++: S orders the two stores; a reader seeing them in the other order contradicts it: forbidden. nvptx: each reader has fence.sc.sys before each load; Fence-SC order between the readers' second fences makes one reader's first load causally before the other's second: forbidden (PTX 8.9.3). no-fence-sc: acquire loads alone allow IRIW: BUG. " + NOLLC,
  [[st("seq_cst","","x",1)], [st("seq_cst","","y",1)], [ld("r0","seq_cst","","x"), ld("r1","seq_cst","","y")], [ld("r2","seq_cst","","y"), ld("r3","seq_cst","","x")]], IRIWC)
T("IRIW+acq", "Ok", {"nvptx": "ok", "llc14": "unsupported", "no-fence-sc": "ok"},
  "IRIW with release stores and acquire loads: C++ allows the readers to disagree (no SC order); PTX allows it too: ok. " + NOLLC,
  [[st("release",D,"x",1)], [st("release",D,"y",1)], [ld("r0","acquire",D,"x"), ld("r1","acquire",D,"y")], [ld("r2","acquire",D,"y"), ld("r3","acquire",D,"x")]], IRIWC)
T("IRIW+fence.sc", "No", {"nvptx": "ok", "llc14": "unsupported", "no-fence-sc": "bug"},
  "IRIW with monotonic accesses and a seq_cst fence between each reader's loads (device). C++: the fences are ordered in S, forbidding the disagreement (RC11 psc-f): forbidden. nvptx fence.sc.gpu: forbidden (PTX 8.9.3). no-fence-sc fence.acq_rel: allowed: BUG. " + NOLLC,
  [[st("monotonic",D,"x",1)], [st("monotonic",D,"y",1)], [ld("r0","monotonic",D,"x"), fence("seq_cst",D), ld("r1","monotonic",D,"y")], [ld("r2","monotonic",D,"y"), fence("seq_cst",D), ld("r3","monotonic",D,"x")]], IRIWC)
T("WRC+rel+acq", "No", {"nvptx": "ok", "llc14": "unsupported", "no-fence-sc": "ok"},
  "WRC: P0 stores x (monotonic); P1 reads x (acquire) and stores y (release); P2 reads y (acquire) then x. C++: P0's store is read by P1... it is monotonic, so no sw from P0, but P1's load reading it puts it eco-before P1's store; hb from P1's store to P2's load and coherence (irreflexive hb;eco) forbid P2 reading 0 (write-read coherence through hb): forbidden. nvptx: observation then causality (PTX 8.9.5): forbidden. " + NOLLC,
  [[st("monotonic",D,"x",1)], [ld("r0","acquire",D,"x"), st("release",D,"y",1)], [ld("r1","acquire",D,"y"), ld("r2","monotonic",D,"x")]],
  "exists (P1:r0 == 1 /\\ P2:r1 == 1 /\\ P2:r2 == 0)")
T("2+2W+sc", "No", {"nvptx": "ok", "llc14": "unsupported", "no-fence-sc": "bug"},
  "2+2W with seq_cst stores: each thread stores 1 then 2 to the two locations in opposite order; x == 1 /\\ y == 1 needs each thread's first store coherence-after the other's second. C++: S must agree with mo and po on SC accesses (RC11 psc): forbidden. nvptx: fence.sc before each store; whichever of the two second fences is first in Fence-SC order makes its thread's first store causally before the other thread's second store: forbidden. no-fence-sc: release stores alone allow it: BUG. " + NOLLC,
  [[st("seq_cst","","x",1), st("seq_cst","","y",2)], [st("seq_cst","","y",1), st("seq_cst","","x",2)]], "exists (x == 1 /\\ y == 1)")
T("2+2W+rel", "Ok", {"nvptx": "ok", "llc14": "unsupported", "no-fence-sc": "ok"},
  "2+2W with monotonic then release stores: no reads, no synchronization: allowed in C++ and PTX: ok. " + NOLLC,
  [[st("monotonic",D,"x",1), st("release",D,"y",2)], [st("monotonic",D,"y",1), st("release",D,"x",2)]], "exists (x == 1 /\\ y == 1)")
T("R+sc", "No", {"nvptx": "ok", "llc14": "unsupported", "no-fence-sc": "bug"},
  "R: P0 stores x = 1 then y = 1; P1 stores y = 2 then loads x; all seq_cst. y == 2 /\\ r0 == 0 is forbidden in C++ (S: P0's y store before P1's, so P0's x store before P1's load). nvptx: the fences before P0's y store and P1's load are ordered by Fence-SC; either order contradicts the outcome (PTX 8.9.3, 8.10.1): forbidden. no-fence-sc: allowed: BUG. " + NOLLC,
  [[st("seq_cst","","x",1), st("seq_cst","","y",1)], [st("seq_cst","","y",2), ld("r0","seq_cst","","x")]], "exists (y == 2 /\\ P1:r0 == 0)")
T("S+rel+acq", "No", {"nvptx": "ok", "llc14": "unsupported", "no-fence-sc": "ok"},
  "S: P0 stores x = 2 (monotonic) then y = 1 (release); P1 loads y (acquire) then stores x = 1 (monotonic). r0 == 1 /\\ x == 2: P0's x store happens before P1's, so it is mo-before it and x ends 1 (C++ write-write coherence): forbidden. PTX: the same causality forces coherence order (8.10.1): forbidden. " + NOLLC,
  [[st("monotonic",D,"x",2), st("release",D,"y",1)], [ld("r0","acquire",D,"y"), st("monotonic",D,"x",1)]], "exists (P1:r0 == 1 /\\ x == 2)")
# ---------------- coherence and atomicity ----------------
T("CoRR+rlx", "No", OK,
  "CoRR: P1 loads x twice (monotonic, device) while P0 stores 1. Reading 1 then 0 contradicts read-read coherence (C++ [intro.races] p16, RC11 Coherence): forbidden. nvptx: ld.relaxed.gpu, SC per location (PTX 8.10.5): forbidden. llc14: ld.volatile / st.volatile (relaxed.sys): forbidden too. ok.",
  [[st("monotonic",D,"x",1)], [ld("r0","monotonic",D,"x"), ld("r1","monotonic",D,"x")]], "exists (P1:r0 == 1 /\\ P1:r1 == 0)", locs=("x",))
T("CoRR+rlx.block-two-ctas", "Ok", {"*": "racy"},
  "CoRR with syncscope(\"block\") on two CTAs: at source a heterogeneous race (the scopes do not include each other): racy under every mapping. nvptx: .cta accesses of different CTAs are not morally strong, so SC per location does not relate the store and the loads: PTX allows it (Ok). llc14 ignores the scope (ld.volatile is .sys) and would forbid it, but the source is undefined.",
  [[st("monotonic","block","x",1)], [ld("r0","monotonic","block","x"), ld("r1","monotonic","block","x")]], "exists (P1:r0 == 1 /\\ P1:r1 == 0)", locs=("x",))
T("CoWW+rlx", "No", OK,
  "CoWW: one thread stores 1 then 2 (monotonic); final x == 1 contradicts write-write coherence (C++, RC11 Coherence; PTX 8.10.1): forbidden under every mapping: ok.",
  [[st("monotonic",D,"x",1), st("monotonic",D,"x",2)]], "exists (x == 1)", locs=("x",))
T("RMW-add.device", "No", OK,
  "Two threads atomicrmw add 1 (monotonic, device): RMWs read the last value in modification order ([atomics.order] p10, RC11 Atomicity): x ends 2, never 1: forbidden. nvptx atom.relaxed.gpu.add and llc14 atom.add (.gpu): morally strong, atomicity (PTX 8.10.3): forbidden. ok.",
  [[rmw("r0","add","monotonic",D,"x",1)], [rmw("r1","add","monotonic",D,"x",1)]], "exists (x == 1)", locs=("x",))
T("RMW-add.sys-two-gpus", "No", {"nvptx": "ok", "llc14": "bug", "no-fence-sc": "ok"},
  "Two threads on two GPUs atomicrmw add 1 (monotonic, system scope): C++ atomicity: x == 1 forbidden. nvptx: atom.relaxed.sys.add: morally strong across GPUs: forbidden. llc14: atom.add.u32 has the default .gpu scope (PTX 9.7.12.5), which does not include the other GPU: not morally strong, atomicity not guaranteed: PTX allows x == 1: BUG of llc 14 (system-scope atomics lowered at .gpu scope).",
  [[rmw("r0","add","monotonic","","x",1)], [rmw("r1","add","monotonic","","x",1)]], "exists (x == 1)", locs=("x",),
  place=["cta 0,gpu 0", "cta 0,gpu 1"])
T("CAS-lock.acq", "No", OK,
  "Two threads cmpxchg x 0 -> 1 (acquire acquire, device): both succeeding would be two RMWs reading the same write (C++ atomicity): forbidden; PTX atom.acquire.gpu.cas (llc14: atom.cas, .gpu): atomicity (8.10.3): forbidden. ok.",
  [[cas("r0","acquire","acquire",D,"x",0,1)], [cas("r1","acquire","acquire",D,"x",0,1)]], "exists (P0:r0 == 0 /\\ P1:r1 == 0)", locs=("x",))
T("MP+sc.device-two-gpus", "Ok", {"nvptx": "racy", "llc14": "unsupported", "no-fence-sc": "racy"},
  "MP+sc at device scope with the threads on two GPUs: the scopes do not include each other: a heterogeneous race at source (racy). nvptx: .gpu fences and accesses of different GPUs are not morally strong: PTX allows the outcome (Ok). " + NOLLC,
  [[st("monotonic",D,"x",1), st("seq_cst",D,"y",1)], [ld("r0","seq_cst",D,"y"), ld("r1","monotonic",D,"x")]], MPC,
  place=["cta 0,gpu 0", "cta 0,gpu 1"])
write()
print(len(tests))
