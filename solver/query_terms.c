/* solver/query_terms.c — what the parts of a test's problem (solver/query.c, query_values.c,
 * query_lemmas.c) share: asserting, the solver check within the deadline, lists of terms and
 * of values with when they hold, and the values of reads.
 *
 * Reads of constants.  Most reads of a litmus test can only read constants: every write they
 * may read from stores a constant there.  Such a read's value is not a bit-vector the solver
 * must bit-blast: it is d exactly when the read takes its bytes from a write of d, a
 * disjunction of reads-from choices (q->fv).  The conditions of its path (a spin loop's exit
 * test) and the observables it gives are then Boolean formulas over those choices, as they
 * were when values were enumerated per path; the read's variable becomes a bit-vector only if
 * some other term uses it (a value computed from it and written), and then it is tied to the
 * choices (tie_reads).  Other reads take their value from the write they read, bit-vector to
 * bit-vector (rf_agree). */
#include "solver/query_int.h"
#include "base/alloc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void assert_ast(qproblem *q, Z3_ast a)
{
    if (a == q->e.T) return;
    Z3_solver_assert(q->e.z, q->s, b_of(&q->e, a));
}

void assert_implies(qproblem *q, Z3_ast a, Z3_ast b)
{
    if (!a || b == q->e.T) return;
    assert_ast(q, a == q->e.T ? b : Z3_mk_implies(q->e.z, a, b_of(&q->e, b)));
}

void assert_atmost1(qproblem *q, Z3_ast *v, int k)
{
    if (k < 2) return;
    if (k <= 6) {
        for (int i = 0; i < k; i++)
            for (int j = i + 1; j < k; j++) assert_ast(q, b_not(&q->e, b_and(&q->e, v[i], v[j])));
        return;
    }
    /* sequential counter (s_i: some of v_0..v_i), O(k) clauses; Z3's pseudo-Boolean atmost was
       27x slower on a 3-thread spin lock with 400 paths per thread */
    Z3_ast prev = NULL;
    for (int i = 0; i < k; i++) {
        if (!v[i]) continue;
        if (prev) assert_ast(q, b_not(&q->e, b_and(&q->e, prev, v[i])));
        Z3_ast si = b_var(&q->e, "amo");
        assert_implies(q, v[i], si);
        if (prev) assert_implies(q, prev, si);
        prev = si;
    }
}

/* A solver check within the deadline: Z3's own timeout is the time left. */
Z3_lbool query_check(qproblem *q)
{
    if (q->deadline) {
        double left = q->deadline - mclock_ms();
        if (left < 1) { q->timed_out = 1; return Z3_L_UNDEF; }
        enc_solver_timeout(&q->e, q->s, left);
    }
    int k = 0;
    if (!q->assume) q->assume = xcalloc((size_t)q->checks.n + 2, sizeof *q->assume);
    for (int i = 0; i < q->checks.n; i++)
        if (q->guard[i] && i != q->dropped) q->assume[k++] = q->guard[i];
    /* the lemmas follow from all the checks: assumed only with all of them */
    if (q->lemma_guard && q->dropped < 0) q->assume[k++] = q->lemma_guard;
    if (q->extra) q->assume[k++] = q->extra;
    Z3_lbool r = k ? Z3_solver_check_assumptions(q->e.z, q->s, (unsigned)k, q->assume)
                   : Z3_solver_check(q->e.z, q->s);
    if (r == Z3_L_UNDEF && q->deadline && mclock_ms() >= q->deadline - 1) q->timed_out = 1;
    if (r == Z3_L_UNDEF && !q->timed_out) {
        const char *why = Z3_solver_get_reason_unknown(q->e.z, q->s);
        if (why && (strstr(why, "memout") || strstr(why, "memory"))) q->out_of_memory = 1;
    }
    return r;
}

int query_past_deadline(qproblem *q)
{
    if (q->deadline && mclock_ms() > q->deadline) q->timed_out = 1;
    return q->timed_out;
}

void tl_add(enc *e, tlist *l, int t, Z3_ast when)
{
    for (int i = 0; i < l->n; i++)
        if (l->t[i] == t) { l->ind[i] = b_or(e, l->ind[i], when); return; }
    l->t = xrealloc(l->t, (size_t)(l->n + 1) * sizeof *l->t);
    l->ind = xrealloc(l->ind, (size_t)(l->n + 1) * sizeof *l->ind);
    l->t[l->n] = t;
    l->ind[l->n++] = when;
}

void tl_free(tlist *l) { free(l->t); free(l->ind); memset(l, 0, sizeof *l); }

/* the bit-vector of the terms of l: the term itself when there is one, else a constant equal
   to the term of whichever path holds */
