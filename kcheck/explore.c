/* kcheck/explore.c — the exploration of `ptxlitmus check` (docs/check.md "Method").
 *
 * Each execution is a launch of the kernel through the executor with hooks (exec/engine.h
 * exec_hooks): the executor computes every value, the hooks add its events to the execution
 * graph (kcheck/graph.h).  A launch first replays its graph: an event the graph already holds
 * is answered from it (a read gets the value of the write the graph says it reads).  Past the
 * graph each new event is a choice, as in GenMC (Kokologiannakis et al., PLDI 2019; TruSt,
 * POPL 2022):
 *   a read      reads the co-latest write of its location (the launch goes on with it); each
 *               other write it may read (not one its own thread overwrote) is a graph of the
 *               work list ("forward revisit");
 *   a write     is placed last in coherence (an atomic's write right after the write it read);
 *               each other place is a graph of the work list; and every read of the location
 *               in the graph that is not in the write's porf-prefix may read it instead
 *               ("backward revisit"): the graph of the events added before that read and of
 *               the write's prefix, the read reading the write, when the events it drops were
 *               each added "maximally" (TruSt's condition: so that no graph is explored twice);
 *   a spin      iteration that changed nothing holds the thread (kcheck/spin.c): an await.
 * A graph the model rules out (kcheck/consist.c) is dropped; a choice with one candidate needs
 * no decision, and a location only one thread touches has one candidate.  An execution ends
 * when every thread exited (its outputs and races are checked), a thread faulted (a trap, an
 * assert, a bad access: a finding if the graph is consistent), or every thread waits: a
 * liveness failure when each awaited read reads the co-latest write (no write will come, under
 * fair scheduling), else a blocked execution (another graph has the awaited write read). */
#include <malloc.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "base/alloc.h"
#include "exec/engine.h"
#include "kcheck/kcheck.h"
#include "kcheck/kint.h"
#include "kcheck/kspin.h"

_Static_assert(KLOC_SHARED == EXEC_LOC_SHARED, "kcheck/graph.h KLOC_SHARED");

enum { KS_NONE, KS_MOOT, KS_BOUND, KS_ERROR, KS_DEAD };

typedef struct { kgraph *g; kref recalc; } kitem;
typedef struct { kitem it; int32_t stamp; int thread; } kpend;

typedef struct { uint64_t addr; size_t size; uint8_t *bytes; } ksave;

typedef struct {
    const kcheck_launch *L;
    const kcheck_opts *O;
    kcheck_result *R;
    ptxeModule *m;
    ptxeCtx *ctx;
    kpcs P;
    kcons *C;
    kspin *S;
    int nth, tpc;               /* threads; threads per CTA */
    int32_t *cta, *cluster;
    ksave *save; int nsave;     /* device memory at the start */
    kitem *st; int nst, cst;    /* the work list (a stack: depth first) */
    kpend *pnd; int npnd, cpnd; /* the current execution's graphs for it (push) */
    int running, by;            /* an execution runs; the thread of the event being added */
    int moot_t, moot_ws;        /* a moot execution: the thread, its iteration voted (wsync) */
    int32_t moot_s;             /* ... the last stamp of its failed iteration */
    /* the current execution */
    kgraph *g;
    int *cur;                   /* per thread: events of g it executed */
    int *back;                  /* per thread: backward branches taken */
    char *exhaust;              /* per thread: 1 runs its bounded spin out; 2 doing so */
    int *ex_lo, *ex_hi;         /* ... the loop's body */
    int stop, faulted, fthread, fpc;
    char fmsg[2048], why[1024];
    double t0, deadline;
    uint64_t races_seen[64][2]; int nraces;
    exec_hooks hooks;
    sched_policy pol;
} kx;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int tid_of(const kx *K, const ex *X, const warp *w, int l)
{
    const cta *c = w->cta;
    int lin = (int)((c->ctaid[2] * X->grid[1] + c->ctaid[1]) * X->grid[0] + c->ctaid[0]);
    return lin * K->tpc + w->wid * 32 + l;
}

/* the explorer stops the launch (a moot execution, a bound, an error) */
static int stop_launch(kx *K, ex *X, warp *w, int l, int why, const char *fmt, ...)
{
    if (!K->stop) {
        K->stop = why;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(K->why, sizeof K->why, fmt, ap);
        va_end(ap);
    }
    fault(X, w, l, w ? w->pc : -1, PTXE_ERROR_LAUNCH_FAILED, "check: %s", K->why);
    return -1;
}

/* a graph of the work list made during an execution: pushed when the execution ends (unless
   a moot execution shows it redundant: flush_pending), by the event that made it */
static void push_now(kx *K, kgraph *g, kref recalc);
static void push(kx *K, kgraph *g, kref recalc)
{
    if (!K->running) { push_now(K, g, recalc); return; }
    if (K->npnd == K->cpnd) {
        K->cpnd = K->cpnd ? 2 * K->cpnd : 64;
        K->pnd = xrealloc(K->pnd, (size_t)K->cpnd * sizeof *K->pnd);
    }
    K->pnd[K->npnd++] = (kpend){ { g, recalc }, K->g->maxstamp, K->by };
}

static void push_now(kx *K, kgraph *g, kref recalc)
{
    if (K->nst == K->cst) {
        K->cst = K->cst ? 2 * K->cst : 64;
        K->st = xrealloc(K->st, (size_t)K->cst * sizeof *K->st);
    }
    K->st[K->nst++] = (kitem){ g, recalc };
    if (getenv("KCHECK_DEBUG")) kg_dump(g, recalc.t >= 0 ? "push (co)" : "push");
}

static const char *where(kx *K, int pc, char *buf, size_t n)
{
    const xinsn *in = &K->m->prog[pc];
    snprintf(buf, n, "%s:%d: %s", K->m->ast->filename, in->line, in->text);
    return buf;
}

/* ---------------------------------------------------------------- revisits */
/* the proxy of an access at pc (§8.6): a bulk copy's chunks are in the asynchronous proxy */
static int async_proxy(const kx *K, const kev *e)
{
    return K->m->prog[e->pc].kind == PTX_K_BULK && !(e->flags & KF_ATOM);
}

/* the position after which an access of thread t to loc (in the asynchronous proxy or not)
   may read or go in coherence: after its own latest write there through the same proxy
   (program order makes them morally strong: SC per location); -1: the initial write */
static int own_latest(const kx *K, const kgraph *g, int loc, int t, int async)
{
    const kloc *L = &g->loc[loc];
    for (int k = L->nco - 1; k >= 0; k--)
        if (L->co[k].t == t && async_proxy(K, kg_ev(g, L->co[k])) == async) return k;
    return -1;
}

/* a co-successor of w (t -1: the initial write) other than `except` in view V */
static int co_after_in(const kgraph *g, int loc, kref w, kref except, const int *V)
{
    const kloc *L = &g->loc[loc];
    for (int k = kg_co_pos(g, loc, w) + 1; k < L->nco; k++)
        if (!kref_eq(L->co[k], except) && kg_in_view(V, L->co[k])) return 1;
    return 0;
}

