/* frontend/lex.c — tokenizer for litmus files and conditions.
 * Identifiers may contain '.', '%', '$', '_' and '::' (real PTX `ld.shared::cta`); a single ':'
 * separates (`P0:r1`).  Comments: (* ... *) and // to end of line.  Strings: "..." (may span
 * lines).  Punctuators: { } ( ) [ ] ; , | : = @ ! ~ + - * and == != /\ \/ . */
#include "frontend/lex.h"
#include <ctype.h>
#include <errno.h>
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

int lex_all(const char *file, const char *text, tokvec *out, char *err, size_t errlen)
{
    int line = 1, col = 1;
    const char *p = text;
    memset(out, 0, sizeof *out);
#define ADV(k) do { for (int _i = 0; _i < (k); _i++) { if (*p == '\n') { line++; col = 1; } else col++; p++; } } while (0)
#define FAIL(...) do { int _o = snprintf(err, errlen, "%s:%d:%d: ", file, line, col); \
        if (_o >= 0 && (size_t)_o < errlen) snprintf(err + _o, errlen - (size_t)_o, __VA_ARGS__); \
        tokvec_free(out); return -1; } while (0)
    while (*p) {
        unsigned char c = (unsigned char)*p;
        if (c == '\n' || c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') { ADV(1); continue; }
        if (c == '<' && p[1] == '<') {
            /* ExecConfig '<<' .*? '>>' (LitmusAssertions.g4 BaseLexer): a launch configuration,
               skipped like a comment */
            int l0 = line, c0 = col;
            ADV(2);
            while (*p && !(p[0] == '>' && p[1] == '>')) ADV(1);
            if (!*p) { line = l0; col = c0; FAIL("found an unterminated launch configuration '<<', expected '>>' before the end of the file"); }
            ADV(2);
            continue;
        }
        if (c == '(' && p[1] == '*') {
            int l0 = line, c0 = col;
            ADV(2);
            while (*p && !(p[0] == '*' && p[1] == ')')) ADV(1);
            if (!*p) { line = l0; col = c0; FAIL("found an unterminated comment '(*', expected '*)' before the end of the file"); }
            ADV(2);
            continue;
        }
        if (c == '/' && p[1] == '/') { while (*p && *p != '\n') ADV(1); continue; }
        token t = { .line = line, .col = col, .s = p };
        if (c == '"') {
            int l0 = line, c0 = col;
            ADV(1);
            t.s = p;
            while (*p && *p != '"') ADV(1);
            if (!*p) { line = l0; col = c0; FAIL("found an unterminated string, expected a closing '\"'"); }
            t.k = TK_STR; t.len = (int)(p - t.s);
            ADV(1);
        } else if (isdigit(c)) {
            const char *q = p;
            int base = 10, fbits = 0;
            if (c == '0' && (p[1] == 'x' || p[1] == 'X')) { base = 16; q += 2; }
            /* §4.5.1 floating-point constants by their bits: 0fXXXXXXXX (.f32), 0dXXXX... (.f64),
               and binary 0b...; a litmus value is the bit pattern the instruction sees */
            else if (c == '0' && (p[1] == 'f' || p[1] == 'F' || p[1] == 'd' || p[1] == 'D')) {
                base = 16; q += 2; fbits = (p[1] == 'f' || p[1] == 'F') ? 8 : 16;
            } else if (c == '0' && (p[1] == 'b' || p[1] == 'B') && (p[2] == '0' || p[2] == '1')) { base = 2; q += 2; }
            const char *d = q;
            while (base == 2 ? (*q == '0' || *q == '1')
                             : isxdigit((unsigned char)*q) && (base == 16 || isdigit((unsigned char)*q))) q++;
            const char *w = q;   /* end of the whole word, for messages */
            while (isalnum((unsigned char)*w) || *w == '_') w++;
            int wl = (int)(w - p) > 40 ? 40 : (int)(w - p);
            if (q == d) FAIL("found '%.*s', expected hexadecimal digits after '0x'", wl, p);
            if (fbits && q - d != fbits)
                FAIL("found '%.*s', expected exactly %d hexadecimal digits after '%.2s' (§4.5.1)", wl, p, fbits, p);
            if (isalpha((unsigned char)*q) || *q == '_') {
                if (*q == 'U' && !isalnum((unsigned char)q[1])) q++;   /* PTX 123U suffix */
                else FAIL("found '%.*s', expected a number (decimal digits, or 0x and hexadecimal digits)", wl, p);
            }
            errno = 0;
            unsigned long long v = strtoull(base != 10 ? p + 2 : p, NULL, base);
            if (errno == ERANGE) FAIL("found the number '%.*s%s', expected a value that fits in 64 bits",
                                      (int)(q - p) > 40 ? 40 : (int)(q - p), p, q - p > 40 ? "..." : "");
            t.k = TK_NUM; t.num = (int64_t)v; t.len = (int)(q - p);
            ADV(t.len);
        } else if (ident_start(c)) {
            const char *q = p + 1;
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
                    FAIL("found '%.*s%s', expected a name with '%%' only as its first character (e.g. %%r1)",
                         wl, p, q - p > 40 ? "..." : "");
                }
            t.k = TK_IDENT; t.len = (int)(q - p);
            ADV(t.len);
        } else {
            t.k = TK_PUNCT; t.len = 1;
            if (c == '=' && p[1] == '=') { t.p = P_EQEQ; t.len = 2; }
            else if (c == '!' && p[1] == '=') { t.p = P_NE; t.len = 2; }
            else if (c == '<' && p[1] == '=') { t.p = P_LE; t.len = 2; }
            else if (c == '>' && p[1] == '=') { t.p = P_GE; t.len = 2; }
            else if (c == '/' && p[1] == '\\') { t.p = P_AND; t.len = 2; }
            else if (c == '=' && p[1] == '>') { t.p = P_IMPL; t.len = 2; }
            else if (c == '\\' && p[1] == '/') { t.p = P_OR; t.len = 2; }
            else if (strchr("{}()[];,|:=@!~+-*<>&", c)) t.p = c;
            else if (c >= 0x20 && c < 0x7f) FAIL("found the character '%c', expected an identifier, a number or punctuation", c);
            else FAIL("found the byte 0x%02x, expected printable ASCII text", c);
            ADV(t.len);
        }
        if (push(out, t)) FAIL("out of memory");
        /* the test name after the leading `PTX` is free text up to the end of the line
           (herd names such as 2+2W+rel are not tokens) */
        if (out->n == 1 && t.k == TK_IDENT && t.len == 3 && !strncasecmp(t.s, "PTX", 3)) {
            while (*p == ' ' || *p == '\t') ADV(1);
            token nm = { .k = TK_IDENT, .line = line, .col = col, .s = p };
            while (*p && *p != '\n' && *p != '\r' && *p != '"' && !(p[0] == '(' && p[1] == '*')) ADV(1);
            nm.len = (int)(p - nm.s);
            while (nm.len > 0 && (nm.s[nm.len - 1] == ' ' || nm.s[nm.len - 1] == '\t')) nm.len--;
            if (nm.len > 0 && push(out, nm)) FAIL("out of memory");
        }
    }
    token e = { .k = TK_EOF, .line = line, .col = col, .s = p };
    if (push(out, e)) FAIL("out of memory");
    return 0;
#undef ADV
#undef FAIL
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
