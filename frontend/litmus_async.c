/* frontend/litmus_async.c — the newer synchronization instructions in litmus tests (real PTX
 * spelling; the Dat3M dialect has none of them): mbarrier (§9.7.13.15), barrier.cluster
 * (§9.7.13.3), fence.acquire / fence.release, .sync_restrict, .op_restrict (fence.mbarrier_init),
 * fence.proxy.async{::generic} and fence.proxy.tensormap::generic (§9.7.13.4), the asynchronous
 * copies cp.async (§9.7.8.24.3) with commit_group / wait_group / wait_all and
 * cp.async.mbarrier.arrive, cp.async.bulk with an mbarrier (§9.7.8.24.6), st.async (§9.7.8.12),
 * red.async (§9.7.13.7); multimem (§9.7.8.13) is refused with its reason.
 *
 * Each instruction is lowered onto the model's vocabulary (docs/model.md, "Asynchronous
 * operations and mbarrier objects"):
 *   - an mbarrier object is an 8-byte location; mbarrier.init a weak write of its initial state,
 *     arrive / arrive_drop / expect_tx / complete_tx atomic read-modify-writes of it (release or
 *     relaxed), test_wait / try_wait a read of it (acquire when it returns True) whose result
 *     is the predicate waitComplete; model/mbarrier.c says what each does to the state;
 *   - an asynchronous operation (§8.9.1.1) becomes several instructions of one cell, marked
 *     with one async_id: cp.async is a weak read of the source into a hidden register and a
 *     weak write of it to the destination; cp.async.bulk the same in the async proxy, the
 *     implicit generic-async proxy fence, and the complete-tx on the mbarrier (.release
 *     .cluster); st.async a weak write and the complete-tx; red.async a relaxed reduction and the
 *     complete-tx.  lp_async_check gives the thread the program order of §8.9.1.1: an
 *     asynchronous operation is ordered after the instructions before it, and before later ones
 *     only through a completion (wait_group, wait_all) that covers it;
 *   - fence.proxy.async::generic.release... is a uni-directional proxy fence followed by a
 *     restricted release fence (acquire: the fence first, then the proxy fence). */
#include "frontend/litmus_int.h"
#include "base/alloc.h"
#include "ptx/mnemonic.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int sem_of(int s)
{
    switch (s) {
    case PTX_SEM_WEAK: return SEM_WEAK;
    case PTX_SEM_RELAXED: return SEM_RELAXED;
    case PTX_SEM_ACQUIRE: return SEM_ACQUIRE;
    case PTX_SEM_RELEASE: return SEM_RELEASE;
    case PTX_SEM_ACQ_REL: return SEM_ACQ_REL;
    case PTX_SEM_SC: return SEM_SC;
    default: return -1;
    }
}
static int scope_of(int s)
{
    switch (s) {
    case PTX_SCOPE_CTA: return SCOPE_CTA;
    case PTX_SCOPE_CLUSTER: return SCOPE_CLUSTER;
    case PTX_SCOPE_GPU: return SCOPE_GPU;
    case PTX_SCOPE_SYS: return SCOPE_SYS;
    default: return -1;
    }
}

static int bad(lp_cell *c, const token *mt, const char *expected)
{
    lp_errat(c->p, mt, "found '%.*s', expected %s", mt->len, mt->s, expected);
    return -1;
}

/* every qualifier written is of an allowed class or one of the allowed words */
static int only(lp_cell *c, const token *mt, const ptx_mnemonic *m, unsigned classes,
                const int *words, const char *expected)
{
    for (int i = 0; i < m->nq; i++) {
        int ok = (classes >> m->q[i].cls) & 1;
        for (int k = 0; words && words[k] && !ok; k++) ok = m->q[i].id == words[k];
        if (!ok) {
            lp_errat(c->p, mt, "found '.%.*s' in '%.*s', expected %s", m->q[i].len,
                     m->text + m->q[i].off, mt->len, mt->s, expected);
            return -1;
        }
    }
    return 0;
}
#define CL(x) (1u << PTX_QC_##x)

/* Another instruction of the same cell (an instruction lowered into several).  *in is kept
   pointing at the cell's first instruction across the reallocation. */
static lit_insn *more(lp_cell *c, lit_insn **in)
{
    lit_thread *th = c->th;
    int first = (int)(*in - th->ins);
    th->ins = xrealloc(th->ins, (size_t)(th->nins + 1) * sizeof *th->ins);
    *in = &th->ins[first];
    lit_insn *x = &th->ins[th->nins++];
    memset(x, 0, sizeof *x);
    x->line = (*in)->line; x->col = (*in)->col;
    x->text = xstrdup((*in)->text);
    x->guard = (*in)->guard; x->guard_neg = (*in)->guard_neg;
    x->ptx = 1;
    return x;
}

static int next_async_id(const lit_thread *th)
{
    int id = 0;
    for (int k = 0; k < th->nins; k++) if (th->ins[k].async_id > id) id = th->ins[k].async_id;
    return id + 1;
}

static int hidden_reg(lp_cell *c)
{
    char n[32];
    snprintf(n, sizeof n, "cp.%d", c->th->nins);
    return lp_add_reg(c->th, n);
}

static lit_space space_of(int ss)
{
    switch (ss) {
    case PTX_SS_GLOBAL: return SPACE_GLOBAL;
    case PTX_SS_SHARED: case PTX_SS_SHARED_CTA: return SPACE_SHARED_CTA;
    case PTX_SS_SHARED_CLUSTER: return SPACE_SHARED_CLUSTER;
    default: return SPACE_GENERIC;
    }
}

static int more_operands(lp_cell *c) { return c->i < c->b; }

/* ---------- mbarrier, §9.7.13.15 ---------- */

static void mb_access(lit_insn *in, lit_mbar op, lit_ikind k, int sem, int scope, lit_space sp)
{
    in->k = k; in->mbar = op; in->sem = (lit_sem)sem; in->scope = (lit_scope)scope;
    in->space = sp; in->type = ISA_T_B64; in->size = 8; in->ptx = 1; in->proxy = PROXY_GENERIC;
}

