/* tests/test_exec_tex.c — textures and surfaces in the executor (ISA §5.3, §9.7.9 tex / tld4 /
 * txq / istypep, §9.7.10 suld / sust / sured / suq): the kernels of tests/kernels/texsurf.cu
 * (nvcc -ptx -arch=sm_80, cudaTextureObject_t / cudaSurfaceObject_t) run through the C API on
 * objects made by ptxeCreateTextureObject / ptxeCreateSurfaceObject and compared bit for bit with
 * the C reference below, which restates the texturing rules independently of exec/tex.c:
 *   - point sampling T[floor(x)] (x scaled by the extent for normalized coordinates);
 *   - linear filtering (CUDA C++ Programming Guide, appendix "Texture Fetching", "Linear
 *     Filtering"): x - 0.5, i = floor, weight a = frac in 9-bit fixed point with 8 fractional
 *     bits.  The guide does not say how the fraction is rounded to 1/256, so every coordinate
 *     used here has a fraction that is a multiple of 1/256 and texels that are small integers:
 *     the result is then exact whatever the rounding and the accumulation order.  Products of
 *     two or more fractions are rounded to 1/256 too (to nearest, ties up), what an H100 does
 *     (tests/kernels/gpu/tx_2d_linear_border.bin; exec/tex.c lin_weights): the reference
 *     interpolates in the form sum over dimension sets T of P(T) times the mixed difference of
 *     the texels over T, P(T) the rounded product;
 *   - address modes wrap / mirror (normalized coordinates only) / clamp / border;
 *   - cubemap faces by the guide's table "Cubemap Fetch" (§9.7.9.3: the major axis selects it).
 * Inline modules test the refused forms (load errors with file:line:col), module-scope .texref /
 * .surfref variables bound by ptxeModuleBindRef, and the API's checks on descriptions. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tests/check_quiet.h"
#define HX_SOURCE "kernels/texsurf.ptx"   /* the evidence of launches of inline modules too */
#include "tests/exec_harness.h"
#include "tests/kernels/texsurf_inputs.h"

#define rnd tsi_rnd

/* the kernel `kernel` of tests/kernels/texsurf.ptx with every check on: a correct kernel must run
 * without a finding (sured counts as atomic); each test's inputs as record_gpu.cu makes them */
static void load(const char *kernel)
{
    tsi_seed();
    hx_checks = PTXE_CHECK_ALL;
    hx_load("texsurf.ptx", kernel);
}

#define HDR ".version 8.4\n.target sm_80\n.address_size 64\n"

static ptxeResult load_text(const char *text)
{
    ptxeResult r = hx_load_text(text, "t.ptx", 0);
    if (r == PTXE_SUCCESS) {
        hx_function(NULL);
        evidence_module(M, "test_exec_tex.c");
    }
    return r;
}

/* a gx*gy grid of bx-thread CTAs: the launch result (the kernel counts as evidence either way) */
static ptxeResult launch_xy(unsigned gx, unsigned gy, unsigned bx, void **args)
{
    ptxeResult r = hx_launch(gx, gy, 1, bx, 1, 1, 0, args);
    evidence_kernel(F, hx_source);
    return r;
}

/* outputs recorded on a GPU by tests/kernels/record_gpu.sh (gpu/NAME.bin), where it has run:
 * every 32-bit word must agree; a failure says how many differ and shows the first */
static void gpu_compare(const char *name, const void *got, size_t n)
{
    char file[128];
    snprintf(file, sizeof file, "%s.bin", name);
    FILE *f = gpu_open(file);
    if (!f) return;
    unsigned char *g = malloc(n);
    ck_assert_uint_eq(fread(g, 1, n, f), n);
    fclose(f);
    size_t ndiff = 0, first = 0;
    uint32_t gw = 0, xw = 0;
    for (size_t i = 0; i + 4 <= n; i += 4)
        if (memcmp(g + i, (const char *)got + i, 4) && !ndiff++) {
            first = i / 4;
            memcpy(&gw, g + i, 4);
            memcpy(&xw, (const char *)got + i, 4);
        }
    free(g);
    ck_assert_msg(!ndiff, "%s: %zu of %zu words differ from the GPU, the first: word %zu, "
                  "executor 0x%08x, GPU 0x%08x", name, ndiff, n / 4, first, xw, gw);
}

