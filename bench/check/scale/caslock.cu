// CAS spin lock (GPUMC's family): every thread of every CTA takes the lock with a
// compare-and-swap, increments a plain counter, and releases the lock with a store.
// expect: counter = the number of threads.
// variants: fixed relaxed block
#include "scope.h"
__global__ void caslock(int *lock, int *counter)
{
    aref<int> L(*lock);
    int e = 0;
    while (!L.compare_exchange_strong(e, 1, ACQ, RLX)) e = 0;
    *counter = *counter + 1;
    L.store(0, REL);
}
