/* tests/litmus_run.h — the one helper the litmus unit tests decide a test with: parse the text
 * (or file), verify it under the given options, fail the test on a parse or verify error.  The
 * result no longer points at the freed test; the caller frees it (verify_result_free). */
#ifndef PTX_TESTS_LITMUS_RUN_H
#define PTX_TESTS_LITMUS_RUN_H
#include <check.h>
#include "frontend/litmus.h"
#include "check/verify.h"

static inline verify_result verify_parsed(lit_test *t, const char *err, const verify_opts *o)
{
    ck_assert_msg(t != NULL, "parse failed: %s", err);
    verify_result r;
    int rc = verify_test(t, o, &r);
    ck_assert_msg(rc == 0 && r.ok, "verify failed: %s", r.error);
    r.test = NULL;
    lit_free(t);
    return r;
}

static inline verify_result verify_text(const char *text, const verify_opts *o)
{
    char err[1024];
    return verify_parsed(lit_parse("t.litmus", text, err, sizeof err), err, o);
}

static inline verify_result verify_path(const char *path, const verify_opts *o)
{
    char err[1024];
    return verify_parsed(lit_parse_file(path, err, sizeof err), err, o);
}
#endif
