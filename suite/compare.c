/* suite/compare.c — `ptxlitmus compare --model A --model B PATH...`: decides every test under
 * two models (forked worker pool) and lists the tests whose verdicts differ, with the final
 * states one model allows and the other forbids. */
#include "base/alloc.h"
#include "suite/suite.h"
#include "base/opts.h"
#include "base/version.h"
#include "report/report.h"
#include "suite/suite.h"
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { C_MODEL = 1, C_JOBS, C_TIMEOUT, C_STATES };
static const opt_def compare_defs[] = {
    OPT_COMMON,
    { "model", 0, C_MODEL, "a model name", "model" },
    { "jobs", 'j', C_JOBS, "a whole number", "j" },
    { "timeout", 0, C_TIMEOUT, "a number of seconds", "timeout" },
    { "states", 0, C_STATES, NULL, NULL },
    { NULL, 0, 0, NULL, NULL },
};

static void usage(FILE *f)
{
    fprintf(
        f,
        "usage: ptxlitmus compare --model A --model B [--states] [--jobs N] [--timeout S] PATH...\n"
        "  PATH: a .litmus file, a manifest.yaml, or a directory (its suites, else its .litmus "
        "files)\n"
        "  --states      also list tests with equal verdicts but different reachable states\n"
        "  --jobs N      parallel workers; --timeout S seconds per test and model (fractions "
        "allowed)\n"
        "exit status: 0 no test differs, 1 some test differs or could not be decided, 2 usage "
        "error\n");
}

