/* tests/test_grammar.c — every production of the de facto PTX litmus grammar
 * (../shared/spec/dat3m-litmus-grammar/LitmusPTX.g4 and LitmusAssertions.g4), one test each,
 * with the meaning Dat3M gives it, checked through the whole verify path: a test asserts the
 * reachable final values or the verdict that the production's meaning fixes. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "frontend/litmus.h"
#include "check/verify.h"
#include "tests/litmus_run.h"
#include "tests/check_main.h"

#define TWO " P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n"
#define ONE " P0@cta 0,gpu 0 ;\n"

static verify_result run_model(const char *text, model_kind m)
{
    verify_opts o;
    verify_opts_default(&o);
    o.model = m;
    o.states = -1;
    return verify_text(text, &o);
}

static int validated_in(const char *text, model_kind m)
{
    verify_result r = run_model(text, m);
    int v = r.validated;
    verify_result_free(&r);
    return v;
}
static int validated(const char *text) { return validated_in(text, MODEL_PTX75); }

static int nstates(const char *text)
{
    verify_result r = run_model(text, MODEL_PTX75);
    int n = r.nstates;
    verify_result_free(&r);
    return n;
}

static void parse_fails(const char *text, const char *want)
{
    char err[1024];
    lit_test *t = lit_parse("g.litmus", text, err, sizeof err);
    ck_assert_msg(t == NULL, "parse unexpectedly succeeded (wanted %s)", want);
    ck_assert_msg(strstr(err, want) != NULL, "error '%s' lacks '%s'", err, want);
}

/* ---------- variableDeclaratorList ---------- */

START_TEST(declarators)
{
    /* variableDeclaratorLocation, variableDeclaratorRegister with both threadId forms */
    ck_assert(validated("PTX d1\n{ x=5; P0:r0=3; 1:r1=4; }\n" TWO
                        " ld.weak r2, x | add r2, r1, 0 ;\n"
                        "forall (P0:r2 == 5 /\\ P0:r0 == 3 /\\ P1:r2 == 4 /\\ 1:r1 == 4)\n"));
    /* variableDeclaratorRegisterLocation, with and without '&': the register holds x's address */
    ck_assert(validated("PTX d2\n{ x=0; P0:r1=&x; P0:r2=x; }\n" ONE " st.global.u32 [%r1], 7 ;\n"
                        " ld.global.u32 %r3, [%r2] ;\nforall (x == 7 /\\ P0:r3 == 7)\n"));
    /* variableDeclaratorLocationLocation: y holds the address of x */
    ck_assert(validated(
        "PTX d3\n{ x=9; y=&x; z=x; }\n" ONE " ld.weak r0, y ;\n ld.global.u32 %r1, [%r0] ;\n"
        " ld.weak r2, z ;\n ld.global.u32 %r3, [%r2] ;\nforall (P0:r1 == 9 /\\ P0:r3 == 9)\n"));
    /* variableDeclaratorProxy, each proxyType: the alias reads the aliased memory */
    ck_assert(validated(
        "PTX d4\n{ x=4; t @ texture aliases x; s @ surface aliases x; c @ constant aliases x; "
        "g @ generic aliases x; }\n" ONE
        " tld.weak r0, t ;\n suld.weak r1, s ;\n cold.weak r2, c ;\n"
        " ld.weak r3, g ;\nforall (P0:r0 == 4 /\\ P0:r1 == 4 /\\ P0:r2 == 4 /\\ P0:r3 == 4)\n"));
    /* an empty declarator list and a trailing ';' after '}' */
    ck_assert(validated("PTX d5\n{ };\n" ONE " ld r0, 1 ;\nforall (P0:r0 == 1)\n"));
}
END_TEST

START_TEST(locations_list)
{
    /* variableList: locations [...] adds observables (x and P0:r0 beside the condition's) */
    verify_result r = run_model("PTX loc\n{ x=0; y=0; }\n" TWO " st.weak x, 1 | ld.weak r0, x ;\n"
                                "locations [x; P1:r0; y;]\nexists (P1:r0 == 0)\n", MODEL_PTX75);
    ck_assert_int_eq(r.nobs, 3);
    ck_assert_int_eq(r.nstates, 2);
    verify_result_free(&r);
}
END_TEST

