/* tests/test_values.c — values carry the width and signedness of their instruction's type
 * (ISA §5.2.2, §9.7.8.8 ld, §9.7.8.11 st, §9.7.12.5 atom) through registers, memory and
 * conditions; cluster placement follows §8.5; .mmio is a strong .relaxed.sys access (§8.4.1);
 * half-precision atomics compute as the executor does.  Each test is a litmus test whose
 * verdict the ISA text fixes, run through the whole verify path. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "frontend/litmus.h"
#include "check/verify.h"
#include "tests/litmus_run.h"
#include "tests/check_main.h"

static verify_result run(const char *text, model_kind m)
{
    verify_opts o;
    verify_opts_default(&o);
    o.model = m;
    return verify_text(text, &o);
}

static int validated(const char *text)
{
    verify_result r = run(text, MODEL_PTX);
    int v = r.validated;
    verify_result_free(&r);
    return v;
}

/* the value of observable `name` in the only reachable state */
static long long only_value(const char *text, const char *name)
{
    verify_result r = run(text, MODEL_PTX);
    ck_assert_int_eq(r.nstates, 1);
    long long v = 0;
    int found = 0;
    for (int i = 0; i < r.nobs; i++)
        if (!strcmp(r.obs[i].name, name)) { v = r.states[i]; found = 1; }
    ck_assert_msg(found, "no observable %s", name);
    verify_result_free(&r);
    return v;
}

START_TEST(store_keeps_the_low_bytes)
{
    /* §9.7.8.11: "the lower n bits corresponding to the instruction-type width are stored" */
    ck_assert(
        validated("PTX st8\n{ x=7; P0:r1=256; }\n P0@cta 0,gpu 0 ;\n st.global.u8 [x], %r1 ;\n"
                  "forall (x == 0)\n"));
    /* the issue's MP over .u8: the synchronized read sees 0, the outcome is reachable */
    ck_assert(validated("PTX MP-u8\n{ x=7; y=0; P0:r1=256; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
                        " st.global.u8 [x], %r1 | ld.global.acquire.gpu.u32 %r0, [y] ;\n"
                        " st.global.release.gpu.u32 [y], 1 | ld.global.u8 %r2, [x] ;\n"
                        "exists (P1:%r0 == 1 /\\ P1:%r2 == 0)\n"));
    ck_assert(
        !validated("PTX MP-u8-stale\n{ x=7; y=0; P0:r1=256; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
                   " st.global.u8 [x], %r1 | ld.global.acquire.gpu.u32 %r0, [y] ;\n"
                   " st.global.release.gpu.u32 [y], 1 | ld.global.u8 %r2, [x] ;\n"
                   "exists (P1:%r0 == 1 /\\ P1:%r2 == 7)\n"));
}
END_TEST

START_TEST(loads_extend_by_type)
{
    /* §9.7.8.8: ld.u8 zero-extends, ld.s8 sign-extends */
    ck_assert_int_eq(
        only_value("PTX ldu8\n{ x=511; }\n P0@cta 0,gpu 0 ;\n ld.global.u8 %r0, [x] ;\n"
                   "exists (P0:r0 == 0)\n",
                   "P0:r0"),
        255);
    ck_assert_int_eq(
        only_value("PTX lds8\n{ .u8 x=255; }\n P0@cta 0,gpu 0 ;\n ld.global.s8 %r0, [x] ;\n"
                   "exists (P0:r0 == 0)\n",
                   "P0:r0"),
        -1);
    /* a value written by atom.min.s32 -3 reads back as -3 with ld.s32 */
    ck_assert(
        validated("PTX min\n{ .s32 x=5; }\n P0@cta 0,gpu 0 ;\n atom.global.min.s32 %r0, [x], -3 ;\n"
                  " ld.global.s32 %r1, [x] ;\nforall (P0:r1 == -3 /\\ x == -3 /\\ P0:r0 == 5)\n"));
}
END_TEST

