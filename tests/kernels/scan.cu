// Scans: Hillis-Steele inclusive scan in shared memory with bar.sync; warp scan with shfl.up.
extern "C" __global__ void scan_block(const int *x, int *y, int n) {
    __shared__ int buf[2][512];
    int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
    int p = 0;
    buf[0][t] = g < n ? x[g] : 0;
    __syncthreads();
    for (int off = 1; off < blockDim.x; off <<= 1) {
        int v = buf[p][t];
        if (t >= off) v += buf[p][t - off];
        buf[1 - p][t] = v;
        p = 1 - p;
        __syncthreads();
    }
    if (g < n) y[g] = buf[p][t];
}
extern "C" __global__ void scan_warp(const unsigned *x, unsigned *y) {
    int g = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x & 31;
    unsigned v = x[g];
    for (int o = 1; o < 32; o <<= 1) {
        unsigned u = __shfl_up_sync(0xffffffffu, v, o);
        if (lane >= o) v += u;
    }
    y[g] = v;
}
