/* tests/test_exec_race.c — racecheck by the memory model (issue #25; exec/race.c): the handover
 * kernels of tests/kernels/handover.cu (nvcc 13) run with the checks off and with all four on,
 * their outputs compared bit for bit with a C reference; the correct handovers (libcu++
 * atomic_ref release/acquire at device scope between CTAs, between warps of one CTA, along a
 * chain of CTAs; __threadfence() + volatile flag) give no finding, the buggy ones (block-scoped
 * atomic_ref between CTAs, a flag without fences, a consumer that does not acquire) a race
 * naming both accesses and why they are not ordered; clang_handover (tests/kernels/clang_device.cu,
 * clang 14) is the fenced handover from LLVM.  Inline PTX pins the rules one by one:
 * scopes, fence-fence synchronization, barriers, bar.warp.sync, mixed sizes, atomics. */
#include "tests/check_quiet.h"
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "include/ptxexec.h"
#define HX_ZERO_FILL 1
#include "tests/exec_harness.h"

#define HAS(s, sub) ck_assert_msg(strstr((s), (sub)) != NULL, "no '%s' in:\n%s", (sub), (s))

/* kernel k of handover.ptx on grid x block with every check or none: the outputs (n ints) */
static void handover(const char *k, unsigned grid, unsigned block, unsigned checks, int *out,
                     int n)
{
    hx_checks = checks;
    hx_load("handover.ptx", k);
    ptxeDevptr data = dev(NULL, 4096), flag = dev(NULL, 4096), o = dev(NULL, (size_t)n * 4);
    void *a[] = { &data, &flag, &o };
    ptxeResult r = launch(grid, block, a);
    ck_assert_msg(r == PTXE_SUCCESS, "%s: %s", k, ptxeGetErrorMessage(C));
    evidence_kernel(F, hx_source);
    get(out, o, (size_t)n * 4);
}

/* every finding is a race, and the one whose report has want[0] has every string of want
 * (NULL-ended): that finding */
static const ptxeFinding *one_race(const char *const *want)
{
    const ptxeFinding *hit = NULL;
    ck_assert_int_ge(ptxeGetFindingCount(C), 1);
    for (int i = 0; i < ptxeGetFindingCount(C); i++) {
        const ptxeFinding *f = ptxeGetFinding(C, i);
        ck_assert_uint_eq(f->check, PTXE_CHECK_RACECHECK);
        ck_assert_str_eq(f->kind, "race");
        if (!hit && strstr(f->report, want[0])) hit = f;
    }
    ck_assert_msg(hit != NULL, "no race with '%s'; the first:\n%s", want[0],
                  ptxeGetFinding(C, 0)->report);
    for (int i = 1; want[i]; i++) HAS(hit->report, want[i]);
    return hit;
}

/* a correct handover kernel, with the checks off and all on: the outputs are want[0..n), and
 * there is no finding */
static void correct(const char *k, unsigned grid, unsigned block, const int *want, int n)
{
    int out[64];
    for (int c = 0; c < 2; c++) {
        handover(k, grid, block, c ? PTXE_CHECK_ALL : 0, out, n);
        no_findings();
        CHECK_ARR(out, want, n, "%d");
        done();
    }
}

START_TEST(k_handover_between_ctas)
{
    int w[64];
    for (int t = 0; t < 64; t++) w[t] = t * 7 + 1;
    correct("ref_gpu", 2, 64, w, 64);
}
END_TEST

START_TEST(k_handover_between_warps)
{
    int w[32];
    for (int t = 0; t < 32; t++) w[t] = t + 100;
    correct("ref_warps", 1, 64, w, 32);
}
END_TEST

START_TEST(k_handover_chain)
{
    int w[8], sum = 0;
    for (int b = 0; b < 8; b++) { w[b] = b * 3 + 1 + sum; sum += w[b]; }
    correct("ref_chain", 8, 32, w, 8);
}
END_TEST

