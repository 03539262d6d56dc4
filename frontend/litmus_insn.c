/* frontend/litmus_insn.c — one cell of a litmus test: labels, guard and one instruction.
 *
 * A memory instruction is read in three steps: its dot-separated qualifiers are collected
 * (collect_quals), checked (check_ptx_* against the PTX ISA when the instruction is written in
 * real PTX spelling, check_dat3m against the Dat3M grammar otherwise), then mapped to the
 * model's vocabulary (semantics, scope, proxy, access size).  An instruction is in real PTX
 * spelling when it names a type or a state space (`ld.global.u32`); the Dat3M dialect
 * (`ld.acquire.gpu r0, x`) names neither.  The rules come from ISA 8.4 §9.7.8.8 ld,
 * §9.7.8.11 st, §9.7.12.5 atom, §9.7.12.6 red, §9.7.12.4 fence/membar, §9.7.12.1 bar; what
 * ptxas accepts is recorded in tests/data/ptx-forms.tsv and tests/test_forms.c holds the
 * parser to it.  The words of a mnemonic are read by THE tokenizer of the PTX vocabulary
 * (ptx/mnemonic.h); what an ALU instruction computes is decoded by ptx/isa (isa_decode). */
#include "frontend/litmus_int.h"
#include "base/alloc.h"
#include "ptx/mnemonic.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------- words ---------- */

typedef struct { const char *w; int v; } word;

static int lookup(const word *ws, const char *s)
{
    for (int i = 0; ws[i].w; i++)
        if (!strcmp(ws[i].w, s)) return ws[i].v;
    return -1;
}

/* ---------- qualifiers ---------- */

typedef struct {
    int sem, scope, space;       /* -1 when absent */
    int volatile_, mmio, nc, noftz, cop, hint, vec, unified;
    isa_type type;
    int ntypes;
    isa_atom_op aop;
    char cop_word[8];
} quals;

typedef lp_cell cell;   /* frontend/litmus_int.h */


/* The model's vocabulary for the tokenizer's values */
static int sem_of(int ptx_sem)
{
    static const int map[] = { [PTX_SEM_WEAK] = SEM_WEAK, [PTX_SEM_RELAXED] = SEM_RELAXED,
        [PTX_SEM_ACQUIRE] = SEM_ACQUIRE, [PTX_SEM_RELEASE] = SEM_RELEASE,
        [PTX_SEM_ACQ_REL] = SEM_ACQ_REL, [PTX_SEM_SC] = SEM_SC };
    return ptx_sem > PTX_SEM_NONE && ptx_sem < PTX_SEM_VOLATILE ? map[ptx_sem] : -1;
}
static int scope_of(int ptx_scope)
{
    static const int map[] = { [PTX_SCOPE_CTA] = SCOPE_CTA, [PTX_SCOPE_CLUSTER] = SCOPE_CLUSTER,
        [PTX_SCOPE_GPU] = SCOPE_GPU, [PTX_SCOPE_SYS] = SCOPE_SYS };
    return ptx_scope > PTX_SCOPE_NONE && ptx_scope <= PTX_SCOPE_SYS ? map[ptx_scope] : -1;
}
static int space_of(int ss)
{
    switch (ss) {
    case PTX_SS_NONE: return -1;
    case PTX_SS_GLOBAL: return SPACE_GLOBAL;
    case PTX_SS_SHARED: case PTX_SS_SHARED_CTA: return SPACE_SHARED_CTA;
    case PTX_SS_SHARED_CLUSTER: return SPACE_SHARED_CLUSTER;
    case PTX_SS_LOCAL: return SPACE_LOCAL;
    case PTX_SS_CONST: return SPACE_CONST;
    case PTX_SS_GENERIC: return SPACE_GENERIC;
    default: return SPACE_PARAM;
    }
}

/* Tokenizes the mnemonic of token mt (the shared vocabulary, ptx/mnemonic.h); an error is
   reported at the word it concerns. */
static int tokenize(parser *p, const token *mt, const char *text, size_t len, int shift,
                    ptx_mnemonic *m)
{
    ptx_mn_error e;
    if (!ptx_mnemonic_parse(text, len, m, &e)) return 0;
    token at = *mt;
    at.col += (int)e.off + shift;
    const char *want = !strncmp(e.msg, "unknown qualifier", 17)
                           ? "a qualifier of the PTX vocabulary (ISA §9.7)"
                       : !strncmp(e.msg, "a second", 8) || strstr(e.msg, "twice")
                           ? "each kind of qualifier at most once"
                           : "a PTX mnemonic with the qualifiers of ISA §9.7";
    lp_errat(p, &at, "found %s in '%.*s', expected %s", e.msg, mt->len, mt->s, want);
    return -1;
}

/* The qualifiers of a memory instruction from its tokenized mnemonic; words the model does not
   know for ld/st/atom/red are errors. */
static int collect_quals(parser *p, const token *mt, const ptx_mnemonic *m, quals *q)
{
    memset(q, 0, sizeof *q);
    q->sem = sem_of(m->sem);
    q->volatile_ = m->sem == PTX_SEM_VOLATILE;
    q->mmio = ptx_mn_given(m, PTX_QC_MMIO);
    q->scope = scope_of(m->scope);
    q->space = space_of(m->space);
    q->cop = m->cop != PTX_COP_NONE;
    if (q->cop) {
        for (int i = 0; i < m->nq; i++)
            if (m->q[i].cls == PTX_QC_COP)
                snprintf(q->cop_word, sizeof q->cop_word, "%s", ptx_qual_text((ptx_qid)m->q[i].id));
    }
    q->hint = m->evict || m->prefetch;
    q->nc = m->op == PTX_I_LD_NC;
    q->noftz = ptx_mn_has(m, PTX_Q_noftz);
    q->vec = m->vec > 1 ? m->vec : 0;
    q->ntypes = m->ntypes;
    q->type = ptx_mn_type(m);
    q->aop = (isa_atom_op)m->aop;
    if (m->space2) {
        lp_errat(p, mt, "found two state spaces in '%.*s', expected one", mt->len, mt->s);
        return -1;
    }
    for (int i = 0; i < m->nq; i++) {
        const ptx_qual *w = &m->q[i];
        int ok = w->cls == PTX_QC_SPACE || w->cls == PTX_QC_SEM || w->cls == PTX_QC_MMIO ||
                 w->cls == PTX_QC_SCOPE || w->cls == PTX_QC_VEC || w->cls == PTX_QC_TYPE ||
                 w->cls == PTX_QC_ATOMOP || w->cls == PTX_QC_COP || w->cls == PTX_QC_EVICT ||
                 w->cls == PTX_QC_PREFETCH || w->id == PTX_Q_noftz || w->id == PTX_Q_nc;
        if (w->cls == PTX_QC_CACHEHINT) {
            lp_errat(
                p, mt,
                "found '.%.*s' in '%.*s': cache-policy operands are not supported in litmus tests, "
                "expected the instruction without it",
                w->len, m->text + w->off, mt->len, mt->s);
            return -1;
        }
        if (!ok) {
            lp_errat(p, mt,
                     "found the qualifier '.%.*s' in '%.*s', expected a semantics (.weak .relaxed "
                     ".acquire "
                     ".release .acq_rel .volatile .mmio), a scope (.cta .cluster .gpu .sys), a "
                     "state space, a cache "
                     "operator or a type",
                     w->len, m->text + w->off, mt->len, mt->s);
            return -1;
        }
    }
    if (q->ntypes > 1) {
        lp_errat(p, mt, "found %d types in '%.*s', expected one", q->ntypes, mt->len, mt->s);
        return -1;
    }
    return 0;
}

