/* exec/sched.c — the scheduler: which CTAs are resident, which warp runs next and for how long,
 * which group of a warp's lanes runs; the deadlock and step-limit reports.
 *
 * The policy, in one place (the two policies, `its` and `lockstep` at the end of this comment,
 * are the structs sched_its and sched_lockstep below; engine.h's sched_policy is the interface
 * through which the engine asks them, and through which another policy can replace them):
 *
 * Residency.  The CTAs of a launch are admitted a cluster at a time in grid order (x fastest;
 * a launch without clusters has clusters of one CTA), as many as are resident together: under
 * `its` the occupancy of one GPU of the module's architecture (exec/occupancy.c: SMs times the
 * CTAs an SM holds by registers, shared memory, warps and blocks); under `lockstep` one
 * cluster.  A cluster beyond residency is admitted when a resident one has exited, taking its
 * place (its SM: %smid is the resident place times the cluster size plus the rank, modulo the
 * SMs).  A cooperative launch is resident whole (launch.c refuses one that cannot be).  A
 * resident cluster's CTAs are set up when it first runs, in CTA storage that CTAs which have
 * exited free (a kernel whose CTAs finish in their first turn needs one CTA's storage).
 *
 * Warps.  Rounds: in each round every warp of every resident cluster runs once, in admission
 * order, CTA rank and warp order, for up to `quantum` warp-instructions (fewer when it blocks,
 * exits or reaches a yield point that ends its turn: nanosleep, a failed mbarrier wait).  So
 * every warp that can run runs every round: a CTA that waits for a later resident CTA, or a
 * warp for another warp, is not starved.  A round in which no warp executed an instruction is
 * a deadlock: every thread waits (at a barrier, a rendezvous, a cluster barrier) for threads
 * that cannot come; the report names the first waiting group and where every warp waits.
 *
 * Groups (warp.c's resched, with pick_group below).  A warp's lanes each have a PC and a call
 * depth; the group that runs is the runnable lanes at the deepest call and the smallest PC
 * (lanes waiting there for the rest of the warp join it; under `its` also lanes that yielded
 * there: they meet the others again), so lanes that branched apart meet
 * again at the first instruction they have in common: the reconvergence point of code laid out
 * in program order, and the point where warp-synchronous code (shfl/vote/match/redux.sync,
 * bar.warp.sync, mma/wmma .aligned, aligned barriers) finds the warp together.  Those
 * instructions also wait for their lanes wherever they are (a rendezvous), so they do not
 * depend on the reconvergence.
 *
 * Independent thread scheduling (`its`, CUDA guide "Independent Thread Scheduling", sm_70+).
 * Yield points: nanosleep, a failed mbarrier.test_wait / try_wait, a backward branch after an
 * atom or a strong load (volatile, relaxed, acquire) since the previous one (a polling loop: a
 * flag, a lock), and a backward branch that is the SPIN_LIMIT-th (1024) the warp has taken
 * while some of its runnable lanes waited without running (the count restarts once every lane
 * left waiting has run: a spin loop whose body diverges and meets again counts on).  A group
 * that reaches one while other lanes of its warp can run yields: its lanes run again only
 * after every other runnable lane of the warp has had its turn (they are left out of `ready`
 * until no other lane is ready).  So a lane spinning on a flag that another lane of its warp
 * sets later, an atomicCAS lock taken by several lanes of one warp, a __nanosleep wait all
 * finish, as on a Volta or later GPU (a polling loop hands over at each iteration, any other
 * spin after 1024).  A loop without atomics or strong loads that ends within 1024 iterations
 * while the rest of its warp waits ahead of it (a data-dependent loop, lanes leaving it one by
 * one) is not a yield point: the lanes meet again after it, where the GPU's convergence barrier
 * would reconverge them, and code that assumes so (__activemask() after an if/else) sees the
 * warp whole.  After a longer one, or a polling one, the lanes ahead run on; they meet the
 * others again at the next instruction they both reach, and the .sync instructions and aligned
 * barriers still wait for their lanes (a .sync.aligned matrix instruction waits for the warp
 * here, where under lockstep a partial warp is a fault).
 *
 * `lockstep`: the order of ptxlitmus before independent thread scheduling (and of GPUs before
 * sm_70): a group runs until it diverges, blocks or meets another group, whatever it executes
 * (a lane spinning on another lane of its warp livelocks); only a failed mbarrier wait lets the
 * warp's other groups run once; one cluster at a time, %nsmid 1.  It is the default for
 * modules whose .target is below sm_70, `its` from sm_70 and without a target (run --schedule,
 * the spec's `schedule:` and ptxeLaunchConfig.schedule choose either). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "exec/engine.h"
#include "exec/sanitize.h"

#define SPIN_LIMIT 1024   /* backward branches in a row that make a loop a wait loop */

