/* tests/test_terms.c — symbolic values (issue #27) agree with the concrete semantics:
 *   - every operator of model/term.c, in C (mt_apply, mt_eval) and as Z3 bit-vectors
 *     (solver/term_z3.c), on random terms and values, f32 additions with NaN, infinities,
 *     signed zeros and subnormals included;
 *   - the term forms of register computations (model/term_isa.c) against ptx/isa.c's isa_eval,
 *     and of atomic operations against isa_atom_apply (the value written, whether it writes,
 *     and a failing compare-and-swap that writes its old value);
 *   - the rewrites of the store and value sets under guards (mt_values, mt_decide). */
#include <check.h>
#include "tests/check_quiet.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/term.h"
#include "model/term_isa.h"
#include "solver/term_z3.h"
#include "tests/check_main.h"

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t rnd(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return rng;
}
static uint64_t wmask(unsigned w) { return w >= 64 ? ~0ull : (1ull << w) - 1; }

/* values that exercise edges: 0, 1, all ones, sign bits, f32 specials, random */
static uint64_t edge(unsigned w)
{
    static const uint64_t f32s[] = { 0x7fc00000, 0x7f800000, 0xff800000, 0x80000000, 0x00000001,
                                     0x807fffff, 0x7f7fffff, 0x3f800000, 0xbf800000, 0x7fa00000,
                                     0x4cbebc20, 0xccbebc20, 0x3dcccccd, 0x00800000 };
    switch (rnd() % 8) {
    case 0: return 0;
    case 1: return 1;
    case 2: return wmask(w);
    case 3: return (1ull << (w - 1)) & wmask(w);
    case 4: return w == 32 ? f32s[rnd() % (sizeof f32s / sizeof *f32s)] : rnd() % 70;
    default: return rnd() & wmask(w);
    }
}

/* ---------- operators: C and Z3 agree ---------- */

enum { NV = 4 };
static const unsigned var_w[NV] = { 8, 32, 64, 1 };

static int gen(mterms *s, const int *vars, unsigned w, int depth)
{
    int k = depth <= 0 ? (int)(rnd() % 2) : (int)(rnd() % 12);
    switch (k) {
    case 0: return mt_const(s, w, edge(w));
    case 1: {   /* a variable, resized */
        int v = vars[rnd() % NV];
        unsigned vw = mt_width(s, v);
        if (vw == w) return v;
        if (vw > w) return mt_extract(s, w, (unsigned)(rnd() % (vw - w + 1)), v);
        return mt_op1(s, rnd() & 1 ? MT_SEXT : MT_ZEXT, w, v);
    }
    case 2: {
        static const mt_op bin[] = { MT_ADD, MT_SUB, MT_MUL, MT_AND, MT_OR, MT_XOR,
                                     MT_SHL, MT_LSHR, MT_ASHR };
        mt_op op = bin[rnd() % 9];
        return mt_op2(s, op, gen(s, vars, w, depth - 1), gen(s, vars, w, depth - 1));
    }
    case 3: return mt_op1(s, rnd() & 1 ? MT_NOT : MT_NEG, w, gen(s, vars, w, depth - 1));
    case 4: {   /* a comparison (width 1), extended */
        static const mt_op cmp[] = { MT_EQ, MT_ULT, MT_SLT };
        unsigned ow = (unsigned[]){ 8, 32, 64 }[rnd() % 3];
        int c = mt_op2(s, cmp[rnd() % 3], gen(s, vars, ow, depth - 1), gen(s, vars, ow, depth - 1));
        return w == 1 ? c : mt_op1(s, MT_ZEXT, w, c);
    }
    case 5: {
        int c = gen(s, vars, 1, depth - 1);
        return mt_ite(s, c, gen(s, vars, w, depth - 1), gen(s, vars, w, depth - 1));
    }
    case 6:
        if (w == 32)
            return mt_op2(s, MT_FADD32, gen(s, vars, 32, depth - 1), gen(s, vars, 32, depth - 1));
        /* fall through */
    case 7: {   /* an extension of a narrower value */
        if (w <= 8) return gen(s, vars, w, depth - 1);
        unsigned nw = w == 64 ? 32 : 8;
        return mt_op1(s, rnd() & 1 ? MT_SEXT : MT_ZEXT, w, gen(s, vars, nw, depth - 1));
    }
    default: return gen(s, vars, w, depth - 1);
    }
}

