/* hw/emit_thread.c — one litmus thread as one inline-PTX block.
 *
 * The block declares the thread's registers (named after the litmus registers), gives them
 * their initial values, then runs the instructions in program order with their exact
 * qualifiers (ISA §9.7.8.8 ld, §9.7.8.11 st, §9.7.12.5 atom, §9.7.12.6 red, §9.7.12.4 fence,
 * §9.7.12.1 barrier, §9.7.9.3 tex), and finally copies the observed registers to the asm's
 * outputs.  Labels carry "%=" (unique per asm statement), so two copies of a block never
 * clash.  Per-instance addresses, texture handles and texel indices come in as inputs. */
#include "hw/emit_int.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int opnd_width(const ectx *c, const lit_opnd *o)
{
    return o->k == OPD_REG ? c->p->reg_w[c->th][o->reg] : o->k == OPD_SYM ? 64 : 0;
}

static void comment(ectx *c, const lit_insn *in, int j)
{
    char esc[400];
    hw_c_escape(esc, sizeof esc, in->text ? in->text : "", 1);
    sb_add(&c->a, "        \"\\t// %s #%d (line %d): %s\\n\"\n", c->T->name, j, in->line, esc);
}

static const char *sem_scope(const lit_insn *in, char *buf, size_t len)
{
    if (in->volatile_ && (in->k == LI_LD || in->k == LI_ST)) snprintf(buf, len, ".volatile");
    else if (in->mmio) snprintf(buf, len, ".mmio.relaxed.sys");   /* §8.4.1, §9.7.8.8 */
    else if (in->sem == SEM_WEAK) buf[0] = 0;
    else snprintf(buf, len, ".%s.%s", hw_sem_name(in->sem), hw_scope_name(in->scope));
    return buf;
}

static const char *tmp_name(int w, int k)
{
    static const char *const n[3][2] = { { "%%t_h0", "%%t_h1" },
                                         { "%%t_w0", "%%t_w1" },
                                         { "%%t_d0", "%%t_d1" } };
    return n[w == 16 ? 0 : w == 32 ? 1 : 2][k];
}

/* ld/st/atom/red; tex for texture-proxy loads (§9.7.9.3 tex on a texture object). */
static void emit_mem(ectx *c, const lit_insn *in)
{
    char why[400], ss[32], a[80], v[3][64];
    isa_type ty = hw_access_type(c->p, in, why, sizeof why);
    int w = hw_type_width(ty);
    const char *tn = isa_type_name(ty);
    if (in->k == LI_LD && hw_eff_proxy(c->t, in) == PROXY_TEXTURE) {
        hw_em_value(c, &in->dst[0], 32, v[0], sizeof v[0]);
        int tx = hw_em_input(c, IN_TEX, in->addr.sym), ti = hw_em_input(c, IN_TEXI, in->addr.sym);
        hw_em_line(c, in, "tex.1d.v4.u32.s32 {%s, %%%%t_w1, %%%%t_w2, %%%%t_w3}, [%%%d, {%%%d}];",
                   v[0], tx, ti);
        return;
    }
    hw_em_addr(c, in, a, sizeof a);
    sem_scope(in, ss, sizeof ss);
    const char *sp = hw_em_space(c, in);
    if (in->k == LI_LD) {
        hw_em_value(c, &in->dst[0], w, v[0], sizeof v[0]);
        hw_em_line(c, in, "ld%s%s.%s %s, %s;", ss, sp, tn, v[0], a);
        return;
    }
    if (in->k == LI_ST) {
        hw_em_value(c, &in->src[0], w, v[0], sizeof v[0]);
        hw_em_line(c, in, "st%s%s.%s %s, %s;", ss, sp, tn, a, v[0]);
        return;
    }
    for (int k = 0; k < in->nsrc && k < 2; k++)
        hw_em_value(c, &in->src[k], w, v[1 + k], sizeof v[1 + k]);
    isa_atom_op op = in->aop;
    if (op == ISA_ATOM_SUB) {
        /* PTX has no atom.sub/red.sub: add the negated operand (the litmus dialect's sub) */
        op = ISA_ATOM_ADD;
        if (in->src[0].k == OPD_IMM) {
            lit_opnd neg = in->src[0];
            neg.imm = -neg.imm;
            hw_em_value(c, &neg, w, v[1], sizeof v[1]);
        } else {
            hw_em_line(c, NULL, "neg.s%d %s, %s;", w, tmp_name(w, 0), v[1]);
            snprintf(v[1], sizeof v[1], "%s", tmp_name(w, 0));
        }
    }
    if (in->k == LI_RED) {
        hw_em_line(c, in, "red%s%s.%s.%s %s, %s;", ss, sp, isa_atom_name(op), tn, a, v[1]);
        return;
    }
    hw_em_value(c, &in->dst[0], w, v[0], sizeof v[0]);
    if (op == ISA_ATOM_CAS)
        hw_em_line(c, in, "atom%s%s.cas.%s %s, %s, %s, %s;", ss, sp, tn, v[0], a, v[1], v[2]);
    else
        hw_em_line(c, in, "atom%s%s.%s.%s %s, %s, %s;", ss, sp, isa_atom_name(op), tn, v[0], a,
                   v[1]);
}

