/* cli/check_cli.c — `ptxlitmus check SPEC.yaml [--model M | --cat FILE] [--timeout S]
 * [--max-executions N] [--unroll N] [--json F] [--graph F] [--litmus F] [-q]`: the executions
 * of a kernel (the launch spec of `run`) that the memory model allows, explored by kcheck/
 * (docs/check.md).  Prints each finding with its execution, the extracted litmus test and a
 * summary line.  Exit status: 0 no finding and the exploration was exhaustive; 1 a finding;
 * 4 no finding but a bound (--max-executions, --unroll, --timeout) cut the exploration short;
 * 2 an error; 3 an output could not be written. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/alloc.h"
#include "base/fileio.h"
#include "base/opts.h"
#include "cli/cli.h"
#include "cli/run_cli.h"
#include "kcheck/kcheck.h"
#include "kcheck/witness.h"
#include "model/bundled.h"
#include "model/models.h"
#include "report/graph.h"
#include "report/provenance.h"
#include "report/report.h"

enum { C_MODEL = 1, C_CAT, C_TIMEOUT, C_MAXEX, C_UNROLL, C_JSON, C_GRAPH, C_LITMUS, C_STEPS };

static const opt_def check_defs[] = {
    OPT_COMMON,
    { "model", 0, C_MODEL, "a model name", "model" },
    { "cat", 0, C_CAT, "a cat file", "cat" },
    { "timeout", 0, C_TIMEOUT, "a number of seconds", "timeout" },
    { "max-executions", 0, C_MAXEX, "a whole number", NULL },
    { "unroll", 0, C_UNROLL, "a whole number", "unroll" },
    { "max-steps", 0, C_STEPS, "a whole number", NULL },
    { "json", 0, C_JSON | OPT_ONCE, "a file name or -", NULL },
    { "graph", 0, C_GRAPH | OPT_ONCE, "a file name", NULL },
    { "litmus", 0, C_LITMUS | OPT_ONCE, "a file name or -", NULL },
    { NULL, 0, 0, NULL, NULL },
};

typedef struct {
    const char *spec, *cat, *json, *graph, *litmus;
    model_kind model;
    double timeout;
    long max_ex, unroll, steps;
    int quiet;
} check_opts;

static void usage(FILE *f)
{
    fprintf(f,
            "usage: ptxlitmus check SPEC.yaml [options]\n"
            "  --model M            the memory model: %s (default ptx)\n"
            "  --cat FILE           a cat model instead\n"
            "  --timeout S          stop exploring after S seconds (exit 4 when nothing was "
            "found)\n"
            "  --max-executions N   stop after N executions (exit 4 when nothing was found)\n"
            "  --unroll N           backward branches one thread may take in one execution "
            "(default 2048)\n"
            "  --max-steps N        warp-instructions of one execution (the executor's limit)\n"
            "  --json FILE|-        the summary and the findings as JSON\n"
            "  --graph FILE         the main finding's execution as DOT (SVG for FILE.svg, with "
            "Graphviz)\n"
            "  --litmus FILE|-      the main finding's extracted litmus test (the main finding:\n"
            "                       the first that is not a race or an output difference)\n"
            "  -q, --quiet          the summary line only\n"
            "The spec is run's (docs/executor.md), with expect: { BUFFER: [values] }.\n"
            "Exit status: 0 no finding and every execution explored; 1 a finding; 4 no finding\n"
            "but a bound cut the exploration short; 2 an error; 3 an output not written.\n",
            model_choices());
}

static int parse(int argc, char **argv, check_opts *o)
{
    memset(o, 0, sizeof *o);
    o->model = MODEL_PTX;
    o->unroll = 2048;
    opt_parser p;
    opt_init(&p, "check", check_defs, argc, argv);
    int id, rc = -1;
    while (rc < 0 && (id = opt_next(&p)) != OPT_END) {
        switch (id) {
        case OPT_ERROR: usage(stderr); rc = 2; break;
        case OPT_HELP: usage(stdout); rc = 0; break;
        case OPT_QUIET: o->quiet = 1; break;
        case OPT_VERBOSE: break;
        case C_MODEL:
            if (model_parse(p.arg, &o->model) || o->model == MODEL_RC11_SCOPED) {
                fprintf(stderr, "ptxlitmus check: --model takes ptx, ptx-v7.5 or ptx-v6.0, "
                                "found '%s'\n", p.arg);
                rc = 2;
            }
            break;
        case C_CAT: o->cat = p.arg; break;
        case C_TIMEOUT: if (opt_seconds(&p, 1e6, &o->timeout)) rc = 2; break;
        case C_MAXEX: if (opt_long(&p, 1, 1000000000L, &o->max_ex)) rc = 2; break;
        case C_UNROLL: if (opt_long(&p, 1, 100000000L, &o->unroll)) rc = 2; break;
        case C_STEPS: if (opt_long(&p, 1, 4000000000000L, &o->steps)) rc = 2; break;
        case C_JSON: o->json = p.arg; break;
        case C_GRAPH: o->graph = p.arg; break;
        case C_LITMUS: o->litmus = p.arg; break;
        }
    }
    if (rc < 0 && p.npos != 1) {
        fprintf(stderr, "ptxlitmus check: found %d launch specs, expected one SPEC.yaml\n",
                p.npos);
        usage(stderr);
        rc = 2;
    }
    if (rc < 0) o->spec = p.pos[0];
    opt_free(&p);
    return rc;
}

/* the model's text: --cat FILE, else the bundled one */
static char *model_text(const check_opts *o, const char **file, const char **name)
{
    if (o->cat) {
        char *text, why[200];
        size_t n;
        if (read_input(o->cat, FILEIO_CAP_DEFAULT, &text, &n, why, sizeof why)) {
            fprintf(stderr, "%s:1:1: found no readable file (%s), expected a cat model\n", o->cat,
                    why);
            return NULL;
        }
        *file = o->cat;
        *name = o->cat;
        prov_add_model(o->cat, o->cat, text);
        return text;
    }
    for (int i = 0; i < model_nbundled; i++)
        if (!strcmp(model_bundled[i].name, model_file(o->model))) {
            *file = model_bundled[i].name;
            *name = model_name(o->model);
            prov_add_bundled(o->model);
            return xstrdup(model_bundled[i].text);
        }
    return NULL;
}

