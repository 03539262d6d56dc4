/* ptx/isa.h — the PTX instruction semantics shared by the executor and the litmus checker.
 *
 * This header is the one place where what an instruction *computes* is exposed.  The executor
 * (exec/) decodes the register computations of whole PTX modules with it; the litmus checker
 * (frontend/, model/) decodes the local ALU instructions of a litmus thread (add, setp, selp, ...)
 * and computes the value of an atom/red with it, so that both pillars agree bit for bit.  Which
 * mnemonics exist, and which of them are register computations, is the opcode table's business
 * (ptx/opcodes.def); the words of a mnemonic are split by the tokenizer (ptx/mnemonic.h).
 *
 * Values are raw bit patterns held in uint64_t (sub-word values zero-extended, predicates 0/1);
 * the type of a decoded instruction says how to interpret them (ISA 8.4 §5.2 fundamental types).
 */
#ifndef PTX_ISA_H
#define PTX_ISA_H

#include <stddef.h>
#include <stdint.h>

/* Fundamental types, ISA §5.2.2 (plus packed half types, §5.2.5). */
typedef enum {
    ISA_T_NONE = 0,
    ISA_T_PRED,
    ISA_T_B8,
    ISA_T_B16,
    ISA_T_B32,
    ISA_T_B64,
    ISA_T_B128,
    ISA_T_U8,
    ISA_T_U16,
    ISA_T_U32,
    ISA_T_U64,
    ISA_T_S8,
    ISA_T_S16,
    ISA_T_S32,
    ISA_T_S64,
    ISA_T_F16,
    ISA_T_F16X2,
    ISA_T_BF16,
    ISA_T_BF16X2,
    ISA_T_TF32,
    ISA_T_F32,
    ISA_T_F64,
    ISA_T_E4M3X2,
    ISA_T_E5M2X2,
    ISA_T_U16X2,
    ISA_T_S16X2, /* added: packed integer halves (§9.7.1.1 add, §9.7.1.12 min) */
    ISA_T_COUNT
} isa_type;

/* ".u32" or "u32" -> ISA_T_U32; ISA_T_NONE when not a type name. */
isa_type isa_type_parse(const char *s);
const char *isa_type_name(isa_type t);   /* "u32" */
unsigned isa_type_bits(isa_type t);      /* 32; 1 for pred */
int isa_type_is_signed(isa_type t);
int isa_type_is_float(isa_type t);
/* The value of the raw bits of a t-typed datum as a 64-bit integer: sign-extended when t is a
   signed integer type, zero-extended otherwise (ISA §5.2.2); ISA_T_NONE and 64-bit types: raw. */
int64_t isa_value(isa_type t, uint64_t raw);

/* A decoded register computation: semantics-table index plus modifiers.  Opaque to callers
 * beyond the accessors below; the layout belongs to ptx/isa.c. */
typedef struct isa_insn {
    int op;              /* index into isa_ops[] (its popcode names the opcode-table row) */
    isa_type type;       /* primary type suffix */
    isa_type type2;      /* secondary type (cvt source, setp/set operand type, ...) */
    isa_type type3;      /* third type (video .btype: vabsdiff4.dtype.atype.btype) */
    uint32_t mods;       /* modifier bits ISA_M_* */
    int cmp;             /* comparison operator for setp/set/slct ISA_CMP_* */
    int boolop;          /* .and/.or/.xor combine for setp/set */
    int rnd;             /* rounding modifier */
    int aux;             /* op-specific (prmt mode, shfl mode, ...) */
    /* video operand selectors (§9.7.16), set by isa_decode's defaults and isa_video_select:
     * scalar: code 0 = whole word, 1..4 = .b0...b3, 5/6 = .h0/.h1 (asel, bsel, dsel);
     * SIMD: asel/bsel hold the source index of element i in bits 3i..3i+2 (half-words 0..3 or
     * bytes 0..7 of the pair {b, a}), dsel the mask (bit i: element i is written) */
    uint16_t asel, bsel;
    uint8_t dsel;
} isa_insn;

/* Decode a register computation with all its modifiers, e.g. "add.s32", "mul.lo.u64",
 * "setp.lt.and.s32", "selp.b32", "mov.u32".  A bare mnemonic without a type ("add") gets the
 * default type given (the litmus dialect uses ISA_T_S64).  Returns 0, or -1 with a one-line
 * reason in err: the tokenizer's ("unknown mnemonic 'frob'", "unknown qualifier '.x'"), "ld is
 * not a register computation (load from memory, §9.7.8.8)" for memory, control flow and
 * synchronization (their users decode them with the tokenizer), or the rule broken. */
