/* tests/test_litmus.c — the litmus front end and the verify driver: parsing both dialects,
 * defaults and synonyms, diagnostics, conditions, and verdicts of small tests whose outcome
 * the ISA text fixes (§8.10) or that exercise one mechanism each (scopes, clusters, GPUs,
 * barriers, predicates, loops, proxies). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "frontend/litmus.h"
#include "tests/litmus_run.h"
#include "report/report.h"
#include "check/verify.h"

static lit_test *parse_ok(const char *text)
{
    char err[1024];
    lit_test *t = lit_parse("t.litmus", text, err, sizeof err);
    ck_assert_msg(t != NULL, "parse failed: %s", err);
    return t;
}

static void parse_err(const char *text, const char *want)
{
    char err[1024] = "";
    lit_test *t = lit_parse("bad.litmus", text, err, sizeof err);
    ck_assert_msg(t == NULL, "parse unexpectedly succeeded (wanted %s)", want);
    ck_assert_msg(strstr(err, want) != NULL, "message '%s' lacks '%s'", err, want);
    ck_assert_msg(!strncmp(err, "bad.litmus:", 11), "message '%s' lacks file:line:col", err);
}

/* run a test under a model; returns the result (caller frees) */
static verify_result run(const char *text, model_kind m)
{
    verify_opts o;
    verify_opts_default(&o);
    o.model = m;
    return verify_text(text, &o);
}

static int validated(const char *text)
{
    verify_result r = run(text, MODEL_PTX);
    int v = r.validated;
    verify_result_free(&r);
    return v;
}

#define MP(rel, acq, p0, p1) \
    "PTX MP\n{ x=0; y=0; }\n P0@" p0 " | P1@" p1 " ;\n st.weak x, 1 | ld." acq " r0, y ;\n" \
    " st." rel " y, 1 | ld.weak r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n"

START_TEST(parse_dat3m_dialect)
{
    lit_test *t = parse_ok(MP("release.gpu", "acquire.gpu", "cta 0,gpu 0", "cta 1,gpu 0"));
    ck_assert_str_eq(t->name, "MP");
    ck_assert_int_eq(t->nth, 2);
    ck_assert_int_eq(t->th[0].nins, 2);
    ck_assert_int_eq(t->th[0].ins[0].k, LI_ST);
    ck_assert_int_eq(t->th[0].ins[0].sem, SEM_WEAK);
    ck_assert_int_eq(t->th[0].ins[1].sem, SEM_RELEASE);
    ck_assert_int_eq(t->th[0].ins[1].scope, SCOPE_GPU);
    ck_assert_int_eq(t->th[1].ins[0].k, LI_LD);
    ck_assert_int_eq(t->th[1].ins[0].sem, SEM_ACQUIRE);
    ck_assert_int_eq(t->th[1].cta, 1);
    ck_assert_int_eq(t->quant, COND_EXISTS);
    ck_assert_int_eq(t->nsym, 2);
    lit_free(t);
}
END_TEST

START_TEST(parse_real_ptx_spelling)
{
    lit_test *t = parse_ok(
        "PTX real\n\"doc\"\n{ .u32 flag = 0; data = 0; P1:%r1 = 0; }\n"
        " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
        " st.global.u32 [data], 42 | ld.global.acquire.gpu.u32 %r0, [flag] ;\n"
        " st.global.release.gpu.u32 [flag], 1 | ld.global.u32 %r1, [data] ;\n"
        "exists (P1:%r0 == 1 /\\ P1:r1 != 42)\n");
    ck_assert_int_eq(t->th[0].ins[0].type, ISA_T_U32);
    ck_assert_int_eq(t->th[0].ins[0].sem, SEM_WEAK);
    ck_assert_int_eq(t->th[1].ins[0].sem, SEM_ACQUIRE);
    /* %r1 in the init block, r1 in the condition and %r1 in the code are one register */
    ck_assert_int_eq(lit_find_reg(&t->th[1], "r1"), lit_find_reg(&t->th[1], "%r1"));
    ck_assert_int_eq(t->th[1].ins[1].dst[0].reg, lit_find_reg(&t->th[1], "r1"));
    ck_assert_str_eq(t->doc, "doc");
    lit_free(t);
}
END_TEST

