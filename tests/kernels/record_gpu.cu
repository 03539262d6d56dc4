// tests/kernels/record_gpu.cu — runs, on a real GPU, the corpus kernels whose results the ISA
// leaves partly to the hardware, with the inputs the executor's tests give them, and writes the
// outputs to OUT/NAME.bin (raw little-endian; OUT is tests/kernels/gpu by default), which the
// tests then compare with the executor bit for bit (tests/exec_harness.h gpu_open):
//   group    source                          test                        needs
//   video    video.cu video_ops              tests/test_exec_kernels.c   any
//   tex      texsurf.cu (record_tex.cuh)     tests/test_exec_tex.c       any
//   txq      texsurf.cu with tx_query: a diagnosis, saves nothing (record_tex.cuh) any
//   wmma     wmma.cu, tests/wmma_ref.h       tests/test_exec_wmma.c      sm_80
//   gemm80   bench/exec/gemm_sm80.cu         tests/test_exec_gemm.c      sm_80
//   sp       remote.cu mma.sp, sp_ref.h      tests/test_exec_remote.c    sm_90
//   wgmma    wgmma.cu, tests/wgmma_ref.h     tests/test_exec_wgmma.c     sm_90a
//   tma      tma.cu tma_load, tma_im2col     tests/test_exec_tma.c       sm_90a
//   gemm90a  bench/exec/gemm_sm90a.cu        tests/test_exec_gemm.c      sm_90a
// Each group is its own program (nvcc -DREC_GROUP_NAME, see record_gpu.sh), so a kernel one GPU
// cannot load or run cannot sink the others.  Every launch is checked (cudaGetLastError, then
// cudaDeviceSynchronize) before its output is saved: a file exists only when its kernel ran.
// Exit: 0 recorded, 77 skipped (no driver, no device, or a GPU without the group's compute
// capability: the reason is printed), 1 a CUDA call or a launch failed (printed; files of the
// kernels that ran before it stay).  Usage: record_gpu OUTDIR
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <cuda_runtime.h>

static const char *rec_out = "gpu";   // argv[1]

#if defined(REC_GROUP_VIDEO)
#define REC_GROUP "video"
#define REC_NEED 0, "any"
#include "video.cu"
#include "../video_ref.h"
#elif defined(REC_GROUP_TEX)
#define REC_GROUP "tex"
#define REC_NEED 0, "any"
#elif defined(REC_GROUP_TXQ)
#define REC_GROUP "txq"
#define REC_NEED 0, "any"
#elif defined(REC_GROUP_WMMA)
#define REC_GROUP "wmma"
#define REC_NEED 80, "sm_80 or later"
#include "wmma.cu"
#include "../wmma_ref.h"
#elif defined(REC_GROUP_GEMM80)
#define REC_GROUP "gemm80"
#define REC_NEED 80, "sm_80 or later"
#define REC_GEMM80
#include "../../bench/exec/gemm_sm80.cu"
#include "../gemm_ref.h"
#elif defined(REC_GROUP_SP)
#define REC_GROUP "sp"
#define REC_NEED 90, "sm_90 or later (clusters, st.async, mma.sp .e4m3 in remote.cu)"
#include "remote.cu"
#include "../sp_ref.h"
#elif defined(REC_GROUP_WGMMA)
#define REC_GROUP "wgmma"
#define REC_NEED -90, "compute capability 9.0 exactly (sm_90a: wgmma)"
#include "wgmma.cu"
#include "../wgmma_ref.h"
#elif defined(REC_GROUP_TMA)
#define REC_GROUP "tma"
#define REC_NEED -90, "compute capability 9.0 exactly (sm_90a: tensormap.replace in tma.cu)"
#define REC_DRIVER
#include "tma.cu"
#elif defined(REC_GROUP_GEMM90A)
#define REC_GROUP "gemm90a"
#define REC_NEED -90, "compute capability 9.0 exactly (sm_90a: wgmma)"
#define REC_GEMM90A
#define REC_DRIVER
#include "../../bench/exec/gemm_sm90a.cu"
#include "../gemm_ref.h"
#else
#error "define one REC_GROUP_NAME (record_gpu.sh does)"
#endif

