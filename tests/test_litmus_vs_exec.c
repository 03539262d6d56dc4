/* tests/test_litmus_vs_exec.c — what an instruction computes is the same on both sides (issue
 * #18): for every instruction kind the litmus checker accepts that computes a value, the value a
 * litmus thread ends with (a register, and for atomics and stores a memory location) equals the
 * value the executor (include/ptxexec.h) produces from a one-thread PTX kernel running the same
 * instruction, for random and edge operands.  Both sides call the semantics of ptx/isa.c; this
 * holds the litmus side's handling of widths and signedness (operand truncation, result
 * extension, .wide, sub-word and mixed-size memory accesses, atomics' operand widths) to the
 * executor's typed registers and byte-addressed memory.
 *
 * Kinds (one table and one helper each):
 *   alu_forms    register computations (§9.7.1-§9.7.8, §9.7.16): integer, logic and shift,
 *                comparison and selection, mov/prmt/cvt, f32/f64 with rounding modes, half
 *                precision, video; the register's value as its type reads it
 *   atom_forms   atom (old value returned and final memory value) and red (memory value),
 *                §9.7.12.5 and §9.7.12.6
 *   ldst_forms   st.T then ld.T2 on one location, same and mixed sizes (§9.7.8.8, §9.7.8.11)
 *
 * Forms the litmus side refuses (so not compared here):
 *   - two destinations written with '|' (setp p|q, lop3 d|p): '|' separates litmus columns; the
 *     litmus spelling is `p, q` (setp.f16x2/.bf16x2 always has two); the one-destination forms
 *     of setp.CmpOp.BoolOp are compared
 *   - the extended-precision carry ops add.cc addc sub.cc subc mad.cc madc (§9.7.2: they read
 *     and write CC.CF, not a register computation)
 *   - vector operands: mov pack/unpack `{a, b}` (§9.7.8.4), ld/st .v2/.v4/.v8, vector atom/red
 *   - video operand selectors (a.b0, d.h1: the litmus lexer reads `a.b0` as a register name);
 *     video forms are compared with the default selectors only
 *   - ld/st/atom .b128 (cas.b128, exch.b128): values are 64-bit in litmus tests
 *   - atom/red with a cache-policy operand (.L2::cache_hint)
 *   - operation/type pairs ptxas refuses (tests/data/ptx-forms.tsv, check_ptx_atomic): .and
 *     .or .xor .exch only on .b32/.b64, .cas on .b16/.b32/.b64, .inc/.dec only on .u32,
 *     .min/.max not on floats, .add not on .s64; red has no .exch/.cas
 *   - ld/st of .f16/.bf16/.f16x2/.e4m3x2 (not types of §9.7.8.8; they move as .b16/.b32) */
#include "tests/check_quiet.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/sanitized.h"
#include "check/verify.h"
#include "frontend/litmus.h"
#include "include/ptxexec.h"

#define TEST_TIMEOUT 600   /* per test; the file takes ~1.5 s, ~12 s under ASan (FORM_STRIDE) */
#define NSETS 16           /* operand sets per form */
/* Under the sanitizers (make check-asan) every 6th form runs, each with all its operand sets:
   that run looks for memory errors on these paths, the plain build checks every form. */
#if PTX_SANITIZED
#define FORM_STRIDE 6
#else
#define FORM_STRIDE 1
#endif

/* ---------- operands ---------- */

static unsigned long long seed = 0x9e3779b97f4a7c15ull;
static uint64_t rnd64(void)
{
    seed ^= seed << 13; seed ^= seed >> 7; seed ^= seed << 17;
    return seed;
}

static isa_type ty(const char *t) { return isa_type_parse(t); }
static unsigned bits(const char *t) { return isa_type_bits(ty(t)); }
static uint64_t mask(unsigned n) { return n >= 64 ? ~0ull : (1ull << n) - 1; }

/* The value a litmus register or location of type t holds for raw bits: integers as the type
   reads them (§5.2.2), floats and predicates as their bits. */
static int64_t as_read(const char *t, uint64_t raw)
{
    isa_type y = ty(t);
    if (y == ISA_T_PRED || isa_type_is_float(y)) return (int64_t)(raw & mask(bits(t)));
    return isa_value(y, raw);
}

/* A float of n bits (exponent e bits) near 1.0: random sign and fraction, exponent within +-8 */
static uint64_t nice_float(unsigned n, unsigned e)
{
    uint64_t r = rnd64(), bias = (1ull << (e - 1)) - 1, m = n - 1 - e;
    uint64_t ex = bias - 8 + r % 17;
    return (r >> 63) << (n - 1) | ex << m | (rnd64() & mask((unsigned)m));
}

static uint64_t float_operand(isa_type y, int k)
{
    static const uint64_t e32[] = { 0,          0x80000000, 0x3f800000, 0xbf800000,
                                    0x7f800000, 0xff800000, 0x7fc00000, 0x00000001,
                                    0x7f7fffff, 0x3fc00000, 0x40490fdb, 0x00800000,
                                    0x4b000000, 0xcf000000, 0x807fffff, 0x7fa00000 };
    static const uint64_t e64[] = { 0,
                                    0x8000000000000000ull,
                                    0x3ff0000000000000ull,
                                    0xbff0000000000000ull,
                                    0x7ff0000000000000ull,
                                    0xfff0000000000000ull,
                                    0x7ff8000000000000ull,
                                    1,
                                    0x7fefffffffffffffull,
                                    0x3ff8000000000000ull,
                                    0x400921fb54442d18ull,
                                    0x0010000000000000ull,
                                    0x4330000000000000ull,
                                    0xc1e0000000000000ull,
                                    0x800fffffffffffffull,
                                    0x7ff4000000000000ull };
    static const uint64_t e16[] = {
        0,      0x8000, 0x3c00, 0xbc00, 0x7c00, 0xfc00, 0x7e00, 0x0001,
        0x7bff, 0x3e00, 0x4248, 0x0400, 0x6400, 0xf800, 0x83ff, 0x7d00
    };
    static const uint64_t eb16[] = {
        0,      0x8000, 0x3f80, 0xbf80, 0x7f80, 0xff80, 0x7fc0, 0x0001,
        0x7f7f, 0x3fc0, 0x4049, 0x0080, 0x4b00, 0xcf00, 0x807f, 0x7fa0
    };
    int edge = k < 10, half = k >= 10 && k < 13; /* 10 edge values, then near 1.0, then any bits */
    switch (y) {
    case ISA_T_F32: return edge ? e32[k] : half ? nice_float(32, 8) : rnd64() & mask(32);
    case ISA_T_F64: return edge ? e64[k] : half ? nice_float(64, 11) : rnd64();
    case ISA_T_F16: return edge ? e16[k] : half ? nice_float(16, 5) : rnd64() & 0xffff;
    case ISA_T_BF16: return edge ? eb16[k] : half ? nice_float(16, 8) : rnd64() & 0xffff;
    case ISA_T_F16X2:
        return float_operand(ISA_T_F16, k) | float_operand(ISA_T_F16, (k + 5) % 16) << 16;
    case ISA_T_BF16X2:
        return float_operand(ISA_T_BF16, k) | float_operand(ISA_T_BF16, (k + 5) % 16) << 16;
    case ISA_T_E4M3X2: case ISA_T_E5M2X2: return rnd64() & 0xffff;
    default: return rnd64();
    }
}

