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
}

void assert_guards(qproblem *q)
{
    enc *e = &q->e;
    for (int t = 0; t < q->u->nth; t++)
        for (int k = 0; k < q->u->th[t].npath; k++) {
            const upath *p = &q->u->th[t].path[k];
            Z3_ast g = e->T;
            for (int i = 0; i < p->nguard && g; i++) g = b_and(e, g, enc_bool(q, p->guard[i]));
            assert_implies(q, q->sel[t][k], g);
        }
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
    q->fin_read = xcalloc((size_t)q->n, 1);
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
        else if (ev_mem(m)) q->wv[i] = value_of(q, &q->wt[i], w, "wv");
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

/* the constant values of read r and write w at atom a: 1 when both are constants */
static int both_const(const qproblem *q, int r, int w, int a, uint64_t *ra, uint64_t *wa)
{
    const matom *x = &q->at->a[a];
    uint64_t rk, wk;
    if (event_const(q, r, 1, &rk) || event_const(q, w, 0, &wk)) return 0;
    *ra = rk >> (8 * (x->off - q->u->ev[r].off)) & mask_bytes(x->size);
    *wa = wk >> (8 * (x->off - q->u->ev[w].off)) & mask_bytes(x->size);
    return 1;
}

int rf_possible(const qproblem *q, int r, int w, int a)
{
    uint64_t ra, wa;
    return !both_const(q, r, w, a, &ra, &wa) || ra == wa;
}

Z3_ast rf_agree(qproblem *q, int r, int w, int a)
{
    uint64_t ra, wa;
    Z3_ast f;
    if (both_const(q, r, w, a, &ra, &wa)) return ra == wa ? q->e.T : NULL;
    if (q->fin_read[r]) return q->e.T;   /* its value is the write's, by reads-from alone */
    if (domain_agree(q, r, w, a, &f)) return f;
    if (!read_bv(q, r) || !q->wv[w]) return NULL;
    return Z3_mk_eq(q->e.z, atom_bits(q, read_bv(q, r), r, a), atom_bits(q, q->wv[w], w, a));
}

/* ---------- observables ---------- */

/* The final values of a location as constants when every write that may give an atom its
   final value writes constants there (most tests): the atoms' values combined, each with
   when it holds.  0 when they are not constants (or too many combinations). */
static int constant_location(qproblem *q, const qobs *o, vlist *out)
{
    enc *e = &q->e;
    int first = q->at->first[o->loc], cnt = q->at->count[o->loc], ok = 1;
    vlist *parts = xcalloc((size_t)cnt, sizeof *parts);
    long combos = 1;
    for (int a = first; a < first + cnt && ok; a++) {
        const matom *x = &q->at->a[a];
        for (int w = 0; w < q->n && ok; w++) {
            if (!q->fin[a][w]) continue;
            const mevent *m = &q->u->ev[w];
            int sh = 8 * (x->off - m->off);
            if (m->k == EV_INIT) {
                vl_add(e, &parts[a - first],
                       (int64_t)((uint64_t)m->wval >> sh & mask_bytes(x->size)), q->fin[a][w]);
                continue;
            }
            for (int i = 0; i < q->wt[w].n && ok; i++) {
                int t = q->wt[w].t[i];
                if (!(ok = mt_is_const(q->u->terms, t))) break;
                vl_add(e, &parts[a - first],
                       (int64_t)(mt_constval(q->u->terms, t) >> sh & mask_bytes(x->size)),
                       b_and(e, q->fin[a][w], q->wt[w].ind[i]));
            }
        }
        combos *= parts[a - first].n;
        if (combos > 4096) ok = 0;
    }
    for (long k = 0; ok && k < combos; k++) {
        long r = k;
        uint64_t raw = 0;
        Z3_ast when = e->T;
        for (int a = first; a < first + cnt; a++) {
            const vlist *pa = &parts[a - first];
            raw |= (uint64_t)pa->v[r % pa->n] << (8 * q->at->a[a].off);
            when = b_and(e, when, pa->ind[r % pa->n]);
            r /= pa->n;
        }
        vl_add(e, out, isa_value(o->type, raw), when);
    }
    for (int a = 0; a < cnt; a++) vl_free(&parts[a]);
    free(parts);
    if (!ok) vl_free(out);
    return ok;
}

/* a location's final value as a bit-vector: each atom from its final write, side by side */
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
    q->ovl = xcalloc((size_t)(nobs ? nobs : 1), sizeof *q->ovl);
    for (int o = 0; o < nobs; o++) {
        q->obs[o] = obs[o];
        if (obs[o].is_loc) {
            if (!constant_location(q, &obs[o], &q->ovl[o])) q->ov[o] = final_location(q, &obs[o]);
            continue;
        }
        const uthread *ut = &u->th[obs[o].thread];
        tlist l = { 0 };
        for (int k = 0; k < ut->npath; k++)
            tl_add(&q->e, &l, ut->path[k].regs[obs[o].reg], q->sel[obs[o].thread][k]);
        /* the values of each path's term (constants, or computed from reads of constants) */
        int all = 1;
        for (int i = 0; all && i < l.n; i++) {
            vlist tv = { 0 };
            all = term_values(q, l.t[i], &tv);
            for (int j = 0; all && j < tv.n; j++)
                vl_add(&q->e, &q->ovl[o], tv.v[j], b_and(&q->e, l.ind[i], tv.ind[j]));
            vl_free(&tv);
        }
        if (!all) { vl_free(&q->ovl[o]); q->ov[o] = value_of(q, &l, 64, "reg"); }
        tl_free(&l);
    }
}