int isa_decode(const char *mnemonic, isa_type default_type, isa_insn *out, char *err,
               size_t errlen);

/* Class of a decoded instruction. */
enum {
    ISA_CLASS_PURE = 1, /* computes destination registers from source registers only */
    ISA_CLASS_OTHER = 2 /* isa_class of an invalid isa_insn (isa_decode decodes no others) */
};
int isa_class(const isa_insn *in);

/* Number of destination and source operands in PTX operand order (a setp with two predicate
 * destinations "p|q" counts 2 destinations; selp has 3 sources, the last being the predicate). */
int isa_ndst(const isa_insn *in);
int isa_nsrc(const isa_insn *in);

/* Evaluate a pure instruction for one thread.  Returns 0, or -1 with a reason (e.g. an operation
 * the table has no semantics for).  Division by zero etc. follow the ISA text, never trap. */
int isa_eval(const isa_insn *in, const uint64_t *src, uint64_t *dst, char *err, size_t errlen);

/* Atomic read-modify-write operations (ISA §9.7.12.5 atom, §9.7.12.6 red).  "sub", "mul" and
 * "div" are accepted because the Dat3M litmus dialect has them (LitmusPTX.g4 `operation`; sub =
 * add of the negated operand); PTX has none of the three. */
typedef enum {
    ISA_ATOM_NONE = 0, ISA_ATOM_ADD, ISA_ATOM_SUB, ISA_ATOM_EXCH, ISA_ATOM_CAS, ISA_ATOM_AND,
    ISA_ATOM_OR, ISA_ATOM_XOR, ISA_ATOM_MIN, ISA_ATOM_MAX, ISA_ATOM_INC, ISA_ATOM_DEC,
    ISA_ATOM_MUL, ISA_ATOM_DIV, ISA_ATOM_COUNT
} isa_atom_op;
isa_atom_op isa_atom_parse(const char *name);   /* "add" or ".add" */
const char *isa_atom_name(isa_atom_op op);
/* New memory value of an atom/red given the old one: b is the operand, c the cas swap value.
 * Returns 1 when the operation writes (0 for a cas whose comparison failed).  The value is
 * truncated to the type's width; t may be ISA_T_NONE (treated as 64-bit signed). */
int isa_atom_apply(isa_atom_op op, isa_type t, uint64_t old, uint64_t b, uint64_t c,
                   uint64_t *newv);

/* ------------------------------------------------------------------------------------------- */

/* Class for the extended-precision ops add.cc/addc/sub.cc/subc/mad.cc/madc (§9.7.2): register
 * only, but they read and/or write the carry flag CC.CF, so isa_eval refuses them; evaluate them
 * with isa_eval_cc. */
enum { ISA_CLASS_CARRY = 3 };

/* The low n bits of v (1 <= n <= 64) sign-extended to 64 bits (the bits above n ignored). */
static inline uint64_t isa_sext(uint64_t v, unsigned n)
{
    if (n >= 64) return v;
    uint64_t m = 1ull << (n - 1);
    return ((v & ((m << 1) - 1)) ^ m) - m;
}

/* Modifier bits in isa_insn.mods. */
enum {
    ISA_M_SAT = 1u << 0,  ISA_M_FTZ = 1u << 1,  ISA_M_APPROX = 1u << 2, ISA_M_FULL = 1u << 3,
    ISA_M_NAN = 1u << 4,  ISA_M_XORSIGN = 1u << 5, ISA_M_ABS = 1u << 6, ISA_M_RELU = 1u << 7,
    ISA_M_CC = 1u << 8,   ISA_M_SHIFTAMT = 1u << 9, ISA_M_CLAMP = 1u << 10, ISA_M_WRAP = 1u << 11,
    ISA_M_HI = 1u << 12,  ISA_M_LO = 1u << 13,  ISA_M_WIDE = 1u << 14, ISA_M_L = 1u << 15,
    ISA_M_R = 1u << 16,   ISA_M_NOFTZ = 1u << 17, ISA_M_SATFINITE = 1u << 18,
    ISA_M_PAIR = 1u << 19 /* setp/lop3 write a second predicate destination (p|q, d|p) */
};

