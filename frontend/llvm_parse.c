/* frontend/llvm_parse.c — the LLVM-level litmus front end (frontend/llvm_litmus.h,
 * docs/llvm-mapping.md).
 *
 *   LLVM NAME  "doc"*  { x = 0; i32 y = 0; }
 *   P0@cta 0,gpu 0 {
 *     store i32 1, ptr %x
 *     store atomic i32 1, ptr %y syncscope("device") release, align 4
 *   }
 *   P1@cta 1,gpu 0 {
 *     %r0 = load atomic i32, ptr %y syncscope("device") acquire, align 4
 *     %r1 = load i32, ptr %x
 *   }
 *   exists (P1:r0 == 1 /\ P1:r1 == 0)
 *
 * The instructions are those of the LLVM Language Reference (load, store, fence, atomicrmw,
 * cmpxchg) on integer scalars i8..i64; `%x` is the pointer to location x of the initial state
 * (`ptr %x` or the typed-pointer spelling `i32* %x`).  cmpxchg's result is the loaded value
 * (LLVM's { T, i1 } pair without the flag: compare the value in the condition instead). */
#include "frontend/llvm_litmus.h"
#include "frontend/litmus_build.h"
#include "base/alloc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const mode_names[LLVM_MODE_COUNT] = { "source", "nvptx", "llc14",
                                                         "no-fence-sc" };

const char *llvm_mode_name(llvm_mode m)
{
    return (unsigned)m < LLVM_MODE_COUNT ? mode_names[m] : "?";
}

int llvm_mode_parse(const char *s, llvm_mode *m)
{
    for (int i = 0; i < LLVM_MODE_COUNT; i++)
        if (!strcmp(s, mode_names[i])) { *m = (llvm_mode)i; return 0; }
    return -1;
}

/* C++/LLVM orderings (LangRef "Atomic Memory Ordering Constraints") */
typedef enum { O_NA, O_UNORDERED, O_MONOTONIC, O_ACQUIRE, O_RELEASE, O_ACQ_REL, O_SEQ_CST } lorder;
static const char *const order_words[] = { "",        "unordered", "monotonic", "acquire",
                                           "release", "acq_rel",   "seq_cst" };

typedef struct {
    parser *p;
    int ti;
    llvm_mode m;
    char **vals;                      /* values defined so far in the thread (with '%') */
    int nv;
} lblock;

static lit_thread *TH(lblock *b) { return &b->p->t->th[b->ti]; }

/* ---------- words ---------- */

static isa_type int_type(const token *t)
{
    static const struct { const char *w; isa_type t; } ty[] = {
        { "i8", ISA_T_S8 }, { "i16", ISA_T_S16 }, { "i32", ISA_T_S32 }, { "i64", ISA_T_S64 } };
    for (size_t i = 0; i < sizeof ty / sizeof ty[0]; i++)
        if (tok_is(t, ty[i].w)) return ty[i].t;
    return ISA_T_NONE;
}

static int parse_int_type(lblock *b, isa_type *ty)
{
    *ty = int_type(lb_cur(b->p));
    if (!*ty) {
        lp_expect_fail(b->p, lb_cur(b->p),
                       "an integer type i8, i16, i32 or i64 (floating-point and pointer "
                       "values are not modelled)");
        return -1;
    }
    b->p->pos++;
    return 0;
}

static int find_val(lblock *b, const token *t)
{
    for (int i = 0; i < b->nv; i++)
        if ((int)strlen(b->vals[i]) == t->len && !memcmp(b->vals[i], t->s, (size_t)t->len))
            return i;
    return -1;
}

static int find_loc(lblock *b, const token *t)
{
    if (t->k != TK_IDENT || t->s[0] != '%' || t->len < 2) return -1;
    char *n = xstrndup(t->s + 1, (size_t)t->len - 1);
    int s = lit_find_sym(b->p->t, n);
    free(n);
    return s;
}

