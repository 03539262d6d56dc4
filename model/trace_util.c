/* model/trace_util.c — what the walk of a thread (model/traces.c) needs besides its steps:
 * the guards of the current path and the value domains of read variables (deciding a branch
 * whose outcome is fixed, making a value concrete), register liveness and the spin-loop
 * reduction at loop heads, saving a complete path, and the limits (--max-traces names the
 * instructions where the paths split, --max-events, the memory cap). */
#include "model/walker.h"
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

void fail_at(walker *w, const lit_insn *in, const char *msg)
{
    if (w->failed) return;
    snprintf(w->err, w->errlen, "%s:%d:%d: %s", w->t->file, in->line, in->col, msg);
    w->failed = 1;
}

void guard_push(walker *w, int g)
{
    if (w->nguard == w->capguard) {
        w->capguard = w->capguard ? 2 * w->capguard : 32;
        w->guard = xrealloc(w->guard, (size_t)w->capguard * sizeof *w->guard);
    }
    w->guard[w->nguard++] = g;
}

/* ---------- values ---------- */

int mdom_combos(const matoms *at, const mdomain *dom, int loc, int off, int size,
                uint64_t **out)
{
    int a0 = -1, a1 = -1;
    *out = NULL;
    for (int a = at->first[loc]; a < at->first[loc] + at->count[loc]; a++) {
        if (at->a[a].off == off) a0 = a;
        if (at->a[a].off + at->a[a].size == off + size) a1 = a + 1;
    }
    if (a0 < 0 || a1 <= a0) {
        /* an access through a register address that the atoms do not cut yet: 0 for now;
           mprogram_build cuts at this event's bytes and enumerates again (program.c) */
        *out = xcalloc(1, sizeof **out);
        return 1;
    }
    long total = 1;
    for (int a = a0; a < a1; a++) {
        if (dom[a].n < 0) return -1;
        total *= dom[a].n;
        if (total > 65536) return -1;
    }
    *out = xmalloc((size_t)(total ? total : 1) * sizeof **out);
    for (long k = 0; k < total; k++) {
        long r = k;
        uint64_t v = 0;
        for (int a = a0; a < a1; a++) {
            const mdomain *d = &dom[a];
            v |= (uint64_t)d->v[r % d->n] << (8 * (at->a[a].off - off));
            r /= d->n;
        }
        (*out)[k] = v;
    }
    return (int)total;
}

int var_domain(void *ctx, const mt_varinfo *v, uint64_t **vals)
{
    walker *w = ctx;
    w->out->dom_used = 1;
    return mdom_combos(w->at, w->dom, v->loc, v->off, v->size, vals);
}

int path_decides(walker *w, int t)
{
    return mt_decide(w->ts, t, w->guard, w->nguard, var_domain, w);
}

/* ---------- loops ---------- */

/* Liveness of registers (backward dataflow over the thread's control flow): a register is
   live when some path reads it before redefining it; the registers the condition observes
   are live at the end. */
static void use_opnd(uint64_t *set, const lit_opnd *o)
{
    if (o->k == OPD_REG) set[o->reg >> 6] |= 1ull << (o->reg & 63);
}

void compute_liveness(walker *w, const unsigned char *observed)
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

int symbolic_live(const walker *w, int pc, const int *regs)
{
    const uint64_t *lv = &w->live[(size_t)pc * (size_t)w->rw];
    for (int r = 0; r < w->th->nregs; r++)
        if ((lv[r >> 6] >> (r & 63) & 1) && !mt_is_const(w->ts, regs[r])) return r;
    return -1;
}

/* whether event k of the current path writes (a compare-and-swap whose failure the path's
   guards imply does not) */
static int writes(walker *w, const mevent *e)
{
    if (e->k == EV_W || e->k == EV_BAR) return 1;
    if (e->k != EV_RMW) return 0;
    return path_decides(w, e->wcond) != 0;
}

/* An atomic operation that writes the value it read (a failed atom.cas under
   msemantics.cas_fail_writes, as the path's guards decide): with --liveness, an iteration whose
   only writes are such leaves memory as it found it and may repeat forever (a spin lock that is
   never released); the solver then lets its write be the coherence-last one
   (build_fair_spins).  Without --liveness it is an effect like any write: removing it from an
   execution can give another read a new from-read edge, so the spin-loop reduction's argument
   does not cover it and the loop is bounded by --unroll. */
static int writes_back(walker *w, const mevent *e)
{
    return e->k == EV_RMW && e->atomic && !e->mbar && e->wsame >= 0 &&
           path_decides(w, e->wsame) == 1;
}

/* At a loop head (every live register concrete, model/traces.c): a path that comes back with
   the same live registers and performed no write and no barrier since its last visit is
   dominated by the path without that iteration (removing reads and fences from a consistent
   execution leaves it consistent: every axiom of §8.10 is an acyclicity or irreflexivity
   condition over relations that only shrink), so it is cut.  Otherwise the visit is
   recorded.  Returns 1 to cut. */
