// A spin lock between three CTAs: thread 0 of each takes the lock with atomicCAS, counts its
// entry with atomicAdd, increments a plain counter, and releases the lock with atomicExch.
// BUGGY: no fences: the atomics are relaxed, so taking the lock does not acquire the previous
// holder's increment, and the counter read in the critical section can be stale (it must equal
// the number of entries before this one): trap.  FIXED: __threadfence() after taking the lock
// and before releasing it.
#ifndef FIXED
#define FENCE() ((void)0)
#else
#define FENCE() __threadfence()
#endif

__global__ void spinlock(int *lock, int *entries, int *counter)
{
    if (threadIdx.x != 0) return;
    int tries = 0;
    while (atomicCAS(lock, 0, 1) != 0)
        if (++tries == 10000) __trap();   // the lock was never released
    FENCE();
    int k = atomicAdd(entries, 1);        // the k-th critical section
    int v = *counter;
    if (v != k) __trap();                 // an increment of an earlier holder is missing
    *counter = v + 1;
    FENCE();
    atomicExch(lock, 0);
}
