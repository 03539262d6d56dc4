/* model/ptx.c — the PTX memory consistency model, ISA 8.4 chapter 8, one definition per named
 * concept.  Static facts of the candidate (program order, scopes, proxies, patterns) are plain
 * C predicates; relations that depend on the solver's choices (rf, co, Fence-SC order) are
 * solver/rel.h relations, so the definitions below read like the text (compare docs/model.md). */
#include "model/ptx.h"
#include <stdlib.h>
#include <string.h>

const char *model_name(model_kind k)
{
    return k == MODEL_PTX ? "ptx" : k == MODEL_PTX75 ? "ptx-v7.5" : "ptx-v6.0";
}

int model_parse(const char *s, model_kind *k)
{
    if (!strcmp(s, "ptx") || !strcmp(s, "ptx-v8.4")) *k = MODEL_PTX;
    else if (!strcmp(s, "ptx-v7.5")) *k = MODEL_PTX75;
    else if (!strcmp(s, "ptx-v6.0")) *k = MODEL_PTX60;
    else return -1;
    return 0;
}

/* ---------- operation types, §8.4 ---------- */

static int is_mem(const mevent *e) { return ev_mem(e); }
/* read operation: ld and atom, not red */
static int read_op(const mevent *e) { return e->k == EV_R || (e->k == EV_RMW && !e->red); }
/* write operation: st, and atomic operations that result in a write */
static int write_op(const mevent *e) { return e->k == EV_W || e->k == EV_RMW; }
static int memory_fence(const mevent *e) { return e->k == EV_F && (e->fence == FENCE_SC || e->fence == FENCE_ACQ_REL); }
static int fence_sc(const mevent *e) { return e->k == EV_F && e->fence == FENCE_SC; }
static int proxy_fence(const mevent *e) { return e->k == EV_F && e->fence >= FENCE_PROXY_ALIAS; }
static int release_op(const mevent *e) { return e->k != EV_INIT && is_mem(e) && (e->sem == SEM_RELEASE || e->sem == SEM_ACQ_REL); }
static int acquire_op(const mevent *e) { return e->k != EV_INIT && is_mem(e) && (e->sem == SEM_ACQUIRE || e->sem == SEM_ACQ_REL); }
/* strong: a memory fence, or a memory operation with .relaxed .acquire .release .acq_rel
   .volatile or .mmio (the parser maps .volatile/.mmio to relaxed) */
static int strong(const mevent *e)
{
    if (e->k == EV_F) return memory_fence(e);
    return e->k != EV_INIT && is_mem(e) && e->sem != SEM_WEAK;
}

/* ---------- scope, §8.5 ---------- */

static int scope_includes(const candidate *c, const mevent *a, int thread)
{
    const lit_thread *ta = &c->t->th[a->thread], *tb = &c->t->th[thread];
    switch (a->scope) {
    case SCOPE_CTA: return ta->gpu == tb->gpu && ta->cta == tb->cta;
    case SCOPE_CLUSTER: return ta->gpu == tb->gpu && ta->cluster == tb->cluster;
    case SCOPE_GPU: return ta->gpu == tb->gpu;
    case SCOPE_SYS: return 1;
    default: return 0;
    }
}

static int same_cta(const candidate *c, int ta, int tb)
{
    return c->t->th[ta].gpu == c->t->th[tb].gpu && c->t->th[ta].cta == c->t->th[tb].cta;
}

/* ---------- proxies, §8.6 ---------- */

static lit_proxy proxy_of(const mevent *e) { return is_mem(e) ? e->proxy : PROXY_GENERIC; }
/* "using distinct virtual addresses behaves as if using different proxies" */
static int same_proxy(const mevent *a, const mevent *b)
{
    if (proxy_of(a) != proxy_of(b)) return 0;
    if (is_mem(a) && is_mem(b) && a->vaddr != b->vaddr) return 0;
    return 1;
}

/* ---------- program order and locations ---------- */

int ptx_po(const candidate *c, int i, int j)
{
    if (c->po) return c->po[(size_t)i * (size_t)c->n + (size_t)j];
    const mevent *a = &c->ev[i], *b = &c->ev[j];
    return a->k != EV_INIT && b->k != EV_INIT && a->thread == b->thread && a->po < b->po;
}

