/* model/program.h — a litmus program's atoms, value domains and per-thread paths
 * (model/program.c), the input of every decision procedure. */
#ifndef PTX_MODEL_PROGRAM_H
#define PTX_MODEL_PROGRAM_H
#include "model/event.h"

typedef struct {
    matoms at;
    mdomain *dom;            /* per atom */
    mterms terms;            /* the values of the paths (model/term.h) */
    mthread_traces *tt;      /* per thread: its complete paths */
    int bound_hit;           /* some path was cut at the unroll bound */
} mprogram;

/* observed[th][r]: register r of thread th appears in the condition (its final value matters
   to the spin-loop reduction).  Returns 0, -1 with "file:line:col: message" in err, -2 when
   lim's deadline passed, or -3 when the paths need more memory than lim->max_bytes. */
int mprogram_build(const lit_test *t, const mlimits *lim, unsigned char *const *observed,
                   mprogram *p, char *err, size_t errlen);
void mprogram_free(const lit_test *t, mprogram *p);

int mdom_add(mdomain *d, int64_t v);               /* 1 when v was new */
int matoms_find(const matoms *at, int loc, int off); /* the atom of loc starting at byte off, -1 */
#endif
