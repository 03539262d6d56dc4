// The order in which three CTAs take a spin lock: cuda::atomic_ref<int>::exchange(1, acquire)
// polls to take it, store(0, release) gives it back, and a ticket taken inside (fetch_add on
// `turns`) numbers the holders.  Any CTA may take the lock first (PTX ISA §8.10.1 Coherence,
// §8.10.3 Atomicity: the exchanges are in one coherence order of `lock`, any CTA's first).
// BUGGY: CTA 2 traps when it is the first holder (ticket 0), a real execution on a GPU that an
// exploration which never lets the last CTA win the first exchange misses (it did: each of its
// polls read the write before another CTA's poll write-back, an inconsistent graph).  FIXED:
// CTA 2 traps only on a ticket no holder draws (-1).
#include <cuda/atomic>
#ifndef FIXED
#define BAD 0
#else
#define BAD -1
#endif

__global__ void lock_order(int *lock, int *turns, int *counter)
{
    if (threadIdx.x != 0) return;
    cuda::atomic_ref<int, cuda::thread_scope_device> l(*lock), n(*turns);
    int i;
#pragma unroll 1
    for (i = 0; i < 10000; i++)
        if (l.exchange(1, cuda::memory_order_acquire) == 0) break;
    if (i == 10000) __trap();                       // the lock was never released
    int k = n.fetch_add(1, cuda::memory_order_relaxed);
    if (k == BAD && blockIdx.x == 2) __trap();      // CTA 2 took the lock first
    *counter = *counter + 1;
    l.store(0, cuda::memory_order_release);
}
