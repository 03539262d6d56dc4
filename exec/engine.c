/* exec/engine.c — the SIMT engine: runs a launch grid → cluster → CTA → warp → thread on one
 * host thread.  A warp executes one pre-decoded instruction for all lanes of its active group
 * at once.  Divergence and reconvergence use min-(depth, PC) scheduling: each lane has its own
 * PC and call depth; the group is the set of runnable lanes with the deepest call frame and the
 * smallest PC, so lanes that branched apart meet again at the first common instruction.
 * Warps of a cluster are interleaved round-robin in quanta (independent forward progress);
 * bar.sync/arrive/red count threads (ISA §9.7.12.1); shfl/vote/match/redux/elect/bar.warp.sync
 * wait for the lanes named by their membermask (§9.7.8.6, §9.7.12.7-11).  Faults (bad address,
 * misalignment, barrier deadlock/divergence, trap, step limit) stop the launch with a report. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "exec/exec_int.h"

#define MAXD 1024u              /* call depth limit */
#define QUANTUM 2000            /* warp-instructions before switching warps */
#define LOCAL_MAX (1u << 20)    /* per-thread local memory (stack) limit */

typedef struct frame {
    uint64_t *regs;             /* [nregs][32] */
    uint8_t *params;            /* [32][psize] */
    int32_t ret_pc[32], call_pc[32];
    uint64_t lbase[32], saved_sp[32];
} frame;

struct cta;
typedef struct warp {
    struct cta *cta;
    int wid;
    uint32_t all, live, barw, wsync, active, others;
    int pc, depth, forced, dirty;
    uint64_t others_key;
    int32_t lpc[32]; uint16_t ldep[32];
    frame *fr; int nfr;
    uint8_t *lmem[32]; uint32_t lcap[32]; uint64_t lsp[32];
    uint32_t cc[32];
    uint16_t tid[32][3];
    uint64_t ninsn;
} warp;

typedef struct { uint32_t arrived, expected, count_given, red, mode, used; uint32_t *wmask; } barrier;

typedef struct cta {
    uint32_t ctaid[3], cl_ctaid[3], rank;
    uint8_t *smem; uint32_t ssize;
    warp *warps; int nwarps;
    uint32_t nthreads, nexited;
    barrier bar[16];
} cta;

typedef struct {
    ptxeModule *m; ptxeCtx *ctx;
    const xinsn *prog; const xfunc *funcs;
    unsigned grid[3], block[3], cluster[3], dyn;
    int explicit_cluster;
    uint8_t *kparams; uint32_t kpsize;
    uint64_t steps, max_steps, thread_insns;
    int nregs; uint32_t psize;
    ptxeResult fault;
    galloc *gcache;
    uint32_t clusterid[3];
} ex;

static inline uint64_t key_of(unsigned depth, int pc) { return ((uint64_t)(MAXD - depth) << 32) | (uint32_t)pc; }
static inline uint64_t lane_key(const warp *w, int l) { return key_of(w->ldep[l], w->lpc[l]); }

/* ---------------------------------------------------------------- faults */
static void fault(ex *X, warp *w, int lane, int pc, ptxeResult kind, const char *fmt, ...)
{
    if (X->fault) return;
    X->fault = kind;
    char what[512];
    va_list ap; va_start(ap, fmt); vsnprintf(what, sizeof what, fmt, ap); va_end(ap);
    char *o = X->ctx->msg; size_t n = sizeof X->ctx->msg;
    int k = snprintf(o, n, "fault: %s\n", what);
    if (w) {
        cta *c = w->cta;
        if (lane >= 0)
            k += snprintf(o + k, n - (size_t)k, "  thread (%u,%u,%u) of CTA (%u,%u,%u), warp %d lane %d\n",
                          w->tid[lane][0], w->tid[lane][1], w->tid[lane][2], c->ctaid[0], c->ctaid[1], c->ctaid[2], w->wid, lane);
        else
            k += snprintf(o + k, n - (size_t)k, "  warp %d of CTA (%u,%u,%u)\n", w->wid, c->ctaid[0], c->ctaid[1], c->ctaid[2]);
    }
    if (pc >= 0 && pc < X->m->nprog && k > 0 && (size_t)k < n) {
        const xinsn *in = &X->prog[pc];
        k += snprintf(o + k, n - (size_t)k, "  at %s:%d:%d: %s\n", X->m->ast->filename, in->line, in->col, in->text);
        if (in->src_line && k > 0 && (size_t)k < n) {
            const char *f = in->src_file > 0 && in->src_file < X->m->ast->nfiles && X->m->ast->files[in->src_file] ? X->m->ast->files[in->src_file] : "?";
            snprintf(o + k, n - (size_t)k, "  CUDA source: %s:%d\n", f, in->src_line);
        }
    }
}

/* ---------------------------------------------------------------- frames and local memory */
static int ensure_frame(ex *X, warp *w, int d)
{
    if (d < w->nfr) return 0;
    int nn = d + 1 > w->nfr * 2 ? d + 1 : w->nfr * 2;
    frame *nf = realloc(w->fr, (size_t)nn * sizeof *nf);
    if (!nf) return -1;
    w->fr = nf;
    for (int i = w->nfr; i < nn; i++) {
        memset(&nf[i], 0, sizeof nf[i]);
        nf[i].regs = calloc((size_t)X->nregs * 32 + 1, 8);
        nf[i].params = calloc((size_t)X->psize * 32 + 1, 1);
        if (!nf[i].regs || !nf[i].params) { w->nfr = i + 1; return -1; }
    }
    w->nfr = nn;
    return 0;
}

static uint8_t *local_ptr(warp *w, int l, uint64_t a, unsigned n)
{
    if (a + n > w->lsp[l] || a + n < a) return NULL;
    if (a + n > w->lcap[l]) {
        uint64_t nc = w->lcap[l] ? w->lcap[l] : 256;
        while (nc < a + n) nc *= 2;
        uint8_t *p = realloc(w->lmem[l], nc);
        if (!p) return NULL;
        memset(p + w->lcap[l], 0, nc - w->lcap[l]);
        w->lmem[l] = p; w->lcap[l] = (uint32_t)nc;
    }
    return w->lmem[l] + a;
}

