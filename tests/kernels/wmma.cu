// tests/kernels/wmma.cu — warp-level matrix multiply-accumulate through CUDA's nvcuda::wmma
// (<mma.h>), i.e. PTX wmma.load.{a,b,c} / wmma.mma / wmma.store.d (ISA 8.4 §9.7.13.3), run by
// tests/test_exec_wmma.c on the cases of tests/wmma_ref.h and compared bit for bit with the C
// reference there.  One warp per launch computes D = A * B + C for one shape; every kernel
//
//     wmma_<types>_<shape>_<A layout><B layout>(A, B, C, D, lda, ldb, ldc, flags)
//
// reads A (M x K), B (K x N) and C (M x N) with leading dimensions lda, ldb, ldc (the wmma
// stride operand, in elements) and writes D like C.  flags bit 0: stage A, B and C in shared
// memory and load the fragments from there, and store D to shared memory (wmma.*.shared through
// generic addresses); bit 1: C and D are column-major (mem_col_major); bit 2: s8/u8/s4/u4 use
// .satfinite, b1 .and.popc instead of .xor.popc.  Floating-point inputs are small integers, so
// the results do not depend on the accumulation order that §9.7.13.3.5 leaves unspecified.
#include <mma.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cstdint>

using namespace nvcuda;
namespace wx = nvcuda::wmma::experimental;

#define WMMA_SMEM 6144   // bytes of shared staging per matrix

// one staging buffer for all kernels (a __shared__ array in the template would be one per
// instantiation, all of them in the module's shared memory)
__shared__ __align__(128) char wmma_smem[3 * WMMA_SMEM];

template <class T> struct wmma_bits { static const int v = sizeof(T) * 8; };
template <> struct wmma_bits<void> { static const int v = 0; };
template <class X, class Y> struct wmma_same { static const bool v = false; };
template <class X> struct wmma_same<X, X> { static const bool v = true; };

__device__ void wmma_stage(char *dst, const void *src, int bytes)
{
    for (int i = threadIdx.x; i < bytes / 4; i += 32) ((int *)dst)[i] = ((const int *)src)[i];
    __syncwarp();
}

template <int M, int N, int K, class TA, class TB, class TC, class LA, class LB, class SA, class SB,
          class SC, int BOPS>
__device__ void wmma_body(const void *A, const void *B, const void *C, void *D, int lda, int ldb,
                          int ldc, int flags)
{
    char *sa = wmma_smem, *sb = wmma_smem + WMMA_SMEM, *sc = wmma_smem + 2 * WMMA_SMEM;
    const wmma::layout_t lc = (flags & 2) ? wmma::mem_col_major : wmma::mem_row_major;
    const int ra = wmma_same<LA, wmma::row_major>::v ? M : K;   // rows in memory
    const int rb = wmma_same<LB, wmma::row_major>::v ? K : N;
    const int rc = (flags & 2) ? N : M;
    // bits per element in memory (BOPS: 4 for s4/u4, 1 for b1, whose pointers are void *)
    const int bits_a = BOPS ? BOPS : wmma_bits<SA>::v, bits_b = BOPS ? BOPS : wmma_bits<SB>::v;
    const void *pa = A, *pb = B, *pc = C;
    void *pd = D;
    if (flags & 1) {
        wmma_stage(sa, A, ra * lda * bits_a / 8);
        wmma_stage(sb, B, rb * ldb * bits_b / 8);
        wmma_stage(sc, C, rc * ldc * (int)sizeof(SC));
        pa = sa, pb = sb, pc = sc, pd = sc;
    }
    wmma::fragment<wmma::matrix_a, M, N, K, TA, LA> a;
    wmma::fragment<wmma::matrix_b, M, N, K, TB, LB> b;
    wmma::fragment<wmma::accumulator, M, N, K, SC> c, d;
    wmma::load_matrix_sync(a, (const SA *)pa, lda);
    wmma::load_matrix_sync(b, (const SB *)pb, ldb);
    wmma::load_matrix_sync(c, (const SC *)pc, ldc, lc);
    if constexpr (BOPS == 1) {
        if (flags & 4) wmma::bmma_sync(d, a, b, c, wx::bmmaBitOpAND, wx::bmmaAccumulateOpPOPC);
        else wmma::bmma_sync(d, a, b, c, wx::bmmaBitOpXOR, wx::bmmaAccumulateOpPOPC);
    } else if constexpr (wmma_same<SC, int>::v) {
        if (flags & 4) wmma::mma_sync(d, a, b, c, true);
        else wmma::mma_sync(d, a, b, c, false);
    } else {
        wmma::mma_sync(d, a, b, c);
    }
    wmma::store_matrix_sync((SC *)pd, d, ldc, lc);
    if (flags & 1) {
        __syncwarp();
        for (int i = threadIdx.x; i < rc * ldc * (int)sizeof(SC) / 4; i += 32)
            ((int *)D)[i] = ((const int *)sc)[i];
    }
}

