/* tests/test_limits.c — the limits of docs/reliability.md: every bound is enforced with a
 * file:line:col message naming the option, and no input can overflow the stack through deep
 * nesting (conditions: COND_MAX_DEPTH levels of '(', '~' and chained connectives).  Also
 * pathological sizes (very long tokens, many threads, long rows) parse or fail cleanly. */
#include <check.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "frontend/cond.h"
#include "frontend/litmus.h"
#include "check/verify.h"

#define HEAD "PTX L\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n" \
             " st.weak x, 1 | ld.acquire.gpu r0, y ;\n st.release.gpu y, 1 | ld.weak r1, x ;\n"

/* HEAD + "exists " + pre * n + mid + post * n */
static char *nested(const char *pre, int n, const char *mid, const char *post)
{
    size_t lp = strlen(pre), lq = strlen(post);
    size_t len = strlen(HEAD) + 8 + (lp + lq) * (size_t)n + strlen(mid) + 2;
    char *s = malloc(len), *o = s;
    o += sprintf(o, "%sexists ", HEAD);
    for (int i = 0; i < n; i++) { memcpy(o, pre, lp); o += lp; }
    o += sprintf(o, "%s", mid);
    for (int i = 0; i < n; i++) { memcpy(o, post, lq); o += lq; }
    strcpy(o, "\n");
    return s;
}

static void want_ok(const char *text)
{
    char err[1024] = "";
    lit_test *t = lit_parse("l.litmus", text, err, sizeof err);
    ck_assert_msg(t != NULL, "rejected: %s", err);
    lit_free(t);
}

static void want_err(const char *text, const char *what)
{
    char err[1024] = "";
    lit_test *t = lit_parse("l.litmus", text, err, sizeof err);
    ck_assert_msg(t == NULL, "accepted, wanted '%s'", what);
    ck_assert_msg(!strncmp(err, "l.litmus:", 9), "no file:line:col in '%s'", err);
    ck_assert_msg(strstr(err, "found ") && strstr(err, ", expected "),
                  "not 'found X, expected Y': '%s'", err);
    ck_assert_msg(strstr(err, what) != NULL, "'%s' lacks '%s'", err, what);
}

START_TEST(cond_parens_depth)
{
    char *s = nested("(", COND_MAX_DEPTH - 1, "P1:r0 == 1", ")");
    want_ok(s);
    free(s);
    s = nested("(", COND_MAX_DEPTH + 1, "P1:r0 == 1", ")");
    want_err(s, "nested more than 512 levels");
    free(s);
    /* far deeper than any stack would take with naive recursion */
    s = nested("(", 1000000, "P1:r0 == 1", ")");
    want_err(s, "nested more than 512 levels");
    free(s);
}
END_TEST

START_TEST(cond_not_depth)
{
    char *s = nested("~", COND_MAX_DEPTH - 1, "P1:r0 == 1", "");
    want_ok(s);
    free(s);
    s = nested("~", 1000000, "P1:r0 == 1", "");
    want_err(s, "nested more than 512 levels");
    free(s);
    s = nested("~(", 300000, "P1:r0 == 1", ")");
    want_err(s, "nested more than 512 levels");
    free(s);
}
END_TEST

START_TEST(cond_chain_length)
{
    /* a chain builds a left-deep tree: bounded like nesting, evaluated and freed without trouble */
    char *s = nested("P1:r0 == 1 /\\ ", COND_MAX_DEPTH - 1, "P1:r1 == 0", "");
    want_ok(s);
    free(s);
    s = nested("P1:r0 == 1 \\/ ", 200000, "P1:r1 == 0", "");
    want_err(s, "chained");
    free(s);
    /* mixed: nesting and chains add up */
    s = nested("(P1:r0 == 1 /\\ ", 200, "P1:r1 == 0", ")");
    want_ok(s);
    free(s);
}
END_TEST

