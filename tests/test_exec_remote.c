/* tests/test_exec_remote.c — asynchronous remote stores and reductions (st.async §9.7.8.12,
 * red.async §9.7.12.7), sparse mma (mma.sp §9.7.13.5) and multimem operations (§9.7.8.13): the
 * kernels of tests/kernels/remote.cu run through the C API and compared bit for bit with C
 * references written here, and the forms the executor refuses at load. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tests/check_quiet.h"
#define HX_SOURCE "kernels/remote.ptx"   /* the evidence of run() on inline modules too */
#include "tests/exec_harness.h"

static uint32_t rng = 4242;
static uint32_t rnd(void) { rng = rng * 1664525u + 1013904223u; return rng ^ (rng >> 13); }

/* the kernel `kernel` of tests/kernels/remote.ptx, with the checks hx_checks (checked_kernels) */
static void load(const char *kernel) { hx_load("remote.ptx", kernel); }

/* ------------------------------------------------------------------ st.async, red.async */

/* each CTA of the 2-CTA cluster receives the peer's 10 words per thread */
START_TEST(k_st_async_pair)
{
    load("st_async_pair");
    enum { N = 2 * 64 * 10 };
    static unsigned in[N], out[N], want[N];
    for (int i = 0; i < N; i++) in[i] = rnd();
    for (int r = 0; r < 2; r++)
        for (int t = 0; t < 64; t++)
            for (int k = 0; k < 10; k++)
                want[((r ^ 1) * 64 + t) * 10 + k] = in[(r * 64 + t) * 10 + k];
    ptxeDevptr di = dev(in, sizeof in), dout = dev(NULL, sizeof out);
    void *a[] = { &di, &dout };
    run(2, 64, a);
    get(out, dout, sizeof out);
    CHECK_ARR(out, want, N, "0x%08x");
    done();
}
END_TEST

/* slot j of CTA r after every thread of CTA r^1 reduced into it (the operations commute; inc
 * and dec all use the same bound, so their order does not matter either) */
static void red_ref(const unsigned *init, const unsigned *vals, unsigned lim, unsigned *want)
{
    for (int r = 0; r < 2; r++) {
        unsigned *s = want + r * 13;
        memcpy(s, init + r * 13, 13 * 4);
        uint64_t s64 = s[11] | (uint64_t)s[12] << 32;
        for (int t = 0; t < 64; t++) {
            const unsigned *v = vals + ((r ^ 1) * 64 + t) * 12;
            s[0] = s[0] >= lim ? 0 : s[0] + 1;
            s[1] = s[1] == 0 || s[1] > lim ? lim : s[1] - 1;
            s[2] = v[2] < s[2] ? v[2] : s[2];
            s[3] = (int)v[3] < (int)s[3] ? v[3] : s[3];
            s[4] = v[4] > s[4] ? v[4] : s[4];
            s[5] = (int)v[5] > (int)s[5] ? v[5] : s[5];
            s[6] &= v[6], s[7] |= v[7], s[8] ^= v[8];
            s[9] += v[9], s[10] += v[10];
            s64 += v[11] | (uint64_t)v[10] << 32;
        }
        s[11] = (unsigned)s64, s[12] = (unsigned)(s64 >> 32);
    }
}

START_TEST(k_red_async_pair)
{
    static unsigned init[26], vals[2 * 64 * 12], out[26], want[26];
    for (int round = 0; round < 3; round++) {
        for (int i = 0; i < 26; i++) init[i] = rnd();
        for (int i = 0; i < 2 * 64 * 12; i++) vals[i] = rnd();
        init[0] = round * 20, init[1] = round * 30, init[13] = 3, init[14] = 100;
        /* and: sparse ones so that the result is not 0; or: sparse ones so that it is not ~0 */
        for (int i = 0; i < 2 * 64; i++) vals[i * 12 + 6] |= 0xfff0f0ffu, vals[i * 12 + 7] &= 0x10;
        init[6] = init[19] = 0xffffffffu;
        unsigned lim = 37 + round * 20;
        red_ref(init, vals, lim, want);
        load("red_async_pair");
        ptxeDevptr di = dev(init, sizeof init), dv = dev(vals, sizeof vals),
                   dout = dev(NULL, sizeof out);
        void *a[] = { &di, &dv, &lim, &dout };
        run(2, 64, a);
        get(out, dout, sizeof out);
        CHECK_ARR(out, want, 26, "0x%08x");
        done();
    }
}
END_TEST


