/* exec/matrix.c — the engine's side of the warp- and warpgroup-level matrix instructions:
 * mma, ldmatrix, stmatrix, movmatrix, wmma (exec/mma.c, exec/wmma.c) and wgmma (exec/wgmma.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "exec/engine.h"
#include "exec/wmma.h"

/* wmma (§9.7.13.3): exec/wmma.c runs it on the 32 lanes' sources, through maddr and fault. */
typedef struct { ex *X; warp *w; } wmma_env;
static uint8_t *wmma_mem(void *env, int l, int sp, uint64_t a, unsigned n, int write)
{
    wmma_env *e = env;
    return maddr(e->X, e->w, l, e->w->pc, sp, a, n, write, write ? "wmma.store" : "wmma.load");
}
static void wmma_fault(void *env, int l, const char *msg)
{
    wmma_env *e = env;
    fault(e->X, e->w, l, e->w->pc, PTXE_ERROR_LAUNCH_FAILED, "%s", msg);
}
static int h_wmma(ex *X, warp *w, const xinsn *in, frame *f)
{
    const xwmma *xw = (const xwmma *)in->mm;
    static _Thread_local uint64_t S[32][WMMA_MAXS], Dv[32][WMMA_MAXD];
    for (int l = 0; l < 32; l++)
        for (int k = 0; k < xw->ns; k++)
            S[l][k] = opv(X, w, f, &xw->s[k], l) + (k == 0 && xw->mm.kind != MM_WMMA_MMA
                                                          ? (uint64_t)in->aoff : 0);
    wmma_env env = { X, w };
    const wmma_io io = { &env, in->space, wmma_mem, wmma_fault };
    if (wmma_run(&xw->mm, (const uint64_t(*)[WMMA_MAXS])S, Dv, &io)) return -1;
    for (int l = 0; l < 32; l++)
        for (int k = 0; k < in->nd; k++) wr(f, &in->d[k], l, Dv[l][k]);
    advance(w, w->pc + 1);
    return 0;
}

/* Warp-level matrix instructions (§9.7.13.4.14-17, .sync.aligned): every lane of the warp
 * executes them together, so a partial warp (divergence, exited lanes, a false guard in some
 * lanes) is a fault.  mma: exec/mma.c on the 32 lanes' registers.  ldmatrix: lane 8i + r gives
 * the address of row r of matrix i (16 bytes: eight b16 elements); lane l receives, in its i-th
 * register, elements 2(l % 4) and 2(l % 4) + 1 of row l / 4 of matrix i (.trans: of column
 * l / 4, rows 2(l % 4) and 2(l % 4) + 1).  stmatrix stores the same way.  movmatrix.trans:
 * lane l receives element pair (2(l % 4) + j, l / 4) of the matrix held in that layout. */
/* A .sync.aligned matrix instruction reached by part of the warp: scheduling independently,
 * the group waits here for the warp's other lanes (1), which the yields of a loop may have left
 * behind (exec/sched.c); when they cannot come (or under lockstep), 0: a partial warp faults. */
static int aligned_wait(warp *w)
{
    return w->pol->its && wsync_wait(w, w->live);
}

