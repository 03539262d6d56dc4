/* tests/test_exec_device.c — kernels of issue #25 that the executor refused or got wrong:
 * inlined __int128 division (the carry flag of sub.cc/subc read back by addc), shuffles of
 * __half, __half2 and bf16 (the predefined constant WARP_SZ) and device malloc/free.  Each
 * kernel (tests/kernels/NAME.cu, PTX by tests/kernels/build.sh: nvcc 13, and clang 14 for
 * clang_device.cu's malloc) runs twice, with the checks off and with every check on
 * (memcheck, racecheck, synccheck, initcheck: no finding on a correct kernel), and its output
 * is compared bit for bit with a C reference written here. */
#include "tests/check_quiet.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "include/ptxexec.h"
#define HX_ZERO_FILL 1
#include "tests/exec_harness.h"

#define RAND64_SEED 88172645463325252ull
#include "tests/rand64.h"

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
        snprintf(hx_source, sizeof hx_source, "test_exec_device.c");   /* (evidence) */
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

/* ------------------------------------------------------------------ device malloc / free */
START_TEST(k_heap_lists)
{
    enum { T = 128, B = 64 };
    static int n[T];
    static long long o[3 * T], w[3 * T];
    for (int t = 0; t < T; t++) n[t] = 1 + (int)(rnd64() % 200);
    n[77] = 3 << 20;   /* 12 MiB: more than the 8 MiB heap, malloc returns NULL */
    for (int t = 0; t < T; t++) {
        w[3 * t] = t == 77 ? -1 : (long long)(t + 1) * n[t] * (n[t] - 1) / 2;
        long long ws = 0;
        for (int i = t / 32 * 32; i < t / 32 * 32 + 32; i++) ws += 3 * i;
        w[3 * t + 1] = t % 32 ? 0 : ws;
        w[3 * t + 2] = t / B * B + (t % B + 1) % B;
    }
    for (int c = 0; c < 2; c++) {
        hx_checks = check_sets[c];
        hx_load("malloc.ptx", "heap_lists");
        ck_assert_uint_eq(ptxeCtxGetMallocHeapSize(C), 8u << 20);
        ptxeDevptr dn = dev(n, sizeof n), dout = dev(NULL, sizeof o);
        void *ar[] = { &dn, &dout };
        run(T / B, B, ar);   /* no finding: every block freed, no access outside one */
        get(o, dout, sizeof o);
        CHECK_ARR(o, w, 3 * T, "%lld");
        /* the launch's blocks are released: device memory is back to the two buffers */
        ck_assert_uint_eq(ptxeCtxGetMemoryUsed(C), sizeof n + sizeof o);
        done();
    }
}
END_TEST

/* how many blocks of `bytes` fit in a heap of `heap` bytes (each rounded up to 16) */
static int heap_fill(size_t heap, unsigned long long bytes, unsigned checks)
{
    enum { T = 256 };
    int got[T], sum = 0;
    hx_checks = checks;
    hx_load("malloc.ptx", "heap_fill");
    if (heap != (size_t)-1) ck_assert_int_eq(ptxeCtxSetMallocHeapSize(C, heap), PTXE_SUCCESS);
    ptxeDevptr d = dev(NULL, sizeof got);
    void *ar[] = { &bytes, &d };
    for (int k = 0; k < 2; k++) {   /* twice: the second launch has the whole heap again */
        run(1, T, ar);
        get(got, d, sizeof got);
        int s = 0;
        for (int t = 0; t < T; t++) s += got[t];
        ck_assert_int_eq(k ? sum : s, s);
        sum = s;
    }
    done();
    return sum;
}

