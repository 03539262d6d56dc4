/* ptx/opcodes.h — the opcode table (ptx/opcodes.def) as C: the enums ptx_kind and ptx_opcode,
 * the row tables, and the mnemonic lookup.  Everything is derived from the .def file; nothing
 * here names an instruction by hand.  All data is constant: thread-safe. */
#ifndef PTX_OPCODES_H
#define PTX_OPCODES_H
#include <stddef.h>
#include <stdint.h>

/* Kinds of instruction (KIND rows): the executor's dispatch enum. */
typedef enum {
#define KIND(name, doc) PTX_K_##name,
#include "ptx/opcodes.def"
    PTX_K_COUNT
} ptx_kind;

/* One value per OP row; PTX_I_NONE (0) is "no such mnemonic". */
typedef enum {
    PTX_I_NONE,
#define OP(id, mnemonic, kind, litmus, exec, section, title, doc) PTX_I_##id,
#include "ptx/opcodes.def"
    PTX_I_COUNT
} ptx_opcode;

/* The exec column. */
typedef enum { PTX_EX_NO, PTX_EX_IMPL, PTX_EX_NOP, PTX_EX_SYN } ptx_exec_status;

typedef struct {
    const char *id;         /* "CP_ASYNC_BULK": the row's C name without PTX_I_ */
    const char *mnemonic;   /* "cp.async.bulk" */
    uint8_t kind;           /* ptx_kind */
    uint8_t litmus;         /* 1: litmus tests may use it */
    uint8_t exec;           /* ptx_exec_status */
    const char *section;    /* "9.7.8.24.6" */
    const char *title;      /* the section's heading */
    const char *doc;        /* one line */
} ptx_opinfo;
extern const ptx_opinfo ptx_ops[PTX_I_COUNT];   /* [PTX_I_NONE] is an empty row */

typedef struct { const char *name, *doc; } ptx_kindinfo;
extern const ptx_kindinfo ptx_kinds[PTX_K_COUNT];

typedef struct { const char *section, *title; } ptx_groupinfo;
extern const ptx_groupinfo ptx_groups[];
extern const int ptx_ngroups;

/* The longest mnemonic of the table that text[0..len) begins with, ending at a '.' or at the
 * end (rows of kind SYNTAX excluded); its length in *base_len.  PTX_I_NONE when none.  For a
 * mnemonic documented in several sections this is its first row. */
ptx_opcode ptx_op_lookup(const char *text, size_t len, size_t *base_len);

/* "ld", "cp.async.bulk"; "" for PTX_I_NONE or an out-of-range value. */
const char *ptx_op_mnemonic(int op);
const char *ptx_kind_name(int kind);   /* "ALU" */
#endif
