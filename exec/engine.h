/* exec/engine.h — the SIMT engine's state and the functions its files share (internal; the public
 * interface is include/ptxexec.h).  A launch (ex) runs CTAs of warps; a warp executes one
 * pre-decoded instruction (exec_int.h's xinsn) for all lanes of its running group at once.
 * The files, lower first (each calls only files above it in this list):
 *   fault.c    who ran what, the fault report, the launch's host memory
 *   thread.c   call frames, local memory, special registers
 *   access.c   a thread's memory access: state spaces, generic addresses, bounds, alignment
 *   warp.c     the groups of a warp: which lanes run together, divergence, reconvergence
 *   barrier.c  bar/barrier, barrier.cluster, thread exit       mbarrier.c  mbarrier objects
 *   wsync.c    shfl/vote/match/redux/elect.sync, bar.warp.sync  control.c   bra, call, ret, exit
 *   ldst.c     ld, st, atom, cvta, fences, textures             async.c     cp.async, bulk, TMA
 *   printf.c   vprintf, malloc, free (heap.c)                   matrix.c    mma, wmma, wgmma
 *   step.c     one warp runs: guard, count, dispatch to the handler of the instruction's kind
 *   cta.c      CTA state               sched.c  the scheduler      launch.c  exec_launch */
#ifndef PTX_EXEC_ENGINE_H
#define PTX_EXEC_ENGINE_H
#include <stdint.h>
#include <string.h>
#include "exec/exec_int.h"
#include "exec/sanitize.h"
#include "ptx/mnemonic.h"

#define MAXD 1024u              /* call depth limit */
#define QUANTUM 2000            /* warp-instructions before switching warps */
#define LOCAL_MAX (1u << 20)    /* per-thread local memory (stack) limit */
#define CLOCK_EVERY 65536u      /* warp-instructions between two looks at the clock */
#define MAX_ENVREG 32           /* %envreg0..31 (§10.31) */

typedef struct frame {
    uint64_t *regs;             /* [nregs][32] */
    uint8_t *params;            /* [32][psize] */
    int32_t ret_pc[32], call_pc[32];
    uint64_t lbase[32], saved_sp[32];
} frame;

struct cta;
struct ex;
typedef struct sched_policy sched_policy;
typedef struct warp {
    struct cta *cta;
    const sched_policy *pol;   /* the launch's scheduling policy (exec/sched.c) */
    int wid;
    uint32_t all, live, barw, wsync, active, others;
    uint32_t clarr, clok,
        clw; /* barrier.cluster: arrived this phase, phase completed since arrive, waiting */
    /* warp-synchronous rendezvous (shfl/vote/match/redux.sync, elect.sync, bar.warp.sync):
     * wrdv (a subset of wsync) are lanes waiting at such an instruction (at lpc, not executed)
     * for the other non-exited lanes of their membermask wmem[l]; wsig[l] is the instruction's
     * kind and qualifiers.  rdv: the group is a completed rendezvous, its lanes at their own PCs */
    uint32_t wrdv;
    uint32_t sc_away;   /* synccheck: lanes an aligned barrier waits for (not on their way out) */
    uint32_t spin;      /* lanes whose mbarrier wait just failed: the next resched runs another
                           group of the warp first when it has one (the lane that would complete
                           the phase may be in it: forward progress, as on a GPU since sm_70) */
    uint32_t yld;       /* independent thread scheduling: lanes that yielded; the warp's other
                           runnable lanes run before them (exec/sched.c) */
    uint32_t spins;     /* backward branches taken since the lanes of `unran` were left waiting */
    uint32_t unran;     /* runnable lanes that have not run since the count of spins started */
    uint32_t hold;      /* lanes the launch's hooks hold (a model checker's await, exec_hooks):
                           not runnable until the launch ends */
    uint32_t wsgen;     /* warp-synchronous instructions executed (exec_hooks) */
    int polled;         /* a strong load or an atomic since the last backward branch */
    int pc, depth, forced, dirty, rdv;
    int wgpc;           /* wgmma.mma_async: parked (all lanes in barw) at pc wgpc - 1 */
    uint64_t others_key;
    int32_t lpc[32]; uint16_t ldep[32];
    uint32_t wmem[32], wsig[32];
    frame *fr; int nfr;
    uint8_t *lmem[32]; uint32_t lcap[32]; uint64_t lsp[32];
    uint32_t cc[32];
    uint16_t tid[32][3];
    uint64_t ninsn;
} warp;

