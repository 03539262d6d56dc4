/* solver/term_z3.c — the terms of model/term.h as Z3 bit-vectors.  Each operator is the one of
 * mt_apply (model/term.c) in SMT-LIB: shifts by the width or more give 0 (all sign bits for
 * ashr) in both; f32 addition is IEEE-754 round to nearest even on Z3's float32 sort, a NaN
 * result the canonical 0x7fffffff (ptx/isa.c's out32).  tests/test_terms.c evaluates random
 * terms both ways. */
#include "solver/term_z3.h"
#include "base/alloc.h"
#include "ptx/isa.h"
#include <stdio.h>
#include <stdlib.h>

void tz_init(tz_ctx *c, enc *e, const mterms *s)
{
    c->e = e;
    c->s = s;
    c->nmemo = s->nn;
    c->memo = xcalloc((size_t)(s->nn ? s->nn : 1), sizeof *c->memo);
}

void tz_free(tz_ctx *c)
{
    free(c->memo);
    c->memo = NULL;
}

static Z3_sort bv_sort(enc *e, unsigned w) { return Z3_mk_bv_sort(e->z, w); }

static Z3_ast bool_bv(enc *e, Z3_ast b)   /* a Z3 Boolean as a width-1 bit-vector */
{
    return Z3_mk_ite(e->z, b, Z3_mk_unsigned_int64(e->z, 1, bv_sort(e, 1)),
                     Z3_mk_unsigned_int64(e->z, 0, bv_sort(e, 1)));
}

static Z3_ast resize(enc *e, int sgn, unsigned w, unsigned aw, Z3_ast a)
{
    if (w == aw) return a;
    if (w < aw) return Z3_mk_extract(e->z, w - 1, 0, a);
    return sgn ? Z3_mk_sign_ext(e->z, w - aw, a) : Z3_mk_zero_ext(e->z, w - aw, a);
}

static Z3_ast fadd32(enc *e, Z3_ast a, Z3_ast b)
{
    Z3_context z = e->z;
    Z3_sort f32 = Z3_mk_fpa_sort_32(z);
    Z3_ast x = Z3_mk_fpa_to_fp_bv(z, a, f32), y = Z3_mk_fpa_to_fp_bv(z, b, f32);
    Z3_ast r = Z3_mk_fpa_add(z, Z3_mk_fpa_round_nearest_ties_to_even(z), x, y);
    return Z3_mk_ite(z, Z3_mk_fpa_is_nan(z, r), Z3_mk_unsigned_int64(z, 0x7fffffff, bv_sort(e, 32)),
                     Z3_mk_fpa_to_ieee_bv(z, r));
}

static Z3_ast encode(tz_ctx *c, int t);

static Z3_ast op_of(tz_ctx *c, const mt_node *x)
{
    enc *e = c->e;
    Z3_context z = e->z;
    Z3_ast a = x->a >= 0 ? encode(c, x->a) : NULL, b = x->b >= 0 ? encode(c, x->b) : NULL;
    unsigned aw = x->a >= 0 ? c->s->n[x->a].w : 0;
    switch ((mt_op)x->op) {
    case MT_ZEXT: return resize(e, 0, x->w, aw, a);
    case MT_SEXT: return resize(e, 1, x->w, aw, a);
    case MT_EXTRACT: return Z3_mk_extract(z, x->lo + x->w - 1u, x->lo, a);
    case MT_NOT: return Z3_mk_bvnot(z, a);
    case MT_NEG: return Z3_mk_bvneg(z, a);
    case MT_ADD: return Z3_mk_bvadd(z, a, b);
    case MT_SUB: return Z3_mk_bvsub(z, a, b);
    case MT_MUL: return Z3_mk_bvmul(z, a, b);
    case MT_AND: return Z3_mk_bvand(z, a, b);
    case MT_OR: return Z3_mk_bvor(z, a, b);
    case MT_XOR: return Z3_mk_bvxor(z, a, b);
    case MT_SHL: return Z3_mk_bvshl(z, a, b);
    case MT_LSHR: return Z3_mk_bvlshr(z, a, b);
    case MT_ASHR: return Z3_mk_bvashr(z, a, b);
    case MT_EQ: return bool_bv(e, Z3_mk_eq(z, a, b));
    case MT_ULT: return bool_bv(e, Z3_mk_bvult(z, a, b));
    case MT_SLT: return bool_bv(e, Z3_mk_bvslt(z, a, b));
    case MT_ITE:
        return Z3_mk_ite(z, Z3_mk_eq(z, a, Z3_mk_unsigned_int64(z, 1, bv_sort(e, 1))), b,
                         encode(c, x->c));
    case MT_FADD32: return fadd32(e, a, b);
    default: break;
    }
    fprintf(stderr, "ptxlitmus: internal error: term operator %d\n", x->op);
    abort();
}

