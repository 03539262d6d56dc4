/* frontend/ptx_lex.h — tokenizer for PTX modules (ISA 8.4 §4.1-4.5: comments, statements,
 * identifiers, constants).  Produces a flat token array with line/column positions. */
#ifndef PTX_FRONTEND_PTX_LEX_H
#define PTX_FRONTEND_PTX_LEX_H
#include <stddef.h>
#include <stdint.h>

typedef enum {
    PTK_EOF = 0,
    PTK_WORD, /* identifier, directive (.reg), mnemonic (ld.param.u64), register (%r1, %tid.x) */
    PTK_INT, /* integer constant (§4.5.1): decimal, 0x hex, 0 octal, 0b binary; value in u */
    PTK_F32, /* 0fXXXXXXXX single-precision bit pattern (§4.5.2) in u */
    PTK_F64, /* 0dXXXXXXXXXXXXXXXX double bit pattern in u */
    PTK_FLT, /* decimal floating constant, value in d */
    PTK_STRING, /* "..." (text without quotes) */
    PTK_PUNCT /* one character: , ; : [ ] { } ( ) < > + - | ! @ = * / ~ & ^ % */
} ptx_tok_kind;

typedef struct {
    ptx_tok_kind kind;
    int line, col;
    const char *text;   /* NUL-terminated copy (owned by the token array) */
    uint64_t u;         /* integer value / float bit pattern */
    double d;
    char c;             /* PTK_PUNCT character */
} ptx_tok;

typedef struct {
    ptx_tok *t;
    size_t n, cap;
    char *pool;         /* storage of the token texts */
} ptx_toks;

/* Tokenize src (len bytes).  Returns 0, or -1 with "line:col: message" in err. */
int ptx_lex(const char *src, size_t len, ptx_toks *out, char *err, size_t errlen);
void ptx_toks_free(ptx_toks *t);
#endif
