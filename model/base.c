/* model/base.c — the base sets and relations of cat models (model/base.h), one definition
 * each, with the ISA 8.4 text it implements.  Names follow Dat3M's PTX models where Dat3M has
 * them (dat3m-ptx-v7.5.cat's comments list vloc, sr, scta, syncbar, sync_fence and the tags).
 * An atomic operation is a read event followed in program order by a write event (rmw), as in
 * herd and Dat3M; a compare-and-swap that fails is its read alone, unless the event semantics
 * make it write back the value read (msemantics.cas_fail_writes, Dat3M's reading). */
#include "model/base.h"
#include <string.h>

static const mevent *E(const muniverse *u, int i) { return &u->ev[i]; }
static int is_init(const mevent *e) { return e->k == EV_INIT; }
static int is_mem(const mevent *e)
{
    return e->k == EV_R || e->k == EV_W || e->k == EV_RMW || e->k == EV_INIT;
}
static int memory_fence(const mevent *e)
{
    return e->k == EV_F && (e->fence == FENCE_SC || e->fence == FENCE_ACQ_REL);
}
static int proxy_fence(const mevent *e) { return e->k == EV_F && e->fence >= FENCE_PROXY_ALIAS; }
static const lit_thread *TH(const muniverse *u, int i) { return &u->t->th[u->ev[i].thread]; }

/* ---------- event kinds, §8.4 Table 17 ---------- */

static int s_all(const muniverse *u, int i) { (void)u; (void)i; return 1; }
static int s_M(const muniverse *u, int i) { return is_mem(E(u, i)); }
static int s_R(const muniverse *u, int i) { return E(u, i)->k == EV_R || E(u, i)->k == EV_RMW; }
static int s_W(const muniverse *u, int i)
{
    const mevent *e = E(u, i);
    return e->k == EV_W || e->k == EV_RMW || is_init(e);
}
static int s_IW(const muniverse *u, int i) { return is_init(E(u, i)); }
static int s_F(const muniverse *u, int i) { return E(u, i)->k == EV_F; }
static int s_BAR(const muniverse *u, int i) { return E(u, i)->k == EV_BAR; }
static int s_ATOM(const muniverse *u, int i) { return !is_init(E(u, i)) && E(u, i)->atomic; }
static int s_RED(const muniverse *u, int i) { return !is_init(E(u, i)) && E(u, i)->red; }
static int s_VOL(const muniverse *u, int i)
{
    const mevent *e = E(u, i);
    return is_mem(e) && !is_init(e) && TH(u, i)->ins[e->insn].volatile_;
}
static int s_MMIO(const muniverse *u, int i)
{
    return is_mem(E(u, i)) && !is_init(E(u, i)) && E(u, i)->mmio;
}

/* ---------- memory orders, §8.4 ---------- */

/* The order of an event.  The read of an atomic operation acquires when the operation does
   (.acquire, .acq_rel), its write releases when the operation does (.release, .acq_rel). */
static lit_sem order(const muniverse *u, int i)
{
    const mevent *e = E(u, i);
    if (is_init(e) || !(is_mem(e) || memory_fence(e))) return (lit_sem)-1;
    if (e->k == EV_F) return e->sem;
    if (!e->atomic || e->k == EV_RMW || e->sem == SEM_SC)
        return e->sem; /* SC: C++ seq_cst RMW (LLVM front end) */
    if (e->k == EV_R)
        return e->sem == SEM_ACQUIRE || e->sem == SEM_ACQ_REL ? SEM_ACQUIRE : SEM_RELAXED;
    return e->sem == SEM_RELEASE || e->sem == SEM_ACQ_REL ? SEM_RELEASE : SEM_RELAXED;
}
static int s_WEAK(const muniverse *u, int i) { return order(u, i) == SEM_WEAK; }
static int s_RLX(const muniverse *u, int i) { return order(u, i) == SEM_RELAXED; }
static int s_ACQ(const muniverse *u, int i) { return order(u, i) == SEM_ACQUIRE; }
static int s_REL(const muniverse *u, int i) { return order(u, i) == SEM_RELEASE; }
/* fence.sc is a fence.acq_rel that is also in the Fence-SC order (§9.7.12.4); Dat3M's PTX front
   end tags it SC only (msemantics.fence_sc_only), so its models' F & ACQ_REL patterns leave it
   out */
