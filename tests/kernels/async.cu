// Asynchronous copies (sm_80): cp.async through __pipeline_memcpy_async and cuda::memcpy_async,
// cp.async.commit_group/wait_group, cp.async.mbarrier.arrive, and mbarrier objects
// (cuda::barrier and a hand-written inline-PTX producer/consumer ring).
#include <cuda_pipeline.h>
#include <cuda/barrier>
#pragma nv_diag_suppress static_var_with_dynamic_init

// Double-buffered tiles: stage i+1 is in flight while stage i is summed.
extern "C" __global__ void pipeline_sum(const int *in, int *out, int ntiles)
{
    __shared__ int tile[2][128];
    int t = threadIdx.x;
    const int *base = in + blockIdx.x * ntiles * 128;
    int acc = 0;
    __pipeline_memcpy_async(&tile[0][t], &base[t], sizeof(int));
    __pipeline_commit();
    for (int i = 0; i < ntiles; i++) {
        if (i + 1 < ntiles) __pipeline_memcpy_async(&tile[(i + 1) & 1][t], &base[(i + 1) * 128 + t], sizeof(int));
        __pipeline_commit();
        __pipeline_wait_prior(1);
        __syncthreads();
        acc += tile[i & 1][(t + i) % 128] * (i + 1);
        __syncthreads();
    }
    out[blockIdx.x * 128 + t] = acc;
}

// 16-byte copies with zero fill (src-size < cp-size) in the last, partial chunk.
extern "C" __global__ void pipeline_zfill(const int4 *in, int4 *out, int n_ints)
{
    __shared__ int4 buf[64];
    int t = threadIdx.x;
    int have = n_ints - t * 4;
    size_t zfill = have >= 4 ? 0 : have <= 0 ? 16 : (size_t)(4 - have) * 4;
    __pipeline_memcpy_async(&buf[t], &in[have > 0 ? t : 0], 16, zfill);
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    int4 v = buf[63 - t];
    out[t] = make_int4(v.w, v.z, v.y, v.x);
}

// cuda::barrier + cuda::memcpy_async: the whole block copies a chunk, arrives and waits.
extern "C" __global__ void barrier_copy(const float *in, float *out, int chunks)
{
    __shared__ float buf[256];
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    if (threadIdx.x == 0) init(&bar, blockDim.x);
    __syncthreads();
    float acc = 0.0f;
    for (int c = 0; c < chunks; c++) {
        cuda::memcpy_async(&buf[threadIdx.x], &in[(blockIdx.x * chunks + c) * 256 + threadIdx.x], sizeof(float), bar);
        bar.arrive_and_wait();
        acc = acc * 0.5f + buf[255 - threadIdx.x];
        bar.arrive_and_wait();
    }
    out[blockIdx.x * 256 + threadIdx.x] = acc;
}

// Producer/consumer ring of 4 slots with two mbarriers per slot (full, empty), inline PTX:
// warp 0 produces n items per slot round, warps 1..3 consume and accumulate.
__device__ __forceinline__ void mb_init(unsigned long long *b, unsigned cnt)
{
    asm volatile("mbarrier.init.shared.b64 [%0], %1;" :: "r"((unsigned)__cvta_generic_to_shared(b)), "r"(cnt) : "memory");
}
__device__ __forceinline__ void mb_arrive(unsigned long long *b)
{
    asm volatile("{ .reg .b64 st; mbarrier.arrive.shared.b64 st, [%0]; }" :: "r"((unsigned)__cvta_generic_to_shared(b)) : "memory");
}
__device__ __forceinline__ void mb_wait_parity(unsigned long long *b, unsigned parity)
{
    asm volatile("{ .reg .pred p; W%=: mbarrier.test_wait.parity.shared.b64 p, [%0], %1; @!p nanosleep.u32 20; @!p bra W%=; }"
                 :: "r"((unsigned)__cvta_generic_to_shared(b)), "r"(parity) : "memory");
}

extern "C" __global__ void mbar_ring(const int *in, int *out, int rounds)
{
    __shared__ int slot[4][96];
    __shared__ unsigned long long full[4], empty[4];
    int t = threadIdx.x, w = t / 32;
    if (t < 4) { mb_init(&full[t], 32); mb_init(&empty[t], 96); }
    __syncthreads();
    if (w == 0) {
        for (int r = 0; r < rounds; r++) {
            int s = r % 4;
            if (r >= 4) mb_wait_parity(&empty[s], ((r / 4) - 1) & 1);
            for (int k = t; k < 96; k += 32) slot[s][k] = in[(blockIdx.x * rounds + r) * 96 + k];
            mb_arrive(&full[s]);
        }
    } else {
        int c = t - 32, acc = 0;
        for (int r = 0; r < rounds; r++) {
            int s = r % 4;
            mb_wait_parity(&full[s], (r / 4) & 1);
            acc = acc * 3 + slot[s][(c + r) % 96];
            mb_arrive(&empty[s]);
        }
        out[blockIdx.x * 96 + c] = acc;
    }
}
