/* exec/ldst.c — memory instructions: ld, st, atom, red, cvta, isspacep, mapa, getctarank,
 * fences, textures and surfaces (exec/tex.c), createpolicy and the no-ops. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "exec/engine.h"
#include "exec/sanitize.h"
#include "exec/tex.h"

/* ld, ldu, st (§9.7.8.8-11): scalar or vector, sign-extended loads */
int h_ldst(ex *X, warp *w, const xinsn *in, frame *f, uint32_t G, uint32_t E)
{
    unsigned n = in->size, tot = n * in->vec;
    int store = in->kind == PTX_K_ST;
    for (uint32_t m = E; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        uint64_t a = opv(X, w, f, &in->s[0], l) + (uint64_t)in->aoff;
        uint8_t *p = maddr(X, w, l, w->pc, in->space, a, tot, store, store ? "store" : "load");
        if (!p) return -1;
        int sp = 0;   /* a model checker's event: each element an access (§8.2.4) */
        uint64_t loc = X->hooks ? exec_loc(X, w, p, &sp) : 0;
        for (int k = 0; k < in->vec; k++) {
            exec_hacc h = { store ? EH_STORE : EH_LOAD, l, sp, 0, n, loc + k * n, 0, 0 };
            if (store) {
                uint64_t v = opv(X, w, f, &in->s[1 + k], l);
                if (sp && exec_hook_access(X, w, &h, p + k * n, &v)) return -1;
                memcpy(p + k * n, &v, n);
                continue;
            }
            uint64_t v = ldval(p + k * n, n);
            if (sp && exec_hook_access(X, w, &h, p + k * n, &v)) return -1;
            wr(f, &in->d[k], l, in->sign ? isa_sext(v, n * 8) : v);
        }
    }
    if (X->polls && X->polls[w->pc]) w->polled = 1;
    advance(w, w->pc + 1);
    return 0;
}

/* atom, red (§9.7.12.5-6): the new value by isa_atom_apply; vectors element-wise, one access */
int h_atom(ex *X, warp *w, const xinsn *in, frame *f, uint32_t G, uint32_t E)
{
    unsigned n = in->size;
    int atom = in->kind == PTX_K_ATOM;
    isa_atom_op op = (isa_atom_op)in->mode;
    for (uint32_t m = E; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        uint64_t a = opv(X, w, f, &in->s[0], l) + (uint64_t)in->aoff;
        uint8_t *p = maddr(X, w, l, w->pc, in->space, a, n * in->vec, 1, atom ? "atom" : "red");
        if (!p) return -1;
        int sp = 0;
        uint64_t loc = X->hooks ? exec_loc(X, w, p, &sp) : 0;
        for (int k = 0; k < in->vec; k++) {
            uint64_t old = ldval(p + k * n, n), nv;
            uint64_t b = opv(X, w, f, &in->s[1 + k], l),
                     c = in->vec == 1 && in->ns > 2 ? opv(X, w, f, &in->s[2], l) : 0;
            exec_hacc h = { EH_RMW_R, l, sp, !atom, n, loc + k * n, b, c };
            if (sp && exec_hook_access(X, w, &h, p + k * n, &old)) return -1;
            int r = isa_atom_apply(op, in->type, old, b, c, &nv);
            if (r < 0) {
                fault(X, w, l, w->pc, PTXE_ERROR_LAUNCH_FAILED,
                      "atomic %s has no semantics for .%s", isa_atom_name(op),
                      isa_type_name(in->type));
                return -1;
            }
            h.kind = EH_RMW_W;
            if (r && sp && exec_hook_access(X, w, &h, p + k * n, &nv)) return -1;
            if (r) memcpy(p + k * n, &nv, n);
            if (!atom) continue;
            if (in->vec == 1 && isa_type_is_signed(in->type)) old = isa_sext(old, n * 8);
            wr(f, &in->d[k], l, old);
        }
    }
    if (X->polls && X->polls[w->pc]) w->polled = 1;
    advance(w, w->pc + 1);
    return 0;
}

/* cvta{.to}.space (§9.7.8.19): generic = window base + space address */
int h_cvta(ex *X, warp *w, const xinsn *in, frame *f, uint32_t G, uint32_t E)
{
    static const uint64_t base[] = { 0,         0,         WIN_SHARED, WIN_LOCAL,
                                     WIN_CONST, WIN_PARAM, 0,          WIN_SHARED };
    uint64_t b = base[in->space];
    for (uint32_t m = E; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        uint64_t a = opv(X, w, f, &in->s[0], l);
        wr(f, &in->d[0], l, in->mode ? a - b : a + b);
    }
    advance(w, w->pc + 1);
    return 0;
}

