/* tests/test_carry.c — the carry flag CC.CF of the extended-precision instructions (ISA §9.7.2:
 * add.cc, addc, sub.cc, subc, mad.cc, madc) against the host's unsigned __int128 arithmetic.
 * CC.CF follows the hardware convention (ptx/isa.c carry_eval): after a subtraction it is the
 * carry-out of a + ~b + cin, 1 = no borrow, so a chain may mix additions and subtractions as
 * nvcc's code does.  Three levels: every instruction, type and carry-in alone on edge and random
 * values (ptx/isa.c); multi-word chains, including the ISA's own examples, evaluated through
 * isa_eval_cc; and the same chains as a kernel the executor runs, lane by lane. */
#include "tests/check_quiet.h"
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ptx/isa.h"
#define HX_SOURCE "test_carry.c"   /* the evidence of the inline kernel */
#include "tests/exec_harness.h"

#define RAND64_SEED 0x9e3779b97f4a7c15ull
#include "tests/rand64.h"
/* edge values of an n-bit word: 0, 1, 2, max-1, max, the sign bit and its neighbours */
static uint64_t edge(unsigned n, unsigned i)
{
    uint64_t m = n == 64 ? ~0ull : (1ull << n) - 1, h = 1ull << (n - 1);
    const uint64_t v[] = { 0, 1, 2, m - 1, m, h, h - 1, h + 1 };
    return v[i % 8] & m;
}
#define NEDGE 8

/* one instruction through ptx/isa.c: d, and *cc updated (each mnemonic decoded once) */
static uint64_t ev(const char *mn, uint64_t a, uint64_t b, uint64_t c, uint32_t *cc)
{
    static struct { char mn[24]; isa_insn in; } cache[96];
    static int ncache;
    char err[160] = "";
    int i = 0;
    while (i < ncache && strcmp(cache[i].mn, mn)) i++;
    if (i == ncache) {
        ck_assert_int_lt(ncache, 96);
        snprintf(cache[i].mn, sizeof cache[i].mn, "%s", mn);
        ck_assert_msg(isa_decode(mn, ISA_T_S64, &cache[i].in, err, sizeof err) == 0,
                      "decode %s: %s", mn, err);
        ncache++;
    }
    uint64_t s[3] = { a, b, c }, d[2] = { 0, 0 };
    ck_assert_msg(isa_eval_cc(&cache[i].in, s, d, cc, err, sizeof err) == 0, "%s: %s", mn, err);
    return d[0];
}

/* the reference of one instruction: op a/s/m (mad), use_in (addc/subc/madc), hi (mad .hi),
 * sgn (.s types: only mad.hi differs), on n-bit a, b, c and carry-in cin; *cf = the carry-out */
static uint64_t ref(char op, int use_in, int hi, int sgn, unsigned n, uint64_t a, uint64_t b,
                    uint64_t c, unsigned cin, unsigned *cf)
{
    u128 m = n == 64 ? (u128)~0ull : ((u128)1 << n) - 1;
    if (op == 'm') {
        s128 sa = n == 64 ? (s128)(int64_t)a : (s128)(int32_t)a;
        s128 sb = n == 64 ? (s128)(int64_t)b : (s128)(int32_t)b;
        u128 t = sgn ? (u128)(sa * sb) : (u128)a * b;   /* the 2n-bit product */
        a = (uint64_t)((hi ? t >> n : t) & m);
        b = c;
    }
    if (op == 's') {              /* a - b - borrow-in, borrow-in = !CC.CF for subc */
        unsigned bin = use_in ? !cin : 0;
        *cf = (u128)a >= (u128)b + bin;                  /* no borrow */
        return (uint64_t)(((u128)a - b - bin) & m);
    }
    u128 w = (u128)a + b + (use_in ? cin : 0);
    *cf = (unsigned)(w >> n) & 1;
    return (uint64_t)(w & m);
}

/* every instruction of §9.7.2, every type, .cc or not, carry-in 0 and 1, on edge and random
 * values: the result and the flag (unchanged without .cc) as the reference says */
