/* cli/suite_cli.c — `ptxlitmus suite`: runs the tests of suite manifests under their
 * models in parallel and compares each verdict with the manifest (docs/suites.md). */
#include "suite/suite.h"
#include "base/opts.h"
#include "base/alloc.h"
#include "base/fileio.h"
#include "cli/cli.h"
#include "report/report.h"
#include "report/provenance.h"
#include "hw/hw.h"
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static void usage(FILE *f)
{
    fprintf(
        f,
        "usage: ptxlitmus suite [PATH...] [options]\n"
        "  PATH                a manifest.yaml, a suite directory, or a directory searched for "
        "suites\n"
        "                      (default: every suite under the project's suites/)\n"
        "  --model NAME        run only this model (repeatable; default: every model the manifest "
        "lists)\n"
        "  --jobs N            parallel workers (default: the number of cores)\n"
        "  --timeout S         seconds allowed per test and model, fractions allowed (default 60;\n"
        "                      0 = none)\n"
        "  --json FILE|-       result objects as verify --json writes them, plus expected and "
        "outcome\n"
        "  --junit FILE        JUnit XML, one testcase per test and model\n"
        "  --csv FILE          table: "
        "suite,test,model,expected,verdict,observation,states,time_ms,outcome\n"
        "  --shard I/N         run only slice I of N (1 <= I <= N); combine with 'ptxlitmus "
        "merge'\n"
        "  --shard auto[/N]    the slice of this task of a Slurm job array (SLURM_ARRAY_TASK_ID,\n"
        "                      _COUNT) or of a Kubernetes Indexed Job (JOB_COMPLETION_INDEX; N\n"
        "                      its completions)\n"
        "  --update            rewrite the manifests' expected verdicts from this run\n"
        "  --unroll N, --max-events N, --max-traces N, --states N|all|none, --max-depth N\n"
        "                      the limits of each test, as in verify\n"
        "  --allow-unknown     an Unknown result (timed out, or a bound cut the verdict short)\n"
        "                      does not fail the run\n"
        "  --hw                run the suites on a GPU instead (ptxlitmus hw options; "
        "docs/hardware.md)\n"
        "  -q, --quiet         no progress display\n"
        "  -v, --verbose       (accepted by every command)\n"
        "exit status: 0 every test agrees, 1 a disagreement, an error, an Unknown result or "
        "nothing\n"
        "checked (no test run, or no expected verdict compared), 2 usage error, 3 the results\n"
        "could not be written, 130 interrupted (the reports hold the jobs finished)\n");
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The project's suites/: ./suites, else next to the executable. */
static char *default_suites_dir(void)
{
    struct stat st;
    if (!stat("suites", &st) && S_ISDIR(st.st_mode)) return strdup("suites");
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 16);
    if (n > 0) {
        exe[n] = 0;
        char *s = strrchr(exe, '/');
        if (s) {
            strcpy(s + 1, "suites");
            if (!stat(exe, &st) && S_ISDIR(st.st_mode)) return strdup(exe);
        }
    }
    return NULL;
}

typedef struct { int m, t; } jobref;

enum { S_MODEL = 1, S_JOBS, S_TIMEOUT, S_JSON, S_JUNIT, S_CSV, S_SHARD, S_UPDATE, S_UNROLL,
       S_EVENTS, S_TRACES, S_STATES, S_DEPTH, S_ALLOW_UNKNOWN };
static const opt_def suite_defs[] = {
    OPT_COMMON,
    { "model", 0, S_MODEL, "a model name", "model" },
    { "jobs", 'j', S_JOBS, "a whole number", "j" },
    { "timeout", 0, S_TIMEOUT, "a number of seconds", "timeout" },
    { "json", 0, S_JSON | OPT_ONCE, "a file name", NULL },
    { "junit", 0, S_JUNIT | OPT_ONCE, "a file name", NULL },
    { "csv", 0, S_CSV | OPT_ONCE, "a file name", NULL },
    { "shard", 0, S_SHARD, "I/N, auto or auto/N", NULL },
    { "update", 0, S_UPDATE, NULL, NULL },
    { "unroll", 0, S_UNROLL, "a whole number", "unroll" },
    { "max-events", 0, S_EVENTS, "a whole number", NULL },
    { "max-traces", 0, S_TRACES, "a whole number", NULL },
    { "states", 0, S_STATES, "a whole number, all or none", NULL },
    { "max-states", 0, S_STATES, "a whole number", NULL },
    { "max-depth", 0, S_DEPTH, "a whole number", NULL },
    { "allow-unknown", 0, S_ALLOW_UNKNOWN, NULL, NULL },
    { NULL, 0, 0, NULL, NULL },
};

