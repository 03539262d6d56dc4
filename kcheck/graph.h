/* kcheck/graph.h — the execution graph of `ptxlitmus check` (issue #26; GenMC's execution
 * graph, Kokologiannakis et al. PLDI 2019): per thread its events in program order, per
 * location its writes in coherence order, reads-from as a reference to a write.  Every event
 * carries the stamp of its addition: a thread's earlier event and a read's write have smaller
 * stamps (the explorer keeps this: a revisited read is stamped again after its new write), so
 * the events added before a given one form a prefix of every thread (a view).  Graphs are
 * copied whole onto the work list and cut back to a view. */
#ifndef PTX_KCHECK_GRAPH_H
#define PTX_KCHECK_GRAPH_H
#include <stdint.h>

typedef struct { int32_t t, i; } kref;   /* thread, index in it; t == -1: the initial write */

enum { KE_R, KE_W, KE_F, KE_BAR, KE_BLOCK };
/* the state space of a memory event: global, the thread's CTA's shared memory, another's */
enum { KSP_GLOBAL = 1, KSP_SHARED, KSP_SHARED_CLUSTER };
#define KLOC_SHARED (1ull << 63)   /* shared-memory location keys (exec/engine.h) */
/* barrier events: bar.sync / bar.red (wait), bar.arrive, barrier.cluster.arrive / .wait */
enum { KB_WAIT, KB_ARRIVE, KB_CARRIVE, KB_CWAIT, KB_WSYNC };   /* KB_WSYNC: a warp's lanes
                                            meeting at shfl/vote/...: no event of the model */
/* event flags */
enum {
    KF_MAX = 1,    /* added maximally: a read of the co-latest write, a write placed co-last */
    KF_REV = 2,    /* revisitable (not in the prefix of a write that revisited a read) */
    KF_ATOM = 4,   /* a read or a write of an atom/red */
    KF_RED = 8,    /* ... of a red */
    KF_PAIR = 16   /* KE_R: the atomic also wrote (its write is the next event) */
};

typedef struct {
    uint8_t kind, size, space, flags;
    uint8_t bmode;          /* KE_BAR: KB_* */
    int32_t pc, stamp, loc; /* loc: index in kgraph.loc (memory events), else -1 */
    int32_t bar;            /* KE_BAR: barrier id 0..15 (cluster: 0); KE_BLOCK: the loop head */
    uint32_t gen;           /* KE_BAR: the barrier's phase (its instance) */
    uint64_t val;           /* KE_W: the value written; KE_R: the value read */
    uint64_t opb, opc;      /* atomics: the operands b and c (the extracted litmus test) */
    kref rf;                /* KE_R: the write it reads */
} kev;

typedef struct {
    uint64_t key;           /* exec_access.loc */
    uint32_t size;
    uint64_t init;          /* the value of the initial write (memory at first access) */
    kref *co; int nco, cap; /* the writes in coherence order, after the initial write */
} kloc;

typedef struct {
    int nth;
    int32_t *cta, *cluster;          /* per thread: linear CTA and cluster ids */
    kev **ev; int *nev, *cap;        /* per thread: its events in program order */
    kloc *loc; int nloc, cloc;
    int32_t *hash; int hcap;         /* location key -> index (open addressing) */
    int32_t maxstamp;
} kgraph;

kgraph *kg_new(int nth, const int32_t *cta, const int32_t *cluster);
kgraph *kg_copy(const kgraph *g);
void kg_free(kgraph *g);
static inline kev *kg_ev(const kgraph *g, kref r) { return &g->ev[r.t][r.i]; }
static inline int kref_eq(kref a, kref b) { return a.t == b.t && a.i == b.i; }
/* Appends e to thread t with the next stamp; returns its reference. */
kref kg_add(kgraph *g, int t, const kev *e);
/* The location of key: its index, or -1 when there is none and size is 0; a new one (initial
 * value init) otherwise.  *conflict: an existing location overlaps it with other bytes. */
int kg_loc(kgraph *g, uint64_t key, uint32_t size, uint64_t init, int *conflict);
/* The value of write w (t -1: the initial write) of location loc. */
uint64_t kg_wval(const kgraph *g, int loc, kref w);
/* Coherence: the position of w in loc's order (the initial write -1), and the insertion of w
 * at position pos (0: right after the initial write); kg_co_remove takes it out. */
int kg_co_pos(const kgraph *g, int loc, kref w);
void kg_co_insert(kgraph *g, int loc, int pos, kref w);
void kg_co_remove(kgraph *g, int loc, kref w);
/* The co-latest write of loc (t -1: the initial write). */
kref kg_co_max(const kgraph *g, int loc);
/* Cuts every thread to view[t] events (and their coherence entries). */
void kg_cut(kgraph *g, const int *view);
/* The view of the porf-prefix of r (r included): program order, reads-from, and the arrivals
 * of each barrier phase a wait in it passed.  view[nth] is filled. */
void kg_prefix(const kgraph *g, kref r, int *view);
/* The view of the events stamped below `stamp` (every thread's prefix of them). */
void kg_before(const kgraph *g, int32_t stamp, int *view);
int kg_in_view(const int *view, kref r);
void kg_dump(const kgraph *g, const char *why);   /* debugging: the events on stderr */
#endif
