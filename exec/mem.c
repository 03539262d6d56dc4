/* exec/mem.c — device global memory of a context: allocations at increasing device addresses
 * from GLOBAL_BASE, or from GLOBAL_BASE32 once an .address_size 32 module is loaded (never reused,
 * so a stale pointer faults instead of aliasing), found by binary search; host copies into it
 * (initcheck's written bits) and the device address of a module variable.  The public API
 * (exec/api.c) and the files that create device objects (remote.c, tex.c) allocate here. */
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
    uint64_t limit = c->mem_limit ? c->mem_limit : PTXE_DEFAULT_MEMORY_LIMIT;
    if (n > limit || c->mem_used > limit - n) return -1;   /* the device-memory limit */
    if (c->nallocs == c->cap) {
        int nc = c->cap ? c->cap * 2 : 64;
        galloc *na = realloc(c->allocs, (size_t)nc * sizeof *na);
        if (!na) return -1;
        c->allocs = na; c->cap = nc;
    }
    /* 256-byte aligned like cudaMalloc, with a guard gap so overruns do not hit the next block */
    uint64_t step = (n + 256 + 255) & ~(uint64_t)255;
    uint64_t *cursor = c->addr32 ? &c->next_addr32 : &c->next_addr;
    if (!*cursor) *cursor = c->addr32 ? GLOBAL_BASE32 : GLOBAL_BASE;
    if (c->addr32 && *cursor + step > 0x100000000ull) return -1; /* .address_size 32: below 4 GiB */
    uint8_t *h = calloc(1, n ? n : 1);
    if (!h) return -1;
    c->mem_used += n;
    *addr = *cursor;
    /* keep allocs sorted by address (the two regions interleave in the array otherwise) */
    int pos = c->nallocs;
    while (pos > 0 && c->allocs[pos - 1].addr > *addr) pos--;
    memmove(&c->allocs[pos + 1], &c->allocs[pos], (size_t)(c->nallocs - pos) * sizeof *c->allocs);
    c->allocs[pos] = (galloc){ *addr, n, h, NULL, NULL, NULL };
    c->nallocs++;
    *cursor += step;
    return 0;
}

int mem_release(ptxeCtx *c, uint64_t addr)
{
    galloc *g = mem_find(c, addr, 0);
    if (!g || g->addr != addr) return -1;
    free(g->host); g->host = NULL;   /* the address range stays reserved: later accesses fault */
    c->mem_used -= g->size <= c->mem_used ? g->size : c->mem_used;
    return 0;
}

int mem_alloc_user(ptxeCtx *c, size_t n, uint64_t *addr)
{
    if (mem_alloc(c, n, addr)) return -1;
    if (c->checks & PTXE_CHECK_INITCHECK) {   /* never written yet, as cudaMalloc'd memory */
        galloc *g = mem_find(c, *addr, 0);
        if (g) g->ibits = calloc((n + 7) / 8 + 1, 1);   /* (NULL: counts as written) */
    }
    return 0;
}

uint8_t *mem_host(ptxeCtx *c, uint64_t p, size_t n)
{
    if (p >= WIN_CONST && p < WIN_CONST + WIN_SIZE) {
        uint64_t off = p - WIN_CONST;
        return off + n <= c->csize ? c->cmem + off : NULL;
    }
    galloc *g = mem_find(c, p, n);
    return g ? g->host + (p - g->addr) : NULL;
}

void mem_mark_written(ptxeCtx *c, uint64_t p, size_t n)
{
    galloc *g = n ? mem_find(c, p, n) : NULL;
    if (!g || !g->ibits) return;
    for (size_t k = p - g->addr, e = k + n; k < e; k++)
        g->ibits[k >> 3] |= (uint8_t)(1u << (k & 7));
}

int mem_write(ptxeCtx *c, uint64_t dst, const void *src, size_t n)
{
    uint8_t *h = mem_host(c, dst, n);
    if (!h) return -1;
    if (n) memcpy(h, src, n);
    mem_mark_written(c, dst, n);
    return 0;
}

int mem_symbol(const ptxeModule *m, const char *name, uint64_t *addr, size_t *size)
{
    for (int i = 0; i < m->nsyms; i++)
        if (!strcmp(m->syms[i].name, name) &&
            (m->syms[i].space == SP_GLOBAL || m->syms[i].space == SP_CONST)) {
            if (addr)
                *addr =
                    m->syms[i].space == SP_CONST ? WIN_CONST + m->syms[i].addr : m->syms[i].addr;
            if (size) *size = m->syms[i].size;
            return 0;
        }
    return -1;
}
