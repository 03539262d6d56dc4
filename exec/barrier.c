/* exec/barrier.c — CTA barriers (bar/barrier, §9.7.12.1), cluster barriers (barrier.cluster,
 * §9.7.12.3) and the exit of threads, which the barriers stop waiting for. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "exec/engine.h"
#include "exec/sanitize.h"

/* ---------------------------------------------------------------- barriers */
static void bar_release_check(ex *X, cta *c, int id)
{
    barrier *b = &c->bar[id];
    if (!b->used) return;
    uint32_t need = b->count_given ? b->expected : c->nthreads - c->nexited;
    if (b->arrived < need) return;
    for (int i = 0; i < c->nwarps; i++) {
        warp *w = &c->warps[i];
        uint32_t m = b->wmask[i];
        if (!m) continue;
        if (b->mode != BAR_SYNC && b->mode != BAR_ARRIVE)
            for (uint32_t k = m; k; k &= k - 1) {
                int l = __builtin_ctz(k);
                const xinsn *in = &X->prog[w->lpc[l] - 1];
                uint64_t v = b->mode == BAR_RED_POPC  ? b->red
                             : b->mode == BAR_RED_AND ? (b->red == b->arrived)
                                                      : (b->red != 0);
                wr(&w->fr[w->ldep[l]], &in->d[0], l, v);
            }
        for (uint32_t k = X->san ? m : 0; k; k &= k - 1) {   /* racecheck: waiters acquire */
            san_who t = who(X, w, __builtin_ctz(k), w->lpc[__builtin_ctz(k)] - 1);
            san_bar_pass(X->san, &t, id);
        }
        w->barw &= ~m;
        b->wmask[i] = 0;
        w->dirty = 1;
    }
    b->arrived = 0; b->red = 0; b->used = 0; b->count_given = 0;
    b->gen++;
    if (X->san && c->nwarps) {
        san_who t = who(X, &c->warps[0], -1, -1);
        san_bar_done(X->san, &t, id);
    }
}

/* barrier.cluster (§9.7.12.3): the phase completes when every non-exited thread of the cluster
 * has arrived; waiting threads are released and arrived threads may pass their next wait */
static void clbar_check(ex *X, cluster *cl)
{
    if (!cl->arrived || cl->arrived < cl->live) return;
    if (X->san && cl->ctas[0]->nwarps) {   /* racecheck: the phase's arrivals, complete */
        san_who t = who(X, &cl->ctas[0]->warps[0], -1, -1);
        san_cluster_done(X->san, &t);
    }
    for (uint32_t i = 0; i < cl->ncta; i++)
        for (int j = 0; j < cl->ctas[i]->nwarps; j++) {
            warp *w = &cl->ctas[i]->warps[j];
            w->clok |= w->clarr & ~w->clw;
            w->clarr = 0;
            for (uint32_t m = X->san ? w->clw : 0; m; m &= m - 1) {   /* waiters acquire */
                san_who t = who(X, w, __builtin_ctz(m), w->lpc[__builtin_ctz(m)] - 1);
                san_cluster_pass(X->san, &t);
            }
            if (w->clw) { w->clw = 0; w->dirty = 1; }
        }
    cl->arrived = 0;
    cl->gen++;
}

void lanes_exit(ex *X, warp *w, uint32_t m)
{
    m &= w->live;
    w->live &= ~m;
    w->active &= ~m;
    cta *c = w->cta;
    c->nexited += (uint32_t)__builtin_popcount(m);
    for (int id = 0; id < 16; id++) bar_release_check(X, c, id);
    if (X->san && m && c->nexited == c->nthreads) san_cta_end(X->san, c->ctaid);
    c->clu->live -= (uint32_t)__builtin_popcount(m);
    c->clu->arrived -= (uint32_t)__builtin_popcount(m & w->clarr);
    w->clarr &= ~m; w->clok &= ~m;
    clbar_check(X, c->clu);
}

/* synccheck: lanes E of the warp reach an aligned barrier while other non-exited lanes are
 * elsewhere: the barrier waits for those (a loop laid out barrier-first brings them here);
 * lanes on their way out (at an exit, or a ret of the kernel) are not waited for.  If the
 * awaited lanes exit instead of arriving, h_bar reports the barrier divergent. */