START_TEST(conditions_read_values_by_type)
{
    /* `x == -3` holds for an .s32 location written by atom.min.s32 and by st.s32 alike, and for
       a .u32 location holding 0xfffffffd (the constant is read as the location's type) */
    const char *a = "PTX a\n{ .s32 x=0; }\n P0@cta 0,gpu 0 ;\n atom.global.min.s32 %r0, [x], -3 "
                    ";\nforall (x == -3)\n";
    const char *b =
        "PTX b\n{ .s32 x=0; }\n P0@cta 0,gpu 0 ;\n st.global.s32 [x], -3 ;\nforall (x == -3)\n";
    const char *c = "PTX c\n{ .u32 x=0; }\n P0@cta 0,gpu 0 ;\n st.global.u32 [x], -3 ;\nforall (x "
                    "== -3 /\\ x == 4294967293)\n";
    ck_assert(validated(a));
    ck_assert(validated(b));
    ck_assert(validated(c));
    ck_assert(validated("PTX lt\n{ .s32 x=0; }\n P0@cta 0,gpu 0 ;\n st.global.s32 [x], -3 "
                        ";\nforall (x < 0 /\\ x >= -3 /\\ x != 1)\n"));
    ck_assert(validated(
        "PTX ult\n{ .u32 x=0; }\n P0@cta 0,gpu 0 ;\n st.global.u32 [x], -3 ;\nforall (x > 0)\n"));
}
END_TEST

START_TEST(signed_overflow_wraps_at_the_type_width)
{
    /* §9.7.1.1 add.s32 wraps: 0x7fffffff + 1 is -2147483648 in an .s32 register */
    ck_assert_int_eq(
        only_value("PTX ovf\n{ P0:r0=2147483647; }\n P0@cta 0,gpu 0 ;\n add.s32 %r1, %r0, 1 ;\n"
                   "exists (P0:r1 == 0)\n",
                   "P0:r1"),
        -2147483648LL);
    ck_assert_int_eq(
        only_value("PTX ovfu\n{ P0:r0=4294967295; }\n P0@cta 0,gpu 0 ;\n add.u32 %r1, %r0, 1 ;\n"
                   "exists (P0:r1 == 0)\n",
                   "P0:r1"),
        0);
    /* mul.wide.s32 gives a 64-bit product */
    ck_assert_int_eq(
        only_value(
            "PTX wide\n{ P0:r0=-65536; }\n P0@cta 0,gpu 0 ;\n mul.wide.s32 %rd1, %r0, 65536 ;\n"
            "exists (P0:rd1 == 0)\n",
            "P0:rd1"),
        -4294967296LL);
}
END_TEST

