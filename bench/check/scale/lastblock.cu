// The "last block done" grid reduction (CUDA's threadFenceReduction sample): each CTA sums its
// part in shared memory (a tree of __syncthreads phases), thread 0 publishes the CTA's sum,
// __threadfence(), and takes a ticket with atomicInc; the CTA that draws the last ticket sums
// the partial sums.  fixed: a __threadfence() on the reading side too (after the ticket);
// -DBUGGY_WRITER_ONLY: the writer's fence only (the textbook code): under PTX the last CTA's
// plain loads of partial[] are not ordered after the other CTAs' writes; -DBUGGY_BLOCK: both
// fences __threadfence_block().  in[i] = 1: out = the number of threads.
// variants: fixed writer_only block
#if defined(BUGGY_WRITER_ONLY)
#define WRITER_FENCE() __threadfence()
#define READER_FENCE() ((void)0)
#elif defined(BUGGY_BLOCK)
#define WRITER_FENCE() __threadfence_block()
#define READER_FENCE() __threadfence_block()
#else
#define WRITER_FENCE() __threadfence()
#define READER_FENCE() __threadfence()
#endif
#define MAXT 128
__global__ void lastblock(const int *in, int *partial, unsigned *count, int *out)
{
    __shared__ int s[MAXT];
    __shared__ bool amLast;
    int tid = threadIdx.x, bid = blockIdx.x, nt = blockDim.x;
    s[tid] = in[bid * nt + tid];
    __syncthreads();
    for (int k = nt / 2; k > 0; k >>= 1) {
        if (tid < k) s[tid] += s[tid + k];
        __syncthreads();
    }
    if (tid == 0) {
        partial[bid] = s[0];
        WRITER_FENCE();
        unsigned t = atomicInc(count, gridDim.x);
        amLast = (t == gridDim.x - 1);
    }
    __syncthreads();
    if (amLast && tid == 0) {
        READER_FENCE();
        int sum = 0;
        for (int b = 0; b < gridDim.x; b++) sum += partial[b];
        *out = sum;
    }
}