/* ---------------------------------------------------------------- the policies */
/* the group at the deepest call and the smallest PC of `ready`: its lanes there, and under
 * `its` the runnable lanes there (lanes that yielded meet the others again) */
static uint32_t pick_lowest(const sched_policy *p, const warp *w, uint32_t ready,
                            uint32_t runnable)
{
    uint64_t best = ~0ull;
    for (uint32_t m = ready; m; m &= m - 1) {
        uint64_t k = lane_key(w, __builtin_ctz(m));
        if (k < best) best = k;
    }
    uint32_t g = 0;
    for (uint32_t m = ready | (p->its ? runnable : 0); m; m &= m - 1)
        if (lane_key(w, __builtin_ctz(m)) == best) g |= 1u << __builtin_ctz(m);
    return g;
}

/* round robin: the next warp of the round (admission order, CTA rank, warp), skipping warps
 * that exited; 0 at the end of the round */
static int pick_round_robin(const sched_policy *p, sched *S, cluster **cl, uint32_t *k)
{
    (void)p;
    for (; S->ci < S->nord; S->ci++, S->ck = 0) {
        cluster *c = &S->res[S->ord[S->ci]];
        uint32_t n = c->ncta * (uint32_t)S->wpc;
        for (; S->ck < n; S->ck++) {
            if (c->started && !c->ctas[S->ck / S->wpc]->warps[S->ck % S->wpc].live) continue;
            *cl = c; *k = S->ck++;
            return 1;
        }
    }
    return 0;
}

const sched_policy sched_its = { "its", 1, SPIN_LIMIT, 1, QUANTUM, pick_lowest, pick_round_robin,
                                  NULL };
const sched_policy sched_lockstep = { "lockstep", 0, 0, 0, QUANTUM, pick_lowest,
                                      pick_round_robin, NULL };

/* ---------------------------------------------------------------- residency */
/* cluster number seq of the grid becomes resident (its CTAs are set up when it first runs) */
static void admit(ex *X, sched *S)
{
    uint32_t i = 0;
    while (S->res[i].seq != UINT64_MAX) i++;   /* a free entry (nord < maxres) */
    cluster *c = &S->res[i];
    uint64_t seq = S->next++, n0 = X->grid[0] / X->cluster[0], n1 = X->grid[1] / X->cluster[1];
    memset(c, 0, sizeof *c);
    c->seq = seq;
    c->id[0] = (uint32_t)(seq % n0);
    c->id[1] = (uint32_t)(seq / n0 % n1);
    c->id[2] = (uint32_t)(seq / n0 / n1);
    c->ncta = X->cluster[0] * X->cluster[1] * X->cluster[2];
    c->live = c->ncta * X->block[0] * X->block[1] * X->block[2];
    S->ord[S->nord++] = i;
}

/* the resident cluster's first turn: each CTA in the lowest free storage, set up, started */
static int start_cluster(ex *X, sched *S, const xfunc *ef, cluster *cl)
{
    cl->started = 1;
    for (uint32_t k = 0; k < cl->ncta; k++) {
        uint32_t s = 0;
        while (S->busy[s]) s++;
        cta *c = &S->store[s];
        S->busy[s] = 1;
        if (setup_cta(X, c, ef, k)) {   /* (clears c: the rest comes after) */
            host_out_of_memory(X, NULL, -1, -1, "CTA state");
            return -1;
        }
        uint32_t in[3] = { k % X->cluster[0], k / X->cluster[0] % X->cluster[1],
                           k / X->cluster[0] / X->cluster[1] };
        for (int d = 0; d < 3; d++) {
            c->ctaid[d] = cl->id[d] * X->cluster[d] + in[d];
            c->cl_ctaid[d] = in[d];
        }
        c->clu = cl; c->slot = s;
        /* the SM: resident clusters take SMs in turn, a cluster's CTAs neighbouring ones */
        c->sm = (uint32_t)(((uint64_t)(cl - S->res) * cl->ncta + k) % X->nsm);
        cl->ctas[k] = c;
        if (X->san) san_cta_start(X->san, s, c->ctaid);
    }
    return 0;
}

