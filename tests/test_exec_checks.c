/* tests/test_exec_checks.c — the executor's checks through the C API (issue #14):
 * ptxeCtxSetChecks, findings and their fields, memcheck on freed memory, initcheck of partly
 * written buffers, findings cleared per launch, the printf limit, the wall-clock limit, and the
 * warp-synchronous kernels of tests/kernels/warpsync.ptx with every check and no finding. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <check.h>
#include "include/ptxexec.h"

static ptxeCtx *C;
static ptxeModule *M;
static ptxeFunction *F;

#define HDR ".version 8.4\n.target sm_80\n.address_size 64\n"

static void load(const char *text, unsigned checks)
{
    if (C) ptxeCtxDestroy(C);
    ck_assert_int_eq(ptxeCtxCreate(&C), PTXE_SUCCESS);
    ck_assert_int_eq(ptxeCtxSetChecks(C, checks), PTXE_SUCCESS);
    ck_assert_msg(ptxeModuleLoadData(C, &M, text, strlen(text), "t.ptx") == PTXE_SUCCESS, "%s",
                  ptxeGetErrorMessage(C));
    ck_assert_int_eq(ptxeModuleGetFunction(&F, M, NULL), PTXE_SUCCESS);
}
static void done(void) { ptxeModuleUnload(M); ptxeCtxDestroy(C); C = NULL; M = NULL; }

static ptxeResult launch(unsigned grid, unsigned block, void **args, double timeout)
{
    ptxeLaunchConfig cfg = { { grid, 1, 1 }, { block, 1, 1 },       { 0, 0, 0 }, 0, 0,
                             timeout,        PTXE_SCHEDULE_DEFAULT, 0,           0 };
    if (timeout > 0) cfg.max_steps = 1ull << 40;
    return ptxeLaunchKernel(F, &cfg, args);
}

/* out[tid] = in[tid] (u32) */
static const char *copy_ptx =
    HDR ".visible .entry copy(.param .u64 in, .param .u64 out)\n{\n"
        "  .reg .b32 %r<3>; .reg .b64 %rd<6>;\n"
        "  ld.param.u64 %rd1, [in]; ld.param.u64 %rd2, [out];\n"
        "  mov.u32 %r1, %tid.x; mul.wide.u32 %rd3, %r1, 4;\n"
        "  add.s64 %rd4, %rd1, %rd3; add.s64 %rd5, %rd2, %rd3;\n"
        "  ld.global.u32 %r2, [%rd4];\n"
        "  st.global.u32 [%rd5], %r2;\n"
        "  ret;\n}\n";

START_TEST(checks_api)
{
    ck_assert_int_eq(ptxeCtxCreate(&C), PTXE_SUCCESS);
    ck_assert_int_eq(ptxeCtxSetChecks(C, 16), PTXE_ERROR_INVALID_VALUE);
    ck_assert_int_eq(ptxeCtxSetChecks(NULL, 1), PTXE_ERROR_INVALID_VALUE);
    ck_assert_int_eq(ptxeCtxSetChecks(C, PTXE_CHECK_ALL), PTXE_SUCCESS);
    ck_assert_uint_eq(ptxeCtxGetChecks(C), PTXE_CHECK_ALL);
    ck_assert_int_eq(ptxeMemSetName(C, 0x1234, "x"), PTXE_ERROR_INVALID_VALUE);
    ck_assert_int_eq(ptxeGetFindingCount(C), 0);
    ck_assert_ptr_null(ptxeGetFinding(C, 0));
    ptxeCtxDestroy(C); C = NULL;
}
END_TEST

