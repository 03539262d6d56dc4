/* hw/plan.c — deciding whether a parsed litmus test can run exactly on one GPU, and fixing the
 * layout the generated program uses: CTA and cluster placement (ISA §8.5), physical locations
 * and virtual mappings (§8.2, §8.2.2), access sizes, register widths, barrier participants
 * (§9.7.12.1) and the observed values (in the order `verify` prints them).
 * Everything the harness cannot express exactly is refused with
 * "file:line:col: found X, expected Y"; nothing is approximated. */
#include "hw/hw_int.h"
#include <stdlib.h>
#include <string.h>

#define NEW(p, n) ((p) = calloc((size_t)((n) > 0 ? (n) : 1), sizeof *(p)))

/* ---------- placement ---------- */

static int plan_placement(hw_plan *p, const lit_test *t, const hw_opts *o, char *err, size_t len)
{
    int line, col;
    int *cta_id = NULL, *clu_id = NULL;
    if (!NEW(p->role_cta, t->nth) || !NEW(p->role_rank, t->nth) || !NEW(cta_id, t->nth) ||
        !NEW(clu_id, t->nth) || !NEW(p->cta_cluster, t->nth) || !NEW(p->cta_pos, t->nth)) {
        free(cta_id), free(clu_id);
        return hw_refuse(err, len, t->file, 1, 1, "out of memory");
    }
    int rc = 0, per_clu[64] = { 0 };
    for (int i = 0; i < t->nth && !rc; i++) {
        const lit_thread *th = &t->th[i];
        hw_thread_pos(t, i, &line, &col);
        if (th->gpu != t->th[0].gpu)
            rc = hw_refuse(err, len, t->file, line, col,
                           "found thread %s on gpu %d and thread %s "
                           "on gpu %d, expected every thread on one GPU (the harness runs on one "
                           "device)",
                           th->name, th->gpu, t->th[0].name, t->th[0].gpu);
        int c = 0;
        while (c < p->nctas && cta_id[c] != th->cta) c++;
        if (c == p->nctas) {
            cta_id[c] = th->cta, clu_id[c] = th->cluster, p->nctas++;
        } else if (clu_id[c] != th->cluster && !rc)
            rc = hw_refuse(err, len, t->file, line, col,
                           "found CTA %d of thread %s in two "
                           "clusters, expected one cluster per CTA (§8.5)",
                           th->cta, th->name);
        p->role_cta[i] = c;
        for (int j = 0; j < i; j++) p->role_rank[i] += p->role_cta[j] == c;
        if (p->role_rank[i] + 1 > p->rmax) p->rmax = p->role_rank[i] + 1;
    }
    int *cid = calloc((size_t)p->nctas + 1, sizeof *cid);
    for (int c = 0; c < p->nctas && cid && !rc; c++) {
        int u = 0;
        while (u < p->nclusters && cid[u] != clu_id[c]) u++;
        if (u == p->nclusters) cid[p->nclusters++] = clu_id[c];
        if (u >= 64) {
            rc = hw_refuse(err, len, t->file, 1, 1, "found more than 64 clusters, expected fewer");
            break;
        }
        p->cta_cluster[c] = u;
        p->cta_pos[c] = per_clu[u]++;
        if (per_clu[u] > p->cdim) p->cdim = per_clu[u];
    }
    if (!cid) rc = hw_refuse(err, len, t->file, 1, 1, "out of memory");
    free(cta_id), free(clu_id), free(cid);
    if (rc) return rc;
    p->use_cluster_launch = p->cdim > 1;
    p->wpr = p->rmax >= 4 ? 1 : 4 / p->rmax;
    /* a cluster of at most 8 CTAs is portable (CUDA guide, thread block clusters) */
    if (p->cdim > 8)
        return hw_refuse(err, len, t->file, 1, 1,
                         "found a cluster of %d CTAs, expected at most 8 "
                         "(the portable cluster size)",
                         p->cdim);
    if (p->rmax > 24)
        return hw_refuse(err, len, t->file, 1, 1,
                         "found %d threads in one CTA, expected at most 24 "
                         "(one warp per litmus thread)",
                         p->rmax);
    if (t->uses_cluster && atoi(o->arch + 3) < 90)
        return hw_refuse(err, len, t->file, 1, 1,
                         "found clusters or the .cluster scope with "
                         "--arch %s, expected sm_90 or later (§8.5)",
                         o->arch);
    return 0;
}