static int mb_init(lp_cell *c, lit_insn *in, const ptx_mnemonic *m, const token *mt, int sem,
                   int scope, lit_space sp)
{
    parser *p = c->p;
    const token *at = mt;
    static const int w[] = { 0 };
    if (only(c, mt, m, CL(SPACE) | CL(TYPE), w,
             "mbarrier.init{.shared{::cta}}.b64 [addr], count (§9.7.13.15.9)"))
        return -1;
    if (sp == SPACE_SHARED_CLUSTER)
        return bad(c, mt,
                   "mbarrier.init{.shared{::cta}}.b64: an mbarrier is initialised in the CTA's "
                   "own shared memory");
    mb_access(in, MB_INIT, LI_ST, SEM_WEAK, SCOPE_NONE, sp);
    in->nsrc = 1;
    if (lp_cell_addr(c, &in->addr) || lp_cell_comma(c)) return -1;
    at = &p->tv.v[c->i];
    if (lp_cell_value(c, &in->src[0], 0)) return -1;
    if (in->src[0].k == OPD_IMM && (in->src[0].imm < 1 || in->src[0].imm > (1 << 20) - 1)) {
        lp_errat(p, at,
                 "found the count %lld, expected an expected arrival count 1..1048575 "
                 "(§9.7.13.15.9)",
                 (long long)in->src[0].imm);
        return -1;
    }
    return lp_cell_end(c, "mbarrier.init");
}

static int mb_tx(lp_cell *c, lit_insn *in, const ptx_mnemonic *m, const token *mt, int sem,
                 int scope, lit_space sp)
{
    int op = m->op;
    static const int w[] = { 0 };
    if (only(c, mt, m, CL(SPACE) | CL(SEM) | CL(SCOPE) | CL(TYPE), w,
             "mbarrier.expect_tx/complete_tx{.relaxed}{.scope}{.space}.b64"))
        return -1;
    if (sem >= 0 && sem != SEM_RELAXED)
        return bad(c, mt,
                   "the semantics .relaxed (expect-tx and complete-tx provide no memory "
                   "ordering, §9.7.13.15.11)");
    mb_access(in, op == PTX_I_MBARRIER_EXPECT_TX ? MB_EXPECT_TX : MB_COMPLETE_TX, LI_ATOM,
              SEM_RELAXED, scope, sp);
    in->ndst = 1; in->dst[0].k = OPD_NONE; in->nsrc = 2;
    if (lp_cell_addr(c, &in->addr) || lp_cell_comma(c) || lp_cell_value(c, &in->src[0], 0))
        return -1;
    return lp_cell_end(c, "mbarrier.expect_tx");
}

static int mb_arrive(lp_cell *c, lit_insn *in, const ptx_mnemonic *m, const token *mt, int sem,
                     int scope, lit_space sp)
{
    parser *p = c->p;
    int op = m->op;
    static const int w[] = { PTX_Q_expect_tx, PTX_Q_noComplete, 0 };
    if (only(c, mt, m, CL(SPACE) | CL(SEM) | CL(SCOPE) | CL(TYPE), w,
             "mbarrier.arrive{.expect_tx,.noComplete}{.release,.relaxed}{.cta,.cluster}{.space}"
             ".b64"))
        return -1;
    if (sem >= 0 && sem != SEM_RELEASE && sem != SEM_RELAXED)
        return bad(c, mt, "the semantics .release or .relaxed (§9.7.13.15.13)");
    if (sem < 0) sem = SEM_RELEASE;                   /* ".release is assumed by default" */
    int etx = ptx_mn_has(m, PTX_Q_expect_tx), noc = ptx_mn_has(m, PTX_Q_noComplete);
    if (etx && noc) return bad(c, mt, "either .expect_tx or .noComplete");
    if (noc && (sem != SEM_RELEASE || scope != SCOPE_CTA || sp == SPACE_SHARED_CLUSTER))
        return bad(c, mt,
                   "mbarrier.arrive.noComplete{.release}{.cta}{.shared{::cta}}.b64 state, "
                   "[addr], count");
    mb_access(in, MB_ARRIVE, LI_ATOM, sem, scope, sp);
    in->mb_drop = op == PTX_I_MBARRIER_ARRIVE_DROP;
    in->mb_nocomplete = noc;
    in->ndst = 1; in->nsrc = 2;
    in->src[0] = (lit_opnd){ .k = OPD_IMM, .imm = 1 };
    in->src[1] = (lit_opnd){ .k = OPD_IMM, .imm = 0 };
    const token *st = &p->tv.v[c->i];
    if (lp_cell_value(c, &in->dst[0], 1) || lp_cell_comma(c) || lp_cell_addr(c, &in->addr))
        return -1;
    if (sp == SPACE_SHARED_CLUSTER && in->dst[0].k != OPD_NONE) {
        lp_errat(p, st,
                 "found a state register, expected the sink '_': an arrive on .shared::cluster "
                 "cannot return a value (§9.7.13.15.13)");
        return -1;
    }
    if (etx || noc) {
        if (lp_cell_comma(c) || lp_cell_value(c, &in->src[etx ? 1 : 0], 0)) return -1;
    } else if (more_operands(c)) {
        if (lp_cell_comma(c) || lp_cell_value(c, &in->src[0], 0)) return -1;
    }
    return lp_cell_end(c, "mbarrier.arrive");
}

static int mb_wait(lp_cell *c, lit_insn *in, const ptx_mnemonic *m, const token *mt, int sem,
                   int scope, lit_space sp)
{
    parser *p = c->p;
    int op = m->op;
    const token *at = mt;
    static const int w[] = { PTX_Q_parity, 0 };
    if (only(c, mt, m, CL(SPACE) | CL(SEM) | CL(SCOPE) | CL(TYPE), w,
             "mbarrier.test_wait/"
             "try_wait{.parity}{.acquire,.relaxed}{.cta,.cluster}{.shared{::cta}}.b64"))
        return -1;
    if (sem >= 0 && sem != SEM_ACQUIRE && sem != SEM_RELAXED)
        return bad(c, mt, "the semantics .acquire or .relaxed (§9.7.13.15.16)");
    if (sp == SPACE_SHARED_CLUSTER)
        return bad(c, mt,
                   "a wait on the CTA's own mbarrier: .shared::cluster supports only arrive "
                   "operations (§9.7.13.15.8)");
    if (sem < 0) sem = SEM_ACQUIRE;                   /* ".acquire is assumed by default" */
    mb_access(in, ptx_mn_has(m, PTX_Q_parity) ? MB_TEST_PARITY : MB_TEST, LI_LD, sem, scope,
              sp);
    in->ndst = 1; in->nsrc = 1;
    if (lp_cell_value(c, &in->dst[0], 1) || lp_cell_comma(c) || lp_cell_addr(c, &in->addr) ||
        lp_cell_comma(c))
        return -1;
    at = &p->tv.v[c->i];
    if (lp_cell_value(c, &in->src[0], 0)) return -1;
    if (in->mbar == MB_TEST_PARITY && in->src[0].k == OPD_IMM && in->src[0].imm != 0 &&
        in->src[0].imm != 1) {
        lp_errat(p, at, "found the parity %lld, expected 0 or 1 (§9.7.13.15.16)",
                 (long long)in->src[0].imm);
        return -1;
    }
    if (op == PTX_I_MBARRIER_TRY_WAIT && more_operands(c)) {   /* suspendTimeHint: a hint */
        lit_opnd hint;
        if (lp_cell_comma(c) || lp_cell_value(c, &hint, 0)) return -1;
    }
    return lp_cell_end(c, "mbarrier wait");
}