/* ------------------------------------------------------------------ refused forms, faults */

#define HDR ".version 8.4\n.target sm_90a\n.address_size 64\n"
/* a kernel k(.param .u64 out) with registers and a 2-CTA cluster, then BODY */
#define KPRO                                                                                 \
    HDR ".visible .entry k(.param .u64 out) .reqnctapercluster 2, 1, 1\n{\n.reg .pred %p<4>;\n" \
        ".reg .b32 %r<16>;\n.reg .b64 %rd<16>;\n.reg .f32 %f<8>;\n"                          \
        ".shared .align 8 .b64 mb;\n.shared .align 16 .b32 buf[64];\n"

/* load body; expect a load error naming line:col and containing what */
static void refused(const char *body, const char *what)
{
    char ptx[4096];
    snprintf(ptx, sizeof ptx, "%s%s\nret;\n}\n", KPRO, body);
    ptxeResult r = hx_load_text(ptx, "t.ptx", 0);
    const char *msg = ptxeGetErrorMessage(C);
    ck_assert_msg(r == PTXE_ERROR_INVALID_PTX, "%s: loaded (%s)", body, msg);
    ck_assert_msg(strstr(msg, "t.ptx:12:") && strstr(msg, what), "%s: message '%s', want '%s'",
                  body, msg, what);
    ptxeCtxDestroy(C);
    C = NULL;
}

START_TEST(refused_async)
{
    refused("st.async.shared::cluster.mbarrier::complete_tx::bytes.u16 [%r1], %r2, [%r3];",
            "st.async.u16, expected .b32");
    refused("st.async.shared::cluster.u32 [%r1], %r2, [%r3];",
            "without .mbarrier::complete_tx::bytes");
    refused("st.async.global.mbarrier::complete_tx::bytes.u32 [%rd1], %r2, [%rd3];",
            "expected .shared::cluster or generic");
    refused("st.async.shared::cluster.mbarrier::complete_tx::bytes.v2.u32 [%r1], %r2, [%r3];",
            "found 1 value operands, expected 2");
    refused("red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.s64 "
            "[%r1], %rd2, [%r3];",
            "red.async.add.s64, expected");
    refused("red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.inc.s32 "
            "[%r1], %r2, [%r3];",
            "red.async.inc.s32");
    refused("red.async.shared::cluster.mbarrier::complete_tx::bytes.add.u32 [%r1], %r2, [%r3];",
            "without .relaxed.cluster");
}
END_TEST

/* run body over a 2-CTA cluster of 32 threads, its parameter 256 bytes of global memory or (mc) a
 * multimem object of 64 bytes over 2 copies; the launch must fail with what in the report */
static void faults_on(const char *body, const char *what, int mc)
{
    char ptx[4096];
    snprintf(ptx, sizeof ptx, "%s%s\nret;\n}\n", KPRO, body);
    ptxeResult r = hx_load_text(ptx, "t.ptx", 0);
    ck_assert_msg(r == PTXE_SUCCESS, "%s", ptxeGetErrorMessage(C));
    hx_function("k");
    ptxeDevptr d, bufs[2];
    if (mc) ck_assert_int_eq(ptxeMulticastCreate(C, 64, 2, &d, bufs), PTXE_SUCCESS);
    else d = dev(NULL, 256);
    void *a[] = { &d };
    r = launch(2, 32, a);
    const char *msg = ptxeGetErrorMessage(C);
    ck_assert_msg(r != PTXE_SUCCESS && strstr(msg, what), "%s: got '%s', want '%s'", body, msg,
                  what);
    done();
}
static void faults(const char *body, const char *what) { faults_on(body, what, 0); }

