/* hw/plan_regs.c — the width of every litmus register in the generated PTX, and the observed
 * values.  PTX registers are typed (ISA §5.2, §6.4): a register takes the width its uses demand
 * (.pred for guards and setp results, 64 bits for addresses, the instruction type of
 * computations and atomics).  Loads and stores may use a register wider than the access
 * (§9.4.1 "operand size exceeding instruction-type size").  A register needed at two widths is
 * refused rather than converted. */
#include "hw/hw_int.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { B_PRED = 1, B_16 = 2, B_32 = 4, B_64 = 8 };

static int wbit(int w)
{
    return w == HW_W_PRED ? B_PRED : w == 16 ? B_16 : w == 32 ? B_32 : w == 64 ? B_64 : 0;
}
static int bitw(int b) { return b == B_PRED ? HW_W_PRED : b == B_16 ? 16 : b == B_32 ? 32 : 64; }

typedef struct {
    const lit_test *t;
    const hw_plan *p;
    int th;
    int *exact;      /* per register: widths demanded exactly (bit set) */
    int *minw;       /* per register: smallest width a load/store demands */
    int *line, *col; /* where the first exact demand came from */
} regctx;

static void need(regctx *c, const lit_opnd *o, int w, const lit_insn *in)
{
    if (o->k != OPD_REG || !w) return;
    if (!c->exact[o->reg] && in) c->line[o->reg] = in->line, c->col[o->reg] = in->col;
    c->exact[o->reg] |= wbit(w);
}

static void need_min(regctx *c, const lit_opnd *o, int w)
{
    if (o->k == OPD_REG && w > c->minw[o->reg]) c->minw[o->reg] = w;
}

/* Width demands of one instruction; -1 with a refusal for a computation that cannot be
 * re-emitted. */
static int demands(regctx *c, const lit_insn *in, char *err, size_t len)
{
    char why[400];
    if (in->guard >= 0) {
        lit_opnd g = { .k = OPD_REG, .reg = in->guard };
        need(c, &g, HW_W_PRED, in);
    }
    if (in->k == LI_BAR && in->bar == BAR_RED) {   /* §9.7.12.1: .popc.u32 or a predicate */
        need(c, &in->dst[0], in->bar_op == BRED_POPC ? 32 : HW_W_PRED, in);
        need(c, &in->bar_pred, HW_W_PRED, in);
        return 0;
    }
    if (in->mbar) {   /* §9.7.13.15: counts .u32, states .b64, waitComplete .pred */
        if (in->mbar == MB_ARRIVE) need(c, &in->dst[0], 64, in);
        if (in->mbar == MB_TEST || in->mbar == MB_TEST_PARITY) need(c, &in->dst[0], HW_W_PRED, in);
        for (int k = 0; k < in->nsrc && k < 2; k++)
            need(c, &in->src[k], in->mbar == MB_TEST ? 64 : 32, in);
        return 0;
    }
    if (in->async_id) {   /* a copy's hidden register is never emitted; st/red.async's value */
        if (in->src[0].k == OPD_REG && !strncmp(c->t->th[c->th].regs[in->src[0].reg], "cp.", 3))
            return 0;   /* the hidden register of a copy (frontend/litmus_async.c hidden_reg) */
        if (in->k == LI_ST || in->k == LI_RED) need(c, &in->src[0], hw_type_width(in->type), in);
        return 0;
    }
    if (in->k >= LI_LD && in->k <= LI_RED) {
        need(c, &in->addr, 64, in);
        int w = hw_type_width(hw_access_type(c->p, in, why, sizeof why));
        int tex = hw_eff_proxy(c->t, in) == PROXY_TEXTURE;
        if (in->k == LI_LD && !tex) need_min(c, &in->dst[0], w);
        else if (in->k == LI_LD) need(c, &in->dst[0], 32, in);
        else if (in->k == LI_ST) need_min(c, &in->src[0], w);
        else {
            if (in->k == LI_ATOM) need(c, &in->dst[0], w, in);
            for (int k = 0; k < in->nsrc; k++) need(c, &in->src[k], w, in);
        }
    } else if (in->k == LI_ALU) {
        int dw[2], sw[4];
        if (hw_alu_widths(&in->alu, in->ndst, in->nsrc, dw, sw, why, sizeof why))
            return hw_refuse(err, len, c->t->file, in->line, in->col, "%s", why);
        char mn[96];
        if (hw_alu_mnemonic(&in->alu, mn, sizeof mn, why, sizeof why))
            return hw_refuse(err, len, c->t->file, in->line, in->col, "%s", why);
        for (int k = 0; k < in->ndst; k++) need(c, &in->dst[k], dw[k], in);
        for (int k = 0; k < in->nsrc; k++) {
            need(c, &in->src[k], sw[k], in);
            if (in->src[k].k == OPD_SYM && sw[k] != 64)
                return hw_refuse(err, len, c->t->file, in->line, in->col,
                                 "found the address of a "
                                 "location as a %d-bit operand, expected a 64-bit one",
                                 sw[k]);
        }
    } else if (in->k == LI_BRANCH) {
        for (int k = 0; k < 2; k++)
            if (in->src[k].k == OPD_SYM)
                return hw_refuse(err, len, c->t->file, in->line, in->col,
                                 "found an address in a "
                                 "compare-and-branch, expected registers or integers");
    }
    return 0;
}

