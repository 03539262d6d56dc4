/* tests/wmma_ref.h — the cases of tests/kernels/wmma.cu (nvcuda::wmma, PTX wmma.load / wmma.mma /
 * wmma.store, ISA 8.4 §9.7.13.3) and their C reference, shared by tests/test_exec_wmma.c (the
 * executor) and tests/kernels/record_gpu.cu (a real GPU), so that both run the same inputs.
 *
 * A case is one kernel of wmma.cu (shape, types, A and B layouts) with a variant: flags as the
 * kernel takes them (bit 0: fragments in shared memory; bit 1: C and D column-major; bit 2:
 * .satfinite, or .and.popc for .b1) and the leading dimensions lda, ldb, ldc (the stride operand).
 * Inputs are integers: in the floating-point forms the products and sums are exact, so the result
 * does not depend on the accumulation order §9.7.13.3.5 leaves to the implementation.  Memory:
 * .s4/.u4 elements are nibbles and .b1 elements bits, element 2i (8i) in the low bits of byte i.
 * C and C++ (nvcc) alike. */
#ifndef PTX_TESTS_WMMA_REF_H
#define PTX_TESTS_WMMA_REF_H
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { WR_F16 = 1, WR_BF16, WR_TF32, WR_F32, WR_F64, WR_S8, WR_U8, WR_S4, WR_U4, WR_B1, WR_S32 };

typedef struct {
    const char *name;   /* kernel of wmma.cu */
    int m, n, k, at, ct, acol, bcol;
} wref_kernel;

static const wref_kernel wref_kernels[] = {
    { "wmma_f16f32_m16n16k16_rr", 16, 16, 16, WR_F16, WR_F32, 0, 0 },
    { "wmma_f16f32_m16n16k16_rc", 16, 16, 16, WR_F16, WR_F32, 0, 1 },
    { "wmma_f16f32_m16n16k16_cr", 16, 16, 16, WR_F16, WR_F32, 1, 0 },
    { "wmma_f16f32_m16n16k16_cc", 16, 16, 16, WR_F16, WR_F32, 1, 1 },
    { "wmma_f16f32_m32n8k16_rc", 32, 8, 16, WR_F16, WR_F32, 0, 1 },
    { "wmma_f16f32_m8n32k16_cr", 8, 32, 16, WR_F16, WR_F32, 1, 0 },
    { "wmma_f16f16_m16n16k16_rc", 16, 16, 16, WR_F16, WR_F16, 0, 1 },
    { "wmma_f16f16_m32n8k16_cr", 32, 8, 16, WR_F16, WR_F16, 1, 0 },
    { "wmma_f16f16_m8n32k16_rr", 8, 32, 16, WR_F16, WR_F16, 0, 0 },
    { "wmma_bf16_m16n16k16_rc", 16, 16, 16, WR_BF16, WR_F32, 0, 1 },
    { "wmma_bf16_m32n8k16_cc", 32, 8, 16, WR_BF16, WR_F32, 1, 1 },
    { "wmma_bf16_m8n32k16_rr", 8, 32, 16, WR_BF16, WR_F32, 0, 0 },
    { "wmma_tf32_m16n16k8_rr", 16, 16, 8, WR_TF32, WR_F32, 0, 0 },
    { "wmma_tf32_m16n16k8_cc", 16, 16, 8, WR_TF32, WR_F32, 1, 1 },
    { "wmma_f64_m8n8k4_rc", 8, 8, 4, WR_F64, WR_F64, 0, 1 },
    { "wmma_f64_m8n8k4_cr", 8, 8, 4, WR_F64, WR_F64, 1, 0 },
    { "wmma_s8_m16n16k16_rc", 16, 16, 16, WR_S8, WR_S32, 0, 1 },
    { "wmma_s8_m32n8k16_rr", 32, 8, 16, WR_S8, WR_S32, 0, 0 },
    { "wmma_s8_m8n32k16_cc", 8, 32, 16, WR_S8, WR_S32, 1, 1 },
    { "wmma_u8_m16n16k16_cr", 16, 16, 16, WR_U8, WR_S32, 1, 0 },
    { "wmma_u8_m8n32k16_rc", 8, 32, 16, WR_U8, WR_S32, 0, 1 },
    { "wmma_u8_m32n8k16_cc", 32, 8, 16, WR_U8, WR_S32, 1, 1 },
    { "wmma_s4_m8n8k32_rc", 8, 8, 32, WR_S4, WR_S32, 0, 1 },
    { "wmma_u4_m8n8k32_rc", 8, 8, 32, WR_U4, WR_S32, 0, 1 },
    { "wmma_b1_m8n8k128_rc", 8, 8, 128, WR_B1, WR_S32, 0, 1 },
};
#define WREF_NKERNELS ((int)(sizeof wref_kernels / sizeof wref_kernels[0]))
/* variants of each kernel: flags, padded strides, accumulators near the ends of the s32 range
 * (integer kernels only: with .satfinite they clamp, without it they wrap, §9.7.13.3.5; .b1 has
 * no .satfinite and wraps) */