typedef struct {
    uint32_t arrived, expected, count_given, red, mode, used;
    uint32_t gen;       /* phases completed (the instance of an arrival, for exec_hooks) */
    uint32_t *wmask;
    int fpc, fwid, flane;   /* synccheck: first arrival of this phase (pc -1: none checked) */
} barrier;

/* A cluster of the grid resident on the GPU (a launch without clusters has clusters of one CTA):
 * its CTAs by %cluster_ctarank once it first runs, and the barrier.cluster state. */
typedef struct cluster {
    uint32_t id[3];             /* %clusterid */
    uint64_t seq;               /* linear index in the grid (x fastest) */
    uint32_t ncta;              /* CTAs in the cluster */
    struct cta *ctas[16];       /* by rank; NULL until the cluster first runs */
    uint32_t live, arrived;     /* barrier.cluster: non-exited threads, arrivals this phase */
    uint32_t gen;               /* barrier.cluster: phases completed (for exec_hooks) */
    int started, done;
} cluster;

typedef struct cta {
    uint32_t ctaid[3], cl_ctaid[3], rank;
    cluster *clu;               /* its cluster */
    uint32_t slot;              /* the CTA storage it runs in (reused by later CTAs): the checks'
                                   index of its shared memory */
    uint32_t sm;                /* %smid */
    uint8_t *smem; uint32_t ssize;
    warp *warps; int nwarps;
    uint32_t nthreads, nexited;
    barrier bar[16];
} cta;

/* The operand arrays of a warp-wide register computation (xinsn.wfn) for one register file:
 * built when the instruction runs on another warp's (or frame's) registers than last time. */
typedef struct {
    uint64_t *regs;
    const uint64_t *S[ISA_WARP_NSRC];
    uint64_t *D[ISA_WARP_NDST];
} wops;

/* Calls out to a model checker (kcheck/: `ptxlitmus check`, issue #26): the events the memory
 * model sees, as the instructions run, lane by lane.  A launch has them when its policy does
 * (sched_policy.hooks); `run` has none, and each memory instruction then pays one test.
 *   access    a load, a store, or the read (EH_RMW_R) and the write (EH_RMW_W, after the read,
 *             only when the operation writes: not a compare-and-swap that fails) of an atom or
 *             red, of `size` bytes at location `loc` (global: the address; shared memory:
 *             EXEC_LOC_SHARED | linear CTA id << 32 | offset).  *v holds the value read from
 *             memory (loads, EH_RMW_R: the hook may replace it, the thread then gets that
 *             value) or the value written.  Local, const and param memory are no events.
 *   fence     fence, membar (the instruction at pc says which)
 *   barrier   bar/barrier arrivals (id 0..15, gen: the barrier's completed phases so far),
 *             barrier.cluster (id -1 arrive, -2 wait; gen: the cluster's phases) and the
 *             lanes of a warp-synchronous instruction (shfl, vote, ...: id -3; gen: the warp's
 *             count of them), which exchange registers
 *   backedge  a lane takes a backward branch to `target`: 1 holds the lane there (it runs no
 *             more in this launch: the checker's "await"), 0 lets it go on
 *   fault     the launch stops with a fault (a trap, __assertfail, a bad access, a deadlock)
 *   unseen    an instruction runs whose memory accesses none of these report
 * A hook returns 0, or -1 after stopping the launch (fault()). */
#define EXEC_LOC_SHARED (1ull << 63)
enum { EH_LOAD, EH_STORE, EH_RMW_R, EH_RMW_W };
typedef struct {
    int kind;           /* EH_* */
    int lane, pc;
    int space;          /* SP_GLOBAL, SP_SHARED (the thread's CTA), SP_SHCLUSTER (another's) */
    int red;            /* EH_RMW_*: red (no value returned) */
    unsigned size;
    uint64_t loc;
    const uint8_t *mem; /* the bytes in memory now (before a store) */
    uint64_t b, c;      /* EH_RMW_*: the operands */
} exec_access;
struct ex;
typedef struct exec_hooks {
    void *ctx;
    int (*access)(void *ctx, struct ex *X, warp *w, const exec_access *a, uint64_t *v);
    int (*fence)(void *ctx, struct ex *X, warp *w, int lane, int pc);
    int (*barrier)(void *ctx, struct ex *X, warp *w, int lane, int pc, int id, uint32_t gen);
    int (*backedge)(void *ctx, struct ex *X, warp *w, int lane, int pc, int target);
    void (*fault)(void *ctx, struct ex *X, warp *w, int lane, int pc);
    /* an instruction whose memory accesses no hook reports (asynchronous and bulk copies,
     * multimem, tensor maps, textures, surfaces, matrix instructions, device malloc) is about
     * to run: 0 lets it, -1 stops the launch */
    int (*unseen)(void *ctx, struct ex *X, warp *w, int pc);
} exec_hooks;

