/* tests/test_exec_gemm.c — the GEMM kernels of the executor benchmark, launched through the C
 * API on small sizes and compared bit for bit with the C reference of tests/gemm_ref.h:
 *   bench/exec/gemm_sm80.ptx   mma.sync m16n8k16 + ldmatrix (.x4, .trans) + cp.async double
 *                              buffering (ISA 8.4 §9.7.13.4, §9.7.8.24.3-5), 8 warps, tile
 *                              128x128x32
 *   bench/exec/gemm_sm90a.ptx  wgmma.mma_async m64n128k16 from 128B-swizzled shared memory
 *                              (§9.7.14) fed by cp.async.bulk.tensor.2d (TMA, §9.7.8.24.9) on
 *                              mbarrier expect_tx / try_wait (§9.7.12.15), 3 stages
 * (square and non-square sizes with M, N, K edges: zero fill and guarded stores), again with
 * every check on (no finding), against tests/kernels/gpu/gemm_*.bin where a GPU has recorded
 * them (tests/kernels/record_gpu.sh); refused forms (load error file:line:col) and faults (too
 * little dynamic shared memory, a K whose rows misalign the 16-byte cp.async). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tests/check_quiet.h"
#include "tests/exec_harness.h"
#include "tests/gemm_ref.h"

#define SMEM90 99392   /* GEMM90_SMEM of bench/exec/gemm_sm90a.cu */

static const char *bdir(void)
{
    return getenv("PTX_BENCH_EXEC") ? getenv("PTX_BENCH_EXEC") : "bench/exec";
}

static char *slurp(const char *name, size_t *n)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", bdir(), name);
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    static char buf[1 << 20];
    *n = fread(buf, 1, sizeof buf - 1, f);
    buf[*n] = 0;
    fclose(f);
    return buf;
}

/* bench/exec/KERNEL.ptx into a new context with the checks `checks`, F = KERNEL */
static void load(const char *kernel, unsigned checks)
{
    char name[64];
    size_t n;
    snprintf(name, sizeof name, "%s.ptx", kernel);
    ptxeResult r = hx_load_text(slurp(name, &n), name, checks);
    ck_assert_msg(r == PTXE_SUCCESS, "%s", ptxeGetErrorMessage(C));
    hx_function(kernel);
}