static const int wref_variants[][3] = { { 0, 0, 0 }, { 1, 1, 0 }, { 2, 1, 0 }, { 7, 1, 1 },
                                        { 1, 1, 1 } };
#define WREF_NVARIANTS 5

static int wref_bits(int t)
{
    static const int b[] = { 0, 16, 16, 32, 32, 64, 8, 8, 4, 4, 1, 32 };
    return b[t];
}
static int wref_isint(int t) { return t >= WR_S8 && t <= WR_B1; }

/* One case, its inputs (as integers) and its memory images. */
typedef struct {
    const wref_kernel *kn;
    int flags, lda, ldb, ldc;
    size_t abytes, bbytes, cbytes;   /* sizes of the memory images */
    long long *a, *b, *c;            /* A (m x k), B (k x n), C (m x n), row-major integers */
    uint8_t *ma, *mb, *mc, *md;      /* memory images of A, B, C and the expected D */
} wref_case;

static uint32_t wref_rnd(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*s >> 33);
}

/* the bit pattern of type t for the integer v (exact for the inputs used here) */
static uint64_t wref_enc(int t, long long v)
{
    if (t == WR_F32 || t == WR_TF32 || t == WR_BF16) {
        float f = (float)v;
        uint32_t u;
        memcpy(&u, &f, 4);
        return t == WR_BF16 ? u >> 16 : u;
    }
    if (t == WR_F64) {
        double d = (double)v;
        uint64_t u;
        memcpy(&u, &d, 8);
        return u;
    }
    if (t == WR_F16) {
        unsigned a = (unsigned)(v < 0 ? -v : v), e = 0;
        if (v == 0) return 0;
        while ((a >> e) > 1) e++;
        return (v < 0 ? 0x8000u : 0) | (e + 15) << 10 | ((a << (10 - e)) & 0x3ff);
    }
    return (uint64_t)v & (wref_bits(t) == 64 ? ~0ull : (1ull << wref_bits(t)) - 1);
}

/* store bit pattern v of a `bits`-bit element at element index i of buf */
static void wref_put(uint8_t *buf, int bits, size_t i, uint64_t v)
{
    if (bits >= 8) {
        memcpy(buf + i * (size_t)(bits / 8), &v, (size_t)(bits / 8));
        return;
    }
    size_t bit = i * (size_t)bits;
    unsigned m = (1u << bits) - 1;
    buf[bit / 8] = (uint8_t)((buf[bit / 8] & ~(m << bit % 8)) | (v & m) << bit % 8);
}

/* an input of type t: small integers for floats (and C), any value for integer multiplicands */
static long long wref_input(int t, uint64_t *s)
{
    uint32_t r = wref_rnd(s);
    switch (t) {
    case WR_S8: return (int8_t)r;
    case WR_U8: return r & 0xff;
    case WR_S4: return (long long)(r & 15) - 8;
    case WR_U4: return r & 15;
    case WR_B1: return r & 1;
    default: return (long long)(r % 9) - 4;
    }
}

