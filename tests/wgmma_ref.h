/* tests/wgmma_ref.h — the launches of tests/kernels/wgmma.cu (warpgroup matrix multiply-
 * accumulate, ISA 8.4 §9.7.14) with their inputs and a plain C GEMM as the reference, shared by
 * tests/test_exec_wgmma.c (the executor) and tests/kernels/record_gpu.cu (a real GPU, into
 * tests/kernels/gpu/wgmma_NAME.bin).  C and C++.
 *
 * Every kernel takes (A, B, C, D[, scale_d]) as one 32-bit word per element (raw element bits):
 * A[rows][K] dense (for .sp with two zeros in every chunk of four columns), B[K][N], C and D
 * [rows][N].  Inputs are small integers, so every product and sum is exact in float and half:
 * the result does not depend on the accumulation order the ISA leaves open (§9.7.14.5.2).
 * .tf32 inputs carry random bits in the 13 low mantissa bits, which wgmma ignores. */
#ifndef TESTS_WGMMA_REF_H
#define TESTS_WGMMA_REF_H
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* element types of A and B; accumulator types (WGR_: apart from wmma_ref.h's WR_ names, both
 * are included by tests/kernels/record_gpu.cu) */
enum { WGR_F16, WGR_BF16, WGR_TF32, WGR_S8, WGR_U8, WGR_B1, WGR_E4M3, WGR_E5M2 };
enum { WGR_DF32, WGR_DF16, WGR_DS32 };
typedef struct {
    const char *kernel;
    int threads, rows, n, k;    /* rows = 64 per warpgroup */
    int at, bt, d;              /* WGR_* */
    int scale_a, scale_b;       /* imm-scale-a/b of the kernel's wgmma */
    int sparse, sat;            /* sparse: 1 2:4, 2 1:2 (.tf32) */
    int scale_d;                /* -1: no argument (kernel's own: 1); else the argument */
    int ignore_c;               /* the kernel starts with scale-d = 0 */
} wgref_form;

static const wgref_form wgref_forms[] = {
    { "wg_f16_rs", 256, 128, 16, 16, WGR_F16, WGR_F16, WGR_DF32, 1, 1, 0, 0, -1, 0 },
    { "wg_f16_ss", 128, 64, 32, 16, WGR_F16, WGR_F16, WGR_DF32, 1, 1, 0, 0, 1, 0 },
    { "wg_f16_ss", 128, 64, 32, 16, WGR_F16, WGR_F16, WGR_DF32, 1, 1, 0, 0, 0, 0 },
    { "wg_f16_sw128", 128, 64, 64, 64, WGR_F16, WGR_F16, WGR_DF32, 1, 1, 0, 0, -1, 1 },
    { "wg_f16_f16acc", 128, 64, 8, 16, WGR_F16, WGR_F16, WGR_DF16, -1, 1, 0, 0, -1, 0 },
    { "wg_bf16_tb", 128, 64, 16, 16, WGR_BF16, WGR_BF16, WGR_DF32, 1, -1, 0, 0, -1, 0 },
    { "wg_tf32", 128, 64, 8, 8, WGR_TF32, WGR_TF32, WGR_DF32, 1, 1, 0, 0, -1, 0 },
    { "wg_s8", 128, 64, 16, 32, WGR_S8, WGR_S8, WGR_DS32, 1, 1, 0, 0, -1, 0 },
    { "wg_u8_sw64", 128, 64, 8, 32, WGR_U8, WGR_U8, WGR_DS32, 1, 1, 0, 1, -1, 0 },
    { "wg_sp_f16_sel0", 128, 64, 16, 32, WGR_F16, WGR_F16, WGR_DF32, 1, 1, 1, 0, -1, 0 },
    { "wg_sp_f16_sel1", 128, 64, 16, 32, WGR_F16, WGR_F16, WGR_DF32, 1, 1, 1, 0, -1, 0 },
    { "wg_b1", 128, 64, 8, 256, WGR_B1, WGR_B1, WGR_DS32, 1, 1, 0, 0, -1, 0 },
    { "wg_fp8", 128, 64, 16, 32, WGR_E4M3, WGR_E5M2, WGR_DF32, 1, 1, 0, 0, -1, 0 },
    { "wg_bf16_tt_sw128", 128, 64, 64, 16, WGR_BF16, WGR_BF16, WGR_DF32, 1, 1, 0, 0, -1, 0 },
    { "wg_sp_s8", 128, 64, 8, 64, WGR_S8, WGR_S8, WGR_DS32, 1, 1, 1, 0, -1, 0 },
    { "wg_sp_tf32", 128, 64, 8, 16, WGR_TF32, WGR_TF32, WGR_DF32, 1, 1, 2, 0, -1, 0 },
};
#define WGREF_NFORMS ((int)(sizeof wgref_forms / sizeof wgref_forms[0]))
#define WGREF_MAXA (64 * 256)
#define WGREF_MAXB (64 * 64)
#define WGREF_MAXC (128 * 64)

