/* model/universe.c — the paths of each thread merged into one tree of events (model/universe.h).
 * Two events of one thread are the same event when they have the same program-order parent
 * and perform the same operation: same instruction, kind, access (symbol, bytes) or fence,
 * and barrier (id, count, generation).  Values are kept per path. */
#include "model/universe.h"
#include "base/alloc.h"
#include <stdlib.h>
#include <string.h>

typedef struct {
    muniverse *u;
    int cap;
    int *first_child, *next_sibling;   /* tree adjacency, to find an existing child */
} builder;

static int grow(builder *b)
{
    muniverse *u = b->u;
    if (u->n < b->cap) return 0;
    int cap = b->cap ? 2 * b->cap : 64;
    mevent *ev = xrealloc(u->ev, (size_t)cap * sizeof *ev);
    if (ev) u->ev = ev;
    int *p1 = xrealloc(u->parent, (size_t)cap * sizeof *p1);
    if (p1) u->parent = p1;
    int *p2 = xrealloc(u->rmw_part, (size_t)cap * sizeof *p2);
    if (p2) u->rmw_part = p2;
    int *p3 = xrealloc(u->rmw_pair, (size_t)cap * sizeof *p3);
    if (p3) u->rmw_pair = p3;
    int *p4 = xrealloc(u->npaths, (size_t)cap * sizeof *p4);
    if (p4) u->npaths = p4;
    int *p5 = xrealloc(b->first_child, (size_t)cap * sizeof *p5);
    if (p5) b->first_child = p5;
    int *p6 = xrealloc(b->next_sibling, (size_t)cap * sizeof *p6);
    if (p6) b->next_sibling = p6;
    if (!ev || !p1 || !p2 || !p3 || !p4 || !p5 || !p6) return -1;
    b->cap = cap;
    return 0;
}

/* the same operation, values aside */
static int same_op(const mevent *a, const mevent *b)
{
    return a->k == b->k && a->insn == b->insn && a->sym == b->sym && a->off == b->off &&
           a->size == b->size && a->fence == b->fence && a->bar == b->bar &&
           a->bar_id == b->bar_id && a->bar_cnt == b->bar_cnt && a->bar_has_cnt == b->bar_has_cnt &&
           a->bar_gen == b->bar_gen && a->atomic == b->atomic && a->sem == b->sem &&
           a->ub == b->ub; /* an mbarrier wait acquires only when it returns True */
}

/* The child of `parent` (thread th; -1: the thread's root list `root`) performing e, created
   when missing.  Returns the event, or -1 when out of memory. */
static int child(builder *b, int th, int parent, int *root, const mevent *e, int part)
{
    muniverse *u = b->u;
    int *head = parent < 0 ? root : &b->first_child[parent];
    for (int c = *head; c >= 0; c = b->next_sibling[c])
        if (u->rmw_part[c] == part && same_op(&u->ev[c], e)) return c;
    if (grow(b)) return -1;
    head = parent < 0 ? root : &b->first_child[parent];   /* grow may have moved first_child */
    int id = u->n++;
    u->ev[id] = *e;
    u->ev[id].thread = th;
    u->ev[id].rval = u->ev[id].wval = 0;
    u->parent[id] = parent;
    u->rmw_part[id] = part;
    u->rmw_pair[id] = -1;
    u->npaths[id] = 0;
    b->first_child[id] = -1;
    b->next_sibling[id] = *head;
    *head = id;
    return id;
}

static void add_inits(builder *b, const lit_test *t, const mprogram *p)
{
    muniverse *u = b->u;
    for (int s = 0; s < t->nsym; s++) {
        if (t->sym[s].loc != s || grow(b)) continue;
        mevent *e = &u->ev[u->n];
        memset(e, 0, sizeof *e);
        e->k = EV_INIT; e->thread = -1; e->insn = -1; e->loc = s; e->vaddr = s; e->sym = s;
        e->wval = t->sym[s].init; e->proxy = PROXY_GENERIC; e->sem = SEM_WEAK;
        e->off = 0; e->size = t->sym[s].size;
        u->parent[u->n] = -1; u->rmw_part[u->n] = 0; u->rmw_pair[u->n] = -1; u->npaths[u->n] = 0;
        b->first_child[u->n] = -1; b->next_sibling[u->n] = -1;
        u->n++;
    }
    (void)p;
    u->ninit = u->n;
}

/* One path of thread th: its events become tree events; map[k] = the event of trace event k
   (for an atomic operation split in two: its read; map2[k] its write, else -1). */
static int add_path(builder *b, int th, int *root, const mtrace *tr, upath *out, int *map,
                    int *map2)
{
    muniverse *u = b->u;
    out->ev = xcalloc((size_t)(2 * tr->nev + 1), sizeof *out->ev);
    if (!out->ev) return -1;
    int parent = -1;
    out->hang = tr->hang;
    out->hang_insn = tr->hang_insn;
    out->spin_from = -1;
    for (int k = 0; k < tr->nev; k++) {
        const mevent *e = &tr->ev[k];
        map2[k] = -1;
        if (k == tr->spin_from) out->spin_from = out->len;
        if (u->split_rmw && e->atomic && (e->k == EV_RMW || e->k == EV_R)) {
            mevent r = *e;
            r.k = EV_R;
            int ri = child(b, th, parent, root, &r, 1);
            if (ri < 0) return -1;
            out->ev[out->len++] = (upath_ev){ ri, e->rterm, -1, -1, -1 };
            map[k] = parent = ri;
            if (e->k == EV_RMW) {
                mevent w = *e;
                w.k = EV_W;
                int wi = child(b, th, parent, root, &w, 2);
                if (wi < 0) return -1;
                u->rmw_pair[ri] = wi;
                u->rmw_pair[wi] = ri;
                out->ev[out->len++] = (upath_ev){ wi, -1, e->wterm, e->wcond, e->wsame };
                map2[k] = parent = wi;
            }
            continue;
        }
        int id = child(b, th, parent, root, e, 0);
        if (id < 0) return -1;
        out->ev[out->len++] = (upath_ev){ id, e->rterm, e->wterm,
                                          e->k == EV_RMW ? e->wcond : -1,
                                          e->k == EV_RMW ? e->wsame : -1 };
        map[k] = parent = id;
    }
    if (tr->hang == MHANG_SPIN && out->spin_from < 0)
        out->spin_from = out->len; /* an empty iteration */
    for (int i = 0; i < out->len; i++) u->npaths[out->ev[i].node]++;
    return 0;
}

