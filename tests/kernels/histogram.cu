// Histograms: per-CTA shared-memory atomics merged with global atomics; direct global atomics.
extern "C" __global__ void hist_shared(const unsigned char *data, unsigned *bins, int n) {
    __shared__ unsigned h[256];
    for (int b = threadIdx.x; b < 256; b += blockDim.x) h[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&h[data[i]], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < 256; b += blockDim.x)
        if (h[b]) atomicAdd(&bins[b], h[b]);
}
extern "C" __global__ void hist_global(const int *data, int *bins, int n, int nbins) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int v = data[i] % nbins;
        if (v < 0) v += nbins;
        atomicAdd(&bins[v], 1);
        atomicMax(&bins[nbins], data[i]);
        atomicMin(&bins[nbins + 1], data[i]);
    }
}
