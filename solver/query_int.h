/* solver/query_int.h — the per-test problem of solver/query.c, shared with
 * solver/query_values.c (paths, values, reads-from agreement, observables, the condition).
 * Private to the two files. */
#ifndef PTX_SOLVER_QUERY_INT_H
#define PTX_SOLVER_QUERY_INT_H
#include "solver/query.h"
#include "solver/term_z3.h"

typedef struct { int n; int64_t *v; Z3_ast *ind; } vlist;   /* values, each with when it holds */
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
    Z3_ast *rv, *wv;             /* per event: the raw bits read / written (bit-vectors; a read's
                                    made when needed, read_bv) */
    unsigned char *fin_read;     /* per read: it can only read constants (query_terms.c) */
    vlist *fv;                   /* per read of constants: its values, each with when it holds */
    vlist *varv;                 /* per variable of reads of constants: its values likewise */
    unsigned char *var_fin;      /* per variable: 1 the value of reads of constants (varv), 2 not,
                                    3 also a bit-vector tied to varv */
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
    Z3_ast lemma_guard;          /* the lemmas (solver/query_lemmas.c) hold under it, NULL */
    Z3_ast extra;                /* one more literal query_check assumes, NULL */
    Z3_ast ***rfa;               /* rfa[r][a - a0[r]][w]: read r takes atom a from write w */
    Z3_ast **fin;                /* fin[a][w]: write w gives atom a its final value */
    int nobs;
    qobs *obs;
    Z3_ast *ov;                  /* per observable: its final value (64-bit bit-vector), NULL
                                    while it is only needed as constants */
    vlist *ovl;                  /* per observable: its values when they are constants, each
                                    with when it holds (n 0: ov alone) */
};


/* A solver check within the deadline (Z3's own timeout is the time left), assuming the
   model's checks but `dropped`, and the lemmas when none is dropped. */
Z3_lbool query_check(qproblem *q);
int query_past_deadline(qproblem *q);   /* the deadline passed: sets timed_out */
void assert_ast(qproblem *q, Z3_ast a);
int model_holds(enc *e, Z3_model m, Z3_ast a);
uint64_t mask_bytes(int n);
void tl_add(enc *e, tlist *l, int t, Z3_ast when);
void tl_free(tlist *l);
/* the bit-vector of the terms of l: the term itself when there is one, else a constant equal
   to the term of whichever path holds */
Z3_ast value_of(qproblem *q, const tlist *l, unsigned w, const char *name);
/* Read values (query_terms.c): before the reads-from choices, which reads can only read
   constants (fin_read) and the domain choices of the other variables; after them, the values
   of reads of constants (q->fv, q->varv); a read's bit-vector, its value in a model; a Boolean
   term by the values of its variables when it can be (else as a bit-vector), the values of a
   term likewise (0: cannot); at the end of the build, the ties of the variables some
   bit-vector uses. */
enum { V_UNKNOWN, V_FIXED, V_BV, V_TIED, V_CONST_PENDING = 4 };   /* var_fin */
/* the lemmas of query_lemmas.c are for locations of at least LEMMA_MIN_OPS atomic operations;
   from LEMMA_BV_OPS on, their reads are bit-vectors rather than domain choices (query_terms.c:
   6 tickets listing 720 states, 3.7 s with choices, 7.9 s without; a 4 x 4 counter's exists
   questions, 5 s without, 50 to 100 s with) */
enum { LEMMA_MIN_OPS = 8, LEMMA_BV_OPS = 8 };
int read_var(const qproblem *q, int r);   /* the variable read r returns (one atom), -1 */
void classify_reads(qproblem *q);
void build_read_values(qproblem *q);
/* read r's value (one atom, a variable with a domain) taking atom a from w, as a formula over
   the domain choices: 1 and *f, or 0 when w's value is not a function of such choices */
int domain_agree(qproblem *q, int r, int w, int a, Z3_ast *f);
Z3_ast read_bv(qproblem *q, int r);
int64_t read_value(qproblem *q, Z3_model m, int r);
Z3_ast enc_bool(qproblem *q, int t);
int term_values(qproblem *q, int t, vlist *out);
void tie_reads(qproblem *q);
void assert_implies(qproblem *q, Z3_ast a, Z3_ast b);
void assert_atmost1(qproblem *q, Z3_ast *v, int k);   /* at most one of v[0..k) */

static inline int is_write(const mevent *e)
{
    return e->k == EV_W || e->k == EV_RMW || e->k == EV_INIT;
}
static inline int is_read(const mevent *e) { return e->k == EV_R || e->k == EV_RMW; }

/* Path selection (sel), existence (ex, cond), the dependencies and the values of every event
   (rt, wt, wv).  Returns 0, or -1 with err when a thread has no path. */
int build_paths(qproblem *q, char *err, size_t errlen);
/* The guards of the paths (after build_read_values). */
void assert_guards(qproblem *q);
/* Whether read r may take atom a from write w (0: both are constants, different there); the
   formula under which it does (their bytes there are equal; NULL: never). */
int rf_possible(const qproblem *q, int r, int w, int a);
Z3_ast rf_agree(qproblem *q, int r, int w, int a);
/* The final values of the observables (q->ov), from the final writes (q->fin). */
void build_observables(qproblem *q, const qobs *obs, int nobs);
void vl_add(enc *e, vlist *l, int64_t v, Z3_ast when);
void vl_free(vlist *l);
/* Observable o's value in model m; the formula "o has a value other than v". */
int64_t obs_value(qproblem *q, Z3_model m, int o);
Z3_ast obs_differs(qproblem *q, int o, int64_t v);
/* The value of an event's read or written bits (NULL: none) in model m. */
int64_t event_value(qproblem *q, Z3_model m, Z3_ast v);
/* The constant term every path through event ev reads (rd) or writes, -1 when not one. */
int event_const(const qproblem *q, int ev, int rd, uint64_t *v);
void values_free(qproblem *q);
/* Facts the model implies that the solver would only find by enumerating interleavings
   (solver/query_lemmas.c), proven first, then asserted under q->lemma_guard. */
void build_lemmas(qproblem *q);
#endif