START_TEST(cond_deep_tree_roundtrip)
{
    /* the largest accepted tree is printed, evaluated and verified */
    char *s = nested("~~", COND_MAX_DEPTH / 2 - 2, "P1:r0 == 1 /\\ P1:r1 == 0", "");
    char err[1024];
    lit_test *t = lit_parse("l.litmus", s, err, sizeof err);
    ck_assert_msg(t != NULL, "%s", err);
    char buf[64];
    size_t n = cond_print(t->cond, buf, sizeof buf);
    ck_assert(n > sizeof buf && strlen(buf) == sizeof buf - 1);
    verify_opts o;
    verify_opts_default(&o);
    verify_result r;
    ck_assert_int_eq(verify_test(t, &o, &r), 0);
    ck_assert_int_eq(r.validated, 0);   /* MP+rel+acq: forbidden */
    verify_result_free(&r);
    lit_free(t);
    free(s);
}
END_TEST

/* issue #28, item 4: `--max-depth 10000` (the documented cap) crashed with SIGSEGV on a 1-2 MiB
 * stack.  The parser checks the depth against the room left on the real stack
 * (COND_STACK_PER_LEVEL): on a 1 MiB thread the cap is refused with a message naming the
 * stack, and the deepest condition it does accept goes through every pass (parse, print,
 * warnings, verify) without overflowing; on a 64 MiB thread the cap itself is verified.  The
 * work runs on threads of a known stack size (Check's assertions stay on the main thread). */
typedef struct {
    const char *pre, *mid, *post;   /* the shape: pre * n + mid + post * n */
    int max_depth, n;
    int parsed, verified;           /* results */
    char err[1024];
} deep_job;

static void *deep_thread(void *arg)
{
    deep_job *j = arg;
    char *s = nested(j->pre, j->n, j->mid, j->post);
    lit_test *t = lit_parse_ex("l.litmus", s, j->max_depth, j->err, sizeof j->err);
    free(s);
    j->parsed = t != NULL;
    if (t) {
        char buf[64], **w;
        cond_print(t->cond, buf, sizeof buf);
        lit_warnings_free(w = NULL, lit_warnings(t, &w));
        verify_opts o;
        verify_opts_default(&o);
        verify_result r;
        j->verified = verify_test(t, &o, &r) == 0;
        if (!j->verified) snprintf(j->err, sizeof j->err, "%s", r.error);
        verify_result_free(&r);
        lit_free(t);
    }
    return NULL;
}

static void on_stack(size_t bytes, deep_job *j)
{
    pthread_attr_t a;
    pthread_t th;
    ck_assert_int_eq(pthread_attr_init(&a), 0);
    ck_assert_int_eq(pthread_attr_setstacksize(&a, bytes), 0);
    ck_assert_int_eq(pthread_create(&th, &a, deep_thread, j), 0);
    ck_assert_int_eq(pthread_join(th, NULL), 0);
    pthread_attr_destroy(&a);
}