START_TEST(parse_synonyms_and_defaults)
{
    lit_test *t = parse_ok(
        "PTX syn\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n"
        " membar.gl | ;\n membar.cta | ;\n membar.sys | ;\n fence.gpu | ;\n fence.sc.cluster | ;\n"
        " ld.volatile.global.u32 %r0, [x] | ;\n atom.global.add.u32 %r1, [x], 1 | ;\n "
        "red.global.add.u32 [x], 1 | ;\n"
        " bar.sync 0 | ;\n barrier.sync 1, 64 | ;\n bar.cta.arrive 2, 64 | ;\n"
        "exists (0:r0 = 0)\n");
    const lit_insn *in = t->th[0].ins;
    ck_assert_int_eq(in[0].fence, FENCE_SC);
    ck_assert_int_eq(in[0].scope, SCOPE_GPU); /* membar.gl */
    ck_assert_int_eq(in[1].scope, SCOPE_CTA);
    ck_assert_int_eq(in[2].scope, SCOPE_SYS);
    ck_assert_int_eq(in[3].fence, FENCE_ACQ_REL); ck_assert_int_eq(in[3].scope, SCOPE_GPU);
    ck_assert_int_eq(in[4].scope, SCOPE_CLUSTER);
    ck_assert_int_eq(in[5].sem, SEM_RELAXED);
    ck_assert_int_eq(in[5].scope, SCOPE_SYS);
    ck_assert(in[5].volatile_);
    ck_assert_int_eq(in[6].sem, SEM_RELAXED);
    ck_assert_int_eq(in[6].scope, SCOPE_GPU);
    ck_assert_int_eq(in[6].aop, ISA_ATOM_ADD);
    ck_assert_int_eq(in[7].k, LI_RED);
    ck_assert_int_eq(in[8].k, LI_BAR);
    ck_assert_int_eq(in[8].bar, BAR_SYNC);
    ck_assert_int_eq(in[8].nsrc, 1);
    ck_assert_int_eq(in[9].nsrc, 2);
    ck_assert_int_eq(in[10].bar, BAR_ARRIVE);
    ck_assert(t->uses_cluster);
    lit_free(t);
}
END_TEST

START_TEST(parse_aliases_and_proxies)
{
    lit_test *t = parse_ok("PTX al\n{ x=0; y @ generic aliases x; s @ surface aliases x; t @ "
                           "texture aliases y; c @ constant aliases x; }\n"
                           " P0@cta 0,gpu 0 ;\n sust.weak s, 1 ;\n fence.proxy.surface ;\n "
                           "fence.proxy.texture ;\n tld.weak r0, t ;\n"
                           "forall (P0:r0 == 1)\n");
    int x = lit_find_sym(t, "x"), y = lit_find_sym(t, "y"), s = lit_find_sym(t, "s"),
        tt = lit_find_sym(t, "t");
    ck_assert_int_eq(t->sym[y].loc, x);
    ck_assert_int_ne(t->sym[y].vaddr, t->sym[x].vaddr);     /* a generic alias is another address */
    ck_assert_int_eq(t->sym[s].vaddr, t->sym[x].vaddr);     /* a surface alias names x's address */
    ck_assert_int_eq(t->sym[tt].vaddr, t->sym[y].vaddr);
    ck_assert_int_eq(t->sym[s].proxy, PROXY_SURFACE);
    ck_assert_int_eq(t->th[0].ins[0].proxy, PROXY_SURFACE);
    ck_assert_int_eq(t->th[0].ins[3].proxy, PROXY_TEXTURE);
    ck_assert(t->uses_proxies);
    lit_free(t);
}
END_TEST

