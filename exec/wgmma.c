/* exec/wgmma.c — warpgroup-level matrix multiply-accumulate (PTX ISA 8.4 §9.7.14, sm_90a):
 * decoding of wgmma.mma_async{.sp}, wgmma.fence/commit_group/wait_group and setmaxnreg
 * (§9.7.17.5), and the arithmetic of wgmma.mma_async for the 128 threads of a warpgroup.  The
 * engine (exec/matrix.c, h_wgmma) parks the four warps of the warpgroup (§9.7.14.1: warps 4i ..
 * 4i+3 of the CTA) until the last arrives, gathers their operands, calls wgmma_run with a reader
 * of the CTA's shared memory, and writes the accumulators back.
 *
 * Asynchrony (§9.7.14.4, §9.7.14.7): the executor is sequential, so the operation is performed
 * when the last warp of the warpgroup issues it; wgmma.fence, commit_group and wait_group have
 * nothing left to order or wait for and complete without effect (their operands are checked).
 * setmaxnreg is a hint (imm-reg-count 24..256, a multiple of 8, checked at load).
 *
 * Register fragments (§9.7.14.5.1.1, Figures 119-126): warp w = (thread / 32) % 4 of the
 * warpgroup holds rows 16w .. 16w+15 of A and D, in the layout of mma.m16n8 (exec/mma.c):
 * with g = %laneid >> 2, t = %laneid % 4 and p = 32 / (bits of .atype) elements per register,
 *     A, register r, element j:  row = 16w + g + 8 (r & 1)         col = t p + j + (r >> 1) 4p
 *     D, element i:              row = 16w + g + 8 ((i >> 1) & 1)  col = 8 (i >> 2) + 2t + (i & 1)
 * .f16 accumulators pack elements 2i, 2i+1 in register i (low half first).
 *
 * Shared memory (§9.7.14.5.1.2, descriptor §9.7.14.5.1.2.7): the descriptor gives the start
 * address ((bits 13-0) << 4), the leading dimension byte offset LBO (bits 29-16, << 4: between
 * core matrices adjacent in K), the stride dimension byte offset SBO (bits 45-32, << 4: between
 * core matrices adjacent in M or N), the base offset (bits 51-49) and the swizzle mode (bits
 * 63-62: 0 none, 1 128B, 2 64B, 3 32B).  A core matrix is 8 rows of 16 bytes (A: rows are M,
 * B: rows are N, each row K-contiguous: "row-major A, column-major B").  With W the swizzle
 * width (16 bytes without swizzle) and kb the byte of element k in its row, element (mn, k) is at
 *     start + (mn / 8) SBO + (kb / W) LBO + (mn % 8) W + kb % W
 * (W = 16: core matrices along K are LBO apart; swizzled, the W/16 core matrices of a W-byte row
 * are adjacent, as Figures 141-144 draw them).  The swizzle then exchanges 16-byte chunks within
 * the repeating pattern (Figures 142-144: 2, 4 or 8 core matrices; 256, 512, 1024 bytes): address
 * bits [4, 4+b) ^= bits [7, 7+b), b = 1, 2, 3 for 32B, 64B, 128B, where the pattern starts at a
 * boundary of its size minus 128 * base offset (the base offset is (pattern start >> 7) & 7).
 * Transposed operands (imm-trans = 1, .f16/.bf16 only: MN-major, 8 K-rows of 16 bytes of M or N
 * elements): without swizzle K core matrices are LBO apart and M/N core matrices SBO apart; with
 * a swizzle of width W, the W/16 chunks of a row hold W/2 consecutive M/N elements, the next W/2
 * are LBO further and the next 8 K-rows SBO further (the roles of Figures 139-140 as the CUDA
 * CUTLASS library programs them; the 8.4 text shows them only in images).
 *
 * Sparse A (§9.7.14.6): A is given compressed, 64 x K/2, in the fragment or shared-memory layout
 * of a dense A of K/2 columns.  Column q of the compressed row belongs to chunk c = q / 2 (slot
 * q % 2) of four columns (.f16/.bf16/.e4m3/.e5m2/.s8/.u8, 2:4), or chunk c = q of two columns
 * (.tf32, 1:2).  The metadata of row 16w + r (r < 16) and chunk c is, for 16- and 32-bit types,
 * the 4-bit field at bit 16 (r >= 8) + 4 (c % 4) of the metadata register of lane
 * 4 (r % 8) + 2 sel + c / 4 of warp w (sel: the sparsity selector, 0 or 1; Figures 150, 152,
 * 154); for 8-bit types (selector 0, all four threads of a group contribute, Figure 155) a
 * register holds 8 chunks of one row: the field at bit 4 (c % 8) of lane
 * 4 (r % 8) + 2 (c / 8) + (r >= 8) -- what an H100 computes (wg_sp_s8's old kernel as recorded
 * by run 1 on 2026-11-26, docs/hw-results/2026-11-26b-h100/record-superseded: 512 of 512 D
 * elements by this reading, none by the 16-bit-piece one; its new kernel, packed this way,
 * recorded by the final call, tests/kernels/gpu/wgmma_14_wg_sp_s8.bin: 512 of 512), as for
 * mma.sp (exec/mma.c).  Its 2-bit fields (low
 * first) are the columns of slot 0 and 1 within the chunk; for .tf32 0b0100 names column 0
 * and 0b1110 column 1 of the chunk, other values are refused.
 *
 * Arithmetic: as mma (exec/mma.c): the ISA leaves the order and precision of the floating-point
 * accumulation open (§9.7.14.5.2 "Precision and rounding"); we add the products (negated by
 * imm-scale-a/b = -1) to D (or to 0 when scale-d is false) in double precision in k order and
 * round once to .dtype (nearest even).  .tf32 drops the low 13 mantissa bits.  Integers: exact,
 * wrapped to 32 bits or clamped with .satfinite.  .b1: popc(a AND b) (.and.popc).
 */
