/* tests/test_exec_sched.c — the scheduler (exec/sched.c, issue #25): independent thread
 * scheduling, CTAs resident together by occupancy, cooperative launches.  The kernels of
 * tests/kernels/its.cu (nvcc) and its_clang.cu (clang) finish on a Volta or later GPU and
 * livelock when one group of a warp, or one CTA, runs at a time; each is compared bit for bit
 * with a C reference, with no check and with all four checks (loop index 0 and 1), and the same
 * kernels under PTXE_SCHEDULE_LOCKSTEP still livelock (the earlier order is kept).  Also:
 * residency limits (--sm-count), the occupancy estimate, the cooperative launch refusal,
 * %envreg, %smid/%nsmid, the deadlock report, the spin limit and reconvergence. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tests/check_quiet.h"
#include "include/ptxexec.h"
#include "tests/exec_harness.h"
#include "exec/engine.h"   /* the policy point (sched_policy, exec_launch_policy) */

static const unsigned checks_of[2] = { 0, PTXE_CHECK_ALL };

static uint32_t rng = 777;
static uint32_t rnd(void) { rng = rng * 1664525u + 1013904223u; return rng ^ (rng >> 13); }

/* F = kernel of tests/kernels/FILE with the checks of loop index i */
static void load(const char *file, const char *kernel, int i)
{
    hx_checks = checks_of[i];
    hx_load(file, kernel);
}

/* F launched with a schedule, an SM count, a step limit, cooperative or not */
static ptxeResult launch_with(unsigned grid, unsigned block, void **args, ptxeSchedule s,
                              unsigned sms, uint64_t max_steps, int coop)
{
    ptxeLaunchConfig cfg = { .grid = { grid, 1, 1 }, .block = { block, 1, 1 },
                             .max_steps = max_steps, .schedule = s, .sm_count = sms,
                             .cooperative = coop };
    return ptxeLaunchKernel(F, &cfg, args);
}

/* ------------------------------------------------------------------ intra-warp waits */
static void flag_spin(const char *file, const char *kernel, int i)
{
    load(file, kernel, i);
    enum { N = 128 };
    int in[N], out[N], want[N];
    for (int t = 0; t < N; t++) in[t] = (int)(rnd() % 1000) - 500;
    for (int t = 0; t < N; t++)
        want[t] = t % 32 == 0 ? in[t] + in[t + 31] * 3 + 1 : 2 * in[t];
    ptxeDevptr din = dev(in, sizeof in), dout = dev(NULL, sizeof out),
               ddata = dev(NULL, N / 32 * 4), dflags = dev(NULL, N / 32 * 4);
    void *a[] = { &din, &dout, &ddata, &dflags };
    run(2, 64, a);
    get(out, dout, sizeof out);
    CHECK_ARR(out, want, N, "%d");
    /* the volatile load makes the loop a polling loop: lane 0 yields at its first backward
     * branch, not after 1024 (which would take over 3 000 warp-instructions per warp) */
    ptxeLaunchStats st;
    ptxeGetLaunchStats(C, &st);
    ck_assert_msg(st.warp_insns < 600, "%llu warp-instructions",
                  (unsigned long long)st.warp_insns);
    /* the same launch under lockstep: lane 0 spins forever (the earlier order) */
    ptxeMemsetD8(C, dflags, 0, N / 32 * 4);
    ck_assert_int_eq(launch_with(2, 64, a, PTXE_SCHEDULE_LOCKSTEP, 0, 20000, 0),
                     PTXE_ERROR_LAUNCH_TIMEOUT);
    ck_assert_msg(strstr(ptxeGetErrorMessage(C), "lanes 0x00000001"), "%s",
                  ptxeGetErrorMessage(C));
    done();
}
START_TEST(its_flag_spin) { flag_spin("its.ptx", "flag_spin", _i); }
END_TEST
START_TEST(its_flag_spin_clang) { flag_spin("its_clang.ptx", "clang_flag_spin", _i); }
END_TEST

static void cas_lock(const char *file, const char *kernel, int i)
{
    load(file, kernel, i);
    enum { N = 96 };
    int order[N], count = 0, seen[N] = { 0 };
    ptxeDevptr dlock = dev(NULL, 4), dcount = dev(NULL, 4), dorder = dev(NULL, sizeof order);
    void *a[] = { &dlock, &dcount, &dorder };
    run(3, 32, a);
    get(&count, dcount, 4);
    get(order, dorder, sizeof order);
    ck_assert_int_eq(count, N);
    for (int k = 0; k < N; k++) {   /* every thread took the lock once */
        ck_assert_msg(order[k] >= 0 && order[k] < N && !seen[order[k]], "order[%d] = %d", k,
                      order[k]);
        seen[order[k]] = 1;
    }
    ptxeMemsetD8(C, dcount, 0, 4);
    ck_assert_int_eq(launch_with(3, 32, a, PTXE_SCHEDULE_LOCKSTEP, 0, 20000, 0),
                     PTXE_ERROR_LAUNCH_TIMEOUT);
    done();
}
START_TEST(its_cas_lock) { cas_lock("its.ptx", "cas_lock", _i); }
END_TEST
START_TEST(its_cas_lock_clang) { cas_lock("its_clang.ptx", "clang_cas_lock", _i); }
END_TEST

