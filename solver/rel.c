/* solver/rel.c — relation algebra with constant folding over Z3 Boolean terms (see rel.h). */
#include "base/alloc.h"
#include "solver/rel.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void z3_error(Z3_context c, Z3_error_code code)
{
    if (code == Z3_MEMOUT_FAIL) x_out_of_memory(0);   /* reported, stdout flushed, exit 2 */
    fprintf(stderr, "ptxlitmus: internal Z3 error: %s\n", Z3_get_error_msg(c, code));
    abort();
}

void enc_init(enc *e)
{
    Z3_config cfg = Z3_mk_config();
    Z3_set_param_value(cfg, "model", "true");
    e->z = Z3_mk_context(cfg);
    Z3_del_config(cfg);
    Z3_set_error_handler(e->z, z3_error);
    e->T = Z3_mk_true(e->z);
    e->F = Z3_mk_false(e->z);
    e->boolsort = Z3_mk_bool_sort(e->z);
    e->intsort = Z3_mk_int_sort(e->z);
    e->fresh = 0;
    e->timeout_ms = 0;
}

void enc_free(enc *e) { Z3_del_context(e->z); e->z = NULL; }

/* ctrl_c=false: by default Z3 installs its own SIGINT handler for the length of every check,
 * and a ^C then only cancels that check (verify went on to exit 2 with an error), while the
 * tool's handler (base/fileio.c: temporary outputs removed, killed by the signal, exit 130) and
 * the suite's (partial reports marked interrupted) are set aside.  SIGINT is the tool's. */
Z3_solver enc_solver(enc *e)
{
    Z3_solver s = Z3_mk_simple_solver(e->z);
    Z3_solver_inc_ref(e->z, s);
    Z3_params p = Z3_mk_params(e->z);
    Z3_params_inc_ref(e->z, p);
    Z3_params_set_bool(e->z, p, Z3_mk_string_symbol(e->z, "ctrl_c"), false);
    Z3_solver_set_params(e->z, s, p);
    Z3_params_dec_ref(e->z, p);
    return s;
}

void enc_solver_timeout(enc *e, Z3_solver s, double ms)
{
    Z3_params p = Z3_mk_params(e->z);
    Z3_params_inc_ref(e->z, p);
    Z3_params_set_uint(e->z, p, Z3_mk_string_symbol(e->z, "timeout"),
                       (unsigned)(ms < 1 ? 1 : ms < 4e9 ? ms : 4e9));
    Z3_solver_set_params(e->z, s, p);
    Z3_params_dec_ref(e->z, p);
}

Z3_ast b_and(enc *e, Z3_ast a, Z3_ast b)
{
    if (!a || !b) return NULL;
    if (a == e->T) return b;
    if (b == e->T) return a;
    if (a == b) return a;
    Z3_ast v[2] = { a, b };
    return Z3_mk_and(e->z, 2, v);
}

Z3_ast b_or(enc *e, Z3_ast a, Z3_ast b)
{
    if (!a) return b;
    if (!b) return a;
    if (a == e->T || b == e->T) return e->T;
    if (a == b) return a;
    Z3_ast v[2] = { a, b };
    return Z3_mk_or(e->z, 2, v);
}

Z3_ast b_not(enc *e, Z3_ast a)
{
    if (!a) return e->T;
    if (a == e->T) return NULL;
    return Z3_mk_not(e->z, a);
}

Z3_ast b_or_n(enc *e, Z3_ast *v, int n)
{
    int k = 0;
    for (int i = 0; i < n; i++) {
        if (!v[i]) continue;
        if (v[i] == e->T) return e->T;
        v[k++] = v[i];
    }
    if (k == 0) return NULL;
    if (k == 1) return v[0];
    return Z3_mk_or(e->z, (unsigned)k, v);
}

Z3_ast b_var(enc *e, const char *prefix)
{
    char name[64];
    snprintf(name, sizeof name, "%s!%d", prefix, e->fresh++);
    return Z3_mk_const(e->z, Z3_mk_string_symbol(e->z, name), e->boolsort);
}

Z3_ast b_of(enc *e, Z3_ast a) { return a ? a : e->F; }

rel rel_new(int n)
{
    rel r = { n, xcalloc((size_t)(n > 0 ? n * n : 1), sizeof(Z3_ast)) };
    return r;
}

void rel_free(rel *r) { free(r->m); r->m = NULL; }

rel rel_copy(const rel *a)
{
    rel r = rel_new(a->n);
    memcpy(r.m, a->m, (size_t)(a->n * a->n) * sizeof(Z3_ast));
    return r;
}

