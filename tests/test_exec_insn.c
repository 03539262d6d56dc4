/* tests/test_exec_insn.c — instruction-level and fault tests of the executor on hand-written PTX:
 * edge cases the ISA spells out (shfl.sync clamp/segment rules, vote/bar.red, extended-precision
 * carry chains, ld sign extension, cvta/isspacep, named barriers with counts), load-time
 * rejection with file:line:col, and kernel faults with their reports. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <check.h>
#include "include/ptxexec.h"
#define EVIDENCE_EXEC
#include "tests/evidence.h"
#include "tests/video_ref.h"

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
    if (r == PTXE_SUCCESS) evidence_module(M, "test_exec_insn.c");
    return r;
}
static void load(const char *body)
{
    ptxeResult r = try_load(body);
    ck_assert_msg(r == PTXE_SUCCESS, "%s", ptxeGetErrorMessage(C));
}
static void done(void) { if (M) ptxeModuleUnload(M); M = NULL; ptxeCtxDestroy(C); C = NULL; }

static ptxeResult launch(unsigned grid, unsigned block, ptxeDevptr *buf, uint64_t max_steps)
{
    ptxeLaunchConfig cfg = {
        { grid, 1, 1 }, { block, 1, 1 }, { 0, 0, 0 }, 0, max_steps, 0, PTXE_SCHEDULE_DEFAULT, 0, 0
    };
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

#define PRO(nr)                                                                                   \
    ".visible .entry k(.param .u64 out)\n{\n.reg .pred %p<8>;\n.reg .b32 %r<" #nr                 \
    ">;\n.reg .b64 %rd<10>;\n.reg .f32 %f<16>;\n"                                                 \
    "ld.param.u64 %rd1, [out];\nmov.u32 %r1, %tid.x;\nmul.wide.u32 %rd2, %r1, 4;\nadd.s64 %rd3, " \
    "%rd1, %rd2;\n"

/* §9.7.8.6 shfl.sync: up/down/bfly/idx with clamp and segment mask; p tells in-range */
START_TEST(shfl_modes)
{
    static const char *modes[] = { "up", "down", "bfly", "idx" };
    unsigned out[32];
    for (int m = 0; m < 4; m++)
        for (unsigned c = 0; c < 3; c++) {
            unsigned cval = c == 0   ? 0x1f
                            : c == 1 ? 0x0
                                     : 0x181f ^ 0x1f; /* full, clamp 0, segments of 8 */
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
                ck_assert_msg(out[l] == want, "shfl.%s c=0x%x lane %d: got %u want %u", modes[m],
                              cval, l, out[l], want);
            }
        }
}
END_TEST

/* vote.sync.uni/any/all on a divergent value; bar.red.popc / bar.red.and across warps */
START_TEST(vote_bar_red)
{
    unsigned out[64];
    run_u32(
        HDR PRO(12) "and.b32 %r2, %r1, 1;\nsetp.eq.u32 %p1, %r2, 1;\n"
                    "vote.sync.uni.pred %p2, %p1, -1;\nvote.sync.any.pred %p3, %p1, "
                    "-1;\nvote.sync.all.pred %p4, !%p1, -1;\n"
                    "selp.u32 %r3, 1, 0, %p2;\nselp.u32 %r4, 2, 0, %p3;\nselp.u32 %r5, 4, 0, %p4;\n"
                    "setp.lt.u32 %p5, %r1, 40;\n"
                    "bar.red.popc.u32 %r6, 1, %p5;\n"
                    "bar.red.and.pred %p6, 2, %p5;\n"
                    "selp.u32 %r7, 8, 0, %p6;\n"
                    "shl.b32 %r8, %r6, 4;\n"
                    "or.b32 %r9, %r3, %r4;\nor.b32 %r9, %r9, %r5;\nor.b32 %r9, %r9, %r7;\nor.b32 "
                    "%r9, %r9, %r8;\n"
                    "st.global.u32 [%rd3], %r9;\nret;\n}\n",
        64, out, 64);
    for (int i = 0; i < 64; i++) ck_assert_uint_eq(out[i], 2u | (40u << 4));
}
END_TEST

/* §9.7.2 extended precision: 96-bit add with add.cc/addc.cc/addc and sub.cc/subc */
START_TEST(carry_chain)
{
    unsigned out[32];
    run_u32(HDR PRO(16) "mov.u32 %r2, 0xffffffff;\nmov.u32 %r3, 0xfffffffe;\n"
                        "add.cc.u32 %r4, %r2, %r1;\naddc.cc.u32 %r5, %r3, 1;\naddc.u32 %r6, 0, 0;\n"
                        "sub.cc.u32 %r7, %r1, 1;\nsubc.u32 %r8, 0, 0;\n"
                        "shl.b32 %r9, %r5, 8;\nadd.u32 %r9, %r9, %r6;\nshl.b32 %r10, %r8, "
                        "16;\nxor.b32 %r9, %r9, %r10;\nadd.u32 %r9, %r9, %r4;\n"
                        "st.global.u32 [%rd3], %r9;\nret;\n}\n",
            32, out, 32);
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
    run_u32(HDR ".shared .align 4 .b8 sm[64];\n" PRO(
                12) "mov.u32 %r2, sm;\nadd.u32 %r3, %r2, %r1;\nmul.lo.u32 %r4, %r1, "
                    "9;\nst.shared.u8 [%r3], %r4;\nbar.sync 0;\n"
                    "ld.shared.s8 %r5, [%r3];\n"
                    "cvt.u64.u32 %rd4, %r3;\ncvta.shared.u64 %rd5, %rd4;\n"
                    "isspacep.shared %p1, %rd5;\nisspacep.global %p2, %rd5;\n"
                    "ld.u8 %r6, [%rd5];\n"
                    "selp.u32 %r7, 0x10000, 0, %p1;\nselp.u32 %r8, 0x20000, 0, %p2;\n"
                    "shl.b32 %r6, %r6, 8;\nand.b32 %r5, %r5, 0xff0000ff;\nor.b32 %r5, %r5, "
                    "%r6;\nadd.u32 %r5, %r5, %r7;\nadd.u32 %r5, %r5, %r8;\n"
                    "st.global.u32 [%rd3], %r5;\nret;\n}\n",
            32, out, 32);
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
    run_u32(
        HDR ".shared .align 4 .b32 buf[96];\n" PRO(
            12) "mov.u32 %r2, buf;\nshl.b32 %r3, %r1, 2;\nadd.u32 %r4, %r2, %r3;\n"
                "setp.lt.u32 %p1, %r1, 64;\n@!%p1 bra CONS;\n"
                "mul.lo.u32 %r5, %r1, 3;\nst.shared.u32 [%r4], %r5;\nbar.arrive 3, 96;\nbra END;\n"
                "CONS:\nbar.sync 3, 96;\nsub.u32 %r6, %r1, 64;\nshl.b32 %r6, %r6, 2;\nadd.u32 %r6, "
                "%r2, %r6;\nld.shared.u32 %r7, [%r6];\nst.global.u32 [%rd3], %r7;\n"
                "END:\nret;\n}\n",
        96, out, 96);
    for (unsigned t = 64; t < 96; t++) ck_assert_uint_eq(out[t], (t - 64) * 3);
}
END_TEST

/* calls with .param arguments and return values, predicated exit of some lanes */
START_TEST(call_params_exit)
{
    unsigned out[32];
    run_u32(HDR ".func (.param .b32 rv) twice(.param .b32 a, .param .b32 b)\n{\n.reg .b32 %x<4>;\n"
                "ld.param.b32 %x1, [a];\nld.param.b32 %x2, [b];\nmad.lo.u32 %x3, %x1, 2, "
                "%x2;\nst.param.b32 [rv], %x3;\nret;\n}\n" PRO(
                    12) "st.global.u32 [%rd3], 7;\n"
                        "and.b32 %r2, %r1, 3;\nsetp.eq.u32 %p1, %r2, 3;\n@%p1 exit;\n"
                        "{\n.param .b32 p0;\n.param .b32 p1;\n.param .b32 r0;\nst.param.b32 [p0], "
                        "%r1;\nst.param.b32 [p1], 100;\n"
                        "call.uni (r0), twice, (p0, p1);\nld.param.b32 %r3, [r0];\n}\n"
                        "st.global.u32 [%rd3], %r3;\nret;\n}\n",
            32, out, 32);
    for (unsigned t = 0; t < 32; t++) ck_assert_uint_eq(out[t], (t & 3) == 3 ? 7u : 2 * t + 100);
}
END_TEST