static int mb_cp_arrive(lp_cell *c, lit_insn *in, const ptx_mnemonic *m, const token *mt, int sem,
                        int scope, lit_space sp)
{
    static const int w[] = { PTX_Q_noinc, 0 };
    if (only(c, mt, m, CL(SPACE) | CL(TYPE), w,
             "cp.async.mbarrier.arrive{.noinc}{.shared{::cta}}.b64 [addr] (§9.7.13.15.15)"))
        return -1;
    if (sp == SPACE_SHARED_CLUSTER)
        return bad(c, mt, "cp.async.mbarrier.arrive{.noinc}{.shared{::cta}}.b64");
    lit_opnd a;
    if (lp_cell_addr(c, &a) || lp_cell_end(c, "cp.async.mbarrier.arrive")) return -1;
    lit_insn *x = in;
    if (!ptx_mn_has(m, PTX_Q_noinc)) {
        /* "the pending count of the mbarrier object is incremented by 1 prior to the
           asynchronous arrive-on operation": now, in program order */
        mb_access(in, MB_INC, LI_ATOM, SEM_RELAXED, SCOPE_CTA, sp);
        in->addr = a; in->ndst = 1; in->dst[0].k = OPD_NONE; in->nsrc = 2;
        in->src[0] = (lit_opnd){ .k = OPD_IMM, .imm = 1 };
        x = more(c, &in);
    }
    /* the arrive-on "triggered by the system ... upon the completion of all prior cp.async
       operations": asynchronous, a release of those copies (§9.7.13.15.16 item 2) */
    mb_access(x, MB_ARRIVE, LI_ATOM, SEM_RELEASE, SCOPE_CTA, sp);
    x->addr = a; x->ndst = 1; x->dst[0].k = OPD_NONE; x->nsrc = 2;
    x->src[0] = (lit_opnd){ .k = OPD_IMM, .imm = 1 };
    x->async_id = next_async_id(c->th);
    x->async_cp = 2;
    return 0;
}

static int parse_mbarrier(lp_cell *c, lit_insn *in, const ptx_mnemonic *m, const token *mt)
{
    parser *p = c->p;
    int op = m->op, sem = sem_of(m->sem), scope = scope_of(m->scope);
    lit_space sp = space_of(m->space);
    if (ptx_mn_type(m) != ISA_T_B64 || m->ntypes != 1)
        return bad(c, mt,
                   "the type .b64 (an mbarrier object is a .b64 in .shared memory, §9.7.13.15.1)");
    if (m->space && m->space != PTX_SS_SHARED && m->space != PTX_SS_SHARED_CTA &&
        m->space != PTX_SS_SHARED_CLUSTER)
        return bad(c, mt,
                   "the .shared, .shared::cta or .shared::cluster state space (an mbarrier object "
                   "lives in shared memory)");
    if (scope >= 0 && scope != SCOPE_CTA && scope != SCOPE_CLUSTER)
        return bad(c, mt, "the scope .cta or .cluster (§9.7.13.15)");
    if (scope < 0) scope = SCOPE_CTA;                     /* "defaults to .cta" */
    if (scope == SCOPE_CLUSTER || sp == SPACE_SHARED_CLUSTER) p->t->uses_cluster = 1;
    p->t->uses_async = 1;
    if (op == PTX_I_MBARRIER_INIT)
        return mb_init(c, in, m, mt, sem, scope, sp);
    if (op == PTX_I_MBARRIER_INVAL)
        return bad(c, mt,
                   "an mbarrier operation of a litmus test: mbarrier.inval (repurposing the "
                   "memory) is not supported");
    if (op == PTX_I_MBARRIER_PENDING_COUNT)
        return bad(c, mt,
                   "an mbarrier operation of a litmus test: mbarrier.pending_count reads a state "
                   "returned by arrive, not memory; it is not supported");
    if (op == PTX_I_MBARRIER_EXPECT_TX || op == PTX_I_MBARRIER_COMPLETE_TX)
        return mb_tx(c, in, m, mt, sem, scope, sp);
    if (op == PTX_I_MBARRIER_ARRIVE || op == PTX_I_MBARRIER_ARRIVE_DROP)
        return mb_arrive(c, in, m, mt, sem, scope, sp);
    if (op == PTX_I_MBARRIER_TEST_WAIT || op == PTX_I_MBARRIER_TRY_WAIT)
        return mb_wait(c, in, m, mt, sem, scope, sp);
    if (op == PTX_I_CP_ASYNC_MBARRIER_ARRIVE)
        return mb_cp_arrive(c, in, m, mt, sem, scope, sp);
    return bad(c, mt,
               "an mbarrier operation: init, arrive, arrive_drop, expect_tx, complete_tx, "
               "test_wait, try_wait");
}

/* ---------- barrier.cluster, §9.7.13.3 ---------- */

