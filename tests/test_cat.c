/* tests/test_cat.c — the cat front end (frontend/cat_parse.c) and evaluator (solver/cat_eval.c,
 * solver/cat_check.c): messages and positions for bad input, every operator on small concrete
 * universes against matrices computed here, precedence, shadowing, functions, includes, least
 * fixpoints, checks; symbolic relations asserted into Z3 against brute-force enumeration of
 * their variables; the published models of ../shared/spec/cat; the catalogue tests/errors/cat. */
#include "tests/check_quiet.h"
#include <ctype.h>
#include <dirent.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "base/sanitized.h"
#include "frontend/cat.h"
#include "solver/cat_eval.h"

#define SPEC "../shared/spec/cat"
#define MAXN 8

/* ---------- a test engine: named sets and relations ---------- */

typedef struct { char name[32]; cat_kind k; rset s; rel r; int transitive; } tbase;
typedef struct { int n, nb, fetched; tbase b[64]; const char *names[64]; int all_names; } teng;

static void te_init(teng *t, int n)
{
    memset(t, 0, sizeof *t);
    t->n = n;
}

static void te_add(teng *t, const char *name, cat_kind k, rset s, rel r)
{
    ck_assert_int_lt(t->nb, 64);
    tbase *b = &t->b[t->nb];
    snprintf(b->name, sizeof b->name, "%s", name);
    b->k = k; b->s = s; b->r = r;
    t->names[t->nb++] = b->name;
}

static void te_set(teng *t, const char *name, rset s) { te_add(t, name, CAT_SET, s, (rel){ 0 }); }
static void te_rel(teng *t, const char *name, rel r) { te_add(t, name, CAT_REL, (rset){ 0 }, r); }

static void te_free(teng *t)
{
    for (int i = 0; i < t->nb; i++) {
        if (t->b[i].k == CAT_SET) rset_free(&t->b[i].s); else rel_free(&t->b[i].r);
    }
    t->nb = 0;
}

static int te_lookup(void *ctx, const char *name, cat_kind *k)
{
    teng *t = ctx;
    for (int i = 0; i < t->nb; i++)
        if (!strcmp(t->b[i].name, name)) { *k = t->b[i].k; return i; }
    if (t->all_names) {   /* every name exists: sets are upper-case (and _), relations not */
        *k = isupper((unsigned char)name[0]) || !strcmp(name, "_") ? CAT_SET : CAT_REL;
        if (*k == CAT_SET) te_set(t, name, rset_new(t->n)); else te_rel(t, name, rel_new(t->n));
        return t->nb - 1;
    }
    return -1;
}

static const char *const *te_names(void *ctx, int *c)
{
    teng *t = ctx;
    *c = t->nb;
    return t->names;
}

static int te_value(void *ctx, int id, int n, cat_value *out)
{
    teng *t = ctx;
    if (id < 0 || id >= t->nb || n != t->n) return -1;
    t->fetched++;
    out->kind = t->b[id].k;
    out->set = t->b[id].s;
    out->rel = t->b[id].r;
    out->transitive = t->b[id].transitive;
    return 0;
}

static const cat_engine TE = { te_lookup, te_names, te_value };

/* ---------- concrete values ---------- */

typedef unsigned char bits[MAXN * MAXN];

static unsigned rnd_state = 12345;
static unsigned rnd(void)
{
    rnd_state = rnd_state * 1103515245u + 12345u;
    return (rnd_state >> 16) & 0x7fff;
}

static rel rel_of_bits(enc *e, const unsigned char *b, int n)
{
    rel r = rel_new(n);
    for (int i = 0; i < n * n; i++) r.m[i] = b[i] ? e->T : NULL;
    return r;
}

static rset set_of_bits(enc *e, const unsigned char *b, int n)
{
    rset s = rset_new(n);
    for (int i = 0; i < n; i++) s.v[i] = b[i] ? e->T : NULL;
    return s;
}

/* a relation whose entries must be T or NULL, as bits */
static void bits_of_rel(enc *e, const rel *r, unsigned char *b)
{
    for (int i = 0; i < r->n * r->n; i++) {
        ck_assert_msg(!r->m[i] || r->m[i] == e->T, "entry %d is symbolic", i);
        b[i] = r->m[i] == e->T;
    }
}

static void b_seq(const unsigned char *a, const unsigned char *b, unsigned char *o, int n)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            o[i * n + j] = 0;
            for (int k = 0; k < n; k++) o[i * n + j] |= a[i * n + k] && b[k * n + j];
        }
}

static void b_plus(const unsigned char *a, unsigned char *o, int n)
{
    unsigned char p[MAXN * MAXN], t[MAXN * MAXN];
    memcpy(o, a, (size_t)(n * n));
    for (int step = 0; step < n; step++) {   /* o = a | o;a, n times */
        b_seq(o, a, p, n);
        for (int i = 0; i < n * n; i++) t[i] = o[i] | p[i];
        memcpy(o, t, (size_t)(n * n));
    }
}

/* ---------- loading and evaluating ---------- */

typedef struct { cat_model *m; cat_prog *p; cat_result r; } run_t;

static cat_model *load_ok(const char *text)
{
    char err[1024] = "";
    cat_model *m = cat_load_text("t.cat", text, NULL, 0, err, sizeof err);
    ck_assert_msg(m != NULL, "load failed: %s\n--- text:\n%s", err, text);
    return m;
}

static void load_err(const char *text, const char *want)
{
    char err[1024] = "";
    cat_model *m = cat_load_text("t.cat", text, NULL, 0, err, sizeof err);
    ck_assert_msg(m == NULL, "load of '%s' succeeded, wanted %s", text, want);
    ck_assert_msg(!strcmp(err, want), "for '%s'\n  got:  %s\n  want: %s", text, err, want);
}

static run_t run_ok(enc *e, teng *t, const char *text)
{
    run_t R = { load_ok(text), NULL, { 0, NULL } };
    char err[1024] = "";
    R.p = cat_link(R.m, &TE, t, err, sizeof err);
    ck_assert_msg(R.p != NULL, "link failed: %s\n--- text:\n%s", err, text);
    int rc = cat_eval(R.p, e, t->n, t, NULL, &R.r, err, sizeof err);
    ck_assert_msg(rc == 0, "eval failed: %s\n--- text:\n%s", err, text);
    return R;
}

static void run_free(run_t *R)
{
    cat_result_free(&R->r);
    cat_prog_free(R->p);
    cat_free(R->m);
}

/* the error of linking (or else evaluating) text */
static void run_err(enc *e, teng *t, const char *text, const char *want)
{
    char err[1024] = "";
    cat_model *m = load_ok(text);
    cat_prog *p = cat_link(m, &TE, t, err, sizeof err);
    if (p) {
        cat_result r;
        int rc = cat_eval(p, e, t->n, t, NULL, &r, err, sizeof err);
        if (rc == 0) cat_result_free(&r);
        ck_assert_msg(rc < 0, "'%s' evaluated, wanted %s", text, want);
    }
    ck_assert_msg(!strcmp(err, want), "for '%s'\n  got:  %s\n  want: %s", text, err, want);
    cat_prog_free(p);
    cat_free(m);
}

/* the relation of the last check of text, as bits */
static void value_bits(enc *e, teng *t, const char *text, unsigned char *out)
{
    run_t R = run_ok(e, t, text);
    ck_assert_int_ge(R.r.n, 1);
    bits_of_rel(e, &R.r.v[R.r.n - 1].r, out);
    run_free(&R);
}

/* an engine over n events: relations r, s, po (random), sets A, B (random), _ (all but the
 * last event when partial) */
static void std_engine(enc *e, teng *t, int n, int partial)
{
    te_init(t, n);
    unsigned char b[MAXN * MAXN];
    const char *rels[] = { "r", "s", "po" };
    for (int k = 0; k < 3; k++) {
        for (int i = 0; i < n * n; i++) b[i] = rnd() % 3 == 0;
        te_rel(t, rels[k], rel_of_bits(e, b, n));
    }
    const char *sets[] = { "A", "B", "W", "R" };
    for (int k = 0; k < 4; k++) {
        for (int i = 0; i < n; i++) b[i] = rnd() % 2;
        te_set(t, sets[k], set_of_bits(e, b, n));
    }
    for (int i = 0; i < n; i++) b[i] = !partial || i < n - 1;
    te_set(t, "_", set_of_bits(e, b, n));
}

static const unsigned char *tb_rel(teng *t, const char *name, unsigned char *b, enc *e)
{
    for (int i = 0; i < t->nb; i++)
        if (!strcmp(t->b[i].name, name)) {
            if (t->b[i].k == CAT_REL) bits_of_rel(e, &t->b[i].r, b);
            else for (int k = 0; k < t->n; k++) b[k] = t->b[i].s.v[k] == e->T;
            return b;
        }
    ck_abort_msg("no base %s", name);
    return NULL;
}

/* ---------- the lexer and the parser ---------- */