/* ---------------------------------------------------------------- operands */
static uint64_t sreg(ex *X, warp *w, int l, int id)
{
    cta *c = w->cta;
    switch (id) {
    case SR_TID: case SR_TID + 1: case SR_TID + 2: return w->tid[l][id - SR_TID];
    case SR_NTID: case SR_NTID + 1: case SR_NTID + 2: return X->block[id - SR_NTID];
    case SR_CTAID: case SR_CTAID + 1: case SR_CTAID + 2: return c->ctaid[id - SR_CTAID];
    case SR_NCTAID: case SR_NCTAID + 1: case SR_NCTAID + 2: return X->grid[id - SR_NCTAID];
    case SR_CLUSTERID: case SR_CLUSTERID + 1: case SR_CLUSTERID + 2: return X->clusterid[id - SR_CLUSTERID];
    case SR_NCLUSTERID: case SR_NCLUSTERID + 1: case SR_NCLUSTERID + 2: return X->grid[id - SR_NCLUSTERID] / X->cluster[id - SR_NCLUSTERID];
    case SR_CLUSTER_CTAID: case SR_CLUSTER_CTAID + 1: case SR_CLUSTER_CTAID + 2: return c->cl_ctaid[id - SR_CLUSTER_CTAID];
    case SR_CLUSTER_NCTAID: case SR_CLUSTER_NCTAID + 1: case SR_CLUSTER_NCTAID + 2: return X->cluster[id - SR_CLUSTER_NCTAID];
    case SR_CLUSTER_CTARANK: return c->rank;
    case SR_CLUSTER_NCTARANK: return X->cluster[0] * X->cluster[1] * X->cluster[2];
    case SR_IS_EXPLICIT_CLUSTER: return (uint64_t)X->explicit_cluster;
    case SR_LANEID: return (uint64_t)l;
    case SR_WARPID: return (uint64_t)w->wid;
    case SR_NWARPID: return (uint64_t)c->nwarps;
    case SR_SMID: return 0;
    case SR_NSMID: return 1;
    case SR_GRIDID: return X->ctx->gridid;
    case SR_LANEMASK_EQ: return 1u << l;
    case SR_LANEMASK_LE: return (uint32_t)((2ull << l) - 1);
    case SR_LANEMASK_LT: return (1u << l) - 1;
    case SR_LANEMASK_GE: return (uint32_t)~((1u << l) - 1);
    case SR_LANEMASK_GT: return (uint32_t)~((2ull << l) - 1);
    case SR_CLOCK: return (uint32_t)X->steps;
    case SR_CLOCK_HI: return (uint32_t)(X->steps >> 32);
    case SR_CLOCK64: case SR_GLOBALTIMER: return X->steps;
    case SR_GLOBALTIMER_LO: return (uint32_t)X->steps;
    case SR_GLOBALTIMER_HI: return (uint32_t)(X->steps >> 32);
    case SR_DYN_SMEM: return X->dyn;
    case SR_TOTAL_SMEM: case SR_AGGR_SMEM: return c->ssize;
    default: return 0;
    }
}

static inline uint64_t opv(ex *X, warp *w, const frame *f, const xopnd *o, int l)
{
    switch (o->kind) {
    case XO_REG: return f->regs[o->reg * 32 + (unsigned)l] ^ o->neg;
    case XO_IMM: return o->imm;
    case XO_SREG: return sreg(X, w, l, (int)o->imm);
    case XO_LOCALSYM: return f->lbase[l] + o->imm;
    case XO_FPARAMSYM: return o->imm;
    default: return 0;
    }
}

static inline void wr(frame *f, const xopnd *o, int l, uint64_t v)
{
    if (o->kind == XO_REG) f->regs[o->reg * 32 + (unsigned)l] = v & o->wmask;
}

/* ---------------------------------------------------------------- memory */
static const char *space_name(int s)
{
    static const char *const n[] = { "?", "global", "shared", "local", "const", "param", "generic" };
    return n[s];
}

/* host pointer for an access of n bytes at a in space sp by lane l; NULL after a fault */
static uint8_t *maddr(ex *X, warp *w, int l, int pc, int sp, uint64_t a, unsigned n, int write, const char *what)
{
    int orig = sp;
    uint64_t oa = a;
    if (a % n) {
        fault(X, w, l, pc, PTXE_ERROR_LAUNCH_FAILED, "misaligned %s %s of %u bytes at address 0x%llx", space_name(orig), what, n, (unsigned long long)oa);
        return NULL;
    }
    if (sp == SP_GENERIC) {   /* §6.4.1.5: generic addresses map into the windows */
        if (a >= WIN_SHARED && a < WIN_SHARED + WIN_SIZE) { sp = SP_SHARED; a -= WIN_SHARED; }
        else if (a >= WIN_LOCAL && a < WIN_LOCAL + WIN_SIZE) { sp = SP_LOCAL; a -= WIN_LOCAL; }
        else if (a >= WIN_CONST && a < WIN_CONST + WIN_SIZE) { sp = SP_CONST; a -= WIN_CONST; }
        else if (a >= WIN_PARAM && a < WIN_PARAM + WIN_SIZE) { sp = SP_PARAM; a -= WIN_PARAM; }
        else if (a >= GLOBAL_BASE) sp = SP_GLOBAL;
        else {
            fault(X, w, l, pc, PTXE_ERROR_LAUNCH_FAILED, "generic %s of %u bytes at address 0x%llx, which is in no state space",
                  what, n, (unsigned long long)oa);
            return NULL;
        }
    }
    uint8_t *p = NULL;
    switch (sp) {
    case SP_GLOBAL: {
        galloc *g = X->gcache;
        if (!(g && g->host && a >= g->addr && a + n <= g->addr + g->size)) g = X->gcache = mem_find(X->ctx, a, n);
        if (g) p = g->host + (a - g->addr);
        break;
    }
    case SP_SHARED: if (a + n <= w->cta->ssize) p = w->cta->smem + a; break;
    case SP_LOCAL: p = local_ptr(w, l, a, n); break;
    case SP_CONST:
        if (write) { fault(X, w, l, pc, PTXE_ERROR_LAUNCH_FAILED, "%s to const space at address 0x%llx", what, (unsigned long long)oa); return NULL; }
        if (a + n <= X->ctx->csize) p = X->ctx->cmem + a;
        break;
    case SP_PARAM:
        if (a >= FRAME_PARAM) {
            uint64_t off = a - FRAME_PARAM;
            if (off + n <= X->psize) p = w->fr[w->depth].params + (size_t)l * X->psize + off;
        } else {
            if (write) { fault(X, w, l, pc, PTXE_ERROR_LAUNCH_FAILED, "%s to kernel parameter space at 0x%llx", what, (unsigned long long)oa); return NULL; }
            if (a + n <= X->kpsize) p = X->kparams + a;
        }
        break;
    }
    if (!p) fault(X, w, l, pc, PTXE_ERROR_LAUNCH_FAILED, "out-of-bounds %s %s of %u bytes at address 0x%llx%s%s",
                  space_name(orig), what, n, (unsigned long long)oa, orig == SP_GENERIC ? " (" : "",
                  orig == SP_GENERIC ? (sp == SP_GLOBAL ? "global)" : sp == SP_SHARED ? "shared)" : sp == SP_LOCAL ? "local)" : sp == SP_CONST ? "const)" : "param)") : "");
    return p;
}

