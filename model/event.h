/* model/event.h — events of a candidate execution (ISA §8.2, §8.4) and per-thread traces.
 * A trace is one path of one thread: the events it performs in program order, the dependencies
 * among them, the values as terms (model/term.h: a read returns a variable), the conditions
 * under which the path is taken (guards), and the final registers. */
#ifndef PTX_MODEL_EVENT_H
#define PTX_MODEL_EVENT_H
#include <stdint.h>
#include "frontend/litmus.h"
#include "model/term.h"

typedef enum {
    EV_INIT,   /* the hypothetical initial write W0 of a location (§8.2.6) */
    EV_R,      /* a read operation (ld, or an atom that did not write: failed cas) */
    EV_W,      /* a write operation (st) */
    EV_RMW,    /* an atomic operation that reads and writes (atom, red) */
    EV_F,      /* a memory fence or proxy fence */
    EV_BAR     /* a barrier operation */
} ev_kind;

typedef struct {
    ev_kind k;
    int thread;          /* -1 for EV_INIT */
    int po;              /* position in the thread's trace */
    int insn;            /* instruction index in the thread, -1 for EV_INIT */
    lit_sem sem;
    lit_scope scope;
    lit_proxy proxy;     /* access method (memory events) */
    int sym;             /* symbol used to access memory */
    int vaddr;           /* virtual address (§8.2.2): the generic symbol named */
    int loc;             /* physical location */
    int64_t rval, wval;  /* raw bits read / written (the `size` bytes at `off`, zero-extended):
                            in an execution (model/execution.h); in a trace the constant values
                            where the terms are constants */
    int rterm, wterm;    /* in a trace: the terms (width 8 * size) read / written */
    int wcond;           /* in a trace, EV_RMW: the Boolean term under which it writes (a
                            compare-and-swap that may fail), else the true term */
    int wsame;           /* in a trace, EV_RMW: the Boolean term under which it writes the
                            value it read (a failed cas that writes back), -1 */
    isa_atom_op acc;     /* in a trace, EV_RMW: it writes old (+) acc_k, (+) one of add (sub:
                            add of -k), and, or, xor, min, max on type acc_t, with a constant
                            acc_k; else ISA_ATOM_NONE (solver/query_lemmas.c) */
    isa_type acc_t;
    uint64_t acc_k;
    int off, size; /* the bytes of the location accessed (§8.2); INIT: 0 and the location size */
    int mmio;            /* .mmio (§8.4.1) */
    int atomic;          /* atom or red (§8.4 atomic operation) */
    int red;             /* red: atomic, but not a read operation (§8.4 Table 17) */
    lit_fence fence;
    lit_bar bar;
    int64_t bar_id, bar_cnt;
    int bar_has_cnt;
    int bar_gen;         /* k-th use of this barrier (id, count) by the thread */
    lit_mbar mbar;       /* an mbarrier operation (§9.7.13.15) */
    int ub;              /* undefined behaviour on this path (an mbarrier used uninitialised,
                            a .noComplete arrive that completes the phase) */
    lit_restrict restrict_;   /* restricted fence (§9.7.13.4) */
    int uni;             /* uni-directional proxy fence (generic -> async) */
    lit_space fspace;    /* a proxy fence limited to a state space; memory events: the space
                            of their location (SPACE_SHARED_CTA: this CTA's shared memory,
                            SPACE_SHARED_CLUSTER: shared memory, SPACE_GENERIC: not known) */
} mevent;

static inline int ev_reads(const mevent *e) { return e->k == EV_R || e->k == EV_RMW; }
static inline int ev_writes(const mevent *e)
{
    return e->k == EV_W || e->k == EV_RMW || e->k == EV_INIT;
}
static inline int ev_mem(const mevent *e)
{
    return e->k == EV_R || e->k == EV_W || e->k == EV_RMW || e->k == EV_INIT;
}

enum { MDEP_ADDR = 1, MDEP_DATA = 2, MDEP_CTRL = 4 };
typedef struct { int from, to, kind; } mdep;   /* po indices: a read and an event depending on it;
                                                  kind: MDEP_* bits (Dat3M's addr, data, ctrl) */

