// tests/kernels/wgmma.cu — warpgroup-level matrix multiply-accumulate (PTX ISA 8.4 §9.7.14,
// sm_90a) from inline PTX: wgmma.mma_async with A in registers or in shared memory, B in shared
// memory through matrix descriptors (§9.7.14.5.1.2.7), without swizzle and with 32B/64B/128B
// swizzle, a transposed B, .f16/.bf16/.tf32/.s8/.u8 inputs, .f32/.f16/.s32 accumulators,
// wgmma.mma_async.sp with 2:4 metadata, and setmaxnreg.  Run by tests/test_exec_wgmma.c, which
// compares D bit for bit with a C GEMM.  Integer-valued inputs: the floating-point results are
// exact in any accumulation order (the ISA leaves the order open, §9.7.14.5.2).
//
// Matrices are passed as one 32-bit word per element (raw element bits): A[rows][K], B[K][N],
// C and D [rows][N] (f32 / s32 bits, f16 bits for .f16 accumulators).  The kernels build the
// register fragments (§9.7.14.5.1.1) and the shared-memory layouts (§9.7.14.5.1.2) themselves:
//   K-major (A rows, B columns; 8-row core matrices of 16 bytes), swizzle width W bytes (16: none):
//     offset(mn, kbyte) = (mn / 8) SBO + (kbyte / W) LBO + (mn % 8) W + kbyte % W
//   MN-major without swizzle (transposed, 16-bit): (mn / 8) SBO + (k / 8) LBO + (k % 8) 16 + 2 (mn % 8)
//   swizzle: byte address bits [4, 4+b) ^= bits [7, 7+b), b = 1, 2, 3 for 32B, 64B, 128B
// Shared arrays are 1024-byte aligned, so offsets swizzle like the absolute addresses.
#include <cstdint>

__device__ unsigned swz(unsigned a, int W) { return W == 16 ? a : a ^ (((a >> 7) & (W / 16 - 1)) << 4); }
__device__ unsigned kmaj(int mn, int kbyte, int W, unsigned lbo, unsigned sbo)
{
    return swz((mn / 8) * sbo + (kbyte / W) * lbo + (mn % 8) * W + kbyte % W, W);
}
__device__ void put(uint8_t *s, unsigned off, unsigned v, int bytes)
{
    for (int b = 0; b < bytes; b++) s[off + b] = (uint8_t)(v >> (8 * b));
}
// matrix descriptor (§9.7.14.5.1.2.7); swizzle code 0 none, 1 128B, 2 64B, 3 32B
__device__ uint64_t mdesc(const void *p, unsigned lbo, unsigned sbo, int W)
{
    uint64_t a = (uint64_t)__cvta_generic_to_shared(p);
    uint64_t mode = W == 128 ? 1 : W == 64 ? 2 : W == 32 ? 3 : 0;
    return ((a & 0x3ffff) >> 4) | (uint64_t)((lbo & 0x3ffff) >> 4) << 16 |
           (uint64_t)((sbo & 0x3ffff) >> 4) << 32 | mode << 62;
}
// stage M[rows][cols] (row = mn, col = k, EB-bit elements) K-major into s
__device__ void stage_k(uint8_t *s, const unsigned *M, int rows, int cols, int EB, int W,
                        unsigned lbo, unsigned sbo, int transposed_src, int ncols_src)
{
    for (int i = threadIdx.x % 128; i < rows * cols; i += 128) {
        int mn = i / cols, k = i % cols;
        unsigned v = transposed_src ? M[k * ncols_src + mn] : M[mn * ncols_src + k];
        put(s, kmaj(mn, k * EB / 8, W, lbo, sbo), v, EB / 8);
    }
}
__device__ void sync_smem()
{
    asm volatile("fence.proxy.async.shared::cta;");
    __syncthreads();
}
// A fragment register r: rows 16 (warp % 4) + g (+8), EB-bit elements, Kf columns (§9.7.14.5.1.1)
__device__ unsigned frag_a(const unsigned *A, int Kf, int EB, int r, int row0)
{
    int lane = threadIdx.x % 32, w = threadIdx.x / 32 % 4, g = lane >> 2, t = lane & 3, p = 32 / EB;
    int row = row0 + 16 * w + g + 8 * (r & 1), col = t * p + (r >> 1) * 4 * p;
    unsigned v = 0, m = EB == 32 ? ~0u : (1u << EB) - 1;
    for (int j = 0; j < p; j++) v |= (A[row * Kf + col + j] & m) << (j * EB);
    return v;
}
// D element i of this thread: row, column (§9.7.14.5.1.1, Figures 120/122/124)
__device__ int drow(int i) { return 16 * (threadIdx.x / 32 % 4) + (threadIdx.x % 32 >> 2) + 8 * (i >> 1 & 1); }
__device__ int dcol(int i) { return 8 * (i >> 2) + 2 * (threadIdx.x & 3) + (i & 1); }
#define LOAD_D(ND, N, row0)  for (int i = 0; i < ND; i++) d[i] = __uint_as_float(C[(row0 + drow(i)) * N + dcol(i)]);
#define STORE_D(ND, N, row0) for (int i = 0; i < ND; i++) D[(row0 + drow(i)) * N + dcol(i)] = __float_as_uint(d[i]);
#define WG_BEGIN asm volatile("wgmma.fence.sync.aligned;" ::: "memory")
#define WG_END asm volatile("wgmma.commit_group.sync.aligned;\n\twgmma.wait_group.sync.aligned 0;" ::: "memory")