static int s_ACQ_REL(const muniverse *u, int i)
{
    if (u->sem.fence_sc_only && E(u, i)->k == EV_F) return order(u, i) == SEM_ACQ_REL;
    return order(u, i) == SEM_ACQ_REL || order(u, i) == SEM_SC;
}
static int s_SC(const muniverse *u, int i) { return order(u, i) == SEM_SC; }

/* ---------- scopes, §8.5 ---------- */

static int has_scope(const mevent *e, lit_scope s)
{
    return !is_init(e) && (is_mem(e) || memory_fence(e)) && e->sem != SEM_WEAK && e->scope == s;
}
static int s_CTA(const muniverse *u, int i) { return has_scope(E(u, i), SCOPE_CTA); }
static int s_CLUSTER(const muniverse *u, int i) { return has_scope(E(u, i), SCOPE_CLUSTER); }
static int s_GPU(const muniverse *u, int i) { return has_scope(E(u, i), SCOPE_GPU); }
static int s_SYS(const muniverse *u, int i) { return has_scope(E(u, i), SCOPE_SYS); }

int base_scope_includes(const muniverse *u, int i, int thread)
{
    const mevent *e = E(u, i);
    if (is_init(e) || e->sem == SEM_WEAK || thread < 0) return 0;
    const lit_thread *a = TH(u, i), *b = &u->t->th[thread];
    switch (e->scope) {
    case SCOPE_CTA: return a->gpu == b->gpu && a->cta == b->cta;
    case SCOPE_CLUSTER: return a->gpu == b->gpu && a->cluster == b->cluster;
    case SCOPE_GPU: return a->gpu == b->gpu;
    case SCOPE_SYS: return 1;
    default: return 0;
    }
}

int base_same_scope(const muniverse *u, int i, int j)
{
    return base_scope_includes(u, i, E(u, j)->thread) && base_scope_includes(u, j, E(u, i)->thread);
}

int base_fence_sc(const muniverse *u, int i)
{
    return E(u, i)->k == EV_F && E(u, i)->fence == FENCE_SC;
}

/* ---------- proxies, §8.6 ---------- */

static lit_proxy proxy(const muniverse *u, int i)
{
    const mevent *e = E(u, i);
    if (proxy_fence(e) && e->fence == FENCE_PROXY_GENERIC) return PROXY_GENERIC;
    if (proxy_fence(e) && e->fence == FENCE_PROXY_ASYNC) return PROXY_ASYNC;
    if (proxy_fence(e) && e->fence == FENCE_PROXY_TENSORMAP)
        return PROXY_COUNT; /* no litmus access */
    if (proxy_fence(e) && e->fence != FENCE_PROXY_ALIAS)
        return (lit_proxy)(e->fence - FENCE_PROXY_ALIAS);
    return is_mem(e) ? e->proxy : PROXY_GENERIC;
}
static int s_GEN(const muniverse *u, int i) { return proxy(u, i) == PROXY_GENERIC; }
static int s_TEX(const muniverse *u, int i) { return proxy(u, i) == PROXY_TEXTURE; }
static int s_SUR(const muniverse *u, int i) { return proxy(u, i) == PROXY_SURFACE; }
static int s_CON(const muniverse *u, int i) { return proxy(u, i) == PROXY_CONSTANT; }
static int s_ALIAS(const muniverse *u, int i)
{
    return E(u, i)->k == EV_F && E(u, i)->fence == FENCE_PROXY_ALIAS;
}
static int s_ASYNC(const muniverse *u, int i) { return proxy(u, i) == PROXY_ASYNC; }
static int s_TMAP(const muniverse *u, int i)
{
    return E(u, i)->k == EV_F && E(u, i)->fence == FENCE_PROXY_TENSORMAP;
}
static int s_UNI(const muniverse *u, int i) { return E(u, i)->k == EV_F && E(u, i)->uni; }

/* ---------- mbarrier objects, restricted fences, shared memory (§9.7.13) ---------- */

