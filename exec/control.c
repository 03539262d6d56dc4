/* exec/control.c — control flow (§9.7.11): bra, brx.idx, call, ret, exit; trap and brkpt;
 * nanosleep; the stack instructions stacksave, stackrestore, alloca (§9.7.15). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "exec/engine.h"

/* The callee of lane l: the call's target, or for an indirect call the function whose address
 * the register holds, checked against the call's argument and result lists.  -1 after a fault. */
static int call_target(ex *X, warp *w, const xinsn *in, const frame *cf, int l)
{
    if (in->target >= 0) return in->target;
    uint64_t a = opv(X, w, cf, &in->s[0], l), idx = (a - FUNC_BASE) / 16;
    if (a < FUNC_BASE || (a - FUNC_BASE) % 16 || idx >= (uint64_t)X->m->nfuncs ||
        !X->funcs[idx].has_body || X->funcs[idx].is_entry) {
        fault(X, w, l, w->pc, PTXE_ERROR_LAUNCH_FAILED,
              "indirect call to address 0x%llx, which is not a function", (unsigned long long)a);
        return -1;
    }
    const xfunc *xf = &X->funcs[idx];
    if (xf->nparams != in->ncargs || xf->nrets != in->ncrets) {
        fault(X, w, l, w->pc, PTXE_ERROR_LAUNCH_FAILED,
              "indirect call of %s with %d arguments and %d results, expected %d and %d", xf->name,
              in->ncargs, in->ncrets, xf->nparams, xf->nrets);
        return -1;
    }
    for (int k = 0; k < in->ncargs + in->ncrets; k++) {   /* .reg/.param and sizes (§7.2) */
        int arg = k < in->ncargs, i = arg ? k : k - in->ncargs;
        int callee_reg = (arg ? xf->preg : xf->rreg)[i] >= 0,
            by_reg = (arg ? in->carg_off : in->cret_off)[i] == NOPARAM;
        uint32_t vsz = (arg ? in->carg_vsz : in->cret_vsz)[i], need = (arg ? xf->psz : xf->rsz)[i];
        char head[64];
        snprintf(head, sizeof head, arg ? "argument %d is" : "result %d is received in", i + 1);
        if (callee_reg != by_reg) {
            fault(X, w, l, w->pc, PTXE_ERROR_LAUNCH_FAILED,
                  "indirect call of %s: %s%s a %s, expected a %s", xf->name, head,
                  arg ? " passed as" : "", by_reg ? "register" : ".param variable",
                  callee_reg ? "register" : ".param variable");
            return -1;
        }
        if (!callee_reg && vsz < need) {
            fault(X, w, l, w->pc, PTXE_ERROR_LAUNCH_FAILED,
                  "indirect call of %s: %s a %u-byte .param variable, expected at least %u bytes",
                  xf->name, head, vsz, need);
            return -1;
        }
    }
    return (int)idx;
}

/* Lane l enters function f: its arguments into the new frame nf (registers masked to their
 * width, .param bytes copied), return point, local-memory frame.  -1 after a fault. */
static int call_enter(ex *X, warp *w, const xinsn *in, const frame *cf, frame *nf, int l, int f)
{
    const xfunc *xf = &X->funcs[f];
    for (int i = 0; i < in->ncargs; i++) {
        if (xf->preg[i] >= 0) {
            uint64_t v = opv(X, w, cf, &in->carg_x[i], l);
            unsigned b = xf->pregbits[i];
            nf->regs[(unsigned)xf->preg[i] * 32 + (unsigned)l] =
                b >= 64 ? v : v & ((1ull << b) - 1);
        } else
            memcpy(nf->params + (size_t)l * X->psize + xf->poff[i],
                   cf->params + (size_t)l * X->psize + in->carg_off[i], xf->psz[i]);
    }
    nf->ret_pc[l] = w->pc + 1; nf->call_pc[l] = w->pc;
    nf->saved_sp[l] = w->lsp[l];
    uint64_t base = (w->lsp[l] + xf->lalign - 1) / xf->lalign * xf->lalign;
    if (base + xf->lsize > LOCAL_MAX) {
        fault(X, w, l, w->pc, PTXE_ERROR_LAUNCH_FAILED, "local memory (stack) overflow: %llu bytes",
              (unsigned long long)(base + xf->lsize));
        return -1;
    }
    nf->lbase[l] = base;
    w->lsp[l] = base + xf->lsize;
    return 0;
}

