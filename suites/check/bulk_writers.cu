// Four threads of a warp each write one word of a global buffer with generic stores, the CTA
// meets at __syncthreads(), and thread 0 copies the buffer into shared memory with a bulk copy
// (cp.async.bulk: the asynchronous proxy), waits on the copy's mbarrier and checks the copy.
// BUGGY: no proxy fence: the generic stores and the copy's reads are accesses of different
// proxies, and the ISA (§8.5 "Proxies", §9.7.12.15 fence.proxy) requires a proxy fence between
// them; bar.sync orders generic accesses only, so the copy may read the old contents (trap).
// FIXED: each writer executes fence.proxy.async.global after its store and before the barrier
// (the pattern of the CUDA programming guide for the TMA: proxy fence, then __syncthreads()).
#include <cuda/ptx>
#include <cstdint>

__global__ void bulk_writers(int *src, int *out)
{
    __shared__ alignas(16) int dst[4];
    __shared__ uint64_t bar;
    unsigned t = threadIdx.x;
    if (t < 4) src[t] = 100 + (int)t;
#ifdef FIXED
    if (t < 4) cuda::ptx::fence_proxy_async(cuda::ptx::space_global);
#endif
    if (t == 0) cuda::ptx::mbarrier_init(&bar, 1);
    __syncthreads();
    if (t != 0) return;
    cuda::ptx::mbarrier_arrive_expect_tx(cuda::ptx::sem_release, cuda::ptx::scope_cta,
                                         cuda::ptx::space_shared, &bar, 16);
    cuda::ptx::cp_async_bulk(cuda::ptx::space_cluster, cuda::ptx::space_global, dst, src, 16,
                             &bar);
    int i = 0;
    for (; i < 10000 && !cuda::ptx::mbarrier_try_wait_parity(&bar, 0); i++) {
    }
    if (i == 10000) __trap();               // the copy never completed
    int s = dst[0] + dst[1] + dst[2] + dst[3];
    if (s != 406) __trap();                 // the copy read old contents: the bug
    out[0] = s;
}
