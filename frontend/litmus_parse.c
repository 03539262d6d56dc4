/* frontend/litmus_parse.c — parser for PTX litmus tests.
 *
 * Accepts the de facto format of the public suites (herd/Dat3M "PTX" tests) and real PTX
 * spelling inside the same columns:
 *   PTX NAME  "doc"*  { init; ... }  P0@cta 0,gpu 0 | P1@... ;  rows of cells ;  [locations [...]]
 *   exists|~exists|forall PROP
 * Each cell holds at most one instruction, optionally preceded by labels `L:` and a guard `@%p`.
 * This file reads the structure (header, initial state, placement row, rows of cells,
 * `locations`, filter and condition); each cell is read by litmus_insn.c (lp_parse_cell), and
 * after the rows the rules across instructions are applied (litmus_check.c lp_check_program).
 * The dispatcher lit_parse_ex (litmus_dialect.c) calls lp_parse_ptx for every text whose first
 * word is not TILEIR or LLVM; this file calls no other dialect. */
#include "frontend/litmus_int.h"
#include "base/alloc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const token *cur(parser *p) { return &p->tv.v[p->pos]; }
static const token *peek(parser *p, int k)
{
    int i = p->pos + k;
    return &p->tv.v[i < p->tv.n ? i : p->tv.n - 1];
}

#define errat lp_errat
#define expect_fail lp_expect_fail
#define tokstr lp_tokstr
#define strip_pct lp_strip_pct

/* ---------- init block ---------- */

/* A register initialiser, resolved once the threads are known: thread token (P0 or 0),
   register token, value or symbol. */
typedef struct { const token *tt, *rt; int64_t val; int sym; } pending_reg;

/* A constant (decimal or 0x hex, up to 64 bits) with an optional '-'; negative values must fit
   in int64, positive ones are kept as their 64-bit pattern. */
static int parse_const_tok(parser *p, int64_t *val)
{
    int neg = tok_punct(cur(p), '-') && peek(p, 1)->k == TK_NUM;
    if (neg) p->pos++;
    const token *t = cur(p);
    uint64_t u = (uint64_t)t->num;
    if (neg && u > (uint64_t)INT64_MAX + 1) {
        errat(p, t,
              "found -%.*s, expected a value that fits in 64 bits (at least -9223372036854775808)",
              t->len, t->s);
        return -1;
    }
    *val = neg ? (int64_t)(0 - u) : (int64_t)u;
    p->pos++;
    return 0;
}

/* value of an initialiser: a constant, or a location (`x`, `&x`: its address) */
static int parse_value(parser *p, int64_t *val, int *sym)
{
    const token *t = cur(p);
    *sym = -1;
    *val = 0;
    if ((tok_punct(t, '-') && peek(p, 1)->k == TK_NUM) || t->k == TK_NUM)
        return parse_const_tok(p, val);
    if (tok_punct(t, '&')) {
        p->pos++;
        t = cur(p);
        if (t->k != TK_IDENT) {
            expect_fail(p, t, "a location name after '&'");
            return -1;
        }
    }
    if (t->k == TK_IDENT) {
        char *n = tokstr(t);
        *sym = lp_add_sym(p->t, n);
        p->t->sym[*sym].in_init = 1;
        free(n);
        p->pos++;
        return 0;
    }
    expect_fail(p, t, "an integer or a location name");
    return -1;
}