#include "exec/wgmma.h"

#include "exec/mma.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int werr(char *err, size_t n, const char *msg)
{
    snprintf(err, n, "%s", msg);
    return -1;
}

static const struct { const char *name; uint8_t t, bits; } wtypes[] = {
    { "f16", MT_F16, 16 },  { "bf16", MT_BF16, 16 }, { "tf32", MT_TF32, 32 }, { "f32", MT_F32, 32 },
    { "e4m3", MT_E4M3, 8 }, { "e5m2", MT_E5M2, 8 },  { "s8", MT_S8, 8 },      { "u8", MT_U8, 8 },
    { "b1", MT_B1, 1 },     { "s32", MT_S32, 32 },
};
static unsigned wbits(int t)
{
    for (size_t i = 0; i < sizeof wtypes / sizeof wtypes[0]; i++)
        if (wtypes[i].t == t) return wtypes[i].bits;
    return 0;
}

/* §9.7.14.2/§9.7.14.3: per multiplicand family, the dense K, the accumulator types allowed
 * (bit mask of MT_*), trailing immediates (A from registers; a descriptor adds imm-trans-a) */
static const struct { uint8_t fam; uint16_t k; uint32_t dts; uint8_t nimm; } wforms[] = {
    { MT_F16, 16, 1u << MT_F16 | 1u << MT_F32, 3 }, { MT_BF16, 16, 1u << MT_F32, 3 },
    { MT_TF32, 8, 1u << MT_F32, 2 },                { MT_E4M3, 32, 1u << MT_F16 | 1u << MT_F32, 2 },
    { MT_S8, 32, 1u << MT_S32, 0 },                 { MT_B1, 256, 1u << MT_S32, 0 },
};
static int wfam(int t) { return t == MT_U8 ? MT_S8 : t == MT_E5M2 ? MT_E4M3 : t; }

/* the qualifiers of wgmma.mma_async{.sp}.sync.aligned.shape{.satfinite}.dtype.atype.btype
 * {.and.popc}: shape and types; 0 or -1 */
