/* frontend/cat_parse.c — the cat parser: tokens to the syntax tree of frontend/cat_ast.h,
 * with includes expanded and every name resolved to a frame slot, a builtin or a base name.
 *
 * Grammar (herd's manual, "Model definitions"; Dat3M's Cat.g4 spellings), loosest first:
 *   expr   := 'fun' pat '->' expr | 'let' ['rec'] binds 'in' expr | 'match' … 'end'
 *           | 'try' expr 'with' expr | union
 *   union  := addset ('|' union)?          addset := seq ('++' addset)?      (right)
 *   seq    := diff (';' seq)?              diff   := inter ('\' inter)*      (left)
 *   inter  := cross ('&' inter)?           cross  := unary ('*' unary)?      (non-assoc.)
 *   unary  := '~' unary | app              app    := postfix postfix*        (application)
 *   postfix:= simple ('^-1' | '-1' | '+' | '^+' | '*' | '^*' | '?')*
 *   simple := name | '0' | 'tag | '(' ')' | '(' expr {',' expr} ')' | '[' expr ']'
 *           | '{' '}' | '{' expr {',' expr} '}' | 'begin' expr 'end'
 * A '*' after an expression is the cartesian product when what follows can start an operand,
 * else the reflexive-transitive closure.  '&' binds tighter than '\' as in Dat3M's grammar (the
 * manual's list says otherwise; docs/cat.md).  | ; & are associative: their chains are built as
 * balanced trees, so a long union is not a deep tree.  Errors unwind with longjmp: every
 * allocation is in the model's arena, so a failed load frees it and leaks nothing. */
#include "frontend/cat_ast.h"
#include "frontend/cat_lex.h"
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_FILE_BYTES (64 << 20)

typedef struct { const char *name; int unit, slot; } vis_t;

typedef struct {
    jmp_buf jb;
    cat_model *m;
    cat_arena *A;
    char *err;
    size_t errlen;
    cat_tok *t;                 /* tokens of the file being parsed */
    int nt, pos, file;
    const char *const *search;
    int nsearch;
    char **incl;                /* canonical paths of the files loaded */
    int nincl, capincl;
    vis_t *vis;                 /* names in scope, innermost last */
    int nvis, capvis;
    int *uslots;                /* slots taken in each open frame (unit), innermost last */
    int nunit, capunit;
    int dead;                   /* > 0: parsing code that is never run (no resolution) */
    int rdepth;                 /* recursion depth of the expression parser */
    int capbase, capfiles, captags;
} parser;

const char *const cat_prim_names[PRIM_COUNT] = {
    [PRIM_ID] = "id", [PRIM_EMPTYSET] = "emptyset", [PRIM_DOMAIN] = "domain",
    [PRIM_RANGE] = "range", [PRIM_TOID] = "toid", [PRIM_NEWSET] = "newSet",
    [PRIM_NEWREL] = "newRelation",
};

/* ---------- errors and memory ---------- */

static _Noreturn void fail_at(parser *P, int file, int line, int col, const char *fmt, ...)
{
    if (P->err && P->errlen) {
        int o = snprintf(P->err, P->errlen, "%s:%d:%d: ", P->m->files[file], line, col);
        if (o >= 0 && (size_t)o < P->errlen) {
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(P->err + o, P->errlen - (size_t)o, fmt, ap);
            va_end(ap);
        }
    }
    longjmp(P->jb, 1);
}

static const cat_tok *cur(const parser *P) { return &P->t[P->pos]; }
static cat_tk curk(const parser *P) { return P->t[P->pos].k; }
static cat_tk nextk(const parser *P) { return P->pos + 1 < P->nt ? P->t[P->pos + 1].k : CT_EOF; }

/* "found <the current token>, expected <what>" */
static _Noreturn void fail_tok(parser *P, const cat_tok *t, const char *fmt, ...)
{
    char found[96], exp[512];
    cat_tok_describe(t, found, sizeof found);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(exp, sizeof exp, fmt, ap);
    va_end(ap);
    fail_at(P, P->file, t->line, t->col, "found %s, expected %s", found, exp);
}

static void *alloc(parser *P, size_t n)
{
    void *p = cat_arena_alloc(P->A, n);
    if (!p) fail_at(P, P->file, cur(P)->line, cur(P)->col, "found more than memory allows, "
                    "expected a smaller model");
    return p;
}

/* grows an arena array v of *cap elements so that it holds n + 1 */
static void *grow(parser *P, void *v, int n, int *cap, size_t el)
{
    if (n < *cap) return v;
    if (*cap > INT_MAX / 4) fail_at(P, P->file, cur(P)->line, cur(P)->col,
                                    "found too many items, expected a smaller model");
    int nc = *cap ? *cap * 2 : 8;
    void *nv = alloc(P, (size_t)nc * el);
    if (n) memcpy(nv, v, (size_t)n * el);
    *cap = nc;
    return nv;
}

static char *tokstr(parser *P, const cat_tok *t)
{
    char *s = cat_arena_strndup(P->A, t->s, (size_t)t->len);
    if (!s) alloc(P, SIZE_MAX / 2);   /* reports the failure */
    return s;
}

static int accept(parser *P, cat_tk k)
{
    if (curk(P) != k) return 0;
    P->pos++;
    return 1;
}

static const cat_tok *expect(parser *P, cat_tk k, const char *what)
{
    if (curk(P) != k) fail_tok(P, cur(P), "%s", what);
    return &P->t[P->pos++];
}

/* ---------- scopes ---------- */

static void unit_push(parser *P)
{
    P->uslots = grow(P, P->uslots, P->nunit, &P->capunit, sizeof *P->uslots);
    P->uslots[P->nunit++] = 0;
}

static int unit_pop(parser *P) { return P->uslots[--P->nunit]; }

static int new_slot(parser *P) { return P->uslots[P->nunit - 1]++; }

static void vis_push(parser *P, const char *name, int slot)
{
    P->vis = grow(P, P->vis, P->nvis, &P->capvis, sizeof *P->vis);
    P->vis[P->nvis++] = (vis_t){ name, P->nunit - 1, slot };
}

static int tok_eq(const cat_tok *t, const char *s)
{
    return (int)strlen(s) == t->len && !memcmp(t->s, s, (size_t)t->len);
}

static int base_index(parser *P, const cat_tok *t)
{
    cat_model *m = P->m;
    for (int i = 0; i < m->nbase; i++)
        if (tok_eq(t, m->base[i].name)) return i;
    m->base = grow(P, m->base, m->nbase, &P->capbase, sizeof *m->base);
    m->base[m->nbase] = (cat_base_info){ tokstr(P, t), P->file, t->line, t->col };
    return m->nbase++;
}

