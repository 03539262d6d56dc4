/* solver/query.c — the symbolic procedure: one Z3 problem per litmus test (solver/query.h).
 *
 * Variables and what ISA §8 leaves to run time:
 *   sel[t][k]  thread t follows its path k (exactly one per thread);
 *   ex[i]      event i exists: some selected path passes through it;
 *   rf         each read takes each of its byte ranges (atoms) from exactly one write of the
 *              same bytes with the same value there (§8 intro, §8.9.7 item 1: per byte);
 *   co         a partial transitive order on overlapping writes, initial writes first (§8.9.6);
 *   sc         Fence-SC order: an acyclic partial order relating every morally strong pair of
 *              fence.sc (§8.9.3);
 *   fin        the co-maximal write of each atom gives its final value.
 * Barrier waits that can never complete (a cycle of waits) leave no final state.  The model
 * (model/ptx.c) then asserts its axioms over these relations. */
#include "solver/query_int.h"
#include "base/alloc.h"
#include "model/base.h"
#include "solver/cat_base.h"
#include "solver/cat_eval.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int overlap(const mevent *a, const mevent *b)
{
    return a->loc == b->loc && a->off < b->off + b->size && b->off < a->off + a->size;
}

static void atom_range(qproblem *q, int ev)
{
    const mevent *m = &q->u->ev[ev];
    const matoms *at = q->at;
    q->a0[ev] = q->a1[ev] = -1;
    for (int a = at->first[m->loc]; a < at->first[m->loc] + at->count[m->loc]; a++) {
        if (at->a[a].off == m->off) q->a0[ev] = a;
        if (at->a[a].off + at->a[a].size == m->off + m->size) q->a1[ev] = a + 1;
    }
}

static int covers(const qproblem *q, int ev, int a)
{
    return q->a0[ev] >= 0 && a >= q->a0[ev] && a < q->a1[ev];
}

/* ---------- reads-from, per atom ---------- */

static void build_rf(qproblem *q)
{
    const muniverse *u = q->u;
    enc *e = &q->e;
    int n = q->n;
    q->rfa = xcalloc((size_t)n, sizeof *q->rfa);
    Z3_ast *cand = xcalloc((size_t)n, sizeof *cand);
    classify_reads(q);
    for (int r = 0; r < n; r++) {
        if (!is_read(&u->ev[r])) continue;
        int na = q->a1[r] - q->a0[r];
        q->rfa[r] = xcalloc((size_t)na, sizeof **q->rfa);
        for (int a = q->a0[r]; a < q->a1[r]; a++) {
            Z3_ast *row = q->rfa[r][a - q->a0[r]] = xcalloc((size_t)n, sizeof *row);
            int k = 0;
            for (int w = 0; w < n; w++) {
                if (w == r || !is_write(&u->ev[w]) || !covers(q, w, a) || !ucompat(u, r, w) ||
                    !rf_possible(q, r, w, a))
                    continue;
                row[w] = b_var(e, "rf");
                assert_implies(q, row[w], b_and(e, q->ex[r], q->ex[w]));
                cand[k++] = row[w];
            }
            /* an existing read takes the atom from exactly one write */
            Z3_ast some = b_or_n(e, cand, k);
            assert_implies(q, q->ex[r], some);
            assert_atmost1(q, cand, k);
            for (int w = 0; w < n; w++)
                if (row[w]) rel_set(&q->rf, w, r, b_or(e, rel_get(&q->rf, w, r), row[w]));
        }
    }
    free(cand);
    /* the values: a read of constants by its reads-from choice, others agree with the write */
    build_read_values(q);
    for (int r = 0; r < n; r++)
        for (int a = q->a0[r]; q->rfa[r] && a < q->a1[r]; a++)
            for (int w = 0; w < n; w++) {
                Z3_ast rf = q->rfa[r][a - q->a0[r]][w];
                if (rf) assert_implies(q, rf, rf_agree(q, r, w, a));
            }
}

/* ---------- coherence order ---------- */

static void build_co(qproblem *q)
{
    const muniverse *u = q->u;
    enc *e = &q->e;
    int n = q->n;
    for (int i = 0; i < n; i++) {
        if (!is_write(&u->ev[i])) continue;
        for (int j = i + 1; j < n; j++) {
            if (!is_write(&u->ev[j]) || !overlap(&u->ev[i], &u->ev[j]) || !ucompat(u, i, j))
                continue;
            if (u->ev[i].k == EV_INIT) {
                if (u->ev[j].k != EV_INIT) rel_set(&q->co, i, j, q->ex[j]);
                continue;
            }
            Z3_ast x = b_var(e, "co"), y = b_var(e, "co"), both = b_and(e, q->ex[i], q->ex[j]);
            rel_set(&q->co, i, j, x);
            rel_set(&q->co, j, i, y);
            assert_ast(q, b_not(e, b_and(e, x, y)));
            assert_implies(q, x, both);
            assert_implies(q, y, both);
        }
    }
    /* transitivity on overlapping writes (mixed sizes: not through a write that overlaps both
       of two that do not overlap each other); when every co;co pair overlaps, co+ = co, which
       the cat evaluator uses (a model that says `let co = co+`, as ptx-v7.5.cat does, would
       otherwise get a closure the solver must see through on every question) */
    q->co_closed = 1;
    for (int i = 0; i < n && !query_past_deadline(q); i++)
        for (int j = 0; j < n; j++) {
            Z3_ast ij = rel_get(&q->co, i, j);
            if (!ij) continue;
            for (int k = 0; k < n; k++) {
                Z3_ast jk = rel_get(&q->co, j, k);
                if (!jk || k == i) continue;
                if (!overlap(&u->ev[i], &u->ev[k])) { q->co_closed = 0; continue; }
                Z3_ast ik = rel_get(&q->co, i, k);
                if (ik == e->T) continue;
                assert_implies(q, b_and(e, ij, jk), ik);
            }
        }
    if (q->timed_out) q->co_closed = 0;
}

/* fr: a read before the writes that follow, in coherence order, the write it takes an atom
   from (§8.9.7 item 3: for any byte accessed by both) */