#define MBINIT                                                                                \
    "mov.u32 %r1, buf;\nmov.u32 %r3, mb;\nmov.u32 %r5, %cluster_ctarank;\nxor.b32 %r6, %r5, 1;\n" \
    "mbarrier.init.shared::cta.b64 [%r3], 1;\nbarrier.cluster.arrive;\nbarrier.cluster.wait;\n"

START_TEST(fault_async)
{
    /* the destination in the executing CTA: undefined (§9.7.8.12), a fault here */
    faults(MBINIT "st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [%r1], 7, [%r3];",
           "both must be in one other CTA of the cluster");
    /* destination and mbarrier in different CTAs */
    faults(MBINIT "mapa.shared::cluster.u32 %r7, %r1, %r6;\n"
                  "st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [%r7], 7, [%r3];",
           "both must be in one other CTA of the cluster");
    /* a generic address outside shared memory */
    faults(MBINIT "ld.param.u64 %rd1, [out];\nmov.u64 %rd4, mb;\ncvta.shared.u64 %rd3, %rd4;\n"
                  "mapa.u64 %rd3, %rd3, %r6;\n"
                  "red.async.relaxed.cluster.mbarrier::complete_tx::bytes.add.u32 [%rd1], 1, "
                  "[%rd3];",
           "not shared memory");
    /* an uninitialised mbarrier in the peer */
    faults("mov.u32 %r1, buf;\nmov.u32 %r3, mb;\nmov.u32 %r5, %cluster_ctarank;\n"
           "xor.b32 %r6, %r5, 1;\nmapa.shared::cluster.u32 %r7, %r1, %r6;\n"
           "mapa.shared::cluster.u32 %r8, %r3, %r6;\n"
           "st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [%r7], 7, [%r8];",
           "uninitialised mbarrier");
    /* misaligned vector */
    faults(MBINIT "mapa.shared::cluster.u32 %r7, %r1, %r6;\n"
                  "mapa.shared::cluster.u32 %r8, %r3, %r6;\n"
                  "st.async.shared::cluster.mbarrier::complete_tx::bytes.v4.b32 [%r7+4], "
                  "{1, 2, 3, 4}, [%r8];",
           "misaligned");
}
END_TEST

/* ------------------------------------------------------------------ mma.sp (§9.7.13.5) */

#include "tests/sp_ref.h"

/* sp_ref.h's inputs (seeded per form and repetition) through the executor; D bit for bit
 * against the reference and, where tests/kernels/record_gpu.sh has run, against the GPU's D */
static void sp_case(const spform *fm, int rep)
{
    static uint32_t a[128], b[128], c[128], e[32], d[128], want[128];
    uint32_t seed = 1000u * (uint32_t)rep + (uint32_t)(fm - sp_forms);
    sp_gen(fm, &seed, a, b, c, e, want);
    load(fm->kernel);
    ptxeDevptr da = dev(a, sizeof a), db = dev(b, sizeof b), dc = dev(c, sizeof c),
               de = dev(e, sizeof e), dd = dev(NULL, sizeof d);
    void *args[] = { &da, &db, &dc, &de, &dd };
    run(1, 32, args);
    get(d, dd, sizeof d);
    for (int i = 0; i < 128; i++)
        ck_assert_msg(d[i] == want[i], "%s: lane %d D%d: got 0x%08x, want 0x%08x", fm->kernel,
                      i / 4, i % 4, d[i], want[i]);

    char name[128];
    snprintf(name, sizeof name, "%s_%d.bin", fm->kernel, rep);
    FILE *f = gpu_open(name);
    if (f) {
        static uint32_t g[128];
        ck_assert_uint_eq(fread(g, 1, sizeof g, f), sizeof g);
        fclose(f);
        CHECK_ARR(d, g, 128, "0x%08x");
    }
    done();
}

START_TEST(k_mma_sp)
{
    for (int rep = 0; rep < SP_REPS; rep++) sp_case(&sp_forms[_i], rep);
}
END_TEST