START_TEST(each_instruction)
{
    static const struct { const char *mn; char op; int use_in, cc, hi; } f[] = {
        { "add.cc", 'a', 0, 1, 0 },     { "addc", 'a', 1, 0, 0 },
        { "addc.cc", 'a', 1, 1, 0 },    { "sub.cc", 's', 0, 1, 0 },
        { "subc", 's', 1, 0, 0 },       { "subc.cc", 's', 1, 1, 0 },
        { "mad.lo.cc", 'm', 0, 1, 0 },  { "mad.hi.cc", 'm', 0, 1, 1 },
        { "madc.lo", 'm', 1, 0, 0 },    { "madc.hi", 'm', 1, 0, 1 },
        { "madc.lo.cc", 'm', 1, 1, 0 }, { "madc.hi.cc", 'm', 1, 1, 1 },
    };
    static const char *const ty[] = { "u32", "s32", "u64", "s64" };
    long checked = 0;
    for (size_t k = 0; k < sizeof f / sizeof f[0]; k++)
        for (int t = 0; t < 4; t++) {
            unsigned n = t < 2 ? 32 : 64;
            uint64_t m = n == 64 ? ~0ull : 0xffffffffull;
            char mn[40];
            snprintf(mn, sizeof mn, "%s.%s", f[k].mn, ty[t]);
            for (unsigned i = 0; i < NEDGE * NEDGE * NEDGE + 3000; i++) {
                uint64_t a, b, c;
                if (i < NEDGE * NEDGE * NEDGE)
                    a = edge(n, i), b = edge(n, i / NEDGE), c = edge(n, i / NEDGE / NEDGE);
                else
                    a = rnd64() & m, b = rnd64() & m, c = rnd64() & m;
                for (unsigned cin = 0; cin < 2; cin++) {
                    uint32_t cc = cin;
                    unsigned cf;
                    uint64_t want = ref(f[k].op, f[k].use_in, f[k].hi, t & 1, n, a, b, c, cin, &cf);
                    uint64_t got = ev(mn, a, b, c, &cc);
                    ck_assert_msg(got == want && cc == (f[k].cc ? cf : cin),
                                  "%s a=0x%llx b=0x%llx c=0x%llx CF=%u: got 0x%llx CF=%u, want "
                                  "0x%llx CF=%u", mn, (unsigned long long)a, (unsigned long long)b,
                                  (unsigned long long)c, cin, (unsigned long long)got, cc,
                                  (unsigned long long)want, f[k].cc ? cf : cin);
                    checked++;
                }
            }
        }
    ck_assert_int_gt(checked, 12 * 4 * 7000);
}
END_TEST

/* 128-bit x and y as words of n bits (4 of 32 or 2 of 64), least significant first */
static void split(u128 x, unsigned n, uint64_t *w)
{
    uint64_t m = n == 64 ? ~0ull : 0xffffffffull;
    for (unsigned i = 0; i < 128 / n; i++) w[i] = (uint64_t)(x >> (i * n)) & m;
}
static u128 join(const uint64_t *w, unsigned n)
{
    u128 x = 0;
    for (unsigned i = 128 / n; i-- > 0;) x = x << n | w[i];
    return x;
}
static u128 rnd128(unsigned i)
{
    static const u128 e[] = { 0, 1, ~(u128)0, (u128)1 << 64, ((u128)1 << 64) - 1, (u128)1 << 127,
                              ((u128)1 << 127) - 1, (u128)0xffffffffu, (u128)1 << 32,
                              (u128)0xffffffffffffffffull << 32 };
    if (i < sizeof e / sizeof e[0] * 2) return e[i % (sizeof e / sizeof e[0])] + (i >= 10);
    u128 x = (u128)rnd64() << 64 | rnd64();
    switch (i % 4) {      /* long runs of ones or zeros, where carries ripple through */
    case 0: return x;
    case 1: return x | (((u128)1 << (rnd64() % 128)) - 1);
    case 2: return x & ~(((u128)1 << (rnd64() % 128)) - 1);
    default: return x >> (rnd64() % 128);
    }
}

/* the 128-bit chains of the ISA's examples (§9.7.2.1-4: add.cc, addc.cc, ..., addc;
 * sub.cc, subc.cc, ..., subc) on n-bit words, and the two mixed reads of the flag that nvcc
 * emits: after a subtraction chain, addc 0, 0 is x >= y; after an addition chain, subc 0, 0 is
 * 0 on a carry-out, all ones without */