START_TEST(parse_errors_point_at_the_problem)
{
    parse_err("PTX a\n{ x=0; \n P0@cta 0 ;\n", "expected");
    parse_err("PTX a\n{ x=0; }\n P0@cta 0,gpu 0 ;\n ld.bogus r0, x ;\nexists (0:r0=0)\n",
              "bad.litmus:4:5: found unknown qualifier '.bogus'");
    parse_err("PTX a\n{ x=0; }\n P0@cta 0,gpu 0 ;\n goto L9 ;\nexists (0:r0=0)\n",
              "found a branch to 'L9', expected a label");
    parse_err("PTX a\n{ x=0; }\n P0@cta 0,gpu 0 ;\n ld.weak r0, x ;\nexists (P3:r0=0)\n",
              "found the thread 'P3'");
    parse_err("PTX a\n{ x=0; }\n P0@cta 0,gpu 0 ;\n ld.weak r0, x ;\nexists (P0:r0=)\n",
              "expected a register (P0:r1), a location or a number");
    parse_err("PTX a\n\"unterminated\n{ x=0; }\n", "bad.litmus:2:1: found an unterminated string");
    parse_err("PTX a\n(* never closed\n", "bad.litmus:2:1: found an unterminated comment");
    parse_err(
        "PTX a\n{ x=0; }\n P0@cta 0,gpu 0 ;\n ld.weak r0, x | ld.weak r1, x ;\nexists (0:r0=0)\n",
        "expected no more columns than threads");
    parse_err(
        "PTX a\n{ x=0; }\n P0@cta 0,gpu 0 ;\n ld.weak.gpu.global.u32 %r0, [x] ;\nexists (0:r0=0)\n",
        "expected a scope only with .relaxed, .acquire or .release");
    parse_err("PTX a\n{ x=0; }\n P0@cta 0,gpu 0 ;\n st.acquire.gpu x, 1 ;\nexists (0:r0=0)\n",
              "expected a store with .weak, .relaxed or .release");
    parse_err("PTX a\n{ x=0; }\n P0@cta 0,gpu 0 ;\n fence.sc ;\nexists (0:r0=0)\n",
              "without a scope");
    parse_err("PTX a\n{ x=0; }\n P0@cta 0,gpu 0 ;\n ld.weak r0, x ;\nexists (0:r0=0) junk\n",
              "expected the end of the test");
    parse_err("PTX a\n{ x=0; }\n P0@cta 0,gpu 0 ;\n ld.weak r0, x ;\nexist (0:r0=0)\n",
              "expected an instruction row");
    parse_err("PTX a\n{ x=0 }\n P0@cta 0, warp 0 ;\n", "expected 'cta', 'cluster' or 'gpu'");
    parse_err("PTX a\n{ x=0; }\n P0@cta 0,gpu 0 ;\n ld.weak r0, x ;\nexists "
              "(0:r0=99999999999999999999)\n",
              "fits in 64 bits");
}
END_TEST

START_TEST(condition_depth_is_bounded)
{
    /* 5000 nested parentheses: rejected with a message, not a stack overflow */
    size_t n = 5000;
    char *s = malloc(200 + 2 * n);
    strcpy(s, "PTX deep\n{ x=0; }\n P0@cta 0,gpu 0 ;\n ld.weak r0, x ;\nexists ");
    size_t l = strlen(s);
    for (size_t i = 0; i < n; i++) s[l++] = '(';
    strcpy(s + l, "0:r0=0");
    l = strlen(s);
    for (size_t i = 0; i < n; i++) s[l++] = ')';
    s[l] = 0;
    parse_err(s, "nested more than");
    free(s);
}
END_TEST

START_TEST(condition_print_and_eval)
{
    lit_test *t = parse_ok("PTX c\n{ x=0; }\n P0@cta 0,gpu 0 ;\n ld.weak r0, x ;\n"
                           "exists (0:r0 == 1 \\/ ~(x = 2) /\\ P0:%r0 != 3)\n");
    char buf[256];
    cond_print(t->cond, buf, sizeof buf);
    ck_assert_str_eq(buf, "(P0:r0=1 \\/ (~x=2 /\\ P0:r0!=3))");
    lit_free(t);
}
END_TEST