static void build_fr(qproblem *q)
{
    const muniverse *u = q->u;
    enc *e = &q->e;
    for (int r = 0; r < q->n; r++) {
        if (!q->rfa[r]) continue;
        for (int w = 0; w < q->n; w++) {
            if (w == r || !is_write(&u->ev[w])) continue;
            Z3_ast acc = NULL;
            for (int a = q->a0[r]; a < q->a1[r]; a++) {
                if (!covers(q, w, a)) continue;
                Z3_ast *row = q->rfa[r][a - q->a0[r]];
                for (int w2 = 0; w2 < q->n; w2++)
                    if (row[w2]) acc = b_or(e, acc, b_and(e, row[w2], rel_get(&q->co, w2, w)));
            }
            rel_set(&q->fr, r, w, acc);
        }
    }
}

/* ---------- Fence-SC order ---------- */

static int fence_sc(const mevent *x) { return x->k == EV_F && x->fence == FENCE_SC; }

static void build_sc(qproblem *q)
{
    const muniverse *u = q->u;
    enc *e = &q->e;
    int n = q->n;
    for (int i = 0; i < n; i++) {
        if (!fence_sc(&u->ev[i])) continue;
        for (int j = i + 1; j < n; j++) {
            if (!fence_sc(&u->ev[j]) || !ucompat(u, i, j)) continue;
            if (upo(u, i, j)) { rel_set(&q->sc, i, j, q->ex[j]); continue; }
            if (upo(u, j, i)) { rel_set(&q->sc, j, i, q->ex[i]); continue; }
            Z3_ast x = b_var(e, "sc"), y = b_var(e, "sc"), both = b_and(e, q->ex[i], q->ex[j]);
            rel_set(&q->sc, i, j, x);
            rel_set(&q->sc, j, i, y);
            assert_ast(q, b_not(e, b_and(e, x, y)));
            assert_implies(q, x, both);
            assert_implies(q, y, both);
            /* morally strong fence.sc pairs (§8.7: two fences are generic and not memory
               operations, so condition 1 decides) are ordered */
            if (base_same_scope(u, i, j)) assert_implies(q, both, b_or(e, x, y));
        }
    }
    for (int i = 0; i < n && !query_past_deadline(q); i++)
        for (int j = 0; j < n; j++) {
            Z3_ast ij = rel_get(&q->sc, i, j);
            if (!ij) continue;
            for (int k = 0; k < n; k++) {
                Z3_ast jk = rel_get(&q->sc, j, k);
                if (!jk || k == i) continue;
                Z3_ast ik = rel_get(&q->sc, i, k);
                if (ik == e->T) continue;
                assert_implies(q, b_and(e, ij, jk), ik);
            }
        }
}

/* ---------- final values ---------- */

static void build_fin(qproblem *q)
{
    const muniverse *u = q->u;
    enc *e = &q->e;
    int n = q->n;
    q->fin = xcalloc((size_t)q->at->n, sizeof *q->fin);
    Z3_ast *v = xcalloc((size_t)n, sizeof *v);
    for (int a = 0; a < q->at->n; a++) {
        q->fin[a] = xcalloc((size_t)n, sizeof **q->fin);
        int k = 0;
        for (int w = 0; w < n; w++) {
            if (!is_write(&u->ev[w]) || !covers(q, w, a)) continue;
            q->fin[a][w] = v[k++] = b_var(e, "fin");
            assert_implies(q, q->fin[a][w], q->ex[w]);
            for (int w2 = 0; w2 < n; w2++)
                if (w2 != w && covers(q, w2, a) && rel_get(&q->co, w, w2))
                    assert_implies(q, q->fin[a][w], b_not(e, rel_get(&q->co, w, w2)));
        }
        assert_ast(q, b_or_n(e, v, k));
        assert_atmost1(q, v, k);
    }
    free(v);
}

/* ---------- barriers: instances, and waits that never complete ---------- */

static Z3_ast pair_exists(qproblem *q, int i, int j);

/* An integer clock per event orders every wait: an event comes after its program-order parent,
   and an operation that waits (bar.sync) goes on only after its instance completed, which is
   after every arrival in it (§9.7.12.1).  An execution exists only if these clocks exist: a
   thread that waits forever has no final state.
   Uncounted barriers (Dat3M's bar.cta.sync without a quorum): the instance is the k-th use of
   the id by each thread that uses it, complete once every existing one arrived.
   Counted barriers (a thread count, or PTX's bar.sync a with the CTA's threads): arrivals form
   phases of exactly `count` operations of different threads, chosen by the solver (pairs
   in[i][j]); an operation that waits needs its phase full; an arrive may stay in a partial one. */
static void counted_barrier(qproblem *q, Z3_ast *clk, Z3_ast *in, Z3_ast *partial, int j)
{
    const muniverse *u = q->u;
    enc *e = &q->e;
    int n = q->n, k = 0;
    Z3_ast *args = xcalloc((size_t)n, sizeof *args);
    int *ones = xcalloc((size_t)n, sizeof *ones);
    for (int i = u->ninit; i < n; i++) {
        if (i == j || !in[i * n + j]) continue;
        assert_implies(q, in[i * n + j], Z3_mk_lt(e->z, clk[i], clk[n + j]));
        args[k] = b_of(e, in[i * n + j]);
        ones[k++] = 1;
        for (int h = i + 1; h < n; h++)   /* one phase: the relation is transitive */
            if (h != j && in[h * n + j] && in[i * n + h])
                assert_implies(q, b_and(e, in[i * n + j], in[h * n + j]), in[i * n + h]);
    }
    int cnt = (int)u->ev[j].bar_cnt - 1;
    assert_implies(q, q->ex[j], Z3_mk_lt(e->z, clk[j], clk[n + j]));
    assert_ast(q, Z3_mk_pble(e->z, (unsigned)k, args, ones, cnt));
    Z3_ast bl = q->blocked ? q->blocked[j] : NULL;
    if (u->ev[j].bar != BAR_ARRIVE)
        assert_implies(q, b_and(e, q->ex[j], b_not(e, bl)),
                       Z3_mk_pbeq(e->z, (unsigned)k, args, ones, cnt));
    if (bl)
        assert_implies(
            q, bl, Z3_mk_pble(e->z, (unsigned)k, args, ones, cnt - 1)); /* its phase never fills */
    /* arrivals fill phases in order: only the last phase may stay partial, so two partial
       arrivals are in one phase */
    partial[j] = b_var(e, "partial");
    assert_ast(q,
               Z3_mk_eq(e->z, b_of(e, partial[j]),
                        b_of(e, b_and(e, q->ex[j],
                                      b_not(e, Z3_mk_pbeq(e->z, (unsigned)k, args, ones, cnt))))));
    for (int i = u->ninit; i < j; i++)
        if (partial[i] && in[i * n + j])
            assert_implies(q, b_and(e, partial[i], partial[j]), in[i * n + j]);
        else if (partial[i] && base_same_barrier(u, i, j))
            assert_ast(q, b_not(e, b_and(e, partial[i], partial[j])));
    free(args);
    free(ones);
}