/* ---------- memory ---------- */

static int plan_maps(hw_plan *p, const lit_test *t, char *err, size_t len)
{
    if (!NEW(p->sym_loc, t->nsym) || !NEW(p->sym_map, t->nsym) || !NEW(p->loc_sym, t->nsym) ||
        !NEW(p->loc_bytes, t->nsym) || !NEW(p->loc_init_sym, t->nsym) || !NEW(p->sym_tex, t->nsym))
        return hw_refuse(err, len, t->file, 1, 1, "out of memory");
    for (int s = 0; s < t->nsym; s++)
        if (t->sym[s].loc == s) {
            p->loc_sym[p->nlocs] = s;
            p->loc_init_sym[p->nlocs] = lit_addr_sym(t, t->sym[s].init);
            p->loc_bytes[p->nlocs++] = 0;
        }
    p->nmaps = 1;
    for (int s = 0; s < t->nsym; s++) {
        int l = 0;
        while (p->loc_sym[l] != t->sym[s].loc) l++;
        p->sym_loc[s] = l;
        /* the n-th distinct virtual address of a location lives in mapping n (§8.2.2) */
        int v = t->sym[s].vaddr, m = 0;
        for (int q = 0; q < v; q++) m += t->sym[q].loc == t->sym[s].loc && t->sym[q].vaddr == q;
        p->sym_map[s] = m;
        if (m + 1 > p->nmaps) p->nmaps = m + 1;
    }
    return 0;
}

/* Stored value of an instruction that names an address (the litmus `st x, y` form or a register
 * whose initial value is an address). */
static int stores_address(const lit_test *t, const lit_thread *th, const lit_insn *in)
{
    if (in->k != LI_ST && in->k != LI_ATOM && in->k != LI_RED) return 0;
    for (int k = 0; k < in->nsrc; k++) {
        if (in->src[k].k == OPD_SYM) return 1;
        if (in->src[k].k == OPD_REG && lit_addr_sym(t, th->reg_init[in->src[k].reg]) >= 0) return 1;
    }
    return 0;
}

/* Access size per physical location: every explicit type must agree (mixed-size accesses are
 * outside the model, §8.2.1, §8.7.2); untyped accesses use 32 bits, 64 for addresses. */
static int plan_sizes(hw_plan *p, const lit_test *t, char *err, size_t len)
{
    int *addr;
    if (!NEW(addr, p->nlocs)) return hw_refuse(err, len, t->file, 1, 1, "out of memory");
    for (int l = 0; l < p->nlocs; l++) addr[l] = p->loc_init_sym[l] >= 0;
    int rc = 0;
    for (int i = 0; i < t->nth && !rc; i++)
        for (int j = 0; j < t->th[i].nins && !rc; j++) {
            const lit_insn *in = &t->th[i].ins[j];
            int l = (in->k >= LI_LD && in->k <= LI_RED) ? hw_insn_loc(p, in) : -1;
            if (l < 0) continue;
            if (stores_address(t, &t->th[i], in)) addr[l] = 1;
            if (in->type == ISA_T_NONE) continue;
            int b = (int)isa_type_bits(in->type) / 8;
            if (p->loc_bytes[l] && p->loc_bytes[l] != b)
                rc = hw_refuse(err, len, t->file, in->line, in->col,
                               "found a %d-byte access to %s "
                               "after a %d-byte one, expected one access size per location "
                               "(§8.2.1 overlap)",
                               b, t->sym[p->loc_sym[l]].name, p->loc_bytes[l]);
            p->loc_bytes[l] = b;
        }
    for (int l = 0; l < p->nlocs && !rc; l++) {
        if (addr[l] && p->loc_bytes[l] && p->loc_bytes[l] != 8) {
            int line, col;
            hw_sym_pos(t, p->loc_sym[l], &line, &col);
            rc = hw_refuse(err, len, t->file, line, col,
                           "found the address-valued location %s "
                           "accessed with %d bytes, expected 64-bit accesses",
                           t->sym[p->loc_sym[l]].name, p->loc_bytes[l]);
        }
        if (!p->loc_bytes[l]) p->loc_bytes[l] = addr[l] ? 8 : 4;
    }
    free(addr);
    return rc;
}

