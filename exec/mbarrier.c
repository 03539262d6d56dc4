/* exec/mbarrier.c — mbarrier objects in shared memory (§9.7.12.15): init, arrive, expect-tx,
 * complete-tx, test_wait/try_wait, and the complete-tx of the asynchronous copies. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "exec/engine.h"
#include "exec/sanitize.h"

/* ---------------------------------------------------------------- mbarrier objects (§9.7.12.15)
 * The 8-byte object in shared memory holds: pending arrivals [0,20), expected arrivals [20,40),
 * tx-count (signed) [40,61), initialised bit 61, phase parity bit 63.  A state token returned by
 * mbarrier.arrive is the phase bit (63) and the pending count after the arrival [0,20). */
typedef struct { uint32_t pend, exp; int32_t tx; int valid, ph; } mbar;
#define MB_MAX ((1u << 20) - 1)
static mbar mb_get(const uint8_t *p)
{
    uint64_t v = ldval(p, 8);
    mbar b = { (uint32_t)(v & MB_MAX), (uint32_t)(v >> 20 & MB_MAX),
               (int32_t)isa_sext(v >> 40 & 0x1fffff, 21), (int)(v >> 61 & 1), (int)(v >> 63) };
    return b;
}
static void mb_put(uint8_t *p, const mbar *b)
{
    uint64_t v = (uint64_t)b->pend | (uint64_t)b->exp << 20 |
                 ((uint64_t)(uint32_t)b->tx & 0x1fffff) << 40 | (uint64_t)b->valid << 61 |
                 (uint64_t)b->ph << 63;
    memcpy(p, &v, 8);
}
/* phase completion: no pending arrivals and no outstanding transactions */
static void mb_progress(mbar *b)
{
    if (b->pend == 0 && b->tx == 0) {
        b->ph ^= 1;
        b->pend = b->exp;
    }
}

/* the CTA of w's cluster whose shared memory holds host address p (NULL: none) */
static const cta *mb_owner(const warp *w, const uint8_t *p)
{
    const cluster *cl = w->cta->clu;
    for (uint32_t i = 0; i < cl->ncta; i++) {
        const cta *o = cl->ctas[i];
        if (o && o->smem && p >= o->smem && p < o->smem + o->ssize) return o;
    }
    return NULL;
}

/* mb_progress, and for racecheck the operation of lane l on the mbarrier at host p: it may
 * arrive (release into the phase), the phase may complete; init: mbarrier.init */
static void mb_step(ex *X, warp *w, int l, const uint8_t *p, mbar *b, int init)
{
    int ph0 = b->ph;
    if (!init) mb_progress(b);
    const cta *o = X->san ? mb_owner(w, p) : NULL;
    if (o) {
        san_who t = who(X, w, l, w->pc);
        san_mbar(X->san, &t, o->slot, (uint32_t)(p - o->smem), init, ph0, b->ph);
    }
}

static const char *const mb_names[] = { "init",           "inval",    "expect_tx",
                                        "complete_tx",    "arrive",   "arrive_drop",
                                        "test_wait",      "try_wait", "pending_count",
                                        "cp.async arrive" };

/* host pointer of the mbarrier at a (space sp) for lane l, checked: shared memory, initialised
 * unless init, in the executing CTA unless the operation may be remote */
static uint8_t *mb_ptr(ex *X, warp *w, int l, int pc, int sp, uint64_t a, int mode, mbar *b)
{
    uint64_t sa = a;
    if (sp == SP_GENERIC) {
        if (a < WIN_SHARED || a >= WIN_SHARED + WIN_SHARED_SIZE) {
            fault(X, w, l, pc, PTXE_ERROR_LAUNCH_FAILED,
                  "mbarrier.%s on address 0x%llx, which is not in shared memory", mb_names[mode],
                  (unsigned long long)a);
            return NULL;
        }
        sa = a - WIN_SHARED;
    }
    uint64_t r = sa >> SHCL_SHIFT;
    if (r && r - 1 != w->cta->rank && mode != MB_ARRIVE && mode != MB_EXPECT_TX &&
        mode != MB_COMPLETE_TX) {
        fault(X, w, l, pc, PTXE_ERROR_LAUNCH_FAILED,
              "mbarrier.%s on the mbarrier of CTA rank %llu at 0x%llx: only arrive, expect_tx and "
              "complete_tx may use another CTA's mbarrier",
              mb_names[mode], (unsigned long long)(r - 1), (unsigned long long)a);
        return NULL;
    }
    uint8_t *p = maddr(X, w, l, pc, sp, a, 8, 1, "mbarrier access");
    if (!p) return NULL;
    *b = mb_get(p);
    if (X->hooks) return p;   /* the state comes from the hooks (mb_hook_read) */
    if (mode != MB_INIT && !b->valid) {
        fault(X, w, l, pc, PTXE_ERROR_LAUNCH_FAILED,
              "mbarrier.%s on an uninitialised mbarrier object at 0x%llx", mb_names[mode],
              (unsigned long long)a);
        return NULL;
    }
    return p;
}