START_TEST(refused_mma_sp)
{
#define SPOPS " {%r1, %r2, %r3, %r4}, {%r5, %r6}, {%r7, %r8}, {%r9, %r10, %r11, %r12}, %r13, "
    refused("mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32" SPOPS "4;",
            "bad sparsity selector");
    refused("mma.sp.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32" SPOPS "2;",
            "bad sparsity selector");
    refused("mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32" SPOPS "%r14;",
            "bad sparsity selector");
    refused("mma.sp.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32" SPOPS "0;",
            "not a form of");
    refused("mma.sp.sync.aligned.m16n8k16.row.col.f32.bf16.f16.f32" SPOPS "0;",
            ".atype and .btype differ");
    refused("mma.sp.sync.aligned.m16n8k16.col.row.f32.f16.f16.f32" SPOPS "0;", ".row.col");
    refused("mma.sp.sync.aligned.m16n8k32.row.col.f32.s8.s8.s32" SPOPS "0;", ".s32 accumulators");
#undef SPOPS
}
END_TEST

/* metadata the ISA leaves undefined (§9.7.13.5.1) is reported when the warp runs mma.sp */
static void sp_bad_meta(const char *kernel, uint32_t meta, const char *what)
{
    static uint32_t z[128], e[32];
    for (int l = 0; l < 32; l++) e[l] = meta;
    load(kernel);
    ptxeDevptr da = dev(z, sizeof z), de = dev(e, sizeof e), dd = dev(NULL, sizeof z);
    void *args[] = { &da, &da, &da, &de, &dd };
    ptxeResult r = launch(1, 32, args);
    const char *msg = ptxeGetErrorMessage(C);
    ck_assert_msg(r != PTXE_SUCCESS && strstr(msg, what), "%s: got '%s', want '%s'", kernel, msg,
                  what);
    done();
}
START_TEST(fault_mma_sp)
{
    sp_bad_meta("sp_f16_k16", 0x00000000u, "twice");              /* both indices 0 */
    sp_bad_meta("sp_tf32_k8", 0x44444445u, "0b0100 or 0b1110");   /* index 0b0101 */
    sp_bad_meta("sp_bf16_k32", 0x44444441u, "increasing order");  /* ordered_metadata 1, 0 */
}
END_TEST

/* ------------------------------------------------------------------ multimem (§9.7.8.13) */

enum { MM_DEV = 3, MM_BYTES = 3328, MM_OUT = 23 };
static uint32_t mm_w32(const uint8_t *p, unsigned off)
{
    uint32_t v;
    memcpy(&v, p + off, 4);
    return v;
}
static uint64_t mm_w64(const uint8_t *p, unsigned off)
{
    uint64_t v;
    memcpy(&v, p + off, 8);
    return v;
}
static float mm_f32(const uint8_t *p, unsigned off) { float v; memcpy(&v, p + off, 4); return v; }
/* exact small values: .f16 <-> double, .bf16 <-> double */
static double h2d(uint32_t h)
{
    int e = (int)(h >> 10 & 31), m = (int)(h & 1023);
    double v = e ? ldexp(1024 + m, e - 25) : ldexp(m, -24);
    return h & 0x8000 ? -v : v;
}
static uint32_t d2h(double v)
{
    ck_assert_msg((fabs(v) < 65504 && fabs(v) >= 1.0 / 16384) || v == 0, "not exact: %g", v);
    if (v == 0) return 0;
    int e;
    double fr = frexp(fabs(v), &e);   /* fabs(v) = fr 2^e, fr in [0.5, 1) */
    double mant = fr * 2048;          /* 11 bits */
    ck_assert_msg(mant == floor(mant), "%g not exact in .f16", v);
    return (v < 0 ? 0x8000u : 0) | (uint32_t)(e + 14) << 10 | ((uint32_t)mant & 1023);
}
static double bf2d(uint32_t b) { float f; uint32_t u = b << 16; memcpy(&f, &u, 4); return f; }
static uint32_t d2bf(double v) { return f32bits((float)v) >> 16; }
static uint32_t smallf16(void) { return d2h((double)((int)(rnd() % 17) - 8)); }
static uint32_t smallbf16(void) { return d2bf((double)((int)(rnd() % 17) - 8)); }