/* overlapping memory operations (§8.2.1): some byte in common */
static int overlap(const mevent *a, const mevent *b)
{
    return a->loc == b->loc && a->off < b->off + b->size && b->off < a->off + a->size;
}

static int same_loc(const candidate *c, int i, int j)
{
    return is_mem(&c->ev[i]) && is_mem(&c->ev[j]) && overlap(&c->ev[i], &c->ev[j]);
}

/* same address: the same bytes through the same virtual address (§8.2.1 complete overlap) */
static int same_addr(const mevent *a, const mevent *b)
{
    return a->loc == b->loc && a->vaddr == b->vaddr && a->off == b->off && a->size == b->size;
}

/* ---------- morally strong, §8.7 ---------- */

int ptx_morally_strong(const candidate *c, int i, int j)
{
    const mevent *a = &c->ev[i], *b = &c->ev[j];
    if (i == j || a->k == EV_INIT || b->k == EV_INIT) return 0;
    if (!(is_mem(a) || memory_fence(a)) || !(is_mem(b) || memory_fence(b))) return 0;
    int related = a->thread == b->thread ||
        (strong(a) && strong(b) && scope_includes(c, a, b->thread) && scope_includes(c, b, a->thread));
    if (!related) return 0;                                   /* condition 1 */
    if (!same_proxy(a, b)) return 0;                          /* condition 2 */
    if (is_mem(a) && is_mem(b) && (a->loc != b->loc || a->off != b->off || a->size != b->size))
        return 0;                                             /* condition 3: complete overlap */
    return 1;
}

/* ---------- release and acquire patterns, §8.8 ---------- */

/* release_pattern(x, w): x is the first operation of a release pattern on M whose write is w */
static int release_pattern(const candidate *c, int i, int j)
{
    const mevent *x = &c->ev[i], *w = &c->ev[j];
    if (!write_op(w)) return 0;
    if (i == j) return release_op(w);                                            /* 1 */
    if (!ptx_po(c, i, j) || !strong(w)) return 0;
    if (release_op(x) && same_addr(x, w)) return 1;                              /* 2 */
    return memory_fence(x);                                                      /* 3 */
}

/* acquire_pattern(r, y): y is the last operation of an acquire pattern on M whose read is r */
static int acquire_pattern(const candidate *c, int i, int j)
{
    const mevent *r = &c->ev[i], *y = &c->ev[j];
    if (!read_op(r)) return 0;
    if (i == j) return acquire_op(r);                                            /* 1 */
    if (!ptx_po(c, i, j) || !strong(r)) return 0;
    if (acquire_op(y) && is_mem(y) && same_addr(r, y)) return 1;                 /* 2 */
    return memory_fence(y);                                                      /* 3 */
}

/* ---------- barriers, §8.9.4 item 2 and §9.7.12.1 ---------- */

/* Operations on the same barrier: same CTA, same barrier id, same thread count (operand b;
   participants must agree on it, §9.7.12.1), same generation (the barrier is reinitialised
   when it completes, so a thread's k-th use meets the others' k-th use). */
static int same_barrier(const candidate *c, const mevent *a, const mevent *b)
{
    return a->k == EV_BAR && b->k == EV_BAR && a->thread != b->thread && same_cta(c, a->thread, b->thread) &&
           a->bar_id == b->bar_id && a->bar_has_cnt == b->bar_has_cnt && a->bar_cnt == b->bar_cnt &&
           a->bar_gen == b->bar_gen;
}

int ptx_same_barrier(const candidate *c, int i, int j) { return same_barrier(c, &c->ev[i], &c->ev[j]); }

static Z3_ast both_exist(enc *e, const candidate *c, int i, int j)
{
    if (!c->ex) return e->T;
    return b_and(e, c->ex[i], c->ex[j]);
}

void ptx_barrier_sync(const candidate *c, enc *e, rel *bar_sync)
{
    int n = c->n;
    *bar_sync = rel_new(n);
    /* bar.sync/red/arrive synchronizes with bar.sync/red on the same barrier */
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            if (same_barrier(c, &c->ev[i], &c->ev[j]) && c->ev[j].bar != BAR_ARRIVE) rel_set(bar_sync, i, j, both_exist(e, c, i, j));
}

