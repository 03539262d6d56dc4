/* suite/merge.c — `ptxlitmus merge A.json B.json ...`: combines the JSON results of
 * `ptxlitmus suite --shard I/N` runs into one report (docs/suites.md). */
#include "base/alloc.h"
#include "base/fileio.h"
#include "base/opts.h"
#include "report/provenance.h"
#include "suite/suite.h"
#include "base/version.h"
#include "suite/suite.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

enum { M_JSON = 1, M_JUNIT, M_CSV, M_ALLOW_UNKNOWN };
static const opt_def merge_defs[] = {
    OPT_COMMON,
    { "json", 'o', M_JSON | OPT_ONCE, "a file name", NULL },
    { "junit", 0, M_JUNIT | OPT_ONCE, "a file name", NULL },
    { "csv", 0, M_CSV | OPT_ONCE, "a file name", NULL },
    { "allow-unknown", 0, M_ALLOW_UNKNOWN, NULL, NULL },
    { NULL, 0, 0, NULL, NULL },
};

static void usage(FILE *f)
{
    fprintf(
        f,
        "usage: ptxlitmus merge [--json FILE|-] [--junit FILE] [--csv FILE] [-q] A.json B.json "
        "...\n"
        "  combines the --json outputs of 'ptxlitmus suite --shard I/N' runs, prints the summary\n"
        "  exit status: 0 every test agrees and every shard is present, 1 otherwise, 2 usage "
        "error,\n"
        "  3 the results could not be written\n");
}

static void pos_of(const char *text, const char *at, int *line, int *col)
{
    *line = 1; *col = 1;
    for (const char *p = text; p < at && *p; p++) {
        if (*p == '\n') {
            (*line)++;
            *col = 1;
        } else (*col)++;
    }
}

static int cmp_job(const void *a, const void *b)
{
    const cJSON *x = *(cJSON *const *)a, *y = *(cJSON *const *)b;
    double jx = suite_num(x, "job"), jy = suite_num(y, "job");
    return jx < jy ? -1 : jx > jy;
}

/* One result file: the --json document of `ptxlitmus suite` ("kind": "suite" with "results"),
 * or NULL after a message. */
static cJSON *load_result_file(const char *path)
{
    size_t len;
    char *text, why[160];
    if (read_input(path, FILEIO_CAP_DEFAULT, &text, &len, why, sizeof why)) {
        fprintf(stderr, "%s:1:1: found %s, expected a suite --json result file\n", path, why);
        return NULL;
    }
    cJSON *d = cJSON_ParseWithLength(text, len);
    if (!d) {
        int l, c;
        pos_of(text, cJSON_GetErrorPtr() ? cJSON_GetErrorPtr() : text, &l, &c);
        fprintf(stderr, "%s:%d:%d: found invalid JSON, expected a suite --json result file\n", path,
                l, c);
        free(text);
        return NULL;
    }
    free(text);
    if (strcmp(suite_str(d, "kind"), "suite") ||
        !cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(d, "results"))) {
        fprintf(stderr,
                "%s:1:1: found a JSON document without \"kind\": \"suite\" and \"results\", "
                "expected the --json output of ptxlitmus suite\n",
                path);
        cJSON_Delete(d);
        return NULL;
    }
    return d;
}

/* The options of merge: output files and the result files; -1 to go on, else the status. */
typedef struct { const char *json, *junit, *csv; char **files; int nf, allow_unknown; } merge_opts;

static int merge_options(int argc, char **argv, merge_opts *o)
{
    memset(o, 0, sizeof *o);
    o->files = xcalloc((size_t)argc + 1, sizeof *o->files);
    opt_parser p;
    opt_init(&p, "merge", merge_defs, argc, argv);
    int id, rc = -1;
    while (rc < 0 && (id = opt_next(&p)) != OPT_END) {
        switch (id) {
        case OPT_ERROR: rc = 2; break;
        case OPT_HELP: usage(stdout); rc = 0; break;
        case OPT_QUIET: case OPT_VERBOSE: break;
        case M_ALLOW_UNKNOWN: o->allow_unknown = 1; break;
        case M_JSON: case M_JUNIT: case M_CSV:
            if (!*p.arg) { opt_error(&p, "takes a file name"); rc = 2; break; }
            if (id == M_JUNIT) o->junit = p.arg;
            else if (id == M_CSV) o->csv = p.arg;
            else o->json = p.arg;
            break;
        }
    }
    for (int i = 0; rc < 0 && i < p.npos; i++) o->files[o->nf++] = p.pos[i];
    opt_free(&p);
    if (rc >= 0) { free(o->files); return rc; }
    if (!o->nf) {
        fprintf(stderr, "ptxlitmus merge: no result file given\n");
        usage(stderr);
        free(o->files);
        return 2;
    }
    /* outputs: never one of the result files merged, their folders there */
    const char *const *in = (const char *const *)o->files;
    if (output_check("merge", o->json, in, o->nf) || output_check("merge", o->junit, in, o->nf) ||
        output_check("merge", o->csv, in, o->nf)) {
        free(o->files);
        return 2;
    }
    return -1;
}

