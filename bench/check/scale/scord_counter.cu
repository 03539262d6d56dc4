// ScoRD's scoped atomic counter: every thread adds 1 to one counter with fetch_add; with block
// scope (-DBUGGY_BLOCK, atomicAdd_block) the adds of different CTAs are not morally strong: they
// race and may lose an increment.  expect: counter = the number of threads.
// variants: fixed block
#include "scope.h"
__global__ void scord_counter(int *counter)
{
    aref<int>(*counter).fetch_add(1, RLX);
}