// m64n16k16 .f32.f16.f16, A from registers, B (16 x 16) without swizzle (LBO 128, SBO 256);
// blockDim.x = 128 * warpgroups, warpgroup i computes rows 64i .. 64i+63.  D = A * B + C.
extern "C" __global__ void wg_f16_rs(const unsigned *A, const unsigned *B, const unsigned *C,
                                     unsigned *D)
{
    __shared__ __align__(1024) uint8_t sb[16 * 16 * 2];
    int row0 = threadIdx.x / 128 * 64;
    asm volatile("setmaxnreg.inc.sync.aligned.u32 240;");
    if (threadIdx.x < 128) stage_k(sb, B, 16, 16, 16, 16, 128, 256, 1, 16);
    sync_smem();
    float d[8];
    unsigned a[4];
    LOAD_D(8, 16, row0)
    for (int r = 0; r < 4; r++) a[r] = frag_a(A, 16, 16, r, row0);
    uint64_t db = mdesc(sb, 128, 256, 16);
    WG_BEGIN;
    asm volatile("wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9, %10, %11}, %12, 1, 1, 1, 0;"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db));
    WG_END;
    STORE_D(8, 16, row0)
    asm volatile("setmaxnreg.dec.sync.aligned.u32 32;");
}

// m64n32k16 .f32.f16.f16, A (64 x 16) and B (16 x 32) in shared memory without swizzle: A with
// its K core matrices 1024 bytes apart and M core matrices 128 apart (LBO 1024, SBO 128), B with
// LBO 128, SBO 256.  scale-d from a predicate: D = A * B + (scale_d ? C : 0).
extern "C" __global__ void wg_f16_ss(const unsigned *A, const unsigned *B, const unsigned *C,
                                     unsigned *D, int scale_d)
{
    __shared__ __align__(1024) uint8_t sa[64 * 16 * 2], sb[32 * 16 * 2];
    stage_k(sa, A, 64, 16, 16, 16, 1024, 128, 0, 16);
    stage_k(sb, B, 32, 16, 16, 16, 128, 256, 1, 32);
    sync_smem();
    float d[16];
    LOAD_D(16, 32, 0)
    uint64_t da = mdesc(sa, 1024, 128, 16), db = mdesc(sb, 128, 256, 16);
    WG_BEGIN;
    asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %18, 0;\n\t"
                 "wgmma.mma_async.sync.aligned.m64n32k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15}, %16, %17, p, 1, 1, 0, 0;\n\t}"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]) : "l"(da), "l"(db), "r"(scale_d));
    WG_END;
    STORE_D(16, 32, 0)
}

