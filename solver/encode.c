/* solver/encode.c — the Z3 encoding of one candidate execution.
 *
 * The events are fixed (one trace per thread); the solver chooses what ISA §8 leaves to run
 * time: reads-from (each read returns the value of exactly one write to its location, §8
 * intro), coherence order (a partial transitive order on the writes of a location, total on
 * morally strong pairs, §8.9.6), Fence-SC order (an acyclic order relating every morally strong
 * pair of fence.sc, §8.9.3), and which co-maximal write gives each observed location its final
 * value.  model/ptx.c then asserts the axioms, and the reachable final states are enumerated by
 * blocking each one found. */
#include "solver/encode.h"
#include "model/ptx.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void assert_ast(enc *e, Z3_solver s, Z3_ast a)
{
    if (a == e->T) return;
    Z3_solver_assert(e->z, s, b_of(e, a));
}

static int is_write(const mevent *e) { return ev_writes(e); }

int encode_candidate(enc *e, const candidate *c, const int *obs_loc, int nobs,
                     const int64_t *const *known, int nknown, encode_found_fn found, void *ctx)
{
    int n = c->n;
    Z3_solver s = Z3_mk_simple_solver(e->z);
    Z3_solver_inc_ref(e->z, s);
    if (e->timeout_ms) {
        Z3_params p = Z3_mk_params(e->z);
        Z3_params_inc_ref(e->z, p);
        Z3_params_set_uint(e->z, p, Z3_mk_string_symbol(e->z, "timeout"), e->timeout_ms);
        Z3_solver_set_params(e->z, s, p);
        Z3_params_dec_ref(e->z, p);
    }
    rel rf = rel_new(n), co = rel_new(n), sc = rel_new(n), bar = { 0, NULL };   /* bar: filled below */
    Z3_ast *tmp = malloc((size_t)(n + 1) * sizeof *tmp);
    int result = 0;

    /* reads-from: exactly one write of the same location with the value read */
    for (int r = 0; r < n; r++) {
        if (!ev_reads(&c->ev[r])) continue;
        int k = 0;
        for (int w = 0; w < n; w++)
            if (w != r && is_write(&c->ev[w]) && c->ev[w].loc == c->ev[r].loc && c->ev[w].wval == c->ev[r].rval)
                tmp[k++] = (Z3_ast)(intptr_t)(w + 1);
        if (k == 0) { result = 0; goto done; }   /* no write provides the value */
        if (k == 1) { rel_set(&rf, (int)(intptr_t)tmp[0] - 1, r, e->T); continue; }
        Z3_ast *v = malloc((size_t)k * sizeof *v);
        for (int a = 0; a < k; a++) {
            int w = (int)(intptr_t)tmp[a] - 1;
            v[a] = b_var(e, "rf");
            rel_set(&rf, w, r, v[a]);
        }
        for (int a = 0; a < k; a++)
            for (int b = a + 1; b < k; b++)
                assert_ast(e, s, b_not(e, b_and(e, v[a], v[b])));
        Z3_solver_assert(e->z, s, Z3_mk_or(e->z, (unsigned)k, v));
        free(v);
    }

    /* coherence order: init first; a partial transitive order on the other writes */
    for (int i = 0; i < n; i++) {
        if (!is_write(&c->ev[i])) continue;
        for (int j = 0; j < n; j++) {
            if (i == j || !is_write(&c->ev[j]) || c->ev[i].loc != c->ev[j].loc) continue;
            if (c->ev[i].k == EV_INIT) { rel_set(&co, i, j, e->T); continue; }
            if (c->ev[j].k == EV_INIT) continue;
            if (j < i) continue;
            if (ptx_morally_strong(c, i, j)) {           /* morally strong writes are ordered */
                Z3_ast x = b_var(e, "co");
                rel_set(&co, i, j, x);
                rel_set(&co, j, i, b_not(e, x));
            } else {
                Z3_ast x = b_var(e, "co"), y = b_var(e, "co");
                rel_set(&co, i, j, x);
                rel_set(&co, j, i, y);
                assert_ast(e, s, b_not(e, b_and(e, x, y)));
            }
        }
    }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            Z3_ast ij = rel_get(&co, i, j);
            if (!ij || ij == e->T) continue;
            for (int k = 0; k < n; k++) {
                Z3_ast jk = rel_get(&co, j, k);
                if (!jk || k == i) continue;
                Z3_ast ik = rel_get(&co, i, k);
                if (ik == e->T) continue;
                assert_ast(e, s, Z3_mk_implies(e->z, b_of(e, b_and(e, ij, jk)), b_of(e, ik)));
            }
        }

    /* Fence-SC order over fence.sc operations */
    for (int i = 0; i < n; i++) {
        const mevent *a = &c->ev[i];
        if (a->k != EV_F || a->fence != FENCE_SC) continue;
        for (int j = i + 1; j < n; j++) {
            const mevent *b = &c->ev[j];
            if (b->k != EV_F || b->fence != FENCE_SC) continue;
            if (a->thread == b->thread) { rel_set(&sc, i, j, e->T); continue; }   /* po order */
            Z3_ast x = b_var(e, "sc");
            rel_set(&sc, i, j, x);
            if (ptx_morally_strong(c, i, j)) rel_set(&sc, j, i, b_not(e, x));
            else {
                Z3_ast y = b_var(e, "sc");
                rel_set(&sc, j, i, y);
                assert_ast(e, s, b_not(e, b_and(e, x, y)));
            }
        }
    }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            Z3_ast ij = rel_get(&sc, i, j);
            if (!ij) continue;
            for (int k = 0; k < n; k++) {
                Z3_ast jk = rel_get(&sc, j, k);
                if (!jk || k == i) continue;
                Z3_ast ik = rel_get(&sc, i, k);
                if (ik == e->T) continue;
                if (ij == e->T && jk == e->T) {
                    if (!ik) { result = 0; goto done; }
                    assert_ast(e, s, ik);
                } else assert_ast(e, s, Z3_mk_implies(e->z, b_of(e, b_and(e, ij, jk)), b_of(e, ik)));
            }
        }

    if (ptx_barrier_deadlock(c)) { result = 0; goto done; }   /* the paths deadlock on barriers */
    ptx_barrier_sync(c, e, &bar);

    ptx_assert_axioms(e, s, c, &rf, &co, &sc, &bar, NULL, NULL);

    /* final value of each observed location: a co-maximal write */
    Z3_ast **fin = calloc((size_t)(nobs ? nobs : 1), sizeof *fin);
    for (int o = 0; o < nobs; o++) {
        fin[o] = calloc((size_t)n, sizeof **fin);
        int k = 0;
        for (int w = 0; w < n; w++) {
            if (!is_write(&c->ev[w]) || c->ev[w].loc != obs_loc[o]) continue;
            fin[o][w] = b_var(e, "fin");
            tmp[k++] = fin[o][w];
            for (int w2 = 0; w2 < n; w2++) {
                Z3_ast cw = w2 != w ? rel_get(&co, w, w2) : NULL;
                if (cw) assert_ast(e, s, Z3_mk_implies(e->z, fin[o][w], b_of(e, b_not(e, cw))));
            }
        }
        for (int a = 0; a < k; a++)
            for (int b = a + 1; b < k; b++)
                assert_ast(e, s, b_not(e, b_and(e, tmp[a], tmp[b])));
        if (k == 0) { fprintf(stderr, "ptxlitmus: internal error: location without initial write\n"); abort(); }
        Z3_solver_assert(e->z, s, Z3_mk_or(e->z, (unsigned)k, tmp));
    }

    /* block the memory states already known for this register state */
    Z3_ast *cl = malloc((size_t)(nobs ? nobs : 1) * sizeof *cl);
    int64_t *mem = malloc((size_t)(nobs ? nobs : 1) * sizeof *mem);