/* ---------- instructions ---------- */

START_TEST(store_instruction)
{
    /* storeInstruction: store.mo(.scope)? location, value; store is st or sust */
    ck_assert(validated(
        "PTX st\n{ x=0; y=0; s @ surface aliases y; P0:r0=6; }\n" ONE
        " st.weak x, 1 ;\n st.relaxed.gpu x, 2 ;\n st.release.sys x, r0 ;\n sust.weak s, 3 ;\n"
        "forall (x == 6 /\\ y == 3)\n"));
}
END_TEST

START_TEST(local_value_and_arithmetic)
{
    /* localValue (ld r, value as a move, also through tld), localAdd/Sub/Mul/Div on registers
       and constants; Div is signed */
    ck_assert(validated(
        "PTX alu\n{ }\n" ONE " ld r0, 7 ;\n ld r1, r0 ;\n add r2, r1, 3 ;\n sub r3, 2, r2 ;\n"
        " mul r4, r3, -2 ;\n div r5, r4, 3 ;\n div r6, r3, 4 ;\n tld r7, 11 ;\n"
        "forall (P0:r1 == 7 /\\ P0:r2 == 10 /\\ P0:r3 == -8 /\\ P0:r4 == 16 /\\ P0:r5 == 5 /\\ "
        "P0:r6 == -2 /\\ P0:r7 == 11)\n"));
}
END_TEST

START_TEST(load_location)
{
    /* loadLocation: load.mo(.scope)? register, location with each load (ld tld suld cold) */
    ck_assert(validated(
        "PTX ld\n{ x=3; t @ texture aliases x; }\n" ONE " ld.weak r0, x ;\n"
        " ld.relaxed.cta r1, x ;\n ld.acquire.sys r2, x ;\n ld.relaxed r3, x ;\n tld.weak r4, t ;\n"
        "forall (P0:r0 == 3 /\\ P0:r1 == 3 /\\ P0:r2 == 3 /\\ P0:r3 == 3 /\\ P0:r4 == 3)\n"));
}
END_TEST

START_TEST(fence_physic)
{
    /* fencePhysic: fence.mo.scope.  fence.sc forbids SB; fence.acq_rel does not (it orders no
       store before a later load); Dat3M's fence.relaxed / fence.weak order nothing */
    const char *sb = "PTX SB\n{ x=0; y=0; }\n" TWO " st.relaxed.gpu x, 1 | st.relaxed.gpu y, 1 ;\n"
                     " %s | %s ;\n ld.relaxed.gpu r0, y | ld.relaxed.gpu r1, x ;\nexists (P0:r0 == "
                     "0 /\\ P1:r1 == 0)\n";
    const char *fences[][2] = { { "fence.sc.gpu", "0" },
                                { "fence.acq_rel.gpu", "1" },
                                { "fence.relaxed.gpu", "1" },
                                { "fence.weak.sys", "1" },
                                { "fence.sc.cta", "0" } };
    for (size_t i = 0; i < sizeof fences / sizeof fences[0]; i++) {
        char b[512];
        snprintf(b, sizeof b, sb, fences[i][0], fences[i][0]);
        ck_assert_msg(validated(b) == atoi(fences[i][1]), "%s", fences[i][0]);
    }
}
END_TEST

