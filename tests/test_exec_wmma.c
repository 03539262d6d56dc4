/* tests/test_exec_wmma.c — the executor's wmma.load / wmma.store / wmma.mma (ISA 8.4 §9.7.13.3,
 * exec/wmma.c): the CUDA kernels of tests/kernels/wmma.cu (nvcuda::wmma; every shape and type,
 * row and column layouts, strides, global and shared fragments, .satfinite, .xor/.and.popc) on
 * the cases of tests/wmma_ref.h, compared bit for bit with its C reference (and with outputs a
 * GPU recorded, tests/kernels/gpu/wmma.bin, where that file exists); hand-written PTX for the
 * explicit state spaces, the stride operand, fragment manipulation (§9.7.13.3.1), the faults and
 * the forms the loader refuses. */
#include <fenv.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <check.h>
#include "tests/exec_harness.h"
#include "tests/wmma_ref.h"

/* ------------------------------------------------------------------ wmma.cu */

/* one case: D from the executor into got (w->cbytes bytes) */
static void run_case(const wref_case *w, uint8_t *got)
{
    hx_function(w->kn->name);
    ptxeDevptr da = dev(w->ma, w->abytes), db = dev(w->mb, w->bbytes), dc = dev(w->mc, w->cbytes),
               dd = dev(w->mc, w->cbytes);
    int lda = w->lda, ldb = w->ldb, ldc = w->ldc, flags = w->flags;
    void *args[] = { &da, &db, &dc, &dd, &lda, &ldb, &ldc, &flags };
    ptxeResult r = launch(1, 32, args);
    ck_assert_msg(r == PTXE_SUCCESS, "%s flags %d: %s: %s", w->kn->name, flags,
                  ptxeGetErrorName(r), ptxeGetErrorMessage(C));
    get(got, dd, w->cbytes);
    evidence_kernel(F, "kernels/wmma.ptx");
}

/* the first differing element of D, for the message */
static void report(const wref_case *w, const uint8_t *got, const uint8_t *want, const char *what)
{
    for (size_t i = 0; i < w->cbytes; i++)
        if (got[i] != want[i])
            ck_abort_msg("%s flags %d lda %d ldb %d ldc %d: D byte %zu is 0x%02x, %s 0x%02x",
                         w->kn->name, w->flags, w->lda, w->ldb, w->ldc, i, got[i], what, want[i]);
}

/* every case of tests/wmma_ref.h with the checks `checks` (PTXE_CHECK_*) on: the same D, and
 * no finding on these correct kernels */
static void run_all(unsigned checks)
{
    hx_checks = checks;
    hx_load("wmma.ptx", NULL);
    /* outputs recorded on a GPU by tests/kernels/record_gpu.sh: every case's D in order */
    FILE *g = gpu_open("wmma.bin");
    int ncases = 0;
    for (int ki = 0; ki < WREF_NKERNELS; ki++)
        for (int vi = 0; vi < WREF_NVARIANTS; vi++) {
            wref_case w;
            if (!wref_make(ki, vi, &w)) continue;
            uint8_t *got = malloc(w.cbytes), *rec = malloc(w.cbytes);
            run_case(&w, got);
            int nf = ptxeGetFindingCount(C);
            ck_assert_msg(nf == 0, "%s: %d finding(s), the first:\n%s", w.kn->name, nf,
                          nf ? ptxeGetFinding(C, 0)->report : "");
            if (memcmp(got, w.md, w.cbytes)) report(&w, got, w.md, "want");
            if (g) {
                ck_assert_uint_eq(fread(rec, 1, w.cbytes, g), w.cbytes);
                if (memcmp(got, rec, w.cbytes)) report(&w, got, rec, "the GPU gave");
            }
            free(got), free(rec);
            wref_free(&w);
            ncases++;
        }
    if (g) fclose(g);
    ck_assert_int_eq(ncases, WREF_NKERNELS * 3 + 9 * 2);   /* 9 integer kernels: 3 and 4 too */
    done();
}

START_TEST(wmma_kernels) { run_all(0); }
END_TEST

