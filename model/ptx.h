/* model/ptx.h — the PTX memory consistency model (ISA 8.4 chapter 8) over one candidate
 * execution: its events (fixed by the chosen per-thread traces) and the solver's choices
 * (reads-from, coherence order, Fence-SC order).  Definitions live in model/ptx.c, one per
 * named concept of the ISA; docs/model.md derives each of them from the text. */
#ifndef PTX_MODEL_PTX_H
#define PTX_MODEL_PTX_H
#include "model/event.h"
#include "solver/rel.h"

typedef enum {
    MODEL_PTX,      /* ISA 8.4 + mixed-proxy extension (texture/surface/constant, alias fences) */
    MODEL_PTX75,    /* PTX ISA 7.5 model: no .cluster scope */
    MODEL_PTX60     /* PTX ISA 6.0 model: no proxies, no .cluster scope */
} model_kind;

const char *model_name(model_kind k);
int model_parse(const char *s, model_kind *k);

typedef struct {
    const lit_test *t;
    model_kind kind;
    mevent *ev;          /* inits first (one per physical location), then threads in order */
    int n;
    int ninit;
    int *base;           /* first event of each thread (product procedure) */
    const mtrace **tr;   /* chosen trace of each thread (product procedure) */
    /* The symbolic procedure (solver/query.c) gives all events of all paths instead: */
    Z3_ast *ex;          /* per event: it exists (NULL: every event exists) */
    const unsigned char *po;   /* n x n program order (NULL: ev[].po within a thread) */
    const rel *dep;      /* dependencies of existing events (NULL: from tr) */
} candidate;

/* The relations of one candidate, kept for reports and execution graphs. */
typedef struct {
    rel po, rf, co, fr, sc, sync, base_causality, causality;
} model_rels;

/* Static program order, location and morally-strong tests (ISA §8.9.1, §8.2, §8.7). */
int ptx_po(const candidate *c, int i, int j);
int ptx_morally_strong(const candidate *c, int i, int j);

/* Barrier matching (§8.9.4 item 2, §9.7.12.1): fills the synchronizes-with edges among
 * barrier operations. */
void ptx_barrier_sync(const candidate *c, enc *e, rel *bar_sync);

/* Asserts every axiom of §8.10 for the candidate with the solver's rf/co/sc choices.
 * When out is non-NULL the derived relations are returned (caller frees). */
void ptx_assert_axioms(enc *e, Z3_solver s, const candidate *c, const rel *rf, const rel *co,
                       const rel *sc, const rel *bar_sync, const rel *fr, model_rels *out);
/* fr: from-reads when the caller computes it (per byte); NULL: rf^-1 ; co.
   Operations on the same barrier (§9.7.12.1), for the symbolic procedure's deadlock rule. */
int ptx_same_barrier(const candidate *c, int i, int j);
/* Whether the product procedure's chosen paths deadlock on barriers. */
int ptx_barrier_deadlock(const candidate *c);
void model_rels_free(model_rels *m);
#endif
