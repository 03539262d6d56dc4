// bench/exec/gemm_sm80.cu — a tiled tensor-core GEMM for sm_80, the executor's GEMM benchmark
// (bench/exec/gemm_bench.sh) and test kernel (tests/test_exec_gemm.c).
//   C[M][N] (f32, row-major) = A[M][K] (f16, row-major) * B[K][N] (f16, row-major)
// Build: /usr/local/cuda/bin/nvcc -ptx -arch=sm_80 gemm_sm80.cu -o gemm_sm80.ptx
// Launch: grid (ceil(N/128), ceil(M/128)), block 256 (8 warps), no dynamic shared memory.
// Limits: K and N multiples of 8 (16-byte cp.async chunks of a row); any M; M, N edges are
// zero-filled on load (cp.async src-size 0) and guarded on store.
//
// Block tile 128 x 128 x 32; warps 2 (M) x 4 (N), warp tile 64 x 32 = 4 x 4 mma tiles m16n8.
// Shared memory staging in two buffers (double buffering): cp.async.cg 16 bytes (ISA 8.4
// §9.7.8.24.3) with commit_group/wait_group (§9.7.8.24.4-5): the next k-tile is in flight while
// the current one is multiplied.  Rows are padded by 8 halves (16 bytes) against bank conflicts.
// Fragments: ldmatrix.sync.aligned.m8n8.x4.shared.b16 for A (row-major 16x16 = four 8x8
// matrices, a0..a3 of §9.7.13.4.8's m16n8k16 A layout) and .x4.trans for B (stored k-major
// rows, transposed into the "col" B fragment: two n8 tiles per ldmatrix) (§9.7.13.4.15);
// mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 (§9.7.13.4.14, fragments §9.7.13.4.8).
// The float accumulation order of mma is left to the hardware (§9.7.13.4.14): the tests and the
// benchmark use small integers, whose sums are exact in any order.
#include <cstdint>

#define G80_BM 128
#define G80_BN 128
#define G80_BK 32
#define G80_APAD 8                   // halves of padding per A row in shared memory
#define G80_BPAD 8
#define G80_AS (G80_BK + G80_APAD)   // A row stride in shared memory, halves (80 bytes)
#define G80_BS (G80_BN + G80_BPAD)   // B row stride in shared memory, halves (272 bytes)

__device__ static inline uint32_t g80_smem(const void *p)
{
    return (uint32_t)__cvta_generic_to_shared(p);
}

// 16 bytes global -> shared; n valid source bytes (0 or 16), the rest zero-filled
__device__ static inline void g80_cp16(uint32_t dst, const void *src, int n)
{
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(dst), "l"(src), "r"(n)
                 : "memory");
}

__device__ static inline void g80_ldm_x4(uint32_t *r, uint32_t a)
{
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(a));
}

__device__ static inline void g80_ldm_x4_t(uint32_t *r, uint32_t a)
{
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(a));
}

__device__ static inline void g80_mma16816(float *d, const uint32_t *a, const uint32_t *b)
{
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
                 "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

// k-tile kt of A (rows m0..m0+127) and B (columns n0..n0+127) into buffer s: 2 + 2 chunks each
__device__ static inline void g80_load_tile(uint16_t (*sa)[G80_AS], uint16_t (*sb)[G80_BS],
                                        const uint16_t *A, const uint16_t *B, int M, int N,
                                        int K, int m0, int n0, int kt)
{
    int t = threadIdx.x;
    for (int i = 0; i < 2; i++) {
        int c = t + 256 * i;                      // A: 128 rows x 4 chunks
        int r = c / 4, kc = (c % 4) * 8, gm = m0 + r, gk = kt * G80_BK + kc;
        bool ok = gm < M && gk < K;
        g80_cp16(g80_smem(&sa[r][kc]), ok ? A + (size_t)gm * K + gk : A, ok ? 16 : 0);
    }
    for (int i = 0; i < 2; i++) {
        int c = t + 256 * i;                      // B: 32 rows x 16 chunks
        int r = c / 16, nc = (c % 16) * 8, gk = kt * G80_BK + r, gn = n0 + nc;
        bool ok = gk < K && gn < N;
        g80_cp16(g80_smem(&sb[r][nc]), ok ? B + (size_t)gk * N + gn : B, ok ? 16 : 0);
    }
    asm volatile("cp.async.commit_group;" ::: "memory");
}

extern "C" __global__ void __launch_bounds__(256)
gemm_sm80(const uint16_t *__restrict__ A, const uint16_t *__restrict__ B, float *__restrict__ C,
          int M, int N, int K)
{
    __shared__ __align__(128) uint16_t sa[2][G80_BM][G80_AS];
    __shared__ __align__(128) uint16_t sb[2][G80_BK][G80_BS];
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    int wm = warp / 4, wn = warp % 4;             // warp tile rows 64 wm, columns 32 wn
    int m0 = blockIdx.y * G80_BM, n0 = blockIdx.x * G80_BN;
    int KT = (K + G80_BK - 1) / G80_BK;
    float acc[4][4][4] = {};

    g80_load_tile(sa[0], sb[0], A, B, M, N, K, m0, n0, 0);
    for (int kt = 0; kt < KT; kt++) {
        int s = kt & 1;
        if (kt + 1 < KT) {
            g80_load_tile(sa[s ^ 1], sb[s ^ 1], A, B, M, N, K, m0, n0, kt + 1);
            asm volatile("cp.async.wait_group 1;" ::: "memory");
        } else {
            asm volatile("cp.async.wait_group 0;" ::: "memory");
        }
        __syncthreads();
#pragma unroll
        for (int ks = 0; ks < G80_BK; ks += 16) {
            uint32_t af[4][4], bf[4][2];
#pragma unroll
            for (int i = 0; i < 4; i++)       // rows lane%16, columns ks + 8 (lane/16)
                g80_ldm_x4(af[i],
                           g80_smem(&sa[s][wm * 64 + i * 16 + lane % 16][ks + lane / 16 * 8]));
#pragma unroll
            for (int j = 0; j < 2; j++) {     // k rows lane%16, columns 16 j + 8 (lane/16)
                uint32_t r[4];
                g80_ldm_x4_t(r,
                             g80_smem(&sb[s][ks + lane % 16][wn * 32 + j * 16 + lane / 16 * 8]));
                bf[2 * j][0] = r[0], bf[2 * j][1] = r[1];
                bf[2 * j + 1][0] = r[2], bf[2 * j + 1][1] = r[3];
            }
#pragma unroll
            for (int i = 0; i < 4; i++)
#pragma unroll
                for (int j = 0; j < 4; j++) g80_mma16816(acc[i][j], af[i], bf[j]);
        }
        __syncthreads();
    }
    // accumulator fragment (§9.7.13.4.8): c0,c1 at row g, columns 2t, 2t+1; c2,c3 at row g + 8
    int g = lane / 4, t2 = (lane % 4) * 2;
#pragma unroll
    for (int i = 0; i < 4; i++)
#pragma unroll
        for (int j = 0; j < 4; j++)
#pragma unroll
            for (int h = 0; h < 2; h++) {
                int r = m0 + wm * 64 + i * 16 + g + 8 * h, c = n0 + wn * 32 + j * 8 + t2;
                if (r < M && c < N)   // N is even: both columns are in bounds
                    *(float2 *)&C[(size_t)r * N + c] = make_float2(acc[i][j][2 * h],
                                                                   acc[i][j][2 * h + 1]);
            }
}