static inline uint64_t ldval(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    memcpy(&v, p, n);   /* little-endian host */
    return v;
}

static inline uint64_t sext(uint64_t v, unsigned bits) { return bits >= 64 ? v : (v ^ (1ull << (bits - 1))) - (1ull << (bits - 1)); }

/* ---------------------------------------------------------------- scheduling */
static void resched(warp *w)
{
    for (uint32_t m = w->active; m; m &= m - 1) { int l = __builtin_ctz(m); w->lpc[l] = w->pc; w->ldep[l] = (uint16_t)w->depth; }
    w->active = 0; w->forced = 0;
    uint32_t R = w->live & ~w->barw & ~w->wsync;
    uint32_t pool = R ? R : w->wsync;
    if (!pool) { w->others = 0; return; }
    uint64_t best = ~0ull;
    for (uint32_t m = pool; m; m &= m - 1) { int l = __builtin_ctz(m); uint64_t k = lane_key(w, l); if (k < best) best = k; }
    uint32_t g = 0;
    for (uint32_t m = pool | w->wsync; m; m &= m - 1) { int l = __builtin_ctz(m); if (lane_key(w, l) == best) g |= 1u << l; }
    if (!R) w->forced = 1;
    w->wsync &= ~g;
    w->active = g;
    int l0 = __builtin_ctz(g);
    w->pc = w->lpc[l0]; w->depth = w->ldep[l0];
    w->others = R & ~g;
    w->others_key = ~0ull;
    for (uint32_t m = w->others; m; m &= m - 1) { int l = __builtin_ctz(m); uint64_t k = lane_key(w, l); if (k < w->others_key) w->others_key = k; }
}

/* the group continues at pc: switch when another group has a smaller or equal key */
static inline void advance(warp *w, int pc)
{
    w->pc = pc;
    if (w->others && key_of((unsigned)w->depth, pc) >= w->others_key) { resched(w); return; }
    if (w->wsync) {
        uint64_t k = key_of((unsigned)w->depth, pc);
        for (uint32_t m = w->wsync; m; m &= m - 1) if (lane_key(w, __builtin_ctz(m)) == k) { resched(w); return; }
    }
}

/* split the group: lanes in t go to pc_t, the rest of the group to pc_f */
static void split(warp *w, uint32_t t, int pc_t, int pc_f)
{
    for (uint32_t m = w->active; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        w->lpc[l] = (t >> l & 1) ? pc_t : pc_f; w->ldep[l] = (uint16_t)w->depth;
    }
    w->active = 0;
    resched(w);
}

/* ---------------------------------------------------------------- barriers */
static void bar_release_check(ex *X, cta *c, int id)
{
    barrier *b = &c->bar[id];
    if (!b->used) return;
    uint32_t need = b->count_given ? b->expected : c->nthreads - c->nexited;
    if (b->arrived < need) return;
    for (int i = 0; i < c->nwarps; i++) {
        warp *w = &c->warps[i];
        uint32_t m = b->wmask[i];
        if (!m) continue;
        if (b->mode != BAR_SYNC && b->mode != BAR_ARRIVE)
            for (uint32_t k = m; k; k &= k - 1) {
                int l = __builtin_ctz(k);
                const xinsn *in = &X->prog[w->lpc[l] - 1];
                uint64_t v = b->mode == BAR_RED_POPC ? b->red : b->mode == BAR_RED_AND ? (b->red == b->arrived) : (b->red != 0);
                wr(&w->fr[w->ldep[l]], &in->d[0], l, v);
            }
        w->barw &= ~m;
        b->wmask[i] = 0;
        w->dirty = 1;
    }
    b->arrived = 0; b->red = 0; b->used = 0; b->count_given = 0;
}

static void lanes_exit(ex *X, warp *w, uint32_t m)
{
    m &= w->live;
    w->live &= ~m;
    w->active &= ~m;
    cta *c = w->cta;
    c->nexited += (uint32_t)__builtin_popcount(m);
    for (int id = 0; id < 16; id++) bar_release_check(X, c, id);
}

/* warp-synchronous op: do all live lanes of membermask take part?  If not, wait for them. */
static int wsync_wait(warp *w, uint32_t mask)
{
    uint32_t missing = mask & w->live & ~w->active;
    if (!missing || w->forced) return 0;
    w->wsync |= w->active;
    for (uint32_t m = w->active; m; m &= m - 1) { int l = __builtin_ctz(m); w->lpc[l] = w->pc; w->ldep[l] = (uint16_t)w->depth; }
    w->active = 0;
    resched(w);
    return 1;
}

/* ---------------------------------------------------------------- one warp */
enum { W_RAN, W_BLOCKED, W_DONE };