START_TEST(its_nanosleep)
{
    load("its.ptx", "nanosleep_wait", _i);
    enum { N = 128 };
    int in[N], out[N], want[N];
    for (int t = 0; t < N; t++) in[t] = (int)(rnd() % 100);
    for (int t = 0; t < N; t++) {
        int s = 0, l = t % 32;
        for (int k = 0; k < 32; k++) s += in[t / 32 * 32 + k];
        want[t] = l < 16 ? in[t] + s : l == 31 ? s : in[t];
    }
    ptxeDevptr din = dev(in, sizeof in), dout = dev(NULL, sizeof out), dflags = dev(NULL, 16);
    void *a[] = { &din, &dout, &dflags };
    run(1, N, a);
    get(out, dout, sizeof out);
    CHECK_ARR(out, want, N, "%d");
    /* under lockstep nanosleep only ends the warp's turn: the sleeping lanes run again */
    ptxeMemsetD8(C, dflags, 0, 16);
    ck_assert_int_eq(launch_with(1, N, a, PTXE_SCHEDULE_LOCKSTEP, 0, 20000, 0),
                     PTXE_ERROR_LAUNCH_TIMEOUT);
    done();
}
END_TEST

/* ------------------------------------------------------------------ CTAs resident together */
START_TEST(cta_waits_for_later_cta)
{
    load("its.ptx", "later_cta", _i);
    enum { NB = 8 };
    int in[NB], value[NB], want[NB];
    for (int b = 0; b < NB; b++) in[b] = (int)(rnd() % 50);
    for (int b = NB - 1; b >= 0; b--) want[b] = in[b] + (b + 1 < NB ? want[b + 1] * 3 : 0);
    ptxeDevptr din = dev(in, sizeof in), dv = dev(NULL, sizeof value), dr = dev(NULL, NB * 4);
    void *a[] = { &din, &dv, &dr };
    run(NB, 1024, a);
    get(value, dv, sizeof value);
    CHECK_ARR(value, want, NB, "%d");
    ptxeLaunchStats st;
    ptxeGetLaunchStats(C, &st);
    ck_assert_int_eq(st.schedule, PTXE_SCHEDULE_ITS);
    ck_assert_uint_eq(st.resident_ctas, NB);   /* the grid is smaller than an A100 holds */
    ck_assert_uint_eq(st.sm_count, 108);
    /* one SM holds two CTAs of 1024 threads (2048 threads per SM on sm_80): with 4 SMs all 8
     * are resident and the chain completes; with 1 SM the first two wait for CTAs that never
     * start, spinning (a GPU hangs there too) */
    ptxeMemsetD8(C, dr, 0, NB * 4);
    ck_assert_int_eq(launch_with(NB, 1024, a, PTXE_SCHEDULE_DEFAULT, 4, 0, 0), PTXE_SUCCESS);
    ptxeGetLaunchStats(C, &st);
    ck_assert_uint_eq(st.resident_ctas, 8);
    ck_assert_uint_eq(st.sm_count, 4);
    ptxeMemsetD8(C, dr, 0, NB * 4);
    ck_assert_int_eq(launch_with(NB, 1024, a, PTXE_SCHEDULE_DEFAULT, 1, 100000, 0),
                     PTXE_ERROR_LAUNCH_TIMEOUT);
    ptxeGetLaunchStats(C, &st);
    ck_assert_uint_eq(st.resident_ctas, 2);
    const char *m = ptxeGetErrorMessage(C);
    ck_assert_msg(strstr(m, "CTA (0,0,0) warp 0") && strstr(m, "CTA (1,0,0) warp 0") &&
                      !strstr(m, "CTA (2,0,0)"),
                  "%s", m);
    /* lockstep: one CTA at a time, CTA 0 waits forever */
    ptxeMemsetD8(C, dr, 0, NB * 4);
    ck_assert_int_eq(launch_with(NB, 1024, a, PTXE_SCHEDULE_LOCKSTEP, 0, 20000, 0),
                     PTXE_ERROR_LAUNCH_TIMEOUT);
    ptxeGetLaunchStats(C, &st);
    ck_assert_uint_eq(st.resident_ctas, 1);
    done();
}
END_TEST

/* the host memory of the resident CTAs' state is bounded by a quarter of the memory limit:
 * with 4 MiB the 8 CTAs of 1024 threads are not all resident and the chain spins */
