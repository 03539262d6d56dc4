/* tests/test_hw.c — `ptxlitmus hw` without a GPU: the plan (placement, memory, register widths,
 * barriers, aliases), the inline PTX of each litmus thread (exact qualifiers, program order,
 * Dat3M forms mapped to real PTX), refusals with file:line:col, the classification of observed
 * states against the model, the options and the manifests' `hw:` field.  Compiling and running
 * generated programs (nvcc, the CPU stand-in, exit 77) is tests/cli/t_hw.sh. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "hw/hw.h"
#include "suite/suite.h"
#include "hw_test.h"

#define MP_DAT3M                                                                                   \
    "PTX MP\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"                                  \
    " st.weak x, 1 | ld.acquire.gpu r0, y ;\n st.release.gpu y, 1 | ld.weak r1, x ;\n"             \
    "exists (P1:r0 == 1 /\\ P1:r1 == 0)\n"

START_TEST(mp_both_dialects)
{
    char *p0 = thread_text(MP_DAT3M, 0), *p1 = thread_text(MP_DAT3M, 1);
    const char *w0[] = { "st.global.u32 [%0], 1;", "st.release.gpu.global.u32 [%1], 1;", NULL };
    const char *w1[] = { "ld.acquire.gpu.global.u32 %%lr0_r0, [%2];",
                         "ld.global.u32 %%lr1_r1, [%3];",
                         "cvt.u64.u32 %0, %%lr0_r0;",
                         "cvt.u64.u32 %1, %%lr1_r1;",
                         "\"=l\"(o[0]), \"=l\"(o[1])",
                         "HW_ADDR(i, 0, 1)) /* y */",
                         "HW_ADDR(i, 0, 0)) /* x */",
                         NULL };
    assert_in_order(p0, w0);
    assert_in_order(p1, w1);
    free(p0), free(p1);
    char *r = thread_text("PTX MP\n{ data=0; flag=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
                          " st.global.u32 [data], 1 | ld.global.relaxed.sys.u32 %r0, [flag] ;\n"
                          " fence.sys | fence.sys ;\n st.global.relaxed.sys.u32 [flag], 1 | "
                          "ld.global.u32 %r1, [data] ;\n"
                          "~exists (P1:%r0 == 1 /\\ P1:%r1 == 0)\n",
                          1);
    const char *w2[] = { "ld.relaxed.sys.global.u32 %%lr0_r0, [%2];", "fence.acq_rel.sys;",
                         "ld.global.u32 %%lr1_r1, [%3];", NULL };
    assert_in_order(r, w2);
    free(r);
}
END_TEST