static int parse_barrier_cluster(lp_cell *c, lit_insn *in, const ptx_mnemonic *m, const token *mt)
{
    static const int w[] = { PTX_Q_arrive, PTX_Q_wait, 0 };
    if (only(c, mt, m, CL(SEM) | CL(ALIGNED), w,
             "barrier.cluster.arrive{.release,.relaxed}{.aligned} or "
             "barrier.cluster.wait{.acquire}{.aligned}"))
        return -1;
    int arrive = ptx_mn_has(m, PTX_Q_arrive), wait = ptx_mn_has(m, PTX_Q_wait),
        sem = sem_of(m->sem);
    if (arrive == wait) return bad(c, mt, "barrier.cluster.arrive or barrier.cluster.wait");
    if (arrive && sem >= 0 && sem != SEM_RELEASE && sem != SEM_RELAXED)
        return bad(c, mt, "barrier.cluster.arrive with .release or .relaxed");
    if (wait && sem >= 0 && sem != SEM_ACQUIRE)
        return bad(c, mt, "barrier.cluster.wait with .acquire");
    in->k = LI_BAR;
    in->bar = arrive ? BAR_CARRIVE : BAR_CWAIT;
    in->sem = sem >= 0 ? (lit_sem)sem : arrive ? SEM_RELEASE : SEM_ACQUIRE;   /* the defaults */
    in->scope = SCOPE_CLUSTER;
    in->ptx = 1;
    c->p->t->uses_cluster = c->p->t->uses_async = 1;
    return lp_cell_end(c, "barrier.cluster");
}

/* ---------- fences, §9.7.13.4 ---------- */

static void fence_ev(lit_insn *x, lit_fence f, int sem, int scope)
{
    x->k = LI_FENCE; x->fence = f; x->sem = (lit_sem)sem; x->scope = (lit_scope)scope; x->ptx = 1;
}

/* fence.acquire/.release.scope, .sync_restrict, fence.mbarrier_init.release.cluster */
static int fence_sem(lp_cell *c, lit_insn *in, const ptx_mnemonic *m, const token *mt)
{
    parser *p = c->p;
    int sem = sem_of(m->sem), scope = scope_of(m->scope), rs = m->restrict_;
    /* fence.acquire/.release.scope, .sync_restrict, fence.mbarrier_init.release.cluster */
    static const int w[] = { 0 };
    if (only(c, mt, m, CL(SEM) | CL(SCOPE) | CL(RESTRICT), w,
             "fence{.sem}{.sync_restrict}.scope or fence.mbarrier_init.release.cluster"))
        return -1;
    if (scope < 0)
        return bad(
            c, mt,
            "a scope: fence.acquire.scope, fence.release.scope (.cta .cluster .gpu .sys)");
    if (rs == PTX_RS_MBARRIER_INIT && (sem != SEM_RELEASE || scope != SCOPE_CLUSTER))
        return bad(c, mt, "fence.mbarrier_init.release.cluster (§9.7.13.4)");
    if (rs == PTX_RS_SHARED_CTA && (sem != SEM_RELEASE || scope != SCOPE_CLUSTER))
        return bad(c, mt,
                   "fence.release.sync_restrict::shared::cta.cluster "
                   "(.sync_restrict::shared::cta needs .release and .cluster, §9.7.13.4)");
    if (rs == PTX_RS_SHARED_CLUSTER && (sem != SEM_ACQUIRE || scope != SCOPE_CLUSTER))
        return bad(c, mt,
                   "fence.acquire.sync_restrict::shared::cluster.cluster "
                   "(.sync_restrict::shared::cluster needs .acquire and .cluster, §9.7.13.4)");
    if (rs && sem != SEM_ACQUIRE && sem != SEM_RELEASE)
        return bad(c, mt, "a restricted fence with .acquire or .release");
    fence_ev(in, FENCE_ACQ_REL, sem, scope);
    in->restrict_ = (lit_restrict)rs;
    if (scope == SCOPE_CLUSTER) p->t->uses_cluster = 1;
    return lp_cell_end(c, "fence");
}

/* fence.proxy.async{.space} */
static int fence_async(lp_cell *c, lit_insn *in, const ptx_mnemonic *m, const token *mt)
{
    parser *p = c->p;
    static const int w[] = { PTX_Q_proxy, 0 };
    if (only(c, mt, m, CL(PROXY) | CL(SPACE), w,
             "fence.proxy.async{.global,.shared::cta,.shared::cluster} (§9.7.13.4)"))
        return -1;
    if (m->space && m->space != PTX_SS_GLOBAL && m->space != PTX_SS_SHARED_CTA &&
        m->space != PTX_SS_SHARED_CLUSTER && m->space != PTX_SS_SHARED)
        return bad(c, mt, "fence.proxy.async{.global,.shared::cta,.shared::cluster}");
    fence_ev(in, FENCE_PROXY_ASYNC, SEM_WEAK, SCOPE_NONE);
    /* "the memory ordering is limited only to operations performed on objects in the state
       space specified" (shared::cta and shared::cluster both: shared memory) */
    in->fspace = m->space == PTX_SS_GLOBAL ? SPACE_GLOBAL
                 : m->space                ? SPACE_SHARED_CLUSTER
                                           : SPACE_GENERIC;
    p->t->uses_proxies = 1;
    return lp_cell_end(c, "fence.proxy.async");
}

/* fence.proxy.async::generic.{release,acquire}.sync_restrict... */
static int fence_async_generic(lp_cell *c, lit_insn *in, const ptx_mnemonic *m, const token *mt)
{
    parser *p = c->p;
    int sem = sem_of(m->sem), scope = scope_of(m->scope), rs = m->restrict_;
    /* fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster and
       fence.proxy.async::generic.acquire.sync_restrict::shared::cluster.cluster */
    static const int w[] = { PTX_Q_proxy, 0 };
    if (only(c, mt, m, CL(PROXY) | CL(SEM) | CL(SCOPE) | CL(RESTRICT), w,
             "fence.proxy.async::generic.{release,acquire}.sync_restrict::shared::{cta,cluster}"
             ".cluster"))
        return -1;
    int rel = sem == SEM_RELEASE;
    if (!((rel && rs == PTX_RS_SHARED_CTA) ||
          (sem == SEM_ACQUIRE && rs == PTX_RS_SHARED_CLUSTER)) ||
        scope != SCOPE_CLUSTER)
        return bad(c, mt,
                   "fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster or "
                   "fence.proxy.async::generic.acquire.sync_restrict::shared::cluster.cluster "
                   "(§9.7.13.4)");
    if (lp_cell_end(c, "fence.proxy")) return -1;
    p->t->uses_proxies = p->t->uses_cluster = 1;
    lit_insn *a = in, *b;
    if (rel) { /* generic accesses before, async ones after the release: the proxy fence first
                */
        fence_ev(a, FENCE_PROXY_ASYNC, SEM_WEAK, SCOPE_NONE);
        a->uni = 1; a->fspace = SPACE_SHARED_CLUSTER;
        b = more(c, &in);
        fence_ev(b, FENCE_ACQ_REL, SEM_RELEASE, SCOPE_CLUSTER);
        b->restrict_ = RS_SHARED_CTA;
    } else {
        fence_ev(a, FENCE_ACQ_REL, SEM_ACQUIRE, SCOPE_CLUSTER);
        a->restrict_ = RS_SHARED_CLUSTER;
        b = more(c, &in);
        fence_ev(b, FENCE_PROXY_ASYNC, SEM_WEAK, SCOPE_NONE);
        b->uni = 1; b->fspace = SPACE_SHARED_CLUSTER;
    }
    return 0;
}