START_TEST(parse_errors)
{
    load_err("let = po", "t.cat:1:5: found '=', expected a name or a pattern to bind");
    load_err("let x po", "t.cat:1:9: found the end of the file, expected '=' or a parameter of "
             "'x'");
    load_err("acyclic", "t.cat:1:8: found the end of the file, expected an expression after "
             "'acyclic'");
    load_err("acyclic po |", "t.cat:1:13: found the end of the file, expected an expression "
             "after '|'");
    load_err("acyclic po ;\n  \\ rf", "t.cat:2:3: found '\\', expected an expression after ';'");
    load_err("acyclic (po", "t.cat:1:12: found the end of the file, expected ')' to close the "
             "'(' at 1:9");
    load_err("acyclic [po", "t.cat:1:12: found the end of the file, expected ']' to close the "
             "'[' at 1:9");
    load_err("acyclic po as", "t.cat:1:14: found the end of the file, expected a name after "
             "'as'");
    load_err("let x = po as y", "t.cat:1:12: found 'as', expected an instruction (let, include, "
             "acyclic, irreflexive, empty, flag, show, procedure, call, enum, forall, if)");
    load_err("acyclic po^", "t.cat:1:11: found '^', expected '^-1', '^+' or '^*'");
    load_err("acyclic po - rf", "t.cat:1:12: found '-', expected '-1' or '->'");
    load_err("let x = $", "t.cat:1:9: found '$', expected a name, an operator or a keyword");
    load_err("PTX\n(* unclosed (* nested *)", "t.cat:2:1: found a comment '(*' that is not "
             "closed, expected '*)' before the end");
    load_err("/* c", "t.cat:1:1: found a comment '/*' that is not closed, expected '*/' before "
             "the end");
    load_err("include \"x", "t.cat:1:9: found a string that is not closed, expected '\"' on the "
             "same line");
    load_err("acyclic 12", "t.cat:1:9: found '12', expected an expression (the only number in "
             "cat is 0, the empty relation)");
    load_err("empty W * W * W", "t.cat:1:13: found '*', expected parentheses around one product "
             "(the cartesian product '*' is not associative)");
    load_err("acyclic 'a", "t.cat:1:9: found the tag 'a, expected a tag declared by an earlier "
             "'enum'");
    load_err("with x from y", "t.cat:1:1: found 'with', expected an instruction other than "
             "herd's 'with … from' (candidate extension), which ptxlitmus does not support "
             "(docs/cat.md)");
    load_err("let x = instructions", "t.cat:1:9: found 'instructions', expected an expression "
             "other than herd's 'instructions' construct, which ptxlitmus does not support "
             "(docs/cat.md)");
    load_err("let rec (a, b) = (po, po)", "t.cat:1:9: found '(', expected a name after 'let rec'"
             " or 'and'");
    load_err("procedure p(x) =\n acyclic x", "t.cat:2:11: found the end of the file, expected "
             "an instruction or 'end'");
    load_err("include \"nowhere.cat\"", "t.cat:1:9: found the string \"nowhere.cat\", expected "
             "a cat file that exists (tried nowhere.cat)");
    load_err("empty po\nlet x = po in x", "t.cat:2:12: found 'in', expected an instruction "
             "('let … in' is an expression, and a model is a list of instructions)");
    load_err("empty ~", "t.cat:1:8: found the end of the file, expected an expression after "
             "'~'");
    load_err("let f = fun x po", "t.cat:1:15: found 'po', expected '->' after the parameter of "
             "'fun'");
    load_err("let x = match po with 'a -> po end", "t.cat:1:23: found the tag 'a, expected a "
             "tag declared by an earlier 'enum'");
    load_err("let x = match po with {} -> po || e ++ s -> po || {} -> po end",
             "t.cat:1:48: found '||', expected 'end' to close the 'match' at 1:9");
    load_err("let x = fun (a, 1) -> a", "t.cat:1:17: found '1', expected a name in the pattern");
    load_err("enum E = 'a || 'a", "t.cat:1:16: found the tag 'a, expected a tag that no "
             "earlier 'enum' declares");
    load_err("if variant \"x\" empty po", "t.cat:1:24: found the end of the file, expected an "
             "instruction or 'end'");
    load_err("show", "t.cat:1:5: found the end of the file, expected an expression after "
             "'show'");
    load_err("call", "t.cat:1:5: found the end of the file, expected the name of a procedure "
             "after 'call'");
    load_err("forall x of", "t.cat:1:10: found 'of', expected 'in' after the name of 'forall'");
    load_err("\"unclosed name", "t.cat:1:1: found a string that is not closed, expected '\"' "
             "on the same line");
    load_err("let x = \x01", "t.cat:1:9: found the byte 0x01, expected a name, an operator or "
             "a keyword");
    load_err("let x = _ in", "t.cat:1:11: found 'in', expected an instruction ('let … in' is an "
             "expression, and a model is a list of instructions)");
    load_err("let _ = po", "t.cat:1:5: found '_', expected a name to bind ('_' is the "
             "universe)");
    load_err("let _ x = po", "t.cat:1:5: found '_', expected a name to bind ('_' is the "
             "universe)");
    load_err("let f = fun x ->", "t.cat:1:17: found the end of the file, expected the body of "
             "the function after '->'");
}
END_TEST

START_TEST(parse_depth_and_header)
{
    /* nesting beyond the limit is refused, not a stack overflow */
    size_t n = 3000;
    char *text = malloc(n * 2 + 32);
    ck_assert_ptr_nonnull(text);
    strcpy(text, "empty ");
    for (size_t i = 0; i < n; i++) strcat(text, "(");
    strcat(text, "po");
    for (size_t i = 0; i < n; i++) strcat(text, ")");
    char err[512];
    cat_model *m = cat_load_text("t.cat", text, NULL, 0, err, sizeof err);
    ck_assert_ptr_null(m);
    ck_assert_msg(strstr(err, "expected an expression nested at most 1000 levels deep"), "%s",
                  err);
    /* a long chain of unions is fine: it is not nested in the text, and the tree is balanced */
    strcpy(text, "empty po");
    for (size_t i = 0; i < 1400; i++) strcat(text, "|po");
    m = cat_load_text("t.cat", text, NULL, 0, err, sizeof err);
    ck_assert_msg(m != NULL, "%s", err);
    cat_free(m);
    free(text);
    /* names: a string, or the leading names */
    m = load_ok("\"My model\" (* c *) let x = po");
    ck_assert_str_eq(cat_model_name(m), "My model");
    cat_free(m);
    m = load_ok("PTX\n(* c *)\n// d\n/* e */\nlet x = po");
    ck_assert_str_eq(cat_model_name(m), "PTX");
    cat_free(m);
    m = load_ok("let x = po");
    ck_assert_str_eq(cat_model_name(m), "");
    ck_assert_int_eq(cat_nbase(m), 2);
    ck_assert_str_eq(cat_base_name(m, 0), "_");
    ck_assert_str_eq(cat_base_name(m, 1), "po");
    const char *f;
    int l, c;
    cat_base_pos(m, 1, &f, &l, &c);
    ck_assert_str_eq(f, "t.cat");
    ck_assert_int_eq(l, 1);
    ck_assert_int_eq(c, 9);
    cat_free(m);
    /* names with - and ., keywords nearby, postfix -1, x->, comments of every style */
    m = load_ok("X \"y\"\nlet po-loc.2 = po (* a (* nested *) comment *)\n"
                "let f = fun x->x // line\nlet g = po -1 /* c */\nshow po-loc.2 as z, g\n"
                "unshow g");
    ck_assert_str_eq(cat_model_name(m), "y");
    ck_assert_int_eq(cat_nbase(m), 2);
    cat_free(m);
}
END_TEST

/* ---------- operators on concrete universes ---------- */

typedef enum { OP_UNION, OP_INTER, OP_DIFF } setop;

static void check_op(enc *e, teng *t, const char *expr, const unsigned char *want)
{
    char text[256];
    unsigned char got[MAXN * MAXN];
    snprintf(text, sizeof text, "empty (%s) as out", expr);
    value_bits(e, t, text, got);
    for (int i = 0; i < t->n * t->n; i++)
        ck_assert_msg(got[i] == want[i], "%s: entry (%d,%d) is %d, expected %d", expr,
                      i / t->n, i % t->n, got[i], want[i]);
}

/* a set as the bits of [S] */
static void diag_of(const unsigned char *s, unsigned char *o, int n)
{
    memset(o, 0, (size_t)(n * n));
    for (int i = 0; i < n; i++) o[i * n + i] = s[i];
}

