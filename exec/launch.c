/* exec/launch.c — a kernel launch: its shape and limits, its parameters, its checks; then the
 * scheduler runs it (exec/sched.c). */
#include <fenv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "exec/engine.h"
#include "exec/heap.h"
#include "exec/sanitize.h"
#include "exec/tex.h"
#include "ptx/mnemonic.h"

/* The launch shape: grid, block, cluster (a .reqnctapercluster is the default cluster shape),
 * dynamic shared memory, step limit, and its checks.  PTXE_ERROR_INVALID_VALUE with a message. */
static ptxeResult launch_shape(ex *X, const xfunc *ef, const ptxeLaunchConfig *cfg)
{
    ptxeCtx *ctx = X->ctx;
    char *msg = ctx->msg;
    size_t n = sizeof ctx->msg;
    int cfg_cluster = cfg->cluster[0] || cfg->cluster[1] || cfg->cluster[2];
    for (int k = 0; k < 3; k++) {
        X->grid[k] = cfg->grid[k] ? cfg->grid[k] : 1;
        X->block[k] = cfg->block[k] ? cfg->block[k] : 1;
        X->cluster[k] = cfg->cluster[k] ? cfg->cluster[k] : 1;
        if (!cfg_cluster && ef->reqnctapercluster[0] > 0)
            X->cluster[k] = ef->reqnctapercluster[k] > 0 ? (unsigned)ef->reqnctapercluster[k] : 1;
    }
    if (cfg_cluster && ef->reqnctapercluster[0] > 0)
        for (int k = 0; k < 3; k++)
            if (X->cluster[k] !=
                (unsigned)(ef->reqnctapercluster[k] > 0 ? ef->reqnctapercluster[k] : 1)) {
                snprintf(msg, n, "cluster (%u,%u,%u) differs from .reqnctapercluster %d,%d,%d",
                         X->cluster[0], X->cluster[1], X->cluster[2], ef->reqnctapercluster[0],
                         ef->reqnctapercluster[1], ef->reqnctapercluster[2]);
                return PTXE_ERROR_INVALID_VALUE;
            }
    X->explicit_cluster = cfg_cluster || ef->explicitcluster;
    X->dyn = cfg->shared_bytes;
    X->max_steps = cfg->max_steps ? cfg->max_steps : PTXE_DEFAULT_MAX_STEPS;
    X->timeout = cfg->timeout;
    X->check_at = X->max_steps < CLOCK_EVERY ? X->max_steps : CLOCK_EVERY;
    if (!(cfg->timeout >= 0) || cfg->timeout > 1e9) {
        snprintf(msg, n, "timeout %g s, expected 0 (none) or a positive number of seconds",
                 cfg->timeout);
        return PTXE_ERROR_INVALID_VALUE;
    }
    if (cfg->timeout > 0) X->deadline = mono_now() + cfg->timeout;
    uint64_t nt = (uint64_t)X->block[0] * X->block[1] * X->block[2];
    if (!ef->is_entry || !ef->has_body) {
        snprintf(msg, n, "%s is not a kernel (.entry)", ef->name);
        return PTXE_ERROR_INVALID_VALUE;
    }
    if (nt > 1024 || X->block[0] > 1024 || X->block[1] > 1024 || X->block[2] > 64) {
        snprintf(msg, n,
                 "block (%u,%u,%u) has %llu threads, expected at most 1024 (x,y <= 1024, z <= 64)",
                 X->block[0], X->block[1], X->block[2], (unsigned long long)nt);
        return PTXE_ERROR_INVALID_VALUE;
    }
    if (ef->reqntid[0] &&
        (ef->reqntid[0] != (int)X->block[0] || ef->reqntid[1] != (int)X->block[1] ||
         ef->reqntid[2] != (int)X->block[2])) {
        snprintf(msg, n, "block (%u,%u,%u) differs from .reqntid %d,%d,%d", X->block[0],
                 X->block[1], X->block[2], ef->reqntid[0], ef->reqntid[1], ef->reqntid[2]);
        return PTXE_ERROR_INVALID_VALUE;
    }
    for (int k = 0; k < 3; k++)
        if (X->grid[k] % X->cluster[k]) {
            snprintf(msg, n, "grid (%u,%u,%u) is not a multiple of cluster (%u,%u,%u)", X->grid[0],
                     X->grid[1], X->grid[2], X->cluster[0], X->cluster[1], X->cluster[2]);
            return PTXE_ERROR_INVALID_VALUE;
        }
    uint32_t ncl = X->cluster[0] * X->cluster[1] * X->cluster[2];
    if (ncl > 16) {
        snprintf(msg, n, "cluster of %u CTAs, expected at most 16", ncl);
        return PTXE_ERROR_INVALID_VALUE;
    }
    if (X->dyn > 227 * 1024 || X->m->shared_static + X->dyn > 228 * 1024) {
        snprintf(msg, n,
                 "%u bytes of static + %u bytes of dynamic shared memory, expected at most 228 KiB",
                 X->m->shared_static, X->dyn);
        return PTXE_ERROR_INVALID_VALUE;
    }
    return PTXE_SUCCESS;
}

