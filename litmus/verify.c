/* litmus/verify.c — the verify driver.
 *
 * 1. Value domains: each read may return the initial value or a value some path writes to its
 *    location; computed as a fixpoint over the threads' paths.
 * 2. Per-thread traces (model/traces.c), cut at the unroll bound.
 * 3. Candidate executions: one trace per thread, pruned when a read has no write of its value.
 * 4. Each candidate goes to the solver (solver/encode.c + model/ptx.c), which enumerates the
 *    final states it can reach that are not yet known.
 * 5. The verdict follows herd: exists = some state satisfies the proposition, ~exists = none
 *    does, forall = all do. */
#include "litmus/verify.h"
#include "solver/encode.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void verify_opts_default(verify_opts *o)
{
    o->model = MODEL_PTX;
    o->unroll = 2;
    o->max_events = 200;
    o->max_traces = 20000;
    o->max_candidates = 2000000;
    o->max_states = 100000;
    o->timeout_ms = 0;
    o->graph = NULL;
    o->graph_ctx = NULL;
}

static void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q) abort();
    return q;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* ---------- value domains ---------- */

static int dom_add(mdomain *d, int64_t v)
{
    for (int i = 0; i < d->n; i++) if (d->v[i] == v) return 0;
    d->v = xrealloc(d->v, (size_t)(d->n + 1) * sizeof *d->v);
    d->v[d->n++] = v;
    return 1;
}

/* ---------- state set (open addressing over state vectors) ---------- */

typedef struct {
    int nobs;
    int64_t *v;            /* n x nobs */
    int n, cap;
    int *slot;             /* index+1, 0 = empty */
    int nslot;
} stateset;

static uint64_t hash_state(const int64_t *s, int nobs)
{
    uint64_t h = 1469598103934665603ull;
    for (int i = 0; i < nobs; i++) { h ^= (uint64_t)s[i]; h *= 1099511628211ull; h ^= h >> 29; }
    return h;
}

static int ss_find(const stateset *ss, const int64_t *s)
{
    if (!ss->nslot) return -1;
    uint64_t h = hash_state(s, ss->nobs);
    for (int k = 0; k < ss->nslot; k++) {
        int i = ss->slot[(h + (uint64_t)k) % (uint64_t)ss->nslot];
        if (!i) return -1;
        if (!memcmp(&ss->v[(size_t)(i - 1) * (size_t)ss->nobs], s, (size_t)ss->nobs * sizeof *s)) return i - 1;
    }
    return -1;
}

static void ss_rehash(stateset *ss)
{
    ss->nslot = ss->nslot ? ss->nslot * 2 : 64;
    free(ss->slot);
    ss->slot = calloc((size_t)ss->nslot, sizeof *ss->slot);
    for (int i = 0; i < ss->n; i++) {
        uint64_t h = hash_state(&ss->v[(size_t)i * (size_t)ss->nobs], ss->nobs);
        for (int k = 0;; k++) {
            int *p = &ss->slot[(h + (uint64_t)k) % (uint64_t)ss->nslot];
            if (!*p) { *p = i + 1; break; }
        }
    }
}

static int ss_add(stateset *ss, const int64_t *s)
{
    if (ss_find(ss, s) >= 0) return 0;
    if (ss->n == ss->cap) { ss->cap = ss->cap ? ss->cap * 2 : 16; ss->v = xrealloc(ss->v, (size_t)ss->cap * (size_t)(ss->nobs ? ss->nobs : 1) * sizeof *ss->v); }
    memcpy(&ss->v[(size_t)ss->n * (size_t)ss->nobs], s, (size_t)ss->nobs * sizeof *s);
    ss->n++;
    if (ss->n * 2 > ss->nslot) ss_rehash(ss);
    else {
        uint64_t h = hash_state(s, ss->nobs);
        for (int k = 0;; k++) {
            int *p = &ss->slot[(h + (uint64_t)k) % (uint64_t)ss->nslot];
            if (!*p) { *p = ss->n; break; }
        }
    }
    return 1;
}

/* ---------- the driver ---------- */

