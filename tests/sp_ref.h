/* tests/sp_ref.h — inputs and a C reference for sparse mma (mma.sp, PTX ISA 8.4 §9.7.13.5) on the
 * kernels sp_* of tests/kernels/remote.cu: random structured-sparse A with its metadata, B and C
 * placed in the registers of every lane, and the exact D.  Shared by tests/test_exec_remote.c
 * (the executor) and tests/kernels/record_gpu.cu (a real GPU, which records gpu/sp_*.bin). */
#ifndef TESTS_SP_REF_H
#define TESTS_SP_REF_H
#include <stdint.h>
#include <string.h>

static uint32_t sp_rnd(uint32_t *s) { *s = *s * 1664525u + 1013904223u; return *s ^ (*s >> 13); }
enum { T_F16, T_BF16, T_TF32, T_S8, T_U8, T_S4, T_U4, T_E4M3, T_E5M2 };
static const unsigned tbits[] = { 16, 16, 32, 8, 8, 4, 4, 8, 8 };
typedef struct {
    const char *kernel;
    int at, bt;
    unsigned k, sel;
    int f16acc, sat;   /* .f16 C and D; .satfinite */
} spform;

/* the bits of the small value v in type t (exact: |v| <= 2048 for the float types) */
static uint32_t f32bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static uint32_t enc(int t, int v)
{
    static const uint8_t e4[] = { 0x00, 0x38, 0x40, 0x44 }, e5[] = { 0x00, 0x3c, 0x40, 0x42 };
    unsigned a = (unsigned)(v < 0 ? -v : v), e = 0;
    switch (t) {
    case T_F16:
        if (!a) return 0;
        while (a >> (e + 1)) e++;
        return (v < 0 ? 0x8000u : 0) | (e + 15) << 10 | ((a << (10 - e)) & 0x3ff);
    case T_BF16: return f32bits((float)v) >> 16;
    case T_TF32: return f32bits((float)v);
    case T_E4M3: return (v < 0 ? 0x80u : 0) | e4[a];   /* §5.2.5.1, |v| <= 3 */
    case T_E5M2: return (v < 0 ? 0x80u : 0) | e5[a];
    default: return (uint32_t)v & ((1u << tbits[t]) - 1);
    }
}
/* a random value of type t: small for the float types, any for the integer types */
static int sp_val(uint32_t *rs, int t)
{
    uint32_t r = sp_rnd(rs) >> 8;
    switch (t) {
    case T_S8: return (int)(r & 255) - 128;
    case T_U8: return (int)(r & 255);
    case T_S4: return (int)(r & 15) - 8;
    case T_U4: return (int)(r & 15);
    default: return (int)(r % 7) - 3;
    }
}
static int isfloat(int t) { return t <= T_TF32 || t >= T_E4M3; }

/* Builds a random sparse A (16 x K, the compressed values and the metadata of §9.7.13.5.1: 2:4
 * with two 2-bit indices per 4-wide chunk, 1:2 .tf32 with 0b0100 / 0b1110 per 2-wide chunk, 4:8
 * .s4/.u4 with two 2-bit pair indices per 8-wide chunk, indices increasing), B (K x 8) and C
 * (16 x 8), places them in the registers of §9.7.13.5.2 (A: lane 4g+t, register r, element j is
 * row g + 8 (r & 1), stored column (r >> 1) 4p + t p + j with p elements per register; B, C, D as
 * for the dense mma of §9.7.13.4; the metadata of rows g and g+8 in 16-bit pieces, piece q in
 * lane 4g + sel * n + q, row g in the low half) and computes D = A * B + C in want (the D
 * registers of every lane, 4 words each). */