static int do_call(ex *X, warp *w, const xinsn *in, uint32_t E)
{
    int fi = in->target;
    uint32_t G = w->active;
    if (E != G) {   /* predicated call: the lanes that do not call go on */
        split(w, E, w->pc, w->pc + 1);
        return 0;   /* (the calling lanes run the call when rescheduled; guard re-evaluated) */
    }
    if ((unsigned)w->depth + 1 >= MAXD) { fault(X, w, __builtin_ctz(G), w->pc, PTXE_ERROR_LAUNCH_FAILED, "call stack overflow (depth %u)", MAXD); return -1; }
    if (ensure_frame(X, w, w->depth + 1)) { fault(X, w, -1, w->pc, PTXE_ERROR_OUT_OF_MEMORY, "out of host memory for a call frame"); return -1; }
    frame *cf = &w->fr[w->depth], *nf = &w->fr[w->depth + 1];
    int tgt[32], uniform = 1, first = -1;
    for (uint32_t m = G; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        int f = fi;
        if (f < 0) {
            uint64_t a = opv(X, w, cf, &in->s[0], l);
            uint64_t idx = (a - FUNC_BASE) / 16;
            if (a < FUNC_BASE || (a - FUNC_BASE) % 16 || idx >= (uint64_t)X->m->nfuncs || !X->funcs[idx].has_body || X->funcs[idx].is_entry) {
                fault(X, w, l, w->pc, PTXE_ERROR_LAUNCH_FAILED, "indirect call to address 0x%llx, which is not a function", (unsigned long long)a);
                return -1;
            }
            f = (int)idx;
            const xfunc *xf = &X->funcs[f];
            if (xf->nparams != in->ncargs || xf->nrets != in->ncrets) {
                fault(X, w, l, w->pc, PTXE_ERROR_LAUNCH_FAILED, "indirect call of %s with %d arguments and %d results, expected %d and %d",
                      xf->name, in->ncargs, in->ncrets, xf->nparams, xf->nrets);
                return -1;
            }
        }
        tgt[l] = f;
        if (first < 0) first = f; else if (f != first) uniform = 0;
        const xfunc *xf = &X->funcs[f];
        for (int i = 0; i < in->ncargs; i++)
            memcpy(nf->params + (size_t)l * X->psize + xf->poff[i], cf->params + (size_t)l * X->psize + in->carg_off[i], xf->psz[i]);
        nf->ret_pc[l] = w->pc + 1; nf->call_pc[l] = w->pc;
        nf->saved_sp[l] = w->lsp[l];
        uint64_t base = (w->lsp[l] + xf->lalign - 1) / xf->lalign * xf->lalign;
        if (base + xf->lsize > LOCAL_MAX) { fault(X, w, l, w->pc, PTXE_ERROR_LAUNCH_FAILED, "local memory (stack) overflow: %llu bytes", (unsigned long long)(base + xf->lsize)); return -1; }
        nf->lbase[l] = base;
        w->lsp[l] = base + xf->lsize;
    }
    if (uniform) { w->depth++; advance(w, X->funcs[first].start); return 0; }
    for (uint32_t m = G; m; m &= m - 1) { int l = __builtin_ctz(m); w->lpc[l] = X->funcs[tgt[l]].start; w->ldep[l] = (uint16_t)(w->depth + 1); }
    w->active = 0;
    resched(w);
    return 0;
}

static void do_ret(ex *X, warp *w, uint32_t E)
{
    uint32_t G = w->active;
    if (E != G) { split(w, E, w->pc, w->pc + 1); return; }
    if (w->depth == 0) { lanes_exit(X, w, E); resched(w); return; }
    frame *cf = &w->fr[w->depth], *pf = &w->fr[w->depth - 1];
    int rpc = -1, uniform = 1;
    for (uint32_t m = G; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        const xinsn *call = &X->prog[cf->call_pc[l]];
        const xfunc *xf = &X->funcs[X->prog[w->pc].func];
        for (int i = 0; i < call->ncrets; i++)
            memcpy(pf->params + (size_t)l * X->psize + call->cret_off[i], cf->params + (size_t)l * X->psize + xf->roff[i], xf->rsz[i]);
        w->lsp[l] = cf->saved_sp[l];
        if (rpc < 0) rpc = cf->ret_pc[l]; else if (rpc != cf->ret_pc[l]) uniform = 0;
    }
    if (uniform) { w->depth--; advance(w, rpc); return; }
    for (uint32_t m = G; m; m &= m - 1) { int l = __builtin_ctz(m); w->lpc[l] = cf->ret_pc[l]; w->ldep[l] = (uint16_t)(w->depth - 1); }
    w->active = 0;
    resched(w);
}