/* Liveness: an uncounted barrier (complete once every thread using it arrived) blocks a thread
   only while another thread of the CTA hangs without having arrived; nobody passes it then. */
static void uncounted_blocked(qproblem *q, int j)
{
    const muniverse *u = q->u;
    enc *e = &q->e;
    int n = q->n;
    const lit_thread *tj = &u->t->th[u->ev[j].thread];
    Z3_ast some = NULL;
    for (int t = 0; t < u->nth; t++) {
        const lit_thread *tt = &u->t->th[t];
        if (t == u->ev[j].thread || tt->gpu != tj->gpu || tt->cta != tj->cta) continue;
        Z3_ast absent = q->hangs[t];
        for (int i = u->ninit; i < n; i++)
            if (u->ev[i].thread == t && base_same_barrier(u, i, j))
                absent = b_and(e, absent, b_not(e, q->ex[i]));
        some = b_or(e, some, absent);
    }
    assert_implies(q, q->blocked[j], some);
    for (int i = u->ninit; i < n; i++)
        if (i == j || base_same_barrier(u, i, j))
            for (int ch = u->ninit; ch < n; ch++)
                if (u->parent[ch] == i) assert_implies(q, q->blocked[j], b_not(e, q->ex[ch]));
}

/* Liveness: which selected paths never end (per thread) and wait at a barrier (per event). */
static void build_hangs(qproblem *q)
{
    const muniverse *u = q->u;
    enc *e = &q->e;
    q->blocked = xcalloc((size_t)q->n, sizeof *q->blocked);
    q->hangs = xcalloc((size_t)(u->nth ? u->nth : 1), sizeof *q->hangs);
    for (int t = 0; t < u->nth; t++)
        for (int k = 0; k < u->th[t].npath; k++) {
            const upath *p = &u->th[t].path[k];
            if (!p->hang) continue;
            q->hangs[t] = b_or(e, q->hangs[t], q->sel[t][k]);
            if (p->hang == MHANG_BARRIER && p->len) {
                int j = p->ev[p->len - 1].node;
                q->blocked[j] = b_or(e, q->blocked[j], q->sel[t][k]);
            }
        }
}

/* Liveness, memory fairness: a spin repeats forever only if each of its reads reads, for every
   byte, the coherence-last write (a write becomes visible eventually, §8.9.6 coherence). */
static void build_fair_spins(qproblem *q)
{
    const muniverse *u = q->u;
    for (int t = 0; t < u->nth; t++)
        for (int k = 0; k < u->th[t].npath; k++) {
            const upath *p = &u->th[t].path[k];
            if (p->hang != MHANG_SPIN || p->spin_from < 0) continue;
            for (int x = p->spin_from; x < p->len; x++) {
                int r = p->ev[x].node;
                if (!q->rfa[r]) continue;
                /* the read of an atomic operation that writes back what it read (a failed
                   atom.cas under msemantics.cas_fail_writes, model/traces.c writes_back): its
                   own write may be the last one */
                int own = u->rmw_part[r] == 1 && x + 1 < p->len &&
                                  p->ev[x + 1].node == u->rmw_pair[r] && p->ev[x + 1].ws >= 0
                              ? u->rmw_pair[r]
                              : -1;
                Z3_ast back = own >= 0 ? enc_bool(q, p->ev[x + 1].ws) : NULL;
                for (int a = q->a0[r]; a < q->a1[r]; a++)
                    for (int w = 0; w < q->n; w++) {
                        Z3_ast rf = q->rfa[r][a - q->a0[r]][w];
                        if (rf)
                            assert_implies(q, b_and(&q->e, q->sel[t][k], rf),
                                           b_or(&q->e, q->fin[a][w],
                                                own >= 0 ? b_and(&q->e, back, q->fin[a][own])
                                                         : NULL));
                    }
            }
        }
}

/* bar.red (§9.7.12.1): "the c predicate (or its complement) from all threads ... are combined
   using the specified reduction operator.  Once the barrier count is reached, the final value is
   written to the destination register in all threads waiting at the barrier."  Each path through
   a bar.red event chose a result (rval) and contributes its predicate (wval, model/traces.c); the
   result a completing event receives is the reduction over the events of its phase (in[i][j],
   counted_barrier): popc counts the threads with c true, each litmus thread a warp of bar_unit
   threads; and: all true; or: some true.  Mixing bar.red with bar.sync or bar.arrive on one
   barrier is refused before (model/program.c). */