START_TEST(classic_shapes)
{
    /* SB with fence.sc, LB, CoRR, 2+2W, IRIW: every instruction with its qualifiers, in order */
    char *sb = thread_text(
        "PTX SB\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
        " st.relaxed.gpu x, 1 | st.relaxed.gpu y, 1 ;\n fence.sc.gpu | fence.sc.gpu ;\n"
        " ld.relaxed.gpu r0, y | ld.relaxed.gpu r1, x ;\nexists (P0:r0 == 0 /\\ P1:r1 == 0)\n",
        0);
    const char *wsb[] = { "st.relaxed.gpu.global.u32 [%1], 1;", "fence.sc.gpu;",
                          "ld.relaxed.gpu.global.u32 %%lr0_r0, [%2];", NULL };
    assert_in_order(sb, wsb);
    free(sb);
    char *lb = thread_text("PTX LB\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
                           " ld.relaxed.cta r0, x | ld.relaxed.sys r1, y ;\n st.relaxed.cluster y, "
                           "1 | st.volatile x, 1 ;\n"
                           "exists (P0:r0 == 1 /\\ P1:r1 == 1)\n",
                           1);
    const char *wlb[] = { "ld.relaxed.sys.global.u32 %%lr0_r1, [%1];",
                          "st.volatile.global.u32 [%2], 1;", NULL };
    assert_in_order(lb, wlb);
    free(lb);
    char *corr =
        thread_text("PTX CoRR\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
                    " st.relaxed.gpu x, 1 | ld.relaxed.gpu r0, x ;\n | ld.relaxed.gpu r1, x ;\n"
                    "exists (P1:r0 == 1 /\\ P1:r1 == 0)\n",
                    1);
    const char *wc[] = { "ld.relaxed.gpu.global.u32 %%lr0_r0, [%2];",
                         "ld.relaxed.gpu.global.u32 %%lr1_r1, [%2];", NULL };
    assert_in_order(corr, wc);
    free(corr);
    char *ww = thread_text("PTX 2+2W\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
                           " st.relaxed.gpu x, 1 | st.relaxed.gpu y, 1 ;\n st.release.gpu y, 2 | "
                           "st.release.gpu x, 2 ;\n"
                           "exists (x == 1 /\\ y == 1)\n",
                           1);
    const char *ww1[] = { "st.relaxed.gpu.global.u32 [%0], 1;",
                          "st.release.gpu.global.u32 [%1], 2;", NULL };
    assert_in_order(ww, ww1);
    free(ww);
    char *iriw = thread_text("PTX IRIW\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 | P2@cta "
                             "2,gpu 0 | P3@cta 3,gpu 0 ;\n"
                             " st.relaxed.gpu x, 1 | st.relaxed.gpu y, 1 | ld.acquire.gpu r0, x | "
                             "ld.acquire.gpu r2, y ;\n"
                             " | | ld.acquire.gpu r1, y | ld.acquire.gpu r3, x ;\n"
                             "exists (P2:r0 == 1 /\\ P2:r1 == 0 /\\ P3:r2 == 1 /\\ P3:r3 == 0)\n",
                             3);
    const char *wi[] = { "ld.acquire.gpu.global.u32 %%lr0_r2, [%2];",
                         "ld.acquire.gpu.global.u32 %%lr1_r3, [%3];", NULL };
    assert_in_order(iriw, wi);
    free(iriw);
}
END_TEST

START_TEST(dat3m_atomics_map_to_ptx)
{
    char *s = thread_text("PTX A\n{ x=2; y=0; z=0; P0:r5=3; }\n P0@cta 0,gpu 0 ;\n"
                          " atom.acq_rel.sys.sub r0, x, 1 ;\n atom.relaxed.gpu.sub r1, x, r5 ;\n"
                          " atom.relaxed.cta.inc r2, y ;\n atom.acquire.gpu.cas r3, z, 0, 1 ;\n"
                          " red.release.gpu.add z, 2 ;\n atom.relaxed.gpu.max r4, y, 7 ;\n"
                          "forall (x == 0)\n",
                          0);
    const char *w[] = { "atom.acq_rel.sys.global.add.u32 %%lr1_r0, [%0], -1;",
                        "neg.s32 %%t_w0, %%lr0_r5;",
                        "atom.relaxed.gpu.global.add.u32 %%lr2_r1, [%0], %%t_w0;",
                        "atom.relaxed.cta.global.inc.u32 %%lr3_r2, [%1], -1;",
                        "atom.acquire.gpu.global.cas.b32 %%lr4_r3, [%2], 0, 1;",
                        "red.release.gpu.global.add.u32 [%2], 2;",
                        "atom.relaxed.gpu.global.max.s32 %%lr5_r4, [%1], 7;",
                        NULL };
    assert_in_order(s, w);
    ck_assert_ptr_nonnull(strstr(s, "mov.b32 %%lr0_r5, 3;"));
    free(s);
}
END_TEST

