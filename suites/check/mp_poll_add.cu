// Message passing between two CTAs where the consumer polls with atomicAdd(flag, 0) (an
// atom.global.add, relaxed at gpu scope) and the producer raises the flag with atomicExch.
// BUGGY: no fence: both atomics are relaxed (PTX ISA §8.8: atom without .sem is .relaxed), so
// they form no release/acquire pattern and the payload's plain store is not in causality order
// before the consumer's plain load (§8.9.2); the load may read the initial 0 (trap).
// FIXED: __threadfence() (fence.sc.gpu... nvcc 13 emits fence.acq_rel.gpu or membar.gl) before
// the exchange and after the poll succeeds: fence + relaxed atomic form release and acquire
// patterns (§8.8), which synchronize.
#ifndef FIXED
#define FENCE() ((void)0)
#else
#define FENCE() __threadfence()
#endif

__global__ void mp_poll_add(int *data, int *flag, int *out)
{
    if (threadIdx.x != 0) return;
    if (blockIdx.x == 0) {
        data[0] = 7;
        data[1] = 9;
        FENCE();
        atomicExch(flag, 1);
    } else {
        int spins = 0;
        while (atomicAdd(flag, 0) == 0) {
            if (++spins >= 10000) __trap();   // never published
        }
        FENCE();
        int s = data[0] * data[1];
        if (s != 63) __trap();               // stale payload: the bug
        out[0] = s;
    }
}
