/* kcheck/kspin.h — the spin-loop reduction of `ptxlitmus check` (kcheck/spin.c). */
#ifndef PTX_KCHECK_KSPIN_H
#define PTX_KCHECK_KSPIN_H
#include "kcheck/graph.h"
#include "exec/engine.h"

typedef struct kspin kspin;
kspin *ksp_new(int nth, int nregs);
void ksp_reset(kspin *S);      /* a new execution */
void ksp_free(kspin *S);
/* Thread t (lane `lane` of a register file regs, [register][lane], at call depth depth) takes
 * the backward branch at pc to target, having executed its first n events of g.  1 when the
 * last two iterations there were failed iterations of a spin loop: only reads (and fences) of
 * the same locations by the same instructions, every register changed by both alike; *from is
 * then where the first of the two began (*counts: some register counts the iterations). */
int ksp_backedge(kspin *S, const kgraph *g, int t, int n, int pc, int target,
                 const uint64_t *regs, int lane, int depth, int *from, int *counts);
/* event i of thread t is the write of an atomic that wrote back the value its read read (an
 * atomicAdd(p, 0), an atomicOr(p, 0): a poll) */
int ksp_idempotent(const kgraph *g, int t, int i);
/* the spin loops found so far (in any execution): their iterations' events */
void ksp_learn(kspin *S, int target, int pc, int len);
/* whether pc is in the body of a spin loop found earlier: its first pc and backward branch */
int ksp_inside(const kspin *S, int pc, int *target, int *end);
int ksp_known(const kspin *S, int target, int pc);   /* its length, 0: not a known spin */
#endif