START_TEST(k_handover_fenced)
{
    int w[64];
    for (int t = 0; t < 64; t++) w[t] = t * 5 + 3;
    correct("fenced", 2, 64, w, 64);
}
END_TEST

/* thread_scope_block between CTAs: ld.acquire.cta cannot synchronize with st.release.cta of
 * another CTA */
START_TEST(k_handover_cta_scope_bug)
{
    int out[64], w[64];
    for (int t = 0; t < 64; t++) w[t] = t * 7 + 1;
    handover("ref_cta_bug", 2, 64, PTXE_CHECK_RACECHECK, out, 64);
    CHECK_ARR(out, w, 64, "%d");
    /* the data: written before the release, read after the acquire */
    static const char *const data[] = {
        "(ld.global.u32 %r", "Error: Race reported between Write access at ",
        "(st.global.u32 [%rd", ",0,0) in block (0,0,0) and by thread (", ",0,0) in block (1,0,0)",
        "not morally strong: each access is weak",
        "not ordered: the acquire at ", "(ld.acquire.cta.b32 %r3, [%rd2]) is .cta but the threads "
        "are in different CTAs, so it does not synchronize with the release at ",
        "(st.release.cta.b32 [%rd2], %r6)", NULL };
    ck_assert_uint_eq(one_race(data)->count, 64);   /* every thread's read */
    /* the flag itself: the two .cta operations are not morally strong across CTAs (with the
       CTAs resident together, CTA 1's polling read comes before CTA 0's write and after it:
       a race each way, "Read ... and Write" first) */
    static const char *const flag[] = {
        "not morally strong: the earlier access is .cta but the threads are in different CTAs",
        "handover.ptx:186 (st.release.cta.b32 [%rd2], %r6)",
        "handover.ptx:148 (ld.acquire.cta.b32 %r3, [%rd2])", NULL };
    one_race(flag);
    done();
}
END_TEST

/* a buggy handover kernel under all checks: a race with the strings of want (one_race) */
static void buggy(const char *k, const char *const *want)
{
    int out[64];
    handover(k, 2, 64, PTXE_CHECK_ALL, out, 64);
    one_race(want);
    done();
}

START_TEST(k_handover_unfenced_bug)
{
    static const char *const want[] = { "Error: Race reported between Write access at ",
                                        "not ordered: no release-acquire pattern between the two "
                                        "threads", NULL };
    buggy("unfenced_bug", want);
}
END_TEST

START_TEST(k_handover_no_acquire_bug)
{
    static const char *const want[] = { "not ordered: the read at ",
                                        "(ld.volatile.global.u32 %r3, [%rd1]) observed the release "
                                        "at ", "(membar.gl), but it is not an acquire and no fence "
                                        "follows it", NULL };
    buggy("no_acquire_bug", want);
}
END_TEST

/* the same handover compiled by clang 14 (tests/kernels/clang_device.cu): membar.gl fences */
START_TEST(k_handover_clang)
{
    int out[64], w[64];
    for (int t = 0; t < 64; t++) w[t] = t * 9 + 2;
    for (int c = 0; c < 2; c++) {
        hx_checks = c ? PTXE_CHECK_ALL : 0;
        hx_load("clang_device.ptx", "clang_handover");
        ptxeDevptr data = dev(NULL, 4096), flag = dev(NULL, 4096), o = dev(NULL, sizeof out);
        void *a[] = { &data, &flag, &o };
        run(2, 64, a);
        get(out, o, sizeof out);
        CHECK_ARR(out, w, 64, "%d");
        done();
    }
}
END_TEST

/* ------------------------------------------------------------------ the rules, one by one */
/* a kernel k(.param .u64 buf) of body B (%rd1 = buf, %r1 = %tid.x, %r2 = %ctaid.x, %r3 = the
 * shared array sm, %rd2 = buf + 512: a flag) on grid x block, every check on: the findings */