/* C and PTX type words of the initial state: `int x = 0;`, `uint8_t y;`, `u16 z = 1;` */
static isa_type init_type(const token *t)
{
    static const struct { const char *w; isa_type t;
    } cw[] = { { "int", ISA_T_S32 },      { "unsigned", ISA_T_U32 },
               { "uint", ISA_T_U32 },     { "long", ISA_T_S64 },
               { "char", ISA_T_S8 },      { "short", ISA_T_S16 },
               { "int8_t", ISA_T_S8 },    { "int16_t", ISA_T_S16 },
               { "int32_t", ISA_T_S32 },  { "int64_t", ISA_T_S64 },
               { "uint8_t", ISA_T_U8 },   { "uint16_t", ISA_T_U16 },
               { "uint32_t", ISA_T_U32 }, { "uint64_t", ISA_T_U64 },
               { "intptr_t", ISA_T_S64 }, { NULL, 0 } };
    for (int i = 0; cw[i].w; i++)
        if (tok_is(t, cw[i].w)) return cw[i].t;
    char w[16];
    if (t->len >= (int)sizeof w) return ISA_T_NONE;
    snprintf(w, sizeof w, "%.*s", t->len, t->s);
    isa_type it = isa_type_parse(w);
    unsigned bits = isa_type_bits(it);
    return (bits >= 8 && bits <= 64 && !isa_type_is_float(it)) || it == ISA_T_F32 || it == ISA_T_F64
               ? it
               : ISA_T_NONE;
}

static const char *const proxy_words[] = { "generic", "texture", "surface", "constant" };

/* An alias in the initial state, `y @ generic aliases x`, whose first token t is current. */
static int parse_alias(parser *p, const token *t)
{
    const token *kind = peek(p, 2), *al = peek(p, 3), *tgt = peek(p, 4);
    int pk = -1;
    for (int k = 0; k <= PROXY_CONSTANT; k++)   /* the async proxy has no aliases */
        if (tok_is(kind, proxy_words[k])) pk = k;
    if (pk < 0) {
        p->pos += 2;
        expect_fail(p, kind, "a proxy kind: generic, texture, surface or constant");
        return -1;
    }
    if (!tok_is(al, "aliases")) { p->pos += 3; expect_fail(p, al, "'aliases'"); return -1; }
    if (tgt->k != TK_IDENT) {
        p->pos += 4;
        expect_fail(p, tgt, "the name of the aliased location");
        return -1;
    }
    char *n = tokstr(t), *tn = tokstr(tgt);
    int target = lp_add_sym(p->t, tn);
    if (lit_find_sym(p->t, n) >= 0) {
        errat(p, t, "found a second declaration of '%s', expected each name declared once", n);
        free(n); free(tn);
        return -1;
    }
    int s = lp_add_sym(p->t, n);
    p->t->sym[s].in_init = p->t->sym[target].in_init = 1;
    lit_sym *ts = &p->t->sym[target];
    p->t->sym[s].loc = ts->loc;
    p->t->sym[s].proxy = (lit_proxy)pk;
    /* a generic alias is a new virtual address; a texture/surface/constant alias
       names the memory of the (virtual address of the) aliased symbol, §8.6 */
    p->t->sym[s].vaddr = pk == PROXY_GENERIC ? s : ts->vaddr;
    if (pk != PROXY_GENERIC || s != ts->vaddr) p->t->uses_proxies = 1;
    free(n); free(tn);
    p->pos += 5;
    return 0;
}

/* The initial state `{ x=0; P0:r0=0; y @ generic aliases x; }`; register initialisers are
 * kept in *pend until the threads are known. */
/* Whether token i of the initial state names the location of an entry (`x = 0;`, `x;`,
   `int x = 1;`), not a value (`P0:r0 = x;`) or an alias target. */
static int is_entry(const parser *p, int i)
{
    const token *v = p->tv.v, *prev = &v[i - 1];
    if (v[i].k != TK_IDENT ||
        !(tok_punct(&v[i + 1], '=') || tok_punct(&v[i + 1], ';') || tok_punct(&v[i + 1], '}')))
        return 0;
    if (prev->k == TK_IDENT && i >= 2) prev = &v[i - 2];   /* a type word */
    return tok_punct(prev, '{') || tok_punct(prev, ';');
}

/* A location entry t (the current token) whose name an earlier entry of the initial state
   (opened at token open) already initialised: a warning, the last value is used. */
