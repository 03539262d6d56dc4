// A bulk copy of data the same thread just wrote: thread 0 fills a global buffer with generic
// stores, then copies it into shared memory with cp.async.bulk (the asynchronous proxy),
// waits on the mbarrier the copy completes, and checks the copy.  BUGGY: no fence.proxy.async
// between the generic stores and the copy: the copy may read the old contents (trap).
// FIXED: fence.proxy.async.global before the copy.
#include <cuda/ptx>
#include <cstdint>

__global__ void bulk_proxy(int *src, int *out)
{
    __shared__ alignas(16) int dst[4];
    __shared__ uint64_t bar;
    if (threadIdx.x != 0) return;
    for (int i = 0; i < 4; i++) src[i] = 10 + i;
    cuda::ptx::mbarrier_init(&bar, 1);
#ifdef FIXED
    cuda::ptx::fence_proxy_async(cuda::ptx::space_global);
#endif
    cuda::ptx::mbarrier_arrive_expect_tx(cuda::ptx::sem_release, cuda::ptx::scope_cta,
                                         cuda::ptx::space_shared, &bar, 16);
    cuda::ptx::cp_async_bulk(cuda::ptx::space_cluster, cuda::ptx::space_global, dst, src, 16,
                             &bar);
    int tries = 0;
    while (!cuda::ptx::mbarrier_try_wait_parity(&bar, 0))
        if (++tries == 10000) __trap();
    for (int i = 0; i < 4; i++)
        if (dst[i] != 10 + i) __trap();   // the copy read the old contents
    out[0] = dst[3];
}
