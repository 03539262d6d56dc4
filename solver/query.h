/* solver/query.h — one solver problem for a whole litmus test (the symbolic procedure).
 *
 * The events are all the events of all paths (model/universe.h); the solver chooses one path
 * per thread (so which events exist and what each read returns), reads-from per byte range,
 * coherence order, Fence-SC order and the final write of each byte range; the model's axioms
 * are asserted over these.  Reachable final states are then enumerated by blocking each one
 * found.  The model is a cat program (solver/cat_eval.h) over the base sets and relations of
 * model/base.c; no axiom is written here.  Z3 calls of the procedure live here. */
#ifndef PTX_SOLVER_QUERY_H
#define PTX_SOLVER_QUERY_H
#include <stdint.h>
#include "model/models.h"
#include "model/universe.h"
#include "model/execution.h"
#include "solver/cat_eval.h"

/* What an observable is: register `reg` of thread `thread`, or location `loc` (an owning
   symbol); values are reported as `type` reads them. */
typedef struct { int is_loc, thread, reg, loc; isa_type type; } qobs;

typedef struct qproblem qproblem;

/* Builds the problem; deadline: mclock_ms() time to give up at (0: none), bounding the building
   and every later check.  Returns NULL with *status QUERY_NO_EXECUTION when a thread has no
   complete path (no execution then; a message in err), QUERY_TIMEOUT when the deadline passed. */
enum { QUERY_OK, QUERY_NO_EXECUTION, QUERY_TIMEOUT, QUERY_MODEL_ERROR };
/* cat: the model, linked with query_link_model: its checks decide consistency, its flags are
   reported.  The universe splits atomic operations into their read and write (split_rmw). */
qproblem *query_build(const muniverse *u, const matoms *at, const cat_prog *cat,
                      const char *model_label, const qobs *obs, int nobs, double deadline,
                      int *status, char *err, size_t errlen);
/* The same with liveness set: the universe also holds the paths that never end (mlimits.liveness);
   a spin must be fair (its reads see coherence-last writes), a barrier wait must never complete. */
qproblem *query_build_ex(const muniverse *u, const matoms *at, const cat_prog *cat,
                         const char *model_label, const qobs *obs, int nobs, double deadline,
                         int liveness, int *status, char *err, size_t errlen);
/* Liveness: is there a consistent execution in which some thread never ends?  Fills out with
   the threads that hang in one (thread, MHANG_* kind, instruction, path index) and returns how
   many, 0 when every execution terminates, -1 when the solver gave up. */
typedef struct {
    int thread, kind, insn, path;
    int nrv;
    int64_t rv[16];      /* MHANG_SPIN: the values the repeated iteration's reads return */
} qhang;
int query_liveness(qproblem *q, qhang *out, int max);
/* Links a cat model to the base sets and relations of model/base.c. */
cat_prog *query_link_model(const cat_model *m, char *err, size_t errlen);
/* The last failure (a -1 of the functions below) was the deadline. */
int query_timed_out(const qproblem *q);
/* ... or Z3's memory limit (query_set_memory_limit). */
int query_out_of_memory(const qproblem *q);
/* Z3's memory limit for every problem of the process (Z3's global memory_max_size), bytes;
   0: none. */
void query_set_memory_limit(size_t bytes);
/* The proposition of a condition as a formula over the observables' final values; obs_of maps
   a register or location reference to its observable.  query_holds: is some execution
   consistent with the model in which it holds (1), none (0), or did the solver give up (-1).
   The states found by query_next_state are not excluded. */
typedef int (*query_obs_fn)(void *ctx, const cond_ref *ref);
Z3_ast query_cond(qproblem *q, const cond_node *n, query_obs_fn obs_of, void *ctx);
int query_holds(qproblem *q, Z3_ast f);
Z3_ast query_not(qproblem *q, Z3_ast f);
/* Keep only the executions satisfying f from now on (herd's `filter`). */
void query_restrict(qproblem *q, Z3_ast f);
/* Finds an execution where f holds (f: the constant true is e->T, see query_true) and calls fn
   with it, labelled `note`.  1 found, 0 none, -1 the solver gave up. */
int query_witness(qproblem *q, Z3_ast f, const char *note, mexecution_fn fn, void *ctx);
Z3_ast query_true(qproblem *q);
/* The model's flags raised by some consistent execution (herd's `flag`; Dat3M's
   undefined_unless when some execution violates it): their names in names[0..max), the count,
   or -1 when the solver gave up. */
int query_flags(qproblem *q, const char **names, int max);
/* Why no consistent execution satisfies f: the checks that alone rule it out (every other
   check holding), else the checks an execution satisfying f violates.  Names as above. */
int query_explain(qproblem *q, Z3_ast f, const char **names, int max);

/* Next reachable final state not found yet (values in obs order): 1, 0 when there is none,
   -1 when the solver gave up. */
int query_next_state(qproblem *q, int64_t *state);
/* The same, calling fn (when not NULL) with the execution that reaches the state. */
int query_next_state_exec(qproblem *q, int64_t *state, mexecution_fn fn, void *ctx);
/* The next state not found yet where f holds (f is not kept; the state is blocked as above):
   1, 0 when there is none, -1 when the solver gave up. */
int query_next_state_where(qproblem *q, Z3_ast f, int64_t *state);
/* For each check of the model that alone rules out f: an execution satisfying f that violates
   it (every other check holding), given to fn with the note "ruled out by NAME".  Returns how
   many, or -1 when the solver gave up. */
int query_forbidden(qproblem *q, Z3_ast f, mexecution_fn fn, void *ctx);
void query_free(qproblem *q);
#endif
