/* frontend/cond.c — parser, evaluator and printer for final-state conditions (herd syntax).
 * Recursive descent with an explicit depth bound (COND_MAX_DEPTH) so that a deeply nested
 * input is rejected with a message instead of overflowing the stack. */
#include "frontend/cond.h"
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
} cparser;

static const token *cur(cparser *p) { return &p->tv->v[p->pos]; }

static void fail(cparser *p, const token *t, const char *expected)
{
    if (p->failed) return;
    char found[96];
    tok_describe(t, found, sizeof found);
    snprintf(p->err, p->errlen, "%s:%d:%d: found %s, expected %s", p->file, t->line, t->col, found, expected);
    p->failed = 1;
}

static void copy_name(char *dst, size_t n, const token *t)
{
    int l = t->len < (int)n - 1 ? t->len : (int)n - 1;
    memcpy(dst, t->s, (size_t)l);
    dst[l] = 0;
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
        snprintf(r->tname, sizeof r->tname, "P%lld", (long long)t->num);
        copy_name(r->rname, sizeof r->rname, rt);
        r->k = REF_REG;
        p->pos += 3;
    } else if (t->k == TK_NUM) {
        r->k = REF_CONST; r->val = neg ? -t->num : t->num;
        snprintf(r->name, sizeof r->name, "%lld", (long long)r->val);
        p->pos++;
        return 0;
    } else if (neg) {
        fail(p, t, "a number after '-'"); return -1;
    } else if (t->k == TK_IDENT && tok_punct(&p->tv->v[p->pos + 1], ':')) {
        const token *rt = &p->tv->v[p->pos + 2];
        if (rt->k != TK_IDENT) { fail(p, rt, "a register name after ':'"); return -1; }
        copy_name(r->tname, sizeof r->tname, t);
        copy_name(r->rname, sizeof r->rname, rt);
        r->k = REF_REG;
        p->pos += 3;
    } else if (t->k == TK_IDENT) {
        copy_name(r->rname, sizeof r->rname, t);
        r->k = REF_LOC;
        p->pos++;
    } else if (tok_punct(t, '[')) {
        const token *n = &p->tv->v[p->pos + 1];
        if (n->k != TK_IDENT) { fail(p, n, "a location name after '['"); return -1; }
        if (!tok_punct(&p->tv->v[p->pos + 2], ']')) { fail(p, &p->tv->v[p->pos + 2], "']'"); return -1; }
        copy_name(r->rname, sizeof r->rname, n);
        r->k = REF_LOC;
        p->pos += 3;
    } else {
        fail(p, t, "a register (P0:r1), a location or a number");
        return -1;
    }
    if (r->k == REF_REG) {
        const char *rn = r->rname[0] == '%' ? r->rname + 1 : r->rname;
        snprintf(r->name, sizeof r->name, "%s:%s", r->tname, rn);
    } else {
        snprintf(r->name, sizeof r->name, "%s", r->rname);
    }
    if (p->res && p->res(p->ctx, r, p->err, p->errlen)) { p->failed = 1; return -1; }
    return 0;
}

static cond_node *node(cond_op op) { cond_node *n = calloc(1, sizeof *n); if (n) n->op = op; return n; }

static cond_node *parse_or(cparser *p, int depth);

static cond_node *parse_unary(cparser *p, int depth)
{
    const token *t = cur(p);
    if (depth > p->max_depth) {
        if (!p->failed) {
            snprintf(p->err, p->errlen, "%s:%d:%d: found a condition nested more than %d levels deep, expected at most %d "
                     "levels of '(', '~' and chained '/\\' '\\/' (limit --max-depth)", p->file, t->line, t->col, p->max_depth, p->max_depth);
            p->failed = 1;
        }
        return NULL;
    }
    if (tok_punct(t, '~')) {
        p->pos++;
        cond_node *a = parse_unary(p, depth + 1);
        if (!a) return NULL;
        cond_node *n = node(CN_NOT);
        n->a = a;
        return n;
    }
    if (tok_punct(t, '(')) {
        p->pos++;
        cond_node *a = parse_or(p, depth + 1);
        if (!a) return NULL;
        if (!tok_punct(cur(p), ')')) { fail(p, cur(p), "')' or a connective '/\\' '\\/'"); cond_free(a); return NULL; }
        p->pos++;
        return a;
    }
    if (tok_is(t, "true") || tok_is(t, "false")) {
        p->pos++;
        return node(tok_is(t, "true") ? CN_TRUE : CN_FALSE);
    }
    cond_ref l, r;
    if (parse_ref(p, &l)) return NULL;
    const token *o = cur(p);
    cond_op op;
    if (tok_punct(o, '=') || tok_punct(o, P_EQEQ)) op = CN_EQ;
    else if (tok_punct(o, P_NE)) op = CN_NE;
    else { fail(p, o, "'=', '==' or '!='"); return NULL; }
    p->pos++;
    if (parse_ref(p, &r)) return NULL;
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

cond_node *cond_parse(const char *file, const tokvec *tv, int *pos, cond_resolver res, void *ctx,
                      int max_depth, char *err, size_t errlen)
{
    if (max_depth <= 0) max_depth = COND_MAX_DEPTH;
    if (max_depth > COND_DEPTH_CAP) max_depth = COND_DEPTH_CAP;
    cparser p = { file, tv, *pos, res, ctx, err, errlen, 0, max_depth };
    cond_node *n = parse_or(&p, 0);
    if (p.failed) { cond_free(n); return NULL; }
    *pos = p.pos;
    return n;
}

int cond_parse_ref(const char *file, const tokvec *tv, int *pos, cond_ref *out, char *err, size_t errlen)
{
    cparser p = { file, tv, *pos, NULL, NULL, err, errlen, 0, COND_MAX_DEPTH };
    if (parse_ref(&p, out)) return -1;
    *pos = p.pos;
    return 0;
}

void cond_free(cond_node *n)
{
    /* iterative on the right spine, recursive on the left (depth bounded by the parser) */
    while (n) {
        cond_node *next = n->b;
        cond_free(n->a);
        free(n);
        n = next;
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
    case CN_EQ: return val(ctx, &n->l) == val(ctx, &n->r);
    case CN_NE: return val(ctx, &n->l) != val(ctx, &n->r);
    }
    return 0;
}

void cond_foreach_ref(const cond_node *n, void (*fn)(void *ctx, const cond_ref *r), void *ctx)
{
    if (!n) return;
    if (n->op == CN_EQ || n->op == CN_NE) {
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
    case CN_EQ: case CN_NE:
        at = put(buf, len, at, n->l.name);
        at = put(buf, len, at, n->op == CN_EQ ? "=" : "!=");
        return put(buf, len, at, n->r.name);
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