START_TEST(initcheck_partial)
{
    load(copy_ptx, PTXE_CHECK_INITCHECK);
    unsigned h[64];
    for (int i = 0; i < 64; i++) h[i] = (unsigned)i;
    ptxeDevptr in, out;
    ck_assert_int_eq(ptxeMemAlloc(C, &in, sizeof h), PTXE_SUCCESS);
    ck_assert_int_eq(ptxeMemAlloc(C, &out, sizeof h), PTXE_SUCCESS);
    ck_assert_int_eq(ptxeMemSetName(C, in, "in"), PTXE_SUCCESS);
    ck_assert_int_eq(ptxeMemcpyHtoD(C, in, h, 40 * 4), PTXE_SUCCESS);   /* 40 of 64 written */
    void *a[] = { &in, &out };
    ck_assert_int_eq(launch(1, 64, a, 0), PTXE_SUCCESS);
    ck_assert_int_eq(ptxeGetFindingCount(C), 1);
    const ptxeFinding *f = ptxeGetFinding(C, 0);
    ck_assert_uint_eq(f->check, PTXE_CHECK_INITCHECK);
    ck_assert_str_eq(f->kind, "uninitialized-read");
    ck_assert_str_eq(f->buffer, "in");
    ck_assert_int_eq(f->offset, 160);          /* thread 40 reads the first unwritten word */
    ck_assert_uint_eq(f->count, 24);
    ck_assert_uint_eq(f->at.thread[0], 40);
    ck_assert_int_eq(f->at.line, 10);
    ck_assert_str_eq(f->space, "global");
    ck_assert_msg(
        strstr(f->report, "========= Uninitialized __global__ memory read of size 4 bytes\n"), "%s",
        f->report);
    /* the kernel wrote out; the host writes the rest of in: the next launch has no finding */
    ck_assert_int_eq(ptxeMemsetD8(C, in + 160, 0, 24 * 4), PTXE_SUCCESS);
    ck_assert_int_eq(launch(1, 64, a, 0), PTXE_SUCCESS);
    ck_assert_int_eq(ptxeGetFindingCount(C), 0);
    done();
}
END_TEST

START_TEST(memcheck_freed)
{
    load(copy_ptx, PTXE_CHECK_MEMCHECK);
    ptxeDevptr in, out;
    ck_assert_int_eq(ptxeMemAlloc(C, &in, 256), PTXE_SUCCESS);
    ck_assert_int_eq(ptxeMemAlloc(C, &out, 256), PTXE_SUCCESS);
    ck_assert_int_eq(ptxeMemSetName(C, in, "input"), PTXE_SUCCESS);
    ck_assert_int_eq(ptxeMemFree(C, in), PTXE_SUCCESS);
    void *a[] = { &in, &out };
    ck_assert_int_eq(launch(1, 32, a, 0), PTXE_ERROR_LAUNCH_FAILED);
    const char *m = ptxeGetErrorMessage(C);
    ck_assert_msg(strstr(m, "and is 0 bytes inside the freed allocation 'input'"), "%s", m);
    ck_assert_int_eq(ptxeGetFindingCount(C), 1);
    const ptxeFinding *f = ptxeGetFinding(C, 0);
    ck_assert_str_eq(f->kind, "invalid-address");
    ck_assert_msg(strstr(f->report, "========= Invalid __global__ read of size 4 bytes\n") &&
                      strstr(f->report, "is in freed memory"),
                  "%s", f->report);
    done();
}
END_TEST

/* a load through a generic pointer and a global one: *(int *)p, p from the parameter */
static const char *wild_ptx =
    HDR ".visible .entry wild(.param .u64 p, .param .u32 generic)\n{\n"
        "  .reg .pred %p; .reg .b32 %r<3>; .reg .b64 %rd<2>;\n"
        "  ld.param.u64 %rd1, [p]; ld.param.u32 %r2, [generic];\n"
        "  setp.ne.u32 %p, %r2, 0;\n"
        "  @%p ld.u32 %r1, [%rd1];\n"
        "  @!%p ld.global.u32 %r1, [%rd1];\n"
        "  ret;\n}\n";

