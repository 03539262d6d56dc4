/* frontend/cat_lex.h — the tokenizer of the cat language, and the arena the cat front end
 * allocates from (the whole model is freed at once, which keeps error paths leak-free). */
#ifndef PTX_FRONTEND_CAT_LEX_H
#define PTX_FRONTEND_CAT_LEX_H
#include <stddef.h>

typedef struct cat_arena cat_arena;
cat_arena *cat_arena_new(void);
void *cat_arena_alloc(cat_arena *a, size_t n);   /* zeroed; NULL when out of memory */
char *cat_arena_strndup(cat_arena *a, const char *s, size_t n);
void cat_arena_free(cat_arena *a);

typedef enum {
    CT_EOF, CT_NAME, CT_NUM, CT_STR, CT_TAG,
    CT_LPAR, CT_RPAR, CT_LBRAC, CT_RBRAC, CT_LBRACE, CT_RBRACE, CT_COMMA, CT_EQ,
    CT_BAR, CT_BARBAR, CT_AMP, CT_BSLASH, CT_SEMI, CT_STAR, CT_PLUS, CT_PLUSPLUS, CT_QUEST,
    CT_TILDE, CT_INV, CT_HATPLUS, CT_HATSTAR, CT_ARROW,
    /* keywords */
    CT_LET, CT_REC, CT_AND, CT_IN, CT_AS, CT_FUN, CT_MATCH, CT_WITH, CT_END, CT_BEGIN, CT_TRY,
    CT_INCLUDE, CT_ACYCLIC, CT_IRREFLEXIVE, CT_EMPTY, CT_FLAG, CT_UNDEF, CT_SHOW, CT_UNSHOW,
    CT_PROCEDURE, CT_CALL, CT_FORALL, CT_DO, CT_FROM, CT_ENUM, CT_IF, CT_VARIANT, CT_ELSE,
    CT_INSTRUCTIONS
} cat_tk;

/* s/len: the token's text (CT_STR: between the quotes; CT_TAG: after the quote) */
typedef struct { cat_tk k; int line, col; const char *s; int len; } cat_tok;

/* Tokenizes text (which must outlive the tokens).  Returns the number of tokens, the last one
 * CT_EOF, in *out (arena memory), or -1 with "file:line:col: found X, expected Y" in err. */
int cat_lex(cat_arena *a, const char *file, const char *text, cat_tok **out, char *err,
            size_t errlen);
/* "'text'", "the end of the file", "the string \"...\"", "the tag 'x" — for "found X". */
void cat_tok_describe(const cat_tok *t, char *buf, size_t len);
const char *cat_tk_spelling(cat_tk k);   /* "'let'", "'('", "a name", ... */
#endif