START_TEST(predicates_branches_alu)
{
    char *s = thread_text(
        "PTX B\n{ flag=0; data=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
        " st.global.u32 [data], 1 | LC10: ;\n st.global.release.gpu.u32 [flag], 1 | "
        "ld.global.acquire.gpu.u32 %r0, [flag] ;\n"
        " | setp.ne.s32 %p1, %r0, 1 ;\n | @%p1 bra LC10 ;\n | ld.global.u32 %r1, [data] ;\n"
        " | add.s32 %r2, %r1, 3 ;\n | @!%p1 st.global.u32 [data], %r2 ;\n | beq %r2, 4, LC10 ;\n"
        "forall (P1:%r1 == 1)\n",
        1);
    const char *w[] = { "hwL%=_0:",
                        "ld.acquire.gpu.global.u32 %%lr0_r0, [%1];",
                        "setp.ne.s32 %%lr1_p1, %%lr0_r0, 1;",
                        "@%%lr1_p1 bra hwL%=_0;",
                        "ld.global.u32 %%lr2_r1, [%2];",
                        "add.s32 %%lr3_r2, %%lr2_r1, 3;",
                        "@!%%lr1_p1 st.global.u32 [%2], %%lr3_r2;",
                        "setp.eq.s32 %%t_p, %%lr3_r2, 4;",
                        "@%%t_p bra hwL%=_0;",
                        "hwL%=_end:",
                        NULL };
    assert_in_order(s, w);
    ck_assert_ptr_nonnull(strstr(s, ".reg .pred %%lr1_p1;"));
    free(s);
    /* Dat3M ALU without a type is the model's 64-bit computation; the loaded register widens */
    char *d = thread_text(
        "PTX D\n{ x=0; y=0; }\n P0@cta 0,gpu 0 ;\n ld.relaxed.gpu r0, x ;\n add r1, r0, 1 ;\n"
        " st.relaxed.gpu y, r1 ;\nforall (y == 1)\n",
        0);
    const char *wd[] = { ".reg .b64 %%lr0_r0;", "ld.relaxed.gpu.global.u32 %%lr0_r0, [%0];",
                         "add.s64 %%lr1_r1, %%lr0_r0, 1;",
                         "st.relaxed.gpu.global.u32 [%1], %%lr1_r1;", NULL };
    assert_in_order(d, wd);
    free(d);
}
END_TEST

START_TEST(barrier_counts_whole_warps)
{
    /* two litmus threads of one CTA: 2 warps each (wpr), bar.sync 0 -> 32 * 2 * 2 threads */
    const char *t = "PTX MP+bar\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n"
                    " st.global.u32 [x], 1 | bar.sync 0 ;\n bar.sync 0 | ld.global.u32 %r0, [x] ;\n"
                    "forall (P1:%r0 == 1)\n";
    char *p0 = thread_text(t, 0);
    const char *w[] = { "st.global.u32 [%0], 1;", "barrier.sync 0, 128;", NULL };
    assert_in_order(p0, w);
    free(p0);
    char *a =
        thread_text("PTX PC\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 | P2@cta 1,gpu 0 ;\n"
                    " st.weak x, 1 | bar.cta.sync 1, 1, 2 | ld.weak r0, x ;\n bar.cta.arrive 1, "
                    "1, 2 | ld.weak r0, x | ;\n"
                    "forall (P1:r0 == 1)\n",
                    0);
    ck_assert_ptr_nonnull(strstr(a, "barrier.arrive 1, 128;"));
    free(a);
    hw_plan p;
    lit_test *lt = planned(t, &p);
    ck_assert_int_eq(p.has_barrier, 1);
    ck_assert_int_eq(p.nctas, 1);
    ck_assert_int_eq(p.rmax, 2);
    hw_opts o;
    hw_opts_default(&o);
    char err[256], *prog = hw_emit_program(&p, &o, err, sizeof err);
    ck_assert_ptr_nonnull(strstr(prog, "#define T_HAS_BARRIER 1"));
    free(prog);
    hw_plan_free(&p);
    lit_free(lt);
}
END_TEST