START_TEST(operators_concrete)
{
    for (int round = 0; round < 6; round++) {
        enc e;
        enc_init(&e);
        teng t;
        int n = 3 + round % 4, partial = round % 2;
        std_engine(&e, &t, n, partial);
        unsigned char r[MAXN * MAXN], s[MAXN * MAXN], A[MAXN], B[MAXN], U[MAXN];
        unsigned char w[MAXN * MAXN], x[MAXN * MAXN], d[MAXN * MAXN];
        tb_rel(&t, "r", r, &e);
        tb_rel(&t, "s", s, &e);
        tb_rel(&t, "A", A, &e);
        tb_rel(&t, "B", B, &e);
        tb_rel(&t, "_", U, &e);
        int nn = n * n;
        for (int i = 0; i < nn; i++) w[i] = r[i] | s[i];
        check_op(&e, &t, "r | s", w);
        for (int i = 0; i < nn; i++) w[i] = r[i] & s[i];
        check_op(&e, &t, "r & s", w);
        for (int i = 0; i < nn; i++) w[i] = r[i] & !s[i];
        check_op(&e, &t, "r \\ s", w);
        b_seq(r, s, w, n);
        check_op(&e, &t, "r ; s", w);
        for (int i = 0; i < nn; i++) w[i] = r[(i % n) * n + i / n];
        check_op(&e, &t, "r^-1", w);
        check_op(&e, &t, "r -1", w);
        b_plus(r, w, n);
        check_op(&e, &t, "r+", w);
        check_op(&e, &t, "r^+", w);
        for (int i = 0; i < nn; i++) x[i] = w[i] | (i / n == i % n && U[i / n]);
        check_op(&e, &t, "r*", x);
        check_op(&e, &t, "r^*", x);
        for (int i = 0; i < nn; i++) w[i] = r[i] | (i / n == i % n && U[i / n]);
        check_op(&e, &t, "r?", w);
        for (int i = 0; i < nn; i++) w[i] = !r[i] && U[i / n] && U[i % n];
        check_op(&e, &t, "~r", w);
        for (int i = 0; i < nn; i++) w[i] = U[i / n] && U[i % n];
        check_op(&e, &t, "_ * _", w);
        diag_of(A, w, n);
        check_op(&e, &t, "[A]", w);
        check_op(&e, &t, "toid(A)", w);
        for (int i = 0; i < nn; i++) w[i] = A[i / n] && B[i % n];
        check_op(&e, &t, "A * B", w);
        unsigned char S[MAXN];
        for (int i = 0; i < n; i++) { S[i] = 0; for (int j = 0; j < n; j++) S[i] |= r[i * n + j]; }
        diag_of(S, w, n);
        check_op(&e, &t, "domain(r)", w);
        check_op(&e, &t, "[domain r]", w);
        for (int j = 0; j < n; j++) { S[j] = 0; for (int i = 0; i < n; i++) S[j] |= r[i * n + j]; }
        diag_of(S, w, n);
        check_op(&e, &t, "range(r)", w);
        for (int i = 0; i < n; i++) S[i] = A[i] | B[i];
        diag_of(S, w, n);
        check_op(&e, &t, "A | B", w);
        for (int i = 0; i < n; i++) S[i] = A[i] & B[i];
        diag_of(S, w, n);
        check_op(&e, &t, "A & B", w);
        for (int i = 0; i < n; i++) S[i] = A[i] & !B[i];
        diag_of(S, w, n);
        check_op(&e, &t, "A \\ B", w);
        for (int i = 0; i < n; i++) S[i] = !A[i] && U[i];
        diag_of(S, w, n);
        check_op(&e, &t, "~A", w);
        diag_of(U, w, n);
        check_op(&e, &t, "_", w);
        check_op(&e, &t, "id", w);
        memset(d, 0, sizeof d);
        check_op(&e, &t, "0", d);
        check_op(&e, &t, "{}", d);
        check_op(&e, &t, "emptyset", d);
        check_op(&e, &t, "0 | 0 ; r", d);
        check_op(&e, &t, "0*", w);         /* the empty relation's closure: id */
        check_op(&e, &t, "domain 0", d);
        te_free(&t);
        enc_free(&e);
    }
}
END_TEST

/* two expressions with the same value */
static void same(enc *e, teng *t, const char *a, const char *b)
{
    char ta[512], tb2[512];
    unsigned char x[MAXN * MAXN], y[MAXN * MAXN];
    snprintf(ta, sizeof ta, "empty %s", a);
    snprintf(tb2, sizeof tb2, "empty %s", b);
    value_bits(e, t, ta, x);
    value_bits(e, t, tb2, y);
    ck_assert_msg(!memcmp(x, y, (size_t)(t->n * t->n)), "'%s' and '%s' differ", a, b);
}

START_TEST(precedence)
{
    for (int round = 0; round < 4; round++) {
        enc e;
        enc_init(&e);
        teng t;
        std_engine(&e, &t, 5, round % 2);
        same(&e, &t, "r | s ; r", "r | (s ; r)");
        same(&e, &t, "r ; s | s ; r", "(r ; s) | (s ; r)");
        same(&e, &t, "r ; s & r", "r ; (s & r)");
        same(&e, &t, "r \\ s & r", "r \\ (s & r)");       /* & binds tighter than \ */
        same(&e, &t, "r & s \\ r", "(r & s) \\ r");
        same(&e, &t, "r \\ s \\ po", "(r \\ s) \\ po");     /* \ is left-associative */
        same(&e, &t, "r ; s \\ po", "r ; (s \\ po)");
        same(&e, &t, "A * B & r", "(A * B) & r");
        same(&e, &t, "A * B ; r", "(A * B) ; r");
        same(&e, &t, "~r & s", "(~r) & s");
        same(&e, &t, "~A * B", "(~A) * B");
        same(&e, &t, "~r+", "~(r+)");
        same(&e, &t, "r^-1 ; s", "(r^-1) ; s");
        same(&e, &t, "r* ; s", "(r*) ; s");
        same(&e, &t, "r*;s", "(r^*) ; s");
        same(&e, &t, "[A] ; r* | s?", "([A] ; (r*)) | (s?)");
        same(&e, &t, "r ; s ; po", "r ; (s ; po)");
        same(&e, &t, "r | s | po", "(r | s) | po");
        same(&e, &t, "[domain r] ; s", "[domain(r)] ; s");
        same(&e, &t, "r+ ; s?", "(r^+) ; (s | id)");
        same(&e, &t, "r^-1+", "(r^-1)+");
        same(&e, &t, "A * B | r", "(A * B) | r");
        same(&e, &t, "_ * _ \\ r", "(_ * _) \\ r");
        same(&e, &t, "~r", "(_ * _) \\ r");
        same(&e, &t, "begin r | s end ; po", "(r | s) ; po");
        te_free(&t);
        enc_free(&e);
    }
}
END_TEST

/* ---------- bindings, functions, procedures ---------- */

START_TEST(shadowing_and_functions)
{
    enc e;
    enc_init(&e);
    teng t;
    std_engine(&e, &t, 5, 0);
    /* herd: a non-recursive let refers to the previous binding (Dat3M's `let co = co+`) */
    same(&e, &t, "r\nlet r = r+\nempty r", "r+");
    same(&e, &t, "r\nlet r = r+\nlet s = r ; s\nempty s", "r+ ; s");
    same(&e, &t, "r\nlet x = s\nlet x = r and y = x\nempty y", "s");   /* simultaneous */
    /* functions: Dat3M's f(x, y), herd's f x, fun, currying, static scope */
    same(&e, &t, "r\nlet f(x, y) = x ; y\nempty f(r, s)", "r ; s");
    same(&e, &t, "r\nlet g x = x+\nempty g r", "r+");
    same(&e, &t, "r\nlet g(x) = x+\nempty g(r) ; s", "r+ ; s");
    same(&e, &t, "r\nlet h = fun x -> fun y -> x | y\nempty h r s", "r | s");
    same(&e, &t, "r\nlet h x y = x \\ y\nempty h r s", "r \\ s");
    same(&e, &t, "r\nlet a = r\nlet f(x) = x | a\nlet a = s\nempty f(po)", "po | r");
    same(&e, &t, "r\nlet q = r\nprocedure p(x) = empty x | q end\nlet z = s\ncall p(z)",
         "s | r");
    same(&e, &t, "r\nlet q = r\nlet u = q ; q\nlet q = s\nempty u | q", "(r ; r) | s");
    same(&e, &t, "r\nlet fencerel(B) = (po & (_ * B)) ; po\nempty fencerel(A)",
         "(po & (_ * A)) ; po");
    same(&e, &t, "r\nlet imply (A, B) = ~A | B\nempty [imply(A, B)]", "[~A | B]");
    same(&e, &t, "r\nlet udr r = domain r | range r\nempty [udr s]", "[domain(s) | range(s)]");
    same(&e, &t, "r\nempty (let x = r in x ; x)", "r ; r");
    same(&e, &t, "r\nempty (let x = r and y = s in x ; y)", "r ; s");
    same(&e, &t, "r\nlet (a, b) = (r, s)\nempty a ; b", "r ; s");
    same(&e, &t, "r\nlet f () = r\nempty f()", "r");
    same(&e, &t, "r\nlet toid(s) = [s]\nempty toid(A)", "[A]");   /* herd-stdlib shadows */
    same(&e, &t, "r\nlet compose = fun (a, b) -> a ; b\nlet twice f x = f (f x)\n"
         "let sq x = compose(x, x)\nempty twice sq r", "r;r;r;r");
    same(&e, &t, "r\nempty (try nosuch with r)", "r");
    same(&e, &t, "r\nempty (try r with nosuch)", "r");
    same(&e, &t, "r\nlet LKW = try LKW with emptyset\nempty [LKW]", "0");
    /* tags, matches, sets of values, forall */
    same(&e, &t, "r\nenum E = 'a || 'b || 'c\nlet f(x) = match x with 'a -> r || 'b -> s || _ -> "
         "po end\nempty f('b) | f('c)", "s | po");
    same(&e, &t, "r\nenum E = 'a || 'b\nlet rec size S = match S with {} -> 0 || x ++ R -> r |"
         " size R end\nempty size E", "r");
    same(&e, &t, "r\nenum E = 'a || 'b\nlet f(S) = match S with || {} -> r || x ++ R -> s end"
         "\nempty f(E \\ E) ; f({'a} | {'b} & E)", "r ; s");
    same(&e, &t, "r\nenum E = 'a || 'b\nlet f(S) = match S with x ++ R -> s || {} -> r end\n"
         "empty f('a ++ {})", "s");
    same(&e, &t, "r\nenum E = 'a || 'b || 'c\nlet rec ev S = match S with {} -> r || x ++ R -> "
         "od R end\nand od S = match S with {} -> s || x ++ R -> ev R end\nempty ev(E)", "s");
    same(&e, &t, "r\nlet rec y = r | (y ; f(r)) and f(x) = x\nempty y", "r+");
    same(&e, &t, "r\nlet rec events S = match S with {} -> 0 || e ++ R -> [{e}] | events R end\n"
         "empty events(A)", "[A]");
    same(&e, &t, "r\nlet rec pairs p = match p with {} -> 0 || x ++ R -> (let (a, b) = x in "
         "{x} ; [{b}]) | pairs R end\nempty pairs(r)", "r");
    te_free(&t);
    enc_free(&e);
}
END_TEST