static uint32_t fb(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
#define CHECK_F(got, want, what, i)                                                          \
    ck_assert_msg(fb(got) == fb(want), "%s %d: got %a (%g), want %a (%g)", what, (int)(i),   \
                  (double)(got), (double)(got), (double)(want), (double)(want))

/* ------------------------------------------------------------------ the C reference */
/* a texture as the reference sees it: texels already as float (4 channels), extents, sampler */
typedef struct {
    const float *t;              /* [layer][z][y][x][4] */
    int w, h, d, layers, dims;
    ptxeTextureDesc s;
} rtex;

/* §9.7.9.1-2 / CUDA guide "Texture Fetching": the index of i under the address mode, -1 border */
static long r_addr(int mode, int norm, long i, long n)
{
    if (!norm && (mode == PTXE_ADDRESS_WRAP || mode == PTXE_ADDRESS_MIRROR))
        mode = PTXE_ADDRESS_CLAMP;
    if (mode == PTXE_ADDRESS_BORDER) return i < 0 || i >= n ? -1 : i;
    if (mode == PTXE_ADDRESS_CLAMP) return i < 0 ? 0 : i >= n ? n - 1 : i;
    long m = i;
    while (m < 0) m += 2 * n;   /* test coordinates are small */
    m %= 2 * n;
    if (mode == PTXE_ADDRESS_WRAP) return m % n;
    return m < n ? m : 2 * n - 1 - m;
}

static void r_texel(const rtex *r, const long *ix, int layer, float *out)
{
    long n[3] = { r->w, r->h, r->d }, a[3] = { 0, 0, 0 };
    for (int k = 0; k < r->dims; k++) {
        a[k] = r_addr(r->s.addressMode[k], r->s.normalizedCoords, ix[k], n[k]);
        if (a[k] < 0) { memcpy(out, r->s.borderColor, 16); return; }
    }
    memcpy(out, &r->t[((((long)layer * r->d + a[2]) * r->h + a[1]) * r->w + a[0]) * 4], 16);
}

/* r_sample rounds products of fractions to 1/256 (the H100's rule) unless this is 0 */
static int r_round_products = 1;

static void r_sample(const rtex *r, const float *x, int layer, float *out)
{
    long n[3] = { r->w, r->h, r->d }, i[3] = { 0, 0, 0 };
    float a[3] = { 0, 0, 0 };
    int lin = r->s.filterMode == PTXE_FILTER_LINEAR;
    for (int k = 0; k < r->dims; k++) {
        float c = r->s.normalizedCoords ? x[k] * (float)n[k] : x[k];
        if (lin) c -= 0.5f;
        i[k] = (long)floorf(c);
        a[k] = c - floorf(c);
        ck_assert_msg(a[k] * 256 == floorf(a[k] * 256), "test coordinate not in 1/256");
    }
    if (!lin) { r_texel(r, i, layer, out); return; }
    /* T(i + a) = sum over dimension sets T of P(T) D(T): P(T) the product of a[k], k in T
     * (rounded to 1/256, ties up, when T has two or more), D(T) the mixed difference of the
     * texels over T (sum over subsets S of T of (-1)^|T - S| texel(i + S)) */
    float v[8][4], acc[4] = { 0, 0, 0, 0 };
    for (int m = 0; m < 1 << r->dims; m++) {
        long j[3] = { 0, 0, 0 };
        for (int k = 0; k < r->dims; k++) j[k] = i[k] + ((m >> k) & 1);
        r_texel(r, j, layer, v[m]);
    }
    for (int t = 0; t < 1 << r->dims; t++) {
        double p = 1;
        int size = 0;
        for (int k = 0; k < r->dims; k++)
            if ((t >> k) & 1) { p *= a[k]; size++; }
        if (size >= 2 && r_round_products) p = floor(p * 256 + 0.5) / 256;
        for (int c = 0; c < 4; c++) {
            double d = 0;
            for (int s = 0; s < 1 << r->dims; s++)
                if ((s & ~t) == 0) d += (size - __builtin_popcount((unsigned)s)) & 1 ? -v[s][c]
                                                                                  : v[s][c];
            acc[c] += (float)(p * d);   /* exact for the test data */
        }
    }
    memcpy(out, acc, 16);
}

static ptxeTextureDesc tdesc(int filter, int norm, int am)
{
    ptxeTextureDesc d;
    memset(&d, 0, sizeof d);
    d.filterMode = filter; d.normalizedCoords = norm;
    d.addressMode[0] = d.addressMode[1] = d.addressMode[2] = am;
    return d;
}

static ptxeResourceDesc rarray(ptxeDevptr p, int bits, int nch, ptxeChannelKind k, size_t w,
                               size_t h, size_t d)
{
    ptxeResourceDesc r;
    memset(&r, 0, sizeof r);
    r.type = PTXE_RES_ARRAY; r.data = p; r.width = w; r.height = h; r.depth = d;
    r.fmt.x = bits; r.fmt.y = nch > 1 ? bits : 0; r.fmt.z = r.fmt.w = nch > 2 ? bits : 0;
    r.fmt.f = k;
    return r;
}

static ptxeTexObject mktex(const ptxeResourceDesc *r, const ptxeTextureDesc *d)
{
    ptxeTexObject t;
    ptxeResult e = ptxeCreateTextureObject(C, &t, r, d);
    ck_assert_msg(e == PTXE_SUCCESS, "%s", ptxeGetErrorMessage(C));
    return t;
}

/* ------------------------------------------------------------------ tex1Dfetch */
/* tex.1d.v4.f32.s32 on a linear resource: T[i - 2], 0 out of range (cudaResourceTypeLinear) */
START_TEST(t_fetch1d)
{
    load("tx_fetch1d");
    float T[16], out[24];
    for (int i = 0; i < 16; i++) T[i] = (float)i * 1.5f - 3.0f;
    ptxeResourceDesc r;
    memset(&r, 0, sizeof r);
    r.type = PTXE_RES_LINEAR; r.data = dev(T, sizeof T); r.width = 16;
    r.fmt.x = 32; r.fmt.f = PTXE_FMT_FLOAT;
    ptxeTextureDesc d = tdesc(PTXE_FILTER_POINT, 0, PTXE_ADDRESS_CLAMP);
    ptxeTexObject t = mktex(&r, &d);
    ptxeDevptr o = dev(NULL, sizeof out);
    int n = 24;
    void *a[] = { &t, &o, &n };
    run(1, 32, a);
    get(out, o, sizeof out);
    for (int i = 0; i < n; i++) CHECK_F(out[i], i - 2 >= 0 && i - 2 < 16 ? T[i - 2] : 0.0f, "i", i);
    gpu_compare("tx_fetch1d", out, sizeof out);
    done();
}
END_TEST

/* ------------------------------------------------------------------ tex2D, 4 x f32 */
enum { W2 = TSI_W2, H2 = TSI_H2, N2 = TSI_N2 };
static float tex2_data[H2][W2][4];
static void fill2(void) { tsi_fill2(tex2_data); }
#define coords2 tsi_coords2
#define cfg2 tsi_cfg2

/* tex.2d.v4.f32.f32: point / linear, normalized or not, every address mode */
START_TEST(t_2d)
{
    const int k = _i;
    load("tx_2d");
    fill2();
    float xs[N2], ys[N2], out[N2][4];
    coords2(cfg2[k].norm, xs, ys, N2);
    ptxeResourceDesc r = rarray(dev(tex2_data, sizeof tex2_data), 32, 4, PTXE_FMT_FLOAT, W2, H2, 0);
    ptxeTextureDesc d = tdesc(cfg2[k].filter ? PTXE_FILTER_LINEAR : PTXE_FILTER_POINT,
                              cfg2[k].norm, (ptxeAddressMode)cfg2[k].am);
    memcpy(d.borderColor, tsi_border, sizeof tsi_border);
    ptxeTexObject t = mktex(&r, &d);
    ptxeDevptr o = dev(NULL, sizeof out), dx = dev(xs, sizeof xs), dy = dev(ys, sizeof ys);
    int n = N2;
    void *a[] = { &t, &o, &dx, &dy, &n };
    run(2, 64, a);
    get(out, o, sizeof out);
    rtex rt = { &tex2_data[0][0][0], W2, H2, 1, 1, 2, d };
    int rounded = 0;   /* lookups whose value the rounding of the product ab changes */
    for (int i = 0; i < N2; i++) {
        float want[4], plain[4], x[2] = { xs[i], ys[i] };
        r_sample(&rt, x, 0, want);
        r_round_products = 0;
        r_sample(&rt, x, 0, plain);
        r_round_products = 1;
        rounded += memcmp(want, plain, sizeof want) != 0;
        for (int c = 0; c < 4; c++)
            ck_assert_msg(fb(out[i][c]) == fb(want[c]), "%s: (%g, %g) channel %d: got %g, want %g",
                          cfg2[k].name, (double)xs[i], (double)ys[i], c, (double)out[i][c],
                          (double)want[c]);
    }
    /* texel-unit coordinates in 1/64 give products not in 1/256, and where a lookup mixes texels
     * with the border colour the rounding shows: 12 of the 96 (all agree with the H100) */
    if (!strcmp(cfg2[k].name, "tx_2d_linear_border")) ck_assert_int_eq(rounded, 12);
    gpu_compare(cfg2[k].name, out, sizeof out);
    done();
}
END_TEST

/* a PTXE_RES_PITCH2D resource (cudaResourceTypePitch2D): rows 160 bytes apart (32 bytes of
 * padding each), linear filtering, clamp: the same results as the dense array */
START_TEST(t_pitch2d)
{
    load("tx_2d");
    fill2();
    static float padded[H2][W2 + 2][4];
    for (int y = 0; y < H2; y++) memcpy(padded[y], tex2_data[y], sizeof tex2_data[y]);
    float xs[N2], ys[N2], out[N2][4];
    coords2(0, xs, ys, N2);
    ptxeResourceDesc r = rarray(dev(padded, sizeof padded), 32, 4, PTXE_FMT_FLOAT, W2, H2, 0);
    r.type = PTXE_RES_PITCH2D; r.pitch = sizeof padded[0];
    ptxeTextureDesc d = tdesc(PTXE_FILTER_LINEAR, 0, PTXE_ADDRESS_CLAMP);
    ptxeTexObject t = mktex(&r, &d);
    ptxeDevptr o = dev(NULL, sizeof out), dx = dev(xs, sizeof xs), dy = dev(ys, sizeof ys);
    int n = N2;
    void *a[] = { &t, &o, &dx, &dy, &n };
    run(2, 64, a);
    get(out, o, sizeof out);
    rtex rt = { &tex2_data[0][0][0], W2, H2, 1, 1, 2, d };
    for (int i = 0; i < N2; i++) {
        float want[4], x[2] = { xs[i], ys[i] };
        r_sample(&rt, x, 0, want);
        for (int c = 0; c < 4; c++) CHECK_F(out[i][c], want[c], "pitch2d", i * 4 + c);
    }
    done();
}
END_TEST

/* The weight's quantization (CUDA guide, "Linear Filtering": 9-bit fixed point, 8 fractional
 * bits): with T(x) = 256 x the result is 256 i + 256 a, and 256 a must be the fraction of
 * x - 0.5 times 256 rounded to the nearest integer (the rule exec/tex.c documents; the guide
 * does not say nearest or truncated: the GPU recording gpu/tx_fixed_point.bin settles it). */
START_TEST(t_fixed_point)
{
    load("tx_2d1");
    static float T[H2][W2];
    float xs[TSI_NQ], ys[TSI_NQ], out[TSI_NQ];
    tsi_fixed_point(T, xs, ys);
    ptxeResourceDesc r = rarray(dev(T, sizeof T), 32, 1, PTXE_FMT_FLOAT, W2, H2, 0);
    ptxeTextureDesc d = tdesc(PTXE_FILTER_LINEAR, 0, PTXE_ADDRESS_CLAMP);
    ptxeTexObject t = mktex(&r, &d);
    ptxeDevptr o = dev(NULL, sizeof out), dx = dev(xs, sizeof xs), dy = dev(ys, sizeof ys);
    int n = TSI_NQ, quantized = 0;
    void *a[] = { &t, &o, &dx, &dy, &n };
    run(1, 64, a);
    get(out, o, sizeof out);
    for (int k = 0; k < TSI_NQ; k++) {
        float c = xs[k] - 0.5f, fr = c - floorf(c);
        float want = 256.0f * floorf(c) + nearbyintf(fr * 256.0f);
        CHECK_F(out[k], want, "1.8 fixed-point weight", k);
        quantized += fr * 256.0f != floorf(fr * 256.0f);
    }
    ck_assert_int_gt(quantized, TSI_NQ / 2);   /* most fractions are not multiples of 1/256 */
    gpu_compare("tx_fixed_point", out, sizeof out);
    done();
}
END_TEST

/* ------------------------------------------------------------------ one-channel formats */
/* tex.2d.v4.f32.f32 via tex2D<float>: u8 unorm (x / 255), s16 snorm (x / 32767, at least -1),
 * point; f16 linear on small integers (exact) */
START_TEST(t_2d_formats)
{
    load("tx_2d1");
    enum { W = 8, H = 4, N = 64 };
    uint8_t u8[H][W];
    int16_t s16[H][W];
    uint16_t f16[H][W];
    tsi_formats(u8, s16, f16);
    float xs[N], ys[N], out[N];
    coords2(0, xs, ys, N);
    ptxeDevptr o = dev(NULL, sizeof out), dx = dev(xs, sizeof xs), dy = dev(ys, sizeof ys);
    int n = N;
    for (int k = 0; k < 3; k++) {
        const void *src = k == 0   ? (const void *)u8
                          : k == 1 ? (const void *)s16
                                   : (const void *)f16;
        ptxeResourceDesc r = rarray(dev(src, k == 0 ? sizeof u8 : sizeof s16), k ? 16 : 8, 1,
                                    k == 0 ? PTXE_FMT_UNSIGNED : k == 1 ? PTXE_FMT_SIGNED
                                                                        : PTXE_FMT_FLOAT, W, H, 0);
        ptxeTextureDesc d = tdesc(k == 2 ? PTXE_FILTER_LINEAR : PTXE_FILTER_POINT, 0,
                                  PTXE_ADDRESS_CLAMP);
        d.readMode = k == 2 ? PTXE_READ_ELEMENT_TYPE : PTXE_READ_NORMALIZED_FLOAT;
        ptxeTexObject t = mktex(&r, &d);
        void *a[] = { &t, &o, &dx, &dy, &n };
        run(1, 64, a);
        get(out, o, sizeof out);
        static float tf[H][W][4];
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                float v = k == 0 ? (float)u8[y][x] / 255.0f
                          : k == 1 ? fmaxf((float)s16[y][x] / 32767.0f, -1.0f)
                                   : (float)(x - 2 * y);
                tf[y][x][0] = v; tf[y][x][1] = tf[y][x][2] = 0; tf[y][x][3] = 1;
            }
        rtex rt = { &tf[0][0][0], W, H, 1, 1, 2, d };
        for (int i = 0; i < N; i++) {
            float want[4], x[2] = { xs[i], ys[i] };
            r_sample(&rt, x, 0, want);
            CHECK_F(out[i], want[0], k == 0 ? "u8 unorm" : k == 1 ? "s16 snorm" : "f16 linear", i);
        }
        gpu_compare(k == 0 ? "tx_2d1_u8" : k == 1 ? "tx_2d1_s16" : "tx_2d1_f16", out, sizeof out);
    }
    done();
}
END_TEST