START_TEST(clusters_and_aliases)
{
    lit_test *t = parse_ok(
        "PTX MPc\n{ x=0; y=0; }\n P0@cta 0,cluster 0,gpu 0 | P1@cta 1,cluster 0,gpu 0 | P2@cta "
        "2,gpu 0 ;\n"
        " st.weak x, 1 | ld.acquire.cluster r0, y | ld.weak r0, x ;\n"
        " st.release.cluster y, 1 | ld.weak r1, x | ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n");
    hw_plan p;
    plan_ok(t, &p);
    ck_assert_int_eq(p.nclusters, 2);
    ck_assert_int_eq(p.cdim, 2);
    ck_assert_int_eq(p.use_cluster_launch, 1);
    ck_assert_int_eq(p.cta_cluster[0], p.cta_cluster[1]);
    ck_assert_int_ne(p.cta_cluster[0], p.cta_cluster[2]);
    ck_assert_int_ne(p.cta_pos[0], p.cta_pos[1]);
    hw_opts o;
    hw_opts_default(&o);
    char err[256], *prog = hw_emit_program(&p, &o, err, sizeof err);
    ck_assert_ptr_nonnull(strstr(prog, "#define T_CLUSTER_LAUNCH 1"));
    ck_assert_ptr_nonnull(strstr(prog, "#define T_CDIM 2"));
    ck_assert_ptr_nonnull(strstr(prog, "ld.acquire.cluster.global.u32"));
    free(prog);
    hw_plan_free(&p);
    lit_free(t);
    /* a generic alias is a second virtual mapping of the same physical memory */
    t = parse_ok("PTX CoWR-alias\n{ a1=0; a2 @ generic aliases a1; }\n P0@cta 0,gpu 0 ;\n"
                 " st.global.u32 [a1], 1 ;\n fence.proxy.alias ;\n ld.global.u32 %r1, [a2] "
                 ";\nforall (P0:%r1 == 1)\n");
    plan_ok(t, &p);
    ck_assert_int_eq(p.nmaps, 2);
    ck_assert_int_eq(p.nlocs, 1);
    ck_assert_int_eq(p.sym_map[lit_find_sym(t, "a2")], 1);
    ck_assert_int_eq(p.sym_loc[lit_find_sym(t, "a2")], p.sym_loc[lit_find_sym(t, "a1")]);
    char *s = hw_emit_thread(&p, 0, err, sizeof err);
    const char *w[] = { "st.global.u32 [%1], 1;",        "fence.proxy.alias;",
                        "ld.global.u32 %%lr0_r1, [%2];", "HW_ADDR(i, 0, 0)) /* a1 */",
                        "HW_ADDR(i, 1, 0)) /* a2 */",    NULL };
    assert_in_order(s, w);
    free(s);
    hw_plan_free(&p);
    lit_free(t);
}
END_TEST

START_TEST(texture_loads)
{
    char *s = thread_text(
        "PTX T\n{ x=0; flag=0; t @ texture aliases x; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n"
        " st.weak x, 1 | ld.acquire.cta r0, flag ;\n st.release.cta flag, 1 | tld.weak r1, t ;\n"
        "exists (P1:r0 == 1 /\\ P1:r1 != 1)\n",
        1);
    const char *w[] = { "tex.1d.v4.u32.s32 {%%lr1_r1, %%t_w1, %%t_w2, %%t_w3}, [%3, {%4}];",
                        "\"l\"(a.tex[0])", "\"r\"(HW_TEXEL(i, 0)) /* texel of t */", NULL };
    assert_in_order(s, w);
    free(s);
}
END_TEST