START_TEST(procedures_checks_flags)
{
    enc e;
    enc_init(&e);
    teng t;
    std_engine(&e, &t, 4, 0);
    run_t R = run_ok(&e, &t, "M\nacyclic r as ax\n~irreflexive s\nflag ~empty r as fl\n"
                     "undefined_unless empty s as uu\nempty r\n"
                     "procedure p(x) = acyclic x  empty x as named end\ncall p(s) as mycall\n"
                     "call p(r)\nif variant \"v\" empty r as no else empty s as yes end\n"
                     "enum T = 'a || 'b\nforall x in T do empty r end");
    const char *names[] = { "ax", "irreflexive#2", "fl", "uu", "empty#5", "mycall", "named",
                            "acyclic#8", "named", "yes", "empty#11", "empty#12" };
    ck_assert_int_eq(R.r.n, 12);
    for (int i = 0; i < 12; i++) ck_assert_str_eq(R.r.v[i].name, names[i]);
    ck_assert_int_eq(R.r.v[1].negated, 1);
    ck_assert_int_eq(R.r.v[1].kind, CAT_IRREFLEXIVE);
    ck_assert_int_eq(R.r.v[2].flag, 1);
    ck_assert_int_eq(R.r.v[3].undefined_unless, 1);
    ck_assert_int_eq(R.r.v[4].line, 6);
    ck_assert_int_eq(R.r.v[4].col, 1);
    ck_assert_str_eq(R.r.v[4].file, "t.cat");
    ck_assert_int_eq(R.r.v[5].site, R.r.v[7].site);
    ck_assert_int_eq(cat_ncheck_sites(R.m), 9);
    Z3_solver s = Z3_mk_simple_solver(e.z);
    Z3_solver_inc_ref(e.z, s);
    ck_assert_int_eq(cat_assert_checks(&e, s, &R.r), 10);
    Z3_solver_dec_ref(e.z, s);
    run_free(&R);
    te_free(&t);
    enc_free(&e);
}
END_TEST

/* ---------- includes ---------- */

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

START_TEST(includes)
{
    char dir[] = "/tmp/test_cat_XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char sub[256], other[256], p[512];
    snprintf(sub, sizeof sub, "%s/models", dir);
    snprintf(other, sizeof other, "%s/lib", dir);
    mkdir(sub, 0700);
    mkdir(other, 0700);
    snprintf(p, sizeof p, "%s/main.cat", sub);
    write_text(p, "main\ninclude \"near.cat\"\ninclude \"far.cat\"\ninclude \"near.cat\"\n"
               "empty x2 as out\n");
    snprintf(p, sizeof p, "%s/near.cat", sub);
    write_text(p, "near\nlet x1 = r\nempty x1 as near\ninclude \"main.cat\"\n");
    snprintf(p, sizeof p, "%s/far.cat", other);
    write_text(p, "\"far away\"\nlet x2 = x1 ; s\n");
    snprintf(p, sizeof p, "%s/bad.cat", other);
    write_text(p, "bad\nlet y =\n");
    enc e;
    enc_init(&e);
    teng t;
    std_engine(&e, &t, 4, 0);
    const char *search[] = { "/nonexistent", other };
    char err[1024] = "";
    snprintf(p, sizeof p, "%s/main.cat", sub);
    cat_model *m = cat_load_file(p, search, 2, err, sizeof err);
    ck_assert_msg(m != NULL, "%s", err);
    ck_assert_str_eq(cat_model_name(m), "main");
    cat_prog *pr = cat_link(m, &TE, &t, err, sizeof err);
    ck_assert_msg(pr != NULL, "%s", err);
    cat_result res;
    ck_assert_int_eq(cat_eval(pr, &e, 4, &t, NULL, &res, err, sizeof err), 0);
    ck_assert_int_eq(res.n, 2);              /* near.cat once, main.cat not again */
    ck_assert_str_eq(res.v[0].name, "near");
    char want[2048];
    snprintf(want, sizeof want, "%s/near.cat", sub);
    ck_assert_str_eq(res.v[0].file, want);
    ck_assert_int_eq(res.v[0].line, 3);
    unsigned char x[MAXN * MAXN], r[MAXN * MAXN], s[MAXN * MAXN], w[MAXN * MAXN];
    bits_of_rel(&e, &res.v[1].r, x);
    b_seq(tb_rel(&t, "r", r, &e), tb_rel(&t, "s", s, &e), w, 4);
    ck_assert(!memcmp(x, w, 16));
    cat_result_free(&res);
    cat_prog_free(pr);
    cat_free(m);
    /* an error in an included file names that file */
    snprintf(p, sizeof p, "%s/t.cat", sub);
    m = cat_load_text(p, "include \"bad.cat\"", search, 2, err, sizeof err);
    ck_assert_ptr_null(m);
    snprintf(want, sizeof want, "%s/bad.cat:3:1: found the end of the file, expected an "
             "expression after '='", other);
    ck_assert_str_eq(err, want);
    /* not found: the places searched */
    m = cat_load_text(p, "include \"none.cat\"", search, 2, err, sizeof err);
    ck_assert_ptr_null(m);
    snprintf(want, sizeof want, "%s:1:9: found the string \"none.cat\", expected a cat file that "
             "exists (tried %s/none.cat, /nonexistent/none.cat, %s/none.cat)", p, sub, other);
    ck_assert_str_eq(err, want);
    m = cat_load_file("/nonexistent/x.cat", NULL, 0, err, sizeof err);
    ck_assert_ptr_null(m);
    ck_assert_str_eq(err, "/nonexistent/x.cat:1:1: found no readable file, expected a cat model "
                          "(No such file or directory)");
    te_free(&t);
    enc_free(&e);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* ---------- least fixpoints ---------- */

START_TEST(let_rec_concrete)
{
    for (int round = 0; round < 5; round++) {
        enc e;
        enc_init(&e);
        teng t;
        int n = 4 + round % 4;
        std_engine(&e, &t, n, round % 2);
        same(&e, &t, "r\nlet rec x = r | (x ; x)\nempty x", "r+");
        same(&e, &t, "r\nlet tr(r) = let rec t = r | (t;t) in t\nempty tr(s)", "s+");
        same(&e, &t, "r\nlet rec x = r | (x ; r)\nempty x", "r+");
        same(&e, &t, "r\nlet rec S = A | range([S] ; r)\nempty [S]", "[range([A] ; r*)]");
        /* mutual recursion: a = r | b;r, b = s | a;s — computed here by iteration */
        unsigned char r[MAXN * MAXN], s[MAXN * MAXN], a[MAXN * MAXN], b[MAXN * MAXN];
        unsigned char t1[MAXN * MAXN], t2[MAXN * MAXN], got[MAXN * MAXN];
        tb_rel(&t, "r", r, &e);
        tb_rel(&t, "s", s, &e);
        memset(a, 0, sizeof a);
        memset(b, 0, sizeof b);
        for (int it = 0; it < 2 * n * n + 2; it++) {
            b_seq(b, r, t1, n);
            b_seq(a, s, t2, n);
            for (int i = 0; i < n * n; i++) { a[i] = r[i] | t1[i]; b[i] = s[i] | t2[i]; }
        }
        value_bits(&e, &t, "let rec a = r | (b ; r) and b = s | (a ; s)\nempty a", got);
        ck_assert(!memcmp(got, a, (size_t)(n * n)));
        value_bits(&e, &t, "let rec a = r | (b ; r) and b = s | (a ; s)\nempty b", got);
        ck_assert(!memcmp(got, b, (size_t)(n * n)));
        /* x = A | x;B;x (ptx-v6.0's observation): the closed form A;(B;A)*, no rounds, against
           Kleene iteration here, in every spelling the evaluator recognizes */
        memset(a, 0, sizeof a);
        for (int it = 0; it < n * n + 2; it++) {
            b_seq(a, s, t1, n);
            b_seq(t1, a, t2, n);
            for (int i = 0; i < n * n; i++) a[i] = r[i] | t2[i];
        }
        const char *forms[] = { "let rec x = r | (x ; s ; x)\nempty x",
                                "let rec x = (x ; (s ; x)) | r\nempty x",
                                "let rec x = r | x ; s ; x\nempty x" };
        for (int f = 0; f < 3; f++) {
            value_bits(&e, &t, forms[f], got);
            ck_assert_msg(!memcmp(got, a, (size_t)(n * n)), "%s", forms[f]);
            ck_assert_int_eq(cat_eval_last_stats().fix_rounds, 0);
        }
        /* B mentioning x: iterated as before */
        value_bits(&e, &t, "let rec x = r | (x ; (s | x) ; x)\nempty x", got);
        ck_assert_int_gt(cat_eval_last_stats().fix_rounds, 0);
        te_free(&t);
        enc_free(&e);
    }
    /* a chain 0 -> 1 -> … -> 7 needs 7 rounds and more */
    enc e;
    enc_init(&e);
    teng t;
    te_init(&t, 8);
    unsigned char c[64] = { 0 };
    for (int i = 0; i + 1 < 8; i++) c[i * 8 + i + 1] = 1;
    te_rel(&t, "r", rel_of_bits(&e, c, 8));
    unsigned char all[8] = { 1, 1, 1, 1, 1, 1, 1, 1 };
    te_set(&t, "_", set_of_bits(&e, all, 8));
    run_t R = run_ok(&e, &t, "let rec x = r | (x ; r)\nempty x");
    cat_eval_stats st = cat_eval_last_stats();
    ck_assert_int_ge(st.fix_rounds, 8);
    ck_assert_int_eq(st.fix_solver_calls, 0);       /* concrete: converges syntactically */
    unsigned char got[64], want[64];
    bits_of_rel(&e, &R.r.v[0].r, got);
    b_plus(c, want, 8);
    ck_assert(!memcmp(got, want, 64));
    run_free(&R);
    te_free(&t);
    enc_free(&e);
}
END_TEST

/* every entry of a and b equivalent, as Z3 proves */
static void equivalent(enc *e, const rel *a, const rel *b)
{
    Z3_solver s = Z3_mk_simple_solver(e->z);
    Z3_solver_inc_ref(e->z, s);
    for (int i = 0; i < a->n * a->n; i++) {
        Z3_solver_push(e->z, s);
        Z3_solver_assert(e->z, s, Z3_mk_xor(e->z, b_of(e, a->m[i]), b_of(e, b->m[i])));
        ck_assert_msg(Z3_solver_check(e->z, s) == Z3_L_FALSE, "entry %d differs", i);
        Z3_solver_pop(e->z, s, 1);
    }
    Z3_solver_dec_ref(e->z, s);
}

START_TEST(let_rec_symbolic)
{
    enc e;
    enc_init(&e);
    teng t;
    int n = 5;
    te_init(&t, n);
    rel r = rel_new(n), m = rel_new(n);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            if (i != j && rnd() % 2) rel_set(&r, i, j, b_var(&e, "r"));
            if (rnd() % 4 == 0) rel_set(&m, i, j, e.T);
        }
    te_rel(&t, "r", r);
    te_rel(&t, "m", m);
    rset u = rset_new(n);
    for (int i = 0; i < n; i++) u.v[i] = e.T;
    te_set(&t, "_", u);
    /* x = r | x;x needs the solver to see that the terms stopped growing */
    run_t R = run_ok(&e, &t, "let rec x = r | (x ; x)\nempty x\nempty r+");
    cat_eval_stats st = cat_eval_last_stats();
    ck_assert_int_ge(st.fix_solver_calls, 1);
    ck_assert_int_eq(st.fix_capped, 0);
    equivalent(&e, &R.r.v[0].r, &R.r.v[1].r);
    run_free(&R);
    /* v6.0's observation: (ms & rf) | observation; rmw; observation */
    R = run_ok(&e, &t, "let rec o = r | (o ; m ; o)\nempty o\n"
                       "let rec o2 = r | (r ; (m ; r)+)\nempty (r ; (m ; r)*)");
    equivalent(&e, &R.r.v[0].r, &R.r.v[1].r);
    run_free(&R);
    te_free(&t);
    enc_free(&e);
}
END_TEST

