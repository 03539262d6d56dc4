/* frontend/litmus_opnd.c — the operands of one cell of a PTX litmus test (frontend/litmus_int.h
 * lp_cell): constants, addresses (`[x]`, `[%r+8]`, `x`), value operands (a register, an
 * immediate, a location's address), the ',' between them and the end of the instruction.  Read
 * by litmus_insn.c (ld, st, atom, red, ALU, ...) and litmus_async.c (mbarrier, cp.async, ...);
 * calls only the test being built (litmus_test.c) and the lexer. */
#include "frontend/litmus_int.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A constant: digits (decimal or 0x hex, up to 64 bits) with an optional '-'.  Negative
   values must fit in int64; positive values are kept as their 64-bit pattern. */
int lp_cell_const(lp_cell *c, int64_t *v)
{
    int neg = 0;
    if (c->i < c->b && tok_punct(lp_ctok(c), '-') && c->i + 1 < c->b &&
        c->p->tv.v[c->i + 1].k == TK_NUM) {
        neg = 1;
        c->i++;
    }
    const token *t = lp_ctok(c);
    uint64_t u = (uint64_t)t->num;
    if (neg && u > (uint64_t)INT64_MAX + 1) {
        lp_errat(
            c->p, t,
            "found -%.*s, expected a value that fits in 64 bits (at least -9223372036854775808)",
            t->len, t->s);
        return -1;
    }
    *v = neg ? (int64_t)(0 - u) : (int64_t)u;
    c->i++;
    return 0;
}

/* address operand: [sym], [sym+off], [reg], [reg+off], sym, reg */
int lp_cell_addr(lp_cell *c, lit_opnd *o)
{
    int bracket = 0;
    if (c->i < c->b && tok_punct(lp_ctok(c), '[')) { bracket = 1; c->i++; }
    const token *t = lp_ctok(c);
    if (c->i >= c->b || t->k != TK_IDENT) {
        lp_expect_fail(c->p, lp_cnext(c), "an address: a location name or a register");
        return -1;
    }
    char *n = lp_tokstr(t);
    const char *bare = lp_strip_pct(n);
    int r = lit_find_reg(c->th, bare);
    int s = lit_find_sym(c->p->t, n);
    memset(o, 0, sizeof *o);
    if (r >= 0 && s < 0) { o->k = OPD_REG; o->reg = r; }
    else if (s >= 0) { o->k = OPD_SYM; o->sym = s; }
    else if (n[0] == '%') { o->k = OPD_REG; o->reg = lp_add_reg(c->th, bare); }
    else { o->k = OPD_SYM; o->sym = lp_add_sym(c->p->t, n); }
    free(n);
    c->i++;
    if (bracket && c->i < c->b && (tok_punct(lp_ctok(c), '+') || tok_punct(lp_ctok(c), '-'))) {
        int neg = tok_punct(lp_ctok(c), '-');
        c->i++;
        if (c->i >= c->b || lp_ctok(c)->k != TK_NUM) {
            lp_expect_fail(c->p, lp_cnext(c), "a byte offset after '+'");
            return -1;
        }
        if (neg || lp_ctok(c)->num < 0 || lp_ctok(c)->num > 4096) {
            lp_errat(
                c->p, lp_ctok(c),
                "found the offset %s%.*s, expected a byte offset from 0 to 4096 into the location",
                neg ? "-" : "", lp_ctok(c)->len, lp_ctok(c)->s);
            return -1;
        }
        o->off = lp_ctok(c)->num;
        c->i++;
    }
    if (bracket) {
        if (c->i >= c->b || !tok_punct(lp_ctok(c), ']')) {
            lp_expect_fail(c->p, lp_cnext(c), "']'");
            return -1;
        }
        c->i++;
    }
    return 0;
}

/* value operand: register, immediate, or a symbol's address */
int lp_cell_value(lp_cell *c, lit_opnd *o, int dst)
{
    memset(o, 0, sizeof *o);
    const token *t = lp_ctok(c);
    if (c->i >= c->b) {
        lp_expect_fail(c->p, lp_cend(c), dst ? "a destination register" : "an operand");
        return -1;
    }
    if (!dst && (t->k == TK_NUM ||
                 (tok_punct(t, '-') && c->i + 1 < c->b && c->p->tv.v[c->i + 1].k == TK_NUM))) {
        o->k = OPD_IMM;
        return lp_cell_const(c, &o->imm);
    }
    if (t->k == TK_IDENT) {
        char *n = lp_tokstr(t);
        if (strchr(n, '.')) {   /* %r1.b0 (a video selector), %tid.x (a special register) */
            lp_errat(c->p, t,
                     "found '%s', expected a register or a location: operand selectors and "
                     "special registers (%%tid.x, ...) are not supported in litmus tests",
                     n);
            free(n);
            return -1;
        }
        if (tok_is(t, "_")) { o->k = OPD_NONE;
        } /* PTX sink register */
        else if (!dst && n[0] != '%' && lit_find_reg(c->th, n) < 0 &&
                 lit_find_sym(c->p->t, n) >= 0) {
            o->k = OPD_SYM; o->sym = lit_find_sym(c->p->t, n);
        } else {
            o->k = OPD_REG;
            o->reg = lp_add_reg(c->th, n);
        }
        free(n);
        c->i++;
        return 0;
    }
    if (!dst && tok_punct(t, '[')) return lp_cell_addr(c, o);
    if (tok_punct(t, '{')) {
        lp_errat(c->p, t,
                 "found a vector operand '{', expected a scalar: vector accesses are not supported "
                 "in litmus tests (§8.2.4 models them as several scalar accesses; write those)");
        return -1;
    }
    lp_expect_fail(c->p, t,
                   dst ? "a destination register" : "a register, an integer or a location");
    return -1;
}

int lp_cell_comma(lp_cell *c)
{
    if (c->i >= c->b || !tok_punct(lp_ctok(c), ',')) {
        lp_expect_fail(c->p, lp_cnext(c), "','");
        return -1;
    }
    c->i++;
    return 0;
}

int lp_cell_end(lp_cell *c, const char *what)
{
    if (c->i < c->b) {
        char e[96];
        snprintf(e, sizeof e, "the end of the %.60s instruction", what);
        lp_expect_fail(c->p, lp_ctok(c), e);
        return -1;
    }
    return 0;
}