/* fence.proxy.tensormap::generic.{release,acquire}.scope */
static int fence_tensormap(lp_cell *c, lit_insn *in, const ptx_mnemonic *m, const token *mt)
{
    parser *p = c->p;
    int sem = sem_of(m->sem), scope = scope_of(m->scope);
    static const int w[] = { PTX_Q_proxy, 0 };
    if (only(c, mt, m, CL(PROXY) | CL(SEM) | CL(SCOPE), w,
             "fence.proxy.tensormap::generic.{release,acquire}.scope"))
        return -1;
    if ((sem != SEM_RELEASE && sem != SEM_ACQUIRE) || scope < 0)
        return bad(c, mt,
                   "fence.proxy.tensormap::generic.release.scope or .acquire.scope [addr], 128 "
                   "(§9.7.13.4)");
    if (sem == SEM_ACQUIRE && more_operands(c)) {   /* ptxas also takes it without them */
        lit_opnd a, sz;
        const token *at;
        if (lp_cell_addr(c, &a) || lp_cell_comma(c)) return -1;
        at = &p->tv.v[c->i];
        if (lp_cell_value(c, &sz, 0)) return -1;
        if (sz.k != OPD_IMM || sz.imm != 128) {
            lp_errat(p, at,
                     "found a size other than 128, expected the constant 128 (\"the only "
                     "supported value\", §9.7.13.4)");
            return -1;
        }
    }
    /* the tensormap proxy is used by tensor copies (cp.async.bulk.tensor) and
       tensormap.replace, which are not litmus instructions: the fence orders nothing here */
    fence_ev(in, FENCE_PROXY_TENSORMAP, SEM_WEAK, SCOPE_NONE);
    in->scope = (lit_scope)scope;
    return lp_cell_end(c, "fence.proxy.tensormap");
}

/* 1: not one of the fences of this file (Dat3M's fence.proxy.generic stays with litmus_insn.c) */
static int parse_fence_new(lp_cell *c, lit_insn *in, const ptx_mnemonic *m, const token *mt)
{
    parser *p = c->p;
    int sem = sem_of(m->sem), rs = m->restrict_;
    int proxy = ptx_mn_has(m, PTX_Q_proxy);
    int membar = m->op == PTX_I_MEMBAR;
    if (!proxy && rs == PTX_RS_NONE && sem != SEM_ACQUIRE && sem != SEM_RELEASE) return 1;
    if (proxy &&
        (m->proxy == PTX_PROXY_ALIAS || m->proxy == PTX_PROXY_TEXTURE ||
         m->proxy == PTX_PROXY_SURFACE || m->proxy == PTX_PROXY_CONSTANT) &&
        !membar)
        return 1;
    if (proxy && mt->len == 19 && !memcmp(mt->s, "fence.proxy.generic", 19)) return 1; /* Dat3M's */
    p->t->uses_async = 1;
    if (membar && (!proxy || (m->proxy != PTX_PROXY_ALIAS && m->proxy != PTX_PROXY_ASYNC)))
        return bad(c, mt,
                   "membar.cta, membar.gl, membar.sys or membar.proxy.{alias,async} (§9.7.13.4)");
    if (proxy && m->proxy == PTX_PROXY_ALIAS) {        /* membar.proxy.alias: fence.proxy.alias */
        if (m->nq != 2) return bad(c, mt, "membar.proxy.alias");
        fence_ev(in, FENCE_PROXY_ALIAS, SEM_WEAK, SCOPE_NONE);
        p->t->uses_proxies = 1;
        return lp_cell_end(c, "membar.proxy");
    }
    if (!proxy)
        return fence_sem(c, in, m, mt);
    if (m->proxy == PTX_PROXY_ASYNC)
        return fence_async(c, in, m, mt);
    if (m->proxy == PTX_PROXY_ASYNC_GENERIC)
        return fence_async_generic(c, in, m, mt);
    if (m->proxy == PTX_PROXY_TENSORMAP_GENERIC)
        return fence_tensormap(c, in, m, mt);
    return bad(
        c, mt,
        "fence.proxy.alias, .texture, .surface, .constant or .generic, or fence.proxy.async, "
        ".async::generic or .tensormap::generic (§9.7.13.4)");
}

/* ---------- asynchronous operations ---------- */

static isa_type sized_type(int bytes) { return bytes == 4 ? ISA_T_B32 : ISA_T_B64; }

static void async_mem(lit_insn *x, lit_ikind k, int sem, int scope, lit_space sp, isa_type ty,
                      int id, lit_proxy px)
{
    x->k = k; x->sem = (lit_sem)sem; x->scope = (lit_scope)scope; x->space = sp; x->type = ty;
    x->size = (int)isa_type_bits(ty) / 8; x->ptx = 1; x->async_id = id; x->proxy = px;
}

/* the complete-tx of an asynchronous operation: ".release semantics at the .cluster scope" */
static void complete_tx(lit_insn *x, const lit_opnd *mbar, int bytes, lit_space sp, int id)
{
    async_mem(x, LI_ATOM, SEM_RELEASE, SCOPE_CLUSTER, sp, ISA_T_B64, id, PROXY_GENERIC);
    x->mbar = MB_COMPLETE_TX;
    x->addr = *mbar;
    x->ndst = 1; x->dst[0].k = OPD_NONE; x->nsrc = 2;
    x->src[0] = (lit_opnd){ .k = OPD_IMM, .imm = bytes };
}

static int copy_size(lp_cell *c, const token *at, const lit_opnd *o, const char *what)
{
    if (o->k == OPD_IMM && (o->imm == 4 || o->imm == 8)) return (int)o->imm;
    lp_errat(
        c->p, at,
        "found a %s other than 4 or 8, expected 4 or 8: a litmus location is a scalar of at most 8 "
        "bytes and a copy moves one location (docs/litmus-format.md)",
        what);
    return -1;
}

