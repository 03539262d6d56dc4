// tests/kernels/record_tex.cuh — the texsurf.cu part of record_gpu.cu: runs the texture kernels
// on a GPU with the inputs tests/test_exec_tex.c gives them (tests/kernels/texsurf_inputs.h)
// and saves the outputs as gpu/NAME.bin, which test_exec_tex.c then compares bit for bit.
// Linear filtering is where the hardware decides (1.8 fixed-point weights, CUDA C++ Programming
// Guide, appendix "Texture Fetching"); the inputs keep the result exact, so the executor and the
// GPU must agree exactly.  Included by record_gpu.cu (groups tex and txq) after save(), CK()
// and RAN().
//
// The tex module holds every texsurf.cu kernel but tx_query (TEXSURF_NO_TXQ): its txq/suq of
// header fields are the only code of the file with relocations against the texture/surface
// reference descriptor sizes (.nv.unified.texrefDescSize, .nv.surfrefDescSize, resolved by the
// driver at module load), and with it in the module every kernel, even tx_fetch1d over linear
// memory, was refused on the H100 of 2026-11-26 ("operation not supported") while the texture
// kernels of bench/gpu/diag_tex.cu ran there.  tx_query runs alone in the group txq.
#ifndef REC_GROUP_TXQ
#define TEXSURF_NO_TXQ
#endif
#include "texsurf.cu"
#include "texsurf_inputs.h"

// a CUDA array of w x h x d texels (d 0: 2D) with the given flags, filled from src
static cudaArray_t rt_array(cudaChannelFormatDesc f, int w, int h, int d, unsigned flags,
                            const void *src, size_t texel)
{
    cudaArray_t a;
    CK(cudaMalloc3DArray(&a, &f, make_cudaExtent(w, h, d), flags));
    cudaMemcpy3DParms p = {};
    p.srcPtr = make_cudaPitchedPtr((void *)src, w * texel, w, h);
    p.dstArray = a;
    p.extent = make_cudaExtent(w, h, d ? d : 1);
    p.kind = cudaMemcpyHostToDevice;
    CK(cudaMemcpy3D(&p));
    return a;
}

// am: 0 wrap, 1 clamp, 2 mirror, 3 border (cudaTextureAddressMode's order)
static cudaTextureObject_t rt_tex(cudaArray_t a, int linear, int norm, const int *am,
                                  const float *border, int normread = 0)
{
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = a;
    cudaTextureDesc td = {};
    for (int k = 0; k < 3; k++) td.addressMode[k] = (cudaTextureAddressMode)am[k];
    td.filterMode = linear ? cudaFilterModeLinear : cudaFilterModePoint;
    td.readMode = normread ? cudaReadModeNormalizedFloat : cudaReadModeElementType;
    td.normalizedCoords = norm;
    if (border) for (int c = 0; c < 4; c++) td.borderColor[c] = border[c];
    cudaTextureObject_t t;
    CK(cudaCreateTextureObject(&t, &rd, &td, nullptr));
    return t;
}

