/* frontend/ptx_lex.c — PTX tokenizer (ISA 8.4 §4.1 source format, §4.2 comments, §4.4
 * identifiers, §4.5 constants, the predefined constant WARP_SZ).  Words may contain '.', so
 * `ld.global.u32`, `.reg` and `%tid.x` are single tokens; the parser splits mnemonics on '.'. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "frontend/ptx_lex.h"

static int push(ptx_toks *o, ptx_tok tk)
{
    if (o->n == o->cap) {
        size_t nc = o->cap ? o->cap * 2 : 1024;
        ptx_tok *nt = realloc(o->t, nc * sizeof *nt);
        if (!nt) return -1;
        o->t = nt; o->cap = nc;
    }
    o->t[o->n++] = tk;
    return 0;
}

/* §4.4: followsym [a-zA-Z0-9_$]; we also allow '.' inside words (mnemonic modifiers). */
static int word_start(int c) { return isalpha(c) || c == '_' || c == '$' || c == '%' || c == '.'; }
static int word_char(int c) { return isalnum(c) || c == '_' || c == '$' || c == '.'; }

int ptx_lex(const char *s, size_t len, ptx_toks *o, char *err, size_t errlen)
{
    memset(o, 0, sizeof *o);
    /* every token text is at most its source length + 1, so len*2+16 bytes always suffice */
    o->pool = malloc(len * 2 + 16);
    if (!o->pool) { snprintf(err, errlen, "1:1: out of memory"); return -1; }
    char *pp = o->pool;
    size_t i = 0; int line = 1, col = 1;
#define ADV() do { if (s[i] == '\n') { line++; col = 1; } else col++; i++; } while (0)
    while (i < len) {
        int c = (unsigned char)s[i];
        if (c == '\n' || c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            ADV();
            continue;
        }
        if (c == '/' && i + 1 < len && s[i + 1] == '/') {
            while (i < len && s[i] != '\n') ADV();
            continue;
        }
        if (c == '/' && i + 1 < len && s[i + 1] == '*') {
            int l0 = line, c0 = col; ADV(); ADV();
            while (i < len && !(s[i] == '*' && i + 1 < len && s[i + 1] == '/')) ADV();
            if (i >= len) {
                snprintf(err, errlen, "%d:%d: unterminated comment, expected '*/'", l0, c0);
                return -1;
            }
            ADV(); ADV(); continue;
        }
        ptx_tok tk = { .line = line, .col = col };
        size_t st = i;
        if (c == '"') {
            ADV();
            while (i < len && s[i] != '"' && s[i] != '\n') {
                if (s[i] == '\\' && i + 1 < len) ADV();
                ADV();
            }
            if (i >= len || s[i] != '"') {
                snprintf(err, errlen, "%d:%d: unterminated string, expected '\"'", tk.line, tk.col);
                return -1;
            }
            ADV();
            tk.kind = PTK_STRING;
            memcpy(pp, s + st + 1, i - st - 2); pp[i - st - 2] = 0;
        } else if (word_start(c)) {
            ADV();
            /* words may contain '::' (ld.shared::cta, L2::cache_hint) */
            while (i < len && (word_char((unsigned char)s[i]) ||
                               (s[i] == ':' && i + 2 < len && s[i + 1] == ':' &&
                                word_char((unsigned char)s[i + 2])))) {
                if (s[i] == ':') ADV();
                ADV();
            }
            tk.kind = PTK_WORD;
            memcpy(pp, s + st, i - st); pp[i - st] = 0;
            /* §4.5.1: "The predefined integer constant WARP_SZ specifies the number of threads
               per warp ... all target architectures have a WARP_SZ value of 32"; §2.2: usable
               wherever an immediate operand is (nvcc's __shfl_*_sync on __half and bf16 emit
               `mov.u32 %r, WARP_SZ`).  A predefined identifier (Table 3), never a symbol. */
            if (!strcmp(pp, "WARP_SZ")) { tk.kind = PTK_INT; tk.u = 32; }
        } else if (isdigit(c)) {
            while (i < len && (isalnum((unsigned char)s[i]) || s[i] == '.' ||
                   ((s[i] == '+' || s[i] == '-') && (s[i - 1] == 'e' || s[i - 1] == 'E') &&
                    !(s[st] == '0' && i > st + 1 && strchr("xXfFdD", s[st + 1])))))
                ADV();
            memcpy(pp, s + st, i - st); pp[i - st] = 0;
            const char *t = pp; size_t n = i - st;
            char *end; errno = 0;
            if (n > 2 && t[0] == '0' && (t[1] == 'f' || t[1] == 'F') && n == 10) {
                tk.kind = PTK_F32; tk.u = strtoull(t + 2, &end, 16);
            } else if (n > 2 && t[0] == '0' && (t[1] == 'd' || t[1] == 'D') && n == 18) {
                tk.kind = PTK_F64; tk.u = strtoull(t + 2, &end, 16);
            } else if (strpbrk(t, ".eE") && !(n > 1 && (t[1] == 'x' || t[1] == 'X'))) {
                tk.kind = PTK_FLT; tk.d = strtod(t, &end);
            } else {
                tk.kind = PTK_INT;
                const char *b = t; int base = 10;
                if (n > 1 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) { base = 16; b = t + 2;
                } else if (n > 1 && t[0] == '0' && (t[1] == 'b' || t[1] == 'B')) {
                    base = 2;
                    b = t + 2;
                } else if (n > 1 && t[0] == '0') {
                    base = 8;
                    b = t + 1;
                }
                tk.u = strtoull(b, &end, base);
                if (*end == 'U' || *end == 'u') end++;   /* §4.5.1 unsigned suffix */
            }
            if (*end || errno) {
                snprintf(
                    err, errlen,
                    "%d:%d: malformed constant '%s', expected a PTX integer or floating constant",
                    tk.line, tk.col, t);
                return -1;
            }
        } else if (strchr(",;:[]{}()<>+-|!@=*/~&^", c)) {
            ADV();
            tk.kind = PTK_PUNCT; tk.c = (char)c;
            pp[0] = (char)c; pp[1] = 0;
        } else {
            snprintf(err, errlen, "%d:%d: unexpected character '%c' (0x%02x), expected a PTX token",
                     line, col, isprint(c) ? c : '?', c);
            return -1;
        }
        tk.text = pp; pp += strlen(pp) + 1;
        if (push(o, tk)) { snprintf(err, errlen, "%d:%d: out of memory", line, col); return -1; }
    }
    ptx_tok e = { .kind = PTK_EOF, .line = line, .col = col, .text = "end of file" };
    if (push(o, e)) { snprintf(err, errlen, "%d:%d: out of memory", line, col); return -1; }
    return 0;
}

void ptx_toks_free(ptx_toks *t) { free(t->t); free(t->pool); memset(t, 0, sizeof *t); }