Z3_ast value_of(qproblem *q, const tlist *l, unsigned w, const char *name)
{
    if (!l->n) return NULL;
    if (l->n == 1) return tz_bv(&q->tz, l->t[0]);
    Z3_ast v = Z3_mk_fresh_const(q->e.z, name, Z3_mk_bv_sort(q->e.z, w));
    for (int i = 0; i < l->n; i++)
        assert_implies(q, l->ind[i], Z3_mk_eq(q->e.z, v, tz_bv(&q->tz, l->t[i])));
    return v;
}


void vl_add(enc *e, vlist *l, int64_t v, Z3_ast when)
{
    for (int i = 0; i < l->n; i++)
        if (l->v[i] == v) { l->ind[i] = b_or(e, l->ind[i], when); return; }
    l->v = xrealloc(l->v, (size_t)(l->n + 1) * sizeof *l->v);
    l->ind = xrealloc(l->ind, (size_t)(l->n + 1) * sizeof *l->ind);
    l->v[l->n] = v;
    l->ind[l->n++] = when;
}

void vl_free(vlist *l) { free(l->v); free(l->ind); l->v = NULL; l->ind = NULL; l->n = 0; }

int64_t event_value(qproblem *q, Z3_model m, Z3_ast v)
{
    return v ? (int64_t)tz_model_u64(&q->e, m, v) : 0;
}

int model_holds(enc *e, Z3_model m, Z3_ast a)
{
    Z3_ast v;
    if (!a) return 0;
    if (a == e->T) return 1;
    return Z3_model_eval(e->z, m, a, 1, &v) && Z3_get_bool_value(e->z, v) == Z3_L_TRUE;
}


/* ---------- reads of constants ---------- */

uint64_t mask_bytes(int n) { return n >= 8 ? ~0ull : (1ull << (8 * n)) - 1; }

/* the constant values write w has at atom a, each with when (its path), or 0 when one of
   them is not a constant */
static int write_constants(qproblem *q, int w, int a, vlist *out)
{
    const mevent *m = &q->u->ev[w];
    const matom *x = &q->at->a[a];
    int sh = 8 * (x->off - m->off);
    if (m->k == EV_INIT) {
        vl_add(&q->e, out, (int64_t)((uint64_t)m->wval >> sh & mask_bytes(x->size)), q->e.T);
        return 1;
    }
    for (int i = 0; i < q->wt[w].n; i++) {
        int t = q->wt[w].t[i];
        if (!mt_is_const(q->u->terms, t)) { vl_free(out); return 0; }
        vl_add(&q->e, out, (int64_t)(mt_constval(q->u->terms, t) >> sh & mask_bytes(x->size)),
               q->wt[w].n == 1 ? q->e.T : q->wt[w].ind[i]);
    }
    return q->wt[w].n > 0;
}

/* whether read node r (one atom, a variable) can only read constants */
static int reads_constants(qproblem *q, int r)
{
    const muniverse *u = q->u;
    if (q->a0[r] < 0 || q->a1[r] - q->a0[r] != 1 || q->rt[r].n != 1) return 0;
    if (u->terms->n[q->rt[r].t[0]].op != MT_VAR) return 0;
    int a = q->a0[r], any = 0;
    for (int w = 0; w < q->n; w++) {
        if (w == r || !is_write(&u->ev[w]) || q->a0[w] < 0 || a < q->a0[w] || a >= q->a1[w] ||
            !ucompat(u, r, w))
            continue;
        vlist l = { 0 };
        if (!write_constants(q, w, a, &l)) return 0;
        vl_free(&l);
        any = 1;
    }
    return any;
}

int read_var(const qproblem *q, int r)
{
    const mterms *s = q->u->terms;
    if (q->a0[r] < 0 || q->a1[r] - q->a0[r] != 1 || q->rt[r].n != 1) return -1;
    return s->n[q->rt[r].t[0]].op == MT_VAR ? (int)s->n[q->rt[r].t[0]].k : -1;
}


/* a domain choice per value the variable may take (exactly one holds) */
static void domain_choices(qproblem *q, int v)
{
    const mt_varinfo *x = &q->u->terms->var[v];
    uint64_t *vals = NULL;
    int n = mdom_combos(q->at, q->u->dom, x->loc, x->off, x->size, &vals);
    if (n < 1 || n > 64) { q->var_fin[v] = V_BV; free(vals); return; }
    Z3_ast *x1 = xcalloc((size_t)n, sizeof *x1);
    for (int i = 0; i < n; i++) {
        x1[i] = n == 1 ? q->e.T : b_var(&q->e, "val");
        vl_add(&q->e, &q->varv[v], (int64_t)vals[i], x1[i]);
    }
    if (n > 1) {
        Z3_solver_assert(q->e.z, q->s, Z3_mk_or(q->e.z, (unsigned)n, x1));
        assert_atmost1(q, x1, n);
    }
    q->var_fin[v] = V_FIXED;
    free(x1);
    free(vals);
}

