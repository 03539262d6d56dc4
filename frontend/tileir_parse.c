/* frontend/tileir_parse.c — the Tile IR litmus front end (frontend/tileir.h, docs/tileir.md).
 *
 *   TILEIR NAME  "doc"*  { x = 0; i32 y = 0; }
 *   P0@cta 0,gpu 0 {
 *     %c1 = constant <i32: 1> : tile<i32>
 *     %t0 = store_ptr_tko weak %x, %c1 : tile<ptr<i32>>, tile<i32> -> token
 *     %t1 = store_ptr_tko release device %y, %c1 token=%t0 : tile<ptr<i32>>, tile<i32> -> token
 *   }
 *   P1@cta 1,gpu 0 { ... }
 *   exists (P1:r0 == 1 /\ P1:r1 == 0)
 *
 * The operations and their attributes are those of the Tile IR operations text
 * (../shared/spec/tile-ir-operations.txt §8.6.1-§8.6.4, §8.10.1-§8.10.2); `%x` names the
 * pointer to location x of the initial state.  Each memory operation becomes one PTX memory
 * instruction (lit_insn); make_token, join_tokens and constant only build values and tokens.
 * The token order (lit_thread.order) is computed from the tokens: every token carries the set
 * of memory operations it depends on. */
#include "frontend/tileir.h"
#include "frontend/litmus_build.h"
#include "base/alloc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TI_MAXOPS 256                 /* memory operations per tile block (trace events) */
typedef struct { uint64_t w[TI_MAXOPS / 64]; } tbits;

typedef enum { TV_TOKEN, TV_CONST, TV_REG } tvk;
typedef struct {
    char *name;                       /* as written, with '%' */
    tvk k;
    int64_t imm;                      /* TV_CONST */
    int reg;                          /* TV_REG: the thread's register */
    isa_type type;                    /* element type, ISA_T_NONE when not written */
    tbits carry;                      /* TV_TOKEN: the memory operations it depends on */
} tval;

typedef struct {
    parser *p;
    lit_thread *th;
    tval *v;
    int nv;
    tbits *after;                     /* per memory operation: the carry of its input token */
} tblock;

/* ---------- values ---------- */

static tval *find_val(tblock *b, const token *t)
{
    for (int i = 0; i < b->nv; i++)
        if ((int)strlen(b->v[i].name) == t->len && !memcmp(b->v[i].name, t->s, (size_t)t->len))
            return &b->v[i];
    return NULL;
}

/* a location of the initial state named by %x, -1 if none */
static int find_ptr(tblock *b, const token *t)
{
    if (t->k != TK_IDENT || t->s[0] != '%' || t->len < 2) return -1;
    char *n = xstrndup(t->s + 1, (size_t)t->len - 1);
    int s = lit_find_sym(b->p->t, n);
    free(n);
    return s;
}

static tval *def_val(tblock *b, const token *t, tvk k)
{
    parser *p = b->p;
    if (t->k != TK_IDENT || t->s[0] != '%' || t->len < 2) {
        lp_expect_fail(p, t, "a result such as '%t0'");
        return NULL;
    }
    if (find_val(b, t)) {
        lp_errat(p, t,
                 "found a second definition of '%.*s', expected each value defined once (SSA)",
                 t->len, t->s);
        return NULL;
    }
    if (find_ptr(b, t) >= 0) {
        lp_errat(p, t,
                 "found '%.*s' defined, expected a name that is not a location of the initial "
                 "state (%%x is the pointer to location x)",
                 t->len, t->s);
        return NULL;
    }
    b->v = xrealloc(b->v, (size_t)(b->nv + 1) * sizeof *b->v);
    tval *v = &b->v[b->nv++];
    memset(v, 0, sizeof *v);
    v->name = lp_tokstr(t);
    v->k = k;
    if (k == TV_REG) v->reg = lp_add_reg(b->th, v->name);
    return v;
}

/* ---------- words ---------- */

static isa_type elem_word(const token *t)
{
    static const struct { const char *w; isa_type t; } ty[] = {
        { "i8", ISA_T_S8 }, { "i16", ISA_T_S16 }, { "i32", ISA_T_S32 }, { "i64", ISA_T_S64 } };
    for (size_t i = 0; i < sizeof ty / sizeof ty[0]; i++)
        if (tok_is(t, ty[i].w)) return ty[i].t;
    return ISA_T_NONE;
}