/* isa_insn.cmp: comparison operators of set/setp (§9.7.5.1). */
enum { ISA_CMP_NONE = 0, ISA_CMP_EQ, ISA_CMP_NE, ISA_CMP_LT, ISA_CMP_LE, ISA_CMP_GT, ISA_CMP_GE,
       ISA_CMP_LO, ISA_CMP_LS, ISA_CMP_HI, ISA_CMP_HS, ISA_CMP_EQU, ISA_CMP_NEU, ISA_CMP_LTU,
       ISA_CMP_LEU, ISA_CMP_GTU, ISA_CMP_GEU, ISA_CMP_NUM, ISA_CMP_NAN, ISA_CMP_COUNT };
/* isa_insn.boolop: .and/.or/.xor of set/setp/lop3. */
enum { ISA_BOOL_NONE = 0, ISA_BOOL_AND, ISA_BOOL_OR, ISA_BOOL_XOR };
/* isa_insn.rnd: rounding modifiers (§9.7.3.3 float, §9.7.8.20 cvt integer rounding). */
enum { ISA_RND_NONE = 0, ISA_RND_RN, ISA_RND_RZ, ISA_RND_RM, ISA_RND_RP,
       ISA_RND_RNI, ISA_RND_RZI, ISA_RND_RMI, ISA_RND_RPI, ISA_RND_RNA };
/* isa_insn.aux: prmt mode (0 = generic, §9.7.8.7) or testp property (§9.7.3.1). */
enum { ISA_PRMT_GENERIC = 0, ISA_PRMT_F4E, ISA_PRMT_B4E, ISA_PRMT_RC8, ISA_PRMT_ECL,
       ISA_PRMT_ECR, ISA_PRMT_RC16 };
enum { ISA_TESTP_FINITE = 1, ISA_TESTP_INFINITE, ISA_TESTP_NUMBER, ISA_TESTP_NOTANUMBER,
       ISA_TESTP_NORMAL, ISA_TESTP_SUBNORMAL };

/* The opcode table (Lua-VM style): one entry per (mnemonic, selecting mode, type family).
 * eval computes ONE lane: it reads src[0..nsrc-1] and writes dst[0..ndst-1]; it does not
 * validate anything (isa_decode did), so the executor may call it directly per lane:
 *     isa_ops[in.op].eval(&in, dst, src);
 * eval is NULL for OTHER and CARRY entries. */
typedef void (*isa_eval_fn)(const isa_insn *in, uint64_t *dst, const uint64_t *src);
/* Warp-wide form of the same semantics (the executor's fast path): evaluates every lane l set in
 * `lanes` (bit l) as eval would, reading src[k][l] and writing dst[k][l] = result[k] & dmask[k].
 * Each src[k] / dst[k] is a 32-lane array (the executor's [register][lane] register file);
 * the caller passes ISA_WARP_NSRC sources and ISA_WARP_NDST destinations, the ones past
 * isa_nsrc/isa_ndst pointing to 32 zeros / a 32-lane scratch area.  A destination may be the
 * same array as a source (lane l only reads lane l).  It is generated in ptx/isa.c from the
 * entry's one-lane eval (macro EV), so an instruction's meaning is still written once; with all
 * 32 lanes set the lane loop has a constant trip count and no mask tests.  NULL where eval is. */
#define ISA_WARP_NSRC 5
#define ISA_WARP_NDST 4
typedef void (*isa_warp_fn)(const isa_insn *in, uint64_t *const dst[], const uint64_t *const src[],
                            const uint64_t dmask[], uint32_t lanes);
typedef struct isa_opinfo {
    const char *name;   /* base mnemonic, "mul" */
    const char *mode;   /* selecting modifier without the dot ("hi"), or NULL */
    uint8_t ndst, nsrc; /* PTX operand counts (setp/lop3: +1 dst, +1 src with .and/.or/.xor) */
    uint8_t cls;        /* ISA_CLASS_* */
    uint32_t types;     /* allowed primary types, bit (1u << isa_type) */
    uint32_t types2;    /* allowed secondary types (0: same as the primary type) */
    uint32_t mods;      /* allowed ISA_M_* bits */
    uint32_t flags;     /* decoder flags (ptx/isa.c) */
    isa_eval_fn eval;   /* one-lane semantics */
    isa_warp_fn eval_warp; /* the same, for a warp's lanes at once (generated from eval) */
    uint16_t popcode;   /* the row of the opcode table (ptx/opcodes.def, ptx_opcode) */
    const char *doc;    /* one line: what it computes and where the rule comes from */
} isa_opinfo;
extern const isa_opinfo isa_ops[];
extern const int isa_nops;
/* The warp-wide evaluation of a decoded instruction: isa_ops[in->op].eval_warp, or the one of
 * its exact form where ptx/isa.c has one (hot forms such as fma.rn.f32, cvt.rn.f32.u32: the
 * same semantics with the decoded instruction folded in at compile time). */
