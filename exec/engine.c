/* exec/engine.c — the SIMT engine: runs a launch grid → cluster → CTA → warp → thread on one
 * host thread.  A warp executes one pre-decoded instruction for all lanes of its active group
 * at once.  Divergence and reconvergence use min-(depth, PC) scheduling: each lane has its own
 * PC and call depth; the group is the set of runnable lanes with the deepest call frame and the
 * smallest PC, so lanes that branched apart meet again at the first common instruction.
 * Warps of a cluster are interleaved round-robin in quanta (independent forward progress);
 * bar.sync/arrive/red count threads (ISA §9.7.12.1); shfl/vote/match/redux/elect/bar.warp.sync
 * wait for the lanes named by their membermask, which may meet them at another instruction of the
 * same kind (a rendezvous, §9.7.8.6, §9.7.12.7-12).  Faults (bad address,
 * misalignment, barrier deadlock/divergence, trap, step limit) stop the launch with a report. */
#include <fenv.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "exec/exec_int.h"
#include "exec/heap.h"
#include "exec/sanitize.h"
#include "exec/remote.h"
#include "exec/tma.h"
#include "exec/tex.h"
#include "exec/wmma.h"

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
    uint32_t clarr, clok,
        clw; /* barrier.cluster: arrived this phase, phase completed since arrive, waiting */
    /* warp-synchronous rendezvous (shfl/vote/match/redux.sync, elect.sync, bar.warp.sync):
     * wrdv (a subset of wsync) are lanes waiting at such an instruction (at lpc, not executed)
     * for the other non-exited lanes of their membermask wmem[l]; wsig[l] is the instruction's
     * kind and qualifiers.  rdv: the group is a completed rendezvous, its lanes at their own PCs */
    uint32_t wrdv;
    uint32_t sc_away;   /* synccheck: lanes an aligned barrier waits for (not on their way out) */
    uint32_t spin;      /* lanes whose mbarrier wait just failed: the next resched runs another
                           group of the warp first when it has one (the lane that would complete
                           the phase may be in it: forward progress, as on a GPU since sm_70) */
    int pc, depth, forced, dirty, rdv;
    int wgpc;           /* wgmma.mma_async: parked (all lanes in barw) at pc wgpc - 1 */
    uint64_t others_key;
    int32_t lpc[32]; uint16_t ldep[32];
    uint32_t wmem[32], wsig[32];
    frame *fr; int nfr;
    uint8_t *lmem[32]; uint32_t lcap[32]; uint64_t lsp[32];
    uint32_t cc[32];
    uint16_t tid[32][3];
    uint64_t ninsn;
} warp;

typedef struct {
    uint32_t arrived, expected, count_given, red, mode, used;
    uint32_t *wmask;
    int fpc, fwid, flane;   /* synccheck: first arrival of this phase (pc -1: none checked) */
} barrier;

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
    uint64_t check_at;              /* steps at which step_check runs next (limit, clock) */
    double deadline, timeout;       /* CLOCK_MONOTONIC seconds of --timeout (0: none) */
    int nregs; uint32_t psize;
    ptxeResult fault;
    galloc *gcache;
    uint32_t clusterid[3];
    cta *cl; uint32_t ncl;          /* CTAs of the running cluster, by %cluster_ctarank */
    uint32_t cl_live, cl_arrived;   /* barrier.cluster: non-exited threads, arrivals this phase */
    int yield;                      /* end the warp's quantum after this instruction */
    /* host memory of the launch (statistics, CTA state, call frames, local memory) counts
       against the context's memory limit with the buffers (issue #16: --max-memory did not
       cover them); `host_left` is what the limit leaves, `host_used` what the launch took */
    uint64_t host_left, host_used, host_want;
    uint64_t sink[32]; /* warp-wide ALU path: lanes written to '_' or unused destinations */
    san *san;          /* checks of the launch (exec/sanitize.c); NULL: none */
    int san_mem;       /* racecheck or initcheck: successful accesses are passed to san */
    int sm_target;     /* the module's .target sm_NN (0: unknown) */
} ex;

static inline char *ctx_msg(ex *X) { return X->ctx->msg; }

static inline uint64_t key_of(unsigned depth, int pc)
{
    return ((uint64_t)(MAXD - depth) << 32) | (uint32_t)pc;
}
static inline uint64_t lane_key(const warp *w, int l) { return key_of(w->ldep[l], w->lpc[l]); }

/* ---------------------------------------------------------------- faults */
static san_who who(const ex *X, const warp *w, int l, int pc)
{
    san_who t;
    memset(&t, 0, sizeof t);
    t.pc = pc;
    if (!w) return t;
    const cta *c = w->cta;
    for (int d = 0; d < 3; d++) { t.t[d] = l >= 0 ? w->tid[l][d] : 0; t.c[d] = c->ctaid[d]; }
    t.cta = ((uint64_t)c->ctaid[2] * X->grid[1] + c->ctaid[1]) * X->grid[0] + c->ctaid[0];
    t.tid = (t.t[2] * X->block[1] + t.t[1]) * X->block[0] + t.t[0];
    t.rank = c->rank; t.wid = w->wid; t.lane = l;
    return t;
}

static void fault(ex *X, warp *w, int lane, int pc, ptxeResult kind, const char *fmt, ...)
{
    if (X->fault) return;
    X->fault = kind;
    char what[768];
    va_list ap; va_start(ap, fmt); vsnprintf(what, sizeof what, fmt, ap); va_end(ap);
    if (X->san) {
        san_who t = who(X, w,
                        lane >= 0        ? lane
                        : w && w->active ? __builtin_ctz(w->active)
                                         : -1,
                        pc);
        san_fault(X->san, &t, what);
    }
    char *o = X->ctx->msg; size_t n = sizeof X->ctx->msg;
    /* a host resource that ran out is the host's error, not a fault of the kernel */
    int k =
        snprintf(o, n, "%s: %s\n", kind == PTXE_ERROR_OUT_OF_MEMORY ? "host error" : "fault", what);
    if (w) {
        cta *c = w->cta;
        if (lane >= 0)
            k += snprintf(o + k, n - (size_t)k,
                          "  thread (%u,%u,%u) of CTA (%u,%u,%u), warp %d lane %d\n",
                          w->tid[lane][0], w->tid[lane][1], w->tid[lane][2], c->ctaid[0],
                          c->ctaid[1], c->ctaid[2], w->wid, lane);
        else
            k += snprintf(o + k, n - (size_t)k, "  warp %d of CTA (%u,%u,%u)\n", w->wid,
                          c->ctaid[0], c->ctaid[1], c->ctaid[2]);
    }
    if (pc >= 0 && pc < X->m->nprog && k > 0 && (size_t)k < n) {
        const xinsn *in = &X->prog[pc];
        k += snprintf(o + k, n - (size_t)k, "  at %s:%d:%d: %s\n", X->m->ast->filename, in->line,
                      in->col, in->text);
        if (in->src_line && k > 0 && (size_t)k < n) {
            const char *f = in->src_file > 0 && in->src_file < X->m->ast->nfiles &&
                                    X->m->ast->files[in->src_file]
                                ? X->m->ast->files[in->src_file]
                                : "?";
            snprintf(o + k, n - (size_t)k, "  CUDA source: %s:%d\n", f, in->src_line);
        }
    }
}

/* ---------------------------------------------------------------- host memory of a launch */
/* Charges n bytes of host memory to the launch: 0, or -1 when the memory limit is reached. */
static int host_charge(ex *X, uint64_t n)
{
    if (n > X->host_left - X->host_used) { X->host_want = n; return -1; }
    X->host_used += n;
    return 0;
}

/* A host allocation failed or the limit was reached: a host error of the launch (not a fault
 * of the kernel: the kernel did nothing wrong), PTXE_ERROR_OUT_OF_MEMORY. */
static void host_out_of_memory(ex *X, warp *w, int lane, int pc, const char *what)
{
    fault(X, w, lane, pc, PTXE_ERROR_OUT_OF_MEMORY,
          "found a launch that needs %llu more bytes of host memory for %s (it holds %llu, the "
          "device memory %llu), expected at most %llu bytes in all (limit ptxeCtxSetMemoryLimit, "
          "run --max-memory)",
          (unsigned long long)X->host_want, what, (unsigned long long)X->host_used,
          (unsigned long long)X->ctx->mem_used,
          (unsigned long long)(X->ctx->mem_limit ? X->ctx->mem_limit : PTXE_DEFAULT_MEMORY_LIMIT));
}