#define RULE_HDR                                                                              \
    ".version 8.4\n.target sm_80\n.address_size 64\n"                                         \
    ".visible .entry k(.param .u64 buf)\n{\n.reg .pred %p<8>;\n.reg .b32 %r<32>;\n"           \
    ".reg .b64 %rd<16>;\n.shared .align 8 .b8 sm[1024];\n"                                    \
    "ld.param.u64 %rd1, [buf];\ncvta.to.global.u64 %rd1, %rd1;\nadd.s64 %rd2, %rd1, 512;\n"   \
    "mov.u32 %r1, %tid.x;\nmov.u32 %r2, %ctaid.x;\nmov.u32 %r3, sm;\n"
static int rule(const char *body, unsigned grid, unsigned block)
{
    char text[4096];
    snprintf(text, sizeof text, "%s%s\nret;\n}\n", RULE_HDR, body);
    snprintf(hx_source, sizeof hx_source, "test_exec_race.c");   /* (evidence: inline PTX) */
    ptxeResult r = hx_load_text(text, "rule.ptx", PTXE_CHECK_ALL);
    ck_assert_msg(r == PTXE_SUCCESS, "%s", ptxeGetErrorMessage(C));
    hx_function("k");
    ptxeDevptr d = dev(NULL, 1024);
    void *a[] = { &d };
    r = launch(grid, block, a);
    ck_assert_msg(r == PTXE_SUCCESS, "%s", ptxeGetErrorMessage(C));
    evidence_kernel(F, hx_source);
    return ptxeGetFindingCount(C);
}
static const char *first(void) { return ptxeGetFinding(C, 0)->report; }

/* §9.7.12.2: bar.warp.sync orders memory among its threads; shfl.sync does not */
START_TEST(rule_warp_sync)
{
    static const char body[] =
        "shl.b32 %r4, %r1, 2;\nadd.u32 %r5, %r3, %r4;\nst.shared.u32 [%r5], %r1;\n"
        "SYNC\nxor.b32 %r7, %r1, 1;\nshl.b32 %r8, %r7, 2;\nadd.u32 %r9, %r3, %r8;\n"
        "ld.shared.u32 %r10, [%r9];\n";
    char b[1024];
    snprintf(b, sizeof b, "%.*sbar.warp.sync -1;%s", (int)(strstr(body, "SYNC") - body), body,
             strstr(body, "SYNC") + 4);
    ck_assert_int_eq(rule(b, 1, 32), 0);
    done();
    snprintf(b, sizeof b, "%.*sshfl.sync.idx.b32 %%r6, %%r1, 0, 31, -1;%s",
             (int)(strstr(body, "SYNC") - body), body, strstr(body, "SYNC") + 4);
    ck_assert_int_eq(rule(b, 1, 32), 1);
    HAS(first(), "(st.shared.u32 [%r5], %r1)");
    HAS(first(), "(ld.shared.u32 %r10, [%r9])");
    HAS(first(), "not ordered: no barrier, fence or release-acquire pair between them");
    done();
}
END_TEST

/* §8.7: strong accesses of scopes that include each other's threads are morally strong */
START_TEST(rule_morally_strong)
{
    static const char relaxed[] = "setp.eq.u32 %%p1, %%r2, 0;\n@%%p1 st.relaxed.gpu.global.u32 "
                                  "[%%rd2], 1;\n@!%%p1 ld.relaxed.%s.global.u32 %%r4, [%%rd2];\n";
    char b[512];
    snprintf(b, sizeof b, relaxed, "gpu");
    ck_assert_int_eq(rule(b, 2, 1), 0);
    done();
    snprintf(b, sizeof b, relaxed, "cta");
    ck_assert_int_eq(rule(b, 2, 1), 1);
    HAS(first(), "not morally strong: the later access is .cta but the threads are in different "
                 "CTAs");
    done();
    /* one of them weak */
    ck_assert_int_eq(rule("setp.eq.u32 %p1, %r2, 0;\n@%p1 st.relaxed.gpu.global.u32 [%rd2], 1;\n"
                          "@!%p1 ld.global.u32 %r4, [%rd2];\n", 2, 1), 1);
    HAS(first(), "not morally strong: the later access is weak");
    done();
    /* atomics of different sizes on the same address: not the same bytes */
    ck_assert_int_eq(rule("setp.eq.u32 %p1, %r2, 0;\n@%p1 atom.global.add.u32 %r4, [%rd2], 1;\n"
                          "@!%p1 atom.global.add.u64 %rd4, [%rd2], 1;\n", 2, 1), 1);
    HAS(first(), "Race reported between Atomic access at ");
    HAS(first(), "not morally strong: the accesses overlap without being the same bytes (4 and "
                 "8 bytes)");
    done();
}
END_TEST

