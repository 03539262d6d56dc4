/* exec/mma.c — warp-level matrix instructions (PTX ISA 8.4 §9.7.13.4): the decoding of
 * `mma.sync.aligned`, `ldmatrix`, `stmatrix`, `movmatrix` and the arithmetic of mma on the
 * fragments of a whole warp, and sparse mma (mma.sp, §9.7.13.5: mma_sp_run at the end of the file,
 * which documents the metadata).  The engine (exec/matrix.c, h_mma) gathers the operands of the
 * 32 lanes, calls mma_run / mma_sp_run, and does the shared-memory accesses of
 * ldmatrix/stmatrix itself.
 *
 * Fragment layouts (§9.7.13.4.3-13): groupID g = %laneid >> 2, threadID_in_group t = %laneid % 4;
 * an element type of b bits packs p = 32 / b elements in a 32-bit register (f16/bf16 2, tf32 1,
 * s8/u8 4, s4/u4 8, b1 32; f64 is one per 64-bit register).  For every m16n8kK shape the text's
 * formulas are, for element j of register r:
 *     A (16 x K, row-major):  row = g + 8 * (r & 1)        col = t * p + j + (r >> 1) * 4p
 *     B (K x 8, column):      row = t * p + j + r * 4p     col = g
 *     C, D (16 x 8):          row = g + 8 * (i >= 2)       col = t * 2 + (i & 1)   (i: element)
 * and for m8n8kK (k16 s8, k32 s4, k128 b1, k4 f64) A has one register (row g, col t * p + j), B
 * one (row t * p + j, col g), C/D two elements (row g, col t * 2 + i).  f16 accumulators pack two
 * elements per .f16x2 register (element i = register i / 2, half i % 2).
 *
 * Arithmetic (§9.7.13.4.14): D = A * B + C.  The ISA does not give the order or the precision of
 * the accumulation of floating-point products.  We compute, for each element of D, c plus the K
 * products in double precision, in k order, and round once to the type of D (.rn): the products
 * of f16/bf16/tf32 values are exact in double and so is their sum whenever it fits in 53 bits
 * (every integer-valued input of moderate size: the tests use those, so their expected results do
 * not depend on the order).  .tf32 operands are read as f32 bit patterns whose 13 low mantissa
 * bits are ignored (§5.2.3 leaves the layout of .tf32 to the implementation).  .f64: a chain of
 * fused multiply-adds in k order starting from c, each rounded in the mode of wmma.mma's .rnd
 * (§9.7.13.3.5; .rn for mma.sync).  mma_matrix computes on whole matrices; mma_run gathers the
 * mma.sync fragments into matrices for it (exec/wmma.c does the same for wmma's).
 * Integer types: exact, 32-bit wrap-around, or
 * clamped to the s32 range with .satfinite.  .b1: c + popc(a XOR b) or popc(a AND b) per row and
 * column (.xor.popc / .and.popc).
 */
#include "exec/mma.h"

#include "ptx/mnemonic.h"

#include <fenv.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static int merr(char *err, size_t n, const char *msg)
{
    snprintf(err, n, "%s", msg);
    return -1;
}

static const struct { const char *name; uint8_t t, bits; } mtypes[] = {
    { "f16", MT_F16, 16 }, { "bf16", MT_BF16, 16 }, { "tf32", MT_TF32, 32 }, { "f32", MT_F32, 32 },
    { "f64", MT_F64, 64 }, { "s8", MT_S8, 8 },      { "u8", MT_U8, 8 },       { "s4", MT_S4, 4 },
    { "u4", MT_U4, 4 },    { "b1", MT_B1, 1 },      { "s32", MT_S32, 32 },
    { "e4m3", MT_E4M3, 8 }, { "e5m2", MT_E5M2, 8 },
};
static unsigned tbits(int t)
{
    for (size_t i = 0; i < sizeof mtypes / sizeof mtypes[0]; i++)
        if (mtypes[i].t == t) return mtypes[i].bits;
    return 0;
}

static const char *tname(int t)
{
    for (size_t i = 0; i < sizeof mtypes / sizeof mtypes[0]; i++)
        if (mtypes[i].t == t) return mtypes[i].name;
    return "?";
}

