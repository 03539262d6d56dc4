/* frontend/cat_ast.h — the syntax tree of a loaded cat model, shared by the parser
 * (frontend/cat_parse.c) and the evaluator (solver/cat_eval.c); not a public interface.
 *
 * Scoping is resolved at load time.  Evaluation uses frames: the top level of the model (with
 * its includes) is one frame, and so is each function call, procedure call and `forall`
 * iteration.  A bound name is (up, slot): `up` frames outward from the current one, then the
 * slot.  `let … in`, match clauses and patterns take slots of the frame they occur in.  Every
 * node and string lives in the model's arena and is freed with it. */
#ifndef PTX_FRONTEND_CAT_AST_H
#define PTX_FRONTEND_CAT_AST_H
#include "frontend/cat.h"

typedef enum {
    CE_EMPTY,      /* 0 and {}: the empty set, relation or set of values */
    CE_VAR,        /* a bound name: up, slot */
    CE_BASE,       /* a name the engine provides: idx (base index) */
    CE_PRIM,       /* a builtin (cat_prim): idx */
    CE_TAG,        /* 'tag: idx (tag index) */
    CE_UNION,      /* a | b */
    CE_INTER,      /* a & b */
    CE_DIFF,       /* a \ b */
    CE_SEQ,        /* a ; b */
    CE_CROSS,      /* a * b (cartesian product of two sets) */
    CE_ADD,        /* a ++ b (add element a to set b) */
    CE_INV,        /* a^-1 */
    CE_PLUS,       /* a+ */
    CE_STAR,       /* a* */
    CE_OPT,        /* a? */
    CE_COMPL,      /* ~a */
    CE_BRACKET,    /* [a] */
    CE_APP,        /* a b: function a applied to b */
    CE_TUPLE,      /* (v[0], ..., v[n-1]); () when n = 0 */
    CE_SETLIT,     /* {v[0], ..., v[n-1]} (n >= 1) */
    CE_FUN,        /* fun pat -> a, whose calls use frames of `frame` slots */
    CE_LET,        /* let [rec] binds in a */
    CE_MATCH_TAG,  /* match a with tags[i] -> v[i] || _ -> b end (b may be NULL) */
    CE_MATCH_SET,  /* match a with {} -> b || s1 ++ s2 -> c end */
    CE_TRY         /* try a with b */
} cat_ek;

/* builtins: names bound before the model's first line (a model may shadow them) */
typedef enum {
    PRIM_ID,        /* id: [_] */
    PRIM_EMPTYSET,  /* emptyset: the empty set of events */
    PRIM_DOMAIN,    /* domain r */
    PRIM_RANGE,     /* range r */
    PRIM_TOID,      /* toid s = [s] (Dat3M's spelling) */
    PRIM_NEWSET,    /* newSet(): a fresh set chosen by the solver (Dat3M) */
    PRIM_NEWREL,    /* newRelation(): a fresh relation chosen by the solver (Dat3M) */
    PRIM_COUNT
} cat_prim;
extern const char *const cat_prim_names[PRIM_COUNT];   /* "id", "emptyset", … */

/* the deepest expression tree the parser builds (deeper input is refused) */
#define CAT_MAX_DEPTH 1000

typedef enum { CP_ID, CP_UNIT, CP_TUPLE } cat_pk;
/* a pattern: one name (n = 1), () (n = 0) or a tuple of n >= 2 names, bound to slots */
typedef struct { cat_pk k; int n; int *slot; const char **name; } cat_pat;

typedef struct cat_expr cat_expr;
typedef struct { cat_pat pat; cat_expr *rhs; int line, col; } cat_bind;

struct cat_expr {
    cat_ek k;
    int file, line, col;
    int depth;           /* height of the tree below, bounded by CAT_MAX_DEPTH */
    cat_expr *a, *b, *c;
    int up, slot;        /* CE_VAR */
    int idx;             /* CE_BASE, CE_PRIM, CE_TAG */
    const char *name;    /* CE_VAR, CE_BASE, CE_PRIM: as written; CE_FUN: the binding's name */
    int n;               /* CE_TUPLE, CE_SETLIT: elements; CE_MATCH_TAG: arms; CE_LET: binds */
    cat_expr **v;
    int *tags;           /* CE_MATCH_TAG */
    int s1, s2;          /* CE_MATCH_SET: slots of the element and of the rest */
    cat_pat pat;         /* CE_FUN */
    int frame;           /* CE_FUN */
    int rec;             /* CE_LET */
    cat_bind *binds;     /* CE_LET */
};

typedef enum { CI_LET, CI_CHECK, CI_PROC, CI_CALL, CI_ENUM, CI_FORALL } cat_ik;

typedef struct cat_instr cat_instr;
typedef struct { int n; cat_instr *v; } cat_block;

struct cat_instr {
    cat_ik k;
    int file, line, col;
    int rec, nb; cat_bind *binds;   /* CI_LET */
    cat_check_kind check;           /* CI_CHECK */
    int negated, flag, undef, site; /* CI_CHECK: site = index among the model's check sites */
    const char *as;                 /* CI_CHECK, CI_CALL: the `as` name, or NULL */
    cat_expr *e;                    /* CI_CHECK: the relation; CI_CALL: the procedure;
                                       CI_FORALL: the set iterated over */
    cat_expr *arg;                  /* CI_CALL */
    int slot;                       /* CI_PROC, CI_ENUM: where the name is bound */
    const char *name;               /* CI_PROC, CI_ENUM */
    cat_pat pat;                    /* CI_PROC: parameter; CI_FORALL: the element (slot 0) */
    int frame;                      /* CI_PROC, CI_FORALL: slots of the body's frame */
    cat_block body;                 /* CI_PROC, CI_FORALL */
    int ntags; int *tags;           /* CI_ENUM */
};

typedef struct { char *name; int file, line, col; } cat_base_info;
typedef struct { char *name; int type; } cat_tag_info;   /* type: the enum's index */

struct cat_model {
    struct cat_arena *arena;
    const char *name;
    cat_block top;
    int top_frame;                  /* slots of the top-level frame */
    int nbase; cat_base_info *base;
    int nfiles; const char **files;
    int ntags; cat_tag_info *tags;
    int nsites;                     /* check sites */
};

/* "file:line:col" of a node, for messages */
static inline const char *cat_file(const cat_model *m, int file) { return m->files[file]; }
#endif