[[noreturn]] static void fail(const char *what, const char *why)
{
    printf("record %s: failed: %s: %s\n", REC_GROUP, what, why);
    exit(1);
}
#define CK(x) do { cudaError_t e_ = (x); if (e_) fail(#x, cudaGetErrorString(e_)); } while (0)
// after every launch: the launch's own error, then the kernel's (a launch that never started
// leaves its output buffer as it was: never saved)
[[maybe_unused]] static void ran(const char *kernel)
{
    cudaError_t e = cudaGetLastError();
    const char *when = "launch of";
    if (!e) e = cudaDeviceSynchronize(), when = "run of";
    if (e) {
        char what[160];
        snprintf(what, sizeof what, "%s %s", when, kernel);
        fail(what, cudaGetErrorString(e));
    }
}
#define RAN(kernel) ran(kernel)

// OUT/NAME.bin, written to a temporary name first: a file exists only complete
static void save(const char *name, const void *p, size_t n)
{
    char path[1024], tmp[1100];
    snprintf(path, sizeof path, "%s/%s.bin", rec_out, name);
    snprintf(tmp, sizeof tmp, "%s.part", path);
    FILE *f = fopen(tmp, "wb");
    if (!f || fwrite(p, 1, n, f) != n || fclose(f)) { perror(tmp); exit(1); }
    if (rename(tmp, path)) { perror(path); exit(1); }
    printf("%s: %zu bytes\n", path, n);
}

// the device: exit 77 with the reason when there is none or it lacks the group's capability
// (need > 0: at least sm_<need>; need < 0: exactly sm_<-need>, the "a" targets)
static void need_device(int need, const char *what)
{
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e || n == 0) {
        printf("record %s: skipped: no CUDA device (%s)\n", REC_GROUP,
               e ? cudaGetErrorString(e) : "none found");
        exit(77);
    }
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    int cc = p.major * 10 + p.minor;
    if ((need > 0 && cc < need) || (need < 0 && cc != -need)) {
        printf("record %s: skipped: needs %s, this GPU (%s) is compute capability %d.%d\n",
               REC_GROUP, what, p.name, p.major, p.minor);
        exit(77);
    }
}

#ifdef REC_DRIVER
// the tensor-map encoders of the driver API, through the runtime (no -lcuda: the program starts
// without a driver and says so)
#include <cudaTypedefs.h>
static PFN_cuTensorMapEncodeTiled_v12000 enc_tiled;
static PFN_cuTensorMapEncodeIm2col_v12000 enc_im2col;
static void driver_entries()
{
    cudaDriverEntryPointQueryResult q;
    CK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", (void **)&enc_tiled, 12000,
                                        cudaEnableDefault, &q));
    if (q != cudaDriverEntryPointSuccess) fail("cuTensorMapEncodeTiled", "not in this driver");
    CK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeIm2col", (void **)&enc_im2col, 12000,
                                        cudaEnableDefault, &q));
    if (q != cudaDriverEntryPointSuccess) fail("cuTensorMapEncodeIm2col", "not in this driver");
}
#define CU(x) do { CUresult r_ = (x); if (r_) { char m_[32]; snprintf(m_, sizeof m_, "CUresult %d", (int)r_); fail(#x, m_); } } while (0)
#endif

