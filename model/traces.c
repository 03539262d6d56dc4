/* model/traces.c — per-thread paths with concrete values.
 *
 * A thread is executed symbolically-by-enumeration: every read may return any value of its
 * location's domain, every branch is decided by the concrete register values, and each complete
 * path becomes a trace (events in program order §8.9.1, dependencies, final registers).
 * What a register computation yields comes from exec/isa (the executor's semantics).
 * A backward jump may be taken at most `unroll` times per branch instruction; a path that would
 * take one more is cut (not a complete execution) and the thread reports bound_hit. */
#include "model/event.h"
#include "model/mbarrier.h"
#include "base/alloc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

double mclock_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

#define TW 4                 /* taint bitset words: events per trace <= 256 */
typedef struct { uint64_t w[TW]; } bits;

static void bits_or(bits *a, const bits *b) { for (int i = 0; i < TW; i++) a->w[i] |= b->w[i]; }
static void bits_set(bits *a, int i) { a->w[i >> 6] |= 1ull << (i & 63); }

typedef struct {
    const lit_test *t;
    const lit_thread *th;
    int ti;
    const mdomain *dom;      /* per atom */
    const matoms *at;
    const mlimits *lim;
    mthread_traces *out;
    char *err;
    size_t errlen;
    int failed;
    int timed_out;
    unsigned steps;
    mevent *ev;  int nev;
    mdep *dep;   int ndep, capdep;
    /* spin-loop reduction: live registers at loop heads, visits on the current path */
    int rw;                  /* words per register bitset */
    uint64_t *live;          /* (nins+1) x rw: registers live on entry */
    unsigned char *head;     /* instruction is the target of a backward jump */
    struct visit { int pc, nev; int64_t *regs; } *vis;
    int spin_from;       /* set by loop_head_visit when it cuts: the repeated iteration's start */
    int nvis, capvis;
} walker;

static void fail_at(walker *w, const lit_insn *in, const char *msg)
{
    if (w->failed) return;
    snprintf(w->err, w->errlen, "%s:%d:%d: %s", w->t->file, in->line, in->col, msg);
    w->failed = 1;
}

static int64_t opnd_val(const walker *w, const lit_opnd *o, const int64_t *regs)
{
    switch (o->k) {
    case OPD_REG: return regs[o->reg];
    case OPD_IMM: return o->imm;
    case OPD_SYM: return lit_sym_addr(o->sym) + o->off;
    default: return 0;
    }
}

static void opnd_taint(const lit_opnd *o, const bits *taint, bits *acc)
{
    if (o->k == OPD_REG) bits_or(acc, &taint[o->reg]);
}

/* Which reads an event depends on, by kind (Dat3M's addr, data, ctrl): the reads that
   produced its address, its values, and the branch conditions and guard on its path. */
typedef struct { bits addr, data, ctrl; } deps;

/* push an event with its dependencies */
static int push_event(walker *w, const lit_insn *in, mevent e, const deps *d)
{
    if (w->nev >= w->lim->max_events || w->nev >= TW * 64) {
        char m[160];
        snprintf(m, sizeof m,
                 "found a path of thread %s with more than %d events, expected at most %d (limit "
                 "--max-events)",
                 w->th->name, w->lim->max_events, w->lim->max_events);
        fail_at(w, in, m);
        return -1;
    }
    e.po = w->nev;
    e.thread = w->ti;
    w->ev[w->nev] = e;
    for (int i = 0; i < TW * 64; i++) {
        int kind = (d->addr.w[i >> 6] >> (i & 63) & 1) * MDEP_ADDR |
                   (d->data.w[i >> 6] >> (i & 63) & 1) * MDEP_DATA |
                   (d->ctrl.w[i >> 6] >> (i & 63) & 1) * MDEP_CTRL;
        if (!kind) continue;
        if (w->ndep == w->capdep) {
            w->capdep = w->capdep ? w->capdep * 2 : 64;
            w->dep = xrealloc(w->dep, (size_t)w->capdep * sizeof *w->dep);
        }
        w->dep[w->ndep++] = (mdep){ i, w->nev, kind };
    }
    w->nev++;
    return 0;
}