/* ---- verdicts ---- */

START_TEST(mp_release_acquire)
{
    /* §8.8/§8.10.6: the release pattern synchronizes with the acquire pattern */
    ck_assert(!validated(MP("release.gpu", "acquire.gpu", "cta 0,gpu 0", "cta 1,gpu 0")));
    /* relaxed: no synchronization, the weak read may return 0 */
    ck_assert(validated(MP("relaxed.gpu", "relaxed.gpu", "cta 0,gpu 0", "cta 1,gpu 0")));
    /* cta scope across CTAs: not morally strong, no synchronization */
    ck_assert(validated(MP("release.cta", "acquire.cta", "cta 0,gpu 0", "cta 1,gpu 0")));
    ck_assert(!validated(MP("release.cta", "acquire.cta", "cta 0,gpu 0", "cta 0,gpu 0")));
    /* gpu scope across GPUs: no; sys scope: yes (§8.5) */
    ck_assert(validated(MP("release.gpu", "acquire.gpu", "cta 0,gpu 0", "cta 0,gpu 1")));
    ck_assert(!validated(MP("release.sys", "acquire.sys", "cta 0,gpu 0", "cta 0,gpu 1")));
    /* cluster scope: same cluster synchronizes, different clusters do not */
    ck_assert(!validated(MP("release.cluster", "acquire.cluster", "cta 0,cluster 0,gpu 0",
                            "cta 1,cluster 0,gpu 0")));
    ck_assert(validated(MP("release.cluster", "acquire.cluster", "cta 0,cluster 0,gpu 0",
                           "cta 1,cluster 1,gpu 0")));
    /* a thread with no cluster is alone in its CTA's cluster */
    ck_assert(validated(MP("release.cluster", "acquire.cluster", "cta 0,gpu 0", "cta 1,gpu 0")));
    ck_assert(!validated(MP("release.cluster", "acquire.cluster", "cta 0,gpu 0", "cta 0,gpu 0")));
}
END_TEST

START_TEST(mp_states_and_report)
{
    verify_result r =
        run(MP("release.gpu", "acquire.gpu", "cta 0,gpu 0", "cta 1,gpu 0"), MODEL_PTX);
    ck_assert_int_eq(r.nstates, 3);            /* (0,0) (0,1) (1,1): (1,0) is forbidden */
    ck_assert_int_eq(r.positive, 0);
    ck_assert_int_eq(r.negative, 3);
    ck_assert_str_eq(verify_observation(&r), "Never");
    ck_assert_str_eq(r.condition, "(P1:r0=1 /\\ P1:r1=0)");
    char *buf = NULL; size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    report_herd(f, &r, 2);
    fclose(f);
    ck_assert_msg(
        strstr(buf,
               "Test MP Allowed\nStates 3\nP1:r0=0; P1:r1=0;\nP1:r0=0; P1:r1=1;\nP1:r0=1; "
               "P1:r1=1;\nNo\nWitnesses\nPositive: 0 Negative: 3\n"
               "Condition exists (P1:r0=1 /\\ P1:r1=0)\nObservation MP Never 0 3\nTime MP ") == buf,
        "%s", buf);
    free(buf);
    cJSON *j = report_json_result(&r);
    ck_assert_str_eq(cJSON_GetObjectItem(j, "status")->valuestring, "ok");
    ck_assert(cJSON_IsFalse(cJSON_GetObjectItem(j, "validated")));
    ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(j, "states")), 3);
    ck_assert_str_eq(cJSON_GetObjectItem(j, "observation")->valuestring, "Never");
    ck_assert_str_eq(cJSON_GetObjectItem(j, "quantifier")->valuestring, "exists");
    cJSON_Delete(j);
    verify_result_free(&r);
}
END_TEST

#define SB(fence)                                                                                  \
    "PTX SB\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.weak x, 1 | st.weak y, 1 ;\n"  \
    " " fence " | " fence                                                                          \
    " ;\n ld.weak r0, y | ld.weak r1, x ;\nexists (P0:r0 == 0 /\\ P1:r1 == 0)\n"