static const char *ti_type_name(isa_type t)
{
    return t == ISA_T_S8    ? "i8"
           : t == ISA_T_S16 ? "i16"
           : t == ISA_T_S32 ? "i32"
           : t == ISA_T_S64 ? "i64"
                            : "?";
}

static int parse_elem(tblock *b, isa_type *ty)
{
    const token *t = lb_cur(b->p);
    *ty = elem_word(t);
    if (!*ty) {
        lp_expect_fail(
            b->p, t,
            "an integer element type i8, i16, i32 or i64 (floating-point and i1 tiles are "
            "not modelled)");
        return -1;
    }
    b->p->pos++;
    return 0;
}

/* memory_ordering_semantics (§8.6.2: weak relaxed acquire release acq_rel), restricted to the
   operation's variants: mask bit s for lit_sem s */
static int parse_sem(tblock *b, unsigned mask, const char *what, lit_sem *sem)
{
    static const char *const w[] = { "weak", "relaxed", "acquire", "release", "acq_rel" };
    const token *t = lb_cur(b->p);
    for (int s = 0; s < 5; s++)
        if (tok_is(t, w[s])) {
            if (!(mask >> s & 1)) {
                lp_errat(
                    b->p, t,
                    "found the semantics '%s', expected %s (tile-ir-operations.txt: 'The following "
                    "variants are not supported by this operation')",
                    w[s], what);
                return -1;
            }
            *sem = (lit_sem)s;
            b->p->pos++;
            return 0;
        }
    lp_expect_fail(b->p, t, what);
    return -1;
}

/* memory_scope: tl_blk -> .cta, device -> .gpu, sys -> .sys (docs/tileir.md); none on weak */
static int parse_scope(tblock *b, lit_sem sem, lit_scope *sc)
{
    const token *t = lb_cur(b->p);
    lit_scope s = tok_is(t, "tl_blk") ? SCOPE_CTA : tok_is(t, "device") ? SCOPE_GPU :
                  tok_is(t, "sys") ? SCOPE_SYS : SCOPE_NONE;
    *sc = SCOPE_NONE;
    if (sem == SEM_WEAK) {
        if (s != SCOPE_NONE) {
            lp_expect_fail(b->p, t,
                           "the pointer after 'weak' (a weak access has no scope, like PTX .weak)");
            return -1;
        }
        return 0;
    }
    if (s == SCOPE_NONE) {
        lp_expect_fail(b->p, t, "a memory scope: tl_blk, device or sys");
        return -1;
    }
    *sc = s;
    b->p->pos++;
    return 0;
}

/* ---------- operands ---------- */

static int parse_ptr(tblock *b, lit_insn *in)
{
    const token *t = lb_cur(b->p);
    int s = find_val(b, t) ? -1 : find_ptr(b, t);
    if (s < 0) {
        lp_expect_fail(b->p, t, "a pointer '%x' to a location x of the initial state");
        return -1;
    }
    in->addr = (lit_opnd){ .k = OPD_SYM, .sym = s };
    b->p->pos++;
    return 0;
}

static int parse_value(tblock *b, lit_opnd *o, isa_type *ty)
{
    const token *t = lb_cur(b->p);
    tval *v = t->k == TK_IDENT ? find_val(b, t) : NULL;
    if (!v || v->k == TV_TOKEN) {
        lp_expect_fail(b->p, t,
                       v ? "a tile value (this is a token)"
                         : "a tile value defined earlier in the tile block (constant, or the "
                           "result of a load or atomic)");
        return -1;
    }
    if (v->k == TV_CONST) *o = (lit_opnd){ .k = OPD_IMM, .imm = v->imm };
    else *o = (lit_opnd){ .k = OPD_REG, .reg = v->reg };
    if (v->type && !*ty) *ty = v->type;
    b->p->pos++;
    return 0;
}

static int parse_token_use(tblock *b, tbits *carry)
{
    const token *t = lb_cur(b->p);
    tval *v = t->k == TK_IDENT ? find_val(b, t) : NULL;
    if (!v || v->k != TV_TOKEN) {
        lp_expect_fail(b->p, t,
                       v ? "a token (this is a tile value)"
                         : "a token defined earlier in the tile block");
        return -1;
    }
    for (int k = 0; k < TI_MAXOPS / 64; k++) carry->w[k] |= v->carry.w[k];
    b->p->pos++;
    return 0;
}

