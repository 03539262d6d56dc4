// Kernels compiled by clang (LLVM NVPTX back end) without the CUDA headers: builtins only.
#define G extern "C" __attribute__((global))
#define TID __nvvm_read_ptx_sreg_tid_x()
#define NTID __nvvm_read_ptx_sreg_ntid_x()
#define CTAID __nvvm_read_ptx_sreg_ctaid_x()
G void clang_saxpy(int n, float a, const float *x, float *y) {
    int i = CTAID * NTID + TID;
    if (i < n) y[i] = a * x[i] + y[i];
}
G void clang_reduce(const int *x, int *out, int n) {
    __attribute__((shared)) static int s[256];
    int t = TID, i = CTAID * NTID + t;
    s[t] = i < n ? x[i] : 0;
    __syncthreads();
    for (int st = NTID / 2; st > 0; st >>= 1) {
        if (t < st) s[t] += s[t + st];
        __syncthreads();
    }
    if (t == 0) __nvvm_atom_add_gen_i(out, s[0]);
}
__attribute__((device)) __attribute__((noinline)) unsigned collatz(unsigned v) {
    unsigned k = 0;
    while (v > 1) { v = (v & 1) ? 3 * v + 1 : v / 2; k++; }
    return k;
}
G void clang_collatz(const unsigned *x, unsigned *y) { int i = CTAID * NTID + TID; y[i] = collatz(x[i]); }
