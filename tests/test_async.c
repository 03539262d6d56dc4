/* tests/test_async.c — the newer synchronization instructions in litmus tests
 * (frontend/litmus_async.c, model/mbarrier.c): each form parses into the instructions the model
 * reads (mbarrier operations on the object's location, asynchronous operations with their
 * order, barrier.cluster, the newer fences), the refusals say why, and small tests get the
 * verdicts the ISA text fixes (the suite suites/async argues 53 of them). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "frontend/litmus.h"
#include "check/verify.h"
#include "model/mbarrier.h"

/* a one-thread test (P1 is placed in another CTA of the cluster) with cell INSN in P0 */
static lit_test *parse_cell(const char *insn, char *err, size_t n)
{
    char text[1024];
    snprintf(text, sizeof text,
             "PTX t\n{ x=0; s=0; bar=0; }\n P0@cta 0,cluster 0,gpu 0 | P1@cta 1,cluster 0,gpu 0 "
             ";\n %s | ;\nexists (x=0)\n",
             insn);
    return lit_parse("t.litmus", text, err, n);
}

static lit_test *ok(const char *insn)
{
    char err[1024] = "";
    lit_test *t = parse_cell(insn, err, sizeof err);
    ck_assert_msg(t != NULL, "'%s' refused: %s", insn, err);
    return t;
}

static void refused(const char *insn, const char *want)
{
    char err[1024] = "";
    lit_test *t = parse_cell(insn, err, sizeof err);
    ck_assert_msg(t == NULL, "'%s' accepted (wanted: %s)", insn, want);
    ck_assert_msg(strstr(err, want) != NULL, "'%s': message '%s' lacks '%s'", insn, err, want);
    ck_assert_msg(!strncmp(err, "t.litmus:4:", 11), "'%s': message '%s' lacks file:line:col", insn,
                  err);
}

START_TEST(mbarrier_forms)
{
    lit_test *t = ok("mbarrier.init.shared.b64 [bar], 2");
    const lit_insn *in = &t->th[0].ins[0];
    ck_assert(in->k == LI_ST && in->mbar == MB_INIT && in->sem == SEM_WEAK && in->size == 8);
    ck_assert(t->uses_async);
    lit_free(t);
    t = ok("mbarrier.arrive.shared.b64 %r0, [bar]");
    in = &t->th[0].ins[0];
    ck_assert(in->k == LI_ATOM && in->mbar == MB_ARRIVE);
    ck_assert_int_eq(in->sem, SEM_RELEASE);          /* ".release is assumed by default" */
    ck_assert_int_eq(in->scope, SCOPE_CTA);          /* "defaults to .cta" */
    ck_assert_int_eq(in->src[0].imm, 1);
    lit_free(t);
    t = ok("mbarrier.arrive.relaxed.cluster.shared::cluster.b64 _, [bar], 2");
    in = &t->th[0].ins[0];
    ck_assert(in->sem == SEM_RELAXED && in->scope == SCOPE_CLUSTER && in->dst[0].k == OPD_NONE &&
              in->src[0].imm == 2);
    ck_assert(t->uses_cluster);
    lit_free(t);
    t = ok("mbarrier.arrive.expect_tx.release.cta.shared.b64 %r0, [bar], 16");
    in = &t->th[0].ins[0];
    ck_assert(in->src[0].imm == 1 && in->src[1].imm == 16);
    lit_free(t);
    t = ok("mbarrier.arrive.noComplete.shared.b64 %r0, [bar], 2");
    ck_assert(t->th[0].ins[0].mb_nocomplete);
    lit_free(t);
    t = ok("mbarrier.arrive_drop.relaxed.cta.b64 %r0, [bar]");
    ck_assert(t->th[0].ins[0].mb_drop);
    lit_free(t);
    t = ok("mbarrier.expect_tx.relaxed.cta.shared.b64 [bar], 512");
    ck_assert(t->th[0].ins[0].mbar == MB_EXPECT_TX && t->th[0].ins[0].sem == SEM_RELAXED);
    lit_free(t);
    t = ok("mbarrier.complete_tx.b64 [bar], 32");
    ck_assert(t->th[0].ins[0].mbar == MB_COMPLETE_TX);
    lit_free(t);
    t = ok("mbarrier.test_wait.shared.b64 %p, [bar], %r1");
    in = &t->th[0].ins[0];
    ck_assert(in->k == LI_LD && in->mbar == MB_TEST && in->sem == SEM_ACQUIRE);
    ck_assert_int_eq(t->th[0].reg_type[in->dst[0].reg], ISA_T_PRED);
    lit_free(t);
    t = ok("mbarrier.try_wait.parity.relaxed.cluster.shared::cta.b64 %p, [bar], 1, 1000");
    ck_assert(t->th[0].ins[0].mbar == MB_TEST_PARITY && t->th[0].ins[0].sem == SEM_RELAXED);
    lit_free(t);
    /* cp.async.mbarrier.arrive: the increment now, the arrive-on asynchronously */
    t = ok("cp.async.mbarrier.arrive.shared.b64 [bar]");
    ck_assert_int_eq(t->th[0].nins, 2);
    ck_assert(t->th[0].ins[0].mbar == MB_INC && !t->th[0].ins[0].async_id);
    ck_assert(t->th[0].ins[1].mbar == MB_ARRIVE && t->th[0].ins[1].async_id &&
              t->th[0].ins[1].async_cp == 2);
    lit_free(t);
    t = ok("cp.async.mbarrier.arrive.noinc.shared.b64 [bar]");
    ck_assert_int_eq(t->th[0].nins, 1);
    lit_free(t);
}
END_TEST

