/* model/term_isa.c — the register computations and atomic operations that litmus tests compute
 * on read values, as terms (model/term.h): integer add, sub, mul.lo, and, or, xor, not, shl,
 * shr, neg, min, max, setp, selp, mov and cvt between integer types, and atom/red on integers
 * (add sub exch cas and or xor min max inc dec mul), f32 add (§9.7.12.5: round to nearest
 * even) and exch/cas on floats.  Each form is written from the evaluation function of ptx/isa.c
 * it stands for (named at each case), on 64-bit terms as that function computes on uint64_t;
 * tests/test_terms.c checks every form against isa_eval / isa_atom_apply on edge and random
 * values.  Anything else returns -1 and the caller (model/traces.c) makes its operands
 * concrete, so ptx/isa.c stays the one definition of what an instruction computes. */
#include "model/term_isa.h"
#include <string.h>


static int int_type(isa_type t)
{
    return t == ISA_T_PRED || (t >= ISA_T_B8 && t <= ISA_T_B64) ||
           (t >= ISA_T_U8 && t <= ISA_T_S64);
}

/* ext(t, v) of ptx/isa.c: sign- or zero-extended from t's bits (v a 64-bit term) */
static int ext(mterms *s, isa_type t, int v)
{
    unsigned n = isa_type_bits(t);
    if (n >= 64) return v;
    int low = mt_extract(s, n, 0, v);
    return mt_op1(s, isa_type_is_signed(t) ? MT_SEXT : MT_ZEXT, 64, low);
}

static int k64(mterms *s, uint64_t v) { return mt_const(s, 64, v); }
static int b64(mterms *s, int b) { return mt_op1(s, MT_ZEXT, 64, b); }   /* Boolean as 0/1 */

/* a < b on values extended as t (lt_t) */
static int lt_t(mterms *s, isa_type t, int uns, int a, int b)
{
    return mt_op2(s, isa_type_is_signed(t) && !uns ? MT_SLT : MT_ULT, a, b);
}

/* setp's comparison (cmp_t, outcome): integer operands only */
static int cmp_term(mterms *s, const isa_insn *in, int a, int b)
{
    isa_type t = in->type2;
    int uns = in->cmp >= ISA_CMP_LO && in->cmp <= ISA_CMP_HS;
    a = ext(s, t, a), b = ext(s, t, b);
    int lt = lt_t(s, t, uns, a, b), gt = lt_t(s, t, uns, b, a), eq = mt_op2(s, MT_EQ, a, b);
    switch (in->cmp) {
    case ISA_CMP_EQ: return eq;
    case ISA_CMP_NE: return mt_not1(s, eq);
    case ISA_CMP_LT: case ISA_CMP_LO: return lt;
    case ISA_CMP_LE: case ISA_CMP_LS: return mt_not1(s, gt);
    case ISA_CMP_GT: case ISA_CMP_HI: return gt;
    case ISA_CMP_GE: case ISA_CMP_HS: return mt_not1(s, lt);
    default: return -1;
    }
}

/* boolop(op, t, c) of ptx/isa.c on Booleans */
static int boolop(mterms *s, int op, int t, int c)
{
    switch (op) {
    case ISA_BOOL_AND: return mt_and1(s, t, c);
    case ISA_BOOL_OR: return mt_or1(s, t, c);
    case ISA_BOOL_XOR: return mt_op2(s, MT_XOR, t, c);
    default: return t;
    }
}

static int bit0(mterms *s, int v) { return mt_extract(s, 1, 0, v); }

/* shl/shr (ev_shl, ev_shr): the amount is the low 32 bits of b */
static int shift(mterms *s, const isa_insn *in, int left, int a, int b)
{
    unsigned n = isa_type_bits(in->type);
    int amt = mt_mask(s, b, 32), big = mt_not1(s, mt_op2(s, MT_ULT, amt, k64(s, n)));
    if (left) return mt_ite(s, big, k64(s, 0), mt_mask(s, mt_op2(s, MT_SHL, a, amt), n));
    int x = ext(s, in->type, a);
    if (isa_type_is_signed(in->type))
        return mt_mask(s, mt_op2(s, MT_ASHR, x, mt_ite(s, big, k64(s, 63), amt)), n);
    return mt_ite(s, big, k64(s, 0), mt_mask(s, mt_op2(s, MT_LSHR, x, amt), n));
}

