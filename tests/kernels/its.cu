// Kernels that need independent thread scheduling (sm_70+) or CTAs resident together: each
// finishes on a Volta or later GPU and livelocks under lockstep (one group of a warp at a time)
// or with one CTA at a time.  Run by tests/test_exec_its.c against C references.
#include <cooperative_groups.h>

// lane 0 of each warp waits for a value that lane 31 of the same warp publishes afterwards
extern "C" __global__ void flag_spin(const int *in, int *out, int *data, int *flags) {
    int t = blockIdx.x * blockDim.x + threadIdx.x, w = t / 32, lane = threadIdx.x % 32;
    if (lane == 0) {
        while (((volatile int *)flags)[w] == 0) {}
        __threadfence();
        out[t] = in[t] + ((volatile int *)data)[w];
    } else {
        out[t] = 2 * in[t];
    }
    if (lane == 31) {
        data[w] = in[t] * 3 + 1;
        __threadfence();
        ((volatile int *)flags)[w] = 1;
    }
}

// an atomicCAS spin lock taken by every thread, several lanes of one warp contending: each
// thread appends its index to `order` in the critical section
extern "C" __global__ void cas_lock(int *lock, int *count, int *order) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    while (atomicCAS(lock, 0, 1) != 0) {}
    __threadfence();
    int c = *(volatile int *)count;
    order[c] = t;
    *(volatile int *)count = c + 1;
    __threadfence();
    atomicExch(lock, 0);
}

// lanes 0..15 of each warp wait with __nanosleep for lane 31 of their warp, which counts first
extern "C" __global__ void nanosleep_wait(const int *in, int *out, int *flags) {
    int t = blockIdx.x * blockDim.x + threadIdx.x, w = t / 32, lane = threadIdx.x % 32;
    if (lane < 16) {
        while (atomicAdd(&flags[w], 0) == 0) __nanosleep(100);
        out[t] = in[t] + atomicAdd(&flags[w], 0);
    } else if (lane == 31) {
        int s = 0;
        for (int k = 0; k < 32; k++) s += in[w * 32 + k];
        atomicExch(&flags[w], s);
        out[t] = s;
    } else {
        out[t] = in[t];
    }
}

// CTA b waits until CTA b + 1 (a later CTA) has published its value, then publishes its own:
// value[b] = value[b + 1] * 3 + in[b]; the last CTA starts the chain
extern "C" __global__ void later_cta(const int *in, int *value, int *ready) {
    int b = blockIdx.x, n = gridDim.x;
    if (threadIdx.x == 0) {
        int v = in[b];
        if (b + 1 < n) {
            while (((volatile int *)ready)[b + 1] == 0) {}
            __threadfence();
            v += ((volatile int *)value)[b + 1] * 3;
        }
        ((volatile int *)value)[b] = v;
        __threadfence();
        ((volatile int *)ready)[b] = 1;
    }
}

// Decoupled look-back inclusive scan (Merrill and Garland): tiles of 128 ints taken in order
// by a counter, each publishes its aggregate (status 1) and then its inclusive prefix (status 2)
// in a 64-bit word (value << 2 | status); a tile's thread 0 looks back over its predecessors.
#define LB_TILE 128
extern "C" __global__ void lookback_scan(const int *in, int *out, unsigned long long *status,
                                         int *tile_counter) {
    __shared__ int s[LB_TILE];
    __shared__ int tile_sh;
    __shared__ long long excl_sh;
    int t = threadIdx.x;
    if (t == 0) tile_sh = atomicAdd(tile_counter, 1);
    __syncthreads();
    int tile = tile_sh;
    s[t] = in[tile * LB_TILE + t];
    __syncthreads();
    for (int d = 1; d < LB_TILE; d *= 2) {   // Hillis-Steele inclusive scan of the tile
        int v = t >= d ? s[t - d] : 0;
        __syncthreads();
        s[t] += v;
        __syncthreads();
    }
    if (t == 0) {
        long long agg = s[LB_TILE - 1], excl = 0;
        volatile unsigned long long *st = status;
        if (tile == 0) {
            st[0] = ((unsigned long long)agg << 2) | 2;
        } else {
            st[tile] = ((unsigned long long)agg << 2) | 1;
            __threadfence();
            for (int p = tile - 1;;) {
                unsigned long long w = st[p];
                if ((w & 3) == 0) continue;      // the predecessor has not published yet
                excl += (long long)(w >> 2);
                if ((w & 3) == 2) break;         // an inclusive prefix: done
                p--;
            }
            __threadfence();
            st[tile] = ((unsigned long long)(excl + agg) << 2) | 2;
        }
        excl_sh = excl;
    }
    __syncthreads();
    out[tile * LB_TILE + t] = s[t] + (int)excl_sh;
}

// A cooperative kernel: each CTA sums its slice into partial[], grid.sync(), every thread adds
// the total of all partials to its element, grid.sync() again, CTA 0 writes the grand total.
namespace cg = cooperative_groups;
extern "C" __global__ void grid_sync_sum(const int *in, int *partial, int *out, int *total) {
    cg::grid_group g = cg::this_grid();
    __shared__ int s[256];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    s[t] = in[i];
    __syncthreads();
    for (int d = blockDim.x / 2; d > 0; d /= 2) {
        if (t < d) s[t] += s[t + d];
        __syncthreads();
    }
    if (t == 0) partial[blockIdx.x] = s[0];
    g.sync();
    int sum = 0;
    for (int b = 0; b < (int)gridDim.x; b++) sum += partial[b];
    out[i] = in[i] + sum;
    g.sync();
    if (i == 0) {
        int all = 0;
        for (int k = 0; k < (int)(gridDim.x * blockDim.x); k++) all += out[k];
        *total = all;
    }
}
