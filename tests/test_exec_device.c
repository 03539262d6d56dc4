/* tests/test_exec_device.c — nvcc kernels of issue #25 that the executor refused or got wrong:
 * inlined __int128 division (the carry flag of sub.cc/subc read back by addc), shuffles of
 * __half, __half2 and bf16 (the predefined constant WARP_SZ) and device malloc/free.  Each
 * kernel (tests/kernels/NAME.cu, PTX by tests/kernels/build.sh) runs twice, with the checks off
 * and with every check on (memcheck, racecheck, synccheck, initcheck: no finding on a correct
 * kernel), and its output is compared bit for bit with a C reference written here. */
#include "tests/check_quiet.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "include/ptxexec.h"
#define HX_ZERO_FILL 1
#include "tests/exec_harness.h"

typedef unsigned __int128 u128;
typedef __int128 s128;

static uint64_t rng = 88172645463325252ull;
static uint64_t rnd64(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return rng;
}

/* the checks of the two runs of every kernel */
static const unsigned check_sets[2] = { 0, PTXE_CHECK_ALL };

/* ------------------------------------------------------------------ __int128 */
static u128 wide(unsigned i)
{
    u128 x = (u128)rnd64() << 64 | rnd64();
    switch (i % 6) {
    case 0: return x;
    case 1: return x >> (rnd64() % 128);     /* every magnitude of divisor and dividend */
    case 2: return x >> 64;
    case 3: return (u128)(s128)(int64_t)rnd64() >> (rnd64() % 8);
    case 4: return (u128)((s128)x >> (rnd64() % 128));   /* negative values of every size */
    default: return i % 12 < 6 ? (u128)1 << 127 : ~(u128)0 - (rnd64() % 3);
    }
}

START_TEST(k_int128)
{
    enum { N = 2000 };
    static u128 a[N], b[N], o[8 * N], w[8 * N];
    for (int i = 0; i < N; i++) {
        a[i] = wide((unsigned)i), b[i] = wide((unsigned)i * 7 + 3);
        if (i % 97 == 0) b[i] = 0;
        if (i % 89 == 0) b[i] = ~(u128)0;   /* -1: the signed cases the kernel skips */
        if (i % 83 == 0) b[i] = a[i];
    }
    const u128 min = (u128)1 << 127;
    for (int i = 0; i < N; i++) {
        u128 x = a[i], y = b[i];
        s128 sx = (s128)x, sy = (s128)y;
        u128 *q = w + 8 * i;
        q[0] = y ? x / y : 0;
        q[1] = y ? x % y : 0;
        q[2] = (sy && !(sy == -1 && x == min)) ? (u128)(sx / sy) : 0;
        q[3] = (sy && sy != -1) ? (u128)(sx % sy) : 0;
        q[4] = x * y;
        q[5] = x + y;
        q[6] = x - y + (x < y);
        q[7] = (x >> (unsigned)(y & 127)) ^ (u128)(sx < sy);
    }
    for (int c = 0; c < 2; c++) {
        hx_checks = check_sets[c];
        hx_load("int128.ptx", "int128_math");
        int n = N;
        ptxeDevptr da = dev(a, sizeof a), db = dev(b, sizeof b), dout = dev(NULL, sizeof o);
        void *ar[] = { &da, &db, &dout, &n };
        run((N + 127) / 128, 128, ar);
        get(o, dout, sizeof o);
        for (int i = 0; i < 8 * N; i++)
            ck_assert_msg(o[i] == w[i], "checks 0x%x: output %d of thread %d: got %016llx%016llx, "
                          "want %016llx%016llx", hx_checks, i % 8, i / 8,
                          (unsigned long long)(o[i] >> 64), (unsigned long long)o[i],
                          (unsigned long long)(w[i] >> 64), (unsigned long long)w[i]);
        done();
    }
}
END_TEST

