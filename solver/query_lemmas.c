/* solver/query_lemmas.c — facts a test's model implies that the solver would otherwise find
 * only by going through interleavings one by one.
 *
 * A counter (T threads each adding 1 to x K times) has one final value, but the problem of
 * solver/query.c leaves the solver to see that for every coherence order of the increments
 * separately: the value an increment writes is its read value plus one, and its read value is
 * whatever the write it reads from wrote, so the solver follows each chain.  That is 63 million
 * interleavings for 4 x 4.  With symbolic values, the closed form is at hand: when
 *   (1) every write to a location (one atom) is its initial value or an atomic operation
 *       old (+) k with constant k, one associative and commutative (+) (add, and, or, xor, min,
 *       max; model/traces.c marks them), that always writes;
 *   (2) coherence order is total on the existing writes of the location; and
 *   (3) each of those operations reads from the write immediately before its own write in
 *       coherence order (a write before it, and none in between),
 * then, by induction over coherence order, an operation e reads init (+) the k of every write
 * before e in coherence order, and writes that (+) its own k.  The engine assumes neither (2)
 * nor (3): they are what the model's axioms (Coherence-order, Atomicity in model/ptx.cat) say
 * about morally strong operations, and a model need not say so.  So the solver proves them
 * first, from the problem with every check of the model assumed (one question per location: is
 * there an execution violating (2) or (3)?), and only when the answer is no are the closed
 * forms (and (2)) asserted, under q->lemma_guard, which query_check assumes only together with
 * all the model's checks (an explanation that drops a check does without them).  The lemmas
 * are implied facts: they remove no execution and add none. */
#include "solver/query_int.h"
#include "base/alloc.h"
#include <stdlib.h>
#include <string.h>

static Z3_ast bv_k(qproblem *q, unsigned w, uint64_t v)
{
    return Z3_mk_unsigned_int64(q->e.z, v, Z3_mk_bv_sort(q->e.z, w));
}

/* the identity of (+) on w bits */
static uint64_t identity(isa_atom_op op, isa_type t, unsigned w)
{
    uint64_t all = w >= 64 ? ~0ull : (1ull << w) - 1;
    int sgn = isa_type_is_signed(t);
    switch (op) {
    case ISA_ATOM_AND: return all;
    case ISA_ATOM_MIN: return sgn ? all >> 1 : all;
    case ISA_ATOM_MAX: return sgn ? (all >> 1) + 1 : 0;
    default: return 0;   /* add, or, xor */
    }
}

static Z3_ast combine(qproblem *q, isa_atom_op op, isa_type t, Z3_ast a, Z3_ast b)
{
    Z3_context z = q->e.z;
    int sgn = isa_type_is_signed(t);
    switch (op) {
    case ISA_ATOM_ADD: return Z3_mk_bvadd(z, a, b);
    case ISA_ATOM_AND: return Z3_mk_bvand(z, a, b);
    case ISA_ATOM_OR: return Z3_mk_bvor(z, a, b);
    case ISA_ATOM_XOR: return Z3_mk_bvxor(z, a, b);
    case ISA_ATOM_MIN: return Z3_mk_ite(z, sgn ? Z3_mk_bvslt(z, b, a) : Z3_mk_bvult(z, b, a), b, a);
    default: return Z3_mk_ite(z, sgn ? Z3_mk_bvslt(z, a, b) : Z3_mk_bvult(z, a, b), b, a);
    }
}

/* The writes of location loc when (1) holds: the initial write first, then the writes of the
   atomic operations; their number, or 0. */
static int accumulating(qproblem *q, int loc, int *wr)
{
    const muniverse *u = q->u;
    int n = 0;
    const mevent *first = NULL;
    if (q->at->count[loc] != 1) return 0;
    for (int i = 0; i < q->n; i++) {
        const mevent *m = &u->ev[i];
        if (!ev_mem(m) || m->loc != loc) continue;
        if (m->off != 0 || m->size != u->t->sym[loc].size) return 0;
        if (!is_write(m)) continue;
        if (m->k == EV_INIT) { wr[n++] = i; continue; }
        /* the write of an atomic operation that always writes the one term of its paths */
        if (u->rmw_part[i] != 2 || !m->acc || q->cond[i] || q->wt[i].n != 1) return 0;
        if (first && (m->acc != first->acc || m->acc_t != first->acc_t)) return 0;
        first = m;
        wr[n++] = i;
    }
    /* a few operations have few interleavings: the solver goes through them faster than the
       lemmas are proven (public suite: 2 or 3 per location) */
    return first && n >= 1 + LEMMA_MIN_OPS && u->ev[wr[0]].k == EV_INIT ? n : 0;
}