template <class T> static T *rt_dev(const T *h, size_t n)
{
    T *d;
    CK(cudaMalloc(&d, n * sizeof(T)));
    if (h) CK(cudaMemcpy(d, h, n * sizeof(T), cudaMemcpyHostToDevice));
    else CK(cudaMemset(d, 0, n * sizeof(T)));
    return d;
}
// Each texture kernel on its own: a launch this GPU refuses (the first H100 run, 2026-11-26:
// "launch of tx_2d_point_clamp: operation not supported", a non-sticky error) is reported with
// its kernel and the group goes on with the next one; nothing is saved for it.  A sticky error
// (a fault) ends the program at the next CUDA call, as before.
static int rt_failed, rt_ok;
// before a launch: the kernel's module loaded (cudaFuncGetAttributes loads it), so a refusal
// says whether the module (load) or the launch itself is refused; the error is cleared
static bool rt_loaded(const char *name, const void *fn)
{
    cudaFuncAttributes fa;
    cudaError_t e = cudaFuncGetAttributes(&fa, fn);
    if (!e) return true;
    cudaGetLastError();
    printf("record %s: %s: load of %s failed: %s (%s)\n", REC_GROUP, name, name,
           cudaGetErrorString(e), cudaGetErrorName(e));
    rt_failed++;
    return false;
}
static bool rt_ran(const char *name)
{
    cudaError_t e = cudaGetLastError();
    const char *when = "launch of";
    if (!e) e = cudaDeviceSynchronize(), when = "run of";
    if (!e) return true;
    printf("record %s: %s: %s %s failed: %s (%s)\n", REC_GROUP, name, when, name,
           cudaGetErrorString(e), cudaGetErrorName(e));
    rt_failed++;
    return false;
}
template <class T> static void rt_save(const char *name, const T *d, size_t n)
{
    if (!rt_ran(name)) return;
    T *h = new T[n];
    CK(cudaMemcpy(h, d, n * sizeof(T), cudaMemcpyDeviceToHost));
    save(name, h, n * sizeof(T));
    rt_ok++;
    delete[] h;
}

static void record_tex_2d()
{
    static float t2[TSI_H2][TSI_W2][4], xs[TSI_N2], ys[TSI_N2];
    for (size_t k = 0; k < sizeof tsi_cfg2 / sizeof tsi_cfg2[0]; k++) {
        tsi_seed();
        tsi_fill2(t2);
        tsi_coords2(tsi_cfg2[k].norm, xs, ys, TSI_N2);
        cudaArray_t a = rt_array(cudaCreateChannelDesc<float4>(), TSI_W2, TSI_H2, 0, 0, t2, 16);
        int am[3] = { tsi_cfg2[k].am, tsi_cfg2[k].am, tsi_cfg2[k].am };
        cudaTextureObject_t t = rt_tex(a, tsi_cfg2[k].filter, tsi_cfg2[k].norm, am, tsi_border);
        float4 *o = rt_dev<float4>(nullptr, TSI_N2);
        tx_2d<<<2, 64>>>(t, o, rt_dev(xs, TSI_N2), rt_dev(ys, TSI_N2), TSI_N2);
        rt_save(tsi_cfg2[k].name, o, TSI_N2);
    }
    // tx_gather (point, clamp, 64 coordinates) and tx_lodgrad (channel 0, linear, 40)
    static const int clamp[3] = { 1, 1, 1 };
    tsi_seed();
    tsi_fill2(t2);
    tsi_coords2(0, xs, ys, 64);
    cudaArray_t a = rt_array(cudaCreateChannelDesc<float4>(), TSI_W2, TSI_H2, 0, 0, t2, 16);
    float4 *g = rt_dev<float4>(nullptr, 64 * 4);
    tx_gather<<<1, 64>>>(rt_tex(a, 0, 0, clamp, nullptr), g, rt_dev(xs, 64), rt_dev(ys, 64), 64);
    rt_save("tx_gather", g, 64 * 4);
    static float flat[TSI_H2][TSI_W2];
    tsi_seed();
    tsi_fill2(t2);
    tsi_coords2(0, xs, ys, 40);
    for (int y = 0; y < TSI_H2; y++)
        for (int x = 0; x < TSI_W2; x++) flat[y][x] = t2[y][x][0];
    a = rt_array(cudaCreateChannelDesc<float>(), TSI_W2, TSI_H2, 0, 0, flat, 4);
    float *o = rt_dev<float>(nullptr, 80);
    tx_lodgrad<<<1, 64>>>(rt_tex(a, 1, 0, clamp, nullptr), o, rt_dev(xs, 40), rt_dev(ys, 40), 40);
    rt_save("tx_lodgrad", o, 80);
}