/* an operand of type t: edge values, or random bits */
static uint64_t operand(const char *t, int k)
{
    static const uint64_t edge[] = {
        0,     1,           2,          31, 32, 63, 0x7fffffffffffffffull, 0x8000000000000000ull,
        ~0ull, 0x80000000u, 0x7fffffffu
    };
    isa_type y = ty(t);
    if (y == ISA_T_PRED) return k < 2 ? (uint64_t)k : rnd64() & 1;
    if (isa_type_is_float(y) || y == ISA_T_E4M3X2 || y == ISA_T_E5M2X2) return float_operand(y, k);
    uint64_t v = k < (int)(sizeof edge / sizeof *edge) ? edge[k] : rnd64();
    return v & mask(bits(t));
}

/* ---------- the two sides ---------- */

static int
    fails; /* disagreements and refusals so far: each is reported, the test fails at its end */
#define FAIL(...) (fprintf(stderr, __VA_ARGS__), fputc('\n', stderr), fails++)

/* One executor context per test, with its two buffers (a context per kernel costs
   most of the run time under ASan). */
static ptxeCtx *ctx;
static ptxeDevptr din, dout;

/* Runs one thread of a PTX kernel whose body (after `decls`) reads its inputs from %a0 (mem,
   16 slots of 8 bytes, copied back after the run) and writes its results to %a1 (out, 4 slots). */
static int run_exec(const char *decls, const char *body, uint64_t mem[16], uint64_t out[4])
{
    char ptx[4096];
    snprintf(ptx, sizeof ptx, ".version 8.4\n.target sm_90\n.address_size 64\n"
             ".visible .entry k(.param .u64 pin, .param .u64 pout) {\n"
             " .reg .b64 %%a<2>; .reg .pred %%pp<4>; .reg .u32 %%t<4>;\n%s\n"
             " ld.param.u64 %%a0, [pin]; ld.param.u64 %%a1, [pout];\n%s ret;\n}\n", decls, body);
    if (!ctx) {
        ck_assert_int_eq(ptxeCtxCreate(&ctx), PTXE_SUCCESS);
        ck_assert_int_eq(ptxeMemAlloc(ctx, &din, 128), PTXE_SUCCESS);
        ck_assert_int_eq(ptxeMemAlloc(ctx, &dout, 32), PTXE_SUCCESS);
    }
    ptxeModule *m;
    ptxeFunction *fn;
    if (ptxeModuleLoadData(ctx, &m, ptx, strlen(ptx), "prop.ptx") != PTXE_SUCCESS)
        return FAIL("executor refuses: %s\n%s", ptxeGetErrorMessage(ctx), ptx), -1;
    ck_assert_int_eq(ptxeModuleGetFunction(&fn, m, NULL), PTXE_SUCCESS);
    ptxeMemcpyHtoD(ctx, din, mem, 128);
    ptxeMemcpyHtoD(ctx, dout, out, 32);
    void *args[] = { &din, &dout };
    ptxeLaunchConfig cfg = { { 1, 1, 1 }, { 1, 1, 1 },           { 0, 0, 0 }, 0, 0,
                             0,           PTXE_SCHEDULE_DEFAULT, 0,           0 };
    ck_assert_msg(ptxeLaunchKernel(fn, &cfg, args) == PTXE_SUCCESS, "%s\n%s",
                  ptxeGetErrorMessage(ctx), ptx);
    ptxeMemcpyDtoH(ctx, mem, din, 128);
    ptxeMemcpyDtoH(ctx, out, dout, 32);
    ptxeModuleUnload(m);
    return 0;
}

/* Decides a one-thread litmus test (one reachable state) and gives the values of the named
   observables (a register "P0:d" or a location "x"), as the model reports them. */
/* Verifies the litmus test `body` (header, initial state, program) with the condition
 * "exists (names[0] == 0 /\ ...)": the observed registers and locations are the condition's,
 * and vals[i] is names[i]'s value in the one final state. */
static int run_litmus(const char *body, int n, const char *const names[], int64_t vals[])
{
    char err[512], text[12288];
    /* room for the condition: each name is at most 15 characters (the callers' names[][16]) */
    ck_assert_int_lt(strlen(body) + 24 * (size_t)n + 8, sizeof text);
    int o = snprintf(text, sizeof text, "%s", body);
    for (int i = 0; i < n; i++)
        o += snprintf(text + o, sizeof text - (size_t)o, "%s%s == 0", i ? " /\\ " : "exists (",
                      names[i]);
    o += snprintf(text + o, sizeof text - (size_t)o, ")\n");
    ck_assert_int_lt(o, (int)sizeof text);
    lit_test *t = lit_parse("prop.litmus", text, err, sizeof err);
    if (!t) return FAIL("litmus refuses: %s\n%s", err, text), -1;
    verify_opts vo;
    verify_opts_default(&vo);
    vo.states = -1;
    verify_result r;
    ck_assert_msg(verify_test(t, &vo, &r) == 0, "%s\n%s", r.error, text);
    ck_assert_msg(r.nstates == 1, "%d final states\n%s", r.nstates, text);
    for (int i = 0; i < n; i++) {
        int o = 0;
        while (o < r.nobs && strcmp(r.obs[o].name, names[i])) o++;
        ck_assert_msg(o < r.nobs, "no observable %s (first: %s)\n%s", names[i],
                      r.nobs ? r.obs[0].name : "", text);
        vals[i] = r.states[o];
    }
    verify_result_free(&r);
    lit_free(t);
    return 0;
}

static void exec_done(void)
{
    if (ctx) ptxeCtxDestroy(ctx);
    ctx = NULL;
}

#define APPEND(buf, o, ...) ((o) += snprintf((buf) + (o), sizeof(buf) - (size_t)(o), __VA_ARGS__))

/* ---------- register computations ---------- */

/* mnemonic, result type, source types (the PTX operand types, §9.7); small: bit k set = source k
   is reduced to 0..255 (bit positions and lengths, shift amounts, lop3's immLut) */
typedef struct { const char *mn, *dt; unsigned small; const char *st[4]; } alu_form;

