/* tests/test_exec_tma.c — tensor memory access in the executor (exec/tma.c): the kernels of
 * tests/kernels/tma.cu (inline PTX cp.async.bulk.tensor, cp.reduce.async.bulk{.tensor},
 * cp.async.bulk.prefetch.tensor, tensormap.replace, tensormap.cp_fenceproxy; nvcc -arch=sm_90a)
 * launched through the C API with maps from ptxeTensorMapEncodeTiled/Im2col, each result
 * compared bit for bit with a C reference written here from ISA §5.5 (tiled boxes, traversal
 * strides, OOB fill, im2col, §5.5.6 swizzle tables) and §9.7.8.24.7-11; the encoders' validation;
 * instruction forms refused at load with file:line:col; faults on bad maps at run time. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <check.h>
#define HX_ZERO_FILL 0   /* dev(NULL, n) leaves the memory unwritten (initcheck sees that) */
#include "tests/exec_harness.h"

static uint32_t rng = 777;
static uint32_t rnd(void) { rng = rng * 1664525u + 1013904223u; return rng ^ (rng >> 13); }

/* the kernel `kernel` of tests/kernels/tma.ptx with every check on: run() then asserts that a
 * correct kernel has no finding */
static void load(const char *kernel)
{
    hx_checks = PTXE_CHECK_ALL;
    hx_load("tma.ptx", kernel);
}

/* §5.5.6: the 16-byte chunk c of 128-byte row r (of a 1024-aligned buffer) lands at chunk
 * c ^ (r mod 2, 4, 8) for 32B, 64B, 128B swizzling (the tables' patterns) */
static size_t swizzled(int sw, size_t off)
{
    static const unsigned rows[4] = { 1, 2, 4, 8 };
    size_t r = off / 128 % rows[sw], c = off / 16 % 8;
    return off / 128 * 128 + (c ^ r) * 16 + off % 16;
}

/* The outputs tests/kernels/record_gpu.sh recorded on a GPU (gpu/NAME.bin), where it has been
 * run: compared too (the NaN bits of OOB fill, the swizzle and the im2col pixel order are the
 * executor's reading of the ISA until a recording confirms them). */
static void gpu_compare(const char *name, const void *got, size_t n)
{
    char file[128];
    snprintf(file, sizeof file, "%s.bin", name);
    FILE *f = gpu_open(file);
    if (!f) return;
    static uint8_t want[1 << 16];
    size_t k = fread(want, 1, sizeof want, f);
    fclose(f);
    ck_assert_uint_eq(k, n);
    for (size_t i = 0; i < n; i++)
        ck_assert_msg(((const uint8_t *)got)[i] == want[i], "%s byte %zu: got 0x%02x, GPU 0x%02x",
                      name, i, ((const uint8_t *)got)[i], want[i]);
}

/* ------------------------------------------------------------------ tiled loads */
#define GW 40
#define GH 24
static float g2[GH][GW];

static ptxeTensorMap map2d(ptxeDevptr g, uint32_t bw, uint32_t bh, ptxeTensorMapSwizzle sw,
                           ptxeTensorMapFloatOOBfill fill)
{
    ptxeTensorMap tm;
    uint64_t dims[2] = { GW, GH }, str[1] = { GW * 4 };
    uint32_t box[2] = { bw, bh }, es[2] = { 1, 1 };
    ptxeResult r = ptxeTensorMapEncodeTiled(C, &tm, PTXE_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, g, dims,
                                            str, box, es, PTXE_TENSOR_MAP_INTERLEAVE_NONE, sw,
                                            PTXE_TENSOR_MAP_L2_PROMOTION_L2_128B, fill);
    ck_assert_msg(r == PTXE_SUCCESS, "%s", ptxeGetErrorMessage(C));
    return tm;
}

/* A 32x8 f32 box at (x, y) of a 40x24 tensor, OOB filled with NaN (or zeros), in shared memory
 * swizzled (128B) or not: raw shared bytes against the reference */
static void tile2d(int x, int y, ptxeTensorMapSwizzle sw, ptxeTensorMapFloatOOBfill fill)
{
    load("tma_load");
    for (int j = 0; j < GH; j++)
        for (int i = 0; i < GW; i++) g2[j][i] = (float)((j * GW + i) * 7 % 1000) - 500.0f;
    ptxeDevptr dg = dev(g2, sizeof g2);
    ptxeTensorMap tm = map2d(dg, 32, 8, sw, fill);
    static uint32_t out[256], want[256];
    ptxeDevptr dout = dev(NULL, sizeof out);
    int rank = 2, zero = 0;
    unsigned bytes = sizeof out;
    void *a[] = { &tm, &dout, &rank, &x, &y, &zero, &zero, &zero, &bytes };
    run(1, 64, a);
    get(out, dout, sizeof out);
    for (int j = 0; j < 8; j++)
        for (int i = 0; i < 32; i++) {
            int gx = x + i, gy = y + j;
            /* the NaN an H100 writes (tests/kernels/gpu/tma_tile2d.bin): 0x7ff7 per 16 bits */
            uint32_t v = fill ? 0x7ff77ff7u : 0;
            if (gx >= 0 && gx < GW && gy >= 0 && gy < GH) memcpy(&v, &g2[gy][gx], 4);
            want[swizzled(sw, (size_t)(j * 32 + i) * 4) / 4] = v;
        }
    for (int k = 0; k < 256; k++)
        ck_assert_msg(out[k] == want[k], "(%d,%d) swizzle %d word %d: got 0x%08x, want 0x%08x",
                      x, y, sw, k, out[k], want[k]);
    if (x == 16 && y == 20 && sw == PTXE_TENSOR_MAP_SWIZZLE_128B) gpu_compare("tma_tile2d", out,
                                                                               sizeof out);
    done();
}