int ptx_barrier_deadlock(const candidate *c)
{
    int n = c->n;
    /* Deadlock: a waiting operation resumes only when every participant has arrived.  Graph:
       event -> its po-successor; arrival -> instance; instance -> successor of each waiter.
       Instances are represented by their lowest-numbered participant (node n + i). */
    int N = 2 * n;
    int *adj = calloc((size_t)N * (size_t)N, sizeof *adj);
    for (int i = 0; i < n; i++) {
        const mevent *a = &c->ev[i];
        if (a->k == EV_INIT) continue;
        if (i + 1 < n && c->ev[i + 1].thread == a->thread && c->ev[i + 1].k != EV_INIT) adj[i * N + i + 1] = 1;
        if (a->k != EV_BAR) continue;
        int rep = i;
        for (int j = 0; j < i; j++) if (same_barrier(c, &c->ev[j], a)) { rep = j; break; }
        adj[i * N + n + rep] = 1;
        if (a->bar != BAR_ARRIVE && i + 1 < n && c->ev[i + 1].thread == a->thread && c->ev[i + 1].k != EV_INIT)
            adj[(n + rep) * N + i + 1] = 1;
    }
    /* cycle detection by iterative DFS with colours */
    int *col = calloc((size_t)N, sizeof *col), *stack = malloc((size_t)N * sizeof *stack), *it = malloc((size_t)N * sizeof *it);
    int cyclic = 0;
    for (int s = 0; s < N && !cyclic; s++) {
        if (col[s]) continue;
        int sp = 0;
        stack[sp] = s; it[sp] = 0; col[s] = 1; sp++;
        while (sp && !cyclic) {
            int v = stack[sp - 1];
            if (it[sp - 1] >= N) { col[v] = 2; sp--; continue; }
            int w = it[sp - 1]++;
            if (!adj[v * N + w]) continue;
            if (col[w] == 1) cyclic = 1;
            else if (!col[w]) { col[w] = 1; stack[sp] = w; it[sp] = 0; sp++; }
        }
    }
    free(col); free(stack); free(it); free(adj);
    return cyclic;
}

/* ---------- helpers over relations ---------- */

typedef struct { const candidate *c; int (*f)(const candidate *, int, int); } pred;
static int pred_call(void *ctx, int i, int j) { pred *p = ctx; return p->f(p->c, i, j); }
static rel rel_of(enc *e, const candidate *c, int (*f)(const candidate *, int, int))
{
    pred p = { c, f };
    rel r = rel_static(c->n, pred_call, &p, e);
    if (c->ex)   /* the symbolic procedure: a pair holds only between existing events */
        for (int i = 0; i < c->n; i++)
            for (int j = 0; j < c->n; j++)
                if (rel_get(&r, i, j)) rel_set(&r, i, j, both_exist(e, c, i, j));
    return r;
}
static int keep_pred(void *ctx, int i, int j) { pred *p = ctx; return p->f(p->c, i, j); }
static rel rel_keep(const candidate *c, const rel *r, int (*f)(const candidate *, int, int))
{
    pred p = { c, f };
    return rel_filter(r, keep_pred, &p);
}

static void assert_ast(enc *e, Z3_solver s, Z3_ast a)
{
    if (a == e->T) return;
    Z3_solver_assert(e->z, s, b_of(e, a));
}

/* acyclic(r): an integer clock per event increasing along every edge */
static void assert_acyclic(enc *e, Z3_solver s, const rel *r, const char *name)
{
    int n = r->n;
    Z3_ast *clk = calloc((size_t)(n ? n : 1), sizeof *clk);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            Z3_ast x = rel_get(r, i, j);
            if (!x) continue;
            if (i == j) { assert_ast(e, s, b_not(e, x)); continue; }
            for (int k = 0; k < 2; k++) {
                int v = k ? j : i;
                if (!clk[v]) clk[v] = Z3_mk_fresh_const(e->z, name, e->intsort);
            }
            Z3_ast lt = Z3_mk_lt(e->z, clk[i], clk[j]);
            assert_ast(e, s, x == e->T ? lt : Z3_mk_implies(e->z, x, lt));
        }
    free(clk);
}