static const char *kind_name(int k)
{
    static const char *const n[] = { "trap", "assert", "fault", "expect", "race", "hang",
                                     "deadlock" };
    return k >= 0 && k <= KC_DEADLOCK ? n[k] : "?";
}

static const char *status_name(int s)
{
    static const char *const n[] = { "clean", "found", "bounded", "error" };
    return n[s];
}

static cJSON *result_json(const check_opts *o, const kcheck_result *r, const char *model,
                          char *const *texts, char *const *tests)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddItemToObject(j, "provenance", prov_json());
    cJSON_AddStringToObject(j, "spec", o->spec);
    cJSON_AddStringToObject(j, "model", model);
    cJSON_AddStringToObject(j, "status", status_name(r->status));
    if (r->status == KC_BOUNDED) cJSON_AddStringToObject(j, "bound", r->bound);
    if (r->status == KC_ERROR) cJSON_AddStringToObject(j, "error", r->err);
    cJSON_AddNumberToObject(j, "executions", (double)r->executions);
    cJSON_AddNumberToObject(j, "consistent", (double)(r->complete + r->blocked));
    cJSON_AddNumberToObject(j, "complete", (double)r->complete);
    cJSON_AddNumberToObject(j, "blocked", (double)r->blocked);
    cJSON_AddNumberToObject(j, "moot", (double)r->moot);
    cJSON_AddNumberToObject(j, "inconsistent", (double)r->inconsistent);
    cJSON_AddNumberToObject(j, "checks", (double)r->checks);
    cJSON_AddNumberToObject(j, "revisits", (double)r->revisits);
    cJSON_AddNumberToObject(j, "seconds", r->seconds);
    cJSON *fa = cJSON_AddArrayToObject(j, "findings");
    for (int i = 0; i < r->nf; i++) {
        cJSON *f = cJSON_CreateObject();
        cJSON_AddStringToObject(f, "kind", kind_name(r->f[i].kind));
        cJSON_AddStringToObject(f, "message", r->f[i].msg);
        cJSON_AddNumberToObject(f, "thread", r->f[i].thread);
        cJSON_AddNumberToObject(f, "execution", (double)r->f[i].uses);
        if (texts[i]) cJSON_AddStringToObject(f, "report", texts[i]);
        if (tests[i]) cJSON_AddStringToObject(f, "litmus", tests[i]);
        cJSON_AddItemToArray(fa, f);
    }
    return j;
}

static int write_text(const char *path, const char *text, const char *what)
{
    if (report_write_atomic(path, text)) {
        fprintf(stderr, "ptxlitmus check: cannot write the %s '%s'\n", what, path);
        return -1;
    }
    return 0;
}

