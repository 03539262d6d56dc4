/* model/traces.c — per-thread paths with symbolic values.
 *
 * A thread is executed on terms (model/term.h): a read returns a fresh variable, register
 * computations and atomic operations build terms (model/term_isa.c; with constant operands
 * ptx/isa.c computes them, as the executor does), a store writes the term of its operand.  So
 * a path is determined by control flow only: straight-line code has one path whatever its
 * reads return.  A branch (or guard predicate) on read values splits the path only where the
 * value domains (model/program.c) leave both outcomes possible, each side keeping its
 * condition as a guard; the solver (solver/query.c) takes the conditions and the reads-from
 * choice together.  What must be concrete is made concrete by splitting on the values it may
 * take, with a guard per value: an address, a barrier number, an operand of a computation
 * without a term form, the state of an mbarrier, and the registers live at a loop head (so the
 * spin-loop reduction compares values, as it always did).
 * A backward jump may be taken at most `unroll` times per branch instruction; a path that would
 * take one more is cut (not a complete execution) and the thread reports bound_hit. */
#include "model/walker.h"
#include "model/mbarrier.h"
#include "model/term_isa.h"
#include "base/alloc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct { int *regs; bits *taint; int *back; } wstate;

static wstate state_clone(const walker *w, const wstate *s)
{
    int nr = w->th->nregs, ni = w->th->nins;
    wstate c;
    c.regs = xmalloc((size_t)(nr ? nr : 1) * sizeof *c.regs);
    c.taint = xmalloc((size_t)(nr ? nr : 1) * sizeof *c.taint);
    c.back = xmalloc((size_t)(ni ? ni : 1) * sizeof *c.back);
    memcpy(c.regs, s->regs, (size_t)nr * sizeof *c.regs);
    memcpy(c.taint, s->taint, (size_t)nr * sizeof *c.taint);
    memcpy(c.back, s->back, (size_t)ni * sizeof *c.back);
    return c;
}

static void state_free(wstate *s) { free(s->regs); free(s->taint); free(s->back); }

/* walk from pc; again: pc's loop-head check was done by the walk that split here */
static void walk(walker *w, int pc, wstate s, bits ctrl, int again);

/* What one step of walk did: went on at *pc, or ended this walk (the path forked into the
   walks of its children, ended, or failed). */
enum { STEP_ON, STEP_END };

static uint64_t mask_bits(unsigned n) { return n >= 64 ? ~0ull : (1ull << n) - 1; }

static int k64(walker *w, uint64_t v) { return mt_const(w->ts, 64, v); }

/* the 64-bit term of an operand */
static int opnd_term(walker *w, const lit_opnd *o, const int *regs)
{
    switch (o->k) {
    case OPD_REG: return regs[o->reg];
    case OPD_IMM: return k64(w, (uint64_t)o->imm);
    case OPD_SYM: return k64(w, (uint64_t)(lit_sym_addr(o->sym) + o->off));
    default: return k64(w, 0);
    }
}

/* the value of an operand that is concrete (the caller made it so) */
static int64_t opnd_val(walker *w, const lit_opnd *o, const int *regs)
{
    return (int64_t)mt_constval(w->ts, opnd_term(w, o, regs));
}

static int opnd_symbolic(walker *w, const lit_opnd *o, const int *regs)
{
    return o->k == OPD_REG && !mt_is_const(w->ts, regs[o->reg]);
}

static void opnd_taint(const lit_opnd *o, const bits *taint, bits *acc)
{
    if (o->k == OPD_REG) bits_or(acc, &taint[o->reg]);
}

/* Which reads an event depends on, by kind (Dat3M's addr, data, ctrl): the reads that
   produced its address, its values, and the branch conditions and guard on its path. */
typedef struct { bits addr, data, ctrl; } deps;

/* push an event with its dependencies */
static int push_event(walker *w, const lit_insn *in, mevent e, const deps *d)
{
    if (w->nev >= w->lim->max_events || w->nev >= TW * 64) {
        char m[160];
        snprintf(m, sizeof m,
                 "found a path of thread %s with more than %d events, expected at most %d (limit "
                 "--max-events)",
                 w->th->name, w->lim->max_events, w->lim->max_events);
        fail_at(w, in, m);
        return -1;
    }
    e.po = w->nev;
    e.thread = w->ti;
    if (e.rterm >= 0 && mt_is_const(w->ts, e.rterm)) e.rval = (int64_t)mt_constval(w->ts, e.rterm);
    if (e.wterm >= 0 && mt_is_const(w->ts, e.wterm)) e.wval = (int64_t)mt_constval(w->ts, e.wterm);
    w->ev[w->nev] = e;
    for (int i = 0; i < TW * 64; i++) {
        int kind = (d->addr.w[i >> 6] >> (i & 63) & 1) * MDEP_ADDR |
                   (d->data.w[i >> 6] >> (i & 63) & 1) * MDEP_DATA |
                   (d->ctrl.w[i >> 6] >> (i & 63) & 1) * MDEP_CTRL;
        if (!kind) continue;
        if (w->ndep == w->capdep) {
            w->capdep = w->capdep ? w->capdep * 2 : 64;
            w->dep = xrealloc(w->dep, (size_t)w->capdep * sizeof *w->dep);
        }
        w->dep[w->ndep++] = (mdep){ i, w->nev, kind };
    }
    w->nev++;
    return 0;
}

