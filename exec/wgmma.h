/* exec/wgmma.h — warpgroup-level matrix instructions of the executor (PTX ISA 8.4 §9.7.14):
 * wgmma.mma_async{.sp}, wgmma.fence, wgmma.commit_group, wgmma.wait_group, and setmaxnreg
 * (§9.7.17.5).  Decoded once at load (wgmma_decode, wgmma_imm), run by the engine's h_wgmma
 * (exec/matrix.c: the rendezvous of the four warps) with the arithmetic of wgmma_run
 * (exec/wgmma.c, which documents the layouts). */
#ifndef PTX_EXEC_WGMMA_H
#define PTX_EXEC_WGMMA_H
#include <stddef.h>
#include <stdint.h>

enum { WG_MMA = 1, WG_FENCE, WG_COMMIT, WG_WAIT, WG_SETMAXNREG };
/* the operand list of wgmma.mma_async (xinsn.vops) in this order: nd accumulator registers, then
 * na A registers (4) or the A descriptor (na = 1), the B descriptor, for .sp the metadata and
 * the sparsity selector, then scale-d (a predicate or a constant) */
typedef struct xwgmma {
    uint8_t kind;           /* WG_* */
    uint8_t sp;             /* .sp: sparse A (§9.7.14.6) */
    uint16_t n, k;          /* shape m64nNkK */
    uint8_t at, bt, dt;     /* MT_* element types (exec/mma.h) */
    uint8_t sat;            /* .satfinite (integer forms) */
    uint8_t adesc;          /* A from shared memory through a descriptor */
    uint8_t nd, na;         /* registers per thread of D, of A (1: the descriptor) */
    int8_t scale_a, scale_b; /* imm-scale-a/b: 1, or -1 (negate) */
    uint8_t trans_a, trans_b; /* imm-trans-a/b */
    uint8_t nimm;           /* trailing immediates after scale-d the form takes */
    uint32_t imm;           /* wait_group N, setmaxnreg imm-reg-count */
} xwgmma;

/* Decode the mnemonic (the operand count decides A from registers or a descriptor: nops is the
 * number of operands of the statement): 0, or -1 with a reason. */
int wgmma_decode(const char *mnemonic, int nops, xwgmma *g, char *err, size_t errlen);
/* The trailing immediate i (0: imm-scale-a, 1: imm-scale-b, 2: imm-trans-a or imm-trans-b ...)
 * of wgmma.mma_async, or the N / imm-reg-count of wait_group / setmaxnreg (i = 0): 0, or -1
 * with a reason. */
int wgmma_imm(xwgmma *g, int i, int64_t v, char *err, size_t errlen);

/* The sparsity selector of wgmma.mma_async.sp (an integer constant, §9.7.14.6.4: 0 or 1 for
 * .f16/.bf16/.tf32, 0 for the 8-bit types; other values are undefined, refused): 0, or -1 with
 * a reason. */
int wgmma_sel(const xwgmma *g, int64_t v, char *err, size_t errlen);

/* Shared-memory reads of a wgmma: n bytes at the shared::cta address a into out; -1 after a
 * fault (reported by the reader). */
typedef struct {
    void *ctx;
    int (*rd)(void *ctx, uint64_t a, unsigned n, uint8_t *out);
} wg_mem;
/* D = A * B (+ D) for a warpgroup: ops[t] holds the operand values of thread t (0..127) in the
 * order of xwgmma, out[t * nd + i] receives D register i of thread t.  0; -1 after a fault of
 * the reader; -2 with a reason in err (invalid metadata, descriptor). */
int wgmma_run(const xwgmma *g, const uint64_t *const *ops, const wg_mem *mem, uint64_t *out,
              char *err, size_t errlen);
#endif