/* ---------- checks against the ISA (real PTX spelling) ---------- */

#define TB(t) (1u << (t))
/* §9.7.8.8 ld / §9.7.8.11 st .type */
static const unsigned ldst_types = TB(ISA_T_B8) | TB(ISA_T_B16) | TB(ISA_T_B32) | TB(ISA_T_B64) |
    TB(ISA_T_U8) | TB(ISA_T_U16) | TB(ISA_T_U32) | TB(ISA_T_U64) | TB(ISA_T_S8) | TB(ISA_T_S16) |
    TB(ISA_T_S32) | TB(ISA_T_S64) | TB(ISA_T_F32) | TB(ISA_T_F64);
static const unsigned half_types =
    TB(ISA_T_F16) | TB(ISA_T_BF16) | TB(ISA_T_F16X2) | TB(ISA_T_BF16X2);

/* §9.7.12.5 atom / §9.7.12.6 red: the types each operation takes (what ptxas accepts, see
   tests/data/ptx-forms.tsv: bit-size operations on .b types, inc/dec on .u32, half-precision
   add with .noftz). */
static unsigned atom_op_types(isa_atom_op op, int red)
{
    switch (op) {
    case ISA_ATOM_AND: case ISA_ATOM_OR: case ISA_ATOM_XOR: return TB(ISA_T_B32) | TB(ISA_T_B64);
    case ISA_ATOM_EXCH: return red ? 0 : TB(ISA_T_B32) | TB(ISA_T_B64);
    case ISA_ATOM_CAS: return red ? 0 : TB(ISA_T_B16) | TB(ISA_T_B32) | TB(ISA_T_B64);
    case ISA_ATOM_ADD: return TB(ISA_T_U32) | TB(ISA_T_S32) | TB(ISA_T_U64) | TB(ISA_T_F32) |
                              TB(ISA_T_F64) | half_types;
    case ISA_ATOM_INC: case ISA_ATOM_DEC: return TB(ISA_T_U32);
    case ISA_ATOM_MIN:
    case ISA_ATOM_MAX: return TB(ISA_T_U32) | TB(ISA_T_S32) | TB(ISA_T_U64) | TB(ISA_T_S64);
    default: return 0;
    }
}

/* ld and st, §9.7.8.8 and §9.7.8.11. */
static const char *check_ptx_ldst(int store, const quals *q)
{
    static char m[200];
    if (!q->type) return "a type (.u32, .s64, .b8, ...)";
    if (!(ldst_types & TB(q->type))) {
        snprintf(
            m, sizeof m,
            "one of the types .b8 .b16 .b32 .b64 .u8 .u16 .u32 .u64 .s8 .s16 .s32 .s64 .f32 .f64 "
            "(§9.7.8.%s)",
            store ? "11" : "8");
        return m;
    }
    int sem = q->sem;
    if (store && (sem == SEM_ACQUIRE || sem == SEM_ACQ_REL || sem == SEM_SC))
        return "st with .weak, .relaxed, .release, .volatile or .mmio.relaxed (§9.7.8.11)";
    if (!store && (sem == SEM_RELEASE || sem == SEM_ACQ_REL || sem == SEM_SC))
        return "ld with .weak, .relaxed, .acquire, .volatile or .mmio.relaxed (§9.7.8.8)";
    if (q->volatile_ && sem >= 0)
        return ".volatile without another semantics qualifier (they are mutually exclusive)";
    if (q->mmio) {
        if (sem != SEM_RELAXED)
            return ".mmio together with .relaxed (§9.7.8.8: they must be specified together)";
        if (q->scope != SCOPE_SYS)
            return ".mmio.relaxed with the .sys scope (the only valid scope for mmio)";
        if (q->space >= 0 && q->space != SPACE_GLOBAL)
            return ".mmio only with .global or generic addressing";
        if (q->cop || q->hint) return ".mmio without cache operators or hints";
        return NULL;
    }
    int strong = q->volatile_ || (sem >= 0 && sem != SEM_WEAK);
    if (q->volatile_ && q->scope >= 0)
        return ".volatile without a scope (it has the semantics of .relaxed.sys)";
    if ((sem < 0 || sem == SEM_WEAK) && !q->volatile_ && q->scope >= 0)
        return "a scope only with .relaxed, .acquire or .release (a weak access has no scope)";
    if (strong && !q->volatile_ && q->scope < 0)
        return "a scope (.cta .cluster .gpu .sys) after .relaxed/.acquire/.release";
    if (store && q->space == SPACE_CONST)
        return "a writable state space (stores to .const are illegal, §9.7.8.11)";
    if (strong && q->space >= 0 && q->space != SPACE_GLOBAL && q->space != SPACE_SHARED_CTA &&
        q->space != SPACE_SHARED_CLUSTER)
        return ".volatile/.relaxed/.acquire/.release only with .global, .shared or generic "
               "addressing";
    if (strong && q->cop) return "no cache operator with .volatile/.relaxed/.acquire/.release";
    if (q->cop) {
        const char *ok = store ? "wb cg cs wt" : "ca cg cs lu cv";
        if (!strstr(ok, q->cop_word)) {
            snprintf(m, sizeof m, "a cache operator of %s: %s", store ? "st" : "ld", ok);
            return m;
        }
    }
    if (q->nc && (store || q->space != SPACE_GLOBAL || strong))
        return ".nc only on ld.global with weak semantics (§9.7.8.9)";
    return NULL;
}

