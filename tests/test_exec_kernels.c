/* tests/test_exec_kernels.c — the executor's kernel corpus (tests/kernels/NAME.cu compiled to the
 * committed *.ptx by tests/kernels/build.sh): each kernel runs through the public API and its
 * output is compared bit for bit with a C reference written here. */
#include <fenv.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tests/check_quiet.h"
#include "include/ptxexec.h"
/* tests/test_exec_kernels_checks.c includes this file with KERNEL_CHECKS = every check: each
 * correct kernel must then run with no finding (issue #14: no false reports on the corpus) */
#ifndef KERNEL_CHECKS
#define KERNEL_CHECKS 0
#endif
/* under initcheck, memory the kernel may read must be written first (as cudaMemset) */
#define HX_ZERO_FILL KERNEL_CHECKS
#include "tests/exec_harness.h"
#include "tests/video_ref.h"

static uint32_t rng = 12345;
static uint32_t rnd(void) { rng = rng * 1664525u + 1013904223u; return rng ^ (rng >> 13); }

static int load(const char *file, const char *kernel)
{
    hx_checks = KERNEL_CHECKS;
    ptxeResult r = hx_try_load(file);
    if (r == PTXE_ERROR_INVALID_PTX && strstr(ptxeGetErrorMessage(C), "unsupported") &&
        (strstr(file, "half"))) {
        /* f16/bf16 semantics are still being added to ptx/isa.c: report, do not fail */
        fprintf(stderr, "SKIP %s/%s: %s\n", file, kernel, ptxeGetErrorMessage(C));
        return 0;
    }
    ck_assert_msg(r == PTXE_SUCCESS, "%s", ptxeGetErrorMessage(C));
    hx_function(kernel);
    return 1;
}

static float fbits(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

/* ------------------------------------------------------------------ reductions */
START_TEST(k_reduce_shfl)
{
    load("reduce.ptx", "reduce_shfl");
    int n = 5000, x[5000], out = 0, want = 0;
    for (int i = 0; i < n; i++) { x[i] = (int)(rnd() % 2001) - 1000; want += x[i]; }
    ptxeDevptr dx = dev(x, sizeof x), dout = dev(&out, 4);
    void *a[] = { &dx, &dout, &n };
    run((unsigned)(n + 255) / 256, 256, a);
    get(&out, dout, 4);
    ck_assert_int_eq(out, want);
    done();
}
END_TEST

START_TEST(k_reduce_smem)
{
    load("reduce.ptx", "reduce_smem");
    int n = 3000; unsigned x[3000], part[6], want[6] = { 0 };
    for (int i = 0; i < n; i++) { x[i] = rnd(); want[i / 512] += x[i]; }
    ptxeDevptr dx = dev(x, sizeof x), dp = dev(NULL, sizeof part);
    void *a[] = { &dx, &dp, &n };
    run(6, 256, a);
    get(part, dp, sizeof part);
    CHECK_ARR(part, want, 6, "%u");
    done();
}
END_TEST

/* ------------------------------------------------------------------ scans */
START_TEST(k_scan_block)
{
    load("scan.ptx", "scan_block");
    int n = 1000, x[1000], y[1000], want[1000];
    for (int i = 0; i < n; i++) x[i] = (int)(rnd() % 100) - 30;
    for (int i = 0; i < n; i++) want[i] = x[i] + (i % 512 ? want[i - 1] : 0);
    ptxeDevptr dx = dev(x, sizeof x), dy = dev(NULL, sizeof y);
    void *a[] = { &dx, &dy, &n };
    run(2, 512, a);
    get(y, dy, sizeof y);
    CHECK_ARR(y, want, n, "%d");
    done();
}
END_TEST

START_TEST(k_scan_warp)
{
    load("scan.ptx", "scan_warp");
    unsigned x[256], y[256], want[256];
    for (int i = 0; i < 256; i++) { x[i] = rnd(); want[i] = x[i] + (i % 32 ? want[i - 1] : 0); }
    ptxeDevptr dx = dev(x, sizeof x), dy = dev(NULL, sizeof y);
    void *a[] = { &dx, &dy };
    run(2, 128, a);
    get(y, dy, sizeof y);
    CHECK_ARR(y, want, 256, "%u");
    done();
}
END_TEST

/* ------------------------------------------------------------------ histograms */
START_TEST(k_hist_shared)
{
    load("histogram.ptx", "hist_shared");
    int n = 10000;
    unsigned char *d = malloc((size_t)n);
    unsigned bins[256], want[256] = { 0 };
    for (int i = 0; i < n; i++) {
        d[i] = (unsigned char)(rnd() % 7 == 0 ? 42 : rnd());
        want[d[i]]++;
    }
    ptxeDevptr dd = dev(d, (size_t)n), db = dev(NULL, sizeof bins);
    void *a[] = { &dd, &db, &n };
    run(4, 192, a);
    get(bins, db, sizeof bins);
    CHECK_ARR(bins, want, 256, "%u");
    free(d);
    done();
}
END_TEST

START_TEST(k_hist_global)
{
    load("histogram.ptx", "hist_global");
    int n = 3000, nb = 37, d[3000], bins[39] = { 0 }, want[39] = { 0 };
    bins[nb] = want[nb] = INT_MIN; bins[nb + 1] = want[nb + 1] = INT_MAX;
    for (int i = 0; i < n; i++) {
        d[i] = (int)rnd() / 3;
        int v = d[i] % nb; if (v < 0) v += nb;
        want[v]++;
        if (d[i] > want[nb]) want[nb] = d[i];
        if (d[i] < want[nb + 1]) want[nb + 1] = d[i];
    }
    ptxeDevptr dd = dev(d, sizeof d), db = dev(bins, sizeof bins);
    void *a[] = { &dd, &db, &n, &nb };
    run(12, 256, a);
    get(bins, db, sizeof bins);
    CHECK_ARR(bins, want, 39, "%d");
    done();
}
END_TEST

/* ------------------------------------------------------------------ matrix multiply */
START_TEST(k_matmul_i32)
{
    load("matmul.ptx", "matmul_i32");
    int n = 40;
    int *A = malloc(4u * 1600), *B = malloc(4u * 1600), *Cm = malloc(4u * 1600),
        *W = malloc(4u * 1600);
    for (int i = 0; i < n * n; i++) { A[i] = (int)(rnd() % 19) - 9; B[i] = (int)(rnd() % 23) - 11; }
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++) {
            int s = 0;
            for (int k = 0; k < n; k++) s += A[r * n + k] * B[k * n + c];
            W[r * n + c] = s;
        }
    ptxeDevptr da = dev(A, 6400), db = dev(B, 6400), dc = dev(NULL, 6400);
    void *a[] = { &da, &db, &dc, &n };
    run3(3, 3, 1, 16, 16, 1, 0, a);
    get(Cm, dc, 6400);
    CHECK_ARR(Cm, W, n * n, "%d");
    free(A); free(B); free(Cm); free(W);
    done();
}
END_TEST

START_TEST(k_matmul_f32)
{
    load("matmul.ptx", "matmul_f32");
    int n = 48;
    float *A = malloc(4u * 2304), *B = malloc(4u * 2304), *Cm = malloc(4u * 2304),
          *W = malloc(4u * 2304);
    for (int i = 0; i < n * n; i++) {
        A[i] = (float)((int)(rnd() % 2001) - 1000) / 37.0f;
        B[i] = (float)((int)(rnd() % 2001) - 1000) / 91.0f;
    }
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++) {
            float s = 0;
            for (int k = 0; k < n; k++) s = fmaf(A[r * n + k], B[k * n + c], s);
            W[r * n + c] = s;
        }
    ptxeDevptr da = dev(A, 9216), db = dev(B, 9216), dc = dev(NULL, 9216);
    void *a[] = { &da, &db, &dc, &n };
    run3(3, 3, 1, 16, 16, 1, 0, a);
    get(Cm, dc, 9216);
    CHECK_ARR(Cm, W, n * n, "%a");
    free(A); free(B); free(Cm); free(W);
    done();
}
END_TEST

/* ------------------------------------------------------------------ bitonic sort */
static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}
START_TEST(k_bitonic)
{
    load("bitonic.ptx", "bitonic_sort");
    int k[1024], w[1024];
    for (int i = 0; i < 1024; i++) k[i] = w[i] = (int)rnd();
    qsort(w, 1024, 4, cmp_int);
    ptxeDevptr dk = dev(k, sizeof k);
    void *a[] = { &dk };
    run(1, 512, a);
    get(k, dk, sizeof k);
    CHECK_ARR(k, w, 1024, "%d");
    done();
}
END_TEST

