/* exec/async.c — asynchronous copies and remote stores, done at issue: cp.async, cp.async.bulk,
 * st.async/red.async, multimem, tensor memory access (exec/tma.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "exec/engine.h"
#include "exec/remote.h"
#include "exec/tma.h"

/* cp.async.bulk (§9.7.8.24.6): copy now, then complete_tx(size) on the mbarrier(s) */
/* A model checker's bulk copy (exec_hooks): each 4-byte chunk a read of the source and a write
 * of the destination, both in the asynchronous proxy; then the implicit generic-async proxy
 * fence of the completion (reported as a fence at this instruction). */
static int hooked_copy(ex *X, warp *w, int l, const uint8_t *ps, uint8_t *pd, uint64_t size)
{
    int ssp = 0, dsp = 0;
    uint64_t sl = exec_loc_sp(X, w, ps, X->hk_sp2, &ssp), dl = exec_loc(X, w, pd, &dsp);
    for (uint64_t k = 0; k < size; k += 4) {
        uint64_t v = ldval(ps + k, 4);
        exec_hacc r = { EH_LOAD, l, ssp, 0, 4, sl + k, 0, 0 }, wr_ = r;
        if (ssp && exec_hook_access(X, w, &r, ps + k, &v)) return -1;
        wr_.kind = EH_STORE; wr_.space = dsp; wr_.loc = dl + k;
        if (dsp && exec_hook_access(X, w, &wr_, pd + k, &v)) return -1;
        memcpy(pd + k, &v, 4);
    }
    return X->hooks->fence(X->hooks->ctx, X, w, l, w->pc);
}

static int run_bulk(ex *X, warp *w, frame *f, const xinsn *in, uint32_t E)
{
    for (uint32_t m = E; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        uint64_t dst = opv(X, w, f, &in->s[0], l) + (uint64_t)in->aoff,
                 src = opv(X, w, f, &in->s[1], l) + (uint64_t)in->aoff2;
        uint64_t size = (uint32_t)opv(X, w, f, &in->s[2], l);
        if (size % 16) {
            fault(X, w, l, w->pc, PTXE_ERROR_LAUNCH_FAILED,
                  "cp.async.bulk size %llu is not a multiple of 16", (unsigned long long)size);
            return -1;
        }
        const uint8_t *ps =
            maddr_al(X, w, l, w->pc, in->mode, src, (unsigned)size, 16, 0, "cp.async.bulk load");
        if (!ps) return -1;
        X->hk_sp2 = X->hk_sp;   /* the source's space, for hooked_copy */
        uint32_t ranks =
            in->s[4].kind != XO_NONE ? (uint32_t)opv(X, w, f, &in->s[4], l) & 0xffff : 0;
        int multi = in->s[4].kind != XO_NONE;
        for (int r = multi ? 0 : -1; r < (multi ? 16 : 0); r++) {
            if (multi && !(ranks >> r & 1)) continue;
            uint64_t d = multi ? ((uint64_t)(r + 1) << SHCL_SHIFT) | SHCL_OFF(dst) : dst;
            uint8_t *pd = maddr_al(X, w, l, w->pc, in->space, d, (unsigned)size, 16, 1,
                                   "cp.async.bulk store");
            if (!pd) return -1;
            if (X->hooks) { if (hooked_copy(X, w, l, ps, pd, size)) return -1; }
            else memmove(pd, ps, size);
            if (in->s[3].kind == XO_NONE) continue;
            uint64_t ma = opv(X, w, f, &in->s[3], l) + (uint64_t)in->aoff3;
            if (multi) ma = ((uint64_t)(r + 1) << SHCL_SHIFT) | SHCL_OFF(ma);
            if (mb_complete_tx(X, w, l, w->pc, SP_SHCLUSTER, ma, size)) return -1;
        }
    }
    return 0;
}

/* The cluster rank of the CTA whose shared memory the shared::cluster (or generic) address a
 * names; -1 when a is not a shared-memory address. */
static int shcl_rank(const warp *w, int sp, uint64_t a)
{
    if (sp == SP_GENERIC) {
        if (a < WIN_SHARED || a >= WIN_SHARED + WIN_SHARED_SIZE) return -1;
        a -= WIN_SHARED;
    }
    uint64_t r = a >> SHCL_SHIFT;
    return r ? (int)(r - 1) : (int)w->cta->rank;
}

