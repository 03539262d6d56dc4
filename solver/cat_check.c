/* solver/cat_check.c — the checks of a cat model (solver/cat_eval.h): asserting them into a
 * Z3 solver, and deciding them on a Z3 model of that solver.
 *
 * acyclic r: only edges that can lie on a cycle matter — an edge (i,j) can only when j can
 * reach i through edges that are not statically false — so the static part of r is pruned
 * first; then either an integer clock per event on such a cycle, increasing along each such
 * edge that holds (the idea of model/ptx.c's assert_acyclic), or the transitive closure of the
 * pruned relation with an empty diagonal.  irreflexive: no diagonal entry; empty: no entry.
 * A negated check asserts the opposite: some diagonal entry of r+ / of r, some entry. */
#include "base/alloc.h"
#include "solver/cat_eval.h"
#include <stdlib.h>
#include <string.h>

const char *cat_check_kind_name(cat_check_kind k)
{
    return k == CAT_ACYCLIC ? "acyclic" : k == CAT_IRREFLEXIVE ? "irreflexive" : "empty";
}

/* asserts a, or guard -> a when a guard is given */
static void assert_ast(enc *e, Z3_solver s, Z3_ast a, Z3_ast guard)
{
    if (a == e->T) return;
    if (guard) Z3_solver_assert(e->z, s, Z3_mk_implies(e->z, guard, b_of(e, a)));
    else Z3_solver_assert(e->z, s, b_of(e, a));
}

/* reach[i*n+j]: j is reachable from i by one or more edges that are not statically false */
static unsigned char *reachability(const rel *r)
{
    int n = r->n;
    unsigned char *reach = xcalloc((size_t)(n ? n * n : 1), 1);
    for (int i = 0; i < n * n; i++) reach[i] = r->m[i] != NULL;
    for (int k = 0; k < n; k++)
        for (int i = 0; i < n; i++) {
            if (!reach[i * n + k]) continue;
            for (int j = 0; j < n; j++) reach[i * n + j] |= reach[k * n + j];
        }
    return reach;
}

/* r restricted to the edges that can lie on a cycle (self-loops included) */
static rel cyclic_part(const rel *r)
{
    int n = r->n;
    unsigned char *reach = reachability(r);
    rel c = rel_new(n);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            if (r->m[i * n + j] && (i == j || reach[j * n + i])) c.m[i * n + j] = r->m[i * n + j];
    free(reach);
    return c;
}

static void assert_acyclic(enc *e, Z3_solver s, const rel *r, cat_acyclic_enc how, Z3_ast g)
{
    int n = r->n;
    rel c = cyclic_part(r);
    if (how == CAT_ACYCLIC_CLOSURE) {
        rel p = rel_plus(e, &c);
        for (int i = 0; i < n; i++) assert_ast(e, s, b_not(e, rel_get(&p, i, i)), g);
        rel_free(&p);
        rel_free(&c);
        return;
    }
    Z3_ast *clk = xcalloc((size_t)(n ? n : 1), sizeof *clk);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            Z3_ast x = rel_get(&c, i, j);
            if (!x) continue;
            if (i == j) { assert_ast(e, s, b_not(e, x), g); continue; }
            for (int k = 0; k < 2; k++) {
                int v = k ? j : i;
                if (!clk[v]) clk[v] = Z3_mk_fresh_const(e->z, "catclk", e->intsort);
            }
            Z3_ast lt = Z3_mk_lt(e->z, clk[i], clk[j]);
            assert_ast(e, s, x == e->T ? lt : Z3_mk_implies(e->z, x, lt), g);
        }
    free(clk);
    rel_free(&c);
}

/* the disjunction of the diagonal (diag = 1) or of every entry of r */
static Z3_ast some_entry(enc *e, const rel *r, int diag)
{
    int n = r->n, k = 0;
    Z3_ast *v = xmalloc((size_t)(n ? n * n : 1) * sizeof *v);
    for (int i = 0; i < n; i++)
        for (int j = diag ? i : 0; j < (diag ? i + 1 : n); j++) v[k++] = rel_get(r, i, j);
    Z3_ast any = b_or_n(e, v, k);
    free(v);
    return any;
}

