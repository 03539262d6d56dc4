/* hw/emit_thread.c — one litmus thread as one inline-PTX block.
 *
 * The block declares the thread's registers (named after the litmus registers), gives them
 * their initial values, then runs the instructions in program order with their exact
 * qualifiers (ISA §9.7.8.8 ld, §9.7.8.11 st, §9.7.12.5 atom, §9.7.12.6 red, §9.7.12.4 fence,
 * §9.7.12.1 barrier, §9.7.9.3 tex), and finally copies the observed registers to the asm's
 * outputs.  Labels carry "%=" (unique per asm statement), so two copies of a block never
 * clash.  Per-instance addresses, texture handles and texel indices come in as inputs. */
#include "hw/hw_int.h"
#include "base/sbuf.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { IN_ADDR, IN_TEX, IN_TEXI };

typedef struct {
    const hw_plan *p;
    const lit_test *t;
    int th;
    const lit_thread *T;
    sbuf a;                                 /* the asm template, one C string literal per line */
    int nout, out_obs[HW_MAX_ASM_OPERANDS]; /* outputs: fixed before any input is numbered */
    int nin, in_kind[HW_MAX_ASM_OPERANDS], in_sym[HW_MAX_ASM_OPERANDS];
    char *err;
    size_t errlen;
    int failed;
} ectx;

/* Operand number of an input, added on first use. */
static int input(ectx *c, int kind, int sym)
{
    for (int i = 0; i < c->nin; i++)
        if (c->in_kind[i] == kind &&
            (kind == IN_TEX ? c->p->sym_map[c->in_sym[i]] == c->p->sym_map[sym]
                            : c->in_sym[i] == sym))
            return c->nout + i;
    if (c->nout + c->nin >= HW_MAX_ASM_OPERANDS) {
        if (!c->failed)
            hw_refuse(c->err, c->errlen, c->t->file, 1, 1,
                      "found thread %s with more than %d "
                      "addresses and observed registers, expected fewer (inline asm operands)",
                      c->T->name, HW_MAX_ASM_OPERANDS);
        c->failed = 1;
        return 0;
    }
    c->in_kind[c->nin] = kind, c->in_sym[c->nin] = sym;
    return c->nout + c->nin++;
}

