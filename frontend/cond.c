/* frontend/cond.c — parser, evaluator and printer for final-state conditions (herd syntax).
 * Recursive descent with an explicit depth bound (COND_MAX_DEPTH, --max-depth) so that a
 * deeply nested input is rejected with a message instead of overflowing the stack; the bound
 * is also checked against the room left on the real stack (COND_STACK_PER_LEVEL). */
#include "frontend/cond.h"
#include "base/alloc.h"
#include "base/stack.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *file;
    const tokvec *tv;
    int pos;
    cond_resolver res;
    void *ctx;
    char *err;
    size_t errlen;
    int failed;
    int max_depth;
    size_t stack_kib;   /* the stack that limits max_depth below --max-depth, else 0 */
    int asked;          /* --max-depth when the stack limits it */
} cparser;

static const token *cur(cparser *p) { return &p->tv->v[p->pos]; }

static void fail(cparser *p, const token *t, const char *expected)
{
    if (p->failed) return;
    char found[96];
    tok_describe(t, found, sizeof found);
    snprintf(p->err, p->errlen, "%s:%d:%d: found %s, expected %s", p->file, t->line, t->col, found,
             expected);
    p->failed = 1;
}

static char *dup_tok(const token *t)
{
    char *d = xmalloc((size_t)t->len + 1);
    memcpy(d, t->s, (size_t)t->len);
    d[t->len] = 0;
    return d;
}

static char *dup_fmt(const char *a, const char *b)
{
    size_t n = strlen(a) + (b ? strlen(b) + 1 : 0) + 1;
    char *d = xmalloc(n);
    if (b) snprintf(d, n, "%s:%s", a, b); else snprintf(d, n, "%s", a);
    return d;
}

void cond_ref_free(cond_ref *r)
{
    free(r->name); free(r->tname); free(r->rname);
    r->name = r->tname = r->rname = NULL;
}

/* A constant with an optional '-' (already consumed when neg): negative values must fit in
   int64; positive ones are kept as their 64-bit pattern. */
static int const_value(cparser *p, const token *t, int neg, int64_t *v)
{
    uint64_t u = (uint64_t)t->num;
    if (neg && u > (uint64_t)INT64_MAX + 1) {
        fail(p, t, "a value that fits in 64 bits (at least -9223372036854775808)");
        return -1;
    }
    *v = neg ? (int64_t)(0 - u) : (int64_t)u;
    return 0;
}

static int parse_ref(cparser *p, cond_ref *r)
{
    memset(r, 0, sizeof *r);
    const token *t = cur(p);
    r->line = t->line; r->col = t->col;
    int neg = 0;
    if (tok_punct(t, '-')) { neg = 1; p->pos++; t = cur(p); }
    if (t->k == TK_NUM && tok_punct(&p->tv->v[p->pos + 1], ':') && !neg) {
        /* 0:r1 */
        const token *rt = &p->tv->v[p->pos + 2];
        if (rt->k != TK_IDENT) { fail(p, rt, "a register name after ':'"); return -1; }
        char tn[32];
        snprintf(tn, sizeof tn, "P%llu", (unsigned long long)t->num);
        r->tname = dup_fmt(tn, NULL);
        r->rname = dup_tok(rt);
        r->k = REF_REG;
        p->pos += 3;
    } else if (t->k == TK_NUM) {
        r->k = REF_CONST;
        if (const_value(p, t, neg, &r->val)) return -1;
        char v[32];
        snprintf(v, sizeof v, "%lld", (long long)r->val);
        r->name = dup_fmt(v, NULL);
        p->pos++;
        return 0;
    } else if (neg) {
        fail(p, t, "a number after '-'"); return -1;
    } else if (t->k == TK_IDENT && tok_punct(&p->tv->v[p->pos + 1], ':')) {
        const token *rt = &p->tv->v[p->pos + 2];
        if (rt->k != TK_IDENT) { fail(p, rt, "a register name after ':'"); return -1; }
        r->tname = dup_tok(t);
        r->rname = dup_tok(rt);
        r->k = REF_REG;
        p->pos += 3;
    } else if (t->k == TK_IDENT && tok_punct(&p->tv->v[p->pos + 1], '[')) {
        /* x[N] (LitmusAssertions.g4 assertionValue): element N of x; a location of a litmus
           test is one scalar, so N must be 0 */
        const token *n = &p->tv->v[p->pos + 2];
        if (n->k != TK_NUM) { fail(p, n, "an element index after '['"); return -1; }
        if (!tok_punct(&p->tv->v[p->pos + 3], ']')) {
            fail(p, &p->tv->v[p->pos + 3], "']'");
            return -1;
        }
        if (n->num != 0) {
            fail(p, n,
                 "the index 0: a location of a litmus test holds one value (write [x+4] in an "
                 "instruction for other bytes)");
            return -1;
        }
        r->rname = dup_tok(t);
        r->k = REF_LOC;
        p->pos += 4;
    } else if (t->k == TK_IDENT) {
        r->rname = dup_tok(t);
        r->k = REF_LOC;
        p->pos++;
    } else if (tok_punct(t, '[')) {
        const token *n = &p->tv->v[p->pos + 1];
        if (n->k != TK_IDENT) { fail(p, n, "a location name after '['"); return -1; }
        if (!tok_punct(&p->tv->v[p->pos + 2], ']')) {
            fail(p, &p->tv->v[p->pos + 2], "']'");
            return -1;
        }
        r->rname = dup_tok(n);
        r->k = REF_LOC;
        p->pos += 3;
    } else {
        fail(p, t, "a register (P0:r1), a location or a number");
        return -1;
    }
    if (r->k == REF_REG) r->name = dup_fmt(r->tname, r->rname[0] == '%' ? r->rname + 1 : r->rname);
    else r->name = dup_fmt(r->rname, NULL);
    if (p->res && p->res(p->ctx, r, p->err, p->errlen)) { p->failed = 1; return -1; }
    return 0;
}