static uint32_t sync_away(ex *X, warp *w, uint32_t E)
{
    uint32_t away = 0;
    for (uint32_t m = w->live & ~E; m; m &= m - 1) {
        int l = __builtin_ctz(m), pc = w->lpc[l];
        if ((w->barw >> l & 1) && pc > 0) pc--;   /* waiting at a barrier: lpc is past it */
        const xinsn *o = pc >= 0 && pc < X->m->nprog ? &X->prog[pc] : NULL;
        if (o && (o->kind == PTX_K_EXIT || (o->kind == PTX_K_RET && w->ldep[l] == 0))) continue;
        away |= 1u << l;
    }
    return away;
}

/* bar/barrier (§9.7.12.1): arrival of the group's lanes at barrier `id`; bar.sync/bar.red
 * (.aligned) need the whole warp there */
int h_bar(ex *X, warp *w, const xinsn *in, frame *f, uint32_t G, uint32_t E)
{
    if (!E) { advance(w, w->pc + 1); return 0; }
    int l0 = __builtin_ctz(E);
    uint64_t id = opv(X, w, f, &in->s[0], l0);
    if (id > 15) {
        fault(X, w, l0, w->pc, PTXE_ERROR_LAUNCH_FAILED, "barrier id %llu out of range 0..15",
              (unsigned long long)id);
        return -1;
    }
    cta *c = w->cta;
    barrier *b = &c->bar[id];
    if (X->san && (in->flags & XF_ALIGNED) && in->mode != BAR_ARRIVE) {
        if (E != w->live && E == G) w->sc_away |= sync_away(X, w, E);
        else if (E == w->live && (w->sc_away & ~w->live)) {   /* they exited instead */
            san_who t = who(X, w, l0, w->pc);
            san_divergent_warp(X->san, &t, E, w->sc_away & ~w->live, -1);
        }
        if (E == w->live) w->sc_away = 0;
    }
    if ((in->flags & XF_ALIGNED) && E != w->live && in->mode != BAR_ARRIVE) {
        /* lanes of this warp still on their way (e.g. a loop laid out with the barrier before the
         * body): wait for them to reach this barrier too */
        if (E == G && wsync_wait(w, w->live)) return 0;
        fault(X, w, l0, w->pc, PTXE_ERROR_LAUNCH_FAILED,
              "barrier divergence: lanes 0x%08x reach this bar.sync %llu while lanes 0x%08x of the "
              "warp are elsewhere",
              E, (unsigned long long)id, w->live & ~E);
        return -1;
    }
    if (in->s[1].kind != XO_NONE) {
        uint64_t cnt = opv(X, w, f, &in->s[1], l0);
        if (cnt == 0 || cnt % 32 || cnt > c->nthreads + 31) {
            fault(X, w, l0, w->pc, PTXE_ERROR_LAUNCH_FAILED,
                  "barrier thread count %llu is not a positive multiple of 32 up to the CTA size",
                  (unsigned long long)cnt);
            return -1;
        }
        if (b->used && b->count_given && b->expected != cnt) {
            fault(X, w, l0, w->pc, PTXE_ERROR_LAUNCH_FAILED,
                  "barrier %llu used with thread counts %u and %llu", (unsigned long long)id,
                  b->expected, (unsigned long long)cnt);
            return -1;
        }
        b->count_given = 1; b->expected = (uint32_t)cnt;
    }
    if (!b->used) {
        b->used = 1; b->mode = in->mode; b->red = 0;
        b->fpc = w->pc; b->fwid = w->wid; b->flane = l0;
    } else if (X->san && b->fpc != w->pc && b->fpc >= 0 && in->mode == BAR_SYNC &&
               in->s[1].kind == XO_NONE && X->prog[b->fpc].s[1].kind == XO_NONE &&
               X->prog[b->fpc].mode == BAR_SYNC) {
        /* bar.sync of the whole CTA reached from two instructions: divergent in the block */
        san_who t = who(X, w, l0, w->pc), o = who(X, &c->warps[b->fwid], b->flane, b->fpc);
        san_divergent_block(X->san, &t, &o, (int)id);
    }
    b->arrived += (uint32_t)__builtin_popcount(E);
    for (uint32_t m = X->hooks ? E : 0; m; m &= m - 1)
        if (X->hooks->barrier(X->hooks->ctx, X, w, __builtin_ctz(m), w->pc, (int)id, b->gen))
            return -1;
    for (uint32_t m = X->san ? E : 0; m; m &= m - 1) {   /* racecheck: arrivals release */
        san_who t = who(X, w, __builtin_ctz(m), w->pc);
        san_bar_arrive(X->san, &t, (int)id);
    }
    if (in->mode >= BAR_RED_POPC) {
        b->mode = in->mode;
        for (uint32_t m = E; m; m &= m - 1)
            b->red += (uint32_t)(opv(X, w, f, &in->s[2], __builtin_ctz(m)) & 1);
    }
    for (uint32_t m = G; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        w->lpc[l] = w->pc + 1;
        w->ldep[l] = (uint16_t)w->depth;
    }
    if (in->mode != BAR_ARRIVE) { w->barw |= E; b->wmask[w->wid] |= E; }
    w->active = 0;
    bar_release_check(X, c, (int)id);
    resched(w);
    return 0;
}