/* an event of no value (fences, barriers before their values) */
static mevent plain_event(int k, int pc)
{
    mevent e = { .k = k, .insn = pc, .sym = -1, .loc = -1, .vaddr = -1, .rterm = -1,
                 .wterm = -1, .wcond = -1, .wsame = -1 };
    return e;
}

/* ---------- splitting a path ---------- */

/* Register reg must be concrete at pc: one walk per value it may take, each with the guard
   reg == value, re-executing pc.  Ends this walk. */
static int concretize(walker *w, const lit_insn *in, int pc, const wstate *s, bits ctrl, int reg,
                      why_split why, int again)
{
    int t = s->regs[reg];
    uint64_t *v;
    int n = mt_values(w->ts, t, w->guard, w->nguard, var_domain, w, &v, 256);
    if (n < 0) {
        char m[300];
        snprintf(m, sizeof m,
                 "found register %%%s of '%s' holding a read value with more than 256 possible "
                 "values, expected a value that can be made concrete (%s; lower --unroll)",
                 w->th->regs[reg], in->text, why == WHY_LOOP ? "live at a loop head" : "needed "
                                                                                       "concrete");
        fail_at(w, in, m);
        return STEP_END;
    }
    if (n > 1) note_split(w, pc, why, n - 1);
    int g0 = w->nguard;
    for (int i = 0; i < n && !w->failed; i++) {
        wstate cs = state_clone(w, s);
        cs.regs[reg] = k64(w, v[i]);
        w->nguard = g0;
        guard_push(w, mt_op2(w->ts, MT_EQ, t, cs.regs[reg]));
        walk(w, pc, cs, ctrl, again);
    }
    w->nguard = g0;
    free(v);
    return STEP_END;
}

/* The Boolean term c decides pc but the path leaves both outcomes open: one walk per outcome,
   each with its guard, re-executing pc.  Ends this walk. */
static int fork_on(walker *w, int pc, const wstate *s, bits ctrl, int c, why_split why)
{
    note_split(w, pc, why, 1);
    int g0 = w->nguard;
    for (int side = 1; side >= 0 && !w->failed; side--) {
        w->nguard = g0;
        guard_push(w, side ? c : mt_not1(w->ts, c));
        walk(w, pc, state_clone(w, s), ctrl, 1);
    }
    w->nguard = g0;
    return STEP_END;
}

/* the first source register of in that is not concrete, -1 */
static int symbolic_src(walker *w, const lit_insn *in, const int *regs, int from, int to)
{
    for (int k = from; k < to && k < in->nsrc; k++)
        if (opnd_symbolic(w, &in->src[k], regs)) return in->src[k].reg;
    return -1;
}

/* ---------- steps ---------- */

/* Value a destination receives, as the type the ISA gives that destination (isa_dst_type:
   predicates 0/1, .u32 for popc/bfind, twice the width for .wide, ...). */
static int alu_result(walker *w, const lit_insn *in, int k, int v)
{
    isa_type t = isa_dst_type(&in->alu, k);
    return isa_type_is_float(t) || t == ISA_T_PRED ? mt_mask(w->ts, v, isa_type_bits(t))
                                                   : mt_value_as(w->ts, t, v);
}

/* LI_ALU: a register computation: on constants through ptx/isa.c (isa_eval), else as terms
   (model/term_isa.c), else with its sources made concrete. */
static int step_alu(walker *w, const lit_insn *in, int *pc, wstate *s, bits ctrl)
{
    int src[4] = { 0 }, dst[2] = { 0 }, all = 1;
    bits t = { { 0 } };
    for (int k = 0; k < in->nsrc; k++) {
        src[k] = mt_mask(w->ts, opnd_term(w, &in->src[k], s->regs), isa_src_bits(&in->alu, k));
        all &= mt_is_const(w->ts, src[k]);
        opnd_taint(&in->src[k], s->taint, &t);
    }
    if (all) {
        uint64_t sv[4] = { 0 }, dv[2] = { 0 };
        for (int k = 0; k < in->nsrc; k++) sv[k] = mt_constval(w->ts, src[k]);
        char e[160];
        if (isa_eval(&in->alu, sv, dv, e, sizeof e)) {
            char m[240];
            snprintf(m, sizeof m,
                     "found '%s' that cannot be evaluated (%s), expected a register computation",
                     in->text, e);
            fail_at(w, in, m);
            return STEP_ON;   /* w->failed ends the walk */
        }
        for (int k = 0; k < in->ndst; k++) dst[k] = k64(w, dv[k]);
    } else if (mt_isa_eval(w->ts, &in->alu, src, dst)) {
        return concretize(w, in, *pc, s, ctrl, symbolic_src(w, in, s->regs, 0, in->nsrc),
                          WHY_OPERAND, 1);
    }
    for (int k = 0; k < in->ndst; k++)
        if (in->dst[k].k == OPD_REG) {
            s->regs[in->dst[k].reg] = alu_result(w, in, k, dst[k]);
            s->taint[in->dst[k].reg] = t;
        }
    (*pc)++;
    return STEP_ON;
}

