// An mbarrier used for two phases, in inline PTX: thread 0 (warp 0) writes the first message and
// arrives (completing phase 0), waits for the consumer's acknowledgement (a second mbarrier, so
// that it never runs two phases ahead), then writes the second and arrives again (completing
// phase 1); thread 32 (warp 1) waits for phase 0 (parity 0), checks the first message,
// acknowledges, then waits for the second.  BUGGY: the second wait uses parity 0 again: by the
// ISA's mbarrier.test_wait/try_wait
// (.parity: "waits for the completion of the phase indicated by phaseParity"), once phase 0 has
// completed a wait on parity 0 returns at once while phase 1 is still pending, so the wait's
// acquire (§9.7.13.15.16: try_wait has .acquire semantics by default) is not ordered after the
// second arrival's release, and the load of the second message may read 0: trap.  FIXED:
// parity 1.
#include <cstdint>
#ifndef FIXED
#define SECOND 0
#else
#define SECOND 1
#endif

__device__ void arrive(uint64_t *bar)
{
    unsigned a = (unsigned)__cvta_generic_to_shared(bar);
    asm volatile("{ .reg .b64 st; mbarrier.arrive.release.cta.shared::cta.b64 st, [%0]; }"
                 :: "r"(a) : "memory");
}

__device__ void wait_parity(uint64_t *bar, unsigned parity)
{
    unsigned a = (unsigned)__cvta_generic_to_shared(bar), done = 0;
    for (int i = 0; i < 10000; i++) {
        asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 p, [%1], %2;"
                     " selp.u32 %0, 1, 0, p; }"
                     : "=r"(done) : "r"(a), "r"(parity) : "memory");
        if (done) return;
    }
    __trap();   // the phase never completed
}

__global__ void mbar_twophase(int *out)
{
    __shared__ uint64_t bar, ack;
    __shared__ int msg[2];
    if (threadIdx.x == 0) {
        unsigned a = (unsigned)__cvta_generic_to_shared(&bar);
        unsigned k = (unsigned)__cvta_generic_to_shared(&ack);
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(a) : "memory");
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: "r"(k) : "memory");
        msg[0] = msg[1] = 0;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        msg[0] = 11;
        arrive(&bar);
        wait_parity(&ack, 0);
        msg[1] = 22;
        arrive(&bar);
    } else if (threadIdx.x == 32) {
        wait_parity(&bar, 0);
        if (msg[0] != 11) __trap();
        arrive(&ack);
        wait_parity(&bar, SECOND);
        if (msg[1] != 22) __trap();   // the second message is not there yet: the bug
        out[0] = msg[0] + msg[1];
    }
}