/* ---------- the model ---------- */

static int ext(const candidate *c, int i, int j) { return c->ev[i].thread != c->ev[j].thread; }
static int morally_strong(const candidate *c, int i, int j) { return ptx_morally_strong(c, i, j); }
static int not_self(const candidate *c, int i, int j) { return i != j; }
static int rmw_source(const candidate *c, int i, int j) { return c->ev[i].k == EV_RMW; }
static int loc_pair(const candidate *c, int i, int j) { return same_loc(c, i, j) && c->ev[i].k != EV_INIT && c->ev[j].k != EV_INIT; }
static int po_loc(const candidate *c, int i, int j) { return ptx_po(c, i, j) && same_loc(c, i, j); }

/* Proxy-preserved base causality, §8.9.5, with the mixed-proxy extension: a texture, surface or
   constant access needs a proxy fence of its own proxy, executed in its own CTA, on the
   causality path (after the source access / before the destination access), and aliases need
   an alias proxy fence between them; the three fences in the order source, alias, destination. */
static int direct_ppbc(const candidate *c, int i, int j)
{
    const mevent *x = &c->ev[i], *y = &c->ev[j];
    if (!loc_pair(c, i, j) || x->vaddr != y->vaddr) return 0;
    if (x->proxy == PROXY_GENERIC && y->proxy == PROXY_GENERIC) return 1;             /* 1 */
    return x->proxy == y->proxy && same_cta(c, x->thread, y->thread);                  /* 2 */
}
static int src_fence(const candidate *c, int i, int f)
{
    const mevent *x = &c->ev[i], *pf = &c->ev[f];
    return is_mem(x) && x->k != EV_INIT && x->proxy != PROXY_GENERIC && proxy_fence(pf) &&
           pf->fence == FENCE_PROXY_ALIAS + x->proxy && same_cta(c, x->thread, pf->thread);
}
static int generic_start(const candidate *c, int i, int j)
{
    return i == j && is_mem(&c->ev[i]) && c->ev[i].k != EV_INIT && c->ev[i].proxy == PROXY_GENERIC;
}
static int alias_fence(const candidate *c, int i, int f) { return c->ev[f].k == EV_F && c->ev[f].fence == FENCE_PROXY_ALIAS; }
static int dst_fence(const candidate *c, int f, int j)
{
    const mevent *pf = &c->ev[f], *y = &c->ev[j];
    return proxy_fence(pf) && is_mem(y) && y->k != EV_INIT && y->proxy != PROXY_GENERIC &&
           pf->fence == FENCE_PROXY_ALIAS + y->proxy && same_cta(c, pf->thread, y->thread);
}

static rel proxy_preserved_base_causality(enc *e, const candidate *c, const rel *bc)
{
    int n = c->n;
    rel direct = rel_keep(c, bc, direct_ppbc);
    if (!c->t->uses_proxies) return direct;
    /* start: generic X at itself, or non-generic X at a source-proxy fence of its CTA */
    rel gs = rel_of(e, c, generic_start);
    rel sf = rel_keep(c, bc, src_fence);
    rel after_src = rel_union(e, &gs, &sf);
    rel af_all = rel_keep(c, bc, alias_fence);
    rel after_alias = rel_seq(e, &after_src, &af_all);          /* X .. src .. alias fence */
    rel df = rel_keep(c, bc, dst_fence);                        /* F -> Y, F a fence of Y's proxy */
    rel dchain = rel_seq(e, bc, &df);                           /* .. -> F -> Y */
    rel r1 = rel_seq(e, &after_src, bc), r2 = rel_seq(e, &after_alias, bc);
    rel d1 = rel_seq(e, &after_src, &dchain), d2 = rel_seq(e, &after_alias, &dchain);
    rel out = direct;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            if (!loc_pair(c, i, j) || direct_ppbc(c, i, j)) continue;
            const mevent *x = &c->ev[i], *y = &c->ev[j];
            int need_alias = x->vaddr != y->vaddr, need_dst = y->proxy != PROXY_GENERIC;
            const rel *via = need_alias ? (need_dst ? &d2 : &r2) : (need_dst ? &d1 : &r1);
            rel_set(&out, i, j, rel_get(via, i, j));
        }
    rel_free(&gs); rel_free(&sf); rel_free(&after_src); rel_free(&af_all); rel_free(&after_alias);
    rel_free(&df); rel_free(&dchain); rel_free(&r1); rel_free(&r2); rel_free(&d1); rel_free(&d2);
    return out;
}

