/* hw/plan_async.c — the plan of shared memory (§5.1.4) and of the newer synchronization
 * instructions: mbarrier objects (§9.7.13.15), barrier.cluster (§9.7.13.3), cp.async
 * (§9.7.8.24.3), cp.async.bulk (§9.7.8.24.6), st.async (§9.7.8.12), red.async (§9.7.13.7).
 *
 * Every location some access names with a .shared state space lives in shared memory: one
 * 16-byte slot per instance, in the block that runs the CTA whose thread first accesses it
 * through .shared{::cta} (lit_sym.owner).  Threads of that CTA use its shared::cta address,
 * threads of another CTA of the same cluster its shared::cluster address (mapa to the owner's
 * rank); generic accesses get the generic address of either.  Instances stay one per lane:
 * every object is per instance, and the instructions are per thread (barrier.cluster, which
 * counts every live thread of the cluster, is executed once on every path, so each instance's
 * arrivals fall in the same phases; stress warps, which never arrive, are left out).
 *
 * A bulk copy moves a multiple of 16 bytes (§9.7.8.24.6: otherwise undefined): the copy of a
 * 4- or 8-byte litmus location moves its 16-byte slot (the rest is instance padding), and every
 * transaction count on its mbarrier is multiplied by the same factor (16 / size), which keeps the
 * tx-count arithmetic of §9.7.13.15.2 exact.  Refused, with the reason: a shared location no
 * thread accesses through .shared{::cta}, one in another cluster, an address register, a
 * .global access to shared memory, an mbarrier whose transactions cannot be scaled alike, a
 * barrier.cluster that a path skips or repeats, shared locations or mbarrier states in the
 * condition (the harness reads back global memory; a state's bits are the hardware's). */
#include "hw/hw_int.h"
#include <stdlib.h>
#include <string.h>

#define NEW(p, n) ((p) = calloc((size_t)((n) > 0 ? (n) : 1), sizeof *(p)))

static int is_mem(const lit_insn *in)
{
    return in->k == LI_LD || in->k == LI_ST || in->k == LI_ATOM || in->k == LI_RED;
}

static int plan_locs(hw_plan *p, const lit_test *t, char *err, size_t len)
{
    if (!NEW(p->loc_cta, p->nlocs) || !NEW(p->loc_shslot, p->nlocs) ||
        !NEW(p->loc_txscale, p->nlocs) || !NEW(p->loc_inval, p->nlocs))
        return hw_refuse(err, len, t->file, 1, 1, "out of memory");
    for (int l = 0; l < p->nlocs; l++) {
        const lit_sym *s = &t->sym[p->loc_sym[l]];
        p->loc_cta[l] = p->loc_shslot[l] = -1;
        if (!s->shared) continue;
        int line, col;
        hw_sym_pos(t, p->loc_sym[l], &line, &col);
        if (s->owner < 0)
            return hw_refuse(err, len, t->file, line, col,
                             "found the shared location %s accessed only through "
                             ".shared::cluster, expected a .shared{::cta} access by a thread of "
                             "the CTA whose shared memory holds it (§5.1.4)", s->name);
        if (p->loc_init_sym[l] >= 0)
            return hw_refuse(err, len, t->file, line, col,
                             "found the shared location %s holding an address, expected a "
                             "number (the harness's addresses are global)", s->name);
        p->loc_cta[l] = p->role_cta[s->owner];
        p->loc_shslot[l] = p->nshared++;
    }
    return 0;
}

/* One access to memory: where the location lives against the state space the access names and
 * the CTA of the thread. */