unsigned mma_type_bits(int t) { return tbits(t); }
int mma_type_named(const char *name)
{
    for (size_t i = 0; i < sizeof mtypes / sizeof mtypes[0]; i++)
        if (!strcmp(mtypes[i].name, name)) return mtypes[i].t;
    return 0;
}

/* The shapes and type combinations of §9.7.13.4.14 that are implemented: {m, n, k, atype}. */
static const struct { uint8_t m, n; uint16_t k; uint8_t at; } mshapes[] = {
    { 16, 8, 8, MT_F16 },  { 16, 8, 16, MT_F16 }, { 16, 8, 8, MT_BF16 }, { 16, 8, 16, MT_BF16 },
    { 16, 8, 4, MT_TF32 }, { 16, 8, 8, MT_TF32 }, { 8, 8, 4, MT_F64 },   { 8, 8, 16, MT_S8 },
    { 16, 8, 16, MT_S8 },  { 16, 8, 32, MT_S8 },  { 8, 8, 32, MT_S4 },   { 16, 8, 32, MT_S4 },
    { 16, 8, 64, MT_S4 },  { 8, 8, 128, MT_B1 },  { 16, 8, 128, MT_B1 }, { 16, 8, 256, MT_B1 },
};
static int family(int t)
{
    return t == MT_U8 ? MT_S8 : t == MT_U4 ? MT_S4 : t == MT_E5M2 ? MT_E4M3 : t;
}
/* §9.7.13.5.3 mma.sp: {m, n, k (the dense K), atype}; A holds K/2 of each row's K elements */
static const struct { uint8_t m, n; uint16_t k; uint8_t at; } spshapes[] = {
    { 16, 8, 16, MT_F16 }, { 16, 8, 32, MT_F16 }, { 16, 8, 16, MT_BF16 }, { 16, 8, 32, MT_BF16 },
    { 16, 8, 8, MT_TF32 }, { 16, 8, 16, MT_TF32 }, { 16, 8, 32, MT_S8 },  { 16, 8, 64, MT_S8 },
    { 16, 8, 64, MT_S4 },  { 16, 8, 128, MT_S4 }, { 16, 8, 64, MT_E4M3 },
};

/* mma.sp{::ordered_metadata}.sync.aligned.shape.row.col{.satfinite}.dtype.atype.btype.ctype
 * (§9.7.13.5.3): the shapes of spshapes, the type rules of mma (and .f32 accumulators for the
 * .e4m3/.e5m2 pairs, which may differ); A has half the registers of the dense shape */
static int decode_sp(xmma *mm, int ok, int rowcol, char *err, size_t n)
{
    int fa = family(mm->at);
    for (size_t q = 0; q < sizeof spshapes / sizeof spshapes[0]; q++)
        ok |= spshapes[q].m == mm->m && spshapes[q].n == mm->n && spshapes[q].k == mm->k &&
              spshapes[q].at == fa;
    if (!ok)
        return snprintf(err, n,
                        "mma.sp: shape m%un%uk%u with .%s is not a form of §9.7.13.5.3 "
                        "(m16n8k16/k32 f16 bf16, m16n8k8/k16 tf32, m16n8k32/k64 s8 u8, "
                        "m16n8k64 e4m3 e5m2, m16n8k64/k128 s4 u4)",
                        mm->m, mm->n, mm->k, tname(mm->at)),
               -1;
    if (!rowcol) return merr(err, n, "mma.sp needs .row.col (§9.7.13.5.3)");
    int isint = fa == MT_S8 || fa == MT_S4;
    if (fa != family(mm->bt) || (!isint && fa != MT_E4M3 && mm->at != mm->bt))
        return merr(err, n, "mma.sp: .atype and .btype differ (§9.7.13.5.3)");
    if (isint && (mm->dt != MT_S32 || mm->ct != MT_S32))
        return merr(err, n, "mma.sp: integer forms have .s32 accumulators (§9.7.13.5.3)");
    if ((fa == MT_BF16 || fa == MT_TF32 || fa == MT_E4M3) &&
        (mm->dt != MT_F32 || mm->ct != MT_F32))
        return merr(err, n, "mma.sp .bf16/.tf32/.e4m3/.e5m2 have .f32 accumulators (§9.7.13.5.3)");
    if (fa == MT_F16 && ((mm->dt != MT_F32 && mm->dt != MT_F16) || mm->ct != mm->dt))
        return merr(err, n, "mma.sp .f16 has .f16 or .f32 accumulators, .dtype = .ctype "
                            "(§9.7.13.5.3)");
    if (mm->sat && !isint) return merr(err, n, "mma.sp: .satfinite is for integer types");
    if (mm->bop) return merr(err, n, "mma.sp has no .xor/.and.popc (§9.7.13.5.3)");
    unsigned p = 32 / tbits(mm->at), cel = mm->m * mm->n / 32;
    mm->na = (uint8_t)(mm->m * mm->k / 2 / 32 / p);
    mm->nb = (uint8_t)(mm->k * mm->n / 32 / p);
    mm->nc = (uint8_t)(mm->ct == MT_F16 ? cel / 2 : cel);
    mm->nd = (uint8_t)(mm->dt == MT_F16 ? cel / 2 : cel);
    return 0;
}