/* fills the copies of a multicast object with mm_ld_reduce's layout (tests/kernels/remote.cu) */
static void mm_fill(uint8_t (*cp)[MM_BYTES])
{
    for (int k = 0; k < MM_DEV; k++) {
        for (int i = 0; i < MM_BYTES / 4; i++) {
            uint32_t v = rnd();
            memcpy(cp[k] + 4 * i, &v, 4);
        }
        for (int t = 0; t < 64; t++) {
            for (int j = 0; j < 4; j++) {
                float f = (float)((int)(rnd() % 33) - 16);
                memcpy(cp[k] + 768 + 16 * t + 4 * j, &f, 4);
            }
            uint32_t h0 = smallf16() | smallf16() << 16, h1 = smallbf16() | smallbf16() << 16;
            memcpy(cp[k] + 1792 + 8 * t, &h0, 4), memcpy(cp[k] + 1796 + 8 * t, &h1, 4);
            double d = (double)((int)(rnd() % 1001) - 500) / 4;
            memcpy(cp[k] + 2304 + 8 * t, &d, 8);
        }
    }
}

/* one ptxeMulticastCreate object of MM_DEV copies holding cp; returns the multimem address */
static ptxeDevptr mm_object(uint8_t (*cp)[MM_BYTES], ptxeDevptr *bufs)
{
    ptxeDevptr mc;
    ck_assert_int_eq(ptxeMulticastCreate(C, MM_BYTES, MM_DEV, &mc, bufs), PTXE_SUCCESS);
    for (int k = 0; k < MM_DEV; k++)
        ck_assert_int_eq(ptxeMemcpyHtoD(C, bufs[k], cp[k], MM_BYTES), PTXE_SUCCESS);
    return mc;
}

/* the 23 words of thread t by the documented rule: reduce in device order */
static void mm_ld_ref(uint8_t (*cp)[MM_BYTES], unsigned t, uint32_t *o)
{
    uint32_t add = 0, an = ~0u, or = 0, xr = 0, mxu = 0;
    int32_t mns = INT32_MAX;
    uint64_t a64 = 0, mx64 = 0;
    int64_t mn64 = INT64_MAX;
    double f[5] = { 0 }, fd = 0, hadd[2] = { 0 }, acc[4] = { 0 };
    double bmin[2] = { INFINITY, INFINITY };
    for (int k = 0; k < MM_DEV; k++) {
        uint32_t w = mm_w32(cp[k], 4 * t);
        uint64_t q = mm_w64(cp[k], 256 + 8 * t);
        add += w, an &= w, or |= w, xr ^= w, mxu = w > mxu ? w : mxu;
        mns = (int32_t)w < mns ? (int32_t)w : mns;
        a64 += q, mx64 = q > mx64 ? q : mx64, mn64 = (int64_t)q < mn64 ? (int64_t)q : mn64;
        for (int j = 0; j < 4; j++) f[j] += mm_f32(cp[k], 768 + 16 * t + 4 * j);
        f[4] += mm_f32(cp[k], 768 + 16 * t + 4);
        double d;
        memcpy(&d, cp[k] + 2304 + 8 * t, 8);
        fd += d;
        uint32_t h0 = mm_w32(cp[k], 1792 + 8 * t), h1 = mm_w32(cp[k], 1796 + 8 * t);
        for (int j = 0; j < 2; j++) {
            hadd[j] += h2d(h0 >> 16 * j & 0xffff);
            bmin[j] = fmin(bmin[j], bf2d(h1 >> 16 * j & 0xffff));
            acc[j] += h2d(h0 >> 16 * j & 0xffff), acc[2 + j] += h2d(h1 >> 16 * j & 0xffff);
        }
    }
    uint32_t r[6] = { add, (uint32_t)mns, mxu, an, or, xr };
    memcpy(o, r, sizeof r);
    uint64_t q[3] = { a64, (uint64_t)mn64, mx64 };
    for (int i = 0; i < 3; i++)
        o[6 + 2 * i] = (uint32_t)q[i], o[7 + 2 * i] = (uint32_t)(q[i] >> 32);
    for (int i = 0; i < 5; i++) o[12 + i] = f32bits((float)f[i]);
    uint64_t bd;
    memcpy(&bd, &fd, 8);
    o[17] = (uint32_t)bd, o[18] = (uint32_t)(bd >> 32);
    o[19] = d2h(hadd[0]) | d2h(hadd[1]) << 16;
    o[20] = d2bf(bmin[0]) | d2bf(bmin[1]) << 16;
    o[21] = d2h(acc[0]) | d2h(acc[1]) << 16, o[22] = d2h(acc[2]) | d2h(acc[3]) << 16;
}

