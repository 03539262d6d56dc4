/* exec/warp.c — the groups of a warp: each lane has its own PC and call depth; the group that
 * runs is chosen among the runnable lanes (resched, through the policy's pick_group: the rules
 * are exec/sched.c's), continues (advance, engine.h), splits at a divergent branch (split),
 * yields (yield_point, engine.h) or waits for the rest of the warp (wsync_wait). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "exec/engine.h"

/* lanes waiting at warp-synchronous instructions that now form a complete rendezvous: one
 * class of equal kind/qualifiers and membermask holding every non-exited lane of the mask */
static uint32_t rdv_complete(const warp *w)
{
    for (uint32_t m = w->wrdv; m; ) {
        int l = __builtin_ctz(m);
        uint32_t c = 0;
        for (uint32_t k = m; k; k &= k - 1) {
            int j = __builtin_ctz(k);
            if (w->wsig[j] == w->wsig[l] && w->wmem[j] == w->wmem[l]) c |= 1u << j;
        }
        if (!(w->wmem[l] & w->live & ~c)) return c;
        m &= ~c;
    }
    return 0;
}

void resched(warp *w)
{
    if (w->rdv) {
        w->wsync |= w->active;
        w->wrdv |= w->active;
    } /* not run yet: back to waiting, own PCs */
    else
        for (uint32_t m = w->active; m; m &= m - 1) {
            int l = __builtin_ctz(m);
            w->lpc[l] = w->pc;
            w->ldep[l] = (uint16_t)w->depth;
        }
    w->active = 0; w->forced = 0; w->rdv = 0;
    if (w->wrdv) {
        uint32_t c = rdv_complete(w);
        if (c) {   /* run it now (run_warp: the instruction's case sees w->rdv) */
            w->wsync &= ~c; w->wrdv &= ~c;
            w->active = c; w->rdv = 1; w->others = 0;
            int l0 = __builtin_ctz(c);
            w->pc = w->lpc[l0]; w->depth = w->ldep[l0];
            return;
        }
    }
    /* runnable lanes; `ready` leaves out the lanes that yielded (independent thread
     * scheduling) or whose mbarrier wait just failed (lockstep), unless no other lane is */
    const sched_policy *p = w->pol;
    uint32_t R = w->live & ~w->barw & ~w->wsync & ~w->clw & ~w->hold, ready;
    if (p->its) {
        w->yld = (w->yld | w->spin) & R;
        ready = R & ~w->yld;
        if (!ready) { w->yld = 0; ready = R; }   /* every runnable lane yielded: a new turn */
    } else
        ready = R & ~w->spin ? R & ~w->spin : R;
    w->spin = 0;
    /* nothing else runnable: a barrier-style wait (aligned bar.sync / barrier.cluster reached by
     * part of the warp, deprecated vote/shfl) goes ahead partially; lanes at an incomplete
     * rendezvous never do */
    uint32_t pool = ready ? ready : w->wsync & ~w->wrdv;
    if (!pool) { w->others = 0; return; }
    uint32_t g = p->pick_group(p, w, pool, R);
    /* with the lanes waiting at that (depth, PC) for the rest of the warp */
    uint64_t key = lane_key(w, __builtin_ctz(g));
    for (uint32_t m = w->wsync; m; m &= m - 1)
        if (lane_key(w, __builtin_ctz(m)) == key) g |= 1u << __builtin_ctz(m);
    if (!R) w->forced = 1;
    w->wsync &= ~g; w->wrdv &= ~g; w->yld &= ~g;
    /* the spin count restarts when every lane left waiting has run (or stopped being runnable):
     * a loop whose body diverges and meets again still counts */
    w->unran &= R & ~g;
    if (!w->unran) { w->spins = 0; w->unran = R & ~g; }
    w->active = g;
    int l0 = __builtin_ctz(g);
    w->pc = w->lpc[l0]; w->depth = w->ldep[l0];
    /* the group continues until it reaches the (depth, PC) of another runnable group */
    w->others = (p->its ? R : ready) & ~g;
    w->others_key = ~0ull;
    for (uint32_t m = w->others; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        uint64_t k = lane_key(w, l);
        if (k < w->others_key) w->others_key = k;
    }
}

/* split the group: lanes in t go to pc_t, the rest of the group to pc_f */
void split(warp *w, uint32_t t, int pc_t, int pc_f)
{
    for (uint32_t m = w->active; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        w->lpc[l] = (t >> l & 1) ? pc_t : pc_f; w->ldep[l] = (uint16_t)w->depth;
    }
    w->active = 0;
    resched(w);
}

/* warp-synchronous op: do all live lanes of membermask take part?  If not, wait for them. */
int wsync_wait(warp *w, uint32_t mask)
{
    uint32_t missing = mask & w->live & ~w->active;
    if (!missing || w->forced) return 0;
    w->wsync |= w->active;
    for (uint32_t m = w->active; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        w->lpc[l] = w->pc;
        w->ldep[l] = (uint16_t)w->depth;
    }
    w->active = 0;
    resched(w);
    return 1;
}

