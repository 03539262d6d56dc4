/* exec/load.c — turns a parsed PTX module (frontend/ptx_ast.h) into the executor's program:
 * lays out module variables (global/const/shared, §5.1), function frames (registers, .param,
 * .local), resolves labels and symbols, and decodes every instruction once into an xinsn.
 * Computational instructions are decoded by ptx/isa.c (isa_decode); memory, control flow,
 * synchronisation and special registers are decoded here.  Anything unsupported is rejected
 * now, with file:line:col and the instruction text, never during a run. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/diag.h"
#include "exec/exec_int.h"
#include "exec/remote.h"
#include "exec/tma.h"
#include "exec/tex.h"
#include "exec/wmma.h"
#include "frontend/ptx_parse.h"
#include "ptx/mnemonic.h"

typedef struct {
    const char *name;
    uint32_t base;
    int n;
    uint8_t bits;
} regdecl; /* n = 0: single */
typedef struct {
    const char *name;
    int kind;
    uint64_t off;
    uint32_t size;
} localsym; /* XO_LOCALSYM / XO_FPARAMSYM / XO_IMM */

typedef struct {
    ptxeModule *m;
    char *err; size_t errlen;
    int failed;
    /* current function */
    regdecl *regs; int nregs, regcap;
    localsym *lsyms; int nlsyms, lcap;
    const char **labels; int *labelpc; int nlabels, labcap;
    uint32_t nreg_next;
    uint32_t psize, lsize, lalign;
    const ptx_func *curf;
} L;

static int lfail(L *l, int line, int col, const char *text, const char *fmt, ...)
{
    if (l->failed) return -1;
    l->failed = 1;
    char msg[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (text)
        diag_format(l->err, l->errlen, l->m->ast->filename, line, col, "%s in `%s`", msg, text);
    else diag_format(l->err, l->errlen, l->m->ast->filename, line, col, "%s", msg);
    return -1;
}

static void *xalloc(L *l, size_t n)
{
    void *p = ptx_arena_alloc(l->m->ast, n);
    memset(p, 0, n);
    return p;
}

#define XGROW(l, arr, n, cap) do { \
        if ((n) == (cap)) { \
            int nc_ = (cap) ? (cap) * 2 : 16; \
            void *na_ = xalloc((l), (size_t)nc_ * sizeof *(arr)); \
            if (n) memcpy(na_, (arr), (size_t)(n) * sizeof *(arr)); \
            (arr) = na_; (cap) = nc_; \
        } \
    } while (0)

static unsigned type_bytes(const char *t)
{
    isa_type it = isa_type_parse(t);
    if (it == ISA_T_PRED) return 1;
    if (it != ISA_T_NONE) return (isa_type_bits(it) + 7) / 8;
    return 8;   /* .texref etc. */
}

static uint64_t var_size(const ptx_var *v)
{
    uint64_t n = (uint64_t)type_bytes(v->type) * (uint64_t)(v->vec ? v->vec : 1);
    for (int k = 0; k < v->ndims; k++) n *= v->dims[k] < 0 ? 0 : (uint64_t)v->dims[k];
    return n;
}

static uint32_t var_align(const ptx_var *v)
{
    uint32_t a =
        v->align ? (uint32_t)v->align : type_bytes(v->type) * (uint32_t)(v->vec ? v->vec : 1);
    return a ? a : 1;
}

#define SHARED_MAX (228u * 1024u)   /* bytes of shared memory per CTA (sm_90) */
static uint64_t align_up(uint64_t x, uint64_t a) { return a ? (x + a - 1) / a * a : x; }

/* ---- symbols ---- */
static const xsym *find_sym(ptxeModule *m, const char *name)
{
    for (int i = 0; i < m->nsyms; i++) if (!strcmp(m->syms[i].name, name)) return &m->syms[i];
    return NULL;
}

static int find_func(ptxeModule *m, const char *name)
{
    for (int i = 0; i < m->nfuncs; i++) if (!strcmp(m->funcs[i].name, name)) return i;
    return -1;
}

/* write initialiser scalars of v into dst (size bytes); symbols resolve to generic addresses */
static int write_init(L *l, const ptx_var *v, uint8_t *dst, uint64_t size)
{
    unsigned eb = type_bytes(v->type);
    isa_type t = isa_type_parse(v->type);
    for (int i = 0; i < v->ninit; i++) {
        const struct ptx_init *in = &v->init[i];
        uint64_t val = in->u;
        if (in->kind == 1) {   /* decimal float -> element type */
            if (t == ISA_T_F32) { float f = (float)in->d; uint32_t b; memcpy(&b, &f, 4); val = b; }
            else if (t == ISA_T_F64) memcpy(&val, &in->d, 8);
            else val = (uint64_t)(int64_t)in->d;
        } else if (in->kind == 3 && t == ISA_T_F32) {
            double d;
            memcpy(&d, &in->u, 8);
            float f = (float)d;
            uint32_t b;
            memcpy(&b, &f, 4);
            val = b;
        } else if (in->kind == 2 && t == ISA_T_F64) {
            uint32_t b = (uint32_t)in->u;
            float f;
            memcpy(&f, &b, 4);
            double d = f;
            memcpy(&val, &d, 8);
        } else if (in->kind == 4) {
            const xsym *s = find_sym(l->m, in->sym);
            int fi = find_func(l->m, in->sym);
            if (s) {
                uint64_t base = s->space == SP_GLOBAL   ? s->addr
                                : s->space == SP_CONST  ? WIN_CONST + s->addr
                                : s->space == SP_SHARED ? WIN_SHARED + s->addr
                                                        : s->addr;
                val = base + (uint64_t)in->off;
            } else if (fi >= 0) val = FUNC_BASE + 16ull * (uint64_t)fi;
            else
                return lfail(
                    l, v->pos.line, v->pos.col, NULL,
                    "found initialiser symbol '%s', expected a declared variable or function",
                    in->sym);
        }
        uint64_t off = (uint64_t)i * eb;
        if (off + eb > size)
            return lfail(l, v->pos.line, v->pos.col, NULL,
                         "found %d initialiser values, expected at most %llu for '%s'", v->ninit,
                         (unsigned long long)(size / eb), v->name);
        memcpy(dst + off, &val, eb);
    }
    return 0;
}

static int add_sym(L *l, const char *name, int space, uint64_t addr, uint64_t size)
{
    ptxeModule *m = l->m;
    xsym *ns = xalloc(l, (size_t)(m->nsyms + 1) * sizeof *ns);
    if (m->nsyms) memcpy(ns, m->syms, (size_t)m->nsyms * sizeof *ns);
    ns[m->nsyms] = (xsym){ name, space, addr, size };
    m->syms = ns; m->nsyms++;
    return 0;
}

static int layout_module_vars(L *l)
{
    ptxeModule *m = l->m;
    ptx_module *a = m->ast;
    uint32_t sh = 0;
    /* static shared first, then dynamic (.extern .shared x[]) at the end, 16-aligned */
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < a->nvars; i++) {
            const ptx_var *v = &a->vars[i];
            uint64_t sz = var_size(v);
            uint32_t al = var_align(v);
            int dyn = v->ndims > 0 && v->dims[0] < 0;
            if (v->space == PTX_SP_SHARED) {
                if (dyn != pass) continue;
                if (dyn) {
                    sh = (uint32_t)align_up(sh, 16);
                    add_sym(l, v->name, SP_SHARED, sh, 0);
                    continue;
                }
                sh = (uint32_t)align_up(sh, al);
                if (sz > SHARED_MAX || sh + sz > SHARED_MAX)
                    return lfail(l, v->pos.line, v->pos.col, NULL,
                                 "found .shared '%s' of %llu bytes (%u before it), expected at "
                                 "most 228 KiB of shared memory",
                                 v->name, (unsigned long long)sz, sh);
                if (v->ninit)
                    return lfail(l, v->pos.line, v->pos.col, NULL,
                                 "found an initialiser on .shared '%s', expected none (§5.1.7)",
                                 v->name);
                add_sym(l, v->name, SP_SHARED, sh, sz);
                sh += (uint32_t)sz;
            } else if (pass == 1) continue;
            else if (v->space == PTX_SP_GLOBAL) {
                if ((v->linkage & PTX_LINK_EXTERN) && !v->ninit && dyn)
                    return lfail(l, v->pos.line, v->pos.col, NULL,
                                 "found .extern .global '%s', expected a definition in the module",
                                 v->name);
                uint64_t addr;
                if (mem_alloc(m->ctx, sz ? sz : 1, &addr))
                    return lfail(l, v->pos.line, v->pos.col, NULL, "out of device memory for '%s'",
                                 v->name);
                galloc *g = mem_find(m->ctx, addr, 1);
                if (write_init(l, v, g->host, sz)) return -1;
                add_sym(l, v->name, SP_GLOBAL, addr, sz);
                uint64_t *na = xalloc(l, (size_t)(m->ngallocs + 1) * sizeof *na);
                if (m->ngallocs) memcpy(na, m->galloc_addrs, (size_t)m->ngallocs * sizeof *na);
                na[m->ngallocs++] = addr; m->galloc_addrs = na;
            } else if (v->space == PTX_SP_CONST) {
                ptxeCtx *c = m->ctx;
                uint64_t off = align_up(c->csize, al);
                if (off + sz > 65536 * 11)
                    return lfail(l, v->pos.line, v->pos.col, NULL,
                                 "found .const '%s' of %llu bytes, expected the constant banks "
                                 "(704 KiB) to hold it",
                                 v->name, (unsigned long long)sz);
                uint8_t *nc = realloc(c->cmem, off + sz + 1);
                if (!nc) return lfail(l, v->pos.line, v->pos.col, NULL, "out of memory");
                memset(nc + c->csize, 0, off + sz + 1 - c->csize);
                c->cmem = nc; c->csize = off + sz;
                if (write_init(l, v, nc + off, sz)) return -1;
                add_sym(l, v->name, SP_CONST, off, sz);
            } else if (v->space == PTX_SP_LOCAL) {
                return lfail(l, v->pos.line, v->pos.col, NULL,
                             "found a module-scope .local variable '%s', expected .local only "
                             "inside functions",
                             v->name);
            }
        }
    m->shared_static = sh;
    return 0;
}

/* ---- registers ---- */
static int reg_bits(const char *type)
{
    isa_type t = isa_type_parse(type);
    return t == ISA_T_PRED ? 1 : t == ISA_T_NONE ? 64 : (int)isa_type_bits(t);
}

static int lookup_reg(L *l, const char *name, uint32_t *idx, int *bits)
{
    size_t nl = strlen(name);
    for (int i = l->nregs - 1; i >= 0; i--) {
        const regdecl *r = &l->regs[i];
        size_t pl = strlen(r->name);
        if (r->n == 0) {
            if (!strcmp(r->name, name)) {
                *idx = r->base;
                *bits = r->bits;
                return 0;
            }
            continue;
        }
        if (nl > pl && !strncmp(name, r->name, pl)) {
            const char *d = name + pl; char *e;
            if (*d < '0' || *d > '9' || (d[0] == '0' && d[1])) continue;
            long k = strtol(d, &e, 10);
            if (*e || k < 0 || k >= r->n) continue;
            *idx = r->base + (uint32_t)k; *bits = r->bits;
            return 0;
        }
    }
    return -1;
}

static const struct { const char *name; int id;
} sregs[] = { { "%tid", SR_TID },
              { "%ntid", SR_NTID },
              { "%ctaid", SR_CTAID },
              { "%nctaid", SR_NCTAID },
              { "%clusterid", SR_CLUSTERID },
              { "%nclusterid", SR_NCLUSTERID },
              { "%cluster_ctaid", SR_CLUSTER_CTAID },
              { "%cluster_nctaid", SR_CLUSTER_NCTAID },
              { "%cluster_ctarank", SR_CLUSTER_CTARANK },
              { "%cluster_nctarank", SR_CLUSTER_NCTARANK },
              { "%is_explicit_cluster", SR_IS_EXPLICIT_CLUSTER },
              { "%laneid", SR_LANEID },
              { "%warpid", SR_WARPID },
              { "%nwarpid", SR_NWARPID },
              { "%smid", SR_SMID },
              { "%nsmid", SR_NSMID },
              { "%gridid", SR_GRIDID },
              { "%lanemask_eq", SR_LANEMASK_EQ },
              { "%lanemask_le", SR_LANEMASK_LE },
              { "%lanemask_lt", SR_LANEMASK_LT },
              { "%lanemask_ge", SR_LANEMASK_GE },
              { "%lanemask_gt", SR_LANEMASK_GT },
              { "%clock", SR_CLOCK },
              { "%clock_hi", SR_CLOCK_HI },
              { "%clock64", SR_CLOCK64 },
              { "%globaltimer", SR_GLOBALTIMER },
              { "%globaltimer_lo", SR_GLOBALTIMER_LO },
              { "%globaltimer_hi", SR_GLOBALTIMER_HI },
              { "%dynamic_smem_size", SR_DYN_SMEM },
              { "%total_smem_size", SR_TOTAL_SMEM },
              { "%aggr_smem_size", SR_AGGR_SMEM },
              { NULL, 0 } };

static int sreg_id(const char *name)
{
    if (!strncmp(name, "%envreg", 7) && name[7] >= '0' && name[7] <= '9') {   /* §10.27 */
        char *e;
        long n = strtol(name + 7, &e, 10);
        return !*e && n < 32 && (name[7] != '0' || !name[8]) ? SR_ENVREG + (int)n : -1;
    }
    char base[64]; snprintf(base, sizeof base, "%s", name);
    int comp = -1;
    size_t n = strlen(base);
    if (n > 2 && base[n - 2] == '.') {
        comp = base[n - 1] == 'x' ? 0 : base[n - 1] == 'y' ? 1 : base[n - 1] == 'z' ? 2 : -2;
        base[n - 2] = 0;
    }
    if (comp == -2) return -1;
    for (int i = 0; sregs[i].name; i++)
        if (!strcmp(sregs[i].name, base)) {
            int vec = sregs[i].id < SR_CLUSTER_CTARANK;
            if (vec != (comp >= 0)) return -1;
            return sregs[i].id + (comp > 0 ? comp : 0);
        }
    return -1;
}