static int run_warp(ex *X, warp *w, int budget)
{
    int ran = 0;
    if (w->dirty || !w->active) { w->dirty = 0; resched(w); }
    while (ran < budget) {
        if (!w->active) {
            resched(w);
            if (!w->active) return w->live ? W_BLOCKED : W_DONE;
        }
        if (++X->steps > X->max_steps) {
            fault(X, w, -1, w->pc, PTXE_ERROR_LAUNCH_TIMEOUT, "step limit of %llu warp-instructions reached", (unsigned long long)X->max_steps);
            return W_BLOCKED;
        }
        ran++; w->ninsn++;
        const xinsn *in = &X->prog[w->pc];
        frame *f = &w->fr[w->depth];
        uint32_t G = w->active, E = G;
        if (in->has_guard) {
            E = 0;
            const uint64_t *g = f->regs + in->guard * 32;
            for (uint32_t m = G; m; m &= m - 1) { int l = __builtin_ctz(m); E |= (uint32_t)((g[l] ^ in->guard_neg) & 1) << l; }
        }
        X->thread_insns += (uint64_t)__builtin_popcount(E);
        switch (in->kind) {
        case X_ALU: {
            uint64_t s[XMAX_OPS], d[XMAX_OPS];
            int ns = in->ns, nd = in->nd;
            if (in->fast && in->fn) {   /* register/constant operands only: no operand dispatch */
                const uint64_t *src[XMAX_OPS];
                uint64_t neg[XMAX_OPS];
                for (int k = 0; k < ns; k++) {
                    neg[k] = in->s[k].neg;
                    src[k] = in->s[k].kind == XO_REG ? f->regs + in->s[k].reg * 32 : NULL;
                    if (!src[k]) s[k] = in->s[k].imm;
                }
                uint64_t *dst0 = in->d[0].kind == XO_REG ? f->regs + in->d[0].reg * 32 : NULL;
                uint64_t wm0 = in->d[0].wmask;
                for (uint32_t m = E; m; m &= m - 1) {
                    int l = __builtin_ctz(m);
                    for (int k = 0; k < ns; k++) if (src[k]) s[k] = src[k][l] ^ neg[k];
                    in->fn(&in->isa, d, s);
                    if (dst0) dst0[l] = d[0] & wm0;
                    for (int k = 1; k < nd; k++) wr(f, &in->d[k], l, d[k]);
                }
                advance(w, w->pc + 1);
                break;
            }
            for (uint32_t m = E; m; m &= m - 1) {
                int l = __builtin_ctz(m);
                for (int k = 0; k < ns; k++) s[k] = opv(X, w, f, &in->s[k], l);
                if (in->fn) in->fn(&in->isa, d, s);
                else { char e[8]; isa_eval_cc(&in->isa, s, d, &w->cc[l], e, sizeof e); }
                for (int k = 0; k < nd; k++) wr(f, &in->d[k], l, d[k]);
            }
            advance(w, w->pc + 1);
            break;
        }
        case X_PACK: case X_UNPACK: {
            unsigned eb = in->size;
            uint64_t em = eb >= 64 ? ~0ull : (1ull << eb) - 1;
            for (uint32_t m = E; m; m &= m - 1) {
                int l = __builtin_ctz(m);
                if (in->kind == X_PACK) {
                    uint64_t v = 0;
                    for (int k = 0; k < in->ns; k++) v |= (opv(X, w, f, &in->s[k], l) & em) << (k * eb);
                    wr(f, &in->d[0], l, v);
                } else {
                    uint64_t v = opv(X, w, f, &in->s[0], l);
                    for (int k = 0; k < in->nd; k++) wr(f, &in->d[k], l, (v >> (k * eb)) & em);
                }
            }
            advance(w, w->pc + 1);
            break;
        }
        case X_LD: case X_ST: {
            unsigned n = in->size, tot = n * in->vec;
            for (uint32_t m = E; m; m &= m - 1) {
                int l = __builtin_ctz(m);
                uint64_t a = opv(X, w, f, &in->s[0], l) + (uint64_t)in->aoff;
                uint8_t *p = maddr(X, w, l, w->pc, in->space, a, tot, in->kind == X_ST, in->kind == X_ST ? "store" : "load");
                if (!p) return W_BLOCKED;
                if (in->kind == X_ST) {
                    for (int k = 0; k < in->vec; k++) { uint64_t v = opv(X, w, f, &in->s[1 + k], l); memcpy(p + k * n, &v, n); }
                } else {
                    for (int k = 0; k < in->vec; k++) {
                        uint64_t v = ldval(p + k * n, n);
                        if (in->sign) v = sext(v, n * 8);
                        wr(f, &in->d[k], l, v);
                    }
                }
            }
            advance(w, w->pc + 1);
            break;
        }
        case X_ATOM: case X_RED: {
            unsigned n = in->size;
            for (uint32_t m = E; m; m &= m - 1) {
                int l = __builtin_ctz(m);
                uint64_t a = opv(X, w, f, &in->s[0], l) + (uint64_t)in->aoff;
                uint8_t *p = maddr(X, w, l, w->pc, in->space, a, n, 1, in->kind == X_ATOM ? "atom" : "red");
                if (!p) return W_BLOCKED;
                uint64_t old = ldval(p, n), nv;
                uint64_t b = opv(X, w, f, &in->s[1], l), c = in->ns > 2 ? opv(X, w, f, &in->s[2], l) : 0;
                int r = isa_atom_apply((isa_atom_op)in->mode, in->type, old, b, c, &nv);
                if (r < 0) { fault(X, w, l, w->pc, PTXE_ERROR_LAUNCH_FAILED, "atomic %s has no semantics for .%s", isa_atom_name((isa_atom_op)in->mode), isa_type_name(in->type)); return W_BLOCKED; }
                if (r) memcpy(p, &nv, n);
                if (in->kind == X_ATOM) {
                    if (isa_type_is_signed(in->type)) old = sext(old, n * 8);
                    wr(f, &in->d[0], l, old);
                }
            }
            advance(w, w->pc + 1);
            break;
        }
        case X_CVTA_TO: case X_CVTA_FROM: {
            static const uint64_t base[] = { 0, 0, WIN_SHARED, WIN_LOCAL, WIN_CONST, WIN_PARAM, 0 };
            uint64_t b = base[in->space];
            for (uint32_t m = E; m; m &= m - 1) {
                int l = __builtin_ctz(m);
                uint64_t a = opv(X, w, f, &in->s[0], l);
                wr(f, &in->d[0], l, in->kind == X_CVTA_TO ? a - b : a + b);
            }
            advance(w, w->pc + 1);
            break;
        }
        case X_ISSPACEP:
            for (uint32_t m = E; m; m &= m - 1) {
                int l = __builtin_ctz(m);
                uint64_t a = opv(X, w, f, &in->s[0], l), r;
                switch (in->space) {
                case SP_SHARED: r = a >= WIN_SHARED && a < WIN_SHARED + WIN_SIZE; break;
                case SP_LOCAL: r = a >= WIN_LOCAL && a < WIN_LOCAL + WIN_SIZE; break;
                case SP_CONST: r = a >= WIN_CONST && a < WIN_CONST + WIN_SIZE; break;
                case SP_PARAM: r = a >= WIN_PARAM && a < WIN_PARAM + WIN_SIZE; break;
                default: r = a >= GLOBAL_BASE; break;
                }
                wr(f, &in->d[0], l, r);
            }
            advance(w, w->pc + 1);
            break;
        case X_BRA:
            if (E == G) advance(w, in->target);
            else if (!E) advance(w, w->pc + 1);
            else split(w, E, in->target, w->pc + 1);
            break;
        case X_CALL:
            if (!E) { advance(w, w->pc + 1); break; }
            if (do_call(X, w, in, E)) return W_BLOCKED;
            break;
        case X_RET:
            if (!E) { advance(w, w->pc + 1); break; }
            do_ret(X, w, E);
            break;
        case X_EXIT:
            if (!E) { advance(w, w->pc + 1); break; }
            if (E != G) { split(w, E, w->pc, w->pc + 1); break; }
            lanes_exit(X, w, E);
            resched(w);
            break;
        case X_TRAP:
            if (!E) { advance(w, w->pc + 1); break; }
            fault(X, w, __builtin_ctz(E), w->pc, PTXE_ERROR_LAUNCH_FAILED, "trap instruction executed");
            return W_BLOCKED;
        case X_NOP: advance(w, w->pc + 1); break;
        case X_CONSTVAL:
            for (uint32_t m = E; m; m &= m - 1) wr(f, &in->d[0], __builtin_ctz(m), 0);
            advance(w, w->pc + 1);
            break;
        case X_BAR: {
            if (!E) { advance(w, w->pc + 1); break; }
            int l0 = __builtin_ctz(E);
            uint64_t id = opv(X, w, f, &in->s[0], l0);
            if (id > 15) { fault(X, w, l0, w->pc, PTXE_ERROR_LAUNCH_FAILED, "barrier id %llu out of range 0..15", (unsigned long long)id); return W_BLOCKED; }
            cta *c = w->cta;
            barrier *b = &c->bar[id];
            /* bar.sync/bar.red are .aligned (§9.7.12.1): every non-exited thread of the warp
             * must execute the same barrier instruction together */
            int aligned = strncmp(in->text, "barrier", 7) != 0 || strstr(in->text, ".aligned") != NULL;
            if (aligned && E != w->live && in->mode != BAR_ARRIVE) {
                /* lanes of this warp still on their way (e.g. a loop laid out with the barrier
                 * before the body): wait for them to reach this barrier too */
                if (E == G && wsync_wait(w, w->live)) break;
                fault(X, w, l0, w->pc, PTXE_ERROR_LAUNCH_FAILED, "barrier divergence: lanes 0x%08x reach this bar.sync %llu while lanes 0x%08x of the warp are elsewhere",
                      E, (unsigned long long)id, w->live & ~E);
                return W_BLOCKED;
            }
            if (in->s[1].kind != XO_NONE) {
                uint64_t cnt = opv(X, w, f, &in->s[1], l0);
                if (cnt == 0 || cnt % 32 || cnt > c->nthreads + 31) {
                    fault(X, w, l0, w->pc, PTXE_ERROR_LAUNCH_FAILED, "barrier thread count %llu is not a positive multiple of 32 up to the CTA size", (unsigned long long)cnt);
                    return W_BLOCKED;
                }
                if (b->used && b->count_given && b->expected != cnt) {
                    fault(X, w, l0, w->pc, PTXE_ERROR_LAUNCH_FAILED, "barrier %llu used with thread counts %u and %llu", (unsigned long long)id, b->expected, (unsigned long long)cnt);
                    return W_BLOCKED;
                }
                b->count_given = 1; b->expected = (uint32_t)cnt;
            }
            if (!b->used) { b->used = 1; b->mode = in->mode; b->red = 0; }
            b->arrived += (uint32_t)__builtin_popcount(E);
            if (in->mode >= BAR_RED_POPC) {
                b->mode = in->mode;
                for (uint32_t m = E; m; m &= m - 1) b->red += (uint32_t)(opv(X, w, f, &in->s[2], __builtin_ctz(m)) & 1);
            }
            for (uint32_t m = G; m; m &= m - 1) { int l = __builtin_ctz(m); w->lpc[l] = w->pc + 1; w->ldep[l] = (uint16_t)w->depth; }
            if (in->mode != BAR_ARRIVE) { w->barw |= E; b->wmask[w->wid] |= E; }
            w->active = 0;
            bar_release_check(X, c, (int)id);
            resched(w);
            break;
        }
        case X_BARWARP: {
            int l0 = __builtin_ctz(G);
            if (wsync_wait(w, (uint32_t)opv(X, w, f, &in->s[0], l0))) break;
            advance(w, w->pc + 1);
            break;
        }
        case X_SHFL: case X_VOTE: case X_MATCH: case X_REDUX: case X_ELECT: {
            if (!E) { advance(w, w->pc + 1); break; }
            int l0 = __builtin_ctz(E);
            int mi = in->kind == X_SHFL ? 3 : in->kind == X_ELECT ? 0 : 1;
            uint32_t mask = (uint32_t)opv(X, w, f, &in->s[mi], l0);
            if (!(mask >> l0 & 1)) {
                fault(X, w, l0, w->pc, PTXE_ERROR_LAUNCH_FAILED, "executing lane is not in membermask 0x%08x", mask);
                return W_BLOCKED;
            }
            if (wsync_wait(w, mask)) break;
            uint32_t P = mask & E;   /* participating lanes */
            if (in->kind == X_SHFL) {
                uint64_t A[32];
                for (int l = 0; l < 32; l++) A[l] = (w->all >> l & 1) ? opv(X, w, f, &in->s[0], l) : 0;
                uint64_t D[32], Pv[32];
                for (uint32_t m = E; m; m &= m - 1) {
                    int l = __builtin_ctz(m);
                    int bval = (int)(opv(X, w, f, &in->s[1], l) & 31);
                    uint32_t c = (uint32_t)opv(X, w, f, &in->s[2], l);
                    int cval = (int)(c & 31), seg = (int)((c >> 8) & 31);
                    int maxl = (l & seg) | (cval & ~seg), minl = l & seg, j, pv;
                    switch (in->mode) {   /* §9.7.8.6 */
                    case 0: j = l - bval; pv = j >= maxl; break;
                    case 1: j = l + bval; pv = j <= maxl; break;
                    case 2: j = l ^ bval; pv = j <= maxl; break;
                    default: j = minl | (bval & ~seg); pv = j <= maxl; break;
                    }
                    if (!pv) j = l;
                    D[l] = A[j & 31]; Pv[l] = (uint64_t)pv;
                }
                for (uint32_t m = E; m; m &= m - 1) {
                    int l = __builtin_ctz(m);
                    wr(f, &in->d[0], l, D[l]);
                    if (in->nd > 1) wr(f, &in->d[1], l, Pv[l]);
                }
            } else if (in->kind == X_VOTE) {
                uint32_t ballot = 0;
                for (uint32_t m = P; m; m &= m - 1) { int l = __builtin_ctz(m); ballot |= (uint32_t)(opv(X, w, f, &in->s[0], l) & 1) << l; }
                uint64_t r = in->mode == VOTE_ALL ? ballot == P : in->mode == VOTE_ANY ? ballot != 0 :
                             in->mode == VOTE_UNI ? (ballot == 0 || ballot == P) : ballot;
                for (uint32_t m = E; m; m &= m - 1) wr(f, &in->d[0], __builtin_ctz(m), r);
            } else if (in->kind == X_MATCH) {
                uint64_t V[32];
                for (uint32_t m = P; m; m &= m - 1) { int l = __builtin_ctz(m); V[l] = opv(X, w, f, &in->s[0], l); }
                int alleq = 1;
                for (uint32_t m = P; m; m &= m - 1) if (V[__builtin_ctz(m)] != V[__builtin_ctz(P)]) alleq = 0;
                for (uint32_t m = E; m; m &= m - 1) {
                    int l = __builtin_ctz(m);
                    uint32_t r = 0;
                    if (in->mode) r = alleq ? P : 0;
                    else for (uint32_t k = P; k; k &= k - 1) if (V[__builtin_ctz(k)] == V[l]) r |= 1u << __builtin_ctz(k);
                    wr(f, &in->d[0], l, r);
                    if (in->nd > 1) wr(f, &in->d[1], l, (uint64_t)alleq);
                }
            } else if (in->kind == X_REDUX) {
                int sgn = in->type == ISA_T_S32;
                uint64_t acc = 0; int firstv = 1;
                for (uint32_t m = P; m; m &= m - 1) {
                    uint32_t v = (uint32_t)opv(X, w, f, &in->s[0], __builtin_ctz(m));
                    if (firstv) { acc = v; firstv = 0; continue; }
                    switch (in->mode) {   /* §9.7.12.11 */
                    case 0: acc = (uint32_t)(acc + v); break;
                    case 1: acc = sgn ? ((int32_t)v < (int32_t)acc ? v : acc) : (v < acc ? v : acc); break;
                    case 2: acc = sgn ? ((int32_t)v > (int32_t)acc ? v : acc) : (v > acc ? v : acc); break;
                    case 3: acc &= v; break;
                    case 4: acc |= v; break;
                    default: acc ^= v; break;
                    }
                }
                for (uint32_t m = E; m; m &= m - 1) wr(f, &in->d[0], __builtin_ctz(m), acc);
            } else {   /* elect.sync §9.7.12.12 */
                int leader = __builtin_ctz(P);
                for (uint32_t m = E; m; m &= m - 1) {
                    int l = __builtin_ctz(m);
                    wr(f, &in->d[0], l, (uint64_t)leader);
                    wr(f, &in->d[1], l, (uint64_t)(l == leader));
                }
            }
            advance(w, w->pc + 1);
            break;
        }
        case X_ACTIVEMASK:
            for (uint32_t m = E; m; m &= m - 1) wr(f, &in->d[0], __builtin_ctz(m), G);
            advance(w, w->pc + 1);
            break;
        case X_ALLOCA: case X_STACKSAVE: case X_STACKRESTORE:
            for (uint32_t m = E; m; m &= m - 1) {
                int l = __builtin_ctz(m);
                if (in->kind == X_STACKSAVE) wr(f, &in->d[0], l, w->lsp[l]);
                else if (in->kind == X_STACKRESTORE) {
                    uint64_t a = opv(X, w, f, &in->s[0], l);
                    if (a > w->lsp[l]) { fault(X, w, l, w->pc, PTXE_ERROR_LAUNCH_FAILED, "stackrestore to 0x%llx above the stack top", (unsigned long long)a); return W_BLOCKED; }
                    w->lsp[l] = a;
                } else {
                    uint64_t sz = opv(X, w, f, &in->s[0], l), al = opv(X, w, f, &in->s[1], l);
                    if (!al || (al & (al - 1))) al = 8;
                    uint64_t a = (w->lsp[l] + al - 1) / al * al;
                    if (sz > LOCAL_MAX || a + sz > LOCAL_MAX) { fault(X, w, l, w->pc, PTXE_ERROR_LAUNCH_FAILED, "alloca of %llu bytes overflows the %u-byte stack", (unsigned long long)sz, LOCAL_MAX); return W_BLOCKED; }
                    w->lsp[l] = a + sz;
                    wr(f, &in->d[0], l, a);
                }
            }
            advance(w, w->pc + 1);
            break;
        default:
            fault(X, w, -1, w->pc, PTXE_ERROR_LAUNCH_FAILED, "internal: unknown decoded instruction kind %d", in->kind);
            return W_BLOCKED;
        }
        if (X->fault) return W_BLOCKED;
    }
    return W_RAN;
}

