import os, textwrap
OUT = os.path.dirname(os.path.abspath(__file__))   # suites/tileir: rewrites the tests and manifest.yaml
tests = []

def sc(sem, scope):
    return sem if sem == "weak" else f"{sem} {scope}"

def st(t, sem, scope, loc, v, tin=None):
    tk = f" token=%{tin}" if tin else ""
    return f"%{t} = store_ptr_tko {sc(sem,scope)} %{loc}, %c{v}{tk} : tile<ptr<i32>>, tile<i32> -> token"
def ld(r, t, sem, scope, loc, tin=None):
    tk = f" token=%{tin}" if tin else ""
    return f"%{r}, %{t} = load_ptr_tko {sc(sem,scope)} %{loc}{tk} : tile<ptr<i32>> -> tile<i32>, token"
def rmw(r, t, sem, scope, loc, mode, v, tin=None):
    tk = f" token=%{tin}" if tin else ""
    return f"%{r}, %{t} = atomic_rmw_tko {sem} {scope} %{loc}, {mode}, %c{v}{tk} : tile<ptr<i32>>, tile<i32> -> tile<i32>, token"
def cas(r, t, sem, scope, loc, a, b, tin=None):
    tk = f" token=%{tin}" if tin else ""
    return f"%{r}, %{t} = atomic_cas_tko {sem} {scope} %{loc}, %c{a}, %c{b}{tk} : tile<ptr<i32>>, tile<i32>, tile<i32> -> tile<i32>, token"

def T(name, verdict, arg, threads, cond, locs=("x", "y"), place=None):
    tests.append((name, verdict, arg, threads, cond, locs, place))

def block(i, ops, place):
    consts = set()
    import re
    for o in ops:
        consts.update(re.findall(r"%c(\d+)", o))
    p = place[i] if place else f"cta {i},gpu 0"
    lines = [f"P{i}@{p} {{"]
    for c in sorted(consts, key=int):
        lines.append(f"  %c{c} = constant <i32: {c}> : tile<i32>")
    lines += ["  " + o for o in ops]
    lines.append("}")
    return "\n".join(lines)

def write():
    man = ["suite: tileir",
           "description: Tile IR litmus tests (header TILEIR, docs/tileir.md) - token-ordered loads, stores and atomics on scalar tiles with each memory ordering and scope, mapped to the PTX model; every expected verdict is argued in the test's doc string from tile-ir-operations.txt and the PTX ISA 8.4 memory model",
           "tests:"]
    for (name, verdict, arg, threads, cond, locs, place) in tests:
        doc = "\n".join(" " + l if k else l for k, l in enumerate(textwrap.wrap(arg, 96)))
        body = [f"TILEIR {name}", f'"{doc}"', "{ " + " ".join(f"i32 {l} = 0;" for l in locs) + " }"]
        for i, ops in enumerate(threads):
            body.append(block(i, ops, place))
        body.append(cond)
        fn = name + ".tileir.litmus"
        open(os.path.join(OUT, fn), "w").write("\n".join(body) + "\n")
        man += [f"  - file: {fn}", f"    expect: {{ ptx: {verdict} }}",
                f'    source: "own: Tile IR front end, tile-ir-operations.txt 8.6/8.10, PTX ISA 8.4 chapter 8"']
    open(os.path.join(OUT, "manifest.yaml"), "w").write("\n".join(man) + "\n")

