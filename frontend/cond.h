/* frontend/cond.h — final-state conditions of litmus tests (herd syntax):
 *   exists | ~exists | forall  PROP,  PROP ::= PROP \/ PROP | PROP /\ PROP | ~PROP | (PROP)
 *   | REF (=|==|!=) REF | true | false,  REF ::= P0:r1 | 0:r1 | P0:%r1 | x | [x] | integer */
#ifndef PTX_FRONTEND_COND_H
#define PTX_FRONTEND_COND_H
#include <stddef.h>
#include <stdint.h>
#include "base/sanitized.h"
#include "frontend/lex.h"
#include "ptx/isa.h"

typedef enum { COND_EXISTS, COND_NOT_EXISTS, COND_FORALL } cond_kind;
typedef enum { REF_CONST, REF_REG, REF_LOC } cond_refk;

typedef struct {
    cond_refk k;
    int thread, reg;        /* REF_REG, resolved */
    int sym;                /* REF_LOC, resolved */
    int64_t val;            /* REF_CONST */
    char *name;             /* display name: "P1:r0", "x" (owned; any length) */
    char *tname, *rname;    /* parts as written (owned; tname NULL for locations and constants) */
    int line, col;
    isa_type type;          /* how the value reads (REF_REG/REF_LOC); ISA_T_NONE: 64-bit signed */
} cond_ref;

typedef enum {
    CN_TRUE,
    CN_FALSE,
    CN_AND,
    CN_OR,
    CN_NOT,
    CN_EQ,
    CN_NE,
    CN_LT,
    CN_LE,
    CN_GT,
    CN_GE
} cond_op;
typedef struct cond_node {
    cond_op op;
    struct cond_node *a, *b;    /* CN_AND/OR/NOT */
    cond_ref l, r;              /* comparisons CN_EQ .. CN_GE */
} cond_node;

#define COND_MAX_DEPTH 512      /* default nesting limit */
#define COND_DEPTH_CAP 10000    /* the most --max-depth allows */
/* The stack one level of nesting may take in all the recursive passes over a condition
   (parsing, printing, evaluating, the solver's encoding, freeing) and what the rest of a run
   needs: cond_parse refuses more levels than the room left on the calling thread's stack
   holds (base/stack.h), so a deep condition on a small stack (ulimit -s 1024, a library
   caller's thread) is an error, not a SIGSEGV.  Measured (tests/test_limits.c
   `deep_conditions_fit_the_stack`): at most ~310 bytes a level (a chain of '('), ~600 under
   AddressSanitizer; the budget is 2.5 times that. */
#define COND_STACK_PER_LEVEL ((size_t)(PTX_SANITIZED ? 1536 : 768))
#define COND_STACK_RESERVE ((size_t)256 << 10)

/* Resolves a reference in place; returns 0, or -1 with a message in err. */
typedef int (*cond_resolver)(void *ctx, cond_ref *ref, char *err, size_t errlen);

/* Parse a proposition starting at tv->v[*pos]; advances *pos. On error returns NULL with
 * "file:line:col: message" in err. */
cond_node *cond_parse(const char *file, const tokvec *tv, int *pos, cond_resolver res, void *ctx,
                      int max_depth, char *err, size_t errlen); /* max_depth <= 0: COND_MAX_DEPTH */
/* Parse one reference (used by `locations [...]`). */
int cond_parse_ref(const char *file, const tokvec *tv, int *pos, cond_ref *out, char *err,
                   size_t errlen);
void cond_free(cond_node *n);
void cond_ref_free(cond_ref *r);   /* frees the names of a reference (not the struct) */

typedef int64_t (*cond_valfn)(void *ctx, const cond_ref *ref);
int cond_eval(const cond_node *n, cond_valfn val, void *ctx);
/* Whether `a op b` holds for references l and r with values a and b (the comparison cond_eval
   uses: a constant is read as the other side's type). */
int cond_compare(cond_op op, const cond_ref *l, int64_t a, const cond_ref *r, int64_t b);
int cond_is_compare(cond_op op);
/* Calls fn for every register/location reference in the proposition. */
void cond_foreach_ref(const cond_node *n, void (*fn)(void *ctx, const cond_ref *r), void *ctx);
/* herd-style text: (P1:r0=1 /\ P1:r1=0).  Returns the number of characters written. */
size_t cond_print(const cond_node *n, char *buf, size_t len);
const char *cond_kind_name(cond_kind k);   /* "exists", "~exists", "forall" */
#endif
