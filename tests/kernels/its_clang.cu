// Independent thread scheduling, compiled by clang (LLVM NVPTX back end) without the CUDA
// headers: lane 0 of each warp waits for lane 31 of its warp; an atomicCAS lock taken by every
// lane.  Run by tests/test_exec_sched.c.
#define G extern "C" __attribute__((global))
#define TID __nvvm_read_ptx_sreg_tid_x()
#define NTID __nvvm_read_ptx_sreg_ntid_x()
#define CTAID __nvvm_read_ptx_sreg_ctaid_x()
G void clang_flag_spin(const int *in, int *out, int *data, int *flags) {
    int t = CTAID * NTID + TID, w = t / 32, lane = TID % 32;
    if (lane == 0) {
        while (((volatile int *)flags)[w] == 0) {}
        __nvvm_membar_gl();
        out[t] = in[t] + ((volatile int *)data)[w];
    } else {
        out[t] = 2 * in[t];
    }
    if (lane == 31) {
        data[w] = in[t] * 3 + 1;
        __nvvm_membar_gl();
        ((volatile int *)flags)[w] = 1;
    }
}
G void clang_cas_lock(int *lock, int *count, int *order) {
    int t = CTAID * NTID + TID;
    while (__nvvm_atom_cas_gen_i(lock, 0, 1) != 0) {}
    __nvvm_membar_gl();
    int c = *(volatile int *)count;
    order[c] = t;
    *(volatile int *)count = c + 1;
    __nvvm_membar_gl();
    __nvvm_atom_xchg_gen_i(lock, 0);
}