/* ---------------------------------------------------------------- frames and local memory */
static int ensure_frame(ex *X, warp *w, int d)
{
    if (d < w->nfr) return 0;
    int nn = d + 1 > w->nfr * 2 ? d + 1 : w->nfr * 2;
    if (host_charge(X,
                    (uint64_t)(nn - w->nfr) * (sizeof(frame) + ((uint64_t)X->nregs * 32 + 1) * 8 +
                                               (uint64_t)X->psize * 32 + 1)))
        return -1;
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

/* NULL with *oom == 0: outside the thread's local memory (a fault of the kernel); NULL with
 * *oom == 1: the host memory for it could not be had (a host error, reported here). */
static uint8_t *local_ptr(ex *X, warp *w, int l, int pc, uint64_t a, unsigned n, int *oom)
{
    if (a + n > w->lsp[l] || a + n < a) return NULL;
    if (a + n > w->lcap[l]) {
        uint64_t nc = w->lcap[l] ? w->lcap[l] : 256;
        while (nc < a + n) nc *= 2;
        uint8_t *p = host_charge(X, nc - w->lcap[l]) ? NULL : realloc(w->lmem[l], nc);
        if (!p) { *oom = 1; host_out_of_memory(X, w, l, pc, "local memory"); return NULL; }
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
    case SR_CLUSTERID:
    case SR_CLUSTERID + 1:
    case SR_CLUSTERID + 2: return X->clusterid[id - SR_CLUSTERID];
    case SR_NCLUSTERID:
    case SR_NCLUSTERID + 1:
    case SR_NCLUSTERID + 2: return X->grid[id - SR_NCLUSTERID] / X->cluster[id - SR_NCLUSTERID];
    case SR_CLUSTER_CTAID:
    case SR_CLUSTER_CTAID + 1:
    case SR_CLUSTER_CTAID + 2: return c->cl_ctaid[id - SR_CLUSTER_CTAID];
    case SR_CLUSTER_NCTAID:
    case SR_CLUSTER_NCTAID + 1:
    case SR_CLUSTER_NCTAID + 2: return X->cluster[id - SR_CLUSTER_NCTAID];
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
    static const char *const n[] = { "?",     "global", "shared",  "local",
                                     "const", "param",  "generic", "shared::cluster" };
    return n[s];
}

/* An access being resolved, for its fault messages: lane l of w at pc, n bytes at address oa
 * in space orig, `what` ("load", "atom", ...). */
typedef struct { ex *X; warp *w; int l, pc, orig; uint64_t oa; unsigned n; const char *what; } acc;

/* §6.4.1.5: a generic address maps into the window of a state space; -1 after a fault. */
static int generic_window(const acc *c, int *sp, uint64_t *a)
{
    static const struct { uint64_t base, size; int sp; } win[] = {
        { WIN_SHARED, WIN_SHARED_SIZE, SP_SHCLUSTER }, { WIN_LOCAL, WIN_SIZE, SP_LOCAL },
        { WIN_CONST, WIN_SIZE, SP_CONST },             { WIN_PARAM, WIN_SIZE, SP_PARAM },
    };
    for (size_t i = 0; i < sizeof win / sizeof win[0]; i++)
        if (*a >= win[i].base && *a < win[i].base + win[i].size) {
            *sp = win[i].sp;
            *a -= win[i].base;
            return 0;
        }
    if (*a >= GLOBAL_BASE32) { *sp = SP_GLOBAL; return 0; }
    fault(c->X, c->w, c->l, c->pc, PTXE_ERROR_LAUNCH_FAILED,
          "generic %s of %u bytes at address 0x%llx, which is in no state space", c->what, c->n,
          (unsigned long long)c->oa);
    return -1;
}

/* Shared memory: of the executing CTA, or (a shared::cluster address, §5.1.5) of CTA rank
 * (a >> SHCL_SHIFT) - 1 of the cluster.  NULL out of bounds; *faulted after a fault. */
static uint8_t *shared_ptr(const acc *c, int sp, uint64_t a, int *faulted)
{
    ex *X = c->X;
    warp *w = c->w;
    cta *t = w->cta;
    uint64_t r = a >> SHCL_SHIFT;
    unsigned long long oa = (unsigned long long)c->oa, rank = (unsigned long long)(r - 1);
    if (!r) return a + c->n <= t->ssize ? t->smem + a : NULL;
    *faulted = 1;
    if (r - 1 >= X->ncl) {
        fault(X, w, c->l, c->pc, PTXE_ERROR_LAUNCH_FAILED,
              "%s shared::cluster %s of %u bytes at address 0x%llx names CTA rank %llu, the "
              "cluster has %u CTAs",
              space_name(c->orig), c->what, c->n, oa, rank, X->ncl);
        return NULL;
    }
    t = &X->cl[r - 1];
    if (t != w->cta && sp == SP_SHARED) {
        fault(X, w, c->l, c->pc, PTXE_ERROR_LAUNCH_FAILED,
              "shared::cta %s of %u bytes at address 0x%llx is in the shared memory of CTA rank "
              "%llu, not the executing "
              "CTA (rank %u)",
              c->what, c->n, oa, rank, w->cta->rank);
        return NULL;
    }
    if (t != w->cta && t->nexited == t->nthreads) {
        fault(X, w, c->l, c->pc, PTXE_ERROR_LAUNCH_FAILED,
              "%s %s of %u bytes at address 0x%llx in the shared memory of CTA rank %llu, which "
              "has exited",
              space_name(c->orig), c->what, c->n, oa, rank);
        return NULL;
    }
    *faulted = 0;
    a = SHCL_OFF(a);
    return a + c->n <= t->ssize ? t->smem + a : NULL;
}

/* checks: an access that succeeded, by the kind of access its `what` names */
static void san_access(ex *X, warp *w, int l, int pc, int sp, const uint8_t *p, uint64_t a,
                       unsigned n, const char *what)
{
    if (what[0] == 'm') return;   /* mbarrier objects: synchronization, not data */
    int acc = what[0] == 'a' ? SA_READ | SA_WRITE
              : what[0] == 'r' || strstr(what, "store") ? SA_WRITE : SA_READ;
    san_who t = who(X, w, l, pc);
    if (sp == SP_GLOBAL) { san_global(X->san, &t, X->gcache, a, n, acc); return; }
    for (uint32_t i = 0; i < X->ncl; i++)
        if (X->cl[i].smem && p >= X->cl[i].smem && p < X->cl[i].smem + X->cl[i].ssize) {
            san_shared(X->san, &t, i, (uint32_t)(p - X->cl[i].smem), n, acc);
            return;
        }
}

/* Host pointer for an access of n bytes at a in space sp by lane l; NULL after a fault. */
static uint8_t *maddr_al(ex *X, warp *w, int l, int pc, int sp, uint64_t a, unsigned n,
                         unsigned align, int write, const char *what)
{
    const acc c = { X, w, l, pc, sp, a, n, what };
    int faulted = 0;
    if (a % align) {
        char desc[200] = "";
        const galloc *g = sp == SP_GLOBAL ? mem_find(X->ctx, a, 1) : NULL;
        if (g && g->name)   /* the buffer, by name */
            snprintf(desc, sizeof desc,
                     "\n  and is %llu bytes into the allocation '%s' of size %zu bytes",
                     (unsigned long long)(a - g->addr), g->name, g->size);
        fault(X, w, l, pc, PTXE_ERROR_LAUNCH_FAILED,
              "misaligned %s %s of %u bytes at address 0x%llx%s", space_name(sp), what, n,
              (unsigned long long)a, desc);
        return NULL;
    }
    if (sp == SP_GENERIC && generic_window(&c, &sp, &a)) return NULL;
    uint8_t *p = NULL;
    const char *ro = NULL;   /* a write to a read-only space */
    switch (sp) {
    case SP_GLOBAL: {
        galloc *g = X->gcache;
        if (!(g && g->host && a >= g->addr && a + n <= g->addr + g->size))
            g = X->gcache = mem_find(X->ctx, a, n);
        if (g) p = g->host + (a - g->addr);
        break;
    }
    case SP_SHARED: case SP_SHCLUSTER: p = shared_ptr(&c, sp, a, &faulted); break;
    case SP_LOCAL: p = local_ptr(X, w, l, pc, a, n, &faulted); break;
    case SP_CONST:
        if (write) ro = "const space at address";
        else if (a + n <= X->ctx->csize) p = X->ctx->cmem + a;
        break;
    case SP_PARAM:
        if (a >= FRAME_PARAM) {
            if (a - FRAME_PARAM + n <= X->psize)
                p = w->fr[w->depth].params + (size_t)l * X->psize + (a - FRAME_PARAM);
        } else if (write) ro = "kernel parameter space at";
        else if (a + n <= X->kpsize) p = X->kparams + a;
        break;
    }
    if (ro)
        fault(X, w, l, pc, PTXE_ERROR_LAUNCH_FAILED, "%s to %s 0x%llx", what, ro,
              (unsigned long long)c.oa);
    if (p && X->san_mem && (sp == SP_GLOBAL || sp == SP_SHARED || sp == SP_SHCLUSTER))
        san_access(X, w, l, pc, sp, p, a, n, what);
    if (p || ro || faulted) return p;
    static const char *const in[] = { [SP_GLOBAL] = "global)",
                                      [SP_SHCLUSTER] = "shared)",
                                      [SP_LOCAL] = "local)",
                                      [SP_CONST] = "const)",
                                      [SP_PARAM] = "param)" };
    char desc[300] = "";
    if (sp == SP_GLOBAL) {   /* the buffer and how far past its end (compute-sanitizer's words) */
        desc[0] = '\n'; desc[1] = desc[2] = ' ';
        san_describe_global(X->ctx, X->m, a, n, desc + 3, sizeof desc - 3);
        if (!desc[3]) desc[0] = 0;
    }
    fault(X, w, l, pc, PTXE_ERROR_LAUNCH_FAILED,
          "out-of-bounds %s %s of %u bytes at address 0x%llx%s%s%s", space_name(c.orig), what, n,
          (unsigned long long)c.oa, c.orig == SP_GENERIC ? " (" : "",
          c.orig == SP_GENERIC ? in[sp] : "", desc);
    return NULL;
}

static uint8_t *maddr(ex *X, warp *w, int l, int pc, int sp, uint64_t a, unsigned n, int write,
                      const char *what)
{
    return maddr_al(X, w, l, pc, sp, a, n, n, write, what);
}

static inline uint64_t ldval(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    memcpy(&v, p, n);   /* little-endian host */
    return v;
}


/* ---------------------------------------------------------------- scheduling */
/* lanes waiting at warp-synchronous instructions that now form a complete rendezvous: one
 * class of equal kind/qualifiers and membermask holding every non-exited lane of the mask */
static uint32_t rdv_complete(const warp *w)
{
    for (uint32_t m = w->wrdv; m; ) {
        int l = __builtin_ctz(m);
        uint32_t c = 0;
        for (uint32_t k = m; k; k &= k - 1) {
            int j = __builtin_ctz(k);
            if (w->wsig[j] == w->wsig[l] && w->wmem[j] == w->wmem[l]) c |= 1u << j;
        }
        if (!(w->wmem[l] & w->live & ~c)) return c;
        m &= ~c;
    }
    return 0;
}

static void resched(warp *w)
{
    if (w->rdv) {
        w->wsync |= w->active;
        w->wrdv |= w->active;
    } /* not run yet: back to waiting, own PCs */
    else
        for (uint32_t m = w->active; m; m &= m - 1) {
            int l = __builtin_ctz(m);
            w->lpc[l] = w->pc;
            w->ldep[l] = (uint16_t)w->depth;
        }
    w->active = 0; w->forced = 0; w->rdv = 0;
    if (w->wrdv) {
        uint32_t c = rdv_complete(w);
        if (c) {   /* run it now (run_warp: the instruction's case sees w->rdv) */
            w->wsync &= ~c; w->wrdv &= ~c;
            w->active = c; w->rdv = 1; w->others = 0;
            int l0 = __builtin_ctz(c);
            w->pc = w->lpc[l0]; w->depth = w->ldep[l0];
            return;
        }
    }
    uint32_t R = w->live & ~w->barw & ~w->wsync & ~w->clw;
    if (R & ~w->spin) R &= ~w->spin;
    w->spin = 0;
    /* nothing else runnable: a barrier-style wait (aligned bar.sync / barrier.cluster reached by
     * part of the warp, deprecated vote/shfl) goes ahead partially; lanes at an incomplete
     * rendezvous never do */
    uint32_t pool = R ? R : w->wsync & ~w->wrdv;
    if (!pool) { w->others = 0; return; }
    uint64_t best = ~0ull;
    for (uint32_t m = pool; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        uint64_t k = lane_key(w, l);
        if (k < best) best = k;
    }
    uint32_t g = 0;
    for (uint32_t m = pool | w->wsync; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        if (lane_key(w, l) == best) g |= 1u << l;
    }
    if (!R) w->forced = 1;
    w->wsync &= ~g; w->wrdv &= ~g;
    w->active = g;
    int l0 = __builtin_ctz(g);
    w->pc = w->lpc[l0]; w->depth = w->ldep[l0];
    w->others = R & ~g;
    w->others_key = ~0ull;
    for (uint32_t m = w->others; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        uint64_t k = lane_key(w, l);
        if (k < w->others_key) w->others_key = k;
    }
}

/* the group continues at pc: switch when another group has a smaller or equal key */
static inline void advance(warp *w, int pc)
{
    w->pc = pc;
    if (w->others && key_of((unsigned)w->depth, pc) >= w->others_key) { resched(w); return; }
    if (w->wsync) {
        uint64_t k = key_of((unsigned)w->depth, pc);
        for (uint32_t m = w->wsync; m; m &= m - 1)
            if (lane_key(w, __builtin_ctz(m)) == k) {
                resched(w);
                return;
            }
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
                uint64_t v = b->mode == BAR_RED_POPC  ? b->red
                             : b->mode == BAR_RED_AND ? (b->red == b->arrived)
                                                      : (b->red != 0);
                wr(&w->fr[w->ldep[l]], &in->d[0], l, v);
            }
        for (uint32_t k = X->san ? m : 0; k; k &= k - 1) {   /* racecheck: waiters acquire */
            san_who t = who(X, w, __builtin_ctz(k), w->lpc[__builtin_ctz(k)] - 1);
            san_bar_pass(X->san, &t, id);
        }
        w->barw &= ~m;
        b->wmask[i] = 0;
        w->dirty = 1;
    }
    b->arrived = 0; b->red = 0; b->used = 0; b->count_given = 0;
    if (X->san && c->nwarps) {
        san_who t = who(X, &c->warps[0], -1, -1);
        san_bar_done(X->san, &t, id);
    }
}

/* barrier.cluster (§9.7.12.3): the phase completes when every non-exited thread of the cluster
 * has arrived; waiting threads are released and arrived threads may pass their next wait */
static void clbar_check(ex *X)
{
    if (!X->cl_arrived || X->cl_arrived < X->cl_live) return;
    if (X->san && X->ncl && X->cl[0].nwarps) {   /* racecheck: the phase's arrivals, complete */
        san_who t = who(X, &X->cl[0].warps[0], -1, -1);
        san_cluster_done(X->san, &t);
    }
    for (uint32_t i = 0; i < X->ncl; i++)
        for (int j = 0; j < X->cl[i].nwarps; j++) {
            warp *w = &X->cl[i].warps[j];
            w->clok |= w->clarr & ~w->clw;
            w->clarr = 0;
            for (uint32_t m = X->san ? w->clw : 0; m; m &= m - 1) {   /* waiters acquire */
                san_who t = who(X, w, __builtin_ctz(m), w->lpc[__builtin_ctz(m)] - 1);
                san_cluster_pass(X->san, &t);
            }
            if (w->clw) { w->clw = 0; w->dirty = 1; }
        }
    X->cl_arrived = 0;
}

static void lanes_exit(ex *X, warp *w, uint32_t m)
{
    m &= w->live;
    w->live &= ~m;
    w->active &= ~m;
    cta *c = w->cta;
    c->nexited += (uint32_t)__builtin_popcount(m);
    for (int id = 0; id < 16; id++) bar_release_check(X, c, id);
    if (X->san && m && c->nexited == c->nthreads) san_cta_end(X->san, c->ctaid);
    X->cl_live -= (uint32_t)__builtin_popcount(m);
    X->cl_arrived -= (uint32_t)__builtin_popcount(m & w->clarr);
    w->clarr &= ~m; w->clok &= ~m;
    clbar_check(X);
}

/* warp-synchronous op: do all live lanes of membermask take part?  If not, wait for them. */
static int wsync_wait(warp *w, uint32_t mask)
{
    uint32_t missing = mask & w->live & ~w->active;
    if (!missing || w->forced) return 0;
    w->wsync |= w->active;
    for (uint32_t m = w->active; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        w->lpc[l] = w->pc;
        w->ldep[l] = (uint16_t)w->depth;
    }
    w->active = 0;
    resched(w);
    return 1;
}

/* ---------------------------------------------------------------- warp-synchronous instructions
 * shfl.sync, vote.sync, match.sync, redux.sync (§9.7.8.6, §9.7.12.8-11), elect.sync (§9.7.12.12),
 * bar.warp.sync (§9.7.12.7): a lane waits until every non-exited lane of its membermask has
 * executed an instruction of the same kind and qualifiers with the same membermask — on sm_70+
 * not necessarily the same instruction (e.g. the two sides of a divergent branch).  Then they
 * execute together, each lane with the operands of its own instruction. */
static inline uint32_t wsig_of(const xinsn *in)
{
    return (uint32_t)in->kind | (uint32_t)in->mode << 8 | (uint32_t)(in->type & 0xff) << 16 |
           (uint32_t)(in->flags >> 8 & 7) << 24;
}
static inline int wsync_mask_idx(const xinsn *in)
{
    return in->kind == PTX_K_SHFL                                 ? 3
           : in->kind == PTX_K_ELECT || in->kind == PTX_K_BARWARP ? 0
                                                                  : 1;
}

/* Lanes S execute a warp-synchronous instruction together: lane l runs I[l] in frame Fr[l] (all
 * of one kind and qualifiers; I == NULL, the converged case: every lane runs `in` in f0); `in` in
 * f0 also gives the (undefined: stale) shfl source of lanes outside S.  One function per kind. */
typedef struct {
    ex *X; warp *w; uint32_t S;
    const xinsn **I; frame **Fr;
    const xinsn *in; frame *f0;
} wsx;
static inline const xinsn *ws_in(const wsx *c, int l) { return c->I ? c->I[l] : c->in; }
static inline frame *ws_fr(const wsx *c, int l) { return c->I ? c->Fr[l] : c->f0; }
/* source k / destination k of lane l's own instruction */
static inline uint64_t ws_src(const wsx *c, int l, int k)
{
    return opv(c->X, c->w, ws_fr(c, l), &ws_in(c, l)->s[k], l);
}
static inline void ws_dst(const wsx *c, int l, int k, uint64_t v)
{
    wr(ws_fr(c, l), &ws_in(c, l)->d[k], l, v);
}
/* every lane of S gets v in its first destination */
static inline void ws_all(const wsx *c, uint64_t v)
{
    for (uint32_t m = c->S; m; m &= m - 1) ws_dst(c, __builtin_ctz(m), 0, v);
}

/* shfl.sync (§9.7.8.6): d = a of lane j (up, down, bfly, idx with clamp and segment mask),
 * p = j in range */
static void ws_shfl(const wsx *c)
{
    ex *X = c->X;
    warp *w = c->w;
    uint32_t S = c->S;
    uint64_t A[32], D[32], Pv[32];
    for (int l = 0; l < 32; l++)
        A[l] = (S >> l & 1)        ? ws_src(c, l, 0)
               : (w->all >> l & 1) ? opv(X, w, c->f0, &c->in->s[0], l)
                                   : 0;
    for (uint32_t m = S; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        int bval = (int)(ws_src(c, l, 1) & 31);
        uint32_t cv = (uint32_t)ws_src(c, l, 2);
        int cval = (int)(cv & 31), seg = (int)((cv >> 8) & 31);
        int maxl = (l & seg) | (cval & ~seg), minl = l & seg, j, pv;
        switch (c->in->mode) {
        case 0: j = l - bval; pv = j >= maxl; break;
        case 1: j = l + bval; pv = j <= maxl; break;
        case 2: j = l ^ bval; pv = j <= maxl; break;
        default: j = minl | (bval & ~seg); pv = j <= maxl; break;
        }
        if (!pv) j = l;
        D[l] = A[j & 31]; Pv[l] = (uint64_t)pv;
    }
    for (uint32_t m = S; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        ws_dst(c, l, 0, D[l]);
        if (ws_in(c, l)->nd > 1) ws_dst(c, l, 1, Pv[l]);
    }
}

/* vote.sync (§9.7.12.9): all, any, uni, ballot of p */
static void ws_vote(const wsx *c)
{
    uint32_t S = c->S, ballot = 0;
    for (uint32_t m = S; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        ballot |= (uint32_t)(ws_src(c, l, 0) & 1) << l;
    }
    int mode = c->in->mode;
    ws_all(c, mode == VOTE_ALL ? ballot == S : mode == VOTE_ANY ? ballot != 0
              : mode == VOTE_UNI ? (ballot == 0 || ballot == S) : ballot);
}

/* match.sync (§9.7.12.10): .any: the lanes with my value; .all: all lanes if all are equal */
static void ws_match(const wsx *c)
{
    uint32_t S = c->S;
    uint64_t V[32];
    for (uint32_t m = S; m; m &= m - 1) { int l = __builtin_ctz(m); V[l] = ws_src(c, l, 0); }
    int alleq = 1;
    for (uint32_t m = S; m; m &= m - 1) if (V[__builtin_ctz(m)] != V[__builtin_ctz(S)]) alleq = 0;
    for (uint32_t m = S; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        uint32_t r = 0;
        if (c->in->mode) r = alleq ? S : 0;
        else
            for (uint32_t k = S; k; k &= k - 1)
                if (V[__builtin_ctz(k)] == V[l]) r |= 1u << __builtin_ctz(k);
        ws_dst(c, l, 0, r);
        if (ws_in(c, l)->nd > 1) ws_dst(c, l, 1, (uint64_t)alleq);
    }
}

/* redux.sync.min/max{.abs}{.NaN}.f32: NaN inputs are skipped unless .NaN (then the result is
 * the canonical NaN); -0.0 < +0.0 */
static void ws_redux_f32(const wsx *c)
{
    uint32_t acc = 0, flags = c->in->flags;
    int have = 0, nan = 0;
    for (uint32_t m = c->S; m; m &= m - 1) {
        uint32_t v = (uint32_t)ws_src(c, __builtin_ctz(m), 0);
        if (flags & XF_ABS) v &= 0x7fffffffu;
        if ((v & 0x7fffffffu) > 0x7f800000u) { nan = 1; continue; }
        /* total order key of a non-NaN float */
        uint32_t kv = v >> 31 ? ~v : v | 0x80000000u, ka = acc >> 31 ? ~acc : acc | 0x80000000u;
        if (!have || (c->in->mode == 1 ? kv < ka : kv > ka)) acc = v;
        have = 1;
    }
    if (!have || (nan && (flags & XF_NAN))) acc = 0x7fffffffu;
    ws_all(c, acc);
}

/* redux.sync (§9.7.12.12) on .u32/.s32/.b32: add, min, max, and, or, xor */
static void ws_redux(const wsx *c)
{
    int sgn = c->in->type == ISA_T_S32, firstv = 1;
    uint64_t acc = 0;
    for (uint32_t m = c->S; m; m &= m - 1) {
        uint32_t v = (uint32_t)ws_src(c, __builtin_ctz(m), 0);
        if (firstv) { acc = v; firstv = 0; continue; }
        switch (c->in->mode) {
        case 0: acc = (uint32_t)(acc + v); break;
        case 1: acc = sgn ? ((int32_t)v < (int32_t)acc ? v : acc) : (v < acc ? v : acc); break;
        case 2: acc = sgn ? ((int32_t)v > (int32_t)acc ? v : acc) : (v > acc ? v : acc); break;
        case 3: acc &= v; break;
        case 4: acc |= v; break;
        default: acc ^= v; break;
        }
    }
    ws_all(c, acc);
}

/* elect.sync (§9.7.12.14): the lowest lane leads */
static void ws_elect(const wsx *c)
{
    int leader = __builtin_ctz(c->S);
    for (uint32_t m = c->S; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        ws_dst(c, l, 0, (uint64_t)leader);
        ws_dst(c, l, 1, (uint64_t)(l == leader));
    }
}

static void wsync_exec(ex *X, warp *w, uint32_t S, const xinsn **I, frame **Fr, const xinsn *in,
                       frame *f0)
{
    const wsx c = { X, w, S, I, Fr, in, f0 };
    if (X->san && I && X->sm_target && X->sm_target < 70) {   /* sm_6x: one instruction */
        int l0 = __builtin_ctz(S);
        for (uint32_t m = S; m; m &= m - 1) {
            int l = __builtin_ctz(m);
            if (I[l] != I[l0]) {
                san_who t = who(X, w, l0, (int)(I[l0] - X->prog)),
                        o = who(X, w, l, (int)(I[l] - X->prog));
                san_wsync_divergent(X->san, &t, &o, X->sm_target);
                break;
            }
        }
    }
    switch (in->kind) {
    case PTX_K_SHFL: ws_shfl(&c); break;
    case PTX_K_VOTE: ws_vote(&c); break;
    case PTX_K_MATCH: ws_match(&c); break;
    case PTX_K_REDUX: if (in->flags & XF_FLOAT) ws_redux_f32(&c); else ws_redux(&c); break;
    case PTX_K_ELECT: ws_elect(&c); break;
    default: break;   /* bar.warp.sync: the rendezvous is all */
    }
    if (X->san && in->kind == PTX_K_BARWARP) {   /* it orders memory (§9.7.12.2); shfl... not */
        san_who t[32];
        int n = 0;
        for (uint32_t m = S; m; m &= m - 1, n++)
            t[n] = who(X, w, __builtin_ctz(m), I ? (int)(I[__builtin_ctz(m)] - X->prog) : w->pc);
        san_warp_sync(X->san, t, n);
    }
}

/* Lanes waiting at their own instructions run (guards were true when they arrived): a
 * rendezvous resched completed. */
static void wsync_rendezvous(ex *X, warp *w, uint32_t G, uint32_t E)
{
    const xinsn *I[32];
    frame *Fr[32];
    X->thread_insns += (uint64_t)__builtin_popcount(G) - (uint64_t)__builtin_popcount(E);
    for (uint32_t m = G; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        I[l] = &X->prog[w->lpc[l]];
        Fr[l] = &w->fr[w->ldep[l]];
    }
    int l0 = __builtin_ctz(G);
    wsync_exec(X, w, G, I, Fr, &X->prog[w->lpc[l0]], &w->fr[w->ldep[l0]]);
    for (uint32_t m = G; m; m &= m - 1) w->lpc[__builtin_ctz(m)]++;
    w->active = 0;
    resched(w);
}

/* Member lanes are elsewhere: per membermask class (M[l] for the lanes E), run with the lanes
 * already waiting at a matching instruction if that completes the class, else wait.  Lanes of
 * G whose guard is false count as present (as when converged) and go on. */
static void wsync_classes(ex *X, warp *w, const xinsn *in, frame *f, uint32_t G, uint32_t E,
                          const uint32_t *M)
{
    const xinsn *I[32];
    frame *Fr[32];
    uint32_t sig = wsig_of(in), todo = E;
    for (uint32_t m = G; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        w->lpc[l] = w->pc + 1;
        w->ldep[l] = (uint16_t)w->depth;
    }
    while (todo) {
        uint32_t mk = M[__builtin_ctz(todo)], K = 0, Cw = 0;
        for (uint32_t m = todo; m; m &= m - 1)
            if (M[__builtin_ctz(m)] == mk) K |= 1u << __builtin_ctz(m);
        todo &= ~K;
        for (uint32_t m = w->wrdv; m; m &= m - 1) {
            int l = __builtin_ctz(m);
            if (w->wsig[l] == sig && w->wmem[l] == mk) Cw |= 1u << l;
        }
        if (mk & w->live & ~(G | Cw)) {   /* incomplete: K waits */
            for (uint32_t m = K; m; m &= m - 1) {
                int l = __builtin_ctz(m);
                w->lpc[l] = w->pc; w->wsig[l] = sig; w->wmem[l] = mk;
            }
            w->wsync |= K; w->wrdv |= K;
            continue;
        }
        for (uint32_t m = K; m; m &= m - 1) { int l = __builtin_ctz(m); I[l] = in; Fr[l] = f; }
        for (uint32_t m = Cw; m; m &= m - 1) {
            int l = __builtin_ctz(m);
            I[l] = &X->prog[w->lpc[l]];
            Fr[l] = &w->fr[w->ldep[l]];
        }
        wsync_exec(X, w, K | Cw, I, Fr, in, f);
        for (uint32_t m = Cw; m; m &= m - 1) w->lpc[__builtin_ctz(m)]++;
        w->wsync &= ~Cw; w->wrdv &= ~Cw;
    }
    w->active = 0;
    resched(w);
}

/* The group G (guard true: E) reaches the warp-synchronous instruction `in`; or, with w->rdv,
 * a rendezvous completed by resched runs.  -1 after a fault. */
static int wsync_op(ex *X, warp *w, const xinsn *in, frame *f, uint32_t G, uint32_t E)
{
    if (w->rdv) { wsync_rendezvous(X, w, G, E); return 0; }
    if (!E) { advance(w, w->pc + 1); return 0; }
    const xopnd *mo = &in->s[wsync_mask_idx(in)];
    int l0 = __builtin_ctz(E);
    uint32_t mask = (uint32_t)opv(X, w, f, mo, l0), M[32], bad = 0;
    int uni = mo->kind == XO_IMM;
    if (uni) bad = E & ~mask;
    else
        for (uint32_t m = E; m; m &= m - 1) {
            int l = __builtin_ctz(m);
            M[l] = (uint32_t)opv(X, w, f, mo, l);
            if (M[l] != mask) uni = 0;
            if (!(M[l] >> l & 1)) bad |= 1u << l;
        }
    if (bad) {
        int l = __builtin_ctz(bad);
        fault(X, w, l, w->pc, PTXE_ERROR_LAUNCH_FAILED,
              "executing lane is not in membermask 0x%08x", mo->kind == XO_IMM ? mask : M[l]);
        return -1;
    }
    if (in->flags &
        XF_NOSYNC) { /* deprecated vote/shfl: the active lanes, converged when possible */
        if (wsync_wait(w, mask)) return 0;
    } else if (!uni || (mask & w->live & ~G)) {
        if (uni) for (uint32_t m = E; m; m &= m - 1) M[__builtin_ctz(m)] = mask;
        wsync_classes(X, w, in, f, G, E, M);
        return 0;
    }
    /* converged: every non-exited member lane is here */
    wsync_exec(X, w, E, NULL, NULL, in, f);
    advance(w, w->pc + 1);
    return 0;
}

/* lanes wait at an incomplete rendezvous and nothing can complete it (every other non-exited
 * lane of the warp waits elsewhere for good): report the first waiting class */
static void wsync_deadlock(ex *X, warp *w)
{
    int l = __builtin_ctz(w->wrdv);
    uint32_t mk = w->wmem[l], c = 0;
    for (uint32_t m = w->wrdv; m; m &= m - 1) {
        int j = __builtin_ctz(m);
        if (w->wsig[j] == w->wsig[l] && w->wmem[j] == mk) c |= 1u << j;
    }
    uint32_t miss = mk & w->live & ~c;
    if (!miss) {
        fault(X, w, l, w->lpc[l], PTXE_ERROR_LAUNCH_FAILED,
              "warp-synchronous deadlock: lanes 0x%08x of membermask 0x%08x wait here", c, mk);
        return;
    }
    int o = __builtin_ctz(miss);
    int opc = (w->barw >> o & 1) || (w->clw >> o & 1) ? w->lpc[o] - 1 : w->lpc[o];
    const char *where =
        (w->barw >> o & 1)  ? "at a barrier"
        : (w->clw >> o & 1) ? "at a cluster barrier"
        : (w->wrdv >> o & 1)
            ? "at a warp-synchronous instruction of another kind, qualifiers or membermask"
            : "elsewhere";
    const xinsn *oi = opc >= 0 && opc < X->m->nprog ? &X->prog[opc] : NULL;
    fault(X, w, l, w->lpc[l], PTXE_ERROR_LAUNCH_FAILED,
          "warp-synchronous deadlock: lanes 0x%08x wait here for lanes 0x%08x of membermask "
          "0x%08x; lane %d waits %s (line %d: %s)",
          c, miss, mk, o, where, oi ? oi->line : 0, oi ? oi->text : "?");
}

/* ---------------------------------------------------------------- one warp */
enum { W_RAN, W_BLOCKED, W_DONE };

/* The callee of lane l: the call's target, or for an indirect call the function whose address
 * the register holds, checked against the call's argument and result lists.  -1 after a fault. */
static int call_target(ex *X, warp *w, const xinsn *in, const frame *cf, int l)
{
    if (in->target >= 0) return in->target;
    uint64_t a = opv(X, w, cf, &in->s[0], l), idx = (a - FUNC_BASE) / 16;
    if (a < FUNC_BASE || (a - FUNC_BASE) % 16 || idx >= (uint64_t)X->m->nfuncs ||
        !X->funcs[idx].has_body || X->funcs[idx].is_entry) {
        fault(X, w, l, w->pc, PTXE_ERROR_LAUNCH_FAILED,
              "indirect call to address 0x%llx, which is not a function", (unsigned long long)a);
        return -1;
    }
    const xfunc *xf = &X->funcs[idx];
    if (xf->nparams != in->ncargs || xf->nrets != in->ncrets) {
        fault(X, w, l, w->pc, PTXE_ERROR_LAUNCH_FAILED,
              "indirect call of %s with %d arguments and %d results, expected %d and %d", xf->name,
              in->ncargs, in->ncrets, xf->nparams, xf->nrets);
        return -1;
    }
    for (int k = 0; k < in->ncargs + in->ncrets; k++) {   /* .reg/.param and sizes (§7.2) */
        int arg = k < in->ncargs, i = arg ? k : k - in->ncargs;
        int callee_reg = (arg ? xf->preg : xf->rreg)[i] >= 0,
            by_reg = (arg ? in->carg_off : in->cret_off)[i] == NOPARAM;
        uint32_t vsz = (arg ? in->carg_vsz : in->cret_vsz)[i], need = (arg ? xf->psz : xf->rsz)[i];
        char head[64];
        snprintf(head, sizeof head, arg ? "argument %d is" : "result %d is received in", i + 1);
        if (callee_reg != by_reg) {
            fault(X, w, l, w->pc, PTXE_ERROR_LAUNCH_FAILED,
                  "indirect call of %s: %s%s a %s, expected a %s", xf->name, head,
                  arg ? " passed as" : "", by_reg ? "register" : ".param variable",
                  callee_reg ? "register" : ".param variable");
            return -1;
        }
        if (!callee_reg && vsz < need) {
            fault(X, w, l, w->pc, PTXE_ERROR_LAUNCH_FAILED,
                  "indirect call of %s: %s a %u-byte .param variable, expected at least %u bytes",
                  xf->name, head, vsz, need);
            return -1;
        }
    }
    return (int)idx;
}

/* Lane l enters function f: its arguments into the new frame nf (registers masked to their
 * width, .param bytes copied), return point, local-memory frame.  -1 after a fault. */
static int call_enter(ex *X, warp *w, const xinsn *in, const frame *cf, frame *nf, int l, int f)
{
    const xfunc *xf = &X->funcs[f];
    for (int i = 0; i < in->ncargs; i++) {
        if (xf->preg[i] >= 0) {
            uint64_t v = opv(X, w, cf, &in->carg_x[i], l);
            unsigned b = xf->pregbits[i];
            nf->regs[(unsigned)xf->preg[i] * 32 + (unsigned)l] =
                b >= 64 ? v : v & ((1ull << b) - 1);
        } else
            memcpy(nf->params + (size_t)l * X->psize + xf->poff[i],
                   cf->params + (size_t)l * X->psize + in->carg_off[i], xf->psz[i]);
    }
    nf->ret_pc[l] = w->pc + 1; nf->call_pc[l] = w->pc;
    nf->saved_sp[l] = w->lsp[l];
    uint64_t base = (w->lsp[l] + xf->lalign - 1) / xf->lalign * xf->lalign;
    if (base + xf->lsize > LOCAL_MAX) {
        fault(X, w, l, w->pc, PTXE_ERROR_LAUNCH_FAILED, "local memory (stack) overflow: %llu bytes",
              (unsigned long long)(base + xf->lsize));
        return -1;
    }
    nf->lbase[l] = base;
    w->lsp[l] = base + xf->lsize;
    return 0;
}

/* call (§9.7.11.5): a predicated call splits the group; the calling lanes enter their callee's
 * frame (indirect calls may differ per lane: they continue apart). */
static int do_call(ex *X, warp *w, const xinsn *in, uint32_t E)
{
    uint32_t G = w->active;
    if (E != G) {   /* predicated call: the lanes that do not call go on */
        split(w, E, w->pc, w->pc + 1);
        return 0;   /* (the calling lanes run the call when rescheduled; guard re-evaluated) */
    }
    if ((unsigned)w->depth + 1 >= MAXD) {
        fault(X, w, __builtin_ctz(G), w->pc, PTXE_ERROR_LAUNCH_FAILED,
              "call stack overflow (depth %u)", MAXD);
        return -1;
    }
    if (ensure_frame(X, w, w->depth + 1)) {
        host_out_of_memory(X, w, -1, w->pc, "a call frame");
        return -1;
    }
    frame *cf = &w->fr[w->depth], *nf = &w->fr[w->depth + 1];
    int tgt[32], uniform = 1, first = -1;
    for (uint32_t m = G; m; m &= m - 1) {
        int l = __builtin_ctz(m), f = call_target(X, w, in, cf, l);
        if (f < 0 || call_enter(X, w, in, cf, nf, l, f)) return -1;
        tgt[l] = f;
        if (first < 0) first = f; else if (f != first) uniform = 0;
    }
    if (uniform) { w->depth++; advance(w, X->funcs[first].start); return 0; }
    for (uint32_t m = G; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        w->lpc[l] = X->funcs[tgt[l]].start;
        w->ldep[l] = (uint16_t)(w->depth + 1);
    }
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
        for (int i = 0; i < call->ncrets; i++) {
            if (xf->rreg[i] >= 0)
                wr(pf, &call->cret_x[i], l, cf->regs[(unsigned)xf->rreg[i] * 32 + (unsigned)l]);
            else
                memcpy(pf->params + (size_t)l * X->psize + call->cret_off[i],
                       cf->params + (size_t)l * X->psize + xf->roff[i], xf->rsz[i]);
        }
        w->lsp[l] = cf->saved_sp[l];
        if (rpc < 0) rpc = cf->ret_pc[l]; else if (rpc != cf->ret_pc[l]) uniform = 0;
    }
    if (uniform) { w->depth--; advance(w, rpc); return; }
    for (uint32_t m = G; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        w->lpc[l] = cf->ret_pc[l];
        w->ldep[l] = (uint16_t)(w->depth - 1);
    }
    w->active = 0;
    resched(w);
}