START_TEST(k_heap_fill)
{
    for (int c = 0; c < 2; c++) {
        ck_assert_int_eq(heap_fill((size_t)-1, 100000, check_sets[c]), 83);   /* 8 MiB / 100000 */
        ck_assert_int_eq(heap_fill(65536, 1000, check_sets[c]), 65);   /* 1008-byte blocks */
        ck_assert_int_eq(heap_fill(65536, 1024, check_sets[c]), 64);
        ck_assert_int_eq(heap_fill(0, 1, check_sets[c]), 0);
        ck_assert_int_eq(heap_fill(1 << 20, 1, check_sets[c]), 256);
    }
}
END_TEST

/* heap_bugs(mode) under `checks`: the launch result; *f the first finding (or NULL) */
static ptxeResult heap_bug(int mode, unsigned checks, const ptxeFinding **f)
{
    hx_checks = checks;
    hx_load("malloc.ptx", "heap_bugs");
    ptxeDevptr d = dev(NULL, 64);
    void *ar[] = { &mode, &d };
    ptxeResult r = launch(1, 32, ar);
    *f = ptxeGetFindingCount(C) ? ptxeGetFinding(C, 0) : NULL;
    return r;
}

#define HAS(s, sub) ck_assert_msg(strstr((s), (sub)) != NULL, "no '%s' in:\n%s", (sub), (s))

START_TEST(k_heap_bugs)
{
    const ptxeFinding *f;
    /* 0: one int past a 64-byte block */
    ck_assert_int_eq(heap_bug(0, PTXE_CHECK_MEMCHECK, &f), PTXE_ERROR_LAUNCH_FAILED);
    ck_assert_ptr_nonnull(f);
    ck_assert_str_eq(f->kind, "invalid-address");
    HAS(f->report, "Invalid __generic__ write of size 4 bytes");   /* nvcc: a generic st */
    HAS(f->report, "0 bytes after the nearest allocation 'device heap block'");
    ck_assert_int_eq(f->at.src_line, 59);   /* malloc.cu: p[16] = 1 */
    done();
    /* 1: a read after the free */
    ck_assert_int_eq(heap_bug(1, PTXE_CHECK_MEMCHECK, &f), PTXE_ERROR_LAUNCH_FAILED);
    ck_assert_ptr_nonnull(f);
    HAS(f->report, "Invalid __generic__ read of size 4 bytes");
    HAS(f->report, "in freed memory");
    HAS(f->report, "12 bytes inside the freed allocation 'device heap block'");
    done();
    /* 2: a double free names the malloc and the first free */
    ck_assert_int_eq(heap_bug(2, PTXE_CHECK_MEMCHECK, &f), PTXE_ERROR_LAUNCH_FAILED);
    ck_assert_ptr_nonnull(f);
    ck_assert_str_eq(f->kind, "double-free");
    HAS(f->report, "Malloc/Free error encountered : Double free");
    HAS(f->report, "double free of the device heap block at 0x");
    HAS(f->report, "of size 64 bytes");
    HAS(f->report, "allocated by thread (0,0,0) in block (0,0,0) at ");
    HAS(f->report, "malloc.ptx:479 (call.uni ( retval0), malloc, ( param0)) in ");
    HAS(f->report, "malloc.cu:57\n");
    HAS(f->report, "first freed by thread (0,0,0) in block (0,0,0) at ");
    HAS(f->report, "malloc.ptx:536 (call.uni free, ( param0)) in ");
    HAS(f->report, "malloc.cu:60\n");
    ck_assert_int_eq(f->at.src_line, 62);
    HAS(ptxeGetErrorMessage(C), "fault: double free of the device heap block");
    done();
    /* 3: a free of an address inside the block */
    ck_assert_int_eq(heap_bug(3, PTXE_CHECK_MEMCHECK, &f), PTXE_ERROR_LAUNCH_FAILED);
    ck_assert_ptr_nonnull(f);
    ck_assert_str_eq(f->kind, "invalid-free");
    HAS(f->report, "Malloc/Free error encountered : Invalid pointer to free");
    HAS(f->report, "is 4 bytes inside the allocation 'device heap block'");
    done();
    /* 4: a leak: the launch completes, memcheck reports the block with its malloc */
    ck_assert_int_eq(heap_bug(4, PTXE_CHECK_MEMCHECK, &f), PTXE_SUCCESS);
    ck_assert_ptr_nonnull(f);
    ck_assert_str_eq(f->kind, "leak");
    ck_assert_uint_eq(f->size, 64);
    ck_assert_int_eq(f->at.src_line, 57);   /* the malloc */
    HAS(f->report, "Leaked 64 bytes at 0x");
    HAS(f->report, "on the device heap");
    HAS(f->report, "by thread (0,0,0) in block (0,0,0)");
    ck_assert_int_eq(ptxeGetFindingCount(C), 1);
    ck_assert_uint_eq(ptxeCtxGetMemoryUsed(C), 64);   /* the leaked block is released */
    done();
    /* 5: correct (freed once): nothing */
    ck_assert_int_eq(heap_bug(5, PTXE_CHECK_ALL, &f), PTXE_SUCCESS);
    ck_assert_ptr_null(f);
    done();
    /* without memcheck: the free errors and the bad accesses still fault, a leak is silent */
    for (int mode = 0; mode < 4; mode++) {
        ck_assert_int_eq(heap_bug(mode, 0, &f), PTXE_ERROR_LAUNCH_FAILED);
        ck_assert_ptr_null(f);
        done();
    }
    ck_assert_int_eq(heap_bug(4, PTXE_CHECK_RACECHECK, &f), PTXE_SUCCESS);
    ck_assert_ptr_null(f);
    done();
}
END_TEST