/* observable o as a bit-vector (made from its constants when it has them) */
static Z3_ast obs_bv(qproblem *q, int o)
{
    if (q->ov[o]) return q->ov[o];
    const vlist *l = &q->ovl[o];
    Z3_context z = q->e.z;
    Z3_sort s64 = Z3_mk_bv_sort(z, 64);
    Z3_ast v = l->n == 1 ? Z3_mk_unsigned_int64(z, (uint64_t)l->v[0], s64)
                         : Z3_mk_fresh_const(z, "obs", s64);
    for (int i = 0; l->n > 1 && i < l->n; i++)
        assert_implies(q, l->ind[i],
                       Z3_mk_eq(z, v, Z3_mk_unsigned_int64(z, (uint64_t)l->v[i], s64)));
    return q->ov[o] = v;
}

int64_t obs_value(qproblem *q, Z3_model m, int o)
{
    const vlist *l = &q->ovl[o];
    if (!l->n) return event_value(q, m, q->ov[o]);
    for (int i = 0; i < l->n; i++) if (model_holds(&q->e, m, l->ind[i])) return l->v[i];
    fprintf(stderr, "ptxlitmus: internal error: an observable without a value\n");
    abort();
}

Z3_ast obs_differs(qproblem *q, int o, int64_t v)
{
    const vlist *l = &q->ovl[o];
    enc *e = &q->e;
    if (!l->n)
        return b_not(e, Z3_mk_eq(e->z, q->ov[o],
                                 Z3_mk_unsigned_int64(e->z, (uint64_t)v, Z3_mk_bv_sort(e->z, 64))));
    for (int i = 0; i < l->n; i++) if (l->v[i] == v) return b_not(e, l->ind[i]);
    return e->T;
}


/* ---------- the condition ---------- */

static Z3_ast side(qproblem *q, const cond_ref *x, const cond_ref *other, query_obs_fn obs_of,
                   void *ctx)
{
    if (x->k != REF_CONST) return obs_bv(q, obs_of(ctx, x));
    int64_t v = other->k != REF_CONST ? isa_value(other->type, (uint64_t)x->val) : x->val;
    return Z3_mk_unsigned_int64(q->e.z, (uint64_t)v, Z3_mk_bv_sort(q->e.z, 64));
}

/* the values of one side as constants with indicators; 0 when it has none */
static int side_values(qproblem *q, const cond_ref *x, query_obs_fn obs_of, void *ctx,
                       vlist *tmp, const vlist **out)
{
    if (x->k == REF_CONST) { vl_add(&q->e, tmp, x->val, q->e.T); *out = tmp; return 1; }
    *out = &q->ovl[obs_of(ctx, x)];
    return (*out)->n > 0;
}

/* cond_compare (frontend/cond.c): over the constants both sides may have, else on the
   observables' bit-vectors */
static Z3_ast compare_atom(qproblem *q, const cond_node *n, query_obs_fn obs_of, void *ctx)
{
    enc *e = &q->e;
    Z3_context z = e->z;
    vlist cl = { 0 }, cr = { 0 };
    const vlist *l, *r;
    if (side_values(q, &n->l, obs_of, ctx, &cl, &l) &&
        side_values(q, &n->r, obs_of, ctx, &cr, &r)) {
        Z3_ast acc = NULL;
        for (int i = 0; i < l->n; i++)
            for (int j = 0; j < r->n; j++)
                if (cond_compare(n->op, &n->l, l->v[i], &n->r, r->v[j]))
                    acc = b_or(e, acc, b_and(e, l->ind[i], r->ind[j]));
        vl_free(&cl);
        vl_free(&cr);
        return acc;
    }
    vl_free(&cl);
    vl_free(&cr);
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
    for (int i = 0; q->fv && i < q->n; i++) vl_free(&q->fv[i]);
    for (int v = 0; q->varv && v < q->u->terms->nvar; v++) vl_free(&q->varv[v]);
    free(q->fv); free(q->varv); free(q->var_fin); free(q->fin_read);
    free(q->rt); free(q->wt); free(q->rv); free(q->wv); free(q->cond);
    for (int o = 0; q->ovl && o < q->nobs; o++) vl_free(&q->ovl[o]);
    free(q->ov); free(q->ovl); free(q->obs);
    tz_free(&q->tz);
}
