/* kcheck/consist.c — is an execution graph consistent with the model?
 *
 * The graph's communicating events become the events of one litmus execution: the initial
 * write of each location that some thread writes and another thread accesses, the reads and
 * writes of every thread on those locations (an atomic as a read and a write related by rmw),
 * and those threads' fences and barrier operations.  Accesses of one thread only, read-only
 * memory and the events of threads that touch neither cannot be part of a cycle, a race or a
 * synchronization between threads: they are left out (the reductions of docs/check.md).  The
 * base sets and relations are model/base.c's (the same definitions `verify` uses, over a
 * universe of one path per thread); rf, co and fr come from the graph, syncbar from the
 * barrier phases the executor counted, Fence-SC order from each order of the fence.sc events
 * in turn (the model needs one that works), addr/data/ctrl are empty (the graphs are
 * porf-acyclic by construction, which No-Thin-Air asks).  The cat model is evaluated over these
 * constants by solver/cat_eval.c: every check folds to true or false without a solver. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/alloc.h"
#include "kcheck/kpc.h"
#include "model/base.h"
#include "model/bundled.h"
#include "solver/cat_base.h"
#include "solver/cat_eval.h"
#include "ptx/opcodes.h"

#define MAX_SC 256      /* fence.sc events of one execution that communicate */
#define MAX_SC_SOLVE 12 /* ... whose order the solver may be asked for */
#define MAX_GROUPS 6    /* fence instructions whose orders are all tried (6! = 720) */

struct kcons {
    enc e;
    cat_model *cm;
    cat_prog *prog;
    int has_race;
    kpcs *P;
    const kgraph *g;
    /* the universe of the last graph */
    int n, ninit;
    mevent *ev;
    kref *ref;
    int *parent, *rmw_part, *rmw_pair, *npaths;
    unsigned char *po;
    muniverse u;
    lit_test t;
    int *uthread;              /* graph thread -> universe thread, -1 */
    int *uloc;                 /* graph location -> universe location (symbol), -1 */
    rel rf, co, fr, sc, syncbar;
    rset *bset;
    rel *brel;
    int solved;                /* solver calls of this context */
    int fsc_known;             /* the model is a bundled one (fence_sc_axiom names its axiom) */
    const char *force;         /* per graph location: in the universe whatever it is (reports) */
};

/* ---------------------------------------------------------------- the engine */
static int kb_value(void *ctx, int id, int n, cat_value *out)
{
    kcons *c = ctx;
    const base_def *d = &base_defs[id];
    if (n == 0) { out->kind = d->kind == BASE_SET ? CAT_SET : CAT_REL; return 0; }
    if (d->origin == BASE_DYNAMIC) {
        static const char *const dyn[] = { "rf", "co", "fr", "sync_fence", "syncbar" };
        rel *r[] = { &c->rf, &c->co, &c->fr, &c->sc, &c->syncbar };
        out->kind = CAT_REL;
        for (int k = 0; k < 5; k++)
            if (!strcmp(d->name, dyn[k])) { out->rel = *r[k]; return 0; }
        if (!c->brel[id].m) c->brel[id] = rel_new(n);   /* addr, data, ctrl: none */
        out->rel = c->brel[id];
        return 0;
    }
    if (d->kind == BASE_SET) {
        rset *s = &c->bset[id];
        if (!s->v) {
            *s = rset_new(n);
            for (int i = 0; i < n; i++) if (d->set(&c->u, i)) s->v[i] = c->e.T;
        }
        out->kind = CAT_SET;
        out->set = *s;
        return 0;
    }
    rel *r = &c->brel[id];
    if (!r->m) {
        *r = rel_new(n);
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++)
                if (d->rel(&c->u, i, j)) rel_set(r, i, j, c->e.T);
    }
    out->kind = CAT_REL;
    out->rel = *r;
    return 0;
}

static const cat_engine kengine = { cat_base_lookup, cat_base_names, kb_value };

/* ---------------------------------------------------------------- setup */
kcons *kcons_new(const char *file, const char *text, kpcs *P, int bundled, char *err,
                 size_t errlen)
{
    kcons *c = xcalloc(1, sizeof *c);
    c->P = P;
    c->fsc_known = bundled;
    enc_init(&c->e);
    const char *search[] = { CAT_BUILTIN };
    cat_set_builtins(model_bundled, model_nbundled);
    /* the model's data-race relation (§8.7.1), raised as a flag of every execution */
    size_t len = strlen(text);
    char *plus = xmalloc(len + 64);
    snprintf(plus, len + 64, "%s\nflag ~empty data-race as data-race\n", text);
    for (int pass = 0; pass < 2 && !c->prog; pass++) {
        c->cm = cat_load_text_prelude(file, pass ? text : plus, search, 1, "stdlib.cat", err,
                                      errlen);
        if (!c->cm) break;
        c->prog = cat_link(c->cm, &kengine, c, err, errlen);
        if (!c->prog) { cat_free(c->cm); c->cm = NULL; }
        else c->has_race = !pass;
    }
    free(plus);
    if (!c->prog) { kcons_free(c); return NULL; }
    c->bset = xcalloc((size_t)base_ndefs, sizeof *c->bset);
    c->brel = xcalloc((size_t)base_ndefs, sizeof *c->brel);
    return c;
}