static void save_trace(walker *w, const int64_t *regs)
{
    mthread_traces *o = w->out;
    if (o->ntr >= w->lim->max_traces) {
        if (!w->failed) {
            snprintf(w->err, w->errlen,
                     "%s:1:1: found more than %d paths in thread %s, expected at most %d (limit "
                     "--max-traces; lower --unroll)",
                     w->t->file, w->lim->max_traces, w->th->name, w->lim->max_traces);
            w->failed = 1;
        }
        return;
    }
    o->tr = xrealloc(o->tr, (size_t)(o->ntr + 1) * sizeof *o->tr);
    mtrace *tr = &o->tr[o->ntr++];
    tr->hang = MHANG_NONE;
    tr->spin_from = tr->hang_insn = -1;
    tr->nev = w->nev;
    tr->ev = xmalloc((size_t)(w->nev ? w->nev : 1) * sizeof *tr->ev);
    if (w->nev) memcpy(tr->ev, w->ev, (size_t)w->nev * sizeof *tr->ev);
    tr->ndep = w->ndep;
    tr->dep = xmalloc((size_t)(w->ndep ? w->ndep : 1) * sizeof *tr->dep);
    if (w->ndep) memcpy(tr->dep, w->dep, (size_t)w->ndep * sizeof *tr->dep);
    tr->regs = xmalloc((size_t)(w->th->nregs ? w->th->nregs : 1) * sizeof *tr->regs);
    if (w->th->nregs) memcpy(tr->regs, regs, (size_t)w->th->nregs * sizeof *tr->regs);
}

/* a path that never ends: the events so far, hanging at instruction pc */
static void save_hang(walker *w, const int64_t *regs, int kind, int spin_from, int pc)
{
    int n0 = w->out->ntr;
    save_trace(w, regs);
    if (w->out->ntr == n0) return;
    mtrace *tr = &w->out->tr[n0];
    tr->hang = kind;
    tr->spin_from = spin_from;
    tr->hang_insn = pc;
}

/* The raw values the bytes [off, off+size) of location loc may hold: every combination of
   the values of the atoms they cover (ISA §8.9.7: a read may return each byte from another
   write), little-endian. */
static int read_values(walker *w, const lit_insn *in, int loc, int off, int size, mdomain *out)
{
    const matoms *at = w->at;
    int a0 = -1, a1 = -1;
    for (int a = at->first[loc]; a < at->first[loc] + at->count[loc]; a++) {
        if (at->a[a].off == off) a0 = a;
        if (at->a[a].off + at->a[a].size == off + size) a1 = a + 1;
    }
    if (a0 < 0 || a1 <= a0) {
        /* an access through a register address that the atoms do not cut yet: read 0 for now;
           mprogram_build cuts at this event's bytes and enumerates again (program.c) */
        out->v = xmalloc(sizeof *out->v);
        out->v[0] = 0;
        out->n = 1;
        return 0;
    }
    long total = 1;
    for (int a = a0; a < a1; a++) {
        total *= w->dom[a].n;
        if (total > 65536) {
            fail_at(w, in,
                    "found a read whose bytes may combine more than 65536 ways, expected fewer "
                    "(lower --unroll)");
            return -1;
        }
    }
    out->v = xmalloc((size_t)(total ? total : 1) * sizeof *out->v);
    out->n = 0;
    for (long k = 0; k < total; k++) {
        long r = k;
        uint64_t v = 0;
        for (int a = a0; a < a1; a++) {
            const mdomain *d = &w->dom[a];
            v |= (uint64_t)d->v[r % d->n] << (8 * (at->a[a].off - off));
            r /= d->n;
        }
        out->v[out->n++] = (int64_t)v;
    }
    return 0;
}

/* byte offset of the access into its location */
static int64_t addr_off(const walker *w, const lit_insn *in, const int64_t *regs)
{
    if (in->addr.k == OPD_SYM) return in->addr.off;
    return (regs[in->addr.reg] + in->addr.off - LIT_ADDR_BASE) % LIT_ADDR_STRIDE;
}

/* A barrier id or thread count computed at run time must be valid (§9.7.12.1). */
static int check_barrier(walker *w, const lit_insn *in, mevent *e)
{
    char m[320];
    if (e->bar_id < 0 || e->bar_id > 15) {
        snprintf(m, sizeof m, "found the barrier %lld, expected a barrier number 0..15 (§9.7.12.1)",
                 (long long)e->bar_id);
        fail_at(w, in, m);
        return -1;
    }
    if (!e->bar_has_cnt) return 0;
    int unit = in->bar_unit ? in->bar_unit : 1, n = 0;
    /* Dat3M's quorum under Dat3M's events: any number; one the CTA cannot reach holds every
       thread that arrives (solver/query.c dat3m_barriers) */
    if (unit == 1 && w->lim->sem.dat3m_barriers) return 0;
    for (int i = 0; i < w->t->nth; i++)
        n += w->t->th[i].gpu == w->th->gpu && w->t->th[i].cta == w->th->cta;
    if (unit == 1 && (e->bar_cnt < 1 || e->bar_cnt > n)) {
        snprintf(m, sizeof m,
                 "found the quorum %lld, expected 1..%d: the test places %d thread%s in CTA %d "
                 "(under Dat3M's events, --model ptx-v7.5 or --events dat3m, a quorum never "
                 "reached holds the threads that arrive)",
                 (long long)e->bar_cnt, n, n, n == 1 ? "" : "s", w->th->cta);
        fail_at(w, in, m);
        return -1;
    }
    if (e->bar_cnt <= 0 || e->bar_cnt % unit || e->bar_cnt / unit > n) {
        snprintf(m, sizeof m,
                 "found the thread count %lld, expected %s (the test places %d thread%s in CTA %d)",
                 (long long)e->bar_cnt,
                 unit == 32 ? "a positive multiple of 32, at most 32 per thread"
                            : "1 or more, at most one per thread",
                 n, n == 1 ? "" : "s", w->th->cta);
        fail_at(w, in, m);
        return -1;
    }
    e->bar_cnt /= unit;
    return 0;
}

