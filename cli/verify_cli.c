/* cli/verify_cli.c — `ptxlitmus verify [options] FILE...`: decide each litmus test under each
 * model given, print a herd-style block per test and model, optionally export JSON.  A
 * malformed test gets file:line:col on stderr and an error entry; the other files are still
 * verified.  Exit status: 0 when every file was verified, 2 otherwise (also for usage errors). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "base/alloc.h"
#include "base/opts.h"
#include "cli/cli.h"
#include "cli/verify_int.h"
#include "report/report.h"
#include "check/verify.h"
#include "report/graph.h"
#include "report/provenance.h"
#include "base/fileio.h"
#include "solver/query.h"
#include "frontend/cat.h"
#include "model/bundled.h"

static void usage(FILE *f)
{
    fprintf(
        f,
        "usage: ptxlitmus verify [options] FILE|DIR|@LIST...\n"
        "  --model NAME        ptx (default: ISA 8.4 + mixed proxies; also ptx-v8.4), ptx-v7.5,\n"
        "                      ptx-v6.0, rc11-scoped (scoped C++, the source side of llvm-check)\n"
        "                      or a FILE.cat; repeat it to decide each test under several\n"
        "                      models (herd7: -model)\n"
        "  --cat FILE          a model written in cat (herd7/Dat3M); includes are searched in\n"
        "                      FILE's folder, then in the bundled models\n"
        "  --json FILE|-       write the results as JSON (docs/json-schema.md)\n"
        "  --unroll N          backward jumps allowed per branch on one path (default 2; herd7:\n"
        "                      -unroll)\n"
        "  --max-events N      events per path (default 200)\n"
        "  --max-traces N      paths per thread (default 20000)\n"
        "  --states N|all|none reachable states enumerated and listed per test (default 1000; the\n"
        "                      verdict never depends on it; --max-states N is the same)\n"
        "  --max-depth N       nesting levels allowed in a condition (default 512, at most 10000)\n"
        "  --timeout S         wall-clock limit of each test in seconds, fractions allowed "
        "(default\n"
        "                      none)\n"
        "  --max-memory B      memory of each test, BYTES[K|M|G] (default 4G; 0 none); past it\n"
        "                      the verdict is Unknown\n"
        "  -j N, --jobs N      decide N files at a time (threads; default 1); the output is the\n"
        "                      same, in file order (herd7: -j)\n"
        "  --graph DIR, -o DIR write execution graphs per test: DIR/NAME.dot (+ .svg with dot)\n"
        "                      (herd7: -o DIR); NAME is the test file's name, + .MODEL with\n"
        "                      several models, + -2, -3... when an earlier test had the same\n"
        "  --show WHAT         which executions --graph draws: witness (the default; herd7 -show\n"
        "                      prop), all (one per allowed final state) or forbidden (one per\n"
        "                      execution with the outcome that the model rules out, herd7 -show\n"
        "                      neg)\n"
        "  --through WHAT      herd7's -through: none (= --show witness), invalid (= forbidden)\n"
        "                      or all\n"
        "  --events isa|dat3m  how instructions become events (docs/model.md, Event semantics):\n"
        "                      the ISA's, or Dat3M's (failed atom.cas writes, fence.sc only SC,\n"
        "                      Dat3M barrier instances); default: dat3m under ptx-v7.5 and\n"
        "                      ptx-v6.0, isa otherwise (a --cat model included)\n"
        "  --cas-fail read|write  an atom.cas whose comparison fails only reads, or also writes\n"
        "                      the value read back (default: as --events says)\n"
        "  --explain           for an outcome no execution reaches, name the model's checks that\n"
        "                      rule it out (\"Ruled out by\"; JSON \"violated\")\n"
        "  --liveness          also decide whether some execution never ends (a fair spin, a\n"
        "                      barrier that never completes): Liveness line, JSON liveness\n"
        "  --Werror            warnings (a condition register its thread never writes, a location\n"
        "                      the initial state never declares, no condition, a location\n"
        "                      initialised twice) are errors\n"
        "  --allow-unknown     exit 0 even when a verdict is Unknown (a --timeout, --max-memory\n"
        "                      or a bound hit)\n"
        "  -q, --quiet         no herd blocks on stdout\n"
        "  -v, --verbose       say on stderr what is decided under which model\n"
        "  FILE may be a directory (its .litmus files, sorted) or @LIST (a file of arguments)\n"
        "exit status: 0 every test decided, 1 a verdict is Unknown (timed out, or a bound cut\n"
        "paths and the verdict rests on an absence), 2 an error, 3 the results could not be\n"
        "written (130 interrupted by SIGINT: the JSON holds the files finished)\n");
}

enum {
    V_MODEL = 1, V_CAT, V_JSON, V_UNROLL, V_EVENTS, V_TRACES, V_STATES, V_DEPTH, V_TIMEOUT,
    V_GRAPH, V_EXPLAIN, V_ALLOW_UNKNOWN, V_WERROR, V_SHOW, V_THROUGH, V_LIVENESS, V_SEMANTICS,
    V_CAS_FAIL, V_JOBS, V_MEMORY,
};

static const opt_def verify_defs[] = {
    OPT_COMMON,
    { "model", 0, V_MODEL, "a model name or a .cat file", "model" },
    { "cat", 0, V_CAT, "a cat file", "cat" },
    { "json", 0, V_JSON | OPT_ONCE, "a file name or -", NULL },
    { "unroll", 0, V_UNROLL, "a whole number", "unroll" },
    { "max-events", 0, V_EVENTS, "a whole number", NULL },
    { "max-traces", 0, V_TRACES, "a whole number", NULL },
    { "states", 0, V_STATES, "a whole number, all or none", NULL },
    { "max-states", 0, V_STATES, "a whole number", NULL },
    { "max-depth", 0, V_DEPTH, "a whole number", NULL },
    { "timeout", 0, V_TIMEOUT, "a number of seconds", "timeout" },
    { "max-memory", 0, V_MEMORY, "a size in bytes", NULL },
    { "jobs", 'j', V_JOBS, "a whole number", "j" },
    { "graph", 'o', V_GRAPH | OPT_ONCE, "a directory", NULL },
    { "explain", 0, V_EXPLAIN, NULL, NULL },
    { "liveness", 0, V_LIVENESS, NULL, NULL },
    { "allow-unknown", 0, V_ALLOW_UNKNOWN, NULL, NULL },
    { "Werror", 0, V_WERROR, NULL, NULL },
    { "show", 0, V_SHOW, "witness, all or forbidden", "show" },
    { "through", 0, V_THROUGH, "none, invalid or all", "through" },
    { "events", 0, V_SEMANTICS, "isa or dat3m", NULL },
    { "cas-fail", 0, V_CAS_FAIL, "read or write", NULL },
    { NULL, 0, 0, NULL, NULL },
};

static int ends_with(const char *s, const char *e)
{
    size_t l = strlen(s), k = strlen(e);
    return l >= k && !strcmp(s + l - k, e);
}

static int add_model(const opt_parser *p, vmodel *m, int *n, const char *val, int is_cat)
{
    if (*n == MAX_MODELS) {
        opt_error(p, "given more than %d times", MAX_MODELS);
        return -1;
    }
    vmodel *v = &m[*n];
    memset(v, 0, sizeof *v);
    if (is_cat || ends_with(val, ".cat")) {
        if (!*val) { opt_error(p, "takes a cat file"); return -1; }
        v->cat_file = val;
    } else if (model_parse(val, &v->kind)) {
        opt_error(p, "takes %s, or a FILE.cat, found '%s'", model_choices(), val);
        return -1;
    }
    for (int i = 0; i < *n; i++)   /* the same model twice is one model */
        if (m[i].cat_file ? v->cat_file && !strcmp(m[i].cat_file, v->cat_file)
                          : !v->cat_file && m[i].kind == v->kind)
            return 0;
    (*n)++;
    return 0;
}