/* ------------------------------------------------------------------ 64-bit integers */
static uint64_t brev64(uint64_t v)
{
    uint64_t r = 0;
    for (int i = 0; i < 64; i++) r |= ((v >> i) & 1) << (63 - i);
    return r;
}
START_TEST(k_int64)
{
    load("int64.ptx", "int64_math");
    enum { N = 200 };
    long long a[N], b[N], o[12 * N], w[12 * N];
    for (int i = 0; i < N; i++) {
        a[i] = (long long)(((uint64_t)rnd() << 32) | rnd()) >> (rnd() % 40);
        b[i] = i % 17 == 0 ? 0 : (long long)(((uint64_t)rnd() << 32) | rnd()) >> (rnd() % 60);
        if (b[i] == -1) b[i] = 3;
        if (i == 5) a[i] = LLONG_MIN;
        if (i == 6) b[i] = 1;
    }
    for (int i = 0; i < N; i++) {
        long long x = a[i], y = b[i]; uint64_t ux = (uint64_t)x, uy = (uint64_t)y;
        long long *q = w + 12 * i;
        q[0] = (long long)(ux * uy);
        q[1] = (long long)(((__int128)x * y) >> 64);
        q[2] = (long long)(((unsigned __int128)ux * uy) >> 64);
        q[3] = y ? x / y : 0;
        q[4] = y ? x % y : 0;
        q[5] = uy ? (long long)(ux / uy) : 0;
        q[6] = uy ? (long long)(ux % uy) : 0;
        q[7] = x >> (y & 63);
        q[8] = (long long)((ux >> (uy & 63)) ^ (ux << (uy & 63)));
        q[9] = __builtin_popcountll(ux) + 100 * (ux ? __builtin_clzll(ux) : 64);
        q[10] = (long long)brev64(ux);
        q[11] = (long long)((uint64_t)(x < y ? x : y) + (ux + uy) - (uint64_t)(ux > uy));
    }
    int n = N;
    ptxeDevptr da = dev(a, sizeof a), db = dev(b, sizeof b), dout = dev(NULL, sizeof o);
    void *ar[] = { &da, &db, &dout, &n };
    run(2, 128, ar);
    get(o, dout, sizeof o);
    CHECK_ARR(o, w, 12 * N, "%lld");
    done();
}
END_TEST

/* ------------------------------------------------------------------ recursion, indirect calls */
static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
static long long ack_like(int m, long long n)
{
    return m == 0 ? n + 1 : ack_like(m - 1, n * 3 + m);
}
START_TEST(k_fib_rec)
{
    load("recursion.ptx", "fib_rec");
    int o[96], w[96];
    for (int t = 0; t < 96; t++) w[t] = fib(t % 16) + (int)ack_like(t % 5, t);
    ptxeDevptr d = dev(NULL, sizeof o);
    void *a[] = { &d };
    run(1, 96, a);
    get(o, d, sizeof o);
    CHECK_ARR(o, w, 96, "%d");
    done();
}
END_TEST

START_TEST(k_indirect_call)
{
    load("recursion.ptx", "indirect_call");
    int sel[128], o[128], w[128];
    for (int t = 0; t < 128; t++) {
        sel[t] = (int)(rnd() % 9);
        int s = sel[t] % 3;
        int f1 = s == 0   ? t + 7
                 : s == 1 ? t * 7
                          : t - 7,
            f2 = s == 0   ? 3 + t
                 : s == 1 ? 3 * t
                          : 3 - t;
        w[t] = f1 + f2;
    }
    ptxeDevptr ds = dev(sel, sizeof sel), d = dev(NULL, sizeof o);
    void *a[] = { &ds, &d };
    run(2, 64, a);
    get(o, d, sizeof o);
    CHECK_ARR(o, w, 128, "%d");
    done();
}
END_TEST

/* ------------------------------------------------------------------ dynamic shared memory */
START_TEST(k_dyn_reverse)
{
    load("dynsmem.ptx", "dyn_reverse");
    int n = 300, bd = 128, in[300], o[300], w[300];
    for (int i = 0; i < n; i++) in[i] = (int)rnd();
    for (int g = 0; g < n; g++) {
        int b = g / bd, t = g % bd, j = b * bd + bd - 1 - t;
        w[g] = (j < n ? in[j] : -1) + ((t + 1) % bd) * 3;
    }
    ptxeDevptr di = dev(in, sizeof in), dout = dev(NULL, sizeof o);
    void *a[] = { &di, &dout, &n };
    run3(3, 1, 1, 128, 1, 1, 2 * 128 * 4, a);
    get(o, dout, sizeof o);
    CHECK_ARR(o, w, n, "%d");
    done();
}
END_TEST

/* ------------------------------------------------------------------ multi-dimensional grids */
START_TEST(k_grid3d)
{
    load("grid.ptx", "grid3d_index");
    unsigned gx = 3, gy = 2, gz = 2, bx = 4, by = 2, bz = 3, tpb = 24, tot = 12 * 24;
    unsigned *o = calloc(tot, 4), *w = calloc(tot, 4);
    for (unsigned z = 0; z < gz; z++)
        for (unsigned y = 0; y < gy; y++)
            for (unsigned x = 0; x < gx; x++)
                for (unsigned tz = 0; tz < bz; tz++)
                    for (unsigned ty = 0; ty < by; ty++)
                        for (unsigned tx = 0; tx < bx; tx++) {
                            unsigned lb = (z * gy + y) * gx + x, lt = (tz * by + ty) * bx + tx;
                            w[lb * tpb + lt] = tx | (ty << 4) | (tz << 8) | (x << 12) | (y << 16) |
                                               (z << 20) | ((lt & 31) << 24);
                        }
    ptxeDevptr d = dev(NULL, tot * 4);
    void *a[] = { &d };
    run3(gx, gy, gz, bx, by, bz, 0, a);
    get(o, d, tot * 4);
    CHECK_ARR(o, w, tot, "%u");
    free(o); free(w);
    done();
}
END_TEST

START_TEST(k_transpose)
{
    load("grid.ptx", "transpose");
    int w = 70, h = 45;
    float *in = malloc(4u * 3150), *o = malloc(4u * 3150), *want = malloc(4u * 3150);
    for (int i = 0; i < w * h; i++) in[i] = (float)rnd();
    for (int y = 0; y < h; y++) for (int x = 0; x < w; x++) want[x * h + y] = in[y * w + x];
    ptxeDevptr di = dev(in, 12600), dout = dev(NULL, 12600);
    void *a[] = { &di, &dout, &w, &h };
    run3(3, 2, 1, 32, 8, 1, 0, a);
    get(o, dout, 12600);
    CHECK_ARR(o, want, w * h, "%a");
    free(in); free(o); free(want);
    done();
}
END_TEST

/* ------------------------------------------------------------------ warp primitives */
START_TEST(k_vote)
{
    load("warp.ptx", "vote_ops");
    int x[128]; unsigned o[128], w[128];
    for (int i = 0; i < 128; i++) x[i] = (int)(rnd() % 300) - (i < 32 ? 50 : i < 64 ? 150 : 99);
    for (int wp = 0; wp < 4; wp++) {
        unsigned b = 0; int any = 0, all = 1;
        for (int l = 0; l < 32; l++) {
            int v = x[wp * 32 + l];
            b |= (unsigned)(v > 0) << l;
            any |= v > 100;
            all &= v > -100;
        }
        for (int l = 0; l < 32; l++)
            w[wp * 32 + l] = (unsigned)__builtin_popcount(b) + ((unsigned)any << 8) +
                             ((unsigned)all << 9) + ((b & 1u) << 10);
    }
    ptxeDevptr dx = dev(x, sizeof x), d = dev(NULL, sizeof o);
    void *a[] = { &dx, &d };
    run(2, 64, a);
    get(o, d, sizeof o);
    CHECK_ARR(o, w, 128, "%u");
    done();
}
END_TEST

