// ScoRD's scoped message passing (Kamath et al., ISCA 2020, microbenchmarks): thread t of CTA
// b writes its payload and raises its flag (release); thread t of CTA b+1 (mod the grid) waits
// for that flag (acquire) and reads the payload: a stale payload traps.
// variants: fixed relaxed block
#include "scope.h"
__global__ void scord_mp(int *flag, int *data)
{
    int nb = gridDim.x, nt = blockDim.x, tid = threadIdx.x, bid = blockIdx.x;
    int mine = bid * nt + tid, from = ((bid + nb - 1) % nb) * nt + tid;
    data[mine] = mine + 1;
    aref<int>(flag[mine]).store(1, REL);
    while (aref<int>(flag[from]).load(ACQ) != 1) { }
    if (data[from] != from + 1) __trap();
}