/* atom and red, §9.7.12.5 and §9.7.12.6. */
static const char *check_ptx_atomic(int red, const quals *q)
{
    static char m[240];
    if (q->sem == SEM_WEAK || q->sem == SEM_SC || q->volatile_ || q->mmio)
        return red ? "red with .relaxed or .release (§9.7.12.6)"
                   : "atom with .relaxed, .acquire, .release or .acq_rel (§9.7.12.5)";
    if (red && (q->sem == SEM_ACQUIRE || q->sem == SEM_ACQ_REL))
        return "red with .relaxed or .release (a reduction is not a read operation, §8.4, "
               "§9.7.12.6)";
    if (q->space >= 0 && q->space != SPACE_GLOBAL && q->space != SPACE_SHARED_CTA &&
        q->space != SPACE_SHARED_CLUSTER)
        return "the .global or .shared state space, or generic addressing";
    if (q->cop) return "no cache operator";
    if (!q->aop) return "an operation: .add .min .max .inc .dec .and .or .xor .exch .cas";
    if (q->aop == ISA_ATOM_SUB || q->aop == ISA_ATOM_MUL || q->aop == ISA_ATOM_DIV)
        return "an operation of the ISA: atom has no .sub, .mul or .div (the Dat3M dialect, "
               "without a type, has them)";
    if (!q->type) return "a type (.b32, .u32, .s32, .u64, .f32, ...)";
    unsigned ok = atom_op_types(q->aop, red);
    if (!ok)
        return red ? "a reduction operation: .add .min .max .inc .dec .and .or .xor (§9.7.12.6)"
                   : "an operation";
    if (!(ok & TB(q->type))) {
        int n = snprintf(m, sizeof m, "a type of .%s:", isa_atom_name(q->aop));
        for (int t = 1; t < ISA_T_COUNT && n < (int)sizeof m - 10; t++)
            if (ok & TB(t))
                n += snprintf(m + n, sizeof m - (size_t)n, " .%s", isa_type_name((isa_type)t));
        return m;
    }
    int half = (half_types & TB(q->type)) != 0;
    if (half && !q->noftz) return ".noftz with a half-precision add (required, §9.7.12.5)";
    if (!half && q->noftz) return ".noftz only with .f16 .f16x2 .bf16 .bf16x2";
    return NULL;
}

/* Dat3M dialect: ld.MO{.SCOPE} r, x | st.MO{.SCOPE} x, v | atom.MO.SCOPE.OP | red.MO.SCOPE.OP
   (LitmusPTX.g4).  Combinations with no operation in the ISA are refused. */
static const char *check_dat3m(lit_ikind k, const quals *q)
{
    if (q->cop || q->hint || q->nc || q->noftz)
        return "the Dat3M dialect (no type): cache operators, hints, .nc and .noftz need real PTX "
               "spelling with a type";
    /* .volatile and .mmio are accepted without a type too (an extension), with the ISA's rules */
    if ((q->volatile_ || q->mmio) && (k == LI_ATOM || k == LI_RED))
        return "an atomic operation with .relaxed, .acquire, .release or .acq_rel";
    if (q->volatile_ && (q->sem >= 0 || q->scope >= 0))
        return ".volatile alone (it has the semantics of .relaxed.sys)";
    if (q->mmio && (q->sem != SEM_RELAXED || q->scope != SCOPE_SYS))
        return ".mmio.relaxed.sys (§9.7.8.8)";
    if (k == LI_LD && (q->sem == SEM_RELEASE || q->sem == SEM_ACQ_REL || q->sem == SEM_SC))
        return "a load with .weak, .relaxed or .acquire (the ISA has no such load)";
    if (k == LI_ST && (q->sem == SEM_ACQUIRE || q->sem == SEM_ACQ_REL || q->sem == SEM_SC))
        return "a store with .weak, .relaxed or .release (the ISA has no such store)";
    if ((k == LI_ATOM || k == LI_RED) && (q->sem == SEM_WEAK || q->sem == SEM_SC))
        return "an atomic operation with .relaxed, .acquire, .release or .acq_rel";
    if (k == LI_RED && (q->aop == ISA_ATOM_EXCH || q->aop == ISA_ATOM_CAS))
        return "a reduction operation: add sub and or xor min max inc dec (red has no result)";
    if ((k == LI_ATOM || k == LI_RED) && !q->aop)
        return "an operation: add sub mul div and or xor min max inc dec exch cas";
    return NULL;
}


static int parse_label_ref(cell *c, lit_insn *in)
{
    if (c->i >= c->b || lp_ctok(c)->k != TK_IDENT) {
        lp_expect_fail(c->p, lp_cnext(c), "a label");
        return -1;
    }
    in->target_name = lp_tokstr(lp_ctok(c));
    c->i++;
    return 0;
}

/* ---------- memory instructions ---------- */

/* Dat3M's proxy spellings (LitmusPTX.g4), read as the PTX instruction they name with a proxy */
typedef struct { const char *name, *ptx; lit_proxy proxy; } dat3m_op;
static const dat3m_op dat3m_ops[] = { { "tld", "ld", PROXY_TEXTURE },
                                      { "suld", "ld", PROXY_SURFACE },
                                      { "sust", "st", PROXY_SURFACE },
                                      { "suatom", "atom", PROXY_SURFACE },
                                      { "sured", "red", PROXY_SURFACE },
                                      { "cold", "ld", PROXY_CONSTANT },
                                      { NULL, NULL, 0 } };

/* Dat3M's localValue: `ld r, v` (any load mnemonic, no qualifier, a register or constant
   source) is a register move. */
static int parse_move(cell *c, lit_insn *in)
{
    char err[160];
    if (isa_decode("mov.s64", ISA_T_S64, &in->alu, err, sizeof err)) {
        lp_errat(c->p, lp_ctok(c), "internal: %s", err);
        return -1;
    }
    in->k = LI_ALU;
    in->ndst = 1;
    in->nsrc = 1;
    if (lp_cell_value(c, &in->dst[0], 1) || lp_cell_comma(c) ||
        lp_cell_value(c, &in->src[0], 0))
        return -1;
    return lp_cell_end(c, "ld");
}

static int is_move_form(cell *c, lit_ikind k, const ptx_mnemonic *m)
{
    /* tokens after the mnemonic: DST ',' VALUE (VALUE: number, '-' number, or a register) */
    if (k != LI_LD || m->nq || c->i + 2 >= c->b || !tok_punct(&c->p->tv.v[c->i + 1], ',')) return 0;
    const token *src = &c->p->tv.v[c->i + 2];
    if (src->k == TK_NUM || tok_punct(src, '-')) return 1;
    if (src->k != TK_IDENT) return 0;
    char *n = lp_tokstr(src);
    int reg = lit_find_reg(c->th, n) >= 0 || n[0] == '%' ||
              (n[0] == 'r' && n[1] && strspn(n + 1, "0123456789") == strlen(n + 1));
    int sym = lit_find_sym(c->p->t, n) >= 0;
    free(n);
    return reg && !sym;
}

/* Maps checked qualifiers to the model's vocabulary (ISA §8.4 operation types). */
static void apply_quals(parser *p, lit_insn *in, const quals *q, int ptx)
{
    int atomic = in->k == LI_ATOM || in->k == LI_RED;
    int sem = q->sem, scope = q->scope;
    in->volatile_ = q->volatile_;
    in->mmio = q->mmio;
    /* §9.7.8.8/§9.7.8.11: .volatile has the semantics of .relaxed.sys; .mmio is strong (§8.4.1)
       and only valid with .relaxed.sys */
    if (q->volatile_) { sem = SEM_RELAXED; scope = SCOPE_SYS; }
    /* defaults: ld/st are .weak; atom/red are .relaxed, scope .gpu (§9.7.12.5, §9.7.12.6) */
    if (sem < 0) sem = atomic ? SEM_RELAXED : SEM_WEAK;
    if (sem == SEM_WEAK) scope = SCOPE_NONE;     /* Dat3M may write a scope on .weak: no meaning */
    else if (scope < 0) scope = SCOPE_GPU;
    in->sem = (lit_sem)sem;
    in->scope = (lit_scope)scope;
    in->space = q->space < 0 ? SPACE_GENERIC : (lit_space)q->space;
    if (in->space == SPACE_CONST) in->proxy = PROXY_CONSTANT;
    if (q->nc) in->proxy = PROXY_TEXTURE;       /* §8.1: ld.global.nc is a texture access */
    in->type = q->type;
    in->size = q->type ? (int)isa_type_bits(q->type) / 8 : 0;
    in->aop = q->aop;
    in->ptx = ptx;
    if (in->proxy != PROXY_GENERIC) p->t->uses_proxies = 1;
    if (in->scope == SCOPE_CLUSTER) p->t->uses_cluster = 1;
}

