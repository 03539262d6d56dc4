// 128-bit integer arithmetic (issue #25): nvcc inlines __int128 division and remainder as
// long division on 64-bit words, comparing with sub.cc/subc and reading the carry flag back with
// addc (ISA §9.7.2, the hardware convention: CC.CF = 1 after a subtraction without borrow).
// Each thread writes 8 128-bit results: unsigned and signed quotient and remainder, the product,
// the sum and difference, and a shifted value.
extern "C" __global__ void int128_math(const unsigned __int128 *a, const unsigned __int128 *b,
                                       unsigned __int128 *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned __int128 x = a[i], y = b[i];
    __int128 sx = (__int128)x, sy = (__int128)y;
    unsigned __int128 *o = out + 8 * i;
    o[0] = y ? x / y : 0;
    o[1] = y ? x % y : 0;
    o[2] = (sy && !(sy == -1 && sx == (__int128)((unsigned __int128)1 << 127))) ? (unsigned __int128)(sx / sy) : 0;
    o[3] = (sy && sy != -1) ? (unsigned __int128)(sx % sy) : 0;
    o[4] = x * y;
    o[5] = x + y;
    o[6] = x - y + (x < y);
    o[7] = (x >> (unsigned)(y & 127)) ^ (unsigned __int128)(sx < sy);
}