/* TruSt's maximal-extension condition for the revisit of read r by write w keeping view V */
static int maximal(const kgraph *g, kref r, kref w, const int *V)
{
    const kev *W = kg_ev(g, w);
    const kloc *L = &g->loc[W->loc];
    int p = kg_co_pos(g, W->loc, w);
    if (!(W->flags & KF_ATOM) && p + 1 < L->nco && !kg_in_view(V, L->co[p + 1])) return 0;
    for (int t = 0; t < g->nth; t++)
        for (int i = t == r.t ? r.i : V[t]; i < g->nev[t]; i++) {
            const kev *e = &g->ev[t][i];
            if (!(e->flags & KF_REV) || !(e->flags & KF_MAX)) return 0;
            if (e->kind == KE_R && co_after_in(g, e->loc, e->rf, w, V)) return 0;
            if (e->kind == KE_W && co_after_in(g, e->loc, (kref){ t, i }, w, V)) return 0;
            if (t == r.t && i == r.i) i = V[t] - 1;   /* then the dropped ones */
        }
    return 1;
}

/* reads at pcs a then b (of one thread, nothing between them in its events) are two polls
   of a spin loop found earlier: the same kind of instruction, and a branch out of the loop
   between them (the first one's exit test: an unrolled poll; not `a = x; b = x; if (a != b)
   break;`, whose exit needs the two reads to differ) */
/* the innermost loop of the program text (a backward branch at *hi to *lo) around pcs a and b
   whose every instruction only reads memory, fences or computes (a polling loop that no
   execution has yet gone round three times); 0 when none */
static int read_only_loop(const kx *K, int a, int b, int *lo, int *hi)
{
    int best = -1;
    for (int pc = b; pc < K->m->nprog && best < 0; pc++) {
        const xinsn *in = &K->m->prog[pc];
        if (in->kind == PTX_K_BRA && in->target >= 0 && in->target <= a) best = pc;
        if (in->kind == PTX_K_RET || in->kind == PTX_K_EXIT) break;
    }
    if (best < 0) return 0;
    for (int pc = K->m->prog[best].target; pc <= best; pc++) {
        const xinsn *in = &K->m->prog[pc];
        switch (in->kind) {
        case PTX_K_ALU: case PTX_K_CARRY: case PTX_K_PACK: case PTX_K_LD: case PTX_K_FENCE:
        case PTX_K_BRA: case PTX_K_CVTA: case PTX_K_MAPA: case PTX_K_SLEEP: case PTX_K_TRAP:
        case PTX_K_SYNTAX: case PTX_K_HINT:
            break;
        case PTX_K_MBAR:
            if (in->mode == MB_TRY_WAIT || in->mode == MB_TEST_WAIT) break;
            return 0;
        case PTX_K_ATOM:   /* a poll by an atomic: idempotent when it fails (kcheck/spin.c) */
            break;
        default:
            return 0;
        }
    }
    *lo = K->m->prog[best].target;
    *hi = best;
    return 1;
}

static int polls_twice(const kx *K, int a, int b)
{
    int lo, hi, lo2, hi2;
    if (a >= b || K->m->prog[a].kind != K->m->prog[b].kind) return 0;
    if (!ksp_inside(K->S, a, &lo, &hi) || !ksp_inside(K->S, b, &lo2, &hi2) || lo != lo2) {
        if (!read_only_loop(K, a, b, &lo, &hi)) return 0;
    }
    for (int pc = a + 1; pc < b; pc++) {
        const xinsn *in = &K->m->prog[pc];
        if (in->kind == PTX_K_BRA && (in->target < lo || in->target > hi)) return 1;
    }
    return 0;
}

/* read i of thread t in a spin loop found earlier follows a read of the same location by the
   same kind of instruction there, revisitable too, that read the same write: the graph of its
   revisit is that of the earlier read's but for one more failed read (same_stale's reason) */
static int spin_twin(const kx *K, const kgraph *g, int t, int i)
{
    const kev *r = &g->ev[t][i], *p = &g->ev[t][i - 1];
    if ((r->flags & KF_ATOM) && i >= 2 && ksp_idempotent(g, t, i - 1)) {
        /* an atomic poll (atomicExch(l, 1) reading 1) after another that wrote back what it
           read, reading that write-back: as the earlier poll, one failed poll later */
        const kev *q = &g->ev[t][i - 2];
        return p->loc == r->loc && kref_eq(r->rf, (kref){ t, i - 1 }) && (q->flags & KF_REV) &&
               polls_twice(K, q->pc, r->pc);
    }
    return p->kind == KE_R && p->loc == r->loc && kref_eq(p->rf, r->rf) &&
           (p->flags & KF_REV) && !((p->flags | r->flags) & KF_ATOM) &&
           polls_twice(K, p->pc, r->pc);
}

/* every read of w's location that may read w instead: one graph each on the work list */
static void revisits(kx *K, kgraph *g, kref w)
{
    const kev *W = kg_ev(g, w);
    int nth = g->nth;
    /* a poll's write-back (an atomic that wrote the value it read) gives a read nothing the
       write the poll read does not: its readers read that one */
    if (ksp_idempotent(g, w.t, w.i)) return;
    int *pref = xmalloc((size_t)nth * sizeof *pref), *V = xmalloc((size_t)nth * sizeof *V);
    kg_prefix(g, w, pref);
    for (int t = 0; t < nth; t++)
        for (int i = pref[t]; i < g->nev[t]; i++) {
            const kev *r = &g->ev[t][i];
            if (r->kind != KE_R || r->loc != W->loc || !(r->flags & KF_REV)) continue;
            if (i > pref[t] && spin_twin(K, g, t, i)) continue;
            kg_before(g, r->stamp, V);
            if (V[t] < i + 1) V[t] = i + 1;
            for (int x = 0; x < nth; x++) if (V[x] < pref[x]) V[x] = pref[x];
            if (!maximal(g, (kref){ t, i }, w, V)) continue;
            kgraph *n = kg_copy(g);
            kg_cut(n, V);
            kev *R = &n->ev[t][i];
            R->rf = w;
            R->val = W->val;
            R->stamp = ++n->maxstamp;
            R->flags &= (uint8_t)~KF_PAIR;
            R->flags = (uint8_t)((R->flags & ~KF_MAX) |
                                 (kref_eq(kg_co_max(n, R->loc), w) ? KF_MAX : 0));
            for (int x = 0; x < nth; x++)
                for (int j = 0; j < pref[x] && j < n->nev[x]; j++)
                    n->ev[x][j].flags &= (uint8_t)~KF_REV;
            push(K, n, (kref){ -1, 0 });
            K->R->revisits++;
        }
    free(pref);
    free(V);
}

/* ---------------------------------------------------------------- events */
static int check_now(kx *K, kgraph *g, kverdict *v)
{
    char err[512];
    K->R->checks++;
    if (kcons_check(K->C, g, v, err, sizeof err)) {
        snprintf(K->R->err, sizeof K->R->err, "%s", err);
        return -1;
    }
    return v->consistent;
}

/* whether co position p of loc (-1: the initial write) is followed by another thread's poll
   write-back of it (an atomic that read it and wrote its value back) */