/* {e0, e1, ...}: the c->nvel elements of a vector operand (§6.4.3), registers (or the sink `_`)
   for a load, registers or constants for a store */
static int parse_vector_opnd(cell *c, int dst)
{
    if (!tok_punct(lp_ctok(c), '{') || c->i >= c->b) {
        lp_expect_fail(c->p, lp_cnext(c),
                       c->nvel == 2 ? "a vector operand {a, b} of 2 elements"
                                    : "a vector operand {a, b, c, d} of 4 elements");
        return -1;
    }
    c->i++;
    for (int k = 0; k < c->nvel; k++) {
        if (k && lp_cell_comma(c)) return -1;
        if (tok_punct(lp_cnext(c), '[') || tok_punct(lp_cnext(c), '{')) {
            lp_expect_fail(c->p, lp_cnext(c), dst ? "a register" : "a register or a constant");
            return -1;
        }
        if (lp_cell_value(c, &c->vel[k], dst)) return -1;
        if (c->vel[k].k == OPD_SYM) {
            lp_expect_fail(c->p, &c->p->tv.v[c->i - 1], "a register or a constant");
            return -1;
        }
    }
    if (c->i >= c->b || !tok_punct(lp_ctok(c), '}')) {
        char want[64];
        snprintf(want, sizeof want, "'}' after %d elements (the access is .v%d)", c->nvel, c->nvel);
        lp_expect_fail(c->p, lp_cnext(c), want);
        return -1;
    }
    c->i++;
    return 0;
}

static int parse_memop_operands(cell *c, lit_insn *in)
{
    switch (in->k) {
    case LI_LD:
        in->ndst = 1;
        if ((c->nvel ? parse_vector_opnd(c, 1) : lp_cell_value(c, &in->dst[0], 1)) ||
            lp_cell_comma(c) || lp_cell_addr(c, &in->addr))
            return -1;
        return lp_cell_end(c, "load");
    case LI_ST:
        in->nsrc = 1;
        if (lp_cell_addr(c, &in->addr) || lp_cell_comma(c) ||
            (c->nvel ? parse_vector_opnd(c, 0) : lp_cell_value(c, &in->src[0], 0))) return -1;
        return lp_cell_end(c, "store");
    case LI_ATOM:
        in->ndst = 1;
        if (lp_cell_value(c, &in->dst[0], 1) || lp_cell_comma(c) || lp_cell_addr(c, &in->addr))
            return -1;
        in->nsrc = in->aop == ISA_ATOM_CAS ? 2 :
                   (in->aop == ISA_ATOM_INC || in->aop == ISA_ATOM_DEC) && !(c->i < c->b) ? 0 : 1;
        break;
    default: /* LI_RED */
        if (lp_cell_addr(c, &in->addr)) return -1;
        in->nsrc = 1;
        break;
    }
    for (int k = 0; k < in->nsrc; k++)
        if (lp_cell_comma(c) || lp_cell_value(c, &in->src[k], 0)) return -1;
    if (in->nsrc == 0) {
        if (in->ptx) {
            lp_expect_fail(c->p, lp_cend(c),
                           "',' and the bound operand b of atom.inc/atom.dec (§9.7.12.5)");
            return -1;
        }
        in->nsrc = 1;
        in->src[0].k = OPD_IMM;
        in->src[0].imm = -1; /* Dat3M: no bound, wrap at max */
    }
    return lp_cell_end(c, in->k == LI_ATOM ? "atom" : "red");
}

static int parse_memop(cell *c, lit_insn *in, lit_ikind k, lit_proxy proxy, const ptx_mnemonic *m,
                       const token *mt)
{
    parser *p = c->p;
    if (is_move_form(c, k, m)) return parse_move(c, in);
    in->k = k;
    in->proxy = proxy;
    int atomic = in->k == LI_ATOM || in->k == LI_RED;
    quals q;
    if (collect_quals(p, mt, m, &q)) return -1;
    if (q.vec && (atomic || q.vec > 4)) {
        lp_errat(
            p, mt,
            "found the vector access '.v%d' in '%.*s', expected .v2 or .v4 on ld or st: vector "
            "atomics are not supported in litmus tests",
            q.vec, mt->len, mt->s);
        return -1;
    }
    if (q.vec && q.type && q.vec * (int)isa_type_bits(q.type) > 128) {
        lp_errat(p, mt,
                 "found '%.*s' of %d bits, expected a vector of at most 128 bits (§5.4.2: .v4 .f64 "
                 "is not "
                 "allowed)",
                 mt->len, mt->s, q.vec * (int)isa_type_bits(q.type));
        return -1;
    }
    if (q.vec && !q.type) {
        lp_errat(
            p, mt,
            "found the vector access '%.*s' without a type, expected .v2/.v4 followed by a type",
            mt->len, mt->s);
        return -1;
    }
    c->nvel = q.vec;
    if (q.space == SPACE_PARAM) {
        lp_errat(p, mt,
                 "found the .param state space, expected .global, .shared, .local or .const: "
                 ".param (kernel and function parameters) is not supported in litmus tests");
        return -1;
    }
    int ptx = q.type != ISA_T_NONE || q.space >= 0;
    const char *why;
    if (ptx && proxy != PROXY_GENERIC)
        why = "ld st atom red (tld suld sust suatom sured cold are Dat3M spellings without a type)";
    else if (ptx)
        why = atomic ? check_ptx_atomic(in->k == LI_RED, &q) : check_ptx_ldst(in->k == LI_ST, &q);
    else why = check_dat3m(in->k, &q);
    if (!why && m->op == PTX_I_LDU &&
        (q.sem >= 0 || q.volatile_ || q.mmio || (q.space >= 0 && q.space != SPACE_GLOBAL)))
        why = "ldu{.global}.type (§9.7.8.10: ldu has no semantics qualifiers)";
    if (why) {
        lp_errat(p, mt, "found '%.*s', expected %s", mt->len, mt->s, why);
        return -1;
    }
    apply_quals(p, in, &q, ptx);
    if (parse_memop_operands(c, in)) return -1;
    if (atomic && (in->type == ISA_T_F16X2 || in->type == ISA_T_BF16X2)) {
        c->nvel = 2;
        c->packed = 1;
    }
    return 0;
}

/* ---------- fences and barriers ---------- */