static const alu_form alu_forms[] = {
    /* §9.7.1 integer arithmetic */
    { "add.s32", "s32", 0, { "s32", "s32" } },
    { "add.u16", "u16", 0, { "u16", "u16" } },
    { "add.u64", "u64", 0, { "u64", "u64" } },
    { "sub.s64", "s64", 0, { "s64", "s64" } },
    { "add.sat.s32", "s32", 0, { "s32", "s32" } },
    { "sub.sat.s32", "s32", 0, { "s32", "s32" } },
    { "add.u16x2", "u16x2", 0, { "u16x2", "u16x2" } },
    { "add.s16x2", "s16x2", 0, { "s16x2", "s16x2" } },
    { "mul.lo.s32", "s32", 0, { "s32", "s32" } },
    { "mul.lo.u16", "u16", 0, { "u16", "u16" } },
    { "mul.hi.u32", "u32", 0, { "u32", "u32" } },
    { "mul.hi.s64", "s64", 0, { "s64", "s64" } },
    { "mul.hi.s16", "s16", 0, { "s16", "s16" } },
    { "mul.wide.s32", "s64", 0, { "s32", "s32" } },
    { "mul.wide.u16", "u32", 0, { "u16", "u16" } },
    { "mul.wide.u32", "u64", 0, { "u32", "u32" } },
    { "mul.wide.s16", "s32", 0, { "s16", "s16" } },
    { "mad.lo.u32", "u32", 0, { "u32", "u32", "u32" } },
    { "mad.lo.s16", "s16", 0, { "s16", "s16", "s16" } },
    { "mad.hi.s32", "s32", 0, { "s32", "s32", "s32" } },
    { "mad.hi.sat.s32", "s32", 0, { "s32", "s32", "s32" } },
    { "mad.hi.u64", "u64", 0, { "u64", "u64", "u64" } },
    { "mad.wide.s16", "s32", 0, { "s16", "s16", "s32" } },
    { "mad.wide.u32", "u64", 0, { "u32", "u32", "u64" } },
    { "mul24.lo.s32", "s32", 0, { "s32", "s32" } },
    { "mul24.hi.u32", "u32", 0, { "u32", "u32" } },
    { "mul24.hi.s32", "s32", 0, { "s32", "s32" } },
    { "mad24.lo.u32", "u32", 0, { "u32", "u32", "u32" } },
    { "mad24.hi.s32", "s32", 0, { "s32", "s32", "s32" } },
    { "mad24.hi.sat.s32", "s32", 0, { "s32", "s32", "s32" } },
    { "sad.u32", "u32", 0, { "u32", "u32", "u32" } },
    { "sad.s16", "s16", 0, { "s16", "s16", "s16" } },
    { "sad.s64", "s64", 0, { "s64", "s64", "s64" } },
    { "div.s32", "s32", 0, { "s32", "s32" } },
    { "div.u64", "u64", 0, { "u64", "u64" } },
    { "div.s16", "s16", 0, { "s16", "s16" } },
    { "rem.s32", "s32", 0, { "s32", "s32" } },
    { "rem.u64", "u64", 0, { "u64", "u64" } },
    { "rem.s16", "s16", 0, { "s16", "s16" } },
    { "abs.s32", "s32", 0, { "s32" } },
    { "abs.s16", "s16", 0, { "s16" } },
    { "neg.s64", "s64", 0, { "s64" } },
    { "neg.s16", "s16", 0, { "s16" } },
    { "min.s32", "s32", 0, { "s32", "s32" } },
    { "min.u64", "u64", 0, { "u64", "u64" } },
    { "min.relu.s32", "s32", 0, { "s32", "s32" } },
    { "max.u16", "u16", 0, { "u16", "u16" } },
    { "max.s64", "s64", 0, { "s64", "s64" } },
    { "max.relu.s32", "s32", 0, { "s32", "s32" } },
    { "min.s16x2", "s16x2", 0, { "s16x2", "s16x2" } },
    { "max.u16x2", "u16x2", 0, { "u16x2", "u16x2" } },
    { "max.relu.s16x2", "s16x2", 0, { "s16x2", "s16x2" } },
    { "popc.b32", "u32", 0, { "b32" } },
    { "popc.b64", "u32", 0, { "b64" } },
    { "clz.b32", "u32", 0, { "b32" } },
    { "clz.b64", "u32", 0, { "b64" } },
    { "bfind.u32", "u32", 0, { "u32" } },
    { "bfind.s64", "u32", 0, { "s64" } },
    { "bfind.shiftamt.s32", "u32", 0, { "s32" } },
    { "fns.b32", "b32", 2, { "b32", "u32", "s32" } },
    { "brev.b32", "b32", 0, { "b32" } },
    { "brev.b64", "b64", 0, { "b64" } },
    { "bfe.s32", "s32", 6, { "s32", "u32", "u32" } },
    { "bfe.u64", "u64", 6, { "u64", "u32", "u32" } },
    { "bfe.u32", "u32", 6, { "u32", "u32", "u32" } },
    { "bfe.s64", "s64", 6, { "s64", "u32", "u32" } },
    { "bfi.b32", "b32", 12, { "b32", "b32", "u32", "u32" } },
    { "bfi.b64", "b64", 12, { "b64", "b64", "u32", "u32" } },
    { "szext.wrap.s32", "s32", 2, { "s32", "u32" } },
    { "szext.clamp.u32", "u32", 2, { "u32", "u32" } },
    { "bmsk.clamp.b32", "b32", 3, { "u32", "u32" } },
    { "bmsk.wrap.b32", "b32", 3, { "u32", "u32" } },
    { "dp4a.u32.u32", "u32", 0, { "u32", "u32", "u32" } },
    { "dp4a.s32.u32", "s32", 0, { "s32", "u32", "s32" } },
    { "dp2a.lo.u32.s32", "s32", 0, { "u32", "s32", "s32" } },
    { "dp2a.hi.s32.s32", "s32", 0, { "s32", "s32", "s32" } },
    /* §9.7.7 logic and shift */
    { "and.b32", "b32", 0, { "b32", "b32" } },
    { "or.b64", "b64", 0, { "b64", "b64" } },
    { "xor.b16", "b16", 0, { "b16", "b16" } },
    { "or.b16", "b16", 0, { "b16", "b16" } },
    { "and.pred", "pred", 0, { "pred", "pred" } },
    { "xor.pred", "pred", 0, { "pred", "pred" } },
    { "not.b32", "b32", 0, { "b32" } },
    { "not.b64", "b64", 0, { "b64" } },
    { "not.pred", "pred", 0, { "pred" } },
    { "cnot.b32", "b32", 0, { "b32" } },
    { "cnot.b16", "b16", 0, { "b16" } },
    { "lop3.b32", "b32", 8, { "b32", "b32", "b32", "b32" } },
    { "shf.l.wrap.b32", "b32", 4, { "b32", "b32", "u32" } },
    { "shf.r.clamp.b32", "b32", 4, { "b32", "b32", "u32" } },
    { "shf.r.wrap.b32", "b32", 4, { "b32", "b32", "u32" } },
    { "shl.b32", "b32", 2, { "b32", "u32" } },
    { "shl.b16", "b16", 2, { "b16", "u32" } },
    { "shl.b64", "b64", 2, { "b64", "u32" } },
    { "shr.s32", "s32", 2, { "s32", "u32" } },
    { "shr.u16", "u16", 2, { "u16", "u32" } },
    { "shr.s64", "s64", 2, { "s64", "u32" } },
    { "shr.b32", "b32", 2, { "b32", "u32" } },
    { "shr.s16", "s16", 2, { "s16", "u32" } },
    /* §9.7.5 comparison and selection */
    { "setp.lt.s32", "pred", 0, { "s32", "s32" } },
    { "setp.lo.u32", "pred", 0, { "u32", "u32" } },
    { "setp.eq.b16", "pred", 0, { "b16", "b16" } },
    { "setp.gt.s64", "pred", 0, { "s64", "s64" } },
    { "setp.hs.u64", "pred", 0, { "u64", "u64" } },
    { "setp.le.s16", "pred", 0, { "s16", "s16" } },
    { "setp.lt.f32", "pred", 0, { "f32", "f32" } },
    { "setp.equ.f32", "pred", 0, { "f32", "f32" } },
    { "setp.nan.f64", "pred", 0, { "f64", "f64" } },
    { "setp.gtu.f64", "pred", 0, { "f64", "f64" } },
    { "setp.ge.ftz.f32", "pred", 0, { "f32", "f32" } },
    { "setp.ne.and.s32", "pred", 0, { "s32", "s32", "pred" } },
    { "setp.lt.or.f32", "pred", 0, { "f32", "f32", "pred" } },
    { "setp.ge.xor.u16", "pred", 0, { "u16", "u16", "pred" } },
    { "set.lt.u32.s32", "u32", 0, { "s32", "s32" } },
    { "set.gt.f32.f32", "f32", 0, { "f32", "f32" } },
    { "set.eq.s32.u64", "s32", 0, { "u64", "u64" } },
    { "set.lt.and.u32.s16", "u32", 0, { "s16", "s16", "pred" } },
    { "set.neu.f32.f64", "f32", 0, { "f64", "f64" } },
    { "selp.b32", "b32", 0, { "b32", "b32", "pred" } },
    { "selp.s16", "s16", 0, { "s16", "s16", "pred" } },
    { "selp.f64", "f64", 0, { "f64", "f64", "pred" } },
    { "selp.u64", "u64", 0, { "u64", "u64", "pred" } },
    { "slct.s32.s32", "s32", 0, { "s32", "s32", "s32" } },
    { "slct.u16.s32", "u16", 0, { "u16", "u16", "s32" } },
    { "slct.u64.f32", "u64", 0, { "u64", "u64", "f32" } },
    { "slct.ftz.f32.f32", "f32", 0, { "f32", "f32", "f32" } },
    /* §9.7.8 data movement and conversion */
    { "mov.b32", "b32", 0, { "b32" } },
    { "mov.u16", "u16", 0, { "u16" } },
    { "mov.s64", "s64", 0, { "s64" } },
    { "mov.f32", "f32", 0, { "f32" } },
    { "mov.pred", "pred", 0, { "pred" } },
    { "mov.s16", "s16", 0, { "s16" } },
    { "prmt.b32", "b32", 0, { "b32", "b32", "b32" } },
    { "prmt.b32.f4e", "b32", 0, { "b32", "b32", "b32" } },
    { "prmt.b32.b4e", "b32", 0, { "b32", "b32", "b32" } },
    { "prmt.b32.rc8", "b32", 0, { "b32", "b32", "b32" } },
    { "prmt.b32.ecl", "b32", 0, { "b32", "b32", "b32" } },
    { "prmt.b32.ecr", "b32", 0, { "b32", "b32", "b32" } },
    { "prmt.b32.rc16", "b32", 0, { "b32", "b32", "b32" } },
    { "cvt.u8.u32", "u8", 0, { "u32" } },
    { "cvt.s8.s32", "s8", 0, { "s32" } },
    { "cvt.s32.s8", "s32", 0, { "s8" } },
    { "cvt.u32.s8", "u32", 0, { "s8" } },
    { "cvt.u64.s32", "u64", 0, { "s32" } },
    { "cvt.s64.u32", "s64", 0, { "u32" } },
    { "cvt.u16.s64", "u16", 0, { "s64" } },
    { "cvt.s16.u8", "s16", 0, { "u8" } },
    { "cvt.u32.s16", "u32", 0, { "s16" } },
    { "cvt.s64.s16", "s64", 0, { "s16" } },
    { "cvt.sat.s8.s32", "s8", 0, { "s32" } },
    { "cvt.sat.u16.s32", "u16", 0, { "s32" } },
    { "cvt.sat.s32.u64", "s32", 0, { "u64" } },
    { "cvt.sat.u32.s64", "u32", 0, { "s64" } },
    { "cvt.rni.s32.f32", "s32", 0, { "f32" } },
    { "cvt.rzi.u32.f64", "u32", 0, { "f64" } },
    { "cvt.rmi.s64.f32", "s64", 0, { "f32" } },
    { "cvt.rpi.u16.f32", "u16", 0, { "f32" } },
    { "cvt.rzi.s8.f64", "s8", 0, { "f64" } },
    { "cvt.rni.sat.u64.f64", "u64", 0, { "f64" } },
    { "cvt.rn.f32.s32", "f32", 0, { "s32" } },
    { "cvt.rz.f64.u64", "f64", 0, { "u64" } },
    { "cvt.rm.f32.s64", "f32", 0, { "s64" } },
    { "cvt.rp.f32.u16", "f32", 0, { "u16" } },
    { "cvt.rn.f64.s8", "f64", 0, { "s8" } },
    { "cvt.rn.f32.f64", "f32", 0, { "f64" } },
    { "cvt.rz.ftz.f32.f64", "f32", 0, { "f64" } },
    { "cvt.f64.f32", "f64", 0, { "f32" } },
    { "cvt.rni.f32.f32", "f32", 0, { "f32" } },
    { "cvt.rzi.f64.f64", "f64", 0, { "f64" } },
    { "cvt.ftz.sat.f32.f32", "f32", 0, { "f32" } },
    { "cvt.rn.f16.f32", "f16", 0, { "f32" } },
    { "cvt.f32.f16", "f32", 0, { "f16" } },
    { "cvt.rn.bf16.f32", "bf16", 0, { "f32" } },
    { "cvt.f32.bf16", "f32", 0, { "bf16" } },
    { "cvt.rz.relu.f16.f32", "f16", 0, { "f32" } },
    { "cvt.rn.f16.f64", "f16", 0, { "f64" } },
    { "cvt.rna.tf32.f32", "tf32", 0, { "f32" } },
    { "cvt.rni.s32.f16", "s32", 0, { "f16" } },
    { "cvt.rn.f16.s32", "f16", 0, { "s32" } },
    { "cvt.rn.f16x2.f32", "f16x2", 0, { "f32", "f32" } },
    { "cvt.rn.relu.bf16x2.f32", "bf16x2", 0, { "f32", "f32" } },
    { "cvt.rn.satfinite.e4m3x2.f32", "e4m3x2", 0, { "f32", "f32" } },
    { "cvt.rn.satfinite.e5m2x2.f16x2", "e5m2x2", 0, { "f16x2" } },
    { "cvt.rn.f16x2.e4m3x2", "f16x2", 0, { "e4m3x2" } },
    { "cvt.pack.sat.s16.s32", "u32", 0, { "s32", "s32" } },
    { "cvt.pack.sat.u8.s32.b32", "u32", 0, { "s32", "s32", "b32" } },
    /* §9.7.3 floating point */
    { "testp.finite.f32", "pred", 0, { "f32" } },
    { "testp.notanumber.f64", "pred", 0, { "f64" } },
    { "testp.subnormal.f32", "pred", 0, { "f32" } },
    { "testp.normal.f64", "pred", 0, { "f64" } },
    { "copysign.f32", "f32", 0, { "f32", "f32" } },
    { "copysign.f64", "f64", 0, { "f64", "f64" } },
    { "add.f32", "f32", 0, { "f32", "f32" } },
    { "add.rz.f32", "f32", 0, { "f32", "f32" } },
    { "add.rm.f64", "f64", 0, { "f64", "f64" } },
    { "add.rp.ftz.f32", "f32", 0, { "f32", "f32" } },
    { "add.sat.f32", "f32", 0, { "f32", "f32" } },
    { "sub.rn.f64", "f64", 0, { "f64", "f64" } },
    { "sub.ftz.f32", "f32", 0, { "f32", "f32" } },
    { "sub.rm.f32", "f32", 0, { "f32", "f32" } },
    { "mul.rn.f32", "f32", 0, { "f32", "f32" } },
    { "mul.rz.f64", "f64", 0, { "f64", "f64" } },
    { "mul.rp.sat.f32", "f32", 0, { "f32", "f32" } },
    { "fma.rn.f32", "f32", 0, { "f32", "f32", "f32" } },
    { "fma.rz.f64", "f64", 0, { "f64", "f64", "f64" } },
    { "fma.rm.ftz.sat.f32", "f32", 0, { "f32", "f32", "f32" } },
    { "mad.rn.f64", "f64", 0, { "f64", "f64", "f64" } },
    { "div.rn.f32", "f32", 0, { "f32", "f32" } },
    { "div.rz.f64", "f64", 0, { "f64", "f64" } },
    { "div.approx.f32", "f32", 0, { "f32", "f32" } },
    { "div.full.ftz.f32", "f32", 0, { "f32", "f32" } },
    { "rcp.rn.f32", "f32", 0, { "f32" } },
    { "rcp.rm.f64", "f64", 0, { "f64" } },
    { "rcp.approx.f32", "f32", 0, { "f32" } },
    { "rcp.approx.ftz.f64", "f64", 0, { "f64" } },
    { "sqrt.rn.f32", "f32", 0, { "f32" } },
    { "sqrt.rp.f64", "f64", 0, { "f64" } },
    { "sqrt.approx.f32", "f32", 0, { "f32" } },
    { "rsqrt.approx.f32", "f32", 0, { "f32" } },
    { "rsqrt.approx.ftz.f64", "f64", 0, { "f64" } },
    { "abs.f32", "f32", 0, { "f32" } },
    { "abs.ftz.f32", "f32", 0, { "f32" } },
    { "neg.f64", "f64", 0, { "f64" } },
    { "neg.ftz.f32", "f32", 0, { "f32" } },
    { "min.f32", "f32", 0, { "f32", "f32" } },
    { "min.NaN.f32", "f32", 0, { "f32", "f32" } },
    { "min.xorsign.abs.f32", "f32", 0, { "f32", "f32" } },
    { "max.f64", "f64", 0, { "f64", "f64" } },
    { "max.ftz.NaN.f32", "f32", 0, { "f32", "f32" } },
    { "sin.approx.f32", "f32", 0, { "f32" } },
    { "cos.approx.ftz.f32", "f32", 0, { "f32" } },
    { "lg2.approx.f32", "f32", 0, { "f32" } },
    { "ex2.approx.ftz.f32", "f32", 0, { "f32" } },
    { "tanh.approx.f32", "f32", 0, { "f32" } },
    /* §9.7.4, §9.7.6 half precision */
    { "add.rn.f16", "f16", 0, { "f16", "f16" } },
    { "add.f16x2", "f16x2", 0, { "f16x2", "f16x2" } },
    { "add.bf16", "bf16", 0, { "bf16", "bf16" } },
    { "add.rn.bf16x2", "bf16x2", 0, { "bf16x2", "bf16x2" } },
    { "sub.ftz.f16", "f16", 0, { "f16", "f16" } },
    { "mul.sat.f16x2", "f16x2", 0, { "f16x2", "f16x2" } },
    { "mul.rn.bf16", "bf16", 0, { "bf16", "bf16" } },
    { "fma.rn.f16", "f16", 0, { "f16", "f16", "f16" } },
    { "fma.rn.relu.bf16x2", "bf16x2", 0, { "bf16x2", "bf16x2", "bf16x2" } },
    { "fma.rn.sat.f16x2", "f16x2", 0, { "f16x2", "f16x2", "f16x2" } },
    { "neg.f16", "f16", 0, { "f16" } },
    { "abs.bf16x2", "bf16x2", 0, { "bf16x2" } },
    { "min.f16", "f16", 0, { "f16", "f16" } },
    { "max.NaN.bf16x2", "bf16x2", 0, { "bf16x2", "bf16x2" } },
    { "min.xorsign.abs.bf16", "bf16", 0, { "bf16", "bf16" } },
    { "tanh.approx.f16", "f16", 0, { "f16" } },
    { "ex2.approx.f16x2", "f16x2", 0, { "f16x2" } },
    { "setp.lt.f16", "pred", 0, { "f16", "f16" } },
    { "setp.neu.bf16", "pred", 0, { "bf16", "bf16" } },
    { "set.lt.u32.f16", "u32", 0, { "f16", "f16" } },
    { "set.ge.f16.f16", "f16", 0, { "f16", "f16" } },
    { "set.gt.f16x2.f16x2", "f16x2", 0, { "f16x2", "f16x2" } },
    { "set.eq.u32.bf16x2", "u32", 0, { "bf16x2", "bf16x2" } },
    /* §9.7.16 video (default selectors) */
    { "vadd.u32.u32.u32", "u32", 0, { "u32", "u32" } },
    { "vsub.s32.s32.u32.sat", "s32", 0, { "s32", "u32" } },
    { "vabsdiff.u32.s32.s32", "u32", 0, { "s32", "s32" } },
    { "vmin.s32.u32.s32", "s32", 0, { "u32", "s32" } },
    { "vmax.u32.u32.u32.add", "u32", 0, { "u32", "u32", "u32" } },
    { "vshl.u32.u32.u32.wrap", "u32", 2, { "u32", "u32" } },
    { "vshr.s32.s32.u32.clamp", "s32", 2, { "s32", "u32" } },
    { "vmad.s32.s32.s32", "s32", 0, { "s32", "s32", "s32" } },
    { "vset.lt.u32.s32", "u32", 0, { "u32", "s32" } },
    { "vadd2.u32.u32.u32", "u32", 0, { "u32", "u32", "u32" } },
    { "vavrg2.s32.s32.s32", "s32", 0, { "s32", "s32", "s32" } },
    { "vmin2.u32.u32.u32.add", "u32", 0, { "u32", "u32", "u32" } },
    { "vset2.s32.s32.gt", "u32", 0, { "s32", "s32", "u32" } },
    { "vadd4.s32.s32.s32.sat", "s32", 0, { "s32", "s32", "s32" } },
    { "vabsdiff4.u32.u32.u32.add", "u32", 0, { "u32", "u32", "u32" } },
    { "vmax4.u32.u32.u32", "u32", 0, { "u32", "u32", "u32" } },
    { "vset4.u32.u32.ne", "u32", 0, { "u32", "u32", "u32" } },
};

