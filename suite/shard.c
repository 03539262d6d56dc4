/* suite/shard.c — which slice of a suite run this process runs (`suite --shard`, docs/suites.md
 * "More than one machine"): I/N given, or `auto` taken from the job engine's environment, so
 * that a job array needs no arithmetic (Slurm's array indices may start anywhere, Kubernetes'
 * completion index starts at 0, ours at 1). */
#include "suite/suite.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int suite_parse_shard(const char *s, int *i, int *n)
{
    char *e;
    long a = strtol(s, &e, 10);
    if (e == s || *e != '/') return -1;
    const char *s2 = e + 1;
    long b = strtol(s2, &e, 10);
    if (e == s2 || *e || b < 1 || b > 1000000 || a < 1 || a > b) return -1;
    *i = (int)a; *n = (int)b;
    return 0;
}

/* The whole number in environment variable v: 1 and *x; 0 when absent (*x untouched) or not a
   whole number from 0 to 10^6 (*bad set). */
static int env_num(const char *v, long *x, int *bad)
{
    const char *s = getenv(v);
    if (!s || !*s) return 0;
    char *e;
    long k = strtol(s, &e, 10);
    if (*e || k < 0 || k > 1000000) { *bad = 1; return 0; }
    *x = k;
    return 1;
}

static const char *env_or(const char *v) { return getenv(v) ? getenv(v) : "(none)"; }

/* Slurm: task ID - MIN, in steps of STEP, among COUNT tasks. */
static int from_slurm(long want, int *i, int *n, char *why, size_t wl)
{
    long id = 0, count = 0, min = 1, step = 1;
    int bad = 0;
    env_num("SLURM_ARRAY_TASK_ID", &id, &bad);
    int have = env_num("SLURM_ARRAY_TASK_COUNT", &count, &bad);
    env_num("SLURM_ARRAY_TASK_MIN", &min, &bad);
    env_num("SLURM_ARRAY_TASK_STEP", &step, &bad);
    if (bad || !have || step < 1 || id < min || (id - min) % step || (id - min) / step >= count) {
        snprintf(why, wl,
                 "found SLURM_ARRAY_TASK_ID=%s, SLURM_ARRAY_TASK_COUNT=%s, "
                 "SLURM_ARRAY_TASK_MIN=%s, SLURM_ARRAY_TASK_STEP=%s, expected the task of a job "
                 "array (sbatch --array)",
                 env_or("SLURM_ARRAY_TASK_ID"), env_or("SLURM_ARRAY_TASK_COUNT"),
                 env_or("SLURM_ARRAY_TASK_MIN"), env_or("SLURM_ARRAY_TASK_STEP"));
        return -1;
    }
    if (want && want != count) {
        snprintf(why, wl, "found a Slurm job array of %ld tasks, expected %ld (auto/%ld)", count,
                 want, want);
        return -1;
    }
    *i = (int)((id - min) / step + 1);
    *n = (int)count;
    return 0;
}

/* Kubernetes Indexed Job: JOB_COMPLETION_INDEX from 0; the completions come with auto/N. */
static int from_kubernetes(long want, int *i, int *n, char *why, size_t wl)
{
    long idx = 0;
    int bad = 0;
    env_num("JOB_COMPLETION_INDEX", &idx, &bad);
    if (bad || !want || idx >= want) {
        snprintf(why, wl, "found JOB_COMPLETION_INDEX=%s%s, expected %s",
                 env_or("JOB_COMPLETION_INDEX"), want ? "" : " and no shard count",
                 want ? "an index below N (auto/N: N the Job's completions)"
                      : "--shard auto/N (N: the Job's completions)");
        return -1;
    }
    *i = (int)idx + 1;
    *n = (int)want;
    return 0;
}

int suite_shard_auto(const char *spec, int *i, int *n, char *why, size_t wl)
{
    long want = 0;   /* auto/N: the count, when the engine does not say it */
    if (strncmp(spec, "auto", 4) || (spec[4] && spec[4] != '/')) {
        snprintf(why, wl, "found '%s', expected I/N, auto or auto/N", spec);
        return -1;
    }
    if (spec[4]) {
        char *e;
        want = strtol(spec + 5, &e, 10);
        if (*e || e == spec + 5 || want < 1 || want > 1000000) {
            snprintf(why, wl, "found '%s', expected auto/N with N from 1 to 1000000", spec);
            return -1;
        }
    }
    if (getenv("SLURM_ARRAY_TASK_ID")) return from_slurm(want, i, n, why, wl);
    if (getenv("JOB_COMPLETION_INDEX")) return from_kubernetes(want, i, n, why, wl);
    snprintf(why, wl,
             "found neither SLURM_ARRAY_TASK_ID (a Slurm job array) nor JOB_COMPLETION_INDEX (a "
             "Kubernetes Indexed Job), expected one of them, or --shard I/N");
    return -1;
}