/* [','] token = %t */
static int parse_token_arg(tblock *b, tbits *carry)
{
    parser *p = b->p;
    int comma = tok_punct(lb_cur(p), ',') && tok_is(lb_peek(p, 1), "token");
    if (!tok_is(lb_cur(p), "token") && !comma) return 0;
    p->pos += comma + 1;
    if (lb_expect(p, '=', "'=' after 'token'")) return -1;
    return parse_token_use(b, carry);
}

/* ---------- type signatures ---------- */

/* tile<T>, tile<ptr<T>> or token; *elem: T (ISA_T_NONE for token) */
static int parse_type(tblock *b, isa_type *elem, int *is_ptr)
{
    parser *p = b->p;
    *elem = ISA_T_NONE;
    *is_ptr = 0;
    if (tok_is(lb_cur(p), "token")) { p->pos++; return 0; }
    if (!tok_is(lb_cur(p), "tile")) {
        lp_expect_fail(p, lb_cur(p), "a type: tile<...> or token");
        return -1;
    }
    p->pos++;
    if (lb_expect(p, '<', "'<' after 'tile'")) return -1;
    if (tok_is(lb_cur(p), "ptr")) {
        p->pos++;
        *is_ptr = 1;
        if (lb_expect(p, '<', "'<' after 'ptr'") || parse_elem(b, elem) ||
            lb_expect(p, '>', "'>' closing ptr<"))
            return -1;
    } else if (!elem_word(lb_cur(p))) {
        lp_expect_fail(p, lb_cur(p),
                       "a scalar tile type such as tile<i32> or tile<ptr<i32>> (litmus tests use "
                       "0-d tiles; integer elements i8 i16 i32 i64)");
        return -1;
    } else if (parse_elem(b, elem)) return -1;
    return lb_expect(p, '>', "'>' closing the scalar tile type (0-d tiles only)");
}

/* [: T (, T)* [-> T (, T)*]]; *elem: the element type the types name (they must agree) */
static int parse_signature(tblock *b, isa_type *elem)
{
    parser *p = b->p;
    if (!tok_punct(lb_cur(p), ':')) return 0;
    p->pos++;
    for (int arrow = 0;;) {
        const token *at = lb_cur(p);
        isa_type e;
        int ptr;
        if (parse_type(b, &e, &ptr)) return -1;
        if (e && *elem && e != *elem) {
            lp_errat(p, at, "found the element type %s, expected %s as the other operands",
                     ti_type_name(e), ti_type_name(*elem));
            return -1;
        }
        if (e) *elem = e;
        if (tok_punct(lb_cur(p), ',')) { p->pos++; continue; }
        if (!arrow && tok_punct(lb_cur(p), '-') && tok_punct(lb_peek(p, 1), '>')) {
            p->pos += 2;
            arrow = 1;
            continue;
        }
        return 0;
    }
}

/* ---------- operations ---------- */

typedef struct {
    const token *res[2];              /* the results as written */
    int nres;
    int start;                        /* first token of the operation */
    const token *opc;                 /* the opcode */
} opctx;

static int want_results(tblock *b, const opctx *o, int lo, int hi, const char *what)
{
    if (o->nres >= lo && o->nres <= hi) return 0;
    lp_errat(b->p, o->nres ? o->res[0] : o->opc, "found %d result%s of '%.*s', expected %s",
             o->nres, o->nres == 1 ? "" : "s", o->opc->len, o->opc->s, what);
    return -1;
}

/* %c = constant <i32: 5> [: tile<i32>] */
static int op_constant(tblock *b, const opctx *o)
{
    parser *p = b->p;
    isa_type ty;
    if (want_results(b, o, 1, 1, "one (the constant)") ||
        lb_expect(p, '<', "'<' and a constant such as <i32: 1>") || parse_elem(b, &ty) ||
        lb_expect(p, ':', "':' between the element type and the value"))
        return -1;
    int neg = tok_punct(lb_cur(p), '-');
    if (neg) p->pos++;
    if (lb_cur(p)->k != TK_NUM) {
        lp_expect_fail(p, lb_cur(p), "an integer constant (scalar tiles only)");
        return -1;
    }
    uint64_t u = (uint64_t)lb_cur(p)->num;
    p->pos++;
    isa_type sig = ty;
    if (lb_expect(p, '>', "'>' closing the constant") || parse_signature(b, &sig)) return -1;
    tval *v = def_val(b, o->res[0], TV_CONST);
    if (!v) return -1;
    v->imm = isa_value(ty, neg ? 0 - u : u);
    v->type = ty;
    return 0;
}

