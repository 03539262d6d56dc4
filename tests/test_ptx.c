/* tests/test_ptx.c — unit tests of ptx/: the opcode table (ptx/opcodes.def) against the section
 * headings of the ISA text, and the mnemonic tokenizer (ptx/mnemonic.c) on the forms the ISA
 * writes (§9.7 syntax boxes and examples), including its refusals. */
#include "tests/check_quiet.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/mnemonic.h"
#include "ptx/opcodes.h"

static ptx_mnemonic M;

static void tok(const char *s)
{
    ptx_mn_error e;
    int r = ptx_mnemonic_parse(s, strlen(s), &M, &e);
    ck_assert_msg(r == 0, "%s: %s (at %zu)", s, e.msg, e.off);
}

static void refused(const char *s, const char *why, size_t off)
{
    ptx_mn_error e;
    ptx_mnemonic m;
    ck_assert_msg(ptx_mnemonic_parse(s, strlen(s), &m, &e) == -1, "%s accepted", s);
    ck_assert_msg(strstr(e.msg, why) != NULL, "%s: '%s', want '%s'", s, e.msg, why);
    ck_assert_msg(e.off == off, "%s: at %zu, want %zu (%s)", s, e.off, off, e.msg);
}

/* the written text of qualifier i */
static int qis(int i, const char *w)
{
    return i < M.nq && M.q[i].len == strlen(w) && !memcmp(M.text + M.q[i].off, w, M.q[i].len);
}

/* ---------------------------------------------------------------- the table */
START_TEST(table_rows)
{
    /* every row: mnemonic, section under §9.7, title ending in (or naming) the mnemonic, a doc */
    for (int i = 1; i < PTX_I_COUNT; i++) {
        const ptx_opinfo *o = &ptx_ops[i];
        ck_assert_msg(o->mnemonic[0] && o->doc[0], "row %d", i);
        ck_assert_msg(!strncmp(o->section, "9.7.", 4), "%s: section %s", o->mnemonic, o->section);
        ck_assert_msg(o->kind < PTX_K_COUNT, "%s", o->mnemonic);
        const char *colon = strrchr(o->title, ':');
        ck_assert_msg(colon != NULL, "%s: title %s", o->mnemonic, o->title);
        /* rows of the same mnemonic are consecutive or distinct sections */
        for (int j = 1; j < i; j++)
            ck_assert_msg(strcmp(ptx_ops[j].mnemonic, o->mnemonic) ||
                              strcmp(ptx_ops[j].section, o->section),
                          "%s twice in §%s", o->mnemonic, o->section);
    }
    ck_assert_int_eq(ptx_ngroups, 17);
    ck_assert_str_eq(ptx_kind_name(PTX_K_ALU), "ALU");
    ck_assert_str_eq(ptx_op_mnemonic(PTX_I_CP_ASYNC_BULK), "cp.async.bulk");
}
END_TEST

/* the table names every instruction heading of §9.7 in the ISA text (when it is present):
 * "9.7.N.M. Group: mnemonic", except headings with subsections (9.7.8.24 Asynchronous copy,
 * 9.7.12.15 mbarrier) */
START_TEST(table_covers_spec)
{
    FILE *f = fopen("/work/shared/spec/ptx-isa-8.4.txt", "r");
    if (!f) return;   /* the spec is not part of the repository */
    static char heads[400][160];
    char line[512];
    int nh = 0, n = 0;
    while (fgets(line, sizeof line, f) && nh < 400)
        if (!strncmp(line, "9.7.", 4) && strchr(line, ' ')) {
            line[strcspn(line, "\n")] = 0;
            snprintf(heads[nh++], sizeof heads[0], "%.159s", line);
        }
    fclose(f);
    for (int h = 0; h < nh; h++) {
        char *sp = strchr(heads[h], ' ');
        if (!strstr(sp, ": ")) continue;   /* group and descriptive headings */
        size_t sl = (size_t)(sp - heads[h]);   /* "9.7.1.1." */
        if (h + 1 < nh && !strncmp(heads[h + 1], heads[h], sl)) continue;   /* has subsections */
        char sec[32];
        snprintf(sec, sizeof sec, "%.*s", (int)sl - 1, heads[h]);
        int found = 0;
        for (int i = 1; i < PTX_I_COUNT && !found; i++)
            found = !strcmp(ptx_ops[i].section, sec) && !strcmp(ptx_ops[i].title, sp + 1);
        ck_assert_msg(found, "no row for §%s %s", sec, sp + 1);
        n++;
    }
    ck_assert_int_ge(n, 170);
    /* and every row names a heading of the text */
    for (int i = 1; i < PTX_I_COUNT; i++) {
        int found = 0;
        for (int h = 0; h < nh && !found; h++) {
            char *sp = strchr(heads[h], ' ');
            found = !strcmp(sp + 1, ptx_ops[i].title) &&
                    (size_t)(sp - heads[h]) == strlen(ptx_ops[i].section) + 1 &&
                    !strncmp(heads[h], ptx_ops[i].section, strlen(ptx_ops[i].section));
        }
        ck_assert_msg(found || ptx_ops[i].kind == PTX_K_SYNTAX, "row %s: no heading §%s %s",
                      ptx_ops[i].mnemonic, ptx_ops[i].section, ptx_ops[i].title);
    }
}
END_TEST