// K = 64 in four m64n64k16 steps, A (64 x 64) and B (64 x 64) in shared memory with 128-byte
// swizzle (rows of 128 bytes, SBO 1024): each step advances the descriptors' start address by 32
// bytes inside the swizzled rows, as GEMM kernels do.  The first step has scale-d = 0: D = A * B.
extern "C" __global__ void wg_f16_sw128(const unsigned *A, const unsigned *B, const unsigned *C,
                                        unsigned *D)
{
    __shared__ __align__(1024) uint8_t sa[64 * 128], sb[64 * 128];
    stage_k(sa, A, 64, 64, 16, 128, 16, 1024, 0, 64);
    stage_k(sb, B, 64, 64, 16, 128, 16, 1024, 1, 64);
    sync_smem();
    float d[32];
    LOAD_D(32, 64, 0)
    WG_BEGIN;
    for (int ks = 0; ks < 4; ks++) {
        uint64_t da = mdesc(sa + 32 * ks, 16, 1024, 128), db = mdesc(sb + 32 * ks, 16, 1024, 128);
        asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %34, 0;\n\t"
                     "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, %32, %33, p, 1, 1, 0, 0;\n\t}"
                     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]) : "l"(da), "l"(db), "r"(ks));
    }
    WG_END;
    STORE_D(32, 64, 0)
}

// m64n8k16 with .f16 accumulators (two .f16x2 registers), A from registers negated
// (imm-scale-a = -1), B without swizzle: D = -A * B + C, C and D as f16 bits.
extern "C" __global__ void wg_f16_f16acc(const unsigned *A, const unsigned *B, const unsigned *C,
                                         unsigned *D)
{
    __shared__ __align__(1024) uint8_t sb[8 * 16 * 2];
    stage_k(sb, B, 8, 16, 16, 16, 128, 256, 1, 8);
    sync_smem();
    unsigned d[2], a[4];
    for (int r = 0; r < 2; r++)
        d[r] = C[drow(2 * r) * 8 + dcol(2 * r)] | C[drow(2 * r + 1) * 8 + dcol(2 * r + 1)] << 16;
    for (int r = 0; r < 4; r++) a[r] = frag_a(A, 16, 16, r, 0);
    uint64_t db = mdesc(sb, 128, 256, 16);
    WG_BEGIN;
    asm volatile("wgmma.mma_async.sync.aligned.m64n8k16.f16.f16.f16 {%0, %1}, {%2, %3, %4, %5}, %6, 1, -1, 1, 0;"
                 : "+r"(d[0]), "+r"(d[1]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db));
    WG_END;
    for (int r = 0; r < 2; r++) {
        D[drow(2 * r) * 8 + dcol(2 * r)] = d[r] & 0xffff;
        D[drow(2 * r + 1) * 8 + dcol(2 * r + 1)] = d[r] >> 16;
    }
}

// m64n16k16 .f32.bf16.bf16, A in shared memory (no swizzle, LBO 128, SBO 256), B transposed
// (imm-trans-b = 1: MN-major, 8 K-rows of 8 N elements per core matrix, N core matrices SBO 128
// apart, K core matrices LBO 256 apart) and negated (imm-scale-b = -1): D = A * -B + C.
extern "C" __global__ void wg_bf16_tb(const unsigned *A, const unsigned *B, const unsigned *C,
                                      unsigned *D)
{
    __shared__ __align__(1024) uint8_t sa[64 * 16 * 2], sb[16 * 16 * 2];
    stage_k(sa, A, 64, 16, 16, 16, 128, 256, 0, 16);
    for (int i = threadIdx.x; i < 16 * 16; i += 128) {
        int k = i / 16, n = i % 16;
        put(sb, (n / 8) * 128 + (k / 8) * 256 + (k % 8) * 16 + 2 * (n % 8), B[k * 16 + n], 2);
    }
    sync_smem();
    float d[8];
    LOAD_D(8, 16, 0)
    uint64_t da = mdesc(sa, 128, 256, 16), db = mdesc(sb, 256, 128, 16);
    WG_BEGIN;
    asm volatile("wgmma.mma_async.sync.aligned.m64n16k16.f32.bf16.bf16 {%0, %1, %2, %3, %4, %5, %6, %7}, %8, %9, 1, 1, -1, 0, 1;"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]) : "l"(da), "l"(db));
    WG_END;
    STORE_D(8, 16, 0)
}

