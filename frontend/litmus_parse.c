/* frontend/litmus_parse.c — parser for PTX litmus tests.
 *
 * Accepts the de facto format of the public suites (herd/Dat3M "PTX" tests) and real PTX
 * spelling inside the same columns:
 *   PTX NAME  "doc"*  { init; ... }  P0@cta 0,gpu 0 | P1@... ;  rows of cells ;  [locations [...]]
 *   exists|~exists|forall PROP
 * Each cell holds at most one instruction, optionally preceded by labels `L:` and a guard `@%p`.
 * The mnemonic is decoded here (qualifiers, scope, proxy, types); what ALU instructions compute
 * is decoded by exec/isa (isa_decode) so the executor and the checker share one definition. */
#include "frontend/litmus.h"
#include "frontend/lex.h"
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *file;
    const char *text;
    tokvec tv;
    int pos;
    lit_test *t;
    char *err;
    size_t errlen;
    int failed;
    int max_depth;           /* condition nesting limit */
} parser;

/* ---------- small utilities ---------- */

static char *xstrndup(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (!d) abort();
    memcpy(d, s, n);
    d[n] = 0;
    return d;
}

static void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q) abort();
    return q;
}

static void errat(parser *p, const token *t, const char *fmt, ...)
{
    if (p->failed) return;
    int o = snprintf(p->err, p->errlen, "%s:%d:%d: ", p->file, t->line, t->col);
    va_list ap;
    va_start(ap, fmt);
    if (o >= 0 && (size_t)o < p->errlen) vsnprintf(p->err + o, p->errlen - (size_t)o, fmt, ap);
    va_end(ap);
    p->failed = 1;
}

static void expect_fail(parser *p, const token *t, const char *expected)
{
    char found[96];
    tok_describe(t, found, sizeof found);
    errat(p, t, "found %s, expected %s", found, expected);
}

static const token *cur(parser *p) { return &p->tv.v[p->pos]; }
static const token *peek(parser *p, int k)
{
    int i = p->pos + k;
    return &p->tv.v[i < p->tv.n ? i : p->tv.n - 1];
}

static char *tokstr(const token *t) { return xstrndup(t->s, (size_t)t->len); }

static const char *strip_pct(const char *s) { return s[0] == '%' ? s + 1 : s; }

/* ---------- symbols, threads, registers ---------- */

int lit_find_sym(const lit_test *t, const char *name)
{
    for (int i = 0; i < t->nsym; i++)
        if (!strcmp(t->sym[i].name, name)) return i;
    return -1;
}

static int add_sym(lit_test *t, const char *name)
{
    int i = lit_find_sym(t, name);
    if (i >= 0) return i;
    t->sym = xrealloc(t->sym, (size_t)(t->nsym + 1) * sizeof *t->sym);
    lit_sym *s = &t->sym[t->nsym];
    memset(s, 0, sizeof *s);
    s->name = xstrndup(name, strlen(name));
    s->loc = t->nsym;
    s->vaddr = t->nsym;
    s->proxy = PROXY_GENERIC;
    return t->nsym++;
}

int lit_addr_sym(const lit_test *t, int64_t v)
{
    if (v < LIT_ADDR_BASE || (v - LIT_ADDR_BASE) % LIT_ADDR_STRIDE) return -1;
    int64_t s = (v - LIT_ADDR_BASE) / LIT_ADDR_STRIDE;
    return s < t->nsym ? (int)s : -1;
}

int lit_find_thread(const lit_test *t, const char *name)
{
    char buf[40];
    if (isdigit((unsigned char)name[0])) { snprintf(buf, sizeof buf, "P%s", name); name = buf; }
    for (int i = 0; i < t->nth; i++)
        if (!strcmp(t->th[i].name, name)) return i;
    return -1;
}

int lit_find_reg(const lit_thread *th, const char *name)
{
    name = strip_pct(name);
    for (int i = 0; i < th->nregs; i++)
        if (!strcmp(th->regs[i], name)) return i;
    return -1;
}

static int add_reg(lit_thread *th, const char *name)
{
    name = strip_pct(name);
    int i = lit_find_reg(th, name);
    if (i >= 0) return i;
    th->regs = xrealloc(th->regs, (size_t)(th->nregs + 1) * sizeof *th->regs);
    th->reg_init = xrealloc(th->reg_init, (size_t)(th->nregs + 1) * sizeof *th->reg_init);
    th->regs[th->nregs] = xstrndup(name, strlen(name));
    th->reg_init[th->nregs] = 0;
    return th->nregs++;
}

/* ---------- init block ---------- */

typedef struct { char tname[32]; char rname[32]; int64_t val; int sym; const token *at; } pending_reg;

static int parse_value(parser *p, int64_t *val, int *sym)
{
    const token *t = cur(p);
    *sym = -1;
    if (tok_punct(t, '-') && peek(p, 1)->k == TK_NUM) { *val = -peek(p, 1)->num; p->pos += 2; return 0; }
    if (t->k == TK_NUM) { *val = t->num; p->pos++; return 0; }
    if (t->k == TK_IDENT) {
        char *n = tokstr(t);
        *sym = add_sym(p->t, n);
        free(n);
        *val = 0;
        p->pos++;
        return 0;
    }
    expect_fail(p, t, "an integer or a location name");
    return -1;
}

static const char *const proxy_words[] = { "generic", "texture", "surface", "constant" };