static void label_ref(ectx *c, int target, char *buf, size_t len)
{
    if (target >= c->T->nins) snprintf(buf, len, "hwL%%=_end");
    else snprintf(buf, len, "hwL%%=_%d", target);
}

/* beq/bne/blt/bgt/ble/bge a, b, L: a signed comparison at the operands' width, then bra. */
static void emit_branch(ectx *c, const lit_insn *in)
{
    static const char *const cmp[] = { "eq", "ne", "lt", "gt", "le", "ge" };
    int wa = opnd_width(c, &in->src[0]), wb = opnd_width(c, &in->src[1]);
    int W = wa > wb ? wa : wb;
    if (!W) W = 32;
    if (wa == HW_W_PRED || wb == HW_W_PRED) {
        hw_refuse(c->err, c->errlen, c->t->file, in->line, in->col,
                  "found a predicate in a "
                  "compare-and-branch, expected integer registers");
        c->failed = 1;
        return;
    }
    char v[2][64], l[32];
    for (int k = 0; k < 2; k++) {
        hw_em_value(c, &in->src[k], W, v[k], sizeof v[k]);
        int wk = k ? wb : wa;
        if (wk && wk < W) {
            hw_em_line(c, NULL, "cvt.s%d.s%d %s, %s;", W, wk, tmp_name(W, k), v[k]);
            snprintf(v[k], sizeof v[k], "%s", tmp_name(W, k));
        }
    }
    label_ref(c, in->target, l, sizeof l);
    hw_em_line(c, NULL, "setp.%s.s%d %%%%t_p, %s, %s;", cmp[in->cmp], W, v[0], v[1]);
    hw_em_line(c, NULL, "@%%%%t_p bra %s;", l);
}

static void emit_alu(ectx *c, const lit_insn *in)
{
    char mn[96], why[400], ops[400] = "", v[64];
    int dw[2], sw[4];
    hw_alu_mnemonic(&in->alu, mn, sizeof mn, why, sizeof why); /* checked by the plan */
    hw_alu_widths(&in->alu, in->ndst, in->nsrc, dw, sw, why, sizeof why);
    size_t n = 0;
    for (int k = 0; k < in->ndst; k++) {
        hw_em_value(c, &in->dst[k], dw[k], v, sizeof v);
        n += (size_t)snprintf(ops + n, sizeof ops - n, "%s%s", k ? "|" : "", v);
    }
    for (int k = 0; k < in->nsrc && n < sizeof ops; k++) {
        hw_em_value(c, &in->src[k], sw[k], v, sizeof v);
        n += (size_t)snprintf(ops + n, sizeof ops - n, ", %s", v);
    }
    hw_em_line(c, in, "%s %s;", mn, ops);
}

/* §9.7.12.1: the harness runs each litmus thread of a CTA in wpr whole warps, so a barrier
 * waits for 32 * wpr threads per litmus thread it counts (the threads that use it, or the
 * test's count where it can never complete for all of them).  bar.red (only in that case) keeps
 * its reduction and predicate. */
static void emit_bar(ectx *c, const lit_insn *in)
{
    int64_t v = 0;
    hw_const_opnd(c->T, &in->src[0], &v);   /* a register holding a constant: hw/plan.c */
    int id = (int)v, want = c->p->bar_want[c->p->role_cta[c->th] * 16 + id];
    if (in->bar == BAR_RED) {
        static const char *const op[] = { "popc.u32", "and.pred", "or.pred" };
        char d[64], q[64];
        hw_em_value(c, &in->dst[0], in->bar_op == BRED_POPC ? 32 : HW_W_PRED, d, sizeof d);
        hw_em_value(c, &in->bar_pred, HW_W_PRED, q, sizeof q);
        hw_em_line(c, in, "barrier.red.%s %s, %d, %d, %s%s;", op[in->bar_op], d, id,
                   32 * c->p->wpr * want, in->bar_pred_neg ? "!" : "", q);
        return;
    }
    hw_em_line(c, in, "barrier.%s %d, %d;", in->bar == BAR_ARRIVE ? "arrive" : "sync", id,
               32 * c->p->wpr * want);
}