static cJSON *manifest_error(const char *path, const char *msg)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "file", path);
    cJSON_AddStringToObject(o, "status", "error");
    cJSON_AddNullToObject(o, "name");
    cJSON_AddStringToObject(o, "error", msg);
    cJSON_AddNumberToObject(o, "time_ms", 0);
    cJSON_AddStringToObject(o, "model", "-");
    /* the manifest's folder and file name: reports print SUITE/TEST */
    const char *slash = strrchr(path, '/');
    char *dir = slash ? strndup(path, (size_t)(slash - path)) : strdup(".");
    cJSON_AddStringToObject(o, "suite", dir ? dir : ".");
    cJSON_AddStringToObject(o, "test", slash ? slash + 1 : path);
    free(dir);
    cJSON_AddNullToObject(o, "expected");
    cJSON_AddStringToObject(o, "outcome", "error");
    cJSON_AddNumberToObject(o, "job", -1);
    return o;
}

/* the liveness a result reports: 0 terminates, 1 may-hang, -1 none */
static int got_liveness(const cJSON *res)
{
    const char *l = suite_str(res, "liveness");
    return !strcmp(l, "may-hang") ? 1 : !strcmp(l, "terminates") ? 0 : -1;
}

typedef struct { suite_job *jobs; int *expect; int *live; } failctx;
static int job_fails(void *ctx, int j, const cJSON *res)
{
    failctx *f = ctx;
    if (strcmp(suite_str(res, "status"), "ok")) return 1;
    if (f->live[j] >= 0 && got_liveness(res) != f->live[j]) return 1;
    return f->expect[j] >= 0 && f->expect[j] != !strcmp(suite_str(res, "verdict"), "Ok");
}

/* the options of one `ptxlitmus suite` command line */
typedef struct {
    suite_run_opts ro;
    const char *json, *junit, *csv, *shard;
    int update, quiet, allow_unknown, shard_i, shard_n, nmodels;
    char shard_buf[32];     /* --shard auto, resolved: "I/N" */
    model_kind models[8];
    char **paths;           /* the PATH arguments (plus the default suites/ when none) */
    int np;
    char *defdir;           /* the default suites/ directory, when used */
} suite_args;

/* the manifests the paths name; loaded[i] says whether ms[i] holds manifest mf[i] */
typedef struct {
    char **mf;
    int nmf;
    suite_manifest *ms;
    int *loaded;
    cJSON *pre;             /* result objects of the manifests that did not load */
    int bad;                /* a path or a manifest was refused */
} manifest_set;

/* the jobs of the run (this shard's), in a fixed order, with what each expects */
typedef struct {
    suite_job *jobs;
    jobref *ref;            /* the manifest and test of each job */
    int *expect, *live;     /* expected verdict and liveness of each job, -1 none */
    int *jobidx;            /* index of each job in the unsharded run */
    int nj, gjob;           /* jobs in this shard, in the whole run */
} job_list;

