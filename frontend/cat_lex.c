/* frontend/cat_lex.c — tokenizer for cat models, and the front end's arena allocator.
 *
 * Names are a letter or '_' followed by letters, digits, '_', '.' and '-' (herd: `po-loc`,
 * Dat3M: `sync_fence`); so `co-1` is one name and the inverse is written `co^-1` or `co -1`.
 * Numbers are a digit followed by name characters (only `0` means something: the empty
 * relation).  Comments: (* … *) (nested, herd), slash-star … star-slash (Dat3M, not nested) and
 * // to the end of the line.
 * Strings: "…" on one line.  Tags: 'name. */
#include "frontend/cat_lex.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------- arena ---------- */

struct chunk { struct chunk *next; size_t used, cap; max_align_t data[]; };
struct cat_arena { struct chunk *head; };

cat_arena *cat_arena_new(void) { return calloc(1, sizeof(cat_arena)); }

void *cat_arena_alloc(cat_arena *a, size_t n)
{
    const size_t al = sizeof(max_align_t);
    n = (n + al - 1) / al * al;
    if (n == 0) n = al;
    struct chunk *c = a->head;
    if (!c || c->cap - c->used < n) {
        size_t cap = n > 16384 ? n : 16384;
        c = malloc(sizeof *c + cap);
        if (!c) return NULL;
        c->used = 0; c->cap = cap; c->next = a->head;
        a->head = c;
    }
    void *p = (char *)c->data + c->used;
    c->used += n;
    memset(p, 0, n);
    return p;
}

char *cat_arena_strndup(cat_arena *a, const char *s, size_t n)
{
    char *d = cat_arena_alloc(a, n + 1);
    if (!d) return NULL;
    memcpy(d, s, n);
    d[n] = 0;
    return d;
}

void cat_arena_free(cat_arena *a)
{
    if (!a) return;
    for (struct chunk *c = a->head, *nx; c; c = nx) { nx = c->next; free(c); }
    free(a);
}

/* ---------- tokens ---------- */

/* keywords, in the order of cat_tk from CT_LET; quoted for messages */
static const char *const keywords[] = {
    "'let'", "'rec'", "'and'", "'in'", "'as'", "'fun'", "'match'", "'with'", "'end'", "'begin'",
    "'try'", "'include'", "'acyclic'", "'irreflexive'", "'empty'", "'flag'",
    "'undefined_unless'", "'show'", "'unshow'", "'procedure'", "'call'", "'forall'", "'do'",
    "'from'", "'enum'", "'if'", "'variant'", "'else'", "'instructions'",
};
#define NKEYWORDS ((int)(sizeof keywords / sizeof keywords[0]))

static const char *const spell[] = {
    [CT_EOF] = "the end of the file", [CT_NAME] = "a name", [CT_NUM] = "a number",
    [CT_STR] = "a string", [CT_TAG] = "a tag", [CT_LPAR] = "'('", [CT_RPAR] = "')'",
    [CT_LBRAC] = "'['", [CT_RBRAC] = "']'", [CT_LBRACE] = "'{'", [CT_RBRACE] = "'}'",
    [CT_COMMA] = "','", [CT_EQ] = "'='", [CT_BAR] = "'|'", [CT_BARBAR] = "'||'",
    [CT_AMP] = "'&'", [CT_BSLASH] = "'\\'", [CT_SEMI] = "';'", [CT_STAR] = "'*'",
    [CT_PLUS] = "'+'", [CT_PLUSPLUS] = "'++'", [CT_QUEST] = "'?'", [CT_TILDE] = "'~'",
    [CT_INV] = "'^-1'", [CT_HATPLUS] = "'^+'", [CT_HATSTAR] = "'^*'", [CT_ARROW] = "'->'",
};

const char *cat_tk_spelling(cat_tk k)
{
    if (k < CT_LET) return spell[k];
    return (int)(k - CT_LET) < NKEYWORDS ? keywords[k - CT_LET] : "a keyword";
}

void cat_tok_describe(const cat_tok *t, char *buf, size_t len)
{
    int n = t->len > 40 ? 40 : t->len;
    const char *more = t->len > 40 ? "..." : "";
    switch (t->k) {
    case CT_EOF: snprintf(buf, len, "the end of the file"); break;
    case CT_STR: snprintf(buf, len, "the string \"%.*s%s\"", n, t->s, more); break;
    case CT_TAG: snprintf(buf, len, "the tag '%.*s%s", n, t->s, more); break;
    default: snprintf(buf, len, "'%.*s%s'", n, t->s, more); break;
    }
}

static int name_start(int c) { return isalpha(c) || c == '_'; }
static int name_char(int c) { return isalnum(c) || c == '_' || c == '.' || c == '-'; }

typedef struct {
    cat_arena *a;
    const char *file, *p;
    int line, col;
    cat_tok *v;
    int n, cap;
    char *err;
    size_t errlen;
} lexer;

static void adv(lexer *L, int k)
{
    for (int i = 0; i < k && *L->p; i++, L->p++) {
        if (*L->p == '\n') { L->line++; L->col = 1; } else L->col++;
    }
}

static int fail(lexer *L, int line, int col, const char *found, const char *expected)
{
    if (L->err && L->errlen)
        snprintf(L->err, L->errlen, "%s:%d:%d: found %s, expected %s", L->file, line, col, found,
                 expected);
    return -1;
}