// tx_fetch1d's texture: over linear memory (no CUDA array), 16 floats i * 1.5 - 3
static cudaTextureObject_t rt_linear_tex()
{
    float lin[16];
    for (int i = 0; i < 16; i++) lin[i] = (float)i * 1.5f - 3.0f;
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeLinear;
    rd.res.linear.devPtr = rt_dev(lin, 16);
    rd.res.linear.desc = cudaCreateChannelDesc<float>();
    rd.res.linear.sizeInBytes = sizeof lin;
    cudaTextureDesc td = {};
    td.readMode = cudaReadModeElementType;
    cudaTextureObject_t t;
    CK(cudaCreateTextureObject(&t, &rd, &td, nullptr));
    return t;
}

// tx_fetch1d: 24 threads, T[i - 2]
static void record_tex_linear()
{
    float *o = rt_dev<float>(nullptr, 24);
    tx_fetch1d<<<1, 32>>>(rt_linear_tex(), o, 24);
    rt_save("tx_fetch1d", o, 24);
}

static void record_tex_other()
{
    static const int clamp[3] = { 1, 1, 1 }, am3[3] = { 0, 1, 3 };
    static float t3[TSI_W3][TSI_W3][TSI_W3], xs[128], ys[128], zs[128];
    tsi_seed();
    tsi_inputs3(t3, xs, ys, zs);
    const float b3[4] = { 5, 0, 0, 0 };
    cudaArray_t a = rt_array(cudaCreateChannelDesc<float>(), TSI_W3, TSI_W3, TSI_W3, 0, t3, 4);
    float *o = rt_dev<float>(nullptr, TSI_N3);
    tx_3d<<<2, 64>>>(rt_tex(a, 1, 1, am3, b3), o, rt_dev(xs, TSI_N3), rt_dev(ys, TSI_N3),
                     rt_dev(zs, TSI_N3), TSI_N3);
    rt_save("tx_3d", o, TSI_N3);
    static float tc[6][TSI_WC][TSI_WC];
    tsi_seed();
    tsi_inputs_cube(tc, xs, ys, zs);
    a = rt_array(cudaCreateChannelDesc<float>(), TSI_WC, TSI_WC, 6, cudaArrayCubemap, tc, 4);
    o = rt_dev<float>(nullptr, TSI_NC);
    tx_cube<<<2, 64>>>(rt_tex(a, 0, 1, clamp, nullptr), o, rt_dev(xs, TSI_NC), rt_dev(ys, TSI_NC),
                       rt_dev(zs, TSI_NC), TSI_NC);
    rt_save("tx_cube", o, TSI_NC);
    static float tl[TSI_LL][TSI_WL][TSI_WL];
    static int ls[TSI_NL];
    tsi_seed();
    tsi_inputs_layered(tl, xs, ys, ls);
    a = rt_array(cudaCreateChannelDesc<float>(), TSI_WL, TSI_WL, TSI_LL, cudaArrayLayered, tl, 4);
    o = rt_dev<float>(nullptr, TSI_NL);
    tx_layered<<<1, 64>>>(rt_tex(a, 0, 0, clamp, nullptr), o, rt_dev(xs, TSI_NL),
                          rt_dev(ys, TSI_NL), rt_dev(ls, TSI_NL), TSI_NL);
    rt_save("tx_layered", o, TSI_NL);
}