/* Locations the lemmas of query_lemmas.c apply to with many operations (every write the
   initial one or an atomic old (+) k, at least LEMMA_BV_OPS of them): their values come from
   the closed forms, on bit-vectors; domain choices beside them make the solver's search longer
   (query_int.h). */
static unsigned char *lemma_locations(const qproblem *q)
{
    const lit_test *t = q->u->t;
    int *ops = xcalloc((size_t)t->nsym + 1, sizeof *ops);
    unsigned char *other = xcalloc((size_t)t->nsym + 1, 1);
    for (int i = q->u->ninit; i < q->n; i++) {
        const mevent *m = &q->u->ev[i];
        if (!is_write(m)) continue;
        if (q->u->rmw_part[i] == 2 && m->acc) ops[m->loc]++;
        else other[m->loc] = 1;
    }
    for (int l = 0; l < t->nsym; l++) other[l] = !other[l] && ops[l] >= LEMMA_BV_OPS;
    free(ops);
    return other;
}

void classify_reads(qproblem *q)
{
    const mterms *s = q->u->terms;
    int nv = s->nvar ? s->nvar : 1;
    unsigned char *other = xcalloc((size_t)nv, 1), *has = xcalloc((size_t)nv, 1);
    q->fv = xcalloc((size_t)q->n, sizeof *q->fv);
    q->varv = xcalloc((size_t)nv, sizeof *q->varv);
    q->var_fin = xcalloc((size_t)nv, 1);
    for (int r = 0; r < q->n; r++) {
        if (!is_read(&q->u->ev[r])) continue;
        int v = read_var(q, r);
        if (v < 0) {   /* several variables, or several atoms: bit-vectors */
            for (int i = 0; i < q->rt[r].n; i++)
                if (s->n[q->rt[r].t[i]].op == MT_VAR) q->var_fin[s->n[q->rt[r].t[i]].k] = V_BV;
            continue;
        }
        has[v] = 1;
        q->fin_read[r] = (unsigned char)reads_constants(q, r);
        other[v] |= !q->fin_read[r];
    }
    /* a variable of reads of constants only takes its values from their reads-from choices
       (build_read_values); another one with a small domain, from domain choices */
    unsigned char *lemma = lemma_locations(q);
    for (int v = 0; v < s->nvar; v++) {
        if (!has[v] || q->var_fin[v] == V_BV) continue;
        if (!other[v]) q->var_fin[v] = V_CONST_PENDING;
        else if (lemma[s->var[v].loc]) q->var_fin[v] = V_BV;
        else domain_choices(q, v);
    }
    free(lemma);
    for (int r = 0; r < q->n; r++) {
        int v = q->fin_read[r] ? read_var(q, r) : -1;
        if (v >= 0 && q->var_fin[v] != V_CONST_PENDING) q->fin_read[r] = 0;
    }
    free(other);
    free(has);
}

void build_read_values(qproblem *q)
{
    for (int r = 0; r < q->n; r++) {
        if (!q->fin_read[r]) continue;
        const Z3_ast *row = q->rfa[r][0];
        vlist l = { 0 };
        for (int w = 0; w < q->n; w++) {
            if (!row[w]) continue;
            vlist c = { 0 };
            write_constants(q, w, q->a0[r], &c);
            for (int i = 0; i < c.n; i++) vl_add(&q->e, &l, c.v[i], b_and(&q->e, row[w], c.ind[i]));
            vl_free(&c);
        }
        q->fv[r] = l;
    }
    /* a variable is the value of one read per path; several events may be that read (an
       mbarrier wait that acquires only when it returns True is one event per outcome), of which
       one exists: the variable is d when one of them reads d */
    for (int r = 0; r < q->n; r++) {
        if (!q->fin_read[r]) continue;
        int v = read_var(q, r);
        for (int i = 0; i < q->fv[r].n; i++)
            vl_add(&q->e, &q->varv[v], q->fv[r].v[i], q->fv[r].ind[i]);
    }
    for (int v = 0; v < q->u->terms->nvar; v++)
        if (q->var_fin[v] == V_CONST_PENDING) q->var_fin[v] = V_FIXED;
}

