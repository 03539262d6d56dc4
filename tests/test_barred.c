/* tests/test_barred.c — bar.red in litmus tests (§9.7.12.1): "barrier{.cta}.red performs a
 * reduction operation across threads. The c predicate (or its complement) from all threads in
 * the CTA are combined using the specified reduction operator. Once the barrier count is
 * reached, the final value is written to the destination register in all threads waiting at
 * the barrier."  popc counts threads, and a litmus thread in PTX spelling stands for a warp of
 * 32 threads (as in the thread count b), so one litmus thread with c true counts 32
 * (docs/model.md, Barriers).  bar.red also synchronizes as bar.sync does.  Each test is a
 * litmus test whose verdict the ISA text fixes, run through the whole verify path. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "frontend/litmus.h"
#include "check/verify.h"
#include "tests/litmus_run.h"
#include "tests/check_main.h"

static verify_result run(const char *text, int liveness)
{
    verify_opts o;
    verify_opts_default(&o);
    o.liveness = liveness;
    return verify_text(text, &o);
}

/* the test's condition is validated (exists: some state; forall: every state) */
static int validated(const char *text)
{
    verify_result r = run(text, 0);
    int v = r.validated;
    verify_result_free(&r);
    return v;
}

/* two threads of CTA 0, each: setp p from its constant (1 true, 0 false), then INSN */
static char *two(const char *insn, int p0, int p1, const char *cond)
{
    static char buf[1024];
    snprintf(buf, sizeof buf,
             "PTX br\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n"
             " setp.eq.u32 %%p, %d, 1 | setp.eq.u32 %%p, %d, 1 ;\n"
             " %s | %s ;\n%s\n", p0, p1, insn, insn, cond);
    return buf;
}

START_TEST(popc_counts_threads_32_per_litmus_thread)
{
    /* "The result of .popc is the number of threads with a True predicate" */
    ck_assert(validated(
        two("bar.red.popc.u32 %r0, 0, %p", 1, 1, "forall (P0:r0 == 64 /\\ P1:r0 == 64)")));
    ck_assert(validated(
        two("bar.red.popc.u32 %r0, 0, %p", 1, 0, "forall (P0:r0 == 32 /\\ P1:r0 == 32)")));
    ck_assert(
        validated(two("bar.red.popc.u32 %r0, 0, %p", 0, 0, "forall (P0:r0 == 0 /\\ P1:r0 == 0)")));
    ck_assert(!validated(two("bar.red.popc.u32 %r0, 0, %p", 1, 1, "exists (P0:r0 == 2)")));
    /* barrier{.cta}.red.popc{.aligned}.u32 is the same instruction */
    ck_assert(validated(two("barrier.cta.red.popc.aligned.u32 %r0, 0, %p", 0, 1,
                            "forall (P0:r0 == 32 /\\ P1:r0 == 32)")));
}
END_TEST

START_TEST(and_is_false_when_one_thread_is_false)
{
    /* ".and and .or indicate if all the threads had a True predicate or if any of the threads
       had a True predicate" */
    ck_assert(
        validated(two("bar.red.and.pred %q, 0, %p", 1, 0, "forall (P0:q == 0 /\\ P1:q == 0)")));
    ck_assert(
        validated(two("bar.red.and.pred %q, 0, %p", 1, 1, "forall (P0:q == 1 /\\ P1:q == 1)")));
    ck_assert(!validated(
        two("bar.cta.red.and.pred %q, 0, %p", 0, 1, "exists (P0:q == 1 \\/ P1:q == 1)")));
}
END_TEST

START_TEST(or_is_true_when_one_thread_is_true)
{
    ck_assert(
        validated(two("bar.red.or.pred %q, 0, %p", 0, 1, "forall (P0:q == 1 /\\ P1:q == 1)")));
    ck_assert(
        validated(two("barrier.red.or.pred %q, 0, %p", 0, 0, "forall (P0:q == 0 /\\ P1:q == 0)")));
}
END_TEST

START_TEST(negated_predicate_contributes_its_complement)
{
    /* "The c predicate (or its complement)" */
    ck_assert(validated(
        two("bar.red.popc.u32 %r0, 0, !%p", 1, 0, "forall (P0:r0 == 32 /\\ P1:r0 == 32)")));
    ck_assert(
        validated(two("bar.red.and.pred %q, 0, !%p", 0, 0, "forall (P0:q == 1 /\\ P1:q == 1)")));
    ck_assert(
        validated(two("bar.red.or.pred %q, 0, !%p", 1, 1, "forall (P0:q == 0 /\\ P1:q == 0)")));
}
END_TEST