static int load_cat(vmodel *v)
{
    char cerr[1024], why[200], *text;
    size_t len;
    if (!read_input(v->cat_file, (size_t)16 << 20, &text, &len, why, sizeof why)) {
        prov_add_model(v->cat_file, v->cat_file, text);   /* the hash of the text read */
        free(text);
    }
    const char *search[] = { CAT_BUILTIN };
    cat_set_builtins(model_bundled, model_nbundled);
    v->cm = cat_load_file_prelude(v->cat_file, search, 1, "stdlib.cat", cerr, sizeof cerr);
    if (v->cm) v->cp = query_link_model(v->cm, cerr, sizeof cerr);
    if (!v->cp) { fprintf(stderr, "%s\n", cerr); return -1; }
    v->label = cat_model_name(v->cm);
    if (!v->label || !*v->label) v->label = v->cat_file;
    return 0;
}

/* Expands the FILE|DIR|@LIST arguments into a->files; -1 to go on, else the exit status. */
static int verify_files(const opt_parser *p, verify_args *a)
{
    int rc = -1;
    for (int i = 0; i < p->npos; i++) {
        int k = path_expand(p->pos[i], ".litmus", &a->files, &a->nf, &a->loops);
        if (k == 0) {
            fprintf(stderr, "%s:1:1: found a directory without .litmus files, expected a "
                            "litmus test or a directory of them\n", p->pos[i]);
            rc = 2;
        }
    }
    if (rc < 0 && !a->nf && !p->npos) {
        fprintf(stderr, "ptxlitmus verify: no test file given\n");
        usage(stderr);
        rc = 2;
    }
    return rc;
}

