// A single-producer single-consumer ring of two slots carrying three messages between two
// CTAs, with volatile head and tail counters (the classic pre-libcu++ style).  The producer
// waits while the ring is full, writes the slot, advances head; the consumer waits while it is
// empty, reads the slot, advances tail.  BUGGY: no fences: st.volatile/ld.volatile are relaxed
// (PTX ISA §8.8), so the consumer's slot load is not in causality order after the producer's slot
// store (§8.9.2) even when it has seen head advanced, and may read the previous message (or the
// initial 0): the assert fires.  FIXED: __threadfence() before each counter store and after each
// counter load that let the thread go on (release and acquire patterns).
#include <cassert>
#ifndef FIXED
#define FENCE() ((void)0)
#else
#define FENCE() __threadfence()
#endif
#define SLOTS 2
#define MSGS 3

__global__ void ring_vol(int *slot, volatile unsigned *head, volatile unsigned *tail, int *sum)
{
    if (threadIdx.x != 0) return;
    if (blockIdx.x == 0) {
        for (unsigned m = 0; m < MSGS; m++) {
            int tries = 0;
            while (m - *tail >= SLOTS)
                if (++tries == 10000) __trap();
            FENCE();
            slot[m % SLOTS] = 10 * (int)m + 1;
            FENCE();
            *head = m + 1;
        }
    } else {
        int total = 0;
        for (unsigned m = 0; m < MSGS; m++) {
            int tries = 0;
            while (*head == m)
                if (++tries == 10000) __trap();
            FENCE();
            int v = slot[m % SLOTS];
            assert(v == 10 * (int)m + 1);    // a stale or overwritten slot: the bug
            total += v;
            FENCE();
            *tail = m + 1;
        }
        *sum = total;
    }
}
