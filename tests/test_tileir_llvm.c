/* tests/test_tileir_llvm.c — the Tile IR and LLVM-level front ends (docs/tileir.md,
 * docs/llvm-mapping.md): token order, the PTX meaning of each operation, the lowering tables,
 * the source model, and llvm-check against suites/llvm/expected-check.tsv. */
#include "tests/check_main.h"
#include "frontend/litmus.h"
#include "frontend/tileir.h"
#include "frontend/llvm_litmus.h"
#include "check/llvm_check.h"
#include "check/verify.h"
#include "base/sanitized.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static lit_test *parse(const char *text)
{
    char err[1024] = "";
    lit_test *t = lit_parse("t.litmus", text, err, sizeof err);
    ck_assert_msg(t != NULL, "%s", err);
    return t;
}

static void parse_fails(const char *text, const char *want)
{
    char err[1024] = "";
    lit_test *t = lit_parse("t.litmus", text, err, sizeof err);
    ck_assert_msg(t == NULL, "parsed: %s", text);
    ck_assert_msg(strstr(err, want) != NULL, "message '%s' lacks '%s'", err, want);
    ck_assert_msg(strncmp(err, "t.litmus:", 9) == 0 && strstr(err, ": found ") &&
                      strstr(err, ", expected "),
                  "not file:line:col: found X, expected Y: %s", err);
}

static const char *verdict(const lit_test *t, model_kind m)
{
    verify_opts o;
    verify_opts_default(&o);
    o.model = m;
    verify_result r;
    ck_assert_int_eq(verify_test(t, &o, &r), 0);
    ck_assert_msg(r.ok, "%s", r.error);
    const char *v = r.validated ? "Ok" : "No";
    verify_result_free(&r);
    return v;
}

#define TI_HEAD                                                                                    \
    "TILEIR t\n{ i32 x = 0; i32 y = 0; i32 z = 0; }\nP0@cta 0,gpu 0 {\n  %c1 = constant <i32: 1> " \
    ": tile<i32>\n"
#define ST(t, loc, tok)                                                                            \
    "  %" t " = store_ptr_tko relaxed device %" loc ", %c1" tok                                    \
    " : tile<ptr<i32>>, tile<i32> -> token\n"

/* token order: chains are transitive, join_tokens joins, make_token and missing tokens order
 * nothing */
START_TEST(tileir_token_order)
{
    lit_test *t = parse(TI_HEAD
        ST("a", "x", "")
        ST("b", "y", " token=%a")
        ST("c", "z", " token=%b")
        "  %m = make_token : token\n"
        ST("d", "x", " token=%m")
        "  %j = join_tokens %a, %d : token\n"
        ST("e", "y", " token=%j")
        "}\nexists (x == 0)\n");
    const lit_thread *th = &t->th[0];
    ck_assert_int_eq(th->nins, 5);
    ck_assert_ptr_nonnull(th->order);
#define O(i, j) th->order[(i) * 5 + (j)]
    ck_assert(O(0, 1) && O(1, 2) && O(0, 2));       /* a < b < c, transitively */
    ck_assert(!O(1, 0) && !O(2, 0));
    ck_assert(!O(0, 3) && !O(1, 3) && !O(2, 3));    /* d after make_token: unordered */
    ck_assert(O(0, 4) && O(3, 4));                  /* e after join(a, d) */
    ck_assert(!O(1, 4) && !O(2, 4));                /* ... but not after b, c */
#undef O
    /* the PTX meaning: st.relaxed.gpu, 4 bytes */
    ck_assert_int_eq(th->ins[0].k, LI_ST);
    ck_assert_int_eq(th->ins[0].sem, SEM_RELAXED);
    ck_assert_int_eq(th->ins[0].scope, SCOPE_GPU);
    ck_assert_int_eq(th->ins[0].size, 4);
    lit_free(t);
}
END_TEST

/* semantics and scopes of each operation; tl_blk -> cta, sys -> sys; weak has no scope */
START_TEST(tileir_semantics_scopes)
{
    lit_test *t = parse(
        TI_HEAD "  %r0, %t0 = load_ptr_tko weak %x : tile<ptr<i32>> -> tile<i32>, token\n"
                "  %r1, %t1 = load_ptr_tko acquire tl_blk %y : tile<ptr<i32>> -> tile<i32>, token\n"
                "  %t2 = store_ptr_tko release sys %z, %c1 : tile<ptr<i32>>, tile<i32> -> token\n"
                "  %r3, %t3 = atomic_rmw_tko acq_rel device %x, umax, %c1 : tile<ptr<i32>>, "
                "tile<i32> -> tile<i32>, token\n"
                "  %r4, %t4 = atomic_cas_tko relaxed device %y, %c1, %r0 : tile<ptr<i32>>, "
                "tile<i32>, tile<i32> -> tile<i32>, token\n"
                "}\nexists (P0:r0 == 0)\n");
    const lit_insn *in = t->th[0].ins;
    ck_assert(in[0].k == LI_LD && in[0].sem == SEM_WEAK && in[0].scope == SCOPE_NONE);
    ck_assert(in[1].k == LI_LD && in[1].sem == SEM_ACQUIRE && in[1].scope == SCOPE_CTA);
    ck_assert(in[2].k == LI_ST && in[2].sem == SEM_RELEASE && in[2].scope == SCOPE_SYS);
    ck_assert(in[3].k == LI_ATOM && in[3].sem == SEM_ACQ_REL && in[3].aop == ISA_ATOM_MAX &&
              in[3].type == ISA_T_U32);
    ck_assert(in[4].k == LI_ATOM && in[4].aop == ISA_ATOM_CAS && in[4].nsrc == 2 &&
              in[4].src[1].k == OPD_REG);
    ck_assert_ptr_nonnull(t->th[0].order);
    for (int i = 0; i < 25; i++) ck_assert_int_eq(t->th[0].order[i], 0);   /* no tokens consumed */
    lit_free(t);
}
END_TEST

