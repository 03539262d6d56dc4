// A cluster of two CTAs: CTA 0 fills its shared memory, CTA 1 reads it through distributed
// shared memory (ld.shared::cluster).  BUGGY: no barrier.cluster between the write and the
// read: the read may see the old contents (trap).  FIXED: barrier.cluster arrive (release) and
// wait (acquire) between them.  Both keep a final cluster barrier, so that CTA 0's shared memory
// outlives CTA 1's read.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void __cluster_dims__(2, 1, 1) peer(int *out)
{
    __shared__ int buf[1];
    cg::cluster_group cl = cg::this_cluster();
    unsigned rank = cl.block_rank();
    if (threadIdx.x == 0) buf[0] = rank == 0 ? 42 : 0;
#ifdef FIXED
    cl.sync();
#endif
    if (rank == 1 && threadIdx.x == 0) {
        int *peer = cl.map_shared_rank(buf, 0);
        int v = *(volatile int *)peer;
        if (v != 42) __trap();           // CTA 0's write is not visible yet
        out[0] = v;
    }
    cl.sync();
}
