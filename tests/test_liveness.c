/* tests/test_liveness.c — `verify --liveness`: whether some execution of a test never ends
 * (docs/model.md, Liveness).  Each test of suites/liveness with the answer its doc string
 * argues: a spin is fair when its reads see coherence-last writes (a write becomes visible
 * eventually); a barrier instance completes when its count of threads arrived (§9.7.12.1). */
#include <check.h>
#include <stdio.h>
#include <string.h>
#include "frontend/litmus.h"
#include "check/verify.h"
#include "tests/litmus_run.h"
#include "tests/check_main.h"

static verify_result live(const char *path)
{
    verify_opts o;
    verify_opts_default(&o);
    o.liveness = 1;
    return verify_path(path, &o);
}

START_TEST(liveness_suite)
{
    static const struct { const char *file; int hangs; const char *thread; int spin; } c[] = {
        { "spin-flag-set", 0, NULL, 0 },       { "spin-flag-never-set", 1, "P1", 1 },
        { "spin-flag-reset", 1, "P1", 1 },     { "cas-lock", 0, NULL, 0 },
        { "cas-lock-no-release", 1, NULL, 1 }, { "exch-lock", 0, NULL, 0 },
        { "ticket-lock", 0, NULL, 0 },         { "barrier-quorum-reached", 0, NULL, 0 },
        { "barrier-quorum-too-large", 1, NULL, 0 }, { "barrier-missing-thread", 1, "P0", 0 },
        { "barrier-deadlock", 1, NULL, 0 },    { "ptx-spin-setp", 0, NULL, 0 },
        { "ptx-spin-setp-never", 1, "P1", 1 }, { "bar-red-popc", 0, NULL, 0 },
        { "bar-red-MP", 0, NULL, 0 },          { "bar-red-missing-thread", 1, "P0", 0 } };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        char path[256];
        snprintf(path, sizeof path, "suites/liveness/%s.litmus", c[i].file);
        verify_result r = live(path);
        ck_assert_msg(r.liveness == (c[i].hangs ? LIVENESS_MAY_HANG : LIVENESS_TERMINATES), "%s",
                      c[i].file);
        if (c[i].hangs) {
            ck_assert_int_ge(r.nhangs, 1);
            ck_assert_msg(r.hangs[0].spin == c[i].spin, "%s: hang kind", c[i].file);
            if (c[i].thread) ck_assert_str_eq(r.hangs[0].thread, c[i].thread);
        } else {
            ck_assert_int_eq(r.nhangs, 0);
        }
        verify_result_free(&r);
    }
}
END_TEST

START_TEST(spin_witness_says_what_it_reads)
{
    verify_result r = live("suites/liveness/spin-flag-never-set.litmus");
    ck_assert_int_eq(r.nhangs, 1);
    ck_assert_str_eq(r.hangs[0].reads, "f=0");
    ck_assert_int_eq(r.hangs[0].line, 6);
    verify_result_free(&r);
}
END_TEST

START_TEST(liveness_off_by_default)
{
    char err[256];
    lit_test *t = lit_parse_file("suites/liveness/spin-flag-never-set.litmus", err, sizeof err);
    ck_assert(t != NULL);
    verify_opts o;
    verify_opts_default(&o);
    verify_result r;
    ck_assert_int_eq(verify_test(t, &o, &r), 0);
    ck_assert_int_eq(r.liveness, LIVENESS_UNASKED);
    verify_result_free(&r);
    lit_free(t);
}
END_TEST

static void add_tests(TCase *tc)
{
    tcase_add_test(tc, liveness_suite);
    tcase_add_test(tc, spin_witness_says_what_it_reads);
    tcase_add_test(tc, liveness_off_by_default);
}