/* ---------- instructions ---------- */

static int check_mem(hw_plan *p, const lit_test *t, const lit_insn *in, char *err, size_t len)
{
    const char *f = t->file;
    lit_proxy px = hw_eff_proxy(t, in);
    char why[400];
    if (in->addr.k == OPD_REG && (t->uses_proxies || p->nmaps > 1))
        for (int s = 0; s < t->nsym; s++)
            if (t->sym[s].proxy != PROXY_GENERIC)
                return hw_refuse(
                    err, len, f, in->line, in->col,
                    "found an access through a register "
                    "address in a test with proxy aliases, expected accesses that name "
                    "their location (the access method must be known when generating)");
    if (px == PROXY_SURFACE)
        return hw_refuse(err, len, f, in->line, in->col,
                         "found a surface access '%s', expected "
                         "generic or texture accesses: a CUDA surface is bound to a CUDA array, "
                         "whose memory has no generic address to alias (§8.6)",
                         in->text);
    if (px == PROXY_CONSTANT)
        return hw_refuse(err, len, f, in->line, in->col,
                         "found a constant-proxy access '%s', "
                         "expected generic or texture accesses: the constant bank is not "
                         "writable through the test's generic addresses (§8.6)",
                         in->text);
    if (px == PROXY_TEXTURE) {
        if (in->k != LI_LD || in->sem != SEM_WEAK || in->addr.k != OPD_SYM)
            return hw_refuse(err, len, f, in->line, in->col,
                             "found '%s' through the texture proxy, "
                             "expected only weak loads (textures are read-only, §9.7.10)",
                             in->text);
        if (p->loc_bytes[hw_insn_loc(p, in)] != 4)
            return hw_refuse(err, len, f, in->line, in->col,
                             "found a texture load of a %d-byte "
                             "location, expected 4 bytes (a 32-bit texel)",
                             p->loc_bytes[hw_insn_loc(p, in)]);
        p->sym_tex[in->addr.sym] = 1;
        p->uses_tex = 1;
    }
    if (in->vec_id)
        return hw_refuse(err, len, f, in->line, in->col,
                         "found the vector or packed access '%s', expected scalar accesses (the "
                         "checker splits it into elements, §8.2.4-5; the harness emits one access "
                         "per litmus instruction)", in->text);
    if (in->addr.off)
        return hw_refuse(err, len, f, in->line, in->col, "found an address offset, expected none");
    if (in->mbar || in->async_id) return 0;   /* typed by their cells (hw/plan_async.c) */
    if (hw_access_type(p, in, why, sizeof why) == ISA_T_NONE)
        return hw_refuse(err, len, f, in->line, in->col, "%s", why);
    if (in->k == LI_RED && (in->aop == ISA_ATOM_EXCH || in->aop == ISA_ATOM_CAS ||
                            in->sem == SEM_ACQUIRE || in->sem == SEM_ACQ_REL))
        return hw_refuse(err, len, f, in->line, in->col,
                         "found '%s', expected red with .relaxed or "
                         ".release and an operation other than exch and cas (§9.7.12.6)",
                         in->text);
    return 0;
}