/* ---- operands ---- */
static uint64_t conv_float_imm(const ptx_opnd *o, isa_type t)
{
    double d;
    if (o->kind == PTX_OP_F32) {
        if (t != ISA_T_F64) return o->bits;
        uint32_t b = (uint32_t)o->bits; float f; memcpy(&f, &b, 4); d = f;
    } else if (o->kind == PTX_OP_F64) {
        if (t == ISA_T_F64) return o->bits;
        memcpy(&d, &o->bits, 8);
    } else d = o->fval;
    if (t == ISA_T_F64) { uint64_t u; memcpy(&u, &d, 8); return u; }
    if (t == ISA_T_F32) { float f = (float)d; uint32_t u; memcpy(&u, &f, 4); return u; }
    if (isa_type_is_float(t)) { float f = (float)d; uint32_t u; memcpy(&u, &f, 4); return u; }
    return (uint64_t)(int64_t)d;
}

/* convert a parsed scalar operand; t = the operand's type for constants */
static int conv_opnd(L *l, const ptx_stmt *st, const ptx_opnd *o, isa_type t, xopnd *x)
{
    memset(x, 0, sizeof *x);
    if (o->minus)
        return lfail(l, o->pos.line, o->pos.col, st->text,
                     "found '-%s', expected an operand without '-' (only vmad negates a source "
                     "register, §9.7.16.1.3)", o->name);
    x->neg = (uint8_t)o->neg;
    x->wmask = ~0ull; x->rbits = 64;
    switch (o->kind) {
    case PTX_OP_REG: {
        int bits;
        if (!lookup_reg(l, o->name, &x->reg, &bits)) {
            x->kind = XO_REG; x->rbits = (uint8_t)bits;
            x->wmask = bits >= 64 ? ~0ull : ((1ull << bits) - 1);
            return 0;
        }
        int id = sreg_id(o->name);
        if (id < 0) {
            /* a symbol may be spelled with a leading % (rare) */
            return lfail(l, o->pos.line, o->pos.col, st->text,
                         "found '%s', expected a declared register or a special register", o->name);
        }
        x->kind = XO_SREG; x->imm = (uint64_t)id;
        return 0;
    }
    case PTX_OP_INT: x->kind = XO_IMM; x->imm = (uint64_t)o->ival;
        if (isa_type_is_float(t) && t != ISA_T_F16 && t != ISA_T_BF16 && t != ISA_T_F16X2 &&
            t != ISA_T_BF16X2) {
            ptx_opnd f = *o;
            f.kind = PTX_OP_FLT;
            f.fval = (double)o->ival;
            x->imm = conv_float_imm(&f, t);
        }
        return 0;
    case PTX_OP_F32: case PTX_OP_F64: case PTX_OP_FLT:
        x->kind = XO_IMM; x->imm = conv_float_imm(o, t); return 0;
    case PTX_OP_SINK: x->kind = XO_SINK; return 0;
    case PTX_OP_SYM: {
        int rbits;   /* registers need no '%' (inline asm: `.reg .f16 low, high;`) */
        if (!o->ival && !lookup_reg(l, o->name, &x->reg, &rbits)) {
            x->kind = XO_REG; x->rbits = (uint8_t)rbits;
            x->wmask = rbits >= 64 ? ~0ull : ((1ull << rbits) - 1);
            return 0;
        }
        for (int i = l->nlsyms - 1; i >= 0; i--)
            if (!strcmp(l->lsyms[i].name, o->name)) {
                x->kind = (uint8_t)l->lsyms[i].kind; x->imm = l->lsyms[i].off + (uint64_t)o->ival;
                return 0;
            }
        const xsym *s = find_sym(l->m, o->name);
        if (s) { x->kind = XO_IMM; x->imm = s->addr + (uint64_t)o->ival; return 0; }
        int fi = find_func(l->m, o->name);
        if (fi >= 0) { x->kind = XO_IMM; x->imm = FUNC_BASE + 16ull * (uint64_t)fi; return 0; }
        for (int i = 0; i < l->nlabels; i++)
            if (!strcmp(l->labels[i], o->name)) {
                x->kind = XO_IMM;
                x->imm = (uint64_t)l->labelpc[i];
                return 0;
            }
        return lfail(l, o->pos.line, o->pos.col, st->text,
                     "found undeclared symbol '%s', expected a variable, function or label",
                     o->name);
    }
    default:
        return lfail(l, o->pos.line, o->pos.col, st->text,
                     "found a %s operand, expected a register, constant or symbol",
                     o->kind == PTX_OP_ADDR ? "[address]" : "vector");
    }
}

static int conv_addr(L *l, const ptx_stmt *st, const ptx_opnd *o, xinsn *x)
{
    if (o->kind != PTX_OP_ADDR)
        return lfail(l, o->pos.line, o->pos.col, st->text,
                     "found an operand that is not an address, expected [address]");
    if (o->nelems)
        return lfail(l, o->pos.line, o->pos.col, st->text,
                     "found tensor coordinates in an address, expected [address]");
    x->aoff = o->ival;
    if (!o->name) { x->abase_kind = XO_IMM; x->s[0].kind = XO_IMM; x->s[0].imm = 0; return 0; }
    ptx_opnd b = *o; b.ival = 0;
    b.kind = o->name[0] == '%' ? PTX_OP_REG : PTX_OP_SYM;
    if (conv_opnd(l, st, &b, ISA_T_U64, &x->s[0])) return -1;
    if (x->s[0].kind == XO_SREG)
        return lfail(l, o->pos.line, o->pos.col, st->text,
                     "found a special register as an address, expected a register or symbol");
    x->abase_kind = x->s[0].kind;
    return 0;
}

/* element list of a (possibly vector) register operand */
static int vec_elems(const ptx_opnd *o, const ptx_opnd **el)
{
    if (o->kind == PTX_OP_VEC) { *el = o->elems; return o->nelems; }
    *el = o; return 1;
}

static int decode_call(L *l, const ptx_stmt *st, xinsn *x, const xfunc *cf)
{
    int k = 0;
    const ptx_opnd *rets = NULL, *args = NULL;
    if (k < st->nops && st->ops[k].kind == PTX_OP_VEC) rets = &st->ops[k++];
    if (k >= st->nops)
        return lfail(l, st->pos.line, st->pos.col, st->text,
                     "found no call target, expected a function name or register");
    const ptx_opnd *tgt = &st->ops[k++];
    if (k < st->nops && st->ops[k].kind == PTX_OP_VEC) args = &st->ops[k++];
    if (tgt->kind == PTX_OP_SYM) {
        int fi = find_func(l->m, tgt->name);
        if (fi < 0)
            return lfail(l, tgt->pos.line, tgt->pos.col, st->text,
                         "found call target '%s', expected a declared function", tgt->name);
        x->target = fi;
    } else if (tgt->kind == PTX_OP_REG) {
        x->target = -1;
        if (conv_opnd(l, st, tgt, ISA_T_U64, &x->s[0])) return -1;
    } else
        return lfail(l, tgt->pos.line, tgt->pos.col, st->text,
                     "found a bad call target, expected a function name or register");
    /* arguments and results must be .param variables of this frame (ISA §7.2) or registers */
    int nr = rets ? rets->nelems : 0, na = args ? args->nelems : 0;
    x->ncrets = nr; x->ncargs = na;
    x->cret_off = xalloc(l, (size_t)(nr + 1) * 4); x->cret_size = xalloc(l, (size_t)(nr + 1) * 4);
    x->carg_off = xalloc(l, (size_t)(na + 1) * 4); x->carg_size = xalloc(l, (size_t)(na + 1) * 4);
    x->cret_x = xalloc(l, (size_t)(nr + 1) * sizeof *x->cret_x);
    x->carg_x = xalloc(l, (size_t)(na + 1) * sizeof *x->carg_x);
    x->cret_vsz = xalloc(l, (size_t)(nr + 1) * 4); x->carg_vsz = xalloc(l, (size_t)(na + 1) * 4);
    for (int pass = 0; pass < 2; pass++) {
        const ptx_opnd *lst = pass ? args : rets;
        int n = pass ? na : nr;
        for (int i = 0; i < n; i++) {
            const ptx_opnd *o = &lst->elems[i];
            int found = 0;
            if (o->kind == PTX_OP_SYM)
                for (int j = l->nlsyms - 1; j >= 0; j--)
                    if (!strcmp(l->lsyms[j].name, o->name) && l->lsyms[j].kind == XO_FPARAMSYM) {
                        (pass ? x->carg_off : x->cret_off)[i] =
                            (uint32_t)(l->lsyms[j].off - FRAME_PARAM);
                        (pass ? x->carg_vsz : x->cret_vsz)[i] = l->lsyms[j].size;
                        found = 1; break;
                    }
            if (!found && (o->kind == PTX_OP_REG ||
                           (pass && (o->kind == PTX_OP_INT || o->kind == PTX_OP_F32 ||
                                     o->kind == PTX_OP_F64)))) {
                /* a register (or constant argument) for a .reg parameter (§7.2) */
                xopnd *xo = &(pass ? x->carg_x : x->cret_x)[i];
                if (conv_opnd(l, st, o, ISA_T_B64, xo)) return -1;
                if (!pass && xo->kind != XO_REG)
                    return lfail(l, o->pos.line, o->pos.col, st->text,
                                 "found '%s' as a call result, expected a register",
                                 o->name ? o->name : "?");
                (pass ? x->carg_off : x->cret_off)[i] = NOPARAM;
                found = 1;
            }
            if (!found)
                return lfail(l, o->pos.line, o->pos.col, st->text,
                             "found call operand '%s', expected a .param variable declared in %s "
                             "or a register",
                             o->name ? o->name : "?", cf->name);
        }
    }
    return 0;
}

/* ---- instruction decoding ----
 * decode_insn tokenizes the mnemonic (ptx/mnemonic.c), looks its row up in the opcode table
 * (ptx/opcodes.def) and hands it to the decoder of the row's kind (table `decoders` below).
 * Rows the executor does not implement (exec column NO) are refused here, by the table. */

/* Executor state space of a tokenizer state space; dflt when none was written. */
static int space_of(int ss, int dflt)
{
    switch (ss) {
    case PTX_SS_GLOBAL: return SP_GLOBAL;
    case PTX_SS_SHARED: case PTX_SS_SHARED_CTA: return SP_SHARED;
    case PTX_SS_SHARED_CLUSTER: return SP_SHCLUSTER;
    case PTX_SS_LOCAL: return SP_LOCAL;
    case PTX_SS_CONST: return SP_CONST;
    case PTX_SS_PARAM: case PTX_SS_PARAM_ENTRY: case PTX_SS_PARAM_FUNC: return SP_PARAM;
    case PTX_SS_GENERIC: return SP_GENERIC;
    default: return dflt;
    }
}

/* What every decoder gets: the statement, its tokenized mnemonic, the instruction to fill. */
typedef struct {
    L *l;
    const ptx_stmt *st;
    const ptx_mnemonic *mn;
    xinsn *x;
    const xfunc *cf;
} D;