static int resolve(regctx *c, const lit_thread *T, hw_plan *p, char *err, size_t len)
{
    for (int r = 0; r < T->nregs; r++) {
        int e = c->exact[r], m = c->minw[r];
        if (p->reg_addr[c->th][r] >= 0) {
            if (e & ~B_64)
                return hw_refuse(err, len, c->t->file, c->line[r], c->col[r],
                                 "found register %s, "
                                 "which holds an address, used as a %d-bit value, expected 64 bits",
                                 T->regs[r], bitw(e & ~B_64));
            e = B_64;
        }
        if (e & (e - 1)) {
            int a = e & -e, b = e & ~a;
            return hw_refuse(
                err, len, c->t->file, c->line[r], c->col[r],
                "found register %s of "
                "thread %s used as %s and as %s, expected one width (PTX registers are "
                "typed, §5.2)",
                T->regs[r], T->name,
                a == B_PRED ? ".pred"
                : a == B_16 ? "16-bit"
                : a == B_32 ? "32-bit"
                            : "64-bit",
                (b & -b) == B_16   ? "16-bit"
                : (b & -b) == B_32 ? "32-bit"
                                   : "64-bit");
        }
        int w = e ? bitw(e) : (m > 32 ? m : 32);
        if ((w == HW_W_PRED && m) || (w != HW_W_PRED && w < m))
            return hw_refuse(
                err, len, c->t->file, c->line[r], c->col[r],
                "found register %s of "
                "thread %s (%s) as the value of a %d-bit access, expected a register at "
                "least as wide",
                T->regs[r], T->name,
                w == HW_W_PRED ? ".pred"
                : w == 16      ? "16-bit"
                : w == 32      ? "32-bit"
                               : "64-bit",
                m);
        p->reg_w[c->th][r] = w;
    }
    return 0;
}