static int check_access(hw_plan *p, const lit_test *t, int th, const lit_insn *in, char *err,
                        size_t len)
{
    const char *f = t->file;
    int sh = in->space == SPACE_SHARED_CTA || in->space == SPACE_SHARED_CLUSTER;
    if (in->addr.k != OPD_SYM) {
        if (sh || in->mbar || in->async_id)
            return hw_refuse(err, len, f, in->line, in->col,
                             "found a register address in '%s', expected the location named "
                             "(the harness gives every instance its own shared objects)",
                             in->text);
        return 0;
    }
    int l = hw_insn_loc(p, in), o = p->loc_cta[l], c = p->role_cta[th];
    const char *name = t->sym[in->addr.sym].name;
    if (in->mbar && !p->loc_txscale[l]) p->loc_txscale[l] = 1;   /* an mbarrier object */
    if (o < 0) return 0;
    if (in->space == SPACE_GLOBAL || hw_eff_proxy(t, in) == PROXY_TEXTURE)
        return hw_refuse(err, len, f, in->line, in->col,
                         "found '%s' on %s, which lives in shared memory, expected a .shared "
                         "or generic access (§5.1.4)", in->text, name);
    if (c == o) return 0;
    if (p->cta_cluster[c] != p->cta_cluster[o])
        return hw_refuse(err, len, f, in->line, in->col,
                         "found '%s' by thread %s on %s in the shared memory of a CTA of "
                         "another cluster, expected the same cluster (§5.1.4: shared::cluster)",
                         in->text, t->th[th].name, name);
    if (in->space == SPACE_SHARED_CTA)
        return hw_refuse(err, len, f, in->line, in->col,
                         "found '%s' by thread %s on %s in another CTA's shared memory, "
                         "expected .shared::cluster (§5.1.4)", in->text, t->th[th].name, name);
    p->uses_remote = 1;
    return 0;
}

/* The factor of the transaction counts of every mbarrier that a bulk copy completes on. */
static int plan_tx(hw_plan *p, const lit_test *t, char *err, size_t len)
{
    for (int i = 0; i < t->nth; i++) {
        const lit_thread *T = &t->th[i];
        for (int j = 0; j < T->nins; j++) {
            const lit_insn *in = &T->ins[j];
            if (in->mbar != MB_COMPLETE_TX || !in->async_id || in->addr.k != OPD_SYM) continue;
            int bulk = 0, size = 4;
            for (int k = 0; k < T->nins; k++)
                if (T->ins[k].async_id == in->async_id && T->ins[k].proxy == PROXY_ASYNC)
                    bulk = 1, size = T->ins[k].size > 0 ? T->ins[k].size : 4;
            int f = bulk ? 16 / size : 1, l = hw_insn_loc(p, in);
            p->uses_bulk |= bulk;
            if (bulk && p->loc_txscale[l] > 1 && p->loc_txscale[l] != f)
                return hw_refuse(err, len, t->file, in->line, in->col,
                                 "found '%s', a bulk copy of %d bytes completing on %s beside "
                                 "one of %d, expected copies of one size per mbarrier (each "
                                 "moves 16 bytes, §9.7.8.24.6: the counts scale alike)",
                                 in->text, size, t->sym[in->addr.sym].name,
                                 16 / p->loc_txscale[l]);
            if (f > 1 || !p->loc_txscale[l]) p->loc_txscale[l] = f;
        }
    }
    /* a bulk copy's mbarrier: no st.async/red.async beside it, constant counts */
    for (int i = 0; i < t->nth; i++)
        for (int j = 0; j < t->th[i].nins; j++) {
            const lit_insn *in = &t->th[i].ins[j];
            if (!in->mbar || in->addr.k != OPD_SYM) continue;
            int l = hw_insn_loc(p, in), f = p->loc_txscale[l];
            if (f <= 1) continue;
            int bulk = 0;
            for (int k = 0; in->async_id && k < t->th[i].nins; k++)
                bulk |= t->th[i].ins[k].async_id == in->async_id &&
                        t->th[i].ins[k].proxy == PROXY_ASYNC;
            const lit_opnd *tx = in->mbar == MB_ARRIVE ? &in->src[1] : &in->src[0];
            if (in->mbar == MB_COMPLETE_TX && in->async_id && !bulk)
                return hw_refuse(err, len, t->file, in->line, in->col,
                                 "found '%s' completing transactions on %s beside a bulk copy, "
                                 "expected only bulk copies (their counts are scaled by %d)",
                                 in->text, t->sym[in->addr.sym].name, f);
            if ((in->mbar == MB_EXPECT_TX || in->mbar == MB_COMPLETE_TX ||
                 in->mbar == MB_ARRIVE) && !in->async_id && tx->k == OPD_REG)
                return hw_refuse(err, len, t->file, in->line, in->col,
                                 "found a register transaction count in '%s', expected a "
                                 "constant (the counts of %s are scaled by %d: a bulk copy "
                                 "moves 16 bytes)", in->text, t->sym[in->addr.sym].name, f);
        }
    return 0;
}