START_TEST(lookup_longest)
{
    size_t bl;
    ck_assert_int_eq(ptx_op_lookup("cp.async.bulk.commit_group", 26, &bl),
                     PTX_I_CP_ASYNC_BULK_COMMIT_GROUP);
    ck_assert_int_eq(ptx_op_lookup("cp.async.bulk.shared::cluster", 29, &bl), PTX_I_CP_ASYNC_BULK);
    ck_assert_int_eq(bl, 13);
    ck_assert_int_eq(ptx_op_lookup("cp.async.ca.shared.global", 25, &bl), PTX_I_CP_ASYNC);
    ck_assert_int_eq(ptx_op_lookup("shfl.up.b32", 11, &bl), PTX_I_SHFL);
    ck_assert_int_eq(ptx_op_lookup("shfl.sync.up.b32", 16, &bl), PTX_I_SHFL_SYNC);
    ck_assert_int_eq(ptx_op_lookup("addc.u32", 8, &bl), PTX_I_ADDC);
    ck_assert_int_eq(ptx_op_lookup("add.cc.u32", 10, &bl), PTX_I_ADD_CC);
    ck_assert_int_eq(ptx_op_lookup("add.f32", 7, &bl), PTX_I_ADD);   /* first row of "add" */
    ck_assert_int_eq(ptx_op_lookup("adds", 4, &bl), PTX_I_NONE);
    ck_assert_int_eq(ptx_op_lookup("bar.warp.sync", 13, &bl), PTX_I_BAR_WARP_SYNC);
    ck_assert_int_eq(ptx_op_lookup("bar.sync", 8, &bl), PTX_I_BAR);
    ck_assert_int_eq(ptx_op_lookup("{}", 2, &bl), PTX_I_NONE);       /* syntax rows */
}
END_TEST

