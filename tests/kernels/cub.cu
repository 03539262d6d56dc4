// CUB block- and warp-wide primitives as a CUDA library user writes them (the CUB headers that
// ship with nvcc 13).  Run by tests/test_exec_cub.c against C references.
#include <cub/cub.cuh>

#define CB 128   // threads per CTA
#define IPT 4    // items per thread (scan, sort)

// cub::BlockReduce: the sum and the maximum of each CTA's 128 values
extern "C" __global__ void cub_block_reduce(const int *in, int *out) {
    using BR = cub::BlockReduce<int, CB>;
    __shared__ typename BR::TempStorage tmp;
    int v = in[blockIdx.x * CB + threadIdx.x];
    int s = BR(tmp).Sum(v);
    __syncthreads();
    int m = BR(tmp).Reduce(v, cuda::maximum<>{});
    if (threadIdx.x == 0) { out[2 * blockIdx.x] = s; out[2 * blockIdx.x + 1] = m; }
}

// cub::BlockScan: exclusive prefix sums of 512 values per CTA (4 per thread, blocked)
extern "C" __global__ void cub_block_scan(const int *in, int *out, int *totals) {
    using BS = cub::BlockScan<int, CB>;
    __shared__ typename BS::TempStorage tmp;
    int items[IPT], base = (blockIdx.x * CB + threadIdx.x) * IPT, total;
    for (int k = 0; k < IPT; k++) items[k] = in[base + k];
    BS(tmp).ExclusiveSum(items, items, total);
    for (int k = 0; k < IPT; k++) out[base + k] = items[k];
    if (threadIdx.x == 0) totals[blockIdx.x] = total;
}

// cub::WarpReduce: the sum of each warp, and the maximum of each logical warp of 16 threads
extern "C" __global__ void cub_warp_reduce(const int *in, int *sums, int *maxs) {
    using WR = cub::WarpReduce<int>;
    using WR16 = cub::WarpReduce<int, 16>;
    __shared__ typename WR::TempStorage tmp[CB / 32];
    __shared__ typename WR16::TempStorage tmp16[CB / 16];
    int t = blockIdx.x * CB + threadIdx.x, v = in[t];
    int s = WR(tmp[threadIdx.x / 32]).Sum(v);
    int m = WR16(tmp16[threadIdx.x / 16]).Reduce(v, cuda::maximum<>{});
    if (t % 32 == 0) sums[t / 32] = s;
    if (t % 16 == 0) maxs[t / 16] = m;
}

// cub::BlockRadixSort: each CTA sorts its 512 keys (4 per thread, blocked)
extern "C" __global__ void cub_radix_sort(const unsigned *in, unsigned *out) {
    using BRS = cub::BlockRadixSort<unsigned, CB, IPT>;
    __shared__ typename BRS::TempStorage tmp;
    unsigned keys[IPT];
    int base = (blockIdx.x * CB + threadIdx.x) * IPT;
    for (int k = 0; k < IPT; k++) keys[k] = in[base + k];
    BRS(tmp).Sort(keys);
    for (int k = 0; k < IPT; k++) out[base + k] = keys[k];
}
