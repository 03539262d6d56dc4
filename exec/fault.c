/* exec/fault.c — a launch's faults and host memory: who ran an instruction (for reports and the
 * checks), the fault report that stops a launch, and the host memory a launch may take. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "exec/engine.h"
#include "exec/sanitize.h"

/* ---------------------------------------------------------------- faults */
san_who who(const ex *X, const warp *w, int l, int pc)
{
    san_who t;
    memset(&t, 0, sizeof t);
    t.pc = pc;
    if (!w) return t;
    const cta *c = w->cta;
    for (int d = 0; d < 3; d++) { t.t[d] = l >= 0 ? w->tid[l][d] : 0; t.c[d] = c->ctaid[d]; }
    t.cta = ((uint64_t)c->ctaid[2] * X->grid[1] + c->ctaid[1]) * X->grid[0] + c->ctaid[0];
    t.tid = (t.t[2] * X->block[1] + t.t[1]) * X->block[0] + t.t[0];
    t.slot = c->slot; t.wid = w->wid; t.lane = l;
    return t;
}

void fault(ex *X, warp *w, int lane, int pc, ptxeResult kind, const char *fmt, ...)
{
    if (X->fault) return;
    X->fault = kind;
    char what[768];
    va_list ap; va_start(ap, fmt); vsnprintf(what, sizeof what, fmt, ap); va_end(ap);
    if (X->san) {
        san_who t = who(X, w,
                        lane >= 0        ? lane
                        : w && w->active ? __builtin_ctz(w->active)
                                         : -1,
                        pc);
        san_fault(X->san, &t, what);
    }
    char *o = X->ctx->msg; size_t n = sizeof X->ctx->msg;
    /* a host resource that ran out is the host's error, not a fault of the kernel */
    int k =
        snprintf(o, n, "%s: %s\n", kind == PTXE_ERROR_OUT_OF_MEMORY ? "host error" : "fault", what);
    if (w) {
        cta *c = w->cta;
        if (lane >= 0)
            k += snprintf(o + k, n - (size_t)k,
                          "  thread (%u,%u,%u) of CTA (%u,%u,%u), warp %d lane %d\n",
                          w->tid[lane][0], w->tid[lane][1], w->tid[lane][2], c->ctaid[0],
                          c->ctaid[1], c->ctaid[2], w->wid, lane);
        else
            k += snprintf(o + k, n - (size_t)k, "  warp %d of CTA (%u,%u,%u)\n", w->wid,
                          c->ctaid[0], c->ctaid[1], c->ctaid[2]);
    }
    if (pc >= 0 && pc < X->m->nprog && k > 0 && (size_t)k < n) {
        const xinsn *in = &X->prog[pc];
        k += snprintf(o + k, n - (size_t)k, "  at %s:%d:%d: %s\n", X->m->ast->filename, in->line,
                      in->col, in->text);
        if (in->src_line && k > 0 && (size_t)k < n) {
            const char *f = in->src_file > 0 && in->src_file < X->m->ast->nfiles &&
                                    X->m->ast->files[in->src_file]
                                ? X->m->ast->files[in->src_file]
                                : "?";
            snprintf(o + k, n - (size_t)k, "  CUDA source: %s:%d\n", f, in->src_line);
        }
    }
    if (X->hooks) X->hooks->fault(X->hooks->ctx, X, w, lane, pc);
}

/* ---------------------------------------------------------------- host memory of a launch */
/* Charges n bytes of host memory to the launch: 0, or -1 when the memory limit is reached. */
int host_charge(ex *X, uint64_t n)
{
    if (n > X->host_left - X->host_used) { X->host_want = n; return -1; }
    X->host_used += n;
    return 0;
}

/* A host allocation failed or the limit was reached: a host error of the launch (not a fault
 * of the kernel: the kernel did nothing wrong), PTXE_ERROR_OUT_OF_MEMORY. */
void host_out_of_memory(ex *X, warp *w, int lane, int pc, const char *what)
{
    fault(X, w, lane, pc, PTXE_ERROR_OUT_OF_MEMORY,
          "found a launch that needs %llu more bytes of host memory for %s (it holds %llu, the "
          "device memory %llu), expected at most %llu bytes in all (limit ptxeCtxSetMemoryLimit, "
          "run --max-memory)",
          (unsigned long long)X->host_want, what, (unsigned long long)X->host_used,
          (unsigned long long)X->ctx->mem_used,
          (unsigned long long)(X->ctx->mem_limit ? X->ctx->mem_limit : PTXE_DEFAULT_MEMORY_LIMIT));
}