/* mma.sync.aligned.shape.row.col{.satfinite}.dtype.atype.btype.ctype{.bop.popc} */
static int decode_mma(char **w, int nw, xmma *mm, char *err, size_t n)
{
    int nt = 0, types[4] = { 0 }, row = 0, col = 0;
    mm->kind = MM_MMA;
    for (int i = 1; i < nw; i++) {
        unsigned a, b, c;
        char tail;
        if (sscanf(w[i], "m%un%uk%u%c", &a, &b, &c, &tail) == 3) {
            mm->m = (uint8_t)a, mm->n = (uint8_t)b, mm->k = (uint16_t)c;
            continue;
        }
        if (!strcmp(w[i], "sync") || !strcmp(w[i], "aligned") || !strcmp(w[i], "popc")) continue;
        if (i == 1 && (!strcmp(w[i], "sp") || !strcmp(w[i], "sp::ordered_metadata"))) {
            mm->sp = strcmp(w[i], "sp") ? 2 : 1;   /* 2: .sp::ordered_metadata */
            continue;
        }
        if (!strcmp(w[i], "row")) { row = i; continue; }   /* positions: .row before .col */
        if (!strcmp(w[i], "col")) { col = i; continue; }
        if (!strcmp(w[i], "satfinite")) { mm->sat = 1; continue; }
        if (!strcmp(w[i], "xor")) { mm->bop = 1; continue; }
        if (!strcmp(w[i], "and")) { mm->bop = 2; continue; }
        int t = 0;
        for (size_t q = 0; q < sizeof mtypes / sizeof mtypes[0]; q++)
            if (!strcmp(w[i], mtypes[q].name)) t = mtypes[q].t;
        if (!t || nt == 4)
            return snprintf(err, n, "mma: .%s is not implemented (§9.7.13.4.14)", w[i]), -1;
        types[nt++] = t;
    }
    if (nt != 4) return merr(err, n, "mma needs .dtype.atype.btype.ctype (§9.7.13.4.14)");
    mm->dt = (uint8_t)types[0], mm->at = (uint8_t)types[1], mm->bt = (uint8_t)types[2],
    mm->ct = (uint8_t)types[3];
    int ok = 0;
    for (size_t q = 0; q < sizeof mshapes / sizeof mshapes[0] && !mm->sp; q++)
        ok |= mshapes[q].m == mm->m && mshapes[q].n == mm->n && mshapes[q].k == mm->k &&
              mshapes[q].at == family(mm->at);
    if (mm->sp) return decode_sp(mm, ok, row && col && row < col, err, n);
    if (!ok)
        return snprintf(err, n,
                        "mma: shape m%un%uk%u with .%s is not implemented (implemented: "
                        "m16n8k8/k16 f16 bf16, m16n8k4/k8 tf32, m8n8k4 f64, m8n8k16 m16n8k16/k32 "
                        "s8 u8, m8n8k32 m16n8k32/k64 s4 u4, m8n8k128 m16n8k128/k256 b1)",
                        mm->m, mm->n, mm->k, tname(mm->at)),
               -1;
    if (!row || !col || row > col) return merr(err, n, "mma needs .row.col (§9.7.13.4.14)");
    int fa = family(mm->at), fb = family(mm->bt);
    int isint = fa == MT_S8 || fa == MT_S4 || fa == MT_B1;
    if (fa != fb || (!isint && mm->at != mm->bt))
        return merr(err, n, "mma: .atype and .btype differ (§9.7.13.4.14)");
    if (isint && (mm->dt != MT_S32 || mm->ct != MT_S32))
        return merr(err, n, "mma: integer forms have .s32 accumulators (§9.7.13.4.14)");
    if (fa == MT_F64 && (mm->dt != MT_F64 || mm->ct != MT_F64))
        return merr(err, n, "mma .f64 has .f64 accumulators (§9.7.13.4.14)");
    if ((fa == MT_BF16 || fa == MT_TF32) && (mm->dt != MT_F32 || mm->ct != MT_F32))
        return merr(err, n, "mma .bf16/.tf32 have .f32 accumulators (§9.7.13.4.14)");
    if (fa == MT_F16 && ((mm->dt != MT_F32 && mm->dt != MT_F16) ||
                         (mm->ct != MT_F32 && mm->ct != MT_F16)))
        return merr(err, n, "mma .f16 has .f16 or .f32 accumulators (§9.7.13.4.14)");
    if ((fa == MT_B1) != (mm->bop != 0))
        return merr(err, n,
                    "mma .b1 needs .xor.popc or .and.popc, other types none (§9.7.13.4.14)");
    if (mm->sat && !isint) return merr(err, n, "mma: .satfinite is for integer types here");
    unsigned p = 32 / tbits(mm->at), f64 = fa == MT_F64;
    mm->na = (uint8_t)(f64 ? mm->m * mm->k / 32 : mm->m * mm->k / 32 / p);
    mm->nb = (uint8_t)(f64 ? mm->k * mm->n / 32 : mm->k * mm->n / 32 / p);
    unsigned cel = mm->m * mm->n / 32; /* accumulator elements per thread */
    mm->nc = (uint8_t)(mm->ct == MT_F16 ? cel / 2 : cel);
    mm->nd = (uint8_t)(mm->dt == MT_F16 ? cel / 2 : cel);
    return 0;
}