static int parse_init(parser *p, pending_reg **pend, int *npend)
{
    if (!tok_punct(cur(p), '{')) { expect_fail(p, cur(p), "'{' opening the initial state"); return -1; }
    p->pos++;
    while (!tok_punct(cur(p), '}')) {
        const token *t = cur(p);
        if (tok_punct(t, ';')) { p->pos++; continue; }
        if (t->k == TK_EOF) { expect_fail(p, t, "'}' closing the initial state"); return -1; }
        /* optional C-like type word before a location: `int x = 0;`, `uint32_t x=0;` */
        if (t->k == TK_IDENT && peek(p, 1)->k == TK_IDENT && tok_punct(peek(p, 2), '=')) { p->pos++; t = cur(p); }
        if ((t->k == TK_IDENT || t->k == TK_NUM) && tok_punct(peek(p, 1), ':')) {
            /* P0:r0=0  |  0:r0=0 */
            const token *rt = peek(p, 2);
            if (rt->k != TK_IDENT) { p->pos += 2; expect_fail(p, rt, "a register name after ':'"); return -1; }
            pending_reg pr = { .at = t };
            if (t->k == TK_NUM) snprintf(pr.tname, sizeof pr.tname, "P%lld", (long long)t->num);
            else snprintf(pr.tname, sizeof pr.tname, "%.*s", t->len > 30 ? 30 : t->len, t->s);
            char rn[32];
            snprintf(rn, sizeof rn, "%.*s", rt->len > 30 ? 30 : rt->len, rt->s);
            snprintf(pr.rname, sizeof pr.rname, "%s", strip_pct(rn));
            p->pos += 3;
            if (!tok_punct(cur(p), '=')) { expect_fail(p, cur(p), "'=' after the register"); return -1; }
            p->pos++;
            if (parse_value(p, &pr.val, &pr.sym)) return -1;
            *pend = xrealloc(*pend, (size_t)(*npend + 1) * sizeof **pend);
            (*pend)[(*npend)++] = pr;
        } else if (t->k == TK_IDENT && tok_punct(peek(p, 1), '@')) {
            /* y @ generic aliases x */
            const token *kind = peek(p, 2), *al = peek(p, 3), *tgt = peek(p, 4);
            int pk = -1;
            for (int k = 0; k < PROXY_COUNT; k++)
                if (tok_is(kind, proxy_words[k])) pk = k;
            if (pk < 0) { p->pos += 2; expect_fail(p, kind, "a proxy kind: generic, texture, surface or constant"); return -1; }
            if (!tok_is(al, "aliases")) { p->pos += 3; expect_fail(p, al, "'aliases'"); return -1; }
            if (tgt->k != TK_IDENT) { p->pos += 4; expect_fail(p, tgt, "the name of the aliased location"); return -1; }
            char *n = tokstr(t), *tn = tokstr(tgt);
            int target = add_sym(p->t, tn);
            if (lit_find_sym(p->t, n) >= 0) {
                errat(p, t, "found a second declaration of '%s', expected each name declared once", n);
                free(n); free(tn);
                return -1;
            }
            int s = add_sym(p->t, n);
            lit_sym *ts = &p->t->sym[target];
            p->t->sym[s].loc = ts->loc;
            p->t->sym[s].proxy = (lit_proxy)pk;
            /* a generic alias is a new virtual address; a texture/surface/constant alias
               names the memory of the (virtual address of the) aliased symbol, §8.6 */
            p->t->sym[s].vaddr = pk == PROXY_GENERIC ? s : ts->vaddr;
            if (pk != PROXY_GENERIC || s != ts->vaddr) p->t->uses_proxies = 1;
            free(n); free(tn);
            p->pos += 5;
        } else if (t->k == TK_IDENT) {
            char *n = tokstr(t);
            int s = add_sym(p->t, n);
            free(n);
            p->pos++;
            if (tok_punct(cur(p), '=')) {
                p->pos++;
                int64_t v; int vs;
                if (parse_value(p, &v, &vs)) return -1;
                p->t->sym[p->t->sym[s].loc].init = vs >= 0 ? lit_sym_addr(vs) : v;
            }
        } else {
            expect_fail(p, t, "an initialisation such as 'x=0;', 'P0:r1=0;' or 'y @ generic aliases x;'");
            return -1;
        }
        if (!tok_punct(cur(p), ';') && !tok_punct(cur(p), '}')) { expect_fail(p, cur(p), "';' or '}'"); return -1; }
    }
    p->pos++;
    return 0;
}

/* ---------- placement row ---------- */

static int parse_placement(parser *p, int a, int b, lit_thread *th)
{
    const token *t = &p->tv.v[a];
    if (t->k != TK_IDENT || t->s[0] != 'P') { expect_fail(p, t, "a thread name such as 'P0'"); return -1; }
    th->name = tokstr(t);
    th->cta = 0; th->gpu = 0; th->has_cluster = 0;
    int i = a + 1;
    if (i < b && tok_punct(&p->tv.v[i], '@')) {
        i++;
        while (i < b) {
            const token *k = &p->tv.v[i], *v = &p->tv.v[i + 1 < b ? i + 1 : i];
            if (!(tok_is(k, "cta") || tok_is(k, "cluster") || tok_is(k, "gpu"))) { expect_fail(p, k, "'cta', 'cluster' or 'gpu'"); return -1; }
            if (i + 1 >= b || v->k != TK_NUM) { expect_fail(p, i + 1 < b ? v : &p->tv.v[b], "a number after the placement level"); return -1; }
            if (tok_is(k, "cta")) th->cta = (int)v->num;
            else if (tok_is(k, "gpu")) th->gpu = (int)v->num;
            else { th->cluster = (int)v->num; th->has_cluster = 1; p->t->uses_cluster = 1; }
            i += 2;
            if (i < b) {
                if (!tok_punct(&p->tv.v[i], ',')) { expect_fail(p, &p->tv.v[i], "',' between placement levels"); return -1; }
                i++;
            }
        }
    } else if (i < b) {
        expect_fail(p, &p->tv.v[i], "'@' and a placement such as 'cta 0,gpu 0'");
        return -1;
    }
    /* §8.5: a thread with no cluster is alone in its CTA's cluster */
    if (!th->has_cluster) th->cluster = -1 - th->cta;
    return 0;
}

