/* frontend/lex.c — tokenizer for litmus files and conditions.
 * Identifiers may contain '.', '%', '$', '_' and '::' (real PTX `ld.shared::cta`); a single ':'
 * separates (`P0:r1`).  Comments: (* ... *) and // to end of line.  Strings: "..." (may span
 * lines).  Punctuators: { } ( ) [ ] ; , | : = @ ! ~ + - * and == != /\ \/ . */
#include "frontend/lex.h"
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int push(tokvec *tv, token t)
{
    if (tv->n == tv->cap) {
        int nc = tv->cap ? tv->cap * 2 : 256;
        token *nv = realloc(tv->v, (size_t)nc * sizeof *nv);
        if (!nv) return -1;
        tv->v = nv; tv->cap = nc;
    }
    tv->v[tv->n++] = t;
    return 0;
}

static int ident_start(int c) { return isalpha(c) || c == '_' || c == '%' || c == '$' || c == '.'; }
static int ident_char(int c) { return isalnum(c) || c == '_' || c == '%' || c == '$' || c == '.'; }

/* the lexer's place in the text, with the line and column messages name */
typedef struct {
    const char *file;
    const char *p;
    int line, col;
    char *err;
    size_t errlen;
} lexer;

/* Advances k characters, counting lines and columns. */
static void adv(lexer *L, int k)
{
    for (int i = 0; i < k; i++) {
        if (*L->p == '\n') { L->line++; L->col = 1; } else L->col++;
        L->p++;
    }
}