// m64n8k8 .f32.tf32.tf32, A (64 x 8) and B (8 x 8) in shared memory without swizzle (LBO 128,
// SBO 256; a core matrix row is four .tf32).  D = A * B + C.
extern "C" __global__ void wg_tf32(const unsigned *A, const unsigned *B, const unsigned *C,
                                   unsigned *D)
{
    __shared__ __align__(1024) uint8_t sa[64 * 8 * 4], sb[8 * 8 * 4];
    stage_k(sa, A, 64, 8, 32, 16, 128, 256, 0, 8);
    stage_k(sb, B, 8, 8, 32, 16, 128, 256, 1, 8);
    sync_smem();
    float d[4];
    LOAD_D(4, 8, 0)
    uint64_t da = mdesc(sa, 128, 256, 16), db = mdesc(sb, 128, 256, 16);
    WG_BEGIN;
    asm volatile("wgmma.mma_async.sync.aligned.m64n8k8.f32.tf32.tf32 {%0, %1, %2, %3}, %4, %5, 1, 1, 1;"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]) : "l"(da), "l"(db));
    WG_END;
    STORE_D(4, 8, 0)
}

// m64n16k32 .s32.s8.s8, A from registers, B (32 x 16) in shared memory with 32-byte swizzle
// (one 32-byte row per column of B, SBO 256).  D = A * B + C.
extern "C" __global__ void wg_s8(const unsigned *A, const unsigned *B, const unsigned *C,
                                 unsigned *D)
{
    __shared__ __align__(1024) uint8_t sb[16 * 32];
    stage_k(sb, B, 16, 32, 8, 32, 16, 256, 1, 16);
    sync_smem();
    unsigned d[8], a[4];
    for (int i = 0; i < 8; i++) d[i] = C[drow(i) * 16 + dcol(i)];
    for (int r = 0; r < 4; r++) a[r] = frag_a(A, 32, 8, r, 0);
    uint64_t db = mdesc(sb, 16, 256, 32);
    WG_BEGIN;
    asm volatile("wgmma.mma_async.sync.aligned.m64n16k32.s32.s8.s8 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9, %10, %11}, %12, 1;"
                 : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]), "+r"(d[6]), "+r"(d[7]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db));
    WG_END;
    for (int i = 0; i < 8; i++) D[drow(i) * 16 + dcol(i)] = d[i];
}

// m64n8k32 .satfinite.s32.u8.u8, A (64 x 32) and B (32 x 8) in shared memory with 64-byte
// swizzle (rows of 64 bytes of which the first 32 are used, SBO 512).  D = A * B + C clamped.
extern "C" __global__ void wg_u8_sw64(const unsigned *A, const unsigned *B, const unsigned *C,
                                      unsigned *D)
{
    __shared__ __align__(1024) uint8_t sa[64 * 64], sb[8 * 64];
    stage_k(sa, A, 64, 32, 8, 64, 16, 512, 0, 32);
    stage_k(sb, B, 8, 32, 8, 64, 16, 512, 1, 8);
    sync_smem();
    unsigned d[4];
    for (int i = 0; i < 4; i++) d[i] = C[drow(i) * 8 + dcol(i)];
    uint64_t da = mdesc(sa, 16, 512, 64), db = mdesc(sb, 16, 512, 64);
    WG_BEGIN;
    asm volatile("wgmma.mma_async.sync.aligned.m64n8k32.satfinite.s32.u8.u8 {%0, %1, %2, %3}, %4, %5, 1;"
                 : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]) : "l"(da), "l"(db));
    WG_END;
    for (int i = 0; i < 4; i++) D[drow(i) * 8 + dcol(i)] = d[i];
}

