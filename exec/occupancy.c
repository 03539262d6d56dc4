/* exec/occupancy.c — how many CTAs of a kernel one GPU of the module's architecture holds at once:
 * the per-SM limits of the CUDA C++ Programming Guide's table "Technical Specifications per
 * Compute Capability" (resident CTAs, warps, 32-bit registers, shared memory per SM), the SM
 * count of a reference GPU of each architecture (or run --sm-count), and the registers a thread
 * uses: .maxnreg when the kernel gives it, else an estimate of what ptxas would allocate (the
 * most 32-bit registers live at one instruction, from a liveness analysis of the decoded PTX,
 * plus 4: within 8 of ptxas 13 on the kernel corpus), bounded by .minnctapersm.  The scheduler
 * keeps that many CTAs resident (exec/sched.c); a cooperative launch must fit (launch.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "exec/engine.h"
#include "exec/wmma.h"

/* cc: compute capability x 10; ctas, warps: resident per SM; smem: shared memory per SM and
 * the most one CTA may have (KiB); gpu, sms: the reference GPU whose SM count is the default */
typedef struct {
    int cc, ctas, warps, smem_sm, smem_cta;
    const char *gpu;
    unsigned sms;
} arch_row;
static const arch_row archs[] = {
    { 50, 32, 64, 64, 48, "GeForce GTX 750 Ti", 5 },
    { 52, 32, 64, 96, 48, "GeForce GTX 980", 16 },
    { 53, 32, 64, 64, 48, "Jetson TX1", 2 },
    { 60, 32, 64, 64, 48, "Tesla P100", 56 },
    { 61, 32, 64, 96, 48, "GeForce GTX 1080", 20 },
    { 62, 32, 64, 64, 48, "Jetson TX2", 2 },
    { 70, 32, 64, 96, 96, "Tesla V100", 80 },
    { 72, 32, 64, 96, 96, "Jetson AGX Xavier", 8 },
    { 75, 16, 32, 64, 64, "Tesla T4", 40 },
    { 80, 32, 64, 164, 163, "A100", 108 },
    { 86, 16, 48, 100, 99, "A10", 72 },
    { 87, 16, 48, 164, 163, "Jetson AGX Orin", 16 },
    { 89, 24, 48, 100, 99, "L4", 58 },
    { 90, 32, 64, 228, 227, "H100 SXM", 132 },
    { 100, 32, 64, 228, 227, "B200", 148 },
    { 120, 32, 48, 128, 99, "GeForce RTX 5090", 170 },
};
#define REGS_PER_SM 65536u      /* 32-bit registers per SM, every row */
#define REG_UNIT 256u           /* registers are allocated per warp in units of 256 */
#define SMEM_UNIT 128u          /* shared memory per CTA in units of 128 bytes */

/* the row of sm_NN: the exact one, else the nearest below (unknown: sm_80) */
static const arch_row *arch_of(int sm)
{
    const arch_row *r = NULL;
    for (size_t i = 0; i < sizeof archs / sizeof archs[0]; i++)
        if (archs[i].cc <= sm) r = &archs[i];
    return sm && r ? r : &archs[9];
}

/* ---------------------------------------------------------------- registers */
static unsigned units_of(const xopnd *o)   /* 32-bit registers a register operand takes */
{
    return o->rbits <= 1 ? 0 : o->rbits <= 32 ? 1 : o->rbits <= 64 ? 2 : 4;
}

typedef struct {
    int nr, W;            /* registers of the function, 64-bit words per set */
    uint64_t *use, *def;  /* per instruction: the registers it reads, writes */
    uint8_t *units;
} lv;

static void mark(lv *v, uint64_t *set, const xopnd *o)
{
    if (o->kind != XO_REG || (int)o->reg >= v->nr) return;
    set[o->reg / 64] |= 1ull << (o->reg % 64);
    unsigned u = units_of(o);
    if (u > v->units[o->reg]) v->units[o->reg] = (uint8_t)u;
}

/* the registers instruction `in` reads and (unless it is guarded) writes: every register the
 * engine may read, so that the live-in set of a kernel is all it can read before writing */