static void first_entry(parser *p, int open, const token *t)
{
    for (int i = open + 1; i < p->pos; i++)
        if (is_entry(p, i) && p->tv.v[i].len == t->len &&
            !memcmp(p->tv.v[i].s, t->s, (size_t)t->len)) {
            lp_warnat(p, t,
                      "found '%.*s' initialised a second time (first at %d:%d), expected each "
                      "location initialised once (the last value is used)",
                      t->len, t->s, p->tv.v[i].line, p->tv.v[i].col);
            return;
        }
}

static int parse_init(parser *p, pending_reg **pend, int *npend)
{
    if (!tok_punct(cur(p), '{')) {
        expect_fail(p, cur(p), "'{' opening the initial state");
        return -1;
    }
    int open = p->pos++;
    while (!tok_punct(cur(p), '}')) {
        const token *t = cur(p);
        if (tok_punct(t, ';')) { p->pos++; continue; }
        if (t->k == TK_EOF) { expect_fail(p, t, "'}' closing the initial state"); return -1; }
        /* optional C-like or PTX type word before a location: `int x = 0;`, `uint8_t x;` */
        isa_type decl = ISA_T_NONE;
        if (t->k == TK_IDENT && peek(p, 1)->k == TK_IDENT &&
            (tok_punct(peek(p, 2), '=') || tok_punct(peek(p, 2), ';') ||
             tok_punct(peek(p, 2), '}'))) {
            decl = init_type(t);
            if (!decl) {
                expect_fail(p, t,
                            "a type (int, unsigned, long, char, short, int8_t..uint64_t, or a PTX "
                            "type such as u32)");
                return -1;
            }
            p->pos++; t = cur(p);
        }
        if (decl && tok_punct(peek(p, 1), ':')) {
            expect_fail(p, peek(p, 1), "'=' (a type is declared for locations only)");
            return -1;
        }
        if ((t->k == TK_IDENT || t->k == TK_NUM) && tok_punct(peek(p, 1), ':')) {
            /* P0:r0=0  |  0:r0=0 */
            const token *rt = peek(p, 2);
            if (rt->k != TK_IDENT) {
                p->pos += 2;
                expect_fail(p, rt, "a register name after ':'");
                return -1;
            }
            pending_reg pr = { .tt = t, .rt = rt };
            p->pos += 3;
            if (!tok_punct(cur(p), '=')) {
                expect_fail(p, cur(p), "'=' after the register");
                return -1;
            }
            p->pos++;
            if (parse_value(p, &pr.val, &pr.sym)) return -1;
            *pend = xrealloc(*pend, (size_t)(*npend + 1) * sizeof **pend);
            (*pend)[(*npend)++] = pr;
        } else if (t->k == TK_IDENT && tok_punct(peek(p, 1), '@')) {
            if (parse_alias(p, t)) return -1;
        } else if (t->k == TK_IDENT) {
            first_entry(p, open, t);
            char *n = tokstr(t);
            int s = lp_add_sym(p->t, n);
            p->t->sym[s].in_init = 1;
            free(n);
            p->pos++;
            lit_sym *sy = &p->t->sym[p->t->sym[s].loc];
            if (decl) {
                if (sy->declared && sy->type != decl) {
                    errat(p, t, "found a second type for '%s', expected one", sy->name);
                    return -1;
                }
                sy->declared = 1; sy->type = decl; sy->size = (int)isa_type_bits(decl) / 8;
            }
            if (tok_punct(cur(p), '=')) {
                p->pos++;
                int64_t v; int vs;
                if (parse_value(p, &v, &vs)) return -1;
                p->t->sym[p->t->sym[s].loc].init = vs >= 0 ? lit_sym_addr(vs) : v;
            }
        } else {
            expect_fail(p, t,
                        "an initialisation such as 'x=0;', 'P0:r1=0;' or 'y @ generic aliases x;'");
            return -1;
        }
        if (!tok_punct(cur(p), ';') && !tok_punct(cur(p), '}')) {
            expect_fail(p, cur(p), "';' or '}'");
            return -1;
        }
    }
    p->pos++;
    if (tok_punct(cur(p), ';')) p->pos++;   /* variableDeclaratorList: ... RBrace Semi? */
    return 0;
}

