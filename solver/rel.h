/* solver/rel.h — relations over the events of one candidate execution, as Z3 Boolean terms.
 * Entry (i,j) is NULL (statically false), the context's TRUE (statically true) or a Z3 term.
 * The operators fold constants, so static parts of the model (program order, scopes, patterns)
 * cost nothing in the solver and only cross-thread choices become Z3 structure. */
#ifndef PTX_SOLVER_REL_H
#define PTX_SOLVER_REL_H
#include <z3.h>

typedef struct {
    Z3_context z;
    Z3_ast T;            /* true */
    Z3_ast F;            /* false */
    Z3_sort boolsort, intsort;
    int fresh;           /* counter for fresh names */
    unsigned timeout_ms; /* per solver check, 0 = none */
} enc;

typedef struct { int n; Z3_ast *m; } rel;

void enc_init(enc *e);
void enc_free(enc *e);
Z3_ast b_and(enc *e, Z3_ast a, Z3_ast b);
Z3_ast b_or(enc *e, Z3_ast a, Z3_ast b);
Z3_ast b_not(enc *e, Z3_ast a);
Z3_ast b_or_n(enc *e, Z3_ast *v, int n);      /* folds; v is scratch */
Z3_ast b_var(enc *e, const char *prefix);     /* fresh Boolean variable */
Z3_ast b_of(enc *e, Z3_ast a);                /* NULL -> F (for handing to Z3) */

rel rel_new(int n);
void rel_free(rel *r);
static inline Z3_ast rel_get(const rel *r, int i, int j) { return r->m[i * r->n + j]; }
static inline void rel_set(rel *r, int i, int j, Z3_ast a) { r->m[i * r->n + j] = a; }
rel rel_copy(const rel *a);
rel rel_union(enc *e, const rel *a, const rel *b);
rel rel_inter(enc *e, const rel *a, const rel *b);
rel rel_seq(enc *e, const rel *a, const rel *b);      /* a ; b */
rel rel_inverse(const rel *a);
rel rel_plus(enc *e, const rel *a);                   /* transitive closure a+ */
/* keep (i,j) only where keep(i,j,ctx) */
rel rel_filter(const rel *a, int (*keep)(void *ctx, int i, int j), void *ctx);
rel rel_static(int n, int (*holds)(void *ctx, int i, int j), void *ctx, enc *e);
#endif