static void drop_universe(kcons *c)
{
    for (int i = 0; i < base_ndefs; i++) { rset_free(&c->bset[i]); rel_free(&c->brel[i]); }
    rel_free(&c->rf); rel_free(&c->co); rel_free(&c->fr); rel_free(&c->sc);
    rel_free(&c->syncbar);
    for (int t = 0; t < c->t.nth; t++) {
        free(c->t.th[t].ins); free(c->t.th[t].name); free(c->t.th[t].order);
    }
    for (int s = 0; s < c->t.nsym; s++) free(c->t.sym[s].name);
    free(c->t.th); free(c->t.sym);
    memset(&c->t, 0, sizeof c->t);
    free(c->ev); free(c->ref); free(c->parent); free(c->rmw_part); free(c->rmw_pair);
    free(c->npaths); free(c->po); free(c->uthread); free(c->uloc);
    c->ev = NULL; c->ref = NULL; c->parent = c->rmw_part = c->rmw_pair = c->npaths = NULL;
    c->po = NULL; c->uthread = c->uloc = NULL;
    c->n = 0;
}

void kcons_free(kcons *c)
{
    if (!c) return;
    if (c->bset) drop_universe(c);
    free(c->bset); free(c->brel);
    cat_prog_free(c->prog);
    cat_free(c->cm);
    enc_free(&c->e);
    free(c);
}


void kcons_force(kcons *c, const char *force) { c->force = force; }

/* ---------------------------------------------------------------- the universe */
/* locations some thread writes and another accesses; the threads with events on them */
static void relevant(kcons *c, const kgraph *g, int *nloc, int *nth)
{
    int *first = xmalloc((size_t)(g->nloc + 1) * sizeof *first);
    char *multi = xcalloc((size_t)g->nloc + 1, 1), *written = xcalloc((size_t)g->nloc + 1, 1);
    char *proxies = xcalloc((size_t)g->nloc + 1, 1);   /* bit 1 a thread, 2 an async operation */
    for (int l = 0; l < g->nloc; l++) first[l] = -1;
    for (int t = 0; t < g->nth; t++)
        for (int i = 0; i < g->nev[t]; i++) {
            const kev *e = &g->ev[t][i];
            if ((e->kind != KE_R && e->kind != KE_W) || e->loc < 0) continue;
            if (first[e->loc] < 0) first[e->loc] = t;
            else if (first[e->loc] != t) multi[e->loc] = 1;
            /* an asynchronous operation is performed apart from its thread (§8.9.1.1): its
               accesses and the thread's are of two accessors */
            proxies[e->loc] |= (char)(c->P->kind[e->pc] == PTX_K_BULK ? 2 : 1);
            if (proxies[e->loc] == 3) multi[e->loc] = 1;
            if (e->kind == KE_W) written[e->loc] = 1;
        }
    c->uloc = xmalloc((size_t)(g->nloc + 1) * sizeof *c->uloc);
    c->uthread = xmalloc((size_t)(g->nth + 1) * sizeof *c->uthread);
    *nloc = 0;
    for (int l = 0; l < g->nloc; l++)
        c->uloc[l] = (multi[l] && written[l] && !(c->force && c->force[l] == 2)) ||
                             (c->force && c->force[l] == 1)
                         ? (*nloc)++
                         : -1;
    *nth = 0;
    for (int t = 0; t < g->nth; t++) {
        int rel = 0;
        for (int i = 0; i < g->nev[t] && !rel; i++)
            rel = g->ev[t][i].loc >= 0 && c->uloc[g->ev[t][i].loc] >= 0 &&
                  (g->ev[t][i].kind == KE_R || g->ev[t][i].kind == KE_W);
        c->uthread[t] = rel ? (*nth)++ : -1;
    }
    free(first); free(multi); free(written); free(proxies);
}

static int included(const kcons *c, const kev *e)
{
    if (e->kind == KE_F || (e->kind == KE_BAR && e->bmode != KB_WSYNC)) return 1;
    return (e->kind == KE_R || e->kind == KE_W) && e->loc >= 0 && c->uloc[e->loc] >= 0;
}

/* the asynchronous operation graph event (t, i) belongs to: the index of its first event (the
   events of one bulk copy are consecutive, at one pc: chunks read and written, the proxy
   fence, the complete-tx's read and write) */
static int ends_copy(const kev *a, const kev *b)
{
    return (a->kind == KE_W && (a->flags & KF_ATOM)) ||
           (a->kind == KE_F && !(b->kind == KE_R && (b->flags & KF_ATOM)));
}

static int async_instance(const kgraph *g, int t, int i)
{
    while (i > 0 && g->ev[t][i - 1].pc == g->ev[t][i].pc &&
           !ends_copy(&g->ev[t][i - 1], &g->ev[t][i]))
        i--;
    return i;
}

/* §8.9.1.1: an asynchronous operation's events follow the thread's earlier instructions and
   precede later ones only through a completion, not in program order (as the litmus front
   end's async_order): th->order over the thread's events, when it has such events */
