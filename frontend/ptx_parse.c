/* frontend/ptx_parse.c — recursive-descent parser for PTX modules (ISA 8.4 §4 syntax, §5 state
 * spaces and variables, §7 functions/.param/.callprototype, §11 directives, §9.7 instruction
 * statements: `@{!}p opcode d, a, b;`).  Directives that do not affect execution (.file
 * .section .pragma perf-tuning) are accepted; .loc is kept for source lines in fault reports. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/diag.h"
#include "frontend/ptx_lex.h"
#include "frontend/ptx_parse.h"

typedef struct chunk { struct chunk *next; size_t used, cap; char data[]; } chunk;

void *ptx_arena_alloc(ptx_module *m, size_t n)
{
    n = (n + 15) & ~(size_t)15;
    chunk *c = m->arena;
    if (!c || c->used + n > c->cap) {
        size_t cap = n > 65536 ? n : 65536;
        chunk *nc = calloc(1, sizeof *nc + cap);
        if (!nc) { fprintf(stderr, "ptx: out of memory\n"); abort(); }
        nc->cap = cap; nc->next = c; m->arena = c = nc;
    }
    void *p = c->data + c->used;
    c->used += n;
    return p;
}

const char *ptx_arena_strdup(ptx_module *m, const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = ptx_arena_alloc(m, n);
    memcpy(p, s, n);
    return p;
}

void ptx_module_free(ptx_module *m)
{
    if (!m) return;
    for (chunk *c = m->arena, *n; c; c = n) { n = c->next; free(c); }
    free(m);
}

typedef struct {
    ptx_module *m;
    ptx_toks tk;
    size_t i;
    const char *fname;
    char *err; size_t errlen;
    int failed;
    int loc_file, loc_line;
    const char *src;
    int fcap;
} P;

/* growable arrays in the arena: we over-allocate by doubling and copying */
#define GROW(p, arr, n, cap) do { \
        if ((n) == (cap)) { \
            int nc_ = (cap) ? (cap) * 2 : 8; \
            void *na_ = ptx_arena_alloc((p)->m, (size_t)nc_ * sizeof *(arr)); \
            if (n) memcpy(na_, (arr), (size_t)(n) * sizeof *(arr)); \
            (arr) = na_; (cap) = nc_; \
        } \
    } while (0)

/* the current token; an index that went past the end stays on the final EOF token */
static const ptx_tok *cur(P *p) { return &p->tk.t[p->i < p->tk.n ? p->i : p->tk.n - 1]; }
static const ptx_tok *peek(P *p, int k)
{
    size_t j = p->i + k;
    return j < p->tk.n ? &p->tk.t[j] : &p->tk.t[p->tk.n - 1];
}

