/* exec/wmma.c — the warp-level matrix instructions wmma.load.{a,b,c}, wmma.store.d and wmma.mma
 * (PTX ISA 8.4 §9.7.13.3.1-5): decoding of the mnemonic (wmma_decode, called by the loader
 * exec/load.c), the fragment layouts, the memory accesses and the arithmetic (mma_matrix of
 * exec/mma.c, whose comment gives the accumulation rules; .f64 honours .rn/.rz/.rm/.rp).
 *
 * Forms (§9.7.13.3.3-5): .f16 (m16n16k16, m8n32k16, m32n8k16; .f16 or .f32 accumulators), .bf16
 * and .s8/.u8 (same shapes; .f32 / .s32), .tf32 (m16n16k8; .f32), .f64 (m8n8k4), .s4/.u4
 * (m8n8k32) and .b1 (m8n8k128, .xor.popc / .and.popc), the latter two only .row A and .col B;
 * .row/.col layouts, the optional stride operand, .global/.shared{::cta}/generic addressing.
 *
 * Fragment layouts.  §9.7.13.3.1 gives only the number of registers of each fragment: "the
 * distribution of fragments loaded by the threads in a warp is unspecified and is target
 * architecture dependent".  We choose the layout of mma.sync (§9.7.13.4.4-13) for the same
 * element type on sm_80+: a wmma matrix is cut into mma.sync tiles, and a fragment is the tiles'
 * fragments one after the other.  With groupID g = %laneid >> 2, t = %laneid % 4, and p elements
 * per 32-bit register (f16/bf16 2, tf32 1, s8/u8 4, s4/u4 8, b1 32; f64 one per 64-bit register),
 * element j of register r of a tile is:
 *     A (tiles of TM = 16 rows, or 8 when M = 8, by K, along M; h = TM / 8):
 *         row = g + 8 * (r % h)                col = t * p + j + (r / h) * 4p
 *     B (tiles of K by 8 columns, along N):   row = t * p + j + r * 4p            col = g
 *     C, D (tiles of TM by 8, row by row):    element i of a tile: row = g + 8 * (i >= 2),
 *         col = t * 2 + (i & 1); .f16 packs elements 2q and 2q + 1 in register q.
 * (TM = 16: the m16n8kK formulas of mma.sync; TM = 8: their rows below 8, the m8n8kK forms.)  This
 * gives exactly the register counts of §9.7.13.3.1 for every type but .f16, whose A and B
 * fragments have 8 registers: their tiles fill the first 2 (m8n32k16 A, m32n8k16 B), 4
 * (m16n16k16) or 8 (m32n8k16 A, m8n32k16 B) registers and the rest repeat them (m16n16k16 A:
 * registers 4-7 repeat 0-3).  wmma.mma reads the first copy.  What the ISA requires holds for
 * any of these choices: load -> mma -> store computes D = A * B + C.
 *
 * Memory (§9.7.13.3.2): element (row, col) of a .row matrix is element row * stride + col from
 * the address p (.col: col * stride + row); the stride, in elements, defaults to the leading
 * dimension.  s4/u4 elements are nibbles and b1 elements bits, element 2i (8i) in the low bits of
 * byte i.  Faults, where the ISA says "undefined": p not a multiple of the fragment size in
 * bytes, a stride below the default, lanes giving different p or stride (§9.7.13.3.3); the
 * element accesses themselves are checked like any load/store.  (The ISA also asks the stride in
 * bytes to be a multiple of the fragment size; CUDA's documented ldm rule is weaker, and that is
 * not checked.)
 */
#include "exec/wmma.h"

#include <stdio.h>
#include <string.h>

static int werr(char *err, size_t n, const char *msg)
{
    snprintf(err, n, "wmma: %s", msg);
    return -1;
}

static const char *tname_of(int t)
{
    static const char *names[] = { "?", "f16", "bf16", "tf32", "f32", "f64", "s8", "u8", "s4",
                                   "u4", "b1", "s32", "e4m3", "e5m2" };
    return t > 0 && t <= MT_E5M2 ? names[t] : "?";
}