START_TEST(sb_fences)
{
    /* §8.10.6 Store Buffering: fence.sc forbids, fence.acq_rel does not */
    ck_assert(!validated(SB("fence.sc.gpu")));
    ck_assert(!validated(SB("membar.gl")));
    ck_assert(validated(SB("fence.acq_rel.gpu")));
    ck_assert(validated(SB("fence.gpu")));
    ck_assert(validated(SB("fence.sc.cta")));   /* cta-scoped fences in different CTAs */
}
END_TEST

START_TEST(atomicity_litmus_tests_1_and_2)
{
    /* §8.10.3 Litmus Test 1 / 2 */
    const char *t1 =
        "PTX L1\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
        " atom.sys.inc.u32 %r0, [x], 100 | atom.sys.inc.u32 %r0, [x], 100 ;\nforall (x == 2)\n";
    const char *t2 =
        "PTX L2\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
        " atom.cta.inc.u32 %r0, [x], 100 | atom.gpu.inc.u32 %r0, [x], 100 ;\nexists (x == 1)\n";
    ck_assert(validated(t1));
    ck_assert(validated(t2));
}
END_TEST

START_TEST(coherence_is_partial)
{
    /* §8.9.6: racing weak writes are unordered, so two observers may see them in either order */
    const char *t =
        "PTX CoW\n{ x=0; f1=0; f2=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 | P2@cta 0,gpu 0 ;\n"
        " st.weak x, 1 | st.weak x, 2 | ld.acquire.sys r0, f1 ;\n st.release.sys f1, 1 | "
        "st.release.sys f2, 1 | ld.acquire.sys r1, f2 ;\n"
        " | | ld.weak r2, x ;\n | | ld.weak r3, x ;\nexists (P2:r0 = 1 /\\ P2:r1 = 1 /\\ P2:r2 = 1 "
        "/\\ P2:r3 = 2)\n";
    ck_assert(validated(t));
}
END_TEST

START_TEST(predicates_and_alu)
{
    const char *t = "PTX pred\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n"
                    " st.weak x, 5 | ld.weak r0, x ;\n | setp.eq.s32 %p1, %r0, 5 ;\n | selp.b32 "
                    "%r2, 10, 20, %p1 ;\n"
                    " | @%p1 st.weak y, 7 ;\n | @!%p1 add.s32 %r2, %r2, 1 ;\nforall ((P1:r0 = 5 "
                    "/\\ P1:r2 = 10 /\\ y = 7) \\/ (P1:r0 = 0 /\\ P1:r2 = 21 /\\ y = 0))\n";
    ck_assert(validated(t));
}
END_TEST

START_TEST(spin_loop_and_bound)
{
    const char *t = "PTX spin\n{ x=0; f=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
                    " st.weak x, 1 | LC00: ;\n st.release.gpu f, 1 | ld.acquire.gpu r0, f ;\n | "
                    "beq r0, 0, LC00 ;\n | ld.weak r1, x ;\n"
                    "forall (P1:r0 = 1 /\\ P1:r1 = 1)\n";
    verify_result r = run(t, MODEL_PTX);
    ck_assert(r.validated);
    ck_assert_int_eq(r.nstates, 1);
    verify_result_free(&r);
    /* a loop that writes every iteration is cut by the unroll bound, and says so */
    const char *u = "PTX count\n{ x=0; }\n P0@cta 0,gpu 0 ;\n LC00: ;\n atom.relaxed.gpu.add r0, "
                    "x, 1 ;\n bne r0, 100, LC00 ;\n"
                    "exists (x = 100)\n";
    verify_result q = run(u, MODEL_PTX);
    ck_assert(q.bound_reached);
    ck_assert(!q.validated);
    verify_result_free(&q);
}
END_TEST