START_TEST(memory_bounds_residency)
{
    load("its.ptx", "later_cta", 0);
    enum { NB = 8 };
    int in[NB] = { 1, 2, 3, 4, 5, 6, 7, 8 };
    ptxeDevptr din = dev(in, sizeof in), dv = dev(NULL, NB * 4), dr = dev(NULL, NB * 4);
    void *a[] = { &din, &dv, &dr };
    ptxeLaunchStats st;
    ck_assert_int_eq(ptxeCtxSetMemoryLimit(C, 4u << 20), PTXE_SUCCESS);
    ck_assert_int_eq(launch_with(NB, 1024, a, PTXE_SCHEDULE_ITS, 0, 50000, 0),
                     PTXE_ERROR_LAUNCH_TIMEOUT);
    ptxeGetLaunchStats(C, &st);
    ck_assert_msg(st.resident_ctas >= 1 && st.resident_ctas < NB, "%u resident",
                  st.resident_ctas);
    ptxeMemsetD8(C, dr, 0, NB * 4);
    ck_assert_int_eq(ptxeCtxSetMemoryLimit(C, 1u << 30), PTXE_SUCCESS);
    ck_assert_int_eq(launch_with(NB, 1024, a, PTXE_SCHEDULE_ITS, 0, 0, 0), PTXE_SUCCESS);
    ptxeGetLaunchStats(C, &st);
    ck_assert_uint_eq(st.resident_ctas, NB);
    done();
}
END_TEST

START_TEST(decoupled_lookback_scan)
{
    load("its.ptx", "lookback_scan", _i);
    enum { TILES = 24, N = TILES * 128 };
    int in[N], out[N], want[N];
    for (int k = 0; k < N; k++) in[k] = (int)(rnd() % 200) - 100;
    for (int k = 0; k < N; k++) want[k] = in[k] + (k ? want[k - 1] : 0);
    ptxeDevptr din = dev(in, sizeof in), dout = dev(NULL, sizeof out),
               dst = dev(NULL, TILES * 8), dctr = dev(NULL, 4);
    void *a[] = { &din, &dout, &dst, &dctr };
    run(TILES, 128, a);
    get(out, dout, sizeof out);
    CHECK_ARR(out, want, N, "%d");
    done();
}
END_TEST

/* ------------------------------------------------------------------ cooperative launches */
START_TEST(cooperative_grid_sync)
{
    load("its.ptx", "grid_sync_sum", _i);
    enum { NB = 6, NT = 256, N = NB * NT };
    int in[N], out[N], want[N], total = 0, want_total = 0, sum = 0;
    for (int k = 0; k < N; k++) { in[k] = (int)(rnd() % 1000) - 300; sum += in[k]; }
    for (int k = 0; k < N; k++) { want[k] = in[k] + sum; want_total += want[k]; }
    ptxeDevptr din = dev(in, sizeof in), dp = dev(NULL, NB * 4), dout = dev(NULL, sizeof out),
               dt = dev(NULL, 4);
    void *a[] = { &din, &dp, &dout, &dt };
    ptxeLaunchConfig cfg = { .grid = { NB, 1, 1 }, .block = { NT, 1, 1 } };
    ptxeResult r = ptxeLaunchCooperativeKernel(F, &cfg, a);
    ck_assert_msg(r == PTXE_SUCCESS, "%s", ptxeGetErrorMessage(C));
    no_findings();
    evidence_kernel(F, hx_source);
    get(out, dout, sizeof out);
    get(&total, dt, 4);
    CHECK_ARR(out, want, N, "%d");
    ck_assert_int_eq(total, want_total);
    /* a cooperative grid is resident whole, also under lockstep */
    ck_assert_int_eq(launch_with(NB, NT, a, PTXE_SCHEDULE_LOCKSTEP, 0, 0, 1), PTXE_SUCCESS);
    get(&total, dt, 4);
    ck_assert_int_eq(total, want_total);
    /* without a cooperative launch there is no grid workspace: this_grid().sync() traps */
    ck_assert_int_eq(launch(NB, NT, a), PTXE_ERROR_LAUNCH_FAILED);
    ck_assert_msg(strstr(ptxeGetErrorMessage(C), "trap"), "%s", ptxeGetErrorMessage(C));
    /* as many CTAs as the GPU holds run; one more is refused with the reason */
    int per_sm = 0;
    ck_assert_int_eq(ptxeOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, F, NT, 0),
                     PTXE_SUCCESS);
    ck_assert_int_eq(per_sm, 8);   /* 8 warps per CTA, 64 per SM of sm_80 */
    ptxeDevptr big_in = dev(NULL, 9 * NT * 4), big_out = dev(NULL, 9 * NT * 4),
               big_p = dev(NULL, 9 * 4);
    void *b[] = { &big_in, &big_p, &big_out, &dt };
    ck_assert_int_eq(launch_with(8, NT, b, PTXE_SCHEDULE_DEFAULT, 1, 0, 1), PTXE_SUCCESS);
    ck_assert_int_eq(launch_with(9, NT, b, PTXE_SCHEDULE_DEFAULT, 1, 0, 1),
                     PTXE_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE);
    const char *m = ptxeGetErrorMessage(C);
    ck_assert_msg(strstr(m, "cooperative launch of 9 CTAs, expected at most 8") &&
                      strstr(m, "8 CTAs of 256 threads per SM of sm_80") &&
                      strstr(m, "times 1 SMs"),
                  "%s", m);
    ck_assert_str_eq(ptxeGetErrorName(PTXE_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE),
                     "PTXE_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE");
    done();
}
END_TEST

