/* cli/run_checks.c — the checks of `ptxlitmus run` (--check, --no-printf; docs/executor.md
 * "Checks"): the option's list, the findings on stderr in compute-sanitizer's shape and in the
 * JSON, the device printf output on stdout.  Kept apart from cli/run_cli.c, which calls these. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <string.h>
#include "cli/run_checks.h"

/* --check memcheck,racecheck,synccheck,initcheck (or all, or none) */
int run_parse_checks(const char *s, unsigned *out)
{
    static const char *const names[] = { "memcheck", "racecheck", "synccheck", "initcheck" };
    unsigned c = 0;
    const char *p = s;
    for (;;) {
        size_t k = strcspn(p, ",");
        int ok = 0;
        for (int i = 0; i < 4; i++)
            if (k == strlen(names[i]) && !strncmp(p, names[i], k)) { c |= 1u << i; ok = 1; }
        if (k == 3 && !strncmp(p, "all", 3)) { c |= PTXE_CHECK_ALL; ok = 1; }
        if (k == 4 && !strncmp(p, "none", 4)) ok = 1;
        if (!ok) {
            fprintf(stderr,
                    "ptxlitmus run: --check: found '%.*s', expected a comma-separated list of "
                    "memcheck, racecheck, synccheck, initcheck (or all, none)\n",
                    (int)k, p);
            return -1;
        }
        if (!p[k]) break;
        p += k + 1;
    }
    *out = c;
    return 0;
}

/* The findings of the launch (--check), compute-sanitizer's shape, on stderr. */
void run_print_findings(ptxeCtx *ctx, ptxeResult lr)
{
    int nf = ptxeGetFindingCount(ctx);
    for (int i = 0; i < nf; i++) {
        const ptxeFinding *f = ptxeGetFinding(ctx, i);
        fputs(f->report, stderr);
        if (f->count > 1)
            fprintf(stderr, "=========     (%llu times)\n", (unsigned long long)f->count);
        fputs("=========\n", stderr);
    }
    if (nf || lr)
        fprintf(stderr, "========= ERROR SUMMARY: %d error%s%s\n", nf ? nf : 1,
                (nf ? nf : 1) == 1 ? "" : "s", nf ? "" : " (the fault above)");
}

/* Device printf output of the launch, on stdout. */
void run_print_printf(ptxeCtx *ctx, const char *spec)
{
    size_t n;
    uint64_t dropped;
    const char *s = ptxeGetPrintfOutput(ctx, &n, &dropped);
    if (n) fwrite(s, 1, n, stdout);
    if (dropped)
        fprintf(stderr, "%s: %llu bytes of device printf output dropped (1 MiB per launch)\n",
                spec, (unsigned long long)dropped);
    fflush(stdout);
}

static cJSON *site_json(const ptxeFindingSite *s)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "line", s->line);
    cJSON_AddNumberToObject(o, "col", s->col);
    cJSON_AddStringToObject(o, "instruction", s->text ? s->text : "");
    if (s->src_line) {
        cJSON_AddStringToObject(o, "cuda_file", s->src_file);
        cJSON_AddNumberToObject(o, "cuda_line", s->src_line);
    }
    cJSON *t = cJSON_AddArrayToObject(o, "thread"), *b = cJSON_AddArrayToObject(o, "block");
    for (int k = 0; k < 3; k++) {
        cJSON_AddItemToArray(t, cJSON_CreateNumber(s->thread[k]));
        cJSON_AddItemToArray(b, cJSON_CreateNumber(s->block[k]));
    }
    if (s->access) {
        char a[2] = { (char)s->access, 0 };
        cJSON_AddStringToObject(o, "access", a);
    }
    return o;
}

cJSON *run_findings_json(ptxeCtx *ctx)
{
    static const char *const cn[] = { "memcheck", "racecheck", "synccheck", "initcheck" };
    cJSON *a = cJSON_CreateArray();
    for (int i = 0; i < ptxeGetFindingCount(ctx); i++) {
        const ptxeFinding *f = ptxeGetFinding(ctx, i);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "check", cn[__builtin_ctz(f->check) & 3]);
        cJSON_AddStringToObject(o, "kind", f->kind);
        cJSON_AddItemToObject(o, "at", site_json(&f->at));
        if (f->other.line) cJSON_AddItemToObject(o, "other", site_json(&f->other));
        if (*f->space) cJSON_AddStringToObject(o, "space", f->space);
        if (f->address) {
            char h[24];
            snprintf(h, sizeof h, "0x%llx", (unsigned long long)f->address);
            cJSON_AddStringToObject(o, "address", h);
            cJSON_AddNumberToObject(o, "size", f->size);
        }
        if (*f->buffer) {
            cJSON_AddStringToObject(o, "buffer", f->buffer);
            cJSON_AddNumberToObject(o, "offset", (double)f->offset);
        }
        cJSON_AddNumberToObject(o, "count", (double)f->count);
        cJSON_AddStringToObject(o, "report", f->report);
        cJSON_AddItemToArray(a, o);
    }
    return a;
}