/* barrier.cluster.arrive / .wait (§9.7.12.3) */
int h_barcluster(ex *X, warp *w, const xinsn *in, frame *f, uint32_t G, uint32_t E)
{
    if (!E) { advance(w, w->pc + 1); return 0; }
    if (E != w->live) {   /* the instruction waits for the warp's other non-exited threads */
        if (E == G && wsync_wait(w, w->live)) return 0;
        if (in->flags & XF_ALIGNED) {
            fault(X, w, __builtin_ctz(E), w->pc, PTXE_ERROR_LAUNCH_FAILED,
                  "barrier divergence: lanes 0x%08x reach this aligned barrier.cluster while lanes "
                  "0x%08x of the warp are elsewhere",
                  E, w->live & ~E);
            return -1;
        }
    }
    if (in->mode == BAR_ARRIVE) {
        if (w->clarr & E) {
            fault(X, w, __builtin_ctz(w->clarr & E), w->pc, PTXE_ERROR_LAUNCH_FAILED,
                  "barrier.cluster.arrive by a thread that already arrived in this phase");
            return -1;
        }
        for (uint32_t m = X->hooks ? E : 0; m; m &= m - 1)
            if (X->hooks->barrier(X->hooks->ctx, X, w, __builtin_ctz(m), w->pc, -1,
                                  w->cta->clu->gen))
                return -1;
        w->clarr |= E; w->clok &= ~E;
        w->cta->clu->arrived += (uint32_t)__builtin_popcount(E);
        for (uint32_t m = X->san ? E : 0; m; m &= m - 1) {   /* racecheck: arrivals release */
            san_who t = who(X, w, __builtin_ctz(m), w->pc);
            san_cluster_arrive(X->san, &t);
        }
        advance(w, w->pc + 1);
        clbar_check(X, w->cta->clu);
        return 0;
    }
    uint32_t none = E & ~w->clarr & ~w->clok, pend = E & w->clarr;
    if (none) {
        fault(X, w, __builtin_ctz(none), w->pc, PTXE_ERROR_LAUNCH_FAILED,
              "barrier.cluster.wait without a preceding barrier.cluster.arrive");
        return -1;
    }
    for (uint32_t m = X->hooks ? E : 0; m; m &= m - 1) {   /* the phase of its arrival */
        int l = __builtin_ctz(m);
        uint32_t gen = w->cta->clu->gen - ((pend >> l & 1) ? 0 : 1);
        if (X->hooks->barrier(X->hooks->ctx, X, w, l, w->pc, -2, gen)) return -1;
    }
    w->clok &= ~E;
    for (uint32_t m = X->san ? E & ~pend : 0; m; m &= m - 1) {   /* phase complete: acquire */
        san_who t = who(X, w, __builtin_ctz(m), w->pc);
        san_cluster_pass(X->san, &t);
    }
    if (!pend) { advance(w, w->pc + 1); return 0; }
    for (uint32_t m = G; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        w->lpc[l] = w->pc + 1;
        w->ldep[l] = (uint16_t)w->depth;
    }
    w->clw |= pend;
    w->active = 0;
    resched(w);
    return 0;
}