/* the PTX register type holding a value of type t (no 8-bit registers in the executor's
   kernels: .u8/.s8 operands of cvt live in 16-bit registers, §5.2.2) */
static const char *reg_type(const char *t)
{
    switch (ty(t)) {
    case ISA_T_U8: return "u16";
    case ISA_T_S8: return "s16";
    case ISA_T_F16: case ISA_T_BF16: case ISA_T_E4M3X2: case ISA_T_E5M2X2: return "b16";
    case ISA_T_F16X2:
    case ISA_T_BF16X2:
    case ISA_T_U16X2:
    case ISA_T_S16X2:
    case ISA_T_TF32: return "b32";
    default: return t;
    }
}
/* the ld/st type moving it */
static const char *mem_type(const char *t)
{
    if (ty(t) == ISA_T_PRED) return "u32";
    const char *r = reg_type(t);
    return ty(t) == ISA_T_U8 || ty(t) == ISA_T_S8 ? t : r;
}

static int nsrc(const alu_form *f)
{
    int n = 0;
    while (n < 4 && f->st[n]) n++;
    return n;
}

static int alu_exec(const alu_form *f, const uint64_t *src, uint64_t *v)
{
    char decls[512], body[1536];
    int n = nsrc(f), d = 0, b = 0;
    for (int k = 0; k < n; k++) APPEND(decls, d, " .reg .%s %%s%d;", reg_type(f->st[k]), k);
    APPEND(decls, d, " .reg .%s %%d;", reg_type(f->dt));
    for (int k = 0; k < n; k++) {
        if (ty(f->st[k]) == ISA_T_PRED)
            APPEND(body, b, " ld.global.u32 %%t0, [%%a0+%d]; setp.ne.u32 %%s%d, %%t0, 0;\n", 8 * k,
                   k);
        else APPEND(body, b, " ld.global.%s %%s%d, [%%a0+%d];\n", mem_type(f->st[k]), k, 8 * k);
    }
    APPEND(body, b, " %s %%d", f->mn);
    for (int k = 0; k < n; k++) APPEND(body, b, ", %%s%d", k);
    if (ty(f->dt) == ISA_T_PRED)
        APPEND(body, b, ";\n selp.u32 %%t1, 1, 0, %%d; st.global.u32 [%%a1], %%t1;\n");
    else APPEND(body, b, ";\n st.global.%s [%%a1], %%d;\n", mem_type(f->dt));
    uint64_t mem[16] = { 0 }, out[4] = { 0 };
    memcpy(mem, src, 8 * (size_t)n);
    if (run_exec(decls, body, mem, out)) return -1;
    *v = out[0];
    return 0;
}