static int written_back(const kgraph *g, int t, int loc, int p)
{
    if (p + 1 >= g->loc[loc].nco) return 0;
    kref c = g->loc[loc].co[p + 1];
    return c.t != t && ksp_idempotent(g, c.t, c.i) &&
           kref_eq(g->ev[c.t][c.i - 1].rf, p >= 0 ? g->loc[loc].co[p] : (kref){ -1, 0 });
}

/* candidate p of a read of thread t (at or above lo) left out: for a plain read, another
   thread's poll write-back right after the write it read, itself a candidate (the same value,
   nothing more; revisits() likewise).  Never for an atomic's read: two atomics that read the
   same write are mutually exclusive (PTX ISA §8.10.3 Atomicity; GenMC's RMW rule), so an atomic
   after a write-back reads that write-back, not the write before it; leaving the write-backs
   out made each such graph inconsistent (the exchange lock of three CTAs was never explored
   with the third CTA taking it first: suites/check/lock_order) */
static int skip_poll(const kgraph *g, int t, int loc, int p, int lo, int atomic)
{
    return !atomic && p >= 0 && p - 1 >= lo && written_back(g, t, loc, p - 1);
}

/* a new read of thread t: the co-latest write it may read goes on (when the model allows), the
   others are graphs of the work list */
/* A read of a spin loop found earlier (kcheck/spin.c) right after a read of the same location
   by the same thread in that loop that read an older write than the latest (another graph has
   the newer one read there): it reads what that read read.  The graphs in which it reads a
   newer write are those of the earlier read reading it (two po-adjacent reads of one location:
   whatever the later may read the earlier may), with the loop exiting one read sooner: the
   reduction spin-assume makes, but for the counters (nvcc unrolls a polling loop 16 times, and
   each of its reads could be the first to see the flag).  The co position of the write to read,
   or -2: no restriction */
static int same_stale(kx *K, const kgraph *g, int t, int loc, int pc, int lo)
{
    if (!g->nev[t]) return -2;
    const kev *p = &g->ev[t][g->nev[t] - 1];
    if (ksp_idempotent(g, t, g->nev[t] - 1)) {
        /* an atomic poll after a failed one that read an old write and wrote it back: it
           reads the end of that write-back's chain (the same value; the graphs in which it
           reads a newer write are those of the earlier poll reading it) */
        const kev *q = &g->ev[t][g->nev[t] - 2];
        if (p->loc != loc || (q->flags & KF_MAX) || !polls_twice(K, q->pc, pc)) return -2;
        int pos = kg_co_pos(g, loc, (kref){ t, g->nev[t] - 1 });
        while (written_back(g, t, loc, pos)) pos++;
        return pos >= lo ? pos : -2;
    }
    if (p->kind != KE_R || p->loc != loc || (p->flags & (KF_MAX | KF_ATOM)) ||
        !polls_twice(K, p->pc, pc))
        return -2;
    int pos = p->rf.t < 0 ? -1 : kg_co_pos(g, loc, p->rf);
    return pos >= lo ? pos : -2;
}

static int new_read(kx *K, ex *X, warp *w, const exec_access *a, int t, int loc, uint64_t *v)
{
    kgraph *g = K->g;
    const kloc *L = &g->loc[loc];
    int lo = own_latest(K, g, loc, t, K->m->prog[a->pc].kind == PTX_K_BULK),
        n = L->nco;
    kev e = { .kind = KE_R, .size = (uint8_t)a->size, .pc = a->pc, .loc = loc,
              .flags = KF_REV, .opb = a->b, .opc = a->c };
    e.space = (uint8_t)(a->space == SP_GLOBAL ? KSP_GLOBAL
                        : a->space == SP_SHARED ? KSP_SHARED : KSP_SHARED_CLUSTER);
    if (a->kind == EH_RMW_R) e.flags |= (uint8_t)(KF_ATOM | (a->red ? KF_RED : 0));
    /* candidates: co positions n-1 down to lo (-1: the initial write) */
    int chosen = -2, only = same_stale(K, g, t, loc, a->pc, lo);
    kref r = { t, g->nev[t] };
    for (int p = n - 1; p >= lo && chosen < -1; p--) {
        kref src = p < 0 ? (kref){ -1, 0 } : g->loc[loc].co[p];
        if (skip_poll(g, t, loc, p, lo, a->kind == EH_RMW_R) || (only > -2 && p != only))
            continue;
        e.rf = src;
        e.val = kg_wval(g, loc, src);
        e.flags = (uint8_t)((e.flags & ~KF_MAX) | (p == n - 1 ? KF_MAX : 0));
        r = kg_add(g, t, &e);
        kverdict vd;
        int ok = p == lo ? 1 : check_now(K, g, &vd);   /* the last candidate: checked later */
        if (ok < 0) return stop_launch(K, X, w, a->lane, KS_ERROR, "%s", K->R->err);
        if (ok) { chosen = p; break; }
        g->nev[t]--;
        g->maxstamp--;
        if (p == n - 1) {   /* the graph before the read may be the one ruled out */
            int before = check_now(K, g, &vd);
            if (before < 0) return stop_launch(K, X, w, a->lane, KS_ERROR, "%s", K->R->err);
            if (!before) return stop_launch(K, X, w, a->lane, KS_DEAD, "inconsistent");
        }
    }
    if (chosen == -2) return stop_launch(K, X, w, a->lane, KS_DEAD, "inconsistent");
    for (int p = chosen - 1; p >= lo && only < -1; p--) {   /* the others, from the latest */
        if (skip_poll(g, t, loc, p, lo, a->kind == EH_RMW_R)) continue;
        kgraph *c = kg_copy(g);
        kev *x = kg_ev(c, r);
        x->rf = p < 0 ? (kref){ -1, 0 } : c->loc[loc].co[p];
        x->val = kg_wval(c, loc, x->rf);
        x->flags &= (uint8_t)~KF_MAX;
        push(K, c, (kref){ -1, 0 });
    }
    *v = kg_ev(g, r)->val;
    return 0;
}

/* a new write of thread t: last in coherence (an atomic's: right after the write it read) */
static int new_write(kx *K, ex *X, warp *w, const exec_access *a, int t, int loc, uint64_t v)
{
    kgraph *g = K->g;
    kev e = { .kind = KE_W, .size = (uint8_t)a->size, .pc = a->pc, .loc = loc, .val = v,
              .flags = KF_REV | KF_MAX, .rf = { -1, 0 }, .opb = a->b, .opc = a->c };
    e.space = (uint8_t)(a->space == SP_GLOBAL ? KSP_GLOBAL
                        : a->space == SP_SHARED ? KSP_SHARED : KSP_SHARED_CLUSTER);
    int pos = g->loc[loc].nco, alts = 1,
        lo = own_latest(K, g, loc, t, K->m->prog[a->pc].kind == PTX_K_BULK) + 1;
    if (a->kind == EH_RMW_W) {
        kev *rd = g->nev[t] ? &g->ev[t][g->nev[t] - 1] : NULL;
        if (!rd || rd->kind != KE_R || rd->loc != loc || !(rd->flags & KF_ATOM))
            return stop_launch(K, X, w, a->lane, KS_ERROR, "internal: an atomic's write without "
                               "its read");
        rd->flags |= KF_PAIR;
        e.flags |= (uint8_t)(KF_ATOM | (a->red ? KF_RED : 0));
        pos = kg_co_pos(g, loc, rd->rf) + 1;
        if (pos < g->loc[loc].nco) e.flags &= (uint8_t)~KF_MAX;
        alts = 0;
    }
    kref r = kg_add(g, t, &e);
    kg_co_insert(g, loc, pos, r);
    for (int p = alts ? pos - 1 : -1; p >= lo; p--) {   /* the other places, latest first */
        kgraph *c = kg_copy(g);
        kg_co_remove(c, loc, r);
        kg_co_insert(c, loc, p, r);
        kg_ev(c, r)->flags &= (uint8_t)~KF_MAX;
        push(K, c, r);
    }
    revisits(K, g, r);
    return 0;
}

