/* frontend/litmus_build.c — the frame shared by the Tile IR and LLVM-level front ends
 * (frontend/litmus_build.h): the first word of a text (what the dispatcher litmus_dialect.c
 * reads), header and name, doc strings, initial state, thread heads, `locations`, the
 * condition.  Below the front ends that use it: calls only the test being built
 * (litmus_test.c), the lexer and the condition parser. */
#include "frontend/litmus_build.h"
#include "base/alloc.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---------- the header word ---------- */

/* Skips blanks and comments ((* ... *) and // ...); returns the first other character. */
static const char *skip_blank(const char *s)
{
    for (;;) {
        while (*s && isspace((unsigned char)*s)) s++;
        if (s[0] == '(' && s[1] == '*') {
            const char *e = strstr(s + 2, "*)");
            if (!e) return s + strlen(s);
            s = e + 2;
        } else if (s[0] == '/' && s[1] == '/') {
            while (*s && *s != '\n') s++;
        } else return s;
    }
}

void lb_first_word(const char *text, char *w, size_t n)
{
    const char *s = skip_blank(text);
    size_t k = 0;
    while (n && k + 1 < n && (isalnum((unsigned char)s[k]) || s[k] == '_')) { w[k] = s[k]; k++; }
    if (n) w[k] = 0;
}

/* ---------- tokens ---------- */

const token *lb_cur(const parser *p) { return &p->tv.v[p->pos]; }

const token *lb_peek(const parser *p, int k)
{
    int i = p->pos + k;
    return &p->tv.v[i < p->tv.n ? i : p->tv.n - 1];
}

int lb_expect(parser *p, int c, const char *what)
{
    if (!tok_punct(lb_cur(p), c)) { lp_expect_fail(p, lb_cur(p), what); return -1; }
    p->pos++;
    return 0;
}

char *lb_span_text(const parser *p, int a, int b)
{
    size_t n = 1;
    for (int i = a; i < b; i++) n += (size_t)p->tv.v[i].len + 3;
    char *s = xmalloc(n), *o = s;
    for (int i = a; i < b; i++) {
        const token *t = &p->tv.v[i];
        /* a space between words, none around punctuation but after ',' and around '=' */
        int sp = i > a && (t->k != TK_PUNCT || tok_punct(t, '=')) &&
                 !(tok_punct(&p->tv.v[i - 1], '<') || tok_punct(&p->tv.v[i - 1], '('));
        if (i > a && (tok_punct(&p->tv.v[i - 1], ',') || tok_punct(&p->tv.v[i - 1], '='))) sp = 1;
        if (tok_punct(t, '>') || tok_punct(t, ')')) sp = 0;
        if (sp) *o++ = ' ';
        if (t->k == TK_STR) *o++ = '"';
        memcpy(o, t->s, (size_t)t->len);
        o += t->len;
        if (t->k == TK_STR) *o++ = '"';
    }
    *o = 0;
    return s;
}

/* ---------- header, name, doc strings ---------- */

/* The name after the header word: blanked in the copy (it is free text), returned. */
static char *take_name(char *copy, const char *word_at, size_t wlen, const char **name_at)
{
    char *s = (char *)word_at + wlen;
    while (*s == ' ' || *s == '\t') s++;
    char *e = s;
    while (*e && *e != '\n' && *e != '\r' && *e != '"' && !(e[0] == '(' && e[1] == '*')) e++;
    char *end = e;
    while (end > s && (end[-1] == ' ' || end[-1] == '\t')) end--;
    *name_at = s;
    char *name = xstrndup(s, (size_t)(end - s));
    for (char *q = s; q < end; q++) *q = ' ';
    (void)copy;
    return name;
}

static void add_doc(lit_test *t, const token *s)
{
    size_t dl = t->doc ? strlen(t->doc) : 0;
    t->doc = xrealloc(t->doc, dl + (size_t)s->len + 2);
    if (dl) t->doc[dl++] = '\n';
    memcpy(t->doc + dl, s->s, (size_t)s->len);
    t->doc[dl + (size_t)s->len] = 0;
}

int lb_begin(parser *p, const char *word, const char *file, const char *text, int max_depth,
             char *err, size_t errlen, char **copy)
{
    memset(p, 0, sizeof *p);
    p->file = file; p->err = err; p->errlen = errlen;
    p->max_depth = max_depth > 0 ? max_depth : COND_MAX_DEPTH;
    *copy = xstrdup(text);
    p->text = *copy;
    const char *w = skip_blank(*copy);
    const char *name_at = NULL;
    char *name = NULL;
    if (!strncasecmp(w, word, strlen(word))) name = take_name(*copy, w, strlen(word), &name_at);
    if (lex_all(file, *copy, &p->tv, err, errlen)) { free(name); return -1; }
    p->t = xcalloc(1, sizeof *p->t);
    p->t->file = xstrdup(file);
    const token *h = lb_cur(p);
    if (!tok_is(h, word) && !(h->k == TK_IDENT && (size_t)h->len == strlen(word) &&
                              !strncasecmp(h->s, word, strlen(word)))) {
        char want[64];
        snprintf(want, sizeof want, "'%s' followed by the test name", word);
        lp_expect_fail(p, h, want);
        free(name);
        return -1;
    }
    p->pos++;
    if (!name || !*name) {
        token at = *h;
        at.col += h->len + 1;
        lp_errat(p, &at, "found no test name, expected the test name on the same line as '%s'",
                 word);
        free(name);
        return -1;
    }
    p->t->name = name;
    while (lb_cur(p)->k == TK_STR) { add_doc(p->t, lb_cur(p)); p->pos++; }
    return 0;
}