/* All operand sets in one litmus test: instruction k computes d<k> from s<4k+j> (a litmus
   verification costs more than an executor run, ASan most of all). */
static int alu_litmus(const alu_form *f, uint64_t src[][4], int64_t *v)
{
    char text[8192], names[NSETS][16];
    const char *pn[NSETS];
    int n = nsrc(f), o = 0;
    APPEND(text, o, "PTX prop\n{");
    for (int k = 0; k < NSETS; k++)
        for (int j = 0; j < n; j++)
            APPEND(text, o, " P0:s%d=%lld;", 4 * k + j, (long long)as_read(f->st[j], src[k][j]));
    APPEND(text, o, " }\n P0@cta 0,gpu 0 ;\n");
    for (int k = 0; k < NSETS; k++) {
        APPEND(text, o, " %s %%d%d", f->mn, k);
        for (int j = 0; j < n; j++) APPEND(text, o, ", %%s%d", 4 * k + j);
        APPEND(text, o, " ;\n");
        snprintf(names[k], sizeof names[k], "P0:d%d", k);
        pn[k] = names[k];
    }
    ck_assert_int_lt(o, (int)sizeof text);
    return run_litmus(text, NSETS, pn, v);
}

START_TEST(alu_forms_compute_as_the_executor)
{
    int cnt = 0, fails0 = fails;
    for (size_t i = 0; i < sizeof alu_forms / sizeof *alu_forms; i += FORM_STRIDE) {
        const alu_form *f = &alu_forms[i];
        uint64_t src[NSETS][4] = { { 0 } }, raw[NSETS];
        int64_t got[NSETS];
        for (int k = 0; k < NSETS; k++)
            for (int j = 0; j < nsrc(f); j++) {
                src[k][j] = operand(f->st[j], (k + 3 * j) % 24);
                if (f->small >> j & 1) src[k][j] &= 255;
            }
        int refused = 0;
        for (int k = 0; k < NSETS && !refused; k++) refused = alu_exec(f, src[k], &raw[k]);
        if (refused || alu_litmus(f, src, got)) continue;   /* refused: reported once */
        for (int k = 0; k < NSETS; k++, cnt++)
            if (as_read(f->dt, raw[k]) != got[k])
                FAIL("%s %llx %llx %llx %llx: executor %llx, litmus %llx", f->mn,
                     (unsigned long long)src[k][0], (unsigned long long)src[k][1],
                     (unsigned long long)src[k][2], (unsigned long long)src[k][3],
                     (unsigned long long)as_read(f->dt, raw[k]), (unsigned long long)got[k]);
    }
    fprintf(stderr, "litmus vs executor: %d computations of %zu register forms, %d disagreements\n",
            cnt, sizeof alu_forms / sizeof *alu_forms, fails - fails0);
    exec_done();
    ck_assert_int_eq(fails, fails0);
}
END_TEST

