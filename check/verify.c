/* check/verify.c — the verify driver.
 *
 * 1. The observables: the condition's registers and locations, then `locations [...]`.
 * 2. The program (model/program.c): atoms, value domains, every thread's complete paths.
 * 3. The symbolic query finds the reachable final states (verify_query.c: one solver problem
 *    per test, the paths chosen by the solver).
 * 4. The verdict follows herd: exists = some state satisfies the proposition, ~exists = none
 *    does, forall = all do. */
#include "check/verify_int.h"
#include "solver/query.h"
#include "base/alloc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void verify_opts_default(verify_opts *o)
{
    memset(o, 0, sizeof *o);
    o->model = MODEL_PTX;
    o->cat = NULL;
    o->model_label = NULL;
    o->unroll = 2;
    o->max_events = 200;
    o->max_traces = 20000;
    o->states = 1000;
    o->timeout_s = 0;
    o->max_memory = (size_t)4 << 30;
    o->graph = NULL;
    o->explain = 0;
    o->graph_show = VERIFY_SHOW_WITNESS;
    o->graph_ctx = NULL;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
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
        if (r->obs[i].k == o.k &&
            (o.k == OBS_REG ? (r->obs[i].thread == o.thread && r->obs[i].reg == o.reg)
                            : r->obs[i].loc == o.loc))
            return;
    o.name = xstrdup(ref->k == REF_REG ? ref->name : t->sym[ref->sym].name);
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

int verify_test(const lit_test *t, const verify_opts *o, verify_result *r)
{
    double t0 = now_ms();
    memset(r, 0, sizeof *r);
    r->file = xstrdup(t->file);
    r->name = xstrdup(t->name);
    r->quant = t->quant;
    r->test = t;
    cond_print(t->cond, r->condition, sizeof r->condition);
    if (t->filter) cond_print(t->filter, r->filter, sizeof r->filter);
    /* a bundled model of an older ISA refuses what that ISA did not have */
    if (!o->cat && !model_has_cluster(o->model) && t->uses_cluster) {
        snprintf(r->error, sizeof r->error,
                 "%s:1:1: found the .cluster scope or a cluster placement, expected none under "
                 "model %s (clusters arrived in PTX ISA 7.8)",
                 t->file, model_name(o->model));
        r->time_ms = now_ms() - t0;
        return -1;
    }
    if (!o->cat && !model_has_cluster(o->model) && t->uses_async) {
        snprintf(r->error, sizeof r->error,
                 "%s:1:1: found an mbarrier, barrier.cluster, asynchronous or newer fence "
                 "instruction, expected none under model %s (they are in --model ptx only)",
                 t->file, model_name(o->model));
        r->time_ms = now_ms() - t0;
        return -1;
    }
    if (!o->cat && !model_has_proxies(o->model) && t->uses_proxies) {
        snprintf(r->error, sizeof r->error,
                 "%s:1:1: found a proxy (alias, texture, surface, constant or fence.proxy), "
                 "expected none under model %s (use --model ptx or ptx-v7.5)",
                 t->file, model_name(o->model));
        r->time_ms = now_ms() - t0;
        return -1;
    }
    /* observables: the condition's registers and locations, then `locations [...]` */
    void *pc[2] = { r, (void *)t };
    cond_foreach_ref(t->cond, add_obs_cb, pc);
    if (t->filter) cond_foreach_ref(t->filter, add_obs_cb, pc);
    for (int i = 0; i < t->nlocations; i++) add_obs(r, t, &t->locations[i]);
    if (r->nobs) qsort(r->obs, (size_t)r->nobs, sizeof *r->obs, obs_order);

    /* the program: which registers the condition observes, then atoms, domains, paths */
    unsigned char **observed = xcalloc((size_t)(t->nth ? t->nth : 1), sizeof *observed);
    for (int th = 0; th < t->nth; th++) {
        observed[th] = xcalloc((size_t)(t->th[th].nregs ? t->th[th].nregs : 1), 1);
        for (int i = 0; i < r->nobs; i++)
            if (r->obs[i].k == OBS_REG && r->obs[i].thread == th) observed[th][r->obs[i].reg] = 1;
    }
    mlimits lim = { o->unroll, o->max_events, o->max_traces,
                    o->timeout_s > 0 ? mclock_ms() + o->timeout_s * 1e3 : 0, 0,
                    verify_semantics(o), o->max_memory };
    query_set_memory_limit(o->max_memory);
    mprogram prog;
    double tp = mclock_ms();
    verify_progress vp = { 0 };
    progress_ticker *tick = o->progress ? progress_start(t->name, &vp) : NULL;
    int rc = mprogram_build(t, &lim, observed, &prog, r->error, sizeof r->error);
    if (getenv("PTXLITMUS_DEBUG"))
        fprintf(stderr, "debug %s: paths enumerated in %.1f ms\n", t->name, mclock_ms() - tp);
    stateset states = { .nobs = r->nobs };
    if (rc == -2) r->timed_out = 1;
    if (rc == -3) r->timed_out = r->out_of_memory = 1;
    if (!rc) {
        r->bound_reached = prog.bound_hit;
        for (int th = 0; th < t->nth; th++) vp.paths += prog.tt[th].ntr;
        rc = verify_query(t, o, r, &prog, lim.deadline, &states, &vp);
        mprogram_free(t, &prog);
    }
    if (!rc && o->liveness) {   /* the same program with its never-ending paths */
        lim.liveness = 1;
        vp.phase = PROG_LIVENESS;
        rc = mprogram_build(t, &lim, observed, &prog, r->error, sizeof r->error);
        if (rc == -2) r->timed_out = 1;
        if (rc == -3) r->timed_out = r->out_of_memory = 1;
        if (!rc) {
            rc = verify_liveness(t, o, r, &prog, lim.deadline);
            mprogram_free(t, &prog);
        }
    }
    progress_stop(tick);
    for (int th = 0; th < t->nth; th++) free(observed[th]);
    free(observed);
    if (!rc) {
        r->nstates = states.n;
        if (r->nstates_total >= 0 && r->nstates_total < r->nstates) r->nstates_total = r->nstates;
        r->states = states.v;
        states.v = NULL;
        if (r->nstates && r->nobs)
            qsort_r(r->states, (size_t)r->nstates, (size_t)r->nobs * sizeof *r->states, cmp_state,
                    &r->nobs);
        r->holds = xcalloc((size_t)(r->nstates ? r->nstates : 1), 1);
        for (int s = 0; s < r->nstates; s++) {
            const int64_t *st = &r->states[(size_t)s * (size_t)r->nobs];
            r->holds[s] = (unsigned char)verify_state_holds(r, t, st);
            if (r->holds[s]) r->positive++; else r->negative++;
        }
        /* every state listed, or a cut list with a witness of each side (verify_query.c
           add_witnesses): the counts must agree with the direct questions */
        {
            if ((r->positive > 0) != r->has_positive || (r->negative > 0) != r->has_negative) {
                snprintf(r->error, sizeof r->error,
                         "%s:1:1: internal error: the states and the direct queries disagree",
                         t->file);
                rc = -1;
            }
        }
        switch (t->quant) {
        case COND_EXISTS: r->validated = r->has_positive; break;
        case COND_NOT_EXISTS: r->validated = !r->has_positive; break;
        case COND_FORALL: r->validated = !r->has_negative; break;
        }
        r->vacuous = !r->has_positive && !r->has_negative;
        r->ok = !rc;
    }
    ss_free(&states);
    r->time_ms = now_ms() - t0;
    if (r->out_of_memory) {
        char sz[32];
        size_t m = o->max_memory;
        if (m >= (1u << 30) && !(m & ((1u << 30) - 1))) snprintf(sz, sizeof sz, "%zuG", m >> 30);
        else if (m >= (1u << 20) && !(m & ((1u << 20) - 1)))
            snprintf(sz, sizeof sz, "%zuM", m >> 20);
        else if (m >= 1024 && !(m & 1023)) snprintf(sz, sizeof sz, "%zuK", m >> 10);
        else snprintf(sz, sizeof sz, "%zu", m);
        snprintf(r->error, sizeof r->error,
                 "%s:1:1: found a test that needs more than %s bytes of memory, expected a "
                 "decision within the limit (--max-memory %s)",
                 t->file, sz, sz);
    }
    else if (r->timed_out)
        snprintf(r->error, sizeof r->error,
                 "%s:1:1: found a test that needs more than %g s, expected a decision within "
                 "the limit (--timeout %g)",
                 t->file, o->timeout_s, o->timeout_s);
    return rc ? -1 : 0;
}

int verify_file(const char *path, const verify_opts *o, verify_result *r)
{
    char err[1024];
    lit_test *t = lit_parse_file(path, err, sizeof err);
    if (!t) {
        memset(r, 0, sizeof *r);
        r->file = xstrdup(path);
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
    for (int i = 0; i < r->nflags; i++) free(r->flags[i]);
    for (int i = 0; i < r->nviolated; i++) free(r->violated[i]);
    free(r->flags); free(r->violated); free(r->hangs);
    free(r->file); free(r->name); free(r->obs); free(r->states); free(r->holds);
    memset(r, 0, sizeof *r);
}

int verify_unknown(const verify_result *r)
{
    if (r->timed_out) return 1;
    if (!r->ok || !r->bound_reached) return 0;
    /* a state found within the bound is reachable: only a claim of absence is cut short */
    return r->quant == COND_FORALL ? !r->has_negative : !r->has_positive;
}

const char *verify_verdict(const verify_result *r)
{
    return verify_unknown(r) ? "Unknown" : r->validated ? "Ok" : "No";
}

const char *verify_observation(const verify_result *r)
{
    if (r->timed_out || (r->bound_reached && (!r->has_positive || !r->has_negative)))
        return "Unknown";   /* Never/Always are claims of absence */
    if (!r->has_positive) return "Never";
    if (!r->has_negative) return "Always";
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
