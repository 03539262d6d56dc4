/* tests/test_exec_wgmma.c — warpgroup-level matrix multiply-accumulate (ISA 8.4 §9.7.14) and
 * setmaxnreg (§9.7.17.5) in the executor: the kernels of tests/kernels/wgmma.cu launched through
 * the C API with 128-thread warpgroups and compared bit for bit with the C GEMM of
 * tests/wgmma_ref.h (and with tests/kernels/gpu/wgmma_NAME.bin where a GPU has recorded them),
 * the refused forms (load errors with file:line:col) and the faults (partial warpgroup). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tests/check_quiet.h"
#include "tests/exec_harness.h"
#include "tests/wgmma_ref.h"

/* launch form fi with `threads` threads in one CTA; the launch result */
static ptxeResult launch_form(int fi, unsigned threads, uint32_t *D)
{
    const wgref_form *f = &wgref_forms[fi];
    static uint32_t A[WGREF_MAXA], B[WGREF_MAXB], Cm[WGREF_MAXC], want[WGREF_MAXC];
    wgref_make(fi, A, B, Cm, want);
    ptxeDevptr da = dev(A, sizeof A), db = dev(B, sizeof B), dc = dev(Cm, sizeof Cm),
               dd = dev(NULL, sizeof Cm);
    int sd = f->scale_d;
    void *args[] = { &da, &db, &dc, &dd, &sd };
    ptxeResult r = launch(1, threads, args);
    if (r == PTXE_SUCCESS) {
        evidence_kernel(F, hx_source);
        get(D, dd, (size_t)f->rows * f->n * 4);
    }
    return r;
}

/* every form of wgmma_ref.h against its C GEMM, element by element; the second round with every
 * check of the executor on (a correct kernel must give no finding) */
START_TEST(wg_forms)
{
    hx_checks = _i >= WGREF_NFORMS ? PTXE_CHECK_ALL : 0;
    _i %= WGREF_NFORMS;
    const wgref_form *f = &wgref_forms[_i];
    static uint32_t A[WGREF_MAXA], B[WGREF_MAXB], Cm[WGREF_MAXC], want[WGREF_MAXC],
        D[WGREF_MAXC];
    wgref_make(_i, A, B, Cm, want);
    hx_load("wgmma.ptx", f->kernel);
    ptxeResult r = launch_form(_i, (unsigned)f->threads, D);
    ck_assert_msg(r == PTXE_SUCCESS, "%s: %s", f->kernel, ptxeGetErrorMessage(C));
    int nf = ptxeGetFindingCount(C);
    ck_assert_msg(nf == 0, "%s: %d finding(s), the first:\n%s", f->kernel, nf,
                  nf ? ptxeGetFinding(C, 0)->report : "");
    for (int i = 0; i < f->rows * f->n; i++)
        ck_assert_msg(D[i] == want[i], "%s (form %d) D[%d][%d] = 0x%08x, want 0x%08x", f->kernel,
                      _i, i / f->n, i % f->n, D[i], want[i]);
    /* the outputs a GPU recorded with tests/kernels/record_gpu.sh, where it has been run */
    char name[128];
    snprintf(name, sizeof name, "wgmma_%d_%s.bin", _i, f->kernel);
    FILE *g = gpu_open(name);
    if (g) {
        static uint32_t G[WGREF_MAXC];
        size_t n = (size_t)f->rows * f->n;
        ck_assert_uint_eq(fread(G, 4, n, g), n);
        fclose(g);
        for (size_t i = 0; i < n; i++)
            ck_assert_msg(D[i] == G[i], "%s: D[%zu] = 0x%08x, the GPU gave 0x%08x", f->kernel, i,
                          D[i], G[i]);
    }
    done();
}
END_TEST

/* A warpgroup is four whole warps (§9.7.14.1): 96 threads, or 160 (one warpgroup and a warp),
 * fault with the reason instead of waiting forever. */