/* cp.async.{ca,cg}.shared{::cta}.global [dst], [src], cp-size */
static int parse_cp_async(lp_cell *c, lit_insn *in, const ptx_mnemonic *m, const token *mt)
{
    parser *p = c->p;
    static const int w[] = { 0 };
    if (only(c, mt, m, CL(SPACE) | CL(COP) | CL(PREFETCH), w,
             "cp.async.{ca,cg}.shared{::cta}.global{.L2::64B,...} [dst], [src], cp-size (cache "
             "policies are not supported)"))
        return -1;
    if (m->cop != PTX_COP_CA && m->cop != PTX_COP_CG)
        return bad(c, mt, "cp.async.ca or cp.async.cg (§9.7.8.24.3)");
    if ((m->space != PTX_SS_SHARED && m->space != PTX_SS_SHARED_CTA) || m->space2 != PTX_SS_GLOBAL)
        return bad(c, mt, "cp.async.{ca,cg}.shared{::cta}.global (§9.7.8.24.3)");
    lit_opnd dst, src, sz;
    if (lp_cell_addr(c, &dst) || lp_cell_comma(c) || lp_cell_addr(c, &src) || lp_cell_comma(c))
        return -1;
    const token *at = &p->tv.v[c->i];
    if (lp_cell_value(c, &sz, 0)) return -1;
    if (m->cop == PTX_COP_CG) {
        lp_errat(p, at,
                 "found cp.async.cg, which copies 16 bytes (§9.7.8.24.3), expected cp.async.ca "
                 "with cp-size 4 or 8: "
                 "16 bytes are more than a litmus location can hold");
        return -1;
    }
    int n = copy_size(c, at, &sz, "cp-size");
    if (n < 0) return -1;
    if (more_operands(c)) {
        lp_expect_fail(p, &p->tv.v[c->i],
                       "the end of the cp.async instruction (src-size, ignore-src and cache-policy "
                       "are not supported)");
        return -1;
    }
    int id = next_async_id(c->th), r = hidden_reg(c);
    p->t->uses_async = 1;
    /* "cp.async is treated as a weak memory operation": a weak read of src and a weak write of
       the value to dst, in the generic proxy */
    async_mem(in, LI_LD, SEM_WEAK, SCOPE_NONE, SPACE_GLOBAL, sized_type(n), id, PROXY_GENERIC);
    in->addr = src; in->ndst = 1; in->dst[0] = (lit_opnd){ .k = OPD_REG, .reg = r };
    in->async_cp = 1;
    lit_insn *x = more(c, &in);
    async_mem(x, LI_ST, SEM_WEAK, SCOPE_NONE, SPACE_SHARED_CTA, sized_type(n), id, PROXY_GENERIC);
    x->addr = dst; x->nsrc = 1; x->src[0] = (lit_opnd){ .k = OPD_REG, .reg = r };
    x->async_cp = 1;
    return 0;
}

/* cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [dst], [src], size, [mbar] */
static int parse_cp_async_bulk(lp_cell *c, lit_insn *in, const ptx_mnemonic *m, const token *mt)
{
    parser *p = c->p;
    static const int w[] = { 0 };
    const char *form = "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [dst], "
                       "[src], size, [mbar] "
                       "(the bulk-group forms and multicast are not supported)";
    if (only(c, mt, m, CL(SPACE) | CL(COMPLETION), w, form)) return -1;
    if (m->space != PTX_SS_SHARED_CLUSTER || m->space2 != PTX_SS_GLOBAL ||
        m->completion != PTX_CM_MBARRIER)
        return bad(c, mt, form);
    lit_opnd dst, src, sz, mb;
    if (lp_cell_addr(c, &dst) || lp_cell_comma(c) || lp_cell_addr(c, &src) || lp_cell_comma(c))
        return -1;
    const token *at = &p->tv.v[c->i];
    if (lp_cell_value(c, &sz, 0) || lp_cell_comma(c) || lp_cell_addr(c, &mb) ||
        lp_cell_end(c, "cp.async.bulk"))
        return -1;
    int n = copy_size(c, at, &sz, "size");
    if (n < 0) return -1;
    int id = next_async_id(c->th), r = hidden_reg(c);
    p->t->uses_async = p->t->uses_proxies = p->t->uses_cluster = 1;
    /* "The cp{.reduce}.async.bulk operations are performed in the asynchronous proxy"; "the
       copy operation in cp.async.bulk is treated as a weak memory operation" */
    async_mem(in, LI_LD, SEM_WEAK, SCOPE_NONE, SPACE_GLOBAL, sized_type(n), id, PROXY_ASYNC);
    in->addr = src; in->ndst = 1; in->dst[0] = (lit_opnd){ .k = OPD_REG, .reg = r };
    lit_insn *x = more(c, &in);
    async_mem(x, LI_ST, SEM_WEAK, SCOPE_NONE, SPACE_SHARED_CLUSTER, sized_type(n), id, PROXY_ASYNC);
    x->addr = dst; x->nsrc = 1; x->src[0] = (lit_opnd){ .k = OPD_REG, .reg = r };
    /* "The completion of a cp{.reduce}.async.bulk operation is followed by an implicit
       generic-async proxy fence" */
    x = more(c, &in);
    fence_ev(x, FENCE_PROXY_ASYNC, SEM_WEAK, SCOPE_NONE);
    x->async_id = id;
    x = more(c, &in);
    complete_tx(x, &mb, n, SPACE_SHARED_CLUSTER, id);
    return 0;
}

