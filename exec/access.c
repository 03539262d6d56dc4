/* exec/access.c — a thread's memory access resolved to a host pointer: state spaces, generic
 * addresses (§6.4.1.5), shared::cluster addresses (§5.1.5), bounds and alignment, with the
 * fault report of a bad access and the checks' view of a good one. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "exec/engine.h"
#include "exec/sanitize.h"

/* ---------------------------------------------------------------- memory */
static const char *space_name(int s)
{
    static const char *const n[] = { "?",     "global", "shared",  "local",
                                     "const", "param",  "generic", "shared::cluster" };
    return n[s];
}

/* An access being resolved, for its fault messages: lane l of w at pc, n bytes at address oa
 * in space orig, `what` ("load", "atom", ...). */
typedef struct { ex *X; warp *w; int l, pc, orig; uint64_t oa; unsigned n; const char *what; } acc;

/* §6.4.1.5: a generic address maps into the window of a state space; -1 after a fault. */
static int generic_window(const acc *c, int *sp, uint64_t *a)
{
    static const struct { uint64_t base, size; int sp; } win[] = {
        { WIN_SHARED, WIN_SHARED_SIZE, SP_SHCLUSTER }, { WIN_LOCAL, WIN_SIZE, SP_LOCAL },
        { WIN_CONST, WIN_SIZE, SP_CONST },             { WIN_PARAM, WIN_SIZE, SP_PARAM },
    };
    for (size_t i = 0; i < sizeof win / sizeof win[0]; i++)
        if (*a >= win[i].base && *a < win[i].base + win[i].size) {
            *sp = win[i].sp;
            *a -= win[i].base;
            return 0;
        }
    if (*a >= GLOBAL_BASE32) { *sp = SP_GLOBAL; return 0; }
    fault(c->X, c->w, c->l, c->pc, PTXE_ERROR_LAUNCH_FAILED,
          "generic %s of %u bytes at address 0x%llx, which is in no state space", c->what, c->n,
          (unsigned long long)c->oa);
    return -1;
}

/* Shared memory: of the executing CTA, or (a shared::cluster address, §5.1.5) of CTA rank
 * (a >> SHCL_SHIFT) - 1 of the cluster.  NULL out of bounds; *faulted after a fault. */
static uint8_t *shared_ptr(const acc *c, int sp, uint64_t a, int *faulted)
{
    ex *X = c->X;
    warp *w = c->w;
    cta *t = w->cta;
    uint64_t r = a >> SHCL_SHIFT;
    unsigned long long oa = (unsigned long long)c->oa, rank = (unsigned long long)(r - 1);
    if (!r) return a + c->n <= t->ssize ? t->smem + a : NULL;
    *faulted = 1;
    if (r - 1 >= t->clu->ncta) {
        fault(X, w, c->l, c->pc, PTXE_ERROR_LAUNCH_FAILED,
              "%s shared::cluster %s of %u bytes at address 0x%llx names CTA rank %llu, the "
              "cluster has %u CTAs",
              space_name(c->orig), c->what, c->n, oa, rank, t->clu->ncta);
        return NULL;
    }
    t = t->clu->ctas[r - 1];
    if (t != w->cta && sp == SP_SHARED) {
        fault(X, w, c->l, c->pc, PTXE_ERROR_LAUNCH_FAILED,
              "shared::cta %s of %u bytes at address 0x%llx is in the shared memory of CTA rank "
              "%llu, not the executing "
              "CTA (rank %u)",
              c->what, c->n, oa, rank, w->cta->rank);
        return NULL;
    }
    if (t != w->cta && t->nexited == t->nthreads) {
        fault(X, w, c->l, c->pc, PTXE_ERROR_LAUNCH_FAILED,
              "%s %s of %u bytes at address 0x%llx in the shared memory of CTA rank %llu, which "
              "has exited",
              space_name(c->orig), c->what, c->n, oa, rank);
        return NULL;
    }
    *faulted = 0;
    a = SHCL_OFF(a);
    return a + c->n <= t->ssize ? t->smem + a : NULL;
}

/* checks: an access that succeeded, by the kind of access its `what` names */
static void san_access(ex *X, warp *w, int l, int pc, int sp, const uint8_t *p, uint64_t a,
                       unsigned n, const char *what)
{
    if (what[0] == 'm') return;   /* mbarrier objects: synchronization, not data */
    int acc = what[0] == 'a' ? SA_READ | SA_WRITE
              : what[0] == 'r' || strstr(what, "store") ? SA_WRITE : SA_READ;
    san_who t = who(X, w, l, pc);
    if (sp == SP_GLOBAL) { san_global(X->san, &t, X->gcache, a, n, acc); return; }
    const cluster *cl = w->cta->clu;
    for (uint32_t i = 0; i < cl->ncta; i++) {
        const cta *o = cl->ctas[i];
        if (o->smem && p >= o->smem && p < o->smem + o->ssize) {
            san_shared(X->san, &t, o->slot, (uint32_t)(p - o->smem), n, acc);
            return;
        }
    }
}