typedef struct {
    const lit_test *t;
    const verify_opts *o;
    verify_result *r;
    mthread_traces *tt;
    int nloc;               /* physical locations = symbols owning memory */
    int *locs;              /* physical location ids */
    int64_t *loc_init;
    int nmemobs;            /* distinct observed physical locations */
    int *memobs_loc;
    int *obs_mem;           /* observable -> index in memobs (LOC), -1 for REG */
    stateset states;
    int64_t *cur;           /* state under construction */
    int *choice;            /* trace chosen per thread */
    /* (location, value) pairs as bit indices: what each trace reads and writes */
    int pw;                 /* words per pair bitset */
    uint64_t **need, **offer;   /* per thread, per trace: ntr x pw */
    uint64_t *suffix;       /* (nth+1) x pw: pairs some trace of threads >= i writes */
    uint64_t *init_pairs;   /* pw */
    uint64_t *acc;          /* (nth+1) x 2 x pw: accumulated offer/need per depth */
    enc e;
    int enc_uses;
    int failed;
    long solved;
} driver;

/* The value of a location's raw bits as the condition reads them (its type, §5.2.2). */
static int64_t loc_value(const lit_test *t, int loc, int64_t raw)
{
    return isa_value(t->sym[loc].type, (uint64_t)raw);
}
static int64_t loc_raw(const lit_test *t, int loc, int64_t v)
{
    int n = t->sym[loc].size;
    return n >= 8 ? v : (int64_t)((uint64_t)v & ((1ull << (8 * n)) - 1));
}

static void found_mem(void *ctx, const int64_t *mem)
{
    driver *d = ctx;
    for (int i = 0; i < d->r->nobs; i++)
        if (d->obs_mem[i] >= 0) d->cur[i] = loc_value(d->t, d->r->obs[i].loc, mem[d->obs_mem[i]]);
    ss_add(&d->states, d->cur);   /* all states decide the verdict; --max-states limits the listing */
}