/* st.async{.weak}.shared::cluster.mbarrier::complete_tx::bytes.type [a], b, [mbar] */
static int parse_st_async(lp_cell *c, lit_insn *in, const ptx_mnemonic *m, const token *mt)
{
    static const int w[] = { 0 };
    const char *form = "st.async{.weak}{.shared::cluster}.mbarrier::complete_tx::bytes.type [a], "
                       "b, [mbar] (§9.7.8.12; no vectors)";
    if (only(c, mt, m, CL(SPACE) | CL(SEM) | CL(COMPLETION) | CL(TYPE), w, form)) return -1;
    isa_type t = ptx_mn_type(m);
    int ok_t = t == ISA_T_B32 || t == ISA_T_B64 || t == ISA_T_U32 || t == ISA_T_U64 ||
               t == ISA_T_S32 || t == ISA_T_S64 || t == ISA_T_F32 || t == ISA_T_F64;
    if (!ok_t || m->completion != PTX_CM_MBARRIER || (m->sem && m->sem != PTX_SEM_WEAK) ||
        (m->space && m->space != PTX_SS_SHARED_CLUSTER))
        return bad(c, mt, form);
    lit_opnd a, v, mb;
    if (lp_cell_addr(c, &a) || lp_cell_comma(c) || lp_cell_value(c, &v, 0) || lp_cell_comma(c) ||
        lp_cell_addr(c, &mb) || lp_cell_end(c, "st.async"))
        return -1;
    int id = next_async_id(c->th);
    c->p->t->uses_async = c->p->t->uses_cluster = 1;
    /* "The store operation in st.async is treated as a weak memory operation and the
       complete_tx operation on the mbarrier has .release semantics at the .cluster scope" */
    async_mem(in, LI_ST, SEM_WEAK, SCOPE_NONE, SPACE_SHARED_CLUSTER, t, id, PROXY_GENERIC);
    in->addr = a; in->nsrc = 1; in->src[0] = v;
    lit_insn *x = more(c, &in);
    complete_tx(x, &mb, (int)isa_type_bits(t) / 8, SPACE_SHARED_CLUSTER, id);
    return 0;
}

/* red.async.relaxed.cluster{.shared::cluster}.mbarrier::complete_tx::bytes.op.type [a], b, [mbar]
   red.async{.mmio}.release.{gpu,cluster}{.global}.add.type [a], b */
static int parse_red_async(lp_cell *c, lit_insn *in, const ptx_mnemonic *m, const token *mt)
{
    static const int w[] = { 0 };
    const char *form =
        "red.async.relaxed.cluster{.shared::cluster}.mbarrier::complete_tx::bytes.op.type [a], b, "
        "[mbar] "
        "or red.async{.mmio}.release.{gpu,cluster}{.global}.add.type [a], b (§9.7.13.7)";
    if (only(c, mt, m,
             CL(SPACE) | CL(SEM) | CL(SCOPE) | CL(MMIO) | CL(COMPLETION) | CL(ATOMOP) | CL(TYPE), w,
             form))
        return -1;
    isa_type t = ptx_mn_type(m);
    int aop = m->aop, mb_form = m->completion == PTX_CM_MBARRIER;
    int ok;
    if (mb_form) {
        ok = m->sem == PTX_SEM_RELAXED && m->scope == PTX_SCOPE_CLUSTER &&
             !ptx_mn_given(m, PTX_QC_MMIO) && (!m->space || m->space == PTX_SS_SHARED_CLUSTER);
        switch (aop) {
        case ISA_ATOM_INC: case ISA_ATOM_DEC: ok = ok && t == ISA_T_U32; break;
        case ISA_ATOM_MIN: case ISA_ATOM_MAX: ok = ok && (t == ISA_T_U32 || t == ISA_T_S32); break;
        case ISA_ATOM_AND: case ISA_ATOM_OR: case ISA_ATOM_XOR: ok = ok && t == ISA_T_B32; break;
        case ISA_ATOM_ADD: ok = ok && (t == ISA_T_U32 || t == ISA_T_S32 || t == ISA_T_U64); break;
        default: ok = 0;
        }
    } else {
        ok = m->sem == PTX_SEM_RELEASE &&
             (m->scope == PTX_SCOPE_GPU || m->scope == PTX_SCOPE_CLUSTER) &&
             (!m->space || m->space == PTX_SS_GLOBAL) && aop == ISA_ATOM_ADD &&
             (t == ISA_T_U32 || t == ISA_T_S32 || t == ISA_T_U64 || t == ISA_T_S64);
    }
    if (!ok) return bad(c, mt, form);
    lit_opnd a, v, mb;
    if (lp_cell_addr(c, &a) || lp_cell_comma(c) || lp_cell_value(c, &v, 0)) return -1;
    if (mb_form && (lp_cell_comma(c) || lp_cell_addr(c, &mb))) return -1;
    if (lp_cell_end(c, "red.async")) return -1;
    int id = next_async_id(c->th);
    c->p->t->uses_async = c->p->t->uses_cluster = 1;
    /* .relaxed: "The reduce operation is a relaxed memory operation. The complete-tx operation
       on the mbarrier has .release semantics at .cluster scope" */
    async_mem(in, LI_RED, sem_of(m->sem), scope_of(m->scope),
              mb_form ? SPACE_SHARED_CLUSTER : SPACE_GLOBAL, t, id, PROXY_GENERIC);
    in->aop = (isa_atom_op)aop; in->addr = a; in->nsrc = 1; in->src[0] = v;
    in->mmio = ptx_mn_given(m, PTX_QC_MMIO);
    if (mb_form)
        complete_tx(more(c, &in), &mb, (int)isa_type_bits(t) / 8, SPACE_SHARED_CLUSTER, id);
    return 0;
}

/* cp.async.commit_group, cp.async.wait_group N, cp.async.wait_all (§9.7.8.24.4-5) */
static int parse_async_group(lp_cell *c, lit_insn *in, const ptx_mnemonic *m, const token *mt)
{
    if (m->op != PTX_I_CP_ASYNC_COMMIT_GROUP && m->op != PTX_I_CP_ASYNC_WAIT_GROUP &&
        m->op != PTX_I_CP_ASYNC_WAIT_ALL)
        return bad(c, mt,
                   "cp.async.commit_group, cp.async.wait_group N or cp.async.wait_all (the bulk "
                   "async-groups "
                   "are not supported: cp.async.bulk is supported with an mbarrier)");
    if (m->nq) return bad(c, mt, "the instruction without qualifiers");
    in->k = LI_NOP;
    in->ptx = 1;
    c->p->t->uses_async = 1;
    if (m->op == PTX_I_CP_ASYNC_COMMIT_GROUP) {
        in->await = AW_COMMIT;
        return lp_cell_end(c, "cp.async.commit_group");
    }
    if (m->op == PTX_I_CP_ASYNC_WAIT_ALL) {
        in->await = AW_WAIT_ALL;
        return lp_cell_end(c, "cp.async.wait_all");
    }
    in->await = AW_WAIT_GROUP;
    lit_opnd n;
    const token *at = &c->p->tv.v[c->i];
    if (lp_cell_value(c, &n, 0)) return -1;
    if (n.k != OPD_IMM || n.imm < 0 || n.imm > 64) {
        lp_errat(c->p, at,
                 "found '%.*s', expected a constant N of pending groups, 0..64 (§9.7.8.24.5)",
                 at->len, at->s);
        return -1;
    }
    in->await_n = (int)n.imm;
    return lp_cell_end(c, "cp.async.wait_group");
}