/* The options; -1 to go on, else the exit status. */
static int verify_options(int argc, char **argv, verify_args *a)
{
    memset(a, 0, sizeof *a);
    verify_opts_default(&a->o);
    a->max_depth = COND_MAX_DEPTH;
    a->jobs = 1;
    opt_parser p;
    opt_init(&p, "verify", verify_defs, argc, argv);
    int id, rc = -1;
    long v;
    double d;
    while (rc < 0 && (id = opt_next(&p)) != OPT_END) {
        switch (id) {
        case OPT_ERROR: rc = 2; break;
        case OPT_HELP: usage(stdout); rc = 0; break;
        case OPT_QUIET: a->quiet = 1; break;
        case OPT_VERBOSE: a->verbose = 1; break;
        case V_MODEL:
        case V_CAT:
            if (add_model(&p, a->models, &a->nmodels, p.arg, id == V_CAT)) rc = 2;
            break;
        case V_JSON:
            if (!*p.arg) { opt_error(&p, "takes a file name or -"); rc = 2; }
            a->json = p.arg;
            break;
        case V_GRAPH:
            if (!*p.arg) { opt_error(&p, "takes a directory"); rc = 2; }
            a->graph_dir = p.arg;
            break;
        case V_UNROLL:
            if (opt_long(&p, 0, 1000, &v)) rc = 2; else a->o.unroll = (int)v;
            break;
        case V_EVENTS:
            if (opt_long(&p, 1, 256, &v)) rc = 2; else a->o.max_events = (int)v;
            break;
        case V_TRACES:
            if (opt_long(&p, 1, 10000000, &v)) rc = 2; else a->o.max_traces = (int)v;
            break;
        case V_STATES:
            if (!strcmp(p.def->name, "states") && !strcmp(p.arg, "all")) a->o.states = -1;
            else if (!strcmp(p.def->name, "states") && !strcmp(p.arg, "none")) a->o.states = 0;
            else if (opt_long(&p, 0, 100000000, &v)) rc = 2;
            else a->o.states = v;
            break;
        case V_DEPTH:
            if (opt_long(&p, 1, COND_DEPTH_CAP, &v)) rc = 2; else a->max_depth = (int)v;
            break;
        case V_TIMEOUT:
            if (opt_seconds(&p, 86400.0 * 365, &d)) rc = 2; else a->o.timeout_s = d;
            break;
        case V_MEMORY: {
            uint64_t b;
            if (opt_bytes(&p, 1ull << 40, &b)) rc = 2; else a->o.max_memory = (size_t)b;
            break;
        }
        case V_JOBS:
            if (opt_long(&p, 1, 1024, &v)) rc = 2; else a->jobs = (int)v;
            break;
        case V_EXPLAIN: a->o.explain = 1; break;
        case V_LIVENESS: a->o.liveness = 1; break;
        case V_ALLOW_UNKNOWN: a->allow_unknown = 1; break;
        case V_WERROR: a->werror = 1; break;
        case V_SHOW: {   /* herd7's -show words too: prop/wit/cond = witness, neg = forbidden */
            static const char *const w[] = { "witness", "all", "forbidden", "prop", "wit", "cond",
                                             "neg", NULL };
            static const int map[] = { VERIFY_SHOW_WITNESS, VERIFY_SHOW_ALL, VERIFY_SHOW_FORBIDDEN,
                                       VERIFY_SHOW_WITNESS, VERIFY_SHOW_WITNESS,
                                       VERIFY_SHOW_WITNESS, VERIFY_SHOW_FORBIDDEN };
            int k;
            if (opt_word(&p, w, &k)) rc = 2; else a->o.graph_show = map[k];
            break;
        }
        case V_SEMANTICS: {
            static const char *const w[] = { "isa", "dat3m", NULL };
            int k;
            if (opt_word(&p, w, &k)) rc = 2;
            else a->o.events = k ? VERIFY_EVENTS_DAT3M : VERIFY_EVENTS_ISA;
            break;
        }
        case V_CAS_FAIL: {
            static const char *const w[] = { "read", "write", NULL };
            int k;
            if (opt_word(&p, w, &k)) rc = 2;
            else a->o.cas_fail = k ? VERIFY_CAS_WRITE : VERIFY_CAS_READ;
            break;
        }
        case V_THROUGH: {   /* herd7's -through: invalid lets forbidden executions through */
            static const char *const w[] = { "none", "invalid", "all", NULL };
            int k;
            if (opt_word(&p, w, &k)) rc = 2;
            else
                a->o.graph_show = k == 0   ? VERIFY_SHOW_WITNESS
                                  : k == 1 ? VERIFY_SHOW_FORBIDDEN
                                           : VERIFY_SHOW_ALL;
            break;
        }
        }
    }
    if (rc < 0) rc = verify_files(&p, a);
    opt_free(&p);
    if (rc < 0 && !a->nmodels) a->models[a->nmodels++] = (vmodel){ .kind = MODEL_PTX };
    return rc;
}