/* call (§9.7.11.5): a predicated call splits the group; the calling lanes enter their callee's
 * frame (indirect calls may differ per lane: they continue apart). */
static int do_call(ex *X, warp *w, const xinsn *in, uint32_t E)
{
    uint32_t G = w->active;
    if (E != G) {   /* predicated call: the lanes that do not call go on */
        split(w, E, w->pc, w->pc + 1);
        return 0;   /* (the calling lanes run the call when rescheduled; guard re-evaluated) */
    }
    if ((unsigned)w->depth + 1 >= MAXD) {
        fault(X, w, __builtin_ctz(G), w->pc, PTXE_ERROR_LAUNCH_FAILED,
              "call stack overflow (depth %u)", MAXD);
        return -1;
    }
    if (ensure_frame(X, w, w->depth + 1)) {
        host_out_of_memory(X, w, -1, w->pc, "a call frame");
        return -1;
    }
    frame *cf = &w->fr[w->depth], *nf = &w->fr[w->depth + 1];
    int tgt[32], uniform = 1, first = -1;
    for (uint32_t m = G; m; m &= m - 1) {
        int l = __builtin_ctz(m), f = call_target(X, w, in, cf, l);
        if (f < 0 || call_enter(X, w, in, cf, nf, l, f)) return -1;
        tgt[l] = f;
        if (first < 0) first = f; else if (f != first) uniform = 0;
    }
    if (uniform) { w->depth++; advance(w, X->funcs[first].start); return 0; }
    for (uint32_t m = G; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        w->lpc[l] = X->funcs[tgt[l]].start;
        w->ldep[l] = (uint16_t)(w->depth + 1);
    }
    w->active = 0;
    resched(w);
    return 0;
}

static void do_ret(ex *X, warp *w, uint32_t E)
{
    uint32_t G = w->active;
    if (E != G) { split(w, E, w->pc, w->pc + 1); return; }
    if (w->depth == 0) { lanes_exit(X, w, E); resched(w); return; }
    frame *cf = &w->fr[w->depth], *pf = &w->fr[w->depth - 1];
    int rpc = -1, uniform = 1;
    for (uint32_t m = G; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        const xinsn *call = &X->prog[cf->call_pc[l]];
        const xfunc *xf = &X->funcs[X->prog[w->pc].func];
        for (int i = 0; i < call->ncrets; i++) {
            if (xf->rreg[i] >= 0)
                wr(pf, &call->cret_x[i], l, cf->regs[(unsigned)xf->rreg[i] * 32 + (unsigned)l]);
            else
                memcpy(pf->params + (size_t)l * X->psize + call->cret_off[i],
                       cf->params + (size_t)l * X->psize + xf->roff[i], xf->rsz[i]);
        }
        w->lsp[l] = cf->saved_sp[l];
        if (rpc < 0) rpc = cf->ret_pc[l]; else if (rpc != cf->ret_pc[l]) uniform = 0;
    }
    if (uniform) { w->depth--; advance(w, rpc); return; }
    for (uint32_t m = G; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        w->lpc[l] = cf->ret_pc[l];
        w->ldep[l] = (uint16_t)(w->depth - 1);
    }
    w->active = 0;
    resched(w);
}

/* bra (§9.7.11.3): lanes with a false guard go on; the group splits when some branch.  A
 * backward branch taken is a yield point (exec/sched.c). */
int h_bra(ex *X, warp *w, const xinsn *in, frame *f, uint32_t G, uint32_t E)
{
    if (X->hooks && E && in->target <= w->pc) {   /* a model checker may hold lanes here */
        uint32_t H = 0;
        for (uint32_t m = E; m; m &= m - 1) {
            int r = X->hooks->backedge(X->hooks->ctx, X, w, __builtin_ctz(m), w->pc, in->target);
            if (r < 0) return -1;
            if (r) H |= m & -m;
        }
        if (H) { w->hold |= H; split(w, E, in->target, w->pc + 1); return 0; }
    }
    if (E == G) {
        if (in->target <= w->pc) yield_point(w, in->target, 0);
        else advance(w, in->target);
    } else if (!E) advance(w, w->pc + 1);
    else split(w, E, in->target, w->pc + 1);
    return 0;
}