/* %t = make_token | %t = join_tokens %a, %b, ... */
static int op_token(tblock *b, const opctx *o, int join)
{
    parser *p = b->p;
    tbits carry;
    memset(&carry, 0, sizeof carry);
    if (want_results(b, o, 1, 1, "one (the token)")) return -1;
    if (join) {
        do {
            if (tok_punct(lb_cur(p), ',')) p->pos++;
            if (parse_token_use(b, &carry)) return -1;
        } while (tok_punct(lb_cur(p), ','));
    }
    isa_type sig = ISA_T_NONE;
    if (parse_signature(b, &sig)) return -1;
    tval *v = def_val(b, o->res[0], TV_TOKEN);
    if (!v) return -1;
    v->carry = carry;
    return 0;
}

/* atomic_rmw_tko modes (§8.10.2) */
static int parse_mode(tblock *b, isa_atom_op *op, int *unsig)
{
    static const struct { const char *w; isa_atom_op op; int u; } m[] = {
        { "add", ISA_ATOM_ADD, 0 }, { "and", ISA_ATOM_AND, 0 }, { "or", ISA_ATOM_OR, 0 },
        { "xor", ISA_ATOM_XOR, 0 }, { "max", ISA_ATOM_MAX, 0 }, { "min", ISA_ATOM_MIN, 0 },
        { "umax", ISA_ATOM_MAX, 1 }, { "umin", ISA_ATOM_MIN, 1 }, { "xchg", ISA_ATOM_EXCH, 0 } };
    const token *t = lb_cur(b->p);
    for (size_t i = 0; i < sizeof m / sizeof m[0]; i++)
        if (tok_is(t, m[i].w)) { *op = m[i].op; *unsig = m[i].u; b->p->pos++; return 0; }
    lp_expect_fail(b->p, t,
                   "a mode: add, and, or, xor, max, min, umax, umin or xchg (addf: floating-point "
                   "tiles are not modelled)");
    return -1;
}

/* after the operands: a mask or padding value is refused */
static int no_mask(tblock *b)
{
    if (!tok_punct(lb_cur(b->p), ',')) return 0;
    lp_expect_fail(b->p, lb_cur(b->p),
                   "'token=%t', ':' and the signature, or the next operation (masks and "
                   "padding values are not modelled: scalar tiles)");
    return -1;
}

/* the element type of an access: the signature's, else the values', else the location's */
static int access_type(tblock *b, lit_insn *in, isa_type ty, int unsig, const token *at)
{
    const lit_sym *l = &b->p->t->sym[b->p->t->sym[in->addr.sym].loc];
    if (!ty && l->declared) ty = l->type;
    if (!ty && unsig) {
        lp_errat(
            b->p, at,
            "found umax/umin without an element type, expected a signature such as "
            "': tile<ptr<i32>>, tile<i32> -> tile<i32>, token' or a typed location ('i32 x = 0;')");
        return -1;
    }
    if (ty && unsig)
        ty = ty == ISA_T_S8    ? ISA_T_U8
             : ty == ISA_T_S16 ? ISA_T_U16
             : ty == ISA_T_S32 ? ISA_T_U32
                               : ISA_T_U64;
    in->type = ty;
    in->size = ty ? (int)isa_type_bits(ty) / 8 : 0;
    return 0;
}

enum {
    M_WEAK = 1 << SEM_WEAK,
    M_RLX = 1 << SEM_RELAXED,
    M_ACQ = 1 << SEM_ACQUIRE,
    M_REL = 1 << SEM_RELEASE,
    M_AR = 1 << SEM_ACQ_REL
};

/* The operands of a memory operation after its semantics and scope. */
static int mem_operands(tblock *b, lit_insn *in, isa_type *ty, int *unsig)
{
    parser *p = b->p;
    if (parse_ptr(b, in)) return -1;
    switch (in->k) {
    case LI_LD:
        return 0;
    case LI_ST:
        in->nsrc = 1;
        return lb_expect(p, ',', "',' and the value to store") || parse_value(b, &in->src[0], ty);
    default:
        if (in->aop == ISA_ATOM_CAS) {
            in->nsrc = 2;
            return lb_expect(p, ',', "',' and the value to compare against (cmp)") ||
                   parse_value(b, &in->src[0], ty) ||
                   lb_expect(p, ',', "',' and the value to swap in (val)") ||
                   parse_value(b, &in->src[1], ty);
        }
        in->nsrc = 1;
        return lb_expect(p, ',', "',' and the mode (add, xchg, ...)") ||
               parse_mode(b, &in->aop, unsig) || lb_expect(p, ',', "',' and the argument tile") ||
               parse_value(b, &in->src[0], ty);
    }
}