/* ---------- placement row ---------- */

static int parse_placement(parser *p, int a, int b, lit_thread *th)
{
    const token *t = &p->tv.v[a];
    if (t->k != TK_IDENT || t->s[0] != 'P') {
        expect_fail(p, t, "a thread name such as 'P0'");
        return -1;
    }
    th->name = tokstr(t);
    th->cta = 0; th->gpu = 0; th->has_cluster = 0;
    int i = a + 1;
    if (i < b && tok_punct(&p->tv.v[i], '@')) {
        i++;
        while (i < b) {
            const token *k = &p->tv.v[i], *v = &p->tv.v[i + 1 < b ? i + 1 : i];
            if (!(tok_is(k, "cta") || tok_is(k, "cluster") || tok_is(k, "gpu"))) {
                expect_fail(p, k, "'cta', 'cluster' or 'gpu'");
                return -1;
            }
            if (i + 1 >= b || v->k != TK_NUM) {
                expect_fail(p, i + 1 < b ? v : &p->tv.v[b], "a number after the placement level");
                return -1;
            }
            if (tok_is(k, "cta")) th->cta = (int)v->num;
            else if (tok_is(k, "gpu")) th->gpu = (int)v->num;
            else { th->cluster = (int)v->num; th->has_cluster = 1; p->t->uses_cluster = 1; }
            i += 2;
            if (i < b) {
                if (!tok_punct(&p->tv.v[i], ',')) {
                    expect_fail(p, &p->tv.v[i], "',' between placement levels");
                    return -1;
                }
                i++;
            }
        }
    } else if (i < b) {
        expect_fail(p, &p->tv.v[i], "'@' and a placement such as 'cta 0,gpu 0'");
        return -1;
    }
    /* §8.5: a thread with no cluster is alone in its CTA's cluster (unless a CTA-mate names
       one: complete_clusters) */
    if (!th->has_cluster) th->cluster = -1 - th->cta;
    return 0;
}

/* §8.5 Table 18: a CTA belongs to one cluster.  Threads of one CTA must not name different
   clusters; a thread that names none shares the cluster its CTA-mates name, or is alone in
   its CTA's own cluster when none does.  `at` holds each thread's name token. */
static int complete_clusters(parser *p, const token *const *at)
{
    lit_test *t = p->t;
    for (int i = 0; i < t->nth; i++) {
        lit_thread *a = &t->th[i];
        for (int j = 0; j < t->nth; j++) {
            lit_thread *b = &t->th[j];
            if (j == i || a->gpu != b->gpu || a->cta != b->cta || b->has_cluster != 1) continue;
            if (a->has_cluster == 1 && a->cluster != b->cluster) {
                if (j < i) {
                    errat(p, at[i],
                          "found %s in cluster %d and %s in cluster %d, expected one cluster for "
                          "CTA %d of gpu %d "
                          "(a CTA belongs to one cluster, ISA §8.5)",
                          b->name, b->cluster, a->name, a->cluster, a->cta, a->gpu);
                    return -1;
                }
                continue;
            }
            if (a->has_cluster != 1) {
                a->cluster = b->cluster;
                a->has_cluster = 2;
            } /* 2: inherited */
        }
    }
    return 0;
}