/* the event this thread executes next in the graph being replayed, checked against what it
   does; NULL past the graph */
static kev *replay(kx *K, ex *X, warp *w, int l, int t, int kind, int pc, int loc, int *bad)
{
    *bad = 0;
    if (K->cur[t] >= K->g->nev[t]) return NULL;
    kev *e = &K->g->ev[t][K->cur[t]];
    if (e->kind != kind || e->pc != pc || (loc >= 0 && e->loc != loc)) {
        char a[300], b[300];
        where(K, e->pc, a, sizeof a);
        where(K, pc, b, sizeof b);
        *bad = stop_launch(K, X, w, l, KS_ERROR,
                           "internal: the replay of thread %d diverged (the graph has %s, the "
                           "thread ran %s)", t, a, b);
        return NULL;
    }
    K->cur[t]++;
    return e;
}

static uint64_t memval(const exec_access *a)
{
    uint64_t v = 0;
    memcpy(&v, a->mem, a->size);
    return v;
}

static int hk_access(void *ctx, ex *X, warp *w, const exec_access *a, uint64_t *v)
{
    kx *K = ctx;
    int t = tid_of(K, X, w, a->lane), rd = a->kind == EH_LOAD || a->kind == EH_RMW_R, bad;
    kgraph *g = K->g;
    if (K->exhaust[t] == 2 && rd && a->pc >= K->ex_lo[t] && a->pc <= K->ex_hi[t]) {
        int c, l = kg_loc(g, a->loc, a->size, memval(a), &c);   /* a bounded spin running out */
        *v = kg_wval(g, l, kg_co_max(g, l));
        return 0;
    }
    K->exhaust[t] = K->exhaust[t] == 2 ? 0 : K->exhaust[t];
    int conflict, loc = kg_loc(g, a->loc, a->size, memval(a), &conflict);
    if (conflict) {
        char b[300];
        return stop_launch(K, X, w, a->lane, KS_ERROR,
                           "a %u-byte access at %s meets accesses of another size to the same "
                           "bytes (mixed-size accesses are not modelled)",
                           a->size, where(K, a->pc, b, sizeof b));
    }
    kev *e = replay(K, X, w, a->lane, t, rd ? KE_R : KE_W, a->pc, loc, &bad);
    if (bad) return -1;
    if (e) {
        if (rd) *v = e->val;
        return 0;
    }
    const char *no = kpc_refused(&K->P, a->pc);
    if (no) {
        char b[300];
        return stop_launch(K, X, w, a->lane, KS_ERROR, "%s: %s", where(K, a->pc, b, sizeof b), no);
    }
    K->by = t;
    int rc = rd ? new_read(K, X, w, a, t, loc, v) : new_write(K, X, w, a, t, loc, *v);
    K->cur[t] = g->nev[t];
    return rc;
}

static int hk_fence(void *ctx, ex *X, warp *w, int l, int pc)
{
    kx *K = ctx;
    int t = tid_of(K, X, w, l), bad;
    if (K->exhaust[t] == 2 && pc >= K->ex_lo[t] && pc <= K->ex_hi[t]) return 0;
    if (replay(K, X, w, l, t, KE_F, pc, -1, &bad) || bad) return bad;
    const char *no = kpc_refused(&K->P, pc);
    if (no) {
        char b[300];
        return stop_launch(K, X, w, l, KS_ERROR, "%s: %s", where(K, pc, b, sizeof b), no);
    }
    kev e = { .kind = KE_F, .pc = pc, .loc = -1, .flags = KF_REV | KF_MAX, .rf = { -1, 0 } };
    kg_add(K->g, t, &e);
    K->cur[t] = K->g->nev[t];
    return 0;
}

static int hk_barrier(void *ctx, ex *X, warp *w, int l, int pc, int id, uint32_t gen)
{
    kx *K = ctx;
    int t = tid_of(K, X, w, l), bad;
    kev *r = replay(K, X, w, l, t, KE_BAR, pc, -1, &bad);
    if (bad) return -1;
    if (r) {
        if (r->bmode == KB_WSYNC) { r->gen = gen; return 0; }   /* the warp's count, as it runs */
        if (r->gen != gen)
            return stop_launch(K, X, w, l, KS_ERROR, "internal: the replay of thread %d met "
                               "another barrier phase", t);
        return 0;
    }
    kev e = { .kind = KE_BAR, .pc = pc, .loc = -1, .flags = KF_REV | KF_MAX, .gen = gen,
              .rf = { -1, 0 } };
    e.bmode = id == -1 ? KB_CARRIVE : id == -2 ? KB_CWAIT : id == -3 ? KB_WSYNC
              : X->prog[pc].mode == BAR_ARRIVE ? KB_ARRIVE : KB_WAIT;
    e.bar = id < 0 ? 0 : id;
    kg_add(K->g, t, &e);
    K->cur[t] = K->g->nev[t];
    return 0;
}

/* events [a, a + len) and [b, b + len) of thread t: the same instructions and locations */
static int same_seq(const kgraph *g, int t, int a, int b, int len)
{
    for (int i = 0; i < len; i++) {
        const kev *x = &g->ev[t][a + i], *y = &g->ev[t][b + i];
        if (x->kind != y->kind || x->pc != y->pc || x->loc != y->loc) return 0;
    }
    return 1;
}

/* two failed spin iterations [from, n) of thread t (kcheck/spin.c): they are dropped and the
   thread waits after the iteration before them (when it is the same loop body; else after the
   first of the two), whose reads are the awaited ones; unless one of those read an old write
   (another graph has the newer one read: moot, as GenMC's) */
/* whether some read of the graph reads event (t, i), but for thread t's reads from index
   drop on (a failed iteration's poll reads the write-back of the iteration before) */
static int read_by_some(const kgraph *g, int t, int i, int drop)
{
    for (int u = 0; u < g->nth; u++)
        for (int k = 0; k < (u == t ? drop : g->nev[u]); k++)
            if (g->ev[u][k].kind == KE_R && g->ev[u][k].rf.t == t && g->ev[u][k].rf.i == i)
                return 1;
    return 0;
}

