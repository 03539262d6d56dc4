// Ticket lock (GPUMC's family): draw a ticket with a relaxed fetch_add, wait until it is
// served (acquire), increment a plain counter, serve the next ticket (release).
// variants: fixed relaxed block
#include "scope.h"
__global__ void ticketlock(unsigned *next, unsigned *serving, int *counter)
{
    aref<unsigned> N(*next), S(*serving);
    unsigned t = N.fetch_add(1, RLX);
    while (S.load(ACQ) != t) { }
    *counter = *counter + 1;
    S.store(t + 1, REL);
}
