// Kernels of issue #25 compiled by LLVM's NVPTX back end (clang 14, no CUDA headers): a
// handover between CTAs through a volatile flag between membar.gl fences (clang 14 cannot
// select an acquire atomic load for NVPTX), checked by racecheck (tests/test_exec_race.c), and
// device-side malloc/free (tests/test_exec_device.c).
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
extern "C" __device__ void *malloc(unsigned long);
extern "C" __device__ void free(void *);

// CTA 0 writes data[t], thread 0 fences and sets the flag; CTA 1's thread 0 waits and fences,
// then every thread copies
extern "C" __global__ void clang_handover(int *data, int *flag, int *out) {
    unsigned b = __nvvm_read_ptx_sreg_ctaid_x(), t = __nvvm_read_ptx_sreg_tid_x();
    if (b == 0) {
        data[t] = t * 9 + 2;
        __syncthreads();
        if (t == 0) { __nvvm_membar_gl(); *(volatile int *)flag = 1; }
    } else {
        if (t == 0) { while (*(volatile int *)flag == 0) {} __nvvm_membar_gl(); }
        __syncthreads();
        out[t] = data[t];
    }
}

// each thread: a block of n ints filled with i + t and summed (-1 when malloc returns NULL)
extern "C" __global__ void clang_malloc(int n, long long *out) {
    unsigned t = __nvvm_read_ptx_sreg_tid_x();
    int *p = (int *)malloc(n * sizeof(int));
    long long s = -1;
    if (p) {
        for (int i = 0; i < n; i++) p[i] = i + t;
        s = 0;
        for (int i = 0; i < n; i++) s += p[i];
        free(p);
    }
    out[t] = s;
}