/* special registers: %laneid %warpid %lanemask_lt %nctaid %ntid and activemask in divergence */
START_TEST(special_regs)
{
    unsigned out[64];
    run_u32(HDR PRO(12) "mov.u32 %r2, %laneid;\nmov.u32 %r3, %warpid;\nmov.u32 %r4, "
                        "%lanemask_lt;\nmov.u32 %r5, %ntid.x;\n"
                        "popc.b32 %r4, %r4;\nshl.b32 %r3, %r3, 8;\nshl.b32 %r5, %r5, 16;\nor.b32 "
                        "%r2, %r2, %r3;\nor.b32 %r2, %r2, %r5;\n"
                        "setp.ne.u32 %p1, %r4, %r1;\n"
                        "and.b32 %r6, %r1, 1;\nsetp.eq.u32 %p2, %r6, 0;\n@%p2 bra "
                        "EVEN;\nactivemask.b32 %r7;\nbra J;\nEVEN:\nactivemask.b32 %r7;\nJ:\n"
                        "popc.b32 %r7, %r7;\nshl.b32 %r7, %r7, 24;\nor.b32 %r2, %r2, %r7;\n"
                        "st.global.u32 [%rd3], %r2;\nret;\n}\n",
            64, out, 64);
    for (unsigned t = 0; t < 64; t++)
        ck_assert_uint_eq(out[t], (t % 32) | ((t / 32) << 8) | (64u << 16) | (16u << 24));
}
END_TEST

/* ---------------------------------------------------------------- clusters, async copies, control
 * flow */
static ptxeResult launch_cl(unsigned grid, unsigned block, unsigned cl, ptxeDevptr *buf)
{
    ptxeLaunchConfig cfg = {
        { grid, 1, 1 }, { block, 1, 1 }, { cl, 1, 1 }, 0, 0, 0, PTXE_SCHEDULE_DEFAULT, 0, 0
    };
    void *args[] = { buf };
    return ptxeLaunchKernel(F, &cfg, args);
}

static void run_cl_u32(const char *ptx, unsigned grid, unsigned block, unsigned cl, unsigned *out,
                       int n)
{
    load(ptx);
    ptxeDevptr d;
    ptxeMemAlloc(C, &d, (size_t)n * 4);
    ptxeResult r = launch_cl(grid, block, cl, &d);
    ck_assert_msg(r == PTXE_SUCCESS, "%s", ptxeGetErrorMessage(C));
    ptxeMemcpyDtoH(C, out, d, (size_t)n * 4);
    done();
}

/* §9.7.8.22-23, §9.7.12.3: every CTA of a 4-CTA cluster adds (rank+1)*(tid+1) into slot tid of
 * CTA (rank+1)%4 with atom.shared::cluster, after a cluster barrier reads its own slots back
 * and the rank getctarank reports for the peer address (shared::cluster, 32-bit) */
START_TEST(shared_cluster)
{
    unsigned out[8 * 32];
    run_cl_u32(HDR ".shared .align 4 .b32 sl[32];\n" PRO(
                   16) "mov.u32 %r2, %cluster_ctarank;\nmov.u32 %r3, %cluster_nctarank;\n"
                       "shl.b32 %r4, %r1, 2;\nmov.u32 %r5, sl;\nadd.u32 %r5, %r5, %r4;\n"
                       "st.shared.u32 [%r5], 1000;\n"
                       "barrier.cluster.arrive.aligned;\nbarrier.cluster.wait.aligned;\n"
                       "add.u32 %r6, %r2, 1;\nrem.u32 %r6, %r6, %r3;\n"
                       "mapa.shared::cluster.u32 %r7, %r5, %r6;\n"
                       "add.u32 %r8, %r2, 1;\nadd.u32 %r9, %r1, 1;\nmul.lo.u32 %r8, %r8, %r9;\n"
                       "atom.shared::cluster.add.u32 %r10, [%r7], %r8;\n"
                       "getctarank.shared::cluster.u32 %r11, %r7;\n"
                       "barrier.cluster.arrive.release;\nbarrier.cluster.wait.acquire;\n"
                       "ld.shared::cluster.u32 %r12, [%r5];\n"
                       "mov.u32 %r13, %ctaid.x;\nmad.lo.u32 %r13, %r13, 32, %r1;\nmul.wide.u32 "
                       "%rd4, %r13, 4;\nadd.s64 %rd4, %rd1, %rd4;\n"
                       "shl.b32 %r11, %r11, 24;\nadd.u32 %r12, %r12, %r11;\n"
                       "st.global.u32 [%rd4], %r12;\n"
                       "barrier.cluster.arrive;\nbarrier.cluster.wait;\nret;\n}\n",
               8, 32, 4, out, 8 * 32);
    for (unsigned b = 0; b < 8; b++)
        for (unsigned t = 0; t < 32; t++) {
            unsigned rank = b % 4, from = (rank + 3) % 4, peer = (rank + 1) % 4;
            unsigned want = 1000 + (from + 1) * (t + 1) + (peer << 24);
            ck_assert_msg(out[b * 32 + t] == want, "CTA %u thread %u: got 0x%x want 0x%x", b, t,
                          out[b * 32 + t], want);
        }
}
END_TEST

/* §10: cluster special registers in a 2x2x1 cluster of a 4x2x1 grid (explicit launch) */
START_TEST(cluster_sregs)
{
    load(HDR PRO(
        16) "mov.u32 %r2, %ctaid.x;\nmov.u32 %r3, %ctaid.y;\nmad.lo.u32 %r4, %r3, 4, "
            "%r2;\nmul.wide.u32 %rd4, %r4, 32;\nadd.s64 %rd4, %rd1, %rd4;\n"
            "mov.u32 %r5, %cluster_ctaid.x;\nst.global.u32 [%rd4], %r5;\nmov.u32 %r5, "
            "%cluster_ctaid.y;\nst.global.u32 [%rd4+4], %r5;\n"
            "mov.u32 %r5, %clusterid.x;\nst.global.u32 [%rd4+8], %r5;\nmov.u32 %r5, "
            "%clusterid.y;\nst.global.u32 [%rd4+12], %r5;\n"
            "mov.u32 %r5, %nclusterid.x;\nst.global.u32 [%rd4+16], %r5;\nmov.u32 %r5, "
            "%cluster_ctarank;\nst.global.u32 [%rd4+20], %r5;\n"
            "mov.u32 %r5, %cluster_nctarank;\nst.global.u32 [%rd4+24], %r5;\nmov.pred %p1, "
            "%is_explicit_cluster;\nselp.u32 %r5, 1, 0, %p1;\nst.global.u32 [%rd4+28], %r5;\n"
            "ret;\n}\n");
    ptxeDevptr d;
    ptxeMemAlloc(C, &d, 8 * 32);
    ptxeLaunchConfig cfg = { { 4, 2, 1 }, { 1, 1, 1 },           { 2, 2, 1 }, 0, 0,
                             0,           PTXE_SCHEDULE_DEFAULT, 0,           0 };
    void *args[] = { &d };
    ck_assert_int_eq(ptxeLaunchKernel(F, &cfg, args), PTXE_SUCCESS);
    unsigned o[64];
    ptxeMemcpyDtoH(C, o, d, sizeof o);
    for (unsigned y = 0; y < 2; y++)
        for (unsigned x = 0; x < 4; x++) {
            unsigned *r = o + (y * 4 + x) * 8;
            unsigned want[8] = { x % 2, y % 2, x / 2, y / 2, 2, (y % 2) * 2 + x % 2, 4, 1 };
            for (int k = 0; k < 8; k++)
                ck_assert_msg(r[k] == want[k], "CTA (%u,%u) value %d: got %u want %u", x, y, k,
                              r[k], want[k]);
        }
    done();
}
END_TEST

/* §9.7.12.4 brx.idx with a divergent index over a .branchtargets list, then reconvergence */
START_TEST(brx_idx)
{
    unsigned out[32];
    run_u32(HDR PRO(12)
            "and.b32 %r2, %r1, 3;\nmov.u32 %r3, 0;\n"
            "ts: .branchtargets L0, L1, L2, L3;\n"
            "brx.idx %r2, ts;\n"
            "L0:\nadd.u32 %r3, %r3, 1;\nbra J;\n"
            "L1:\nadd.u32 %r3, %r3, 20;\n"
            "L2:\nadd.u32 %r3, %r3, 300;\nbra J;\n"
            "L3:\nadd.u32 %r3, %r3, 4000;\n"
            "J:\nactivemask.b32 %r4;\nxor.b32 %r3, %r3, %r4;\n"
            "st.global.u32 [%rd3], %r3;\nret;\n}\n", 32, out, 32);
    static const unsigned add[4] = { 1, 320, 300, 4000 };
    for (unsigned t = 0; t < 32; t++) ck_assert_uint_eq(out[t], add[t & 3] ^ 0xffffffffu);
}
END_TEST

/* .address_size 32: 32-bit pointers in parameters, cvta and generic addressing */
START_TEST(address_size_32)
{
    load(".version 8.4\n.target sm_90\n.address_size 32\n.shared .align 4 .b32 sm[32];\n"
         ".visible .entry k(.param .u32 out)\n{\n.reg .b32 %r<12>;\n"
         "ld.param.u32 %r1, [out];\ncvta.to.global.u32 %r2, %r1;\nmov.u32 %r3, %tid.x;\nshl.b32 "
         "%r4, %r3, 2;\n"
         "mov.u32 %r5, sm;\ncvta.shared.u32 %r6, %r5;\nadd.u32 %r6, %r6, %r4;\nmul.lo.u32 %r7, "
         "%r3, 5;\nst.u32 [%r6], %r7;\n"
         "bar.sync 0;\nld.shared.u32 %r8, [%r5+8];\nadd.u32 %r8, %r8, %r7;\nadd.u32 %r9, %r2, "
         "%r4;\nst.global.u32 [%r9], %r8;\nret;\n}\n");
    ptxeDevptr d;
    ck_assert_int_eq(ptxeMemAlloc(C, &d, 32 * 4), PTXE_SUCCESS);
    ck_assert_msg(d < 0x100000000ull, "allocation 0x%llx above 4 GiB", (unsigned long long)d);
    uint32_t d32 = (uint32_t)d;
    ptxeLaunchConfig cfg = { { 1, 1, 1 }, { 32, 1, 1 },          { 0, 0, 0 }, 0, 0,
                             0,           PTXE_SCHEDULE_DEFAULT, 0,           0 };
    void *args[] = { &d32 };
    ck_assert_msg(ptxeLaunchKernel(F, &cfg, args) == PTXE_SUCCESS, "%s", ptxeGetErrorMessage(C));
    unsigned out[32];
    ptxeMemcpyDtoH(C, out, d, sizeof out);
    for (unsigned t = 0; t < 32; t++) ck_assert_uint_eq(out[t], 10 + t * 5);
    done();
}
END_TEST