/* ---------- atom and red ---------- */

/* op, type (with .noftz for the half-precision adds), red: the reduction (no result register) */
typedef struct { const char *op, *t; int red; } atom_form;

#define A(op, t) { op, t, 0 }
#define R(op, t) { op, t, 1 }
static const atom_form atom_forms[] = {
    /* §9.7.12.5 atom */
    A("add", "u32"),
    A("add", "s32"),
    A("add", "u64"),
    A("add", "f32"),
    A("add", "f64"),
    A("add.noftz", "f16"),
    A("add.noftz", "bf16"),
    A("add.noftz", "f16x2"),
    A("add.noftz", "bf16x2"),
    A("min", "u32"),
    A("min", "s32"),
    A("min", "u64"),
    A("min", "s64"),
    A("max", "u32"),
    A("max", "s32"),
    A("max", "u64"),
    A("max", "s64"),
    A("inc", "u32"),
    A("dec", "u32"),
    A("and", "b32"),
    A("and", "b64"),
    A("or", "b32"),
    A("or", "b64"),
    A("xor", "b32"),
    A("xor", "b64"),
    A("exch", "b32"),
    A("exch", "b64"),
    A("cas", "b16"),
    A("cas", "b32"),
    A("cas", "b64"),
    /* §9.7.12.6 red */
    R("add", "u32"),
    R("add", "s32"),
    R("add", "u64"),
    R("add", "f32"),
    R("add", "f64"),
    R("add.noftz", "f16"),
    R("add.noftz", "bf16x2"),
    R("min", "u32"),
    R("min", "s32"),
    R("min", "u64"),
    R("min", "s64"),
    R("max", "u32"),
    R("max", "s32"),
    R("max", "u64"),
    R("max", "s64"),
    R("inc", "u32"),
    R("dec", "u32"),
    R("and", "b32"),
    R("and", "b64"),
    R("or", "b32"),
    R("or", "b64"),
    R("xor", "b32"),
    R("xor", "b64"),
};
#undef A
#undef R