/* barrier.cluster: executed once on every path, unguarded (each instance's arrivals fall in
 * the same phases of the cluster barrier as every other instance's). */
static int check_cbar(hw_plan *p, const lit_test *t, int th, int j, char *err, size_t len)
{
    const lit_thread *T = &t->th[th];
    const lit_insn *in = &T->ins[j];
    int b;
    p->uses_cbar = 1;
    if (in->guard >= 0)
        return hw_refuse(err, len, t->file, in->line, in->col,
                         "found a guarded '%s', expected barrier.cluster executed by every "
                         "lane (each lane runs one instance)", in->text);
    if (!hw_reached_once(T, j, &b))
        return hw_refuse(err, len, t->file, T->ins[b].line, T->ins[b].col,
                         "found a branch around '%s' in thread %s, expected every path to "
                         "reach each barrier.cluster once (§9.7.13.3)", in->text, T->name);
    return 0;
}

/* st.async, red.async (§9.7.8.12, §9.7.12.7): "The shared memory addresses of destination
 * operand a and the mbarrier object mbar ... belong to the same CTA ... different to the CTA of
 * the executing thread but must be within the same cluster.  Otherwise, the behavior is
 * undefined."  A bulk copy completes on an mbarrier of its destination's CTA. */
static int check_async_targets(const hw_plan *p, const lit_test *t, int th, int j, char *err,
                               size_t len)
{
    const lit_thread *T = &t->th[th];
    const lit_insn *in = &T->ins[j], *mb = NULL, *dst = NULL;
    int bulk = 0;
    for (int q = j; q < T->nins && (q == j || hw_cell_cont(T, q)); q++) {
        const lit_insn *x = &T->ins[q];
        if (x->mbar == MB_COMPLETE_TX) mb = x;
        else if ((x->k == LI_ST || x->k == LI_RED) && x->addr.k == OPD_SYM) dst = x;
        bulk |= x->proxy == PROXY_ASYNC;
    }
    if (!mb || !dst || mb->addr.k != OPD_SYM) return 0;
    int od = p->loc_cta[hw_insn_loc(p, dst)], om = p->loc_cta[hw_insn_loc(p, mb)];
    if (od != om)
        return hw_refuse(err, len, t->file, in->line, in->col,
                         "found '%s' with its destination and its mbarrier in different CTAs, "
                         "expected one CTA (§9.7.8.12: otherwise undefined)", in->text);
    if (!bulk && od == p->role_cta[th])
        return hw_refuse(err, len, t->file, in->line, in->col,
                         "found '%s' storing into the executing thread's own CTA, expected "
                         "another CTA of the cluster (§9.7.8.12: otherwise undefined)",
                         in->text);
    return 0;
}

/* mbarrier.init: the harness invalidates every object before its CTA exits, because "an
 * mbarrier object must be invalidated to repurpose its memory for any purpose, including
 * repurposing it for another mbarrier object" (§9.7.13.15.3) -- the next CTA that the SM runs
 * in the same shared memory (another instance, launch or test program) initialises its own
 * object there.  mbarrier.inval of an object that is not initialised is undefined
 * (§9.7.13.15.10), so each object is initialised once, by a thread of its own CTA (the
 * .shared::cta window, §9.7.13.15.9), unguarded, on every path of that thread. */
static int check_init(hw_plan *p, const lit_test *t, int th, int j, char *err, size_t len)
{
    const lit_thread *T = &t->th[th];
    const lit_insn *in = &T->ins[j];
    int b, l = hw_insn_loc(p, in);
    const char *name = t->sym[in->addr.sym].name;
    if (p->loc_cta[l] != p->role_cta[th])
        return hw_refuse(err, len, t->file, in->line, in->col,
                         "found '%s' by thread %s of another CTA than %s's, expected the owner "
                         "CTA to initialise it (§9.7.13.15.9: the .shared::cta window)",
                         in->text, T->name, name);
    if (in->guard >= 0 || !hw_reached_once(T, j, &b))
        return hw_refuse(err, len, t->file, in->line, in->col,
                         "found '%s' %s, expected one initialisation every path reaches (the "
                         "harness invalidates %s before its CTA exits, §9.7.13.15.3; "
                         "mbarrier.inval of an object never initialised is undefined)",
                         in->text, in->guard >= 0 ? "guarded" : "behind a branch", name);
    if (p->loc_inval[l]++)
        return hw_refuse(err, len, t->file, in->line, in->col,
                         "found a second mbarrier.init of %s, expected one (§9.7.13.15.9: "
                         "initialising a valid object is undefined)", name);
    return 0;
}