static cat_expr *mk(parser *P, cat_ek k, const cat_tok *at)
{
    cat_expr *e = alloc(P, sizeof *e);
    e->k = k;
    e->file = P->file;
    e->line = at->line;
    e->col = at->col;
    return e;
}

static cat_expr *mk_op(parser *P, cat_ek k, cat_expr *a, cat_expr *b)
{
    cat_expr *e = alloc(P, sizeof *e);
    e->k = k;
    e->file = a->file; e->line = a->line; e->col = a->col;
    e->a = a; e->b = b;
    e->depth = 1 + (b && b->depth > a->depth ? b->depth : a->depth);
    if (e->depth > CAT_MAX_DEPTH)
        fail_at(P, a->file, a->line, a->col, "found an expression nested deeper than %d levels, "
                "expected a shallower one", CAT_MAX_DEPTH);
    return e;
}

/* a name in an expression: bound name, builtin, or base name */
static cat_expr *resolve(parser *P, const cat_tok *t)
{
    cat_expr *e = mk(P, CE_EMPTY, t);
    e->name = tokstr(P, t);
    if (P->dead) return e;
    for (int i = P->nvis - 1; i >= 0; i--)
        if (tok_eq(t, P->vis[i].name)) {
            e->k = CE_VAR;
            e->up = P->nunit - 1 - P->vis[i].unit;
            e->slot = P->vis[i].slot;
            return e;
        }
    if (!tok_eq(t, "_"))
        for (int i = 0; i < PRIM_COUNT; i++)
            if (tok_eq(t, cat_prim_names[i])) {
                e->k = CE_PRIM;
                e->idx = i;
                return e;
            }
    e->k = CE_BASE;
    e->idx = base_index(P, t);
    return e;
}

static int tag_index(parser *P, const cat_tok *t)
{
    for (int i = 0; i < P->m->ntags; i++)
        if (tok_eq(t, P->m->tags[i].name)) return i;
    return -1;
}

/* ---------- expressions ---------- */

static cat_expr *parse_expr(parser *P);
static cat_expr *parse_postfix(parser *P);

static int starts_simple(cat_tk k)
{
    return k == CT_NAME || k == CT_NUM || k == CT_TAG || k == CT_LPAR || k == CT_LBRAC ||
           k == CT_LBRACE || k == CT_BEGIN;
}

static int is_check_kw(cat_tk k) { return k == CT_ACYCLIC || k == CT_IRREFLEXIVE || k == CT_EMPTY; }

/* can the token at pos start an operand of an infix operator? */
static int starts_operand(const parser *P, int pos)
{
    cat_tk k = P->t[pos].k;
    if (starts_simple(k) || k == CT_FUN || k == CT_MATCH || k == CT_TRY) return 1;
    return k == CT_TILDE && pos + 1 < P->nt && !is_check_kw(P->t[pos + 1].k);
}

static int starts_expr(cat_tk k)
{
    return starts_simple(k) || k == CT_TILDE || k == CT_FUN || k == CT_LET || k == CT_MATCH ||
           k == CT_TRY || k == CT_INSTRUCTIONS;
}

/* an expression after the operator or keyword token t */
static cat_expr *expr_after(parser *P, const cat_tok *t)
{
    if (!starts_expr(curk(P))) fail_tok(P, cur(P), "an expression after '%.*s'", t->len, t->s);
    return parse_expr(P);
}

static cat_pat parse_pat(parser *P, int bind);

static cat_expr *parse_paren(parser *P)
{
    const cat_tok *open = &P->t[P->pos++];
    if (accept(P, CT_RPAR)) return mk(P, CE_TUPLE, open);
    cat_expr *e = expr_after(P, open);
    if (curk(P) == CT_COMMA) {
        cat_expr **v = NULL;
        int n = 0, cap = 0, depth = e->depth;
        v = grow(P, v, n, &cap, sizeof *v);
        v[n++] = e;
        while (accept(P, CT_COMMA)) {
            v = grow(P, v, n, &cap, sizeof *v);
            v[n] = expr_after(P, &P->t[P->pos - 1]);
            if (v[n]->depth > depth) depth = v[n]->depth;
            n++;
        }
        e = mk(P, CE_TUPLE, open);
        e->n = n; e->v = v; e->depth = depth + 1;
    }
    if (curk(P) != CT_RPAR)
        fail_tok(P, cur(P), "')' to close the '(' at %d:%d", open->line, open->col);
    P->pos++;
    return e;
}

static cat_expr *parse_setlit(parser *P)
{
    const cat_tok *open = &P->t[P->pos++];
    if (accept(P, CT_RBRACE)) return mk(P, CE_EMPTY, open);
    cat_expr **v = NULL;
    int n = 0, cap = 0, depth = 0;
    do {
        v = grow(P, v, n, &cap, sizeof *v);
        v[n] = expr_after(P, &P->t[P->pos - 1]);
        if (v[n]->depth > depth) depth = v[n]->depth;
        n++;
    } while (accept(P, CT_COMMA));
    if (curk(P) != CT_RBRACE)
        fail_tok(P, cur(P), "'}' to close the '{' at %d:%d", open->line, open->col);
    P->pos++;
    cat_expr *e = mk(P, CE_SETLIT, open);
    e->n = n; e->v = v; e->depth = depth + 1;
    return e;
}

static cat_expr *parse_simple(parser *P)
{
    const cat_tok *t = cur(P);
    switch (t->k) {
    case CT_NAME:
        P->pos++;
        return resolve(P, t);
    case CT_NUM:
        if (!tok_eq(t, "0"))
            fail_tok(P, t, "an expression (the only number in cat is 0, the empty relation)");
        P->pos++;
        return mk(P, CE_EMPTY, t);
    case CT_TAG: {
        P->pos++;
        cat_expr *e = mk(P, CE_TAG, t);
        e->idx = tag_index(P, t);
        if (e->idx < 0 && !P->dead)
            fail_tok(P, t, "a tag declared by an earlier 'enum'");
        if (e->idx < 0) e->k = CE_EMPTY;
        return e;
    }
    case CT_LPAR:
        return parse_paren(P);
    case CT_LBRACE:
        return parse_setlit(P);
    case CT_LBRAC: {
        P->pos++;
        cat_expr *e = mk_op(P, CE_BRACKET, expr_after(P, t), NULL);
        e->line = t->line; e->col = t->col; e->file = P->file;
        if (curk(P) != CT_RBRAC)
            fail_tok(P, cur(P), "']' to close the '[' at %d:%d", t->line, t->col);
        P->pos++;
        return e;
    }
    case CT_BEGIN: {
        P->pos++;
        cat_expr *e = expr_after(P, t);
        if (curk(P) != CT_END)
            fail_tok(P, cur(P), "'end' to close the 'begin' at %d:%d", t->line, t->col);
        P->pos++;
        return e;
    }
    case CT_INSTRUCTIONS:
        fail_tok(P, t, "an expression other than herd's 'instructions' construct, which "
                 "ptxlitmus does not support (docs/cat.md)");
    default:
        fail_tok(P, t, "an expression");
    }
}