void cat_assert_check(enc *e, Z3_solver s, const cat_check *c, cat_acyclic_enc how)
{
    cat_assert_check_if(e, s, c, how, NULL);
}

void cat_assert_check_if(enc *e, Z3_solver s, const cat_check *c, cat_acyclic_enc how, Z3_ast g)
{
    const rel *r = &c->r;
    int n = r->n;
    if (c->negated) {
        Z3_ast any;
        if (c->kind == CAT_ACYCLIC) {
            rel cyc = cyclic_part(r), p = rel_plus(e, &cyc);
            any = some_entry(e, &p, 1);
            rel_free(&cyc);
            rel_free(&p);
        } else {
            any = some_entry(e, r, c->kind == CAT_IRREFLEXIVE);
        }
        assert_ast(e, s, any, g);
        return;
    }
    if (c->kind == CAT_ACYCLIC) { assert_acyclic(e, s, r, how, g); return; }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            if (c->kind == CAT_IRREFLEXIVE && i != j) continue;
            Z3_ast x = rel_get(r, i, j);
            if (x) assert_ast(e, s, b_not(e, x), g);
        }
}

int cat_assert_checks(enc *e, Z3_solver s, const cat_result *r)
{
    int k = 0;
    for (int i = 0; i < r->n; i++) {
        if (r->v[i].flag || r->v[i].undefined_unless) continue;
        cat_assert_check(e, s, &r->v[i], CAT_ACYCLIC_CLOCKS);
        k++;
    }
    return k;
}

/* is there a cycle in the n-node graph g (an n*n 0/1 matrix)?  Kahn's algorithm */
static int has_cycle(const unsigned char *g, int n)
{
    int *indeg = xcalloc((size_t)(n ? n : 1), sizeof *indeg);
    int *queue = xcalloc((size_t)(n ? n : 1), sizeof *queue);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) indeg[j] += g[i * n + j];
    int head = 0, tail = 0;
    for (int i = 0; i < n; i++)
        if (!indeg[i]) queue[tail++] = i;
    while (head < tail) {
        int i = queue[head++];
        for (int j = 0; j < n; j++)
            if (g[i * n + j] && --indeg[j] == 0) queue[tail++] = j;
    }
    free(indeg);
    free(queue);
    return tail < n;
}

int cat_check_holds(enc *e, Z3_model m, const cat_check *c)
{
    int n = c->r.n, bad = 0;
    unsigned char *g = xcalloc((size_t)(n ? n * n : 1), 1);
    for (int k = 0; k < n * n; k++) {
        Z3_ast x = c->r.m[k], v;
        if (!x) continue;
        if (x == e->T) { g[k] = 1; continue; }
        if (!Z3_model_eval(e->z, m, x, true, &v)) { free(g); return -1; }
        Z3_lbool b = Z3_get_bool_value(e->z, v);
        if (b == Z3_L_UNDEF) { free(g); return -1; }
        g[k] = b == Z3_L_TRUE;
    }
    if (c->kind == CAT_ACYCLIC) bad = has_cycle(g, n);
    for (int k = 0; k < n * n && c->kind != CAT_ACYCLIC && !bad; k++)
        bad = g[k] && (c->kind == CAT_EMPTY || k / n == k % n);
    free(g);
    return c->negated ? bad : !bad;
}

int cat_checks_hold(enc *e, Z3_model m, const cat_result *r, int *holds)
{
    for (int i = 0; i < r->n; i++) {
        int h = cat_check_holds(e, m, &r->v[i]);
        if (h < 0) return -1;
        holds[i] = h;
    }
    return 0;
}

int cat_check_concrete(enc *e, const cat_check *c)
{
    for (int k = 0; k < c->r.n * c->r.n; k++)
        if (c->r.m[k] && c->r.m[k] != e->T) return -1;
    return cat_check_holds(e, NULL, c);
}