START_TEST(k_match_redux)
{
    load("warp.ptx", "match_redux");
    unsigned x[64], o[256], w[256];
    for (int i = 0; i < 64; i++) x[i] = rnd() % 5 * 0x01010101u + (i >= 32 ? 7u : 0u);
    for (int wp = 0; wp < 2; wp++) {
        unsigned s = 0, mx = 0, orv = 0;
        for (int l = 0; l < 32; l++) {
            unsigned v = x[wp * 32 + l];
            s += v;
            if (v > mx) mx = v;
            orv |= v;
        }
        for (int l = 0; l < 32; l++) {
            unsigned m = 0;
            for (int k = 0; k < 32; k++) if (x[wp * 32 + k] == x[wp * 32 + l]) m |= 1u << k;
            unsigned *q = w + 4 * (wp * 32 + l);
            q[0] = m; q[1] = s; q[2] = mx; q[3] = orv;
        }
    }
    ptxeDevptr dx = dev(x, sizeof x), d = dev(NULL, sizeof o);
    void *a[] = { &dx, &d };
    run(1, 64, a);
    get(o, d, sizeof o);
    CHECK_ARR(o, w, 256, "0x%x");
    done();
}
END_TEST

START_TEST(k_divergence)
{
    load("warp.ptx", "divergence");
    int x[96], o[96], w[96];
    for (int i = 0; i < 96; i++) {
        x[i] = (int)(rnd() % 1000) + 1;
        int v = x[i], acc = 0;
        if (v & 1) {
            for (int k = 0; k < (v & 15); k++) acc += k * v;
            if (v & 2) acc ^= 0x55;
            else acc -= 7;
        } else {
            int k = v;
            while (k > 1) {
                k = (k & 1) ? 3 * k + 1 : k >> 1;
                acc++;
            }
        }
        w[i] = acc + 32;
    }
    ptxeDevptr dx = dev(x, sizeof x), d = dev(NULL, sizeof o);
    void *a[] = { &dx, &d };
    run(1, 96, a);
    get(o, d, sizeof o);
    CHECK_ARR(o, w, 96, "%d");
    done();
}
END_TEST

/* ------------------------------------------------------------------ atomics */
START_TEST(k_atomic_ops)
{
    load("atomics.ptx", "atomic_ops");
    int n = 700; unsigned x[700], g[10] = { 0, 0, 0xffffffffu, 0, 0, 0, 0, 0, 0, 0 }, w[10];
    memcpy(w, g, sizeof g);
    for (int i = 0; i < n; i++) x[i] = rnd();
    for (int i = 0; i < n; i++) {
        unsigned v = x[i];
        w[0] = w[0] >= 1000u ? 0 : w[0] + 1;
        w[1] = (w[1] == 0 || w[1] > 77u) ? 77u : w[1] - 1;
        if (v < w[2]) w[2] = v;
        w[3] += v & 0xff;
    }
    for (int b = 0; b < 3; b++) {
        unsigned s0 = 0, s1 = 0, s2 = 0xffffffffu, s3 = 0;
        for (int t = 0; t < 256 && b * 256 + t < n; t++) {
            unsigned v = x[b * 256 + t];
            s0 |= v;
            s1 ^= v;
            s2 &= v | 0x10000u;
            if (v > s3) s3 = v;
        }
        w[6] += s0; w[7] += s1; w[8] += s2; w[9] += s3;
    }
    ptxeDevptr dg = dev(g, sizeof g), dx = dev(x, sizeof x);
    void *a[] = { &dg, &dx, &n };
    run(3, 256, a);
    get(g, dg, sizeof g);
    ck_assert_msg(g[4] >= 1 && g[4] <= (unsigned)n, "cas winner %u", g[4]);
    ck_assert_uint_eq(g[5], x[g[4] - 1]);
    w[4] = g[4]; w[5] = g[5];
    CHECK_ARR(g, w, 10, "%u");
    done();
}
END_TEST

START_TEST(k_atomic_cas_float)
{
    load("atomics.ptx", "atomic_cas_float");
    int n = 500; float x[500], acc = 1.5f, want = 1.5f;
    for (int i = 0; i < n; i++) {
        x[i] = (float)(rnd() % 100000) / 7.0f;
        if (x[i] > want) want = x[i];
    }
    ptxeDevptr da = dev(&acc, 4), dx = dev(x, sizeof x);
    void *a[] = { &da, &dx, &n };
    run(4, 128, a);
    get(&acc, da, 4);
    ck_assert_msg(memcmp(&acc, &want, 4) == 0, "got %a want %a", acc, want);
    done();
}
END_TEST

/* ------------------------------------------------------------------ memory spaces */
START_TEST(k_local_array)
{
    load("memory.ptx", "local_array");
    static const int ctab[16] = { 3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3 },
                     garr[4] = { 10, 20, 30, 40 };
    int x[128], o[128], w[128];
    for (int g = 0; g < 128; g++) {
        x[g] = (int)(rnd() % 1000);
        int loc[24], s = 0;
        for (int i = 0; i < 24; i++) loc[i] = x[g] * i + ctab[i & 15];
        for (int i = 0; i < 24; i++) s += loc[(i * 7 + x[g]) % 24];
        w[g] = s + garr[g & 3];
    }
    ptxeDevptr dx = dev(x, sizeof x), d = dev(NULL, sizeof o);
    void *a[] = { &dx, &d };
    run(2, 64, a);
    get(o, d, sizeof o);
    CHECK_ARR(o, w, 128, "%d");
    ptxeDevptr gc; size_t gs; int gv;
    ck_assert_int_eq(ptxeModuleGetGlobal(&gc, &gs, M, "gcounter"), PTXE_SUCCESS);
    ck_assert_uint_eq(gs, 4);
    get(&gv, gc, 4);
    ck_assert_int_eq(gv, 1128);
    done();
}
END_TEST

START_TEST(k_vec_copy)
{
    load("memory.ptx", "vec_copy");
    int in[256], o[256], w[256]; float fi[128], fo[128], fw[128];
    for (int i = 0; i < 256; i++) in[i] = (int)rnd();
    for (int i = 0; i < 128; i++) fi[i] = (float)rnd();
    for (int g = 0; g < 64; g++) {
        int *v = in + 4 * g, *q = w + 4 * g;
        q[0] = v[3];
        q[1] = (int)((unsigned)v[2] + 1);
        q[2] = (int)((unsigned)v[1] * 2);
        q[3] = (int)((unsigned)v[0] - 3);
        fw[2 * g] = fi[2 * g + 1]; fw[2 * g + 1] = fi[2 * g];
    }
    ptxeDevptr a1 = dev(in, sizeof in), a2 = dev(NULL, sizeof o), a3 = dev(fi, sizeof fi),
               a4 = dev(NULL, sizeof fo);
    void *a[] = { &a1, &a2, &a3, &a4 };
    run(2, 32, a);
    get(o, a2, sizeof o); get(fo, a4, sizeof fo);
    CHECK_ARR(o, w, 256, "%d");
    CHECK_ARR(fo, fw, 128, "%a");
    done();
}
END_TEST

START_TEST(k_generic_shared)
{
    load("memory.ptx", "generic_shared");
    int o[256];
    ptxeDevptr d = dev(NULL, sizeof o);
    void *a[] = { &d };
    run(2, 128, a);
    get(o, d, sizeof o);
    for (int i = 0; i < 256; i++) ck_assert_int_eq(o[i], i % 128 + 1000);
    done();
}
END_TEST

/* ------------------------------------------------------------------ floating point */
START_TEST(k_saxpy)
{
    load("fp.ptx", "saxpy");
    int n = 1000; float a = 1.75f, x[1000], y[1000], w[1000];
    for (int i = 0; i < n; i++) {
        x[i] = (float)rnd() / 3e6f;
        y[i] = (float)rnd() / 7e5f;
        w[i] = fmaf(a, x[i], y[i]);
    }
    ptxeDevptr dx = dev(x, sizeof x), dy = dev(y, sizeof y);
    void *ar[] = { &n, &a, &dx, &dy };
    run(4, 256, ar);
    get(y, dy, sizeof y);
    CHECK_ARR(y, w, n, "%a");
    done();
}
END_TEST

