// tests/kernels/warpsync.cu — warp-synchronous intrinsics on the two sides of a divergent branch: on
// sm_70+ the lanes of each side meet at their own instruction (PTX ISA 8.4 §9.7.8.6, §9.7.12.8-11).
// Run by tests/test_exec_insn.c (wsync_nvcc_divergent).
extern "C" __global__ void shfl_diverge(unsigned *out, unsigned k)
{
    unsigned t = threadIdx.x, v;
    if ((t & 1) == 0) {
        v = __shfl_sync(0xffffffffu, t * k + 1000, (t + 1) & 31);
    } else {
        unsigned w = t * 100;
        v = __shfl_sync(0xffffffffu, w, (t - 1) & 31) + 7000;
    }
    out[t] = v;
}

extern "C" __global__ void vote_diverge(unsigned *out, unsigned k)
{
    unsigned t = threadIdx.x, b, s;
    if (t % 3 == 0) {
        b = __ballot_sync(0xffffffffu, t < k);
        s = __reduce_add_sync(0xffffffffu, t);
    } else {
        b = __ballot_sync(0xffffffffu, t > 2 * k) ^ 0x80000000u;
        s = __reduce_add_sync(0xffffffffu, 3 * t) + 1;
    }
    out[t] = b;
    out[32 + t] = s;
}
