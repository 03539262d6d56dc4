/* kcheck/kcheck.h — `ptxlitmus check` (issue #26): the executions of a real PTX kernel that a
 * memory model allows, explored as execution graphs grown one event at a time by the executor
 * (stateless model checking in the style of GenMC), each graph's consistency decided by the
 * model's cat file.  Findings: a trap or a CUDA assert, another fault, an output that differs
 * from the spec's `expect:`, a data race (§8.7.1, the model's data-race), a liveness failure
 * (every thread waits forever).  docs/check.md. */
#ifndef PTX_KCHECK_KCHECK_H
#define PTX_KCHECK_KCHECK_H
#include <stdint.h>
#include <stddef.h>
#include "include/ptxexec.h"
#include "kcheck/graph.h"

/* an expected output element: size bytes at dev, the value `value` */
typedef struct {
    ptxeDevptr dev;
    unsigned size;
    uint64_t value;
    char what[80];          /* "out[3]" */
} kcheck_expect;

typedef struct {
    ptxeFunction *fn;
    const ptxeLaunchConfig *cfg;
    void **args;
    const kcheck_expect *expect;
    int nexpect;
} kcheck_launch;

typedef struct {
    const char *model_file;      /* the cat model's file name (messages) */
    const char *model_text;      /* its text */
    const char *model_name;
    int bundled;                 /* the model is a bundled one (not --cat) */
    double timeout;              /* seconds, 0: none */
    uint64_t max_executions;     /* 0: none */
    int unroll;                  /* backward branches a thread may take in one execution */
} kcheck_opts;

enum { KC_TRAP, KC_ASSERT, KC_FAULT, KC_EXPECT, KC_RACE, KC_HANG, KC_DEADLOCK };
typedef struct {
    int kind;                    /* KC_* */
    char msg[2048];              /* what: the executor's report, the output, the race */
    int thread, pc;              /* where (pc -1: none) */
    kref a, b;                   /* a race's two accesses; a hang: a waiting read */
    kgraph *g;                   /* the execution */
    int64_t uses;                /* which execution found it (1-based) */
} kcheck_finding;

/* the outcome: clean (exhaustive, no finding), findings, cut short by a bound, an error */
enum { KC_CLEAN, KC_FOUND, KC_BOUNDED, KC_ERROR };
typedef struct {
    int status;
    uint64_t executions;         /* executions run (each an execution graph) */
    uint64_t complete;           /* ... that ended with every thread exited, consistent */
    uint64_t blocked;            /* ... whose threads wait for a write no longer to come */
    uint64_t inconsistent;       /* graphs the model rules out (not run) */
    uint64_t moot;               /* executions left as another one covers them */
    uint64_t checks;             /* consistency checks (model evaluations) */
    uint64_t revisits;           /* backward revisits queued */
    double seconds;
    char bound[160];             /* KC_BOUNDED: which bound, what it cut */
    kcheck_finding *f;
    int nf;
    char err[2048];              /* KC_ERROR */
    int nth;                     /* threads of the launch */
    unsigned grid[3], block[3];
} kcheck_result;

int kcheck_run(const kcheck_launch *L, const kcheck_opts *o, kcheck_result *r);
void kcheck_result_free(kcheck_result *r);

#endif
