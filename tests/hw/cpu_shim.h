/* tests/hw/cpu_shim.h — a CPU stand-in for the CUDA runtime calls of a `ptxlitmus hw`
 * harness program, for the generator's tests on machines without a GPU.
 *
 * The host side of a generated program builds alone with a C++ compiler:
 *     nvcc -arch=sm_90 -ptx T.cu -o T.ptx                       (the kernel, for the executor)
 *     c++ -std=c++17 -x c++ -DHW_HOST_SHIM -I. -include tests/hw/cpu_shim.h T.cu \
 *         build/libptxlitmus.a -o T.cpu $(LDLIBS)
 *     HW_SHIM_PTX=T.ptx ./T.cpu -n 256 ...
 * and runs the kernel's PTX on the project's executor (include/ptxexec.h): the placement,
 * per-instance addresses, read-back and histogram of the real harness run unchanged, with
 * the executor's interleaving instead of a GPU's (so no weak outcome is expected).  Tests with
 * virtual aliases or textures print HWSKIP (the executor has neither). */
#ifndef PTX_TESTS_HW_CPU_SHIM_H
#define PTX_TESTS_HW_CPU_SHIM_H
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "include/ptxexec.h"

struct int2 {
    int x, y;
};
static inline int2 make_int2(int x, int y)
{
    int2 v = { x, y };
    return v;
}
typedef int cudaError_t;
enum { cudaSuccess = 0, cudaErrorShim = 1 };
enum cudaMemcpyKind { cudaMemcpyHostToDevice = 1, cudaMemcpyDeviceToHost = 2 };

static ptxeCtx *hw_shim_ctx;
static ptxeFunction *hw_shim_fn;
static char hw_shim_msg[4096] = "no error";

static const char *cudaGetErrorString(cudaError_t) { return hw_shim_msg; }

static cudaError_t hw_shim_check(ptxeResult r)
{
    if (r == PTXE_SUCCESS) return cudaSuccess;
    snprintf(hw_shim_msg, sizeof hw_shim_msg, "%s: %s", ptxeGetErrorName(r),
             ptxeGetErrorMessage(hw_shim_ctx));
    return cudaErrorShim;
}

static cudaError_t cudaMalloc(void **p, size_t n)
{
    ptxeDevptr d = 0;
    cudaError_t e = hw_shim_check(ptxeMemAlloc(hw_shim_ctx, &d, n));
    *p = (void *)(uintptr_t)d;
    return e;
}

static cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, cudaMemcpyKind k)
{
    if (k == cudaMemcpyHostToDevice)
        return hw_shim_check(ptxeMemcpyHtoD(hw_shim_ctx, (ptxeDevptr)(uintptr_t)dst, src, n));
    return hw_shim_check(ptxeMemcpyDtoH(hw_shim_ctx, dst, (ptxeDevptr)(uintptr_t)src, n));
}

static cudaError_t cudaMemset(void *p, int v, size_t n)
{
    return hw_shim_check(ptxeMemsetD8(hw_shim_ctx, (ptxeDevptr)(uintptr_t)p, (uint8_t)v, n));
}

/* The "device": the executor with the module named by $HW_SHIM_PTX. */
static int hw_shim_device(int nmaps, int uses_tex)
{
    if (nmaps > 1 || uses_tex) {
        printf("HWSKIP the CPU executor has no virtual aliases and no textures\n");
        return -1;
    }
    const char *path = getenv("HW_SHIM_PTX");
    FILE *f = path ? fopen(path, "rb") : NULL;
    if (!f) {
        printf("HWERR HW_SHIM_PTX names no readable PTX file\n");
        exit(2);
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = (char *)malloc((size_t)n + 1);
    if (!text || fread(text, 1, (size_t)n, f) != (size_t)n) {
        printf("HWERR cannot read %s\n", path);
        exit(2);
    }
    fclose(f);
    ptxeModule *m;
    if (ptxeCtxCreate(&hw_shim_ctx) ||
        hw_shim_check(ptxeModuleLoadData(hw_shim_ctx, &m, text, (size_t)n, path)) ||
        hw_shim_check(ptxeModuleGetFunction(&hw_shim_fn, m, "hw_kernel"))) {
        printf("HWERR the executor refused %s: %s\n", path, hw_shim_msg);
        exit(2);
    }
    free(text);
    printf("HWINFO gpu ptxlitmus CPU executor (tests/hw/cpu_shim.h)\nHWINFO cc 9.0\nHWINFO driver "
           "0\n");
    return 0;
}

/* Resident blocks: $HW_SHIM_RESIDENT (default: unlimited; the executor runs any grid). */
static long hw_shim_resident_blocks(int)
{
    const char *r = getenv("HW_SHIM_RESIDENT");
    return r ? atol(r) : 1L << 30;
}

static float hw_shim_launch(int blocks, int tpb, int cdim, const void *args, size_t)
{
    ptxeLaunchConfig cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.grid[0] = (unsigned)blocks, cfg.grid[1] = cfg.grid[2] = 1;
    cfg.block[0] = (unsigned)tpb, cfg.block[1] = cfg.block[2] = 1;
    cfg.cluster[0] = (unsigned)cdim, cfg.cluster[1] = cfg.cluster[2] = 1;
    const char *steps = getenv("HW_SHIM_MAX_STEPS");
    cfg.max_steps = steps ? strtoull(steps, NULL, 10) : 200000000ull;
    void *params[] = { (void *)args };
    if (hw_shim_check(ptxeLaunchKernel(hw_shim_fn, &cfg, params))) {
        printf("HWERR launch on the executor: %s\n", hw_shim_msg);
        exit(2);
    }
    return 0.0f;
}
#endif