/* ---------- instructions ---------- */

typedef struct { const char *w; int v; } word;
static const word sem_words[] = {
    { "weak", SEM_WEAK }, { "relaxed", SEM_RELAXED }, { "acquire", SEM_ACQUIRE },
    { "release", SEM_RELEASE }, { "acq_rel", SEM_ACQ_REL }, { NULL, 0 } };
static const word scope_words[] = {
    { "cta", SCOPE_CTA }, { "cluster", SCOPE_CLUSTER }, { "gpu", SCOPE_GPU }, { "sys", SCOPE_SYS }, { NULL, 0 } };
/* state spaces and cache/eviction hints: accepted and ignored by the memory model (§8.3) */
static const char *const ignored_words[] = {
    "global", "shared", "shared::cta", "shared::cluster", "local", "param", "generic", "ca", "cg", "cs",
    "lu", "cv", "wb", "wt", "aligned", "uni", "L1::evict_normal", "L1::evict_unchanged", "L1::evict_first",
    "L1::evict_last", "L1::no_allocate", "L2::evict_normal", "L2::evict_first", "L2::evict_last",
    "L2::64B", "L2::128B", "L2::256B", "L2::cache_hint", "level::eviction_priority", NULL };

static int lookup(const word *ws, const char *s)
{
    for (int i = 0; ws[i].w; i++)
        if (!strcmp(ws[i].w, s)) return ws[i].v;
    return -1;
}

static int is_ignored(const char *s)
{
    for (int i = 0; ignored_words[i]; i++)
        if (!strcmp(ignored_words[i], s)) return 1;
    return 0;
}

typedef struct { const char *name; lit_ikind k; lit_proxy proxy; } memop;
static const memop memops[] = {
    { "ld", LI_LD, PROXY_GENERIC },   { "st", LI_ST, PROXY_GENERIC },
    { "atom", LI_ATOM, PROXY_GENERIC }, { "red", LI_RED, PROXY_GENERIC },
    { "tld", LI_LD, PROXY_TEXTURE },  { "tld4", LI_LD, PROXY_TEXTURE }, { "tex", LI_LD, PROXY_TEXTURE },
    { "suld", LI_LD, PROXY_SURFACE }, { "sust", LI_ST, PROXY_SURFACE },
    { "suatom", LI_ATOM, PROXY_SURFACE }, { "sured", LI_RED, PROXY_SURFACE },
    { "cold", LI_LD, PROXY_CONSTANT }, { "ldu", LI_LD, PROXY_GENERIC },
    { NULL, 0, 0 } };

static const word branch_words[] = {
    { "beq", CMP_EQ }, { "bne", CMP_NE }, { "blt", CMP_LT }, { "bgt", CMP_GT }, { "ble", CMP_LE },
    { "bge", CMP_GE }, { NULL, 0 } };

/* Split "ld.global.relaxed.sys.u32" into parts; returns count. */
static int split_parts(const char *m, char parts[][40], int max)
{
    int n = 0;
    const char *s = m;
    while (*s && n < max) {
        const char *e = strchr(s + 1, '.');
        if (!e) e = s + strlen(s);
        size_t l = (size_t)(e - s);
        if (l > 39) l = 39;
        memcpy(parts[n], s, l);
        parts[n][l] = 0;
        n++;
        s = *e ? e + 1 : e;
    }
    return n;
}

typedef struct { parser *p; lit_thread *th; int a, b; int i; } cell;

static const token *ctok(cell *c) { return &c->p->tv.v[c->i < c->b ? c->i : c->b]; }
static const token *cend(cell *c) { return &c->p->tv.v[c->b]; }

/* address operand: [sym], [sym+off], [reg], sym, reg */
static int parse_addr(cell *c, lit_opnd *o)
{
    int bracket = 0;
    if (c->i < c->b && tok_punct(ctok(c), '[')) { bracket = 1; c->i++; }
    const token *t = ctok(c);
    if (c->i >= c->b || t->k != TK_IDENT) { expect_fail(c->p, c->i < c->b ? t : cend(c), "an address: a location name or a register"); return -1; }
    char *n = tokstr(t);
    const char *bare = strip_pct(n);
    int r = lit_find_reg(c->th, bare);
    int s = lit_find_sym(c->p->t, n);
    memset(o, 0, sizeof *o);
    if (r >= 0 && s < 0) { o->k = OPD_REG; o->reg = r; }
    else if (s >= 0) { o->k = OPD_SYM; o->sym = s; }
    else if (n[0] == '%') { o->k = OPD_REG; o->reg = add_reg(c->th, bare); }
    else { o->k = OPD_SYM; o->sym = add_sym(c->p->t, n); }
    free(n);
    c->i++;
    if (c->i < c->b && (tok_punct(ctok(c), '+') || tok_punct(ctok(c), '-'))) {
        int neg = tok_punct(ctok(c), '-');
        c->i++;
        if (c->i >= c->b || ctok(c)->k != TK_NUM) { expect_fail(c->p, c->i < c->b ? ctok(c) : cend(c), "an offset after '+'"); return -1; }
        o->off = neg ? -ctok(c)->num : ctok(c)->num;
        c->i++;
        if (o->off != 0) { errat(c->p, t, "found an address offset, expected a plain location (litmus locations are scalars)"); return -1; }
    }
    if (bracket) {
        if (c->i >= c->b || !tok_punct(ctok(c), ']')) { expect_fail(c->p, c->i < c->b ? ctok(c) : cend(c), "']'"); return -1; }
        c->i++;
    }
    return 0;
}