// wgmma.mma_async.sp m64n16k32 .f32.f16.f16: A (64 x 32, at most two non-zeros in each chunk of
// four columns of a row, 2:4) is compressed here to 64 x 16 with its metadata (§9.7.14.6.1: two
// 2-bit column indices per chunk, low first); the metadata of row 16w + r, chunk c is the nibble
// at bit 16 (r >= 8) + 4 (c % 4) of lane 4 (r % 8) + 2 SEL + c / 4 (Figure 150).  B (32 x 16)
// without swizzle (LBO 128, SBO 512).  D = A * B + C.
template <int SEL>
__device__ void wg_sp(const unsigned *A, const unsigned *B, const unsigned *C, unsigned *D)
{
    __shared__ __align__(1024) uint8_t sb[16 * 32 * 2];
    stage_k(sb, B, 16, 32, 16, 16, 128, 512, 1, 16);
    sync_smem();
    __shared__ unsigned cA[64 * 16], meta[64 * 8];   // compressed A, nibble per (row, chunk)
    for (int i = threadIdx.x; i < 64 * 8; i += 128) {
        int r = i / 8, c = i % 8, idx[2] = { -1, -1 }, n = 0;
        for (int j = 0; j < 4; j++)
            if ((A[r * 32 + 4 * c + j] & 0x7fff) && n < 2) idx[n++] = j;
        if (n == 0) idx[0] = 0, idx[1] = 1;
        if (n == 1) idx[1] = idx[0] == 3 ? 2 : 3, n = 2;
        if (idx[0] > idx[1]) { int t = idx[0]; idx[0] = idx[1]; idx[1] = t; }
        cA[r * 16 + 2 * c] = A[r * 32 + 4 * c + idx[0]];
        cA[r * 16 + 2 * c + 1] = A[r * 32 + 4 * c + idx[1]];
        meta[i] = idx[0] | idx[1] << 2;
    }
    __syncthreads();
    unsigned a[4], e = 0, lane = threadIdx.x % 32, w = threadIdx.x / 32;
    for (int r = 0; r < 4; r++) a[r] = frag_a(cA, 16, 16, r, 0);
    if ((lane & 3) / 2 == SEL)
        for (int h = 0; h < 2; h++)
            for (int c4 = 0; c4 < 4; c4++) {
                int row = 16 * w + lane / 4 + 8 * h, c = 4 * (lane & 1) + c4;
                e |= meta[row * 8 + c] << (16 * h + 4 * c4);
            }
    float d[8];
    LOAD_D(8, 16, 0)
    uint64_t db = mdesc(sb, 128, 512, 16);
    WG_BEGIN;
    asm volatile("wgmma.mma_async.sp.sync.aligned.m64n16k32.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9, %10, %11}, %12, %13, %14, 1, 1, 1, 0;"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db), "r"(e), "n"(SEL));
    WG_END;
    STORE_D(8, 16, 0)
}
extern "C" __global__ void wg_sp_f16_sel0(const unsigned *A, const unsigned *B, const unsigned *C,
                                          unsigned *D) { wg_sp<0>(A, B, C, D); }
extern "C" __global__ void wg_sp_f16_sel1(const unsigned *A, const unsigned *B, const unsigned *C,
                                          unsigned *D) { wg_sp<1>(A, B, C, D); }

// ---------------------------------------------------------------- more element types
// a .b1 matrix K-major (one bit per element, LSB first): each thread builds whole bytes
__device__ void stage_b1(uint8_t *s, const unsigned *M, int rows, int transposed_src, int ncols_src,
                         unsigned lbo, unsigned sbo)
{
    for (int i = threadIdx.x % 128; i < rows * 32; i += 128) {
        int mn = i / 32, kb = i % 32;
        unsigned v = 0;
        for (int b = 0; b < 8; b++) {
            int k = 8 * kb + b;
            v |= (transposed_src ? M[k * ncols_src + mn] : M[mn * ncols_src + k]) << b;
        }
        s[kmaj(mn, kb, 16, lbo, sbo)] = (uint8_t)v;
    }
}

// m64n8k256 .s32.b1.b1.and.popc, A from registers (32 elements per register), B (256 x 8) in
// shared memory without swizzle (LBO 128, SBO 256).  D = popc(A AND B) + C.
extern "C" __global__ void wg_b1(const unsigned *A, const unsigned *B, const unsigned *C,
                                 unsigned *D)
{
    __shared__ __align__(1024) uint8_t sb[8 * 32];
    stage_b1(sb, B, 8, 1, 8, 128, 256);
    sync_smem();
    unsigned d[4], a[4];
    for (int i = 0; i < 4; i++) d[i] = C[drow(i) * 8 + dcol(i)];
    for (int r = 0; r < 4; r++) a[r] = frag_a(A, 256, 1, r, 0);
    uint64_t db = mdesc(sb, 128, 256, 16);
    WG_BEGIN;
    asm volatile("wgmma.mma_async.sync.aligned.m64n8k256.s32.b1.b1.and.popc {%0, %1, %2, %3}, {%4, %5, %6, %7}, %8, 1;"
                 : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db));
    WG_END;
    for (int i = 0; i < 4; i++) D[drow(i) * 8 + dcol(i)] = d[i];
}

