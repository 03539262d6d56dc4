// 64-bit integer arithmetic: mul, mulhi, div/rem (signed and unsigned), shifts, popc, clz, brev.
extern "C" __global__ void int64_math(const long long *a, const long long *b, long long *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    long long x = a[i], y = b[i];
    unsigned long long ux = x, uy = y;
    long long *o = out + 12 * i;
    o[0] = x * y;
    o[1] = __mul64hi(x, y);
    o[2] = (long long)__umul64hi(ux, uy);
    o[3] = y ? x / y : 0;
    o[4] = y ? x % y : 0;
    o[5] = uy ? (long long)(ux / uy) : 0;
    o[6] = uy ? (long long)(ux % uy) : 0;
    o[7] = x >> (y & 63);
    o[8] = (long long)(ux >> (uy & 63)) ^ (long long)(ux << (uy & 63));
    o[9] = __popcll(ux) + 100 * __clzll(x);
    o[10] = (long long)__brevll(ux);
    o[11] = (x < y ? x : y) + (x + y) - (long long)(ux > uy);
}