START_TEST(refusals_say_where_and_why)
{
    refused("PTX S\n{ x=0; s @ surface aliases x; }\n P0@cta 0,gpu 0 ;\n sust.weak s, 1 ;\nforall "
            "(x == 1)\n",
            "a CUDA surface is bound to a CUDA array");
    refused("PTX G\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 1 ;\n st.weak x, 1 | ld.weak r0, x "
            ";\nexists (P1:r0 == 1)\n",
            "expected every thread on one GPU");
    refused("PTX F\n{ x=0; }\n P0@cta 0,gpu 0 ;\n st.weak x, 1 ;\n fence.proxy.texture ;\nforall "
            "(x == 1)\n",
            "has no texture, surface or constant proxy fence");
    /* four users of a barrier of 2 (64 threads): its phases would mix instances */
    refused(
        "PTX Bc\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 | P2@cta 0,gpu 0 | P3@cta 0,gpu 0 ;\n"
        " bar.sync 1, 64 | bar.sync 1, 64 | bar.sync 1, 64 | bar.sync 1, 64 ;\n"
        "forall (x == 0)\n",
        "expected the count to equal");
    refused("PTX Bb\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n LC0: | bar.sync 1 ;\n bar.sync "
            "1 | ;\n"
            " goto LC0 | ;\nforall (x == 0)\n",
            "expected every path to reach the barrier once");
    refused(
        "PTX W\n{ x=0; }\n P0@cta 0,gpu 0 ;\n ld.global.u32 %r0, [x] ;\n add.s64 %r1, %r0, 1 ;\n"
        " setp.eq.s32 %p0, %r1, 1 ;\nforall (x == 0)\n",
        "expected one width");
    refused("PTX R\n{ x=0; }\n P0@cta 0,gpu 0 ;\n red.acq_rel.gpu.add x, 1 ;\nforall (x == 1)\n",
            "expected red with .relaxed or .release");
    refused("PTX Ts\n{ x=0; t @ texture aliases x; }\n P0@cta 0,gpu 0 ;\n st.weak t, 1 ;\nforall "
            "(x == 1)\n",
            "expected only weak loads");
    refused("PTX Fl\n{ x=0; }\n P0@cta 0,gpu 0 ;\n ld.global.u32 %r0, [x] ;\n add.f32 %r1, %r0, "
            "%r0 ;\nforall (x == 0)\n",
            "expected an integer or predicate computation");
    /* the position is the offending instruction's */
    lit_test *t = parse_ok("PTX S\n{ x=0; s @ surface aliases x; }\n P0@cta 0,gpu 0 ;\n st.weak x, "
                           "1 ;\n sust.weak s, 1 ;\nforall (x == 1)\n");
    hw_opts o;
    hw_opts_default(&o);
    hw_plan p;
    char err[512];
    ck_assert_int_eq(hw_plan_build(t, &o, &p, err, sizeof err), -1);
    ck_assert_msg(!strncmp(err, "t.litmus:5:2: found a surface access 'sust.weak s, 1'", 52), "%s",
                  err);
    lit_free(t);
}
END_TEST

/* A hand-made outcome: MP with release/acquire, where (r0, r1) = (1, 0) is forbidden. */
START_TEST(classification)
{
    hw_plan p;
    lit_test *t = planned(MP_DAT3M, &p);
    verify_opts vo;
    verify_opts_default(&vo);
    verify_result r;
    ck_assert_int_eq(verify_test(t, &vo, &r), 0);
    uint64_t states[] = { 0, 0, 1, 1, 1, 0, 0x100000001ull, 0 }; /* the last: r0 = 1 at 32 bits */
    uint64_t counts[] = { 50, 40, 3, 7 };
    hw_outcome out = {
        .ran = 1, .nstates = 4, .states = states, .counts = counts, .instances = 100, .launches = 1
    };
    hw_class c;
    hw_classify(&p, &r, MODEL_PTX, &out, &c);
    ck_assert_int_eq(c.verdict[0], HW_ALLOWED);
    ck_assert_int_eq(c.verdict[1], HW_ALLOWED);
    ck_assert_int_eq(c.verdict[2], HW_FORBIDDEN);
    ck_assert_int_eq(c.verdict[3], HW_FORBIDDEN);
    ck_assert_int_eq(c.holds[2], 1);
    ck_assert_int_eq(c.observed_forbidden, 2);
    ck_assert_int_eq(c.allowed_never_seen, 1); /* (0, 1) */
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    hw_report_text(f, &p, &r, &out, &c);
    fclose(f);
    ck_assert_msg(strstr(text, "observed-forbidden 2\nallowed-never-seen 1\n") != NULL, "%s", text);
    ck_assert_msg(strstr(text, "*> P1:r0=1; P1:r1=0;") != NULL, "%s", text);
    ck_assert_msg(strstr(text, "Observation MP Sometimes 10 90") != NULL, "%s", text);
    cJSON *j = hw_report_json(&p, &r, &out, &c);
    ck_assert_int_eq((int)cJSON_GetObjectItem(j, "observed_forbidden")->valuedouble, 2);
    ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(j, "histogram")), 4);
    ck_assert_str_eq(
        cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(j, "histogram"), 2), "verdict")
            ->valuestring,
        "forbidden");
    cJSON_Delete(j);
    free(text);
    hw_class_free(&c);
    verify_result_free(&r);
    hw_plan_free(&p);
    lit_free(t);
}
END_TEST