/* every form of multimem.ld_reduce of mm_ld_reduce over 3 devices, against mm_ld_ref */
START_TEST(k_multimem_ld_reduce)
{
    static uint8_t cp[MM_DEV][MM_BYTES];
    static uint32_t out[64 * MM_OUT], want[64 * MM_OUT];
    mm_fill(cp);
    for (int t = 0; t < 64; t++) mm_ld_ref(cp, (unsigned)t, want + t * MM_OUT);
    load("mm_ld_reduce");
    ptxeDevptr bufs[MM_DEV], mc = mm_object(cp, bufs), dout = dev(NULL, sizeof out);
    void *a[] = { &mc, &dout };
    run(1, 64, a);
    get(out, dout, sizeof out);
    for (int i = 0; i < 64 * MM_OUT; i++)
        ck_assert_msg(out[i] == want[i], "thread %d word %d: got 0x%08x, want 0x%08x", i / MM_OUT,
                      i % MM_OUT, out[i], want[i]);
    done();
}
END_TEST

/* multimem.st / multimem.red of mm_st_red change every copy the same way */
START_TEST(k_multimem_st_red)
{
    static uint8_t cp[MM_DEV][MM_BYTES], want[MM_DEV][MM_BYTES], got[MM_BYTES];
    static uint32_t v[64];
    mm_fill(cp);
    for (int k = 0; k < MM_DEV; k++)
        for (int t = 0; t < 64; t++) {
            uint32_t h = smallbf16() | smallbf16() << 16;
            memcpy(cp[k] + 1792 + 8 * t, &h, 4);
            h = smallbf16() | smallbf16() << 16;
            memcpy(cp[k] + 1796 + 8 * t, &h, 4);
        }
    memcpy(want, cp, sizeof cp);
    for (int t = 0; t < 64; t++) v[t] = rnd();
    for (int k = 0; k < MM_DEV; k++)
        for (int t = 0; t < 64; t++) {
            uint8_t *p = want[k];
            uint32_t x = v[t], m = mm_w32(p, 2816 + 4 * t), xr = mm_w32(p, 3072 + 4 * t) ^ x;
            float f[4] = { 1.0f, 2.5f, (float)(x & 7), -4.0f };
            uint64_t q = mm_w64(p, 256 + 8 * t) + ((uint64_t)x << 20);
            m = (int32_t)x < (int32_t)m ? x : m;
            memcpy(p + 4 * t, &x, 4), memcpy(p + 768 + 16 * t, f, 16);
            memcpy(p + 256 + 8 * t, &q, 8);
            memcpy(p + 2816 + 4 * t, &m, 4), memcpy(p + 3072 + 4 * t, &xr, 4);
            for (int j = 0; j < 4; j++) {   /* + (1.0, 1.0), (2.0, 2.0) */
                uint16_t h;
                memcpy(&h, p + 1792 + 8 * t + 2 * j, 2);
                h = (uint16_t)d2bf(bf2d(h) + (j < 2 ? 1.0 : 2.0));
                memcpy(p + 1792 + 8 * t + 2 * j, &h, 2);
            }
        }
    load("mm_st_red");
    ptxeDevptr bufs[MM_DEV], mc = mm_object(cp, bufs), dv = dev(v, sizeof v);
    void *a[] = { &mc, &dv };
    run(1, 64, a);
    for (int k = 0; k < MM_DEV; k++) {
        get(got, bufs[k], MM_BYTES);
        for (int i = 0; i < MM_BYTES; i++)
            ck_assert_msg(got[i] == want[k][i], "device %d byte %d: got 0x%02x, want 0x%02x", k, i,
                          got[i], want[k][i]);
    }
    done();
}
END_TEST