START_TEST(register_barrier_and_thread_count)
{
    /* a and b as registers or constants, as for bar.sync; two of the three warps of the CTA
       take part in a barrier of 64 threads, so the third's predicate does not count */
    ck_assert(
        validated("PTX br-reg\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 | P2@cta 0,gpu 0 ;\n"
                  " mov.u32 %b, 3 | setp.ne.u32 %p, 1, 1 | st.u32 [x], 1 ;\n"
                  " mov.u32 %n, 64 | bar.red.popc.u32 %r1, 3, 64, !%p | ;\n"
                  " setp.eq.u32 %p, 1, 1 | | ;\n"
                  " bar.red.popc.u32 %r1, %b, %n, %p | | ;\n"
                  "forall (P0:r1 == 64 /\\ P1:r1 == 64)\n"));
}
END_TEST

START_TEST(bar_red_synchronizes_like_bar_sync)
{
    /* "The barrier{.cta}.sync or barrier{.cta}.red or barrier{.cta}.arrive instruction
       guarantees that when the barrier completes, prior memory accesses requested by this
       thread are performed relative to all threads participating in the barrier" */
    const char *mp = "PTX MP+bar.red\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n"
                     " st.u32 [x], 1 | setp.eq.u32 %p, 1, 1 ;\n"
                     " setp.eq.u32 %p, 1, 1 | bar.red.or.pred %q, 1, %p ;\n"
                     " bar.red.or.pred %q, 1, %p | ld.u32 %r1, [x] ;\n"
                     "exists (P1:r1 == 0)\n";
    ck_assert(!validated(mp));
    /* without the barrier the stale value is allowed */
    ck_assert(validated("PTX MP\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n"
                        " st.u32 [x], 1 | ld.u32 %r1, [x] ;\n"
                        "exists (P1:r1 == 0)\n"));
}
END_TEST

START_TEST(every_participant_receives_the_same_result)
{
    /* P0's predicate depends on what it reads; whatever it reads, both receive one count */
    const char *t = "PTX br-read\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n"
                    " ld.u32 %r0, [x] | st.u32 [x], 1 ;\n"
                    " setp.eq.u32 %p, %r0, 1 | setp.eq.u32 %p, 1, 1 ;\n"
                    " bar.red.popc.u32 %r1, 0, %p | bar.red.popc.u32 %r1, 0, %p ;\n";
    char buf[1024];
    snprintf(buf, sizeof buf, "%sforall (P0:r1 == P1:r1 /\\ (P0:r1 == 32 \\/ P0:r1 == 64))\n", t);
    ck_assert(validated(buf));
    snprintf(buf, sizeof buf, "%sexists (P0:r1 == 64)\n", t);
    ck_assert(validated(buf));
    snprintf(buf, sizeof buf, "%sexists (P0:r1 == 32)\n", t);
    ck_assert(validated(buf));
}
END_TEST

START_TEST(each_phase_reduces_its_own_predicates)
{
    /* "the barrier is reinitialized so that it can be immediately reused" */
    ck_assert(validated("PTX br-phases\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n"
                        " setp.eq.u32 %p, 1, 1 | setp.eq.u32 %p, 1, 1 ;\n"
                        " bar.red.popc.u32 %r0, 0, %p | bar.red.popc.u32 %r0, 0, %p ;\n"
                        " setp.eq.u32 %p, 1, 0 | setp.eq.u32 %p, 1, 0 ;\n"
                        " bar.red.popc.u32 %r1, 0, %p | bar.red.popc.u32 %r1, 0, %p ;\n"
                        "forall (P0:r0 == 64 /\\ P1:r0 == 64 /\\ P0:r1 == 0 /\\ P1:r1 == 0)\n"));
    /* barriers are per CTA: threads of two CTAs reduce separately */
    ck_assert(validated("PTX br-ctas\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
                        " setp.eq.u32 %p, 1, 1 | setp.eq.u32 %p, 1, 1 ;\n"
                        " bar.red.popc.u32 %r0, 0, %p | bar.red.popc.u32 %r0, 0, %p ;\n"
                        "forall (P0:r0 == 32 /\\ P1:r0 == 32)\n"));
}
END_TEST

START_TEST(bar_red_waits_like_bar_sync)
{
    /* "the barrier{.cta}.red and barrier{.cta}.sync instructions causes executing thread to
       wait for non-exited threads of all other warps participating in the barrier" */
    verify_result r = run("PTX br-missing\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n"
                          " setp.eq.u32 %p, 1, 1 | st.u32 [x], 1 ;\n"
                          " bar.red.and.pred %q, 0, %p | ;\n"
                          "exists (P0:q == 1)\n", 1);
    ck_assert_int_eq(r.liveness, LIVENESS_MAY_HANG);
    ck_assert_int_ge(r.nhangs, 1);
    ck_assert_str_eq(r.hangs[0].thread, "P0");
    verify_result_free(&r);
    r = run(two("bar.red.and.pred %q, 0, %p", 1, 1, "forall (P0:q == 1)"), 1);
    ck_assert_int_eq(r.liveness, LIVENESS_TERMINATES);
    verify_result_free(&r);
}
END_TEST