static void emit_insn(ectx *c, const lit_insn *in)
{
    char l[32];
    static const char *const fence[] = { "fence.sc.", "fence.acq_rel.", "fence.proxy.alias" };
    switch (in->k) {
    case LI_LD:
    case LI_ST:
    case LI_ATOM:
    case LI_RED: emit_mem(c, in); break;
    case LI_FENCE:
        if (in->fence == FENCE_PROXY_ALIAS) hw_em_line(c, in, "%s;", fence[2]);
        else
            hw_em_line(c, in, "%s%s;", fence[in->fence == FENCE_SC ? 0 : 1],
                       hw_scope_name(in->scope));
        break;
    case LI_BAR: emit_bar(c, in); break;
    case LI_ALU: emit_alu(c, in); break;
    case LI_BRANCH: emit_branch(c, in); break;
    case LI_GOTO:
        label_ref(c, in->target, l, sizeof l);
        hw_em_line(c, in, "bra %s;", l);
        break;
    default: break;
    }
}

static const char *reg_type(int w)
{
    return w == HW_W_PRED ? "pred" : w == 16 ? "b16" : w == 32 ? "b32" : "b64";
}

/* Declarations and initial values (§8.2.6: registers not initialised by the test start at 0). */
static void emit_regs(ectx *c)
{
    sb_add(&c->a, "        \"\\t.reg .pred %%%%t_p;\\n\\t.reg .b16 %%%%t_h<2>;\\n\"\n"
                  "        \"\\t.reg .b32 %%%%t_w<4>;\\n\\t.reg .b64 %%%%t_d<2>;\\n\"\n");
    char r[56];
    for (int k = 0; k < c->T->nregs; k++) {
        int w = c->p->reg_w[c->th][k];
        hw_em_reg(c, k, r, sizeof r);
        sb_add(&c->a, "        \"\\t.reg .%s %s;\\n\"\n", reg_type(w), r);
    }
    for (int k = 0; k < c->T->nregs; k++) {
        int w = c->p->reg_w[c->th][k], s = c->p->reg_addr[c->th][k];
        lit_opnd init = { .k = s >= 0 ? OPD_SYM : OPD_IMM, .sym = s, .imm = c->T->reg_init[k] };
        char v[64];
        hw_em_reg(c, k, r, sizeof r);
        hw_em_value(c, &init, w, v, sizeof v);
        if (w == HW_W_PRED) hw_em_line(c, NULL, "mov.pred %s, %s;", r, v);
        else hw_em_line(c, NULL, "mov.b%d %s, %s;", w, r, v);
    }
}

static void emit_body(ectx *c)
{
    const lit_thread *T = c->T;
    unsigned char *target = calloc((size_t)T->nins + 1, 1);
    if (!target) {
        c->failed = 1;
        hw_refuse(c->err, c->errlen, c->t->file, 1, 1, "out of memory");
        return;
    }
    for (int j = 0; j < T->nins; j++)
        if (T->ins[j].k == LI_BRANCH || T->ins[j].k == LI_GOTO) target[T->ins[j].target] = 1;
    for (int j = 0; j < T->nins && !c->failed; j++) {
        if (target[j]) sb_add(&c->a, "        \"hwL%%=_%d:\\n\"\n", j);
        if (hw_cell_cont(T, j)) continue;   /* emitted with the cell's first instruction */
        if (T->ins[j].k == LI_NOP && !T->ins[j].await) continue;
        comment(c, &T->ins[j], j);
        if (hw_decoded_insn(&T->ins[j])) {
            if (hw_em_async(c, j)) c->failed = 1;
        } else emit_insn(c, &T->ins[j]);
    }
    sb_add(&c->a, "        \"hwL%%=_end:\\n\"\n");
    free(target);
    char r[56];
    for (int i = 0; i < c->p->nobs; i++) {
        const hw_obs *o = &c->p->obs[i];
        if (o->k != OBS_REG || o->thread != c->th) continue;
        int w = c->p->reg_w[c->th][o->reg], n = 0;
        while (c->out_obs[n] != i) n++;
        hw_em_reg(c, o->reg, r, sizeof r);
        if (w == HW_W_PRED) hw_em_line(c, NULL, "selp.u64 %%%d, 1, 0, %s;", n, r);
        else if (w == 64) hw_em_line(c, NULL, "mov.b64 %%%d, %s;", n, r);
        else hw_em_line(c, NULL, "cvt.u64.u%d %%%d, %s;", w, n, r);
    }
}