static void reg_name(const ectx *c, int r, char *buf, size_t len)
{
    char clean[32];   /* the register number keeps truncated names apart */
    size_t n = 0;
    for (const char *s = c->T->regs[r]; *s && n + 1 < sizeof clean; s++)
        clean[n++] =
            (char)((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9')
                       ? *s
                       : '_');
    clean[n] = 0;
    snprintf(buf, len, "%%%%lr%d_%s", r, clean);
}

/* A value operand in a context of width w (for immediates). */
static void value(ectx *c, const lit_opnd *o, int w, char *buf, size_t len)
{
    if (o->k == OPD_REG) reg_name(c, o->reg, buf, len);
    else if (o->k == OPD_SYM) snprintf(buf, len, "%%%d", input(c, IN_ADDR, o->sym));
    else if (o->k == OPD_NONE) snprintf(buf, len, "_");
    else if (w == HW_W_PRED) snprintf(buf, len, "%d", o->imm != 0);
    else {
        int64_t v = o->imm;
        int bits = w ? w : 64;
        int64_t lo = bits == 64 ? INT64_MIN : -((int64_t)1 << (bits - 1));
        if (v < 0 && v >= lo) snprintf(buf, len, "%lld", (long long)v);
        else
            snprintf(buf, len, "%llu",
                     (unsigned long long)(bits == 64 ? (uint64_t)v
                                                     : (uint64_t)v & ((1ull << bits) - 1)));
    }
}

static int opnd_width(const ectx *c, const lit_opnd *o)
{
    return o->k == OPD_REG ? c->p->reg_w[c->th][o->reg] : o->k == OPD_SYM ? 64 : 0;
}

/* Appends one PTX line (already in template syntax) with an optional guard. */
static void line(ectx *c, const lit_insn *in, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void line(ectx *c, const lit_insn *in, const char *fmt, ...)
{
    char body[512], g[64] = "";
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(body, sizeof body, fmt, ap);
    va_end(ap);
    if (in && in->guard >= 0) {
        char r[56];
        reg_name(c, in->guard, r, sizeof r);
        snprintf(g, sizeof g, "@%s%s ", in->guard_neg ? "!" : "", r);
    }
    sb_add(&c->a, "        \"\\t%s%s\\n\"\n", g, body);
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
    else if (in->sem == SEM_WEAK) buf[0] = 0;
    else snprintf(buf, len, ".%s.%s", hw_sem_name(in->sem), hw_scope_name(in->scope));
    return buf;
}

static void addr(ectx *c, const lit_insn *in, char *buf, size_t len)
{
    if (in->addr.k == OPD_SYM) snprintf(buf, len, "[%%%d]", input(c, IN_ADDR, in->addr.sym));
    else {
        char r[56];
        reg_name(c, in->addr.reg, r, sizeof r);
        snprintf(buf, len, "[%s]", r);
    }
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
        value(c, &in->dst[0], 32, v[0], sizeof v[0]);
        int tx = input(c, IN_TEX, in->addr.sym), ti = input(c, IN_TEXI, in->addr.sym);
        line(c, in, "tex.1d.v4.u32.s32 {%s, %%%%t_w1, %%%%t_w2, %%%%t_w3}, [%%%d, {%%%d}];", v[0],
             tx, ti);
        return;
    }
    addr(c, in, a, sizeof a);
    sem_scope(in, ss, sizeof ss);
    if (in->k == LI_LD) {
        value(c, &in->dst[0], w, v[0], sizeof v[0]);
        line(c, in, "ld%s.global.%s %s, %s;", ss, tn, v[0], a);
        return;
    }
    if (in->k == LI_ST) {
        value(c, &in->src[0], w, v[0], sizeof v[0]);
        line(c, in, "st%s.global.%s %s, %s;", ss, tn, a, v[0]);
        return;
    }
    for (int k = 0; k < in->nsrc && k < 2; k++) value(c, &in->src[k], w, v[1 + k], sizeof v[1 + k]);
    isa_atom_op op = in->aop;
    if (op == ISA_ATOM_SUB) {
        /* PTX has no atom.sub/red.sub: add the negated operand (the litmus dialect's sub) */
        op = ISA_ATOM_ADD;
        if (in->src[0].k == OPD_IMM) {
            lit_opnd neg = in->src[0];
            neg.imm = -neg.imm;
            value(c, &neg, w, v[1], sizeof v[1]);
        } else {
            line(c, NULL, "neg.s%d %s, %s;", w, tmp_name(w, 0), v[1]);
            snprintf(v[1], sizeof v[1], "%s", tmp_name(w, 0));
        }
    }
    if (in->k == LI_RED) {
        line(c, in, "red%s.global.%s.%s %s, %s;", ss, isa_atom_name(op), tn, a, v[1]);
        return;
    }
    value(c, &in->dst[0], w, v[0], sizeof v[0]);
    if (op == ISA_ATOM_CAS)
        line(c, in, "atom%s.global.cas.%s %s, %s, %s, %s;", ss, tn, v[0], a, v[1], v[2]);
    else line(c, in, "atom%s.global.%s.%s %s, %s, %s;", ss, isa_atom_name(op), tn, v[0], a, v[1]);
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
        value(c, &in->src[k], W, v[k], sizeof v[k]);
        int wk = k ? wb : wa;
        if (wk && wk < W) {
            line(c, NULL, "cvt.s%d.s%d %s, %s;", W, wk, tmp_name(W, k), v[k]);
            snprintf(v[k], sizeof v[k], "%s", tmp_name(W, k));
        }
    }
    label_ref(c, in->target, l, sizeof l);
    line(c, NULL, "setp.%s.s%d %%%%t_p, %s, %s;", cmp[in->cmp], W, v[0], v[1]);
    line(c, NULL, "@%%%%t_p bra %s;", l);
}