/* 1 when no execution satisfies v (NULL: none can) */
static int none_satisfies(qproblem *q, Z3_ast v)
{
    if (!v) return 1;
    Z3_solver_push(q->e.z, q->s);
    assert_ast(q, v);
    Z3_lbool r = query_check(q);
    Z3_solver_pop(q->e.z, q->s, 1);
    return r == Z3_L_FALSE;
}

/* Whether no execution violates (2) or (3) for these writes.  One question per elementary
   fact: each is refuted at once by the model's constraints when the model implies it, where a
   disjunction of them leaves the solver to search (4 x 4 counter: 3 800 questions in 0.4 s,
   against 1.2 s for one question per pair of read and write). */
static int implied(qproblem *q, const int *wr, int n)
{
    enc *e = &q->e;
    for (int i = 1; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            Z3_ast both = b_and(e, q->ex[wr[i]], q->ex[wr[j]]);
            Z3_ast none = b_and(e, b_not(e, rel_get(&q->co, wr[i], wr[j])),
                                b_not(e, rel_get(&q->co, wr[j], wr[i])));
            if (!none_satisfies(q, b_and(e, both, none))) return 0;
        }
    for (int i = 1; i < n; i++) {
        int w = wr[i], r = q->u->rmw_pair[w];
        const Z3_ast *row = q->rfa[r][0];
        for (int s = 0; s < q->n; s++) {
            if (!row[s]) continue;
            /* the write it reads from is before its own write ... */
            if (!none_satisfies(q, b_and(e, row[s], b_not(e, rel_get(&q->co, s, w))))) return 0;
            /* ... and no write is in between */
            for (int k = 0; k < n; k++) {
                if (wr[k] == s || wr[k] == w) continue;
                Z3_ast between = b_and(e, rel_get(&q->co, s, wr[k]), rel_get(&q->co, wr[k], w));
                if (!none_satisfies(q, b_and(e, row[s], between))) return 0;
            }
        }
    }
    return 1;
}

/* the closed forms of the values and the totality of coherence, under the lemma guard */
static void assert_closed_forms(qproblem *q, const int *wr, int n)
{
    enc *e = &q->e;
    const mevent *m = &q->u->ev[wr[1]];
    unsigned w = 8u * (unsigned)m->size;
    isa_atom_op op = m->acc;

    Z3_ast id = bv_k(q, w, identity(op, m->acc_t, w));
    uint64_t init = (uint64_t)q->u->ev[wr[0]].wval & (w >= 64 ? ~0ull : (1ull << w) - 1);
    for (int i = 1; i < n; i++) {
        for (int j = i + 1; j < n; j++) {
            Z3_ast both = b_and(e, q->ex[wr[i]], q->ex[wr[j]]);
            Z3_ast some = b_or(e, rel_get(&q->co, wr[i], wr[j]), rel_get(&q->co, wr[j], wr[i]));
            assert_implies(q, q->lemma_guard, b_or(e, b_not(e, both), some));
        }
        Z3_ast before = bv_k(q, w, init);
        for (int j = 1; j < n; j++) {
            Z3_ast c = j == i ? NULL : rel_get(&q->co, wr[j], wr[i]);
            if (!c) continue;
            Z3_ast kj = bv_k(q, w, q->u->ev[wr[j]].acc_k);
            before = combine(q, op, m->acc_t, before, c == e->T ? kj : Z3_mk_ite(e->z, c, kj, id));
        }
        int r = q->u->rmw_pair[wr[i]];
        Z3_ast after = combine(q, op, m->acc_t, before, bv_k(q, w, q->u->ev[wr[i]].acc_k));
        Z3_ast facts =
            b_and(e, Z3_mk_eq(e->z, read_bv(q, r), before), Z3_mk_eq(e->z, q->wv[wr[i]], after));
        assert_implies(q, q->lemma_guard, b_or(e, b_not(e, q->ex[wr[i]]), facts));
    }
}

void build_lemmas(qproblem *q)
{
    const lit_test *t = q->u->t;
    int *wr = xcalloc((size_t)q->n + 1, sizeof *wr);
    for (int loc = 0; loc < t->nsym && !query_past_deadline(q); loc++) {
        if (t->sym[loc].loc != loc) continue;
        int n = accumulating(q, loc, wr);
        if (!n) continue;
        if (!implied(q, wr, n)) continue;   /* not implied (or not known): no lemma */
        if (!q->lemma_guard) q->lemma_guard = b_var(&q->e, "lemma");
        assert_closed_forms(q, wr, n);
    }
    free(wr);
}
