/* exec/step.c — one warp runs: the group's instruction is counted, its guard evaluated and
 * the handler of its kind called (table `handlers`); register computations run warp-wide here.
 * The step and wall-clock limits. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "exec/engine.h"

/* Register computations (ALU, CARRY, PACK): the table's eval per lane (the warp-wide eval_warp
 * path is run_warp's own fast path). */
static int h_alu(ex *X, warp *w, const xinsn *in, frame *f, uint32_t G, uint32_t E)
{
    uint64_t s[XMAX_OPS], d[XMAX_OPS];
    int ns = in->ns, nd = in->nd;
    if (in->fast && in->fn) {   /* register/constant operands only: no operand dispatch */
        const uint64_t *src[XMAX_OPS];
        uint64_t neg[XMAX_OPS];
        for (int k = 0; k < ns; k++) {
            neg[k] = in->s[k].neg;
            src[k] = in->s[k].kind == XO_REG ? f->regs + in->s[k].reg * 32 : NULL;
            if (!src[k]) s[k] = in->s[k].imm;
        }
        uint64_t *dst0 = in->d[0].kind == XO_REG ? f->regs + in->d[0].reg * 32 : NULL;
        uint64_t wm0 = in->d[0].wmask;
        for (uint32_t m = E; m; m &= m - 1) {
            int l = __builtin_ctz(m);
            for (int k = 0; k < ns; k++) if (src[k]) s[k] = src[k][l] ^ neg[k];
            in->fn(&in->isa, d, s);
            if (dst0) dst0[l] = d[0] & wm0;
            for (int k = 1; k < nd; k++) wr(f, &in->d[k], l, d[k]);
        }
        advance(w, w->pc + 1);
        return 0;
    }
    for (uint32_t m = E; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        for (int k = 0; k < ns; k++) s[k] = opv(X, w, f, &in->s[k], l);
        if (in->fn) in->fn(&in->isa, d, s);
        else { char e[8]; isa_eval_cc(&in->isa, s, d, &w->cc[l], e, sizeof e); }
        for (int k = 0; k < nd; k++) wr(f, &in->d[k], l, d[k]);
    }
    advance(w, w->pc + 1);
    return 0;
}

/* The handler of each kind (ptx/opcodes.def).  Kinds without one have no implemented row: the
 * loader refuses their instructions (exec column NO), so run_warp never meets them. */
static const exec_fn handlers[PTX_K_COUNT] = {
    [PTX_K_ALU] = h_alu,          [PTX_K_CARRY] = h_alu,        [PTX_K_PACK] = h_alu,
    [PTX_K_LD] = h_ldst,          [PTX_K_ST] = h_ldst,          [PTX_K_ATOM] = h_atom,
    [PTX_K_RED] = h_atom,         [PTX_K_ASYNC] = h_cpasync,    [PTX_K_BULK] = h_bulk,
    [PTX_K_MULTIMEM] = h_multimem,
    [PTX_K_ASYNC_GROUP] = h_nop,  [PTX_K_MBAR] = h_mbar,        [PTX_K_FENCE] = h_fence,
    [PTX_K_BAR] = h_bar,          [PTX_K_BARWARP] = h_wsync,    [PTX_K_BARCLUSTER] = h_barcluster,
    [PTX_K_SHFL] = h_wsync,       [PTX_K_VOTE] = h_wsync,       [PTX_K_MATCH] = h_wsync,
    [PTX_K_REDUX] = h_wsync,      [PTX_K_ELECT] = h_wsync,      [PTX_K_ACTIVEMASK] = h_activemask,
    [PTX_K_BRA] = h_bra,          [PTX_K_BRX] = h_brx,          [PTX_K_CALL] = h_call,
    [PTX_K_RET] = h_ret,          [PTX_K_EXIT] = h_exit,        [PTX_K_TRAP] = h_trap,
    [PTX_K_CVTA] = h_cvta,        [PTX_K_ISSPACEP] = h_isspacep, [PTX_K_MAPA] = h_mapa,
    [PTX_K_MMA] = h_mma,          [PTX_K_TENSORMAP] = h_tma,    [PTX_K_TEX] = h_tex,
    [PTX_K_SURF] = h_tex,
    [PTX_K_GETCTARANK] = h_mapa,  [PTX_K_STACK] = h_stack,      [PTX_K_HINT] = h_nop,
    [PTX_K_POLICY] = h_policy,    [PTX_K_SLEEP] = h_sleep,      [PTX_K_MISC] = h_misc,
};

/* exec_hooks: kinds whose memory accesses the hooks do not report */
static int unseen_kind(const xinsn *in)
{
    switch (in->kind) {
    case PTX_K_ASYNC: case PTX_K_MULTIMEM: case PTX_K_TENSORMAP:
    case PTX_K_TEX: case PTX_K_SURF: case PTX_K_MMA: return 1;
    case PTX_K_MISC: return (in->flags & (XF_MALLOC | XF_FREE)) != 0;   /* the device heap */
    default: return 0;
    }
}

double mono_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}