/* a test the tool refuses: the message, at parse time or when verifying */
static void refused(const char *text, const char *msg)
{
    char err[1024] = "";
    lit_test *t = lit_parse("br.litmus", text, err, sizeof err);
    if (t) {
        verify_opts o;
        verify_opts_default(&o);
        verify_result r;
        int rc = verify_test(t, &o, &r);
        ck_assert_msg(rc != 0 || !r.ok, "accepted: %s", text);
        snprintf(err, sizeof err, "%s", r.error);
        r.test = NULL;
        verify_result_free(&r);
        lit_free(t);
    }
    ck_assert_msg(strstr(err, msg) != NULL, "message '%s' lacks '%s'", err, msg);
}

START_TEST(invalid_forms_are_refused)
{
    refused(two("bar.red.popc.pred %q, 0, %p", 1, 1, "exists (x == 0)"),
            "br.litmus:5:2: found 'bar.red.popc.pred', expected bar{.cta}.red.popc.u32");
    refused(two("bar.red.and.u32 %q, 0, %p", 1, 1, "exists (x == 0)"),
            "expected bar{.cta}.red.popc.u32");
    refused(two("bar.red.popc.u32 %q, 0, 1", 1, 1, "exists (x == 0)"),
            "found '1', expected a predicate register c");
    refused(two("bar.red.popc.u32 %q, 0", 1, 1, "exists (x == 0)"),
            "expected ',' and the predicate c");
    refused(two("bar.red.popc.u32 %q, !0, %p", 1, 1, "exists (x == 0)"),
            "found '!' before the barrier");
    refused(two("bar.red.popc.u32 %q, 0, 48, %p", 1, 1, "exists (x == 0)"),
            "found the thread count 48");
    refused("PTX br\n{ x=0; }\n P0@cta 0,gpu 0 ;\n ld.u32 %p, [x] ;\n bar.red.popc.u32 %r0, 0, %p "
            ";\nexists (x == 0)\n",
            "br.litmus:5:2: found the .u32 register p as the predicate c");
}
END_TEST

START_TEST(mixing_with_bar_sync_is_refused)
{
    /* "barrier{.cta}.red should not be intermixed with barrier{.cta}.sync or
       barrier{.cta}.arrive using the same active barrier. Execution in this case is
       unpredictable." */
    refused("PTX br-mix\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n"
            " setp.eq.u32 %p, 1, 1 | mov.u32 %b, 2 ;\n"
            " bar.red.or.pred %q, 2, %p | bar.sync %b ;\n"
            "exists (x == 0)\n",
            "br.litmus:5:30: found 'bar.sync %b' on barrier 2");
    refused("PTX br-mix\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n"
            " setp.eq.u32 %p, 1, 1 | ;\n"
            " bar.arrive 1, 64 | ;\n"
            " bar.red.or.pred %q, 1, 64, %p | bar.red.or.pred %q, 1, 64, %p ;\n"
            "exists (x == 0)\n",
            "br.litmus:6:2: found 'bar.red.or.pred %q, 1, 64, %p' on barrier 1");
    /* other barriers, or another CTA's barrier of the same number, mix freely */
    ck_assert(
        validated("PTX br-nomix\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 | P2@cta 1,gpu 0 ;\n"
                  " setp.eq.u32 %p, 1, 1 | setp.eq.u32 %p, 1, 1 | bar.sync 1 ;\n"
                  " bar.red.or.pred %q, 1, %p | bar.red.or.pred %q, 1, %p | ;\n"
                  " bar.sync 2 | bar.sync 2 | ;\n"
                  "forall (P0:q == 1)\n"));
}
END_TEST

static void add_tests(TCase *tc)
{
    tcase_add_test(tc, popc_counts_threads_32_per_litmus_thread);
    tcase_add_test(tc, and_is_false_when_one_thread_is_false);
    tcase_add_test(tc, or_is_true_when_one_thread_is_true);
    tcase_add_test(tc, negated_predicate_contributes_its_complement);
    tcase_add_test(tc, register_barrier_and_thread_count);
    tcase_add_test(tc, bar_red_synchronizes_like_bar_sync);
    tcase_add_test(tc, every_participant_receives_the_same_result);
    tcase_add_test(tc, each_phase_reduces_its_own_predicates);
    tcase_add_test(tc, bar_red_waits_like_bar_sync);
    tcase_add_test(tc, invalid_forms_are_refused);
    tcase_add_test(tc, mixing_with_bar_sync_is_refused);
}