/* §7.1 .reg parameters and return values, direct and indirect calls */
START_TEST(reg_params)
{
    unsigned out[32];
    run_u32(HDR ".func (.reg .b32 rv) mad3(.reg .b32 a, .reg .b64 b)\n{\n.reg .b32 "
                "%t;\ncvt.u32.u64 %t, b;\nmad.lo.u32 rv, a, 3, %t;\nret;\n}\n" PRO(
                    12) "cvt.u64.u32 %rd4, %r1;\nadd.u64 %rd4, %rd4, 7;\n"
                        "call (%r2), mad3, (%r1, %rd4);\n"
                        "mov.u64 %rd5, mad3;\n"
                        "{\nprot: .callprototype (.reg .b32 _) _ (.reg .b32 _, .reg .b64 _);\ncall "
                        "(%r3), %rd5, (%r2, 100), prot;\n}\n"
                        "st.global.u32 [%rd3], %r3;\nret;\n}\n",
            32, out, 32);
    for (unsigned t = 0; t < 32; t++) ck_assert_uint_eq(out[t], (t * 3 + t + 7) * 3 + 100);
}
END_TEST

/* §9.7.12.15 mbarrier: expect_tx/complete_tx, arrive with a count, arrive_drop, pending_count,
 * the state token and parity waits, try_wait; cp.async.mbarrier.arrive.noinc */
START_TEST(mbarrier_ops)
{
    unsigned out[33];
    run_u32(
        HDR
        ".shared .align 8 .b64 mb;\n.shared .align 8 .b64 mb2;\n.shared .align 16 .b32 "
        "dst[4];\n.global .align 16 .b32 src[4] = {5, 6, 7, 8};\n" PRO(
            16) "setp.eq.u32 %p1, %r1, 0;\n"
                "@%p1 mbarrier.init.shared::cta.b64 [mb], 4;\n@%p1 mbarrier.init.shared.b64 [mb2], "
                "2;\nbar.sync 0;\n"
                /* thread 0: expect 64 bytes, arrive with count 2; pending 2 */
                "mov.u32 %r9, 0;\n"
                "@!%p1 bra T1;\n"
                "mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [mb], 64;\n"
                "mbarrier.arrive.shared.b64 %rd5, [mb], 2;\nmbarrier.pending_count.b64 %r2, %rd5;\n"
                "mbarrier.test_wait.shared.b64 %p2, [mb], %rd5;\nselp.u32 %r3, 1, 0, %p2;\n"
                "mbarrier.arrive_drop.shared.b64 %rd6, [mb];\nmbarrier.pending_count.b64 %r4, "
                "%rd6;\n"
                "mbarrier.arrive.expect_tx.shared.b64 _, [mb], 16;\n"
                "mbarrier.complete_tx.shared.b64 [mb], 60;\n"
                "mbarrier.try_wait.shared.b64 %p3, [mb], %rd5;\nselp.u32 %r5, 1, 0, %p3;\n"
                "mbarrier.complete_tx.shared.b64 [mb], 20;\n"
                "mbarrier.try_wait.parity.shared.b64 %p4, [mb], 0;\nselp.u32 %r6, 1, 0, %p4;\n"
                "mbarrier.test_wait.parity.shared.b64 %p5, [mb], 1;\nselp.u32 %r7, 1, 0, %p5;\n"
                /* cp.async + cp.async.mbarrier.arrive.noinc completes mb2 (count 2) with one arrive
                 */
                "mov.u32 %r10, dst;\nmov.u64 %rd7, src;\ncp.async.ca.shared.global [%r10], "
                "[%rd7+8], 8;\n"
                "cp.async.mbarrier.arrive.noinc.shared.b64 [mb2];\n"
                "mbarrier.arrive.shared.b64 %rd8, [mb2];\nmbarrier.test_wait.shared.b64 %p6, "
                "[mb2], %rd8;\nselp.u32 %r8, 1, 0, %p6;\n"
                "cp.async.wait_all;\nld.shared.u32 %r11, [dst];\nld.shared.u32 %r12, [dst+4];\n"
                "shl.b32 %r3, %r3, 4;\nshl.b32 %r5, %r5, 8;\nshl.b32 %r6, %r6, 12;\nshl.b32 %r7, "
                "%r7, 16;\nshl.b32 %r8, %r8, 20;\nshl.b32 %r4, %r4, 24;\n"
                "or.b32 %r9, %r2, %r3;\nor.b32 %r9, %r9, %r4;\nor.b32 %r9, %r9, %r5;\nor.b32 %r9, "
                "%r9, %r6;\nor.b32 %r9, %r9, %r7;\nor.b32 %r9, %r9, %r8;\n"
                "mad.lo.u32 %r11, %r11, 10, %r12;\nst.global.u32 [%rd1+128], %r11;\n"
                "T1:\nst.global.u32 [%rd3], %r9;\nret;\n}\n",
        32, out, 33);
    /* pending 2 after the first arrive; not complete; arrive_drop: pending 1, expected 3;
     * arrive.expect_tx: pending 0, tx 80 -> 60 done -> 20 left; try_wait false; complete 20:
     * phase 0 completes (parity 0 true, parity 1 false); mb2 complete */
    ck_assert_msg(out[0] == (2u | 0u << 4 | 1u << 24 | 0u << 8 | 1u << 12 | 0u << 16 | 1u << 20),
                  "got 0x%x", out[0]);
    ck_assert_uint_eq(out[32], 7 * 10 + 8);
}
END_TEST

/* vector atomics (sm_90) and redux.sync on f32 (sm_100a) */
START_TEST(vector_atom_redux_f32)
{
    load(HDR PRO(
        16) "cvt.rn.f32.u32 %f1, %r1;\nmul.f32 %f2, %f1, 0f3F000000;\nneg.f32 %f3, %f1;\n"
            "red.global.add.v2.f32 [%rd1], {%f1, %f2};\n"
            "atom.global.max.v4.f32 {%f4, %f5, %f6, %f7}, [%rd1+16], {%f1, %f3, %f2, %f1};\n"
            "redux.sync.min.f32 %f8, %f3, 0xffffffff;\nredux.sync.max.abs.f32 %f9, %f3, "
            "0xffffffff;\n"
            "setp.eq.u32 %p1, %r1, 5;\nselp.f32 %f10, 0f7FC00000, %f1, %p1;\n"
            "redux.sync.max.f32 %f11, %f10, 0xffffffff;\nredux.sync.max.NaN.f32 %f12, %f10, "
            "0xffffffff;\n"
            "setp.ne.u32 %p2, %r1, 0;\n@%p2 ret;\n"
            "st.global.f32 [%rd1+32], %f8;\nst.global.f32 [%rd1+36], %f9;\nst.global.f32 "
            "[%rd1+40], %f11;\nst.global.f32 [%rd1+44], %f12;\nret;\n}\n");
    ptxeDevptr d;
    ptxeMemAlloc(C, &d, 64);
    float init[12] = { 0, 0, 0, 0, -1, -1, -1, -1, 0, 0, 0, 0 };
    ptxeMemcpyHtoD(C, d, init, sizeof init);
    ck_assert_msg(launch(1, 32, &d, 0) == PTXE_SUCCESS, "%s", ptxeGetErrorMessage(C));
    float o[12];
    ptxeMemcpyDtoH(C, o, d, sizeof o);
    uint32_t nan; memcpy(&nan, &o[11], 4);
    ck_assert(o[0] == 496.0f && o[1] == 248.0f);
    ck_assert(o[4] == 31.0f && o[5] == 0.0f && o[6] == 15.5f && o[7] == 31.0f);
    ck_assert(o[8] == -31.0f && o[9] == 31.0f && o[10] == 31.0f && nan == 0x7fffffffu);
    done();
}
END_TEST

/* misc: accepted hints, nanosleep, pmevent, %clock / %globaltimer advance, elect.sync */
/* §9.7.16.2.3 vabsdiff4 end to end (the worked example of docs/architecture.md): per lane t,
 * a = t in every byte, b = 0x20 in every byte: .add gives c + 4|t - 32|, the merge form the
 * four byte differences */
