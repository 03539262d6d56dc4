/* solver/cat_eval.h — evaluating a cat model (frontend/cat.h) over the events of one candidate
 * execution, as constant-folded Z3 relations (solver/rel.h), and asserting or checking its
 * axioms.  docs/cat.md describes the semantics.
 *
 * Use:
 *   1. cat_link() once per model and engine: asks the engine for each base name of the model
 *      (po, rf, W, …; "_" is the universe), then type-checks the model by evaluating it over an
 *      empty universe, so unknown names and type errors are reported before any candidate.
 *   2. cat_eval() once per candidate: the engine's `value` callback gives each base set or
 *      relation (only those the model uses, at most once per evaluation), and the result is
 *      the model's checks in order, each with its relation.
 *   3. cat_assert_checks() asserts the checks that decide consistency (not `flag`, not
 *      `undefined_unless`) into a solver; cat_checks_hold() says, for a Z3 model of the
 *      solver, which checks hold (flags to report, the axioms that rule an execution out).
 * Only solver/ calls Z3; a linked program is immutable and may be shared by threads that each
 * use their own enc. */
#ifndef PTX_SOLVER_CAT_EVAL_H
#define PTX_SOLVER_CAT_EVAL_H
#include <stddef.h>
#include "frontend/cat.h"
#include "solver/rel.h"

typedef enum { CAT_SET = 1, CAT_REL = 2 } cat_kind;

/* a base value: a set (kind CAT_SET, `set`) or a relation (CAT_REL, `rel`) over n events */
/* transitive: the engine's constraints make the relation transitive in every candidate
 * (r+ = r), so the evaluator need not build a closure */
typedef struct { cat_kind kind; rset set; rel rel; int transitive; } cat_value;

typedef struct {
    /* the engine's id (>= 0) of a base name, with its kind; -1 when the engine lacks it */
    int (*lookup)(void *ctx, const char *name, cat_kind *kind);
    /* every base name the engine knows (for "unknown name" messages); may be NULL */
    const char *const *(*names)(void *ctx, int *count);
    /* the value of base `id` for the candidate being evaluated, over n events (n as given to
     * cat_eval).  The evaluator copies what it needs before the next callback: `out` may point
     * into the engine's own storage.  Returns 0, or -1 when it cannot (the evaluation fails). */
    int (*value)(void *ctx, int id, int n, cat_value *out);
} cat_engine;

typedef struct cat_prog cat_prog;

/* Links a model to an engine (the engine struct is copied; ctx is used during the call only).
 * NULL with "file:line:col: found X, expected Y" in err when a name is unknown (the message
 * lists the names that exist, closest first) or an operator gets a value of the wrong type. */
cat_prog *cat_link(const cat_model *m, const cat_engine *eng, void *ctx, char *err,
                   size_t errlen);
void cat_prog_free(cat_prog *p);
const cat_model *cat_prog_model(const cat_prog *p);

typedef struct {
    cat_check_kind kind;     /* acyclic, irreflexive, empty */
    int negated;             /* `~acyclic r`: holds when r has a cycle */
    int flag;                /* `flag …`: reported, never asserted */
    int undefined_unless;    /* Dat3M's `undefined_unless …`: reported, never asserted */
    const char *name;        /* the `as` name, else that of the `call … as`, else "acyclic#3"
                                (kind and the check's 1-based index in the result) */
    const char *file;
    int line, col;           /* where the check is written */
    int site;                /* index of the check in the model's text (cat_ncheck_sites) */
    rel r;                   /* the relation checked (empty S: the relation [S]) */
    char gen[32];            /* storage of a generated name */
} cat_check;

/* the checks performed, in order; names and file names point into the model, so a result is
 * freed (cat_result_free) before its model */
typedef struct { int n; cat_check *v; } cat_result;

typedef struct {
    /* constraints the least-fixpoint convergence test of `let rec` may assume (the engine's
     * well-formedness of rf, co, …); NULL: none.  Pushed and popped, never left modified. */
    Z3_solver background;
    /* cap on the iterations of one `let rec` (0: the sound default, 1 + the sum of the sizes
     * of the sets and relations it defines, after which Kleene iteration cannot grow) */
    int max_iter;
    /* model/event.h mclock_ms() time to give up at (0: none): each convergence test of a
     * `let rec` gets the time left, and past it the iteration stops; the caller, which owns the
     * deadline, must then discard the result (verify's --timeout: Unknown) */
    double deadline;
} cat_eval_opts;

/* Evaluates the linked model over n events.  opts may be NULL.  Returns 0 and fills *out (to
 * be freed with cat_result_free), or -1 with a message in err. */
int cat_eval(const cat_prog *p, enc *e, int n, void *ctx, const cat_eval_opts *opts,
             cat_result *out, char *err, size_t errlen);
void cat_result_free(cat_result *r);

/* Statistics of the last evaluations of this thread (for tests and benchmarks). */
typedef struct { long fix_rounds, fix_solver_calls, fix_capped; } cat_eval_stats;
cat_eval_stats cat_eval_last_stats(void);

/* ---- solver/cat_check.c ---- */

/* The encodings of acyclic: an integer clock per event of a cycle-capable component
 * (default), or the transitive closure of the component with an empty diagonal. */
typedef enum { CAT_ACYCLIC_CLOCKS, CAT_ACYCLIC_CLOSURE } cat_acyclic_enc;

/* Asserts one check (its negation when negated) into s; _if: each assertion under the literal
   g (g -> assertion), so that solving under the assumption g enables the check. */
void cat_assert_check(enc *e, Z3_solver s, const cat_check *c, cat_acyclic_enc how);
void cat_assert_check_if(enc *e, Z3_solver s, const cat_check *c, cat_acyclic_enc how, Z3_ast g);
/* Asserts every check that is neither a flag nor undefined_unless; returns how many. */
int cat_assert_checks(enc *e, Z3_solver s, const cat_result *r);
/* holds[i] = 1 when check i holds (negation included) in the Z3 model m, else 0.  Returns 0,
 * or -1 when an entry does not evaluate to true or false. */
int cat_checks_hold(enc *e, Z3_model m, const cat_result *r, int *holds);
/* the same for one check: 1 holds, 0 fails, -1 evaluation failure */
int cat_check_holds(enc *e, Z3_model m, const cat_check *c);
/* The same for a check over constant relations (a model evaluated over one concrete execution:
 * every entry statically false or true, no solver needed): 1, 0, or -1 when an entry is not
 * constant. */
int cat_check_concrete(enc *e, const cat_check *c);
const char *cat_check_kind_name(cat_check_kind k);   /* "acyclic", "irreflexive", "empty" */
#endif