static void emit_alu(ectx *c, const lit_insn *in)
{
    char mn[96], why[400], ops[400] = "", v[64];
    int dw[2], sw[4];
    hw_alu_mnemonic(&in->alu, mn, sizeof mn, why, sizeof why); /* checked by the plan */
    hw_alu_widths(&in->alu, in->ndst, in->nsrc, dw, sw, why, sizeof why);
    size_t n = 0;
    for (int k = 0; k < in->ndst; k++) {
        value(c, &in->dst[k], dw[k], v, sizeof v);
        n += (size_t)snprintf(ops + n, sizeof ops - n, "%s%s", k ? "|" : "", v);
    }
    for (int k = 0; k < in->nsrc && n < sizeof ops; k++) {
        value(c, &in->src[k], sw[k], v, sizeof v);
        n += (size_t)snprintf(ops + n, sizeof ops - n, ", %s", v);
    }
    line(c, in, "%s %s;", mn, ops);
}

/* §9.7.12.1: the harness runs each litmus thread of a CTA in wpr whole warps, so the
 * participants of a barrier are 32 * wpr threads per litmus thread that uses it. */
static void emit_bar(ectx *c, const lit_insn *in)
{
    int id = (int)in->src[0].imm, parts = c->p->bar_parts[c->p->role_cta[c->th] * 16 + id];
    line(c, in, "barrier.%s %d, %d;", in->bar == BAR_ARRIVE ? "arrive" : "sync", id,
         32 * c->p->wpr * parts);
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
        if (in->fence == FENCE_PROXY_ALIAS) line(c, in, "%s;", fence[2]);
        else line(c, in, "%s%s;", fence[in->fence == FENCE_SC ? 0 : 1], hw_scope_name(in->scope));
        break;
    case LI_BAR: emit_bar(c, in); break;
    case LI_ALU: emit_alu(c, in); break;
    case LI_BRANCH: emit_branch(c, in); break;
    case LI_GOTO:
        label_ref(c, in->target, l, sizeof l);
        line(c, in, "bra %s;", l);
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
        reg_name(c, k, r, sizeof r);
        sb_add(&c->a, "        \"\\t.reg .%s %s;\\n\"\n", reg_type(w), r);
    }
    for (int k = 0; k < c->T->nregs; k++) {
        int w = c->p->reg_w[c->th][k], s = c->p->reg_addr[c->th][k];
        lit_opnd init = { .k = s >= 0 ? OPD_SYM : OPD_IMM, .sym = s, .imm = c->T->reg_init[k] };
        char v[64];
        reg_name(c, k, r, sizeof r);
        value(c, &init, w, v, sizeof v);
        if (w == HW_W_PRED) line(c, NULL, "mov.pred %s, %s;", r, v);
        else line(c, NULL, "mov.b%d %s, %s;", w, r, v);
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
        if (T->ins[j].k == LI_NOP) continue;
        comment(c, &T->ins[j], j);
        emit_insn(c, &T->ins[j]);
    }
    sb_add(&c->a, "        \"hwL%%=_end:\\n\"\n");
    free(target);
    char r[56];
    for (int i = 0; i < c->p->nobs; i++) {
        const hw_obs *o = &c->p->obs[i];
        if (o->k != OBS_REG || o->thread != c->th) continue;
        int w = c->p->reg_w[c->th][o->reg], n = 0;
        while (c->out_obs[n] != i) n++;
        reg_name(c, o->reg, r, sizeof r);
        if (w == HW_W_PRED) line(c, NULL, "selp.u64 %%%d, 1, 0, %s;", n, r);
        else if (w == 64) line(c, NULL, "mov.b64 %%%d, %s;", n, r);
        else line(c, NULL, "cvt.u64.u%d %%%d, %s;", w, n, r);
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
        if (c->in_kind[k] == IN_ADDR)
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
    emit_regs(&c);
    emit_body(&c);
    sbuf f = { 0 };
    if (!c.failed) emit_wrapper(&c, &f);
    free(c.a.s);
    if (c.failed) {
        free(f.s);
        return NULL;
    }
    return f.s;
}