static int is_cas(const atom_form *f) { return !strcmp(f->op, "cas"); }

/* old: the value the atom returns; *mem: the location's final value (raw bits) */
static int atom_exec(const atom_form *f, uint64_t a, uint64_t b, uint64_t c, uint64_t *old,
                     uint64_t *memv)
{
    char decls[256], body[1024];
    int d = 0, o = 0;
    const char *rt = reg_type(f->t);
    APPEND(decls, d, " .reg .%s %%b; .reg .%s %%c; .reg .%s %%d;", rt, rt, rt);
    APPEND(body, o, " ld.global.%s %%b, [%%a0+8]; ld.global.%s %%c, [%%a0+16];\n", rt, rt);
    if (f->red) APPEND(body, o, " red.global.%s.%s [%%a0], %%b;\n", f->op, f->t);
    else
        APPEND(body, o, " atom.global.%s.%s %%d, [%%a0], %%b%s;\n st.global.%s [%%a1], %%d;\n",
               f->op, f->t, is_cas(f) ? ", %c" : "", rt);
    uint64_t mem[16] = { a, b, c }, out[4] = { 0 };
    if (run_exec(decls, body, mem, out)) return -1;
    *old = out[0];
    *memv = mem[0] & mask(bits(f->t));
    return 0;
}

/* n operand sets in one litmus test: atom k works on location x<k> with b<k>, c<k> into r<k>.
   (A read's value domain holds every value written to its location's bytes by any thread, so
   the paths grow as 2^n: n stays small.) */
#define ATOM_BATCH 2
static int atom_litmus(const atom_form *f, int n, const uint64_t *a, const uint64_t *b,
                       const uint64_t *c, int64_t *old, int64_t *memv)
{
    char text[8192], names[2 * NSETS][16];
    const char *pn[2 * NSETS];
    int o = 0, nn = 0;
    APPEND(text, o, "PTX prop\n{");
    for (int k = 0; k < n; k++)
        APPEND(text, o, " x%d=%lld; P0:b%d=%lld; P0:c%d=%lld;", k, (long long)as_read(f->t, a[k]),
               k, (long long)as_read(f->t, b[k]), k, (long long)as_read(f->t, c[k]));
    APPEND(text, o, " }\n P0@cta 0,gpu 0 ;\n");
    for (int k = 0; k < n; k++) {
        if (f->red) APPEND(text, o, " red.global.%s.%s [x%d], %%b%d ;\n", f->op, f->t, k, k);
        else {
            APPEND(text, o, " atom.global.%s.%s %%r%d, [x%d], %%b%d", f->op, f->t, k, k, k);
            APPEND(text, o, is_cas(f) ? ", %%c%d ;\n" : " ;\n", k);
            snprintf(names[nn], sizeof names[nn], "P0:r%d", k);
            pn[nn] = names[nn], nn++;
        }
        snprintf(names[nn], sizeof names[nn], "x%d", k);
        pn[nn] = names[nn], nn++;
    }
    ck_assert_int_lt(o, (int)sizeof text);
    int64_t v[2 * NSETS];
    if (run_litmus(text, nn, pn, v)) return -1;
    for (int k = 0; k < n; k++) {
        old[k] = f->red ? 0 : v[2 * k];
        memv[k] = f->red ? v[k] : v[2 * k + 1];
    }
    return 0;
}

START_TEST(atomics_compute_as_the_executor)
{
    int cnt = 0, fails0 = fails;
    for (size_t i = 0; i < sizeof atom_forms / sizeof *atom_forms; i += FORM_STRIDE) {
        const atom_form *f = &atom_forms[i];
        uint64_t a[NSETS], b[NSETS], c[NSETS], eold[NSETS] = { 0 }, emem[NSETS];
        int64_t lold[NSETS], lmem[NSETS];
        for (int k = 0; k < NSETS; k++) {
            a[k] = operand(f->t, k), b[k] = operand(f->t, (k + 5) % 24),
            c[k] = operand(f->t, (k + 11) % 24);
            if (is_cas(f) && k % 2) b[k] = a[k];   /* the comparison succeeds half the time */
        }
        int refused = 0;
        for (int k = 0; k < NSETS && !refused; k++)
            refused = atom_exec(f, a[k], b[k], c[k], &eold[k], &emem[k]);
        for (int k = 0; k < NSETS && !refused; k += ATOM_BATCH)
            refused = atom_litmus(f, ATOM_BATCH, a + k, b + k, c + k, lold + k, lmem + k);
        if (refused) continue;
        for (int k = 0; k < NSETS; k++, cnt++)
            if (as_read(f->t, emem[k]) != lmem[k] || (!f->red && as_read(f->t, eold[k]) != lold[k]))
                FAIL("%s.global.%s.%s x=%llx b=%llx c=%llx: executor old %llx x %llx, litmus old "
                     "%llx x %llx",
                     f->red ? "red" : "atom", f->op, f->t, (unsigned long long)a[k],
                     (unsigned long long)b[k], (unsigned long long)c[k],
                     (unsigned long long)as_read(f->t, eold[k]),
                     (unsigned long long)as_read(f->t, emem[k]), (unsigned long long)lold[k],
                     (unsigned long long)lmem[k]);
    }
    fprintf(stderr,
            "litmus vs executor: %d atomic operations of %zu atom/red forms, %d disagreements\n",
            cnt, sizeof atom_forms / sizeof *atom_forms, fails - fails0);
    exec_done();
    ck_assert_int_eq(fails, fails0);
}
END_TEST

/* ---------- st then ld ---------- */

/* st.global.st [x+so], v then ld.global.ld r, [x+lo] on a location x holding random bytes */
typedef struct { const char *st, *ld; int so, lo; } ldst_form;