START_TEST(memcheck_wild)
{
    load(wild_ptx, PTXE_CHECK_MEMCHECK);
    ptxeDevptr buf;
    ck_assert_int_eq(ptxeMemAlloc(C, &buf, 64), PTXE_SUCCESS);
    uint64_t p = 0x1234;
    unsigned generic = 1;
    void *a[] = { &p, &generic };
    ck_assert_int_eq(launch(1, 1, a, 0), PTXE_ERROR_LAUNCH_FAILED);
    ck_assert_int_eq(ptxeGetFindingCount(C), 1);
    const ptxeFinding *f = ptxeGetFinding(C, 0);
    ck_assert_msg(strstr(f->report, "========= Invalid __generic__ read of size 4 bytes\n") &&
                      strstr(f->report, "Address 0x1234 is in no state space"),
                  "%s", f->report);
    generic = 0;   /* a global load of a wild address: near no allocation, none named */
    ck_assert_int_eq(launch(1, 1, a, 0), PTXE_ERROR_LAUNCH_FAILED);
    f = ptxeGetFinding(C, 0);
    ck_assert_msg(strstr(f->report, "Invalid __global__ read of size 4 bytes") &&
                      strstr(f->report, "Address 0x1234 is out of bounds\n") &&
                      !strstr(f->report, "allocation"),
                  "%s", f->report);
    p = buf + 64;   /* just past the end of an unnamed allocation */
    ck_assert_int_eq(launch(1, 1, a, 0), PTXE_ERROR_LAUNCH_FAILED);
    f = ptxeGetFinding(C, 0);
    ck_assert_msg(strstr(f->report, "and is 0 bytes after the nearest allocation at"), "%s",
                  f->report);
    ck_assert_str_eq(f->buffer, "");
    done();
}
END_TEST

/* unbounded recursion with a 4 KiB local array per call: the thread's stack overflows */
static const char *deep_ptx =
    HDR ".func (.param .b32 r) f(.param .b32 n)\n{\n"
        "  .local .align 4 .b8 buf[4096]; .reg .b32 %r<4>; .reg .b64 %rd1;\n"
        "  ld.param.b32 %r1, [n]; mov.u64 %rd1, buf; st.local.u32 [%rd1], %r1;\n"
        "  add.s32 %r2, %r1, 1;\n"
        "  { .param .b32 a; st.param.b32 [a], %r2; .param .b32 b;\n"
        "    call.uni (b), f, (a); ld.param.b32 %r3, [b]; }\n"
        "  st.param.b32 [r], %r3; ret;\n}\n"
        ".visible .entry deep()\n{\n"
        "  .reg .b32 %r1;\n"
        "  { .param .b32 a; st.param.b32 [a], 0; .param .b32 b;\n"
        "    call.uni (b), f, (a); ld.param.b32 %r1, [b]; }\n"
        "  ret;\n}\n";

START_TEST(memcheck_stack_overflow)
{
    load(deep_ptx, PTXE_CHECK_MEMCHECK);
    ck_assert_int_eq(launch(1, 1, NULL, 0), PTXE_ERROR_LAUNCH_FAILED);
    ck_assert_int_eq(ptxeGetFindingCount(C), 1);
    const ptxeFinding *f = ptxeGetFinding(C, 0);
    ck_assert_str_eq(f->kind, "stack-overflow");
    ck_assert_uint_eq(f->check, PTXE_CHECK_MEMCHECK);
    ck_assert_msg(!strncmp(f->report, "========= Stack overflow: ", 26), "%s", f->report);
    done();
}
END_TEST

/* every thread adds 1 to one word: atomics never race; a plain add does */
static const char *count_ptx =
    HDR ".visible .entry count(.param .u64 p, .param .u32 plain)\n{\n"
        "  .reg .pred %p; .reg .b32 %r<4>; .reg .b64 %rd<2>;\n"
        "  ld.param.u64 %rd1, [p]; ld.param.u32 %r3, [plain];\n"
        "  setp.ne.u32 %p, %r3, 0;\n"
        "  @%p bra PLAIN;\n"
        "  atom.global.add.u32 %r1, [%rd1], 1;\n"
        "  ret;\n"
        "PLAIN:\n"
        "  ld.global.u32 %r1, [%rd1];\n"
        "  add.u32 %r2, %r1, 1;\n"
        "  st.global.u32 [%rd1], %r2;\n"
        "  ret;\n}\n";