static int h_wgmma(ex *X, warp *w, const xinsn *in, frame *f, uint32_t G, uint32_t E);
int h_mma(ex *X, warp *w, const xinsn *in, frame *f, uint32_t G, uint32_t E)
{
    if (in->wg) return h_wgmma(X, w, in, f, G, E);
    const xmma *mm = in->mm;
    if (E == 0) { advance(w, w->pc + 1); return 0; }   /* a guard false in every lane */
    if (E != 0xffffffffu && E == G && aligned_wait(w)) return 0;
    if (E != 0xffffffffu) {
        fault(X, w, __builtin_ctz(~E), w->pc, PTXE_ERROR_LAUNCH_FAILED,
              "%s executed by lanes 0x%08x of the warp, expected all 32 (.sync.aligned, "
              "§9.7.13.4)", in->text ? in->text : "warp-level matrix instruction", E);
        return -1;
    }
    if (mm->kind >= MM_WMMA_LOAD) return h_wmma(X, w, in, f);
    static _Thread_local uint64_t S[32][XMAX_OPS], Dv[32][XMAX_OPS];
    uint16_t mat[4][8][8]; /* matrix, row, column */
    for (int l = 0; l < 32; l++)
        for (int k = 0; k < in->ns; k++) S[l][k] = opv(X, w, f, &in->s[k], l);
    if (mm->kind == MM_MMA && mm->sp) { /* mma.sp: the metadata operand e is in d[nd] */
        uint32_t e[32];
        char why[200];
        for (int l = 0; l < 32; l++) e[l] = (uint32_t)opv(X, w, f, &in->d[in->nd], l);
        if (mma_sp_run(mm, (const uint64_t(*)[XMAX_OPS])S, e, Dv, why, sizeof why)) {
            fault(X, w, 0, w->pc, PTXE_ERROR_LAUNCH_FAILED, "%s", why);
            return -1;
        }
    } else if (mm->kind == MM_MMA) {
        mma_run(mm, (const uint64_t(*)[XMAX_OPS])S, Dv);
    } else if (mm->kind == MM_MOVMATRIX) {
        for (int l = 0; l < 32; l++)
            for (int j = 0; j < 2; j++)
                mat[0][l / 4][2 * (l % 4) + j] = (uint16_t)(S[l][0] >> 16 * j);
    } else {
        int ld = mm->kind == MM_LDMATRIX;
        if (!ld) /* stmatrix: the fragments of the registers */
            for (int l = 0; l < 32; l++)
                for (int i = 0; i < mm->num; i++)
                    for (int j = 0; j < 2; j++) {
                        uint16_t v = (uint16_t)(S[l][1 + i] >> 16 * j);
                        if (mm->trans) mat[i][2 * (l % 4) + j][l / 4] = v;
                        else mat[i][l / 4][2 * (l % 4) + j] = v;
                    }
        for (int l = 0; l < 8 * mm->num; l++) {
            uint64_t a = S[l][0] + (uint64_t)in->aoff;
            uint8_t *p = maddr(X, w, l, w->pc, in->space, a, 16, !ld, ld ? "load" : "store");
            if (!p) return -1;
            if (ld) memcpy(mat[l / 8][l % 8], p, 16);
            else memcpy(p, mat[l / 8][l % 8], 16);
        }
        if (!ld) {
            advance(w, w->pc + 1);
            return 0;
        }
    }
    if (mm->kind != MM_MMA)
        for (int l = 0; l < 32; l++)
            for (int i = 0; i < in->nd; i++) {
                unsigned r = l / 4, c = 2 * (l % 4);
                uint16_t (*m)[8] = mat[i];
                int tr = mm->trans;
                Dv[l][i] = tr ? (uint64_t)m[c][r] | (uint64_t)m[c + 1][r] << 16
                              : (uint64_t)m[r][c] | (uint64_t)m[r][c + 1] << 16;
            }
    for (int l = 0; l < 32; l++)
        for (int k = 0; k < in->nd; k++) wr(f, &in->d[k], l, Dv[l][k]);
    advance(w, w->pc + 1);
    return 0;
}

/* Warpgroup instructions (§9.7.14, exec/wgmma.c): every one needs the whole warp
 * (.sync.aligned).  wgmma.mma_async parks the warp (as a barrier: barw) until the four warps of
 * its warpgroup (§9.7.14.1) wait at the same instruction; the last computes D for all 128
 * threads and releases the others.  fence/commit_group/wait_group: nothing is pending. */
