/* hw/suite_hw.c — `ptxlitmus suite --hw [PATH...] [hw options]`: every test of the suites on
 * the GPU.  A manifest's `hw:` mapping (docs/suites.md) gives the suite's options; options on
 * the command line override it.  Prints a table per suite (tests, ran, generated, compiled,
 * refused, skipped, errors, observed-forbidden, hung) and the refusal reasons with their
 * counts.  Refused tests are reported, not failures: the exit status is 1 on an
 * observed-forbidden state or a hang the model rules out, 2 on an error, 77 when nothing
 * could run for lack of a GPU or nvcc, else 0. */
#include "hw/hw_cli_int.h"
#include "suite/suite.h"
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct {
    char *key;
    int n;
} reason;
typedef struct {
    reason *r;
    int n;
} reasons;

/* Counts refusals by what they expected (the text after ", expected "). */
static void count_reason(reasons *rs, const char *msg)
{
    const char *e = msg ? strstr(msg, ", expected ") : NULL;
    const char *key = e ? e + 2 : msg ? msg : "?";
    for (int i = 0; i < rs->n; i++)
        if (!strcmp(rs->r[i].key, key)) {
            rs->r[i].n++;
            return;
        }
    reason *n = realloc(rs->r, (size_t)(rs->n + 1) * sizeof *n);
    if (!n) return;
    rs->r = n;
    rs->r[rs->n].key = strdup(key);
    if (rs->r[rs->n].key) rs->r[rs->n++].n = 1;
}

static int by_count(const void *a, const void *b)
{
    return ((const reason *)b)->n - ((const reason *)a)->n;
}

static void print_row(FILE *f, const char *name, const hw_tally *t)
{
    fprintf(f, "%-28s %6d %6d %9d %8d %7d %7d %6d %9d %4d\n", name, t->tests, t->ran,
            t->generated, t->compiled, t->refused, t->skipped, t->errors, t->observed_forbidden,
            t->hung);
}

static void add_tally(hw_tally *a, const hw_tally *b)
{
    a->tests += b->tests, a->ran += b->ran, a->generated += b->generated,
        a->compiled += b->compiled;
    a->refused += b->refused, a->skipped += b->skipped, a->errors += b->errors;
    a->forbidden_tests += b->forbidden_tests, a->observed_forbidden += b->observed_forbidden;
    a->allowed_never_seen += b->allowed_never_seen;
    a->hung += b->hung, a->hang_alarms += b->hang_alarms, a->hang_never_seen += b->hang_never_seen;
}

/* The tests of one manifest; its per-suite tally is returned in st. */
static void run_suite(hw_ctx *c, const suite_manifest *m, cJSON *results, reasons *rs, hw_tally *st)
{
    hw_opts o;
    hw_opts_default(&o);
    char why[300];
    for (int i = 0; i < m->nhw; i++)
        if (hw_opt_set(&o, m->hw_key[i], m->hw_val[i], why, sizeof why)) {
            fprintf(stderr, "%s: hw: %s (the option is left at its default)\n", m->path, why);
            st->errors++;
        }
    hw_reapply_cli(c, &o);
    o.keep = c->o.keep, o.nvcc = c->o.nvcc, o.no_run = c->o.no_run, o.no_compile = c->o.no_compile;
    for (int i = 0; i < m->nt; i++) {
        int refused = st->refused;
        cJSON *res = hw_run_file(c, &o, m->t[i].path, m->name, st);
        cJSON *r = cJSON_GetObjectItem(res, "reason");
        if (st->refused > refused) count_reason(rs, cJSON_IsString(r) ? r->valuestring : NULL);
        cJSON_AddStringToObject(res, "suite", m->name);
        cJSON_AddStringToObject(res, "test", m->t[i].file);
        cJSON_AddItemToObject(res, "options", hw_opts_json(&o)); /* the manifest's hw: applied */
        if (results) cJSON_AddItemToArray(results, res);
        else cJSON_Delete(res);
    }
}

static void print_summary(FILE *f, const hw_tally *all, reasons *rs)
{
    print_row(f, "total", all);
    if (rs->n) {
        qsort(rs->r, (size_t)rs->n, sizeof *rs->r, by_count);
        fprintf(f, "\nrefused tests by reason:\n");
        for (int i = 0; i < rs->n; i++) fprintf(f, "%6d  %s\n", rs->r[i].n, rs->r[i].key);
    }
    fprintf(f, "\nobserved-forbidden %d (in %d tests)\nallowed-never-seen %d\n",
            all->observed_forbidden, all->forbidden_tests, all->allowed_never_seen);
    fprintf(f, "hung %d (%d where the model says every execution terminates)\n"
               "hang-never-seen %d (ran to the end, the model says it may hang)\n",
            all->hung, all->hang_alarms, all->hang_never_seen);
}

int hw_suite_cli(int argc, char **argv)
{
    hw_ctx c;
    memset(&c, 0, sizeof c);
    char **paths, **mf = NULL;
    int np, nm = 0, rc = hw_parse_args(argc, argv, &c, &paths, &np);
    if (rc == -2) { free(paths); return 2; }
    if (rc) {
        fprintf(rc > 0 ? stdout : stderr,
                "usage: ptxlitmus suite --hw [PATH...] [ptxlitmus hw options]\n");
        free(paths);
        return rc > 0 ? 0 : 2;
    }
    struct stat sb;
    if (!np && !stat("suites", &sb)) paths[np++] = "suites";
    hw_tally all = { 0 };
    for (int i = 0; i < np; i++)
        if (suite_find_manifests(paths[i], &mf, &nm) < 0) {
            fprintf(stderr, "ptxlitmus suite: %s: no such file or directory\n", paths[i]);
            all.errors++;
        }
    c.suite = 1; /* per-test text only for tests that ran */
    c.out = c.json && !strcmp(c.json, "-") ? stderr : stdout;
    hw_cli_prepare(&c);
    cJSON *root = c.json ? hw_json_root(&c, "hw-suite") : NULL;
    reasons rs = { 0 };
    fprintf(c.out, "%-28s %6s %6s %9s %8s %7s %7s %6s %9s %4s\n", "suite", "tests", "ran",
            "generated", "compiled", "refused", "skipped", "errors", "forbidden", "hung");
    for (int i = 0; i < nm; i++) {
        suite_manifest m;
        char err[1024];
        hw_tally st = { 0 };
        if (suite_manifest_load(mf[i], &m, err, sizeof err)) {
            fprintf(stderr, "%s\n", err);
            all.errors++;
        } else run_suite(&c, &m, root ? cJSON_GetObjectItem(root, "results") : NULL, &rs, &st);
        print_row(c.out, m.name ? m.name : mf[i], &st);
        add_tally(&all, &st);
        suite_manifest_free(&m);
        free(mf[i]);
    }
    print_summary(c.out, &all, &rs);
    if (root && hw_write_json(c.json, root)) all.errors++;
    cJSON_Delete(root);
    for (int i = 0; i < rs.n; i++) free(rs.r[i].key);
    free(rs.r), free(mf), free(paths);
    return hw_exit_status(&all, 1);
}