/* ---------------------------------------------------------------- mbarrier objects (§9.7.12.15)
 * The 8-byte object in shared memory holds: pending arrivals [0,20), expected arrivals [20,40),
 * tx-count (signed) [40,61), initialised bit 61, phase parity bit 63.  A state token returned by
 * mbarrier.arrive is the phase bit (63) and the pending count after the arrival [0,20). */
typedef struct { uint32_t pend, exp; int32_t tx; int valid, ph; } mbar;
#define MB_MAX ((1u << 20) - 1)
static mbar mb_get(const uint8_t *p)
{
    uint64_t v = ldval(p, 8);
    mbar b = { (uint32_t)(v & MB_MAX), (uint32_t)(v >> 20 & MB_MAX),
               (int32_t)isa_sext(v >> 40 & 0x1fffff, 21), (int)(v >> 61 & 1), (int)(v >> 63) };
    return b;
}
static void mb_put(uint8_t *p, const mbar *b)
{
    uint64_t v = (uint64_t)b->pend | (uint64_t)b->exp << 20 |
                 ((uint64_t)(uint32_t)b->tx & 0x1fffff) << 40 | (uint64_t)b->valid << 61 |
                 (uint64_t)b->ph << 63;
    memcpy(p, &v, 8);
}
/* phase completion: no pending arrivals and no outstanding transactions */
static void mb_progress(mbar *b)
{
    if (b->pend == 0 && b->tx == 0) {
        b->ph ^= 1;
        b->pend = b->exp;
    }
}