/* ---------------------------------------------------------------- the tokenizer */
START_TEST(tokenize_memory)
{
    tok("ld.global.relaxed.gpu.v2.u32");
    ck_assert_int_eq(M.op, PTX_I_LD);
    ck_assert_int_eq(M.kind, PTX_K_LD);
    ck_assert_int_eq(M.space, PTX_SS_GLOBAL);
    ck_assert_int_eq(M.sem, PTX_SEM_RELAXED);
    ck_assert_int_eq(M.scope, PTX_SCOPE_GPU);
    ck_assert_int_eq(M.vec, 2);
    ck_assert_int_eq(M.ntypes, 1);
    ck_assert_int_eq(M.type[0], ISA_T_U32);
    ck_assert_int_eq(M.nq, 5);
    ck_assert(qis(0, "global") && qis(4, "u32"));
    ck_assert_int_eq(M.q[1].off, 10);   /* "relaxed" */
    ck_assert(ptx_mn_given(&M, PTX_QC_SEM) && !ptx_mn_given(&M, PTX_QC_PROXY));

    tok("atom.acq_rel.gpu.global.cas.b32");
    ck_assert_int_eq(M.op, PTX_I_ATOM);
    ck_assert_int_eq(M.aop, ISA_ATOM_CAS);
    ck_assert_int_eq(M.sem, PTX_SEM_ACQ_REL);
    ck_assert_int_eq(ptx_mn_type(&M), ISA_T_B32);

    tok("ld.global.mmio.relaxed.sys.u32");
    ck_assert(ptx_mn_given(&M, PTX_QC_MMIO));
    ck_assert_int_eq(M.sem, PTX_SEM_RELAXED);
    ck_assert_int_eq(M.scope, PTX_SCOPE_SYS);

    tok("ld.global.nc.L1::evict_last.L2::cache_hint.L2::128B.v4.f32");
    ck_assert_int_eq(M.op, PTX_I_LD_NC);
    ck_assert_int_eq(M.evict, PTX_Q_L1_evict_last);
    ck_assert_int_eq(M.prefetch, PTX_Q_L2_128B);
    ck_assert(ptx_mn_given(&M, PTX_QC_CACHEHINT));
    ck_assert_int_eq(M.vec, 4);
    tok("ld.global.cg.nc.f32");   /* §9.7.8.9: ld.global{.cop}.nc */
    ck_assert_int_eq(M.op, PTX_I_LD_NC);
    ck_assert_int_eq(M.cop, PTX_COP_CG);

    tok("ld.volatile.shared::cta.u8");
    ck_assert_int_eq(M.sem, PTX_SEM_VOLATILE);
    ck_assert_int_eq(M.space, PTX_SS_SHARED_CTA);
    tok("ld.param::entry.b64");
    ck_assert_int_eq(M.space, PTX_SS_PARAM_ENTRY);

    tok("st.async.shared::cluster.mbarrier::complete_tx::bytes.v2.s32");
    ck_assert_int_eq(M.op, PTX_I_ST_ASYNC);
    ck_assert_int_eq(M.completion, PTX_CM_MBARRIER);
    tok("red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.min.u32");
    ck_assert_int_eq(M.op, PTX_I_RED_ASYNC);
    ck_assert_int_eq(M.aop, ISA_ATOM_MIN);
    tok("multimem.ld_reduce.acquire.gpu.global.add.u32");
    ck_assert_int_eq(M.op, PTX_I_MULTIMEM_LD_REDUCE);
    ck_assert_int_eq(M.aop, ISA_ATOM_ADD);
    tok("red.global.add.noftz.f16x2");
    ck_assert_int_eq(M.aop, ISA_ATOM_ADD);
}
END_TEST

