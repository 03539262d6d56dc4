// Peterson's mutual exclusion between two CTAs, written with cuda::atomic_ref.  Each CTA raises
// its flag, gives the turn to the other, and waits while the other's flag is up and the turn
// is the other's; inside, an atomic count of the CTAs inside must be 0.  BUGGY: release stores
// and acquire loads: PTX ISA §8.8/§8.9 release/acquire give no order from a CTA's store of
// flag[me] to its later load of flag[other] (store buffering: both loads may read the initial 0,
// no fence.sc in between, so §8.9.5 (Fence-SC) does not forbid it), so both CTAs enter: trap.
// FIXED: memory_order_seq_cst, which libcu++ compiles to fence.sc before each access: the two
// fence.sc are ordered in Fence-SC order, which rules out both loads reading 0.
#include <cuda/atomic>
#ifndef FIXED
#define ST cuda::memory_order_release
#define LD cuda::memory_order_acquire
#else
#define ST cuda::memory_order_seq_cst
#define LD cuda::memory_order_seq_cst
#endif

__global__ void peterson(int *flag, int *turn, int *inside)
{
    if (threadIdx.x != 0) return;
    int me = blockIdx.x, other = 1 - me;
    cuda::atomic_ref<int, cuda::thread_scope_device> mine(flag[me]), theirs(flag[other]), t(*turn);
    mine.store(1, ST);
    t.store(other, ST);
    int tries = 0;
    while (theirs.load(LD) == 1 && t.load(LD) == other)
        if (++tries == 10000) __trap();          // the other never left
    if (atomicAdd(inside, 1) != 0) __trap();     // both inside: the bug
    atomicSub(inside, 1);
    mine.store(0, ST);
}