/* value operand: register, immediate, or a symbol's address */
static int parse_value_opnd(cell *c, lit_opnd *o, int dst)
{
    memset(o, 0, sizeof *o);
    const token *t = ctok(c);
    if (c->i >= c->b) { expect_fail(c->p, cend(c), dst ? "a destination register" : "an operand"); return -1; }
    if (!dst && tok_punct(t, '-') && c->i + 1 < c->b && c->p->tv.v[c->i + 1].k == TK_NUM) {
        o->k = OPD_IMM; o->imm = -c->p->tv.v[c->i + 1].num; c->i += 2; return 0;
    }
    if (!dst && t->k == TK_NUM) { o->k = OPD_IMM; o->imm = t->num; c->i++; return 0; }
    if (t->k == TK_IDENT) {
        char *n = tokstr(t);
        if (tok_is(t, "_")) { o->k = OPD_NONE; }   /* PTX sink register */
        else if (!dst && n[0] != '%' && lit_find_reg(c->th, n) < 0 && lit_find_sym(c->p->t, n) >= 0) {
            o->k = OPD_SYM; o->sym = lit_find_sym(c->p->t, n);
        } else { o->k = OPD_REG; o->reg = add_reg(c->th, n); }
        free(n);
        c->i++;
        return 0;
    }
    if (!dst && tok_punct(t, '[')) return parse_addr(c, o);
    expect_fail(c->p, t, dst ? "a destination register" : "a register, an integer or a location");
    return -1;
}

static int expect_comma(cell *c)
{
    if (c->i >= c->b || !tok_punct(ctok(c), ',')) { expect_fail(c->p, c->i < c->b ? ctok(c) : cend(c), "','"); return -1; }
    c->i++;
    return 0;
}

static int expect_end(cell *c, const char *what)
{
    if (c->i < c->b) {
        char e[96];
        snprintf(e, sizeof e, "the end of the %s instruction", what);
        expect_fail(c->p, ctok(c), e);
        return -1;
    }
    return 0;
}

static int parse_label_ref(cell *c, lit_insn *in)
{
    if (c->i >= c->b || ctok(c)->k != TK_IDENT) { expect_fail(c->p, c->i < c->b ? ctok(c) : cend(c), "a label"); return -1; }
    in->target_name = tokstr(ctok(c));
    c->i++;
    return 0;
}

static int parse_memop(cell *c, lit_insn *in, const memop *mo, char parts[][40], int np, const token *mt)
{
    parser *p = c->p;
    in->k = mo->k;
    in->proxy = mo->proxy;
    int sem = -1, scope = -1;
    for (int i = 1; i < np; i++) {
        const char *w = parts[i];
        int v;
        if ((v = lookup(sem_words, w)) >= 0) { if (sem >= 0) goto dup; sem = v; }
        else if ((v = lookup(scope_words, w)) >= 0) { if (scope >= 0) goto dup; scope = v; }
        else if (!strcmp(w, "volatile")) { if (sem >= 0) goto dup; in->volatile_ = 1; sem = SEM_RELAXED; scope = SCOPE_SYS; }
        else if (!strcmp(w, "mmio")) { if (sem >= 0 && sem != SEM_RELAXED) goto dup; sem = SEM_RELAXED; }
        else if (!strcmp(w, "const")) in->proxy = PROXY_CONSTANT;
        else if (!strcmp(w, "nc")) in->proxy = PROXY_TEXTURE;   /* §8.1: ld.global.nc is a texture access */
        else if ((in->k == LI_ATOM || in->k == LI_RED) && isa_atom_parse(w) != ISA_ATOM_NONE) {
            if (in->aop) goto dup;
            in->aop = isa_atom_parse(w);
        } else if (isa_type_parse(w) != ISA_T_NONE) in->type = isa_type_parse(w);
        else if (is_ignored(w)) continue;
        else if (!strncmp(w, "v", 1) && isdigit((unsigned char)w[1])) {
            errat(p, mt, "found the vector access '.%s', expected a scalar access (litmus locations are scalars, §8.2.4)", w);
            return -1;
        } else {
            errat(p, mt, "found the qualifier '.%s' in '%s', expected a semantics (.weak .relaxed .acquire .release .acq_rel .volatile), a scope (.cta .cluster .gpu .sys), a state space or a type", w, parts[0]);
            return -1;
        }
        continue;
    dup:
        errat(p, mt, "found a second semantics or scope qualifier '.%s', expected one of each", w);
        return -1;
    }
    int atomic = in->k == LI_ATOM || in->k == LI_RED;
    if (atomic && !in->aop) { errat(p, mt, "found '%s' without an operation, expected one of .add .sub .exch .cas .and .or .xor .min .max .inc .dec", parts[0]); return -1; }
    /* defaults: ld/st without a qualifier are weak; atom/red default to .relaxed (§9.7.12.5, §9.7.12.6),
       a strong operation without a scope has .gpu scope */
    if (sem < 0) sem = atomic ? SEM_RELAXED : SEM_WEAK;
    if (sem == SEM_WEAK) {
        if (atomic) { errat(p, mt, "found '.weak' on an atomic operation, expected .relaxed .acquire .release or .acq_rel"); return -1; }
        if (scope >= 0) { errat(p, mt, "found a scope on a weak operation, expected a scope only with .relaxed .acquire .release .acq_rel .volatile"); return -1; }
        scope = SCOPE_NONE;
    } else if (scope < 0) scope = SCOPE_GPU;
    if (in->k == LI_LD && (sem == SEM_RELEASE || sem == SEM_ACQ_REL)) { errat(p, mt, "found a release qualifier on a load, expected .weak .relaxed .acquire or .volatile"); return -1; }
    if (in->k == LI_ST && (sem == SEM_ACQUIRE || sem == SEM_ACQ_REL)) { errat(p, mt, "found an acquire qualifier on a store, expected .weak .relaxed .release or .volatile"); return -1; }
    in->sem = (lit_sem)sem;
    in->scope = (lit_scope)scope;
    if (in->proxy != PROXY_GENERIC) p->t->uses_proxies = 1;
    if (in->scope == SCOPE_CLUSTER) p->t->uses_cluster = 1;

    switch (in->k) {
    case LI_LD:
        in->ndst = 1;
        if (parse_value_opnd(c, &in->dst[0], 1) || expect_comma(c) || parse_addr(c, &in->addr)) return -1;
        return expect_end(c, "load");
    case LI_ST:
        in->nsrc = 1;
        if (parse_addr(c, &in->addr) || expect_comma(c) || parse_value_opnd(c, &in->src[0], 0)) return -1;
        return expect_end(c, "store");
    case LI_ATOM:
        in->ndst = 1;
        if (parse_value_opnd(c, &in->dst[0], 1) || expect_comma(c) || parse_addr(c, &in->addr)) return -1;
        /* fallthrough to operands */
        in->nsrc = in->aop == ISA_ATOM_CAS ? 2 : (in->aop == ISA_ATOM_INC || in->aop == ISA_ATOM_DEC) && !(c->i < c->b) ? 0 : 1;
        break;
    default: /* LI_RED */
        if (parse_addr(c, &in->addr)) return -1;
        in->nsrc = 1;
        break;
    }
    for (int k = 0; k < in->nsrc; k++)
        if (expect_comma(c) || parse_value_opnd(c, &in->src[k], 0)) return -1;
    if (in->nsrc == 0) { in->nsrc = 1; in->src[0].k = OPD_IMM; in->src[0].imm = -1; }   /* inc/dec without bound: wrap at max */
    return expect_end(c, in->k == LI_ATOM ? "atom" : "red");
}