// tx_2d1 (u8 unorm, s16 snorm point; f16 linear) and tx_2di (s8 x 4, u16 x 2 as integers),
// 64 coordinates in texel units, clamp
static void record_tex_formats()
{
    static const int clamp[3] = { 1, 1, 1 };
    static uint8_t u8[TSI_H2][TSI_W2];
    static int16_t s16[TSI_H2][TSI_W2];
    static uint16_t f16[TSI_H2][TSI_W2];
    static float xs[64], ys[64];
    tsi_seed();
    tsi_formats(u8, s16, f16);
    tsi_coords2(0, xs, ys, 64);
    float *dx = rt_dev(xs, 64), *dy = rt_dev(ys, 64), *o = rt_dev<float>(nullptr, 64);
    const cudaChannelFormatDesc fd[3] = { cudaCreateChannelDesc<unsigned char>(),
                                          cudaCreateChannelDesc<short>(),
                                          cudaCreateChannelDescHalf() };
    const void *src[3] = { u8, s16, f16 };
    const char *names[3] = { "tx_2d1_u8", "tx_2d1_s16", "tx_2d1_f16" };
    for (int k = 0; k < 3; k++) {
        cudaArray_t a = rt_array(fd[k], TSI_W2, TSI_H2, 0, 0, src[k], k ? 2 : 1);
        tx_2d1<<<1, 64>>>(rt_tex(a, k == 2, 0, clamp, nullptr, k < 2), o, dx, dy, 64);
        rt_save(names[k], o, 64);
    }
    static int8_t s8[TSI_H2][TSI_W2][4];
    static uint16_t u16[TSI_H2][TSI_W2][2];
    tsi_seed();
    tsi_ints(s8, u16);
    tsi_coords2(0, xs, ys, 64);
    dx = rt_dev(xs, 64); dy = rt_dev(ys, 64);
    int4 *oi = rt_dev<int4>(nullptr, 64);
    cudaArray_t a = rt_array(cudaCreateChannelDesc<char4>(), TSI_W2, TSI_H2, 0, 0, s8, 4);
    tx_2di<<<1, 64>>>(rt_tex(a, 0, 0, clamp, nullptr), oi, dx, dy, 64);
    rt_save("tx_2di_s8", oi, 64);
    a = rt_array(cudaCreateChannelDesc<ushort2>(), TSI_W2, TSI_H2, 0, 0, u16, 4);
    tx_2di<<<1, 64>>>(rt_tex(a, 0, 0, clamp, nullptr), oi, dx, dy, 64);
    rt_save("tx_2di_u16", oi, 64);
    // tx_fixed_point: the quantization of the linear-filtering weight (tx_2d1, T(x) = 256 x)
    static float tq[TSI_H2][TSI_W2], qx[TSI_NQ], qy[TSI_NQ];
    tsi_fixed_point(tq, qx, qy);
    a = rt_array(cudaCreateChannelDesc<float>(), TSI_W2, TSI_H2, 0, 0, tq, 4);
    float *oq = rt_dev<float>(nullptr, TSI_NQ);
    tx_2d1<<<1, 64>>>(rt_tex(a, 1, 0, clamp, nullptr), oq, rt_dev(qx, TSI_NQ), rt_dev(qy, TSI_NQ),
                      TSI_NQ);
    rt_save("tx_fixed_point", oq, TSI_NQ);
}

// sf_bounds: suld .zero and .clamp on a 8x2 int surface 100 y + x + 1
static void record_surf()
{
    int in[2][8];
    for (int y = 0; y < 2; y++)
        for (int x = 0; x < 8; x++) in[y][x] = 100 * y + x + 1;
    cudaArray_t a = rt_array(cudaCreateChannelDesc<int>(), 8, 2, 0, cudaArraySurfaceLoadStore, in,
                             4);
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = a;
    cudaSurfaceObject_t s;
    CK(cudaCreateSurfaceObject(&s, &rd));
    int *o = rt_dev<int>(nullptr, 32);
    sf_bounds<<<1, 32>>>(s, o, 16);
    rt_save("sf_bounds", o, 32);
}

