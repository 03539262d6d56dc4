/* tests/exec_harness.h — the launch harness the executor's kernel tests share (test_exec_kernels,
 * test_exec_kernels_checks, test_exec_remote, test_exec_wgmma, test_exec_wmma, test_exec_tma,
 * test_exec_tex, test_exec_gemm): one context, module and function at a time in the static
 * globals C, M, F;
 * load a committed kernel file tests/kernels/FILE (the folder from PTX_KERNELS where set) or an
 * inline module into a new context with the checks hx_checks, look up a function, allocate and
 * fill device memory, copy it back, launch and assert success with no finding, and credit the
 * launched kernel to the coverage evidence (tests/evidence.h).  Failures are Check asserts.
 *
 * Include it once per test file, after <check.h>.  Before including, a file may define
 * HX_ZERO_FILL (an int expression, default 1): whether dev(NULL, n) zero-fills the new memory
 * as cudaMemset would (under initcheck, memory the kernel reads must have been written), and
 * HX_SOURCE (a string, default "kernels/?"): the evidence source of kernels that run() launches
 * before any kernel file is loaded (from inline modules: hx_load_text leaves it as it is). */
#ifndef PTX_TESTS_EXEC_HARNESS_H
#define PTX_TESTS_EXEC_HARNESS_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <check.h>
#include "include/ptxexec.h"
#ifndef EVIDENCE_EXEC
#define EVIDENCE_EXEC
#endif
#include "tests/evidence.h"

#ifndef HX_ZERO_FILL
#define HX_ZERO_FILL 1
#endif
#define HX_FN __attribute__((unused)) static

static ptxeCtx *C;
static ptxeModule *M;
static ptxeFunction *F;
static unsigned hx_checks;                  /* PTXE_CHECK_* of the contexts hx_try_load makes */
#ifndef HX_SOURCE
#define HX_SOURCE "kernels/?"
#endif
static char hx_source[96] = HX_SOURCE;   /* the kernel file loaded last, for the evidence */

/* the folder of the committed kernels */
HX_FN const char *kdir(void)
{
    return getenv("PTX_KERNELS") ? getenv("PTX_KERNELS") : "tests/kernels";
}

/* kdir()/gpu/NAME: the outputs tests/kernels/record_gpu.sh recorded on a GPU, open for reading,
 * or NULL where no GPU has recorded them */
HX_FN FILE *gpu_open(const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/gpu/%s", kdir(), name);
    return fopen(path, "rb");
}

/* a new context in C (the previous one destroyed) with the checks `checks`, no module yet */
HX_FN void hx_ctx(unsigned checks)
{
    if (C) ptxeCtxDestroy(C);
    M = NULL;
    ck_assert_int_eq(ptxeCtxCreate(&C), PTXE_SUCCESS);
    ck_assert_int_eq(ptxeCtxSetChecks(C, checks), PTXE_SUCCESS);
}

/* the inline module `text` (named `name` in messages) into a new context: the load result */
HX_FN ptxeResult hx_load_text(const char *text, const char *name, unsigned checks)
{
    hx_ctx(checks);
    return ptxeModuleLoadData(C, &M, text, strlen(text), name);
}

/* kdir()/FILE into a new context with the checks hx_checks: the load result */
HX_FN ptxeResult hx_try_load(const char *file)
{
    static char buf[1 << 22];
    char path[512];
    snprintf(path, sizeof path, "%s/%s", kdir(), file);
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    hx_ctx(hx_checks);
    snprintf(hx_source, sizeof hx_source, "kernels/%s", file);
    return ptxeModuleLoadData(C, &M, buf, n, path);
}

/* F = the kernel `kernel` of M (NULL: its first entry) */
HX_FN void hx_function(const char *kernel)
{
    ck_assert_msg(ptxeModuleGetFunction(&F, M, kernel) == PTXE_SUCCESS, "no kernel %s",
                  kernel ? kernel : "(first entry)");
}

/* kdir()/FILE loaded (it must load) and F = its kernel `kernel` (NULL: none looked up) */
HX_FN void hx_load(const char *file, const char *kernel)
{
    ptxeResult r = hx_try_load(file);
    ck_assert_msg(r == PTXE_SUCCESS, "%s", ptxeGetErrorMessage(C));
    if (kernel) hx_function(kernel);
}

/* the module unloaded and the context destroyed */
HX_FN void done(void)
{
    if (M) ptxeModuleUnload(M);
    M = NULL;
    if (C) ptxeCtxDestroy(C);
    C = NULL;
}

/* n bytes of device memory holding h (h NULL: zeros where HX_ZERO_FILL, else not written) */
HX_FN ptxeDevptr dev(const void *h, size_t n)
{
    ptxeDevptr d;
    ck_assert_int_eq(ptxeMemAlloc(C, &d, n), PTXE_SUCCESS);
    if (h) ck_assert_int_eq(ptxeMemcpyHtoD(C, d, h, n), PTXE_SUCCESS);
    else if (HX_ZERO_FILL) ck_assert_int_eq(ptxeMemsetD8(C, d, 0, n), PTXE_SUCCESS);
    return d;
}

/* n bytes of device memory d copied to h */
HX_FN void get(void *h, ptxeDevptr d, size_t n)
{
    ck_assert_int_eq(ptxeMemcpyDtoH(C, h, d, n), PTXE_SUCCESS);
}

/* F launched on a gx*gy*gz grid of bx*by*bz-thread CTAs with `shared` dynamic shared bytes: the
 * launch result (nothing asserted, no evidence) */
HX_FN ptxeResult hx_launch(unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                           unsigned bz, unsigned shared, void **args)
{
    ptxeLaunchConfig cfg = {
        { gx, gy, gz }, { bx, by, bz }, { 0, 0, 0 }, shared, 0, 0, PTXE_SCHEDULE_DEFAULT, 0, 0
    };
    return ptxeLaunchKernel(F, &cfg, args);
}
HX_FN ptxeResult launch(unsigned grid, unsigned block, void **args)
{
    return hx_launch(grid, 1, 1, block, 1, 1, 0, args);
}

/* the checks found nothing (on a correct kernel, whatever checks are on) */
HX_FN void no_findings(void)
{
    int n = ptxeGetFindingCount(C);
    ck_assert_msg(n == 0, "%d finding(s) on a correct kernel (%s, checks 0x%x), the first:\n%s", n,
                  hx_source, hx_checks, n ? ptxeGetFinding(C, 0)->report : "");
}

/* hx_launch, which must succeed with no finding; the kernel counts as evidence of its rows */
HX_FN void run3(unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                unsigned shared, void **args)
{
    ptxeResult r = hx_launch(gx, gy, gz, bx, by, bz, shared, args);
    ck_assert_msg(r == PTXE_SUCCESS, "%s: %s", ptxeGetErrorName(r), ptxeGetErrorMessage(C));
    no_findings();
    evidence_kernel(F, hx_source);
}
HX_FN void run(unsigned grid, unsigned block, void **args)
{
    run3(grid, 1, 1, block, 1, 1, 0, args);
}

/* the elements of got and want (n of them) alike bit for bit; fmt prints one element */
#define CHECK_ARR(got, want, n, fmt)                                                       \
    do {                                                                                   \
        for (size_t i_ = 0; i_ < (size_t)(n); i_++)                                        \
            ck_assert_msg(memcmp(&(got)[i_], &(want)[i_], sizeof(got)[0]) == 0,            \
                          "index %zu: got " fmt ", want " fmt, i_, (got)[i_], (want)[i_]); \
    } while (0)

#endif
