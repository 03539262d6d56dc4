// Dynamic shared memory (.extern .shared): reverse each block's slice; 2 arrays carved from it.
extern "C" __global__ void dyn_reverse(const int *in, int *out, int n) {
    extern __shared__ int sm[];
    int *a = sm, *b = sm + blockDim.x;
    int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
    a[t] = g < n ? in[g] : -1;
    b[t] = t * 3;
    __syncthreads();
    if (g < n) out[g] = a[blockDim.x - 1 - t] + b[(t + 1) % blockDim.x];
}
