// tests/kernels/mma.cu — warp-level matrix instructions (ISA 8.4 §9.7.13.4) from inline PTX, run by
// tests/test_exec_kernels.c (k_mma_*) and compared bit for bit with a C GEMM computed there.
// Integer-valued inputs: the floating-point results are exact in any accumulation order.
#include <cstdint>

// A tiled GEMM C[M][N] = A[M][K] * B[K][N] (f16 in, f32 out) with mma.m16n8k16: each warp computes
// one 16x8 tile; A (row-major) and B are staged in shared memory and read with ldmatrix: A with
// .x4, B with .x2 from Bt[N][K] (trans = 0) or with .x2.trans from B[K][N] (trans = 1).
extern "C" __global__ void gemm_f16(const uint16_t *A, const uint16_t *B, float *C, int M, int N,
                                    int K, int trans)
{
    __shared__ __align__(16) uint16_t sa[16 * 16], sb[16 * 16];
    int lane = threadIdx.x, tm = blockIdx.y * 16, tn = blockIdx.x * 8;
    float d[4] = { 0, 0, 0, 0 };
    for (int k0 = 0; k0 < K; k0 += 16) {
        for (int i = lane; i < 256; i += 32) sa[i] = A[(tm + i / 16) * K + k0 + i % 16];
        for (int i = lane; i < 128; i += 32) {
            if (trans) sb[i] = B[(k0 + i / 8) * N + tn + i % 8];        // sb[k][n], 16 x 8
            else sb[i] = B[(k0 + i % 16) * N + tn + i / 16];            // sb[n][k], 8 x 16
        }
        __syncwarp();
        unsigned a[4], b[2];
        // A: matrices (rows 0-7, k 0-7), (rows 8-15, k 0-7), (rows 0-7, k 8-15), (rows 8-15, k 8-15)
        unsigned pa = (unsigned)__cvta_generic_to_shared(&sa[(lane % 16) * 16 + (lane / 16) * 8]);
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                     : "=r"(a[0]), "=r"(a[1]), "=r"(a[2]), "=r"(a[3]) : "r"(pa));
        if (trans) {
            unsigned pb = (unsigned)__cvta_generic_to_shared(&sb[(lane % 16) * 8]);
            asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];"
                         : "=r"(b[0]), "=r"(b[1]) : "r"(pb));
        } else {
            unsigned pb = (unsigned)__cvta_generic_to_shared(&sb[(lane % 8) * 16 + ((lane / 8) % 2) * 8]);
            asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];"
                         : "=r"(b[0]), "=r"(b[1]) : "r"(pb));
        }
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, "
                     "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
                     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
        __syncwarp();
    }
    int g = lane >> 2, t = lane & 3;
    for (int i = 0; i < 4; i++) C[(tm + g + 8 * (i >= 2)) * N + tn + t * 2 + (i & 1)] = d[i];
}

// One mma of each form on fragments built in the kernel from the ISA's layout formulas
// (§9.7.13.4.3-13), as raw element bit patterns: A[m][k], B[k][n] (one uint32 per element),
// C and D [m][n] (f32/s32 bits; f64: two words).
template <int M, int K, int EB>
__device__ unsigned frag_a(const unsigned *A, int r)
{
    const int p = 32 / EB, lane = threadIdx.x, g = lane >> 2, t = lane & 3;
    int row = g + 8 * (r & 1), col = t * p + (r >> 1) * 4 * p;
    unsigned v = 0;
    for (int j = 0; j < p; j++) v |= (A[row * K + col + j] & (EB == 32 ? ~0u : (1u << EB) - 1)) << (j * EB);
    return v;
}
template <int K, int EB>
__device__ unsigned frag_b(const unsigned *B, int r)
{
    const int p = 32 / EB, lane = threadIdx.x, g = lane >> 2, t = lane & 3;
    unsigned v = 0;
    for (int j = 0; j < p; j++) v |= (B[(t * p + j + r * 4 * p) * 8 + g] & (EB == 32 ? ~0u : (1u << EB) - 1)) << (j * EB);
    return v;
}
__device__ int crow(int i, int m) { return m == 16 ? (threadIdx.x >> 2) + 8 * (i >= 2) : threadIdx.x >> 2; }
__device__ int ccol(int i) { return (threadIdx.x & 3) * 2 + (i & 1); }

#define MMA16(SHAPE_TYPES, K, EB, NA, NB)                                                          \
    {                                                                                             \
        unsigned a[4], b[2], c[4], d[4];                                                          \
        for (int r = 0; r < NA; r++) a[r] = frag_a<16, K, EB>(A, r);                              \
        for (int r = 0; r < NB; r++) b[r] = frag_b<K, EB>(B, r);                                  \
        for (int i = 0; i < 4; i++) c[i] = C[crow(i, 16) * 8 + ccol(i)];                          \
        MMA_ASM_##NA##NB(SHAPE_TYPES);                                                            \
        for (int i = 0; i < 4; i++) D[crow(i, 16) * 8 + ccol(i)] = d[i];                          \
    }
#define MMA_ASM_42(ST) asm volatile("mma.sync.aligned." ST " {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};" \
    : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]))
#define MMA_ASM_21(ST) asm volatile("mma.sync.aligned." ST " {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};" \
    : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]))