/* the comparison of a branch on 64-bit register values (signed) */
static int branch_cond(walker *w, lit_cmp c, int a, int b)
{
    mterms *ts = w->ts;
    switch (c) {
    case CMP_EQ: return mt_op2(ts, MT_EQ, a, b);
    case CMP_NE: return mt_ne(ts, a, b);
    case CMP_LT: return mt_op2(ts, MT_SLT, a, b);
    case CMP_GT: return mt_op2(ts, MT_SLT, b, a);
    case CMP_LE: return mt_sle(ts, a, b);
    default: return mt_sle(ts, b, a);
    }
}

/* LI_BRANCH / LI_GOTO: the comparison's operands become control dependencies; a backward jump
   taken more than --unroll times ends the path (bound reached). */
static int step_branch(walker *w, const lit_insn *in, int *pc, wstate *s, bits *ctrl)
{
    int take = 1;
    if (in->k == LI_BRANCH) {
        opnd_taint(&in->src[0], s->taint, ctrl);
        opnd_taint(&in->src[1], s->taint, ctrl);
        int c = branch_cond(w, in->cmp, opnd_term(w, &in->src[0], s->regs),
                            opnd_term(w, &in->src[1], s->regs));
        take = path_decides(w, c);
        if (take < 0) return fork_on(w, *pc, s, *ctrl, c, WHY_BRANCH);
    }
    if (in->guard >= 0) bits_or(ctrl, &s->taint[in->guard]);
    if (!take) { (*pc)++; return STEP_ON; }
    if (in->target <= *pc && ++s->back[*pc] > w->lim->unroll) {
        w->out->bound_hit = 1;
        return STEP_END;
    }
    *pc = in->target;
    return STEP_ON;
}

/* bar.red (§9.7.12.1): a barrier that waits like bar.sync; "the c predicate (or its complement)
   from all threads ... are combined using the specified reduction operator" and the result is
   written to every waiting thread.  The result comes from the other participants, not from
   memory: one child per result the instance may give (popc: 0..count threads with c true, in
   threads, each litmus thread a warp of bar_unit threads with the same c; and, or: 0 or 1),
   limited by this thread's own contribution.  The event carries the contribution in wval and
   the result in rval; solver/query.c ties the result to the contributions of the instance. */
static void bar_red(walker *w, const lit_insn *in, int pc, mevent e, const wstate *s,
                    const deps *on, bits ctrl)
{
    int mine = (opnd_val(w, &in->bar_pred, s->regs) != 0) ^ in->bar_pred_neg;
    deps don = *on;
    opnd_taint(&in->bar_pred, s->taint, &don.data);
    e.wval = mine;
    e.rval = 0;
    e.wterm = mt_const(w->ts, 1, (uint64_t)mine);
    e.rterm = k64(w, 0);
    int mark = w->nev, dmark = w->ndep;
    if (push_event(w, in, e, &don)) return;
    if (w->lim->liveness) save_trace(w, s->regs, MHANG_BARRIER, -1, pc);   /* waits forever */
    w->nev = mark;
    w->ndep = dmark;
    int64_t unit = in->bar_unit ? in->bar_unit : 1, lo, hi;
    if (in->bar_op == BRED_POPC) { lo = mine; hi = e.bar_cnt - 1 + mine; }
    else if (in->bar_op == BRED_AND) { lo = 0; hi = mine; }
    else { lo = mine; hi = 1; }
    if (hi > lo) note_split(w, pc, WHY_BARRED, hi - lo);
    for (int64_t r = lo; r <= hi && !w->failed; r++) {
        mevent ce = e;
        ce.rterm = k64(w, (uint64_t)(in->bar_op == BRED_POPC ? r * unit : r));
        if (push_event(w, in, ce, &don)) return;
        wstate cs = state_clone(w, s);
        if (in->dst[0].k == OPD_REG) {
            cs.regs[in->dst[0].reg] = ce.rterm;
            cs.taint[in->dst[0].reg] = s->taint[in->bar_pred.reg];   /* the own predicate's reads */
        }
        walk(w, pc + 1, cs, ctrl, 0);
        w->nev = mark;
        w->ndep = dmark;
    }
}

