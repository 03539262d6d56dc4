// Test-and-test-and-set spin lock (GPUMC's family): spin on a relaxed load until the lock
// looks free, then try the compare-and-swap; a plain counter in the critical section.
// variants: fixed relaxed block
#include "scope.h"
__global__ void ttaslock(int *lock, int *counter)
{
    aref<int> L(*lock);
    for (;;) {
        while (L.load(RLX) != 0) { }
        int e = 0;
        if (L.compare_exchange_strong(e, 1, ACQ, RLX)) break;
    }
    *counter = *counter + 1;
    L.store(0, REL);
}
