// Tensor memory access (sm_90a): cp.async.bulk.tensor loads (1D-5D tile, 3D/4D im2col,
// multicast to a cluster of 2) completing on an mbarrier (expect_tx + try_wait), stores and
// reductions back through a tensor map with bulk async-groups, cp.reduce.async.bulk (non-tensor)
// into global and shared memory, cp.async.bulk.prefetch.tensor, and tensormap.replace +
// tensormap.cp_fenceproxy editing a map in shared memory before using it.  Inline PTX (ISA
// §9.7.8.24.7-11, §9.7.8.25, §9.7.12.15.18); the tensor map is a kernel parameter
// (__grid_constant__, its generic address) or a global buffer.  tests/test_exec_tma.c launches
// them through the C API with maps from ptxeTensorMapEncodeTiled/Im2col.
// Note: the waiting threads pass a __syncthreads() after the issuing thread's block, so that no
// lane spins on the mbarrier before the copy is issued (not needed on a GPU; the executor once
// starved the issuing lane behind its warp's spinning lanes: tests/test_exec_tma.c's
// tma_spin_progress checks that pattern without the barrier).
#include <cstdint>

struct alignas(64) TMap { unsigned char b[128]; };

__device__ static inline uint32_t sa(const void *p) { return (uint32_t)__cvta_generic_to_shared(p); }

__device__ static inline void mbar_init(uint64_t *m, unsigned n)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(sa(m)), "r"(n) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}

__device__ static inline void mbar_expect(uint64_t *m, unsigned bytes)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(sa(m)), "r"(bytes)
                 : "memory");
}

__device__ static inline void mbar_wait(uint64_t *m, unsigned parity)
{
    uint32_t done;
    do {
        asm volatile("{\n\t.reg .pred p;\n\t"
                     "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\t"
                     "selp.u32 %0, 1, 0, p;\n\t}"
                     : "=r"(done)
                     : "r"(sa(m)), "r"(parity)
                     : "memory");
    } while (!done);
}

// one tile load of rank 1..5 at coordinates c[] into shared memory at dst
__device__ static inline void tile_load(int rank, uint32_t dst, const void *tm, const int *c, uint32_t bar)
{
    switch (rank) {
    case 1:
        asm volatile("cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                     " [%0], [%1, {%2}], [%3];" ::"r"(dst), "l"(tm), "r"(c[0]), "r"(bar) : "memory");
        break;
    case 2:
        asm volatile("cp.async.bulk.prefetch.tensor.2d.L2.global.tile [%0, {%1, %2}];"
                     ::"l"(tm), "r"(c[0]), "r"(c[1]) : "memory");
        asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                     " [%0], [%1, {%2, %3}], [%4];" ::"r"(dst), "l"(tm), "r"(c[0]), "r"(c[1]), "r"(bar)
                     : "memory");
        break;
    case 3:
        asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                     " [%0], [%1, {%2, %3, %4}], [%5];" ::"r"(dst), "l"(tm), "r"(c[0]), "r"(c[1]),
                     "r"(c[2]), "r"(bar) : "memory");
        break;
    case 4:
        asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                     " [%0], [%1, {%2, %3, %4, %5}], [%6];" ::"r"(dst), "l"(tm), "r"(c[0]), "r"(c[1]),
                     "r"(c[2]), "r"(c[3]), "r"(bar) : "memory");
        break;
    default:
        asm volatile("cp.async.bulk.tensor.5d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                     " [%0], [%1, {%2, %3, %4, %5, %6}], [%7];" ::"r"(dst), "l"(tm), "r"(c[0]),
                     "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(c[4]), "r"(bar) : "memory");
        break;
    }
}

__shared__ alignas(1024) uint32_t tbuf[4096];   // 16 KiB, 1024-aligned (128B swizzle atoms)
__shared__ uint64_t tbar;

// Thread 0 loads the box at (c0..c4) of rank `rank` into shared memory (`bytes` = the box's
// size, the mbarrier's expected transaction count); every thread then copies the raw shared
// bytes (swizzled as the map says, OOB elements filled) to out.
extern "C" __global__ void tma_load(const __grid_constant__ TMap tm, uint32_t *out, int rank,
                                   int c0, int c1, int c2, int c3, int c4, unsigned bytes)
{
    int c[5] = { c0, c1, c2, c3, c4 };
    if (threadIdx.x == 0) mbar_init(&tbar, 1);
    __syncthreads();
    if (threadIdx.x == 0) {
        mbar_expect(&tbar, bytes);
        tile_load(rank, sa(tbuf), &tm, c, sa(&tbar));
    }
    __syncthreads();   // the issuing thread first (see the note at the top)
    mbar_wait(&tbar, 0);
    for (unsigned i = threadIdx.x; i < bytes / 4; i += blockDim.x) out[i] = tbuf[i];
}

