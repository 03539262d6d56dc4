/* tests/exec_standalone.c — `make check-lib`: the executor as a library.  This program includes
 * only include/ptxexec.h and is linked with build/libptxexec.a and -lm alone (no Z3, cJSON,
 * libyaml, Check): if the library needed anything else, the link would fail.  It runs a saxpy
 * kernel and checks the result. */
#include <stdio.h>
#include <string.h>

#include "include/ptxexec.h"

static const char *const ptx =
    ".version 8.4\n.target sm_90\n.address_size 64\n"
    ".visible .entry saxpy(.param .u32 n, .param .f32 a, .param .u64 x, .param .u64 y)\n{\n"
    "  .reg .pred %p<2>;\n  .reg .b32 %r<6>;\n  .reg .f32 %f<5>;\n  .reg .b64 %rd<8>;\n"
    "  ld.param.u32 %r1, [n];\n  ld.param.f32 %f1, [a];\n"
    "  ld.param.u64 %rd1, [x];\n  ld.param.u64 %rd2, [y];\n"
    "  mov.u32 %r2, %ctaid.x;\n  mov.u32 %r3, %ntid.x;\n  mov.u32 %r4, %tid.x;\n"
    "  mad.lo.s32 %r5, %r2, %r3, %r4;\n  setp.ge.s32 %p1, %r5, %r1;\n  @%p1 bra DONE;\n"
    "  cvta.to.global.u64 %rd3, %rd1;\n  cvta.to.global.u64 %rd4, %rd2;\n"
    "  mul.wide.s32 %rd5, %r5, 4;\n  add.s64 %rd6, %rd3, %rd5;\n  add.s64 %rd7, %rd4, %rd5;\n"
    "  ld.global.f32 %f2, [%rd6];\n  ld.global.f32 %f3, [%rd7];\n"
    "  fma.rn.f32 %f4, %f1, %f2, %f3;\n  st.global.f32 [%rd7], %f4;\n"
    "DONE:\n  ret;\n}\n";

int main(void)
{
    enum { N = 1000 };
    float x[N], y[N];
    for (int i = 0; i < N; i++) { x[i] = (float)i; y[i] = 1.0f; }
    ptxeCtx *ctx;
    ptxeModule *m;
    ptxeFunction *f;
    ptxeDevptr dx, dy;
    if (ptxeCtxCreate(&ctx) || ptxeModuleLoadData(ctx, &m, ptx, strlen(ptx), "saxpy.ptx") ||
        ptxeModuleGetFunction(&f, m, "saxpy") || ptxeMemAlloc(ctx, &dx, sizeof x) ||
        ptxeMemAlloc(ctx, &dy, sizeof y) || ptxeMemcpyHtoD(ctx, dx, x, sizeof x) ||
        ptxeMemcpyHtoD(ctx, dy, y, sizeof y)) {
        fprintf(stderr, "exec_standalone: setup failed: %s\n", ptxeGetErrorMessage(ctx));
        return 1;
    }
    unsigned n = N;
    float a = 2.0f;
    void *args[] = { &n, &a, &dx, &dy };
    ptxeLaunchConfig cfg = { .grid = { (N + 255) / 256, 1, 1 }, .block = { 256, 1, 1 } };
    if (ptxeLaunchKernel(f, &cfg, args) || ptxeMemcpyDtoH(ctx, y, dy, sizeof y)) {
        fprintf(stderr, "exec_standalone: launch failed: %s\n", ptxeGetErrorMessage(ctx));
        return 1;
    }
    for (int i = 0; i < N; i++)
        if (y[i] != 2.0f * (float)i + 1.0f) {
            fprintf(stderr, "exec_standalone: y[%d] = %g, expected %g\n", i, y[i], 2.0 * i + 1.0);
            return 1;
        }
    ptxeModuleUnload(m);
    ptxeCtxDestroy(ctx);
    printf("exec_standalone: libptxexec.a linked with -lm only; saxpy over %d threads ok\n", N);
    return 0;
}