/* The kernel parameter buffer (§5.1.6.1). */
static ptxeResult launch_params(ex *X, const xfunc *ef, void **params)
{
    X->kpsize = ef->kparam_size;
    X->kparams = calloc(X->kpsize + 8, 1);
    if (!X->kparams) return PTXE_ERROR_OUT_OF_MEMORY;
    for (int i = 0; i < ef->nparams; i++) {
        if (!params || !params[i]) {
            snprintf(X->ctx->msg, sizeof X->ctx->msg, "parameter %d of %s is missing", i, ef->name);
            return PTXE_ERROR_INVALID_VALUE;
        }
        memcpy(X->kparams + ef->poff[i], params[i], ef->psz[i]);
    }
    return PTXE_SUCCESS;
}

/* the mnemonic of instruction `in`, tokenized: 0, or -1 */
static int mnemonic_of(const xinsn *in, ptx_mnemonic *mn)
{
    const char *t = in->text;
    if (*t == '@') { while (*t && *t != ' ' && *t != '\t') t++; }
    while (*t == ' ' || *t == '\t') t++;
    ptx_mn_error err;
    return ptx_mnemonic_parse(t, strcspn(t, " \t"), mn, &err) ? -1 : 0;
}

/* independent thread scheduling: per instruction, 1 for an atom or a strong load (volatile,
 * relaxed, acquire: what a polling loop reads), which makes the next backward branch a yield
 * point (exec/sched.c) */
static int insn_polls(ex *X)
{
    int n = X->m->nprog;
    if (!(X->polls = calloc((size_t)n + 1, 1))) return -1;
    for (int pc = 0; pc < n; pc++) {
        const xinsn *in = &X->prog[pc];
        ptx_mnemonic mn;
        if (in->kind == PTX_K_ATOM) X->polls[pc] = 1;
        else if (in->kind == PTX_K_LD && !mnemonic_of(in, &mn) &&
                 (mn.sem == PTX_SEM_VOLATILE || mn.sem == PTX_SEM_RELAXED ||
                  mn.sem == PTX_SEM_ACQUIRE))
            X->polls[pc] = 1;
    }
    return 0;
}

/* The policy of the launch: by cfg->schedule, else by the module's .target (exec/sched.c). */
static const sched_policy *policy_of(const ex *X, const ptxeLaunchConfig *cfg)
{
    if (cfg->schedule == PTXE_SCHEDULE_ITS) return &sched_its;
    if (cfg->schedule == PTXE_SCHEDULE_LOCKSTEP) return &sched_lockstep;
    const char *tg = strstr(X->m->ast->target, "sm_");
    return tg && atoi(tg + 3) < 70 ? &sched_lockstep : &sched_its;
}

/* Residency (exec/occupancy.c): the clusters resident at once, *maxres; %nsmid.  A cooperative
 * launch must be resident whole: its grid workspace (cooperative_groups' grid_workspace: the
 * size, 8, then the barrier word of this_grid().sync()) is allocated and its address given in
 * %envreg1 (high half) and %envreg2 (low half), as the CUDA driver does; *ws is it (0: none). */
