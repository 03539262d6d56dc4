/* suite/suite.h — test suites: YAML manifests (docs/suites.md), the parallel runner with
 * crash/hang isolation (one forked process per test and model), and the reports built from
 * result objects (summary table, JSON, JUnit XML, CSV). */
#ifndef PTX_LITMUS_SUITE_H
#define PTX_LITMUS_SUITE_H
#include <stdio.h>
#include <cjson/cJSON.h>
#include "check/verify.h"

/* ---------- manifests ---------- */

typedef struct {
    model_kind model;
    int verdict;            /* 1 = Ok, 0 = No */
} suite_expect;

typedef struct {
    char *file;             /* as written in the manifest */
    char *path;             /* resolved: root/file */
    char *source;           /* optional */
    char *note;             /* optional */
    suite_expect *exp;
    int nexp;
    int liveness;           /* `liveness: terminates|may-hang` (verify --liveness, under every
                               model): 0 terminates, 1 may-hang, -1 not given */
    int line;               /* 1-based line of the entry in the manifest */
} suite_test;

typedef struct {
    char *path;             /* the manifest file */
    char *name;             /* `suite:` (defaults to the directory name) */
    char *description;      /* optional */
    char *root;             /* optional `root:` as written */
    char *rootdir;          /* directory the test files are relative to */
    suite_test *t;
    int nt;
    char **hw_key,
        **hw_val; /* optional `hw:` mapping: options of `suite --hw` (docs/hardware.md) */
    int nhw;
} suite_manifest;

/* Loads a manifest.  Returns 0, or -1 with "file:line:col: found ..., expected ..." in err. */
int suite_manifest_load(const char *path, suite_manifest *m, char *err, size_t errlen);
/* Serialises the manifest as YAML (comments of the original are not kept). Caller frees. */
char *suite_manifest_text(const suite_manifest *m);
void suite_manifest_free(suite_manifest *m);
/* Expected verdict of a test under a model: 1 Ok, 0 No, -1 not listed. */
int suite_expect_get(const suite_test *t, model_kind k);
void suite_expect_set(suite_test *t, model_kind k, int verdict);

/* Collects manifest paths under path (a manifest file, a directory with manifest.yaml, or a
 * directory searched recursively), sorted.  Returns the number added, -1 if path is missing. */
int suite_find_manifests(const char *path, char ***out, int *n);

/* ---------- the runner ---------- */

typedef struct {
    const char *path;       /* litmus file */
    model_kind model;
    int liveness;           /* decide liveness too (verify --liveness) */
    cJSON *res;             /* filled by suite_run: a result object as `verify --json` writes,
                               plus "model"; status "timeout" when killed after the time limit */
} suite_job;

typedef struct {
    int jobs;               /* parallel workers */
    double timeout_s;       /* per test and model; 0 = none */
    int progress;           /* 0 quiet, 1 live bar (terminal), 2 plain lines */
    const char *label;      /* progress prefix */
    verify_opts vo;         /* model is taken from each job */
    int max_depth;          /* nesting levels of a condition (0: the default) */
    /* optional: says whether a finished job counts as a failure (progress display) */
    int (*is_fail)(void *ctx, int job, const cJSON *res);
    void *fail_ctx;
} suite_run_opts;

void suite_run_opts_default(suite_run_opts *o);
/* Runs every job in a forked process, o->jobs at a time.  A crash (signal, abnormal exit),
 * an overrun of the time limit or an unreadable result becomes a result object with status
 * "error" or "timeout".  Returns 0 when every job ran; SIGINT or SIGTERM during the run stops
 * it (the workers are killed) and it returns that signal's number: the jobs that had not
 * finished keep res == NULL, so that the caller can write a partial report (issue #16). */
int suite_run(suite_job *jobs, int n, const suite_run_opts *o);
int suite_default_jobs(void);

/* ---------- reports over result objects ----------
 * A suite result object is a `verify --json` result plus "suite", "test" (file as in the
 * manifest), "model", "expected" ("Ok"/"No"/null), "outcome" ("agree", "disagree", "error",
 * "unknown" (timed out, or a verdict a bound cut short), "new") and "job" (index in the unsharded
 * run, for merging shards). */

const char *suite_outcome_of(const cJSON *res);
/* interrupted: the run was stopped by SIGINT/SIGTERM and the results are partial; the JSON
 * gets "interrupted": true, the JUnit <testsuites> an attribute interrupted="true" */
int suite_write_json(const char *path, cJSON *results, const char *shard, int interrupted);
int suite_write_junit(const char *path, const cJSON *results, int interrupted);
int suite_write_csv(const char *path, const cJSON *results);
/* Prints the failures and the per-suite, per-model summary table; returns the exit status
 * (0 when every result agrees, else 1).  An "unknown" outcome (a timeout, or a verdict a bound
 * cut short) fails unless SUITE_ALLOW_UNKNOWN; a run that checked no expectation fails
 * ("nothing checked") unless SUITE_UPDATING. */
enum { SUITE_ALLOW_UNKNOWN = 1, SUITE_UPDATING = 2 };
int suite_print_summary(FILE *f, const cJSON *results, double wall_s);
int suite_print_summary_ex(FILE *f, const cJSON *results, double wall_s, int flags);
char *suite_junit_text(const cJSON *results, int interrupted);
char *suite_csv_text(const cJSON *results);

/* --shard: "I/N" (1 <= I <= N) into *i, *n (0, or -1); "auto" or "auto/N" from the job
   engine's environment: a Slurm job array (SLURM_ARRAY_TASK_ID, _COUNT, _MIN, _STEP) or a
   Kubernetes Indexed Job (JOB_COMPLETION_INDEX, from 0; N from auto/N) -- 0, or -1 with why
   ("found ..., expected ...").  suite/shard.c */
int suite_parse_shard(const char *s, int *i, int *n);
int suite_shard_auto(const char *spec, int *i, int *n, char *why, size_t wl);

/* helpers shared by the subcommands */
const char *suite_str(const cJSON *o, const char *key);   /* "" when absent */
double suite_num(const cJSON *o, const char *key);
char *suite_state_text(const cJSON *state);               /* "r0=1; x=2;" */

/* The checker of `hw:` options (hw/ registers hw_check_option at start-up: the hw layer sits
   above this one); with none, the options are kept unchecked. */
typedef int (*suite_hw_check_fn)(const char *key, const char *value, char *why, size_t n);
void suite_manifest_check_hw(suite_hw_check_fn fn);

/* Commands whose work is at this layer (cli/main.c dispatches to them). */
int merge_cli(int argc, char **argv);    /* argv[0] == "merge" */
int gen_cli(int argc, char **argv);      /* argv[0] == "gen" */
int compare_cli(int argc, char **argv);  /* argv[0] == "compare" */
int table_cli(int argc, char **argv);    /* argv[0] == "table" (suite/table.c) */
#endif