static int resolve_labels(parser *p, lit_thread *th, labels *L)
{
    for (int i = 0; i < th->nins; i++) {
        lit_insn *in = &th->ins[i];
        if (!in->target_name) continue;
        if (!strcmp(in->target_name, "$end")) { in->target = th->nins; continue; }
        int found = -1;
        for (int k = 0; k < L->nlab; k++)
            if (!strcmp(L->labs[k], in->target_name)) found = L->labat[k];
        if (found < 0) {
            token t = { .line = in->line, .col = in->col };
            errat(p, &t, "found a branch to '%s', expected a label defined in thread %s",
                  in->target_name, th->name);
            return -1;
        }
        in->target = found;
    }
    th->labels = xcalloc((size_t)th->nins + 1, sizeof *th->labels);
    for (int k = 0; k < L->nlab; k++)
        if (!th->labels[L->labat[k]])
            th->labels[L->labat[k]] = xstrndup(L->labs[k], strlen(L->labs[k]));
    return 0;
}

/* ---------- condition references ---------- */

static int resolve_ref(void *ctx, cond_ref *r, char *err, size_t errlen)
{
    parser *p = ctx;
    if (r->k == REF_REG) {
        int t = lit_find_thread(p->t, r->tname);
        if (t < 0) {
            snprintf(err, errlen, "%s:%d:%d: found the thread '%s', expected one of P0..P%d",
                     p->file, r->line, r->col, r->tname, p->t->nth - 1);
            return -1;
        }
        r->thread = t;
        r->reg = lp_add_reg(&p->t->th[t], r->rname);
        r->type = p->t->th[t].reg_type[r->reg];
        const char *rn = strip_pct(r->rname), *tn = p->t->th[t].name;
        free(r->name);
        r->name = xrealloc(NULL, strlen(tn) + strlen(rn) + 2);
        sprintf(r->name, "%s:%s", tn, rn);
    } else if (r->k == REF_LOC) {
        int s = lit_find_sym(p->t, r->rname);
        if (s < 0) {
            snprintf(
                err, errlen,
                "%s:%d:%d: found '%s', expected a location of the test or a register written P0:r1",
                p->file, r->line, r->col, r->rname);
            return -1;
        }
        r->sym = s;
        r->type = p->t->sym[p->t->sym[s].loc].type;
    }
    return 0;
}

static int is_cond_start(parser *p)
{
    const token *t = cur(p);
    return tok_is(t, "exists") || tok_is(t, "forall") || tok_is(t, "locations") ||
           tok_is(t, "filter") || tok_is(t, "final") ||
           ((tok_punct(t, '~') || tok_is(t, "not")) && tok_is(peek(p, 1), "exists"));
}

/* ---------- filter and condition (LitmusAssertions.g4) ---------- */

/* final PROP ;? with (tso|cc|optic|default : ~?exists ;)+ — Dat3M's expectation list; the
   `default` entry gives the quantifier (the others name other models and are read, not used) */
static int parse_final_with(parser *p)
{
    if (tok_punct(cur(p), ';')) p->pos++;
    if (!tok_is(cur(p), "with")) {
        expect_fail(p, cur(p),
                    "'with' and expectations such as 'default: exists;' after a final condition");
        return -1;
    }
    p->pos++;
    int n = 0, have_default = 0;
    while (cur(p)->k != TK_EOF) {
        const token *m = cur(p);
        if (!(tok_is(m, "tso") || tok_is(m, "cc") || tok_is(m, "optic") || tok_is(m, "default"))) {
            expect_fail(p, m, "an expectation 'default:', 'tso:', 'cc:' or 'optic:'");
            return -1;
        }
        if (!tok_punct(peek(p, 1), ':')) {
            p->pos++;
            expect_fail(p, cur(p), "':' after the expectation's name");
            return -1;
        }
        p->pos += 2;
        int neg = 0;
        if (tok_punct(cur(p), '~') || tok_is(cur(p), "not")) { neg = 1; p->pos++; }
        if (!tok_is(cur(p), "exists")) {
            expect_fail(p, cur(p), "'exists' or '~exists'");
            return -1;
        }
        p->pos++;
        if (!tok_punct(cur(p), ';')) {
            expect_fail(p, cur(p), "';' after the expectation");
            return -1;
        }
        p->pos++;
        if (tok_is(m, "default")) {
            have_default = 1;
            p->t->quant = neg ? COND_NOT_EXISTS : COND_EXISTS;
        }
        n++;
    }
    if (!n) { expect_fail(p, cur(p), "an expectation such as 'default: exists;'"); return -1; }
    if (!have_default) p->t->quant = COND_EXISTS;
    return 0;
}