int mma_decode(const char *mnemonic, xmma *mm, char *err, size_t n)
{
    char buf[200], *w[24];
    int nw = 0;
    memset(mm, 0, sizeof *mm);
    if (strlen(mnemonic) >= sizeof buf) return merr(err, n, "mnemonic too long");
    strcpy(buf, mnemonic);
    for (char *p = strtok(buf, "."); p && nw < 24; p = strtok(NULL, ".")) w[nw++] = p;
    if (nw == 0) return merr(err, n, "empty mnemonic");
    if (!strcmp(w[0], "mma")) return decode_mma(w, nw, mm, err, n);
    /* ldmatrix/stmatrix.sync.aligned.m8n8.num{.trans}{.ss}.b16,
     * movmatrix.sync.aligned.m8n8.trans.b16
     */
    mm->kind = !strcmp(w[0], "ldmatrix")   ? MM_LDMATRIX
               : !strcmp(w[0], "stmatrix") ? MM_STMATRIX
               : !strcmp(w[0], "movmatrix") ? MM_MOVMATRIX
                                            : 0;
    if (!mm->kind) return merr(err, n, "not a warp-level matrix instruction");
    int shape = 0, b16 = 0;
    mm->num = 1;
    for (int i = 1; i < nw; i++) {
        if (!strcmp(w[i], "m8n8")) shape = 1;
        else if (!strcmp(w[i], "x1")) mm->num = 1;
        else if (!strcmp(w[i], "x2")) mm->num = 2;
        else if (!strcmp(w[i], "x4")) mm->num = 4;
        else if (!strcmp(w[i], "trans")) mm->trans = 1;
        else if (!strcmp(w[i], "b16")) b16 = 1;
        else if (strcmp(w[i], "sync") && strcmp(w[i], "aligned") && strncmp(w[i], "shared", 6))
            return snprintf(err, n, "%s: .%s is not implemented (§9.7.13.4.15-17: .m8n8 .b16)",
                            w[0], w[i]),
                   -1;
    }
    if (!shape || !b16) return snprintf(err, n, "%s needs .m8n8 and .b16", w[0]), -1;
    if (mm->kind == MM_MOVMATRIX && (!mm->trans || mm->num != 1))
        return merr(err, n, "movmatrix.sync.aligned.m8n8.trans.b16 (§9.7.13.4.17)");
    return 0;
}

/* ------------------------------------------------------------------ values */