int lp_parse_async(lp_cell *c, lit_insn *in, const ptx_mnemonic *m, const token *mt)
{
    switch (m->kind) {
    case PTX_K_MBAR: return parse_mbarrier(c, in, m, mt);
    case PTX_K_BARCLUSTER: return parse_barrier_cluster(c, in, m, mt);
    case PTX_K_FENCE: return parse_fence_new(c, in, m, mt);
    case PTX_K_ASYNC_GROUP: return parse_async_group(c, in, m, mt);
    case PTX_K_MULTIMEM:
        return bad(c, mt,
                   "an instruction on memory locations: multimem.* operate on multimem addresses, "
                   "which point "
                   "to \"multiple distinct memory locations across devices\" (§8.2.3); litmus "
                   "tests have no such "
                   "addresses, so multimem operations are not litmus instructions");
    default: break;
    }
    switch (m->op) {
    case PTX_I_CP_ASYNC: return parse_cp_async(c, in, m, mt);
    case PTX_I_CP_ASYNC_BULK: return parse_cp_async_bulk(c, in, m, mt);
    case PTX_I_ST_ASYNC: return parse_st_async(c, in, m, mt);
    case PTX_I_RED_ASYNC: return parse_red_async(c, in, m, mt);
    case PTX_I_CP_REDUCE_ASYNC_BULK:
    case PTX_I_CP_ASYNC_BULK_TENSOR:
    case PTX_I_CP_REDUCE_ASYNC_BULK_TENSOR:
        return bad(c, mt,
                   "an asynchronous operation of litmus tests: cp.async, cp.async.bulk (with an "
                   "mbarrier), "
                   "st.async, red.async (bulk reductions and tensor copies are not supported)");
    default: return 1;
    }
}

/* ---------- after the rows ---------- */

/* program order of a thread with asynchronous operations (§8.9.1.1, §9.7.8.24.1): x before y
   (x < y in the text) unless x is asynchronous and no completion between them covers it;
   the instructions of one asynchronous operation are ordered among themselves. */
static int async_order(parser *p, lit_thread *th)
{
    int n = th->nins, any = 0;
    for (int k = 0; k < n; k++) any |= th->ins[k].async_id > 0;
    if (!any) return 0;
    unsigned char *o = xcalloc((size_t)n * (size_t)n, 1);
    for (int x = 0; x < n; x++) {
        const lit_insn *a = &th->ins[x];
        /* the group a cp.async joins: the first commit after it (wait_all commits too) */
        int commit = -1;
        if (a->async_cp == 1)
            for (int k = x + 1; k < n && commit < 0; k++)
                if (th->ins[k].await == AW_COMMIT || th->ins[k].await == AW_WAIT_ALL) commit = k;
        int done = n;   /* the first instruction after a completion covering x */
        if (!a->async_id) done = x + 1;
        else if (a->async_cp == 1) {
            for (int w = x + 1; w < n && done == n; w++) {
                const lit_insn *q = &th->ins[w];
                if (q->await == AW_WAIT_ALL) done = w + 1;
                else if (q->await == AW_WAIT_GROUP && commit >= 0 && commit < w) {
                    int later = 0;   /* groups committed after x's group, before the wait */
                    for (int k = commit + 1; k < w; k++) later += th->ins[k].await == AW_COMMIT;
                    if (later >= q->await_n) done = w + 1;
                }
            }
        }
        for (int y = x + 1; y < n; y++) {
            const lit_insn *b = &th->ins[y];
            int same = a->async_id && b->async_id == a->async_id;
            /* cp.async.mbarrier.arrive's arrive-on follows the completion of prior cp.async */
            int tracked = a->async_cp == 1 && b->async_cp == 2;
            o[(size_t)x * (size_t)n + (size_t)y] = (unsigned char)(y >= done || same || tracked);
        }
    }
    th->order = o;
    (void)p;
    return 0;
}

int lp_async_check(parser *p)
{
    lit_test *t = p->t;
    /* shared locations and the CTA whose shared memory holds them (§5.1.4) */
    for (int ti = 0; ti < t->nth; ti++)
        for (int k = 0; k < t->th[ti].nins; k++) {
            const lit_insn *in = &t->th[ti].ins[k];
            int mem = in->k == LI_LD || in->k == LI_ST || in->k == LI_ATOM || in->k == LI_RED;
            if (!mem || in->addr.k != OPD_SYM) continue;
            lit_sym *l = &t->sym[t->sym[in->addr.sym].loc];
            if (in->space == SPACE_SHARED_CTA || in->space == SPACE_SHARED_CLUSTER) l->shared = 1;
            if (in->space == SPACE_SHARED_CTA && l->owner < 0) l->owner = ti;
        }
    for (int ti = 0; ti < t->nth; ti++) {
        lit_thread *th = &t->th[ti];
        for (int k = 0; k < th->nins; k++) {
            lit_insn *in = &th->ins[k];
            if ((in->mbar == MB_TEST || in->mbar == MB_TEST_PARITY) && in->dst[0].k == OPD_REG)
                th->reg_type[in->dst[0].reg] = ISA_T_PRED;   /* waitComplete */
            if (in->mbar && in->addr.k == OPD_SYM) {
                const lit_sym *l = &t->sym[t->sym[in->addr.sym].loc];
                if (l->size != 8) {
                    token at = { .line = in->line, .col = in->col };
                    lp_errat(p, &at,
                             "found an mbarrier operation on '%s' of %d bytes, expected an 8-byte "
                             "location (§9.7.13.15.1)",
                             t->sym[in->addr.sym].name, l->size);
                    return -1;
                }
            }
            if (in->async_id && th->order == NULL) {
                for (int j = k; j < th->nins; j++) {
                    const lit_insn *b = &th->ins[j];
                    if ((b->k == LI_BRANCH || b->k == LI_GOTO) && b->target >= 0 &&
                        b->target <= k && b->target_name && strcmp(b->target_name, "$end")) {
                        token at = { .line = in->line, .col = in->col };
                        lp_errat(p, &at,
                                 "found an asynchronous operation inside a loop, expected it "
                                 "outside loops "
                                 "(its order with later instructions is computed on the text, "
                                 "§8.9.1.1)");
                        return -1;
                    }
                }
            }
        }
        if (!th->order && async_order(p, th)) return -1;
    }
    return 0;
}