// form: 0 f16 m16n8k16, 1 bf16 m16n8k16, 2 tf32 m16n8k8, 3 bf16 m16n8k8, 4 s8 m16n8k32 (satfinite),
// 5 u8.s8 m16n8k16, 6 s4 m16n8k64, 7 u4 m16n8k32, 8 b1 m16n8k256 xor, 9 b1 m16n8k128 and,
// 10 tf32 m16n8k4, 11 f16 m16n8k8
extern "C" __global__ void mma_forms(const unsigned *A, const unsigned *B, const unsigned *C,
                                     unsigned *D, int form)
{
    switch (form) {
    case 0: MMA16("m16n8k16.row.col.f32.f16.f16.f32", 16, 16, 4, 2) break;
    case 1: MMA16("m16n8k16.row.col.f32.bf16.bf16.f32", 16, 16, 4, 2) break;
    case 2: MMA16("m16n8k8.row.col.f32.tf32.tf32.f32", 8, 32, 4, 2) break;
    case 3: MMA16("m16n8k8.row.col.f32.bf16.bf16.f32", 8, 16, 2, 1) break;
    case 4: MMA16("m16n8k32.row.col.satfinite.s32.s8.s8.s32", 32, 8, 4, 2) break;
    case 5: MMA16("m16n8k16.row.col.s32.u8.s8.s32", 16, 8, 2, 1) break;
    case 6: MMA16("m16n8k64.row.col.s32.s4.s4.s32", 64, 4, 4, 2) break;
    case 7: MMA16("m16n8k32.row.col.s32.u4.u4.s32", 32, 4, 2, 1) break;
    case 8: MMA16("m16n8k256.row.col.s32.b1.b1.s32.xor.popc", 256, 1, 4, 2) break;
    case 9: MMA16("m16n8k128.row.col.s32.b1.b1.s32.and.popc", 128, 1, 2, 1) break;
    case 10: MMA16("m16n8k4.row.col.f32.tf32.tf32.f32", 4, 32, 2, 1) break;
    case 11: MMA16("m16n8k8.row.col.f32.f16.f16.f32", 8, 16, 2, 1) break;
    }
}

// m8n8k4 .f64 (§9.7.13.4.2): A[8][4], B[4][8], C/D[8][8] as doubles.
extern "C" __global__ void mma_f64(const double *A, const double *B, const double *C, double *D)
{
    int lane = threadIdx.x, g = lane >> 2, t = lane & 3;
    double a = A[g * 4 + t], b = B[t * 8 + g], c0 = C[g * 8 + t * 2], c1 = C[g * 8 + t * 2 + 1], d0, d1;
    asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%4, %5};"
                 : "=d"(d0), "=d"(d1) : "d"(a), "d"(b), "d"(c0), "d"(c1));
    D[g * 8 + t * 2] = d0;
    D[g * 8 + t * 2 + 1] = d1;
}

// m16n8k16 with .f16 accumulators (C and D packed .f16x2): A, B, C, D raw f16 bits.
extern "C" __global__ void mma_f16acc(const uint16_t *A, const uint16_t *B, const uint16_t *C,
                                      uint16_t *D)
{
    unsigned a[4], b[2], c[2], d[2];
    unsigned A32[256], B32[128];
    for (int i = 0; i < 256; i++) A32[i] = A[i];
    for (int i = 0; i < 128; i++) B32[i] = B[i];
    for (int r = 0; r < 4; r++) a[r] = frag_a<16, 16, 16>(A32, r);
    for (int r = 0; r < 2; r++) b[r] = frag_b<16, 16>(B32, r);
    for (int r = 0; r < 2; r++)
        c[r] = C[crow(2 * r, 16) * 8 + ccol(0)] | (unsigned)C[crow(2 * r, 16) * 8 + ccol(1)] << 16;
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0, %1}, {%2, %3, %4, %5}, "
                 "{%6, %7}, {%8, %9};"
                 : "=r"(d[0]), "=r"(d[1]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]),
                   "r"(b[1]), "r"(c[0]), "r"(c[1]));
    for (int r = 0; r < 2; r++) {
        D[crow(2 * r, 16) * 8 + ccol(0)] = (uint16_t)d[r];
        D[crow(2 * r, 16) * 8 + ccol(1)] = (uint16_t)(d[r] >> 16);
    }
}

// movmatrix (sm_75) and stmatrix (sm_90): M[8][8] b16 (four matrices for stmatrix .x4) is read
// into the ldmatrix fragment layout, transposed by movmatrix into T, and written back with
// stmatrix (.x4 plain, and .x4.trans).
extern "C" __global__ void matrix_moves(const uint16_t *M, uint16_t *T, uint16_t *S, uint16_t *ST)
{
    __shared__ __align__(16) uint16_t sm[4 * 64], so[4 * 64], sot[4 * 64];
    int lane = threadIdx.x;
    for (int i = lane; i < 256; i += 32) sm[i] = M[i];
    __syncwarp();
    unsigned r[4], t;
    unsigned p = (unsigned)__cvta_generic_to_shared(&sm[lane * 8]);
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(p));
    asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;" : "=r"(t) : "r"(r[1]));
    int g = lane >> 2, q = lane & 3;
    T[g * 8 + 2 * q] = (uint16_t)t;
    T[g * 8 + 2 * q + 1] = (uint16_t)(t >> 16);
    unsigned po = (unsigned)__cvta_generic_to_shared(&so[lane * 8]);
    unsigned pt = (unsigned)__cvta_generic_to_shared(&sot[lane * 8]);
    asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};"
                 :: "r"(po), "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3]));
    asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1, %2, %3, %4};"
                 :: "r"(pt), "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3]));
    __syncwarp();
    for (int i = lane; i < 256; i += 32) S[i] = so[i], ST[i] = sot[i];
}
