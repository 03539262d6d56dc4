// tests/kernels/record_gpu.cu — runs the corpus kernels whose results the ISA leaves partly to
// the hardware on a real GPU, with the inputs tests/test_exec_kernels.c (video) and
// tests/test_exec_wmma.c (wmma, the cases of tests/wmma_ref.h) give them, and writes
// the outputs to gpu/NAME.bin (raw little-endian).  Built and run by tests/kernels/record_gpu.sh
// where a GPU is present; tests/test_exec_kernels.c compares the executor with each file that
// exists (none is needed for the tests to pass).
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include "video.cu"
#include "../video_ref.h"
#include "wmma.cu"
#include "../wmma_ref.h"

static void save(const char *name, const void *p, size_t n)
{
    char path[256];
    snprintf(path, sizeof path, "gpu/%s.bin", name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(p, 1, n, f) != n) { perror(path); exit(1); }
    fclose(f);
    printf("%s: %zu bytes\n", path, n);
}
#define CK(x) do { cudaError_t e_ = (x); if (e_) { printf("%s: %s\n", #x, cudaGetErrorString(e_)); exit(1); } } while (0)
#include "record_tex.cuh"

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
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(o, dout, sizeof o, cudaMemcpyDeviceToHost));
    save("video_ops", o, sizeof o);
}

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
                printf("wmma_fns out of order at %s\n", w.kn->name);
                exit(1);
            }
            void *da, *db, *dc, *dd;
            CK(cudaMalloc(&da, w.abytes)); CK(cudaMalloc(&db, w.bbytes));
            CK(cudaMalloc(&dc, w.cbytes)); CK(cudaMalloc(&dd, w.cbytes));
            CK(cudaMemcpy(da, w.ma, w.abytes, cudaMemcpyHostToDevice));
            CK(cudaMemcpy(db, w.mb, w.bbytes, cudaMemcpyHostToDevice));
            CK(cudaMemcpy(dc, w.mc, w.cbytes, cudaMemcpyHostToDevice));
            CK(cudaMemcpy(dd, w.mc, w.cbytes, cudaMemcpyHostToDevice));
            wmma_fns[ki].fn<<<1, 32>>>(da, db, dc, dd, w.lda, w.ldb, w.ldc, w.flags);
            CK(cudaDeviceSynchronize());
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

int main()
{
    record_video();
    record_tex();
    record_wmma();
    return 0;
}