/* tex.2d.v4.s32.f32 via tex2D<int4>: s8 x 4 read as integers (sign-extended), u16 x 2 (absent
 * b and a read 0: an H100 gives 0 for the absent alpha of an integer read, gpu/tx_2di_u16.bin) */
START_TEST(t_2d_int)
{
    load("tx_2di");
    enum { W = 8, H = 4, N = 64 };
    int8_t s8[H][W][4];
    uint16_t u16[H][W][2];
    tsi_ints(s8, u16);
    float xs[N], ys[N];
    int out[N][4];
    coords2(0, xs, ys, N);
    ptxeDevptr o = dev(NULL, sizeof out), dx = dev(xs, sizeof xs), dy = dev(ys, sizeof ys);
    int n = N;
    for (int k = 0; k < 2; k++) {
        ptxeResourceDesc r = k ? rarray(dev(u16, sizeof u16), 16, 2, PTXE_FMT_UNSIGNED, W, H, 0)
                               : rarray(dev(s8, sizeof s8), 8, 4, PTXE_FMT_SIGNED, W, H, 0);
        ptxeTextureDesc d = tdesc(PTXE_FILTER_POINT, 0, PTXE_ADDRESS_CLAMP);
        ptxeTexObject t = mktex(&r, &d);
        void *a[] = { &t, &o, &dx, &dy, &n };
        run(1, 64, a);
        get(out, o, sizeof out);
        for (int i = 0; i < N; i++) {
            int x = (int)floorf(xs[i]), y = (int)floorf(ys[i]);
            x = x < 0 ? 0 : x >= W ? W - 1 : x;
            y = y < 0 ? 0 : y >= H ? H - 1 : y;
            for (int c = 0; c < 4; c++) {
                int want = k == 0 ? s8[y][x][c] : c < 2 ? u16[y][x][c] : 0;
                ck_assert_msg(out[i][c] == want, "%s %d channel %d: got %d, want %d",
                              k ? "u16x2" : "s8x4", i, c, out[i][c], want);
            }
        }
        gpu_compare(k ? "tx_2di_u16" : "tx_2di_s8", out, sizeof out);
    }
    done();
}
END_TEST

/* tex.level / tex.grad (§9.7.9.3): no mipmaps, level 0 */
START_TEST(t_lodgrad)
{
    load("tx_lodgrad");
    enum { N = 40 };
    fill2();
    float xs[N], ys[N], out[N][2];
    coords2(0, xs, ys, N);
    static float t1[H2][W2][4];
    for (int y = 0; y < H2; y++)
        for (int x = 0; x < W2; x++) memcpy(t1[y][x], tex2_data[y][x], 16);
    float flat[H2][W2];
    for (int y = 0; y < H2; y++)
        for (int x = 0; x < W2; x++) flat[y][x] = tex2_data[y][x][0];
    ptxeResourceDesc r = rarray(dev(flat, sizeof flat), 32, 1, PTXE_FMT_FLOAT, W2, H2, 0);
    ptxeTextureDesc d = tdesc(PTXE_FILTER_LINEAR, 0, PTXE_ADDRESS_CLAMP);
    ptxeTexObject t = mktex(&r, &d);
    ptxeDevptr o = dev(NULL, sizeof out), dx = dev(xs, sizeof xs), dy = dev(ys, sizeof ys);
    int n = N;
    void *a[] = { &t, &o, &dx, &dy, &n };
    run(1, 64, a);
    get(out, o, sizeof out);
    rtex rt = { &t1[0][0][0], W2, H2, 1, 1, 2, d };
    for (int i = 0; i < N; i++) {
        float want[4], x[2] = { xs[i], ys[i] };
        r_sample(&rt, x, 0, want);
        CHECK_F(out[i][0], want[0], "tex.level", i);
        CHECK_F(out[i][1], want[0], "tex.grad", i);
    }
    gpu_compare("tx_lodgrad", out, sizeof out);
    done();
}
END_TEST

