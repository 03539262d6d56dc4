/* report/report.c — herd-style verdict blocks and JSON result objects. */
#include "report/report.h"
#include "base/alloc.h"
#include "base/fileio.h"
#include "base/sbuf.h"
#include "base/text.h"
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static const char *kind_word(cond_kind q)
{
    return q == COND_EXISTS ? "Allowed" : q == COND_NOT_EXISTS ? "Forbidden" : "Required";
}

void report_herd(FILE *f, const verify_result *r, int unroll)
{
    /* the name is free text of the input: escaped for the terminal (base/text.h) */
    char *name = text_term_dup(r->name ? r->name : "");
    fprintf(f, "Test %s %s\n", name, kind_word(r->quant));
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
    if (r->vacuous) fprintf(f, "Vacuous: no execution reaches a final state\n");
    if (r->bound_reached)
        fprintf(f, "Bound reached: some paths were cut at --unroll %d%s\n", unroll,
                verify_unknown(r) ? "; the verdict is Unknown (raise --unroll)" : "");
    if (r->nstates_total < 0)
        fprintf(f,
                "States listed: %d, more exist (--states N or all); the counts are of the listed "
                "states, which witness the verdict\n",
                r->nstates);
    else if (r->nstates < r->nstates_total)
        fprintf(f, "States listed: %d of %d (--states)\n", r->nstates, r->nstates_total);
    fprintf(f, "Condition %s %s\n", cond_kind_name(r->quant), r->condition);
    fprintf(f, "Observation %s %s %d %d\n", name, verify_observation(r), r->positive,
            r->negative);
    if (r->liveness == LIVENESS_TERMINATES) fprintf(f, "Liveness %s terminates\n", name);
    if (r->liveness == LIVENESS_MAY_HANG) {
        fprintf(f, "Liveness %s may-hang:", name);
        for (int i = 0; i < r->nhangs; i++) {
            const struct verify_hang *h = &r->hangs[i];
            fprintf(f, " %s %s at %d:%d '%s'", h->thread, h->spin ? "spins" : "waits forever",
                    h->line, h->col, h->insn);
            if (h->reads[0]) fprintf(f, " reading %s", h->reads);
            fputc(i + 1 < r->nhangs ? ';' : '\n', f);
        }
    }
    fprintf(f, "Time %s %.3f\n\n", name, r->time_ms / 1000.0);
    free(name);
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
    if (r->filter[0]) cJSON_AddStringToObject(o, "filter", r->filter);
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
            if (r->test && lit_addr_sym(r->test, x) >= 0)
                cJSON_AddStringToObject(m, r->obs[i].name, v);
            else cJSON_AddItemToObject(m, r->obs[i].name, cJSON_CreateRaw(v));   /* exact digits */
        }
        cJSON_AddItemToArray(states, m);
    }
    cJSON *fl = cJSON_AddArrayToObject(o, "flags");
    for (int i = 0; i < r->nflags; i++) cJSON_AddItemToArray(fl, cJSON_CreateString(r->flags[i]));
    if (r->nviolated) {
        cJSON *vi = cJSON_AddArrayToObject(o, "violated");
        for (int i = 0; i < r->nviolated; i++)
            cJSON_AddItemToArray(vi, cJSON_CreateString(r->violated[i]));
    }
    if (r->liveness) {
        cJSON_AddStringToObject(o, "liveness",
                                r->liveness == LIVENESS_MAY_HANG ? "may-hang" : "terminates");
        cJSON *hs = cJSON_AddArrayToObject(o, "hangs");
        for (int i = 0; i < r->nhangs; i++) {
            const struct verify_hang *h = &r->hangs[i];
            cJSON *x = cJSON_CreateObject();
            cJSON_AddStringToObject(x, "thread", h->thread);
            cJSON_AddStringToObject(x, "kind", h->spin ? "spin" : "barrier");
            cJSON_AddNumberToObject(x, "line", h->line);
            cJSON_AddNumberToObject(x, "col", h->col);
            cJSON_AddStringToObject(x, "instruction", h->insn);
            if (h->spin) cJSON_AddStringToObject(x, "reads", h->reads);
            cJSON_AddItemToArray(hs, x);
        }
    }
    cJSON_AddBoolToObject(o, "bound_reached", r->bound_reached);
    cJSON_AddBoolToObject(o, "vacuous", r->vacuous);
    cJSON_AddBoolToObject(o, "states_truncated",
                          r->nstates_total < 0 || r->nstates < r->nstates_total);
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
            clearerr(stdout);   /* reported: cli/main.c does not report it again */
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

void report_json_fix_utf8(cJSON *item)
{
    for (; item; item = item->next) {
        if (item->string && !(item->type & cJSON_StringIsConst)) {
            char *f = text_utf8_fix(item->string);
            if (f) { cJSON_free(item->string); item->string = f; }
        }
        if ((cJSON_IsString(item) || cJSON_IsRaw(item)) && item->valuestring &&
            !(item->type & cJSON_IsReference)) {
            char *f = text_utf8_fix(item->valuestring);
            if (f) { cJSON_free(item->valuestring); item->valuestring = f; }
        }
        if (item->child) report_json_fix_utf8(item->child);
    }
}

char *report_json_text(cJSON *root, int pretty)
{
    report_json_fix_utf8(root->child);
    char *text = pretty ? cJSON_Print(root) : cJSON_PrintUnformatted(root);
    if (!text) x_out_of_memory(0);
    sbuf b = { 0 };
    sb_put(&b, text, strlen(text));
    sb_put(&b, "\n", 1);
    cJSON_free(text);
    return b.s;
}

int report_tprintf(FILE *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int l = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (l < 0) return l;
    char *raw = xmalloc((size_t)l + 1);
    va_start(ap, fmt);
    vsnprintf(raw, (size_t)l + 1, fmt, ap);
    va_end(ap);
    sbuf b = { 0 };
    text_term(&b, raw, 1);
    int rc = fputs(b.s, f) == EOF ? -1 : (int)b.n;
    free(raw);
    sb_free(&b);
    return rc;
}