static int family(int t) { return t == MT_U8 ? MT_S8 : t == MT_U4 ? MT_S4 : t; }

/* §9.7.13.3.3-5: the shapes of each multiplicand family and its accumulator types */
static const struct {
    uint8_t m, n, k, at;
    uint8_t acc[2];
} wforms[] = {
    { 16, 16, 16, MT_F16, { MT_F16, MT_F32 } }, { 8, 32, 16, MT_F16, { MT_F16, MT_F32 } },
    { 32, 8, 16, MT_F16, { MT_F16, MT_F32 } },  { 16, 16, 16, MT_BF16, { MT_F32, 0 } },
    { 8, 32, 16, MT_BF16, { MT_F32, 0 } },      { 32, 8, 16, MT_BF16, { MT_F32, 0 } },
    { 16, 16, 16, MT_S8, { MT_S32, 0 } },       { 8, 32, 16, MT_S8, { MT_S32, 0 } },
    { 32, 8, 16, MT_S8, { MT_S32, 0 } },        { 16, 16, 8, MT_TF32, { MT_F32, 0 } },
    { 8, 8, 4, MT_F64, { MT_F64, 0 } },         { 8, 8, 32, MT_S4, { MT_S32, 0 } },
    { 8, 8, 128, MT_B1, { MT_S32, 0 } },
};
#define NFORMS (sizeof wforms / sizeof wforms[0])

/* the form of the shape with multiplicand family fa (0: any) and accumulator ct (0: any) */
static int find_form(const xmma *mm, int fa, int ct)
{
    for (size_t i = 0; i < NFORMS; i++)
        if (wforms[i].m == mm->m && wforms[i].n == mm->n && wforms[i].k == mm->k &&
            (!fa || wforms[i].at == fa) &&
            (!ct || wforms[i].acc[0] == ct || wforms[i].acc[1] == ct))
            return (int)i;
    return -1;
}

/* ------------------------------------------------------------------ fragments */

/* One fragment: an R x C matrix of element type `type` in nreg registers per lane, ndist of
 * them distinct (the rest repeat them), p elements per register of `bits` bits each. */
typedef struct {
    char role;          /* 'a', 'b', 'c' (C or D) */
    unsigned rows, cols, type, bits, p, ndist, nreg;
} wfrag;

static wfrag frag_of(const xmma *mm, char role)
{
    wfrag f = { role, mm->m, mm->n, 0, 0, 0, 0, 0 };
    if (role == 'a') f.cols = mm->k, f.type = mm->at;
    else if (role == 'b') f.rows = mm->k, f.type = mm->bt;
    else f.type = role == 'd' ? mm->dt : mm->ct, f.role = 'c';
    f.bits = mma_type_bits((int)f.type);
    f.p = f.role == 'c' ? (f.type == MT_F16 ? 2 : 1) : f.bits == 64 ? 1 : 32 / f.bits;
    f.ndist = f.rows * f.cols / 32 / f.p;
    f.nreg = f.role != 'c' && f.type == MT_F16 ? 8 : f.ndist;   /* §9.7.13.3.1 */
    return f;
}

/* (row, col) of element j of register r of lane l (the layouts at the top) */
static void elem_pos(const wfrag *f, unsigned l, unsigned r, unsigned j, unsigned *row,
                     unsigned *col)
{
    unsigned g = l >> 2, t = l & 3, p = f->p;
    r %= f->ndist;
    if (f->role == 'a') {
        unsigned tm = f->rows >= 16 ? 16 : 8, h = tm / 8, per = h * f->cols / (4 * p);
        unsigned tile = r / per, q = r % per;
        *row = tile * tm + g + 8 * (q % h);
        *col = t * p + j + (q / h) * 4 * p;
    } else if (f->role == 'b') {
        unsigned per = f->rows / (4 * p), tile = r / per, q = r % per;
        *row = t * p + j + q * 4 * p;
        *col = tile * 8 + g;
    } else {
        unsigned tm = f->rows >= 16 ? 16 : 8, per = tm * 8 / 32, e = r * p + j;
        unsigned tile = e / per, i = e % per, ntn = f->cols / 8;
        *row = (tile / ntn) * tm + g + 8 * (i >= 2);
        *col = (tile % ntn) * 8 + t * 2 + (i & 1);
    }
}

