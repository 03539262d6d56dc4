// Xiao and Feng's inter-block barrier (GPUMC's XF barrier): each CTA raises its arrival flag
// (thread 0, after __syncthreads), CTA 0 waits for every arrival and raises every departure
// flag, each CTA's thread 0 waits for its departure flag, then __syncthreads.  Around it each
// thread writes its slot before the barrier and reads the next CTA's slot after it: a stale
// slot traps.  flags in/out must be 0, data 0.
// variants: fixed relaxed block
#include "scope.h"
__global__ void xfbarrier(int *in, int *out, int *data)
{
    int bid = blockIdx.x, tid = threadIdx.x, nb = gridDim.x, nt = blockDim.x;
    data[bid * nt + tid] = bid + 1;
    __syncthreads();
    if (tid == 0) aref<int>(in[bid]).store(1, REL);
    if (bid == 0) {
        for (int b = tid; b < nb; b += nt)
            while (aref<int>(in[b]).load(ACQ) != 1) { }
        __syncthreads();
        for (int b = tid; b < nb; b += nt) aref<int>(out[b]).store(1, REL);
    }
    if (tid == 0)
        while (aref<int>(out[bid]).load(ACQ) != 1) { }
    __syncthreads();
    int next = (bid + 1) % nb;
    if (data[next * nt + tid] != next + 1) __trap();
}