/* memcheck, racecheck (wmma.load/store are weak accesses, §9.7.13.3.3), synccheck, initcheck */
START_TEST(wmma_kernels_checked) { run_all(PTXE_CHECK_ALL); }
END_TEST

/* ------------------------------------------------------------------ hand-written PTX */

#define HDR ".version 8.4\n.target sm_90\n.address_size 64\n"

static void load_text(const char *ptx)
{
    ptxeResult r = hx_load_text(ptx, "t.ptx", 0);
    ck_assert_msg(r == PTXE_SUCCESS, "%s", ptxeGetErrorMessage(C));
    hx_function(NULL);
    evidence_module(M, "test_exec_wmma.c");
}

/* k(out, in): A, B (16x16 .f16, row / col) and C (16x16 .f32, row) at in, 512 + 512 + 1024
 * bytes, staged through .shared; wmma.load.*.shared with an explicit stride, C scaled by 2 in its
 * fragment registers (§9.7.13.3.1, "Manipulating fragment contents"), D stored with
 * wmma.store.d.global (ISA order of qualifiers: shape before layout, as §9.7.13.3.3's examples) */
static const char ptx_spaces[] =
    HDR ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
    ".reg .b32 %r<40>;\n.reg .f32 %f<8>;\n.reg .b64 %rd<8>;\n.reg .pred %p<2>;\n"
    ".shared .align 32 .b8 sm[2048];\n"
    "ld.param.u64 %rd1, [out];\nld.param.u64 %rd2, [in];\n"
    "mov.u32 %r1, %tid.x;\nmov.u32 %r2, sm;\n"
    "LOOP:\nmul.wide.u32 %rd3, %r1, 4;\nadd.s64 %rd4, %rd2, %rd3;\nld.global.u32 %r3, [%rd4];\n"
    "shl.b32 %r4, %r1, 2;\nadd.u32 %r5, %r2, %r4;\nst.shared.u32 [%r5], %r3;\n"
    "add.u32 %r1, %r1, 32;\nsetp.lt.u32 %p1, %r1, 512;\n@%p1 bra LOOP;\nbar.warp.sync -1;\n"
    "mov.u32 %r6, 16;\n"
    "wmma.load.a.sync.aligned.m16n16k16.row.shared.f16 {%r8,%r9,%r10,%r11,%r12,%r13,%r14,%r15},"
    " [sm], %r6;\n"
    "wmma.load.b.sync.aligned.col.m16n16k16.shared::cta.f16 "
    "{%r16,%r17,%r18,%r19,%r20,%r21,%r22,%r23}, [sm+512];\n"
    "wmma.load.c.sync.aligned.row.m16n16k16.shared.f32 {%r24,%r25,%r26,%r27,%r28,%r29,%r30,%r31},"
    " [%r2+1024], 16;\n"
    "add.f32 %r24, %r24, %r24;\nadd.f32 %r25, %r25, %r25;\nadd.f32 %r26, %r26, %r26;\n"
    "add.f32 %r27, %r27, %r27;\nadd.f32 %r28, %r28, %r28;\nadd.f32 %r29, %r29, %r29;\n"
    "add.f32 %r30, %r30, %r30;\nadd.f32 %r31, %r31, %r31;\n"
    "wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32 {%r24,%r25,%r26,%r27,%r28,%r29,%r30,%r31}, "
    "{%r8,%r9,%r10,%r11,%r12,%r13,%r14,%r15}, {%r16,%r17,%r18,%r19,%r20,%r21,%r22,%r23}, "
    "{%r24,%r25,%r26,%r27,%r28,%r29,%r30,%r31};\n"
    "mov.u32 %r7, 24;\n"
    "wmma.store.d.sync.aligned.m16n16k16.global.col.f32 [%rd1], "
    "{%r24,%r25,%r26,%r27,%r28,%r29,%r30,%r31}, %r7;\nret;\n}\n";