static int resolve_addr(walker *w, const lit_insn *in, const int64_t *regs, int *sym)
{
    if (in->addr.k == OPD_SYM) { *sym = in->addr.sym; return 0; }
    int64_t v = regs[in->addr.reg] + in->addr.off;
    int64_t base = v - (v - LIT_ADDR_BASE) % LIT_ADDR_STRIDE;
    *sym = v >= LIT_ADDR_BASE ? lit_addr_sym(w->t, base) : -1;
    if (*sym >= 0) {
        const lit_sym *l = &w->t->sym[w->t->sym[*sym].loc];
        int64_t off = v - base;
        int sz = in->size ? in->size : l->size;
        if ((!in->size && off) || off + sz > l->size || off % sz) {
            char m[200];
            snprintf(m, sizeof m,
                     "found an access at byte %lld of %s (%d bytes), expected an aligned access "
                     "inside the location",
                     (long long)off, w->t->sym[*sym].name, l->size);
            fail_at(w, in, m);
            return -1;
        }
        return 0;
    }
    if (*sym < 0) {
        char m[200];
        snprintf(m, sizeof m,
                 "found register %%%s holding %lld used as an address, expected the address of a "
                 "location (initialise it with P%d:%s=x)",
                 w->th->regs[in->addr.reg], (long long)v, w->ti, w->th->regs[in->addr.reg]);
        fail_at(w, in, m);
        return -1;
    }
    return 0;
}

/* ---------- values and widths ----------
   Registers hold the value an instruction's result type gives (sign-extended for signed
   types, zero-extended otherwise; the Dat3M dialect's untyped values are 64-bit signed).
   Memory events carry the raw bits of the bytes they access (ISA §8.2: a location is the
   bytes an access names).  lit_value_of and lit_bits_of convert. */

static uint64_t mask_bits(unsigned n) { return n >= 64 ? ~0ull : (1ull << n) - 1; }

/* access type and size of a memory instruction: an untyped access is the whole location */
static isa_type access_type(const lit_test *t, const lit_insn *in, int sym)
{
    return in->type ? in->type : t->sym[t->sym[sym].loc].type;
}
static int access_size(const lit_test *t, const lit_insn *in, int sym)
{
    return in->size ? in->size : t->sym[t->sym[sym].loc].size;
}

/* Value a destination receives, as the type the ISA gives that destination (isa_dst_type:
   predicates 0/1, .u32 for popc/bfind, twice the width for .wide, ...). */
static int64_t alu_result(const lit_insn *in, int k, uint64_t v)
{
    isa_type t = isa_dst_type(&in->alu, k);
    return isa_type_is_float(t) || t == ISA_T_PRED ? (int64_t)(v & mask_bits(isa_type_bits(t)))
                                                   : isa_value(t, v);
}

static int cmp_holds(lit_cmp c, int64_t a, int64_t b)
{
    switch (c) {
    case CMP_EQ: return a == b;
    case CMP_NE: return a != b;
    case CMP_LT: return a < b;
    case CMP_GT: return a > b;
    case CMP_LE: return a <= b;
    default: return a >= b;
    }
}

/* Liveness of registers (backward dataflow over the thread's control flow): a register is
   live when some path reads it before redefining it; the registers the condition observes
   are live at the end. */
static void use_opnd(uint64_t *set, const lit_opnd *o)
{
    if (o->k == OPD_REG) set[o->reg >> 6] |= 1ull << (o->reg & 63);
}

