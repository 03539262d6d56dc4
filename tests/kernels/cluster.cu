// Thread-block clusters (sm_90): distributed shared memory through cooperative_groups
// map_shared_rank, cluster.sync() (barrier.cluster.arrive/wait), cluster special registers.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// Each CTA of a 4-CTA cluster fills its shared array, the cluster synchronises, then every
// thread reads the element of the next CTA (rank + 1) and records the cluster geometry.
extern "C" __global__ void __cluster_dims__(4, 1, 1) cluster_ring(const int *in, int *out, unsigned *info)
{
    __shared__ int buf[128];
    cg::cluster_group cl = cg::this_cluster();
    unsigned rank = cl.block_rank();
    int gid = blockIdx.x * blockDim.x + threadIdx.x;
    buf[threadIdx.x] = in[gid] * 3 + (int)rank;
    cl.sync();
    int *peer = cl.map_shared_rank(buf, (rank + 1) % cl.num_blocks());
    out[gid] = peer[blockDim.x - 1 - threadIdx.x];
    if (threadIdx.x == 0) {
        unsigned *o = info + blockIdx.x * 8;
        o[0] = rank;
        o[1] = cl.num_blocks();
        o[2] = cl.block_index().x;
        o[3] = cl.dim_blocks().x;
        dim3 ci = __clusterIdx();
        o[4] = ci.x;
        o[5] = __clusterGridDimInClusters().x;
        o[6] = __clusterDimIsSpecified() + 2 * __cluster_query_shared_rank(peer);
        o[7] = cl.thread_rank();
    }
    cl.sync();   // keep this CTA's shared memory alive until the peers have read it
}

// Distributed histogram: the bins are spread over the CTAs of the cluster (launch-time cluster
// size); every thread adds into the CTA that owns its bin with a shared::cluster atomic.
extern "C" __global__ void cluster_hist(const int *data, int n, int nbins, int *bins)
{
    extern __shared__ int smem[];
    cg::cluster_group cl = cg::this_cluster();
    int per = nbins / (int)cl.num_blocks();
    for (int i = threadIdx.x; i < per; i += blockDim.x) smem[i] = 0;
    cl.sync();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        int b = data[i];
        if (b < 0) b = 0;
        if (b >= nbins) b = nbins - 1;
        int *dst = cl.map_shared_rank(smem, b / per);
        atomicAdd(dst + b % per, 1);
    }
    cl.sync();
    int *lb = &bins[cl.block_rank() * per];
    for (int i = threadIdx.x; i < per; i += blockDim.x) atomicAdd(&lb[i], smem[i]);
}
