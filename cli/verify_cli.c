/* cli/verify_cli.c — `ptxlitmus verify [options] FILE...`: decide each litmus test, print a
 * herd-style block per test, optionally export JSON.  A malformed test gets file:line:col on
 * stderr and an error entry; the other files are still verified.  Exit status: 0 when every
 * file was verified, 2 otherwise (also for usage errors). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "report/report.h"
#include "check/verify.h"
#include "report/graph.h"
#include "solver/query.h"
#include "frontend/cat.h"
#include "model/bundled.h"

static void usage(FILE *f)
{
    fprintf(f,
        "usage: ptxlitmus verify [options] FILE...\n"
        "  --model NAME        ptx (default: ISA 8.4 + mixed proxies), ptx-v7.5, ptx-v6.0\n"
        "  --cat FILE          the model written in cat (herd7/Dat3M); includes are searched in\n"
        "                      FILE's folder, then in the bundled models\n"
        "  --json FILE|-       write the results as JSON (docs/json-schema.md)\n"
        "  --unroll N          backward jumps allowed per branch on one path (default 2)\n"
        "  --max-events N      events per path (default 200)\n"
        "  --max-traces N      paths per thread (default 20000)\n"

        "  --states N|all|none reachable states enumerated and listed per test (default 1000; the\n"
        "                      verdict never depends on it; --max-states N is the same)\n"
        "  --max-depth N       nesting levels allowed in a condition (default 512, at most 10000)\n"
        "  --timeout S         wall-clock limit of each test in seconds, fractions allowed (default none)\n"
        "  --graph DIR         write a witness execution graph per test: DIR/NAME.dot (+ .svg with dot)\n"
        "  --explain           for an outcome no execution reaches, name the model's checks that\n"
        "                      rule it out (\"Ruled out by\"; JSON \"violated\")\n"
        "  -q, --quiet         no herd blocks on stdout\n");
}

static int num_arg(const char *opt, const char *s, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s ? s : "", &end, 10);
    if (!s || !*s || *end || errno || v < lo || v > hi) {
        fprintf(stderr, "ptxlitmus verify: %s takes a whole number from %ld to %ld, found '%s'\n", opt, lo, hi, s ? s : "");
        return -1;
    }
    *out = v;
    return 0;
}

int verify_cli(int argc, char **argv)
{
    verify_opts o;
    verify_opts_default(&o);
    const char *json = NULL, *graph_dir = NULL, *cat_file = NULL;
    int quiet = 0, max_depth = COND_MAX_DEPTH;
    char **files = calloc((size_t)argc, sizeof *files);
    int nf = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        long v;
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) { usage(stdout); free(files); return 0; }
        else if (!strcmp(a, "--model")) {
            if (!val || model_parse(val, &o.model)) { fprintf(stderr, "ptxlitmus verify: --model takes ptx, ptx-v7.5 or ptx-v6.0, found '%s'\n", val ? val : ""); free(files); return 2; }
            i++;
        } else if (!strcmp(a, "--cat")) {
            if (!val) { fprintf(stderr, "ptxlitmus verify: --cat takes a cat file\n"); free(files); return 2; }
            cat_file = val; i++;
        } else if (!strcmp(a, "--json")) {
            if (!val) { fprintf(stderr, "ptxlitmus verify: --json takes a file name or -\n"); free(files); return 2; }
            json = val; i++;
        } else if (!strcmp(a, "--graph")) {
            if (!val || !*val) { fprintf(stderr, "ptxlitmus verify: --graph takes a directory\n"); free(files); return 2; }
            graph_dir = val; i++;
        } else if (!strcmp(a, "--unroll")) { if (num_arg(a, val, 0, 1000, &v)) { free(files); return 2; } o.unroll = (int)v; i++; }
        else if (!strcmp(a, "--max-events")) { if (num_arg(a, val, 1, 256, &v)) { free(files); return 2; } o.max_events = (int)v; i++; }
        else if (!strcmp(a, "--max-traces")) { if (num_arg(a, val, 1, 10000000, &v)) { free(files); return 2; } o.max_traces = (int)v; i++; }
        else if (!strcmp(a, "--states") && val && (!strcmp(val, "all") || !strcmp(val, "none"))) { o.states = !strcmp(val, "all") ? -1 : 0; i++; }
        else if (!strcmp(a, "--max-states") || !strcmp(a, "--states")) { if (num_arg(a, val, 0, 100000000, &v)) { free(files); return 2; } o.states = v; i++; }
        else if (!strcmp(a, "--max-depth")) { if (num_arg(a, val, 1, COND_DEPTH_CAP, &v)) { free(files); return 2; } max_depth = (int)v; i++; }
        else if (!strcmp(a, "--timeout")) {
            char *end;
            double d = val ? strtod(val, &end) : -1;
            if (!val || !*val || *end || !(d >= 0 && d <= 86400 * 365)) {
                fprintf(stderr, "ptxlitmus verify: --timeout takes a number of seconds from 0 to 31536000, found '%s'\n", val ? val : "");
                free(files); return 2;
            }
            o.timeout_s = d; i++;
        }
        else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) quiet = 1;
        else if (!strcmp(a, "--explain")) o.explain = 1;
        else if (!strcmp(a, "--liveness")) o.liveness = 1;
        else if (a[0] == '-' && a[1]) { fprintf(stderr, "ptxlitmus verify: unknown option '%s'\n", a); usage(stderr); free(files); return 2; }
        else files[nf++] = argv[i];
    }
    if (!nf) { fprintf(stderr, "ptxlitmus verify: no test file given\n"); usage(stderr); free(files); return 2; }
    cat_model *cm = NULL;
    cat_prog *cp = NULL;
    if (cat_file) {
        char cerr[1024];
        const char *search[] = { CAT_BUILTIN };
        cat_set_builtins(model_bundled, model_nbundled);
        cm = cat_load_file_prelude(cat_file, search, 1, "stdlib.cat", cerr, sizeof cerr);
        if (cm) cp = query_link_model(cm, cerr, sizeof cerr);
        if (!cp) { fprintf(stderr, "%s\n", cerr); cat_free(cm); free(files); return 2; }
        o.cat = cp;
        o.model_label = cat_model_name(cm);
    }

    cJSON *root = NULL, *results = NULL;
    if (json) {
        root = cJSON_CreateObject();
        cJSON_AddStringToObject(root, "tool", "ptxlitmus");
        cJSON_AddStringToObject(root, "version", PTXLITMUS_VERSION);
        cJSON_AddStringToObject(root, "model", model_name(o.model));
        cJSON_AddNumberToObject(root, "unroll", o.unroll);
        results = cJSON_AddArrayToObject(root, "results");
    }
    int errors = 0;
    graph_collector *gc = graph_dir ? graph_new() : NULL;
    if (gc) { o.graph = graph_callback; o.graph_ctx = gc; }
    FILE *out = json && !strcmp(json, "-") ? stderr : stdout;   /* keep stdout pure JSON */
    for (int i = 0; i < nf; i++) {
        char err[1024];
        verify_result r;
        lit_test *t = lit_parse_file_ex(files[i], max_depth, err, sizeof err);
        if (!t) {
            memset(&r, 0, sizeof r);
            r.file = strdup(files[i]);
            snprintf(r.error, sizeof r.error, "%s", err);
        } else {
            if (gc) graph_begin(gc, &r);
            verify_test(t, &o, &r);
            free(r.file);
            r.file = strdup(files[i]);
        }
        if (!r.ok) { report_tprintf(stderr, "%s\n", r.error); errors++; }
        else if (!quiet) report_herd(out, &r, o.unroll);
        if (gc && r.ok) {
            char *dot = graph_witness_dot(gc, &r);
            if (dot && graph_write(graph_dir, files[i], dot)) errors++;
            free(dot);
        }
        if (results) cJSON_AddItemToArray(results, report_json_result(&r));
        verify_result_free(&r);
        lit_free(t);
    }
    fflush(out);
    if (root) {
        char *text = report_json_text(root, 1);
        if (report_write_atomic(json, text)) errors++;
        free(text);
        cJSON_Delete(root);
    }
    graph_free(gc);
    free(files);
    cat_prog_free(cp);
    cat_free(cm);
    return errors ? 2 : 0;
}