/* mb_progress, and for racecheck the operation of lane l on the mbarrier at host p: it may
 * arrive (release into the phase), the phase may complete; init: mbarrier.init */
static void mb_step(ex *X, warp *w, int l, const uint8_t *p, mbar *b, int init)
{
    int ph0 = b->ph;
    if (!init) mb_progress(b);
    for (uint32_t i = 0; X->san && i < X->ncl; i++)
        if (X->cl[i].smem && p >= X->cl[i].smem && p < X->cl[i].smem + X->cl[i].ssize) {
            san_who t = who(X, w, l, w->pc);
            san_mbar(X->san, &t, i, (uint32_t)(p - X->cl[i].smem), init, ph0, b->ph);
        }
}

static const char *const mb_names[] = { "init",           "inval",    "expect_tx",
                                        "complete_tx",    "arrive",   "arrive_drop",
                                        "test_wait",      "try_wait", "pending_count",
                                        "cp.async arrive" };

/* host pointer of the mbarrier at a (space sp) for lane l, checked: shared memory, initialised
 * unless init, in the executing CTA unless the operation may be remote */
static uint8_t *mb_ptr(ex *X, warp *w, int l, int pc, int sp, uint64_t a, int mode, mbar *b)
{
    uint64_t sa = a;
    if (sp == SP_GENERIC) {
        if (a < WIN_SHARED || a >= WIN_SHARED + WIN_SHARED_SIZE) {
            fault(X, w, l, pc, PTXE_ERROR_LAUNCH_FAILED,
                  "mbarrier.%s on address 0x%llx, which is not in shared memory", mb_names[mode],
                  (unsigned long long)a);
            return NULL;
        }
        sa = a - WIN_SHARED;
    }
    uint64_t r = sa >> SHCL_SHIFT;
    if (r && r - 1 != w->cta->rank && mode != MB_ARRIVE && mode != MB_EXPECT_TX &&
        mode != MB_COMPLETE_TX) {
        fault(X, w, l, pc, PTXE_ERROR_LAUNCH_FAILED,
              "mbarrier.%s on the mbarrier of CTA rank %llu at 0x%llx: only arrive, expect_tx and "
              "complete_tx may use another CTA's mbarrier",
              mb_names[mode], (unsigned long long)(r - 1), (unsigned long long)a);
        return NULL;
    }
    uint8_t *p = maddr(X, w, l, pc, sp, a, 8, 1, "mbarrier access");
    if (!p) return NULL;
    *b = mb_get(p);
    if (mode != MB_INIT && !b->valid) {
        fault(X, w, l, pc, PTXE_ERROR_LAUNCH_FAILED,
              "mbarrier.%s on an uninitialised mbarrier object at 0x%llx", mb_names[mode],
              (unsigned long long)a);
        return NULL;
    }
    return p;
}

static int mb_tx(ex *X, warp *w, int l, int pc, mbar *b, int64_t delta, uint64_t a)
{
    int64_t t = (int64_t)b->tx + delta;
    if (t > (int64_t)MB_MAX || t < -(int64_t)MB_MAX) {
        fault(X, w, l, pc, PTXE_ERROR_LAUNCH_FAILED,
              "mbarrier tx-count %lld at 0x%llx is outside -(2^20-1)..2^20-1", (long long)t,
              (unsigned long long)a);
        return -1;
    }
    b->tx = (int32_t)t;
    return 0;
}

static int mb_arrive(ex *X, warp *w, int l, int pc, mbar *b, uint64_t cnt, uint64_t a)
{
    if (cnt > b->pend) {
        fault(X, w, l, pc, PTXE_ERROR_LAUNCH_FAILED,
              "mbarrier arrive-on with count %llu at 0x%llx exceeds the pending arrival count %u",
              (unsigned long long)cnt, (unsigned long long)a, b->pend);
        return -1;
    }
    b->pend -= (uint32_t)cnt;
    return 0;
}

static int run_mbar(ex *X, warp *w, frame *f, const xinsn *in, uint32_t E)
{
    for (uint32_t m = E; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        uint64_t v1 = opv(X, w, f, &in->s[1], l);
        if (in->mode == MB_PENDING_COUNT) { wr(f, &in->d[0], l, v1 & MB_MAX); continue; }
        uint64_t a = opv(X, w, f, &in->s[0], l) + (uint64_t)in->aoff;
        mbar b;
        uint8_t *p = mb_ptr(X, w, l, w->pc, in->space, a, in->mode, &b);
        if (!p) return -1;
        switch (in->mode) {
        case MB_INIT:
            if (v1 == 0 || v1 > MB_MAX) {
                fault(X, w, l, w->pc, PTXE_ERROR_LAUNCH_FAILED,
                      "mbarrier.init count %llu outside 1..2^20-1", (unsigned long long)v1);
                return -1;
            }
            b = (mbar){ (uint32_t)v1, (uint32_t)v1, 0, 1, 0 };
            mb_step(X, w, l, p, &b, 1);
            break;
        case MB_INVAL: memset(&b, 0, sizeof b); break;
        case MB_EXPECT_TX:
            if (mb_tx(X, w, l, w->pc, &b, (int64_t)(uint32_t)v1, a)) return -1;
            break;
        case MB_COMPLETE_TX:
            if (mb_tx(X, w, l, w->pc, &b, -(int64_t)(uint32_t)v1, a)) return -1;
            mb_step(X, w, l, p, &b, 0);
            break;
        case MB_ARRIVE: case MB_ARRIVE_DROP: case MB_CP_ARRIVE: {
            uint64_t cnt =
                (in->flags & XF_EXPECT_TX) || in->mode == MB_CP_ARRIVE ? 1 : (uint32_t)v1;
            if ((in->flags & XF_EXPECT_TX) && mb_tx(X, w, l, w->pc, &b, (int64_t)(uint32_t)v1, a))
                return -1;
            if (in->mode == MB_CP_ARRIVE && !(in->flags & XF_NOINC))
                break; /* +1 then the copies' arrive-on: no change */
            if (in->mode == MB_ARRIVE_DROP) {
                if (cnt > b.exp) {
                    fault(X, w, l, w->pc, PTXE_ERROR_LAUNCH_FAILED,
                          "mbarrier.arrive_drop with count %llu exceeds the expected count %u",
                          (unsigned long long)cnt, b.exp);
                    return -1;
                }
                b.exp -= (uint32_t)cnt;
            }
            int ph = b.ph;
            if (mb_arrive(X, w, l, w->pc, &b, cnt, a)) return -1;
            uint32_t pend = b.pend;
            if ((in->flags & XF_NOCOMPLETE) && b.pend == 0 && b.tx == 0) {
                fault(X, w, l, w->pc, PTXE_ERROR_LAUNCH_FAILED,
                      "mbarrier.arrive.noComplete at 0x%llx completes the phase",
                      (unsigned long long)a);
                return -1;
            }
            mb_step(X, w, l, p, &b, 0);
            if (in->nd) wr(f, &in->d[0], l, (uint64_t)ph << 63 | pend);
            break;
        }
        default: { /* test_wait / try_wait: the phase named by the state token or the parity
                      completed */
            int want = in->flags & XF_PARITY ? (int)(v1 & 1) : (int)(v1 >> 63);
            int done = want != b.ph;
            wr(f, &in->d[0], l, (uint64_t)done);
            if (!done) {   /* let the other warps, and the warp's other groups, make progress */
                X->yield = 1;
                w->spin |= 1u << l;
                w->dirty = 1;
            }
            /* racecheck: a completed phase orders the arrivals (and their copies) before */
            for (uint32_t i = 0; done && X->san && i < X->ncl; i++)
                if (X->cl[i].smem && p >= X->cl[i].smem && p < X->cl[i].smem + X->cl[i].ssize) {
                    san_who t = who(X, w, l, w->pc);
                    san_mbar_pass(X->san, &t, i, (uint32_t)(p - X->cl[i].smem), want);
                }
            continue;
        }
        }
        mb_put(p, &b);
    }
    return 0;
}