static cat_expr *parse_postfix(parser *P)
{
    cat_expr *e = parse_simple(P);
    for (;;) {
        cat_ek k;
        switch (curk(P)) {
        case CT_INV: k = CE_INV; break;
        case CT_PLUS: case CT_HATPLUS: k = CE_PLUS; break;
        case CT_HATSTAR: k = CE_STAR; break;
        case CT_QUEST: k = CE_OPT; break;
        case CT_STAR:
            if (starts_operand(P, P->pos + 1)) return e;   /* cartesian product */
            k = CE_STAR;
            break;
        default: return e;
        }
        P->pos++;
        e = mk_op(P, k, e, NULL);
    }
}

static cat_expr *parse_app(parser *P)
{
    cat_expr *f = parse_postfix(P);
    while (starts_simple(curk(P))) f = mk_op(P, CE_APP, f, parse_postfix(P));
    return f;
}

static cat_expr *parse_fun(parser *P);
static cat_expr *parse_letin(parser *P);
static cat_expr *parse_match(parser *P);

static cat_expr *parse_unary(parser *P)
{
    const cat_tok *t = cur(P);
    cat_expr *e;
    switch (t->k) {
    case CT_TILDE:
        P->pos++;
        if (!starts_expr(curk(P)) || curk(P) == CT_LET)
            fail_tok(P, cur(P), "an expression after '~'");
        if (++P->rdepth > CAT_MAX_DEPTH)
            fail_tok(P, t, "an expression nested at most %d levels deep", CAT_MAX_DEPTH);
        e = mk_op(P, CE_COMPL, parse_unary(P), NULL);
        P->rdepth--;
        e->line = t->line; e->col = t->col; e->file = P->file;
        break;
    case CT_FUN: e = parse_fun(P); break;
    case CT_LET: e = parse_letin(P); break;
    case CT_MATCH: e = parse_match(P); break;
    case CT_TRY: {
        P->pos++;
        cat_expr *a = expr_after(P, t);
        const cat_tok *w = expect(P, CT_WITH, "'with' after the expression of 'try'");
        e = mk_op(P, CE_TRY, a, expr_after(P, w));
        e->line = t->line; e->col = t->col; e->file = P->file;
        break;
    }
    default: e = parse_app(P); break;
    }
    return e;
}

static cat_expr *parse_cross(parser *P)
{
    cat_expr *e = parse_unary(P);
    if (curk(P) != CT_STAR) return e;
    P->pos++;
    e = mk_op(P, CE_CROSS, e, parse_unary(P));
    if (curk(P) == CT_STAR && starts_operand(P, P->pos + 1))
        fail_tok(P, cur(P), "parentheses around one product (the cartesian product '*' is not "
                 "associative)");
    return e;
}

/* v[lo..hi) combined by the associative operator k as a balanced tree (a long chain of unions
 * is not a deep tree) */
static cat_expr *balanced(parser *P, cat_ek k, cat_expr **v, int lo, int hi)
{
    if (hi - lo == 1) return v[lo];
    int mid = lo + (hi - lo) / 2;
    return mk_op(P, k, balanced(P, k, v, lo, mid), balanced(P, k, v, mid, hi));
}

/* a chain of operator `op` over operands parsed by sub: right-nested, or balanced when the
 * operator is associative (| & ;) */
static cat_expr *chain_right(parser *P, cat_tk op, cat_ek k, cat_expr *(*sub)(parser *))
{
    cat_expr *first = sub(P);
    if (curk(P) != op) return first;
    cat_expr **v = NULL;
    int n = 0, cap = 0;
    v = grow(P, v, n, &cap, sizeof *v);
    v[n++] = first;
    while (curk(P) == op) {
        const cat_tok *t = &P->t[P->pos++];
        if (!starts_operand(P, P->pos) && curk(P) != CT_LET)
            fail_tok(P, cur(P), "an expression after '%.*s'", t->len, t->s);
        v = grow(P, v, n, &cap, sizeof *v);
        v[n++] = sub(P);
    }
    if (k != CE_ADD) return balanced(P, k, v, 0, n);
    cat_expr *e = v[n - 1];
    for (int i = n - 2; i >= 0; i--) e = mk_op(P, k, v[i], e);
    return e;
}

static cat_expr *parse_inter(parser *P) { return chain_right(P, CT_AMP, CE_INTER, parse_cross); }

static cat_expr *parse_diff(parser *P)
{
    cat_expr *e = parse_inter(P);
    while (curk(P) == CT_BSLASH) {
        P->pos++;
        if (!starts_operand(P, P->pos) && curk(P) != CT_LET)
            fail_tok(P, cur(P), "an expression after '\\'");
        e = mk_op(P, CE_DIFF, e, parse_inter(P));
    }
    return e;
}

static cat_expr *parse_seq(parser *P) { return chain_right(P, CT_SEMI, CE_SEQ, parse_diff); }
static cat_expr *parse_add(parser *P) { return chain_right(P, CT_PLUSPLUS, CE_ADD, parse_seq); }

static cat_expr *parse_expr(parser *P)
{
    if (++P->rdepth > CAT_MAX_DEPTH)
        fail_tok(P, cur(P), "an expression nested at most %d levels deep", CAT_MAX_DEPTH);
    cat_expr *e = chain_right(P, CT_BAR, CE_UNION, parse_add);
    P->rdepth--;
    return e;
}

/* ---------- patterns, functions, bindings ---------- */