START_TEST(fence_proxy_and_alias)
{
    /* fenceProxy: fence.proxy.proxyType (generic, constant, texture, surface); fenceAlias:
       fence.proxy.alias.  A texture read of a location written through the generic proxy in
       the same thread needs a proxy fence (ptx-v7.5, §8.6) */
    const char *t =
        "PTX px\n{ x=0; t @ texture aliases x; }\n" ONE " st.weak x, 1 ;\n%s tld.weak r0, t ;\n"
        "exists (P0:r0 == 0)\n";
    char b[512];
    snprintf(b, sizeof b, t, "");
    ck_assert(validated(b));
    snprintf(b, sizeof b, t, " fence.proxy.texture ;\n");
    ck_assert(!validated(b));
    /* every proxyType and the alias fence parse */
    ck_assert(validated(
        "PTX pk\n{ x=0; }\n" ONE " fence.proxy.generic ;\n fence.proxy.constant ;\n"
        " fence.proxy.texture ;\n fence.proxy.surface ;\n fence.proxy.alias ;\nforall (x == 0)\n"));
    /* the alias fence orders a generic-alias pair (the public suite's proxy tests cover it) */
    ck_assert(!validated("PTX al\n{ x=0; g @ generic aliases x; }\n" ONE
                         " st.weak x, 1 ;\n fence.proxy.alias ;\n"
                         " ld.weak r0, g ;\nexists (P0:r0 == 0)\n"));
}
END_TEST

START_TEST(atom_operations)
{
    /* atomOp with every operation, atomCAS, atomExchange, and suatom */
    struct { const char *op; int x0, v, want; } c[] = {
        { "add", 6, 3, 9 }, { "sub", 6, 3, 3 }, { "mul", 6, 3, 18 }, { "div", 6, 3, 2 },
        { "and", 6, 3, 2 }, { "or", 6, 3, 7 }, { "xor", 6, 3, 5 }, { "div", -7, 2, -3 } };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        char b[512];
        snprintf(b, sizeof b,
                 "PTX a\n{ x=%d; }\n" ONE
                 " atom.relaxed.gpu.%s r0, x, %d ;\nforall (x == %d /\\ P0:r0 == %d)\n",
                 c[i].x0, c[i].op, c[i].v, c[i].want, c[i].x0);
        ck_assert_msg(validated(b), "atom %s", c[i].op);
        snprintf(b, sizeof b,
                 "PTX r\n{ x=%d; }\n" ONE " red.relaxed.gpu.%s x, %d ;\nforall (x == %d)\n",
                 c[i].x0, c[i].op, c[i].v, c[i].want);
        ck_assert_msg(validated(b), "red %s", c[i].op);
    }
    ck_assert(validated("PTX cas\n{ x=1; }\n" ONE
                        " atom.acquire.gpu.cas r0, x, 1, 5 ;\n atom.release.sys.cas r1, x, 1, 9 ;\n"
                        "forall (x == 5 /\\ P0:r0 == 1 /\\ P0:r1 == 5)\n"));
    ck_assert(validated("PTX exch\n{ x=1; }\n" ONE
                        " atom.acq_rel.cta.exch r0, x, 4 ;\nforall (x == 4 /\\ P0:r0 == 1)\n"));
    ck_assert(validated("PTX su\n{ x=1; s @ surface aliases x; }\n" ONE
                        " suatom.relaxed.gpu.add r0, s, 4 ;\n"
                        " sured.relaxed.gpu.or s, 8 ;\nforall (x == 13 /\\ P0:r0 == 1)\n"));
}
END_TEST

START_TEST(branches_and_labels)
{
    /* branchCond with each comparison, taken and not taken; jump; label */
    struct { const char *b; int a, c, taken;
    } k[] = { { "beq", 1, 1, 1 },  { "beq", 1, 2, 0 }, { "bne", 1, 2, 1 }, { "bne", 2, 2, 0 },
              { "blt", -1, 0, 1 }, { "blt", 0, 0, 0 }, { "bgt", 3, 2, 1 }, { "bgt", 2, 2, 0 },
              { "ble", 2, 2, 1 },  { "ble", 3, 2, 0 }, { "bge", 2, 2, 1 }, { "bge", 1, 2, 0 } };
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
        char b[512];
        snprintf(b, sizeof b,
                 "PTX br\n{ P0:r0=%d; }\n" ONE " %s r0, %d, LC01 ;\n ld r1, 1 ;\n goto LC02 ;\n"
                 " LC01: ;\n ld r1, 2 ;\n LC02: ;\nforall (P0:r1 == %d)\n",
                 k[i].a, k[i].b, k[i].c, k[i].taken ? 2 : 1);
        ck_assert_msg(validated(b), "%s %d, %d", k[i].b, k[i].a, k[i].c);
    }
    /* a backward branch: the classic spin wait until a flag is seen */
    ck_assert(validated("PTX spin\n{ x=0; f=0; }\n" TWO
                        " st.weak x, 1 | LC00: ;\n st.release.gpu f, 1 | ld.acquire.gpu r0, f ;\n"
                        " | beq r0, 0, LC00 ;\n | ld.weak r1, x ;\nforall (P1:r1 == 1)\n"));
}
END_TEST