static void async_program_order(lit_thread *th)
{
    int n = th->nins, any = 0;
    for (int k = 0; k < n; k++) any |= th->ins[k].async_id > 0;
    if (!any) return;
    th->order = xcalloc((size_t)n * (size_t)n + 1, 1);
    for (int x = 0; x < n; x++)
        for (int y = x + 1; y < n; y++) {
            int a = th->ins[x].async_id, b = th->ins[y].async_id;
            th->order[(size_t)x * (size_t)n + (size_t)y] = (unsigned char)(!a || a == b);
        }
}

/* the event of graph event e (thread ut of the universe, position po) */
static mevent to_mevent(kcons *c, const kgraph *g, const kev *e, int ut, int po)
{
    mevent m = { .thread = ut, .po = po, .insn = po, .sym = -1, .loc = -1, .vaddr = -1 };
    const kpc *kp = e->kind == KE_BAR && e->bmode < KB_CARRIVE ? NULL : kpc_get(c->P, e->pc);
    const kpc_role *k = kp ? kpc_role_of(kp, c->P->kind[e->pc], e) : NULL;
    if (k) { m.sem = k->sem; m.scope = k->scope; m.mbar = k->mbar; }
    if (e->kind == KE_R || e->kind == KE_W) {
        m.k = e->kind == KE_R ? EV_R : EV_W;
        m.sym = m.loc = m.vaddr = c->uloc[e->loc];
        m.size = e->size;
        m.rval = e->kind == KE_R ? (int64_t)e->val : 0;
        m.wval = e->kind == KE_W ? (int64_t)e->val : 0;
        m.atomic = !!(e->flags & KF_ATOM);
        m.red = !!(e->flags & KF_RED);
        if (k) { m.proxy = k->proxy; m.mmio = k->mmio; }
        m.fspace = e->space == KSP_GLOBAL ? SPACE_GLOBAL
                   : e->space == KSP_SHARED ? SPACE_SHARED_CTA : SPACE_SHARED_CLUSTER;
        return m;
    }
    if (e->kind == KE_F) {
        m.k = EV_F;
        if (k) { m.fence = k->fence; m.restrict_ = k->restrict_; m.uni = k->uni; m.fspace = k->fspace; }
        return m;
    }
    m.k = EV_BAR;
    static const lit_bar kinds[] = { BAR_SYNC, BAR_ARRIVE, BAR_CARRIVE, BAR_CWAIT };
    m.bar = kinds[e->bmode];
    m.bar_gen = (int)e->gen;
    if (e->bmode >= KB_CARRIVE) {
        m.bar_id = e->bmode == KB_CARRIVE ? -1 : -2;
        m.scope = SCOPE_CLUSTER;
    } else {
        m.bar_id = e->bar; m.bar_has_cnt = 1; m.bar_cnt = 1;
        m.sem = SEM_WEAK; m.scope = SCOPE_CTA;
    }
    (void)g;
    return m;
}

static void grow(kcons *c, int *cap)
{
    *cap = *cap ? 2 * *cap : 64;
    c->ev = xrealloc(c->ev, (size_t)*cap * sizeof *c->ev);
    c->ref = xrealloc(c->ref, (size_t)*cap * sizeof *c->ref);
}