/* A model checker's view (exec_hooks): the object is a location; init and inval write it, the
 * waits read it, the other operations read and write it.  The state read comes from the hook;
 * *hk is the write's kind to report at mb_hook_write (-1: none). */
static int mb_hook_read(ex *X, warp *w, int l, int pc, int mode, uint8_t *p, uint64_t a,
                        uint64_t opnd, mbar *b, exec_hacc *h)
{
    h->kind = -1;
    if (!X->hooks) return 0;
    int sp = 0;
    uint64_t loc = exec_loc(X, w, p, &sp);
    if (!sp) return 0;
    *h = (exec_hacc){ EH_RMW_R, l, sp, 0, 8, loc, opnd, 0 };
    if (mode == MB_INIT || mode == MB_INVAL) { h->kind = EH_STORE; return 0; }
    if (mode == MB_TEST_WAIT || mode == MB_TRY_WAIT) h->kind = EH_LOAD;
    uint64_t v = ldval(p, 8);
    if (exec_hook_access(X, w, h, p, &v)) return -1;
    h->kind = h->kind == EH_LOAD ? -1 : EH_RMW_W;
    uint8_t bytes[8];
    memcpy(bytes, &v, 8);
    *b = mb_get(bytes);
    if (!b->valid) {
        fault(X, w, l, pc, PTXE_ERROR_LAUNCH_FAILED,
              "mbarrier.%s on an uninitialised mbarrier object at 0x%llx", mb_names[mode],
              (unsigned long long)a);
        return -1;
    }
    return 0;
}

static int mb_hook_write(ex *X, warp *w, exec_hacc *h, uint8_t *p, const mbar *b)
{
    if (h->kind < 0) return 0;
    uint8_t bytes[8];
    mb_put(bytes, b);
    uint64_t v = ldval(bytes, 8);
    return exec_hook_access(X, w, h, p, &v);
}

int exec_mbar_done(uint64_t state, uint64_t opnd, int parity)
{
    uint8_t bytes[8];
    memcpy(bytes, &state, 8);
    mbar b = mb_get(bytes);
    int want = parity ? (int)(opnd & 1) : (int)(opnd >> 63);
    return want != b.ph;
}

static int mb_tx(ex *X, warp *w, int l, int pc, mbar *b, int64_t delta, uint64_t a)
{
    int64_t t = (int64_t)b->tx + delta;
    if (t > (int64_t)MB_MAX || t < -(int64_t)MB_MAX) {
        fault(X, w, l, pc, PTXE_ERROR_LAUNCH_FAILED,
              "mbarrier tx-count %lld at 0x%llx is outside -(2^20-1)..2^20-1", (long long)t,
              (unsigned long long)a);
        return -1;
    }
    b->tx = (int32_t)t;
    return 0;
}

static int mb_arrive(ex *X, warp *w, int l, int pc, mbar *b, uint64_t cnt, uint64_t a)
{
    if (cnt > b->pend) {
        fault(X, w, l, pc, PTXE_ERROR_LAUNCH_FAILED,
              "mbarrier arrive-on with count %llu at 0x%llx exceeds the pending arrival count %u",
              (unsigned long long)cnt, (unsigned long long)a, b->pend);
        return -1;
    }
    b->pend -= (uint32_t)cnt;
    return 0;
}