START_TEST(k_fp_math)
{
    load("fp.ptx", "fp_math");
    enum { N = 100 };
    float x[N], y[N], o[8 * N], w[8 * N]; double dx[N], dout[3 * N], dw[3 * N];
    for (int i = 0; i < N; i++) {
        x[i] = ((float)rnd() - 2e9f) / 1e7f; y[i] = ((float)rnd() - 2e9f) / 3e8f;
        dx[i] = ((double)rnd() - 2e9) / 1e5;
        if (i == 3) x[i] = fbits(0x7fc00000u);   /* NaN */
        if (i == 4) y[i] = 0.0f;
    }
    for (int i = 0; i < N; i++) {
        volatile float a = x[i], b = y[i];
        float *q = w + 8 * i;
        q[0] = a / b; q[1] = sqrtf(fabsf(a)); q[2] = fminf(a, b); q[3] = fmaxf(a, b);
        fesetround(FE_TOWARDZERO); q[4] = a * b;
        fesetround(FE_UPWARD); q[5] = a + b;
        fesetround(FE_DOWNWARD); q[6] = a / b;
        fesetround(FE_TONEAREST);
        q[7] = copysignf(a - b, b);
        volatile double d = dx[i];
        dw[3 * i] = fma(d, d, 1.0 / (d + 0.5));
        dw[3 * i + 1] = sqrt(fabs(d));
        fesetround(FE_TOWARDZERO); dw[3 * i + 2] = fma(d, 3.0, -d); fesetround(FE_TONEAREST);
    }
    int n = N;
    ptxeDevptr a1 = dev(x, sizeof x), a2 = dev(y, sizeof y), a3 = dev(NULL, sizeof o),
               a4 = dev(dx, sizeof dx), a5 = dev(NULL, sizeof dout);
    void *a[] = { &a1, &a2, &a3, &a4, &a5, &n };
    run(1, 128, a);
    get(o, a3, sizeof o); get(dout, a5, sizeof dout);
    for (int i = 0; i < 8 * N; i++) {
        if (isnan(o[i]) && isnan(w[i])) continue;   /* NaN payloads: PTX gives the canonical NaN */
        ck_assert_msg(memcmp(&o[i], &w[i], 4) == 0, "fp_math[%d] op %d: got %a want %a", i / 8,
                      i % 8, o[i], w[i]);
    }
    CHECK_ARR(dout, dw, 3 * N, "%a");
    done();
}
END_TEST

/* ------------------------------------------------------------------ conversions */
static int64_t f2i(float f, int mode, int64_t lo,
                   int64_t hi) /* cvt.{rni,rzi,rpi,rmi} + saturation, NaN -> 0 (§9.7.8.20) */
{
    if (isnan(f)) return 0;
    double d = mode == 0   ? nearbyint((double)f)
               : mode == 1 ? trunc((double)f)
               : mode == 2 ? ceil((double)f)
                           : floor((double)f);
    if (d <= (double)lo) return lo;
    if (d >= (double)hi) return hi;
    return (int64_t)d;
}
START_TEST(k_cvt_f2i)
{
    load("cvt.ptx", "cvt_f2i");
    enum { N = 64 };
    float x[N];
    int oi[4 * N], wi[4 * N];
    unsigned ou[4 * N], wu[4 * N];
    long long ol[2 * N], wl[2 * N];
    static const uint32_t special[] = { 0x7fc00000u, 0xff800000u, 0x7f800000u, 0x4f000000u,
                                        0xcf000001u, 0x3f000000u, 0xbf000000u, 0x3fc00000u,
                                        0x40200000u, 0xc0200000u, 0x4f800000u, 0x5f000000u,
                                        0xdf000001u, 0x80000000u };
    for (int i = 0; i < N; i++)
        x[i] = i < 14 ? fbits(special[i]) : ((float)rnd() - 2.1e9f) / (float)(1u << (rnd() % 24));
    for (int i = 0; i < N; i++) {
        for (int m = 0; m < 4; m++) {
            wi[4 * i + m] = (int)f2i(x[i], m, INT_MIN, INT_MAX);
            wu[4 * i + m] = (unsigned)f2i(x[i], m, 0, UINT_MAX);
        }
        float f = x[i];
        if (isnan(f)) wl[2 * i] = 0;
        else {
            double d = nearbyint((double)f);
            wl[2 * i] = d <= -9.2233720368547758e18  ? LLONG_MIN
                        : d >= 9.2233720368547758e18 ? LLONG_MAX
                                                     : (long long)d;
        }
        if (isnan(f) || f <= 0) wl[2 * i + 1] = 0;
        else {
            double d = trunc((double)f);
            wl[2 * i + 1] = d >= 1.8446744073709552e19 ? (long long)ULLONG_MAX
                                                       : (long long)(unsigned long long)d;
        }
    }
    int n = N;
    ptxeDevptr a1 = dev(x, sizeof x), a2 = dev(NULL, sizeof oi), a3 = dev(NULL, sizeof ou),
               a4 = dev(NULL, sizeof ol);
    void *a[] = { &a1, &a2, &a3, &a4, &n };
    run(1, 64, a);
    get(oi, a2, sizeof oi); get(ou, a3, sizeof ou); get(ol, a4, sizeof ol);
    for (int i = 0; i < 4 * N; i++)
        ck_assert_msg(oi[i] == wi[i], "s32 x=%a mode %d: got %d want %d", x[i / 4], i % 4, oi[i],
                      wi[i]);
    for (int i = 0; i < 4 * N; i++)
        ck_assert_msg(ou[i] == wu[i], "u32 x=%a mode %d: got %u want %u", x[i / 4], i % 4, ou[i],
                      wu[i]);
    for (int i = 0; i < 2 * N; i++)
        ck_assert_msg(ol[i] == wl[i], "64-bit x=%a op %d: got %lld want %lld", x[i / 2], i % 2,
                      ol[i], wl[i]);
    done();
}
END_TEST

START_TEST(k_cvt_i2f)
{
    load("cvt.ptx", "cvt_i2f");
    enum { N = 64 };
    int x[N]; double d[N]; float o[8 * N], w[8 * N];
    static const int rm[4] = { FE_TONEAREST, FE_TOWARDZERO, FE_UPWARD, FE_DOWNWARD };
    for (int i = 0; i < N; i++) {
        x[i] = i == 0 ? INT_MIN : i == 1 ? INT_MAX : (int)rnd();
        d[i] = i == 2   ? 1e300
               : i == 3 ? -1e-300
               : i == 4 ? NAN
                        : ((double)rnd() - 2.1e9) * 1.0000001 / (double)(1u << (rnd() % 30));
    }
    for (int i = 0; i < N; i++)
        for (int m = 0; m < 4; m++) {
            fesetround(rm[m]);
            volatile int v = x[i]; volatile double e = d[i];
            w[8 * i + m] = (float)v;
            w[8 * i + 4 + m] = (float)e;
            fesetround(FE_TONEAREST);
        }
    int n = N;
    ptxeDevptr a1 = dev(x, sizeof x), a2 = dev(d, sizeof d), a3 = dev(NULL, sizeof o);
    void *a[] = { &a1, &a2, &a3, &n };
    run(1, 64, a);
    get(o, a3, sizeof o);
    for (int i = 0; i < 8 * N; i++) {
        if (isnan(o[i]) && isnan(w[i])) continue;
        ck_assert_msg(memcmp(&o[i], &w[i], 4) == 0, "cvt_i2f[%d] op %d: got %a want %a", i / 8,
                      i % 8, o[i], w[i]);
    }
    done();
}
END_TEST

/* ------------------------------------------------------------------ bit manipulation */
static unsigned brev32(unsigned v)
{
    unsigned r = 0;
    for (int i = 0; i < 32; i++) r |= ((v >> i) & 1) << (31 - i);
    return r;
}
/* ------------------------------------------------------------------ video (§9.7.16) */
/* video.cu: 28 inline-PTX video forms (read back from the .cu source, in order, and decoded by
 * vref_parse of tests/video_ref.h) and nvcc's own __vsadu4 / __vabsdiffu4, on 1000 threads with
 * edge and random operands, against the C reference. */
