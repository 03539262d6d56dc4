// Message passing between two CTAs with release/acquire at the wrong scope.  BUGGY: the flag is
// released and acquired at block scope (cuda::thread_scope_block: st.release.cta /
// ld.acquire.cta), which does not include the other CTA: no synchronization, the payload may be
// stale (trap).  FIXED: device scope (.gpu).
#include <cuda/atomic>
#ifndef FIXED
#define SCOPE cuda::thread_scope_block
#else
#define SCOPE cuda::thread_scope_device
#endif

__global__ void mp_scope(int *data, int *flag, int *out)
{
    if (threadIdx.x != 0) return;
    cuda::atomic_ref<int, SCOPE> f(*flag);
    if (blockIdx.x == 0) {
        data[0] = 42;
        f.store(1, cuda::memory_order_release);
    } else {
        int tries = 0;
        while (f.load(cuda::memory_order_acquire) == 0)
            if (++tries == 10000) __trap();
        if (data[0] != 42) __trap();     // the payload is stale
        out[0] = data[0];
    }
}
