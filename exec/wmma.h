/* exec/wmma.h — the warp-level wmma instructions of the executor (ISA 8.4 §9.7.13.3):
 * wmma.load.{a,b,c}, wmma.store.d, wmma.mma.  exec/load.c decodes the operands into an xwmma
 * (wmma.mma has up to 32 registers, more than an xinsn holds), exec/matrix.c's h_mma reads them
 * for the 32 lanes and calls wmma_run, which does the memory accesses through the engine's
 * callbacks and the arithmetic through mma_matrix (exec/mma.c). */
#ifndef PTX_EXEC_WMMA_H
#define PTX_EXEC_WMMA_H
#include "exec/exec_int.h"

#define WMMA_MAXS 24 /* sources: wmma.mma .f16 with .f32 C has 8 + 8 + 8 registers */
#define WMMA_MAXD 8  /* destinations: at most 8 registers */

/* A decoded wmma instruction: x->mm points at .mm.  Sources s[0 .. ns-1]: wmma.load: the
 * address base (the offset is the xinsn's aoff) and the stride if present; wmma.store: the
 * address base, the mm.nc registers of D, the stride if present; wmma.mma: the registers of A,
 * B and C (mm.na, mm.nb, mm.nc).  Destinations are the xinsn's d[0 .. mm.nd-1]. */
typedef struct xwmma {
    xmma mm;
    xopnd s[WMMA_MAXS];
    uint8_t ns;
} xwmma;

/* The engine's side of a wmma: the host pointer of n bytes at address a of state space `space`
 * (SP_*) for lane l, or NULL after reporting a fault; a fault at lane l with a message. */
typedef struct wmma_io {
    void *env;
    int space;
    uint8_t *(*mem)(void *env, int lane, int space, uint64_t a, unsigned n, int write);
    void (*fault)(void *env, int lane, const char *msg);
} wmma_io;

/* Decode a wmma mnemonic ("wmma.load.a.sync.aligned.row.m16n16k16.f16"): 0, or -1 with a
 * reason in err. */
int wmma_decode(const char *mnemonic, xmma *mm, char *err, size_t errlen);
/* Run a wmma for the whole warp: S[l] are lane l's source values (the address with its
 * offset added), D[l] receives its destination registers.  0, or -1 after a fault. */
int wmma_run(const xmma *mm, const uint64_t (*S)[WMMA_MAXS], uint64_t (*D)[WMMA_MAXD],
             const wmma_io *io);
#endif
