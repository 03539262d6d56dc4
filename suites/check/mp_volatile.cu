// Message passing between two CTAs: CTA 0 writes a payload and raises a flag, CTA 1 waits for
// the flag (a bounded spin) and reads the payload.  BUGGY: the flag is volatile (relaxed.sys)
// but nothing orders the payload before it (no fence): CTA 1 may see the flag and a stale
// payload, and traps.  FIXED: __threadfence() after the payload and after the flag.
#ifndef FIXED
#define FENCE() ((void)0)
#else
#define FENCE() __threadfence()
#endif

__global__ void mp(int *data, volatile int *flag, int *out)
{
    if (threadIdx.x != 0) return;
    if (blockIdx.x == 0) {
        data[0] = 42;
        FENCE();
        *flag = 1;
    } else {
        int tries = 0;
        while (*flag == 0 && ++tries < 10000) {
        }
        if (tries == 10000) __trap();   // the producer never came
        FENCE();
        int d = data[0];
        if (d != 42) __trap();          // the payload is stale: the bug
        out[0] = d;
    }
}