/* a moot execution: thread t's failed iteration, events [a, n), read an old write */
static void moot_at(kx *K, int t, int a, int n)
{
    const kgraph *g = K->g;
    K->moot_t = t;
    K->moot_s = 0;
    K->moot_ws = 0;
    for (int i = a < 0 ? 0 : a; i < n; i++) {
        if (g->ev[t][i].stamp > K->moot_s) K->moot_s = g->ev[t][i].stamp;
        K->moot_ws |= g->ev[t][i].kind == KE_BAR && g->ev[t][i].bmode == KB_WSYNC;
    }
}

static int await(kx *K, ex *X, warp *w, int l, int t, int pc, int target, int from, int counts)
{
    kgraph *g = K->g;
    int n = g->nev[t], len = (n - from) / 2, keep = from;
    if (from < len || !same_seq(g, t, from - len, from, len)) keep = from + len;
    ksp_learn(K->S, target, pc, len);   /* a spin loop, whatever this execution does next */
    /* a poll's write-back is dropped with its iteration: not when another thread read it */
    for (int i = keep; i < n; i++)
        if (g->ev[t][i].kind == KE_W && read_by_some(g, t, i, keep)) return 0;
    for (int i = keep; i < n; i++)
        if (g->ev[t][i].kind == KE_W) kg_co_remove(g, g->ev[t][i].loc, (kref){ t, i });
    for (int i = keep - len; i < n; i++) {
        const kev *e = &g->ev[t][i];
        if (e->kind == KE_R && (!(e->flags & KF_MAX) || !(e->flags & KF_REV))) {
            moot_at(K, t, keep - len, n);
            return stop_launch(K, X, w, l, KS_MOOT, "moot");
        }
    }
    g->nev[t] = keep;
    K->cur[t] = keep;
    kev e = { .kind = KE_BLOCK, .pc = pc, .loc = -1, .flags = KF_REV | KF_MAX, .bar = target,
              .gen = (uint32_t)len, .opb = (uint64_t)counts, .rf = { -1, 0 } };
    kg_add(g, t, &e);
    K->cur[t]++;
    return 1;
}

/* events [n - len, n) of thread t are an iteration of the spin loop (target, pc) that only
   read (and fenced, voted, wrote back what a poll read): its reads counted, and *stale set
   when one read an old write or is not revisitable; -1 when it did something else */
static int read_only_iter(const kgraph *g, int t, int n, int len, int pc, int target, int *stale)
{
    int reads = 0;
    *stale = 0;
    for (int i = n - len; i < n; i++) {
        const kev *e = &g->ev[t][i];
        if ((e->kind == KE_W && ksp_idempotent(g, t, i)) ||
            (e->kind == KE_BAR && e->bmode == KB_WSYNC))
            continue;
        if ((e->kind != KE_R && e->kind != KE_F) || e->pc < target || e->pc > pc ||
            ((e->flags & KF_PAIR) && !ksp_idempotent(g, t, i + 1)))
            return -1;
        reads += e->kind == KE_R;
        *stale |= e->kind == KE_R && (!(e->flags & KF_MAX) || !(e->flags & KF_REV));
    }
    return reads;
}

/* an iteration of a spin loop found earlier that read an old write and failed: another graph
   has the newer write read there (GenMC's spin-assume moots such an execution) */
static int stale_spin(kx *K, int t, int pc, int target)
{
    const kgraph *g = K->g;
    int len = ksp_known(K->S, target, pc), n = g->nev[t], stale;
    if (!len || n < len) return 0;
    return read_only_iter(g, t, n, len, pc, target, &stale) >= 0 && stale;
}

/* a replayed graph in which thread t went round a spin loop found earlier after a whole
   iteration that only read (events [n - len, n)), and the graph goes on in the loop: the loop
   exits in a later iteration.  With spin-assume the thread waits after such an iteration, and
   the graphs in which that iteration's reads read the newer writes are explored from there
   (GenMC's spin-assume keeps one iteration); this graph is redundant but for the iteration
   counters (a loop nvcc unrolled 16 times would otherwise exit at 3 x 16 places) */
static int spun_again(kx *K, int t, int pc, int target)
{
    const kgraph *g = K->g;
    int len = ksp_known(K->S, target, pc), n = K->cur[t], stale;
    if (!len || n < len || n >= g->nev[t]) return 0;
    const kev *next = &g->ev[t][n];
    if (next->pc < target || next->pc > pc || next->kind == KE_BLOCK) return 0;
    return read_only_iter(g, t, n, len, pc, target, &stale) > 0;
}

static int hk_backedge(void *ctx, ex *X, warp *w, int l, int pc, int target)
{
    kx *K = ctx;
    int t = tid_of(K, X, w, l), from, counts;
    kgraph *g = K->g;
    if (K->cur[t] < g->nev[t] && g->ev[t][K->cur[t]].kind == KE_BLOCK &&
        g->ev[t][K->cur[t]].bar == target) {
        K->cur[t]++;
        if (K->exhaust[t] != 1) return 1;   /* still waiting */
        K->exhaust[t] = 2;   /* run the bounded spin out: no events, the latest values */
        K->ex_lo[t] = target;
        K->ex_hi[t] = pc;
        return 0;
    }
    if (K->exhaust[t] == 2) return 0;
    if (K->cur[t] < g->nev[t]) {   /* replaying: the loop is not yet where the graph ends */
        if (spun_again(K, t, pc, target)) {
            int len = ksp_known(K->S, target, pc);
            moot_at(K, t, K->cur[t] - len, K->cur[t]);
            return stop_launch(K, X, w, l, KS_MOOT, "moot");
        }
        ksp_backedge(K->S, g, t, K->cur[t], pc, target, w->fr[w->depth].regs, l, w->depth, &from,
                     &counts);
        return 0;
    }
    if (K->O->unroll && ++K->back[t] > K->O->unroll)
        return stop_launch(K, X, w, l, KS_BOUND, "unroll");
    if (stale_spin(K, t, pc, target)) {
        int len = ksp_known(K->S, target, pc);
        moot_at(K, t, g->nev[t] - len, g->nev[t]);
        return stop_launch(K, X, w, l, KS_MOOT, "moot");
    }
    if (!ksp_backedge(K->S, g, t, g->nev[t], pc, target, w->fr[w->depth].regs, l, w->depth,
                      &from, &counts))
        return 0;
    return await(K, X, w, l, t, pc, target, from, counts);
}

static int hk_unseen(void *ctx, ex *X, warp *w, int pc)
{
    kx *K = ctx;
    char b[300];
    return stop_launch(K, X, w, -1, KS_ERROR,
                       "%s: its memory accesses are not events of check yet (docs/check.md "
                       "\"Limits\")", where(K, pc, b, sizeof b));
}

static void hk_fault(void *ctx, ex *X, warp *w, int l, int pc)
{
    kx *K = ctx;
    if (K->stop || K->faulted) return;
    K->faulted = 1;
    K->fthread = w && l >= 0 ? tid_of(K, X, w, l) : -1;
    K->fpc = pc;
    snprintf(K->fmsg, sizeof K->fmsg, "%.2000s", X->ctx->msg);
}

