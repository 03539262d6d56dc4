/* solver/query_int.h — the per-test problem of solver/query.c, shared with
 * solver/query_values.c (paths, values, reads-from agreement, observables, the condition).
 * Private to the two files. */
#ifndef PTX_SOLVER_QUERY_INT_H
#define PTX_SOLVER_QUERY_INT_H
#include "solver/query.h"
#include "solver/term_z3.h"

typedef struct { int n; int *t; Z3_ast *ind; } tlist;       /* terms, each with when it holds */

struct qproblem {
    enc e;
    Z3_solver s;
    const muniverse *u;
    const matoms *at;
    int n;
    Z3_ast **sel;
    Z3_ast *ex;
    unsigned char *cond;         /* per event: may be absent on a selected path through it (the
                                    write of a compare-and-swap that may fail) */
    tz_ctx tz;                   /* the terms of the universe as Z3 bit-vectors */
    tlist *rt, *wt;              /* per event: the terms read / written, per path */
    Z3_ast *rv, *wv;             /* per event: the raw bits read / written (bit-vectors) */
    int *a0, *a1;                /* per memory event: its atoms [a0, a1) */
    rel rf, co, fr, sc;
    rel addr, data, ctrl;        /* dep by kind */
    rel syncbar;                 /* barrier operations of one instance, towards a waiting one */
    int liveness;                /* paths that never end are in the universe (query_liveness) */
    Z3_ast *blocked; /* liveness: per barrier event, a selected path waits there forever */
    Z3_ast *hangs;               /* liveness: per thread, its selected path never ends */
    const cat_prog *cat;         /* the model as cat (NULL: model/ptx.c) */
    cat_result checks;
    Z3_ast *guard;               /* per check: asserted when the guard holds */
    int nguard;
    rset *bset;                  /* base values computed (model/base.c index) */
    rel *brel;
    Z3_ast *assume;              /* the guards assumed by every check (all but `dropped`) */
    int dropped;
    const char *label;           /* the model's name, for witnesses */
    double deadline;             /* mclock_ms() time to give up at, 0 = none */
    int timed_out;
    int out_of_memory;           /* a check stopped at Z3's memory limit */
    Z3_ast ***rfa;               /* rfa[r][a - a0[r]][w]: read r takes atom a from write w */
    Z3_ast **fin;                /* fin[a][w]: write w gives atom a its final value */
    int nobs;
    qobs *obs;
    Z3_ast *ov;                  /* per observable: its final value (64-bit bit-vector) */
};


void assert_ast(qproblem *q, Z3_ast a);
void assert_implies(qproblem *q, Z3_ast a, Z3_ast b);
void assert_atmost1(qproblem *q, Z3_ast *v, int k);   /* at most one of v[0..k) */

static inline int is_write(const mevent *e)
{
    return e->k == EV_W || e->k == EV_RMW || e->k == EV_INIT;
}
static inline int is_read(const mevent *e) { return e->k == EV_R || e->k == EV_RMW; }

/* Path selection (sel), existence (ex, cond), the dependencies, the guards, and the values
   of every event (rv, wv).  Returns 0, or -1 with err when a thread has no path. */
int build_paths(qproblem *q, char *err, size_t errlen);
/* Read r takes atom a from write w: their bytes there are equal (NULL: never). */
Z3_ast rf_agree(qproblem *q, int r, int w, int a);
/* The final values of the observables (q->ov), from the final writes (q->fin). */
void build_observables(qproblem *q, const qobs *obs, int nobs);
/* The value of an event's read or written bits (NULL: none) in model m. */
int64_t event_value(qproblem *q, Z3_model m, Z3_ast v);
/* The constant term every path through event ev reads (rd) or writes, -1 when not one. */
int event_const(const qproblem *q, int ev, int rd, uint64_t *v);
void values_free(qproblem *q);
#endif