START_TEST(barriers)
{
    /* §8.9.4 item 2: bar.sync on the same barrier synchronizes.  §9.7.12.1: bar.sync a without a
       count waits for all threads of the CTA, so two threads of one CTA at different barriers
       wait forever (no final state: a forall holds vacuously); a thread alone in its CTA
       completes its barrier alone */
    const char *same =
        "PTX b\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n st.weak x, 1 | st.weak y, 1 ;\n"
        " bar.sync 1 | bar.sync 1 ;\n ld.weak r0, y | ld.weak r1, x ;\nforall (P0:r0 = 1 /\\ P1:r1 "
        "= 1)\n";
    const char *diff =
        "PTX b\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n st.weak x, 1 | st.weak y, 1 ;\n"
        " bar.sync 1 | bar.sync 2 ;\n ld.weak r0, y | ld.weak r1, x ;\nforall (P0:r0 = 1 /\\ P1:r1 "
        "= 1)\n";
    const char *cta =
        "PTX b\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.weak x, 1 | st.weak y, 1 ;\n"
        " bar.sync 1 | bar.sync 1 ;\n ld.weak r0, y | ld.weak r1, x ;\nforall (P0:r0 = 1 /\\ P1:r1 "
        "= 1)\n";
    ck_assert(validated(same));
    verify_result d = run(diff, MODEL_PTX);
    ck_assert_int_eq(d.nstates, 0);
    verify_result_free(&d);
    ck_assert(!validated(cta));
    /* opposite barrier orders deadlock: no execution completes */
    const char *dl =
        "PTX dl\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n bar.sync 0 | bar.sync 1 ;\n"
        " bar.sync 1 | bar.sync 0 ;\nexists (x = 0)\n";
    verify_result r = run(dl, MODEL_PTX);
    ck_assert_int_eq(r.nstates, 0);
    verify_result_free(&r);
}
END_TEST

START_TEST(proxies)
{
    /* a surface write becomes visible to a texture read after fence.proxy.surface then
       fence.proxy.texture, not in the other order */
    const char *good =
        "PTX p\n{ x=0; s @ surface aliases x; t @ texture aliases x; }\n P0@cta 0,gpu 0 ;\n"
        " sust.weak s, 1 ;\n fence.proxy.surface ;\n fence.proxy.texture ;\n tld.weak r0, t "
        ";\nforall (P0:r0 = 1)\n";
    const char *bad =
        "PTX p\n{ x=0; s @ surface aliases x; t @ texture aliases x; }\n P0@cta 0,gpu 0 ;\n"
        " sust.weak s, 1 ;\n fence.proxy.texture ;\n fence.proxy.surface ;\n tld.weak r0, t "
        ";\nforall (P0:r0 = 1)\n";
    ck_assert(validated(good));
    ck_assert(!validated(bad));
    /* §8.10.6 CoWR: aliases need fence.proxy.alias */
    const char *cowr =
        "PTX cowr\n{ a=0; b @ generic aliases a; }\n P0@cta 0,gpu 0 ;\n st.global.u32 [a], 1 ;\n"
        " fence.proxy.alias ;\n ld.global.u32 %r1, [b] ;\nforall (P0:r1 = 1)\n";
    const char *cowr0 =
        "PTX cowr\n{ a=0; b @ generic aliases a; }\n P0@cta 0,gpu 0 ;\n st.global.u32 [a], 1 ;\n"
        " ld.global.u32 %r1, [b] ;\nforall (P0:r1 = 1)\n";
    ck_assert(validated(cowr));
    ck_assert(!validated(cowr0));
}
END_TEST