START_TEST(tma_tile2d_swizzle128_oob_nan)
{
    tile2d(16, 20, PTXE_TENSOR_MAP_SWIZZLE_128B,
           PTXE_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA);
}
END_TEST
START_TEST(tma_tile2d_negative_zero_fill) { tile2d(-5, -3, PTXE_TENSOR_MAP_SWIZZLE_NONE,
                                                   PTXE_TENSOR_MAP_FLOAT_OOB_FILL_NONE); }
END_TEST
START_TEST(tma_tile2d_inner) { tile2d(4, 9, PTXE_TENSOR_MAP_SWIZZLE_128B,
                                      PTXE_TENSOR_MAP_FLOAT_OOB_FILL_NONE); }
END_TEST

/* ranks 1, 3, 4, 5 of u16 elements (no swizzle), traversal stride 2 in dimension 1 for rank 3+,
 * boxes crossing the upper edge */
START_TEST(tma_tile_ranks)
{
    static const uint64_t dims[5] = { 24, 7, 5, 3, 2 };
    static uint16_t g[2 * 3 * 5 * 7 * 24];
    for (size_t k = 0; k < sizeof g / 2; k++) g[k] = (uint16_t)(k * 7 + 1);
    for (int rank = 1; rank <= 5; rank++) {
        if (rank == 2) continue;   /* tma_tile2d_* */
        load("tma_load");
        ptxeDevptr dg = dev(g, sizeof g);
        uint64_t str[4] = { 48, 48 * 7, 48 * 35, 48 * 105 };
        uint32_t box[5] = { 16, 4, 2, 2, 2 }, es[5] = { 1, 2, 1, 1, 1 };
        if (rank == 1) box[0] = 24;
        ptxeTensorMap tm;
        ck_assert_int_eq(ptxeTensorMapEncodeTiled(C, &tm, PTXE_TENSOR_MAP_DATA_TYPE_UINT16,
                                                  (uint32_t)rank, dg, dims, str, box, es,
                                                  PTXE_TENSOR_MAP_INTERLEAVE_NONE,
                                                  PTXE_TENSOR_MAP_SWIZZLE_NONE,
                                                  PTXE_TENSOR_MAP_L2_PROMOTION_NONE,
                                                  PTXE_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
                         PTXE_SUCCESS);
        int c[5] = { 16, 4, 4, 1, 1 };
        if (rank == 1) c[0] = 8;
        unsigned cnt[5], n = 1;
        for (int d = 0; d < 5; d++) {
            cnt[d] = d < rank ? (box[d] + es[d] - 1) / es[d] : 1;
            n *= cnt[d];
        }
        unsigned bytes = n * 2;
        static uint16_t out[4096], want[4096];
        ptxeDevptr dout = dev(NULL, sizeof out);
        void *a[] = { &tm, &dout, &rank, &c[0], &c[1], &c[2], &c[3], &c[4], &bytes };
        run(1, 32, a);
        get(out, dout, bytes);
        for (unsigned j = 0; j < n; j++) {
            unsigned r = j, in = 1;
            size_t off = 0, span = 1;
            for (int d = 0; d < rank; d++) {
                int x = c[d] + (int)(r % cnt[d] * es[d]);
                r /= cnt[d];
                in &= x >= 0 && x < (int)dims[d];
                off += (size_t)x * span;
                span *= dims[d];
            }
            want[j] = in ? g[off] : 0;
        }
        for (unsigned j = 0; j < n; j++)
            ck_assert_msg(out[j] == want[j], "rank %d element %u: got %u, want %u", rank, j,
                          out[j], want[j]);
        done();
    }
}
END_TEST

/* ------------------------------------------------------------------ im2col */
/* §5.5.4: NWC (rank 3) and NHWC (rank 4) of u32 channels; 4 channels per pixel, the pixels of
 * the column walk the filter-base positions of the bounding box (lower corner .. dim - 1 +
 * upper corner) in N,H,W order from the one the coordinates name, each read at position +
 * offset; past the last image or outside the tensor: zero fill. */
START_TEST(tma_im2col)
{
    enum { CH = 8, W = 6, H = 5, N = 2 };
    static uint32_t g[N * H * W * CH];
    for (size_t k = 0; k < sizeof g / 4; k++) g[k] = (uint32_t)k * 3 + 100;
    for (int rank = 3; rank <= 4; rank++) {
        load("tma_im2col");
        ptxeDevptr dg = dev(g, sizeof g);
        uint64_t dims[4] = { CH, W, rank == 4 ? H : N, N };
        uint64_t str[3] = { CH * 4, CH * 4 * W, CH * 4 * W * H };
        uint32_t es[4] = { 1, 1, 1, 1 };
        int lo[2] = { -1, 0 }, hi[2] = { -1, -2 };
        unsigned ppc = 40, cpp = 4;
        ptxeTensorMap tm;
        ck_assert_int_eq(ptxeTensorMapEncodeIm2col(C, &tm, PTXE_TENSOR_MAP_DATA_TYPE_UINT32,
                                                   (uint32_t)rank, dg, dims, str, lo, hi, cpp,
                                                   ppc, es, PTXE_TENSOR_MAP_INTERLEAVE_NONE,
                                                   PTXE_TENSOR_MAP_SWIZZLE_NONE,
                                                   PTXE_TENSOR_MAP_L2_PROMOTION_NONE,
                                                   PTXE_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
                         PTXE_SUCCESS);
        int cc = 4, cw = 1, ch = 1, cn = 0;
        unsigned short ow = 1, oh = 2;
        unsigned bytes = ppc * cpp * 4;
        static uint32_t out[1024], want[1024];
        ptxeDevptr dout = dev(NULL, sizeof out);
        void *a[] = { &tm, &dout, &rank, &cc, &cw, &ch, &cn, &ow, &oh, &bytes };
        run(1, 64, a);
        get(out, dout, bytes);
        int nw = W - 1 + hi[0] - lo[0] + 1, nh = rank == 4 ? H - 1 + hi[1] - lo[1] + 1 : 1;
        int start = (cw - lo[0]) + (rank == 4 ? (ch - lo[1]) * nw : 0);
        for (unsigned p = 0; p < ppc; p++) {
            int l = start + (int)p, pw = lo[0] + l % nw, ph = lo[1] + l / nw % nh;
            int n = l / (nw * nh), x = pw + ow, y = rank == 4 ? ph + oh : 0;
            int hh = rank == 4 ? H : 1;
            for (unsigned k = 0; k < cpp; k++) {
                int in = n < N && x >= 0 && x < W && y >= 0 && y < hh;
                want[p * cpp + k] = in ? g[(((size_t)n * hh + y) * W + x) * CH + cc + k] : 0;
            }
        }
        for (unsigned j = 0; j < ppc * cpp; j++)
            ck_assert_msg(out[j] == want[j], "rank %d element %u: got %u, want %u", rank, j,
                          out[j], want[j]);
        gpu_compare(rank == 3 ? "tma_im2col3" : "tma_im2col4", out, bytes);
        done();
    }
}
END_TEST

/* ------------------------------------------------------------------ stores and reductions */
static uint32_t red_ref(int op, uint32_t d, uint32_t s)
{
    switch (op) {
    case 0: return s;
    case 1: return d + s;
    case 2: return d < s ? d : s;
    case 3: return d > s ? d : s;
    case 4: return d & s;
    case 5: return d | s;
    case 6: return d ^ s;
    case 7: return d >= s ? 0 : d + 1;              /* .inc (§9.7.12.5 atom semantics) */
    default: return d == 0 || d > s ? s : d - 1;   /* .dec */
    }
}

/* a 16x4 u32 box from shared memory stored (op 0) or reduced (.add .min .max .and .or .xor .inc
 * .dec) into a 20x6 tensor at (8, 2), and at (-4, -1): the part outside the tensor is dropped */
START_TEST(tma_store_reduce)
{
    enum { TW = 20, TH = 6, BW = 16, BH = 4 };
    for (int c = 0; c < 11; c++) {   /* 9 ops at (8, 2); store and .add at (-4, -1) */
        int op = c < 9 ? c : c - 9;
        load("tma_store2d");
        static uint32_t g[TH][TW], in[BH * BW], want[TH][TW], out[TH][TW];
        for (int j = 0; j < TH; j++)
            for (int i = 0; i < TW; i++) g[j][i] = rnd() % 40;
        for (int k = 0; k < BH * BW; k++) in[k] = op >= 7 ? rnd() % 40 : rnd();
        memcpy(want, g, sizeof g);
        int x = c < 9 ? 8 : -4, y = c < 9 ? 2 : -1;   /* columns 20.., -4..-1, row -1 dropped */
        for (int j = 0; j < BH; j++)
            for (int i = 0; i < BW; i++)
                if (x + i >= 0 && x + i < TW && y + j >= 0 && y + j < TH)
                    want[y + j][x + i] = red_ref(op, g[y + j][x + i], in[j * BW + i]);
        ptxeDevptr dg = dev(g, sizeof g);
        uint64_t dims[2] = { TW, TH }, str[1] = { TW * 4 };
        uint32_t box[2] = { BW, BH }, es[2] = { 1, 1 };
        ptxeTensorMap tm;
        ck_assert_int_eq(ptxeTensorMapEncodeTiled(C, &tm, PTXE_TENSOR_MAP_DATA_TYPE_UINT32, 2, dg,
                                                  dims, str, box, es,
                                                  PTXE_TENSOR_MAP_INTERLEAVE_NONE,
                                                  PTXE_TENSOR_MAP_SWIZZLE_64B,
                                                  PTXE_TENSOR_MAP_L2_PROMOTION_NONE,
                                                  PTXE_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
                         PTXE_SUCCESS);
        /* the shared box is 64B-swizzled: write `in` to shared memory in that layout */
        static uint32_t sw[BH * BW];
        for (int k = 0; k < BH * BW; k++) sw[swizzled(2, (size_t)k * 4) / 4] = in[k];
        ptxeDevptr dsw = dev(sw, sizeof sw);
        unsigned bytes = sizeof in;
        void *a[] = { &tm, &dsw, &x, &y, &bytes, &op };
        run(1, 32, a);
        get(out, dg, sizeof out);
        for (int j = 0; j < TH; j++)
            for (int i = 0; i < TW; i++)
                ck_assert_msg(out[j][i] == want[j][i], "op %d (%d,%d): got %u, want %u", op, i, j,
                              out[j][i], want[j][i]);
        done();
    }
}
END_TEST

/* ------------------------------------------------------------------ multicast */
/* cluster of 2: CTA 0 loads a 16x4 u32 box once into both CTAs' shared memory (ctaMask 0b11),
 * each CTA's mbarrier gets the complete-tx */
START_TEST(tma_multicast)
{
    load("tma_multicast");
    enum { TW = 32, TH = 8 };
    static uint32_t g[TH][TW], out[2][64];
    for (int j = 0; j < TH; j++)
        for (int i = 0; i < TW; i++) g[j][i] = rnd();
    ptxeDevptr dg = dev(g, sizeof g), dout = dev(NULL, sizeof out);
    uint64_t dims[2] = { TW, TH }, str[1] = { TW * 4 };
    uint32_t box[2] = { 16, 4 }, es[2] = { 1, 1 };
    ptxeTensorMap tm;
    ck_assert_int_eq(ptxeTensorMapEncodeTiled(C, &tm, PTXE_TENSOR_MAP_DATA_TYPE_INT32, 2, dg, dims,
                                              str, box, es, PTXE_TENSOR_MAP_INTERLEAVE_NONE,
                                              PTXE_TENSOR_MAP_SWIZZLE_NONE,
                                              PTXE_TENSOR_MAP_L2_PROMOTION_NONE,
                                              PTXE_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
                     PTXE_SUCCESS);
    int x = 12, y = 3;
    unsigned bytes = 256;
    void *a[] = { &tm, &dout, &x, &y, &bytes };
    run(2, 64, a);
    get(out, dout, sizeof out);
    for (int r = 0; r < 2; r++)
        for (int k = 0; k < 64; k++)
            ck_assert_msg(out[r][k] == g[y + k / 16][x + k % 16], "rank %d word %d", r, k);
    done();
}
END_TEST

/* ------------------------------------------------------------------ cp.reduce.async.bulk */
static uint16_t h16(int v)   /* a small integer as an f16 (exact) */
{
    if (v == 0) return 0;
    unsigned a = (unsigned)abs(v), e = 0;
    while ((a >> e) > 1) e++;
    return (uint16_t)((v < 0 ? 0x8000u : 0) | (e + 15) << 10 | ((a << (10 - e)) & 0x3ff));
}
static uint16_t bf16i(int v)   /* a small integer as a bf16 (exact) */
{
    float f = (float)v;
    uint32_t u;
    memcpy(&u, &f, 4);
    return (uint16_t)(u >> 16);
}
static float bf(uint16_t b)
{
    uint32_t u = (uint32_t)b << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* one element pair (op of tma.cu bulk_reduce) on 32-, 64- or 16-bit words */
static uint64_t bulk_ref(int op, uint64_t d, uint64_t s)
{
    float fd, fs;
    double dd, ds;
    switch (op) {
    case 0: return (uint32_t)(d + s);
    case 1: return d < s ? d : s;
    case 2: return (int32_t)d > (int32_t)s ? d : s;
    case 3: return red_ref(7, (uint32_t)d, (uint32_t)s);
    case 4: return red_ref(8, (uint32_t)d, (uint32_t)s);
    case 5: return d & s;
    case 6: return d | s;
    case 7: return d ^ s;
    case 8: memcpy(&fd, &d, 4); memcpy(&fs, &s, 4); fd += fs; { uint32_t u; memcpy(&u, &fd, 4);
                                                                 return u; }
    case 9: return (int32_t)d < (int32_t)s ? d : s;
    case 10: return d + s;
    case 11: return (int64_t)d > (int64_t)s ? d : s;
    case 12: return d ^ s;
    case 13: memcpy(&dd, &d, 8); memcpy(&ds, &s, 8); dd += ds; { uint64_t u; memcpy(&u, &dd, 8);
                                                                   return u; }
    case 14: return 0;   /* f16 add: computed by the caller from the integers */
    default: return bf((uint16_t)d) > bf((uint16_t)s) ? d : s;
    }
}

START_TEST(tma_bulk_reduce)
{
    enum { BYTES = 256 };
    for (int op = 0; op <= 15; op++) {
        load("bulk_reduce");
        unsigned esz = op >= 14 ? 2 : op >= 10 ? 8 : 4;
        static uint8_t g[BYTES], in[BYTES], out[BYTES], want[BYTES];
        int gi[128], si[128];
        for (unsigned k = 0; k < BYTES / esz; k++) {
            uint64_t a = ((uint64_t)rnd() << 32) | rnd(), b = ((uint64_t)rnd() << 32) | rnd();
            if (esz == 4) { a = (uint32_t)a; b = (uint32_t)b; }
            if (op == 3 || op == 4) { a %= 50; b %= 50; }
            if (op == 8) { float fa = (float)(int)(a % 999) / 8, fb = (float)(int)(b % 77) / 3;
                           uint32_t ua, ub; memcpy(&ua, &fa, 4); memcpy(&ub, &fb, 4);
                           a = ua; b = ub; }
            if (op == 13) { double x = (double)(a % 12345) / 7, y = (double)(b % 999) / 11;
                            memcpy(&a, &x, 8); memcpy(&b, &y, 8); }
            if (op >= 14) { gi[k] = (int)(a % 200) - 100; si[k] = (int)(b % 200) - 100;
                            a = op == 14 ? h16(gi[k]) : bf16i(gi[k]);
                            b = op == 14 ? h16(si[k]) : bf16i(si[k]); }
            uint64_t r = op == 14 ? h16(gi[k] + si[k]) : bulk_ref(op, a, b);
            memcpy(g + k * esz, &a, esz);
            memcpy(in + k * esz, &b, esz);
            memcpy(want + k * esz, &r, esz);
        }
        ptxeDevptr dg = dev(g, BYTES), din = dev(in, BYTES);
        unsigned bytes = BYTES;
        void *a[] = { &dg, &din, &bytes, &op };
        run(1, 32, a);
        get(out, dg, BYTES);
        for (unsigned k = 0; k < BYTES; k++)
            ck_assert_msg(out[k] == want[k], "op %d byte %u: got 0x%02x, want 0x%02x", op, k,
                          out[k], want[k]);
        done();
    }
}
END_TEST

START_TEST(tma_bulk_reduce_smem)
{
    load("bulk_reduce_smem");
    static uint32_t x[96], y[96], out[96];
    for (int k = 0; k < 96; k++) { x[k] = rnd(); y[k] = rnd(); }
    ptxeDevptr da = dev(x, sizeof x), db = dev(y, sizeof y), dout = dev(NULL, sizeof out);
    unsigned bytes = sizeof x;
    void *a[] = { &dout, &da, &db, &bytes };
    run(1, 64, a);
    get(out, dout, sizeof out);
    for (int k = 0; k < 96; k++) ck_assert_uint_eq(out[k], x[k] + y[k]);
    done();
}
END_TEST

/* ------------------------------------------------------------------ tensormap.replace */
/* the map names tensor A; the kernel replaces its global address by B's and its dimension 0 by
 * 20 (tensormap.replace in shared memory), publishes it with tensormap.cp_fenceproxy to a
 * global map and loads a 32x8 box through it: B's elements, dimension 0 cut at 20 */
START_TEST(tma_replace)
{
    load("tmap_replace");
    static float ga[GH][GW], gb[GH][GW];
    static uint32_t out[256];
    for (int j = 0; j < GH; j++)
        for (int i = 0; i < GW; i++) { ga[j][i] = 1.0f; gb[j][i] = (float)(j * 100 + i); }
    ptxeDevptr da = dev(ga, sizeof ga), db = dev(gb, sizeof gb), dout = dev(NULL, sizeof out);
    ptxeTensorMap tm = map2d(da, 32, 8, PTXE_TENSOR_MAP_SWIZZLE_NONE,
                             PTXE_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    ptxeDevptr dgm = dev(NULL, 128);
    unsigned dim0 = 20, bytes = sizeof out;
    int x = 4, y = 2;
    void *a[] = { &tm, &dgm, &db, &dim0, &dout, &x, &y, &bytes };
    run(1, 64, a);
    get(out, dout, sizeof out);
    for (int k = 0; k < 256; k++) {
        int gx = x + k % 32, gy = y + k / 32;
        float v = gx < 20 ? gb[gy][gx] : 0.0f;
        uint32_t u;
        memcpy(&u, &v, 4);
        ck_assert_msg(out[k] == u, "word %d: got 0x%08x, want 0x%08x", k, out[k], u);
    }
    uint8_t gm[128];
    get(gm, dgm, 128);   /* the published map: B's address, dimension 0 = 20 */
    uint64_t addr;
    uint32_t d0;
    memcpy(&addr, gm, 8);
    memcpy(&d0, gm + 20, 4);
    ck_assert_uint_eq(addr, db);
    ck_assert_uint_eq(d0, 20);
    done();
}
END_TEST

/* ------------------------------------------------------------------ encoder validation */
START_TEST(tma_encode_refused)
{
    hx_ctx(0);
    ptxeTensorMap tm;
    static const uint64_t dims[2] = { 64, 64 }, str[1] = { 256 }, badstr[1] = { 264 },
                          short_str[1] = { 128 };
    static const uint32_t box[2] = { 32, 8 }, bigbox[2] = { 300, 8 }, es[2] = { 1, 1 },
                          bades[2] = { 1, 9 };
    const struct {
        ptxeTensorMapDataType t;
        const uint64_t *str;
        const uint32_t *box, *es;
        ptxeTensorMapSwizzle sw;
        ptxeTensorMapFloatOOBfill fill;
        uint64_t ga;
        const char *why;
    } bad[] = {
        { PTXE_TENSOR_MAP_DATA_TYPE_FLOAT32, str, bigbox, es, 0, 0, 0, "box dim 0 is 300" },
        { PTXE_TENSOR_MAP_DATA_TYPE_FLOAT32, badstr, box, es, 0, 0, 0, "global stride 0" },
        { PTXE_TENSOR_MAP_DATA_TYPE_FLOAT32, short_str, box, es, 0, 0, 0, "may not overlap" },
        { PTXE_TENSOR_MAP_DATA_TYPE_FLOAT32, str, box, bades, 0, 0, 0, "elementStrides[1] is 9" },
        { PTXE_TENSOR_MAP_DATA_TYPE_FLOAT32, str, box, es, PTXE_TENSOR_MAP_SWIZZLE_64B, 0, 0,
          "at most the swizzle span 64" },
        { PTXE_TENSOR_MAP_DATA_TYPE_INT32, str, box, es, 0, 1, 0, "OOB-NaN fill on an integer" },
        { PTXE_TENSOR_MAP_DATA_TYPE_FLOAT32, str, box, es, 0, 0, 8, "16-byte alignment" },
        { (ptxeTensorMapDataType)13, str, box, es, 0, 0, 0, "tensorDataType 13" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        uint64_t ga = 0x700000000000ull + bad[i].ga;
        ptxeResult r = ptxeTensorMapEncodeTiled(C, &tm, bad[i].t, 2, ga,
                                                dims, bad[i].str, bad[i].box, bad[i].es,
                                                PTXE_TENSOR_MAP_INTERLEAVE_NONE, bad[i].sw,
                                                PTXE_TENSOR_MAP_L2_PROMOTION_NONE, bad[i].fill);
        ck_assert_int_eq(r, PTXE_ERROR_INVALID_VALUE);
        ck_assert_msg(strstr(ptxeGetErrorMessage(C), bad[i].why), "case %zu: %s", i,
                      ptxeGetErrorMessage(C));
    }
    /* im2col: rank 2, and a corner out of range for rank 5 */
    uint64_t d5[5] = { 8, 8, 8, 8, 2 }, s5[4] = { 32, 256, 2048, 16384 };
    uint32_t e5[5] = { 1, 1, 1, 1, 1 };
    int lo[3] = { -20, 0, 0 }, hi[3] = { 0, 0, 0 };
    ck_assert_int_eq(ptxeTensorMapEncodeIm2col(C, &tm, PTXE_TENSOR_MAP_DATA_TYPE_FLOAT32, 2,
                                               0x700000000000ull, d5, s5, lo, hi, 8, 16, e5, 0, 0,
                                               0, 0),
                     PTXE_ERROR_INVALID_VALUE);
    ck_assert_ptr_nonnull(strstr(ptxeGetErrorMessage(C), "3..5 in im2col mode"));
    ck_assert_int_eq(ptxeTensorMapEncodeIm2col(C, &tm, PTXE_TENSOR_MAP_DATA_TYPE_FLOAT32, 5,
                                               0x700000000000ull, d5, s5, lo, hi, 8, 16, e5, 0, 0,
                                               0, 0),
                     PTXE_ERROR_INVALID_VALUE);
    ck_assert_msg(strstr(ptxeGetErrorMessage(C), "pixel-box corner 0"), "%s",
                  ptxeGetErrorMessage(C));
    lo[0] = -16;
    ck_assert_int_eq(ptxeTensorMapEncodeIm2col(C, &tm, PTXE_TENSOR_MAP_DATA_TYPE_FLOAT32, 5,
                                               0x700000000000ull, d5, s5, lo, hi, 8, 16, e5, 0, 0,
                                               0, 0),
                     PTXE_SUCCESS);
    done();
}
END_TEST

/* ------------------------------------------------------------------ refused forms, faults */
static const char *load_inline(const char *body)
{
    static char text[4096], msg[1024];
    snprintf(text, sizeof text,
             ".version 8.4\n.target sm_90a\n.address_size 64\n"
             ".visible .entry k(.param .align 64 .b8 tm[128], .param .u64 p)\n{\n"
             ".reg .b32 %%r<8>;\n.reg .b64 %%rd<8>;\n.reg .b16 %%h<4>;\n"
             ".shared .align 1024 .b8 buf[4096];\n.shared .align 8 .b64 bar;\n%s\nret;\n}\n",
             body);
    ptxeResult r = hx_load_text(text, "inline.ptx", 0);
    snprintf(msg, sizeof msg, "%s", r == PTXE_SUCCESS ? "" : ptxeGetErrorMessage(C));
    done();
    return msg;
}

START_TEST(tma_refused_forms)
{
    static const struct { const char *insn, *why; } bad[] = {
        { "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
          " [buf], [%rd1, {%r1, %r2, %r3}], [bar];", "wrong number of tensor coordinates" },
        { "cp.async.bulk.tensor.2d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes"
          " [buf], [%rd1, {%r1, %r2}], [bar], {%h1};", ".im2col with .2d" },
        { "cp.async.bulk.tensor.3d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes"
          " [buf], [%rd1, {%r1, %r2, %r3}], [bar], {%h1, %h2};", "found 2 im2col offsets" },
        { "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [buf], [%rd1, {%r1, %r2}];",
          "expected [tensorMap, {2 coordinates}]" },
        { "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f16 [%rd1], [buf], 64;",
          "without .noftz" },
        { "cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.add.f32"
          " [buf], [buf], 64, [bar];", ".add.f32 with .dst .shared::cluster" },
        { "tensormap.replace.tile.elemtype.shared::cta.b1024.b32 [buf], 13;", "0..12" },
        { "tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [buf], 5, %r1;", "bad ord" },
        { "tensormap.replace.tile.global_address.shared::cta.b1024.b32 [buf], %r1;",
          "expected .b64" },
        { "tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned"
          " [%rd1], [buf], 64;", "expected 128" },
        { "ld.global.u32 %r1, [%rd1, {%r2}];", "operands inside [ ], expected one address" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *m = load_inline(bad[i].insn);
        ck_assert_msg(strstr(m, bad[i].why) && strstr(m, "inline.ptx:11:"),
                      "case %zu: want '%s' at inline.ptx:11, got: %s", i, bad[i].why, m);
    }
    /* accepted: forms written right, with the optional operands */
    static const char *const good[] = {
        "cp.async.bulk.prefetch.tensor.3d.L2.global.im2col [%rd1, {%r1, %r2, %r3}], {%h1};",
        "cp.async.bulk.prefetch.tensor.1d.L2.global.tile.L2::cache_hint [%rd1, {%r1}], %rd2;",
        "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
        ".L2::cache_hint [buf], [%rd1, {%r1, %r2}], [bar], %rd2;",
        "cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes"
        ".multicast::cluster.L2::cache_hint [buf], [%rd1, {%r1, %r2, %r3, %r4}], [bar],"
        " {%h1, %h2}, %h3, %rd2;",
        "cp.async.bulk.tensor.5d.global.shared::cta.im2col_no_offs.bulk_group.L2::cache_hint"
        " [%rd1, {%r1, %r2, %r3, %r4, %r5}], [buf], %rd2;",
        "cp.reduce.async.bulk.tensor.1d.global.shared::cta.max.tile.bulk_group [%rd1, {%r1}],"
        " [buf];",
        "cp.reduce.async.bulk.global.shared::cta.bulk_group.L2::cache_hint.add.u64 [%rd1], [buf],"
        " 32, %rd2;",
        "tensormap.replace.tile.global_stride.global.b1024.b64 [%rd1], 3, %rd2;",
        "tensormap.replace.tile.swizzle_mode.b1024.b32 [%rd1], 3;",
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
        ck_assert_msg(!*load_inline(good[i]), "good %zu refused: %s", i, load_inline(good[i]));
}
END_TEST

/* The producer pattern of TMA kernels: lane 0 (its code placed after the wait loop) completes the
 * phase while lanes 1..31 of its warp spin in mbarrier.try_wait: a failed wait lets the warp's
 * other group run (forward progress of divergent lanes, as on a GPU since sm_70), else the
 * spinning group, at the lower pc, would starve lane 0. */
START_TEST(tma_spin_progress)
{
    static const char text[] =
        ".version 8.4\n.target sm_90\n.address_size 64\n"
        ".visible .entry k(.param .u64 out)\n{\n"
        ".reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n.reg .pred %p<4>;\n"
        ".shared .align 8 .b64 bar;\n"
        "mov.u32 %r1, %tid.x;\nsetp.eq.u32 %p1, %r1, 0;\n"
        "@%p1 mbarrier.init.shared::cta.b64 [bar], 1;\nbar.sync 0;\n"
        "@%p1 bra PRODUCER;\n"
        "WAIT:\nmbarrier.try_wait.parity.shared::cta.b64 %p2, [bar], 0;\n@!%p2 bra WAIT;\n"
        "ld.param.u64 %rd1, [out];\nmul.wide.u32 %rd2, %r1, 4;\nadd.u64 %rd1, %rd1, %rd2;\n"
        "st.global.u32 [%rd1], 7;\nret;\n"
        "PRODUCER:\nmbarrier.arrive.shared::cta.b64 %rd3, [bar];\nbra WAIT;\n}\n";
    ck_assert_msg(hx_load_text(text, "spin.ptx", 0) == PTXE_SUCCESS, "%s",
                  ptxeGetErrorMessage(C));
    hx_function("k");
    ptxeDevptr dout = dev(NULL, 128);
    void *a[] = { &dout };
    ptxeLaunchConfig cfg = { { 1, 1, 1 }, { 32, 1, 1 },          { 0, 0, 0 }, 0, 100000,
                             0,           PTXE_SCHEDULE_DEFAULT, 0,           0 };
    ptxeResult r = ptxeLaunchKernel(F, &cfg, a);
    ck_assert_msg(r == PTXE_SUCCESS, "%s", ptxeGetErrorMessage(C));
    uint32_t out[32];
    get(out, dout, sizeof out);
    for (int l = 0; l < 32; l++) ck_assert_uint_eq(out[l], 7);
    done();
}
END_TEST

/* cp.async.bulk.tensor.3d.global.shared::cta.im2col_no_offs (§9.7.8.24.9): the pixels of the
 * column written back to the positions they were read from (no offsets), pixels past the last
 * image dropped; 8 pixels of 4 u32 channels from W position 3 of image 1 (W = 6, bounding box
 * -1 .. 4): pixels (n1, w3) (n1, w4) then past the last image */
START_TEST(tma_im2col_store)
{
    static const char text[] =
        ".version 8.4\n.target sm_90a\n.address_size 64\n"
        ".visible .entry k(.param .align 64 .b8 tm[128], .param .u64 in)\n{\n"
        ".reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n.reg .pred %p<2>;\n"
        ".shared .align 128 .b8 buf[128];\n"
        "ld.param.u64 %rd1, [in];\nmov.u32 %r1, %tid.x;\nmul.wide.u32 %rd2, %r1, 4;\n"
        "add.u64 %rd1, %rd1, %rd2;\nld.global.u32 %r2, [%rd1];\nmov.u32 %r3, buf;\n"
        "mul.lo.u32 %r4, %r1, 4;\nadd.u32 %r3, %r3, %r4;\nst.shared.u32 [%r3], %r2;\n"
        "fence.proxy.async.shared::cta;\nbar.sync 0;\nsetp.ne.u32 %p1, %r1, 0;\n@%p1 ret;\n"
        "mov.b64 %rd3, tm;\ncvta.param.u64 %rd3, %rd3;\nmov.u32 %r5, 4;\nmov.u32 %r6, 3;\n"
        "mov.u32 %r7, 1;\n"
        "cp.async.bulk.tensor.3d.global.shared::cta.im2col_no_offs.bulk_group"
        " [%rd3, {%r5, %r6, %r7}], [buf];\n"
        "cp.async.bulk.commit_group;\ncp.async.bulk.wait_group 0;\nret;\n}\n";
    ck_assert_msg(hx_load_text(text, "store.ptx", PTXE_CHECK_ALL) == PTXE_SUCCESS,
                  "%s", ptxeGetErrorMessage(C));
    hx_function("k");
    enum { CH = 8, W = 6, N = 2 };
    static uint32_t g[N][W][CH], in[32], out[N][W][CH];
    for (int k = 0; k < 32; k++) in[k] = 1000 + (uint32_t)k;
    ptxeDevptr dg = dev(g, sizeof g), din = dev(in, sizeof in);
    uint64_t dims[3] = { CH, W, N }, str[2] = { CH * 4, CH * 4 * W };
    uint32_t es[3] = { 1, 1, 1 };
    int lo[1] = { -1 }, hi[1] = { -1 };
    ptxeTensorMap tm;
    ck_assert_int_eq(ptxeTensorMapEncodeIm2col(C, &tm, PTXE_TENSOR_MAP_DATA_TYPE_UINT32, 3, dg,
                                               dims, str, lo, hi, 4, 8, es, 0, 0, 0, 0),
                     PTXE_SUCCESS);
    void *a[] = { &tm, &din };
    ptxeResult r = launch(1, 32, a);
    ck_assert_msg(r == PTXE_SUCCESS && !ptxeGetFindingCount(C), "%s", ptxeGetErrorMessage(C));
    evidence_kernel(F, "test_exec_tma.c");
    get(out, dg, sizeof out);
    for (int n = 0; n < N; n++)
        for (int w = 0; w < W; w++)
            for (int c = 0; c < CH; c++) {
                uint32_t want = n == 1 && (w == 3 || w == 4) && c >= 4 ? in[(w - 3) * 4 + c - 4]
                                                                       : 0;
                ck_assert_msg(out[n][w][c] == want, "(n%d, w%d, c%d): got %u, want %u", n, w, c,
                              out[n][w][c], want);
            }
    done();
}
END_TEST

/* a pointer that does not hold a tensor map, and a map of the wrong rank: launch faults */
START_TEST(tma_bad_map_faults)
{
    load("tma_load");
    ptxeTensorMap junk;
    memset(&junk, 0x5a, sizeof junk);
    ptxeDevptr dout = dev(NULL, 1024);
    int rank = 2, zero = 0;
    unsigned bytes = 1024;
    void *a[] = { &junk, &dout, &rank, &zero, &zero, &zero, &zero, &zero, &bytes };
    ck_assert_int_eq(launch(1, 32, a), PTXE_ERROR_LAUNCH_FAILED);
    ck_assert_msg(strstr(ptxeGetErrorMessage(C), "no tensor map at this address"), "%s",
                  ptxeGetErrorMessage(C));
    ptxeDevptr dg = dev(NULL, sizeof g2);
    ptxeTensorMap tm = map2d(dg, 32, 8, 0, 0);
    rank = 3;
    ck_assert_int_eq(launch(1, 32, (void *[]){ &tm, &dout, &rank, &zero, &zero, &zero, &zero,
                                               &zero, &bytes }),
                     PTXE_ERROR_LAUNCH_FAILED);
    ck_assert_msg(strstr(ptxeGetErrorMessage(C), "has rank 2, the instruction .3d"), "%s",
                  ptxeGetErrorMessage(C));
    done();
}
END_TEST

/* im2col: an offset past §5.5.4.1's range for rank 4 (2^8 - 1), a filter base outside the
 * bounding box: faults */
START_TEST(tma_im2col_faults)
{
    load("tma_im2col");
    static uint32_t g[2 * 5 * 6 * 8];
    ptxeDevptr dg = dev(g, sizeof g), dout = dev(NULL, 1024);
    uint64_t dims[4] = { 8, 6, 5, 2 }, str[3] = { 32, 192, 960 };
    uint32_t es[4] = { 1, 1, 1, 1 };
    int lo[2] = { -1, -1 }, hi[2] = { -1, -1 };
    ptxeTensorMap tm;
    ck_assert_int_eq(ptxeTensorMapEncodeIm2col(C, &tm, PTXE_TENSOR_MAP_DATA_TYPE_UINT32, 4, dg,
                                               dims, str, lo, hi, 4, 16, es, 0, 0, 0, 0),
                     PTXE_SUCCESS);
    int rank = 4, cc = 0, cw = 0, ch = 0, cn = 0;
    unsigned short ow = 0, oh = 256;
    unsigned bytes = 256;
    void *a[] = { &tm, &dout, &rank, &cc, &cw, &ch, &cn, &ow, &oh, &bytes };
    ck_assert_int_eq(launch(1, 32, a), PTXE_ERROR_LAUNCH_FAILED);
    ck_assert_msg(strstr(ptxeGetErrorMessage(C), "im2col offset 256 of dimension 2 is outside "
                                                 "[0, 255] for rank 4"),
                  "%s", ptxeGetErrorMessage(C));
    oh = 255;
    cw = 5;   /* the bounding box of W: -1 .. 6 - 1 - 1 = 4 */
    ck_assert_int_eq(launch(1, 32, a), PTXE_ERROR_LAUNCH_FAILED);
    ck_assert_msg(strstr(ptxeGetErrorMessage(C), "im2col coordinate 5 of dimension 1 is outside "
                                                 "the bounding box [-1, 4]"),
                  "%s", ptxeGetErrorMessage(C));
    done();
}
END_TEST

static void add_tests(TCase *tc)
{
    tcase_add_test(tc, tma_tile2d_swizzle128_oob_nan);
    tcase_add_test(tc, tma_tile2d_negative_zero_fill);
    tcase_add_test(tc, tma_tile2d_inner);
    tcase_add_test(tc, tma_tile_ranks);
    tcase_add_test(tc, tma_im2col);
    tcase_add_test(tc, tma_store_reduce);
    tcase_add_test(tc, tma_multicast);
    tcase_add_test(tc, tma_bulk_reduce);
    tcase_add_test(tc, tma_bulk_reduce_smem);
    tcase_add_test(tc, tma_replace);
    tcase_add_test(tc, tma_encode_refused);
    tcase_add_test(tc, tma_refused_forms);
    tcase_add_test(tc, tma_bad_map_faults);
    tcase_add_test(tc, tma_im2col_faults);
    tcase_add_test(tc, tma_spin_progress);
    tcase_add_test(tc, tma_im2col_store);
}

#include "tests/check_main.h"
