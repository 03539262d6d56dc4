/* kcheck/kpc.h — how an instruction reads to the memory model (kcheck/pcinfo.c): the litmus
 * front end's reading of its mnemonic. */
#ifndef PTX_KCHECK_KPC_H
#define PTX_KCHECK_KPC_H
#include "kcheck/kint.h"
#include "frontend/litmus.h"

struct kpc {
    int state;              /* 0: not read yet; 1: read; -1: refused (err) */
    char mn[96];            /* the mnemonic, as a scalar access (".v2/.v4/.v8" dropped) */
    lit_ikind k;
    lit_sem sem;
    lit_scope scope;
    lit_proxy proxy;
    int volatile_, mmio, cas;
    lit_fence fence;
    lit_bar bar;
    lit_restrict restrict_;
    int uni;
    lit_space fspace;
    char err[300];
};
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