START_TEST(k_video)
{
    enum { NV = 30, N = 1000 };
    char path[512], line[512];
    snprintf(path, sizeof path, "%s/video.cu", kdir());
    FILE *f = fopen(path, "r");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    static vref forms[NV];
    int nf = 0;
    while (fgets(line, sizeof line, f)) {
        char *q = strstr(line, "V2(\""), *e;
        if (!q) q = strstr(line, "V3(\"");
        if (!q || !(e = strchr(q + 4, '"'))) continue;
        *e = 0;
        ck_assert_int_lt(nf, NV - 2);
        ck_assert_msg(vref_parse(q + 4, &forms[nf]) == 0, "cannot read %s", q + 4);
        nf++;
    }
    fclose(f);
    ck_assert_int_eq(nf, NV - 2);
    if (!load("video.ptx", "video_ops")) return;
    static unsigned a[N], b[N], c[N], o[N * NV];
    uint64_t seed = 0xa4093822299f31d0ull;
    for (int i = 0; i < N; i++)
        a[i] = vref_operand(&seed), b[i] = vref_operand(&seed), c[i] = vref_operand(&seed);
    ptxeDevptr da = dev(a, sizeof a), db = dev(b, sizeof b), dc = dev(c, sizeof c),
               dout = dev(NULL, sizeof o);
    int n = N;
    void *args[] = { &dout, &da, &db, &dc, &n };
    run((N + 127) / 128, 128, args);
    get(o, dout, sizeof o);
    for (int i = 0; i < N; i++) {
        for (int k = 0; k < NV - 2; k++) {
            uint32_t want = vref_eval(&forms[k], a[i], b[i], c[i]);
            ck_assert_msg(o[i * NV + k] == want, "thread %d form %d (%s): 0x%x, want 0x%x", i, k,
                          vref_insns[forms[k].insn].name, o[i * NV + k], want);
        }
        unsigned sad = 0, ad = 0;
        for (int q = 0; q < 4; q++) {
            int x = (int)(a[i] >> (8 * q) & 0xff), y = (int)(b[i] >> (8 * q) & 0xff);
            sad += (unsigned)abs(x - y), ad |= (unsigned)abs(x - y) << (8 * q);
        }
        ck_assert_uint_eq(o[i * NV + NV - 2], sad);
        ck_assert_uint_eq(o[i * NV + NV - 1], ad);
    }
    /* outputs recorded on a GPU by tests/kernels/record_gpu.sh, where it has been run */
    if ((f = gpu_open("video_ops.bin"))) {
        static unsigned g[N * NV];
        ck_assert_uint_eq(fread(g, 1, sizeof g, f), sizeof g);
        fclose(f);
        CHECK_ARR(o, g, N * NV, "0x%x");
    }
    done();
}
END_TEST