/* assertionFilter? assertionList? EOF.  A test without a condition asks whether any execution
   reaches a final state (`exists (true)`), with a warning: the grammar allows it, but a file
   cut short reads the same. */
static int parse_filter_and_condition(parser *p)
{
    lit_test *t = p->t;
    if (tok_is(cur(p), "filter")) {
        p->pos++;
        t->filter =
            cond_parse(p->file, &p->tv, &p->pos, resolve_ref, p, p->max_depth, p->err, p->errlen);
        if (!t->filter) { p->failed = 1; return -1; }
        if (tok_punct(cur(p), ';')) p->pos++;
    }
    int final = 0;
    if (cur(p)->k == TK_EOF) {   /* issue #28: a file cut before its condition is no Ok */
        lp_warnat(p, cur(p),
                  "found the end of the test and no condition, expected 'exists', '~exists' or "
                  "'forall' (it is decided as exists (true): does any execution end?)");
        t->quant = COND_EXISTS;
        t->cond = xcalloc(1, sizeof *t->cond);
        t->cond->op = CN_TRUE;
        return 0;
    }
    if (tok_is(cur(p), "exists")) { t->quant = COND_EXISTS; p->pos++; }
    else if (tok_is(cur(p), "forall")) { t->quant = COND_FORALL; p->pos++; }
    else if (tok_is(cur(p), "final")) { final = 1; p->pos++; }
    else if ((tok_punct(cur(p), '~') || tok_is(cur(p), "not")) && tok_is(peek(p, 1), "exists")) {
        t->quant = COND_NOT_EXISTS; p->pos += 2;
    } else {
        expect_fail(p, cur(p), "a condition: 'exists', '~exists', 'forall', 'final' or 'filter'");
        return -1;
    }
    t->cond = cond_parse(p->file, &p->tv, &p->pos, resolve_ref, p, p->max_depth, p->err, p->errlen);
    if (!t->cond) { p->failed = 1; return -1; }
    if (final) return parse_final_with(p);
    if (tok_punct(cur(p), ';')) p->pos++;
    if (cur(p)->k != TK_EOF) {
        expect_fail(p, cur(p), "the end of the test after the condition");
        return -1;
    }
    return 0;
}

/* ---------- top level ---------- */

/* The header: `PTX NAME` on one line, then the doc strings. */
static int parse_header(parser *p)
{
    lit_test *t = p->t;
    const token *h = cur(p);
    if (!(h->k == TK_IDENT && (tok_is(h, "PTX") || tok_is(h, "ptx")))) {
        expect_fail(p, h, "'PTX' followed by the test name");
        return -1;
    }
    p->pos++;
    const token *f = cur(p);
    if (f->line != h->line || f->k == TK_EOF || f->k == TK_STR || tok_punct(f, '{')) {
        expect_fail(p, f, "the test name on the same line as 'PTX'");
        return -1;
    }
    const token *l = f;
    while (cur(p)->line == h->line && cur(p)->k != TK_EOF && cur(p)->k != TK_STR &&
           !tok_punct(cur(p), '{')) {
        l = cur(p);
        p->pos++;
    }
    t->name = xstrndup(f->s, (size_t)(l->s + l->len - f->s));
    /* doc strings */
    size_t dl = 0;
    while (cur(p)->k == TK_STR) {
        const token *s = cur(p);
        t->doc = xrealloc(t->doc, dl + (size_t)s->len + 2);
        if (dl) t->doc[dl++] = '\n';
        memcpy(t->doc + dl, s->s, (size_t)s->len);
        dl += (size_t)s->len;
        t->doc[dl] = 0;
        p->pos++;
    }
    return 0;
}