MPC = "exists (P1:r0 == 1 /\\ P1:r1 == 0)"
REL = "The release store (PTX st.release.gpu) and the acquire load (ld.acquire.gpu) are morally strong (both strong, device -> .gpu includes both tile blocks, one GPU: §8.7), so when the load reads the store they form a release pattern and an acquire pattern that synchronize (§8.8, §8.9.4)."
# ---------------- MP ----------------
T("MP+rel+acq.device+tokens", "No",
  "MP with tokens on both sides. P0's weak store of x is token-ordered before its release store of y (store_ptr_tko ... token=%t0: ordered by the token, tile-ir-operations.txt 8.6), and P1's acquire load of y is token-ordered before its weak load of x, so both pairs are in program order. " + REL + " Causality order then runs Wx -> Wy -> Ry -> Rx; Rx reading the initial 0 would read a write that is coherence-before Wx, which is causally before it (Causality axiom §8.10.6). Forbidden.",
  [[st("t0","weak","","x",1), st("t1","release","device","y",1,"t0")],
   [ld("r0","t2","acquire","device","y"), ld("r1","t3","weak","","x","t2")]], MPC)
T("MP+rel+acq.device+no-token-writer", "Ok",
  "As MP+rel+acq.device+tokens, but P0's two stores are not connected by a token. The reference: 'the ordering between any pair of memory operations is undefined unless connected by tokens' (8.6) and 'the compiler may reorder them' (8.6.2). The release pattern covers only operations before the release in program order (§8.8), which the weak store of x is not; nothing orders Wx before the synchronization, so Rx may read 0. Allowed.",
  [[st("t0","weak","","x",1), st("t1","release","device","y",1)],
   [ld("r0","t2","acquire","device","y"), ld("r1","t3","weak","","x","t2")]], MPC)
T("MP+rel+acq.device+no-token-reader", "Ok",
  "As MP+rel+acq.device+tokens, but P1's loads are not connected by a token, so the weak load of x is not after the acquire load in program order (8.6: unordered unless connected by tokens); the acquire pattern (§8.8) does not reach it and it may be performed first, reading 0. Allowed.",
  [[st("t0","weak","","x",1), st("t1","release","device","y",1,"t0")],
   [ld("r0","t2","acquire","device","y"), ld("r1","t3","weak","","x")]], MPC)
T("MP+rel+acq.tl_blk", "Ok",
  "MP with tokens, release/acquire at tl_blk scope. tl_blk maps to .cta (docs/tileir.md): each tile block runs on its own CTA, so neither operation's scope includes the other block's thread; they are not morally strong (§8.7 condition 1) and form no synchronization (§8.9.4 requires morally strong patterns). The reference says the same in its words: the scope 'must be broad enough to encompass all other threads which are participating in the communication' (8.6.2). Allowed.",
  [[st("t0","weak","","x",1), st("t1","release","tl_blk","y",1,"t0")],
   [ld("r0","t2","acquire","tl_blk","y"), ld("r1","t3","weak","","x","t2")]], MPC)
T("MP+rel+acq.sys", "No",
  "MP+rel+acq.device+tokens at sys scope (-> .sys): the scopes include both blocks, the release and acquire patterns synchronize (§8.9.4); token order gives program order on both sides. Forbidden, as at device scope.",
  [[st("t0","weak","","x",1), st("t1","release","sys","y",1,"t0")],
   [ld("r0","t2","acquire","sys","y"), ld("r1","t3","weak","","x","t2")]], MPC)
T("MP+rlx+rlx.device", "Ok",
  "MP with tokens and relaxed flag accesses: 'relaxed - ... this access does not establish a happens-before relationship' (8.6.2). In PTX a relaxed store and load form no release or acquire pattern (§8.8), so there is no synchronization and Rx may read 0. Allowed.",
  [[st("t0","weak","","x",1), st("t1","relaxed","device","y",1,"t0")],
   [ld("r0","t2","relaxed","device","y"), ld("r1","t3","weak","","x","t2")]], MPC)
T("MP+rel+rlx.device", "Ok",
  "MP with tokens, a release store and a relaxed load of the flag: there is no acquire pattern on P1 (§8.8), so no synchronization (§8.9.4) and the token order on P1 alone does not order Rx after P0's stores. Allowed.",
  [[st("t0","weak","","x",1), st("t1","release","device","y",1,"t0")],
   [ld("r0","t2","relaxed","device","y"), ld("r1","t3","weak","","x","t2")]], MPC)
