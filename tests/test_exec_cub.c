/* tests/test_exec_cub.c — CUB block and warp primitives (tests/kernels/cub.cu, the CUB headers
 * of nvcc 13): cub::BlockReduce, cub::BlockScan, cub::WarpReduce (whole and logical warps of 16)
 * and cub::BlockRadixSort, bit for bit against C references, with no check and with all four
 * checks (loop index 0 and 1: the same results, no finding). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tests/check_quiet.h"
#include "include/ptxexec.h"
#include "tests/exec_harness.h"

enum { CB = 128, IPT = 4, NB = 3 };
static const unsigned checks_of[2] = { 0, PTXE_CHECK_ALL };

static uint32_t rng = 4242;
static uint32_t rnd(void) { rng = rng * 1664525u + 1013904223u; return rng ^ (rng >> 13); }

static void load(const char *kernel, int i)
{
    hx_checks = checks_of[i];
    hx_load("cub.ptx", kernel);
}

START_TEST(cub_block_reduce)
{
    load("cub_block_reduce", _i);
    int in[NB * CB], out[2 * NB], want[2 * NB];
    for (int k = 0; k < NB * CB; k++) in[k] = (int)(rnd() % 20001) - 10000;
    for (int b = 0; b < NB; b++) {
        int s = 0, m = in[b * CB];
        for (int t = 0; t < CB; t++) {
            s += in[b * CB + t];
            if (in[b * CB + t] > m) m = in[b * CB + t];
        }
        want[2 * b] = s; want[2 * b + 1] = m;
    }
    ptxeDevptr din = dev(in, sizeof in), dout = dev(NULL, sizeof out);
    void *a[] = { &din, &dout };
    run(NB, CB, a);
    get(out, dout, sizeof out);
    CHECK_ARR(out, want, 2 * NB, "%d");
    done();
}
END_TEST

START_TEST(cub_block_scan)
{
    load("cub_block_scan", _i);
    enum { N = NB * CB * IPT };
    int in[N], out[N], want[N], tot[NB], want_tot[NB];
    for (int k = 0; k < N; k++) in[k] = (int)(rnd() % 1000) - 400;
    for (int b = 0; b < NB; b++) {
        int acc = 0;
        for (int k = 0; k < CB * IPT; k++) {
            want[b * CB * IPT + k] = acc;
            acc += in[b * CB * IPT + k];
        }
        want_tot[b] = acc;
    }
    ptxeDevptr din = dev(in, sizeof in), dout = dev(NULL, sizeof out), dt = dev(NULL, sizeof tot);
    void *a[] = { &din, &dout, &dt };
    run(NB, CB, a);
    get(out, dout, sizeof out);
    get(tot, dt, sizeof tot);
    CHECK_ARR(out, want, N, "%d");
    CHECK_ARR(tot, want_tot, NB, "%d");
    done();
}
END_TEST

START_TEST(cub_warp_reduce)
{
    load("cub_warp_reduce", _i);
    enum { N = NB * CB };
    int in[N], sums[N / 32], maxs[N / 16], ws[N / 32], wm[N / 16];
    for (int k = 0; k < N; k++) in[k] = (int)(rnd() % 5000) - 2500;
    for (int w = 0; w < N / 32; w++) {
        ws[w] = 0;
        for (int l = 0; l < 32; l++) ws[w] += in[w * 32 + l];
    }
    for (int h = 0; h < N / 16; h++) {
        wm[h] = in[h * 16];
        for (int l = 1; l < 16; l++) if (in[h * 16 + l] > wm[h]) wm[h] = in[h * 16 + l];
    }
    ptxeDevptr din = dev(in, sizeof in), ds = dev(NULL, sizeof sums), dm = dev(NULL, sizeof maxs);
    void *a[] = { &din, &ds, &dm };
    run(NB, CB, a);
    get(sums, ds, sizeof sums);
    get(maxs, dm, sizeof maxs);
    CHECK_ARR(sums, ws, N / 32, "%d");
    CHECK_ARR(maxs, wm, N / 16, "%d");
    done();
}
END_TEST

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

START_TEST(cub_radix_sort)
{
    load("cub_radix_sort", _i);
    enum { N = NB * CB * IPT };
    uint32_t in[N], out[N], want[N];
    for (int k = 0; k < N; k++) in[k] = k % 7 ? rnd() : rnd() % 16;   /* with duplicates */
    memcpy(want, in, sizeof in);
    for (int b = 0; b < NB; b++) qsort(want + b * CB * IPT, CB * IPT, 4, cmp_u32);
    ptxeDevptr din = dev(in, sizeof in), dout = dev(NULL, sizeof out);
    void *a[] = { &din, &dout };
    run(NB, CB, a);
    get(out, dout, sizeof out);
    CHECK_ARR(out, want, N, "%u");
    done();
}
END_TEST

static void add_tests(TCase *tc)
{
    tcase_add_loop_test(tc, cub_block_reduce, 0, 2);
    tcase_add_loop_test(tc, cub_block_scan, 0, 2);
    tcase_add_loop_test(tc, cub_warp_reduce, 0, 2);
    tcase_add_loop_test(tc, cub_radix_sort, 0, 2);
}
#include "check_main.h"