START_TEST(mbarrier_refusals)
{
    refused("mbarrier.init.shared.b32 [bar], 2", "the type .b64");
    refused("mbarrier.init.shared.b64 [bar], 0", "expected arrival count 1..1048575");
    refused("mbarrier.init.shared::cluster.b64 [bar], 1", "own shared memory");
    refused("mbarrier.arrive.acquire.cta.b64 %r0, [bar]", "the semantics .release or .relaxed");
    refused("mbarrier.arrive.release.gpu.b64 %r0, [bar]", "the scope .cta or .cluster");
    refused("mbarrier.arrive.release.cluster.shared::cluster.b64 %r0, [bar]", "the sink '_'");
    refused("mbarrier.arrive.noComplete.relaxed.cta.b64 %r0, [bar], 2",
            "mbarrier.arrive.noComplete");
    refused("mbarrier.test_wait.release.cta.b64 %p, [bar], %r0",
            "the semantics .acquire or .relaxed");
    refused("mbarrier.test_wait.shared::cluster.b64 %p, [bar], %r0", "only arrive operations");
    refused("mbarrier.try_wait.parity.b64 %p, [bar], 2", "expected 0 or 1");
    refused("mbarrier.expect_tx.release.cta.b64 [bar], 4", "the semantics .relaxed");
    refused("mbarrier.inval.shared.b64 [bar]", "mbarrier.inval");
    refused("mbarrier.pending_count.b64 %r0, %r1", "mbarrier.pending_count");
    /* an mbarrier object is 8 bytes */
    char err[512] = "";
    lit_test *t = lit_parse("t.litmus",
                            "PTX t\n{ uint32_t bar; }\n P0@cta 0,gpu 0 ;\n "
                            "mbarrier.init.shared.b64 [bar], 1 ;\nexists (bar=0)\n",
                            err, sizeof err);
    ck_assert_msg(t == NULL && strstr(err, "past the end of 'bar'"), "%s", err);
}
END_TEST

