/* exec/sched.c — the scheduler: which warp runs and for how long; deadlock and
 * step-limit reports. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "exec/engine.h"
#include "exec/sanitize.h"

/* After a step or time limit: where each warp of the running cluster was, one line per group of
 * lanes at one instruction (PTX line, CTA, warp), at most 64 lines. */
static void where_report(ex *X)
{
    char *o = X->ctx->msg;
    size_t n = sizeof X->ctx->msg, k = strlen(o);
    int lines = 0, more = 0;
    for (uint32_t i = 0; i < X->ncl; i++)
        for (int j = 0; j < X->cl[i].nwarps; j++) {
            warp *w = &X->cl[i].warps[j];
            uint32_t rest = w->live;
            if (w->active)   /* the running group is at w->pc */
                for (uint32_t m = w->active; m; m &= m - 1) w->lpc[__builtin_ctz(m)] = w->pc;
            while (rest) {
                int l0 = __builtin_ctz(rest), pc = w->lpc[l0];
                uint32_t g = 0;
                for (uint32_t m = rest; m; m &= m - 1)
                    if (w->lpc[__builtin_ctz(m)] == pc) g |= 1u << __builtin_ctz(m);
                rest &= ~g;
                if (lines >= 64 || k + 200 >= n) { more++; continue; }
                lines++;
                const xinsn *in = pc >= 0 && pc < X->m->nprog ? &X->prog[pc] : NULL;
                int wait = (g & w->barw) ? 1 : (g & (w->wsync | w->clw)) ? 2 : 0;
                k += (size_t)snprintf(o + k, n - k,
                                      "  CTA (%u,%u,%u) warp %d lanes 0x%08x%s: %s:%d: %s\n",
                                      X->cl[i].ctaid[0], X->cl[i].ctaid[1], X->cl[i].ctaid[2],
                                      w->wid, g,
                                      wait == 1 ? " (waiting at a barrier)"
                                      : wait == 2 ? " (waiting)" : "",
                                      X->m->ast->filename, in ? in->line : 0,
                                      in ? in->text : "?");
            }
        }
    if (more && k + 80 < n)
        snprintf(o + k, n - k, "  ... and %d more groups of lanes\n", more);
}

static void deadlock_report(ex *X, cta *cs, int ncta)
{
    for (int i = 0; i < ncta; i++)
        for (int j = 0; j < cs[i].nwarps; j++)
            if (cs[i].warps[j].wrdv) { wsync_deadlock(X, &cs[i].warps[j]); return; }
    for (int i = 0; i < ncta; i++)
        for (int j = 0; j < cs[i].nwarps; j++) {
            warp *w = &cs[i].warps[j];
            if (!w->clw) continue;
            int l = __builtin_ctz(w->clw);
            fault(X, w, l, w->lpc[l] - 1, PTXE_ERROR_LAUNCH_FAILED,
                  "cluster barrier deadlock: %u of %u threads of the cluster arrived and no other "
                  "thread can run",
                  X->cl_arrived, X->cl_live);
            return;
        }
    for (int i = 0; i < ncta; i++)
        for (int j = 0; j < cs[i].nwarps; j++) {
            warp *w = &cs[i].warps[j];
            if (!w->barw) continue;
            int l = __builtin_ctz(w->barw);
            int pc = w->lpc[l] - 1;
            if (w->wgpc) {   /* parked at a wgmma.mma_async (h_wgmma) */
                fault(X, w, l, pc, PTXE_ERROR_LAUNCH_FAILED,
                      "wgmma deadlock: warp %d waits for the other warps of its warpgroup "
                      "(§9.7.14.1), which cannot reach this instruction", w->wid);
                return;
            }
            uint32_t arrived = 0, need = 0;
            for (int b = 0; b < 16; b++)
                if (cs[i].bar[b].wmask[j]) {
                    arrived = cs[i].bar[b].arrived;
                    need = cs[i].bar[b].count_given ? cs[i].bar[b].expected
                                                    : cs[i].nthreads - cs[i].nexited;
                }
            fault(X, w, l, pc, PTXE_ERROR_LAUNCH_FAILED,
                  "barrier deadlock: %u of %u threads arrived and no other thread can run", arrived,
                  need);
            return;
        }
    fault(X, NULL, -1, -1, PTXE_ERROR_LAUNCH_FAILED, "deadlock: no thread can make progress");
}

/* One cluster (cx, cy, cz): its CTAs are set up, their warps interleaved in quanta until all
 * exit, a fault, or no warp can progress (a deadlock); per-warp statistics recorded. */
void run_cluster(ex *X, cta *cs, const xfunc *ef, const uint32_t cid[3], uint64_t wpc)
{
    uint32_t ncl = X->cluster[0] * X->cluster[1] * X->cluster[2],
             nt = X->block[0] * X->block[1] * X->block[2], k = 0;
    memcpy(X->clusterid, cid, sizeof X->clusterid);
    X->cl = cs; X->ncl = ncl; X->cl_live = ncl * nt; X->cl_arrived = 0;
    for (uint32_t z = 0; z < X->cluster[2]; z++)
    for (uint32_t y = 0; y < X->cluster[1]; y++)
    for (uint32_t x = 0; x < X->cluster[0]; x++, k++) {
        cta *c = &cs[k];
        uint32_t in[3] = { x, y, z };
        if (setup_cta(X, c, ef, k)) {   /* (clears c: the ids come after) */
            host_out_of_memory(X, NULL, -1, -1, "CTA state");
            break;
        }
        for (int d = 0; d < 3; d++) {
            c->ctaid[d] = cid[d] * X->cluster[d] + in[d];
            c->cl_ctaid[d] = in[d];
        }
        if (X->san) san_cta_start(X->san, k);
    }
    while (!X->fault) {
        int progress = 0, alive = 0;
        for (uint32_t i = 0; i < ncl && !X->fault; i++)
            for (int j = 0; j < cs[i].nwarps && !X->fault; j++) {
                warp *w = &cs[i].warps[j];
                if (!w->live) continue;
                uint64_t before = w->ninsn;
                int r = run_warp(X, w, QUANTUM);
                if (w->ninsn != before) progress = 1;
                if (r != W_DONE) alive = 1;
            }
        if (!alive || X->fault) break;
        if (!progress) { deadlock_report(X, cs, (int)ncl); break; }
    }
    if (X->fault == PTXE_ERROR_LAUNCH_TIMEOUT) {
        size_t k = strlen(ctx_msg(X));
        snprintf(ctx_msg(X) + k, sizeof X->ctx->msg - k, "  where the warps were:\n");
        where_report(X);
    }
    ptxeCtx *ctx = X->ctx;
    for (uint32_t i = 0; i < k; i++) {   /* the CTAs set up (all, unless memory ran out) */
        cta *c = &cs[i];
        uint64_t lin =
            ((uint64_t)c->ctaid[2] * X->grid[1] + c->ctaid[1]) * X->grid[0] + c->ctaid[0];
        for (int j = 0; j < c->nwarps; j++) {
            ctx->per_warp[lin * wpc + (uint64_t)j] = c->warps[j].ninsn;
            ctx->stats.warp_insns += c->warps[j].ninsn;
        }
    }
}

