/* hw/util.c — small helpers of the hardware harness: refusal messages with source positions,
 * names of semantics and scopes, the access method and PTX type of a memory instruction,
 * escaping for C strings and inline-asm templates, operands known when generating, the cells
 * of lowered instructions, paths through a barrier, and a cell's decoded mnemonic. */
#include "hw/hw_int.h"
#include "ptx/mnemonic.h"
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int hw_refuse(char *err, size_t errlen, const char *file, int line, int col, const char *fmt, ...)
{
    int n = snprintf(err, errlen, "%s:%d:%d: ", file ? file : "?", line > 0 ? line : 1,
                     col > 0 ? col : 1);
    if (n < 0 || (size_t)n >= errlen) return -1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
    va_end(ap);
    return -1;
}

static char *read_text(const char *path)
{
    FILE *f = path ? fopen(path, "rb") : NULL;
    if (!f) return NULL;
    size_t cap = 4096, n = 0;
    char *s = malloc(cap);
    while (s) {
        if (n + 1024 > cap) {
            char *b = realloc(s, cap * 2);
            if (!b) {
                free(s);
                s = NULL;
                break;
            }
            s = b, cap *= 2;
        }
        size_t k = fread(s + n, 1, cap - n - 1, f);
        n += k;
        if (!k) break;
    }
    fclose(f);
    if (s) s[n] = 0;
    return s;
}

/* First occurrence of word `name` followed by optional blanks and one of the characters of
 * `next`, as a line/column; 1:1 when absent. */
static void find_decl(const char *file, const char *name, const char *next, int *line, int *col)
{
    *line = 1, *col = 1;
    char *s = read_text(file);
    if (!s) return;
    size_t l = strlen(name);
    int ln = 1, cl = 1;
    for (const char *p = s; *p; p++) {
        int start = p == s || !(isalnum((unsigned char)p[-1]) || p[-1] == '_' || p[-1] == '%');
        if (start && !strncmp(p, name, l) && !(isalnum((unsigned char)p[l]) || p[l] == '_')) {
            const char *q = p + l;
            while (*q == ' ' || *q == '\t') q++;
            if (*q && strchr(next, *q)) {
                *line = ln, *col = cl;
                break;
            }
        }
        if (*p == '\n') ln++, cl = 1;
        else cl++;
    }
    free(s);
}

void hw_thread_pos(const lit_test *t, int th, int *line, int *col)
{
    find_decl(t->file, t->th[th].name, "@|;", line, col);
    if (*line == 1 && *col == 1 && t->th[th].nins)
        *line = t->th[th].ins[0].line, *col = t->th[th].ins[0].col;
}

void hw_sym_pos(const lit_test *t, int sym, int *line, int *col)
{
    find_decl(t->file, t->sym[sym].name, "@=;", line, col);
}

const char *hw_scope_name(lit_scope s)
{
    static const char *const n[] = { "", "cta", "cluster", "gpu", "sys" };
    return (unsigned)s < 5 ? n[s] : "?";
}

const char *hw_sem_name(lit_sem s)
{
    static const char *const n[] = { "weak", "relaxed", "acquire", "release", "acq_rel", "sc" };
    return (unsigned)s < 6 ? n[s] : "?";
}

int hw_type_width(isa_type t) { return t == ISA_T_PRED ? HW_W_PRED : (int)isa_type_bits(t); }

lit_proxy hw_eff_proxy(const lit_test *t, const lit_insn *in)
{
    if (in->proxy != PROXY_GENERIC) return in->proxy;
    if (in->addr.k == OPD_SYM && in->addr.sym >= 0 && in->addr.sym < t->nsym)
        return t->sym[in->addr.sym].proxy;
    return PROXY_GENERIC;
}

int hw_insn_loc(const hw_plan *p, const lit_insn *in)
{
    return in->addr.k == OPD_SYM ? p->sym_loc[in->addr.sym] : -1;
}

static isa_type sized(int bytes, isa_type t4, isa_type t8)
{
    return bytes == 8 ? t8 : bytes == 4 ? t4 : ISA_T_NONE;
}

/* atom/red types (§9.7.12.5, §9.7.12.6): and/or/xor/exch/cas take .b32/.b64, add .u32 .s32
 * .u64 (and floats), inc/dec only .u32, min/max .u32 .s32 .u64 .s64.  An explicit type is
 * kept when PTX has it; the litmus dialect's untyped operations get the type of their
 * location's size (the model computes them on 64-bit signed integers: the results agree
 * whenever the values fit in the location, as in every bundled test). */