// im2col load (3D NWC or 4D NHWC): coordinates {c, w, (h,) n}, offsets {ow (, oh)}.
extern "C" __global__ void tma_im2col(const __grid_constant__ TMap tm, uint32_t *out, int rank,
                                     int cc, int cw, int ch, int cn, unsigned short ow,
                                     unsigned short oh, unsigned bytes)
{
    if (threadIdx.x == 0) mbar_init(&tbar, 1);
    __syncthreads();
    if (threadIdx.x == 0) {
        mbar_expect(&tbar, bytes);
        if (rank == 3)
            asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes"
                         " [%0], [%1, {%2, %3, %4}], [%5], {%6};" ::"r"(sa(tbuf)), "l"(&tm), "r"(cc),
                         "r"(cw), "r"(cn), "r"(sa(&tbar)), "h"(ow) : "memory");
        else
            asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes"
                         " [%0], [%1, {%2, %3, %4, %5}], [%6], {%7, %8};" ::"r"(sa(tbuf)), "l"(&tm),
                         "r"(cc), "r"(cw), "r"(ch), "r"(cn), "r"(sa(&tbar)), "h"(ow), "h"(oh)
                         : "memory");
    }
    __syncthreads();   // the issuing thread first (see the note at the top)
    mbar_wait(&tbar, 0);
    for (unsigned i = threadIdx.x; i < bytes / 4; i += blockDim.x) out[i] = tbuf[i];
}

// Shared memory from `in`, then thread 0 stores it to the 2D box at (x, y) (op 0) or reduces
// it into the box with .add (op 1), .min (2), .max (3), .and (4), .or (5), .xor (6), .inc (7),
// .dec (8): a bulk async-group, committed and waited for.
extern "C" __global__ void tma_store2d(const __grid_constant__ TMap tm, const uint32_t *in, int x,
                                      int y, unsigned bytes, int op)
{
    for (unsigned i = threadIdx.x; i < bytes / 4; i += blockDim.x) tbuf[i] = in[i];
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    if (threadIdx.x != 0) return;
    uint32_t s = sa(tbuf);
    const void *t = &tm;
#define RED(o) asm volatile("cp.reduce.async.bulk.tensor.2d.global.shared::cta." o ".tile.bulk_group" \
                            " [%0, {%1, %2}], [%3];" ::"l"(t), "r"(x), "r"(y), "r"(s) : "memory")
    switch (op) {
    case 0:
        asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%1, %2}], [%3];"
                     ::"l"(t), "r"(x), "r"(y), "r"(s) : "memory");
        break;
    case 1: RED("add"); break;
    case 2: RED("min"); break;
    case 3: RED("max"); break;
    case 4: RED("and"); break;
    case 5: RED("or"); break;
    case 6: RED("xor"); break;
    case 7: RED("inc"); break;
    default: RED("dec"); break;
    }
#undef RED
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
}

// A cluster of 2: every CTA expects `bytes` on its own mbarrier; CTA rank 0 loads the 2D box
// once with .multicast::cluster ctaMask 0b11 into both CTAs' shared memory (same offsets);
// each CTA writes its copy to out + rank * bytes.
extern "C" __global__ void __cluster_dims__(2, 1, 1)
    tma_multicast(const __grid_constant__ TMap tm, uint32_t *out, int x, int y, unsigned bytes)
{
    uint32_t rank;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
    if (threadIdx.x == 0) {
        mbar_init(&tbar, 1);
        mbar_expect(&tbar, bytes);
    }
    asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
    if (rank == 0 && threadIdx.x == 0) {
        unsigned short mask = 3;
        asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                     ".multicast::cluster [%0], [%1, {%2, %3}], [%4], %5;" ::"r"(sa(tbuf)), "l"(&tm),
                     "r"(x), "r"(y), "r"(sa(&tbar)), "h"(mask) : "memory");
    }
    __syncthreads();   // the issuing thread first (see the note at the top)
    mbar_wait(&tbar, 0);
    for (unsigned i = threadIdx.x; i < bytes / 4; i += blockDim.x) out[rank * (bytes / 4) + i] = tbuf[i];
    asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
}