/* ---------------------------------------------------------------- CTAs and launch */
static void free_warp(warp *w)
{
    for (int i = 0; i < w->nfr; i++) { free(w->fr[i].regs); free(w->fr[i].params); }
    free(w->fr);
    for (int l = 0; l < 32; l++) free(w->lmem[l]);
}

static int setup_cta(ex *X, cta *c, const xfunc *ef, uint32_t linear_in_cluster)
{
    uint32_t nt = X->block[0] * X->block[1] * X->block[2];
    c->nthreads = nt;
    c->nwarps = (int)((nt + 31) / 32);
    c->rank = linear_in_cluster;
    c->ssize = (uint32_t)(((X->m->shared_static + 15) & ~15u) + X->dyn);
    c->smem = calloc(c->ssize + 1, 1);
    c->warps = calloc((size_t)c->nwarps, sizeof *c->warps);
    if (!c->smem || !c->warps) return -1;
    for (int b = 0; b < 16; b++) { c->bar[b].wmask = calloc((size_t)c->nwarps, 4); if (!c->bar[b].wmask) return -1; }
    for (int i = 0; i < c->nwarps; i++) {
        warp *w = &c->warps[i];
        w->cta = c; w->wid = i;
        uint32_t n = nt - (uint32_t)i * 32 < 32 ? nt - (uint32_t)i * 32 : 32;
        w->all = w->live = n == 32 ? ~0u : (1u << n) - 1;
        for (uint32_t l = 0; l < n; l++) {
            uint32_t t = (uint32_t)i * 32 + l;   /* §2.2: x varies fastest */
            w->tid[l][0] = (uint16_t)(t % X->block[0]);
            w->tid[l][1] = (uint16_t)(t / X->block[0] % X->block[1]);
            w->tid[l][2] = (uint16_t)(t / (X->block[0] * X->block[1]));
            w->lpc[l] = ef->start; w->ldep[l] = 0;
            w->lsp[l] = ef->lsize;
        }
        if (ensure_frame(X, w, 0)) return -1;
    }
    return 0;
}

