/* litmus/verify_query.c — the symbolic decision procedure: the program's events in one
 * universe (model/universe.c), one solver problem for the whole test (solver/query.c), its
 * reachable final states enumerated by blocking each one found. */
#include "litmus/verify_int.h"
#include "solver/query.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int verify_query(const lit_test *t, const verify_opts *o, verify_result *r, const mprogram *p, stateset *out)
{
    muniverse u;
    if (muniverse_build(t, p, 0, &u)) {
        snprintf(r->error, sizeof r->error, "%s:1:1: found no memory for the events of the test, expected less (limit --max-events)", t->file);
        return -1;
    }
    qobs *obs = calloc((size_t)(r->nobs ? r->nobs : 1), sizeof *obs);
    for (int i = 0; i < r->nobs; i++)
        obs[i] = (qobs){ r->obs[i].k == OBS_LOC, r->obs[i].thread, r->obs[i].reg, r->obs[i].loc, r->obs[i].type };
    char err[256];
    int no_exec = 0, rc = 0;
    qproblem *q = query_build(&u, &p->at, o->model, obs, r->nobs, (unsigned)o->timeout_ms, &no_exec, err, sizeof err);
    r->candidates = 1;
    if (q) {
        int64_t *st = calloc((size_t)(r->nobs ? r->nobs : 1), sizeof *st);
        for (;;) {
            r->solved++;
            int k = query_next_state(q, st);
            if (k < 0) {
                snprintf(r->error, sizeof r->error, "%s:1:1: the solver gave up, expected a decision (limit --timeout)", t->file);
                rc = -1;
                break;
            }
            if (!k) break;
            ss_add(out, st);
        }
        free(st);
        query_free(q);
    } else if (!no_exec) {
        snprintf(r->error, sizeof r->error, "%s:1:1: %s", t->file, err);
        rc = -1;
    }
    free(obs);
    muniverse_free(&u);
    return rc;
}
