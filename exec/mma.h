/* exec/mma.h — warp-level matrix instructions of the executor (ISA 8.4 §9.7.13.4): mma.sync,
 * ldmatrix, stmatrix, movmatrix, mma.sp (§9.7.13.5) and (§9.7.13.3) wmma.load/store/mma.
 * Decoded once at load (mma_decode; wmma: wmma_decode of exec/wmma.c), run by the engine's h_mma
 * (exec/matrix.c) with the arithmetic of mma_matrix (exec/mma.c, which documents the mma.sync
 * fragment layouts, the mma.sp metadata and the accumulation; exec/wmma.c documents the wmma
 * fragments). */
#ifndef PTX_EXEC_MMA_H
#define PTX_EXEC_MMA_H
#include <stddef.h>
#include <stdint.h>

#define MMA_MAXOPS 12   /* = XMAX_OPS of exec/exec_int.h */
enum { MM_MMA = 1, MM_LDMATRIX, MM_STMATRIX, MM_MOVMATRIX, MM_WMMA_LOAD, MM_WMMA_STORE,
       MM_WMMA_MMA };
enum { MT_F16 = 1, MT_BF16, MT_TF32, MT_F32, MT_F64, MT_S8, MT_U8, MT_S4, MT_U4, MT_B1, MT_S32,
       MT_E4M3, MT_E5M2 };
typedef struct xmma {
    uint8_t kind;           /* MM_* */
    uint8_t m, n;           /* shape */
    uint16_t k;
    uint8_t at, bt, ct, dt; /* MT_* element types of A, B, C, D */
    uint8_t na, nb, nc, nd; /* registers per lane of A, B, C, D */
    uint8_t sat;            /* .satfinite */
    uint8_t bop;            /* .b1: 1 .xor.popc, 2 .and.popc */
    uint8_t num, trans;     /* ldmatrix/stmatrix: .x1/.x2/.x4, .trans */
    uint8_t sp, sel;        /* mma.sp (§9.7.13.5): 1 (2: .sp::ordered_metadata), selector f */
    uint8_t rnd;            /* .f64 rounding: 0 .rn, 1 .rz, 2 .rm, 3 .rp */
    /* wmma: frag 'a', 'b', 'c' (wmma.load) or 'd' (wmma.store); col: that matrix is
     * column-major (.col); acol, bcol: wmma.mma's .alayout/.blayout are .col; stride: the
     * optional stride operand is present */
    uint8_t frag, col, acol, bcol, stride;
} xmma;

/* Decode the mnemonic of a warp-level matrix instruction: 0, or -1 with a reason. */
int mma_decode(const char *mnemonic, xmma *mm, char *err, size_t errlen);
/* D = A * B + C for a warp: S[l] holds lane l's A, B and C registers in operand order, D[l]
 * receives its D registers. */
void mma_run(const xmma *mm, const uint64_t (*S)[MMA_MAXOPS], uint64_t (*D)[MMA_MAXOPS]);
/* Element helpers shared with the warpgroup instructions (exec/wgmma.c): element j of a
 * register of floating-point type t (MT_F16 .. MT_F64, MT_E4M3, MT_E5M2) as a double; element j
 * of an integer type (MT_S8 .. MT_B1); a double rounded to nearest even .f16 / .f32 bits. */
double mma_fp_elem(int t, uint64_t reg, unsigned j);
int64_t mma_int_elem(int t, uint64_t reg, unsigned j);
uint32_t mma_to_f16(double x);
uint32_t mma_to_f32(double x);
/* mma.sp: the number of threads of a group of four that hold metadata (1, 2 or 4) */
int mma_sp_threads(const xmma *mm);
/* mma.sp: as mma_run, A given sparse (S[l] holds A, B, C as for mma) with lane l's metadata
 * register E[l].  0, or -1 with a reason when the metadata names a position of a chunk twice. */
int mma_sp_run(const xmma *mm, const uint64_t (*S)[MMA_MAXOPS], const uint32_t *E,
               uint64_t (*D)[MMA_MAXOPS], char *why, size_t n);
/* D = A * B + C on whole matrices (mm->m x mm->k times mm->k x mm->n), row-major arrays of
 * element bit patterns of the types mm->at, bt, ct, dt (an f16 is its 16 bits, a b1 one bit). */
void mma_matrix(const xmma *mm, const uint64_t *A, const uint64_t *B, const uint64_t *C,
                uint64_t *D);
/* bits of an element of type t (MT_*), 0 if unknown; the MT_* type named `name`, or 0 */
unsigned mma_type_bits(int t);
int mma_type_named(const char *name);
#endif