/* The placement row `P0@cta 0,gpu 0 | ... ;`: one thread per column, then the clusters. */
static int parse_thread_row(parser *p)
{
    lit_test *t = p->t;
    int row_start = p->pos;
    const token **names = NULL;
    while (!tok_punct(cur(p), ';') && cur(p)->k != TK_EOF) p->pos++;
    if (cur(p)->k == TK_EOF) {
        expect_fail(p, cur(p), "the thread row 'P0@cta 0,gpu 0 | ... ;'");
        return -1;
    }
    int a = row_start;
    for (int i = row_start; i <= p->pos; i++) {
        if (i == p->pos || tok_punct(&p->tv.v[i], '|')) {
            if (i == a) {
                expect_fail(p, &p->tv.v[i], "a thread name such as 'P0'");
                free(names);
                return -1;
            }
            t->th = xrealloc(t->th, (size_t)(t->nth + 1) * sizeof *t->th);
            memset(&t->th[t->nth], 0, sizeof *t->th);
            names = xrealloc(names, (size_t)(t->nth + 1) * sizeof *names);
            names[t->nth] = &p->tv.v[a];
            if (parse_placement(p, a, i, &t->th[t->nth])) { t->nth++; free(names); return -1; }
            for (int k = 0; k < t->nth; k++)
                if (!strcmp(t->th[k].name, t->th[t->nth].name)) {
                    errat(p, &p->tv.v[a], "found thread '%s' twice, expected distinct thread names",
                          t->th[k].name);
                    t->nth++; free(names); return -1;
                }
            t->nth++;
            a = i + 1;
        }
    }
    p->pos++;
    int bad_cluster = complete_clusters(p, (const token *const *)names);
    free(names);
    return bad_cluster ? -1 : 0;
}

/* Sets the register initialisers of the initial state, now that threads are known. */
static int init_registers(parser *p, const pending_reg *pend, int npend)
{
    lit_test *t = p->t;
    for (int k = 0; k < npend; k++) {
        char *tn = tokstr(pend[k].tt), *rn = tokstr(pend[k].rt);
        int ti = lit_find_thread(t, tn);
        if (ti < 0)
            errat(p, pend[k].tt, "found the thread '%s', expected one of the threads of the test",
                  tn);
        else {
            int r = lp_add_reg(&t->th[ti], rn);
            for (int i = 0; i < t->ninit_regs; i++)   /* the last value wins: say so */
                if (t->init_regs[2 * i] == ti && t->init_regs[2 * i + 1] == r) {
                    lp_warnat(p, pend[k].tt,
                              "found %s:%s initialised a second time (first at %d:%d), expected "
                              "each register initialised once (the last value is used)",
                              t->th[ti].name, rn, pend[i].tt->line, pend[i].tt->col);
                    break;
                }
            t->th[ti].reg_init[r] = pend[k].sym >= 0 ? lit_sym_addr(pend[k].sym) : pend[k].val;
            t->init_regs =
                xrealloc(t->init_regs, (size_t)(t->ninit_regs + 1) * 2 * sizeof *t->init_regs);
            t->init_regs[2 * t->ninit_regs] = ti;
            t->init_regs[2 * t->ninit_regs++ + 1] = r;
        }
        free(tn); free(rn);
        if (ti < 0) return -1;
    }
    return 0;
}

/* The instruction rows up to the condition, one cell per thread (labels go to L[thread]),
 * then the labels resolved and the program checked. */