START_TEST(wmma_spaces_stride_scale)
{
    enum { LD = 24 };   /* D column-major with 24 floats per column */
    uint16_t ab[512];
    float c[256], out[16 * LD], want[16 * LD];
    int a[256], b[256];
    uint64_t s = 7;
    for (int i = 0; i < 256; i++) {
        a[i] = (int)wref_input(WR_F16, &s), b[i] = (int)wref_input(WR_F16, &s);
        ab[i] = (uint16_t)wref_enc(WR_F16, a[i]);               /* A[i/16][i%16] */
        ab[256 + i] = (uint16_t)wref_enc(WR_F16, b[i]);         /* B column-major: B[i%16][i/16] */
        c[i] = (float)((int)(wref_rnd(&s) % 101) - 50);
    }
    for (int i = 0; i < 16 * LD; i++) out[i] = want[i] = -1.5f;
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 16; j++) {
            int acc = 2 * (int)c[i * 16 + j];
            for (int q = 0; q < 16; q++) acc += a[i * 16 + q] * b[j * 16 + q];
            want[j * LD + i] = (float)acc;
        }
    unsigned char in[2048];
    memcpy(in, ab, 1024), memcpy(in + 1024, c, 1024);
    load_text(ptx_spaces);
    ptxeDevptr dout = dev(out, sizeof out), din = dev(in, sizeof in);
    void *args[] = { &dout, &din };
    ptxeResult r = launch(1, 32, args);
    ck_assert_msg(r == PTXE_SUCCESS, "%s", ptxeGetErrorMessage(C));
    get(out, dout, sizeof out);
    for (int i = 0; i < 16 * LD; i++)
        ck_assert_msg(out[i] == want[i], "D[%d] = %g, want %g", i, out[i], want[i]);
    done();
}
END_TEST

/* .f64 with each rounding mode of §9.7.13.3.5 (.rn default, .rz, .rm, .rp, .rn written): the ISA
 * says how the result is rounded, not in what order the four products are accumulated; the
 * executor (exec/mma.c) documents a chain of fused multiply-adds in k order starting from c,
 * each rounded in the mode, and the C reference does the same.  A is read in %fd registers
 * whose low halves matter (inputs with full 53-bit mantissas). */
static const char ptx_f64[] =
    HDR ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
    ".reg .f64 %fd<8>;\n.reg .b64 %rd<4>;\n"
    "ld.param.u64 %rd1, [out];\nld.param.u64 %rd2, [in];\n"
    "wmma.load.a.sync.aligned.row.m8n8k4.global.f64 {%fd1}, [%rd2];\n"
    "wmma.load.b.sync.aligned.col.m8n8k4.global.f64 {%fd2}, [%rd2+256];\n"
    "wmma.load.c.sync.aligned.row.m8n8k4.global.f64 {%fd3,%fd4}, [%rd2+512];\n"
#define F64_MMA(RND, OFF)                                                                         \
    "wmma.mma.sync.aligned.row.col.m8n8k4" RND ".f64.f64.f64.f64 {%fd5,%fd6}, {%fd1}, {%fd2}, "   \
    "{%fd3,%fd4};\nwmma.store.d.sync.aligned.row.m8n8k4.global.f64 [%rd1+" OFF "], {%fd5,%fd6};\n"
    F64_MMA("", "0") F64_MMA(".rz", "512") F64_MMA(".rm", "1024") F64_MMA(".rp", "1536")
    F64_MMA(".rn", "2048") "ret;\n}\n";