/* A barrier id or thread count computed at run time must be valid (§9.7.12.1). */
static int check_barrier(walker *w, const lit_insn *in, mevent *e)
{
    char m[320];
    if (e->bar_id < 0 || e->bar_id > 15) {
        snprintf(m, sizeof m, "found the barrier %lld, expected a barrier number 0..15 (§9.7.12.1)",
                 (long long)e->bar_id);
        fail_at(w, in, m);
        return -1;
    }
    if (!e->bar_has_cnt) return 0;
    int unit = in->bar_unit ? in->bar_unit : 1, n = 0;
    /* Dat3M's quorum under Dat3M's events: any number; one the CTA cannot reach holds every
       thread that arrives (solver/query.c dat3m_barriers) */
    if (unit == 1 && w->lim->sem.dat3m_barriers) return 0;
    for (int i = 0; i < w->t->nth; i++)
        n += w->t->th[i].gpu == w->th->gpu && w->t->th[i].cta == w->th->cta;
    if (unit == 1 && (e->bar_cnt < 1 || e->bar_cnt > n)) {
        snprintf(m, sizeof m,
                 "found the quorum %lld, expected 1..%d: the test places %d thread%s in CTA %d "
                 "(under Dat3M's events, --model ptx-v7.5 or --events dat3m, a quorum never "
                 "reached holds the threads that arrive)",
                 (long long)e->bar_cnt, n, n, n == 1 ? "" : "s", w->th->cta);
        fail_at(w, in, m);
        return -1;
    }
    if (e->bar_cnt <= 0 || e->bar_cnt % unit || e->bar_cnt / unit > n) {
        snprintf(m, sizeof m,
                 "found the thread count %lld, expected %s (the test places %d thread%s in CTA %d)",
                 (long long)e->bar_cnt,
                 unit == 32 ? "a positive multiple of 32, at most 32 per thread"
                            : "1 or more, at most one per thread",
                 n, n == 1 ? "" : "s", w->th->cta);
        fail_at(w, in, m);
        return -1;
    }
    e->bar_cnt /= unit;
    return 0;
}

/* LI_BAR: a barrier event with its id, count and instance (bar_gen); bar.red forks over its
   results (bar_red). */
static int step_bar(walker *w, const lit_insn *in, int *pc, wstate *s, deps *on, bits ctrl)
{
    int r = symbolic_src(w, in, s->regs, 0, 2);
    if (r < 0 && in->bar == BAR_RED && opnd_symbolic(w, &in->bar_pred, s->regs))
        r = in->bar_pred.reg;
    if (r >= 0) return concretize(w, in, *pc, s, ctrl, r, WHY_BARRIER, 1);
    mevent e = plain_event(EV_BAR, *pc);
    e.bar = in->bar;
    e.sem = SEM_WEAK;
    e.scope = SCOPE_CTA;
    e.bar_id = opnd_val(w, &in->src[0], s->regs);
    opnd_taint(&in->src[0], s->taint, &on->data);
    if (in->nsrc > 1) {
        e.bar_has_cnt = 1;
        e.bar_cnt = opnd_val(w, &in->src[1], s->regs);
        opnd_taint(&in->src[1], s->taint, &on->data);
    }
    if (in->bar == BAR_CARRIVE || in->bar == BAR_CWAIT) {
        /* barrier.cluster (§9.7.13.3): the k-th arrive of each thread of the cluster
           meets the others' k-th arrive and k-th wait (base_same_barrier) */
        e.bar_id = in->bar == BAR_CARRIVE ? -1 : -2;
        e.sem = in->sem;
        e.scope = SCOPE_CLUSTER;
    } else if (check_barrier(w, in, &e)) return STEP_END;
    if (!e.bar_has_cnt && in->bar_unit == 32 && e.bar_id >= 0) {
        /* PTX's bar{.cta}.sync a / barrier.sync a: "all threads in the CTA participate"
           (§9.7.12.1), i.e. every thread the test places in this thread's CTA */
        e.bar_has_cnt = 1;
        for (int i = 0; i < w->t->nth; i++)
            e.bar_cnt += w->t->th[i].gpu == w->th->gpu && w->t->th[i].cta == w->th->cta;
    }
    for (int k = 0; k < w->nev; k++) {
        const mevent *o = &w->ev[k];
        if (o->k == EV_BAR && o->bar_id == e.bar_id && o->bar_has_cnt == e.bar_has_cnt &&
            o->bar_cnt == e.bar_cnt)
            e.bar_gen++;
    }
    if (in->bar == BAR_RED) {
        bar_red(w, in, *pc, e, s, on, ctrl);
        return STEP_END;
    }
    if (push_event(w, in, e, on)) return STEP_END;
    /* Dat3M's bar.cta.arrive waits like its sync under Dat3M's events: its execution too needs
       the instance's other threads (solver/query.c dat3m_barriers) */
    if (w->lim->liveness &&
        (in->bar == BAR_SYNC || (in->bar_unit == 1 && w->lim->sem.dat3m_barriers)))
        save_trace(w, s->regs, MHANG_BARRIER, -1, *pc); /* waits forever */
    (*pc)++;
    return STEP_ON;
}

/* ---------- memory ---------- */

