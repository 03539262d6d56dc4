/* exec/wsync.c — warp-synchronous instructions: shfl.sync, vote.sync, match.sync, redux.sync,
 * elect.sync, bar.warp.sync (§9.7.8.6, §9.7.12.7-12) and their rendezvous; activemask. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "exec/engine.h"
#include "exec/sanitize.h"

/* ---------------------------------------------------------------- warp-synchronous instructions
 * shfl.sync, vote.sync, match.sync, redux.sync (§9.7.8.6, §9.7.12.8-11), elect.sync (§9.7.12.12),
 * bar.warp.sync (§9.7.12.7): a lane waits until every non-exited lane of its membermask has
 * executed an instruction of the same kind and qualifiers with the same membermask — on sm_70+
 * not necessarily the same instruction (e.g. the two sides of a divergent branch).  Then they
 * execute together, each lane with the operands of its own instruction. */
static inline uint32_t wsig_of(const xinsn *in)
{
    return (uint32_t)in->kind | (uint32_t)in->mode << 8 | (uint32_t)(in->type & 0xff) << 16 |
           (uint32_t)(in->flags >> 8 & 7) << 24;
}
static inline int wsync_mask_idx(const xinsn *in)
{
    return in->kind == PTX_K_SHFL                                 ? 3
           : in->kind == PTX_K_ELECT || in->kind == PTX_K_BARWARP ? 0
                                                                  : 1;
}

/* Lanes S execute a warp-synchronous instruction together: lane l runs I[l] in frame Fr[l] (all
 * of one kind and qualifiers; I == NULL, the converged case: every lane runs `in` in f0); `in` in
 * f0 also gives the (undefined: stale) shfl source of lanes outside S.  One function per kind. */
typedef struct {
    ex *X; warp *w; uint32_t S;
    const xinsn **I; frame **Fr;
    const xinsn *in; frame *f0;
} wsx;
static inline const xinsn *ws_in(const wsx *c, int l) { return c->I ? c->I[l] : c->in; }
static inline frame *ws_fr(const wsx *c, int l) { return c->I ? c->Fr[l] : c->f0; }
/* source k / destination k of lane l's own instruction */
static inline uint64_t ws_src(const wsx *c, int l, int k)
{
    return opv(c->X, c->w, ws_fr(c, l), &ws_in(c, l)->s[k], l);
}
static inline void ws_dst(const wsx *c, int l, int k, uint64_t v)
{
    wr(ws_fr(c, l), &ws_in(c, l)->d[k], l, v);
}
/* every lane of S gets v in its first destination */
static inline void ws_all(const wsx *c, uint64_t v)
{
    for (uint32_t m = c->S; m; m &= m - 1) ws_dst(c, __builtin_ctz(m), 0, v);
}

/* shfl.sync (§9.7.8.6): d = a of lane j (up, down, bfly, idx with clamp and segment mask),
 * p = j in range */
static void ws_shfl(const wsx *c)
{
    ex *X = c->X;
    warp *w = c->w;
    uint32_t S = c->S;
    uint64_t A[32], D[32], Pv[32];
    for (int l = 0; l < 32; l++)
        A[l] = (S >> l & 1)        ? ws_src(c, l, 0)
               : (w->all >> l & 1) ? opv(X, w, c->f0, &c->in->s[0], l)
                                   : 0;
    for (uint32_t m = S; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        int bval = (int)(ws_src(c, l, 1) & 31);
        uint32_t cv = (uint32_t)ws_src(c, l, 2);
        int cval = (int)(cv & 31), seg = (int)((cv >> 8) & 31);
        int maxl = (l & seg) | (cval & ~seg), minl = l & seg, j, pv;
        switch (c->in->mode) {
        case 0: j = l - bval; pv = j >= maxl; break;
        case 1: j = l + bval; pv = j <= maxl; break;
        case 2: j = l ^ bval; pv = j <= maxl; break;
        default: j = minl | (bval & ~seg); pv = j <= maxl; break;
        }
        if (!pv) j = l;
        D[l] = A[j & 31]; Pv[l] = (uint64_t)pv;
    }
    for (uint32_t m = S; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        ws_dst(c, l, 0, D[l]);
        if (ws_in(c, l)->nd > 1) ws_dst(c, l, 1, Pv[l]);
    }
}