/* A barrier operand known when generating (an immediate or a register the thread never
 * writes, hw_const_opnd); -1 with a refusal when it is computed at run time. */
static int bar_opnd(const lit_test *t, int th, const lit_insn *in, int k, int64_t *v, char *err,
                    size_t len)
{
    if (!hw_const_opnd(&t->th[th], &in->src[k], v)) return 0;
    return hw_refuse(err, len, t->file, in->line, in->col,
                     "found a barrier %s in a register computed at run time in '%s', expected "
                     "an immediate or a register holding a constant (the harness counts the "
                     "participants when generating)",
                     k ? "thread count" : "number", in->text);
}

static int check_bar(hw_plan *p, const lit_test *t, int th, const lit_insn *in, char *err,
                     size_t len)
{
    const char *f = t->file;
    const lit_thread *T = &t->th[th];
    int64_t id, other, cnt;
    for (int k = 0; k < in->nsrc; k++)
        if (bar_opnd(t, th, in, k, k ? &cnt : &id, err, len)) return -1;
    if (id < 0 || id > 15)
        return hw_refuse(err, len, f, in->line, in->col,
                         "found barrier %lld, expected 0..15 "
                         "(§9.7.12.1)",
                         (long long)id);
    if (id == 15 && p->nshared)
        return hw_refuse(err, len, f, in->line, in->col,
                         "found barrier 15 in a test with shared memory, expected 0..14 (the "
                         "harness starts each block with barrier 15 after setting its shared "
                         "memory)");
    if (in->guard >= 0)
        return hw_refuse(err, len, f, in->line, in->col,
                         "found a guarded barrier, expected every "
                         "barrier executed unconditionally (each warp of the harness runs one "
                         "litmus thread for 32 instances, all of which must arrive)");
    int b, j = (int)(in - T->ins);
    if (!hw_reached_once(T, j, &b))
        return hw_refuse(err, len, f, T->ins[b].line, T->ins[b].col,
                         "found a branch in thread %s around barrier %lld, expected every "
                         "path to reach the barrier once (every lane of the warp must arrive "
                         "once, §9.7.12.1)",
                         T->name, (long long)id);
    for (int q = 0; q < T->nins; q++)
        if (&T->ins[q] != in && T->ins[q].k == LI_BAR && T->ins[q].bar != BAR_CARRIVE &&
            T->ins[q].bar != BAR_CWAIT && T->ins[q].nsrc &&
            !hw_const_opnd(T, &T->ins[q].src[0], &other) && other == id)
            return hw_refuse(err, len, f, in->line, in->col,
                             "found barrier %lld twice in thread %s, "
                             "expected each barrier once per thread",
                             (long long)id, T->name);
    p->has_barrier = 1;
    p->bar_parts[p->role_cta[th] * 16 + (int)id]++;
    return 0;
}

/* Every barrier's participants are exactly the threads of the CTA that use it, and their number
 * is the count the test gives, or every thread of the CTA when it gives none. */