START_TEST(half_precision_atomics)
{
    /* §9.7.12.5 atom.add.noftz.f16: 1.0 + 1.0 = 2.0 (0x3c00 + 0x3c00 = 0x4000), old value returned
     */
    ck_assert(validated("PTX f16\n{ .u16 x=15360; }\n P0@cta 0,gpu 0 ;\n atom.global.add.noftz.f16 "
                        "%h0, [x], 15360 ;\n"
                        "forall (x == 16384 /\\ P0:h0 == 15360)\n"));
    /* bf16: 1.0 (0x3f80) + 1.0 = 2.0 (0x4000) */
    ck_assert(validated(
        "PTX bf16\n{ .u16 x=16256; }\n P0@cta 0,gpu 0 ;\n red.global.add.noftz.bf16 [x], 16256 ;\n"
        "forall (x == 16384)\n"));
    /* f16x2: each half separately: (1.0, 2.0) + (1.0, 1.0) = (2.0, 3.0) */
    ck_assert(validated("PTX f16x2\n{ .u32 x=0x40003c00; }\n P0@cta 0,gpu 0 ;\n "
                        "atom.global.add.noftz.f16x2 %r0, [x], 0x3c003c00 ;\n"
                        "forall (x == 0x42004000)\n"));
    /* §8.2.5: a packed operation is two operations on the halves, in an unspecified order: a
       release f16x2 reduction does not order its low half before its high half */
    ck_assert(validated(
        "PTX f16x2rel\n{ .u32 x=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
        " red.global.release.gpu.add.noftz.f16x2 [x], 0x3c003c00 | ld.global.acquire.gpu.u16 %h0, "
        "[x+2] ;\n"
        " | ld.global.relaxed.gpu.u16 %h1, [x] ;\nexists (P1:h0 == 0x3c00 /\\ P1:h1 == 0)\n"));
    /* ... and each half is atomic: two racing f16x2 adds give (2.0, 2.0) + ... = (3.0, 3.0) */
    ck_assert(
        validated("PTX f16x2race\n{ .u32 x=0x3c003c00; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
                  " atom.global.add.noftz.f16x2 %r0, [x], 0x3c003c00 | atom.global.add.noftz.f16x2 "
                  "%r1, [x], 0x3c003c00 ;\n"
                  "forall (x == 0x42004200 /\\ (P0:r0 == 0x3c003c00 \\/ P0:r0 == 0x40004000 \\/ "
                  "P0:r0 == 0x3c004000 \\/ P0:r0 == 0x40003c00))\n"));
    /* two racing f16 adds are atomic: 1.0 + 1.0 + 1.0 = 3.0 (0x4200) */
    ck_assert(validated("PTX f16race\n{ .u16 x=15360; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
                        " red.global.add.noftz.f16 [x], 15360 | red.global.add.noftz.f16 [x], "
                        "15360 ;\nforall (x == 0x4200)\n"));
}
END_TEST

#define MPC(sc, p0, p1)                                                                            \
    "PTX MPc\n{ x=0; y=0; }\n P0@" p0 " | P1@" p1 " ;\n st.weak x, 1 | ld.acquire." sc             \
    " r0, y ;\n"                                                                                   \
    " st.release." sc " y, 1 | ld.weak r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n"

START_TEST(cluster_placement_is_completed)
{
    /* §8.5: two threads of one CTA are in one cluster, even when only one names it */
#define P0 "cta 0,cluster 0,gpu 0"
#define P1 "cta 0,gpu 0"
    ck_assert(!validated(MPC("cta", P0, P1)));
    ck_assert(!validated(MPC("cluster", P0, P1)));
    ck_assert(!validated(MPC("gpu", P0, P1)));
    ck_assert(!validated(MPC("cluster", P1, P0)));   /* the other order too */
    /* a CTA alone in its cluster does not share .cluster scope with another CTA */
    ck_assert(validated(MPC("cluster", "cta 0,gpu 0", "cta 1,gpu 0")));
    ck_assert(!validated(MPC("cluster", "cta 0,cluster 3,gpu 0", "cta 1,cluster 3,gpu 0")));
}
END_TEST

START_TEST(mmio_is_strong_relaxed_sys)
{
    /* §8.4.1 mmio: a strong operation; §9.7.8.8: only .relaxed.sys.  MP across two GPUs with
       fence.sys: the mmio accesses are morally strong, the fences synchronize. */
    const char *mp = "PTX MPmmio\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 1 ;\n"
                     " st.global.u32 [x], 1 | ld.global.mmio.relaxed.sys.u32 %r0, [y] ;\n"
                     " fence.sys | fence.sys ;\n"
                     " st.global.mmio.relaxed.sys.u32 [y], 1 | ld.global.u32 %r1, [x] ;\n"
                     "exists (P1:%r0 == 1 /\\ P1:%r1 == 0)\n";
    ck_assert(!validated(mp));
}
END_TEST

/* the flags of a test's run */
static int flagged(const char *text, const char *flag)
{
    verify_result r = run(text, MODEL_PTX);
    int f = 0;
    for (int i = 0; i < r.nflags; i++)
        if (!strcmp(r.flags[i], flag)) f = 1;
    verify_result_free(&r);
    return f;
}