/* Reads the options and PATHs into a; returns -1 to go on, else the exit status. */
static int parse_suite_args(suite_args *a, int argc, char **argv)
{
    *a = (suite_args){ .shard_i = 1, .shard_n = 1 };
    suite_run_opts_default(&a->ro);
    suite_run_opts *ro = &a->ro;
    a->paths = calloc((size_t)argc + 1, sizeof *a->paths);
    int rc = -1;
    opt_parser p;
    opt_init(&p, "suite", suite_defs, argc, argv);
    int id;
    while (rc < 0 && (id = opt_next(&p)) != OPT_END) {
        long v;
        double d;
        switch (id) {
        case OPT_ERROR: rc = 2; break;
        case OPT_HELP: usage(stdout); rc = 0; break;
        case OPT_QUIET: a->quiet = 1; break;
        case OPT_VERBOSE: break;
        case S_MODEL: {
            model_kind k;
            if (model_parse(p.arg, &k) || k == MODEL_RC11_SCOPED) {   /* a manifest's models */
                opt_error(&p, "takes ptx (or ptx-v8.4), ptx-v7.5 or ptx-v6.0 (the models a "
                              "manifest lists), found '%s'", p.arg);
                rc = 2;
                break;
            }
            int dup = 0;
            for (int m = 0; m < a->nmodels; m++) if (a->models[m] == k) dup = 1;
            if (!dup && a->nmodels < 8) a->models[a->nmodels++] = k;
            break;
        }
        case S_JOBS: if (opt_long(&p, 1, 1024, &v)) rc = 2; else ro->jobs = (int)v; break;
        case S_TIMEOUT: if (opt_seconds(&p, 86400, &d)) rc = 2; else ro->timeout_s = d; break;
        case S_JSON: case S_JUNIT: case S_CSV:
            if (!*p.arg) { opt_error(&p, "takes a file name"); rc = 2; break; }
            if (id == S_JSON) a->json = p.arg;
            else if (id == S_JUNIT) a->junit = p.arg;
            else a->csv = p.arg;
            break;
        case S_SHARD: {
            char why[300];
            if (!strncmp(p.arg, "auto", 4)) {   /* from the job array's environment */
                if (suite_shard_auto(p.arg, &a->shard_i, &a->shard_n, why, sizeof why)) {
                    opt_error(&p, "%s %s", p.arg, why);
                    rc = 2;
                    break;
                }
                snprintf(a->shard_buf, sizeof a->shard_buf, "%d/%d", a->shard_i, a->shard_n);
                a->shard = a->shard_buf;
                break;
            }
            if (suite_parse_shard(p.arg, &a->shard_i, &a->shard_n)) {
                opt_error(&p, "takes I/N with 1 <= I <= N, auto or auto/N, found '%s'", p.arg);
                rc = 2;
                break;
            }
            a->shard = p.arg;
            break;
        }
        case S_UPDATE: a->update = 1; break;
        case S_UNROLL: if (opt_long(&p, 0, 1000, &v)) rc = 2; else ro->vo.unroll = (int)v; break;
        case S_EVENTS: if (opt_long(&p, 1, 256, &v)) rc = 2; else ro->vo.max_events = (int)v; break;
        case S_TRACES:
            if (opt_long(&p, 1, 10000000, &v)) rc = 2;
            else ro->vo.max_traces = (int)v;
            break;
        case S_STATES:
            if (!strcmp(p.def->name, "states") && !strcmp(p.arg, "all")) ro->vo.states = -1;
            else if (!strcmp(p.def->name, "states") && !strcmp(p.arg, "none")) ro->vo.states = 0;
            else if (opt_long(&p, 0, 100000000, &v)) rc = 2;
            else ro->vo.states = v;
            break;
        case S_DEPTH:
            if (opt_long(&p, 1, COND_DEPTH_CAP, &v)) rc = 2;
            else ro->max_depth = (int)v;
            break;
        case S_ALLOW_UNKNOWN: a->allow_unknown = 1; break;
        }
    }
    for (int i = 0; rc < 0 && i < p.npos; i++) a->paths[a->np++] = p.pos[i];
    opt_free(&p);
    if (rc >= 0) { free(a->paths); return rc; }
    if (a->update && a->shard) {
        fprintf(
            stderr,
            "ptxlitmus suite: --update cannot be combined with --shard (run the whole suite)\n");
        free(a->paths);
        return 2;
    }
    return -1;
}

