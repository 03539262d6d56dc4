// A cluster of two CTAs: CTA 0 writes its shared memory, both CTAs meet at a cluster barrier
// (inline PTX), and CTA 1 reads CTA 0's shared memory through ld.shared::cluster.  BUGGY: the
// arrive is barrier.cluster.arrive.relaxed: the ISA (barrier.cluster: ".relaxed ... removes the
// default release semantics of arrive") leaves no release pattern before the barrier, so the
// barrier gives no synchronization from CTA 0's store to CTA 1's load (PTX ISA §8.9.2) and the
// load may read the old 0: trap.  FIXED: the default barrier.cluster.arrive (.release) and
// barrier.cluster.wait (.acquire).  Both end with a full cluster barrier, so CTA 0's shared
// memory outlives CTA 1's read.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
#ifndef FIXED
#define ARRIVE "barrier.cluster.arrive.relaxed.aligned;"
#else
#define ARRIVE "barrier.cluster.arrive.aligned;"
#endif

__global__ void __cluster_dims__(2, 1, 1) cluster_relaxed(int *out)
{
    __shared__ int buf[2];
    cg::cluster_group cl = cg::this_cluster();
    unsigned rank = cl.block_rank();
    if (threadIdx.x == 0) {
        buf[0] = rank == 0 ? 17 : 0;
        buf[1] = rank == 0 ? 19 : 0;
    }
    asm volatile(ARRIVE ::: "memory");
    asm volatile("barrier.cluster.wait.aligned;" ::: "memory");
    if (rank == 1 && threadIdx.x == 0) {
        int *peer = cl.map_shared_rank(buf, 0);
        int a = peer[0], b = peer[1];
        if (a != 17 || b != 19) __trap();   // CTA 0's writes are not visible: the bug
        out[0] = a + b;
    }
    cl.sync();
}
