/* check/verify_int.h — what the verify driver (check/verify.c) shares with its decision
 * procedure (check/verify_query.c).  Not part of the public interface. */
#ifndef PTX_LITMUS_VERIFY_INT_H
#define PTX_LITMUS_VERIFY_INT_H
#include "check/verify.h"
#include "check/stateset.h"
#include "model/program.h"
#include "check/progress.h"

/* verify_query adds the reachable final states (vectors over r->obs, values as the observables'
   types read them) to out and returns 0, or returns -1 with r->error set, or sets r->timed_out when
   the deadline (mclock_ms() time, 0 = none) passed. */
/* Whether the test's proposition holds in a state (a vector over r->obs). */
int verify_state_holds(const verify_result *r, const lit_test *t, const int64_t *state);
int verify_query(const lit_test *t, const verify_opts *o, verify_result *r, const mprogram *p,
                 double deadline, stateset *out, verify_progress *vp);
/* --liveness: with p built with mlimits.liveness, sets r->liveness and r->hangs. */
int verify_liveness(const lit_test *t, const verify_opts *o, verify_result *r, const mprogram *p,
                    double deadline);
/* The linked program of a bundled model (loaded once per process, shared by threads). */
const struct cat_prog *verify_bundled(model_kind k, char *err, size_t errlen);
#endif
