// Device-side malloc and free (issue #25): nvcc emits `call.uni (retval0), malloc, (param0)`
// against an extern .func malloc / free.  Correct kernels: per-thread, per-warp and per-CTA
// blocks; a kernel that fills the heap (how many blocks fit); and kernels with planted errors
// for memcheck (an access past a block, use after free, double free, a free of an address
// malloc did not return, a leak).

// each thread: a block of n ints, filled and summed; a warp's block shared through a shuffle;
// a CTA's block shared through shared memory
extern "C" __global__ void heap_lists(const int *n, long long *out) {
    int t = blockIdx.x * blockDim.x + threadIdx.x, k = n[t];
    long long s = -1;
    int *p = (int *)malloc(k * sizeof(int));
    if (p) {
        for (int i = 0; i < k; i++) p[i] = i * (t + 1);
        s = 0;
        for (int i = 0; i < k; i++) s += p[i];
        free(p);
    }
    out[3 * t] = s;
    unsigned lane = threadIdx.x % 32;
    unsigned long long w = 0;
    if (lane == 0) w = (unsigned long long)malloc(32 * sizeof(int));
    w = __shfl_sync(0xffffffffu, w, 0);
    int *q = (int *)w;
    q[lane] = t * 3;
    __syncwarp();
    if (lane == 0) {
        long long ws = 0;
        for (int i = 0; i < 32; i++) ws += q[i];
        out[3 * t + 1] = ws;
        free(q);
    } else out[3 * t + 1] = 0;
    __shared__ int *blk;
    if (threadIdx.x == 0) blk = (int *)malloc(blockDim.x * sizeof(int));
    __syncthreads();
    blk[threadIdx.x] = t;
    __syncthreads();
    out[3 * t + 2] = blk[(threadIdx.x + 1) % blockDim.x];
    __syncthreads();
    if (threadIdx.x == 0) free(blk);
}

// every thread asks for `bytes`; after a barrier (all requests made) the blocks are freed:
// got[t] = 1 when malloc returned a block, 0 for NULL
extern "C" __global__ void heap_fill(unsigned long long bytes, int *got) {
    char *p = (char *)malloc(bytes);
    got[threadIdx.x] = p != 0;
    if (p) p[bytes - 1] = 1;
    __syncthreads();
    free(p);
}

// planted errors: mode 0 writes one int past the block, 1 reads after free, 2 frees twice,
// 3 frees an address inside the block, 4 never frees (a leak); thread 0 only
extern "C" __global__ void heap_bugs(int mode, int *out) {
    if (threadIdx.x) return;
    int *p = (int *)malloc(16 * sizeof(int));
    for (int i = 0; i < 16; i++) p[i] = i;
    if (mode == 0) p[16] = 1;
    if (mode == 2 || mode == 1) free(p);
    if (mode == 1) out[0] = p[3];
    if (mode == 2) free(p);
    if (mode == 3) free(p + 1);
    if (mode != 4 && mode != 1 && mode != 2 && mode != 3) free(p);
    out[1] = mode;
}