void lb_end(parser *p, char *copy)
{
    tokvec_free(&p->tv);
    free(copy);
}

/* ---------- the initial state ---------- */

static isa_type elem_type(const token *t)
{
    static const struct { const char *w; isa_type t; } ty[] = {
        { "i8", ISA_T_S8 }, { "i16", ISA_T_S16 }, { "i32", ISA_T_S32 }, { "i64", ISA_T_S64 } };
    for (size_t i = 0; i < sizeof ty / sizeof ty[0]; i++)
        if (tok_is(t, ty[i].w)) return ty[i].t;
    return ISA_T_NONE;
}

/* [TYPE] NAME [= [-]NUM] */
static int init_entry(parser *p)
{
    isa_type ty = elem_type(lb_cur(p));
    if (ty) p->pos++;
    const token *n = lb_cur(p);
    if (n->k != TK_IDENT || n->s[0] == '%' || n->s[0] == '@') {
        lp_expect_fail(p, n, "a location such as 'x = 0;' or 'i32 x = 0;' (types i8 i16 i32 i64)");
        return -1;
    }
    char *nm = lp_tokstr(n);
    if (lit_find_sym(p->t, nm) >= 0) {
        lp_errat(p, n, "found a second declaration of '%s', expected each location declared once",
                 nm);
        free(nm);
        return -1;
    }
    int si = lp_add_sym(p->t, nm);   /* (before taking the address: it reallocates) */
    lit_sym *s = &p->t->sym[si];
    s->in_init = 1;   /* declared here: a condition naming it is no typo (litmus_warn.c) */
    free(nm);
    p->pos++;
    if (ty) { s->declared = 1; s->type = ty; s->size = (int)isa_type_bits(ty) / 8; }
    if (!tok_punct(lb_cur(p), '=')) return 0;
    p->pos++;
    int neg = tok_punct(lb_cur(p), '-');
    if (neg) p->pos++;
    if (lb_cur(p)->k != TK_NUM) {
        lp_expect_fail(p, lb_cur(p), "an integer initial value");
        return -1;
    }
    uint64_t u = (uint64_t)lb_cur(p)->num;
    s->init = neg ? (int64_t)(0 - u) : (int64_t)u;
    p->pos++;
    return 0;
}

int lb_parse_init(parser *p)
{
    if (lb_expect(p, '{', "'{' opening the initial state")) return -1;
    while (!tok_punct(lb_cur(p), '}')) {
        if (tok_punct(lb_cur(p), ';')) { p->pos++; continue; }
        if (lb_cur(p)->k == TK_EOF) {
            lp_expect_fail(p, lb_cur(p), "'}' closing the initial state");
            return -1;
        }
        if (init_entry(p)) return -1;
        if (!tok_punct(lb_cur(p), ';') && !tok_punct(lb_cur(p), '}')) {
            lp_expect_fail(p, lb_cur(p), "';' or '}' after the location");
            return -1;
        }
    }
    p->pos++;
    return 0;
}

/* ---------- thread heads ---------- */

static int placement(parser *p, lit_thread *th, int allow_cluster)
{
    int seen[3] = { 0, 0, 0 };
    for (;;) {
        const token *k = lb_cur(p), *v = lb_peek(p, 1);
        int which = tok_is(k, "cta") ? 0 : tok_is(k, "gpu") ? 1 : tok_is(k, "cluster") ? 2 : -1;
        if (which < 0 || (which == 2 && !allow_cluster)) {
            lp_expect_fail(p, k, allow_cluster ? "'cta', 'cluster' or 'gpu'" :
                           "'cta' or 'gpu' (a tile block is placed on a CTA of a GPU)");
            return -1;
        }
        if (seen[which]++) { lp_expect_fail(p, k, "each placement level once"); return -1; }
        if (v->k != TK_NUM || v->num > 1000000) {
            p->pos++;
            lp_expect_fail(p, v, "a number (at most 1000000) after the placement level");
            return -1;
        }
        if (which == 0) th->cta = (int)v->num;
        else if (which == 1) th->gpu = (int)v->num;
        else { th->cluster = (int)v->num; th->has_cluster = 1; p->t->uses_cluster = 1; }
        p->pos += 2;
        if (!tok_punct(lb_cur(p), ',')) return 0;
        p->pos++;
    }
}

