// Half and bfloat16 math: scalar and packed x2 add/mul/fma, conversions from/to float.
#include <cuda_fp16.h>
#include <cuda_bf16.h>
extern "C" __global__ void half_math(const float *x, const float *y, unsigned short *oh, float *of, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    __half a = __float2half_rn(x[i]), b = __float2half_rn(y[i]);
    __half s = __hadd(a, b), p = __hmul(a, b), f = __hfma(a, b, s);
    __half2 v = __halves2half2(a, b), w = __hmul2(v, __halves2half2(b, a));
    oh[5 * i] = __half_as_ushort(s); oh[5 * i + 1] = __half_as_ushort(p); oh[5 * i + 2] = __half_as_ushort(f);
    oh[5 * i + 3] = __half_as_ushort(__low2half(w)); oh[5 * i + 4] = __half_as_ushort(__high2half(w));
    of[i] = __half2float(f) + __half2float(__hsub(a, b));
}
extern "C" __global__ void bf16_math(const float *x, const float *y, unsigned short *ob, float *of, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    __nv_bfloat16 a = __float2bfloat16_rn(x[i]), b = __float2bfloat16_rn(y[i]);
    __nv_bfloat16 s = __hadd(a, b), p = __hmul(a, b), f = __hfma(a, b, s);
    ob[3 * i] = __bfloat16_as_ushort(s); ob[3 * i + 1] = __bfloat16_as_ushort(p); ob[3 * i + 2] = __bfloat16_as_ushort(f);
    of[i] = __bfloat162float(f);
}