START_TEST(wmma_f64_rounding)
{
    static const int modes[5] = { FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD,
                                  FE_TONEAREST };
    double in[128], out[5][64], want[5][64];
    uint64_t s = 99;
    for (int i = 0; i < 128; i++)   /* A[i/4][i%4], B[i%4][(i-32)/4] (column-major), C */
        in[i] = ((int)(wref_rnd(&s) % 2) ? -1 : 1) * (1.0 + wref_rnd(&s) * 0x1p-32 +
                                                       wref_rnd(&s) * 0x1p-53);
    for (int m = 0; m < 5; m++)
        for (int i = 0; i < 8; i++)
            for (int j = 0; j < 8; j++) {
                fesetround(modes[m]);
                double acc = in[64 + i * 8 + j];
                for (int k = 0; k < 4; k++) acc = fma(in[i * 4 + k], in[32 + j * 4 + k], acc);
                fesetround(FE_TONEAREST);
                want[m][i * 8 + j] = acc;
            }
    load_text(ptx_f64);
    ptxeDevptr dout = dev(NULL, sizeof out), din = dev(in, sizeof in);
    void *args[] = { &dout, &din };
    ptxeResult r = launch(1, 32, args);
    ck_assert_msg(r == PTXE_SUCCESS, "%s", ptxeGetErrorMessage(C));
    get(out, dout, sizeof out);
    int differ = 0;
    for (int m = 0; m < 5; m++)
        for (int i = 0; i < 64; i++) {
            ck_assert_msg(!memcmp(&out[m][i], &want[m][i], 8), "mode %d D[%d] = %a, want %a", m,
                          i, out[m][i], want[m][i]);
            ck_assert(out[2][i] <= out[0][i] && out[0][i] <= out[3][i]);   /* rm <= rn <= rp */
            differ += out[1][i] != out[0][i];
        }
    ck_assert_int_gt(differ, 0);   /* .rz is not .rn on some element */
    done();
}
END_TEST

/* A kernel k(.param .u64 out) of one wmma.load.c .f32 m16n16k16 with the given address and
 * stride operands, after `pre` (which may set %r1 = %tid.x based values). */
static ptxeResult run_load(const char *pre, const char *addr, unsigned block)
{
    char ptx[2048];
    snprintf(ptx, sizeof ptx,
             HDR ".visible .entry k(.param .u64 out)\n{\n.reg .b32 %%r<20>;\n.reg .b64 %%rd<8>;\n"
                 ".reg .pred %%p<2>;\nld.param.u64 %%rd1, [out];\nmov.u32 %%r1, %%tid.x;\n%s"
                 "wmma.load.c.sync.aligned.row.m16n16k16.global.f32 "
                 "{%%r2,%%r3,%%r4,%%r5,%%r6,%%r7,%%r8,%%r9}, %s;\nret;\n}\n",
             pre, addr);
    load_text(ptx);
    ptxeDevptr d = dev(NULL, 4096);
    void *args[] = { &d };
    return launch(1, block, args);
}