static void solve_candidate(driver *d)
{
    const lit_test *t = d->t;
    verify_result *r = d->r;
    /* register part of the state */
    for (int i = 0; i < r->nobs; i++)
        if (r->obs[i].k == OBS_REG) d->cur[i] = d->tt[r->obs[i].thread].tr[d->choice[r->obs[i].thread]].regs[r->obs[i].reg];
    /* memory values the observed locations could end with; skip if all such states are known */
    int nm = d->nmemobs;
    int64_t **cand = calloc((size_t)(nm ? nm : 1), sizeof *cand);
    int *ncand = calloc((size_t)(nm ? nm : 1), sizeof *ncand);
    for (int m = 0; m < nm; m++) {
        int loc = d->memobs_loc[m];
        mdomain dm = { NULL, 0 };
        for (int i = 0; i < d->nloc; i++) if (d->locs[i] == loc) dom_add(&dm, d->loc_init[i]);
        for (int th = 0; th < t->nth; th++) {
            const mtrace *tr = &d->tt[th].tr[d->choice[th]];
            for (int k = 0; k < tr->nev; k++)
                if ((tr->ev[k].k == EV_W || tr->ev[k].k == EV_RMW) && tr->ev[k].loc == loc) dom_add(&dm, tr->ev[k].wval);
        }
        cand[m] = dm.v; ncand[m] = dm.n;
    }
    /* known states sharing this register part, restricted to candidate memory values */
    const int64_t **known = NULL;
    int nknown = 0;
    long product = 1;
    for (int m = 0; m < nm; m++) { product *= ncand[m]; if (product > 1000000) product = 1000000; }
    for (int s = 0; s < d->states.n; s++) {
        const int64_t *st = &d->states.v[(size_t)s * (size_t)r->nobs];
        int same = 1;
        for (int i = 0; i < r->nobs && same; i++)
            if (r->obs[i].k == OBS_REG && st[i] != d->cur[i]) same = 0;
        if (!same) continue;
        int inside = 1;
        for (int i = 0; i < r->nobs && inside; i++) {
            if (d->obs_mem[i] < 0) continue;
            int m = d->obs_mem[i], hit = 0;
            for (int k = 0; k < ncand[m]; k++) if (loc_value(t, d->memobs_loc[m], cand[m][k]) == st[i]) hit = 1;
            inside = hit;
        }
        if (!inside) continue;
        known = xrealloc(known, (size_t)(nknown + 1) * sizeof *known);
        int64_t *mv = malloc((size_t)(nm ? nm : 1) * sizeof *mv);
        for (int i = 0; i < r->nobs; i++) if (d->obs_mem[i] >= 0) mv[d->obs_mem[i]] = loc_raw(t, r->obs[i].loc, st[i]);
        known[nknown++] = mv;
    }
    /* the known vectors are distinct: when they cover every combination of candidate values,
       this candidate cannot add a state (with no observed location, product is 1) */
    int skip = nknown >= product;
    if (!skip) {
        if (d->enc_uses++ >= 256) { enc_free(&d->e); enc_init(&d->e); d->e.timeout_ms = (unsigned)d->o->timeout_ms; d->enc_uses = 1; }
        /* build the candidate: initial writes, then each thread's events */
        int n = d->nloc;
        for (int th = 0; th < t->nth; th++) n += d->tt[th].tr[d->choice[th]].nev;
        candidate c = { .t = t, .kind = d->o->model, .n = n, .ninit = d->nloc };
        c.ev = calloc((size_t)n, sizeof *c.ev);
        c.base = calloc((size_t)t->nth, sizeof *c.base);
        c.tr = calloc((size_t)t->nth, sizeof *c.tr);
        for (int i = 0; i < d->nloc; i++) {
            mevent *e = &c.ev[i];
            e->k = EV_INIT; e->thread = -1; e->insn = -1; e->loc = d->locs[i]; e->vaddr = d->locs[i];
            e->sym = d->locs[i]; e->wval = d->loc_init[i]; e->proxy = PROXY_GENERIC; e->sem = SEM_WEAK;
            e->off = 0; e->size = t->sym[d->locs[i]].size;
        }
        int at = d->nloc;
        for (int th = 0; th < t->nth; th++) {
            const mtrace *tr = &d->tt[th].tr[d->choice[th]];
            c.base[th] = at;
            c.tr[th] = tr;
            memcpy(&c.ev[at], tr->ev, (size_t)tr->nev * sizeof *tr->ev);
            at += tr->nev;
        }
        d->solved++;
        int rc = encode_candidate(&d->e, &c, d->memobs_loc, nm, (const int64_t *const *)known, nknown, found_mem, d, d->o->graph, d->o->graph_ctx);
        if (rc < 0) {
            snprintf(r->error, sizeof r->error, "%s:1:1: the solver gave up on a candidate execution, expected a decision (limit --timeout)", t->file);
            d->failed = 1;
        }
        free(c.ev); free(c.base); free(c.tr);
    }
    for (int k = 0; k < nknown; k++) free((void *)known[k]);
    free(known);
    for (int m = 0; m < nm; m++) free(cand[m]);
    free(cand); free(ncand);
}

/* Chooses a trace per thread.  A read needs a write of its (location, value) pair: the
   choice so far must be completable (the pair is initial, written by a chosen trace, or
   writable by some trace of a later thread); at the leaf it must be provided. */
static void combine(driver *d, int th)
{
    const lit_test *t = d->t;
    if (d->failed) return;
    int pw = d->pw;
    uint64_t *offer = &d->acc[(size_t)th * 2 * (size_t)pw], *need = offer + pw;
    if (th == t->nth) {
        for (int w = 0; w < pw; w++)
            if (need[w] & ~(offer[w] | d->init_pairs[w])) return;
        if (++d->r->candidates > d->o->max_candidates) {
            snprintf(d->r->error, sizeof d->r->error, "%s:1:1: found more than %ld candidate executions, expected at most %ld (limit --max-candidates; lower --unroll)",
                     t->file, d->o->max_candidates, d->o->max_candidates);
            d->failed = 1;
            return;
        }
        solve_candidate(d);
        return;
    }
    uint64_t *noffer = offer + 2 * pw, *nneed = noffer + pw;
    const uint64_t *later = &d->suffix[(size_t)(th + 1) * (size_t)pw];
    for (int i = 0; i < d->tt[th].ntr && !d->failed; i++) {
        const uint64_t *to = &d->offer[th][(size_t)i * (size_t)pw], *tn = &d->need[th][(size_t)i * (size_t)pw];
        int ok = 1;
        for (int w = 0; w < pw; w++) {
            noffer[w] = offer[w] | to[w];
            nneed[w] = need[w] | tn[w];
            if (nneed[w] & ~(noffer[w] | later[w] | d->init_pairs[w])) { ok = 0; break; }
        }
        if (!ok) continue;
        d->choice[th] = i;
        combine(d, th + 1);
    }
}

