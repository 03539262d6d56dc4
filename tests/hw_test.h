/* tests/hw_test.h — helpers of the `ptxlitmus hw` unit tests (tests/test_hw.c,
 * tests/test_hw_async.c): parse a test, plan it, the inline PTX of one thread, a refusal with
 * its file:line:col message, instructions in order in a generated text.  Each test file
 * includes it once. */
#ifndef PTX_TESTS_HW_TEST_H
#define PTX_TESTS_HW_TEST_H
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include "hw/hw.h"

__attribute__((unused)) static lit_test *parse_ok(const char *text)
{
    char err[1024];
    lit_test *t = lit_parse("t.litmus", text, err, sizeof err);
    ck_assert_msg(t != NULL, "parse failed: %s", err);
    return t;
}

__attribute__((unused)) static void plan_ok(const lit_test *t, hw_plan *p)
{
    hw_opts o;
    hw_opts_default(&o);
    char err[1024];
    ck_assert_msg(!hw_plan_build(t, &o, p, err, sizeof err), "refused: %s", err);
}

/* The parsed test of text, planned into *p (free both: hw_plan_free, lit_free). */
__attribute__((unused)) static lit_test *planned(const char *text, hw_plan *p)
{
    lit_test *t = parse_ok(text);
    plan_ok(t, p);
    return t;
}

/* The lines of `text` that are PTX instructions of the asm template, in order. */
__attribute__((unused)) static void assert_in_order(const char *text, const char *const *want)
{
    const char *at = text;
    for (int i = 0; want[i]; i++) {
        const char *f = strstr(at, want[i]);
        ck_assert_msg(f != NULL, "'%s' missing (or out of order) in:\n%s", want[i], text);
        at = f + strlen(want[i]);
    }
}

__attribute__((unused)) static char *thread_text(const char *test, int th)
{
    lit_test *t = parse_ok(test);
    hw_plan p;
    plan_ok(t, &p);
    char err[1024];
    char *s = hw_emit_thread(&p, th, err, sizeof err);
    ck_assert_msg(s != NULL, "emit failed: %s", err);
    hw_plan_free(&p);
    lit_free(t);
    return s;
}

__attribute__((unused)) static void refused(const char *test, const char *want)
{
    lit_test *t = parse_ok(test);
    hw_opts o;
    hw_opts_default(&o);
    hw_plan p;
    char err[1024] = "";
    int rc = hw_plan_build(t, &o, &p, err, sizeof err);
    char *prog = rc ? NULL : hw_emit_program(&p, &o, err, sizeof err);
    ck_assert_msg(rc || !prog, "not refused (wanted '%s')", want);
    ck_assert_msg(strstr(err, want) != NULL, "message '%s' lacks '%s'", err, want);
    ck_assert_msg(!strncmp(err, "t.litmus:", 9) && strstr(err, ": found ") &&
                      strstr(err, ", expected "),
                  "message '%s' is not file:line:col: found X, expected Y", err);
    if (!rc) hw_plan_free(&p);
    free(prog);
    lit_free(t);
}

#endif