static int decode_words(char **w, int nw, xwgmma *g, int *types, int *nt, int *bop, char *err,
                        size_t n)
{
    for (int i = 2; i < nw; i++) {
        unsigned m, nn, k;
        char tail;
        if (sscanf(w[i], "m%un%uk%u%c", &m, &nn, &k, &tail) == 3) {
            if (m != 64 || nn < 8 || nn > 256 || nn % 8)
                return snprintf(err, n, "wgmma: shape .%s is not m64nNkK with N = 8, 16 .. 256 "
                                        "(§9.7.14.2)", w[i]), -1;
            g->n = (uint16_t)nn, g->k = (uint16_t)k;
            continue;
        }
        if (!strcmp(w[i], "sync") || !strcmp(w[i], "aligned") || !strcmp(w[i], "popc")) continue;
        if (!strcmp(w[i], "sp") && i == 2) { g->sp = 1; continue; }
        if (!strcmp(w[i], "satfinite")) { g->sat = 1; continue; }
        if (!strcmp(w[i], "and")) { *bop = 1; continue; }
        int t = 0;
        for (size_t q = 0; q < sizeof wtypes / sizeof wtypes[0]; q++)
            if (!strcmp(w[i], wtypes[q].name)) t = wtypes[q].t;
        if (!t || *nt == 3)
            return snprintf(err, n, "wgmma.mma_async: .%s is not a qualifier of §9.7.14.5.2",
                            w[i]), -1;
        types[(*nt)++] = t;
    }
    return 0;
}

/* the type rules of §9.7.14.3 and the shapes of §9.7.14.2 */
static int check_form(xwgmma *g, int a_vec, char *err, size_t n)
{
    int fa = wfam(g->at), fb = wfam(g->bt), f = -1;
    for (size_t q = 0; q < sizeof wforms / sizeof wforms[0]; q++)
        if (wforms[q].fam == fa) f = (int)q;
    if (f < 0 || fa != fb || (fa != MT_E4M3 && fa != MT_S8 && g->at != g->bt))
        return werr(err, n, "wgmma.mma_async: .atype/.btype combination not in §9.7.14.3");
    if (!(wforms[f].dts >> g->dt & 1))
        return werr(err, n, "wgmma.mma_async: .dtype not allowed with this .atype (§9.7.14.3)");
    unsigned k = wforms[f].k * (g->sp ? 2u : 1u);
    if (g->k != k)
        return snprintf(err, n, "wgmma.mma_async%s: shape m64n%uk%u, expected k%u for .%s "
                                "(§9.7.14.2)", g->sp ? ".sp" : "", g->n, g->k, k,
                        fa == MT_E4M3 ? "e4m3/.e5m2" : fa == MT_S8 ? "s8/.u8" :
                        fa == MT_F16 ? "f16" : fa == MT_BF16 ? "bf16" : fa == MT_TF32 ? "tf32"
                        : "b1"), -1;
    if ((fa == MT_S8 || fa == MT_B1) && g->n > 24 && g->n % 16)
        return werr(err, n, "wgmma.mma_async: integer shapes have N = 8, 16, 24 or a multiple "
                            "of 16 (§9.7.14.2)");
    if (g->sp && fa == MT_B1) return werr(err, n, "wgmma.mma_async.sp has no .b1 form (§9.7.14.2)");
    if (g->sat && fa != MT_S8) return werr(err, n, ".satfinite is for .s8/.u8 (§9.7.14.5.2)");
    g->adesc = (uint8_t)!a_vec;
    g->na = a_vec ? 4 : 1;
    g->nd = (uint8_t)(g->dt == MT_F16 ? g->n / 4 : g->n / 2);
    g->nimm = (uint8_t)(wforms[f].nimm + (fa <= MT_BF16 && !a_vec));
    g->scale_a = g->scale_b = 1;
    return 0;
}