/* ---------- type errors and unknown names ---------- */

#define RE(text, want) run_err(&e, &t, (text), (want))

START_TEST(type_errors)
{
    enc e;
    enc_init(&e);
    teng t;
    std_engine(&e, &t, 3, 0);
    RE("empty W ; po", "t.cat:1:7: found the set of events 'W', expected a relation (the "
            "left operand of ';')");
    RE("empty po ;\n   W", "t.cat:2:4: found the set of events 'W', expected a relation "
            "(the right operand of ';')");
    RE("acyclic W", "t.cat:1:9: found the set of events 'W', expected a relation (the operand"
            " of 'acyclic')");
    RE("empty po | (W)", "t.cat:1:13: found the set of events 'W', expected a relation (the "
            "right operand of '|', whose left operand is a relation)");
    RE("empty W * po", "t.cat:1:11: found the relation 'po', expected a set of events (the "
            "right operand of '*')");
    RE("empty ~0", "t.cat:1:8: found the empty value (0 or {}, of no known type), "
            "expected a set of events or a relation (the operand of '~')");
    RE("empty W+", "t.cat:1:7: found the set of events 'W', expected a relation (the "
            "operand of '+')");
    RE("empty [po]", "t.cat:1:8: found the relation 'po', expected a set of events (the "
            "operand of '[…]')");
    RE("empty domain(W)", "t.cat:1:14: found the set of events 'W', expected a relation "
            "(the argument of domain)");
    RE("empty po po", "t.cat:1:7: found the relation 'po', expected a function (applied to "
            "an argument)");
    RE("let f(x, y) = x\nempty f(po)", "t.cat:2:9: found a relation, expected a "
            "tuple of 2 values (the pattern (x, …))");
    RE("let f(x) = x ; W\nempty f(po)", "t.cat:1:16: found the set of events 'W', expected "
            "a relation (the right operand of ';') [in f, called at t.cat:2:7]");
    RE("let rec x = try ([x] | W) with po\nempty x", "t.cat:1:13: found a relation,"
            " expected a set of events (the value of the previous iteration of this 'let rec')");
    RE("enum E = 'a\nlet x = match 'a with {} -> po || e ++ s -> po end",
            "t.cat:2:15: found a tag, expected a set (the value matched by the clauses '{} ->' "
            "and 'x ++ s ->')");
    RE("enum E = 'a || 'b\nlet x = match 'b with 'a -> po end", "t.cat:2:9: found the"
            " tag 'b, expected one of the tags of the match's clauses");
    RE("call po(po)", "t.cat:1:6: found a relation, expected a procedure (after "
            "'call')");
    RE("empty {po}", "t.cat:1:8: found the relation 'po', expected a tag, an event, a pair or"
            " a tuple of those (an element of '{…}'; sets of sets of events are not supported)");
    RE("let rec f x = f x\nempty f(po)", "t.cat:1:15: found a recursion deeper than "
            "2500, expected one that ends");
    RE("let rec x = (po, po)\nempty po", "t.cat:1:13: found a tuple of 2 values, expected a "
            "set of events or a relation (a 'let rec' defines the least fixpoint of sets and "
            "relations, or functions)");
    te_free(&t);
    /* unknown names: the names that exist, closest first */
    std_engine(&e, &t, 3, 0);
    RE("empty ss", "t.cat:1:7: found 'ss', expected a name that exists: s, A, B, R, W,"
            " _, id, po, r, toid, range, domain (and 3 more)");
    RE("let strong-write = W\nempty [strong-wirte]", "t.cat:2:8: found 'strong-wirte', "
            "expected a name that exists: strong-write, range, newSet, toid, domain, emptyset, "
            "id, newRelation, po, r, s, A (and 4 more)");
    RE("empty foo\nlet foo = po", "t.cat:1:7: found 'foo', expected a name that exists:"
            " po, A, B, R, W, _, id, r, s, toid, domain, range (and 3 more); 'foo' is bound "
            "later, at t.cat:2:1");
    enc_free(&e);
    te_free(&t);
    te_init(&t, 3);
    cat_model *m = load_ok("empty po");
    char err[256];
    ck_assert_ptr_null(cat_link(m, &TE, &t, err, sizeof err));
    ck_assert_str_eq(err, "t.cat: the engine provides no universe set '_', which cat needs");
    cat_free(m);
}
END_TEST

/* ---------- symbolic relations against brute force ---------- */

#define PN 4          /* events */
#define PV 9          /* Boolean variables */

typedef struct gx { int k, leaf; struct gx *a, *b; } gx;   /* a random expression */
enum { G_LEAF, G_UNION, G_INTER, G_DIFF, G_SEQ, G_INV, G_PLUS, G_STAR, G_OPT, G_COMPL,
       G_BRACKET, G_CROSS, G_ID, G_ZERO, G_DOMAIN, G_RANGE };

static gx *gen(int set, int depth)
{
    gx *x = calloc(1, sizeof *x);
    ck_assert_ptr_nonnull(x);
    int k = depth <= 0 ? G_LEAF : (int)(rnd() % 16);
    static const int set_ops[] = { G_LEAF, G_UNION, G_INTER, G_DIFF, G_COMPL, G_DOMAIN,
                                   G_RANGE };
    if (set) k = depth <= 0 ? G_LEAF : set_ops[rnd() % 7];
    if (!set && (k == G_DOMAIN || k == G_RANGE)) k = G_BRACKET;   /* those are sets */
    x->k = k;
    switch (k) {
    case G_LEAF: x->leaf = (int)(rnd() % 3); break;
    case G_UNION: case G_INTER: case G_DIFF: case G_SEQ:
        if (set && k == G_SEQ) x->k = G_UNION;
        x->a = gen(set, depth - 1);
        x->b = gen(set, depth - 1);
        break;
    case G_INV: case G_PLUS: case G_STAR: case G_OPT: case G_COMPL:
        x->a = gen(set, depth - 1);
        break;
    case G_BRACKET: x->a = gen(1, depth - 1); break;
    case G_CROSS: x->a = gen(1, depth - 1); x->b = gen(1, depth - 1); break;
    case G_DOMAIN: case G_RANGE: x->a = gen(0, depth - 1); break;
    default: break;
    }
    return x;
}