static int parse_fence(cell *c, lit_insn *in, char parts[][40], int np, const token *mt)
{
    parser *p = c->p;
    in->k = LI_FENCE;
    if (!strcmp(parts[0], "membar")) {
        /* §9.7.12.4: membar.{cta,gl,sys} is a synonym of fence.sc.{cta,gpu,sys} */
        in->fence = FENCE_SC; in->sem = SEM_SC;
        if (np == 2 && !strcmp(parts[1], "cta")) in->scope = SCOPE_CTA;
        else if (np == 2 && !strcmp(parts[1], "gl")) in->scope = SCOPE_GPU;
        else if (np == 2 && !strcmp(parts[1], "sys")) in->scope = SCOPE_SYS;
        else { errat(p, mt, "found '%s', expected membar.cta, membar.gl or membar.sys", in->text); return -1; }
        return expect_end(c, "membar");
    }
    if (np >= 2 && !strcmp(parts[1], "proxy")) {
        static const word kinds[] = { { "alias", FENCE_PROXY_ALIAS }, { "texture", FENCE_PROXY_TEXTURE },
            { "surface", FENCE_PROXY_SURFACE }, { "constant", FENCE_PROXY_CONSTANT }, { NULL, 0 } };
        int k = np == 3 ? lookup(kinds, parts[2]) : -1;
        if (k < 0) { errat(p, mt, "found '%s', expected fence.proxy.alias, .texture, .surface or .constant", in->text); return -1; }
        in->fence = (lit_fence)k;
        in->sem = SEM_WEAK;
        in->scope = SCOPE_NONE;
        p->t->uses_proxies = 1;
        return expect_end(c, "fence.proxy");
    }
    int sem = -1, scope = -1;
    for (int i = 1; i < np; i++) {
        int v;
        if (!strcmp(parts[i], "sc")) { if (sem >= 0) goto bad; sem = SEM_SC; }
        else if (!strcmp(parts[i], "acq_rel")) { if (sem >= 0) goto bad; sem = SEM_ACQ_REL; }
        else if ((v = lookup(scope_words, parts[i])) >= 0) { if (scope >= 0) goto bad; scope = v; }
        else goto bad;
    }
    if (scope < 0) { errat(p, mt, "found '%s' without a scope, expected fence{.sc,.acq_rel}.{cta,cluster,gpu,sys}", in->text); return -1; }
    /* §9.7.12.4: fence without .sem means fence.acq_rel */
    in->sem = sem < 0 ? SEM_ACQ_REL : (lit_sem)sem;
    in->fence = in->sem == SEM_SC ? FENCE_SC : FENCE_ACQ_REL;
    in->scope = (lit_scope)scope;
    if (scope == SCOPE_CLUSTER) p->t->uses_cluster = 1;
    return expect_end(c, "fence");
bad:
    errat(p, mt, "found '%s', expected fence{.sc,.acq_rel}.scope or fence.proxy.kind", in->text);
    return -1;
}

static int parse_bar(cell *c, lit_insn *in, char parts[][40], int np, const token *mt)
{
    parser *p = c->p;
    in->k = LI_BAR;
    int kind = -1;
    for (int i = 1; i < np; i++) {
        if (!strcmp(parts[i], "cta") || !strcmp(parts[i], "aligned")) continue;
        if (!strcmp(parts[i], "sync") && kind < 0) kind = BAR_SYNC;
        else if (!strcmp(parts[i], "arrive") && kind < 0) kind = BAR_ARRIVE;
        else { errat(p, mt, "found '%s', expected bar{.cta}.sync or bar{.cta}.arrive (bar.red and bar.warp are not litmus operations)", in->text); return -1; }
    }
    if (kind < 0) { errat(p, mt, "found '%s', expected bar{.cta}.sync or bar{.cta}.arrive", in->text); return -1; }
    in->bar = (lit_bar)kind;
    /* bar a{, b}: a = barrier id, b = thread count (§9.7.12.1) */
    if (parse_value_opnd(c, &in->src[0], 0)) return -1;
    in->nsrc = 1;
    if (c->i < c->b) {
        if (expect_comma(c) || parse_value_opnd(c, &in->src[1], 0)) return -1;
        in->nsrc = 2;
    }
    return expect_end(c, "barrier");
}

