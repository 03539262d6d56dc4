/* exec/mem.c — device global memory of a context: allocations at increasing device addresses
 * from GLOBAL_BASE (never reused, so a stale pointer faults instead of aliasing), found by
 * binary search. */
#include <stdlib.h>
#include <string.h>
#include "exec/exec_int.h"

galloc *mem_find(ptxeCtx *c, uint64_t addr, size_t n)
{
    int lo = 0, hi = c->nallocs - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        galloc *g = &c->allocs[mid];
        if (addr < g->addr) hi = mid - 1;
        else if (addr >= g->addr + (g->size ? g->size : 1)) lo = mid + 1;
        else return (g->host && addr + n <= g->addr + g->size && addr + n >= addr) ? g : NULL;
    }
    return NULL;
}

int mem_alloc(ptxeCtx *c, size_t n, uint64_t *addr)
{
    if (n > ((size_t)1 << 36)) return -1;
    if (c->nallocs == c->cap) {
        int nc = c->cap ? c->cap * 2 : 64;
        galloc *na = realloc(c->allocs, (size_t)nc * sizeof *na);
        if (!na) return -1;
        c->allocs = na; c->cap = nc;
    }
    uint8_t *h = calloc(1, n ? n : 1);
    if (!h) return -1;
    if (!c->next_addr) c->next_addr = GLOBAL_BASE;
    *addr = c->next_addr;
    c->allocs[c->nallocs++] = (galloc){ c->next_addr, n, h };
    /* 256-byte aligned like cudaMalloc, with a guard gap so overruns do not hit the next block */
    c->next_addr += (n + 256 + 255) & ~(uint64_t)255;
    return 0;
}
