/* model/mbarrier.h — the state of an mbarrier object (§9.7.13.15.2) as the 64-bit value of its
 * location, and what each operation does to it.  The ISA makes the object opaque; the litmus
 * checker encodes its four counts in the value so that an operation on it is a read-modify-write
 * whose result the model's reads-from relation carries from thread to thread.
 *   bits  0..19  pending arrival count        bits 20..39  expected arrival count
 *   bits 40..55  tx-count (two's complement)  bit  56      the parity of the current phase
 *   bit  62      the object is initialised (a location that is not holds no mbarrier)
 * The phase is kept modulo 2: test_wait and try_wait are "valid only for the current incomplete
 * phase ... [and] the immediately preceding phase" (§9.7.13.15.16), which parity tells apart;
 * fewer distinct states keep the read values of the object few. */

#ifndef PTX_MODEL_MBARRIER_H
#define PTX_MODEL_MBARRIER_H
#include <stdint.h>
#include "frontend/litmus.h"

/* 1 when the value is an initialised mbarrier object */
int mbar_valid(uint64_t s);

/* mbarrier.init with count: the initial state */
uint64_t mbar_init(uint64_t count);
/* An operation that writes the object (arrive, arrive_drop, expect_tx, complete_tx, the
   increment of cp.async.mbarrier.arrive): the new state from the old one, a = count or
   txCount, b = txCount of arrive.expect_tx.  *ub = 1 when the ISA leaves it undefined
   (uninitialised object, a .noComplete arrive that completes the phase). */
uint64_t mbar_update(const lit_insn *in, uint64_t old, uint64_t a, uint64_t b, int *ub);
/* test_wait / try_wait: waitComplete for the state read and the operand (state or parity). */
int mbar_complete(const lit_insn *in, uint64_t cur, uint64_t opnd, int *ub);
/* The values the mbarrier object at location loc can hold in any execution, when they can be
   computed exactly (only mbarrier operations with constant operands write it, none in a loop):
   their number, *out malloc'ed; -1 otherwise. */
int mbar_exact_values(const lit_test *t, int loc, int64_t **out);
#endif
