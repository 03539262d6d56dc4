// A handoff between two CTAs that can wait forever.  CTA 0 waits for CTA 1's ready flag, then
// passes a token back; CTA 1 waits for the token.  BUGGY: CTA 1 raises its ready flag only after
// it has the token: each CTA waits for the other (a liveness failure; after its bounded spin,
// CTA 1 traps).  FIXED: CTA 1 raises the flag first.
#include <cuda/atomic>

__global__ void handoff(int *ready, int *token, int *out)
{
    if (threadIdx.x != 0) return;
    cuda::atomic_ref<int, cuda::thread_scope_device> r(*ready), t(*token);
    if (blockIdx.x == 0) {
        while (r.load(cuda::memory_order_acquire) == 0) {
        }
        t.store(7, cuda::memory_order_release);
    } else {
#ifdef FIXED
        r.store(1, cuda::memory_order_release);
#endif
        int tries = 0;
        while (t.load(cuda::memory_order_acquire) == 0)
            if (++tries == 10000) __trap();   // the token never came
#ifndef FIXED
        r.store(1, cuda::memory_order_release);
#endif
        out[0] = t.load(cuda::memory_order_relaxed);
    }
}