static double f16_to_d(uint32_t h)
{
    int s = h >> 15 & 1, e = h >> 10 & 31, m = h & 1023;
    double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(1024 + m, e - 25);
    return s ? -v : v;
}
static uint32_t d_to_f16(double x) /* round to nearest even */
{
    uint32_t s = signbit(x) ? 0x8000 : 0;
    x = fabs(x);
    if (isnan(x)) return 0x7fff;
    if (x >= 65520.0) return s | 0x7c00;
    int e;
    frexp(x, &e);                         /* x = f * 2^e, 0.5 <= f < 1 */
    int ex = e - 1 < -14 ? -14 : e - 1;   /* the exponent of the result's ulp is ex - 10 */
    double q = nearbyint(ldexp(x, 10 - ex)); /* fesetround is round-to-nearest in a launch */
    if (q >= 2048) q /= 2, ex++;
    if (q < 1024) return s | (uint32_t)q;  /* subnormal (ex = -14) */
    return s | (uint32_t)(ex + 15) << 10 | ((uint32_t)q - 1024);
}
static double f32_to_d(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}
static uint32_t d_to_f32(double x)
{
    float f = (float)x;
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}
/* §5.2.5.1 .e4m3: 1 sign, 4 exponent (bias 7), 3 mantissa bits, no infinity, S.1111.111 NaN;
 * .e5m2: 1 sign, 5 exponent (bias 15), 2 mantissa bits, IEEE infinities and NaNs */
static double fp8_to_d(int t, uint32_t x)
{
    int e4 = t == MT_E4M3, mb = e4 ? 3 : 2, bias = e4 ? 7 : 15, emax = e4 ? 15 : 31;
    int s = x >> 7 & 1, e = (int)(x >> mb) & emax, m = (int)x & ((1 << mb) - 1);
    double v;
    if (e4 && e == 15 && m == 7) v = NAN;
    else if (!e4 && e == 31) v = m ? NAN : INFINITY;
    else if (e == 0) v = ldexp(m, 1 - bias - mb);
    else v = ldexp((1 << mb) + m, e - bias - mb);
    return s ? -v : v;
}
static double fp_elem(int t, uint64_t reg, unsigned j)
{
    switch (t) {
    case MT_E4M3: case MT_E5M2: return fp8_to_d(t, (uint32_t)(reg >> (8 * j)) & 0xff);
    case MT_F16: return f16_to_d((uint32_t)(reg >> (16 * j)) & 0xffff);
    case MT_BF16: return f32_to_d(((uint32_t)(reg >> (16 * j)) & 0xffff) << 16);
    case MT_TF32: return f32_to_d((uint32_t)reg & 0xffffe000u);
    case MT_F32: return f32_to_d((uint32_t)reg);
    default: { double d; memcpy(&d, &reg, 8); return d; }
    }
}
static int64_t int_elem(int t, uint64_t reg, unsigned j)
{
    unsigned b = tbits(t);
    uint64_t x = (reg >> (b * j)) & ((1ull << b) - 1);
    if ((t == MT_S8 || t == MT_S4) && (x >> (b - 1) & 1)) return (int64_t)x - (1ll << b);
    return (int64_t)x;
}

double mma_fp_elem(int t, uint64_t reg, unsigned j) { return fp_elem(t, reg, j); }
int64_t mma_int_elem(int t, uint64_t reg, unsigned j) { return int_elem(t, reg, j); }
uint32_t mma_to_f16(double x) { return d_to_f16(x); }
uint32_t mma_to_f32(double x) { return d_to_f32(x); }

/* Element (row, col) of A / B as (lane, register, element), by the formulas at the top. */
static void frag_a(const xmma *mm, unsigned row, unsigned col, unsigned *l, unsigned *r,
                   unsigned *j)
{
    unsigned p = mm->at == MT_F64 ? 1 : 32 / tbits(mm->at), g = row & 7, rr = row >> 3;
    unsigned blk = col / (4 * p), t = (col % (4 * p)) / p;
    *l = g * 4 + t, *j = col % p, *r = rr + 2 * blk;
}
static void frag_b(const xmma *mm, unsigned row, unsigned col, unsigned *l, unsigned *r,
                   unsigned *j)
{
    unsigned p = mm->bt == MT_F64 ? 1 : 32 / tbits(mm->bt);
    *l = col * 4 + (row % (4 * p)) / p, *j = row % p, *r = row / (4 * p);
}