START_TEST(barrier_forms)
{
    /* barrier: bar.cta.sync|arrive INSTANCE (, id (, quorum)?)? with id and quorum constants or
       registers.  The synchronized MP: P1 reads x after both passed the barrier */
    const char *mp = "PTX bar\n{ x=0; P0:r5=1; P1:r5=1; P0:r6=2; P1:r6=2; }\n" TWO
                     " st.weak x, 1 | %s ;\n %s | ld.weak r0, x ;\nexists (P1:r0 == 0)\n";
    const char *forms[] = { "bar.cta.sync 0", "bar.cta.sync 1, 1", "bar.cta.sync 1, 1, 2",
                            "bar.cta.sync 1, r5, r6" };
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        char b[512];
        snprintf(b, sizeof b, mp, forms[i], forms[i]);
        ck_assert_msg(!validated(b), "%s", forms[i]);
    }
    /* bar.cta.arrive: a writer that arrives and a reader that syncs at one instance (INST 1,
       Dat3M's first operand) synchronize */
    ck_assert(!validated("PTX arr\n{ x=0; }\n" TWO " st.weak x, 1 | bar.cta.sync 1, 1, 2 ;\n"
                         " bar.cta.arrive 1, 1, 2 | ld.weak r0, x ;\nexists (P1:r0 == 0)\n"));
    /* a reader that only arrives is not ordered after the writer's store */
    ck_assert(validated("PTX arr2\n{ x=0; }\n" TWO " st.weak x, 1 | bar.cta.arrive 0, 1, 2 ;\n"
                        " bar.cta.sync 0, 1, 2 | ld.weak r0, x ;\nexists (P1:r0 == 0)\n"));
}
END_TEST

static int reachable(const char *text)
{
    verify_result r = run_model(text, MODEL_PTX);
    int n = r.nstates;
    verify_result_free(&r);
    return n;
}