static int pair_index(const mdomain *dom, const int *off, int loc, int64_t v)
{
    for (int k = 0; k < dom[loc].n; k++) if (dom[loc].v[k] == v) return off[loc] + k;
    return -1;
}

static int cmp_state(const void *a, const void *b, void *nobs)
{
    const int64_t *x = a, *y = b;
    for (int i = 0; i < *(int *)nobs; i++) if (x[i] != y[i]) return x[i] < y[i] ? -1 : 1;
    return 0;
}

static void add_obs(verify_result *r, const lit_test *t, const cond_ref *ref)
{
    observable o = { 0 };
    if (ref->k == REF_REG) { o.k = OBS_REG; o.thread = ref->thread; o.reg = ref->reg; }
    else { o.k = OBS_LOC; o.sym = ref->sym; o.loc = t->sym[ref->sym].loc; }
    o.type = ref->type;
    for (int i = 0; i < r->nobs; i++)
        if (r->obs[i].k == o.k && (o.k == OBS_REG ? (r->obs[i].thread == o.thread && r->obs[i].reg == o.reg) : r->obs[i].loc == o.loc)) return;
    o.name = strdup(ref->k == REF_REG ? ref->name : t->sym[ref->sym].name);
    if (!o.name) abort();
    r->obs = xrealloc(r->obs, (size_t)(r->nobs + 1) * sizeof *r->obs);
    r->obs[r->nobs++] = o;
}

static void add_obs_cb(void *ctx, const cond_ref *ref)
{
    void **p = ctx;
    add_obs(p[0], p[1], ref);
}

static int obs_order(const void *a, const void *b)
{
    const observable *x = a, *y = b;
    if (x->k != y->k) return x->k == OBS_REG ? -1 : 1;
    if (x->k == OBS_REG && x->thread != y->thread) return x->thread - y->thread;
    return strcmp(x->name, y->name);
}

static int64_t state_val(void *ctx, const cond_ref *ref)
{
    void **p = ctx;
    const verify_result *r = p[0];
    const int64_t *st = p[1];
    if (ref->k == REF_CONST) return ref->val;
    for (int i = 0; i < r->nobs; i++) {
        const observable *o = &r->obs[i];
        if (ref->k == REF_REG && o->k == OBS_REG && o->thread == ref->thread && o->reg == ref->reg) return st[i];
        if (ref->k == REF_LOC && o->k == OBS_LOC && o->loc == r->test->sym[ref->sym].loc) return st[i];
    }
    return 0;
}

/* Accesses that name only part of a location (mixed sizes, ISA §8.2.1 partial overlap) need a
   byte-precise reads-from, which this engine does not encode: such tests are refused. */
static int refuse_mixed_sizes(const lit_test *t, const mthread_traces *tt, verify_result *r)
{
    for (int th = 0; th < t->nth; th++)
        for (int i = 0; i < tt[th].ntr; i++)
            for (int k = 0; k < tt[th].tr[i].nev; k++) {
                const mevent *e = &tt[th].tr[i].ev[k];
                if (!ev_mem(e) || (e->off == 0 && e->size == t->sym[e->loc].size)) continue;
                const lit_insn *in = &t->th[th].ins[e->insn];
                snprintf(r->error, sizeof r->error, "%s:%d:%d: found '%s', which accesses %d of the %d bytes of %s, "
                         "expected accesses of whole locations (mixed-size accesses are not supported by this engine)",
                         t->file, in->line, in->col, in->text, e->size, t->sym[e->loc].size, t->sym[e->loc].name);
                return -1;
            }
    return 0;
}