/* The documented rule (docs/executor.md): device order, each step at the type's precision, or
 * with .acc::f32 in f32 rounded once.  Copies 2048, 1, 1 (.f16) and 256, 1, 1 (.bf16): at the
 * type's precision 2048 + 1 rounds back to 2048 (ties to even) twice; in f32 the sum is 2050
 * (258), which .f16 (.bf16) represents. */
START_TEST(multimem_acc_f32)
{
    static const char ptx[] =
        HDR ".visible .entry k(.param .u64 mc, .param .u64 out)\n{\n.reg .b32 %r<8>;\n"
            ".reg .b64 %rd<4>;\nld.param.u64 %rd1, [mc];\nld.param.u64 %rd2, [out];\n"
            "multimem.ld_reduce.add.f16x2 %r1, [%rd1];\n"
            "multimem.ld_reduce.add.acc::f32.f16x2 %r2, [%rd1];\n"
            "multimem.ld_reduce.add.bf16x2 %r3, [%rd1+4];\n"
            "multimem.ld_reduce.add.acc::f32.bf16x2 %r4, [%rd1+4];\n"
            "st.global.v4.u32 [%rd2], {%r1, %r2, %r3, %r4};\nret;\n}\n";
    ck_assert_int_eq(hx_load_text(ptx, "acc.ptx", 0), PTXE_SUCCESS);
    hx_function("k");
    ptxeDevptr mc, bufs[3], dout = dev(NULL, 16);
    ck_assert_int_eq(ptxeMulticastCreate(C, 8, 3, &mc, bufs), PTXE_SUCCESS);
    static const uint32_t init[3][2] = { { 0x68006800u, 0x43804380u },
                                         { 0x3c003c00u, 0x3f803f80u },
                                         { 0x3c003c00u, 0x3f803f80u } };
    for (int k = 0; k < 3; k++)
        ck_assert_int_eq(ptxeMemcpyHtoD(C, bufs[k], init[k], 8), PTXE_SUCCESS);
    void *a[] = { &mc, &dout };
    run(1, 1, a);
    uint32_t got[4], want[4] = { 0x68006800u, 0x68016801u, 0x43804380u, 0x43814381u };
    get(got, dout, sizeof got);
    CHECK_ARR(got, want, 4, "0x%08x");
    done();
}
END_TEST

START_TEST(refused_multimem)
{
    refused("multimem.ld_reduce.add.f16 %r1, [%rd1];", "32, 64 or 128");
    refused("multimem.ld_reduce.add.v2.f64 {%rd1, %rd2}, [%rd3];", "vector multimem of .f64");
    refused("multimem.ld_reduce.add.s64 %rd1, [%rd2];", "multimem.add.s64, expected");
    refused("multimem.red.min.f32 [%rd1], %f1;", "expected .add");
    refused("multimem.ld_reduce.add.acc::f32.f32 %f1, [%rd1];", ".acc::f32 outside");
    refused("multimem.st.shared.u32 [%r1], %r2;", "expected .global or generic");
    refused("multimem.st.acquire.gpu.u32 [%rd1], %r2;", "semantics");
    refused("multimem.ld_reduce.add.v2.u32 {%r1, %r2}, [%rd1];", "vector multimem of an integer");
    refused("multimem.st.v4.f32 [%rd1], {%f1, %f2};", "found 2 value operands, expected 4");
}
END_TEST