static int parse_insn(cell *c, lit_insn *in)
{
    parser *p = c->p;
    const token *mt = ctok(c);
    if (mt->k != TK_IDENT) { expect_fail(p, mt, "an instruction mnemonic"); return -1; }
    char mn[128];
    snprintf(mn, sizeof mn, "%.*s", mt->len > 127 ? 127 : mt->len, mt->s);
    c->i++;
    char parts[16][40];
    int np = split_parts(mn, parts, 16);
    for (const memop *mo = memops; mo->name; mo++)
        if (!strcmp(parts[0], mo->name)) return parse_memop(c, in, mo, parts, np, mt);
    if (!strcmp(parts[0], "fence") || !strcmp(parts[0], "membar")) return parse_fence(c, in, parts, np, mt);
    if (!strcmp(parts[0], "bar") || !strcmp(parts[0], "barrier")) return parse_bar(c, in, parts, np, mt);
    int cmp = lookup(branch_words, parts[0]);
    if (cmp >= 0 && np == 1) {
        in->k = LI_BRANCH; in->cmp = (lit_cmp)cmp; in->nsrc = 2;
        if (parse_value_opnd(c, &in->src[0], 0) || expect_comma(c) || parse_value_opnd(c, &in->src[1], 0) ||
            expect_comma(c) || parse_label_ref(c, in)) return -1;
        return expect_end(c, "branch");
    }
    if (!strcmp(parts[0], "goto") || !strcmp(parts[0], "bra")) {
        in->k = LI_GOTO;
        if (parse_label_ref(c, in)) return -1;
        return expect_end(c, "branch");
    }
    if ((!strcmp(parts[0], "ret") || !strcmp(parts[0], "exit")) && np == 1) {
        in->k = LI_GOTO; in->target_name = xstrndup("$end", 4);
        return expect_end(c, parts[0]);
    }
    /* everything else: a register computation with the executor's semantics */
    char ierr[160];
    if (isa_decode(mn, ISA_T_S64, &in->alu, ierr, sizeof ierr) || isa_class(&in->alu) != ISA_CLASS_PURE) {
        errat(p, mt, "found the instruction '%s', expected a litmus instruction (ld st atom red fence membar bar branch) or a register computation%s%s",
              mn, isa_class(&in->alu) == ISA_CLASS_PURE ? ": " : "", isa_class(&in->alu) == ISA_CLASS_PURE ? ierr : "");
        return -1;
    }
    in->k = LI_ALU;
    in->ndst = isa_ndst(&in->alu);
    in->nsrc = isa_nsrc(&in->alu);
    if (in->ndst > 2 || in->nsrc > 4) { errat(p, mt, "found '%s', expected at most 2 destinations and 4 sources", mn); return -1; }
    for (int k = 0; k < in->ndst; k++) {
        if (k && expect_comma(c)) return -1;
        if (parse_value_opnd(c, &in->dst[k], 1)) return -1;
    }
    for (int k = 0; k < in->nsrc; k++)
        if (expect_comma(c) || parse_value_opnd(c, &in->src[k], 0)) return -1;
    return expect_end(c, parts[0]);
}

static void add_label(lit_thread *th, int at, const char *name, int *nlab, char ***labs, int **labat)
{
    *labs = xrealloc(*labs, (size_t)(*nlab + 1) * sizeof **labs);
    *labat = xrealloc(*labat, (size_t)(*nlab + 1) * sizeof **labat);
    (*labs)[*nlab] = xstrndup(name, strlen(name));
    (*labat)[*nlab] = at;
    (*nlab)++;
    (void)th;
}

typedef struct { int nlab; char **labs; int *labat; } labels;

static int parse_cell(parser *p, lit_thread *th, int a, int b, labels *L)
{
    cell c = { p, th, a, b, a };
    /* labels */
    while (c.i + 1 <= b - 1 && p->tv.v[c.i].k == TK_IDENT && tok_punct(&p->tv.v[c.i + 1], ':')) {
        char *n = tokstr(&p->tv.v[c.i]);
        for (int k = 0; k < L->nlab; k++)
            if (!strcmp(L->labs[k], n)) { errat(p, &p->tv.v[c.i], "found a second definition of label '%s', expected each label defined once per thread", n); free(n); return -1; }
        add_label(th, th->nins, n, &L->nlab, &L->labs, &L->labat);
        free(n);
        c.i += 2;
    }
    if (c.i >= b) return 0;
    th->ins = xrealloc(th->ins, (size_t)(th->nins + 1) * sizeof *th->ins);
    lit_insn *in = &th->ins[th->nins];
    memset(in, 0, sizeof *in);
    in->guard = -1;
    in->line = p->tv.v[c.i].line;
    in->col = p->tv.v[c.i].col;
    /* normalised text of the instruction */
    {
        const token *f = &p->tv.v[c.i], *l = &p->tv.v[b - 1];
        size_t n = (size_t)(l->s + l->len - f->s);
        char *raw = xstrndup(f->s, n), *o = raw;
        int sp = 0;
        for (char *s = raw; *s; s++) {
            if (isspace((unsigned char)*s)) { sp = 1; continue; }
            if (sp && o != raw) *o++ = ' ';
            sp = 0;
            *o++ = *s;
        }
        *o = 0;
        in->text = raw;
    }
    if (tok_punct(&p->tv.v[c.i], '@')) {
        c.i++;
        if (c.i < b && tok_punct(&p->tv.v[c.i], '!')) { in->guard_neg = 1; c.i++; }
        if (c.i >= b || p->tv.v[c.i].k != TK_IDENT || memchr(p->tv.v[c.i].s, '.', (size_t)p->tv.v[c.i].len)) { expect_fail(p, c.i < b ? &p->tv.v[c.i] : &p->tv.v[b], "a predicate register after '@'"); th->nins++; return -1; }   /* nins++: lit_free frees in->text */
        char *n = tokstr(&p->tv.v[c.i]);
        in->guard = add_reg(th, n);
        free(n);
        c.i++;
    }
    if (parse_insn(&c, in)) { th->nins++; return -1; }
    th->nins++;
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
            errat(p, &t, "found a branch to '%s', expected a label defined in thread %s", in->target_name, th->name);
            return -1;
        }
        in->target = found;
    }
    th->labels = calloc((size_t)th->nins + 1, sizeof *th->labels);
    for (int k = 0; k < L->nlab; k++)
        if (!th->labels[L->labat[k]]) th->labels[L->labat[k]] = xstrndup(L->labs[k], strlen(L->labs[k]));
    return 0;
}