START_TEST(video_vabsdiff4)
{
    unsigned out[64];
    run_u32(HDR PRO(12)
            "mul.lo.u32 %r2, %r1, 16843009;\n"
            "vabsdiff4.u32.u32.u32.add %r3, %r2, 538976288, 1000;\n"
            "vabsdiff4.u32.u32.u32 %r4, %r2, 538976288, %r3;\n"
            "st.global.u32 [%rd3], %r3;\nst.global.u32 [%rd3+128], %r4;\nret;\n}\n", 32, out, 64);
    for (unsigned t = 0; t < 32; t++) {
        unsigned diff = 32 - t;
        ck_assert_uint_eq(out[t], 1000 + 4 * diff);
        ck_assert_uint_eq(out[32 + t], diff * 0x01010101u);
    }
}
END_TEST

/* §9.7.16 through the loader: every video instruction in 4 random forms (tests/video_ref.h),
 * selectors written on the registers (`%r13.h0`, `%r10.b3`, `%r11.b7610`) and vmad negations
 * (`-%r12`), each lane with its own operands; every other form guarded by @%p1 (lanes 0..19),
 * so the per-lane path runs as well as the warp-wide one.  Compared with the C reference. */
START_TEST(video_selectors_exec)
{
    enum { NF = VREF_NINSNS * 4 };
    static vref forms[NF];
    static uint32_t ops[NF][3];
    static char ptx[NF * 400 + 4096];
    static unsigned out[NF * 32];
    uint64_t seed = 0x13198a2e03707344ull;
    strcpy(ptx, HDR PRO(32));
    int n = (int)strlen(ptx);
    n += snprintf(ptx + n, sizeof ptx - (size_t)n,
                     "mul.lo.u32 %%r20, %%r1, -1640531535;\nmul.lo.u32 %%r21, %%r1, -2048144789;\n"
                     "mul.lo.u32 %%r22, %%r1, -1028477387;\nsetp.lt.u32 %%p1, %%r1, 20;\n");
    for (int f = 0; f < NF; f++) {
        vref *v = &forms[f];
        char mn[96], sel[3][8], so[3][32];
        vref_random(v, f / 4, &seed);
        vref_text(v, mn, sel);
        for (int k = 0; k < 3; k++) {
            ops[f][k] = vref_operand(&seed);
            if (sel[k][0]) snprintf(so[k], sizeof so[k], ".%s", sel[k]);
            else so[k][0] = 0;
        }
        int three = vref_insns[v->insn].n > 1 || vref_insns[v->insn].op == VR_MAD || v->sec ||
                    v->dsel >= 0;
        n += snprintf(ptx + n, sizeof ptx - (size_t)n,
                      "xor.b32 %%r10, %%r20, %u;\nxor.b32 %%r11, %%r21, %u;\n"
                      "xor.b32 %%r12, %%r22, %u;\nmov.u32 %%r13, 0;\n"
                      "%s%s %%r13%s, %s%%r10%s, %s%%r11%s",
                      ops[f][0], ops[f][1], ops[f][2], f & 1 ? "@%p1 " : "", mn, so[0],
                      v->nega ? "-" : "", so[1], v->negb ? "-" : "", so[2]);
        n += snprintf(ptx + n, sizeof ptx - (size_t)n, "%s%s;\nst.global.u32 [%%rd3+%d], %%r13;\n",
                      three ? (v->negc ? ", -%r12" : ", %r12") : "", "", 128 * f);
    }
    snprintf(ptx + n, sizeof ptx - (size_t)n, "ret;\n}\n");
    run_u32(ptx, 32, out, NF * 32);
    for (int f = 0; f < NF; f++)
        for (uint32_t l = 0; l < 32; l++) {
            const vref *v = &forms[f];
            int three = vref_insns[v->insn].n > 1 || vref_insns[v->insn].op == VR_MAD || v->sec ||
                        v->dsel >= 0;
            uint32_t a = ops[f][0] ^ (l * 0x9e3779b1u), b = ops[f][1] ^ (l * 0x85ebca6bu),
                     c = ops[f][2] ^ (l * 0xc2b2ae35u);
            uint32_t want = (f & 1) && l >= 20 ? 0 : vref_eval(v, a, b, three ? c : 0);
            char mn[96], sel[3][8];
            vref_text(v, mn, sel);
            ck_assert_msg(out[f * 32 + l] == want,
                          "form %d %s d.%s a.%s b.%s lane %u: 0x%x, want 0x%x", f, mn, sel[0],
                          sel[1], sel[2], l, out[f * 32 + l], want);
        }
}
END_TEST

/* §9.7.13.4: mma.sync.aligned executed by half of a warp is a fault */
START_TEST(mma_partial_warp)
{
    load(HDR ".visible .entry k(.param .u64 out)\n{\n.reg .pred %p1;\n.reg .b32 %r<12>;\n"
         "mov.u32 %r1, %tid.x;\nsetp.lt.u32 %p1, %r1, 16;\nmov.b32 %r2, 0;\n"
         "@%p1 mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%r3,%r4,%r5,%r6}, {%r2,%r2}, "
         "{%r2}, {%r2,%r2,%r2,%r2};\nret;\n}\n");
    ptxeDevptr d;
    ptxeMemAlloc(C, &d, 4);
    ck_assert_int_eq(launch(1, 32, &d, 0), PTXE_ERROR_LAUNCH_FAILED);
    ck_assert_msg(strstr(ptxeGetErrorMessage(C), "expected all 32"), "%s", ptxeGetErrorMessage(C));
    done();
}
END_TEST