T("MP+rlx+acq.device", "Ok",
  "MP with tokens, a relaxed store and an acquire load of the flag: there is no release pattern on P0 (§8.8), so no synchronization. Allowed.",
  [[st("t0","weak","","x",1), st("t1","relaxed","device","y",1,"t0")],
   [ld("r0","t2","acquire","device","y"), ld("r1","t3","weak","","x","t2")]], MPC)
T("MP+rel+acq.device+join", "No",
  "MP where the release store consumes join_tokens of the data store's token and a fresh token: 'Token-ordered operations which consume the new token will then be ordered with respect to all joined tokens' (8.6.1), so Wx is before Wy in program order and the release pattern covers it. With the acquire side token-ordered, the argument of MP+rel+acq.device+tokens applies. Forbidden.",
  [[st("t0","weak","","x",1), "%m = make_token : token", "%j = join_tokens %t0, %m : token", st("t1","release","device","y",1,"j")],
   [ld("r0","t2","acquire","device","y"), ld("r1","t3","weak","","x","t2")]], MPC)
T("MP+rel+acq.device+make_token", "Ok",
  "MP where the release store consumes a token from make_token instead of the data store's token. 'The make_token operation creates a fresh token with no prior dependencies' (8.6.3), so the data store is not ordered before the release and may be performed after it. Allowed.",
  [[st("t0","weak","","x",1), "%m = make_token : token", st("t1","release","device","y",1,"m")],
   [ld("r0","t2","acquire","device","y"), ld("r1","t3","weak","","x","t2")]], MPC)
T("MP+rel+acq.device+chain", "No",
  "MP where P0's token chain passes through an unrelated relaxed load of z: Wx -> Rz -> Wy(release). Token order is transitive ('ordered with respect to' each token the consumed token depends on, 8.6.1), so Wx is before the release in program order and the release pattern covers it (§8.8). With the acquire side token-ordered: forbidden, as MP+rel+acq.device+tokens.",
  [[st("t0","weak","","x",1), ld("r2","t1","relaxed","device","z","t0"), st("t2","release","device","y",1,"t1")],
   [ld("r0","t3","acquire","device","y"), ld("r1","t4","weak","","x","t3")]], MPC, locs=("x","y","z"))
T("MP+xchg.rel+acq.device", "No",
  "MP whose flag is written by atomic_rmw_tko xchg with release semantics (-> atom.release.gpu.exch): the write of a release atomic is a release operation (§8.4), so the release pattern holds; P1's acquire load reads it and synchronizes (§8.9.4). Token order on both sides. Forbidden.",
  [[st("t0","weak","","x",1), rmw("r9","t1","release","device","y","xchg",1,"t0")],
   [ld("r0","t2","acquire","device","y"), ld("r1","t3","weak","","x","t2")]], MPC)
T("MP+rel+cas.acq.device", "No",
  "MP whose flag is read by atomic_cas_tko acquire (compare 1, swap 2; -> atom.acquire.gpu.cas): r0 == 1 means the CAS read the release store, and the read of an acquire atomic is an acquire operation (§8.4), so the patterns synchronize (§8.9.4); the weak load of x is token-ordered after the CAS. Forbidden.",
  [[st("t0","weak","","x",1), st("t1","release","device","y",1,"t0")],
   [cas("r0","t2","acquire","device","y",1,2), ld("r1","t3","weak","","x","t2")]], MPC)
T("MP+acq_rel.rmw.device", "No",
  "MP with acq_rel atomic_rmw_tko on both sides of the flag (P0: xchg y 1, P1: add y 0): an acq_rel atomic is both a release and an acquire operation (§8.4); r0 == 1 means P1's RMW read P0's RMW, which synchronizes (§8.9.4). Token order on both sides. Forbidden.",
  [[st("t0","weak","","x",1), rmw("r9","t1","acq_rel","device","y","xchg",1,"t0")],
   [rmw("r0","t2","acq_rel","device","y","add",0), ld("r1","t3","weak","","x","t2")]], MPC)
