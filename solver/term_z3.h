/* solver/term_z3.h — terms of model/term.h as Z3 bit-vectors (solver/term_z3.c): the same
 * operators as mt_apply, checked against it by tests/test_terms.c. */
#ifndef PTX_SOLVER_TERM_Z3_H
#define PTX_SOLVER_TERM_Z3_H
#include "model/term.h"
#include "solver/rel.h"

typedef struct {
    enc *e;
    const mterms *s;
    Z3_ast *memo;            /* per term id, NULL until encoded */
    int nmemo;
} tz_ctx;

void tz_init(tz_ctx *c, enc *e, const mterms *s);
void tz_free(tz_ctx *c);
/* The bit-vector of term t (its width); a variable v is the constant "v<v>". */
Z3_ast tz_bv(tz_ctx *c, int t);
/* A width-1 term as a Boolean in rel.h's convention: NULL false, e->T true, else a term. */
Z3_ast tz_bool(tz_ctx *c, int t);
/* The unsigned value of a bit-vector numeral of model m (model completion): 0 when none. */
uint64_t tz_model_u64(enc *e, Z3_model m, Z3_ast bv);
/* v (a bit-vector of at most 64 bits) as ptx/isa.c's isa_value reads its low bits as type t:
   a 64-bit bit-vector */
Z3_ast tz_value_as(enc *e, int t, Z3_ast v);
#endif