/* a pattern: name, (), (name), (name, …, name); bind: take slots in the current unit */
static cat_pat parse_pat(parser *P, int bind)
{
    cat_pat p = { CP_ID, 0, NULL, NULL };
    const cat_tok *names[64];
    if (curk(P) == CT_NAME) {
        names[p.n++] = &P->t[P->pos++];
    } else if (curk(P) == CT_LPAR) {
        const cat_tok *open = &P->t[P->pos++];
        if (accept(P, CT_RPAR)) {
            p.k = CP_UNIT;
        } else {
            do {
                if (p.n == 64) fail_tok(P, cur(P), "at most 64 names in a tuple pattern");
                names[p.n++] = expect(P, CT_NAME, "a name in the pattern");
            } while (accept(P, CT_COMMA));
            if (curk(P) != CT_RPAR)
                fail_tok(P, cur(P), "')' to close the pattern's '(' at %d:%d", open->line,
                         open->col);
            P->pos++;
            if (p.n > 1) p.k = CP_TUPLE;
        }
    } else {
        fail_tok(P, cur(P), "a pattern: a name, '()' or '(name, …)'");
    }
    p.slot = alloc(P, (size_t)(p.n ? p.n : 1) * sizeof *p.slot);
    p.name = alloc(P, (size_t)(p.n ? p.n : 1) * sizeof *p.name);
    for (int i = 0; i < p.n; i++) {
        if (tok_eq(names[i], "_")) fail_tok(P, names[i], "a name to bind ('_' is the universe)");
        p.name[i] = tokstr(P, names[i]);
        if (bind) {
            p.slot[i] = new_slot(P);
            vis_push(P, p.name[i], p.slot[i]);
        }
    }
    return p;
}

static void bind_pat(parser *P, cat_pat *p)
{
    for (int i = 0; i < p->n; i++) {
        p->slot[i] = new_slot(P);
        vis_push(P, p->name[i], p->slot[i]);
    }
}

/* after the parameters' units are open: the body, then the nested CE_FUN nodes */
static cat_expr *fun_body(parser *P, cat_pat *pats, const cat_tok **at, int np)
{
    cat_expr *body = parse_expr(P);
    for (int i = np - 1; i >= 0; i--) {
        cat_expr *f = mk(P, CE_FUN, at[i]);
        f->pat = pats[i];
        f->a = body;
        f->frame = unit_pop(P);
        f->depth = body->depth + 1;
        body = f;
    }
    return body;
}

static cat_expr *parse_fun(parser *P)
{
    const cat_tok *t = &P->t[P->pos++];
    int mark = P->nvis;
    unit_push(P);
    cat_pat p = parse_pat(P, 1);
    expect(P, CT_ARROW, "'->' after the parameter of 'fun'");
    if (!starts_expr(curk(P))) fail_tok(P, cur(P), "the body of the function after '->'");
    cat_expr *f = fun_body(P, &p, &t, 1);
    P->nvis = mark;
    return f;
}

typedef struct { cat_bind *v; int n, cap; const cat_tok **name; } binds_t;

/* one binding: `name = e`, `name pat… = e` (a function) or `pat = e` */
static void parse_binding(parser *P, binds_t *B, int rec, int *rec_slots)
{
    cat_bind b = { { CP_ID, 0, NULL, NULL }, NULL, cur(P)->line, cur(P)->col };
    const cat_tok *name = NULL;
    if (curk(P) == CT_NAME && nextk(P) != CT_EQ) {
        /* function: name pat … = body */
        name = &P->t[P->pos++];
        if (tok_eq(name, "_")) fail_tok(P, name, "a name to bind ('_' is the universe)");
        cat_pat pats[16];
        const cat_tok *at[16];
        int np = 0, mark = P->nvis;
        while (curk(P) != CT_EQ) {
            if (np == 16) fail_tok(P, cur(P), "'=' (at most 16 parameters)");
            if (curk(P) != CT_NAME && curk(P) != CT_LPAR)
                fail_tok(P, cur(P), "'=' or a parameter of '%.*s'", name->len, name->s);
            at[np] = cur(P);
            unit_push(P);
            pats[np++] = parse_pat(P, 1);
        }
        P->pos++;   /* '=' */
        if (!starts_expr(curk(P))) fail_tok(P, cur(P), "an expression after '='");
        b.rhs = fun_body(P, pats, at, np);
        b.rhs->name = tokstr(P, name);
        P->nvis = mark;
        b.pat.k = CP_ID;
        b.pat.n = 1;
    } else {
        if (curk(P) == CT_NAME) name = cur(P);
        else if (rec) fail_tok(P, cur(P), "a name after 'let rec' or 'and'");
        else if (curk(P) != CT_LPAR) fail_tok(P, cur(P), "a name or a pattern to bind");
        b.pat = parse_pat(P, 0);
        const cat_tok *eq = expect(P, CT_EQ, "'=' after the name being bound");
        b.rhs = expr_after(P, eq);
        if (b.rhs->k == CE_FUN && name) b.rhs->name = tokstr(P, name);
    }
    if (name && !b.pat.slot) {
        b.pat.slot = alloc(P, sizeof *b.pat.slot);
        b.pat.name = alloc(P, sizeof *b.pat.name);
        b.pat.name[0] = tokstr(P, name);
    }
    if (rec) b.pat.slot[0] = rec_slots[B->n];
    B->v = grow(P, B->v, B->n, &B->cap, sizeof *B->v);
    B->v[B->n++] = b;
}

/* the names bound by `let rec n1 … and n2 …` (a parse without resolution, then rewind) */
static int rec_names(parser *P, const cat_tok ***out)
{
    int pos = P->pos, nvis = P->nvis, nunit = P->nunit, top = P->uslots[P->nunit - 1];
    const cat_tok **v = NULL;
    int n = 0, cap = 0;
    binds_t B = { 0 };
    int dummy[1] = { 0 };
    P->dead++;
    do {
        if (curk(P) != CT_NAME) fail_tok(P, cur(P), "a name after 'let rec' or 'and'");
        v = grow(P, v, n, &cap, sizeof *v);
        v[n++] = cur(P);
        B.n = 0;
        parse_binding(P, &B, 0, dummy);
    } while (accept(P, CT_AND));
    P->dead--;
    P->pos = pos; P->nvis = nvis; P->nunit = nunit; P->uslots[P->nunit - 1] = top;
    *out = v;
    return n;
}

