/* exec/race.h — racecheck by the PTX memory model (exec/race.c), for exec/sanitize.c.  ISA 8.4
 * §8.7.1: two conflicting accesses (overlapping, one a write) race when they are not morally
 * strong (§8.7: both strong, each of a scope that includes the other's thread, the same bytes)
 * and not related in causality order (§8.9.5: program order and synchronizes-with, §8.9.4:
 * barriers, barrier.cluster, release patterns observed by acquire patterns, §8.8).  Causality
 * is tracked with vector clocks (exec/vclock.h), so the verdict does not depend on the order
 * in which the engine happens to run the threads.  The engine reports, for every thread, its
 * accesses and its synchronizing operations; the kind of each (its semantics and scope) comes
 * from the instruction at the thread's pc. */
#ifndef PTX_EXEC_RACE_H
#define PTX_EXEC_RACE_H
#include <stddef.h>
#include <stdint.h>
#include "exec/exec_int.h"
#include "exec/sanitize.h"

typedef struct race race;

/* a race found: the earlier access (thread, linear in the launch: CTA * threads per CTA + tid;
 * its instruction and SA_* kind) and, for race_explain, what racecheck knew of the two */
typedef struct {
    uint64_t g;
    int pc, acc;
    uint32_t clk;
    uint8_t scope[2], esize[2], eoff[2];   /* the earlier access, the later */
} race_hit;

/* NULL when the host is out of memory */
race *race_new(const ptxeModule *m, const unsigned grid[3], const unsigned block[3],
               const unsigned cluster[3], uint32_t ssize);
/* the launch's state freed, and the shadows of the allocations of ctx */
void race_free(race *R, ptxeCtx *ctx);
/* a CTA starts (its threads new, its shared memory unwritten) and ends (all threads exited) */
void race_cta_start(race *R, const unsigned ctaid[3]);
void race_cta_end(race *R, const unsigned ctaid[3]);

/* an access that succeeded: global (allocation g) or shared (of CTA `cta`, linear in the grid:
 * t's own or one of its cluster); 1 when it races with an earlier access (h filled), else 0 */
int race_global(race *R, const san_who *t, galloc *g, uint64_t a, unsigned n, int acc,
                race_hit *h);
int race_shared(race *R, const san_who *t, uint64_t cta, uint32_t off, unsigned n, int acc,
                race_hit *h);

/* why the access of t (the later one of h, just found) and the earlier one of h are neither
 * morally strong nor ordered, in words: "not morally strong: ...\nnot ordered: ..." */
void race_explain(race *R, const san_who *t, const race_hit *h, char *o, size_t n);

/* synchronizing operations of thread t (at t->pc) */
void race_fence(race *R, const san_who *t);
void race_bar_arrive(race *R, const san_who *t, int id);   /* bar.sync/red/arrive */
void race_bar_pass(race *R, const san_who *t, int id);     /* a waiter passes the barrier */
void race_bar_done(race *R, const san_who *t, int id);     /* the phase completed (t: its CTA) */
void race_warp_sync(race *R, const san_who *t, int n);     /* bar.warp.sync of threads t[0..n) */
void race_cluster_arrive(race *R, const san_who *t);
void race_cluster_done(race *R, const san_who *t);         /* t: a thread of the cluster */
void race_cluster_pass(race *R, const san_who *t);         /* barrier.cluster.wait passes */
/* an operation on the mbarrier at `off` in the shared memory of CTA `cta` (linear in the grid)
 * that may arrive (arrive forms,
 * complete-tx), with the object's phase bit before (ph0) and after (ph1); init clears it */
void race_mbar(race *R, const san_who *t, uint64_t cta, uint32_t off, int init, int ph0,
               int ph1);
/* a test_wait/try_wait that found the phase of parity `parity` complete */
void race_mbar_pass(race *R, const san_who *t, uint64_t cta, uint32_t off, int parity);
#endif