// cp.reduce.async.bulk (non-tensor, §9.7.8.24.7) into global memory g[0..bytes) with the
// operation `op` on 32-bit elements (0 add.u32, 1 min.u32, 2 max.s32, 3 inc.u32, 4 dec.u32,
// 5 and.b32, 6 or.b32, 7 xor.b32, 8 add.f32, 9 min.s32) or 64-bit (10 add.u64, 11 max.s64,
// 12 xor.b64, 13 add.f64), or f16 (14 add.noftz.f16, 15 max.bf16).
extern "C" __global__ void bulk_reduce(void *g, const uint32_t *in, unsigned bytes, int op)
{
    for (unsigned i = threadIdx.x; i < bytes / 4; i += blockDim.x) tbuf[i] = in[i];
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    if (threadIdx.x != 0) return;
    uint32_t s = sa(tbuf);
#define BR(q) asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group." q " [%0], [%1], %2;" \
                           ::"l"(g), "r"(s), "r"(bytes) : "memory")
    switch (op) {
    case 0: BR("add.u32"); break;
    case 1: BR("min.u32"); break;
    case 2: BR("max.s32"); break;
    case 3: BR("inc.u32"); break;
    case 4: BR("dec.u32"); break;
    case 5: BR("and.b32"); break;
    case 6: BR("or.b32"); break;
    case 7: BR("xor.b32"); break;
    case 8: BR("add.f32"); break;
    case 9: BR("min.s32"); break;
    case 10: BR("add.u64"); break;
    case 11: BR("max.s64"); break;
    case 12: BR("xor.b64"); break;
    case 13: BR("add.f64"); break;
    case 14: BR("add.noftz.f16"); break;
    default: BR("max.bf16"); break;
    }
#undef BR
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
}

// cp.reduce.async.bulk into shared::cluster memory (the CTA's own) with mbarrier completion:
// tbuf[0..n) = a, tbuf[1024..) = b; tbuf[0..n) add= b (u32); out = the result.
extern "C" __global__ void bulk_reduce_smem(uint32_t *out, const uint32_t *a, const uint32_t *b, unsigned bytes)
{
    if (threadIdx.x == 0) mbar_init(&tbar, 1);
    for (unsigned i = threadIdx.x; i < bytes / 4; i += blockDim.x) {
        tbuf[i] = a[i];
        tbuf[1024 + i] = b[i];
    }
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    if (threadIdx.x == 0) {
        mbar_expect(&tbar, bytes);
        asm volatile("cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.add.u32"
                     " [%0], [%1], %2, [%3];" ::"r"(sa(tbuf)), "r"(sa(tbuf + 1024)), "r"(bytes),
                     "r"(sa(&tbar)) : "memory");
    }
    __syncthreads();   // the issuing thread first (see the note at the top)
    mbar_wait(&tbar, 0);
    for (unsigned i = threadIdx.x; i < bytes / 4; i += blockDim.x) out[i] = tbuf[i];
}

// The map `tm` is copied to shared memory; thread 0 replaces its global address with `base`
// and its dimension-0 size with `dim0` (tensormap.replace, §9.7.8.25); warp 0 copies it to the
// global map `gm` with tensormap.cp_fenceproxy (§9.7.12.15.18); then a 2D load through gm.
extern "C" __global__ void tmap_replace(const __grid_constant__ TMap tm, TMap *gm, const void *base,
                                       unsigned dim0, uint32_t *out, int x, int y, unsigned bytes)
{
    __shared__ alignas(128) TMap sm;
    if (threadIdx.x < 32) {
        for (int i = threadIdx.x; i < 128; i += 32) sm.b[i] = tm.b[i];
        __syncwarp();
        if (threadIdx.x == 0) {
            asm volatile("tensormap.replace.tile.global_address.shared::cta.b1024.b64 [%0], %1;"
                         ::"r"(sa(&sm)), "l"(base) : "memory");
            asm volatile("tensormap.replace.tile.global_dim.shared::cta.b1024.b32 [%0], 0, %1;"
                         ::"r"(sa(&sm)), "r"(dim0) : "memory");
        }
        __syncwarp();
        asm volatile("tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu"
                     ".sync.aligned [%0], [%1], 128;" ::"l"(gm), "r"(sa(&sm)) : "memory");
        asm volatile("fence.proxy.tensormap::generic.acquire.gpu [%0], 128;" ::"l"(gm) : "memory");
    }
    if (threadIdx.x == 0) mbar_init(&tbar, 1);
    __syncthreads();
    if (threadIdx.x == 0) {
        int c[2] = { x, y };
        mbar_expect(&tbar, bytes);
        tile_load(2, sa(tbuf), gm, c, sa(&tbar));
    }
    __syncthreads();   // the issuing thread first (see the note at the top)
    mbar_wait(&tbar, 0);
    for (unsigned i = threadIdx.x; i < bytes / 4; i += blockDim.x) out[i] = tbuf[i];
}