static void bar_red_results(qproblem *q, Z3_ast *in)
{
    const muniverse *u = q->u;
    enc *e = &q->e;
    int n = q->n, any = 0;
    for (int i = u->ninit; i < n && !any; i++)
        any = u->ev[i].k == EV_BAR && u->ev[i].bar == BAR_RED;
    if (!any) return;
    Z3_ast *mine = xcalloc((size_t)n, sizeof *mine);    /* the event's predicate is true */
    vlist *res = xcalloc((size_t)n, sizeof *res);       /* results, on the paths that go on */
    for (int t = 0; t < u->nth; t++)
        for (int k = 0; k < u->th[t].npath; k++) {
            const upath *p = &u->th[t].path[k];
            for (int x = 0; x < p->len; x++) {
                int ev = p->ev[x].node;
                if (u->ev[ev].k != EV_BAR || u->ev[ev].bar != BAR_RED) continue;
                /* the contribution and the result are constants (model/traces.c bar_red) */
                if (mt_constval(u->terms, p->ev[x].wt)) mine[ev] = b_or(e, mine[ev], q->sel[t][k]);
                if (!(p->hang == MHANG_BARRIER && x == p->len - 1))
                    vl_add(e, &res[ev], (int64_t)mt_constval(u->terms, p->ev[x].rt), q->sel[t][k]);
            }
        }
    Z3_ast *args = xcalloc((size_t)n + 1, sizeof *args);
    int *ones = xcalloc((size_t)n + 1, sizeof *ones);
    for (int j = u->ninit; j < n; j++) {
        const mevent *ej = &u->ev[j];
        if (ej->k != EV_BAR || ej->bar != BAR_RED) continue;
        const lit_insn *ins = &u->t->th[ej->thread].ins[ej->insn];
        int64_t unit = ins->bar_unit ? ins->bar_unit : 1;
        /* the participants with c true, c false: this event and its phase's others */
        int k = 0;
        Z3_ast all = mine[j], some = mine[j];
        args[k++] = b_of(e, mine[j]);
        for (int i = u->ninit; i < n; i++) {
            if (i == j || !in[i * n + j]) continue;
            Z3_ast yes = b_and(e, in[i * n + j], mine[i]);
            args[k++] = b_of(e, yes);
            some = b_or(e, some, yes);
            all = b_and(e, all, b_or(e, b_not(e, in[i * n + j]), mine[i]));
        }
        for (int r = 0; r < k; r++) ones[r] = 1;
        for (int v = 0; v < res[j].n; v++) {
            int64_t val = res[j].v[v];
            Z3_ast when = res[j].ind[v], holds;
            if (ins->bar_op == BRED_POPC)
                holds = val % unit ? NULL
                                   : Z3_mk_pbeq(e->z, (unsigned)k, args, ones, (int)(val / unit));
            else {
                Z3_ast red = ins->bar_op == BRED_AND ? all : some;
                holds = val ? red : b_not(e, red);
            }
            assert_implies(q, when, holds ? holds : e->F);
        }
    }
    for (int j = 0; j < n; j++) vl_free(&res[j]);
    free(res);
    free(mine);
    free(args);
    free(ones);
}

/* Dat3M's barriers (msemantics.dat3m_barriers; docs/model.md "Event semantics").  Dat3M's PTX
   front end reads bar.cta.sync|arrive INST{, ID{, QUORUM}} as a control barrier of instance INST
   (the instructions of one CTA that name INST, with an ID or without one), and its program
   encoding lets a barrier execute, in a terminating execution:
   - without an ID: when every barrier instruction of the instance in the CTA is reached;
   - with an ID and no quorum: when every one whose ID may equal its own is reached (an ID in a
     register of an instruction never reached may differ);
   - with a quorum Q: when at least Q events of the instance with its ID are reached; then at
     least Q of them synchronize (which ones is a choice, sync[i]).
   An arrive executes under the same condition (it blocks like a sync); syncbar relates executed
   events of one instance and ID, towards one that is not an arrive, from one that synchronizes.
   No waiting order (Dat3M's encoding has no clocks for barriers).  With --liveness, a path that
   ends at a barrier is blocked exactly when that barrier cannot execute. */
static void dat3m_barriers(qproblem *q)
{
    const muniverse *u = q->u;
    enc *e = &q->e;
    int n = q->n;
    Z3_ast *exec = xcalloc((size_t)n, sizeof *exec), *sync = xcalloc((size_t)n, sizeof *sync);
    Z3_ast *args = xcalloc((size_t)n + 1, sizeof *args);
    Z3_ast *sargs = xcalloc((size_t)n + 1, sizeof *sargs);
    int *ones = xcalloc((size_t)n + 1, sizeof *ones);
    for (int i = 0; i <= n; i++) ones[i] = 1;
    for (int i = u->ninit; i < n; i++) {
        if (!base_dat3m_barrier(u, i)) continue;
        Z3_ast bl = q->blocked ? q->blocked[i] : NULL;
        exec[i] = b_and(e, q->ex[i], b_not(e, bl));
        sync[i] = u->ev[i].bar_has_cnt ? b_var(e, "bsync") : exec[i];
        if (u->ev[i].bar_has_cnt) assert_implies(q, sync[i], exec[i]);
    }
    for (int j = u->ninit; j < n; j++) {
        if (!base_dat3m_barrier(u, j)) continue;
        const mevent *ej = &u->ev[j];
        const lit_insn *ij = &u->t->th[ej->thread].ins[ej->insn];
        Z3_ast can;   /* the condition under which j executes once reached */
        if (ej->bar_has_cnt) {
            int k = 0;
            for (int i = u->ninit; i < n; i++)
                if (base_dat3m_same_instance(u, i, j) && u->ev[i].bar_id == ej->bar_id) {
                    args[k] = b_of(e, q->ex[i]);
                    sargs[k++] = b_of(e, sync[i]);
                }
            int quorum = ej->bar_cnt > n ? n + 1 : ej->bar_cnt < 0 ? 0 : (int)ej->bar_cnt;
            can = Z3_mk_pbge(e->z, (unsigned)k, args, ones, quorum);
            /* Dat3M: a quorum reached in control flow is reached by the synchronizing ones
               (per event, also one not reached when its ID and quorum are constants) */
            Z3_ast when = ij->src[0].k == OPD_IMM && ij->src[1].k == OPD_IMM
                              ? can : b_and(e, q->ex[j], can);
            assert_implies(q, when, Z3_mk_pbge(e->z, (unsigned)k, sargs, ones, quorum));
        } else {
            can = e->T;
            const lit_thread *tj = &u->t->th[ej->thread];
            for (int t = 0; t < u->nth; t++)
                for (int k = 0; k < u->t->th[t].nins; k++) {
                    const lit_insn *b = &u->t->th[t].ins[k];
                    if (b->k != LI_BAR || b->bar_unit != 1 || b->bar_inst != ij->bar_inst ||
                        b->bar_named != ij->bar_named || u->t->th[t].gpu != tj->gpu ||
                        u->t->th[t].cta != tj->cta)
                        continue;
                    if (b->bar_named && (b->src[0].k != OPD_IMM || b->src[0].imm != ej->bar_id))
                        continue;   /* an ID that may differ */
                    Z3_ast reached = NULL;
                    for (int i = u->ninit; i < n; i++)
                        if (u->ev[i].k == EV_BAR && u->ev[i].thread == t && u->ev[i].insn == k)
                            reached = b_or(e, reached, q->ex[i]);
                    can = b_and(e, can, reached);
                }
        }
        assert_implies(q, exec[j], can);
        if (q->blocked && q->blocked[j]) assert_implies(q, q->blocked[j], b_not(e, can));
        for (int i = u->ninit; i < n; i++)
            if (i != j && ej->bar != BAR_ARRIVE && u->ev[i].thread != ej->thread &&
                base_dat3m_same_instance(u, i, j) &&
                (!ij->bar_named || u->ev[i].bar_id == ej->bar_id))
                rel_set(&q->syncbar, i, j, b_and(e, b_and(e, exec[i], exec[j]), sync[i]));
    }
    free(exec);
    free(sync);
    free(args);
    free(sargs);
    free(ones);
}