/* the pointer operand: `ptr %x` or `T* %x` (T must then be the access type) */
static int parse_ptr(lblock *b, lit_opnd *addr)
{
    parser *p = b->p;
    if (tok_is(lb_cur(p), "ptr")) p->pos++;
    else if (int_type(lb_cur(p)) && tok_punct(lb_peek(p, 1), '*')) p->pos += 2;
    else { lp_expect_fail(p, lb_cur(p), "a pointer type 'ptr' (or 'i32*')"); return -1; }
    int s = find_val(b, lb_cur(p)) >= 0 ? -1 : find_loc(b, lb_cur(p));
    if (s < 0) {
        lp_expect_fail(p, lb_cur(p), "a pointer '%x' to a location x of the initial state");
        return -1;
    }
    *addr = (lit_opnd){ .k = OPD_SYM, .sym = s };
    p->pos++;
    return 0;
}

/* an integer literal or a value defined earlier in the thread */
static int parse_value(lblock *b, lit_opnd *o)
{
    parser *p = b->p;
    int neg = tok_punct(lb_cur(p), '-');
    if (neg && lb_peek(p, 1)->k == TK_NUM) {
        p->pos++;
        *o = (lit_opnd){ .k = OPD_IMM, .imm = (int64_t)(0 - (uint64_t)lb_cur(p)->num) };
        p->pos++;
        return 0;
    }
    if (lb_cur(p)->k == TK_NUM) {
        *o = (lit_opnd){ .k = OPD_IMM, .imm = lb_cur(p)->num };
        p->pos++;
        return 0;
    }
    if (find_val(b, lb_cur(p)) < 0) {
        lp_expect_fail(p, lb_cur(p),
                       "an integer constant or a value defined earlier in the thread");
        return -1;
    }
    char *n = lp_tokstr(lb_cur(p));
    *o = (lit_opnd){ .k = OPD_REG, .reg = lit_find_reg(TH(b), n) };
    free(n);
    p->pos++;
    return 0;
}

/* [syncscope("block"|"cluster"|"device")]: none is the system scope (LangRef) */
static int parse_syncscope(lblock *b, lit_scope *sc)
{
    parser *p = b->p;
    *sc = SCOPE_SYS;
    if (!tok_is(lb_cur(p), "syncscope")) return 0;
    p->pos++;
    if (lb_expect(p, '(', "'(' after syncscope")) return -1;
    const token *s = lb_cur(p);
    if (s->k != TK_STR) {
        lp_expect_fail(p, s, "a quoted scope: \"block\", \"cluster\" or \"device\"");
        return -1;
    }
#define IS(w) ((size_t)s->len == strlen(w) && !memcmp(s->s, w, strlen(w)))
    if (IS("block")) *sc = SCOPE_CTA;
    else if (IS("cluster")) *sc = SCOPE_CLUSTER;
    else if (IS("device")) *sc = SCOPE_GPU;
    else {
        lp_errat(
            p, s,
            "found the scope \"%.*s\", expected \"block\", \"cluster\" or \"device\" (NVPTX sync "
            "scopes; \"singlethread\" is not modelled)",
            s->len, s->s);
        return -1;
    }
#undef IS
    p->pos++;
    if (*sc == SCOPE_CLUSTER) p->t->uses_cluster = 1;
    return lb_expect(p, ')', "')' closing syncscope(");
}

/* an ordering among those mask allows (bit o for lorder o) */
static int parse_order(lblock *b, unsigned mask, const char *what, lorder *o)
{
    const token *t = lb_cur(b->p);
    for (int k = O_UNORDERED; k <= O_SEQ_CST; k++)
        if (tok_is(t, order_words[k])) {
            if (!(mask >> k & 1)) {
                lp_errat(b->p, t, "found the ordering '%s', expected %s (LangRef)", order_words[k],
                         what);
                return -1;
            }
            *o = (lorder)k;
            b->p->pos++;
            return 0;
        }
    lp_expect_fail(b->p, t, what);
    return -1;
}

/* [, align N] */
static int parse_align(lblock *b)
{
    parser *p = b->p;
    if (!(tok_punct(lb_cur(p), ',') && tok_is(lb_peek(p, 1), "align"))) return 0;
    p->pos += 2;
    if (lb_cur(p)->k != TK_NUM) {
        lp_expect_fail(p, lb_cur(p), "the alignment in bytes after 'align'");
        return -1;
    }
    p->pos++;
    return 0;
}