/* a word of the mnemonic that the instruction does not take */
static int stray_word(cell *c, const token *mt, const ptx_mnemonic *m, int i, const char *expected)
{
    lp_errat(c->p, mt, "found '.%.*s' in '%.*s', expected %s", m->q[i].len, m->text + m->q[i].off,
             mt->len, mt->s, expected);
    return -1;
}

static int parse_membar(cell *c, lit_insn *in, const ptx_mnemonic *m, const token *mt)
{
    /* §9.7.12.4: membar.{cta,gl,sys} is a synonym of fence.sc.{cta,gpu,sys} */
    if (m->nq != 1 || m->q[0].cls != PTX_QC_SCOPE || ptx_mn_has(m, PTX_Q_cluster) ||
        ptx_mn_has(m, PTX_Q_gpu)) {
        lp_errat(c->p, mt, "found '%.*s', expected membar.cta, membar.gl or membar.sys", mt->len,
                 mt->s);
        return -1;
    }
    in->k = LI_FENCE;
    in->fence = FENCE_SC;
    in->sem = SEM_SC;
    in->scope = (lit_scope)scope_of(m->scope);
    return lp_cell_end(c, "membar");
}

static int parse_fence_proxy(cell *c, lit_insn *in, const ptx_mnemonic *m, const token *mt)
{
    static const int kinds[] = { [PTX_PROXY_ALIAS] = FENCE_PROXY_ALIAS,
                                 [PTX_PROXY_TEXTURE] = FENCE_PROXY_TEXTURE,
                                 [PTX_PROXY_SURFACE] = FENCE_PROXY_SURFACE,
                                 [PTX_PROXY_CONSTANT] = FENCE_PROXY_CONSTANT };
    if (mt->len == 19 && !memcmp(mt->s, "fence.proxy.generic", 19)) {
        /* Dat3M only (LitmusPTX.g4 fenceProxy with proxyType Generic): a proxy fence of the
           generic proxy; PTX has no such instruction (§9.7.12.4) */
        in->k = LI_FENCE;
        in->fence = FENCE_PROXY_GENERIC;
        in->sem = SEM_WEAK;
        in->scope = SCOPE_NONE;
        return lp_cell_end(c, "fence.proxy");
    }
    int known = m->proxy == PTX_PROXY_ALIAS || m->proxy == PTX_PROXY_TEXTURE ||
                m->proxy == PTX_PROXY_SURFACE || m->proxy == PTX_PROXY_CONSTANT;
    if (!known || m->nq != 2) {
        int newer = m->proxy == PTX_PROXY_ASYNC || m->proxy == PTX_PROXY_TENSORMAP_GENERIC;
        lp_errat(
            c->p, mt,
            "found '%.*s', expected fence.proxy.alias, .texture, .surface, .constant or .generic%s",
            mt->len, mt->s,
            newer ? " (the async and tensormap proxies are not supported in litmus tests yet)"
                  : "");
        return -1;
    }
    in->k = LI_FENCE;
    in->fence = (lit_fence)kinds[m->proxy];
    in->sem = SEM_WEAK;
    in->scope = SCOPE_NONE;
    c->p->t->uses_proxies = 1;
    return lp_cell_end(c, "fence.proxy");
}

/* fence{.sc,.acq_rel}.scope, §9.7.12.4 (both dialects spell it alike) */
static int parse_fence(cell *c, lit_insn *in, const ptx_mnemonic *m, const token *mt)
{
    if (ptx_mn_has(m, PTX_Q_proxy)) return parse_fence_proxy(c, in, m, mt);
    for (int i = 0; i < m->nq; i++)
        if (m->q[i].cls != PTX_QC_SEM && m->q[i].cls != PTX_QC_SCOPE)
            return stray_word(c, mt, m, i, "fence{.sc,.acq_rel}.scope or fence.proxy.kind");
    int sem = sem_of(m->sem), scope = scope_of(m->scope);
    if (sem == SEM_ACQUIRE || sem == SEM_RELEASE) {
        lp_errat(
            c->p, mt,
            "found '%.*s', expected fence.sc or fence.acq_rel: fence.acquire and fence.release "
            "(the newer synchronization chapter) are not supported in litmus tests yet",
            mt->len, mt->s);
        return -1;
    }
    if (m->sem == PTX_SEM_VOLATILE ||
        ((sem == SEM_WEAK || sem == SEM_RELAXED) &&
         (scope < 0 || scope == SCOPE_CLUSTER || ptx_mn_has(m, PTX_Q_gl)))) {
        lp_errat(
            c->p, mt,
            "found '%.*s', expected fence.sc or fence.acq_rel (§9.7.12.4; Dat3M's fence.weak and "
            "fence.relaxed take .cta, .gpu or .sys)",
            mt->len, mt->s);
        return -1;
    }
    if ((sem == SEM_WEAK || sem == SEM_RELAXED) && scope >= 0 && scope != SCOPE_CLUSTER &&
        !ptx_mn_has(m, PTX_Q_gl)) {
        /* Dat3M's fencePhysic `fence.MO.SCOPE` takes every memory order (LitmusPTX.g4); PTX has
           no weak or relaxed fence: the event is a fence with that order, which orders nothing
           (no model relation builds on F & WEAK or F & RLX) */
        in->k = LI_FENCE;
        in->fence = FENCE_ACQ_REL;
        in->sem = (lit_sem)sem;
        in->scope = (lit_scope)scope;
        return lp_cell_end(c, "fence");
    }
    if (scope < 0) {
        lp_errat(c->p, mt,
                 "found '%.*s' without a scope, expected fence{.sc,.acq_rel}.{cta,cluster,gpu,sys}",
                 mt->len, mt->s);
        return -1;
    }
    if (ptx_mn_has(m, PTX_Q_gl))
        return stray_word(c, mt, m, 0, "the scope .cta .cluster .gpu or .sys (.gl is membar's)");
    /* §9.7.12.4: fence without .sem means fence.acq_rel */
    in->k = LI_FENCE;
    in->sem = sem < 0 ? SEM_ACQ_REL : (lit_sem)sem;
    in->fence = in->sem == SEM_SC ? FENCE_SC : FENCE_ACQ_REL;
    in->scope = (lit_scope)scope;
    if (scope == SCOPE_CLUSTER) c->p->t->uses_cluster = 1;
    return lp_cell_end(c, "fence");
}

/* Number of threads the test places in the CTA of thread th. */
static int cta_threads(const lit_test *t, const lit_thread *th)
{
    int n = 0;
    for (int i = 0; i < t->nth; i++) n += t->th[i].gpu == th->gpu && t->th[i].cta == th->cta;
    return n;
}