/* ---------------------------------------------------------------- one execution */
static void restore_memory(kx *K)
{
    for (int i = 0; i < K->nsave; i++)
        ptxeMemcpyHtoD(K->ctx, K->save[i].addr, K->save[i].bytes, K->save[i].size);
}

static kcheck_finding *add_finding(kx *K, int kind, int thread, int pc)
{
    kcheck_result *R = K->R;
    R->f = xrealloc(R->f, (size_t)(R->nf + 1) * sizeof *R->f);
    kcheck_finding *f = &R->f[R->nf++];
    memset(f, 0, sizeof *f);
    f->kind = kind; f->thread = thread; f->pc = pc;
    f->a = f->b = (kref){ -1, -1 };
    f->g = kg_copy(K->g);
    f->uses = (int64_t)R->executions;
    return f;
}

/* the expected outputs, from the final values (co-latest writes, else memory) */
static void check_expect(kx *K)
{
    for (int i = 0; i < K->L->nexpect; i++) {
        const kcheck_expect *x = &K->L->expect[i];
        int c, l = kg_loc(K->g, x->dev, 0, 0, &c);
        uint64_t v = 0;
        if (l >= 0 && K->g->loc[l].size == x->size) v = kg_wval(K->g, l, kg_co_max(K->g, l));
        else ptxeMemcpyDtoH(K->ctx, &v, x->dev, x->size);
        if (v == x->value) continue;
        for (int k = 0; k < K->R->nf; k++)   /* each output once */
            if (K->R->f[k].kind == KC_EXPECT && K->R->f[k].pc == i) return;
        kcheck_finding *f = add_finding(K, KC_EXPECT, -1, i);
        snprintf(f->msg, sizeof f->msg, "%s is %llu, expected %llu", x->what,
                 (unsigned long long)v, (unsigned long long)x->value);
        return;
    }
}

static void report_race(kx *K, const kverdict *v)
{
    const kev *a = kg_ev(K->g, v->race_a), *b = kg_ev(K->g, v->race_b);
    uint64_t pa = (uint64_t)(a->pc < b->pc ? a->pc : b->pc), pb = (uint64_t)(a->pc < b->pc ? b->pc : a->pc);
    for (int i = 0; i < K->nraces; i++)
        if (K->races_seen[i][0] == pa && K->races_seen[i][1] == pb) return;
    if (K->nraces < 64) { K->races_seen[K->nraces][0] = pa; K->races_seen[K->nraces++][1] = pb; }
    kcheck_finding *f = add_finding(K, KC_RACE, v->race_a.t, a->pc);
    f->a = v->race_a; f->b = v->race_b;
    char x[300], y[300];
    snprintf(f->msg, sizeof f->msg,
             "data race (§8.7.1): %s by thread %d and %s by thread %d are conflicting accesses "
             "of one location that are neither morally strong nor ordered by causality",
             where(K, a->pc, x, sizeof x), v->race_a.t, where(K, b->pc, y, sizeof y),
             v->race_b.t);
}

/* held threads and whether every awaited read reads the co-latest write; what each waits for
   (one line per thread) into why */
static int hang(kx *K, int *held, char *why, size_t n)
{
    kgraph *g = K->g;
    int all = 1;
    size_t k = 0;
    *held = 0;
    why[0] = 0;
    for (int t = 0; t < g->nth; t++) {
        int ne = g->nev[t];
        if (!ne || g->ev[t][ne - 1].kind != KE_BLOCK) continue;
        (*held)++;
        int len = (int)g->ev[t][ne - 1].gen;
        char td[96], ptx[300], cu[200], ln[64];
        kx_thread_desc(K->R->grid, K->R->block, t, td, sizeof td);
        for (int i = ne - 1 - len; i < ne - 1; i++) {
            const kev *e = &g->ev[t][i];
            if (e->kind != KE_R) continue;
            /* a poll reads the latest value when its own write-back is the latest write */
            int latest = kref_eq(e->rf, kg_co_max(g, e->loc)) ||
                         (ksp_idempotent(g, t, i + 1) &&
                          kref_eq(kg_co_max(g, e->loc), ((kref){ t, i + 1 })));
            all &= latest;
            kx_where(K->L->fn, e->pc, ptx, sizeof ptx, cu, sizeof cu);
            kx_loc_name(K->L->fn, g->loc[e->loc].key, g->loc[e->loc].size, ln, sizeof ln);
            if (k + 400 < n)
                k += (size_t)snprintf(why + k, n - k, "  %s waits at %s%s%s%s, reading %s = %llu%s\n",
                                      td, ptx, cu[0] ? " (" : "", cu, cu[0] ? ")" : "", ln,
                                      (unsigned long long)e->val,
                                      latest ? ", the latest value" : "");
        }
    }
    return *held && all;
}

static void ended(kx *K, ptxeResult res, int exhausting);

/* The graphs an execution made go on the work list, in the order they were made.  In a moot
   execution, those made after the failed iteration that read an old write by another thread
   are dropped: each replays that iteration, which fails alike (its outcome is its own thread's
   reads, unless it votes with its warp: then the warp's are kept), and is moot again. */
static void flush_pending(kx *K)
{
    for (int i = 0; i < K->npnd; i++) {
        kpend *p = &K->pnd[i];
        int keep = K->stop != KS_MOOT || K->moot_t < 0 || p->stamp <= K->moot_s ||
                   p->thread == K->moot_t || (K->moot_ws && p->thread / 32 == K->moot_t / 32);
        if (keep) push_now(K, p->it.g, p->it.recalc);
        else { kg_free(p->it.g); K->R->moot++; }
    }
    K->npnd = 0;
}

static void run(kx *K, kgraph *g, int exhausting)
{
    K->g = g;
    memset(K->cur, 0, (size_t)K->nth * sizeof *K->cur);
    memset(K->back, 0, (size_t)K->nth * sizeof *K->back);
    if (!exhausting) memset(K->exhaust, 0, (size_t)K->nth);
    K->stop = K->faulted = 0;
    K->fmsg[0] = K->why[0] = 0;
    ksp_reset(K->S);
    restore_memory(K);
    ptxeLaunchConfig cfg = *K->L->cfg;
    if (K->deadline > 0) cfg.timeout = K->deadline - now_s() > 0.01 ? K->deadline - now_s() : 0.01;
    if (getenv("KCHECK_DEBUG")) kg_dump(g, "start");
    K->running = 1;
    K->moot_t = -1;
    ptxeResult res = exec_launch_policy(K->L->fn, &cfg, K->L->args, &K->pol);
    K->running = 0;
    flush_pending(K);
    K->R->executions++;
    if (getenv("KCHECK_DEBUG")) {
        kg_dump(g, "end");
        fprintf(stderr, "  stop %d faulted %d: %s %s\n", K->stop, K->faulted, K->why, K->fmsg);
    }
    ended(K, res, exhausting);
}

/* a hang: each held bounded spin is run out once (the latest values, no events), to find what
   the kernel does when its bound is reached */