/* vote.sync (§9.7.12.9): all, any, uni, ballot of p */
static void ws_vote(const wsx *c)
{
    uint32_t S = c->S, ballot = 0;
    for (uint32_t m = S; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        ballot |= (uint32_t)(ws_src(c, l, 0) & 1) << l;
    }
    int mode = c->in->mode;
    ws_all(c, mode == VOTE_ALL ? ballot == S : mode == VOTE_ANY ? ballot != 0
              : mode == VOTE_UNI ? (ballot == 0 || ballot == S) : ballot);
}

/* match.sync (§9.7.12.10): .any: the lanes with my value; .all: all lanes if all are equal */
static void ws_match(const wsx *c)
{
    uint32_t S = c->S;
    uint64_t V[32];
    for (uint32_t m = S; m; m &= m - 1) { int l = __builtin_ctz(m); V[l] = ws_src(c, l, 0); }
    int alleq = 1;
    for (uint32_t m = S; m; m &= m - 1) if (V[__builtin_ctz(m)] != V[__builtin_ctz(S)]) alleq = 0;
    for (uint32_t m = S; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        uint32_t r = 0;
        if (c->in->mode) r = alleq ? S : 0;
        else
            for (uint32_t k = S; k; k &= k - 1)
                if (V[__builtin_ctz(k)] == V[l]) r |= 1u << __builtin_ctz(k);
        ws_dst(c, l, 0, r);
        if (ws_in(c, l)->nd > 1) ws_dst(c, l, 1, (uint64_t)alleq);
    }
}

/* redux.sync.min/max{.abs}{.NaN}.f32: NaN inputs are skipped unless .NaN (then the result is
 * the canonical NaN); -0.0 < +0.0 */
static void ws_redux_f32(const wsx *c)
{
    uint32_t acc = 0, flags = c->in->flags;
    int have = 0, nan = 0;
    for (uint32_t m = c->S; m; m &= m - 1) {
        uint32_t v = (uint32_t)ws_src(c, __builtin_ctz(m), 0);
        if (flags & XF_ABS) v &= 0x7fffffffu;
        if ((v & 0x7fffffffu) > 0x7f800000u) { nan = 1; continue; }
        /* total order key of a non-NaN float */
        uint32_t kv = v >> 31 ? ~v : v | 0x80000000u, ka = acc >> 31 ? ~acc : acc | 0x80000000u;
        if (!have || (c->in->mode == 1 ? kv < ka : kv > ka)) acc = v;
        have = 1;
    }
    if (!have || (nan && (flags & XF_NAN))) acc = 0x7fffffffu;
    ws_all(c, acc);
}

/* redux.sync (§9.7.12.12) on .u32/.s32/.b32: add, min, max, and, or, xor */
static void ws_redux(const wsx *c)
{
    int sgn = c->in->type == ISA_T_S32, firstv = 1;
    uint64_t acc = 0;
    for (uint32_t m = c->S; m; m &= m - 1) {
        uint32_t v = (uint32_t)ws_src(c, __builtin_ctz(m), 0);
        if (firstv) { acc = v; firstv = 0; continue; }
        switch (c->in->mode) {
        case 0: acc = (uint32_t)(acc + v); break;
        case 1: acc = sgn ? ((int32_t)v < (int32_t)acc ? v : acc) : (v < acc ? v : acc); break;
        case 2: acc = sgn ? ((int32_t)v > (int32_t)acc ? v : acc) : (v > acc ? v : acc); break;
        case 3: acc &= v; break;
        case 4: acc |= v; break;
        default: acc ^= v; break;
        }
    }
    ws_all(c, acc);
}

/* elect.sync (§9.7.12.14): the lowest lane leads */
static void ws_elect(const wsx *c)
{
    int leader = __builtin_ctz(c->S);
    for (uint32_t m = c->S; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        ws_dst(c, l, 0, (uint64_t)leader);
        ws_dst(c, l, 1, (uint64_t)(l == leader));
    }
}

