/* frontend/ptx_ast.h — syntax tree of a whole PTX module as the parser (ptx_parse.c) builds it:
 * module directives, variables with initialisers, functions with parameters and bodies of
 * instructions, labels, declarations and scopes (ISA 8.4 chapters 4-7, §9.7 instruction syntax).
 * Everything is plain data owned by ptx_module (freed by ptx_module_free). */
#ifndef PTX_FRONTEND_PTX_AST_H
#define PTX_FRONTEND_PTX_AST_H
#include <stddef.h>
#include <stdint.h>

typedef struct { int line, col; } ptx_pos;

/* State spaces, ISA §5.1. */
typedef enum { PTX_SP_NONE = 0, PTX_SP_REG, PTX_SP_SREG, PTX_SP_CONST, PTX_SP_GLOBAL,
               PTX_SP_LOCAL, PTX_SP_PARAM, PTX_SP_SHARED, PTX_SP_TEX, PTX_SP_GENERIC } ptx_space;

typedef enum {
    PTX_OP_REG,      /* %r1, %p, also special registers %tid.x (name kept; executor resolves) */
    PTX_OP_INT,      /* integer constant (ival) */
    PTX_OP_F32,      /* 0f... bit pattern (bits) */
    PTX_OP_F64,      /* 0d... bit pattern (bits) */
    PTX_OP_FLT,      /* decimal floating constant (fval) */
    PTX_OP_SYM,      /* symbol (variable, function, label) + ival offset */
    PTX_OP_ADDR,     /* [base+ival]: base is a register or symbol name, or NULL for [imm];
                        [tensorMap, {c0, ...}]: the coordinates in elems */
    PTX_OP_VEC,      /* {a, b, ...} vector operand: elems */
    PTX_OP_PAIR,     /* d|p destination pair (setp, shfl): elems[0], elems[1] */
    PTX_OP_SINK      /* _ */
} ptx_opnd_kind;

typedef struct ptx_opnd {
    ptx_opnd_kind kind;
    ptx_pos pos;
    const char *name;        /* register / symbol / address base */
    int neg;                 /* !%p (logical negation of a predicate source) */
    int minus;               /* -%r (arithmetic negation of a register: vmad, §9.7.16.1.3) */
    int64_t ival;            /* integer constant or address offset */
    uint64_t bits;           /* F32/F64 bit patterns */
    double fval;
    struct ptx_opnd *elems;  /* VEC / PAIR */
    int nelems;
} ptx_opnd;

/* A variable or parameter declaration (§5.1, §5.4 variables, §10 directives). */
typedef struct ptx_var {
    const char *name;
    ptx_space space;
    const char *type;        /* "u32", "b8", "pred", ... (without the dot) */
    int vec;                 /* 1, 2, 4 (.v2/.v4) */
    int align;               /* 0 = natural */
    int ndims;
    int64_t dims[4];         /* -1 = unsized [] */
    int is_ptr;              /* .ptr attribute on a kernel parameter */
    int linkage;             /* PTX_LINK_* bits */
    int nrange;              /* .reg %r<N>: N (0 = plain name) */
    /* initialiser: ninit scalars; each is a number, or a symbol address + offset */
    int ninit;
    struct ptx_init { int kind; /* 0 int, 1 float, 2 f32 bits, 3 f64 bits, 4 symbol */
                      uint64_t u; double d; const char *sym; int64_t off; } *init;
    ptx_pos pos;
} ptx_var;

enum { PTX_LINK_VISIBLE = 1, PTX_LINK_EXTERN = 2, PTX_LINK_WEAK = 4, PTX_LINK_COMMON = 8 };

typedef enum { PTX_ST_INSN, PTX_ST_LABEL, PTX_ST_DECL, PTX_ST_OPEN, PTX_ST_CLOSE,
               PTX_ST_PROTO, PTX_ST_BTARGETS } ptx_stmt_kind;

typedef struct ptx_stmt {
    ptx_stmt_kind kind;
    ptx_pos pos;
    /* INSN */
    const char *guard;       /* predicate register name or NULL */
    int guard_neg;
    const char *opcode;      /* full mnemonic with modifiers, e.g. "ld.global.nc.v2.f32" */
    ptx_opnd *ops; int nops;
    const char *text;        /* the instruction's source text (for error messages) */
    int src_file, src_line;  /* last .loc before it (0 = none) */
    /* LABEL / PROTO / BTARGETS: name; DECL: var; BTARGETS (`name: .branchtargets L0, L1;`): the
     * labels in ops (PTX_OP_SYM) */
    const char *name;
    ptx_var var;
    /* PROTO (.callprototype): return and argument parameter lists */
    ptx_var *pret; int npret; ptx_var *pargs; int npargs;
} ptx_stmt;

typedef struct ptx_func {
    const char *name;
    int is_entry;
    int linkage;
    int has_body;
    ptx_var *params; int nparams;
    ptx_var *rets; int nrets;
    ptx_stmt *body; int nbody;
    int reqntid[3], maxntid[3];
    int maxnreg, minnctapersm;        /* performance-tuning directives (§11.4); 0 = not given */
    int reqnctapercluster[3];         /* 0 = not given */
    int explicitcluster;
    ptx_pos pos;
} ptx_func;

typedef struct ptx_module {
    const char *filename;
    int version_major, version_minor;
    char target[64];
    int address_size;
    ptx_var *vars; int nvars;
    ptx_func *funcs; int nfuncs;
    const char **files; int nfiles;   /* .file index -> name (index 0 unused) */
    void *arena;                      /* owned allocations */
} ptx_module;
#endif
