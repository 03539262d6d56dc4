// A consumer that waits for a value to change from the one it first read (a peeled first read
// whose value is used after the loop, unlike `while (!flag)`).  CTA 1 writes a payload, then
// x = 1, x = 2 and go = 1; CTA 0 reads go and x, waits (a bounded spin) until x differs from
// what it read, and, when it read go = 1 and x = 1, reads the payload.  BUGGY: volatile
// accesses and no fence: the payload may be stale (trap).  FIXED: __threadfence() after the
// payload and before reading it.  Pins that the spin reduction keeps the executions in which
// the first read is not the latest write (a stale first read is no failed iteration).
#ifndef FIXED
#define FENCE() ((void)0)
#else
#define FENCE() __threadfence()
#endif

__global__ void wait_change(int *data, volatile int *x, volatile int *go, int *out)
{
    if (threadIdx.x != 0) return;
    if (blockIdx.x == 1) {
        data[0] = 42;
        FENCE();
        *x = 1;
        *x = 2;
        *go = 1;
    } else {
        int g = *go;
        int old = *x;
        int tries = 0;
        while (*x == old && old != 2 && ++tries < 10000) {
        }
        if (tries == 10000) return;   // x did not change: nothing to read
        if (g == 1 && old == 1) {
            FENCE();
            int d = data[0];
            if (d != 42) __trap();    // the payload is stale: the bug
        }
        out[0] = old;
    }
}