/* tex.a2d (tex2DLayered): layer index first, clamped to the layers; point, clamp */
START_TEST(t_layered)
{
    load("tx_layered");
    enum { W = TSI_WL, H = TSI_WL, L = TSI_LL, N = TSI_NL };
    static float T[L][H][W], T4[L][H][W][4];
    float xs[N], ys[N], out[N];
    int ls[N];
    tsi_inputs_layered(T, xs, ys, ls);
    for (int l = 0; l < L; l++)
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) T4[l][y][x][0] = T[l][y][x];
    ptxeResourceDesc r = rarray(dev(T, sizeof T), 32, 1, PTXE_FMT_FLOAT, W, H, 0);
    r.flags = PTXE_ARRAY_LAYERED; r.layers = L;
    ptxeTextureDesc d = tdesc(PTXE_FILTER_POINT, 0, PTXE_ADDRESS_CLAMP);
    ptxeTexObject t = mktex(&r, &d);
    ptxeDevptr o = dev(NULL, sizeof out), dx = dev(xs, sizeof xs), dy = dev(ys, sizeof ys),
               dl = dev(ls, sizeof ls);
    int n = N;
    void *a[] = { &t, &o, &dx, &dy, &dl, &n };
    run(1, 64, a);
    get(out, o, sizeof out);
    rtex rt = { &T4[0][0][0][0], W, H, 1, L, 2, d };
    for (int i = 0; i < N; i++) {
        float want[4], x[2] = { xs[i], ys[i] };
        r_sample(&rt, x, ls[i] < L ? ls[i] : L - 1, want);
        CHECK_F(out[i], want[0], "tex.a2d", i);
    }
    gpu_compare("tx_layered", out, sizeof out);
    done();
}
END_TEST

/* tex.3d (tex3D): trilinear, normalized, wrap in x, clamp in y, border in z */
START_TEST(t_3d)
{
    load("tx_3d");
    enum { W = TSI_W3, N = TSI_N3 };
    static float T[W][W][W], T4[W][W][W][4];
    float xs[N], ys[N], zs[N], out[N];
    tsi_inputs3(T, xs, ys, zs);
    for (int z = 0; z < W; z++)
        for (int y = 0; y < W; y++)
            for (int x = 0; x < W; x++) T4[z][y][x][0] = T[z][y][x];
    ptxeResourceDesc r = rarray(dev(T, sizeof T), 32, 1, PTXE_FMT_FLOAT, W, W, W);
    ptxeTextureDesc d = tdesc(PTXE_FILTER_LINEAR, 1, PTXE_ADDRESS_WRAP);
    d.addressMode[1] = PTXE_ADDRESS_CLAMP; d.addressMode[2] = PTXE_ADDRESS_BORDER;
    d.borderColor[0] = 5.0f;
    ptxeTexObject t = mktex(&r, &d);
    ptxeDevptr o = dev(NULL, sizeof out), dx = dev(xs, sizeof xs), dy = dev(ys, sizeof ys),
               dz = dev(zs, sizeof zs);
    int n = N;
    void *a[] = { &t, &o, &dx, &dy, &dz, &n };
    run(2, 64, a);
    get(out, o, sizeof out);
    rtex rt = { &T4[0][0][0][0], W, W, W, 1, 3, d };
    for (int i = 0; i < N; i++) {
        float want[4], x[3] = { xs[i], ys[i], zs[i] };
        r_sample(&rt, x, 0, want);
        CHECK_F(out[i], want[0], "tex.3d", i);
    }
    gpu_compare("tx_3d", out, sizeof out);
    done();
}
END_TEST

/* tex.cube (texCubemap): face by the major axis, (s, t) by the CUDA guide's table, point */
START_TEST(t_cube)
{
    load("tx_cube");
    enum { W = TSI_WC, N = TSI_NC };
    static float T[6][W][W];
    float xs[N], ys[N], zs[N], out[N];
    tsi_inputs_cube(T, xs, ys, zs);   /* a unique major axis: no ties */
    ptxeResourceDesc r = rarray(dev(T, sizeof T), 32, 1, PTXE_FMT_FLOAT, W, W, 0);
    r.flags = PTXE_ARRAY_CUBEMAP;
    ptxeTextureDesc d = tdesc(PTXE_FILTER_POINT, 1, PTXE_ADDRESS_CLAMP);
    ptxeTexObject t = mktex(&r, &d);
    ptxeDevptr o = dev(NULL, sizeof out), dx = dev(xs, sizeof xs), dy = dev(ys, sizeof ys),
               dz = dev(zs, sizeof zs);
    int n = N;
    void *a[] = { &t, &o, &dx, &dy, &dz, &n };
    run(2, 64, a);
    get(out, o, sizeof out);
    for (int i = 0; i < N; i++) {
        float x = xs[i], y = ys[i], z = zs[i], s, tt, m;
        float ax = fabsf(x), ay = fabsf(y), az = fabsf(z);
        int f;
        if (ax > ay && ax > az) { f = x > 0 ? 0 : 1; m = ax; s = x > 0 ? -z : z; tt = -y; }
        else if (ay > az) { f = y > 0 ? 2 : 3; m = ay; s = x; tt = y > 0 ? z : -z; }
        else { f = z > 0 ? 4 : 5; m = az; s = z > 0 ? x : -x; tt = -y; }
        int u = (int)floorf((s / m + 1) / 2 * W), w = (int)floorf((tt / m + 1) / 2 * W);
        u = u < 0 ? 0 : u >= W ? W - 1 : u;
        w = w < 0 ? 0 : w >= W ? W - 1 : w;
        CHECK_F(out[i], T[f][w][u], "tex.cube", i);
    }
    gpu_compare("tx_cube", out, sizeof out);
    done();
}
END_TEST

/* tld4.{r,g,b,a}.2d (tex2Dgather): the footprint (i, j+1), (i+1, j+1), (i+1, j), (i, j) with
 * i, j = floor(x - 0.5), floor(y - 0.5): "counter-clockwise starting at lower left" (§9.7.9.4) */
START_TEST(t_gather)
{
    load("tx_gather");
    enum { N = 64 };
    fill2();
    float xs[N], ys[N], out[N][4][4];
    coords2(0, xs, ys, N);
    ptxeResourceDesc r = rarray(dev(tex2_data, sizeof tex2_data), 32, 4, PTXE_FMT_FLOAT, W2, H2, 0);
    ptxeTextureDesc d = tdesc(PTXE_FILTER_POINT, 0, PTXE_ADDRESS_CLAMP);
    ptxeTexObject t = mktex(&r, &d);
    ptxeDevptr o = dev(NULL, sizeof out), dx = dev(xs, sizeof xs), dy = dev(ys, sizeof ys);
    int n = N;
    void *a[] = { &t, &o, &dx, &dy, &n };
    run(1, 64, a);
    get(out, o, sizeof out);
    static const int ox[4] = { 0, 1, 1, 0 }, oy[4] = { 1, 1, 0, 0 };
    for (int i = 0; i < N; i++)
        for (int comp = 0; comp < 4; comp++)
            for (int k = 0; k < 4; k++) {
                int x = (int)floorf(xs[i] - 0.5f) + ox[k], y = (int)floorf(ys[i] - 0.5f) + oy[k];
                x = x < 0 ? 0 : x >= W2 ? W2 - 1 : x;
                y = y < 0 ? 0 : y >= H2 ? H2 - 1 : y;
                CHECK_F(out[i][comp][k], tex2_data[y][x][comp], "tld4", i * 16 + comp * 4 + k);
            }
    gpu_compare("tx_gather", out, sizeof out);
    done();
}
END_TEST

