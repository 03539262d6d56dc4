// suites/sanitizer/faulty.cu — kernels with one bug each, for `ptxlitmus run --check ...`
// (issue #14).  Compiled by build.sh; each spec *.yaml runs one kernel, its expected report is
// pinned by tests/cli/t_sanitizer.sh.
#include <cstdio>

// memcheck: off by one (i <= n): thread n writes 0 bytes past the end of y
__global__ void oob_write(const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i <= n) y[i] = 2.0f * x[i];
}

// memcheck: an int store at a 2-byte offset
__global__ void misaligned(int *p)
{
    int *q = (int *)((char *)p + 2);
    if (threadIdx.x == 5) q[threadIdx.x] = 1;
}

// synccheck: __syncthreads() inside a branch taken by part of a warp
__global__ void divergent_sync(const int *in, int *out)
{
    __shared__ int s[128];
    int t = threadIdx.x;
    if (t < 100) {
        s[t] = in[t];
        __syncthreads();
    }
    out[t] = s[t] + 1;
}

// synccheck: __shfl_sync whose membermask leaves out the upper half of the warp
__global__ void shfl_mask(int *out)
{
    int v = threadIdx.x;
    out[threadIdx.x] = __shfl_sync(0x0000ffffu, v, 0);
}

// racecheck: a neighbour's shared value read without __syncthreads()
__global__ void race_shared(const int *in, int *out)
{
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = in[t];
    out[t] = s[(t + 1) % 64];
}

// racecheck: every CTA adds to one counter with a plain (non-atomic) read-modify-write
__global__ void race_global(int *counter)
{
    if (threadIdx.x == 0) counter[0] = counter[0] + 1;
}

// initcheck: a shared array half written, then read all over
__global__ void uninit_shared(int *out)
{
    __shared__ int s[64];
    int t = threadIdx.x;
    if (t < 32) s[t] = t;
    __syncthreads();
    out[t] = s[63 - t];
}

// initcheck: reads an input buffer the host never wrote
__global__ void uninit_global(const int *in, int *out)
{
    int t = threadIdx.x;
    out[t] = in[t] * 2;
}

// a kernel that never ends: --timeout and the step limit stop it
__global__ void spin(volatile int *flag)
{
    while (flag[0] == 0) { }
}

// device printf, one line per thread
__global__ void hello(const float *x)
{
    printf("thread %d of block %d: x = %.2f\n", threadIdx.x, blockIdx.x, x[threadIdx.x]);
}

// correct: the same as race_shared with the barrier (no finding under any check)
__global__ void fixed_shared(const int *in, int *out)
{
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    out[t] = s[(t + 1) % 64];
}

// synccheck: warp 0 and warp 1 wait at two different __syncthreads() of one CTA
__global__ void block_divergent_sync(int *out)
{
    __shared__ int s[64];
    int t = threadIdx.x;
    if (t < 32) {
        s[t] = t;
        __syncthreads();
        out[t] = s[63 - t];
    } else {
        s[t] = -t;
        __syncthreads();
        out[t] = s[63 - t] * 2;
    }
}

// synccheck: named barrier 1 used with two thread counts (64 by warp 0, 32 by warp 1)
__global__ void bar_count_mismatch(int *out)
{
    unsigned n = threadIdx.x < 32 ? 64 : 32;
    asm volatile("bar.sync 1, %0;" ::"r"(n));
    out[threadIdx.x] = 1;
}

// device printf with most conversions (one thread)
__global__ void printf_formats(const char *name)
{
    long long big = -1234567890123LL;
    printf("%d %u %x %5.1f|%-4d|%e %s %c %lld %08.3f %%\n", -7, 4000000000u, 255, 3.14159, 12,
           1e-5, name, 'Z', big, 2.5);
}