isa_warp_fn isa_warp_of(const isa_insn *in);
const char *isa_op_name(const isa_insn *in);   /* base mnemonic of a decoded instruction */
/* Bits of source operand k that the instruction reads (the rest of a wider value is ignored,
   as a register of that width would hold it). */
unsigned isa_src_bits(const isa_insn *in, int k);
/* The type of destination k (0 <= k < isa_ndst): the instruction's type, or the one the ISA
   gives that destination (.pred for setp/testp and a second destination, .u32 for popc clz
   bfind and cvt.pack, twice the width for .wide, .s32/.u32 for dp4a/dp2a). */
isa_type isa_dst_type(const isa_insn *in, int k);

/* Mark a decoded setp/lop3 as writing two destinations (p|q, d|p) even without .BoolOp;
 * then isa_ndst is 2 and eval writes dst[1].  dst must always have room for isa_ndst values.
 * (A negated predicate source {!}c is the caller's business: pass the already negated value.) */
void isa_set_pair(isa_insn *in);

/* Evaluate a pure or carry instruction for one thread with the carry flag CC.CF in *cc (0/1,
 * read by addc/subc/madc, written by .cc forms).  For pure instructions cc is untouched. */
int isa_eval_cc(const isa_insn *in, const uint64_t *src, uint64_t *dst, uint32_t *cc,
                char *err, size_t errlen);

/* isa_atom_apply also returns -1 for an operation/type pair it has no semantics for
 * (ISA_ATOM_NONE, inc/dec/and/or/xor on a float type). F32/F64 support add (round to nearest
 * even, §9.7.12.5), exch, cas, min, max. */

/* Semantic choices where the ISA text leaves freedom (documented at the eval functions too):
 *  - integer div by zero gives all ones (UINT_MAX, or -1 for signed); rem by zero gives a;
 *    MININT / -1 = MININT, MININT % -1 = 0 (§9.7.1.8/9: "unspecified, machine-specific").
 *  - fns with base > 31 (undefined) gives 0xffffffff.
 *  - f32 NaN results are the canonical 0x7fffffff ("unspecified NaN", §9.7.3); f64 keeps the
 *    host's (input) payload.  .approx ops are computed (near) correctly rounded, which is
 *    within every documented error bound.
 *  - A bare mnemonic takes default_type; if that type is not allowed but the bit-size type of
 *    the same width is (popc, shl, and, ... in the litmus dialect), that one is used.
 *  - Decoding is strict about what the spec makes mandatory or illegal (mode of mul/mad,
 *    rounding of fma and of cvt with floats, .sat only on s32, ...). */

/* ---------------------------------------------------------------------------------------------
 * Half precision and packing (ptx/isa.c).
 *
 * Values: .f16/.bf16 are 16-bit patterns in the low bits of the uint64_t; .f16x2/.bf16x2 hold
 * element 0 (the ISA's a[0:15]) in bits 15..0 and element 1 in bits 31..16; .e4m3x2/.e5m2x2
 * are 16-bit patterns with two 8-bit elements; .tf32 is an f32 bit pattern whose 13 low
 * fraction bits are zero (its layout is implementation defined, §5.2.3; this is ours).
 * All half/alternate-format arithmetic and conversions are done in software, bit-exactly:
 * one rounding, IEEE subnormals and overflow, ties-to-even for .rn.
 *
 * Operand order stays PTX order; the x2 forms need no special call:
 *   cvt.rn.f16x2.f32 d, a, b     isa_nsrc 2; d[31:16] = cvt(src[0] = a), d[15:0] = cvt(src[1] = b)
 *   cvt.rn.bf16x2.f32 d, a, b    likewise;  cvt.rn.satfinite.e4m3x2.f32 d, a, b: a -> d[15:8]
 *   cvt.rn.satfinite.e4m3x2.f16x2 d, a   a[31:16] -> d[15:8], a[15:0] -> d[7:0]
 *   cvt.rn.f16x2.e4m3x2 d, a     a[15:8] -> d[31:16], a[7:0] -> d[15:0]
 *   setp.lt.f16x2 p|q, a, b{, c} isa_ndst is ALWAYS 2 for .f16x2/.bf16x2 (no isa_set_pair
 *                                needed): dst[0] = p = BoolOp(a.lo < b.lo, c), dst[1] = q = the
 *                                same on the high halves.
 *   cvt.pack.sat.s16.s32 d, a, b     nsrc 2;  cvt.pack.sat.u8.s32.b32 d, a, b, c   nsrc 3
 *                                (.u2/.s2/.u4/.s4 are accepted there; aux = width | 0x100 signed)
 *
 * Canonical NaNs we return where the ISA says "unspecified NaN" or "canonical NaN": f16 0x7fff,
 * bf16 0x7fff, f32 0x7fffffff, f64 0x7fffffffffffffff (conversions from halves), tf32
 * 0x7fffffff, e4m3/e5m2 0x7f.  neg/abs on halves only change the sign bit (payload kept).
 * .relu maps -0.0 to +0.0 as well as negative values.  fma.oob is rejected at decode: the ISA
 * does not give the OOB-NaN encoding.
 * ------------------------------------------------------------------------------------------- */
