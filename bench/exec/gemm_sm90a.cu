// bench/exec/gemm_sm90a.cu — a warpgroup GEMM for sm_90a (Hopper): wgmma + TMA, the executor's
// GEMM benchmark (bench/exec/gemm_bench.sh) and test kernel (tests/test_exec_gemm.c).
//   C[M][N] (f32, row-major) = A[M][K] (f16, row-major) * B[K][N] (f16), B given transposed:
//   Bt[N][K] (row-major), so that both wgmma operands are K-major in shared memory.
// Build: /usr/local/cuda/bin/nvcc -ptx -arch=sm_90a gemm_sm90a.cu -o gemm_sm90a.ptx
// Launch: grid (ceil(N/128), ceil(M/128)), block 256 (two warpgroups), dynamic shared memory
// GEMM90_SMEM bytes; tmA: a 2D tiled tensor map of A (f16, dims {K, M}, box {64, 128}, 128B
// swizzle), tmB the same of Bt (dims {K, N}, box {64, 128}).  Limits: K a multiple of 8 (16-byte
// global strides, cuTensorMapEncodeTiled); the edges of M, N and K are zero-filled by TMA
// (out-of-bound box elements, ISA 8.4 §5.5.3.3) and C's stores are guarded.
//
// Block tile 128 x 128 x 64, GEMM90_STAGES k-tiles in flight.  Thread 0 loads each k-tile with
// two cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// (§9.7.8.24.9) on the stage's mbarrier, armed with mbarrier.arrive.expect_tx (§9.7.12.15.13);
// every thread waits with mbarrier.try_wait.parity (§9.7.12.15.16).  Warpgroup g (§9.7.14.1)
// computes rows 64 g..64 g+63 with four wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 per
// k-tile (§9.7.14.5.2), A and B from shared memory through matrix descriptors
// (§9.7.14.5.1.2.7): K-major, 128-byte swizzle (§9.7.14.5.1.2.6; the layout TMA's 128B swizzle
// writes, §5.5.6: 128-byte rows, 16-byte chunk j of row r at chunk j ^ (r % 8)), SBO 1024
// (8-row groups), the k-step of 16 elements = 32 bytes added to the start address; wgmma.fence
// / commit_group / wait_group 0 around them (§9.7.14.7.1-3).  After the wait and a
// __syncthreads() the stage is free and thread 0 refills it.  The accumulator fragment is
// Figure 120's (§9.7.14.5.1.1.1).
// The float accumulation order of wgmma is left to the hardware (§9.7.14.5.2): the tests and the
// benchmark use small integers, whose sums are exact in any order.
#include <cstdint>

#define GEMM90_STAGES 3
#define GEMM90_TILE 16384                       // one 128 x 64 f16 operand tile, bytes
#define GEMM90_SMEM (GEMM90_STAGES * 2 * GEMM90_TILE + 1024 + 64)   // + alignment + mbarriers

struct alignas(64) Gemm90TMap { unsigned char b[128]; };   // a CUtensorMap (opaque, 128 B)

__device__ static inline uint32_t g90_smem(const void *p)
{
    return (uint32_t)__cvta_generic_to_shared(p);
}

__device__ static inline void g90_mbar_wait(uint32_t bar, unsigned parity)
{
    uint32_t done;
    do {
        asm volatile("{\n\t.reg .pred p;\n\t"
                     "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\t"
                     "selp.u32 %0, 1, 0, p;\n\t}"
                     : "=r"(done) : "r"(bar), "r"(parity) : "memory");
    } while (!done);
}

// k-tile kt of A (rows m0..) and Bt (rows n0..) into stage dst (A) / dst + GEMM90_TILE (B)
__device__ static inline void g90_load_stage(const Gemm90TMap *ta, const Gemm90TMap *tb,
                                             uint32_t dst, uint32_t bar, int kt, int m0, int n0)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
                 ::"r"(bar), "r"(2 * GEMM90_TILE) : "memory");
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile"
                 ".mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                 ::"r"(dst), "l"(ta), "r"(kt * 64), "r"(m0), "r"(bar) : "memory");
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile"
                 ".mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                 ::"r"(dst + GEMM90_TILE), "l"(tb), "r"(kt * 64), "r"(n0), "r"(bar) : "memory");
}

