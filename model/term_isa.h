/* model/term_isa.h — PTX register computations and atomic operations on terms
 * (model/term_isa.c): the forms litmus tests compute on read values, checked against
 * ptx/isa.c by tests/test_terms.c. */
#ifndef PTX_MODEL_TERM_ISA_H
#define PTX_MODEL_TERM_ISA_H
#include "model/term.h"
#include "ptx/isa.h"

/* dst[k]: the terms isa_eval would write to destination k (raw 64-bit values) given the 64-bit
   source terms src (each masked to isa_src_bits).  0, or -1 when the instruction has no term
   form here (the caller makes its sources concrete and calls isa_eval). */
int mt_isa_eval(mterms *s, const isa_insn *in, const int *src, int *dst);
/* The value an atom/red of op on type t writes, as isa_atom_apply computes it, from the old
   value (64-bit term, zero-extended raw bits) and the operands b, c (64-bit terms): *newv (64
   bits, truncated to the type's width) and *wcond, the width-1 term under which it writes (a
   cas: old == b; failed_cas_writes: a failed cas writes the old value, *wcond true).  0, or -1
   when op on t has no term form (f64/f16 add, float min/max, div). */
int mt_atom_apply(mterms *s, isa_atom_op op, isa_type t, int old, int b, int c,
                  int failed_cas_writes, int *newv, int *wcond);
#endif