/* The path's dependencies on events: from a read (an atomic operation's read), to the
   depending event (both events of an atomic operation); the write of an atomic operation
   depends on its read by data, but for exch, whose value ignores the old one. */
static int add_deps(muniverse *u, const lit_test *t, int th, const mtrace *tr, upath *out,
                    const int *map, const int *map2)
{
    out->dep = xcalloc((size_t)(2 * tr->ndep + tr->nev + 1), sizeof *out->dep);
    if (!out->dep) return -1;
    for (int k = 0; k < tr->ndep; k++) {
        const mdep *d = &tr->dep[k];
        int from = map[d->from];
        out->dep[out->ndep++] = (udep){ from, map[d->to], d->kind };
        if (map2[d->to] >= 0) out->dep[out->ndep++] = (udep){ from, map2[d->to], d->kind };
    }
    for (int k = 0; k < tr->nev; k++)
        if (map2[k] >= 0 && t->th[th].ins[tr->ev[k].insn].aop != ISA_ATOM_EXCH)
            out->dep[out->ndep++] = (udep){ map[k], map2[k], MDEP_DATA };
    (void)u;
    return 0;
}

static int fill_po(muniverse *u)
{
    u->po = xcalloc((size_t)u->n * (size_t)u->n, 1);
    if (!u->po) return -1;
    for (int j = 0; j < u->n; j++)
        for (int a = u->parent[j]; a >= 0; a = u->parent[a])
            u->po[(size_t)a * (size_t)u->n + (size_t)j] = 1;
    return 0;
}

int muniverse_build(const lit_test *t, const mprogram *p, int split_rmw, size_t max_bytes,
                    muniverse *u)
{
    memset(u, 0, sizeof *u);
    u->t = t;
    u->terms = &p->terms;
    u->dom = p->dom;
    u->split_rmw = split_rmw;
    u->nth = t->nth;
    builder b = { u, 0, NULL, NULL };
    add_inits(&b, t, p);
    u->th = xcalloc((size_t)(t->nth ? t->nth : 1), sizeof *u->th);
    int rc = u->th ? 0 : -1;
    for (int th = 0; th < t->nth && !rc; th++) {
        const mthread_traces *tt = &p->tt[th];
        uthread *ut = &u->th[th];
        ut->path = xcalloc((size_t)(tt->ntr ? tt->ntr : 1), sizeof *ut->path);
        if (!ut->path) { rc = -1; break; }
        ut->npath = tt->ntr;
        int root = -1;
        for (int i = 0; i < tt->ntr && !rc; i++) {
            const mtrace *tr = &tt->tr[i];
            int *map = xmalloc((size_t)(tr->nev + 1) * sizeof *map),
                *map2 = xmalloc((size_t)(tr->nev + 1) * sizeof *map2);
            rc = !map || !map2 || add_path(&b, th, &root, tr, &ut->path[i], map, map2) ||
                 add_deps(u, t, th, tr, &ut->path[i], map, map2);
            ut->path[i].regs =
                xmalloc((size_t)(t->th[th].nregs ? t->th[th].nregs : 1) * sizeof *ut->path[i].regs);
            if (t->th[th].nregs)
                memcpy(ut->path[i].regs, tr->regs, (size_t)t->th[th].nregs * sizeof *tr->regs);
            ut->path[i].nguard = tr->nguard;
            ut->path[i].guard = xmalloc((size_t)(tr->nguard + 1) * sizeof *tr->guard);
            memcpy(ut->path[i].guard, tr->guard, (size_t)tr->nguard * sizeof *tr->guard);
            free(map); free(map2);
        }
    }
    /* the solver's relations take some 64 bytes per pair of events (model/universe.h) */
    if (!rc && max_bytes && (size_t)u->n * (size_t)u->n > max_bytes / 64) rc = -2;
    if (!rc) rc = fill_po(u);
    free(b.first_child);
    free(b.next_sibling);
    if (rc) muniverse_free(u);
    return rc;
}

void muniverse_free(muniverse *u)
{
    for (int th = 0; u->th && th < u->nth; th++) {
        for (int i = 0; i < u->th[th].npath; i++) {
            free(u->th[th].path[i].ev);
            free(u->th[th].path[i].dep);
            free(u->th[th].path[i].regs);
            free(u->th[th].path[i].guard);
        }
        free(u->th[th].path);
    }
    free(u->th);
    free(u->ev);
    free(u->parent);
    free(u->rmw_part);
    free(u->rmw_pair);
    free(u->npaths);
    free(u->po);
    memset(u, 0, sizeof *u);
}