// matrix descriptor (§9.7.14.5.1.2.7): start address >> 4, LBO 16 (unused by K-major 128B
// swizzle), SBO 1024, swizzle mode 1 = 128B in bits 62-63
__device__ static inline uint64_t g90_desc128(uint32_t addr)
{
    return (uint64_t)((addr & 0x3ffff) >> 4) | (uint64_t)(16 >> 4) << 16 |
           (uint64_t)(1024 >> 4) << 32 | (uint64_t)1 << 62;
}

// d (64 f32 per thread) += A (64 x 16 at da) * B (16 x 128 at db); d = A * B when scale_d == 0
__device__ static inline void g90_wgmma128(float *d, uint64_t da, uint64_t db, int scale_d)
{
    asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %66, 0;\n\t"
                 "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, "
                 "%17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
                 "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, "
                 "%47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, "
                 "%62, %63}, "
                 "%64, %65, p, 1, 1, 0, 0;\n\t}"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]),
                   "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]),
                   "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]),
                   "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]),
                   "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]),
                   "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
                   "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]),
                   "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]),
                   "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]),
                   "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]),
                   "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]),
                   "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]),
                   "+f"(d[62]), "+f"(d[63])
                 : "l"(da), "l"(db), "r"(scale_d));
}

extern "C" __global__ void __launch_bounds__(256)
gemm_sm90a(const __grid_constant__ Gemm90TMap tmA, const __grid_constant__ Gemm90TMap tmB,
           float *__restrict__ C, int M, int N, int K)
{
    extern __shared__ uint8_t dsm[];
    uint32_t base = (g90_smem(dsm) + 1023) & ~1023u;   // 128B swizzle: 1024-byte aligned tiles
    uint32_t bars = base + GEMM90_STAGES * 2 * GEMM90_TILE;
    int wg = threadIdx.x / 128, warp = threadIdx.x / 32 % 4, lane = threadIdx.x % 32;
    int m0 = blockIdx.y * 128, n0 = blockIdx.x * 128, KT = (K + 63) / 64;

    if (threadIdx.x == 0) {
        for (int s = 0; s < GEMM90_STAGES; s++)
            asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bars + 8 * s) : "memory");
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
        for (int s = 0; s < GEMM90_STAGES && s < KT; s++)
            g90_load_stage(&tmA, &tmB, base + s * 2 * GEMM90_TILE, bars + 8 * s, s, m0, n0);
    }
    __syncthreads();
    float d[64] = {};   // scale-d 0 on the first step overwrites it anyway
    for (int kt = 0; kt < KT; kt++) {
        int s = kt % GEMM90_STAGES;
        uint32_t sa = base + s * 2 * GEMM90_TILE + wg * (GEMM90_TILE / 2), sb = sa - wg *
                      (GEMM90_TILE / 2) + GEMM90_TILE;
        g90_mbar_wait(bars + 8 * s, (kt / GEMM90_STAGES) & 1);
        asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#pragma unroll
        for (int ks = 0; ks < 4; ks++)
            g90_wgmma128(d, g90_desc128(sa + 32 * ks), g90_desc128(sb + 32 * ks), kt > 0 || ks > 0);
        asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
        asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
        __syncthreads();                              // every warpgroup is done with stage s
        if (threadIdx.x == 0 && kt + GEMM90_STAGES < KT)
            g90_load_stage(&tmA, &tmB, base + s * 2 * GEMM90_TILE, bars + 8 * s,
                       kt + GEMM90_STAGES, m0, n0);
    }
    // d[i]: row 16 warp + lane/4 + 8 ((i/2) % 2), column 8 (i/4) + 2 (lane%4) + i%2 (Figure 120)
#pragma unroll
    for (int i = 0; i < 64; i += 2) {
        int r = m0 + wg * 64 + warp * 16 + lane / 4 + 8 * ((i / 2) % 2);
        int c = n0 + 8 * (i / 4) + 2 * (lane % 4);
        if (r < M && c < N) {
            if (c + 1 < N && N % 2 == 0)   // 8-byte aligned pair
                *(float2 *)&C[(size_t)r * N + c] = make_float2(d[i], d[i + 1]);
            else {
                C[(size_t)r * N + c] = d[i];
                if (c + 1 < N) C[(size_t)r * N + c + 1] = d[i + 1];
            }
        }
    }
}