START_TEST(deep_conditions_fit_the_stack)
{
    static const char *const shapes[][3] = {
        { "(", "P1:r0 == 1", ")" }, { "~", "P1:r0 == 1", "" },
        { "P1:r0 == 1 /\\ ", "P1:r1 == 0", "" }, { "P1:r0 == 1 \\/ ", "P1:r1 == 0", "" } };
    for (int k = 0; k < 4; k++) {
        deep_job j = { shapes[k][0], shapes[k][1], shapes[k][2], COND_DEPTH_CAP,
                       COND_DEPTH_CAP - 2, 0, 0, "" };
        on_stack((size_t)1 << 20, &j);   /* the cap on 1 MiB: refused, naming the stack */
        ck_assert_msg(!j.parsed, "shape %d: %d levels accepted on a 1 MiB stack", k, j.n);
        ck_assert_msg(strstr(j.err, "l.litmus:6:") &&
                          strstr(j.err, "on this thread's stack hold") &&
                          strstr(j.err, "--max-depth 10000") && strstr(j.err, "ulimit -s"),
                      "%s", j.err);
        const char *m = strstr(j.err, "expected at most ");
        ck_assert_ptr_nonnull(m);
        int fit = atoi(m + 17);
        ck_assert_msg(fit > 100 && fit < COND_DEPTH_CAP, "%d levels fit in 1 MiB", fit);
        /* the deepest the stack check accepts (the mid counts one level, 'exists' another)
           goes through every pass on that stack */
        j = (deep_job){ shapes[k][0], shapes[k][1], shapes[k][2], COND_DEPTH_CAP, fit - 2, 0, 0,
                        "" };
        on_stack((size_t)1 << 20, &j);
        ck_assert_msg(j.parsed && j.verified, "shape %d, %d levels on 1 MiB: %s", k, j.n, j.err);
        /* the cap itself, on a stack the budget says is enough */
        j = (deep_job){ shapes[k][0], shapes[k][1], shapes[k][2], COND_DEPTH_CAP,
                        COND_DEPTH_CAP - 2, 0, 0, "" };
        on_stack((size_t)64 << 20, &j);
        ck_assert_msg(j.parsed && j.verified, "shape %d, the cap on 64 MiB: %s", k, j.err);
    }
}
END_TEST

START_TEST(long_tokens)
{
    size_t n = 1 << 20;
    char *s = malloc(2 * n + 512);
    /* a 1 MiB identifier as a location name */
    strcpy(s, "PTX L\n{ ");
    size_t o = strlen(s);
    memset(s + o, 'a', n); o += n;
    strcpy(s + o, "=0; }\n P0@cta 0,gpu 0 ;\n st.weak x, 1 ;\nexists (x == 1)\n");
    want_ok(s);
    /* a 1 MiB number */
    strcpy(s, "PTX L\n{ x=");
    o = strlen(s);
    memset(s + o, '7', n); o += n;
    strcpy(s + o, "; }\n P0@cta 0,gpu 0 ;\n st.weak x, 1 ;\nexists (x == 1)\n");
    want_err(s, "fits in 64 bits");
    /* a 1 MiB doc string and a 1 MiB comment */
    strcpy(s, "PTX L\n\"");
    o = strlen(s);
    memset(s + o, 'd', n); o += n;
    strcpy(s + o, "\" (* ");
    o = strlen(s);
    memset(s + o, 'c', n / 2); o += n / 2;
    strcpy(s + o, " *) { x=0; }\n P0@cta 0,gpu 0 ;\n st.weak x, 1 ;\nexists (x == 1)\n");
    want_ok(s);
    free(s);
}
END_TEST

START_TEST(many_threads_and_rows)
{
    /* 2000 threads in one placement row: parsed (verification would be bounded by the limits) */
    int nth = 2000;
    char *s = malloc((size_t)nth * 64 + 4096), *o = s;
    o += sprintf(o, "PTX L\n{ x=0; }\n");
    for (int i = 0; i < nth; i++) o += sprintf(o, "%sP%d@cta %d,gpu 0", i ? " | " : " ", i, i);
    o += sprintf(o, " ;\n");
    for (int i = 0; i < nth; i++) o += sprintf(o, "%sst.weak x, %d", i ? " | " : " ", i);
    o += sprintf(o, " ;\nexists (x == 1)\n");
    want_ok(s);
    /* 20000 rows in one thread, most of them empty */
    o = s = realloc(s, 20000 * 24 + 4096);
    o += sprintf(o, "PTX L\n{ x=0; }\n P0@cta 0,gpu 0 ;\n");
    for (int i = 0; i < 20000; i++) o += sprintf(o, i % 100 ? " ;\n" : " st.weak x, 1 ;\n");
    o += sprintf(o, "exists (x == 1)\n");
    want_ok(s);
    free(s);
}
END_TEST

/* ---- verify limits: each names its option ---- */

