// A single-producer single-consumer ring of two slots between two CTAs: the producer (CTA 0)
// writes item i into slot i % 2 when the consumer's tail allows and advances head; the consumer
// (CTA 1) waits for head, reads the slot, checks the item and advances tail.  BUGGY: head and
// tail are relaxed atomics: the consumer may see head advanced and a stale slot (trap).
// FIXED: release stores and acquire loads of head and tail.
#include <cuda/atomic>
#ifndef FIXED
#define PUB cuda::memory_order_relaxed
#define SUB cuda::memory_order_relaxed
#else
#define PUB cuda::memory_order_release
#define SUB cuda::memory_order_acquire
#endif
#define N 3
#define SLOTS 2

__global__ void ring(int *slot, unsigned *head, unsigned *tail)
{
    if (threadIdx.x != 0) return;
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> h(*head), t(*tail);
    if (blockIdx.x == 0) {
        for (unsigned i = 0; i < N; i++) {
            int tries = 0;
            while (i - t.load(SUB) >= SLOTS)
                if (++tries == 10000) __trap();
            slot[i % SLOTS] = 100 + (int)i;
            h.store(i + 1, PUB);
        }
    } else {
        for (unsigned i = 0; i < N; i++) {
            int tries = 0;
            while (h.load(SUB) <= i)
                if (++tries == 10000) __trap();
            if (slot[i % SLOTS] != 100 + (int)i) __trap();   // a stale or overwritten item
            t.store(i + 1, PUB);
        }
    }
}
