/* report/report.c — herd-style verdict blocks and JSON result objects. */
#include "report/report.h"
#include "base/fileio.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char *kind_word(cond_kind q)
{
    return q == COND_EXISTS ? "Allowed" : q == COND_NOT_EXISTS ? "Forbidden" : "Required";
}

void report_herd(FILE *f, const verify_result *r, int unroll)
{
    fprintf(f, "Test %s %s\n", r->name, kind_word(r->quant));
    fprintf(f, "States %d\n", r->nstates_total >= 0 ? r->nstates_total : r->nstates);
    char v[64];
    for (int s = 0; s < r->nstates; s++) {
        for (int i = 0; i < r->nobs; i++) {
            verify_value_str(r, i, r->states[(size_t)s * (size_t)r->nobs + (size_t)i], v, sizeof v);
            fprintf(f, "%s%s=%s;", i ? " " : "", r->obs[i].name, v);
        }
        fputc('\n', f);
    }
    fprintf(f, "%s\n", verify_verdict(r));
    fprintf(f, "Witnesses\n");
    fprintf(f, "Positive: %d Negative: %d\n", r->positive, r->negative);
    for (int i = 0; i < r->nflags; i++) fprintf(f, "Flag %s\n", r->flags[i]);
    if (r->nviolated) {
        fprintf(f, "Ruled out by");
        for (int i = 0; i < r->nviolated; i++) fprintf(f, " %s", r->violated[i]);
        fputc('\n', f);
    }
    if (r->bound_reached)
        fprintf(f, "Bound reached: some paths were cut at --unroll %d%s\n", unroll,
                verify_unknown(r) ? "; the verdict is Unknown (raise --unroll)" : "");
    if (r->nstates_total < 0)
        fprintf(f, "States listed: %d, more exist (--states N or all; the verdict does not depend on it)\n", r->nstates);
    else if (r->nstates < r->nstates_total) fprintf(f, "States listed: %d of %d (--states)\n", r->nstates, r->nstates_total);
    fprintf(f, "Condition %s %s\n", cond_kind_name(r->quant), r->condition);
    fprintf(f, "Observation %s %s %d %d\n", r->name, verify_observation(r), r->positive,
            r->negative);
    fprintf(f, "Time %s %.3f\n\n", r->name, r->time_ms / 1000.0);
}

cJSON *report_json_result(const verify_result *r)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "file", r->file ? r->file : "");
    cJSON_AddStringToObject(o, "status", r->ok ? "ok" : r->timed_out ? "timeout" : "error");
    if (r->name) cJSON_AddStringToObject(o, "name", r->name); else cJSON_AddNullToObject(o, "name");
    if (!r->ok) {
        cJSON_AddStringToObject(o, "error", r->error);
        if (r->timed_out) {
            cJSON_AddStringToObject(o, "verdict", "Unknown");
            cJSON_AddStringToObject(o, "observation", "Unknown");
        }
        cJSON_AddNumberToObject(o, "time_ms", r->time_ms);
        return o;
    }
    cJSON_AddNullToObject(o, "error");
    cJSON_AddStringToObject(o, "quantifier", cond_kind_name(r->quant));
    cJSON_AddStringToObject(o, "condition", r->condition);
    cJSON_AddBoolToObject(o, "validated", r->validated);
    cJSON_AddStringToObject(o, "verdict", verify_verdict(r));
    cJSON_AddStringToObject(o, "observation", verify_observation(r));
    cJSON_AddNumberToObject(o, "positive", r->positive);
    cJSON_AddNumberToObject(o, "negative", r->negative);
    cJSON *states = cJSON_AddArrayToObject(o, "states");
    char v[64];
    for (int s = 0; s < r->nstates; s++) {
        cJSON *m = cJSON_CreateObject();
        for (int i = 0; i < r->nobs; i++) {
            int64_t x = r->states[(size_t)s * (size_t)r->nobs + (size_t)i];
            verify_value_str(r, i, x, v, sizeof v);
            if (r->test && lit_addr_sym(r->test, x) >= 0) cJSON_AddStringToObject(m, r->obs[i].name, v);
            else cJSON_AddItemToObject(m, r->obs[i].name, cJSON_CreateRaw(v));   /* exact digits */
        }
        cJSON_AddItemToArray(states, m);
    }
    cJSON *fl = cJSON_AddArrayToObject(o, "flags");
    for (int i = 0; i < r->nflags; i++) cJSON_AddItemToArray(fl, cJSON_CreateString(r->flags[i]));
    if (r->nviolated) {
        cJSON *vi = cJSON_AddArrayToObject(o, "violated");
        for (int i = 0; i < r->nviolated; i++) cJSON_AddItemToArray(vi, cJSON_CreateString(r->violated[i]));
    }
    cJSON_AddBoolToObject(o, "bound_reached", r->bound_reached);
    cJSON_AddBoolToObject(o, "states_truncated", r->nstates_total < 0 || r->nstates < r->nstates_total);
    if (r->nstates_total >= 0) cJSON_AddNumberToObject(o, "states_total", r->nstates_total);
    else cJSON_AddNullToObject(o, "states_total");
    cJSON_AddNumberToObject(o, "solved", (double)r->solved);
    cJSON_AddNumberToObject(o, "time_ms", r->time_ms);
    return o;
}

int report_write_atomic(const char *path, const char *text)
{
    if (!strcmp(path, "-")) {
        if (fputs(text, stdout) == EOF || fflush(stdout) || ferror(stdout)) {
            fprintf(stderr, "ptxlitmus: cannot write to standard output: %s\n", strerror(errno));
            return -1;
        }
        return 0;
    }
    if (write_file_atomic(path, text, strlen(text))) {
        fprintf(stderr, "ptxlitmus: cannot write %s: %s\n", path, fileio_error(errno));
        return -1;
    }
    return 0;
}