/* the matrix x (rows x cols, row-major) into memory: column-major if col, leading dimension ld */
static uint8_t *wref_image(const long long *x, int rows, int cols, int t, int col, int ld,
                           size_t *bytes)
{
    int lines = col ? cols : rows, bits = wref_bits(t);
    *bytes = ((size_t)lines * (size_t)ld * (size_t)bits + 7) / 8;
    uint8_t *m = (uint8_t *)calloc(*bytes + 8, 1);
    for (size_t i = 0; i < *bytes; i++) m[i] = (uint8_t)(0x5a ^ i);   /* padding */
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++)
            wref_put(m, bits, col ? (size_t)j * ld + i : (size_t)i * ld + j,
                     wref_enc(t, x[i * cols + j]));
    return m;
}

/* Build case (kernel ki, variant vi); 0 if that variant does not apply to the kernel. */
static int wref_make(int ki, int vi, wref_case *w)
{
    const wref_kernel *kn = &wref_kernels[ki];
    int flags = wref_variants[vi][0], pad = wref_variants[vi][1], ext = wref_variants[vi][2];
    int M = kn->m, N = kn->n, K = kn->k, ccol = (flags & 2) != 0;
    if ((flags & 4 || ext) && !wref_isint(kn->at)) return 0;
    memset(w, 0, sizeof *w);
    w->kn = kn, w->flags = flags;
    /* padding: 32 bytes per line, a multiple of every fragment size (§9.7.13.3.2) */
    w->lda = (kn->acol ? M : K) + pad * 256 / wref_bits(kn->at);
    w->ldb = (kn->bcol ? K : N) + pad * 256 / wref_bits(kn->at);
    w->ldc = (ccol ? M : N) + pad * 256 / wref_bits(kn->ct);
    uint64_t s = 0x9e3779b97f4a7c15ull ^ (uint64_t)(ki * 16 + vi);
    w->a = (long long *)malloc(sizeof(long long) * (size_t)(M * K));
    w->b = (long long *)malloc(sizeof(long long) * (size_t)(K * N));
    w->c = (long long *)malloc(sizeof(long long) * (size_t)(M * N));
    long long *d = (long long *)malloc(sizeof(long long) * (size_t)(M * N));
    for (int i = 0; i < M * K; i++) w->a[i] = wref_input(kn->at, &s);
    for (int i = 0; i < K * N; i++) w->b[i] = wref_input(kn->at, &s);
    for (int i = 0; i < M * N; i++) {
        long long r = (long long)(wref_rnd(&s) % 2001) - 1000;
        if (!wref_isint(kn->at)) r = (long long)(wref_rnd(&s) % 101) - 50;
        /* near the ends of the s32 range, some of them overflowing */
        if (ext) r = i % 2 ? INT32_MAX - (r + 1000) : INT32_MIN + (r + 1000);
        w->c[i] = r;
    }
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            long long acc = w->c[i * N + j];
            for (int q = 0; q < K; q++) {
                long long x = w->a[i * K + q], y = w->b[q * N + j];
                acc += kn->at != WR_B1 ? x * y : (flags & 4) ? (x & y) : (x ^ y);
            }
            if (flags & 4 && kn->at != WR_B1)
                acc = acc > INT32_MAX ? INT32_MAX : acc < INT32_MIN ? INT32_MIN : acc;
            d[i * N + j] = acc;   /* wrapped to 32 bits by wref_enc */
        }
    w->ma = wref_image(w->a, M, K, kn->at, kn->acol, w->lda, &w->abytes);
    w->mb = wref_image(w->b, K, N, kn->at, kn->bcol, w->ldb, &w->bbytes);
    w->mc = wref_image(w->c, M, N, kn->ct, ccol, w->ldc, &w->cbytes);
    /* D is written over a copy of C (the kernel copies C's padding along in shared memory) */
    size_t db;
    w->md = wref_image(d, M, N, kn->ct, ccol, w->ldc, &db);
    free(d);
    return 1;
}

static void wref_free(wref_case *w)
{
    free(w->a), free(w->b), free(w->c), free(w->ma), free(w->mb), free(w->mc), free(w->md);
}
#endif
