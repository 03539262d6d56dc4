/* model/universe.h — all the events a litmus program may perform, in one set.
 *
 * The paths of a thread (model/program.c) share their common prefixes: a thread's events form a
 * tree (a trie of its paths, keyed by instruction, access and barrier, not by value), so that
 * program order is the ancestor relation, and one path of each thread selects the events of an
 * execution.  Values are terms (model/term.h) per path: a read returns a variable, a write
 * writes a term over the variables read before it; a path holds under its guards.  The solver
 * (solver/query.c) chooses one path per thread; an event exists when the chosen path passes
 * through it.  Atomic operations are one event, or, with split_rmw, a read event followed in
 * program order by a write event related by rmw (as herd and Dat3M represent them); a
 * compare-and-swap that does not write is its read alone, and one that may fail or succeed on
 * a path has a write event that exists under its condition (upath_ev.wc); with
 * msemantics.cas_fail_writes a failed one writes back what it read (model/traces.c): its write
 * always exists, the value ite(success, new, old). */
#ifndef PTX_MODEL_UNIVERSE_H
#define PTX_MODEL_UNIVERSE_H
#include "model/program.h"

typedef struct {
    int node;                /* event */
    int rt, wt;              /* terms of the raw bits read / written by it on this path, -1 */
    int wc;                  /* the write of an atomic operation: the Boolean term under which
                                it happens (a compare-and-swap that may fail), else -1 */
    int ws;                  /* ... and under which it writes the value its read returned (a
                                failed cas that writes back), else -1 */
} upath_ev;

typedef struct { int from, to, kind; } udep;   /* events; kind: MDEP_* */

typedef struct {
    int len;
    upath_ev *ev;            /* the path's events, in program order */
    int ndep;
    udep *dep;
    int *regs;               /* final register values (terms) */
    int *guard;              /* the Boolean terms that hold on this path */
    int nguard;
    int hang;                /* MHANG_* of the trace */
    int spin_from;           /* MHANG_SPIN: index in ev of the repeated iteration's first event */
    int hang_insn;           /* the instruction it hangs at, -1 */
} upath;

typedef struct {
    int npath;
    upath *path;
} uthread;

typedef struct {
    const lit_test *t;
    const mterms *terms;     /* the program's (mprogram.terms) */
    const mdomain *dom;      /* the program's value domains, per atom (mprogram.dom) */
    int split_rmw;
    msemantics sem;          /* how instructions became events (set by the caller) */
    mevent *ev;              /* the events: one initial write per location first, then the
                                threads' events (ev[i].thread, ev[i].insn) */
    int n, ninit;
    int *parent;             /* program-order parent, -1 for a thread's first event */
    int *rmw_part;           /* 0; with split_rmw: 1 the read of an atomic operation, 2 its write */
    int *rmw_pair;           /* with split_rmw: the other event of the same atomic operation, -1 */
    int *npaths;             /* how many of its thread's paths pass through the event */
    unsigned char *po;       /* n x n: po[i*n+j] = i precedes j in program order (ancestor) */
    int nth;
    uthread *th;
} muniverse;

/* Builds the universe of a program (split_rmw must be 1 when a path has a compare-and-swap
   that may fail: its write is then an event of its own, which exists under the condition).
   Returns 0, -1 when out of memory, or -2 when the events would need more than max_bytes
   (0: no limit) in the solver's relations, about 64 bytes per pair of events. */
int muniverse_build(const lit_test *t, const mprogram *p, int split_rmw, size_t max_bytes,
                    muniverse *u);
void muniverse_free(muniverse *u);

static inline int upo(const muniverse *u, int i, int j)
{
    return u->po[(size_t)i * (size_t)u->n + (size_t)j];
}
/* i and j can be in one execution: different threads, or one precedes the other */
static inline int ucompat(const muniverse *u, int i, int j)
{
    return u->ev[i].thread != u->ev[j].thread || i == j || upo(u, i, j) || upo(u, j, i);
}
#endif
