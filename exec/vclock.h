/* exec/vclock.h — vector clocks for racecheck (exec/race.c): what a thread knows of the other
 * threads' clocks.  Thread g of a launch is entry g % nt of the block of CTA g / nt; a clock
 * holds one block per CTA it knows anything of (none: all zero), sorted by CTA, and blocks are
 * shared between clocks (copy on write), so the threads of a CTA that just passed a barrier
 * hold one block between them, and storing a thread's clock at a release costs no copy.
 * Every function that may allocate returns 0, or -1 when the host is out of memory (the clock
 * is then unchanged or smaller, never larger). */
#ifndef PTX_EXEC_VCLOCK_H
#define PTX_EXEC_VCLOCK_H
#include <stdint.h>

typedef struct vc_blk vc_blk;
typedef struct {
    vc_blk **b;
    uint32_t n, cap;
} vclock;

/* entry g (threads per CTA nt) */
uint32_t vc_get(const vclock *v, uint32_t nt, uint64_t g);
/* v[g] = max(v[g], clk) */
int vc_raise(vclock *v, uint32_t nt, uint64_t g, uint32_t clk);
/* dst = max(dst, src) entry by entry */
int vc_join(vclock *dst, const vclock *src, uint32_t nt);
/* dst = src (sharing its blocks) */
int vc_share(vclock *dst, const vclock *src);
void vc_clear(vclock *v);
#endif
