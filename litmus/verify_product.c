/* litmus/verify_product.c — the first decision procedure, kept to cross-check the symbolic one
 * (solver/query.c) until it is retired: one candidate execution per combination of the
 * threads' paths (pruned when a read has no write of its value), each handed to the solver
 * (solver/encode.c + model/ptx.c), which enumerates the final states it reaches.  Mixed-size
 * accesses are refused here. */
#include "litmus/verify_int.h"
#include "solver/encode.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q) abort();
    return q;
}

typedef struct {
    const lit_test *t;
    const verify_opts *o;
    verify_result *r;
    const mthread_traces *tt;
    const mprogram *p;
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
    double deadline;
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
        for (int i = 0; i < d->nloc; i++) if (d->locs[i] == loc) mdom_add(&dm, d->loc_init[i]);
        for (int th = 0; th < t->nth; th++) {
            const mtrace *tr = &d->tt[th].tr[d->choice[th]];
            for (int k = 0; k < tr->nev; k++)
                if ((tr->ev[k].k == EV_W || tr->ev[k].k == EV_RMW) && tr->ev[k].loc == loc) mdom_add(&dm, tr->ev[k].wval);
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
        if (d->enc_uses++ >= 256) { enc_free(&d->e); enc_init(&d->e); d->enc_uses = 1; }
        if (d->deadline) {
            double left = d->deadline - mclock_ms();
            if (left < 1) { d->r->timed_out = 1; d->failed = 1; goto skip; }
            d->e.timeout_ms = (unsigned)left;
        }
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
        int rc = encode_candidate(&d->e, &c, d->memobs_loc, nm, (const int64_t *const *)known, nknown, found_mem, d);
        if (rc < 0) {
            if (d->deadline && mclock_ms() >= d->deadline - 1) r->timed_out = 1;
            else snprintf(r->error, sizeof r->error, "%s:1:1: the solver gave up on a candidate execution, expected a decision", t->file);
            d->failed = 1;
        }
        free(c.ev); free(c.base); free(c.tr);
    }
skip:
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

/* (atom, value) pair as a bit index; locations have one atom here (mixed sizes are refused) */
static int pair_index(const mprogram *p, const int *off, int loc, int64_t v)
{
    int a = p->at.first[loc];
    for (int k = 0; k < p->dom[a].n; k++) if (p->dom[a].v[k] == v) return off[a] + k;
    return -1;
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

int verify_product(const lit_test *t, const verify_opts *o, verify_result *r, const mprogram *p, double deadline,
                   stateset *out)
{
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

    d.p = p;
    d.tt = p->tt;
    int rc = refuse_mixed_sizes(t, d.tt, r);
    if (!rc) {
        int *off = calloc((size_t)(p->at.n ? p->at.n : 1), sizeof *off), np = 0;
        for (int a = 0; a < p->at.n; a++) { off[a] = np; np += p->dom[a].n; }
        int pw = d.pw = (np + 63) / 64 ? (np + 63) / 64 : 1;
        d.need = calloc((size_t)t->nth + 1, sizeof *d.need);
        d.offer = calloc((size_t)t->nth + 1, sizeof *d.offer);
        d.suffix = calloc((size_t)(t->nth + 1) * (size_t)pw, sizeof *d.suffix);
        d.init_pairs = calloc((size_t)pw, sizeof *d.init_pairs);
        d.acc = calloc((size_t)(t->nth + 1) * 2 * (size_t)pw, sizeof *d.acc);
        for (int i = 0; i < d.nloc; i++) {
            int pi = pair_index(p, off, d.locs[i], d.loc_init[i]);
            if (pi >= 0) d.init_pairs[pi / 64] |= 1ull << (pi % 64);
        }
        for (int th = 0; th < t->nth; th++) {
            d.need[th] = calloc((size_t)(d.tt[th].ntr ? d.tt[th].ntr : 1) * (size_t)pw, sizeof **d.need);
            d.offer[th] = calloc((size_t)(d.tt[th].ntr ? d.tt[th].ntr : 1) * (size_t)pw, sizeof **d.offer);
            for (int i = 0; i < d.tt[th].ntr; i++)
                for (int k = 0; k < d.tt[th].tr[i].nev; k++) {
                    const mevent *e = &d.tt[th].tr[i].ev[k];
                    if (ev_reads(e)) {
                        int pi = pair_index(p, off, e->loc, e->rval);
                        d.need[th][(size_t)i * (size_t)pw + (size_t)(pi / 64)] |= 1ull << (pi % 64);
                    }
                    if (e->k == EV_W || e->k == EV_RMW) {
                        int pi = pair_index(p, off, e->loc, e->wval);
                        if (pi >= 0) d.offer[th][(size_t)i * (size_t)pw + (size_t)(pi / 64)] |= 1ull << (pi % 64);
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
        d.deadline = deadline;
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
    free(d.locs); free(d.loc_init); free(d.memobs_loc); free(d.obs_mem);
    if (!rc) {   /* every state; the listing is cut to --states */
        for (int s = 0; s < d.states.n && (o->states < 0 || s < o->states); s++) ss_add(out, &d.states.v[(size_t)s * (size_t)r->nobs]);
        r->nstates_total = d.states.n;
        for (int s = 0; s < d.states.n; s++) {
            int h = verify_state_holds(r, t, &d.states.v[(size_t)s * (size_t)r->nobs]);
            r->has_positive |= h;
            r->has_negative |= !h;
        }
    }
    ss_free(&d.states);
    return rc;
}