int wgmma_decode(const char *mnemonic, int a_vec, xwgmma *g, char *err, size_t n)
{
    char buf[200], *w[24];
    int nw = 0, types[3] = { 0 }, nt = 0, bop = 0;
    memset(g, 0, sizeof *g);
    if (strlen(mnemonic) >= sizeof buf) return werr(err, n, "mnemonic too long");
    strcpy(buf, mnemonic);
    for (char *p = strtok(buf, "."); p && nw < 24; p = strtok(NULL, ".")) w[nw++] = p;
    if (nw < 2) return werr(err, n, "not a warpgroup instruction");
    int sa = 0;   /* .sync.aligned, and the .u32 / action of setmaxnreg */
    for (int i = 1; i < nw; i++) sa += !strcmp(w[i], "sync") + !strcmp(w[i], "aligned");
    if (!strcmp(w[0], "setmaxnreg")) {
        int act = 0, u32 = 0;
        for (int i = 1; i < nw; i++) {
            act += !strcmp(w[i], "inc") || !strcmp(w[i], "dec");
            u32 += !strcmp(w[i], "u32");
        }
        if (act != 1 || u32 != 1 || sa != 2 || nw != 5)
            return werr(err, n, "expected setmaxnreg.{inc,dec}.sync.aligned.u32 (§9.7.17.5)");
        g->kind = WG_SETMAXNREG;
        return 0;
    }
    if (strcmp(w[0], "wgmma")) return werr(err, n, "not a warpgroup instruction");
    static const struct { const char *w; uint8_t kind; } ctl[] = {
        { "fence", WG_FENCE }, { "commit_group", WG_COMMIT }, { "wait_group", WG_WAIT } };
    for (size_t i = 0; i < sizeof ctl / sizeof ctl[0]; i++)
        if (!strcmp(w[1], ctl[i].w)) {
            if (sa != 2 || nw != 4)
                return snprintf(err, n, "expected wgmma.%s.sync.aligned (§9.7.14.7)", w[1]), -1;
            g->kind = ctl[i].kind;
            return 0;
        }
    if (strcmp(w[1], "mma_async")) return werr(err, n, "not a warpgroup instruction");
    g->kind = WG_MMA;
    if (decode_words(w, nw, g, types, &nt, &bop, err, n)) return -1;
    if (sa != 2) return werr(err, n, "wgmma.mma_async needs .sync.aligned (§9.7.14.5.2)");
    if (!g->n) return werr(err, n, "wgmma.mma_async needs a shape .m64nNkK (§9.7.14.2)");
    if (nt != 3) return werr(err, n, "wgmma.mma_async needs .dtype.atype.btype (§9.7.14.5.2)");
    g->dt = (uint8_t)types[0], g->at = (uint8_t)types[1], g->bt = (uint8_t)types[2];
    if ((g->at == MT_B1) != bop)
        return werr(err, n, "wgmma.mma_async .b1 needs .and.popc, other types none (§9.7.14.5.2)");
    return check_form(g, a_vec, err, n);
}

int wgmma_imm(xwgmma *g, int i, int64_t v, char *err, size_t n)
{
    if (g->kind == WG_SETMAXNREG) {
        if (v < 24 || v > 256 || v % 8)
            return snprintf(err, n, "setmaxnreg: imm-reg-count %lld, expected 24..256 and a "
                                    "multiple of 8 (§9.7.17.5)", (long long)v), -1;
        g->imm = (uint32_t)v;
        return 0;
    }
    if (g->kind == WG_WAIT) {
        if (v < 0 || v > 0xffff)
            return snprintf(err, n, "wgmma.wait_group: N = %lld (§9.7.14.7.3)", (long long)v), -1;
        g->imm = (uint32_t)v;
        return 0;
    }
    if (i < 2) {   /* imm-scale-a, imm-scale-b */
        if (v != 1 && v != -1)
            return snprintf(err, n, "wgmma.mma_async: imm-scale-%c is %lld, expected 1 or -1 "
                                    "(§9.7.14.5.2)", 'a' + i, (long long)v), -1;
        if (i == 0) g->scale_a = (int8_t)v; else g->scale_b = (int8_t)v;
        return 0;
    }
    int ta = g->adesc && i == 2;
    if (v != 0 && v != 1)
        return snprintf(err, n, "wgmma.mma_async: imm-trans-%c is %lld, expected 0 or 1 "
                                "(§9.7.14.5.2)", ta ? 'a' : 'b', (long long)v), -1;
    if (ta) g->trans_a = (uint8_t)v; else g->trans_b = (uint8_t)v;
    return 0;
}

int wgmma_sel(const xwgmma *g, int64_t v, char *err, size_t n)
{
    int b8 = wbits(g->at) == 8;
    if (v < 0 || v > (b8 ? 0 : 1))
        return snprintf(err, n, "wgmma.mma_async.sp: sparsity selector %lld, expected %s "
                                "(§9.7.14.6.4)", (long long)v, b8 ? "0" : "0 or 1"), -1;
    return 0;
}

/* ------------------------------------------------------------------ execution */

/* The shared-memory byte address of element (mn, k) of a matrix described by desc (A: mn = row
 * of M, B: mn = column of N), *bit its bit for .b1: the layout at the top of the file. */