/* load_ptr_tko, store_ptr_tko, atomic_rmw_tko, atomic_cas_tko (§8.6.2, §8.6.4, §8.10.1, §8.10.2) */
static int op_memory(tblock *b, const opctx *o, lit_ikind k, int cas)
{
    parser *p = b->p;
    static const char *const what[] = { "weak, relaxed or acquire for load_ptr_tko",
                                        "weak, relaxed or release for store_ptr_tko",
                                        "relaxed, acquire, release or acq_rel for an atomic" };
    int w = k == LI_LD ? 0 : k == LI_ST ? 1 : 2;
    unsigned mask = w == 0   ? M_WEAK | M_RLX | M_ACQ
                    : w == 1 ? M_WEAK | M_RLX | M_REL
                             : M_RLX | M_ACQ | M_REL | M_AR;
    if (want_results(b, o, 0, k == LI_ST ? 1 : 2,
                     k == LI_ST ? "none or one (the token)"
                                : "none or two (the value and the token)") ||
        (k != LI_ST && o->nres == 1 &&
         want_results(b, o, 2, 2, "none or two (the value and the token)")))
        return -1;
    if (b->th->nins >= TI_MAXOPS) {
        lp_errat(p, o->opc,
                 "found more than %d memory operations in tile block %s, expected at most %d",
                 TI_MAXOPS, b->th->name, TI_MAXOPS);
        return -1;
    }
    lit_insn in;
    memset(&in, 0, sizeof in);
    in.k = k;
    in.guard = -1;
    in.aop = cas ? ISA_ATOM_CAS : ISA_ATOM_NONE;
    isa_type ty = ISA_T_NONE, sig = ISA_T_NONE;
    int unsig = 0;
    tbits carry;
    memset(&carry, 0, sizeof carry);
    if (parse_sem(b, mask, what[w], &in.sem) || parse_scope(b, in.sem, &in.scope) ||
        mem_operands(b, &in, &ty, &unsig) || no_mask(b) || parse_token_arg(b, &carry) ||
        parse_signature(b, &sig))
        return -1;
    if (access_type(b, &in, sig ? sig : ty, unsig, o->opc)) return -1;
    int idx = b->th->nins;
    tval *val = NULL, *tok = NULL;
    if (o->nres) {
        int ti = k == LI_ST ? 0 : 1;
        int vi = -1;
        if (k != LI_ST) {
            if (!def_val(b, o->res[0], TV_REG)) return -1;
            vi = b->nv - 1;
        }
        if (!(tok = def_val(b, o->res[ti], TV_TOKEN))) return -1;
        if (vi >= 0) val = &b->v[vi];   /* (def_val reallocates b->v) */
        tok->carry = carry;
        tok->carry.w[idx >> 6] |= 1ull << (idx & 63);
    }
    if (val) {
        val->type = in.type;
        in.dst[0] = (lit_opnd){ .k = OPD_REG, .reg = val->reg };
        in.ndst = 1;
    }
    lit_insn *dst = lb_add_insn(b->th, o->opc, lb_span_text(p, o->start, p->pos));
    char *text = dst->text;
    *dst = in;
    dst->text = text;
    dst->line = o->opc->line;
    dst->col = o->opc->col;
    b->after = xrealloc(b->after, (size_t)(idx + 1) * sizeof *b->after);
    b->after[idx] = carry;
    return 0;
}