rel rel_union(enc *e, const rel *a, const rel *b)
{
    rel r = rel_new(a->n);
    for (int i = 0; i < a->n * a->n; i++) r.m[i] = b_or(e, a->m[i], b->m[i]);
    return r;
}

rel rel_inter(enc *e, const rel *a, const rel *b)
{
    rel r = rel_new(a->n);
    for (int i = 0; i < a->n * a->n; i++) r.m[i] = b_and(e, a->m[i], b->m[i]);
    return r;
}

rel rel_seq(enc *e, const rel *a, const rel *b)
{
    int n = a->n;
    rel r = rel_new(n);
    Z3_ast *acc = xmalloc((size_t)(n ? n : 1) * sizeof *acc);
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) {
            int k2 = 0;
            for (int k = 0; k < n; k++) {
                Z3_ast x = a->m[i * n + k];
                if (!x) continue;
                Z3_ast y = b->m[k * n + j];
                if (!y) continue;
                acc[k2++] = b_and(e, x, y);
            }
            r.m[i * n + j] = b_or_n(e, acc, k2);
        }
    }
    free(acc);
    return r;
}

rel rel_inverse(const rel *a)
{
    rel r = rel_new(a->n);
    for (int i = 0; i < a->n; i++)
        for (int j = 0; j < a->n; j++) r.m[j * a->n + i] = a->m[i * a->n + j];
    return r;
}

/* Warshall: after step k, (i,j) holds iff a path from i to j through nodes <= k exists. */
rel rel_plus(enc *e, const rel *a)
{
    int n = a->n;
    rel r = rel_copy(a);
    for (int k = 0; k < n; k++) {
        for (int i = 0; i < n; i++) {
            Z3_ast ik = r.m[i * n + k];
            if (!ik) continue;
            for (int j = 0; j < n; j++) {
                Z3_ast kj = r.m[k * n + j];
                if (!kj) continue;
                Z3_ast cur = r.m[i * n + j];
                if (cur == e->T) continue;
                r.m[i * n + j] = b_or(e, cur, b_and(e, ik, kj));
            }
        }
    }
    return r;
}

rel rel_filter(const rel *a, int (*keep)(void *ctx, int i, int j), void *ctx)
{
    rel r = rel_new(a->n);
    for (int i = 0; i < a->n; i++)
        for (int j = 0; j < a->n; j++)
            if (a->m[i * a->n + j] && keep(ctx, i, j)) r.m[i * a->n + j] = a->m[i * a->n + j];
    return r;
}

rel rel_static(int n, int (*holds)(void *ctx, int i, int j), void *ctx, enc *e)
{
    rel r = rel_new(n);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            if (holds(ctx, i, j)) r.m[i * n + j] = e->T;
    return r;
}

/* ---- additions for the cat evaluator ---- */

rset rset_new(int n)
{
    rset s = { n, xcalloc((size_t)(n > 0 ? n : 1), sizeof(Z3_ast)) };
    return s;
}

void rset_free(rset *s) { free(s->v); s->v = NULL; }

rset rset_copy(const rset *a)
{
    rset s = rset_new(a->n);
    if (a->n) memcpy(s.v, a->v, (size_t)a->n * sizeof(Z3_ast));
    return s;
}

rset rset_union(enc *e, const rset *a, const rset *b)
{
    rset s = rset_new(a->n);
    for (int i = 0; i < a->n; i++) s.v[i] = b_or(e, a->v[i], b->v[i]);
    return s;
}

rset rset_inter(enc *e, const rset *a, const rset *b)
{
    rset s = rset_new(a->n);
    for (int i = 0; i < a->n; i++) s.v[i] = b_and(e, a->v[i], b->v[i]);
    return s;
}

/* x and not y, folded */
static Z3_ast b_andnot(enc *e, Z3_ast x, Z3_ast y)
{
    if (!x || !y) return x;
    if (y == e->T || x == y) return NULL;
    return b_and(e, x, b_not(e, y));
}

rset rset_diff(enc *e, const rset *a, const rset *b)
{
    rset s = rset_new(a->n);
    for (int i = 0; i < a->n; i++) s.v[i] = b_andnot(e, a->v[i], b->v[i]);
    return s;
}

rel rel_diff(enc *e, const rel *a, const rel *b)
{
    rel r = rel_new(a->n);
    for (int i = 0; i < a->n * a->n; i++) r.m[i] = b_andnot(e, a->m[i], b->m[i]);
    return r;
}

rel rel_cross(enc *e, const rset *a, const rset *b)
{
    int n = a->n;
    rel r = rel_new(n);
    for (int i = 0; i < n; i++) {
        if (!a->v[i]) continue;
        for (int j = 0; j < n; j++) r.m[i * n + j] = b_and(e, a->v[i], b->v[j]);
    }
    return r;
}