/* a 2D f16 tensor map of rows x K (K innermost), box 64 x 128, 128B swizzle (gemm_sm90a.cu) */
static ptxeTensorMap tmap(ptxeDevptr g, int rows, int K)
{
    ptxeTensorMap tm;
    uint64_t dims[2] = { (uint64_t)K, (uint64_t)rows }, str[1] = { (uint64_t)K * 2 };
    uint32_t box[2] = { 64, 128 }, es[2] = { 1, 1 };
    ptxeResult r = ptxeTensorMapEncodeTiled(C, &tm, PTXE_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, g, dims,
                                            str, box, es, PTXE_TENSOR_MAP_INTERLEAVE_NONE,
                                            PTXE_TENSOR_MAP_SWIZZLE_128B,
                                            PTXE_TENSOR_MAP_L2_PROMOTION_NONE,
                                            PTXE_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    ck_assert_msg(r == PTXE_SUCCESS, "%s", ptxeGetErrorMessage(C));
    return tm;
}

/* launch the loaded kernel (gemm_sm80 or gemm_sm90a) on M x N x K with the inputs of
 * gemm_ref.h; C into out (M x N); the launch result */
static ptxeResult gemm_run(int sm90, int m, int n, int k, unsigned smem, float *out)
{
    size_t mk = (size_t)m * k, kn = (size_t)k * n, mn = (size_t)m * n;
    uint16_t *a = malloc(mk * 2), *b = malloc(kn * 2);
    ck_assert(a && b);
    gref_inputs(m, n, k, 1, a, sm90 ? NULL : b, sm90 ? b : NULL);
    ptxeDevptr da = dev(a, mk * 2), db = dev(b, kn * 2), dc = dev(NULL, mn * 4);
    free(a); free(b);
    ptxeTensorMap ta, tb;
    void *args80[] = { &da, &db, &dc, &m, &n, &k };
    void *args90[] = { &ta, &tb, &dc, &m, &n, &k };
    if (sm90) ta = tmap(da, m, k), tb = tmap(db, n, k);
    ptxeLaunchConfig cfg = { { (unsigned)(n + 127) / 128, (unsigned)(m + 127) / 128, 1 },
                             { 256, 1, 1 }, { 0, 0, 0 }, smem, 0, 0, PTXE_SCHEDULE_DEFAULT, 0, 0 };
    ptxeResult r = ptxeLaunchKernel(F, &cfg, sm90 ? args90 : args80);
    if (r == PTXE_SUCCESS) {
        evidence_kernel(F, sm90 ? "bench/exec/gemm_sm90a.ptx" : "bench/exec/gemm_sm80.ptx");
        ck_assert_int_eq(ptxeMemcpyDtoH(C, out, dc, mn * 4), PTXE_SUCCESS);
    }
    return r;
}

#define NSIZES GREF_NSIZES

/* _i: kernel (sm80, sm90a) x size x checks (none, all) */
START_TEST(gemm_sizes)
{
    int sm90 = _i / NSIZES % 2, si = _i % NSIZES;
    unsigned checks = _i >= 2 * NSIZES ? PTXE_CHECK_ALL : 0;
    int m = gref_sizes[si][0], n = gref_sizes[si][1], k = gref_sizes[si][2];
    const char *kn = sm90 ? "gemm_sm90a" : "gemm_sm80";
    size_t mn = (size_t)m * n;
    float *got = malloc(mn * 4), *want = malloc(mn * 4);
    ck_assert(got && want);
    gref_gemm(m, n, k, 1, want);
    load(kn, checks);
    ptxeResult r = gemm_run(sm90, m, n, k, sm90 ? SMEM90 : 0, got);
    ck_assert_msg(r == PTXE_SUCCESS, "%s %dx%dx%d: %s", kn, m, n, k, ptxeGetErrorMessage(C));
    int nf = ptxeGetFindingCount(C);
    ck_assert_msg(nf == 0, "%s: %d finding(s), the first:\n%s", kn, nf,
                  nf ? ptxeGetFinding(C, 0)->report : "");
    for (size_t i = 0; i < mn; i++)
        ck_assert_msg(!memcmp(&got[i], &want[i], 4), "%s %dx%dx%d: C[%zu][%zu] = %g, want %g",
                      kn, m, n, k, i / (size_t)n, i % (size_t)n, got[i], want[i]);
    /* the GPU's output (tests/kernels/record_gpu.sh), where one has been recorded */
    char name[128];
    snprintf(name, sizeof name, "%s_%dx%dx%d.bin", kn, m, n, k);
    FILE *g = gpu_open(name);
    if (g) {
        ck_assert_uint_eq(fread(want, 4, mn, g), mn);
        fclose(g);
        for (size_t i = 0; i < mn; i++)
            ck_assert_msg(!memcmp(&got[i], &want[i], 4), "%s: C[%zu] = %g, the GPU gave %g", kn,
                          i, got[i], want[i]);
    }
    free(got); free(want);
    done();
}
END_TEST

/* the inputs: f16 bits of the integers, every value of [-4, 4] present (a reference that gave
 * zeros everywhere would pass the GEMM tests with a kernel that computes nothing) */
START_TEST(gemm_ref_exact)
{
    ck_assert_int_eq(gref_f16(4), 0x4400);
    ck_assert_int_eq(gref_f16(-3), 0xc200);
    ck_assert_int_eq(gref_f16(1), 0x3c00);
    ck_assert_int_eq(gref_f16(0), 0);
    int seen[9] = { 0 };
    for (int i = 0; i < 1000; i++) seen[gref_val(1, (unsigned)i, 7, 1) + 4]++;
    for (int v = 0; v < 9; v++) ck_assert_msg(seen[v] > 50, "value %d: %d times", v - 4, seen[v]);
}
END_TEST

/* an edited instruction of each kernel is refused at load with file:line:col and the reason */
START_TEST(gemm_refused)
{
    static const struct { const char *file, *from, *to; } cases[] = {
        /* §9.7.13.4.14: .f16 m16n8k16 takes .row.col only */
        { "gemm_sm80.ptx", "m16n8k16.row.col", "m16n8k16.row.row" },
        /* §9.7.14.2: N is a multiple of 8 up to 256 */
        { "gemm_sm90a.ptx", "m64n128k16", "m64n129k16" },
        /* §9.7.8.24.9: the 2D form takes two coordinates (the first TMA copy's second
           coordinate dropped: its register names are found in the text below) */
        { "gemm_sm90a.ptx", "@coords", "" },
        /* §9.7.13.4.15: ldmatrix has .x1, .x2, .x4 */
        { "gemm_sm80.ptx", "m8n8.x4.shared.b16", "m8n8.x3.shared.b16" },
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        size_t n;
        char *t = slurp(cases[c].file, &n);
        const char *from = cases[c].from, *to = cases[c].to;
        char coords[64], first[64];
        if (!strcmp(from, "@coords")) {   /* "{%rA, %rB}" of the first copy -> "{%rA}" */
            char *ins = strstr(t, "cp.async.bulk.tensor.2d"), *o = ins ? strchr(ins, '{') : NULL;
            char *e = o ? strchr(o, '}') : NULL, *comma = o ? strchr(o, ',') : NULL;
            ck_assert(e && comma && comma < e && e - o < 60);
            snprintf(coords, sizeof coords, "%.*s", (int)(e - o + 1), o);
            snprintf(first, sizeof first, "%.*s}", (int)(comma - o), o);
            from = coords, to = first;
        }
        char *at = strstr(t, from);
        ck_assert_msg(at != NULL, "%s: no '%s'", cases[c].file, from);
        int line = 1;
        for (char *p = t; p < at; p++) line += *p == '\n';
        size_t lf = strlen(from), lt = strlen(to);
        memmove(at + lt, at + lf, n - (size_t)(at - t) - lf + 1);
        memcpy(at, to, lt);
        n = n - lf + lt;
        ptxeResult r = hx_load_text(t, cases[c].file, 0);
        const char *m = ptxeGetErrorMessage(C);
        ck_assert_msg(r != PTXE_SUCCESS, "%s: '%s' accepted", cases[c].file, to);
        char want[128];
        snprintf(want, sizeof want, "%s:%d:", cases[c].file, line);
        ck_assert_msg(strstr(m, want) != NULL, "'%s': %s (want %s)", to, m, want);
        if (getenv("GEMM_VERBOSE")) printf("%s\n", m);
        ptxeCtxDestroy(C); C = NULL;
    }
}
END_TEST

/* faults: gemm_sm90a with less dynamic shared memory than its stages need (the TMA box lands
 * outside the CTA's shared memory); gemm_sm80 with K = 60 (rows of 120 bytes: the 16-byte
 * cp.async chunks are misaligned, §9.7.8.24.3) */
START_TEST(gemm_faults)
{
    static float out[128 * 128];
    load("gemm_sm90a", 0);
    ptxeResult r = gemm_run(1, 128, 128, 128, 65536, out);
    const char *m = ptxeGetErrorMessage(C);
    ck_assert_msg(r == PTXE_ERROR_LAUNCH_FAILED, "%s", m);
    ck_assert_msg(strstr(m, "out-of-bounds") && strstr(m, "shared"), "%s", m);
    done();
    load("gemm_sm80", 0);
    r = gemm_run(0, 128, 128, 60, 0, out);
    m = ptxeGetErrorMessage(C);
    ck_assert_msg(r == PTXE_ERROR_LAUNCH_FAILED, "%s", m);
    ck_assert_msg(strstr(m, "misaligned") && strstr(m, "cp.async"), "%s", m);
    done();
}
END_TEST

static void add_tests(TCase *tc)
{
    tcase_add_loop_test(tc, gemm_sizes, 0, 4 * NSIZES);
    tcase_add_test(tc, gemm_ref_exact);
    tcase_add_test(tc, gemm_refused);
    tcase_add_test(tc, gemm_faults);
}

#include "tests/check_main.h"
