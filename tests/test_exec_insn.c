/* tests/test_exec_insn.c — instruction-level and fault tests of the executor on hand-written PTX:
 * edge cases the ISA spells out (shfl.sync clamp/segment rules, vote/bar.red, extended-precision
 * carry chains, ld sign extension, cvta/isspacep, named barriers with counts), load-time
 * rejection with file:line:col, and kernel faults with their reports. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <check.h>
#include "include/ptxexec.h"

static ptxeCtx *C;
static ptxeModule *M;
static ptxeFunction *F;

#define HDR ".version 8.4\n.target sm_90\n.address_size 64\n"

static ptxeResult try_load(const char *body)
{
    if (C) ptxeCtxDestroy(C);
    ptxeCtxCreate(&C);
    M = NULL;
    ptxeResult r = ptxeModuleLoadData(C, &M, body, strlen(body), "t.ptx");
    if (r == PTXE_SUCCESS) ck_assert_int_eq(ptxeModuleGetFunction(&F, M, NULL), PTXE_SUCCESS);
    return r;
}
static void load(const char *body) { ptxeResult r = try_load(body); ck_assert_msg(r == PTXE_SUCCESS, "%s", ptxeGetErrorMessage(C)); }
static void done(void) { if (M) ptxeModuleUnload(M); M = NULL; ptxeCtxDestroy(C); C = NULL; }

static ptxeResult launch(unsigned grid, unsigned block, ptxeDevptr *buf, uint64_t max_steps)
{
    ptxeLaunchConfig cfg = { { grid, 1, 1 }, { block, 1, 1 }, { 0, 0, 0 }, 0, max_steps };
    void *args[] = { buf };
    return ptxeLaunchKernel(F, &cfg, args);
}

/* run kernel k(.param .u64 out) over one CTA and read n u32 back */
static void run_u32(const char *ptx, unsigned block, unsigned *out, int n)
{
    load(ptx);
    ptxeDevptr d;
    ptxeMemAlloc(C, &d, (size_t)n * 4);
    ptxeResult r = launch(1, block, &d, 0);
    ck_assert_msg(r == PTXE_SUCCESS, "%s", ptxeGetErrorMessage(C));
    ptxeMemcpyDtoH(C, out, d, (size_t)n * 4);
    done();
}

#define PRO(nr) ".visible .entry k(.param .u64 out)\n{\n.reg .pred %p<8>;\n.reg .b32 %r<" #nr ">;\n.reg .b64 %rd<8>;\n" \
    "ld.param.u64 %rd1, [out];\nmov.u32 %r1, %tid.x;\nmul.wide.u32 %rd2, %r1, 4;\nadd.s64 %rd3, %rd1, %rd2;\n"

/* §9.7.8.6 shfl.sync: up/down/bfly/idx with clamp and segment mask; p tells in-range */
START_TEST(shfl_modes)
{
    static const char *modes[] = { "up", "down", "bfly", "idx" };
    unsigned out[32];
    for (int m = 0; m < 4; m++)
        for (unsigned c = 0; c < 3; c++) {
            unsigned cval = c == 0 ? 0x1f : c == 1 ? 0x0 : 0x181f ^ 0x1f;   /* full, clamp 0, segments of 8 */
            if (m == 0 && c == 0) cval = 0;                                     /* up uses c = 0 */
            char ptx[2048];
            strcpy(ptx, HDR PRO(12));
            snprintf(ptx + strlen(ptx), sizeof ptx - strlen(ptx),
                     "mul.lo.u32 %%r2, %%r1, 10;\n"
                     "shfl.sync.%s.b32 %%r3|%%p1, %%r2, 3, %u, -1;\n"
                     "selp.u32 %%r4, 1000, 0, %%p1;\n"
                     "add.u32 %%r5, %%r3, %%r4;\n"
                     "st.global.u32 [%%rd3], %%r5;\nret;\n}\n", modes[m], cval);
            run_u32(ptx, 32, out, 32);
            for (int l = 0; l < 32; l++) {
                int b = 3, cv = (int)(cval & 31), seg = (int)((cval >> 8) & 31);
                int maxl = (l & seg) | (cv & ~seg), minl = l & seg, j, pv;
                if (m == 0) { j = l - b; pv = j >= maxl; }
                else if (m == 1) { j = l + b; pv = j <= maxl; }
                else if (m == 2) { j = l ^ b; pv = j <= maxl; }
                else { j = minl | (b & ~seg); pv = j <= maxl; }
                if (!pv) j = l;
                unsigned want = (unsigned)j * 10 + (pv ? 1000u : 0u);
                ck_assert_msg(out[l] == want, "shfl.%s c=0x%x lane %d: got %u want %u", modes[m], cval, l, out[l], want);
            }
        }
}
END_TEST