static int run_mbar(ex *X, warp *w, frame *f, const xinsn *in, uint32_t E)
{
    for (uint32_t m = E; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        uint64_t v1 = opv(X, w, f, &in->s[1], l);
        if (in->mode == MB_PENDING_COUNT) { wr(f, &in->d[0], l, v1 & MB_MAX); continue; }
        uint64_t a = opv(X, w, f, &in->s[0], l) + (uint64_t)in->aoff;
        mbar b;
        exec_hacc h;
        uint8_t *p = mb_ptr(X, w, l, w->pc, in->space, a, in->mode, &b);
        if (!p || mb_hook_read(X, w, l, w->pc, in->mode, p, a, v1, &b, &h)) return -1;
        switch (in->mode) {
        case MB_INIT:
            if (v1 == 0 || v1 > MB_MAX) {
                fault(X, w, l, w->pc, PTXE_ERROR_LAUNCH_FAILED,
                      "mbarrier.init count %llu outside 1..2^20-1", (unsigned long long)v1);
                return -1;
            }
            b = (mbar){ (uint32_t)v1, (uint32_t)v1, 0, 1, 0 };
            mb_step(X, w, l, p, &b, 1);
            break;
        case MB_INVAL: memset(&b, 0, sizeof b); break;
        case MB_EXPECT_TX:
            if (mb_tx(X, w, l, w->pc, &b, (int64_t)(uint32_t)v1, a)) return -1;
            break;
        case MB_COMPLETE_TX:
            if (mb_tx(X, w, l, w->pc, &b, -(int64_t)(uint32_t)v1, a)) return -1;
            mb_step(X, w, l, p, &b, 0);
            break;
        case MB_ARRIVE: case MB_ARRIVE_DROP: case MB_CP_ARRIVE: {
            uint64_t cnt =
                (in->flags & XF_EXPECT_TX) || in->mode == MB_CP_ARRIVE ? 1 : (uint32_t)v1;
            if ((in->flags & XF_EXPECT_TX) && mb_tx(X, w, l, w->pc, &b, (int64_t)(uint32_t)v1, a))
                return -1;
            if (in->mode == MB_CP_ARRIVE && !(in->flags & XF_NOINC))
                break; /* +1 then the copies' arrive-on: no change */
            if (in->mode == MB_ARRIVE_DROP) {
                if (cnt > b.exp) {
                    fault(X, w, l, w->pc, PTXE_ERROR_LAUNCH_FAILED,
                          "mbarrier.arrive_drop with count %llu exceeds the expected count %u",
                          (unsigned long long)cnt, b.exp);
                    return -1;
                }
                b.exp -= (uint32_t)cnt;
            }
            int ph = b.ph;
            if (mb_arrive(X, w, l, w->pc, &b, cnt, a)) return -1;
            uint32_t pend = b.pend;
            if ((in->flags & XF_NOCOMPLETE) && b.pend == 0 && b.tx == 0) {
                fault(X, w, l, w->pc, PTXE_ERROR_LAUNCH_FAILED,
                      "mbarrier.arrive.noComplete at 0x%llx completes the phase",
                      (unsigned long long)a);
                return -1;
            }
            mb_step(X, w, l, p, &b, 0);
            if (in->nd) wr(f, &in->d[0], l, (uint64_t)ph << 63 | pend);
            break;
        }
        default: { /* test_wait / try_wait: the phase named by the state token or the parity
                      completed */
            int want = in->flags & XF_PARITY ? (int)(v1 & 1) : (int)(v1 >> 63);
            int done = want != b.ph;
            wr(f, &in->d[0], l, (uint64_t)done);
            if (!done) {   /* let the other warps, and the warp's other groups, make progress */
                X->yield = 1;
                w->spin |= 1u << l;
                w->dirty = 1;
            }
            /* racecheck: a completed phase orders the arrivals (and their copies) before */
            const cta *o = done && X->san ? mb_owner(w, p) : NULL;
            if (o) {
                san_who t = who(X, w, l, w->pc);
                san_mbar_pass(X->san, &t, o->slot, (uint32_t)(p - o->smem), want);
            }
            continue;
        }
        }
        if (mb_hook_write(X, w, &h, p, &b)) return -1;
        mb_put(p, &b);
    }
    return 0;
}

/* complete-tx of `bytes` on the mbarrier at a (space sp), as the asynchronous copies and stores
 * do on completion (§9.7.12.15.2: the tx-count decreases, the phase may complete) */
int mb_complete_tx(ex *X, warp *w, int l, int pc, int sp, uint64_t a, uint64_t bytes)
{
    mbar b;
    exec_hacc h;
    uint8_t *p = mb_ptr(X, w, l, pc, sp, a, MB_COMPLETE_TX, &b);
    if (!p || mb_hook_read(X, w, l, pc, MB_COMPLETE_TX, p, a, bytes, &b, &h) ||
        mb_tx(X, w, l, pc, &b, -(int64_t)bytes, a))
        return -1;
    mb_step(X, w, l, p, &b, 0);
    if (mb_hook_write(X, w, &h, p, &b)) return -1;
    mb_put(p, &b);
    return 0;
}

int h_mbar(ex *X, warp *w, const xinsn *in, frame *f, uint32_t G, uint32_t E)
{
    if (run_mbar(X, w, f, in, E)) return -1;
    advance(w, w->pc + 1);
    return 0;
}