static void wsync_exec(ex *X, warp *w, uint32_t S, const xinsn **I, frame **Fr, const xinsn *in,
                       frame *f0)
{
    const wsx c = { X, w, S, I, Fr, in, f0 };
    if (X->san && I && X->sm_target && X->sm_target < 70) {   /* sm_6x: one instruction */
        int l0 = __builtin_ctz(S);
        for (uint32_t m = S; m; m &= m - 1) {
            int l = __builtin_ctz(m);
            if (I[l] != I[l0]) {
                san_who t = who(X, w, l0, (int)(I[l0] - X->prog)),
                        o = who(X, w, l, (int)(I[l] - X->prog));
                san_wsync_divergent(X->san, &t, &o, X->sm_target);
                break;
            }
        }
    }
    switch (in->kind) {
    case PTX_K_SHFL: ws_shfl(&c); break;
    case PTX_K_VOTE: ws_vote(&c); break;
    case PTX_K_MATCH: ws_match(&c); break;
    case PTX_K_REDUX: if (in->flags & XF_FLOAT) ws_redux_f32(&c); else ws_redux(&c); break;
    case PTX_K_ELECT: ws_elect(&c); break;
    default: break;   /* bar.warp.sync: the rendezvous is all */
    }
    if (X->san && in->kind == PTX_K_BARWARP) {   /* it orders memory (§9.7.12.2); shfl... not */
        san_who t[32];
        int n = 0;
        for (uint32_t m = S; m; m &= m - 1, n++)
            t[n] = who(X, w, __builtin_ctz(m), I ? (int)(I[__builtin_ctz(m)] - X->prog) : w->pc);
        san_warp_sync(X->san, t, n);
    }
}

/* Lanes waiting at their own instructions run (guards were true when they arrived): a
 * rendezvous resched completed. */
static void wsync_rendezvous(ex *X, warp *w, uint32_t G, uint32_t E)
{
    const xinsn *I[32];
    frame *Fr[32];
    X->thread_insns += (uint64_t)__builtin_popcount(G) - (uint64_t)__builtin_popcount(E);
    for (uint32_t m = G; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        I[l] = &X->prog[w->lpc[l]];
        Fr[l] = &w->fr[w->ldep[l]];
    }
    int l0 = __builtin_ctz(G);
    wsync_exec(X, w, G, I, Fr, &X->prog[w->lpc[l0]], &w->fr[w->ldep[l0]]);
    for (uint32_t m = G; m; m &= m - 1) w->lpc[__builtin_ctz(m)]++;
    w->active = 0;
    resched(w);
}

/* Member lanes are elsewhere: per membermask class (M[l] for the lanes E), run with the lanes
 * already waiting at a matching instruction if that completes the class, else wait.  Lanes of
 * G whose guard is false count as present (as when converged) and go on. */
static void wsync_classes(ex *X, warp *w, const xinsn *in, frame *f, uint32_t G, uint32_t E,
                          const uint32_t *M)
{
    const xinsn *I[32];
    frame *Fr[32];
    uint32_t sig = wsig_of(in), todo = E;
    for (uint32_t m = G; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        w->lpc[l] = w->pc + 1;
        w->ldep[l] = (uint16_t)w->depth;
    }
    while (todo) {
        uint32_t mk = M[__builtin_ctz(todo)], K = 0, Cw = 0;
        for (uint32_t m = todo; m; m &= m - 1)
            if (M[__builtin_ctz(m)] == mk) K |= 1u << __builtin_ctz(m);
        todo &= ~K;
        for (uint32_t m = w->wrdv; m; m &= m - 1) {
            int l = __builtin_ctz(m);
            if (w->wsig[l] == sig && w->wmem[l] == mk) Cw |= 1u << l;
        }
        if (mk & w->live & ~(G | Cw)) {   /* incomplete: K waits */
            for (uint32_t m = K; m; m &= m - 1) {
                int l = __builtin_ctz(m);
                w->lpc[l] = w->pc; w->wsig[l] = sig; w->wmem[l] = mk;
            }
            w->wsync |= K; w->wrdv |= K;
            continue;
        }
        for (uint32_t m = K; m; m &= m - 1) { int l = __builtin_ctz(m); I[l] = in; Fr[l] = f; }
        for (uint32_t m = Cw; m; m &= m - 1) {
            int l = __builtin_ctz(m);
            I[l] = &X->prog[w->lpc[l]];
            Fr[l] = &w->fr[w->ldep[l]];
        }
        wsync_exec(X, w, K | Cw, I, Fr, in, f);
        for (uint32_t m = Cw; m; m &= m - 1) w->lpc[__builtin_ctz(m)]++;
        w->wsync &= ~Cw; w->wrdv &= ~Cw;
    }
    w->active = 0;
    resched(w);
}

/* The group G (guard true: E) reaches the warp-synchronous instruction `in`; or, with w->rdv,
 * a rendezvous completed by resched runs.  -1 after a fault. */
/* exec_hooks: the lanes G meet at a warp-synchronous instruction (they exchange registers) */
static int wsync_hook(ex *X, warp *w, uint32_t G)
{
    uint32_t gen = w->wsgen++;
    for (uint32_t m = G; m; m &= m - 1)
        if (X->hooks->barrier(X->hooks->ctx, X, w, __builtin_ctz(m), w->pc, -3, gen)) return -1;
    return 0;
}