static int fail(P *p, const ptx_tok *t, const char *fmt, ...)
{
    if (p->failed) return -1;
    p->failed = 1;
    char msg[400], found[300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(found, sizeof found, "'%s'", t->kind == PTK_EOF ? "end of file" : t->text);
    diag_found(p->err, p->errlen, p->fname, t->line, t->col, found, msg);
    return -1;
}

static int is_punct(const ptx_tok *t, char c) { return t->kind == PTK_PUNCT && t->c == c; }
static int is_word(const ptx_tok *t, const char *w)
{
    return t->kind == PTK_WORD && !strcmp(t->text, w);
}
static int accept(P *p, char c) { if (is_punct(cur(p), c)) { p->i++; return 1; } return 0; }
static int expect(P *p, char c, const char *what)
{
    if (accept(p, c)) return 0;
    return fail(p, cur(p), "%s", what);
}

static ptx_space space_of(const char *w)
{
    static const struct { const char *n; ptx_space s;
    } t[] = { { ".reg", PTX_SP_REG },       { ".sreg", PTX_SP_SREG },   { ".const", PTX_SP_CONST },
              { ".global", PTX_SP_GLOBAL }, { ".local", PTX_SP_LOCAL }, { ".param", PTX_SP_PARAM },
              { ".shared", PTX_SP_SHARED }, { ".tex", PTX_SP_TEX } };
    for (size_t k = 0; k < sizeof t / sizeof t[0]; k++) if (!strcmp(w, t[k].n)) return t[k].s;
    return PTX_SP_NONE;
}

static int is_type_word(const char *w)
{
    static const char *const ty[] = { ".b8",      ".b16",    ".b32",    ".b64",    ".b128",
                                      ".u8",      ".u16",    ".u32",    ".u64",    ".s8",
                                      ".s16",     ".s32",    ".s64",    ".f16",    ".f16x2",
                                      ".bf16",    ".bf16x2", ".tf32",   ".f32",    ".f64",
                                      ".pred",    ".e4m3x2", ".e5m2x2", ".texref", ".samplerref",
                                      ".surfref", NULL };
    for (int k = 0; ty[k]; k++) if (!strcmp(w, ty[k])) return 1;
    return 0;
}

/* skip the rest of the current source line (for .loc/.file/.version ... which end at newline) */
static void skip_line(P *p, int line)
{
    while (cur(p)->kind != PTK_EOF && cur(p)->line == line) p->i++;
}

static int parse_int(P *p, int64_t *v)
{
    int neg = accept(p, '-');
    const ptx_tok *t = cur(p);
    if (t->kind != PTK_INT) return fail(p, t, "an integer constant");
    p->i++;
    *v = (int64_t)(neg ? 0 - t->u : t->u);   /* (unsigned: -2^63 negates to itself) */
    return 0;
}

/* initialiser scalar: number, symbol[+off], generic(symbol)[+off] (§5.4.4) */
static int parse_init_value(P *p, ptx_var *v, int *cap)
{
    GROW(p, v->init, v->ninit, *cap);
    struct ptx_init *in = &v->init[v->ninit];
    memset(in, 0, sizeof *in);
    int neg = accept(p, '-');
    const ptx_tok *t = cur(p);
    if (t->kind == PTK_INT) { in->kind = 0; in->u = neg ? 0 - t->u : t->u; p->i++; }
    else if (t->kind == PTK_FLT) { in->kind = 1; in->d = neg ? -t->d : t->d; p->i++; }
    else if (t->kind == PTK_F32) { in->kind = 2; in->u = t->u ^ (neg ? 0x80000000u : 0); p->i++;
    } else if (t->kind == PTK_F64) {
        in->kind = 3;
        in->u = t->u ^ (neg ? 0x8000000000000000ull : 0);
        p->i++;
    } else if (t->kind == PTK_WORD && !neg) {
        in->kind = 4;
        if (!strcmp(t->text, "generic") && is_punct(peek(p, 1), '(')) {
            p->i += 2;
            if (cur(p)->kind != PTK_WORD) return fail(p, cur(p), "a symbol name in generic()");
            in->sym = ptx_arena_strdup(p->m, cur(p)->text); p->i++;
            if (expect(p, ')', "')'")) return -1;
        } else { in->sym = ptx_arena_strdup(p->m, t->text); p->i++; }
        if (is_punct(cur(p), '+') || is_punct(cur(p), '-')) {
            int s = cur(p)->c == '-'; p->i++;
            int64_t o; if (parse_int(p, &o)) return -1;
            in->off = s ? -o : o;
        }
    } else return fail(p, t, "an initialiser value");
    v->ninit++;
    return 0;
}

static int parse_init_list(P *p, ptx_var *v, int *cap)
{
    if (accept(p, '{')) {
        if (accept(p, '}')) return 0;
        do { if (parse_init_list(p, v, cap)) return -1; } while (accept(p, ','));
        return expect(p, '}', "'}' or ',' in an initialiser list");
    }
    return parse_init_value(p, v, cap);
}

/* Variable declaration after the state space: {.align N | .vN | .ptr | .space | type} name
 * [<N>] {[dim]} [= init].  Fills v (name and the rest).  Multiple names: caller loops on ','. */
static int parse_var_attrs(P *p, ptx_var *v)
{
    for (;;) {
        const ptx_tok *t = cur(p);
        if (t->kind != PTK_WORD || t->text[0] != '.') break;
        if (!strcmp(t->text, ".align")) {
            p->i++;
            int64_t a;
            if (parse_int(p, &a)) return -1;
            v->align = (int)a;
        } else if (!strcmp(t->text, ".v2")) {
            v->vec = 2;
            p->i++;
        } else if (!strcmp(t->text, ".v4")) {
            v->vec = 4;
            p->i++;
        } else if (!strcmp(t->text, ".v8")) {
            v->vec = 8;
            p->i++;
        } else if (!strcmp(t->text, ".ptr")) {
            v->is_ptr = 1;
            p->i++;
        } else if (space_of(t->text) != PTX_SP_NONE && v->space == PTX_SP_PARAM)
            p->i++; /* .ptr.global */
        else if (is_type_word(t->text)) { v->type = ptx_arena_strdup(p->m, t->text + 1); p->i++; }
        else if (!strcmp(t->text, ".attribute")) {   /* .attribute(.managed) */
            p->i++; if (expect(p, '(', "'('")) return -1;
            while (cur(p)->kind != PTK_EOF && !is_punct(cur(p), ')')) p->i++;
            if (expect(p, ')', "')'")) return -1;
        } else break;
    }
    if (!v->type) return fail(p, cur(p), "a type (.b32, .u64, .f32, ...) in the declaration");
    return 0;
}

static int parse_var_name(P *p, ptx_var *v)
{
    const ptx_tok *t = cur(p);
    if (t->kind != PTK_WORD || t->text[0] == '.') return fail(p, t, "a variable name");
    v->name = ptx_arena_strdup(p->m, t->text);
    v->pos = (ptx_pos){ t->line, t->col };
    p->i++;
    if (accept(p, '<')) {
        int64_t n; if (parse_int(p, &n)) return -1;
        if (n < 0 || n > 1000000)
            return fail(p, &p->tk.t[p->i - 1], "a register count between 0 and 1000000");
        v->nrange = (int)n;
        if (expect(p, '>', "'>'")) return -1;
    }
    v->ndims = 0;
    while (accept(p, '[')) {
        if (v->ndims == 4) return fail(p, cur(p), "at most 4 array dimensions");
        if (accept(p, ']')) { v->dims[v->ndims++] = -1; continue; }
        int64_t n; if (parse_int(p, &n)) return -1;
        v->dims[v->ndims++] = n;
        if (expect(p, ']', "']'")) return -1;
    }
    v->ninit = 0; v->init = NULL;
    if (accept(p, '=')) { int cap = 0; if (parse_init_list(p, v, &cap)) return -1; }
    return 0;
}

/* parameter list "( .param .u64 a, .reg .b32 b, ... )" */
static int parse_params(P *p, ptx_var **out, int *n)
{
    int cap = 0; *out = NULL; *n = 0;
    if (expect(p, '(', "'('")) return -1;
    if (accept(p, ')')) return 0;
    do {
        const ptx_tok *t = cur(p);
        ptx_space sp = t->kind == PTK_WORD ? space_of(t->text) : PTX_SP_NONE;
        if (sp != PTX_SP_PARAM && sp != PTX_SP_REG)
            return fail(p, t, "'.param' or '.reg' in a parameter list");
        p->i++;
        ptx_var v = { .space = sp, .vec = 1 };
        if (parse_var_attrs(p, &v)) return -1;
        if (is_punct(cur(p), ',') || is_punct(cur(p), ')')) v.name = "_";   /* prototype: unnamed */
        else if (parse_var_name(p, &v)) return -1;
        GROW(p, *out, *n, cap);
        (*out)[(*n)++] = v;
    } while (accept(p, ','));
    return expect(p, ')', "')' or ',' in a parameter list");
}

static int parse_operand(P *p, ptx_opnd *o);

static int parse_simple(P *p, ptx_opnd *o)
{
    const ptx_tok *t = cur(p);
    memset(o, 0, sizeof *o);
    o->pos = (ptx_pos){ t->line, t->col };
    if (accept(p, '!')) { o->neg = 1; t = cur(p); }
    int neg = 0;
    if (is_punct(t, '-')) { neg = 1; p->i++; t = cur(p); }
    switch (t->kind) {
    case PTK_INT:
        o->kind = PTX_OP_INT;
        o->ival = (int64_t)(neg ? 0 - t->u : t->u);   /* (no overflow for -2^63) */
        p->i++;
        return 0;
    case PTK_F32: o->kind = PTX_OP_F32; o->bits = t->u ^ (neg ? 0x80000000u : 0); p->i++; return 0;
    case PTK_F64:
        o->kind = PTX_OP_F64;
        o->bits = t->u ^ (neg ? 0x8000000000000000ull : 0);
        p->i++;
        return 0;
    case PTK_FLT: o->kind = PTX_OP_FLT; o->fval = neg ? -t->d : t->d; p->i++; return 0;
    case PTK_WORD:
        if (neg && (t->text[0] == '.' || !strcmp(t->text, "_"))) break;
        o->minus = neg;   /* -%r: only vmad takes it (exec/load.c refuses it elsewhere) */
        o->name = ptx_arena_strdup(p->m, t->text); p->i++;
        if (!strcmp(t->text, "_")) { o->kind = PTX_OP_SINK; return 0; }
        o->kind = t->text[0] == '%' ? PTX_OP_REG : PTX_OP_SYM;
        if (o->kind == PTX_OP_SYM &&
            (is_punct(cur(p), '+') || (is_punct(cur(p), '-') && peek(p, 1)->kind == PTK_INT))) {
            int s = cur(p)->c == '-'; p->i++;
            int64_t off; if (parse_int(p, &off)) return -1;
            o->ival = s ? -off : off;
        }
        return 0;
    default: break;
    }
    return fail(p, t, "an operand (register, constant, symbol, [address] or {vector})");
}

static int parse_list(P *p, ptx_opnd *o, char close)
{
    int cap = 0;
    o->kind = PTX_OP_VEC;
    if (accept(p, close)) return 0;
    do {
        GROW(p, o->elems, o->nelems, cap);
        if (parse_operand(p, &o->elems[o->nelems])) return -1;
        o->nelems++;
    } while (accept(p, ','));
    return expect(p, close,
                  close == '}' ? "'}' or ',' in a vector operand"
                               : "')' or ',' in an argument list");
}

static int parse_operand(P *p, ptx_opnd *o)
{
    const ptx_tok *t = cur(p);
    memset(o, 0, sizeof *o);
    o->pos = (ptx_pos){ t->line, t->col };
    if (accept(p, '[')) {
        o->kind = PTX_OP_ADDR;
        const ptx_tok *b = cur(p);
        if (b->kind == PTK_WORD) { o->name = ptx_arena_strdup(p->m, b->text); p->i++; }
        else if (b->kind == PTK_INT) { o->ival = (int64_t)b->u; p->i++; }
        else return fail(p, b, "a register, symbol or constant address inside [ ]");
        while (is_punct(cur(p), '+') || is_punct(cur(p), '-')) {
            int s = cur(p)->c == '-'; p->i++;
            int64_t off; if (parse_int(p, &off)) return -1;
            o->ival += s ? -off : off;
        }
        /* texture / surface address [a, {b,} c] (ISA §9.7.9.3, §9.7.10.1) and tensor address
         * [tensorMap, {c0, ...}] (§9.7.8.24.9): the handle, then the other operands (the
         * sampler, the coordinate vector) in elems */
        int cap = 0;
        while (accept(p, ',')) {
            GROW(p, o->elems, o->nelems, cap);
            if (parse_operand(p, &o->elems[o->nelems])) return -1;
            o->nelems++;
        }
        return expect(p, ']', "']' closing an address");
    }
    if (accept(p, '{')) {
        if (parse_list(p, o, '}')) return -1;
        if (!accept(p, '|')) return 0;
        /* {d...}|p: vector destination with a predicate (tex, tld4: §9.7.9.3) */
        ptx_opnd *e = ptx_arena_alloc(p->m, 2 * sizeof *e);
        e[0] = *o;
        if (parse_simple(p, &e[1])) return -1;
        memset(o, 0, sizeof *o);
        o->kind = PTX_OP_PAIR; o->elems = e; o->nelems = 2; o->pos = e[0].pos;
        return 0;
    }
    if (accept(p, '(')) return parse_list(p, o, ')');
    if (parse_simple(p, o)) return -1;
    if (accept(p, '|')) {   /* d|p destination pair */
        ptx_opnd *e = ptx_arena_alloc(p->m, 2 * sizeof *e);
        e[0] = *o;
        if (parse_simple(p, &e[1])) return -1;
        memset(o, 0, sizeof *o);
        o->kind = PTX_OP_PAIR; o->elems = e; o->nelems = 2; o->pos = e[0].pos;
    }
    return 0;
}

static const char *tok_text(P *p, size_t from, size_t to)
{
    size_t n = 0;
    for (size_t k = from; k < to; k++) n += strlen(p->tk.t[k].text) + 1;
    char *s = ptx_arena_alloc(p->m, n + 1), *q = s;
    for (size_t k = from; k < to; k++) {
        const ptx_tok *t = &p->tk.t[k];
        int glue =
            k > from && (t->kind == PTK_PUNCT
                             ? strchr(",;]})|+", t->c) != NULL
                             : (is_punct(&p->tk.t[k - 1], '[') || is_punct(&p->tk.t[k - 1], '{') ||
                                is_punct(&p->tk.t[k - 1], '@') || is_punct(&p->tk.t[k - 1], '!') ||
                                is_punct(&p->tk.t[k - 1], '|') || is_punct(&p->tk.t[k - 1], '+')));
        if (k > from && !glue) *q++ = ' ';
        size_t l = strlen(t->kind == PTK_STRING ? "\"\"" : t->text);
        memcpy(q, t->kind == PTK_STRING ? "\"\"" : t->text, l); q += l;
    }
    *q = 0;
    return s;
}

/* `name:` followed by .callprototype (a PROTO statement), .branchtargets (§10.5.2: the label
 * list of brx.idx) or nothing (a LABEL). */
static int parse_labelled(P *p, ptx_stmt *st)
{
    st->name = ptx_arena_strdup(p->m, cur(p)->text);
    p->i += 2;
    if (is_word(cur(p), ".callprototype")) {
        p->i++;
        st->kind = PTX_ST_PROTO;
        if (is_punct(cur(p), '(') && parse_params(p, &st->pret, &st->npret)) return -1;
        if (cur(p)->kind != PTK_WORD) return fail(p, cur(p), "'_' in a .callprototype");
        p->i++;
        if (is_punct(cur(p), '(') && parse_params(p, &st->pargs, &st->npargs)) return -1;
        while (is_word(cur(p), ".noreturn")) p->i++;
        return expect(p, ';', "';' after .callprototype");
    }
    if (!is_word(cur(p), ".branchtargets")) { st->kind = PTX_ST_LABEL; return 0; }
    p->i++;
    st->kind = PTX_ST_BTARGETS;
    int ocap = 0;
    do {
        if (cur(p)->kind != PTK_WORD || cur(p)->text[0] == '.' || cur(p)->text[0] == '%')
            return fail(p, cur(p), "a label in .branchtargets");
        GROW(p, st->ops, st->nops, ocap);
        ptx_opnd *o = &st->ops[st->nops++];
        memset(o, 0, sizeof *o);
        o->kind = PTX_OP_SYM; o->pos = (ptx_pos){ cur(p)->line, cur(p)->col };
        o->name = ptx_arena_strdup(p->m, cur(p)->text);
        p->i++;
    } while (accept(p, ','));
    return expect(p, ';', "';' or ',' in .branchtargets");
}

/* A directive inside a body: .loc (kept for reports), .pragma (skipped), or a declaration list,
 * whose DECL statements are appended to f. */
static int parse_body_directive(P *p, ptx_func *f, int *cap)
{
    const ptx_tok *t = cur(p);
    ptx_space sp = space_of(t->text);
    if (!strcmp(t->text, ".loc")) {
        int line = t->line; p->i++;
        if (cur(p)->kind == PTK_INT) { p->loc_file = (int)cur(p)->u; p->i++; }
        if (cur(p)->kind == PTK_INT) { p->loc_line = (int)cur(p)->u; p->i++; }
        skip_line(p, line);
        return 0;
    }
    if (!strcmp(t->text, ".pragma")) {
        while (cur(p)->kind != PTK_EOF && !is_punct(cur(p), ';')) p->i++;
        return expect(p, ';', "';' after .pragma");
    }
    if (sp == PTX_SP_NONE || sp == PTX_SP_SREG || sp == PTX_SP_TEX)
        return fail(
            p, t,
            "an instruction, a label or a declaration (.reg .local .shared .param .const .global)");
    p->i++;
    ptx_var v = { .space = sp, .vec = 1 };
    if (parse_var_attrs(p, &v)) return -1;
    do {
        ptx_var w = v;
        if (parse_var_name(p, &w)) return -1;
        ptx_stmt d; memset(&d, 0, sizeof d);
        d.kind = PTX_ST_DECL; d.pos = w.pos; d.var = w;
        GROW(p, f->body, f->nbody, *cap);
        f->body[f->nbody++] = d;
    } while (accept(p, ','));
    return expect(p, ';', "';' after a declaration");
}

/* `{@{!}p} opcode operand, ...;` with its source text and the last .loc. */
static int parse_insn(P *p, ptx_stmt *st)
{
    size_t from = p->i;
    st->kind = PTX_ST_INSN;
    if (accept(p, '@')) {
        if (accept(p, '!')) st->guard_neg = 1;
        if (cur(p)->kind != PTK_WORD) return fail(p, cur(p), "a predicate register after '@'");
        st->guard = ptx_arena_strdup(p->m, cur(p)->text); p->i++;
    }
    const ptx_tok *op = cur(p);
    if (op->kind != PTK_WORD || op->text[0] == '%' || op->text[0] == '.')
        return fail(p, op, "an instruction opcode");
    st->opcode = ptx_arena_strdup(p->m, op->text);
    st->pos = (ptx_pos){ op->line, op->col };
    p->i++;
    int ocap = 0;
    if (!is_punct(cur(p), ';')) {
        do {
            GROW(p, st->ops, st->nops, ocap);
            if (parse_operand(p, &st->ops[st->nops])) return -1;
            st->nops++;
        } while (accept(p, ','));
    }
    if (!is_punct(cur(p), ';'))
        return fail(p, cur(p), "';' or ',' after an operand of %s", st->opcode);
    p->i++;
    st->text = tok_text(p, from, p->i - 1);
    st->src_file = p->loc_file; st->src_line = p->loc_line;
    return 0;
}

/* The statements of a function body up to its closing '}': scopes, labels, declarations,
 * instructions (§4, §7, §9.7 instruction syntax). */
static int parse_body(P *p, ptx_func *f)
{
    int cap = 0, depth = 1;
    for (;;) {
        const ptx_tok *t = cur(p);
        ptx_stmt st; memset(&st, 0, sizeof st);
        st.pos = (ptx_pos){ t->line, t->col };
        if (t->kind == PTK_EOF) return fail(p, t, "'}' closing the body of %s", f->name);
        if (accept(p, '}')) {
            if (--depth == 0) return 0;
            st.kind = PTX_ST_CLOSE;
        } else if (accept(p, '{')) { depth++; st.kind = PTX_ST_OPEN; }
        else if (accept(p, ';')) continue;
        else if (t->kind == PTK_WORD && is_punct(peek(p, 1), ':')) {
            if (parse_labelled(p, &st)) return -1;
        } else if (t->kind == PTK_WORD && t->text[0] == '.') {
            if (parse_body_directive(p, f, &cap)) return -1;
            continue;
        } else if (parse_insn(p, &st)) return -1;
        GROW(p, f->body, f->nbody, cap);
        f->body[f->nbody++] = st;
    }
}

static int parse_dim3(P *p, int *d)
{
    d[0] = d[1] = d[2] = 1;
    for (int k = 0; k < 3; k++) {
        int64_t v = 0; if (parse_int(p, &v)) return -1;
        d[k] = (int)v;
        if (!accept(p, ',')) break;
    }
    return 0;
}

static int parse_function(P *p, int linkage)
{
    const ptx_tok *kw = cur(p);
    ptx_func f; memset(&f, 0, sizeof f);
    f.is_entry = is_word(kw, ".entry") || is_word(kw, ".kernel");
    f.linkage = linkage;
    f.pos = (ptx_pos){ kw->line, kw->col };
    p->i++;
    if (!f.is_entry && is_punct(cur(p), '(')) { if (parse_params(p, &f.rets, &f.nrets)) return -1; }
    if (cur(p)->kind != PTK_WORD || cur(p)->text[0] == '.')
        return fail(p, cur(p), "a function name");
    f.name = ptx_arena_strdup(p->m, cur(p)->text); p->i++;
    if (is_punct(cur(p), '(')) { if (parse_params(p, &f.params, &f.nparams)) return -1; }
    for (;;) {   /* performance-tuning and other function directives (§11.4) */
        const ptx_tok *t = cur(p);
        if (is_word(t, ".maxntid")) { p->i++; if (parse_dim3(p, f.maxntid)) return -1; }
        else if (is_word(t, ".reqntid")) { p->i++; if (parse_dim3(p, f.reqntid)) return -1;
        } else if (is_word(t, ".reqnctapercluster")) {
            p->i++;
            if (parse_dim3(p, f.reqnctapercluster)) return -1;
        } else if (is_word(t, ".explicitcluster")) {
            f.explicitcluster = 1;
            p->i++;
        } else if (is_word(t, ".maxclusterrank") || is_word(t, ".minnctapersm") ||
                   is_word(t, ".maxnctapersm") || is_word(t, ".maxnreg")) {
            int d[3];
            p->i++;
            if (parse_dim3(p, d)) return -1;
            if (is_word(t, ".maxnreg")) f.maxnreg = d[0];   /* the occupancy of exec/ */
            if (is_word(t, ".minnctapersm")) f.minnctapersm = d[0];
        } else if (is_word(t, ".noreturn")) p->i++;
        else if (is_word(t, ".pragma")) {
            while (cur(p)->kind != PTK_EOF && !is_punct(cur(p), ';')) p->i++;
            if (expect(p, ';', "';'")) return -1;
        } else break;
    }
    if (accept(p, ';')) f.has_body = 0;
    else if (accept(p, '{')) { f.has_body = 1; if (parse_body(p, &f)) return -1; }
    else return fail(p, cur(p), "'{' starting the body of %s or ';'", f.name);
    GROW(p, p->m->funcs, p->m->nfuncs, p->fcap);
    p->m->funcs[p->m->nfuncs++] = f;
    return 0;
}

/* .file INDEX "NAME" (kept for fault reports) */
static void parse_file_directive(P *p)
{
    int line = cur(p)->line;
    p->i++;
    if (cur(p)->kind == PTK_INT && peek(p, 1)->kind == PTK_STRING) {
        int idx = (int)cur(p)->u;
        if (idx >= 0 && idx < 100000) {
            if (idx >= p->m->nfiles) {
                const char **nf = ptx_arena_alloc(p->m, (size_t)(idx + 1) * sizeof *nf);
                memset(nf, 0, (size_t)(idx + 1) * sizeof *nf);
                if (p->m->nfiles) memcpy(nf, p->m->files, (size_t)p->m->nfiles * sizeof *nf);
                p->m->files = nf; p->m->nfiles = idx + 1;
            }
            p->m->files[idx] = ptx_arena_strdup(p->m, peek(p, 1)->text);
        }
    }
    skip_line(p, line);
}

/* .section (DWARF of -G): skipped with its braces */
static int skip_section(P *p)
{
    p->i++;
    while (cur(p)->kind != PTK_EOF && !is_punct(cur(p), '{')) p->i++;
    if (cur(p)->kind == PTK_EOF) return expect(p, '{', "'{' opening the .section");
    int d = 0;
    do { if (is_punct(cur(p), '{')) d++; else if (is_punct(cur(p), '}')) d--; p->i++; }
    while (d > 0 && cur(p)->kind != PTK_EOF);
    return d > 0 ? expect(p, '}', "'}' closing the .section") : 0;
}

/* Linkage directives, then a function (.entry .func) or a module variable list. */
static int parse_module_item(P *p, int *vcap)
{
    int link = 0;
    for (;;) {
        if (is_word(cur(p), ".visible")) link |= PTX_LINK_VISIBLE;
        else if (is_word(cur(p), ".extern")) link |= PTX_LINK_EXTERN;
        else if (is_word(cur(p), ".weak")) link |= PTX_LINK_WEAK;
        else if (is_word(cur(p), ".common")) link |= PTX_LINK_COMMON;
        else break;
        p->i++;
    }
    const ptx_tok *t = cur(p);
    if (is_word(t, ".entry") || is_word(t, ".func") || is_word(t, ".kernel"))
        return parse_function(p, link);
    ptx_space sp = t->kind == PTK_WORD ? space_of(t->text) : PTX_SP_NONE;
    if (sp != PTX_SP_GLOBAL && sp != PTX_SP_SHARED && sp != PTX_SP_CONST && sp != PTX_SP_LOCAL)
        return fail(p, t,
                    "a module-level directive (.entry .func .global .shared .const .local .version "
                    ".target)");
    p->i++;
    ptx_var v = { .space = sp, .vec = 1, .linkage = link };
    if (parse_var_attrs(p, &v)) return -1;
    do {
        ptx_var w = v;
        if (parse_var_name(p, &w)) return -1;
        GROW(p, p->m->vars, p->m->nvars, *vcap);
        p->m->vars[p->m->nvars++] = w;
    } while (accept(p, ','));
    return expect(p, ';', "';' after a variable declaration");
}

/* One module directive: .version .target .address_size .file .section .pragma, or an item. */
static int parse_module_directive(P *p, int *vcap)
{
    const ptx_tok *t = cur(p);
    if (t->kind != PTK_WORD || t->text[0] != '.')
        return fail(p, t, "a directive (.version .target .entry .func .global ...)");
    if (is_word(t, ".version")) {
        int line = t->line; p->i++;
        if (sscanf(cur(p)->text, "%d.%d", &p->m->version_major, &p->m->version_minor) != 2)
            return fail(p, cur(p), "a version number like 8.4");
        skip_line(p, line);
    } else if (is_word(t, ".target")) {
        p->i++;
        if (cur(p)->kind != PTK_WORD) return fail(p, cur(p), "a target name like sm_80");
        snprintf(p->m->target, sizeof p->m->target, "%s", cur(p)->text);
        p->i++;
        while (accept(p, ',') && cur(p)->kind != PTK_EOF) p->i++;
    } else if (is_word(t, ".address_size")) {
        p->i++; int64_t a;
        if (parse_int(p, &a)) return -1;
        if (a != 32 && a != 64) return fail(p, &p->tk.t[p->i - 1], "32 or 64");
        p->m->address_size = (int)a;
    } else if (is_word(t, ".file")) parse_file_directive(p);
    else if (is_word(t, ".section")) return skip_section(p);
    else if (is_word(t, ".pragma")) {
        while (cur(p)->kind != PTK_EOF && !is_punct(cur(p), ';')) p->i++;
        return expect(p, ';', "';' after .pragma");
    } else return parse_module_item(p, vcap);
    return 0;
}

ptx_module *ptx_parse(const char *filename, const char *src, size_t len, char *err, size_t errlen)
{
    P p; memset(&p, 0, sizeof p);
    p.fname = filename; p.err = err; p.errlen = errlen; p.src = src;
    char lerr[300];
    if (ptx_lex(src, len, &p.tk, lerr, sizeof lerr)) {
        snprintf(err, errlen, "%s:%s", filename, lerr);
        ptx_toks_free(&p.tk);
        return NULL;
    }
    p.m = calloc(1, sizeof *p.m);
    if (!p.m) {
        ptx_toks_free(&p.tk);
        snprintf(err, errlen, "%s: out of memory", filename);
        return NULL;
    }
    p.m->filename = ptx_arena_strdup(p.m, filename);
    int vcap = 0;
    while (!p.failed && cur(&p)->kind != PTK_EOF)
        if (parse_module_directive(&p, &vcap)) break;
    ptx_toks_free(&p.tk);
    if (p.failed) { ptx_module_free(p.m); return NULL; }
    return p.m;
}
