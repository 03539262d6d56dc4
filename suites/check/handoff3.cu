// A hand-off chain of three CTAs with cuda::atomic_ref: CTA i waits for CTA i-1's token
// (acquire), adds its value to the running total and passes the token on (release).  BUGGY:
// CTA 0 also waits, for the token of CTA 2 (the chain was closed into a ring): every CTA waits
// for another, no store that ends a wait is ever made (a liveness failure: PTX ISA §8 guarantees
// only that a store becomes visible eventually; none is made), and the bounded spin traps.
// FIXED: CTA 0 starts the chain without waiting.
#include <cuda/atomic>

__global__ void handoff3(int *token, int *total, const int *val)
{
    if (threadIdx.x != 0) return;
    int i = blockIdx.x, prev = (i + 2) % 3;
#ifdef FIXED
    bool wait = i != 0;
#else
    bool wait = true;
#endif
    if (wait) {
        cuda::atomic_ref<int, cuda::thread_scope_device> t(token[prev]);
        int n = 0;
        while (n < 10000 && t.load(cuda::memory_order_acquire) == 0) n++;
        if (n == 10000) __trap();          // the predecessor never passed the token
    }
    *total += val[i];
    cuda::atomic_ref<int, cuda::thread_scope_device>(token[i]).store(1, cuda::memory_order_release);
}
