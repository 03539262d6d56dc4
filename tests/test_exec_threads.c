/* tests/test_exec_threads.c — thread safety of include/ptxexec.h (docs/executor.md): two host
 * threads, each with its own context, parse, load and run the same module at the same time,
 * many times; every result equals the single-threaded one.  The kernel uses the rounding
 * modifiers that switch the host rounding mode (.rz/.rm/.rp arithmetic and conversions), the
 * tokenizer and loader (many qualifiers), shared-memory atomics, barriers and shfl.sync.  One
 * thread runs with the host rounding mode set to upward: the results must not change, and the
 * thread's mode must be the same after each launch. */
#include <check.h>
#include <fenv.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "include/ptxexec.h"

#define N 256
#define ROUNDS 200

static const char *const ptx =
    ".version 8.4\n.target sm_90\n.address_size 64\n"
    ".visible .entry k(.param .u64 out)\n{\n"
    "  .shared .align 4 .u32 sum;\n"
    "  .reg .pred %p<2>;\n  .reg .b32 %r<20>;\n  .reg .f32 %f<12>;\n  .reg .b64 %rd<6>;\n"
    "  ld.param.u64 %rd1, [out];\n  cvta.to.global.u64 %rd1, %rd1;\n"
    "  mov.u32 %r1, %tid.x;\n  mul.wide.u32 %rd2, %r1, 32;\n  add.s64 %rd3, %rd1, %rd2;\n"
    "  setp.ne.u32 %p1, %r1, 0;\n  @%p1 bra.uni SKIP;\n  st.shared.u32 [sum], 0;\nSKIP:\n"
    "  bar.sync 0;\n"
    "  cvt.rn.f32.u32 %f1, %r1;\n  add.f32 %f1, %f1, 0f3DCCCCCD;\n" /* t + 0.1 */
    "  div.rz.f32 %f2, %f1, 0f40400000;\n"                          /* (t + 0.1) / 3, toward 0 */
    "  mul.rm.f32 %f3, %f1, 0f3EAAAAAB;\n"                          /* * 1/3, down */
    "  add.rp.f32 %f4, %f2, %f3;\n"                                 /* up */
    "  fma.rz.f32 %f5, %f4, %f4, 0fBF800000;\n"
    "  sqrt.rp.f32 %f6, %f1;\n"
    "  cvt.rm.f32.s32 %f7, %r1;\n  cvt.rzi.s32.f32 %r2, %f4;\n"
    "  add.f32 %f8, %f2, %f3;\n" /* default rounding */
    "  atom.shared.add.u32 %r3, [sum], %r1;\n"
    "  shfl.sync.bfly.b32 %r4, %r1, 1, 0x1f, -1;\n"
    "  bar.sync 0;\n  ld.volatile.shared.u32 %r5, [sum];\n"
    "  mov.b32 %r6, %f4;\n  mov.b32 %r7, %f5;\n  mov.b32 %r8, %f6;\n  mov.b32 %r9, %f8;\n"
    "  st.global.v4.u32 [%rd3], {%r6, %r7, %r8, %r9};\n"
    "  mov.b32 %r10, %f7;\n"
    "  st.global.v4.u32 [%rd3+16], {%r10, %r2, %r4, %r5};\n"
    "  ret;\n}\n";

static uint32_t reference[N * 8];

/* Loads and runs the module in a fresh context; 0 on success with the output in out. */
static int run_once(uint32_t *out, char *err, size_t errlen)
{
    ptxeCtx *ctx;
    ptxeModule *m = NULL;
    ptxeFunction *f;
    ptxeDevptr d;
    int rc = -1;
    if (ptxeCtxCreate(&ctx)) return -1;
    if (!ptxeModuleLoadData(ctx, &m, ptx, strlen(ptx), "threads.ptx") &&
        !ptxeModuleGetFunction(&f, m, "k") && !ptxeMemAlloc(ctx, &d, N * 32)) {
        void *args[] = { &d };
        ptxeLaunchConfig cfg = { .grid = { 1, 1, 1 }, .block = { N, 1, 1 } };
        if (!ptxeLaunchKernel(f, &cfg, args) && !ptxeMemcpyDtoH(ctx, out, d, N * 32)) rc = 0;
    }
    if (rc) snprintf(err, errlen, "%s", ptxeGetErrorMessage(ctx));
    if (m) ptxeModuleUnload(m);
    ptxeCtxDestroy(ctx);
    return rc;
}

typedef struct { int upward; int failures; int mode_changed; char err[256]; } job;

static void *worker(void *arg)
{
    job *j = arg;
    static _Thread_local uint32_t out[N * 8];
    if (j->upward) fesetround(FE_UPWARD);
    int mode = fegetround();
    for (int r = 0; r < ROUNDS; r++) {
        memset(out, 0xee, sizeof out);
        if (run_once(out, j->err, sizeof j->err) || memcmp(out, reference, sizeof out))
            j->failures++;
        if (fegetround() != mode) j->mode_changed++;
    }
    return NULL;
}

START_TEST(two_threads_same_results)
{
    char err[256] = "";
    ck_assert_msg(run_once(reference, err, sizeof err) == 0, "%s", err);
    ck_assert_uint_eq(reference[0 * 8 + 7], N * (N - 1) / 2); /* the shared sum, seen by thread 0 */
    ck_assert_uint_eq(reference[5 * 8 + 6], 4);               /* shfl.bfly 1: lane 5 reads lane 4 */
    job a = { 0, 0, 0, "" }, b = { 1, 0, 0, "" };
    pthread_t ta, tb;
    ck_assert_int_eq(pthread_create(&ta, NULL, worker, &a), 0);
    ck_assert_int_eq(pthread_create(&tb, NULL, worker, &b), 0);
    pthread_join(ta, NULL);
    pthread_join(tb, NULL);
    ck_assert_msg(a.failures == 0, "thread A: %d of %d runs differ (%s)", a.failures, ROUNDS,
                  a.err);
    ck_assert_msg(b.failures == 0, "thread B (rounding upward): %d of %d runs differ (%s)",
                  b.failures, ROUNDS, b.err);
    ck_assert_int_eq(a.mode_changed, 0);
    ck_assert_int_eq(b.mode_changed, 0);
    ck_assert_int_eq(fegetround(), FE_TONEAREST);
}
END_TEST

static void add_tests(TCase *tc) { tcase_add_test(tc, two_threads_same_results); }

#include "check_main.h"