/* st.async (§9.7.8.12), red.async (§9.7.12.7): the store / reduction at issue into the other
 * CTA's shared memory, then complete-tx of its bytes on the mbarrier there (exec/remote.c) */
static int h_stasync(ex *X, warp *w, const xinsn *in, frame *f, uint32_t G, uint32_t E)
{
    unsigned n = in->size, tot = n * in->vec;
    /* the checks take the kind of access from `what` (san_access): a store, a reduction */
    const char *what = in->op == PTX_I_ST_ASYNC ? "st.async store" : "red.async";
    for (uint32_t m = E; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        uint64_t a = opv(X, w, f, &in->s[0], l) + (uint64_t)in->aoff,
                 ma = opv(X, w, f, &in->s[5], l) + (uint64_t)in->aoff2;
        int ra = shcl_rank(w, in->space, a), rm = shcl_rank(w, in->space, ma);
        if (ra < 0 || ra == (int)w->cta->rank || ra != rm) {
            fault(X, w, l, w->pc, PTXE_ERROR_LAUNCH_FAILED,
                  "%s to 0x%llx (CTA rank %d) with the mbarrier at 0x%llx (CTA rank %d) from CTA "
                  "rank %u: both must be in one other CTA of the cluster (-1: not shared memory; "
                  "undefined, §%s)",
                  what, (unsigned long long)a, ra, (unsigned long long)ma, rm, w->cta->rank,
                  ptx_ops[in->op].section);
            return -1;
        }
        uint8_t *p = maddr(X, w, l, w->pc, in->space, a, tot, 1, what);
        if (!p) return -1;
        for (int k = 0; k < in->vec; k++) {
            uint64_t v = opv(X, w, f, &in->s[1 + k], l), nv = v;
            if (in->op == PTX_I_RED_ASYNC)
                isa_atom_apply((isa_atom_op)in->mode, in->type, ldval(p + k * n, n), v, 0, &nv);
            memcpy(p + k * n, &nv, n);
        }
        if (mb_complete_tx(X, w, l, w->pc, in->space, ma, tot)) return -1;
    }
    advance(w, w->pc + 1);
    return 0;
}

/* multimem.ld_reduce / st / red (§9.7.8.13) on the copies of a multicast object
 * (exec/remote.c): a must name a multimem range, each copy is accessed as global memory */
int h_multimem(ex *X, warp *w, const xinsn *in, frame *f, uint32_t G, uint32_t E)
{
    unsigned n = in->size, tot = n * in->vec;
    /* `what` names the kind of access for the checks (san_access): load, store, reduction */
    const char *what = in->op == PTX_I_MULTIMEM_LD_REDUCE ? "load (multimem.ld_reduce)"
                       : in->op == PTX_I_MULTIMEM_ST      ? "store (multimem.st)"
                                                          : "red (multimem.red)";
    for (uint32_t m = E; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        uint64_t a = opv(X, w, f, &in->s[0], l) + (uint64_t)in->aoff, v[PTXE_MULTICAST_MAX_DEVICES];
        const xmcast *mc = multimem_find(X->ctx, a, tot);
        uint8_t *p[PTXE_MULTICAST_MAX_DEVICES];
        if (!mc) {
            fault(X, w, l, w->pc, PTXE_ERROR_LAUNCH_FAILED,
                  "%s at 0x%llx (%u bytes): not inside a multimem object (undefined, §9.7.8.13)",
                  what, (unsigned long long)a, tot);
            return -1;
        }
        for (int k = 0; k < mc->ndev; k++)
            if (!(p[k] = maddr(X, w, l, w->pc, SP_GLOBAL, mc->dev[k] + (a - mc->base), tot,
                               in->op != PTX_I_MULTIMEM_LD_REDUCE, what)))
                return -1;
        for (int e = 0; e < in->vec; e++) {
            uint64_t b = in->op == PTX_I_MULTIMEM_LD_REDUCE ? 0 : opv(X, w, f, &in->s[1 + e], l);
            for (int k = 0; k < mc->ndev; k++) {
                uint64_t old = ldval(p[k] + e * n, n), nv = b;
                if (in->op == PTX_I_MULTIMEM_RED)
                    isa_atom_apply((isa_atom_op)in->mode, in->type, old, b, 0, &nv);
                if (in->op == PTX_I_MULTIMEM_LD_REDUCE) v[k] = old;
                else memcpy(p[k] + e * n, &nv, n);
            }
            if (in->op == PTX_I_MULTIMEM_LD_REDUCE) {
                multimem_reduce(in->mode, in->type, in->sign, v, mc->ndev, &b);
                wr(f, &in->d[e], l, b);
            }
        }
    }
    advance(w, w->pc + 1);
    return 0;
}

