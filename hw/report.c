/* hw/report.c — holding what the GPU showed against the model.  Each observed final state is
 * looked up among the states `verify_test` finds reachable: found, it is allowed; not found,
 * it is forbidden (a soundness alarm) unless the model's state list was cut (--max-states) or a
 * loop bound was reached, in which case it is unknown.  Values are compared at the width the
 * GPU holds them (registers and locations of 8, 16, 32 or 64 bits). */
#include "hw/hw_int.h"
#include <stdlib.h>
#include <string.h>

static uint64_t mask_of(int bytes) { return bytes >= 8 ? ~0ull : (1ull << (8 * bytes)) - 1; }

/* Index of plan observable k among verify's observables, -1 if absent. */
static int model_index(const hw_plan *p, const verify_result *r, int k)
{
    const hw_obs *o = &p->obs[k];
    for (int j = 0; j < r->nobs; j++) {
        const observable *m = &r->obs[j];
        if (m->k != o->k) continue;
        if (o->k == OBS_REG ? m->thread == o->thread && m->reg == o->reg
                            : m->loc == p->loc_sym[o->loc])
            return j;
    }
    return -1;
}

/* A hardware value as the model would write it: sign-extended from its width. */
static int64_t as_model(uint64_t v, int bytes)
{
    if (bytes >= 8) return (int64_t)v;
    uint64_t sign = 1ull << (8 * bytes - 1);
    return (int64_t)((v ^ sign) - sign);
}

typedef struct {
    const hw_plan *p;
    const uint64_t *st;
} evctx;

static int ref_value(const evctx *e, const cond_ref *r, uint64_t *v, uint64_t *m)
{
    *m = ~0ull;
    if (r->k == REF_CONST) {
        *v = (uint64_t)r->val;
        return 0;
    }
    for (int k = 0; k < e->p->nobs; k++) {
        const hw_obs *o = &e->p->obs[k];
        int hit = r->k == REF_REG ? o->k == OBS_REG && o->thread == r->thread && o->reg == r->reg
                                  : o->k == OBS_LOC && o->loc == e->p->sym_loc[r->sym];
        if (hit) {
            *v = e->st[k], *m = mask_of(o->bytes);
            return 0;
        }
    }
    *v = 0;
    return 0;
}

/* The test's proposition on a hardware state, comparing at the narrower width. */
static int eval(const cond_node *n, const evctx *e)
{
    if (!n) return 1;
    uint64_t a, b, ma, mb;
    switch (n->op) {
    case CN_TRUE: return 1;
    case CN_FALSE: return 0;
    case CN_AND: return eval(n->a, e) && eval(n->b, e);
    case CN_OR: return eval(n->a, e) || eval(n->b, e);
    case CN_NOT: return !eval(n->a, e);
    default:   /* a comparison, as verify compares (a value as its observable's type reads it) */
        ref_value(e, &n->l, &a, &ma);
        ref_value(e, &n->r, &b, &mb);
        return cond_compare(n->op, &n->l,
                            n->l.k == REF_CONST ? (int64_t)a : isa_value(n->l.type, a & ma), &n->r,
                            n->r.k == REF_CONST ? (int64_t)b : isa_value(n->r.type, b & mb));
    }
}

int hw_classify(const hw_plan *p, const verify_result *r, model_kind m, const hw_outcome *out,
                hw_class *c)
{
    memset(c, 0, sizeof *c);
    c->model = m;
    c->n = out->nstates;
    c->verdict = calloc((size_t)c->n + 1, sizeof *c->verdict);
    c->holds = calloc((size_t)c->n + 1, sizeof *c->holds);
    c->match = calloc((size_t)c->n + 1, sizeof *c->match);
    c->seen = calloc((size_t)(r ? r->nstates : 0) + 1, 1);
    int *idx = calloc((size_t)p->nobs + 1, sizeof *idx);
    if (!c->verdict || !c->holds || !c->match || !c->seen || !idx) {
        free(idx);
        hw_class_free(c);
        return -1;
    }
    for (int k = 0; k < p->nobs; k++) idx[k] = r ? model_index(p, r, k) : -1;
    for (int i = 0; i < c->n; i++) {
        const uint64_t *st = &out->states[(size_t)i * (size_t)p->nobs];
        int found = -1;
        for (int s = 0; r && s < r->nstates && found < 0; s++) {
            int same = 1;
            for (int k = 0; k < p->nobs && same; k++)
                same =
                    idx[k] >= 0 &&
                    ((st[k] ^ (uint64_t)r->states[(size_t)s * (size_t)r->nobs + (size_t)idx[k]]) &
                     mask_of(p->obs[k].bytes)) == 0;
            if (same) found = s;
        }
        evctx e = { p, st };
        c->holds[i] = found >= 0 ? r->holds[found] : eval(p->t->cond, &e);
        c->match[i] = found;
        if (found >= 0) {
            c->verdict[i] = HW_ALLOWED;
            c->seen[found] = 1;
        } else if (!r || r->nstates_total < 0 || r->nstates < r->nstates_total ||
                   r->bound_reached) {
            c->verdict[i] = HW_UNKNOWN;
            c->unknown++;
        } else {
            c->verdict[i] = HW_FORBIDDEN;
            c->observed_forbidden++;
        }
    }
    for (int s = 0; r && s < r->nstates; s++) c->allowed_never_seen += !c->seen[s];
    free(idx);
    return 0;
}