static int resolve_addr(walker *w, const lit_insn *in, const int *regs, int *sym)
{
    if (in->addr.k == OPD_SYM) { *sym = in->addr.sym; return 0; }
    int64_t v = opnd_val(w, &in->addr, regs) + in->addr.off;
    int64_t base = v - (v - LIT_ADDR_BASE) % LIT_ADDR_STRIDE;
    *sym = v >= LIT_ADDR_BASE ? lit_addr_sym(w->t, base) : -1;
    if (*sym >= 0) {
        const lit_sym *l = &w->t->sym[w->t->sym[*sym].loc];
        int64_t off = v - base;
        int sz = in->size ? in->size : l->size;
        if ((!in->size && off) || off + sz > l->size || off % sz) {
            char m[200];
            snprintf(m, sizeof m,
                     "found an access at byte %lld of %s (%d bytes), expected an aligned access "
                     "inside the location",
                     (long long)off, w->t->sym[*sym].name, l->size);
            fail_at(w, in, m);
            return -1;
        }
        return 0;
    }
    char m[200];
    snprintf(m, sizeof m,
             "found register %%%s holding %lld used as an address, expected the address of a "
             "location (initialise it with P%d:%s=x)",
             w->th->regs[in->addr.reg], (long long)v, w->ti, w->th->regs[in->addr.reg]);
    fail_at(w, in, m);
    return -1;
}

/* byte offset of the access into its location */
static int64_t addr_off(walker *w, const lit_insn *in, const int *regs)
{
    if (in->addr.k == OPD_SYM) return in->addr.off;
    return (opnd_val(w, &in->addr, regs) + in->addr.off - LIT_ADDR_BASE) % LIT_ADDR_STRIDE;
}

/* access type and size of a memory instruction: an untyped access is the whole location */
static isa_type access_type(const lit_test *t, const lit_insn *in, int sym)
{
    return in->type ? in->type : t->sym[t->sym[sym].loc].type;
}
static int access_size(const lit_test *t, const lit_insn *in, int sym)
{
    return in->size ? in->size : t->sym[t->sym[sym].loc].size;
}

/* The event of a memory operation before its values: location, bytes, semantics, proxy and
   the state space it names. */
static mevent mem_event(walker *w, const lit_insn *in, int pc, const wstate *s, int sym, int asz)
{
    const lit_sym *sy = &w->t->sym[sym];
    mevent e = plain_event(EV_R, pc);
    e.sem = in->sem;
    e.scope = in->scope;
    e.sym = sym;
    e.loc = sy->loc;
    e.vaddr = sy->vaddr;
    e.proxy = in->proxy != PROXY_GENERIC ? in->proxy : sy->proxy;
    e.mmio = in->mmio;
    e.off = (int)addr_off(w, in, s->regs);
    e.size = asz;
    e.atomic = in->k == LI_ATOM || in->k == LI_RED;
    e.red = in->k == LI_RED;
    e.mbar = in->mbar;
    /* the state space of the location: this CTA's shared memory, shared memory, else unknown */
    if (sy->shared || w->t->sym[sy->loc].shared) {
        const lit_sym *l = &w->t->sym[sy->loc];
        const lit_thread *o = l->owner >= 0 ? &w->t->th[l->owner] : NULL;
        e.fspace = o && o->gpu == w->th->gpu && o->cta == w->th->cta ? SPACE_SHARED_CTA
                                                                     : SPACE_SHARED_CLUSTER;
    } else if (in->space == SPACE_GLOBAL) e.fspace = SPACE_GLOBAL;
    return e;
}

/* The destination register of a read that returned the term rt (raw, 8 * size bits; done: an
   mbarrier test's answer); its dependencies are the read event (mark). */
static void read_result(walker *w, const lit_insn *in, wstate *cs, int rt, isa_type aty, int done,
                        int mark)
{
    if (in->k == LI_RED || in->dst[0].k != OPD_REG) return;
    mterms *ts = w->ts;
    int r = in->dst[0].reg, raw = mt_op1(ts, MT_ZEXT, 64, rt);
    if (in->part) {
        /* a packed element writes its half of the destination (the first element in the text
           starts the register's dependencies afresh, the second adds) */
        int sh = 16 * (in->part - 1);
        int keep = mt_op2(ts, MT_AND, cs->regs[r], k64(w, ~(0xffffull << sh) & 0xffffffffull));
        int half = mt_op2(ts, MT_SHL, mt_mask(ts, raw, 16), k64(w, (uint64_t)sh));
        cs->regs[r] = mt_op2(ts, MT_OR, keep, half);
        if (in->part == 1) memset(&cs->taint[r], 0, sizeof(bits));
    } else {
        /* §9.7.8.8: a signed load sign-extends, an unsigned one zero-extends */
        cs->regs[r] = isa_type_is_float(aty) ? raw : mt_value_as(ts, aty, raw);
        if (in->mbar == MB_TEST || in->mbar == MB_TEST_PARITY) cs->regs[r] = k64(w, (uint64_t)done);
        memset(&cs->taint[r], 0, sizeof(bits));
    }
    bits_set(&cs->taint[r], mark);
}

/* A read whose value must be concrete (an mbarrier operation, an atomic operation without a
   term form): one child walk per value its bytes may hold (the atoms' domains combined), with
   the guard var == value; the write of an atomic operation computed by isa_atom_apply. */
