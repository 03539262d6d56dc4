/* kcheck/kpc.h — how an instruction reads to the memory model (kcheck/pcinfo.c): the litmus
 * front end's reading of its mnemonic. */
#ifndef PTX_KCHECK_KPC_H
#define PTX_KCHECK_KPC_H
#include "kcheck/kint.h"
#include "frontend/litmus.h"

/* one event an instruction makes, as the litmus front end lowers it */
typedef struct {
    lit_ikind k;
    lit_sem sem;
    lit_scope scope;
    lit_proxy proxy;
    int volatile_, mmio, async;
    lit_fence fence;
    lit_bar bar;
    lit_restrict restrict_;
    int uni;
    lit_space fspace;
    lit_mbar mbar;          /* an mbarrier operation's kind */
} kpc_role;

struct kpc {
    int state;              /* 0: not read yet; 1: read; -1: refused (err) */
    char mn[96];            /* the mnemonic, as a scalar access (".v2/.v4/.v8" dropped) */
    int cas;
    int nrole;              /* the events, in order (a bulk copy: its source read, destination
                               write, proxy fence, complete-tx; anything else: one) */
    kpc_role r[4];
    char err[300];
};
/* the role of graph event e (at an instruction of kind `kind`) among its instruction's */
const kpc_role *kpc_role_of(const kpc *k, int kind, const kev *e);
/* The reading of the instruction at pc (lazily), NULL when refused. */
const kpc *kpc_get(kpcs *P, int pc);
/* The mnemonic of an instruction text (past a guard), into buf. */
void kpc_mnemonic(const char *text, char *buf, size_t n);

/* The last graph kcons_check decided, as an execution: its events (the communicating ones),
 * po, rf, co, fr, Fence-SC order (x->t is the checker's test: valid until the next check; name
 * its threads and symbols through kcons_test); *ref: the graph event of each. */
#include "model/execution.h"
void kcons_export(kcons *c, mexecution *x, const kref **ref);
lit_test *kcons_test(kcons *c);
#endif