static void gx_free(gx *x)
{
    if (!x) return;
    gx_free(x->a);
    gx_free(x->b);
    free(x);
}

static void gx_text(const gx *x, int set, char *buf, size_t len)
{
    static const char *const rl[] = { "r1", "r2", "r3" }, *const sl[] = { "A", "B", "_" };
    char a[2048] = "", b[2048] = "";
    int as = x->k == G_BRACKET || x->k == G_CROSS || (set && x->k != G_DOMAIN &&
                                                      x->k != G_RANGE);
    if (x->a) gx_text(x->a, as, a, sizeof a);
    if (x->b) gx_text(x->b, as, b, sizeof b);
    switch (x->k) {
    case G_LEAF: snprintf(buf, len, "%s", set ? sl[x->leaf] : rl[x->leaf]); break;
    case G_UNION: snprintf(buf, len, "(%s | %s)", a, b); break;
    case G_INTER: snprintf(buf, len, "(%s & %s)", a, b); break;
    case G_DIFF: snprintf(buf, len, "(%s \\ %s)", a, b); break;
    case G_SEQ: snprintf(buf, len, "(%s ; %s)", a, b); break;
    case G_INV: snprintf(buf, len, "(%s^-1)", a); break;
    case G_PLUS: snprintf(buf, len, "(%s+)", a); break;
    case G_STAR: snprintf(buf, len, "(%s*)", a); break;
    case G_OPT: snprintf(buf, len, "(%s?)", a); break;
    case G_COMPL: snprintf(buf, len, "(~%s)", a); break;
    case G_BRACKET: snprintf(buf, len, "[%s]", a); break;
    case G_CROSS: snprintf(buf, len, "(%s * %s)", a, b); break;
    case G_ID: snprintf(buf, len, "id"); break;
    case G_ZERO: snprintf(buf, len, "(r1 & 0)"); break;
    case G_DOMAIN: snprintf(buf, len, "domain(%s)", a); break;
    case G_RANGE: snprintf(buf, len, "range(%s)", a); break;
    }
}

typedef struct { unsigned char r[3][PN * PN], s[3][PN]; } world;

/* the value of x (a set: entries 0..PN-1) in a concrete world */
static void gx_eval(const gx *x, int set, const world *w, unsigned char *o)
{
    unsigned char a[PN * PN], b[PN * PN];
    const unsigned char *U = w->s[2];
    int n = PN, as = x->k == G_BRACKET || x->k == G_CROSS || (set && x->k != G_DOMAIN &&
                                                             x->k != G_RANGE);
    if (x->a) gx_eval(x->a, as, w, a);
    if (x->b) gx_eval(x->b, as, w, b);
    int sz = set ? n : n * n;
    switch (x->k) {
    case G_LEAF: memcpy(o, set ? w->s[x->leaf] : w->r[x->leaf], (size_t)sz); break;
    case G_UNION: for (int i = 0; i < sz; i++) o[i] = a[i] | b[i]; break;
    case G_INTER: for (int i = 0; i < sz; i++) o[i] = a[i] & b[i]; break;
    case G_DIFF: for (int i = 0; i < sz; i++) o[i] = a[i] & !b[i]; break;
    case G_SEQ: b_seq(a, b, o, n); break;
    case G_INV: for (int i = 0; i < sz; i++) o[i] = a[(i % n) * n + i / n]; break;
    case G_PLUS: b_plus(a, o, n); break;
    case G_STAR: case G_OPT:
        if (x->k == G_STAR) b_plus(a, o, n); else memcpy(o, a, (size_t)sz);
        for (int i = 0; i < n; i++) o[i * n + i] |= U[i];
        break;
    case G_COMPL:
        for (int i = 0; i < sz; i++)
            o[i] = !a[i] && (set ? U[i] : U[i / n] && U[i % n]);
        break;
    case G_BRACKET:
        memset(o, 0, (size_t)sz);
        for (int i = 0; i < n; i++) o[i * n + i] = a[i];
        break;
    case G_CROSS: for (int i = 0; i < sz; i++) o[i] = a[i / n] && b[i % n]; break;
    case G_ID: memset(o, 0, (size_t)sz); for (int i = 0; i < n; i++) o[i * n + i] = U[i]; break;
    case G_ZERO: memset(o, 0, (size_t)sz); break;
    case G_DOMAIN: case G_RANGE:
        for (int i = 0; i < n; i++) {
            o[i] = 0;
            for (int j = 0; j < n; j++) o[i] |= x->k == G_DOMAIN ? a[i * n + j] : a[j * n + i];
        }
        break;
    }
}

static int concrete_check(cat_check_kind k, int neg, const unsigned char *g)
{
    int n = PN, bad = 0;
    if (k == CAT_EMPTY) for (int i = 0; i < n * n; i++) bad |= g[i];
    if (k == CAT_IRREFLEXIVE) for (int i = 0; i < n; i++) bad |= g[i * n + i];
    if (k == CAT_ACYCLIC) {
        unsigned char p[PN * PN];
        b_plus(g, p, n);
        for (int i = 0; i < n; i++) bad |= p[i * n + i];
    }
    return neg ? bad : !bad;
}

/* the symbolic bases: each entry T, NULL or one of PV variables; where[e] = variable or -1 */
typedef struct { Z3_ast var[PV]; int rv[3][PN * PN], sv[3][PN]; } sym;

static void sym_world(const sym *S, unsigned asg, world *w)
{
    for (int k = 0; k < 3; k++) {
        for (int i = 0; i < PN * PN; i++)
            w->r[k][i] = S->rv[k][i] == -2 ? 1 : S->rv[k][i] < 0 ? 0 : (asg >> S->rv[k][i]) & 1;
        for (int i = 0; i < PN; i++)
            w->s[k][i] = S->sv[k][i] == -2 ? 1 : S->sv[k][i] < 0 ? 0 : (asg >> S->sv[k][i]) & 1;
    }
}

static void sym_engine(enc *e, teng *t, sym *S)
{
    te_init(t, PN);
    for (int v = 0; v < PV; v++) S->var[v] = b_var(e, "p");
    const char *rn[] = { "r1", "r2", "r3" }, *sn[] = { "A", "B", "_" };
    for (int k = 0; k < 3; k++) {
        rel r = rel_new(PN);
        for (int i = 0; i < PN * PN; i++) {
            int c = (int)(rnd() % 6);
            S->rv[k][i] = c < 2 ? -1 : c == 2 || k == 2 ? -2 : (int)(rnd() % PV);
            r.m[i] = S->rv[k][i] == -2 ? e->T : S->rv[k][i] < 0 ? NULL : S->var[S->rv[k][i]];
        }
        te_rel(t, rn[k], r);
        rset s = rset_new(PN);
        for (int i = 0; i < PN; i++) {
            int c = (int)(rnd() % 4);
            S->sv[k][i] = k == 2 ? (i == PN - 1 ? (int)(rnd() % PV) : -2)
                        : c == 0 ? -1 : c == 1 ? -2 : (int)(rnd() % PV);
            s.v[i] = S->sv[k][i] == -2 ? e->T : S->sv[k][i] < 0 ? NULL : S->var[S->sv[k][i]];
        }
        te_set(t, sn[k], s);
    }
}

/* Under the sanitizers every third round (40 expressions): each round is a Z3 context, ~70 ms
 * under ASan; the plain build runs all 120 */