typedef struct {
    mevent *ev;
    int nev;
    mdep *dep;
    int ndep;
    int *regs;           /* final register values (64-bit terms), register table order */
    int *guard;          /* the Boolean terms that hold on this path (its branch conditions,
                            the values made concrete) */
    int nguard;
    int hang;            /* MHANG_*: a complete path, or one that never ends (liveness only) */
    int spin_from;       /* MHANG_SPIN: the first event of the iteration repeated forever */
    int hang_insn;       /* the instruction the thread hangs at */
} mtrace;
enum { MHANG_NONE, MHANG_SPIN, MHANG_BARRIER };

typedef struct {
    mtrace *tr;
    int ntr;
    int bound_hit;       /* some path was cut by the unroll bound */
    int dom_used;        /* some decision used the value domains (a branch decided, a value
                            made concrete): the paths may change when the domains grow */
    size_t bytes;        /* memory the paths hold */
} mthread_traces;

/* Value domains: per atom, the values its bytes may hold (raw, little-endian); n < 0: not
   bounded (more than 256 values, or values computed over too many combinations). */
typedef struct { int64_t *v; int n; } mdomain;

/* Atoms (ISA §8.2: memory is bytes): each location is cut into the largest byte ranges that no
   access splits; an access covers whole atoms.  A test whose accesses all name whole
   locations has one atom per location. */
typedef struct { int loc, off, size; } matom;
typedef struct {
    matom *a;
    int n;
    int *first, *count;      /* per symbol (meaningful on owning symbols): its atoms */
} matoms;

/* How instructions become events where the ISA reading and the published tools (Dat3M's PTX
   front end, whose verdicts the public suite holds) differ; docs/model.md "Event semantics".
   All zero: the ISA reading (--model ptx). */
typedef struct {
    int cas_fail_writes; /* an atom.cas whose comparison fails also writes the value it read
                            (§9.7.12.5's pseudo-code `*a = (*a == b) ? c : *a`; Dat3M) */
    int fence_sc_only;   /* fence.sc (membar) is in SC only, not also in ACQ_REL (Dat3M's tags) */
    int dat3m_barriers;  /* Dat3M's bar.cta.sync|arrive INST{, ID{, QUORUM}} as Dat3M reads
                            them: INST a barrier instance, the quorum a minimum (query.c) */
} msemantics;

typedef struct {
    int unroll;          /* backward jumps allowed per branch instruction on a path */
    int max_events;      /* per trace */
    int max_traces;      /* per thread */
    double deadline;     /* mclock_ms() time at which to give up, 0 = none */
    int liveness;        /* also enumerate the paths that never end: a spin that repeats its
                            state (MHANG_SPIN), a wait at a barrier (MHANG_BARRIER) */
    msemantics sem;      /* how instructions become events */
    size_t max_bytes;    /* memory the paths and terms may hold, 0 = no limit */
} mlimits;

/* Milliseconds of a monotonic clock. */
double mclock_ms(void);

/* Enumerate the complete paths of thread ti, its values as terms in ts; the value domains
 * decide branches whose outcome is fixed and give the values of what must be concrete (an
 * address, an operation without a term form, a live register at a loop head).  observed[r]
 * says the final value of register r matters (it appears in the condition).  Loop iterations
 * that return to a loop head with the same live registers and no write in between are cut as
 * dominated (spin-loop reduction).  Returns 0, -1 with "file:line:col: message" in err, -2
 * when the deadline of lim passed, or -3 when the paths need more than lim->max_bytes. */
int traces_enumerate(const lit_test *t, int ti, const matoms *at, const mdomain *dom,
                     const mlimits *lim, const unsigned char *observed, mterms *ts,
                     mthread_traces *out, char *err, size_t errlen);
void traces_free(mthread_traces *tt);
/* The raw values the bytes [off, off+size) of location loc may hold: every combination of the
   values of the atoms they cover (ISA §8.9.7: a read may return each byte from another write),
   little-endian.  Their number (*out malloc'd), or -1 when not bounded (an atom's domain is
   not, or more than 65536 combinations).  Bytes the atoms do not cut yet read 0. */
int mdom_combos(const matoms *at, const mdomain *dom, int loc, int off, int size,
                uint64_t **out);
#endif