static void build_barrier_waits(qproblem *q)
{
    const muniverse *u = q->u;
    enc *e = &q->e;
    int n = q->n, any = 0;
    for (int i = 0; i < n && !any; i++) any = u->ev[i].k == EV_BAR;
    if (!any) return;
    Z3_ast *clk = xcalloc((size_t)(2 * n), sizeof *clk);
    for (int i = 0; i < 2 * n; i++) clk[i] = Z3_mk_fresh_const(e->z, "wait", e->intsort);
    Z3_ast *in = xcalloc((size_t)n * (size_t)n, sizeof *in);   /* counted: i and j in one phase */
    Z3_ast *partial = xcalloc((size_t)n, sizeof *partial);      /* counted: j's phase never fills */
    for (int i = u->ninit; i < n; i++)
        for (int j = i + 1; j < n; j++)
            if (base_barrier_counted(u, i) && base_same_barrier(u, i, j) && ucompat(u, i, j)) {
                Z3_ast v = b_var(e, "phase");
                assert_implies(q, v, pair_exists(q, i, j));
                in[i * n + j] = in[j * n + i] = v;
            }
    for (int j = u->ninit; j < n; j++) {
        /* after its parent, and after the parent's parent when the parent may be absent (the
           write of a compare-and-swap that fails): the chain of program order holds */
        for (int p = u->parent[j]; p >= 0; p = q->cond[p] ? u->parent[p] : -1)
            assert_implies(q, q->ex[j], Z3_mk_lt(e->z, clk[p], clk[j]));
        if (u->ev[j].k != EV_BAR || base_dat3m_barrier(u, j)) continue;
        int rep = j;
        if (base_barrier_counted(u, j)) {
            counted_barrier(q, clk, in, partial, j);
        } else {
            for (int i = u->ninit; i < j; i++)
                if (base_same_barrier(u, i, j)) { rep = i; break; }
            /* barrier.cluster.wait does not arrive: it only waits for the instance */
            if (u->ev[j].bar != BAR_CWAIT)
                assert_implies(q, q->ex[j], Z3_mk_lt(e->z, clk[j], clk[n + rep]));
            if (q->blocked && q->blocked[j]) uncounted_blocked(q, j);
        }
        for (int i = u->ninit; i < n; i++) {
            if (u->ev[j].bar == BAR_ARRIVE || u->ev[j].bar == BAR_CARRIVE || u->ev[i].k != EV_BAR ||
                u->ev[i].thread == u->ev[j].thread || base_dat3m_barrier(u, i))
                continue;
            if (in[i * n + j]) rel_set(&q->syncbar, i, j, in[i * n + j]);
            else if (base_syncbar_static(u, i, j)) rel_set(&q->syncbar, i, j, pair_exists(q, i, j));
        }
        if (u->ev[j].bar == BAR_ARRIVE || u->ev[j].bar == BAR_CARRIVE) continue;
        for (int ch = u->ninit; ch < n; ch++)
            if (u->parent[ch] == j)
                assert_implies(q, q->ex[ch], Z3_mk_lt(e->z, clk[n + rep], clk[ch]));
    }
    bar_red_results(q, in);
    if (u->sem.dat3m_barriers) dat3m_barriers(q);
    free(in);
    free(partial);
    free(clk);
}

/* ---------- the problem ---------- */

/* ---------- the model as cat: base values (model/base.c) ---------- */

/* (i, j) as a pair of existing events: j's existence when i precedes it (i exists then) */
static Z3_ast pair_exists(qproblem *q, int i, int j)
{
    if (!ucompat(q->u, i, j)) return NULL;
    if (q->cond[i] || q->cond[j]) return b_and(&q->e, q->ex[i], q->ex[j]);
    if (upo(q->u, i, j)) return q->ex[j];
    if (upo(q->u, j, i)) return q->ex[i];
    return b_and(&q->e, q->ex[i], q->ex[j]);
}

static int qb_value(void *ctx, int id, int n, cat_value *out)
{
    qproblem *q = ctx;
    const base_def *d = &base_defs[id];
    if (n == 0) {   /* cat_link type-checks over no event */
        out->kind = d->kind == BASE_SET ? CAT_SET : CAT_REL;
        return 0;   /* empty (n 0): the evaluator makes its own empty value */
    }
    if (d->origin == BASE_DYNAMIC) {
        static const char *const dyn[] = { "rf",   "co",   "fr",   "sync_fence",
                                           "addr", "data", "ctrl", "syncbar" };
        const rel *r[] = {
            &q->rf, &q->co, &q->fr, &q->sc, &q->addr, &q->data, &q->ctrl, &q->syncbar
        };
        for (int k = 0; k < 8; k++)
            if (!strcmp(d->name, dyn[k])) {
                out->kind = CAT_REL;
                out->rel = *r[k];
                out->transitive = r[k] == &q->co && q->co_closed;
                return 0;
            }
        return -1;
    }
    if (d->kind == BASE_SET) {
        rset *c = &q->bset[id];
        if (!c->v) {
            *c = rset_new(n);
            for (int i = 0; i < n; i++) if (d->set(q->u, i)) c->v[i] = q->ex[i];
        }
        out->kind = CAT_SET;
        out->set = *c;
        return 0;
    }
    rel *c = &q->brel[id];
    if (!c->m) {
        *c = rel_new(n);
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++)
                if (d->rel(q->u, i, j)) rel_set(c, i, j, pair_exists(q, i, j));
    }
    out->kind = CAT_REL;
    out->rel = *c;
    return 0;
}