START_TEST(operators_agree_with_z3)
{
    mterms s;
    mt_init(&s);
    enc e;
    enc_init(&e);
    Z3_solver sv = enc_solver(&e);
    int vars[NV];
    for (int i = 0; i < NV; i++) vars[i] = mt_var(&s, var_w[i], (mt_varinfo){ 0, 0, 0, 1 });
    tz_ctx tz;
    tz_init(&tz, &e, &s);
    int checked = 0, fadd = 0;
    for (int round = 0; round < 40; round++) {
        uint64_t val[NV];
        Z3_solver_push(e.z, sv);
        for (int i = 0; i < NV; i++) {
            val[i] = edge(var_w[i]) & wmask(var_w[i]);
            Z3_ast v = tz_bv(&tz, vars[i]);
            Z3_solver_assert(e.z, sv, Z3_mk_eq(e.z, v, Z3_mk_unsigned_int64(
                                                          e.z, val[i], Z3_get_sort(e.z, v))));
        }
        ck_assert_int_eq(Z3_solver_check(e.z, sv), Z3_L_TRUE);
        Z3_model m = Z3_solver_get_model(e.z, sv);
        Z3_model_inc_ref(e.z, m);
        for (int k = 0; k < 25; k++) {
            unsigned w = (unsigned[]){ 1, 8, 32, 64, 32 }[rnd() % 5];
            int t = gen(&s, vars, w, 4);
            uint64_t c = mt_eval(&s, t, val), z = tz_model_u64(&e, m, tz_bv(&tz, t));
            ck_assert_msg(c == z, "term %d (op %d, width %u): C %llx, Z3 %llx", t, s.n[t].op, w,
                          (unsigned long long)c, (unsigned long long)z);
            checked++;
        }
        /* f32 additions of the edge values, each way */
        for (int k = 0; k < 10; k++) {
            uint64_t a = edge(32), b = edge(32);
            int t = mt_op2(&s, MT_FADD32, mt_op2(&s, MT_XOR, vars[1], mt_const(&s, 32, val[1] ^ a)),
                           mt_const(&s, 32, b));
            uint64_t r;
            isa_atom_apply(ISA_ATOM_ADD, ISA_T_F32, a, b, 0, &r);
            ck_assert_msg(mt_eval(&s, t, val) == r, "f32 %llx + %llx", (unsigned long long)a,
                          (unsigned long long)b);
            ck_assert_msg(tz_model_u64(&e, m, tz_bv(&tz, t)) == r, "Z3 f32 %llx + %llx = %llx",
                          (unsigned long long)a, (unsigned long long)b, (unsigned long long)r);
            fadd++;
        }
        Z3_model_dec_ref(e.z, m);
        Z3_solver_pop(e.z, sv, 1);
    }
    ck_assert_int_eq(checked, 1000);
    ck_assert_int_eq(fadd, 400);
    tz_free(&tz);
    Z3_solver_dec_ref(e.z, sv);
    enc_free(&e);
    mt_free(&s);
}
END_TEST

/* ---------- register computations: term forms and isa_eval agree ---------- */

static void check_form(const char *mn, int pair)
{
    isa_insn in;
    char err[200];
    ck_assert_msg(isa_decode(mn, ISA_T_S64, &in, err, sizeof err) == 0, "%s: %s", mn, err);
    if (pair) isa_set_pair(&in);
    mterms s;
    mt_init(&s);
    int ns = isa_nsrc(&in), nd = isa_ndst(&in), src[4], dst[4] = { 0 };
    for (int k = 0; k < ns; k++)
        src[k] = mt_mask(&s, mt_var(&s, 64, (mt_varinfo){ 0, 0, 0, 8 }), isa_src_bits(&in, k));
    ck_assert_msg(mt_isa_eval(&s, &in, src, dst) == 0, "%s has no term form", mn);
    for (int round = 0; round < 300; round++) {
        uint64_t val[4] = { 0 }, sv[4] = { 0 }, dv[4] = { 0 };
        for (int k = 0; k < ns; k++) {
            val[k] = rnd() % 3 ? edge(64) : edge(isa_src_bits(&in, k));
            sv[k] = val[k] & wmask(isa_src_bits(&in, k));
        }
        ck_assert_int_eq(isa_eval(&in, sv, dv, err, sizeof err), 0);
        for (int d = 0; d < nd; d++)
            ck_assert_msg(
                mt_eval(&s, dst[d], val) == dv[d], "%s d%d(%llx, %llx, %llx): %llx, isa %llx", mn,
                d, (unsigned long long)sv[0], (unsigned long long)sv[1], (unsigned long long)sv[2],
                (unsigned long long)mt_eval(&s, dst[d], val), (unsigned long long)dv[d]);
    }
    mt_free(&s);
}