START_TEST(symbolic_against_brute_force)
{
    rnd_state = 777;
    int tested = 0, sats = 0;
    for (int round = 0; round < 120; round += PTX_SANITIZED ? 3 : 1) {
        enc e;
        enc_init(&e);
        teng t;
        sym S;
        sym_engine(&e, &t, &S);
        gx *x = gen(0, 1 + round % 4);
        char expr[4096], text[4200];
        gx_text(x, 0, expr, sizeof expr);
        cat_check_kind k = (cat_check_kind)(rnd() % 3);
        int neg = rnd() % 3 == 0;
        snprintf(text, sizeof text, "%s%s %s", neg ? "~" : "", cat_check_kind_name(k), expr);
        run_t R = run_ok(&e, &t, text);
        /* the entries, under a few assignments, against the concrete evaluation */
        for (int q = 0; q < 6; q++) {
            unsigned asg = rnd() % (1u << PV);
            Z3_ast to[PV];
            for (int v = 0; v < PV; v++) to[v] = (asg >> v) & 1 ? e.T : e.F;
            world w;
            unsigned char g[PN * PN];
            sym_world(&S, asg, &w);
            gx_eval(x, 0, &w, g);
            for (int i = 0; i < PN * PN; i++) {
                Z3_ast v = Z3_simplify(e.z, Z3_substitute(e.z, b_of(&e, R.r.v[0].r.m[i]), PV,
                                                          S.var, to));
                ck_assert_msg((Z3_get_bool_value(e.z, v) == Z3_L_TRUE) == g[i],
                              "%s: entry %d under %x", text, i, asg);
            }
        }
        /* brute force */
        int exists = 0;
        for (unsigned asg = 0; asg < (1u << PV); asg++) {
            world w;
            unsigned char g[PN * PN];
            sym_world(&S, asg, &w);
            gx_eval(x, 0, &w, g);
            if (concrete_check(k, neg, g)) { exists = 1; break; }
        }
        for (int how = 0; how < 2; how++) {
            Z3_solver s = Z3_mk_simple_solver(e.z);
            Z3_solver_inc_ref(e.z, s);
            cat_assert_check(&e, s, &R.r.v[0], how ? CAT_ACYCLIC_CLOSURE : CAT_ACYCLIC_CLOCKS);
            Z3_lbool res = Z3_solver_check(e.z, s);
            ck_assert_msg((res == Z3_L_TRUE) == exists, "%s: solver %d, brute force %d", text,
                          res, exists);
            if (res == Z3_L_TRUE) {
                Z3_model m = Z3_solver_get_model(e.z, s);
                Z3_model_inc_ref(e.z, m);
                ck_assert_int_eq(cat_check_holds(&e, m, &R.r.v[0]), 1);
                /* the model's assignment, concretely */
                unsigned asg = 0;
                for (int v = 0; v < PV; v++) {
                    Z3_ast val;
                    Z3_model_eval(e.z, m, S.var[v], true, &val);
                    if (Z3_get_bool_value(e.z, val) == Z3_L_TRUE) asg |= 1u << v;
                }
                world w;
                unsigned char g[PN * PN];
                sym_world(&S, asg, &w);
                gx_eval(x, 0, &w, g);
                ck_assert_msg(concrete_check(k, neg, g), "%s: the model's world fails", text);
                Z3_model_dec_ref(e.z, m);
                sats += how == 0;
            }
            Z3_solver_dec_ref(e.z, s);
        }
        tested++;
        run_free(&R);
        gx_free(x);
        te_free(&t);
        enc_free(&e);
    }
    printf("symbolic_against_brute_force: %d expressions, %d satisfiable\n", tested, sats);
    ck_assert_int_ge(sats, tested / 12);   /* both answers are common: 10 of 120 at least */
    ck_assert_int_le(sats, tested - tested / 12);
}
END_TEST

/* ---------- solver-chosen relations, flags on models, symbolic refusals ---------- */

START_TEST(fresh_relations_and_flags)
{
    enc e;
    enc_init(&e);
    teng t;
    std_engine(&e, &t, 4, 0);
    unsigned char chain[16] = { 0 }, cyc[16] = { 0 };
    for (int i = 0; i + 1 < 4; i++) chain[i * 4 + i + 1] = cyc[i * 4 + i + 1] = 1;
    cyc[3 * 4 + 0] = 1;
    te_rel(&t, "chain", rel_of_bits(&e, chain, 4));
    te_rel(&t, "cyc", rel_of_bits(&e, cyc, 4));
    rel x = rel_new(4);
    Z3_ast v = b_var(&e, "x");
    rel_set(&x, 0, 2, v);
    te_rel(&t, "x", x);
    /* newRelation(): some acyclic relation containing chain exists, none containing cyc */
    for (int k = 0; k < 2; k++) {
        run_t R = run_ok(&e, &t, k ? "let s = newRelation()\nempty cyc \\ s\nacyclic s"
                                   : "let s = newRelation()\nempty chain \\ s\nacyclic s");
        Z3_solver s = Z3_mk_simple_solver(e.z);
        Z3_solver_inc_ref(e.z, s);
        cat_assert_checks(&e, s, &R.r);
        ck_assert_int_eq(Z3_solver_check(e.z, s), k ? Z3_L_FALSE : Z3_L_TRUE);
        Z3_solver_dec_ref(e.z, s);
        run_free(&R);
    }
    /* a flag is never asserted; on a model it says whether it holds */
    run_t R = run_ok(&e, &t, "flag ~empty x as race\nundefined_unless empty x as ub\n"
                             "acyclic chain");
    for (int want = 0; want < 2; want++) {
        Z3_solver s = Z3_mk_simple_solver(e.z);
        Z3_solver_inc_ref(e.z, s);
        ck_assert_int_eq(cat_assert_checks(&e, s, &R.r), 1);
        Z3_solver_assert(e.z, s, want ? v : Z3_mk_not(e.z, v));
        ck_assert_int_eq(Z3_solver_check(e.z, s), Z3_L_TRUE);
        Z3_model m = Z3_solver_get_model(e.z, s);
        Z3_model_inc_ref(e.z, m);
        int holds[3];
        ck_assert_int_eq(cat_checks_hold(&e, m, &R.r, holds), 0);
        ck_assert_int_eq(holds[0], want);       /* ~empty x: holds when x(0,2) */
        ck_assert_int_eq(holds[1], !want);
        ck_assert_int_eq(holds[2], 1);
        Z3_model_dec_ref(e.z, m);
        Z3_solver_dec_ref(e.z, s);
    }
    run_free(&R);
    /* a match or forall over a set whose members the solver chooses is refused */
    te_set(&t, "S", rset_new(4));
    t.b[t.nb - 1].s.v[1] = b_var(&e, "s");
    run_err(&e, &t, "let rec f S = match S with {} -> 0 || e ++ R -> f R end\nempty f(S)",
            "t.cat:1:21: found the set of events 'S', expected one whose members are known (a "
            "match takes a member out of a set; here membership depends on the execution) [in f,"
            " called at t.cat:2:7]");
    run_err(&e, &t, "forall e in S do empty po end", "t.cat:1:13: found the set of events 'S', "
            "expected one whose members are known ('forall' iterates over the members; here "
            "membership depends on the execution)");
    te_free(&t);
    enc_free(&e);
}
END_TEST

/* ---------- the published models ---------- */

static int have_spec(void)
{
    struct stat st;
    if (stat(SPEC "/dat3m-ptx-v7.5.cat", &st) == 0) return 1;
    printf("test_cat: %s is absent, the published models are not tested\n", SPEC);
    return 0;
}

/* an engine where every name exists, for a candidate of n events: rf and co symbolic */
static void ptx_engine(enc *e, teng *t, int n, int sym)
{
    te_init(t, n);
    t->all_names = 1;
    unsigned char b[64 * 64];
    memset(b, 0, sizeof b);
    for (int i = 0; i < n; i++) b[i] = 1;
    te_set(t, "_", set_of_bits(e, b, n));
    const char *sets[] = { "W", "R", "M", "F", "RLX", "ACQ", "REL", "ACQ_REL", "SC", "GEN" };
    for (int k = 0; k < 10; k++) {
        rset s = rset_new(n);
        for (int i = 0; i < n; i++)
            if (k == 2 ? i % 3 != 2 : k == 0 ? i % 3 == 0 : k == 1 ? i % 3 == 1
                : k == 3 ? i % 3 == 2 : rnd() % 2)
                s.v[i] = e->T;
        te_set(t, sets[k], s);
    }
    const char *rels[] = { "po", "loc", "vloc", "sr", "scta", "rf", "co", "rmw", "po-loc" };
    for (int k = 0; k < 9; k++) {
        rel r = rel_new(n);
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
                int po = i / 4 == j / 4 && i < j, loc = i % 2 == j % 2;
                int on = k == 0 ? po : k == 1 || k == 2 ? loc : k == 3 || k == 4 ? 1
                       : k == 5 ? i % 3 == 0 && j % 3 == 1 && loc
                       : k == 6 ? i % 3 == 0 && j % 3 == 0 && loc && i != j
                       : k == 7 ? i % 3 == 1 && j == i + 2 : po && loc;
                if (on) rel_set(&r, i, j, sym && (k == 5 || k == 6) ? b_var(e, "x") : e->T);
            }
        te_rel(t, rels[k], r);
    }
}

START_TEST(published_models)
{
    if (!have_spec()) return;
    const char *files[] = { "dat3m-ptx-v7.5.cat", "dat3m-ptx-v6.0.cat", "dat3m-stdlib.cat",
                            "herd-stdlib.cat" };
    const int nchecks[] = { 6, 7, 2, 0 };
    for (int f = 0; f < 4; f++) {
        char path[256], err[1024];
        snprintf(path, sizeof path, "%s/%s", SPEC, files[f]);
        cat_model *m = cat_load_file(path, NULL, 0, err, sizeof err);
        ck_assert_msg(m != NULL, "%s", err);
        for (int sym = 0; sym < 2; sym++) {
            enc e;
            enc_init(&e);
            teng t;
            ptx_engine(&e, &t, 12, sym);
            cat_prog *p = cat_link(m, &TE, &t, err, sizeof err);
            ck_assert_msg(p != NULL, "%s", err);
            cat_result r;
            ck_assert_msg(cat_eval(p, &e, 12, &t, NULL, &r, err, sizeof err) == 0, "%s", err);
            ck_assert_int_eq(r.n, nchecks[f]);
            Z3_solver s = Z3_mk_simple_solver(e.z);
            Z3_solver_inc_ref(e.z, s);
            cat_assert_checks(&e, s, &r);
            Z3_lbool res = Z3_solver_check(e.z, s);
            ck_assert(res != Z3_L_UNDEF);
            if (res == Z3_L_TRUE) {
                Z3_model mo = Z3_solver_get_model(e.z, s);
                Z3_model_inc_ref(e.z, mo);
                int holds[16];
                ck_assert_int_eq(cat_checks_hold(&e, mo, &r, holds), 0);
                for (int i = 0; i < r.n; i++)
                    if (!r.v[i].flag && !r.v[i].undefined_unless) ck_assert(holds[i]);
                Z3_model_dec_ref(e.z, mo);
            }
            if (f == 0) {
                ck_assert_str_eq(r.v[0].name, "axiom-Coherence");
                ck_assert_str_eq(r.v[5].name, "axiom-Causality");
                ck_assert_int_eq(r.v[5].kind, CAT_IRREFLEXIVE);
            }
            Z3_solver_dec_ref(e.z, s);
            cat_result_free(&r);
            cat_prog_free(p);
            te_free(&t);
            enc_free(&e);
        }
        cat_free(m);
    }
}
END_TEST

