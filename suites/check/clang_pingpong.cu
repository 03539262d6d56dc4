// Compiled by clang (LLVM's NVPTX back end, no CUDA headers: builtins only).  A ping-
// pong between two CTAs: CTA 0 writes a request and raises ping; CTA 1 waits for ping, reads the
// request, writes the reply and raises pong; CTA 0 waits for pong and reads the reply.  BUGGY:
// the flags are volatile (ld/st.volatile: relaxed .sys, PTX ISA §8.8: no release or acquire
// pattern) and there is no fence, so neither hand-over synchronizes (§8.9.2) and a payload load
// may read 0: trap.  FIXED: __nvvm_membar_gl() (membar.gl, a fence.sc.gpu by §8.8 in sm_70+)
// before each flag store and after each flag wait: fence + relaxed form release and acquire
// patterns.  (clang 14 cannot select an acquire atomic load for NVPTX, hence volatile + membar,
// which is also what clang's __threadfence() is.)
#define G extern "C" __attribute__((global))
#define TID __nvvm_read_ptx_sreg_tid_x()
#define CTAID __nvvm_read_ptx_sreg_ctaid_x()
#ifndef FIXED
#define FENCE() ((void)0)
#else
#define FENCE() __nvvm_membar_gl()
#endif

__attribute__((device)) static void wait_flag(volatile int *f)
{
    int n = 0;
    while (*f == 0)
        if (++n == 10000) __builtin_trap();   // the other side never answered
    FENCE();
}

G void clang_pingpong(int *req, int *rep, volatile int *ping, volatile int *pong, int *out)
{
    if (TID != 0) return;
    if (CTAID == 0) {
        *req = 21;
        FENCE();
        *ping = 1;
        wait_flag(pong);
        int r = *rep;
        if (r != 42) __builtin_trap();        // a stale reply: the bug
        *out = r;
    } else {
        wait_flag(ping);
        int q = *req;
        if (q != 21) __builtin_trap();        // a stale request: the bug
        *rep = 2 * q;
        FENCE();
        *pong = 1;
    }
}