START_TEST(register_forms_agree_with_isa_eval)
{
    static const char *const forms[] = {
        "add.u32", "add.s16", "add.u64", "add.u16", "sub.s32", "sub.u16", "sub.u64", "mul.lo.u32",
        "mul.lo.s64", "mul.lo.u16", "and.b32", "or.b16", "xor.b64", "not.b32", "and.pred",
        "not.pred", "neg.s32", "neg.s64", "shl.b32", "shl.b64", "shl.b16", "shr.u32", "shr.s32",
        "shr.s16", "shr.u64", "shr.s64", "min.s32", "min.u32", "max.s64", "max.u16", "min.s16",
        "setp.lt.s32", "setp.lo.u32", "setp.ge.s64", "setp.ne.u16", "setp.hs.u64",
        "setp.eq.and.u32", "setp.gt.or.s32", "setp.le.xor.s16", "selp.b32", "selp.u64",
        "selp.s16", "mov.u32", "mov.b64", "mov.s16", "cvt.s32.s8", "cvt.u16.u32", "cvt.s64.s32",
        "cvt.u32.u64", "cvt.u64.s16", "cvt.s8.u32",
    };
    for (size_t i = 0; i < sizeof forms / sizeof *forms; i++) check_form(forms[i], 0);
    check_form("setp.lt.s32", 1);   /* p|q */
    check_form("setp.ne.and.u32", 1);
    /* forms without a term form: the walker makes their operands concrete */
    static const char *const concrete[] = { "add.sat.s32", "popc.b32", "add.f32", "mul.hi.u32",
                                            "div.u32", "min.relu.s32" };
    for (size_t i = 0; i < sizeof concrete / sizeof *concrete; i++) {
        isa_insn in;
        char err[200];
        ck_assert_msg(isa_decode(concrete[i], ISA_T_S64, &in, err, sizeof err) == 0, "%s", err);
        mterms s;
        mt_init(&s);
        int src[4], dst[4];
        for (int k = 0; k < 4; k++) src[k] = mt_var(&s, 64, (mt_varinfo){ 0, 0, 0, 8 });
        ck_assert_msg(mt_isa_eval(&s, &in, src, dst) == -1, "%s has a term form", concrete[i]);
        mt_free(&s);
    }
}
END_TEST

/* ---------- atomic operations: term forms and isa_atom_apply agree ---------- */

static void check_atom(isa_atom_op op, isa_type t, int failed_cas_writes)
{
    mterms s;
    mt_init(&s);
    unsigned n = isa_type_bits(t);
    int old = mt_var(&s, 64, (mt_varinfo){ 0, 0, 0, 8 }), b = mt_var(&s, 64, (mt_varinfo){ 0 }),
        c = mt_var(&s, 64, (mt_varinfo){ 0 }), nv, wc;
    ck_assert_msg(mt_atom_apply(&s, op, t, old, b, c, failed_cas_writes, &nv, &wc) == 0,
                  "%s.%s has no term form", isa_atom_name(op), isa_type_name(t));
    for (int round = 0; round < 400; round++) {
        uint64_t val[3] = { edge(n) & wmask(n), edge(n), edge(n) }, r;
        if (op == ISA_ATOM_CAS && round % 3 == 0) val[1] = val[0];   /* the comparison holds */
        int wr = isa_atom_apply(op, t, val[0], val[1], val[2], &r);
        uint64_t ev = mt_eval(&s, nv, val), ec = mt_eval(&s, wc, val);
        ck_assert_int_eq((int)ec, failed_cas_writes ? 1 : wr);
        ck_assert_msg(!wr || ev == r, "%s.%s(%llx, %llx, %llx): %llx, isa %llx", isa_atom_name(op),
                      isa_type_name(t), (unsigned long long)val[0], (unsigned long long)val[1],
                      (unsigned long long)val[2], (unsigned long long)ev, (unsigned long long)r);
        if (!wr && failed_cas_writes) ck_assert(ev == (val[0] & wmask(n)));   /* its old value */
    }
    mt_free(&s);
}

START_TEST(atomic_forms_agree_with_isa_atom_apply)
{
    static const isa_atom_op ints[] = { ISA_ATOM_ADD, ISA_ATOM_SUB, ISA_ATOM_EXCH, ISA_ATOM_CAS,
                                        ISA_ATOM_AND, ISA_ATOM_OR, ISA_ATOM_XOR, ISA_ATOM_MIN,
                                        ISA_ATOM_MAX, ISA_ATOM_INC, ISA_ATOM_DEC, ISA_ATOM_MUL };
    static const isa_type types[] = { ISA_T_U32, ISA_T_S32, ISA_T_U64, ISA_T_S64, ISA_T_B32,
                                      ISA_T_B64, ISA_T_U16, ISA_T_S16 };
    for (size_t i = 0; i < sizeof ints / sizeof *ints; i++)
        for (size_t j = 0; j < sizeof types / sizeof *types; j++) check_atom(ints[i], types[j], 0);
    check_atom(ISA_ATOM_CAS, ISA_T_B32, 1);
    check_atom(ISA_ATOM_CAS, ISA_T_B64, 1);
    check_atom(ISA_ATOM_ADD, ISA_T_F32, 0);
    check_atom(ISA_ATOM_EXCH, ISA_T_F32, 0);
    check_atom(ISA_ATOM_CAS, ISA_T_F64, 0);
    /* stay concrete: f64 and half additions, float min/max, div */
    mterms s;
    mt_init(&s);
    int v = mt_var(&s, 64, (mt_varinfo){ 0 }), nv, wc;
    ck_assert_int_eq(mt_atom_apply(&s, ISA_ATOM_ADD, ISA_T_F64, v, v, v, 0, &nv, &wc), -1);
    ck_assert_int_eq(mt_atom_apply(&s, ISA_ATOM_ADD, ISA_T_F16, v, v, v, 0, &nv, &wc), -1);
    ck_assert_int_eq(mt_atom_apply(&s, ISA_ATOM_MIN, ISA_T_F32, v, v, v, 0, &nv, &wc), -1);
    ck_assert_int_eq(mt_atom_apply(&s, ISA_ATOM_DIV, ISA_T_S32, v, v, v, 0, &nv, &wc), -1);
    mt_free(&s);
}
END_TEST