static void compute_liveness(walker *w, const unsigned char *observed)
{
    const lit_thread *th = w->th;
    int n = th->nins, rw = w->rw;
    w->live = xcalloc((size_t)(n + 1) * (size_t)rw, sizeof *w->live);
    w->head = xcalloc((size_t)(n + 1), 1);
    for (int r = 0; r < th->nregs; r++)
        if (observed[r]) w->live[(size_t)n * (size_t)rw + (size_t)(r >> 6)] |= 1ull << (r & 63);
    for (int pc = 0; pc < n; pc++) {
        const lit_insn *in = &th->ins[pc];
        if ((in->k == LI_BRANCH || in->k == LI_GOTO) && in->target <= pc) w->head[in->target] = 1;
    }
    uint64_t *tmp = xmalloc((size_t)rw * sizeof *tmp);
    for (int changed = 1; changed;) {
        changed = 0;
        for (int pc = n - 1; pc >= 0; pc--) {
            const lit_insn *in = &th->ins[pc];
            int fall = in->k != LI_GOTO || in->guard >= 0;
            int jump = in->k == LI_BRANCH || in->k == LI_GOTO;
            for (int k = 0; k < rw; k++) {
                uint64_t out = 0;
                if (fall) out |= w->live[(size_t)(pc + 1) * (size_t)rw + (size_t)k];
                if (jump) out |= w->live[(size_t)in->target * (size_t)rw + (size_t)k];
                tmp[k] = out;
            }
            if (in->guard < 0)   /* a guarded definition may not happen: it kills nothing */
                for (int d = 0; d < in->ndst; d++)
                    if (in->dst[d].k == OPD_REG)
                        tmp[in->dst[d].reg >> 6] &= ~(1ull << (in->dst[d].reg & 63));
            for (int k = 0; k < in->nsrc; k++) use_opnd(tmp, &in->src[k]);
            if (in->k == LI_BAR && in->bar == BAR_RED) use_opnd(tmp, &in->bar_pred);
            use_opnd(tmp, &in->addr);
            if (in->guard >= 0) tmp[in->guard >> 6] |= 1ull << (in->guard & 63);
            for (int k = 0; k < rw; k++)
                if (tmp[k] != w->live[(size_t)pc * (size_t)rw + (size_t)k]) {
                    w->live[(size_t)pc * (size_t)rw + (size_t)k] = tmp[k];
                    changed = 1;
                }
        }
    }
    free(tmp);
}

/* An atomic operation that writes the value it read (a failed atom.cas under
   msemantics.cas_fail_writes): with --liveness, an iteration whose only writes are such leaves
   memory as it found it and may repeat forever (a spin lock that is never released); the solver
   then lets its write be the coherence-last one (build_fair_spins).  Without --liveness it is
   an effect like any write: removing it from an execution can give another read a new
   from-read edge, so the spin-loop reduction's argument does not cover it and the loop is
   bounded by --unroll. */
static int writes_back(const mevent *e)
{
    return e->k == EV_RMW && e->atomic && !e->mbar && e->rval == e->wval;
}

/* At a loop head: a path that comes back with the same live registers and performed no
   write and no barrier since its last visit is dominated by the path without that iteration
   (removing reads and fences from a consistent execution leaves it consistent: every axiom of
   §8.10 is an acyclicity or irreflexivity condition over relations that only shrink), so it
   is cut.  Otherwise the visit is recorded.  Returns 1 to cut. */
static int loop_head_visit(walker *w, int pc, const int64_t *regs)
{
    const uint64_t *lv = &w->live[(size_t)pc * (size_t)w->rw];
    for (int v = w->nvis - 1; v >= 0; v--) {
        const struct visit *x = &w->vis[v];
        if (x->pc != pc) continue;
        int effect = 0;
        for (int k = x->nev; k < w->nev && !effect; k++)
            effect = (w->ev[k].k == EV_W || w->ev[k].k == EV_RMW || w->ev[k].k == EV_BAR) &&
                     !(w->lim->liveness && writes_back(&w->ev[k]));
        if (effect) break;   /* earlier visits are before this effect too */
        int same = 1;
        for (int r = 0; r < w->th->nregs && same; r++)
            if (lv[r >> 6] >> (r & 63) & 1) same = x->regs[r] == regs[r];
        if (same) { w->spin_from = x->nev; return 1; }
    }
    if (w->nvis == w->capvis) {
        w->capvis = w->capvis ? 2 * w->capvis : 16;
        w->vis = xrealloc(w->vis, (size_t)w->capvis * sizeof *w->vis);
    }
    struct visit *x = &w->vis[w->nvis++];
    x->pc = pc;
    x->nev = w->nev;
    x->regs = xmalloc((size_t)(w->th->nregs ? w->th->nregs : 1) * sizeof *x->regs);
    memcpy(x->regs, regs, (size_t)w->th->nregs * sizeof *x->regs);
    return 0;
}

typedef struct { int64_t *regs; bits *taint; int *back; } wstate;

static wstate state_clone(const walker *w, const wstate *s)
{
    int nr = w->th->nregs, ni = w->th->nins;
    wstate c;
    c.regs = xmalloc((size_t)(nr ? nr : 1) * sizeof *c.regs);
    c.taint = xmalloc((size_t)(nr ? nr : 1) * sizeof *c.taint);
    c.back = xmalloc((size_t)(ni ? ni : 1) * sizeof *c.back);
    memcpy(c.regs, s->regs, (size_t)nr * sizeof *c.regs);
    memcpy(c.taint, s->taint, (size_t)nr * sizeof *c.taint);
    memcpy(c.back, s->back, (size_t)ni * sizeof *c.back);
    return c;
}

static void state_free(wstate *s) { free(s->regs); free(s->taint); free(s->back); }

static void walk(walker *w, int pc, wstate s, bits ctrl);