static cond_node *node(cond_op op)
{
    cond_node *n = xcalloc(1, sizeof *n);
    if (n) n->op = op;
    return n;
}

static cond_node *parse_impl(cparser *p, int depth);

static cond_node *parse_unary(cparser *p, int depth)
{
    const token *t = cur(p);
    if (depth > p->max_depth) {
        if (!p->failed && p->stack_kib) {
            snprintf(p->err, p->errlen,
                     "%s:%d:%d: found a condition nested more than %d levels deep, expected at "
                     "most %d levels of '(', '~' and chained '/\\' '\\/' (limit: the %zu KiB "
                     "left on this thread's stack hold %d of the --max-depth %d; raise ulimit -s)",
                     p->file, t->line, t->col, p->max_depth, p->max_depth, p->stack_kib,
                     p->max_depth, p->asked);
            p->failed = 1;
        }
        if (!p->failed) {
            snprintf(
                p->err, p->errlen,
                "%s:%d:%d: found a condition nested more than %d levels deep, expected at most %d "
                "levels of '(', '~' and chained '/\\' '\\/' (limit --max-depth)",
                p->file, t->line, t->col, p->max_depth, p->max_depth);
            p->failed = 1;
        }
        return NULL;
    }
    const token *t1 = &p->tv->v[t->k == TK_EOF ? p->pos : p->pos + 1];
    int not_word =
        tok_is(t, "not") && !(tok_punct(t1, '=') || tok_punct(t1, P_EQEQ) || tok_punct(t1, P_NE) ||
                              tok_punct(t1, '<') || tok_punct(t1, '>') || tok_punct(t1, P_LE) ||
                              tok_punct(t1, P_GE) || tok_punct(t1, '['));
    if (tok_punct(t, '~') || not_word) {   /* LitmusAssertions.g4 AssertionNot: '~' | 'not' */
        p->pos++;
        cond_node *a = parse_unary(p, depth + 1);
        if (!a) return NULL;
        cond_node *n = node(CN_NOT);
        n->a = a;
        return n;
    }
    if (tok_punct(t, '(')) {
        p->pos++;
        cond_node *a = parse_impl(p, depth + 1);
        if (!a) return NULL;
        if (!tok_punct(cur(p), ')')) {
            fail(p, cur(p), "')' or a connective '/\\' '\\/' '=>'");
            cond_free(a);
            return NULL;
        }
        p->pos++;
        return a;
    }
    if (tok_is(t, "true") || tok_is(t, "false")) {
        p->pos++;
        return node(tok_is(t, "true") ? CN_TRUE : CN_FALSE);
    }
    cond_ref l, r;
    if (parse_ref(p, &l)) { cond_ref_free(&l); return NULL; }
    const token *o = cur(p);
    cond_op op;
    if (tok_punct(o, '=') || tok_punct(o, P_EQEQ)) op = CN_EQ;
    else if (tok_punct(o, P_NE)) op = CN_NE;
    else if (tok_punct(o, P_LE)) op = CN_LE;
    else if (tok_punct(o, P_GE)) op = CN_GE;
    else if (tok_punct(o, '<')) op = CN_LT;
    else if (tok_punct(o, '>')) op = CN_GT;
    else {
        fail(p, o, "a comparison: '=', '==', '!=', '<', '<=', '>' or '>='");
        cond_ref_free(&l);
        return NULL;
    }
    p->pos++;
    if (parse_ref(p, &r)) { cond_ref_free(&l); cond_ref_free(&r); return NULL; }
    cond_node *n = node(op);
    n->l = l; n->r = r;
    return n;
}