/* The slow path of the step counter: the step limit and the wall-clock limit (--timeout). */
static int step_check(ex *X, warp *w)
{
    if (X->steps > X->max_steps) {
        fault(X, w, -1, w->pc, PTXE_ERROR_LAUNCH_TIMEOUT,
              "step limit of %llu warp-instructions reached",
              (unsigned long long)X->max_steps);
        return 1;
    }
    if (X->deadline > 0 && mono_now() >= X->deadline) {
        fault(X, w, -1, w->pc, PTXE_ERROR_LAUNCH_TIMEOUT,
              "wall-clock limit of %g s reached after %llu warp-instructions", X->timeout,
              (unsigned long long)X->steps);
        return 1;
    }
    X->check_at = X->steps + CLOCK_EVERY < X->max_steps ? X->steps + CLOCK_EVERY : X->max_steps;
    return 0;
}

/* The warp-wide register computation `in` for the lanes E of the running group G (counted by
 * the caller), then the straight-line run of such instructions that follows (unguarded: for all
 * of G), until another kind, a guard, the group's end (it reaches another group's PC, when one
 * can run: advance), `left` instructions or the next step check.  The steps, instructions and
 * thread-instructions of the run are added at the end, from locals: each eval_warp is an opaque
 * call after which fields of X and w would be loaded again.  The operand arrays are built once
 * per instruction and register file (X->wops: measured, building them took 40% of the
 * interpreter's own instructions).  Returns the instructions run after the first. */
static int run_straight(ex *X, warp *w, const xinsn *in, uint64_t *regs, uint32_t E, int left)
{
    const xinsn *prog = X->prog;
    uint64_t *sink = X->sink;
    uint32_t G = w->active;
    uint64_t room = X->check_at > X->steps ? X->check_at - X->steps : 0;   /* steps to a check */
    int n = 0, pc = w->pc;
    int alone = !(w->others | w->wsync);   /* no other group of the warp to meet */
    for (;;) {
        wops *o = &X->wops[pc];
        if (o->regs != regs) {   /* (the same warp's loop finds them built) */
            o->regs = regs;
            for (int k = 0; k < ISA_WARP_NSRC; k++)
                o->S[k] = (in->wsrc[k] ? in->wsrc[k] : regs) + in->wsreg[k];
            for (int k = 0; k < ISA_WARP_NDST; k++)
                o->D[k] = ((in->wdsink >> k & 1) ? sink : regs) + in->wdreg[k];
        }
        in->wfn(&in->isa, o->D, o->S, in->wdm, E);
        pc++;
        if (!alone) {
            advance(w, pc);
            if (w->active != G) break;
        }
        if (n >= left || (uint64_t)n >= room) break;
        in = &prog[pc];
        if (!in->wfn || in->has_guard) break;
        n++; E = G;
    }
    if (alone) w->pc = pc;
    X->steps += (uint64_t)n;
    w->ninsn += (uint64_t)n;
    X->thread_insns += (uint64_t)n * (G == ~0u ? 32u : (uint64_t)__builtin_popcount(G));
    return n;
}

/* Runs warp w for up to `budget` warp-instructions: pick the group to run (resched), count the
 * step, evaluate the guard, dispatch to the kind's handler.  The one exception is the hot path
 * of the benchmark and of real kernels, register computations with a warp-wide eval_warp: they
 * run here, with the straight-line run of such instructions that follows (same group, no
 * guard), so that the loop's counters stay in registers (measured: 5% of the run time).
 * noinline: inlined into run_cluster/exec_launch it ran 3-4% slower (register pressure). */
__attribute__((noinline)) int run_warp(ex *X, warp *w, int budget)
{
    int ran = 0;
    if (w->dirty || !w->active) { w->dirty = 0; resched(w); }
    while (ran < budget) {
        if (!w->active) {
            resched(w);
            if (!w->active) {
                /* all non-exited lanes at incomplete rendezvous: nothing can complete them */
                if (w->live && !(w->live & ~w->wrdv)) { wsync_deadlock(X, w); return W_BLOCKED; }
                return w->live ? W_BLOCKED : W_DONE;
            }
        }
        if (++X->steps > X->check_at && step_check(X, w)) return W_BLOCKED;
        ran++; w->ninsn++;
        const xinsn *in = &X->prog[w->pc];
        frame *f = &w->fr[w->depth];
        uint32_t G = w->active, E = G;
        if (in->has_guard) {
            E = 0;
            const uint64_t *g = f->regs + in->guard * 32;
            for (uint32_t m = G; m; m &= m - 1) {
                int l = __builtin_ctz(m);
                E |= (uint32_t)((g[l] ^ in->guard_neg) & 1) << l;
            }
        }
        X->thread_insns += E == ~0u ? 32u : (uint64_t)__builtin_popcount(E);
        if (in->wfn) {   /* warp-wide: the table's eval_warp over [register][lane] arrays */
            ran += run_straight(X, w, in, f->regs, E, budget - ran);
            continue;
        }
        if (X->hooks && unseen_kind(in) && X->hooks->unseen(X->hooks->ctx, X, w, w->pc))
            return W_BLOCKED;
        exec_fn h = handlers[in->kind];
        if (!h) {
            fault(X, w, -1, w->pc, PTXE_ERROR_LAUNCH_FAILED,
                  "internal: no handler for instruction kind %s", ptx_kind_name(in->kind));
            return W_BLOCKED;
        }
        if (h(X, w, in, f, G, E) || X->fault) return W_BLOCKED;
        if (X->yield) { X->yield = 0; return W_RAN; }
    }
    return W_RAN;
}

