/* solver/query_values.c — the values of a test's problem (solver/query.c): which path each
 * thread takes and under which guards, which events exist, what each event reads and writes
 * (bit-vectors: the terms of model/term.h through solver/term_z3.c), the agreement of a read
 * with the write it reads from, the observables' final values and the condition over them.
 *
 *   sel[t][k]  thread t follows its path k (exactly one per thread); then its guards hold;
 *   ex[i]      event i exists: a selected path passes through it, and for the write of a
 *              compare-and-swap, the comparison succeeded on that path (cond[i]);
 *   rv[i]/wv[i] the raw bits event i reads / writes: the term of its paths (one term on every
 *              path, usually: a read's variable), else a constant equal to the selected path's.
 * A read event's variable is the value the solver chooses for it: reads-from (rf_agree) ties
 * it to the write it reads, byte range by byte range. */
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

static void tl_add(enc *e, tlist *l, int t, Z3_ast when)
{
    for (int i = 0; i < l->n; i++)
        if (l->t[i] == t) { l->ind[i] = b_or(e, l->ind[i], when); return; }
    l->t = xrealloc(l->t, (size_t)(l->n + 1) * sizeof *l->t);
    l->ind = xrealloc(l->ind, (size_t)(l->n + 1) * sizeof *l->ind);
    l->t[l->n] = t;
    l->ind[l->n++] = when;
}

static void tl_free(tlist *l) { free(l->t); free(l->ind); memset(l, 0, sizeof *l); }

/* the bit-vector of the terms of l: the term itself when there is one, else a constant equal
   to the term of whichever path holds */
static Z3_ast value_of(qproblem *q, const tlist *l, unsigned w, const char *name)
{
    if (!l->n) return NULL;
    if (l->n == 1) return tz_bv(&q->tz, l->t[0]);
    Z3_ast v = Z3_mk_fresh_const(q->e.z, name, Z3_mk_bv_sort(q->e.z, w));
    for (int i = 0; i < l->n; i++)
        assert_implies(q, l->ind[i], Z3_mk_eq(q->e.z, v, tz_bv(&q->tz, l->t[i])));
    return v;
}

static uint64_t mask_bytes(int n) { return n >= 8 ? ~0ull : (1ull << (8 * n)) - 1; }

/* which events may be absent on a selected path through them */
static void mark_conditional(qproblem *q)
{
    const muniverse *u = q->u;
    for (int t = 0; t < u->nth; t++)
        for (int k = 0; k < u->th[t].npath; k++) {
            const upath *p = &u->th[t].path[k];
            for (int i = 0; i < p->len; i++)
                if (p->ev[i].wc >= 0 && p->ev[i].wc != u->terms->T) q->cond[p->ev[i].node] = 1;
        }
}

/* one path: existence, terms, dependencies and guards under its selection s */
static void add_path(qproblem *q, const upath *p, Z3_ast s)
{
    enc *e = &q->e;
    const muniverse *u = q->u;
    for (int i = 0; i < p->len; i++) {
        const upath_ev *pe = &p->ev[i];
        int ev = pe->node;
        Z3_ast when = s;
        if (pe->wc >= 0 && pe->wc != u->terms->T) when = b_and(e, s, tz_bool(&q->tz, pe->wc));
        if (q->ex[ev] != e->T) q->ex[ev] = b_or(e, q->ex[ev], when);
        if (is_read(&u->ev[ev]) && pe->rt >= 0) tl_add(e, &q->rt[ev], pe->rt, s);
        if (is_write(&u->ev[ev]) && pe->wt >= 0) tl_add(e, &q->wt[ev], pe->wt, s);
    }
    for (int d = 0; d < p->ndep; d++) {
        const udep *x = &p->dep[d];
        rel *kind[3] = { &q->addr, &q->data, &q->ctrl };
        Z3_ast when = s;
        for (int i = 0; q->cond[x->to] && i < p->len; i++)   /* the event exists on this path */
            if (p->ev[i].node == x->to && p->ev[i].wc >= 0)
                when = b_and(e, when, tz_bool(&q->tz, p->ev[i].wc));
        for (int b = 0; b < 3; b++)
            if (x->kind & (1 << b))
                rel_set(kind[b], x->from, x->to, b_or(e, rel_get(kind[b], x->from, x->to), when));
    }
    Z3_ast g = e->T;
    for (int i = 0; i < p->nguard && g; i++) g = b_and(e, g, tz_bool(&q->tz, p->guard[i]));
    assert_implies(q, s, g);
}

