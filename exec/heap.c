/* exec/heap.c — the device heap of device-side malloc and free (exec/heap.h): a per-launch table
 * of blocks, each a device allocation of its own (mem_alloc, named "device heap block"), the
 * cudaLimitMallocHeapSize budget, the free errors and the leaks.  The budget counts each live
 * block's size rounded up to 16 bytes (the alignment CUDA guarantees; our blocks are 256-byte
 * aligned); a GPU's allocator has overheads of its own, so a heap that is nearly full may
 * refuse a block a little earlier there. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "exec/heap.h"

typedef struct {
    uint64_t addr, size;
    san_who by, freed_by;   /* the malloc and the free (pc -1: not freed) */
} hblock;

struct xheap {
    hblock *b; int n, cap;
    uint64_t used;          /* bytes of live blocks, each rounded up to 16 */
};

#define HEAP_NAME "device heap block"

ptxeResult ptxeCtxSetMallocHeapSize(ptxeCtx *ctx, size_t bytes)
{
    if (!ctx) return PTXE_ERROR_INVALID_VALUE;
    ctx->heap_limit = bytes;
    ctx->heap_limit_set = 1;
    return PTXE_SUCCESS;
}

size_t ptxeCtxGetMallocHeapSize(const ptxeCtx *ctx)
{
    return !ctx ? 0 : ctx->heap_limit_set ? ctx->heap_limit : PTXE_DEFAULT_MALLOC_HEAP_SIZE;
}

void heap_launch_begin(ptxeCtx *ctx)
{
    if (ctx->heap) ctx->heap->n = 0, ctx->heap->used = 0;
}

uint64_t heap_malloc(ptxeCtx *ctx, const san_who *t, uint64_t n)
{
    if (!n) return 0;
    if (!ctx->heap && !(ctx->heap = calloc(1, sizeof *ctx->heap))) return 0;
    struct xheap *h = ctx->heap;
    uint64_t r = (n + 15) & ~15ull;
    if (r < n || r > ptxeCtxGetMallocHeapSize(ctx) - h->used ||
        h->used > ptxeCtxGetMallocHeapSize(ctx))
        return 0;
    if (h->n == h->cap) {
        int nc = h->cap ? h->cap * 2 : 64;
        hblock *nb = realloc(h->b, (size_t)nc * sizeof *nb);
        if (!nb) return 0;
        h->b = nb; h->cap = nc;
    }
    uint64_t a;
    if (mem_alloc(ctx, (size_t)n, &a)) return 0;
    galloc *g = mem_find(ctx, a, 0);
    g->name = strdup(HEAP_NAME);   /* (NULL: reports show no name) */
    if (ctx->checks & PTXE_CHECK_INITCHECK)   /* malloc'd bytes are unwritten (NULL: written) */
        g->ibits = calloc((size_t)n / 8 + 1, 1);
    hblock *b = &h->b[h->n++];
    b->addr = a; b->size = n; b->by = *t;
    memset(&b->freed_by, 0, sizeof b->freed_by);
    b->freed_by.pc = -1;
    h->used += r;
    return a;
}

/* "thread (1,0,0) in block (0,0,0) at k.ptx:40 (call.uni (retval0), malloc, (param0))", then
 * " in k.cu:12" when the module has line information */
static void site(const ptxeModule *m, const san_who *t, char *o, size_t len)
{
    const xinsn *in = t->pc >= 0 && t->pc < m->nprog ? &m->prog[t->pc] : NULL;
    const ptx_module *a = m->ast;
    int k = snprintf(o, len, "thread (%u,%u,%u) in block (%u,%u,%u) at %s:%d (%s)", t->t[0],
                     t->t[1], t->t[2], t->c[0], t->c[1], t->c[2], a->filename, in ? in->line : 0,
                     in ? in->text : "?");
    if (in && in->src_line && in->src_file > 0 && in->src_file < a->nfiles &&
        a->files[in->src_file] && k > 0 && (size_t)k < len)
        snprintf(o + k, len - (size_t)k, " in %s:%d", a->files[in->src_file], in->src_line);
}

/* the block of this launch that starts at p (the latest, should an address repeat), or NULL */
static hblock *block_at(struct xheap *h, uint64_t p)
{
    for (int i = h ? h->n - 1 : -1; i >= 0; i--)
        if (h->b[i].addr == p) return &h->b[i];
    return NULL;
}

int heap_free(ptxeCtx *ctx, ptxeModule *m, const san_who *t, uint64_t p, char *why, size_t len)
{
    if (!p) return 0;   /* free(NULL) */
    hblock *b = block_at(ctx->heap, p);
    char s1[400], s2[400];
    if (b && b->freed_by.pc >= 0) {
        site(m, &b->by, s1, sizeof s1);
        site(m, &b->freed_by, s2, sizeof s2);
        snprintf(why, len,
                 "double free of the device heap block at 0x%llx of size %llu bytes\n"
                 "  allocated by %s\n  first freed by %s",
                 (unsigned long long)p, (unsigned long long)b->size, s1, s2);
        return -1;
    }
    if (!b) {
        char d[300];
        const galloc *g = mem_find(ctx, p, 1);
        if (g)   /* inside a live allocation (a heap block or another) */
            snprintf(d, sizeof d, "and is %llu bytes inside the allocation%s%s%s at 0x%llx of "
                     "size %zu bytes", (unsigned long long)(p - g->addr), g->name ? " '" : "",
                     g->name ? g->name : "", g->name ? "'" : "", (unsigned long long)g->addr,
                     g->size);
        else san_describe_global(ctx, m, p, 1, d, sizeof d);
        snprintf(why, len,
                 "invalid free of address 0x%llx, which device-side malloc did not return%s%s",
                 (unsigned long long)p, *d ? "\n  " : "", d);
        return -1;
    }
    b->freed_by = *t;
    ctx->heap->used -= (b->size + 15) & ~15ull;
    mem_release(ctx, p);   /* the range stays reserved: a later access is in freed memory */
    return 0;
}

void heap_launch_end(ptxeCtx *ctx, san *S, int completed)
{
    struct xheap *h = ctx->heap;
    if (!h) return;
    for (int i = 0; i < h->n; i++) {
        hblock *b = &h->b[i];
        if (b->freed_by.pc >= 0) continue;
        if (completed && S) san_leak(S, &b->by, b->addr, b->size);
        mem_release(ctx, b->addr);
    }
    h->n = 0;
    h->used = 0;
}

void heap_ctx_free(ptxeCtx *ctx)
{
    if (ctx->heap) free(ctx->heap->b);
    free(ctx->heap);
    ctx->heap = NULL;
}