/* One element of D for integer and .f64 operands: c plus the K products of row `row` of A and
 * column `col` of B. */
static uint64_t dot(const xmma *mm, const uint64_t *A, const uint64_t *B, uint64_t c,
                    unsigned row, unsigned col)
{
    int fa = family(mm->at);
    unsigned K = mm->k, N = mm->n;
    const uint64_t *a = A + (size_t)row * K;
    if (fa == MT_S8 || fa == MT_S4 || fa == MT_B1) {
        int64_t acc = (int32_t)(uint32_t)c;
        for (unsigned k = 0; k < K; k++) {
            int64_t x = int_elem(mm->at, a[k], 0), y = int_elem(mm->bt, B[k * N + col], 0);
            acc += mm->bop == 1 ? (x ^ y) : x * y; /* .and.popc: x & y = x * y on bits */
        }
        if (mm->sat) acc = acc > INT32_MAX ? INT32_MAX : acc < INT32_MIN ? INT32_MIN : acc;
        return (uint32_t)acc;
    }
    uint64_t out;
    if (fa == MT_F64) {
        static const int modes[] = { FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD };
        double acc = fp_elem(MT_F64, c, 0);
        if (mm->rnd) fesetround(modes[mm->rnd & 3]);
        for (unsigned k = 0; k < K; k++)
            acc = fma(fp_elem(MT_F64, a[k], 0), fp_elem(MT_F64, B[k * N + col], 0), acc);
        if (mm->rnd) fesetround(FE_TONEAREST);
        memcpy(&out, &acc, 8);
        return out;
    }
    return 0;   /* the other types: fp_matrix */
}

/* .f16/.bf16/.tf32/.f32/.e4m3/.e5m2 operands: each element converted to double once (not once
 * per product: that was 63 % of a tiled GEMM's time), then per element of D the K products
 * summed in k order in double and rounded once to .dtype (as above) */
static void fp_matrix(const xmma *mm, const uint64_t *A, const uint64_t *B, const uint64_t *C,
                      uint64_t *D)
{
    enum { MAXE = 2048 };   /* the largest operand of the shapes decoded is 16 x 64 (mma.sp) */
    unsigned M = mm->m, N = mm->n, K = mm->k;
    double a[MAXE], b[MAXE];
    int conv = (size_t)M * K <= MAXE && (size_t)K * N <= MAXE;   /* else per product */
    for (size_t i = 0; conv && i < (size_t)M * K; i++) a[i] = fp_elem(mm->at, A[i], 0);
    for (size_t i = 0; conv && i < (size_t)K * N; i++) b[i] = fp_elem(mm->bt, B[i], 0);
    int ct = mm->ct == MT_F16 ? MT_F16 : MT_F32;
    for (unsigned i = 0; i < M; i++)
        for (unsigned j = 0; j < N; j++) {
            double acc = fp_elem(ct, C[i * N + j], 0);
            for (unsigned k = 0; k < K; k++)
                acc += conv ? a[i * K + k] * b[k * N + j]
                            : fp_elem(mm->at, A[i * K + k], 0) * fp_elem(mm->bt, B[k * N + j], 0);
            D[i * N + j] = mm->dt == MT_F16 ? d_to_f16(acc) : d_to_f32(acc);
        }
}

void mma_matrix(const xmma *mm, const uint64_t *A, const uint64_t *B, const uint64_t *C,
                uint64_t *D)
{
    int fa = family(mm->at);
    if (fa != MT_S8 && fa != MT_S4 && fa != MT_B1 && fa != MT_F64) {
        fp_matrix(mm, A, B, C, D);
        return;
    }
    for (unsigned i = 0; i < mm->m; i++)
        for (unsigned j = 0; j < mm->n; j++)
            D[i * mm->n + j] = dot(mm, A, B, C[i * mm->n + j], i, j);
}

/* Element i of lane l's accumulator fragment (the formulas at the top). */
static unsigned acc_index(const xmma *mm, unsigned l, unsigned i)
{
    unsigned g = l >> 2, t = l & 3;
    unsigned row = mm->m == 16 ? g + 8 * (i >= 2) : g, col = t * 2 + (i & 1);
    return row * mm->n + col;
}