/* An object that asynchronous operations complete on (cp.async.bulk, st.async, red.async,
 * cp.async.mbarrier.arrive): loc_inval 2, the harness first waits a bounded time for its phase
 * 0 to complete (the copies may still be in flight when the test's threads are done, and a
 * complete-tx on an invalidated object is undefined, §9.7.13.15.10). */
static void mark_async_inval(hw_plan *p, const lit_test *t)
{
    for (int i = 0; i < t->nth; i++)
        for (int j = 0; j < t->th[i].nins; j++) {
            const lit_insn *in = &t->th[i].ins[j];
            if (in->addr.k != OPD_SYM || !(in->async_id || in->mbar == MB_INC)) continue;
            int l = hw_insn_loc(p, in);
            if (p->loc_inval[l] && in->mbar != MB_NONE) p->loc_inval[l] = 2;
        }
}

int hw_plan_async(hw_plan *p, const lit_test *t, char *err, size_t len)
{
    if (plan_locs(p, t, err, len)) return -1;
    for (int i = 0; i < t->nth; i++)
        for (int j = 0; j < t->th[i].nins; j++) {
            const lit_insn *in = &t->th[i].ins[j];
            if (is_mem(in) && check_access(p, t, i, in, err, len)) return -1;
            if (in->mbar == MB_INIT && in->addr.k == OPD_SYM && !hw_cell_cont(&t->th[i], j) &&
                p->loc_cta[hw_insn_loc(p, in)] >= 0 && check_init(p, t, i, j, err, len))
                return -1;
            if (in->k == LI_BAR && (in->bar == BAR_CARRIVE || in->bar == BAR_CWAIT) &&
                check_cbar(p, t, i, j, err, len))
                return -1;
            if (in->async_id && !hw_cell_cont(&t->th[i], j) &&
                check_async_targets(p, t, i, j, err, len))
                return -1;
            if (hw_decoded_insn(in) && !hw_cell_cont(&t->th[i], j)) {
                char mn[160];
                if (hw_mnemonic(in, 0, mn, sizeof mn))
                    return hw_refuse(err, len, t->file, in->line, in->col,
                                     "found '%s', expected a mnemonic ptx/mnemonic.h decodes",
                                     in->text);
            }
        }
    mark_async_inval(p, t);
    return plan_tx(p, t, err, len);
}

/* The condition reads registers and global locations: not shared memory (not read back), not
 * the state an mbarrier.arrive returns (its bits are the hardware's encoding, §9.7.13.15.13). */
int hw_plan_async_obs(const hw_plan *p, const lit_test *t, char *err, size_t len)
{
    for (int k = 0; k < p->nobs; k++) {
        const hw_obs *o = &p->obs[k];
        if (o->k == OBS_LOC && p->loc_cta[o->loc] >= 0)
            return hw_refuse(err, len, t->file, 1, 1,
                             "found the shared location %s in the condition, expected "
                             "registers and global locations (shared memory is not read back)",
                             o->name);
        if (o->k == OBS_LOC && p->loc_txscale[o->loc])
            return hw_refuse(err, len, t->file, 1, 1,
                             "found the mbarrier object %s in the condition, expected "
                             "registers and other locations (its bits are the hardware's)",
                             o->name);
        if (o->k != OBS_REG) continue;
        const lit_thread *T = &t->th[o->thread];
        for (int j = 0; j < T->nins; j++)
            if (T->ins[j].mbar == MB_ARRIVE && T->ins[j].dst[0].k == OPD_REG &&
                T->ins[j].dst[0].reg == o->reg)
                return hw_refuse(err, len, t->file, T->ins[j].line, T->ins[j].col,
                                 "found the mbarrier state %s in the condition, expected "
                                 "other registers (the state's encoding is the hardware's, "
                                 "§9.7.13.15.13)", o->name);
    }
    return 0;
}