#define BLOCK(vals) do { \
        for (int o = 0; o < nobs; o++) { \
            int nk_ = 0; \
            for (int w = 0; w < n; w++) if (fin[o][w] && c->ev[w].wval == (vals)[o]) tmp[nk_++] = fin[o][w]; \
            Z3_ast eq = b_or_n(e, tmp, nk_); \
            cl[o] = b_of(e, b_not(e, eq)); \
        } \
        if (nobs) Z3_solver_assert(e->z, s, Z3_mk_or(e->z, (unsigned)nobs, cl)); \
    } while (0)
    for (int k = 0; k < nknown; k++) BLOCK(known[k]);
    for (;;) {
        Z3_lbool r = Z3_solver_check(e->z, s);
        if (r == Z3_L_UNDEF) { result = -1; break; }
        if (r == Z3_L_FALSE) break;
        Z3_model m = Z3_solver_get_model(e->z, s);
        Z3_model_inc_ref(e->z, m);
        for (int o = 0; o < nobs; o++) {
            mem[o] = 0;
            for (int w = 0; w < n; w++) {
                if (!fin[o][w]) continue;
                Z3_ast v;
                if (Z3_model_eval(e->z, m, fin[o][w], 1, &v) && Z3_get_bool_value(e->z, v) == Z3_L_TRUE) { mem[o] = c->ev[w].wval; break; }
            }
        }
        Z3_model_dec_ref(e->z, m);
        result++;
        found(ctx, mem);
        if (!nobs) break;
        BLOCK(mem);
    }
#undef BLOCK
    free(cl);
    free(mem);
    for (int o = 0; o < nobs; o++) free(fin[o]);
    free(fin);
done:
    free(tmp);
    rel_free(&rf); rel_free(&co); rel_free(&sc); rel_free(&bar);
    Z3_solver_dec_ref(e->z, s);
    return result;
}