static int check_bar_counts(hw_plan *p, const lit_test *t, char *err, size_t len)
{
    for (int i = 0; i < t->nth; i++)
        for (int j = 0; j < t->th[i].nins; j++) {
            const lit_insn *in = &t->th[i].ins[j];
            if (in->k != LI_BAR || in->bar == BAR_CARRIVE || in->bar == BAR_CWAIT) continue;
            int64_t id = 0, cnt = 0;
            hw_const_opnd(&t->th[i], &in->src[0], &id);   /* checked by check_bar */
            if (in->nsrc > 1) hw_const_opnd(&t->th[i], &in->src[1], &cnt);
            int c = p->role_cta[i], parts = p->bar_parts[c * 16 + (int)id], all = 0;
            for (int q = 0; q < t->nth; q++) all += p->role_cta[q] == c;
            /* a count in PTX spelling is in threads, a litmus thread standing for a warp */
            long unit = in->bar_unit > 0 ? in->bar_unit : 1;
            /* Dat3M's bar.cta.sync|arrive without a quorum: the threads that use the id
               (docs/model.md); the emitted barrier counts them */
            long want = in->nsrc > 1        ? (long)cnt / unit
                        : in->bar_unit == 1 ? parts
                                            : all;
            if (in->bar == BAR_ARRIVE && in->nsrc < 2 && in->bar_unit != 1)
                return hw_refuse(err, len, t->file, in->line, in->col,
                                 "found bar.arrive without a "
                                 "thread count, expected one (§9.7.12.1)");
            /* a barrier that cannot complete for every thread that uses it (fewer or more users
               than whole phases): the run hangs where the model's executions do, and nothing is
               read; otherwise each phase must hold exactly the users, every instance alike */
            int never = want > 0 && parts % want != 0;
            if (want != parts && !never)
                return hw_refuse(
                    err, len, t->file, in->line, in->col,
                    "found barrier %lld for %ld "
                    "threads used by %d threads of the CTA, expected the count to equal "
                    "the threads that reach it",
                    (long long)id, want, parts);
            if (in->bar == BAR_RED && !never)
                return hw_refuse(err, len, t->file, in->line, in->col,
                                 "found '%s', expected bar.sync or bar.arrive: hardware runs do "
                                 "not emit a bar.red that completes (its result counts the "
                                 "threads of the harness's warps, every instance of the block, "
                                 "not of one instance's litmus threads)", in->text);
            int *w = &p->bar_want[c * 16 + (int)id];
            if (*w && *w != want)
                return hw_refuse(err, len, t->file, in->line, in->col,
                                 "found barrier %lld for %ld threads after a use for %d, "
                                 "expected one count per barrier of a CTA", (long long)id, want,
                                 *w);
            *w = (int)want;
        }
    return 0;
}

static int check_insn(hw_plan *p, const lit_test *t, int th, const lit_insn *in, char *err,
                      size_t len)
{
    switch (in->k) {
    case LI_LD:
    case LI_ST:
    case LI_ATOM:
    case LI_RED: return check_mem(p, t, in, err, len);
    case LI_FENCE:
        if ((in->fence == FENCE_ACQ_REL || in->fence == FENCE_SC) &&
            (in->sem == SEM_WEAK || in->sem == SEM_RELAXED))
            return hw_refuse(err, len, t->file, in->line, in->col,
                             "found '%s', expected a fence PTX has: fence.sc or fence.acq_rel (a "
                             "weak or relaxed "
                             "fence is Dat3M's, §9.7.12.4 has none)",
                             in->text);
        if (in->fence >= FENCE_PROXY_TEXTURE && in->fence != FENCE_PROXY_ASYNC &&
            in->fence != FENCE_PROXY_TENSORMAP)   /* texture, surface, constant, generic */
            return hw_refuse(
                err, len, t->file, in->line, in->col,
                "found '%s', expected a fence PTX "
                "has: fence.sc, fence.acq_rel, membar or fence.proxy.alias (PTX ISA 8.4 "
                "§9.7.12.4 has no texture, surface or constant proxy fence)",
                in->text);
        return 0;
    case LI_BAR:
        if (in->bar == BAR_CARRIVE || in->bar == BAR_CWAIT) return 0;   /* hw/plan_async.c */
        return check_bar(p, t, th, in, err, len);
    case LI_BRANCH:
    case LI_GOTO:
        if (in->target <= (int)(in - t->th[th].ins)) p->has_loop = 1;
        if (in->k == LI_BRANCH && in->guard >= 0)
            return hw_refuse(err, len, t->file, in->line, in->col,
                             "found a guarded compare-and-"
                             "branch, expected an unguarded one");
        return 0;
    default: return 0;
    }
}