/* the findings' reports and extracted tests, printed and written; -1 when an output failed */
static int outputs(const check_opts *o, const kcheck_launch *L, const kcheck_opts *ko,
                   const kcheck_result *r)
{
    int bad = 0, primary = 0;   /* the first trap, assert, fault, hang: else the first */
    for (int i = r->nf - 1; i >= 0; i--)
        if (r->f[i].kind != KC_RACE && r->f[i].kind != KC_EXPECT) primary = i;
    char **texts = xcalloc((size_t)r->nf + 1, sizeof *texts);
    char **tests = xcalloc((size_t)r->nf + 1, sizeof *tests);
    for (int i = 0; i < r->nf; i++) {
        char err[1024] = "";
        kcheck_witness *w = kcheck_witness_new(L, ko, r, i, err, sizeof err);
        if (!w) {
            fprintf(stderr, "ptxlitmus check: finding %d: %s\n", i + 1, err);
            continue;
        }
        texts[i] = kcheck_witness_text(w);
        tests[i] = kcheck_witness_litmus(w);
        if (!o->quiet) report_tprintf(stdout, "%s\n", texts[i]);
        if (i == primary && o->graph) {
            char *dot = graph_dot_execution(kcheck_witness_execution(w));
            bad |= graph_write_file(o->graph, dot) != 0;
            free(dot);
        }
        if (i == primary && o->litmus)
            bad |= write_text(o->litmus, tests[i], "litmus test") != 0;
        kcheck_witness_free(w);
    }
    if (o->json) {
        cJSON *j = result_json(o, r, ko->model_name, texts, tests);
        char *s = report_json_text(j, 1);
        cJSON_Delete(j);
        bad |= write_text(o->json, s, "JSON") != 0;
        free(s);
    }
    for (int i = 0; i < r->nf; i++) { free(texts[i]); free(tests[i]); }
    free(texts);
    free(tests);
    return bad ? -1 : 0;
}

static void summary(const check_opts *o, const kcheck_result *r)
{
    double rate = r->seconds > 0 ? (double)r->executions / r->seconds : 0;
    report_tprintf(stdout,
                   "%s: %llu executions (%llu complete, %llu blocked, %llu moot), %llu graphs "
                   "inconsistent, %llu model checks, %.2f s (%.0f executions/s)\n",
                   o->spec, (unsigned long long)r->executions, (unsigned long long)r->complete,
                   (unsigned long long)r->blocked, (unsigned long long)r->moot,
                   (unsigned long long)r->inconsistent, (unsigned long long)r->checks,
                   r->seconds, rate);
    if (r->status == KC_FOUND) {
        int hard = 0;
        for (int i = 0; i < r->nf; i++) hard += r->f[i].kind != KC_RACE;
        printf("Result: FOUND %d finding%s (%s)\n", r->nf, r->nf == 1 ? "" : "s",
               kind_name(r->f[r->nf - 1].kind));
        (void)hard;
    } else if (r->status == KC_CLEAN)
        printf("Result: CLEAN (every execution the model allows was explored; no finding)\n");
    else if (r->status == KC_BOUNDED)
        report_tprintf(stdout,
                       "Result: BOUNDED (%s cut the exploration short: no finding among the "
                       "executions explored, which proves nothing about the others)\n",
                       r->bound);
}

int check_cli(int argc, char **argv)
{
    check_opts o;
    int rc = parse(argc, argv, &o);
    if (rc >= 0) return rc;
    const char *mfile = NULL, *mname = NULL;
    char *mtext = model_text(&o, &mfile, &mname);
    if (!mtext) return 2;
    run_state *rs = run_spec_open(o.spec, (uint64_t)o.steps, 0);
    if (!rs) { free(mtext); return 2; }
    int nexp;
    const run_expect *re = run_spec_expect(rs, &nexp);
    kcheck_expect *ex = xcalloc((size_t)nexp + 1, sizeof *ex);
    for (int i = 0; i < nexp; i++) {
        ex[i].dev = re[i].dev;
        ex[i].size = re[i].size;
        ex[i].value = re[i].value;
        snprintf(ex[i].what, sizeof ex[i].what, "%s", re[i].what);
    }
    kcheck_launch L = { run_spec_fn(rs), run_spec_cfg(rs), run_spec_args(rs), ex, nexp };
    kcheck_opts ko = { mfile, mtext, mname, !o.cat, o.timeout, (uint64_t)o.max_ex,
                       (int)o.unroll };
    kcheck_result r;
    kcheck_run(&L, &ko, &r);
    if (r.status == KC_ERROR) {
        report_tprintf(stderr, "%s: %s\n", o.spec, r.err);
        rc = 2;
    } else {
        rc = r.status == KC_FOUND ? 1 : r.status == KC_BOUNDED ? 4 : 0;
        if (outputs(&o, &L, &ko, &r)) rc = 3;
        summary(&o, &r);
    }
    kcheck_result_free(&r);
    free(ex);
    run_spec_close(rs);
    free(mtext);
    return rc;
}