START_TEST(barrier_cluster_and_fences)
{
    lit_test *t = ok("barrier.cluster.arrive.aligned");
    ck_assert(t->th[0].ins[0].k == LI_BAR && t->th[0].ins[0].bar == BAR_CARRIVE &&
              t->th[0].ins[0].sem == SEM_RELEASE);
    lit_free(t);
    t = ok("barrier.cluster.arrive.relaxed");
    ck_assert(t->th[0].ins[0].sem == SEM_RELAXED);
    lit_free(t);
    t = ok("barrier.cluster.wait.acquire.aligned");
    ck_assert(t->th[0].ins[0].bar == BAR_CWAIT && t->th[0].ins[0].sem == SEM_ACQUIRE);
    lit_free(t);
    refused("barrier.cluster.arrive.acquire", "barrier.cluster.arrive with .release or .relaxed");
    refused("barrier.cluster.wait.relaxed", "barrier.cluster.wait with .acquire");
    refused("barrier.cluster.aligned", "barrier.cluster.arrive or barrier.cluster.wait");

    t = ok("fence.acquire.cta");
    ck_assert(t->th[0].ins[0].k == LI_FENCE && t->th[0].ins[0].fence == FENCE_ACQ_REL &&
              t->th[0].ins[0].sem == SEM_ACQUIRE);
    lit_free(t);
    t = ok("fence.release.sys");
    ck_assert(t->th[0].ins[0].sem == SEM_RELEASE && t->th[0].ins[0].scope == SCOPE_SYS);
    lit_free(t);
    t = ok("fence.mbarrier_init.release.cluster");
    ck_assert(t->th[0].ins[0].restrict_ == RS_MBARRIER_INIT);
    lit_free(t);
    t = ok("fence.release.sync_restrict::shared::cta.cluster");
    ck_assert(t->th[0].ins[0].restrict_ == RS_SHARED_CTA);
    lit_free(t);
    t = ok("fence.acquire.sync_restrict::shared::cluster.cluster");
    ck_assert(t->th[0].ins[0].restrict_ == RS_SHARED_CLUSTER);
    lit_free(t);
    refused("fence.acquire.sync_restrict::shared::cta.cluster", "needs .release and .cluster");
    refused("fence.release.sync_restrict::shared::cta.gpu", "needs .release and .cluster");
    refused("fence.mbarrier_init.release.gpu", "fence.mbarrier_init.release.cluster");
    refused("fence.acquire", "a scope");

    t = ok("fence.proxy.async");
    ck_assert(t->th[0].ins[0].fence == FENCE_PROXY_ASYNC &&
              t->th[0].ins[0].fspace == SPACE_GENERIC);
    lit_free(t);
    t = ok("fence.proxy.async.global");
    ck_assert(t->th[0].ins[0].fspace == SPACE_GLOBAL);
    lit_free(t);
    t = ok("fence.proxy.async.shared::cta");
    ck_assert(t->th[0].ins[0].fspace == SPACE_SHARED_CLUSTER);
    lit_free(t);
    t = ok("membar.proxy.async");
    ck_assert(t->th[0].ins[0].fence == FENCE_PROXY_ASYNC);
    lit_free(t);
    t = ok("membar.proxy.alias");
    ck_assert(t->th[0].ins[0].fence == FENCE_PROXY_ALIAS);
    lit_free(t);
    /* uni-directional: the proxy fence, then the restricted release fence (acquire: reversed) */
    t = ok("fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster");
    ck_assert_int_eq(t->th[0].nins, 2);
    ck_assert(t->th[0].ins[0].fence == FENCE_PROXY_ASYNC && t->th[0].ins[0].uni);
    ck_assert(t->th[0].ins[1].sem == SEM_RELEASE && t->th[0].ins[1].restrict_ == RS_SHARED_CTA);
    lit_free(t);
    t = ok("fence.proxy.async::generic.acquire.sync_restrict::shared::cluster.cluster");
    ck_assert(t->th[0].ins[0].sem == SEM_ACQUIRE && t->th[0].ins[1].uni);
    lit_free(t);
    refused("fence.proxy.async::generic.release.cluster",
            "fence.proxy.async::generic.release.sync_restrict");
    t = ok("fence.proxy.tensormap::generic.release.gpu");
    ck_assert(t->th[0].ins[0].fence == FENCE_PROXY_TENSORMAP);
    lit_free(t);
    t = ok("fence.proxy.tensormap::generic.acquire.gpu [x], 128");
    lit_free(t);
    refused("fence.proxy.tensormap::generic.acquire.gpu [x], 64", "the constant 128");
    refused("fence.op_restrict.release.cluster", "op_restrict");
}
END_TEST