static int dfail(const D *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int dfail(const D *d, const char *fmt, ...)
{
    char msg[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return lfail(d->l, d->st->pos.line, d->st->pos.col, d->st->text, "%s", msg);
}

/* exactly n operands */
static int need(const D *d, int n)
{
    if (d->st->nops == n) return 0;
    return dfail(d, "found %d operands, expected %d", d->st->nops, n);
}

/* between lo and hi operands */
static int need_range(const D *d, int lo, int hi)
{
    if (d->st->nops >= lo && d->st->nops <= hi) return 0;
    return dfail(d, "found %d operands, expected %d%s", d->st->nops, lo, hi > lo ? " or more" : "");
}

/* operand i as a value of type t */
static int conv(const D *d, int i, isa_type t, xopnd *dst)
{
    return conv_opnd(d->l, d->st, &d->st->ops[i], t, dst);
}

/* operand i as a destination d|p pair (shfl, match, elect) or a single register */
static int conv_pair(const D *d, int i, isa_type t, int pair_required)
{
    const ptx_opnd *o = &d->st->ops[i];
    if (o->kind == PTX_OP_PAIR) {
        if (conv_opnd(d->l, d->st, &o->elems[0], t, &d->x->d[0]) ||
            conv_opnd(d->l, d->st, &o->elems[1], ISA_T_PRED, &d->x->d[1]))
            return -1;
        d->x->nd = 2;
        return 0;
    }
    if (pair_required)
        return lfail(d->l, o->pos.line, o->pos.col, d->st->text,
                     "found a single destination, expected d|p");
    d->x->nd = 1;
    return conv(d, i, t, &d->x->d[0]);
}

/* An address operand into a separate base/offset (second and third addresses of copies). */
static int conv_addr2(const D *d, int i, xopnd *base, int64_t *off)
{
    xinsn t;
    memset(&t, 0, sizeof t);
    if (conv_addr(d->l, d->st, &d->st->ops[i], &t)) return -1;
    *base = t.s[0];
    *off = t.aoff;
    return 0;
}

/* Operands that an .L2::cache_hint adds at the end (a cache policy: ignored). */
static int hint_operands(const D *d)
{
    return ptx_mn_has(d->mn, PTX_Q_L2_cache_hint) ? 1 : 0;
}

/* The value operand vo of a memory access of x->vec elements of type t (a vector operand
 * {a, b, ...} where .v2/.v4, §9.7.8.8-13): into x->d[0..] for a load (registers or _ only), else
 * into x->s[1..]; the number of values, or -1 after the load error. */
static int conv_values(const D *d, const ptx_opnd *vo, isa_type t, int is_load)
{
    xinsn *x = d->x;
    const ptx_opnd *el;
    int n = vec_elems(vo, &el);
    if (n != x->vec)
        return lfail(d->l, vo->pos.line, vo->pos.col, d->st->text,
                     "found %d value operands, expected %d", n, x->vec);
    for (int i = 0; i < n; i++) {
        xopnd *o = is_load ? &x->d[i] : &x->s[1 + i];
        if (conv_opnd(d->l, d->st, &el[i], t, o)) return -1;
        if (is_load && o->kind != XO_REG && o->kind != XO_SINK)
            return lfail(d->l, el[i].pos.line, el[i].pos.col, d->st->text,
                         "found a non-register destination, expected a register");
    }
    return n;
}

/* ld, ldu, ld.global.nc (§9.7.8.8-10), st (§9.7.8.11): [a] and a (vector of) value(s) */
static int dec_ldst(const D *d)
{
    xinsn *x = d->x;
    const ptx_stmt *st = d->st;
    int is_st = d->mn->kind == PTX_K_ST;
    x->space = (uint8_t)space_of(d->mn->space, SP_GENERIC);
    x->vec = d->mn->vec;
    isa_type t = ptx_mn_type(d->mn);
    if (t == ISA_T_NONE || t == ISA_T_PRED)
        return dfail(d, "found no data type on %s, expected .b32, .u64, .f32, ...", st->opcode);
    x->size = (uint8_t)(isa_type_bits(t) / 8);
    x->sign = (uint8_t)isa_type_is_signed(t);
    if (st->nops != 2 + hint_operands(d)) return need(d, 2);
    const ptx_opnd *ao = &st->ops[is_st ? 0 : 1], *vo = &st->ops[is_st ? 1 : 0];
    if (conv_addr(d->l, st, ao, x)) return -1;
    int n = conv_values(d, vo, t, !is_st);
    if (n < 0) return -1;
    if (is_st) x->ns = (uint8_t)(1 + n);
    else { x->nd = (uint8_t)n; x->ns = 1; }
    return 0;
}

/* atom.vec: element-wise add/min/max on global memory (§9.7.12.5, sm_90) */
static int dec_atom_vector(const D *d, int is_red, isa_type t)
{
    xinsn *x = d->x;
    const ptx_stmt *st = d->st;
    const ptx_opnd *op = st->ops, *el;
    const char *base = ptx_ops[d->mn->op].mnemonic;
    int k = 0;
    if (x->mode != ISA_ATOM_ADD && x->mode != ISA_ATOM_MIN && x->mode != ISA_ATOM_MAX)
        return dfail(d, "found a vector %s.%s, expected .add .min or .max", base,
                     isa_atom_name((isa_atom_op)x->mode));
    if (x->space != SP_GLOBAL && x->space != SP_GENERIC)
        return dfail(d, "found a vector %s outside .global, expected .global or generic addressing",
                     base);
    if (x->vec * 2 > XMAX_OPS) return dfail(d, "found too many vector elements");
    if (!is_red) {
        if (op[0].kind != PTX_OP_VEC || vec_elems(&op[0], &el) != x->vec)
            return lfail(d->l, op[0].pos.line, op[0].pos.col, st->text,
                         "found a bad destination, expected a %d-element vector", x->vec);
        for (int i = 0; i < x->vec; i++)
            if (conv_opnd(d->l, st, &el[i], t, &x->d[i])) return -1;
        x->nd = x->vec;
        k = 1;
    }
    if (conv_addr(d->l, st, &op[k], x)) return -1;
    if (op[k + 1].kind != PTX_OP_VEC || vec_elems(&op[k + 1], &el) != x->vec)
        return lfail(d->l, op[k + 1].pos.line, op[k + 1].pos.col, st->text,
                     "found a bad source, expected a %d-element vector", x->vec);
    for (int i = 0; i < x->vec; i++)
        if (conv_opnd(d->l, st, &el[i], t, &x->s[1 + i])) return -1;
    x->ns = (uint8_t)(1 + x->vec);
    return 0;
}

/* atom (§9.7.12.5) d, [a], b{, c}; red (§9.7.12.6) [a], b: the value by isa_atom_apply */
static int dec_atom(const D *d)
{
    xinsn *x = d->x;
    const char *base = ptx_ops[d->mn->op].mnemonic;
    int is_red = d->mn->kind == PTX_K_RED;
    isa_type t = ptx_mn_type(d->mn);
    x->space = (uint8_t)space_of(d->mn->space, SP_GENERIC);
    if (t == ISA_T_NONE) return dfail(d, "found no type on %s, expected .u32, .f32, ...", base);
    x->size = (uint8_t)(isa_type_bits(t) / 8);
    isa_atom_op aop = (isa_atom_op)d->mn->aop;
    if (aop == ISA_ATOM_NONE)
        return dfail(d, "found no operation on %s, expected .add .cas .exch .min ...", base);
    x->mode = (uint8_t)aop;
    x->vec = d->mn->vec;
    uint64_t nv;   /* the semantics table must know this operation and type: probe now */
    if (isa_atom_apply(aop, t, 0, 0, 0, &nv) < 0)
        return dfail(d,
                     "found unsupported %s.%s on .%s, expected an operation and type the executor "
                     "implements",
                     base, isa_atom_name(aop), isa_type_name(t));
    int want = (is_red ? 2 : 3) + (aop == ISA_ATOM_CAS);
    if (d->st->nops != want + hint_operands(d)) return need(d, want);
    if (x->vec > 1) return dec_atom_vector(d, is_red, t);
    int k = 0;
    if (!is_red) {
        if (conv(d, 0, t, &x->d[0])) return -1;
        x->nd = 1;
        k = 1;
    }
    if (conv_addr(d->l, d->st, &d->st->ops[k], x) || conv(d, k + 1, t, &x->s[1])) return -1;
    if (aop == ISA_ATOM_CAS && conv(d, k + 2, t, &x->s[2])) return -1;
    x->ns = (uint8_t)(aop == ISA_ATOM_CAS ? 3 : 2);
    return 0;
}

/* cvta (§9.7.8.19) d, a: .to from generic into the space (mode 1), else into generic */
static int dec_cvta(const D *d)
{
    xinsn *x = d->x;
    isa_type t = ptx_mn_type(d->mn);
    x->mode = (uint8_t)ptx_mn_has(d->mn, PTX_Q_to);
    x->space = (uint8_t)space_of(d->mn->space, SP_NONE);
    if (x->space == SP_NONE || x->space == SP_GENERIC)
        return dfail(
            d,
            "found cvta without a state space, expected .global .shared .local .const or .param");
    if (need(d, 2) || conv(d, 0, t, &x->d[0]) || conv(d, 1, t, &x->s[0])) return -1;
    x->nd = x->ns = 1;
    return 0;
}

/* isspacep.space p, a (§9.7.8.18) */
static int dec_isspacep(const D *d)
{
    xinsn *x = d->x;
    x->space = (uint8_t)space_of(d->mn->space, SP_NONE);
    if (x->space == SP_NONE || x->space == SP_GENERIC)
        return dfail(d, "found isspacep without a state space, expected .global .shared .local "
                        ".const or .param");
    if (need(d, 2) || conv(d, 0, ISA_T_PRED, &x->d[0]) || conv(d, 1, ISA_T_U64, &x->s[0]))
        return -1;
    x->nd = x->ns = 1;
    return 0;
}

static int find_label(const L *l, const char *name)
{
    for (int i = 0; i < l->nlabels; i++)
        if (!strcmp(l->labels[i], name)) return l->labelpc[i];
    return -1;
}

/* bra{.uni} label (§9.7.11.3) */
static int dec_bra(const D *d)
{
    const ptx_opnd *o = &d->st->ops[0];
    if (need(d, 1)) return -1;
    d->x->uni = (uint8_t)ptx_mn_has(d->mn, PTX_Q_uni);
    if (o->kind != PTX_OP_SYM)
        return lfail(d->l, o->pos.line, o->pos.col, d->st->text,
                     "found a bad branch target, expected a label");
    d->x->target = find_label(d->l, o->name);
    if (d->x->target < 0)
        return lfail(d->l, o->pos.line, o->pos.col, d->st->text,
                     "found undefined label '%s', expected a label of %s", o->name, d->cf->name);
    return 0;
}

/* brx.idx index, tlist: a label declared with .branchtargets (§9.7.11.4) */
static int dec_brx(const D *d)
{
    xinsn *x = d->x;
    L *l = d->l;
    const ptx_opnd *o = &d->st->ops[1];
    if (need(d, 2) || conv(d, 0, ISA_T_U32, &x->s[0])) return -1;
    x->uni = (uint8_t)ptx_mn_has(d->mn, PTX_Q_uni);
    x->ns = 1;
    if (o->kind != PTX_OP_SYM)
        return lfail(l, o->pos.line, o->pos.col, d->st->text,
                     "found a bad target list, expected a .branchtargets label");
    const ptx_stmt *tl = NULL;
    for (int i = 0; i < l->curf->nbody; i++)
        if (l->curf->body[i].kind == PTX_ST_BTARGETS && !strcmp(l->curf->body[i].name, o->name))
            tl = &l->curf->body[i];
    if (!tl)
        return lfail(l, o->pos.line, o->pos.col, d->st->text,
                     "found '%s', expected a label declared with .branchtargets in %s", o->name,
                     d->cf->name);
    x->ntargets = tl->nops;
    x->targets = xalloc(l, (size_t)(tl->nops + 1) * sizeof *x->targets);
    for (int k = 0; k < tl->nops; k++) {
        x->targets[k] = find_label(l, tl->ops[k].name);
        if (x->targets[k] < 0)
            return lfail(l, tl->ops[k].pos.line, tl->ops[k].pos.col, NULL,
                         "found undefined label '%s' in .branchtargets %s, expected a label of %s",
                         tl->ops[k].name, tl->name, d->cf->name);
    }
    return 0;
}

/* mapa.space.type d, a, rank (§9.7.8.22) */
static int dec_mapa(const D *d)
{
    xinsn *x = d->x;
    isa_type t = ptx_mn_type(d->mn);
    if (need(d, 3)) return -1;
    if (t != ISA_T_U32 && t != ISA_T_U64)
        return dfail(d, "found mapa without .u32/.u64, expected one");
    x->space = (uint8_t)space_of(d->mn->space, SP_GENERIC);
    if (conv(d, 0, t, &x->d[0]) || conv(d, 1, t, &x->s[0]) || conv(d, 2, ISA_T_U32, &x->s[1]))
        return -1;
    x->nd = 1;
    x->ns = 2;
    return 0;
}

/* getctarank.space.type d, a (§9.7.8.23) */
static int dec_getctarank(const D *d)
{
    xinsn *x = d->x;
    isa_type t = ptx_mn_type(d->mn);
    if (need(d, 2)) return -1;
    if (t != ISA_T_U32 && t != ISA_T_U64)
        return dfail(d, "found getctarank without .u32/.u64, expected one");
    x->space = (uint8_t)space_of(d->mn->space, SP_GENERIC);
    if (conv(d, 0, ISA_T_U32, &x->d[0]) || conv(d, 1, t, &x->s[0])) return -1;
    x->nd = 1;
    x->ns = 1;
    return 0;
}

/* The executor's mbarrier mode of an opcode-table row. */
static int mbar_mode(int op)
{
    switch (op) {
    case PTX_I_MBARRIER_INIT: return MB_INIT;
    case PTX_I_MBARRIER_INVAL: return MB_INVAL;
    case PTX_I_MBARRIER_EXPECT_TX: return MB_EXPECT_TX;
    case PTX_I_MBARRIER_COMPLETE_TX: return MB_COMPLETE_TX;
    case PTX_I_MBARRIER_ARRIVE: return MB_ARRIVE;
    case PTX_I_MBARRIER_ARRIVE_DROP: return MB_ARRIVE_DROP;
    case PTX_I_MBARRIER_TEST_WAIT: return MB_TEST_WAIT;
    case PTX_I_MBARRIER_TRY_WAIT: return MB_TRY_WAIT;
    case PTX_I_MBARRIER_PENDING_COUNT: return MB_PENDING_COUNT;
    default: return MB_CP_ARRIVE;   /* cp.async.mbarrier.arrive */
    }
}

/* mbarrier.* (§9.7.12.15): objects of 8 bytes of shared memory; cp.async.mbarrier.arrive */
static int dec_mbar(const D *d)
{
    xinsn *x = d->x;
    const ptx_mnemonic *mn = d->mn;
    int k = 0, nops = d->st->nops;
    x->space = (uint8_t)space_of(mn->space, SP_GENERIC);
    x->mode = (uint8_t)mbar_mode(mn->op);
    if (x->mode == MB_CP_ARRIVE && ptx_mn_has(mn, PTX_Q_noinc)) x->flags |= XF_NOINC;
    if (ptx_mn_has(mn, PTX_Q_parity)) x->flags |= XF_PARITY;
    if (ptx_mn_has(mn, PTX_Q_expect_tx) && (x->mode == MB_ARRIVE || x->mode == MB_ARRIVE_DROP))
        x->flags |= XF_EXPECT_TX;
    if (ptx_mn_has(mn, PTX_Q_noComplete)) x->flags |= XF_NOCOMPLETE;
    if (x->mode == MB_PENDING_COUNT) {
        if (need(d, 2) || conv(d, 0, ISA_T_U32, &x->d[0]) || conv(d, 1, ISA_T_B64, &x->s[1]))
            return -1;
        x->nd = 1;
        x->ns = 2;
        x->s[0].kind = XO_NONE;
        return 0;
    }
    int m = x->mode;
    int has_d = m == MB_ARRIVE || m == MB_ARRIVE_DROP || m == MB_TEST_WAIT || m == MB_TRY_WAIT;
    int minops = has_d + 1 +
                 (m == MB_INIT || m == MB_EXPECT_TX || m == MB_COMPLETE_TX || m == MB_TEST_WAIT ||
                  m == MB_TRY_WAIT || (x->flags & XF_EXPECT_TX));
    int maxops = minops + ((m == MB_ARRIVE || m == MB_ARRIVE_DROP) && !(x->flags & XF_EXPECT_TX)) +
                 (m == MB_TRY_WAIT);
    if (need_range(d, minops, maxops)) return -1;
    if (x->space == SP_SHCLUSTER && m != MB_ARRIVE && m != MB_EXPECT_TX && m != MB_COMPLETE_TX)
        return dfail(d, "found .shared::cluster, expected .shared::cta (only arrive, expect_tx and "
                        "complete_tx may use another CTA's mbarrier)");
    if (has_d) {
        if (conv(d, 0, m >= MB_TEST_WAIT ? ISA_T_PRED : ISA_T_B64, &x->d[0])) return -1;
        x->nd = 1;
        k = 1;
        if (x->space == SP_SHCLUSTER && x->d[0].kind != XO_SINK)
            return lfail(d->l, d->st->ops[0].pos.line, d->st->ops[0].pos.col, d->st->text,
                         "found a state destination on a shared::cluster mbarrier, expected '_' "
                         "(§9.7.12.15.13)");
    }
    if (conv_addr(d->l, d->st, &d->st->ops[k], x)) return -1;
    if (nops > k + 1) { if (conv(d, k + 1, ISA_T_B64, &x->s[1])) return -1; }
    else { x->s[1].kind = XO_IMM; x->s[1].imm = 1; }
    x->ns = 2;
    return 0;
}

/* cp.async.bulk.dst.src.completion (§9.7.8.24.6) [dst], [src], size{, [mbar]}{, ctamask} */
static int dec_bulk(const D *d)
{
    xinsn *x = d->x;
    const ptx_mnemonic *mn = d->mn;
    int sp[2] = { space_of(mn->space, SP_NONE), space_of(mn->space2, SP_NONE) };
    for (int i = 0; i < 2; i++)
        if (sp[i] != SP_GLOBAL && sp[i] != SP_SHARED && sp[i] != SP_SHCLUSTER)
            return dfail(d,
                         "found %s without .dst and .src state spaces, expected e.g. "
                         ".shared::cluster.global",
                         d->st->opcode);
    /* §9.7.8.24.6: .shared::cluster.global and .shared::cluster.shared::cta complete on an
     * mbarrier, .global.shared::cta on a bulk async-group (.shared::cta.global, PTX 8.6, is also
     * taken); no operation or type (the reductions are cp.reduce.async.bulk, §9.7.8.24.7) */
    int to_global = sp[0] == SP_GLOBAL, cm = to_global ? PTX_CM_BULK_GROUP : PTX_CM_MBARRIER;
    if (mn->aop || mn->ntypes)
        return dfail(d, "found an operation or type in %s, expected none (§9.7.8.24.6; a "
                     "reduction is cp.reduce.async.bulk)", d->st->opcode);
    if (sp[0] == sp[1] || (to_global ? sp[1] != SP_SHARED
                                     : sp[1] == SP_SHCLUSTER ||
                                       (sp[1] == SP_SHARED && sp[0] != SP_SHCLUSTER)))
        return dfail(d, "found the direction of %s, expected .shared::cluster.global, "
                     ".shared::cluster.shared::cta or .global.shared::cta (§9.7.8.24.6)",
                     d->st->opcode);
    if (ptx_mn_given(mn, PTX_QC_MULTICAST) && sp[1] != SP_GLOBAL)
        return dfail(d, "found .multicast::cluster in %s, expected it only from .global "
                     "(§9.7.8.24.6)", d->st->opcode);
    if (mn->completion != cm)
        return dfail(d, "found %s without %s, expected it for this direction (§9.7.8.24.6)",
                     d->st->opcode, to_global ? ".bulk_group" : ".mbarrier::complete_tx::bytes");
    x->space = (uint8_t)sp[0];
    x->mode = (uint8_t)sp[1];
    int mb = mn->completion == PTX_CM_MBARRIER;
    if (ptx_mn_given(mn, PTX_QC_MULTICAST)) x->flags |= XF_ALIGNED;   /* (reused: multicast) */
    int want = 3 + mb + ((x->flags & XF_ALIGNED) != 0);
    if (d->st->nops != want + hint_operands(d)) return need(d, want);
    if (conv_addr2(d, 1, &x->s[1], &x->aoff2) || conv_addr(d->l, d->st, &d->st->ops[0], x) ||
        conv(d, 2, ISA_T_U32, &x->s[2]))
        return -1;
    if (mb) { if (conv_addr2(d, 3, &x->s[3], &x->aoff3)) return -1; }
    else x->s[3].kind = XO_NONE;
    if (x->flags & XF_ALIGNED) { if (conv(d, 4, ISA_T_U16, &x->s[4])) return -1; }
    else x->s[4].kind = XO_NONE;
    x->ns = 5;
    return 0;
}

/* cp.async.{ca,cg}.shared{::cta}.global [dst], [src], cp-size{, src-size | ignore-src}
 * {, cache-policy} (§9.7.8.24.3) */
static int dec_cp_async(const D *d)
{
    xinsn *x = d->x;
    const ptx_opnd *op = d->st->ops;
    int nops = d->st->nops - (d->st->nops >= 4 ? hint_operands(d) : 0);
    x->space = SP_SHARED;
    if (nops != 3 && nops != 4) return need(d, 3);
    if (conv_addr2(d, 1, &x->s[1], &x->aoff2) || conv_addr(d->l, d->st, &op[0], x)) return -1;
    if (op[2].kind != PTX_OP_INT || (op[2].ival != 4 && op[2].ival != 8 && op[2].ival != 16))
        return lfail(d->l, op[2].pos.line, op[2].pos.col, d->st->text,
                     "found a bad cp-size, expected 4, 8 or 16");
    x->size = (uint8_t)op[2].ival;
    if (nops == 4) {
        if (conv(d, 3, ISA_T_U32, &x->s[2])) return -1;
        x->flags |= (x->s[2].kind == XO_REG && x->s[2].rbits == 1) ? XF_IGNORE_SRC : XF_SRC_SIZE;
    }
    x->ns = 3;
    return 0;
}

/* What st.async / red.async (§9.7.8.12, §9.7.12.7) and multimem.* (§9.7.8.13) share: the form
 * checked by `form` (exec/remote.c), then the state space (generic where none), the vector
 * length, the element size and the reduction; the element type in *t.  0, or -1 after the load
 * error. */
static int remote_fields(const D *d, int (*form)(const ptx_mnemonic *, char *, size_t),
                         isa_type *t)
{
    xinsn *x = d->x;
    char why[300];
    if (form(d->mn, why, sizeof why)) return dfail(d, "found %s", why);
    *t = ptx_mn_type(d->mn);
    x->space = (uint8_t)space_of(d->mn->space, SP_GENERIC);
    x->vec = d->mn->vec;
    x->size = (uint8_t)(isa_type_bits(*t) / 8);
    x->mode = d->mn->aop;
    return 0;
}

/* st.async (§9.7.8.12) [a], b, [mbar]; red.async (§9.7.12.7) [a], b, [mbar]: the forms by
 * remote_async_form (exec/remote.c); b in s[1..vec], the mbarrier in s[5] + aoff2 */
static int dec_remote_async(const D *d)
{
    xinsn *x = d->x;
    const ptx_stmt *st = d->st;
    isa_type t;
    if (remote_fields(d, remote_async_form, &t) || need(d, 3) ||
        conv_addr(d->l, st, &st->ops[0], x) || conv_addr2(d, 2, &x->s[5], &x->aoff2) ||
        conv_values(d, &st->ops[1], t, 0) < 0)
        return -1;
    x->ns = 6;
    return 0;
}

/* multimem.ld_reduce d, [a]; multimem.st / multimem.red [a], b (§9.7.8.13): the forms by
 * multimem_form (exec/remote.c); mode the reduction, sign = .acc::f32 */
static int dec_multimem(const D *d)
{
    xinsn *x = d->x;
    const ptx_stmt *st = d->st;
    isa_type t;
    if (remote_fields(d, multimem_form, &t)) return -1;
    int ld = d->mn->op == PTX_I_MULTIMEM_LD_REDUCE;
    x->type = t;
    x->sign = (uint8_t)ptx_mn_has(d->mn, PTX_Q_acc_f32);
    if (need(d, 2) || conv_addr(d->l, st, &st->ops[ld], x)) return -1;
    int n = conv_values(d, &st->ops[!ld], t, ld);
    if (n < 0) return -1;
    x->nd = (uint8_t)(ld ? n : 0), x->ns = (uint8_t)(ld ? 1 : 1 + n);
    return 0;
}

/* the asynchronous kind: cp.async, or st.async / red.async */
static int dec_async(const D *d)
{
    return d->mn->op == PTX_I_CP_ASYNC ? dec_cp_async(d) : dec_remote_async(d);
}

/* Accepted without effect: fences (the executor is sequentially consistent), cache hints,
 * completion of asynchronous copies (done at issue), griddepcontrol, pmevent. */
static int dec_nop(const D *d) { (void)d; return 0; }

/* ret, exit, trap, brkpt: no operands */
static int dec_plain(const D *d)
{
    if (d->mn->op == PTX_I_BRKPT) d->x->flags |= XF_BRKPT;
    return need(d, 0);
}

/* nanosleep t (§9.7.17.2): ends the warp's time slice */
static int dec_sleep(const D *d)
{
    if (need(d, 1) || conv(d, 0, ISA_T_U32, &d->x->s[0])) return -1;
    d->x->ns = 1;
    return 0;
}

/* createpolicy ... d, ... (§9.7.8.17): d = 0 (policies are hints) */
static int dec_policy(const D *d)
{
    if (d->st->nops < 1) return need(d, 1);
    if (conv(d, 0, ISA_T_B64, &d->x->d[0])) return -1;
    d->x->nd = 1;
    return 0;
}

/* bar{.cta}.sync/.arrive a{, b}, bar.red.op d, a{, b}, {!}c, barrier{.aligned}...
 * (§9.7.12.1); bar is always .aligned */
static int dec_bar(const D *d)
{
    xinsn *x = d->x;
    const ptx_mnemonic *mn = d->mn;
    int nops = d->st->nops;
    if (mn->op == PTX_I_BAR || ptx_mn_given(mn, PTX_QC_ALIGNED)) x->flags |= XF_ALIGNED;
    if (ptx_mn_has(mn, PTX_Q_red)) {
        x->mode = ptx_mn_has(mn, PTX_Q_popc)  ? BAR_RED_POPC
                  : ptx_mn_has(mn, PTX_Q_and) ? BAR_RED_AND
                                              : BAR_RED_OR;
        if (nops != 3 && nops != 4) return need(d, 3);
        if (conv(d, 0, x->mode == BAR_RED_POPC ? ISA_T_U32 : ISA_T_PRED, &x->d[0]) ||
            conv(d, 1, ISA_T_U32, &x->s[0]) || conv(d, nops - 1, ISA_T_PRED, &x->s[2]))
            return -1;
        x->nd = 1;
        if (nops == 4) { if (conv(d, 2, ISA_T_U32, &x->s[1])) return -1; }
        else x->s[1].kind = XO_NONE;
        x->ns = 3;
        return 0;
    }
    x->mode = ptx_mn_has(mn, PTX_Q_arrive) ? BAR_ARRIVE : BAR_SYNC;
    if (nops != 1 && nops != 2) return need(d, 1);
    if (conv(d, 0, ISA_T_U32, &x->s[0])) return -1;
    if (nops == 2) { if (conv(d, 1, ISA_T_U32, &x->s[1])) return -1; }
    else x->s[1].kind = XO_NONE;
    x->ns = 2;
    return 0;
}

/* bar.warp.sync membermask (§9.7.12.2) */
static int dec_barwarp(const D *d)
{
    if (need(d, 1) || conv(d, 0, ISA_T_B32, &d->x->s[0])) return -1;
    d->x->ns = 1;
    return 0;
}

/* barrier.cluster.arrive{.sem}{.aligned}, barrier.cluster.wait{.acquire}{.aligned} (§9.7.12.3) */
static int dec_barcluster(const D *d)
{
    xinsn *x = d->x;
    if (need(d, 0)) return -1;
    if (ptx_mn_has(d->mn, PTX_Q_arrive)) x->mode = BAR_ARRIVE;
    else if (ptx_mn_has(d->mn, PTX_Q_wait)) x->mode = BAR_SYNC;
    else
        return dfail(d, "found %s, expected barrier.cluster.arrive or barrier.cluster.wait",
                     d->st->opcode);
    if (ptx_mn_given(d->mn, PTX_QC_ALIGNED)) x->flags |= XF_ALIGNED;
    return 0;
}

/* shfl{.sync}.mode.b32 d{|p}, a, b, c{, membermask} (§9.7.8.5-6) */
static int dec_shfl(const D *d)
{
    xinsn *x = d->x;
    const ptx_mnemonic *mn = d->mn;
    int sync = mn->op == PTX_I_SHFL_SYNC;
    x->mode = ptx_mn_has(mn, PTX_Q_up)     ? 0
              : ptx_mn_has(mn, PTX_Q_down) ? 1
              : ptx_mn_has(mn, PTX_Q_bfly) ? 2
                                           : 3;
    if (need(d, sync ? 5 : 4) || conv_pair(d, 0, ISA_T_B32, 0)) return -1;
    for (int i = 1; i < d->st->nops; i++)
        if (conv(d, i, ISA_T_B32, &x->s[i - 1])) return -1;
    if (!sync) { x->s[3].kind = XO_IMM; x->s[3].imm = 0xffffffffu; x->flags |= XF_NOSYNC; }
    x->ns = 4;
    return 0;
}

/* vote{.sync}.mode d, {!}a{, membermask} (§9.7.12.8-9) */
static int dec_vote(const D *d)
{
    xinsn *x = d->x;
    const ptx_mnemonic *mn = d->mn;
    int sync = mn->op == PTX_I_VOTE_SYNC;
    x->mode = ptx_mn_has(mn, PTX_Q_all) ? VOTE_ALL : ptx_mn_has(mn, PTX_Q_any) ? VOTE_ANY
            : ptx_mn_has(mn, PTX_Q_uni) ? VOTE_UNI : VOTE_BALLOT;
    if (need(d, sync ? 3 : 2) ||
        conv(d, 0, x->mode == VOTE_BALLOT ? ISA_T_B32 : ISA_T_PRED, &x->d[0]) ||
        conv(d, 1, ISA_T_PRED, &x->s[0]))
        return -1;
    x->nd = 1;
    if (sync) { if (conv(d, 2, ISA_T_B32, &x->s[1])) return -1; }
    else { x->s[1].kind = XO_IMM; x->s[1].imm = 0xffffffffu; x->flags |= XF_NOSYNC; }
    x->ns = 2;
    return 0;
}

/* match.{any,all}.sync.type d{|p}, a, membermask (§9.7.12.10) */
static int dec_match(const D *d)
{
    xinsn *x = d->x;
    x->mode = (uint8_t)ptx_mn_has(d->mn, PTX_Q_all);
    if (need(d, 3) || conv_pair(d, 0, ISA_T_B32, 0) || conv(d, 1, x->type, &x->s[0]) ||
        conv(d, 2, ISA_T_B32, &x->s[1]))
        return -1;
    x->ns = 2;
    return 0;
}

/* redux.sync.op.type d, a, membermask (§9.7.12.12): mode 0..5 = add min max and or xor */
static int dec_redux(const D *d)
{
    xinsn *x = d->x;
    isa_type t = x->type;
    static const int8_t mode_of[ISA_ATOM_COUNT] = { [ISA_ATOM_NONE] = -1, [ISA_ATOM_ADD] = 0,
        [ISA_ATOM_MIN] = 1, [ISA_ATOM_MAX] = 2, [ISA_ATOM_AND] = 3, [ISA_ATOM_OR] = 4,
        [ISA_ATOM_XOR] = 5, [ISA_ATOM_SUB] = -1, [ISA_ATOM_EXCH] = -1, [ISA_ATOM_CAS] = -1,
        [ISA_ATOM_INC] = -1, [ISA_ATOM_DEC] = -1, [ISA_ATOM_MUL] = -1, [ISA_ATOM_DIV] = -1 };
    int m = mode_of[d->mn->aop];
    x->mode = (uint8_t)m;
    if (t == ISA_T_F32 && (m == 1 || m == 2)) {   /* redux.sync.min/max{.abs}{.NaN}.f32 (sm_100a) */
        x->flags |= XF_FLOAT;
        if (ptx_mn_has(d->mn, PTX_Q_abs)) x->flags |= XF_ABS;
        if (ptx_mn_has(d->mn, PTX_Q_NaN)) x->flags |= XF_NAN;
    } else if (m < 0 || (t != ISA_T_U32 && t != ISA_T_S32 && t != ISA_T_B32))
        return dfail(d, "found an unsupported redux.sync form, expected .add/.min/.max on "
                        ".u32/.s32, .and/.or/.xor on .b32 or .min/.max on .f32");
    if (need(d, 3) || conv(d, 0, t, &x->d[0]) || conv(d, 1, t, &x->s[0]) ||
        conv(d, 2, ISA_T_B32, &x->s[1]))
        return -1;
    x->nd = 1;
    x->ns = 2;
    return 0;
}

/* activemask.b32 d (§9.7.12.11) */
static int dec_activemask(const D *d)
{
    if (need(d, 1) || conv(d, 0, ISA_T_B32, &d->x->d[0])) return -1;
    d->x->nd = 1;
    return 0;
}

/* elect.sync d|p, membermask (§9.7.12.14) */
static int dec_elect(const D *d)
{
    if (need(d, 2) || conv_pair(d, 0, ISA_T_B32, 1) || conv(d, 1, ISA_T_B32, &d->x->s[0]))
        return -1;
    d->x->ns = 1;
    return 0;
}

/* stacksave d, stackrestore a, alloca d, size{, align} (§9.7.15) */
static int dec_stack(const D *d)
{
    xinsn *x = d->x;
    isa_type t = x->type;
    if (d->mn->op == PTX_I_STACKSAVE) {
        if (need(d, 1) || conv(d, 0, t, &x->d[0])) return -1;
        x->nd = 1;
        return 0;
    }
    if (d->mn->op == PTX_I_STACKRESTORE) {
        if (need(d, 1) || conv(d, 0, t, &x->s[0])) return -1;
        x->ns = 1;
        return 0;
    }
    if (need_range(d, 2, 3) || conv(d, 0, t, &x->d[0]) || conv(d, 1, t, &x->s[0])) return -1;
    x->nd = 1;
    if (d->st->nops == 3) { if (conv(d, 2, ISA_T_U32, &x->s[1])) return -1; }
    else { x->s[1].kind = XO_IMM; x->s[1].imm = 8; }
    x->ns = 2;
    return 0;
}

/* The warp-wide path of a register computation whose operands are registers or constants:
 * operands become 32-lane arrays (registers by offset, constants broadcast here). */
static void alu_warp_path(L *l, xinsn *x)
{
    static const uint64_t zeros[32];
    int ns = x->ns, nd = x->nd;
    if (!x->fast || !x->fn || !isa_ops[x->isa.op].eval_warp || ns > ISA_WARP_NSRC ||
        nd > ISA_WARP_NDST)
        return;
    for (int i = 0; i < ns; i++) if (x->s[i].kind == XO_REG && x->s[i].neg) return;
    for (int i = 0; i < nd; i++) if (x->d[i].kind != XO_REG && x->d[i].kind != XO_SINK) return;
    for (int i = 0; i < ISA_WARP_NSRC; i++) {
        x->wsreg[i] = 0;
        if (i < ns && x->s[i].kind == XO_REG) {
            x->wsrc[i] = NULL;
            x->wsreg[i] = x->s[i].reg * 32;
            continue;
        }
        if (i >= ns || x->s[i].imm == 0) { x->wsrc[i] = zeros; continue; }
        uint64_t *c = xalloc(l, 32 * sizeof *c);
        for (int k = 0; k < 32; k++) c[k] = x->s[i].imm;
        x->wsrc[i] = c;
    }
    for (int i = 0; i < ISA_WARP_NDST; i++) {
        if (i < nd && x->d[i].kind == XO_REG) {
            x->wdreg[i] = x->d[i].reg * 32;
            x->wdm[i] = x->d[i].wmask;
        } else {
            x->wdsink |= (uint8_t)(1u << i);
            x->wdreg[i] = 0;
            x->wdm[i] = ~0ull;
        }
    }
    x->wfn = isa_warp_of(&x->isa);
}

/* Operands of a decoded register computation: destinations first (a d|p pair), then sources;
 * for mov pack/unpack (§9.7.8.4) the vector's elements, of the element width. */
static int alu_operands(const D *d, int vec_at, int nelem)
{
    xinsn *x = d->x;
    const ptx_stmt *st = d->st;
    const ptx_opnd *op = st->ops;
    isa_type lt = x->type, et = lt;
    int nd = isa_ndst(&x->isa), ns = isa_nsrc(&x->isa), k = 0, pd = 0;
    if (vec_at >= 0) {
        unsigned eb = isa_type_bits(lt) / (unsigned)nelem;
        et = eb == 8 ? ISA_T_B8 : eb == 16 ? ISA_T_B16 : eb == 32 ? ISA_T_B32 : ISA_T_B64;
    }
    if (nd > XMAX_OPS || ns > XMAX_OPS) return dfail(d, "found too many operands");
    if (vec_at == 0) {   /* unpack: {d0, d1, ...}, a */
        for (int i = 0; i < nd; i++)
            if (conv_opnd(d->l, st, &op[0].elems[i], et, &x->d[i])) return -1;
        pd = nd;
        k = 1;
    } else if (st->nops > 0 && nd > 0) {
        if (op[0].kind == PTX_OP_PAIR) {
            if (conv_opnd(d->l, st, &op[0].elems[0], lt, &x->d[0]) ||
                conv_opnd(d->l, st, &op[0].elems[1], ISA_T_PRED, &x->d[1]))
                return -1;
            pd = 2;
        } else {
            if (conv(d, 0, lt, &x->d[0])) return -1;
            pd = 1;
        }
        k = 1;
    }
    for (int i = pd; i < nd; i++) x->d[i].kind = XO_SINK;
    if (vec_at == 1) {   /* pack: d, {a, b, ...} */
        for (int i = 0; i < ns; i++)
            if (conv_opnd(d->l, st, &op[1].elems[i], et, &x->s[i])) return -1;
    } else {
        if (pd > nd || st->nops - k != ns)
            return dfail(d, "found %d operands, expected %d", st->nops, (nd > 0) + ns);
        for (int i = 0; i < ns; i++) {
            if (conv(d, k + i, lt, &x->s[i])) return -1;
            if (x->s[i].kind == XO_SINK)
                return lfail(d->l, op[k + i].pos.line, op[k + i].pos.col, st->text,
                             "found '_' as a source, expected a value");
        }
    }
    x->nd = (uint8_t)nd;
    x->ns = (uint8_t)ns;
    return 0;
}

/* Video instructions (§9.7.16): operand selectors are written on the register (`%r2.b0`,
 * `%r1.h10`, `%r3.b7654`; the PTX tokenizer keeps them in the name) and vmad sources may be
 * negated (`-%r3`).  The selectors of d, a, b and the negations of a, b, c go into the decoded
 * instruction (isa_video_select/isa_video_negate, ptx/isa.h); ops[] receives the operands
 * without them. */
static int video_operands(const D *d, ptx_opnd *ops, int nops)
{
    char why[200] = "";
    for (int i = 0; i < nops; i++) {
        ptx_opnd *o = &ops[i];
        if (i >= 1 && i <= 3 && o->minus) {
            if (isa_video_negate(&d->x->isa, i, why, sizeof why))
                return lfail(d->l, o->pos.line, o->pos.col, d->st->text, "found '-%s': %s",
                             o->name, why);
            o->minus = 0;
        }
        const char *dot = (o->kind == PTX_OP_REG || o->kind == PTX_OP_SYM) && o->name && i <= 2
                              ? strrchr(o->name, '.') : NULL;
        if (!dot || dot == o->name || (dot[1] != 'b' && dot[1] != 'h') ||
            !strchr("0123456789", dot[2] ? dot[2] : 'x'))
            continue;
        if (isa_video_select(&d->x->isa, i, dot + 1, why, sizeof why))
            return lfail(d->l, o->pos.line, o->pos.col, d->st->text, "found '%s': %s", o->name,
                         why);
        char *base = xalloc(d->l, (size_t)(dot - o->name) + 1);
        if (!base) return -1;
        memcpy(base, o->name, (size_t)(dot - o->name));
        o->name = base;
    }
    return 0;
}

/* Register computations (§9.7.1-9.7.8: kinds ALU, CARRY, PACK): decoded by the semantics table
 * (isa_decode), evaluated by its eval functions; the opcode-table row becomes the precise one
 * the table entry names (add.f32: §9.7.3.3). */
static int dec_alu(const D *d)
{
    xinsn *x = d->x;
    const ptx_stmt *st = d->st;
    char why[200] = "";
    int vec_at = -1, nelem = 0;
    if (d->mn->op == PTX_I_MOV && st->nops == 2)
        for (int i = 0; i < 2; i++)
            if (st->ops[i].kind == PTX_OP_VEC) { vec_at = i; nelem = st->ops[i].nelems; }
    if (isa_decode(st->opcode, ISA_T_NONE, &x->isa, why, sizeof why) ||
        (vec_at >= 0 && isa_mov_vector(&x->isa, vec_at == 0, nelem, why, sizeof why)))
        return dfail(d,
                     "found unsupported instruction '%s': %s, expected an instruction the executor "
                     "implements",
                     st->opcode, why);
    x->op = isa_ops[x->isa.op].popcode;
    x->kind = ptx_ops[x->op].kind;
    if (st->nops > 0 && st->ops[0].kind == PTX_OP_PAIR) isa_set_pair(&x->isa);
    if (isa_is_video(&x->isa)) {
        ptx_opnd ops[6];
        ptx_stmt vst = *st;
        if (st->nops > 6) return dfail(d, "found %d operands, expected at most 4", st->nops);
        memcpy(ops, st->ops, (size_t)st->nops * sizeof *ops);
        vst.ops = ops;
        D vd = *d;
        vd.st = &vst;
        if (video_operands(&vd, ops, st->nops) || alu_operands(&vd, -1, 0)) return -1;
    } else if (alu_operands(d, vec_at, nelem))
        return -1;
    x->fn = isa_ops[x->isa.op].eval;
    x->fast = 1;
    for (int i = 0; i < x->ns; i++)
        if (x->s[i].kind != XO_REG && x->s[i].kind != XO_IMM) x->fast = 0;
    alu_warp_path(d->l, x);
    /* probe the table now so that a missing semantics is a load error, not a run-time one */
    uint64_t zs[XMAX_OPS] = { 0 }, zd[XMAX_OPS];
    uint32_t cc = 0;
    if (isa_eval_cc(&x->isa, zs, zd, &cc, why, sizeof why))
        return dfail(d,
                     "found unsupported instruction '%s': %s, expected an instruction the executor "
                     "implements",
                     st->opcode, why);
    return 0;
}

/* wgmma.mma_async operands by size (register types are not compared, as elsewhere): d and a
 * 32-bit registers, a-desc/b-desc 64-bit registers, sp-meta a 32-bit register, scale-d a
 * predicate or the constant 0 or 1 (§9.7.14.5.2, §9.7.14.6.4); dv, av: the d and a vectors */
static int wg_sizes(const D *d, const xwgmma *g, const ptx_opnd *dv, const ptx_opnd *av)
{
    const xinsn *x = d->x;
    for (int k = 0; k < x->nvops; k++) {
        int na = g->nd + g->na, last = k == x->nvops - 1, bits = k < g->nd ? 32
                 : k < na ? (g->adesc ? 64 : 32) : k == na ? 64 : last ? 1 : k == na + 1 ? 32 : 0;
        const char *role = k < g->nd ? "an accumulator" : k < na ? (g->adesc ? "a-desc" : "A")
                           : k == na ? "b-desc" : last ? "scale-d" : "sp-meta";
        const ptx_opnd *o = k < g->nd ? &dv[k] : k < na ? &av[k - g->nd] : &d->st->ops[2 + k - na];
        const xopnd *v = &x->vops[k];
        if (!bits || (v->kind == XO_REG && v->rbits == bits) ||
            (last && v->kind == XO_IMM && v->imm <= 1))
            continue;
        return lfail(d->l, o->pos.line, o->pos.col, d->st->text,
                     "found %s as %s, expected %s (§9.7.14.5.2)",
                     v->kind == XO_REG ? "a register of another size" : "a constant", role,
                     last ? "a .pred register or 0 or 1" : bits == 64 ? "a 64-bit register"
                                                                       : "a 32-bit register");
    }
    return 0;
}

/* Warpgroup instructions (§9.7.14) and setmaxnreg (§9.7.17.5): the form by wgmma_decode
 * (exec/wgmma.c); wgmma.mma_async's operands d, a | a-desc, b-desc, {sp-meta, sp-sel,} scale-d,
 * immediates go to x->vops, the immediates into the decoded form. */
static int dec_wgmma(const D *d)
{
    const ptx_stmt *st = d->st;
    char why[300] = "";
    xwgmma *g = xalloc(d->l, sizeof *g);
    int avec = st->nops > 1 && st->ops[1].kind == PTX_OP_VEC;
    if (wgmma_decode(st->opcode, avec, g, why, sizeof why))
        return dfail(d, "found unsupported instruction '%s': %s", st->opcode, why);
    d->x->wg = g;
    int nfix = g->kind == WG_MMA ? 4 + 2 * g->sp : 0, nimm = g->kind == WG_MMA ? g->nimm
                                                   : g->kind == WG_WAIT || g->kind == WG_SETMAXNREG;
    if (need(d, nfix + nimm)) return -1;
    for (int i = 0; i < nimm; i++) {
        const ptx_opnd *o = &st->ops[nfix + i];
        if (o->kind != PTX_OP_INT)
            return lfail(d->l, o->pos.line, o->pos.col, st->text,
                         "found a non-constant operand, expected an integer constant (§%s)",
                         ptx_ops[d->mn->op].section);
        if (wgmma_imm(g, i, o->ival, why, sizeof why))
            return lfail(d->l, o->pos.line, o->pos.col, st->text, "%s", why);
    }
    if (g->kind != WG_MMA) return 0;
    const ptx_opnd *sel = &st->ops[4];   /* .sp: sp-sel, an integer constant (§9.7.14.6.4) */
    if (g->sp && (sel->kind != PTX_OP_INT || wgmma_sel(g, sel->ival, why, sizeof why)))
        return lfail(d->l, sel->pos.line, sel->pos.col, st->text, "%s",
                     sel->kind != PTX_OP_INT ? "found a non-constant sparsity selector, expected "
                     "an integer constant (§9.7.14.6.4)" : why);
    const ptx_opnd *dv, *av;
    int nd = vec_elems(&st->ops[0], &dv), na = vec_elems(&st->ops[1], &av), k = 0;
    if (nd != g->nd || st->ops[0].kind != PTX_OP_VEC)
        return lfail(d->l, st->ops[0].pos.line, st->ops[0].pos.col, st->text,
                     "found %d accumulator registers, expected {%d} (§9.7.14.5.1.1)", nd, g->nd);
    if (na != g->na)
        return lfail(d->l, st->ops[1].pos.line, st->ops[1].pos.col, st->text,
                     "found %d registers for A, expected 4 or a descriptor (§9.7.14.5.2)", na);
    xinsn *x = d->x;
    x->nvops = (uint16_t)(nd + na + nfix - 2);
    x->vops = xalloc(d->l, x->nvops * sizeof *x->vops);
    isa_type dt = g->dt == MT_F32 ? ISA_T_F32 : ISA_T_B32;
    for (int i = 0; i < nd; i++)
        if (conv_opnd(d->l, st, &dv[i], dt, &x->vops[k++])) return -1;
    for (int i = 0; i < na; i++)
        if (conv_opnd(d->l, st, &av[i], g->adesc ? ISA_T_B64 : ISA_T_B32, &x->vops[k++]))
            return -1;
    for (int i = 2; i < nfix; i++)
        if (conv(d, i, i == nfix - 1 ? ISA_T_PRED : i == 2 ? ISA_T_B64 : ISA_T_B32,
                 &x->vops[k++]))
            return -1;
    return wg_sizes(d, g, dv, av);
}

/* mma.sp (§9.7.13.5.3) d, a, b, c, e, f: the metadata e in d[nd] (the sources fill s[] with A, B
 * and C), the sparsity selector f a constant in the range the shape allows (§9.7.13.5.1) */
static int dec_mma_sp(const D *d, xmma *mm)
{
    const ptx_opnd *f = &d->st->ops[5];
    int lim = 4 / mma_sp_threads(mm);
    d->x->op = PTX_I_MMA_SP;   /* also for mma.sp::ordered_metadata, which tokenizes as mma */
    if (f->kind != PTX_OP_INT || f->ival < 0 || f->ival >= lim)
        return lfail(d->l, f->pos.line, f->pos.col, d->st->text,
                     "found a bad sparsity selector, expected a constant in 0..%d for this shape "
                     "(§9.7.13.5.1)",
                     lim - 1);
    mm->sel = (uint8_t)f->ival;
    return conv(d, 4, ISA_T_B32, &d->x->d[mm->nd]);
}

/* wmma (§9.7.13.3): wmma.load d, [p] {, stride}; wmma.store [p], r {, stride}; wmma.mma d, a, b,
 * c (vectors of registers).  The sources go to the xwmma (exec/wmma.h), the destinations to d[]. */
static int dec_wmma(const D *d, xwmma *xw)
{
    xinsn *x = d->x;
    const ptx_stmt *st = d->st;
    xmma *mm = &xw->mm;
    int mma = mm->kind == MM_WMMA_MMA, ld = mm->kind == MM_WMMA_LOAD;
    if (mma ? need(d, 4) : need_range(d, 2, 3)) return -1;
    mm->stride = (uint8_t)(!mma && st->nops == 3);
    if (!mma) {
        if (conv_addr(d->l, st, &st->ops[ld ? 1 : 0], x)) return -1;
        xw->s[xw->ns++] = x->s[0];
    }
    /* the vectors: operand index, register count, destination */
    const int vop[4] = { mma || ld ? 0 : 1, 1, 2, 3 }, nv = mma ? 4 : 1;
    const int cnt[4] = { ld || mma ? mm->nd : mm->nc, mm->na, mm->nb, mm->nc };
    for (int i = 0; i < nv; i++) {
        const ptx_opnd *el;
        int n = vec_elems(&st->ops[vop[i]], &el), dst = i == 0 && (mma || ld);
        if (n != cnt[i])
            return lfail(d->l, st->ops[vop[i]].pos.line, st->ops[vop[i]].pos.col, st->text,
                         "found %d registers, expected %d (§9.7.13.3.1)", n, cnt[i]);
        for (int k = 0; k < n; k++) {
            xopnd *o = dst ? &x->d[k] : &xw->s[xw->ns++];
            if (conv_opnd(d->l, st, &el[k], ISA_T_B32, o)) return -1;
            if (o->kind != XO_REG)
                return lfail(d->l, el[k].pos.line, el[k].pos.col, st->text,
                             "found a fragment element that is not a register, expected a "
                             "register (§9.7.13.3.1)");
        }
    }
    /* the stride: a 32-bit integer (§9.7.13.3.3) */
    const ptx_opnd *so = &st->ops[2];
    if (mm->stride && conv(d, 2, ISA_T_U32, &xw->s[xw->ns++])) return -1;
    if (mm->stride && (so->kind == PTX_OP_REG ? xw->s[xw->ns - 1].rbits != 32
                                              : so->kind != PTX_OP_INT))
        return lfail(d->l, so->pos.line, so->pos.col, st->text,
                     "found a stride that is not a 32-bit integer, expected a .b32/.u32/.s32 "
                     "register or an integer (§9.7.13.3.3)");
    x->nd = (uint8_t)(mma || ld ? mm->nd : 0);
    x->ns = 0;
    return 0;
}

/* Warp-level matrix instructions (§9.7.13.4): mma.sync.aligned d, a, b, c (vectors of registers),
 * ldmatrix {d...}, [p]; stmatrix [p], {r...}; movmatrix d, a; wmma (§9.7.13.3, dec_wmma).  The
 * form is decoded by mma_decode (exec/mma.c). */
static int dec_mma(const D *d)
{
    xinsn *x = d->x;
    const ptx_stmt *st = d->st;
    char why[300] = "";
    if (!strncmp(st->opcode, "wgmma.", 6)) return dec_wgmma(d);
    int w = !strncmp(st->opcode, "wmma.", 5);
    xmma *mm = xalloc(d->l, w ? sizeof(xwmma) : sizeof(xmma));
    if ((w ? wmma_decode : mma_decode)(st->opcode, mm, why, sizeof why))
        return dfail(d, "found unsupported instruction '%s': %s, expected an instruction the "
                        "executor implements", st->opcode, why);
    x->mm = mm;
    x->space = (uint8_t)space_of(d->mn->space, SP_GENERIC);
    if (w) return dec_wmma(d, (xwmma *)mm);
    if (mm->kind == MM_MMA) {
        const int cnt[4] = { mm->nd, mm->na, mm->nb, mm->nc };
        int ts[4] = { mm->dt, mm->at, mm->bt, mm->ct }, ns = 0;
        if (need(d, mm->sp ? 6 : 4) || (mm->sp && dec_mma_sp(d, mm))) return -1;
        for (int i = 0; i < 4; i++) {
            const ptx_opnd *el;
            int n = vec_elems(&st->ops[i], &el);
            if (n != cnt[i])
                return lfail(d->l, st->ops[i].pos.line, st->ops[i].pos.col, st->text,
                             "found %d registers, expected %d (§9.7.13.4)", n, cnt[i]);
            isa_type t = ts[i] == MT_F64 ? ISA_T_F64 : ts[i] == MT_F32 ? ISA_T_F32 : ISA_T_B32;
            for (int k = 0; k < n; k++)
                if (conv_opnd(d->l, st, &el[k], t, i == 0 ? &x->d[k] : &x->s[ns++])) return -1;
        }
        x->nd = mm->nd;
        x->ns = (uint8_t)ns;
        return 0;
    }
    if (mm->kind == MM_MOVMATRIX) {
        if (need(d, 2) || conv(d, 0, ISA_T_B32, &x->d[0]) || conv(d, 1, ISA_T_B32, &x->s[0]))
            return -1;
        x->nd = x->ns = 1;
        return 0;
    }
    int ld = mm->kind == MM_LDMATRIX;
    if (need(d, 2) || conv_addr(d->l, st, &st->ops[ld ? 1 : 0], x)) return -1;
    const ptx_opnd *el;
    int n = vec_elems(&st->ops[ld ? 0 : 1], &el);
    if (n != mm->num)
        return lfail(d->l, st->ops[ld ? 0 : 1].pos.line, st->ops[ld ? 0 : 1].pos.col, st->text,
                     "found %d registers, expected %d (§9.7.13.4.15)", n, mm->num);
    for (int k = 0; k < n; k++)
        if (conv_opnd(d->l, st, &el[k], ISA_T_B32, ld ? &x->d[k] : &x->s[1 + k])) return -1;
    x->nd = (uint8_t)(ld ? n : 0);
    x->ns = (uint8_t)(ld ? 1 : 1 + n);
    return 0;
}

/* MISC: setmaxnreg checks its count (exec/wgmma.c); the others have nothing to decode */
static int dec_misc(const D *d)
{
    return d->mn->op == PTX_I_SETMAXNREG ? dec_wgmma(d) : 0;
}

/* tensor memory access (exec/tma.c): tma_decode's operand plan into source slots */
static int dec_tma(const D *d)
{
    static const uint8_t ty[] = { [TO_ADDR] = ISA_T_U64, [TO_U16] = ISA_T_U16, [TO_S32] = ISA_T_S32,
                                  [TO_U32] = ISA_T_U32, [TO_B64] = ISA_T_B64 };
    xtma *t = xalloc(d->l, sizeof *t);
    char err[400];
    int at;
    if (tma_decode(d->mn, d->st, t, err, sizeof err, &at)) {
        if (at < 0) return dfail(d, "%s", err);
        const ptx_opnd *o = &d->st->ops[at];
        return lfail(d->l, o->pos.line, o->pos.col, d->st->text, "%s", err);
    }
    for (int i = 0; i < t->nplan; i++) {
        const tma_opnd *p = &t->plan[i];
        ptx_opnd o = d->st->ops[p->op];
        if (o.kind == PTX_OP_ADDR && o.nelems == 1)   /* [tensorMap, {c0, ...}] */
            o.nelems = o.elems[0].nelems, o.elems = o.elems[0].elems;
        if (p->elem >= 0) o = o.elems[p->elem];
        xopnd *s = &d->x->s[p->slot];
        if (p->how == TO_ADDR) {
            xinsn tx;
            memset(&tx, 0, sizeof tx);
            o.nelems = 0;
            if (conv_addr(d->l, d->st, &o, &tx)) return -1;
            *s = tx.s[0];
            t->off[p->slot] = tx.aoff;
        } else if (conv_opnd(d->l, d->st, &o, (isa_type)ty[p->how], s)) return -1;
        if (p->slot >= d->x->ns) d->x->ns = (uint8_t)(p->slot + 1);
    }
    d->x->tm = t;
    return 0;
}

/* Texture and surface instructions (§9.7.9, §9.7.10): the mnemonic by tex_decode (exec/tex.c).
 * Sources: s[0] the handle (a .u64 register or a .texref/.surfref variable), s[1..] the
 * coordinates of [a, c], then tex.level's lod and the offsets e (tex, tld4) or the value(s)
 * (sust, sured).  Destinations: the vector (.v4, or .v2 of .f16x2), then the predicate. */
static int tex_handle(const D *d, const ptx_opnd *a, xopnd *x)
{
    if (a->kind != PTX_OP_ADDR || !a->name)
        return lfail(d->l, a->pos.line, a->pos.col, d->st->text,
                     "found no handle, expected [a, ...] with a .u64 register or a .texref / "
                     ".surfref variable");
    ptx_opnd h;
    memset(&h, 0, sizeof h);
    h.kind = a->name[0] == '%' ? PTX_OP_REG : PTX_OP_SYM;
    h.name = a->name; h.pos = a->pos;
    return conv_opnd(d->l, d->st, &h, ISA_T_U64, x);
}

static int tex_coord_ops(const D *d, const ptx_opnd *a, const xtex *t)
{
    if (a->nelems != 1)
        return lfail(d->l, a->pos.line, a->pos.col, d->st->text, a->nelems == 2 ?
                     "found a sampler operand [a, b, c], expected [a, c]: independent texturing "
                     "mode is not implemented (§9.7.9.1)" :
                     "found %d operands inside [ ], expected [a, c] (§9.7.9.3)", a->nelems + 1);
    const ptx_opnd *el;
    int n = vec_elems(&a->elems[0], &el), g = t->geom;
    if (n < t->ncoord || n > 4)
        return lfail(d->l, a->elems[0].pos.line, a->elems[0].pos.col, d->st->text,
                     "found %d coordinates, expected %d for .%s", n, t->ncoord,
                     (const char *[]){ "1d", "2d", "3d", "a1d", "a2d", "cube", "acube" }[g]);
    int arr = g == TG_A1D || g == TG_A2D || g == TG_ACUBE, tex = t->op <= TO_TLD4;
    for (int k = 0; k < t->ncoord; k++) {
        isa_type ty = arr && k == 0 ? ISA_T_U32
                      : tex && (t->fcoord || g >= TG_CUBE) ? ISA_T_F32 : ISA_T_S32;
        if (conv_opnd(d->l, d->st, &el[k], ty, &d->x->s[1 + k])) return -1;
    }
    return 0;
}

static int dec_tex_lookup(const D *d, xtex *t)
{
    xinsn *x = d->x;
    const ptx_stmt *st = d->st;
    if (st->nops < 2) return need(d, 2);
    const ptx_opnd *dst = &st->ops[0], *el;
    int nv = t->dtype == ISA_T_F16X2 ? 2 : 4;   /* .v2.f16x2 or .v4; then the predicate */
    if (dst->kind == PTX_OP_PAIR) {
        if (conv_opnd(d->l, st, &dst->elems[1], ISA_T_PRED, &x->d[nv])) return -1;
        t->pred = 1;
        dst = &dst->elems[0];
    }
    if (vec_elems(dst, &el) != nv)
        return dfail(d, "found %d destinations, expected %d (.v%d)", vec_elems(dst, &el), nv, nv);
    for (int k = 0; k < nv; k++)
        if (conv_opnd(d->l, st, &el[k], (isa_type)t->dtype, &x->d[k])) return -1;
    if (tex_handle(d, &st->ops[1], &x->s[0]) || tex_coord_ops(d, &st->ops[1], t)) return -1;
    int i = 2, ns = 1 + t->ncoord;
    if (t->level == 1) {   /* lod (its type follows .ctype): level 0 is read (no mipmaps) */
        if (i >= st->nops) return dfail(d, "found no lod operand, expected one (tex.level)");
        if (conv(d, i++, t->fcoord ? ISA_T_F32 : ISA_T_S32, &x->s[ns++])) return -1;
    }
    for (int g = 0; t->level == 2 && g < 2; g++, i++)   /* dPdx, dPdy: level 0 is read */
        if (i >= st->nops || st->ops[i].kind != PTX_OP_VEC)
            return dfail(d, "found no gradient vectors, expected dPdx, dPdy (tex.grad)");
    if (i < st->nops && st->ops[i].kind == PTX_OP_VEC) {   /* offsets e */
        if (t->geom == TG_CUBE || t->geom == TG_ACUBE)
            return dfail(d, "found an offset vector, expected none for cubemaps (§9.7.9.3)");
        int n = vec_elems(&st->ops[i], &el);
        t->noff = (uint8_t)(n < 3 ? n : 3);
        for (int k = 0; k < t->noff; k++)
            if (conv_opnd(d->l, st, &el[k], ISA_T_S32, &x->s[ns++])) return -1;
        i++;
    }
    if (i < st->nops)
        return dfail(d, "found a depth compare operand, expected none (depth textures are not "
                        "implemented)");
    x->nd = (uint8_t)(nv + t->pred);
    x->ns = (uint8_t)ns;
    return 0;
}

static int dec_surf(const D *d, xtex *t)
{
    xinsn *x = d->x;
    const ptx_stmt *st = d->st;
    int ld = t->op == TO_SULD;
    if (need(d, 2)) return -1;
    const ptx_opnd *a = &st->ops[ld ? 1 : 0], *v = &st->ops[ld ? 0 : 1], *el;
    if (tex_handle(d, a, &x->s[0]) || tex_coord_ops(d, a, t)) return -1;
    int n = vec_elems(v, &el);
    if (n != t->vec)
        return lfail(d->l, v->pos.line, v->pos.col, st->text, "found %d values, expected %d", n,
                     t->vec);
    static const isa_type bt[9] = { [1] = ISA_T_B8, [2] = ISA_T_B16, [4] = ISA_T_B32,
                                    [8] = ISA_T_B64 };
    isa_type ty = t->op == TO_SURED ? (isa_type)t->redtype : bt[t->size];
    for (int k = 0; k < n; k++)
        if (conv_opnd(d->l, st, &el[k], ty, ld ? &x->d[k] : &x->s[1 + t->ncoord + k])) return -1;
    x->nd = (uint8_t)(ld ? n : 0);
    x->ns = (uint8_t)(1 + t->ncoord + (ld ? 0 : n));
    return 0;
}

static int dec_tex(const D *d)
{
    xinsn *x = d->x;
    const ptx_stmt *st = d->st;
    char why[300];
    xtex *t = xalloc(d->l, sizeof *t);
    if (tex_decode(st->opcode, t, why, sizeof why))
        return dfail(d, "found unsupported instruction '%s': %s", st->opcode, why);
    x->tx = t;
    if (t->op == TO_ISTYPEP) {
        x->nd = x->ns = 1;
        return need(d, 2) || conv(d, 0, ISA_T_PRED, &x->d[0]) || conv(d, 1, ISA_T_U64, &x->s[0]);
    }
    if (t->op == TO_TXQ || t->op == TO_SUQ) {
        x->nd = 1;
        x->ns = (uint8_t)(1 + t->level);
        if (need(d, 2 + t->level) || conv(d, 0, ISA_T_B32, &x->d[0])) return -1;
        if (st->ops[1].kind == PTX_OP_ADDR && st->ops[1].nelems)
            return dfail(d, "found coordinates, expected [a] (§9.7.9.5)");
        return tex_handle(d, &st->ops[1], &x->s[0]) ||
               (t->level && conv(d, 2, ISA_T_S32, &x->s[1])) ? -1 : 0;
    }
    return t->op <= TO_TLD4 ? dec_tex_lookup(d, t) : dec_surf(d, t);
}

static int dec_call(const D *d)
{
    d->x->uni = (uint8_t)ptx_mn_has(d->mn, PTX_Q_uni);
    return decode_call(d->l, d->st, d->x, d->cf);
}

/* The decoder of each kind; a kind without one is not executable (its rows are exec NO). */
typedef int (*decoder_fn)(const D *d);
static const decoder_fn decoders[PTX_K_COUNT] = {
    [PTX_K_ALU] = dec_alu,
    [PTX_K_CARRY] = dec_alu,
    [PTX_K_PACK] = dec_alu,
    [PTX_K_LD] = dec_ldst,
    [PTX_K_ST] = dec_ldst,
    [PTX_K_ATOM] = dec_atom,
    [PTX_K_RED] = dec_atom,
    [PTX_K_ASYNC] = dec_async,
    [PTX_K_MULTIMEM] = dec_multimem,
    [PTX_K_BULK] = dec_bulk,
    [PTX_K_ASYNC_GROUP] = dec_nop,
    [PTX_K_MBAR] = dec_mbar,
    [PTX_K_FENCE] = dec_nop,
    [PTX_K_BAR] = dec_bar,
    [PTX_K_BARWARP] = dec_barwarp,
    [PTX_K_BARCLUSTER] = dec_barcluster,
    [PTX_K_SHFL] = dec_shfl,
    [PTX_K_VOTE] = dec_vote,
    [PTX_K_MATCH] = dec_match,
    [PTX_K_REDUX] = dec_redux,
    [PTX_K_ELECT] = dec_elect,
    [PTX_K_ACTIVEMASK] = dec_activemask,
    [PTX_K_BRA] = dec_bra,
    [PTX_K_BRX] = dec_brx,
    [PTX_K_CALL] = dec_call,
    [PTX_K_RET] = dec_plain,
    [PTX_K_EXIT] = dec_plain,
    [PTX_K_TRAP] = dec_plain,
    [PTX_K_CVTA] = dec_cvta,
    [PTX_K_ISSPACEP] = dec_isspacep,
    [PTX_K_MAPA] = dec_mapa,
    [PTX_K_GETCTARANK] = dec_getctarank,
    [PTX_K_STACK] = dec_stack,
    [PTX_K_HINT] = dec_nop,
    [PTX_K_POLICY] = dec_policy,
    [PTX_K_SLEEP] = dec_sleep,
    [PTX_K_MISC] = dec_misc,
    [PTX_K_MMA] = dec_mma,
    [PTX_K_TENSORMAP] = dec_tma,
    [PTX_K_TEX] = dec_tex,
    [PTX_K_SURF] = dec_tex,
};

static int decode_insn(L *l, const ptx_stmt *st, xinsn *x, const xfunc *cf)
{
    ptx_mnemonic mn;
    ptx_mn_error me;
    if (ptx_mnemonic_parse(st->opcode, strlen(st->opcode), &mn, &me)) {
        if (mn.op == PTX_I_NONE)   /* keep the long-standing wording for unknown instructions */
            return lfail(l, st->pos.line, st->pos.col, st->text,
                         "found unsupported instruction '%s': %s, expected an instruction the "
                         "executor implements",
                         st->opcode, me.msg);
        return lfail(l, st->pos.line, st->pos.col + (int)me.off, st->text,
                     "found %s in '%s', expected a qualifier of §%s %s", me.msg, st->opcode,
                     ptx_ops[mn.op].section, ptx_ops[mn.op].mnemonic);
    }
    const ptx_opinfo *row = &ptx_ops[mn.op];
    if (row->exec == PTX_EX_NO || !decoders[row->kind])
        return lfail(l, st->pos.line, st->pos.col, st->text,
                     "found unsupported instruction '%s' (§%s %s: %s), expected an instruction the "
                     "executor implements",
                     st->opcode, row->section, row->mnemonic, row->doc);
    int multi = row->kind == PTX_K_TEX || row->kind == PTX_K_SURF || row->kind == PTX_K_TENSORMAP;
    for (int i = 0; i < st->nops && !multi; i++) {
        const ptx_opnd *o = &st->ops[i];   /* [a, b] and {d, ...}|p: §9.7.9-10, §9.7.8.24 only */
        if (o->kind == PTX_OP_ADDR && o->nelems)
            return lfail(l, o->pos.line, o->pos.col, st->text,
                         "found %d operands inside [ ], expected one address", o->nelems + 1);
        if (o->kind == PTX_OP_PAIR && o->elems[0].kind == PTX_OP_VEC)
            return lfail(l, o->pos.line, o->pos.col, st->text,
                         "found a vector with a predicate {...}|p, expected d|p or a vector");
    }
    x->op = mn.op;
    x->kind = row->kind;
    x->type = ptx_mn_type(&mn);
    D d = { l, st, &mn, x, cf };
    return decoders[row->kind](&d);
}

static int add_label(L *l, const char *name, int pc)
{
    XGROW(l, l->labels, l->nlabels, l->labcap);
    if (l->nlabels + 1 > l->labcap) return -1;
    int *np = xalloc(l, (size_t)l->labcap * sizeof *np);
    if (l->nlabels) memcpy(np, l->labelpc, (size_t)l->nlabels * sizeof *np);
    l->labelpc = np;
    l->labels[l->nlabels] = name; l->labelpc[l->nlabels] = pc; l->nlabels++;
    return 0;
}

static int add_lsym(L *l, const char *name, int kind, uint64_t off, uint32_t size)
{
    XGROW(l, l->lsyms, l->nlsyms, l->lcap);
    l->lsyms[l->nlsyms++] = (localsym){ name, kind, off, size };
    return 0;
}

static int builtin_func(const char *name)
{
    return !strcmp(name, "vprintf") || !strcmp(name, "__assertfail") || !strcmp(name, "malloc") ||
           !strcmp(name, "free");
}

/* Parameters and return values of function f: .reg ones are registers of the frame (§7.1);
 * kernel params lie at offsets of the launch's param buffer (§5.1.6.1), function params and
 * return values in the lane's frame param area (§5.1.6.2). */
static int layout_params(L *l, const ptx_func *f, xfunc *xf)
{
    xf->nparams = f->nparams; xf->nrets = f->nrets;
    xf->poff = xalloc(l, (size_t)(f->nparams + 1) * 4);
    xf->psz = xalloc(l, (size_t)(f->nparams + 1) * 4);
    xf->ptype = xalloc(l, (size_t)(f->nparams + 1) * sizeof(char *));
    xf->roff = xalloc(l, (size_t)(f->nrets + 1) * 4);
    xf->rsz = xalloc(l, (size_t)(f->nrets + 1) * 4);
    xf->preg = xalloc(l, (size_t)(f->nparams + 1) * 4);
    xf->rreg = xalloc(l, (size_t)(f->nrets + 1) * 4);
    xf->pregbits = xalloc(l, (size_t)(f->nparams + 1));
    xf->rregbits = xalloc(l, (size_t)(f->nrets + 1));
    for (int pass = 0; pass < 2; pass++) {
        const ptx_var *vs = pass ? f->rets : f->params;
        int n = pass ? f->nrets : f->nparams;
        for (int i = 0; i < n; i++) {
            const ptx_var *v = &vs[i];
            (pass ? xf->rreg : xf->preg)[i] = -1;
            if (v->space != PTX_SP_REG) continue;
            if (f->is_entry)
                return lfail(l, v->pos.line, v->pos.col, NULL,
                             "found a .reg parameter '%s' on a kernel, expected .param (§5.1.6.1)",
                             v->name);
            if (v->vec > 1 || v->ndims)
                return lfail(l, v->pos.line, v->pos.col, NULL,
                             "found a vector or array .reg parameter '%s', expected a scalar",
                             v->name);
            XGROW(l, l->regs, l->nregs, l->regcap);
            l->regs[l->nregs++] = (regdecl){ v->name, l->nreg_next, 0, (uint8_t)reg_bits(v->type) };
            (pass ? xf->rreg : xf->preg)[i] = (int32_t)l->nreg_next;
            (pass ? xf->rregbits : xf->pregbits)[i] = (uint8_t)reg_bits(v->type);
            l->nreg_next++;
        }
    }
    uint32_t off = 0;
    for (int i = 0; i < f->nparams; i++) {
        const ptx_var *v = &f->params[i];
        xf->psz[i] = (uint32_t)var_size(v); xf->ptype[i] = v->type;
        if (v->space != PTX_SP_PARAM) continue;
        off = (uint32_t)align_up(off, var_align(v));
        xf->poff[i] = off;
        if (f->is_entry) add_lsym(l, v->name, XO_IMM, off, xf->psz[i]);
        else add_lsym(l, v->name, XO_FPARAMSYM, FRAME_PARAM + off, xf->psz[i]);
        off += xf->psz[i];
    }
    if (f->is_entry) { xf->kparam_size = off; off = 0; }
    for (int i = 0; i < f->nrets; i++) {
        const ptx_var *v = &f->rets[i];
        xf->rsz[i] = (uint32_t)var_size(v);
        if (v->space != PTX_SP_PARAM) continue;
        off = (uint32_t)align_up(off, var_align(v));
        xf->roff[i] = off;
        add_lsym(l, v->name, XO_FPARAMSYM, FRAME_PARAM + off, xf->rsz[i]);
        off += xf->rsz[i];
    }
    l->psize = off;
    return 0;
}

/* A declaration in a function body: .reg, .param (a call-site frame variable), .local, .shared. */
static int load_decl(L *l, const ptx_var *v)
{
    ptxeModule *m = l->m;
    if (v->space == PTX_SP_REG) {
        int cnt = v->nrange ? v->nrange : 1;
        XGROW(l, l->regs, l->nregs, l->regcap);
        l->regs[l->nregs++] =
            (regdecl){ v->name, l->nreg_next, v->nrange, (uint8_t)reg_bits(v->type) };
        if (v->vec > 1)
            return lfail(l, v->pos.line, v->pos.col, NULL,
                         "found a vector register '%s', expected scalar registers", v->name);
        l->nreg_next += (uint32_t)cnt;
    } else if (v->space == PTX_SP_PARAM) {
        l->psize = (uint32_t)align_up(l->psize, var_align(v));
        add_lsym(l, v->name, XO_FPARAMSYM, FRAME_PARAM + l->psize, (uint32_t)var_size(v));
        l->psize += (uint32_t)var_size(v);
    } else if (v->space == PTX_SP_LOCAL) {
        if (v->ninit)
            return lfail(l, v->pos.line, v->pos.col, NULL,
                         "found an initialiser on .local '%s', expected none", v->name);
        uint32_t a = var_align(v);
        l->lsize = (uint32_t)align_up(l->lsize, a);
        if (a > l->lalign) l->lalign = a;
        add_lsym(l, v->name, XO_LOCALSYM, l->lsize, 0);
        l->lsize += (uint32_t)var_size(v);
    } else if (v->space == PTX_SP_SHARED) {
        if (var_size(v) > SHARED_MAX ||
            align_up(m->shared_static, var_align(v)) + var_size(v) > SHARED_MAX)
            return lfail(l, v->pos.line, v->pos.col, NULL,
                         "found .shared '%s' of %llu bytes (%u before it), expected at most 228 "
                         "KiB of shared memory",
                         v->name, (unsigned long long)var_size(v), m->shared_static);
        m->shared_static = (uint32_t)align_up(m->shared_static, var_align(v));
        add_lsym(l, v->name, XO_IMM, m->shared_static, 0);
        m->shared_static += (uint32_t)var_size(v);
    } else
        return lfail(
            l, v->pos.line, v->pos.col, NULL,
            "found a function-scope %s declaration, expected .reg .param .local or .shared",
            v->space == PTX_SP_CONST ? ".const" : ".global");
    return 0;
}

/* An instruction statement: its position, guard, and the decoded instruction. */
static int load_insn(L *l, const ptx_stmt *s, xinsn *x, int fi, const xfunc *xf)
{
    x->func = fi;
    x->line = s->pos.line; x->col = s->pos.col; x->text = s->text;
    x->src_file = s->src_file; x->src_line = s->src_line;
    if (s->guard) {
        int bits;
        if (lookup_reg(l, s->guard, &x->guard, &bits) || bits != 1)
            return lfail(l, s->pos.line, s->pos.col, s->text,
                         "found guard '%s', expected a declared .pred register", s->guard);
        x->has_guard = 1; x->guard_neg = (uint8_t)s->guard_neg;
    }
    return decode_insn(l, s, x, xf);
}

/* Function fi: parameters, labels (pass 1), then declarations in scope order and instructions
 * (pass 2), then an implicit ret so that falling off the end returns. */
static int load_function(L *l, int fi, int *pc)
{
    ptxeModule *m = l->m;
    const ptx_func *f = &m->ast->funcs[fi];
    xfunc *xf = &m->funcs[fi];
    l->nregs = 0;
    l->nlsyms = 0;
    l->nlabels = 0;
    l->nreg_next = 0;
    l->psize = 0;
    l->lsize = 0;
    l->lalign = 1;
    l->curf = f;
    xf->start = *pc;
    for (int k = 0; k < 3; k++) {
        xf->reqntid[k] = f->reqntid[k];
        xf->reqnctapercluster[k] = f->reqnctapercluster[k];
    }
    xf->maxnreg = f->maxnreg; xf->minnctapersm = f->minnctapersm;
    xf->explicitcluster = f->explicitcluster || f->reqnctapercluster[0] > 0;
    if (layout_params(l, f, xf)) return -1;
    int n = 0;
    for (int i = 0; i < f->nbody; i++) {
        const ptx_stmt *s = &f->body[i];
        if (s->kind == PTX_ST_INSN) n++;
        else if (s->kind == PTX_ST_LABEL) add_label(l, s->name, *pc + n);
    }
    int scope_regs[64], scope_syms[64], depth = 0;
    for (int i = 0; i < f->nbody && !l->failed; i++) {
        const ptx_stmt *s = &f->body[i];
        if (s->kind == PTX_ST_OPEN) {
            if (depth == 64)
                return lfail(l, s->pos.line, s->pos.col, NULL,
                             "found more than 64 nested blocks, expected fewer");
            scope_regs[depth] = l->nregs; scope_syms[depth] = l->nlsyms; depth++;
        } else if (s->kind == PTX_ST_CLOSE) {
            if (depth > 0) { depth--; l->nregs = scope_regs[depth]; l->nlsyms = scope_syms[depth]; }
        } else if (s->kind == PTX_ST_DECL) {
            if (load_decl(l, &s->var)) return -1;
        } else if (s->kind == PTX_ST_INSN) {
            if (load_insn(l, s, &m->prog[(*pc)++], fi, xf)) return -1;
        }
    }
    if (l->failed) return -1;
    xf->nregs = (int)l->nreg_next;
    xf->psize = l->psize;
    xf->lsize = (uint32_t)align_up(l->lsize, 16);
    xf->lalign = l->lalign;
    if (xf->nregs > m->nregs_max) m->nregs_max = xf->nregs;
    if (xf->psize > m->psize_max) m->psize_max = xf->psize;
    xinsn *x = &m->prog[(*pc)++];
    memset(x, 0, sizeof *x);
    x->kind = PTX_K_RET;
    x->op = PTX_I_RET;
    x->func = fi;
    x->line = f->pos.line;
    x->col = f->pos.col;
    x->text = "(end of function)";
    xf->end = *pc;
    return 0;
}

/* After all functions are loaded: every direct call is checked against its callee (argument and
 * result counts, .reg or .param, sizes; §7.2); calls of functions without a body are allowed
 * for the CUDA runtime's __assertfail (a trap), vprintf (device printf) and malloc/free (the
 * device heap). */
static int resolve_calls(ptxeModule *m, L *l, char *err, size_t errlen)
{
    ptx_module *a = m->ast;
    int pc = m->nprog;
    /* calls of bodiless functions: only the CUDA runtime's vprintf, __assertfail, malloc, free */
    for (int i = 0; i < pc; i++) {
        xinsn *x = &m->prog[i];
        if (x->kind != PTX_K_CALL || x->target < 0) continue;
        xfunc *cf = &m->funcs[x->target];
        if (!cf->has_body) {
            if (!strcmp(cf->name, "__assertfail")) { x->kind = PTX_K_TRAP; continue; }
            if (!strcmp(cf->name, "vprintf")) {   /* device printf: exec/printf.c h_misc */
                x->kind = PTX_K_MISC;
                x->flags |= XF_VPRINTF;
                continue;
            }
            int ma = !strcmp(cf->name, "malloc");   /* device heap: exec/heap.c */
            if (ma || !strcmp(cf->name, "free")) {
                if (x->ncargs != 1 || x->ncrets != ma) {
                    snprintf(err, errlen,
                             "%s:%d:%d: found %d arguments and %d results, expected 1 and %d for "
                             "the device-side '%s' in `%s`",
                             a->filename, x->line, x->col, x->ncargs, x->ncrets, ma, cf->name,
                             x->text);
                    return -1;
                }
                x->kind = PTX_K_MISC;
                x->flags |= ma ? XF_MALLOC : XF_FREE;
                continue;
            }
            snprintf(err, errlen,
                     "%s:%d:%d: found a call of '%s', which has no body in the module, expected a "
                     "defined function in `%s`",
                     a->filename, x->line, x->col, cf->name, x->text);
            return -1;
        }
        if (x->ncargs != cf->nparams || x->ncrets != cf->nrets) {
            snprintf(
                err, errlen,
                "%s:%d:%d: found %d arguments and %d results, expected %d and %d for '%s' in `%s`",
                a->filename, x->line, x->col, x->ncargs, x->ncrets, cf->nparams, cf->nrets,
                cf->name, x->text);
            return -1;
        }
        x->carg_size = xalloc(l, (size_t)(x->ncargs + 1) * 4);
        x->cret_size = xalloc(l, (size_t)(x->ncrets + 1) * 4);
        for (int k = 0; k < x->ncargs; k++) x->carg_size[k] = cf->psz[k];
        for (int k = 0; k < x->ncrets; k++) x->cret_size[k] = cf->rsz[k];
        for (int k = 0; k < x->ncargs + x->ncrets; k++) {
            int isarg = k < x->ncargs, j = isarg ? k : k - x->ncargs;
            int reg = (isarg ? cf->preg : cf->rreg)[j] >= 0,
                byreg = (isarg ? x->carg_off : x->cret_off)[j] == NOPARAM;
            if (reg != byreg) {
                snprintf(err, errlen,
                         "%s:%d:%d: found a %s as %s %d of '%s', which is declared .%s, expected a "
                         "%s in `%s`",
                         a->filename, x->line, x->col, byreg ? "register" : ".param variable",
                         isarg ? "argument" : "result", j + 1, cf->name, reg ? "reg" : "param",
                         reg ? "register" : ".param variable", x->text);
                return -1;
            }
            uint32_t vsz = (isarg ? x->carg_vsz : x->cret_vsz)[j],
                     need = (isarg ? cf->psz : cf->rsz)[j];
            if (!byreg &&
                vsz < need) { /* the callee reads/writes `need` bytes of the caller's variable */
                snprintf(err, errlen,
                         "%s:%d:%d: found a %u-byte .param variable as %s %d of '%s', expected at "
                         "least %u bytes in `%s`",
                         a->filename, x->line, x->col, vsz, isarg ? "argument" : "result", j + 1,
                         cf->name, need, x->text);
                return -1;
            }
        }
    }
    return 0;
}

int exec_load(ptxeCtx *ctx, ptxeModule *m, char *err, size_t errlen)
{
    L l; memset(&l, 0, sizeof l);
    l.m = m; l.err = err; l.errlen = errlen;
    ptx_module *a = m->ast;
    if (a->address_size == 32)
        ctx->addr32 = 1; /* allocations (and this module's globals) below 4 GiB */
    m->nfuncs = a->nfuncs;
    m->funcs = xalloc(&l, (size_t)(a->nfuncs + 1) * sizeof *m->funcs);
    m->fhandles = xalloc(&l, (size_t)(a->nfuncs + 1) * sizeof *m->fhandles);
    int total = 0;
    for (int i = 0; i < a->nfuncs; i++) {
        m->funcs[i].name = a->funcs[i].name;
        m->funcs[i].is_entry = a->funcs[i].is_entry;
        m->funcs[i].has_body = a->funcs[i].has_body;
        m->funcs[i].start = m->funcs[i].end = -1;
        m->fhandles[i] = (ptxeFunction){ m, i };
        for (int j = 0; j < a->funcs[i].nbody; j++)
            total += a->funcs[i].body[j].kind == PTX_ST_INSN;
        total++;
    }
    /* a function may be declared (prototype) and defined later: point declarations at the body */
    for (int i = 0; i < a->nfuncs; i++) {
        if (a->funcs[i].has_body) continue;
        int def = -1;
        for (int j = 0; j < a->nfuncs; j++)
            if (j != i && a->funcs[j].has_body && !strcmp(a->funcs[j].name, a->funcs[i].name))
                def = j;
        if (def >= 0) m->funcs[i].name = "";   /* lookups find the definition */
        else if (!builtin_func(a->funcs[i].name) &&
                 !a->funcs[i].is_entry) { /* calls to it are rejected below */
        }
    }
    m->prog = xalloc(&l, (size_t)(total + 1) * sizeof *m->prog);
    if (layout_module_vars(&l)) return -1;
    int pc = 0;
    for (int i = 0; i < a->nfuncs; i++) {
        if (!a->funcs[i].has_body) continue;
        if (load_function(&l, i, &pc)) return -1;
    }
    m->nprog = pc;
    if (resolve_calls(m, &l, err, errlen)) return -1;
    (void)ctx;
    return 0;
}