/* ------------------------------------------------------------------ warp-level matrix (§9.7.13) */
/* Small integers as .f16 / .bf16 / .tf32 bit patterns (exact). */
static uint32_t f32b(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static uint16_t h16(int v)
{
    if (v == 0) return 0;
    unsigned a = (unsigned)abs(v), e = 0;
    while ((a >> e) > 1) e++;
    return (uint16_t)((v < 0 ? 0x8000u : 0) | (e + 15) << 10 | ((a << (10 - e)) & 0x3ff));
}

/* mma.cu gemm_f16: a 64x32x64 GEMM of small integers through ldmatrix (.x4 for A; .x2 on B^T or
 * .x2.trans on B) and mma.m16n8k16.f32.f16.f16.f32, against the exact C product. */
START_TEST(k_mma_gemm)
{
    enum { M = 64, N = 32, K = 64 };
    static uint16_t A[M * K], B[K * N];
    static int ai[M * K], bi[K * N];
    static float Cv[M * N], want[M * N];
    for (int i = 0; i < M * K; i++) ai[i] = (int)(rnd() % 9) - 4, A[i] = h16(ai[i]);
    for (int i = 0; i < K * N; i++) bi[i] = (int)(rnd() % 9) - 4, B[i] = h16(bi[i]);
    for (int m = 0; m < M; m++)
        for (int n = 0; n < N; n++) {
            int acc = 0;
            for (int k = 0; k < K; k++) acc += ai[m * K + k] * bi[k * N + n];
            want[m * N + n] = (float)acc;
        }
    for (int trans = 0; trans < 2; trans++) {
        if (!load("mma.ptx", "gemm_f16")) return;
        ptxeDevptr da = dev(A, sizeof A), db = dev(B, sizeof B), dc = dev(NULL, sizeof Cv);
        int m = M, n = N, k = K;
        void *args[] = { &da, &db, &dc, &m, &n, &k, &trans };
        run3(N / 8, M / 16, 1, 32, 1, 1, 0, args);
        get(Cv, dc, sizeof Cv);
        CHECK_ARR(Cv, want, M * N, "%g");
        done();
    }
}
END_TEST

/* mma.cu mma_forms: one mma of each form (f16, bf16, tf32, s8 with .satfinite, u8 x s8, s4, u4,
 * b1 .xor.popc and .and.popc) on fragments the kernel builds by the ISA's layout formulas. */
START_TEST(k_mma_forms)
{
    /* form: K, element kind of A and B (0 f16, 1 bf16, 2 tf32, 3 s8, 4 u8, 5 s4, 6 u4, 7 b1),
       float accumulators, satfinite, b1 op (1 xor, 2 and) */
    static const struct { int k, ak, bk, fl, sat, bop; } forms[] = {
        { 16, 0, 0, 1, 0, 0 }, { 16, 1, 1, 1, 0, 0 }, { 8, 2, 2, 1, 0, 0 }, { 8, 1, 1, 1, 0, 0 },
        { 32, 3, 3, 0, 1, 0 }, { 16, 4, 3, 0, 0, 0 }, { 64, 5, 5, 0, 0, 0 }, { 32, 6, 6, 0, 0, 0 },
        { 256, 7, 7, 0, 0, 1 }, { 128, 7, 7, 0, 0, 2 }, { 4, 2, 2, 1, 0, 0 }, { 8, 0, 0, 1, 0, 0 },
    };
    static uint32_t A[16 * 256], B[256 * 8], Cm[128], D[128], want[128];
    static int av[16 * 256], bv[256 * 8];
    for (int f = 0; f < (int)(sizeof forms / sizeof forms[0]); f++) {
        int K = forms[f].k;
        for (int pass = 0; pass < 2; pass++)
            for (int i = 0; i < (pass ? K * 8 : 16 * K); i++) {
                int kind = pass ? forms[f].bk : forms[f].ak, v;
                switch (kind) {
                case 0: case 1: case 2: v = (int)(rnd() % 15) - 7; break;
                case 3: v = (int)(rnd() % 256) - 128; break;
                case 4: v = (int)(rnd() % 256); break;
                case 5: v = (int)(rnd() % 16) - 8; break;
                case 6: v = (int)(rnd() % 16); break;
                default: v = (int)(rnd() & 1); break;
                }
                uint32_t bits = kind == 0 ? h16(v) : kind == 1 ? f32b((float)v) >> 16
                                : kind == 2 ? f32b((float)v) : (uint32_t)v;
                if (pass) bv[i] = v, B[i] = bits;
                else av[i] = v, A[i] = bits;
            }
        for (int i = 0; i < 128; i++) {
            int64_t c = forms[f].sat && i < 8 ? (i & 1 ? INT32_MAX - 5 : INT32_MIN + 5)
                                               : (int64_t)(rnd() % 2001) - 1000;
            Cm[i] = forms[f].fl ? f32b((float)c) : (uint32_t)c;
            int64_t acc = c;
            for (int k = 0; k < K; k++) {
                int a = av[(i / 8) * K + k], b = bv[k * 8 + i % 8];
                acc += forms[f].bop == 1 ? (a ^ b) : a * b;
            }
            if (forms[f].sat) acc = acc > INT32_MAX ? INT32_MAX : acc < INT32_MIN ? INT32_MIN : acc;
            want[i] = forms[f].fl ? f32b((float)acc) : (uint32_t)acc;
        }
        if (!load("mma.ptx", "mma_forms")) return;
        ptxeDevptr da = dev(A, sizeof A), db = dev(B, sizeof B), dc = dev(Cm, sizeof Cm),
                   dd = dev(NULL, sizeof D);
        void *args[] = { &da, &db, &dc, &dd, &f };
        run(1, 32, args);
        get(D, dd, sizeof D);
        for (int i = 0; i < 128; i++)
            ck_assert_msg(D[i] == want[i], "form %d element (%d, %d): 0x%x, want 0x%x", f, i / 8,
                          i % 8, D[i], want[i]);
        done();
    }
}
END_TEST

/* mma.cu mma_f64 (m8n8k4 .f64) and mma_f16acc (m16n8k16 with .f16 accumulators) */
START_TEST(k_mma_f64_f16acc)
{
    double A[32], B[32], Cd[64], D[64], W[64];
    for (int i = 0; i < 32; i++) A[i] = (double)((int)(rnd() % 201) - 100) / 8;
    for (int i = 0; i < 32; i++) B[i] = (double)((int)(rnd() % 201) - 100);
    for (int i = 0; i < 64; i++) Cd[i] = (double)((int)(rnd() % 20001) - 10000);
    for (int i = 0; i < 64; i++) {
        W[i] = Cd[i];
        for (int k = 0; k < 4; k++) W[i] = fma(A[(i / 8) * 4 + k], B[k * 8 + i % 8], W[i]);
    }
    if (!load("mma.ptx", "mma_f64")) return;
    ptxeDevptr da = dev(A, sizeof A), db = dev(B, sizeof B), dc = dev(Cd, sizeof Cd),
               dd = dev(NULL, sizeof D);
    void *args[] = { &da, &db, &dc, &dd };
    run(1, 32, args);
    get(D, dd, sizeof D);
    CHECK_ARR(D, W, 64, "%g");
    done();
    uint16_t Ah[256], Bh[128], Ch[128], Dh[128], Wh[128];
    int ai[256], bi[128];
    for (int i = 0; i < 256; i++) ai[i] = (int)(rnd() % 9) - 4, Ah[i] = h16(ai[i]);
    for (int i = 0; i < 128; i++) bi[i] = (int)(rnd() % 9) - 4, Bh[i] = h16(bi[i]);
    for (int i = 0; i < 128; i++) {
        int c = (int)(rnd() % 201) - 100, acc = c;
        Ch[i] = h16(c);
        for (int k = 0; k < 16; k++) acc += ai[(i / 8) * 16 + k] * bi[k * 8 + i % 8];
        Wh[i] = h16(acc); /* |acc| < 2048: exact in f16 */
    }
    if (!load("mma.ptx", "mma_f16acc")) return;
    da = dev(Ah, sizeof Ah), db = dev(Bh, sizeof Bh), dc = dev(Ch, sizeof Ch),
    dd = dev(NULL, sizeof Dh);
    run(1, 32, args);
    get(Dh, dd, sizeof Dh);
    CHECK_ARR(Dh, Wh, 128, "0x%x");
    done();
}
END_TEST

/* mma.cu matrix_moves: ldmatrix.x4, movmatrix.trans, stmatrix.x4 and stmatrix.x4.trans */
START_TEST(k_matrix_moves)
{
    uint16_t Mx[256], T[64], S[256], ST[256];
    for (int i = 0; i < 256; i++) Mx[i] = (uint16_t)rnd();
    if (!load("mma.ptx", "matrix_moves")) return;
    ptxeDevptr dm = dev(Mx, sizeof Mx), dt = dev(NULL, sizeof T), ds = dev(NULL, sizeof S),
               dst = dev(NULL, sizeof ST);
    void *args[] = { &dm, &dt, &ds, &dst };
    run(1, 32, args);
    get(T, dt, sizeof T);
    get(S, ds, sizeof S);
    get(ST, dst, sizeof ST);
    for (int r = 0; r < 8; r++)
        for (int c = 0; c < 8; c++) ck_assert_uint_eq(T[r * 8 + c], Mx[64 + c * 8 + r]);
    for (int i = 0; i < 256; i++) ck_assert_uint_eq(S[i], Mx[i]);
    for (int m = 0; m < 4; m++)
        for (int r = 0; r < 8; r++)
            for (int c = 0; c < 8; c++)
                ck_assert_uint_eq(ST[m * 64 + r * 8 + c], Mx[m * 64 + c * 8 + r]);
    done();
}
END_TEST

START_TEST(k_bit_ops)
{
    load("bits.ptx", "bit_ops");
    enum { N = 96 };
    unsigned x[N], y[N], o[10 * N], w[10 * N];
    for (int i = 0; i < N; i++) { x[i] = i == 0 ? 0 : rnd(); y[i] = i == 1 ? 0 : rnd(); }
    for (int i = 0; i < N; i++) {
        unsigned a = x[i], b = y[i], *q = w + 10 * i;
        q[0] = brev32(a);
        q[1] = (unsigned)__builtin_popcount(a) | ((unsigned)(b ? __builtin_clz(b) : 32) << 8) |
               ((unsigned)__builtin_ffs((int)a) << 16);
        uint64_t bytes = ((uint64_t)b << 32) | a; unsigned s = b & 0x7777, r = 0;
        for (int k = 0; k < 4; k++)
            r |= (unsigned)((bytes >> (8 * ((s >> (4 * k)) & 7))) & 0xff) << (8 * k);
        q[2] = r;
        q[3] = (unsigned)(((((uint64_t)b << 32) | a) << (b & 31)) >> 32);
        unsigned sh = a < 32 ? a : 32;
        q[4] = (unsigned)((((uint64_t)b << 32) | a) >> sh);
        q[5] = (a >> (b & 31)) & ((1u << (a & 15)) - 1);
        q[6] = (unsigned)(((uint64_t)a * b) >> 32);
        q[7] = (unsigned)(((int64_t)(int)a * (int)b) >> 32);
        q[8] = (unsigned)((int)a > (int)b ? (unsigned)(int)a - (unsigned)(int)b
                                          : (unsigned)(int)b - (unsigned)(int)a) +
               5u;
        q[9] = (a > b ? a - b : b - a) + 7u;
    }
    int n = N;
    ptxeDevptr a1 = dev(x, sizeof x), a2 = dev(y, sizeof y), a3 = dev(NULL, sizeof o);
    void *a[] = { &a1, &a2, &a3, &n };
    run(1, 96, a);
    get(o, a3, sizeof o);
    for (int i = 0; i < 10 * N; i++)
        ck_assert_msg(o[i] == w[i], "bit_ops[%d] op %d (a=0x%x b=0x%x): got 0x%x want 0x%x", i / 10,
                      i % 10, x[i / 10], y[i / 10], o[i], w[i]);
    done();
}
END_TEST

/* ------------------------------------------------------------------ half / bf16 */
static uint16_t d2h(double d)   /* binary64 -> binary16, round to nearest even */
{
    uint16_t s = signbit(d) ? 0x8000 : 0;
    d = fabs(d);
    if (isnan(d)) return 0x7fff;
    if (d >= 65520.0) return s | 0x7c00;
    if (d < ldexp(1, -25)) return d > ldexp(1, -25) ? s | 1 : s;
    int e; double m = frexp(d, &e);   /* d = m * 2^e, m in [0.5,1) */
    int ex = e - 1;                    /* d = 1.x * 2^ex */
    double q = ex < -14 ? ldexp(d, 24) : ldexp(m, 11);   /* integer significand scale */
    double r = nearbyint(q);
    if (ex < -14) return s | (uint16_t)r;
    unsigned sig = (unsigned)r;
    if (sig == 2048) { sig = 1024; ex++; }
    if (ex > 15) return s | 0x7c00;
    return s | (uint16_t)(((unsigned)(ex + 15) << 10) | (sig & 0x3ff));
}
static double h2d(uint16_t h)
{
    int e = (h >> 10) & 31, m = h & 0x3ff;
    double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(m + 1024, e - 25);
    return (h & 0x8000) ? -v : v;
}
static uint16_t d2bf(double d)
{
    float f = (float)d;   /* exact for the values used (few significant bits) */
    uint32_t u; memcpy(&u, &f, 4);
    u += 0x7fff + ((u >> 16) & 1);
    return (uint16_t)(u >> 16);
}
static double bf2d(uint16_t b)
{
    uint32_t u = (uint32_t)b << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

START_TEST(k_half)
{
    if (!load("half.ptx", "half_math")) return;
    enum { N = 64 };
    float x[N], y[N], of[N], wf[N]; uint16_t oh[5 * N], wh[5 * N];
    for (int i = 0; i < N; i++) {
        x[i] = (float)((int)(rnd() % 4001) - 2000) / 128.0f;
        y[i] = (float)((int)(rnd() % 2001) - 1000) / 64.0f;
    }
    for (int i = 0; i < N; i++) {
        uint16_t a = d2h(x[i]), b = d2h(y[i]);
        uint16_t s = d2h(h2d(a) + h2d(b)), p = d2h(h2d(a) * h2d(b)),
                 f = d2h(h2d(a) * h2d(b) + h2d(s));
        wh[5 * i] = s;
        wh[5 * i + 1] = p;
        wh[5 * i + 2] = f;
        wh[5 * i + 3] = d2h(h2d(a) * h2d(b));
        wh[5 * i + 4] = d2h(h2d(b) * h2d(a));
        wf[i] = (float)h2d(f) + (float)h2d(d2h(h2d(a) - h2d(b)));
    }
    int n = N;
    ptxeDevptr a1 = dev(x, sizeof x), a2 = dev(y, sizeof y), a3 = dev(NULL, sizeof oh),
               a4 = dev(NULL, sizeof of);
    void *a[] = { &a1, &a2, &a3, &a4, &n };
    run(1, 64, a);
    get(oh, a3, sizeof oh); get(of, a4, sizeof of);
    CHECK_ARR(oh, wh, 5 * N, "0x%04x");
    CHECK_ARR(of, wf, N, "%a");
    done();
}
END_TEST

START_TEST(k_bf16)
{
    if (!load("half.ptx", "bf16_math")) return;
    enum { N = 64 };
    float x[N], y[N], of[N], wf[N]; uint16_t ob[3 * N], wb[3 * N];
    for (int i = 0; i < N; i++) {
        x[i] = (float)((int)(rnd() % 4001) - 2000) / 16.0f;
        y[i] = (float)((int)(rnd() % 2001) - 1000) / 8.0f;
    }
    for (int i = 0; i < N; i++) {
        uint16_t a = d2bf(x[i]), b = d2bf(y[i]);
        uint16_t s = d2bf(bf2d(a) + bf2d(b)), p = d2bf(bf2d(a) * bf2d(b)),
                 f = d2bf(bf2d(a) * bf2d(b) + bf2d(s));
        wb[3 * i] = s; wb[3 * i + 1] = p; wb[3 * i + 2] = f; wf[i] = (float)bf2d(f);
    }
    int n = N;
    ptxeDevptr a1 = dev(x, sizeof x), a2 = dev(y, sizeof y), a3 = dev(NULL, sizeof ob),
               a4 = dev(NULL, sizeof of);
    void *a[] = { &a1, &a2, &a3, &a4, &n };
    run(1, 64, a);
    get(ob, a3, sizeof ob); get(of, a4, sizeof of);
    CHECK_ARR(ob, wb, 3 * N, "0x%04x");
    CHECK_ARR(of, wf, N, "%a");
    done();
}
END_TEST

/* ------------------------------------------------------------------ clang / LLVM NVPTX */
START_TEST(k_clang_saxpy)
{
    load("clang_kernels.ptx", "clang_saxpy");
    int n = 777; float a = -0.375f, x[777], y[777], w[777];
    for (int i = 0; i < n; i++) {
        x[i] = (float)rnd() / 1e6f;
        y[i] = (float)rnd() / 3e5f;
        w[i] = fmaf(a, x[i], y[i]);
    }
    ptxeDevptr dx = dev(x, sizeof x), dy = dev(y, sizeof y);
    void *ar[] = { &n, &a, &dx, &dy };
    run(7, 128, ar);
    get(y, dy, sizeof y);
    CHECK_ARR(y, w, n, "%a");
    done();
}
END_TEST

START_TEST(k_clang_reduce)
{
    load("clang_kernels.ptx", "clang_reduce");
    int n = 1500, x[1500], out = 0, want = 0;
    for (int i = 0; i < n; i++) {
        x[i] = (int)rnd();
        want = (int)((unsigned)want + (unsigned)x[i]);
    }
    ptxeDevptr dx = dev(x, sizeof x), d = dev(&out, 4);
    void *a[] = { &dx, &d, &n };
    run(6, 256, a);
    get(&out, d, 4);
    ck_assert_int_eq(out, want);
    done();
}
END_TEST

START_TEST(k_clang_collatz)
{
    load("clang_kernels.ptx", "clang_collatz");
    unsigned x[256], y[256], w[256];
    for (int i = 0; i < 256; i++) {
        x[i] = rnd() % 100000 + 1;
        unsigned v = x[i], k = 0;
        while (v > 1) { v = (v & 1) ? 3 * v + 1 : v / 2; k++; }
        w[i] = k;
    }
    ptxeDevptr dx = dev(x, sizeof x), dy = dev(NULL, sizeof y);
    void *a[] = { &dx, &dy };
    run(2, 128, a);
    get(y, dy, sizeof y);
    CHECK_ARR(y, w, 256, "%u");
    done();
}
END_TEST

/* ------------------------------------------------------------------ clusters (sm_90) */
static void run_cl(unsigned g, unsigned b, unsigned cl, unsigned shared, void **args)
{
    ptxeLaunchConfig cfg = { { g, 1, 1 },
                             { b, 1, 1 },
                             { cl, cl ? 1 : 0, cl ? 1 : 0 },
                             shared,
                             0,
                             0,
                             PTXE_SCHEDULE_DEFAULT,
                             0,
                             0 };
    ptxeResult r = ptxeLaunchKernel(F, &cfg, args);
    ck_assert_msg(r == PTXE_SUCCESS, "%s: %s", ptxeGetErrorName(r), ptxeGetErrorMessage(C));
    no_findings();
    evidence_kernel(F, hx_source);
}

START_TEST(k_cluster_ring)
{
    load("cluster.ptx", "cluster_ring");   /* __cluster_dims__(4,1,1): no launch-time cluster */
    enum { G = 8, B = 128 };
    int in[G * B], out[G * B], want[G * B];
    unsigned info[G * 8], winfo[G * 8];
    for (int i = 0; i < G * B; i++) in[i] = (int)(rnd() % 100000) - 50000;
    for (int b = 0; b < G; b++) {
        unsigned rank = (unsigned)b % 4, peer = (rank + 1) % 4, base = (unsigned)b / 4 * 4;
        for (int t = 0; t < B; t++)
            want[b * B + t] = in[(int)(base + peer) * B + (B - 1 - t)] * 3 + (int)peer;
        unsigned *o = winfo + b * 8;
        o[0] = rank;
        o[1] = 4;
        o[2] = rank;
        o[3] = 4;
        o[4] = (unsigned)b / 4;
        o[5] = G / 4;
        o[6] = 1 + 2 * peer;
        o[7] = rank * B;
    }
    ptxeDevptr di = dev(in, sizeof in), dout = dev(NULL, sizeof out),
               dinfo = dev(NULL, sizeof info);
    void *a[] = { &di, &dout, &dinfo };
    run_cl(G, B, 0, 0, a);
    get(out, dout, sizeof out); get(info, dinfo, sizeof info);
    CHECK_ARR(out, want, G * B, "%d");
    CHECK_ARR(info, winfo, G * 8, "%u");
    /* a launch-time cluster shape that contradicts .reqnctapercluster is refused */
    ptxeLaunchConfig cfg = { { G, 1, 1 }, { B, 1, 1 },           { 2, 1, 1 }, 0, 0,
                             0,           PTXE_SCHEDULE_DEFAULT, 0,           0 };
    ck_assert_int_eq(ptxeLaunchKernel(F, &cfg, a), PTXE_ERROR_INVALID_VALUE);
    done();
}
END_TEST

START_TEST(k_cluster_hist)
{
    load("cluster.ptx", "cluster_hist");
    for (unsigned cl = 1; cl <= 8; cl *= 2) {
        int n = 6000, nbins = 256, *d = malloc((size_t)n * 4), bins[256] = { 0 }, want[256] = { 0 };
        for (int i = 0; i < n; i++) {
            d[i] = (int)(rnd() % 300) - 20;
            want[d[i] < 0 ? 0 : d[i] >= nbins ? nbins - 1 : d[i]]++;
        }
        ptxeDevptr dd = dev(d, (size_t)n * 4), db = dev(NULL, sizeof bins);
        void *a[] = { &dd, &n, &nbins, &db };
        run_cl(16, 96, cl, (unsigned)(nbins / (int)cl) * 4, a);
        get(bins, db, sizeof bins);
        CHECK_ARR(bins, want, 256, "%d");
        free(d);
    }
    done();
}
END_TEST

/* ------------------------------------------------------------------ asynchronous copies, mbarriers
 */
START_TEST(k_pipeline_sum)
{
    load("async.ptx", "pipeline_sum");
    enum { G = 3, NT = 5 };
    int in[G * NT * 128], out[G * 128], want[G * 128], nt = NT;
    for (int i = 0; i < G * NT * 128; i++) in[i] = (int)(rnd() % 2000) - 1000;
    for (int b = 0; b < G; b++)
        for (int t = 0; t < 128; t++) {
            int acc = 0;
            for (int i = 0; i < NT; i++) acc += in[(b * NT + i) * 128 + (t + i) % 128] * (i + 1);
            want[b * 128 + t] = acc;
        }
    ptxeDevptr di = dev(in, sizeof in), dout = dev(NULL, sizeof out);
    void *a[] = { &di, &dout, &nt };
    run(G, 128, a);
    get(out, dout, sizeof out);
    CHECK_ARR(out, want, G * 128, "%d");
    done();
}
END_TEST

START_TEST(k_pipeline_zfill)
{
    load("async.ptx", "pipeline_zfill");
    int n = 150, in[150], out[256], want[256];
    for (int i = 0; i < n; i++) in[i] = (int)rnd();
    for (int t = 0; t < 64; t++)
        for (int c = 0; c < 4; c++) {
            int k = (63 - t) * 4 + c;
            want[t * 4 + (3 - c)] = k < n ? in[k] : 0;
        }
    ptxeDevptr di = dev(in, (size_t)n * 4), dout = dev(NULL, sizeof out);
    void *a[] = { &di, &dout, &n };
    run(1, 64, a);
    get(out, dout, sizeof out);
    CHECK_ARR(out, want, 256, "%d");
    done();
}
END_TEST

START_TEST(k_barrier_copy)
{
    load("async.ptx", "barrier_copy");
    enum { G = 2, CH = 4 };
    float in[G * CH * 256], out[G * 256], want[G * 256];
    int ch = CH;
    for (int i = 0; i < G * CH * 256; i++) in[i] = (float)((int)(rnd() % 20001) - 10000) / 64.0f;
    for (int b = 0; b < G; b++)
        for (int t = 0; t < 256; t++) {
            float acc = 0.0f;
            for (int c = 0; c < CH; c++) acc = fmaf(acc, 0.5f, in[(b * CH + c) * 256 + 255 - t]);
            want[b * 256 + t] = acc;
        }
    ptxeDevptr di = dev(in, sizeof in), dout = dev(NULL, sizeof out);
    void *a[] = { &di, &dout, &ch };
    run(G, 256, a);
    get(out, dout, sizeof out);
    CHECK_ARR(out, want, G * 256, "%a");
    done();
}
END_TEST

START_TEST(k_mbar_ring)
{
    load("async.ptx", "mbar_ring");
    enum { G = 2, R = 11 };
    int in[G * R * 96], out[G * 96], want[G * 96], rounds = R;
    for (int i = 0; i < G * R * 96; i++) in[i] = (int)rnd();
    for (int b = 0; b < G; b++)
        for (int c = 0; c < 96; c++) {
            uint32_t acc = 0;
            for (int r = 0; r < R; r++)
                acc = acc * 3u + (uint32_t)in[(b * R + r) * 96 + (c + r) % 96];
            want[b * 96 + c] = (int)acc;
        }
    ptxeDevptr di = dev(in, sizeof in), dout = dev(NULL, sizeof out);
    void *a[] = { &di, &dout, &rounds };
    run(G, 128, a);
    get(out, dout, sizeof out);
    CHECK_ARR(out, want, G * 96, "%d");
    done();
}
END_TEST

START_TEST(k_bulk_copy)
{
    load("bulk.ptx", "bulk_copy");
    enum { G = 2, CH = 3, B = 128 };
    int in[G * CH * 512], out[G * B], want[G * B], ch = CH;
    for (int i = 0; i < G * CH * 512; i++) in[i] = (int)rnd();
    for (int b = 0; b < G; b++)
        for (int t = 0; t < B; t++) {
            uint32_t acc = 0;
            for (int c = 0; c < CH; c++)
                acc = acc * 5u + (uint32_t)in[(b * CH + c) * 512 + (t * 7 + c) % 512];
            want[b * B + t] = (int)acc;
        }
    ptxeDevptr di = dev(in, sizeof in), dout = dev(NULL, sizeof out);
    void *a[] = { &di, &dout, &ch };
    run(G, B, a);
    get(out, dout, sizeof out);
    CHECK_ARR(out, want, G * B, "%d");
    done();
}
END_TEST

/* ------------------------------------------------------------------ fault reports with CUDA lines
 * (-lineinfo) */
static const char *fault_msg(void **a, unsigned g, unsigned b)
{
    ptxeLaunchConfig cfg = { { g, 1, 1 }, { b, 1, 1 },           { 0, 0, 0 }, 0, 0,
                             0,           PTXE_SCHEDULE_DEFAULT, 0,           0 };
    ck_assert_int_eq(ptxeLaunchKernel(F, &cfg, a), PTXE_ERROR_LAUNCH_FAILED);
    evidence_kernel(F, hx_source);
    return ptxeGetErrorMessage(C);
}

START_TEST(k_fault_lineinfo)
{
    load("faults.ptx", "oob_store");
    ptxeDevptr d = dev(NULL, 64 * 4);
    int n = 10;
    void *a1[] = { &d, &n };
    const char *m = fault_msg(a1, 2, 32);
    ck_assert_msg(strstr(m, "out-of-bounds global store of 4 bytes") &&
                      strstr(m, "thread (22,0,0) of CTA (1,0,0)") && strstr(m, "faults.cu:7\n"),
                  "%s", m);
    done();
    load("faults.ptx", "trap_on");
    int in[32], bad = 1234;
    for (int i = 0; i < 32; i++) in[i] = i == 17 ? bad : i;
    ptxeDevptr di = dev(in, sizeof in), dout = dev(NULL, sizeof in);
    void *a2[] = { &di, &dout, &bad };
    m = fault_msg(a2, 1, 32);
    ck_assert_msg(strstr(m, "trap instruction executed") && strstr(m, "thread (17,0,0)") &&
                      strstr(m, "faults.cu:13\n"),
                  "%s", m);
    done();
    load("faults.ptx", "wild_ptr");
    d = dev(NULL, 32 * 4);
    long long addr = 0x1234;
    void *a3[] = { &d, &addr };
    m = fault_msg(a3, 1, 32);
    ck_assert_msg(strstr(m, "out-of-bounds global load of 4 bytes at address 0x1234") &&
                      strstr(m, "faults.cu:20\n"),
                  "%s", m);
    done();
}
END_TEST

static void add_tests(TCase *tc)
{
    tcase_add_test(tc, k_reduce_shfl); tcase_add_test(tc, k_reduce_smem);
    tcase_add_test(tc, k_scan_block); tcase_add_test(tc, k_scan_warp);
    tcase_add_test(tc, k_hist_shared); tcase_add_test(tc, k_hist_global);
    tcase_add_test(tc, k_matmul_i32); tcase_add_test(tc, k_matmul_f32);
    tcase_add_test(tc, k_bitonic); tcase_add_test(tc, k_int64);
    tcase_add_test(tc, k_fib_rec); tcase_add_test(tc, k_indirect_call);
    tcase_add_test(tc, k_dyn_reverse);
    tcase_add_test(tc, k_grid3d);
    tcase_add_test(tc, k_transpose);
    tcase_add_test(tc, k_vote); tcase_add_test(tc, k_match_redux); tcase_add_test(tc, k_divergence);
    tcase_add_test(tc, k_atomic_ops); tcase_add_test(tc, k_atomic_cas_float);
    tcase_add_test(tc, k_local_array);
    tcase_add_test(tc, k_vec_copy);
    tcase_add_test(tc, k_generic_shared);
    tcase_add_test(tc, k_saxpy); tcase_add_test(tc, k_fp_math);
    tcase_add_test(tc, k_cvt_f2i); tcase_add_test(tc, k_cvt_i2f);
    tcase_add_test(tc, k_video);
    tcase_add_test(tc, k_mma_gemm);
    tcase_add_test(tc, k_mma_forms);
    tcase_add_test(tc, k_mma_f64_f16acc);
    tcase_add_test(tc, k_matrix_moves);
    tcase_add_test(tc, k_bit_ops); tcase_add_test(tc, k_half); tcase_add_test(tc, k_bf16);
    tcase_add_test(tc, k_cluster_ring); tcase_add_test(tc, k_cluster_hist);
    tcase_add_test(tc, k_pipeline_sum);
    tcase_add_test(tc, k_pipeline_zfill);
    tcase_add_test(tc, k_barrier_copy);
    tcase_add_test(tc, k_mbar_ring);
    tcase_add_test(tc, k_bulk_copy);
    tcase_add_test(tc, k_fault_lineinfo);
    tcase_add_test(tc, k_clang_saxpy);
    tcase_add_test(tc, k_clang_reduce);
    tcase_add_test(tc, k_clang_collatz);
}

#include "check_main.h"