/* §8.8 release and acquire patterns through fences, with their scopes: CTA 0 writes the data,
 * fences (scope P), sets the flag; CTA 1 waits for the flag, fences (scope C), reads */
static int fence_pair(const char *p, const char *c)
{
    char b[1024];
    snprintf(b, sizeof b,
             "setp.eq.u32 %%p1, %%r2, 0;\n@!%%p1 bra CONS;\nst.global.u32 [%%rd1], 7;\n%s\n"
             "st.relaxed.gpu.global.u32 [%%rd2], 1;\nbra END;\n"
             "CONS:\nld.relaxed.gpu.global.u32 %%r4, [%%rd2];\nsetp.eq.u32 %%p2, %%r4, 0;\n"
             "@%%p2 bra CONS;\n%s\nld.global.u32 %%r5, [%%rd1];\nEND:\n", p, c);
    return rule(b, 2, 1);
}

START_TEST(rule_fence_patterns)
{
    ck_assert_int_eq(fence_pair("fence.acq_rel.gpu;", "fence.acq_rel.gpu;"), 0);
    done();
    ck_assert_int_eq(fence_pair("membar.gl;", "fence.sc.sys;"), 0);
    done();
    ck_assert_int_eq(fence_pair("fence.acq_rel.cta;", "fence.acq_rel.gpu;"), 1);
    HAS(first(), "not ordered: the release at rule.ptx:");
    HAS(first(), "(fence.acq_rel.cta) is .cta but the threads are in different CTAs, so it does "
                 "not synchronize with the acquire at rule.ptx:");
    done();
    ck_assert_int_eq(fence_pair("fence.acq_rel.gpu;", "fence.acq_rel.cta;"), 1);
    HAS(first(), "(fence.acq_rel.cta) is .cta but the threads are in different CTAs");
    HAS(first(), "not ordered: the acquire at ");
    done();
    ck_assert_int_eq(fence_pair("fence.acq_rel.gpu;", ""), 1);
    HAS(first(), "(ld.relaxed.gpu.global.u32 %r4, [%rd2]) observed the release at ");
    HAS(first(), "(fence.acq_rel.gpu), but it is not an acquire and no fence follows it");
    done();
    ck_assert_int_eq(fence_pair("fence.proxy.alias;", "fence.acq_rel.gpu;"), 1);   /* no fence */
    done();
}
END_TEST

/* §8.9.4 rule 1 is left out: two fence.sc that only the order of execution relates do not
 * order the accesses around them (another order is as legal) */
START_TEST(rule_fence_sc_order)
{
    ck_assert_int_eq(rule("setp.eq.u32 %p1, %r2, 0;\n@%p1 st.global.u32 [%rd1], 1;\n"
                          "fence.sc.gpu;\n@!%p1 ld.global.u32 %r4, [%rd1];\n", 2, 1), 1);
    done();
}
END_TEST

/* §8.9.2: observation order through atomic read-modify-writes: CTA 0 releases the flag, CTA 1
 * adds to it (relaxed), CTA 2 acquires CTA 1's value and still synchronizes with CTA 0; a plain
 * relaxed store in between breaks the chain */