static void uses_defs(lv *v, const xinsn *in, uint64_t *use, uint64_t *def)
{
    if (in->has_guard && (int)in->guard < v->nr) use[in->guard / 64] |= 1ull << (in->guard % 64);
    uint64_t *kill = in->has_guard ? NULL : def;   /* a guarded write may not happen */
    for (int k = 0; k < in->nd && k < XMAX_OPS && kill; k++) mark(v, kill, &in->d[k]);
    for (int k = 0; k < XMAX_OPS; k++) mark(v, use, &in->s[k]);
    if (in->kind == PTX_K_MMA && in->mm && in->mm->sp && in->nd < XMAX_OPS)
        mark(v, use, &in->d[in->nd]);   /* mma.sp metadata */
    if (in->kind == PTX_K_MMA && in->mm && in->mm->kind >= MM_WMMA_LOAD) {
        const xwmma *xw = (const xwmma *)in->mm;
        for (int k = 0; k < xw->ns; k++) mark(v, use, &xw->s[k]);
    }
    for (int k = 0; k < in->nvops; k++) mark(v, use, &in->vops[k]);   /* wgmma: in and out */
    if (in->kind == PTX_K_CALL) {
        for (int i = 0; i < in->ncargs && in->carg_x; i++) mark(v, use, &in->carg_x[i]);
        for (int i = 0; i < in->ncrets && in->cret_x && kill; i++) mark(v, kill, &in->cret_x[i]);
    }
}

static unsigned weight(const lv *v, const uint64_t *set)
{
    unsigned n = 0;
    for (int w = 0; w < v->W; w++)
        for (uint64_t b = set[w]; b; b &= b - 1) n += v->units[w * 64 + __builtin_ctzll(b)];
    return n;
}

/* the registers live after instruction i (its successors' live-in sets) into out */
static void live_out(const lv *v, const ptxeModule *m, const xfunc *f, const uint64_t *in, int i,
                     uint64_t *out)
{
    int n = f->end - f->start;
    const xinsn *x = &m->prog[f->start + i];
    int k = x->kind, falls = !(k == PTX_K_RET || k == PTX_K_EXIT || k == PTX_K_TRAP ||
                               k == PTX_K_BRA || k == PTX_K_BRX) || x->has_guard;
    int succ[2 + 64], ns = 0;
    if (falls && i + 1 < n) succ[ns++] = i + 1;
    if (k == PTX_K_BRA) succ[ns++] = x->target - f->start;
    for (int t = 0; k == PTX_K_BRX && t < x->ntargets && ns < 66; t++)
        succ[ns++] = x->targets[t] - f->start;
    memset(out, 0, (size_t)v->W * 8);
    for (int s = 0; s < ns; s++)
        if (succ[s] >= 0 && succ[s] < n)
            for (int w = 0; w < v->W; w++) out[w] |= in[(size_t)succ[s] * v->W + w];
}

/* The most 32-bit registers live at one instruction of function f (backward liveness over its
 * control flow, to a fixpoint); 0 when f is too large to analyse (2^22 words of sets).  With
 * live_in, also the registers live at f's entry (read before written on some path), malloc'd
 * into *live_in, their count returned in *nlive (-1 when not analysed). */
static unsigned live_max(const ptxeModule *m, const xfunc *f, int32_t **live_in, int *nlive)
{
    if (live_in) { *live_in = NULL; *nlive = -1; }
    int n = f->end - f->start;
    lv v = { f->nregs, (f->nregs + 63) / 64, NULL, NULL, NULL };
    if (n <= 0 || v.nr <= 0) return 0;
    if ((uint64_t)n * (uint64_t)v.W > (1u << 22)) return 0;
    size_t sz = (size_t)n * (size_t)v.W;
    uint64_t *in = calloc(sz, 8), *out = calloc((size_t)v.W, 8);
    v.use = calloc(sz, 8); v.def = calloc(sz, 8); v.units = calloc((size_t)v.nr, 1);
    unsigned best = 0;
    if (!in || !out || !v.use || !v.def || !v.units) goto done;
    for (int i = 0; i < n; i++)
        uses_defs(&v, &m->prog[f->start + i], v.use + (size_t)i * v.W, v.def + (size_t)i * v.W);
    for (int changed = 1; changed;) {
        changed = 0;
        for (int i = n - 1; i >= 0; i--) {
            live_out(&v, m, f, in, i, out);
            uint64_t *li = in + (size_t)i * v.W;
            const uint64_t *u = v.use + (size_t)i * v.W, *d = v.def + (size_t)i * v.W;
            for (int w = 0; w < v.W; w++) {
                uint64_t nv = u[w] | (out[w] & ~d[w]);
                if (nv != li[w]) { li[w] = nv; changed = 1; }
            }
        }
    }
    for (int i = 0; i < n; i++) {   /* the pressure at i: live in, and live out with its results */
        live_out(&v, m, f, in, i, out);
        const uint64_t *d = v.def + (size_t)i * v.W;
        for (int w = 0; w < v.W; w++) out[w] |= d[w];
        unsigned a = weight(&v, out), b = weight(&v, in + (size_t)i * v.W);
        if (a > best) best = a;
        if (b > best) best = b;
    }
    if (live_in && (*live_in = malloc(((size_t)v.nr + 1) * sizeof **live_in))) {
        *nlive = 0;
        for (int w = 0; w < v.W; w++)
            for (uint64_t b = in[w]; b; b &= b - 1)
                (*live_in)[(*nlive)++] = w * 64 + __builtin_ctzll(b);
    }
done:
    free(in); free(out); free(v.use); free(v.def); free(v.units);
    return best;
}