/* ------------------------------------------------------------------ decoding */

typedef struct {
    int types[4], nt, lay[2], nl, sync, shape, nrnd, nspace;
} wwords;

/* one qualifier word; 0, or -1 with a reason */
static int word(const char *s, xmma *mm, wwords *q, char *err, size_t n)
{
    unsigned a, b, c;
    char tail;
    int t = mma_type_named(s);
    if (sscanf(s, "m%un%uk%u%c", &a, &b, &c, &tail) == 3 && a < 256 && b < 256 && c < 256) {
        if (q->shape++) return werr(err, n, "two shapes (§9.7.13.3)");
        mm->m = (uint8_t)a, mm->n = (uint8_t)b, mm->k = (uint16_t)c;
    }
    else if (t && q->nt < 4) q->types[q->nt++] = t;
    else if (!strcmp(s, "row") || !strcmp(s, "col")) {
        if (q->nl == 2) return werr(err, n, "too many .row/.col qualifiers (§9.7.13.3)");
        q->lay[q->nl++] = s[0] == 'c';
    } else if (!strcmp(s, "sync")) q->sync = 1;
    else if (!strcmp(s, "satfinite")) mm->sat = 1;
    else if (!strcmp(s, "xor")) mm->bop = 1;
    else if (!strcmp(s, "and")) mm->bop = 2;
    else if (!strcmp(s, "rn") || !strcmp(s, "rz") || !strcmp(s, "rm") || !strcmp(s, "rp")) {
        if (q->nrnd++) return werr(err, n, "two rounding modes (§9.7.13.3.5)");
        mm->rnd = (uint8_t)(s[1] == 'n' ? 0 : s[1] == 'z' ? 1 : s[1] == 'm' ? 2 : 3);
    } else if (!strcmp(s, "global") || !strcmp(s, "shared") || !strcmp(s, "shared::cta")) {
        if (q->nspace++) return werr(err, n, "two state spaces (§9.7.13.3.3)");
    } else if (strcmp(s, "aligned") && strcmp(s, "popc"))
        return snprintf(err, n,
                        "wmma: .%s is not a qualifier of wmma (§9.7.13.3.3-5; state spaces: "
                        ".global, .shared{::cta} or none)", s),
               -1;
    return 0;
}

/* wmma.load.{a,b,c} / wmma.store.d: one layout and one type */
static int check_ldst(xmma *mm, const wwords *q, char *err, size_t n)
{
    if (q->nl != 1 || q->nt != 1)
        return werr(err, n, "wmma.load/wmma.store need one .row/.col and one type (§9.7.13.3.3)");
    int t = q->types[0], ab = mm->frag == 'a' || mm->frag == 'b';
    mm->col = (uint8_t)q->lay[0];
    if (find_form(mm, ab ? family(t) : 0, ab ? 0 : t) < 0)
        return snprintf(err, n,
                        "wmma: shape m%un%uk%u has no .%s %c fragment (§9.7.13.3.3: .f16 .bf16 "
                        ".s8 .u8 m16n16k16 m8n32k16 m32n8k16, .tf32 m16n16k8, .f64 m8n8k4, .s4 "
                        ".u4 m8n8k32, .b1 m8n8k128; C/D: .f16 .f32 .s32 .f64 of those)",
                        mm->m, mm->n, mm->k, tname_of(t), mm->frag == 'd' ? 'D' : mm->frag - 32),
               -1;
    int fa = family(t);
    if ((fa == MT_S4 || fa == MT_B1) && ab && mm->col != (mm->frag == 'b'))
        return werr(err, n, ".s4/.u4/.b1 load A .row and B .col only (§9.7.13.3.3)");
    if (mm->frag == 'a') mm->at = (uint8_t)t, mm->nd = (uint8_t)frag_of(mm, 'a').nreg;
    else if (mm->frag == 'b') mm->bt = (uint8_t)t, mm->nd = (uint8_t)frag_of(mm, 'b').nreg;
    else if (mm->frag == 'c') mm->ct = (uint8_t)t, mm->nd = (uint8_t)frag_of(mm, 'c').nreg;
    else mm->dt = (uint8_t)t, mm->nc = (uint8_t)frag_of(mm, 'd').nreg;
    return 0;
}