START_TEST(racecheck_atomics)
{
    load(count_ptx, PTXE_CHECK_RACECHECK);
    ptxeDevptr p;
    ck_assert_int_eq(ptxeMemAlloc(C, &p, 4), PTXE_SUCCESS);
    unsigned plain = 0;
    void *a[] = { &p, &plain };
    ck_assert_int_eq(launch(4, 64, a, 0), PTXE_SUCCESS);
    ck_assert_int_eq(ptxeGetFindingCount(C), 0);
    plain = 1;
    ck_assert_int_eq(launch(2, 64, a, 0), PTXE_SUCCESS);
    ck_assert_int_ge(ptxeGetFindingCount(C), 1);
    const ptxeFinding *f = ptxeGetFinding(C, 0);
    ck_assert_str_eq(f->kind, "race");
    ck_assert_uint_eq(f->check, PTXE_CHECK_RACECHECK);
    ck_assert_int_ne(f->other.line, 0);
    ck_assert_msg(f->at.access == 'R' || f->at.access == 'W', "%c", f->at.access);
    done();
}
END_TEST

/* one printf per thread of a constant string: "hi\n" */
static const char *printf_ptx =
    HDR ".extern .func (.param .b32 r) vprintf(.param .b64 f, .param .b64 a);\n"
        ".global .align 1 .b8 fmt[4] = {104, 105, 10, 0};\n"
        ".visible .entry pr()\n{\n"
        "  .reg .b64 %rd<3>; .reg .b32 %r1;\n"
        "  mov.u64 %rd1, fmt; cvta.global.u64 %rd2, %rd1;\n"
        "  {\n  .param .b64 p0; st.param.b64 [p0], %rd2;\n"
        "  .param .b64 p1; st.param.b64 [p1], 0;\n"
        "  .param .b32 r0;\n"
        "  call.uni (r0), vprintf, (p0, p1);\n"
        "  }\n  ret;\n}\n";

START_TEST(printf_limit)
{
    load(printf_ptx, 0);
    ck_assert_int_eq(launch(1, 8, NULL, 0), PTXE_SUCCESS);
    size_t n;
    uint64_t dropped;
    const char *s = ptxeGetPrintfOutput(C, &n, &dropped);
    ck_assert_uint_eq(n, 24);
    ck_assert_uint_eq(dropped, 0);
    ck_assert_int_eq(memcmp(s, "hi\nhi\nhi\nhi\nhi\nhi\nhi\nhi\n", 24), 0);
    ck_assert_int_eq(ptxeCtxSetPrintfLimit(C, 10), PTXE_SUCCESS);
    ck_assert_int_eq(launch(1, 8, NULL, 0), PTXE_SUCCESS);
    s = ptxeGetPrintfOutput(C, &n, &dropped);
    ck_assert_uint_eq(n, 9);
    ck_assert_uint_eq(dropped, 15);
    done();
}
END_TEST

static const char *spin_ptx = HDR ".visible .entry spin()\n{\nL:\n  bra L;\n}\n";

START_TEST(wall_clock_limit)
{
    load(spin_ptx, 0);
    ck_assert_int_eq(launch(1, 64, NULL, 0.05), PTXE_ERROR_LAUNCH_TIMEOUT);
    const char *m = ptxeGetErrorMessage(C);
    ck_assert_msg(strstr(m, "fault: wall-clock limit of 0.05 s reached") &&
                      strstr(m, "CTA (0,0,0) warp 1 lanes 0xffffffff: t.ptx:7: bra L"),
                  "%s", m);
    ck_assert_int_eq(launch(1, 64, NULL, -1), PTXE_ERROR_INVALID_VALUE);
    ptxeLaunchConfig cfg = { { 1, 1, 1 }, { 32, 1, 1 },          { 0, 0, 0 }, 0, 0,
                             0,           PTXE_SCHEDULE_DEFAULT, 0,           0 };
    ck_assert_int_eq(ptxeLaunchKernel(F, &cfg, NULL), PTXE_ERROR_LAUNCH_TIMEOUT);
    m = ptxeGetErrorMessage(C);
    ck_assert_msg(strstr(m, "step limit of 30000000 warp-instructions reached"), "%s", m);
    done();
}
END_TEST