/* per-warp statistics of a cluster that ran (launch statistics, ptxeLaunchStats) */
static void record(ex *X, sched *S, const cluster *cl)
{
    for (uint32_t i = 0; i < cl->ncta && cl->ctas[i]; i++) {
        const cta *c = cl->ctas[i];
        uint64_t lin =
            ((uint64_t)c->ctaid[2] * X->grid[1] + c->ctaid[1]) * X->grid[0] + c->ctaid[0];
        for (int j = 0; j < c->nwarps; j++) {
            X->ctx->per_warp[lin * S->wpc + (uint64_t)j] = c->warps[j].ninsn;
            X->ctx->stats.warp_insns += c->warps[j].ninsn;
        }
    }
}

/* every thread of the cluster at ord[i] exited: its storage is free, the next cluster of the
 * grid takes its place */
static void finish(ex *X, sched *S, uint32_t i)
{
    cluster *cl = &S->res[S->ord[i]];
    record(X, S, cl);
    for (uint32_t k = 0; k < cl->ncta; k++) S->busy[cl->ctas[k]->slot] = 0;
    cl->seq = UINT64_MAX;
    memmove(&S->ord[i], &S->ord[i + 1], (S->nord - i - 1) * sizeof *S->ord);
    S->nord--;
    if (S->ci > i) S->ci--;
    else if (S->ci == i) S->ck = 0;
    if (S->next < S->nclusters) admit(X, S);
}

static int cluster_done(const cluster *cl)
{
    for (uint32_t k = 0; k < cl->ncta; k++)
        if (cl->ctas[k]->nexited != cl->ctas[k]->nthreads) return 0;
    return 1;
}

/* ---------------------------------------------------------------- reports */
/* each started resident cluster's warps */
#define FOR_WARPS(S, w, c)                                                                   \
    for (uint32_t i_ = 0; i_ < (S)->nord; i_++)                                             \
        for (uint32_t r_ = 0; (S)->res[(S)->ord[i_]].started && r_ < (S)->res[(S)->ord[i_]].ncta; \
             r_++)                                                                           \
            for (cta *c = (S)->res[(S)->ord[i_]].ctas[r_]; c; c = NULL)                     \
                for (int j_ = 0; j_ < c->nwarps; j_++)                                      \
                    for (warp *w = &c->warps[j_]; w; w = NULL)

/* Where each warp of the started resident clusters is, one line per group of lanes at one
 * instruction (PTX line, CTA, warp, what it waits for), at most 64 lines; after a step or time
 * limit and a deadlock. */
static void where_report(ex *X)
{
    char *o = X->ctx->msg;
    size_t n = sizeof X->ctx->msg, k = strlen(o);
    int lines = 0, more = 0;
    FOR_WARPS(X->S, w, c) {
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
            /* lanes at a barrier or a cluster barrier wait after it: show the barrier */
            int bw = (g & (w->barw | w->clw)) && pc > 0;
            const xinsn *in = pc - bw >= 0 && pc - bw < X->m->nprog ? &X->prog[pc - bw] : NULL;
            int wait = (g & w->barw) ? 1 : (g & (w->wsync | w->clw)) ? 2 : 0;
            k += (size_t)snprintf(o + k, n - k,
                                  "  CTA (%u,%u,%u) warp %d lanes 0x%08x%s: %s:%d: %s\n",
                                  c->ctaid[0], c->ctaid[1], c->ctaid[2], w->wid, g,
                                  wait == 1   ? " (waiting at a barrier)"
                                  : wait == 2 ? " (waiting)"
                                              : "",
                                  X->m->ast->filename, in ? in->line : 0, in ? in->text : "?");
        }
    }
    if (more && k + 80 < n) snprintf(o + k, n - k, "  ... and %d more groups of lanes\n", more);
}

/* no warp can run: the first warp waiting at an incomplete rendezvous, a cluster barrier or a
 * CTA barrier (or a wgmma of its warpgroup) is reported */