/* Faults where §9.7.13.3.2-3 leave the behaviour undefined, and a partial warp (.aligned) */
START_TEST(wmma_faults)
{
    static const struct { const char *pre, *addr; unsigned block; const char *want; } cases[] = {
        { "", "[%rd1+16]", 32, "not a multiple of the fragment size" },
        { "", "[%rd1], 8", 32, "stride 8 is below the leading dimension 16" },
        { "mul.wide.u32 %rd2, %r1, 32;\nadd.s64 %rd1, %rd1, %rd2;\n", "[%rd1]", 32,
          "another address or stride" },
        { "", "[%rd1], %r1", 32, "another address or stride" },
        { "", "[%rd1]", 16, "expected all 32" },
        { "", "[%rd1], 256", 32, "out-of-bounds global wmma.load" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ptxeResult r = run_load(cases[i].pre, cases[i].addr, cases[i].block);
        ck_assert_msg(r == PTXE_ERROR_LAUNCH_FAILED, "case %zu: %s", i, ptxeGetErrorName(r));
        ck_assert_msg(strstr(ptxeGetErrorMessage(C), cases[i].want), "case %zu: %s", i,
                      ptxeGetErrorMessage(C));
        done();
    }
    /* the same load with a legal stride runs */
    ck_assert_int_eq(run_load("", "[%rd1], 32", 32), PTXE_SUCCESS);
    done();
}
END_TEST

/* The fragment layout the executor chose (§9.7.13.3.1 leaves it to the target; exec/wmma.c):
 * that of mma.sync m16n8k16 on sm_80+ tile by tile.  A .f16 16x16 row-major holding element
 * index i*16+j, C .f32 16x16 holding i*16+j; each lane writes its registers out.  A register r
 * (0-3; 4-7 repeat them), half h: row g + 8(r%2), column 2t + h + 8(r/2); C register r: tile
 * r/4, e = r%4: row g + 8(e/2), column 8 tile + 2t + e%2 (g = lane/4, t = lane%4). */
START_TEST(wmma_layout_documented)
{
    load_text(HDR ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n.reg .b32 %r<20>;\n"
                  ".reg .b64 %rd<8>;\nld.param.u64 %rd1, [out];\nld.param.u64 %rd2, [in];\n"
                  "mov.u32 %r1, %laneid;\nmul.wide.u32 %rd3, %r1, 64;\nadd.s64 %rd4, %rd1, %rd3;\n"
                  "wmma.load.a.sync.aligned.row.m16n16k16.f16 {%r2,%r3,%r4,%r5,%r6,%r7,%r8,%r9}, "
                  "[%rd2];\nst.v4.b32 [%rd4], {%r2,%r3,%r4,%r5};\nst.v4.b32 [%rd4+16], "
                  "{%r6,%r7,%r8,%r9};\n"
                  "wmma.load.c.sync.aligned.row.m16n16k16.f32 {%r2,%r3,%r4,%r5,%r6,%r7,%r8,%r9}, "
                  "[%rd2+512];\nst.v4.b32 [%rd4+32], {%r2,%r3,%r4,%r5};\nst.v4.b32 [%rd4+48], "
                  "{%r6,%r7,%r8,%r9};\nret;\n}\n");
    uint16_t a[256];
    float c[256];
    for (int i = 0; i < 256; i++) a[i] = (uint16_t)wref_enc(WR_F16, i), c[i] = (float)i;
    unsigned char in[1536];
    memcpy(in, a, 512), memcpy(in + 512, c, 1024);
    uint32_t out[32][16];
    ptxeDevptr dout = dev(NULL, sizeof out), din = dev(in, sizeof in);
    void *args[] = { &dout, &din };
    ck_assert_int_eq(launch(1, 32, args), PTXE_SUCCESS);
    get(out, dout, sizeof out);
    for (int l = 0; l < 32; l++) {
        int g = l / 4, t = l % 4;
        for (int r = 0; r < 8; r++)
            for (int h = 0; h < 2; h++) {
                int q = r % 4, row = g + 8 * (q % 2), col = 2 * t + h + 8 * (q / 2);
                ck_assert_uint_eq(out[l][r] >> (16 * h) & 0xffff, a[row * 16 + col]);
            }
        for (int r = 0; r < 8; r++) {
            int e = r % 4, row = g + 8 * (e / 2), col = 8 * (r / 4) + 2 * t + e % 2;
            float v;
            memcpy(&v, &out[l][8 + r], 4);
            ck_assert_msg(v == (float)(row * 16 + col), "lane %d C register %d: %g", l, r, v);
        }
    }
    done();
}
END_TEST

/* §9.7.13.3.3: a guard the whole warp evaluates identically is allowed: false everywhere, the
 * wmma.store is not executed (D keeps its contents); true in half of the warp, a fault */
START_TEST(wmma_guard)
{
    for (int half = 0; half < 2; half++) {
        char ptx[1024];
        snprintf(ptx, sizeof ptx,
                 HDR ".visible .entry k(.param .u64 out)\n{\n.reg .b32 %%r<10>;\n"
                     ".reg .b64 %%rd<2>;\n.reg .pred %%p<2>;\nld.param.u64 %%rd1, [out];\n"
                     "mov.u32 %%r1, %%tid.x;\nmov.u32 %%r2, 7;\nsetp.lt.u32 %%p1, %%r1, %s;\n"
                     "@%%p1 wmma.store.d.sync.aligned.row.m8n8k32.global.s32 [%%rd1], "
                     "{%%r2,%%r2};\n"
                     "ret;\n}\n",
                 half ? "16" : "0");
        load_text(ptx);
        int32_t d[64];
        for (int i = 0; i < 64; i++) d[i] = -i;
        ptxeDevptr dd = dev(d, sizeof d);
        void *args[] = { &dd };
        ptxeResult r = launch(1, 32, args);
        if (half) {
            ck_assert_int_eq(r, PTXE_ERROR_LAUNCH_FAILED);
            ck_assert_msg(strstr(ptxeGetErrorMessage(C), "expected all 32"), "%s",
                          ptxeGetErrorMessage(C));
        } else {
            ck_assert_msg(r == PTXE_SUCCESS, "%s", ptxeGetErrorMessage(C));
            get(d, dd, sizeof d);
            for (int i = 0; i < 64; i++) ck_assert_int_eq(d[i], -i);
        }
        done();
    }
}
END_TEST

/* The checks see wmma's accesses: initcheck on a wmma.load.c of memory never written */
START_TEST(wmma_initcheck)
{
    load_text(HDR ".visible .entry k(.param .u64 out)\n{\n.reg .b32 %r<10>;\n.reg .b64 %rd<2>;\n"
                  "ld.param.u64 %rd1, [out];\n"
                  "wmma.load.c.sync.aligned.row.m16n16k16.global.f32 "
                  "{%r2,%r3,%r4,%r5,%r6,%r7,%r8,%r9}, [%rd1];\nret;\n}\n");
    ck_assert_int_eq(ptxeCtxSetChecks(C, PTXE_CHECK_INITCHECK), PTXE_SUCCESS);
    ptxeDevptr d;
    ck_assert_int_eq(ptxeMemAlloc(C, &d, 1024), PTXE_SUCCESS);
    void *args[] = { &d };
    launch(1, 32, args);
    ck_assert_int_gt(ptxeGetFindingCount(C), 0);
    const char *rep = ptxeGetFinding(C, 0)->report;
    ck_assert_msg(strstr(rep, "wmma.load"), "%s", rep);
    done();
}
END_TEST

/* Malformed or unsupported forms: a load error at file:line:col with the reason */
START_TEST(wmma_reject)
{
    static const struct { const char *insn, *want; } cases[] = {
        { "wmma.load.a.sync.aligned.row.m16n16k8.f16 {%r1,%r2,%r3,%r4,%r5,%r6,%r7,%r1}, [%rd1];",
          "has no .f16 A fragment" },
        { "wmma.load.a.sync.aligned.row.m16n16k16.f16 {%r1,%r2,%r3,%r4}, [%rd1];",
          "found 4 registers, expected 8" },
        { "wmma.load.a.aligned.row.m16n16k16.f16 {%r1,%r2,%r3,%r4,%r5,%r6,%r7,%r1}, [%rd1];",
          ".sync is mandatory" },
        { "wmma.load.a.sync.aligned.col.m8n8k32.s4 {%r1}, [%rd1];", "A .row and B .col only" },
        { "wmma.load.c.sync.aligned.row.m16n16k16.local.f32 {%r1,%r2,%r3,%r4,%r5,%r6,%r7,%r1}, "
          "[%rd1];", ".local is not a qualifier of wmma" },
        { "wmma.store.d.sync.aligned.row.m16n16k16.f32 [%rd1], {%r1,%r2,%r3,%r4};",
          "found 4 registers, expected 8" },
        { "wmma.mma.sync.aligned.row.col.m8n8k128.s32.b1.b1.s32 {%r1,%r2}, {%r1}, {%r1}, "
          "{%r1,%r2};", ".xor.popc or .and.popc" },
        { "wmma.mma.sync.aligned.col.col.m8n8k32.s32.s4.s4.s32 {%r1,%r2}, {%r1}, {%r1}, "
          "{%r1,%r2};", "need .row.col" },
        { "wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32.satfinite {%r1,%r2,%r3,%r4,%r5,%r6,"
          "%r7,%r1}, {%r1,%r2,%r3,%r4,%r5,%r6,%r7,%r1}, {%r1,%r2,%r3,%r4,%r5,%r6,%r7,%r1}, "
          "{%r1,%r2,%r3,%r4,%r5,%r6,%r7,%r1};", ".satfinite is for integer forms" },
        { "wmma.mma.sync.aligned.row.col.m16n16k8.f32.bf16.bf16.f32 {%r1}, {%r1}, {%r1}, {%r1};",
          "not a form of" },
        { "wmma.mma.sync.aligned.row.col.m16n16k16.s32.s8.u8.s32 {%r1,%r2,%r3,%r4,%r5,%r6,%r7,"
          "%r1}, {%r1,%r2}, {%r1,%r2}, {%r1,%r2,%r3,%r4,%r5,%r6,%r7,%r1};", "differ" },
        { "wmma.mma.sync.aligned.row.col.m16n16k8.rz.f32.tf32.tf32.f32 {%r1}, {%r1}, {%r1}, "
          "{%r1};", ".rnd is for .f64" },
        { "wmma.mma.sync.aligned.row.m16n16k16.f32.f32 {%r1}, {%r1}, {%r1}, {%r1};",
          "needs .alayout.blayout" },
        { "wmma.load.a.sync.aligned.row.m16n16k16.f16 {%r1,%r2,%r3,%r4,%r5,%r6,%r7,5}, [%rd1];",
          "fragment element that is not a register" },
        { "wmma.load.a.sync.aligned.row.m16n16k16.f16 {%r1,%r2,%r3,%r4,%r5,%r6,%r7,%r1}, [%rd1], "
          "%rd1;", "stride that is not a 32-bit integer" },
        { "wmma.load.c.sync.aligned.row.m16n16k16.f32 {%r1,%r2,%r3,%r4,%r5,%r6,%r7,%r1}, [%rd1], "
          "1.5;", "stride that is not a 32-bit integer" },
        { "wmma.load.c.sync.aligned.row.m16n16k16.f32 {%r1,%r2,%r3,%r4,%r5,%r6,%r7,%r1}, %rd1;",
          "not an address" },
        { "wmma.load.a.sync.aligned.row.m16n16k16.global.shared.f16 {%r1,%r2,%r3,%r4,%r5,%r6,%r7,"
          "%r1}, [%rd1];", "two state spaces" },
        { "wmma.mma.sync.aligned.row.col.m8n8k4.rn.rz.f64.f64.f64.f64 {%rd1,%rd1}, {%rd1}, {%rd1}, "
          "{%rd1,%rd1};", "two rounding modes" },
        { "wmma.mma.sync.aligned.row.col.m8n8k4.m16n16k16.f64.f64.f64.f64 {%rd1,%rd1}, {%rd1}, "
          "{%rd1}, {%rd1,%rd1};", "two shapes" },
        { "wmma.store.c.sync.aligned.row.m16n16k16.f32 [%rd1], {%r1};",
          "expected wmma.load.{a,b,c}, wmma.store.d or wmma.mma" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char ptx[1024];
        snprintf(ptx, sizeof ptx,
                 HDR ".visible .entry k()\n{\n.reg .b32 %%r<8>;\n.reg .b64 %%rd<2>;\n  %s\n  ret;\n"
                     "}\n",
                 cases[i].insn);
        ck_assert_int_eq(hx_load_text(ptx, "t.ptx", 0), PTXE_ERROR_INVALID_PTX);
        const char *msg = ptxeGetErrorMessage(C);
        ck_assert_msg(strstr(msg, cases[i].want), "%s: %s", cases[i].insn, msg);
        ck_assert_msg(strstr(msg, "t.ptx:8:"), "no file:line:col: %s", msg);
        done();
    }
}
END_TEST

static void add_tests(TCase *tc)
{
    tcase_add_test(tc, wmma_kernels);
    tcase_add_test(tc, wmma_kernels_checked);
    tcase_add_test(tc, wmma_spaces_stride_scale);
    tcase_add_test(tc, wmma_f64_rounding);
    tcase_add_test(tc, wmma_faults);
    tcase_add_test(tc, wmma_initcheck);
    tcase_add_test(tc, wmma_guard);
    tcase_add_test(tc, wmma_layout_documented);
    tcase_add_test(tc, wmma_reject);
}

#include "check_main.h"