static void free_cta(cta *c)
{
    for (int i = 0; c->warps && i < c->nwarps; i++) free_warp(&c->warps[i]);
    free(c->warps); free(c->smem);
    for (int b = 0; b < 16; b++) free(c->bar[b].wmask);
    memset(c, 0, sizeof *c);
}

static void deadlock_report(ex *X, cta *cs, int ncta)
{
    for (int i = 0; i < ncta; i++)
        for (int j = 0; j < cs[i].nwarps; j++) {
            warp *w = &cs[i].warps[j];
            if (!w->barw) continue;
            int l = __builtin_ctz(w->barw);
            int pc = w->lpc[l] - 1;
            uint32_t arrived = 0, need = 0;
            for (int b = 0; b < 16; b++) if (cs[i].bar[b].wmask[j]) { arrived = cs[i].bar[b].arrived; need = cs[i].bar[b].count_given ? cs[i].bar[b].expected : cs[i].nthreads - cs[i].nexited; }
            fault(X, w, l, pc, PTXE_ERROR_LAUNCH_FAILED, "barrier deadlock: %u of %u threads arrived and no other thread can run", arrived, need);
            return;
        }
    fault(X, NULL, -1, -1, PTXE_ERROR_LAUNCH_FAILED, "deadlock: no thread can make progress");
}

