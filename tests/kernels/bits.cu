// Bit manipulation: brev, popc, clz, ffs, byte_perm, funnel shifts, bfe via shifts, mul.hi, sad.
extern "C" __global__ void bit_ops(const unsigned *x, const unsigned *y, unsigned *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned a = x[i], b = y[i];
    unsigned *o = out + 10 * i;
    o[0] = __brev(a);
    o[1] = __popc(a) | (__clz(b) << 8) | (__ffs(a) << 16);
    o[2] = __byte_perm(a, b, b & 0x7777);
    o[3] = __funnelshift_l(a, b, b);
    o[4] = __funnelshift_rc(a, b, a);
    o[5] = (a >> (b & 31)) & ((1u << (a & 15)) - 1);
    o[6] = __umulhi(a, b);
    o[7] = (unsigned)__mulhi((int)a, (int)b);
    o[8] = __sad((int)a, (int)b, 5u);
    o[9] = __usad(a, b, 7u);
}