rel rel_complement(enc *e, const rel *a, const rset *u)
{
    int n = a->n;
    rel r = rel_new(n);
    for (int i = 0; i < n; i++) {
        if (!u->v[i]) continue;
        for (int j = 0; j < n; j++)
            r.m[i * n + j] = b_andnot(e, b_and(e, u->v[i], u->v[j]), a->m[i * n + j]);
    }
    return r;
}

rel rel_ident(const rset *s)
{
    rel r = rel_new(s->n);
    for (int i = 0; i < s->n; i++) r.m[i * s->n + i] = s->v[i];
    return r;
}

rset rel_domain(enc *e, const rel *a)
{
    int n = a->n;
    rset s = rset_new(n);
    Z3_ast *tmp = xmalloc((size_t)(n > 0 ? n : 1) * sizeof *tmp);
    for (int i = 0; i < n; i++) {
        memcpy(tmp, a->m + i * n, (size_t)n * sizeof *tmp);
        s.v[i] = b_or_n(e, tmp, n);
    }
    free(tmp);
    return s;
}

rset rel_range(enc *e, const rel *a)
{
    int n = a->n;
    rset s = rset_new(n);
    Z3_ast *tmp = xmalloc((size_t)(n > 0 ? n : 1) * sizeof *tmp);
    for (int j = 0; j < n; j++) {
        for (int i = 0; i < n; i++) tmp[i] = a->m[i * n + j];
        s.v[j] = b_or_n(e, tmp, n);
    }
    free(tmp);
    return s;
}

rel rel_opt(enc *e, const rel *a, const rset *u)
{
    rel r = rel_copy(a);
    for (int i = 0; i < a->n; i++) r.m[i * a->n + i] = b_or(e, a->m[i * a->n + i], u->v[i]);
    return r;
}

rel rel_star(enc *e, const rel *a, const rset *u)
{
    rel p = rel_plus(e, a);
    for (int i = 0; i < a->n; i++) p.m[i * a->n + i] = b_or(e, p.m[i * a->n + i], u->v[i]);
    return p;
}

/* rows i of a ; b: for each middle event k (ascending) with a(i,k), each column j of b's row k
 * that is not statically false; an entry stops accumulating once it is statically true */
static void seq_rows(enc *e, const rel *a, const rel *b, rel *r, int *bcol, int *bcnt,
                     Z3_ast *acc, int *cnt)
{
    int n = a->n;
    for (int k = 0; k < n; k++) {
        bcnt[k] = 0;
        for (int j = 0; j < n; j++)
            if (b->m[k * n + j]) bcol[k * n + bcnt[k]++] = j;
    }
    for (int i = 0; i < n; i++) {
        int any = 0;
        memset(cnt, 0, (size_t)n * sizeof *cnt);
        for (int k = 0; k < n; k++) {
            Z3_ast x = a->m[i * n + k];
            if (!x) continue;
            for (int q = 0; q < bcnt[k]; q++) {
                int j = bcol[k * n + q];
                if (cnt[j] < 0) continue;
                Z3_ast t = b_and(e, x, b->m[k * n + j]);
                if (t == e->T) cnt[j] = -1;
                else acc[j * n + cnt[j]++] = t;
                any = 1;
            }
        }
        for (int j = 0; any && j < n; j++)
            r->m[i * n + j] = cnt[j] < 0 ? e->T : cnt[j] ? b_or_n(e, acc + j * n, cnt[j]) : NULL;
    }
}

rel rel_seq_sparse(enc *e, const rel *a, const rel *b)
{
    int n = a->n;
    rel r = rel_new(n);
    if (n <= 0) return r;
    if (n <= 32) {
        int bcol[32 * 32], bcnt[32], cnt[32];
        Z3_ast acc[32 * 32];
        seq_rows(e, a, b, &r, bcol, bcnt, acc, cnt);
        return r;
    }
    int *bcol = xmalloc((size_t)n * (size_t)(n + 2) * sizeof *bcol);
    Z3_ast *acc = xmalloc((size_t)n * (size_t)n * sizeof *acc);
    seq_rows(e, a, b, &r, bcol, bcol + n * n, acc, bcol + n * n + n);
    free(bcol);
    free(acc);
    return r;
}

int rel_is_empty(const rel *a)
{
    for (int i = 0; i < a->n * a->n; i++)
        if (a->m[i]) return 0;
    return 1;
}

int rset_is_empty(const rset *a)
{
    for (int i = 0; i < a->n; i++)
        if (a->v[i]) return 0;
    return 1;
}