START_TEST(wg_partial_warpgroup)
{
    static const unsigned threads[] = { 96, 160, 100 };
    hx_checks = 0;
    static uint32_t D[WGREF_MAXC];
    for (int i = 0; i < 3; i++) {
        hx_load("wgmma.ptx", "wg_f16_rs");
        ptxeResult r = launch_form(0, threads[i], D);
        const char *m = ptxeGetErrorMessage(C);
        ck_assert_msg(r == PTXE_ERROR_LAUNCH_FAILED, "%u threads: %s", threads[i], m);
        ck_assert_msg(strstr(m, "warpgroup") || strstr(m, "all 32"), "%u threads: %s",
                      threads[i], m);
        done();
    }
}
END_TEST

/* ------------------------------------------------------------------ inline modules */
static const char *HEAD = ".version 8.4\n.target sm_90a\n.address_size 64\n";

/* load `body` (an entry's instructions): the load result and the message */
static ptxeResult load_text(const char *decls, const char *body)
{
    static char src[8192];
    snprintf(src, sizeof src,
             "%s.visible .entry k(.param .u64 out)\n{\n.reg .b32 r<80>;\n.reg .f32 f<80>;\n"
             ".reg .b64 rd<8>;\n.reg .pred p;\n%s%s\nret;\n}\n",
             HEAD, decls, body);
    ptxeResult r = hx_load_text(src, "t.ptx", 0);
    if (r == PTXE_SUCCESS) evidence_module(M, "test_exec_wgmma.c");
    return r;
}

