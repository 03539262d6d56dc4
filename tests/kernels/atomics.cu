// Atomics: exch/cas/min/max/inc/dec/and/or/xor on global and shared memory; float add via CAS.
extern "C" __global__ void atomic_ops(unsigned *g, const unsigned *x, int n) {
    __shared__ unsigned s[4];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    if (t < 4) s[t] = t == 2 ? 0xffffffffu : 0;
    __syncthreads();
    if (i < n) {
        unsigned v = x[i];
        atomicOr(&s[0], v);
        atomicXor(&s[1], v);
        atomicAnd(&s[2], v | 0x10000u);
        atomicMax(&s[3], v);
        atomicInc(&g[0], 1000u);
        atomicDec(&g[1], 77u);
        atomicMin(&g[2], v);
        atomicAdd(&g[3], v & 0xff);
        unsigned old = atomicCAS(&g[4], 0u, (unsigned)i + 1);
        if (old == 0) atomicExch(&g[5], v);
    }
    __syncthreads();
    if (t < 4) atomicAdd(&g[6 + t], s[t]);
}
extern "C" __global__ void atomic_cas_float(float *acc, const float *x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned *p = (unsigned *)acc;
    unsigned old = *p, assumed;
    do {
        assumed = old;
        float f = __uint_as_float(assumed);
        f = f > x[i] ? f : x[i];          // CAS-based max: the result is order independent
        old = atomicCAS(p, assumed, __float_as_uint(f));
    } while (old != assumed);
}