/* ---------- condition references ---------- */

static int resolve_ref(void *ctx, cond_ref *r, char *err, size_t errlen)
{
    parser *p = ctx;
    if (r->k == REF_REG) {
        int t = lit_find_thread(p->t, r->tname);
        if (t < 0) {
            snprintf(err, errlen, "%s:%d:%d: found the thread '%s', expected one of P0..P%d", p->file, r->line, r->col, r->tname, p->t->nth - 1);
            return -1;
        }
        r->thread = t;
        r->reg = add_reg(&p->t->th[t], r->rname);
        snprintf(r->name, sizeof r->name, "%s:%s", p->t->th[t].name, strip_pct(r->rname));
    } else if (r->k == REF_LOC) {
        int s = lit_find_sym(p->t, r->rname);
        if (s < 0) {
            snprintf(err, errlen, "%s:%d:%d: found '%s', expected a location of the test or a register written P0:r1", p->file, r->line, r->col, r->rname);
            return -1;
        }
        r->sym = s;
    }
    return 0;
}

static int is_cond_start(parser *p)
{
    const token *t = cur(p);
    return tok_is(t, "exists") || tok_is(t, "forall") || tok_is(t, "locations") ||
           (tok_punct(t, '~') && tok_is(peek(p, 1), "exists"));
}

/* ---------- top level ---------- */

