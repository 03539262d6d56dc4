/* hw/hw_cli_int.h — what `hw` and `suite --hw` share: parsed options, the per-test driver and
 * the tally behind the exit status. */
#ifndef PTX_HW_HW_CLI_INT_H
#define PTX_HW_HW_CLI_INT_H
#include <stdio.h>
#include <cjson/cJSON.h>
#include "hw/hw.h"

typedef struct {
    hw_opts o;
    const char *json;
    int quiet;
    int suite;         /* suite --hw: no line per generated/refused/skipped test */
    int set[16], nset; /* valued options given on the command line (they beat manifests) */
    const char *setv[16]; /* their values */
    char **argv;
    const char *nvcc; /* found nvcc, NULL if none */
    char nvcc_version[128];
    FILE *out;        /* text blocks */
    const char *from; /* --from FILE: the output of a harness run elsewhere */
} hw_ctx;

typedef struct {
    int tests, ran, generated, compiled, refused, skipped, errors;
    int forbidden_tests;    /* tests with an observed state the model forbids */
    int observed_forbidden; /* such states, summed */
    int allowed_never_seen; /* model states never observed, summed over tests that ran */
    int hung;               /* tests killed at their time limit (status "hung") */
    int hang_alarms;        /* ... of which the model says every execution terminates */
    int hang_never_seen;    /* tests that ran to the end where the model says they may hang */
} hw_tally;

int hw_parse_args(int argc, char **argv, hw_ctx *c, char ***files, int *nf);
void hw_reapply_cli(hw_ctx *c, hw_opts *o);
/* Finds nvcc and its version once. */
void hw_cli_prepare(hw_ctx *c);
/* One test file, start to end; returns its JSON result object.  prefix (or NULL) names the
 * suite, to keep file names apart in --keep. */
cJSON *hw_run_file(hw_ctx *c, const hw_opts *o, const char *path, const char *prefix, hw_tally *t);
cJSON *hw_opts_json(const hw_opts *o);
cJSON *hw_json_root(const hw_ctx *c, const char *kind);
int hw_write_json(const char *path, cJSON *root);
/* 1 observed-forbidden or a hang the model rules out, else 2 errors (refusals count unless
 * suite), else 77 nothing ran for lack of a GPU or nvcc, else 0. */
int hw_exit_status(const hw_tally *t, int suite);
#endif