static void deadlock_report(ex *X)
{
    sched *S = X->S;
    FOR_WARPS(S, w, c)
        if (w->wrdv) { wsync_deadlock(X, w); return; }
    FOR_WARPS(S, w, c) {
        if (!w->clw) continue;
        int l = __builtin_ctz(w->clw);
        fault(X, w, l, w->lpc[l] - 1, PTXE_ERROR_LAUNCH_FAILED,
              "cluster barrier deadlock: %u of %u threads of the cluster arrived and no other "
              "thread can run",
              c->clu->arrived, c->clu->live);
        return;
    }
    FOR_WARPS(S, w, c) {
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
            if (c->bar[b].wmask[w->wid]) {
                arrived = c->bar[b].arrived;
                need = c->bar[b].count_given ? c->bar[b].expected : c->nthreads - c->nexited;
            }
        fault(X, w, l, pc, PTXE_ERROR_LAUNCH_FAILED,
              "barrier deadlock: %u of %u threads arrived and no other thread can run", arrived,
              need);
        return;
    }
    fault(X, NULL, -1, -1, PTXE_ERROR_LAUNCH_FAILED, "deadlock: no thread can make progress");
}

/* ---------------------------------------------------------------- the run */
/* Set up the scheduler of a launch: `maxres` clusters resident at most, CTA storage for them. */
int sched_begin(ex *X, sched *S, const sched_policy *pol, uint32_t maxres)
{
    uint32_t ncl = X->cluster[0] * X->cluster[1] * X->cluster[2];
    uint64_t nt = (uint64_t)X->block[0] * X->block[1] * X->block[2];
    memset(S, 0, sizeof *S);
    S->pol = pol;
    S->wpc = (nt + 31) / 32;
    S->nclusters = (uint64_t)(X->grid[0] / X->cluster[0]) * (X->grid[1] / X->cluster[1]) *
                   (X->grid[2] / X->cluster[2]);
    S->maxres = maxres < S->nclusters ? maxres : (uint32_t)S->nclusters;
    if (!S->maxres) S->maxres = 1;
    S->nstore = S->maxres * ncl;
    S->res = calloc(S->maxres, sizeof *S->res);
    S->ord = calloc(S->maxres, sizeof *S->ord);
    S->store = calloc(S->nstore, sizeof *S->store);
    S->busy = calloc(S->nstore, 1);
    if (!S->res || !S->ord || !S->store || !S->busy ||
        host_charge(X, (uint64_t)S->maxres * (sizeof *S->res + 4) +
                           (uint64_t)S->nstore * (sizeof *S->store + 1)))
        return -1;
    X->S = S;
    for (uint32_t i = 0; i < S->maxres; i++) S->res[i].seq = UINT64_MAX;
    while (S->nord < S->maxres && S->next < S->nclusters) admit(X, S);
    return 0;
}

void sched_end(sched *S)
{
    for (uint32_t i = 0; S->store && i < S->nstore; i++) free_cta(&S->store[i]);
    free(S->res); free(S->ord); free(S->store); free(S->busy);
    memset(S, 0, sizeof *S);
}

/* Runs the launch: rounds of warps until every thread exited, a fault, or a deadlock. */
void sched_run(ex *X, const xfunc *ef)
{
    sched *S = X->S;
    const sched_policy *pol = S->pol;
    int progress = 0, stuck = 0;
    while (!X->fault) {
        cluster *cl;
        uint32_t k;
        if (!pol->pick_warp(pol, S, &cl, &k)) {   /* the round is over */
            if (!S->nord) break;                   /* every cluster exited */
            if (!progress) { deadlock_report(X); stuck = 1; break; }
            progress = 0; S->ci = 0; S->ck = 0;
            continue;
        }
        if (!cl->started && start_cluster(X, S, ef, cl)) break;
        warp *w = &cl->ctas[k / S->wpc]->warps[k % S->wpc];
        uint64_t before = w->ninsn;
        run_warp(X, w, pol->quantum);
        if (w->ninsn != before) progress = 1;
        /* (the warp's last lane may exit with its last turn's budget: W_RAN, not W_DONE) */
        if (!w->live && cluster_done(cl)) {
            uint32_t i = 0;
            while (&S->res[S->ord[i]] != cl) i++;
            finish(X, S, i);
        }
    }
    if (X->fault == PTXE_ERROR_LAUNCH_TIMEOUT || stuck) {
        size_t n = strlen(ctx_msg(X));
        snprintf(ctx_msg(X) + n, sizeof X->ctx->msg - n,
                 stuck ? "  where the threads wait:\n" : "  where the warps were:\n");
        where_report(X);
    }
    for (uint32_t i = 0; i < S->nord; i++)   /* clusters stopped by a fault */
        if (S->res[S->ord[i]].started) record(X, S, &S->res[S->ord[i]]);
}