static uint64_t elem_addr(uint64_t desc, int trans, unsigned ebits, unsigned mn, unsigned k,
                          unsigned *bit)
{
    uint64_t start = (desc & 0x3fff) << 4, lbo = (desc >> 16 & 0x3fff) << 4,
             sbo = (desc >> 32 & 0x3fff) << 4, base = desc >> 49 & 7;
    static const unsigned width[4] = { 16, 128, 64, 32 };
    unsigned mode = (unsigned)(desc >> 62), W = width[mode], a;
    unsigned long long kbit = (unsigned long long)k * ebits;
    *bit = (unsigned)(kbit % 8);
    if (!trans) {
        unsigned kb = (unsigned)(kbit / 8);
        a = (unsigned)(start + (mn / 8) * sbo + (kb / W) * lbo) + (mn % 8) * W + kb % W;
    } else {   /* MN-major, 16-bit elements */
        unsigned mb = mn * 2, mc = mb / 16, c = W / 16;
        if (!mode) a = (unsigned)(start + mc * sbo + (k / 8) * lbo) + (k % 8) * 16 + mb % 16;
        else
            a = (unsigned)(start + (mc / c) * lbo + (k / 8) * sbo) + (mc % c) * 16 +
                (k % 8) * W + mb % 16;
    }
    if (mode) a ^= (((a >> 7) - (unsigned)base) & (W / 16 - 1)) << 4;
    return a;
}

/* element value of type t from the low bits of v (j-th element of a register) */
typedef struct { int isint; double f; int64_t i; } welem;
static welem elem_of(int t, uint64_t v, unsigned j)
{
    welem e = { 0, 0, 0 };
    if (t == MT_S8 || t == MT_U8 || t == MT_B1) e.isint = 1, e.i = mma_int_elem(t, v, j);
    else e.f = mma_fp_elem(t, v, j);
    return e;
}

/* one element of A (kc compressed columns) or B from shared memory; -1 after a fault */
static int smem_elem(const wg_mem *mem, uint64_t desc, int trans, int t, unsigned mn, unsigned k,
                     welem *e)
{
    unsigned bits = wbits(t), bit, nb = bits < 8 ? 1 : bits / 8;
    uint64_t a = elem_addr(desc, trans, bits, mn, k, &bit);
    uint8_t b[4] = { 0 };
    if (mem->rd(mem->ctx, a, nb, b)) return -1;
    uint64_t v = (uint64_t)b[0] | (uint64_t)b[1] << 8 | (uint64_t)b[2] << 16 |
                 (uint64_t)b[3] << 24;
    *e = elem_of(t, bits == 1 ? v >> bit & 1 : v, 0);
    return 0;
}

/* A (64 x kc, kc = K or K/2 for .sp) from the fragments of the 128 threads or shared memory */
static int load_a(const xwgmma *g, const uint64_t *const *ops, const wg_mem *mem, unsigned kc,
                  welem *A)
{
    unsigned bits = wbits(g->at), p = 32 / bits;
    if (g->adesc) {
        for (unsigned r = 0; r < 64; r++)
            for (unsigned k = 0; k < kc; k++)
                if (smem_elem(mem, ops[0][g->nd], g->trans_a, g->at, r, k, &A[r * kc + k]))
                    return -1;
        return 0;
    }
    for (unsigned T = 0; T < 128; T++)
        for (unsigned r = 0; r < 4; r++)
            for (unsigned j = 0; j < p; j++) {
                unsigned l = T % 32, row = 16 * (T / 32) + (l >> 2) + 8 * (r & 1),
                         col = (l & 3) * p + j + (r >> 1) * 4 * p;
                A[row * kc + col] = elem_of(g->at, ops[T][g->nd + r], j);
            }
    return 0;
}