static const cat_engine query_engine = { cat_base_lookup, cat_base_names, qb_value };

cat_prog *query_link_model(const cat_model *m, char *err, size_t errlen)
{
    return cat_link(m, &query_engine, NULL, err, errlen);
}

/* Evaluates the cat model over the universe and asserts its checks, each under a guard
   literal (so that an explanation can leave one out).  Returns 0 or -1 with err. */
static int assert_cat(qproblem *q, char *err, size_t errlen)
{
    q->bset = xcalloc((size_t)base_ndefs, sizeof *q->bset);
    q->brel = xcalloc((size_t)base_ndefs, sizeof *q->brel);
    cat_eval_opts opts = { .background = q->s, .deadline = q->deadline };
    if (cat_eval(q->cat, &q->e, q->n, q, &opts, &q->checks, err, errlen)) return -1;
    q->guard = xcalloc((size_t)q->checks.n, sizeof *q->guard);
    for (int k = 0; k < q->checks.n; k++) {
        const cat_check *c = &q->checks.v[k];
        if (c->flag || c->undefined_unless) continue;
        q->guard[k] = b_var(&q->e, "axiom");
        cat_assert_check_if(&q->e, q->s, c, CAT_ACYCLIC_CLOCKS, q->guard[k]);
        q->nguard++;
    }
    return 0;
}

qproblem *query_build(const muniverse *u, const matoms *at, const cat_prog *cat,
                      const char *model_label, const qobs *obs, int nobs, double deadline,
                      int *status, char *err, size_t errlen)
{
    return query_build_ex(u, at, cat, model_label, obs, nobs, deadline, 0, status, err, errlen);
}

qproblem *query_build_ex(const muniverse *u, const matoms *at, const cat_prog *cat,
                         const char *model_label, const qobs *obs, int nobs, double deadline,
                         int liveness, int *status, char *err, size_t errlen)
{
    *status = 0;
    qproblem *q = xcalloc(1, sizeof *q);
    q->liveness = liveness;
    enc_init(&q->e);
    q->deadline = deadline;
    q->cat = cat;
    q->dropped = -1;
    q->s = enc_solver(&q->e);
    q->u = u;
    q->at = at;
    q->n = u->n;
    int n = q->n;
    q->a0 = xcalloc((size_t)n, sizeof *q->a0);
    q->a1 = xcalloc((size_t)n, sizeof *q->a1);
    q->rf = rel_new(n); q->co = rel_new(n); q->fr = rel_new(n); q->sc = rel_new(n);
    q->addr = rel_new(n); q->data = rel_new(n); q->ctrl = rel_new(n); q->syncbar = rel_new(n);
    for (int i = 0; i < n; i++) {
        q->a0[i] = q->a1[i] = -1;
        if (ev_mem(&u->ev[i])) atom_range(q, i);
    }
    if (build_paths(q, err, errlen)) { *status = QUERY_NO_EXECUTION; query_free(q); return NULL; }
    build_rf(q);
    assert_guards(q);
    if (!query_past_deadline(q)) build_co(q);
    if (!query_past_deadline(q)) build_fr(q);
    if (!query_past_deadline(q)) build_sc(q);
    if (!query_past_deadline(q)) build_fin(q);
    if (liveness && !query_past_deadline(q)) build_hangs(q);
    if (liveness && !query_past_deadline(q)) build_fair_spins(q);
    if (!query_past_deadline(q)) build_barrier_waits(q);
    q->label = model_label;
    if (!query_past_deadline(q) && assert_cat(q, err, errlen)) {
        *status = QUERY_MODEL_ERROR;
        query_free(q);
        return NULL;
    }
    tie_reads(q);
    double tl = mclock_ms();
    if (!liveness && !query_past_deadline(q)) build_lemmas(q);
    if (getenv("PTXLITMUS_DEBUG")) fprintf(stderr, "debug: lemmas in %.1f ms\n", mclock_ms() - tl);
    if (!query_past_deadline(q)) build_observables(q, obs, nobs);
    tie_reads(q);
    if (query_past_deadline(q)) { *status = QUERY_TIMEOUT; query_free(q); return NULL; }
    return q;
}

static void extract(qproblem *q, Z3_model m, mexecution *x);

int query_next_state(qproblem *q, int64_t *state)
{
    return query_next_state_exec(q, state, NULL, NULL);
}

/* The state of model m (values in obs order), given to fn with its execution when fn is not
   NULL, then blocked: later questions find other states.  Releases m. */
static void take_state(qproblem *q, Z3_model m, int64_t *state, mexecution_fn fn, void *ctx)
{
    enc *e = &q->e;
    Z3_ast *block = xcalloc((size_t)q->nobs, sizeof *block);
    for (int o = 0; o < q->nobs; o++) {
        state[o] = obs_value(q, m, o);
        block[o] = b_of(e, obs_differs(q, o, state[o]));
    }
    if (fn) {
        mexecution x = { 0 };
        extract(q, m, &x);
        snprintf(x.note, sizeof x.note, "an allowed execution");
        x.nstate = q->nobs;
        x.state = xcalloc((size_t)q->nobs, sizeof *x.state);
        memcpy(x.state, state, (size_t)q->nobs * sizeof *state);
        fn(ctx, &x);
        mexecution_free(&x);
    }
    Z3_model_dec_ref(e->z, m);
    if (q->nobs) Z3_solver_assert(e->z, q->s, Z3_mk_or(e->z, (unsigned)q->nobs, block));
    else Z3_solver_assert(e->z, q->s, e->F);   /* the one (empty) state */
    free(block);
}