/* bar.red (§9.7.12.1): a barrier that waits like bar.sync; "the c predicate (or its complement)
   from all threads ... are combined using the specified reduction operator" and the result is
   written to every waiting thread.  The result comes from the other participants, not from
   memory: one child per result the instance may give (popc: 0..count threads with c true, in
   threads, each litmus thread a warp of bar_unit threads with the same c; and, or: 0 or 1),
   limited by this thread's own contribution.  The event carries the contribution in wval and
   the result in rval; solver/query.c ties the result to the contributions of the instance. */
static void bar_red(walker *w, const lit_insn *in, int pc, mevent e, const wstate *s,
                    const deps *on, bits ctrl)
{
    int mine = (s->regs[in->bar_pred.reg] != 0) ^ in->bar_pred_neg;
    deps don = *on;
    opnd_taint(&in->bar_pred, s->taint, &don.data);
    e.wval = mine;
    e.rval = 0;
    int mark = w->nev, dmark = w->ndep;
    if (push_event(w, in, e, &don)) return;
    if (w->lim->liveness) save_hang(w, s->regs, MHANG_BARRIER, -1, pc);   /* waits forever */
    w->nev = mark;
    w->ndep = dmark;
    int64_t unit = in->bar_unit ? in->bar_unit : 1, lo, hi;
    if (in->bar_op == BRED_POPC) { lo = mine; hi = e.bar_cnt - 1 + mine; }
    else if (in->bar_op == BRED_AND) { lo = 0; hi = mine; }
    else { lo = mine; hi = 1; }
    for (int64_t r = lo; r <= hi && !w->failed; r++) {
        mevent ce = e;
        ce.rval = in->bar_op == BRED_POPC ? r * unit : r;
        if (push_event(w, in, ce, &don)) return;
        wstate cs = state_clone(w, s);
        if (in->dst[0].k == OPD_REG) {
            cs.regs[in->dst[0].reg] = ce.rval;
            cs.taint[in->dst[0].reg] = s->taint[in->bar_pred.reg];   /* the own predicate's reads */
        }
        walk(w, pc + 1, cs, ctrl);
        w->nev = mark;
        w->ndep = dmark;
    }
}

/* What one step of walk did: went on at *pc, or ended this walk (the path forked into the
   walks of its children, ended, or failed). */
enum { STEP_ON, STEP_END };

/* LI_ALU: a register computation through ptx/isa.c (isa_eval). */
static int step_alu(walker *w, const lit_insn *in, int *pc, wstate *s)
{
    uint64_t src[4] = { 0 }, dst[2] = { 0 };
    bits t = { { 0 } };
    for (int k = 0; k < in->nsrc; k++) {
        src[k] = (uint64_t)opnd_val(w, &in->src[k], s->regs) & mask_bits(isa_src_bits(&in->alu, k));
        opnd_taint(&in->src[k], s->taint, &t);
    }
    char e[160];
    if (isa_eval(&in->alu, src, dst, e, sizeof e)) {
        char m[240];
        snprintf(m, sizeof m,
                 "found '%s' that cannot be evaluated (%s), expected a register computation",
                 in->text, e);
        fail_at(w, in, m);
        return STEP_ON;   /* w->failed ends the walk */
    }
    for (int k = 0; k < in->ndst; k++)
        if (in->dst[k].k == OPD_REG) {
            s->regs[in->dst[k].reg] = alu_result(in, k, dst[k]);
            s->taint[in->dst[k].reg] = t;
        }
    (*pc)++;
    return STEP_ON;
}

/* LI_BRANCH / LI_GOTO: the comparison's operands become control dependencies; a backward jump
   taken more than --unroll times ends the path (bound reached). */
static int step_branch(walker *w, const lit_insn *in, int *pc, wstate *s, bits *ctrl)
{
    int take = 1;
    if (in->k == LI_BRANCH) {
        take = cmp_holds(in->cmp, opnd_val(w, &in->src[0], s->regs),
                         opnd_val(w, &in->src[1], s->regs));
        opnd_taint(&in->src[0], s->taint, ctrl);
        opnd_taint(&in->src[1], s->taint, ctrl);
    }
    if (in->guard >= 0) bits_or(ctrl, &s->taint[in->guard]);
    if (!take) { (*pc)++; return STEP_ON; }
    if (in->target <= *pc && ++s->back[*pc] > w->lim->unroll) {
        w->out->bound_hit = 1;
        return STEP_END;
    }
    *pc = in->target;
    return STEP_ON;
}

/* LI_BAR: a barrier event with its id, count and instance (bar_gen); bar.red forks over its
   results (bar_red). */
