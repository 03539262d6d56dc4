// tests/kernels/record_gpu.cu — runs the corpus kernels whose results the ISA leaves partly to
// the hardware on a real GPU, with the inputs tests/test_exec_kernels.c gives them, and writes
// the outputs to gpu/NAME.bin (raw little-endian).  Built and run by tests/kernels/record_gpu.sh
// where a GPU is present; tests/test_exec_kernels.c compares the executor with each file that
// exists (none is needed for the tests to pass).
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include "video.cu"
#include "../video_ref.h"

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

int main()
{
    record_video();
    record_tex();
    return 0;
}