static void sp_gen(const spform *fm, uint32_t *rs, uint32_t *a, uint32_t *b, uint32_t *c,
                   uint32_t *e, uint32_t *want)
{
    enum { K = 128 };
    static int Ad[16][K], Bm[K][8];
    static long long Cm[16][8];
    uint64_t meta[16] = { 0 };
    int ac[16][K / 2];
    unsigned K2 = fm->k / 2, p = 32 / tbits[fm->at], pb = 32 / tbits[fm->bt];
    int tf = fm->at == T_TF32, s4 = fm->at == T_S4 || fm->at == T_U4;
    memset(Ad, 0, sizeof Ad);
    memset(a, 0, 128 * 4), memset(b, 0, 128 * 4), memset(c, 0, 128 * 4);
    for (unsigned row = 0; row < 16; row++) {
        for (unsigned cc = 0; cc < K2; cc++) ac[row][cc] = sp_val(rs, fm->at);
        unsigned w = tf ? 2 : s4 ? 8 : 4, per = tf ? 1 : s4 ? 4 : 2;   /* chunk, stored */
        for (unsigned ch = 0; ch < fm->k / w; ch++) {
            unsigned q0 = sp_rnd(rs) >> 7 & 3, q1 = sp_rnd(rs) >> 9 & 3;
            if (tf) q0 &= 1;
            else {
                while (q1 == q0) q1 = (q1 + 1) & 3;
                if (q1 < q0) { unsigned x = q0; q0 = q1; q1 = x; }
            }
            meta[row] |= (uint64_t)(tf ? (q0 ? 14u : 4u) : (q0 | q1 << 2)) << (4 * ch);
            for (unsigned i = 0; i < per; i++) {
                unsigned pos = tf ? q0 : s4 ? 2 * (i < 2 ? q0 : q1) + (i & 1) : (i ? q1 : q0);
                Ad[row][ch * w + pos] = ac[row][ch * per + i];
            }
        }
    }
    for (unsigned k = 0; k < fm->k; k++)
        for (int n = 0; n < 8; n++) Bm[k][n] = sp_val(rs, fm->bt);
    for (int m = 0; m < 16; m++)
        for (int n = 0; n < 8; n++)
            Cm[m][n] = isfloat(fm->at) ? sp_val(rs, T_F16) * 5 : (long long)(int32_t)sp_rnd(rs);
    if (fm->sat) Cm[0][0] = 0x7fffff00, Cm[9][3] = -0x7fffff00ll - 1;   /* overflow both ways */
    unsigned na = fm->k * tbits[fm->at] / 128, nb = fm->k * tbits[fm->bt] / 128;
    unsigned nth = (tf ? 2 * fm->k : s4 ? fm->k / 2 : fm->k) / 16;
    for (unsigned l = 0; l < 32; l++) {
        unsigned g = l / 4, t = l % 4;
        for (unsigned r = 0; r < na; r++)
            for (unsigned j = 0; j < p; j++) {
                unsigned row = g + 8 * (r & 1), cc = (r >> 1) * 4 * p + t * p + j;
                a[l * 4 + r] |= enc(fm->at, ac[row][cc]) << (tbits[fm->at] * j);
            }
        for (unsigned r = 0; r < nb; r++)
            for (unsigned j = 0; j < pb; j++)
                b[l * 4 + r] |= enc(fm->bt, Bm[r * 4 * pb + t * pb + j][g]) << (tbits[fm->bt] * j);
        for (unsigned r = 0; r < 4; r++) {
            unsigned row = g + 8 * (r >> 1), col = 2 * t + (r & 1);
            if (fm->f16acc && r < 2)
                c[l * 4 + r] = enc(T_F16, (int)Cm[g + 8 * r][2 * t]) |
                               enc(T_F16, (int)Cm[g + 8 * r][2 * t + 1]) << 16;
            else if (!fm->f16acc)
                c[l * 4 + r] = isfloat(fm->at) ? f32bits((float)Cm[row][col])
                                               : (uint32_t)Cm[row][col];
        }
        e[l] = sp_rnd(rs);   /* lanes that hold no metadata: ignored */
    }
    for (unsigned g = 0; g < 8; g++)
        for (unsigned q = 0; q < nth; q++)
            e[4 * g + fm->sel * nth + q] = (uint32_t)(meta[g] >> (16 * q) & 0xffff) |
                                           (uint32_t)(meta[g + 8] >> (16 * q) & 0xffff) << 16;
    /* The metadata registers above are laid out in 16-bit pieces of rows g and g+8, which is
       what the hardware reads for .f16/.bf16/.tf32.  For the 8- and 4-bit types an H100 reads a
       register as 32 bits of one row (word q of row g + 8h in lane 4g + 2 sel + 2q + h,
       tests/kernels/gpu/sp_s8_k32_*.bin ...): the same registers (kept, so that the recorded
       outputs stay those of these inputs) then stand for other valid 2:4 / 4:8 patterns, and A
       is rebuilt from them as the hardware reads them. */
    if (tbits[fm->at] <= 8) {
        memset(Ad, 0, sizeof Ad);
        unsigned w = s4 ? 8 : 4, per = s4 ? 4 : 2;
        for (unsigned row = 0; row < 16; row++) {
            uint64_t m = 0;
            for (unsigned q = 0; q < nth / 2; q++)
                m |= (uint64_t)e[4 * (row % 8) + 2 * fm->sel + 2 * q + row / 8] << (32 * q);
            for (unsigned ch = 0; ch < fm->k / w; ch++) {
                unsigned q0 = m >> (4 * ch) & 3, q1 = m >> (4 * ch + 2) & 3;
                for (unsigned i = 0; i < per; i++) {
                    unsigned pos = s4 ? 2 * (i < 2 ? q0 : q1) + (i & 1) : (i ? q1 : q0);
                    Ad[row][ch * w + pos] = ac[row][ch * per + i];
                }
            }
        }
    }
    long long D[16][8];
    for (int m = 0; m < 16; m++)
        for (int n = 0; n < 8; n++) {
            long long acc = Cm[m][n];
            for (unsigned k = 0; k < fm->k; k++) acc += (long long)Ad[m][k] * Bm[k][n];
            if (!isfloat(fm->at))
                acc = fm->sat ? (acc > INT32_MAX ? INT32_MAX : acc < INT32_MIN ? INT32_MIN : acc)
                              : (int32_t)(uint32_t)acc;
            D[m][n] = acc;
        }
    memset(want, 0, 128 * 4);
    for (unsigned l = 0; l < 32; l++) {
        unsigned g = l / 4, t = l % 4;
        for (unsigned r = 0; r < 4; r++) {
            unsigned row = g + 8 * (r >> 1), col = 2 * t + (r & 1);
            if (fm->f16acc && r < 2)
                want[l * 4 + r] = enc(T_F16, (int)D[g + 8 * r][2 * t]) |
                                  enc(T_F16, (int)D[g + 8 * r][2 * t + 1]) << 16;
            else if (!fm->f16acc)
                want[l * 4 + r] = isfloat(fm->at) ? f32bits((float)D[row][col])
                                                  : (uint32_t)D[row][col];
        }
    }
}

/* The ISA leaves the accumulation order and rounding of the float forms unspecified
 * (§9.7.13.5.3): the inputs are small integers, so every order gives the same exact result. */
static const spform sp_forms[] = {
    { "sp_f16_k16", T_F16, T_F16, 16, 1, 0, 0 },    { "sp_f16_k32", T_F16, T_F16, 32, 0, 1, 0 },
    { "sp_bf16_k32", T_BF16, T_BF16, 32, 1, 0, 0 }, { "sp_tf32_k8", T_TF32, T_TF32, 8, 2, 0, 0 },
    { "sp_tf32_k16", T_TF32, T_TF32, 16, 1, 0, 0 }, { "sp_s8_k32", T_S8, T_S8, 32, 1, 0, 0 },
    { "sp_u8s8_k64", T_U8, T_S8, 64, 0, 0, 1 },     { "sp_s4_k64", T_S4, T_S4, 64, 0, 0, 0 },
    { "sp_u4_k128", T_U4, T_U4, 128, 0, 0, 0 },     { "sp_e4m3_k64", T_E4M3, T_E5M2, 64, 0, 0, 0 },
};
#define SP_NFORMS (sizeof sp_forms / sizeof sp_forms[0])
#define SP_REPS 3   /* inputs per form */
#endif