/* wmma.mma: .alayout.blayout, .dtype.ctype (.f16 A and B) or .dtype.atype.btype.ctype */
static int check_mma(xmma *mm, const wwords *q, char *err, size_t n)
{
    if (q->nl != 2) return werr(err, n, "wmma.mma needs .alayout.blayout (§9.7.13.3.5)");
    if (q->nt != 2 && q->nt != 4)
        return werr(err, n,
                    "wmma.mma needs .dtype.ctype or .dtype.atype.btype.ctype (§9.7.13.3.5)");
    mm->acol = (uint8_t)q->lay[0], mm->bcol = (uint8_t)q->lay[1];
    mm->dt = (uint8_t)q->types[0], mm->ct = (uint8_t)q->types[q->nt - 1];
    mm->at = mm->bt = q->nt == 2 ? MT_F16 : (uint8_t)q->types[1];
    if (q->nt == 4) mm->bt = (uint8_t)q->types[2];
    int fa = family(mm->at), f = find_form(mm, fa, mm->ct);
    if (f < 0 || find_form(mm, fa, mm->dt) != f)
        return snprintf(err, n,
                        "wmma.mma: shape m%un%uk%u with these types is not a form of §9.7.13.3.5",
                        mm->m, mm->n, mm->k),
               -1;
    if (mm->at != mm->bt) return werr(err, n, ".atype and .btype differ (§9.7.13.3.5)");
    int isint = fa == MT_S8 || fa == MT_S4 || fa == MT_B1;
    if (mm->sat && !isint) return werr(err, n, ".satfinite is for integer forms (§9.7.13.3.5)");
    if ((fa == MT_B1) != (mm->bop != 0))
        return werr(err, n, ".b1 needs .xor.popc or .and.popc, other types none (§9.7.13.3.5)");
    if (mm->rnd && fa != MT_F64) return werr(err, n, ".rnd is for .f64 (§9.7.13.3.5)");
    if ((fa == MT_S4 || fa == MT_B1) && (mm->acol || !mm->bcol))
        return werr(err, n, ".s4/.u4/.b1 need .row.col (§9.7.13.3.5)");
    mm->na = (uint8_t)frag_of(mm, 'a').nreg, mm->nb = (uint8_t)frag_of(mm, 'b').nreg;
    mm->nc = (uint8_t)frag_of(mm, 'c').nreg, mm->nd = (uint8_t)frag_of(mm, 'd').nreg;
    return 0;
}

static int decode_words(char **w, int nw, xmma *mm, char *err, size_t n)
{
    wwords q;
    memset(&q, 0, sizeof q);
    int i = 2;
    if (nw < 2) return werr(err, n, "expected wmma.load, wmma.store or wmma.mma");
    if (!strcmp(w[1], "mma")) mm->kind = MM_WMMA_MMA;
    else if (!strcmp(w[1], "load") && nw > 2 && strchr("abc", w[2][0]) && !w[2][1])
        mm->kind = MM_WMMA_LOAD, mm->frag = (uint8_t)w[i++][0];
    else if (!strcmp(w[1], "store") && nw > 2 && !strcmp(w[2], "d"))
        mm->kind = MM_WMMA_STORE, mm->frag = (uint8_t)w[i++][0];
    else return werr(err, n, "expected wmma.load.{a,b,c}, wmma.store.d or wmma.mma (§9.7.13.3)");
    for (; i < nw; i++)
        if (word(w[i], mm, &q, err, n)) return -1;
    if (!q.sync) return werr(err, n, ".sync is mandatory (§9.7.13.3.3-5)");
    if (!q.shape) return werr(err, n, "no shape (.m16n16k16, ...; §9.7.13.3)");
    if (mm->kind == MM_WMMA_MMA && q.nspace)
        return werr(err, n, "wmma.mma has no state space (§9.7.13.3.5)");
    if (mm->kind != MM_WMMA_MMA && (mm->sat || mm->bop || mm->rnd))
        return werr(err, n, ".satfinite/.popc/.rnd are wmma.mma qualifiers (§9.7.13.3.5)");
    return mm->kind == MM_WMMA_MMA ? check_mma(mm, &q, err, n) : check_ldst(mm, &q, err, n);
}