int build_paths(qproblem *q, char *err, size_t errlen)
{
    const muniverse *u = q->u;
    enc *e = &q->e;
    q->sel = xcalloc((size_t)u->nth, sizeof *q->sel);
    q->ex = xcalloc((size_t)q->n, sizeof *q->ex);
    q->cond = xcalloc((size_t)q->n, 1);
    q->rt = xcalloc((size_t)q->n, sizeof *q->rt);
    q->wt = xcalloc((size_t)q->n, sizeof *q->wt);
    q->rv = xcalloc((size_t)q->n, sizeof *q->rv);
    q->wv = xcalloc((size_t)q->n, sizeof *q->wv);
    tz_init(&q->tz, e, u->terms);
    for (int i = 0; i < u->ninit; i++) q->ex[i] = e->T;
    for (int t = 0; t < u->nth; t++) {
        const uthread *ut = &u->th[t];
        if (!ut->npath) {
            snprintf(err, errlen, "thread %s has no complete path", u->t->th[t].name);
            return -1;
        }
        q->sel[t] = xcalloc((size_t)ut->npath, sizeof **q->sel);
        for (int k = 0; k < ut->npath; k++) q->sel[t][k] = ut->npath == 1 ? e->T : b_var(e, "path");
        if (ut->npath > 1) {
            Z3_solver_assert(e->z, q->s, Z3_mk_or(e->z, (unsigned)ut->npath, q->sel[t]));
            assert_atmost1(q, q->sel[t], ut->npath);
        }
    }
    mark_conditional(q);
    for (int i = u->ninit; i < q->n; i++) {
        int t = u->ev[i].thread;
        if (u->npaths[i] == u->th[t].npath && !q->cond[i]) q->ex[i] = e->T;
    }
    for (int t = 0; t < u->nth; t++)
        for (int k = 0; k < u->th[t].npath; k++) add_path(q, &u->th[t].path[k], q->sel[t][k]);
    for (int i = 0; i < q->n; i++) {
        const mevent *m = &u->ev[i];
        unsigned w = 8u * (unsigned)m->size;
        if (m->k == EV_INIT)
            q->wv[i] = Z3_mk_unsigned_int64(e->z, (uint64_t)m->wval & mask_bytes(m->size),
                                            Z3_mk_bv_sort(e->z, w));
        else if (ev_mem(m)) {
            q->rv[i] = value_of(q, &q->rt[i], w, "rv");
            q->wv[i] = value_of(q, &q->wt[i], w, "wv");
        }
    }
    return 0;
}

int event_const(const qproblem *q, int ev, int rd, uint64_t *v)
{
    const mevent *m = &q->u->ev[ev];
    if (m->k == EV_INIT) {
        if (rd) return -1;
        *v = (uint64_t)m->wval & mask_bytes(m->size);
        return 0;
    }
    const tlist *l = rd ? &q->rt[ev] : &q->wt[ev];
    if (l->n != 1 || !mt_is_const(q->u->terms, l->t[0])) return -1;
    *v = mt_constval(q->u->terms, l->t[0]);
    return 0;
}

/* the bits of atom a in the value v of event ev */
static Z3_ast atom_bits(qproblem *q, Z3_ast v, int ev, int a)
{
    const matom *x = &q->at->a[a];
    const mevent *m = &q->u->ev[ev];
    if (x->off == m->off && x->size == m->size) return v;
    unsigned lo = 8u * (unsigned)(x->off - m->off);
    return Z3_mk_extract(q->e.z, lo + 8u * (unsigned)x->size - 1u, lo, v);
}

Z3_ast rf_agree(qproblem *q, int r, int w, int a)
{
    const matom *x = &q->at->a[a];
    uint64_t rk, wk;
    if (!event_const(q, r, 1, &rk) && !event_const(q, w, 0, &wk)) {
        uint64_t ra = rk >> (8 * (x->off - q->u->ev[r].off)) & mask_bytes(x->size),
                 wa = wk >> (8 * (x->off - q->u->ev[w].off)) & mask_bytes(x->size);
        return ra == wa ? q->e.T : NULL;
    }
    if (!q->rv[r] || !q->wv[w]) return NULL;
    return Z3_mk_eq(q->e.z, atom_bits(q, q->rv[r], r, a), atom_bits(q, q->wv[w], w, a));
}

/* ---------- observables ---------- */

