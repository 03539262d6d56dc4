// Hopper bulk copies (sm_90): cuda::memcpy_async with 16-byte aligned sizes becomes
// cp.async.bulk...mbarrier::complete_tx::bytes, the barrier arrives with expect_tx and waits
// with mbarrier.try_wait.
#include <cuda/barrier>
#pragma nv_diag_suppress static_var_with_dynamic_init

extern "C" __global__ void bulk_copy(const int *in, int *out, int chunks)
{
    __shared__ alignas(16) int buf[512];
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    if (threadIdx.x == 0) init(&bar, blockDim.x);
    __syncthreads();
    int acc = 0;
    for (int c = 0; c < chunks; c++) {
        if (threadIdx.x == 0)
            cuda::memcpy_async(buf, in + (blockIdx.x * chunks + c) * 512, cuda::aligned_size_t<16>(sizeof buf), bar);
        bar.arrive_and_wait();
        acc = acc * 5 + buf[(threadIdx.x * 7 + c) % 512];
        bar.arrive_and_wait();
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
