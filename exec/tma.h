/* exec/tma.h — tensor memory access of the executor (exec/tma.c): the executor's 128-byte
 * tensor map (§5.5.7; the real CUtensorMap is opaque, this layout is ours and documented in
 * docs/executor.md), and the instructions that use or edit one: cp.async.bulk.tensor
 * (§9.7.8.24.9), cp.reduce.async.bulk (§9.7.8.24.7) and cp.reduce.async.bulk.tensor
 * (§9.7.8.24.10), cp.async.bulk.prefetch.tensor (§9.7.8.24.11), tensormap.replace (§9.7.8.25),
 * tensormap.cp_fenceproxy (§9.7.12.15.18).  exec/load.c decodes them with tma_decode (the
 * operand plan tells it which operand goes to which xinsn source slot), exec/async.c runs
 * them per lane with tma_run, giving it memory and mbarrier access through tma_io.
 *
 * Tensor-map layout (little-endian, offsets in bytes):
 *     0  u64    global address (16-byte aligned, 32 with 32B interleave)
 *     8  u32    magic 0x54585450 ("PTXT"): a map the encoder (or a copy of one) wrote
 *    12  u8     mode: 0 tiled, 1 im2col
 *    13  u8     rank - 1 (0..4; tensormap.replace .rank writes this zero-based value)
 *    14  u8     element type, the code of §9.7.8.25 Table 30 (0 .u8 ... 12 .tf32.ftz)
 *    15  u8     interleave: 0 none, 1 16B, 2 32B
 *    16  u8     swizzle: 0 none, 1 32B, 2 64B, 3 128B
 *    17  u8     OOB fill: 0 zeros, 1 OOB-NaN (NaN_REQUEST_ZERO_FMA)
 *    18  u8     L2 promotion: 0 none, 1 64B, 2 128B, 3 256B (a hint: no effect)
 *    19  u8     0
 *    20  u32[5] global dims (elements), dimension 0 innermost
 *    40  u64[4] global strides of dimensions 1..4 (bytes; dimension 0: the element size)
 *    72  u32[5] box dims (tiled: elements, 1..256; im2col: unused)
 *    92  u8[5]  element (traversal) strides, 1..8
 *    97  u8     0
 *    98  s16[3] im2col: pixel-box lower corner (W, H, D)
 *   104  s16[3] im2col: pixel-box upper corner (W, H, D)
 *   110  u16    im2col: channels per pixel (1..256)
 *   112  u16    im2col: pixels per column (1..1024)
 *   114  zero to 127 */
#ifndef PTX_EXEC_TMA_H
#define PTX_EXEC_TMA_H
#include <stddef.h>
#include <stdint.h>
#include "frontend/ptx_ast.h"
#include "ptx/mnemonic.h"

#define TMA_MAP_BYTES 128
#define TMA_MAGIC 0x54585450u

/* a tensor map, decoded */
typedef struct {
    uint64_t ga;
    int mode, rank, et, il, sw, fill, l2;
    uint32_t gdim[5];
    uint64_t gstr[5];   /* gstr[0] = element size */
    uint32_t box[5];
    uint8_t es[5];
    int16_t lo[3], hi[3];
    uint32_t cpp, ppc;
} tma_map;

/* Checks a map's fields (the rules of cuTensorMapEncodeTiled/Im2col); 0, or -1 with a reason. */
int tma_map_check(const tma_map *m, char *err, size_t errlen);
/* 128 bytes -> map (checked); 0, or -1 with a reason */
int tma_map_read(const uint8_t *b, tma_map *m, char *err, size_t errlen);
/* map -> 128 bytes */
void tma_map_write(const tma_map *m, uint8_t *b);
/* element size in bytes of a Table 30 code (0: not one) */
unsigned tma_elem_size(int et);

/* instruction forms */
enum { TM_LOAD = 1, TM_STORE, TM_REDUCE, TM_PREFETCH, TM_BULK_RED, TM_REPLACE, TM_CPFENCE };
/* how an operand becomes a source slot: an address (base + offset), a value of 16/32/64 bits */
enum { TO_ADDR = 1, TO_U16, TO_S32, TO_U32, TO_B64 };
#define TMA_MAXPLAN 12
typedef struct {
    int8_t slot, op, elem;   /* source slot; operand index; element of its vector (-1: none) */
    uint8_t how;             /* TO_* */
} tma_opnd;

typedef struct xtma {
    uint8_t form;            /* TM_* */
    uint8_t dim;             /* tensor forms: .1d-.5d */
    uint8_t im2col;          /* .im2col / .im2col_no_offs */
    uint8_t mbar, multicast;
    uint8_t red;             /* isa_atom_op of a reduction */
    uint8_t rtype;           /* cp.reduce.async.bulk: isa_type of the elements */
    uint8_t dsp, ssp;        /* SP_* of destination / source (replace: the map's space) */
    uint8_t field, ord;      /* tensormap.replace: field (PTX_Q_*) and ordinal */
    int nplan;
    tma_opnd plan[TMA_MAXPLAN];
    int64_t off[TMA_MAXPLAN];   /* address offsets of the slots (filled by exec/load.c) */
} xtma;

/* Decodes a tensor-memory instruction: fills t (form, qualifiers, operand plan).  0, or -1 with
 * a reason and *at the operand it is about (-1: the instruction). */
int tma_decode(const ptx_mnemonic *mn, const ptx_stmt *st, xtma *t, char *err, size_t errlen,
               int *at);

/* What the engine lends tma_run for one lane. */
typedef struct tma_io {
    void *ctx;
    /* host pointer of n bytes at a in space sp (SP_*), bounds- and alignment-checked; NULL
     * after a fault was reported */
    uint8_t *(*mem)(void *ctx, int sp, uint64_t a, unsigned n, unsigned align, int write,
                    const char *what);
    /* complete_tx(bytes) on the mbarrier at shared::cluster address a; -1 after a fault */
    int (*complete_tx)(void *ctx, uint64_t a, uint32_t bytes);
    /* report a fault of the instruction */
    void (*fail)(void *ctx, const char *msg);
} tma_io;

/* 1 for a warp-collective form (tensormap.cp_fenceproxy .sync.aligned, §9.7.12.15.18): lanes
 * whose operands are the same perform one copy between them */
int tma_collective(const xtma *t);

/* Runs one lane's instance; v[k] is the value of source slot k (without its offset).  0, or -1
 * after a fault. */
int tma_run(const xtma *t, const uint64_t *v, const tma_io *io);
#endif
