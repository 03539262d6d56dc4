// Decoupled look-back with aggregates over three CTAs (CUB's single-pass scan, written with
// volatile status words): CTA i first publishes its own aggregate (status 1), then, once it
// knows its exclusive prefix, its inclusive prefix (status 2).  The look-back walks back from
// i-1, waiting while a status is 0, adding aggregates (status 1) until it finds an inclusive
// prefix (status 2).  BUGGY: no fences: the status word is st.volatile / ld.volatile (relaxed
// .sys, PTX ISA §8.8), so a reader that sees status s is not ordered after the value stores
// (no causality order, §8.9.2): it may add a stale 0 and the sum check traps.  FIXED:
// __threadfence() between each value store and its status store, and after each status read
// (fence + relaxed: release and acquire patterns, §8.8).
#ifndef FIXED
#define FENCE() ((void)0)
#else
#define FENCE() __threadfence()
#endif

__global__ void lookback_agg(const int *in, volatile int *agg, volatile int *incl,
                             volatile int *status, int *out)
{
    if (threadIdx.x != 0) return;
    int i = blockIdx.x, own = in[i];
    agg[i] = own;
    FENCE();
    status[i] = 1;
    int prefix = 0;
    for (int j = i - 1; j >= 0; j--) {
        int s = 0;
        for (int k = 0; k < 10000 && (s = status[j]) == 0; k++) {
        }
        if (s == 0) __trap();                // the predecessor never published
        FENCE();
        if (s == 2) { prefix += incl[j]; break; }
        prefix += agg[j];
    }
    int want = 0;
    for (int j = 0; j < i; j++) want += in[j];
    if (prefix != want) __trap();            // a stale aggregate or prefix: the bug
    incl[i] = prefix + own;
    FENCE();
    status[i] = 2;
    out[i] = prefix + own;
}
