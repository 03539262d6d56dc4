/* cli/verify_run.c — the run of `ptxlitmus verify` over its files (cli/verify_int.h).
 *
 * Each file is parsed and decided under every model by one of --jobs worker threads (herd7's
 * -j), into a slot of its own: its herd blocks, its messages, its JSON results and the DOT
 * text of its pictures.  Slots are emitted strictly in file order as soon as they and all
 * before them are complete, so the output is the same for every -j, and each file's block is
 * flushed when it is emitted.  Emitting takes the lock of cli/sigwatch.h: an interrupt writes
 * the JSON of the files emitted so far, with "interrupted": true, and exits 128 + the signal
 * (issue #28, item 3). */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "base/alloc.h"
#include "base/fileio.h"
#include "cli/sigwatch.h"
#include "cli/verify_int.h"
#include "report/graph.h"
#include "report/report.h"

/* what one file produced, waiting for its turn */
typedef struct {
    char *out, *err;        /* herd blocks; messages for stderr */
    size_t outn, errn;
    cJSON *results;         /* its JSON results, one per model (NULL without --json) */
    char **dot;             /* its pictures and the model each is of */
    int *dot_model, ndot;
    int errors, unknown;
    int done;               /* complete (set under the sigwatch lock) */
} vslot;

typedef struct {
    verify_args *a;
    FILE *out;              /* the herd blocks: stdout, stderr when --json - */
    int several;            /* more than one model: blocks and pictures name the model */
    cJSON *root, *results;
    vslot *slot;
    atomic_int next;        /* the next file a worker takes */
    int emitted;            /* files emitted (under the sigwatch lock) */
    char **used;            /* picture names given so far */
    int nused;
    verify_counts n;
} vrun;

/* one worker's state for the file it decides */
typedef struct {
    vrun *R;
    vslot *s;
    const char *file;
    FILE *out, *err;        /* into s->out, s->err */
    graph_collector *gc;    /* --graph: this worker's, or NULL */
    char **warn;
    int nwarn;
} vfile;

/* The name of a test's picture: its base name without .litmus, ".MODEL" with several models,
 * and "-2", "-3", ... when an earlier test had the same name (two files MP.litmus in two
 * folders): pictures never overwrite each other.  Caller frees. */
static char *graph_name(char ***used, int *nused, const char *file, const char *model)
{
    const char *b = strrchr(file, '/');
    b = b ? b + 1 : file;
    size_t bl = strlen(b);
    if (bl > 7 && !strcmp(b + bl - 7, ".litmus")) bl -= 7;
    char base[512], name[540];
    snprintf(base, sizeof base, "%.*s%s%s", (int)bl, b, model ? "." : "", model ? model : "");
    for (char *c = base; *c; c++) if (*c == '/') *c = '_';   /* a --cat label */
    snprintf(name, sizeof name, "%s", base);
    for (int k = 2;; k++) {
        int clash = 0;
        for (int i = 0; i < *nused && !clash; i++) clash = !strcmp((*used)[i], name);
        if (!clash) break;
        snprintf(name, sizeof name, "%s-%d", base, k);
    }
    *used = xrealloc(*used, (size_t)(*nused + 1) * sizeof **used);
    (*used)[(*nused)++] = xstrdup(name);
    return xstrdup(name);
}

/* Parses F->file and reports its warnings (as errors under --Werror, and then the test is not
 * decided: NULL with the first warning in err); NULL with the error in err. */
static lit_test *read_test(vfile *F, char *err, size_t errsz)
{
    const verify_args *a = F->R->a;
    lit_test *t = lit_parse_file_ex(F->file, a->max_depth, err, errsz);
    F->warn = NULL;
    F->nwarn = t ? lit_warnings(t, &F->warn) : 0;
    for (int k = 0; k < F->nwarn; k++) {
        char *wk = F->warn[k];
        if (a->werror) {   /* --Werror: the same line as an error */
            char *w = strstr(wk, ": warning: ");
            if (w) memmove(w + 2, w + 11, strlen(w + 11) + 1);
        }
        report_tprintf(F->err, "%s\n", wk);
    }
    if (F->nwarn && a->werror) {   /* the test is not decided */
        snprintf(err, errsz, "%s", F->warn[0]);
        lit_free(t);
        t = NULL;
        F->s->errors++;
    }
    return t;
}

