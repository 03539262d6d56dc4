// A spin lock written with libcu++: cuda::atomic_ref<int>::exchange to take it and store(0) to
// release it, three CTAs each adding to a plain counter in the critical section; the count of
// entries taken inside must match the counter.  BUGGY: memory_order_relaxed on both: PTX ISA
// §8.8: atom.relaxed / st.relaxed are no release or acquire patterns, so the next holder's read
// of the counter is not in causality order after the previous holder's write (§8.9.2) and may
// read an older value: trap.  FIXED: exchange(acquire) and store(release) (atom.acquire.gpu,
// st.release.gpu): the release of one holder synchronizes with the acquire of the next.
#include <cuda/atomic>
#ifndef FIXED
#define TAKE cuda::memory_order_relaxed
#define GIVE cuda::memory_order_relaxed
#else
#define TAKE cuda::memory_order_acquire
#define GIVE cuda::memory_order_release
#endif

__global__ void spinlock_ref(int *lock, int *turns, int *counter)
{
    if (threadIdx.x != 0) return;
    cuda::atomic_ref<int, cuda::thread_scope_device> l(*lock), n(*turns);
    int i = 0;
    for (; i < 10000 && l.exchange(1, TAKE) != 0; i++) {
    }
    if (i == 10000) __trap();                       // the lock was never released
    int k = n.fetch_add(1, cuda::memory_order_relaxed);
    int v = *counter;
    if (v != k) __trap();                           // an earlier holder's increment is missing
    *counter = v + 1;
    l.store(0, GIVE);
}