ptxeResult exec_launch(ptxeFunction *fh, const ptxeLaunchConfig *cfg, void **params)
{
    ptxeModule *m = fh->mod;
    ptxeCtx *ctx = m->ctx;
    const xfunc *ef = &m->funcs[fh->idx];
    ex X; memset(&X, 0, sizeof X);
    X.m = m; X.ctx = ctx; X.prog = m->prog; X.funcs = m->funcs;
    ctx->msg[0] = 0;
    memset(&ctx->stats, 0, sizeof ctx->stats);
    for (int k = 0; k < 3; k++) {
        X.grid[k] = cfg->grid[k] ? cfg->grid[k] : 1;
        X.block[k] = cfg->block[k] ? cfg->block[k] : 1;
        X.cluster[k] = cfg->cluster[k] ? cfg->cluster[k] : 1;
    }
    X.explicit_cluster = cfg->cluster[0] || cfg->cluster[1] || cfg->cluster[2];
    X.dyn = cfg->shared_bytes;
    X.max_steps = cfg->max_steps ? cfg->max_steps : 10000000000ull;
    X.nregs = m->nregs_max; X.psize = m->psize_max;
    uint64_t nt = (uint64_t)X.block[0] * X.block[1] * X.block[2];
    if (!ef->is_entry || !ef->has_body) { snprintf(ctx->msg, sizeof ctx->msg, "%s is not a kernel (.entry)", ef->name); return PTXE_ERROR_INVALID_VALUE; }
    if (nt > 1024 || X.block[0] > 1024 || X.block[1] > 1024 || X.block[2] > 64) {
        snprintf(ctx->msg, sizeof ctx->msg, "block (%u,%u,%u) has %llu threads, expected at most 1024 (x,y <= 1024, z <= 64)", X.block[0], X.block[1], X.block[2], (unsigned long long)nt);
        return PTXE_ERROR_INVALID_VALUE;
    }
    if (ef->reqntid[0] && (ef->reqntid[0] != (int)X.block[0] || ef->reqntid[1] != (int)X.block[1] || ef->reqntid[2] != (int)X.block[2])) {
        snprintf(ctx->msg, sizeof ctx->msg, "block (%u,%u,%u) differs from .reqntid %d,%d,%d", X.block[0], X.block[1], X.block[2], ef->reqntid[0], ef->reqntid[1], ef->reqntid[2]);
        return PTXE_ERROR_INVALID_VALUE;
    }
    for (int k = 0; k < 3; k++)
        if (X.grid[k] % X.cluster[k]) {
            snprintf(ctx->msg, sizeof ctx->msg, "grid (%u,%u,%u) is not a multiple of cluster (%u,%u,%u)", X.grid[0], X.grid[1], X.grid[2], X.cluster[0], X.cluster[1], X.cluster[2]);
            return PTXE_ERROR_INVALID_VALUE;
        }
    uint32_t ncl = X.cluster[0] * X.cluster[1] * X.cluster[2];
    if (ncl > 16) { snprintf(ctx->msg, sizeof ctx->msg, "cluster of %u CTAs, expected at most 16", ncl); return PTXE_ERROR_INVALID_VALUE; }
    if (X.dyn > 227 * 1024 || m->shared_static + X.dyn > 228 * 1024) {
        snprintf(ctx->msg, sizeof ctx->msg, "%u bytes of static + %u bytes of dynamic shared memory, expected at most 228 KiB", m->shared_static, X.dyn);
        return PTXE_ERROR_INVALID_VALUE;
    }
    /* kernel parameters (§5.1.6.1) */
    X.kpsize = ef->kparam_size;
    X.kparams = calloc(X.kpsize + 8, 1);
    if (!X.kparams) return PTXE_ERROR_OUT_OF_MEMORY;
    for (int i = 0; i < ef->nparams; i++) {
        if (!params || !params[i]) { free(X.kparams); snprintf(ctx->msg, sizeof ctx->msg, "parameter %d of %s is missing", i, ef->name); return PTXE_ERROR_INVALID_VALUE; }
        memcpy(X.kparams + ef->poff[i], params[i], ef->psz[i]);
    }
    uint64_t nctas = (uint64_t)X.grid[0] * X.grid[1] * X.grid[2];
    uint64_t wpc = (nt + 31) / 32;
    if (ctx->per_warp_cap < nctas * wpc) {
        free(ctx->per_warp);
        ctx->per_warp = calloc(nctas * wpc + 1, 8);
        ctx->per_warp_cap = ctx->per_warp ? nctas * wpc : 0;
        if (!ctx->per_warp) { free(X.kparams); return PTXE_ERROR_OUT_OF_MEMORY; }
    }
    ctx->gridid++;
    cta *cs = calloc(ncl, sizeof *cs);
    if (!cs) { free(X.kparams); return PTXE_ERROR_OUT_OF_MEMORY; }
    ptxeResult res = PTXE_SUCCESS;
    /* clusters in order; the CTAs of a cluster run together (they are co-scheduled) */
    for (uint32_t cz = 0; cz < X.grid[2] / X.cluster[2] && !X.fault; cz++)
    for (uint32_t cy = 0; cy < X.grid[1] / X.cluster[1] && !X.fault; cy++)
    for (uint32_t cx = 0; cx < X.grid[0] / X.cluster[0] && !X.fault; cx++) {
        X.clusterid[0] = cx; X.clusterid[1] = cy; X.clusterid[2] = cz;
        uint32_t k = 0;
        for (uint32_t z = 0; z < X.cluster[2]; z++)
        for (uint32_t y = 0; y < X.cluster[1]; y++)
        for (uint32_t x = 0; x < X.cluster[0]; x++, k++) {
            cta *c = &cs[k];
            c->ctaid[0] = cx * X.cluster[0] + x; c->ctaid[1] = cy * X.cluster[1] + y; c->ctaid[2] = cz * X.cluster[2] + z;
            c->cl_ctaid[0] = x; c->cl_ctaid[1] = y; c->cl_ctaid[2] = z;
            if (setup_cta(&X, c, ef, k)) { fault(&X, NULL, -1, -1, PTXE_ERROR_OUT_OF_MEMORY, "out of host memory for CTA state"); break; }
        }
        while (!X.fault) {
            int progress = 0, alive = 0;
            for (uint32_t i = 0; i < ncl && !X.fault; i++)
                for (int j = 0; j < cs[i].nwarps && !X.fault; j++) {
                    warp *w = &cs[i].warps[j];
                    if (!w->live) continue;
                    uint64_t before = w->ninsn;
                    int r = run_warp(&X, w, QUANTUM);
                    if (w->ninsn != before) progress = 1;
                    if (r != W_DONE) alive = 1;
                }
            if (!alive || X.fault) break;
            if (!progress) { deadlock_report(&X, cs, (int)ncl); break; }
        }
        for (uint32_t i = 0; i < ncl; i++) {
            cta *c = &cs[i];
            if (c->warps) {
                uint64_t lin = ((uint64_t)c->ctaid[2] * X.grid[1] + c->ctaid[1]) * X.grid[0] + c->ctaid[0];
                for (int j = 0; j < c->nwarps; j++) {
                    ctx->per_warp[lin * wpc + (uint64_t)j] = c->warps[j].ninsn;
                    ctx->stats.warp_insns += c->warps[j].ninsn;
                }
            }
            free_cta(c);
        }
    }
    free(cs);
    free(X.kparams);
    ctx->stats.thread_insns = X.thread_insns;
    ctx->stats.nwarps = nctas * wpc;
    ctx->stats.per_warp = ctx->per_warp;
    if (X.fault) res = X.fault;
    return res;
}