/* vote.sync.uni/any/all on a divergent value; bar.red.popc / bar.red.and across warps */
START_TEST(vote_bar_red)
{
    unsigned out[64];
    run_u32(HDR PRO(12)
            "and.b32 %r2, %r1, 1;\nsetp.eq.u32 %p1, %r2, 1;\n"
            "vote.sync.uni.pred %p2, %p1, -1;\nvote.sync.any.pred %p3, %p1, -1;\nvote.sync.all.pred %p4, !%p1, -1;\n"
            "selp.u32 %r3, 1, 0, %p2;\nselp.u32 %r4, 2, 0, %p3;\nselp.u32 %r5, 4, 0, %p4;\n"
            "setp.lt.u32 %p5, %r1, 40;\n"
            "bar.red.popc.u32 %r6, 1, %p5;\n"
            "bar.red.and.pred %p6, 2, %p5;\n"
            "selp.u32 %r7, 8, 0, %p6;\n"
            "shl.b32 %r8, %r6, 4;\n"
            "or.b32 %r9, %r3, %r4;\nor.b32 %r9, %r9, %r5;\nor.b32 %r9, %r9, %r7;\nor.b32 %r9, %r9, %r8;\n"
            "st.global.u32 [%rd3], %r9;\nret;\n}\n", 64, out, 64);
    for (int i = 0; i < 64; i++) ck_assert_uint_eq(out[i], 2u | (40u << 4));
}
END_TEST

/* §9.7.2 extended precision: 96-bit add with add.cc/addc.cc/addc and sub.cc/subc */
START_TEST(carry_chain)
{
    unsigned out[32];
    run_u32(HDR PRO(16)
            "mov.u32 %r2, 0xffffffff;\nmov.u32 %r3, 0xfffffffe;\n"
            "add.cc.u32 %r4, %r2, %r1;\naddc.cc.u32 %r5, %r3, 1;\naddc.u32 %r6, 0, 0;\n"
            "sub.cc.u32 %r7, %r1, 1;\nsubc.u32 %r8, 0, 0;\n"
            "shl.b32 %r9, %r5, 8;\nadd.u32 %r9, %r9, %r6;\nshl.b32 %r10, %r8, 16;\nxor.b32 %r9, %r9, %r10;\nadd.u32 %r9, %r9, %r4;\n"
            "st.global.u32 [%rd3], %r9;\nret;\n}\n", 32, out, 32);
    for (unsigned t = 0; t < 32; t++) {
        uint64_t lo = 0xffffffffull + t;
        unsigned r4 = (unsigned)lo, c1 = (unsigned)(lo >> 32);
        uint64_t mid = 0xfffffffeull + 1 + c1;
        unsigned r5 = (unsigned)mid, r6 = (unsigned)(mid >> 32);
        unsigned borrow = t < 1, r8 = 0u - borrow;
        unsigned want = (((r5 << 8) + r6) ^ (r8 << 16)) + r4;
        ck_assert_msg(out[t] == want, "lane %u: got 0x%x want 0x%x", t, out[t], want);
    }
}
END_TEST

