/* model/program.c — what a litmus program can do, before any memory model: its atoms, the
 * values each atom may hold, and every complete path of every thread, its values as terms.
 *
 * Values: a read may return any value some write of the program may produce (or the initial
 * value), so the domains are a fixpoint over the threads' paths (round k adds the values of
 * write chains of length k; W rounds suffice, W the most writes an execution can have); the
 * values of a written term are computed over the domains of the reads it depends on, under
 * the conditions of its path.  The domains only decide branches and give the values of what
 * must be concrete (model/traces.c): a round in which no path asked for them ends the
 * fixpoint, and an atom with more than 256 values (or too many combinations to compute) is
 * marked not bounded instead, an error only where a value must be made concrete.
 * Atoms: a location is cut wherever an access starts or ends (ISA §8.2, §8.2.1 overlap); the
 * cuts of accesses through registers are only known from the paths, so new cuts found on a
 * round split atoms and the round is repeated.  No memory model here: model/traces.c walks
 * the threads, solver/ decides which combinations of paths are executions. */
#include "model/program.h"
#include "model/mbarrier.h"
#include "base/alloc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t mask_bytes(int n) { return n >= 8 ? ~0ull : (1ull << (8 * n)) - 1; }

int mdom_add(mdomain *d, int64_t v)
{
    for (int i = 0; i < d->n; i++) if (d->v[i] == v) return 0;
    d->v = xrealloc(d->v, (size_t)(d->n + 1) * sizeof *d->v);
    d->v[d->n++] = v;
    return 1;
}

int matoms_find(const matoms *at, int loc, int off)
{
    for (int a = at->first[loc]; a < at->first[loc] + at->count[loc]; a++)
        if (at->a[a].off == off) return a;
    return -1;
}

/* ---------- atoms ---------- */

/* cut points per location: a sorted set of byte offsets in 0..size */
typedef struct { int *v; int n; } cuts;

static int cut_add(cuts *c, int x)
{
    for (int i = 0; i < c->n; i++) if (c->v[i] == x) return 0;
    c->v = xrealloc(c->v, (size_t)(c->n + 1) * sizeof *c->v);
    int i = c->n++;
    while (i > 0 && c->v[i - 1] > x) { c->v[i] = c->v[i - 1]; i--; }
    c->v[i] = x;
    return 1;
}

/* Rebuild the atom table from the cuts; the domains of the new atoms are the parts of the
   old atoms' values (a value of bytes [o, o+s) split at c gives its low c-o bytes and the rest). */
static void rebuild_atoms(const lit_test *t, const cuts *cut, matoms *at, mdomain **dom)
{
    matoms na = { NULL, 0, xcalloc((size_t)t->nsym + 1, sizeof(int)),
                  xcalloc((size_t)t->nsym + 1, sizeof(int)) };
    mdomain *nd = NULL;
    for (int s = 0; s < t->nsym; s++) {
        if (t->sym[s].loc != s) continue;
        na.first[s] = na.n;
        for (int i = 0; i + 1 < cut[s].n; i++) {
            na.a = xrealloc(na.a, (size_t)(na.n + 1) * sizeof *na.a);
            nd = xrealloc(nd, (size_t)(na.n + 1) * sizeof *nd);
            matom x = { s, cut[s].v[i], cut[s].v[i + 1] - cut[s].v[i] };
            na.a[na.n] = x;
            nd[na.n] = (mdomain){ NULL, 0 };
            if (*dom) {   /* project the old atom that contains x */
                for (int o = at->first[s]; o < at->first[s] + at->count[s]; o++) {
                    const matom *y = &at->a[o];
                    if (y->off > x.off || y->off + y->size < x.off + x.size) continue;
                    if ((*dom)[o].n < 0) { free(nd[na.n].v); nd[na.n] = (mdomain){ NULL, -1 }; }
                    if (nd[na.n].n < 0) continue;
                    for (int k = 0; k < (*dom)[o].n; k++)
                        mdom_add(&nd[na.n],
                                 (int64_t)(((uint64_t)(*dom)[o].v[k] >> (8 * (x.off - y->off))) &
                                           mask_bytes(x.size)));
                }
            } else {
                mdom_add(&nd[na.n],
                         (int64_t)(((uint64_t)t->sym[s].init >> (8 * x.off)) & mask_bytes(x.size)));
            }
            na.n++;
        }
        na.count[s] = na.n - na.first[s];
    }
    if (*dom) for (int a = 0; a < at->n; a++) free((*dom)[a].v);
    free(*dom);
    free(at->a); free(at->first); free(at->count);
    *at = na;
    *dom = nd;
}