static int s_MBAR(const muniverse *u, int i)
{
    return is_mem(E(u, i)) && !is_init(E(u, i)) && E(u, i)->mbar != MB_NONE;
}
static int s_MBINIT(const muniverse *u, int i)
{
    return is_mem(E(u, i)) && !is_init(E(u, i)) && E(u, i)->mbar == MB_INIT;
}
/* events of asynchronous operations (§8.9.1.1: "not part of the program order for that thread") */
static int s_ASYNCOP(const muniverse *u, int i)
{
    return !is_init(E(u, i)) && E(u, i)->thread >= 0 && TH(u, i)->ins[E(u, i)->insn].async_id > 0;
}
static int s_UB(const muniverse *u, int i) { return !is_init(E(u, i)) && E(u, i)->ub; }
static int restricted(const muniverse *u, int i, lit_restrict r)
{
    return E(u, i)->k == EV_F && E(u, i)->restrict_ == r;
}
static int s_RS_INIT(const muniverse *u, int i) { return restricted(u, i, RS_MBARRIER_INIT); }
static int s_RS_CTA(const muniverse *u, int i) { return restricted(u, i, RS_SHARED_CTA); }
static int s_RS_CLUSTER(const muniverse *u, int i) { return restricted(u, i, RS_SHARED_CLUSTER); }
static int s_SHM(const muniverse *u, int i)
{
    const mevent *e = E(u, i);
    return is_mem(e) && !is_init(e) &&
           (e->fspace == SPACE_SHARED_CTA || e->fspace == SPACE_SHARED_CLUSTER);
}
static int s_SHM_CTA(const muniverse *u, int i)
{
    const mevent *e = E(u, i);
    return is_mem(e) && !is_init(e) && e->fspace == SPACE_SHARED_CTA;
}
/* a proxy fence limited to a state space (fence.proxy.async.global, .shared::cta,
   .shared::cluster) and a memory operation it applies to, either way round */
static int fence_applies(const mevent *f, const mevent *m)
{
    if (f->k != EV_F || !is_mem(m)) return 0;
    if (f->fspace == SPACE_GENERIC) return 1;
    if (f->fspace == SPACE_GLOBAL)
        return m->fspace != SPACE_SHARED_CTA && m->fspace != SPACE_SHARED_CLUSTER;
    return m->fspace != SPACE_GLOBAL;
}
static int r_proxy_space(const muniverse *u, int i, int j)
{
    return fence_applies(E(u, i), E(u, j)) || fence_applies(E(u, j), E(u, i));
}

/* ---------- relations ---------- */

/* program order; a front end may give a partial order instead (lit_thread.order: Tile IR's
   token order), which relates only the events of ordered instructions */
static int r_po(const muniverse *u, int i, int j)
{
    if (!upo(u, i, j)) return 0;
    const lit_thread *th = TH(u, i);
    const mevent *a = E(u, i), *b = E(u, j);
    return !th->order || a->insn == b->insn ||
           th->order[(size_t)a->insn * (size_t)th->nins + (size_t)b->insn];
}
static int same_bytes(const mevent *a, const mevent *b)
{
    return a->loc == b->loc && a->off == b->off && a->size == b->size;
}
static int r_loc(const muniverse *u, int i, int j)
{
    return is_mem(E(u, i)) && is_mem(E(u, j)) && same_bytes(E(u, i), E(u, j));
}
static int r_vloc(const muniverse *u, int i, int j)
{
    return r_loc(u, i, j) && E(u, i)->vaddr == E(u, j)->vaddr;
}
static int r_overlap(const muniverse *u, int i, int j)
{
    const mevent *a = E(u, i), *b = E(u, j);
    return is_mem(a) && is_mem(b) && a->loc == b->loc && a->off < b->off + b->size &&
           b->off < a->off + a->size;
}
static int r_same_va(const muniverse *u, int i, int j)
{
    return is_mem(E(u, i)) && is_mem(E(u, j)) && E(u, i)->vaddr == E(u, j)->vaddr;
}
static int r_ext(const muniverse *u, int i, int j) { return E(u, i)->thread != E(u, j)->thread; }
static int r_int(const muniverse *u, int i, int j)
{
    return E(u, i)->thread == E(u, j)->thread && !is_init(E(u, i));
}
static int r_rmw(const muniverse *u, int i, int j)
{
    return u->rmw_part[i] == 1 && u->rmw_pair[i] == j;
}
static int r_none(const muniverse *u, int i, int j) { (void)u; (void)i; (void)j; return 0; }
static int r_sr(const muniverse *u, int i, int j) { return base_same_scope(u, i, j); }
static int r_scta(const muniverse *u, int i, int j)
{
    if (is_init(E(u, i)) || is_init(E(u, j))) return 0;
    const lit_thread *a = TH(u, i), *b = TH(u, j);
    return a->gpu == b->gpu && a->cta == b->cta;
}
static int r_scluster(const muniverse *u, int i, int j)
{
    if (is_init(E(u, i)) || is_init(E(u, j))) return 0;
    const lit_thread *a = TH(u, i), *b = TH(u, j);
    return a->gpu == b->gpu && a->cluster == b->cluster;
}
/* §8.9.4 item 2, §9.7.12.1: operations of different threads of one CTA on the same barrier
   (same id and thread count; the k-th use by each thread meets the others' k-th use, as the
   barrier is reinitialized when it completes); a bar.arrive does not wait, so it synchronizes
   only towards a bar.sync or bar.red. */