/* a location's final value: each atom from its final write, the atoms side by side */
static Z3_ast final_location(qproblem *q, const qobs *o)
{
    enc *e = &q->e;
    int first = q->at->first[o->loc], cnt = q->at->count[o->loc];
    Z3_ast raw = NULL;
    for (int a = first; a < first + cnt; a++) {
        Z3_ast part = Z3_mk_fresh_const(e->z, "fin", Z3_mk_bv_sort(e->z, 8u * q->at->a[a].size));
        for (int w = 0; w < q->n; w++)
            if (q->fin[a][w] && q->wv[w])
                assert_implies(q, q->fin[a][w],
                               Z3_mk_eq(e->z, part, atom_bits(q, q->wv[w], w, a)));
        raw = raw ? Z3_mk_concat(e->z, part, raw) : part;   /* higher bytes to the left */
    }
    return tz_value_as(e, o->type, raw);
}

void build_observables(qproblem *q, const qobs *obs, int nobs)
{
    const muniverse *u = q->u;
    q->nobs = nobs;
    q->obs = xcalloc((size_t)(nobs ? nobs : 1), sizeof *q->obs);
    q->ov = xcalloc((size_t)(nobs ? nobs : 1), sizeof *q->ov);
    for (int o = 0; o < nobs; o++) {
        q->obs[o] = obs[o];
        if (obs[o].is_loc) { q->ov[o] = final_location(q, &obs[o]); continue; }
        const uthread *ut = &u->th[obs[o].thread];
        tlist l = { 0 };
        for (int k = 0; k < ut->npath; k++)
            tl_add(&q->e, &l, ut->path[k].regs[obs[o].reg], q->sel[obs[o].thread][k]);
        q->ov[o] = value_of(q, &l, 64, "reg");
        tl_free(&l);
    }
}

int64_t event_value(qproblem *q, Z3_model m, Z3_ast v)
{
    return v ? (int64_t)tz_model_u64(&q->e, m, v) : 0;
}

/* ---------- the condition ---------- */

static Z3_ast side(qproblem *q, const cond_ref *x, const cond_ref *other, query_obs_fn obs_of,
                   void *ctx)
{
    if (x->k != REF_CONST) return q->ov[obs_of(ctx, x)];
    int64_t v = other->k != REF_CONST ? isa_value(other->type, (uint64_t)x->val) : x->val;
    return Z3_mk_unsigned_int64(q->e.z, (uint64_t)v, Z3_mk_bv_sort(q->e.z, 64));
}

/* cond_compare (frontend/cond.c) on the observables' bit-vectors */
static Z3_ast compare_atom(qproblem *q, const cond_node *n, query_obs_fn obs_of, void *ctx)
{
    enc *e = &q->e;
    Z3_context z = e->z;
    if (n->l.k == REF_CONST && n->r.k == REF_CONST)
        return cond_compare(n->op, &n->l, n->l.val, &n->r, n->r.val) ? e->T : NULL;
    Z3_ast a = side(q, &n->l, &n->r, obs_of, ctx), b = side(q, &n->r, &n->l, obs_of, ctx);
    isa_type t = n->l.k != REF_CONST ? n->l.type : n->r.type;
    int unsig = isa_type_bits(t) == 64 && !isa_type_is_signed(t) && !isa_type_is_float(t);
    Z3_ast (*lt)(Z3_context, Z3_ast, Z3_ast) = unsig ? Z3_mk_bvult : Z3_mk_bvslt;
    switch (n->op) {
    case CN_EQ: return Z3_mk_eq(z, a, b);
    case CN_NE: return b_not(e, Z3_mk_eq(z, a, b));
    case CN_LT: return lt(z, a, b);
    case CN_LE: return b_not(e, lt(z, b, a));
    case CN_GT: return lt(z, b, a);
    case CN_GE: return b_not(e, lt(z, a, b));
    default: return NULL;
    }
}

Z3_ast query_cond(qproblem *q, const cond_node *n, query_obs_fn obs_of, void *ctx)
{
    enc *e = &q->e;
    switch (n->op) {
    case CN_TRUE: return e->T;
    case CN_FALSE: return NULL;
    case CN_AND:
        return b_and(e, query_cond(q, n->a, obs_of, ctx), query_cond(q, n->b, obs_of, ctx));
    case CN_OR: return b_or(e, query_cond(q, n->a, obs_of, ctx), query_cond(q, n->b, obs_of, ctx));
    case CN_NOT: return b_not(e, query_cond(q, n->a, obs_of, ctx));
    default: return compare_atom(q, n, obs_of, ctx);
    }
}

void values_free(qproblem *q)
{
    for (int i = 0; q->rt && i < q->n; i++) { tl_free(&q->rt[i]); tl_free(&q->wt[i]); }
    free(q->rt); free(q->wt); free(q->rv); free(q->wv); free(q->cond);
    free(q->ov); free(q->obs);
    tz_free(&q->tz);
}
