// Handing data from one thread to another through memory (issue #25: racecheck by the memory
// model, ISA §8.7-8.9).  The producer writes plain (weak) data, then publishes a flag; the
// consumer waits for the flag, then reads the data.  Correct handovers: libcu++ atomic_ref
// release/acquire at device scope (st.release.gpu / ld.acquire.gpu) between CTAs and between
// warps of one CTA, a chain through every CTA (each reads all earlier CTAs' data), and
// __threadfence() + volatile flag on both sides.  Buggy ones (each a data race by the ISA):
// block-scoped atomic_ref between CTAs, a volatile flag without fences, and a consumer that
// reads the flag without acquiring (no fence after its relaxed load).
#include <cuda/atomic>

using dev_ref = cuda::atomic_ref<int, cuda::thread_scope_device>;
using cta_ref = cuda::atomic_ref<int, cuda::thread_scope_block>;

// CTA 0 thread t writes data[t], then thread 0 releases the flag; CTA 1 waits and copies
template <class Ref>
__device__ void between_ctas(int *data, int *flag, int *out) {
    Ref f(*flag);
    if (blockIdx.x == 0) {
        data[threadIdx.x] = threadIdx.x * 7 + 1;
        __syncthreads();
        if (threadIdx.x == 0) f.store(1, cuda::memory_order_release);
    } else {
        if (threadIdx.x == 0)
            while (f.load(cuda::memory_order_acquire) == 0) {}
        __syncthreads();
        out[threadIdx.x] = data[threadIdx.x];
    }
}
extern "C" __global__ void ref_gpu(int *data, int *flag, int *out) { between_ctas<dev_ref>(data, flag, out); }
extern "C" __global__ void ref_cta_bug(int *data, int *flag, int *out) { between_ctas<cta_ref>(data, flag, out); }

// warp 0 produces, warp 1 consumes, each lane its own element and flag (one CTA, no barrier)
extern "C" __global__ void ref_warps(int *data, int *flag, int *out) {
    unsigned lane = threadIdx.x % 32;
    dev_ref f(flag[lane]);
    if (threadIdx.x < 32) {
        data[lane] = lane + 100;
        f.store(1, cuda::memory_order_release);
    } else {
        while (f.load(cuda::memory_order_acquire) == 0) {}
        out[lane] = data[lane];
    }
}

// a chain: CTA b waits for CTA b-1's flag, then sums the data of CTAs 0..b-1 and its own value
// and publishes its own (thread 0 of each CTA)
extern "C" __global__ void ref_chain(int *data, int *flag, int *out) {
    if (threadIdx.x) return;
    int b = blockIdx.x, s = b * 3 + 1;
    if (b > 0) {
        dev_ref prev(flag[b - 1]);
        while (prev.load(cuda::memory_order_acquire) == 0) {}
        for (int i = 0; i < b; i++) s += data[i];
    }
    data[b] = s;
    dev_ref(flag[b]).store(1, cuda::memory_order_release);
    out[b] = s;
}

// __threadfence() + volatile flag; fenced: both sides fence (correct); mode 1: neither side
// (buggy); mode 2: only the producer (buggy: the consumer's volatile read is not an acquire)
__device__ void fence_flag(int *data, volatile int *flag, int *out, int mode) {
    if (blockIdx.x == 0) {
        data[threadIdx.x] = threadIdx.x * 5 + 3;
        __syncthreads();
        if (threadIdx.x == 0) {
            if (mode != 1) __threadfence();
            *flag = 1;
        }
    } else {
        if (threadIdx.x == 0) {
            while (*flag == 0) {}
            if (mode == 0) __threadfence();
        }
        __syncthreads();
        out[threadIdx.x] = data[threadIdx.x];
    }
}
extern "C" __global__ void fenced(int *data, int *flag, int *out) { fence_flag(data, flag, out, 0); }
extern "C" __global__ void unfenced_bug(int *data, int *flag, int *out) { fence_flag(data, flag, out, 1); }
extern "C" __global__ void no_acquire_bug(int *data, int *flag, int *out) { fence_flag(data, flag, out, 2); }
