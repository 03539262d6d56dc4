/* exec/api.c — the public C API of include/ptxexec.h: contexts, modules, memory, launches,
 * error strings.  The launch itself is exec/launch.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "exec/exec_int.h"
#include "exec/heap.h"
#include "exec/sanitize.h"
#include "exec/tex.h"
#include "frontend/ptx_parse.h"

static const char *const names[PTXE_ERROR_COUNT] = { "PTXE_SUCCESS",
                                                     "PTXE_ERROR_INVALID_VALUE",
                                                     "PTXE_ERROR_OUT_OF_MEMORY",
                                                     "PTXE_ERROR_INVALID_PTX",
                                                     "PTXE_ERROR_NOT_FOUND",
                                                     "PTXE_ERROR_INVALID_ADDRESS",
                                                     "PTXE_ERROR_LAUNCH_FAILED",
                                                     "PTXE_ERROR_LAUNCH_TIMEOUT",
                                                     "PTXE_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE" };
static const char *const strings[PTXE_ERROR_COUNT] = { "no error",
                                                       "invalid argument",
                                                       "out of memory",
                                                       "the PTX module was rejected",
                                                       "named symbol not found",
                                                       "invalid device address",
                                                       "kernel fault during launch",
                                                       "the launch exceeded its step limit",
                                                       "too many CTAs for a cooperative launch" };

const char *ptxeGetErrorName(ptxeResult r)
{
    return (unsigned)r < PTXE_ERROR_COUNT ? names[r] : "PTXE_ERROR_UNKNOWN";
}
const char *ptxeGetErrorString(ptxeResult r)
{
    return (unsigned)r < PTXE_ERROR_COUNT ? strings[r] : "unknown error";
}
const char *ptxeGetErrorMessage(ptxeCtx *ctx) { return ctx ? ctx->msg : ""; }

ptxeResult ptxeCtxCreate(ptxeCtx **ctx)
{
    if (!ctx) return PTXE_ERROR_INVALID_VALUE;
    *ctx = calloc(1, sizeof **ctx);
    return *ctx ? PTXE_SUCCESS : PTXE_ERROR_OUT_OF_MEMORY;
}

void ptxeCtxDestroy(ptxeCtx *ctx)
{
    if (!ctx) return;
    for (int i = 0; i < ctx->nallocs; i++) {
        free(ctx->allocs[i].host); free(ctx->allocs[i].ibits); free(ctx->allocs[i].name);
    }
    san_findings_clear(ctx);
    free(ctx->findings.v); free(ctx->pf.s);
    tex_ctx_free(ctx);
    heap_ctx_free(ctx);
    free(ctx->allocs); free(ctx->cmem); free(ctx->per_warp); free(ctx->mcasts);
    free(ctx);
}

ptxeResult ptxeModuleLoadData(ptxeCtx *ctx, ptxeModule **mod, const char *text, size_t len,
                              const char *filename)
{
    if (!ctx || !mod || !text) return PTXE_ERROR_INVALID_VALUE;
    *mod = NULL;
    ctx->msg[0] = 0;
    ptx_module *a = ptx_parse(filename ? filename : "<ptx>", text, len, ctx->msg, sizeof ctx->msg);
    if (!a) return PTXE_ERROR_INVALID_PTX;
    ptxeModule *m = calloc(1, sizeof *m);
    if (!m) { ptx_module_free(a); return PTXE_ERROR_OUT_OF_MEMORY; }
    m->ctx = ctx; m->ast = a;
    if (exec_load(ctx, m, ctx->msg, sizeof ctx->msg)) {
        ptxeModuleUnload(m);
        return PTXE_ERROR_INVALID_PTX;
    }
    *mod = m;
    return PTXE_SUCCESS;
}

ptxeResult ptxeModuleUnload(ptxeModule *m)
{
    if (!m) return PTXE_ERROR_INVALID_VALUE;
    for (int i = 0; m->funcs && i < m->nfuncs; i++) free(m->funcs[i].live_in);
    for (int i = 0; i < m->ngallocs; i++) ptxeMemFree(m->ctx, m->galloc_addrs[i]);
    ptx_module_free(m->ast);
    free(m);
    return PTXE_SUCCESS;
}

ptxeResult ptxeModuleGetFunction(ptxeFunction **f, ptxeModule *m, const char *name)
{
    if (!f || !m) return PTXE_ERROR_INVALID_VALUE;
    int found = -1, nentry = 0;
    for (int i = 0; i < m->nfuncs; i++) {
        if (!m->funcs[i].is_entry || !m->funcs[i].has_body) continue;
        nentry++;
        if (!name || !strcmp(m->funcs[i].name, name)) found = i;
    }
    if (found < 0 || (!name && nentry != 1)) {
        /* "found X, expected one of the module's kernels: a, b" */
        char list[512] = "";
        size_t at = 0;
        for (int i = 0; i < m->nfuncs && at < sizeof list - 1; i++) {
            if (!m->funcs[i].is_entry || !m->funcs[i].has_body) continue;
            int w = snprintf(list + at, sizeof list - at, "%s%s", at ? ", " : "", m->funcs[i].name);
            if (w < 0) break;
            at += (size_t)w;
        }
        if (name)
            snprintf(m->ctx->msg, sizeof m->ctx->msg,
                     "found kernel '%s', expected a .entry of %s: %s", name, m->ast->filename,
                     nentry ? list : "(none)");
        else
            snprintf(
                m->ctx->msg, sizeof m->ctx->msg,
                "found %d .entry kernels in %s, expected exactly one when no kernel is named (%s)",
                nentry, m->ast->filename, nentry ? list : "none");
        return PTXE_ERROR_NOT_FOUND;
    }
    *f = &m->fhandles[found];
    return PTXE_SUCCESS;
}