START_TEST(options_and_manifest_field)
{
    hw_opts o;
    hw_opts_default(&o);
    char why[300];
    ck_assert_int_eq(hw_opt_set(&o, "instances", "1024", why, sizeof why), 0);
    ck_assert_int_eq(o.instances, 1024);
    ck_assert_int_eq(hw_opt_set(&o, "stress", "random", why, sizeof why), 0);
    ck_assert_int_eq(o.stress, HW_STRESS_RANDOM);
    ck_assert_int_eq(hw_opt_set(&o, "stride", "12", why, sizeof why), -1);
    ck_assert_ptr_nonnull(strstr(why, "expected a multiple of 8"));
    ck_assert_int_eq(hw_opt_set(&o, "arch", "sm_60", why, sizeof why), -1);
    ck_assert_int_eq(hw_opt_set(&o, "arch", "sm_90a", why, sizeof why), 0);
    ck_assert_int_eq(hw_opt_set(&o, "colour", "red", why, sizeof why), -1);
    char dir[] = "/tmp/test_hw_XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char path[256];
    snprintf(path, sizeof path, "%s/manifest.yaml", dir);
    FILE *f = fopen(path, "w");
    fputs("suite: s\nhw: { instances: 4096, stress: lines }\ntests:\n  - file: a.litmus\n    "
          "expect: { ptx: Ok }\n",
          f);
    fclose(f);
    suite_manifest m;
    char err[512];
    ck_assert_msg(!suite_manifest_load(path, &m, err, sizeof err), "%s", err);
    ck_assert_int_eq(m.nhw, 2);
    ck_assert_str_eq(m.hw_key[1], "stress");
    char *text = suite_manifest_text(&m);
    ck_assert_ptr_nonnull(strstr(text, "hw: { instances: 4096, stress: lines }\n"));
    free(text);
    suite_manifest_free(&m);
    suite_manifest_check_hw(hw_check_option);
    f = fopen(path, "w");
    fputs("suite: s\nhw: { instances: 4096, stress: often }\ntests:\n", f);
    fclose(f);
    ck_assert_int_eq(suite_manifest_load(path, &m, err, sizeof err), -1);
    ck_assert_msg(
        strstr(
            err,
            "manifest.yaml:2:32: hw: found 'often' for stress, expected none, lines or random") !=
            NULL,
        "%s", err);
    suite_manifest_free(&m);
    unlink(path);
    rmdir(dir);
}
END_TEST

static void add_tests(TCase *tc)
{
    tcase_add_test(tc, mp_both_dialects);
    tcase_add_test(tc, classic_shapes);
    tcase_add_test(tc, dat3m_atomics_map_to_ptx);
    tcase_add_test(tc, predicates_branches_alu);
    tcase_add_test(tc, barrier_counts_whole_warps);
    tcase_add_test(tc, clusters_and_aliases);
    tcase_add_test(tc, texture_loads);
    tcase_add_test(tc, refusals_say_where_and_why);
    tcase_add_test(tc, classification);
    tcase_add_test(tc, options_and_manifest_field);
}

#include "check_main.h"