/* after 'let': the bindings; the names are in scope afterwards */
static void parse_let_binds(parser *P, int *rec, cat_bind **binds, int *nb)
{
    *rec = accept(P, CT_REC);
    binds_t B = { 0 };
    int *slots = NULL;
    if (*rec) {
        const cat_tok **names;
        int n = P->dead ? 0 : rec_names(P, &names);
        slots = alloc(P, (size_t)(n ? n : 1) * sizeof *slots);
        for (int i = 0; i < n; i++) {
            slots[i] = new_slot(P);
            vis_push(P, tokstr(P, names[i]), slots[i]);
        }
        if (P->dead) {
            /* no resolution: any slots do */
            slots = alloc(P, 1024 * sizeof *slots);
        }
    }
    do {
        if (*rec && B.n >= 1024) fail_tok(P, cur(P), "at most 1024 bindings in one 'let rec'");
        parse_binding(P, &B, *rec, slots);
    } while (accept(P, CT_AND));
    if (!*rec)
        for (int i = 0; i < B.n; i++) bind_pat(P, &B.v[i].pat);
    *binds = B.v;
    *nb = B.n;
}

static cat_expr *parse_letin(parser *P)
{
    const cat_tok *t = &P->t[P->pos++];
    cat_expr *e = mk(P, CE_LET, t);
    int mark = P->nvis;
    parse_let_binds(P, &e->rec, &e->binds, &e->n);
    const cat_tok *in = expect(P, CT_IN, "'in' after the bindings of a 'let' expression");
    e->a = expr_after(P, in);
    int d = e->a->depth;
    for (int i = 0; i < e->n; i++)
        if (e->binds[i].rhs->depth > d) d = e->binds[i].rhs->depth;
    e->depth = d + 1;
    P->nvis = mark;
    return e;
}

static cat_expr *parse_match_set(parser *P, cat_expr *e)
{
    e->k = CE_MATCH_SET;
    for (int arm = 0; arm < 2; arm++) {
        if (arm) expect(P, CT_BARBAR, "'||' before the second clause of the match");
        if (accept(P, CT_LBRACE)) {
            if (e->b) fail_tok(P, &P->t[P->pos - 1], "one '{} ->' clause only");
            expect(P, CT_RBRACE, "'}' (the clause for the empty set is '{} ->')");
            const cat_tok *ar = expect(P, CT_ARROW, "'->' after '{}'");
            e->b = expr_after(P, ar);
        } else {
            if (e->c) fail_tok(P, cur(P), "'{}' (the clauses are '{} ->' and 'x ++ s ->')");
            const cat_tok *x = expect(P, CT_NAME, "'{}' or 'x ++ s' in a set match");
            expect(P, CT_PLUSPLUS, "'++' in the clause 'x ++ s ->'");
            const cat_tok *s = expect(P, CT_NAME, "a name after '++'");
            const cat_tok *ar = expect(P, CT_ARROW, "'->' after 'x ++ s'");
            int mark = P->nvis;
            e->s1 = new_slot(P);
            vis_push(P, tokstr(P, x), e->s1);
            e->s2 = new_slot(P);
            vis_push(P, tokstr(P, s), e->s2);
            e->c = expr_after(P, ar);
            P->nvis = mark;
        }
    }
    return e;
}

static cat_expr *parse_match_tag(parser *P, cat_expr *e)
{
    e->k = CE_MATCH_TAG;
    int cap = 0;
    do {
        if (curk(P) == CT_NAME && tok_eq(cur(P), "_")) {
            P->pos++;
            const cat_tok *ar = expect(P, CT_ARROW, "'->' after '_'");
            e->b = expr_after(P, ar);
            break;
        }
        const cat_tok *t = expect(P, CT_TAG, "a tag or '_' in a match clause");
        int tag = tag_index(P, t);
        if (tag < 0 && !P->dead) fail_tok(P, t, "a tag declared by an earlier 'enum'");
        const cat_tok *ar = expect(P, CT_ARROW, "'->' after the tag");
        int c2 = cap;
        e->v = grow(P, e->v, e->n, &cap, sizeof *e->v);
        e->tags = grow(P, e->tags, e->n, &c2, sizeof *e->tags);
        e->tags[e->n] = tag;
        e->v[e->n++] = expr_after(P, ar);
    } while (accept(P, CT_BARBAR));
    return e;
}

static cat_expr *parse_match(parser *P)
{
    const cat_tok *t = &P->t[P->pos++];
    cat_expr *e = mk(P, CE_MATCH_TAG, t);
    e->a = expr_after(P, t);
    expect(P, CT_WITH, "'with' after the expression of 'match'");
    accept(P, CT_BARBAR);
    if (curk(P) == CT_LBRACE || (curk(P) == CT_NAME && nextk(P) == CT_PLUSPLUS))
        parse_match_set(P, e);
    else
        parse_match_tag(P, e);
    if (curk(P) != CT_END)
        fail_tok(P, cur(P), "'end' to close the 'match' at %d:%d", t->line, t->col);
    P->pos++;
    int d = e->a->depth;
    for (int i = 0; i < e->n; i++) if (e->v[i]->depth > d) d = e->v[i]->depth;
    if (e->b && e->b->depth > d) d = e->b->depth;
    if (e->c && e->c->depth > d) d = e->c->depth;
    e->depth = d + 1;
    return e;
}

/* ---------- instructions ---------- */

/* a block being filled (cap: its allocated length) */
typedef struct { cat_block *b; int cap; } builder;

static void parse_instrs(parser *P, builder *B, int top);

static cat_instr *add_instr(parser *P, builder *B, cat_ik k, const cat_tok *at)
{
    B->b->v = grow(P, B->b->v, B->b->n, &B->cap, sizeof *B->b->v);
    cat_instr *in = &B->b->v[B->b->n++];
    memset(in, 0, sizeof *in);
    in->k = k;
    in->file = P->file;
    in->line = at->line;
    in->col = at->col;
    return in;
}

static void parse_check(parser *P, builder *B)
{
    const cat_tok *t = cur(P);
    int flag = 0, undef = 0, neg = 0;
    if (accept(P, CT_FLAG)) flag = 1;
    else if (accept(P, CT_UNDEF)) undef = 1;
    if (accept(P, CT_TILDE)) neg = 1;
    const cat_tok *kw = cur(P);
    if (!is_check_kw(kw->k)) fail_tok(P, kw, "'acyclic', 'irreflexive' or 'empty'");
    P->pos++;
    cat_expr *e = expr_after(P, kw);
    const char *as = NULL;
    if (accept(P, CT_AS)) as = tokstr(P, expect(P, CT_NAME, "a name after 'as'"));
    if (P->dead) return;
    cat_instr *in = add_instr(P, B, CI_CHECK, t);
    in->check = kw->k == CT_ACYCLIC ? CAT_ACYCLIC
              : kw->k == CT_IRREFLEXIVE ? CAT_IRREFLEXIVE : CAT_EMPTY;
    in->negated = neg; in->flag = flag; in->undef = undef;
    in->e = e; in->as = as;
    in->site = P->m->nsites++;
}