/* selectors and negations the loader refuses, with the operand's position */
START_TEST(video_reject)
{
    static const struct { const char *insn, *want; } cases[] = {
        { "vadd4.u32.u32.u32 %r1, %r2.b8210, %r3, %r4;", "t.ptx:7:26:" },
        { "vadd2.u32.u32.u32 %r1.h2, %r2, %r3, %r4;", ".h0, .h1 or .h10" },
        { "vadd.u32.u32.u32.add %r1.h0, %r2, %r3, %r4;", "merges into c" },
        { "vadd.u32.u32.u32 %r1, %r2.h10, %r3;", "selector .h10" },
        { "vadd.u32.u32.u32 %r1, -%r2, %r3;", "only the sources of vmad" },
        { "add.u32 %r1, -%r2, %r3;", "only vmad negates" },
        { "vmad.u32.u32.u32.po %r1, -%r2, %r3, %r4;", ".po" },
        { "vmad.u32.u32.u32 %r1, -%r2, %r3, -%r4;", "not both" },
        { "vadd.u32.u32.u32 %r1.h0, %r2, %r3;", "expected 4" },
        /* §9.7.13.4: forms of the matrix instructions that are not implemented or malformed */
        { "mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32 {%r1,%r2,%r3,%r4,%r5,%r6,%r7,%r1}, "
          "{%r1,%r2}, {%r1,%r2}, {%r1,%r2,%r3,%r4,%r5,%r6,%r7,%r1};", "not implemented" },
        { "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%r1,%r2,%r3,%r4}, {%r1,%r2}, "
          "{%r1,%r2}, {%r1,%r2,%r3,%r4};", "found 2 registers, expected 4" },
        { "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r1,%r2}, [%r3];", "expected 4" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char ptx[512];
        snprintf(ptx, sizeof ptx,
                 HDR ".visible .entry k()\n{\n.reg .b32 %%r<8>;\n  %s\n  ret;\n}\n", cases[i].insn);
        ck_assert_int_eq(try_load(ptx), PTXE_ERROR_INVALID_PTX);
        ck_assert_msg(strstr(ptxeGetErrorMessage(C), cases[i].want), "%s: %s", cases[i].insn,
                      ptxeGetErrorMessage(C));
        done();
    }
}
END_TEST

/* cp.async.bulk (§9.7.8.24.6): only the three directions with their completion mechanism, no
 * operation or type (a reduction is cp.reduce.async.bulk), .multicast::cluster only from .global */
START_TEST(bulk_reject)
{
    static const struct { const char *insn, *want; } cases[] = {
        { "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.add.f32 [%rd1], "
          "[%rd2], 16, [%rd3];", "found an operation or type" },
        { "cp.async.bulk.global.shared::cluster.bulk_group [%rd1], [%rd2], 16;",
          "found the direction" },
        { "cp.async.bulk.shared::cta.shared::cluster.mbarrier::complete_tx::bytes [%rd1], "
          "[%rd2], 16, [%rd3];", "found the direction" },
        { "cp.async.bulk.shared::cluster.global.bulk_group [%rd1], [%rd2], 16;",
          "without .mbarrier::complete_tx::bytes" },
        { "cp.async.bulk.global.shared::cta.mbarrier::complete_tx::bytes [%rd1], [%rd2], 16, "
          "[%rd3];", "without .bulk_group" },
        { "cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes"
          ".multicast::cluster [%rd1], [%rd2], 16, [%rd3], %rs1;", "only from .global" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char ptx[768];
        snprintf(ptx, sizeof ptx,
                 HDR ".visible .entry k()\n{\n.reg .b64 %%rd<4>;\n.reg .b16 %%rs<2>;\n  %s\n"
                 "  ret;\n}\n", cases[i].insn);
        ck_assert_int_eq(try_load(ptx), PTXE_ERROR_INVALID_PTX);
        ck_assert_msg(strstr(ptxeGetErrorMessage(C), cases[i].want), "%s: %s", cases[i].insn,
                      ptxeGetErrorMessage(C));
        ck_assert_msg(strstr(ptxeGetErrorMessage(C), "t.ptx:8:3:"), "%s", ptxeGetErrorMessage(C));
        done();
    }
}
END_TEST

START_TEST(misc_insns)
{
    unsigned out[32];
    run_u32(HDR PRO(16) "mov.u64 %rd4, %globaltimer;\nmov.u32 %r2, %clock;\n"
                        "prefetch.global.L2 [%rd3];\nprefetchu.L1 "
                        "[%rd3];\napplypriority.global.L2::evict_normal [%rd1], 128;\n"
                        "discard.global.L2 [%rd1], 128;\nnanosleep.u32 100;\npmevent "
                        "3;\npmevent.mask 8;\nmembar.gl;\nfence.acq_rel.gpu;\n"
                        "mov.u64 %rd5, %globaltimer;\nmov.u32 %r3, %clock;\n"
                        "setp.gt.u64 %p1, %rd5, %rd4;\nsetp.ne.u32 %p2, %r3, %r2;\nand.pred %p1, "
                        "%p1, %p2;\n"
                        "and.b32 %r4, %r1, 1;\nsetp.eq.u32 %p3, %r4, 1;\n@!%p3 bra E;\n"
                        "elect.sync %r5|%p4, 0xffffffff;\nbra J;\nE:\nmov.u32 %r5, 99;\nJ:\n"
                        "selp.u32 %r6, 0x100, 0, %p1;\nselp.u32 %r7, 0x1000, 0, %p4;\nadd.u32 %r5, "
                        "%r5, %r6;\nadd.u32 %r5, %r5, %r7;\n"
                        "st.global.u32 [%rd3], %r5;\nret;\n}\n",
            32, out, 32);
    for (unsigned t = 0; t < 32; t++)
        ck_assert_uint_eq(out[t], (t & 1) ? (1u + 0x100 + (t == 1 ? 0x1000u : 0)) : 99u + 0x100);
}
END_TEST

/* forms with no effect of their own or seldom emitted: ld.global.nc, ldu, createpolicy (0),
 * bar.warp.sync, the deprecated vote and shfl, griddepcontrol, stacksave/stackrestore,
 * mbarrier.inval, cp.async.bulk.prefetch and the bulk groups (copies complete when issued) */
START_TEST(misc_forms)
{
    unsigned out[32];
    run_u32(
        HDR PRO(
            16) ".shared .align 8 .b64 mb;\n"
                "st.global.u32 [%rd3], %r1;\nld.global.nc.u32 %r2, [%rd3];\nldu.global.u32 %r3, "
                "[%rd1];\n"
                "createpolicy.fractional.L2::evict_last.b64 %rd4, 1.0;\ncvt.u32.u64 %r4, %rd4;\n"
                "bar.warp.sync -1;\nsetp.lt.u32 %p1, %r1, 64;\nvote.ballot.b32 %r5, %p1;\n"
                "griddepcontrol.launch_dependents;\ngriddepcontrol.wait;\n"
                "stacksave.u64 %rd5;\nstackrestore.u64 %rd5;\n"
                "setp.eq.u32 %p2, %r1, 0;\n@%p2 mbarrier.init.shared.b64 [mb], 32;\n@%p2 "
                "mbarrier.inval.shared.b64 [mb];\n"
                "cp.async.bulk.prefetch.L2.global [%rd1], "
                "128;\ncp.async.bulk.commit_group;\ncp.async.bulk.wait_group 0;\n"
                "cp.async.bulk.wait_group.read 0;\n"
                "add.u32 %r6, %r2, %r3;\nadd.u32 %r6, %r6, %r4;\nsetp.eq.u32 %p3, %r5, "
                "-1;\nselp.u32 %r7, 0x1000, 0, %p3;\n"
                "shfl.idx.b32 %r8, %r1, 3, 31;\nadd.u32 %r6, %r6, %r8;\n" /* deprecated shfl: lane
                                                                             3's tid */
                "add.u32 %r6, %r6, %r7;\nst.global.u32 [%rd3], %r6;\nret;\n}\n",
        32, out, 32);
    for (unsigned t = 0; t < 32; t++) ck_assert_uint_eq(out[t], t + 3 + 0x1000);
}
END_TEST

/* ---------------------------------------------------------------- load-time rejection */
START_TEST(reject_syntax)
{
    ck_assert_int_eq(try_load(HDR ".visible .entry k()\n{\n  add.u32 %r1, , 2;\n}\n"),
                     PTXE_ERROR_INVALID_PTX);
    ck_assert_msg(strstr(ptxeGetErrorMessage(C), "t.ptx:6:16:") != NULL, "%s",
                  ptxeGetErrorMessage(C));
    ck_assert_msg(strstr(ptxeGetErrorMessage(C), "expected") != NULL, "%s", ptxeGetErrorMessage(C));
    done();
    ck_assert_int_eq(
        try_load(
            HDR
            ".visible .entry k()\n{\n.reg .b32 %r<3>;\n  frobnicate.u32 %r1, %r2;\n  ret;\n}\n"),
        PTXE_ERROR_INVALID_PTX);
    ck_assert_msg(strstr(ptxeGetErrorMessage(C), "t.ptx:7:3:") &&
                      strstr(ptxeGetErrorMessage(C), "frobnicate.u32 %r1, %r2"),
                  "%s", ptxeGetErrorMessage(C));
    done();
    ck_assert_int_eq(
        try_load(HDR ".visible .entry k()\n{\n.reg .b32 %r<3>;\n  add.u32 %r9, %r1, 1;\n}\n"),
        PTXE_ERROR_INVALID_PTX);
    ck_assert_msg(strstr(ptxeGetErrorMessage(C), "t.ptx:7:11:") &&
                      strstr(ptxeGetErrorMessage(C), "%r9"),
                  "%s", ptxeGetErrorMessage(C));
    done();
    ck_assert_int_eq(try_load(HDR ".visible .entry k()\n{\n  bra NOWHERE;\n}\n"),
                     PTXE_ERROR_INVALID_PTX);
    ck_assert_msg(strstr(ptxeGetErrorMessage(C), "NOWHERE") != NULL, "%s", ptxeGetErrorMessage(C));
    done();
    ck_assert_int_eq(
        try_load(".version 8.4\n.target sm_90\n.address_size 64\n.visible .entry k(\n"),
        PTXE_ERROR_INVALID_PTX);
    done();
}
END_TEST

/* ---------------------------------------------------------------- faults */
static const char *fault_of(const char *ptx, unsigned grid, unsigned block, size_t bytes,
                            uint64_t steps, ptxeResult want)
{
    load(ptx);
    ptxeDevptr d;
    ptxeMemAlloc(C, &d, bytes);
    ptxeResult r = launch(grid, block, &d, steps);
    ck_assert_msg(r == want, "got %s, want %s: %s", ptxeGetErrorName(r), ptxeGetErrorName(want),
                  ptxeGetErrorMessage(C));
    static char msg[2048];
    snprintf(msg, sizeof msg, "%s", ptxeGetErrorMessage(C));
    done();
    return msg;
}

START_TEST(fault_oob)
{
    const char *m = fault_of(HDR PRO(4) "st.global.u32 [%rd3], %r1;\nret;\n}\n", 1, 128, 100 * 4, 0,
                             PTXE_ERROR_LAUNCH_FAILED);
    ck_assert_msg(strstr(m, "out-of-bounds global store of 4 bytes") &&
                      strstr(m, "thread (100,0,0) of CTA (0,0,0)") && strstr(m, "t.ptx:") &&
                      strstr(m, "st.global.u32 [%rd3], %r1"),
                  "%s", m);
}
END_TEST

START_TEST(fault_misaligned)
{
    const char *m = fault_of(HDR PRO(4) "ld.global.u32 %r2, [%rd3+2];\nret;\n}\n", 1, 32, 1024, 0,
                             PTXE_ERROR_LAUNCH_FAILED);
    ck_assert_msg(strstr(m, "misaligned global load of 4 bytes"), "%s", m);
}
END_TEST

START_TEST(fault_generic_nowhere)
{
    const char *m = fault_of(HDR PRO(4) "mov.u64 %rd4, 4096;\nld.u32 %r2, [%rd4];\nret;\n}\n", 1,
                             32, 1024, 0, PTXE_ERROR_LAUNCH_FAILED);
    ck_assert_msg(strstr(m, "in no state space") && strstr(m, "0x1000"), "%s", m);
}
END_TEST

START_TEST(fault_trap_and_steps)
{
    const char *m = fault_of(HDR PRO(4) "setp.eq.u32 %p1, %r1, 5;\n@%p1 trap;\nret;\n}\n", 1, 32,
                             1024, 0, PTXE_ERROR_LAUNCH_FAILED);
    ck_assert_msg(strstr(m, "trap") && strstr(m, "thread (5,0,0)"), "%s", m);
    m = fault_of(HDR PRO(4) "L:\nbra L;\n}\n", 1, 32, 1024, 5000, PTXE_ERROR_LAUNCH_TIMEOUT);
    ck_assert_msg(strstr(m, "step limit of 5000"), "%s", m);
}
END_TEST

START_TEST(fault_barrier)
{
    /* warp 1 exits early but the barrier counts 64 threads: deadlock */
    const char *m =
        fault_of(HDR PRO(4) "setp.ge.u32 %p1, %r1, 32;\n@%p1 exit;\nbar.sync 0, 64;\nret;\n}\n", 1,
                 64, 1024, 0, PTXE_ERROR_LAUNCH_FAILED);
    ck_assert_msg(strstr(m, "barrier deadlock") && strstr(m, "32 of 64"), "%s", m);
    /* half a warp at one bar.sync, the other half at another: divergence */
    m = fault_of(HDR PRO(4) "setp.ge.u32 %p1, %r1, 16;\n@%p1 bra B;\nbar.sync 0;\nbra "
                            "E;\nB:\nbar.sync 0;\nE:\nret;\n}\n",
                 1, 32, 1024, 0, PTXE_ERROR_LAUNCH_FAILED);
    ck_assert_msg(strstr(m, "barrier divergence"), "%s", m);
}
END_TEST

/* ---------------------------------------------------------------- warp-synchronous rendezvous
 * §9.7.8.6 shfl.sync, §9.7.12.7-11 bar.warp.sync/vote/match/redux: on sm_70+ a lane waits until
 * every non-exited lane of membermask has executed the same kind of instruction with the same
 * qualifiers and membermask, not necessarily the same instruction.  Here even and odd lanes take
 * different branches and meet at different instructions; each lane uses its own operands. */
#define HDR80 ".version 8.4\n.target sm_80\n.address_size 64\n"
#define EVEN_ODD "and.b32 %r2, %r1, 1;\nsetp.ne.u32 %p1, %r2, 0;\n@%p1 bra ODD;\n"

/* (a) shfl.sync.idx across the two sides: even lanes read lane+1 (odd), odd lanes lane-1 (even);
 * the value read is the other lane's source operand at its own shfl (different registers) */
START_TEST(wsync_shfl_divergent)
{
    unsigned out[64];
    run_u32(HDR80 PRO(12) EVEN_ODD
            "add.u32 %r3, %r1, 1000;\nadd.u32 %r4, %r1, 1;\n"
            "shfl.sync.idx.b32 %r5|%p2, %r3, %r4, 31, -1;\n"
            "selp.u32 %r8, 0x100000, 0, %p2;\nadd.u32 %r5, %r5, %r8;\nbra DONE;\n"
            "ODD:\nmul.lo.u32 %r6, %r1, 100;\nsub.u32 %r7, %r1, 1;\n"
            "shfl.sync.idx.b32 %r5, %r6, %r7, 0x1f, 0xffffffff;\nadd.u32 %r5, %r5, 7000;\n"
            "DONE:\nst.global.u32 [%rd3], %r5;\nret;\n}\n", 64, out, 64);
    for (unsigned t = 0; t < 64; t++) {
        unsigned base = t & ~31u, l = t & 31;
        unsigned want = (l & 1) ? (base + ((l - 1) & 31)) + 1000 + 7000
                                : (base + ((l + 1) & 31)) * 100 + 0x100000;
        ck_assert_msg(out[t] == want, "thread %u: got %u want %u", t, out[t], want);
    }
    /* the odd side's shfl.sync inside a called function: a rendezvous across call depths */
    run_u32(HDR80 ".func (.param .b32 rv) oddf(.param .b32 a)\n{\n.reg .b32 %q<6>;\n"
                  "ld.param.b32 %q1, [a];\nmul.lo.u32 %q2, %q1, 100;\nsub.u32 %q3, %q1, 1;\n"
                  "shfl.sync.idx.b32 %q4, %q2, %q3, 31, -1;\nadd.u32 %q4, %q4, 7000;\nst.param.b32 "
                  "[rv], %q4;\nret;\n}\n" PRO(12) EVEN_ODD
            "add.u32 %r3, %r1, 1000;\nadd.u32 %r4, %r1, 1;\n"
            "shfl.sync.idx.b32 %r5, %r3, %r4, 31, -1;\nbra DONE;\n"
            "ODD:\n{\n.param .b32 p0;\n.param .b32 r0;\nst.param.b32 [p0], %r1;\n"
            "call (r0), oddf, (p0);\nld.param.b32 %r5, [r0];\n}\n"
            "DONE:\nst.global.u32 [%rd3], %r5;\nret;\n}\n",
            32, out, 32);
    for (unsigned l = 0; l < 32; l++) {
        unsigned want = (l & 1) ? (l - 1) + 1000 + 7000 : ((l + 1) & 31) * 100;
        ck_assert_msg(out[l] == want, "call: lane %u: got %u want %u", l, out[l], want);
    }
}
END_TEST

/* (b) vote.sync.ballot, redux.sync.add, match.sync.any and bar.warp.sync across the two sides */
START_TEST(wsync_vote_redux_divergent)
{
    unsigned out[96];
    run_u32(HDR80 PRO(12) EVEN_ODD
            "setp.lt.u32 %p2, %r1, 10;\nvote.sync.ballot.b32 %r5, %p2, -1;\n"
            "redux.sync.add.u32 %r6, %r1, -1;\n"
            "shr.u32 %r3, %r1, 2;\nmatch.any.sync.b32 %r9, %r3, -1;\n"
            "bar.warp.sync -1;\nbra DONE;\n"
            "ODD:\nsetp.gt.u32 %p3, %r1, 20;\nvote.sync.ballot.b32 %r5, %p3, -1;\n"
            "mul.lo.u32 %r7, %r1, 3;\nredux.sync.add.u32 %r6, %r7, -1;\n"
            "shr.u32 %r4, %r1, 2;\nmatch.any.sync.b32 %r9, %r4, 0xffffffff;\n"
            "bar.warp.sync 0xffffffff;\n"
            "DONE:\nst.global.u32 [%rd3], %r5;\nst.global.u32 [%rd3+128], %r6;\nst.global.u32 "
            "[%rd3+256], %r9;\nret;\n}\n",
            32, out, 96);
    unsigned ballot = 0, sum = 0;
    for (unsigned l = 0; l < 32; l++) {
        if ((l & 1) ? l > 20 : l < 10) ballot |= 1u << l;
        sum += (l & 1) ? 3 * l : l;
    }
    for (unsigned l = 0; l < 32; l++) {
        ck_assert_msg(out[l] == ballot, "ballot lane %u: got 0x%x want 0x%x", l, out[l], ballot);
        ck_assert_msg(out[32 + l] == sum, "redux lane %u: got %u want %u", l, out[32 + l], sum);
        ck_assert_msg(out[64 + l] == 0xfu << (l & ~3u), "match lane %u: got 0x%x", l, out[64 + l]);
    }
}
END_TEST

/* (c) exited lanes are not waited for ("all non-exited threads"): the odd lanes exit while the
 * even ones wait at shfl.sync/vote.sync with a full membermask */
START_TEST(wsync_exited_lanes)
{
    unsigned out[64];
    run_u32(HDR80 PRO(12)
            "st.global.u32 [%rd3], 77;\nst.global.u32 [%rd3+128], 77;\n" EVEN_ODD
            "xor.b32 %r4, %r1, 2;\nshfl.sync.idx.b32 %r5, %r1, %r4, 31, -1;\n"
            "setp.lt.u32 %p2, %r1, 100;\nvote.sync.ballot.b32 %r6, %p2, -1;\n"
            "st.global.u32 [%rd3], %r5;\nst.global.u32 [%rd3+128], %r6;\nret;\n"
            "ODD:\nmul.lo.u32 %r7, %r1, 3;\nexit;\n}\n", 32, out, 64);
    for (unsigned l = 0; l < 32; l++) {
        ck_assert_uint_eq(out[l], (l & 1) ? 77u : l ^ 2);
        ck_assert_uint_eq(out[32 + l], (l & 1) ? 77u : 0x55555555u);
    }
}
END_TEST

/* (c) a rendezvous that can never complete is a fault, not a hang */
START_TEST(wsync_deadlock_faults)
{
    static const struct { const char *body, *want;
    } cases[] = {
        /* the other side waits at an aligned bar.sync: barrier divergence */
        { EVEN_ODD "shfl.sync.idx.b32 %r5, %r1, 0, 31, -1;\nret;\nODD:\nbar.sync 0;\nret;\n}\n",
          "barrier divergence" },
        /* the other side waits at a non-aligned barrier (never complete: the even lanes do not
           arrive) */
        { EVEN_ODD "shfl.sync.idx.b32 %r5, %r1, 0, 31, -1;\nret;\nODD:\nbarrier.sync 0;\nret;\n}\n",
          "warp-synchronous deadlock: lanes 0x55555555 wait here for lanes 0xaaaaaaaa of "
          "membermask 0xffffffff; lane 1 waits at a barrier" },
        /* a different kind of warp-synchronous instruction on the other side */
        { EVEN_ODD "shfl.sync.idx.b32 %r5, %r1, 0, 31, -1;\nret;\nODD:\nvote.sync.ballot.b32 %r5, "
                   "%p1, -1;\nret;\n}\n",
          "warp-synchronous deadlock: lanes 0x55555555 wait here for lanes 0xaaaaaaaa" },
        /* same kind, other qualifiers (.bfly vs .idx) */
        { EVEN_ODD "shfl.sync.idx.b32 %r5, %r1, 0, 31, -1;\nret;\nODD:\nshfl.sync.bfly.b32 %r5, "
                   "%r1, 1, 31, -1;\nret;\n}\n",
          "of another kind, qualifiers or membermask" },
        /* same instruction kind, other membermask: odd lanes' 0xaaaaaaaa completes, the even ones
         * wait for the odd lanes, which end at a redux.sync with the full mask (another kind) */
        { EVEN_ODD "shfl.sync.idx.b32 %r5, %r1, 0, 31, -1;\nret;\nODD:\nshfl.sync.idx.b32 %r5, "
                   "%r1, 1, 31, 0xaaaaaaaa;\nredux.sync.add.u32 %r6, %r1, -1;\nret;\n}\n",
          "lane 1 waits at a warp-synchronous instruction" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char ptx[2048];
        snprintf(ptx, sizeof ptx, "%s%s", HDR80 PRO(12), cases[i].body);
        const char *m = fault_of(ptx, 1, 64, 256, 1000000, PTXE_ERROR_LAUNCH_FAILED);
        ck_assert_msg(strstr(m, cases[i].want) && strstr(m, "at t.ptx:"), "case %zu: %s", i, m);
    }
}
END_TEST

/* (d) nvcc's code for __shfl_sync / __ballot_sync / __reduce_add_sync on both sides of an
 * if/else (tests/kernels/warpsync.cu): one instruction per side, register membermasks */
static void run_file_u32(const char *file, const char *kernel, unsigned k, unsigned block,
                         unsigned *out, int n)
{
    FILE *fp = fopen(file, "rb");
    ck_assert_msg(fp != NULL, "cannot open %s", file);
    static char buf[1 << 16];
    size_t len = fread(buf, 1, sizeof buf - 1, fp);
    fclose(fp);
    buf[len] = 0;
    if (C) ptxeCtxDestroy(C);
    ptxeCtxCreate(&C);
    ck_assert_msg(ptxeModuleLoadData(C, &M, buf, len, file) == PTXE_SUCCESS, "%s",
                  ptxeGetErrorMessage(C));
    ck_assert_int_eq(ptxeModuleGetFunction(&F, M, kernel), PTXE_SUCCESS);
    ptxeDevptr d;
    ptxeMemAlloc(C, &d, (size_t)n * 4);
    ptxeLaunchConfig cfg = { { 1, 1, 1 }, { block, 1, 1 },       { 0, 0, 0 }, 0, 0,
                             0,           PTXE_SCHEDULE_DEFAULT, 0,           0 };
    void *args[] = { &d, &k };
    ptxeResult r = ptxeLaunchKernel(F, &cfg, args);
    ck_assert_msg(r == PTXE_SUCCESS, "%s", ptxeGetErrorMessage(C));
    ptxeMemcpyDtoH(C, out, d, (size_t)n * 4);
    done();
}

START_TEST(wsync_nvcc_divergent)
{
    unsigned out[64];
    run_file_u32("tests/kernels/warpsync.ptx", "shfl_diverge", 3, 32, out, 32);
    for (unsigned t = 0; t < 32; t++) {
        unsigned want = (t & 1) ? (t - 1) * 3 + 1000 + 7000 : ((t + 1) & 31) * 100;
        ck_assert_msg(out[t] == want, "shfl_diverge lane %u: got %u want %u", t, out[t], want);
    }
    run_file_u32("tests/kernels/warpsync.ptx", "vote_diverge", 5, 32, out, 64);
    unsigned ballot = 0, sum = 0;
    for (unsigned t = 0; t < 32; t++) {
        if (t % 3 == 0 ? t < 5 : t > 10) ballot |= 1u << t;
        sum += t % 3 == 0 ? t : 3 * t;
    }
    for (unsigned t = 0; t < 32; t++) {
        ck_assert_msg(out[t] == (t % 3 == 0 ? ballot : ballot ^ 0x80000000u),
                      "ballot lane %u: got 0x%x want 0x%x", t, out[t], ballot);
        ck_assert_msg(out[32 + t] == (t % 3 == 0 ? sum : sum + 1), "reduce lane %u: got %u want %u",
                      t, out[32 + t], sum);
    }
}
END_TEST

/* every remaining fault kind: the report names the fault, the thread and the PTX line */
static const struct {
    const char *name, *body, *want;
    unsigned grid, block, cluster;
} fault_cases[] = {
    { "const write",
      ".const .align 4 .b32 cv[4];\n" PRO(
          8) "mov.u64 %rd4, cv;\ncvta.const.u64 %rd4, %rd4;\nst.u32 [%rd4], 1;\nret;\n}\n",
      "store to const space", 1, 32, 0 },
    { "kernel param write", PRO(8) "st.param.u64 [out], %rd1;\nret;\n}\n",
      "store to kernel parameter space", 1, 32, 0 },
    { "barrier id", PRO(8) "mov.u32 %r2, 16;\nbar.sync %r2;\nret;\n}\n",
      "barrier id 16 out of range", 1, 32, 0 },
    { "barrier count", PRO(8) "bar.sync 0, 48;\nret;\n}\n", "barrier thread count 48", 1, 64, 0 },
    { "membermask", PRO(8) "shfl.sync.idx.b32 %r2, %r1, 0, 31, 0xfffffffe;\nret;\n}\n",
      "not in membermask 0xfffffffe", 1, 32, 0 },
    { "indirect call",
      PRO(8) "mov.u64 %rd4, 12345;\n{\nprot: .callprototype _ ();\ncall %rd4, prot;\n}\nret;\n}\n",
      "indirect call to address 0x3039", 1, 32, 0 },
    { "call depth", ".func f()\n{\ncall f, ();\nret;\n}\n" PRO(8) "call f, ();\nret;\n}\n",
      "call stack overflow", 1, 1, 0 },
    { "alloca", PRO(8) "alloca.u64 %rd4, 5000000;\nret;\n}\n", "overflows the 1048576-byte stack",
      1, 1, 0 },
    { "brkpt", PRO(8) "setp.eq.u32 %p1, %r1, 3;\n@%p1 brkpt;\nret;\n}\n",
      "brkpt instruction executed", 1, 32, 0 },
    { "brx.idx range", PRO(8) "t: .branchtargets A, B;\nbrx.idx %r1, t;\nA:\nret;\nB:\nret;\n}\n",
      "brx.idx index 2 is outside the 2-entry target list", 1, 32, 0 },
    { "mapa rank",
      ".shared .b32 x;\n" PRO(
          8) "mov.u32 %r2, x;\nmapa.shared::cluster.u32 %r3, %r2, 5;\nret;\n}\n",
      "mapa to CTA rank 5, the cluster has 2 CTAs", 2, 32, 2 },
    { "shared::cta remote",
      ".shared .b32 x;\n" PRO(
          8) "mov.u32 %r2, x;\nmov.u32 %r4, %cluster_ctarank;\nxor.b32 %r4, %r4, 1;\n"
             "mapa.shared::cluster.u32 %r3, %r2, %r4;\nld.shared.u32 %r5, [%r3];\nret;\n}\n",
      "is in the shared memory of CTA rank 1, not the executing CTA (rank 0)", 2, 32, 2 },
    { "exited CTA",
      ".shared .b32 x;\n" PRO(8) "mov.u32 %r4, %cluster_ctarank;\nsetp.ne.u32 %p1, %r4, 0;\n@%p1 "
                                 "exit;\nnanosleep.u32 1000;\n"
                                 "mov.u32 %r2, x;\nmapa.shared::cluster.u32 %r3, %r2, "
                                 "1;\nld.shared::cluster.u32 %r5, [%r3];\nret;\n}\n",
      "in the shared memory of CTA rank 1, which has exited", 2, 32, 2 },
    { "cluster wait", PRO(8) "barrier.cluster.wait;\nret;\n}\n",
      "barrier.cluster.wait without a preceding barrier.cluster.arrive", 2, 32, 2 },
    { "cluster deadlock",
      PRO(8) "mov.u32 %r4, %cluster_ctarank;\nsetp.ne.u32 %p1, %r4, 0;\nsetp.lt.u32 %p2, %r1, "
             "32;\nand.pred %p1, %p1, %p2;\n@%p1 bra S;\n"
             "barrier.cluster.arrive;\nbarrier.cluster.wait;\nret;\nS:\nbar.sync 0;\nret;\n}\n",
      "cluster barrier deadlock: 96 of 128 threads of the cluster arrived", 2, 64, 2 },
    { "cluster arrive twice", PRO(8) "barrier.cluster.arrive;\nbarrier.cluster.arrive;\nret;\n}\n",
      "already arrived in this phase", 2, 32, 2 },
    { "mbarrier uninit",
      ".shared .align 8 .b64 mb;\n" PRO(8) "mbarrier.arrive.shared.b64 %rd4, [mb];\nret;\n}\n",
      "mbarrier.arrive on an uninitialised mbarrier object", 1, 32, 0 },
    { "mbarrier count",
      ".shared .align 8 .b64 mb;\n" PRO(
          8) "mbarrier.init.shared.b64 [mb], 1;\nmbarrier.arrive.shared.b64 %rd4, [mb], "
             "2;\nret;\n}\n",
      "exceeds the pending arrival count 1", 1, 1, 0 },
    { "mbarrier global", PRO(8) "mbarrier.init.b64 [%rd1], 1;\nret;\n}\n",
      "which is not in shared memory", 1, 1, 0 },
    { "mbarrier remote wait",
      ".shared .align 8 .b64 mb;\n" PRO(
          8) "mov.u64 %rd4, mb;\ncvta.shared.u64 %rd4, %rd4;\nmapa.u64 %rd5, %rd4, "
             "1;\nmbarrier.test_wait.parity.b64 %p1, [%rd5], 0;\nret;\n}\n",
      "only arrive, expect_tx and complete_tx", 2, 1, 2 },
    { "cp.async src-size",
      ".shared .align 16 .b8 d[16];\n" PRO(
          8) "mov.u32 %r2, 9;\ncp.async.ca.shared.global [d], [%rd1], 8, %r2;\nret;\n}\n",
      "src-size 9 is larger than cp-size 8", 1, 1, 0 },
    { "bulk size",
      ".shared .align 16 .b8 d[64];\n.shared .align 8 .b64 mb;\n" PRO(
          8) "mbarrier.init.shared.b64 [mb], "
             "1;\ncp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [d], [%rd1], "
             "24, [mb];\nret;\n}\n",
      "cp.async.bulk size 24 is not a multiple of 16", 1, 1, 0 },
};

START_TEST(fault_kinds)
{
    for (size_t i = 0; i < sizeof fault_cases / sizeof fault_cases[0]; i++) {
        char ptx[4096];
        snprintf(ptx, sizeof ptx, HDR "%s", fault_cases[i].body);
        load(ptx);
        ptxeDevptr d;
        ptxeMemAlloc(C, &d, 4096);
        ptxeResult r =
            launch_cl(fault_cases[i].grid, fault_cases[i].block, fault_cases[i].cluster, &d);
        const char *m = ptxeGetErrorMessage(C);
        ck_assert_msg(r == PTXE_ERROR_LAUNCH_FAILED, "%s: got %s: %s", fault_cases[i].name,
                      ptxeGetErrorName(r), m);
        ck_assert_msg(strstr(m, fault_cases[i].want) && strstr(m, "fault: ") &&
                          strstr(m, "at t.ptx:"),
                      "%s: %s", fault_cases[i].name, m);
        done();
    }
}
END_TEST

/* load-time rejections of the newer forms */
START_TEST(reject_forms)
{
    ck_assert_int_eq(
        try_load(HDR ".visible .entry k()\n{\n.reg .b32 %r<3>;\n  brx.idx %r1, nolist;\n}\n"),
        PTXE_ERROR_INVALID_PTX);
    ck_assert_msg(strstr(ptxeGetErrorMessage(C), "t.ptx:7:16:") &&
                      strstr(ptxeGetErrorMessage(C), ".branchtargets"),
                  "%s", ptxeGetErrorMessage(C));
    done();
    ck_assert_int_eq(try_load(HDR ".func f(.reg .b32 a)\n{\nret;\n}\n.visible .entry "
                                  "k()\n{\n.param .b32 p;\n  call f, (p);\n}\n"),
                     PTXE_ERROR_INVALID_PTX);
    ck_assert_msg(strstr(ptxeGetErrorMessage(C), "t.ptx:11:3:") &&
                      strstr(ptxeGetErrorMessage(C), "declared .reg"),
                  "%s", ptxeGetErrorMessage(C));
    done();
    ck_assert_int_eq(try_load(HDR ".visible .entry k(.reg .b32 a)\n{\nret;\n}\n"),
                     PTXE_ERROR_INVALID_PTX);
    done();
    ck_assert_int_eq(try_load(HDR ".visible .entry k(.param .u64 o)\n{\n.reg .b64 %rd<3>;\n  "
                                  "atom.global.v2.f32.exch {%rd1, %rd2}, [o], {%rd1, %rd2};\n}\n"),
                     PTXE_ERROR_INVALID_PTX);
    done();
    ck_assert_int_eq(try_load(HDR ".visible .entry k(.param .u64 o)\n{\n.reg .b64 %rd<3>;\n  "
                                  "mbarrier.arrive.shared::cluster.b64 %rd1, [o];\n}\n"),
                     PTXE_ERROR_INVALID_PTX);
    ck_assert_msg(strstr(ptxeGetErrorMessage(C), "expected '_'"), "%s", ptxeGetErrorMessage(C));
    done();
    ck_assert_int_eq(try_load(HDR ".visible .entry k(.param .u64 o)\n{\n.reg .pred %p;\n  "
                                  "mbarrier.try_wait.shared::cluster.b64 %p, [o], 0;\n}\n"),
                     PTXE_ERROR_INVALID_PTX);
    ck_assert_msg(strstr(ptxeGetErrorMessage(C), "expected .shared::cta"), "%s",
                  ptxeGetErrorMessage(C));
    done();
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
    ptxeLaunchConfig cfg = { { 1, 1, 1 }, { 2048, 1, 1 },        { 0, 0, 0 }, 0, 0,
                             0,           PTXE_SCHEDULE_DEFAULT, 0,           0 };
    void *args[] = { &d };
    ck_assert_int_eq(ptxeLaunchKernel(F, &cfg, args), PTXE_ERROR_INVALID_VALUE);
    ck_assert_int_eq(ptxeModuleGetFunction(&F, M, "nope"), PTXE_ERROR_NOT_FOUND);
    ck_assert_str_eq(ptxeGetErrorName(PTXE_ERROR_LAUNCH_FAILED), "PTXE_ERROR_LAUNCH_FAILED");
    ck_assert_int_eq(ptxeMemFree(C, d), PTXE_SUCCESS);
    ck_assert_int_eq(ptxeMemcpyDtoH(C, buf, d, 4), PTXE_ERROR_INVALID_ADDRESS);
    done();
}
END_TEST

START_TEST(device_memory_limit)
{
    /* the context's device-memory limit (run --max-memory): allocations beyond it fail,
       freeing gives the bytes back */
    ptxeCtx *ctx;
    ck_assert_int_eq(ptxeCtxCreate(&ctx), PTXE_SUCCESS);
    ck_assert_int_eq(ptxeCtxSetMemoryLimit(ctx, 1000), PTXE_SUCCESS);
    ptxeDevptr a, b;
    ck_assert_int_eq(ptxeMemAlloc(ctx, &a, 600), PTXE_SUCCESS);
    ck_assert_int_eq(ptxeCtxGetMemoryUsed(ctx), 600);
    ck_assert_int_eq(ptxeMemAlloc(ctx, &b, 600), PTXE_ERROR_OUT_OF_MEMORY);
    ck_assert_int_eq(ptxeMemFree(ctx, a), PTXE_SUCCESS);
    ck_assert_int_eq(ptxeCtxGetMemoryUsed(ctx), 0);
    ck_assert_int_eq(ptxeMemAlloc(ctx, &b, 600), PTXE_SUCCESS);
    ck_assert_int_eq(ptxeCtxSetMemoryLimit(ctx, 0), PTXE_ERROR_INVALID_VALUE);
    ptxeCtxDestroy(ctx);
}
END_TEST

static void add_tests(TCase *tc)
{
    tcase_add_test(tc, shfl_modes);
    tcase_add_test(tc, device_memory_limit);
    tcase_add_test(tc, vote_bar_red);
    tcase_add_test(tc, carry_chain);
    tcase_add_test(tc, ld_sext_cvta);
    tcase_add_test(tc, named_barrier);
    tcase_add_test(tc, call_params_exit);
    tcase_add_test(tc, special_regs);
    tcase_add_test(tc, shared_cluster);
    tcase_add_test(tc, cluster_sregs);
    tcase_add_test(tc, brx_idx);
    tcase_add_test(tc, address_size_32);
    tcase_add_test(tc, reg_params);
    tcase_add_test(tc, mbarrier_ops);
    tcase_add_test(tc, vector_atom_redux_f32);
    tcase_add_test(tc, misc_insns);
    tcase_add_test(tc, video_vabsdiff4);
    tcase_add_test(tc, video_selectors_exec);
    tcase_add_test(tc, video_reject);
    tcase_add_test(tc, bulk_reject);
    tcase_add_test(tc, mma_partial_warp);
    tcase_add_test(tc, misc_forms);
    tcase_add_test(tc, reject_syntax);
    tcase_add_test(tc, fault_oob);
    tcase_add_test(tc, fault_misaligned);
    tcase_add_test(tc, fault_generic_nowhere);
    tcase_add_test(tc, fault_trap_and_steps);
    tcase_add_test(tc, fault_barrier);
    tcase_add_test(tc, fault_kinds);
    tcase_add_test(tc, wsync_shfl_divergent);
    tcase_add_test(tc, wsync_vote_redux_divergent);
    tcase_add_test(tc, wsync_exited_lanes);
    tcase_add_test(tc, wsync_deadlock_faults);
    tcase_add_test(tc, wsync_nvcc_divergent);
    tcase_add_test(tc, reject_forms);
    tcase_add_test(tc, api_errors);
}

#include "check_main.h"
