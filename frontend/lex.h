/* frontend/lex.h — the tokenizer shared by the litmus and condition parsers.
 * Tokens carry their line and column so every diagnostic can say file:line:col. */
#ifndef PTX_FRONTEND_LEX_H
#define PTX_FRONTEND_LEX_H
#include <stddef.h>
#include <stdint.h>

typedef enum { TK_EOF, TK_IDENT, TK_NUM, TK_STR, TK_PUNCT } tk_kind;
/* multi-character punctuators; single characters use their own code */
enum { P_EQEQ = 256, P_NE, P_AND, P_OR, P_LE, P_GE, P_IMPL /* => */ };

typedef struct {
    tk_kind k;
    int line, col;
    const char *s;   /* points into the source text */
    int len;
    int64_t num;     /* TK_NUM value */
    int p;           /* TK_PUNCT code */
} token;

typedef struct { token *v; int n, cap; } tokvec;

/* Tokenize text.  Returns 0, or -1 with "file:line:col: message" in err. */
int lex_all(const char *file, const char *text, tokvec *out, char *err, size_t errlen);
void tokvec_free(tokvec *tv);
/* Human-readable description of a token for "found X" messages. */
void tok_describe(const token *t, char *buf, size_t len);
int tok_is(const token *t, const char *ident);       /* identifier equal to ident */
int tok_punct(const token *t, int p);
#endif