/* static cuts: location bounds, and the accesses that name a location */
static cuts *static_cuts(const lit_test *t)
{
    cuts *c = xcalloc((size_t)t->nsym + 1, sizeof *c);
    for (int s = 0; s < t->nsym; s++) {
        if (t->sym[s].loc != s) continue;
        cut_add(&c[s], 0);
        cut_add(&c[s], t->sym[s].size);
    }
    for (int ti = 0; ti < t->nth; ti++)
        for (int k = 0; k < t->th[ti].nins; k++) {
            const lit_insn *in = &t->th[ti].ins[k];
            if ((in->k != LI_LD && in->k != LI_ST && in->k != LI_ATOM && in->k != LI_RED) ||
                in->addr.k != OPD_SYM || !in->size)
                continue;
            int l = t->sym[in->addr.sym].loc;
            cut_add(&c[l], (int)in->addr.off);
            cut_add(&c[l], (int)in->addr.off + in->size);
        }
    return c;
}

/* cuts of the events on the paths; returns 1 when some are new */
static int path_cuts(const lit_test *t, const mthread_traces *tt, cuts *c)
{
    int grew = 0;
    for (int th = 0; th < t->nth; th++)
        for (int i = 0; i < tt[th].ntr; i++)
            for (int k = 0; k < tt[th].tr[i].nev; k++) {
                const mevent *e = &tt[th].tr[i].ev[k];
                if (!ev_mem(e)) continue;
                grew |= cut_add(&c[e->loc], e->off);
                grew |= cut_add(&c[e->loc], e->off + e->size);
            }
    return grew;
}

/* ---------- domains ---------- */

/* the values of a read variable over the domains of the round (mt_domain_fn) */
typedef struct { const matoms *at; const mdomain *dom; } round_domains;
static int prog_domain(void *ctx, const mt_varinfo *v, uint64_t **vals)
{
    const round_domains *r = ctx;
    return mdom_combos(r->at, r->dom, v->loc, v->off, v->size, vals);
}

static void dom_unbounded(mdomain *d)
{
    free(d->v);
    d->v = NULL;
    d->n = -1;
}

/* add the atom parts of every write on the paths (its term's values under the path's guards
   and its own write condition); returns 1 when a domain grew */
static int add_written_values(const lit_test *t, mprogram *p, const unsigned char *exact)
{
    int changed = 0;
    const matoms *at = &p->at;
    /* the values are computed over the domains the paths were walked with (a value added now
       is read in the next round, a chain of writes grows by one write per round) */
    mdomain *old = xcalloc((size_t)(at->n ? at->n : 1), sizeof *old);
    for (int a = 0; a < at->n; a++) {
        old[a].n = p->dom[a].n;
        if (old[a].n > 0) {
            old[a].v = xmalloc((size_t)old[a].n * sizeof *old[a].v);
            memcpy(old[a].v, p->dom[a].v, (size_t)old[a].n * sizeof *old[a].v);
        }
    }
    round_domains rd = { at, old };
    for (int th = 0; th < t->nth; th++)
        for (int i = 0; i < p->tt[th].ntr; i++) {
            const mtrace *tr = &p->tt[th].tr[i];
            int *g = xmalloc((size_t)(tr->nguard + 1) * sizeof *g);
            memcpy(g, tr->guard, (size_t)tr->nguard * sizeof *g);
            for (int k = 0; k < tr->nev; k++) {
                const mevent *e = &tr->ev[k];
                if (e->k != EV_W && e->k != EV_RMW) continue;
                if (exact[e->loc]) continue;   /* an mbarrier object whose values are known */
                int ng = tr->nguard;
                if (e->k == EV_RMW && e->wcond >= 0 && e->wcond != p->terms.T) g[ng++] = e->wcond;
                uint64_t *v = NULL;
                int nv = mt_values(&p->terms, e->wterm, g, ng, prog_domain, &rd, &v, 257);
                for (int a = at->first[e->loc]; a < at->first[e->loc] + at->count[e->loc]; a++) {
                    const matom *x = &at->a[a];
                    if (x->off < e->off || x->off + x->size > e->off + e->size) continue;
                    if (p->dom[a].n < 0) continue;
                    if (nv < 0) { dom_unbounded(&p->dom[a]); changed = 1; continue; }
                    for (int j = 0; j < nv; j++) {
                        uint64_t part = v[j] >> (8 * (x->off - e->off)) & mask_bytes(x->size);
                        changed |= mdom_add(&p->dom[a], (int64_t)part);
                    }
                    if (p->dom[a].n > 256) dom_unbounded(&p->dom[a]);
                }
                free(v);
            }
            free(g);
        }
    for (int a = 0; a < at->n; a++) free(old[a].v);
    free(old);
    return changed;
}