/* §9.7.8.8 ld: a signed narrow load sign-extends to the register width; cvta/isspacep round trip */
START_TEST(ld_sext_cvta)
{
    unsigned out[32];
    run_u32(HDR ".shared .align 4 .b8 sm[64];\n" PRO(12)
            "mov.u32 %r2, sm;\nadd.u32 %r3, %r2, %r1;\nmul.lo.u32 %r4, %r1, 9;\nst.shared.u8 [%r3], %r4;\nbar.sync 0;\n"
            "ld.shared.s8 %r5, [%r3];\n"
            "cvt.u64.u32 %rd4, %r3;\ncvta.shared.u64 %rd5, %rd4;\n"
            "isspacep.shared %p1, %rd5;\nisspacep.global %p2, %rd5;\n"
            "ld.u8 %r6, [%rd5];\n"
            "selp.u32 %r7, 0x10000, 0, %p1;\nselp.u32 %r8, 0x20000, 0, %p2;\n"
            "shl.b32 %r6, %r6, 8;\nand.b32 %r5, %r5, 0xff0000ff;\nor.b32 %r5, %r5, %r6;\nadd.u32 %r5, %r5, %r7;\nadd.u32 %r5, %r5, %r8;\n"
            "st.global.u32 [%rd3], %r5;\nret;\n}\n", 32, out, 32);
    for (unsigned t = 0; t < 32; t++) {
        uint8_t b = (uint8_t)(t * 9);
        unsigned sx = (unsigned)(int)(int8_t)b;
        unsigned want = ((sx & 0xff0000ffu) | ((unsigned)b << 8)) + 0x10000u;
        ck_assert_msg(out[t] == want, "lane %u: got 0x%x want 0x%x", t, out[t], want);
    }
}
END_TEST

/* named barrier with a thread count: producer warps bar.arrive, consumer warp bar.sync */
START_TEST(named_barrier)
{
    unsigned out[96];
    run_u32(HDR ".shared .align 4 .b32 buf[96];\n" PRO(12)
            "mov.u32 %r2, buf;\nshl.b32 %r3, %r1, 2;\nadd.u32 %r4, %r2, %r3;\n"
            "setp.lt.u32 %p1, %r1, 64;\n@!%p1 bra CONS;\n"
            "mul.lo.u32 %r5, %r1, 3;\nst.shared.u32 [%r4], %r5;\nbar.arrive 3, 96;\nbra END;\n"
            "CONS:\nbar.sync 3, 96;\nsub.u32 %r6, %r1, 64;\nshl.b32 %r6, %r6, 2;\nadd.u32 %r6, %r2, %r6;\nld.shared.u32 %r7, [%r6];\nst.global.u32 [%rd3], %r7;\n"
            "END:\nret;\n}\n", 96, out, 96);
    for (unsigned t = 64; t < 96; t++) ck_assert_uint_eq(out[t], (t - 64) * 3);
}
END_TEST

/* calls with .param arguments and return values, predicated exit of some lanes */
START_TEST(call_params_exit)
{
    unsigned out[32];
    run_u32(HDR ".func (.param .b32 rv) twice(.param .b32 a, .param .b32 b)\n{\n.reg .b32 %x<4>;\n"
            "ld.param.b32 %x1, [a];\nld.param.b32 %x2, [b];\nmad.lo.u32 %x3, %x1, 2, %x2;\nst.param.b32 [rv], %x3;\nret;\n}\n"
            PRO(12)
            "st.global.u32 [%rd3], 7;\n"
            "and.b32 %r2, %r1, 3;\nsetp.eq.u32 %p1, %r2, 3;\n@%p1 exit;\n"
            "{\n.param .b32 p0;\n.param .b32 p1;\n.param .b32 r0;\nst.param.b32 [p0], %r1;\nst.param.b32 [p1], 100;\n"
            "call.uni (r0), twice, (p0, p1);\nld.param.b32 %r3, [r0];\n}\n"
            "st.global.u32 [%rd3], %r3;\nret;\n}\n", 32, out, 32);
    for (unsigned t = 0; t < 32; t++) ck_assert_uint_eq(out[t], (t & 3) == 3 ? 7u : 2 * t + 100);
}
END_TEST

/* special registers: %laneid %warpid %lanemask_lt %nctaid %ntid and activemask in divergence */
START_TEST(special_regs)
{
    unsigned out[64];
    run_u32(HDR PRO(12)
            "mov.u32 %r2, %laneid;\nmov.u32 %r3, %warpid;\nmov.u32 %r4, %lanemask_lt;\nmov.u32 %r5, %ntid.x;\n"
            "popc.b32 %r4, %r4;\nshl.b32 %r3, %r3, 8;\nshl.b32 %r5, %r5, 16;\nor.b32 %r2, %r2, %r3;\nor.b32 %r2, %r2, %r5;\n"
            "setp.ne.u32 %p1, %r4, %r1;\n"
            "and.b32 %r6, %r1, 1;\nsetp.eq.u32 %p2, %r6, 0;\n@%p2 bra EVEN;\nactivemask.b32 %r7;\nbra J;\nEVEN:\nactivemask.b32 %r7;\nJ:\n"
            "popc.b32 %r7, %r7;\nshl.b32 %r7, %r7, 24;\nor.b32 %r2, %r2, %r7;\n"
            "st.global.u32 [%rd3], %r2;\nret;\n}\n", 64, out, 64);
    for (unsigned t = 0; t < 64; t++) ck_assert_uint_eq(out[t], (t % 32) | ((t / 32) << 8) | (64u << 16) | (16u << 24));
}
END_TEST