/* ---------- emitting ---------- */

static const char *scope_word(lit_scope s)
{
    return s == SCOPE_CTA ? "cta" : s == SCOPE_CLUSTER ? "cluster" : s == SCOPE_GPU ? "gpu" : "sys";
}

static lit_sem source_sem(lorder o)
{
    static const lit_sem s[] = { SEM_WEAK,    SEM_RELAXED, SEM_RELAXED, SEM_ACQUIRE,
                                 SEM_RELEASE, SEM_ACQ_REL, SEM_SC };
    return s[o];
}

/* one PTX instruction of the lowering (or the source event): a copy of proto with its text */
static void emit(lblock *b, const token *at, const lit_insn *proto, char *text)
{
    lit_insn *in = lb_add_insn(TH(b), at, text);
    *in = *proto;
    in->text = text;
    in->line = at->line;
    in->col = at->col;
    in->guard = -1;
}

static void emit_fence(lblock *b, const token *at, lit_fence f, lit_scope sc)
{
    lit_insn in;
    memset(&in, 0, sizeof in);
    in.k = LI_FENCE;
    in.fence = f;
    in.sem = f == FENCE_SC ? SEM_SC : SEM_ACQ_REL;
    in.scope = sc;
    char buf[48];
    snprintf(buf, sizeof buf, "fence.%s.%s", f == FENCE_SC ? "sc" : "acq_rel", scope_word(sc));
    emit(b, at, &in, xstrdup(buf));
}

static const char *ptx_sem_word(const lit_insn *in)
{
    if (in->volatile_) return ".volatile";
    switch (in->sem) {
    case SEM_RELAXED: return ".relaxed";
    case SEM_ACQUIRE: return ".acquire";
    case SEM_RELEASE: return ".release";
    case SEM_ACQ_REL: return ".acq_rel";
    default: return "";
    }
}

/* The lowering of one memory access (proto: the access with its source ordering o and scope
   sc, its source text from token start) in mode b->m; the tables of docs/llvm-mapping.md.
   Returns 0, or -1 when the mapping has no lowering for it. */