/* Host pointer for an access of n bytes at a in space sp by lane l; NULL after a fault. */
uint8_t *maddr_al(ex *X, warp *w, int l, int pc, int sp, uint64_t a, unsigned n,
                         unsigned align, int write, const char *what)
{
    const acc c = { X, w, l, pc, sp, a, n, what };
    int faulted = 0;
    if (a % align) {
        char desc[200] = "";
        const galloc *g = sp == SP_GLOBAL ? mem_find(X->ctx, a, 1) : NULL;
        if (g && g->name)   /* the buffer, by name */
            snprintf(desc, sizeof desc,
                     "\n  and is %llu bytes into the allocation '%s' of size %zu bytes",
                     (unsigned long long)(a - g->addr), g->name, g->size);
        fault(X, w, l, pc, PTXE_ERROR_LAUNCH_FAILED,
              "misaligned %s %s of %u bytes at address 0x%llx%s", space_name(sp), what, n,
              (unsigned long long)a, desc);
        return NULL;
    }
    if (sp == SP_GENERIC && generic_window(&c, &sp, &a)) return NULL;
    uint8_t *p = NULL;
    const char *ro = NULL;   /* a write to a read-only space */
    switch (sp) {
    case SP_GLOBAL: {
        galloc *g = X->gcache;
        if (!(g && g->host && a >= g->addr && a + n <= g->addr + g->size))
            g = X->gcache = mem_find(X->ctx, a, n);
        if (g) p = g->host + (a - g->addr);
        break;
    }
    case SP_SHARED: case SP_SHCLUSTER: p = shared_ptr(&c, sp, a, &faulted); break;
    case SP_LOCAL: p = local_ptr(X, w, l, pc, a, n, &faulted); break;
    case SP_CONST:
        if (write) ro = "const space at address";
        else if (a + n <= X->ctx->csize) p = X->ctx->cmem + a;
        break;
    case SP_PARAM:
        if (a >= FRAME_PARAM) {
            if (a - FRAME_PARAM + n <= X->psize)
                p = w->fr[w->depth].params + (size_t)l * X->psize + (a - FRAME_PARAM);
        } else if (write) ro = "kernel parameter space at";
        else if (a + n <= X->kpsize) p = X->kparams + a;
        break;
    }
    if (ro)
        fault(X, w, l, pc, PTXE_ERROR_LAUNCH_FAILED, "%s to %s 0x%llx", what, ro,
              (unsigned long long)c.oa);
    if (p && X->san_mem && (sp == SP_GLOBAL || sp == SP_SHARED || sp == SP_SHCLUSTER))
        san_access(X, w, l, pc, sp, p, a, n, what);
    if (p && X->hooks) X->hk_sp = sp;
    if (p || ro || faulted) return p;
    static const char *const in[] = { [SP_GLOBAL] = "global)",
                                      [SP_SHCLUSTER] = "shared)",
                                      [SP_LOCAL] = "local)",
                                      [SP_CONST] = "const)",
                                      [SP_PARAM] = "param)" };
    char desc[300] = "";
    if (sp == SP_GLOBAL) {   /* the buffer and how far past its end (compute-sanitizer's words) */
        desc[0] = '\n'; desc[1] = desc[2] = ' ';
        san_describe_global(X->ctx, X->m, a, n, desc + 3, sizeof desc - 3);
        if (!desc[3]) desc[0] = 0;
    }
    fault(X, w, l, pc, PTXE_ERROR_LAUNCH_FAILED,
          "out-of-bounds %s %s of %u bytes at address 0x%llx%s%s%s", space_name(c.orig), what, n,
          (unsigned long long)c.oa, c.orig == SP_GENERIC ? " (" : "",
          c.orig == SP_GENERIC ? in[sp] : "", desc);
    return NULL;
}

uint8_t *maddr(ex *X, warp *w, int l, int pc, int sp, uint64_t a, unsigned n, int write,
                      const char *what)
{
    return maddr_al(X, w, l, pc, sp, a, n, n, write, what);
}


/* ---------------------------------------------------------------- a model checker's view */
uint64_t exec_loc(ex *X, warp *w, const uint8_t *p, int *space)
{
    return exec_loc_sp(X, w, p, X->hk_sp, space);
}

uint64_t exec_loc_sp(ex *X, warp *w, const uint8_t *p, int sp, int *space)
{
    *space = 0;
    if (sp == SP_GLOBAL) {
        const galloc *g = X->gcache;
        for (int i = 0; i < X->ctx->nallocs && !(g && g->host && p >= g->host &&
                                                  p < g->host + g->size); i++)
            g = &X->ctx->allocs[i];
        if (!(g && g->host && p >= g->host && p < g->host + g->size)) return 0;
        *space = SP_GLOBAL;
        return g->addr + (uint64_t)(p - g->host);
    }
    if (sp != SP_SHARED && sp != SP_SHCLUSTER) return 0;
    const cluster *cl = w->cta->clu;
    for (uint32_t i = 0; i < cl->ncta; i++) {
        const cta *o = cl->ctas[i];
        if (!o->smem || p < o->smem || p >= o->smem + o->ssize) continue;
        uint64_t lin =
            ((uint64_t)o->ctaid[2] * X->grid[1] + o->ctaid[1]) * X->grid[0] + o->ctaid[0];
        *space = o == w->cta ? SP_SHARED : SP_SHCLUSTER;
        return EXEC_LOC_SHARED | lin << 32 | (uint64_t)(p - o->smem);
    }
    return 0;
}

int exec_hook_access(ex *X, warp *w, const exec_hacc *h, const uint8_t *mem, uint64_t *v)
{
    exec_access a = { h->kind, h->lane, w->pc, h->space, h->red, h->size, h->loc, mem, h->b, h->c };
    return X->hooks->access(X->hooks->ctx, X, w, &a, v);
}