/* ---------- the store: folding, rewrites, value sets ---------- */

static int dom4(void *ctx, const mt_varinfo *v, uint64_t **vals)
{
    (void)ctx;
    (void)v;
    *vals = malloc(4 * sizeof **vals);
    for (int i = 0; i < 4; i++) (*vals)[i] = (uint64_t)i;
    return 4;
}

START_TEST(folding_and_value_sets)
{
    mterms s;
    mt_init(&s);
    int x = mt_var(&s, 8, (mt_varinfo){ 0, 0, 0, 1 }), y = mt_var(&s, 32, (mt_varinfo){ 0 });
    /* constants fold, equal terms are one term */
    ck_assert_int_eq(mt_op2(&s, MT_ADD, mt_const(&s, 32, 5), mt_const(&s, 32, 7)),
                     mt_const(&s, 32, 12));
    ck_assert_int_eq(mt_op2(&s, MT_ADD, y, mt_const(&s, 32, 1)),
                     mt_op2(&s, MT_ADD, mt_const(&s, 32, 1), y));
    /* x == k on an extension of x: a comparison of x, or false when k does not fit */
    int zx = mt_op1(&s, MT_ZEXT, 64, x), sx = mt_op1(&s, MT_SEXT, 64, x);
    ck_assert_int_eq(mt_op2(&s, MT_EQ, zx, mt_const(&s, 64, 300)), s.F);
    ck_assert_int_eq(mt_op2(&s, MT_EQ, sx, mt_const(&s, 64, ~0ull)),
                     mt_op2(&s, MT_EQ, x, mt_const(&s, 8, 0xff)));
    ck_assert_int_eq(mt_op2(&s, MT_EQ, sx, mt_const(&s, 64, 0xff)), s.F);
    /* a mask that keeps the value is the value */
    int zy = mt_op1(&s, MT_ZEXT, 64, y);
    ck_assert_int_eq(mt_mask(&s, zy, 32), zy);
    ck_assert_int_eq(mt_not1(&s, mt_not1(&s, mt_op2(&s, MT_ULT, y, y))), s.F);
    /* values under guards: x + 1 with x in 0..3 and x != 2 */
    int t = mt_op2(&s, MT_ADD, x, mt_const(&s, 8, 1)), g = mt_ne(&s, x, mt_const(&s, 8, 2));
    uint64_t *v;
    int n = mt_values(&s, t, &g, 1, dom4, NULL, &v, 16);
    ck_assert_int_eq(n, 3);
    ck_assert(v[0] == 1 && v[1] == 2 && v[2] == 4);
    free(v);
    ck_assert_int_eq(mt_values(&s, t, &g, 1, dom4, NULL, &v, 2), -1);   /* more than max */
    /* decided by the guard itself, by the domains, or not */
    ck_assert_int_eq(mt_decide(&s, g, &g, 1, NULL, NULL), 1);
    ck_assert_int_eq(mt_decide(&s, mt_not1(&s, g), &g, 1, NULL, NULL), 0);
    ck_assert_int_eq(mt_decide(&s, mt_op2(&s, MT_ULT, x, mt_const(&s, 8, 9)), NULL, 0, dom4, NULL),
                     1);
    ck_assert_int_eq(mt_decide(&s, mt_op2(&s, MT_ULT, x, mt_const(&s, 8, 2)), NULL, 0, dom4, NULL),
                     -1);
    mt_free(&s);
}
END_TEST

static void add_tests(TCase *tc)
{
    tcase_add_test(tc, operators_agree_with_z3);
    tcase_add_test(tc, register_forms_agree_with_isa_eval);
    tcase_add_test(tc, atomic_forms_agree_with_isa_atom_apply);
    tcase_add_test(tc, folding_and_value_sets);
}
