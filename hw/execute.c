/* hw/execute.c — running a compiled harness program and reading what it printed: the GPU's
 * description, the histogram of final states, or why it could not run (docs/hardware.md,
 * "Reading results back"). */
#include "hw/hw_int.h"
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One HWHIST line: "count v0 v1 ... v(nobs-1)". */
static int add_state(hw_outcome *o, const char *s, int nobs)
{
    char *end;
    uint64_t cnt = strtoull(s, &end, 10);
    uint64_t *st =
        realloc(o->states, (size_t)(o->nstates + 1) * (size_t)(nobs ? nobs : 1) * sizeof *st);
    if (!st) return -1;
    o->states = st;
    uint64_t *c = realloc(o->counts, (size_t)(o->nstates + 1) * sizeof *c);
    if (!c) return -1;
    o->counts = c;
    for (int k = 0; k < nobs; k++) {
        const char *p = end;
        o->states[(size_t)o->nstates * (size_t)nobs + (size_t)k] = strtoull(p, &end, 10);
        if (end == p) return -1;
    }
    o->counts[o->nstates++] = cnt;
    return 0;
}

static void info(hw_outcome *o, const char *key, const char *v)
{
    if (!strcmp(key, "gpu")) snprintf(o->gpu, sizeof o->gpu, "%s", v);
    else if (!strcmp(key, "driver")) snprintf(o->driver, sizeof o->driver, "%s", v);
    else if (!strcmp(key, "cc")) snprintf(o->cc, sizeof o->cc, "%s", v);
    else if (!strcmp(key, "instances")) o->instances = atol(v);
    else if (!strcmp(key, "launches")) o->launches = atol(v);
    else if (!strcmp(key, "seed")) o->seed = strtoull(v, NULL, 10);
    else if (!strcmp(key, "kernel_ms")) o->kernel_ms = atof(v);
}

static int parse_output(const char *path, const hw_plan *p, hw_outcome *o)
{
    memset(o, 0, sizeof *o);
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(o->reason, sizeof o->reason, "cannot read %s", path);
        return -1;
    }
    char line[4096];
    int end = 0, bad = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        if (!strncmp(line, "HWINFO ", 7)) {
            char *k = line + 7, *v = strchr(k, ' ');
            if (v) {
                *v++ = 0;
                info(o, k, v);
            }
        } else if (!strncmp(line, "HWHIST ", 7)) {
            if (add_state(o, line + 7, p->nobs)) bad = 1;
        } else if (!strncmp(line, "HWSKIP ", 7)) {
            o->skipped = 1;
            snprintf(o->reason, sizeof o->reason, "%.500s", line + 7);
        } else if (!strncmp(line, "HWERR ", 6)) {
            snprintf(o->reason, sizeof o->reason, "%.500s", line + 6);
        } else if (!strcmp(line, "HWEND")) end = 1;
    }
    fclose(f);
    if (bad) {
        snprintf(o->reason, sizeof o->reason, "unreadable histogram line in %s", path);
        return -1;
    }
    o->ran = end;
    return 0;
}

int hw_execute(const char *dir, const char *base, const hw_plan *p, const hw_opts *o,
               hw_outcome *out)
{
    memset(out, 0, sizeof *out);
    out->states = NULL;
    size_t n = strlen(dir) + strlen(base) + 16;
    char *bin = malloc(n), *of = malloc(n), *ef = malloc(n);
    if (!bin || !of || !ef) {
        free(bin), free(of), free(ef);
        snprintf(out->reason, sizeof out->reason, "out of memory");
        return -1;
    }
    snprintf(bin, n, "%s/%s", dir, base), snprintf(of, n, "%s/%s.out", dir, base),
        snprintf(ef, n, "%s/%s.err", dir, base);
    char ni[32], nk[32], ns[32], nS[8], np[8], nb[16];
    snprintf(ni, sizeof ni, "%ld", o->instances), snprintf(nk, sizeof nk, "%d", o->launches);
    snprintf(ns, sizeof ns, "%" PRIu64, o->seed), snprintf(nS, sizeof nS, "%d", (int)o->stress);
    snprintf(np, sizeof np, "%d", (int)o->placement), snprintf(nb, sizeof nb, "%d", o->stride);
    char *argv[] = { bin, "-n", ni, "-k", nk, "-s", ns, "-S", nS, "-p", np, "-b", nb, NULL };
    int to, rc = hw_run_cmd(argv, of, ef, o->timeout_s, &to), res = 0;
    if (to) {   /* killed at the limit: whatever it printed is not a result */
        out->hung = 1;
        snprintf(out->reason, sizeof out->reason,
                 "the harness ran past --timeout %g s (killed): a "
                 "litmus thread may spin forever on this GPU",
                 o->timeout_s);
        out->ran = 0, res = -1;
    } else if (parse_output(of, p, out)) res = -1;
    else if (rc == HW_EXIT_SKIP || out->skipped) {
        out->skipped = 1, out->ran = 0;
        if (!out->reason[0]) snprintf(out->reason, sizeof out->reason, "no GPU (exit 77)");
    } else if (rc || !out->ran) {
        if (!out->reason[0]) {
            char t[400] = "";
            FILE *f = fopen(ef, "r");
            if (f) {
                size_t k = fread(t, 1, sizeof t - 1, f);
                t[k] = 0;
                fclose(f);
            }
            snprintf(out->reason, sizeof out->reason, "the harness exited with status %d%s%s", rc,
                     t[0] ? ": " : "", t);
        }
        out->ran = 0, res = -1;
    }
    free(bin), free(of), free(ef);
    return res;
}

int hw_read_output(const char *path, const hw_plan *p, hw_outcome *out)
{
    if (parse_output(path, p, out)) return -1;
    if (out->skipped) out->ran = 0;
    else if (!out->ran) {
        if (!out->reason[0])
            snprintf(out->reason, sizeof out->reason,
                     "%s has no HWEND line: the harness did not finish", path);
        return -1;
    }
    return 0;
}