/* A constant barrier id (0..15, §9.7.12.1) or thread count, checked where it is written. */
static int check_bar_const(cell *c, const lit_insn *in, int k, const token *at)
{
    if (in->src[k].k != OPD_IMM) return 0;
    int64_t v = in->src[k].imm;
    if (k == 0) {
        if (v < 0 || v > 15) {
            lp_errat(c->p, at,
                     "found the barrier %lld, expected a barrier number 0..15 (§9.7.12.1)",
                     (long long)v);
            return -1;
        }
        return 0;
    }
    /* Dat3M's quorum is a minimum number of arrivals, which the event semantics read
       (model/traces.c check_barrier): a quorum the CTA cannot reach is refused there under the
       ISA's events and makes every arriving thread wait under Dat3M's */
    if (in->bar_unit == 1) return 0;
    int n = cta_threads(c->p->t, c->th);
    if (v == 0 && in->bar != BAR_ARRIVE) {
        lp_errat(
            c->p, at,
            "found the thread count 0, expected a positive count: a barrier of 0 threads is not "
            "supported in litmus tests (§9.7.12.1 gives it no meaning)");
        return -1;
    }
    if (v <= 0 || v % 32) {
        lp_errat(c->p, at,
                 "found the thread count %lld, expected a positive multiple of the warp size, 32 "
                 "(§9.7.12.1; each litmus thread stands for one warp)",
                 (long long)v);
        return -1;
    }
    int64_t th = v / 32;
    if (th > n) {
        lp_errat(c->p, at,
                 "found the thread count %lld (%lld litmus threads, each a warp of 32), expected "
                 "at most %d: the test places %d thread%s in CTA %d of %s",
                 (long long)v, (long long)th, 32 * n, n, n == 1 ? "" : "s", c->th->cta,
                 c->th->name);
        return -1;
    }
    return 0;
}

/* The up to three operands of a barrier (a{, b}{, c}) to the end of the cell, each with its
   token; with bang, an operand may be negated by '!' (bar.red's predicate: bang[k] is the '!'
   token, else NULL).  Returns how many, or -1 after a message. */
static int bar_operands(cell *c, lit_opnd o[3], const token *at[3], const token *bang[3])
{
    int n = 0;
    while (n < 3) {
        if (bang) {
            bang[n] = NULL;
            if (c->i < c->b && tok_punct(lp_ctok(c), '!')) { bang[n] = lp_ctok(c); c->i++; }
        }
        at[n] = lp_cnext(c);
        if (lp_cell_value(c, &o[n], 0)) return -1;
        n++;
        if (c->i >= c->b) break;
        if (lp_cell_comma(c)) return -1;
    }
    return lp_cell_end(c, "barrier") ? -1 : n;
}

/* PTX: bar{.cta}.red.popc.u32 d, a{, b}, {!}c and bar{.cta}.red.{and,or}.pred p, a{, b}, {!}c
   (barrier{.cta}.red.op{.aligned}.type alike, §9.7.12.1): a barrier like bar.sync a{, b} whose
   participants all receive the reduction of their predicates c (model/traces.c, solver/query.c). */
static int parse_bar_red(cell *c, lit_insn *in)
{
    in->bar_unit = 32;
    if (lp_cell_value(c, &in->dst[0], 1)) return -1;
    if (in->dst[0].k != OPD_REG && in->dst[0].k != OPD_NONE) {
        lp_expect_fail(c->p, lp_cend(c), "a destination register");
        return -1;
    }
    in->ndst = 1;
    if (lp_cell_comma(c)) return -1;
    lit_opnd o[3];
    const token *at[3], *bang[3];
    int n = bar_operands(c, o, at, bang);
    if (n < 0) return -1;
    if (n < 2) {
        lp_expect_fail(c->p, lp_cend(c),
                       "',' and the predicate c: bar.red takes d, a{, b}, {!}c (§9.7.12.1)");
        return -1;
    }
    for (int k = 0; k < n - 1; k++)
        if (bang[k]) {
            lp_errat(c->p, bang[k],
                     "found '!' before the %s, expected it only before the predicate c "
                     "(bar.red d, a{, b}, {!}c, §9.7.12.1)",
                     k ? "thread count" : "barrier");
            return -1;
        }
    if (o[n - 1].k != OPD_REG) {
        lp_expect_fail(c->p, at[n - 1],
                       "a predicate register c (bar.red d, a{, b}, {!}c, §9.7.12.1)");
        return -1;
    }
    in->bar_pred = o[n - 1];
    in->bar_pred_neg = bang[n - 1] != NULL;
    in->src[0] = o[0];
    if (n == 3) in->src[1] = o[1];
    in->nsrc = n - 1;
    if (check_bar_const(c, in, 0, at[0]) || (n == 3 && check_bar_const(c, in, 1, at[1]))) return -1;
    return 0;
}

/* PTX: bar{.cta}.sync a{, b}, barrier{.cta}.sync{.aligned} a{, b}, bar{.cta}.arrive a, b (b
   required, §9.7.12.1): a = barrier, b = threads.  Dat3M: bar.cta.sync|arrive INST{, ID{, QUORUM}}:
   the id defaults to the instance, the quorum counts litmus threads (LitmusPTX.g4, README). */
static int parse_bar(cell *c, lit_insn *in, const ptx_mnemonic *m, const token *mt)
{
    int kind = -1, cta = 0, op = -1, type = 0, ok = 1;
    for (int i = 0; i < m->nq && ok; i++) {
        int id = m->q[i].id;
        if (id == PTX_Q_cta) cta = 1;
        else if (id == PTX_Q_aligned && m->op == PTX_I_BARRIER) continue;
        else if (id == PTX_Q_sync && kind < 0) kind = BAR_SYNC;
        else if (id == PTX_Q_arrive && kind < 0) kind = BAR_ARRIVE;
        else if (id == PTX_Q_red && kind < 0) kind = BAR_RED;
        else if (kind == BAR_RED && op < 0 && id == PTX_Q_popc) op = BRED_POPC;
        else if (kind == BAR_RED && op < 0 && id == PTX_Q_and) op = BRED_AND;
        else if (kind == BAR_RED && op < 0 && id == PTX_Q_or) op = BRED_OR;
        else if (kind == BAR_RED && op >= 0 && !type && (id == PTX_Q_u32 || id == PTX_Q_pred))
            type = id;
        else ok = 0;
    }
    if (kind == BAR_RED && ok && (op < 0 || type != (op == BRED_POPC ? PTX_Q_u32 : PTX_Q_pred)))
        ok = 0;
    if (kind == BAR_RED && !ok) {
        lp_errat(
            c->p, mt,
            "found '%.*s', expected %s{.cta}.red.popc%s.u32 or %s{.cta}.red.and%s.pred or "
            "%s{.cta}.red.or%s.pred (§9.7.12.1)",
            mt->len, mt->s, m->op == PTX_I_BARRIER ? "barrier" : "bar",
            m->op == PTX_I_BARRIER ? "{.aligned}" : "", m->op == PTX_I_BARRIER ? "barrier" : "bar",
            m->op == PTX_I_BARRIER ? "{.aligned}" : "", m->op == PTX_I_BARRIER ? "barrier" : "bar",
            m->op == PTX_I_BARRIER ? "{.aligned}" : "");
        return -1;
    }
    if (!ok) {
        lp_errat(
            c->p, mt,
            "found '%.*s', expected bar{.cta}.sync, bar{.cta}.arrive, bar{.cta}.red, "
            "barrier{.cta}.sync{.aligned}, barrier{.cta}.arrive{.aligned} or barrier{.cta}.red "
            "(§9.7.12.1)",
            mt->len, mt->s);
        return -1;
    }
    if (kind < 0) {
        lp_errat(c->p, mt,
                 "found '%.*s', expected bar{.cta}.sync, bar{.cta}.arrive or bar{.cta}.red",
                 mt->len, mt->s);
        return -1;
    }
    in->k = LI_BAR;
    in->bar = (lit_bar)kind;
    if (kind == BAR_RED) { in->bar_op = (lit_bred)op; return parse_bar_red(c, in); }
    lit_opnd o[3];
    const token *at[3];
    int n = bar_operands(c, o, at, NULL);
    if (n < 0) return -1;
    /* bar.cta.sync|arrive is the Dat3M form, unless its second operand is a PTX thread count
       (a constant >= 16 cannot be a barrier id) */
    int dat3m = m->op == PTX_I_BAR && cta && m->nq == 2 && o[0].k == OPD_IMM &&
                !(n == 2 && o[1].k == OPD_IMM && o[1].imm >= 16);
    in->bar_unit = dat3m ? 1 : 32;
    if (dat3m) {
        if (o[0].k != OPD_IMM) {
            lp_expect_fail(c->p, at[0], "a constant barrier instance");
            return -1;
        }
        in->bar_inst = (int)o[0].imm;
        in->bar_named = n >= 2;
        in->src[0] = n >= 2 ? o[1] : o[0];
        if (n == 3) in->src[1] = o[2];
        in->nsrc = n == 3 ? 2 : 1;
        if (check_bar_const(c, in, 0, n >= 2 ? at[1] : at[0]) ||
            (n == 3 && check_bar_const(c, in, 1, at[2])))
            return -1;
        return 0;
    }
    if (n == 3) {
        lp_expect_fail(c->p, at[2], "the end of the barrier instruction (a{, b}, §9.7.12.1)");
        return -1;
    }
    if (kind == BAR_ARRIVE && n < 2) {
        lp_expect_fail(c->p, lp_cend(c),
                       "',' and a thread count: bar.arrive a, b needs b (§9.7.12.1)");
        return -1;
    }
    in->src[0] = o[0];
    if (n == 2) in->src[1] = o[1];
    in->nsrc = n;
    if (check_bar_const(c, in, 0, at[0]) || (n == 2 && check_bar_const(c, in, 1, at[1]))) return -1;
    return 0;
}

