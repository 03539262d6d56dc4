// suites/sanitizer/clang_faulty.cu — faulty kernels compiled by clang (LLVM NVPTX back end)
// without the CUDA headers (builtins only), for `ptxlitmus run --check ...` (issue #14).
#define G extern "C" __attribute__((global))
#define TID __nvvm_read_ptx_sreg_tid_x()
#define NTID __nvvm_read_ptx_sreg_ntid_x()
#define CTAID __nvvm_read_ptx_sreg_ctaid_x()
// memcheck: off by one
G void clang_oob(const int *x, int *y, int n) {
    int i = CTAID * NTID + TID;
    if (i <= n) y[i] = x[i] + 1;
}
// synccheck: __syncthreads() taken by part of a warp
G void clang_divergent_sync(int *out) {
    __attribute__((shared)) static int s[64];
    int t = TID;
    s[t] = t;
    if (t < 40) __syncthreads();
    out[t] = s[t] * 2;
}
// racecheck: reverse through shared memory without the barrier
G void clang_race(const int *x, int *y) {
    __attribute__((shared)) static int s[64];
    int t = TID;
    s[t] = x[t];
    y[t] = s[63 - t];
}
