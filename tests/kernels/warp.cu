// Warp-level primitives: vote (ballot/any/all), match.any, redux.sync, activemask, divergence.
extern "C" __global__ void vote_ops(const int *x, unsigned *out) {
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    int v = x[g];
    unsigned b = __ballot_sync(0xffffffffu, v > 0);
    int any = __any_sync(0xffffffffu, v > 100);
    int all = __all_sync(0xffffffffu, v > -100);
    out[g] = __popc(b) + (any << 8) + (all << 9) + ((b & 1u) << 10);
}
extern "C" __global__ void match_redux(const unsigned *x, unsigned *out) {
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned v = x[g];
    unsigned m = __match_any_sync(0xffffffffu, v);
    unsigned s = __reduce_add_sync(0xffffffffu, v);
    unsigned mx = __reduce_max_sync(0xffffffffu, v);
    unsigned o = __reduce_or_sync(0xffffffffu, v);
    out[4 * g] = m; out[4 * g + 1] = s; out[4 * g + 2] = mx; out[4 * g + 3] = o;
}
extern "C" __global__ void divergence(const int *x, int *out) {
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    int v = x[g], acc = 0;
    if (v & 1) {
        for (int i = 0; i < (v & 15); i++) acc += i * v;
        if (v & 2) acc ^= 0x55; else acc -= 7;
    } else {
        int k = v;
        while (k > 1) { k = (k & 1) ? 3 * k + 1 : k >> 1; acc++; }
    }
    unsigned am = __activemask();
    out[g] = acc + (int)__popc(am);
}