/* ---------- one instruction, one cell ---------- */

static const word branch_words[] = {
    { "beq", CMP_EQ }, { "bne", CMP_NE }, { "blt", CMP_LT }, { "bgt", CMP_GT }, { "ble", CMP_LE },
    { "bge", CMP_GE }, { NULL, 0 } };

/* Dat3M: beq a, b, L; goto L.  PTX: bra{.uni} L; ret, exit end the thread. */
static int parse_branch_or_jump(cell *c, lit_insn *in, const char *base, const ptx_mnemonic *m)
{
    int cmp = lookup(branch_words, base);
    if (cmp >= 0) {
        in->k = LI_BRANCH; in->cmp = (lit_cmp)cmp; in->nsrc = 2;
        if (lp_cell_value(c, &in->src[0], 0) || lp_cell_comma(c) ||
            lp_cell_value(c, &in->src[1], 0) || lp_cell_comma(c) || parse_label_ref(c, in))
            return -1;
        return lp_cell_end(c, "branch");
    }
    if (!strcmp(base, "goto") || m->op == PTX_I_BRA) {
        in->k = LI_GOTO;
        if (parse_label_ref(c, in)) return -1;
        return lp_cell_end(c, "branch");
    }
    in->k = LI_GOTO;
    in->target_name = xstrndup("$end", 4);
    return lp_cell_end(c, base);
}

/* Everything else: a register computation with the executor's semantics (exec/isa). */
static int parse_alu(cell *c, lit_insn *in, const char *mn, const token *mt)
{
    parser *p = c->p;
    char ierr[160];
    /* Dat3M's localMul (LitmusPTX.g4): a bare `mul` is the 64-bit product, PTX's mul.lo */
    if (!strcmp(mn, "mul")) mn = "mul.lo";
    if (isa_decode(mn, ISA_T_S64, &in->alu, ierr, sizeof ierr) ||
        isa_class(&in->alu) != ISA_CLASS_PURE) {
        int pure = isa_class(&in->alu) == ISA_CLASS_PURE;
        lp_errat(p, mt,
                 "found the instruction '%s', expected a litmus instruction (ld st atom red fence "
                 "membar bar "
                 "branch) or a register computation%s%s",
                 mn, pure ? ": " : "", pure ? ierr : "");
        return -1;
    }
    in->k = LI_ALU;
    in->type = in->alu.type;
    in->ndst = isa_ndst(&in->alu);
    in->nsrc = isa_nsrc(&in->alu);
    if (in->ndst > 2 || in->nsrc > 4) {
        lp_errat(p, mt, "found '%s', expected at most 2 destinations and 4 sources", mn);
        return -1;
    }
    /* §9.7.5.2 setp.CmpOp.BoolOp p[|q], a, b, {!}c and §9.7.7.6 lop3.BoolOp d[|p], ...: the
       second destination is optional ('|' separates litmus columns, so a written one follows a
       comma: `setp.lt.and.s32 p, q, a, b, c`); without it the instruction has one */
    int nop = 1;
    for (int i = c->i; i < c->b; i++) nop += tok_punct(&p->tv.v[i], ',');
    int ndst = (in->alu.mods & ISA_M_PAIR) && in->ndst == 2 && nop == in->nsrc + 1 ? 1 : in->ndst;
    for (int k = 0; k < in->ndst; k++) {
        if (k >= ndst) { in->dst[k].k = OPD_NONE; continue; }   /* a sink, as PTX's '_' */
        if (k && lp_cell_comma(c)) return -1;
        if (lp_cell_value(c, &in->dst[k], 1)) return -1;
    }
    for (int k = 0; k < in->nsrc; k++)
        if (lp_cell_comma(c) || lp_cell_value(c, &in->src[k], 0)) return -1;
    return lp_cell_end(c, mn);
}

/* The instruction: Dat3M's own mnemonics first (branches, goto, the proxy spellings, which are
   read as the PTX instruction they name), then the PTX vocabulary (ptx/mnemonic.h). */