T("MP+rel+acq.device+two-gpus", "Ok",
  "MP+rel+acq.device+tokens with the two tile blocks on different GPUs: device maps to .gpu, whose scope holds the threads of one GPU only (§8.5), so the operations are not morally strong and do not synchronize (§8.7, §8.9.4); the reference: the scope must 'encompass all other threads which are participating in the communication'. Allowed.",
  [[st("t0","weak","","x",1), st("t1","release","device","y",1,"t0")],
   [ld("r0","t2","acquire","device","y"), ld("r1","t3","weak","","x","t2")]], MPC, place=["cta 0,gpu 0", "cta 0,gpu 1"])
T("MP+rel+acq.sys+two-gpus", "No",
  "MP+rel+acq.device+two-gpus at sys scope: 'sys - There may be concurrent accesses from anywhere within the system (i.e., all devices)' (8.6.2), .sys includes every thread (§8.5), so the patterns synchronize across GPUs. Forbidden.",
  [[st("t0","weak","","x",1), st("t1","release","sys","y",1,"t0")],
   [ld("r0","t2","acquire","sys","y"), ld("r1","t3","weak","","x","t2")]], MPC, place=["cta 0,gpu 0", "cta 0,gpu 1"])
# ---------------- SB ----------------
SBC = "exists (P0:r0 == 0 /\\ P1:r1 == 0)"
T("SB+rel+acq.device", "Ok",
  "SB with tokens: each block stores (release) then loads (acquire) the other location. Both loads may read the initial 0: a release store followed by an acquire load of another location gives no order between them across threads; only fence.sc (Fence-SC order §8.9.3) forbids SB in PTX, and Tile IR's memory_ordering_semantics has no seq_cst and there is no fence operation. No load reads a store, so there is no synchronization (§8.9.4) and no axiom is violated. Allowed.",
  [[st("t0","release","device","x",1), ld("r0","t1","acquire","device","y","t0")],
   [st("t2","release","device","y",1), ld("r1","t3","acquire","device","x","t2")]], SBC)
T("SB+acq_rel.rmw.device", "No",
  "SB with acq_rel atomic_rmw_tko everywhere (xchg 1 to store, add 0 to load), token-ordered. A first argument said Allowed (no read reads another block's write, so nothing synchronizes); the tool said Forbidden, and the tool is right: add 0 is a write too. If P0's add on y reads the initial 0, P1's xchg on y cannot also read the initial write (atomicity of morally strong RMWs, §8.10.3), so it reads P0's add, whose write releases (acq_rel, §8.4) and whose reader acquires: they synchronize (§8.9.4). Then P0's xchg of x is causally before P1's add on x (token order, sync, token order), which cannot read the initial 0 (Causality §8.10.6). Symmetrically the other way; r0 == 0 /\\ r1 == 0 is forbidden (as in C++, where RMWs read their immediate modification-order predecessor).",
  [[rmw("r8","t0","acq_rel","device","x","xchg",1), rmw("r0","t1","acq_rel","device","y","add",0,"t0")],
   [rmw("r9","t2","acq_rel","device","y","xchg",1), rmw("r1","t3","acq_rel","device","x","add",0,"t2")]], SBC)
T("SB+weak", "Ok",
  "SB with weak accesses and no tokens: weak accesses race (the reference: 'weak - No concurrent accesses', a promise this test breaks; PTX §8.7.1 data race), and nothing orders anything. Allowed.",
  [[st("t0","weak","","x",1), ld("r0","t1","weak","","y")],
   [st("t2","weak","","y",1), ld("r1","t3","weak","","x")]], SBC)
