// An mbarrier between a producer and a consumer in one CTA: thread 0 writes the payload and
// arrives (release); thread 32 (the second warp) waits for the phase with try_wait.parity
// (acquire) and reads the payload.  BUGGY: it waits on the wrong phase, parity 1: on a fresh
// barrier the "previous phase" of parity 1 counts as complete, so the wait returns at once and
// the payload may not be there yet (trap).  FIXED: parity 0, the phase the arrival completes.
#include <cuda/ptx>
#include <cstdint>
#ifndef FIXED
#define PARITY 1
#else
#define PARITY 0
#endif

__global__ void mbar_phase(int *out)
{
    __shared__ uint64_t bar;
    __shared__ int data;
    if (threadIdx.x == 0) {
        cuda::ptx::mbarrier_init(&bar, 1);
        data = 0;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        data = 42;
        cuda::ptx::mbarrier_arrive(&bar);
    } else if (threadIdx.x == 32) {
        int tries = 0;
        while (!cuda::ptx::mbarrier_try_wait_parity(&bar, PARITY))
            if (++tries == 10000) __trap();   // the phase never completed
        if (data != 42) __trap();             // the payload is not there yet
        out[0] = data;
    }
}