static int step_bar(walker *w, const lit_insn *in, int *pc, wstate *s, deps *on, bits ctrl)
{
    mevent e = { .k = EV_BAR,
                 .insn = *pc,
                 .bar = in->bar,
                 .sym = -1,
                 .loc = -1,
                 .vaddr = -1,
                 .sem = SEM_WEAK,
                 .scope = SCOPE_CTA };
    e.bar_id = opnd_val(w, &in->src[0], s->regs);
    opnd_taint(&in->src[0], s->taint, &on->data);
    if (in->nsrc > 1) {
        e.bar_has_cnt = 1;
        e.bar_cnt = opnd_val(w, &in->src[1], s->regs);
        opnd_taint(&in->src[1], s->taint, &on->data);
    }
    if (in->bar == BAR_CARRIVE || in->bar == BAR_CWAIT) {
        /* barrier.cluster (§9.7.13.3): the k-th arrive of each thread of the cluster
           meets the others' k-th arrive and k-th wait (base_same_barrier) */
        e.bar_id = in->bar == BAR_CARRIVE ? -1 : -2;
        e.sem = in->sem;
        e.scope = SCOPE_CLUSTER;
    } else if (check_barrier(w, in, &e)) return STEP_END;
    if (!e.bar_has_cnt && in->bar_unit == 32 && e.bar_id >= 0) {
        /* PTX's bar{.cta}.sync a / barrier.sync a: "all threads in the CTA participate"
           (§9.7.12.1), i.e. every thread the test places in this thread's CTA */
        e.bar_has_cnt = 1;
        for (int i = 0; i < w->t->nth; i++)
            e.bar_cnt += w->t->th[i].gpu == w->th->gpu && w->t->th[i].cta == w->th->cta;
    }
    for (int k = 0; k < w->nev; k++) {
        const mevent *o = &w->ev[k];
        if (o->k == EV_BAR && o->bar_id == e.bar_id && o->bar_has_cnt == e.bar_has_cnt &&
            o->bar_cnt == e.bar_cnt)
            e.bar_gen++;
    }
    if (in->bar == BAR_RED) {
        bar_red(w, in, *pc, e, s, on, ctrl);
        return STEP_END;
    }
    if (push_event(w, in, e, on)) return STEP_END;
    /* Dat3M's bar.cta.arrive waits like its sync under Dat3M's events: its execution too needs
       the instance's other threads (solver/query.c dat3m_barriers) */
    if (w->lim->liveness &&
        (in->bar == BAR_SYNC || (in->bar_unit == 1 && w->lim->sem.dat3m_barriers)))
        save_hang(w, s->regs, MHANG_BARRIER, -1, *pc); /* waits forever */
    (*pc)++;
    return STEP_ON;
}

/* The event of a memory operation before its values: location, bytes, semantics, proxy and
   the state space it names. */
static mevent mem_event(walker *w, const lit_insn *in, int pc, const wstate *s, int sym, int asz)
{
    const lit_sym *sy = &w->t->sym[sym];
    mevent e = { .insn = pc,
                 .sem = in->sem,
                 .scope = in->scope,
                 .sym = sym,
                 .loc = sy->loc,
                 .vaddr = sy->vaddr,
                 .proxy = in->proxy != PROXY_GENERIC ? in->proxy : sy->proxy,
                 .mmio = in->mmio,
                 .off = (int)addr_off(w, in, s->regs),
                 .size = asz,
                 .atomic = in->k == LI_ATOM || in->k == LI_RED,
                 .red = in->k == LI_RED,
                 .mbar = in->mbar };
    /* the state space of the location: this CTA's shared memory, shared memory, else unknown */
    if (sy->shared || w->t->sym[sy->loc].shared) {
        const lit_sym *l = &w->t->sym[sy->loc];
        const lit_thread *o = l->owner >= 0 ? &w->t->th[l->owner] : NULL;
        e.fspace = o && o->gpu == w->th->gpu && o->cta == w->th->cta ? SPACE_SHARED_CTA
                                                                     : SPACE_SHARED_CLUSTER;
    } else if (in->space == SPACE_GLOBAL) e.fspace = SPACE_GLOBAL;
    return e;
}

/* The destination register of a read that returned ce->rval (done: an mbarrier test's
   answer); its dependencies are the read event (mark). */
static void read_result(const lit_insn *in, wstate *cs, const mevent *ce, isa_type aty, int done,
                        int mark)
{
    if (in->k == LI_RED || in->dst[0].k != OPD_REG) return;
    int r = in->dst[0].reg;
    if (in->part) {
        /* a packed element writes its half of the destination (the first element in the text
           starts the register's dependencies afresh, the second adds) */
        int sh = 16 * (in->part - 1);
        uint64_t v = (uint64_t)cs->regs[r] & ~(0xffffull << sh) & 0xffffffffull;
        cs->regs[r] = (int64_t)(v | ((uint64_t)ce->rval & 0xffff) << sh);
        if (in->part == 1) memset(&cs->taint[r], 0, sizeof(bits));
    } else {
        /* §9.7.8.8: a signed load sign-extends, an unsigned one zero-extends */
        cs->regs[r] = isa_type_is_float(aty) ? ce->rval : isa_value(aty, (uint64_t)ce->rval);
        if (in->mbar == MB_TEST || in->mbar == MB_TEST_PARITY) cs->regs[r] = done;
        memset(&cs->taint[r], 0, sizeof(bits));
    }
    bits_set(&cs->taint[r], mark);
}