int lb_parse_thread_head(parser *p, int allow_cluster, int default_cta)
{
    lit_test *t = p->t;
    const token *n = lb_cur(p);
    char want[16];
    snprintf(want, sizeof want, "P%d", t->nth);
    if (!tok_is(n, want)) {
        char m[64];
        snprintf(m, sizeof m, "the thread '%s' (threads are P0, P1, ... in order)", want);
        lp_expect_fail(p, n, m);
        return -1;
    }
    t->th = xrealloc(t->th, (size_t)(t->nth + 1) * sizeof *t->th);
    lit_thread *th = &t->th[t->nth];
    memset(th, 0, sizeof *th);
    th->name = xstrdup(want);
    int idx = t->nth++;
    p->pos++;
    if (tok_punct(lb_cur(p), '@')) {
        p->pos++;
        if (placement(p, th, allow_cluster)) return -1;
    } else if (default_cta < 0) {
        lp_expect_fail(p, lb_cur(p), "'@' and a placement such as 'cta 0,gpu 0'");
        return -1;
    } else th->cta = default_cta;
    if (!th->has_cluster) th->cluster = -1 - th->cta;
    if (lb_expect(p, '{', "'{' opening the thread's body")) return -1;
    return idx;
}

/* ---------- locations and the condition ---------- */

static int resolve(void *ctx, cond_ref *r, char *err, size_t errlen)
{
    parser *p = ctx;
    if (r->k == REF_REG) {
        int t = lit_find_thread(p->t, r->tname);
        if (t < 0) {
            snprintf(err, errlen, "%s:%d:%d: found the thread '%s', expected one of P0..P%d",
                     p->file, r->line, r->col, r->tname, p->t->nth - 1);
            return -1;
        }
        lit_thread *th = &p->t->th[t];
        int reg = lit_find_reg(th, r->rname);
        if (reg < 0) {
            snprintf(err, errlen, "%s:%d:%d: found '%s', expected a value that thread %s defines",
                     p->file, r->line, r->col, r->rname, th->name);
            return -1;
        }
        r->thread = t;
        r->reg = reg;
        r->type = th->reg_type[reg];
        free(r->name);
        r->name = xmalloc(strlen(th->name) + strlen(th->regs[reg]) + 2);
        sprintf(r->name, "%s:%s", th->name, th->regs[reg]);
    } else if (r->k == REF_LOC) {
        int s = lit_find_sym(p->t, r->rname);
        if (s < 0) {
            snprintf(err, errlen,
                     "%s:%d:%d: found '%s', expected a location of the test or a value "
                     "written P0:r1",
                     p->file, r->line, r->col, r->rname);
            return -1;
        }
        r->sym = s;
        r->type = p->t->sym[p->t->sym[s].loc].type;
    }
    return 0;
}

static int parse_locations(parser *p)
{
    lit_test *t = p->t;
    p->pos++;
    if (lb_expect(p, '[', "'[' after 'locations'")) return -1;
    while (!tok_punct(lb_cur(p), ']')) {
        if (tok_punct(lb_cur(p), ';')) { p->pos++; continue; }
        cond_ref r;
        if (cond_parse_ref(p->file, &p->tv, &p->pos, &r, p->err, p->errlen) ||
            resolve(p, &r, p->err, p->errlen)) {
            if (r.name || r.rname) cond_ref_free(&r);
            p->failed = 1;
            return -1;
        }
        if (r.k == REF_CONST) {
            cond_ref_free(&r);
            lp_expect_fail(p, lb_cur(p), "a register or location in 'locations'");
            return -1;
        }
        t->locations = xrealloc(t->locations, (size_t)(t->nlocations + 1) * sizeof *t->locations);
        t->locations[t->nlocations++] = r;
    }
    p->pos++;
    return 0;
}

int lb_parse_tail(parser *p)
{
    lit_test *t = p->t;
    if (tok_is(lb_cur(p), "locations") && parse_locations(p)) return -1;
    if (tok_is(lb_cur(p), "exists")) { t->quant = COND_EXISTS; p->pos++; }
    else if (tok_is(lb_cur(p), "forall")) { t->quant = COND_FORALL; p->pos++; }
    else if (tok_punct(lb_cur(p), '~') && tok_is(lb_peek(p, 1), "exists")) {
        t->quant = COND_NOT_EXISTS;
        p->pos += 2;
    } else {
        lp_expect_fail(p, lb_cur(p),
                       "a thread 'P0@...' or a condition: 'exists', '~exists' or 'forall'");
        return -1;
    }
    t->cond = cond_parse(p->file, &p->tv, &p->pos, resolve, p, p->max_depth, p->err, p->errlen);
    if (!t->cond) { p->failed = 1; return -1; }
    if (lb_cur(p)->k != TK_EOF) {
        lp_expect_fail(p, lb_cur(p), "the end of the test after the condition");
        return -1;
    }
    return 0;
}

/* ---------- instructions ---------- */

lit_insn *lb_add_insn(lit_thread *th, const token *at, char *text)
{
    th->ins = xrealloc(th->ins, (size_t)(th->nins + 1) * sizeof *th->ins);
    lit_insn *in = &th->ins[th->nins++];
    memset(in, 0, sizeof *in);
    in->k = LI_NOP;
    in->line = at->line;
    in->col = at->col;
    in->text = text;
    in->guard = -1;
    return in;
}