int domain_agree(qproblem *q, int r, int w, int a, Z3_ast *f)
{
    int v = read_var(q, r);
    if (v < 0 || q->var_fin[v] != V_FIXED) return 0;
    const mevent *m = &q->u->ev[w];
    const matom *x = &q->at->a[a];
    int sh = 8 * (x->off - m->off);
    vlist wv = { 0 };
    if (m->k == EV_INIT) vl_add(&q->e, &wv, m->wval, q->e.T);
    for (int i = 0; m->k != EV_INIT && i < q->wt[w].n; i++) {
        vlist tv = { 0 };
        if (!term_values(q, q->wt[w].t[i], &tv)) { vl_free(&wv); return 0; }
        for (int j = 0; j < tv.n; j++)
            vl_add(&q->e, &wv, tv.v[j],
                   q->wt[w].n == 1 ? tv.ind[j] : b_and(&q->e, q->wt[w].ind[i], tv.ind[j]));
        vl_free(&tv);
    }
    /* writing e (under c) makes the read choose e's bytes there */
    Z3_ast all = q->e.T;
    for (int j = 0; j < wv.n && all; j++) {
        int64_t bits = (int64_t)((uint64_t)wv.v[j] >> sh & mask_bytes(x->size));
        Z3_ast choice = NULL;
        for (int i = 0; i < q->varv[v].n; i++)
            if (q->varv[v].v[i] == bits) choice = q->varv[v].ind[i];
        all = b_and(&q->e, all, b_or(&q->e, b_not(&q->e, wv.ind[j]), choice));
    }
    vl_free(&wv);
    *f = all;
    return 1;
}

Z3_ast read_bv(qproblem *q, int r)
{
    if (!q->rv[r] && q->rt[r].n)
        q->rv[r] = value_of(q, &q->rt[r], 8u * (unsigned)q->u->ev[r].size, "rv");
    return q->rv[r];
}

int64_t read_value(qproblem *q, Z3_model m, int r)
{
    const vlist *l = q->fv ? &q->fv[r] : NULL;
    if (!l || !l->n) return event_value(q, m, read_bv(q, r));
    for (int i = 0; i < l->n; i++) if (model_holds(&q->e, m, l->ind[i])) return l->v[i];
    return 0;
}

/* The value combinations of the variables of t when each is the value of a read of
   constants: calls fn with the value of t and when it holds.  0 when t has other
   variables, or more than 256 combinations. */
static int by_reads(qproblem *q, int t, void (*fn)(qproblem *q, uint64_t v, Z3_ast when,
                                                      void *ctx), void *ctx)
{
    const mterms *s = q->u->terms;
    int vars[5], nv = mt_vars(s, t, vars, 0, 5);
    long combos = 1;
    if (nv > 4 || !q->fv) return 0;
    for (int i = 0; i < nv; i++) {
        if ((q->var_fin[vars[i]] & 1) != 1 || (combos *= q->varv[vars[i]].n) > 256) return 0;
    }
    uint64_t *val = xcalloc((size_t)(s->nvar ? s->nvar : 1), sizeof *val);
    for (long k = 0; k < combos; k++) {
        long rest = k;
        Z3_ast when = q->e.T;
        for (int i = 0; i < nv; i++) {
            const vlist *l = &q->varv[vars[i]];
            val[vars[i]] = (uint64_t)l->v[rest % l->n];
            when = b_and(&q->e, when, l->ind[rest % l->n]);
            rest /= l->n;
        }
        if (when) fn(q, mt_eval(s, t, val), when, ctx);
    }
    free(val);
    return 1;
}

static void or_if_true(qproblem *q, uint64_t v, Z3_ast when, void *ctx)
{
    Z3_ast *acc = ctx;
    if (v & 1) *acc = b_or(&q->e, *acc, when);
}

Z3_ast enc_bool(qproblem *q, int t)
{
    Z3_ast acc = NULL;
    if (mt_is_const(q->u->terms, t)) return mt_constval(q->u->terms, t) ? q->e.T : NULL;
    if (by_reads(q, t, or_if_true, &acc)) return acc;
    return tz_bool(&q->tz, t);
}

static void add_value(qproblem *q, uint64_t v, Z3_ast when, void *ctx)
{
    vl_add(&q->e, ctx, (int64_t)v, when);
}

int term_values(qproblem *q, int t, vlist *out)
{
    if (mt_is_const(q->u->terms, t)) {
        vl_add(&q->e, out, (int64_t)mt_constval(q->u->terms, t), q->e.T);
        return 1;
    }
    return by_reads(q, t, add_value, out);
}

void tie_reads(qproblem *q)
{
    enc *e = &q->e;
    const mterms *s = q->u->terms;
    for (int t = 0; q->varv && t < s->nn && t < q->tz.nmemo; t++) {
        if (s->n[t].op != MT_VAR || !q->tz.memo[t]) continue;
        uint64_t v = s->n[t].k;
        if (q->var_fin[v] != 1) continue;
        q->var_fin[v] = 3;   /* tied */
        Z3_ast bv = q->tz.memo[t];
        Z3_sort sort = Z3_get_sort(e->z, bv);
        for (int i = 0; i < q->varv[v].n; i++)
            assert_implies(q, q->varv[v].ind[i],
                           Z3_mk_eq(e->z, bv, Z3_mk_unsigned_int64(e->z, (uint64_t)q->varv[v].v[i],
                                                                   sort)));
    }
}
