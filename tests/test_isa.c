/* tests/test_isa.c — unit tests of the PTX instruction-semantics table (ptx/isa.c).
 * Every expectation is taken from the PTX ISA 8.4 text; comments cite the section. */
#include "tests/check_quiet.h"
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/sanitized.h"
#include "ptx/isa.h"
#include "tests/evidence.h"
#include "tests/video_ref.h"

static uint64_t D1; /* second destination of the last EV (setp p|q, lop3 d|p) */

static uint64_t ev_(const char *mn, const uint64_t *s)
{
    isa_insn in;
    char err[160] = "";
    int r = isa_decode(mn, ISA_T_S64, &in, err, sizeof err);
    ck_assert_msg(r == 0, "decode %s: %s", mn, err);
    uint64_t d[4] = {0, 0, 0, 0};
    r = isa_eval(&in, s, d, err, sizeof err);
    ck_assert_msg(r == 0, "eval %s: %s", mn, err);
    evidence_row(isa_ops[in.op].popcode, "test_isa.c");
    D1 = d[1];
    return d[0];
}
#define EV(mn, ...) ev_(mn, (const uint64_t[]){__VA_ARGS__, 0, 0, 0, 0, 0})
#define CHK(mn, want, ...)                                                                    \
    do {                                                                                      \
        uint64_t got_ = EV(mn, __VA_ARGS__);                                                  \
        ck_assert_msg(got_ == (uint64_t)(want), "%s(%s) -> 0x%llx, want 0x%llx", mn,          \
                      #__VA_ARGS__, (unsigned long long)got_, (unsigned long long)(want));    \
    } while (0)
/* decode must fail */
static void bad(const char *mn)
{
    isa_insn in;
    char err[160] = "";
    ck_assert_msg(isa_decode(mn, ISA_T_S64, &in, err, sizeof err) == -1, "%s decoded", mn);
    ck_assert_msg(err[0] != 0, "%s: empty error", mn);
}
static isa_insn dec(const char *mn)
{
    isa_insn in;
    char err[160] = "";
    ck_assert_msg(isa_decode(mn, ISA_T_S64, &in, err, sizeof err) == 0, "decode %s: %s", mn, err);
    evidence_row(isa_ops[in.op].popcode, "test_isa.c");
    return in;
}
#define M32 0xffffffffull
#define N32(x) ((uint64_t)(uint32_t)(int32_t)(x)) /* 32-bit pattern of a negative int */
#define N16(x) ((uint64_t)(uint16_t)(int16_t)(x))
#define N64(x) ((uint64_t)(int64_t)(x))

/* ---------------------------------------------------------------- types §5.2.2 */
START_TEST(types)
{
    ck_assert_int_eq(isa_type_parse(".u32"), ISA_T_U32);
    ck_assert_int_eq(isa_type_parse("u32"), ISA_T_U32);
    ck_assert_int_eq(isa_type_parse(".pred"), ISA_T_PRED);
    ck_assert_int_eq(isa_type_parse(".f16x2"), ISA_T_F16X2);
    ck_assert_int_eq(isa_type_parse(".s16x2"), ISA_T_S16X2);
    ck_assert_int_eq(isa_type_parse("e4m3x2"), ISA_T_E4M3X2);
    ck_assert_int_eq(isa_type_parse("foo"), ISA_T_NONE);
    ck_assert_int_eq(isa_type_parse(""), ISA_T_NONE);
    ck_assert_int_eq(isa_type_parse(NULL), ISA_T_NONE);
    for (int t = 1; t < ISA_T_COUNT; t++)
        ck_assert_int_eq(isa_type_parse(isa_type_name((isa_type)t)), t);
    ck_assert_str_eq(isa_type_name(ISA_T_U32), "u32");
    ck_assert_str_eq(isa_type_name(ISA_T_BF16X2), "bf16x2");
    ck_assert_uint_eq(isa_type_bits(ISA_T_PRED), 1);
    ck_assert_uint_eq(isa_type_bits(ISA_T_B8), 8);
    ck_assert_uint_eq(isa_type_bits(ISA_T_S16), 16);
    ck_assert_uint_eq(isa_type_bits(ISA_T_U32), 32);
    ck_assert_uint_eq(isa_type_bits(ISA_T_F64), 64);
    ck_assert_uint_eq(isa_type_bits(ISA_T_B128), 128);
    ck_assert_uint_eq(isa_type_bits(ISA_T_F16X2), 32);
    ck_assert_uint_eq(isa_type_bits(ISA_T_E5M2X2), 16);
    ck_assert(isa_type_is_signed(ISA_T_S8));
    ck_assert(isa_type_is_signed(ISA_T_S64));
    ck_assert(!isa_type_is_signed(ISA_T_U64));
    ck_assert(!isa_type_is_signed(ISA_T_B32));
    ck_assert(!isa_type_is_signed(ISA_T_F32));
    ck_assert(isa_type_is_float(ISA_T_F32));
    ck_assert(isa_type_is_float(ISA_T_F16));
    ck_assert(isa_type_is_float(ISA_T_BF16));
    ck_assert(isa_type_is_float(ISA_T_TF32));
    ck_assert(!isa_type_is_float(ISA_T_S32));
    ck_assert(!isa_type_is_float(ISA_T_PRED));
}
END_TEST

/* ---------------------------------------------------------------- decoding */
START_TEST(decode_shapes)
{
    isa_insn in = dec("add");
    ck_assert_int_eq(in.type, ISA_T_S64); /* bare mnemonic: default type */
    ck_assert_int_eq(isa_ndst(&in), 1);
    ck_assert_int_eq(isa_nsrc(&in), 2);
    ck_assert_int_eq(isa_class(&in), ISA_CLASS_PURE);
    ck_assert_str_eq(isa_op_name(&in), "add");
    in = dec("add.s32");
    ck_assert_int_eq(in.type, ISA_T_S32);
    in = dec("setp.lt.s32"); /* §9.7.5.2 setp.CmpOp.type p, a, b */
    ck_assert_int_eq(isa_ndst(&in), 1);
    ck_assert_int_eq(isa_nsrc(&in), 2);
    ck_assert_int_eq(in.cmp, ISA_CMP_LT);
    ck_assert_int_eq(in.type2, ISA_T_S32);
    isa_set_pair(&in);
    ck_assert_int_eq(isa_ndst(&in), 2);
    in = dec("setp.lt.and.s32"); /* p|q, a, b, c */
    ck_assert_int_eq(isa_ndst(&in), 2);
    ck_assert_int_eq(isa_nsrc(&in), 3);
    ck_assert_int_eq(in.boolop, ISA_BOOL_AND);
    in = dec("setp.eq");
    ck_assert_int_eq(in.type, ISA_T_S64);
    in = dec("selp.b32"); /* §9.7.5.3 selp d, a, b, c */
    ck_assert_int_eq(isa_ndst(&in), 1);
    ck_assert_int_eq(isa_nsrc(&in), 3);
    in = dec("set.lt.and.u32.s32");
    ck_assert_int_eq(in.type, ISA_T_U32);
    ck_assert_int_eq(in.type2, ISA_T_S32);
    ck_assert_int_eq(isa_ndst(&in), 1);
    ck_assert_int_eq(isa_nsrc(&in), 3);
    in = dec("mov");
    ck_assert_int_eq(isa_ndst(&in), 1);
    ck_assert_int_eq(isa_nsrc(&in), 1);
    in = dec("mul.wide.s32");
    ck_assert_int_eq(isa_nsrc(&in), 2);
    ck_assert(in.mods & ISA_M_WIDE);
    in = dec("bfi.b32"); /* §9.7.1.20 bfi f, a, b, c, d */
    ck_assert_int_eq(isa_nsrc(&in), 4);
    in = dec("lop3.b32"); /* §9.7.7.6 lop3 d, a, b, c, immLut */
    ck_assert_int_eq(isa_ndst(&in), 1);
    ck_assert_int_eq(isa_nsrc(&in), 4);
    in = dec("lop3.or.b32"); /* d|p, a, b, c, immLut, q */
    ck_assert_int_eq(isa_ndst(&in), 2);
    ck_assert_int_eq(isa_nsrc(&in), 5);
    in = dec("cvt.s32.s8");
    ck_assert_int_eq(in.type, ISA_T_S32);
    ck_assert_int_eq(in.type2, ISA_T_S8);
    in = dec("prmt.b32.ecl");
    ck_assert_int_eq(in.aux, ISA_PRMT_ECL);
    in = dec("popc"); /* bare: default s64 falls back to the same-width bit type */
    ck_assert_int_eq(in.type, ISA_T_B64);
    in = dec("shl");
    ck_assert_int_eq(in.type, ISA_T_B64);
    in = dec("and");
    ck_assert_int_eq(in.type, ISA_T_B64);
    in = dec("and.pred");
    ck_assert_int_eq(in.type, ISA_T_PRED);
}
END_TEST

START_TEST(decode_errors)
{
    bad("frobnicate");
    bad("add.sat.u32");    /* §9.7.1.1 .sat applies only to .s32 */
    bad("mad.lo.sat.s32"); /* §9.7.1.4 .sat only in .hi mode */
    bad("add.u8");         /* §9.7.1.1 .type list */
    bad("mul.s32");        /* §9.7.1.3 mode required */
    bad("mul.wide.s64");   /* .wide only 16/32-bit */
    bad("abs.u32");        /* §9.7.1.10 signed only */
    bad("popc.b16");
    bad("setp.s32");       /* no CmpOp */
    bad("setp.lt.b32");    /* bit-size: eq/ne only §9.7.5.2 */
    bad("setp.equ.s32");   /* unordered ops are float-only */
    bad("setp.lo.f32");    /* lo/ls/hi/hs are integer-only */
    bad("setp.lt.eq.s32");
    bad("shf.l.b32");      /* §9.7.7.7 .mode required */
    bad("shf.l.clamp.wrap.b32");
    bad("szext.s32");
    bad("bmsk.b32");
    bad("shl.s32");        /* §9.7.7.8 .b types only */
    bad("cvt.s32");        /* two types */
    bad("add.s32.u32");
    bad("add.bogus.s32");
    bad("set.lt.s32");     /* set needs .dtype.stype */
    bad("dp4a.u32");
    bad("mov.b128");       /* 128-bit values do not fit the uint64 value model */
}
END_TEST

/* memory, control flow and synchronization are decoded by their users (exec/load.c, the litmus
 * parser) with the tokenizer; isa_decode refuses them with the opcode table's word for them */
START_TEST(decode_other)
{
    static const char *const other[] = { "ld.global.u32",
                                         "atom.global.cas.b32",
                                         "st.relaxed.gpu.global.s32",
                                         "bra.uni",
                                         "fence.sc.gpu",
                                         "bar.sync",
                                         "red.global.add.u32",
                                         "shfl.sync.up.b32",
                                         "cvta.to.global.u64" };
    for (size_t i = 0; i < sizeof other / sizeof other[0]; i++) {
        isa_insn in;
        char err[160] = "";
        ck_assert_msg(isa_decode(other[i], ISA_T_S64, &in, err, sizeof err) == -1, "%s decoded",
                      other[i]);
        ck_assert_msg(strstr(err, "is not a register computation (") && strstr(err, "§9.7."),
                      "%s: %s", other[i], err);
    }
    isa_insn in;
    char err[160] = "";
    ck_assert_int_eq(isa_decode("frobnicate.u32", ISA_T_S64, &in, err, sizeof err), -1);
    ck_assert_str_eq(err, "unknown mnemonic 'frobnicate'");
    ck_assert_int_eq(isa_decode("add.frob.u32", ISA_T_S64, &in, err, sizeof err), -1);
    ck_assert_str_eq(err, "unknown qualifier '.frob'");
}
END_TEST

/* ---------------------------------------------------------------- §9.7.1 integer arithmetic */
START_TEST(int_add_sub)
{
    CHK("add.s32", 0x80000000, 0x7fffffff, 1);          /* §9.7.1.1 wraps */
    CHK("add.sat.s32", 0x7fffffff, 0x7fffffff, 1);      /* .sat: MAXINT */
    CHK("add.sat.s32", 0x80000000, 0x80000000, N32(-1)); /* .sat: MININT */
    CHK("add.sat.s32", 5, 2, 3);
    CHK("add.u16", 0, 0xffff, 1);
    CHK("add.u64", 0, ~0ull, 1);
    CHK("add", 0, N64(-1), 1);
    CHK("add.s16", 0x8000, 0x7fff, 1);
    CHK("add.u16x2", 0x00020000, 0x0001ffff, 0x00010001); /* half words independent */
    CHK("add.s16x2", 0xfffe0003, 0xffff0001, 0xffff0002);
    CHK("sub.s32", M32, 0, 1);                           /* §9.7.1.2 */
    CHK("sub.sat.s32", 0x80000000, 0x80000000, 1);
    CHK("sub.sat.s32", 0x7fffffff, 0x7fffffff, N32(-1));
    CHK("sub.u64", ~0ull, 0, 1);
    CHK("sub", 3, 5, 2);
}
END_TEST

START_TEST(int_mul_mad)
{
    CHK("mul.lo.s32", 0, 0x10000, 0x10000);             /* §9.7.1.3 .lo */
    CHK("mul.lo.u16", 0x0001, 0xffff, 0xffff);
    CHK("mul.hi.u32", 0xfffffffe, M32, M32);            /* .hi */
    CHK("mul.hi.s32", 0, N32(-1), N32(-1));
    CHK("mul.hi.s32", 0x40000000, 0x80000000, 0x80000000);
    CHK("mul.hi.s32", M32, N32(-2), 3);
    CHK("mul.hi.u16", 0xfffe, 0xffff, 0xffff);
    CHK("mul.hi.s16", 0, 0xffff, 0xffff);
    CHK("mul.hi.u64", 0xfffffffffffffffeull, ~0ull, ~0ull);
    CHK("mul.hi.s64", 0, ~0ull, ~0ull);
    CHK("mul.hi.s64", 0x4000000000000000ull, 0x8000000000000000ull, 0x8000000000000000ull);
    CHK("mul.hi.s64", ~0ull, N64(-1), 5);
    CHK("mul.hi.s64", 0, 3, 5);
    CHK("mul.wide.s16", 0xfffffffa, N16(-2), 3);        /* .wide: 16*16 -> 32 */
    CHK("mul.wide.u16", 0xfffe0001, 0xffff, 0xffff);
    CHK("mul.wide.s32", 0x4000000000000000ull, 0x80000000, 0x80000000);
    CHK("mul.wide.u32", 0xfffffffe00000001ull, M32, M32);
    CHK("mul.wide.s32", N64(-6), N32(-2), 3);
    CHK("mad.lo.s32", 10, 2, 3, 4);                     /* §9.7.1.4 */
    CHK("mad.lo.u32", 1, M32, 2, 3);
    CHK("mad.hi.u32", 0xffffffff, M32, M32, 1);
    CHK("mad.hi.s32", 0x3fffffff + 1, 0x7fffffff, 0x7fffffff, 1);
    CHK("mad.hi.sat.s32", 0x7fffffff, 0x7fffffff, 0x7fffffff, 0x7fffffff);
    CHK("mad.hi.sat.s32", 0x80000000, 0x7fffffff, 0x80000000, 0x80000000);
    CHK("mad.wide.s32", 9, N32(-1), 1, 10);
    CHK("mad.wide.u16", 0x00010000, 0xffff, 1, 1);
    CHK("mul24.lo.u32", 0, 0x1000000, 5);               /* §9.7.1.5: only 24 bits used */
    CHK("mul24.lo.s32", 0xfffffffe, 0xffffff, 2);        /* 0xffffff = -1 as 24-bit */
    CHK("mul24.hi.u32", 0xfffffe00, 0xffffff, 0xffffff); /* t<47..16> of 0xfffffe000001 */
    CHK("mul24.hi.s32", 0xffffffff, 0xffffff, 1);
    CHK("mad24.lo.u32", 7, 2, 3, 1);                    /* §9.7.1.6 */
    CHK("mad24.hi.u32", 0xfffffe01, 0xffffff, 0xffffff, 1);
    CHK("mad24.hi.sat.s32", 0x7fffffff, 0x7fffff, 0x7fffff, 0x7fffffff);
    CHK("sad.s32", 12, N32(-1), 1, 10);                 /* §9.7.1.7 c + |a-b| */
    CHK("sad.u32", 2, 1, 3, 0);
    CHK("sad.u32", 8, M32, 1, 10);                      /* unsigned |0xffffffff-1| + 10 wraps */
}
END_TEST

START_TEST(int_div_rem)
{
    CHK("div.s32", N32(-3), N32(-7), 2);                /* §9.7.1.8 truncates */
    CHK("div.u32", 3, 7, 2);
    CHK("div.u32", M32, 7, 0);                          /* /0: our deterministic choice */
    CHK("div.s32", M32, 7, 0);
    CHK("div.u64", ~0ull, 1, 0);
    CHK("div.s32", 0x80000000, 0x80000000, N32(-1));     /* MININT / -1 wraps */
    CHK("div.s64", 0x8000000000000000ull, 0x8000000000000000ull, ~0ull);
    CHK("div.s16", N16(-3), N16(-7), 2);
    CHK("div.u16", 0x7fff, 0xfffe, 2);
    CHK("div", N64(-2), N64(-4), 2);
    CHK("rem.s32", N32(-1), N32(-7), 2);                /* §9.7.1.9 sign of dividend */
    CHK("rem.s32", 1, 7, N32(-2));
    CHK("rem.u32", 7, 7, 0);                            /* %0 = a */
    CHK("rem.s32", 0, 0x80000000, N32(-1));
    CHK("rem.u64", 1, ~0ull, 2);
    CHK("rem.s16", N16(-1), N16(-7), 2);
}
END_TEST

START_TEST(int_abs_neg_min_max)
{
    CHK("abs.s32", 5, N32(-5));                         /* §9.7.1.10 */
    CHK("abs.s32", 0x80000000, 0x80000000);             /* |MININT| = MININT */
    CHK("abs.s16", 0x8000, 0x8000);
    CHK("abs.s64", 0x8000000000000000ull, 0x8000000000000000ull);
    CHK("abs.s16", 1, 0xffff);
    CHK("neg.s32", 0x80000000, 0x80000000);             /* §9.7.1.11 */
    CHK("neg.s64", ~0ull, 1);
    CHK("neg.s16", 0xffff, 1);
    CHK("neg.s32", 5, N32(-5));
    CHK("min.s32", M32, N32(-1), 1);                    /* §9.7.1.12 signed/unsigned differ */
    CHK("min.u32", 1, M32, 1);
    CHK("min.s16", 0x8000, 0x8000, 0x7fff);
    CHK("min.u64", 0, 0, ~0ull);
    CHK("min.relu.s32", 0, N32(-5), N32(-3));
    CHK("min.relu.s32", 3, 3, 4);
    CHK("min.s16x2", 0xffff0001, 0xffff0001, 0x00010002);
    CHK("min.u16x2", 0x00010001, 0xffff0001, 0x00010002);
    CHK("min.relu.s16x2", 0x00000001, 0xffff0001, 0x00010002);
    CHK("max.s32", 1, N32(-1), 1);                      /* §9.7.1.13 */
    CHK("max.u32", M32, M32, 1);
    CHK("max.relu.s32", 0, N32(-5), N32(-3));
    CHK("max.relu.s32", 3, N32(-5), 3);
    CHK("max.s64", 1, ~0ull, 1);
    CHK("max.s16x2", 0x00010002, 0xffff0001, 0x00010002);
    CHK("max.u16x2", 0xffff0002, 0xffff0001, 0x00010002);
    CHK("max.relu.s16x2", 0x00000002, 0xffff0001, 0xfff00002);
    CHK("min", N64(-1), N64(-1), 1);
    CHK("max", 1, N64(-1), 1);
}
END_TEST

START_TEST(int_bits)
{
    CHK("popc.b32", 8, 0xf0f0);                         /* §9.7.1.14 */
    CHK("popc.b32", 32, ~0ull);                         /* only the low 32 bits count */
    CHK("popc.b64", 64, ~0ull);
    CHK("popc", 0, 0);
    CHK("clz.b32", 32, 0);                              /* §9.7.1.15: 0..32 */
    CHK("clz.b32", 31, 1);
    CHK("clz.b32", 0, 0x80000000);
    CHK("clz.b64", 64, 0);
    CHK("clz.b64", 23, 1ull << 40);
    CHK("bfind.u32", 0xffffffff, 0);                    /* §9.7.1.16 none found */
    CHK("bfind.u32", 4, 0x10);
    CHK("bfind.u32", 31, 0x80000000);
    CHK("bfind.s32", 0xffffffff, N32(-1));              /* negative: most significant 0 */
    CHK("bfind.s32", 3, N32(-16));
    CHK("bfind.s32", 30, 0x7fffffff);
    CHK("bfind.shiftamt.u32", 27, 0x10);
    CHK("bfind.shiftamt.u32", 0xffffffff, 0);
    CHK("bfind.u64", 40, 1ull << 40);
    CHK("bfind.s64", 62, 0x8000000000000000ull);
    CHK("bfind.shiftamt.s64", 1, 0x8000000000000000ull);
    CHK("fns.b32", 3, 0xaaaaaaaa, 3, 1);                /* §9.7.1.17 examples */
    CHK("fns.b32", 3, 0xaaaaaaaa, 3, N32(-1));
    CHK("fns.b32", 3, 0xaaaaaaaa, 2, 1);
    CHK("fns.b32", 1, 0xaaaaaaaa, 2, N32(-1));
    CHK("fns.b32", 0xffffffff, 0xaaaaaaaa, 2, 0);        /* offset 0: bit base must be set */
    CHK("fns.b32", 1, 0xaaaaaaaa, 1, 0);
    CHK("fns.b32", 7, 0xaaaaaaaa, 0, 4);                /* 4th set bit upward from 0 */
    CHK("fns.b32", 0xffffffff, 0xaaaaaaaa, 30, 2);       /* runs off the top */
    CHK("fns.b32", 0xffffffff, 0xaaaaaaaa, 40, 1);       /* base > 31: undefined, our choice */
    CHK("brev.b32", 0x80000000, 1);                     /* §9.7.1.18 */
    CHK("brev.b32", 0x1e6a2c48, 0x12345678);
    CHK("brev.b64", 0x8000000000000000ull, 1);
    CHK("brev.b64", 0x0000000080000000ull, 0x0000000100000000ull);
}
END_TEST

START_TEST(int_bfe_bfi)
{
    CHK("bfe.u32", 0x67, 0x12345678, 4, 8);             /* §9.7.1.19 */
    CHK("bfe.u32", 0x67, 0x12345678, 0x104, 0x108);     /* b, c restricted to 0..255 */
    CHK("bfe.s32", 0xffffffff, 0xf0, 4, 4);             /* sign of the field */
    CHK("bfe.s32", 0x7, 0x70, 4, 4);
    CHK("bfe.s32", 0, 0xffffffff, 4, 0);                /* len 0 -> 0 */
    CHK("bfe.u32", 0, 0xffffffff, 40, 4);               /* start beyond msb */
    CHK("bfe.s32", 0xffffffff, 0x80000000, 40, 4);      /* replicated sign: a[msb] */
    CHK("bfe.s32", 0, 0x7fffffff, 40, 4);
    CHK("bfe.s32", 0xfffffff8, 0x80000000, 28, 10);     /* extends beyond msb: sign = a[31] */
    CHK("bfe.u32", 0x8, 0x80000000, 28, 10);
    CHK("bfe.u64", 0xf, ~0ull, 60, 10);
    CHK("bfe.s64", ~0ull, ~0ull, 60, 10);
    CHK("bfe.s64", 0x5, 0x5000000000000000ull, 60, 4);
    CHK("bfe.u32", 0x12345678, 0x12345678, 0, 32);
    CHK("bfe.u32", 0x12345678, 0x12345678, 0, 255);
    CHK("bfi.b32", 0xf00, 0xff, 0, 8, 4);               /* §9.7.1.20 */
    CHK("bfi.b32", 0x12345678, 0xff, 0x12345678, 8, 0); /* len 0 -> b */
    CHK("bfi.b32", 0x12345678, 0xff, 0x12345678, 32, 4);/* pos beyond msb -> b */
    CHK("bfi.b32", 0xc0000000, 0xff, 0, 30, 8);         /* truncated at msb */
    CHK("bfi.b32", 0xffff00ff, 0, 0xffffffff, 0x108, 0x108); /* & 0xff */
    CHK("bfi.b64", 0xabc0000000000000ull, 0xabc, 0, 52, 12);
    CHK("bfi.b64", 0xffffffff00000000ull, ~0ull, 0, 32, 200);
}
END_TEST

START_TEST(int_szext_bmsk_dp)
{
    CHK("szext.clamp.s32", 0xffffff80, 0x80, 8);        /* §9.7.1.21 */
    CHK("szext.wrap.u32", 0, 0xffffffff, 0);            /* spec example: result is 0 */
    CHK("szext.clamp.s32", 0, 0xffffffff, 0);
    CHK("szext.clamp.s32", 0x80, 0x80, 40);             /* N >= 32 clamp: a */
    CHK("szext.wrap.s32", 0xffffff80, 0x80, 40);        /* wrap: N = 8 */
    CHK("szext.clamp.u32", 0xff, 0x1ff, 8);
    CHK("szext.clamp.s32", 0x7f, 0x17f, 8);
    CHK("bmsk.wrap.b32", 6, 1, 2);                      /* §9.7.1.22 example 0x00000006 */
    CHK("bmsk.clamp.b32", 0, 32, 4);                    /* a >= 32 clamp */
    CHK("bmsk.clamp.b32", 0xffffffff, 0, 32);           /* width 32 allowed in clamp */
    CHK("bmsk.wrap.b32", 0, 0, 32);                     /* wrapped width 0 */
    CHK("bmsk.clamp.b32", 0xf0000000, 28, 8);
    CHK("bmsk.wrap.b32", 0x0000ff00, 8, 8);
    CHK("bmsk.wrap.b32", 0x00000006, 33, 2);            /* a wraps to 1 */
    CHK("dp4a.u32.u32", 20, 0x01020304, 0x01010101, 10); /* §9.7.1.23 */
    CHK("dp4a.s32.s32", N32(-4), 0xffffffff, 0x01010101, 0);
    CHK("dp4a.u32.s32", N32(-255), 0xff000000, 0xff000000, 0);
    CHK("dp4a.s32.u32", N32(-255), 0xff000000, 0xff000000, 0);
    CHK("dp4a.u32.u32", 0xfe01, 0xff000000, 0xff000000, 0);
    CHK("dp2a.lo.u32.u32", 5 + 100, 0x00020001, 0x04030201, 100); /* §9.7.1.24 */
    CHK("dp2a.hi.u32.u32", 11, 0x00020001, 0x04030201, 0);
    CHK("dp2a.lo.s32.s32", 2, 0xffff0001, 0x0000ff01, 0); /* 1*1 + (-1)*(-1) */
}
END_TEST

/* §9.7.16.2.3 vabsdiff4 (the worked example of docs/architecture.md): per byte |a - b| with
 * the bytes read as .atype/.btype, .sat to the byte range of .dtype, or .add: c + the sum */
START_TEST(video_vabsdiff4)
{
    CHK("vabsdiff4.u32.u32.u32", 0x0a0a0a0a, 0x0a141e28, 0x141e2832, 0);       /* 10 each way */
    CHK("vabsdiff4.u32.u32.u32", 0x00ff0000, 0x00ff00ff, 0x000000ff, 0x5555);   /* c unused */
    CHK("vabsdiff4.u32.u32.u32.add", 0x3e8 + 40, 0x0a141e28, 0x141e2832, 0x3e8); /* SAD + c */
    CHK("vabsdiff4.u32.s32.s32", 0x000000fe, 0x0000007f, 0x00000081, 0);        /* |127 - -127| */
    CHK("vabsdiff4.s32.s32.s32.sat", 0x0000007f, 0x0000007f, 0x00000081, 0);    /* clamped */
    CHK("vabsdiff4.u32.u32.s32", 0x0000fe01, 0x0000ff00, 0x000001ff, 0);       /* 255 - 1, 0 - -1 */
    CHK("vabsdiff4.s32.u32.u32.add", (0xffffffffull + 4 * 255) & 0xffffffffu, 0xffffffff, 0,
        0xffffffff);
    bad("vabsdiff4.u32.u32");              /* three types */
    bad("vabsdiff4.u32.u32.u32.sat.add");  /* .sat does not combine with .add */
    bad("vabsdiff4.u32.u32.f32");
}
END_TEST

/* A vref form decoded and its selectors/negations applied through the API of ptx/isa.h. */
static isa_insn video_decode(const vref *v, char mn[96])
{
    char sel[3][8], err[200] = "";
    vref_text(v, mn, sel);
    isa_insn in = dec(mn);
    ck_assert_msg(isa_is_video(&in), "%s: not video", mn);
    for (int k = 0; k < 3; k++)
        if (sel[k][0])
            ck_assert_msg(isa_video_select(&in, k, sel[k], err, sizeof err) == 0,
                          "%s sel %d .%s: %s", mn, k, sel[k], err);
    int negs[3] = { v->nega, v->negb, v->negc };
    for (int k = 0; k < 3; k++)
        if (negs[k])
            ck_assert_msg(isa_video_negate(&in, k + 1, err, sizeof err) == 0, "%s neg %d: %s", mn,
                          k + 1, err);
    return in;
}

/* §9.7.16: every video instruction, 400 random forms each (types, .sat, secondary operations,
 * merges, byte/half selectors on d, a and b, SIMD masks, vmad negations, .po and scales), each on
 * 12 operand sets (edge values of every width and random ones), against the C reference of
 * tests/video_ref.h, written from the ISA's pseudocode. */
START_TEST(video_vs_reference)
{
    uint64_t seed = 0x243f6a8885a308d3ull;
    long n = 0;
    for (int k = 0; k < VREF_NINSNS; k++)
        for (int f = 0; f < 400; f++) {
            vref v;
            char mn[96];
            vref_random(&v, k, &seed);
            isa_insn in = video_decode(&v, mn);
            int ns = isa_nsrc(&in);
            int want_ns = vref_insns[k].n > 1 || vref_insns[k].op == VR_MAD || v.sec || v.dsel >= 0
                              ? 3 : 2;
            ck_assert_msg(ns == want_ns, "%s: %d sources, want %d", mn, ns, want_ns);
            for (int t = 0; t < 12; t++) {
                uint32_t a = vref_operand(&seed), b = vref_operand(&seed), c = vref_operand(&seed);
                uint64_t s[5] = { a, b, ns == 3 ? c : 0, 0, 0 }, d[4] = { 0 };
                char err[160];
                ck_assert(isa_eval(&in, s, d, err, sizeof err) == 0);
                uint32_t want = vref_eval(&v, a, b, ns == 3 ? c : 0);
                ck_assert_msg(d[0] == want,
                              "%s (sel d.%u a.%u b.%u, neg %d%d%d) a=0x%x b=0x%x c=0x%x"
                              " -> 0x%llx, want 0x%x",
                              mn, in.dsel, in.asel, in.bsel, v.nega, v.negb, v.negc, a, b, c,
                              (unsigned long long)d[0], want);
                n++;
            }
        }
    ck_assert_int_eq(n, (long)VREF_NINSNS * 400 * 12);
}
END_TEST

/* §9.7.16: values worked out by hand from the ISA text, the text's examples, and the refusals. */
START_TEST(video_examples)
{
    char err[200];
    /* scalar: byte/half selection with sign extension, .sat to the destination type */
    isa_insn in = dec("vadd.s32.u32.s32.sat");
    ck_assert(isa_video_select(&in, 1, "b0", err, sizeof err) == 0);
    ck_assert(isa_video_select(&in, 2, "h0", err, sizeof err) == 0);
    uint64_t s[5] = { 0x123456ff, 0x0000ff00, 0, 0, 0 }, d[4];
    isa_eval(&in, s, d, err, sizeof err);
    ck_assert_uint_eq(d[0], 0xffffffffu); /* 255 + -256 */
    CHK("vsub.s32.s32.s32.sat", 0x7fffffff, 0x7fffffff, 0xffffffff); /* MAX - -1 clamps */
    CHK("vsub.u32.u32.u32.sat", 0, 1, 2);                            /* unsigned floor */
    CHK("vsub.u32.u32.u32", 0xffffffff, 1, 2);                       /* wraps without .sat */
    CHK("vmin.s32.s32.s32.sat.add", 5, N32(-5), 7, 10);              /* min(-5, 7) + 10 */
    CHK("vmax.u32.s32.s32.max", 9, N32(-5), 7, 9);                   /* max(max(-5, 7), 9) */
    CHK("vabsdiff.u32.s32.u32", 0x80000001u, N32(-1), 0x80000000u);  /* 33-bit operands */
    CHK("vshl.u32.u32.u32.clamp", 0, 1, 40);                         /* amount clamped to 32 */
    CHK("vshl.u32.u32.u32.wrap", 0x100, 1, 40);                      /* 40 & 31 = 8 */
    CHK("vshr.s32.s32.u32.clamp", 0xffffffff, 0x80000000u, 99);      /* sign fill */
    CHK("vshl.u32.u32.u32.clamp.sat", 0xffffffff, 1, 32);            /* 2^32 saturates */
    CHK("vset.s32.u32.lt", 1, N32(-1), 0);                           /* -1 < 0 as s32 */
    CHK("vset.u32.u32.lt", 0, N32(-1), 0);
    CHK("vset.u32.u32.ne.add", 11, 1, 2, 10);
    /* vmad: (a*b) + c, .po, scaling, negations (§9.7.16.1.3) */
    CHK("vmad.u32.u32.u32", 0x0000000fu, 0xffffffff, 0xffffffff, 14); /* (2^32-1)^2 + 14 wraps */
    CHK("vmad.u32.u32.u32.sat", 0xffffffff, 0x10000, 0x10000, 0);
    CHK("vmad.u32.u32.u32.po", 7, 2, 3, 0);
    CHK("vmad.s32.s32.s32.shr7", N32(-1), N32(-1), 1, 0);            /* -1 >> 7 = -1 */
    CHK("vmad.u32.u32.u32.shr15", 3, 0x10000, 1, 0x8000);            /* (2^16 + 2^15) >> 15 */
    in = dec("vmad.s32.s32.u32.sat");
    ck_assert(isa_video_negate(&in, 3, err, sizeof err) == 0);       /* r0 = r1 * r2 - r3 */
    s[0] = 3, s[1] = 4, s[2] = 20;
    isa_eval(&in, s, d, err, sizeof err);
    ck_assert_uint_eq(d[0], (uint32_t)-8);
    in = dec("vmad.u32.u32.u32");
    ck_assert(isa_video_negate(&in, 1, err, sizeof err) == 0);       /* -(a*b) + c */
    s[0] = 3, s[1] = 4, s[2] = 20;
    isa_eval(&in, s, d, err, sizeof err);
    ck_assert_uint_eq(d[0], 8);
    ck_assert(isa_video_negate(&in, 3, err, sizeof err) == -1);      /* not both */
    in = dec("vmad.u32.u32.u32.po");
    ck_assert(isa_video_negate(&in, 1, err, sizeof err) == -1);      /* .po: no negation */
    /* merge: the example vabsdiff.s32.s32.s32.sat r1.h0, r2.b0, r3.b2, c */
    in = dec("vabsdiff.s32.s32.s32.sat");
    ck_assert(isa_video_select(&in, 0, "h0", err, sizeof err) == 0);
    ck_assert(isa_video_select(&in, 1, "b0", err, sizeof err) == 0);
    ck_assert(isa_video_select(&in, 2, "b2", err, sizeof err) == 0);
    ck_assert_int_eq(isa_nsrc(&in), 3);
    s[0] = 0x7f, s[1] = 0x00800000, s[2] = 0xabcd1234;               /* |127 - -128| = 255 */
    isa_eval(&in, s, d, err, sizeof err);
    ck_assert_uint_eq(d[0], 0xabcd00ffu);
    in = dec("vadd.u32.u32.u32.sat.add");
    ck_assert(isa_video_select(&in, 0, "h0", err, sizeof err) == -1); /* merge xor secondary op */
    /* SIMD: vadd2 default selectors a.h10 b.h32, mask .h10; vsub2 with a mask merges c */
    CHK("vadd2.u32.u32.u32", 0x00070003, 0x00050001, 0x00020002, 0);
    CHK("vadd2.s32.s32.s32.sat", 0x7fff8000, 0x7fff8000, 0x0001ffff, 0);
    CHK("vavrg2.s32.s32.s32", 0xffff0002, 0xfffe0001, 0x00010002, 0); /* (-1 >> 1), (3+1) >> 1 */
    CHK("vavrg4.u32.u32.u32", 0x80020101, 0xff030100, 0x01000001, 0);
    CHK("vmin2.s32.s32.u32.add", 100 + 0 + (uint32_t)-1, 0x0000ffff, 0x00050000, 100);
    CHK("vset4.u32.u32.lt", 0x01000000, 0x01020304, 0x02020202, 0);
    CHK("vset2.s32.s32.eq.add", 7, 0xffff0001, 0xffff0002, 6);
    in = dec("vsub2.s32.s32.s32.sat"); /* vsub2 r1.h0, r2.h10, r3.h32 */
    ck_assert(isa_video_select(&in, 0, "h0", err, sizeof err) == 0);
    s[0] = 0x00000005, s[1] = 0x00000009, s[2] = 0xbeef0000;
    isa_eval(&in, s, d, err, sizeof err);
    ck_assert_uint_eq(d[0], 0xbeeffffcu);
    in = dec("vmin4.s32.u32.u32.add");                               /* r2.b0000, r3.b2222 */
    ck_assert(isa_video_select(&in, 1, "b0000", err, sizeof err) == 0);
    ck_assert(isa_video_select(&in, 2, "b2222", err, sizeof err) == 0);
    ck_assert(isa_video_select(&in, 0, "b10", err, sizeof err) == 0);
    s[0] = 0x00030009, s[1] = 0x77777777, s[2] = 1000;      /* bytes 0..3 of {b, a} are a's */
    isa_eval(&in, s, d, err, sizeof err);
    ck_assert_uint_eq(d[0], 1006);
    /* refusals */
    in = dec("vadd4.u32.u32.u32");
    ck_assert(isa_video_select(&in, 1, "b8210", err, sizeof err) == -1); /* byte 8 */
    ck_assert(isa_video_select(&in, 1, "b210", err, sizeof err) == -1);  /* three bytes */
    ck_assert(isa_video_select(&in, 1, "h10", err, sizeof err) == -1);
    ck_assert(isa_video_select(&in, 0, "b4", err, sizeof err) == -1);    /* mask of bytes 0..3 */
    ck_assert(isa_video_negate(&in, 1, err, sizeof err) == -1);          /* vmad only */
    in = dec("vadd.u32.u32.u32");
    ck_assert(isa_video_select(&in, 1, "b4", err, sizeof err) == -1);
    ck_assert(isa_video_select(&in, 1, "h10", err, sizeof err) == -1);
    in = dec("add.u32");
    ck_assert(!isa_is_video(&in));
    ck_assert(isa_video_select(&in, 1, "b0", err, sizeof err) == -1);
    bad("vadd.u32.u32");                  /* three types */
    bad("vadd.u32.u32.u32.add.min");      /* one secondary op */
    bad("vshl.u32.u32.s32.clamp");        /* the amount is .u32 */
    bad("vshl.u32.u32.u32");              /* .clamp or .wrap */
    bad("vset.u32.u32.lo");               /* video comparisons: eq ne lt le gt ge */
    bad("vset.u32.u32.u32.lt");           /* vset has two types */
    bad("vset.u32.u32.lt.sat");
    bad("vmad.u32.u32.u32.shr7.shr15");
    bad("vmad.u32.u32.u32.add");
    bad("vadd2.u32.u32.u32.sat.add");
    bad("vset4.u32.u32.lt.min");
}
END_TEST

START_TEST(int_carry)
{
    /* §9.7.2: carry flag via isa_eval_cc */
    char err[160];
    uint32_t cc = 0;
    uint64_t d[2], s[3];
    isa_insn in = dec("add.cc.u32");
    ck_assert_int_eq(isa_class(&in), ISA_CLASS_CARRY);
    s[0] = M32, s[1] = 1;
    ck_assert_int_eq(isa_eval(&in, s, d, err, sizeof err), -1); /* needs the carry flag */
    ck_assert_ptr_nonnull(strstr(err, "carry"));
    ck_assert_int_eq(isa_eval_cc(&in, s, d, &cc, err, sizeof err), 0);
    ck_assert_uint_eq(d[0], 0);
    ck_assert_uint_eq(cc, 1);
    in = dec("addc.u32"); /* 0 + 0 + CF */
    s[0] = 0, s[1] = 0;
    ck_assert_int_eq(isa_eval_cc(&in, s, d, &cc, err, sizeof err), 0);
    ck_assert_uint_eq(d[0], 1);
    ck_assert_uint_eq(cc, 1); /* addc without .cc leaves CF */
    in = dec("addc.cc.u64");
    s[0] = ~0ull, s[1] = 0, cc = 1;
    isa_eval_cc(&in, s, d, &cc, err, sizeof err);
    ck_assert_uint_eq(d[0], 0);
    ck_assert_uint_eq(cc, 1);
    /* a subtraction is a + ~b + cin and CC.CF its carry-out: 1 = no borrow (the hardware's
       convention, which nvcc's __int128 code relies on; see carry_eval) */
    in = dec("sub.cc.u32"); /* 0 - 1 borrows: CF = 0 */
    s[0] = 0, s[1] = 1, cc = 1;
    isa_eval_cc(&in, s, d, &cc, err, sizeof err);
    ck_assert_uint_eq(d[0], M32);
    ck_assert_uint_eq(cc, 0);
    in = dec("subc.u32"); /* 5 - 2 - borrow (CF = 0: borrow) */
    s[0] = 5, s[1] = 2;
    isa_eval_cc(&in, s, d, &cc, err, sizeof err);
    ck_assert_uint_eq(d[0], 2);
    in = dec("sub.cc.u32"); /* 5 - 2: no borrow, CF = 1 */
    s[0] = 5, s[1] = 2, cc = 0;
    isa_eval_cc(&in, s, d, &cc, err, sizeof err);
    ck_assert_uint_eq(d[0], 3);
    ck_assert_uint_eq(cc, 1);
    in = dec("addc.u32"); /* issue #25: sub.cc 5, 3; addc 0, 0 reads the no-borrow carry: 1 */
    s[0] = 0, s[1] = 0;
    isa_eval_cc(&in, s, d, &cc, err, sizeof err);
    ck_assert_uint_eq(d[0], 1);
    in = dec("subc.cc.u64"); /* 0 - 0 - borrow(CF = 1: none) = 0, no borrow */
    s[0] = 0, s[1] = 0, cc = 1;
    isa_eval_cc(&in, s, d, &cc, err, sizeof err);
    ck_assert_uint_eq(d[0], 0);
    ck_assert_uint_eq(cc, 1);
    s[0] = 0, s[1] = 0, cc = 0; /* 0 - 0 - 1 borrows */
    isa_eval_cc(&in, s, d, &cc, err, sizeof err);
    ck_assert_uint_eq(d[0], ~0ull);
    ck_assert_uint_eq(cc, 0);
    in = dec("mad.lo.cc.u32"); /* (a*b).lo + c */
    s[0] = 0x10000, s[1] = 0x10000, s[2] = M32, cc = 0;
    isa_eval_cc(&in, s, d, &cc, err, sizeof err);
    ck_assert_uint_eq(d[0], M32);
    ck_assert_uint_eq(cc, 0);
    in = dec("madc.hi.u32");
    s[0] = M32, s[1] = M32, s[2] = 0, cc = 1; /* hi = 0xfffffffe, + carry */
    isa_eval_cc(&in, s, d, &cc, err, sizeof err);
    ck_assert_uint_eq(d[0], M32);
    in = dec("add.s32"); /* pure ops go through isa_eval_cc too and leave cc */
    s[0] = 1, s[1] = 2, cc = 1;
    ck_assert_int_eq(isa_eval_cc(&in, s, d, &cc, err, sizeof err), 0);
    ck_assert_uint_eq(d[0], 3);
    ck_assert_uint_eq(cc, 1);
}
END_TEST

/* ---------------------------------------------------------------- §9.7.7 logic and shift */
START_TEST(logic)
{
    CHK("and.b32", 0x0f00, 0xff00, 0x0ff0);             /* §9.7.7.1 */
    CHK("and.pred", 1, 1, 1);
    CHK("and.pred", 0, 1, 0);
    CHK("or.b32", 0xfff0, 0xff00, 0x0ff0);              /* §9.7.7.2 */
    CHK("or.pred", 1, 0, 1);
    CHK("xor.b32", 0xf0f0, 0xff00, 0x0ff0);             /* §9.7.7.3 */
    CHK("xor.b16", 0xfffe, 0xffff, 0x10001);
    CHK("xor.pred", 0, 1, 1);
    CHK("not.b32", 0xffffffff, 0);                      /* §9.7.7.4 */
    CHK("not.b16", 0x00ff, 0xff00);
    CHK("not.b64", 0, ~0ull);
    CHK("not.pred", 0, 1);
    CHK("not.pred", 1, 0);
    CHK("cnot.b32", 1, 0);                              /* §9.7.7.5 */
    CHK("cnot.b32", 0, 5);
    CHK("cnot.b16", 1, 0x10000);
    CHK("cnot.b64", 0, 1ull << 63);
    uint64_t a = 0x12345678, b = 0x9abcdef0, c = 0x0f0f0f0f;
    CHK("lop3.b32", a & b & c, a, b, c, 0x80);          /* §9.7.7.6 examples */
    CHK("lop3.b32", a | b | c, a, b, c, 0xfe);
    CHK("lop3.b32", a & b & (~c & M32), a, b, c, 0x40);
    CHK("lop3.b32", ((a & b) | c) ^ a, a, b, c, 0x1a);
    CHK("lop3.b32", 0, a, b, c, 0);
    CHK("lop3.b32", M32, a, b, c, 0xff);
    CHK("lop3.b32", a, a, b, c, 0xf0);
    CHK("lop3.b32", c, a, b, c, 0xaa);
    CHK("lop3.or.b32", 0, 0, 0, 0, 0x80, 1);            /* p = (d != 0) or q */
    ck_assert_uint_eq(D1, 1);
    CHK("lop3.and.b32", 0x80, 0x80, 0x80, 0x80, 0x80, 0);
    ck_assert_uint_eq(D1, 0);
    CHK("lop3.and.b32", 0x80, 0x80, 0x80, 0x80, 0x80, 1);
    ck_assert_uint_eq(D1, 1);
}
END_TEST

START_TEST(shifts)
{
    CHK("shf.l.clamp.b32", 3, 0x80000000, 1, 1);        /* §9.7.7.7 */
    CHK("shf.l.wrap.b32", 3, 0x80000000, 1, 33);        /* wrap: 33 & 31 = 1 */
    CHK("shf.l.clamp.b32", 0x80000000, 0x80000000, 1, 40); /* clamp to 32: d = a */
    CHK("shf.l.clamp.b32", 1, 0x80000000, 1, 0);        /* n 0: d = b */
    CHK("shf.r.clamp.b32", 0x80000000, 0, 1, 1);
    CHK("shf.r.wrap.b32", 0x80000000, 0, 1, 33);
    CHK("shf.r.clamp.b32", 1, 0, 1, 40);                /* clamp 32: d = b */
    CHK("shf.r.wrap.b32", 0x81234567, 0x12345678, 0x12345678, 4); /* rotate right */
    CHK("shf.l.wrap.b32", 0x23456781, 0x12345678, 0x12345678, 4); /* rotate left */
    CHK("shl.b32", 0x80000000, 1, 31);                  /* §9.7.7.8 */
    CHK("shl.b32", 0, 1, 32);                           /* amounts >= N clamp to N */
    CHK("shl.b32", 0, 1, 0xffffffff);
    CHK("shl.b16", 0, 1, 16);
    CHK("shl.b16", 0x8000, 1, 15);
    CHK("shl.b64", 0, 1, 64);
    CHK("shl.b64", 1ull << 63, 1, 63);
    CHK("shl.b32", 2, 1, 0x100000001ull);                /* b is a 32-bit operand */
    CHK("shl", 4, 1, 2);
    CHK("shr.s32", 0xffffffff, 0x80000000, 31);         /* §9.7.7.9 sign fill */
    CHK("shr.s32", 0xffffffff, 0x80000000, 100);        /* clamped: all sign bits */
    CHK("shr.s32", 0, 0x40000000, 100);
    CHK("shr.u32", 0, 0x80000000, 100);
    CHK("shr.u32", 1, 0x80000000, 31);
    CHK("shr.b32", 0, 0x80000000, 32);
    CHK("shr.b16", 1, 0x8000, 15);
    CHK("shr.s16", 0xffff, 0x8000, 20);
    CHK("shr.s16", 0xc000, 0x8000, 1);
    CHK("shr.u16", 0x4000, 0x8000, 1);
    CHK("shr.s64", ~0ull, 0x8000000000000000ull, 64);
    CHK("shr.s64", 0xc000000000000000ull, 0x8000000000000000ull, 1);
    CHK("shr.u64", 0, ~0ull, 64);
    CHK("shr.u64", 1, ~0ull, 63);
    CHK("shr", ~0ull, N64(-8), 10);
}
END_TEST

/* ---------------------------------------------------------------- §9.7.8 data movement */
START_TEST(movement)
{
    CHK("mov.u32", 0x5678, 0x5678);                     /* §9.7.8.3 */
    CHK("mov.u32", 0x12345678, 0xabcd12345678ull);
    CHK("mov.u16", 0x5678, 0x12345678);
    CHK("mov.pred", 1, 1);
    CHK("mov.pred", 0, 2);
    CHK("mov.f32", 0x3f800000, 0x3f800000);
    CHK("mov.f64", 0x3ff0000000000000ull, 0x3ff0000000000000ull);
    CHK("mov", ~0ull, ~0ull);
    uint64_t a = 0x03020100, b = 0x07060504;            /* §9.7.8.7 prmt: byte i = i */
    CHK("prmt.b32", a, a, b, 0x3210);
    CHK("prmt.b32", b, a, b, 0x7654);
    CHK("prmt.b32", 0x04050607, a, b, 0x4567);
    CHK("prmt.b32", 0, a, b, 0);
    CHK("prmt.b32", 0x808080ff, 0x80, 0, 0x0008);       /* msb of selector: sign replicate */
    CHK("prmt.b32", 0xffffffff, 0x80, 0, 0x8888);
    CHK("prmt.b32", 0x00000000, 0x7f, 0, 0x8888);
    CHK("prmt.b32.f4e", 0x03020100, a, b, 0);           /* forward 4 extract */
    CHK("prmt.b32.f4e", 0x04030201, a, b, 1);
    CHK("prmt.b32.f4e", 0x06050403, a, b, 7);           /* only c[1:0] */
    CHK("prmt.b32.b4e", 0x05060700, a, b, 0);           /* backward 4 extract */
    CHK("prmt.b32.b4e", 0x06070001, a, b, 1);
    CHK("prmt.b32.b4e", 0x00010203, a, b, 3);
    CHK("prmt.b32.rc8", 0x02020202, a, b, 2);           /* replicate 8 */
    CHK("prmt.b32.rc8", 0x00000000, a, b, 0);
    CHK("prmt.b32.ecl", 0x03020101, a, b, 1);           /* edge clamp left */
    CHK("prmt.b32.ecl", 0x03020202, a, b, 2);
    CHK("prmt.b32.ecl", 0x03030303, a, b, 3);
    CHK("prmt.b32.ecr", 0x00000000, a, b, 0);           /* edge clamp right */
    CHK("prmt.b32.ecr", 0x02020100, a, b, 2);
    CHK("prmt.b32.ecr", 0x03020100, a, b, 3);
    CHK("prmt.b32.rc16", 0x01000100, a, b, 0);          /* replicate 16 */
    CHK("prmt.b32.rc16", 0x03020302, a, b, 1);
    CHK("prmt.b32.rc16", 0x01000100, a, b, 2);
    CHK("prmt.b32.rc8", 0x80808080, 0x80, 0, 0);        /* no sign extension in modes */
}
END_TEST

START_TEST(cvt_int)
{
    CHK("cvt.s32.s8", 0xffffff80, 0x80);                /* §9.7.8.20 sign-extend */
    CHK("cvt.u32.s8", 0xffffffff, 0xff);
    CHK("cvt.u32.u8", 0xff, 0xff);
    CHK("cvt.u8.u32", 0xff, 0x1ff);                     /* truncate */
    CHK("cvt.s8.s32", 0x2c, 300);
    CHK("cvt.sat.u8.u32", 0xff, 0x1ff);                 /* .sat clamps, both signednesses */
    CHK("cvt.sat.u8.s32", 0, N32(-1));
    CHK("cvt.sat.s8.s32", 0x7f, 300);
    CHK("cvt.sat.s8.s32", 0x80, N32(-300));
    CHK("cvt.sat.s8.s32", N32(-5) & 0xff, N32(-5));
    CHK("cvt.sat.u32.s64", 0, N64(-1));
    CHK("cvt.sat.s32.u32", 0x7fffffff, M32);
    CHK("cvt.sat.s32.s64", 0x80000000, 0x8000000000000000ull);
    CHK("cvt.sat.u64.s64", 0, N64(-5));
    CHK("cvt.sat.s64.u64", 0x7fffffffffffffffull, ~0ull);
    CHK("cvt.sat.u16.u64", 0xffff, 0x10000);
    CHK("cvt.u64.u32", 0xffffffff, 0xffffffffffffffffull);
    CHK("cvt.s64.s32", 0xffffffff80000000ull, 0x80000000);
    CHK("cvt.u16.s8", 0xff80, 0x80);
    CHK("cvt.s16.u8", 0x80, 0x80);
}
END_TEST

/* ---------------------------------------------------------------- §9.7.5 compare / select */
START_TEST(compare_int)
{
    CHK("setp.lt.s32", 1, N32(-1), 1);                  /* §9.7.5.2 signed */
    CHK("setp.lt.u32", 0, N32(-1), 1);
    CHK("setp.lo.u32", 0, N32(-1), 1);                  /* lo/ls/hi/hs: unsigned */
    CHK("setp.lo.s32", 0, N32(-1), 1);
    CHK("setp.ls.u32", 1, 1, 1);
    CHK("setp.hi.u32", 1, N32(-1), 1);
    CHK("setp.hs.u32", 1, 1, 1);
    CHK("setp.hs.u32", 0, 0, 1);
    CHK("setp.eq.b32", 1, 0x100000005ull, 5);           /* width-masked */
    CHK("setp.ne.b64", 1, 1, 2);
    CHK("setp.eq.s16", 1, 0xffff, 0x1ffff);
    CHK("setp.le.s32", 1, 3, 3);
    CHK("setp.gt.s32", 0, 3, 3);
    CHK("setp.ge.s32", 1, 3, 3);
    CHK("setp.gt.s64", 1, 1, ~0ull);
    CHK("setp.gt.u64", 0, 1, ~0ull);
    CHK("setp.ne.u16", 0, 7, 7);
    CHK("setp.eq", 1, N64(-1), ~0ull);
    CHK("setp.lt", 1, N64(-1), 0);
    CHK("setp.lt.and.s32", 0, 1, 2, 0);                 /* p = t and c, q = !t and c */
    ck_assert_uint_eq(D1, 0);
    CHK("setp.lt.and.s32", 1, 1, 2, 1);
    ck_assert_uint_eq(D1, 0);
    CHK("setp.lt.and.s32", 0, 2, 1, 1);
    ck_assert_uint_eq(D1, 1);
    CHK("setp.lt.or.s32", 1, 2, 1, 1);
    ck_assert_uint_eq(D1, 1);
    CHK("setp.lt.or.s32", 0, 2, 1, 0);
    ck_assert_uint_eq(D1, 1);
    CHK("setp.lt.xor.s32", 0, 1, 2, 1);
    ck_assert_uint_eq(D1, 1);
    CHK("setp.lt.xor.s32", 1, 1, 2, 0);
    ck_assert_uint_eq(D1, 0);
    /* p|q without BoolOp: q = !t */
    isa_insn in = dec("setp.ge.u32");
    isa_set_pair(&in);
    uint64_t s[2] = {1, 2}, d[2] = {9, 9};
    char err[64];
    ck_assert_int_eq(isa_eval(&in, s, d, err, sizeof err), 0);
    ck_assert_uint_eq(d[0], 0);
    ck_assert_uint_eq(d[1], 1);
    CHK("set.lt.u32.s32", 0xffffffff, N32(-1), 1);      /* §9.7.5.1 */
    CHK("set.lt.s32.u32", 0, N32(-1), 1);
    CHK("set.lt.f32.s32", 0x3f800000, N32(-1), 1);      /* 1.0f for float dtype */
    CHK("set.gt.and.u32.u32", 0, 2, 1, 0);
    CHK("set.gt.or.u32.u32", 0xffffffff, 1, 2, 1);
    CHK("set.eq.u32.b16", 0xffffffff, 0x1234, 0x51234);
    CHK("selp.b32", 7, 7, 9, 1);                        /* §9.7.5.3 */
    CHK("selp.b32", 9, 7, 9, 0);
    CHK("selp.u16", 0x2345, 0x12345, 9, 1);
    CHK("selp.s64", ~0ull, ~0ull, 0, 1);
    CHK("selp", 2, 1, 2, 0);
    CHK("slct.u32.s32", 9, 7, 9, N32(-1));              /* §9.7.5.4 c >= 0 ? a : b */
    CHK("slct.u32.s32", 7, 7, 9, 0);
    CHK("slct.b64.s32", 1ull << 40, 1ull << 40, 9, 5);
}
END_TEST

/* ---------------------------------------------------------------- §9.7.12.5 atomics */
static uint64_t AP(isa_atom_op op, isa_type t, uint64_t old, uint64_t b, uint64_t c, int want_rc)
{
    uint64_t nv = 0xdeadbeef;
    ck_assert_int_eq(isa_atom_apply(op, t, old, b, c, &nv), want_rc);
    return nv;
}
START_TEST(atomics)
{
    ck_assert_int_eq(isa_atom_parse("add"), ISA_ATOM_ADD);
    ck_assert_int_eq(isa_atom_parse(".cas"), ISA_ATOM_CAS);
    ck_assert_int_eq(isa_atom_parse("dec"), ISA_ATOM_DEC);
    ck_assert_int_eq(isa_atom_parse("frob"), ISA_ATOM_NONE);
    for (int op = 1; op < ISA_ATOM_COUNT; op++)
        ck_assert_int_eq(isa_atom_parse(isa_atom_name((isa_atom_op)op)), op);
    ck_assert_str_eq(isa_atom_name(ISA_ATOM_EXCH), "exch");
    ck_assert_uint_eq(AP(ISA_ATOM_ADD, ISA_T_U32, M32, 1, 0, 1), 0);     /* truncated to width */
    ck_assert_uint_eq(AP(ISA_ATOM_ADD, ISA_T_NONE, M32, 1, 0, 1), 0x100000000ull); /* NONE = s64 */
    ck_assert_uint_eq(AP(ISA_ATOM_ADD, ISA_T_S32, 5, N32(-2), 0, 1), 3);
    ck_assert_uint_eq(AP(ISA_ATOM_SUB, ISA_T_NONE, 0, 1, 0, 1), ~0ull);  /* add of -b */
    ck_assert_uint_eq(AP(ISA_ATOM_SUB, ISA_T_U32, 0, 1, 0, 1), M32);
    ck_assert_uint_eq(AP(ISA_ATOM_EXCH, ISA_T_B32, 5, 0x1234567890ull, 0, 1), 0x34567890);
    ck_assert_uint_eq(AP(ISA_ATOM_CAS, ISA_T_B32, 5, 5, 9, 1), 9); /* cas(r,s,t) = r==s ? t : r */
    ck_assert_uint_eq(AP(ISA_ATOM_CAS, ISA_T_B32, 5, 6, 9, 0), 5);       /* failed: no write */
    ck_assert_uint_eq(AP(ISA_ATOM_CAS, ISA_T_B32, 0x100000005ull, 5, 9, 1),
                      9); /* compared at width */
    ck_assert_uint_eq(AP(ISA_ATOM_CAS, ISA_T_NONE, 1, 1, 2, 1), 2);
    ck_assert_uint_eq(AP(ISA_ATOM_AND, ISA_T_B32, 0xff, 0x0f, 0, 1), 0x0f);
    ck_assert_uint_eq(AP(ISA_ATOM_OR, ISA_T_B32, 0xf0, 0x0f, 0, 1), 0xff);
    ck_assert_uint_eq(AP(ISA_ATOM_XOR, ISA_T_B64, 0xff, 0x0f, 0, 1), 0xf0);
    ck_assert_uint_eq(AP(ISA_ATOM_MIN, ISA_T_S32, 1, M32, 0, 1), M32);   /* signed min */
    ck_assert_uint_eq(AP(ISA_ATOM_MIN, ISA_T_U32, 1, M32, 0, 1), 1);     /* unsigned min */
    ck_assert_uint_eq(AP(ISA_ATOM_MAX, ISA_T_S32, 1, M32, 0, 1), 1);
    ck_assert_uint_eq(AP(ISA_ATOM_MAX, ISA_T_U32, 1, M32, 0, 1), M32);
    ck_assert_uint_eq(AP(ISA_ATOM_MIN, ISA_T_NONE, 1, ~0ull, 0, 1), ~0ull);
    ck_assert_uint_eq(AP(ISA_ATOM_MAX, ISA_T_S64, 1, ~0ull, 0, 1), 1);
    ck_assert_uint_eq(AP(ISA_ATOM_INC, ISA_T_U32, 5, 5, 0, 1), 0); /* (old >= b) ? 0 : old+1 */
    ck_assert_uint_eq(AP(ISA_ATOM_INC, ISA_T_U32, 3, 5, 0, 1), 4);
    ck_assert_uint_eq(AP(ISA_ATOM_INC, ISA_T_U32, 9, 5, 0, 1), 0);
    ck_assert_uint_eq(AP(ISA_ATOM_DEC, ISA_T_U32, 0, 5, 0, 1), 5); /* (old==0||old>b) ? b : old-1 */
    ck_assert_uint_eq(AP(ISA_ATOM_DEC, ISA_T_U32, 7, 5, 0, 1), 5);
    ck_assert_uint_eq(AP(ISA_ATOM_DEC, ISA_T_U32, 3, 5, 0, 1), 2);
    ck_assert_uint_eq(AP(ISA_ATOM_NONE, ISA_T_U32, 3, 5, 0, -1), 0xdeadbeef);
}
END_TEST

/* ---------------------------------------------------------------- §9.7.3 floating point */
static uint64_t F(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static uint64_t D(double f) { uint64_t u; memcpy(&u, &f, 8); return u; }
static float AF(uint64_t u) { uint32_t v = (uint32_t)u; float f; memcpy(&f, &v, 4); return f; }
#define QNAN32 0x7fffffffull
#define SUB32 0x00000001ull  /* smallest positive subnormal */
#define NSUB32 0x80000001ull
#define INF32 0x7f800000ull
#define NINF32 0xff800000ull

START_TEST(fp_add_sub_mul)
{
    CHK("add.f32", F(3), F(1), F(2));                                /* §9.7.3.3 */
    CHK("add.rn.f32", F(1), F(1), F(0x1p-24f));                      /* tie to even */
    CHK("add.rp.f32", 0x3f800001, F(1), F(0x1p-24f));
    CHK("add.rz.f32", F(1), F(1), F(0x1p-24f));
    CHK("add.rm.f32", 0xbf800001, F(-1), F(-0x1p-24f));
    CHK("add.rz.f32", F(-1), F(-1), F(-0x1p-24f));
    CHK("add.f32", F(1), F(1), F(0x1p-24f)); /* mode restored: default .rn */
    CHK("add.rp.f64", 0x3ff0000000000001ull, D(1), D(0x1p-60));
    CHK("add.rm.f64", D(1), D(1), D(0x1p-60));
    CHK("add.f64", D(0.75), D(0.5), D(0.25));
    CHK("add.sat.f32", F(1), F(0.5f), F(0.75f));                     /* .sat clamps to [0,1] */
    CHK("add.sat.f32", 0, F(-1), F(0.5f));
    CHK("add.sat.f32", 0, QNAN32, F(1));                             /* NaN -> +0.0 */
    CHK("add.ftz.f32", 0, SUB32, 0);                                 /* flush input */
    CHK("add.f32", SUB32, SUB32, 0); /* subnormals kept by default */
    CHK("add.ftz.f32", 0x80000000, NSUB32, 0x80000000);              /* sign-preserving */
    CHK("add.ftz.f32", 0x80000000, 0x00800000, 0x80800001); /* -2^-149 result: flushed to -0 */
    CHK("add.f32", QNAN32, 0x7fc00001, F(1));                        /* f32 NaN: canonical */
    CHK("add.f32", QNAN32, INF32, NINF32);
    CHK("add.f64", 0x7ff8000000000123ull, 0x7ff8000000000123ull, D(1)); /* f64 NaN payload kept */
    CHK("sub.f32", F(2), F(3), F(1));                                /* §9.7.3.4 */
    CHK("sub.rm.f32", 0x80000000, F(1), F(1));                       /* x - x = -0 rounding down */
    CHK("sub.rn.f32", 0, F(1), F(1));
    CHK("sub.f64", D(-1), D(1), D(2));
    CHK("sub.sat.f32", F(1), F(3), F(1));
    CHK("mul.f32", F(6), F(2), F(3));                                /* §9.7.3.5 */
    CHK("mul.rz.f32", 0x3f800002, 0x3f800001, 0x3f800001);           /* 1 + 2^-22 + 2^-46 */
    CHK("mul.rp.f32", 0x3f800003, 0x3f800001, 0x3f800001);
    CHK("mul.rn.f32", 0x3f800002, 0x3f800001, 0x3f800001);
    CHK("mul.sat.f32", F(1), F(2), F(2));
    CHK("mul.f64", D(6), D(2), D(3));
    CHK("mul.rp.f64", 0x3ff0000000000003ull, 0x3ff0000000000001ull, 0x3ff0000000000001ull);
    CHK("add", 3, 1, 2); /* bare add stays integer */
    bad("add.sat.f64");  /* Table 26: .sat/.ftz n/a for f64 */
    bad("add.ftz.f64");
    bad("add.rni.f32");
    bad("add.rz.f16");   /* §9.7.4.1 half precision: only .rn */
}
END_TEST

START_TEST(fp_fma_div)
{
    CHK("fma.rn.f32", 0xa8800000, 0x3f800001, 0x3f7ffffe, F(-1));    /* §9.7.3.6 fused: -2^-46 */
    CHK("fma.rn.f64", D(-0x1p-104), 0x3ff0000000000001ull, 0x3feffffffffffffeull, D(-1));
    CHK("fma.rz.f32", F(7), F(2), F(3), F(1));
    CHK("fma.rn.sat.f32", F(1), F(2), F(3), F(1));
    CHK("mad.rn.f32", 0xa8800000, 0x3f800001, 0x3f7ffffe, F(-1));    /* §9.7.3.7 mad = fma */
    CHK("mad.f32", F(7), F(2), F(3), F(1));
    CHK("mad.rn.f64", D(7), D(2), D(3), D(1));
    CHK("mad.lo.s32", 7, 2, 3, 1);                                   /* integer mad still there */
    bad("fma.f32");                                                  /* rounding required */
    CHK("div.rn.f32", 0x3eaaaaab, F(1), F(3));                       /* §9.7.3.8 IEEE */
    CHK("div.rz.f32", 0x3eaaaaaa, F(1), F(3));
    CHK("div.rm.f32", 0x3eaaaaaa, F(1), F(3));
    CHK("div.rp.f32", 0x3eaaaaab, F(1), F(3));
    CHK("div.rn.f64", 0x3fd5555555555555ull, D(1), D(3));
    CHK("div.rp.f64", 0x3fd5555555555556ull, D(1), D(3));
    CHK("div.f64", 0x3fd5555555555555ull, D(1), D(3));               /* f64 default .rn */
    CHK("div.rn.f32", INF32, F(1), 0);
    CHK("div.rn.f32", QNAN32, 0, 0);
    CHK("div.rn.ftz.f32", 0, 0x00800000, F(4));                      /* subnormal result flushed */
    CHK("div.rn.f32", 0x00200000, 0x00800000, F(4));
    bad("div.f32"); /* .approx/.full/.rnd required */
    uint64_t q = EV("div.approx.f32", F(1), F(3));
    ck_assert_msg(q - 0x3eaaaaab + 2 <= 4, "div.approx 1/3 = 0x%llx",
                  (unsigned long long)q); /* 2 ulp */
    CHK("div.approx.f32", F(2), F(6), F(3));
    CHK("div.approx.f32", INF32, F(1), 0);                           /* /0: inf, sign of a */
    CHK("div.approx.f32", NINF32, F(-1), 0);
    CHK("div.approx.f32", INF32, F(1), 0x80000000);
    CHK("div.approx.f32", QNAN32, INF32, F(0x1p127f));                /* 2^126 < |b| < 2^128 */
    CHK("div.approx.f32", 0, F(1), F(0x1p127f));
    CHK("div.approx.ftz.f32", 0, SUB32, F(1));
    CHK("div.full.f32", F(2), F(6), F(3));
    CHK("div.full.f32", 0x3eaaaaab, F(1), F(3));
    CHK("div.full.ftz.f32", 0, 0x00800000, F(4));                    /* results flushed */
}
END_TEST

START_TEST(fp_rcp_sqrt)
{
    CHK("rcp.rn.f32", 0x3eaaaaab, F(3));                             /* §9.7.3.13 */
    CHK("rcp.rz.f32", 0x3eaaaaaa, F(3));
    CHK("rcp.rn.f64", 0x3fd5555555555555ull, D(3));
    CHK("rcp.rn.f32", INF32, 0);
    bad("rcp.f32");
    CHK("rcp.approx.f32", F(0.5f), F(2));                            /* table of special cases */
    CHK("rcp.approx.f32", NINF32, NSUB32);
    CHK("rcp.approx.f32", NINF32, 0x80000000);
    CHK("rcp.approx.f32", INF32, 0);
    CHK("rcp.approx.f32", INF32, SUB32);
    CHK("rcp.approx.f32", 0x80000000, NINF32);
    CHK("rcp.approx.f32", 0, INF32);
    CHK("rcp.approx.f32", QNAN32, 0x7fc00000);
    uint64_t r = EV("rcp.approx.f32", F(1.5f)); /* abs error <= 2^-23 on [1,2) */
    ck_assert(fabs(AF(r) - 1.0 / 1.5) <= 0x1p-23);
    CHK("rcp.approx.ftz.f64", 0x3fe0000000000000ull, D(2));           /* §9.7.3.14 upper word */
    CHK("rcp.approx.ftz.f64", 0x3fd5555500000000ull, D(3));
    CHK("rcp.approx.ftz.f64", 0x3fe0000000000000ull, D(2) | 0xffffffffull); /* low word ignored */
    CHK("rcp.approx.ftz.f64", 0x7fffffff00000000ull, 0x7ff8000000000001ull); /* canonical NaN */
    CHK("rcp.approx.ftz.f64", 0x7ff0000000000000ull, 0x0000000100000000ull); /* subnormal -> +Inf */
    CHK("rcp.approx.ftz.f64", 0x8000000000000000ull, 0xfff0000000000000ull);
    bad("rcp.approx.f64");
    CHK("sqrt.rn.f32", 0x3fb504f3, F(2));                            /* §9.7.3.15 */
    CHK("sqrt.rz.f32", 0x3fb504f3, F(2));
    CHK("sqrt.rp.f32", 0x3fb504f4, F(2));
    CHK("sqrt.rn.f64", 0x3ff6a09e667f3bcdull, D(2));
    CHK("sqrt.rn.f32", QNAN32, F(-1));
    CHK("sqrt.rn.f32", 0x80000000, 0x80000000);
    CHK("sqrt.approx.f32", F(2), F(4));
    CHK("sqrt.approx.f32", QNAN32, F(-1));                           /* -normal -> NaN */
    CHK("sqrt.approx.f32", QNAN32, NINF32);
    CHK("sqrt.approx.f32", 0x80000000, NSUB32);                      /* -subnormal -> -0 */
    CHK("sqrt.approx.f32", 0, SUB32);
    CHK("sqrt.approx.f32", INF32, INF32);
    bad("sqrt.f32");
    CHK("rsqrt.approx.f32", F(0.5f), F(4));                          /* §9.7.3.16 */
    CHK("rsqrt.approx.f32", NINF32, 0x80000000);
    CHK("rsqrt.approx.f32", NINF32, NSUB32);
    CHK("rsqrt.approx.f32", INF32, SUB32);
    CHK("rsqrt.approx.f32", 0, INF32);
    CHK("rsqrt.approx.f32", QNAN32, F(-1));
    CHK("rsqrt.approx.f32", QNAN32, NINF32);
    r = EV("rsqrt.approx.f32", F(2)); /* abs error <= 2^-22.4 on [1,4) */
    ck_assert(fabs(AF(r) - 1.0 / sqrt(2.0)) <= 0x1p-22);
    CHK("rsqrt.approx.f64", D(0.5), D(4));
    CHK("rsqrt.approx.ftz.f64", 0x3fe0000000000000ull, D(4));         /* §9.7.3.17 */
    CHK("rsqrt.approx.ftz.f64", 0x7fffffff00000000ull, 0x7ff8000000000000ull);
    CHK("rsqrt.approx.ftz.f64", 0xfff0000000000000ull,
        0x8000000100000000ull); /* -subnormal -> -Inf */
}
END_TEST

START_TEST(fp_misc)
{
    CHK("abs.f32", F(2), F(-2));                                     /* §9.7.3.9 */
    CHK("abs.f32", 0, 0x80000000);
    CHK("abs.ftz.f32", 0, NSUB32);
    CHK("abs.f32", SUB32, NSUB32);
    CHK("abs.f64", D(2), D(-2));
    CHK("neg.f32", F(-2), F(2));                                     /* §9.7.3.10 */
    CHK("neg.f32", 0x80000000, 0);
    CHK("neg.ftz.f32", 0, NSUB32);
    CHK("neg.f64", D(-3), D(3));
    CHK("neg.s32", N32(-3), 3);
    CHK("min.f32", F(1), F(1), F(2));                                /* §9.7.3.11 */
    CHK("min.f32", F(2), QNAN32, F(2));                              /* NaN operand ignored */
    CHK("min.f32", F(2), F(2), 0x7fc00000);
    CHK("min.f32", QNAN32, 0x7fc00000, 0x7fc00001);
    CHK("min.NaN.f32", QNAN32, QNAN32, F(2));                        /* .NaN propagates */
    CHK("min.NaN.f32", F(1), F(1), F(2));
    CHK("min.f32", 0x80000000, 0x80000000, 0);                       /* +0.0 > -0.0 */
    CHK("min.f32", 0x80000000, 0, 0x80000000);
    CHK("min.f32", F(-5), F(-5), F(3));
    CHK("min.ftz.f32", 0x80000000, NSUB32, 0);
    CHK("min.xorsign.abs.f32", F(-2), F(-2), F(3));
    CHK("min.xorsign.abs.f32", F(2), F(-2), F(-3));
    CHK("min.xorsign.abs.f32", F(-3), QNAN32, F(-3));                  /* d = |b|, sign 0^1 */
    CHK("min.xorsign.abs.f32", QNAN32, QNAN32, 0xffc00000); /* NaN result: modifiers ignored */
    CHK("min.f64", D(1), D(1), D(2));
    CHK("min.f64", D(2), 0x7ff8000000000000ull, D(2));
    CHK("max.f32", F(2), F(1), F(2));                                /* §9.7.3.12 */
    CHK("max.f32", F(1), QNAN32, F(1));
    CHK("max.NaN.f32", QNAN32, F(1), QNAN32);
    CHK("max.f32", 0, 0x80000000, 0);
    CHK("max.f32", 0, 0, 0x80000000);
    CHK("max.xorsign.abs.f32", F(-3), F(-2), F(3));
    CHK("max.xorsign.abs.f32", F(3), F(-2), F(-3));
    CHK("max.f64", D(1), 0x7ff8000000000000ull, D(1));
    CHK("max.f64", 0, 0x8000000000000000ull, 0);
    bad("min.xorsign.f32");
    bad("min.NaN.f64");
    CHK("copysign.f32", F(-2), F(-1), F(2));                         /* §9.7.3.2 sign of a */
    CHK("copysign.f32", F(2), F(1), F(-2));
    CHK("copysign.f64", D(-2), D(-1), D(2));
    CHK("testp.finite.f32", 1, F(1));                                /* §9.7.3.1 */
    CHK("testp.finite.f32", 0, INF32);
    CHK("testp.finite.f32", 0, QNAN32);
    CHK("testp.infinite.f32", 1, NINF32);
    CHK("testp.infinite.f32", 0, QNAN32);
    CHK("testp.number.f32", 0, QNAN32);
    CHK("testp.number.f32", 1, INF32);
    CHK("testp.notanumber.f32", 1, 0x7f800001);
    CHK("testp.notanumber.f64", 1, 0x7ff0000000000001ull);
    CHK("testp.notanumber.f64", 0, 0x7ff0000000000000ull);
    CHK("testp.normal.f32", 1, 0);                                   /* zero counts as normal */
    CHK("testp.normal.f32", 1, 0x80000000);
    CHK("testp.normal.f32", 0, SUB32);
    CHK("testp.normal.f32", 0, INF32);
    CHK("testp.subnormal.f32", 1, NSUB32);
    CHK("testp.subnormal.f32", 0, 0);
    CHK("testp.subnormal.f64", 1, 1);
    CHK("testp.normal.f64", 1, D(1));
    bad("testp.f32");
    CHK("sin.approx.f32", 0, 0);                                     /* §9.7.3.18 */
    CHK("sin.approx.f32", 0x80000000, NSUB32);
    CHK("sin.approx.f32", QNAN32, INF32);
    uint64_t r = EV("sin.approx.f32", F(1.5707963f));
    ck_assert(fabs(AF(r) - 1.0) <= exp2(-20.9));
    r = EV("sin.approx.f32", F(0.5f));
    ck_assert(fabs(AF(r) - sin(0.5)) <= exp2(-20.9));
    CHK("cos.approx.f32", F(1), 0);                                  /* §9.7.3.19 */
    CHK("cos.approx.f32", F(1), NSUB32);
    CHK("cos.approx.f32", QNAN32, NINF32);
    r = EV("cos.approx.ftz.f32", F(1));
    ck_assert(fabs(AF(r) - cos(1.0)) <= exp2(-20.9));
    CHK("lg2.approx.f32", F(3), F(8));                               /* §9.7.3.20 */
    CHK("lg2.approx.f32", NINF32, 0);
    CHK("lg2.approx.f32", NINF32, SUB32);
    CHK("lg2.approx.f32", NINF32, NSUB32);
    CHK("lg2.approx.f32", QNAN32, F(-1));
    CHK("lg2.approx.f32", INF32, INF32);
    CHK("ex2.approx.f32", F(8), F(3));                               /* §9.7.3.21 */
    CHK("ex2.approx.f32", 0, NINF32);
    CHK("ex2.approx.f32", F(1), NSUB32);
    CHK("ex2.approx.f32", INF32, INF32);
    CHK("ex2.approx.ftz.f32", F(0.5f), F(-1));
    CHK("tanh.approx.f32", F(1), INF32);                             /* §9.7.3.22 */
    CHK("tanh.approx.f32", F(-1), NINF32);
    CHK("tanh.approx.f32", SUB32, SUB32);                            /* subnormal passes */
    CHK("tanh.approx.f32", 0x80000000, 0x80000000);
    r = EV("tanh.approx.f32", F(0.5f));
    ck_assert(fabs(AF(r) - tanh(0.5)) <= 0x1p-11 * tanh(0.5));
    bad("sin.f32");
    bad("tanh.approx.ftz.f32");
}
END_TEST

START_TEST(fp_compare)
{
    CHK("setp.lt.f32", 1, F(1), F(2));                               /* §9.7.5.2 float notes */
    CHK("setp.lt.f32", 0, QNAN32, F(2));                             /* ordered: NaN -> false */
    CHK("setp.ne.f32", 0, QNAN32, QNAN32);
    CHK("setp.eq.f32", 1, 0x80000000, 0);                            /* -0 == +0 */
    CHK("setp.ltu.f32", 1, QNAN32, F(2));                            /* unordered: NaN -> true */
    CHK("setp.ltu.f32", 0, F(3), F(2));
    CHK("setp.equ.f32", 1, QNAN32, F(2));
    CHK("setp.equ.f32", 1, F(2), F(2));
    CHK("setp.neu.f32", 1, QNAN32, QNAN32);
    CHK("setp.neu.f32", 0, F(2), F(2));
    CHK("setp.leu.f32", 1, F(2), F(2));
    CHK("setp.gtu.f32", 1, F(2), QNAN32);
    CHK("setp.gtu.f32", 0, F(1), F(2));
    CHK("setp.geu.f64", 1, D(2), D(2));
    CHK("setp.num.f32", 1, F(1), F(2));
    CHK("setp.num.f32", 0, F(1), QNAN32);
    CHK("setp.nan.f64", 1, 0x7ff8000000000000ull, D(1));
    CHK("setp.nan.f64", 0, D(1), D(1));
    CHK("setp.gt.f64", 1, D(2), D(1));
    CHK("setp.ge.f64", 0, 0x7ff8000000000000ull, D(1));
    CHK("setp.le.f32", 1, NINF32, F(-1e30f));
    CHK("setp.eq.f32", 0, SUB32, 0);                                 /* subnormals supported */
    CHK("setp.eq.ftz.f32", 1, SUB32, 0);                             /* .ftz flushes inputs */
    CHK("setp.lt.and.f32", 1, F(1), F(2), 1);
    ck_assert_uint_eq(D1, 0);
    bad("setp.eq.ftz.f64");
    CHK("set.lt.u32.f32", 0xffffffff, F(1), F(2));                   /* §9.7.5.1 */
    CHK("set.lt.f32.f64", 0x3f800000, D(1), D(2));
    CHK("set.nan.s32.f32", 0xffffffff, QNAN32, F(1));
    CHK("slct.u32.f32", 7, 7, 9, F(1));                              /* §9.7.5.4 */
    CHK("slct.u32.f32", 9, 7, 9, F(-1));
    CHK("slct.u32.f32", 7, 7, 9, 0x80000000);                        /* -0 >= 0 */
    CHK("slct.u32.f32", 9, 7, 9, QNAN32);                            /* NaN selects b */
    CHK("slct.u32.f32", 9, 7, 9, NSUB32);                            /* -subnormal < 0 */
    CHK("slct.ftz.u32.f32", 7, 7, 9, NSUB32);                        /* .ftz: flushed, a selected */
    CHK("slct.f64.f32", D(1), D(1), D(2), F(0));
    CHK("selp.f32", F(1), F(1), F(2), 1);
    CHK("selp.f64", D(2), D(1), D(2), 0);
}
END_TEST

START_TEST(fp_cvt)
{
    CHK("cvt.rni.s32.f32", 2, F(2.5f)); /* §9.7.8.20 integer rounding */
    CHK("cvt.rni.s32.f32", 4, F(3.5f));
    CHK("cvt.rni.s32.f32", N32(-2), F(-2.5f));
    CHK("cvt.rzi.s32.f32", N32(-2), F(-2.7f));
    CHK("cvt.rmi.s32.f32", N32(-3), F(-2.7f));
    CHK("cvt.rpi.s32.f32", N32(-2), F(-2.3f));
    CHK("cvt.rpi.s32.f32", 3, F(2.3f));
    CHK("cvt.rni.s32.f32", 0, QNAN32);                               /* NaN -> 0 */
    CHK("cvt.rzi.u64.f64", 0, 0x7ff8000000000000ull);
    CHK("cvt.rzi.s32.f32", 0x7fffffff, F(1e10f));                    /* clamped by default */
    CHK("cvt.rzi.s32.f32", 0x80000000, F(-1e10f));
    CHK("cvt.rzi.s32.f32", 0x7fffffff, INF32);
    CHK("cvt.rzi.u32.f32", 0, F(-5));
    CHK("cvt.rzi.u8.f32", 0xff, F(300));
    CHK("cvt.rzi.s8.f32", 0x80, F(-300));
    CHK("cvt.rni.s16.f32", 0x8000, F(-40000));
    CHK("cvt.rzi.s64.f64", 0x7fffffffffffffffull, D(1e300));
    CHK("cvt.rzi.s64.f64", 0x8000000000000000ull, D(-1e300));
    CHK("cvt.rzi.s64.f64", 0x8000000000000000ull, D(-0x1p63));
    CHK("cvt.rzi.u64.f64", ~0ull, D(0x1p64));
    CHK("cvt.rzi.u64.f64", 0xfffffffffffff800ull, D(0x1.fffffffffffffp63));
    CHK("cvt.rni.s32.f64", 0, D(-0.5));
    CHK("cvt.rzi.u64.f32", 0, F(-0.5f));
    CHK("cvt.rzi.s32.f32", 0, 0x80000000);
    CHK("cvt.rzi.sat.s32.f32", 0x7fffffff, F(3e9f));
    CHK("cvt.rpi.s32.f32", 1, SUB32);                                /* subnormal kept ... */
    CHK("cvt.rpi.ftz.s32.f32", 0, SUB32);                            /* ... or flushed */
    bad("cvt.s32.f32");                                              /* rounding mandatory */
    bad("cvt.rn.s32.f32");
    CHK("cvt.rn.f32.s32", 0x4b800000, 16777217);                     /* int -> float rounding */
    CHK("cvt.rp.f32.s32", 0x4b800001, 16777217);
    CHK("cvt.rz.f32.u32", 0x4f7fffff, 0xffffffff);
    CHK("cvt.rn.f32.u32", 0x4f800000, 0xffffffff);
    CHK("cvt.rm.f32.s64", 0xcb800001, N64(-16777217));
    CHK("cvt.rz.f32.s64", 0xcb800000, N64(-16777217));
    CHK("cvt.rn.f64.s32", D(-1), N32(-1));
    CHK("cvt.rn.f64.u64", 0x43f0000000000000ull, ~0ull);
    CHK("cvt.rz.f64.u64", 0x43efffffffffffffull, ~0ull);
    CHK("cvt.rn.f64.s8", D(-128), 0x80);
    CHK("cvt.rn.sat.f32.s32", F(1), 5);
    CHK("cvt.rn.sat.f32.s32", 0, N32(-5));
    bad("cvt.f32.s32");
    CHK("cvt.f64.f32", D(1.5), F(1.5f));                             /* float <-> float */
    CHK("cvt.f64.f32", D(0x1p-149), SUB32);
    CHK("cvt.ftz.f64.f32", 0, SUB32);
    CHK("cvt.rn.f32.f64", 0x3eaaaaab, D(1.0 / 3));
    CHK("cvt.rz.f32.f64", 0x3eaaaaaa, D(1.0 / 3));
    CHK("cvt.rm.f32.f64", 0xbeaaaaab, D(-1.0 / 3));
    CHK("cvt.rn.f32.f64", INF32, D(1e300));
    CHK("cvt.rz.f32.f64", 0x7f7fffff, D(1e300));
    CHK("cvt.rn.f32.f64", QNAN32, 0x7ff8000000000001ull);
    CHK("cvt.rn.ftz.f32.f64", 0, D(0x1p-140));
    CHK("cvt.rn.f32.f64", 0x00000200, D(0x1p-140));
    CHK("cvt.rni.f32.f32", F(2), F(2.5f));                           /* integral value, float */
    CHK("cvt.rpi.f64.f64", D(3), D(2.1));
    CHK("cvt.rmi.f64.f64", D(-3), D(-2.1));
    CHK("cvt.rzi.f32.f32", QNAN32, 0x7fc00000);
    CHK("cvt.f32.f32", F(1.25f), F(1.25f));
    CHK("cvt.ftz.f32.f32", 0x80000000, NSUB32);
    CHK("cvt.sat.f32.f32", F(1), F(2));
    CHK("cvt.sat.f32.f32", 0, QNAN32);
    CHK("cvt.sat.f64.f64", D(0.5), D(0.5));
    CHK("cvt.rn.sat.f32.f64", 0, D(-3));
    bad("cvt.f32.f64");
    bad("cvt.rn.f64.f32");
    bad("cvt.rn.f32.f32");
    bad("cvt.ftz.f64.f64");
}
END_TEST

START_TEST(fp_atomics)
{
    ck_assert_uint_eq(AP(ISA_ATOM_ADD, ISA_T_F32, F(1.5f), F(2.25f), 0, 1), F(3.75f));
    ck_assert_uint_eq(AP(ISA_ATOM_ADD, ISA_T_F64, D(1.5), D(2.25), 0, 1), D(3.75));
    ck_assert_uint_eq(AP(ISA_ATOM_EXCH, ISA_T_F32, F(1), F(2), 0, 1), F(2));
    ck_assert_uint_eq(AP(ISA_ATOM_CAS, ISA_T_F32, F(1), F(1), F(2), 1), F(2));
    ck_assert_uint_eq(AP(ISA_ATOM_CAS, ISA_T_F32, F(1), F(3), F(2), 0), F(1));
    ck_assert_uint_eq(AP(ISA_ATOM_MIN, ISA_T_F32, F(1), F(-2), 0, 1), F(-2));
    ck_assert_uint_eq(AP(ISA_ATOM_MAX, ISA_T_F64, D(1), D(-2), 0, 1), D(1));
    AP(ISA_ATOM_INC, ISA_T_F32, F(1), F(2), 0, -1);
    AP(ISA_ATOM_AND, ISA_T_F64, D(1), D(2), 0, -1);
}
END_TEST

/* ---------------------------------------------------------------- §9.7.4/§9.7.6/§9.7.8.20 half */
/* Independent oracle: the sorted list of every finite value of a small format (exact doubles),
 * plus a pseudo entry one ulp above MAX_NORM standing for overflow; rounding = pick a neighbour. */
typedef struct { double v; uint32_t bits; } hent;
static hent *H16, *HB16;
static int NH16, NHB16;
static double hval_of(int eb, int mb, uint32_t bits)
{
    int bias = (1 << (eb - 1)) - 1, sg = bits >> (eb + mb) & 1;
    uint32_t ex = bits >> mb & ((1u << eb) - 1), fr = bits & ((1u << mb) - 1);
    double v = ex ? ldexp(1.0 + ldexp(fr, -mb), (int)ex - bias) : ldexp(fr, 1 - bias - mb);
    return sg ? -v : v;
}
static int hcmp(const void *a, const void *b)
{
    double x = ((const hent *)a)->v, y = ((const hent *)b)->v;
    return x < y ? -1 : x > y;
}
static hent *hlist(int eb, int mb, int *n)
{
    int w = 1 + eb + mb, k = 0;
    hent *L = malloc(sizeof(hent) * ((1u << w) + 2));
    uint32_t inf = ((1u << eb) - 1) << mb;
    for (uint32_t b = 0; b < (1u << w); b++) {
        if ((b & ~(1u << (w - 1))) >= inf || b == 1u << (w - 1)) continue;   /* inf/NaN, -0 */
        L[k].v = hval_of(eb, mb, b), L[k++].bits = b;
    }
    double top = ldexp(1.0, (1 << (eb - 1)));                                /* 2^(emax+1) */
    L[k].v = top, L[k++].bits = inf;
    L[k].v = -top, L[k++].bits = inf | 1u << (w - 1);
    qsort(L, (size_t)k, sizeof *L, hcmp);
    *n = k;
    return L;
}
/* Round x (finite double, not 0) to the list format under r = 'n' 'z' 'm' 'p'. */
static uint32_t oround(const hent *L, int n, double x, int r, uint32_t maxbits, int w)
{
    if (x >= L[n - 1].v) return (r == 'z' || r == 'm') ? maxbits : L[n - 1].bits;
    if (x <= L[0].v) return (r == 'z' || r == 'p') ? maxbits | 1u << (w - 1) : L[0].bits;
    int lo = 0, hi = n - 1;
    while (hi - lo > 1) {
        int mid = (lo + hi) / 2;
        if (L[mid].v <= x) lo = mid; else hi = mid;
    }
    if (L[lo].v == x) return L[lo].bits;
    const hent *a = &L[lo], *b = &L[hi];
    uint32_t res;
    switch (r) {
    case 'z': res = x > 0 ? a->bits : b->bits; break;
    case 'm': res = a->bits; break;
    case 'p': res = b->bits; break;
    default: {
        double da = x - a->v, db = b->v - x;
        res = da < db ? a->bits : db < da ? b->bits : ((a->bits & 1) ? b->bits : a->bits);
    }
    }
    if (res == 0 && x < 0) res = 1u << (w - 1);                             /* -0 */
    return res;
}
static uint64_t H(double x) { return oround(H16, NH16, x, 'n', 0x7bff, 16); }  /* f16 bits of x */
static uint64_t BH(double x) { return oround(HB16, NHB16, x, 'n', 0x7f7f, 16); }
static void hsetup(void)
{
    if (!H16) H16 = hlist(5, 10, &NH16), HB16 = hlist(8, 7, &NHB16);
}
static uint64_t ev1(const isa_insn *in, uint64_t a, uint64_t b, uint64_t c)
{
    uint64_t s[4] = {a, b, c, 0}, d[4] = {0};
    isa_ops[in->op].eval(in, d, s);
    return d[0];
}
static int hisnan(uint64_t b) { return (b & 0x7c00) == 0x7c00 && (b & 0x3ff); }

START_TEST(half_cvt_exhaustive)
{
    hsetup();
    static const char *const mode[4] = {"rn", "rz", "rm", "rp"};
    isa_insn up = dec("cvt.f32.f16"), up64 = dec("cvt.f64.f16"), dn[4], dnb[4], dn64[4];
    char mn[64];
    for (int m = 0; m < 4; m++) {
        snprintf(mn, sizeof mn, "cvt.%s.f16.f32", mode[m]); dn[m] = dec(mn);
        snprintf(mn, sizeof mn, "cvt.%s.bf16.f32", mode[m]); dnb[m] = dec(mn);
        snprintf(mn, sizeof mn, "cvt.%s.f16.f64", mode[m]); dn64[m] = dec(mn);
    }
    /* every f16 (under the sanitizers every 7th: that run looks for memory errors on these
     * paths, the plain build checks every value): widening is exact (NaN -> canonical),
     * narrowing back is the identity */
    for (uint32_t b = 0; b < 0x10000; b += PTX_SANITIZED ? 7 : 1) {
        uint64_t f = ev1(&up, b, 0, 0), g = ev1(&up64, b, 0, 0);
        if (hisnan(b)) {
            ck_assert_uint_eq(f, QNAN32);
            ck_assert_uint_eq(g, 0x7fffffffffffffffull);
            ck_assert_uint_eq(ev1(&dn[0], f, 0, 0), 0x7fff);
            continue;
        }
        double v =
            (b & 0x7fff) == 0x7c00 ? ((b & 0x8000) ? -INFINITY : INFINITY) : hval_of(5, 10, b);
        ck_assert_msg(AF(f) == (float)v && (f >> 31) == (b >> 15), "cvt.f32.f16 0x%x", b);
        ck_assert_uint_eq(g, D(v));
#ifdef __FLT16_MAX__
        _Float16 hh; uint16_t hb = (uint16_t)b; memcpy(&hh, &hb, 2);
        ck_assert_uint_eq(f, F((float)hh)); /* compiler cross-check */
#endif
        for (int m = 0; m < 4; m++) {
            ck_assert_uint_eq(ev1(&dn[m], f, 0, 0), b);
            ck_assert_uint_eq(ev1(&dn64[m], g, 0, 0), b);
        }
    }
    /* every adjacent pair of f16 values: the midpoint and its f32 neighbours, all four modes */
    for (int i = 0; i + 1 < NH16; i += PTX_SANITIZED ? 7 : 1) {
        double lo = H16[i].v, hi = H16[i + 1].v, mid = (lo + hi) / 2;
        float pts[3] = { (float)mid, nextafterf((float)mid, -INFINITY),
                         nextafterf((float)mid, INFINITY) };
        for (int k = 0; k < 3; k++) {
            if (pts[k] == 0) continue;
            for (int m = 0; m < 4; m++) {
                uint64_t want = oround(H16, NH16, pts[k], "nzmp"[m], 0x7bff, 16);
                uint64_t got = ev1(&dn[m], F(pts[k]), 0, 0);
                ck_assert_msg(got == want, "cvt.%s.f16.f32(%a) = 0x%llx want 0x%llx", mode[m],
                              pts[k], (unsigned long long)got, (unsigned long long)want);
                ck_assert_uint_eq(ev1(&dn64[m], D(pts[k]), 0, 0), want);
            }
        }
    }
    /* f64 -> f16 is ONE rounding (not via f32): just above a midpoint by 2^-40 relative */
    ck_assert_uint_eq(ev1(&dn64[0], D(1.0 + 0x1p-11 + 0x1p-40), 0, 0), 0x3c01);
    ck_assert_uint_eq(ev1(&dn[0], F((float)(1.0 + 0x1p-11 + 0x1p-40)), 0, 0), 0x3c00);
    /* a sample of all f32 bit patterns through f16 and bf16, all modes */
    for (uint64_t u = 1; u < 0x100000000ull; u += 100003) {
        float x = AF(u);
        if (x != x || x == 0) continue;
        for (int m = 0; m < 4; m++) {
            ck_assert_uint_eq(ev1(&dn[m], u, 0, 0), oround(H16, NH16, x, "nzmp"[m], 0x7bff, 16));
            ck_assert_uint_eq(ev1(&dnb[m], u, 0, 0), oround(HB16, NHB16, x, "nzmp"[m], 0x7f7f, 16));
        }
#ifdef __FLT16_MAX__
        _Float16 h = (_Float16)x; uint16_t hb; memcpy(&hb, &h, 2);
        ck_assert_uint_eq(ev1(&dn[0], u, 0, 0), hb);
#endif
    }
}
END_TEST

START_TEST(half_cvt)
{
    hsetup();
    /* §9.7.8.20: ties to even, subnormals, overflow by direction, .satfinite, .relu, .sat, .ftz */
    CHK("cvt.rn.f16.f32", 0x3c00, F(1.0f));
    CHK("cvt.rn.f16.f32", 0x3c00, F(1.0f + 0x1p-11f));          /* tie -> even (0x3c00) */
    CHK("cvt.rn.f16.f32", 0x3c02, F(1.0f + 3 * 0x1p-11f));      /* tie -> even (0x3c02) */
    CHK("cvt.rz.f16.f32", 0x3c01, F(1.0f + 3 * 0x1p-11f));      /* 1.5 ulp */
    CHK("cvt.rp.f16.f32", 0x3c01, F(1.0f + 0x1p-20f));
    CHK("cvt.rm.f16.f32", 0xbc01, F(-1.0f - 0x1p-20f));
    CHK("cvt.rn.f16.f32", 0x0001, F(0x1p-24f));                 /* min subnormal */
    CHK("cvt.rn.f16.f32", 0x0000, F(0x1p-25f));                 /* tie -> even (0) */
    CHK("cvt.rn.f16.f32", 0x0001, F(0x1.8p-25f));
    CHK("cvt.rn.f16.f32", 0x8000, F(-0x1p-26f));                /* sign kept on underflow */
    CHK("cvt.rp.f16.f32", 0x0001, SUB32);                       /* f32 subnormal rounds up ... */
    CHK("cvt.rp.ftz.f16.f32", 0x0000, SUB32);                   /* ... unless flushed by .ftz */
    CHK("cvt.rn.f16.f32", 0x0400, F(0x1.ffcp-15f));             /* rounds up into the normals */
    CHK("cvt.rn.f16.f32", 0x7bff, F(65519.0f));
    CHK("cvt.rn.f16.f32", 0x7c00, F(65520.0f));                 /* overflow -> inf */
    CHK("cvt.rz.f16.f32", 0x7bff, F(1e9f));                     /* toward zero: MAX_NORM */
    CHK("cvt.rm.f16.f32", 0x7bff, F(1e9f));
    CHK("cvt.rm.f16.f32", 0xfc00, F(-1e9f));
    CHK("cvt.rp.f16.f32", 0xfbff, F(-1e9f));
    CHK("cvt.rn.f16.f32", 0x7c00, INF32);
    CHK("cvt.rn.satfinite.f16.f32", 0x7bff, F(1e9f));           /* .satfinite: MAX_NORM */
    CHK("cvt.rn.satfinite.f16.f32", 0xfbff, NINF32);
    CHK("cvt.rn.satfinite.f16.f32", 0x7fff, QNAN32);            /* NaN stays NaN */
    CHK("cvt.rn.f16.f32", 0x7fff, 0xffc00001);                  /* NaN -> canonical */
    CHK("cvt.rn.relu.f16.f32", 0, F(-2.0f));                    /* .relu */
    CHK("cvt.rn.relu.f16.f32", 0, 0x80000000);
    CHK("cvt.rn.relu.f16.f32", 0x4000, F(2.0f));
    CHK("cvt.rn.relu.f16.f32", 0x7fff, 0xffc00000);
    CHK("cvt.rz.relu.satfinite.f16.f32", 0x7bff, INF32);
    CHK("cvt.rn.sat.f16.f32", 0x3c00, F(7.0f));                 /* .sat [0, 1], NaN -> 0 */
    CHK("cvt.rn.sat.f16.f32", 0, F(-7.0f));
    CHK("cvt.rn.sat.f16.f32", 0, QNAN32);
    CHK("cvt.rn.sat.f16.f32", 0x3800, F(0.5f));
    CHK("cvt.rn.f16.f64", 0x3555, D(1.0 / 3));
    CHK("cvt.rz.f16.f64", 0x7bff, D(1e300));
    CHK("cvt.rn.f16.f64", 0x0000, D(0x1p-1074));
    CHK("cvt.rp.f16.f64", 0x0001, D(0x1p-1074));
    CHK("cvt.f32.f16", F(65504.0f), 0x7bff);                    /* widening: exact */
    CHK("cvt.f32.f16", F(0x1p-24f), 0x0001);
    CHK("cvt.f32.f16", NINF32, 0xfc00);
    CHK("cvt.f32.f16", QNAN32, 0x7c01);                         /* NaN -> canonical */
    CHK("cvt.f64.f16", D(-2.0), 0xc000);
    CHK("cvt.f32.f16", F(1.0f), 0xffff3c00);                    /* wider register: low 16 bits */
    CHK("cvt.sat.f32.f16", F(1.0f), 0x4000);
    /* bf16 */
    CHK("cvt.rn.bf16.f32", 0x3f80, F(1.0f));
    CHK("cvt.rn.bf16.f32", 0x3f80, F(1.0f + 0x1p-8f));          /* tie -> even */
    CHK("cvt.rn.bf16.f32", 0x3f82, F(1.0f + 3 * 0x1p-8f));
    CHK("cvt.rz.bf16.f32", 0x7f7f, INF32 - 1);
    CHK("cvt.rn.bf16.f32", 0x7f80, 0x7f7fffff);                 /* overflow */
    CHK("cvt.rn.satfinite.bf16.f32", 0x7f7f, 0x7f7fffff);
    CHK("cvt.rn.bf16.f32", 0x0000, 0x00008000);                 /* 2^-134: tie -> even (0) */
    CHK("cvt.rn.bf16.f32", 0x0001, 0x0000c000);                 /* 0.75 * 2^-133 */
    CHK("cvt.rn.bf16.f32", 0x0002, 0x00018000);                 /* 1.5 * 2^-133: tie -> 2 */
    CHK("cvt.rn.bf16.f32", 0x7fff, QNAN32);
    CHK("cvt.rz.relu.satfinite.bf16.f32", 0, F(-3.0f));
    CHK("cvt.f32.bf16", F(1.0f), 0x3f80);
    CHK("cvt.f32.bf16", 0x00010000, 0x0001);                    /* subnormal, exact */
    CHK("cvt.f32.bf16", QNAN32, 0x7f81);
    CHK("cvt.f64.bf16", D(-1.5), 0xbfc0);
    CHK("cvt.rp.f64.bf16", D(-1.5), 0xbfc0);                    /* ISA example "cvt.f64.bf16.rp" */
    CHK("cvt.rn.bf16.f64", 0x3eab, D(1.0 / 3));
    CHK("cvt.rz.bf16.f16", 0x477f, 0x7bff); /* f16 <-> bf16 (same size, lossy) */
    CHK("cvt.rn.bf16.f16", 0x4780, 0x7bff);
    CHK("cvt.rn.f16.bf16", 0x7c00, 0x7f7f);
    CHK("cvt.rz.f16.bf16", 0x7bff, 0x7f7f);
    CHK("cvt.rn.f16.bf16", 0x0000, 0x0001);
    CHK("cvt.rn.f16.bf16", 0x3c00, 0x3f80);
    /* int <-> half */
    CHK("cvt.rzi.s32.f16", N32(-2), 0xc133);                    /* -2.6 */
    CHK("cvt.rni.s32.f16", 2, 0x4100);                          /* 2.5 -> 2 */
    CHK("cvt.rni.s32.f16", 4, 0x4300);                          /* 3.5 -> 4 */
    CHK("cvt.rmi.s32.f16", N32(-3), 0xc133);
    CHK("cvt.rpi.u32.f16", 1, 0x0001);
    CHK("cvt.rzi.u8.f16", 0xff, 0x7bff);                        /* clamped */
    CHK("cvt.rzi.s8.f16", 0x80, 0xfc00);
    CHK("cvt.rzi.s32.f16", 0, 0x7e00);                          /* NaN -> 0 */
    CHK("cvt.rpi.s8.bf16", 2, 0x3fc0);                          /* 1.5 */
    CHK("cvt.rzi.s64.bf16", 0x7fffffffffffffffull, 0x7f7f);
    CHK("cvt.rn.f16.s32", 0x3c00, 1);
    CHK("cvt.rn.f16.s32", 0x6800, 2048);
    CHK("cvt.rn.f16.s32", 0x6800, 2049);                        /* tie -> even */
    CHK("cvt.rn.f16.s32", 0x6802, 2051);
    CHK("cvt.rz.f16.s32", 0x6801, 2051);
    CHK("cvt.rn.f16.u32", 0x7c00, 65520);
    CHK("cvt.rz.f16.u32", 0x7bff, 65520);
    CHK("cvt.rn.f16.s64", 0xfc00, 0x8000000000000000ull);
    CHK("cvt.rm.f16.s16", 0xc000, N16(-2));
    CHK("cvt.rn.sat.f16.s32", 0x3c00, 5);
    CHK("cvt.rz.bf16.u64", 0x5f7f, ~0ull);
    CHK("cvt.rn.bf16.u64", 0x5f80, ~0ull);
    CHK("cvt.rn.bf16.s8", 0xc300, 0x80);
    /* same type, integral */
    CHK("cvt.rni.f16.f16", 0x4000, 0x4100);                     /* 2.5 -> 2.0 */
    CHK("cvt.rpi.f16.f16", 0x3c00, 0x0001);
    CHK("cvt.rzi.f16.f16", 0x8000, 0xb800);                     /* -0.5 -> -0.0 */
    CHK("cvt.rmi.bf16.bf16", 0xbf80, 0xbf00);                   /* -0.5 -> -1 */
    CHK("cvt.rni.f16.f16", 0x7fff, 0x7d00);
    /* packed: a -> upper half, b -> lower half (ISA operand order) */
    CHK("cvt.rn.f16x2.f32", 0x3c00c000, F(1.0f), F(-2.0f));
    CHK("cvt.rz.f16x2.f32", 0x7bff0001, F(1e9f), F(0x1.fp-24f));
    CHK("cvt.rn.relu.satfinite.f16x2.f32", 0x00007bff, F(-1.0f), INF32);
    CHK("cvt.rn.bf16x2.f32", 0x3f80bf80, F(1.0f), F(-1.0f));
    CHK("cvt.rn.relu.bf16x2.f32", 0x3f800000, F(1.0f), F(-1.0f));
    /* tf32: f32 container, 10 fraction bits */
    CHK("cvt.rna.tf32.f32", 0x3f802000, F(1.0f + 0x1p-11f));    /* tie away from zero */
    CHK("cvt.rn.tf32.f32", 0x3f800000, F(1.0f + 0x1p-11f));     /* tie to even */
    CHK("cvt.rz.tf32.f32", 0x3f800000, F(1.0f + 0x1.fp-11f));
    CHK("cvt.rna.tf32.f32", 0x7f800000, 0x7f7fffff);
    CHK("cvt.rna.satfinite.tf32.f32", 0x7f7fe000, 0x7f7fffff);
    CHK("cvt.rna.tf32.f32", QNAN32, 0x7f800001);
    CHK("cvt.rn.relu.tf32.f32", 0, F(-1.0f));
    /* e4m3 / e5m2 (§5.2.3): a -> d[15:8] */
    CHK("cvt.rn.satfinite.e4m3x2.f32", 0x3840, F(1.0f), F(2.0f));
    CHK("cvt.rn.satfinite.e4m3x2.f32", 0x7efe, F(1000.0f), F(-1e30f));    /* MAX_NORM 448 */
    CHK("cvt.rn.satfinite.e4m3x2.f32", 0x7e7e, F(464.0f), INF32);          /* tie -> 448 */
    CHK("cvt.rn.satfinite.e4m3x2.f32", 0x7f01, QNAN32, F(0x1p-9f)); /* NaN 0x7f; min subnormal */
    CHK("cvt.rn.satfinite.e4m3x2.f32", 0x0000, F(0x1p-10f), F(0x1p-11f));  /* tie -> 0 */
    CHK("cvt.rn.satfinite.relu.e4m3x2.f32", 0x0038, F(-1.0f), F(1.0f));
    CHK("cvt.rn.satfinite.e5m2x2.f32", 0x7b3c, F(1e9f), F(1.0f));          /* MAX_NORM 57344 */
    CHK("cvt.rn.satfinite.e5m2x2.f32", 0x7f7b, QNAN32, INF32);
    CHK("cvt.rn.satfinite.e5m2x2.f32", 0x3c3e, F(1.125f), F(1.375f));      /* ties -> even */
    CHK("cvt.rn.satfinite.e4m3x2.f16x2", 0x3840, 0x3c004000);              /* a.hi -> d.hi */
    CHK("cvt.rn.satfinite.e5m2x2.f16x2", 0x7bfb, 0x7c00fc00);
    CHK("cvt.rn.f16x2.e4m3x2", 0x3c004000, 0x3840);
    CHK("cvt.rn.f16x2.e4m3x2", 0x7fff5f00, 0x7f7e);                        /* NaN; 448 */
    CHK("cvt.rn.f16x2.e4m3x2", 0x00001800, 0x0001);                        /* 2^-9 */
    CHK("cvt.rn.f16x2.e5m2x2", 0x7c00fc00, 0x7cfc);                        /* infinities */
    CHK("cvt.rn.relu.f16x2.e5m2x2", 0x00003c00, 0xbc3c);
    /* cvt.pack §9.7.8.21 */
    CHK("cvt.pack.sat.s16.s32", 0x7fff8000, 70000, N32(-70000));
    CHK("cvt.pack.sat.u16.s32", 0x0000ffff, N32(-1), 70000);
    CHK("cvt.pack.sat.u8.s32.b32", 0x3412ff00, 0x100, N32(-5), 0x3412);   /* d = {c.lo16, a, b} */
    CHK("cvt.pack.sat.s8.s32.b32", 0x00007f80, 200, N32(-200), 0);
    CHK("cvt.pack.sat.u4.s32.b32", 0xabcdef3f, 3, 99, 0xabcdef);
    CHK("cvt.pack.sat.s4.s32.b32", 0x00000078, 7, N32(-9), 0);
    CHK("cvt.pack.sat.s2.s32.b32", 0xfffffff9, N32(-2), 2, ~0ull); /* a=-2 -> 10b, b=2 -> 01b */
    CHK("cvt.pack.sat.u2.s32.b32", 0x00000003 | (0x5 << 4), 0, 3, 5);
    isa_insn in = dec("cvt.pack.sat.u8.s32.b32");
    ck_assert_int_eq(isa_nsrc(&in), 3);
    in = dec("cvt.rn.f16x2.f32");
    ck_assert_int_eq(isa_nsrc(&in), 2);
    ck_assert_int_eq(isa_ndst(&in), 1);
    /* decode rules */
    bad("cvt.f16.f32");                                                    /* rounding mandatory */
    bad("cvt.rni.f16.f32");
    bad("cvt.rn.f32.f16");                                                 /* widening: none */
    bad("cvt.rn.f16.f16");
    bad("cvt.rm.relu.f16.f32");                                            /* .relu: rn/rz only */
    bad("cvt.rn.relu.f16.f64");
    bad("cvt.rn.f16x2.f32.f32");
    bad("cvt.rm.f16x2.f32");
    bad("cvt.rn.e4m3x2.f32"); /* .satfinite mandatory */
    bad("cvt.rz.satfinite.e4m3x2.f32");
    bad("cvt.rn.satfinite.f16x2.e4m3x2");
    bad("cvt.rna.f16.f32");
    bad("cvt.rna.relu.tf32.f32");
    bad("cvt.rn.satfinite.tf32.f32");
    bad("cvt.rn.sat.bf16.f32");                                            /* .sat: f16/f32/f64 */
    bad("cvt.rn.ftz.f16.f64");
    bad("cvt.rzi.ftz.s32.f16");
    bad("cvt.rn.sat.relu.f16.f32");
    bad("cvt.pack.s16.s32");                                               /* .sat mandatory */
    bad("cvt.pack.sat.u8.s32");                                            /* needs .b32 c */
    bad("cvt.pack.sat.s16.s32.b32");
}
END_TEST

START_TEST(half_arith)
{
    hsetup();
    /* §9.7.4.1-4 */
    CHK("add.f16", 0x4200, 0x3c00, 0x4000);                     /* 1 + 2 = 3 */
    CHK("add.rn.f16", 0x3c00, 0x3c00, 0x0c00);                  /* 1 + 2^-12: below half */
    CHK("add.f16", 0x3c00, 0x3c00, 0x1000);                     /* 1 + 2^-11: tie -> even */
    CHK("add.f16", 0x3c02, 0x3c01, 0x1000);                     /* tie -> even (up) */
    CHK("add.f16", 0x7c00, 0x7bff, 0x5000);                     /* overflow -> inf */
    CHK("add.f16", 0x7fff, 0x7c00, 0xfc00);                     /* inf - inf = NaN */
    CHK("add.f16", 0x7fff, 0x7e01, 0x3c00);                     /* NaN canonical */
    CHK("add.f16", 0x0000, 0x3c00, 0xbc00);                     /* x - x = +0 */
    CHK("add.f16", 0x8000, 0x8000, 0x8000);
    CHK("add.f16", 0x0002, 0x0001, 0x0001);                     /* subnormals kept */
    CHK("add.ftz.f16", 0x0000, 0x0001, 0x0001);                 /* .ftz inputs */
    CHK("add.f16", 0x0100, 0x0800, 0x8700);                     /* 2^-13 - 1.75*2^-14: subnormal */
    CHK("add.ftz.f16", 0x0000, 0x0800, 0x8700);                 /* .ftz result flushed */
    CHK("add.sat.f16", 0x3c00, 0x3c00, 0x3c00);
    CHK("add.sat.f16", 0x0000, 0xbc00, 0x3800);
    CHK("add.sat.f16", 0x0000, 0x7e00, 0x3800);                 /* NaN -> +0 */
    CHK("sub.f16", 0xbc00, 0x3c00, 0x4000);
    CHK("sub.f16x2", 0x3c00bc00, 0x40003c00, 0x3c004000);
    CHK("mul.f16", 0x4400, 0x4000, 0x4000);
    CHK("mul.f16", 0x7fff, 0x7c00, 0x0000);                     /* inf * 0 */
    CHK("mul.f16", 0x8000, 0x8001, 0x0001);                     /* underflow keeps the sign */
    CHK("mul.f16", 0x0100, 0x0200, 0x3801); /* 2^-16 + 2^-26: quarter unit, down */
    CHK("mul.f16", 0x0000, 0x0001, 0x3800);                     /* 2^-25: tie -> even (0) */
    CHK("mul.f16", 0x0002, 0x0003, 0x3800);                     /* 1.5 units: tie -> 2 */
    CHK("mul.rn.bf16", 0x4080, 0x4000, 0x4000);
    CHK("mul.bf16x2", 0x40804000, 0x40003fc0, 0x40003fab);
    CHK("add.bf16", 0x3f80, 0x3f80, 0x3b80);                    /* 1 + 2^-8: tie -> even */
    CHK("add.bf16", 0x0002, 0x0001, 0x0001);                    /* bf16 subnormals */
    CHK("fma.rn.f16", 0x4500, 0x4000, 0x4000, 0x3c00);          /* 2*2+1 = 5 */
    CHK("fma.rn.f16", 0x1800, 0x3c01, 0x3c01, 0xbc00); /* (1+u)^2-1 = 2u+u^2: tie -> even */
    CHK("fma.rn.f16", 0x0010, 0x3c01, 0x3c01, 0xbc02);          /* (1+u)^2-(1+2u) = u^2, fused */
    CHK("fma.rn.relu.f16", 0x0000, 0x4000, 0xc000, 0x3c00);
    CHK("fma.rn.relu.f16", 0x7fff, 0x7c00, 0x0000, 0x3c00);
    CHK("fma.rn.sat.f16x2", 0x3c000000, 0x40004000, 0x40004000, 0x0000fc00);
    CHK("fma.rn.bf16", 0x3f81, 0x3f81, 0x3f80, 0x0001);         /* 1+2^-7 exactly, c tiny */
    /* bf16 fma, the double-rounding trap (a*b an exact tie, c 133 binades below: fma in double
     * fails) */
    CHK("fma.rn.bf16", 0x3f90, 0x3f88, 0x3f88, 0x0000); /* (17/16)^2 = 1.0010000|1b: tie -> even */
    CHK("fma.rn.bf16", 0x3f91, 0x3f88, 0x3f88, 0x0001);         /* + 2^-133 breaks the tie: up */
    CHK("fma.rn.bf16", 0x3f90, 0x3f88, 0x3f88, 0x8001);         /* - 2^-133: down */
    CHK("fma.rn.bf16", 0x3f80, 0x3f81, 0x3f7f, 0x0000);         /* (1+2^-7)(1-2^-8) < tie: down */
    CHK("fma.rn.relu.bf16x2", 0x3f800000, 0x3f80bf80, 0x3f803f80, 0x00000000);
    /* neg/abs §9.7.4.5-6 */
    CHK("neg.f16", 0xbc00, 0x3c00);
    CHK("neg.f16x2", 0x80003c00, 0x0000bc00);
    CHK("neg.ftz.f16", 0x8000, 0x0001);
    CHK("abs.f16", 0x3c00, 0xbc00);
    CHK("abs.ftz.f16x2", 0x00003c00, 0x8001bc00);
    CHK("abs.bf16", 0x7f80, 0xff80);
    CHK("neg.bf16x2", 0xbf803f80, 0x3f80bf80);
    /* min/max §9.7.4.7-8 */
    CHK("min.f16", 0xbc00, 0x3c00, 0xbc00);
    CHK("min.f16", 0x3c00, 0x7e00, 0x3c00);                     /* NaN ignored */
    CHK("min.f16", 0x7fff, 0x7e00, 0x7d00);                     /* both NaN: canonical */
    CHK("min.NaN.f16", 0x7fff, 0x7e00, 0x3c00);
    CHK("min.f16", 0x8000, 0x0000, 0x8000);                     /* -0 < +0 */
    CHK("max.f16", 0x0000, 0x8000, 0x0000);
    CHK("max.f16x2", 0x40003c00, 0x3c003c00, 0x4000bc00);
    CHK("min.xorsign.abs.f16", 0xbc00, 0xc000, 0x3c00);         /* |.| min 1, sign - ^ + */
    CHK("max.xorsign.abs.f16", 0x4000, 0xc000, 0xbc00);
    CHK("max.xorsign.abs.f16", 0x7fff, 0x7e00, 0xfe00);         /* NaN: no sign change */
    CHK("min.ftz.f16", 0x8000, 0x8001, 0x0001);                 /* flushed: -0 < +0 */
    CHK("max.NaN.bf16x2", 0x7fff3f80, 0x7fc03f80, 0x3f80bf80);
    CHK("min.bf16", 0xbf80, 0x7fc1, 0xbf80);
    /* tanh, ex2 §9.7.4.9-10 */
    CHK("tanh.approx.f16", H(tanh(1.0)), 0x3c00);
    CHK("tanh.approx.f16", 0xbc00, 0xfc00);
    CHK("tanh.approx.f16", 0x8000, 0x8000);
    CHK("tanh.approx.f16", 0x0001, 0x0001);                     /* subnormals supported */
    CHK("tanh.approx.bf16x2", (BH(tanh(0.5)) << 16) | 0x3f80, 0x3f007f80);
    CHK("ex2.approx.f16", 0x4400, 0x4000);
    CHK("ex2.approx.f16", 0x0000, 0xfc00);
    CHK("ex2.approx.f16", 0x7c00, 0x4c00);                      /* 2^16 overflows */
    CHK("ex2.approx.f16", 0x3c00, 0x8000);
    CHK("ex2.approx.f16", 0x7fff, 0x7e00);
    CHK("ex2.approx.ftz.bf16", 0x3f80, 0x8001);                 /* -subnormal -> 1.0 */
    CHK("ex2.approx.ftz.bf16", 0x0000, 0xc300);                 /* 2^-128 subnormal -> flushed */
    CHK("ex2.approx.ftz.bf16x2", 0x40003f80, 0x3f800000);
    /* random exhaustive-style check against the exact oracle (f16 add/sub/mul exact in double;
     * fma via 128-bit fixed point: every f16 is a multiple of 2^-24) */
    isa_insn ia = dec("add.f16"), is = dec("sub.rn.f16"), im = dec("mul.f16"),
             ifm = dec("fma.rn.f16");
    uint64_t seed = 88172645463325252ull;
    for (int it = 0; it < 200000; it++) {
        seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
        uint32_t a = seed & 0xffff, b = (seed >> 16) & 0xffff, c = (seed >> 32) & 0xffff;
        if ((a & 0x7c00) == 0x7c00 || (b & 0x7c00) == 0x7c00 || (c & 0x7c00) == 0x7c00) continue;
        double x = hval_of(5, 10, a), y = hval_of(5, 10, b), z = hval_of(5, 10, c);
        if (x + y != 0) ck_assert_uint_eq(ev1(&ia, a, b, 0), H(x + y));
        if (x - y != 0) ck_assert_uint_eq(ev1(&is, a, b, 0), H(x - y));
        if (x * y != 0) ck_assert_uint_eq(ev1(&im, a, b, 0), H(x * y));
        __int128 A = (__int128)ldexp(x, 24), B = (__int128)ldexp(y, 24), C = (__int128)ldexp(z, 24);
        __int128 S = A * B + C * ((__int128)1 << 24);                   /* exact, units of 2^-48 */
        if (S == 0) continue;
        /* bracket S among f16 values scaled by 2^48 (all integers) */
        int lo = 0, hi = NH16 - 1;
        __int128 top = (__int128)ldexp(65536.0, 48);
        uint64_t want;
        if (S >= top) want = 0x7c00;
        else if (S <= -top) want = 0xfc00;
        else {
            while (hi - lo > 1) {
                int mid = (lo + hi) / 2;
                if ((__int128)ldexp(H16[mid].v, 48) <= S) lo = mid; else hi = mid;
            }
            __int128 vl = (__int128)ldexp(H16[lo].v, 48), vh = (__int128)ldexp(H16[hi].v, 48);
            if (vl == S) want = H16[lo].bits;
            else want = (S - vl < vh - S) ? H16[lo].bits : (vh - S < S - vl) ? H16[hi].bits
                      : ((H16[lo].bits & 1) ? H16[hi].bits : H16[lo].bits);
            if (want == 0 && S < 0) want = 0x8000;
        }
        uint64_t got = ev1(&ifm, a, b, c);
        ck_assert_msg(got == want, "fma.rn.f16(0x%x,0x%x,0x%x) = 0x%llx want 0x%llx", a, b, c,
                      (unsigned long long)got, (unsigned long long)want);
    }
    /* decode rules */
    bad("add.rz.f16");
    bad("add.ftz.bf16");
    bad("add.sat.bf16x2");
    bad("fma.f16");                                             /* .rn mandatory */
    bad("fma.rn.sat.relu.f16");
    bad("fma.rn.oob.f16");                                      /* OOB-NaN encoding not given */
    bad("neg.ftz.bf16");
    bad("min.xorsign.f16");
    bad("min.ftz.bf16");
    bad("ex2.approx.bf16");                                     /* .ftz required for bf16 */
    bad("ex2.approx.ftz.f16");
    bad("tanh.approx.ftz.f16");
    bad("add.relu.f16");
}
END_TEST

START_TEST(half_compare)
{
    /* §9.7.6.2 setp: scalar like §9.7.5.2; x2: p = lo halves, q = hi halves */
    CHK("setp.lt.f16", 1, 0x3c00, 0x4000);
    CHK("setp.lt.f16", 0, 0x7e00, 0x4000);
    CHK("setp.ltu.f16", 1, 0x7e00, 0x4000);
    CHK("setp.eq.f16", 1, 0x0000, 0x8000);
    CHK("setp.lt.f16", 1, 0x8001, 0x0000);
    CHK("setp.lt.ftz.f16", 0, 0x8001, 0x0000);                  /* flushed: -0 == +0 */
    CHK("setp.gt.bf16", 1, 0x3f81, 0x3f80);
    CHK("setp.nan.bf16", 1, 0x7f81, 0x3f80);
    isa_insn in = dec("setp.lt.f16x2");
    ck_assert_int_eq(isa_ndst(&in), 2);
    ck_assert_int_eq(isa_nsrc(&in), 2);
    CHK("setp.lt.f16x2", 1, 0x40003c00, 0x3c004000);            /* lo: 1 < 2 */
    ck_assert_uint_eq(D1, 0);                                   /* hi: 2 < 1 false */
    CHK("setp.lt.f16x2", 0, 0x3c004000, 0x40003c00);
    ck_assert_uint_eq(D1, 1);
    CHK("setp.lt.and.f16x2", 0, 0x3c003c00, 0x40004000, 0);     /* p = t0 & c, q = t1 & c */
    ck_assert_uint_eq(D1, 0);
    CHK("setp.lt.or.bf16x2", 1, 0x3f804000, 0x3f803f80, 1);
    ck_assert_uint_eq(D1, 1);
    CHK("setp.gtu.bf16x2", 1, 0x7fc04000, 0x3f803f80);
    ck_assert_uint_eq(D1, 1);
    in = dec("setp.lt.and.bf16x2");
    ck_assert_int_eq(isa_ndst(&in), 2);
    ck_assert_int_eq(isa_nsrc(&in), 3);
    in = dec("setp.lt.f16");
    ck_assert_int_eq(isa_ndst(&in), 1);
    /* §9.7.6.1 set */
    CHK("set.lt.f16.f16", 0x3c00, 0x3c00, 0x4000);
    CHK("set.lt.f16.f32", 0x0000, F(2.0f), F(1.0f));
    CHK("set.lt.and.f16.f16", 0x0000, 0x3c00, 0x4000, 0);
    CHK("set.ltu.or.bf16.f16", 0x3f80, 0x7e00, 0x4000, 0);
    CHK("set.eq.bf16.s32", 0x3f80, 5, 5);
    CHK("set.lt.u16.f16", 0xffff, 0x3c00, 0x4000);
    CHK("set.lt.s32.bf16", 0xffffffff, 0xbf80, 0x3f80);
    CHK("set.num.xor.s32.bf16", 0xffffffff, 0x3f80, 0x3f80, 0);
    CHK("set.eq.f16x2.f16x2", 0x3c000000, 0x40003c00, 0x40004000);
    CHK("set.eq.u32.f16x2", 0xffff0000, 0x40003c00, 0x40004000);
    CHK("set.equ.bf16x2.bf16x2", 0x3f803f80, 0x7fc03f80, 0x3f803f80);
    CHK("set.geu.s32.bf16x2", 0x0000ffff, 0x3f804000, 0x40003f80);
    bad("setp.lt.ftz.bf16");
    bad("setp.lo.f16");
    bad("set.lt.ftz.s32.bf16");
    bad("set.lt.f16x2.bf16x2");
    bad("set.lt.f32.f16");
}
END_TEST


/* §9.7.8.4 mov pack/unpack through isa_mov_vector */
static void movvec(const char *mn, int unpack, int n, const uint64_t *src, uint64_t *dst)
{
    isa_insn in = dec(mn);
    char err[160] = "";
    ck_assert_msg(isa_mov_vector(&in, unpack, n, err, sizeof err) == 0, "%s: %s", mn, err);
    ck_assert_int_eq(isa_ndst(&in), unpack ? n : 1);
    ck_assert_int_eq(isa_nsrc(&in), unpack ? 1 : n);
    ck_assert_int_eq(isa_class(&in), ISA_CLASS_PURE);
    ck_assert_int_eq(isa_eval(&in, src, dst, err, sizeof err), 0);
    evidence_row(isa_ops[in.op].popcode, "test_isa.c");
}
START_TEST(mov_vector)
{
    uint64_t d[4] = {0};
    movvec("mov.b32", 0, 2, (const uint64_t[]){0x3c00, 0xc000}, d);         /* mov.b32 d, {a, b} */
    ck_assert_uint_eq(d[0], 0xc0003c00);
    movvec("mov.b32", 0, 2, (const uint64_t[]){0xffff1234, 0xabcd}, d);     /* sources masked */
    ck_assert_uint_eq(d[0], 0xabcd1234);
    movvec("mov.b64", 0, 2, (const uint64_t[]){0x89abcdef, 0x01234567}, d); /* {lo, hi} */
    ck_assert_uint_eq(d[0], 0x0123456789abcdefull);
    movvec("mov.b32", 0, 4, (const uint64_t[]){1, 2, 3, 0x1ff}, d);         /* {x,y,z,w} .b8 */
    ck_assert_uint_eq(d[0], 0xff030201);
    movvec("mov.b64", 0, 4, (const uint64_t[]){1, 2, 3, 4}, d);
    ck_assert_uint_eq(d[0], 0x0004000300020001ull);
    movvec("mov.b16", 0, 2, (const uint64_t[]){0xab, 0xcd}, d);
    ck_assert_uint_eq(d[0], 0xcdab);
    movvec("mov.b64", 1, 2, (const uint64_t[]){0x0123456789abcdefull}, d);  /* mov.b64 {lo,hi}, x */
    ck_assert_uint_eq(d[0], 0x89abcdef);
    ck_assert_uint_eq(d[1], 0x01234567);
    movvec("mov.b32", 1, 2, (const uint64_t[]){0xc0003c00}, d);
    ck_assert_uint_eq(d[0], 0x3c00);
    ck_assert_uint_eq(d[1], 0xc000);
    movvec("mov.b32", 1, 4, (const uint64_t[]){0x44332211}, d);             /* {r,g,b,a}, .u8 */
    ck_assert_uint_eq(d[0], 0x11);
    ck_assert_uint_eq(d[3], 0x44);
    movvec("mov.b64", 1, 4, (const uint64_t[]){0x0004000300020001ull}, d);
    ck_assert_uint_eq(d[2], 3);
    isa_insn in = dec("mov.b32");
    char err[160];
    ck_assert_int_eq(isa_mov_vector(&in, 0, 3, err, sizeof err), -1);
    in = dec("mov.b16");
    ck_assert_int_eq(isa_mov_vector(&in, 0, 4, err, sizeof err), -1);       /* 4-bit elements */
    in = dec("mov.u32");
    ck_assert_int_eq(isa_mov_vector(&in, 0, 2, err, sizeof err), -1);       /* .b types only */
    in = dec("add.s32");
    ck_assert_int_eq(isa_mov_vector(&in, 0, 2, err, sizeof err), -1);
    in = dec("mov.b32"); /* plain mov unchanged */
    ck_assert_int_eq(isa_nsrc(&in), 1);
    ck_assert_int_eq(isa_ndst(&in), 1);
    ck_assert_int_eq(isa_decode("mov.pack.b32", ISA_T_S64, &in, err, sizeof err), -1);
}
END_TEST


/* ---------------------------------------------------------------- warp-wide evaluation
 * isa_opinfo.eval_warp (generated from eval) must give, lane by lane, what eval gives: with all
 * 32 lanes and with a partial lane mask (other lanes untouched), with the destination write
 * mask applied, and with a destination that is also a source (in-place update). */
static uint64_t wrand(uint64_t *x)
{
    *x ^= *x << 13; *x ^= *x >> 7; *x ^= *x << 17;
    return *x;
}
static uint64_t winput(uint64_t *x)
{
    static const uint64_t special[] = {
        0, 1, 0xffffffffull, 0x80000000ull, 0x7fffffffull, ~0ull, 0x8000000000000000ull,
        0x7f800000, 0xff800000, 0x7fc00000, 0x00000001, 0x80000000, 0x3f800000, 0xbf000000,
        0x7ff0000000000000ull, 0x7ff8000000000000ull, 0x0000000000000001ull, 0x3ff0000000000000ull,
        0x7c00, 0xfc00, 0x7e00, 0x3c00, 0x0001, 0x3c003c00, 0x7fff7f80, 31, 32, 33, 64, 255, 0x1234,
    };
    uint64_t r = wrand(x);
    switch (r % 5) {
    case 0: return special[(r >> 8) % (sizeof special / sizeof special[0])];
    case 1: return (r >> 8) & 0xffffffffull;
    case 2: return (r >> 8) & 0xffff;
    case 3: return (r >> 8) % 40;
    default: return r;
    }
}
START_TEST(warp_matches_lane)
{
    static const char *const mn[] = {
        "add.s32",
        "add.u64",
        "add.sat.s32",
        "add.u16x2",
        "sub.s64",
        "mul.lo.s32",
        "mul.hi.u64",
        "mul.hi.s64",
        "mul.wide.s32",
        "mad.lo.u32",
        "mad.hi.sat.s32",
        "mad.wide.u16",
        "mul24.lo.s32",
        "mad24.hi.u32",
        "sad.s32",
        "div.s32",
        "div.u64",
        "rem.s64",
        "abs.s32",
        "neg.s64",
        "min.s32",
        "max.u16",
        "min.relu.s32",
        "max.s16x2",
        "popc.b64",
        "clz.b32",
        "bfind.s32",
        "bfind.shiftamt.u64",
        "fns.b32",
        "brev.b64",
        "bfe.s32",
        "bfi.b64",
        "szext.wrap.s32",
        "bmsk.clamp.b32",
        "dp4a.s32.u32",
        "dp2a.lo.u32.s32",
        "and.b32",
        "or.pred",
        "xor.b64",
        "not.b16",
        "cnot.b32",
        "lop3.b32",
        "lop3.or.b32",
        "shf.l.wrap.b32",
        "shf.r.clamp.b32",
        "shl.b64",
        "shl.b32",
        "shr.s32",
        "shr.u16",
        "shr.b64",
        "setp.lt.s32",
        "setp.ne.and.u64",
        "setp.gtu.f32",
        "setp.eq.f64",
        "set.lt.u32.s32",
        "set.gt.f32.f32",
        "selp.b32",
        "slct.f32.s32",
        "mov.b32",
        "mov.u64",
        "mov.pred",
        "prmt.b32",
        "prmt.b32.f4e",
        "cvt.s32.s8",
        "cvt.sat.u8.s32",
        "testp.finite.f32",
        "copysign.f64",
        "add.f32",
        "add.rz.ftz.f32",
        "sub.sat.f32",
        "mul.rm.f64",
        "mul.f32",
        "fma.rn.f32",
        "fma.rp.ftz.sat.f32",
        "fma.rn.f64",
        "mad.rn.f32",
        "div.rn.f32",
        "div.approx.f32",
        "rcp.rn.f64",
        "rcp.approx.ftz.f64",
        "sqrt.rn.f32",
        "sqrt.approx.f32",
        "rsqrt.approx.f32",
        "abs.f32",
        "neg.ftz.f32",
        "min.NaN.f32",
        "max.f64",
        "sin.approx.f32",
        "ex2.approx.ftz.f32",
        "tanh.approx.f32",
        "cvt.rzi.s32.f32",
        "cvt.rni.u64.f64",
        "cvt.rn.f32.u32",
        "cvt.rz.f32.s64",
        "cvt.rn.f64.s32",
        "cvt.rm.f32.u32",
        "cvt.rn.sat.f32.s32",
        "cvt.f64.f32",
        "cvt.rn.f32.f64",
        "cvt.rni.f32.f32",
        "add.f16",
        "fma.rn.f16x2",
        "add.bf16x2",
        "neg.f16",
        "max.NaN.bf16",
        "setp.lt.f16x2",
        "cvt.rn.f16.f32",
        "cvt.f32.f16",
        "cvt.rn.f16x2.f32",
        "cvt.rn.satfinite.e4m3x2.f32",
        "cvt.pack.sat.s16.s32",
        "vabsdiff4.u32.s32.u32.add",
        "vabsdiff4.s32.s32.s32.sat",
        "vadd.s32.u32.s32.sat.min",
        "vshr.s32.s32.u32.wrap.add",
        "vmad.s32.u32.s32.po.shr15",
        "vset.u32.s32.ge.max",
        "vavrg2.s32.u32.s32.sat",
        "vset2.s32.s32.le.add",
        "vsub4.u32.s32.u32",
        "vset4.u32.u32.ne",
        /* the single-form evaluations of ptx/isa.c (WARP_FORMS) not named above */
        "add.u32", "add.s64", "sub.s32", "sub.u32", "shr.u32", "shr.b32", "shr.u64",
        "mul.wide.u32", "mad.lo.s32", "setp.eq.s32", "setp.ne.s32", "setp.le.s32",
        "setp.gt.s32", "setp.ge.s32", "setp.eq.u32", "setp.ne.u32", "setp.lt.u32", "setp.le.u32",
        "setp.gt.u32", "setp.ge.u32", "cvt.u64.u32", "cvt.s64.s32", "mul.rn.f32", "add.rn.f32",
        "sub.f32", "cvt.rn.f32.s32",
    };
    /* isa_warp_of: a form's own evaluation where there is one, the entry's otherwise */
    static const struct { const char *mn; int form; } pick[] = {
        { "fma.rn.f32", 1 }, { "cvt.rn.f32.u32", 1 }, { "add.s32", 1 }, { "setp.lt.u32", 1 },
        { "add.sat.s32", 0 }, { "fma.rp.ftz.sat.f32", 0 }, { "setp.ne.and.u64", 0 },
        { "cvt.rm.f32.u32", 0 },
    };
    for (size_t i = 0; i < sizeof pick / sizeof pick[0]; i++) {
        isa_insn in = dec(pick[i].mn);
        ck_assert_msg((isa_warp_of(&in) != isa_ops[in.op].eval_warp) == pick[i].form,
                      "%s: isa_warp_of", pick[i].mn);
    }
    uint64_t seed = 0x9e3779b97f4a7c15ull;
    for (size_t i = 0; i < sizeof mn / sizeof mn[0]; i++)
        for (int pair = 0; pair < 2; pair++)
            for (int trial = 0; trial < 4; trial++) {
                isa_insn in = dec(mn[i]);
                if (pair) {
                    if (strncmp(mn[i], "setp", 4) && strncmp(mn[i], "lop3", 4)) continue;
                    isa_set_pair(&in);
                }
                const isa_opinfo *e = &isa_ops[in.op];
                ck_assert_msg(e->eval && e->eval_warp, "%s: no eval/eval_warp", mn[i]);
                int ns = isa_nsrc(&in), nd = isa_ndst(&in);
                ck_assert_int_le(ns, ISA_WARP_NSRC);
                ck_assert_int_le(nd, ISA_WARP_NDST);
                static uint64_t src[ISA_WARP_NSRC][32], dst[ISA_WARP_NDST][32],
                    want[ISA_WARP_NDST][32];
                static const uint64_t zeros[32];
                for (int k = 0; k < ISA_WARP_NSRC; k++)
                    for (int l = 0; l < 32; l++) src[k][l] = k < ns ? winput(&seed) : 0;
                uint32_t lanes =
                    trial == 0 || trial == 2 ? 0xffffffffu : (uint32_t)wrand(&seed) | 1u;
                uint64_t dm[ISA_WARP_NDST];
                for (int k = 0; k < ISA_WARP_NDST; k++) dm[k] = trial & 1 ? 0xffffffffull : ~0ull;
                const uint64_t *S[ISA_WARP_NSRC];
                uint64_t *D[ISA_WARP_NDST];
                for (int k = 0; k < ISA_WARP_NSRC; k++) S[k] = k < ns ? src[k] : zeros;
                for (int k = 0; k < ISA_WARP_NDST; k++) D[k] = dst[k];
                if (trial >= 2) D[0] = src[0];   /* in place: d = op(d, ...) */
                for (int l = 0; l < 32; l++) {
                    uint64_t s1[ISA_WARP_NSRC], d1[ISA_WARP_NDST] = {0, 0, 0, 0};
                    for (int k = 0; k < ISA_WARP_NSRC; k++) s1[k] = S[k][l];
                    e->eval(&in, d1, s1);
                    for (int k = 0; k < ISA_WARP_NDST; k++)
                        want[k][l] = !(lanes >> l & 1)
                                         ? (k == 0 && trial >= 2 ? src[0][l] : 0xdeadbeefull)
                                         : d1[k] & dm[k];
                }
                for (int k = 0; k < ISA_WARP_NDST; k++)
                    for (int l = 0; l < 32; l++) dst[k][l] = 0xdeadbeefull;
                isa_warp_of(&in)(&in, D, S, dm, lanes);   /* a form's own, where it has one */
                for (int k = 0; k < nd; k++)
                    for (int l = 0; l < 32; l++)
                        ck_assert_msg(D[k][l] == want[k][l],
                                      "%s%s trial %d: dst %d lane %d = 0x%llx, eval gives 0x%llx",
                                      mn[i], pair ? " (pair)" : "", trial, k, l,
                                      (unsigned long long)D[k][l], (unsigned long long)want[k][l]);
            }
    /* every evaluable table entry has its warp-wide form, and only those */
    for (int i = 0; i < isa_nops; i++)
        ck_assert_msg(!isa_ops[i].eval == !isa_ops[i].eval_warp,
                      "entry %d (%s): eval and eval_warp disagree", i, isa_ops[i].name);
}
END_TEST

static void add_tests(TCase *tc)
{
    tcase_add_test(tc, types);
    tcase_add_test(tc, decode_shapes);
    tcase_add_test(tc, video_vabsdiff4);
    tcase_add_test(tc, video_vs_reference);
    tcase_add_test(tc, video_examples);
    tcase_add_test(tc, decode_errors);
    tcase_add_test(tc, decode_other);
    tcase_add_test(tc, int_add_sub);
    tcase_add_test(tc, int_mul_mad);
    tcase_add_test(tc, int_div_rem);
    tcase_add_test(tc, int_abs_neg_min_max);
    tcase_add_test(tc, int_bits);
    tcase_add_test(tc, int_bfe_bfi);
    tcase_add_test(tc, int_szext_bmsk_dp);
    tcase_add_test(tc, int_carry);
    tcase_add_test(tc, logic);
    tcase_add_test(tc, shifts);
    tcase_add_test(tc, movement);
    tcase_add_test(tc, cvt_int);
    tcase_add_test(tc, compare_int);
    tcase_add_test(tc, atomics);
    tcase_add_test(tc, fp_add_sub_mul);
    tcase_add_test(tc, fp_fma_div);
    tcase_add_test(tc, fp_rcp_sqrt);
    tcase_add_test(tc, fp_misc);
    tcase_add_test(tc, fp_compare);
    tcase_add_test(tc, fp_cvt);
    tcase_add_test(tc, fp_atomics);
    tcase_add_test(tc, half_cvt_exhaustive);
    tcase_add_test(tc, half_cvt);
    tcase_add_test(tc, half_arith);
    tcase_add_test(tc, half_compare);
    tcase_add_test(tc, mov_vector);
    tcase_add_test(tc, warp_matches_lane);
}

#include "check_main.h"