/* Finds the manifests under a's paths and loads them; the refused ones go to M->pre. */
static void load_manifests(const suite_args *a, manifest_set *M)
{
    *M = (manifest_set){ .pre = cJSON_CreateArray() };
    for (int i = 0; i < a->np; i++) {
        int k = suite_find_manifests(a->paths[i], &M->mf, &M->nmf);
        if (k < 0) {
            fprintf(stderr,
                    "%s:1:1: cannot open: %s, expected a manifest or a directory of suites\n",
                    a->paths[i], strerror(errno));
            M->bad = 1;
        } else if (k == 0) {
            fprintf(stderr, "%s:1:1: found no manifest.yaml, expected a suite directory\n",
                    a->paths[i]);
            M->bad = 1;
        }
    }
    int nmf = M->nmf;
    M->ms = calloc((size_t)(nmf ? nmf : 1), sizeof *M->ms);
    M->loaded = calloc((size_t)(nmf ? nmf : 1), sizeof *M->loaded);
    for (int i = 0; i < nmf; i++) {
        char err[1024];
        if (suite_manifest_load(M->mf[i], &M->ms[i], err, sizeof err)) {
            report_tprintf(stderr, "%s\n", err);
            cJSON_AddItemToArray(M->pre, manifest_error(M->mf[i], err));
            suite_manifest_free(&M->ms[i]);
            M->bad = 1;
        } else M->loaded[i] = 1;
    }
}

/* Frees the manifests of M (not M->pre). */
static void free_manifests(manifest_set *M)
{
    for (int i = 0; i < M->nmf; i++) {
        if (M->loaded[i]) suite_manifest_free(&M->ms[i]);
        free(M->mf[i]);
    }
    free(M->ms); free(M->mf); free(M->loaded);
}

/* Whether an output file is refused: never a manifest or a test, its folder there
 * (base/fileio.h); output_check has said why. */
static int outputs_refused(const suite_args *a, const manifest_set *M)
{
    int ni = M->nmf;
    for (int i = 0; i < M->nmf; i++) if (M->loaded[i]) ni += M->ms[i].nt;
    const char **in = xcalloc((size_t)ni + 1, sizeof *in);
    int k = 0;
    for (int i = 0; i < M->nmf; i++) {
        in[k++] = M->mf[i];
        for (int t = 0; M->loaded[i] && t < M->ms[i].nt; t++) in[k++] = M->ms[i].t[t].path;
    }
    int refused = output_check("suite", a->json, in, k) || output_check("suite", a->junit, in, k) ||
                  output_check("suite", a->csv, in, k);
    free(in);
    return refused;
}

/* Lists the jobs in a fixed order: manifest, test, model (ptx, ptx-v7.5, ptx-v6.0); only
 * this shard's are kept, each with its index in the whole run. */
static void build_jobs(const suite_args *a, const manifest_set *M, job_list *J)
{
    static const model_kind all[] = { MODEL_PTX, MODEL_PTX75, MODEL_PTX60 };
    *J = (job_list){ 0 };
    int nj = 0, gtest = 0;
    for (int i = 0; i < M->nmf; i++) {
        if (!M->loaded[i]) continue;
        for (int t = 0; t < M->ms[i].nt; t++, gtest++) {
            suite_test *te = &M->ms[i].t[t];
            int mine = gtest % a->shard_n == a->shard_i - 1;
            for (int k = 0; k < 3; k++) {
                int sel = !a->nmodels;
                for (int m = 0; m < a->nmodels; m++) if (a->models[m] == all[k]) sel = 1;
                if (!sel) continue;
                int e = suite_expect_get(te, all[k]);
                if (e < 0 && !(a->update && a->nmodels)) continue;
                int g = J->gjob++;
                if (!mine) continue;
                J->jobs = realloc(J->jobs, (size_t)(nj + 1) * sizeof *J->jobs);
                J->ref = realloc(J->ref, (size_t)(nj + 1) * sizeof *J->ref);
                J->expect = realloc(J->expect, (size_t)(nj + 1) * sizeof *J->expect);
                J->live = realloc(J->live, (size_t)(nj + 1) * sizeof *J->live);
                J->jobidx = realloc(J->jobidx, (size_t)(nj + 1) * sizeof *J->jobidx);
                J->jobs[nj] = (suite_job){ .path = te->path, .model = all[k],
                                           .liveness = te->liveness >= 0 };
                J->ref[nj] = (jobref){ i, t };
                J->expect[nj] = e;
                J->live[nj] = te->liveness;
                J->jobidx[nj] = g;
                nj++;
            }
        }
    }
    J->nj = nj;
}