START_TEST(tileir_errors)
{
    parse_fails(TI_HEAD "  %r0, %t0 = load_ptr_tko release device %x : tile<ptr<i32>> -> "
                        "tile<i32>, token\n}\nexists (x == 0)\n",
                "found the semantics 'release'");
    parse_fails(TI_HEAD
                "  %t0 = store_ptr_tko relaxed device %x, %c1 token=%nope\n}\nexists (x == 0)\n",
                "expected a token defined earlier");
    parse_fails(
        TI_HEAD
        "  %t0 = store_ptr_tko relaxed device %x, %c1\n}\nP1@cta 0,gpu 0 {\n}\nexists (x == 0)\n",
        "expected one CTA per tile block");
    parse_fails(TI_HEAD "  %t0 = store_ptr_tko relaxed device %q, %c1\n}\nexists (x == 0)\n",
                "expected a pointer '%x' to a location");
    parse_fails(TI_HEAD "  %t0 = store_ptr_tko relaxed device %x, %c1\n",
                "expected '}' closing the tile block");
}
END_TEST

/* the token order decides: MP forbidden with tokens on both sides, allowed without one */
START_TEST(tileir_mp_verdicts)
{
    const char *mp =
        "TILEIR mp\n{ i32 x = 0; i32 y = 0; }\nP0@cta 0,gpu 0 {\n  %c1 = constant <i32: 1> : "
        "tile<i32>\n"
        "  %t0 = store_ptr_tko weak %x, %c1 : tile<ptr<i32>>, tile<i32> -> token\n"
        "  %t1 = store_ptr_tko release device %y, %c1^ : tile<ptr<i32>>, tile<i32> -> token\n}\n"
        "P1@cta 1,gpu 0 {\n  %r0, %t2 = load_ptr_tko acquire device %y : tile<ptr<i32>> -> "
        "tile<i32>, token\n"
        "  %r1, %t3 = load_ptr_tko weak %x token=%t2 : tile<ptr<i32>> -> tile<i32>, token\n}\n"
        "exists (P1:r0 == 1 /\\ P1:r1 == 0)\n";
    char buf[1024];
    const char *at = strchr(mp, '^');   /* where the release store's token goes */
    snprintf(buf, sizeof buf, "%.*s token=%%t0%s", (int)(at - mp), mp, at + 1);
    lit_test *t = parse(buf);
    ck_assert_str_eq(verdict(t, MODEL_PTX), "No");
    lit_free(t);
    snprintf(buf, sizeof buf, "%.*s%s", (int)(at - mp), mp, at + 1);
    t = parse(buf);
    ck_assert_str_eq(verdict(t, MODEL_PTX), "Ok");
    lit_free(t);
}
END_TEST

static const char *LL_SB =
    "LLVM sb\n{ i32 x = 0; i32 y = 0; }\n"
    "P0@cta 0,gpu 0 {\n  store atomic i32 1, ptr %x syncscope(\"device\") seq_cst, align 4\n"
    "  %r0 = load atomic i32, ptr %y syncscope(\"device\") seq_cst, align 4\n}\n"
    "P1@cta 1,gpu 0 {\n  store atomic i32 1, ptr %y syncscope(\"device\") seq_cst, align 4\n"
    "  %r1 = load atomic i32, ptr %x syncscope(\"device\") seq_cst, align 4\n}\n"
    "exists (P0:r0 == 0 /\\ P1:r1 == 0)\n";

/* the lowering tables: seq_cst = fence.sc + acquire/release (nvptx), without the fence
   (no-fence-sc); the source keeps SC events */