/* A read (ld, atom, red, mbarrier operations): one child walk per value its bytes may hold
   (the atoms' domains combined), the write of an atomic operation computed by isa_atom_apply. */
static void fork_reads(walker *w, const lit_insn *in, int pc, wstate *s, mevent e, deps on,
                       bits ctrl, isa_type aty)
{
    uint64_t am = mask_bits(8u * (unsigned)e.size);
    mdomain rv = { NULL, 0 };
    if (read_values(w, in, e.loc, e.off, e.size, &rv)) return;
    uint64_t b = 0, c = 0;
    deps ton = on;
    if (e.atomic) {
        b = (uint64_t)opnd_val(w, &in->src[0], s->regs);
        opnd_taint(&in->src[0], s->taint, &ton.data);
        if (in->nsrc > 1) {
            c = (uint64_t)opnd_val(w, &in->src[1], s->regs);
            opnd_taint(&in->src[1], s->taint, &ton.data);
        }
        if (in->part) b = b >> (16 * (in->part - 1)) & 0xffff;   /* its half, §8.2.5 */
    }
    int own_init = 0;   /* this thread initialised the mbarrier earlier on this path */
    for (int k = 0; in->mbar && k < w->nev; k++)
        own_init |= w->ev[k].mbar == MB_INIT && w->ev[k].loc == e.loc;
    int some_valid = 0;   /* (in the first rounds of the value domains there is none yet) */
    for (int vi = 0; own_init && vi < rv.n; vi++) some_valid |= mbar_valid((uint64_t)rv.v[vi]);
    own_init &= some_valid;
    for (int vi = 0; vi < rv.n && !w->failed; vi++) {
        mevent ce = e;
        ce.rval = rv.v[vi];
        /* SC per location (§8.10.5): after its own mbarrier.init, a thread cannot read
           the object's initial (uninitialised) state, nor a state derived from it */
        if (own_init && !mbar_valid((uint64_t)ce.rval)) continue;
        ce.k = EV_R;
        int done = 0;
        if (in->mbar == MB_TEST || in->mbar == MB_TEST_PARITY) {
            /* "When mbarrier.test_wait and mbarrier.try_wait operations with .acquire
               qualifier returns True, they form the acquire pattern" (§9.7.13.15.16) */
            done = mbar_complete(in, (uint64_t)ce.rval, (uint64_t)opnd_val(w, &in->src[0], s->regs),
                                 &ce.ub);
            if (!done && ce.sem == SEM_ACQUIRE) ce.sem = SEM_RELAXED;
        } else if (in->mbar) {
            ce.k = EV_RMW;
            ce.wval = (int64_t)mbar_update(in, (uint64_t)ce.rval, b, c, &ce.ub);
        } else if (e.atomic) {
            uint64_t nv;
            int wr = isa_atom_apply(in->aop, aty, (uint64_t)ce.rval, b, c, &nv);
            if (wr < 0) {
                fail_at(w, in,
                        "found an atomic operation without semantics for its type, expected one of "
                        "§9.7.12.5");
                break;
            }
            /* a failed atom.cas writes the value it read back when the semantics say so
               (§9.7.12.5: *a = cas(*a, b, c), cas(r, s, t) = (r == s) ? t : r) */
            if (!wr && w->lim->sem.cas_fail_writes) { wr = 1; nv = (uint64_t)ce.rval; }
            if (wr) { ce.k = EV_RMW; ce.wval = (int64_t)(nv & am); }
        }
        int mark = w->nev, dmark = w->ndep;
        if (push_event(w, in, ce, &ton)) break;
        wstate cs = state_clone(w, s);
        read_result(in, &cs, &ce, aty, done, mark);
        walk(w, pc + 1, cs, ctrl);
        w->nev = mark;
        w->ndep = dmark;
    }
    free(rv.v);
}

/* LI_LD / LI_ST / LI_ATOM / LI_RED: a store goes on; a read forks (fork_reads) and ends this
   walk. */
static int step_mem(walker *w, const lit_insn *in, int *pc, wstate *s, deps on, bits ctrl)
{
    int sym;
    if (resolve_addr(w, in, s->regs, &sym)) return STEP_END;
    if (in->addr.k == OPD_REG) opnd_taint(&in->addr, s->taint, &on.addr);   /* address dependency */
    isa_type aty = access_type(w->t, in, sym);
    int asz = access_size(w->t, in, sym);
    mevent e = mem_event(w, in, *pc, s, sym, asz);
    if (in->k != LI_ST) {
        fork_reads(w, in, *pc, s, e, on, ctrl, aty);
        return STEP_END;
    }
    e.k = EV_W;
    e.wval = (int64_t)((uint64_t)opnd_val(w, &in->src[0], s->regs) &
                       mask_bits(8u * (unsigned)asz)); /* the low bytes, §9.7.8.11 */
    if (in->mbar == MB_INIT)
        e.wval = (int64_t)mbar_init((uint64_t)opnd_val(w, &in->src[0], s->regs));
    opnd_taint(&in->src[0], s->taint, &on.data);       /* data dependency */
    if (push_event(w, in, e, &on)) return STEP_END;
    (*pc)++;
    return STEP_ON;
}