/* brx.idx (§9.7.11.4): per-lane targets from the .branchtargets list */
int h_brx(ex *X, warp *w, const xinsn *in, frame *f, uint32_t G, uint32_t E)
{
    if (!E) { advance(w, w->pc + 1); return 0; }
    int tg[32], t0 = -1, uniform = 1;
    for (uint32_t m = E; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        uint64_t idx = (uint32_t)opv(X, w, f, &in->s[0], l);
        if (idx >= (uint64_t)in->ntargets) {
            fault(X, w, l, w->pc, PTXE_ERROR_LAUNCH_FAILED,
                  "brx.idx index %llu is outside the %d-entry target list", (unsigned long long)idx,
                  in->ntargets);
            return -1;
        }
        tg[l] = in->targets[idx];
        if (t0 < 0) t0 = tg[l]; else if (tg[l] != t0) uniform = 0;
    }
    if (uniform && E == G) {
        if (t0 <= w->pc) yield_point(w, t0, 0);
        else advance(w, t0);
        return 0;
    }
    for (uint32_t m = G; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        w->lpc[l] = (E >> l & 1) ? tg[l] : w->pc + 1;
        w->ldep[l] = (uint16_t)w->depth;
    }
    w->active = 0;
    resched(w);
    return 0;
}

int h_call(ex *X, warp *w, const xinsn *in, frame *f, uint32_t G, uint32_t E)
{
    if (!E) { advance(w, w->pc + 1); return 0; }
    return do_call(X, w, in, E);
}

int h_ret(ex *X, warp *w, const xinsn *in, frame *f, uint32_t G, uint32_t E)
{
    if (!E) advance(w, w->pc + 1);
    else do_ret(X, w, E);
    return 0;
}

int h_exit(ex *X, warp *w, const xinsn *in, frame *f, uint32_t G, uint32_t E)
{
    if (!E) { advance(w, w->pc + 1); return 0; }
    if (E != G) { split(w, E, w->pc, w->pc + 1); return 0; }
    lanes_exit(X, w, E);
    resched(w);
    return 0;
}

/* trap, brkpt (§9.7.17.1, .4), and calls of __assertfail: the launch ends with a fault */
int h_trap(ex *X, warp *w, const xinsn *in, frame *f, uint32_t G, uint32_t E)
{
    if (!E) { advance(w, w->pc + 1); return 0; }
    fault(X, w, __builtin_ctz(E), w->pc, PTXE_ERROR_LAUNCH_FAILED,
          in->flags & XF_BRKPT ? "brkpt instruction executed (breakpoint, no debugger attached)"
                               : "trap instruction executed");
    return -1;
}

/* nanosleep (§9.7.17.2): give the other warps the processor; a yield point (exec/sched.c) */
int h_sleep(ex *X, warp *w, const xinsn *in, frame *f, uint32_t G, uint32_t E)
{
    X->yield = 1;
    yield_point(w, w->pc + 1, 1);
    return 0;
}

/* stacksave, stackrestore, alloca (§9.7.15): the lane's stack pointer in local memory */
int h_stack(ex *X, warp *w, const xinsn *in, frame *f, uint32_t G, uint32_t E)
{
    for (uint32_t m = E; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        if (in->op == PTX_I_STACKSAVE) { wr(f, &in->d[0], l, w->lsp[l]); continue; }
        if (in->op == PTX_I_STACKRESTORE) {
            uint64_t a = opv(X, w, f, &in->s[0], l);
            if (a > w->lsp[l]) {
                fault(X, w, l, w->pc, PTXE_ERROR_LAUNCH_FAILED,
                      "stackrestore to 0x%llx above the stack top", (unsigned long long)a);
                return -1;
            }
            w->lsp[l] = a;
            continue;
        }
        uint64_t sz = opv(X, w, f, &in->s[0], l), al = opv(X, w, f, &in->s[1], l);
        if (!al || (al & (al - 1))) al = 8;
        uint64_t a = (w->lsp[l] + al - 1) / al * al;
        if (sz > LOCAL_MAX || a + sz > LOCAL_MAX) {
            fault(X, w, l, w->pc, PTXE_ERROR_LAUNCH_FAILED,
                  "alloca of %llu bytes overflows the %u-byte stack", (unsigned long long)sz,
                  LOCAL_MAX);
            return -1;
        }
        w->lsp[l] = a + sz;
        wr(f, &in->d[0], l, a);
    }
    advance(w, w->pc + 1);
    return 0;
}