static int parse_code(parser *p, labels *L)
{
    lit_test *t = p->t;
    while (!is_cond_start(p) && cur(p)->k != TK_EOF) {
        int a = p->pos, col = 0;
        while (!tok_punct(cur(p), ';') && cur(p)->k != TK_EOF &&
               !(is_cond_start(p) && cur(p)->line != p->tv.v[a].line))
            p->pos++;
        int end = p->pos;
        if (cur(p)->k == TK_EOF) {
            /* no ';' and no condition follows: most likely a misspelt quantifier */
            char found[96];
            tok_describe(&p->tv.v[a], found, sizeof found);
            errat(p, &p->tv.v[a],
                  "found %s at the start of a row without ';', expected an instruction row ending "
                  "in ';' or a condition: 'exists', '~exists' or 'forall'",
                  found);
            return -1;
        }
        for (int i = a; i <= end; i++) {
            if (i == end || tok_punct(&p->tv.v[i], '|')) {
                if (col >= t->nth) {
                    expect_fail(p, &p->tv.v[i == end ? a : i], "no more columns than threads");
                    return -1;
                }
                if (lp_parse_cell(p, &t->th[col], a, i, &L[col])) return -1;
                col++;
                a = i + 1;
            }
        }
        if (tok_punct(cur(p), ';')) p->pos++;
    }
    for (int k = 0; k < t->nth; k++)
        if (resolve_labels(p, &t->th[k], &L[k])) return -1;
    return lp_check_program(p) ? -1 : 0;
}

/* The optional `locations [...]` list: registers and locations listed with the outcomes. */
static int parse_locations(parser *p)
{
    lit_test *t = p->t;
    if (!tok_is(cur(p), "locations")) return 0;
    p->pos++;
    if (!tok_punct(cur(p), '[')) { expect_fail(p, cur(p), "'[' after 'locations'"); return -1; }
    p->pos++;
    while (!tok_punct(cur(p), ']')) {
        if (tok_punct(cur(p), ';')) { p->pos++; continue; }
        cond_ref r;
        if (cond_parse_ref(p->file, &p->tv, &p->pos, &r, p->err, p->errlen)) {
            p->failed = 1;
            return -1;
        }
        if (resolve_ref(p, &r, p->err, p->errlen)) { cond_ref_free(&r); p->failed = 1; return -1; }
        if (r.k == REF_CONST) {
            cond_ref_free(&r);
            errat(p, cur(p), "found a constant in 'locations', expected a register or location");
            return -1;
        }
        t->locations = xrealloc(t->locations, (size_t)(t->nlocations + 1) * sizeof *t->locations);
        t->locations[t->nlocations++] = r;
    }
    p->pos++;
    return 0;
}

/* A whole test: header, initial state, thread row, instruction rows, locations, condition. */
static int parse_test(parser *p)
{
    lit_test *t = p->t;
    if (parse_header(p)) return -1;
    pending_reg *pend = NULL;
    int npend = 0;
    if (parse_init(p, &pend, &npend) || parse_thread_row(p) || init_registers(p, pend, npend)) {
        free(pend);
        return -1;
    }
    free(pend);

    labels *L = xcalloc((size_t)t->nth, sizeof *L);
    int rc = 0;
    if (parse_code(p, L) || parse_locations(p) || parse_filter_and_condition(p)) rc = -1;
    for (int k = 0; k < t->nth; k++) {
        for (int j = 0; j < L[k].nlab; j++) free(L[k].labs[j]);
        free(L[k].labs);
        free(L[k].labat);
    }
    free(L);
    return rc;
}

lit_test *lp_parse_ptx(const char *file, const char *text, int max_depth, char *err,
                       size_t errlen)
{
    parser p = { .file = file, .text = text, .err = err, .errlen = errlen, .max_depth = max_depth };
    if (lex_all(file, text, &p.tv, err, errlen)) return NULL;
    p.t = xcalloc(1, sizeof *p.t);
    p.t->file = xstrndup(file, strlen(file));
    int rc = parse_test(&p);
    tokvec_free(&p.tv);
    if (rc || p.failed) { lit_free(p.t); return NULL; }
    return p.t;
}
