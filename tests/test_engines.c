/* tests/test_engines.c — the symbolic procedure (one solver problem per test) against the
 * product of paths (one per combination of paths) on random small tests: same reachable
 * states, same verdict, under every model.  The tests are drawn with a fixed seed from the
 * shapes the models care about: stores, loads and atomics with every semantics and scope,
 * fences, placements over CTAs, clusters and GPUs, guarded instructions and short loops. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "frontend/litmus.h"
#include "litmus/verify.h"
#include "tests/check_main.h"

#ifndef N_RANDOM
#define N_RANDOM 400
#endif

static unsigned long long rng = 88172645463325252ull;
static unsigned rnd(unsigned n)
{
    rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
    return (unsigned)(rng % n);
}

static const char *pick(const char *const *v, int n) { return v[rnd((unsigned)n)]; }

/* one random instruction for thread `th` (registers r0..r2, locations x, y) */
static void random_insn(char *b, size_t n, int model, int th, int *nreg)
{
    static const char *const loc[] = { "x", "y" };
    static const char *const sc3[] = { "cta", "gpu", "sys" }, *const sc4[] = { "cta", "cluster", "gpu", "sys" };
    const char *sc = model == MODEL_PTX ? pick(sc4, 4) : pick(sc3, 3);
    const char *l = pick(loc, 2);
    int r = (*nreg)++ % 3;
    switch (rnd(model == MODEL_PTX60 ? 7 : 8)) {
    case 0: snprintf(b, n, "st.weak %s, %u", l, 1 + rnd(2)); break;
    case 1: snprintf(b, n, "st.%s.%s %s, %u", rnd(2) ? "relaxed" : "release", sc, l, 1 + rnd(2)); break;
    case 2: snprintf(b, n, "ld.weak r%d, %s", r, l); break;
    case 3: snprintf(b, n, "ld.%s.%s r%d, %s", rnd(2) ? "relaxed" : "acquire", sc, r, l); break;
    case 4: snprintf(b, n, "fence.%s.%s", rnd(2) ? "sc" : "acq_rel", sc); break;
    case 5: {
        static const char *const sem[] = { "relaxed", "acquire", "release", "acq_rel" };
        static const char *const op[] = { "add", "exch", "max" };
        snprintf(b, n, "atom.%s.%s.%s r%d, %s, %u", pick(sem, 4), sc, pick(op, 3), r, l, 1 + rnd(2));
        break;
    }
    case 6: snprintf(b, n, "atom.relaxed.%s.cas r%d, %s, 0, %u", sc, r, l, 1 + th); break;
    default: snprintf(b, n, "red.%s.%s.add %s, 1", rnd(2) ? "relaxed" : "release", sc, l); break;
    }
}

static char *random_test(int model, int k)
{
    static char text[4096];
    int nth = 2 + (int)rnd(2), len = 1 + (int)rnd(nth == 2 ? 3 : 2);
    int o = snprintf(text, sizeof text, "PTX rnd%d\n{ x=0; y=0; }\n", k);
    for (int t = 0; t < nth; t++) {
        int cta = (int)rnd(3);
        int gpu = model != MODEL_PTX60 && rnd(4) == 0;
        if (model == MODEL_PTX && rnd(3) == 0) o += snprintf(text + o, sizeof text - (size_t)o, "%s P%d@cta %d,cluster %d,gpu %d", t ? " |" : "", t, cta, cta / 2, gpu);
        else o += snprintf(text + o, sizeof text - (size_t)o, "%s P%d@cta %d,gpu %d", t ? " |" : "", t, cta, gpu);
    }
    o += snprintf(text + o, sizeof text - (size_t)o, " ;\n");
    int nreg[4] = { 0 };
    for (int row = 0; row < len; row++) {
        for (int t = 0; t < nth; t++) {
            char b[128];
            random_insn(b, sizeof b, model, t, &nreg[t]);
            o += snprintf(text + o, sizeof text - (size_t)o, "%s %s", t ? " |" : "", b);
        }
        o += snprintf(text + o, sizeof text - (size_t)o, " ;\n");
    }
    /* a condition over the registers written and the locations */
    o += snprintf(text + o, sizeof text - (size_t)o, "exists (x == %u", rnd(3));
    for (int t = 0; t < nth; t++)
        if (nreg[t]) o += snprintf(text + o, sizeof text - (size_t)o, " /\\ P%d:r%u == %u", t, rnd((unsigned)(nreg[t] < 3 ? nreg[t] : 3)), rnd(3));
    snprintf(text + o, sizeof text - (size_t)o, ")\n");
    return text;
}

static void states_of(lit_test *t, int model, verify_engine eng, verify_result *r)
{
    verify_opts o;
    verify_opts_default(&o);
    o.model = model;
    o.engine = eng;
    o.states = -1;
    ck_assert_msg(verify_test(t, &o, r) == 0, "verify failed: %s", r->error);
}

START_TEST(random_tests_same_states)
{
    int compared = 0;
    for (int k = 0; k < N_RANDOM; k++) {
        int model = k % 3 == 0 ? MODEL_PTX : k % 3 == 1 ? MODEL_PTX75 : MODEL_PTX60;
        char *text = random_test(model, k), err[1024];
        lit_test *t = lit_parse("rnd.litmus", text, err, sizeof err);
        ck_assert_msg(t != NULL, "generated test does not parse: %s\n%s", err, text);
        verify_result a, b;
        double t0 = clock() / (double)CLOCKS_PER_SEC;
        states_of(t, model, VERIFY_QUERY, &a);
        double t1 = clock() / (double)CLOCKS_PER_SEC;
        states_of(t, model, VERIFY_PRODUCT, &b);
        double t2 = clock() / (double)CLOCKS_PER_SEC;
        if (getenv("ENGINES_VERBOSE")) fprintf(stderr, "%d query %.3f product %.3f\n", k, t1 - t0, t2 - t1);
        ck_assert_msg(a.validated == b.validated && a.nstates == b.nstates &&
                      !memcmp(a.states, b.states, (size_t)a.nstates * (size_t)a.nobs * sizeof *a.states),
                      "procedures differ (%d vs %d states, verdict %d vs %d) on\n%s", a.nstates, b.nstates,
                      a.validated, b.validated, text);
        compared += a.nstates;
        verify_result_free(&a);
        verify_result_free(&b);
        lit_free(t);
    }
    fprintf(stderr, "engines: %d random tests, %d states compared\n", N_RANDOM, compared);
}
END_TEST

static void add_tests(TCase *tc)
{
    tcase_add_test(tc, random_tests_same_states);
}