/* Frees the arrays of J. */
static void free_jobs(job_list *J)
{
    free(J->jobs); free(J->ref); free(J->expect); free(J->live); free(J->jobidx);
}

/* Runs the jobs with the progress display; returns suite_run's signal and the wall time. */
static int run_jobs(suite_args *a, job_list *J, double *wall)
{
    suite_run_opts *ro = &a->ro;
    for (int j = 0; j < J->nj; j++) prov_add_bundled(J->jobs[j].model);
    ro->progress = a->quiet ? 0 : isatty(2) ? 1 : 2;
    ro->label = "suite";
    failctx fc = { J->jobs, J->expect, J->live };
    ro->is_fail = job_fails;
    ro->fail_ctx = &fc;
    double t0 = now_s();
    int sig = suite_run(J->jobs, J->nj, ro);   /* SIGINT/SIGTERM: partial results (issue #16) */
    *wall = now_s() - t0;
    return sig;
}

/* Labels one finished job's result with its suite, test, expectations and outcome; counts
 * Unknown results and errors in *errs and, under --update, rewrites the expectations. */
static void label_result(const suite_args *a, const job_list *J, int j, suite_manifest *m,
                         int *changed, int *errs)
{
    cJSON *r = J->jobs[j].res;
    const int *expect = J->expect, *live = J->live;
    suite_test *t = &m->t[J->ref[j].t];
    cJSON_AddStringToObject(r, "suite", m->name);
    cJSON_AddStringToObject(r, "test", t->file);
    if (expect[j] >= 0) cJSON_AddStringToObject(r, "expected", expect[j] ? "Ok" : "No");
    else cJSON_AddNullToObject(r, "expected");
    const char *st = suite_str(r, "status");
    const char *oc;
    if (!strcmp(st, "ok") && !strcmp(suite_str(r, "verdict"), "Unknown")) {
        oc = "unknown";   /* a bound cut the verdict short: never written by --update */
        if (!a->allow_unknown) (*errs)++;
    } else if (!strcmp(st, "ok")) {
        int got = !strcmp(suite_str(r, "verdict"), "Ok");
        oc = expect[j] < 0 ? "new" : got == expect[j] ? "agree" : "disagree";
        if (a->update && expect[j] != got) {
            suite_expect_set(t, J->jobs[j].model, got);
            (*changed)++;
        }
        /* `liveness:` is a second expectation of the same test (verify --liveness) */
        int gl = got_liveness(r);
        if (live[j] >= 0) {
            cJSON_AddStringToObject(r, "expected_liveness", live[j] ? "may-hang" : "terminates");
            if (gl != live[j]) {
                if (a->update && gl >= 0) { t->liveness = gl; (*changed)++; }
                else oc = "disagree";
            }
        }
    } else if (!strcmp(st, "timeout")) {
        oc = "unknown";
        if (!a->allow_unknown) (*errs)++;
    } else { oc = "error"; (*errs)++; }
    cJSON_AddStringToObject(r, "outcome", oc);
    cJSON_AddNumberToObject(r, "job", J->jobidx[j]);
    cJSON_AddStringToObject(r, "manifest", m->path);
}

/* Collects the manifest errors (M->pre, consumed) and the results of the jobs that ran into
 * one array, each labelled by label_result; *ran counts the jobs that ran. */
static cJSON *collect_results(const suite_args *a, manifest_set *M, job_list *J,
                              int *changed, int *errs, int *ran)
{
    cJSON *results = cJSON_CreateArray();
    cJSON *it;
    while ((it = cJSON_DetachItemFromArray(M->pre, 0))) cJSON_AddItemToArray(results, it);
    cJSON_Delete(M->pre);
    M->pre = NULL;
    for (int j = 0; j < J->nj; j++) {
        if (!J->jobs[j].res) continue;   /* not run: the suite was interrupted */
        (*ran)++;
        label_result(a, J, j, &M->ms[J->ref[j].m], changed, errs);
        cJSON_AddItemToArray(results, J->jobs[j].res);
        J->jobs[j].res = NULL;
    }
    return results;
}

