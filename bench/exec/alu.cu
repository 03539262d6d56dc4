// ALU-bound benchmark kernel: each thread mixes its index through ITERS rounds of integer
// hashing and float FMA; the same computation is native.c's reference.
extern "C" __global__ void alu_bench(unsigned *out, int iters) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned h = i * 0x9E3779B9u + 1u;
    float f = (float)(i & 1023) * 0.5f;
    for (int k = 0; k < iters; k++) {
        h ^= h << 13; h ^= h >> 17; h ^= h << 5;
        h = h * 0x85EBCA6Bu + (unsigned)k;
        f = __fmaf_rn(f, 0.999f, (float)(h & 255));
    }
    out[i] = h ^ __float_as_uint(f);
}