int query_next_state_exec(qproblem *q, int64_t *state, mexecution_fn fn, void *ctx)
{
    enc *e = &q->e;
    Z3_lbool r = query_check(q);
    if (r == Z3_L_UNDEF) return -1;
    if (r == Z3_L_FALSE) return 0;
    Z3_model m = Z3_solver_get_model(e->z, q->s);
    Z3_model_inc_ref(e->z, m);
    take_state(q, m, state, fn, ctx);
    return 1;
}

int query_next_state_where(qproblem *q, Z3_ast f, int64_t *state)
{
    enc *e = &q->e;
    if (!f) return 0;
    Z3_solver_push(e->z, q->s);
    assert_ast(q, f);
    Z3_lbool r = query_check(q);
    Z3_model m = NULL;
    if (r == Z3_L_TRUE) {
        m = Z3_solver_get_model(e->z, q->s);
        Z3_model_inc_ref(e->z, m);
    }
    Z3_solver_pop(e->z, q->s, 1);   /* f is not kept; the state's block is */
    if (m) take_state(q, m, state, NULL, NULL);
    return r == Z3_L_UNDEF ? -1 : r == Z3_L_TRUE;
}

void query_free(qproblem *q)
{
    if (!q) return;
    for (int i = 0; i < q->n; i++) {
        if (q->rfa && q->rfa[i]) {
            for (int a = 0; a < q->a1[i] - q->a0[i]; a++) free(q->rfa[i][a]);
            free(q->rfa[i]);
        }
    }
    free(q->rfa);
    if (q->fin) for (int a = 0; a < q->at->n; a++) free(q->fin[a]);
    free(q->fin);
    values_free(q);
    free(q->a0); free(q->a1);
    for (int t = 0; q->sel && t < q->u->nth; t++) free(q->sel[t]);
    free(q->sel); free(q->ex);
    rel_free(&q->rf); rel_free(&q->co); rel_free(&q->fr); rel_free(&q->sc);
    rel_free(&q->addr); rel_free(&q->data); rel_free(&q->ctrl); rel_free(&q->syncbar);
    cat_result_free(&q->checks);
    for (int i = 0; q->bset && i < base_ndefs; i++) {
        rset_free(&q->bset[i]);
        rel_free(&q->brel[i]);
    }
    free(q->bset); free(q->brel); free(q->guard); free(q->assume);
    free(q->blocked); free(q->hangs);
    Z3_solver_dec_ref(q->e.z, q->s);
    enc_free(&q->e);
    free(q);
}

/* ---------- the condition (query_cond: solver/query_values.c) ---------- */

int query_holds(qproblem *q, Z3_ast f)
{
    enc *e = &q->e;
    if (!f) return 0;
    Z3_solver_push(e->z, q->s);
    assert_ast(q, f);
    Z3_lbool r = query_check(q);
    Z3_solver_pop(e->z, q->s, 1);
    return r == Z3_L_UNDEF ? -1 : r == Z3_L_TRUE;
}

Z3_ast query_not(qproblem *q, Z3_ast f) { return b_not(&q->e, f); }

void query_restrict(qproblem *q, Z3_ast f)
{
    assert_ast(q, f ? f : b_not(&q->e, q->e.T));
}

/* ---------- witnesses ---------- */

static int model_true(enc *e, Z3_model m, Z3_ast a)
{
    if (!a) return 0;
    if (a == e->T) return 1;
    Z3_ast v;
    return Z3_model_eval(e->z, m, a, 1, &v) && Z3_get_bool_value(e->z, v) == Z3_L_TRUE;
}


/* The execution of a model: the events that exist, their values, the relations. */
static void extract(qproblem *q, Z3_model m, mexecution *x)
{
    enc *e = &q->e;
    int *map = xcalloc((size_t)q->n, sizeof *map);
    x->t = q->u->t;
    x->model = q->label;
    x->ev = xcalloc((size_t)q->n, sizeof *x->ev);
    for (int i = 0; i < q->n; i++) {
        map[i] = -1;
        if (!model_true(e, m, q->ex[i])) continue;
        map[i] = x->n;
        mevent *v = &x->ev[x->n++];
        *v = q->u->ev[i];
        v->rval = ev_reads(&q->u->ev[i]) ? read_value(q, m, i) : 0;
        v->wval = event_value(q, m, q->wv[i]);
        if (i < q->u->ninit) x->ninit = x->n;
    }
    struct { const char *name; const rel *r; } rels[] = {
        { "rf", &q->rf }, { "co", &q->co }, { "fr", &q->fr }, { "sc", &q->sc } };
    unsigned char *po = mexecution_add(x, "po");
    for (int i = 0; i < q->n; i++)
        for (int j = 0; j < q->n; j++)
            if (map[i] >= 0 && map[j] >= 0 && upo(q->u, i, j)) po[map[i] * x->n + map[j]] = 1;
    for (size_t k = 0; k < sizeof rels / sizeof rels[0]; k++) {
        if (!rels[k].r->m) continue;
        unsigned char *t = mexecution_add(x, rels[k].name);
        for (int i = 0; i < q->n; i++)
            for (int j = 0; j < q->n; j++)
                if (map[i] >= 0 && map[j] >= 0 && model_true(e, m, rel_get(rels[k].r, i, j)))
                    t[map[i] * x->n + map[j]] = 1;
    }
    free(map);
}

int query_witness(qproblem *q, Z3_ast f, const char *note, mexecution_fn fn, void *ctx)
{
    enc *e = &q->e;
    Z3_solver_push(e->z, q->s);
    if (f) assert_ast(q, f);
    Z3_lbool r = f ? query_check(q) : Z3_L_FALSE;
    if (r == Z3_L_TRUE) {
        Z3_model m = Z3_solver_get_model(e->z, q->s);
        Z3_model_inc_ref(e->z, m);
        mexecution x = { 0 };
        extract(q, m, &x);
        x.nstate = q->nobs;
        x.state = xcalloc((size_t)q->nobs, sizeof *x.state);
        for (int o = 0; o < q->nobs; o++) x.state[o] = obs_value(q, m, o);
        snprintf(x.note, sizeof x.note, "%s", note);
        fn(ctx, &x);
        mexecution_free(&x);
        Z3_model_dec_ref(e->z, m);
    }
    Z3_solver_pop(e->z, q->s, 1);
    return r == Z3_L_UNDEF ? -1 : r == Z3_L_TRUE;
}

