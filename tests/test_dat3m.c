/* tests/test_dat3m.c — what the published models (--model ptx-v7.5, ptx-v6.0, Dat3M's cat files
 * through --cat) and the default model answer where they differ in how instructions become
 * events (issue #28, docs/model.md "Event semantics"), and what a model without byte-level
 * locations refuses: accesses of different widths to one location (issue #28 item 1). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "frontend/cat.h"
#include "frontend/litmus.h"
#include "model/bundled.h"
#include "solver/query.h"
#include "tests/litmus_run.h"
#include "check/verify.h"

/* Verifies text under o; returns 0 with *r filled, or -1 with r->error (a refusal). */
static int try_verify(const char *text, const verify_opts *o, verify_result *r)
{
    char err[1024];
    lit_test *t = lit_parse("t.litmus", text, err, sizeof err);
    ck_assert_msg(t != NULL, "parse failed: %s", err);
    int rc = verify_test(t, o, r);
    r->test = NULL;
    lit_free(t);
    return rc;
}

static verify_opts under(model_kind m)
{
    verify_opts o;
    verify_opts_default(&o);
    o.model = m;
    return o;
}

/* a cat model from text, linked to the engine (freed by the caller: cat_prog_free, cat_free) */
static cat_prog *cat_of(const char *text, cat_model **m)
{
    char err[1024];
    const char *search[] = { CAT_BUILTIN };
    cat_set_builtins(model_bundled, model_nbundled);
    *m = cat_load_text("u.cat", text, search, 1, err, sizeof err);
    ck_assert_msg(*m != NULL, "%s", err);
    cat_prog *p = query_link_model(*m, err, sizeof err);
    ck_assert_msg(p != NULL, "%s", err);
    return p;
}

/* The tests: one thread writes 4 bytes then 1 byte of them, and reads the 4 bytes back;
   a 4-byte write read back 1 byte wide.  §8.2.1 and §8.10.5 (SC per location, per byte) leave
   one outcome each. */
#define ST32_ST8_LD32                                                                              \
    "PTX mix\n{ x = 0; }\n P0@cta 0,gpu 0 ;\n st.global.u32 [x], 5 ;\n st.global.u8 [x], 7 ;\n"    \
    " ld.global.u32 %r0, [x] ;\nforall (P0:%r0 == 7)\n"
#define ST32_LD8                                                                                   \
    "PTX mix8\n{ x = 0; }\n P0@cta 0,gpu 0 ;\n st.global.u32 [x], 0x01020304 ;\n"                  \
    " ld.global.u8 %r0, [x] ;\nforall (P0:%r0 == 4)\n"
#define SAME_WIDTH                                                                                 \
    "PTX same\n{ x = 0; }\n P0@cta 0,gpu 0 ;\n st.global.u32 [x], 5 ;\n st.global.u32 [x], 7 ;\n"  \
    " ld.global.u32 %r0, [x] ;\nforall (P0:%r0 == 7)\n"

START_TEST(mixed_sizes_need_a_byte_model)
{
    /* the default model reads bytes: exactly the ISA's outcome */
    verify_opts o = under(MODEL_PTX);
    const char *ok[] = { ST32_ST8_LD32, ST32_LD8 };
    for (int i = 0; i < 2; i++) {
        verify_result r = verify_text(ok[i], &o);
        ck_assert_msg(r.validated && r.nstates == 1, "%s", ok[i]);
        verify_result_free(&r);
    }
    /* the models without `overlap` refuse, at the narrower access, naming the other one */
    model_kind without[] = { MODEL_PTX75, MODEL_PTX60, MODEL_RC11_SCOPED };
    for (int k = 0; k < 3; k++) {
        o = under(without[k]);
        verify_result r;
        ck_assert_int_eq(try_verify(ST32_ST8_LD32, &o, &r), -1);
        ck_assert_msg(strstr(r.error, "t.litmus:5:2: found a 1-byte access to 'x' (bytes 0..0) "
                                      "that partly overlaps the 4-byte access at 4:2") &&
                          strstr(r.error, model_name(without[k])),
                      "%s", r.error);
        verify_result_free(&r);
        ck_assert_int_eq(try_verify(ST32_LD8, &o, &r), -1);
        verify_result_free(&r);
        /* one width per location is what these models are for: decided */
        r = verify_text(SAME_WIDTH, &o);
        ck_assert(r.validated);
        verify_result_free(&r);
    }
    /* a cat file: refused unless it names `overlap` (the plain SC model of the issue allowed
       the stale 5 before) */
    cat_model *m;
    cat_prog *sc = cat_of("\"SC\"\nacyclic po | rf | co | fr as sc\n", &m);
    o = under(MODEL_PTX);
    o.cat = sc;
    o.model_label = "SC";
    verify_result r;
    ck_assert_int_eq(try_verify(ST32_ST8_LD32, &o, &r), -1);
    ck_assert_msg(strstr(r.error, "under model SC"), "%s", r.error);
    verify_result_free(&r);
    cat_prog_free(sc);
    cat_free(m);
    cat_prog *bytes = cat_of("\"SC, bytes\"\nempty ([W]; overlap; [W]) \\ (co | co^-1 | id) as "
                             "co-total\nacyclic po | rf | co | fr as sc\n",
                             &m);
    o.cat = bytes;
    r = verify_text(ST32_ST8_LD32, &o);
    ck_assert_msg(r.validated && r.nstates == 1, "states %d", r.nstates);
    verify_result_free(&r);
    cat_prog_free(bytes);
    cat_free(m);
}
END_TEST

static void add_tests(TCase *tc)
{
    tcase_add_test(tc, mixed_sizes_need_a_byte_model);
}

#include "check_main.h"