START_TEST(tokenize_async_and_sync)
{
    tok("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes");
    ck_assert_int_eq(M.op, PTX_I_CP_ASYNC_BULK);
    ck_assert_int_eq(M.base_len, 13);
    ck_assert_int_eq(M.space, PTX_SS_SHARED_CLUSTER);   /* .dst */
    ck_assert_int_eq(M.space2, PTX_SS_GLOBAL);          /* .src */
    ck_assert_int_eq(M.completion, PTX_CM_MBARRIER);
    tok("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster"
        ".L2::cache_hint");
    ck_assert(ptx_mn_given(&M, PTX_QC_MULTICAST) && ptx_mn_given(&M, PTX_QC_CACHEHINT));
    tok("cp.async.bulk.global.shared::cta.bulk_group");
    ck_assert_int_eq(M.completion, PTX_CM_BULK_GROUP);
    tok("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32");
    ck_assert_int_eq(M.aop, ISA_ATOM_ADD);
    tok("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes");
    ck_assert_int_eq(M.op, PTX_I_CP_ASYNC_BULK_TENSOR);

    tok("mbarrier.try_wait.parity.acquire.cta.shared::cta.b64");
    ck_assert_int_eq(M.op, PTX_I_MBARRIER_TRY_WAIT);
    ck_assert(ptx_mn_has(&M, PTX_Q_parity));
    ck_assert_int_eq(M.sem, PTX_SEM_ACQUIRE);
    ck_assert_int_eq(M.scope, PTX_SCOPE_CTA);
    tok("mbarrier.arrive.expect_tx.release.cluster.shared::cluster.b64");
    ck_assert_int_eq(M.op, PTX_I_MBARRIER_ARRIVE);
    ck_assert(ptx_mn_has(&M, PTX_Q_expect_tx));
    tok("cp.async.mbarrier.arrive.noinc.shared.b64");
    ck_assert_int_eq(M.op, PTX_I_CP_ASYNC_MBARRIER_ARRIVE);

    tok("fence.proxy.tensormap::generic.release.gpu");
    ck_assert_int_eq(M.op, PTX_I_FENCE);
    ck_assert_int_eq(M.proxy, PTX_PROXY_TENSORMAP_GENERIC);
    ck_assert_int_eq(M.sem, PTX_SEM_RELEASE);
    tok("fence.proxy.async.shared::cta");
    ck_assert_int_eq(M.proxy, PTX_PROXY_ASYNC);
    ck_assert_int_eq(M.space, PTX_SS_SHARED_CTA);
    tok("fence.mbarrier_init.release.cluster");
    ck_assert_int_eq(M.restrict_, PTX_RS_MBARRIER_INIT);
    tok("fence.acquire.sync_restrict::shared::cluster.cluster");
    ck_assert_int_eq(M.restrict_, PTX_RS_SHARED_CLUSTER);
    tok("membar.gl");
    ck_assert_int_eq(M.scope, PTX_SCOPE_GPU);

    tok("barrier.cluster.arrive.release.aligned");
    ck_assert_int_eq(M.op, PTX_I_BARRIER_CLUSTER);
    ck_assert(ptx_mn_has(&M, PTX_Q_arrive) && ptx_mn_given(&M, PTX_QC_ALIGNED));
    tok("bar.red.and.pred");   /* .and is not an atomic operation on a barrier */
    ck_assert_int_eq(M.aop, ISA_ATOM_NONE);
    ck_assert(ptx_mn_has(&M, PTX_Q_and));
    tok("setp.lt.and.s32");
    ck_assert_int_eq(M.aop, ISA_ATOM_NONE);
    tok("redux.sync.min.u32");
    ck_assert_int_eq(M.aop, ISA_ATOM_MIN);
    tok("wmma.load.a.sync.aligned.row.m16n16k16.f16");
    ck_assert_int_eq(M.op, PTX_I_WMMA_LOAD);
    ck_assert(ptx_mn_has(&M, PTX_Q_SHAPE));
    tok("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16");
    tok("cvt.rn.satfinite.relu.f16x2.f32");
    ck_assert_int_eq(M.ntypes, 2);
    tok("dp4a.u32.s32");
    tok("vadd4.s32.s32.u32.sat");
    ck_assert_int_eq(M.ntypes, 3);
    tok("wmma.mma.sync.aligned.m8n8k32.row.col.s32.s4.s4.s32");   /* d, a, b, c types */
    ck_assert_int_eq(M.ntypes, 2);
    ck_assert_int_eq(M.op, PTX_I_WMMA_MMA);
    tok("wmma.mma.sync.aligned.col.col.m16n16k16.f32.f32");   /* .alayout.blayout, §9.7.13.3.5 */
    ck_assert(ptx_mn_has(&M, PTX_Q_col));
    tok("match.any.sync.b32");   /* §9.7.12.10 is titled match.sync */
    ck_assert_int_eq(M.op, PTX_I_MATCH_SYNC);
    tok("add");
    ck_assert_int_eq(M.nq, 0);
}
END_TEST

START_TEST(tokenize_refusals)
{
    refused("frobnicate.u32", "unknown mnemonic 'frobnicate'", 0);
    refused("ld.global.frob.u32", "unknown qualifier '.frob'", 10);
    refused("ld..u32", "an empty qualifier", 2);
    refused("ld.global.", "an empty qualifier", 9);
    refused("ld.relaxed.acquire.gpu.u32",
            "a second semantics qualifier '.acquire' (after '.relaxed')", 11);
    refused("ld.relaxed.gpu.sys.u32", "a second scope '.sys'", 15);
    refused("ld.global.global.u32", "'.global' given twice", 10);
    refused("ld.v2.v4.u32", "a second vector width", 6);
    refused("mma.sync.aligned.m16n8k16.row.row.f32.f16.f16.f32", "'.row' given twice", 30);
    refused("atom.add.cas.u32", "a second operation '.cas'", 9);
    refused("cp.async.bulk.global.shared::cta.local", "a third state space '.local'", 33);
    refused("mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32.f32", "a fifth type", 48);
    refused("ld.global;u32", "the character ';'", 9);
    refused("", "an empty mnemonic", 0);
    refused("ld.m16n8x.u32", "unknown qualifier '.m16n8x'", 3);
}
END_TEST

static void add_tests(TCase *tc)
{
    tcase_add_test(tc, table_rows);
    tcase_add_test(tc, table_covers_spec);
    tcase_add_test(tc, lookup_longest);
    tcase_add_test(tc, tokenize_memory);
    tcase_add_test(tc, tokenize_async_and_sync);
    tcase_add_test(tc, tokenize_refusals);
}

#include "check_main.h"