static isa_type atom_type(isa_atom_op op, isa_type t, int bytes, char *why, size_t len)
{
    int bits = t == ISA_T_NONE ? bytes * 8 : (int)isa_type_bits(t), sgn = isa_type_is_signed(t);
    int flt = isa_type_is_float(t);
    isa_type r = ISA_T_NONE;
    switch (op) {
    case ISA_ATOM_AND:
    case ISA_ATOM_OR:
    case ISA_ATOM_XOR:
    case ISA_ATOM_EXCH:
    case ISA_ATOM_CAS:
        if (!flt || op == ISA_ATOM_EXCH || op == ISA_ATOM_CAS)
            r = sized(bits / 8, ISA_T_B32, ISA_T_B64);
        break;
    case ISA_ATOM_ADD:
    case ISA_ATOM_SUB:
        if (flt) r = t == ISA_T_F32 || t == ISA_T_F64 ? t : ISA_T_NONE;
        else if (t == ISA_T_S32) r = t;
        else r = sized(bits / 8, ISA_T_U32, ISA_T_U64);
        break;
    case ISA_ATOM_INC:
    case ISA_ATOM_DEC: r = bits == 32 && !flt ? ISA_T_U32 : ISA_T_NONE; break;
    case ISA_ATOM_MIN:
    case ISA_ATOM_MAX:
        if (t != ISA_T_NONE && !sgn && isa_type_name(t)[0] == 'b') break;
        r = flt                        ? ISA_T_NONE
            : (sgn || t == ISA_T_NONE) ? sized(bits / 8, ISA_T_S32, ISA_T_S64)
                                       : sized(bits / 8, ISA_T_U32, ISA_T_U64);
        break;
    default: break;
    }
    if (r == ISA_T_NONE)
        snprintf(why, len,
                 "found atomic .%s on a %d-bit %s, expected a type PTX has for it "
                 "(§9.7.12.5: .inc/.dec .u32 only; .and/.or/.xor .b32/.b64; min/max signed or "
                 "unsigned integers)",
                 isa_atom_name(op), bits, t == ISA_T_NONE ? "location" : isa_type_name(t));
    return r;
}

isa_type hw_access_type(const hw_plan *p, const lit_insn *in, char *why, size_t whylen)
{
    int loc = hw_insn_loc(p, in), bytes = loc >= 0 ? p->loc_bytes[loc] : 4;
    if (in->k == LI_ATOM || in->k == LI_RED)
        return atom_type(in->aop, in->type, bytes, why, whylen);
    if (in->type != ISA_T_NONE) {
        if (in->type == ISA_T_PRED || isa_type_bits(in->type) > 64) {
            snprintf(why, whylen, "found a .%s access, expected a scalar integer or float type",
                     isa_type_name(in->type));
            return ISA_T_NONE;
        }
        return in->type;
    }
    return bytes == 8 ? ISA_T_U64 : bytes == 2 ? ISA_T_U16 : bytes == 1 ? ISA_T_U8 : ISA_T_U32;
}

void hw_c_escape(char *dst, size_t len, const char *src, int asm_template)
{
    size_t n = 0;
    for (const char *s = src; *s && n + 5 < len; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') dst[n++] = '\\', dst[n++] = (char)c;
        else if (c == '%' && asm_template) dst[n++] = '%', dst[n++] = '%';
        else if (c == '\n') dst[n++] = ' ';
        else if (c < 0x20 || c >= 0x7f) dst[n++] = '?';
        else dst[n++] = (char)c;
    }
    if (len) dst[n < len ? n : len - 1] = 0;
}

int hw_const_opnd(const lit_thread *T, const lit_opnd *o, int64_t *v)
{
    if (o->k == OPD_IMM) {
        *v = o->imm;
        return 0;
    }
    if (o->k != OPD_REG) return -1;
    for (int j = 0; j < T->nins; j++) {
        const lit_insn *in = &T->ins[j];
        for (int k = 0; k < in->ndst; k++)
            if (in->dst[k].k == OPD_REG && in->dst[k].reg == o->reg) return -1;
        if (in->k == LI_BAR && in->bar == BAR_RED && in->dst[0].k == OPD_REG &&
            in->dst[0].reg == o->reg)
            return -1;
    }
    *v = T->reg_init[o->reg];
    return 0;
}

int hw_cell_cont(const lit_thread *T, int j)
{
    return j > 0 && T->ins[j].line == T->ins[j - 1].line && T->ins[j].col == T->ins[j - 1].col;
}

int hw_reached_once(const lit_thread *T, int j, int *b)
{
    for (int k = 0; k < T->nins; k++) {
        const lit_insn *in = &T->ins[k];
        if (in->k != LI_BRANCH && in->k != LI_GOTO) continue;
        int tg = in->target < 0 ? T->nins : in->target;
        if ((k < j && tg > j) || (k >= j && tg <= j)) {
            *b = k;
            return 0;
        }
    }
    return 1;
}

int hw_mnemonic(const lit_insn *in, int drop_aligned, char *buf, size_t len)
{
    const char *s = in->text ? in->text : "";
    for (;;) {   /* a label "L:" and a guard "@%p" may come first in the cell's text */
        while (*s == ' ' || *s == '\t') s++;
        size_t w = strcspn(s, " \t");
        if (*s == '@' || (w > 1 && s[w - 1] == ':')) s += w;
        else break;
    }
    size_t n = strcspn(s, " \t");
    ptx_mnemonic m;
    ptx_mn_error e;
    if (!n || ptx_mnemonic_parse(s, n, &m, &e)) return -1;
    size_t k = (size_t)snprintf(buf, len, "%.*s", (int)m.base_len, s);
    for (int i = 0; i < m.nq && k < len; i++) {
        if (drop_aligned && m.q[i].cls == PTX_QC_ALIGNED) continue;
        k += (size_t)snprintf(buf + k, len - k, ".%.*s", (int)m.q[i].len, s + m.q[i].off);
    }
    return k < len ? 0 : -1;
}

int hw_decoded_insn(const lit_insn *in)
{
    if (in->mbar || in->async_id || in->await) return 1;
    if (in->k == LI_BAR) return in->bar == BAR_CARRIVE || in->bar == BAR_CWAIT;
    if (in->k == LI_FENCE)
        return in->fence == FENCE_PROXY_ASYNC || in->fence == FENCE_PROXY_TENSORMAP ||
               in->restrict_ || in->sem == SEM_ACQUIRE || in->sem == SEM_RELEASE;
    return 0;
}