Z3_ast query_true(qproblem *q) { return q->e.T; }

int query_timed_out(const qproblem *q) { return q->timed_out; }

int query_out_of_memory(const qproblem *q) { return q->out_of_memory; }

void query_set_memory_limit(size_t bytes)
{
    /* memory_high_watermark (bytes, an unsigned int): past it a check stops with "memout"
       (Unknown); memory_max_size (MiB) is the hard stop behind it, where Z3 raises an error
       (base/alloc.c: "out of memory", exit 2), never reached by a check that watches the mark */
    static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;   /* verify --jobs: threads */
    static size_t set = (size_t)-1;
    pthread_mutex_lock(&mu);
    if (bytes == set) { pthread_mutex_unlock(&mu); return; }
    char v[32];
    size_t mark = bytes > 4294967295u ? 4294967295u : bytes;
    snprintf(v, sizeof v, "%zu", mark);
    Z3_global_param_set("memory_high_watermark", v);
    snprintf(v, sizeof v, "%zu", bytes ? 2 * (bytes >> 20) + 512 : 0);
    Z3_global_param_set("memory_max_size", v);
    set = bytes;
    pthread_mutex_unlock(&mu);
}

/* ---------- liveness ---------- */

int query_liveness(qproblem *q, qhang *out, int max)
{
    enc *e = &q->e;
    if (!q->hangs) return 0;
    Z3_ast any = NULL;
    for (int t = 0; t < q->u->nth; t++) any = b_or(e, any, q->hangs[t]);
    if (!any) return 0;
    Z3_solver_push(e->z, q->s);
    assert_ast(q, any);
    Z3_lbool r = query_check(q);
    int k = 0;
    if (r == Z3_L_TRUE) {
        Z3_model m = Z3_solver_get_model(e->z, q->s);
        Z3_model_inc_ref(e->z, m);
        for (int t = 0; t < q->u->nth && k < max; t++)
            for (int p = 0; p < q->u->th[t].npath; p++)
                if (q->u->th[t].path[p].hang && model_true(e, m, q->sel[t][p])) {
                    const upath *up = &q->u->th[t].path[p];
                    qhang *h = &out[k++];
                    *h = (qhang){ t, up->hang, up->hang_insn, p, 0, { 0 } };
                    for (int x = up->spin_from; x >= 0 && x < up->len && h->nrv < 16; x++)
                        if (ev_reads(&q->u->ev[up->ev[x].node]))
                            h->rv[h->nrv++] = read_value(q, m, up->ev[x].node);
                    break;
                }
        Z3_model_dec_ref(e->z, m);
    }
    Z3_solver_pop(e->z, q->s, 1);
    return r == Z3_L_UNDEF ? -1 : k;
}

/* ---------- flags and explanations ---------- */

int query_flags(qproblem *q, const char **names, int max)
{
    int k = 0;
    for (int i = 0; i < q->checks.n && k < max; i++) {
        const cat_check *c = &q->checks.v[i];
        if (!c->flag && !c->undefined_unless) continue;
        /* a flag is raised when some consistent execution satisfies its check; an
           undefined_unless when some consistent execution violates it */
        Z3_solver_push(q->e.z, q->s);
        cat_check want = *c;
        if (c->undefined_unless) want.negated = !want.negated;
        cat_assert_check(&q->e, q->s, &want, CAT_ACYCLIC_CLOCKS);
        Z3_lbool r = query_check(q);
        Z3_solver_pop(q->e.z, q->s, 1);
        if (r == Z3_L_UNDEF) return -1;
        if (r == Z3_L_TRUE) names[k++] = c->name;
    }
    return k;
}

int query_explain(qproblem *q, Z3_ast f, const char **names, int max)
{
    int k = 0;
    if (!f) return 0;
    Z3_solver_push(q->e.z, q->s);
    assert_ast(q, f);
    /* the checks that alone rule the outcome out: every other check holds */
    for (int i = 0; i < q->checks.n && k < max; i++) {
        if (!q->guard[i]) continue;
        q->dropped = i;
        Z3_lbool r = query_check(q);
        if (r == Z3_L_UNDEF) { k = -1; break; }
        if (r == Z3_L_TRUE) names[k++] = q->checks.v[i].name;
    }
    q->dropped = -1;
    if (k == 0) {   /* none alone: the checks an execution with the outcome violates */
        Z3_lbool r = Z3_solver_check(q->e.z, q->s);
        if (r == Z3_L_TRUE) {
            Z3_model m = Z3_solver_get_model(q->e.z, q->s);
            Z3_model_inc_ref(q->e.z, m);
            for (int i = 0; i < q->checks.n && k < max; i++)
                if (q->guard[i] && cat_check_holds(&q->e, m, &q->checks.v[i]) == 0)
                    names[k++] = q->checks.v[i].name;
            Z3_model_dec_ref(q->e.z, m);
        }
    }
    Z3_solver_pop(q->e.z, q->s, 1);
    return k;
}

int query_forbidden(qproblem *q, Z3_ast f, mexecution_fn fn, void *ctx)
{
    enc *e = &q->e;
    int found = 0;
    if (!f) return 0;
    Z3_solver_push(e->z, q->s);
    assert_ast(q, f);
    for (int i = 0; i < q->checks.n; i++) {
        if (!q->guard[i]) continue;
        q->dropped = i;
        Z3_lbool r = query_check(q);
        if (r == Z3_L_UNDEF) { found = -1; break; }
        if (r != Z3_L_TRUE) continue;
        Z3_model m = Z3_solver_get_model(e->z, q->s);
        Z3_model_inc_ref(e->z, m);
        mexecution x = { 0 };
        extract(q, m, &x);
        snprintf(x.note, sizeof x.note, "ruled out by %s", q->checks.v[i].name);
        x.nstate = q->nobs;
        x.state = xcalloc((size_t)q->nobs, sizeof *x.state);
        for (int o = 0; o < q->nobs; o++) x.state[o] = obs_value(q, m, o);
        fn(ctx, &x);
        mexecution_free(&x);
        Z3_model_dec_ref(e->z, m);
        found++;
    }
    q->dropped = -1;
    Z3_solver_pop(e->z, q->s, 1);
    return found;
}