static ptxeResult residency(ex *X, xfunc *ef, const ptxeLaunchConfig *cfg,
                            const sched_policy *pol, uint32_t *maxres, uint64_t *ws)
{
    unsigned nt = X->block[0] * X->block[1] * X->block[2],
             ncl = X->cluster[0] * X->cluster[1] * X->cluster[2];
    uint64_t nctas = (uint64_t)X->grid[0] * X->grid[1] * X->grid[2];
    exec_occ o;
    unsigned smem = ((X->m->shared_static + 15) & ~15u) + X->dyn;
    exec_occupancy(X->m, ef, nt, smem, cfg->sm_count, &o);
    uint64_t fit = (uint64_t)o.per_sm * o.nsm;
    X->ctx->stats.regs = o.regs;
    X->nsm = pol->concurrent ? o.nsm : 1;
    *maxres = pol->concurrent ? (uint32_t)(fit / ncl < UINT32_MAX ? fit / ncl : UINT32_MAX) : 1;
    if (pol->hooks) *maxres = (uint32_t)(nctas / ncl);   /* a model checker's: every CTA */
    /* the host memory of the CTAs' state (call frame, shared memory) bounds it too: at most a
     * quarter of what the memory limit leaves, except for a cooperative launch */
    uint64_t wpc = (nt + 31) / 32, cta_bytes =
        wpc * (sizeof(warp) + ((uint64_t)X->nregs * 32 + 1) * 8 + (uint64_t)X->psize * 32 + 65) +
        smem + 1;
    uint64_t room = (X->host_left - X->host_used) / 4 / cta_bytes / ncl;
    if (!cfg->cooperative && *maxres > room) *maxres = (uint32_t)room;
    if (!*maxres) *maxres = 1;   /* (a CTA an SM cannot hold: the GPU would refuse the launch) */
    *ws = 0;
    if (!cfg->cooperative) return PTXE_SUCCESS;
    if (nctas > fit) {
        snprintf(X->ctx->msg, sizeof X->ctx->msg,
                 "found a cooperative launch of %llu CTAs, expected at most %llu, the CTAs one GPU "
                 "holds at once: %u CTAs of %u threads per SM of sm_%d (limited by %s; %u "
                 "registers per thread%s, %llu bytes of shared memory per CTA) times %u SMs (%s%s)",
                 (unsigned long long)nctas, (unsigned long long)fit, o.per_sm, nt, o.cc, o.limit,
                 o.regs, ef->maxnreg ? " by .maxnreg" : " estimated", (unsigned long long)o.smem,
                 o.nsm, cfg->sm_count ? "sm_count" : o.gpu,
                 cfg->sm_count ? "" : "; run --sm-count");
        return PTXE_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE;
    }
    *maxres = (uint32_t)(nctas / ncl);
    const uint32_t w[2] = { 8, 0 };
    if (mem_alloc(X->ctx, 8, ws) || mem_write(X->ctx, *ws, w, sizeof w)) {
        snprintf(X->ctx->msg, sizeof X->ctx->msg,
                 "no device memory for the grid workspace of a cooperative launch");
        return PTXE_ERROR_OUT_OF_MEMORY;
    }
    galloc *g = mem_find(X->ctx, *ws, 0);
    if (g) g->name = strdup("cooperative grid workspace");
    X->envreg[1] = (uint32_t)(*ws >> 32);
    X->envreg[2] = (uint32_t)*ws;
    return PTXE_SUCCESS;
}

/* The per-warp statistics: 8 bytes per warp of the grid. */
static ptxeResult stats_buffer(ex *X, uint64_t nwarps)
{
    ptxeCtx *ctx = X->ctx;
    if (host_charge(X, (nwarps + 1) * 8)) {
        host_out_of_memory(X, NULL, -1, -1, "the per-warp statistics");
        return X->fault;
    }
    if (ctx->per_warp_cap < nwarps) {
        free(ctx->per_warp);
        ctx->per_warp = calloc(nwarps + 1, 8);
        ctx->per_warp_cap = ctx->per_warp ? nwarps : 0;
        if (!ctx->per_warp) {
            host_out_of_memory(X, NULL, -1, -1, "the per-warp statistics");
            return X->fault;
        }
    }
    return PTXE_SUCCESS;
}

/* A launch: shape, parameters, residency, checks; the scheduler runs it (exec/sched.c) with the
 * policy of cfg (pol NULL) or `pol` (engine.h: another policy, such as a model checker's).  The
 * host thread's floating-point rounding mode is set to round-to-nearest-even for the launch (the
 * default-rounding paths of ptx/isa.c compute in the current mode) and restored afterwards. */