# ---------------- LB ----------------
LBC = "exists (P0:r0 == 1 /\\ P1:r1 == 1)"
T("LB+acq+rel.device", "No",
  "LB with tokens: each block loads (acquire) one location then stores (release) 1 to the other. r0 == 1 and r1 == 1 would make each release store synchronize with the other block's acquire load (§8.9.4), so each load is causally after the other block's store, which is causally after that block's load: a load causally after the store it reads from (Causality §8.10.6, rf against causality). Forbidden.",
  [[ld("r0","t0","acquire","device","x"), st("t1","release","device","y",1,"t0")],
   [ld("r1","t2","acquire","device","y"), st("t3","release","device","x",1,"t2")]], LBC)
T("LB+rlx.device", "Ok",
  "LB with tokens and relaxed accesses: no synchronization (relaxed 'does not establish a happens-before relationship', 8.6.2), the stores write constants so there is no dependency for No-Thin-Air (§8.10.4), and PTX allows load buffering. Allowed.",
  [[ld("r0","t0","relaxed","device","x"), st("t1","relaxed","device","y",1,"t0")],
   [ld("r1","t2","relaxed","device","y"), st("t3","relaxed","device","x",1,"t2")]], LBC)
T("LB+rlx.device+data", "No",
  "LB where each block stores the value it loaded (a data dependency, no tokens): no operation writes 1 except one that got 1 from the other, so r0 == 1 needs a value out of thin air. PTX's No-Thin-Air axiom (§8.10.4: rf with data dependencies is acyclic) forbids it; in Tile IR the store's value is the load's result tile, so it cannot be performed before the load whatever the tokens. Forbidden.",
  [[ "%r0, %t0 = load_ptr_tko relaxed device %x : tile<ptr<i32>> -> tile<i32>, token",
     "%t1 = store_ptr_tko relaxed device %y, %r0 : tile<ptr<i32>>, tile<i32> -> token"],
   [ "%r1, %t2 = load_ptr_tko relaxed device %y : tile<ptr<i32>> -> tile<i32>, token",
     "%t3 = store_ptr_tko relaxed device %x, %r1 : tile<ptr<i32>>, tile<i32> -> token"]], LBC)
T("LB+acq+rel.device+no-tokens", "Ok",
  "LB+acq+rel.device without tokens: the acquire load and the release store of each block are unordered (8.6), so the release store may be performed first; the release pattern covers only what precedes it in program order and the acquire pattern only what follows (§8.8), neither of which the other access is. The synchronizations then give no cycle. Allowed.",
  [[ld("r0","t0","acquire","device","x"), st("t1","release","device","y",1)],
   [ld("r1","t2","acquire","device","y"), st("t3","release","device","x",1)]], LBC)
# ---------------- IRIW / WRC ----------------
IRIWC = "exists (P2:r0 == 1 /\\ P2:r1 == 0 /\\ P3:r2 == 1 /\\ P3:r3 == 0)"
T("IRIW+acq.device", "Ok",
  "IRIW with acquire loads, token-ordered in each reader, relaxed writers. The readers may see the two independent writes in opposite orders: reading x then y with acquire gives no ordering of P0's and P1's writes, and PTX needs fence.sc between the loads to forbid IRIW (§8.9.3); Tile IR has no fence and no seq_cst ordering. Allowed.",
  [[st("t0","relaxed","device","x",1)], [st("t1","relaxed","device","y",1)],
   [ld("r0","t2","acquire","device","x"), ld("r1","t3","acquire","device","y","t2")],
   [ld("r2","t4","acquire","device","y"), ld("r3","t5","acquire","device","x","t4")]], IRIWC)
T("IRIW+rel+acq.device", "Ok",
  "IRIW with release writers and acquire readers, token-ordered: each reader synchronizes with the writer it reads (§8.9.4), but that orders nothing between the two writers, so the readers may still disagree on their order (only Fence-SC order §8.9.3 makes the writes' order common). Allowed.",
  [[st("t0","release","device","x",1)], [st("t1","release","device","y",1)],
   [ld("r0","t2","acquire","device","x"), ld("r1","t3","acquire","device","y","t2")],
   [ld("r2","t4","acquire","device","y"), ld("r3","t5","acquire","device","x","t4")]], IRIWC)