ptxeResult ptxeModuleGetGlobal(ptxeDevptr *dptr, size_t *bytes, ptxeModule *m, const char *name)
{
    if (!m || !name) return PTXE_ERROR_INVALID_VALUE;
    return mem_symbol(m, name, dptr, bytes) ? PTXE_ERROR_NOT_FOUND : PTXE_SUCCESS;
}

const char *ptxeFuncGetName(const ptxeFunction *f) { return f ? f->mod->funcs[f->idx].name : NULL; }
int ptxeFuncGetParamCount(const ptxeFunction *f) { return f ? f->mod->funcs[f->idx].nparams : -1; }
ptxeResult ptxeFuncGetParamInfo(const ptxeFunction *f, int i, size_t *size, const char **type)
{
    if (!f || i < 0 || i >= f->mod->funcs[f->idx].nparams) return PTXE_ERROR_INVALID_VALUE;
    if (size) *size = f->mod->funcs[f->idx].psz[i];
    if (type) *type = f->mod->funcs[f->idx].ptype[i];
    return PTXE_SUCCESS;
}

ptxeResult ptxeCtxSetMemoryLimit(ptxeCtx *ctx, uint64_t bytes)
{
    if (!ctx || !bytes) return PTXE_ERROR_INVALID_VALUE;
    ctx->mem_limit = bytes;
    return PTXE_SUCCESS;
}

uint64_t ptxeCtxGetMemoryUsed(const ptxeCtx *ctx) { return ctx ? ctx->mem_used : 0; }

ptxeResult ptxeMemAlloc(ptxeCtx *ctx, ptxeDevptr *dptr, size_t bytes)
{
    if (!ctx || !dptr) return PTXE_ERROR_INVALID_VALUE;
    return mem_alloc_user(ctx, bytes, dptr) ? PTXE_ERROR_OUT_OF_MEMORY : PTXE_SUCCESS;
}

ptxeResult ptxeMemFree(ptxeCtx *ctx, ptxeDevptr dptr)
{
    if (!ctx) return PTXE_ERROR_INVALID_VALUE;
    return mem_release(ctx, dptr) ? PTXE_ERROR_INVALID_VALUE : PTXE_SUCCESS;
}

ptxeResult ptxeMemcpyHtoD(ptxeCtx *ctx, ptxeDevptr dst, const void *src, size_t n)
{
    if (!ctx || (!src && n)) return PTXE_ERROR_INVALID_VALUE;
    return mem_write(ctx, dst, src, n) ? PTXE_ERROR_INVALID_ADDRESS : PTXE_SUCCESS;
}

ptxeResult ptxeMemcpyDtoH(ptxeCtx *ctx, void *dst, ptxeDevptr src, size_t n)
{
    if (!ctx || (!dst && n)) return PTXE_ERROR_INVALID_VALUE;
    uint8_t *h = mem_host(ctx, src, n);
    if (!h) return PTXE_ERROR_INVALID_ADDRESS;
    if (n) memcpy(dst, h, n);
    return PTXE_SUCCESS;
}

ptxeResult ptxeMemsetD8(ptxeCtx *ctx, ptxeDevptr dst, uint8_t v, size_t n)
{
    if (!ctx) return PTXE_ERROR_INVALID_VALUE;
    uint8_t *h = mem_host(ctx, dst, n);
    if (!h) return PTXE_ERROR_INVALID_ADDRESS;
    memset(h, v, n);
    mem_mark_written(ctx, dst, n);
    return PTXE_SUCCESS;
}

ptxeResult ptxeLaunchKernel(ptxeFunction *f, const ptxeLaunchConfig *cfg, void **params)
{
    if (!f || !cfg) return PTXE_ERROR_INVALID_VALUE;
    return exec_launch(f, cfg, params);
}

ptxeResult ptxeLaunchCooperativeKernel(ptxeFunction *f, const ptxeLaunchConfig *cfg, void **params)
{
    if (!f || !cfg) return PTXE_ERROR_INVALID_VALUE;
    ptxeLaunchConfig c = *cfg;
    c.cooperative = 1;
    return exec_launch(f, &c, params);
}

int ptxeFuncGetRegisterCount(const ptxeFunction *f)
{
    if (!f) return -1;
    exec_occ o;
    exec_occupancy(f->mod, &f->mod->funcs[f->idx], 0, 0, 0, &o);
    return (int)o.regs;
}

ptxeResult ptxeOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, ptxeFunction *f,
                                                         int blockSize, size_t dynamicSMemSize)
{
    if (!numBlocks || !f || blockSize < 1 || blockSize > 1024 || dynamicSMemSize > (1u << 20))
        return PTXE_ERROR_INVALID_VALUE;
    ptxeModule *m = f->mod;
    exec_occ o;
    unsigned smem = ((m->shared_static + 15) & ~15u) + (unsigned)dynamicSMemSize;
    *numBlocks = exec_occupancy(m, &m->funcs[f->idx], (unsigned)blockSize, smem, 0, &o);
    return PTXE_SUCCESS;
}

void ptxeGetLaunchStats(ptxeCtx *ctx, ptxeLaunchStats *st) { if (ctx && st) *st = ctx->stats; }