START_TEST(chains_128)
{
    for (unsigned n = 32; n <= 64; n += 32) {
        const char *t = n == 32 ? "u32" : "u64";
        char add0[16], addc[20], addl[16], sub0[16], subc[20], subl[16], rd[16], rdneg[16];
        snprintf(add0, sizeof add0, "add.cc.%s", t), snprintf(addc, sizeof addc, "addc.cc.%s", t);
        snprintf(addl, sizeof addl, "addc.%s", t), snprintf(sub0, sizeof sub0, "sub.cc.%s", t);
        snprintf(subc, sizeof subc, "subc.cc.%s", t), snprintf(subl, sizeof subl, "subc.%s", t);
        snprintf(rd, sizeof rd, "addc.%s", t), snprintf(rdneg, sizeof rdneg, "subc.%s", t);
        unsigned nw = 128 / n;
        uint64_t m = n == 64 ? ~0ull : 0xffffffffull;
        for (unsigned i = 0; i < 8000; i++) {
            u128 x = rnd128(i), y = rnd128(i * 7 + 3);
            uint64_t xw[4], yw[4], s[4], d[4], e[4];
            split(x, n, xw), split(y, n, yw);
            uint32_t cc = i & 1;   /* whatever the flag held before: add.cc/sub.cc ignore it */
            for (unsigned k = 0; k < nw; k++)
                s[k] = ev(k == 0 ? add0 : k + 1 < nw ? addc : addl, xw[k], yw[k], 0, &cc);
            ck_assert_msg(join(s, n) == x + y, "%s chain %u", t, i);
            for (unsigned k = 0; k < nw; k++)
                d[k] = ev(k == 0 ? sub0 : k + 1 < nw ? subc : subl, xw[k], yw[k], 0, &cc);
            ck_assert_msg(join(d, n) == x - y, "%s sub chain %u", t, i);
            for (unsigned k = 0; k < nw; k++) e[k] = ev(k == 0 ? sub0 : subc, xw[k], yw[k], 0, &cc);
            ck_assert_msg(join(e, n) == x - y, "%s sub.cc chain %u", t, i);
            ck_assert_msg(ev(rd, 0, 0, 0, &cc) == (x >= y), "%s: x >= y read with addc, %u", t, i);
            for (unsigned k = 0; k < nw; k++) e[k] = ev(k == 0 ? add0 : addc, xw[k], yw[k], 0, &cc);
            uint64_t want = x + y < x ? 0 : m;   /* 0 + ~0 + CF */
            ck_assert_msg(ev(rdneg, 0, 0, 0, &cc) == want, "%s: carry read with subc, %u", t, i);
        }
    }
}
END_TEST

/* §9.7.2.6's example, verbatim: [r3,r2,r1,r0] = [r5,r4] * [r7,r6], on 32-bit words (a 64 x 64
 * -> 128-bit product) and on 64-bit words (128 x 128 -> 256 bits, checked as four 64 x 64
 * products summed in __int128) */
static void isa_madc_example(unsigned n, uint64_t r4, uint64_t r5, uint64_t r6, uint64_t r7,
                             uint64_t *r)
{
    const char *t = n == 32 ? "u32" : "u64";
    char mn[10][24];
    static const char *const f[] = { "mul.lo", "mul.hi", "mad.lo.cc", "madc.hi", "mad.lo.cc",
                                     "madc.hi.cc", "addc", "mad.lo.cc", "madc.hi" };
    for (int i = 0; i < 9; i++) snprintf(mn[i], sizeof mn[i], "%s.%s", f[i], t);
    uint32_t cc = 0;
    r[0] = ev(mn[0], r4, r6, 0, &cc);        /* mul.lo r0, r4, r6 */
    r[1] = ev(mn[1], r4, r6, 0, &cc);        /* mul.hi r1, r4, r6 */
    r[1] = ev(mn[2], r5, r6, r[1], &cc);     /* mad.lo.cc r1, r5, r6, r1 */
    r[2] = ev(mn[3], r5, r6, 0, &cc);        /* madc.hi r2, r5, r6, 0 */
    r[1] = ev(mn[4], r4, r7, r[1], &cc);     /* mad.lo.cc r1, r4, r7, r1 */
    r[2] = ev(mn[5], r4, r7, r[2], &cc);     /* madc.hi.cc r2, r4, r7, r2 */
    r[3] = ev(mn[6], 0, 0, 0, &cc);          /* addc r3, 0, 0 */
    r[2] = ev(mn[7], r5, r7, r[2], &cc);     /* mad.lo.cc r2, r5, r7, r2 */
    r[3] = ev(mn[8], r5, r7, r[3], &cc);     /* madc.hi r3, r5, r7, r3 */
}