static void exhaust(kx *K)
{
    kgraph *g = kg_copy(K->g);
    int any = 0;
    for (int t = 0; t < g->nth; t++) {
        int n = g->nev[t];
        K->exhaust[t] = 0;
        if (!n || g->ev[t][n - 1].kind != KE_BLOCK) continue;
        const kev *b = &g->ev[t][n - 1];
        if (b->opb) { K->exhaust[t] = 1; any = 1; }   /* a bounded spin */
    }
    if (!any) { kg_free(g); return; }
    int nf = K->R->nf;
    run(K, g, 1);
    kg_free(g);
    if (K->R->nf > nf) {   /* the run out found something: it replaces the hang */
        kcheck_finding *h = &K->R->f[nf - 1], *x = &K->R->f[nf];
        char msg[sizeof x->msg];
        snprintf(msg, sizeof msg, "%.1000s\nthen, when the bounded spin gives up:\n%.1000s",
                 h->msg, x->msg);
        snprintf(x->msg, sizeof x->msg, "%s", msg);
        kg_free(h->g);
        memmove(h, h + 1, (size_t)(K->R->nf - nf) * sizeof *h);
        K->R->nf--;
    }
}

static void ended(kx *K, ptxeResult res, int exhausting)
{
    kcheck_result *R = K->R;
    if (K->stop == KS_MOOT) { R->moot++; return; }
    if (K->stop == KS_DEAD) { R->inconsistent++; return; }   /* ruled out on the way */
    if (K->stop == KS_BOUND) {
        snprintf(R->bound, sizeof R->bound, "--unroll %d (a thread took more backward branches "
                 "in one execution)", K->O->unroll);
        return;
    }
    if (K->stop == KS_ERROR) { snprintf(R->err, sizeof R->err, "%s", K->why); R->status = KC_ERROR; return; }
    if (res == PTXE_ERROR_LAUNCH_TIMEOUT && !K->faulted) {
        snprintf(R->bound, sizeof R->bound, "--timeout");
        return;
    }
    for (int t = 0; t < K->nth && !res; t++)
        if (K->cur[t] < K->g->nev[t] && K->g->ev[t][K->cur[t]].kind != KE_BLOCK) {
            snprintf(R->err, sizeof R->err, "internal: thread %d exited before the end of its "
                     "replayed events", t);
            R->status = KC_ERROR;
            return;
        }
    kverdict v;
    int ok = check_now(K, K->g, &v);
    if (ok < 0) { R->status = KC_ERROR; return; }
    if (!ok) { R->inconsistent++; return; }
    if (res == PTXE_ERROR_LAUNCH_TIMEOUT) {
        snprintf(R->bound, sizeof R->bound, "the step limit or --timeout within one execution");
        return;
    }
    if (K->faulted && strstr(K->fmsg, "deadlock")) {
        char why[1200];
        int held, h = hang(K, &held, why, sizeof why);
        if (held && !h) { R->blocked++; return; }
        kcheck_finding *f = add_finding(K, held ? KC_HANG : KC_DEADLOCK, K->fthread, K->fpc);
        if (held)
            snprintf(f->msg, sizeof f->msg,
                     "liveness: every thread waits forever: each waiting thread's spin reads the "
                     "latest value of its location, and no thread that could write it again can "
                     "run (fair scheduling makes no difference)\n%s", why);
        else snprintf(f->msg, sizeof f->msg, "%.2000s", K->fmsg);
        if (held && !exhausting) exhaust(K);
        return;
    }
    if (K->faulted) {
        const xinsn *in = K->fpc >= 0 ? &K->m->prog[K->fpc] : NULL;
        int kind = !in || in->kind != PTX_K_TRAP ? KC_FAULT
                   : strncmp(in->text, "call", 4) && !strstr(in->text, "__assertfail") ? KC_TRAP
                                                                                        : KC_ASSERT;
        kcheck_finding *f = add_finding(K, kind, K->fthread, K->fpc);
        snprintf(f->msg, sizeof f->msg, "%s", K->fmsg);
        return;
    }
    R->complete++;
    if (v.race) report_race(K, &v);
    check_expect(K);
}

/* ---------------------------------------------------------------- the exploration */
static int setup(kx *K, char *err, size_t n)
{
    const kcheck_launch *L = K->L;
    K->m = L->fn->mod;
    K->ctx = K->m->ctx;
    unsigned g[3], b[3], cl[3];
    for (int d = 0; d < 3; d++) {
        g[d] = L->cfg->grid[d] ? L->cfg->grid[d] : 1;
        b[d] = L->cfg->block[d] ? L->cfg->block[d] : 1;
        cl[d] = L->cfg->cluster[d] ? L->cfg->cluster[d] : 1;
        const xfunc *ef = &K->m->funcs[L->fn->idx];
        if (!L->cfg->cluster[0] && ef->reqnctapercluster[0] > 0)
            cl[d] = ef->reqnctapercluster[d] > 0 ? (unsigned)ef->reqnctapercluster[d] : 1;
        K->R->grid[d] = g[d]; K->R->block[d] = b[d];
    }
    uint64_t nctas = (uint64_t)g[0] * g[1] * g[2], tpc = (uint64_t)b[0] * b[1] * b[2];
    if (nctas * ((tpc + 31) / 32 * 32) > 4096) {
        snprintf(err, n, "found a launch of %llu CTAs of %llu threads, expected at most 4096 "
                 "threads (check explores small launches: a few CTAs, a few warps)",
                 (unsigned long long)nctas, (unsigned long long)tpc);
        return -1;
    }
    K->tpc = (int)((tpc + 31) / 32 * 32);
    K->nth = (int)nctas * K->tpc;
    K->R->nth = K->nth;
    K->cta = xcalloc((size_t)K->nth, sizeof *K->cta);
    K->cluster = xcalloc((size_t)K->nth, sizeof *K->cluster);
    for (int t = 0; t < K->nth; t++) {
        uint32_t c = (uint32_t)(t / K->tpc), x = c % g[0], y = c / g[0] % g[1], z = c / g[0] / g[1];
        K->cta[t] = (int32_t)c;
        K->cluster[t] = (int32_t)(((z / cl[2]) * (g[1] / cl[1]) + y / cl[1]) * (g[0] / cl[0]) +
                                  x / cl[0]);
    }
    K->cur = xcalloc((size_t)K->nth, sizeof *K->cur);
    K->back = xcalloc((size_t)K->nth, sizeof *K->back);
    K->exhaust = xcalloc((size_t)K->nth, 1);
    K->ex_lo = xcalloc((size_t)K->nth, sizeof *K->ex_lo);
    K->ex_hi = xcalloc((size_t)K->nth, sizeof *K->ex_hi);
    K->P = kx_pcs(L->fn);   /* each instruction read once by the litmus front end */
    K->C = kcons_new(K->O->model_file, K->O->model_text, &K->P, K->O->bundled, err, n);
    if (!K->C) return -1;
    K->S = ksp_new(K->nth, K->m->nregs_max);
    /* every allocation's bytes: each execution starts from them */
    K->nsave = K->ctx->nallocs;
    K->save = xcalloc((size_t)K->nsave + 1, sizeof *K->save);
    for (int i = 0; i < K->nsave; i++) {
        galloc *a = &K->ctx->allocs[i];
        K->save[i].addr = a->addr;
        K->save[i].size = a->size;
        K->save[i].bytes = xmalloc(a->size + 1);
        if (a->host) memcpy(K->save[i].bytes, a->host, a->size);
    }
    K->hooks = (exec_hooks){ K,           hk_access, hk_fence, hk_barrier,
                             hk_backedge, hk_fault,  hk_unseen };
    K->pol = sched_its;
    K->pol.name = "check";
    K->pol.hooks = &K->hooks;
    return 0;
}