// m64n16k32 .f32.e4m3.e5m2, A (64 x 32 .e4m3) in shared memory without swizzle (LBO 128, SBO
// 256), B (32 x 16 .e5m2) with 128-byte swizzle (rows of 128 bytes, first 32 used, SBO 1024).
extern "C" __global__ void wg_fp8(const unsigned *A, const unsigned *B, const unsigned *C,
                                  unsigned *D)
{
    __shared__ __align__(1024) uint8_t sa[64 * 32], sb[16 * 128];
    stage_k(sa, A, 64, 32, 8, 16, 128, 256, 0, 32);
    stage_k(sb, B, 16, 32, 8, 128, 16, 1024, 1, 16);
    sync_smem();
    float d[8];
    LOAD_D(8, 16, 0)
    uint64_t da = mdesc(sa, 128, 256, 16), db = mdesc(sb, 16, 1024, 128);
    WG_BEGIN;
    asm volatile("wgmma.mma_async.sync.aligned.m64n16k32.f32.e4m3.e5m2 {%0, %1, %2, %3, %4, %5, %6, %7}, %8, %9, 1, 1, 1;"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]) : "l"(da), "l"(db));
    WG_END;
    STORE_D(8, 16, 0)
}

// m64n64k16 .f32.bf16.bf16 with both operands transposed (imm-trans-a = imm-trans-b = 1:
// MN-major) and 128-byte swizzle: a K-row of 64 M (N) elements is one 128-byte swizzled row,
// 8 K-rows make 1024 bytes, the next 8 K-rows are SBO = 1024 further (LBO, between groups of 64
// M/N elements, is not needed for 64).
__device__ void stage_mn128(uint8_t *s, const unsigned *M, int kdim, int mndim, int m_major_src)
{
    for (int i = threadIdx.x % 128; i < kdim * mndim; i += 128) {
        int k = i / mndim, mn = i % mndim;
        unsigned v = m_major_src ? M[mn * kdim + k] : M[k * mndim + mn];
        put(s, swz((k / 8) * 1024 + (k % 8) * 128 + 2 * mn, 128), v, 2);
    }
}
extern "C" __global__ void wg_bf16_tt_sw128(const unsigned *A, const unsigned *B,
                                            const unsigned *C, unsigned *D)
{
    __shared__ __align__(1024) uint8_t sa[16 * 128], sb[16 * 128];
    stage_mn128(sa, A, 16, 64, 1);
    stage_mn128(sb, B, 16, 64, 0);
    sync_smem();
    float d[32];
    LOAD_D(32, 64, 0)
    uint64_t da = mdesc(sa, 16, 1024, 128), db = mdesc(sb, 16, 1024, 128);
    WG_BEGIN;
    asm volatile("wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, %32, %33, 1, 1, 1, 1, 1;"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]) : "l"(da), "l"(db));
    WG_END;
    STORE_D(32, 64, 0)
}

// Sparse A of EB-bit elements (K columns, compressed to K/2): per (row, chunk) the metadata
// nibble of §9.7.14.6.1 (8-bit and 16-bit: two 2-bit column indices of a chunk of four; .tf32:
// 0b0100 / 0b1110 for column 0 / 1 of a chunk of two), and this thread's metadata register.
__device__ void sp_compress(const unsigned *A, int K, int EB, unsigned *cA, unsigned *meta)
{
    int cw = EB == 32 ? 2 : 4, nc = K / cw;
    unsigned zm = EB == 8 ? 0xff : EB == 16 ? 0x7fff : 0x7fffe000;   // .tf32: 19 bits
    for (int i = threadIdx.x; i < 64 * nc; i += 128) {
        int r = i / nc, c = i % nc, idx[2] = { -1, -1 }, n = 0;
        for (int j = 0; j < cw; j++)
            if ((A[r * K + cw * c + j] & zm) && n < cw / 2) idx[n++] = j;
        if (cw == 2) {
            if (n == 0) idx[0] = 0;
            cA[r * nc + c] = A[r * K + 2 * c + idx[0]];
            meta[i] = idx[0] ? 0xe : 0x4;
            continue;
        }
        if (n == 0) idx[0] = 0, idx[1] = 1;
        if (n == 1) idx[1] = idx[0] == 3 ? 2 : 3;
        if (idx[0] > idx[1]) { int t = idx[0]; idx[0] = idx[1]; idx[1] = t; }
        cA[r * 2 * nc + 2 * c] = A[r * K + 4 * c + idx[0]];
        cA[r * 2 * nc + 2 * c + 1] = A[r * K + 4 * c + idx[1]];
        meta[i] = idx[0] | idx[1] << 2;
    }
    __syncthreads();
}
__device__ unsigned sp_meta(const unsigned *meta, int nc, int sel)
{
    unsigned e = 0, lane = threadIdx.x % 32, w = threadIdx.x / 32;
    int per = nc == 16 ? 1 : 2;   // threads per row group of 4 contributing
    if (per == 2 && (int)(lane & 3) / 2 != sel) return 0;
    if (nc == 16) {   // 8-bit A: 8 chunks of ONE row per register (as an H100 reads it)
        int row = 16 * w + lane / 4 + 8 * (lane & 1), c0 = 8 * ((lane & 3) / 2);
        for (int c = 0; c < 8; c++) e |= meta[row * nc + c0 + c] << (4 * c);
        return e;
    }
    int j = per == 2 ? (lane & 1) : (lane & 3);
    for (int h = 0; h < 2; h++)
        for (int c4 = 0; c4 < 4; c4++) {
            int row = 16 * w + lane / 4 + 8 * h, c = 4 * j + c4;
            e |= meta[row * nc + c] << (16 * h + 4 * c4);
        }
    return e;
}