static const ldst_form ldst_forms[] = {
    /* the same size: every type of the size stored, every one loaded */
    { "u8", "u8", 0, 0 },
    { "u8", "s8", 0, 0 },
    { "u8", "b8", 0, 0 },
    { "s8", "u8", 0, 0 },
    { "s8", "s8", 0, 0 },
    { "s8", "b8", 0, 0 },
    { "b8", "u8", 0, 0 },
    { "b8", "s8", 0, 0 },
    { "b8", "b8", 0, 0 },
    { "u16", "u16", 0, 0 },
    { "u16", "s16", 0, 0 },
    { "u16", "b16", 0, 0 },
    { "s16", "u16", 0, 0 },
    { "s16", "s16", 0, 0 },
    { "s16", "b16", 0, 0 },
    { "b16", "u16", 0, 0 },
    { "b16", "s16", 0, 0 },
    { "b16", "b16", 0, 0 },
    { "u32", "u32", 0, 0 },
    { "u32", "s32", 0, 0 },
    { "u32", "b32", 0, 0 },
    { "u32", "f32", 0, 0 },
    { "s32", "u32", 0, 0 },
    { "s32", "s32", 0, 0 },
    { "s32", "b32", 0, 0 },
    { "s32", "f32", 0, 0 },
    { "b32", "u32", 0, 0 },
    { "b32", "s32", 0, 0 },
    { "b32", "b32", 0, 0 },
    { "b32", "f32", 0, 0 },
    { "f32", "u32", 0, 0 },
    { "f32", "s32", 0, 0 },
    { "f32", "b32", 0, 0 },
    { "f32", "f32", 0, 0 },
    { "u64", "u64", 0, 0 },
    { "u64", "s64", 0, 0 },
    { "u64", "b64", 0, 0 },
    { "u64", "f64", 0, 0 },
    { "s64", "u64", 0, 0 },
    { "s64", "s64", 0, 0 },
    { "s64", "b64", 0, 0 },
    { "s64", "f64", 0, 0 },
    { "b64", "u64", 0, 0 },
    { "b64", "s64", 0, 0 },
    { "b64", "b64", 0, 0 },
    { "b64", "f64", 0, 0 },
    { "f64", "u64", 0, 0 },
    { "f64", "s64", 0, 0 },
    { "f64", "b64", 0, 0 },
    { "f64", "f64", 0, 0 },
    /* mixed sizes (§8.2: the load reads the stored bytes and the initial ones around them) */
    { "u8", "u32", 1, 0 },
    { "s8", "s16", 1, 0 },
    { "u16", "s32", 2, 0 },
    { "b16", "u64", 6, 0 },
    { "u32", "s64", 4, 0 },
    { "f32", "b64", 0, 0 },
    { "b8", "u64", 7, 0 },
    { "s16", "f32", 0, 0 },
    { "u32", "s8", 0, 3 },
    { "s32", "u8", 0, 1 },
    { "u64", "s16", 0, 6 },
    { "b64", "f32", 0, 4 },
    { "f64", "u32", 0, 0 },
    { "s64", "s8", 0, 7 },
    { "f32", "s16", 0, 2 },
    { "u16", "s8", 0, 1 },
};

static int is_float_t(const char *t) { return isa_type_is_float(ty(t)); }

/* the register a load fills (§9.7.8.8: a destination wider than the type is allowed; a signed
   type sign-extends into it, others zero-extend) and the one a store reads (§9.7.8.11: a wider
   source register gives its low bits): 64 bits for integers */
static const char *wide_reg(const char *t)
{
    return is_float_t(t) ? t : isa_type_is_signed(ty(t)) ? "s64" : "u64";
}

static int ldst_exec(const ldst_form *f, uint64_t init, uint64_t v, uint64_t *r)
{
    char decls[256], body[1024];
    int d = 0, o = 0;
    APPEND(decls, d, " .reg .%s %%v; .reg .%s %%r;", wide_reg(f->st), wide_reg(f->ld));
    APPEND(body, o,
           " ld.global.%s %%v, [%%a0+8];\n st.global.%s [%%a0+%d], %%v;\n ld.global.%s %%r, "
           "[%%a0+%d];\n",
           is_float_t(f->st) ? f->st : "b64", f->st, f->so, f->ld, f->lo);
    APPEND(body, o, " st.global.%s [%%a1], %%r;\n", is_float_t(f->ld) ? f->ld : "b64");
    uint64_t mem[16] = { init, v }, out[4] = { 0 };
    if (run_exec(decls, body, mem, out)) return -1;
    *r = out[0];
    return 0;
}

/* n operand sets in one litmus test: pair k stores v<k> to [x<k>+so] and loads r<k> from
   [x<k>+lo], each on its own location (one verification per set was 1 056 of them) */
#define LDST_BATCH 4
static int ldst_litmus(const ldst_form *f, int n, const uint64_t *init, const uint64_t *v,
                       int64_t *r)
{
    char text[4096], names[NSETS][16];
    const char *pn[NSETS];
    int o = 0;
    APPEND(text, o, "PTX prop\n{");
    for (int k = 0; k < n; k++)
        APPEND(text, o, " x%d=0x%llx; P0:v%d=%lld;", k, (unsigned long long)init[k], k,
               (long long)(is_float_t(f->st) ? (int64_t)(v[k] & mask(bits(f->st)))
                                             : (int64_t)v[k]));
    APPEND(text, o, " }\n P0@cta 0,gpu 0 ;\n");
    for (int k = 0; k < n; k++) {
        APPEND(text, o, " st.global.%s [x%d+%d], %%v%d ;\n ld.global.%s %%r%d, [x%d+%d] ;\n", f->st,
               k, f->so, k, f->ld, k, k, f->lo);
        snprintf(names[k], sizeof names[k], "P0:r%d", k);
        pn[k] = names[k];
    }
    ck_assert_int_lt(o, (int)sizeof text);
    return run_litmus(text, n, pn, r);
}

START_TEST(stores_and_loads_as_the_executor)
{
    int cnt = 0, fails0 = fails;
    for (size_t i = 0; i < sizeof ldst_forms / sizeof *ldst_forms; i += FORM_STRIDE) {
        const ldst_form *f = &ldst_forms[i];
        uint64_t init[NSETS], v[NSETS], raw[NSETS];
        int64_t got[NSETS];
        int size = (int)bits(f->st) / 8 + f->so > (int)bits(f->ld) / 8 + f->lo
                       ? (int)bits(f->st) / 8 + f->so
                       : (int)bits(f->ld) / 8 + f->lo;
        for (int k = 0; k < NSETS; k++) {
            /* integers: the whole 64-bit register (a store keeps its low bytes); floats: their
               bits; the litmus location is as wide as its widest access */
            init[k] = rnd64() & mask(8u * (unsigned)size);
            v[k] = is_float_t(f->st) ? operand(f->st, k)
                                     : operand("u64", k) ^ (k > 8 ? rnd64() : 0);
        }
        int refused = 0;
        for (int k = 0; k < NSETS && !refused; k++)
            refused = ldst_exec(f, init[k], v[k], &raw[k]);
        for (int k = 0; k < NSETS && !refused; k += LDST_BATCH)
            refused = ldst_litmus(f, LDST_BATCH, init + k, v + k, got + k);
        if (refused) continue;   /* refused: reported once */
        for (int k = 0; k < NSETS; k++, cnt++) {
            int64_t want =
                is_float_t(f->ld) ? (int64_t)(raw[k] & mask(bits(f->ld))) : (int64_t)raw[k];
            if (want != got[k])
                FAIL("st.global.%s [x+%d] then ld.global.%s [x+%d], x=%llx v=%llx: executor %llx, "
                     "litmus %llx",
                     f->st, f->so, f->ld, f->lo, (unsigned long long)init[k],
                     (unsigned long long)v[k], (unsigned long long)want,
                     (unsigned long long)got[k]);
        }
    }
    fprintf(stderr, "litmus vs executor: %d loads of %zu st/ld forms, %d disagreements\n", cnt,
            sizeof ldst_forms / sizeof *ldst_forms, fails - fails0);
    exec_done();
    ck_assert_int_eq(fails, fails0);
}
END_TEST

static void add_tests(TCase *tc)
{
    tcase_add_test(tc, alu_forms_compute_as_the_executor);
    tcase_add_test(tc, atomics_compute_as_the_executor);
    tcase_add_test(tc, stores_and_loads_as_the_executor);
}

#include "check_main.h"
