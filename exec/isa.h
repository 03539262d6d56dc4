/* exec/isa.h — the PTX instruction semantics shared by the executor and the litmus checker.
 *
 * This header is the one place where what an instruction *computes* is exposed.  The executor
 * (exec/) decodes whole PTX modules with it; the litmus checker (frontend/, litmus/) decodes the
 * local ALU instructions of a litmus thread (add, setp, selp, ...) and the value computed by an
 * atom/red with it, so that both pillars agree bit for bit.
 *
 * Values are raw bit patterns held in uint64_t (sub-word values zero-extended, predicates 0/1);
 * the type of a decoded instruction says how to interpret them (ISA 8.4 §5.2 fundamental types).
 */
#ifndef PTX_EXEC_ISA_H
#define PTX_EXEC_ISA_H

#include <stddef.h>
#include <stdint.h>

/* Fundamental types, ISA §5.2.2 (plus packed half types, §5.2.5). */
typedef enum {
    ISA_T_NONE = 0,
    ISA_T_PRED,
    ISA_T_B8, ISA_T_B16, ISA_T_B32, ISA_T_B64, ISA_T_B128,
    ISA_T_U8, ISA_T_U16, ISA_T_U32, ISA_T_U64,
    ISA_T_S8, ISA_T_S16, ISA_T_S32, ISA_T_S64,
    ISA_T_F16, ISA_T_F16X2, ISA_T_BF16, ISA_T_BF16X2, ISA_T_TF32,
    ISA_T_F32, ISA_T_F64,
    ISA_T_E4M3X2, ISA_T_E5M2X2,
    ISA_T_COUNT
} isa_type;

/* ".u32" or "u32" -> ISA_T_U32; ISA_T_NONE when not a type name. */
isa_type isa_type_parse(const char *s);
const char *isa_type_name(isa_type t);   /* "u32" */
unsigned isa_type_bits(isa_type t);      /* 32; 1 for pred */
int isa_type_is_signed(isa_type t);
int isa_type_is_float(isa_type t);

/* A decoded (non-memory) instruction: opcode-table index plus modifiers.  Opaque to callers
 * beyond the accessors below; the layout belongs to exec/. */
typedef struct isa_insn {
    int op;              /* index into the opcode table (exec/ops.c) */
    isa_type type;       /* primary type suffix */
    isa_type type2;      /* secondary type (cvt source, setp/set operand type, ...) */
    uint32_t mods;       /* modifier bits (exec/ops.c) */
    int cmp;             /* comparison operator for setp/set/slct (exec/ops.c) */
    int boolop;          /* .and/.or/.xor combine for setp/set */
    int rnd;             /* rounding modifier */
    int aux;             /* op-specific (prmt mode, shfl mode, ...) */
} isa_insn;

/* Decode a mnemonic with all its modifiers, e.g. "add.s32", "mul.lo.u64", "setp.lt.and.s32",
 * "selp.b32", "mov.u32".  A bare mnemonic without a type ("add") gets the default type given
 * (the litmus dialect uses ISA_T_S64).  Returns 0, or -1 with a one-line reason in err. */
int isa_decode(const char *mnemonic, isa_type default_type, isa_insn *out, char *err, size_t errlen);

/* Class of a decoded instruction. */
enum { ISA_CLASS_PURE = 1,  /* computes destination registers from source registers only */
       ISA_CLASS_OTHER = 2  /* memory, control flow, synchronization: not evaluable by isa_eval */ };
int isa_class(const isa_insn *in);

/* Number of destination and source operands in PTX operand order (a setp with two predicate
 * destinations "p|q" counts 2 destinations; selp has 3 sources, the last being the predicate). */
int isa_ndst(const isa_insn *in);
int isa_nsrc(const isa_insn *in);

/* Evaluate a pure instruction for one thread.  Returns 0, or -1 with a reason (e.g. an operation
 * the table has no semantics for).  Division by zero etc. follow the ISA text, never trap. */
int isa_eval(const isa_insn *in, const uint64_t *src, uint64_t *dst, char *err, size_t errlen);

/* Atomic read-modify-write operations (ISA §9.7.13.5 atom, §9.7.13.6 red).  "sub" is accepted
 * because the public litmus dialect uses it (= add of the negated operand). */
typedef enum {
    ISA_ATOM_NONE = 0, ISA_ATOM_ADD, ISA_ATOM_SUB, ISA_ATOM_EXCH, ISA_ATOM_CAS, ISA_ATOM_AND,
    ISA_ATOM_OR, ISA_ATOM_XOR, ISA_ATOM_MIN, ISA_ATOM_MAX, ISA_ATOM_INC, ISA_ATOM_DEC,
    ISA_ATOM_COUNT
} isa_atom_op;
isa_atom_op isa_atom_parse(const char *name);   /* "add" or ".add" */
const char *isa_atom_name(isa_atom_op op);
/* New memory value of an atom/red given the old one: b is the operand, c the cas swap value.
 * Returns 1 when the operation writes (0 for a cas whose comparison failed).  The value is
 * truncated to the type's width; t may be ISA_T_NONE (treated as 64-bit signed). */
int isa_atom_apply(isa_atom_op op, isa_type t, uint64_t old, uint64_t b, uint64_t c, uint64_t *newv);

#endif