START_TEST(async_forms)
{
    lit_test *t = ok("cp.async.ca.shared.global [s], [x], 4");
    const lit_thread *th = &t->th[0];
    ck_assert_int_eq(th->nins, 2);
    ck_assert(th->ins[0].k == LI_LD && th->ins[0].space == SPACE_GLOBAL &&
              th->ins[0].sem == SEM_WEAK);
    ck_assert(th->ins[1].k == LI_ST && th->ins[1].space == SPACE_SHARED_CTA &&
              th->ins[1].src[0].reg == th->ins[0].dst[0].reg);
    ck_assert(th->ins[0].async_id == th->ins[1].async_id && th->ins[0].async_id > 0 &&
              th->ins[0].async_cp == 1);
    ck_assert(th->order != NULL && th->order[0 * 2 + 1]);   /* the read before the write */
    lit_free(t);
    refused("cp.async.cg.shared.global [s], [x], 16", "more than a litmus location can hold");
    refused("cp.async.ca.shared.global [s], [x], 16", "expected 4 or 8");
    refused("cp.async.ca.global.shared [s], [x], 4", "cp.async.{ca,cg}.shared{::cta}.global");
    refused("cp.async.ca.shared.global [s], [x], 4, 2",
            "src-size, ignore-src and cache-policy are not supported");
    t = ok("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [s], [x], 8, [bar]");
    th = &t->th[0];
    ck_assert_int_eq(th->nins, 4);
    ck_assert(th->ins[0].proxy == PROXY_ASYNC && th->ins[1].proxy == PROXY_ASYNC);
    ck_assert(th->ins[2].k == LI_FENCE &&
              th->ins[2].fence == FENCE_PROXY_ASYNC); /* the implicit fence */
    ck_assert(th->ins[3].mbar == MB_COMPLETE_TX && th->ins[3].sem == SEM_RELEASE &&
              th->ins[3].scope == SCOPE_CLUSTER && th->ins[3].src[0].imm == 8);
    lit_free(t);
    refused("cp.async.bulk.global.shared::cta.bulk_group [x], [s], 16", "the bulk-group forms");
    t = ok("st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [s], 1, [bar]");
    ck_assert(t->th[0].nins == 2 && t->th[0].ins[0].k == LI_ST && t->th[0].ins[1].src[0].imm == 4);
    lit_free(t);
    refused(
        "st.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.u32 [s], 1, [bar]",
        "st.async{.weak}");
    t = ok("red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32 [s], 1, "
           "[bar]");
    ck_assert(t->th[0].nins == 2 && t->th[0].ins[0].k == LI_RED &&
              t->th[0].ins[0].sem == SEM_RELAXED);
    lit_free(t);
    t = ok("red.async.release.gpu.global.add.u64 [x], 1");
    ck_assert(t->th[0].nins == 1 && t->th[0].ins[0].sem == SEM_RELEASE && t->th[0].ins[0].async_id);
    lit_free(t);
    refused("red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.f32 [s], "
            "1, [bar]",
            "red.async");
    refused("multimem.st.relaxed.gpu.global.u32 [x], 1", "multimem addresses");
    refused("multimem.ld_reduce.relaxed.gpu.global.add.u32 %r0, [x]", "multimem addresses");
    refused("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [x], [s], 16",
            "bulk reductions and tensor copies");
    refused("cp.async.bulk.commit_group", "the bulk async-groups are not supported");
    refused("cp.async.wait_group %r1", "a constant N");
    /* mmio: the valid forms parse */
    lit_free(ok("ld.mmio.relaxed.sys.global.u32 %r0, [x]"));
    lit_free(ok("st.mmio.relaxed.sys.u32 [x], 1"));
}
END_TEST

