// Message passing from one CTA to two: CTA 0 writes two payload words and publishes a flag
// through cuda::atomic_ref; CTAs 1 and 2 each poll the flag in a bounded `for` spin (a trap
// when it is exhausted) and check the payload with assert().  BUGGY: the flag is stored and
// loaded with memory_order_relaxed (st.relaxed.gpu / ld.relaxed.gpu): by PTX ISA §8.8 a relaxed
// store is no release pattern and a relaxed load no acquire pattern, so there is no
// synchronizes-with (§8.9.2) and no causality order from the payload's stores to the consumers'
// loads; the payload loads may read the initial values (§8.9.4 coherence allows it), and the
// assert fires.  FIXED: store(release) and load(acquire) at device scope: the release pattern
// morally-strong with the acquire pattern that observes it gives base causality order, and
// causality orders the payload stores before the loads, so they read 42 and 43.
#include <cuda/atomic>
#include <cassert>
#ifndef FIXED
#define PUB cuda::memory_order_relaxed
#define SUB cuda::memory_order_relaxed
#else
#define PUB cuda::memory_order_release
#define SUB cuda::memory_order_acquire
#endif

__global__ void mp_ref3(int *data, int *flag, int *out)
{
    if (threadIdx.x != 0) return;
    cuda::atomic_ref<int, cuda::thread_scope_device> f(*flag);
    if (blockIdx.x == 0) {
        data[0] = 42;
        data[1] = 43;
        f.store(1, PUB);
        return;
    }
    int i = 0;
    for (; i < 10000 && f.load(SUB) == 0; i++) {
    }
    if (i == 10000) __trap();                    // the producer never published
    int a = data[0], b = data[1];
    assert(a == 42 && b == 43);                  // a stale payload: the bug
    out[blockIdx.x - 1] = a + b;
}