/* Frees the files and the cat models of a. */
static void verify_args_free(verify_args *a)
{
    for (int i = 0; i < a->nf; i++) free(a->files[i]);
    free(a->files);
    for (int m = 0; m < a->nmodels; m++) {
        cat_prog_free(a->models[m].cp);
        cat_free(a->models[m].cm);
    }
}

/* Whether an output is refused: never an input, its folder there (base/fileio.h). */
static int outputs_refused(const verify_args *a)
{
    int ni = a->nf + a->nmodels;
    const char **in = xcalloc((size_t)ni + 1, sizeof *in);
    for (int i = 0; i < a->nf; i++) in[i] = a->files[i];
    for (int m = 0; m < a->nmodels; m++) in[a->nf + m] = a->models[m].cat_file;
    int bad = output_check("verify", a->json, in, ni) ||
              output_check_dir("verify", a->graph_dir, in, ni);
    free(in);
    return bad;
}

/* Loads the --cat models and labels the bundled ones; -1 when a cat model does not load. */
static int load_models(verify_args *a)
{
    for (int m = 0; m < a->nmodels; m++) {
        vmodel *v = &a->models[m];
        if (v->cat_file) {
            if (load_cat(v)) return -1;
        } else {
            v->label = model_name(v->kind);
            prov_add_bundled(v->kind);
        }
    }
    return 0;
}

/* The --json document without its results; *results is its "results" array. */
static cJSON *json_root(const verify_args *a, cJSON **results)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "tool", "ptxlitmus");
    cJSON_AddStringToObject(root, "version", PTXLITMUS_VERSION);
    cJSON_AddStringToObject(root, "model", a->models[0].label);
    cJSON *ms = cJSON_AddArrayToObject(root, "models");
    for (int m = 0; m < a->nmodels; m++)
        cJSON_AddItemToArray(ms, cJSON_CreateString(a->models[m].label));
    cJSON_AddNumberToObject(root, "unroll", a->o.unroll);
    cJSON_AddBoolToObject(root, "interrupted", 0);   /* true: a signal stopped the run */
    cJSON_AddItemToObject(root, "provenance", prov_json());
    *results = cJSON_AddArrayToObject(root, "results");
    return root;
}

int verify_cli(int argc, char **argv)
{
    verify_args a;
    int rc = verify_options(argc, argv, &a);
    if (rc >= 0) { verify_args_free(&a); return rc; }
    if (outputs_refused(&a)) { verify_args_free(&a); return 2; }
    if (load_models(&a)) { verify_args_free(&a); return 2; }

    /* a progress line for a long test, on a terminal (PTXLITMUS_PROGRESS=1: anywhere), when
       the files are decided one at a time */
    a.o.progress = a.jobs <= 1 && (isatty(2) || (getenv("PTXLITMUS_PROGRESS") &&
                                                 *getenv("PTXLITMUS_PROGRESS") == '1'));
    cJSON *results = NULL, *root = a.json ? json_root(&a, &results) : NULL;
    verify_counts n = verify_run_files(&a, root, results);
    int errors = n.errors + a.loops, unknown = n.unknown, unwritten = 0;
    if (root) {
        char *text = report_json_text(root, 1);
        unwritten = report_write_atomic(a.json, text) != 0;
        free(text);
        cJSON_Delete(root);
    }
    if (unknown)
        fprintf(stderr,
                "ptxlitmus verify: %d verdict%s Unknown (a --timeout, --max-memory or a bound was "
                "hit)%s\n",
                unknown, unknown == 1 ? "" : "s",
                a.allow_unknown ? "; accepted (--allow-unknown)"
                                : "; exit status 1 (--allow-unknown accepts them)");
    int allow = a.allow_unknown;
    verify_args_free(&a);
    /* results that could not be written: their own status, first (docs/user-guide.md) */
    return unwritten ? EXIT_NOT_WRITTEN : errors ? 2 : unknown && !allow ? 1 : 0;
}
