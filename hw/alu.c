/* hw/alu.c — re-emitting the register computations of a litmus thread (add, setp, selp, mov,
 * cvt, ...) as PTX.  The parsed form keeps the decoded instruction (exec/isa.h), not its text;
 * the mnemonic is rebuilt from it and decoded again, and only a computation whose rebuilt
 * mnemonic decodes to the very same instruction is emitted.  The operand widths follow the
 * ISA's operand types (§9.7.1 integer arithmetic, §9.7.5 comparison and selection, §9.7.7 logic
 * and shift, §9.7.8.3 mov, §9.7.8.20 cvt). */
#include "hw/hw_int.h"
#include <stdio.h>
#include <string.h>

/* The computations the harness re-emits: integer and predicate operations whose operand types
 * are fixed by the instruction type. */
static const char *const supported[] = { "add", "sub",  "mul",  "mad", "div", "rem", "abs",  "neg",
                                         "min", "max",  "and",  "or",  "xor", "not", "cnot", "shl",
                                         "shr", "setp", "selp", "mov", "cvt", NULL };

static const char *const cmp_names[ISA_CMP_COUNT] = { "",    "eq",  "ne",  "lt",  "le",
                                                      "gt",  "ge",  "lo",  "ls",  "hi",
                                                      "hs",  "equ", "neu", "ltu", "leu",
                                                      "gtu", "geu", "num", "nan" };
static const char *const bool_names[] = { "", "and", "or", "xor" };

static int is_supported(const char *name)
{
    for (int i = 0; supported[i]; i++)
        if (!strcmp(supported[i], name)) return 1;
    return 0;
}

/* Width code of a type usable in a register computation, 0 when it is not. */
static int alu_width(isa_type t)
{
    if (t == ISA_T_PRED) return HW_W_PRED;
    if (isa_type_is_float(t) || t >= ISA_T_U16X2 || t == ISA_T_B128) return 0;
    int b = (int)isa_type_bits(t);
    return b == 16 || b == 32 || b == 64 ? b : 0;
}

int hw_alu_widths(const isa_insn *in, int ndst, int nsrc, int *dw, int *sw, char *why, size_t len)
{
    const char *name = isa_op_name(in);
    int w = alu_width(in->type), w2 = alu_width(in->type2);
    if (!is_supported(name) || !w || !w2) {
        snprintf(why, len,
                 "found the computation %s.%s, expected an integer or predicate "
                 "computation the harness re-emits (add sub mul mad div rem abs neg min max and "
                 "or xor not cnot shl shr setp selp mov cvt on 16/32/64-bit or .pred types)",
                 name, isa_type_name(in->type));
        return -1;
    }
    for (int k = 0; k < ndst; k++) dw[k] = w;
    for (int k = 0; k < nsrc; k++) sw[k] = w;
    if (in->mods & ISA_M_WIDE) {
        dw[0] = 2 * w;
        if (!strcmp(name, "mad") && nsrc > 2) sw[2] = 2 * w;
    }
    if ((!strcmp(name, "shl") || !strcmp(name, "shr")) && nsrc > 1) sw[1] = 32;
    if (!strcmp(name, "setp")) {
        for (int k = 0; k < ndst; k++) dw[k] = HW_W_PRED;
        for (int k = 0; k < nsrc && k < 2; k++) sw[k] = w2;
        if (nsrc > 2) sw[2] = HW_W_PRED;
    }
    if (!strcmp(name, "selp") && nsrc > 2) sw[2] = HW_W_PRED;
    if (!strcmp(name, "cvt")) sw[0] = w2;
    return 0;
}

static int same_insn(const isa_insn *a, const isa_insn *b)
{
    return a->op == b->op && a->type == b->type && a->type2 == b->type2 && a->mods == b->mods &&
           a->cmp == b->cmp && a->boolop == b->boolop && a->rnd == b->rnd && a->aux == b->aux;
}

int hw_alu_mnemonic(const isa_insn *in, char *buf, size_t len, char *why, size_t whylen)
{
    const isa_opinfo *e = &isa_ops[in->op];
    uint32_t extra = in->mods & ~(ISA_M_LO | ISA_M_HI | ISA_M_WIDE | ISA_M_SAT | ISA_M_PAIR);
    if (extra || in->rnd || in->aux || in->cmp < 0 || in->cmp >= ISA_CMP_COUNT || in->boolop < 0 ||
        in->boolop > 3) {
        snprintf(why, whylen,
                 "found %s with modifiers the harness does not re-emit, expected "
                 "at most .lo/.hi/.wide/.sat, a comparison and a boolean combination",
                 e->name);
        return -1;
    }
    int n = snprintf(buf, len, "%s", e->name);
    if (e->mode) n += snprintf(buf + n, len - (size_t)n, ".%s", e->mode);
    if (in->cmp) n += snprintf(buf + n, len - (size_t)n, ".%s", cmp_names[in->cmp]);
    if (in->boolop) n += snprintf(buf + n, len - (size_t)n, ".%s", bool_names[in->boolop]);
    if (in->mods & ISA_M_SAT) n += snprintf(buf + n, len - (size_t)n, ".sat");
    n += snprintf(buf + n, len - (size_t)n, ".%s", isa_type_name(in->type));
    if (!strcmp(e->name, "cvt"))
        n += snprintf(buf + n, len - (size_t)n, ".%s", isa_type_name(in->type2));
    if (n < 0 || (size_t)n >= len) {
        snprintf(why, whylen, "mnemonic too long");
        return -1;
    }
    isa_insn back;
    char derr[160];
    if (isa_decode(buf, ISA_T_S64, &back, derr, sizeof derr) || !same_insn(&back, in)) {
        snprintf(why, whylen,
                 "found a computation whose PTX spelling '%s' does not decode to "
                 "the same instruction, expected one the harness can re-emit exactly",
                 buf);
        return -1;
    }
    return 0;
}