ptxeResult exec_launch(ptxeFunction *fh, const ptxeLaunchConfig *cfg, void **params)
{
    return exec_launch_policy(fh, cfg, params, NULL);
}

ptxeResult exec_launch_policy(ptxeFunction *fh, const ptxeLaunchConfig *cfg, void **params,
                              const sched_policy *with)
{
    ptxeModule *m = fh->mod;
    ptxeCtx *ctx = m->ctx;
    xfunc *ef = &m->funcs[fh->idx];
    ex X;
    sched S;
    memset(&X, 0, sizeof X);
    memset(&S, 0, sizeof S);
    X.m = m; X.ctx = ctx; X.prog = m->prog; X.funcs = m->funcs;
    X.hooks = with ? with->hooks : NULL;
    X.nregs = m->nregs_max; X.psize = m->psize_max;
    ctx->msg[0] = 0;
    memset(&ctx->stats, 0, sizeof ctx->stats);
    ptxeResult res = launch_shape(&X, ef, cfg);
    if (!res) res = launch_params(&X, ef, params);
    uint64_t nt = (uint64_t)X.block[0] * X.block[1] * X.block[2], wpc = (nt + 31) / 32;
    uint64_t nctas = (uint64_t)X.grid[0] * X.grid[1] * X.grid[2], ws = 0;
    {
        uint64_t limit = ctx->mem_limit ? ctx->mem_limit : PTXE_DEFAULT_MEMORY_LIMIT;
        X.host_left = limit > ctx->mem_used ? limit - ctx->mem_used : 0;
    }
    const sched_policy *pol = with ? with : policy_of(&X, cfg);
    uint32_t maxres = 1;
    if (!res) res = residency(&X, ef, cfg, pol, &maxres, &ws);
    if (!res) X.nzero0 = exec_entry_live_in(m, ef, &X.zero0);
    if (!res) res = stats_buffer(&X, nctas * wpc);
    if (!res && (host_charge(&X, (uint64_t)m->nprog * sizeof *X.wops) ||
                 !(X.wops = calloc((size_t)m->nprog + 1, sizeof *X.wops)))) {
        host_out_of_memory(&X, NULL, -1, -1, "the operand arrays");
        res = X.fault;
    }
    if (!res && sched_begin(&X, &S, pol, maxres)) res = PTXE_ERROR_OUT_OF_MEMORY;
    if (!res && pol->its && insn_polls(&X)) res = PTXE_ERROR_OUT_OF_MEMORY;
    if (res) goto out;
    ctx->gridid++;
    san_findings_clear(ctx);
    ctx->pf.n = 0; ctx->pf.dropped = 0;
    if (ctx->checks) {
        uint32_t ssize = (uint32_t)(((m->shared_static + 15) & ~15u) + X.dyn);
        X.san = san_begin(ctx, m, ef->name, X.grid, X.block, X.cluster, ssize, S.nstore);
        X.san_mem = !!(ctx->checks & (PTXE_CHECK_RACECHECK | PTXE_CHECK_INITCHECK));
        const char *tg = strstr(m->ast->target, "sm_");
        X.sm_target = tg ? atoi(tg + 3) : 0;
        if (!X.san) { res = PTXE_ERROR_OUT_OF_MEMORY; goto out; }
    }
    heap_launch_begin(ctx);
    int rounding = fegetround();
    if (rounding != FE_TONEAREST) fesetround(FE_TONEAREST);
    sched_run(&X, ef);
    if (rounding != FE_TONEAREST) fesetround(rounding);
    ctx->stats.thread_insns = X.thread_insns;
    ctx->stats.schedule = pol->its ? PTXE_SCHEDULE_ITS : PTXE_SCHEDULE_LOCKSTEP;
    ctx->stats.resident_ctas = S.nstore;
    ctx->stats.sm_count = X.nsm;
    ctx->stats.nwarps = nctas * wpc;
    ctx->stats.per_warp = ctx->per_warp;
    res = X.fault;
    heap_launch_end(ctx, X.san, !X.fault);   /* leaks reported (memcheck), blocks released */
out:
    sched_end(&S);
    free(X.kparams);
    san_end(X.san);
    free(X.wops); free(X.polls);
    if (ws) mem_release(ctx, ws);
    return res;
}
