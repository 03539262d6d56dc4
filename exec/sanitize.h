/* exec/sanitize.h — the executor as a sanitizer (docs/executor.md "Checks"): the interface
 * between the SIMT engine (exec/engine.h) and exec/sanitize.c, which keeps the launch's
 * findings, initcheck's written-bits and racecheck's shadow memory.  The engine passes who
 * (san_who: thread, CTA, warp, lane, pc) and what (space, allocation or CTA slot, offset, size,
 * kind of access); it knows nothing of the shadows.  With no check enabled a launch has no
 * `san` and every hook is behind one `if (X->san)`. */
#ifndef PTX_EXEC_SANITIZE_H
#define PTX_EXEC_SANITIZE_H
#include <stdint.h>
#include "exec/exec_int.h"

typedef struct san san;

/* a thread: coordinates, linear CTA index, linear thread index in the CTA, the CTA's slot (the
 * index of the CTA storage it runs in among the resident CTAs, 0 .. nslots - 1, reused by a
 * later CTA after san_cta_start), warp, lane, and the instruction it executes */
typedef struct {
    unsigned t[3], c[3];
    uint64_t cta;
    uint32_t tid, slot;
    int wid, lane, pc;
} san_who;

/* kinds of access for racecheck: read, write, both (atomics); whether an access is strong,
 * and its scope, racecheck takes from the instruction at the thread's pc (exec/race.c) */
enum { SA_READ = 1, SA_WRITE = 2 };

san *san_begin(ptxeCtx *ctx, ptxeModule *m, const char *kernel, const unsigned grid[3],
               const unsigned block[3], const unsigned cluster[3], uint32_t ssize,
               uint32_t nslots);
void san_end(san *S);
unsigned san_checks(const san *S);
/* CTA ctaid starts in slot `slot` (its shared memory unwritten, its threads new); it ends when
 * its last thread exits (the slot is then free for a later CTA) */
void san_cta_start(san *S, uint32_t slot, const unsigned ctaid[3]);
void san_cta_end(san *S, const unsigned ctaid[3]);

/* accesses that succeeded: global (allocation g) or shared (of the CTA in slot `slot`, offset) */
void san_global(san *S, const san_who *t, galloc *g, uint64_t a, unsigned n, int acc);
void san_shared(san *S, const san_who *t, uint32_t slot, uint32_t off, unsigned n, int acc);

/* synchronizing operations of thread t for racecheck (ISA §8.9.4; exec/race.h): a fence or
 * membar; a CTA barrier bar.sync/red/arrive reached, passed by a waiting thread, its phase
 * completed (t: a thread of the CTA); bar.warp.sync of the threads t[0..n); barrier.cluster
 * arrive, phase completed, wait passed; an operation on the mbarrier at `off` in the shared
 * memory of the CTA in slot `slot` that may arrive (phase bit ph0 before, ph1 after; init:
 * mbarrier.init) and a wait that found phase `parity` complete */
void san_fence(san *S, const san_who *t);
void san_bar_arrive(san *S, const san_who *t, int id);
void san_bar_pass(san *S, const san_who *t, int id);
void san_bar_done(san *S, const san_who *t, int id);
void san_warp_sync(san *S, const san_who *t, int n);
void san_cluster_arrive(san *S, const san_who *t);
void san_cluster_done(san *S, const san_who *t);
void san_cluster_pass(san *S, const san_who *t);
void san_mbar(san *S, const san_who *t, uint32_t slot, uint32_t off, int init, int ph0, int ph1);
void san_mbar_pass(san *S, const san_who *t, uint32_t slot, uint32_t off, int parity);

/* synccheck: lanes of a warp reach an aligned barrier while other non-exited lanes of the warp
 * are elsewhere ("Divergent thread(s) in warp"); lanes of a CTA complete a barrier from
 * different instructions ("Divergent thread(s) in block", other: a thread at the other one) */
void san_divergent_warp(san *S, const san_who *t, uint32_t here, uint32_t away, int away_pc);
void san_divergent_block(san *S, const san_who *t, const san_who *other, int id);
/* sm_6x: lanes of one warp-synchronous operation at two instructions */
void san_wsync_divergent(san *S, const san_who *t, const san_who *other, int sm);
/* a fault of the engine: memcheck (memory), synccheck (barriers, membermasks) findings */
void san_fault(san *S, const san_who *t, const char *what);

/* memcheck: a block of the device heap (exec/heap.c) of n bytes at a, allocated by t (its pc the
 * malloc call), not freed when the launch ended */
void san_leak(san *S, const san_who *t, uint64_t a, uint64_t n);

/* a description of global address a (n bytes): the allocation it is in or nearest to, by name,
 * and how far past its end or before its start ("is 4 bytes after the nearest allocation 'y'
 * at 0x700000000000 of size 400 bytes"); empty when there is no allocation at all */
void san_describe_global(ptxeCtx *ctx, ptxeModule *m, uint64_t a, unsigned n, char *buf,
                         size_t len);

/* findings list of the context (cleared at each launch) */
void san_findings_clear(ptxeCtx *ctx);
#endif