/* the program order of §8.9.1.1 over the instructions of one thread */
START_TEST(async_order)
{
    char err[1024] = "";
    lit_test *t = lit_parse("t.litmus",
        "PTX t\n{ x=1; y=1; }\n P0@cta 0,gpu 0 ;\n"
        " cp.async.ca.shared.global [s], [x], 4 ;\n"   /* 0, 1 */
        " cp.async.commit_group ;\n"                   /* 2 */
        " cp.async.ca.shared.global [u], [y], 4 ;\n"   /* 3, 4 */
        " cp.async.commit_group ;\n"                   /* 5 */
        " cp.async.wait_group 1 ;\n"                   /* 6 */
        " ld.shared.u32 %r0, [s] ;\n"                  /* 7 */
        " cp.async.wait_all ;\n"                       /* 8 */
        " ld.shared.u32 %r1, [u] ;\n"                  /* 9 */
        "exists (0:r0=0)\n", err, sizeof err);
    ck_assert_msg(t != NULL, "%s", err);
    const lit_thread *th = &t->th[0];
    int n = th->nins;
    ck_assert_int_eq(n, 10);
#define O(a, b) th->order[(a) * n + (b)]
    ck_assert(O(1, 7) && O(0, 7));            /* the first group is complete at wait_group 1 */
    ck_assert(!O(4, 7) && O(4, 9));           /* the second only at wait_all */
    ck_assert(!O(1, 3) && !O(1, 4) && O(2, 3)); /* two copies unordered; issue order kept */
    ck_assert(O(0, 1) && !O(1, 0));
#undef O
    lit_free(t);
    /* an asynchronous operation inside a loop is refused */
    t = lit_parse(
        "t.litmus",
        "PTX t\n{ x=1; }\n P0@cta 0,gpu 0 ;\n L: cp.async.ca.shared.global [s], [x], 4 ;\n"
        " bra L ;\nexists (x=0)\n",
        err, sizeof err);
    ck_assert_msg(t == NULL && strstr(err, "inside a loop"), "%s", err);
}
END_TEST

/* the mbarrier object's states (model/mbarrier.c) */
START_TEST(mbarrier_states)
{
    lit_insn arrive = { .mbar = MB_ARRIVE }, expect = { .mbar = MB_EXPECT_TX },
             complete = { .mbar = MB_COMPLETE_TX };
    lit_insn wait = { .mbar = MB_TEST }, parity = { .mbar = MB_TEST_PARITY };
    int ub;
    uint64_t s0 = mbar_init(2);
    ck_assert(mbar_valid(s0) && !mbar_valid(0));
    uint64_t s1 = mbar_update(&arrive, s0, 1, 0, &ub);
    ck_assert(!ub && !mbar_complete(&wait, s1, s0, &ub) && !mbar_complete(&parity, s1, 0, &ub));
    uint64_t s2 = mbar_update(&arrive, s1, 1, 0, &ub);             /* the phase completes */
    ck_assert(mbar_complete(&wait, s2, s0, &ub) && mbar_complete(&parity, s2, 0, &ub) &&
              !mbar_complete(&parity, s2, 1, &ub));
    /* tx-count: an arrive does not complete the phase while transactions are pending */
    uint64_t t1 = mbar_update(&expect, mbar_init(1), 4, 0, &ub);
    uint64_t t2 = mbar_update(&arrive, t1, 1, 0, &ub);
    ck_assert(!mbar_complete(&parity, t2, 0, &ub));
    ck_assert(mbar_complete(&parity, mbar_update(&complete, t2, 4, 0, &ub), 0, &ub));
    /* complete-tx first: the tx-count goes negative, the arrive with expect_tx completes */
    lit_insn arrive_tx = { .mbar = MB_ARRIVE };
    uint64_t u1 = mbar_update(&complete, mbar_init(1), 4, 0, &ub);
    ck_assert(mbar_complete(&parity, mbar_update(&arrive_tx, u1, 1, 4, &ub), 0, &ub));
    /* undefined: an arrive on an uninitialised object, a .noComplete arrive that completes */
    mbar_update(&arrive, 0, 1, 0, &ub);
    ck_assert(ub);
    lit_insn noc = { .mbar = MB_ARRIVE, .mb_nocomplete = 1 };
    mbar_update(&noc, mbar_init(1), 1, 0, &ub);
    ck_assert(ub);
}
END_TEST