struct sched;
typedef struct ex {
    ptxeModule *m; ptxeCtx *ctx;
    const xinsn *prog; const xfunc *funcs;
    unsigned grid[3], block[3], cluster[3], dyn;
    int explicit_cluster;
    uint8_t *kparams; uint32_t kpsize;
    uint64_t steps, max_steps, thread_insns;
    uint64_t check_at;              /* steps at which step_check runs next (limit, clock) */
    double deadline, timeout;       /* CLOCK_MONOTONIC seconds of --timeout (0: none) */
    int nregs; uint32_t psize;
    ptxeResult fault;
    galloc *gcache;
    int yield;                      /* end the warp's quantum after this instruction */
    struct sched *S;                /* the scheduler (exec/sched.c) */
    uint32_t nsm;                   /* %nsmid: SMs of the simulated GPU */
    uint32_t envreg[MAX_ENVREG];    /* %envreg0..31 (cooperative launch: 1, 2) */
    /* host memory of the launch (statistics, CTA state, call frames, local memory) counts
       against the context's memory limit with the buffers (issue #16: --max-memory did not
       cover them); `host_left` is what the limit leaves, `host_used` what the launch took */
    uint64_t host_left, host_used, host_want;
    uint64_t sink[32]; /* warp-wide ALU path: lanes written to '_' or unused destinations */
    wops *wops;        /* per instruction: its operand arrays, for the registers used last */
    const int32_t *zero0; int nzero0;   /* the entry's registers live at entry (-1: all) */
    san *san;          /* checks of the launch (exec/sanitize.c); NULL: none */
    int san_mem;       /* racecheck or initcheck: successful accesses are passed to san */
    int sm_target;     /* the module's .target sm_NN (0: unknown) */
    uint8_t *polls;    /* its: per pc, 1 for a strong load or an atomic (a loop of one polls) */
    const exec_hooks *hooks;   /* a model checker's (the policy's); NULL: none */
    int hk_sp;         /* with hooks: the state space the last access resolved to (maddr) */
    int hk_sp2;        /* ... that of a bulk copy's source */
} ex;

/* The scheduling policy: every choice of what runs next is made through it (exec/sched.c
 * defines the two of ptxlitmus and documents them; another one, such as a model checker's,
 * may replace it).  A warp runs a group of its lanes that are at one call depth and PC; the
 * group continues until it diverges, blocks, reaches the PC of another group of the warp (then
 * pick_group chooses again: reconvergence), or a yield point; warps run in quanta. */
struct sched_policy {
    const char *name;
    /* independent thread scheduling (sm_70+): at a yield point (nanosleep, a failed mbarrier
     * wait, a backward branch ...) the group lets the warp's other runnable lanes run before it
     * again; 0: the group runs on (lockstep) */
    int its;
    /* ... and after how many backward branches while lanes of the warp wait (a loop that runs
     * that long while other lanes of its warp wait for it is taken for a wait loop; until then
     * the others wait at their PC: they reconverge after the loop) */
    uint32_t spin_limit;
    /* the CTAs of a launch are resident together up to the GPU's occupancy; 0: one cluster at
     * a time, in grid order (a cooperative launch is always resident whole) */
    int concurrent;
    int quantum;                /* warp-instructions a warp runs before the next warp */
    /* which group of warp w runs: lanes of `ready` (non-empty: the runnable lanes, without those
     * that yielded while others can run, or the waiting ones when nothing can run) or of
     * `runnable`, all at one (depth, PC) (w->ldep, w->lpc), at least one of them in `ready`;
     * the lanes waiting there for the rest of the warp join them.  A group of one thread is a
     * thread scheduled on its own (a model checker's choice). */
    uint32_t (*pick_group)(const sched_policy *p, const warp *w, uint32_t ready,
                           uint32_t runnable);
    /* which warp runs next: *cl a resident cluster of S (S->res[S->ord[i]]), *k the index of
     * the warp in it (CTA rank * warps per CTA + warp), one that has not exited (or any of a
     * cluster not started yet); 0 when the round is over (a round that ran no instruction at
     * all is a deadlock).  The cursor S->ci, S->ck is the policy's; the scheduler resets it to
     * 0 at the start of each round. */
    int (*pick_warp)(const sched_policy *p, struct sched *S, cluster **cl, uint32_t *k);
    /* the hooks of a model checker (NULL: none); with them every CTA of the launch is resident
     * (the checker's launches are small) */
    const exec_hooks *hooks;
};
extern const sched_policy sched_its, sched_lockstep;