static int chain(const char *mid)
{
    char b[1024];
    snprintf(b, sizeof b,
             "setp.eq.u32 %%p1, %%r2, 0;\nsetp.eq.u32 %%p2, %%r2, 1;\n@!%%p1 bra C1;\n"
             "st.global.u32 [%%rd1], 7;\nst.release.gpu.global.u32 [%%rd2], 1;\nbra END;\n"
             "C1:\n@!%%p2 bra C2;\nW1:\nld.relaxed.gpu.global.u32 %%r4, [%%rd2];\n"
             "setp.eq.u32 %%p3, %%r4, 0;\n@%%p3 bra W1;\n%s\nbra END;\n"
             "C2:\nld.acquire.gpu.global.u32 %%r5, [%%rd2];\nsetp.lt.u32 %%p4, %%r5, 2;\n"
             "@%%p4 bra C2;\nld.global.u32 %%r6, [%%rd1];\nEND:\n", mid);
    return rule(b, 3, 1);
}
START_TEST(rule_rmw_chain)
{
    ck_assert_int_eq(chain("atom.relaxed.gpu.global.add.u32 %r7, [%rd2], 1;"), 0);
    done();
    ck_assert_int_eq(chain("red.relaxed.gpu.global.add.u32 [%rd2], 1;"), 0);
    done();
    ck_assert_int_eq(chain("st.relaxed.gpu.global.u32 [%rd2], 2;"), 1);
    HAS(first(), "(ld.acquire.gpu.global.u32 %r5, [%rd2]) read the write at ");
    HAS(first(), "(st.relaxed.gpu.global.u32 [%rd2], 2), which is not a release");
    done();
}
END_TEST

/* §8.9.4 rule 2: bar.arrive synchronizes with bar.sync on the same barrier (producer and
 * consumer warps on a named barrier with a thread count) */
START_TEST(rule_named_barrier)
{
    static const char body[] =
        "setp.lt.u32 %%p1, %%r1, 32;\nand.b32 %%r6, %%r1, 31;\nshl.b32 %%r4, %%r6, 2;\n"
        "add.u32 %%r5, %%r3, %%r4;\n@!%%p1 bra CONS;\nst.shared.u32 [%%r5], %%r1;\n"
        "bar.arrive 1, 64;\nbra END;\nCONS:\n%s\nld.shared.u32 %%r7, [%%r5];\nEND:\n";
    char b[1024];
    snprintf(b, sizeof b, body, "bar.sync 1, 64;");
    ck_assert_int_eq(rule(b, 1, 64), 0);
    done();
    snprintf(b, sizeof b, body, "");
    ck_assert_int_eq(rule(b, 1, 64), 1);
    done();
}
END_TEST

/* 40 CTAs each write a partial result, fence and count themselves with a relaxed atomic; the
 * CTA that counts last fences and reads every partial: it acquires all 40 releases through the
 * chain of atomics (more than a location keeps apart: they are joined); without its fence,
 * every read races */
static int last_block(const char *fence)
{
    char b[1024];
    snprintf(b, sizeof b,
             "mul.wide.u32 %%rd3, %%r2, 4;\nadd.s64 %%rd4, %%rd1, %%rd3;\n"
             "st.global.u32 [%%rd4], %%r2;\nfence.acq_rel.gpu;\n"
             "atom.relaxed.gpu.global.add.u32 %%r4, [%%rd2], 1;\nsetp.ne.u32 %%p1, %%r4, 39;\n"
             "@%%p1 bra END;\n%s\nmov.u32 %%r5, 0;\nL:\nmul.wide.u32 %%rd5, %%r5, 4;\n"
             "add.s64 %%rd6, %%rd1, %%rd5;\nld.global.u32 %%r6, [%%rd6];\nadd.u32 %%r5, %%r5, 1;\n"
             "setp.lt.u32 %%p2, %%r5, 40;\n@%%p2 bra L;\nEND:\n", fence);
    return rule(b, 40, 1);
}
/* Resident CTAs reuse the storage of CTAs that exited (sm_count 1: 16 of the 64 CTAs of 128
 * threads at once).  Even CTAs write the upper half of their shared array, odd CTAs read theirs
 * unwritten: racecheck keeps each CTA's shared memory apart by CTA (no race between a CTA and
 * the one that ran before it in the same storage), initcheck clears the storage's written bits
 * when a CTA starts in it (every odd CTA's read is uninitialized).  The lower half is a
 * correct exchange through bar.sync in every CTA. */