/* ------------------------------------------------------------------ execution */

static int wfault(const wmma_io *io, int lane, const char *fmt, unsigned long long a,
                  unsigned long long b)
{
    char msg[300];
    snprintf(msg, sizeof msg, fmt, a, b);
    io->fault(io->env, lane, msg);
    return -1;
}

/* The address and stride of a wmma.load/store (sources 0 and last), the same in every lane. */
static int mem_args(const xmma *mm, const wfrag *f, const uint64_t (*S)[WMMA_MAXS], int ns,
                    const wmma_io *io, uint64_t *p, uint64_t *stride)
{
    const char *what = mm->kind == MM_WMMA_LOAD ? "wmma.load" : "wmma.store";
    uint64_t dflt = mm->col ? f->rows : f->cols;
    unsigned fsize = f->nreg * (f->bits == 64 ? 8 : 4);
    *p = S[0][0];
    *stride = mm->stride ? (uint32_t)S[0][ns - 1] : dflt;
    for (int l = 1; l < 32; l++)
        if (S[l][0] != *p || (mm->stride && S[l][ns - 1] != S[0][ns - 1]))
            return wfault(io, l,
                          mm->kind == MM_WMMA_LOAD
                              ? "wmma.load: lane %llu gives another address or stride than lane "
                                "%llu (undefined, §9.7.13.3.3)"
                              : "wmma.store: lane %llu gives another address or stride than lane "
                                "%llu (undefined, §9.7.13.3.4)",
                          (unsigned long long)l, 0);
    if (*p % fsize) {
        char fmt[200];
        snprintf(fmt, sizeof fmt, "%s: address 0x%%llx is not a multiple of the fragment size, "
                                  "%%llu bytes (§9.7.13.3.2)", what);
        return wfault(io, 0, fmt, *p, fsize);
    }
    if (*stride < dflt) {
        char fmt[200];
        snprintf(fmt, sizeof fmt, "%s: stride %%llu is below the leading dimension %%llu "
                                  "(undefined, §9.7.13.3.2)", what);
        return wfault(io, 0, fmt, *stride, dflt);
    }
    return 0;
}

/* wmma.load (ld) or wmma.store of one fragment between memory and the lanes' registers R */
static int move(const xmma *mm, const wfrag *f, uint64_t p, uint64_t stride, uint64_t *R,
                int ld, const wmma_io *io)
{
    unsigned rbits = f->bits == 64 ? 64 : 32 / f->p; /* bits of an element in the register */
    unsigned nb = f->bits < 8 ? 1 : f->bits / 8;
    uint64_t emask = f->bits >= 64 ? ~0ull : (1ull << f->bits) - 1;
    for (unsigned l = 0; l < 32; l++)
        for (unsigned r = 0; r < f->nreg; r++) {
            uint64_t v = ld ? 0 : R[l * WMMA_MAXS + r];
            for (unsigned j = 0; j < f->p; j++) {
                unsigned row, col;
                elem_pos(f, l, r, j, &row, &col);
                uint64_t idx = mm->col ? col * stride + row : row * stride + col;
                uint64_t bit = idx * f->bits;
                uint8_t *h = io->mem(io->env, (int)l, io->space, p + bit / 8, nb, !ld);
                if (!h) return -1;
                if (ld) {
                    uint64_t e = 0;
                    memcpy(&e, h, nb);
                    v |= (e >> (bit % 8) & emask) << (j * rbits);
                } else {
                    uint64_t e = v >> (j * rbits) & emask;
                    memcpy(h, &e, nb);   /* stores are of 16, 32 or 64-bit elements */
                }
            }
            if (ld) R[l * WMMA_MAXS + r] = v;
        }
    return 0;
}

