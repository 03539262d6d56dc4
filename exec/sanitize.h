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

/* a thread: coordinates, linear CTA index, linear thread index in the CTA, the CTA's slot (`rank`:
 * the index of the CTA storage it runs in among the resident CTAs, 0 .. nslots - 1, reused by a
 * later CTA after san_cta_start), warp, lane, and the instruction it executes */
typedef struct {
    unsigned t[3], c[3];
    uint64_t cta;
    uint32_t tid, rank;
    int wid, lane, pc;
} san_who;

/* kinds of access for racecheck: read, write, both (atomics); strong: relaxed / acquire /
 * release / volatile / atomic with this scope (PTX_SCOPE_*; 0: weak) — two strong accesses of
 * sufficient scope are morally strong and never a data race (ISA §8.7.1) */
enum { SA_READ = 1, SA_WRITE = 2 };

san *san_begin(ptxeCtx *ctx, ptxeModule *m, const char *kernel, const unsigned grid[3],
               const unsigned block[3], uint32_t ssize, uint32_t nslots);
void san_end(san *S);
unsigned san_checks(const san *S);
/* a CTA starts in slot `rank`: its shared memory is unwritten, its epoch new */
void san_cta_start(san *S, uint32_t rank);

/* accesses that succeeded: global (allocation g) or shared (CTA slot, offset) */
void san_global(san *S, const san_who *t, galloc *g, uint64_t a, unsigned n, int acc,
                int strong);
void san_shared(san *S, const san_who *t, uint32_t rank, uint32_t off, unsigned n, int acc,
                int strong);

/* synchronization: a CTA barrier completed in the CTA of slot `rank`; a fence / release-acquire
 * operation of scope `scope` by a thread of that CTA; a warp-synchronous instruction of warp wid */
void san_bar_done(san *S, uint32_t rank);
void san_fence(san *S, uint32_t rank, int scope);
void san_warp_sync(san *S, uint32_t rank, int wid);

/* synccheck: lanes of a warp reach an aligned barrier while other non-exited lanes of the warp
 * are elsewhere ("Divergent thread(s) in warp"); lanes of a CTA complete a barrier from
 * different instructions ("Divergent thread(s) in block", other: a thread at the other one) */
void san_divergent_warp(san *S, const san_who *t, uint32_t here, uint32_t away, int away_pc);
void san_divergent_block(san *S, const san_who *t, const san_who *other, int id);
/* sm_6x: lanes of one warp-synchronous operation at two instructions */
void san_wsync_divergent(san *S, const san_who *t, const san_who *other, int sm);
/* a fault of the engine: memcheck (memory), synccheck (barriers, membermasks) findings */
void san_fault(san *S, const san_who *t, const char *what);

/* a description of global address a (n bytes): the allocation it is in or nearest to, by name,
 * and how far past its end or before its start ("is 4 bytes after the nearest allocation 'y'
 * at 0x700000000000 of size 400 bytes"); empty when there is no allocation at all */
void san_describe_global(ptxeCtx *ctx, ptxeModule *m, uint64_t a, unsigned n, char *buf,
                         size_t len);

/* findings list of the context (cleared at each launch) */
void san_findings_clear(ptxeCtx *ctx);
#endif
