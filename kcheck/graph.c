/* kcheck/graph.c — the execution graph (kcheck/graph.h): events, locations, coherence, views. */
#include <stdlib.h>
#include <string.h>
#include "base/alloc.h"
#include "kcheck/graph.h"

kgraph *kg_new(int nth, const int32_t *cta, const int32_t *cluster)
{
    kgraph *g = xcalloc(1, sizeof *g);
    g->nth = nth;
    g->cta = xcalloc((size_t)nth, sizeof *g->cta);
    g->cluster = xcalloc((size_t)nth, sizeof *g->cluster);
    memcpy(g->cta, cta, (size_t)nth * sizeof *cta);
    memcpy(g->cluster, cluster, (size_t)nth * sizeof *cluster);
    g->ev = xcalloc((size_t)nth, sizeof *g->ev);
    g->nev = xcalloc((size_t)nth, sizeof *g->nev);
    g->cap = xcalloc((size_t)nth, sizeof *g->cap);
    return g;
}

kgraph *kg_copy(const kgraph *g)
{
    kgraph *c = kg_new(g->nth, g->cta, g->cluster);
    for (int t = 0; t < g->nth; t++) {
        if (!g->nev[t]) continue;
        c->cap[t] = c->nev[t] = g->nev[t];
        c->ev[t] = xmalloc((size_t)g->nev[t] * sizeof(kev));
        memcpy(c->ev[t], g->ev[t], (size_t)g->nev[t] * sizeof(kev));
    }
    c->nloc = c->cloc = g->nloc;
    c->loc = xcalloc((size_t)(g->nloc ? g->nloc : 1), sizeof *c->loc);
    for (int l = 0; l < g->nloc; l++) {
        c->loc[l] = g->loc[l];
        c->loc[l].cap = g->loc[l].nco;
        c->loc[l].co = g->loc[l].nco ? xmalloc((size_t)g->loc[l].nco * sizeof(kref)) : NULL;
        if (g->loc[l].nco) memcpy(c->loc[l].co, g->loc[l].co, (size_t)g->loc[l].nco * sizeof(kref));
    }
    c->hcap = g->hcap;
    if (g->hcap) {
        c->hash = xmalloc((size_t)g->hcap * sizeof *c->hash);
        memcpy(c->hash, g->hash, (size_t)g->hcap * sizeof *c->hash);
    }
    c->maxstamp = g->maxstamp;
    return c;
}

void kg_free(kgraph *g)
{
    if (!g) return;
    for (int t = 0; t < g->nth; t++) free(g->ev[t]);
    for (int l = 0; l < g->nloc; l++) free(g->loc[l].co);
    free(g->ev); free(g->nev); free(g->cap); free(g->loc); free(g->hash);
    free(g->cta); free(g->cluster);
    free(g);
}

kref kg_add(kgraph *g, int t, const kev *e)
{
    if (g->nev[t] == g->cap[t]) {
        g->cap[t] = g->cap[t] ? 2 * g->cap[t] : 16;
        g->ev[t] = xrealloc(g->ev[t], (size_t)g->cap[t] * sizeof(kev));
    }
    kev *n = &g->ev[t][g->nev[t]];
    *n = *e;
    n->stamp = ++g->maxstamp;
    return (kref){ t, g->nev[t]++ };
}

/* ---------------------------------------------------------------- locations */
static uint32_t hkey(uint64_t k)
{
    k ^= k >> 33; k *= 0xff51afd7ed558ccdull; k ^= k >> 33;
    return (uint32_t)k;
}

static int find(const kgraph *g, uint64_t key)
{
    if (!g->hcap) return -1;
    for (uint32_t h = hkey(key) & (uint32_t)(g->hcap - 1);; h = (h + 1) & (uint32_t)(g->hcap - 1)) {
        if (g->hash[h] < 0) return -1;
        if (g->loc[g->hash[h]].key == key) return g->hash[h];
    }
}

static void insert(kgraph *g, int idx)
{
    if (2 * (g->nloc + 1) > g->hcap) {   /* grow and rehash */
        int n = g->hcap ? 2 * g->hcap : 64;
        free(g->hash);
        g->hash = xmalloc((size_t)n * sizeof *g->hash);
        for (int i = 0; i < n; i++) g->hash[i] = -1;
        g->hcap = n;
        for (int l = 0; l < g->nloc; l++) if (l != idx) insert(g, l);
    }
    uint32_t h = hkey(g->loc[idx].key) & (uint32_t)(g->hcap - 1);
    while (g->hash[h] >= 0) h = (h + 1) & (uint32_t)(g->hcap - 1);
    g->hash[h] = idx;
}

int kg_loc(kgraph *g, uint64_t key, uint32_t size, uint64_t init, int *conflict)
{
    *conflict = 0;
    int l = find(g, key);
    if (l >= 0) {
        if (g->loc[l].size != size) *conflict = 1;
        return l;
    }
    if (!size) return -1;
    /* another location with a byte in common: accesses of other sizes (not modelled) */
    for (uint64_t k = key > 15 ? key - 15 : 0; k < key + size; k++) {
        int o = k == key ? -1 : find(g, k);
        if (o >= 0 && k + g->loc[o].size > key) { *conflict = 1; return o; }
    }
    if (g->nloc == g->cloc) {
        g->cloc = g->cloc ? 2 * g->cloc : 16;
        g->loc = xrealloc(g->loc, (size_t)g->cloc * sizeof *g->loc);
    }
    l = g->nloc++;
    memset(&g->loc[l], 0, sizeof g->loc[l]);
    g->loc[l].key = key;
    g->loc[l].size = size;
    g->loc[l].init = init;
    insert(g, l);
    return l;
}