// every kernel of the module loaded before any launch: "load of K failed" (the module, or
// the function) apart from "launch of K failed" (the launch) and "run of K failed" (a fault)
static void rt_probe()
{
    static const struct { const char *name; const void *fn; } ks[] = {
        { "tx_fetch1d", (const void *)tx_fetch1d }, { "tx_2d", (const void *)tx_2d },
        { "tx_2d1", (const void *)tx_2d1 }, { "tx_2di", (const void *)tx_2di },
        { "tx_lodgrad", (const void *)tx_lodgrad }, { "tx_layered", (const void *)tx_layered },
        { "tx_3d", (const void *)tx_3d }, { "tx_cube", (const void *)tx_cube },
        { "tx_gather", (const void *)tx_gather }, { "sf_bounds", (const void *)sf_bounds },
    };
    int drv = 0, bad = 0;
    cudaDriverGetVersion(&drv);
    const char *lazy = getenv("CUDA_MODULE_LOADING");
    for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++) bad += !rt_loaded(ks[i].name, ks[i].fn);
    printf("record %s: %d of %zu kernels loaded (driver %d, CUDA_MODULE_LOADING=%s)\n",
           REC_GROUP, (int)(sizeof ks / sizeof ks[0]) - bad, sizeof ks / sizeof ks[0], drv,
           lazy ? lazy : "unset");
}

static void record_tex()
{
    rt_probe();
    record_tex_linear();   // first: no CUDA array
    record_tex_2d();
    record_tex_other();
    record_tex_formats();
    record_surf();
    if (rt_failed) {
        char why[96];
        snprintf(why, sizeof why, "%d load(s) or launch(es) failed, %d kernel(s) recorded "
                 "(lines above)", rt_failed, rt_ok);
        fail("texture kernels", why);
    }
}

#ifdef REC_GROUP_TXQ
// The group txq: the module of the group tex plus tx_query, whose txq/suq of header fields
// carry relocations against the reference descriptor sizes (above).  It loads and launches
// tx_fetch1d (the kernel the tex group records first) and tx_query over a 2D float texture
// (linear filter, clamp) and an 8x2 int surface, and prints tx_query's 16 values; it saves
// nothing (test_exec_tex.c checks tx_query against the ISA, not a recording).  If this module
// is refused where the tex group's is not, tx_query's relocations are why.
static void record_txq()
{
    bool ok = rt_loaded("tx_fetch1d", (const void *)tx_fetch1d);
    ok = rt_loaded("tx_query", (const void *)tx_query) && ok;
    printf("record txq: module %s\n", ok ? "loaded" : "NOT loaded (lines above)");
    float *o = rt_dev<float>(nullptr, 24);
    tx_fetch1d<<<1, 32>>>(rt_linear_tex(), o, 24);
    rt_ran("tx_fetch1d");
    static float t2[TSI_H2][TSI_W2];
    static const int clamp[3] = { 1, 1, 1 };
    cudaArray_t a = rt_array(cudaCreateChannelDesc<float>(), TSI_W2, TSI_H2, 0, 0, t2, 4);
    int in[2][8] = {};
    cudaArray_t sa = rt_array(cudaCreateChannelDesc<int>(), 8, 2, 0, cudaArraySurfaceLoadStore,
                              in, 4);
    cudaResourceDesc sd = {};
    sd.resType = cudaResourceTypeArray;
    sd.res.array.array = sa;
    cudaSurfaceObject_t s;
    CK(cudaCreateSurfaceObject(&s, &sd));
    int *q = rt_dev<int>(nullptr, 16), v[16];
    tx_query<<<1, 1>>>(rt_tex(a, 1, 0, clamp, nullptr), s, q);
    if (rt_ran("tx_query")) {
        CK(cudaMemcpy(v, q, sizeof v, cudaMemcpyDeviceToHost));
        printf("record txq: tx_query (w h d chtype chorder norm filter am0 am1 arrsize mips "
               "sw sh schtype istex issurf):");
        for (int i = 0; i < 16; i++) printf(" %d", v[i]);
        printf("\n");
    }
    if (rt_failed) {
        char why[64];
        snprintf(why, sizeof why, "%d load(s) or launch(es) failed (lines above)", rt_failed);
        fail("txq", why);
    }
    printf("record txq: ran (nothing to save)\n");
}
#endif
