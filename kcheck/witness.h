/* kcheck/witness.h — a finding of `ptxlitmus check` shown: its report (the thread, the PTX and
 * CUDA lines, the reads-from and coherence choices, the events in the order they happened), its
 * execution for the pictures (report/graph.c), and the extracted litmus test: the
 * communicating accesses of the execution, with their qualifiers, scopes and CTA/cluster
 * placement, in the litmus language `verify` reads, its condition the values read. */
#ifndef PTX_KCHECK_WITNESS_H
#define PTX_KCHECK_WITNESS_H
#include "kcheck/kcheck.h"
#include "model/execution.h"

typedef struct kcheck_witness kcheck_witness;
kcheck_witness *kcheck_witness_new(const kcheck_launch *L, const kcheck_opts *o,
                                   const kcheck_result *r, int finding, char *err, size_t errlen);
const mexecution *kcheck_witness_execution(const kcheck_witness *w);
char *kcheck_witness_text(const kcheck_witness *w);     /* the report of the finding */
char *kcheck_witness_litmus(const kcheck_witness *w);   /* the extracted litmus test */
void kcheck_witness_free(kcheck_witness *w);
#endif