void hw_class_free(hw_class *c)
{
    free(c->verdict), free(c->holds), free(c->match), free(c->seen);
    memset(c, 0, sizeof *c);
}

static const char *verdict_name(hw_verdict v)
{
    return v == HW_ALLOWED ? "allowed" : v == HW_FORBIDDEN ? "forbidden" : "unknown";
}

/* Value k of hardware state i as the model writes it (the model's own value when the state is
 * one of the model's). */
static int64_t value_of(const hw_plan *p, const verify_result *r, const hw_outcome *out,
                        const hw_class *c, int i, int k)
{
    int j = r && c->match[i] >= 0 ? model_index(p, r, k) : -1;
    if (j >= 0) return r->states[(size_t)c->match[i] * (size_t)r->nobs + (size_t)j];
    return as_model(out->states[(size_t)i * (size_t)p->nobs + (size_t)k], p->obs[k].bytes);
}

/* "P1:r0=1; x=2;" for hardware state i. */
static void state_text(const hw_plan *p, const verify_result *r, const hw_outcome *out,
                       const hw_class *c, int i, char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = 0;
    for (int k = 0; k < p->nobs && n < len; k++) {
        char v[64];
        int64_t x = value_of(p, r, out, c, i, k);
        if (r) verify_value_str(r, model_index(p, r, k), x, v, sizeof v);
        else snprintf(v, sizeof v, "%lld", (long long)x);
        n += (size_t)snprintf(buf + n, len - n, "%s%s=%s;", k ? " " : "", p->obs[k].name, v);
    }
}

static void totals(const hw_outcome *out, const hw_class *c, uint64_t *pos, uint64_t *all)
{
    *pos = *all = 0;
    for (int i = 0; i < out->nstates; i++) {
        *all += out->counts[i];
        if (c->holds[i]) *pos += out->counts[i];
    }
}

static const char *kind_word(cond_kind q)
{
    return q == COND_EXISTS ? "Allowed" : q == COND_NOT_EXISTS ? "Forbidden" : "Required";
}

static void model_state_text(const verify_result *r, int s, char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = 0;
    for (int k = 0; k < r->nobs && n < len; k++) {
        char v[64];
        verify_value_str(r, k, r->states[(size_t)s * (size_t)r->nobs + (size_t)k], v, sizeof v);
        n += (size_t)snprintf(buf + n, len - n, "%s%s=%s;", k ? " " : "", r->obs[k].name, v);
    }
}

/* herd/litmus7-like block: "*>" marks states where the proposition holds. */
void hw_report_text(FILE *f, const hw_plan *p, const verify_result *r, const hw_outcome *out,
                    const hw_class *c)
{
    const lit_test *t = p->t;
    char st[2048];
    uint64_t pos, all;
    totals(out, c, &pos, &all);
    fprintf(f, "Test %s %s\n", t->name, kind_word(t->quant));
    fprintf(f, "Histogram (%d states, %llu outcomes: %ld instances x %ld launches on %s)\n",
            out->nstates, (unsigned long long)all, out->instances, out->launches,
            out->gpu[0] ? out->gpu : "?");
    for (int i = 0; i < out->nstates; i++) {
        state_text(p, r, out, c, i, st, sizeof st);
        fprintf(f, "%-10llu %s> %-40s %s%s\n", (unsigned long long)out->counts[i],
                c->holds[i] ? "*" : ":", st, verdict_name(c->verdict[i]),
                c->verdict[i] == HW_FORBIDDEN ? "   <== observed, forbidden by the model" : "");
    }
    if (r) {
        fprintf(f, "Model %s: %d reachable states%s, condition %s %s: %s\n", model_name(c->model),
                r->nstates_total,
                r->nstates_total < 0 || r->nstates < r->nstates_total ? " (list truncated)"
                : r->bound_reached  ? " (loop bound reached)"
                                    : "",
                cond_kind_name(r->quant), r->condition, r->validated ? "Ok" : "No");
        for (int s = 0; s < r->nstates; s++)
            if (!c->seen[s]) {
                model_state_text(r, s, st, sizeof st);
                fprintf(f, "Never seen (allowed): %s\n", st);
            }
    }
    fprintf(f, "Observation %s %s %llu %llu\n", t->name,
            pos == 0     ? "Never"
            : pos == all ? "Always"
                         : "Sometimes",
            (unsigned long long)pos, (unsigned long long)(all - pos));
    fprintf(f, "observed-forbidden %d\nallowed-never-seen %d\n", c->observed_forbidden,
            c->allowed_never_seen);
    if (c->unknown) fprintf(f, "unknown %d (not in the model's cut state list)\n", c->unknown);
    fprintf(f, "Time %s %.3f ms (kernels)\n\n", t->name, out->kernel_ms);
}