static void parse_show(parser *P)
{
    P->pos++;
    P->dead++;
    do {
        expr_after(P, &P->t[P->pos - 1]);
        if (accept(P, CT_AS)) expect(P, CT_NAME, "a name after 'as'");
    } while (accept(P, CT_COMMA));
    P->dead--;
}

static void parse_enum(parser *P, builder *B)
{
    const cat_tok *t = &P->t[P->pos++];
    const cat_tok *name = expect(P, CT_NAME, "the name of the enumeration after 'enum'");
    expect(P, CT_EQ, "'=' after the name of the enumeration");
    accept(P, CT_BARBAR);
    int *tags = NULL, n = 0, tcap = 0;
    do {
        const cat_tok *tg = expect(P, CT_TAG, "a tag 'name");
        if (P->dead) continue;
        if (tag_index(P, tg) >= 0) fail_tok(P, tg, "a tag that no earlier 'enum' declares");
        cat_model *m = P->m;
        m->tags = grow(P, m->tags, m->ntags, &P->captags, sizeof *m->tags);
        m->tags[m->ntags] = (cat_tag_info){ tokstr(P, tg), 0 };
        tags = grow(P, tags, n, &tcap, sizeof *tags);
        tags[n++] = m->ntags++;
    } while (accept(P, CT_BARBAR));
    if (P->dead) return;
    cat_instr *in = add_instr(P, B, CI_ENUM, t);
    in->name = tokstr(P, name);
    in->ntags = n; in->tags = tags;
    in->slot = new_slot(P);
    vis_push(P, in->name, in->slot);
}

/* body of a procedure or a forall: instructions up to 'end' */
static void parse_body(parser *P, cat_instr *in, const cat_tok *t, const char *what)
{
    builder B = { &in->body, 0 };
    parse_instrs(P, &B, 0);
    if (curk(P) != CT_END)
        fail_tok(P, cur(P), "an instruction or 'end' to close the '%s' at %d:%d", what, t->line,
                 t->col);
    P->pos++;
}

static void parse_procedure(parser *P, builder *B)
{
    const cat_tok *t = &P->t[P->pos++];
    const cat_tok *name = expect(P, CT_NAME, "the name of the procedure");
    int mark = P->nvis;
    cat_instr tmp = { .k = CI_PROC, .file = P->file, .line = t->line, .col = t->col };
    unit_push(P);
    tmp.pat = parse_pat(P, 1);
    expect(P, CT_EQ, "'=' after the parameter of the procedure");
    parse_body(P, &tmp, t, "procedure");
    tmp.frame = unit_pop(P);
    P->nvis = mark;
    if (P->dead) return;
    tmp.name = tokstr(P, name);
    tmp.slot = new_slot(P);
    vis_push(P, tmp.name, tmp.slot);
    *add_instr(P, B, CI_PROC, t) = tmp;
}

static void parse_call(parser *P, builder *B)
{
    const cat_tok *t = &P->t[P->pos++];
    if (curk(P) != CT_NAME) fail_tok(P, cur(P), "the name of a procedure after 'call'");
    cat_expr *f = parse_simple(P);
    if (!starts_simple(curk(P))) fail_tok(P, cur(P), "the argument of the procedure call");
    cat_expr *arg = parse_postfix(P);
    const char *as = NULL;
    if (accept(P, CT_AS)) as = tokstr(P, expect(P, CT_NAME, "a name after 'as'"));
    if (P->dead) return;
    cat_instr *in = add_instr(P, B, CI_CALL, t);
    in->e = f; in->arg = arg; in->as = as;
}

static void parse_forall(parser *P, builder *B)
{
    const cat_tok *t = &P->t[P->pos++];
    const cat_tok *x = expect(P, CT_NAME, "the name of the element after 'forall'");
    const cat_tok *in_kw = expect(P, CT_IN, "'in' after the name of 'forall'");
    cat_instr tmp = { .k = CI_FORALL, .file = P->file, .line = t->line, .col = t->col };
    tmp.e = expr_after(P, in_kw);
    expect(P, CT_DO, "'do' after the set of 'forall'");
    int mark = P->nvis;
    unit_push(P);
    tmp.pat = (cat_pat){ CP_ID, 1, alloc(P, sizeof(int)), alloc(P, sizeof(char *)) };
    tmp.pat.name[0] = tokstr(P, x);
    tmp.pat.slot[0] = new_slot(P);
    vis_push(P, tmp.pat.name[0], tmp.pat.slot[0]);
    parse_body(P, &tmp, t, "forall");
    tmp.frame = unit_pop(P);
    P->nvis = mark;
    if (!P->dead) *add_instr(P, B, CI_FORALL, t) = tmp;
}

static void parse_include(parser *P, builder *B);
static void parse_file(parser *P, int file, const char *text, size_t len, builder *B,
                       int main_file);

static void parse_if_variant(parser *P, builder *B)
{
    const cat_tok *t = &P->t[P->pos++];
    expect(P, CT_VARIANT, "'variant' after 'if' (the only 'if' of cat is 'if variant')");
    expect(P, CT_STR, "the variant's name in double quotes");
    /* no variant is ever set: the first branch is parsed but never run */
    int mark = P->nvis;
    cat_block dead = { 0, NULL };
    builder D = { &dead, 0 };
    P->dead++;
    parse_instrs(P, &D, 0);
    P->dead--;
    P->nvis = mark;
    if (accept(P, CT_ELSE)) parse_instrs(P, B, 0);
    if (curk(P) != CT_END)
        fail_tok(P, cur(P), "an instruction, 'else' or 'end' to close the 'if' at %d:%d",
                 t->line, t->col);
    P->pos++;
}

static void parse_let_instr(parser *P, builder *B)
{
    const cat_tok *t = &P->t[P->pos++];
    cat_instr tmp = { .k = CI_LET, .file = P->file, .line = t->line, .col = t->col };
    parse_let_binds(P, &tmp.rec, &tmp.binds, &tmp.nb);
    if (curk(P) == CT_IN)
        fail_tok(P, cur(P), "an instruction ('let … in' is an expression, and a model is a "
                 "list of instructions)");
    if (!P->dead) *add_instr(P, B, CI_LET, t) = tmp;
}

