/* tests/gemm_ref.h — inputs and C reference of the GEMM kernels bench/exec/gemm_sm80.cu and
 * bench/exec/gemm_sm90a.cu, shared by tests/test_exec_gemm.c, bench/exec/gemm_data.c (the
 * benchmark's inputs and reference) and tests/kernels/record_gpu.cu (the GPU recording).
 * A[M][K] f16 row-major, B[K][N] f16 row-major (gemm_sm80), Bt[N][K] = B transposed (gemm_sm90a:
 * both wgmma operands K-major), C[M][N] f32.  Elements are integers in [-4, 4] from a hash of
 * (matrix, row, column, seed): every product and partial sum is an integer below 2^24 for
 * K < 2^19, so the f32 result is exact whatever the order of accumulation, which the ISA leaves
 * to the hardware (§9.7.13.4 for mma.sync, §9.7.14.5.2 for wgmma); any GPU gives the same bits. */
#ifndef GEMM_REF_H
#define GEMM_REF_H
#include <stdint.h>
#include <stddef.h>
#include <stdlib.h>

static inline int gref_val(unsigned mat, unsigned r, unsigned c, unsigned seed)
{
    uint32_t h = mat * 0x9E3779B9u ^ r * 0x85EBCA6Bu ^ c * 0xC2B2AE35u ^ seed * 0x27D4EB2Fu;
    h ^= h >> 15; h *= 0x2C1B3C6Du; h ^= h >> 12; h *= 0x297A2D39u; h ^= h >> 15;
    return (int)(h % 9u) - 4;
}

/* IEEE binary16 bits of a small integer (|v| <= 2048: exact) */
static inline uint16_t gref_f16(int v)
{
    if (v == 0) return 0;
    uint16_t s = v < 0 ? 0x8000 : 0;
    unsigned a = (unsigned)(v < 0 ? -v : v), e = 0;
    while ((a >> e) > 1) e++;
    return (uint16_t)(s | (e + 15) << 10 | ((a << (10 - e)) & 0x3ff));
}

/* fill A (M x K), B (K x N) and Bt (N x K), each optional (NULL: skipped) */
static inline void gref_inputs(int M, int N, int K, unsigned seed, uint16_t *A, uint16_t *B,
                               uint16_t *Bt)
{
    for (int i = 0; A && i < M; i++)
        for (int k = 0; k < K; k++) A[(size_t)i * K + k] = gref_f16(gref_val(1, i, k, seed));
    for (int k = 0; k < K; k++)
        for (int j = 0; j < N; j++) {
            uint16_t b = gref_f16(gref_val(2, k, j, seed));
            if (B) B[(size_t)k * N + j] = b;
            if (Bt) Bt[(size_t)j * K + k] = b;
        }
}

/* C = A * B, f32 sums of integer products (every partial sum is an integer below 2^24: exact);
 * B's values are computed once into a scratch of K * N bytes */
static inline void gref_gemm(int M, int N, int K, unsigned seed, float *C)
{
    int8_t *b = (int8_t *)malloc((size_t)K * N);
    if (!b) abort();
    for (int k = 0; k < K; k++)
        for (int j = 0; j < N; j++) b[(size_t)k * N + j] = (int8_t)gref_val(2, k, j, seed);
    for (int i = 0; i < M; i++) {
        float *c = C + (size_t)i * N;
        for (int j = 0; j < N; j++) c[j] = 0;
        for (int k = 0; k < K; k++) {
            int av = gref_val(1, i, k, seed);
            const int8_t *br = b + (size_t)k * N;
            if (av)
                for (int j = 0; j < N; j++) c[j] += (float)(av * br[j]);
        }
    }
    free(b);
}

/* the sizes M, N, K of tests/test_exec_gemm.c and of the GPU recording (record_gpu.cu) */
static const int gref_sizes[][3] = {
    { 128, 128, 64 },    /* one tile */
    { 200, 136, 72 },    /* non-square; M, N, K edges (zero fill, guarded stores) */
    { 128, 256, 256 },   /* 8 / 4 k-tiles: both cp.async buffers, all 3 TMA stages refilled */
    { 64, 384, 32 },     /* M below the tile, K below sm_90a's k-tile */
};
#define GREF_NSIZES (int)(sizeof gref_sizes / sizeof gref_sizes[0])
#endif