/* Writes "file:line:col: " and the message at the current place into L->err; returns -1. */
__attribute__((format(printf, 2, 3)))
static int lex_fail(lexer *L, const char *fmt, ...)
{
    int o = snprintf(L->err, L->errlen, "%s:%d:%d: ", L->file, L->line, L->col);
    if (o >= 0 && (size_t)o < L->errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(L->err + o, L->errlen - (size_t)o, fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* Skips a text from open to close such as a comment (* ... *); what names the unterminated
 * text in the message, placed at its start. */
static int skip_delimited(lexer *L, const char *open, const char *close, const char *what)
{
    int l0 = L->line, c0 = L->col;
    adv(L, 2);
    while (*L->p && !(L->p[0] == close[0] && L->p[1] == close[1])) adv(L, 1);
    if (!*L->p) {
        L->line = l0; L->col = c0;
        return lex_fail(L,
                        "found an unterminated %s '%s', expected '%s' before the end of the file",
                        what, open, close);
    }
    adv(L, 2);
    return 0;
}

/* A string "..." (it may span lines) into t; t's text is between the quotes. */
static int lex_string(lexer *L, token *t)
{
    int l0 = L->line, c0 = L->col;
    adv(L, 1);
    t->s = L->p;
    while (*L->p && *L->p != '"') adv(L, 1);
    if (!*L->p) {
        L->line = l0;
        L->col = c0;
        return lex_fail(L, "found an unterminated string, expected a closing '\"'");
    }
    t->k = TK_STR; t->len = (int)(L->p - t->s);
    adv(L, 1);
    return 0;
}

/* A number into t: decimal, 0x hexadecimal, 0b binary, or a float by its bits (0f, 0d);
 * an optional U suffix. */
static int lex_number(lexer *L, token *t)
{
    const char *p = L->p, *q = p;
    unsigned char c = (unsigned char)*p;
    int base = 10, fbits = 0;
    if (c == '0' && (p[1] == 'x' || p[1] == 'X')) { base = 16; q += 2; }
    /* §4.5.1 floating-point constants by their bits: 0fXXXXXXXX (.f32), 0dXXXX... (.f64),
       and binary 0b...; a litmus value is the bit pattern the instruction sees */
    else if (c == '0' && (p[1] == 'f' || p[1] == 'F' || p[1] == 'd' || p[1] == 'D')) {
        base = 16; q += 2; fbits = (p[1] == 'f' || p[1] == 'F') ? 8 : 16;
    } else if (c == '0' && (p[1] == 'b' || p[1] == 'B') && (p[2] == '0' || p[2] == '1')) {
        base = 2;
        q += 2;
    }
    const char *d = q;
    while (base == 2 ? (*q == '0' || *q == '1')
                     : isxdigit((unsigned char)*q) && (base == 16 || isdigit((unsigned char)*q)))
        q++;
    const char *w = q;   /* end of the whole word, for messages */
    while (isalnum((unsigned char)*w) || *w == '_') w++;
    int wl = (int)(w - p) > 40 ? 40 : (int)(w - p);
    if (q == d) return lex_fail(L, "found '%.*s', expected hexadecimal digits after '0x'", wl, p);
    if (fbits && q - d != fbits)
        return lex_fail(
            L, "found '%.*s', expected exactly %d hexadecimal digits after '%.2s' (§4.5.1)", wl, p,
            fbits, p);
    if (isalpha((unsigned char)*q) || *q == '_') {
        if (*q == 'U' && !isalnum((unsigned char)q[1])) q++;   /* PTX 123U suffix */
        else
            return lex_fail(
                L, "found '%.*s', expected a number (decimal digits, or 0x and hexadecimal digits)",
                wl, p);
    }
    errno = 0;
    unsigned long long v = strtoull(base != 10 ? p + 2 : p, NULL, base);
    if (errno == ERANGE)
        return lex_fail(L, "found the number '%.*s%s', expected a value that fits in 64 bits",
                        (int)(q - p) > 40 ? 40 : (int)(q - p), p, q - p > 40 ? "..." : "");
    t->k = TK_NUM; t->num = (int64_t)v; t->len = (int)(q - p);
    adv(L, t->len);
    return 0;
}

/* An identifier into t: ident_char()s, and '::' between them. */
static int lex_ident(lexer *L, token *t)
{
    const char *p = L->p, *q = p + 1;
    for (;;) {
        if (ident_char((unsigned char)*q)) q++;
        else if (q[0] == ':' && q[1] == ':' && ident_char((unsigned char)q[2])) q += 2;
        else break;
    }
    /* '%' begins a register name and appears nowhere else (PTX: %r1, %tid.x); `%%r1`
       or `a%b` would otherwise be a second spelling of a name (issue #16) */
    for (const char *r = p + 1; r < q; r++)
        if (*r == '%') {
            int wl = (int)(q - p) > 40 ? 40 : (int)(q - p);
            return lex_fail(
                L,
                "found '%.*s%s', expected a name with '%%' only as its first character (e.g. %%r1)",
                wl, p, q - p > 40 ? "..." : "");
        }
    t->k = TK_IDENT; t->len = (int)(q - p);
    adv(L, t->len);
    return 0;
}

/* A punctuator into t (two characters for == != <= >= /\ \/); anything else is refused. */
static int lex_punct(lexer *L, token *t)
{
    const char *p = L->p;
    unsigned char c = (unsigned char)*p;
    t->k = TK_PUNCT; t->len = 1;
    if (c == '=' && p[1] == '=') { t->p = P_EQEQ; t->len = 2; }
    else if (c == '!' && p[1] == '=') { t->p = P_NE; t->len = 2; }
    else if (c == '<' && p[1] == '=') { t->p = P_LE; t->len = 2; }
    else if (c == '>' && p[1] == '=') { t->p = P_GE; t->len = 2; }
    else if (c == '/' && p[1] == '\\') { t->p = P_AND; t->len = 2; }
    else if (c == '=' && p[1] == '>') { t->p = P_IMPL; t->len = 2; }
    else if (c == '\\' && p[1] == '/') { t->p = P_OR; t->len = 2; }
    else if (strchr("{}()[];,|:=@!~+-*<>&", c)) t->p = c;
    else if (c >= 0x20 && c < 0x7f)
        return lex_fail(
            L, "found the character '%c', expected an identifier, a number or punctuation", c);
    else return lex_fail(L, "found the byte 0x%02x, expected printable ASCII text", c);
    adv(L, t->len);
    return 0;
}

/* The test name after the leading `PTX`: free text up to the end of the line (herd names
 * such as 2+2W+rel are not tokens), one identifier token when not empty. */
static int lex_test_name(lexer *L, tokvec *out)
{
    while (*L->p == ' ' || *L->p == '\t') adv(L, 1);
    token nm = { .k = TK_IDENT, .line = L->line, .col = L->col, .s = L->p };
    while (*L->p && *L->p != '\n' && *L->p != '\r' && *L->p != '"' &&
           !(L->p[0] == '(' && L->p[1] == '*'))
        adv(L, 1);
    nm.len = (int)(L->p - nm.s);
    while (nm.len > 0 && (nm.s[nm.len - 1] == ' ' || nm.s[nm.len - 1] == '\t')) nm.len--;
    if (nm.len > 0 && push(out, nm)) return lex_fail(L, "out of memory");
    return 0;
}

/* The next token of the text, or none (*got = 0) after white space or a comment. */
static int lex_one(lexer *L, token *t, int *got)
{
    unsigned char c = (unsigned char)*L->p;
    const char *p = L->p;
    *got = 0;
    if (c == '\n' || c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
        adv(L, 1);
        return 0;
    }
    /* ExecConfig '<<' .*? '>>' (LitmusAssertions.g4 BaseLexer): a launch configuration,
       skipped like a comment */
    if (c == '<' && p[1] == '<') return skip_delimited(L, "<<", ">>", "launch configuration");
    if (c == '(' && p[1] == '*') return skip_delimited(L, "(*", "*)", "comment");
    if (c == '/' && p[1] == '/') { while (*L->p && *L->p != '\n') adv(L, 1); return 0; }
    *t = (token){ .line = L->line, .col = L->col, .s = p };
    *got = 1;
    if (c == '"') return lex_string(L, t);
    if (isdigit(c)) return lex_number(L, t);
    if (ident_start(c)) return lex_ident(L, t);
    return lex_punct(L, t);
}

int lex_all(const char *file, const char *text, tokvec *out, char *err, size_t errlen)
{
    lexer L = { .file = file, .p = text, .line = 1, .col = 1, .err = err, .errlen = errlen };
    memset(out, 0, sizeof *out);
    while (*L.p) {
        token t;
        int got;
        if (lex_one(&L, &t, &got)) { tokvec_free(out); return -1; }
        if (!got) continue;
        if (push(out, t)) { lex_fail(&L, "out of memory"); tokvec_free(out); return -1; }
        if (out->n == 1 && t.k == TK_IDENT && t.len == 3 && !strncasecmp(t.s, "PTX", 3) &&
            lex_test_name(&L, out)) { tokvec_free(out); return -1; }
    }
    token e = { .k = TK_EOF, .line = L.line, .col = L.col, .s = L.p };
    if (push(out, e)) { lex_fail(&L, "out of memory"); tokvec_free(out); return -1; }
    return 0;
}

void tokvec_free(tokvec *tv) { free(tv->v); tv->v = NULL; tv->n = tv->cap = 0; }

void tok_describe(const token *t, char *buf, size_t len)
{
    switch (t->k) {
    case TK_EOF: snprintf(buf, len, "the end of the file"); break;
    case TK_STR: snprintf(buf, len, "a string"); break;
    default: snprintf(buf, len, "'%.*s'", t->len > 40 ? 40 : t->len, t->s); break;
    }
}

int tok_is(const token *t, const char *id)
{
    return t->k == TK_IDENT && (int)strlen(id) == t->len && !memcmp(t->s, id, (size_t)t->len);
}

int tok_punct(const token *t, int p) { return t->k == TK_PUNCT && t->p == p; }
