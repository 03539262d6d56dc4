/* exec/vclock.c — vector clocks with per-CTA blocks shared copy-on-write (exec/vclock.h). */
#include <stdlib.h>
#include <string.h>
#include "exec/vclock.h"

struct vc_blk {
    uint32_t refs, cta;
    uint32_t v[];
};

static vc_blk *blk_new(uint32_t nt, uint32_t cta)
{
    vc_blk *b = calloc(1, sizeof *b + (size_t)nt * sizeof b->v[0]);
    if (b) b->refs = 1, b->cta = cta;
    return b;
}

static void blk_unref(vc_blk *b)
{
    if (b && --b->refs == 0) free(b);
}

/* index of CTA cta's block in v, or -(insertion point) - 1 */
static int64_t find(const vclock *v, uint32_t cta)
{
    uint32_t lo = 0, hi = v->n;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (v->b[mid]->cta < cta) lo = mid + 1;
        else hi = mid;
    }
    return lo < v->n && v->b[lo]->cta == cta ? (int64_t)lo : -(int64_t)lo - 1;
}

/* b inserted at position at (v takes the reference) */
static int insert(vclock *v, uint32_t at, vc_blk *b)
{
    if (v->n == v->cap) {
        uint32_t nc = v->cap ? v->cap * 2 : 2;
        vc_blk **nb = realloc(v->b, (size_t)nc * sizeof *nb);
        if (!nb) return -1;
        v->b = nb; v->cap = nc;
    }
    memmove(&v->b[at + 1], &v->b[at], (size_t)(v->n - at) * sizeof *v->b);
    v->b[at] = b;
    v->n++;
    return 0;
}

/* block i of v made v's own (copied when shared) */
static vc_blk *own(vclock *v, uint32_t i, uint32_t nt)
{
    vc_blk *b = v->b[i];
    if (b->refs == 1) return b;
    vc_blk *c = blk_new(nt, b->cta);
    if (!c) return NULL;
    memcpy(c->v, b->v, (size_t)nt * sizeof c->v[0]);
    blk_unref(b);
    return v->b[i] = c;
}

uint32_t vc_get(const vclock *v, uint32_t nt, uint64_t g)
{
    int64_t i = find(v, (uint32_t)(g / nt));
    return i < 0 ? 0 : v->b[i]->v[g % nt];
}

int vc_raise(vclock *v, uint32_t nt, uint64_t g, uint32_t clk)
{
    uint32_t cta = (uint32_t)(g / nt);
    int64_t i = find(v, cta);
    if (i < 0) {
        vc_blk *b = blk_new(nt, cta);
        if (!b || insert(v, (uint32_t)(-i - 1), b)) { free(b); return -1; }
        i = -i - 1;
    }
    if (v->b[i]->v[g % nt] >= clk) return 0;
    vc_blk *b = own(v, (uint32_t)i, nt);
    if (!b) return -1;
    b->v[g % nt] = clk;
    return 0;
}

int vc_join(vclock *dst, const vclock *src, uint32_t nt)
{
    for (uint32_t k = 0; k < src->n; k++) {
        vc_blk *s = src->b[k];
        int64_t i = find(dst, s->cta);
        if (i < 0) {
            if (insert(dst, (uint32_t)(-i - 1), s)) return -1;
            s->refs++;
            continue;
        }
        vc_blk *d = dst->b[i];
        if (d == s) continue;
        int s_more = 0, d_more = 0;
        for (uint32_t e = 0; e < nt && !(s_more && d_more); e++) {
            s_more |= s->v[e] > d->v[e];
            d_more |= d->v[e] > s->v[e];
        }
        if (!s_more) continue;
        if (!d_more) {   /* s covers d: share s */
            s->refs++;
            blk_unref(d);
            dst->b[i] = s;
            continue;
        }
        if (!(d = own(dst, (uint32_t)i, nt))) return -1;
        for (uint32_t e = 0; e < nt; e++)
            if (s->v[e] > d->v[e]) d->v[e] = s->v[e];
    }
    return 0;
}

int vc_share(vclock *dst, const vclock *src)
{
    if (dst == src) return 0;
    vc_clear(dst);
    if (!src->n) return 0;
    dst->b = malloc((size_t)src->n * sizeof *dst->b);
    if (!dst->b) return -1;
    dst->cap = dst->n = src->n;
    for (uint32_t k = 0; k < src->n; k++) (dst->b[k] = src->b[k])->refs++;
    return 0;
}

void vc_clear(vclock *v)
{
    for (uint32_t k = 0; k < v->n; k++) blk_unref(v->b[k]);
    free(v->b);
    memset(v, 0, sizeof *v);
}
