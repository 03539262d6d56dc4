// Shuffles of __half, __half2 and __nv_bfloat16 / __nv_bfloat162 (issue #25): cuda_fp16.hpp and
// cuda_bf16.hpp compute the shuffle's clamp value from the predefined PTX constant WARP_SZ
// (`mov.u32 %r, WARP_SZ;`).  Each thread writes, per type, the four shuffles (idx, up, down,
// xor) of its element, then a warp sum of the __half2 pair by xor butterflies.
#include <cuda_fp16.h>
#include <cuda_bf16.h>

extern "C" __global__ void shfl_half(const __half *h, const __half2 *h2, const __nv_bfloat16 *b,
                                     const __nv_bfloat162 *b2, unsigned short *out, int delta) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned short *o = out + 20 * i;
    const unsigned m = 0xffffffffu;
    __half x = h[i];
    __half2 x2 = h2[i];
    __nv_bfloat16 y = b[i];
    __nv_bfloat162 y2 = b2[i];
    __half r[4] = { __shfl_sync(m, x, delta), __shfl_up_sync(m, x, delta),
                    __shfl_down_sync(m, x, delta), __shfl_xor_sync(m, x, delta) };
    __half2 r2[2] = { __shfl_sync(m, x2, 31 - threadIdx.x % 32), __shfl_down_sync(m, x2, delta, 16) };
    __nv_bfloat16 s[4] = { __shfl_sync(m, y, delta + 1), __shfl_up_sync(m, y, delta, 8),
                           __shfl_down_sync(m, y, delta), __shfl_xor_sync(m, y, delta, 16) };
    __nv_bfloat162 s2[2] = { __shfl_up_sync(m, y2, 1), __shfl_xor_sync(m, y2, 5) };
    __half2 sum = x2;
    for (int k = 16; k > 0; k >>= 1) sum = __hadd2(sum, __shfl_xor_sync(m, sum, k));
    for (int k = 0; k < 4; k++) o[k] = __half_as_ushort(r[k]);
    for (int k = 0; k < 2; k++) {
        o[4 + 2 * k] = __half_as_ushort(__low2half(r2[k]));
        o[5 + 2 * k] = __half_as_ushort(__high2half(r2[k]));
    }
    for (int k = 0; k < 4; k++) o[8 + k] = __bfloat16_as_ushort(s[k]);
    for (int k = 0; k < 2; k++) {
        o[12 + 2 * k] = __bfloat16_as_ushort(__low2bfloat16(s2[k]));
        o[13 + 2 * k] = __bfloat16_as_ushort(__high2bfloat16(s2[k]));
    }
    o[16] = __half_as_ushort(__low2half(sum));
    o[17] = __half_as_ushort(__high2half(sum));
    o[18] = (unsigned short)i;
    o[19] = 0xbeef;
}