#ifdef REC_GROUP_VIDEO
static void record_video()
{
    enum { NVO = 30, N = 1000 };
    static unsigned a[N], b[N], c[N], o[N * NVO];
    uint64_t seed = 0xa4093822299f31d0ull;   // as k_video
    for (int i = 0; i < N; i++)
        a[i] = vref_operand(&seed), b[i] = vref_operand(&seed), c[i] = vref_operand(&seed);
    unsigned *da, *db, *dc, *dout;
    CK(cudaMalloc(&da, sizeof a)); CK(cudaMalloc(&db, sizeof b)); CK(cudaMalloc(&dc, sizeof c));
    CK(cudaMalloc(&dout, sizeof o));
    CK(cudaMemcpy(da, a, sizeof a, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(db, b, sizeof b, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dc, c, sizeof c, cudaMemcpyHostToDevice));
    video_ops<<<(N + 127) / 128, 128>>>(dout, da, db, dc, N);
    RAN("video_ops");
    CK(cudaMemcpy(o, dout, sizeof o, cudaMemcpyDeviceToHost));
    save("video_ops", o, sizeof o);
}

#endif

#if defined(REC_GROUP_TEX) || defined(REC_GROUP_TXQ)
#include "record_tex.cuh"
#endif

#ifdef REC_GROUP_WGMMA
// wgmma.cu: every launch of wgmma_ref.h, D into gpu/wgmma_INDEX_KERNEL.bin
static void record_wgmma()
{
    static uint32_t A[WGREF_MAXA], B[WGREF_MAXB], C[WGREF_MAXC], want[WGREF_MAXC], D[WGREF_MAXC];
    for (int fi = 0; fi < WGREF_NFORMS; fi++) {
        const wgref_form *f = &wgref_forms[fi];
        wgref_make(fi, A, B, C, want);
        unsigned *da, *db, *dc, *dd;
        CK(cudaMalloc(&da, sizeof A)); CK(cudaMalloc(&db, sizeof B)); CK(cudaMalloc(&dc, sizeof C));
        CK(cudaMalloc(&dd, sizeof D));
        CK(cudaMemcpy(da, A, sizeof A, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(db, B, sizeof B, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(dc, C, sizeof C, cudaMemcpyHostToDevice));
        int sd = f->scale_d;
        void *args[] = { &da, &db, &dc, &dd, &sd };
        const void *fn = nullptr;
        static const struct { const char *name; const void *fn; } ks[] = {
            { "wg_f16_rs", (const void *)wg_f16_rs }, { "wg_f16_ss", (const void *)wg_f16_ss },
            { "wg_f16_sw128", (const void *)wg_f16_sw128 },
            { "wg_f16_f16acc", (const void *)wg_f16_f16acc },
            { "wg_bf16_tb", (const void *)wg_bf16_tb }, { "wg_tf32", (const void *)wg_tf32 },
            { "wg_s8", (const void *)wg_s8 }, { "wg_u8_sw64", (const void *)wg_u8_sw64 },
            { "wg_sp_f16_sel0", (const void *)wg_sp_f16_sel0 },
            { "wg_sp_f16_sel1", (const void *)wg_sp_f16_sel1 }, { "wg_b1", (const void *)wg_b1 },
            { "wg_fp8", (const void *)wg_fp8 },
            { "wg_bf16_tt_sw128", (const void *)wg_bf16_tt_sw128 },
            { "wg_sp_s8", (const void *)wg_sp_s8 }, { "wg_sp_tf32", (const void *)wg_sp_tf32 },
        };
        for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++)
            if (!strcmp(ks[i].name, f->kernel)) fn = ks[i].fn;
        if (!fn) fail(f->kernel, "no such kernel in wgmma.cu");
        CK(cudaLaunchKernel(fn, dim3(1), dim3(f->threads), args, 0, 0));
        RAN(f->kernel);
        CK(cudaMemcpy(D, dd, sizeof D, cudaMemcpyDeviceToHost));
        char name[128];
        snprintf(name, sizeof name, "wgmma_%d_%s", fi, f->kernel);
        save(name, D, (size_t)f->rows * f->n * 4);
        int bad = 0;
        for (int i = 0; i < f->rows * f->n; i++) bad += D[i] != want[i];
        if (bad) printf("  %s: %d elements differ from the C reference\n", f->kernel, bad);
        cudaFree(da); cudaFree(db); cudaFree(dc); cudaFree(dd);
    }
}
#endif

#ifdef REC_GROUP_SP
// mma.sp (§9.7.13.5): the inputs of tests/test_exec_remote.c k_mma_sp (sp_ref.h, same seeds);
// the D registers of every lane to gpu/KERNEL_REP.bin.  They check the executor's reading of
// the metadata layout figures, which the text of the ISA does not carry.
typedef void (*sp_kernel)(const unsigned *, const unsigned *, const unsigned *, const unsigned *,
                          unsigned *);
static void record_sp()
{
    static const sp_kernel k[] = { sp_f16_k16, sp_f16_k32, sp_bf16_k32, sp_tf32_k8, sp_tf32_k16,
                                   sp_s8_k32, sp_u8s8_k64, sp_s4_k64, sp_u4_k128, sp_e4m3_k64 };
    static_assert(sizeof k / sizeof k[0] == SP_NFORMS, "one kernel per sp_forms row");
    for (unsigned f = 0; f < SP_NFORMS; f++)
        for (int rep = 0; rep < SP_REPS; rep++) {
            static uint32_t a[128], b[128], c[128], e[32], d[128], want[128];
            uint32_t seed = 1000u * (uint32_t)rep + f;   // as sp_case
            sp_gen(&sp_forms[f], &seed, a, b, c, e, want);
            unsigned *da, *db, *dc, *de, *dd;
            CK(cudaMalloc(&da, sizeof a)); CK(cudaMalloc(&db, sizeof b));
            CK(cudaMalloc(&dc, sizeof c)); CK(cudaMalloc(&de, sizeof e));
            CK(cudaMalloc(&dd, sizeof d));
            CK(cudaMemcpy(da, a, sizeof a, cudaMemcpyHostToDevice));
            CK(cudaMemcpy(db, b, sizeof b, cudaMemcpyHostToDevice));
            CK(cudaMemcpy(dc, c, sizeof c, cudaMemcpyHostToDevice));
            CK(cudaMemcpy(de, e, sizeof e, cudaMemcpyHostToDevice));
            k[f]<<<1, 32>>>(da, db, dc, de, dd);
            RAN(sp_forms[f].kernel);
            CK(cudaMemcpy(d, dd, sizeof d, cudaMemcpyDeviceToHost));
            char name[64];
            snprintf(name, sizeof name, "%s_%d", sp_forms[f].kernel, rep);
            save(name, d, sizeof d);
            if (memcmp(d, want, sizeof d)) printf("%s: differs from sp_ref.h\n", name);
            cudaFree(da), cudaFree(db), cudaFree(dc), cudaFree(de), cudaFree(dd);
        }
}

#endif

#ifdef REC_GROUP_WMMA
// wmma.cu: every case of tests/wmma_ref.h in order, D after D, into gpu/wmma.bin
typedef void (*wmma_fn)(const void *, const void *, const void *, void *, int, int, int, int);
#define WK(n) { #n, n }
static const struct { const char *name; wmma_fn fn; } wmma_fns[] = {
    WK(wmma_f16f32_m16n16k16_rr), WK(wmma_f16f32_m16n16k16_rc), WK(wmma_f16f32_m16n16k16_cr),
    WK(wmma_f16f32_m16n16k16_cc), WK(wmma_f16f32_m32n8k16_rc),  WK(wmma_f16f32_m8n32k16_cr),
    WK(wmma_f16f16_m16n16k16_rc), WK(wmma_f16f16_m32n8k16_cr),  WK(wmma_f16f16_m8n32k16_rr),
    WK(wmma_bf16_m16n16k16_rc),   WK(wmma_bf16_m32n8k16_cc),    WK(wmma_bf16_m8n32k16_rr),
    WK(wmma_tf32_m16n16k8_rr),    WK(wmma_tf32_m16n16k8_cc),    WK(wmma_f64_m8n8k4_rc),
    WK(wmma_f64_m8n8k4_cr),       WK(wmma_s8_m16n16k16_rc),     WK(wmma_s8_m32n8k16_rr),
    WK(wmma_s8_m8n32k16_cc),      WK(wmma_u8_m16n16k16_cr),     WK(wmma_u8_m8n32k16_rc),
    WK(wmma_u8_m32n8k16_cc),      WK(wmma_s4_m8n8k32_rc),       WK(wmma_u4_m8n8k32_rc),
    WK(wmma_b1_m8n8k128_rc),
};

static void record_wmma()
{
    static uint8_t all[1 << 20];
    size_t n = 0;
    int mism = 0;
    for (int ki = 0; ki < WREF_NKERNELS; ki++)
        for (int vi = 0; vi < WREF_NVARIANTS; vi++) {
            wref_case w;
            if (!wref_make(ki, vi, &w)) continue;
            if (strcmp(wmma_fns[ki].name, w.kn->name)) {
                fail(w.kn->name, "wmma_fns is out of order");
            }
            void *da, *db, *dc, *dd;
            CK(cudaMalloc(&da, w.abytes)); CK(cudaMalloc(&db, w.bbytes));
            CK(cudaMalloc(&dc, w.cbytes)); CK(cudaMalloc(&dd, w.cbytes));
            CK(cudaMemcpy(da, w.ma, w.abytes, cudaMemcpyHostToDevice));
            CK(cudaMemcpy(db, w.mb, w.bbytes, cudaMemcpyHostToDevice));
            CK(cudaMemcpy(dc, w.mc, w.cbytes, cudaMemcpyHostToDevice));
            CK(cudaMemcpy(dd, w.mc, w.cbytes, cudaMemcpyHostToDevice));
            wmma_fns[ki].fn<<<1, 32>>>(da, db, dc, dd, w.lda, w.ldb, w.ldc, w.flags);
            RAN(w.kn->name);
            CK(cudaMemcpy(all + n, dd, w.cbytes, cudaMemcpyDeviceToHost));
            if (memcmp(all + n, w.md, w.cbytes)) {   // tells, the test will fail on it
                printf("wmma: %s flags %d differs from tests/wmma_ref.h\n", w.kn->name, w.flags);
                mism++;
            }
            n += w.cbytes;
            CK(cudaFree(da)); CK(cudaFree(db)); CK(cudaFree(dc)); CK(cudaFree(dd));
            wref_free(&w);
        }
    save("wmma", all, n);
    printf("wmma: %d case(s) differ from the C reference\n", mism);
}
#endif

#ifdef REC_GROUP_TMA
// tests/test_exec_tma.c's tma_tile2d_swizzle128_oob_nan and tma_im2col, with the same inputs
static void record_tma()
{
    static float g2[24][40];
    for (int j = 0; j < 24; j++)
        for (int i = 0; i < 40; i++) g2[j][i] = (float)((j * 40 + i) * 7 % 1000) - 500.0f;
    float *dg;
    uint32_t *dout;
    static uint32_t out[1024];
    CK(cudaMalloc(&dg, sizeof g2)); CK(cudaMalloc(&dout, sizeof out));
    CK(cudaMemcpy(dg, g2, sizeof g2, cudaMemcpyHostToDevice));
    CUtensorMap tm;
    driver_entries();
    cuuint64_t dims[2] = { 40, 24 }, str[1] = { 160 };
    cuuint32_t box[2] = { 32, 8 }, es[5] = { 1, 1, 1, 1, 1 };
    CU(enc_tiled(&tm, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, dg, dims, str, box, es,
                              CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                              CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
                              CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA));
    tma_load<<<1, 64>>>(*(TMap *)&tm, dout, 2, 16, 20, 0, 0, 0, 1024);
    RAN("tma_load");
    CK(cudaMemcpy(out, dout, 1024, cudaMemcpyDeviceToHost));
    save("tma_tile2d", out, 1024);
    enum { CH = 8, W = 6, H = 5, N = 2 };
    static uint32_t g[N * H * W * CH];
    for (size_t k = 0; k < sizeof g / 4; k++) g[k] = (uint32_t)k * 3 + 100;
    uint32_t *dgi;
    CK(cudaMalloc(&dgi, sizeof g));
    CK(cudaMemcpy(dgi, g, sizeof g, cudaMemcpyHostToDevice));
    for (int rank = 3; rank <= 4; rank++) {
        cuuint64_t d[4] = { CH, W, (cuuint64_t)(rank == 4 ? H : N), N };
        cuuint64_t s[3] = { CH * 4, CH * 4 * W, CH * 4 * W * H };
        int lo[2] = { -1, 0 }, hi[2] = { -1, -2 };
        CU(enc_im2col(&tm, CU_TENSOR_MAP_DATA_TYPE_UINT32, rank, dgi, d, s, lo, hi,
                                   4, 40, es, CU_TENSOR_MAP_INTERLEAVE_NONE,
                                   CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                   CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
        tma_im2col<<<1, 64>>>(*(TMap *)&tm, dout, rank, 4, 1, 1, 0, 1, 2, 640);
        RAN("tma_im2col");
        CK(cudaMemcpy(out, dout, 640, cudaMemcpyDeviceToHost));
        save(rank == 3 ? "tma_im2col3" : "tma_im2col4", out, 640);
    }
}
#endif

#if defined(REC_GROUP_GEMM80) || defined(REC_GROUP_GEMM90A)
// bench/exec/gemm_sm80.cu (group gemm80) or gemm_sm90a.cu (group gemm90a, sm_90a) on the sizes
// of tests/gemm_ref.h: C into OUT/gemm_sm80_MxNxK.bin / OUT/gemm_sm90a_MxNxK.bin
static void record_gemm(int sm90)
{
#ifdef REC_DRIVER
    if (sm90) driver_entries();
#endif
    for (int si = 0; si < GREF_NSIZES; si++) {
            int M = gref_sizes[si][0], N = gref_sizes[si][1], K = gref_sizes[si][2];
            size_t mk = (size_t)M * K, kn = (size_t)K * N, mn = (size_t)M * N;
            uint16_t *a = (uint16_t *)malloc(mk * 2), *b = (uint16_t *)malloc(kn * 2);
            float *c = (float *)malloc(mn * 4), *want = (float *)malloc(mn * 4);
            gref_inputs(M, N, K, 1, a, sm90 ? NULL : b, sm90 ? b : NULL);
            gref_gemm(M, N, K, 1, want);
            uint16_t *da, *db;
            float *dc;
            CK(cudaMalloc(&da, mk * 2)); CK(cudaMalloc(&db, kn * 2)); CK(cudaMalloc(&dc, mn * 4));
            CK(cudaMemcpy(da, a, mk * 2, cudaMemcpyHostToDevice));
            CK(cudaMemcpy(db, b, kn * 2, cudaMemcpyHostToDevice));
            CK(cudaMemset(dc, 0, mn * 4));
            dim3 grid((N + 127) / 128, (M + 127) / 128);
            if (!sm90) {
#ifdef REC_GEMM80
                gemm_sm80<<<grid, 256>>>(da, db, dc, M, N, K);
#endif
            } else {
#ifdef REC_GEMM90A
                CUtensorMap tm[2];
                for (int i = 0; i < 2; i++) {
                    cuuint64_t dims[2] = { (cuuint64_t)K, (cuuint64_t)(i ? N : M) };
                    cuuint64_t str[1] = { (cuuint64_t)K * 2 };
                    cuuint32_t box[2] = { 64, 128 }, es[2] = { 1, 1 };
                    CU(enc_tiled(&tm[i], CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2,
                                              i ? (void *)db : (void *)da, dims, str, box, es,
                                              CU_TENSOR_MAP_INTERLEAVE_NONE,
                                              CU_TENSOR_MAP_SWIZZLE_128B,
                                              CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                              CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
                }
                CK(cudaFuncSetAttribute(gemm_sm90a, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        GEMM90_SMEM));
                gemm_sm90a<<<grid, 256, GEMM90_SMEM>>>(*(Gemm90TMap *)&tm[0],
                                                       *(Gemm90TMap *)&tm[1], dc, M, N, K);
#endif
            }
            RAN(sm90 ? "gemm_sm90a" : "gemm_sm80");
            CK(cudaMemcpy(c, dc, mn * 4, cudaMemcpyDeviceToHost));
            char name[64];
            snprintf(name, sizeof name, "%s_%dx%dx%d", sm90 ? "gemm_sm90a" : "gemm_sm80", M, N, K);
            save(name, c, mn * 4);
            if (memcmp(c, want, mn * 4))   // tells, the test will fail on it
                printf("  %s differs from tests/gemm_ref.h\n", name);
            free(a); free(b); free(c); free(want);
            CK(cudaFree(da)); CK(cudaFree(db)); CK(cudaFree(dc));
        }
}

#endif

int main(int argc, char **argv)
{
    if (argc > 1) rec_out = argv[1];
    setvbuf(stdout, NULL, _IOLBF, 0);
    need_device(REC_NEED);
#if defined(REC_GROUP_VIDEO)
    record_video();
#elif defined(REC_GROUP_TEX)
    record_tex();
#elif defined(REC_GROUP_TXQ)
    record_txq();
#elif defined(REC_GROUP_WMMA)
    record_wmma();
#elif defined(REC_GROUP_GEMM80)
    record_gemm(0);
#elif defined(REC_GROUP_SP)
    record_sp();
#elif defined(REC_GROUP_WGMMA)
    record_wgmma();
#elif defined(REC_GROUP_TMA)
    record_tma();
#elif defined(REC_GROUP_GEMM90A)
    record_gemm(1);
#endif
    printf("record %s: recorded\n", REC_GROUP);
    return 0;
}