/* depth counts what the user nested: '(' and '~' (parse_unary), and each chained connective,
   since a chain builds a left-deep tree that cond_eval/cond_print walk recursively */
static cond_node *parse_and(cparser *p, int depth)
{
    cond_node *a = parse_unary(p, depth);
    while (a && tok_punct(cur(p), P_AND)) {
        p->pos++;
        cond_node *b = parse_unary(p, ++depth);   /* a chain nests too: count it */
        if (!b) { cond_free(a); return NULL; }
        cond_node *n = node(CN_AND);
        n->a = a; n->b = b; a = n;
    }
    return a;
}

static cond_node *parse_or(cparser *p, int depth)
{
    cond_node *a = parse_and(p, depth);
    while (a && tok_punct(cur(p), P_OR)) {
        p->pos++;
        cond_node *b = parse_and(p, ++depth);
        if (!b) { cond_free(a); return NULL; }
        cond_node *n = node(CN_OR);
        n->a = a; n->b = b; a = n;
    }
    return a;
}

/* herd's implication `a => b`, the loosest connective, to the right: (~a) \/ b */
static cond_node *parse_impl(cparser *p, int depth)
{
    cond_node *a = parse_or(p, depth);
    if (!a || !tok_punct(cur(p), P_IMPL)) return a;
    p->pos++;
    cond_node *b = parse_impl(p, depth + 1);
    if (!b) { cond_free(a); return NULL; }
    cond_node *na = node(CN_NOT), *n = node(CN_OR);
    na->a = a;
    n->a = na; n->b = b;
    return n;
}

cond_node *cond_parse(const char *file, const tokvec *tv, int *pos, cond_resolver res, void *ctx,
                      int max_depth, char *err, size_t errlen)
{
    if (max_depth <= 0) max_depth = COND_MAX_DEPTH;
    if (max_depth > COND_DEPTH_CAP) max_depth = COND_DEPTH_CAP;
    cparser p = { file, tv, *pos, res, ctx, err, errlen, 0, max_depth, 0, 0 };
    size_t room = stack_room();   /* every later pass over the tree runs on this stack too */
    if (room != SIZE_MAX) {
        size_t fit = room > COND_STACK_RESERVE ? (room - COND_STACK_RESERVE) / COND_STACK_PER_LEVEL
                                               : 0;
        if (fit < (size_t)max_depth) {
            p.asked = max_depth;
            p.max_depth = (int)fit;
            p.stack_kib = room / 1024;
        }
    }
    cond_node *n = parse_impl(&p, 0);
    if (p.failed) { cond_free(n); return NULL; }
    *pos = p.pos;
    return n;
}

int cond_parse_ref(const char *file, const tokvec *tv, int *pos, cond_ref *out, char *err,
                   size_t errlen)
{
    cparser p = { file, tv, *pos, NULL, NULL, err, errlen, 0, COND_MAX_DEPTH, 0, 0 };
    if (parse_ref(&p, out)) { cond_ref_free(out); return -1; }
    *pos = p.pos;
    return 0;
}

void cond_free(cond_node *n)
{
    /* iterative on the right spine, recursive on the left (depth bounded by the parser) */
    while (n) {
        cond_node *next = n->b;
        cond_free(n->a);
        cond_ref_free(&n->l);
        cond_ref_free(&n->r);
        free(n);
        n = next;
    }
}