/* %envreg1:%envreg2 is the grid workspace of a cooperative launch ({ size 8, barrier }), 0
 * otherwise; %nsmid is the SM count, %smid the SM of the CTA */
static const char *sreg_ptx =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry k(.param .u64 out)\n{\n"
    ".reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n"
    "ld.param.u64 %rd1, [out];\n"
    "mov.u32 %r1, %ctaid.x;\nmul.wide.u32 %rd2, %r1, 16;\nadd.s64 %rd3, %rd1, %rd2;\n"
    "mov.u32 %r2, %envreg1;\nmov.u32 %r3, %envreg2;\nmov.u32 %r4, %smid;\n"
    "mov.u32 %r5, %nsmid;\n"
    "st.global.v4.u32 [%rd3], {%r2, %r3, %r4, %r5};\n"
    "ret;\n}\n";

START_TEST(envreg_smid)
{
    ck_assert_int_eq(hx_load_text(sreg_ptx, "sreg.ptx", 0), PTXE_SUCCESS);
    hx_function("k");
    uint32_t o[4][4];
    ptxeDevptr d = dev(NULL, sizeof o);
    void *a[] = { &d };
    ck_assert_int_eq(launch_with(4, 32, a, PTXE_SCHEDULE_DEFAULT, 3, 0, 0), PTXE_SUCCESS);
    get(o, d, sizeof o);
    for (int b = 0; b < 4; b++) {
        ck_assert_uint_eq(o[b][0], 0);   /* no grid workspace */
        ck_assert_uint_eq(o[b][1], 0);
        ck_assert_uint_eq(o[b][3], 3);
        ck_assert_uint_lt(o[b][2], 3);
    }
    ck_assert_uint_ne(o[0][2], o[1][2]);   /* resident together: on different SMs */
    ck_assert_int_eq(launch_with(4, 32, a, PTXE_SCHEDULE_DEFAULT, 3, 0, 1), PTXE_SUCCESS);
    get(o, d, sizeof o);
    uint64_t ws = (uint64_t)o[0][0] << 32 | o[0][1];
    ck_assert_msg(ws != 0 && o[1][0] == o[0][0] && o[3][1] == o[0][1], "workspace 0x%llx",
                  (unsigned long long)ws);
    /* lockstep keeps the earlier values: one SM */
    ck_assert_int_eq(launch_with(4, 32, a, PTXE_SCHEDULE_LOCKSTEP, 0, 0, 0), PTXE_SUCCESS);
    get(o, d, sizeof o);
    ck_assert_uint_eq(o[2][2], 0);
    ck_assert_uint_eq(o[2][3], 1);
    done();
}
END_TEST

/* a kernel reading the 8 bytes %envreg1:2 points to: the workspace's size field is 8 */
START_TEST(cooperative_workspace)
{
    ck_assert_int_eq(hx_load_text(".version 8.0\n.target sm_80\n.address_size 64\n"
                                  ".visible .entry k(.param .u64 out)\n{\n"
                                  ".reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n"
                                  "ld.param.u64 %rd1, [out];\n"
                                  "mov.u32 %r1, %envreg1;\nmov.u32 %r2, %envreg2;\n"
                                  "mov.b64 %rd2, {%r2, %r1};\n"
                                  "ld.global.v2.u32 {%r3, %r4}, [%rd2];\n"
                                  "st.global.v2.u32 [%rd1], {%r3, %r4};\nret;\n}\n",
                                  "ws.ptx", PTXE_CHECK_ALL),
                     PTXE_SUCCESS);
    hx_function("k");
    uint32_t o[2] = { 1, 1 };
    ptxeDevptr d = dev(o, sizeof o);
    void *a[] = { &d };
    ck_assert_int_eq(launch_with(1, 1, a, PTXE_SCHEDULE_DEFAULT, 0, 0, 1), PTXE_SUCCESS);
    no_findings();
    get(o, d, sizeof o);
    ck_assert_uint_eq(o[0], 8);
    ck_assert_uint_eq(o[1], 0);
    done();
}
END_TEST

/* ------------------------------------------------------------------ occupancy */
/* a kernel that keeps `n` 32-bit values live at once (summed at the end) */
static char *live_ptx(int n, const char *directive)
{
    size_t cap = 200 + (size_t)n * 80;
    char *s = malloc(cap), *p = s;
    p += sprintf(p, ".version 8.0\n.target sm_80\n.address_size 64\n"
                    ".visible .entry k(.param .u64 out)%s\n{\n.reg .b32 %%r<%d>;\n"
                    ".reg .b64 %%rd<3>;\nld.param.u64 %%rd1, [out];\n"
                    "ld.global.u32 %%r0, [%%rd1];\n",
                 directive, n + 2);
    for (int k = 1; k < n; k++) p += sprintf(p, "mul.lo.u32 %%r%d, %%r%d, %d;\n", k, k - 1, k + 2);
    for (int k = 1; k < n; k++) p += sprintf(p, "add.u32 %%r0, %%r0, %%r%d;\n", k);
    p += sprintf(p, "st.global.u32 [%%rd1], %%r0;\nret;\n}\n");
    return s;
}

static int occupancy_of(const char *text, int block)
{
    ck_assert_int_eq(hx_load_text(text, "live.ptx", 0), PTXE_SUCCESS);
    hx_function("k");
    int n = -1;
    ck_assert_int_eq(ptxeOccupancyMaxActiveBlocksPerMultiprocessor(&n, F, block, 0),
                     PTXE_SUCCESS);
    return n;
}

START_TEST(occupancy_estimate)
{
    /* 100 values live, the address (2 registers) and 4 reserved: 106 registers, 3584 per warp
     * in units of 256, 18 warps of 64K registers: 2 CTAs of 256 threads on sm_80 */
    char *t = live_ptx(100, "");
    ck_assert_int_eq(occupancy_of(t, 256), 2);
    ptxeLaunchStats st;
    uint32_t v = 1;
    ptxeDevptr d = dev(&v, 4);
    void *a[] = { &d };
    ck_assert_int_eq(launch(1, 32, a), PTXE_SUCCESS);
    ptxeGetLaunchStats(C, &st);
    ck_assert_uint_eq(st.regs, 106);
    done();
    free(t);
    /* .maxnreg 64 bounds it: 2048 registers per warp, 32 warps, 4 CTAs */
    t = live_ptx(100, " .maxnreg 64");
    ck_assert_int_eq(occupancy_of(t, 256), 4);
    done();
    free(t);
    /* a small kernel: bound by warps (64 per SM) then by CTAs per SM (32) */
    t = live_ptx(4, "");
    ck_assert_int_eq(occupancy_of(t, 256), 8);
    done();
    ck_assert_int_eq(occupancy_of(t, 32), 32);
    done();
    free(t);
    /* the corpus against ptxas 13 (`ptxas -arch=sm_80 -v its.ptx`): within 8 registers */
    static const struct { const char *k; unsigned ptxas; } ref[] = {
        { "flag_spin", 14 }, { "cas_lock", 14 }, { "later_cta", 12 }, { "lookback_scan", 18 },
        { "grid_sync_sum", 28 },
    };
    hx_checks = 0;
    for (size_t i = 0; i < sizeof ref / sizeof ref[0]; i++) {
        hx_load("its.ptx", ref[i].k);
        int r = ptxeFuncGetRegisterCount(F);
        ck_assert_msg(r >= (int)ref[i].ptxas - 8 && r <= (int)ref[i].ptxas + 8,
                      "%s: %d registers estimated, ptxas %u", ref[i].k, r, ref[i].ptxas);
        done();
    }
}
END_TEST

/* ------------------------------------------------------------------ reconvergence */
/* lane 0 loops `iters` times while lanes 1..31 wait after the loop; then every lane stores
 * __activemask(): a loop shorter than the spin limit (1024 backward branches) reconverges
 * before it, a longer one is taken for a wait loop and the others go ahead */
static void activemask_after_loop(unsigned iters, ptxeSchedule s, uint32_t want0,
                                  uint32_t want1)
{
    ck_assert_int_eq(hx_load_text(".version 8.0\n.target sm_80\n.address_size 64\n"
                                  ".visible .entry k(.param .u64 out, .param .u32 n)\n{\n"
                                  ".reg .pred %p<3>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<4>;\n"
                                  "ld.param.u64 %rd1, [out];\nld.param.u32 %r5, [n];\n"
                                  "mov.u32 %r1, %laneid;\nmov.u32 %r2, 0;\n"
                                  "setp.ne.u32 %p1, %r1, 0;\n@%p1 bra DONE;\n"
                                  "LOOP:\nadd.u32 %r2, %r2, 1;\n"
                                  "setp.lt.u32 %p2, %r2, %r5;\n@%p2 bra LOOP;\n"
                                  "DONE:\nactivemask.b32 %r3;\n"
                                  "mul.wide.u32 %rd2, %r1, 4;\nadd.s64 %rd3, %rd1, %rd2;\n"
                                  "st.global.u32 [%rd3], %r3;\nret;\n}\n",
                                  "loop.ptx", 0),
                     PTXE_SUCCESS);
    hx_function("k");
    uint32_t o[32];
    ptxeDevptr d = dev(NULL, sizeof o);
    void *a[] = { &d, &iters };
    ck_assert_int_eq(launch_with(1, 32, a, s, 0, 0, 0), PTXE_SUCCESS);
    get(o, d, sizeof o);
    ck_assert_uint_eq(o[0], want0);
    ck_assert_uint_eq(o[1], want1);
    done();
}

START_TEST(spin_limit_reconvergence)
{
    activemask_after_loop(1000, PTXE_SCHEDULE_ITS, 0xffffffffu, 0xffffffffu);
    activemask_after_loop(1500, PTXE_SCHEDULE_ITS, 0x00000001u, 0xfffffffeu);
    activemask_after_loop(1500, PTXE_SCHEDULE_LOCKSTEP, 0xffffffffu, 0xffffffffu);
}
END_TEST

/* lanes 0..15 poll a flag that lane 31 sets after them with a weak load (not a polling
 * instruction: only the spin count makes the loop yield), and their loop body diverges (odd and
 * even lanes count apart, then meet again) every iteration: the count still reaches 1024 */
START_TEST(divergent_spin_yields)
{
    ck_assert_int_eq(hx_load_text(".version 8.0\n.target sm_80\n.address_size 64\n"
                                  ".visible .entry k(.param .u64 out, .param .u64 flag)\n{\n"
                                  ".reg .pred %p<4>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<6>;\n"
                                  "ld.param.u64 %rd1, [out];\nld.param.u64 %rd4, [flag];\n"
                                  "mov.u32 %r1, %laneid;\nmov.u32 %r2, 0;\n"
                                  "setp.ge.u32 %p1, %r1, 16;\n@%p1 bra AFTER;\n"
                                  "LOOP:\nand.b32 %r3, %r1, 1;\nsetp.eq.u32 %p2, %r3, 0;\n"
                                  "@%p2 bra EVEN;\nadd.u32 %r2, %r2, 1;\nbra JOIN;\n"
                                  "EVEN:\nadd.u32 %r2, %r2, 2;\n"
                                  "JOIN:\nld.global.u32 %r4, [%rd4];\n"
                                  "setp.eq.u32 %p3, %r4, 0;\n@%p3 bra LOOP;\n"
                                  "AFTER:\nsetp.ne.u32 %p1, %r1, 31;\n@%p1 bra DONE;\n"
                                  "mov.u32 %r5, 1;\nst.volatile.global.u32 [%rd4], %r5;\n"
                                  "DONE:\nsetp.ne.u32 %p2, %r2, 0;\nselp.u32 %r6, 1, 0, %p2;\n"
                                  "mul.wide.u32 %rd2, %r1, 4;\nadd.s64 %rd3, %rd1, %rd2;\n"
                                  "st.global.u32 [%rd3], %r6;\nret;\n}\n",
                                  "dspin.ptx", 0),
                     PTXE_SUCCESS);
    hx_function("k");
    uint32_t o[32];
    ptxeDevptr d = dev(NULL, sizeof o), fl = dev(NULL, 4);
    void *a[] = { &d, &fl };
    ptxeResult r = launch_with(1, 32, a, PTXE_SCHEDULE_ITS, 0, 1000000, 0);
    ck_assert_msg(r == PTXE_SUCCESS, "%s", ptxeGetErrorMessage(C));
    get(o, d, sizeof o);
    for (int l = 0; l < 32; l++) ck_assert_uint_eq(o[l], l < 16);
    done();
}
END_TEST

/* after a long loop of lane 0 the others reach a .sync.aligned mma first: scheduling
 * independently they wait there for lane 0 (under lockstep lane 0 would come first) */
START_TEST(aligned_mma_waits)
{
    ck_assert_int_eq(hx_load_text(".version 8.0\n.target sm_80\n.address_size 64\n"
                                  ".visible .entry k(.param .u64 out)\n{\n"
                                  ".reg .pred %p<3>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<4>;\n"
                                  ".reg .f64 %fd<8>;\n"
                                  "ld.param.u64 %rd1, [out];\n"
                                  "mov.u32 %r1, %laneid;\nmov.u32 %r2, 0;\n"
                                  "setp.ne.u32 %p1, %r1, 0;\n@%p1 bra DONE;\n"
                                  "LOOP:\nadd.u32 %r2, %r2, 1;\n"
                                  "setp.lt.u32 %p2, %r2, 3000;\n@%p2 bra LOOP;\n"
                                  "DONE:\nmov.f64 %fd1, 0d3FF0000000000000;\n"
                                  "mov.f64 %fd2, 0d4000000000000000;\n"
                                  "mov.f64 %fd3, 0d0000000000000000;\n"
                                  "mov.f64 %fd4, 0d0000000000000000;\n"
                                  "mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 "
                                  "{%fd5, %fd6}, {%fd1}, {%fd2}, {%fd3, %fd4};\n"
                                  "mul.wide.u32 %rd2, %r1, 8;\nadd.s64 %rd3, %rd1, %rd2;\n"
                                  "st.global.f64 [%rd3], %fd5;\nret;\n}\n",
                                  "mma.ptx", 0),
                     PTXE_SUCCESS);
    hx_function("k");
    double o[32];
    ptxeDevptr d = dev(NULL, sizeof o);
    void *a[] = { &d };
    ptxeResult r = launch_with(1, 32, a, PTXE_SCHEDULE_ITS, 0, 0, 0);
    ck_assert_msg(r == PTXE_SUCCESS, "%s", ptxeGetErrorMessage(C));
    get(o, d, sizeof o);
    for (int l = 0; l < 32; l++) ck_assert_msg(o[l] == 8.0, "lane %d: %g", l, o[l]);
    done();
}
END_TEST

/* ------------------------------------------------------------------ deadlocks */
/* every CTA deadlocks at a barrier counting 64 threads whose second warp exited: the report
 * names the barrier and where each waiting thread is, in every resident CTA */
START_TEST(deadlock_names_waiting_threads)
{
    ck_assert_int_eq(hx_load_text(".version 8.0\n.target sm_80\n.address_size 64\n"
                                  ".visible .entry k()\n{\n.reg .pred %p<2>;\n.reg .b32 %r<4>;\n"
                                  "mov.u32 %r1, %tid.x;\nsetp.ge.u32 %p1, %r1, 32;\n"
                                  "@%p1 exit;\nbar.sync 1, 64;\nret;\n}\n",
                                  "dl.ptx", 0),
                     PTXE_SUCCESS);
    hx_function("k");
    ck_assert_int_eq(launch(3, 64, NULL), PTXE_ERROR_LAUNCH_FAILED);
    const char *m = ptxeGetErrorMessage(C);
    ck_assert_msg(strstr(m, "barrier deadlock: 32 of 64 threads arrived") &&
                      strstr(m, "where the threads wait:") &&
                      strstr(m, "CTA (0,0,0) warp 0 lanes 0xffffffff (waiting at a barrier): "
                                "dl.ptx:11: bar.sync 1, 64") &&
                      strstr(m, "CTA (2,0,0) warp 0 lanes 0xffffffff (waiting at a barrier)"),
                  "%s", m);
    done();
}
END_TEST

/* A CTA that takes over an exited CTA's registers reads zeros where it reads before writing
 * (%r1 under a false guard, then stored; later written, so the next CTA would see it): only
 * the registers live at the kernel's entry are zeroed (exec/cta.c), and these are. */
START_TEST(reused_registers_read_zero)
{
    ck_assert_int_eq(hx_load_text(".version 8.0\n.target sm_80\n.address_size 64\n"
                                  ".visible .entry k(.param .u64 out)\n{\n"
                                  ".reg .pred %p<2>;\n.reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n"
                                  "ld.param.u64 %rd1, [out];\nmov.u32 %r2, %ctaid.x;\n"
                                  "setp.eq.u32 %p1, %r2, 12345;\n@%p1 mov.u32 %r1, 7;\n"
                                  "mul.wide.u32 %rd2, %r2, 4;\nadd.s64 %rd3, %rd1, %rd2;\n"
                                  "st.global.u32 [%rd3], %r1;\n"
                                  "add.u32 %r1, %r2, 1000;\nmov.u32 %r3, %r1;\nret;\n}\n",
                                  "zero.ptx", 0),
                     PTXE_SUCCESS);
    hx_function("k");
    uint32_t o[16];
    for (int s = 0; s < 2; s++) {
        ptxeDevptr d = dev(NULL, sizeof o);
        memset(o, 0xff, sizeof o);
        void *a[] = { &d };
        ck_assert_int_eq(launch_with(16, 32, a, s ? PTXE_SCHEDULE_LOCKSTEP : PTXE_SCHEDULE_ITS,
                                     1, 0, 0),
                         PTXE_SUCCESS);
        get(o, d, sizeof o);
        for (int b = 0; b < 16; b++) ck_assert_msg(o[b] == 0, "CTA %d read 0x%x", b, o[b]);
    }
    done();
}
END_TEST

/* The policy point (engine.h's sched_policy, exec_launch_policy), as a model checker would use
 * it: a policy that runs one thread at a time, one instruction per turn, the lowest lane first
 * in each warp, its warps in the rounds of sched_its.  The intra-warp flag wait, the CAS lock
 * and a CUB warp reduction (shuffles: the rendezvous gathers the single threads) give the same
 * results as the default policy. */
static uint32_t one_thread(const sched_policy *p, const warp *w, uint32_t ready,
                           uint32_t runnable)
{
    (void)p; (void)runnable;
    uint32_t g = sched_its.pick_group(&sched_its, w, ready, 0);
    return g & -g;   /* its lowest lane alone */
}

START_TEST(single_thread_policy)
{
    sched_policy one = sched_its;
    one.name = "one thread";
    one.quantum = 1;
    one.pick_group = one_thread;
    load("its.ptx", "flag_spin", 0);
    enum { N = 64 };
    int in[N], out[N], want[N];
    for (int t = 0; t < N; t++) in[t] = t * 7 - 100;
    for (int t = 0; t < N; t++) want[t] = t % 32 == 0 ? in[t] + in[t + 31] * 3 + 1 : 2 * in[t];
    ptxeDevptr din = dev(in, sizeof in), dout = dev(NULL, sizeof out), ddata = dev(NULL, 8),
               dflags = dev(NULL, 8);
    void *a[] = { &din, &dout, &ddata, &dflags };
    ptxeLaunchConfig cfg = { .grid = { 1, 1, 1 }, .block = { N, 1, 1 } };
    ptxeResult r0 = exec_launch_policy(F, &cfg, a, &one);
    ck_assert_msg(r0 == PTXE_SUCCESS, "%s", ptxeGetErrorMessage(C));
    get(out, dout, sizeof out);
    CHECK_ARR(out, want, N, "%d");
    ptxeLaunchStats st;
    ptxeGetLaunchStats(C, &st);
    ck_assert_uint_ge(st.warp_insns, st.thread_insns);   /* one thread per instruction */
    done();
    load("its.ptx", "cas_lock", 0);
    int order[32], count = 0;
    ptxeDevptr dlock = dev(NULL, 4), dcount = dev(NULL, 4), dorder = dev(NULL, sizeof order);
    void *b[] = { &dlock, &dcount, &dorder };
    cfg.block[0] = 32;
    ck_assert_int_eq(exec_launch_policy(F, &cfg, b, &one), PTXE_SUCCESS);
    get(&count, dcount, 4);
    ck_assert_int_eq(count, 32);
    done();
    hx_checks = 0;
    hx_load("cub.ptx", "cub_warp_reduce");
    int v[128], sums[4], maxs[8], ws[4] = { 0 };
    for (int t = 0; t < 128; t++) { v[t] = t * 3 - 50; ws[t / 32] += v[t]; }
    ptxeDevptr dv = dev(v, sizeof v), ds = dev(NULL, sizeof sums), dm = dev(NULL, sizeof maxs);
    void *c[] = { &dv, &ds, &dm };
    cfg.block[0] = 128;
    ck_assert_int_eq(exec_launch_policy(F, &cfg, c, &one), PTXE_SUCCESS);
    get(sums, ds, sizeof sums);
    CHECK_ARR(sums, ws, 4, "%d");
    done();
}
END_TEST

/* the default schedule follows the module's target: lockstep below sm_70 */
START_TEST(default_schedule_by_target)
{
    static const char *tmpl = ".version 7.0\n.target %s\n.address_size 64\n"
                              ".visible .entry k()\n{\nret;\n}\n";
    static const struct { const char *target; ptxeSchedule want; unsigned sms; } c[] = {
        { "sm_60", PTXE_SCHEDULE_LOCKSTEP, 1 }, { "sm_70", PTXE_SCHEDULE_ITS, 80 },
        { "sm_75", PTXE_SCHEDULE_ITS, 40 },     { "sm_90a", PTXE_SCHEDULE_ITS, 132 },
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        char text[256];
        snprintf(text, sizeof text, tmpl, c[i].target);
        ck_assert_int_eq(hx_load_text(text, "t.ptx", 0), PTXE_SUCCESS);
        hx_function("k");
        ck_assert_int_eq(launch(2, 32, NULL), PTXE_SUCCESS);
        ptxeLaunchStats st;
        ptxeGetLaunchStats(C, &st);
        ck_assert_msg(st.schedule == c[i].want && st.sm_count == c[i].sms, "%s: %d %u",
                      c[i].target, st.schedule, st.sm_count);
        done();
    }
}
END_TEST

static void add_tests(TCase *tc)
{
    tcase_add_loop_test(tc, its_flag_spin, 0, 2);
    tcase_add_loop_test(tc, its_flag_spin_clang, 0, 2);
    tcase_add_loop_test(tc, its_cas_lock, 0, 2);
    tcase_add_loop_test(tc, its_cas_lock_clang, 0, 2);
    tcase_add_loop_test(tc, its_nanosleep, 0, 2);
    tcase_add_loop_test(tc, cta_waits_for_later_cta, 0, 2);
    tcase_add_loop_test(tc, decoupled_lookback_scan, 0, 2);
    tcase_add_test(tc, memory_bounds_residency);
    tcase_add_loop_test(tc, cooperative_grid_sync, 0, 2);
    tcase_add_test(tc, envreg_smid);
    tcase_add_test(tc, cooperative_workspace);
    tcase_add_test(tc, occupancy_estimate);
    tcase_add_test(tc, spin_limit_reconvergence);
    tcase_add_test(tc, divergent_spin_yields);
    tcase_add_test(tc, aligned_mma_waits);
    tcase_add_test(tc, deadlock_names_waiting_threads);
    tcase_add_test(tc, reused_registers_read_zero);
    tcase_add_test(tc, default_schedule_by_target);
    tcase_add_test(tc, single_thread_policy);
}
#include "check_main.h"