int verify_test(const lit_test *t, const verify_opts *o, verify_result *r)
{
    double t0 = now_ms();
    memset(r, 0, sizeof *r);
    r->file = strdup(t->file);
    r->name = strdup(t->name);
    r->quant = t->quant;
    r->test = t;
    cond_print(t->cond, r->condition, sizeof r->condition);
    /* model features */
    if (o->model != MODEL_PTX && t->uses_cluster) {
        snprintf(r->error, sizeof r->error, "%s:1:1: found the .cluster scope or a cluster placement, expected none under model %s (clusters arrived in PTX ISA 7.8)", t->file, model_name(o->model));
        r->time_ms = now_ms() - t0;
        return -1;
    }
    if (o->model == MODEL_PTX60 && t->uses_proxies) {
        snprintf(r->error, sizeof r->error, "%s:1:1: found a proxy (alias, texture, surface, constant or fence.proxy), expected none under model ptx-v6.0 (use --model ptx or ptx-v7.5)", t->file);
        r->time_ms = now_ms() - t0;
        return -1;
    }
    /* observables: the condition's registers and locations, then `locations [...]` */
    void *pc[2] = { r, (void *)t };
    cond_foreach_ref(t->cond, add_obs_cb, pc);
    for (int i = 0; i < t->nlocations; i++) add_obs(r, t, &t->locations[i]);
    qsort(r->obs, (size_t)r->nobs, sizeof *r->obs, obs_order);

    driver d = { .t = t, .o = o, .r = r };
    d.states.nobs = r->nobs;
    /* physical locations and their initial values */
    for (int s = 0; s < t->nsym; s++) {
        if (t->sym[s].loc != s) continue;
        d.locs = xrealloc(d.locs, (size_t)(d.nloc + 1) * sizeof *d.locs);
        d.loc_init = xrealloc(d.loc_init, (size_t)(d.nloc + 1) * sizeof *d.loc_init);
        d.locs[d.nloc] = s;
        d.loc_init[d.nloc] = t->sym[s].init;
        d.nloc++;
    }
    d.obs_mem = malloc((size_t)(r->nobs ? r->nobs : 1) * sizeof *d.obs_mem);
    for (int i = 0; i < r->nobs; i++) {
        d.obs_mem[i] = -1;
        if (r->obs[i].k != OBS_LOC) continue;
        int m = -1;
        for (int k = 0; k < d.nmemobs; k++) if (d.memobs_loc[k] == r->obs[i].loc) m = k;
        if (m < 0) { d.memobs_loc = xrealloc(d.memobs_loc, (size_t)(d.nmemobs + 1) * sizeof *d.memobs_loc); d.memobs_loc[d.nmemobs] = r->obs[i].loc; m = d.nmemobs++; }
        d.obs_mem[i] = m;
    }

    /* value domains: fixpoint over the threads' paths */
    mdomain *dom = calloc((size_t)(t->nsym ? t->nsym : 1), sizeof *dom);
    for (int i = 0; i < d.nloc; i++) dom_add(&dom[d.locs[i]], d.loc_init[i]);
    mlimits lim = { o->unroll, o->max_events, o->max_traces };
    d.tt = calloc((size_t)(t->nth ? t->nth : 1), sizeof *d.tt);
    int rc = 0;
    for (int iter = 0;; iter++) {
        int changed = 0;
        for (int th = 0; th < t->nth && !rc; th++) {
            traces_free(&d.tt[th]);
            unsigned char *observed = calloc((size_t)(t->th[th].nregs ? t->th[th].nregs : 1), 1);
            for (int i = 0; i < r->nobs; i++)
                if (r->obs[i].k == OBS_REG && r->obs[i].thread == th) observed[r->obs[i].reg] = 1;
            if (traces_enumerate(t, th, dom, &lim, observed, &d.tt[th], r->error, sizeof r->error)) rc = -1;
            free(observed);
        }
        if (rc) break;
        /* A value in an execution is produced by a chain of at most W writes, W the most write
           events a candidate can have (the sum of the threads' longest write counts); round k
           adds the values of chains of length k, so after W rounds (the traces re-enumerated
           with the final domain) every value an execution can contain is in the domain.
           Without this bound, read-modify-writes would grow the domain forever. */
        int wmax = 0;
        for (int th = 0; th < t->nth; th++) {
            int m = 0;
            for (int i = 0; i < d.tt[th].ntr; i++) {
                int w = 0;
                for (int k = 0; k < d.tt[th].tr[i].nev; k++) w += d.tt[th].tr[i].ev[k].k == EV_W || d.tt[th].tr[i].ev[k].k == EV_RMW;
                if (w > m) m = w;
            }
            wmax += m;
        }
        if (iter > wmax) break;
        for (int th = 0; th < t->nth; th++)
            for (int i = 0; i < d.tt[th].ntr; i++)
                for (int k = 0; k < d.tt[th].tr[i].nev; k++) {
                    const mevent *e = &d.tt[th].tr[i].ev[k];
                    if (e->k == EV_W || e->k == EV_RMW) changed |= dom_add(&dom[e->loc], e->wval);
                }
        if (!changed) break;
        for (int l = 0; l < t->nsym; l++)
            if (dom[l].n > 256) {
                snprintf(r->error, sizeof r->error, "%s:1:1: found more than 256 possible values for location %s, expected a bounded value domain (lower --unroll)", t->file, t->sym[l].name);
                rc = -1;
            }
        if (rc) break;
    }
    if (!rc) rc = refuse_mixed_sizes(t, d.tt, r);
    if (!rc) {
        for (int th = 0; th < t->nth; th++) r->bound_reached |= d.tt[th].bound_hit;
        int *off = calloc((size_t)(t->nsym ? t->nsym : 1), sizeof *off), np = 0;
        for (int l = 0; l < t->nsym; l++) { off[l] = np; np += dom[l].n; }
        int pw = d.pw = (np + 63) / 64 ? (np + 63) / 64 : 1;
        d.need = calloc((size_t)t->nth + 1, sizeof *d.need);
        d.offer = calloc((size_t)t->nth + 1, sizeof *d.offer);
        d.suffix = calloc((size_t)(t->nth + 1) * (size_t)pw, sizeof *d.suffix);
        d.init_pairs = calloc((size_t)pw, sizeof *d.init_pairs);
        d.acc = calloc((size_t)(t->nth + 1) * 2 * (size_t)pw, sizeof *d.acc);
        for (int i = 0; i < d.nloc; i++) {
            int p = pair_index(dom, off, d.locs[i], d.loc_init[i]);
            if (p >= 0) d.init_pairs[p / 64] |= 1ull << (p % 64);
        }
        for (int th = 0; th < t->nth; th++) {
            d.need[th] = calloc((size_t)(d.tt[th].ntr ? d.tt[th].ntr : 1) * (size_t)pw, sizeof **d.need);
            d.offer[th] = calloc((size_t)(d.tt[th].ntr ? d.tt[th].ntr : 1) * (size_t)pw, sizeof **d.offer);
            for (int i = 0; i < d.tt[th].ntr; i++)
                for (int k = 0; k < d.tt[th].tr[i].nev; k++) {
                    const mevent *e = &d.tt[th].tr[i].ev[k];
                    if (ev_reads(e)) {
                        int p = pair_index(dom, off, e->loc, e->rval);
                        d.need[th][(size_t)i * (size_t)pw + (size_t)(p / 64)] |= 1ull << (p % 64);
                    }
                    if (e->k == EV_W || e->k == EV_RMW) {
                        int p = pair_index(dom, off, e->loc, e->wval);
                        if (p >= 0) d.offer[th][(size_t)i * (size_t)pw + (size_t)(p / 64)] |= 1ull << (p % 64);
                    }
                }
        }
        for (int th = t->nth - 1; th >= 0; th--)
            for (int w = 0; w < pw; w++) {
                uint64_t any = d.suffix[(size_t)(th + 1) * (size_t)pw + (size_t)w];
                for (int i = 0; i < d.tt[th].ntr; i++) any |= d.offer[th][(size_t)i * (size_t)pw + (size_t)w];
                d.suffix[(size_t)th * (size_t)pw + (size_t)w] = any;
            }
        free(off);
        d.cur = calloc((size_t)(r->nobs ? r->nobs : 1), sizeof *d.cur);
        d.choice = calloc((size_t)(t->nth ? t->nth : 1), sizeof *d.choice);
        enc_init(&d.e);
        d.e.timeout_ms = (unsigned)o->timeout_ms;
        int any = 1;
        for (int th = 0; th < t->nth; th++) if (!d.tt[th].ntr) any = 0;
        if (any) combine(&d, 0);
        enc_free(&d.e);
        if (d.failed) rc = -1;
        for (int th = 0; th < t->nth; th++) { free(d.need[th]); free(d.offer[th]); }
        free(d.need); free(d.offer); free(d.suffix); free(d.init_pairs); free(d.acc);
        free(d.cur); free(d.choice);
    }
    r->solved = d.solved;
    for (int th = 0; th < t->nth; th++) traces_free(&d.tt[th]);
    free(d.tt);
    for (int l = 0; l < t->nsym; l++) free(dom[l].v);
    free(dom);
    free(d.locs); free(d.loc_init); free(d.memobs_loc); free(d.obs_mem);

    if (!rc) {
        r->nstates = d.states.n;
        r->states = d.states.v;
        d.states.v = NULL;
        if (r->nstates && r->nobs) qsort_r(r->states, (size_t)r->nstates, (size_t)r->nobs * sizeof *r->states, cmp_state, &r->nobs);
        r->holds = calloc((size_t)(r->nstates ? r->nstates : 1), 1);
        for (int s = 0; s < r->nstates; s++) {
            void *ctx[2] = { r, &r->states[(size_t)s * (size_t)r->nobs] };
            r->holds[s] = (unsigned char)cond_eval(t->cond, state_val, ctx);
            if (r->holds[s]) r->positive++; else r->negative++;
        }
        r->nstates_total = r->nstates;
        if (r->nstates > o->max_states) {   /* list the first states only; counts and verdict use all */
            r->nstates = o->max_states;
            r->states_truncated = 1;
        }
        switch (t->quant) {
        case COND_EXISTS: r->validated = r->positive > 0; break;
        case COND_NOT_EXISTS: r->validated = r->positive == 0; break;
        case COND_FORALL: r->validated = r->negative == 0; break;
        }
        r->ok = 1;
    }
    free(d.states.v);
    free(d.states.slot);
    r->time_ms = now_ms() - t0;
    return rc;
}