START_TEST(mixed_size_accesses_overlap_per_byte)
{
    /* §8.2: accesses overlap byte by byte: st.u16 over st.u32 replaces the low two bytes only */
    ck_assert_int_eq(
        only_value("PTX w16\n{ x=0; }\n P0@cta 0,gpu 0 ;\n st.global.u32 [x], 65537 ;\n"
                   " st.global.u16 [x], 2 ;\n ld.global.u32 %r2, [x] ;\nexists (P0:r2 == 0)\n",
                   "P0:r2"),
        65538);
    /* a partial overlap is not morally strong: concurrent stores of two sizes are a mixed-size
       data race (§8.7.2), flagged; each order of the two is a final state */
    const char *race =
        "PTX ms\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
        " st.global.relaxed.gpu.u16 [x], 1 | st.global.relaxed.gpu.u32 [x], 65536 ;\n"
        "exists (x == 65537)\n";
    ck_assert(validated(race));
    ck_assert(flagged(race, "mixed-size-data-race"));
    ck_assert(
        !flagged("PTX us\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
                 " st.global.relaxed.gpu.u32 [x], 1 | st.global.relaxed.gpu.u32 [x], 65536 ;\n"
                 "exists (x == 1)\n",
                 "mixed-size-data-race"));
    /* MP with a narrower synchronized read: it sees the low half of the released value */
    ck_assert(
        !validated("PTX mp16\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
                   " st.global.relaxed.gpu.u32 [x], 65537 | ld.global.acquire.gpu.u32 %r0, [y] ;\n"
                   " st.global.release.gpu.u32 [y], 1 | ld.global.relaxed.gpu.u16 %r2, [x] ;\n"
                   "exists (P1:r0 == 1 /\\ P1:r2 == 0)\n"));
}
END_TEST

START_TEST(mixed_size_atomics_do_not_interleave)
{
    /* §8.7.2 "Atomicity of mixed-size RMW operations": a 32-bit add and a 16-bit CAS on its low
       half, both .gpu in one GPU: one is performed completely before the other, so both cannot
       read the initial 0 */
    const char *gpu = "PTX amix\n{ .u32 x=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
                      " atom.global.add.u32 %r0, [x], 1 | atom.global.cas.b16 %h1, [x], 0, 5 ;\n"
                      "exists (P0:r0 == 0 /\\ P1:h1 == 0)\n";
    ck_assert(!validated(gpu));
    /* the final value is one of the two orders: 1 (add first, the CAS fails) or 6 */
    ck_assert(validated("PTX amix2\n{ .u32 x=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
                        " atom.global.add.u32 %r0, [x], 1 | atom.global.cas.b16 %h1, [x], 0, 5 ;\n"
                        "forall (x == 1 \\/ x == 6)\n"));
    /* .cta scopes in two CTAs do not include each other: the property does not hold */
    ck_assert(validated(
        "PTX amixcta\n{ .u32 x=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
        " atom.global.cta.add.u32 %r0, [x], 1 | atom.global.cta.cas.b16 %h1, [x], 0, 5 ;\n"
        "exists (P0:r0 == 0 /\\ P1:h1 == 0)\n"));
}
END_TEST

START_TEST(float_constants_by_their_bits)
{
    /* §4.5.1: 0fXXXXXXXX is an .f32 by its bits, 0d... an .f64; 1.0f + 1.0f = 2.0f (0x40000000) */
    ck_assert(validated("PTX f32\n{ x=0; }\n P0@cta 0,gpu 0 ;\n st.global.f32 [x], 0f3F800000 ;\n"
                        " atom.global.add.f32 %f1, [x], 0f3F800000 ;\n ld.global.u32 %r1, [x] ;\n"
                        "forall (P0:r1 == 0x40000000 /\\ P0:f1 == 0f3F800000)\n"));
    ck_assert(validated(
        "PTX f64\n{ .u64 x=0; }\n P0@cta 0,gpu 0 ;\n st.global.f64 [x], 0d3FF0000000000000 ;\n"
        "forall (x == 0x3FF0000000000000)\n"));
    ck_assert(validated(
        "PTX bin\n{ x=0; }\n P0@cta 0,gpu 0 ;\n st.global.u32 [x], 0b101 ;\nforall (x == 5)\n"));
}
END_TEST

