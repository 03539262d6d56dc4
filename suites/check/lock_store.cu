// A spin lock taken with atomicExch(lock, 1) and released with a plain volatile store, between
// two CTAs that each enter twice; the critical section updates a pair of words that must stay
// equal.  BUGGY: no fences: atom.exch is relaxed and st.volatile is relaxed.sys (PTX ISA §8.8),
// so neither the taking nor the release is an acquire/release pattern; the second holder's loads
// of the pair are not ordered after the first holder's stores by causality (§8.9.2) and may read
// older values (and its stores may be ordered before them in coherence): the pair differs or the
// count is short, the assert fires.  FIXED: __threadfence() after taking and before releasing:
// fence.sc/acq_rel followed by the relaxed atom (release pattern) and preceded by it (acquire
// pattern) synchronize the holders.
#include <cassert>
#ifndef FIXED
#define FENCE() ((void)0)
#else
#define FENCE() __threadfence()
#endif

__global__ void lock_store(int *lock, int *pair)
{
    if (threadIdx.x != 0) return;
    for (int round = 0; round < 2; round++) {
        int tries = 0;
        while (atomicExch(lock, 1) != 0)
            if (++tries == 10000) __trap();   // never released
        FENCE();
        int a = pair[0], b = pair[1];
        assert(a == b);                       // a half-done update of the other holder
        pair[0] = a + 1;
        pair[1] = b + 1;
        FENCE();
        *(volatile int *)lock = 0;
    }
}