START_TEST(isa_multiply_example)
{
    for (unsigned i = 0; i < 8000; i++) {
        u128 x = rnd128(i), y = rnd128(i * 5 + 1);
        uint64_t r[4];
        /* 32-bit words: the 64-bit halves of x and y */
        uint64_t a = (uint64_t)x, b = (uint64_t)y;
        isa_madc_example(32, a & 0xffffffffu, a >> 32, b & 0xffffffffu, b >> 32, r);
        u128 p = (u128)a * b;
        ck_assert_msg(join(r, 32) == p, "32-bit words, %u", i);
        /* 64-bit words: the full 256-bit product of x and y */
        isa_madc_example(64, (uint64_t)x, (uint64_t)(x >> 64), (uint64_t)y, (uint64_t)(y >> 64),
                         r);
        u128 ll = (u128)(uint64_t)x * (uint64_t)y, lh = (u128)(uint64_t)x * (uint64_t)(y >> 64);
        u128 hl = (u128)(uint64_t)(x >> 64) * (uint64_t)y;
        u128 hh = (u128)(uint64_t)(x >> 64) * (uint64_t)(y >> 64);
        u128 mid = (ll >> 64) + (uint64_t)lh + (uint64_t)hl;   /* < 3 * 2^64 */
        u128 lo = (ll & ~0ull) | mid << 64;
        u128 hi = hh + (lh >> 64) + (hl >> 64) + (mid >> 64);
        ck_assert_msg(r[0] == (uint64_t)lo && r[1] == (uint64_t)(lo >> 64) &&
                          r[2] == (uint64_t)hi && r[3] == (uint64_t)(hi >> 64),
                      "64-bit words, %u", i);
    }
}
END_TEST

/* The same chains in a kernel: each thread reads x and y (four 32-bit words each) and writes
 * x + y, x - y, x >= y (sub.cc/subc.cc then addc 0, 0), the carry of x + y read by subc 0, 0,
 * the 64-bit-word sum and difference of the low halves with .s64 types, and the low 64 x 64
 * product by the ISA's madc sequence.  The executor keeps one flag per thread. */