/* txq / suq / istypep (§9.7.9.5, §9.7.10.4, §9.7.9.6) */
START_TEST(t_query)
{
    load("tx_query");
    fill2();
    ptxeResourceDesc r = rarray(dev(tex2_data, sizeof tex2_data), 32, 4, PTXE_FMT_FLOAT, W2, H2, 0);
    ptxeTextureDesc d = tdesc(PTXE_FILTER_LINEAR, 1, PTXE_ADDRESS_WRAP);
    d.addressMode[1] = PTXE_ADDRESS_MIRROR;
    ptxeTexObject t = mktex(&r, &d);
    uint8_t s8[3][5][2];
    ptxeResourceDesc rs = rarray(dev(NULL, sizeof s8), 8, 2, PTXE_FMT_UNSIGNED, 5, 3, 0);
    ptxeSurfObject s;
    ck_assert_int_eq(ptxeCreateSurfaceObject(C, &s, &rs), PTXE_SUCCESS);
    int out[16];
    ptxeDevptr o = dev(NULL, sizeof out);
    void *a[] = { &t, &s, &o };
    run(1, 1, a);
    get(out, o, sizeof out);
    /* w h d, CL_FLOAT, CL_RGBA, normalized, linear, wrap, mirror (enum { wrap, mirror, clamp_ogl,
     * clamp_to_edge, clamp_to_border }), array size, mip levels; surface width (elements),
     * height, CL_UNSIGNED_INT8; istypep.texref, istypep.surfref */
    static const int want[16] = { 8, 4, 1, 0x10DE, 0x10B5, 1, 1, 0, 1, 0, 0, 5, 3, 0x10DA, 1, 0 };
    for (int i = 0; i < 16; i++)
        ck_assert_msg(out[i] == want[i], "query %d: got %d (0x%x), want %d", i, out[i], out[i],
                      want[i]);
    /* not compared with a GPU: the channel enumerations are "the source language's" (§9.7.9.5),
     * here OpenCL's of §5.3.3, and CUDA's may differ */
    done();
}
END_TEST

/* ------------------------------------------------------------------ surfaces */
static ptxeSurfObject mksurf(const ptxeResourceDesc *r)
{
    ptxeSurfObject s;
    ptxeResult e = ptxeCreateSurfaceObject(C, &s, r);
    ck_assert_msg(e == PTXE_SUCCESS, "%s", ptxeGetErrorMessage(C));
    return s;
}

/* suld.b.2d.b32.trap / sust.b.2d.b32.trap (surf2Dread / surf2Dwrite), x in bytes */
START_TEST(s_2d)
{
    load("sf_2d");
    enum { W = 13, H = 5 };
    int in[H][W], out[H][W];
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) in[y][x] = (int)rnd() % 100000;
    ptxeResourceDesc ri = rarray(dev(in, sizeof in), 32, 1, PTXE_FMT_SIGNED, W, H, 0),
                     ro = rarray(dev(NULL, sizeof out), 32, 1, PTXE_FMT_SIGNED, W, H, 0);
    ptxeSurfObject si = mksurf(&ri), so = mksurf(&ro);
    int w = W, h = H;
    void *a[] = { &si, &so, &w, &h };
    ptxeResult e = launch_xy(1, H, 16, a);
    ck_assert_msg(e == PTXE_SUCCESS, "%s", ptxeGetErrorMessage(C));
    get(out, ro.data, sizeof out);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            ck_assert_msg(out[y][x] == in[y][x] * 2 + 1, "(%d, %d): got %d, want %d", x, y,
                          out[y][x], in[y][x] * 2 + 1);
    done();
}
END_TEST

/* suld .zero (0 out of range) and .clamp (the nearest element, x clamped in bytes) */
START_TEST(s_bounds)
{
    load("sf_bounds");
    enum { W = 8, N = 16 };
    int in[2][W], out[N][2];
    for (int y = 0; y < 2; y++)
        for (int x = 0; x < W; x++) in[y][x] = 100 * y + x + 1;
    ptxeResourceDesc r = rarray(dev(in, sizeof in), 32, 1, PTXE_FMT_SIGNED, W, 2, 0);
    ptxeSurfObject s = mksurf(&r);
    ptxeDevptr o = dev(NULL, sizeof out);
    int n = N;
    void *a[] = { &s, &o, &n };
    run(1, 32, a);
    get(out, o, sizeof out);
    for (int i = 0; i < N; i++) {
        int x = i - 4, xc = x < 0 ? 0 : x >= W ? W - 1 : x;
        ck_assert_msg(out[i][0] == (x == xc ? in[0][x] : 0), "zero %d: got %d", i, out[i][0]);
        ck_assert_msg(out[i][1] == in[1][xc], "clamp %d: got %d", i, out[i][1]);
    }
    gpu_compare("sf_bounds", out, sizeof out);
    done();
}
END_TEST

/* suld .trap out of range: the launch fails with the coordinates in the report */
START_TEST(s_trap)
{
    load("sf_trap");
    int in[2][4] = { { 1, 2, 3, 4 }, { 5, 6, 7, 8 } }, got = 0;
    ptxeResourceDesc r = rarray(dev(in, sizeof in), 32, 1, PTXE_FMT_SIGNED, 4, 2, 0);
    ptxeSurfObject s = mksurf(&r);
    ptxeDevptr o = dev(NULL, 4);
    int x = 3;
    void *a[] = { &s, &o, &x };
    run(1, 1, a);
    get(&got, o, 4);
    ck_assert_int_eq(got, 4);
    x = 4;
    ptxeResult e = launch_xy(1, 1, 1, a);
    ck_assert_int_ne(e, PTXE_SUCCESS);
    ck_assert_msg(strstr(ptxeGetErrorMessage(C), "out of range") &&
                  strstr(ptxeGetErrorMessage(C), ".trap"), "%s", ptxeGetErrorMessage(C));
    done();
    /* a misaligned x (bytes) faults too (§9.7.10.1: "may fault") */
    const char *ptx = HDR ".visible .entry k(.param .u64 s)\n{\n.reg .b32 %r<2>;\n"
        ".reg .b64 %rd<2>;\nld.param.u64 %rd1, [s];\n"
        "suld.b.1d.b32.clamp {%r1}, [%rd1, {6}];\nret;\n}\n";
    ck_assert_msg(load_text(ptx) == PTXE_SUCCESS, "%s", ptxeGetErrorMessage(C));
    ptxeResourceDesc r1 = rarray(dev(in, sizeof in), 32, 1, PTXE_FMT_SIGNED, 8, 0, 0);
    s = mksurf(&r1);
    void *a1[] = { &s };
    ck_assert_int_ne(launch_xy(1, 1, 1, a1), PTXE_SUCCESS);
    ck_assert_msg(strstr(ptxeGetErrorMessage(C), "not aligned"), "%s", ptxeGetErrorMessage(C));
    done();
}
END_TEST

/* sust.b.a2d.v4.b8 (surf2DLayeredwrite of uchar4) */
START_TEST(s_layered)
{
    load("sf_layered");
    enum { W = 6, H = 3, L = 2 };
    uint8_t out[L][H][W][4];
    ptxeResourceDesc r = rarray(dev(NULL, sizeof out), 8, 4, PTXE_FMT_UNSIGNED, W, H, 0);
    r.flags = PTXE_ARRAY_LAYERED; r.layers = L;
    ptxeSurfObject s = mksurf(&r);
    int w = W, h = H, l = L;
    void *a[] = { &s, &w, &h, &l };
    ptxeResult e = launch_xy(H, L, 32, a);
    ck_assert_msg(e == PTXE_SUCCESS, "%s", ptxeGetErrorMessage(C));
    get(out, r.data, sizeof out);
    for (int z = 0; z < L; z++)
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                uint8_t want[4] = { (uint8_t)x, (uint8_t)y, (uint8_t)z, (uint8_t)(x + y + z) };
                ck_assert_msg(!memcmp(out[z][y][x], want, 4), "(%d, %d, layer %d)", x, y, z);
            }
    done();
}
END_TEST