START_TEST(warpsync_kernels_no_findings)
{
    FILE *fp = fopen("tests/kernels/warpsync.ptx", "rb");
    ck_assert_msg(fp != NULL, "cannot open tests/kernels/warpsync.ptx");
    static char buf[1 << 16];
    size_t len = fread(buf, 1, sizeof buf - 1, fp);
    fclose(fp);
    buf[len] = 0;
    static const char *const k[] = { "shfl_diverge", "vote_diverge" };
    for (int i = 0; i < 2; i++) {
        ck_assert_int_eq(ptxeCtxCreate(&C), PTXE_SUCCESS);
        ptxeCtxSetChecks(C, PTXE_CHECK_ALL);
        ck_assert_int_eq(ptxeModuleLoadData(C, &M, buf, len, "warpsync.ptx"), PTXE_SUCCESS);
        ck_assert_int_eq(ptxeModuleGetFunction(&F, M, k[i]), PTXE_SUCCESS);
        ptxeDevptr d;
        ptxeMemAlloc(C, &d, 64 * 4);
        ptxeMemsetD8(C, d, 0, 64 * 4);
        unsigned kk = i ? 5 : 3;
        void *a[] = { &d, &kk };
        ck_assert_int_eq(launch(1, 32, a, 0), PTXE_SUCCESS);
        ck_assert_msg(ptxeGetFindingCount(C) == 0, "%s: %s", k[i],
                      ptxeGetFindingCount(C) ? ptxeGetFinding(C, 0)->report : "");
        done();
    }
    /* the same module for sm_60: the two sides of the if meet at two shfl.sync instructions,
     * which sm_6x does not allow (§9.7.12.7) */
    char *t = strstr(buf, ".target sm_80");
    ck_assert_ptr_nonnull(t);
    memcpy(t, ".target sm_60", 13);
    ck_assert_int_eq(ptxeCtxCreate(&C), PTXE_SUCCESS);
    ptxeCtxSetChecks(C, PTXE_CHECK_SYNCCHECK);
    ck_assert_int_eq(ptxeModuleLoadData(C, &M, buf, len, "warpsync60.ptx"), PTXE_SUCCESS);
    ck_assert_int_eq(ptxeModuleGetFunction(&F, M, "shfl_diverge"), PTXE_SUCCESS);
    ptxeDevptr d;
    ptxeMemAlloc(C, &d, 64 * 4);
    unsigned kk = 3;
    void *a[] = { &d, &kk };
    ck_assert_int_eq(launch(1, 32, a, 0), PTXE_SUCCESS);
    ck_assert_int_eq(ptxeGetFindingCount(C), 1);
    const ptxeFinding *f = ptxeGetFinding(C, 0);
    ck_assert_str_eq(f->kind, "divergent-warp-sync");
    ck_assert_int_ne(f->at.line, f->other.line);
    ck_assert_msg(strstr(f->report, "(.target sm_60: all threads of the membermask must execute "
                                    "the same instruction in convergence)"),
                  "%s", f->report);
    done();
}
END_TEST

static void add_tests(TCase *tc)
{
    tcase_add_test(tc, checks_api);
    tcase_add_test(tc, initcheck_partial);
    tcase_add_test(tc, memcheck_freed);
    tcase_add_test(tc, memcheck_wild);
    tcase_add_test(tc, memcheck_stack_overflow);
    tcase_add_test(tc, racecheck_atomics);
    tcase_add_test(tc, printf_limit);
    tcase_add_test(tc, wall_clock_limit);
    tcase_add_test(tc, warpsync_kernels_no_findings);
}

#include "check_main.h"