static int lower(lblock *b, const token *at, lit_insn in, lorder o, lit_scope sc, int start)
{
    parser *p = b->p;
    int atomic = o != O_NA;
    if (b->m == LLVM_SOURCE) {
        in.sem = source_sem(o);
        in.scope = atomic ? sc : SCOPE_NONE;
        in.volatile_ = 0;
        emit(b, at, &in, lb_span_text(p, start, p->pos));   /* the source text of the access */
        return 0;
    }
    int fence_sc = 0;
    lit_sem sem = SEM_WEAK;
    lit_scope scope = SCOPE_NONE;
    int rmw = in.k == LI_ATOM;
    if (b->m == LLVM_MAP_LLC14) {
        /* observed: suites/llvm/llc/README.md */
        if (rmw) {
            sem = SEM_RELAXED;
            scope = SCOPE_GPU;
        } /* atom.add.u32: any ordering */
        else if (o == O_UNORDERED || o == O_MONOTONIC) {
            in.volatile_ = 1;
            sem = SEM_RELAXED;
            scope = SCOPE_SYS;
        } else if (atomic) {
            lp_errat(
                p, at,
                "found an atomic %s %s, expected what llc 14 can lower (it stops with 'LLVM ERROR: "
                "Cannot select' on acquire, release and seq_cst loads and stores: "
                "suites/llvm/llc/)",
                in.k == LI_LD ? "load" : "store", order_words[o]);
            return -1;
        } else if (in.volatile_) {
            sem = SEM_RELAXED;
            scope = SCOPE_SYS;
        }
    } else if (atomic) {
        scope = sc;
        int nofsc = b->m == LLVM_MAP_NO_FENCE_SC;
        switch (o) {
        case O_UNORDERED: case O_MONOTONIC: sem = SEM_RELAXED; break;
        case O_ACQUIRE: sem = SEM_ACQUIRE; break;
        case O_RELEASE: sem = SEM_RELEASE; break;
        case O_ACQ_REL: sem = SEM_ACQ_REL; break;
        default:   /* seq_cst: fence.sc; then the acquire read, release write, acq_rel atom */
            fence_sc = !nofsc;
            sem = rmw ? SEM_ACQ_REL : in.k == LI_LD ? SEM_ACQUIRE : SEM_RELEASE;
        }
        in.volatile_ = 0;
    } else if (in.volatile_) { sem = SEM_RELAXED; scope = SCOPE_SYS; }
    if (fence_sc) emit_fence(b, at, FENCE_SC, scope);
    in.sem = sem;
    in.scope = scope;
    /* the PTX spelling, for listings */
    char buf[160], sc_s[16] = "", regs[64] = "";
    if (scope && !in.volatile_) snprintf(sc_s, sizeof sc_s, ".%s", scope_word(scope));
    const lit_thread *th = TH(b);
    if (in.ndst) snprintf(regs, sizeof regs, "%%%s, ", th->regs[in.dst[0].reg]);
    const char *sym = p->t->sym[in.addr.sym].name;
    int bits = (int)isa_type_bits(in.type);
    if (in.k == LI_LD)
        snprintf(buf, sizeof buf, "ld%s%s.b%d %s[%s]", ptx_sem_word(&in), sc_s, bits, regs, sym);
    else if (in.k == LI_ST)
        snprintf(buf, sizeof buf, "st%s%s.b%d [%s], ...", ptx_sem_word(&in), sc_s, bits, sym);
    else {
        static const char *const opn[ISA_ATOM_COUNT] = { "?",  "add", "sub", "exch", "cas", "and",
                                                         "or", "xor", "min", "max",  "inc", "dec" };
        snprintf(buf, sizeof buf, "atom%s%s.%s.%c%d %s[%s], ...",
                 b->m == LLVM_MAP_LLC14 ? "" : ptx_sem_word(&in),
                 b->m == LLVM_MAP_LLC14 ? "" : sc_s, opn[in.aop],
                 in.aop == ISA_ATOM_MIN || in.aop == ISA_ATOM_MAX
                     ? (isa_type_is_signed(in.type) ? 's' : 'u')
                     : 'b',
                 bits, regs, sym);
    }
    emit(b, at, &in, xstrdup(buf));
    return 0;
}

/* ---------- instructions ---------- */

static int def_result(lblock *b, const token *r, lit_insn *in)
{
    parser *p = b->p;
    if (!r) return 0;
    if (find_val(b, r) >= 0) {
        lp_errat(p, r,
                 "found a second definition of '%.*s', expected each value defined once (SSA)",
                 r->len, r->s);
        return -1;
    }
    if (find_loc(b, r) >= 0) {
        lp_errat(p, r,
                 "found '%.*s' defined, expected a name that is not a location of the initial "
                 "state (%%x is "
                 "the pointer to location x)",
                 r->len, r->s);
        return -1;
    }
    b->vals = xrealloc(b->vals, (size_t)(b->nv + 1) * sizeof *b->vals);
    b->vals[b->nv++] = lp_tokstr(r);
    in->dst[0] = (lit_opnd){ .k = OPD_REG, .reg = lp_add_reg(TH(b), b->vals[b->nv - 1]) };
    in->ndst = 1;
    return 0;
}

static int atomic_rmw_op(lblock *b, lit_insn *in)
{
    static const struct { const char *w; isa_atom_op op; int u;
    } m[] = {
        { "xchg", ISA_ATOM_EXCH, 0 }, { "add", ISA_ATOM_ADD, 0 },  { "and", ISA_ATOM_AND, 0 },
        { "or", ISA_ATOM_OR, 0 },     { "xor", ISA_ATOM_XOR, 0 },  { "max", ISA_ATOM_MAX, 0 },
        { "min", ISA_ATOM_MIN, 0 },   { "umax", ISA_ATOM_MAX, 1 }, { "umin", ISA_ATOM_MIN, 1 }
    };
    for (size_t i = 0; i < sizeof m / sizeof m[0]; i++)
        if (tok_is(lb_cur(b->p), m[i].w)) { in->aop = m[i].op; b->p->pos++; return (int)m[i].u; }
    lp_expect_fail(b->p, lb_cur(b->p),
                   "an atomicrmw operation: xchg, add, and, or, xor, max, min, umax or umin "
                   "(sub, nand and the floating-point ones are not modelled)");
    return -1;
}

