/* exec/thread.c — the state of a thread outside its registers: call frames of a warp, local
 * memory (the per-thread stack) and the special registers (ISA chapter 10). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "exec/engine.h"

/* ---------------------------------------------------------------- frames and local memory */
int ensure_frame(ex *X, warp *w, int d)
{
    if (d < w->nfr) return 0;
    int nn = d + 1 > w->nfr * 2 ? d + 1 : w->nfr * 2;
    if (host_charge(X,
                    (uint64_t)(nn - w->nfr) * (sizeof(frame) + ((uint64_t)X->nregs * 32 + 1) * 8 +
                                               (uint64_t)X->psize * 32 + 1)))
        return -1;
    frame *nf = realloc(w->fr, (size_t)nn * sizeof *nf);
    if (!nf) return -1;
    w->fr = nf;
    for (int i = w->nfr; i < nn; i++) {
        memset(&nf[i], 0, sizeof nf[i]);
        nf[i].regs = calloc((size_t)X->nregs * 32 + 1, 8);
        nf[i].params = calloc((size_t)X->psize * 32 + 1, 1);
        if (!nf[i].regs || !nf[i].params) { w->nfr = i + 1; return -1; }
    }
    w->nfr = nn;
    return 0;
}

/* NULL with *oom == 0: outside the thread's local memory (a fault of the kernel); NULL with
 * *oom == 1: the host memory for it could not be had (a host error, reported here). */
uint8_t *local_ptr(ex *X, warp *w, int l, int pc, uint64_t a, unsigned n, int *oom)
{
    if (a + n > w->lsp[l] || a + n < a) return NULL;
    if (a + n > w->lcap[l]) {
        uint64_t nc = w->lcap[l] ? w->lcap[l] : 256;
        while (nc < a + n) nc *= 2;
        uint8_t *p = host_charge(X, nc - w->lcap[l]) ? NULL : realloc(w->lmem[l], nc);
        if (!p) { *oom = 1; host_out_of_memory(X, w, l, pc, "local memory"); return NULL; }
        memset(p + w->lcap[l], 0, nc - w->lcap[l]);
        w->lmem[l] = p; w->lcap[l] = (uint32_t)nc;
    }
    return w->lmem[l] + a;
}

/* ---------------------------------------------------------------- operands */
uint64_t sreg(ex *X, warp *w, int l, int id)
{
    cta *c = w->cta;
    switch (id) {
    case SR_TID: case SR_TID + 1: case SR_TID + 2: return w->tid[l][id - SR_TID];
    case SR_NTID: case SR_NTID + 1: case SR_NTID + 2: return X->block[id - SR_NTID];
    case SR_CTAID: case SR_CTAID + 1: case SR_CTAID + 2: return c->ctaid[id - SR_CTAID];
    case SR_NCTAID: case SR_NCTAID + 1: case SR_NCTAID + 2: return X->grid[id - SR_NCTAID];
    case SR_CLUSTERID:
    case SR_CLUSTERID + 1:
    case SR_CLUSTERID + 2: return c->clu->id[id - SR_CLUSTERID];
    case SR_NCLUSTERID:
    case SR_NCLUSTERID + 1:
    case SR_NCLUSTERID + 2: return X->grid[id - SR_NCLUSTERID] / X->cluster[id - SR_NCLUSTERID];
    case SR_CLUSTER_CTAID:
    case SR_CLUSTER_CTAID + 1:
    case SR_CLUSTER_CTAID + 2: return c->cl_ctaid[id - SR_CLUSTER_CTAID];
    case SR_CLUSTER_NCTAID:
    case SR_CLUSTER_NCTAID + 1:
    case SR_CLUSTER_NCTAID + 2: return X->cluster[id - SR_CLUSTER_NCTAID];
    case SR_CLUSTER_CTARANK: return c->rank;
    case SR_CLUSTER_NCTARANK: return X->cluster[0] * X->cluster[1] * X->cluster[2];
    case SR_IS_EXPLICIT_CLUSTER: return (uint64_t)X->explicit_cluster;
    case SR_LANEID: return (uint64_t)l;
    case SR_WARPID: return (uint64_t)w->wid;
    case SR_NWARPID: return (uint64_t)c->nwarps;
    case SR_SMID: return c->sm;
    case SR_NSMID: return X->nsm;
    case SR_GRIDID: return X->ctx->gridid;
    case SR_LANEMASK_EQ: return 1u << l;
    case SR_LANEMASK_LE: return (uint32_t)((2ull << l) - 1);
    case SR_LANEMASK_LT: return (1u << l) - 1;
    case SR_LANEMASK_GE: return (uint32_t)~((1u << l) - 1);
    case SR_LANEMASK_GT: return (uint32_t)~((2ull << l) - 1);
    case SR_CLOCK: return (uint32_t)X->steps;
    case SR_CLOCK_HI: return (uint32_t)(X->steps >> 32);
    case SR_CLOCK64: case SR_GLOBALTIMER: return X->steps;
    case SR_GLOBALTIMER_LO: return (uint32_t)X->steps;
    case SR_GLOBALTIMER_HI: return (uint32_t)(X->steps >> 32);
    case SR_DYN_SMEM: return X->dyn;
    case SR_TOTAL_SMEM: case SR_AGGR_SMEM: return c->ssize;
    default: return id >= SR_ENVREG && id < SR_ENVREG + MAX_ENVREG ? X->envreg[id - SR_ENVREG] : 0;
    }
}