static void teardown(kx *K)
{
    for (int i = 0; i < K->nst; i++) kg_free(K->st[i].g);
    free(K->st);
    free(K->pnd);
    for (int i = 0; i < K->nsave; i++) free(K->save[i].bytes);
    free(K->save);
    kcons_free(K->C);
    ksp_free(K->S);
    kx_pcs_free(&K->P);
    free(K->cta); free(K->cluster); free(K->cur); free(K->back); free(K->exhaust);
    free(K->ex_lo); free(K->ex_hi);
}

static int stop_now(kx *K)
{
    kcheck_result *R = K->R;
    if (R->status == KC_ERROR) return 1;
    for (int i = 0; i < R->nf; i++)   /* races and outputs: go on looking for a trap */
        if (R->f[i].kind != KC_RACE && R->f[i].kind != KC_EXPECT) return 1;
    if (K->O->max_executions && R->executions >= K->O->max_executions) {
        snprintf(R->bound, sizeof R->bound, "--max-executions %llu",
                 (unsigned long long)K->O->max_executions);
        return 1;
    }
    if (K->deadline > 0 && now_s() >= K->deadline) {
        snprintf(R->bound, sizeof R->bound, "--timeout %g", K->O->timeout);
        return 1;
    }
    return 0;
}

int kcheck_run(const kcheck_launch *L, const kcheck_opts *o, kcheck_result *r)
{
    memset(r, 0, sizeof *r);
    /* the model's relations are n x n tables made and dropped by the thousand: from the heap,
       not each its own mapping (measured: page faults and zeroing were a third of the time) */
    mallopt(M_MMAP_THRESHOLD, 64 << 20);
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
    kx K;
    memset(&K, 0, sizeof K);
    K.L = L; K.O = o; K.R = r;
    K.t0 = now_s();
    K.deadline = o->timeout > 0 ? K.t0 + o->timeout : 0;
    if (setup(&K, r->err, sizeof r->err)) {
        r->status = KC_ERROR;
        teardown(&K);
        return -1;
    }
    push(&K, kg_new(K.nth, K.cta, K.cluster), (kref){ -1, 0 });
    int first = 1;
    while (K.nst && !stop_now(&K)) {
        kitem it = K.st[--K.nst];
        if (!first) {
            kverdict v;
            int ok = check_now(&K, it.g, &v);
            if (ok <= 0) {
                kg_free(it.g);
                if (ok < 0) { r->status = KC_ERROR; break; }
                r->inconsistent++;
                continue;
            }
            if (it.recalc.t >= 0) revisits(&K, it.g, it.recalc);
        }
        first = 0;
        run(&K, it.g, 0);
        kg_free(it.g);
        K.g = NULL;
    }
    if (r->status != KC_ERROR)
        r->status = r->nf ? KC_FOUND : r->bound[0] || K.nst ? KC_BOUNDED : KC_CLEAN;
    if (r->status == KC_BOUNDED && !r->bound[0]) snprintf(r->bound, sizeof r->bound, "?");
    r->seconds = now_s() - K.t0;
    teardown(&K);
    return r->status == KC_ERROR ? -1 : 0;
}

void kcheck_result_free(kcheck_result *r)
{
    for (int i = 0; i < r->nf; i++) kg_free(r->f[i].g);
    free(r->f);
    r->f = NULL;
    r->nf = 0;
}

/* ---------------------------------------------------------------- the module, for reports */
kpcs kx_pcs(const ptxeFunction *fn)
{
    const ptxeModule *m = fn->mod;
    const char **text = xcalloc((size_t)m->nprog + 1, sizeof *text);
    uint8_t *kind = xcalloc((size_t)m->nprog + 1, 1);
    int *line = xcalloc((size_t)m->nprog + 1, sizeof *line);
    for (int pc = 0; pc < m->nprog; pc++) {
        text[pc] = m->prog[pc].text;
        kind[pc] = m->prog[pc].kind;
        line[pc] = m->prog[pc].line;
    }
    return (kpcs){ m->nprog, text, kind, line, NULL };
}

void kx_pcs_free(kpcs *P)
{
    free((void *)P->text); free((void *)P->kind); free((void *)P->line);
    kpcs_free(P);
}

void kx_where(const ptxeFunction *fn, int pc, char *ptx, size_t np, char *cuda, size_t nc)
{
    const ptxeModule *m = fn->mod;
    cuda[0] = 0;
    if (pc < 0 || pc >= m->nprog) { snprintf(ptx, np, "?"); return; }
    const xinsn *in = &m->prog[pc];
    snprintf(ptx, np, "%s:%d: %s", m->ast->filename, in->line, in->text);
    if (in->src_line) {
        const char *f = in->src_file > 0 && in->src_file < m->ast->nfiles &&
                                m->ast->files[in->src_file]
                            ? m->ast->files[in->src_file] : "?";
        snprintf(cuda, nc, "%s:%d", f, in->src_line);
    }
}

static void ident(char *s)
{
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9')))
            *s = '_';
}

void kx_loc_name(const ptxeFunction *fn, uint64_t key, unsigned size, char *buf, size_t n)
{
    if (key & EXEC_LOC_SHARED) {
        snprintf(buf, n, "shm%u_%llu", (unsigned)(key >> 32 & 0x7fffffff),
                 (unsigned long long)(key & 0xffffffff));
        return;
    }
    const ptxeCtx *ctx = fn->mod->ctx;
    for (int i = 0; i < ctx->nallocs; i++) {
        const galloc *g = &ctx->allocs[i];
        if (key < g->addr || key >= g->addr + g->size || !g->name) continue;
        uint64_t off = key - g->addr;
        char nm[64];
        snprintf(nm, sizeof nm, "%s", g->name);
        ident(nm);
        if (size && off % size == 0) snprintf(buf, n, "%s_%llu", nm, (unsigned long long)(off / size));
        else snprintf(buf, n, "%s_b%llu", nm, (unsigned long long)off);
        return;
    }
    snprintf(buf, n, "g_%llx", (unsigned long long)key);
}

int kx_mbar_done(uint64_t state, uint64_t opnd, int parity)
{
    return exec_mbar_done(state, opnd, parity);
}

void kx_thread_desc(const unsigned grid[3], const unsigned block[3], int t, char *b, size_t n)
{
    unsigned tpc = (block[0] * block[1] * block[2] + 31) / 32 * 32;
    unsigned c = (unsigned)t / tpc, l = (unsigned)t % tpc;
    snprintf(b, n, "thread (%u,%u,%u) of CTA (%u,%u,%u)", l % block[0], l / block[0] % block[1],
             l / block[0] / block[1], c % grid[0], c / grid[0] % grid[1], c / grid[0] / grid[1]);
}