static isa_type unsigned_of(isa_type t)
{
    return t == ISA_T_S8    ? ISA_T_U8
           : t == ISA_T_S16 ? ISA_T_U16
           : t == ISA_T_S32 ? ISA_T_U32
                            : ISA_T_U64;
}

static void set_type(lit_insn *in, isa_type ty)
{
    in->type = ty;
    in->size = (int)isa_type_bits(ty) / 8;
}

/* load [atomic] [volatile] T, PTR [syncscope] [ORDER] [, align N] */
static int op_load(lblock *b, const token *opc, const token *res, int start)
{
    parser *p = b->p;
    lit_insn in;
    memset(&in, 0, sizeof in);
    in.k = LI_LD;
    int atomic = tok_is(lb_cur(p), "atomic");
    if (atomic) p->pos++;
    if (tok_is(lb_cur(p), "volatile")) { in.volatile_ = 1; p->pos++; }
    isa_type ty;
    lit_scope sc = SCOPE_SYS;
    lorder o = O_NA;
    if (parse_int_type(b, &ty) || lb_expect(p, ',', "',' and the pointer") ||
        parse_ptr(b, &in.addr))
        return -1;
    if (atomic &&
        (parse_syncscope(b, &sc) ||
         parse_order(b, 1u << O_UNORDERED | 1u << O_MONOTONIC | 1u << O_ACQUIRE | 1u << O_SEQ_CST,
                     "the ordering of an atomic load: unordered, monotonic, acquire or seq_cst",
                     &o)))
        return -1;
    if (parse_align(b)) return -1;
    if (!res) {
        lp_errat(p, opc, "found a load without a result, expected '%%r = load ...'");
        return -1;
    }
    set_type(&in, ty);
    if (def_result(b, res, &in)) return -1;
    return lower(b, opc, in, o, sc, start);
}

/* store [atomic] [volatile] T V, PTR [syncscope] [ORDER] [, align N] */
static int op_store(lblock *b, const token *opc, const token *res, int start)
{
    parser *p = b->p;
    if (res) { lp_errat(p, res, "found a result of 'store', expected none"); return -1; }
    lit_insn in;
    memset(&in, 0, sizeof in);
    in.k = LI_ST;
    int atomic = tok_is(lb_cur(p), "atomic");
    if (atomic) p->pos++;
    if (tok_is(lb_cur(p), "volatile")) { in.volatile_ = 1; p->pos++; }
    isa_type ty;
    lit_scope sc = SCOPE_SYS;
    lorder o = O_NA;
    in.nsrc = 1;
    if (parse_int_type(b, &ty) || parse_value(b, &in.src[0]) ||
        lb_expect(p, ',', "',' and the pointer") || parse_ptr(b, &in.addr))
        return -1;
    if (atomic &&
        (parse_syncscope(b, &sc) ||
         parse_order(b, 1u << O_UNORDERED | 1u << O_MONOTONIC | 1u << O_RELEASE | 1u << O_SEQ_CST,
                     "the ordering of an atomic store: unordered, monotonic, release or seq_cst",
                     &o)))
        return -1;
    if (parse_align(b)) return -1;
    set_type(&in, ty);
    return lower(b, opc, in, o, sc, start);
}