/* Element (row, col) of A from the fragments in S (the formulas at the top). */
static uint64_t a_elem(const xmma *mm, const uint64_t (*S)[MMA_MAXOPS], unsigned row,
                       unsigned col)
{
    unsigned l, r, j, ba = tbits(mm->at);
    frag_a(mm, row, col, &l, &r, &j);
    return ba >= 64 ? S[l][r] : S[l][r] >> (ba * j) & ((1ull << ba) - 1);
}

/* mma: S[l][k] the sources of lane l (A registers, B registers, C registers), D[l][k] out.  The
 * fragments are gathered into matrices (each element sits in exactly one lane) for
 * mma_matrix; Ad: NULL, or the dense A (row-major, mm->k columns) of mma.sp. */
static void run_frags(const xmma *mm, const uint64_t (*S)[MMA_MAXOPS], const uint64_t *Ad,
                      uint64_t (*D)[MMA_MAXOPS])
{
    static _Thread_local uint64_t A[16 * 256], B[256 * 8], Cm[16 * 8], Dm[16 * 8];
    unsigned cel = mm->m * mm->n / 32, bb = tbits(mm->bt);
    uint64_t mb = bb >= 64 ? ~0ull : (1ull << bb) - 1;
    for (unsigned row = 0; row < mm->m && !Ad; row++)
        for (unsigned k = 0; k < mm->k; k++) A[row * mm->k + k] = a_elem(mm, S, row, k);
    for (unsigned k = 0; k < mm->k; k++)
        for (unsigned col = 0; col < mm->n; col++) {
            unsigned l, r, j;
            frag_b(mm, k, col, &l, &r, &j);
            B[k * mm->n + col] = S[l][mm->na + r] >> (bb * j) & mb;
        }
    for (unsigned l = 0; l < 32; l++)
        for (unsigned i = 0; i < cel; i++) {
            const uint64_t *cs = S[l] + mm->na + mm->nb;
            Cm[acc_index(mm, l, i)] = mm->ct == MT_F16 ? cs[i / 2] >> (16 * (i % 2)) & 0xffff
                                                       : cs[i];
        }
    mma_matrix(mm, Ad ? Ad : A, B, Cm, Dm);
    for (unsigned l = 0; l < 32; l++)
        for (unsigned i = 0; i < cel; i++) {
            uint64_t out = Dm[acc_index(mm, l, i)];
            if (mm->dt == MT_F16) {
                if (i % 2 == 0) D[l][i / 2] = out;
                else D[l][i / 2] |= out << 16;
            } else D[l][i] = out;
        }
}

void mma_run(const xmma *mm, const uint64_t (*S)[MMA_MAXOPS], uint64_t (*D)[MMA_MAXOPS])
{
    run_frags(mm, S, NULL, D);
}

/* ---------------------------------------------------------------- mma.sp (§9.7.13.5)
 * The registers of A hold the compressed 16 x K/2 matrix Ac (the K/2 stored elements of each row
 * in column order) in the fragment layout of the dense shape m16n8k(K/2): the row/col formulas of
 * §9.7.13.5.2.1-8 (firstcol = threadID_in_group * 4 for f16, ...) are those of the dense layout
 * of §9.7.13.4 with every 2 (tf32: 1) stored elements standing for a 4-wide (2-wide) chunk.  B, C
 * and D are as for the dense m16n8kK.
 *
 * Metadata (§9.7.13.5.1): each stored element has an index giving its position in its chunk:
 *   2:4 (.f16 .bf16 .s8 .u8 .e4m3 .e5m2): 2 bits per stored element, the position 0-3 in the
 *       4-wide chunk; stored element i of a row at bits 2i of the row's metadata;
 *   1:2 (.tf32): 4 bits per stored element (chunk), 0b0100 for position 0 and 0b1110 for 1 (the
 *       only meaningful values); stored element i at bits 4i;
 *   4:8 (.s4 .u4): 2 bits per pair of stored elements, the position 0-3 of the pair in the
 *       8-wide chunk; stored elements 2i and 2i+1 at bits 2i.
 * A row's metadata is K bits (2:4), 2K (1:2) or K/2 (4:8): 16, 32 or 64 bits.  The group of four
 * threads with groupID g holds rows g and g+8 in its 1, 2 or 4 metadata threads (§9.7.13.5.1: one,
 * a pair selected by f = 0/1, or all four).  For .f16/.bf16/.tf32 A, in 16-bit pieces: piece q
 * (bits 16q..16q+15 of a row's metadata) of row g in bits [15:0] and of row g+8 in bits [31:16]
 * of the register of thread 4g + f * nthreads + q.  For the 8- and 4-bit types (.s8 .u8 .e4m3
 * .e5m2 .s4 .u4) a register holds 32 bits of ONE row: word q (bits 32q..32q+31) of row g + 8h in
 * thread 4g + 2f + 2q + h -- what an H100 computes (tests/kernels/gpu/sp_{s8_k32,u8s8_k64,s4_k64,
 * u4_k128,e4m3_k64}_*.bin, docs/hw-results/2026-11-26b-h100: all 15 recordings exactly; the
 * 16-bit-piece reading, used before, matched none).  The text gives these layouts in figures
 * (Figures 90, 93, 96, 98, 100, 107-108, 110, 117-118) that are not part of the text we follow;
 * the .f16/.bf16/.tf32 reading is confirmed by the same recordings (sp_f16_*, sp_bf16_*,
 * sp_tf32_*).  Two stored elements of a chunk naming one position, a .tf32 index
 * other than 0b0100/0b1110, and (.e4m3/.e5m2 and .sp::ordered_metadata) indices of a chunk not
 * in increasing order are undefined: reported.  The arithmetic is then mma_matrix's on the dense
 * A (zeros elsewhere). */