/* the events, the fake test's threads and symbols, program order, rmw */
static void build_events(kcons *c, const kgraph *g, int nloc, int nth)
{
    int cap = 0;
    c->t.nth = nth;
    c->t.th = xcalloc((size_t)(nth ? nth : 1), sizeof *c->t.th);
    c->t.nsym = nloc;
    c->t.sym = xcalloc((size_t)(nloc ? nloc : 1), sizeof *c->t.sym);
    for (int l = 0; l < g->nloc; l++) {
        int s = c->uloc[l];
        if (s < 0) continue;
        if (c->n == cap) grow(c, &cap);
        c->ev[c->n] = (mevent){ .k = EV_INIT, .thread = -1, .insn = -1, .sym = s, .loc = s,
                                .vaddr = s, .size = (int)g->loc[l].size,
                                .wval = (int64_t)g->loc[l].init };
        c->ref[c->n++] = (kref){ -1, l };
        lit_sym *y = &c->t.sym[s];
        y->loc = y->vaddr = s; y->size = (int)g->loc[l].size; y->owner = -1;
        y->shared = (g->loc[l].key & KLOC_SHARED) != 0;
    }
    c->ninit = c->n;
    for (int t = 0; t < g->nth; t++) {
        int ut = c->uthread[t];
        if (ut < 0) continue;
        lit_thread *th = &c->t.th[ut];
        th->cta = g->cta[t]; th->cluster = g->cluster[t]; th->gpu = 0; th->has_cluster = 1;
        th->ins = xcalloc((size_t)g->nev[t] + 1, sizeof *th->ins);
        for (int i = 0; i < g->nev[t]; i++) {
            const kev *e = &g->ev[t][i];
            if (!included(c, e)) continue;
            if (c->n == cap) grow(c, &cap);
            int po = th->nins++;
            c->ev[c->n] = to_mevent(c, g, e, ut, po);
            const kpc *kp = e->kind == KE_BAR ? NULL : kpc_get(c->P, e->pc);
            const kpc_role *k = kp ? kpc_role_of(kp, c->P->kind[e->pc], e) : NULL;
            th->ins[po].volatile_ = k ? k->volatile_ : 0;
            th->ins[po].async_id = k && k->async ? 1 + async_instance(g, t, i) : 0;
            th->ins[po].text = (char *)c->P->text[e->pc];
            c->ref[c->n++] = (kref){ t, i };
        }
        async_program_order(th);
    }
    int n = c->n;
    c->parent = xmalloc((size_t)(n + 1) * sizeof(int));
    c->rmw_part = xcalloc((size_t)n + 1, sizeof(int));
    c->rmw_pair = xmalloc((size_t)(n + 1) * sizeof(int));
    c->npaths = xmalloc((size_t)(n + 1) * sizeof(int));
    c->po = xcalloc((size_t)n * (size_t)n + 1, 1);
    for (int i = 0; i < n; i++) {
        c->parent[i] = i > c->ninit && c->ev[i - 1].thread == c->ev[i].thread ? i - 1 : -1;
        c->rmw_pair[i] = -1;
        c->npaths[i] = 1;
        for (int a = c->parent[i]; a >= 0; a = c->parent[a]) c->po[(size_t)a * n + i] = 1;
    }
    for (int i = c->ninit; i + 1 < n; i++) {
        const kev *e = kg_ev(g, c->ref[i]);
        if (e->kind == KE_R && (e->flags & KF_PAIR) && c->ref[i + 1].t == c->ref[i].t &&
            c->ref[i + 1].i == c->ref[i].i + 1) {
            c->rmw_part[i] = 1; c->rmw_part[i + 1] = 2;
            c->rmw_pair[i] = i + 1; c->rmw_pair[i + 1] = i;
        }
    }
    muniverse *u = &c->u;
    memset(u, 0, sizeof *u);
    u->t = &c->t; u->split_rmw = 1; u->ev = c->ev; u->n = n; u->ninit = c->ninit;
    u->parent = c->parent; u->rmw_part = c->rmw_part; u->rmw_pair = c->rmw_pair;
    u->npaths = c->npaths; u->po = c->po; u->nth = nth;
}

/* the universe index of graph event r (-1: not in it) */
static int index_of(const kcons *c, kref r)
{
    if (r.t < 0) {
        for (int i = 0; i < c->ninit; i++) if (c->ref[i].i == r.i) return i;
        return -1;
    }
    for (int i = c->ninit; i < c->n; i++) if (kref_eq(c->ref[i], r)) return i;
    return -1;
}

/* rf, co, fr from the graph; syncbar from the barrier phases */
static void build_relations(kcons *c, const kgraph *g)
{
    int n = c->n;
    enc *e = &c->e;
    c->rf = rel_new(n); c->co = rel_new(n); c->fr = rel_new(n); c->syncbar = rel_new(n);
    int *order = xmalloc((size_t)(n + 1) * sizeof *order);
    for (int l = 0; l < g->nloc; l++) {
        if (c->uloc[l] < 0) continue;
        int k = 0;
        order[k++] = index_of(c, (kref){ -1, l });
        for (int j = 0; j < g->loc[l].nco; j++) order[k++] = index_of(c, g->loc[l].co[j]);
        for (int a = 0; a < k; a++)
            for (int b = a + 1; b < k; b++) rel_set(&c->co, order[a], order[b], e->T);
        for (int i = c->ninit; i < n; i++) {
            const kev *r = kg_ev(g, c->ref[i]);
            if (r->kind != KE_R || r->loc != l) continue;
            int w = r->rf.t < 0 ? order[0] : index_of(c, r->rf), pos = 0;
            rel_set(&c->rf, w, i, e->T);
            while (pos < k && order[pos] != w) pos++;
            for (int b = pos + 1; b < k; b++) rel_set(&c->fr, i, order[b], e->T);
        }
    }
    free(order);
    for (int i = c->ninit; i < n; i++)
        for (int j = c->ninit; j < n; j++) {
            const mevent *a = &c->ev[i], *b = &c->ev[j];
            if (a->k != EV_BAR || b->k != EV_BAR || a->thread == b->thread) continue;
            int holds;
            if (a->bar_id < 0 || b->bar_id < 0) holds = base_syncbar_static(&c->u, i, j);
            else
                holds = c->t.th[a->thread].cta == c->t.th[b->thread].cta &&
                        a->bar_id == b->bar_id && a->bar_gen == b->bar_gen && b->bar == BAR_SYNC;
            if (holds) rel_set(&c->syncbar, i, j, e->T);
        }
}

/* ---------------------------------------------------------------- deciding */
/* Fence-SC order from the permutation perm of the fence.sc events f[0..k): morally strong
   pairs ordered as perm says, same-thread pairs as program order, transitively */