static int verdict(const char *text, model_kind m, char *err, int n)
{
    char perr[1024];
    lit_test *t = lit_parse("t.litmus", text, perr, sizeof perr);
    ck_assert_msg(t != NULL, "%s", perr);
    verify_opts o;
    verify_opts_default(&o);
    o.model = m;
    verify_result r;
    int rc = verify_test(t, &o, &r);
    int v = rc == 0 && r.ok ? (int)r.validated : -1;
    if (rc || !r.ok) snprintf(err, (size_t)n, "%.400s", r.error);
    r.test = NULL;
    verify_result_free(&r);
    lit_free(t);
    return v;
}

START_TEST(verdicts)
{
    char err[512] = "";
    const char *mp =
        "PTX mp\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n"
        " mbarrier.init.shared.b64 [bar], 2 | bar.sync 0 ;\n"
        " bar.sync 0 | mbarrier.arrive.shared.b64 %%r1, [bar] ;\n"
        " st.global.u32 [x], 1 | mbarrier.test_wait.shared.b64 %%p, [bar], %%r1 ;\n"
        " mbarrier.arrive.%s.cta.shared.b64 %%r0, [bar] | ld.global.u32 %%r2, [x] ;\n"
        "exists (1:p=1 /\\ 1:r2=0)\n";
    char text[1024];
    snprintf(text, sizeof text, mp, "release");
    ck_assert_int_eq(verdict(text, MODEL_PTX, err, (int)sizeof err), 0);   /* forbidden */
    snprintf(text, sizeof text, mp, "relaxed");
    ck_assert_int_eq(verdict(text, MODEL_PTX, err, (int)sizeof err), 1);   /* allowed */
    /* the older models refuse the newer instructions */
    snprintf(text, sizeof text, mp, "release");
    ck_assert_int_eq(verdict(text, MODEL_PTX75, err, (int)sizeof err), -1);
    ck_assert_msg(strstr(err, "--model ptx only"), "%s", err);
    const char *bc =
        "PTX bc\n{ x=0; }\n P0@cta 0,cluster 0,gpu 0 | P1@cta 1,cluster 0,gpu 0 ;\n"
        " st.global.u32 [x], 1 | barrier.cluster.arrive ;\n"
        " barrier.cluster.arrive%s | barrier.cluster.wait ;\n"
        " barrier.cluster.wait | ld.global.u32 %%r0, [x] ;\n"
        "exists (1:r0=0)\n";
    snprintf(text, sizeof text, bc, "");
    ck_assert_int_eq(verdict(text, MODEL_PTX, err, (int)sizeof err), 0);
    snprintf(text, sizeof text, bc, ".relaxed");
    ck_assert_int_eq(verdict(text, MODEL_PTX, err, (int)sizeof err), 1);
    const char *cp = "PTX cp\n{ x=0; s=0; }\n P0@cta 0,gpu 0 ;\n st.global.u32 [x], 1 ;\n"
                     " cp.async.ca.shared.global [s], [x], 4 ;\n %s ;\n ld.shared.u32 %%r0, [s] "
                     ";\nexists (0:r0=0)\n";
    snprintf(text, sizeof text, cp, "cp.async.wait_all");
    ck_assert_int_eq(verdict(text, MODEL_PTX, err, (int)sizeof err), 0);
    snprintf(text, sizeof text, cp, "cp.async.commit_group");
    ck_assert_int_eq(verdict(text, MODEL_PTX, err, (int)sizeof err), 1);
}
END_TEST

static void add_tests(TCase *tc)
{
    tcase_add_test(tc, mbarrier_forms);
    tcase_add_test(tc, mbarrier_refusals);
    tcase_add_test(tc, barrier_cluster_and_fences);
    tcase_add_test(tc, async_forms);
    tcase_add_test(tc, async_order);
    tcase_add_test(tc, mbarrier_states);
    tcase_add_test(tc, verdicts);
}

#include "check_main.h"