int mt_isa_eval(mterms *s, const isa_insn *in, const int *src, int *dst)
{
    const isa_opinfo *op = &isa_ops[in->op];
    const char *name = op->name, *mode = op->mode;
    if (op->cls != ISA_CLASS_PURE || !int_type(in->type)) return -1;
    unsigned n = isa_type_bits(in->type);
    int a = src[0], b = op->nsrc > 1 ? src[1] : -1;
    if (!strcmp(name, "add") && !mode && !(in->mods & ISA_M_SAT))         /* ev_add */
        dst[0] = mt_mask(s, mt_op2(s, MT_ADD, a, b), n);
    else if (!strcmp(name, "sub") && !mode && !(in->mods & ISA_M_SAT))    /* ev_sub */
        dst[0] = mt_mask(s, mt_op2(s, MT_SUB, a, b), n);
    else if (!strcmp(name, "mul") && mode && !strcmp(mode, "lo"))         /* ev_mul_lo */
        dst[0] = mt_mask(s, mt_op2(s, MT_MUL, a, b), n);
    else if (!strcmp(name, "and") && !mode)                               /* ev_and */
        dst[0] = mt_mask(s, mt_op2(s, MT_AND, a, b), n);
    else if (!strcmp(name, "or") && !mode)                                /* ev_or */
        dst[0] = mt_mask(s, mt_op2(s, MT_OR, a, b), n);
    else if (!strcmp(name, "xor") && !mode)                               /* ev_xor */
        dst[0] = mt_mask(s, mt_op2(s, MT_XOR, a, b), n);
    else if (!strcmp(name, "not") && !mode)                               /* ev_not */
        dst[0] = mt_mask(s, mt_op1(s, MT_NOT, 64, a), n);
    else if (!strcmp(name, "neg") && !mode)                               /* ev_neg */
        dst[0] = mt_mask(s, mt_op1(s, MT_NEG, 64, a), n);
    else if ((!strcmp(name, "shl") || !strcmp(name, "shr")) && !mode)     /* ev_shl, ev_shr */
        dst[0] = shift(s, in, name[2] == 'l', a, b);
    else if ((!strcmp(name, "min") || !strcmp(name, "max")) && !mode &&
             !(in->mods & ISA_M_RELU)) {                                  /* ev_min, ev_max */
        int x = ext(s, in->type, a), y = ext(s, in->type, b);
        int first = name[1] == 'i' ? lt_t(s, in->type, 0, x, y) : lt_t(s, in->type, 0, y, x);
        dst[0] = mt_mask(s, mt_ite(s, first, x, y), n);
    } else if (!strcmp(name, "setp") && !mode && int_type(in->type2)) {  /* ev_setp */
        int t = cmp_term(s, in, a, b);
        if (t < 0) return -1;
        int c = in->boolop ? bit0(s, src[2]) : s->F;
        dst[0] = b64(s, boolop(s, in->boolop, t, c));
        if (in->mods & ISA_M_PAIR) dst[1] = b64(s, boolop(s, in->boolop, mt_not1(s, t), c));
    } else if (!strcmp(name, "selp") && !mode)                            /* ev_selp */
        dst[0] = mt_mask(s, mt_ite(s, bit0(s, src[2]), a, b), n);
    else if (!strcmp(name, "mov") && !mode && !in->aux)                   /* ev_mov */
        dst[0] = mt_mask(s, a, n);
    else if (!strcmp(name, "cvt") && !mode && int_type(in->type2) &&
             !(in->mods & ISA_M_SAT))                                     /* ev_cvt_ii */
        dst[0] = mt_mask(s, ext(s, in->type2, a), n);
    else return -1;
    return 0;
}

int mt_atom_apply(mterms *s, isa_atom_op op, isa_type t, int old, int b, int c,
                  int failed_cas_writes, int *newv, int *wcond)
{
    if (t == ISA_T_NONE) t = ISA_T_S64;
    unsigned n = isa_type_bits(t) > 64 ? 64 : isa_type_bits(t);
    *wcond = s->T;
    if (isa_type_is_float(t) && !(op == ISA_ATOM_EXCH || op == ISA_ATOM_CAS ||
                                  (op == ISA_ATOM_ADD && t == ISA_T_F32)))
        return -1;   /* atom_float: f64 and half adds, float min/max stay concrete */
    if (!isa_type_is_float(t) && (!int_type(t) || op == ISA_ATOM_DIV)) return -1;
    old = mt_mask(s, old, n), b = mt_mask(s, b, n), c = mt_mask(s, c, n);
    int xo = ext(s, t, old), xb = ext(s, t, b), r;
    switch (op) {
    case ISA_ATOM_ADD:
        if (t == ISA_T_F32) {   /* atom_float -> ev_fadd: RN, canonical NaN */
            r = mt_op1(s, MT_ZEXT, 64,
                       mt_op2(s, MT_FADD32, mt_extract(s, 32, 0, old), mt_extract(s, 32, 0, b)));
            break;
        }
        r = mt_op2(s, MT_ADD, old, b);
        break;
    case ISA_ATOM_SUB: r = mt_op2(s, MT_SUB, old, b); break;
    case ISA_ATOM_EXCH: r = b; break;
    case ISA_ATOM_CAS:
        *wcond = mt_op2(s, MT_EQ, old, b);
        if (failed_cas_writes) { r = mt_ite(s, *wcond, c, old); *wcond = s->T; }
        else r = c;
        break;
    case ISA_ATOM_AND: r = mt_op2(s, MT_AND, old, b); break;
    case ISA_ATOM_OR: r = mt_op2(s, MT_OR, old, b); break;
    case ISA_ATOM_XOR: r = mt_op2(s, MT_XOR, old, b); break;
    case ISA_ATOM_MIN: r = mt_ite(s, lt_t(s, t, 0, xb, xo), b, old); break;
    case ISA_ATOM_MAX: r = mt_ite(s, lt_t(s, t, 0, xo, xb), b, old); break;
    case ISA_ATOM_INC:
        r = mt_ite(s, mt_ule(s, b, old), k64(s, 0), mt_op2(s, MT_ADD, old, k64(s, 1)));
        break;
    case ISA_ATOM_DEC:
        r = mt_ite(s, mt_or1(s, mt_op2(s, MT_EQ, old, k64(s, 0)), mt_op2(s, MT_ULT, b, old)), b,
                   mt_op2(s, MT_SUB, old, k64(s, 1)));
        break;
    case ISA_ATOM_MUL: r = mt_op2(s, MT_MUL, old, b); break;
    default: return -1;
    }
    *newv = mt_mask(s, r, n);
    return 0;
}