/* [%a [, %b] =] OPCODE ... */
static int parse_op(tblock *b)
{
    parser *p = b->p;
    opctx o = { .start = p->pos };
    const token *t = lb_cur(p);
    if (t->k == TK_IDENT && t->s[0] == '%') {
        for (;;) {
            if (o.nres == 2) {
                lp_expect_fail(p, lb_cur(p), "'=' after at most two results");
                return -1;
            }
            if (lb_cur(p)->k != TK_IDENT || lb_cur(p)->s[0] != '%') {
                lp_expect_fail(p, lb_cur(p), "a result such as '%t0'");
                return -1;
            }
            o.res[o.nres++] = lb_cur(p);
            p->pos++;
            if (tok_punct(lb_cur(p), ',')) { p->pos++; continue; }
            if (lb_expect(p, '=', "'=' after the results")) return -1;
            break;
        }
    }
    o.opc = t = lb_cur(p);
    const char *s = t->s;
    int len = t->len;
    if (t->k == TK_IDENT && len > 10 && !strncmp(s, "cuda_tile.", 10)) { s += 10; len -= 10; }
#define IS(w) (t->k == TK_IDENT && len == (int)strlen(w) && !strncmp(s, w, (size_t)len))
    p->pos++;
    if (IS("constant")) return op_constant(b, &o);
    if (IS("make_token")) return op_token(b, &o, 0);
    if (IS("join_tokens")) return op_token(b, &o, 1);
    if (IS("load_ptr_tko")) return op_memory(b, &o, LI_LD, 0);
    if (IS("store_ptr_tko")) return op_memory(b, &o, LI_ST, 0);
    if (IS("atomic_rmw_tko")) return op_memory(b, &o, LI_ATOM, 0);
    if (IS("atomic_cas_tko")) return op_memory(b, &o, LI_ATOM, 1);
#undef IS
    p->pos--;
    lp_expect_fail(
        p, t,
        "a Tile IR operation: load_ptr_tko, store_ptr_tko, atomic_rmw_tko, atomic_cas_tko, "
        "make_token, join_tokens or constant");
    return -1;
}

/* The token order: i before j iff j's input token carries i (tokens carry transitively). */
static void token_order(tblock *b)
{
    lit_thread *th = b->th;
    int n = th->nins;
    if (!n) return;
    th->order = xcalloc((size_t)n * (size_t)n, 1);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            if (b->after[j].w[i >> 6] >> (i & 63) & 1)
                th->order[(size_t)i * (size_t)n + (size_t)j] = 1;
}

static int parse_block(parser *p)
{
    int ti = lb_parse_thread_head(p, 0, p->t->nth);
    if (ti < 0) return -1;
    tblock b = { .p = p, .th = &p->t->th[ti] };
    int rc = 0;
    while (!rc && !tok_punct(lb_cur(p), '}')) {
        if (lb_cur(p)->k == TK_EOF) {
            lp_expect_fail(p, lb_cur(p), "'}' closing the tile block");
            rc = -1;
            break;
        }
        rc = parse_op(&b);
        b.th = &p->t->th[ti];
    }
    if (!rc) { p->pos++; token_order(&b); }
    for (int i = 0; i < b.nv; i++) free(b.v[i].name);
    free(b.v);
    free(b.after);
    return rc;
}

/* A tile block runs on its own CTA (a kernel instance; docs/tileir.md): blocks share no CTA. */
static int distinct_ctas(parser *p, const token *const *heads)
{
    const lit_test *t = p->t;
    for (int i = 0; i < t->nth; i++)
        for (int j = 0; j < i; j++)
            if (t->th[i].gpu == t->th[j].gpu && t->th[i].cta == t->th[j].cta) {
                lp_errat(
                    p, heads[i],
                    "found tile blocks %s and %s on CTA %d of gpu %d, expected one CTA per tile "
                    "block (a tile block is a kernel instance)",
                    t->th[j].name, t->th[i].name, t->th[i].cta, t->th[i].gpu);
                return -1;
            }
    return 0;
}

lit_test *tileir_parse(const char *file, const char *text, int max_depth, char *err, size_t errlen)
{
    parser p;
    char *copy;
    const token **heads = NULL;
    int rc = lb_begin(&p, "TILEIR", file, text, max_depth, err, errlen, &copy);
    if (!rc) rc = lb_parse_init(&p);
    while (!rc && lb_cur(&p)->k == TK_IDENT && lb_cur(&p)->s[0] == 'P' &&
           (tok_punct(lb_peek(&p, 1), '@') || tok_punct(lb_peek(&p, 1), '{'))) {
        heads = xrealloc(heads, (size_t)(p.t->nth + 1) * sizeof *heads);
        heads[p.t->nth] = lb_cur(&p);
        rc = parse_block(&p);
    }
    if (!rc && !p.t->nth) {
        lp_expect_fail(&p, lb_cur(&p), "a tile block such as 'P0@cta 0,gpu 0 {'");
        rc = -1;
    }
    if (!rc) rc = distinct_ctas(&p, heads);
    if (!rc) rc = lp_check_program(&p);
    if (!rc) rc = lb_parse_tail(&p);
    free(heads);
    lb_end(&p, copy);
    if (rc || p.failed) { lit_free(p.t); return NULL; }
    return p.t;
}