static const char chain_kernel[] =
    ".version 8.4\n.target sm_80\n.address_size 64\n"
    ".visible .entry chains(.param .u64 px, .param .u64 py, .param .u64 po)\n{\n"
    ".reg .b32 %r<40>;\n.reg .b64 %rd<20>;\n"
    "ld.param.u64 %rd1, [px];\nld.param.u64 %rd2, [py];\nld.param.u64 %rd3, [po];\n"
    "mov.u32 %r0, %tid.x;\nmul.wide.u32 %rd4, %r0, 16;\nadd.s64 %rd5, %rd1, %rd4;\n"
    "add.s64 %rd6, %rd2, %rd4;\n"
    "ld.global.v4.u32 {%r1, %r2, %r3, %r4}, [%rd5];\n"
    "ld.global.v4.u32 {%r5, %r6, %r7, %r8}, [%rd6];\n"
    "add.cc.u32 %r10, %r1, %r5;\naddc.cc.u32 %r11, %r2, %r6;\naddc.cc.s32 %r12, %r3, %r7;\n"
    "addc.u32 %r13, %r4, %r8;\n"
    "sub.cc.u32 %r14, %r1, %r5;\nsubc.cc.s32 %r15, %r2, %r6;\nsubc.cc.u32 %r16, %r3, %r7;\n"
    "subc.u32 %r17, %r4, %r8;\n"
    "sub.cc.u32 %r30, %r1, %r5;\nsubc.cc.u32 %r30, %r2, %r6;\nsubc.cc.u32 %r30, %r3, %r7;\n"
    "subc.cc.u32 %r30, %r4, %r8;\naddc.u32 %r18, 0, 0;\n"
    "add.cc.u32 %r30, %r1, %r5;\naddc.cc.u32 %r30, %r2, %r6;\naddc.cc.u32 %r30, %r3, %r7;\n"
    "addc.cc.u32 %r30, %r4, %r8;\nsubc.u32 %r19, 0, 0;\n"
    "mov.b64 %rd7, {%r1, %r2};\nmov.b64 %rd8, {%r3, %r4};\nmov.b64 %rd9, {%r5, %r6};\n"
    "mov.b64 %rd10, {%r7, %r8};\n"
    "add.cc.s64 %rd11, %rd7, %rd9;\naddc.s64 %rd12, %rd8, %rd10;\n"
    "sub.cc.s64 %rd13, %rd7, %rd9;\nsubc.s64 %rd14, %rd8, %rd10;\n"
    "mul.lo.u32 %r20, %r1, %r5;\nmul.hi.u32 %r21, %r1, %r5;\nmad.lo.cc.u32 %r21, %r2, %r5, %r21;\n"
    "madc.hi.u32 %r22, %r2, %r5, 0;\nmad.lo.cc.u32 %r21, %r1, %r6, %r21;\n"
    "madc.hi.cc.u32 %r22, %r1, %r6, %r22;\naddc.u32 %r23, 0, 0;\n"
    "mad.lo.cc.u32 %r22, %r2, %r6, %r22;\nmadc.hi.u32 %r23, %r2, %r6, %r23;\n"
    "mul.wide.u32 %rd15, %r0, 112;\nadd.s64 %rd16, %rd3, %rd15;\n"
    "st.global.v4.u32 [%rd16], {%r10, %r11, %r12, %r13};\n"
    "st.global.v4.u32 [%rd16+16], {%r14, %r15, %r16, %r17};\n"
    "st.global.v2.u32 [%rd16+32], {%r18, %r19};\n"
    "st.global.v2.u64 [%rd16+48], {%rd11, %rd12};\nst.global.v2.u64 [%rd16+64], {%rd13, %rd14};\n"
    "st.global.v4.u32 [%rd16+80], {%r20, %r21, %r22, %r23};\n"
    "ret;\n}\n";

START_TEST(chains_kernel)
{
    enum { T = 256 };
    static u128 x[T], y[T];
    static uint32_t out[T][28];
    for (unsigned i = 0; i < T; i++) x[i] = rnd128(i), y[i] = rnd128(i * 3 + 11);
    for (unsigned checks = 0; checks < 2; checks++) {
        ck_assert_int_eq(hx_load_text(chain_kernel, "chains", checks ? PTXE_CHECK_ALL : 0),
                         PTXE_SUCCESS);
        hx_function("chains");
        ptxeDevptr dx = dev(x, sizeof x), dy = dev(y, sizeof y), dout = dev(NULL, sizeof out);
        void *a[] = { &dx, &dy, &dout };
        run(1, T, a);
        get(out, dout, sizeof out);
        for (unsigned i = 0; i < T; i++) {
            u128 s, d, s64, d64, p;
            memcpy(&s, &out[i][0], 16), memcpy(&d, &out[i][4], 16);
            memcpy(&s64, &out[i][12], 16), memcpy(&d64, &out[i][16], 16);
            memcpy(&p, &out[i][20], 16);
            ck_assert_msg(s == x[i] + y[i] && s64 == x[i] + y[i], "thread %u: sum", i);
            ck_assert_msg(d == x[i] - y[i] && d64 == x[i] - y[i], "thread %u: difference", i);
            ck_assert_msg(out[i][8] == (x[i] >= y[i]), "thread %u: x >= y via addc", i);
            ck_assert_msg(out[i][9] == (x[i] + y[i] < x[i] ? 0 : 0xffffffffu),
                          "thread %u: carry via subc", i);
            ck_assert_msg(p == (u128)(uint64_t)x[i] * (uint64_t)y[i], "thread %u: product", i);
        }
        done();
    }
}
END_TEST

static void add_tests(TCase *tc)
{
    tcase_add_test(tc, each_instruction);
    tcase_add_test(tc, chains_128);
    tcase_add_test(tc, isa_multiply_example);
    tcase_add_test(tc, chains_kernel);
}

#include "check_main.h"