T("WRC+rel+acq.device", "No",
  "WRC with tokens: P0 stores x (relaxed); P1 loads x (acquire) then, token-ordered, stores y (release); P2 loads y (acquire) then, token-ordered, x. P1's load observes P0's store (morally strong rf: observation, §8.9.2), so P0's store is in causality order before everything base-causally after P1's load (§8.9.5: causality includes observation followed by base causality): P1's release store, which P2's acquire load reads and synchronizes with (§8.9.4), and P2's load of x. That load reading 0 reads a write coherence-before P0's store, against causality (§8.10.6). Forbidden.",
  [[st("t0","relaxed","device","x",1)],
   [ld("r0","t1","acquire","device","x"), st("t2","release","device","y",1,"t1")],
   [ld("r1","t3","acquire","device","y"), ld("r2","t4","relaxed","device","x","t3")]],
  "exists (P1:r0 == 1 /\\ P2:r1 == 1 /\\ P2:r2 == 0)")
# ---------------- coherence ----------------
T("CoRR+rlx.device", "No",
  "CoRR with tokens: P1 reads x twice, token-ordered, relaxed device. Reading the new value then the old one contradicts SC per location (§8.10.5): the two loads are in program order (token order), and with the morally strong store (relaxed device, one GPU) they would form a cycle po; fr; rf. Forbidden.",
  [[st("t0","relaxed","device","x",1)],
   [ld("r0","t1","relaxed","device","x"), ld("r1","t2","relaxed","device","x","t1")]],
  "exists (P1:r0 == 1 /\\ P1:r1 == 0)", locs=("x",))
T("CoRR+rlx.device+no-tokens", "Ok",
  "CoRR without a token between P1's loads: they are unordered (8.6: 'the ordering between any pair of memory operations is undefined unless connected by tokens'), so the second may be performed first; no program order, no SC-per-location cycle (§8.10.5). Allowed: the litmus test shows why a reader must chain its tokens.",
  [[st("t0","relaxed","device","x",1)],
   [ld("r0","t1","relaxed","device","x"), ld("r1","t2","relaxed","device","x")]],
  "exists (P1:r0 == 1 /\\ P1:r1 == 0)", locs=("x",))
T("CoRR+weak-readers", "Ok",
  "CoRR with tokens but weak loads: a weak load and the other block's store are not morally strong (a weak access is not strong, §8.7), so the fr and rf edges do not enter SC per location (§8.10.5) and nothing synchronizes; weak accesses that race are what the reference excludes ('weak - No concurrent accesses'). Allowed.",
  [[st("t0","relaxed","device","x",1)],
   [ld("r0","t1","weak","","x"), ld("r1","t2","weak","","x","t1")]],
  "exists (P1:r0 == 1 /\\ P1:r1 == 0)", locs=("x",))
T("CoWW+tokens", "No",
  "CoWW in one tile block: store 1 then, token-ordered, store 2 to x (weak). Program order between writes of one thread to one location is coherence order (Coherence §8.10.1: causality includes program order; SC per location §8.10.5), so the final value is 2. Forbidden.",
  [[st("t0","weak","","x",1), st("t1","weak","","x",2,"t0")]],
  "exists (x == 1)", locs=("x",))
T("CoWW+no-tokens", "Ok",
  "CoWW without a token: the two stores are unordered (8.6; 'the compiler may reorder them', 8.6.4), so either may be the last and x == 1 is a possible final value. Allowed.",
  [[st("t0","weak","","x",1), st("t1","weak","","x",2)]],
  "exists (x == 1)", locs=("x",))
T("CoRW+tokens", "No",
  "CoRW in one tile block: load x, then (token) store 1 to x. The load cannot read the store that follows it in program order (a read causally before the write it reads from: Causality §8.10.6 / SC per location §8.10.5). Forbidden.",
  [[ld("r0","t0","weak","","x"), st("t1","weak","","x",1,"t0")]],
  "exists (P0:r0 == 1)", locs=("x",))