/* instructions appended to B up to the end of the file (top) or up to 'end'/'else' */
static void parse_instrs(parser *P, builder *B, int top)
{
    for (;;) {
        const cat_tok *t = cur(P);
        switch (t->k) {
        case CT_EOF:
            if (top) return;
            fail_tok(P, t, "an instruction or 'end'");
        case CT_END: case CT_ELSE:
            if (!top) return;
            fail_tok(P, t, "an instruction");
        case CT_LET: parse_let_instr(P, B); break;
        case CT_FLAG: case CT_UNDEF: case CT_TILDE: case CT_ACYCLIC: case CT_IRREFLEXIVE:
        case CT_EMPTY:
            parse_check(P, B);
            break;
        case CT_SHOW: case CT_UNSHOW: parse_show(P); break;
        case CT_ENUM: parse_enum(P, B); break;
        case CT_PROCEDURE: parse_procedure(P, B); break;
        case CT_CALL: parse_call(P, B); break;
        case CT_FORALL: parse_forall(P, B); break;
        case CT_IF: parse_if_variant(P, B); break;
        case CT_INCLUDE: parse_include(P, B); break;
        case CT_WITH:
            fail_tok(P, t, "an instruction other than herd's 'with … from' (candidate "
                     "extension), which ptxlitmus does not support (docs/cat.md)");
        default:
            fail_tok(P, t, "an instruction (let, include, acyclic, irreflexive, empty, flag, "
                     "show, procedure, call, enum, forall, if)");
        }
    }
}

/* ---------- files ---------- */

/* reads a whole file (malloc'd, NUL-terminated); NULL with errno set on failure */
static char *slurp(const char *path, size_t *len)
{
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) { errno = EINVAL; return NULL; }
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    int e = 0;
    while (buf) {
        size_t r = fread(buf + n, 1, cap - n - 1, f);
        n += r;
        if (r == 0) break;
        if (n + 1 == cap) {
            char *nb = cap > MAX_FILE_BYTES ? NULL : realloc(buf, cap * 2);
            if (!nb) { e = cap > MAX_FILE_BYTES ? EFBIG : ENOMEM; free(buf); buf = NULL; }
            buf = nb;
            cap *= 2;
        }
    }
    if (buf && ferror(f)) { e = EIO; free(buf); buf = NULL; }
    if (!buf && !e) e = ENOMEM;
    fclose(f);
    if (!buf) { errno = e; return NULL; }
    buf[n] = 0;
    *len = n;
    return buf;
}

/* the contents of a file, copied into the arena; NULL with errno set on failure */
static char *read_file(parser *P, const char *path, size_t *len)
{
    char *buf = slurp(path, len);
    if (!buf) return NULL;
    char *text = cat_arena_strndup(P->A, buf, *len);
    free(buf);
    if (!text) errno = ENOMEM;
    return text;
}

static int add_file(parser *P, const char *name)
{
    cat_model *m = P->m;
    m->files = grow(P, m->files, m->nfiles, &P->capfiles, sizeof *m->files);
    char *s = cat_arena_strndup(P->A, name, strlen(name));
    if (!s) alloc(P, SIZE_MAX / 2);
    m->files[m->nfiles] = s;
    return m->nfiles++;
}

/* records the canonical path of a file loaded; 0 if it was loaded before */
static int mark_loaded(parser *P, const char *path)
{
    char *rp = realpath(path, NULL);
    if (!rp) return 1;
    for (int i = 0; i < P->nincl; i++)
        if (!strcmp(P->incl[i], rp)) { free(rp); return 0; }
    char *s = cat_arena_strndup(P->A, rp, strlen(rp));
    free(rp);
    if (!s) alloc(P, SIZE_MAX / 2);
    P->incl = grow(P, P->incl, P->nincl, &P->capincl, sizeof *P->incl);
    P->incl[P->nincl++] = s;
    return 1;
}

/* the folder of a file name, with a trailing '/' ("" for none) */
static void folder(const char *path, char *buf, size_t len)
{
    const char *slash = strrchr(path, '/');
    size_t n = slash ? (size_t)(slash - path + 1) : 0;
    if (n >= len) n = 0;
    memcpy(buf, path, n);
    buf[n] = 0;
}

/* ---------- files compiled into the program ---------- */

static const cat_builtin *builtins;
static int nbuiltins;

void cat_set_builtins(const cat_builtin *files, int n) { builtins = files; nbuiltins = n; }

static const cat_builtin *find_builtin(const char *name)
{
    for (int i = 0; i < nbuiltins; i++)
        if (!strcmp(builtins[i].name, name)) return &builtins[i];
    return NULL;
}

/* Parses the file `name` as an include: searched in the folder of the current file, then in
   the search list (CAT_BUILTIN: the files compiled in).  `at` is the token to blame. */
static void include_file(parser *P, builder *B, const char *name, const cat_tok *at)
{
    char path[4096], tried[2048] = "";
    int found = 0;
    const cat_builtin *bi = NULL;
    for (int i = -1; i < P->nsearch && !found; i++) {
        char dir[2048];
        if (name[0] == '/') { if (i >= 0) break; dir[0] = 0; }
        else if (i < 0) folder(P->m->files[P->file], dir, sizeof dir);
        else if (!strcmp(P->search[i], CAT_BUILTIN)) {
            if ((bi = find_builtin(name))) {
                snprintf(path, sizeof path, "%s/%s", CAT_BUILTIN, name);
                found = 1;
                break;
            }
            size_t tl = strlen(tried);
            snprintf(tried + tl, sizeof tried - tl, "%sthe bundled models", tl ? ", " : "");
            continue;
        } else
            snprintf(dir, sizeof dir, "%s%s", P->search[i],
                     P->search[i][0] && P->search[i][strlen(P->search[i]) - 1] != '/' ? "/" : "");
        snprintf(path, sizeof path, "%s%s", dir, name);
        FILE *f = fopen(path, "rb");
        if (f) { fclose(f); found = 1; break; }
        size_t tl = strlen(tried);
        snprintf(tried + tl, sizeof tried - tl, "%s%.600s", tl ? ", " : "", path);
    }
    if (!found) fail_tok(P, at, "a cat file that exists (tried %s)", tried);
    size_t len;
    char *text;
    if (bi) {
        for (int i = 0; i < P->nincl; i++)
            if (!strcmp(P->incl[i], path)) return;   /* herd: a file is included once */
        char *s = cat_arena_strndup(P->A, path, strlen(path));
        if (!s) alloc(P, SIZE_MAX / 2);
        P->incl = grow(P, P->incl, P->nincl, &P->capincl, sizeof *P->incl);
        P->incl[P->nincl++] = s;
        len = strlen(bi->text);
        text = cat_arena_strndup(P->A, bi->text, len);
        if (!text) alloc(P, SIZE_MAX / 2);
    } else {
        struct stat sb;
        if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode))
            fail_tok(P, at, "a regular file (%s is not one)", path);
        if (!mark_loaded(P, path)) return;   /* herd: a file is included once */
        text = read_file(P, path, &len);
        if (!text) fail_tok(P, at, "a file that can be read (%s: %s)", path, strerror(errno));
    }
    cat_tok *st = P->t;
    int snt = P->nt, spos = P->pos, sfile = P->file;
    parse_file(P, add_file(P, path), text, len, B, 0);
    P->t = st; P->nt = snt; P->pos = spos; P->file = sfile;
}

