// Decoupled look-back (the single-pass prefix sum of CUB): CTA i adds its own value to the
// inclusive prefix of CTA i-1, which it waits for, and publishes its prefix with a flag.
// BUGGY: the flag is published and read with relaxed atomics (cuda::atomic_ref,
// memory_order_relaxed): a CTA may see the flag and a stale prefix, and traps on the wrong sum.
// FIXED: release to publish, acquire to read.
#include <cuda/atomic>
#ifndef FIXED
#define PUB cuda::memory_order_relaxed
#define SUB cuda::memory_order_relaxed
#else
#define PUB cuda::memory_order_release
#define SUB cuda::memory_order_acquire
#endif

__global__ void lookback(const int *in, int *prefix, int *flag, int *out)
{
    if (threadIdx.x != 0) return;
    int i = blockIdx.x, sum = in[i];
    if (i > 0) {
        cuda::atomic_ref<int, cuda::thread_scope_device> f(flag[i - 1]);
        int tries = 0;
        while (f.load(SUB) == 0)
            if (++tries == 10000) __trap();   // the predecessor never published
        sum += prefix[i - 1];
    }
    int want = 0;
    for (int j = 0; j <= i; j++) want += in[j];
    if (sum != want) __trap();                // a stale prefix of the predecessor
    prefix[i] = sum;
    cuda::atomic_ref<int, cuda::thread_scope_device>(flag[i]).store(1, PUB);
    out[i] = sum;
}