static void fence_order(kcons *c, const int *f, const int *perm, int k)
{
    rel_free(&c->sc);
    c->sc = rel_new(c->n);
    for (int a = 0; a < k; a++)
        for (int b = a + 1; b < k; b++) {
            int i = f[perm[a]], j = f[perm[b]];
            if (c->ev[i].thread == c->ev[j].thread || base_same_scope(&c->u, i, j))
                rel_set(&c->sc, i, j, c->e.T);
        }
    rel p = rel_plus(&c->e, &c->sc);
    rel_free(&c->sc);
    c->sc = p;
}

/* the flags of an evaluation (m: the solver's model, NULL when constant) into v */
static int flags(kcons *c, const cat_result *res, Z3_model m, kverdict *v, char *err, size_t errlen)
{
    v->nflags = 0;
    v->race = 0;
    for (int i = 0; i < res->n; i++) {
        const cat_check *ch = &res->v[i];
        if (!ch->flag && !ch->undefined_unless) continue;
        int h = m ? cat_check_holds(&c->e, m, ch) : cat_check_concrete(&c->e, ch);
        if (h < 0) { snprintf(err, errlen, "internal: flag %s not decided", ch->name); return -1; }
        if (!h) continue;
        if (!strcmp(ch->name, "data-race") && c->has_race) {
            v->race = 1;
            for (int k = 0; k < c->n * c->n; k++) {
                Z3_ast x = ch->r.m[k], y;
                if (!x) continue;
                if (x != c->e.T && (!m || !Z3_model_eval(c->e.z, m, x, true, &y) ||
                                    Z3_get_bool_value(c->e.z, y) != Z3_L_TRUE))
                    continue;
                v->race_a = c->ref[k / c->n];
                v->race_b = c->ref[k % c->n];
                break;
            }
        } else if (v->nflags < 4)
            snprintf(v->flags[v->nflags++], sizeof v->flags[0], "%s", ch->name);
    }
    return 0;
}

/* one evaluation with constant relations: 1 consistent (flags into v), 0 not, -1 error */
static int evaluate(kcons *c, kverdict *v, char *err, size_t errlen)
{
    cat_result res;
    if (cat_eval(c->prog, &c->e, c->n, c, NULL, &res, err, errlen)) return -1;
    int ok = 1;
    for (int i = 0; i < res.n && ok >= 0; i++) {
        const cat_check *ch = &res.v[i];
        if (ch->flag || ch->undefined_unless) continue;
        int h = cat_check_concrete(&c->e, ch);
        if (h < 0) { snprintf(err, errlen, "internal: check %s is not constant", ch->name); ok = -1; }
        else if (!h && ok) {
            ok = 0;
            snprintf(v->failed, sizeof v->failed, "%s", ch->name);
            if (getenv("KCHECK_DEBUG"))
                for (int q = 0; q < c->n * c->n; q++)
                    if (ch->r.m[q] && (ch->kind != CAT_IRREFLEXIVE || q / c->n == q % c->n))
                        fprintf(stderr, "  %s: (%d.%d %d.%d)\n", ch->name, c->ref[q / c->n].t,
                                c->ref[q / c->n].i, c->ref[q % c->n].t, c->ref[q % c->n].i);
        }
    }
    if (ok > 0 && flags(c, &res, NULL, v, err, errlen)) ok = -1;
    cat_result_free(&res);
    return ok;
}

/* Fence-SC order as the solver's choice: a total order of the k fence.sc events f[] (an integer
   position each; program order within a thread), of which the model sees the morally strong
   pairs, transitively.  Any partial order the model would accept (solver/query.c's encoding:
   acyclic, total on morally strong pairs) extends to such a total order, and the closure of its
   morally strong pairs is within the partial order, which can only help every check but the
   one asking Fence-SC order to contain causality, which it also meets.  1 consistent, 0 not,
   -1 error */
static int decide_fence_sc(kcons *c, const int *f, int k, kverdict *v, char *err, size_t errlen)
{
    enc *e = &c->e;
    Z3_solver s = enc_solver(e);
    Z3_ast *pos = xcalloc((size_t)k + 1, sizeof *pos);
    for (int a = 0; a < k; a++) {
        char nm[32];
        snprintf(nm, sizeof nm, "fsc%d", a);
        pos[a] = Z3_mk_const(e->z, Z3_mk_string_symbol(e->z, nm), e->intsort);
    }
    rel ms = rel_new(c->n);   /* the morally strong pairs, oriented by the positions */
    for (int a = 0; a < k; a++)
        for (int b = 0; b < k; b++) {
            int i = f[a], j = f[b];
            if (a == b) continue;
            if (c->ev[i].thread == c->ev[j].thread) {
                if (upo(&c->u, i, j)) {
                    rel_set(&ms, i, j, e->T);
                    Z3_solver_assert(e->z, s, Z3_mk_lt(e->z, pos[a], pos[b]));
                }
                continue;
            }
            if (base_same_scope(&c->u, i, j)) rel_set(&ms, i, j, Z3_mk_lt(e->z, pos[a], pos[b]));
        }
    if (k > 1) Z3_solver_assert(e->z, s, Z3_mk_distinct(e->z, (unsigned)k, pos));
    rel_free(&c->sc);
    c->sc = rel_plus(e, &ms);
    rel_free(&ms);
    free(pos);
    cat_result res;
    cat_eval_opts opts = { .background = s };
    int ok = -1;
    if (!cat_eval(c->prog, e, c->n, c, &opts, &res, err, errlen)) {
        cat_assert_checks(e, s, &res);
        Z3_lbool r = Z3_solver_check(e->z, s);
        ok = r == Z3_L_TRUE ? 1 : r == Z3_L_FALSE ? 0 : -1;
        if (ok < 0) snprintf(err, errlen, "internal: the solver gave no answer on Fence-SC order");
        if (ok > 0) {
            Z3_model m = Z3_solver_get_model(e->z, s);
            Z3_model_inc_ref(e->z, m);
            if (flags(c, &res, m, v, err, errlen)) ok = -1;
            Z3_model_dec_ref(e->z, m);
        }
        cat_result_free(&res);
    }
    Z3_solver_dec_ref(e->z, s);
    return ok;
}

