/* model/base.h — the base sets and relations a cat model of PTX reads (po, rf, W, ACQ, sr, ...).
 *
 * Each name is defined once, in model/base.c, with the ISA 8.4 sentence it implements (and
 * Dat3M's spelling where Dat3M has the name).  The static ones are predicates over the events
 * of a universe (model/universe.h); the dynamic ones (rf, co, fr, sync_fence, addr, data,
 * ctrl) are chosen by the solver (solver/query.c), and this table only describes them.  The
 * solver restricts every set and relation to the events that exist in an execution. */
#ifndef PTX_MODEL_BASE_H
#define PTX_MODEL_BASE_H
#include "model/universe.h"

typedef enum { BASE_SET, BASE_REL } base_kind;
typedef enum { BASE_STATIC, BASE_DYNAMIC } base_origin;

typedef struct {
    const char *name;
    base_kind kind;
    base_origin origin;
    int (*set)(const muniverse *u, int i);               /* static sets */
    int (*rel)(const muniverse *u, int i, int j);        /* static relations */
    const char *doc;                                     /* what it is, and the ISA sentence */
} base_def;

extern const base_def base_defs[];
extern const int base_ndefs;
const base_def *base_find(const char *name);

/* helpers shared with the solver's own constraints */
int base_scope_includes(const muniverse *u, int i,
                        int thread); /* event i's scope holds the thread */
int base_same_scope(const muniverse *u, int i, int j);            /* sr */
int base_fence_sc(const muniverse *u, int i);
/* Barrier operations that may belong to one instance: uncounted (Dat3M's bar.cta.sync without a
   quorum) when they are the same use of the id; counted ones of the same id and count in the CTA,
   from different threads (which phase each joins is the solver's choice). */
int base_same_barrier(const muniverse *u, int i, int j);
int base_barrier_counted(const muniverse *u, int i);   /* a barrier operation with a thread count */
int base_syncbar_static(const muniverse *u, int i, int j);   /* syncbar between uncounted ones */
/* Dat3M's bar.cta.sync|arrive INST{, ID{, QUORUM}} read as Dat3M reads it (msemantics
   .dat3m_barriers): the instances of solver/query.c dat3m_barriers, not the ones above */
int base_dat3m_barrier(const muniverse *u, int i);
/* the barrier instructions of one Dat3M instance: the same INST in one CTA, both with an ID or
   both without (events i, j; their ID values are compared by the caller) */
int base_dat3m_same_instance(const muniverse *u, int i, int j);
#endif