/* the most write events one execution can have: the sum of each thread's longest */
static int max_writes(const lit_test *t, const mthread_traces *tt)
{
    int wmax = 0;
    for (int th = 0; th < t->nth; th++) {
        int m = 0;
        for (int i = 0; i < tt[th].ntr; i++) {
            int w = 0;
            for (int k = 0; k < tt[th].tr[i].nev; k++)
                w += tt[th].tr[i].ev[k].k == EV_W || tt[th].tr[i].ev[k].k == EV_RMW;
            if (w > m) m = w;
        }
        wmax += m;
    }
    return wmax;
}

/* every thread's paths over the current domains; *used: some decision used the domains */
static int enumerate_all(const lit_test *t, mprogram *p, const mlimits *lim,
                         unsigned char *const *observed, int *used, char *err, size_t errlen)
{
    for (int th = 0; th < t->nth; th++) traces_free(&p->tt[th]);
    mt_free(&p->terms);
    mt_init(&p->terms);
    *used = 0;
    for (int th = 0; th < t->nth; th++) {
        int rc = traces_enumerate(t, th, &p->at, p->dom, lim, observed[th], &p->terms, &p->tt[th],
                                  err, errlen);
        if (rc) return rc;
        *used |= p->tt[th].dom_used;
    }
    return 0;
}

/* §9.7.12.1: "barrier{.cta}.red should not be intermixed with barrier{.cta}.sync or
   barrier{.cta}.arrive using the same active barrier. Execution in this case is unpredictable."
   Refused for the barrier numbers the paths compute: a barrier of a CTA that some path uses with
   bar.red and some path with bar.sync or bar.arrive.  Reported at the later instruction of the
   two in the text (thread order, then instruction order). */
