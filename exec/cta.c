/* exec/cta.c — the state of a CTA: its warps, their frames and local memory, shared memory and
 * barriers, set up when the CTA starts (reusing an earlier CTA's allocations) and freed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "exec/engine.h"

/* ---------------------------------------------------------------- CTAs */
static void free_warp(warp *w)
{
    for (int i = 0; i < w->nfr; i++) { free(w->fr[i].regs); free(w->fr[i].params); }
    free(w->fr);
    for (int l = 0; l < 32; l++) free(w->lmem[l]);
}

/* A warp slot of the previous cluster made new: its frames and local memory are kept (zeroed:
 * the kernel frame's registers that the kernel can read before writing them, every register of
 * the other frames), everything else is cleared.  (Zeroing all of the kernel frame cost 9% of
 * the ALU benchmark's instructions: 256 CTAs x 8 warps x 31 KiB.) */
static void recycle_warp(ex *X, warp *w)
{
    frame *fr = w->fr;
    int nfr = w->nfr;
    uint8_t *lmem[32];
    uint32_t lcap[32];
    memcpy(lmem, w->lmem, sizeof lmem);
    memcpy(lcap, w->lcap, sizeof lcap);
    memset(w, 0, sizeof *w);
    w->fr = fr; w->nfr = nfr;
    memcpy(w->lmem, lmem, sizeof lmem);
    memcpy(w->lcap, lcap, sizeof lcap);
    for (int i = 0; i < nfr; i++) {
        uint64_t *regs = fr[i].regs;
        uint8_t *params = fr[i].params;
        if (i == 0 && X->nzero0 >= 0)   /* the others are written before they are read */
            for (int k = 0; k < X->nzero0; k++) memset(regs + (size_t)X->zero0[k] * 32, 0, 256);
        else memset(regs, 0, ((size_t)X->nregs * 32 + 1) * 8);
        memset(params, 0, (size_t)X->psize * 32 + 1);
        memset(&fr[i], 0, sizeof fr[i]);
        fr[i].regs = regs; fr[i].params = params;
    }
    for (int l = 0; l < 32; l++) if (lmem[l]) memset(lmem[l], 0, lcap[l]);
}

/* The state of a CTA of the launch at `rank` in its cluster.  The first cluster allocates it;
 * later clusters reuse the allocations of the CTA that had the same rank (zeroed), so a launch
 * of many CTAs neither allocates nor frees per CTA (measured: with per-CTA malloc/free the heap
 * top is trimmed and refaulted, 3x the run time of the executor benchmark). */
int setup_cta(ex *X, cta *c, const xfunc *ef, uint32_t rank)
{
    uint32_t nt = X->block[0] * X->block[1] * X->block[2];
    int nwarps = (int)((nt + 31) / 32), fresh = !c->warps;
    uint32_t ssize = (uint32_t)(((X->m->shared_static + 15) & ~15u) + X->dyn);
    uint8_t *smem = c->smem;
    warp *warps = c->warps;
    uint32_t *wmask[16];
    for (int b = 0; b < 16; b++) wmask[b] = c->bar[b].wmask;
    memset(c, 0, sizeof *c);
    if (fresh && host_charge(X, ssize + 1 + (uint64_t)nwarps * (sizeof(warp) + 16 * 4))) return -1;
    c->smem = fresh ? calloc(ssize + 1, 1) : memset(smem, 0, ssize + 1);
    c->warps = fresh ? calloc((size_t)nwarps, sizeof *c->warps) : warps;
    if (!c->smem || !c->warps) return -1;
    for (int b = 0; b < 16; b++) {
        c->bar[b].wmask =
            fresh ? calloc((size_t)nwarps, 4) : memset(wmask[b], 0, (size_t)nwarps * 4);
        if (!c->bar[b].wmask) return -1;
    }
    c->nthreads = nt;
    c->nwarps = nwarps;
    c->rank = rank;
    c->ssize = ssize;
    for (int i = 0; i < c->nwarps; i++) {
        warp *w = &c->warps[i];
        if (!fresh) recycle_warp(X, w);
        w->cta = c; w->wid = i; w->pol = X->S->pol;
        uint32_t n = nt - (uint32_t)i * 32 < 32 ? nt - (uint32_t)i * 32 : 32;
        w->all = w->live = n == 32 ? ~0u : (1u << n) - 1;
        for (uint32_t l = 0; l < n; l++) {
            uint32_t t = (uint32_t)i * 32 + l;   /* §2.2: x varies fastest */
            w->tid[l][0] = (uint16_t)(t % X->block[0]);
            w->tid[l][1] = (uint16_t)(t / X->block[0] % X->block[1]);
            w->tid[l][2] = (uint16_t)(t / (X->block[0] * X->block[1]));
            w->lpc[l] = ef->start; w->ldep[l] = 0;
            w->lsp[l] = ef->lsize;
        }
        if (ensure_frame(X, w, 0)) return -1;
    }
    return 0;
}

void free_cta(cta *c)
{
    for (int i = 0; c->warps && i < c->nwarps; i++) free_warp(&c->warps[i]);
    free(c->warps); free(c->smem);
    for (int b = 0; b < 16; b++) free(c->bar[b].wmask);
    memset(c, 0, sizeof *c);
}