typedef struct { ex *X; warp *w; } wg_rd;
static int wg_read(void *ctx, uint64_t a, unsigned n, uint8_t *out)
{
    wg_rd *r = ctx;
    const uint8_t *p = maddr_al(r->X, r->w, 0, r->w->pc, SP_SHARED, a, n, 1, 0, "wgmma load");
    if (!p) return -1;
    memcpy(out, p, n);
    return 0;
}
static int wg_compute(ex *X, warp *w, const xinsn *in, warp *const *ws)
{
    const xwgmma *g = in->wg;
    int nv = in->nvops;
    uint64_t *vals = malloc((size_t)128 * nv * 8), *out = malloc((size_t)128 * g->nd * 8);
    const uint64_t *ops[128];
    char why[300] = "";
    wg_rd rc = { X, w };
    wg_mem mem = { &rc, wg_read };
    int r = vals && out ? 0 : -2;
    if (r) snprintf(why, sizeof why, "out of host memory");
    for (int T = 0; !r && T < 128; T++) {
        warp *o = ws[T / 32];
        frame *f = &o->fr[o == w ? w->depth : o->ldep[0]];
        for (int k = 0; k < nv; k++) vals[T * nv + k] = opv(X, o, f, &in->vops[k], T % 32);
        ops[T] = vals + T * nv;
    }
    if (!r) r = wgmma_run(g, ops, &mem, out, why, sizeof why);
    for (int T = 0; !r && T < 128; T++) {
        warp *o = ws[T / 32];
        frame *f = &o->fr[o == w ? w->depth : o->ldep[0]];
        for (int k = 0; k < g->nd; k++) wr(f, &in->vops[k], T % 32, out[T * g->nd + k]);
    }
    if (r == -2) fault(X, w, 0, w->pc, PTXE_ERROR_LAUNCH_FAILED, "%s", why);
    free(vals); free(out);
    return r ? -1 : 0;
}
static int h_wgmma(ex *X, warp *w, const xinsn *in, frame *f, uint32_t G, uint32_t E)
{
    if (!E) { advance(w, w->pc + 1); return 0; }   /* guard false in the whole warp */
    if (E != w->all && E == G && aligned_wait(w)) return 0;
    if (E != w->all || w->all != ~0u) {   /* report a missing lane, or the first present */
        uint32_t miss = ~E & w->all;
        fault(X, w, miss ? __builtin_ctz(miss) : E ? __builtin_ctz(E) : 0, w->pc,
              PTXE_ERROR_LAUNCH_FAILED,
              "%s executed by lanes 0x%08x of the warp, expected all 32 (.sync.aligned, "
              "§9.7.14)", in->text ? in->text : "wgmma", E);
        return -1;
    }
    if (in->wg->kind != WG_MMA) { advance(w, w->pc + 1); return 0; }
    cta *c = w->cta;
    int base = w->wid & ~3, arrived = 1;
    warp *ws[4];
    for (int i = 0; i < 4; i++) {
        warp *o = base + i < c->nwarps ? &c->warps[base + i] : NULL;
        if (!o || !o->live || o->all != ~0u) {
            fault(X, w, 0, w->pc, PTXE_ERROR_LAUNCH_FAILED,
                  "wgmma.mma_async: warp %d of the warpgroup of warps %d..%d %s (a warpgroup is "
                  "4 whole warps, §9.7.14.1)", base + i, base, base + 3,
                  !o ? "is not in the CTA" : !o->live ? "has exited" : "is partial");
            return -1;
        }
        ws[i] = o;
        if (o != w && o->wgpc && o->wgpc != w->pc + 1) {
            fault(X, w, 0, w->pc, PTXE_ERROR_LAUNCH_FAILED,
                  "wgmma.mma_async: warp %d of the warpgroup waits at another wgmma.mma_async "
                  "(%s); all threads of a warpgroup must execute the same one (.aligned, "
                  "§9.7.14.5.2)", base + i, X->prog[o->wgpc - 1].text);
            return -1;
        }
        if (o != w) arrived &= o->wgpc == w->pc + 1;
    }
    if (!arrived) {   /* park until the last warp arrives */
        for (uint32_t m = G; m; m &= m - 1) {
            int l = __builtin_ctz(m);
            w->lpc[l] = w->pc + 1;
            w->ldep[l] = (uint16_t)w->depth;
        }
        w->wgpc = w->pc + 1; w->barw |= E; w->active = 0;
        resched(w);
        return 0;
    }
    (void)f;
    if (wg_compute(X, w, in, ws)) return -1;
    for (int i = 0; i < 4; i++)
        if (ws[i] != w) { ws[i]->wgpc = 0; ws[i]->barw = 0; ws[i]->dirty = 1; }
    advance(w, w->pc + 1);
    return 0;
}

