// A chain of three CTAs: CTA 0 writes the payload and raises flag a; CTA 1 waits for a and
// raises b; CTA 2 waits for b and reads the payload.  The flags are volatile; the fences are
// __threadfence_block() in the buggy variant, __threadfence() in the fixed one.  BUGGY:
// fence.cta (membar.cta) orders only with respect to threads of its own CTA: PTX ISA §8.8 the
// fence+relaxed release/acquire patterns synchronize only when morally strong (§8.7: both
// scopes must include the other thread), and .cta does not include another CTA, so there is no
// causality order from the payload store to CTA 2's load: it may read 0 (trap).  FIXED:
// fence at .gpu scope (__threadfence): CTA 0 -> 1 -> 2 synchronizes, and causality order is
// transitive (§8.9.2 base causality order), so CTA 2 reads the payload.
#ifndef FIXED
#define FENCE() __threadfence_block()
#else
#define FENCE() __threadfence()
#endif

__device__ void wait_for(volatile int *f)
{
    int n = 0;
    for (; n < 10000; n++)
        if (*f != 0) break;
    if (n == 10000) __trap();   // the predecessor never came
}

__global__ void chain(int *data, volatile int *a, volatile int *b, int *out)
{
    if (threadIdx.x != 0) return;
    switch (blockIdx.x) {
    case 0:
        data[0] = 5;
        FENCE();
        *a = 1;
        break;
    case 1:
        wait_for(a);
        FENCE();
        *b = 1;
        break;
    default:
        wait_for(b);
        FENCE();
        if (data[0] != 5) __trap();   // CTA 0's payload is not visible: the bug
        out[0] = data[0];
    }
}
