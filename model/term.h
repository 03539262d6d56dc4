/* model/term.h — symbolic values: the bit-vector terms a litmus thread computes with.
 *
 * A read returns a variable (the raw bits of the bytes it reads); registers, written values,
 * the success of a compare-and-swap and branch conditions are terms over those variables.  A
 * term is a node of a hash-consed DAG in a store (mterms), so two equal terms are the same
 * index, and a node whose operands are constants is folded at once: a thread that never reads
 * computes with constants only, exactly as before.  Widths are 1..64 bits; width-1 terms are
 * the Booleans (conditions, guards).  The C semantics of every operator is mt_apply (term.c);
 * solver/term_z3.c encodes the same operators for Z3 (tests/test_terms.c checks the two agree,
 * and model/term_isa.c's translation of PTX register computations against ptx/isa.c).
 * Value sets (mt_values) evaluate a term over the value domains of its variables: the model
 * uses them to decide branches whose outcome is fixed and to make a value concrete where the
 * program needs one (an address, an operation without a term form). */
#ifndef PTX_MODEL_TERM_H
#define PTX_MODEL_TERM_H
#include <stddef.h>
#include <stdint.h>

typedef enum {
    MT_CONST,    /* k */
    MT_VAR,      /* variable k (mterms.var[k]) */
    MT_ZEXT,     /* a zero-extended (or truncated) to w bits */
    MT_SEXT,     /* a sign-extended (or truncated) to w bits */
    MT_EXTRACT,  /* bits [lo, lo + w) of a */
    MT_NOT,      /* ~a */
    MT_NEG,      /* -a */
    MT_ADD, MT_SUB, MT_MUL, MT_AND, MT_OR, MT_XOR,
    MT_SHL, MT_LSHR, MT_ASHR,   /* a shifted by b (b >= w: 0, 0, all sign bits) */
    MT_EQ, MT_ULT, MT_SLT,      /* width 1 */
    MT_ITE,      /* a (width 1) ? b : c */
    MT_FADD32,   /* f32 a + b, round to nearest even, NaN -> 0x7fffffff (isa_atom_apply add.f32) */
    MT_COUNT
} mt_op;

typedef struct {
    uint8_t op, w, lo;
    int a, b, c;
    uint64_t k;
} mt_node;

/* A variable: the value a read event returns (its raw bytes [off, off+size) of loc). */
typedef struct { int thread, loc, off, size; } mt_varinfo;

typedef struct {
    mt_node *n;
    int nn, cap;
    int *tab;                /* hash table of node ids, -1 empty */
    unsigned tcap;
    mt_varinfo *var;
    int nvar, capvar;
    int T, F;                /* the width-1 constants 1 and 0 */
    size_t bytes;            /* memory held */
} mterms;

void mt_init(mterms *s);
void mt_free(mterms *s);

int mt_const(mterms *s, unsigned w, uint64_t v);
int mt_var(mterms *s, unsigned w, mt_varinfo info);
/* ZEXT, SEXT (to width w), NOT, NEG (w ignored: a's width) */
int mt_op1(mterms *s, mt_op op, unsigned w, int a);
int mt_extract(mterms *s, unsigned w, unsigned lo, int a);
/* ADD..ASHR, EQ, ULT, SLT, FADD32: a and b of one width */
int mt_op2(mterms *s, mt_op op, int a, int b);
int mt_ite(mterms *s, int c, int a, int b);

/* derived forms */
int mt_not1(mterms *s, int a);                 /* Boolean not */
int mt_and1(mterms *s, int a, int b);
int mt_or1(mterms *s, int a, int b);
int mt_ne(mterms *s, int a, int b);
int mt_ule(mterms *s, int a, int b);
int mt_sle(mterms *s, int a, int b);
int mt_mask(mterms *s, int a, unsigned bits); /* a & (2^bits - 1), a's width kept */
/* a 64-bit term as ptx/isa.c's isa_value reads its low bits as type t (isa_type) */
int mt_value_as(mterms *s, int t, int a);

static inline unsigned mt_width(const mterms *s, int t) { return s->n[t].w; }
static inline int mt_is_const(const mterms *s, int t) { return s->n[t].op == MT_CONST; }
static inline uint64_t mt_constval(const mterms *s, int t) { return s->n[t].k; }

/* The C semantics of one operator on values of width w (aw: the width of a; lo for EXTRACT). */
uint64_t mt_apply(mt_op op, unsigned w, unsigned lo, unsigned aw, uint64_t a, uint64_t b,
                  uint64_t c);
/* The value of t when variable v has the value val[v]. */
uint64_t mt_eval(const mterms *s, int t, const uint64_t *val);

/* The values a variable may take: fills *vals (malloc'd) and returns how many, or -1 when not
   known (too many). */
typedef int (*mt_domain_fn)(void *ctx, const mt_varinfo *v, uint64_t **vals);
/* The values t may take when every term of guards[0..ng) holds (1) and each variable takes a
   value of its domain (the guards that share variables with t restrict the combinations).
   Fills *out (malloc'd, sorted) and returns the count, or -1 when they are not known: a
   domain is not, or there are more than `max` values or 65536 combinations. */
int mt_values(const mterms *s, int t, const int *guards, int ng, mt_domain_fn dom, void *ctx,
              uint64_t **out, int max);
/* 1 (0) when t holds (fails) for every value, by the guards alone or by mt_values; else -1. */
int mt_decide(const mterms *s, int t, const int *guards, int ng, mt_domain_fn dom, void *ctx);
/* The variables t depends on (appended to *vars, n in/out, at most cap). */
int mt_vars(const mterms *s, int t, int *vars, int n, int cap);

#endif