#define SP_KMAX 128
static unsigned sp_rowbits(const xmma *mm)
{
    int fa = family(mm->at);
    return fa == MT_TF32 ? 2u * mm->k : fa == MT_S4 ? mm->k / 2u : mm->k;
}

int mma_sp_threads(const xmma *mm) { return (int)(sp_rowbits(mm) / 16); }

int mma_sp_run(const xmma *mm, const uint64_t (*S)[MMA_MAXOPS], const uint32_t *E,
               uint64_t (*D)[MMA_MAXOPS], char *why, size_t n)
{
    static _Thread_local uint64_t Ad[16 * SP_KMAX];
    uint8_t used[16][SP_KMAX];
    memset(Ad, 0, sizeof Ad);
    memset(used, 0, sizeof used);
    int fa = family(mm->at), ordered = mm->sp == 2 || fa == MT_E4M3;
    unsigned nth = sp_rowbits(mm) / 16;
    for (unsigned row = 0; row < 16; row++)
        for (unsigned cc = 0; cc < mm->k / 2u; cc++) {
            unsigned off = fa == MT_TF32 ? 4 * cc : fa == MT_S4 ? 2 * (cc / 2) : 2 * cc;
            unsigned lane = (row & 7) * 4 + mm->sel * nth + off / 16;
            unsigned bit = off % 16 + (row >= 8 ? 16 : 0);
            if (fa != MT_F16 && fa != MT_BF16 && fa != MT_TF32)   /* a row per register */
                lane = (row & 7) * 4 + 2 * mm->sel + 2 * (off / 32) + (row >= 8), bit = off % 32;
            unsigned idx = E[lane] >> bit & 3, col;
            if (fa == MT_TF32) {
                unsigned f4 = E[lane] >> bit & 15;
                if (f4 != 4 && f4 != 14)
                    return snprintf(why, n,
                                    "mma.sp .tf32 metadata 0x%x of lane %u bits %u-%u: the index "
                                    "of a chunk must be 0b0100 or 0b1110 (§9.7.13.5.1)",
                                    f4, lane, bit, bit + 3),
                           -1;
                col = cc * 2 + (f4 == 14);
            } else if (fa == MT_S4) col = cc / 4 * 8 + idx * 2 + (cc & 1);
            else {
                col = cc / 2 * 4 + idx;
                if (ordered && (cc & 1) && idx <= (E[lane] >> (bit - 2) & 3))
                    return snprintf(why, n,
                                    "mma.sp metadata of lane %u bits %u-%u: the indices of a chunk "
                                    "are not in increasing order (§9.7.13.5.1)",
                                    lane, bit - 2, bit + 1),
                           -1;
            }
            if (used[row][col])
                return snprintf(why, n,
                                "mma.sp metadata of lane %u names position %u of row %u of A "
                                "twice (§9.7.13.5.1)",
                                lane, col, row),
                       -1;
            used[row][col] = 1;
            Ad[row * mm->k + col] = a_elem(mm, S, row, cc);
        }
    run_frags(mm, S, Ad, D);
    return 0;
}
