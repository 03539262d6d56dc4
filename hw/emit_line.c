/* hw/emit_line.c — the pieces every emitter of a litmus thread's inline-PTX block writes with
 * (hw/emit_int.h): the asm inputs (numbered on first use), a litmus register's PTX name, a value
 * operand, and one guarded line of the template.  Below hw/emit_thread.c and hw/emit_async.c,
 * which both call it. */
#include "hw/emit_int.h"
#include <stdarg.h>
#include <stdio.h>

/* Operand number of an input, added on first use. */
int hw_em_input(ectx *c, int kind, int sym)
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

void hw_em_reg(const ectx *c, int r, char *buf, size_t len)
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
void hw_em_value(ectx *c, const lit_opnd *o, int w, char *buf, size_t len)
{
    if (o->k == OPD_REG) hw_em_reg(c, o->reg, buf, len);
    else if (o->k == OPD_SYM) snprintf(buf, len, "%%%d", hw_em_input(c, IN_ADDR, o->sym));
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

/* Appends one PTX line (already in template syntax) with an optional guard. */
void hw_em_line(ectx *c, const lit_insn *in, const char *fmt, ...)
{
    char body[512], g[64] = "";
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(body, sizeof body, fmt, ap);
    va_end(ap);
    if (in && in->guard >= 0) {
        char r[56];
        hw_em_reg(c, in->guard, r, sizeof r);
        snprintf(g, sizeof g, "@%s%s ", in->guard_neg ? "!" : "", r);
    }
    sb_add(&c->a, "        \"\\t%s%s\\n\"\n", g, body);
}