/* forms the ISA does not have, or operands out of range: a load error naming the line */
START_TEST(wg_refused)
{
    static const struct { const char *body, *want; } bad[] = {
        { "wgmma.mma_async.sync.aligned.m64n12k16.f32.f16.f16 {f0,f1,f2,f3,f4,f5}, rd0, rd1, "
          "1, 1, 1, 0, 0;", "shape" },
        { "wgmma.mma_async.sync.aligned.m64n8k32.f32.f16.f16 {f0,f1,f2,f3}, rd0, rd1, 1, 1, 1, "
          "0, 0;", "k16" },
        { "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {f0,f1,f2}, rd0, rd1, 1, 1, 1, 0, "
          "0;", "accumulator" },
        { "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {f0,f1,f2,f3}, rd0, rd1, 1, 2, 1, "
          "0, 0;", "imm-scale-a" },
        { "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {f0,f1,f2,f3}, rd0, rd1, 1, 1, 1, "
          "0, r1;", "constant" },
        { "wgmma.mma_async.sync.aligned.m64n8k16.s32.bf16.bf16 {r0,r1,r2,r3}, rd0, rd1, 1, 1, 1, "
          "0, 0;", ".dtype" },
        { "wgmma.mma_async.sync.aligned.m64n40k32.s32.s8.s8 {r0,r1,r2,r3,r4,r5,r6,r7,r8,r9,r10,"
          "r11,r12,r13,r14,r15,r16,r17,r18,r19}, rd0, rd1, 1;", "multiple of 16" },
        { "wgmma.mma_async.sync.aligned.m64n8k8.f32.tf32.tf32 {f0,f1,f2,f3}, rd0, rd1, 1, 1, 1, "
          "0;", "operands" },
        { "wgmma.mma_async.sync.aligned.m64n8k256.s32.b1.b1 {r0,r1,r2,r3}, rd0, rd1, 1;",
          "popc" },
        { "wgmma.wait_group.sync.aligned r1;", "constant" },
        { "wgmma.fence.sync.aligned 1;", "operands" },
        { "wgmma.fence.aligned;", "sync" },
        { "wgmma.mma_async.sp.sync.aligned.m64n8k64.s32.s8.s8 {r5,r6,r7,r8}, {r0,r1,r2,r3}, rd0, "
          "r4, 1, 1;", "sparsity selector 1, expected 0" },
        { "wgmma.mma_async.sp.sync.aligned.m64n8k16.f32.tf32.tf32 {f0,f1,f2,f3}, {r0,r1,r2,r3}, "
          "rd0, r4, r5, 1, 1, 1;", "non-constant sparsity selector" },
        { "wgmma.mma_async.sp.sync.aligned.m64n16k32.f32.f16.f16 {f0,f1,f2,f3,f4,f5,f6,f7}, "
          "{r0,r1,r2,r3}, rd0, r4, 2, 1, 1, 1, 0;", "expected 0 or 1" },
        { "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {f0,f1,f2,f3}, rd0, rd1, r4, 1, 1, "
          "0, 0;", "as scale-d, expected a .pred register or 0 or 1" },
        { "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {f0,f1,f2,f3}, rd0, rd1, 2, 1, 1, "
          "0, 0;", "found a constant as scale-d" },
        { "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {f0,f1,f2,f3}, rd0, r1, p, 1, 1, "
          "0, 0;", "as b-desc, expected a 64-bit register" },
        { "wgmma.mma_async.sp.sync.aligned.m64n8k32.f32.f16.f16 {f0,f1,f2,f3}, rd0, rd1, rd2, 0, "
          "p, 1, 1, 0, 0;", "as sp-meta, expected a 32-bit register" },
        { "setmaxnreg.inc.sync.aligned.u32 100;", "multiple of 8" },
        { "setmaxnreg.dec.sync.aligned.u32 16;", "24..256" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ptxeResult r = load_text("", bad[i].body);
        const char *m = ptxeGetErrorMessage(C);
        ck_assert_msg(r == PTXE_ERROR_INVALID_PTX, "accepted: %s", bad[i].body);
        ck_assert_msg(strstr(m, "t.ptx:10:"), "no file:line:col for %s: %s", bad[i].body, m);
        ck_assert_msg(strstr(m, bad[i].want), "'%s' not in the message for %s: %s", bad[i].want,
                      bad[i].body, m);
        ptxeCtxDestroy(C); C = NULL;
    }
}
END_TEST

/* Every form of tests/data/wgmma-forms.tsv (scripts/wgmma_forms.py: each shape of each type
 * family, dense and .sp, and operand probes, with ptxas 13's verdict for sm_90a) in the kernel
 * the script used: the loader accepts the 'ok' forms and refuses the 'bad' ones (a load error),
 * except where it deliberately differs: the ISA's syntax requires .sync.aligned and .u32, which
 * ptxas does not insist on; registers are checked by size, not by their declared type. */
START_TEST(wg_ptxas_forms)
{
    static const char *deviations[] = { "wgmma.wait_group.sync 0;",
                                        "setmaxnreg.inc.sync.aligned.s32 32;",
                                        "{f6,f7,f8,f9}, rd0, rd1, 1;" };
    FILE *f = fopen("tests/data/wgmma-forms.tsv", "r");
    ck_assert_msg(f != NULL, "tests/data/wgmma-forms.tsv missing (run from the repository root)");
    static char line[8192], src[10000];
    int n = 0, ndev = 0;
    while (fgets(line, sizeof line, f)) {
        char *tab = strchr(line, '\t');
        ck_assert_msg(tab && (!strncmp(tab + 1, "ok\t", 3) || !strncmp(tab + 1, "bad\t", 4)),
                      "malformed line %d", n + 1);
        *tab = 0;
        int ok = tab[1] == 'o', dev = 0;
        for (size_t i = 0; i < sizeof deviations / sizeof deviations[0]; i++)
            dev |= strstr(line, deviations[i]) != NULL;
        snprintf(src, sizeof src,
                 ".version 8.4\n.target sm_90a\n.address_size 64\n.visible .entry k()\n{\n"
                 ".reg .b32 r<200>;\n.reg .f32 f<200>;\n.reg .b64 rd<8>;\n.reg .pred p;\n"
                 "mov.b64 rd0, 0; mov.b64 rd1, 0; mov.b32 r4, 0; mov.b32 r5, 0; "
                 "setp.eq.u32 p, r4, 0;\n%s\nret;\n}\n", line);
        ptxeResult r = hx_load_text(src, "f.ptx", 0);
        const char *m = ptxeGetErrorMessage(C);
        ck_assert_msg((r == PTXE_SUCCESS) == (ok != dev), "%s: ptxas %s, the loader %s%s%s",
                      line, ok ? "accepts" : "refuses", r ? "refuses: " : "accepts",
                      r ? m : "", dev ? " (a listed deviation)" : "");
        if (r) ck_assert_msg(strstr(m, "f.ptx:11:"), "no file:line:col for %s: %s", line, m);
        done();
        n++, ndev += dev;
    }
    fclose(f);
    ck_assert_int_ge(n, 600);
    ck_assert_int_eq(ndev, 3);
}
END_TEST

static ptxeDevptr last_out;   /* the `out` parameter of the last run_text */

/* load and launch `body` with `threads` threads in one CTA: the launch result */
static ptxeResult run_text(const char *decls, const char *body, unsigned threads)
{
    ptxeResult r = load_text(decls, body);
    ck_assert_msg(r == PTXE_SUCCESS, "%s", ptxeGetErrorMessage(C));
    hx_function("k");
    ptxeDevptr out = last_out = dev(NULL, 64);
    void *args[] = { &out };
    return launch(1, threads, args);
}

/* faults of a launch: invalid .tf32 metadata (§9.7.14.6.1: undefined, refused here), a
 * descriptor outside the CTA's shared memory, a warp of the warpgroup that leaves while the
 * others wait, warps at two different wgmma instructions */
START_TEST(wg_faults)
{
    static const char *SM = ".shared .align 1024 .b8 s[4096];\n";
    static const char *SET = "mov.b32 r0, 0; mov.b32 r1, 0; mov.b32 r2, 0; mov.b32 r3, 0;\n"
                             "mov.b32 r4, 0; mov.b64 rd0, 0; mov.b64 rd1, 16383;\n"
                             "mov.f32 f0, 0f00000000; mov.f32 f1, 0f00000000;\n"
                             "mov.f32 f2, 0f00000000; mov.f32 f3, 0f00000000;\n"
                             "wgmma.fence.sync.aligned;\n";
    static const struct { const char *body, *want; unsigned threads; } cases[] = {
        { "wgmma.mma_async.sp.sync.aligned.m64n8k16.f32.tf32.tf32 {f0,f1,f2,f3}, "
          "{r0,r1,r2,r3}, rd0, r4, 0, 1, 1, 1;", "metadata", 128 },
        { "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {f0,f1,f2,f3}, rd1, rd0, 1, 1, 1, "
          "0, 0;", "out-of-bounds", 128 },
        { "mov.u32 r9, %tid.x; setp.ge.u32 p, r9, 96; @p bra END;\n"
          "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {f0,f1,f2,f3}, rd0, rd0, 1, 1, 1, "
          "0, 0;\nEND:", "warpgroup", 128 },
        { "mov.u32 r9, %tid.x; setp.ge.u32 p, r9, 64; @p bra B;\n"
          "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {f0,f1,f2,f3}, rd0, rd0, 1, 1, 1, "
          "0, 0;\nbra.uni END;\nB:\n"
          "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {f0,f1,f2,f3}, rd0, rd0, 1, 1, 1, "
          "0, 0;\nEND:", "another wgmma", 128 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char body[2048];
        snprintf(body, sizeof body, "%s%s\nwgmma.commit_group.sync.aligned;\n"
                 "wgmma.wait_group.sync.aligned 0;", SET, cases[i].body);
        ptxeResult r = run_text(SM, body, cases[i].threads);
        const char *m = ptxeGetErrorMessage(C);
        ck_assert_msg(r == PTXE_ERROR_LAUNCH_FAILED, "case %zu ran: %s", i, m);
        ck_assert_msg(strstr(m, cases[i].want), "case %zu: '%s' not in %s", i, cases[i].want, m);
        done();
    }
    /* and the same instructions with valid operands complete (two warpgroups): D = 0 * 0 + 0,
     * then a wgmma whose guard is false in the whole warpgroup does nothing; f0 is stored */
    char body[2048];
    snprintf(body, sizeof body, "%swgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 "
             "{f0,f1,f2,f3}, rd0, rd0, 1, 1, 1, 0, 0;\nwgmma.commit_group.sync.aligned;\n"
             "wgmma.wait_group.sync.aligned 1;\nsetmaxnreg.dec.sync.aligned.u32 24;\n"
             "mov.f32 f0, 0f3f800000; setp.eq.u32 p, 1, 0;\n"
             "@p wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 "
             "{f0,f1,f2,f3}, rd0, rd0, 0, 1, 1, 0, 0;\n"
             "mov.u32 r9, %%tid.x; setp.eq.u32 p, r9, 200; ld.param.u64 rd2, [out];\n"
             "@p st.global.f32 [rd2], f0;", SET);
    ptxeResult r = run_text(SM, body, 256);
    ck_assert_msg(r == PTXE_SUCCESS, "%s", ptxeGetErrorMessage(C));
    float v = 0;
    ck_assert_int_eq(ptxeMemcpyDtoH(C, &v, last_out, 4), PTXE_SUCCESS);
    ck_assert_msg(v == 1.0f, "f0 = %g after a wgmma with a false guard, want 1", v);
    done();
}
END_TEST

/* the widest shape, m64n256k16 (128 accumulator registers per thread), B all ones in shared
 * memory, A all ones in registers: every element of D is C + 16; each thread adds its 128
 * elements to out[0] (atomically) and the checks on */
START_TEST(wg_n256)
{
    static char decls[256], body[16384];
    snprintf(decls, sizeof decls, ".shared .align 1024 .b8 s[8192];\n.reg .f32 g<128>;\n");
    size_t n = 0;
    n += (size_t)snprintf(body + n, sizeof body - n,
                          "mov.u32 r0, %%tid.x; shl.b32 r1, r0, 6; mov.u32 r2, s; add.u32 r1, r1, "
                          "r2;\nmov.b32 r3, 0x3c003c00;\n");
    for (int i = 0; i < 16; i++)
        n += (size_t)snprintf(body + n, sizeof body - n, "st.shared.u32 [r1+%d], r3;\n", 4 * i);
    for (int i = 0; i < 128; i++)
        n += (size_t)snprintf(body + n, sizeof body - n, "mov.f32 g%d, 0f3f800000;\n", i);
    n += (size_t)snprintf(body + n, sizeof body - n,
                          "bar.sync 0;\nfence.proxy.async.shared::cta;\nwgmma.fence.sync.aligned;"
                          "\ncvt.u64.u32 rd0, r2; shr.u64 rd0, rd0, 4; or.b64 rd0, rd0, "
                          "0x0000001000080000;\n"
                          "wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 {");
    for (int i = 0; i < 128; i++)
        n += (size_t)snprintf(body + n, sizeof body - n, "%sg%d", i ? "," : "", i);
    n += (size_t)snprintf(body + n, sizeof body - n,
                          "}, {r3,r3,r3,r3}, rd0, 1, 1, 1, 0;\nwgmma.commit_group.sync.aligned;\n"
                          "wgmma.wait_group.sync.aligned 0;\nmov.f32 f0, 0f00000000;\n");
    for (int i = 0; i < 128; i++)
        n += (size_t)snprintf(body + n, sizeof body - n, "add.f32 f0, f0, g%d;\n", i);
    snprintf(body + n, sizeof body - n,
             "ld.param.u64 rd2, [out];\nred.global.add.f32 [rd2], f0;");
    ptxeResult r = load_text(decls, body);
    ck_assert_msg(r == PTXE_SUCCESS, "%s", ptxeGetErrorMessage(C));
    ck_assert_int_eq(ptxeCtxSetChecks(C, PTXE_CHECK_ALL), PTXE_SUCCESS);
    hx_function("k");
    ptxeDevptr out = dev(NULL, 64);
    void *args[] = { &out };
    r = launch(1, 128, args);
    ck_assert_msg(r == PTXE_SUCCESS, "%s", ptxeGetErrorMessage(C));
    ck_assert_int_eq(ptxeGetFindingCount(C), 0);
    float v = 0;
    ck_assert_int_eq(ptxeMemcpyDtoH(C, &v, out, 4), PTXE_SUCCESS);
    ck_assert_msg(v == 128.0f * 128 * 17, "sum of D = %g, want %g", v, 128.0 * 128 * 17);
    done();
}
END_TEST

static void add_tests(TCase *tc)
{
    tcase_add_loop_test(tc, wg_forms, 0, 2 * WGREF_NFORMS);
    tcase_add_test(tc, wg_partial_warpgroup);
    tcase_add_test(tc, wg_refused);
    tcase_add_test(tc, wg_ptxas_forms);
    tcase_add_test(tc, wg_faults);
    tcase_add_test(tc, wg_n256);
}

#include "check_main.h"
