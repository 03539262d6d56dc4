/* solver/encode.h — Z3 encoding of one candidate execution and enumeration of its final states. */
#ifndef PTX_SOLVER_ENCODE_H
#define PTX_SOLVER_ENCODE_H
#include <stdint.h>
#include "model/ptx.h"

/* Called for each new reachable memory state (values of the observed locations, in order). */
typedef void (*encode_found_fn)(void *ctx, const int64_t *mem);

/* Asserts the candidate's choices and the model's axioms, then enumerates the final values of
 * the observed physical locations obs_loc[0..nobs) that are reachable and not in known[].
 * Returns the number of new states, 0 if the candidate is not a consistent execution, -1 if
 * the solver gave up. */
int encode_candidate(enc *e, const candidate *c, const int *obs_loc, int nobs,
                     const int64_t *const *known, int nknown, encode_found_fn found, void *ctx);
#endif