/* cp.async (§9.7.8.24.3): the copy is done at issue, so every commit group is complete at once */
int h_cpasync(ex *X, warp *w, const xinsn *in, frame *f, uint32_t G, uint32_t E)
{
    if (in->op != PTX_I_CP_ASYNC) return h_stasync(X, w, in, f, G, E);
    for (uint32_t m = E; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        uint64_t dst = opv(X, w, f, &in->s[0], l) + (uint64_t)in->aoff,
                 src = opv(X, w, f, &in->s[1], l) + (uint64_t)in->aoff2;
        unsigned n = in->size, sn = n;
        if (in->flags & XF_IGNORE_SRC) sn = (opv(X, w, f, &in->s[2], l) & 1) ? 0 : n;
        else if (in->flags & XF_SRC_SIZE) {
            uint64_t v = (uint32_t)opv(X, w, f, &in->s[2], l);
            if (v > n) {
                fault(X, w, l, w->pc, PTXE_ERROR_LAUNCH_FAILED,
                      "cp.async src-size %llu is larger than cp-size %u", (unsigned long long)v, n);
                return -1;
            }
            sn = (unsigned)v;
        }
        uint8_t *pd = maddr(X, w, l, w->pc, SP_SHARED, dst, n, 1, "cp.async store");
        if (!pd) return -1;
        if (sn) {
            const uint8_t *ps = maddr_al(X, w, l, w->pc, SP_GLOBAL, src, sn, n, 0, "cp.async load");
            if (!ps) return -1;
            memmove(pd, ps, sn);
        }
        memset(pd + sn, 0, n - sn);
    }
    advance(w, w->pc + 1);
    return 0;
}

int h_bulk(ex *X, warp *w, const xinsn *in, frame *f, uint32_t G, uint32_t E)
{
    if (run_bulk(X, w, f, in, E)) return -1;
    advance(w, w->pc + 1);
    return 0;
}

/* tensor memory access (exec/tma.c): each lane's instance through tma_run, lent checked
 * memory access, the mbarrier complete-tx of run_bulk, and fault reports */
typedef struct { ex *X; warp *w; int l; } tma_lane;
static uint8_t *tma_mem(void *c, int sp, uint64_t a, unsigned n, unsigned al, int write,
                        const char *what)
{
    tma_lane *t = c;
    return maddr_al(t->X, t->w, t->l, t->w->pc, sp, a, n, al, write, what);
}
static int tma_tx(void *c, uint64_t a, uint32_t bytes)
{
    tma_lane *t = c;
    return mb_complete_tx(t->X, t->w, t->l, t->w->pc, SP_SHCLUSTER, a, bytes);
}
static void tma_fail(void *c, const char *msg)
{
    tma_lane *t = c;
    fault(t->X, t->w, t->l, t->w->pc, PTXE_ERROR_LAUNCH_FAILED, "%s", msg);
}
int h_tma(ex *X, warp *w, const xinsn *in, frame *f, uint32_t G, uint32_t E)
{
    uint64_t prev[XMAX_OPS];
    int have = 0;
    for (uint32_t m = E; m; m &= m - 1) {
        tma_lane c = { X, w, __builtin_ctz(m) };
        const tma_io io = { &c, tma_mem, tma_tx, tma_fail };
        uint64_t v[XMAX_OPS] = { 0 };
        for (int k = 0; k < in->ns; k++)
            if (in->s[k].kind != XO_NONE) v[k] = opv(X, w, f, &in->s[k], c.l);
        /* a warp-collective form: the lanes with the same operands make one operation */
        if (tma_collective(in->tm) && have && !memcmp(prev, v, sizeof v)) continue;
        memcpy(prev, v, sizeof v);
        have = 1;
        if (tma_run(in->tm, v, &io)) return -1;
    }
    advance(w, w->pc + 1);
    return 0;
}