/* fence [syncscope] ORDER */
static int op_fence(lblock *b, const token *opc, const token *res, int start)
{
    parser *p = b->p;
    if (res) { lp_errat(p, res, "found a result of 'fence', expected none"); return -1; }
    lit_scope sc;
    lorder o;
    if (parse_syncscope(b, &sc) ||
        parse_order(b, 1u << O_ACQUIRE | 1u << O_RELEASE | 1u << O_ACQ_REL | 1u << O_SEQ_CST,
                    "the ordering of a fence: acquire, release, acq_rel or seq_cst", &o))
        return -1;
    if (b->m == LLVM_SOURCE) {
        lit_insn in;
        memset(&in, 0, sizeof in);
        in.k = LI_FENCE;
        in.fence = o == O_SEQ_CST ? FENCE_SC : FENCE_ACQ_REL;
        in.sem = source_sem(o);
        in.scope = sc;
        emit(b, opc, &in, lb_span_text(p, start, p->pos));
        return 0;
    }
    if (b->m == LLVM_MAP_LLC14) {
        lp_errat(p, opc,
                 "found a fence, expected what llc 14 can lower (it stops with 'LLVM ERROR: Cannot "
                 "select: "
                 "AtomicFence': suites/llvm/llc/)");
        return -1;
    }
    emit_fence(b, opc, o == O_SEQ_CST && b->m != LLVM_MAP_NO_FENCE_SC ? FENCE_SC : FENCE_ACQ_REL,
               sc);
    return 0;
}

/* atomicrmw [volatile] OP PTR, T V [syncscope] ORDER [, align N] */
static int op_rmw(lblock *b, const token *opc, const token *res, int start)
{
    parser *p = b->p;
    lit_insn in;
    memset(&in, 0, sizeof in);
    in.k = LI_ATOM;
    if (tok_is(lb_cur(p), "volatile")) p->pos++;
    int u = atomic_rmw_op(b, &in);
    isa_type ty;
    lit_scope sc;
    lorder o;
    in.nsrc = 1;
    if (u < 0 || parse_ptr(b, &in.addr) || lb_expect(p, ',', "',' and the operand") ||
        parse_int_type(b, &ty) || parse_value(b, &in.src[0]) || parse_syncscope(b, &sc) ||
        parse_order(b,
                    1u << O_MONOTONIC | 1u << O_ACQUIRE | 1u << O_RELEASE | 1u << O_ACQ_REL |
                        1u << O_SEQ_CST,
                    "the ordering of atomicrmw: monotonic, acquire, release, acq_rel or seq_cst",
                    &o) ||
        parse_align(b))
        return -1;
    set_type(&in, u ? unsigned_of(ty) : ty);
    if (!res) {
        lp_errat(p, opc, "found atomicrmw without a result, expected '%%r = atomicrmw ...'");
        return -1;
    }
    if (def_result(b, res, &in)) return -1;
    return lower(b, opc, in, o, sc, start);
}

/* cmpxchg [weak] [volatile] PTR, T C, T N [syncscope] SUCCESS FAILURE [, align N] */
static int op_cmpxchg(lblock *b, const token *opc, const token *res, int start)
{
    parser *p = b->p;
    lit_insn in;
    memset(&in, 0, sizeof in);
    in.k = LI_ATOM;
    in.aop = ISA_ATOM_CAS;
    if (tok_is(lb_cur(p), "weak")) {
        lp_errat(
            p, lb_cur(p),
            "found 'cmpxchg weak', expected a strong cmpxchg (spurious failures are not modelled)");
        return -1;
    }
    if (tok_is(lb_cur(p), "volatile")) p->pos++;
    isa_type ty, ty2;
    lit_scope sc;
    lorder o, f;
    in.nsrc = 2;
    if (parse_ptr(b, &in.addr) || lb_expect(p, ',', "',' and the compared value") ||
        parse_int_type(b, &ty) || parse_value(b, &in.src[0]) ||
        lb_expect(p, ',', "',' and the new value") || parse_int_type(b, &ty2) ||
        parse_value(b, &in.src[1]) || parse_syncscope(b, &sc) ||
        parse_order(
            b,
            1u << O_MONOTONIC | 1u << O_ACQUIRE | 1u << O_RELEASE | 1u << O_ACQ_REL |
                1u << O_SEQ_CST,
            "the success ordering of cmpxchg: monotonic, acquire, release, acq_rel or seq_cst", &o))
        return -1;
    /* a failed cmpxchg is its read alone, with the read half of the success ordering: only that
       failure ordering is accepted (docs/llvm-mapping.md) */
    lorder want = o == O_RELEASE ? O_MONOTONIC : o == O_ACQ_REL ? O_ACQUIRE : o;
    const token *ft = lb_cur(p);
    if (parse_order(b, 1u << O_MONOTONIC | 1u << O_ACQUIRE | 1u << O_SEQ_CST,
                    "the failure ordering of cmpxchg: monotonic, acquire or seq_cst", &f))
        return -1;
    if (f != want) {
        lp_errat(p, ft,
                 "found the failure ordering '%s', expected '%s' (the read half of '%s'; other "
                 "failure orderings "
                 "are not modelled)",
                 order_words[f], order_words[want], order_words[o]);
        return -1;
    }
    if (parse_align(b)) return -1;
    if (ty2 != ty) {
        lp_errat(p, opc, "found operands of two types, expected one integer type");
        return -1;
    }
    set_type(&in, ty);
    if (!res) {
        lp_errat(p, opc, "found cmpxchg without a result, expected '%%r = cmpxchg ...'");
        return -1;
    }
    if (def_result(b, res, &in)) return -1;
    return lower(b, opc, in, o, sc, start);
}