/* the next permutation of p[0..k) (lexicographic); 0 after the last */
static int next_perm(int *p, int k)
{
    int i = k - 2;
    while (i >= 0 && p[i] > p[i + 1]) i--;
    if (i < 0) return 0;
    int j = k - 1;
    while (p[j] < p[i]) j--;
    int x = p[i]; p[i] = p[j]; p[j] = x;
    for (int a = i + 1, b = k - 1; a < b; a++, b--) { x = p[a]; p[a] = p[b]; p[b] = x; }
    return 1;
}

/* fence f[] sorted by stamp into ord[] */
static void by_stamp(kcons *c, const kgraph *g, const int *f, int k, int *ord)
{
    for (int i = 0; i < k; i++) ord[i] = i;
    for (int i = 1; i < k; i++)
        for (int j = i; j > 0 && kg_ev(g, c->ref[f[ord[j]]])->stamp <
                                     kg_ev(g, c->ref[f[ord[j - 1]]])->stamp; j--) {
            int x = ord[j]; ord[j] = ord[j - 1]; ord[j - 1] = x;
        }
}

/* the fences f[0..k) in an order that extends po | rf | co | fr (Kahn's algorithm over the
   events, the earliest-added ready event first): an execution that is sequentially consistent
   is consistent with the Fence-SC order its communication shows (every fence.sc pair then
   synchronizes along that order, and causality stays within it).  1 when that relation is
   acyclic (the order into ord), 0 when not */
static int by_communication(kcons *c, const kgraph *g, const int *f, int k, int *ord)
{
    int n = c->n, *indeg = xcalloc((size_t)n, sizeof *indeg), *done = xcalloc((size_t)n, sizeof *done);
#define COM_EDGE(a, b) ((a) != (b) && (c->po[(size_t)(a) * n + (b)] || \
        (c->rf.m && c->rf.m[(size_t)(a) * n + (b)]) || (c->co.m && c->co.m[(size_t)(a) * n + (b)]) || \
        (c->fr.m && c->fr.m[(size_t)(a) * n + (b)])))
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++) indeg[b] += COM_EDGE(a, b);
    int placed = 0, nf = 0;
    while (placed < n) {
        int best = -1;
        for (int i = 0; i < n; i++)   /* initial writes first, then by stamp */
            if (!done[i] && !indeg[i] &&
                (best < 0 || (best >= c->ninit && (i < c->ninit ||
                     kg_ev(g, c->ref[i])->stamp < kg_ev(g, c->ref[best])->stamp))))
                best = i;
        if (best < 0) break;   /* a cycle */
        done[best] = 1;
        placed++;
        for (int b = 0; b < n; b++) indeg[b] -= COM_EDGE(best, b);
        for (int j = 0; j < k; j++) if (f[j] == best) ord[nf++] = j;
    }
#undef COM_EDGE
    free(indeg); free(done);
    return placed == n && nf == k;
}

/* Fence-SC orders that keep together the fences one warp instruction executed for its lanes
   at once (consecutive stamps, one pc, one warp), in lane order: every order of these groups
   in turn, when there are at most MAX_GROUPS of them.  1 some order is consistent, 0 none is,
   2 too many groups */
static int fence_sc_groups(kcons *c, const kgraph *g, const int *f, int k, kverdict *v,
                           char *err, size_t errlen)
{
    int ord[MAX_SC], start[MAX_SC + 1], ng = 0;
    by_stamp(c, g, f, k, ord);
    for (int i = 0; i < k; i++) {
        const kev *e = kg_ev(g, c->ref[f[ord[i]]]);
        const kev *p = i ? kg_ev(g, c->ref[f[ord[i - 1]]]) : NULL;
        int t = c->ref[f[ord[i]]].t, pt = i ? c->ref[f[ord[i - 1]]].t : -1;
        if (!p || p->pc != e->pc || e->stamp != p->stamp + 1 || t / 32 != pt / 32) start[ng++] = i;
    }
    start[ng] = k;
    if (ng > MAX_GROUPS) return 2;
    int gp[MAX_GROUPS], perm[MAX_SC];
    for (int i = 0; i < ng; i++) gp[i] = i;
    int first = 1;
    do {
        if (first) { first = 0; continue; }   /* the stamp order: tried already */
        int n = 0;
        for (int a = 0; a < ng; a++)
            for (int i = start[gp[a]]; i < start[gp[a] + 1]; i++) perm[n++] = ord[i];
        fence_order(c, f, perm, k);
        int r = evaluate(c, v, err, errlen);
        if (r) return r;
    } while (next_perm(gp, ng));
    snprintf(v->failed, sizeof v->failed, "Fence-SC order (no order of the fence instructions)");
    return 0;
}