/* integers of magnitude <= 2048 as f16 bits (exact), and back */
static uint16_t int2h(int v)
{
    if (v == 0) return 0;
    uint16_t s = v < 0 ? 0x8000 : 0;
    unsigned a = (unsigned)(v < 0 ? -v : v);
    int e = 31 - __builtin_clz(a);                    /* a = 1.m * 2^e, e <= 11 */
    return (uint16_t)(s | (unsigned)(e + 15) << 10 | ((a << (10 - e)) & 0x3ff));
}
static int h2d_int(uint16_t h)
{
    int e = (h >> 10 & 31) - 15, v = (0x400 | (h & 0x3ff)) >> (10 - e);
    return (h & 0x7fff) == 0 ? 0 : (h & 0x8000) ? -v : v;
}
/* ------------------------------------------------------------------ half and bf16 shuffles */
/* the CUDA semantics of the shuffles (programming guide, "Warp Shuffle Functions") on the 32
 * values v of one warp, written independently of PTX's shfl (width: a power of two <= 32) */
static uint32_t sh_idx(const uint32_t *v, unsigned lane, unsigned src, unsigned width)
{
    return v[lane / width * width + src % width];
}
static uint32_t sh_up(const uint32_t *v, unsigned lane, unsigned delta, unsigned width)
{
    return lane % width < delta ? v[lane] : v[lane - delta];   /* no wrap within the segment */
}
static uint32_t sh_down(const uint32_t *v, unsigned lane, unsigned delta, unsigned width)
{
    return lane % width + delta >= width ? v[lane] : v[lane + delta];
}
static uint32_t sh_xor(const uint32_t *v, unsigned lane, unsigned mask, unsigned width)
{
    unsigned src = lane ^ mask;   /* a later segment gives the own value, an earlier one its */
    return src / width > lane / width ? v[lane] : v[src];
}

/* the 20 outputs of shfl_half (tests/kernels/shfl_half.cu) of one warp */
static void shfl_half_ref(const uint16_t *h, const uint32_t *h2, const uint16_t *b,
                          const uint32_t *b2, unsigned delta, uint16_t (*o)[20], unsigned base)
{
    uint32_t vh[32], vb[32];
    for (unsigned l = 0; l < 32; l++) vh[l] = h[l], vb[l] = b[l];
    int sum_lo = 0, sum_hi = 0;   /* integer-valued halves: every partial sum is exact */
    for (unsigned l = 0; l < 32; l++) {
        sum_lo += (int)h2d_int((uint16_t)h2[l]), sum_hi += (int)h2d_int((uint16_t)(h2[l] >> 16));
    }
    for (unsigned l = 0; l < 32; l++) {
        uint16_t *q = o[l];
        q[0] = (uint16_t)sh_idx(vh, l, delta, 32), q[1] = (uint16_t)sh_up(vh, l, delta, 32);
        q[2] = (uint16_t)sh_down(vh, l, delta, 32), q[3] = (uint16_t)sh_xor(vh, l, delta, 32);
        uint32_t r0 = sh_idx(h2, l, 31 - l, 32), r1 = sh_down(h2, l, delta, 16);
        q[4] = (uint16_t)r0, q[5] = (uint16_t)(r0 >> 16), q[6] = (uint16_t)r1;
        q[7] = (uint16_t)(r1 >> 16);
        q[8] = (uint16_t)sh_idx(vb, l, delta + 1, 32), q[9] = (uint16_t)sh_up(vb, l, delta, 8);
        q[10] = (uint16_t)sh_down(vb, l, delta, 32), q[11] = (uint16_t)sh_xor(vb, l, delta, 16);
        uint32_t s0 = sh_up(b2, l, 1, 32), s1 = sh_xor(b2, l, 5, 32);
        q[12] = (uint16_t)s0, q[13] = (uint16_t)(s0 >> 16), q[14] = (uint16_t)s1;
        q[15] = (uint16_t)(s1 >> 16);
        q[16] = int2h(sum_lo), q[17] = int2h(sum_hi);
        q[18] = (uint16_t)(base + l), q[19] = 0xbeef;
    }
}