/* sured.b.{add,max}.2d.u32.trap, sured.b.or.2d.b32.clamp (§9.7.10.3) */
START_TEST(s_red)
{
    load("sf_red");
    enum { W = 8, N = 100 };
    uint32_t init[3][W], out[3][W], want[3][W];
    int xs[N];
    for (int x = 0; x < W; x++) { init[0][x] = x; init[1][x] = 50; init[2][x] = 0x80000000u; }
    memcpy(want, init, sizeof want);
    for (int i = 0; i < N; i++) {
        xs[i] = (int)(rnd() % W);
        want[0][xs[i]] += 1;
        if ((uint32_t)i > want[1][xs[i]]) want[1][xs[i]] = (uint32_t)i;
        want[2][xs[i]] |= 1u << (i & 31);
    }
    ptxeResourceDesc r = rarray(dev(init, sizeof init), 32, 1, PTXE_FMT_UNSIGNED, W, 3, 0);
    ptxeSurfObject s = mksurf(&r);
    ptxeDevptr dx = dev(xs, sizeof xs);
    int n = N;
    void *a[] = { &s, &dx, &n };
    run(4, 32, a);
    get(out, r.data, sizeof out);
    for (int y = 0; y < 3; y++)
        for (int x = 0; x < W; x++)
            ck_assert_msg(out[y][x] == want[y][x], "row %d x %d: got 0x%x, want 0x%x", y, x,
                          out[y][x], want[y][x]);
    done();
}
END_TEST

/* ------------------------------------------------------------------ inline modules */