static void split_read(walker *w, const lit_insn *in, int pc, wstate *s, mevent e, deps ton,
                       bits ctrl, isa_type aty, int var)
{
    uint64_t am = mask_bits(8u * (unsigned)e.size), *rv;
    int nv = mdom_combos(w->at, w->dom, e.loc, e.off, e.size, &rv);
    w->out->dom_used = 1;
    if (nv < 0) {
        fail_at(w, in,
                "found a read whose value must be concrete (an mbarrier state, or an atomic "
                "operation without a term form) with more than 65536 possible values, expected "
                "fewer (lower --unroll)");
        return;
    }
    uint64_t b = 0, c = 0;
    if (e.atomic) {
        b = (uint64_t)opnd_val(w, &in->src[0], s->regs);
        if (in->nsrc > 1) c = (uint64_t)opnd_val(w, &in->src[1], s->regs);
        if (in->part) b = b >> (16 * (in->part - 1)) & 0xffff;   /* its half, §8.2.5 */
    }
    int own_init = 0;   /* this thread initialised the mbarrier earlier on this path */
    for (int k = 0; in->mbar && k < w->nev; k++)
        own_init |= w->ev[k].mbar == MB_INIT && w->ev[k].loc == e.loc;
    int some_valid = 0;   /* (in the first rounds of the value domains there is none yet) */
    for (int vi = 0; own_init && vi < nv; vi++) some_valid |= mbar_valid(rv[vi]);
    own_init &= some_valid;
    if (nv > 1) note_split(w, pc, WHY_READ, nv - 1);
    int g0 = w->nguard;
    for (int vi = 0; vi < nv && !w->failed; vi++) {
        mevent ce = e;
        /* SC per location (§8.10.5): after its own mbarrier.init, a thread cannot read
           the object's initial (uninitialised) state, nor a state derived from it */
        if (own_init && !mbar_valid(rv[vi])) continue;
        ce.k = EV_R;
        ce.rterm = var;
        ce.rval = (int64_t)rv[vi];
        int done = 0;
        if (in->mbar == MB_TEST || in->mbar == MB_TEST_PARITY) {
            /* "When mbarrier.test_wait and mbarrier.try_wait operations with .acquire
               qualifier returns True, they form the acquire pattern" (§9.7.13.15.16) */
            done = mbar_complete(in, rv[vi], (uint64_t)opnd_val(w, &in->src[0], s->regs), &ce.ub);
            if (!done && ce.sem == SEM_ACQUIRE) ce.sem = SEM_RELAXED;
        } else if (in->mbar) {
            ce.k = EV_RMW;
            ce.wval = (int64_t)mbar_update(in, rv[vi], b, c, &ce.ub);
        } else if (e.atomic) {
            uint64_t nw;
            int wr = isa_atom_apply(in->aop, aty, rv[vi], b, c, &nw);
            if (wr < 0) {
                fail_at(w, in,
                        "found an atomic operation without semantics for its type, expected one of "
                        "§9.7.12.5");
                break;
            }
            /* a failed atom.cas writes the value it read back when the semantics say so
               (§9.7.12.5: *a = cas(*a, b, c), cas(r, s, t) = (r == s) ? t : r) */
            if (!wr && w->lim->sem.cas_fail_writes) { wr = 1; nw = rv[vi]; }
            if (wr) { ce.k = EV_RMW; ce.wval = (int64_t)(nw & am); }
        }
        if (ce.k == EV_RMW) {
            ce.wterm = mt_const(w->ts, 8u * (unsigned)e.size, (uint64_t)ce.wval);
            ce.wcond = w->ts->T;
            ce.wsame = ce.rval == ce.wval ? w->ts->T : w->ts->F;
        }
        int mark = w->nev, dmark = w->ndep;
        w->nguard = g0;
        if (nv > 1) guard_push(w, mt_op2(w->ts, MT_EQ, var, mt_const(w->ts, 8u * (unsigned)e.size,
                                                                    rv[vi])));
        if (push_event(w, in, ce, &ton)) break;
        wstate cs = state_clone(w, s);
        read_result(w, in, &cs, mt_const(w->ts, 8u * (unsigned)e.size, rv[vi]), aty, done, mark);
        walk(w, pc + 1, cs, ctrl, 0);
        w->nev = mark;
        w->ndep = dmark;
    }
    w->nguard = g0;
    free(rv);
}

/* An atomic operation old (+) k with a constant k and an associative, commutative (+): the
   lemmas of solver/query_lemmas.c may apply to its location. */
static void accumulates(walker *w, const lit_insn *in, isa_type aty, int bt, mevent *e)
{
    isa_atom_op op = in->aop;
    if (aty == ISA_T_NONE) aty = ISA_T_S64;   /* as isa_atom_apply */
    if (!mt_is_const(w->ts, bt) || in->part || isa_type_is_float(aty) ||
        isa_type_bits(aty) != 8u * (unsigned)e->size)
        return;
    uint64_t k = mt_constval(w->ts, bt) & mask_bits(isa_type_bits(aty));
    if (op == ISA_ATOM_SUB) { op = ISA_ATOM_ADD; k = (0 - k) & mask_bits(isa_type_bits(aty)); }
    if (op != ISA_ATOM_ADD && op != ISA_ATOM_AND && op != ISA_ATOM_OR && op != ISA_ATOM_XOR &&
        op != ISA_ATOM_MIN && op != ISA_ATOM_MAX)
        return;
    e->acc = op;
    e->acc_t = aty;
    e->acc_k = k;
}