/* Decides test t (NULL: it did not parse, err says why) under model m into the slot: the herd
 * block or the error, the pictures, the JSON result. */
static void verify_under(vfile *F, lit_test *t, int m, const char *err)
{
    const verify_args *a = F->R->a;
    const vmodel *vm = &a->models[m];
    vslot *s = F->s;
    verify_opts o = a->o;
    o.model = vm->kind;
    o.cat = vm->cp;
    o.model_label = vm->cat_file ? vm->label : NULL;
    if (F->gc) { o.graph = graph_callback; o.graph_ctx = F->gc; }
    verify_result r;
    if (a->verbose) fprintf(stderr, "verify: %s under %s\n", F->file, vm->label);
    if (!t) {
        memset(&r, 0, sizeof r);
        r.file = xstrdup(F->file);
        snprintf(r.error, sizeof r.error, "%s", err);
    } else {
        if (F->gc) graph_begin(F->gc, &r);
        verify_test(t, &o, &r);
        free(r.file);
        r.file = xstrdup(F->file);
    }
    if (verify_unknown(&r)) s->unknown++;
    if (!r.ok) {
        if ((m == 0 || t) && !(F->nwarn && a->werror)) {
            report_tprintf(F->err, "%s\n", r.error);
            if (!r.timed_out) s->errors++;
        }
    } else if (!a->quiet) {
        if (F->R->several) fprintf(F->out, "Model %s\n", vm->label);
        report_herd(F->out, &r, o.unroll);
    }
    for (int g = 0, ng = F->gc && r.ok ? graph_count(F->gc, &r) : 0; g < ng; g++) {
        s->dot = xrealloc(s->dot, (size_t)(s->ndot + 1) * sizeof *s->dot);
        s->dot_model = xrealloc(s->dot_model, (size_t)(s->ndot + 1) * sizeof *s->dot_model);
        s->dot[s->ndot] = graph_dot(F->gc, &r, g);
        s->dot_model[s->ndot++] = m;
    }
    if (s->results) {
        cJSON *jr = report_json_result(&r);
        cJSON_AddStringToObject(jr, "model", vm->label);
        cJSON *wa = cJSON_AddArrayToObject(jr, "warnings");
        for (int k = 0; k < F->nwarn; k++) cJSON_AddItemToArray(wa, cJSON_CreateString(F->warn[k]));
        cJSON_AddItemToArray(s->results, jr);
    }
    verify_result_free(&r);
}

/* Emits, in file order, every complete slot whose turn has come: messages, blocks (flushed),
 * JSON results, pictures (named here, so that names do not depend on -j). */
static void emit_ready(vrun *R)
{
    const verify_args *a = R->a;
    while (R->emitted < a->nf && R->slot[R->emitted].done) {
        int i = R->emitted;
        vslot *s = &R->slot[i];
        fflush(R->out);
        fwrite(s->err, 1, s->errn, stderr);
        fwrite(s->out, 1, s->outn, R->out);
        fflush(R->out);
        cJSON *jr;
        while (s->results && (jr = cJSON_DetachItemFromArray(s->results, 0)))
            cJSON_AddItemToArray(R->results, jr);
        for (int g = 0; g < s->ndot; g++) {
            const vmodel *vm = &a->models[s->dot_model[g]];
            char *name =
                graph_name(&R->used, &R->nused, a->files[i], R->several ? vm->label : NULL);
            if (graph_write(a->graph_dir, name, s->dot[g])) s->errors++;
            else if (a->verbose) fprintf(stderr, "verify: graph %s/%s.dot\n", a->graph_dir, name);
            free(name);
            free(s->dot[g]);
        }
        R->n.errors += s->errors;
        R->n.unknown += s->unknown;
        free(s->out); free(s->err); free(s->dot); free(s->dot_model);
        cJSON_Delete(s->results);
        memset(s, 0, sizeof *s);
        s->done = 1;
        R->emitted++;
    }
}