START_TEST(model_features)
{
    lit_test *t = parse_ok(
        MP("release.cluster", "acquire.cluster", "cta 0,cluster 0,gpu 0", "cta 1,cluster 0,gpu 0"));
    verify_opts o;
    verify_opts_default(&o);
    o.model = MODEL_PTX75;
    verify_result r;
    ck_assert_int_eq(verify_test(t, &o, &r), -1);
    ck_assert(!r.ok);
    ck_assert_msg(strstr(r.error, "t.litmus:1:1: found the .cluster scope"), "%s", r.error);
    verify_result_free(&r);
    lit_free(t);
    model_kind k;
    ck_assert_int_eq(model_parse("ptx-v6.0", &k), 0);
    ck_assert_int_eq(k, MODEL_PTX60);
    ck_assert_int_eq(model_parse("herd", &k), -1);
    /* issue #30: `--model nope` listed three of the accepted names; model_choices lists every
       one: each word of it parses, and each model's name is in it */
    char words[256];
    snprintf(words, sizeof words, "%s", model_choices());
    int n = 0;
    for (char *save = NULL, *w = strtok_r(words, " ,()", &save); w;
         w = strtok_r(NULL, " ,()", &save))
        if (strcmp(w, "or")) { ck_assert_msg(model_parse(w, &k) == 0, "%s", w); n++; }
    for (int m = 0; m < MODEL_COUNT; m++)
        ck_assert_msg(strstr(model_choices(), model_name((model_kind)m)), "%s", model_name(m));
    ck_assert_int_eq(n, MODEL_COUNT + 1);   /* and ptx-v8.4 */
}
END_TEST

START_TEST(address_registers)
{
    const char *t =
        "PTX addr\n{ x=0; y=0; P0:r5=x; P1:r6=y; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n"
        " st.weak [r5], 3 | ld.weak r0, [r6] ;\nlocations [P0:r5;]\nforall (x = 3 /\\ P1:r0 = 0)\n";
    lit_test *lt = parse_ok(t);
    verify_opts o;
    verify_opts_default(&o);
    verify_result r;
    ck_assert_int_eq(verify_test(lt, &o, &r), 0);
    ck_assert(r.validated);
    ck_assert_int_eq(r.nstates, 1);
    /* the address-valued register prints as the location's name, herd style */
    char *buf = NULL; size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    report_herd(f, &r, 2);
    fclose(f);
    ck_assert_msg(strstr(buf, "P0:r5=x;") != NULL, "%s", buf);
    free(buf);
    verify_result_free(&r);
    lit_free(lt);
}
END_TEST

START_TEST(max_states_limits_the_listing_not_the_verdict)
{
    /* 3 reachable states, one satisfies the proposition; enumerating only 1 must not change the
       verdict nor the observation (they come from direct queries) */
    lit_test *t = parse_ok("PTX MP-max-states\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
                 " st.weak x, 1 | ld.acquire.gpu r0, y ;\n st.release.gpu y, 1 | ld.weak r1, x ;\n"
                 "exists (P1:r0 == 1 /\\ P1:r1 == 1)\n");
    verify_opts o;
    verify_opts_default(&o);
    o.states = 1;
    verify_result r;
    ck_assert_int_eq(verify_test(t, &o, &r), 0);
    ck_assert(r.validated);
    ck_assert_int_eq(r.nstates_total, -1);            /* more exist, not counted */
    ck_assert_str_eq(verify_observation(&r), "Sometimes");
    /* issue #28, item 5: the cut list holds a witness of each side, so the counts agree with
       the verdict (it printed `Sometimes 0 1`, JSON validated true with positive 0) */
    ck_assert_int_eq(r.positive, 1);
    ck_assert_int_eq(r.negative, 1);
    ck_assert_int_le(r.nstates, 2);
    verify_result_free(&r);
    o.states = 0;                                     /* no enumeration: the witnesses only */
    ck_assert_int_eq(verify_test(t, &o, &r), 0);
    ck_assert(r.validated);
    ck_assert_int_eq(r.nstates, 2);
    ck_assert_int_eq(r.positive, 1);
    ck_assert_int_eq(r.negative, 1);
    ck_assert_int_eq(r.nstates_total, -1);
    verify_result_free(&r);
    /* every quantifier and every cut: the counts of the listed states give the verdict by herd's
       rules (exists: positive > 0; ~exists: positive == 0; forall: negative == 0) and the
       observation (Never: positive == 0; Always: negative == 0; Sometimes: both > 0) */
    static const char *const conds[] = { "exists (P1:r0 == 1 /\\ P1:r1 == 1)",
                                         "~exists (P1:r0 == 1 /\\ P1:r1 == 0)",
                                         "forall (P1:r1 == 1 \\/ P1:r0 == 0)",
                                         "exists (P1:r0 == 1)", "forall (P1:r0 == 1)" };
    for (int c = 0; c < 5; c++) {
        char text[512];
        snprintf(text, sizeof text,
                 "PTX MP-cut\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
                 " st.weak x, 1 | ld.acquire.gpu r0, y ;\n st.release.gpu y, 1 | ld.weak r1, x ;\n"
                 "%s\n", conds[c]);
        lit_test *u = parse_ok(text);
        for (long n = 0; n <= 3; n++) {
            o.states = n;
            ck_assert_int_eq(verify_test(u, &o, &r), 0);
            int by_counts = u->quant == COND_EXISTS       ? r.positive > 0
                            : u->quant == COND_NOT_EXISTS ? r.positive == 0
                                                          : r.negative == 0;
            ck_assert_msg(by_counts == r.validated, "%s --states %ld", conds[c], n);
            const char *obs = verify_observation(&r);
            ck_assert_msg(!strcmp(obs, !r.positive   ? "Never"
                                       : !r.negative ? "Always"
                                                     : "Sometimes"),
                          "%s --states %ld: %s %d %d", conds[c], n, obs, r.positive, r.negative);
            verify_result_free(&r);
        }
        lit_free(u);
    }
    o.states = -1;                                    /* all of them */
    ck_assert_int_eq(verify_test(t, &o, &r), 0);
    ck_assert_int_eq(r.nstates, 3);
    ck_assert_int_eq(r.nstates_total, 3);
    ck_assert_int_eq(r.positive, 1);
    ck_assert_int_eq(r.negative, 2);
    verify_result_free(&r);
    lit_free(t);
}
END_TEST

