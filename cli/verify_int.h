/* cli/verify_int.h — what the two halves of `ptxlitmus verify` share: cli/verify_cli.c (the
 * options, the models, the outputs' checks) and cli/verify_run.c (the files decided, by one or
 * --jobs threads, and reported in file order).  Not part of any interface. */
#ifndef PTX_CLI_VERIFY_INT_H
#define PTX_CLI_VERIFY_INT_H
#include <cjson/cJSON.h>
#include "check/verify.h"

/* One model a test is decided under: bundled (cat == NULL) or read with --cat. */
typedef struct {
    model_kind kind;
    const char *cat_file;
    struct cat_model *cm;
    struct cat_prog *cp;
    const char *label;
} vmodel;

#define MAX_MODELS 16

/* the options of one `ptxlitmus verify` command line */
typedef struct {
    verify_opts o;
    const char *json, *graph_dir;
    int quiet, verbose, max_depth, allow_unknown, werror, jobs;
    int loops;              /* symbolic link loops skipped in the folders given (exit 2) */
    vmodel models[MAX_MODELS];
    int nmodels;
    char **files;
    int nf;
} verify_args;

/* What a run found: errors (a file not decided, a picture not written), Unknown verdicts. */
typedef struct { int errors, unknown; } verify_counts;

/* Decides every file of a under every model, prints the herd blocks (stdout, stderr when the
 * JSON goes to stdout) and the messages in file order, adds the JSON results to `results`
 * (NULL: no --json) of the document `root`, writes the --graph pictures.  An interrupt writes
 * root with "interrupted": true and exits (cli/sigwatch.h). */
verify_counts verify_run_files(verify_args *a, cJSON *root, cJSON *results);
#endif