void ptx_assert_axioms(enc *e, Z3_solver s, const candidate *c, const rel *rf, const rel *co,
                       const rel *sc, const rel *bar_sync, const rel *fr_in, model_rels *out)
{
    int n = c->n;
    rel po = rel_of(e, c, ptx_po);
    rel ms = rel_of(e, c, morally_strong);

    /* §8.9.7 communication order: fr = rf^-1 ; co (a read before the writes after its source) */
    rel fr;
    if (fr_in) fr = rel_copy(fr_in);
    else {
        rel rfinv = rel_inverse(rf);
        rel fr0 = rel_seq(e, &rfinv, co);
        fr = rel_keep(c, &fr0, not_self);
        rel_free(&rfinv); rel_free(&fr0);
    }

    /* §8.9.2 observation: W -rf-> R morally strong, or through atomic read-modify-writes */
    rel rf_ms = rel_inter(e, rf, &ms);
    rel through = rel_keep(c, &rf_ms, rmw_source);
    rel through_plus = rel_plus(e, &through);
    rel via = rel_seq(e, &rf_ms, &through_plus);
    rel observation = rel_union(e, &rf_ms, &via);
    rel_free(&through); rel_free(&through_plus); rel_free(&via);

    /* §8.9.4 memory synchronization */
    rel rp = rel_of(e, c, release_pattern), ap = rel_of(e, c, acquire_pattern);
    rel rp_obs = rel_seq(e, &rp, &observation);
    rel pat = rel_seq(e, &rp_obs, &ap);
    rel pat_ms = rel_inter(e, &pat, &ms);
    rel sync_pattern = rel_keep(c, &pat_ms, ext);                 /* item 4 */
    rel sync1 = rel_union(e, &sync_pattern, sc);                 /* item 1: Fence-SC order */
    rel sync = rel_union(e, &sync1, bar_sync);                   /* item 2: barriers */
    rel_free(&rp); rel_free(&ap); rel_free(&rp_obs); rel_free(&pat); rel_free(&pat_ms);
    rel_free(&sync_pattern); rel_free(&sync1);

    /* §8.9.5 base causality: (po | synchronizes-with)+ */
    rel po_sync = rel_union(e, &po, &sync);
    rel base_causality = rel_plus(e, &po_sync);
    rel_free(&po_sync);

    /* §8.9.5 causality = ppbc | observation ; ppbc */
    rel ppbc = proxy_preserved_base_causality(e, c, &base_causality);
    rel obs_ppbc = rel_seq(e, &observation, &ppbc);
    rel causality = rel_union(e, &ppbc, &obs_ppbc);
    rel_free(&obs_ppbc);

    /* §8.10.1 Coherence: W -causality-> W' overlapping implies W -co-> W' */
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            if (i == j || !write_op(&c->ev[i]) || !write_op(&c->ev[j]) || !loc_pair(c, i, j)) continue;
            Z3_ast cz = rel_get(&causality, i, j);
            if (cz) assert_ast(e, s, Z3_mk_implies(e->z, b_of(e, cz), b_of(e, rel_get(co, i, j))));
        }

    /* §8.10.2 Fence-SC: Fence-SC order cannot contradict causality order */
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            if (i == j || !fence_sc(&c->ev[i]) || !fence_sc(&c->ev[j]) || !ptx_morally_strong(c, i, j)) continue;
            Z3_ast b = rel_get(&base_causality, i, j);
            if (b) assert_ast(e, s, Z3_mk_implies(e->z, b_of(e, b), b_of(e, rel_get(sc, i, j))));
        }

    /* §8.10.3 Atomicity of RMW: no morally strong write W between the write A reads from and A */
    for (int a = 0; a < n; a++) {
        if (c->ev[a].k != EV_RMW) continue;
        for (int w = 0; w < n; w++) {
            if (w == a || !write_op(&c->ev[w]) || !loc_pair(c, a, w) || !ptx_morally_strong(c, a, w)) continue;
            Z3_ast bad = b_and(e, rel_get(&fr, a, w), rel_get(co, w, a));
            if (bad) assert_ast(e, s, b_not(e, bad));
        }
    }
    /* Single-copy atomicity (§8.10.3) holds by construction: litmus accesses are scalars of one
       size, so a read takes all its bytes from one write. */

    /* §8.10.4 No Thin Air: acyclic(rf | dep) */
    rel dep = rel_new(n);
    if (c->dep) {
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++)
                if (write_op(&c->ev[j])) rel_set(&dep, i, j, rel_get(c->dep, i, j));
    } else for (int t = 0; t < c->t->nth; t++) {
        const mtrace *tr = c->tr[t];
        for (int k = 0; k < tr->ndep; k++) {
            int from = c->base[t] + tr->dep[k].from, to = c->base[t] + tr->dep[k].to;
            if (write_op(&c->ev[to])) rel_set(&dep, from, to, e->T);
        }
    }
    rel rf_dep = rel_union(e, rf, &dep);
    assert_acyclic(e, s, &rf_dep, "nta");
    rel_free(&dep); rel_free(&rf_dep);

    /* §8.10.5 Sequential consistency per location: acyclic(ms & (po_loc | rf | co | fr)) */
    rel pl = rel_of(e, c, po_loc);
    rel u1 = rel_union(e, &pl, rf), u2 = rel_union(e, &u1, co), u3 = rel_union(e, &u2, &fr);
    rel scpl = rel_inter(e, &u3, &ms);
    assert_acyclic(e, s, &scpl, "scpl");
    rel_free(&pl); rel_free(&u1); rel_free(&u2); rel_free(&u3); rel_free(&scpl);

    /* §8.10.6 Causality: irreflexive(causality ; com), com = rf | co | fr.
       An atom is one operation that is both a read and a write (§8.4 Table 17), so under the
       ISA model a read-modify-write R precedes W in causality also through its observation by
       others (causality item 2).  The published ptx-v7.5/ptx-v6.0 models (Dat3M) split an
       atom into a load and a store event; their load precedes others only by proxy-preserved
       base causality.  docs/model.md, "Read-modify-writes", discusses the one public test
       (LB+RMW-a) where the two readings differ. */
    int split_rmw = c->kind != MODEL_PTX;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            Z3_ast cz = rel_get(&causality, i, j);
            if (!cz) continue;
            Z3_ast rfji = rel_get(rf, j, i);
            if (split_rmw && c->ev[i].k == EV_RMW && rfji) {
                Z3_ast bad = b_and(e, rel_get(&ppbc, i, j), rfji);
                if (bad) assert_ast(e, s, b_not(e, bad));
                rfji = NULL;
            }
            Z3_ast com = b_or(e, b_or(e, rfji, rel_get(co, j, i)), rel_get(&fr, j, i));
            Z3_ast bad = b_and(e, cz, com);
            if (bad) assert_ast(e, s, b_not(e, bad));
        }

    rel_free(&ms); rel_free(&rf_ms); rel_free(&observation); rel_free(&ppbc);
    if (out) {
        out->po = po;
        out->rf = rel_copy(rf);
        out->co = rel_copy(co);
        out->fr = fr;
        out->sc = rel_copy(sc);
        out->sync = sync;
        out->base_causality = base_causality;
        out->causality = causality;
    } else {
        rel_free(&po); rel_free(&fr); rel_free(&sync); rel_free(&base_causality); rel_free(&causality);
    }
}

void model_rels_free(model_rels *m)
{
    rel_free(&m->po); rel_free(&m->rf); rel_free(&m->co); rel_free(&m->fr); rel_free(&m->sc);
    rel_free(&m->sync); rel_free(&m->base_causality); rel_free(&m->causality);
}