T("CoRW+no-tokens", "Ok",
  "CoRW without a token: the store is not ordered after the load (8.6), so the load may be performed after it and read 1. Allowed.",
  [[ld("r0","t0","weak","","x"), st("t1","weak","","x",1)]],
  "exists (P0:r0 == 1)", locs=("x",))
T("CoWR+tokens", "No",
  "CoWR in one tile block: store 1 to x, then (token) load x. The load is after the store in program order, so reading the initial value would read a write coherence-before a write that precedes the load (Causality §8.10.6). Forbidden.",
  [[st("t0","weak","","x",1), ld("r0","t1","weak","","x","t0")]],
  "exists (P0:r0 == 0)", locs=("x",))
T("CoWR+no-tokens", "Ok",
  "CoWR without a token: the load is not ordered after the store (8.6) and may read the initial 0. Allowed.",
  [[st("t0","weak","","x",1), ld("r0","t1","weak","","x")]],
  "exists (P0:r0 == 0)", locs=("x",))
T("2+2W+rel.device", "Ok",
  "2+2W with tokens: each block stores relaxed 1 then release 2 to the two locations in opposite order. No load exists, so no release pattern is observed and causality is program order only; coherence order on each location may put the other block's store last (§8.10.1 relates only writes ordered by causality), giving x == 1 and y == 1. Allowed.",
  [[st("t0","relaxed","device","x",1), st("t1","release","device","y",2,"t0")],
   [st("t2","relaxed","device","y",1), st("t3","release","device","x",2,"t2")]],
  "exists (x == 1 /\\ y == 1)")
# ---------------- atomicity ----------------
T("RMW-add.device", "No",
  "Two tile blocks each atomic_rmw_tko add relaxed device x 1: the RMWs are morally strong (device scope, one GPU, §8.7), so atomicity (§8.10.3) forbids both reading 0; the final value is 2, never 1. Forbidden.",
  [[rmw("r0","t0","relaxed","device","x","add",1)], [rmw("r1","t1","relaxed","device","x","add",1)]],
  "exists (x == 1)", locs=("x",))
T("RMW-add.tl_blk-two-blocks", "Ok",
  "RMW-add.device at tl_blk scope on two tile blocks: tl_blk -> .cta does not include the other block's thread, so the atomics are not morally strong and the atomicity axiom (§8.10.3, stated for morally strong operations) does not apply: both may read 0 and x ends 1. The reference's tl_blk: 'There may be concurrent accesses from within the same tile block' only. Allowed.",
  [[rmw("r0","t0","relaxed","tl_blk","x","add",1)], [rmw("r1","t1","relaxed","tl_blk","x","add",1)]],
  "exists (x == 1)", locs=("x",))
T("RMW-add.tl_blk-one-block-no-tokens", "No",
  "One tile block with two unordered atomic_rmw_tko add relaxed tl_blk x 1 (no token between them): they may run in either order, but they are atomic and tl_blk includes their own tile block, so they are morally strong (§8.7) and atomicity (§8.10.3) forbids both reading 0. x ends 2. Forbidden.",
  [[rmw("r0","t0","relaxed","tl_blk","x","add",1), rmw("r1","t1","relaxed","tl_blk","x","add",1)]],
  "exists (x == 1)", locs=("x",))
T("CAS-mutex.acq.device", "No",
  "Two tile blocks each try atomic_cas_tko acquire device x 0 -> 1 (a lock acquire): atomicity (§8.10.3) of morally strong RMWs forbids both reading 0, so at most one succeeds. Forbidden.",
  [[cas("r0","t0","acquire","device","x",0,1)], [cas("r1","t1","acquire","device","x",0,1)]],
  "exists (P0:r0 == 0 /\\ P1:r1 == 0)", locs=("x",))
write()
print(len(tests))