static int parse_test(parser *p)
{
    lit_test *t = p->t;
    const token *h = cur(p);
    if (!(h->k == TK_IDENT && (tok_is(h, "PTX") || tok_is(h, "ptx")))) { expect_fail(p, h, "'PTX' followed by the test name"); return -1; }
    p->pos++;
    const token *f = cur(p);
    if (f->line != h->line || f->k == TK_EOF || f->k == TK_STR || tok_punct(f, '{')) { expect_fail(p, f, "the test name on the same line as 'PTX'"); return -1; }
    const token *l = f;
    while (cur(p)->line == h->line && cur(p)->k != TK_EOF && cur(p)->k != TK_STR && !tok_punct(cur(p), '{')) { l = cur(p); p->pos++; }
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
    pending_reg *pend = NULL;
    int npend = 0;
    if (parse_init(p, &pend, &npend)) { free(pend); return -1; }

    /* placement row */
    int row_start = p->pos;
    while (!tok_punct(cur(p), ';') && cur(p)->k != TK_EOF) p->pos++;
    if (cur(p)->k == TK_EOF) { free(pend); expect_fail(p, cur(p), "the thread row 'P0@cta 0,gpu 0 | ... ;'"); return -1; }
    {
        int a = row_start;
        for (int i = row_start; i <= p->pos; i++) {
            if (i == p->pos || tok_punct(&p->tv.v[i], '|')) {
                if (i == a) { expect_fail(p, &p->tv.v[i], "a thread name such as 'P0'"); free(pend); return -1; }
                t->th = xrealloc(t->th, (size_t)(t->nth + 1) * sizeof *t->th);
                memset(&t->th[t->nth], 0, sizeof *t->th);
                if (parse_placement(p, a, i, &t->th[t->nth])) { t->nth++; free(pend); return -1; }
                for (int k = 0; k < t->nth; k++)
                    if (!strcmp(t->th[k].name, t->th[t->nth].name)) {
                        errat(p, &p->tv.v[a], "found thread '%s' twice, expected distinct thread names", t->th[k].name);
                        t->nth++; free(pend); return -1;
                    }
                t->nth++;
                a = i + 1;
            }
        }
        p->pos++;
    }
    /* register initialisers, now that threads are known */
    for (int k = 0; k < npend; k++) {
        int ti = lit_find_thread(t, pend[k].tname);
        if (ti < 0) { errat(p, pend[k].at, "found the thread '%s', expected one of the threads of the test", pend[k].tname); free(pend); return -1; }
        int r = add_reg(&t->th[ti], pend[k].rname);
        t->th[ti].reg_init[r] = pend[k].sym >= 0 ? lit_sym_addr(pend[k].sym) : pend[k].val;
    }
    free(pend);

    /* instruction rows */
    labels *L = calloc((size_t)t->nth, sizeof *L);
    int rc = 0;
    while (!is_cond_start(p) && cur(p)->k != TK_EOF) {
        int a = p->pos, col = 0;
        while (!tok_punct(cur(p), ';') && cur(p)->k != TK_EOF && !(is_cond_start(p) && cur(p)->line != p->tv.v[a].line)) p->pos++;
        int end = p->pos;
        if (cur(p)->k == TK_EOF) {
            /* no ';' and no condition follows: most likely a misspelt quantifier */
            char found[96];
            tok_describe(&p->tv.v[a], found, sizeof found);
            errat(p, &p->tv.v[a], "found %s at the start of a row without ';', expected an instruction row ending in ';' or a condition: 'exists', '~exists' or 'forall'", found);
            rc = -1; goto done;
        }
        for (int i = a; i <= end; i++) {
            if (i == end || tok_punct(&p->tv.v[i], '|')) {
                if (col >= t->nth) { expect_fail(p, &p->tv.v[i == end ? a : i], "no more columns than threads"); rc = -1; goto done; }
                if (parse_cell(p, &t->th[col], a, i, &L[col])) { rc = -1; goto done; }
                col++;
                a = i + 1;
            }
        }
        if (tok_punct(cur(p), ';')) p->pos++;
    }
    for (int k = 0; k < t->nth; k++)
        if (resolve_labels(p, &t->th[k], &L[k])) { rc = -1; goto done; }

    /* locations [...] and the condition */
    if (tok_is(cur(p), "locations")) {
        p->pos++;
        if (!tok_punct(cur(p), '[')) { expect_fail(p, cur(p), "'[' after 'locations'"); rc = -1; goto done; }
        p->pos++;
        while (!tok_punct(cur(p), ']')) {
            if (tok_punct(cur(p), ';')) { p->pos++; continue; }
            cond_ref r;
            if (cond_parse_ref(p->file, &p->tv, &p->pos, &r, p->err, p->errlen) || resolve_ref(p, &r, p->err, p->errlen)) { p->failed = 1; rc = -1; goto done; }
            if (r.k == REF_CONST) { errat(p, cur(p), "found a constant in 'locations', expected a register or location"); rc = -1; goto done; }
            t->locations = xrealloc(t->locations, (size_t)(t->nlocations + 1) * sizeof *t->locations);
            t->locations[t->nlocations++] = r;
        }
        p->pos++;
    }
    if (tok_is(cur(p), "exists")) { t->quant = COND_EXISTS; p->pos++; }
    else if (tok_is(cur(p), "forall")) { t->quant = COND_FORALL; p->pos++; }
    else if (tok_punct(cur(p), '~') && tok_is(peek(p, 1), "exists")) { t->quant = COND_NOT_EXISTS; p->pos += 2; }
    else { expect_fail(p, cur(p), "a condition: 'exists', '~exists' or 'forall'"); rc = -1; goto done; }
    t->cond = cond_parse(p->file, &p->tv, &p->pos, resolve_ref, p, p->max_depth, p->err, p->errlen);
    if (!t->cond) { p->failed = 1; rc = -1; goto done; }
    if (cur(p)->k != TK_EOF) { expect_fail(p, cur(p), "the end of the test after the condition"); rc = -1; goto done; }
done:
    for (int k = 0; k < t->nth; k++) {
        for (int j = 0; j < L[k].nlab; j++) free(L[k].labs[j]);
        free(L[k].labs);
        free(L[k].labat);
    }
    free(L);
    return rc;
}

lit_test *lit_parse(const char *file, const char *text, char *err, size_t errlen)
{
    return lit_parse_ex(file, text, COND_MAX_DEPTH, err, errlen);
}

lit_test *lit_parse_ex(const char *file, const char *text, int max_depth, char *err, size_t errlen)
{
    parser p = { .file = file, .text = text, .err = err, .errlen = errlen, .max_depth = max_depth };
    if (lex_all(file, text, &p.tv, err, errlen)) return NULL;
    p.t = calloc(1, sizeof *p.t);
    p.t->file = xstrndup(file, strlen(file));
    int rc = parse_test(&p);
    tokvec_free(&p.tv);
    if (rc || p.failed) { lit_free(p.t); return NULL; }
    return p.t;
}

lit_test *lit_parse_file(const char *path, char *err, size_t errlen)
{
    return lit_parse_file_ex(path, COND_MAX_DEPTH, err, errlen);
}

lit_test *lit_parse_file_ex(const char *path, int max_depth, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) { snprintf(err, errlen, "%s:1:1: found no readable file, expected a litmus test", path); return NULL; }
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    for (;;) {
        if (n + 1 >= cap) buf = xrealloc(buf, cap *= 2);
        size_t r = fread(buf + n, 1, cap - n - 1, f);
        if (!r) break;
        n += r;
    }
    fclose(f);
    buf[n] = 0;
    if (strlen(buf) != n) { snprintf(err, errlen, "%s:1:1: found a NUL byte, expected a text file", path); free(buf); return NULL; }
    lit_test *t = lit_parse_ex(path, buf, max_depth, err, errlen);
    free(buf);
    return t;
}

void lit_free(lit_test *t)
{
    if (!t) return;
    for (int i = 0; i < t->nth; i++) {
        lit_thread *th = &t->th[i];
        for (int k = 0; k < th->nins; k++) { free(th->ins[k].text); free(th->ins[k].target_name); }
        if (th->labels) for (int k = 0; k <= th->nins; k++) free(th->labels[k]);
        free(th->labels);
        free(th->ins);
        for (int k = 0; k < th->nregs; k++) free(th->regs[k]);
        free(th->regs);
        free(th->reg_init);
        free(th->name);
    }
    free(t->th);
    for (int i = 0; i < t->nsym; i++) free(t->sym[i].name);
    free(t->sym);
    cond_free(t->cond);
    free(t->locations);
    free(t->file);
    free(t->name);
    free(t->doc);
    free(t);
}