static int push(lexer *L, cat_tk k, int line, int col, const char *s, int len)
{
    if (L->n == L->cap) {
        int nc = L->cap ? L->cap * 2 : 256;
        cat_tok *nv = cat_arena_alloc(L->a, (size_t)nc * sizeof *nv);
        if (!nv) return fail(L, line, col, "more text than memory allows", "a smaller model");
        if (L->n) memcpy(nv, L->v, (size_t)L->n * sizeof *nv);
        L->v = nv; L->cap = nc;
    }
    L->v[L->n++] = (cat_tok){ k, line, col, s, len };
    return 0;
}

/* skips a comment at L->p if there is one: 1 skipped, 0 none, -1 unterminated */
static int comment(lexer *L)
{
    const char *p = L->p;
    int l0 = L->line, c0 = L->col;
    if (p[0] == '/' && p[1] == '/') {
        while (*L->p && *L->p != '\n') adv(L, 1);
        return 1;
    }
    if (p[0] == '/' && p[1] == '*') {
        adv(L, 2);
        while (*L->p && !(L->p[0] == '*' && L->p[1] == '/')) adv(L, 1);
        if (!*L->p)
            return fail(L, l0, c0, "a comment '/*' that is not closed", "'*/' before the end");
        adv(L, 2);
        return 1;
    }
    if (p[0] == '(' && p[1] == '*') {
        int depth = 0;
        do {
            if (L->p[0] == '(' && L->p[1] == '*') { depth++; adv(L, 2); }
            else if (L->p[0] == '*' && L->p[1] == ')') { depth--; adv(L, 2); }
            else adv(L, 1);
        } while (depth > 0 && *L->p);
        if (depth > 0)
            return fail(L, l0, c0, "a comment '(*' that is not closed", "'*)' before the end");
        return 1;
    }
    return 0;
}

static cat_tk keyword(const char *s, int len)
{
    for (int i = 0; i < NKEYWORDS; i++)
        if ((int)strlen(keywords[i]) == len + 2 && !memcmp(keywords[i] + 1, s, (size_t)len))
            return (cat_tk)(CT_LET + i);
    return CT_NAME;
}

/* an operator at L->p: its kind and length, or 0 */
static int op(const char *p, cat_tk *k)
{
    static const struct { const char *s; cat_tk k; } ops[] = {
        { "^-1", CT_INV }, { "^+", CT_HATPLUS }, { "^*", CT_HATSTAR }, { "-1", CT_INV },
        { "->", CT_ARROW }, { "||", CT_BARBAR }, { "++", CT_PLUSPLUS }, { "(", CT_LPAR },
        { ")", CT_RPAR }, { "[", CT_LBRAC }, { "]", CT_RBRAC }, { "{", CT_LBRACE },
        { "}", CT_RBRACE }, { ",", CT_COMMA }, { "=", CT_EQ }, { "|", CT_BAR }, { "&", CT_AMP },
        { "\\", CT_BSLASH }, { ";", CT_SEMI }, { "*", CT_STAR }, { "+", CT_PLUS },
        { "?", CT_QUEST }, { "~", CT_TILDE },
    };
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        size_t n = strlen(ops[i].s);
        if (!strncmp(p, ops[i].s, n)) { *k = ops[i].k; return (int)n; }
    }
    return 0;
}

/* one token at L->p (not a space nor a comment) */
static int token(lexer *L)
{
    const char *s = L->p;
    int line = L->line, col = L->col;
    unsigned char c = (unsigned char)*s;
    cat_tk k;
    int n;
    if (name_start(c) || isdigit(c)) {
        n = 1;
        while (name_char((unsigned char)s[n])) n++;
        if (n > 1 && s[n - 1] == '-' && s[n] == '>') n--;    /* `fun x->e` */
        adv(L, n);
        k = isdigit(c) ? CT_NUM : keyword(s, n);
        return push(L, k, line, col, s, n);
    }
    if (c == '\'') {
        if (!name_start((unsigned char)s[1]))
            return fail(L, line, col, "a quote ' alone", "a tag 'name");
        n = 2;
        while (name_char((unsigned char)s[n])) n++;
        adv(L, n);
        return push(L, CT_TAG, line, col, s + 1, n - 1);
    }
    if (c == '"') {
        n = 1;
        while (s[n] && s[n] != '"' && s[n] != '\n') n++;
        if (s[n] != '"')
            return fail(L, line, col, "a string that is not closed", "'\"' on the same line");
        adv(L, n + 1);
        return push(L, CT_STR, line, col, s + 1, n - 1);
    }
    if ((n = op(s, &k)) > 0) {
        adv(L, n);
        return push(L, k, line, col, s, n);
    }
    char found[32];
    if (c == '^') snprintf(found, sizeof found, "'^'");
    else if (c == '-') snprintf(found, sizeof found, "'-'");
    else if (isprint(c)) snprintf(found, sizeof found, "'%c'", c);
    else snprintf(found, sizeof found, "the byte 0x%02x", c);
    const char *exp = c == '^' ? "'^-1', '^+' or '^*'"
                    : c == '-' ? "'-1' or '->'" : "a name, an operator or a keyword";
    return fail(L, line, col, found, exp);
}

int cat_lex(cat_arena *a, const char *file, const char *text, cat_tok **out, char *err,
            size_t errlen)
{
    lexer L = { .a = a, .file = file, .p = text, .line = 1, .col = 1, .err = err,
                .errlen = errlen };
    while (*L.p) {
        unsigned char c = (unsigned char)*L.p;
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
            adv(&L, 1);
            continue;
        }
        int r = comment(&L);
        if (r < 0) return -1;
        if (r > 0) continue;
        if (token(&L) < 0) return -1;
    }
    if (push(&L, CT_EOF, L.line, L.col, L.p, 0) < 0) return -1;
    *out = L.v;
    return L.n;
}