/* whether a check of the model other than the Fence-SC axiom fails with the current sc: 1 it
   does (its name into v->failed), 0 none does, -1 error */
static int others_fail(kcons *c, kverdict *v, char *err, size_t errlen);

/* Fence-SC order as c->sc: the pairs a before b of fences f[] that before[a * k + b] says,
   those of morally strong pairs and of one thread, transitively */
static void fence_pairs(kcons *c, const int *f, int k, const unsigned char *before)
{
    rel_free(&c->sc);
    c->sc = rel_new(c->n);
    for (int a = 0; a < k; a++)
        for (int b = 0; b < k; b++)
            if (before[a * k + b] &&
                (c->ev[f[a]].thread == c->ev[f[b]].thread || base_same_scope(&c->u, f[a], f[b])))
                rel_set(&c->sc, f[a], f[b], c->e.T);
    rel p = rel_plus(&c->e, &c->sc);
    rel_free(&c->sc);
    c->sc = p;
}

/* Fence-SC order by propagation (bundled models): every check but the Fence-SC axiom only
   gets harder with more of the order (fence_sc_axiom), so a pair of fences of two threads
   whose one order alone (with program order and the pairs already forced) fails such a check
   must be in the other order; both failing: no order is consistent (0).  When every pair is
   forced, or the forced pairs extended by the order of addition give a consistent order: 1.
   Else 2 (undecided) */
static int fence_sc_forced(kcons *c, const kgraph *g, const int *f, int k, kverdict *v,
                           char *err, size_t errlen)
{
    if (!c->fsc_known) return 2;
    unsigned char *bf = xcalloc((size_t)k * (size_t)k, 1);
    int r = 2, changed = 1, ord[MAX_SC];
    for (int a = 0; a < k; a++)
        for (int b = a + 1; b < k; b++)
            if (c->ev[f[a]].thread == c->ev[f[b]].thread) bf[a * k + b] = 1;
    while (changed && r == 2) {
        changed = 0;
        for (int a = 0; a < k && r == 2; a++)
            for (int b = a + 1; b < k && r == 2; b++) {
                if (bf[a * k + b] || bf[b * k + a] || !base_same_scope(&c->u, f[a], f[b]))
                    continue;
                int bad[2];
                for (int d = 0; d < 2 && r == 2; d++) {
                    int x = d ? b : a, y = d ? a : b;
                    bf[x * k + y] = 1;
                    fence_pairs(c, f, k, bf);
                    bf[x * k + y] = 0;
                    bad[d] = others_fail(c, v, err, errlen);
                    if (bad[d] < 0) r = -1;
                }
                if (r != 2) break;
                if (bad[0] && bad[1]) r = 0;
                else if (bad[0] || bad[1]) {
                    if (bad[0]) bf[b * k + a] = 1; else bf[a * k + b] = 1;
                    /* transitively */
                    for (int m = 0; m < k; m++)
                        for (int i = 0; i < k; i++)
                            for (int j = 0; j < k; j++)
                                if (bf[i * k + m] && bf[m * k + j]) bf[i * k + j] = 1;
                    changed = 1;
                }
            }
    }
    if (r == 2) {   /* complete the forced pairs by the order of addition */
        by_stamp(c, g, f, k, ord);
        int *pos = xcalloc((size_t)k, sizeof *pos), *placed = xcalloc((size_t)k, sizeof *placed);
        for (int n = 0; n < k; n++) {
            int pick = -1;
            for (int q = 0; q < k && pick < 0; q++) {
                int x = ord[q], ready = !placed[x];
                for (int y = 0; y < k && ready; y++) ready = placed[y] || !bf[y * k + x];
                if (ready) pick = x;
            }
            if (pick < 0) break;
            placed[pick] = 1;
            pos[n] = pick;
        }
        fence_order(c, f, pos, k);
        int e = evaluate(c, v, err, errlen);
        if (e) r = e;
        free(pos); free(placed);
    }
    free(bf);

    return r;
}

/* the names of the check that asks Fence-SC order to contain causality in the bundled
   models: the only one that sync_fence makes easier to hold (every other check, through sync,
   causality and sync_fence, only gets harder with more of it) */
static int fence_sc_axiom(const char *name)
{
    return !strcmp(name, "Fence-SC") || !strcmp(name, "axiom-FenceSC");
}

/* Fence-SC order without the solver: the order the fences were added in (which the exploration
   makes agree with communication most of the time) is consistent: 1; with no order between the
   threads' fences a check other than the Fence-SC axiom fails (bundled models): no order can
   help, 0; else 2 (the solver decides) */