#define WMMA_KERNEL(NAME, M, N, K, TA, TB, TC, LA, LB, SA, SB, SC, BOPS)                          \
    extern "C" __global__ void NAME(const void *A, const void *B, const void *C, void *D, int lda, \
                                    int ldb, int ldc, int flags)                                  \
    {                                                                                             \
        wmma_body<M, N, K, TA, TB, TC, wmma::LA, wmma::LB, SA, SB, SC, BOPS>(A, B, C, D, lda,      \
                                                                             ldb, ldc, flags);    \
    }

// f16 multiplicands, f32 accumulators: every shape, every layout pair on m16n16k16
WMMA_KERNEL(wmma_f16f32_m16n16k16_rr, 16, 16, 16, half, half, float, row_major, row_major, half, half, float, 0)
WMMA_KERNEL(wmma_f16f32_m16n16k16_rc, 16, 16, 16, half, half, float, row_major, col_major, half, half, float, 0)
WMMA_KERNEL(wmma_f16f32_m16n16k16_cr, 16, 16, 16, half, half, float, col_major, row_major, half, half, float, 0)
WMMA_KERNEL(wmma_f16f32_m16n16k16_cc, 16, 16, 16, half, half, float, col_major, col_major, half, half, float, 0)
WMMA_KERNEL(wmma_f16f32_m32n8k16_rc, 32, 8, 16, half, half, float, row_major, col_major, half, half, float, 0)
WMMA_KERNEL(wmma_f16f32_m8n32k16_cr, 8, 32, 16, half, half, float, col_major, row_major, half, half, float, 0)
// f16 multiplicands, f16 accumulators
WMMA_KERNEL(wmma_f16f16_m16n16k16_rc, 16, 16, 16, half, half, half, row_major, col_major, half, half, half, 0)
WMMA_KERNEL(wmma_f16f16_m32n8k16_cr, 32, 8, 16, half, half, half, col_major, row_major, half, half, half, 0)
WMMA_KERNEL(wmma_f16f16_m8n32k16_rr, 8, 32, 16, half, half, half, row_major, row_major, half, half, half, 0)
// bf16
WMMA_KERNEL(wmma_bf16_m16n16k16_rc, 16, 16, 16, __nv_bfloat16, __nv_bfloat16, float, row_major, col_major, __nv_bfloat16, __nv_bfloat16, float, 0)
WMMA_KERNEL(wmma_bf16_m32n8k16_cc, 32, 8, 16, __nv_bfloat16, __nv_bfloat16, float, col_major, col_major, __nv_bfloat16, __nv_bfloat16, float, 0)
WMMA_KERNEL(wmma_bf16_m8n32k16_rr, 8, 32, 16, __nv_bfloat16, __nv_bfloat16, float, row_major, row_major, __nv_bfloat16, __nv_bfloat16, float, 0)
// tf32 (A and B are f32 in memory)
WMMA_KERNEL(wmma_tf32_m16n16k8_rr, 16, 16, 8, wmma::precision::tf32, wmma::precision::tf32, float, row_major, row_major, float, float, float, 0)
WMMA_KERNEL(wmma_tf32_m16n16k8_cc, 16, 16, 8, wmma::precision::tf32, wmma::precision::tf32, float, col_major, col_major, float, float, float, 0)
// f64
WMMA_KERNEL(wmma_f64_m8n8k4_rc, 8, 8, 4, double, double, double, row_major, col_major, double, double, double, 0)
WMMA_KERNEL(wmma_f64_m8n8k4_cr, 8, 8, 4, double, double, double, col_major, row_major, double, double, double, 0)
// s8 / u8, s32 accumulators
WMMA_KERNEL(wmma_s8_m16n16k16_rc, 16, 16, 16, signed char, signed char, int, row_major, col_major, signed char, signed char, int, 0)
WMMA_KERNEL(wmma_s8_m32n8k16_rr, 32, 8, 16, signed char, signed char, int, row_major, row_major, signed char, signed char, int, 0)
WMMA_KERNEL(wmma_s8_m8n32k16_cc, 8, 32, 16, signed char, signed char, int, col_major, col_major, signed char, signed char, int, 0)
WMMA_KERNEL(wmma_u8_m16n16k16_cr, 16, 16, 16, unsigned char, unsigned char, int, col_major, row_major, unsigned char, unsigned char, int, 0)
WMMA_KERNEL(wmma_u8_m8n32k16_rc, 8, 32, 16, unsigned char, unsigned char, int, row_major, col_major, unsigned char, unsigned char, int, 0)
WMMA_KERNEL(wmma_u8_m32n8k16_cc, 32, 8, 16, unsigned char, unsigned char, int, col_major, col_major, unsigned char, unsigned char, int, 0)
// s4 / u4 (A row-major, B column-major only) and b1 (.xor.popc, flags bit 2: .and.popc)
WMMA_KERNEL(wmma_s4_m8n8k32_rc, 8, 8, 32, wx::precision::s4, wx::precision::s4, int, row_major, col_major, void, void, int, 4)
WMMA_KERNEL(wmma_u4_m8n8k32_rc, 8, 8, 32, wx::precision::u4, wx::precision::u4, int, row_major, col_major, void, void, int, 4)
WMMA_KERNEL(wmma_b1_m8n8k128_rc, 8, 8, 128, wx::precision::b1, wx::precision::b1, int, row_major, col_major, void, void, int, 1)