/* The scheduler of a launch (exec/sched.c): resident clusters, CTA storage. */
typedef struct sched {
    const sched_policy *pol;
    cluster *res; uint32_t maxres;      /* resident clusters (entries with seq UINT64_MAX: free) */
    uint32_t *ord, nord;                /* the resident ones in admission order: indices in res */
    uint64_t next, nclusters;           /* next cluster of the grid to admit; clusters in all */
    uint32_t ci, ck;                    /* round-robin cursor: ord index, warp in the cluster */
    cta *store; uint8_t *busy;          /* CTA storage (cta.slot indexes it), reused, in use */
    uint32_t nstore;
    uint64_t wpc;                       /* warps per CTA */
} sched;

static inline char *ctx_msg(ex *X) { return X->ctx->msg; }

static inline uint64_t key_of(unsigned depth, int pc)
{
    return ((uint64_t)(MAXD - depth) << 32) | (uint32_t)pc;
}
static inline uint64_t lane_key(const warp *w, int l) { return key_of(w->ldep[l], w->lpc[l]); }

/* fault.c */
san_who who(const ex *X, const warp *w, int l, int pc);
/* The launch stops with `kind` and a report (the first fault only): what, the thread (lane -1:
 * the warp), the instruction at pc (-1: none), its CUDA source line. */