/* complete-tx of `bytes` on the mbarrier at a (space sp), as the asynchronous copies and stores
 * do on completion (§9.7.12.15.2: the tx-count decreases, the phase may complete) */
static int mb_complete_tx(ex *X, warp *w, int l, int pc, int sp, uint64_t a, uint64_t bytes)
{
    mbar b;
    uint8_t *p = mb_ptr(X, w, l, pc, sp, a, MB_COMPLETE_TX, &b);
    if (!p || mb_tx(X, w, l, pc, &b, -(int64_t)bytes, a)) return -1;
    mb_step(X, w, l, p, &b, 0);
    mb_put(p, &b);
    return 0;
}

/* cp.async.bulk (§9.7.8.24.6): copy now, then complete_tx(size) on the mbarrier(s) */
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
        uint32_t ranks =
            in->s[4].kind != XO_NONE ? (uint32_t)opv(X, w, f, &in->s[4], l) & 0xffff : 0;
        int multi = in->s[4].kind != XO_NONE;
        for (int r = multi ? 0 : -1; r < (multi ? 16 : 0); r++) {
            if (multi && !(ranks >> r & 1)) continue;
            uint64_t d = multi ? ((uint64_t)(r + 1) << SHCL_SHIFT) | SHCL_OFF(dst) : dst;
            uint8_t *pd = maddr_al(X, w, l, w->pc, in->space, d, (unsigned)size, 16, 1,
                                   "cp.async.bulk store");
            if (!pd) return -1;
            memmove(pd, ps, size);
            if (in->s[3].kind == XO_NONE) continue;
            uint64_t ma = opv(X, w, f, &in->s[3], l) + (uint64_t)in->aoff3;
            if (multi) ma = ((uint64_t)(r + 1) << SHCL_SHIFT) | SHCL_OFF(ma);
            if (mb_complete_tx(X, w, l, w->pc, SP_SHCLUSTER, ma, size)) return -1;
        }
    }
    return 0;
}

/* ---------------------------------------------------------------- instruction handlers
 * One function per kind of instruction (ptx_kind of the opcode table), called by run_warp
 * through the table `handlers`.  A handler runs `in` for the group G of warp w (E: the lanes of
 * G whose guard is true, f: their frame), then advances the group or reschedules the warp.  It
 * returns 0, or -1 when the warp must stop now (a fault was reported, or it blocks). */
typedef int (*exec_fn)(ex *X, warp *w, const xinsn *in, frame *f, uint32_t G, uint32_t E);

/* Register computations (ALU, CARRY, PACK): the table's eval per lane (the warp-wide eval_warp
 * path is run_warp's own fast path). */
static int h_alu(ex *X, warp *w, const xinsn *in, frame *f, uint32_t G, uint32_t E)
{
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
        return 0;
    }
    for (uint32_t m = E; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        for (int k = 0; k < ns; k++) s[k] = opv(X, w, f, &in->s[k], l);
        if (in->fn) in->fn(&in->isa, d, s);
        else { char e[8]; isa_eval_cc(&in->isa, s, d, &w->cc[l], e, sizeof e); }
        for (int k = 0; k < nd; k++) wr(f, &in->d[k], l, d[k]);
    }
    advance(w, w->pc + 1);
    return 0;
}

/* ld, ldu, st (§9.7.8.8-11): scalar or vector, sign-extended loads */
static int h_ldst(ex *X, warp *w, const xinsn *in, frame *f, uint32_t G, uint32_t E)
{
    unsigned n = in->size, tot = n * in->vec;
    int store = in->kind == PTX_K_ST;
    for (uint32_t m = E; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        uint64_t a = opv(X, w, f, &in->s[0], l) + (uint64_t)in->aoff;
        uint8_t *p = maddr(X, w, l, w->pc, in->space, a, tot, store, store ? "store" : "load");
        if (!p) return -1;
        for (int k = 0; k < in->vec; k++) {
            if (store) {
                uint64_t v = opv(X, w, f, &in->s[1 + k], l);
                memcpy(p + k * n, &v, n);
                continue;
            }
            uint64_t v = ldval(p + k * n, n);
            wr(f, &in->d[k], l, in->sign ? isa_sext(v, n * 8) : v);
        }
    }
    advance(w, w->pc + 1);
    return 0;
}

/* atom, red (§9.7.12.5-6): the new value by isa_atom_apply; vectors element-wise, one access */
static int h_atom(ex *X, warp *w, const xinsn *in, frame *f, uint32_t G, uint32_t E)
{
    unsigned n = in->size;
    int atom = in->kind == PTX_K_ATOM;
    isa_atom_op op = (isa_atom_op)in->mode;
    for (uint32_t m = E; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        uint64_t a = opv(X, w, f, &in->s[0], l) + (uint64_t)in->aoff;
        uint8_t *p = maddr(X, w, l, w->pc, in->space, a, n * in->vec, 1, atom ? "atom" : "red");
        if (!p) return -1;
        for (int k = 0; k < in->vec; k++) {
            uint64_t old = ldval(p + k * n, n), nv;
            uint64_t b = opv(X, w, f, &in->s[1 + k], l),
                     c = in->vec == 1 && in->ns > 2 ? opv(X, w, f, &in->s[2], l) : 0;
            int r = isa_atom_apply(op, in->type, old, b, c, &nv);
            if (r < 0) {
                fault(X, w, l, w->pc, PTXE_ERROR_LAUNCH_FAILED,
                      "atomic %s has no semantics for .%s", isa_atom_name(op),
                      isa_type_name(in->type));
                return -1;
            }
            if (r) memcpy(p + k * n, &nv, n);
            if (!atom) continue;
            if (in->vec == 1 && isa_type_is_signed(in->type)) old = isa_sext(old, n * 8);
            wr(f, &in->d[k], l, old);
        }
    }
    advance(w, w->pc + 1);
    return 0;
}

/* cvta{.to}.space (§9.7.8.19): generic = window base + space address */
static int h_cvta(ex *X, warp *w, const xinsn *in, frame *f, uint32_t G, uint32_t E)
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
static int h_isspacep(ex *X, warp *w, const xinsn *in, frame *f, uint32_t G, uint32_t E)
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
                (a - WIN_SHARED) >> SHCL_SHIFT <= X->ncl;
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

/* bra (§9.7.11.3): lanes with a false guard go on; the group splits when some branch */
static int h_bra(ex *X, warp *w, const xinsn *in, frame *f, uint32_t G, uint32_t E)
{
    if (E == G) advance(w, in->target);
    else if (!E) advance(w, w->pc + 1);
    else split(w, E, in->target, w->pc + 1);
    return 0;
}

/* brx.idx (§9.7.11.4): per-lane targets from the .branchtargets list */
static int h_brx(ex *X, warp *w, const xinsn *in, frame *f, uint32_t G, uint32_t E)
{
    if (!E) { advance(w, w->pc + 1); return 0; }
    int tg[32], t0 = -1, uniform = 1;
    for (uint32_t m = E; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        uint64_t idx = (uint32_t)opv(X, w, f, &in->s[0], l);
        if (idx >= (uint64_t)in->ntargets) {
            fault(X, w, l, w->pc, PTXE_ERROR_LAUNCH_FAILED,
                  "brx.idx index %llu is outside the %d-entry target list", (unsigned long long)idx,
                  in->ntargets);
            return -1;
        }
        tg[l] = in->targets[idx];
        if (t0 < 0) t0 = tg[l]; else if (tg[l] != t0) uniform = 0;
    }
    if (uniform && E == G) { advance(w, t0); return 0; }
    for (uint32_t m = G; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        w->lpc[l] = (E >> l & 1) ? tg[l] : w->pc + 1;
        w->ldep[l] = (uint16_t)w->depth;
    }
    w->active = 0;
    resched(w);
    return 0;
}

static int h_call(ex *X, warp *w, const xinsn *in, frame *f, uint32_t G, uint32_t E)
{
    if (!E) { advance(w, w->pc + 1); return 0; }
    return do_call(X, w, in, E);
}

static int h_ret(ex *X, warp *w, const xinsn *in, frame *f, uint32_t G, uint32_t E)
{
    if (!E) advance(w, w->pc + 1);
    else do_ret(X, w, E);
    return 0;
}

static int h_exit(ex *X, warp *w, const xinsn *in, frame *f, uint32_t G, uint32_t E)
{
    if (!E) { advance(w, w->pc + 1); return 0; }
    if (E != G) { split(w, E, w->pc, w->pc + 1); return 0; }
    lanes_exit(X, w, E);
    resched(w);
    return 0;
}

/* trap, brkpt (§9.7.17.1, .4), and calls of __assertfail: the launch ends with a fault */
static int h_trap(ex *X, warp *w, const xinsn *in, frame *f, uint32_t G, uint32_t E)
{
    if (!E) { advance(w, w->pc + 1); return 0; }
    fault(X, w, __builtin_ctz(E), w->pc, PTXE_ERROR_LAUNCH_FAILED,
          in->flags & XF_BRKPT ? "brkpt instruction executed (breakpoint, no debugger attached)"
                               : "trap instruction executed");
    return -1;
}

/* fences: sequential execution orders everything; racecheck counts them as synchronization */
static int h_fence(ex *X, warp *w, const xinsn *in, frame *f, uint32_t G, uint32_t E)
{
    for (uint32_t m = X->san ? E : 0; m; m &= m - 1) {   /* racecheck: each thread's fence */
        san_who t = who(X, w, __builtin_ctz(m), w->pc);
        san_fence(X->san, &t);
    }
    advance(w, w->pc + 1);
    return 0;
}

/* ---------------------------------------------------------------- device printf
 * vprintf(format, args) as nvcc and clang call it: the format string and the argument buffer
 * (each argument at its natural alignment: int 4 bytes, long/pointer/double 8, float promoted
 * to double) are generic addresses; the output of one call by a group of lanes is appended in
 * lane order, as a GPU's printf buffer groups it per warp. */
static int pf_read(ex *X, warp *w, int l, uint64_t a, void *dst, unsigned n)
{
    int sm = X->san_mem;
    X->san_mem = 0;   /* the runtime reads these, not the kernel: not checked as accesses */
    const uint8_t *p = maddr_al(X, w, l, w->pc, SP_GENERIC, a, n, 1, 0, "printf argument load");
    X->san_mem = sm;
    if (!p) return -1;
    memcpy(dst, p, n);
    return 0;
}

static void pf_put(ptxeCtx *ctx, const char *s, size_t n)
{
    pf_buf *b = &ctx->pf;
    size_t limit = b->set ? b->limit : PTXE_DEFAULT_PRINTF_LIMIT;
    if (b->n + n > limit) { b->dropped += n; return; }
    if (b->n + n + 1 > b->cap) {
        size_t nc = (b->n + n + 1) * 2;
        char *ns = realloc(b->s, nc);
        if (!ns) { b->dropped += n; return; }
        b->s = ns; b->cap = nc;
    }
    memcpy(b->s + b->n, s, n);
    b->n += n;
    b->s[b->n] = 0;
}

static int do_printf(ex *X, warp *w, const xinsn *in, frame *f, int l)
{
    uint64_t av[2] = { 0, 0 };
    for (int i = 0; i < 2 && i < in->ncargs; i++) {
        if (in->carg_off[i] == NOPARAM) av[i] = opv(X, w, f, &in->carg_x[i], l);
        else {   /* the caller's .param variable: a pointer (4 bytes with .address_size 32) */
            uint32_t vsz =
                in->carg_vsz && in->carg_vsz[i] && in->carg_vsz[i] < 8 ? in->carg_vsz[i] : 8;
            memcpy(&av[i], f->params + (size_t)l * X->psize + in->carg_off[i], vsz);
        }
    }
    char fmt[1024], out[4096];
    size_t fl = 0, on = 0;
    for (; fl < sizeof fmt - 1; fl++)
        if (pf_read(X, w, l, av[0] + fl, &fmt[fl], 1)) return -1;
        else if (!fmt[fl]) break;
    fmt[fl] = 0;
    uint64_t off = 0;
    for (const char *p = fmt; *p && on < sizeof out - 512;) {
        if (*p != '%') { out[on++] = *p++; continue; }
        if (p[1] == '%') { out[on++] = '%'; p += 2; continue; }
        char spec[32];
        size_t k = 0;
        spec[k++] = *p++;
        while (*p && strchr("-+ #0123456789.*", *p) && k < 20) spec[k++] = *p++;
        int lng = 0;
        while (*p && strchr("hlzjtL", *p)) {
            if (*p == 'l' || *p == 'z' || *p == 'j' || *p == 't') lng++;
            p++;
        }
        char cv = *p ? *p++ : 0;
        if (!cv) break;
        if (memchr(spec, '*', k)) { out[on++] = '?'; continue; }   /* (no * widths) */
        int sz = strchr("fFeEgGaA", cv) || strchr("ps", cv) || lng ? 8 : 4;
        off = (off + (uint64_t)sz - 1) & ~(uint64_t)(sz - 1);
        uint64_t v = 0;
        if (pf_read(X, w, l, av[1] + off, &v, (unsigned)sz)) return -1;
        off += (uint64_t)sz;
        size_t room = sizeof out - on;
        int r = 0;
        if (strchr("fFeEgGaA", cv)) {
            double d; memcpy(&d, &v, 8);
            spec[k++] = cv; spec[k] = 0;
            r = snprintf(out + on, room, spec, d);
        } else if (cv == 's') {
            char str[256];
            size_t j = 0;
            for (; j < sizeof str - 1; j++)
                if (pf_read(X, w, l, v + j, &str[j], 1)) return -1;
                else if (!str[j]) break;
            str[j] = 0;
            spec[k++] = 's'; spec[k] = 0;
            r = snprintf(out + on, room, spec, str);
        } else if (cv == 'p') {
            r = snprintf(out + on, room, "0x%llx", (unsigned long long)v);
        } else if (cv == 'c') {
            spec[k++] = 'c'; spec[k] = 0;
            r = snprintf(out + on, room, spec, (int)v);
        } else if (strchr("diuxXo", cv)) {
            spec[k++] = 'l'; spec[k++] = 'l'; spec[k++] = cv; spec[k] = 0;
            long long sv = sz == 4 ? (long long)(int32_t)v : (long long)v;
            unsigned long long uv = sz == 4 ? (uint32_t)v : v;
            r = cv == 'd' || cv == 'i' ? snprintf(out + on, room, spec, sv)
                                       : snprintf(out + on, room, spec, uv);
        } else {
            out[on++] = '%'; out[on++] = cv;
            continue;
        }
        if (r > 0) on += (size_t)r < room ? (size_t)r : room - 1;
    }
    pf_put(X->ctx, out, on);
    return 0;
}