static int parse_insn(cell *c, lit_insn *in)
{
    parser *p = c->p;
    const token *mt = lp_ctok(c);
    if (mt->k != TK_IDENT) { lp_expect_fail(p, mt, "an instruction mnemonic"); return -1; }
    char mn[128], base[16];
    snprintf(mn, sizeof mn, "%.*s", mt->len > 127 ? 127 : mt->len, mt->s);
    size_t bl = strcspn(mn, ".");
    snprintf(base, sizeof base, "%.*s", (int)(bl < 15 ? bl : 15), mn);
    c->i++;
    ptx_mnemonic m;
    if ((lookup(branch_words, base) >= 0 || !strcmp(base, "goto")) && !mn[bl]) {
        memset(&m, 0, sizeof m);
        return parse_branch_or_jump(c, in, base, &m);
    }
    for (const dat3m_op *d = dat3m_ops; d->name; d++) {
        if (strcmp(base, d->name)) continue;
        char alt[160];
        int n = snprintf(alt, sizeof alt, "%s%s", d->ptx, mn + bl);
        if (tokenize(p, mt, alt, (size_t)n, (int)(bl - strlen(d->ptx)), &m)) return -1;
        return parse_memop(c, in, m.kind == PTX_K_LD ? LI_LD : m.kind == PTX_K_ST ? LI_ST :
                           m.kind == PTX_K_ATOM ? LI_ATOM : LI_RED, d->proxy, &m, mt);
    }
    if (ptx_mnemonic_parse(mn, strlen(mn), &m, &(ptx_mn_error){ 0 }) && m.op == PTX_I_NONE)
        return parse_alu(c, in, mn, mt);   /* an unknown mnemonic: isa_decode says why */
    if (tokenize(p, mt, mn, strlen(mn), 0, &m)) return -1;
    int ar = lp_parse_async(c, in, &m, mt);   /* mbarrier, barrier.cluster, async, newer fences */
    if (ar != 1) return ar;
    switch (m.kind) {
    case PTX_K_LD: return parse_memop(c, in, LI_LD, PROXY_GENERIC, &m, mt);
    case PTX_K_ST: return parse_memop(c, in, LI_ST, PROXY_GENERIC, &m, mt);
    case PTX_K_ATOM: return parse_memop(c, in, LI_ATOM, PROXY_GENERIC, &m, mt);
    case PTX_K_RED: return parse_memop(c, in, LI_RED, PROXY_GENERIC, &m, mt);
    case PTX_K_FENCE:
        return m.op == PTX_I_MEMBAR ? parse_membar(c, in, &m, mt) : parse_fence(c, in, &m, mt);
    case PTX_K_BAR: return parse_bar(c, in, &m, mt);
    case PTX_K_BRA: case PTX_K_RET: case PTX_K_EXIT: return parse_branch_or_jump(c, in, base, &m);
    default: return parse_alu(c, in, mn, mt);
    }
}

static void add_label(labels *L, int at, const char *name)
{
    L->labs = xrealloc(L->labs, (size_t)(L->nlab + 1) * sizeof *L->labs);
    L->labat = xrealloc(L->labat, (size_t)(L->nlab + 1) * sizeof *L->labat);
    L->labs[L->nlab] = xstrndup(name, strlen(name));
    L->labat[L->nlab] = at;
    L->nlab++;
}

/* The instruction as written, whitespace-normalised. */
static char *insn_text(parser *p, int a, int b)
{
    const token *f = &p->tv.v[a], *l = &p->tv.v[b - 1];
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
    return raw;
}

static int parse_guard(cell *c, lit_insn *in)
{
    parser *p = c->p;
    c->i++;
    if (c->i < c->b && tok_punct(&p->tv.v[c->i], '!')) { in->guard_neg = 1; c->i++; }
    if (c->i >= c->b || p->tv.v[c->i].k != TK_IDENT ||
        memchr(p->tv.v[c->i].s, '.', (size_t)p->tv.v[c->i].len)) {
        lp_expect_fail(p, lp_cnext(c), "a predicate register after '@'");
        return -1;
    }
    char *n = lp_tokstr(&p->tv.v[c->i]);
    in->guard = lp_add_reg(c->th, n);
    free(n);
    c->i++;
    return 0;
}

/* A vector access (§8.2.4) becomes c->nvel scalar accesses of its element type at consecutive
   offsets, one per element, sharing a vec_id; the last instruction of th is the parsed vector
   access.  The access size is the whole vector, and the address must be a multiple of it
   (§5.4.2, "access size ... of ld.v4.b32 is 16 bytes"). */
static int expand_vector(parser *p, lit_thread *th, cell *c)
{
    lit_insn *in = &th->ins[th->nins - 1];
    int total = c->nvel * in->size;
    if (in->addr.k == OPD_SYM ? in->addr.off % total : 0) {
        token at = { .line = in->line, .col = in->col };
        lp_errat(p, &at,
                 "found a .v%d access of %d bytes at offset %lld, expected an offset that is a "
                 "multiple of "
                 "the access size (%d bytes, §5.4.2)",
                 c->nvel, total, (long long)in->addr.off, total);
        return -1;
    }
    int id = 1;
    for (int k = 0; k < th->nins - 1; k++)
        if (th->ins[k].vec_id >= id) id = th->ins[k].vec_id + 1;
    lit_insn proto = *in;
    if (c->packed) {   /* §8.2.5: two operations on the scalar type, each on its half */
        proto.packed = proto.type;
        proto.type = proto.type == ISA_T_F16X2 ? ISA_T_F16 : ISA_T_BF16;
        proto.size = 2;
    }
    th->ins = xrealloc(th->ins, (size_t)(th->nins + c->nvel - 1) * sizeof *th->ins);
    for (int e = 0; e < c->nvel; e++) {
        lit_insn *x = &th->ins[th->nins - 1 + e];
        *x = proto;
        if (e) {
            x->text = xstrdup(proto.text);
            x->target_name = proto.target_name ? xstrdup(proto.target_name) : NULL;
        }
        x->vec_id = id;
        x->addr.off = proto.addr.off + (int64_t)e * proto.size;
        if (c->packed) x->part = e + 1;
        else if (proto.k == LI_LD) x->dst[0] = c->vel[e];
        else x->src[0] = c->vel[e];
        if (proto.k == LI_LD && x->dst[0].k == OPD_NONE) x->ndst = 0;   /* the sink `_` */
    }
    th->nins += c->nvel - 1;
    return 0;
}

int lp_parse_cell(parser *p, lit_thread *th, int a, int b, labels *L)
{
    cell c = { .p = p, .th = th, .a = a, .b = b, .i = a };
    while (c.i + 1 <= b - 1 && p->tv.v[c.i].k == TK_IDENT && tok_punct(&p->tv.v[c.i + 1], ':')) {
        char *n = lp_tokstr(&p->tv.v[c.i]);
        for (int k = 0; k < L->nlab; k++)
            if (!strcmp(L->labs[k], n)) {
                lp_errat(p, &p->tv.v[c.i],
                         "found a second definition of label '%s', expected each label defined "
                         "once per thread",
                         n);
                free(n);
                return -1;
            }
        add_label(L, th->nins, n);
        free(n);
        c.i += 2;
    }
    if (c.i >= b) return 0;
    th->ins = xrealloc(th->ins, (size_t)(th->nins + 1) * sizeof *th->ins);
    lit_insn *in = &th->ins[th->nins++];   /* counted now: lit_free frees in->text on errors */
    memset(in, 0, sizeof *in);
    in->guard = -1;
    in->line = p->tv.v[c.i].line;
    in->col = p->tv.v[c.i].col;
    in->text = insn_text(p, c.i, b);
    if (tok_punct(&p->tv.v[c.i], '@') && parse_guard(&c, in)) return -1;
    if (parse_insn(&c, in)) return -1;
    return c.nvel ? expand_vector(p, th, &c) : 0;
}