/* Execute from pc with state s (owned by the callee): each instruction through its step
   function; a path that ends records its trace (save_trace). */
static void walk(walker *w, int pc, wstate s, bits ctrl)
{
    const lit_thread *th = w->th;
    int nev0 = w->nev, ndep0 = w->ndep, nvis0 = w->nvis;
    int st = STEP_ON;
    while (!w->failed && st == STEP_ON && pc < th->nins) {
        const lit_insn *in = &th->ins[pc];
        if (w->lim->deadline && !(++w->steps & 1023) && mclock_ms() > w->lim->deadline) {
            w->timed_out = w->failed = 1;
            break;
        }
        if (w->head[pc] && loop_head_visit(w, pc, s.regs)) {
            /* the iteration since the last visit repeats forever with the same state: with
               --liveness, a path that never ends (fair when its reads see co-maximal writes) */
            if (w->lim->liveness) save_hang(w, s.regs, MHANG_SPIN, w->spin_from, pc);
            st = STEP_END;
            break;
        }
        deps on = { .ctrl = ctrl };
        if (in->guard >= 0) {
            bits_or(&on.ctrl, &s.taint[in->guard]);
            int taken = (s.regs[in->guard] != 0) ^ in->guard_neg;
            if (!taken) { pc++; continue; }
        }
        switch (in->k) {
        case LI_NOP: pc++; break;
        case LI_ALU: st = step_alu(w, in, &pc, &s); break;
        case LI_BRANCH: case LI_GOTO: st = step_branch(w, in, &pc, &s, &ctrl); break;
        case LI_FENCE: {
            mevent e = { .k = EV_F,
                         .insn = pc,
                         .sem = in->sem,
                         .scope = in->scope,
                         .fence = in->fence,
                         .sym = -1,
                         .loc = -1,
                         .vaddr = -1,
                         .restrict_ = in->restrict_,
                         .uni = in->uni,
                         .fspace = in->fspace };
            if (push_event(w, in, e, &on)) st = STEP_END;
            pc++;
            break;
        }
        case LI_BAR: st = step_bar(w, in, &pc, &s, &on, ctrl); break;
        case LI_LD:
        case LI_ST:
        case LI_ATOM:
        case LI_RED: st = step_mem(w, in, &pc, &s, on, ctrl); break;
        }
    }
    if (!w->failed && st == STEP_ON && pc >= th->nins) save_trace(w, s.regs);
    w->nev = nev0;
    w->ndep = ndep0;
    while (w->nvis > nvis0) free(w->vis[--w->nvis].regs);
    state_free(&s);
}

int traces_enumerate(const lit_test *t, int ti, const matoms *at, const mdomain *dom,
                     const mlimits *lim, const unsigned char *observed, mthread_traces *out,
                     char *err, size_t errlen)
{
    const lit_thread *th = &t->th[ti];
    walker w = { .t = t,
                 .th = th,
                 .ti = ti,
                 .dom = dom,
                 .at = at,
                 .lim = lim,
                 .out = out,
                 .err = err,
                 .errlen = errlen };
    w.rw = (th->nregs + 63) / 64 ? (th->nregs + 63) / 64 : 1;
    compute_liveness(&w, observed);
    memset(out, 0, sizeof *out);
    w.ev = xmalloc((size_t)(TW * 64) * sizeof *w.ev);
    wstate s;
    s.regs = xmalloc((size_t)(th->nregs ? th->nregs : 1) * sizeof *s.regs);
    s.taint = xcalloc((size_t)(th->nregs ? th->nregs : 1), sizeof *s.taint);
    s.back = xcalloc((size_t)(th->nins ? th->nins : 1), sizeof *s.back);
    if (th->nregs) memcpy(s.regs, th->reg_init, (size_t)th->nregs * sizeof *s.regs);
    bits ctrl = { { 0 } };
    walk(&w, 0, s, ctrl);
    free(w.ev);
    free(w.dep);
    free(w.vis);
    free(w.live);
    free(w.head);
    if (w.failed) { traces_free(out); return w.timed_out ? -2 : -1; }
    return 0;
}

void traces_free(mthread_traces *tt)
{
    for (int i = 0; i < tt->ntr; i++) {
        free(tt->tr[i].ev);
        free(tt->tr[i].dep);
        free(tt->tr[i].regs);
    }
    free(tt->tr);
    tt->tr = NULL;
    tt->ntr = 0;
}
