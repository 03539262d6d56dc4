// Bitonic sort of 1024 keys by one CTA of 512 threads in shared memory.
extern "C" __global__ void bitonic_sort(int *keys) {
    __shared__ int s[1024];
    int t = threadIdx.x;
    s[t] = keys[t]; s[t + 512] = keys[t + 512];
    __syncthreads();
    for (int k = 2; k <= 1024; k <<= 1)
        for (int j = k >> 1; j > 0; j >>= 1) {
            for (int i = t; i < 1024; i += 512) {
                int p = i ^ j;
                if (p > i) {
                    int a = s[i], b = s[p];
                    bool up = (i & k) == 0;
                    if ((a > b) == up) { s[i] = b; s[p] = a; }
                }
            }
            __syncthreads();
        }
    keys[t] = s[t]; keys[t + 512] = s[t + 512];
}