uint64_t kg_wval(const kgraph *g, int loc, kref w)
{
    return w.t < 0 ? g->loc[loc].init : kg_ev(g, w)->val;
}

int kg_co_pos(const kgraph *g, int loc, kref w)
{
    if (w.t < 0) return -1;
    const kloc *L = &g->loc[loc];
    for (int k = 0; k < L->nco; k++) if (kref_eq(L->co[k], w)) return k;
    return -2;
}

void kg_co_insert(kgraph *g, int loc, int pos, kref w)
{
    kloc *L = &g->loc[loc];
    if (L->nco == L->cap) {
        L->cap = L->cap ? 2 * L->cap : 4;
        L->co = xrealloc(L->co, (size_t)L->cap * sizeof *L->co);
    }
    memmove(&L->co[pos + 1], &L->co[pos], (size_t)(L->nco - pos) * sizeof *L->co);
    L->co[pos] = w;
    L->nco++;
}

void kg_co_remove(kgraph *g, int loc, kref w)
{
    kloc *L = &g->loc[loc];
    int p = kg_co_pos(g, loc, w);
    if (p < 0) return;
    memmove(&L->co[p], &L->co[p + 1], (size_t)(L->nco - p - 1) * sizeof *L->co);
    L->nco--;
}

kref kg_co_max(const kgraph *g, int loc)
{
    const kloc *L = &g->loc[loc];
    return L->nco ? L->co[L->nco - 1] : (kref){ -1, 0 };
}

/* ---------------------------------------------------------------- views */
int kg_in_view(const int *view, kref r) { return r.t < 0 || r.i < view[r.t]; }

void kg_cut(kgraph *g, const int *view)
{
    for (int t = 0; t < g->nth; t++) if (g->nev[t] > view[t]) g->nev[t] = view[t];
    for (int l = 0; l < g->nloc; l++) {
        kloc *L = &g->loc[l];
        int k = 0;
        for (int j = 0; j < L->nco; j++) if (kg_in_view(view, L->co[j])) L->co[k++] = L->co[j];
        L->nco = k;
    }
}

void kg_before(const kgraph *g, int32_t stamp, int *view)
{
    for (int t = 0; t < g->nth; t++) {
        int i = 0;
        while (i < g->nev[t] && g->ev[t][i].stamp < stamp) i++;
        view[t] = i;
    }
}

/* the arrivals of the barrier phase that wait e passed (same CTA or cluster, id, phase) */
static void add_arrivals(const kgraph *g, int t0, const kev *e, int *want)
{
    int cl = e->bmode == KB_CWAIT, ws = e->bmode == KB_WSYNC;
    for (int t = ws ? t0 / 32 * 32 : 0; t < (ws ? t0 / 32 * 32 + 32 : g->nth) && t < g->nth; t++) {
        if (cl ? g->cluster[t] != g->cluster[t0] : g->cta[t] != g->cta[t0]) continue;
        for (int i = 0; i < g->nev[t]; i++) {
            const kev *a = &g->ev[t][i];
            if (a->kind != KE_BAR || a->gen != e->gen || (a->bmode == KB_WSYNC) != ws) continue;
            if (ws) {   /* the lanes of one warp-synchronous instruction (threads of a warp) */
                if (i + 1 > want[t]) want[t] = i + 1;
                continue;
            }
            if (cl ? a->bmode != KB_CARRIVE
                   : (a->bmode == KB_CARRIVE || a->bmode == KB_CWAIT || a->bar != e->bar))
                continue;
            if (i + 1 > want[t]) want[t] = i + 1;
        }
    }
}

void kg_prefix(const kgraph *g, kref r, int *view)
{
    int *want = xcalloc((size_t)g->nth, sizeof *want);
    for (int t = 0; t < g->nth; t++) view[t] = 0;
    want[r.t] = r.i + 1;
    for (int changed = 1; changed;) {
        changed = 0;
        for (int t = 0; t < g->nth; t++) {
            while (view[t] < want[t]) {
                const kev *e = &g->ev[t][view[t]++];
                changed = 1;
                if (e->kind == KE_R && e->rf.t >= 0 && e->rf.i + 1 > want[e->rf.t])
                    want[e->rf.t] = e->rf.i + 1;
                if (e->kind == KE_BAR &&
                    (e->bmode == KB_WAIT || e->bmode == KB_CWAIT || e->bmode == KB_WSYNC))
                    add_arrivals(g, t, e, want);
            }
        }
    }
    free(want);
}

#include <stdio.h>
void kg_dump(const kgraph *g, const char *why)
{
    static const char *const k[] = { "R", "W", "F", "BAR", "BLOCK" };
    fprintf(stderr, "graph (%s):\n", why);
    for (int t = 0; t < g->nth; t++)
        for (int i = 0; i < g->nev[t]; i++) {
            const kev *e = &g->ev[t][i];
            fprintf(stderr, "  T%d.%d s%d %s pc%d loc%d val%llu", t, i, e->stamp, k[e->kind], e->pc,
                    e->loc, (unsigned long long)e->val);
            if (e->kind == KE_R) fprintf(stderr, " rf=%d.%d", e->rf.t, e->rf.i);
            fprintf(stderr, " f%x\n", e->flags);
        }
}
