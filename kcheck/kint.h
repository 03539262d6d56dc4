/* kcheck/kint.h — the parts of `ptxlitmus check` (internal; kcheck/kcheck.h is the interface):
 *   pcinfo.c   what each instruction that makes events is to the memory model: the litmus
 *              front end's reading of its mnemonic (one reading of PTX for verify and check)
 *   consist.c  a graph's consistency: its communicating events as the events of a litmus
 *              execution (model/base.c's base sets and relations), rf/co/fr/syncbar/Fence-SC
 *              from the graph, the cat model evaluated over them (solver/cat_eval.c) to
 *              constants: each check holds or fails, no solver call
 *   spin.c     the spin-loop reduction (an iteration that changed nothing is an await)
 *   explore.c  the exploration: the executor's hooks, the work list, revisits, findings
 *   witness.c  a finding's execution: the report, the picture, the extracted litmus test
 * The executor's headers (exec/) and the litmus ones (frontend/litmus.h) name some constants
 * alike (BAR_SYNC, MB_INIT): explore.c and spin.c see the first, the others the second; this
 * header sees neither. */
#ifndef PTX_KCHECK_KINT_H
#define PTX_KCHECK_KINT_H
#include <stddef.h>
#include "kcheck/graph.h"

/* ---------------------------------------------------------------- pcinfo.c */
/* the instructions of the module (text, ptx_kind), each read once (kcheck/kpc.h) */
typedef struct kpc kpc;
typedef struct {
    int n;
    const char *const *text;
    const uint8_t *kind;
    const int *line;            /* PTX line of each instruction */
    kpc *v;
} kpcs;
/* The reason the instruction at pc cannot be an event of the model, NULL when it can. */
const char *kpc_refused(kpcs *P, int pc);
void kpcs_free(kpcs *P);

/* ---------------------------------------------------------------- explore.c (the module) */
#include "include/ptxexec.h"
/* the instructions of fn's module as kpcs (text, kind, line; freed by kx_pcs_free) */
kpcs kx_pcs(const ptxeFunction *fn);
void kx_pcs_free(kpcs *P);
/* "FILE.ptx:LINE: TEXT" of the instruction at pc, and its CUDA source "FILE.cu:LINE" ("" when
 * the module has no .loc for it) */
void kx_where(const ptxeFunction *fn, int pc, char *ptx, size_t np, char *cuda, size_t nc);
/* an identifier for a location: BUFFER_INDEX (an element of a named allocation), g_ADDR,
 * shm<CTA>_<OFFSET> */
void kx_loc_name(const ptxeFunction *fn, uint64_t key, unsigned size, char *buf, size_t n);
/* "thread (x,y,z) of CTA (x,y,z)" of the launch's linear thread t */
void kx_thread_desc(const unsigned grid[3], const unsigned block[3], int t, char *b, size_t n);
/* whether an mbarrier wait (operand: state token, or with parity the phase parity) on state
 * `state` (the executor's encoding) finds its phase completed */
int kx_mbar_done(uint64_t state, uint64_t opnd, int parity);

/* ---------------------------------------------------------------- consist.c */
typedef struct kcons kcons;
typedef struct {
    int consistent;
    char failed[64];        /* inconsistent: the first check that fails */
    int race;               /* the model's data-race relation is not empty */
    kref race_a, race_b;    /* one racing pair */
    char flags[4][48];      /* other flags the model raised */
    int nflags;
} kverdict;

/* A consistency checker for the model (its text; file names it in messages; bundled: one of
 * the model/ files, whose Fence-SC axiom the checker knows by name).  NULL with a message in err. */
kcons *kcons_new(const char *file, const char *text, kpcs *P, int bundled, char *err,
                 size_t errlen);
void kcons_free(kcons *c);
/* Decides g: 0 with *v filled, -1 with err on an internal failure. */
int kcons_check(kcons *c, const kgraph *g, kverdict *v, char *err, size_t errlen);
/* Locations taken into the events checked whatever they are (force[graph location] == 1: the
 * awaited ones of a report) or left out (2: the parts of a report's bulk copy that show
 * nothing); kept by the caller until the next check. */
void kcons_force(kcons *c, const char *force);
#endif