static void emit_wrapper(ectx *c, sbuf *f)
{
    const hw_plan *p = c->p;
    const lit_thread *T = c->T;
    int cta = p->role_cta[c->th];
    sb_add(f, "/* ---- litmus thread %s: CTA %d, cluster %d (hardware role %d); program order:\n",
           T->name, T->cta, p->cta_cluster[cta], c->th);
    for (int j = 0; j < T->nins; j++) {
        char esc[400];
        hw_c_escape(esc, sizeof esc, T->ins[j].text ? T->ins[j].text : "", 0);
        for (char *s = strstr(esc, "*/"); s; s = strstr(s, "*/")) s[1] = ' ';
        sb_add(f, " *   #%d  %s\n", j, esc);
    }
    sb_add(f,
           " */\nextern \"C\" __device__ __noinline__ void hw_thread_%d(const hw_args &a, unsigned "
           "i)\n{\n",
           c->th);
    if (c->nout) sb_add(f, "    unsigned long long o[%d];\n", c->nout);
    sb_add(f, "    asm volatile(\n        \"{\\n\"\n%s        \"}\\n\"\n        :",
           c->a.s ? c->a.s : "");
    for (int k = 0; k < c->nout; k++) sb_add(f, "%s \"=l\"(o[%d])", k ? "," : "", k);
    sb_add(f, "\n        :");
    for (int k = 0; k < c->nin; k++) {
        int s = c->in_sym[k];
        const char *sep = k ? ",\n         " : "";
        if (c->in_kind[k] == IN_SHCTA)
            sb_add(f, "%s \"r\"(HW_SH(i, %d)) /* %s: shared::cta */", sep,
                   p->loc_shslot[p->sym_loc[s]], c->t->sym[s].name);
        else if (c->in_kind[k] == IN_ADDR)
            sb_add(f, "%s \"l\"(HW_ADDR(i, %d, %d)) /* %s */", sep, p->sym_map[s], p->sym_loc[s],
                   c->t->sym[s].name);
        else if (c->in_kind[k] == IN_TEX)
            sb_add(f, "%s \"l\"(a.tex[%d]) /* texture over mapping %d */", sep, p->sym_map[s],
                   p->sym_map[s]);
        else
            sb_add(f, "%s \"r\"(HW_TEXEL(i, %d)) /* texel of %s */", sep, p->sym_loc[s],
                   c->t->sym[s].name);
    }
    /* an asm statement without operands is "basic" asm, where %% is not an escape */
    if (!c->nout && !c->nin) sb_add(f, " \"r\"(i) /* unused: keeps this an extended asm */");
    sb_add(f, "\n        : \"memory\");\n");
    for (int k = 0; k < c->nout; k++) {
        const hw_obs *o = &p->obs[c->out_obs[k]];
        sb_add(f, "    a.res[(size_t)i * T_NRES + %d] = o[%d];   /* %s */\n", o->slot, k, o->name);
    }
    sb_add(f, "}\n\n");
}

char *hw_emit_thread(const hw_plan *p, int th, char *err, size_t errlen)
{
    ectx c = { .p = p, .t = p->t, .th = th, .T = &p->t->th[th], .err = err, .errlen = errlen };
    /* the outputs come first in the operand numbering: count them before any input */
    for (int i = 0; i < p->nobs; i++)
        if (p->obs[i].k == OBS_REG && p->obs[i].thread == th) c.out_obs[c.nout++] = i;
    if (c.nout > HW_MAX_ASM_OPERANDS / 2) {
        hw_refuse(err, errlen, p->t->file, 1, 1,
                  "found %d observed registers in thread %s, "
                  "expected at most %d",
                  c.nout, c.T->name, HW_MAX_ASM_OPERANDS / 2);
        return NULL;
    }
    c.need_clu = calloc((size_t)p->t->nsym + 1, 1), c.need_gen = calloc((size_t)p->t->nsym + 1, 1);
    if (!c.need_clu || !c.need_gen) {
        free(c.need_clu), free(c.need_gen);
        hw_refuse(err, errlen, p->t->file, 1, 1, "out of memory");
        return NULL;
    }
    emit_regs(&c);
    sbuf head = c.a;   /* declarations, then the shared addresses the body uses, then the body */
    c.a = (sbuf){ 0 };
    emit_body(&c);
    if (!c.failed) {
        hw_em_shared_prologue(&c, &head);
        sb_add(&head, "%s", c.a.s ? c.a.s : "");
    }
    free(c.a.s);
    c.a = head;
    sbuf f = { 0 };
    if (!c.failed) emit_wrapper(&c, &f);
    free(c.a.s), free(c.need_clu), free(c.need_gen);
    if (c.failed) {
        free(f.s);
        return NULL;
    }
    return f.s;
}