START_TEST(llvm_lowering)
{
    char err[1024] = "";
    lit_test *s = llvm_parse("t.litmus", LL_SB, 0, LLVM_SOURCE, err, sizeof err);
    ck_assert_msg(s != NULL, "%s", err);
    ck_assert_int_eq(s->th[0].nins, 2);
    ck_assert(s->th[0].ins[0].sem == SEM_SC && s->th[0].ins[0].scope == SCOPE_GPU);
    lit_test *n = llvm_parse("t.litmus", LL_SB, 0, LLVM_MAP_NVPTX, err, sizeof err);
    ck_assert_msg(n != NULL, "%s", err);
    const lit_insn *in = n->th[0].ins;
    ck_assert_int_eq(n->th[0].nins, 4);
    ck_assert(in[0].k == LI_FENCE && in[0].fence == FENCE_SC && in[0].scope == SCOPE_GPU);
    ck_assert(in[1].k == LI_ST && in[1].sem == SEM_RELEASE && in[1].scope == SCOPE_GPU);
    ck_assert(in[2].k == LI_FENCE && in[2].fence == FENCE_SC);
    ck_assert(in[3].k == LI_LD && in[3].sem == SEM_ACQUIRE);
    ck_assert_str_eq(verdict(n, MODEL_PTX), "No");
    ck_assert_str_eq(verdict(s, MODEL_RC11_SCOPED), "No");
    lit_test *w = llvm_parse("t.litmus", LL_SB, 0, LLVM_MAP_NO_FENCE_SC, err, sizeof err);
    ck_assert_int_eq(w->th[0].nins, 2);
    ck_assert_str_eq(verdict(w, MODEL_PTX), "Ok");
    /* llc 14 cannot lower seq_cst loads and stores */
    ck_assert_ptr_null(llvm_parse("t.litmus", LL_SB, 0, LLVM_MAP_LLC14, err, sizeof err));
    ck_assert_ptr_nonnull(strstr(err, "llc 14"));
    /* verify reads an LLVM test through the nvptx table */
    lit_test *v = parse(LL_SB);
    ck_assert_int_eq(v->th[0].nins, 4);
    lit_free(v);
    lit_free(s);
    lit_free(n);
    lit_free(w);
    llvm_mode m;
    ck_assert_int_eq(llvm_mode_parse("llc14", &m), 0);
    ck_assert_int_eq(m, LLVM_MAP_LLC14);
    ck_assert_int_eq(llvm_mode_parse("gcc", &m), -1);
}
END_TEST

START_TEST(llvm_errors)
{
    parse_fails("LLVM e\n{ x = 0; }\nP0 {\n  store atomic i32 1, ptr %x acquire, align "
                "4\n}\nexists (x == 0)\n",
                "found the ordering 'acquire'");
    parse_fails("LLVM e\n{ x = 0; }\nP0 {\n  %r = load atomic i32, ptr %x syncscope(\"wavefront\") "
                "monotonic\n}\nexists (x == 0)\n",
                "found the scope \"wavefront\"");
    parse_fails("LLVM e\n{ x = 0; }\nP0 {\n  %r = cmpxchg weak ptr %x, i32 0, i32 1 seq_cst "
                "seq_cst\n}\nexists (x == 0)\n",
                "expected a strong cmpxchg");
    parse_fails("LLVM e\n{ x = 0; }\nP0 {\n  %r = atomicrmw fadd ptr %x, i32 1 "
                "monotonic\n}\nexists (x == 0)\n",
                "expected an atomicrmw operation");
}
END_TEST

/* llvm-check on every test of suites/llvm under every mapping, against expected-check.tsv.
 * Under the sanitizers every CHECK_STRIDE-th line: each line is two verifications, two Z3
 * contexts at ~70 ms each under ASan (the plain build checks them all) */
#define CHECK_STRIDE (PTX_SANITIZED ? 4 : 1)
START_TEST(llvm_check_suite)
{
    FILE *f = fopen("suites/llvm/expected-check.tsv", "r");
    ck_assert_ptr_nonnull(f);
    char line[512];
    int n = 0, bugs = 0, no = 0;
    verify_opts o;
    verify_opts_default(&o);
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || no++ % CHECK_STRIDE) continue;
        char file[256], map[32], want[32], path[300];
        ck_assert_int_eq(sscanf(line, "%255[^\t]\t%31[^\t]\t%31s", file, map, want), 3);
        llvm_mode m;
        ck_assert_int_eq(llvm_mode_parse(map, &m), 0);
        snprintf(path, sizeof path, "suites/llvm/%s", file);
        llvm_check_result r;
        int rc = llvm_check_file(path, m, &o, &r);
        ck_assert_msg(rc == 0, "%s: %s", path, r.error);
        ck_assert_msg(!strcmp(llvm_check_verdict_name(r.verdict), want), "%s %s: %s, expected %s",
                      file, map, llvm_check_verdict_name(r.verdict), want);
        if (r.verdict == LLVM_CHECK_BUG) { ck_assert_int_gt(r.nbug, 0); bugs++; }
        llvm_check_result_free(&r);
        n++;
    }
    fclose(f);
    ck_assert_int_ge(n * CHECK_STRIDE, 90);
    ck_assert_int_ge(bugs * CHECK_STRIDE, 10);
}
END_TEST

static void add_tests(TCase *tc)
{
    tcase_add_test(tc, tileir_token_order);
    tcase_add_test(tc, tileir_semantics_scopes);
    tcase_add_test(tc, tileir_errors);
    tcase_add_test(tc, tileir_mp_verdicts);
    tcase_add_test(tc, llvm_lowering);
    tcase_add_test(tc, llvm_errors);
    tcase_add_test(tc, llvm_check_suite);
}