/* Dat3M's library found through the search path */
START_TEST(search_path_with_published_library)
{
    if (!have_spec()) return;
    const char *search[] = { SPEC };
    char err[1024];
    cat_model *m = cat_load_text("t.cat", "\"with stdlib\"\ninclude \"dat3m-stdlib.cat\"\n"
                                 "acyclic po-loc | rf | co | fr as sc-per-loc", search, 1, err,
                                 sizeof err);
    ck_assert_msg(m != NULL, "%s", err);
    enc e;
    enc_init(&e);
    teng t;
    ptx_engine(&e, &t, 6, 1);
    cat_prog *p = cat_link(m, &TE, &t, err, sizeof err);
    ck_assert_msg(p != NULL, "%s", err);
    cat_result r;
    ck_assert_int_eq(cat_eval(p, &e, 6, &t, NULL, &r, err, sizeof err), 0);
    ck_assert_int_eq(r.n, 3);
    ck_assert_str_eq(r.v[1].name, "undefined-behavior");
    ck_assert_int_eq(r.v[1].flag, 1);
    ck_assert_str_eq(r.v[2].name, "sc-per-loc");
    cat_result_free(&r);
    cat_prog_free(p);
    te_free(&t);
    enc_free(&e);
    cat_free(m);
}
END_TEST

/* Dat3M's ptx-v7.5 evaluated repeatedly over candidates of n events: the same result every
 * time; the time per evaluation is printed (the figure of docs/cat.md), not asserted */
START_TEST(published_model_speed)
{
    if (!have_spec()) return;
    char err[1024];
    cat_model *m = cat_load_file(SPEC "/dat3m-ptx-v7.5.cat", NULL, 0, err, sizeof err);
    ck_assert_ptr_nonnull(m);
    const int sizes[] = { 8, 16, 24 };
    for (int k = 0; k < 3; k++) {
        int n = sizes[k], reps = PTX_SANITIZED ? 2 : 20;
        enc e;
        enc_init(&e);
        teng t;
        ptx_engine(&e, &t, n, 1);
        cat_prog *p = cat_link(m, &TE, &t, err, sizeof err);
        ck_assert_ptr_nonnull(p);
        struct timespec a, b;
        cat_result first;
        ck_assert_int_eq(cat_eval(p, &e, n, &t, NULL, &first, err, sizeof err), 0);
        clock_gettime(CLOCK_MONOTONIC, &a);
        for (int i = 0; i < reps; i++) {   /* every evaluation gives the same checks, in order */
            cat_result r;
            ck_assert_int_eq(cat_eval(p, &e, n, &t, NULL, &r, err, sizeof err), 0);
            ck_assert_int_eq(r.n, first.n);
            for (int c = 0; c < r.n; c++)
                ck_assert(r.v[c].kind == first.v[c].kind && r.v[c].site == first.v[c].site);
            cat_result_free(&r);
        }
        clock_gettime(CLOCK_MONOTONIC, &b);
        cat_result_free(&first);
        double us = ((double)(b.tv_sec - a.tv_sec) * 1e6 + (double)(b.tv_nsec - a.tv_nsec) / 1e3)
                    / reps;   /* printed, not asserted: speed is for make bench */
        printf("published_model_speed: dat3m-ptx-v7.5.cat, %d events: %.1f us per evaluation\n",
               n, us);
        cat_prog_free(p);
        te_free(&t);
        enc_free(&e);
    }
    cat_free(m);
}
END_TEST

/* ---------- the error catalogue tests/errors/cat ---------- */

/* the names of a PTX engine (issue 9), for the catalogue */
static void catalogue_engine(teng *t)
{
    static const char *const rels[] = { "po", "po-loc", "rf", "co", "fr", "rmw", "loc", "vloc",
        "ext", "int", "addr", "data", "ctrl", "sr", "scta", "syncbar", "sync_fence" };
    static const char *const sets[] = { "_", "W", "R", "M", "F", "WEAK", "RLX", "ACQ", "REL",
        "ACQ_REL", "SC", "CTA", "GPU", "SYS", "GEN", "SUR", "TEX", "CON", "ALIAS" };
    te_init(t, 0);
    for (size_t i = 0; i < sizeof rels / sizeof *rels; i++) te_rel(t, rels[i], rel_new(0));
    for (size_t i = 0; i < sizeof sets / sizeof *sets; i++) te_set(t, sets[i], rset_new(0));
}

START_TEST(error_catalogue)
{
    const char *dir = "tests/errors/cat";
    DIR *d = opendir(dir);
    if (!d) { printf("test_cat: %s is absent (not run from the repository root)\n", dir); return; }
    struct dirent *de;
    int count = 0;
    teng t;
    catalogue_engine(&t);
    while ((de = readdir(d))) {
        size_t l = strlen(de->d_name);
        if (l < 5 || strcmp(de->d_name + l - 4, ".cat")) continue;
        char path[512], exp[512], want[1024] = "", err[1024] = "";
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        snprintf(exp, sizeof exp, "%s/%.*s.expect", dir, (int)(l - 4), de->d_name);
        FILE *f = fopen(exp, "r");
        ck_assert_msg(f != NULL, "%s has no .expect", path);
        ck_assert_ptr_nonnull(fgets(want, sizeof want, f));
        fclose(f);
        want[strcspn(want, "\n")] = 0;
        cat_model *m = cat_load_file(path, NULL, 0, err, sizeof err);
        cat_prog *p = m ? cat_link(m, &TE, &t, err, sizeof err) : NULL;
        ck_assert_msg(!p, "%s: no error", path);
        cat_free(m);
        if (!strncmp(want, "re:", 3)) {   /* an extended regular expression, as errors.sh */
            char anchored[1100];
            snprintf(anchored, sizeof anchored, "^%s$", want + 3);
            regex_t re;
            ck_assert_int_eq(regcomp(&re, anchored, REG_EXTENDED | REG_NOSUB), 0);
            int rc = regexec(&re, err, 0, NULL, 0);
            regfree(&re);
            ck_assert_msg(rc == 0, "%s:\n  got:  %s\n  want: %s", path, err, want);
        } else {
            ck_assert_msg(!strcmp(err, want), "%s:\n  got:  %s\n  want: %s", path, err, want);
        }
        count++;
    }
    closedir(d);
    te_free(&t);
    printf("error_catalogue: %d entries\n", count);
    ck_assert_int_ge(count, 20);
}
END_TEST

/* an engine may declare a base relation transitive (cat_value.transitive: its own constraints
   make it so, as verify's co): r+ is then r itself, with no closure built.  Declared of a
   relation that is not transitive, the shortcut shows (a test engine may lie; verify's does
   not, solver/query.c build_co); undeclared, r+ is the closure.  Built on r+ the rest of the
   language is unchanged (r+ ; r, let co = co+). */
START_TEST(engine_transitive_relation)
{
    enc e;
    enc_init(&e);
    for (int declared = 0; declared < 2; declared++) {
        teng t;
        te_init(&t, 4);
        unsigned char r[16] = { 0 }, w[16];
        r[0 * 4 + 1] = r[1 * 4 + 2] = r[2 * 4 + 3] = 1;   /* 0 -> 1 -> 2 -> 3 */
        unsigned char all[4] = { 1, 1, 1, 1 };
        te_set(&t, "_", set_of_bits(&e, all, 4));
        te_rel(&t, "r", rel_of_bits(&e, r, 4));
        t.b[1].transitive = declared;
        if (declared) memcpy(w, r, sizeof w); else b_plus(r, w, 4);
        check_op(&e, &t, "r+", w);
        unsigned char rr[16];
        b_seq(w, r, rr, 4);
        check_op(&e, &t, "r+ ; r", rr);
        unsigned char got[16];
        value_bits(&e, &t, "let r = r+\nempty r as out", got);
        ck_assert_msg(!memcmp(got, w, 16), "let r = r+ (declared %d)", declared);
        ck_assert_int_eq(w[0 * 4 + 3], !declared);
        te_free(&t);
    }
    enc_free(&e);
}
END_TEST

static void add_tests(TCase *tc)
{
    tcase_add_test(tc, engine_transitive_relation);
    tcase_add_test(tc, parse_errors);
    tcase_add_test(tc, parse_depth_and_header);
    tcase_add_test(tc, operators_concrete);
    tcase_add_test(tc, precedence);
    tcase_add_test(tc, shadowing_and_functions);
    tcase_add_test(tc, procedures_checks_flags);
    tcase_add_test(tc, includes);
    tcase_add_test(tc, let_rec_concrete);
    tcase_add_test(tc, let_rec_symbolic);
    tcase_add_test(tc, type_errors);
    tcase_add_test(tc, symbolic_against_brute_force);
    tcase_add_test(tc, fresh_relations_and_flags);
    tcase_add_test(tc, published_models);
    tcase_add_test(tc, search_path_with_published_library);
    tcase_add_test(tc, published_model_speed);
    tcase_add_test(tc, error_catalogue);
}

#include "check_main.h"