/* ---------------------------------------------------------------- load-time rejection */
START_TEST(reject_syntax)
{
    ck_assert_int_eq(try_load(HDR ".visible .entry k()\n{\n  add.u32 %r1, , 2;\n}\n"), PTXE_ERROR_INVALID_PTX);
    ck_assert_msg(strstr(ptxeGetErrorMessage(C), "t.ptx:6:16:") != NULL, "%s", ptxeGetErrorMessage(C));
    ck_assert_msg(strstr(ptxeGetErrorMessage(C), "expected") != NULL, "%s", ptxeGetErrorMessage(C));
    done();
    ck_assert_int_eq(try_load(HDR ".visible .entry k()\n{\n.reg .b32 %r<3>;\n  frobnicate.u32 %r1, %r2;\n  ret;\n}\n"), PTXE_ERROR_INVALID_PTX);
    ck_assert_msg(strstr(ptxeGetErrorMessage(C), "t.ptx:7:3:") && strstr(ptxeGetErrorMessage(C), "frobnicate.u32 %r1, %r2"), "%s", ptxeGetErrorMessage(C));
    done();
    ck_assert_int_eq(try_load(HDR ".visible .entry k()\n{\n.reg .b32 %r<3>;\n  add.u32 %r9, %r1, 1;\n}\n"), PTXE_ERROR_INVALID_PTX);
    ck_assert_msg(strstr(ptxeGetErrorMessage(C), "t.ptx:7:11:") && strstr(ptxeGetErrorMessage(C), "%r9"), "%s", ptxeGetErrorMessage(C));
    done();
    ck_assert_int_eq(try_load(HDR ".visible .entry k()\n{\n  bra NOWHERE;\n}\n"), PTXE_ERROR_INVALID_PTX);
    ck_assert_msg(strstr(ptxeGetErrorMessage(C), "NOWHERE") != NULL, "%s", ptxeGetErrorMessage(C));
    done();
    ck_assert_int_eq(try_load(".version 8.4\n.target sm_90\n.address_size 64\n.visible .entry k(\n"), PTXE_ERROR_INVALID_PTX);
    done();
}
END_TEST

/* ---------------------------------------------------------------- faults */
static const char *fault_of(const char *ptx, unsigned grid, unsigned block, size_t bytes, uint64_t steps, ptxeResult want)
{
    load(ptx);
    ptxeDevptr d;
    ptxeMemAlloc(C, &d, bytes);
    ptxeResult r = launch(grid, block, &d, steps);
    ck_assert_msg(r == want, "got %s, want %s: %s", ptxeGetErrorName(r), ptxeGetErrorName(want), ptxeGetErrorMessage(C));
    static char msg[2048];
    snprintf(msg, sizeof msg, "%s", ptxeGetErrorMessage(C));
    done();
    return msg;
}

START_TEST(fault_oob)
{
    const char *m = fault_of(HDR PRO(4) "st.global.u32 [%rd3], %r1;\nret;\n}\n", 1, 128, 100 * 4, 0, PTXE_ERROR_LAUNCH_FAILED);
    ck_assert_msg(strstr(m, "out-of-bounds global store of 4 bytes") && strstr(m, "thread (100,0,0) of CTA (0,0,0)") &&
                  strstr(m, "t.ptx:") && strstr(m, "st.global.u32 [%rd3], %r1"), "%s", m);
}
END_TEST

START_TEST(fault_misaligned)
{
    const char *m = fault_of(HDR PRO(4) "ld.global.u32 %r2, [%rd3+2];\nret;\n}\n", 1, 32, 1024, 0, PTXE_ERROR_LAUNCH_FAILED);
    ck_assert_msg(strstr(m, "misaligned global load of 4 bytes"), "%s", m);
}
END_TEST