START_TEST(condition_depth_is_an_option)
{
    /* --max-depth N: N levels parse, N+1 are rejected naming the option */
    char text[512];
    char open_[64] = "", close_[64] = "";
    for (int i = 0; i < 10; i++) { strcat(open_, "("); strcat(close_, ")"); }
    snprintf(text, sizeof text,
             "PTX d\n{ x=0; }\n P0@cta 0,gpu 0 ;\n ld.weak r0, x ;\nexists %s0:r0=0%s\n", open_,
             close_);
    char err[512];
    lit_test *t = lit_parse_ex("d.litmus", text, 10, err, sizeof err);
    ck_assert_msg(t != NULL, "%s", err);
    lit_free(t);
    t = lit_parse_ex("d.litmus", text, 9, err, sizeof err);
    ck_assert(t == NULL);
    ck_assert_msg(strstr(err, "d.litmus:5:") && strstr(err, "limit --max-depth"), "%s", err);
    /* the cap itself, and the stack it needs: tests/test_limits.c
       deep_conditions_fit_the_stack */
}
END_TEST

static void add_tests(TCase *tc)
{
    tcase_add_test(tc, parse_dat3m_dialect);
    tcase_add_test(tc, parse_real_ptx_spelling);
    tcase_add_test(tc, parse_synonyms_and_defaults);
    tcase_add_test(tc, parse_aliases_and_proxies);
    tcase_add_test(tc, parse_errors_point_at_the_problem);
    tcase_add_test(tc, condition_depth_is_bounded);
    tcase_add_test(tc, condition_print_and_eval);
    tcase_add_test(tc, mp_release_acquire);
    tcase_add_test(tc, mp_states_and_report);
    tcase_add_test(tc, sb_fences);
    tcase_add_test(tc, atomicity_litmus_tests_1_and_2);
    tcase_add_test(tc, coherence_is_partial);
    tcase_add_test(tc, predicates_and_alu);
    tcase_add_test(tc, spin_loop_and_bound);
    tcase_add_test(tc, barriers);
    tcase_add_test(tc, proxies);
    tcase_add_test(tc, model_features);
    tcase_add_test(tc, address_registers);
    tcase_add_test(tc, max_states_limits_the_listing_not_the_verdict);
    tcase_add_test(tc, condition_depth_is_an_option);
}

#include "check_main.h"