static int parse_insn(lblock *b)
{
    parser *p = b->p;
    int start = p->pos;
    const token *res = NULL;
    if (lb_cur(p)->k == TK_IDENT && lb_cur(p)->s[0] == '%' && tok_punct(lb_peek(p, 1), '=')) {
        res = lb_cur(p);
        p->pos += 2;
    }
    const token *opc = lb_cur(p);
    p->pos++;
    if (tok_is(opc, "load")) return op_load(b, opc, res, start);
    if (tok_is(opc, "store")) return op_store(b, opc, res, start);
    if (tok_is(opc, "fence")) return op_fence(b, opc, res, start);
    if (tok_is(opc, "atomicrmw")) return op_rmw(b, opc, res, start);
    if (tok_is(opc, "cmpxchg")) return op_cmpxchg(b, opc, res, start);
    p->pos--;
    lp_expect_fail(p, opc, "an LLVM instruction: load, store, fence, atomicrmw or cmpxchg");
    return -1;
}

static int parse_thread(parser *p, llvm_mode m)
{
    int ti = lb_parse_thread_head(p, 1, p->t->nth);
    if (ti < 0) return -1;
    lblock b = { .p = p, .ti = ti, .m = m };
    int rc = 0;
    while (!tok_punct(lb_cur(p), '}')) {
        if (lb_cur(p)->k == TK_EOF) {
            lp_expect_fail(p, lb_cur(p), "'}' closing the thread");
            rc = -1;
            break;
        }
        if ((rc = parse_insn(&b))) break;
    }
    if (!rc) p->pos++;
    for (int i = 0; i < b.nv; i++) free(b.vals[i]);
    free(b.vals);
    return rc;
}

lit_test *llvm_parse(const char *file, const char *text, int max_depth, llvm_mode m, char *err,
                     size_t errlen)
{
    parser p;
    char *copy;
    int rc = lb_begin(&p, "LLVM", file, text, max_depth, err, errlen, &copy);
    if (!rc) rc = lb_parse_init(&p);
    while (!rc && lb_cur(&p)->k == TK_IDENT && lb_cur(&p)->s[0] == 'P' &&
           (tok_punct(lb_peek(&p, 1), '@') || tok_punct(lb_peek(&p, 1), '{')))
        rc = parse_thread(&p, m);
    if (!rc && !p.t->nth) {
        lp_expect_fail(&p, lb_cur(&p), "a thread such as 'P0@cta 0,gpu 0 {'");
        rc = -1;
    }
    if (!rc) rc = lp_check_program(&p);
    if (!rc) rc = lb_parse_tail(&p);
    lb_end(&p, copy);
    if (rc || p.failed) { lit_free(p.t); return NULL; }
    return p.t;
}

lit_test *llvm_parse_lowered(const char *file, const char *text, int max_depth, char *err,
                             size_t errlen)
{
    return llvm_parse(file, text, max_depth, LLVM_MAP_NVPTX, err, errlen);
}