static const char *LOOP =
    "PTX Spin\n{ x=0; f=0; }\n"
    " P0@cta 0,gpu 0       | P1@cta 1,gpu 0          ;\n"
    " st.weak x, 1         | LC10:                   ;\n"
    " st.release.gpu f, 1  | ld.acquire.gpu r0, f    ;\n"
    "                      | beq r0, 1, LC11         ;\n"
    "                      | goto LC10               ;\n"
    "                      | LC11:                   ;\n"
    "                      | ld.weak r1, x           ;\n"
    "forall (P1:r0 == 1 /\\ P1:r1 == 1)\n";

static void verify_limit(const char *text, verify_opts *o, const char *want)
{
    char err[1024];
    lit_test *t = lit_parse("lim.litmus", text, err, sizeof err);
    ck_assert_msg(t != NULL, "%s", err);
    verify_result r;
    int rc = verify_test(t, o, &r);
    ck_assert_msg(rc != 0 && !r.ok, "limit %s not reported", want);
    ck_assert_msg(!strncmp(r.error, "lim.litmus:", 11), "no file:line:col in '%s'", r.error);
    ck_assert_msg(strstr(r.error, want) != NULL, "'%s' lacks '%s'", r.error, want);
    ck_assert_msg(strstr(r.error, "found ") && strstr(r.error, ", expected "),
                  "not 'found X, expected Y': '%s'", r.error);
    verify_result_free(&r);
    lit_free(t);
}

START_TEST(limit_max_events)
{
    verify_opts o;
    verify_opts_default(&o);
    o.max_events = 1;
    verify_limit(HEAD "exists (P1:r0 == 1)\n", &o, "--max-events");
}
END_TEST


/* a branch on a read value splits the reader's path in two (straight-line reads do not) */
static const char *BRANCH =
    "PTX Branch\n{ x=0; f=0; }\n"
    " P0@cta 0,gpu 0       | P1@cta 1,gpu 0          ;\n"
    " st.weak x, 1         | ld.acquire.gpu r0, f    ;\n"
    " st.release.gpu f, 1  | ld.weak r2, x           ;\n"
    "                      | beq r0, 1, LC11         ;\n"
    "                      | ld.weak r1, x           ;\n"
    "                      | LC11:                   ;\n"
    "exists (P1:r0 == 1)\n";

START_TEST(limit_max_traces)
{
    verify_opts o;
    verify_opts_default(&o);
    o.max_traces = 1;
    /* the message names the instruction that splits the paths (line 6: the beq) */
    verify_limit(BRANCH, &o, "--max-traces");
    verify_limit(BRANCH, &o, "split at line 6 'beq r0, 1, LC11' (a branch on read values");
    o.max_traces = 2;   /* the two reads before it make no path of their own */
    char err[1024];
    lit_test *t = lit_parse("lim.litmus", BRANCH, err, sizeof err);
    verify_result r;
    ck_assert_int_eq(verify_test(t, &o, &r), 0);
    verify_result_free(&r);
    lit_free(t);
}
END_TEST

START_TEST(limit_unroll_and_states)
{
    char err[1024];
    lit_test *t = lit_parse("lim.litmus", LOOP, err, sizeof err);
    ck_assert_msg(t != NULL, "%s", err);
    verify_opts o;
    verify_opts_default(&o);
    o.unroll = 0;
    verify_result r;
    ck_assert_int_eq(verify_test(t, &o, &r), 0);
    ck_assert_int_eq(r.bound_reached, 1);   /* reported as "Bound reached" */
    verify_result_free(&r);
    lit_free(t);

    t = lit_parse("lim.litmus", HEAD "exists (P1:r0 == 1)\n", err, sizeof err);
    verify_opts_default(&o);
    o.states = 1;
    ck_assert_int_eq(verify_test(t, &o, &r), 0);
    /* the first state found, and a witness of the side it lacks (issue #28) */
    ck_assert_int_le(r.nstates, 2);
    ck_assert(r.positive >= 1 && r.negative >= 1);
    /* "States listed: N, more exist", or every state when the witness was the last one */
    ck_assert(r.nstates_total == -1 || r.nstates_total == r.nstates);
    verify_result_free(&r);
    lit_free(t);
}
END_TEST