/* wmma.mma: the fragments of A, B, C into matrices, mma_matrix, D back into fragments */
static void wmma_mma(const xmma *mm, const uint64_t (*S)[WMMA_MAXS], uint64_t (*D)[WMMA_MAXD])
{
    static _Thread_local uint64_t M[3][32 * 128], Dm[32 * 8];
    const wfrag fr[3] = { frag_of(mm, 'a'), frag_of(mm, 'b'), frag_of(mm, 'c') };
    const wfrag fd = frag_of(mm, 'd');
    unsigned base = 0;
    for (int m = 0; m < 3; m++) {
        const wfrag *f = &fr[m];
        unsigned rbits = f->bits == 64 ? 64 : 32 / f->p;
        uint64_t emask = f->bits >= 64 ? ~0ull : (1ull << f->bits) - 1;
        for (unsigned l = 0; l < 32; l++)
            for (unsigned r = 0; r < f->ndist; r++)   /* the first copy of each register */
                for (unsigned j = 0; j < f->p; j++) {
                    unsigned row, col;
                    elem_pos(f, l, r, j, &row, &col);
                    M[m][row * f->cols + col] = S[l][base + r] >> (j * rbits) & emask;
                }
        base += f->nreg;
    }
    mma_matrix(mm, M[0], M[1], M[2], Dm);
    unsigned rbits = fd.bits == 64 ? 64 : 32 / fd.p;
    for (unsigned l = 0; l < 32; l++)
        for (unsigned r = 0; r < fd.nreg; r++) {
            uint64_t v = 0;
            for (unsigned j = 0; j < fd.p; j++) {
                unsigned row, col;
                elem_pos(&fd, l, r, j, &row, &col);
                v |= Dm[row * fd.cols + col] << (j * rbits);
            }
            D[l][r] = v;
        }
}

int wmma_run(const xmma *mm, const uint64_t (*S)[WMMA_MAXS], uint64_t (*D)[WMMA_MAXD],
             const wmma_io *io)
{
    if (mm->kind == MM_WMMA_MMA) {
        wmma_mma(mm, S, D);
        return 0;
    }
    static _Thread_local uint64_t R[32 * WMMA_MAXS];
    int ld = mm->kind == MM_WMMA_LOAD;
    wfrag f = frag_of(mm, (char)mm->frag);
    int ns = 1 + mm->stride + (ld ? 0 : (int)f.nreg);
    uint64_t p, stride;
    if (mem_args(mm, &f, S, ns, io, &p, &stride)) return -1;
    if (!ld)
        for (unsigned l = 0; l < 32; l++)
            for (unsigned r = 0; r < f.nreg; r++) R[l * WMMA_MAXS + r] = S[l][1 + r];
    if (move(mm, &f, p, stride, R, ld, io)) return -1;
    if (ld)
        for (unsigned l = 0; l < 32; l++)
            for (unsigned r = 0; r < f.nreg; r++) D[l][r] = R[l * WMMA_MAXS + r];
    return 0;
}

int wmma_decode(const char *mnemonic, xmma *mm, char *err, size_t n)
{
    char buf[200], *w[24], *save = NULL;
    int nw = 0;
    memset(mm, 0, sizeof *mm);
    if (strlen(mnemonic) >= sizeof buf) return werr(err, n, "mnemonic too long");
    strcpy(buf, mnemonic);
    for (char *p = strtok_r(buf, ".", &save); p && nw < 24; p = strtok_r(NULL, ".", &save))
        w[nw++] = p;
    if (nw == 0 || strcmp(w[0], "wmma")) return werr(err, n, "not a wmma instruction");
    return decode_words(w, nw, mm, err, n);
}