/* A read (ld, atom, red, mbarrier operations): its value is a new variable; an atomic
   operation writes the term model/term_isa.c gives (a compare-and-swap under the condition
   that it succeeds), and the walk goes on.  Where that cannot be, split_read. */
static int step_read(walker *w, const lit_insn *in, int *pc, wstate *s, mevent e, deps on,
                     bits ctrl, isa_type aty)
{
    mterms *ts = w->ts;
    unsigned bitsz = 8u * (unsigned)e.size;
    deps ton = on;
    int bt = -1, ct = -1, nt = -1, wc = ts->T;
    if (e.atomic) {
        bt = opnd_term(w, &in->src[0], s->regs);
        opnd_taint(&in->src[0], s->taint, &ton.data);
        ct = in->nsrc > 1 ? opnd_term(w, &in->src[1], s->regs) : k64(w, 0);
        if (in->nsrc > 1) opnd_taint(&in->src[1], s->taint, &ton.data);
        if (in->part)
            bt = mt_mask(ts, mt_op2(ts, MT_LSHR, bt, k64(w, 16u * (unsigned)(in->part - 1))), 16);
    }
    int var = mt_var(ts, bitsz, (mt_varinfo){ w->ti, e.loc, e.off, e.size });
    int symbolic = !in->mbar;
    if (symbolic && e.atomic)
        symbolic = !mt_atom_apply(ts, in->aop, aty, mt_op1(ts, MT_ZEXT, 64, var), bt, ct,
                                  w->lim->sem.cas_fail_writes, &nt, &wc);
    if (!symbolic) {   /* the operands concrete first, then the value read */
        int r = symbolic_src(w, in, s->regs, 0, 2);
        if (r >= 0) return concretize(w, in, *pc, s, ctrl, r, WHY_OPERAND, 1);
        split_read(w, in, *pc, s, e, ton, ctrl, aty, var);
        return STEP_END;
    }
    e.rterm = var;
    if (e.atomic && wc != ts->F) {
        e.k = EV_RMW;
        e.wterm = mt_extract(ts, bitsz, 0, nt);
        e.wcond = wc;
        e.wsame = mt_op2(ts, MT_EQ, e.wterm, var);   /* a failed cas writing back, under guards */
        accumulates(w, in, aty, bt, &e);
    }
    int mark = w->nev;
    if (push_event(w, in, e, &ton)) return STEP_END;
    read_result(w, in, s, var, aty, 0, mark);
    (*pc)++;
    return STEP_ON;
}

/* LI_LD / LI_ST / LI_ATOM / LI_RED: a store writes its operand's term; a read is step_read. */
static int step_mem(walker *w, const lit_insn *in, int *pc, wstate *s, deps on, bits ctrl)
{
    if (opnd_symbolic(w, &in->addr, s->regs))
        return concretize(w, in, *pc, s, ctrl, in->addr.reg, WHY_ADDRESS, 1);
    int sym;
    if (resolve_addr(w, in, s->regs, &sym)) return STEP_END;
    if (in->addr.k == OPD_REG) opnd_taint(&in->addr, s->taint, &on.addr);   /* address dependency */
    isa_type aty = access_type(w->t, in, sym);
    int asz = access_size(w->t, in, sym);
    mevent e = mem_event(w, in, *pc, s, sym, asz);
    if (in->k != LI_ST) return step_read(w, in, pc, s, e, on, ctrl, aty);
    if (in->mbar == MB_INIT && opnd_symbolic(w, &in->src[0], s->regs))
        return concretize(w, in, *pc, s, ctrl, in->src[0].reg, WHY_OPERAND, 1);
    e.k = EV_W;
    e.wterm = mt_extract(w->ts, 8u * (unsigned)asz, 0,
                         opnd_term(w, &in->src[0], s->regs)); /* the low bytes, §9.7.8.11 */
    if (in->mbar == MB_INIT)
        e.wterm = mt_const(w->ts, 8u * (unsigned)asz,
                           mbar_init((uint64_t)opnd_val(w, &in->src[0], s->regs)));
    opnd_taint(&in->src[0], s->taint, &on.data);       /* data dependency */
    if (push_event(w, in, e, &on)) return STEP_END;
    (*pc)++;
    return STEP_ON;
}

static int step_fence(walker *w, const lit_insn *in, int *pc, const deps *on)
{
    mevent e = plain_event(EV_F, *pc);
    e.sem = in->sem;
    e.scope = in->scope;
    e.fence = in->fence;
    e.restrict_ = in->restrict_;
    e.uni = in->uni;
    e.fspace = in->fspace;
    (*pc)++;
    return push_event(w, in, e, on) ? STEP_END : STEP_ON;
}

/* At a loop head: the live registers made concrete first (one walk per value), then the
   spin-loop reduction.  1: this walk ended. */