int loop_head_visit(walker *w, int pc, const int *regs)
{
    const uint64_t *lv = &w->live[(size_t)pc * (size_t)w->rw];
    for (int v = w->nvis - 1; v >= 0; v--) {
        const struct visit *x = &w->vis[v];
        if (x->pc != pc) continue;
        int effect = 0;
        for (int k = x->nev; k < w->nev && !effect; k++)
            effect = writes(w, &w->ev[k]) && !(w->lim->liveness && writes_back(w, &w->ev[k]));
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

/* ---------- limits ---------- */

static const char *const why_text[WHY_COUNT] = {
    [WHY_NONE] = "", [WHY_BRANCH] = "a branch on read values",
    [WHY_GUARD] = "a guard predicate computed from read values",
    [WHY_ADDRESS] = "a read value used as an address, made concrete",
    [WHY_OPERAND] = "a read value made concrete for an operation without a term form",
    [WHY_BARRIER] = "a read value used as a barrier number or count, made concrete",
    [WHY_LOOP] = "read values live at a loop head, made concrete",
    [WHY_READ] = "a read whose value is made concrete (mbarrier state, or an atomic operation "
                 "without a term form)",
    [WHY_BARRED] = "the results of bar.red",
};

void note_split(walker *w, int pc, why_split why, long n)
{
    w->forks[pc] += n;
    w->why[pc] = (unsigned char)why;
}

/* "the paths split at line L 'insn' (why, N more paths), ..." for the three instructions that
   split them most */
static void split_causes(const walker *w, char *buf, size_t len)
{
    int used[3] = { -1, -1, -1 };
    size_t at = 0;
    buf[0] = 0;
    for (int k = 0; k < 3; k++) {
        int best = -1;
        for (int pc = 0; pc < w->th->nins; pc++)
            if (w->forks[pc] > 0 && pc != used[0] && pc != used[1] &&
                (best < 0 || w->forks[pc] > w->forks[best]))
                best = pc;
        if (best < 0) break;
        used[k] = best;
        const lit_insn *in = &w->th->ins[best];
        int n = snprintf(buf + at, len - at, "%s line %d '%s' (%s: %ld more paths)",
                         k ? ";" : ", split at", in->line, in->text, why_text[w->why[best]],
                         w->forks[best]);
        if (n < 0 || (size_t)n >= len - at) break;
        at += (size_t)n;
    }
}

static int over_memory(walker *w)
{
    if (!w->lim->max_bytes || w->out->bytes + w->ts->bytes <= w->lim->max_bytes) return 0;
    if (!w->failed)
        snprintf(w->err, w->errlen,
                 "%s:1:1: found paths of thread %s that need more than %zu MiB, expected at most "
                 "%zu MiB (limit --max-memory)",
                 w->t->file, w->th->name, w->lim->max_bytes >> 20, w->lim->max_bytes >> 20);
    w->failed = w->mem_out = 1;
    return 1;
}

void save_trace(walker *w, const int *regs, int hang, int spin_from, int pc)
{
    mthread_traces *o = w->out;
    if (o->ntr >= w->lim->max_traces) {
        if (!w->failed) {
            char causes[600];
            split_causes(w, causes, sizeof causes);
            snprintf(w->err, w->errlen,
                     "%s:1:1: found more than %d paths in thread %s%s, expected at most %d "
                     "(limit --max-traces; lower --unroll)",
                     w->t->file, w->lim->max_traces, w->th->name, causes, w->lim->max_traces);
            w->failed = 1;
        }
        return;
    }
    if (over_memory(w)) return;
    o->tr = xrealloc(o->tr, (size_t)(o->ntr + 1) * sizeof *o->tr);
    mtrace *tr = &o->tr[o->ntr++];
    tr->hang = hang;
    tr->spin_from = spin_from;
    tr->hang_insn = pc;
    tr->nev = w->nev;
    tr->ev = xmalloc((size_t)(w->nev ? w->nev : 1) * sizeof *tr->ev);
    if (w->nev) memcpy(tr->ev, w->ev, (size_t)w->nev * sizeof *tr->ev);
    /* a compare-and-swap the guards decide: a read (it fails), or a plain read-modify-write */
    for (int k = 0; k < tr->nev; k++) {
        mevent *e = &tr->ev[k];
        if (e->k != EV_RMW || e->wcond == w->ts->T) continue;
        int d = path_decides(w, e->wcond);
        if (d == 0) { e->k = EV_R; e->wcond = w->ts->F; e->wterm = -1; }
        else if (d == 1) e->wcond = w->ts->T;
    }
    tr->ndep = w->ndep;
    tr->dep = xmalloc((size_t)(w->ndep ? w->ndep : 1) * sizeof *tr->dep);
    if (w->ndep) memcpy(tr->dep, w->dep, (size_t)w->ndep * sizeof *tr->dep);
    tr->regs = xmalloc((size_t)(w->th->nregs ? w->th->nregs : 1) * sizeof *tr->regs);
    if (w->th->nregs) memcpy(tr->regs, regs, (size_t)w->th->nregs * sizeof *tr->regs);
    tr->nguard = w->nguard;
    tr->guard = xmalloc((size_t)(w->nguard ? w->nguard : 1) * sizeof *tr->guard);
    if (w->nguard) memcpy(tr->guard, w->guard, (size_t)w->nguard * sizeof *tr->guard);
    o->bytes += sizeof *tr + (size_t)tr->nev * sizeof *tr->ev + (size_t)tr->ndep * sizeof *tr->dep +
                (size_t)w->th->nregs * sizeof *tr->regs + (size_t)tr->nguard * sizeof(int);
}