static void push(char ***v, int *n, const char *s)
{
    *v = xrealloc(*v, (size_t)(*n + 1) * sizeof **v);
    (*v)[(*n)++] = xstrdup(s);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void scan_litmus(const char *dir, char ***v, int *n, int depth)
{
    DIR *d = opendir(dir);
    if (!d || depth > 8) { if (d) closedir(d); return; }
    char **names = NULL;
    int nn = 0;
    struct dirent *e;
    while ((e = readdir(d))) if (e->d_name[0] != '.') push(&names, &nn, e->d_name);
    closedir(d);
    if (nn) qsort(names, (size_t)nn, sizeof *names, cmp_str);
    for (int i = 0; i < nn; i++) {
        size_t l = strlen(dir) + strlen(names[i]) + 2;
        char *p = xmalloc(l);
        snprintf(p, l, "%s/%s", dir, names[i]);
        struct stat st;
        if (!stat(p, &st)) {
            if (S_ISDIR(st.st_mode)) scan_litmus(p, v, n, depth + 1);
            else if (strlen(names[i]) > 7 && !strcmp(names[i] + strlen(names[i]) - 7, ".litmus"))
                push(v, n, p);
        }
        free(p); free(names[i]);
    }
    free(names);
}

static void state_set(const cJSON *res, char ***v, int *n)
{
    const cJSON *st = cJSON_GetObjectItemCaseSensitive(res, "states"), *x;
    cJSON_ArrayForEach(x, st)
    {
        *v = xrealloc(*v, (size_t)(*n + 1) * sizeof **v);
        (*v)[(*n)++] = suite_state_text(x);
    }
}

static int print_only(FILE *f, const char *label, char **a, int na, char **b, int nb)
{
    int k = 0;
    for (int i = 0; i < na; i++) {
        int in = 0;
        for (int j = 0; j < nb && !in; j++) in = !strcmp(a[i], b[j]);
        if (!in) { report_tprintf(f, "  %s %s\n", label, a[i]); k++; }
    }
    return k;
}

int compare_cli(int argc, char **argv)
{
    suite_run_opts ro;
    suite_run_opts_default(&ro);
    model_kind m[2];
    int nm = 0, states = 0, bad = 0;
    char **files = NULL;
    int nf = 0;
    opt_parser p;
    opt_init(&p, "compare", compare_defs, argc, argv);
    int id, rc = -1;
    while (rc < 0 && (id = opt_next(&p)) != OPT_END) {
        long v;
        double d;
        switch (id) {
        case OPT_ERROR: rc = 2; break;
        case OPT_HELP: usage(stdout); rc = 0; break;
        case OPT_QUIET: case OPT_VERBOSE: break;
        case C_MODEL:
            if (nm == 2 || model_parse(p.arg, &m[nm])) {
                opt_error(&p, "takes %s, exactly twice, found '%s'", model_choices(), p.arg);
                rc = 2;
            } else nm++;
            break;
        case C_JOBS: if (opt_long(&p, 1, 1024, &v)) rc = 2; else ro.jobs = (int)v; break;
        case C_TIMEOUT: if (opt_seconds(&p, 86400, &d)) rc = 2; else ro.timeout_s = d; break;
        case C_STATES: states = 1; break;
        }
    }
    for (int i = 0; rc < 0 && i < p.npos; i++) {
        const char *a = p.pos[i];
        {
            struct stat st;
            if (stat(a, &st)) {
                fprintf(stderr, "%s:1:1: cannot open: %s, expected a test, manifest or directory\n",
                        a, strerror(errno));
                bad = 1;
                continue;
            }
            char **mf = NULL;
            int nmf = 0;
            size_t l = strlen(a);
            if (S_ISDIR(st.st_mode) || (l >= 5 && !strcmp(a + l - 5, ".yaml")))
                suite_find_manifests(a, &mf, &nmf);
            if (nmf) {
                for (int k = 0; k < nmf; k++) {
                    suite_manifest man;
                    char err[1024];
                    if (suite_manifest_load(mf[k], &man, err, sizeof err)) {
                        report_tprintf(stderr, "%s\n", err);
                        bad = 1;
                    } else {
                        for (int t = 0; t < man.nt; t++) push(&files, &nf, man.t[t].path);
                        suite_manifest_free(&man);
                    }
                    free(mf[k]);
                }
                free(mf);
            } else if (S_ISDIR(st.st_mode)) scan_litmus(a, &files, &nf, 0);
            else push(&files, &nf, a);
        }
    }
    opt_free(&p);
    if (rc >= 0) { for (int i = 0; i < nf; i++) free(files[i]); free(files); return rc; }
    if (nm != 2) {
        fprintf(stderr, "ptxlitmus compare: give two models with --model A --model B\n");
        usage(stderr);
        return 2;
    }
    if (!nf) { fprintf(stderr, "ptxlitmus compare: no test found\n"); return 2; }
    suite_job *jobs = xcalloc((size_t)nf * 2, sizeof *jobs);
    for (int i = 0; i < nf; i++) {
        jobs[2 * i] = (suite_job){ .path = files[i], .model = m[0] };
        jobs[2 * i + 1] = (suite_job){ .path = files[i], .model = m[1] };
    }
    ro.progress = isatty(2) ? 1 : 0;
    ro.label = "compare";
    suite_run(jobs, 2 * nf, &ro);
    const char *A = model_name(m[0]), *B = model_name(m[1]);
    int differ = 0, sdiffer = 0, incomparable = 0;
    for (int i = 0; i < nf; i++) {
        const cJSON *ra = jobs[2 * i].res, *rb = jobs[2 * i + 1].res;
        int oka = !strcmp(suite_str(ra, "status"), "ok"),
            okb = !strcmp(suite_str(rb, "status"), "ok");
        if (!oka || !okb) {
            incomparable++;
            report_tprintf(stdout, "NOT COMPARED %s: %s\n", files[i],
                           !oka ? suite_str(ra, "error") : suite_str(rb, "error"));
            continue;
        }
        int vd = strcmp(suite_str(ra, "verdict"), suite_str(rb, "verdict")) != 0;
        char **sa = NULL, **sb = NULL;
        int na = 0, nb = 0;
        state_set(ra, &sa, &na);
        state_set(rb, &sb, &nb);
        int same = na == nb;
        for (int x = 0; x < na && same; x++) {
            int in = 0;
            for (int y = 0; y < nb && !in; y++) in = !strcmp(sa[x], sb[y]);
            same = in;
        }
        if (vd || (states && !same)) {
            if (vd) differ++; else sdiffer++;
            report_tprintf(stdout, "%s %s: %s %s (%s), %s %s (%s)\n",
                           vd ? "DIFFERS" : "STATES DIFFER", files[i], A, suite_str(ra, "verdict"),
                           suite_str(ra, "observation"), B, suite_str(rb, "verdict"),
                           suite_str(rb, "observation"));
            char la[64], lb[64];
            snprintf(la, sizeof la, "allowed by %s, forbidden by %s:", A, B);
            snprintf(lb, sizeof lb, "allowed by %s, forbidden by %s:", B, A);
            print_only(stdout, la, sa, na, sb, nb);
            print_only(stdout, lb, sb, nb, sa, na);
        }
        for (int x = 0; x < na; x++) free(sa[x]);
        for (int x = 0; x < nb; x++) free(sb[x]);
        free(sa); free(sb);
    }
    printf("compare %s vs %s: %d tests, %d verdicts differ%s", A, B, nf, differ,
           states ? "" : "\n");
    if (states) printf(", %d more differ in reachable states only\n", sdiffer);
    if (incomparable) printf("%d tests not compared (error under a model)\n", incomparable);
    for (int j = 0; j < 2 * nf; j++) cJSON_Delete(jobs[j].res);
    for (int i = 0; i < nf; i++) free(files[i]);
    free(files); free(jobs);
    return differ || sdiffer || incomparable || bad ? 1 : 0;
}