START_TEST(vector_accesses_are_unordered_scalar_accesses)
{
    /* §8.2.4: .v2/.v4 accesses are scalar accesses of the element type at consecutive offsets */
    ck_assert_int_eq(
        only_value("PTX v16\n{ x=0; }\n P0@cta 0,gpu 0 ;\n st.global.v2.u16 [x], {3, 7} ;\n"
                   " ld.global.u32 %r0, [x] ;\nexists (P0:r0 == 0)\n",
                   "P0:r0"),
        0x70003);
    ck_assert(validated(
        "PTX v4\n{ .u64 x=0; .u64 y=0; }\n P0@cta 0,gpu 0 ;\n st.global.v2.u32 [x], {5, 6} ;\n"
        " ld.global.v4.u16 {%h0, %h1, %h2, %h3}, [x] ;\nforall (P0:h0 == 5 /\\ P0:h1 == 0 /\\ "
        "P0:h2 == 6 /\\ P0:h3 == 0)\n"));
    /* an untyped location written by a vector store is read as one value of its 8 bytes */
    ck_assert(validated("PTX vloc\n{ x=0; }\n P0@cta 0,gpu 0 ;\n st.global.v2.u32 [x], {1, 2} ;\n"
                        "forall (x == 0x200000001)\n"));
    /* ... "executed in an unspecified order": a release vector store orders the instructions
       before it, not one of its elements before another */
    ck_assert(validated(
        "PTX vrel\n{ .u64 x=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
        " st.global.release.gpu.v2.u32 [x], {1, 1} | ld.global.acquire.gpu.u32 %r0, [x+4] ;\n"
        " | ld.global.relaxed.gpu.u32 %r1, [x] ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n"));
    /* each element is a release: MP through a vector flag is forbidden */
    ck_assert(
        !validated("PTX vmp\n{ x=0; .u64 y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
                   " st.global.relaxed.gpu.u32 [x], 1 | ld.global.acquire.gpu.u32 %r0, [y] ;\n"
                   " st.global.release.gpu.v2.u32 [y], {1, 1} | ld.global.u32 %r1, [x] ;\n"
                   "exists (P1:r0 == 1 /\\ P1:r1 == 0)\n"));
    /* a vector load may tear against a racing vector store (the elements are separate accesses) */
    ck_assert(validated("PTX vtear\n{ .u64 x=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
                        " st.global.relaxed.gpu.v2.u32 [x], {1, 1} | ld.global.relaxed.gpu.v2.u32 "
                        "{%r0, %r1}, [x] ;\n"
                        "exists (P1:r0 == 1 /\\ P1:r1 == 0)\n"));
}
END_TEST

static void add_tests(TCase *tc)
{
    tcase_add_test(tc, store_keeps_the_low_bytes);
    tcase_add_test(tc, loads_extend_by_type);
    tcase_add_test(tc, conditions_read_values_by_type);
    tcase_add_test(tc, signed_overflow_wraps_at_the_type_width);
    tcase_add_test(tc, half_precision_atomics);
    tcase_add_test(tc, cluster_placement_is_completed);
    tcase_add_test(tc, mmio_is_strong_relaxed_sys);
    tcase_add_test(tc, mixed_size_accesses_overlap_per_byte);
    tcase_add_test(tc, mixed_size_atomics_do_not_interleave);
    tcase_add_test(tc, float_constants_by_their_bits);
    tcase_add_test(tc, vector_accesses_are_unordered_scalar_accesses);
}