/* Decides file i into its slot, then emits what is ready. */
static void decide_file(vrun *R, int i, graph_collector *gc)
{
    vslot *s = &R->slot[i];
    vfile F = { R, s, R->a->files[i], open_memstream(&s->out, &s->outn),
                open_memstream(&s->err, &s->errn), gc, NULL, 0 };
    if (!F.out || !F.err) x_out_of_memory(0);
    s->results = R->results ? cJSON_CreateArray() : NULL;
    char err[1024];
    lit_test *t = read_test(&F, err, sizeof err);
    for (int m = 0; m < R->a->nmodels; m++) verify_under(&F, t, m, err);
    lit_free(t);
    lit_warnings_free(F.warn, F.nwarn);
    fclose(F.out);
    fclose(F.err);
    sigwatch_lock();
    s->done = 1;
    emit_ready(R);
    sigwatch_unlock();
}

static void *worker(void *arg)
{
    vrun *R = arg;
    graph_collector *gc = R->a->graph_dir ? graph_new() : NULL;
    for (int i; (i = atomic_fetch_add(&R->next, 1)) < R->a->nf;) decide_file(R, i, gc);
    graph_free(gc);
    return NULL;
}

/* SIGINT, SIGTERM or SIGHUP during the run (cli/sigwatch.h, with the lock held): the blocks
 * of the files emitted are on stdout already; the JSON gets their results and
 * "interrupted": true; then exit 128 + the signal (130 for SIGINT), as suite does. */
static void verify_stop(void *ctx, int sig)
{
    vrun *R = ctx;
    const verify_args *a = R->a;
    fflush(R->out);
    fprintf(stderr,
            "ptxlitmus verify: INTERRUPTED by %s after %d of %d files: the outputs are partial%s\n",
            sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "SIGHUP", R->emitted, a->nf,
            R->root ? " (\"interrupted\": true)" : "");
    if (R->root) {
        cJSON_ReplaceItemInObject(R->root, "interrupted", cJSON_CreateTrue());
        char *text = report_json_text(R->root, 1);
        report_write_atomic(a->json, text);
    }
    fflush(stdout);
    fileio_remove_temps();
    _exit(128 + sig);
}

verify_counts verify_run_files(verify_args *a, cJSON *root, cJSON *results)
{
    vrun R = { .a = a, .several = a->nmodels > 1, .root = root, .results = results };
    R.out = a->json && !strcmp(a->json, "-") ? stderr : stdout;   /* keep stdout pure JSON */
    R.slot = xcalloc((size_t)(a->nf ? a->nf : 1), sizeof *R.slot);
    atomic_init(&R.next, 0);
    sigwatch_start(verify_stop, &R);
    int jobs = a->jobs < a->nf ? a->jobs : a->nf, started = 0;
    pthread_t *th = xcalloc((size_t)(jobs > 1 ? jobs : 1), sizeof *th);
    for (int j = 0; j + 1 < jobs; j++)   /* too few threads is still correct */
        started += !pthread_create(&th[started], NULL, worker, &R);
    worker(&R);   /* this thread works too, and alone without -j */
    for (int j = 0; j < started; j++) pthread_join(th[j], NULL);
    free(th);
    sigwatch_finishing();   /* from here a signal waits for the outputs */
    fflush(R.out);
    sigwatch_end();
    for (int i = 0; i < R.nused; i++) free(R.used[i]);
    free(R.used);
    free(R.slot);
    return R.n;
}