static uint32_t wgref_rnd(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s ^ (*s >> 13);
}
static uint32_t wgref_f32(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static uint32_t wgref_h16(int v)   /* a small integer as .f16 bits */
{
    if (v == 0) return 0;
    unsigned a = (unsigned)abs(v), e = 0;
    while ((a >> e) > 1) e++;
    return (v < 0 ? 0x8000u : 0) | (e + 15) << 10 | ((a << (10 - e)) & 0x3ff);
}
static uint32_t wgref_fp8(int v, int mb, int bias)   /* a small integer as .e4m3 / .e5m2 */
{
    if (v == 0) return 0;
    unsigned a = (unsigned)abs(v), e = 0;
    while ((a >> e) > 1) e++;
    return (v < 0 ? 0x80u : 0) | (e + bias) << mb | ((a << mb >> e) & ((1u << mb) - 1));
}
static uint32_t wgref_bits(int t, int v, uint32_t *s)
{
    switch (t) {
    case WGR_E4M3: return wgref_fp8(v, 3, 7);
    case WGR_E5M2: return wgref_fp8(v, 2, 15);
    case WGR_B1: return (uint32_t)v;
    case WGR_F16: return wgref_h16(v);
    case WGR_BF16: return wgref_f32((float)v) >> 16;
    case WGR_TF32: return wgref_f32((float)v) | (wgref_rnd(s) & 0x1fff);
    default: return (uint32_t)v & 0xff;
    }
}
static int wgref_val(int t, uint32_t *s)
{
    return t == WGR_S8 ? (int)(wgref_rnd(s) % 256) - 128 : t == WGR_U8 ? (int)(wgref_rnd(s) % 256)
           : t == WGR_B1 ? (int)(wgref_rnd(s) & 1) : (int)(wgref_rnd(s) % 7) - 3;
}

/* The inputs of form f (seeded by its index) and the D it must produce: A, B, C, want hold
 * WGREF_MAXA / MAXB / MAXC words. */
static void wgref_make(int fi, uint32_t *A, uint32_t *B, uint32_t *C, uint32_t *want)
{
    const wgref_form *f = &wgref_forms[fi];
    uint32_t s = 0x9e3779b9u * (uint32_t)(fi + 1);
    static int av[WGREF_MAXA], bv[WGREF_MAXB];
    for (int i = 0; i < f->rows * f->k; i++) {
        av[i] = wgref_val(f->at, &s);
        if (f->sparse == 2 && i % 2 == 0) {   /* 1:2: zero one of the two */
            av[i + 1] = wgref_val(f->at, &s);
            av[i + (wgref_rnd(&s) & 1)] = 0;
            A[i] = wgref_bits(f->at, av[i], &s), A[i + 1] = wgref_bits(f->at, av[i + 1], &s);
            i++;
            continue;
        }
        if (f->sparse == 1 && i % 4 == 0) {   /* 2:4: zero two of the four (a random pair) */
            static const int pairs[6][2] = { { 0, 1 }, { 0, 2 }, { 0, 3 },
                                             { 1, 2 }, { 1, 3 }, { 2, 3 } };
            int p = (int)(wgref_rnd(&s) % 6);
            for (int j = 1; j < 4; j++) av[i + j] = wgref_val(f->at, &s);
            av[i + pairs[p][0]] = av[i + pairs[p][1]] = 0;
            for (int j = 0; j < 4; j++) A[i + j] = wgref_bits(f->at, av[i + j], &s);
            i += 3;
            continue;
        }
        A[i] = wgref_bits(f->at, av[i], &s);
    }
    for (int i = 0; i < f->k * f->n; i++) {
        bv[i] = wgref_val(f->bt == WGR_U8 ? WGR_S8 : f->bt, &s);
        if (f->bt == WGR_U8) bv[i] += 128;
        B[i] = wgref_bits(f->bt, bv[i], &s);
    }
    for (int i = 0; i < f->rows * f->n; i++) {
        int64_t c = (int64_t)(wgref_rnd(&s) % 201) - 100;
        if (f->sat && i % 5 == 0) c = i % 2 ? INT32_MAX - 1000 : INT32_MIN + 1000;
        C[i] = f->d == WGR_DF32 ? wgref_f32((float)c) : f->d == WGR_DF16 ? wgref_h16((int)c)
                                                                       : (uint32_t)c;
        int64_t acc = f->ignore_c || f->scale_d == 0 ? 0 : c;
        for (int k = 0; k < f->k; k++)
            acc += (int64_t)f->scale_a * av[(i / f->n) * f->k + k] * f->scale_b *
                   bv[k * f->n + i % f->n];
        if (f->sat) acc = acc > INT32_MAX ? INT32_MAX : acc < INT32_MIN ? INT32_MIN : acc;
        want[i] = f->d == WGR_DF32 ? wgref_f32((float)acc) : f->d == WGR_DF16 ? wgref_h16((int)acc)
                                                                            : (uint32_t)acc;
    }
}
#endif
