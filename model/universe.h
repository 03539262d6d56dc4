/* model/universe.h — all the events a litmus program may perform, in one set.
 *
 * The paths of a thread (model/program.c) share their common prefixes: a thread's events form a
 * tree (a trie of its paths, keyed by instruction, access and barrier, not by value), so that
 * program order is the ancestor relation, and one path of each thread selects the events of an
 * execution.  Values are per path: a read event may return different values on different
 * paths through it.  The solver (solver/query.c) chooses one path per thread; an event exists
 * when the chosen path passes through it.  Atomic operations are one event, or, with
 * split_rmw, a read event followed in program order by a write event related by rmw (as herd
 * and Dat3M represent them); a compare-and-swap that does not write is its read alone (with
 * msemantics.cas_fail_writes a failed one writes back what it read, model/traces.c). */
#ifndef PTX_MODEL_UNIVERSE_H
#define PTX_MODEL_UNIVERSE_H
#include "model/program.h"

typedef struct {
    int node;                /* event */
    int64_t rval, wval;      /* raw bits read / written by it on this path */
} upath_ev;

typedef struct { int from, to, kind; } udep;   /* events; kind: MDEP_* */

typedef struct {
    int len;
    upath_ev *ev;            /* the path's events, in program order */
    int ndep;
    udep *dep;
    int64_t *regs;           /* final register values */
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

/* Builds the universe of a program.  Returns 0, or -1 when out of memory. */
int muniverse_build(const lit_test *t, const mprogram *p, int split_rmw, muniverse *u);
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
