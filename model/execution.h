/* model/execution.h — one concrete execution of a litmus test, as the solver found it: the
 * events that exist with the values they read and write, and named relations over them as
 * plain truth tables.  Reports (execution graphs, explanations) read this; it holds no solver
 * terms. */
#ifndef PTX_MODEL_EXECUTION_H
#define PTX_MODEL_EXECUTION_H
#include "model/event.h"

typedef struct {
    char name[32];           /* "po", "rf", "co", "fr", "sc", "sync", ... */
    unsigned char *m;        /* n x n */
} mrelation;

typedef struct {
    const lit_test *t;
    const char *model;       /* the model's name */
    int n, ninit;            /* events: the initial writes first, then each thread's in po order */
    mevent *ev;              /* rval/wval: the values of this execution */
    int nrel;
    mrelation *rel;
    char note[160];          /* what it witnesses, e.g. "satisfies the condition" */
    int64_t *state;          /* the final values of the test's observables (caller's order) */
    int nstate;
} mexecution;

/* Adds a relation named `name` (its table zeroed) and returns it. */
unsigned char *mexecution_add(mexecution *x, const char *name);
const mrelation *mexecution_find(const mexecution *x, const char *name);
void mexecution_free(mexecution *x);

/* Called by a decision procedure with a witness execution (valid during the call). */
typedef void (*mexecution_fn)(void *ctx, const mexecution *x);
#endif