/* A weak load or store between a backward branch and its target.  ptxas optimises weak
 * accesses as if no other thread wrote memory: on the H100 (docs/hw-results/2026-11-26b-h100)
 * Dat3M's XF-Barrier-weak ended P1's loop `ld.weak r2, f; bne r2, 1, LC11` with r2=1 in every
 * instance -- a value its exit branch rules out -- while the same test with relaxed loads
 * (XF-Barrier-rlx) ended with r2=0: ptxas had forwarded P1's own `st.weak f, 1` into the loop.
 * The PTX model (§8) lets such a load read another thread's store (a uniform-size data race
 * is defined, §8.7.2), so the harness compiles these tests with ptxas -O0 (hw/toolchain.c),
 * which keeps every access as the test writes it. */
static void weak_loops(hw_plan *p, const lit_test *t)
{
    for (int i = 0; i < t->nth; i++) {
        const lit_thread *T = &t->th[i];
        for (int k = 0; k < T->nins; k++) {
            const lit_insn *b = &T->ins[k];
            if ((b->k != LI_BRANCH && b->k != LI_GOTO) || b->target < 0 || b->target > k) continue;
            for (int q = b->target; q <= k; q++) {
                const lit_insn *in = &T->ins[q];
                if ((in->k == LI_LD || in->k == LI_ST) && in->sem == SEM_WEAK &&
                    !in->volatile_ && in->mbar == MB_NONE && !in->async_id)
                    p->weak_in_loop = 1;
            }
        }
    }
}

static int plan_insns(hw_plan *p, const lit_test *t, char *err, size_t len)
{
    if (!NEW(p->bar_parts, 16 * p->nctas) || !NEW(p->bar_want, 16 * p->nctas))
        return hw_refuse(err, len, t->file, 1, 1, "out of memory");
    for (int i = 0; i < t->nth; i++)
        for (int j = 0; j < t->th[i].nins; j++)
            if (check_insn(p, t, i, &t->th[i].ins[j], err, len)) return -1;
    weak_loops(p, t);
    return check_bar_counts(p, t, err, len);
}

void hw_plan_free(hw_plan *p)
{
    if (p->t) {
        for (int i = 0; i < p->t->nth; i++) {
            if (p->reg_w) free(p->reg_w[i]);
            if (p->reg_addr) free(p->reg_addr[i]);
        }
    }
    free(p->reg_w), free(p->reg_addr);
    free(p->role_cta), free(p->role_rank), free(p->cta_cluster), free(p->cta_pos);
    free(p->sym_loc), free(p->sym_map), free(p->loc_sym), free(p->loc_bytes), free(p->loc_init_sym);
    free(p->sym_tex), free(p->bar_parts), free(p->bar_want), free(p->obs);
    free(p->loc_cta), free(p->loc_shslot), free(p->loc_txscale), free(p->loc_inval);
    memset(p, 0, sizeof *p);
}

int hw_plan_regs(hw_plan *p, const lit_test *t, char *err, size_t len);
int hw_plan_obs(hw_plan *p, const lit_test *t, char *err, size_t len);

int hw_plan_build(const lit_test *t, const hw_opts *o, hw_plan *p, char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    p->t = t;
    if (!t->nth) {
        hw_refuse(err, errlen, t->file, 1, 1, "found no thread, expected at least one");
        return -1;
    }
    if (plan_placement(p, t, o, err, errlen) || plan_maps(p, t, err, errlen) ||
        plan_sizes(p, t, err, errlen) || hw_plan_async(p, t, err, errlen) ||
        plan_insns(p, t, err, errlen) || hw_plan_regs(p, t, err, errlen) ||
        hw_plan_obs(p, t, err, errlen) || hw_plan_async_obs(p, t, err, errlen)) {
        hw_plan_free(p);
        return -1;
    }
    return 0;
}