/* device-side malloc compiled by clang 14 (tests/kernels/clang_device.cu) */
START_TEST(k_heap_clang)
{
    enum { T = 96 };
    long long o[T], w[T];
    int n = 300;
    for (int t = 0; t < T; t++) w[t] = (long long)n * (n - 1) / 2 + (long long)n * t;
    for (int c = 0; c < 2; c++) {
        hx_checks = check_sets[c];
        hx_load("clang_device.ptx", "clang_malloc");
        ptxeDevptr d = dev(NULL, sizeof o);
        void *ar[] = { &n, &d };
        run(1, T, ar);
        get(o, d, sizeof o);
        CHECK_ARR(o, w, T, "%lld");
        done();
    }
}
END_TEST

/* a malloc or free with the wrong arguments is a load error */
START_TEST(heap_call_forms)
{
    static const char text[] =
        ".version 8.4\n.target sm_80\n.address_size 64\n"
        ".extern .func (.param .b64 r) malloc (.param .b64 a, .param .b64 b);\n"
        ".visible .entry k()\n{\n.param .b64 p0;\n.param .b64 p1;\n.param .b64 r0;\n"
        "call.uni (r0), malloc, (p0, p1);\nret;\n}\n";
    ck_assert_int_eq(hx_load_text(text, "forms.ptx", 0), PTXE_ERROR_INVALID_PTX);
    HAS(ptxeGetErrorMessage(C), "forms.ptx:10:1: found 2 arguments and 1 results, expected 1 and 1 "
                                "for the device-side 'malloc'");
    done();
    ck_assert_int_eq(ptxeCtxSetMallocHeapSize(NULL, 1), PTXE_ERROR_INVALID_VALUE);
    ck_assert_uint_eq(ptxeCtxGetMallocHeapSize(NULL), 0);
}
END_TEST

static void add_tests(TCase *tc)
{
    tcase_add_test(tc, k_int128);
    tcase_add_test(tc, k_shfl_half);
    tcase_add_test(tc, warp_sz_constant);
    tcase_add_test(tc, k_heap_lists);
    tcase_add_test(tc, k_heap_fill);
    tcase_add_test(tc, k_heap_bugs);
    tcase_add_test(tc, heap_call_forms);
    tcase_add_test(tc, k_heap_clang);
}

#include "check_main.h"