/* a call of the device-side malloc or free by lane l (the heap is exec/heap.c): the argument,
 * malloc's result into the caller's return variable; a bad free faults */
static int do_heap(ex *X, warp *w, const xinsn *in, frame *f, int l)
{
    uint64_t v = 0, p;
    uint8_t *pa = f->params + (size_t)l * X->psize;
    uint32_t as = in->carg_vsz && in->carg_vsz[0] && in->carg_vsz[0] < 8 ? in->carg_vsz[0] : 8;
    if (in->carg_off[0] == NOPARAM) v = opv(X, w, f, &in->carg_x[0], l);
    else memcpy(&v, pa + in->carg_off[0], as);
    san_who t = who(X, w, l, w->pc);
    X->gcache = NULL;   /* the context's allocation table changes */
    char why[700];
    if (in->flags & XF_FREE) {
        if (!heap_free(X->ctx, X->m, &t, v, why, sizeof why)) return 0;
        fault(X, w, l, w->pc, PTXE_ERROR_LAUNCH_FAILED, "%s", why);
        return -1;
    }
    p = heap_malloc(X->ctx, &t, v);
    uint32_t rs = in->cret_vsz && in->cret_vsz[0] && in->cret_vsz[0] < 8 ? in->cret_vsz[0] : 8;
    if (in->cret_off[0] == NOPARAM) wr(f, &in->cret_x[0], l, p);
    else memcpy(pa + in->cret_off[0], &p, rs);
    return 0;
}

/* calls of vprintf (device printf), malloc and free; other MISC instructions are no-ops */
static int h_misc(ex *X, warp *w, const xinsn *in, frame *f, uint32_t G, uint32_t E)
{
    if (in->flags & (XF_MALLOC | XF_FREE))
        for (uint32_t m = E; m; m &= m - 1)
            if (do_heap(X, w, in, f, __builtin_ctz(m))) return -1;
    if (in->flags & XF_VPRINTF)
        for (uint32_t m = E; m; m &= m - 1)
            if (do_printf(X, w, in, f, __builtin_ctz(m))) return -1;
    advance(w, w->pc + 1);
    return 0;
}

/* cache hints, async-group waits (copies are complete at issue), griddepcontrol, pmevent */
static int h_nop(ex *X, warp *w, const xinsn *in, frame *f, uint32_t G, uint32_t E)
{
    advance(w, w->pc + 1);
    return 0;
}

/* createpolicy (§9.7.8.17): the policy is 0 (cache policies are hints) */
static int h_policy(ex *X, warp *w, const xinsn *in, frame *f, uint32_t G, uint32_t E)
{
    for (uint32_t m = E; m; m &= m - 1) wr(f, &in->d[0], __builtin_ctz(m), 0);
    advance(w, w->pc + 1);
    return 0;
}

/* synccheck: lanes E of the warp reach an aligned barrier while other non-exited lanes are
 * elsewhere: the barrier waits for those (a loop laid out barrier-first brings them here);
 * lanes on their way out (at an exit, or a ret of the kernel) are not waited for.  If the
 * awaited lanes exit instead of arriving, h_bar reports the barrier divergent. */
static uint32_t sync_away(ex *X, warp *w, uint32_t E)
{
    uint32_t away = 0;
    for (uint32_t m = w->live & ~E; m; m &= m - 1) {
        int l = __builtin_ctz(m), pc = w->lpc[l];
        if ((w->barw >> l & 1) && pc > 0) pc--;   /* waiting at a barrier: lpc is past it */
        const xinsn *o = pc >= 0 && pc < X->m->nprog ? &X->prog[pc] : NULL;
        if (o && (o->kind == PTX_K_EXIT || (o->kind == PTX_K_RET && w->ldep[l] == 0))) continue;
        away |= 1u << l;
    }
    return away;
}

/* bar/barrier (§9.7.12.1): arrival of the group's lanes at barrier `id`; bar.sync/bar.red
 * (.aligned) need the whole warp there */
static int h_bar(ex *X, warp *w, const xinsn *in, frame *f, uint32_t G, uint32_t E)
{
    if (!E) { advance(w, w->pc + 1); return 0; }
    int l0 = __builtin_ctz(E);
    uint64_t id = opv(X, w, f, &in->s[0], l0);
    if (id > 15) {
        fault(X, w, l0, w->pc, PTXE_ERROR_LAUNCH_FAILED, "barrier id %llu out of range 0..15",
              (unsigned long long)id);
        return -1;
    }
    cta *c = w->cta;
    barrier *b = &c->bar[id];
    if (X->san && (in->flags & XF_ALIGNED) && in->mode != BAR_ARRIVE) {
        if (E != w->live && E == G) w->sc_away |= sync_away(X, w, E);
        else if (E == w->live && (w->sc_away & ~w->live)) {   /* they exited instead */
            san_who t = who(X, w, l0, w->pc);
            san_divergent_warp(X->san, &t, E, w->sc_away & ~w->live, -1);
        }
        if (E == w->live) w->sc_away = 0;
    }
    if ((in->flags & XF_ALIGNED) && E != w->live && in->mode != BAR_ARRIVE) {
        /* lanes of this warp still on their way (e.g. a loop laid out with the barrier before the
         * body): wait for them to reach this barrier too */
        if (E == G && wsync_wait(w, w->live)) return 0;
        fault(X, w, l0, w->pc, PTXE_ERROR_LAUNCH_FAILED,
              "barrier divergence: lanes 0x%08x reach this bar.sync %llu while lanes 0x%08x of the "
              "warp are elsewhere",
              E, (unsigned long long)id, w->live & ~E);
        return -1;
    }
    if (in->s[1].kind != XO_NONE) {
        uint64_t cnt = opv(X, w, f, &in->s[1], l0);
        if (cnt == 0 || cnt % 32 || cnt > c->nthreads + 31) {
            fault(X, w, l0, w->pc, PTXE_ERROR_LAUNCH_FAILED,
                  "barrier thread count %llu is not a positive multiple of 32 up to the CTA size",
                  (unsigned long long)cnt);
            return -1;
        }
        if (b->used && b->count_given && b->expected != cnt) {
            fault(X, w, l0, w->pc, PTXE_ERROR_LAUNCH_FAILED,
                  "barrier %llu used with thread counts %u and %llu", (unsigned long long)id,
                  b->expected, (unsigned long long)cnt);
            return -1;
        }
        b->count_given = 1; b->expected = (uint32_t)cnt;
    }
    if (!b->used) {
        b->used = 1; b->mode = in->mode; b->red = 0;
        b->fpc = w->pc; b->fwid = w->wid; b->flane = l0;
    } else if (X->san && b->fpc != w->pc && b->fpc >= 0 && in->mode == BAR_SYNC &&
               in->s[1].kind == XO_NONE && X->prog[b->fpc].s[1].kind == XO_NONE &&
               X->prog[b->fpc].mode == BAR_SYNC) {
        /* bar.sync of the whole CTA reached from two instructions: divergent in the block */
        san_who t = who(X, w, l0, w->pc), o = who(X, &c->warps[b->fwid], b->flane, b->fpc);
        san_divergent_block(X->san, &t, &o, (int)id);
    }
    b->arrived += (uint32_t)__builtin_popcount(E);
    for (uint32_t m = X->san ? E : 0; m; m &= m - 1) {   /* racecheck: arrivals release */
        san_who t = who(X, w, __builtin_ctz(m), w->pc);
        san_bar_arrive(X->san, &t, (int)id);
    }
    if (in->mode >= BAR_RED_POPC) {
        b->mode = in->mode;
        for (uint32_t m = E; m; m &= m - 1)
            b->red += (uint32_t)(opv(X, w, f, &in->s[2], __builtin_ctz(m)) & 1);
    }
    for (uint32_t m = G; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        w->lpc[l] = w->pc + 1;
        w->ldep[l] = (uint16_t)w->depth;
    }
    if (in->mode != BAR_ARRIVE) { w->barw |= E; b->wmask[w->wid] |= E; }
    w->active = 0;
    bar_release_check(X, c, (int)id);
    resched(w);
    return 0;
}

/* mapa (§9.7.8.22), getctarank (§9.7.8.23): shared::cluster addresses */
static int h_mapa(ex *X, warp *w, const xinsn *in, frame *f, uint32_t G, uint32_t E)
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
        if (r >= X->ncl) {
            fault(X, w, l, w->pc, PTXE_ERROR_LAUNCH_FAILED,
                  "mapa to CTA rank %llu, the cluster has %u CTAs", (unsigned long long)r, X->ncl);
            return -1;
        }
        uint64_t d = ((r + 1) << SHCL_SHIFT) | SHCL_OFF(off);
        wr(f, &in->d[0], l, in->space == SP_GENERIC ? WIN_SHARED + d : d);
    }
    advance(w, w->pc + 1);
    return 0;
}

/* barrier.cluster.arrive / .wait (§9.7.12.3) */
static int h_barcluster(ex *X, warp *w, const xinsn *in, frame *f, uint32_t G, uint32_t E)
{
    if (!E) { advance(w, w->pc + 1); return 0; }
    if (E != w->live) {   /* the instruction waits for the warp's other non-exited threads */
        if (E == G && wsync_wait(w, w->live)) return 0;
        if (in->flags & XF_ALIGNED) {
            fault(X, w, __builtin_ctz(E), w->pc, PTXE_ERROR_LAUNCH_FAILED,
                  "barrier divergence: lanes 0x%08x reach this aligned barrier.cluster while lanes "
                  "0x%08x of the warp are elsewhere",
                  E, w->live & ~E);
            return -1;
        }
    }
    if (in->mode == BAR_ARRIVE) {
        if (w->clarr & E) {
            fault(X, w, __builtin_ctz(w->clarr & E), w->pc, PTXE_ERROR_LAUNCH_FAILED,
                  "barrier.cluster.arrive by a thread that already arrived in this phase");
            return -1;
        }
        w->clarr |= E; w->clok &= ~E;
        X->cl_arrived += (uint32_t)__builtin_popcount(E);
        for (uint32_t m = X->san ? E : 0; m; m &= m - 1) {   /* racecheck: arrivals release */
            san_who t = who(X, w, __builtin_ctz(m), w->pc);
            san_cluster_arrive(X->san, &t);
        }
        advance(w, w->pc + 1);
        clbar_check(X);
        return 0;
    }
    uint32_t none = E & ~w->clarr & ~w->clok, pend = E & w->clarr;
    if (none) {
        fault(X, w, __builtin_ctz(none), w->pc, PTXE_ERROR_LAUNCH_FAILED,
              "barrier.cluster.wait without a preceding barrier.cluster.arrive");
        return -1;
    }
    w->clok &= ~E;
    for (uint32_t m = X->san ? E & ~pend : 0; m; m &= m - 1) {   /* phase complete: acquire */
        san_who t = who(X, w, __builtin_ctz(m), w->pc);
        san_cluster_pass(X->san, &t);
    }
    if (!pend) { advance(w, w->pc + 1); return 0; }
    for (uint32_t m = G; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        w->lpc[l] = w->pc + 1;
        w->ldep[l] = (uint16_t)w->depth;
    }
    w->clw |= pend;
    w->active = 0;
    resched(w);
    return 0;
}

static int h_mbar(ex *X, warp *w, const xinsn *in, frame *f, uint32_t G, uint32_t E)
{
    if (run_mbar(X, w, f, in, E)) return -1;
    advance(w, w->pc + 1);
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
static int h_multimem(ex *X, warp *w, const xinsn *in, frame *f, uint32_t G, uint32_t E)
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
static int h_cpasync(ex *X, warp *w, const xinsn *in, frame *f, uint32_t G, uint32_t E)
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

static int h_bulk(ex *X, warp *w, const xinsn *in, frame *f, uint32_t G, uint32_t E)
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
    mbar b;
    uint8_t *p = mb_ptr(t->X, t->w, t->l, t->w->pc, SP_SHCLUSTER, a, MB_COMPLETE_TX, &b);
    if (!p || mb_tx(t->X, t->w, t->l, t->w->pc, &b, -(int64_t)bytes, a)) return -1;
    mb_step(t->X, t->w, t->l, p, &b, 0);
    mb_put(p, &b);
    return 0;
}
static void tma_fail(void *c, const char *msg)
{
    tma_lane *t = c;
    fault(t->X, t->w, t->l, t->w->pc, PTXE_ERROR_LAUNCH_FAILED, "%s", msg);
}
static int h_tma(ex *X, warp *w, const xinsn *in, frame *f, uint32_t G, uint32_t E)
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

/* nanosleep (§9.7.17.2): give the other warps the processor */
static int h_sleep(ex *X, warp *w, const xinsn *in, frame *f, uint32_t G, uint32_t E)
{
    X->yield = 1;
    advance(w, w->pc + 1);
    return 0;
}

/* shfl, vote, match, redux, elect, bar.warp.sync: the rendezvous of wsync_op */
static int h_wsync(ex *X, warp *w, const xinsn *in, frame *f, uint32_t G, uint32_t E)
{
    return wsync_op(X, w, in, f, G, E);
}

/* activemask (§9.7.12.11) */
static int h_activemask(ex *X, warp *w, const xinsn *in, frame *f, uint32_t G, uint32_t E)
{
    for (uint32_t m = E; m; m &= m - 1) wr(f, &in->d[0], __builtin_ctz(m), G);
    advance(w, w->pc + 1);
    return 0;
}