int base_barrier_counted(const muniverse *u, int i)
{
    return E(u, i)->k == EV_BAR && E(u, i)->bar_has_cnt;
}

static int cluster_bar(const mevent *e)
{
    return e->k == EV_BAR && (e->bar == BAR_CARRIVE || e->bar == BAR_CWAIT);
}

int base_dat3m_barrier(const muniverse *u, int i)
{
    const mevent *e = E(u, i);
    return u->sem.dat3m_barriers && e->k == EV_BAR && TH(u, i)->ins[e->insn].bar_unit == 1;
}

int base_dat3m_same_instance(const muniverse *u, int i, int j)
{
    if (!base_dat3m_barrier(u, i) || !base_dat3m_barrier(u, j)) return 0;
    const lit_thread *x = TH(u, i), *y = TH(u, j);
    const lit_insn *a = &x->ins[E(u, i)->insn], *b = &y->ins[E(u, j)->insn];
    return x->gpu == y->gpu && x->cta == y->cta && a->bar_inst == b->bar_inst &&
           a->bar_named == b->bar_named;
}

int base_same_barrier(const muniverse *u, int i, int j)
{
    const mevent *a = E(u, i), *b = E(u, j);
    if (a->k != EV_BAR || b->k != EV_BAR || is_init(a) || is_init(b)) return 0;
    if (base_dat3m_barrier(u, i) || base_dat3m_barrier(u, j)) return 0;
    const lit_thread *x = TH(u, i), *y = TH(u, j);
    /* barrier.cluster (§9.7.13.3): "When all non-exited threads in the cluster have executed
       barrier.cluster.arrive, the barrier completes and is automatically reinitialized": the
       k-th arrives of the cluster's threads form one instance, which their k-th waits await */
    if (cluster_bar(a) || cluster_bar(b))
        return cluster_bar(a) && cluster_bar(b) && x->gpu == y->gpu && x->cluster == y->cluster &&
               a->bar_gen == b->bar_gen;
    if (x->gpu != y->gpu || x->cta != y->cta || a->bar_id != b->bar_id ||
        a->bar_has_cnt != b->bar_has_cnt || a->bar_cnt != b->bar_cnt)
        return 0;
    /* counted barriers group dynamically (solver/query.c); uncounted ones by use number */
    return a->bar_has_cnt ? a->thread != b->thread : a->bar_gen == b->bar_gen;
}

int base_syncbar_static(const muniverse *u, int i, int j)
{
    /* "barrier.cluster.wait ... guarantees that when it completes the execution, memory
       accesses ... requested, in program order, prior to the preceding barrier.cluster.arrive
       by all threads in the cluster are complete and visible": a .release arrive synchronizes
       with the .acquire waits of its instance (a .relaxed arrive with none) */
    if (cluster_bar(E(u, i)) || cluster_bar(E(u, j)))
        return E(u, i)->thread != E(u, j)->thread && base_same_barrier(u, i, j) &&
               E(u, i)->bar == BAR_CARRIVE && E(u, i)->sem == SEM_RELEASE &&
               E(u, j)->bar == BAR_CWAIT && E(u, j)->sem == SEM_ACQUIRE;
    return !base_barrier_counted(u, i) && E(u, i)->thread != E(u, j)->thread &&
           base_same_barrier(u, i, j) && E(u, j)->bar != BAR_ARRIVE;
}

/* barrier.cluster: an arrive and a wait of another thread in its instance (any semantics) */
static int r_cbar(const muniverse *u, int i, int j)
{
    return cluster_bar(E(u, i)) && E(u, i)->bar == BAR_CARRIVE && cluster_bar(E(u, j)) &&
           E(u, j)->bar == BAR_CWAIT && E(u, i)->thread != E(u, j)->thread &&
           base_same_barrier(u, i, j);
}

#define SET(n, f, d) { n, BASE_SET, BASE_STATIC, f, NULL, d }
#define REL(n, f, d) { n, BASE_REL, BASE_STATIC, NULL, f, d }
#define DYN(n, d) { n, BASE_REL, BASE_DYNAMIC, NULL, NULL, d }