static int at_loop_head(walker *w, int pc, wstate *s, bits ctrl)
{
    int r = symbolic_live(w, pc, s->regs);
    if (r >= 0) {
        concretize(w, &w->th->ins[pc], pc, s, ctrl, r, WHY_LOOP, 0);
        return 1;
    }
    if (!loop_head_visit(w, pc, s->regs)) return 0;
    /* the iteration since the last visit repeats forever with the same state: with
       --liveness, a path that never ends (fair when its reads see co-maximal writes) */
    if (w->lim->liveness) save_trace(w, s->regs, MHANG_SPIN, w->spin_from, pc);
    return 1;
}

/* Execute from pc with state s (owned by the callee): each instruction through its step
   function; a path that ends records its trace (save_trace). */
static void walk(walker *w, int pc, wstate s, bits ctrl, int again)
{
    const lit_thread *th = w->th;
    int nev0 = w->nev, ndep0 = w->ndep, nvis0 = w->nvis, ng0 = w->nguard;
    int st = STEP_ON;
    for (; !w->failed && st == STEP_ON && pc < th->nins; again = 0) {
        const lit_insn *in = &th->ins[pc];
        if (w->lim->deadline && !(++w->steps & 1023) && mclock_ms() > w->lim->deadline) {
            w->timed_out = w->failed = 1;
            break;
        }
        if (!again && w->head[pc] && at_loop_head(w, pc, &s, ctrl)) { st = STEP_END; break; }
        deps on = { .ctrl = ctrl };
        if (in->guard >= 0) {
            bits_or(&on.ctrl, &s.taint[in->guard]);
            int g = mt_ne(w->ts, s.regs[in->guard], k64(w, 0));
            if (in->guard_neg) g = mt_not1(w->ts, g);
            int taken = path_decides(w, g);
            if (taken < 0) { st = fork_on(w, pc, &s, ctrl, g, WHY_GUARD); break; }
            if (!taken) { pc++; continue; }
        }
        switch (in->k) {
        case LI_NOP: pc++; break;
        case LI_ALU: st = step_alu(w, in, &pc, &s, ctrl); break;
        case LI_BRANCH: case LI_GOTO: st = step_branch(w, in, &pc, &s, &ctrl); break;
        case LI_FENCE: st = step_fence(w, in, &pc, &on); break;
        case LI_BAR: st = step_bar(w, in, &pc, &s, &on, ctrl); break;
        case LI_LD:
        case LI_ST:
        case LI_ATOM:
        case LI_RED: st = step_mem(w, in, &pc, &s, on, ctrl); break;
        }
    }
    if (!w->failed && st == STEP_ON && pc >= th->nins) save_trace(w, s.regs, MHANG_NONE, -1, -1);
    w->nev = nev0;
    w->ndep = ndep0;
    w->nguard = ng0;
    while (w->nvis > nvis0) free(w->vis[--w->nvis].regs);
    state_free(&s);
}

int traces_enumerate(const lit_test *t, int ti, const matoms *at, const mdomain *dom,
                     const mlimits *lim, const unsigned char *observed, mterms *ts,
                     mthread_traces *out, char *err, size_t errlen)
{
    const lit_thread *th = &t->th[ti];
    walker w = { .t = t,
                 .th = th,
                 .ti = ti,
                 .dom = dom,
                 .at = at,
                 .lim = lim,
                 .ts = ts,
                 .out = out,
                 .err = err,
                 .errlen = errlen };
    w.rw = (th->nregs + 63) / 64 ? (th->nregs + 63) / 64 : 1;
    compute_liveness(&w, observed);
    memset(out, 0, sizeof *out);
    w.ev = xmalloc((size_t)(TW * 64) * sizeof *w.ev);
    w.forks = xcalloc((size_t)(th->nins ? th->nins : 1), sizeof *w.forks);
    w.why = xcalloc((size_t)(th->nins ? th->nins : 1), 1);
    wstate s;
    s.regs = xmalloc((size_t)(th->nregs ? th->nregs : 1) * sizeof *s.regs);
    s.taint = xcalloc((size_t)(th->nregs ? th->nregs : 1), sizeof *s.taint);
    s.back = xcalloc((size_t)(th->nins ? th->nins : 1), sizeof *s.back);
    for (int r = 0; r < th->nregs; r++) s.regs[r] = k64(&w, (uint64_t)th->reg_init[r]);
    bits ctrl = { { 0 } };
    walk(&w, 0, s, ctrl, 0);
    free(w.ev);
    free(w.dep);
    free(w.vis);
    free(w.live);
    free(w.head);
    free(w.guard);
    free(w.forks);
    free(w.why);
    if (w.failed) {
        traces_free(out);
        return w.timed_out ? -2 : w.mem_out ? -3 : -1;
    }
    return 0;
}

void traces_free(mthread_traces *tt)
{
    for (int i = 0; i < tt->ntr; i++) {
        free(tt->tr[i].ev);
        free(tt->tr[i].dep);
        free(tt->tr[i].regs);
        free(tt->tr[i].guard);
    }
    free(tt->tr);
    tt->tr = NULL;
    tt->ntr = 0;
}
