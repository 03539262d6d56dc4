/* exec/printf.c — the calls of the CUDA device runtime: vprintf (device printf), and malloc and
 * free (the device heap is exec/heap.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "exec/engine.h"
#include "exec/heap.h"

/* ---------------------------------------------------------------- device printf
 * vprintf(format, args) as nvcc and clang call it: the format string and the argument buffer
 * (each argument at its natural alignment: int 4 bytes, long/pointer/double 8, float promoted
 * to double) are generic addresses; the output of one call by a group of lanes is appended in
 * lane order, as a GPU's printf buffer groups it per warp. */
static int pf_read(ex *X, warp *w, int l, uint64_t a, void *dst, unsigned n)
{
    int sm = X->san_mem;
    X->san_mem = 0;   /* the runtime reads these, not the kernel: not checked as accesses */
    const uint8_t *p = maddr_al(X, w, l, w->pc, SP_GENERIC, a, n, 1, 0, "printf argument load");
    X->san_mem = sm;
    if (!p) return -1;
    memcpy(dst, p, n);
    return 0;
}

static void pf_put(ptxeCtx *ctx, const char *s, size_t n)
{
    pf_buf *b = &ctx->pf;
    size_t limit = b->set ? b->limit : PTXE_DEFAULT_PRINTF_LIMIT;
    if (b->n + n > limit) { b->dropped += n; return; }
    if (b->n + n + 1 > b->cap) {
        size_t nc = (b->n + n + 1) * 2;
        char *ns = realloc(b->s, nc);
        if (!ns) { b->dropped += n; return; }
        b->s = ns; b->cap = nc;
    }
    memcpy(b->s + b->n, s, n);
    b->n += n;
    b->s[b->n] = 0;
}

static int do_printf(ex *X, warp *w, const xinsn *in, frame *f, int l)
{
    uint64_t av[2] = { 0, 0 };
    for (int i = 0; i < 2 && i < in->ncargs; i++) {
        if (in->carg_off[i] == NOPARAM) av[i] = opv(X, w, f, &in->carg_x[i], l);
        else {   /* the caller's .param variable: a pointer (4 bytes with .address_size 32) */
            uint32_t vsz =
                in->carg_vsz && in->carg_vsz[i] && in->carg_vsz[i] < 8 ? in->carg_vsz[i] : 8;
            memcpy(&av[i], f->params + (size_t)l * X->psize + in->carg_off[i], vsz);
        }
    }
    char fmt[1024], out[4096];
    size_t fl = 0, on = 0;
    for (; fl < sizeof fmt - 1; fl++)
        if (pf_read(X, w, l, av[0] + fl, &fmt[fl], 1)) return -1;
        else if (!fmt[fl]) break;
    fmt[fl] = 0;
    uint64_t off = 0;
    for (const char *p = fmt; *p && on < sizeof out - 512;) {
        if (*p != '%') { out[on++] = *p++; continue; }
        if (p[1] == '%') { out[on++] = '%'; p += 2; continue; }
        char spec[32];
        size_t k = 0;
        spec[k++] = *p++;
        while (*p && strchr("-+ #0123456789.*", *p) && k < 20) spec[k++] = *p++;
        int lng = 0;
        while (*p && strchr("hlzjtL", *p)) {
            if (*p == 'l' || *p == 'z' || *p == 'j' || *p == 't') lng++;
            p++;
        }
        char cv = *p ? *p++ : 0;
        if (!cv) break;
        if (memchr(spec, '*', k)) { out[on++] = '?'; continue; }   /* (no * widths) */
        int sz = strchr("fFeEgGaA", cv) || strchr("ps", cv) || lng ? 8 : 4;
        off = (off + (uint64_t)sz - 1) & ~(uint64_t)(sz - 1);
        uint64_t v = 0;
        if (pf_read(X, w, l, av[1] + off, &v, (unsigned)sz)) return -1;
        off += (uint64_t)sz;
        size_t room = sizeof out - on;
        int r = 0;
        if (strchr("fFeEgGaA", cv)) {
            double d; memcpy(&d, &v, 8);
            spec[k++] = cv; spec[k] = 0;
            r = snprintf(out + on, room, spec, d);
        } else if (cv == 's') {
            char str[256];
            size_t j = 0;
            for (; j < sizeof str - 1; j++)
                if (pf_read(X, w, l, v + j, &str[j], 1)) return -1;
                else if (!str[j]) break;
            str[j] = 0;
            spec[k++] = 's'; spec[k] = 0;
            r = snprintf(out + on, room, spec, str);
        } else if (cv == 'p') {
            r = snprintf(out + on, room, "0x%llx", (unsigned long long)v);
        } else if (cv == 'c') {
            spec[k++] = 'c'; spec[k] = 0;
            r = snprintf(out + on, room, spec, (int)v);
        } else if (strchr("diuxXo", cv)) {
            spec[k++] = 'l'; spec[k++] = 'l'; spec[k++] = cv; spec[k] = 0;
            long long sv = sz == 4 ? (long long)(int32_t)v : (long long)v;
            unsigned long long uv = sz == 4 ? (uint32_t)v : v;
            r = cv == 'd' || cv == 'i' ? snprintf(out + on, room, spec, sv)
                                       : snprintf(out + on, room, spec, uv);
        } else {
            out[on++] = '%'; out[on++] = cv;
            continue;
        }
        if (r > 0) on += (size_t)r < room ? (size_t)r : room - 1;
    }
    pf_put(X->ctx, out, on);
    return 0;
}

/* a call of the device-side malloc or free by lane l (the heap is exec/heap.c): the argument,
 * malloc's result into the caller's return variable; a bad free faults */
static int do_heap(ex *X, warp *w, const xinsn *in, frame *f, int l)
{
    uint64_t v = 0, p;
    uint8_t *pa = f->params + (size_t)l * X->psize;
    uint32_t as = in->carg_vsz && in->carg_vsz[0] && in->carg_vsz[0] < 8 ? in->carg_vsz[0] : 8;
    if (in->carg_off[0] == NOPARAM) v = opv(X, w, f, &in->carg_x[0], l);
    else memcpy(&v, pa + in->carg_off[0], as);
    san_who t = who(X, w, l, w->pc);
    X->gcache = NULL;   /* the context's allocation table changes */
    char why[700];
    if (in->flags & XF_FREE) {
        if (!heap_free(X->ctx, X->m, &t, v, why, sizeof why)) return 0;
        fault(X, w, l, w->pc, PTXE_ERROR_LAUNCH_FAILED, "%s", why);
        return -1;
    }
    p = heap_malloc(X->ctx, &t, v);
    uint32_t rs = in->cret_vsz && in->cret_vsz[0] && in->cret_vsz[0] < 8 ? in->cret_vsz[0] : 8;
    if (in->cret_off[0] == NOPARAM) wr(f, &in->cret_x[0], l, p);
    else memcpy(pa + in->cret_off[0], &p, rs);
    return 0;
}

/* calls of vprintf (device printf), malloc and free; other MISC instructions are no-ops */
int h_misc(ex *X, warp *w, const xinsn *in, frame *f, uint32_t G, uint32_t E)
{
    if (in->flags & (XF_MALLOC | XF_FREE))
        for (uint32_t m = E; m; m &= m - 1)
            if (do_heap(X, w, in, f, __builtin_ctz(m))) return -1;
    if (in->flags & XF_VPRINTF)
        for (uint32_t m = E; m; m &= m - 1)
            if (do_printf(X, w, in, f, __builtin_ctz(m))) return -1;
    advance(w, w->pc + 1);
    return 0;
}

