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
/* A new simple solver of e's context (reference taken): every solver of the tool is made here,
 * with Z3's own SIGINT handler off (see rel.c). */
Z3_solver enc_solver(enc *e);
/* Z3's limit on each later check of s: ms milliseconds (at least 1, at most 4e9) */
void enc_solver_timeout(enc *e, Z3_solver s, double ms);
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
/* ---- additions for the cat evaluator (solver/cat_eval.c) ----
 * Sets of events: a vector of n entries with the same convention as relations (NULL statically
 * false, the context's T statically true, otherwise a Z3 Boolean term).  A universe `u` is the
 * set of events that exist; it need not be all-true. */
typedef struct { int n; Z3_ast *v; } rset;

rset rset_new(int n);                                 /* all NULL; aborts when out of memory */
void rset_free(rset *s);
rset rset_copy(const rset *a);
rset rset_union(enc *e, const rset *a, const rset *b);
rset rset_inter(enc *e, const rset *a, const rset *b);
rset rset_diff(enc *e, const rset *a, const rset *b); /* a \ b */
rel rel_diff(enc *e, const rel *a, const rel *b);     /* a \ b */
rel rel_complement(enc *e, const rel *a, const rset *u);        /* (u * u) \ a */
rel rel_cross(enc *e, const rset *a, const rset *b);  /* cartesian product a * b */
rel rel_ident(const rset *s);                         /* [s]: (i,i) = s(i) */
rset rel_domain(enc *e, const rel *a);                /* i such that some (i,j) */
rset rel_range(enc *e, const rel *a);                 /* j such that some (i,j) */
rel rel_opt(enc *e, const rel *a, const rset *u);     /* a? = a | [u] */
rel rel_star(enc *e, const rel *a, const rset *u);    /* a* = a+ | [u] */
/* a ; b, the same relation as rel_seq (the disjuncts of an entry in the order of the middle
 * event), in time proportional to the pairs of entries that are not statically false, and an
 * entry that becomes statically true takes no more terms. */
rel rel_seq_sparse(enc *e, const rel *a, const rel *b);
int rel_is_empty(const rel *a);                       /* every entry statically false */
int rset_is_empty(const rset *a);
#endif
