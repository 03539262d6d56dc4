/* fuzz/fuzz_exec.c — libFuzzer target: the executor on fuzzed PTX.  The module is loaded through
 * the public API; its first .entry is launched on 2 CTAs x 40 threads (two warps, one
 * partial) with a step limit of 20000 warp-instructions.  Pointer-sized parameters point to a
 * 4 KiB zeroed buffer, other parameters are small integers.  Faults and the step limit are
 * expected outcomes; crashes, sanitizer reports and hangs are bugs. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include "frontend/ptx_parse.h"
#include "include/ptxexec.h"

#ifndef FUZZ_MAX_LEN
#define FUZZ_MAX_LEN 32768
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > FUZZ_MAX_LEN) return 0;
    char *src = malloc(size ? size : 1);
    if (!src) return 0;
    memcpy(src, data, size);
    ptxeCtx *ctx = NULL;
    if (ptxeCtxCreate(&ctx) != PTXE_SUCCESS) { free(src); return 0; }
    /* every other input with all four checks (exec/sanitize.c) */
    if (size & 1) ptxeCtxSetChecks(ctx, PTXE_CHECK_ALL);
    ptxeModule *m = NULL;
    if (ptxeModuleLoadData(ctx, &m, src, size, "fuzz.ptx") == PTXE_SUCCESS) {
        /* the first .entry of the module (the API's NULL name needs exactly one) */
        char name[256] = "";
        char err[256];
        ptx_module *pm = ptx_parse("fuzz.ptx", src, size, err, sizeof err);
        for (int i = 0; pm && i < pm->nfuncs; i++)
            if (pm->funcs[i].is_entry && pm->funcs[i].name) {
                snprintf(name, sizeof name, "%s", pm->funcs[i].name);
                break;
            }
        ptx_module_free(pm);
        ptxeFunction *f = NULL;
        if (name[0] && ptxeModuleGetFunction(&f, m, name) == PTXE_SUCCESS) {
            int np = ptxeFuncGetParamCount(f);
            if (np >= 0 && np <= 32) {
                ptxeDevptr buf = 0;
                ptxeMemAlloc(ctx, &buf, 4096);
                uint64_t vals[32][8];   /* up to 64 bytes per parameter */
                void *args[32];
                int ok = 1;
                for (int i = 0; i < np; i++) {
                    size_t sz = 0; const char *ty = NULL;
                    if (ptxeFuncGetParamInfo(f, i, &sz, &ty) != PTXE_SUCCESS ||
                        sz > sizeof vals[i]) {
                        ok = 0;
                        break;
                    }
                    memset(vals[i], 0, sizeof vals[i]);
                    vals[i][0] = sz == 8 ? buf : (uint64_t)(16 + i);
                    args[i] = vals[i];
                }
                if (ok) {
                    ptxeLaunchConfig cfg = { .grid = { 2, 1, 1 },
                                             .block = { 40, 1, 1 },
                                             .max_steps = 20000 };
                    (void)ptxeLaunchKernel(f, &cfg, args);
                    ptxeLaunchStats st;
                    ptxeGetLaunchStats(ctx, &st);
                    for (int i = 0; i < ptxeGetFindingCount(ctx); i++)
                        if (!ptxeGetFinding(ctx, i)->report[0]) abort();
                    size_t pn;
                    const char *po = ptxeGetPrintfOutput(ctx, &pn, NULL);
                    if (pn && !po) abort();
                }
            }
        }
        ptxeModuleUnload(m);
    } else {
        const char *msg = ptxeGetErrorMessage(ctx);
        if (!msg) abort();
    }
    ptxeCtxDestroy(ctx);
    free(src);
    return 0;
}