void fault(ex *X, warp *w, int lane, int pc, ptxeResult kind, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
int host_charge(ex *X, uint64_t n);
void host_out_of_memory(ex *X, warp *w, int lane, int pc, const char *what);
/* thread.c */
int ensure_frame(ex *X, warp *w, int d);
uint8_t *local_ptr(ex *X, warp *w, int l, int pc, uint64_t a, unsigned n, int *oom);
uint64_t sreg(ex *X, warp *w, int l, int id);
/* access.c: the host pointer of n bytes at a (space sp) for lane l at pc, aligned to `align`
 * (maddr: to n); NULL after a fault.  `what` names the access in reports and for the checks. */
uint8_t *maddr_al(ex *X, warp *w, int l, int pc, int sp, uint64_t a, unsigned n, unsigned align,
                  int write, const char *what);
uint8_t *maddr(ex *X, warp *w, int l, int pc, int sp, uint64_t a, unsigned n, int write,
               const char *what);
/* the location of a resolved access (maddr) at host pointer p, for the hooks: 0 when the
 * access is in no state space the memory model sees (local, const, param) */
uint64_t exec_loc(ex *X, warp *w, const uint8_t *p, int *space);
uint64_t exec_loc_sp(ex *X, warp *w, const uint8_t *p, int sp, int *space);   /* space sp */
typedef struct { int kind, lane, space, red; unsigned size; uint64_t loc, b, c; } exec_hacc;
int exec_hook_access(ex *X, warp *w, const exec_hacc *h, const uint8_t *mem, uint64_t *v);
/* warp.c */
void resched(warp *w);
void split(warp *w, uint32_t t, int pc_t, int pc_f);
int wsync_wait(warp *w, uint32_t mask);

static inline uint64_t opv(ex *X, warp *w, const frame *f, const xopnd *o, int l)
{
    switch (o->kind) {
    case XO_REG: return f->regs[o->reg * 32 + (unsigned)l] ^ o->neg;
    case XO_IMM: return o->imm;
    case XO_SREG: return sreg(X, w, l, (int)o->imm);
    case XO_LOCALSYM: return f->lbase[l] + o->imm;
    case XO_FPARAMSYM: return o->imm;
    default: return 0;
    }
}

static inline void wr(frame *f, const xopnd *o, int l, uint64_t v)
{
    if (o->kind == XO_REG) f->regs[o->reg * 32 + (unsigned)l] = v & o->wmask;
}

static inline uint64_t ldval(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    memcpy(&v, p, n);   /* little-endian host */
    return v;
}

/* the group continues at pc: switch when another group has a smaller or equal key */
static inline void advance(warp *w, int pc)
{
    w->pc = pc;
    if (w->others && key_of((unsigned)w->depth, pc) >= w->others_key) { resched(w); return; }
    if (w->wsync) {
        uint64_t k = key_of((unsigned)w->depth, pc);
        for (uint32_t m = w->wsync; m; m &= m - 1)
            if (lane_key(w, __builtin_ctz(m)) == k) {
                resched(w);
                return;
            }
    }
}

/* The running group continues at pc after a yield point (independent thread scheduling,
 * exec/sched.c): a backward branch (now 0: it yields when a strong load or an atomic ran since
 * the previous one, a polling loop, or when it is the policy's spin_limit-th one the warp took
 * while lanes of it waited, runnable, without running) or nanosleep (now 1).  When it yields,
 * the warp's other runnable lanes run before it again; else, or under lockstep, it continues
 * (advance). */
static inline void yield_point(warp *w, int pc, int now)
{
    int polled = w->polled;
    w->polled = 0;
    if (w->pol->its && w->others && (now || polled || ++w->spins >= w->pol->spin_limit)) {
        w->yld |= w->active;
        w->pc = pc;
        resched(w);
    } else
        advance(w, pc);
}

/* run_warp's result */
enum { W_RAN, W_BLOCKED, W_DONE };
/* ---------------------------------------------------------------- instruction handlers
 * One function per kind of instruction (ptx_kind of the opcode table), called by run_warp
 * through the table `handlers`.  A handler runs `in` for the group G of warp w (E: the lanes of
 * G whose guard is true, f: their frame), then advances the group or reschedules the warp.  It
 * returns 0, or -1 when the warp must stop now (a fault was reported, or it blocks). */
typedef int (*exec_fn)(ex *X, warp *w, const xinsn *in, frame *f, uint32_t G, uint32_t E);


/* barrier.c */
void lanes_exit(ex *X, warp *w, uint32_t m);
/* wsync.c */
void wsync_deadlock(ex *X, warp *w);
/* mbarrier.c */
int mb_complete_tx(ex *X, warp *w, int l, int pc, int sp, uint64_t a, uint64_t bytes);
/* whether a test_wait/try_wait of operand opnd (a state token, or with .parity the phase
 * parity) on an object in state `state` finds its phase completed */
int exec_mbar_done(uint64_t state, uint64_t opnd, int parity);
/* step.c */
double mono_now(void);
int run_warp(ex *X, warp *w, int budget);
/* cta.c */
int setup_cta(ex *X, cta *c, const xfunc *ef, uint32_t rank);
void free_cta(cta *c);
/* launch.c: a launch with the scheduling policy `pol` instead of the configuration's */
ptxeResult exec_launch_policy(ptxeFunction *f, const ptxeLaunchConfig *cfg, void **params,
                              const sched_policy *pol);
/* sched.c: the scheduler of a launch with `maxres` clusters resident at most; runs it */
int sched_begin(ex *X, sched *S, const sched_policy *pol, uint32_t maxres);
void sched_run(ex *X, const xfunc *ef);
void sched_end(sched *S);

/* the handlers of the table in step.c, by file */
#define HANDLER(n) int n(ex *X, warp *w, const xinsn *in, frame *f, uint32_t G, uint32_t E)
HANDLER(h_bar); HANDLER(h_barcluster);                                      /* barrier.c */
HANDLER(h_wsync); HANDLER(h_activemask);                                    /* wsync.c */
HANDLER(h_bra); HANDLER(h_brx); HANDLER(h_call); HANDLER(h_ret); HANDLER(h_exit);
HANDLER(h_trap); HANDLER(h_sleep); HANDLER(h_stack);                        /* control.c */
HANDLER(h_mbar);                                                            /* mbarrier.c */
HANDLER(h_cpasync); HANDLER(h_bulk); HANDLER(h_multimem); HANDLER(h_tma);   /* async.c */
HANDLER(h_ldst); HANDLER(h_atom); HANDLER(h_cvta); HANDLER(h_isspacep); HANDLER(h_mapa);
HANDLER(h_fence); HANDLER(h_nop); HANDLER(h_policy); HANDLER(h_tex);        /* ldst.c */
HANDLER(h_misc);                                                            /* printf.c */
HANDLER(h_mma);                                                             /* matrix.c */
#undef HANDLER
#endif