static cJSON *state_json(const hw_plan *p, const verify_result *r, const hw_outcome *out,
                         const hw_class *c, int i)
{
    cJSON *m = cJSON_CreateObject();
    for (int k = 0; k < p->nobs; k++) {
        int64_t x = value_of(p, r, out, c, i, k);
        char v[64];
        if (r && lit_addr_sym(p->t, x) >= 0) {
            verify_value_str(r, model_index(p, r, k), x, v, sizeof v);
            cJSON_AddStringToObject(m, p->obs[k].name, v);
        } else cJSON_AddNumberToObject(m, p->obs[k].name, (double)x);
    }
    return m;
}

cJSON *hw_report_json(const hw_plan *p, const verify_result *r, const hw_outcome *out,
                      const hw_class *c)
{
    cJSON *o = cJSON_CreateObject();
    uint64_t pos, all;
    totals(out, c, &pos, &all);
    cJSON_AddStringToObject(o, "gpu", out->gpu);
    cJSON_AddStringToObject(o, "cc", out->cc);
    cJSON_AddStringToObject(o, "driver", out->driver);
    cJSON_AddNumberToObject(o, "instances", (double)out->instances);
    cJSON_AddNumberToObject(o, "launches", (double)out->launches);
    char seed[32];
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)out->seed);
    cJSON_AddStringToObject(o, "seed", seed);
    cJSON_AddNumberToObject(o, "kernel_ms", out->kernel_ms);
    cJSON_AddNumberToObject(o, "outcomes", (double)all);
    cJSON *h = cJSON_AddArrayToObject(o, "histogram");
    for (int i = 0; i < out->nstates; i++) {
        cJSON *e = cJSON_CreateObject();
        cJSON_AddItemToObject(e, "state", state_json(p, r, out, c, i));
        cJSON_AddNumberToObject(e, "count", (double)out->counts[i]);
        cJSON_AddStringToObject(e, "verdict", verdict_name(c->verdict[i]));
        cJSON_AddBoolToObject(e, "condition", c->holds[i]);
        cJSON_AddItemToArray(h, e);
    }
    if (r) {
        cJSON *ms = cJSON_AddArrayToObject(o, "model_states");
        char v[64];
        for (int s = 0; s < r->nstates; s++) {
            cJSON *e = cJSON_CreateObject(), *m = cJSON_CreateObject();
            for (int k = 0; k < r->nobs; k++) {
                int64_t x = r->states[(size_t)s * (size_t)r->nobs + (size_t)k];
                verify_value_str(r, k, x, v, sizeof v);
                if (lit_addr_sym(p->t, x) >= 0) cJSON_AddStringToObject(m, r->obs[k].name, v);
                else cJSON_AddNumberToObject(m, r->obs[k].name, (double)x);
            }
            cJSON_AddItemToObject(e, "state", m);
            cJSON_AddBoolToObject(e, "condition", r->holds[s]);
            cJSON_AddBoolToObject(e, "seen", c->seen[s]);
            cJSON_AddItemToArray(ms, e);
        }
        cJSON_AddStringToObject(o, "model_verdict", r->validated ? "Ok" : "No");
        cJSON_AddBoolToObject(o, "model_states_truncated",
                              r->nstates_total < 0 || r->nstates < r->nstates_total);
        cJSON_AddBoolToObject(o, "model_bound_reached", r->bound_reached);
    }
    cJSON_AddStringToObject(o, "observation",
                            pos == 0     ? "Never"
                            : pos == all ? "Always"
                                         : "Sometimes");
    cJSON_AddNumberToObject(o, "positive", (double)pos);
    cJSON_AddNumberToObject(o, "negative", (double)(all - pos));
    cJSON_AddNumberToObject(o, "observed_forbidden", c->observed_forbidden);
    cJSON_AddNumberToObject(o, "allowed_never_seen", c->allowed_never_seen);
    cJSON_AddNumberToObject(o, "unknown", c->unknown);
    return o;
}
