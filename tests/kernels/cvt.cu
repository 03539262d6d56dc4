// Conversions: float->int in every rounding mode, saturation and NaN; int->float and
// double->float rounding modes; float->half/bf16 are in half.cu.
extern "C" __global__ void cvt_f2i(const float *x, int *oi, unsigned *ou, long long *ol, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float f = x[i];
    oi[4 * i] = __float2int_rn(f); oi[4 * i + 1] = __float2int_rz(f);
    oi[4 * i + 2] = __float2int_ru(f); oi[4 * i + 3] = __float2int_rd(f);
    ou[4 * i] = __float2uint_rn(f); ou[4 * i + 1] = __float2uint_rz(f);
    ou[4 * i + 2] = __float2uint_ru(f); ou[4 * i + 3] = __float2uint_rd(f);
    ol[2 * i] = __float2ll_rn(f); ol[2 * i + 1] = __float2ull_rz(f);
}
extern "C" __global__ void cvt_i2f(const int *x, const double *d, float *of, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int v = x[i];
    float *o = of + 8 * i;
    o[0] = __int2float_rn(v); o[1] = __int2float_rz(v); o[2] = __int2float_ru(v); o[3] = __int2float_rd(v);
    double e = d[i];
    o[4] = __double2float_rn(e); o[5] = __double2float_rz(e); o[6] = __double2float_ru(e); o[7] = __double2float_rd(e);
}