static int check_bar_red_mix(const lit_test *t, const mprogram *p, char *err, size_t errlen)
{
    /* ids[th][insn]: the barrier numbers (bits 0..15) the instruction uses on some path */
    unsigned **ids = xcalloc((size_t)(t->nth ? t->nth : 1), sizeof *ids);
    int any_red = 0, rc = 0;
    for (int th = 0; th < t->nth; th++) {
        ids[th] = xcalloc((size_t)(t->th[th].nins ? t->th[th].nins : 1), sizeof **ids);
        for (int x = 0; x < p->tt[th].ntr; x++)
            for (int k = 0; k < p->tt[th].tr[x].nev; k++) {
                const mevent *e = &p->tt[th].tr[x].ev[k];
                if (e->k != EV_BAR || e->bar_id < 0 || e->bar_id > 15) continue;
                ids[th][e->insn] |= 1u << e->bar_id;
                any_red |= e->bar == BAR_RED;
            }
    }
    for (int ta = 0; ta < t->nth && any_red && !rc; ta++)
        for (int ia = 0; ia < t->th[ta].nins && !rc; ia++) {
            const lit_insn *a = &t->th[ta].ins[ia];
            if (a->k != LI_BAR || !ids[ta][ia]) continue;
            for (int tb = 0; tb <= ta && !rc; tb++) {
                if (t->th[tb].gpu != t->th[ta].gpu || t->th[tb].cta != t->th[ta].cta) continue;
                for (int ib = 0; ib < (tb == ta ? ia : t->th[tb].nins); ib++) {
                    const lit_insn *b = &t->th[tb].ins[ib];
                    unsigned both = ids[ta][ia] & ids[tb][ib];
                    if (b->k != LI_BAR || !both || (a->bar == BAR_RED) == (b->bar == BAR_RED))
                        continue;
                    int shared = 0;
                    while (!(both >> shared & 1)) shared++;
                    snprintf(err, errlen,
                             "%s:%d:%d: found '%s' on barrier %d, which '%s' (%s, line %d) also "
                             "uses in CTA %d, "
                             "expected bar.red on other barriers than bar.sync and bar.arrive "
                             "(§9.7.12.1: bar.red \"should "
                             "not be intermixed with\" them \"using the same active barrier\")",
                             t->file, a->line, a->col, a->text, shared, b->text, t->th[tb].name,
                             b->line, t->th[ta].cta);
                    rc = -1;
                    break;
                }
            }
        }
    for (int th = 0; th < t->nth; th++) free(ids[th]);
    free(ids);
    return rc;
}

int mprogram_build(const lit_test *t, const mlimits *lim, unsigned char *const *observed,
                   mprogram *p, char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    p->tt = xcalloc((size_t)(t->nth ? t->nth : 1), sizeof *p->tt);
    mt_init(&p->terms);
    cuts *c = static_cuts(t);
    rebuild_atoms(t, c, &p->at, &p->dom);
    /* mbarrier objects: their exact values up front (model/mbarrier.c) */
    unsigned char *exact = xcalloc((size_t)t->nsym + 1, 1);
    for (int s = 0; s < t->nsym; s++) {
        int64_t *v;
        int n;
        if (t->sym[s].loc != s || p->at.count[s] != 1 || (n = mbar_exact_values(t, s, &v)) < 0)
            continue;
        for (int i = 0; i < n; i++) mdom_add(&p->dom[p->at.first[s]], v[i]);
        free(v);
        exact[s] = 1;
    }
    int rc = 0;
    for (int iter = 0;; iter++) {
        int used;
        if ((rc = enumerate_all(t, p, lim, observed, &used, err, errlen))) break;
        if (path_cuts(t, p->tt, c)) { rebuild_atoms(t, c, &p->at, &p->dom); iter--; continue; }
        (void)used;   /* the solver reads the domains too (solver/query_terms.c) */
        if (iter > max_writes(t, p->tt)) break;
        if (!add_written_values(t, p, exact)) break;
    }
    if (!rc) rc = check_bar_red_mix(t, p, err, errlen);
    if (!rc && getenv("PTXLITMUS_DEBUG")) {
        int np = 0;
        for (int th = 0; th < t->nth; th++) np += p->tt[th].ntr;
        fprintf(stderr, "debug %s: %d paths, at most %d writes per execution, domains:", t->name,
                np, max_writes(t, p->tt));
        for (int a = 0; a < p->at.n; a++)
            fprintf(stderr, " %s+%d:%d", t->sym[p->at.a[a].loc].name, p->at.a[a].off, p->dom[a].n);
        fprintf(stderr, "; %d terms\n", p->terms.nn);
    }
    for (int s = 0; s < t->nsym; s++) free(c[s].v);
    free(c);
    free(exact);
    for (int th = 0; !rc && th < t->nth; th++) p->bound_hit |= p->tt[th].bound_hit;
    if (rc) mprogram_free(t, p);
    return rc;
}

void mprogram_free(const lit_test *t, mprogram *p)
{
    if (p->tt) for (int th = 0; th < t->nth; th++) traces_free(&p->tt[th]);
    free(p->tt);
    for (int a = 0; a < p->at.n; a++) free(p->dom[a].v);
    free(p->dom);
    free(p->at.a); free(p->at.first); free(p->at.count);
    mt_free(&p->terms);
    memset(p, 0, sizeof *p);
}
