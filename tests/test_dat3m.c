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

static const char *const search[] = { CAT_BUILTIN };   /* includes: the bundled models */

/* a loaded cat model (err: why not), linked to the engine */
static cat_prog *linked(cat_model *m, const char *err)
{
    ck_assert_msg(m != NULL, "%s", err);
    char e[1024];
    cat_prog *p = query_link_model(m, e, sizeof e);
    ck_assert_msg(p != NULL, "%s", e);
    return p;
}

/* a cat model from text, linked to the engine (freed by the caller: cat_prog_free, cat_free) */
static cat_prog *cat_of(const char *text, cat_model **m)
{
    char err[1024];
    cat_set_builtins(model_bundled, model_nbundled);
    *m = cat_load_text("u.cat", text, search, 1, err, sizeof err);
    return linked(*m, err);
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

/* Observation (herd's Never/Sometimes/Always) of text under o */
static const char *observed(const char *text, const verify_opts *o)
{
    verify_result r = verify_text(text, o);
    const char *obs = verify_observation(&r);
    verify_result_free(&r);
    return obs;
}

/* a cat file of ../shared/spec/cat read in place, linked (NULL with a printed reason) */
static cat_prog *dat3m_cat(const char *name, cat_model **m)
{
    char path[512], err[1024];
    snprintf(path, sizeof path, "../shared/spec/cat/%s", name);
    FILE *f = fopen(path, "r");
    if (!f) { printf("SKIP %s: %s not found\n", name, path); return NULL; }
    fclose(f);
    cat_set_builtins(model_bundled, model_nbundled);
    *m = cat_load_file_prelude(path, search, 1, "stdlib.cat", err, sizeof err);
    return linked(*m, err);
}

/* A failed atom.cas next to a weak store, both unordered in coherence (not morally strong):
   when the CAS writes back the 0 it read, its write may be the coherence-last one and x ends 0;
   when it only reads, the store's 1 is the only write. */
#define CAS_WRITE_BACK                                                                             \
    "PTX cas\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n"                                     \
    " st.weak x, 1 | atom.relaxed.gpu.cas r0, x, 5, 6 ;\nexists (x == 0 /\\ P1:r0 == 0)\n"

START_TEST(failed_cas_writes_under_the_dat3m_models)
{
    verify_opts o = under(MODEL_PTX);
    ck_assert_str_eq(observed(CAS_WRITE_BACK, &o), "Never");
    o.cas_fail = VERIFY_CAS_WRITE;   /* --cas-fail write: the pseudo-code's reading */
    ck_assert_str_eq(observed(CAS_WRITE_BACK, &o), "Sometimes");
    model_kind d[] = { MODEL_PTX75, MODEL_PTX60 };
    for (int k = 0; k < 2; k++) {
        o = under(d[k]);
        ck_assert_str_eq(observed(CAS_WRITE_BACK, &o), "Sometimes");
        o.cas_fail = VERIFY_CAS_READ;
        ck_assert_str_eq(observed(CAS_WRITE_BACK, &o), "Never");
        o.cas_fail = VERIFY_CAS_EVENTS;
        o.events = VERIFY_EVENTS_ISA;
        ck_assert_str_eq(observed(CAS_WRITE_BACK, &o), "Never");
    }
    /* Dat3M's own cat file: the ISA's events by default (a --cat model), Dat3M's on request */
    cat_model *m;
    cat_prog *p = dat3m_cat("dat3m-ptx-v7.5.cat", &m);
    if (!p) return;
    o = under(MODEL_PTX);
    o.cat = p;
    ck_assert_str_eq(observed(CAS_WRITE_BACK, &o), "Never");
    o.events = VERIFY_EVENTS_DAT3M;
    ck_assert_str_eq(observed(CAS_WRITE_BACK, &o), "Sometimes");
    cat_prog_free(p);
    cat_free(m);
}
END_TEST

/* Message passing with fence.sc on the writer's side and fence.acq_rel on the reader's: the ISA
   makes fence.sc a fence.acq_rel (§9.7.12.4), so the fences synchronize (§8.9.4 item 4); Dat3M
   tags fence.sc SC only, its release pattern [F & ACQ_REL] does not start there, and the
   outcome is allowed. */
#define MP_SC_ACQREL                                                                               \
    "PTX MP+sc+acq_rel\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"                      \
    " st.weak x, 1 | ld.relaxed.gpu r0, y ;\n fence.sc.gpu | fence.acq_rel.gpu ;\n"              \
    " st.relaxed.gpu y, 1 | ld.weak r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n"

START_TEST(fence_sc_is_sc_only_under_the_dat3m_models)
{
    verify_opts o = under(MODEL_PTX);
    ck_assert_str_eq(observed(MP_SC_ACQREL, &o), "Never");
    o = under(MODEL_PTX75);
    ck_assert_str_eq(observed(MP_SC_ACQREL, &o), "Sometimes");
    o.events = VERIFY_EVENTS_ISA;
    ck_assert_str_eq(observed(MP_SC_ACQREL, &o), "Never");
    o = under(MODEL_PTX60);
    ck_assert_str_eq(observed(MP_SC_ACQREL, &o), "Sometimes");
    /* two fence.sc still synchronize, through the Fence-SC order */
    const char *sc2 =
        "PTX MP+sc+sc\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
        " st.weak x, 1 | ld.relaxed.gpu r0, y ;\n fence.sc.gpu | fence.sc.gpu ;\n"
        " st.relaxed.gpu y, 1 | ld.weak r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n";
    o = under(MODEL_PTX75);
    ck_assert_str_eq(observed(sc2, &o), "Never");
}
END_TEST

/* --liveness: a CAS spin lock that is never released hangs whether or not a failed CAS writes
   back (its write-backs leave memory as they found it) */
START_TEST(cas_spin_hangs_with_write_back)
{
    model_kind k[] = { MODEL_PTX, MODEL_PTX75 };
    for (int i = 0; i < 2; i++) {
        verify_opts o = under(k[i]);
        o.liveness = 1;
        verify_result r = verify_path("suites/liveness/cas-lock-no-release.litmus", &o);
        ck_assert_msg(r.liveness == LIVENESS_MAY_HANG && r.nhangs >= 1 && r.hangs[0].spin,
                      "%s", model_name(k[i]));
        verify_result_free(&r);
        r = verify_path("suites/liveness/cas-lock.litmus", &o);
        ck_assert_msg(r.liveness == LIVENESS_TERMINATES, "%s", model_name(k[i]));
        verify_result_free(&r);
    }
}
END_TEST

static int nstates(const char *text, const verify_opts *o)
{
    verify_result r = verify_text(text, o);
    int n = r.nstates;
    verify_result_free(&r);
    return n;
}

#define TWO "P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n"

START_TEST(dat3m_barriers_are_instances)
{
    verify_opts isa = under(MODEL_PTX), d = under(MODEL_PTX75);
    /* the first operand is the instance: INST 1 and INST 2 with the same ID do not meet under
       Dat3M (each completes alone), while the ISA reading has one barrier, ID 5 */
    const char *inst = "PTX inst\n{ x=0; }\n" TWO " st.weak x, 1 | bar.cta.sync 2, 5 ;\n"
                       " bar.cta.sync 1, 5 | ld.weak r0, x ;\nexists (P1:r0 == 0)\n";
    ck_assert_str_eq(observed(inst, &isa), "Never");
    ck_assert_str_eq(observed(inst, &d), "Sometimes");
    /* a thread of the CTA that never reaches the instance holds the others (Dat3M: every
       barrier of the instance must be reached); the ISA reading of the uncounted form counts
       only the threads that use it */
    const char *skip = "PTX skip\n{ x=0; P1:r9=0; }\n" TWO " st.weak x, 1 | beq r9, 0, LC00 ;\n"
                       " bar.cta.sync 1 | bar.cta.sync 1 ;\n | LC00: ;\nexists (x == 1)\n";
    ck_assert_int_eq(nstates(skip, &isa), 1);
    ck_assert_int_eq(nstates(skip, &d), 0);
    /* Dat3M's arrive blocks too (its execution needs the instance); the ISA's does not wait */
    const char *arr = "PTX arrive\n{ x=0; P1:r9=0; }\n" TWO " st.weak x, 1 | beq r9, 0, LC00 ;\n"
                      " bar.cta.arrive 1, 1, 2 | bar.cta.sync 1, 1, 2 ;\n | LC00: ;\n"
                      "exists (x == 1)\n";
    ck_assert_int_eq(nstates(arr, &isa), 1);
    ck_assert_int_eq(nstates(arr, &d), 0);
    /* opposite orders: Dat3M's encoding has no waiting order, the cycle of waits justifies
       itself and both complete; the ISA's barriers deadlock */
    const char *dl = "PTX dl\n{ x=0; }\n" TWO " bar.cta.sync 0 | bar.cta.sync 1 ;\n"
                     " bar.cta.sync 1 | bar.cta.sync 0 ;\nexists (x == 0)\n";
    ck_assert_int_eq(nstates(dl, &isa), 0);
    ck_assert_int_eq(nstates(dl, &d), 1);
}
END_TEST

START_TEST(dat3m_quorum_is_a_minimum)
{
    verify_opts isa = under(MODEL_PTX), d = under(MODEL_PTX75);
    /* a quorum larger than the CTA: refused under the ISA reading, nobody passes under Dat3M */
    const char *big = "PTX big\n{ x=0; }\n" TWO " st.weak x, 1 | bar.cta.sync 0, 1, 3 ;\n"
                      " bar.cta.sync 0, 1, 3 | ld.weak r0, x ;\nexists (P1:r0 == 0)\n";
    verify_result r;
    ck_assert_int_eq(try_verify(big, &isa, &r), -1);
    ck_assert_msg(strstr(r.error, "t.litmus:5:2: found the quorum 3, expected 1..2"), "%s",
                  r.error);
    verify_result_free(&r);
    ck_assert_int_eq(nstates(big, &d), 0);
    d.liveness = 1;
    r = verify_text(big, &d);
    ck_assert_int_eq(r.liveness, LIVENESS_MAY_HANG);
    verify_result_free(&r);
    /* three threads at a quorum of 2: the ISA's phases of two leave one waiting; under Dat3M
       all three pass and at least two synchronize (which two is a choice) */
    isa.liveness = d.liveness = 1;
    r = verify_path("suites/liveness/barrier-quorum-too-large.litmus", &isa);
    ck_assert_int_eq(r.liveness, LIVENESS_MAY_HANG);
    ck_assert_int_eq(r.nstates, 0);
    verify_result_free(&r);
    r = verify_path("suites/liveness/barrier-quorum-too-large.litmus", &d);
    ck_assert_int_eq(r.liveness, LIVENESS_TERMINATES);
    ck_assert_int_eq(r.nstates, 2);   /* P1 synchronizes with the writer P0, or not */
    verify_result_free(&r);
}
END_TEST

static void add_tests(TCase *tc)
{
    tcase_add_test(tc, dat3m_barriers_are_instances);
    tcase_add_test(tc, dat3m_quorum_is_a_minimum);
    tcase_add_test(tc, mixed_sizes_need_a_byte_model);
    tcase_add_test(tc, failed_cas_writes_under_the_dat3m_models);
    tcase_add_test(tc, fence_sc_is_sc_only_under_the_dat3m_models);
    tcase_add_test(tc, cas_spin_hangs_with_write_back);
}

#include "check_main.h"