enum { ISA_M_OOB = 1u << 20 };   /* fma.oob (decoded only to be refused with a reason) */
enum { ISA_M_ADD = 1u << 21 };   /* video secondary accumulate (vabsdiff4...add, §9.7.16.2.3) */
/* video (§9.7.16): secondary .min/.max of the scalar forms, vmad .po/.shr7/.shr15, a scalar
 * destination selector (d.b0 ... d.h1: merge into c), vmad operand negation -(a*b) / -c */
enum { ISA_M_VMIN = 1u << 22, ISA_M_VMAX = 1u << 23, ISA_M_PO = 1u << 24, ISA_M_SHR7 = 1u << 25,
       ISA_M_SHR15 = 1u << 26, ISA_M_VMERGE = 1u << 27, ISA_M_NEGP = 1u << 28,
       ISA_M_NEGC = 1u << 29 };

/* Video operand selectors and negation (§9.7.16), written on operands in PTX: `d.h0`,
 * `a.b2`, `b.h32`, `a.b3210`, `-c`.  After isa_decode of a video instruction the caller gives
 * each operand's suffix (without the dot): opnd 0 = d, 1 = a, 2 = b.
 *     isa_video_select(&in, 1, "b0", err, n);    // vadd.u32.u32.u32 d, a.b0, b
 * Scalar forms take .b0 .b1 .b2 .b3 .h0 .h1 on d, a, b; a selector on d makes the instruction
 * merge its result into c (isa_nsrc becomes 3).  vop2 takes .hxy on a/b and the mask .h0 .h1
 * .h10 on d; vop4 .bxyzw on a/b and a mask of byte digits on d.  isa_video_negate marks
 * operand 1 (a), 2 (b) or 3 (c) of vmad negated.  isa_is_video says whether a decoded
 * instruction takes them.  Return 0, or -1 with a reason. */
int isa_is_video(const isa_insn *in);
int isa_video_select(isa_insn *in, int opnd, const char *sel, char *err, size_t errlen);
int isa_video_negate(isa_insn *in, int opnd, char *err, size_t errlen);

/* §9.7.8.4 mov pack/unpack.  "mov.b32 d, {a, b}" and "mov.b64 {lo, hi}, x" share the mnemonic of
 * the scalar mov, so the caller that sees the braces turns a decoded scalar mov into the vector
 * form:
 *     isa_decode("mov.b32", ..., &in, ...);          // then, for  mov.b32 d, {a, b}:
 *     isa_mov_vector(&in, 0, 2, err, n);   // pack:   isa_ndst 1, isa_nsrc 2 (src[0] = a = low
 * bits) isa_mov_vector(&in, 1, 2, err, n);   // unpack: isa_ndst 2, isa_nsrc 1 (dst[0] = low bits)
 * nelem is 2 or 4; the element width is the type width / nelem (.b16: 2x8; .b32: 2x16, 4x8;
 * .b64: 2x32, 4x16).  Type must be .b16/.b32/.b64 (.b128 does not fit the value model).
 * Element i occupies bits [i*w, (i+1)*w); pack masks each source to w bits.  A sink '_' in an
 * unpack is the caller's business (evaluate, then don't write that dst).  After the call
 * in->aux = nelem and isa_ops[in->op].eval evaluates as usual.  Returns 0 or -1 with a reason. */
int isa_mov_vector(isa_insn *in, int unpack, int nelem, char *err, size_t errlen);

#endif