int merge_cli(int argc, char **argv)
{
    merge_opts o;
    int rc = merge_options(argc, argv, &o);
    if (rc >= 0) return rc;
    const char *json = o.json, *junit = o.junit, *csv = o.csv;
    char **files = o.files;
    int nf = o.nf;
    int bad = 0, shard_n = 0, interrupted = 0;
    unsigned char *seen_shard = NULL;
    cJSON **all = NULL;
    int na = 0;
    cJSON **docs = xcalloc((size_t)nf, sizeof *docs);
    for (int i = 0; i < nf; i++) {
        cJSON *d = load_result_file(files[i]);
        if (!d) { bad = 1; continue; }
        const cJSON *res = cJSON_GetObjectItemCaseSensitive(d, "results");
        docs[i] = d;
        if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(d, "interrupted"))) {
            fprintf(stderr,
                    "%s:1:1: found the report of an interrupted run (\"interrupted\": true), "
                    "expected a complete one; the merged report is marked interrupted\n",
                    files[i]);
            interrupted = bad = 1;
        }
        int si, sn;
        const char *sh = suite_str(d, "shard");
        if (*sh && !suite_parse_shard(sh, &si, &sn)) {
            if (!shard_n) { shard_n = sn; seen_shard = xcalloc((size_t)sn + 1, 1); }
            if (sn != shard_n) {
                fprintf(stderr,
                        "%s:1:1: found shard %s, expected a shard of %d like the other files\n",
                        files[i], sh, shard_n);
                bad = 1;
            } else if (seen_shard[si]++) {
                fprintf(stderr, "%s:1:1: found shard %s a second time, expected each shard once\n",
                        files[i], sh);
                bad = 1;
                continue;
            }
        }
        const cJSON *r;
        cJSON_ArrayForEach(r, res) {
            if (!cJSON_IsObject(r)) continue;
            all = xrealloc(all, (size_t)(na + 1) * sizeof *all);
            all[na++] = (cJSON *)r;
        }
    }
    for (int s = 1; s <= shard_n; s++)
        if (!seen_shard[s]) {
            fprintf(stderr, "ptxlitmus merge: shard %d/%d is missing, expected all %d shards\n", s,
                    shard_n, shard_n);
            bad = 1;
        }
    if (na) qsort(all, (size_t)na, sizeof *all, cmp_job);
    cJSON *results = cJSON_CreateArray();
    double prev = -2;
    for (int i = 0; i < na; i++) {
        double j = suite_num(all[i], "job");
        if (j >= 0 && j == prev) {
            fprintf(stderr, "ptxlitmus merge: job %.0f (%s) appears twice, keeping the first\n", j,
                    suite_str(all[i], "test"));
            bad = 1;
            continue;
        }
        prev = j;
        model_kind mk;
        if (!model_parse(suite_str(all[i], "model"), &mk)) prov_add_bundled(mk);
        cJSON_AddItemToArray(results, cJSON_Duplicate(all[i], 1));
    }
    FILE *out = json && !strcmp(json, "-") ? stderr : stdout;
    if (suite_print_summary_ex(out, results, -1, o.allow_unknown ? SUITE_ALLOW_UNKNOWN : 0))
        bad = 1;
    fprintf(out, "merged %d result%s from %d file%s\n", cJSON_GetArraySize(results),
            cJSON_GetArraySize(results) == 1 ? "" : "s", nf, nf == 1 ? "" : "s");
    fflush(out);
    int unwritten = 0;
    if (json && suite_write_json(json, results, NULL, interrupted)) unwritten = 1;
    if (junit && suite_write_junit(junit, results, interrupted)) unwritten = 1;
    if (csv && suite_write_csv(csv, results)) unwritten = 1;
    cJSON_Delete(results);
    for (int i = 0; i < nf; i++) cJSON_Delete(docs[i]);
    free(docs); free(all); free(files); free(seen_shard);
    return unwritten ? EXIT_NOT_WRITTEN : bad ? 1 : 0;
}