static void parse_include(parser *P, builder *B)
{
    P->pos++;   /* 'include' */
    const cat_tok *s = expect(P, CT_STR, "the file name in double quotes after 'include'");
    if (P->dead) return;
    char name[1024];
    if (s->len == 0 || s->len >= (int)sizeof name) fail_tok(P, s, "the name of a cat file");
    memcpy(name, s->s, (size_t)s->len);
    name[s->len] = 0;
    include_file(P, B, name, s);
}

static void parse_header(parser *P, int main_file)
{
    int first = P->pos;
    while (curk(P) == CT_NAME) P->pos++;
    const cat_tok *str = curk(P) == CT_STR ? &P->t[P->pos++] : NULL;
    if (!main_file) return;
    if (str) {
        P->m->name = tokstr(P, str);
        return;
    }
    size_t len = 0;
    for (int i = first; i < P->pos; i++) len += (size_t)P->t[i].len + 1;
    char *name = alloc(P, len + 1);
    for (int i = first; i < P->pos; i++) {
        if (i > first) strcat(name, " ");
        strncat(name, P->t[i].s, (size_t)P->t[i].len);
    }
    P->m->name = name;
}

static void parse_file(parser *P, int file, const char *text, size_t len, builder *B,
                       int main_file)
{
    P->file = file;
    const char *nul = memchr(text, 0, len);
    if (nul) {
        int line = 1, col = 1;
        for (const char *p = text; p < nul; p++) {
            if (*p == '\n') { line++; col = 1; } else col++;
        }
        fail_at(P, file, line, col, "found the byte 0x00, expected text");
    }
    cat_tok *toks;
    int nt = cat_lex(P->A, P->m->files[file], text, &toks, P->err, P->errlen);
    if (nt < 0) longjmp(P->jb, 1);
    P->t = toks; P->nt = nt; P->pos = 0;
    parse_header(P, main_file);
    parse_instrs(P, B, 1);
}

static cat_model *load(const char *file, const char *text, size_t len, int from_path,
                       const char *const *search, int nsearch, const char *prelude, char *err,
                       size_t errlen)
{
    cat_arena *A = cat_arena_new();
    cat_model *m = A ? cat_arena_alloc(A, sizeof *m) : NULL;
    if (!m) {
        if (err && errlen) snprintf(err, errlen, "%s: out of memory", file);
        cat_arena_free(A);
        return NULL;
    }
    m->arena = A;
    m->name = "";
    static const cat_tok start = { CT_EOF, 1, 1, "", 0 };
    parser P = { .m = m, .A = A, .err = err, .errlen = errlen, .search = search,
                 .nsearch = nsearch > 0 && search ? nsearch : 0, .t = (cat_tok *)&start,
                 .nt = 1 };
    if (setjmp(P.jb)) {
        cat_arena_free(A);
        return NULL;
    }
    add_file(&P, file);
    if (from_path) mark_loaded(&P, file);
    static const cat_tok universe = { CT_NAME, 1, 1, "_", 1 };
    base_index(&P, &universe);
    char *copy = cat_arena_strndup(A, text, len);   /* the tokens point into it */
    if (!copy) alloc(&P, SIZE_MAX / 2);
    text = copy;
    unit_push(&P);
    builder B = { &m->top, 0 };
    if (prelude) {   /* herd and Dat3M load their standard library before a model */
        static const cat_tok at = { CT_STR, 1, 1, "", 0 };
        include_file(&P, &B, prelude, &at);
    }
    parse_file(&P, 0, text, len, &B, 1);
    m->top_frame = unit_pop(&P);
    return m;
}

cat_model *cat_load_text(const char *file, const char *text, const char *const *search,
                         int nsearch, char *err, size_t errlen)
{
    return load(file ? file : "<cat>", text ? text : "", text ? strlen(text) : 0, 0, search,
                nsearch, NULL, err, errlen);
}

cat_model *cat_load_text_prelude(const char *file, const char *text, const char *const *search,
                                 int nsearch, const char *prelude, char *err, size_t errlen)
{
    return load(file, text, strlen(text), 0, search, nsearch, prelude, err, errlen);
}

cat_model *cat_load_file(const char *path, const char *const *search, int nsearch, char *err,
                         size_t errlen)
{
    return cat_load_file_prelude(path, search, nsearch, NULL, err, errlen);
}

cat_model *cat_load_file_prelude(const char *path, const char *const *search, int nsearch,
                                 const char *prelude, char *err, size_t errlen)
{
    size_t len;
    const cat_builtin *bi = !strncmp(path, CAT_BUILTIN "/", strlen(CAT_BUILTIN) + 1)
                          ? find_builtin(path + strlen(CAT_BUILTIN) + 1) : NULL;
    char *buf = bi ? strdup(bi->text) : slurp(path, &len);
    if (bi && buf) len = strlen(buf);
    if (!buf) {
        if (err && errlen)
            snprintf(err, errlen, "%s:1:1: found no readable file, expected a cat model (%s)", path,
                     strerror(errno));
        return NULL;
    }
    cat_model *m = load(path, buf, len, !bi, search, nsearch, prelude, err, errlen);
    free(buf);
    return m;
}

void cat_free(cat_model *m)
{
    if (m) cat_arena_free(m->arena);
}

const char *cat_model_name(const cat_model *m) { return m->name; }
int cat_nbase(const cat_model *m) { return m->nbase; }
const char *cat_base_name(const cat_model *m, int i) { return m->base[i].name; }

void cat_base_pos(const cat_model *m, int i, const char **file, int *line, int *col)
{
    *file = m->files[m->base[i].file];
    *line = m->base[i].line;
    *col = m->base[i].col;
}

int cat_ncheck_sites(const cat_model *m) { return m->nsites; }