/* Registers per thread of kernel ef, as ptxas would give it (8 to 255): .maxnreg, else the
 * estimate of live_max over the kernel and the functions it calls, plus 4 (measured against
 * ptxas 13 on tests/kernels: ptxas schedules for latency and keeps more live, mean -3 off);
 * bounded so that .minnctapersm CTAs of `threads` fit. */
static unsigned kernel_regs(ptxeModule *m, xfunc *ef, unsigned threads)
{
    if (!ef->regs_est) {
        unsigned best = live_max(m, ef, &ef->live_in, &ef->nlive_in);
        int indirect = 0;
        uint8_t *seen = calloc((size_t)m->nfuncs, 1);
        int *stack = calloc((size_t)m->nfuncs + 1, sizeof *stack), sp = 0;
        if (seen && stack) {   /* the functions reachable by direct calls */
            seen[ef - m->funcs] = 1; stack[sp++] = (int)(ef - m->funcs);
            while (sp) {
                const xfunc *f = &m->funcs[stack[--sp]];
                for (int pc = f->start; pc < f->end; pc++) {
                    const xinsn *x = &m->prog[pc];
                    if (x->kind != PTX_K_CALL) continue;
                    if (x->target < 0) { indirect = 1; continue; }
                    if (x->target < m->nfuncs && !seen[x->target]) {
                        seen[x->target] = 1; stack[sp++] = x->target;
                    }
                }
            }
            for (int i = 0; i < m->nfuncs; i++)
                if ((seen[i] || (indirect && !m->funcs[i].is_entry)) && &m->funcs[i] != ef &&
                    m->funcs[i].has_body) {
                    unsigned r = live_max(m, &m->funcs[i], NULL, NULL);
                    if (r > best) best = r;
                }
        }
        free(seen); free(stack);
        ef->regs_est = best + 4 > 255 ? 255 : best + 4;
    }
    unsigned regs = ef->regs_est;
    if (ef->maxnreg > 0 && (unsigned)ef->maxnreg < regs) regs = (unsigned)ef->maxnreg;
    if (ef->minnctapersm > 0 && threads) {
        unsigned wpc = (threads + 31) / 32, cap = REGS_PER_SM / ((unsigned)ef->minnctapersm * wpc)
                                                  / 32 / 8 * 8;
        if (cap >= 16 && cap < regs) regs = cap;
    }
    return regs < 8 ? 8 : regs;
}

/* The registers of kernel ef live at its entry (exec/cta.c zeroes only those when a CTA reuses
 * another's registers: the others are written before they are read): their count, -1 when the
 * kernel was too large to analyse (then every register is zeroed). */
int exec_entry_live_in(ptxeModule *m, xfunc *ef, const int32_t **regs)
{
    kernel_regs(m, ef, 0);
    *regs = ef->live_in;
    return ef->nlive_in;
}

/* ---------------------------------------------------------------- occupancy */
int exec_occupancy(ptxeModule *m, xfunc *ef, unsigned threads, unsigned shared_bytes,
                   unsigned sm_count, exec_occ *o)
{
    const char *tg = strstr(m->ast->target, "sm_");
    const arch_row *a = arch_of(tg ? atoi(tg + 3) : 0);
    memset(o, 0, sizeof *o);
    o->cc = a->cc; o->gpu = a->gpu;
    o->nsm = sm_count ? sm_count : a->sms;
    o->regs = kernel_regs(m, ef, threads);
    unsigned wpc = (threads + 31) / 32;
    unsigned regs_warp = (o->regs * 32 + REG_UNIT - 1) / REG_UNIT * REG_UNIT;
    uint64_t smem = shared_bytes ? shared_bytes + (a->cc >= 80 ? 1024u : 0u) : 0;
    smem = (smem + SMEM_UNIT - 1) / SMEM_UNIT * SMEM_UNIT;
    o->smem = smem;
    struct { unsigned n; const char *why; } lim[] = {
        { (unsigned)a->ctas, "CTAs per SM" },
        { wpc ? (unsigned)a->warps / wpc : 0, "warps per SM" },
        { wpc ? REGS_PER_SM / regs_warp / wpc : 0, "registers" },
        { smem ? (unsigned)((uint64_t)a->smem_sm * 1024 / smem) : ~0u, "shared memory" },
    };
    o->per_sm = ~0u;
    for (size_t i = 0; i < sizeof lim / sizeof lim[0]; i++)
        if (lim[i].n < o->per_sm) { o->per_sm = lim[i].n; o->limit = lim[i].why; }
    return (int)o->per_sm;
}