int hw_plan_regs(hw_plan *p, const lit_test *t, char *err, size_t len)
{
    p->reg_w = calloc((size_t)t->nth, sizeof *p->reg_w);
    p->reg_addr = calloc((size_t)t->nth, sizeof *p->reg_addr);
    if (!p->reg_w || !p->reg_addr) return hw_refuse(err, len, t->file, 1, 1, "out of memory");
    int rc = 0;
    for (int i = 0; i < t->nth && !rc; i++) {
        const lit_thread *T = &t->th[i];
        size_t n = (size_t)(T->nregs ? T->nregs : 1);
        regctx c = { t,
                     p,
                     i,
                     calloc(n, sizeof(int)),
                     calloc(n, sizeof(int)),
                     calloc(n, sizeof(int)),
                     calloc(n, sizeof(int)) };
        p->reg_w[i] = calloc(n, sizeof(int));
        p->reg_addr[i] = calloc(n, sizeof(int));
        if (!c.exact || !c.minw || !c.line || !c.col || !p->reg_w[i] || !p->reg_addr[i])
            rc = hw_refuse(err, len, t->file, 1, 1, "out of memory");
        for (int r = 0; r < T->nregs && !rc; r++)
            p->reg_addr[i][r] = lit_addr_sym(t, T->reg_init[r]);
        for (int j = 0; j < T->nins && !rc; j++) rc = demands(&c, &T->ins[j], err, len);
        if (!rc) rc = resolve(&c, T, p, err, len);
        free(c.exact), free(c.minw), free(c.line), free(c.col);
    }
    return rc;
}

/* ---------- observed values: the condition's, then `locations [...]`, as verify orders them */

typedef struct {
    hw_plan *p;
    const lit_test *t;
    int oom;
} obsctx;

static void add_obs(obsctx *c, const cond_ref *ref)
{
    hw_plan *p = c->p;
    const lit_test *t = c->t;
    hw_obs o = { 0 };
    o.slot = -1, o.loc = -1;
    if (ref->k == REF_REG) {
        o.k = OBS_REG, o.thread = ref->thread, o.reg = ref->reg;
        snprintf(o.name, sizeof o.name, "%s", ref->name);
    } else if (ref->k == REF_LOC) {
        o.k = OBS_LOC, o.loc = p->sym_loc[ref->sym];
        snprintf(o.name, sizeof o.name, "%s", t->sym[ref->sym].name);
    } else return;
    for (int i = 0; i < p->nobs; i++)
        if (p->obs[i].k == o.k &&
            (o.k == OBS_REG ? p->obs[i].thread == o.thread && p->obs[i].reg == o.reg
                            : p->obs[i].loc == o.loc))
            return;
    hw_obs *n = realloc(p->obs, (size_t)(p->nobs + 1) * sizeof *n);
    if (!n) {
        c->oom = 1;
        return;
    }
    p->obs = n;
    p->obs[p->nobs++] = o;
}

static void add_obs_cb(void *ctx, const cond_ref *ref) { add_obs(ctx, ref); }

static int obs_order(const void *a, const void *b)
{
    const hw_obs *x = a, *y = b;
    if (x->k != y->k) return x->k == OBS_REG ? -1 : 1;
    if (x->k == OBS_REG && x->thread != y->thread) return x->thread - y->thread;
    return strcmp(x->name, y->name);
}

int hw_plan_obs(hw_plan *p, const lit_test *t, char *err, size_t len)
{
    obsctx c = { p, t, 0 };
    if (t->filter)
        return hw_refuse(err, len, t->file, 1, 1,
                         "found a 'filter' (the hardware harness counts every run), "
                         "expected a test without one");
    cond_foreach_ref(t->cond, add_obs_cb, &c);
    for (int i = 0; i < t->nlocations; i++) add_obs(&c, &t->locations[i]);
    if (c.oom) return hw_refuse(err, len, t->file, 1, 1, "out of memory");
    if (p->nobs) qsort(p->obs, (size_t)p->nobs, sizeof *p->obs, obs_order);
    for (int i = 0; i < p->nobs; i++) {
        hw_obs *o = &p->obs[i];
        if (o->k == OBS_LOC) {
            o->bytes = p->loc_bytes[o->loc];
            continue;
        }
        int w = p->reg_w[o->thread][o->reg];
        o->bytes = w == HW_W_PRED ? 1 : w / 8;
        o->slot = p->nres++;
    }
    (void)err, (void)len;
    return 0;
}