/* isspacep.space (§9.7.8.18) */
int h_isspacep(ex *X, warp *w, const xinsn *in, frame *f, uint32_t G, uint32_t E)
{
    for (uint32_t m = E; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        uint64_t a = opv(X, w, f, &in->s[0], l), r;
        switch (in->space) {
        case SP_SHARED:
            r = a >= WIN_SHARED && a < WIN_SHARED + WIN_SHARED_SIZE &&
                ((a - WIN_SHARED) >> SHCL_SHIFT == 0 ||
                 (a - WIN_SHARED) >> SHCL_SHIFT == w->cta->rank + 1);
            break;
        case SP_SHCLUSTER:
            r = a >= WIN_SHARED && a < WIN_SHARED + WIN_SHARED_SIZE &&
                (a - WIN_SHARED) >> SHCL_SHIFT <= w->cta->clu->ncta;
            break;
        case SP_LOCAL: r = a >= WIN_LOCAL && a < WIN_LOCAL + WIN_SIZE; break;
        case SP_CONST: r = a >= WIN_CONST && a < WIN_CONST + WIN_SIZE; break;
        case SP_PARAM: r = a >= WIN_PARAM && a < WIN_PARAM + WIN_SIZE; break;
        default: r = a >= GLOBAL_BASE32; break;
        }
        wr(f, &in->d[0], l, r);
    }
    advance(w, w->pc + 1);
    return 0;
}

/* fences: sequential execution orders everything; racecheck counts them as synchronization */
int h_fence(ex *X, warp *w, const xinsn *in, frame *f, uint32_t G, uint32_t E)
{
    for (uint32_t m = X->san ? E : 0; m; m &= m - 1) {   /* racecheck: each thread's fence */
        san_who t = who(X, w, __builtin_ctz(m), w->pc);
        san_fence(X->san, &t);
    }
    for (uint32_t m = X->hooks ? E : 0; m; m &= m - 1)
        if (X->hooks->fence(X->hooks->ctx, X, w, __builtin_ctz(m), w->pc)) return -1;
    advance(w, w->pc + 1);
    return 0;
}

/* cache hints, async-group waits (copies are complete at issue), griddepcontrol, pmevent */
int h_nop(ex *X, warp *w, const xinsn *in, frame *f, uint32_t G, uint32_t E)
{
    advance(w, w->pc + 1);
    return 0;
}

/* createpolicy (§9.7.8.17): the policy is 0 (cache policies are hints) */
int h_policy(ex *X, warp *w, const xinsn *in, frame *f, uint32_t G, uint32_t E)
{
    for (uint32_t m = E; m; m &= m - 1) wr(f, &in->d[0], __builtin_ctz(m), 0);
    advance(w, w->pc + 1);
    return 0;
}

/* mapa (§9.7.8.22), getctarank (§9.7.8.23): shared::cluster addresses */
int h_mapa(ex *X, warp *w, const xinsn *in, frame *f, uint32_t G, uint32_t E)
{
    int mapa = in->kind == PTX_K_MAPA;
    for (uint32_t m = E; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        uint64_t a = opv(X, w, f, &in->s[0], l), off = a;
        if (in->space == SP_GENERIC) {
            if (a < WIN_SHARED || a >= WIN_SHARED + WIN_SHARED_SIZE) {
                fault(X, w, l, w->pc, PTXE_ERROR_LAUNCH_FAILED,
                      "%s of generic address 0x%llx, which is not in shared memory",
                      mapa ? "mapa" : "getctarank", (unsigned long long)a);
                return -1;
            }
            off = a - WIN_SHARED;
        }
        if (!mapa) {
            uint64_t r = off >> SHCL_SHIFT;
            wr(f, &in->d[0], l, r ? r - 1 : w->cta->rank);
            continue;
        }
        uint64_t r = (uint32_t)opv(X, w, f, &in->s[1], l);
        if (r >= w->cta->clu->ncta) {
            fault(X, w, l, w->pc, PTXE_ERROR_LAUNCH_FAILED,
                  "mapa to CTA rank %llu, the cluster has %u CTAs", (unsigned long long)r,
                  w->cta->clu->ncta);
            return -1;
        }
        uint64_t d = ((r + 1) << SHCL_SHIFT) | SHCL_OFF(off);
        wr(f, &in->d[0], l, in->space == SP_GENERIC ? WIN_SHARED + d : d);
    }
    advance(w, w->pc + 1);
    return 0;
}

/* tex, tld4, txq, istypep, suld, sust, sured, suq (§9.7.9, §9.7.10): lane by lane, exec/tex.c */
typedef struct { ex *X; warp *w; int l; } tex_cookie;
static uint8_t *tex_mem(void *ck, uint64_t a, unsigned n, int write)
{
    tex_cookie *c = ck;
    return maddr(c->X, c->w, c->l, c->w->pc, SP_GLOBAL, a, n, write, write ? "store" : "load");
}

int h_tex(ex *X, warp *w, const xinsn *in, frame *f, uint32_t G, uint32_t E)
{
    char msg[400];
    tex_cookie ck = { X, w, 0 };
    tex_env env = { X->ctx, tex_mem, &ck, msg, sizeof msg };
    for (uint32_t m = E; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        uint64_t S[XMAX_OPS], Dv[XMAX_OPS] = { 0 };
        for (int k = 0; k < in->ns; k++) S[k] = opv(X, w, f, &in->s[k], l);
        ck.l = l;
        msg[0] = 0;
        if (tex_lane(&env, in->tx, S, Dv)) {
            if (!X->fault) fault(X, w, l, w->pc, PTXE_ERROR_LAUNCH_FAILED, "%s", msg);
            return -1;
        }
        for (int k = 0; k < in->nd; k++) wr(f, &in->d[k], l, Dv[k]);
    }
    advance(w, w->pc + 1);
    return 0;
}