static int wsync_op(ex *X, warp *w, const xinsn *in, frame *f, uint32_t G, uint32_t E)
{
    if (w->rdv) {
        if (X->hooks && wsync_hook(X, w, G)) return -1;
        wsync_rendezvous(X, w, G, E);
        return 0;
    }
    if (!E) { advance(w, w->pc + 1); return 0; }
    const xopnd *mo = &in->s[wsync_mask_idx(in)];
    int l0 = __builtin_ctz(E);
    uint32_t mask = (uint32_t)opv(X, w, f, mo, l0), M[32], bad = 0;
    int uni = mo->kind == XO_IMM;
    if (uni) bad = E & ~mask;
    else
        for (uint32_t m = E; m; m &= m - 1) {
            int l = __builtin_ctz(m);
            M[l] = (uint32_t)opv(X, w, f, mo, l);
            if (M[l] != mask) uni = 0;
            if (!(M[l] >> l & 1)) bad |= 1u << l;
        }
    if (bad) {
        int l = __builtin_ctz(bad);
        fault(X, w, l, w->pc, PTXE_ERROR_LAUNCH_FAILED,
              "executing lane is not in membermask 0x%08x", mo->kind == XO_IMM ? mask : M[l]);
        return -1;
    }
    if (in->flags &
        XF_NOSYNC) { /* deprecated vote/shfl: the active lanes, converged when possible */
        if (wsync_wait(w, mask)) return 0;
    } else if (!uni || (mask & w->live & ~G)) {
        if (uni) for (uint32_t m = E; m; m &= m - 1) M[__builtin_ctz(m)] = mask;
        wsync_classes(X, w, in, f, G, E, M);
        return 0;
    }
    /* converged: every non-exited member lane is here */
    if (X->hooks && wsync_hook(X, w, G)) return -1;
    wsync_exec(X, w, E, NULL, NULL, in, f);
    advance(w, w->pc + 1);
    return 0;
}

/* lanes wait at an incomplete rendezvous and nothing can complete it (every other non-exited
 * lane of the warp waits elsewhere for good): report the first waiting class */
void wsync_deadlock(ex *X, warp *w)
{
    int l = __builtin_ctz(w->wrdv);
    uint32_t mk = w->wmem[l], c = 0;
    for (uint32_t m = w->wrdv; m; m &= m - 1) {
        int j = __builtin_ctz(m);
        if (w->wsig[j] == w->wsig[l] && w->wmem[j] == mk) c |= 1u << j;
    }
    uint32_t miss = mk & w->live & ~c;
    if (!miss) {
        fault(X, w, l, w->lpc[l], PTXE_ERROR_LAUNCH_FAILED,
              "warp-synchronous deadlock: lanes 0x%08x of membermask 0x%08x wait here", c, mk);
        return;
    }
    int o = __builtin_ctz(miss);
    int opc = (w->barw >> o & 1) || (w->clw >> o & 1) ? w->lpc[o] - 1 : w->lpc[o];
    const char *where =
        (w->barw >> o & 1)  ? "at a barrier"
        : (w->clw >> o & 1) ? "at a cluster barrier"
        : (w->wrdv >> o & 1)
            ? "at a warp-synchronous instruction of another kind, qualifiers or membermask"
            : "elsewhere";
    const xinsn *oi = opc >= 0 && opc < X->m->nprog ? &X->prog[opc] : NULL;
    fault(X, w, l, w->lpc[l], PTXE_ERROR_LAUNCH_FAILED,
          "warp-synchronous deadlock: lanes 0x%08x wait here for lanes 0x%08x of membermask "
          "0x%08x; lane %d waits %s (line %d: %s)",
          c, miss, mk, o, where, oi ? oi->line : 0, oi ? oi->text : "?");
}

/* shfl, vote, match, redux, elect, bar.warp.sync: the rendezvous of wsync_op */
int h_wsync(ex *X, warp *w, const xinsn *in, frame *f, uint32_t G, uint32_t E)
{
    return wsync_op(X, w, in, f, G, E);
}

/* activemask (§9.7.12.11) */
int h_activemask(ex *X, warp *w, const xinsn *in, frame *f, uint32_t G, uint32_t E)
{
    for (uint32_t m = E; m; m &= m - 1) wr(f, &in->d[0], __builtin_ctz(m), G);
    advance(w, w->pc + 1);
    return 0;
}