/* Compares two references with the values a and b, a constant as the other side's type reads
   it (ISA §5.2.2): `x == -3` holds for an .s32 or a .u32 location holding 0xfffffffd.  Order:
   signed, except for 64-bit unsigned and bit-size types. */
int cond_compare(cond_op op, const cond_ref *l, int64_t a, const cond_ref *r, int64_t b)
{
    if (l->k == REF_CONST && r->k != REF_CONST) a = isa_value(r->type, (uint64_t)a);
    if (r->k == REF_CONST && l->k != REF_CONST) b = isa_value(l->type, (uint64_t)b);
    isa_type t = l->k != REF_CONST ? l->type : r->type;
    int unsig = isa_type_bits(t) == 64 && !isa_type_is_signed(t) && !isa_type_is_float(t);
    int c =
        unsig ? ((uint64_t)a < (uint64_t)b ? -1 : (uint64_t)a > (uint64_t)b) : (a < b ? -1 : a > b);
    switch (op) {
    case CN_EQ: return c == 0;
    case CN_NE: return c != 0;
    case CN_LT: return c < 0;
    case CN_LE: return c <= 0;
    case CN_GT: return c > 0;
    case CN_GE: return c >= 0;
    default: return 0;
    }
}

int cond_eval(const cond_node *n, cond_valfn val, void *ctx)
{
    switch (n->op) {
    case CN_TRUE: return 1;
    case CN_FALSE: return 0;
    case CN_AND: return cond_eval(n->a, val, ctx) && cond_eval(n->b, val, ctx);
    case CN_OR: return cond_eval(n->a, val, ctx) || cond_eval(n->b, val, ctx);
    case CN_NOT: return !cond_eval(n->a, val, ctx);
    case CN_EQ: case CN_NE: case CN_LT: case CN_LE: case CN_GT: case CN_GE:
        return cond_compare(n->op, &n->l, val(ctx, &n->l), &n->r, val(ctx, &n->r));
    }
    return 0;
}

int cond_is_compare(cond_op op) { return op >= CN_EQ; }

void cond_foreach_ref(const cond_node *n, void (*fn)(void *ctx, const cond_ref *r), void *ctx)
{
    if (!n) return;
    if (cond_is_compare(n->op)) {
        if (n->l.k != REF_CONST) fn(ctx, &n->l);
        if (n->r.k != REF_CONST) fn(ctx, &n->r);
        return;
    }
    cond_foreach_ref(n->a, fn, ctx);
    cond_foreach_ref(n->b, fn, ctx);
}

static size_t put(char *buf, size_t len, size_t at, const char *s)
{
    size_t l = strlen(s);
    if (at < len) {
        size_t room = len - at - 1;
        memcpy(buf + at, s, l < room ? l : room);
        buf[at + (l < room ? l : room)] = 0;
    }
    return at + l;
}

static size_t print_rec(const cond_node *n, char *buf, size_t len, size_t at, int top)
{
    switch (n->op) {
    case CN_TRUE: return put(buf, len, at, "true");
    case CN_FALSE: return put(buf, len, at, "false");
    case CN_NOT:
        at = put(buf, len, at, "~");
        return print_rec(n->a, buf, len, at, 0);
    case CN_AND: case CN_OR:
        if (!top) at = put(buf, len, at, "(");
        at = print_rec(n->a, buf, len, at, n->a->op == n->op);
        at = put(buf, len, at, n->op == CN_AND ? " /\\ " : " \\/ ");
        at = print_rec(n->b, buf, len, at, n->b->op == n->op);
        if (!top) at = put(buf, len, at, ")");
        return at;
    case CN_EQ: case CN_NE: case CN_LT: case CN_LE: case CN_GT: case CN_GE: {
        static const char *const sym[] = { "=", "!=", "<", "<=", ">", ">=" };
        at = put(buf, len, at, n->l.name);
        at = put(buf, len, at, sym[n->op - CN_EQ]);
        return put(buf, len, at, n->r.name);
    }
    }
    return at;
}

size_t cond_print(const cond_node *n, char *buf, size_t len)
{
    if (len) buf[0] = 0;
    size_t at = put(buf, len, 0, "(");
    at = print_rec(n, buf, len, at, 1);
    return put(buf, len, at, ")");
}

const char *cond_kind_name(cond_kind k)
{
    return k == COND_EXISTS ? "exists" : k == COND_NOT_EXISTS ? "~exists" : "forall";
}