const base_def base_defs[] = {
    SET("_", s_all, "every event of the execution"),
    SET("M", s_M,
        "memory operations: reads and writes (§8.4 'memory operation: a read or write operation'), "
        "initial writes included"),
    SET("R", s_R,
        "reads: ld, the read of atom (and of red, which Dat3M splits too) (§8.4 'read operation')"),
    SET("W", s_W,
        "writes: st, the write of an atomic operation that writes, the initial writes W0 (§8.2.6)"),
    SET("IW", s_IW,
        "the initial writes W0 (§8.2.6: each byte is initialized by a hypothetical write W0)"),
    SET("F", s_F,
        "fences: membar, fence.sc, fence.acq_rel (memory fences) and fence.proxy (proxy fences) "
        "(§8.4)"),
    SET("BAR", s_BAR, "barrier operations bar/barrier .sync .arrive .red (§9.7.12.1)"),
    SET("ATOM", s_ATOM, "the events of atomic operations, atom and red (§8.4 'atomic operation')"),
    SET("RED", s_RED, "the events of red (§8.4: an atomic operation, but not a read operation)"),
    SET("VOL", s_VOL,
        ".volatile operations (§8.4 'volatile operation'; §9.7.8.8: the semantics of "
        ".relaxed.sys)"),
    SET("MMIO", s_MMIO, ".mmio operations (§8.4.1: for the memory model, strong operations)"),
    SET("WEAK", s_WEAK, ".weak ld/st (§8.4 'weak operation')"),
    SET("RLX", s_RLX,
        ".relaxed (and .volatile, .mmio); the other part of an atomic operation that acquires or "
        "releases"),
    SET("ACQ", s_ACQ,
        "acquire: ld.acquire, the read of atom.acquire / atom.acq_rel (§8.4 'acquire operation')"),
    SET("REL", s_REL,
        "release: st.release, the write of atom.release / atom.acq_rel (§8.4 'release operation')"),
    SET("ACQ_REL", s_ACQ_REL,
        "fence.acq_rel and fence.sc (a fence.sc is also a fence.acq_rel, §9.7.12.4; with "
        "Dat3M's events, fence.acq_rel only)"),
    SET("SC", s_SC, "fence.sc and membar (§9.7.12.4)"),
    SET("CTA", s_CTA, "strong operations of scope .cta (§8.5)"),
    SET("CLUSTER", s_CLUSTER, "strong operations of scope .cluster (§8.5)"),
    SET("GPU", s_GPU, "strong operations of scope .gpu (§8.5)"),
    SET("SYS", s_SYS, "strong operations of scope .sys (§8.5)"),
    SET("GEN", s_GEN,
        "operations of the generic proxy (§8.6: 'Memory operations as defined in Operation types "
        "use generic method of memory access'); memory fences, barriers, fence.proxy.alias"),
    SET("TEX", s_TEX, "texture accesses (tld, ld.global.nc, §8.1) and fence.proxy.texture"),
    SET("SUR", s_SUR, "surface accesses (suld, sust, suatom, sured) and fence.proxy.surface"),
    SET("CON", s_CON, "constant accesses (cold, ld.const) and fence.proxy.constant"),
    SET("ALIAS", s_ALIAS, "fence.proxy.alias (§8.6: virtual aliases need a proxy fence)"),
    SET("ASYNC", s_ASYNC,
        "async-proxy operations (§9.7.8.24.2: 'The cp{.reduce}.async.bulk operations are performed "
        "in the asynchronous proxy') and fence.proxy.async"),
    SET("UNI", s_UNI,
        "uni-directional proxy fences, fence.proxy.async::generic (§9.7.13.4: 'ordering between a "
        "prior memory access performed via the from-proxykind and a subsequent memory access "
        "performed via the to-proxykind')"),
    SET("TMAP", s_TMAP,
        "fence.proxy.tensormap::generic (no litmus instruction accesses the tensormap proxy)"),
    SET("MBAR", s_MBAR,
        "operations on mbarrier objects (§9.7.13.15): init (a write), arrive/expect_tx/complete_tx "
        "(read-modify-writes), test_wait/try_wait (reads)"),
    SET("ASYNCOP", s_ASYNCOP,
        "events of asynchronous operations: cp.async, cp.async.bulk, st.async, red.async, the "
        "arrive-on of cp.async.mbarrier.arrive (§8.9.1.1: 'they are not part of the program order "
        "for that thread')"),
    SET("MBINIT", s_MBINIT, "mbarrier.init (§9.7.13.15.9)"),
    SET("UB", s_UB,
        "operations whose behaviour the ISA leaves undefined: an mbarrier operation on an "
        "uninitialised object, a .noComplete arrive that completes the phase (§9.7.13.15)"),
    SET("RS_INIT", s_RS_INIT,
        "fence.mbarrier_init.release.cluster (§9.7.13.4: 'the synchronizing effect of the fence "
        "only applies to the prior mbarrier.init operations executed by the same thread')"),
    SET("RS_CTA", s_RS_CTA,
        "fence.release.sync_restrict::shared::cta.cluster (§9.7.13.4: 'the effect of the fence "
        "only applies to operations performed on objects in .shared::cta')"),
    SET("RS_CLUSTER", s_RS_CLUSTER,
        "fence.acquire.sync_restrict::shared::cluster.cluster (§9.7.13.4: '... only applies to "
        "operations performed on objects in .shared::cluster')"),
    SET("SHM", s_SHM,
        "memory operations on locations in shared memory (some access names .shared, §5.1.4)"),
    SET("SHM_CTA", s_SHM_CTA,
        "memory operations on the shared memory of the executing thread's CTA (.shared::cta, "
        "§5.1.4)"),
    REL("po", r_po, "program order (§8.9.1): the order of a thread's operations"),
    REL("loc", r_loc,
        "the same memory location: the same bytes of physical memory (§8.2: complete overlap)"),
    REL("vloc", r_vloc, "the same location through the same virtual address (§8.2.1, §8.2.2)"),
    REL("overlap", r_overlap,
        "memory operations with a byte in common (§8.2.1 'overlap', partial or complete)"),
    REL("same-va", r_same_va,
        "memory operations through the same virtual address (§8.2.2: aliases are distinct virtual "
        "addresses of one location)"),
    REL("ext", r_ext, "events of different threads (the initial writes are in no thread)"),
    REL("int", r_int, "events of one thread"),
    REL("rmw", r_rmw,
        "the read and the write of one atomic operation (§9.7.12.5: atomically loads ... and "
        "stores)"),
    REL("amo", r_rmw, "the same as rmw (herd's name)"),
    REL("lxsx", r_none, "load/store-exclusive pairs: none in PTX"),
    REL("proxy-space", r_proxy_space,
        "a proxy fence and a memory operation in the state space it is limited to "
        "(fence.proxy.async.global / .shared::cta / .shared::cluster, §9.7.13.4), either way "
        "round"),
    REL("cbar", r_cbar,
        "a barrier.cluster.arrive and the barrier.cluster.wait of another thread that awaits its "
        "instance (§9.7.13.3), whatever their semantics"),
    REL("sr", r_sr,
        "both operations are strong and each specifies a scope that includes the thread of the "
        "other (§8.7 condition 1)"),
    REL("scta", r_scta, "events of threads of the same CTA (the 'thread block' of §8.9.5)"),
    REL("scluster", r_scluster, "events of threads of the same cluster (§8.5)"),
    DYN("syncbar", "barrier operations of one barrier instance, towards one that waits (§8.9.4 "
                   "item 2, §9.7.12.1): "
                   "with a thread count, the instance is the phase of count arrivals the operation "
                   "joins; without one (the "
                   "Dat3M spelling), the k-th uses of the barrier id by the threads that use it"),
    DYN("rf", "reads-from: the write each byte of a read comes from (§8.9.7 item 1)"),
    DYN("co", "coherence order: a partial transitive order of overlapping writes (§8.9.6)"),
    DYN("fr", "from-reads: a read before the writes coherence-after the one it reads, byte by byte "
              "(§8.9.7 item 3)"),
    DYN("sync_fence", "Fence-SC order: an acyclic partial order of fence.sc, total on morally "
                      "strong pairs (§8.9.3)"),
    DYN("addr", "address dependency: the read gives a register used in the address"),
    DYN("data", "data dependency: the read gives a register used in the value written (or an "
                "atomic operand)"),
    DYN("ctrl", "control dependency: the read decides a branch or guard before the event"),
};
const int base_ndefs = (int)(sizeof base_defs / sizeof base_defs[0]);

const base_def *base_find(const char *name)
{
    for (int i = 0; i < base_ndefs; i++)
        if (!strcmp(base_defs[i].name, name)) return &base_defs[i];
    return NULL;
}