static int others_fail(kcons *c, kverdict *v, char *err, size_t errlen)
{
    cat_result res;
    if (cat_eval(c->prog, &c->e, c->n, c, NULL, &res, err, errlen)) return -1;
    int r = 0;
    for (int i = 0; i < res.n && !r; i++) {
        const cat_check *ch = &res.v[i];
        if (ch->flag || ch->undefined_unless || fence_sc_axiom(ch->name)) continue;
        if (cat_check_concrete(&c->e, ch) == 0) {
            snprintf(v->failed, sizeof v->failed, "%s", ch->name);
            r = 1;
        }
    }
    cat_result_free(&res);
    return r;
}

static int fence_sc_cheap(kcons *c, const kgraph *g, const int *f, int k, kverdict *v,
                          char *err, size_t errlen)
{
    int perm[MAX_SC];
    by_stamp(c, g, f, k, perm);
    fence_order(c, f, perm, k);
    int r = evaluate(c, v, err, errlen), com[MAX_SC];
    if (r) return r;
    if (by_communication(c, g, f, k, com) && memcmp(com, perm, (size_t)k * sizeof *com)) {
        fence_order(c, f, com, k);
        if ((r = evaluate(c, v, err, errlen))) return r;
    }
    if (!c->fsc_known) return 2;
    rel_free(&c->sc);   /* program order only */
    c->sc = rel_new(c->n);
    for (int a = 0; a < k; a++)
        for (int b = a + 1; b < k; b++)
            if (c->ev[f[a]].thread == c->ev[f[b]].thread) rel_set(&c->sc, f[a], f[b], c->e.T);
    r = others_fail(c, v, err, errlen);
    return r < 0 ? -1 : r ? 0 : 2;
}

int kcons_check(kcons *c, const kgraph *g, kverdict *v, char *err, size_t errlen)
{
    memset(v, 0, sizeof *v);
    drop_universe(c);
    if (c->solved >= 256) {   /* the solver's terms are kept by its context: a new one */
        enc_free(&c->e);
        enc_init(&c->e);
        c->solved = 0;
    }
    c->g = g;
    int nloc, nth;
    relevant(c, g, &nloc, &nth);
    build_events(c, g, nloc, nth);
    build_relations(c, g);
    int f[MAX_SC], k = 0, threads = 0;
    for (int i = c->ninit; i < c->n; i++)
        if (base_fence_sc(&c->u, i)) {
            if (k == MAX_SC) {
                snprintf(err, errlen, "more than %d fence.sc events communicate in one execution",
                         MAX_SC);
                return -1;
            }
            threads += !k || c->ev[f[k - 1]].thread != c->ev[i].thread;
            f[k++] = i;
        }
    int r;
    if (threads < 2) {   /* program order is the Fence-SC order */
        int perm[MAX_SC];
        for (int i = 0; i < k; i++) perm[i] = i;
        fence_order(c, f, perm, k);
        r = evaluate(c, v, err, errlen);
    } else if ((r = fence_sc_cheap(c, g, f, k, v, err, errlen)) != 2) {
        /* decided by the order the fences were added in, or by no order at all */
    } else if ((r = fence_sc_forced(c, g, f, k, v, err, errlen)) != 2) {
        /* decided by the pairs whose one order alone fails */
    } else if ((r = fence_sc_groups(c, g, f, k, v, err, errlen)) != 2) {
        /* decided by the orders of the warps' fence instructions */
    } else {
        if (k > MAX_SC_SOLVE) {
            snprintf(err, errlen, "%d fence.sc events of several threads communicate in one "
                     "execution, from more than %d fence instructions of warps, and neither the "
                     "order of their addition nor their absence decides the Fence-SC order; at "
                     "most %d are ordered by the solver", k, MAX_GROUPS, MAX_SC_SOLVE);
            return -1;
        }
        c->solved++;
        r = decide_fence_sc(c, f, k, v, err, errlen);
        if (!r) snprintf(v->failed, sizeof v->failed, "Fence-SC order (no order works)");
    }
    if (r < 0) return -1;
    v->consistent = r;
    return 0;
}

lit_test *kcons_test(kcons *c) { return &c->t; }

static void table(mexecution *x, const char *name, const rel *r)
{
    unsigned char *m = mexecution_add(x, name);
    for (int k = 0; k < x->n * x->n; k++) m[k] = r->m && r->m[k] != NULL;
}

void kcons_export(kcons *c, mexecution *x, const kref **ref)
{
    memset(x, 0, sizeof *x);
    x->t = &c->t;
    x->n = c->n;
    x->ninit = c->ninit;
    x->ev = xcalloc((size_t)c->n + 1, sizeof *x->ev);
    memcpy(x->ev, c->ev, (size_t)c->n * sizeof *x->ev);
    unsigned char *po = mexecution_add(x, "po");
    memcpy(po, c->po, (size_t)c->n * (size_t)c->n);
    table(x, "rf", &c->rf);
    table(x, "co", &c->co);
    table(x, "fr", &c->fr);
    table(x, "sc", &c->sc);
    *ref = c->ref;
}