int verify_file(const char *path, const verify_opts *o, verify_result *r)
{
    char err[1024];
    lit_test *t = lit_parse_file(path, err, sizeof err);
    if (!t) {
        memset(r, 0, sizeof *r);
        r->file = strdup(path);
        snprintf(r->error, sizeof r->error, "%s", err);
        return -1;
    }
    int rc = verify_test(t, o, r);
    r->test = NULL;
    lit_free(t);
    return rc;
}

void verify_result_free(verify_result *r)
{
    for (int i = 0; i < r->nobs; i++) free(r->obs[i].name);
    free(r->file); free(r->name); free(r->obs); free(r->states); free(r->holds);
    memset(r, 0, sizeof *r);
}

const char *verify_observation(const verify_result *r)
{
    if (r->positive == 0) return "Never";
    if (r->negative == 0) return "Always";
    return "Sometimes";
}

void verify_value_str(const verify_result *r, int obs, int64_t v, char *buf, size_t len)
{
    if (r->test) {
        int s = lit_addr_sym(r->test, v);
        if (s >= 0) { snprintf(buf, len, "%s", r->test->sym[s].name); return; }
    }
    isa_type t = obs >= 0 && obs < r->nobs ? r->obs[obs].type : ISA_T_NONE;
    if (isa_type_bits(t) == 64 && !isa_type_is_signed(t) && !isa_type_is_float(t))
        snprintf(buf, len, "%llu", (unsigned long long)v);
    else snprintf(buf, len, "%lld", (long long)v);
}