/* Sparse A: place the compressed columns by the metadata (layout at the top); 0 or -2 */
static int expand_sparse(const xwgmma *g, const uint64_t *const *ops, const welem *C, welem *A,
                         char *err, size_t n)
{
    unsigned kc = g->k / 2, tf = g->at == MT_TF32, imeta = g->nd + g->na + 1;
    uint64_t sel = ops[0][imeta + 1];
    if (sel > (wbits(g->at) == 8 ? 0u : 1u))
        return snprintf(err, n, "wgmma.mma_async.sp: sparsity selector %llu, expected %s "
                                "(§9.7.14.6.4)", (unsigned long long)sel,
                        wbits(g->at) == 8 ? "0" : "0 or 1"), -2;
    for (unsigned r = 0; r < 64; r++)
        for (unsigned q = 0; q < kc; q++) {
            unsigned rr = r % 16, c = tf ? q : q / 2, s = tf ? 0 : q % 2;
            unsigned lane = 4 * (rr % 8) + 2 * (unsigned)sel + c / 4,
                     bit = 16 * (rr >= 8) + 4 * (c % 4);
            if (wbits(g->at) == 8)   /* a row per register (layout at the top) */
                lane = 4 * (rr % 8) + 2 * (c / 8) + (rr >= 8), bit = 4 * (c % 8);
            uint64_t meta = ops[32 * (r / 16) + lane][imeta];
            unsigned nib = (unsigned)(meta >> bit) & 15, col;
            if (tf && nib != 4 && nib != 14)
                return snprintf(err, n, "wgmma.mma_async.sp .tf32: metadata 0x%x of row %u, "
                                        "expected 0b0100 or 0b1110 (§9.7.14.6.1)", nib, r), -2;
            col = tf ? 2 * c + (nib == 14) : 4 * c + (nib >> 2 * s & 3);
            welem *d = &A[r * g->k + col];
            d->isint = C[r * kc + q].isint;
            d->f += C[r * kc + q].f;
            d->i += C[r * kc + q].i;
        }
    return 0;
}

/* D element i of thread T from the products, written into out */
static void out_elem(const xwgmma *g, const uint64_t *ops, const welem *A, const welem *B,
                     unsigned T, unsigned i, uint64_t *out)
{
    unsigned l = T % 32, row = 16 * (T / 32) + (l >> 2) + 8 * (i >> 1 & 1),
             col = 8 * (i >> 2) + 2 * (l & 3) + (i & 1), K = g->k;
    int scale_d = (int)(ops[g->nd + g->na + 1 + 2 * g->sp] & 1);
    uint64_t v;
    if (g->dt == MT_S32) {
        int64_t acc = scale_d ? (int32_t)(uint32_t)ops[i] : 0;
        for (unsigned k = 0; k < K; k++) acc += A[row * K + k].i * B[k * g->n + col].i;
        if (g->sat) acc = acc > INT32_MAX ? INT32_MAX : acc < INT32_MIN ? INT32_MIN : acc;
        v = (uint32_t)acc;
    } else {
        double acc = !scale_d ? 0 : g->dt == MT_F16 ? mma_fp_elem(MT_F16, ops[i / 2], i % 2)
                                                    : mma_fp_elem(MT_F32, ops[i], 0);
        for (unsigned k = 0; k < K; k++)
            acc += (g->scale_a * A[row * K + k].f) * (g->scale_b * B[k * g->n + col].f);
        v = g->dt == MT_F16 ? mma_to_f16(acc) : mma_to_f32(acc);
    }
    if (g->dt == MT_F16) {
        if (i % 2 == 0) out[i / 2] = v;
        else out[i / 2] |= v << 16;
    } else out[i] = v;
}

int wgmma_run(const xwgmma *g, const uint64_t *const *ops, const wg_mem *mem, uint64_t *out,
              char *err, size_t n)
{
    unsigned K = g->k, N = g->n, kc = g->sp ? K / 2 : K;
    welem *A = calloc((size_t)64 * K, sizeof *A), *B = calloc((size_t)K * N, sizeof *B);
    welem *C = g->sp ? calloc((size_t)64 * kc, sizeof *C) : NULL;
    int rc = -2;
    if (!A || !B || (g->sp && !C)) { snprintf(err, n, "out of host memory"); goto done; }
    rc = load_a(g, ops, mem, kc, g->sp ? C : A);
    if (!rc && g->sp) rc = expand_sparse(g, ops, C, A, err, n);
    for (unsigned c = 0; !rc && c < N; c++)
        for (unsigned k = 0; k < K; k++)
            if (smem_elem(mem, ops[0][g->nd + g->na], g->trans_b, g->bt, c, k, &B[k * N + c])) {
                rc = -1;
                break;
            }
    if (!rc)
        for (unsigned T = 0; T < 128; T++)
            for (unsigned i = 0; i < N / 2u; i++)
                out_elem(g, ops[T], A, B, T, i, out + (size_t)T * g->nd);
done:
    free(A); free(B); free(C);
    return rc;
}