START_TEST(fault_generic_nowhere)
{
    const char *m = fault_of(HDR PRO(4) "mov.u64 %rd4, 4096;\nld.u32 %r2, [%rd4];\nret;\n}\n", 1, 32, 1024, 0, PTXE_ERROR_LAUNCH_FAILED);
    ck_assert_msg(strstr(m, "in no state space") && strstr(m, "0x1000"), "%s", m);
}
END_TEST

START_TEST(fault_trap_and_steps)
{
    const char *m = fault_of(HDR PRO(4) "setp.eq.u32 %p1, %r1, 5;\n@%p1 trap;\nret;\n}\n", 1, 32, 1024, 0, PTXE_ERROR_LAUNCH_FAILED);
    ck_assert_msg(strstr(m, "trap") && strstr(m, "thread (5,0,0)"), "%s", m);
    m = fault_of(HDR PRO(4) "L:\nbra L;\n}\n", 1, 32, 1024, 5000, PTXE_ERROR_LAUNCH_TIMEOUT);
    ck_assert_msg(strstr(m, "step limit of 5000"), "%s", m);
}
END_TEST

START_TEST(fault_barrier)
{
    /* warp 1 exits early but the barrier counts 64 threads: deadlock */
    const char *m = fault_of(HDR PRO(4) "setp.ge.u32 %p1, %r1, 32;\n@%p1 exit;\nbar.sync 0, 64;\nret;\n}\n", 1, 64, 1024, 0, PTXE_ERROR_LAUNCH_FAILED);
    ck_assert_msg(strstr(m, "barrier deadlock") && strstr(m, "32 of 64"), "%s", m);
    /* half a warp at one bar.sync, the other half at another: divergence */
    m = fault_of(HDR PRO(4) "setp.ge.u32 %p1, %r1, 16;\n@%p1 bra B;\nbar.sync 0;\nbra E;\nB:\nbar.sync 0;\nE:\nret;\n}\n", 1, 32, 1024, 0, PTXE_ERROR_LAUNCH_FAILED);
    ck_assert_msg(strstr(m, "barrier divergence"), "%s", m);
}
END_TEST

START_TEST(api_errors)
{
    load(HDR PRO(4) "ret;\n}\n");
    ptxeDevptr d;
    ck_assert_int_eq(ptxeMemAlloc(C, &d, 16), PTXE_SUCCESS);
    char buf[32];
    ck_assert_int_eq(ptxeMemcpyDtoH(C, buf, d, 32), PTXE_ERROR_INVALID_ADDRESS);
    ck_assert_int_eq(ptxeMemcpyHtoD(C, d + 8, buf, 8), PTXE_SUCCESS);
    ptxeLaunchConfig cfg = { { 1, 1, 1 }, { 2048, 1, 1 }, { 0, 0, 0 }, 0, 0 };
    void *args[] = { &d };
    ck_assert_int_eq(ptxeLaunchKernel(F, &cfg, args), PTXE_ERROR_INVALID_VALUE);
    ck_assert_int_eq(ptxeModuleGetFunction(&F, M, "nope"), PTXE_ERROR_NOT_FOUND);
    ck_assert_str_eq(ptxeGetErrorName(PTXE_ERROR_LAUNCH_FAILED), "PTXE_ERROR_LAUNCH_FAILED");
    ck_assert_int_eq(ptxeMemFree(C, d), PTXE_SUCCESS);
    ck_assert_int_eq(ptxeMemcpyDtoH(C, buf, d, 4), PTXE_ERROR_INVALID_ADDRESS);
    done();
}
END_TEST

static void add_tests(TCase *tc)
{
    tcase_add_test(tc, shfl_modes);
    tcase_add_test(tc, vote_bar_red);
    tcase_add_test(tc, carry_chain);
    tcase_add_test(tc, ld_sext_cvta);
    tcase_add_test(tc, named_barrier);
    tcase_add_test(tc, call_params_exit);
    tcase_add_test(tc, special_regs);
    tcase_add_test(tc, reject_syntax);
    tcase_add_test(tc, fault_oob);
    tcase_add_test(tc, fault_misaligned);
    tcase_add_test(tc, fault_generic_nowhere);
    tcase_add_test(tc, fault_trap_and_steps);
    tcase_add_test(tc, fault_barrier);
    tcase_add_test(tc, api_errors);
}

#include "check_main.h"
