// A Dekker-style handshake between two CTAs: each raises its flag, then enters the critical
// section only if the other's flag is still down.  BUGGY: the flags are volatile but nothing
// orders each CTA's store before its load (store buffering): both may read the other's flag as
// 0 and enter together, which the atomic count of CTAs inside detects: trap.  FIXED: a fence.sc
// (__threadfence) between the store and the load.
#ifndef FIXED
#define FENCE() ((void)0)
#else
#define FENCE() __threadfence()
#endif

__global__ void dekker(volatile int *flag, int *inside)
{
    if (threadIdx.x != 0) return;
    int me = blockIdx.x, other = 1 - me;
    flag[me] = 1;
    FENCE();
    if (flag[other] == 0) {               // the critical section
        if (atomicAdd(inside, 1) != 0) __trap();   // the other CTA is inside too
    }
}