/* a multimem address only through multimem.*: ld there, and multimem.* elsewhere, fault */
static void mm_fault(const char *body, const char *what) { faults_on(body, what, 1); }
START_TEST(fault_multimem)
{
    mm_fault("ld.param.u64 %rd1, [out];\nld.global.u32 %r1, [%rd1];",
             "allocation 'multimem object (multimem.* only");
    mm_fault("ld.param.u64 %rd1, [out];\nmultimem.st.u32 [%rd1+64], 1;",
             "not inside a multimem object");
    mm_fault("ld.param.u64 %rd1, [out];\nmultimem.ld_reduce.add.u64 %rd2, [%rd1+60];",
             "not inside a multimem object");
    mm_fault("ld.param.u64 %rd1, [out];\nmultimem.red.add.u32 [%rd1+2], 1;", "misaligned");
    mm_fault("mov.u64 %rd1, buf;\nmultimem.st.u32 [%rd1], 1;", "not inside a multimem object");
    ptxeDevptr mc, b[9];
    hx_ctx(0);
    ck_assert_int_eq(ptxeMulticastCreate(C, 64, 9, &mc, b), PTXE_ERROR_INVALID_VALUE);
    ck_assert_int_eq(ptxeMulticastCreate(C, 0, 2, &mc, b), PTXE_ERROR_INVALID_VALUE);
    done();
}
END_TEST

/* initcheck sees multimem.ld_reduce's loads: copies the host never wrote */
START_TEST(multimem_initcheck)
{
    static const char ptx[] = HDR ".visible .entry k(.param .u64 mc)\n{\n.reg .b32 %r<4>;\n"
                                  ".reg .b64 %rd<4>;\nld.param.u64 %rd1, [mc];\n"
                                  "multimem.ld_reduce.add.u32 %r1, [%rd1];\nret;\n}\n";
    ck_assert_int_eq(hx_load_text(ptx, "i.ptx", PTXE_CHECK_INITCHECK), PTXE_SUCCESS);
    hx_function("k");
    ptxeDevptr mc, bufs[2];
    uint32_t one = 1;
    ck_assert_int_eq(ptxeMulticastCreate(C, 4, 2, &mc, bufs), PTXE_SUCCESS);
    ck_assert_int_eq(ptxeMemcpyHtoD(C, bufs[0], &one, 4), PTXE_SUCCESS);   /* copy 1: never */
    void *a[] = { &mc };
    ck_assert_int_eq(launch(1, 1, a), PTXE_SUCCESS);
    ck_assert_int_eq(ptxeGetFindingCount(C), 1);
    const ptxeFinding *fd = ptxeGetFinding(C, 0);
    ck_assert_msg(fd->address == bufs[1] && strstr(fd->report, "multimem.ld_reduce"), "%s",
                  fd->report);
    done();
}
END_TEST

/* the kernels again with memcheck, racecheck, synccheck and initcheck on: the same results and
 * no finding (the mbarrier completion of st.async/red.async orders the peer's accesses) */
START_TEST(checked_kernels)
{
    hx_checks = PTXE_CHECK_ALL;
    k_st_async_pair_fn(0);
    k_red_async_pair_fn(0);
    for (size_t f = 0; f < SP_NFORMS; f++) sp_case(&sp_forms[f], 0);
    k_multimem_ld_reduce_fn(0);
    k_multimem_st_red_fn(0);
    hx_checks = 0;
}
END_TEST

static void add_tests(TCase *tc)
{
    tcase_add_test(tc, refused_async);
    tcase_add_test(tc, fault_async);
    tcase_add_test(tc, k_st_async_pair);
    tcase_add_test(tc, k_red_async_pair);
    tcase_add_test(tc, refused_mma_sp);
    tcase_add_test(tc, fault_mma_sp);
    tcase_add_loop_test(tc, k_mma_sp, 0, (int)SP_NFORMS);
    tcase_add_test(tc, refused_multimem);
    tcase_add_test(tc, multimem_acc_f32);
    tcase_add_test(tc, fault_multimem);
    tcase_add_test(tc, k_multimem_ld_reduce);
    tcase_add_test(tc, k_multimem_st_red);
    tcase_add_test(tc, checked_kernels);
    tcase_add_test(tc, multimem_initcheck);
}

#include "check_main.h"
