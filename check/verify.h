/* check/verify.h — deciding one litmus test: candidate executions, reachable final states,
 * the verdict on the condition (herd conventions). */
#ifndef PTX_LITMUS_VERIFY_H
#define PTX_LITMUS_VERIFY_H
#include <stdint.h>
#include "frontend/litmus.h"
#include "model/models.h"
#include "model/execution.h"

typedef struct {
    model_kind model;
    const struct cat_prog *cat;   /* a model read with --cat (verify_load_cat); NULL: the bundled
                                     model `model` */
    const char *model_label;      /* the model's name in reports (NULL: model_name(model)) */
    int unroll;            /* backward jumps per branch instruction on one path */
    int max_events;        /* per path */
    int max_traces;        /* per thread */
    long states;           /* reachable states to enumerate and list: -1 all, 0 none, else at
                              most that many (the verdict never depends on it; default 1000) */
    double timeout_s;      /* wall-clock limit of one test in seconds, 0 = none */
    size_t max_memory;     /* bytes the paths, the events and the solver may use per test
                              (Z3's memory_max_size and the model's own counts), 0 = none;
                              reaching it makes the verdict Unknown (default 4 GiB) */
    int progress;          /* a progress line on stderr (a terminal) for a test past 2 s
                              (check/progress.h) */
    /* Optional (symbolic procedure): called once with a witness execution (execution graphs):
       one satisfying an `exists`, violating a `~exists` or `forall`, else any execution. */
    mexecution_fn graph;
    /* what graph is called with (herd7's -show): VERIFY_SHOW_WITNESS one witness execution;
       VERIFY_SHOW_ALL every allowed execution reaching a distinct final state (at most
       `states` of them); VERIFY_SHOW_FORBIDDEN executions with the tested outcome that the
       model rules out, each labelled with the checks it violates (mexecution.note) */
    enum { VERIFY_SHOW_WITNESS, VERIFY_SHOW_ALL, VERIFY_SHOW_FORBIDDEN } graph_show;
    int explain;           /* say which checks of the model rule out an unreachable outcome */
    int liveness; /* also decide whether some execution never ends (verify_result.liveness) */
    void *graph_ctx;
    /* how instructions become events (docs/model.md "Event semantics"): VERIFY_EVENTS_MODEL
       those of `model` (Dat3M's under ptx-v7.5 and ptx-v6.0, also with a cat file when `model`
       names one of them; the ISA's otherwise), or the ISA's, or Dat3M's, whatever the model */
    enum { VERIFY_EVENTS_MODEL, VERIFY_EVENTS_ISA, VERIFY_EVENTS_DAT3M } events;
    /* an atom.cas whose comparison fails: as `events` says, a read only, or also a write of
       the value read */
    enum { VERIFY_CAS_EVENTS, VERIFY_CAS_READ, VERIFY_CAS_WRITE } cas_fail;
} verify_opts;

void verify_opts_default(verify_opts *o);
/* The event semantics the options select. */
msemantics verify_semantics(const verify_opts *o);

typedef enum { OBS_REG, OBS_LOC } obs_kind;
typedef struct {
    obs_kind k;
    int thread, reg;       /* OBS_REG */
    int sym, loc;          /* OBS_LOC */
    char *name;            /* owned */
    isa_type type;         /* how its values read (conditions, printing) */
} observable;

typedef struct {
    char *file;
    char *name;
    int ok;                /* 1 = verified, 0 = error */
    char error[1024];
    cond_kind quant;
    char condition[1024];  /* herd-style text */
    char filter[1024];     /* the test's `filter` proposition, "" when none */
    int nobs;
    observable *obs;
    int nstates;           /* states listed (at most --states) */
    int nstates_total;     /* reachable states; -1 when the enumeration stopped at --states */
    int64_t *states;       /* nstates x nobs, sorted */
    unsigned char *holds;  /* the proposition holds in state i */
    int positive, negative;   /* listed states where the proposition holds / does not */
    int has_positive, has_negative;   /* some reachable state where it holds / does not */
    int validated;
    int bound_reached;
    int vacuous;           /* no execution reaches a final state (none passes the filter): a
                              forall or ~exists verdict Ok holds of no outcome (issue #16) */
    int timed_out;         /* the test ran past --timeout or --max-memory (ok is 0 then) */
    int out_of_memory;     /* ... it was --max-memory */
    enum { LIVENESS_UNASKED, LIVENESS_TERMINATES, LIVENESS_MAY_HANG } liveness;
    struct verify_hang {   /* liveness: the threads that never end in one execution */
        char thread[32];
        int spin; /* 1: spins forever (a fair loop); 0: waits at a barrier that never completes */
        int line, col;     /* the instruction it hangs at */
        char insn[96];
        char reads[256];   /* spin: what the repeated iteration reads, "x=0 y=1" */
    } *hangs;
    int nhangs;
    long solved;           /* solver checks made */
    char **flags;          /* the model's flags raised by some execution (herd's `flag`) */
    int nflags;
    char **violated;       /* --explain: the checks that rule out the outcome (exists: the
                              condition; ~exists: the condition; forall: its negation) */
    int nviolated;
    double time_ms;
    const lit_test *test;  /* borrowed, for value printing */
} verify_result;

/* Decide a parsed test.  Returns 0, or -1 with r->error set (r->ok == 0). */
int verify_test(const lit_test *t, const verify_opts *o, verify_result *r);
/* Parse and decide a file; a parse error gives r->ok == 0 with "file:line:col: message". */
int verify_file(const char *path, const verify_opts *o, verify_result *r);
void verify_result_free(verify_result *r);
/* Never | Sometimes | Always, or Unknown when the test timed out or a bound (--unroll) cut
   paths and the observation claims an absence (Never, Always). */
const char *verify_observation(const verify_result *r);
/* Whether the verdict is not final: the test timed out, or a bound cut paths and the verdict
   rests on an absence (exists/~exists without a positive state, forall without a negative). */
int verify_unknown(const verify_result *r);
/* Ok | No | Unknown (verify_unknown). */
const char *verify_verdict(const verify_result *r);
/* Formats the value of observable obs as herd does: location addresses by name, integers as
   the observable's type reads them (64-bit unsigned types unsigned). */
void verify_value_str(const verify_result *r, int obs, int64_t v, char *buf, size_t len);
#endif