/* Writes the --json, --junit and --csv reports and, under --update of a whole run, the
 * manifests; returns 1 when a write failed. */
static int write_reports(const suite_args *a, const manifest_set *M, cJSON *results, int sig,
                         int changed, FILE *out)
{
    int werr = 0;
    if (a->json && suite_write_json(a->json, results, a->shard, sig != 0)) werr = 1;
    if (a->junit && suite_write_junit(a->junit, results, sig != 0)) werr = 1;
    if (a->csv && suite_write_csv(a->csv, results)) werr = 1;
    if (a->update && !sig) {
        int nmf = M->nmf;
        for (int i = 0; i < nmf; i++) {
            if (!M->loaded[i]) continue;
            char *text = suite_manifest_text(&M->ms[i]);
            if (report_write_atomic(M->ms[i].path, text)) werr = 1;
            free(text);
        }
        fprintf(out, "updated %d expected verdict%s in %d manifest%s\n", changed,
                changed == 1 ? "" : "s", nmf, nmf == 1 ? "" : "s");
    }
    return werr;
}

int suite_cli(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)   /* suite --hw: the suites on a GPU (hw/suite_hw.c) */
        if (!strcmp(argv[i], "--hw")) return hw_suite_cli(argc, argv);
    suite_args a;
    int rc = parse_suite_args(&a, argc, argv);
    if (rc >= 0) return rc;
    int json_stdout = a.json && !strcmp(a.json, "-");
    if ((a.junit && !strcmp(a.junit, "-")) || (a.csv && !strcmp(a.csv, "-"))) json_stdout = 1;
    FILE *out = json_stdout ? stderr : stdout;   /* keep stdout for the machine-readable output */

    if (!a.np) {
        a.defdir = default_suites_dir();
        if (!a.defdir) {
            fprintf(stderr, "ptxlitmus suite: no PATH given and no suites/ directory found (here "
                            "or next to the executable)\n");
            free(a.paths);
            return 2;
        }
        a.paths[a.np++] = a.defdir;
    }
    manifest_set M;
    load_manifests(&a, &M);
    if (outputs_refused(&a, &M)) {
        cJSON_Delete(M.pre);
        free_manifests(&M);
        free(a.paths); free(a.defdir);
        return 2;
    }
    job_list J;
    build_jobs(&a, &M, &J);
    double wall;
    int sig = run_jobs(&a, &J, &wall);

    int changed = 0, errs = M.bad, ran = 0, bad = M.bad;
    cJSON *results = collect_results(&a, &M, &J, &changed, &errs, &ran);
    if (suite_print_summary_ex(out, results, wall,
                               (a.allow_unknown ? SUITE_ALLOW_UNKNOWN : 0) |
                                   (a.update ? SUITE_UPDATING : 0)))
        bad = 1;
    if (a.shard) fprintf(out, "shard %s: %d of %d jobs\n", a.shard, J.nj, J.gjob);
    if (sig)
        fprintf(out,
                "INTERRUPTED by %s after %d of %d jobs: the reports are partial (\"interrupted\": "
                "true)%s\n",
                sig == SIGINT ? "SIGINT" : "SIGTERM", ran, J.nj,
                a.update ? "; manifests not updated" : "");
    int werr = write_reports(&a, &M, results, sig, changed, out);
    fflush(out);
    cJSON_Delete(results);
    free_manifests(&M);
    free_jobs(&J);
    free(a.paths); free(a.defdir);
    if (sig) return 128 + sig;   /* 130 for SIGINT, 143 for SIGTERM, as the shell reports */
    if (werr) return EXIT_NOT_WRITTEN;   /* the results are lost: their own status */
    if (a.update) return errs ? 1 : 0;
    return bad ? 1 : 0;
}