START_TEST(k_shfl_half)
{
    enum { N = 128 };
    static uint16_t h[N], b[N], o[N][20], w[N][20];
    static uint32_t h2[N], b2[N];
    for (int i = 0; i < N; i++) {
        h[i] = (uint16_t)rnd64(), b[i] = (uint16_t)rnd64(), b2[i] = (uint32_t)rnd64();
        h2[i] = (uint32_t)int2h((int)(rnd64() % 129) - 64) |
                (uint32_t)int2h((int)(rnd64() % 129) - 64) << 16;
    }
    static const unsigned deltas[] = { 3, 17 };   /* within a segment; past a 16-wide one */
    for (int c = 0; c < 4; c++) {
        unsigned delta = deltas[c / 2];
        for (int k = 0; k < N; k += 32)
            shfl_half_ref(h + k, h2 + k, b + k, b2 + k, delta, w + k, (unsigned)k);
        hx_checks = check_sets[c % 2];
        hx_load("shfl_half.ptx", "shfl_half");
        int dl = (int)delta;
        ptxeDevptr d1 = dev(h, sizeof h), d2 = dev(h2, sizeof h2), d3 = dev(b, sizeof b),
                   d4 = dev(b2, sizeof b2), dout = dev(NULL, sizeof o);
        void *ar[] = { &d1, &d2, &d3, &d4, &dout, &dl };
        run(N / 64, 64, ar);
        get(o, dout, sizeof o);
        for (int i = 0; i < N; i++)
            for (int k = 0; k < 20; k++)
                ck_assert_msg(o[i][k] == w[i][k], "checks 0x%x delta %u: thread %d output %d: "
                              "got 0x%04x, want 0x%04x", hx_checks, delta, i, k, o[i][k], w[i][k]);
        done();
    }
}
END_TEST

/* §4.5.1 WARP_SZ: 32 wherever an integer constant may stand: instruction operands (negated
 * too), array sizes, initialisers */
START_TEST(warp_sz_constant)
{
    static const char text[] =
        ".version 8.4\n.target sm_80\n.address_size 64\n"
        ".global .u32 g[2] = { WARP_SZ, 7 };\n"
        ".visible .entry k(.param .u64 out)\n{\n.reg .b32 %r<8>;\n.reg .b64 %rd<4>;\n"
        ".reg .pred %p1;\n"
        ".shared .u32 s[WARP_SZ];\n"
        "ld.param.u64 %rd1, [out];\nmov.u32 %r1, %tid.x;\nmov.u32 %r2, WARP_SZ;\n"
        "add.u32 %r3, %r1, -WARP_SZ;\nmul.lo.u32 %r4, %r1, WARP_SZ;\n"
        "ld.global.u32 %r5, [g];\nmov.u32 %r6, s;\nsetp.eq.u32 %p1, %r1, 3;\n"
        "@%p1 st.shared.u32 [s+124], %r1;\n"
        "add.u32 %r2, %r2, %r5;\n"
        "mul.wide.u32 %rd2, %r1, 16;\nadd.s64 %rd3, %rd1, %rd2;\n"
        "st.global.v4.u32 [%rd3], {%r2, %r3, %r4, %r1};\nret;\n}\n";
    for (int c = 0; c < 2; c++) {
        ptxeResult r = hx_load_text(text, "warp_sz.ptx", check_sets[c]);
        ck_assert_msg(r == PTXE_SUCCESS, "%s", ptxeGetErrorMessage(C));
        hx_function("k");
        uint32_t o[4][4];
        ptxeDevptr d = dev(NULL, sizeof o);
        void *ar[] = { &d };
        run(1, 4, ar);   /* s+124 is the last element of s[32]: in bounds, or memcheck says */
        get(o, d, sizeof o);
        for (uint32_t t = 0; t < 4; t++) {
            ck_assert_uint_eq(o[t][0], 64);
            ck_assert_uint_eq(o[t][1], t - 32);
            ck_assert_uint_eq(o[t][2], t * 32);
        }
        done();
    }
    /* s has 32 elements: one past them is out of bounds */
    char past[sizeof text];
    memcpy(past, text, sizeof text);
    memcpy(strstr(past, "[s+124]"), "[s+128]", 7);
    ck_assert_int_eq(hx_load_text(past, "warp_sz.ptx", 0), PTXE_SUCCESS);
    hx_function("k");
    ptxeDevptr d = dev(NULL, 256);
    void *ar[] = { &d };
    ck_assert_int_eq(launch(1, 4, ar), PTXE_ERROR_LAUNCH_FAILED);
    ck_assert_ptr_nonnull(strstr(ptxeGetErrorMessage(C), "out-of-bounds shared store"));
    done();
}
END_TEST

static void add_tests(TCase *tc)
{
    tcase_add_test(tc, k_int128);
    tcase_add_test(tc, k_shfl_half);
    tcase_add_test(tc, warp_sz_constant);
}

#include "check_main.h"