START_TEST(barrier_counts)
{
    /* §9.7.12.1: a barrier instance completes when its expected number of threads arrived; a
       thread that waits on one that never completes has no final state */
    const char *mp = "PTX q\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 | P2@cta 0,gpu 0 ;\n"
                     " st.weak x, 1 | %s | %s ;\n %s | ld.weak r0, x | ;\nexists (P1:r0 == 0)\n";
    char b[512];
    /* quorum 2 reached by P0 and P1: synchronized */
    snprintf(b, sizeof b, mp, "bar.cta.sync 0, 1, 2", "", "bar.cta.sync 0, 1, 2");
    ck_assert(!validated_in(b, MODEL_PTX));
    /* quorum 1: each completes its own instance, nothing is ordered */
    snprintf(b, sizeof b, mp, "bar.cta.sync 0, 1, 1", "", "bar.cta.sync 0, 1, 1");
    ck_assert(validated_in(b, MODEL_PTX));
    /* quorum 2, three threads wait: one phase of two, the third waits forever */
    snprintf(b, sizeof b, mp, "bar.cta.sync 0, 1, 2", "bar.cta.sync 0, 1, 2",
             "bar.cta.sync 0, 1, 2");
    ck_assert_int_eq(reachable(b), 0);
    /* quorum 3 with an arrive: the writer arrives, two wait; the reader is ordered after it */
    snprintf(b, sizeof b, mp, "bar.cta.sync 0, 1, 3", "bar.cta.sync 0, 1, 3",
             "bar.cta.arrive 0, 1, 3");
    ck_assert(!validated_in(b, MODEL_PTX));
    /* the id and the count in registers */
    snprintf(b, sizeof b,
             "PTX r\n{ x=0; P0:r5=3; P1:r5=3; P0:r6=2; P1:r6=2; }\n" TWO
             " st.weak x, 1 | bar.cta.sync 0, r5, r6 ;\n bar.cta.sync 0, r5, r6 | ld.weak r0, x "
             ";\nexists (P1:r0 == 0)\n");
    ck_assert(!validated_in(b, MODEL_PTX));
    /* PTX bar.sync a: all threads of the CTA; P2 never arrives, so nobody passes */
    ck_assert_int_eq(
        reachable("PTX all\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 | P2@cta 0,gpu 0 ;\n"
                  " st.global.u32 [x], 1 | bar.sync 0 | ld.global.u32 %r1, [x] ;\n"
                  " bar.sync 0 | ld.global.u32 %r0, [x] | ;\nexists (P1:r0 == 0)\n"),
        0);
    /* bar.sync a, b with b = 64 threads = the two warps that arrive */
    ck_assert(
        !validated_in("PTX two\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 | P2@cta 0,gpu 0 ;\n"
                      " st.global.u32 [x], 1 | bar.sync 0, 64 | ld.global.u32 %r1, [x] ;\n"
                      " bar.sync 0, 64 | ld.global.u32 %r0, [x] | ;\nexists (P1:r0 == 0)\n",
                      MODEL_PTX));
    /* bar.arrive a, b does not wait; the waiting reader is ordered after the arriving writer */
    ck_assert(!validated_in("PTX arr\n{ x=0; }\n" TWO " st.global.u32 [x], 1 | bar.sync 1, 64 ;\n"
                            " bar.arrive 1, 64 | ld.global.u32 %r0, [x] ;\nexists (P1:r0 == 0)\n",
                            MODEL_PTX));
    /* Dat3M's bar.cta.sync without a quorum: the threads that use the id (public suite) */
    ck_assert(validated_in("PTX d\n{ x=0; }\n" TWO
                           " st.weak x, 1 | ld.weak r0, x ;\n bar.cta.sync 0 | ;\n"
                           "exists (P1:r0 == 0)\n",
                           MODEL_PTX75));
}
END_TEST

/* ---------- LitmusAssertions.g4 ---------- */

START_TEST(assertion_quantifiers)
{
    const char *body = "PTX q\n{ x=0; }\n" TWO " st.weak x, 1 | ld.weak r0, x ;\n";
    char b[512];
    struct { const char *cond; int want;
    } c[] = {
        { "exists (P1:r0 == 1)", 1 },
        { "~exists (P1:r0 == 1)", 0 },
        { "not exists (P1:r0 == 1)", 0 },
        { "~exists (P1:r0 == 2)", 1 },
        { "forall (P1:r0 == 0 \\/ P1:r0 == 1)", 1 },
        { "forall (P1:r0 == 1)", 0 },
        { "exists (P1:r0 == 1);", 1 },
        { "final (P1:r0 == 1) with default: exists;", 1 },
        { "final (P1:r0 == 1) with tso: exists; default: ~exists;", 0 },
        { "final (P1:r0 == 1); with cc: ~exists; optic: exists; default: exists;", 1 },
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        snprintf(b, sizeof b, "%s%s\n", body, c[i].cond);
        ck_assert_msg(validated(b) == c[i].want, "%s", c[i].cond);
    }
    /* no assertionList: does any execution reach a final state */
    snprintf(b, sizeof b, "%s", body);
    ck_assert(validated(b));
}
END_TEST