START_TEST(rule_reused_storage)
{
    static const char body[] =
        "shl.b32 %r4, %r1, 2;\nadd.u32 %r5, %r3, %r4;\nst.shared.u32 [%r5], %r2;\nbar.sync 0;\n"
        "add.u32 %r6, %r1, 1;\nand.b32 %r6, %r6, 127;\nshl.b32 %r6, %r6, 2;\n"
        "add.u32 %r7, %r3, %r6;\nld.shared.u32 %r8, [%r7];\n"
        "and.b32 %r9, %r2, 1;\nsetp.eq.u32 %p1, %r9, 0;\nadd.u32 %r10, %r5, 512;\n"
        "@%p1 st.shared.u32 [%r10], %r8;\n@!%p1 ld.shared.u32 %r11, [%r10];\n";
    char text[4096];
    snprintf(text, sizeof text, "%s%s\nret;\n}\n", RULE_HDR, body);
    snprintf(hx_source, sizeof hx_source, "test_exec_race.c");
    ptxeResult r = hx_load_text(text, "rule.ptx", PTXE_CHECK_ALL);
    ck_assert_msg(r == PTXE_SUCCESS, "%s", ptxeGetErrorMessage(C));
    hx_function("k");
    ptxeDevptr d = dev(NULL, 1024);
    void *a[] = { &d };
    ptxeLaunchConfig cfg = { .grid = { 64, 1, 1 }, .block = { 128, 1, 1 }, .sm_count = 1,
                             .schedule = PTXE_SCHEDULE_ITS };
    r = ptxeLaunchKernel(F, &cfg, a);
    ck_assert_msg(r == PTXE_SUCCESS, "%s", ptxeGetErrorMessage(C));
    ptxeLaunchStats st;
    ptxeGetLaunchStats(C, &st);
    ck_assert_uint_lt(st.resident_ctas, 64);   /* the storage was reused */
    ck_assert_uint_gt(st.resident_ctas, 1);    /* ... by CTAs resident together */
    ck_assert_int_eq(ptxeGetFindingCount(C), 1);
    const ptxeFinding *f = ptxeGetFinding(C, 0);
    ck_assert_uint_eq(f->check, PTXE_CHECK_INITCHECK);
    ck_assert_uint_eq(f->count, 32 * 128);
    HAS(f->report, "ld.shared.u32 %r11, [%r10])");
    done();
}
END_TEST

START_TEST(rule_many_releasers)
{
    ck_assert_int_eq(last_block("fence.acq_rel.gpu;"), 0);
    done();
    ck_assert_int_eq(last_block(""), 1);
    ck_assert_uint_eq(ptxeGetFinding(C, 0)->count, 39);
    HAS(first(), "(atom.relaxed.gpu.global.add.u32 %r4, [%rd2], 1) observed the release at ");
    HAS(first(), "but it is not an acquire and no fence follows it");
    done();
}
END_TEST

static void add_tests(TCase *tc)
{
    tcase_add_test(tc, k_handover_between_ctas);
    tcase_add_test(tc, k_handover_between_warps);
    tcase_add_test(tc, k_handover_chain);
    tcase_add_test(tc, k_handover_fenced);
    tcase_add_test(tc, k_handover_cta_scope_bug);
    tcase_add_test(tc, k_handover_unfenced_bug);
    tcase_add_test(tc, k_handover_no_acquire_bug);
    tcase_add_test(tc, k_handover_clang);
    tcase_add_test(tc, rule_warp_sync);
    tcase_add_test(tc, rule_morally_strong);
    tcase_add_test(tc, rule_fence_patterns);
    tcase_add_test(tc, rule_fence_sc_order);
    tcase_add_test(tc, rule_rmw_chain);
    tcase_add_test(tc, rule_named_barrier);
    tcase_add_test(tc, rule_many_releasers);
    tcase_add_test(tc, rule_reused_storage);
}

#include "check_main.h"