START_TEST(limit_timeout_accepted)
{
    /* a solver time limit does not change a verdict the solver reaches in time */
    char err[1024];
    lit_test *t =
        lit_parse("lim.litmus", HEAD "exists (P1:r0 == 1 /\\ P1:r1 == 0)\n", err, sizeof err);
    verify_opts o;
    verify_opts_default(&o);
    o.timeout_s = 10;
    verify_result r;
    ck_assert_int_eq(verify_test(t, &o, &r), 0);
    ck_assert_int_eq(r.validated, 0);
    verify_result_free(&r);
    lit_free(t);
}
END_TEST

START_TEST(limit_timeout_bounds_the_whole_test)
{
    /* 48 fence.sc per thread and 48 racing stores: far more than 0.5 s of work; the limit
       stops the test with status timeout (issue #16: the limit bounds the test, not one check) */
    char *text = malloc(16384);
    int o = sprintf(text, "PTX big\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n");
    for (int i = 0; i < 48; i++)
        o += sprintf(
            text + o,
            " fence.sc.gpu | fence.sc.gpu ;\n st.relaxed.gpu x, %d | st.relaxed.gpu x, %d ;\n",
            i + 1, i + 100);
    sprintf(text + o, "exists (x == 1)\n");
    char err[1024];
    lit_test *t = lit_parse("big.litmus", text, err, sizeof err);
    ck_assert_msg(t != NULL, "%s", err);
    verify_opts vo;
    verify_opts_default(&vo);
    vo.timeout_s = 0.5;
    verify_result r;
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    ck_assert_int_ne(verify_test(t, &vo, &r), 0);
    clock_gettime(CLOCK_MONOTONIC, &b);
    ck_assert(r.timed_out);
    ck_assert_msg(strstr(r.error, "--timeout 0.5"), "%s", r.error);
    /* the limit fires within a few seconds of its time (loaded CI machines vary) */
    ck_assert_double_lt((double)(b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9, 10.0);
    verify_result_free(&r);
    lit_free(t);
    free(text);
}
END_TEST

START_TEST(nul_byte_file)
{
    char path[] = "/tmp/ptxlitmus-nul-XXXXXX";
    int fd = mkstemp(path);
    ck_assert(fd >= 0);
    static const char text[] =
        "PTX L\n{ x=0; }\n P0@cta 0,gpu 0 ;\n st.weak x,\0 1 ;\nexists (x == 1)\n";
    ck_assert(write(fd, text, sizeof text - 1) == (ssize_t)(sizeof text - 1));
    close(fd);
    char err[1024];
    lit_test *t = lit_parse_file(path, err, sizeof err);
    unlink(path);
    ck_assert(t == NULL);
    ck_assert_msg(strstr(err, "found a NUL byte, expected a text file"), "%s", err);
}
END_TEST

static void add_tests(TCase *tc)
{
    tcase_add_test(tc, cond_parens_depth);
    tcase_add_test(tc, cond_not_depth);
    tcase_add_test(tc, cond_chain_length);
    tcase_add_test(tc, cond_deep_tree_roundtrip);
    tcase_add_test(tc, deep_conditions_fit_the_stack);
    tcase_add_test(tc, long_tokens);
    tcase_add_test(tc, many_threads_and_rows);
    tcase_add_test(tc, limit_max_events);
    tcase_add_test(tc, limit_max_traces);
    tcase_add_test(tc, limit_unroll_and_states);
    tcase_add_test(tc, limit_timeout_accepted);
    tcase_add_test(tc, limit_timeout_bounds_the_whole_test);
    tcase_add_test(tc, nul_byte_file);
}

#include "tests/check_main.h"