static Z3_ast encode(tz_ctx *c, int t)
{
    if (t < c->nmemo && c->memo[t]) return c->memo[t];
    const mt_node *x = &c->s->n[t];
    Z3_ast r;
    if (x->op == MT_CONST) r = Z3_mk_unsigned_int64(c->e->z, x->k, bv_sort(c->e, x->w));
    else if (x->op == MT_VAR) {
        char name[32];
        snprintf(name, sizeof name, "v%llu", (unsigned long long)x->k);
        r = Z3_mk_const(c->e->z, Z3_mk_string_symbol(c->e->z, name), bv_sort(c->e, x->w));
    } else r = op_of(c, x);
    if (t >= c->nmemo) {   /* terms added after tz_init */
        c->memo = xrealloc(c->memo, (size_t)c->s->nn * sizeof *c->memo);
        for (int i = c->nmemo; i < c->s->nn; i++) c->memo[i] = NULL;
        c->nmemo = c->s->nn;
    }
    c->memo[t] = r;
    return r;
}

Z3_ast tz_bv(tz_ctx *c, int t) { return encode(c, t); }

Z3_ast tz_bool(tz_ctx *c, int t)
{
    if (t == c->s->T) return c->e->T;
    if (t == c->s->F) return NULL;
    const mt_node *x = &c->s->n[t];
    Z3_context z = c->e->z;
    switch ((mt_op)x->op) {   /* the comparisons directly, without a detour through bits */
    case MT_EQ: return Z3_mk_eq(z, encode(c, x->a), encode(c, x->b));
    case MT_ULT: return Z3_mk_bvult(z, encode(c, x->a), encode(c, x->b));
    case MT_SLT: return Z3_mk_bvslt(z, encode(c, x->a), encode(c, x->b));
    case MT_NOT: return b_not(c->e, tz_bool(c, x->a));
    case MT_AND: return b_and(c->e, tz_bool(c, x->a), tz_bool(c, x->b));
    case MT_OR: return b_or(c->e, tz_bool(c, x->a), tz_bool(c, x->b));
    default:
        return Z3_mk_eq(z, encode(c, t), Z3_mk_unsigned_int64(z, 1, bv_sort(c->e, 1)));
    }
}

uint64_t tz_model_u64(enc *e, Z3_model m, Z3_ast bv)
{
    Z3_ast v;
    uint64_t r = 0;
    if (!Z3_model_eval(e->z, m, bv, 1, &v)) return 0;
    if (Z3_get_ast_kind(e->z, v) != Z3_NUMERAL_AST || !Z3_get_numeral_uint64(e->z, v, &r)) {
        /* a numeral wider than Z3_get_numeral_uint64 takes: through its decimal string */
        const char *s = Z3_get_numeral_string(e->z, v);
        r = s ? strtoull(s, NULL, 10) : 0;
    }
    return r;
}

Z3_ast tz_value_as(enc *e, int t, Z3_ast v)
{
    unsigned w = Z3_get_bv_sort_size(e->z, Z3_get_sort(e->z, v));
    unsigned n = isa_type_bits((isa_type)t);
    if (!n || n >= 64 || t == ISA_T_PRED) return resize(e, 0, 64, w, v);
    Z3_ast low = resize(e, 0, n, w, v);
    return resize(e, isa_type_is_signed((isa_type)t), 64, n, low);
}