START_TEST(assertion_filter)
{
    /* assertionFilter: only final states satisfying the filter count (herd's filter) */
    const char *t = "PTX f\n{ x=0; y=0; }\n" TWO
                    " st.weak x, 1 | ld.weak r0, x ;\n st.weak y, 1 | ld.weak r1, y ;\n"
                    "%s\n";
    char b[512];
    snprintf(b, sizeof b, t, "forall (P1:r0 == 1 \\/ P1:r1 == 1)");
    ck_assert(!validated(b));
    snprintf(b, sizeof b, t, "filter (P1:r0 != 0) forall (P1:r0 == 1)");
    ck_assert(validated(b));
    snprintf(b, sizeof b, t, "filter (P1:r0 == 1);\nexists (P1:r1 == 0)");
    ck_assert(validated(b));
    snprintf(b, sizeof b, t, "filter (P1:r0 == 2) exists (true)");
    ck_assert(!validated(b));   /* the filter removes every state */
    snprintf(b, sizeof b, t, "exists (true)");
    ck_assert_int_eq(nstates(b), 1);   /* no observable: one (empty) state */
}
END_TEST

START_TEST(assertion_values_and_operators)
{
    /* assertionValue: x, [x], x[0], P0:r, 0:r, constants (negative, hex); every comparison; '~'
       and 'not'; '/\' binds tighter than '\/'; parentheses */
    const char *t =
        "PTX v\n{ x=0x10; y=-3; }\n" ONE " ld.weak r0, x ;\n ld.weak r1, y ;\nforall (%s)\n";
    const char *ok[] = { "x == 16", "[x] = 0x10", "x[0] == 16", "P0:r0 == x", "0:r1 == -3", "y < 0",
                         "y <= -3", "x > 15", "x >= 16", "x != 15", "~(x = 15)", "not (x = 15)",
                         "not x = 15", "x = 1 \\/ x = 16 /\\ y = -3",
                         "(x = 16 \\/ x = 1) /\\ y = -3", "true", "~false",
                         /* herd's implication, loosest and to the right */
                         "x = 15 => y = 7", "x = 16 => y = -3", "x = 16 /\\ y = 1 => false",
                         "x = 16 => y = 1 => false" };
    const char *bad[] = { "x == 15",      "y > -3",          "x = 1 \\/ x = 16 /\\ y = 3", "false",
                          "not (x = 16)", "x = 16 => y = 7", "true => x = 16 /\\ y = 7" };
    char b[512];
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        snprintf(b, sizeof b, t, ok[i]);
        ck_assert_msg(validated(b), "%s", ok[i]);
    }
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(b, sizeof b, t, bad[i]);
        ck_assert_msg(!validated(b), "%s", bad[i]);
    }
    /* x[N], N > 0: a litmus location holds one value */
    snprintf(b, sizeof b, t, "x[1] == 0");
    parse_fails(b, "expected the index 0");
}
END_TEST

START_TEST(lexer_skips)
{
    /* BlockComment (* ... *) and ExecConfig << ... >> are skipped; anything between the
       language word and '{' (name, doc string) is the header */
    ck_assert(validated("PTX lex \"a doc string\"\n(* comment *)\n<<1,1,32>>\n{ x=1; }\n" ONE
                        " ld.weak r0, x ; (* inline *)\nforall (P0:r0 == 1)\n"));
    ck_assert(validated("ptx lower\n{ x=1; }\n" ONE " ld.weak r0, x ;\nforall (P0:r0 == 1)\n"));
    parse_fails("PTX u\n<<1,1\n{ x=0; }\n", "unterminated launch configuration");
}
END_TEST

static void add_tests(TCase *tc)
{
    tcase_add_test(tc, declarators);
    tcase_add_test(tc, locations_list);
    tcase_add_test(tc, store_instruction);
    tcase_add_test(tc, local_value_and_arithmetic);
    tcase_add_test(tc, load_location);
    tcase_add_test(tc, fence_physic);
    tcase_add_test(tc, fence_proxy_and_alias);
    tcase_add_test(tc, atom_operations);
    tcase_add_test(tc, branches_and_labels);
    tcase_add_test(tc, barrier_forms);
    tcase_add_test(tc, barrier_counts);
    tcase_add_test(tc, assertion_quantifiers);
    tcase_add_test(tc, assertion_filter);
    tcase_add_test(tc, assertion_values_and_operators);
    tcase_add_test(tc, lexer_skips);
}