/* Refused forms give a load error at file:line:col with the reason, never a crash. */
START_TEST(refused)
{
    static const struct { const char *insn, *where, *why; } bad[] = {
        { "tex.2dms.v4.f32.s32 {%f1, %f2, %f3, %f4}, [%rd1, {%r1, %r1, %r1, %r1}];", "t.ptx:10:",
          "multi-sample" },
        { "tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, %rd2, {%f1, %f2}];", "t.ptx:10:",
          "independent texturing" },
        { "tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f1}];", "t.ptx:10:",
          "coordinates" },
        { "tex.2d.v2.f32.f32 {%f1, %f2}, [%rd1, {%f1, %f2}];", "t.ptx:10:", ".f16x2 after .v2" },
        { "tex.2d.v2.f16x2.f32 {%r1, %r2, %r3, %r4}, [%rd1, {%f1, %f2}];", "t.ptx:10:",
          "expected 2 (.v2)" },
        { "tld4.r.3d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f1, %f2, %f3, %f4}];", "t.ptx:10:",
          "geometry" },
        { "suld.b.2d.b32 {%r1}, [%rd1, {%r1, %r2}];", "t.ptx:10:", "out-of-range mode" },
        { "suld.p.2d.v4.b32.trap {%r1, %r2, %r3, %r4}, [%rd1, {%r1, %r2}];", "t.ptx:10:",
          "expected .b" },
        { "sured.b.xor.2d.b32.trap [%rd1, {%r1, %r2}], %r3;", "t.ptx:10:", "operation" },
        { "sured.b.add.2d.b32.trap [%rd1, {%r1, %r2}], %r3;", "t.ptx:10:", "add on .u32" },
        { "sured.p.add.2d.b64.trap [%rd1, {%r1, %r2}], %rd2;", "t.ptx:10:", "add on .u32" },
        { "sust.b.2d.v2.b32.trap [%rd1, {%r1, %r2}], {%r3};", "t.ptx:10:", "values" },
        { "txq.memory_layout.b32 %r1, [%rd1];", "t.ptx:10:", "attribute" },
        /* the parser's [a, b] and {d}|p are for these instructions only */
        { "ld.global.u32 %r1, [%rd1, %r2];", "t.ptx:10:", "2 operands inside [ ]" },
        { "prefetch.global.L1 [%rd1, 4];", "t.ptx:10:", "2 operands inside [ ]" },
        { "mov.b64 {%r1, %r2}|%p1, %rd1;", "t.ptx:10:", "a vector with a predicate" },
        { "tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f1, %f2}], %f3;", "t.ptx:10:",
          "depth compare" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char ptx[1024];
        snprintf(ptx, sizeof ptx, HDR ".visible .entry k(.param .u64 a)\n{\n"
                 ".reg .b32 %%r<5>;\n.reg .f32 %%f<5>;\n.reg .b64 %%rd<3>;\n.reg .pred %%p<2>;\n"
                 "%s\nret;\n}\n",
                 bad[i].insn);
        ptxeResult r = load_text(ptx);
        const char *m = ptxeGetErrorMessage(C);
        ck_assert_msg(r == PTXE_ERROR_INVALID_PTX, "%s loaded (%d)", bad[i].insn, r);
        ck_assert_msg(strstr(m, bad[i].where) && strstr(m, bad[i].why), "%s: %s", bad[i].insn, m);
        done();
    }
}
END_TEST

/* module-scope .global .texref / .surfref bound by ptxeModuleBindRef (§5.3); tex, txq, suq and
 * sust through the variable, istypep on the variable's address; a wrong handle at run time */
START_TEST(texref_bound)
{
    const char *ptx = HDR ".global .texref tr;\n.global .surfref sr;\n"
        ".visible .entry k(.param .u64 out)\n{\n.reg .b32 %r<8>;\n.reg .f32 %f<5>;\n"
        ".reg .b64 %rd<4>;\n.reg .pred %p<3>;\n"
        "ld.param.u64 %rd1, [out];\nmov.u32 %r1, %tid.x;\n"
        "tex.1d.v4.f32.s32 {%f1, %f2, %f3, %f4}, [tr, {%r1}];\n"
        "txq.width.b32 %r2, [tr];\nsuq.width.b32 %r3, [sr];\n"
        "mov.u64 %rd2, tr;\nistypep.texref %p1, %rd2;\nistypep.surfref %p2, %rd2;\n"
        "selp.u32 %r4, 1, 0, %p1;\nselp.u32 %r5, 1, 0, %p2;\n"
        "cvt.rzi.u32.f32 %r6, %f1;\nshl.b32 %r7, %r1, 2;\n"
        "sust.b.1d.b32.trap [sr, {%r7}], {%r6};\n"
        "mul.wide.u32 %rd3, %r1, 16;\nadd.s64 %rd3, %rd1, %rd3;\n"
        "st.global.v4.u32 [%rd3], {%r2, %r3, %r4, %r5};\nret;\n}\n";
    ck_assert_msg(load_text(ptx) == PTXE_SUCCESS, "%s", ptxeGetErrorMessage(C));
    float T[6] = { 3, 1, 4, 1, 5, 9 };
    ptxeResourceDesc r;
    memset(&r, 0, sizeof r);
    r.type = PTXE_RES_LINEAR; r.data = dev(T, sizeof T); r.width = 6;
    r.fmt.x = 32; r.fmt.f = PTXE_FMT_FLOAT;
    ptxeTextureDesc d = tdesc(PTXE_FILTER_POINT, 0, PTXE_ADDRESS_CLAMP);
    ptxeTexObject t = mktex(&r, &d);
    ptxeResourceDesc rs = rarray(dev(NULL, 6 * 4), 32, 1, PTXE_FMT_UNSIGNED, 6, 0, 0);
    ptxeSurfObject s = mksurf(&rs);
    ck_assert_int_eq(ptxeModuleBindRef(M, "sr", t), PTXE_ERROR_INVALID_VALUE);   /* kind */
    ck_assert_int_eq(ptxeModuleBindRef(M, "nope", t), PTXE_ERROR_NOT_FOUND);
    ck_assert_int_eq(ptxeModuleBindRef(M, "tr", t), PTXE_SUCCESS);
    ck_assert_int_eq(ptxeModuleBindRef(M, "sr", s), PTXE_SUCCESS);
    unsigned out[6][4], got[6];
    ptxeDevptr o = dev(NULL, sizeof out);
    void *a[] = { &o };
    run(1, 6, a);
    get(out, o, sizeof out);
    get(got, rs.data, sizeof got);
    for (int i = 0; i < 6; i++) {
        ck_assert_uint_eq(got[i], (unsigned)T[i]);
        ck_assert_uint_eq(out[i][0], 6); ck_assert_uint_eq(out[i][1], 6);
        ck_assert_uint_eq(out[i][2], 1); ck_assert_uint_eq(out[i][3], 0);
    }
    /* a destroyed object: the launch fails naming the handle */
    ck_assert_int_eq(ptxeDestroyTextureObject(C, t), PTXE_SUCCESS);
    ck_assert_int_ne(launch_xy(1, 1, 1, a), PTXE_SUCCESS);
    ck_assert_msg(strstr(ptxeGetErrorMessage(C), "not a live texture"), "%s",
                  ptxeGetErrorMessage(C));
    done();
}
END_TEST

/* Forms nvcc does not emit for the texsurf.cu kernels, by inline PTX on one thread: .f16
 * and .v2.f16x2 results, offsets e and d|p (§9.7.9.3), tld4.g.a2d, tld4.r.acube, tex.a1d with
 * integer coordinates, tex.acube, sust.p (channels converted to f16), sured.p/.b with .zero and
 * .clamp, suld vectors of .b16 and 3D with .clamp, suq/txq attributes of layered and 3D objects. */
static const char forms_ptx[] = HDR
    ".visible .entry k(.param .u64 out, .param .u64 t2, .param .u64 tl, .param .u64 ta1,\n"
    ".param .u64 tac, .param .u64 s2h, .param .u64 s1, .param .u64 s3)\n{\n"
    ".reg .b32 %r<16>;\n.reg .f32 %f<16>;\n.reg .b16 %h<8>;\n.reg .b64 %rd<10>;\n"
    ".reg .pred %p<2>;\n"
    "ld.param.u64 %rd1, [out];\nld.param.u64 %rd2, [t2];\nld.param.u64 %rd3, [tl];\n"
    "ld.param.u64 %rd4, [ta1];\nld.param.u64 %rd5, [tac];\nld.param.u64 %rd6, [s2h];\n"
    "ld.param.u64 %rd7, [s1];\nld.param.u64 %rd8, [s3];\n"
    "tex.2d.v4.f16.f32 {%h1, %h2, %h3, %h4}, [%rd2, {0f40200000, 0f3FC00000}];\n"
    "st.global.v4.b16 [%rd1], {%h1, %h2, %h3, %h4};\n"
    "tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}|%p1, [%rd2, {0f40200000, 0f3FC00000}], {1, -1};\n"
    "st.global.v4.f32 [%rd1+16], {%f1, %f2, %f3, %f4};\n"
    "selp.u32 %r1, 1, 0, %p1;\nst.global.u32 [%rd1+32], %r1;\n"
    "mov.u32 %r2, 1;\n"
    "tld4.g.a2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd3, {%r2, 0f40000000, 0f40000000, "
    "0f00000000}];\n"
    "st.global.v4.f32 [%rd1+48], {%f1, %f2, %f3, %f4};\n"
    "tex.a1d.v4.f32.s32 {%f1, %f2, %f3, %f4}, [%rd4, {5, -1}];\n"
    "st.global.v4.f32 [%rd1+64], {%f1, %f2, %f3, %f4};\n"
    "tex.acube.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd5, {%r2, 0f00000000, 0f00000000, "
    "0fC0400000}];\n"
    "st.global.v4.f32 [%rd1+80], {%f1, %f2, %f3, %f4};\n"
    "tld4.r.acube.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd5, {%r2, 0f00000000, 0f00000000, "
    "0fC0400000}];\n"
    "st.global.v4.f32 [%rd1+144], {%f1, %f2, %f3, %f4};\n"
    "tex.2d.v2.f16x2.f32 {%r9, %r10}|%p1, [%rd2, {0f40200000, 0f3FC00000}];\n"
    "selp.u32 %r11, 7, 0, %p1;\n"
    "st.global.v4.b32 [%rd1+160], {%r9, %r10, %r11, %r11};\n"
    "suld.b.1d.v4.b16.trap {%h1, %h2, %h3, %h4}, [%rd7, {0}];\n"
    "st.global.v4.b16 [%rd1+96], {%h1, %h2, %h3, %h4};\n"
    "suld.b.3d.v2.b32.clamp {%r3, %r4}, [%rd8, {8, 5, 1, 0}];\n"
    "st.global.v2.b32 [%rd1+112], {%r3, %r4};\n"
    "suq.array_size.b32 %r5, [%rd8];\nsuq.depth.b32 %r6, [%rd8];\n"
    "txq.array_size.b32 %r7, [%rd3];\ntxq.level.width.b32 %r8, [%rd2], 1;\n"
    "st.global.v4.b32 [%rd1+128], {%r5, %r6, %r7, %r8};\n"
    "sust.p.2d.v4.b32.trap [%rd6, {3, 1}], {0f3FC00000, 0fC0000000, 0f41100000, 0f41100000};\n"
    "sured.p.add.1d.b32.trap [%rd7, {2}], -5;\n"
    "sured.b.min.1d.s32.zero [%rd7, {4}], -100;\n"
    "sured.b.min.1d.s32.zero [%rd7, {40}], -100;\n"
    "sured.b.max.1d.u32.clamp [%rd7, {400}], 7;\n"
    "ret;\n}\n";

START_TEST(inline_forms)
{
    ck_assert_msg(load_text(forms_ptx) == PTXE_SUCCESS, "%s", ptxeGetErrorMessage(C));
    fill2();
    ptxeTextureDesc pc = tdesc(PTXE_FILTER_POINT, 0, PTXE_ADDRESS_CLAMP);
    ptxeResourceDesc r2 = rarray(dev(tex2_data, sizeof tex2_data), 32, 4, PTXE_FMT_FLOAT, W2, H2,
                                 0);
    float tl[2][4][4][2], ta1[3][4], tac[2][6][2][2];
    for (int l = 0; l < 2; l++)
        for (int y = 0; y < 4; y++)
            for (int x = 0; x < 4; x++)
                for (int c = 0; c < 2; c++)
                    tl[l][y][x][c] = (float)(1000 * l + 100 * c + 10 * y + x);
    for (int l = 0; l < 3; l++)
        for (int x = 0; x < 4; x++) ta1[l][x] = (float)(10 * l + x);
    for (int q = 0; q < 2; q++)
        for (int f = 0; f < 6; f++)
            for (int i = 0; i < 4; i++) tac[q][f][i / 2][i % 2] = (float)(100 * q + 10 * f + i);
    ptxeResourceDesc rl = rarray(dev(tl, sizeof tl), 32, 2, PTXE_FMT_FLOAT, 4, 4, 0);
    rl.flags = PTXE_ARRAY_LAYERED; rl.layers = 2;
    ptxeResourceDesc ra = rarray(dev(ta1, sizeof ta1), 32, 1, PTXE_FMT_FLOAT, 4, 0, 0);
    ra.flags = PTXE_ARRAY_LAYERED; ra.layers = 3;
    ptxeResourceDesc rc = rarray(dev(tac, sizeof tac), 32, 1, PTXE_FMT_FLOAT, 2, 2, 0);
    rc.flags = PTXE_ARRAY_LAYERED | PTXE_ARRAY_CUBEMAP; rc.layers = 2;
    int32_t s1[8] = { 0x10002, -3, 40, 7, 8, 9, 10, -1 };
    uint32_t s3[2][3][4];
    for (int z = 0; z < 2; z++)
        for (int y = 0; y < 3; y++)
            for (int x = 0; x < 4; x++) s3[z][y][x] = (uint32_t)(100 * z + 10 * y + x);
    ptxeResourceDesc rh = rarray(dev(NULL, 4 * 2 * 4), 16, 2, PTXE_FMT_FLOAT, 4, 2, 0),
                     r1 = rarray(dev(s1, sizeof s1), 32, 1, PTXE_FMT_SIGNED, 8, 0, 0),
                     r3 = rarray(dev(s3, sizeof s3), 32, 1, PTXE_FMT_UNSIGNED, 4, 3, 2);
    ptxeTexObject t2 = mktex(&r2, &pc), ttl = mktex(&rl, &pc), tta = mktex(&ra, &pc),
                  ttc = mktex(&rc, &pc);
    ptxeSurfObject sh = mksurf(&rh), ss1 = mksurf(&r1), ss3 = mksurf(&r3);
    uint32_t out[44];
    ptxeDevptr o = dev(NULL, sizeof out);
    void *a[] = { &o, &t2, &ttl, &tta, &ttc, &sh, &ss1, &ss3 };
    run(1, 1, a);
    get(out, o, sizeof out);
    /* texel (2, 1) of x + 10 y + 100 c - 50 as f16: -38, 62, 162, 262 */
    static const uint16_t h[4] = { 0xD0C0, 0x53C0, 0x5910, 0x5C18 };
    ck_assert_msg(!memcmp(out, h, 8), "f16: %08x %08x", out[0], out[1]);
    float f[4];
    memcpy(f, &out[4], 16);   /* offsets (1, -1): texel (3, 0) */
    for (int c = 0; c < 4; c++) CHECK_F(f[c], (float)(3 + 100 * c - 50), "offset tex", c);
    ck_assert_uint_eq(out[8], 1);
    memcpy(f, &out[12], 16);   /* tld4.g layer 1 at (2, 2): (1,2) (2,2) (2,1) (1,1) */
    static const float g4[4] = { 1121, 1122, 1112, 1111 };
    for (int c = 0; c < 4; c++) CHECK_F(f[c], g4[c], "tld4.g.a2d", c);
    memcpy(f, &out[16], 16);   /* a1d layer 5 -> 2, x -1 -> 0; absent g b 0, a 1 */
    CHECK_F(f[0], 20.0f, "tex.a1d", 0); CHECK_F(f[3], 1.0f, "tex.a1d alpha", 3);
    memcpy(f, &out[20], 16);   /* acube 1, -z face 5, (s, t) = (0, 0) -> texel (1, 1) */
    CHECK_F(f[0], 153.0f, "tex.acube", 0);
    memcpy(f, &out[36], 16);   /* its footprint at (1, 1) - 0.5: (0,1) (1,1) (1,0) (0,0) */
    static const float a4[4] = { 152, 153, 151, 150 };
    for (int c = 0; c < 4; c++) CHECK_F(f[c], a4[c], "tld4.r.acube", c);
    /* .v2.f16x2: {r, g} and {b, a} of texel (2, 1), the first channel in the low half */
    ck_assert_uint_eq(out[40], 0x53C0D0C0u); ck_assert_uint_eq(out[41], 0x5C185910u);
    ck_assert_uint_eq(out[42], 7);
    ck_assert_uint_eq(out[24], 0x00010002u); ck_assert_uint_eq(out[25], 0xfffffffdu);
    ck_assert_uint_eq(out[28], 122); ck_assert_uint_eq(out[29], 123);
    ck_assert_uint_eq(out[32], 0); ck_assert_uint_eq(out[33], 2);
    ck_assert_uint_eq(out[34], 2); ck_assert_uint_eq(out[35], 4);
    uint16_t hs[2][4][2];
    get(hs, rh.data, sizeof hs);
    ck_assert_uint_eq(hs[1][3][0], 0x3E00); ck_assert_uint_eq(hs[1][3][1], 0xC000);
    ck_assert_uint_eq(hs[1][2][0], 0); ck_assert_uint_eq(hs[0][3][1], 0);
    int32_t g1[8];
    get(g1, r1.data, sizeof g1);
    static const int32_t w1[8] = { 0x10002, -100, 35, 7, 8, 9, 10, -1 };
    for (int i = 0; i < 8; i++) ck_assert_int_eq(g1[i], w1[i]);   /* max.u32(-1, 7) = -1 */
    done();
}
END_TEST

/* the API refuses malformed descriptions (as cudaCreateTextureObject would) */
START_TEST(api_checks)
{
    hx_ctx(0);
    ptxeDevptr p = dev(NULL, 4096);
    ptxeTexObject t;
    ptxeTextureDesc d = tdesc(PTXE_FILTER_POINT, 0, PTXE_ADDRESS_CLAMP);
    ptxeResourceDesc ok = rarray(p, 32, 1, PTXE_FMT_FLOAT, 16, 16, 0), r;
    ck_assert_int_eq(ptxeCreateTextureObject(C, &t, &ok, &d), PTXE_SUCCESS);
    r = ok; r.fmt.y = 16;                 /* channels of different sizes */
    ck_assert_int_eq(ptxeCreateTextureObject(C, &t, &r, &d), PTXE_ERROR_INVALID_VALUE);
    r = ok; r.width = 64; r.height = 64;  /* beyond the allocation */
    ck_assert_int_eq(ptxeCreateTextureObject(C, &t, &r, &d), PTXE_ERROR_INVALID_VALUE);
    ck_assert_msg(strstr(ptxeGetErrorMessage(C), "allocation"), "%s", ptxeGetErrorMessage(C));
    r = ok; r.flags = PTXE_ARRAY_CUBEMAP; r.width = 8; r.height = 4;   /* not square */
    ck_assert_int_eq(ptxeCreateTextureObject(C, &t, &r, &d), PTXE_ERROR_INVALID_VALUE);
    r = rarray(p, 32, 1, PTXE_FMT_SIGNED, 16, 16, 0);
    ptxeTextureDesc dl = tdesc(PTXE_FILTER_LINEAR, 0, PTXE_ADDRESS_CLAMP);
    ck_assert_int_eq(ptxeCreateTextureObject(C, &t, &r, &dl), PTXE_ERROR_INVALID_VALUE);
    ptxeTextureDesc dn = tdesc(PTXE_FILTER_POINT, 0, PTXE_ADDRESS_CLAMP);
    dn.readMode = PTXE_READ_NORMALIZED_FLOAT;   /* 32-bit integers cannot be read normalized */
    ck_assert_int_eq(ptxeCreateTextureObject(C, &t, &r, &dn), PTXE_ERROR_INVALID_VALUE);
    ptxeSurfObject s;
    r = ok; r.type = PTXE_RES_LINEAR; r.height = 0;
    ck_assert_int_eq(ptxeCreateSurfaceObject(C, &s, &r), PTXE_ERROR_INVALID_VALUE);
    ck_assert_int_eq(ptxeDestroySurfaceObject(C, t), PTXE_ERROR_INVALID_VALUE);   /* a texture */
    ck_assert_int_eq(ptxeDestroyTextureObject(C, t), PTXE_SUCCESS);
    ck_assert_int_eq(ptxeDestroyTextureObject(C, t), PTXE_ERROR_INVALID_VALUE);
    done();
}
END_TEST

static void add_tests(TCase *tc)
{
    tcase_add_test(tc, t_fetch1d);
    tcase_add_loop_test(tc, t_2d, 0, (int)(sizeof cfg2 / sizeof cfg2[0]));
    tcase_add_test(tc, t_pitch2d); tcase_add_test(tc, t_fixed_point);
    tcase_add_test(tc, t_2d_formats); tcase_add_test(tc, t_2d_int);
    tcase_add_test(tc, t_lodgrad); tcase_add_test(tc, t_layered);
    tcase_add_test(tc, t_3d); tcase_add_test(tc, t_cube);
    tcase_add_test(tc, t_gather); tcase_add_test(tc, t_query);
    tcase_add_test(tc, s_2d); tcase_add_test(tc, s_bounds); tcase_add_test(tc, s_trap);
    tcase_add_test(tc, s_layered); tcase_add_test(tc, s_red);
    tcase_add_test(tc, refused); tcase_add_test(tc, texref_bound);
    tcase_add_test(tc, api_checks); tcase_add_test(tc, inline_forms);
}

#include "check_main.h"