/* stacksave, stackrestore, alloca (§9.7.15): the lane's stack pointer in local memory */
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
static int h_wgmma(ex *X, warp *w, const xinsn *in, frame *f, uint32_t G, uint32_t E);
static int h_mma(ex *X, warp *w, const xinsn *in, frame *f, uint32_t G, uint32_t E)
{
    if (in->wg) return h_wgmma(X, w, in, f, G, E);
    const xmma *mm = in->mm;
    if (E == 0) { advance(w, w->pc + 1); return 0; }   /* a guard false in every lane */
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

/* tex, tld4, txq, istypep, suld, sust, sured, suq (§9.7.9, §9.7.10): lane by lane, exec/tex.c */
typedef struct { ex *X; warp *w; int l; } tex_cookie;
static uint8_t *tex_mem(void *ck, uint64_t a, unsigned n, int write)
{
    tex_cookie *c = ck;
    return maddr(c->X, c->w, c->l, c->w->pc, SP_GLOBAL, a, n, write, write ? "store" : "load");
}

static int h_tex(ex *X, warp *w, const xinsn *in, frame *f, uint32_t G, uint32_t E)
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

static int h_stack(ex *X, warp *w, const xinsn *in, frame *f, uint32_t G, uint32_t E)
{
    for (uint32_t m = E; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        if (in->op == PTX_I_STACKSAVE) { wr(f, &in->d[0], l, w->lsp[l]); continue; }
        if (in->op == PTX_I_STACKRESTORE) {
            uint64_t a = opv(X, w, f, &in->s[0], l);
            if (a > w->lsp[l]) {
                fault(X, w, l, w->pc, PTXE_ERROR_LAUNCH_FAILED,
                      "stackrestore to 0x%llx above the stack top", (unsigned long long)a);
                return -1;
            }
            w->lsp[l] = a;
            continue;
        }
        uint64_t sz = opv(X, w, f, &in->s[0], l), al = opv(X, w, f, &in->s[1], l);
        if (!al || (al & (al - 1))) al = 8;
        uint64_t a = (w->lsp[l] + al - 1) / al * al;
        if (sz > LOCAL_MAX || a + sz > LOCAL_MAX) {
            fault(X, w, l, w->pc, PTXE_ERROR_LAUNCH_FAILED,
                  "alloca of %llu bytes overflows the %u-byte stack", (unsigned long long)sz,
                  LOCAL_MAX);
            return -1;
        }
        w->lsp[l] = a + sz;
        wr(f, &in->d[0], l, a);
    }
    advance(w, w->pc + 1);
    return 0;
}

/* The handler of each kind (ptx/opcodes.def).  Kinds without one have no implemented row: the
 * loader refuses their instructions (exec column NO), so run_warp never meets them. */
static const exec_fn handlers[PTX_K_COUNT] = {
    [PTX_K_ALU] = h_alu,          [PTX_K_CARRY] = h_alu,        [PTX_K_PACK] = h_alu,
    [PTX_K_LD] = h_ldst,          [PTX_K_ST] = h_ldst,          [PTX_K_ATOM] = h_atom,
    [PTX_K_RED] = h_atom,         [PTX_K_ASYNC] = h_cpasync,    [PTX_K_BULK] = h_bulk,
    [PTX_K_MULTIMEM] = h_multimem,
    [PTX_K_ASYNC_GROUP] = h_nop,  [PTX_K_MBAR] = h_mbar,        [PTX_K_FENCE] = h_fence,
    [PTX_K_BAR] = h_bar,          [PTX_K_BARWARP] = h_wsync,    [PTX_K_BARCLUSTER] = h_barcluster,
    [PTX_K_SHFL] = h_wsync,       [PTX_K_VOTE] = h_wsync,       [PTX_K_MATCH] = h_wsync,
    [PTX_K_REDUX] = h_wsync,      [PTX_K_ELECT] = h_wsync,      [PTX_K_ACTIVEMASK] = h_activemask,
    [PTX_K_BRA] = h_bra,          [PTX_K_BRX] = h_brx,          [PTX_K_CALL] = h_call,
    [PTX_K_RET] = h_ret,          [PTX_K_EXIT] = h_exit,        [PTX_K_TRAP] = h_trap,
    [PTX_K_CVTA] = h_cvta,        [PTX_K_ISSPACEP] = h_isspacep, [PTX_K_MAPA] = h_mapa,
    [PTX_K_MMA] = h_mma,          [PTX_K_TENSORMAP] = h_tma,    [PTX_K_TEX] = h_tex,
    [PTX_K_SURF] = h_tex,
    [PTX_K_GETCTARANK] = h_mapa,  [PTX_K_STACK] = h_stack,      [PTX_K_HINT] = h_nop,
    [PTX_K_POLICY] = h_policy,    [PTX_K_SLEEP] = h_sleep,      [PTX_K_MISC] = h_misc,
};

static double mono_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

#define CLOCK_EVERY 65536u   /* warp-instructions between two looks at the clock */

/* The slow path of the step counter: the step limit and the wall-clock limit (--timeout). */
static int step_check(ex *X, warp *w)
{
    if (X->steps > X->max_steps) {
        fault(X, w, -1, w->pc, PTXE_ERROR_LAUNCH_TIMEOUT,
              "step limit of %llu warp-instructions reached",
              (unsigned long long)X->max_steps);
        return 1;
    }
    if (X->deadline > 0 && mono_now() >= X->deadline) {
        fault(X, w, -1, w->pc, PTXE_ERROR_LAUNCH_TIMEOUT,
              "wall-clock limit of %g s reached after %llu warp-instructions", X->timeout,
              (unsigned long long)X->steps);
        return 1;
    }
    X->check_at = X->steps + CLOCK_EVERY < X->max_steps ? X->steps + CLOCK_EVERY : X->max_steps;
    return 0;
}

/* After a step or time limit: where each warp of the running cluster was, one line per group of
 * lanes at one instruction (PTX line, CTA, warp), at most 64 lines. */
static void where_report(ex *X)
{
    char *o = X->ctx->msg;
    size_t n = sizeof X->ctx->msg, k = strlen(o);
    int lines = 0, more = 0;
    for (uint32_t i = 0; i < X->ncl; i++)
        for (int j = 0; j < X->cl[i].nwarps; j++) {
            warp *w = &X->cl[i].warps[j];
            uint32_t rest = w->live;
            if (w->active)   /* the running group is at w->pc */
                for (uint32_t m = w->active; m; m &= m - 1) w->lpc[__builtin_ctz(m)] = w->pc;
            while (rest) {
                int l0 = __builtin_ctz(rest), pc = w->lpc[l0];
                uint32_t g = 0;
                for (uint32_t m = rest; m; m &= m - 1)
                    if (w->lpc[__builtin_ctz(m)] == pc) g |= 1u << __builtin_ctz(m);
                rest &= ~g;
                if (lines >= 64 || k + 200 >= n) { more++; continue; }
                lines++;
                const xinsn *in = pc >= 0 && pc < X->m->nprog ? &X->prog[pc] : NULL;
                int wait = (g & w->barw) ? 1 : (g & (w->wsync | w->clw)) ? 2 : 0;
                k += (size_t)snprintf(o + k, n - k,
                                      "  CTA (%u,%u,%u) warp %d lanes 0x%08x%s: %s:%d: %s\n",
                                      X->cl[i].ctaid[0], X->cl[i].ctaid[1], X->cl[i].ctaid[2],
                                      w->wid, g,
                                      wait == 1 ? " (waiting at a barrier)"
                                      : wait == 2 ? " (waiting)" : "",
                                      X->m->ast->filename, in ? in->line : 0,
                                      in ? in->text : "?");
            }
        }
    if (more && k + 80 < n)
        snprintf(o + k, n - k, "  ... and %d more groups of lanes\n", more);
}

/* Runs warp w for up to `budget` warp-instructions: pick the group to run (resched), count the
 * step, evaluate the guard, dispatch to the kind's handler.  The one exception is the hot path
 * of the benchmark and of real kernels, register computations with a warp-wide eval_warp: they
 * run here, with the straight-line run of such instructions that follows (same group, no
 * guard), so that the loop's counters stay in registers (measured: 5% of the run time).
 * noinline: inlined into run_cluster/exec_launch it ran 3-4% slower (register pressure). */
__attribute__((noinline)) static int run_warp(ex *X, warp *w, int budget)
{
    int ran = 0;
    if (w->dirty || !w->active) { w->dirty = 0; resched(w); }
    while (ran < budget) {
        if (!w->active) {
            resched(w);
            if (!w->active) {
                /* all non-exited lanes at incomplete rendezvous: nothing can complete them */
                if (w->live && !(w->live & ~w->wrdv)) { wsync_deadlock(X, w); return W_BLOCKED; }
                return w->live ? W_BLOCKED : W_DONE;
            }
        }
        if (++X->steps > X->check_at && step_check(X, w)) return W_BLOCKED;
        ran++; w->ninsn++;
        const xinsn *in = &X->prog[w->pc];
        frame *f = &w->fr[w->depth];
        uint32_t G = w->active, E = G;
        if (in->has_guard) {
            E = 0;
            const uint64_t *g = f->regs + in->guard * 32;
            for (uint32_t m = G; m; m &= m - 1) {
                int l = __builtin_ctz(m);
                E |= (uint32_t)((g[l] ^ in->guard_neg) & 1) << l;
            }
        }
        X->thread_insns += E == ~0u ? 32u : (uint64_t)__builtin_popcount(E);
        if (in->wfn) {   /* warp-wide: the table's eval_warp over [register][lane] arrays */
            uint64_t *regs = f->regs;
            for (;;) {
                const uint64_t *S[ISA_WARP_NSRC];
                uint64_t *D[ISA_WARP_NDST];
                for (int k = 0; k < ISA_WARP_NSRC; k++)
                    S[k] = (in->wsrc[k] ? in->wsrc[k] : regs) + in->wsreg[k];
                for (int k = 0; k < ISA_WARP_NDST; k++)
                    D[k] = ((in->wdsink >> k & 1) ? X->sink : regs) + in->wdreg[k];
                in->wfn(&in->isa, D, S, in->wdm, E);
                advance(w, w->pc + 1);
                if (w->active != G || ran >= budget || X->steps >= X->check_at) break;
                in = &X->prog[w->pc];
                if (!in->wfn || in->has_guard) break;
                X->steps++; ran++; w->ninsn++; E = G;
                X->thread_insns += G == ~0u ? 32u : (uint64_t)__builtin_popcount(G);
            }
            continue;
        }
        exec_fn h = handlers[in->kind];
        if (!h) {
            fault(X, w, -1, w->pc, PTXE_ERROR_LAUNCH_FAILED,
                  "internal: no handler for instruction kind %s", ptx_kind_name(in->kind));
            return W_BLOCKED;
        }
        if (h(X, w, in, f, G, E) || X->fault) return W_BLOCKED;
        if (X->yield) { X->yield = 0; return W_RAN; }
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

/* A warp slot of the previous cluster made new: its frames and local memory are kept (zeroed),
 * everything else is cleared. */
static void recycle_warp(ex *X, warp *w)
{
    frame *fr = w->fr;
    int nfr = w->nfr;
    uint8_t *lmem[32];
    uint32_t lcap[32];
    memcpy(lmem, w->lmem, sizeof lmem);
    memcpy(lcap, w->lcap, sizeof lcap);
    memset(w, 0, sizeof *w);
    w->fr = fr; w->nfr = nfr;
    memcpy(w->lmem, lmem, sizeof lmem);
    memcpy(w->lcap, lcap, sizeof lcap);
    for (int i = 0; i < nfr; i++) {
        uint64_t *regs = fr[i].regs;
        uint8_t *params = fr[i].params;
        memset(regs, 0, ((size_t)X->nregs * 32 + 1) * 8);
        memset(params, 0, (size_t)X->psize * 32 + 1);
        memset(&fr[i], 0, sizeof fr[i]);
        fr[i].regs = regs; fr[i].params = params;
    }
    for (int l = 0; l < 32; l++) if (lmem[l]) memset(lmem[l], 0, lcap[l]);
}

/* The state of a CTA of the launch at `rank` in its cluster.  The first cluster allocates it;
 * later clusters reuse the allocations of the CTA that had the same rank (zeroed), so a launch
 * of many CTAs neither allocates nor frees per CTA (measured: with per-CTA malloc/free the heap
 * top is trimmed and refaulted, 3x the run time of the executor benchmark). */
static int setup_cta(ex *X, cta *c, const xfunc *ef, uint32_t rank)
{
    uint32_t nt = X->block[0] * X->block[1] * X->block[2];
    int nwarps = (int)((nt + 31) / 32), fresh = !c->warps;
    uint32_t ssize = (uint32_t)(((X->m->shared_static + 15) & ~15u) + X->dyn);
    uint8_t *smem = c->smem;
    warp *warps = c->warps;
    uint32_t *wmask[16];
    for (int b = 0; b < 16; b++) wmask[b] = c->bar[b].wmask;
    memset(c, 0, sizeof *c);
    if (fresh && host_charge(X, ssize + 1 + (uint64_t)nwarps * (sizeof(warp) + 16 * 4))) return -1;
    c->smem = fresh ? calloc(ssize + 1, 1) : memset(smem, 0, ssize + 1);
    c->warps = fresh ? calloc((size_t)nwarps, sizeof *c->warps) : warps;
    if (!c->smem || !c->warps) return -1;
    for (int b = 0; b < 16; b++) {
        c->bar[b].wmask =
            fresh ? calloc((size_t)nwarps, 4) : memset(wmask[b], 0, (size_t)nwarps * 4);
        if (!c->bar[b].wmask) return -1;
    }
    c->nthreads = nt;
    c->nwarps = nwarps;
    c->rank = rank;
    c->ssize = ssize;
    for (int i = 0; i < c->nwarps; i++) {
        warp *w = &c->warps[i];
        if (!fresh) recycle_warp(X, w);
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
        for (int j = 0; j < cs[i].nwarps; j++)
            if (cs[i].warps[j].wrdv) { wsync_deadlock(X, &cs[i].warps[j]); return; }
    for (int i = 0; i < ncta; i++)
        for (int j = 0; j < cs[i].nwarps; j++) {
            warp *w = &cs[i].warps[j];
            if (!w->clw) continue;
            int l = __builtin_ctz(w->clw);
            fault(X, w, l, w->lpc[l] - 1, PTXE_ERROR_LAUNCH_FAILED,
                  "cluster barrier deadlock: %u of %u threads of the cluster arrived and no other "
                  "thread can run",
                  X->cl_arrived, X->cl_live);
            return;
        }
    for (int i = 0; i < ncta; i++)
        for (int j = 0; j < cs[i].nwarps; j++) {
            warp *w = &cs[i].warps[j];
            if (!w->barw) continue;
            int l = __builtin_ctz(w->barw);
            int pc = w->lpc[l] - 1;
            if (w->wgpc) {   /* parked at a wgmma.mma_async (h_wgmma) */
                fault(X, w, l, pc, PTXE_ERROR_LAUNCH_FAILED,
                      "wgmma deadlock: warp %d waits for the other warps of its warpgroup "
                      "(§9.7.14.1), which cannot reach this instruction", w->wid);
                return;
            }
            uint32_t arrived = 0, need = 0;
            for (int b = 0; b < 16; b++)
                if (cs[i].bar[b].wmask[j]) {
                    arrived = cs[i].bar[b].arrived;
                    need = cs[i].bar[b].count_given ? cs[i].bar[b].expected
                                                    : cs[i].nthreads - cs[i].nexited;
                }
            fault(X, w, l, pc, PTXE_ERROR_LAUNCH_FAILED,
                  "barrier deadlock: %u of %u threads arrived and no other thread can run", arrived,
                  need);
            return;
        }
    fault(X, NULL, -1, -1, PTXE_ERROR_LAUNCH_FAILED, "deadlock: no thread can make progress");
}

/* The launch shape: grid, block, cluster (a .reqnctapercluster is the default cluster shape),
 * dynamic shared memory, step limit, and its checks.  PTXE_ERROR_INVALID_VALUE with a message. */
static ptxeResult launch_shape(ex *X, const xfunc *ef, const ptxeLaunchConfig *cfg)
{
    ptxeCtx *ctx = X->ctx;
    char *msg = ctx->msg;
    size_t n = sizeof ctx->msg;
    int cfg_cluster = cfg->cluster[0] || cfg->cluster[1] || cfg->cluster[2];
    for (int k = 0; k < 3; k++) {
        X->grid[k] = cfg->grid[k] ? cfg->grid[k] : 1;
        X->block[k] = cfg->block[k] ? cfg->block[k] : 1;
        X->cluster[k] = cfg->cluster[k] ? cfg->cluster[k] : 1;
        if (!cfg_cluster && ef->reqnctapercluster[0] > 0)
            X->cluster[k] = ef->reqnctapercluster[k] > 0 ? (unsigned)ef->reqnctapercluster[k] : 1;
    }
    if (cfg_cluster && ef->reqnctapercluster[0] > 0)
        for (int k = 0; k < 3; k++)
            if (X->cluster[k] !=
                (unsigned)(ef->reqnctapercluster[k] > 0 ? ef->reqnctapercluster[k] : 1)) {
                snprintf(msg, n, "cluster (%u,%u,%u) differs from .reqnctapercluster %d,%d,%d",
                         X->cluster[0], X->cluster[1], X->cluster[2], ef->reqnctapercluster[0],
                         ef->reqnctapercluster[1], ef->reqnctapercluster[2]);
                return PTXE_ERROR_INVALID_VALUE;
            }
    X->explicit_cluster = cfg_cluster || ef->explicitcluster;
    X->dyn = cfg->shared_bytes;
    X->max_steps = cfg->max_steps ? cfg->max_steps : PTXE_DEFAULT_MAX_STEPS;
    X->timeout = cfg->timeout;
    X->check_at = X->max_steps < CLOCK_EVERY ? X->max_steps : CLOCK_EVERY;
    if (!(cfg->timeout >= 0) || cfg->timeout > 1e9) {
        snprintf(msg, n, "timeout %g s, expected 0 (none) or a positive number of seconds",
                 cfg->timeout);
        return PTXE_ERROR_INVALID_VALUE;
    }
    if (cfg->timeout > 0) X->deadline = mono_now() + cfg->timeout;
    uint64_t nt = (uint64_t)X->block[0] * X->block[1] * X->block[2];
    if (!ef->is_entry || !ef->has_body) {
        snprintf(msg, n, "%s is not a kernel (.entry)", ef->name);
        return PTXE_ERROR_INVALID_VALUE;
    }
    if (nt > 1024 || X->block[0] > 1024 || X->block[1] > 1024 || X->block[2] > 64) {
        snprintf(msg, n,
                 "block (%u,%u,%u) has %llu threads, expected at most 1024 (x,y <= 1024, z <= 64)",
                 X->block[0], X->block[1], X->block[2], (unsigned long long)nt);
        return PTXE_ERROR_INVALID_VALUE;
    }
    if (ef->reqntid[0] &&
        (ef->reqntid[0] != (int)X->block[0] || ef->reqntid[1] != (int)X->block[1] ||
         ef->reqntid[2] != (int)X->block[2])) {
        snprintf(msg, n, "block (%u,%u,%u) differs from .reqntid %d,%d,%d", X->block[0],
                 X->block[1], X->block[2], ef->reqntid[0], ef->reqntid[1], ef->reqntid[2]);
        return PTXE_ERROR_INVALID_VALUE;
    }
    for (int k = 0; k < 3; k++)
        if (X->grid[k] % X->cluster[k]) {
            snprintf(msg, n, "grid (%u,%u,%u) is not a multiple of cluster (%u,%u,%u)", X->grid[0],
                     X->grid[1], X->grid[2], X->cluster[0], X->cluster[1], X->cluster[2]);
            return PTXE_ERROR_INVALID_VALUE;
        }
    uint32_t ncl = X->cluster[0] * X->cluster[1] * X->cluster[2];
    if (ncl > 16) {
        snprintf(msg, n, "cluster of %u CTAs, expected at most 16", ncl);
        return PTXE_ERROR_INVALID_VALUE;
    }
    if (X->dyn > 227 * 1024 || X->m->shared_static + X->dyn > 228 * 1024) {
        snprintf(msg, n,
                 "%u bytes of static + %u bytes of dynamic shared memory, expected at most 228 KiB",
                 X->m->shared_static, X->dyn);
        return PTXE_ERROR_INVALID_VALUE;
    }
    return PTXE_SUCCESS;
}

/* The kernel parameter buffer (§5.1.6.1). */
static ptxeResult launch_params(ex *X, const xfunc *ef, void **params)
{
    X->kpsize = ef->kparam_size;
    X->kparams = calloc(X->kpsize + 8, 1);
    if (!X->kparams) return PTXE_ERROR_OUT_OF_MEMORY;
    for (int i = 0; i < ef->nparams; i++) {
        if (!params || !params[i]) {
            snprintf(X->ctx->msg, sizeof X->ctx->msg, "parameter %d of %s is missing", i, ef->name);
            return PTXE_ERROR_INVALID_VALUE;
        }
        memcpy(X->kparams + ef->poff[i], params[i], ef->psz[i]);
    }
    return PTXE_SUCCESS;
}

/* One cluster (cx, cy, cz): its CTAs are set up, their warps interleaved in quanta until all
 * exit, a fault, or no warp can progress (a deadlock); per-warp statistics recorded. */
static void run_cluster(ex *X, cta *cs, const xfunc *ef, const uint32_t cid[3], uint64_t wpc)
{
    uint32_t ncl = X->cluster[0] * X->cluster[1] * X->cluster[2],
             nt = X->block[0] * X->block[1] * X->block[2], k = 0;
    memcpy(X->clusterid, cid, sizeof X->clusterid);
    X->cl = cs; X->ncl = ncl; X->cl_live = ncl * nt; X->cl_arrived = 0;
    for (uint32_t z = 0; z < X->cluster[2]; z++)
    for (uint32_t y = 0; y < X->cluster[1]; y++)
    for (uint32_t x = 0; x < X->cluster[0]; x++, k++) {
        cta *c = &cs[k];
        uint32_t in[3] = { x, y, z };
        if (setup_cta(X, c, ef, k)) {   /* (clears c: the ids come after) */
            host_out_of_memory(X, NULL, -1, -1, "CTA state");
            break;
        }
        for (int d = 0; d < 3; d++) {
            c->ctaid[d] = cid[d] * X->cluster[d] + in[d];
            c->cl_ctaid[d] = in[d];
        }
        if (X->san) san_cta_start(X->san, k, c->ctaid);
    }
    while (!X->fault) {
        int progress = 0, alive = 0;
        for (uint32_t i = 0; i < ncl && !X->fault; i++)
            for (int j = 0; j < cs[i].nwarps && !X->fault; j++) {
                warp *w = &cs[i].warps[j];
                if (!w->live) continue;
                uint64_t before = w->ninsn;
                int r = run_warp(X, w, QUANTUM);
                if (w->ninsn != before) progress = 1;
                if (r != W_DONE) alive = 1;
            }
        if (!alive || X->fault) break;
        if (!progress) { deadlock_report(X, cs, (int)ncl); break; }
    }
    if (X->fault == PTXE_ERROR_LAUNCH_TIMEOUT) {
        size_t k = strlen(ctx_msg(X));
        snprintf(ctx_msg(X) + k, sizeof X->ctx->msg - k, "  where the warps were:\n");
        where_report(X);
    }
    ptxeCtx *ctx = X->ctx;
    for (uint32_t i = 0; i < k; i++) {   /* the CTAs set up (all, unless memory ran out) */
        cta *c = &cs[i];
        uint64_t lin =
            ((uint64_t)c->ctaid[2] * X->grid[1] + c->ctaid[1]) * X->grid[0] + c->ctaid[0];
        for (int j = 0; j < c->nwarps; j++) {
            ctx->per_warp[lin * wpc + (uint64_t)j] = c->warps[j].ninsn;
            ctx->stats.warp_insns += c->warps[j].ninsn;
        }
    }
}

/* The clusters of the grid in order (the CTAs of a cluster run together: co-scheduled).  The
 * host thread's floating-point rounding mode is set to round-to-nearest-even for the launch (the
 * default-rounding paths of ptx/isa.c compute in the current mode) and restored afterwards. */
ptxeResult exec_launch(ptxeFunction *fh, const ptxeLaunchConfig *cfg, void **params)
{
    ptxeModule *m = fh->mod;
    ptxeCtx *ctx = m->ctx;
    const xfunc *ef = &m->funcs[fh->idx];
    ex X;
    memset(&X, 0, sizeof X);
    X.m = m; X.ctx = ctx; X.prog = m->prog; X.funcs = m->funcs;
    X.nregs = m->nregs_max; X.psize = m->psize_max;
    ctx->msg[0] = 0;
    memset(&ctx->stats, 0, sizeof ctx->stats);
    ptxeResult res = launch_shape(&X, ef, cfg);
    if (!res) res = launch_params(&X, ef, params);
    uint64_t nt = (uint64_t)X.block[0] * X.block[1] * X.block[2], wpc = (nt + 31) / 32;
    uint64_t nctas = (uint64_t)X.grid[0] * X.grid[1] * X.grid[2];
    {
        uint64_t limit = ctx->mem_limit ? ctx->mem_limit : PTXE_DEFAULT_MEMORY_LIMIT;
        X.host_left = limit > ctx->mem_used ? limit - ctx->mem_used : 0;
    }
    /* the per-warp statistics: 8 bytes per warp of the grid */
    if (!res && host_charge(&X, (nctas * wpc + 1) * 8)) {
        host_out_of_memory(&X, NULL, -1, -1, "the per-warp statistics");
        res = X.fault;
    }
    if (!res && ctx->per_warp_cap < nctas * wpc) {
        free(ctx->per_warp);
        ctx->per_warp = calloc(nctas * wpc + 1, 8);
        ctx->per_warp_cap = ctx->per_warp ? nctas * wpc : 0;
        if (!ctx->per_warp) {
            host_out_of_memory(&X, NULL, -1, -1, "the per-warp statistics");
            res = X.fault;
        }
    }
    uint32_t ncl = X.cluster[0] * X.cluster[1] * X.cluster[2];
    cta *cs = res ? NULL : calloc(ncl, sizeof *cs);
    if (!res && !cs) res = PTXE_ERROR_OUT_OF_MEMORY;
    if (res) { free(X.kparams); return res; }
    ctx->gridid++;
    san_findings_clear(ctx);
    ctx->pf.n = 0; ctx->pf.dropped = 0;
    if (ctx->checks) {
        uint32_t ssize = (uint32_t)(((m->shared_static + 15) & ~15u) + X.dyn);
        X.san = san_begin(ctx, m, ef->name, X.grid, X.block, X.cluster, ssize);
        X.san_mem = !!(ctx->checks & (PTXE_CHECK_RACECHECK | PTXE_CHECK_INITCHECK));
        const char *tg = strstr(m->ast->target, "sm_");
        X.sm_target = tg ? atoi(tg + 3) : 0;
        if (!X.san) {
            free(cs); free(X.kparams);
            return PTXE_ERROR_OUT_OF_MEMORY;
        }
    }
    heap_launch_begin(ctx);
    int rounding = fegetround();
    if (rounding != FE_TONEAREST) fesetround(FE_TONEAREST);
    uint32_t cid[3];
    for (cid[2] = 0; cid[2] < X.grid[2] / X.cluster[2] && !X.fault; cid[2]++)
        for (cid[1] = 0; cid[1] < X.grid[1] / X.cluster[1] && !X.fault; cid[1]++)
            for (cid[0] = 0; cid[0] < X.grid[0] / X.cluster[0] && !X.fault; cid[0]++)
                run_cluster(&X, cs, ef, cid, wpc);
    if (rounding != FE_TONEAREST) fesetround(rounding);
    for (uint32_t i = 0; i < ncl; i++) free_cta(&cs[i]);
    free(cs);
    free(X.kparams);
    heap_launch_end(ctx, X.san, !X.fault);   /* leaks reported (memcheck), blocks released */
    san_end(X.san);
    ctx->stats.thread_insns = X.thread_insns;
    ctx->stats.nwarps = nctas * wpc;
    ctx->stats.per_warp = ctx->per_warp;
    return X.fault ? X.fault : PTXE_SUCCESS;
}