// wgmma.mma_async.sp m64n8k64 .s32.s8.s8, A compressed (64 x 32) in registers, all four threads
// of a group give metadata (selector 0), B (64 x 8) without swizzle (LBO 128, SBO 512).
extern "C" __global__ void wg_sp_s8(const unsigned *A, const unsigned *B, const unsigned *C,
                                    unsigned *D)
{
    __shared__ __align__(1024) uint8_t sb[8 * 64];
    __shared__ unsigned cA[64 * 32], meta[64 * 16];
    stage_k(sb, B, 8, 64, 8, 16, 128, 512, 1, 8);
    sync_smem();
    sp_compress(A, 64, 8, cA, meta);
    unsigned d[4], a[4], e = sp_meta(meta, 16, 0);
    for (int i = 0; i < 4; i++) d[i] = C[drow(i) * 8 + dcol(i)];
    for (int r = 0; r < 4; r++) a[r] = frag_a(cA, 32, 8, r, 0);
    uint64_t db = mdesc(sb, 128, 512, 16);
    WG_BEGIN;
    asm volatile("wgmma.mma_async.sp.sync.aligned.m64n8k64.s32.s8.s8 {%0, %1, %2, %3}, {%4, %5, %6, %7}, %8, %9, 0, 1;"
                 : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db), "r"(e));
    WG_END;
    for (int i = 0; i < 4; i++) D[drow(i) * 8 + dcol(i)] = d[i];
}

// wgmma.mma_async.sp m64n8k16 .f32.tf32.tf32 (1:2), A compressed (64 x 8) in shared memory
// without swizzle (LBO 128, SBO 256), selector 1, B (16 x 8) without swizzle (LBO 128, SBO 512).
extern "C" __global__ void wg_sp_tf32(const unsigned *A, const unsigned *B, const unsigned *C,
                                      unsigned *D)
{
    __shared__ __align__(1024) uint8_t sa[64 * 8 * 4], sb[8 * 16 * 4];
    __shared__ unsigned cA[64 * 8], meta[64 * 8];
    sp_compress(A, 16, 32, cA, meta);
    stage_k(sa, cA, 64, 8, 32, 16, 128, 256, 0, 8);
    stage_k(sb, B, 8, 16, 32, 16, 128, 512, 1, 8);
    sync_smem();
    unsigned e = sp_meta(meta, 8, 1);
    float d[4];
    LOAD_D(4, 8, 0)
    uint64_t da = mdesc(sa, 128, 256, 16), db = mdesc(sb, 128, 512, 16);
    WG_BEGIN;
    asm volatile("wgmma.mma_async.sp.sync.aligned.m64n8k16.f32.tf32.tf32 {%0, %1, %2, %3}, %4, %5, %6, 1, 1, 1, 1;"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]) : "l"(da), "l"(db), "r"(e));
    WG_END;
    STORE_D(4, 8, 0)
}
