/* ptx/isa.c — the PTX instruction-semantics table shared by the executor and the litmus checker.
 *
 * Lua-VM style: ONE opcode table (isa_ops[] at the bottom) whose entries name a mnemonic, the
 * modifier that selects the entry ("mul" + "hi"), operand counts, class, allowed types and
 * modifiers, and a one-lane eval function.  isa_decode() splits "setp.lt.and.s32" on dots, picks
 * the first entry whose name, selecting mode and types fit, and fills an isa_insn; isa_eval()
 * calls the entry's eval.  Values are raw bits in uint64_t, sub-word results zero-extended.
 * All C arithmetic on guest values is unsigned (no host UB on overflow or wide shifts).
 * Section numbers (§) refer to the PTX ISA 8.4 text in /work/shared/spec.
 */
#include "base/sanitized.h"
#include "ptx/isa.h"

#include "ptx/mnemonic.h"

#include <fenv.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* ---------------------------------------------------------------- types (§5.2.2) */

static const struct { const char *name; uint8_t bits, sgn, flt; } tinfo[ISA_T_COUNT] = {
    [ISA_T_NONE] = {"", 0, 0, 0},          [ISA_T_PRED] = {"pred", 1, 0, 0},
    [ISA_T_B8] = {"b8", 8, 0, 0},          [ISA_T_B16] = {"b16", 16, 0, 0},
    [ISA_T_B32] = {"b32", 32, 0, 0},       [ISA_T_B64] = {"b64", 64, 0, 0},
    [ISA_T_B128] = {"b128", 128, 0, 0},    [ISA_T_U8] = {"u8", 8, 0, 0},
    [ISA_T_U16] = {"u16", 16, 0, 0},       [ISA_T_U32] = {"u32", 32, 0, 0},
    [ISA_T_U64] = {"u64", 64, 0, 0},       [ISA_T_S8] = {"s8", 8, 1, 0},
    [ISA_T_S16] = {"s16", 16, 1, 0},       [ISA_T_S32] = {"s32", 32, 1, 0},
    [ISA_T_S64] = {"s64", 64, 1, 0},       [ISA_T_F16] = {"f16", 16, 1, 1},
    [ISA_T_F16X2] = {"f16x2", 32, 1, 1},   [ISA_T_BF16] = {"bf16", 16, 1, 1},
    [ISA_T_BF16X2] = {"bf16x2", 32, 1, 1}, [ISA_T_TF32] = {"tf32", 32, 1, 1},
    [ISA_T_F32] = {"f32", 32, 1, 1},       [ISA_T_F64] = {"f64", 64, 1, 1},
    [ISA_T_E4M3X2] = {"e4m3x2", 16, 1, 1}, [ISA_T_E5M2X2] = {"e5m2x2", 16, 1, 1},
    [ISA_T_U16X2] = {"u16x2", 32, 0, 0},   [ISA_T_S16X2] = {"s16x2", 32, 1, 0},
};

isa_type isa_type_parse(const char *s)
{
    if (!s) return ISA_T_NONE;
    if (*s == '.') s++;
    for (int t = 1; t < ISA_T_COUNT; t++)
        if (!strcmp(s, tinfo[t].name)) return (isa_type)t;
    return ISA_T_NONE;
}
const char *isa_type_name(isa_type t) { return (unsigned)t < ISA_T_COUNT ? tinfo[t].name : ""; }
unsigned isa_type_bits(isa_type t) { return (unsigned)t < ISA_T_COUNT ? tinfo[t].bits : 0; }
int isa_type_is_signed(isa_type t)
{
    return (unsigned)t < ISA_T_COUNT && tinfo[t].sgn && !tinfo[t].flt;
}
int isa_type_is_float(isa_type t) { return (unsigned)t < ISA_T_COUNT && tinfo[t].flt; }
int64_t isa_value(isa_type t, uint64_t raw)
{
    unsigned n = (unsigned)t < ISA_T_COUNT ? tinfo[t].bits : 0;
    if (!n || n >= 64 || t == ISA_T_PRED) return (int64_t)raw;
    raw &= (1ull << n) - 1;
    if (tinfo[t].sgn && !tinfo[t].flt && (raw >> (n - 1) & 1)) raw |= ~((1ull << n) - 1);
    return (int64_t)raw;
}

/* ---------------------------------------------------------------- bit helpers */

static void seterr(char *err, size_t n, const char *fmt, ...)
{
    if (!err || !n) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, n, fmt, ap);
    va_end(ap);
}


#define TB(t) (1u << (t))
#define BITS(in) (tinfo[(in)->type].bits)
#define SGN(in) (tinfo[(in)->type].sgn)

static inline uint64_t wmask(unsigned n) { return n >= 64 ? ~0ull : (1ull << n) - 1; }
/* The value of v read as type t: sign- or zero-extended to 64 bits. */
static inline uint64_t ext(isa_type t, uint64_t v)
{
    return tinfo[t].sgn ? isa_sext(v, tinfo[t].bits) : v & wmask(tinfo[t].bits);
}
static inline int slt(uint64_t a, uint64_t b) { return (int64_t)a < (int64_t)b; }
/* a < b for values already extended as type t. */
static inline int lt_t(isa_type t, uint64_t a, uint64_t b)
{
    return tinfo[t].sgn ? slt(a, b) : a < b;
}
/* Clamp a 64-bit signed (extended) value to MININT..MAXINT of 32 bits (.sat, §9.7.1.1). */
static inline uint64_t sat_s32(uint64_t v)
{
    if (slt(v, (uint64_t)(int64_t)INT32_MIN)) return 0x80000000u;
    if (slt((uint64_t)(int64_t)INT32_MAX, v)) return 0x7fffffffu;
    return v & 0xffffffffu;
}

/* ================================================================ integer arithmetic §9.7.1 */

/* §9.7.1.1 add, §9.7.1.2 sub: wrap at the type width; .sat (s32 only) clamps. */
static void ev_add(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    d[0] = (in->mods & ISA_M_SAT) ? sat_s32(isa_sext(s[0], 32) + isa_sext(s[1], 32))
                                  : (s[0] + s[1]) & wmask(BITS(in));
}
static void ev_sub(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    d[0] = (in->mods & ISA_M_SAT) ? sat_s32(isa_sext(s[0], 32) - isa_sext(s[1], 32))
                                  : (s[0] - s[1]) & wmask(BITS(in));
}
/* Packed .u16x2/.s16x2: the same op on both half words (§9.7.1.1, §9.7.1.12/13). */
typedef uint64_t (*lane16_fn)(int sgn, uint64_t a, uint64_t b);
static uint64_t l16_add(int sgn, uint64_t a, uint64_t b) { (void)sgn; return a + b; }
static uint64_t l16_min(int sgn, uint64_t a, uint64_t b)
{
    return sgn ? (slt(isa_sext(a, 16), isa_sext(b, 16)) ? a : b) : (a < b ? a : b);
}
static uint64_t l16_max(int sgn, uint64_t a, uint64_t b)
{
    return sgn ? (slt(isa_sext(b, 16), isa_sext(a, 16)) ? a : b) : (a > b ? a : b);
}
static uint64_t packed16(const isa_insn *in, lane16_fn f, uint64_t a, uint64_t b)
{
    int sg = SGN(in);
    uint64_t lo = f(sg, a & 0xffff, b & 0xffff) & 0xffff;
    uint64_t hi = f(sg, (a >> 16) & 0xffff, (b >> 16) & 0xffff) & 0xffff;
    if (in->mods & ISA_M_RELU) { /* min/max .relu: negative halves become 0 */
        if (lo & 0x8000) lo = 0;
        if (hi & 0x8000) hi = 0;
    }
    return lo | hi << 16;
}
static void ev_add16x2(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    d[0] = packed16(in, l16_add, s[0], s[1]);
}
static void ev_min16x2(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    d[0] = packed16(in, l16_min, s[0], s[1]);
}
static void ev_max16x2(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    d[0] = packed16(in, l16_max, s[0], s[1]);
}

/* High n bits of the 2n-bit product of a and b read as type t (§9.7.1.3 mul.hi). */
static uint64_t mul_hi(isa_type t, uint64_t a, uint64_t b)
{
    unsigned n = tinfo[t].bits;
    if (n < 64) return ((ext(t, a) * ext(t, b)) >> n) & wmask(n);
    unsigned __int128 p = (unsigned __int128)a * b;
    uint64_t hi = (uint64_t)(p >> 64);
    if (tinfo[t].sgn) hi -= (slt(a, 0) ? b : 0) + (slt(b, 0) ? a : 0); /* signed correction */
    return hi;
}
/* Full 2n-bit product, n = 16 or 32 (§9.7.1.3 mul.wide). */
static uint64_t mul_wide(isa_type t, uint64_t a, uint64_t b)
{
    return (ext(t, a) * ext(t, b)) & wmask(2 * tinfo[t].bits);
}
static void ev_mul_lo(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    d[0] = (s[0] * s[1]) & wmask(BITS(in));
}
static void ev_mul_hi(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    d[0] = mul_hi(in->type, s[0], s[1]);
}
static void ev_mul_wide(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    d[0] = mul_wide(in->type, s[0], s[1]);
}
/* §9.7.1.4 mad: t = a*b; d = t.lo + c / t.hi + c (.sat: s32 .hi only) / t + c (c 2n bits). */
static void ev_mad_lo(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    d[0] = (s[0] * s[1] + s[2]) & wmask(BITS(in));
}
static void ev_mad_hi(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    uint64_t h = mul_hi(in->type, s[0], s[1]);
    d[0] = (in->mods & ISA_M_SAT) ? sat_s32(isa_sext(h, 32) + isa_sext(s[2], 32))
                                  : (h + s[2]) & wmask(BITS(in));
}
static void ev_mad_wide(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    d[0] = (mul_wide(in->type, s[0], s[1]) + s[2]) & wmask(2 * BITS(in));
}
/* §9.7.1.5 mul24 / §9.7.1.6 mad24: 24x24 -> 48-bit product; .lo = t<31..0>, .hi = t<47..16>. */
static uint64_t mul48(const isa_insn *in, uint64_t a, uint64_t b)
{
    return SGN(in) ? isa_sext(a, 24) * isa_sext(b, 24) : (a & 0xffffff) * (b & 0xffffff);
}
static void ev_mul24_lo(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    d[0] = mul48(in, s[0], s[1]) & 0xffffffffu;
}
static void ev_mul24_hi(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    d[0] = (mul48(in, s[0], s[1]) >> 16) & 0xffffffffu;
}
static void ev_mad24_lo(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    d[0] = (mul48(in, s[0], s[1]) + s[2]) & 0xffffffffu;
}
static void ev_mad24_hi(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    uint64_t h = (mul48(in, s[0], s[1]) >> 16) & 0xffffffffu;
    d[0] = (in->mods & ISA_M_SAT) ? sat_s32(isa_sext(h, 32) + isa_sext(s[2], 32))
                                  : (h + s[2]) & 0xffffffffu;
}
/* §9.7.1.7 sad: d = c + |a - b|. */
static void ev_sad(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    uint64_t a = ext(in->type, s[0]), b = ext(in->type, s[1]);
    d[0] = (s[2] + (lt_t(in->type, a, b) ? b - a : a - b)) & wmask(BITS(in));
}
/* §9.7.1.8 div: "Division by zero yields an unspecified, machine-specific value."  We choose
 * all ones (0xff..ff: UINT_MAX, or -1 for signed), what an unsigned restoring divide yields.
 * Signed MININT / -1 wraps to MININT.  Quotients truncate toward zero. */
static void ev_div(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    uint64_t a = ext(in->type, s[0]), b = ext(in->type, s[1]), q;
    if (b == 0) q = ~0ull;
    else if (!SGN(in)) q = a / b;
    else if (b == ~0ull) q = 0 - a;
    else q = (uint64_t)((int64_t)a / (int64_t)b);
    d[0] = q & wmask(BITS(in));
}
/* §9.7.1.9 rem: remainder of the truncating divide (sign of the dividend, as C).  By zero we
 * choose d = a (consistent with a - (a/0)*0); MININT % -1 = 0. */
static void ev_rem(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    uint64_t a = ext(in->type, s[0]), b = ext(in->type, s[1]), r;
    if (b == 0) r = a;
    else if (!SGN(in)) r = a % b;
    else if (b == ~0ull) r = 0;
    else r = (uint64_t)((int64_t)a % (int64_t)b);
    d[0] = r & wmask(BITS(in));
}
/* §9.7.1.10 abs, §9.7.1.11 neg: two's complement, so |MININT| = -MININT = MININT. */
static void ev_abs(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    uint64_t a = isa_sext(s[0], BITS(in));
    d[0] = (slt(a, 0) ? 0 - a : a) & wmask(BITS(in));
}
static void ev_neg(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    d[0] = (0 - s[0]) & wmask(BITS(in));
}
/* §9.7.1.12 min, §9.7.1.13 max: signed and unsigned differ; .relu (s32) clamps negatives to 0. */
static uint64_t relu32(const isa_insn *in, uint64_t v)
{
    return ((in->mods & ISA_M_RELU) && slt(v, 0)) ? 0 : v;
}
static void ev_min(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    uint64_t a = ext(in->type, s[0]), b = ext(in->type, s[1]);
    d[0] = relu32(in, lt_t(in->type, a, b) ? a : b) & wmask(BITS(in));
}
static void ev_max(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    uint64_t a = ext(in->type, s[0]), b = ext(in->type, s[1]);
    d[0] = relu32(in, lt_t(in->type, b, a) ? a : b) & wmask(BITS(in));
}
/* §9.7.1.14 popc, §9.7.1.15 clz: .u32 results; clz(0) = width. */
static void ev_popc(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    d[0] = (uint64_t)__builtin_popcountll(s[0] & wmask(BITS(in)));
}
static void ev_clz(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    uint64_t a = s[0] & wmask(BITS(in));
    d[0] = a ? (uint64_t)(__builtin_clzll(a) - (64 - (int)BITS(in))) : BITS(in);
}
/* §9.7.1.16 bfind: msb of a non-sign bit (negative signed inputs are inverted first);
 * 0xffffffff when none; .shiftamt returns msb - pos. */
static void ev_bfind(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    unsigned msb = BITS(in) - 1;
    uint64_t a = s[0] & wmask(BITS(in));
    if (SGN(in) && (a >> msb & 1)) a = ~a & wmask(BITS(in));
    if (!a) { d[0] = 0xffffffffu; return; }
    unsigned pos = 63u - (unsigned)__builtin_clzll(a);
    d[0] = (in->mods & ISA_M_SHIFTAMT) ? msb - pos : pos;
}
/* §9.7.1.17 fns: the offset-th set bit of mask counting from base (up for offset > 0, down
 * for offset < 0; offset 0 tests bit base).  base > 31 is undefined: we return 0xffffffff. */
static void ev_fns(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    (void)in;
    uint32_t mask = (uint32_t)s[0], base = (uint32_t)s[1];
    int32_t off = (int32_t)(uint32_t)s[2];
    d[0] = 0xffffffffu;
    if (base > 31) return;
    if (off == 0) { if (mask >> base & 1) d[0] = base; return; }
    int inc = off > 0 ? 1 : -1;
    uint32_t count = (off > 0 ? (uint32_t)off : 0u - (uint32_t)off) - 1;
    for (int pos = (int)base; pos >= 0 && pos < 32; pos += inc)
        if (mask >> pos & 1) {
            if (count == 0) { d[0] = (uint64_t)pos; return; }
            count--;
        }
}
/* §9.7.1.18 brev: d[i] = a[msb - i]. */
static uint64_t rev64(uint64_t v)
{
    v = (v >> 1 & 0x5555555555555555ull) | (v & 0x5555555555555555ull) << 1;
    v = (v >> 2 & 0x3333333333333333ull) | (v & 0x3333333333333333ull) << 2;
    v = (v >> 4 & 0x0f0f0f0f0f0f0f0full) | (v & 0x0f0f0f0f0f0f0f0full) << 4;
    return __builtin_bswap64(v);
}
static void ev_brev(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    d[0] = rev64(s[0]) >> (64 - BITS(in));
}
/* §9.7.1.19 bfe: pos = b&0xff, len = c&0xff; bits beyond the msb or past len take the sign
 * bit a[min(pos+len-1, msb)] (0 for unsigned types or len == 0). */
static void ev_bfe(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    unsigned n = BITS(in), msb = n - 1, pos = s[1] & 0xff, len = s[2] & 0xff;
    uint64_t a = s[0] & wmask(n);
    unsigned top = pos + len - 1 < msb ? pos + len - 1 : msb;
    uint64_t sbit = (!SGN(in) || len == 0) ? 0 : (a >> top & 1);
    unsigned k = pos > msb ? 0 : (len < n - pos ? len : n - pos); /* bits taken from a */
    uint64_t field = pos > msb ? 0 : (a >> pos) & wmask(k);
    d[0] = (field | (sbit ? ~wmask(k) : 0)) & wmask(n);
}
/* §9.7.1.20 bfi f, a, b, c, d: insert a[len-1..0] into b at pos; len 0 or pos > msb -> b. */
static void ev_bfi(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    unsigned n = BITS(in), pos = s[2] & 0xff, len = s[3] & 0xff;
    uint64_t b = s[1] & wmask(n);
    if (pos >= n || len == 0) { d[0] = b; return; }
    uint64_t m = wmask(len < n - pos ? len : n - pos) << pos;
    d[0] = ((b & ~m) | ((s[0] << pos) & m)) & wmask(n);
}
/* §9.7.1.21 szext.mode.type d, a, b: sign/zero-extend the low N = b bits of a. */
static void ev_szext(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    uint32_t a = (uint32_t)s[0], b = (uint32_t)s[1], b1 = b & 0x1f;
    int too_large = b >= 32 && (in->mods & ISA_M_CLAMP);
    uint32_t mask = too_large ? 0 : ~0u << b1;
    uint32_t sign = (b1 == 0 || too_large || !SGN(in)) ? 0 : (a >> ((b1 - 1) & 0x1f)) & 1;
    d[0] = (a & ~mask) | (sign ? mask : 0);
}
/* §9.7.1.22 bmsk.mode.b32 d, a, b: mask of b bits starting at bit a. */
static void ev_bmsk(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    uint32_t a = (uint32_t)s[0], b = (uint32_t)s[1], a1 = a & 0x1f, b1 = b & 0x1f, sum = a1 + b1;
    uint32_t mask0 = ~0u << a1, mask1 = sum >= 32 ? 0 : ~0u << sum;
    int ovf = sum >= 32;
    if (in->mods & ISA_M_CLAMP) {
        if (a >= 32) { ovf = 1; mask0 = 0; }
        if (b >= 32) ovf = 1;
    }
    if (ovf) mask1 = 0;
    else if (b1 == 0) mask1 = ~0u;
    d[0] = mask0 & ~mask1;
}
/* §9.7.1.23 dp4a.atype.btype, §9.7.1.24 dp2a.mode: byte/half dot products accumulated in 32 bits.
 */
static uint64_t lane(isa_type t, uint64_t v, unsigned i, unsigned w)
{
    uint64_t x = (v >> (i * w)) & wmask(w);
    return tinfo[t].sgn ? isa_sext(x, w) : x;
}
static void ev_dp4a(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    uint64_t acc = s[2];
    for (unsigned i = 0; i < 4; i++)
        acc += lane(in->type, s[0], i, 8) * lane(in->type2, s[1], i, 8);
    d[0] = acc & 0xffffffffu;
}
static void ev_dp2a(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    uint64_t acc = s[2];
    unsigned sel = (in->mods & ISA_M_HI) ? 2 : 0;
    for (unsigned i = 0; i < 2; i++)
        acc += lane(in->type, s[0], i, 16) * lane(in->type2, s[1], sel + i, 8);
    d[0] = acc & 0xffffffffu;
}

/* ================================================================ video §9.7.16 */

/* §9.7.16.1 scalar video instructions: vop.dtype.atype.btype{.sat}{.secop} d{.dsel}, a{.asel},
 * b{.bsel}{, c}.  Stage 1: partSelectSignExtend: the selected byte, half-word or word of the
 * operand, sign- or zero-extended by its type (an .s33 value).  Stage 2: the operation, an .s34
 * intermediate (the ISA's words: "perform a scalar arithmetic operation to produce a signed 34-bit
 * result"; only vshl can exceed 34 bits, and we keep its low 34 bits, sign-extended: the ISA does
 * not say more, see docs/executor.md).  Stage 3: optSaturate to the range of dtype at the size
 * of dsel.  Stage 4: optSecOp (.add/.min/.max with c, c read as dtype) or optMerge (the low
 * byte/half of the result into c at dsel).  The low 32 bits are written. */
enum { VOP_ADD, VOP_SUB, VOP_ABSDIFF, VOP_MIN, VOP_MAX, VOP_SHL, VOP_SHR, VOP_AVRG, VOP_SET };
static inline int64_t vpart(int sgn, uint64_t v, unsigned code)
{
    unsigned w = code == 0 ? 32 : code <= 4 ? 8 : 16;
    unsigned sh = code == 0 ? 0 : code <= 4 ? 8 * (code - 1) : 16 * (code - 5);
    uint64_t x = (v >> sh) & wmask(w);
    return (int64_t)(sgn ? isa_sext(x, w) : x);
}
static inline int64_t vclamp(int64_t t, int64_t lo, int64_t hi)
{
    return t < lo ? lo : t > hi ? hi : t;
}
/* optSaturate: the range of dtype (sgn) at the destination size (dsel code). */
static inline int64_t vsat(int64_t t, int sgn, unsigned dsel)
{
    unsigned w = dsel == 0 ? 32 : dsel <= 4 ? 8 : 16;
    int64_t hi = sgn ? (int64_t)(wmask(w - 1)) : (int64_t)wmask(w), lo = sgn ? -hi - 1 : 0;
    return vclamp(t, lo, hi);
}
static inline int vcmp(int cmp, int64_t a, int64_t b)
{
    switch (cmp) {
    case ISA_CMP_EQ: return a == b;
    case ISA_CMP_NE: return a != b;
    case ISA_CMP_LT: return a < b;
    case ISA_CMP_LE: return a <= b;
    case ISA_CMP_GT: return a > b;
    default: return a >= b;
    }
}
static inline void vscalar(const isa_insn *in, uint64_t *d, const uint64_t *s, int op)
{
    int sa = tinfo[in->type2].sgn, sb = tinfo[in->type3].sgn, sd = tinfo[in->type].sgn;
    if (op == VOP_SET) sa = tinfo[in->type].sgn, sb = tinfo[in->type2].sgn, sd = 0;
    int64_t ta = vpart(sa, s[0], in->asel), tb = vpart(op == VOP_SHL || op == VOP_SHR ? 0 : sb,
                                                       s[1], in->bsel), t;
    if (op == VOP_SHL || op == VOP_SHR) {
        if (in->mods & ISA_M_WRAP) tb &= 31;
        else if (tb > 32) tb = 32;
    }
    switch (op) {
    case VOP_ADD: t = ta + tb; break;
    case VOP_SUB: t = ta - tb; break;
    case VOP_ABSDIFF: t = ta > tb ? ta - tb : tb - ta; break;
    case VOP_MIN: t = ta < tb ? ta : tb; break;
    case VOP_MAX: t = ta > tb ? ta : tb; break;
    case VOP_SHL: t = (int64_t)isa_sext((uint64_t)ta << tb, 34); break;
    case VOP_SHR: t = ta < 0 ? ~(~ta >> tb) : ta >> tb; break;
    default: t = vcmp(in->cmp, ta, tb); break;
    }
    if (in->mods & ISA_M_SAT) t = vsat(t, sd, (in->mods & ISA_M_VMERGE) ? in->dsel : 0);
    int64_t c = (int64_t)(sd ? isa_sext(s[2], 32) : s[2] & 0xffffffffu);
    if (in->mods & ISA_M_ADD) t += c;
    else if (in->mods & ISA_M_VMIN) t = t < c ? t : c;
    else if (in->mods & ISA_M_VMAX) t = t > c ? t : c;
    else if (in->mods & ISA_M_VMERGE) {
        unsigned w = in->dsel <= 4 ? 8 : 16, sh = in->dsel <= 4 ? 8 * (in->dsel - 1)
                                                                : 16 * (in->dsel - 5);
        uint64_t m = wmask(w) << sh;
        t = (int64_t)((((uint64_t)t << sh) & m) | (s[2] & ~m));
    }
    d[0] = (uint64_t)t & 0xffffffffu;
}
#define VSCALAR(name, op)                                                    \
    static void ev_##name(const isa_insn *in, uint64_t *d, const uint64_t *s) \
    {                                                                        \
        vscalar(in, d, s, op);                                               \
    }
VSCALAR(vadd, VOP_ADD)
VSCALAR(vsub, VOP_SUB)
VSCALAR(vabsdiff, VOP_ABSDIFF)
VSCALAR(vmin, VOP_MIN)
VSCALAR(vmax, VOP_MAX)
VSCALAR(vshl, VOP_SHL)
VSCALAR(vshr, VOP_SHR)
VSCALAR(vset, VOP_SET)

/* §9.7.16.1.3 vmad.dtype.atype.btype{.po}{.sat}{.shr7|.shr15} d, {-}a{.asel}, {-}b{.bsel}, {-}c,
 * the ISA's pseudocode step by step in 128 bits: the product is negated (one's complement + 1)
 * when exactly one of a, b is, else c when it is; .po adds 1; c is sign-extended when the final
 * result is signed; .shr7/.shr15 shift (arithmetic when signed); .sat clamps to the 32-bit range
 * of the final sign; the low 32 bits are written.
 * Two departures from the pseudocode, as an H100 computes vmad (tests/kernels/gpu/video_ops.bin,
 * docs/hw-results/2026-11-26b-h100; 400 of 2000 results of the two forms below differ from the
 * pseudocode, none from these rules): when atype or btype is signed, the selected 32-bit values
 * are multiplied as signed (a whole .u32 operand with bit 31 set counts negative:
 * vmad.s32.s32.u32.sat d, a, b, -c); and c is always sign-extended
 * (vmad.u32.u32.u32.shr15 d, a.h0, b.h0, c shifts (a*b + sext(c)) >> 15). */
static void ev_vmad(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    int sa = tinfo[in->type2].sgn, sb = tinfo[in->type3].sgn;
    int signed_final = sa || sb || (in->mods & (ISA_M_NEGP | ISA_M_NEGC));
    int64_t ta = vpart(sa, s[0], in->asel), tb = vpart(sb, s[1], in->bsel);
    if (sa || sb) ta = (int32_t)(uint32_t)ta, tb = (int32_t)(uint32_t)tb;
    __int128 t = (__int128)ta * tb;
    uint64_t c = s[2] & 0xffffffffu;
    int lsb = 0;
    if (in->mods & ISA_M_PO) lsb = 1;
    else if (in->mods & ISA_M_NEGP) t = ~t, lsb = 1;
    else if (in->mods & ISA_M_NEGC) c = ~c & 0xffffffffu, lsb = 1;
    t += (__int128)(int32_t)(uint32_t)c + lsb;
    if (in->mods & ISA_M_SHR7) t >>= 7;          /* GCC: >> of a negative __int128 is arithmetic */
    else if (in->mods & ISA_M_SHR15) t >>= 15;
    if (in->mods & ISA_M_SAT)
        t = signed_final ? (t < INT32_MIN ? INT32_MIN : t > INT32_MAX ? INT32_MAX : t)
                         : (t < 0 ? 0 : t > UINT32_MAX ? UINT32_MAX : t);
    d[0] = (uint64_t)t & 0xffffffffu;
}

/* §9.7.16.2 SIMD video instructions: vop2/vop4.dtype.atype.btype{.sat} d{.mask}, a{.asel},
 * b{.bsel}, c and the .add forms (vset2/vset4: .atype.btype.cmp).  Element i of Va (Vb) is the
 * half-word (byte) of the pair {b, a} (a the low word) that asel (bsel) names, sign- or
 * zero-extended by atype (btype); defaults .h10/.b3210 for a, .h32/.b7654 for b.  t[i] is the
 * operation (vavrg: (Va + Vb + 1) >> 1 when the sum is >= 0, else (Va + Vb) >> 1), .sat clamps
 * it to the element range of dtype.  Merge: element i of d is t[i] (truncated) where the mask
 * has it, else element i of c.  .add: d = c + the sum of the masked t[i] (32 bits).
 * vset2/vset4: the ISA's description says the other positions come from b, its pseudocode
 * (d |= mask[i] ? t[i] : Vc[i]) from c; we follow the pseudocode, as for every other SIMD op. */
static inline void vsimd(const isa_insn *in, uint64_t *d, const uint64_t *s, int op, unsigned n)
{
    unsigned w = 32 / n;
    uint64_t pair = (s[0] & 0xffffffffu) | (s[1] & 0xffffffffu) << 32, out = 0, acc = s[2];
    int sa = tinfo[in->type2].sgn, sb = tinfo[in->type3].sgn, sd = tinfo[in->type].sgn;
    if (op == VOP_SET) sa = tinfo[in->type].sgn, sb = tinfo[in->type2].sgn, sd = 0;
    int64_t hi = sd ? (int64_t)wmask(w - 1) : (int64_t)wmask(w), lo = sd ? -hi - 1 : 0;
    for (unsigned i = 0; i < n; i++) {
        uint64_t xa = (pair >> (w * ((in->asel >> (3 * i)) & 7))) & wmask(w);
        uint64_t xb = (pair >> (w * ((in->bsel >> (3 * i)) & 7))) & wmask(w);
        int64_t va = (int64_t)(sa ? isa_sext(xa, w) : xa),
                vb = (int64_t)(sb ? isa_sext(xb, w) : xb);
        int64_t t;
        switch (op) {
        case VOP_ADD: t = va + vb; break;
        case VOP_SUB: t = va - vb; break;
        case VOP_AVRG: t = va + vb >= 0 ? (va + vb + 1) >> 1 : ~(~(va + vb) >> 1); break;
        case VOP_ABSDIFF: t = va > vb ? va - vb : vb - va; break;
        case VOP_MIN: t = va < vb ? va : vb; break;
        case VOP_MAX: t = va > vb ? va : vb; break;
        default: t = vcmp(in->cmp, va, vb); break;
        }
        if (in->mods & ISA_M_SAT) t = vclamp(t, lo, hi);
        uint64_t m = wmask(w) << (w * i);
        if (!(in->dsel >> i & 1)) {
            out |= s[2] & m;
            continue;
        }
        acc += (uint64_t)t;
        out |= ((uint64_t)t << (w * i)) & m;
    }
    d[0] = ((in->mods & ISA_M_ADD) ? acc : out) & 0xffffffffu;
}
#define VSIMD(name, op, n)                                                   \
    static void ev_##name(const isa_insn *in, uint64_t *d, const uint64_t *s) \
    {                                                                        \
        vsimd(in, d, s, op, n);                                              \
    }
VSIMD(vadd2, VOP_ADD, 2)
VSIMD(vsub2, VOP_SUB, 2)
VSIMD(vavrg2, VOP_AVRG, 2)
VSIMD(vabsdiff2, VOP_ABSDIFF, 2)
VSIMD(vmin2, VOP_MIN, 2)
VSIMD(vmax2, VOP_MAX, 2)
VSIMD(vset2, VOP_SET, 2)
VSIMD(vadd4, VOP_ADD, 4)
VSIMD(vsub4, VOP_SUB, 4)
VSIMD(vavrg4, VOP_AVRG, 4)
VSIMD(vabsdiff4, VOP_ABSDIFF, 4)
VSIMD(vmin4, VOP_MIN, 4)
VSIMD(vmax4, VOP_MAX, 4)
VSIMD(vset4, VOP_SET, 4)

/* ================================================================ extended precision §9.7.2 */

/* One function for add.cc/addc/sub.cc/subc/mad.cc/madc: op = 'a' add, 's' sub, 'm' mad.lo/hi.
 * §9.7.2 names one flag CC.CF for carry and borrow.  Its value follows the hardware convention,
 * which nvcc's code relies on (it reads the flag of sub.cc/subc back with addc, e.g. in its
 * inlined __int128 division): a subtraction is a + ~b + cin and CC.CF is the carry-out of that
 * sum, so CC.CF = 1 means "no borrow".  sub.cc is a + ~b + 1; subc is a + ~b + CC.CF, which is
 * the ISA's a - (b + borrow-in) with borrow-in = !CC.CF.  Chains of one kind (add.cc, addc, ...
 * or sub.cc, subc, ...) give the same values under either convention; mixed chains (sub.cc then
 * addc, add.cc then subc) need this one. */
static int carry_eval(const isa_insn *in, const char *name, const uint64_t *s, uint64_t *d,
                      uint32_t *cc)
{
    unsigned n = BITS(in);
    uint64_t m = wmask(n), a = s[0] & m, b = s[1] & m;
    int use_in = name[strlen(name) - 1] == 'c';      /* addc, subc, madc */
    int set_out = (in->mods & ISA_M_CC) != 0;         /* .cc */
    if (name[0] == 'm') {                             /* mad{c}.lo/.hi: a*b half + c */
        a = (in->mods & ISA_M_HI) ? mul_hi(in->type, s[0], s[1]) : (s[0] * s[1]) & m;
        b = s[2] & m;
    }
    uint64_t cin = use_in ? (*cc & 1) : 0;
    if (name[0] == 's') {                             /* a + ~b + (subc ? CC.CF : 1) */
        b = ~b & m;
        if (!use_in) cin = 1;
    }
    unsigned __int128 w = (unsigned __int128)a + b + cin;
    if (set_out) *cc = (uint32_t)(w >> n) & 1;       /* the carry-out of the n-bit sum */
    d[0] = (uint64_t)w & m;
    return 0;
}

/* ================================================================ logic and shift §9.7.7 */

/* §9.7.7.1-5 and/or/xor/not/cnot (pred = 1-bit type). */
static void ev_and(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    d[0] = s[0] & s[1] & wmask(BITS(in));
}
static void ev_or(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    d[0] = (s[0] | s[1]) & wmask(BITS(in));
}
static void ev_xor(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    d[0] = (s[0] ^ s[1]) & wmask(BITS(in));
}
static void ev_not(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    d[0] = ~s[0] & wmask(BITS(in));
}
static void ev_cnot(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    d[0] = (s[0] & wmask(BITS(in))) == 0;
}
/* Combine t with predicate c by .and/.or/.xor (none: t). */
static uint64_t boolop(int op, uint64_t t, uint64_t c)
{
    static const uint8_t tab[4][4] = {{0, 0, 1, 1}, {0, 0, 0, 1}, {0, 1, 1, 1}, {0, 1, 1, 0}};
    return tab[op & 3][(t & 1) << 1 | (c & 1)];
}
/* §9.7.7.6 lop3 d, a, b, c, immLut{, q}: bit i of immLut is F at (a,b,c) = (i>>2, i>>1, i)&1;
 * with .BoolOp, p = (d != 0) BoolOp q. */
static void ev_lop3(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    uint64_t a = s[0], b = s[1], c = s[2], r = 0;
    unsigned lut = s[3] & 0xff;
    for (unsigned i = 0; i < 8; i++)
        if (lut >> i & 1) r |= (i & 4 ? a : ~a) & (i & 2 ? b : ~b) & (i & 1 ? c : ~c);
    d[0] = r & 0xffffffffu;
    if (in->boolop) d[1] = boolop(in->boolop, d[0] != 0, s[4]);
}
/* §9.7.7.7 shf.{l,r}.{clamp,wrap}.b32: funnel shift of [b, a]; n = min(c, 32) or c & 31. */
static unsigned shf_n(const isa_insn *in, uint64_t c)
{
    uint32_t x = (uint32_t)c;
    return (in->mods & ISA_M_CLAMP) ? (x < 32 ? x : 32) : (x & 31);
}
static void ev_shf_l(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    uint64_t v = (s[1] & 0xffffffffu) << 32 | (s[0] & 0xffffffffu);
    d[0] = (v << shf_n(in, s[2])) >> 32;
}
static void ev_shf_r(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    uint64_t v = (s[1] & 0xffffffffu) << 32 | (s[0] & 0xffffffffu);
    d[0] = (v >> shf_n(in, s[2])) & 0xffffffffu;
}
/* §9.7.7.8 shl / §9.7.7.9 shr: b is an unsigned 32-bit amount, clamped to the width N;
 * shr fills with the sign for signed types and with 0 otherwise. */
static void ev_shl(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    uint32_t b = (uint32_t)s[1];
    d[0] = b >= BITS(in) ? 0 : (s[0] << b) & wmask(BITS(in));
}
static void ev_shr(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    uint32_t b = (uint32_t)s[1];
    uint64_t a = ext(in->type, s[0]);                     /* sign- or zero-extended */
    unsigned k = b >= BITS(in) ? 63 : b;                  /* >= N: all sign (or 0) bits */
    uint64_t r = SGN(in) ? (uint64_t)((int64_t)a >> k) : (b >= BITS(in) ? 0 : a >> k);
    d[0] = r & wmask(BITS(in));
}

/* ================================================================ data movement §9.7.8 */

/* §9.7.8.3 mov d, a. */
static void ev_mov(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    d[0] = s[0] & wmask(BITS(in));
}
/* §9.7.8.7 prmt.b32{.mode}: byte select from {b, a} = bytes 7..0.  Generic: 4-bit selectors
 * c[3:0], c[7:4], c[11:8], c[15:12], msb = replicate the byte's sign.  Modes use c[1:0] and the
 * table below (rows: selector 0..3; columns: source byte of d.b0, d.b1, d.b2, d.b3). */
static const uint8_t prmt_tab[7][4][4] = {
    [ISA_PRMT_F4E] = {{0, 1, 2, 3}, {1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6}},
    [ISA_PRMT_B4E] = {{0, 7, 6, 5}, {1, 0, 7, 6}, {2, 1, 0, 7}, {3, 2, 1, 0}},
    [ISA_PRMT_RC8] = {{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}},
    [ISA_PRMT_ECL] = {{0, 1, 2, 3}, {1, 1, 2, 3}, {2, 2, 2, 3}, {3, 3, 3, 3}},
    [ISA_PRMT_ECR] = {{0, 0, 0, 0}, {0, 1, 1, 1}, {0, 1, 2, 2}, {0, 1, 2, 3}},
    [ISA_PRMT_RC16] = {{0, 1, 0, 1}, {2, 3, 2, 3}, {0, 1, 0, 1}, {2, 3, 2, 3}},
};
static void ev_prmt(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    uint64_t src = (s[1] & 0xffffffffu) << 32 | (s[0] & 0xffffffffu), r = 0;
    for (unsigned i = 0; i < 4; i++) {
        uint64_t byte;
        if (in->aux == ISA_PRMT_GENERIC) {
            unsigned sel = (unsigned)(s[2] >> (4 * i)) & 0xf;
            byte = (src >> (8 * (sel & 7))) & 0xff;
            if (sel & 8) byte = (byte & 0x80) ? 0xff : 0;
        } else {
            byte = (src >> (8 * prmt_tab[in->aux][s[2] & 3][i])) & 0xff;
        }
        r |= byte << (8 * i);
    }
    d[0] = r;
}
/* §9.7.8.20 cvt between integer types: read a as .atype, then wrap to .dtype, or with .sat
 * clamp to MININT..MAXINT of .dtype (both signed and unsigned destinations). */
static uint64_t sat_int(isa_type dt, uint64_t v, int vsigned)
{
    unsigned n = tinfo[dt].bits;
    if (tinfo[dt].sgn) {
        uint64_t max = wmask(n - 1), min = ~max;               /* as 64-bit signed */
        if (vsigned) return (slt(v, min) ? min : slt(max, v) ? max : v) & wmask(n);
        return (v > max ? max : v) & wmask(n);
    }
    if (vsigned && slt(v, 0)) return 0;
    return v > wmask(n) ? wmask(n) : v;
}
static void ev_cvt_ii(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    uint64_t v = ext(in->type2, s[0]);
    d[0] =
        (in->mods & ISA_M_SAT) ? sat_int(in->type, v, tinfo[in->type2].sgn) : v & wmask(BITS(in));
}

/* ================================================================ compare and select §9.7.5 */

/* Outcome of comparing a and b: 0 less, 1 equal, 2 greater, 3 unordered (a NaN). */
enum { O_LT = 1, O_EQ = 2, O_GT = 4, O_UN = 8 };
static const struct {
    const char *name;
    uint8_t outcomes, uns, fonly, ionly;
} cmptab[ISA_CMP_COUNT] = {
    [ISA_CMP_EQ] = { "eq", O_EQ, 0, 0, 0 },
    [ISA_CMP_NE] = { "ne", O_LT | O_GT, 0, 0, 0 },
    [ISA_CMP_LT] = { "lt", O_LT, 0, 0, 0 },
    [ISA_CMP_LE] = { "le", O_LT | O_EQ, 0, 0, 0 },
    [ISA_CMP_GT] = { "gt", O_GT, 0, 0, 0 },
    [ISA_CMP_GE] = { "ge", O_GT | O_EQ, 0, 0, 0 },
    [ISA_CMP_LO] = { "lo", O_LT, 1, 0, 1 },
    [ISA_CMP_LS] = { "ls", O_LT | O_EQ, 1, 0, 1 },
    [ISA_CMP_HI] = { "hi", O_GT, 1, 0, 1 },
    [ISA_CMP_HS] = { "hs", O_GT | O_EQ, 1, 0, 1 },
    [ISA_CMP_EQU] = { "equ", O_EQ | O_UN, 0, 1, 0 },
    [ISA_CMP_NEU] = { "neu", O_LT | O_GT | O_UN, 0, 1, 0 },
    [ISA_CMP_LTU] = { "ltu", O_LT | O_UN, 0, 1, 0 },
    [ISA_CMP_LEU] = { "leu", O_LT | O_EQ | O_UN, 0, 1, 0 },
    [ISA_CMP_GTU] = { "gtu", O_GT | O_UN, 0, 1, 0 },
    [ISA_CMP_GEU] = { "geu", O_GT | O_EQ | O_UN, 0, 1, 0 },
    [ISA_CMP_NUM] = { "num", O_LT | O_EQ | O_GT, 0, 1, 0 },
    [ISA_CMP_NAN] = { "nan", O_UN, 0, 1, 0 },
};
static double fval(isa_type t, uint64_t v, int ftz);
static unsigned outcome(const isa_insn *in, isa_type t, uint64_t a, uint64_t b)
{
    if (tinfo[t].flt) {
        int ftz = (in->mods & ISA_M_FTZ) != 0;
        double x = fval(t, a, ftz), y = fval(t, b, ftz);
        return (x != x || y != y) ? O_UN : x < y ? O_LT : x == y ? O_EQ : O_GT;
    }
    a = ext(t, a), b = ext(t, b);
    int lt = (tinfo[t].sgn && !cmptab[in->cmp].uns) ? slt(a, b) : a < b;
    return lt ? O_LT : a == b ? O_EQ : O_GT;
}
static uint64_t cmp_t(const isa_insn *in, uint64_t a, uint64_t b)
{
    return (cmptab[in->cmp].outcomes & outcome(in, in->type2, a, b)) != 0;
}
/* §9.7.5.2 setp.CmpOp{.BoolOp}.type p[|q], a, b{, c}: p = BoolOp(t, c), q = BoolOp(!t, c). */
static void ev_setp(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    uint64_t t = cmp_t(in, s[0], s[1]), c = in->boolop ? s[2] : 0;
    d[0] = boolop(in->boolop, t, c);
    if (in->mods & ISA_M_PAIR) d[1] = boolop(in->boolop, !t, c);
}
/* §9.7.5.1 set.CmpOp{.BoolOp}.dtype.stype: 1.0f for .f32, 0xffffffff for integer dtypes;
 * §9.7.6.1 adds 1.0 in .f16/.bf16 format and 0xffff for .u16/.s16 destinations. */
static uint64_t set_true(isa_type t)
{
    switch (t) {
    case ISA_T_F32: return 0x3f800000u;
    case ISA_T_F16: case ISA_T_F16X2: return 0x3c00;
    case ISA_T_BF16: case ISA_T_BF16X2: return 0x3f80;
    default: return wmask(tinfo[t].bits);
    }
}
static void ev_set(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    uint64_t r = boolop(in->boolop, cmp_t(in, s[0], s[1]), in->boolop ? s[2] : 0);
    d[0] = r ? set_true(in->type) : 0;
}
/* §9.7.5.3 selp d, a, b, c: c ? a : b. */
static void ev_selp(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    d[0] = ((s[2] & 1) ? s[0] : s[1]) & wmask(BITS(in));
}
/* §9.7.5.4 slct.dtype.{s32,f32} d, a, b, c: c >= 0 ? a : b; NaN c selects b, -0 and (with
 * .ftz) subnormal c select a. */
static void ev_slct(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    int ge = in->type2 == ISA_T_S32 ? !slt(isa_sext(s[2], 32), 0)
                                    : fval(ISA_T_F32, s[2], (in->mods & ISA_M_FTZ) != 0) >= 0.0;
    d[0] = (ge ? s[0] : s[1]) & wmask(BITS(in));
}

/* ================================================================ floating point §9.7.3 */

static inline float f32of(uint64_t v)
{
    uint32_t u = (uint32_t)v;
    float f;
    memcpy(&f, &u, 4);
    return f;
}
static inline double f64of(uint64_t v) { double f; memcpy(&f, &v, 8); return f; }
static inline uint64_t bf32(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline uint64_t bf64(double f) { uint64_t u; memcpy(&u, &f, 8); return u; }
/* Flush a subnormal f32 to sign-preserving zero (.ftz). */
static inline uint64_t ftz32(uint64_t v)
{
    return (v & 0x7f800000u) ? v & 0xffffffffu : v & 0x80000000u;
}
static double hdouble(isa_type t, uint64_t v, int ftz);
static double fval(isa_type t, uint64_t v, int ftz)
{
    if (t == ISA_T_F16 || t == ISA_T_BF16) return hdouble(t, v, ftz);   /* §9.7.6: exact */
    return t == ISA_T_F64 ? f64of(v) : (double)f32of(ftz ? ftz32(v) : v);
}

/* Rounding modifiers .rz/.rm/.rp switch the host rounding mode around one operation; .rn and
 * no modifier use the default round-to-nearest-even (§9.7.3.3). */
static const int fe_of[] = {
    [ISA_RND_RZ] = FE_TOWARDZERO, [ISA_RND_RM] = FE_DOWNWARD, [ISA_RND_RP] = FE_UPWARD
};
static int rnd_enter(int rnd)
{
    if (rnd < ISA_RND_RZ || rnd > ISA_RND_RP) return -1;
    int old = fegetround();
    fesetround(fe_of[rnd]);
    return old;
}
static void rnd_leave(int old) { if (old >= 0) fesetround(old); }

/* One IEEE operation in the current rounding mode.  Under a switched mode (.rz/.rm/.rp) it runs
 * in ar32/ar64, whose volatile in and out keep the compiler from folding or moving it across
 * fesetround (we cannot rely on -frounding-math); in the default round-to-nearest-even mode the
 * compiler's own assumption holds, so op32/op64 are used inline (no call, no volatile). */
enum { FA_ADD, FA_SUB, FA_MUL, FA_DIV, FA_FMA, FA_SQRT, FA_CVT };
static inline float op32(int op, float x, float y, float z)
{
    switch (op) {
    case FA_ADD: return x + y;
    case FA_SUB: return x - y;
    case FA_MUL: return x * y;
    case FA_DIV: return x / y;
    case FA_FMA: return fmaf(x, y, z);
    default: return sqrtf(x);
    }
}
static inline double op64(int op, double x, double y, double z)
{
    switch (op) {
    case FA_ADD: return x + y;
    case FA_SUB: return x - y;
    case FA_MUL: return x * y;
    case FA_DIV: return x / y;
    case FA_FMA: return fma(x, y, z);
    default: return sqrt(x);
    }
}
__attribute__((noinline)) static float ar32(int op, float a, float b, float c)
{
    volatile float x = a, y = b, z = c;
    volatile float o = op32(op, x, y, z);
    return o;
}
__attribute__((noinline)) static double ar64(int op, double a, double b, double c)
{
    volatile double x = a, y = b, z = c;
    volatile double o = op64(op, x, y, z);
    return o;
}

#define F32_QNAN 0x7fffffffu                 /* canonical f32 NaN: "unspecified NaN" (§9.7.3) */
#define F64_RCP_QNAN 0x7fffffff00000000ull   /* §9.7.3.14 rcp.approx.ftz.f64 canonical NaN */
static inline int isnan32(uint64_t v)
{
    return (v & 0x7f800000u) == 0x7f800000u && (v & 0x7fffffu);
}
static inline int isnan64(uint64_t v)
{
    return (v & 0x7ff0000000000000ull) == 0x7ff0000000000000ull && (v & 0xfffffffffffffull);
}
static inline float in32(const isa_insn *in, uint64_t v)
{
    return f32of((in->mods & ISA_M_FTZ) ? ftz32(v) : v);
}
/* Clamp to [0.0, 1.0], NaN -> +0.0 (.sat, §9.7.3.3). */
static inline double sat01(double r) { return r != r || r <= 0 ? 0.0 : r > 1 ? 1.0 : r; }
/* f32 result: NaN canonical, then .ftz flush, then .sat. */
static uint64_t out32(const isa_insn *in, float r)
{
    if (in->mods & ISA_M_SAT) r = (float)sat01(r);
    if (r != r) return F32_QNAN;
    uint64_t u = bf32(r);
    return (in->mods & ISA_M_FTZ) ? ftz32(u) : u;
}
static void fop(const isa_insn *in, uint64_t *d, const uint64_t *s, int op, int nsrc)
{
    if (in->rnd < ISA_RND_RZ || in->rnd > ISA_RND_RP) {   /* .rn or none: the default mode */
        if (in->type == ISA_T_F32)
            d[0] = out32(in, op32(op, in32(in, s[0]), nsrc > 1 ? in32(in, s[1]) : 0,
                                  nsrc > 2 ? in32(in, s[2]) : 0));
        else
            d[0] =
                bf64(op64(op, f64of(s[0]), nsrc > 1 ? f64of(s[1]) : 0, nsrc > 2 ? f64of(s[2]) : 0));
        return;
    }
    int old = rnd_enter(in->rnd);
    if (in->type == ISA_T_F32)
        d[0] = out32(in, ar32(op, in32(in, s[0]), nsrc > 1 ? in32(in, s[1]) : 0,
                              nsrc > 2 ? in32(in, s[2]) : 0));
    else
        d[0] = bf64(ar64(op, f64of(s[0]), nsrc > 1 ? f64of(s[1]) : 0, nsrc > 2 ? f64of(s[2]) : 0));
    rnd_leave(old);
}
/* §9.7.3.3-7 add sub mul fma mad: IEEE with .rn/.rz/.rm/.rp; f32 .ftz .sat. */
static void ev_fadd(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    fop(in, d, s, FA_ADD, 2);
}
static void ev_fsub(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    fop(in, d, s, FA_SUB, 2);
}
static void ev_fmul(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    fop(in, d, s, FA_MUL, 2);
}
static void ev_ffma(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    fop(in, d, s, FA_FMA, 3);
}
/* §9.7.3.8 div.rnd, §9.7.3.13 rcp.rnd, §9.7.3.15 sqrt.rnd: IEEE. */
static void ev_fdiv(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    fop(in, d, s, FA_DIV, 2);
}
static void ev_fsqrt(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    fop(in, d, s, FA_SQRT, 1);
}
static void ev_frcp(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    uint64_t t[2] = {in->type == ISA_T_F32 ? 0x3f800000u : 0x3ff0000000000000ull, s[0]};
    fop(in, d, t, FA_DIV, 2);
}
/* §9.7.3.8 div.approx.f32 = a * (1/b) (max 2 ulp) and div.full.f32 (max 2 ulp; we return the
 * correctly rounded quotient): subnormal inputs and results flushed; x/0 = inf with the sign of a;
 * for 2^126 < |b| < 2^128 the approx result is 0, or NaN when a is infinite. */
static void ev_fdiv_approx(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    uint64_t ua = ftz32(s[0]), ub = ftz32(s[1]);
    float a = f32of(ua), b = f32of(ub), r;
    if (b == 0 && a == a && a != 0) r = (ua & 0x80000000u) ? -INFINITY : INFINITY;
    else if (!(in->mods & ISA_M_FULL) && fabsf(b) > 0x1p126f && fabsf(b) < INFINITY)
        r = isinf(a) ? NAN : ((ua ^ ub) & 0x80000000u) ? -0.0f : 0.0f;
    else r = (in->mods & ISA_M_FULL) ? a / b : a * (1.0f / b);
    d[0] = r != r ? F32_QNAN : ftz32(bf32(r));
}
/* §9.7.3.13 rcp.approx.f32 (max abs error 2^-23 on [1,2): correctly rounded here); subnormal
 * inputs act as zero (table: +-subnormal -> +-Inf). */
static void ev_frcp_approx(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    float r = 1.0f / f32of(ftz32(s[0]));
    d[0] = out32(in, r);
}
/* Upper-word f64 approximations (§9.7.3.14 rcp.approx.ftz.f64, §9.7.3.17 rsqrt.approx.ftz.f64):
 * use a[63:32] only, flush subnormals, NaN -> 0x7fffffff00000000, zero d[31:0]. */
static uint64_t hiword64(uint64_t a, int rsq)
{
    uint64_t h = a & 0xffffffff00000000ull;
    if (isnan64(h)) return F64_RCP_QNAN;
    if (!(h & 0x7ff0000000000000ull)) h &= 0x8000000000000000ull;
    double x = f64of(h), r = rsq ? 1.0 / sqrt(x) : 1.0 / x;
    uint64_t u = bf64(r);
    if (r != r) return F64_RCP_QNAN;
    if (!(u & 0x7ff0000000000000ull)) u &= 0x8000000000000000ull;
    return u & 0xffffffff00000000ull;
}
static void ev_frcp_approx64(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    d[0] = hiword64(s[0], 0);
}
static void ev_frsqrt_approx64(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    d[0] = hiword64(s[0], 1);
}
/* §9.7.3.15 sqrt.approx.f32: subnormal inputs act as zero (table). */
static void ev_fsqrt_approx(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    d[0] = out32(in, sqrtf(f32of(ftz32(s[0]))));
}
/* §9.7.3.16 rsqrt.approx (f32 max abs error 2^-22.4 on [1,4): we round 1/sqrt computed in
 * double); f32 subnormal inputs act as zero (table: -subnormal -> -Inf). */
static void ev_frsqrt_approx(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    if (in->type == ISA_T_F64) { d[0] = bf64(1.0 / sqrt(f64of(s[0]))); return; }
    d[0] = out32(in, (float)(1.0 / sqrt((double)f32of(ftz32(s[0])))));
}
/* §9.7.3.18-22 sin cos lg2 ex2 tanh .approx.f32: computed in double and rounded (well within the
 * documented bounds); sin/cos/lg2/ex2 treat subnormal inputs as zero (tables), tanh passes them. */
static float fn_sin(double x) { return (float)sin(x); }
static float fn_cos(double x) { return (float)cos(x); }
static float fn_lg2(double x) { return (float)log2(x); }
static float fn_ex2(double x) { return (float)exp2(x); }
static void ev_fsin(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    d[0] = out32(in, fn_sin(f32of(ftz32(s[0]))));
}
static void ev_fcos(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    d[0] = out32(in, fn_cos(f32of(ftz32(s[0]))));
}
static void ev_flg2(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    d[0] = out32(in, fn_lg2(f32of(ftz32(s[0]))));
}
static void ev_fex2(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    d[0] = out32(in, fn_ex2(f32of(ftz32(s[0]))));
}
static void ev_ftanh(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    d[0] = out32(in, (float)tanh((double)f32of(s[0])));
}
/* §9.7.3.9 abs, §9.7.3.10 neg: sign-bit operations (f32 .ftz flushes first). */
static uint64_t fin(const isa_insn *in, uint64_t v)
{
    return in->type == ISA_T_F32 ? ((in->mods & ISA_M_FTZ) ? ftz32(v) : v & 0xffffffffu) : v;
}
static uint64_t fsign(const isa_insn *in)
{
    return in->type == ISA_T_F32 ? 0x80000000u : 0x8000000000000000ull;
}
static void ev_fabs(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    d[0] = fin(in, s[0]) & ~fsign(in) & wmask(BITS(in));
}
static void ev_fneg(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    d[0] = fin(in, s[0]) ^ fsign(in);
}
/* §9.7.3.2 copysign d, a, b: b with the sign of a. */
static void ev_copysign(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    uint64_t m = fsign(in);
    d[0] = ((s[1] & ~m) | (s[0] & m)) & wmask(BITS(in));
}
/* §9.7.3.11 min / §9.7.3.12 max: a NaN operand is ignored (both NaN, or .NaN: canonical NaN);
 * +0.0 > -0.0; .xorsign.abs: compare magnitudes, sign = sign(a) ^ sign(b) unless NaN. */
static void fminmax(const isa_insn *in, uint64_t *d, const uint64_t *s, int want_max)
{
    uint64_t a = fin(in, s[0]), b = fin(in, s[1]), sg = fsign(in), xs = (a ^ b) & sg;
    int f32 = in->type == ISA_T_F32;
    if (in->mods & ISA_M_XORSIGN) a &= ~sg, b &= ~sg;
    int na = f32 ? isnan32(a) : isnan64(a), nb = f32 ? isnan32(b) : isnan64(b);
    uint64_t qnan = f32 ? F32_QNAN : 0x7fffffffffffffffull, r;
    if ((na && nb) || ((in->mods & ISA_M_NAN) && (na || nb))) { d[0] = qnan; return; }
    if (na) r = b;
    else if (nb) r = a;
    else {
        double x = fval(in->type, a, 0), y = fval(in->type, b, 0);
        int a_less = x < y || (x == y && (a & sg) && !(b & sg)); /* -0 < +0 */
        r = (a_less != want_max) ? a : b;
    }
    if (in->mods & ISA_M_XORSIGN) r = (r & ~sg) | xs;
    d[0] = (f32 && (in->mods & ISA_M_FTZ)) ? ftz32(r) : r;
}
static void ev_fmin(const isa_insn *in, uint64_t *d, const uint64_t *s) { fminmax(in, d, s, 0); }
static void ev_fmax(const isa_insn *in, uint64_t *d, const uint64_t *s) { fminmax(in, d, s, 1); }
/* §9.7.3.1 testp.op: finite, infinite, number, notanumber, normal (zero counts), subnormal. */
static void ev_testp(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    int f32 = in->type == ISA_T_F32;
    uint64_t e = f32 ? (s[0] >> 23) & 0xff : (s[0] >> 52) & 0x7ff, emax = f32 ? 0xff : 0x7ff;
    uint64_t m = f32 ? s[0] & 0x7fffff : s[0] & 0xfffffffffffffull;
    int inf = e == emax && !m, nan = e == emax && m, sub = e == 0 && m;
    int r = 0;
    switch (in->aux) {
    case ISA_TESTP_FINITE: r = e != emax; break;
    case ISA_TESTP_INFINITE: r = inf; break;
    case ISA_TESTP_NUMBER: r = !nan; break;
    case ISA_TESTP_NOTANUMBER: r = nan; break;
    case ISA_TESTP_NORMAL: r = e != emax && !sub; break;
    case ISA_TESTP_SUBNORMAL: r = sub; break;
    }
    d[0] = (uint64_t)r;
}

/* ---------------------------------------------------------------- cvt with floats §9.7.8.20 */

/* Round to an integral value by .rni/.rzi/.rmi/.rpi. */
static double irnd(int rnd, double x)
{
    switch (rnd) {
    case ISA_RND_RZI: return trunc(x);
    case ISA_RND_RMI: return floor(x);
    case ISA_RND_RPI: return ceil(x);
    default: return roundeven(x);
    }
}
/* float -> integer: NaN -> 0, rounded, then clamped to the destination range (saturating by
 * default, .sat redundant). */
static void ev_cvt_fi(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    double x = irnd(in->rnd, fval(in->type2, s[0], (in->mods & ISA_M_FTZ) != 0));
    unsigned n = BITS(in);
    double lim = ldexp(1.0, (int)n - (SGN(in) ? 1 : 0));          /* 2^(n-1) or 2^n */
    uint64_t r;
    if (x != x) r = 0;
    else if (SGN(in)) r = x >= lim ? wmask(n - 1) : x < -lim ? ~wmask(n - 1) : (uint64_t)(int64_t)x;
    else r = x >= lim ? wmask(n) : x <= 0 ? 0 : (uint64_t)x;
    d[0] = r & wmask(n);
}
/* integer -> float under .rn/.rz/.rm/.rp (i2f: switched mode, see ar32); .sat clamps to [0, 1]. */
static inline uint64_t i2f_rn(isa_type dt, uint64_t x, int sgn)
{
    if (dt == ISA_T_F32) return bf32(sgn ? (float)(int64_t)x : (float)x);
    return bf64(sgn ? (double)(int64_t)x : (double)x);
}
__attribute__((noinline)) static uint64_t i2f(isa_type dt, uint64_t v, int sgn)
{
    volatile uint64_t x = v;
    if (dt == ISA_T_F32) {
        volatile float r = sgn ? (float)(int64_t)x : (float)x;
        return bf32(r);
    }
    volatile double r = sgn ? (double)(int64_t)x : (double)x;
    return bf64(r);
}
static uint64_t fsat(const isa_insn *in, uint64_t u)
{
    if (!(in->mods & ISA_M_SAT)) return u;
    double r = sat01(fval(in->type, u, 0));
    return in->type == ISA_T_F32 ? bf32((float)r) : bf64(r);
}
static void ev_cvt_if(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    if (in->rnd < ISA_RND_RZ || in->rnd > ISA_RND_RP) {   /* .rn or none: the default mode */
        d[0] = fsat(in, i2f_rn(in->type, ext(in->type2, s[0]), tinfo[in->type2].sgn));
        return;
    }
    int old = rnd_enter(in->rnd);
    uint64_t u = i2f(in->type, ext(in->type2, s[0]), tinfo[in->type2].sgn);
    rnd_leave(old);
    d[0] = fsat(in, u);
}
/* float -> float: f32 -> f64 exact; f64 -> f32 rounded by .rn/.rz/.rm/.rp; same size with an
 * integer rounding rounds to an integral value; NaN f32 results are canonical. */
__attribute__((noinline)) static uint64_t d2f(double v)
{
    volatile double x = v;
    volatile float r = (float)x;
    return bf32(r);
}
static void ev_cvt_ff(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    int ftz = (in->mods & ISA_M_FTZ) != 0;
    double x = fval(in->type2, s[0], ftz);
    if (in->rnd >= ISA_RND_RNI && in->rnd <= ISA_RND_RPI) x = irnd(in->rnd, x);
    uint64_t u;
    if (in->type == ISA_T_F64) u = bf64(x);
    else {
        int old = rnd_enter(in->rnd);
        u = d2f(x);
        rnd_leave(old);
        if (x != x) u = F32_QNAN;
        if (ftz) u = ftz32(u);
    }
    if (in->type == ISA_T_F64 && in->type2 == ISA_T_F64 && (x != x)) u = s[0]; /* keep payload */
    d[0] = fsat(in, u);
}

/* ================================================================ half precision §9.7.4, §9.7.6,
 * and the conversions of §9.7.8.20 involving .f16/.bf16/.tf32/.e4m3/.e5m2 (software, bit-exact;
 * no host _Float16).  Each value is unpacked to sign * m * 2^e exactly, the operation is done
 * exactly (128-bit integers, a sticky bit far below any rounding position), and the result is
 * rounded ONCE into the destination format by pack() with IEEE overflow/subnormal rules. */

/* Binary formats: eb exponent bits, mb fraction bits, pad = zero bits below the fraction (tf32
 * is kept in an f32 container), noinf (e4m3: no infinities, NaN = S.1111.111, §5.2.3), qnan =
 * the canonical NaN we return ("unspecified NaN", §9.7.4; .relu "canonical NaN", §9.7.8.20). */
typedef struct { uint8_t eb, mb, pad, noinf; uint64_t qnan; } hfmt;
enum { HF_F16, HF_BF16, HF_TF32, HF_E4M3, HF_E5M2, HF_F32, HF_F64 };
static const hfmt hfmts[] = {
    [HF_F16] = {5, 10, 0, 0, 0x7fff},          [HF_BF16] = {8, 7, 0, 0, 0x7fff},
    [HF_TF32] = {8, 10, 13, 0, 0x7fffffff},    [HF_E4M3] = {4, 3, 0, 1, 0x7f},
    [HF_E5M2] = {5, 2, 0, 0, 0x7f},            [HF_F32] = {8, 23, 0, 0, 0x7fffffff},
    [HF_F64] = {11, 52, 0, 0, 0x7fffffffffffffffull},
};
static int hf_of(isa_type t)
{
    switch (t) {
    case ISA_T_F16: case ISA_T_F16X2: return HF_F16;
    case ISA_T_BF16: case ISA_T_BF16X2: return HF_BF16;
    case ISA_T_TF32: return HF_TF32;
    case ISA_T_E4M3X2: return HF_E4M3;
    case ISA_T_E5M2X2: return HF_E5M2;
    case ISA_T_F32: return HF_F32;
    default: return HF_F64;
    }
}
static inline int is_x2(isa_type t) { return t == ISA_T_F16X2 || t == ISA_T_BF16X2; }
static inline int is_half(isa_type t)
{
    return t == ISA_T_F16 || t == ISA_T_BF16 || t == ISA_T_F16X2 || t == ISA_T_BF16X2 ||
           t == ISA_T_TF32 || t == ISA_T_E4M3X2 || t == ISA_T_E5M2X2;
}
typedef unsigned __int128 u128;
/* An exact value (-1)^neg * m * 2^e, m < 2^122 by construction. */
enum { XZ, XF, XI, XN }; /* zero, finite nonzero, infinity, NaN */
typedef struct { int cls, neg, e; u128 m; } xval;
static int msb128(u128 v)
{
    uint64_t hi = (uint64_t)(v >> 64);
    return hi ? 127 - __builtin_clzll(hi) : 63 - __builtin_clzll((uint64_t)v);
}
static inline int hbias(const hfmt *F) { return (1 << (F->eb - 1)) - 1; }
static inline unsigned hwidth(const hfmt *F) { return 1u + F->eb + F->mb; }
static xval unpack(int f, uint64_t bits)
{
    const hfmt *F = &hfmts[f];
    xval x = {XF, 0, 0, 0};
    bits = (bits >> F->pad) & wmask(hwidth(F));
    x.neg = (int)(bits >> (hwidth(F) - 1) & 1);
    uint64_t ex = bits >> F->mb & wmask(F->eb), fr = bits & wmask(F->mb);
    if (ex == wmask(F->eb) && (!F->noinf || fr == wmask(F->mb))) {
        x.cls = (fr || F->noinf) ? XN : XI;
        return x;
    }
    if (ex == 0 && fr == 0) { x.cls = XZ; return x; }
    x.m = ex ? fr | 1ull << F->mb : fr;
    x.e = (ex ? (int)ex : 1) - hbias(F) - F->mb;
    return x;
}
/* Rounding increment: pos 0 exact, 1 below half, 2 exactly half, 3 above half of the lsb. */
static int rinc(int rnd, int neg, u128 r, int pos)
{
    if (!pos) return 0;
    switch (rnd) {
    case ISA_RND_RZ: case ISA_RND_RZI: return 0;
    case ISA_RND_RM: case ISA_RND_RMI: return neg;
    case ISA_RND_RP: case ISA_RND_RPI: return !neg;
    case ISA_RND_RNA: return pos >= 2;
    default: return pos == 3 || (pos == 2 && (r & 1));   /* nearest, ties to even */
    }
}
/* m / 2^sh rounded (sh > 0). */
static u128 rshift_round(u128 m, long sh, int rnd, int neg)
{
    u128 r;
    int pos;
    if (sh >= 126) { r = 0; pos = m ? 1 : 0; }       /* m < 2^122: below half */
    else {
        u128 rem = m & (((u128)1 << sh) - 1), half = (u128)1 << (sh - 1);
        r = m >> sh;
        pos = !rem ? 0 : rem < half ? 1 : rem == half ? 2 : 3;
    }
    return r + (u128)rinc(rnd, neg, r, pos);
}
static uint64_t hmaxfin(const hfmt *F)
{
    return F->noinf ? (wmask(F->eb) << F->mb | (wmask(F->mb) - 1))
                    : ((wmask(F->eb) - 1) << F->mb | wmask(F->mb));
}
/* Round x once into format f (IEEE: subnormals, overflow to inf or to max finite by direction).
 * satf (.satfinite): overflow and infinities give the sign-preserved MAX_NORM. */
static uint64_t pack(int f, xval x, int rnd, int satf)
{
    const hfmt *F = &hfmts[f];
    uint64_t sign = (uint64_t)x.neg << (hwidth(F) - 1), body = 0;
    int bias = hbias(F), emin = 1 - bias;
    if (x.cls == XN) return F->qnan;
    if (x.cls == XZ || (x.cls == XF && x.m == 0)) return sign << F->pad;
    int over = x.cls == XI;
    if (!over) {
        int E = msb128(x.m) + x.e;
        int q = (E < emin ? emin : E) - F->mb;      /* exponent of the result's lsb */
        long sh = (long)q - x.e;
        u128 r = sh <= 0 ? x.m << -sh : rshift_round(x.m, sh, rnd, x.neg);
        if (r >> (F->mb + 1)) { r >>= 1; q++; }     /* rounded up to the next binade */
        uint64_t be = (r >> F->mb) ? (uint64_t)(q + F->mb + bias) : 0,
                 fr = (uint64_t)r & wmask(F->mb);
        if ((long)q + F->mb + bias > (long)wmask(F->eb) - (F->noinf ? 0 : 1) ||
            (F->noinf && be == wmask(F->eb) && fr == wmask(F->mb)))
            over = 2;
        else body = be << F->mb | fr;
    }
    if (over) {
        int to_inf = over == 1                                                          ? 1
                     : (rnd == ISA_RND_RN || rnd == ISA_RND_RNA || rnd == ISA_RND_NONE) ? 1
                     : rnd == ISA_RND_RM                                                ? x.neg
                     : rnd == ISA_RND_RP                                                ? !x.neg
                                                                                        : 0;
        if (satf || !to_inf) body = hmaxfin(F);
        else if (F->noinf) return F->qnan;
        else body = wmask(F->eb) << F->mb;
    }
    return (sign | body) << F->pad;
}
static xval xof_double(double v) { return unpack(HF_F64, bf64(v)); }
static double xdouble(xval x)
{
    double r = x.cls == XN   ? NAN
               : x.cls == XI ? INFINITY
               : x.cls == XZ ? 0.0
                             : ldexp((double)x.m, x.e);
    return x.neg ? -r : r;
}
/* Flush a subnormal half (16-bit, pad 0) to sign-preserving zero (.ftz). */
static uint64_t hflush(int f, uint64_t v)
{
    const hfmt *F = &hfmts[f];
    v &= wmask(hwidth(F));
    return (v >> F->mb & wmask(F->eb)) ? v : v & (1ull << (hwidth(F) - 1));
}
static double hdouble(isa_type t, uint64_t v, int ftz)
{
    int f = hf_of(t);
    return xdouble(unpack(f, ftz ? hflush(f, v) : v));
}
static inline int hnan(int f, uint64_t v) { return unpack(f, v).cls == XN; }

/* Exact sum; only the sign of an exact zero depends on rnd (IEEE: -0 only under .rm). */
static xval xadd(xval a, xval b, int rnd)
{
    if (a.cls == XZ && b.cls == XZ) {
        xval z = {XZ, rnd == ISA_RND_RM ? (a.neg | b.neg) : (a.neg & b.neg), 0, 0};
        return z;
    }
    if (a.cls == XZ) return b;
    if (b.cls == XZ) return a;
    int ta = msb128(a.m) + a.e, tb = msb128(b.m) + b.e;
    if (ta < tb) { xval t = a; a = b; b = t; int u = ta; ta = tb; tb = u; }
    int L = ta - 120;                                 /* lsb exponent of the fixed-point sum */
    u128 ma = a.m << (a.e - L), mb;
    long d = (long)b.e - L;
    if (d >= 0) mb = b.m << d;
    else if (d <= -122) mb = 1;                       /* sticky */
    else mb = (b.m >> -d) | ((b.m & (((u128)1 << -d) - 1)) != 0);
    xval r = {XF, a.neg, L, 0};
    if (a.neg == b.neg) r.m = ma + mb;
    else if (ma >= mb) r.m = ma - mb;
    else { r.m = mb - ma; r.neg = b.neg; }
    if (r.m == 0) { r.cls = XZ; r.neg = rnd == ISA_RND_RM; }
    return r;
}
/* a*b + c (op 'f'), a*b ('m'), a+b ('a'), a-b ('s'), IEEE specials; exact result (may be XI/XN). */
static xval xarith(int op, xval a, xval b, xval c, int rnd)
{
    xval nan = {XN, 0, 0, 0};
    if (op == 's') { b.neg ^= 1; op = 'a'; }
    if (op == 'a') { c = b; }
    else {
        if (a.cls == XN || b.cls == XN) return nan;
        int neg = a.neg ^ b.neg;
        if ((a.cls == XI && b.cls == XZ) || (a.cls == XZ && b.cls == XI)) return nan;
        if (a.cls == XI || b.cls == XI) a.cls = XI;
        else if (a.cls == XZ || b.cls == XZ) a.cls = XZ, a.m = 0;
        else a.m *= b.m, a.e += b.e;
        a.neg = neg;
        if (op == 'm') return a;
    }
    if (a.cls == XN || c.cls == XN) return nan;
    if (a.cls == XI && c.cls == XI) return a.neg == c.neg ? a : nan;
    if (a.cls == XI) return a;
    if (c.cls == XI) return c;
    return xadd(a, c, rnd);
}
/* Clamp to [0.0, 1.0], NaN -> +0.0 (.sat) on the bits of format f. */
static uint64_t hsat(int f, uint64_t u)
{
    const hfmt *F = &hfmts[f];
    uint64_t one = (uint64_t)hbias(F) << F->mb << F->pad;
    if (unpack(f, u).cls == XN || (u >> (hwidth(F) - 1 + F->pad) & 1)) return 0;
    return u > one ? one : u;
}
/* Result post-processing of half arithmetic: .relu (negative -> +0, NaN stays canonical), .sat,
 * .ftz (subnormal results to sign-preserving zero). */
static uint64_t hpost(const isa_insn *in, int f, uint64_t u)
{
    if ((in->mods & ISA_M_RELU) && !hnan(f, u) && (u >> 15 & 1)) u = 0;
    if (in->mods & ISA_M_SAT) u = hsat(f, u);
    if (in->mods & ISA_M_FTZ) u = hflush(f, u);
    return u;
}
static inline uint64_t hin(const isa_insn *in, int f, uint64_t v)
{
    v &= 0xffff;
    return (in->mods & ISA_M_FTZ) ? hflush(f, v) : v;
}
/* One lane of a half instruction: v[] are the 16-bit lanes of the sources. */
typedef uint64_t (*hlane_fn)(const isa_insn *in, int f, const uint64_t *v);
static void hsimd(const isa_insn *in, uint64_t *d, const uint64_t *s, int nsrc, hlane_fn fn)
{
    int f = hf_of(in->type), n = is_x2(in->type) ? 2 : 1;
    uint64_t r = 0;
    for (int i = 0; i < n; i++) {
        uint64_t v[3] = {0, 0, 0};
        for (int k = 0; k < nsrc; k++) v[k] = (s[k] >> (16 * i)) & 0xffff;
        r |= (fn(in, f, v) & 0xffff) << (16 * i);
    }
    d[0] = r;
}
static uint64_t harith(const isa_insn *in, int f, const uint64_t *v, int op)
{
    xval a = unpack(f, hin(in, f, v[0])), b = unpack(f, hin(in, f, v[1])),
         c = unpack(f, hin(in, f, v[2]));
    return hpost(in, f, pack(f, xarith(op, a, b, c, ISA_RND_RN), ISA_RND_RN, 0));
}
/* §9.7.4.1-4 add sub mul fma: one rounding (.rn), .ftz on inputs and results, .sat, .relu. */
static uint64_t hl_add(const isa_insn *in, int f, const uint64_t *v)
{
    return harith(in, f, v, 'a');
}
static uint64_t hl_sub(const isa_insn *in, int f, const uint64_t *v)
{
    return harith(in, f, v, 's');
}
static uint64_t hl_mul(const isa_insn *in, int f, const uint64_t *v)
{
    return harith(in, f, v, 'm');
}
static uint64_t hl_fma(const isa_insn *in, int f, const uint64_t *v)
{
    return harith(in, f, v, 'f');
}
/* §9.7.4.5 neg, §9.7.4.6 abs: sign-bit operations after the .ftz flush ("NaN inputs yield an
 * unspecified NaN": we keep the payload and change only the sign, as IEEE does). */
static uint64_t hl_neg(const isa_insn *in, int f, const uint64_t *v)
{
    return hin(in, f, v[0]) ^ 0x8000;
}
static uint64_t hl_abs(const isa_insn *in, int f, const uint64_t *v)
{
    return hin(in, f, v[0]) & 0x7fff;
}
/* §9.7.4.7 min / §9.7.4.8 max: the rules of §9.7.3.11 per lane (the max pseudocode's
 * "!isNaN(fA[i])" is read as "!isNaN(d[i])" like min's). */
static uint64_t hminmax(const isa_insn *in, int f, const uint64_t *v, int want_max)
{
    uint64_t a = hin(in, f, v[0]), b = hin(in, f, v[1]), xs = (a ^ b) & 0x8000, r;
    if (in->mods & ISA_M_XORSIGN) a &= 0x7fff, b &= 0x7fff;
    int na = hnan(f, a), nb = hnan(f, b);
    if ((na && nb) || ((in->mods & ISA_M_NAN) && (na || nb))) return hfmts[f].qnan;
    if (na) r = b;
    else if (nb) r = a;
    else {
        double x = hdouble(f == HF_F16 ? ISA_T_F16 : ISA_T_BF16, a, 0),
               y = hdouble(f == HF_F16 ? ISA_T_F16 : ISA_T_BF16, b, 0);
        int a_less = x < y || (x == y && (a & 0x8000) && !(b & 0x8000));   /* -0 < +0 */
        r = (a_less != want_max) ? a : b;
    }
    if (in->mods & ISA_M_XORSIGN) r = (r & 0x7fff) | xs;
    return (in->mods & ISA_M_FTZ) ? hflush(f, r) : r;
}
static uint64_t hl_min(const isa_insn *in, int f, const uint64_t *v)
{
    return hminmax(in, f, v, 0);
}
static uint64_t hl_max(const isa_insn *in, int f, const uint64_t *v)
{
    return hminmax(in, f, v, 1);
}
/* §9.7.4.9 tanh.approx, §9.7.4.10 ex2.approx: computed in double, rounded once to nearest even
 * (within the documented 2^-10.987 / 2^-8 absolute, 2^-9.9 / 2^-7 relative bounds); tanh keeps
 * subnormals; ex2.approx.ftz.bf16 flushes subnormal inputs and results. */
static uint64_t hl_tanh(const isa_insn *in, int f, const uint64_t *v)
{
    (void)in;
    return pack(f, xof_double(tanh(xdouble(unpack(f, v[0])))), ISA_RND_RN, 0);
}
static uint64_t hl_ex2(const isa_insn *in, int f, const uint64_t *v)
{
    uint64_t u = pack(f, xof_double(exp2(xdouble(unpack(f, hin(in, f, v[0]))))), ISA_RND_RN, 0);
    return (in->mods & ISA_M_FTZ) ? hflush(f, u) : u;
}
static void ev_hadd(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    hsimd(in, d, s, 2, hl_add);
}
static void ev_hsub(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    hsimd(in, d, s, 2, hl_sub);
}
static void ev_hmul(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    hsimd(in, d, s, 2, hl_mul);
}
static void ev_hfma(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    hsimd(in, d, s, 3, hl_fma);
}
static void ev_hneg(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    hsimd(in, d, s, 1, hl_neg);
}
static void ev_habs(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    hsimd(in, d, s, 1, hl_abs);
}
static void ev_hmin(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    hsimd(in, d, s, 2, hl_min);
}
static void ev_hmax(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    hsimd(in, d, s, 2, hl_max);
}
static void ev_htanh(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    hsimd(in, d, s, 1, hl_tanh);
}
static void ev_hex2(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    hsimd(in, d, s, 1, hl_ex2);
}

/* §9.7.6.2 setp on .f16x2/.bf16x2: p|q, a, b{, c}: p = BoolOp(a.lo CmpOp b.lo, c),
 * q = BoolOp(a.hi CmpOp b.hi, c) (NOT the !t rule of the scalar form). */
static void ev_setp_x2(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    isa_type lt = in->type2 == ISA_T_F16X2 ? ISA_T_F16 : ISA_T_BF16;
    uint64_t c = in->boolop ? s[2] : 0;
    for (int i = 0; i < 2; i++) {
        uint64_t a = (s[0] >> (16 * i)) & 0xffff, b = (s[1] >> (16 * i)) & 0xffff;
        d[i] = boolop(in->boolop, (cmptab[in->cmp].outcomes & outcome(in, lt, a, b)) != 0, c);
    }
}
/* §9.7.6.1 set.dtype.{f16x2,bf16x2}: per half 1.0 (dtype .f16x2/.bf16x2) or 0xffff (.u32/.s32)
 * (the pseudocode's "stype == .bf16x2" is read as "dtype == .bf16x2", as the text says). */
static void ev_set_x2(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    isa_type lt = in->type2 == ISA_T_F16X2 ? ISA_T_F16 : ISA_T_BF16;
    uint64_t c = in->boolop ? s[2] : 0, one = is_x2(in->type) ? set_true(in->type) : 0xffff, r = 0;
    for (int i = 0; i < 2; i++) {
        uint64_t a = (s[0] >> (16 * i)) & 0xffff, b = (s[1] >> (16 * i)) & 0xffff;
        if (boolop(in->boolop, (cmptab[in->cmp].outcomes & outcome(in, lt, a, b)) != 0, c))
            r |= one << (16 * i);
    }
    d[0] = r;
}

/* ---- cvt with half/alternate formats (§9.7.8.20) */
static xval xof_int(isa_type t, uint64_t v)
{
    v = ext(t, v);
    xval x = {XF, tinfo[t].sgn && slt(v, 0), 0, 0};
    x.m = x.neg ? 0 - v : v;
    if (!x.m) x.cls = XZ;
    return x;
}
/* Round a finite value to an integral value (.rni/.rzi/.rmi/.rpi); the sign of zero is kept. */
static xval xround_int(xval x, int rnd)
{
    if (x.cls != XF || x.e >= 0) return x;
    x.m = rshift_round(x.m, -(long)x.e, rnd, x.neg);
    x.e = 0;
    if (!x.m) x.cls = XZ;
    return x;
}
static int irnd_of(int rnd) { return rnd >= ISA_RND_RNI && rnd <= ISA_RND_RPI; }
/* Round x into format fd with the instruction's rounding and .relu/.satfinite/.sat/.ftz:
 * .relu: negative (and -0) -> +0, NaN -> canonical NaN; .satfinite: NaN -> NaN, |x| > MAX_NORM
 * (incl. infinities) -> sign-preserved MAX_NORM; .sat: [0.0, 1.0] with NaN -> +0; .ftz only
 * touches .f32 results. */
static uint64_t cvt_out(const isa_insn *in, int fd, xval x)
{
    int rnd = irnd_of(in->rnd) ? ISA_RND_RN : in->rnd;   /* already integral */
    if ((in->mods & ISA_M_RELU) && x.cls != XN && x.neg) x.cls = XZ, x.neg = 0;
    uint64_t u = pack(fd, x, rnd, (in->mods & ISA_M_SATFINITE) != 0);
    if (in->mods & ISA_M_SAT) u = hsat(fd, u);
    if ((in->mods & ISA_M_FTZ) && fd == HF_F32) u = ftz32(u);
    return u;
}
/* Source lane as an exact value (.ftz flushes an .f32 source). */
static xval cvt_in(const isa_insn *in, isa_type t, uint64_t v)
{
    if (!isa_type_is_float(t)) return xof_int(t, v);
    if (t == ISA_T_F32 && (in->mods & ISA_M_FTZ)) v = ftz32(v);
    xval x = unpack(hf_of(t), v);
    return irnd_of(in->rnd) ? xround_int(x, in->rnd) : x;
}
/* Scalar: .f16/.bf16/.tf32 <- int/f16/bf16/f32/f64, and f32/f64 <- f16/bf16. */
static void ev_cvt_h(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    d[0] = cvt_out(in, hf_of(in->type), cvt_in(in, in->type2, s[0]));
}
/* cvt.frnd2.{f16x2,bf16x2}.f32 d, a, b: d[31:16] = cvt(a), d[15:0] = cvt(b). */
static void ev_cvt_x2(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    int f = hf_of(in->type);
    d[0] = cvt_out(in, f, cvt_in(in, ISA_T_F32, s[0])) << 16 |
           cvt_out(in, f, cvt_in(in, ISA_T_F32, s[1]));
}
/* cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2}.f32 d, a, b: d[15:8] = cvt(a), d[7:0] = cvt(b). */
static void ev_cvt_f8_f32(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    int f = hf_of(in->type);
    d[0] = cvt_out(in, f, cvt_in(in, ISA_T_F32, s[0])) << 8 |
           cvt_out(in, f, cvt_in(in, ISA_T_F32, s[1]));
}
/* cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2}.f16x2 d, a: d[15:8] = cvt(a[31:16]), d[7:0] =
 * cvt(a[15:0]). */
static void ev_cvt_f8_h(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    int f = hf_of(in->type);
    d[0] = cvt_out(in, f, unpack(HF_F16, s[0] >> 16)) << 8 | cvt_out(in, f, unpack(HF_F16, s[0]));
}
/* cvt.rn{.relu}.f16x2.{e4m3x2,e5m2x2} d, a: d[31:16] = cvt(a[15:8]), d[15:0] = cvt(a[7:0]) (exact).
 */
static void ev_cvt_h_f8(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    int f = hf_of(in->type2);
    d[0] = cvt_out(in, HF_F16, unpack(f, s[0] >> 8)) << 16 | cvt_out(in, HF_F16, unpack(f, s[0]));
}

/* §9.7.8.21 cvt.pack.sat.convertType.s32{.b32} d, a, b{, c}: a and b clamped to convertType
 * (aux = width | 0x100 when signed); b in the low bits, a above; with c, the remaining high bits
 * of d are c's low bits. */
static void ev_cvt_pack(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    unsigned n = (unsigned)in->aux & 0xff;
    int sg = (in->aux & 0x100) != 0;
    int64_t lo = sg ? -((int64_t)1 << (n - 1)) : 0,
            hi = sg ? ((int64_t)1 << (n - 1)) - 1 : ((int64_t)1 << n) - 1;
    uint64_t r = 0;
    for (int i = 0; i < 2; i++) {
        int64_t v = (int32_t)(uint32_t)s[i];
        v = v < lo ? lo : v > hi ? hi : v;
        r |= ((uint64_t)v & wmask(n)) << (i ? 0 : n);
    }
    if (n < 16) r |= s[2] << (2 * n);
    d[0] = r & 0xffffffffu;
}

/* §9.7.8.4 mov pack/unpack (selected by isa_mov_vector, never by isa_decode): elements of
 * width bits/n, element 0 in the low bits. */
static void ev_mov_pack(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    unsigned n = isa_ops[in->op].nsrc, w = BITS(in) / n;
    uint64_t r = 0;
    for (unsigned i = 0; i < n; i++) r |= (s[i] & wmask(w)) << (i * w);
    d[0] = r;
}
static void ev_mov_unpack(const isa_insn *in, uint64_t *d, const uint64_t *s)
{
    unsigned n = isa_ops[in->op].ndst, w = BITS(in) / n;
    for (unsigned i = 0; i < n; i++) d[i] = (s[0] >> (i * w)) & wmask(w);
}

/* Float-specific decode rules (Table 26, §9.7.3; §9.7.8.20). */
static int fp_rules(const isa_insn *x, char *err, size_t n);
static int (*const fp_check)(const isa_insn *, char *, size_t) = fp_rules;

/* atom/red on f32/f64 (§9.7.12.5): add rounds to nearest even; exch, cas (bitwise compare),
 * min, max (NaN rules of §9.7.3.11). */
static int atom_float(isa_atom_op op, isa_type t, uint64_t old, uint64_t b, uint64_t c,
                      uint64_t *newv)
{
    isa_insn in = {0};
    in.type = in.type2 = t;
    uint64_t s[3] = {old, b, 0}, m = wmask(tinfo[t].bits);
    if (t == ISA_T_F16 || t == ISA_T_BF16 || t == ISA_T_F16X2 || t == ISA_T_BF16X2) {
        /* §9.7.12.5 atom.add.noftz.{f16,f16x2,bf16,bf16x2}: round to nearest even, subnormals
           kept (no .ftz); x2: each half separately.  min/max: the vector forms' per-element rule.
         */
        in.rnd = ISA_RND_RN;
        switch (op) {
        case ISA_ATOM_ADD: ev_hadd(&in, newv, s); return 1;
        case ISA_ATOM_MIN: ev_hmin(&in, newv, s); return 1;
        case ISA_ATOM_MAX: ev_hmax(&in, newv, s); return 1;
        default: return -1;
        }
    }
    if (t != ISA_T_F32 && t != ISA_T_F64) return -1;
    switch (op) {
    case ISA_ATOM_ADD: ev_fadd(&in, newv, s); return 1;
    case ISA_ATOM_EXCH: *newv = b & m; return 1;
    case ISA_ATOM_CAS:
        if ((old & m) != (b & m)) { *newv = old & m; return 0; }
        *newv = c & m;
        return 1;
    case ISA_ATOM_MIN: ev_fmin(&in, newv, s); return 1;
    case ISA_ATOM_MAX: ev_fmax(&in, newv, s); return 1;
    default: return -1;
    }
}

/* ================================================================ the opcode table */

/* Decoder flags. */
enum {
    F_CMP = 1u << 0,       /* takes a .CmpOp */
    F_BOOL = 1u << 1,      /* takes a .BoolOp, which adds the source c */
    F_BOOLDST = 1u << 2,   /* the .BoolOp also adds a predicate destination (setp, lop3) */
    F_SATS32 = 1u << 3,    /* integer .sat applies only to .s32 */
    F_PRMT = 1u << 4,      /* takes a prmt mode */
    F_TESTP = 1u << 5,     /* takes a testp property (required) */
    F_FRND = 1u << 6,      /* takes .rn/.rz/.rm/.rp */
    F_IRND = 1u << 7,      /* takes .rni/.rzi/.rmi/.rpi */
    F_TWO = 1u << 8,       /* mnemonic carries two types: .dtype.atype */
    F_CW = 1u << 9,        /* exactly one of .clamp/.wrap required */
    F_RNDREQ32 = 1u << 11, /* f32 form needs a rounding modifier (div, rcp, sqrt) */
    F_RNDREQ =
        1u << 12, /* needs a rounding modifier (cvt with float involvement: checked in cvt) */
    F_NEEDFTZ = 1u << 14, /* .ftz is mandatory (rcp/rsqrt.approx.ftz.f64) */
    F_RNA = 1u << 15,     /* takes .rna (cvt.rna.tf32.f32) */
    F_VEC = 1u << 16,     /* mov pack/unpack: never picked by isa_decode, see isa_mov_vector */
    F_CVTPACK =
        1u << 17,       /* cvt.pack: first type token (.u2 .s2 .u4 .s4 .u8 .s8 .u16 .s16) -> aux */
    F_THREE = 1u << 18, /* mnemonic carries three types: .dtype.atype.btype (video) */
    F_VS = 1u << 19,    /* scalar video (§9.7.16.1): .add/.min/.max or d.dsel add the source c */
    F_V2 = 1u << 20,    /* dual half-word SIMD video (§9.7.16.2.1/2): .hxy selectors, mask */
    F_V4 = 1u << 21,    /* quad byte SIMD video (§9.7.16.2.3/4): .bxyzw selectors, mask */
    F_VNEG = 1u << 22,  /* vmad: operands may be negated (§9.7.16.1.3) */
    F_VSH = 1u << 23,   /* vshl/vshr: .btype is .u32 (§9.7.16.1.2) */
};

#define T_U (TB(ISA_T_U16) | TB(ISA_T_U32) | TB(ISA_T_U64))
#define T_S (TB(ISA_T_S16) | TB(ISA_T_S32) | TB(ISA_T_S64))
#define T_I (T_U | T_S)                                   /* add sub mul div ... */
#define T_B (TB(ISA_T_B16) | TB(ISA_T_B32) | TB(ISA_T_B64))
#define T_3264 (TB(ISA_T_U32) | TB(ISA_T_U64) | TB(ISA_T_S32) | TB(ISA_T_S64))
#define T_B3264 (TB(ISA_T_B32) | TB(ISA_T_B64))
#define T_1632 (TB(ISA_T_U16) | TB(ISA_T_U32) | TB(ISA_T_S16) | TB(ISA_T_S32))
#define T_32 (TB(ISA_T_U32) | TB(ISA_T_S32))
#define T_X2 (TB(ISA_T_U16X2) | TB(ISA_T_S16X2))
#define T_F (TB(ISA_T_F32) | TB(ISA_T_F64))
#define T_NUM (T_B | T_I | T_F)                            /* setp/selp/slct types */
#define T_CVTI (TB(ISA_T_U8) | TB(ISA_T_S8) | T_I)
#define T_MOV (TB(ISA_T_PRED) | T_B | T_I | T_F)
#define T_ALL 0xffffffffu
#define T_F16S (TB(ISA_T_F16) | TB(ISA_T_BF16))                    /* scalar halves */
#define T_F16X (TB(ISA_T_F16X2) | TB(ISA_T_BF16X2))                /* packed halves */
#define T_F16ALL (T_F16S | T_F16X)
#define T_F8X2 (TB(ISA_T_E4M3X2) | TB(ISA_T_E5M2X2))
#define M_HALF (ISA_M_FTZ | ISA_M_SAT)
#define M_F32 (ISA_M_FTZ | ISA_M_SAT)
#define PURE ISA_CLASS_PURE
#define CARRY ISA_CLASS_CARRY

/* ---------------------------------------------------------------- warp-wide evaluation
 * isa_opinfo.eval_warp of every entry is generated here from its one-lane eval: WARP(f, ND)
 * defines f_w, which runs f on each lane of a warp (ND = destinations f may write).  f is
 * static in this file, so the compiler inlines it into the lane loop; with all 32 lanes active
 * the loop has a constant trip count, no mask tests, and loop-invariant reads of the decoded
 * instruction (type, modifiers) are hoisted out of it, so simple integer ops vectorize.
 * Lanes only read and write their own element, hence `ivdep` even when a destination is a
 * source.  Sources past the instruction's count are 32 zeros (loads of unused ones are dead).
 * A partial lane mask takes f##_p, a plain per-lane loop.  WARP_HOT (the common integer,
 * logic, compare, select, mov, f32/f64 and conversion entries) adds `flatten` (everything f
 * calls is inlined too) and, on x86-64 Linux with GCC, a second copy compiled for x86-64-v3
 * (AVX2, FMA, BMI2) that the dynamic linker picks when the CPU has it: a speed choice only,
 * the C is the same (and -ffp-contract stays off, so no FMA is introduced).  Sanitizer builds
 * skip both (compile time); the rest use WARP, where the compiler decides what to inline. */
#if PTX_SANITIZED
#define WARP_ATTR
#elif defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && defined(__linux__)
#define WARP_ATTR __attribute__((flatten, target_clones("default", "arch=x86-64-v3")))
#else
#define WARP_ATTR __attribute__((flatten))
#endif
#define WARP_LANE(f, ND, l)                                                 \
    do {                                                                    \
        uint64_t s_[ISA_WARP_NSRC] = { s0[l], s1[l], s2[l], s3[l], s4[l] }, \
                 d_[ISA_WARP_NDST] = { 0 };                                 \
        f(&li_, d_, s_);                                                    \
        d0[l] = d_[0] & m0;                                                 \
        if ((ND) > 1) d1[l] = d_[1] & m1;                                   \
        if ((ND) > 2) {                                                     \
            d2[l] = d_[2] & m2;                                             \
            d3[l] = d_[3] & m3;                                             \
        }                                                                   \
    } while (0)
/* the lanes of a full warp are independent: GCC's ivdep (clang, which builds the fuzz
 * targets, has no such pragma and vectorizes what it can without it) */
#if defined(__clang__)
#define IVDEP
#else
#define IVDEP _Pragma("GCC ivdep")
#endif
/* the operand arrays as s0..s4, d0..d3 and the write masks m0..m3 (WARP_LANE's names) */
#define WARP_OPERANDS                                                                 \
    const uint64_t *s0 = S[0], *s1 = S[1], *s2 = S[2], *s3 = S[3], *s4 = S[4];        \
    uint64_t *d0 = D[0], *d1 = D[1], *d2 = D[2], *d3 = D[3];                          \
    uint64_t m0 = M[0], m1 = M[1], m2 = M[2], m3 = M[3];                              \
    (void)d1, (void)d2, (void)d3, (void)m1, (void)m2, (void)m3
#define WARP(f, ND) WARP_GEN(f, ND, )
#define WARP_HOT(f, ND) WARP_GEN(f, ND, WARP_ATTR)
#define WARP_GEN(f, ND, ATTR)                                                                    \
    __attribute__((noinline)) static void f##_p(const isa_insn *in, uint64_t *const D[],         \
                                                const uint64_t *const S[], const uint64_t M[],   \
                                                uint32_t lanes)                                  \
    {                                                                                            \
        const isa_insn li_ = *in; /* a local copy: calls (fesetround ...) cannot change it */    \
        WARP_OPERANDS;                                                                           \
        for (uint32_t r_ = lanes; r_; r_ &= r_ - 1) {                                            \
            unsigned l = (unsigned)__builtin_ctz(r_);                                            \
            WARP_LANE(f, ND, l);                                                                 \
        }                                                                                        \
    }                                                                                            \
    WARP_FULL(f, ND, f##_w, ATTR,                                                                \
              const isa_insn li_ = *in) /* a local copy: calls (fesetround ...) cannot change it */
/* the full-warp evaluation `name` of f (a partial mask takes f##_p): INIT declares li_, the decoded
 * instruction; a constant trip count, no mask tests */
#define WARP_FULL(f, ND, name, ATTR, ...)                                                        \
    ATTR __attribute__((aligned(64))) static void name(const isa_insn *in, uint64_t *const D[],  \
                                                       const uint64_t *const S[],                \
                                                       const uint64_t M[], uint32_t lanes)       \
    {                                                                                            \
        if (lanes != 0xffffffffu) {                                                              \
            f##_p(in, D, S, M, lanes);                                                           \
            return;                                                                              \
        }                                                                                        \
        __VA_ARGS__;                                                                             \
        WARP_OPERANDS;                                                                           \
        IVDEP for (unsigned l = 0; l < 32; l++) WARP_LANE(f, ND, l);                             \
    }
_Static_assert(ISA_WARP_NSRC == 5 && ISA_WARP_NDST == 4,
               "WARP_LANE names 5 sources and 4 destinations");
WARP_HOT(ev_add, 1)
WARP_HOT(ev_add16x2, 1)
WARP_HOT(ev_sub, 1)
WARP_HOT(ev_mul_lo, 1)
WARP_HOT(ev_mul_hi, 1)
WARP_HOT(ev_mul_wide, 1)
WARP_HOT(ev_mad_lo, 1)
WARP_HOT(ev_mad_hi, 1)
WARP_HOT(ev_mad_wide, 1)
WARP_HOT(ev_mul24_lo, 1)
WARP_HOT(ev_mul24_hi, 1)
WARP_HOT(ev_mad24_lo, 1)
WARP_HOT(ev_mad24_hi, 1)
WARP_HOT(ev_sad, 1)
WARP(ev_div, 1)
WARP(ev_rem, 1)
WARP_HOT(ev_abs, 1)
WARP_HOT(ev_neg, 1)
WARP_HOT(ev_min, 1)
WARP(ev_min16x2, 1)
WARP_HOT(ev_max, 1)
WARP(ev_max16x2, 1)
WARP_HOT(ev_popc, 1)
WARP_HOT(ev_clz, 1)
WARP_HOT(ev_bfind, 1)
WARP(ev_fns, 1)
WARP_HOT(ev_brev, 1)
WARP_HOT(ev_bfe, 1)
WARP_HOT(ev_bfi, 1)
WARP(ev_szext, 1)
WARP(ev_bmsk, 1)
WARP(ev_dp4a, 1)
WARP(ev_dp2a, 1)
WARP(ev_vadd, 1)
WARP(ev_vsub, 1)
WARP(ev_vabsdiff, 1)
WARP(ev_vmin, 1)
WARP(ev_vmax, 1)
WARP(ev_vshl, 1)
WARP(ev_vshr, 1)
WARP(ev_vset, 1)
WARP(ev_vmad, 1)
WARP(ev_vadd2, 1)
WARP(ev_vsub2, 1)
WARP(ev_vavrg2, 1)
WARP(ev_vabsdiff2, 1)
WARP(ev_vmin2, 1)
WARP(ev_vmax2, 1)
WARP(ev_vset2, 1)
WARP(ev_vadd4, 1)
WARP(ev_vsub4, 1)
WARP(ev_vavrg4, 1)
WARP(ev_vabsdiff4, 1)
WARP(ev_vmin4, 1)
WARP(ev_vmax4, 1)
WARP(ev_vset4, 1)
WARP_HOT(ev_and, 1)
WARP_HOT(ev_or, 1)
WARP_HOT(ev_xor, 1)
WARP_HOT(ev_not, 1)
WARP_HOT(ev_cnot, 1)
WARP_HOT(ev_lop3, 2)
WARP_HOT(ev_shf_l, 1)
WARP_HOT(ev_shf_r, 1)
WARP_HOT(ev_shl, 1)
WARP_HOT(ev_shr, 1)
WARP_HOT(ev_setp, 2)
WARP_HOT(ev_set, 1)
WARP_HOT(ev_selp, 1)
WARP_HOT(ev_slct, 1)
WARP_HOT(ev_mov, 1)
WARP_HOT(ev_prmt, 1)
WARP_HOT(ev_cvt_ii, 1)
WARP(ev_testp, 1)
WARP_HOT(ev_copysign, 1)
WARP_HOT(ev_fadd, 1)
WARP_HOT(ev_fsub, 1)
WARP_HOT(ev_fmul, 1)
WARP_HOT(ev_ffma, 1)
WARP(ev_fdiv_approx, 1)
WARP(ev_fdiv, 1)
WARP(ev_frcp_approx64, 1)
WARP(ev_frcp_approx, 1)
WARP(ev_frcp, 1)
WARP(ev_fsqrt_approx, 1)
WARP(ev_fsqrt, 1)
WARP(ev_frsqrt_approx64, 1)
WARP(ev_frsqrt_approx, 1)
WARP_HOT(ev_fabs, 1)
WARP_HOT(ev_fneg, 1)
WARP_HOT(ev_fmin, 1)
WARP_HOT(ev_fmax, 1)
WARP(ev_fsin, 1)
WARP(ev_fcos, 1)
WARP(ev_flg2, 1)
WARP(ev_fex2, 1)
WARP(ev_ftanh, 1)
WARP_HOT(ev_cvt_fi, 1)
WARP_HOT(ev_cvt_if, 1)
WARP_HOT(ev_cvt_ff, 1)
WARP(ev_hadd, 1)
WARP(ev_hsub, 1)
WARP(ev_hmul, 1)
WARP(ev_hfma, 1)
WARP(ev_hneg, 1)
WARP(ev_habs, 1)
WARP(ev_hmin, 1)
WARP(ev_hmax, 1)
WARP(ev_htanh, 1)
WARP(ev_hex2, 1)
WARP(ev_setp_x2, 2)
WARP(ev_set_x2, 1)
WARP(ev_cvt_h, 1)
WARP(ev_cvt_x2, 1)
WARP(ev_cvt_f8_f32, 1)
WARP(ev_cvt_f8_h, 1)
WARP(ev_cvt_h_f8, 1)
WARP(ev_cvt_pack, 1)
WARP_HOT(ev_mov_pack, 1)
WARP_HOT(ev_mov_unpack, 4)

/* ---------------------------------------------------------------- single decoded forms
 * The hot forms of real kernels get a warp-wide evaluation of their own: WARP_FORM(f, tag, ND,
 * fields) is WARP_HOT's full-warp loop with the decoded instruction a constant (`fields` of an
 * isa_insn initializer; op is the caller's), so the type, modifier and rounding tests of f fold
 * away at compile time.  The same lane function, hence the same semantics; a partial mask takes
 * the generic f##_p.  isa_warp_of() gives one when the decoded instruction is its form exactly.
 * Measured on bench/exec/alu.cu (fma.rn.f32, cvt.rn.f32.u32 in its loop): docs/benchmarks.md. */
#define WARP_FORM(f, tag, ND, ...)                                                             \
    WARP_FULL(f, ND, f##_w_##tag, WARP_ATTR, isa_insn li_ = { __VA_ARGS__ }; li_.op = in->op)
#define T(t) .type = ISA_T_##t, .type2 = ISA_T_##t
#define SETP(X, c, t) X(ev_setp, c##_##t, 2, T(t), .cmp = ISA_CMP_##c)
#define WARP_FORMS(X)                                                                 \
    X(ev_add, s32, 1, T(S32)) X(ev_add, u32, 1, T(U32)) X(ev_add, s64, 1, T(S64))     \
    X(ev_add, u64, 1, T(U64)) X(ev_sub, s32, 1, T(S32)) X(ev_sub, u32, 1, T(U32))     \
    X(ev_shr, u32, 1, T(U32)) X(ev_shr, s32, 1, T(S32)) X(ev_shr, b32, 1, T(B32))     \
    X(ev_shr, u64, 1, T(U64))                                                         \
    X(ev_mul_lo, s32, 1, T(S32), .mods = ISA_M_LO)                                    \
    X(ev_mul_wide, s32, 1, T(S32), .mods = ISA_M_WIDE)                                \
    X(ev_mul_wide, u32, 1, T(U32), .mods = ISA_M_WIDE)                                \
    X(ev_mad_lo, s32, 1, T(S32), .mods = ISA_M_LO)                                    \
    SETP(X, EQ, S32) SETP(X, NE, S32) SETP(X, LT, S32) SETP(X, LE, S32)               \
    SETP(X, GT, S32) SETP(X, GE, S32) SETP(X, EQ, U32) SETP(X, NE, U32)               \
    SETP(X, LT, U32) SETP(X, LE, U32) SETP(X, GT, U32) SETP(X, GE, U32)               \
    X(ev_cvt_ii, u64_u32, 1, .type = ISA_T_U64, .type2 = ISA_T_U32)                   \
    X(ev_cvt_ii, s64_s32, 1, .type = ISA_T_S64, .type2 = ISA_T_S32)                   \
    X(ev_ffma, rn_f32, 1, T(F32), .rnd = ISA_RND_RN) X(ev_fmul, f32, 1, T(F32))        \
    X(ev_fmul, rn_f32, 1, T(F32), .rnd = ISA_RND_RN) X(ev_fadd, f32, 1, T(F32))        \
    X(ev_fadd, rn_f32, 1, T(F32), .rnd = ISA_RND_RN) X(ev_fsub, f32, 1, T(F32))        \
    X(ev_cvt_if, rn_f32_u32, 1, .type = ISA_T_F32, .type2 = ISA_T_U32, .rnd = ISA_RND_RN) \
    X(ev_cvt_if, rn_f32_s32, 1, .type = ISA_T_F32, .type2 = ISA_T_S32, .rnd = ISA_RND_RN)
WARP_FORMS(WARP_FORM)
static const struct {
    isa_warp_fn row;    /* the generic eval_warp of the form's entry */
    isa_warp_fn form;
    isa_insn in;        /* the decoded form (op not compared) */
} warp_forms[] = {
#define FORM_ROW(f, tag, ND, ...) { f##_w, f##_w_##tag, { __VA_ARGS__ } },
    WARP_FORMS(FORM_ROW)
#undef FORM_ROW
};
#undef SETP
#undef T
#define EV(f) f, f##_w        /* eval, eval_warp */
#define I(id) PTX_I_##id      /* the row of ptx/opcodes.def an entry implements */
#define ROW(name, mode, nd, ns, cls, types, types2, mods, flags, ev, op, doc) \
    { name, mode, nd, ns, cls, types, types2, mods, flags, ev, op, doc }
#define NOEV NULL, NULL

/* forward: the table below */
const isa_opinfo isa_ops[];

isa_warp_fn isa_warp_of(const isa_insn *in)
{
    isa_warp_fn row = isa_ops[in->op].eval_warp;
    for (size_t i = 0; row && i < sizeof warp_forms / sizeof warp_forms[0]; i++) {
        const isa_insn *f = &warp_forms[i].in;
        if (warp_forms[i].row == row && f->type == in->type && f->type2 == in->type2 &&
            f->type3 == in->type3 && f->mods == in->mods && f->cmp == in->cmp &&
            f->boolop == in->boolop && f->rnd == in->rnd && f->aux == in->aux &&
            f->asel == in->asel && f->bsel == in->bsel && f->dsel == in->dsel)
            return warp_forms[i].form;
    }
    return row;
}

const isa_opinfo isa_ops[] = {
    /* name, selecting mode, nd, ns, class, types, types2, mods, flags, eval (+warp),
     * opcode-table row (ptx/opcodes.def), doc */
    /* §9.7.1 integer arithmetic */
    ROW("add", NULL, 1, 2, PURE, T_I, 0, ISA_M_SAT, F_SATS32, EV(ev_add), I(ADD),
        "d = a + b (wraps; .sat.s32 clamps) §9.7.1.1"),
    ROW("add", NULL, 1, 2, PURE, T_X2, 0, 0, 0, EV(ev_add16x2), I(ADD),
        "d.h[i] = a.h[i] + b.h[i] §9.7.1.1"),
    ROW("sub", NULL, 1, 2, PURE, T_I, 0, ISA_M_SAT, F_SATS32, EV(ev_sub), I(SUB),
        "d = a - b (wraps; .sat.s32 clamps) §9.7.1.2"),
    ROW("mul", "lo", 1, 2, PURE, T_I, 0, ISA_M_LO, 0, EV(ev_mul_lo), I(MUL),
        "d = (a * b)<n-1..0> §9.7.1.3"),
    ROW("mul", "hi", 1, 2, PURE, T_I, 0, ISA_M_HI, 0, EV(ev_mul_hi), I(MUL),
        "d = (a * b)<2n-1..n> §9.7.1.3"),
    ROW("mul", "wide", 1, 2, PURE, T_1632, 0, ISA_M_WIDE, 0, EV(ev_mul_wide), I(MUL),
        "d(2n bits) = a * b §9.7.1.3"),
    ROW("mad", "lo", 1, 3, PURE, T_I, 0, ISA_M_LO, 0, EV(ev_mad_lo), I(MAD),
        "d = (a * b)<n-1..0> + c §9.7.1.4"),
    ROW("mad", "hi", 1, 3, PURE, T_I, 0, ISA_M_HI | ISA_M_SAT, F_SATS32, EV(ev_mad_hi), I(MAD),
        "d = (a * b)<2n-1..n> + c §9.7.1.4"),
    ROW("mad", "wide", 1, 3, PURE, T_1632, 0, ISA_M_WIDE, 0, EV(ev_mad_wide), I(MAD),
        "d(2n) = a * b + c(2n) §9.7.1.4"),
    ROW("mul24", "lo", 1, 2, PURE, T_32, 0, ISA_M_LO, 0, EV(ev_mul24_lo), I(MUL24),
        "d = (a24 * b24)<31..0> §9.7.1.5"),
    ROW("mul24", "hi", 1, 2, PURE, T_32, 0, ISA_M_HI, 0, EV(ev_mul24_hi), I(MUL24),
        "d = (a24 * b24)<47..16> §9.7.1.5"),
    ROW("mad24", "lo", 1, 3, PURE, T_32, 0, ISA_M_LO, 0, EV(ev_mad24_lo), I(MAD24),
        "d = (a24 * b24)<31..0> + c §9.7.1.6"),
    ROW("mad24", "hi", 1, 3, PURE, T_32, 0, ISA_M_HI | ISA_M_SAT, F_SATS32, EV(ev_mad24_hi),
        I(MAD24), "d = (a24 * b24)<47..16> + c §9.7.1.6"),
    ROW("sad", NULL, 1, 3, PURE, T_I, 0, 0, 0, EV(ev_sad), I(SAD), "d = c + |a - b| §9.7.1.7"),
    ROW("div", NULL, 1, 2, PURE, T_I, 0, 0, 0, EV(ev_div), I(DIV),
        "d = a / b (truncating; /0 = all ones) §9.7.1.8"),
    ROW("rem", NULL, 1, 2, PURE, T_I, 0, 0, 0, EV(ev_rem), I(REM), "d = a % b (%0 = a) §9.7.1.9"),
    ROW("abs", NULL, 1, 1, PURE, T_S, 0, 0, 0, EV(ev_abs), I(ABS), "d = |a| §9.7.1.10"),
    ROW("neg", NULL, 1, 1, PURE, T_S, 0, 0, 0, EV(ev_neg), I(NEG), "d = -a §9.7.1.11"),
    ROW("min", NULL, 1, 2, PURE, T_I, 0, ISA_M_RELU, 0, EV(ev_min), I(MIN),
        "d = a < b ? a : b (.relu.s32) §9.7.1.12"),
    ROW("min", NULL, 1, 2, PURE, T_X2, 0, ISA_M_RELU, 0, EV(ev_min16x2), I(MIN),
        "half-word min §9.7.1.12"),
    ROW("max", NULL, 1, 2, PURE, T_I, 0, ISA_M_RELU, 0, EV(ev_max), I(MAX),
        "d = a > b ? a : b (.relu.s32) §9.7.1.13"),
    ROW("max", NULL, 1, 2, PURE, T_X2, 0, ISA_M_RELU, 0, EV(ev_max16x2), I(MAX),
        "half-word max §9.7.1.13"),
    ROW("popc", NULL, 1, 1, PURE, T_B3264, 0, 0, 0, EV(ev_popc), I(POPC),
        "d.u32 = number of 1 bits §9.7.1.14"),
    ROW("clz", NULL, 1, 1, PURE, T_B3264, 0, 0, 0, EV(ev_clz), I(CLZ),
        "d.u32 = leading zeros §9.7.1.15"),
    ROW("bfind", NULL, 1, 1, PURE, T_3264, 0, ISA_M_SHIFTAMT, 0, EV(ev_bfind), I(BFIND),
        "d.u32 = msb non-sign bit §9.7.1.16"),
    ROW("fns", NULL, 1, 3, PURE, TB(ISA_T_B32), 0, 0, 0, EV(ev_fns), I(FNS),
        "d = n-th set bit of mask from base §9.7.1.17"),
    ROW("brev", NULL, 1, 1, PURE, T_B3264, 0, 0, 0, EV(ev_brev), I(BREV),
        "d = bit-reversed a §9.7.1.18"),
    ROW("bfe", NULL, 1, 3, PURE, T_3264, 0, 0, 0, EV(ev_bfe), I(BFE),
        "d = a[pos+len-1..pos], extended §9.7.1.19"),
    ROW("bfi", NULL, 1, 4, PURE, T_B3264, 0, 0, 0, EV(ev_bfi), I(BFI),
        "f = b with a's low len bits at pos §9.7.1.20"),
    ROW("szext", NULL, 1, 2, PURE, T_32, 0, ISA_M_CLAMP | ISA_M_WRAP, F_CW, EV(ev_szext), I(SZEXT),
        "d = low b bits of a, extended §9.7.1.21"),
    ROW("bmsk", NULL, 1, 2, PURE, TB(ISA_T_B32), 0, ISA_M_CLAMP | ISA_M_WRAP, F_CW, EV(ev_bmsk),
        I(BMSK), "d = b-bit mask at bit a §9.7.1.22"),
    ROW("dp4a", NULL, 1, 3, PURE, T_32, 0, 0, F_TWO, EV(ev_dp4a), I(DP4A),
        "d = c + sum a.b[i] * b.b[i] §9.7.1.23"),
    ROW("dp2a", "lo", 1, 3, PURE, T_32, 0, ISA_M_LO, F_TWO, EV(ev_dp2a), I(DP2A),
        "d = c + sum a.h[i] * b.b[i] §9.7.1.24"),
    ROW("dp2a", "hi", 1, 3, PURE, T_32, 0, ISA_M_HI, F_TWO, EV(ev_dp2a), I(DP2A),
        "d = c + sum a.h[i] * b.b[2+i] §9.7.1.24"),
/* §9.7.16 video */
#define M_VSEC (ISA_M_SAT | ISA_M_ADD | ISA_M_VMIN | ISA_M_VMAX)
#define VS(n, ev, id, doc) \
    ROW(n, NULL, 1, 2, PURE, T_32, T_32, M_VSEC, F_THREE | F_VS, EV(ev), I(id), doc)
#define VSIMD_ROW(n, ev, id, fl, doc) \
    ROW(n, NULL, 1, 3, PURE, T_32, T_32, ISA_M_SAT | ISA_M_ADD, F_THREE | fl, EV(ev), I(id), doc)
#define VSET_ROW(n, ev, id, ns, mods, fl, doc) \
    ROW(n, NULL, 1, ns, PURE, T_32, T_32, mods, F_TWO | F_CMP | fl, EV(ev), I(id), doc)
    VS("vadd", ev_vadd, VADD, "d = sel(a) + sel(b), .sat, secondary op or merge §9.7.16.1.1"),
    VS("vsub", ev_vsub, VSUB, "d = sel(a) - sel(b) §9.7.16.1.1"),
    VS("vabsdiff", ev_vabsdiff, VABSDIFF, "d = |sel(a) - sel(b)| §9.7.16.1.1"),
    VS("vmin", ev_vmin, VMIN, "d = min(sel(a), sel(b)) §9.7.16.1.1"),
    VS("vmax", ev_vmax, VMAX, "d = max(sel(a), sel(b)) §9.7.16.1.1"),
    ROW("vshl", NULL, 1, 2, PURE, T_32, T_32, M_VSEC | ISA_M_CLAMP | ISA_M_WRAP,
        F_THREE | F_VS | F_VSH | F_CW, EV(ev_vshl), I(VSHL), "d = sel(a) << sel(b) §9.7.16.1.2"),
    ROW("vshr", NULL, 1, 2, PURE, T_32, T_32, M_VSEC | ISA_M_CLAMP | ISA_M_WRAP,
        F_THREE | F_VS | F_VSH | F_CW, EV(ev_vshr), I(VSHR), "d = sel(a) >> sel(b) §9.7.16.1.2"),
    ROW("vmad", NULL, 1, 3, PURE, T_32, T_32, ISA_M_SAT | ISA_M_PO | ISA_M_SHR7 | ISA_M_SHR15,
        F_THREE | F_VNEG, EV(ev_vmad), I(VMAD), "d = +-(sel(a) * sel(b)) +- c (+1) §9.7.16.1.3"),
    VSET_ROW("vset", ev_vset, VSET, 2, ISA_M_ADD | ISA_M_VMIN | ISA_M_VMAX, F_VS,
             "d = sel(a) CmpOp sel(b), secondary op or merge §9.7.16.1.4"),
    VSIMD_ROW("vadd2", ev_vadd2, VADD2, F_V2, "d.h[i] = a.h[i] + b.h[i] §9.7.16.2.1"),
    VSIMD_ROW("vsub2", ev_vsub2, VSUB2, F_V2, "d.h[i] = a.h[i] - b.h[i] §9.7.16.2.1"),
    VSIMD_ROW("vavrg2", ev_vavrg2, VAVRG2, F_V2, "d.h[i] = avg(a.h[i], b.h[i]) §9.7.16.2.1"),
    VSIMD_ROW("vabsdiff2", ev_vabsdiff2, VABSDIFF2, F_V2, "d.h[i] = |a.h[i] - b.h[i]| §9.7.16.2.1"),
    VSIMD_ROW("vmin2", ev_vmin2, VMIN2, F_V2, "d.h[i] = min(a.h[i], b.h[i]) §9.7.16.2.1"),
    VSIMD_ROW("vmax2", ev_vmax2, VMAX2, F_V2, "d.h[i] = max(a.h[i], b.h[i]) §9.7.16.2.1"),
    VSET_ROW("vset2", ev_vset2, VSET2, 3, ISA_M_ADD, F_V2,
             "d.h[i] = a.h[i] CmpOp b.h[i] §9.7.16.2.2"),
    VSIMD_ROW("vadd4", ev_vadd4, VADD4, F_V4, "d.b[i] = a.b[i] + b.b[i] §9.7.16.2.3"),
    VSIMD_ROW("vsub4", ev_vsub4, VSUB4, F_V4, "d.b[i] = a.b[i] - b.b[i] §9.7.16.2.3"),
    VSIMD_ROW("vavrg4", ev_vavrg4, VAVRG4, F_V4, "d.b[i] = avg(a.b[i], b.b[i]) §9.7.16.2.3"),
    VSIMD_ROW("vabsdiff4", ev_vabsdiff4, VABSDIFF4, F_V4,
              "d.b[i] = |a.b[i] - b.b[i]| (.sat), or d = c + sum (.add) §9.7.16.2.3"),
    VSIMD_ROW("vmin4", ev_vmin4, VMIN4, F_V4, "d.b[i] = min(a.b[i], b.b[i]) §9.7.16.2.3"),
    VSIMD_ROW("vmax4", ev_vmax4, VMAX4, F_V4, "d.b[i] = max(a.b[i], b.b[i]) §9.7.16.2.3"),
    VSET_ROW("vset4", ev_vset4, VSET4, 3, ISA_M_ADD, F_V4,
             "d.b[i] = a.b[i] CmpOp b.b[i] §9.7.16.2.4"),
    /* §9.7.2 extended precision: carry flag CC.CF, see isa_eval_cc */
    ROW("add", "cc", 1, 2, CARRY, T_3264, 0, ISA_M_CC, 0, NOEV, I(ADD_CC),
        "d = a + b, CC.CF = carry-out §9.7.2.1"),
    ROW("addc", NULL, 1, 2, CARRY, T_3264, 0, ISA_M_CC, 0, NOEV, I(ADDC),
        "d = a + b + CC.CF {.cc: carry-out} §9.7.2.2"),
    ROW("sub", "cc", 1, 2, CARRY, T_3264, 0, ISA_M_CC, 0, NOEV, I(SUB_CC),
        "d = a - b = a + ~b + 1, CC.CF = its carry-out (1: no borrow) §9.7.2.3"),
    ROW("subc", NULL, 1, 2, CARRY, T_3264, 0, ISA_M_CC, 0, NOEV, I(SUBC),
        "d = a + ~b + CC.CF = a - (b + !CC.CF) {.cc: carry-out} §9.7.2.4"),
    ROW("mad", "cc", 1, 3, CARRY, T_3264, 0, ISA_M_CC | ISA_M_HI | ISA_M_LO, 0, NOEV, I(MAD_CC),
        "d = (a*b).lo/hi + c, carry-out §9.7.2.5"),
    ROW("madc", NULL, 1, 3, CARRY, T_3264, 0, ISA_M_CC | ISA_M_HI | ISA_M_LO, 0, NOEV, I(MADC),
        "d = (a*b).lo/hi + c + CC.CF §9.7.2.6"),
    /* §9.7.7 logic and shift */
    ROW("and", NULL, 1, 2, PURE, TB(ISA_T_PRED) | T_B, 0, 0, 0, EV(ev_and), I(AND),
        "d = a & b §9.7.7.1"),
    ROW("or", NULL, 1, 2, PURE, TB(ISA_T_PRED) | T_B, 0, 0, 0, EV(ev_or), I(OR),
        "d = a | b §9.7.7.2"),
    ROW("xor", NULL, 1, 2, PURE, TB(ISA_T_PRED) | T_B, 0, 0, 0, EV(ev_xor), I(XOR),
        "d = a ^ b §9.7.7.3"),
    ROW("not", NULL, 1, 1, PURE, TB(ISA_T_PRED) | T_B, 0, 0, 0, EV(ev_not), I(NOT),
        "d = ~a §9.7.7.4"),
    ROW("cnot", NULL, 1, 1, PURE, T_B, 0, 0, 0, EV(ev_cnot), I(CNOT), "d = a == 0 §9.7.7.5"),
    ROW("lop3", NULL, 1, 4, PURE, TB(ISA_T_B32), 0, 0, F_BOOL | F_BOOLDST, EV(ev_lop3), I(LOP3),
        "d = immLut(a, b, c) {p = d!=0 op q} §9.7.7.6"),
    ROW("shf", "l", 1, 3, PURE, TB(ISA_T_B32), 0, ISA_M_L | ISA_M_CLAMP | ISA_M_WRAP, F_CW,
        EV(ev_shf_l), I(SHF), "d = ([b,a] << n)<63..32> §9.7.7.7"),
    ROW("shf", "r", 1, 3, PURE, TB(ISA_T_B32), 0, ISA_M_R | ISA_M_CLAMP | ISA_M_WRAP, F_CW,
        EV(ev_shf_r), I(SHF), "d = ([b,a] >> n)<31..0> §9.7.7.7"),
    ROW("shl", NULL, 1, 2, PURE, T_B, 0, 0, 0, EV(ev_shl), I(SHL),
        "d = a << b (b >= N: 0) §9.7.7.8"),
    ROW("shr", NULL, 1, 2, PURE, T_B | T_I, 0, 0, 0, EV(ev_shr), I(SHR),
        "d = a >> b, sign fill for .s (clamped to N) §9.7.7.9"),
    /* §9.7.5 comparison and selection */
    ROW("setp", NULL, 1, 2, PURE, T_NUM, 0, ISA_M_FTZ, F_CMP | F_BOOL | F_BOOLDST, EV(ev_setp),
        I(SETP), "p = BoolOp(a CmpOp b, c), q = BoolOp(!t, c) §9.7.5.2"),
    ROW("set", NULL, 1, 2, PURE, TB(ISA_T_U32) | TB(ISA_T_S32) | TB(ISA_T_F32), T_NUM, ISA_M_FTZ,
        F_CMP | F_BOOL | F_TWO, EV(ev_set), I(SET),
        "d = BoolOp(a CmpOp b, c) ? 1.0f/0xffffffff : 0 §9.7.5.1"),
    ROW("selp", NULL, 1, 3, PURE, T_NUM, 0, 0, 0, EV(ev_selp), I(SELP), "d = c ? a : b §9.7.5.3"),
    ROW("slct", NULL, 1, 3, PURE, T_NUM, TB(ISA_T_S32) | TB(ISA_T_F32), ISA_M_FTZ, F_TWO,
        EV(ev_slct), I(SLCT), "d = c >= 0 ? a : b §9.7.5.4"),
    /* §9.7.8 data movement (registers) */
    ROW("mov", NULL, 1, 1, PURE, T_MOV, 0, 0, 0, EV(ev_mov), I(MOV), "d = a §9.7.8.3"),
    ROW("prmt", NULL, 1, 3, PURE, TB(ISA_T_B32), 0, 0, F_PRMT, EV(ev_prmt), I(PRMT),
        "d = bytes of {b,a} picked by c §9.7.8.7"),
    ROW("cvt", NULL, 1, 1, PURE, T_CVTI, T_CVTI, ISA_M_SAT, F_TWO, EV(ev_cvt_ii), I(CVT),
        "d = (dtype)(atype)a {.sat clamps} §9.7.8.20"),
    /* §9.7.3 floating point (f32, f64) */
    ROW("testp", NULL, 1, 1, PURE, T_F, 0, 0, F_TESTP, EV(ev_testp), I(TESTP),
        "p = property(a) §9.7.3.1"),
    ROW("copysign", NULL, 1, 2, PURE, T_F, 0, 0, 0, EV(ev_copysign), I(COPYSIGN),
        "d = b with the sign of a §9.7.3.2"),
    ROW("add", NULL, 1, 2, PURE, T_F, 0, M_F32, F_FRND, EV(ev_fadd), I(ADD_F),
        "d = a + b, rounded §9.7.3.3"),
    ROW("sub", NULL, 1, 2, PURE, T_F, 0, M_F32, F_FRND, EV(ev_fsub), I(SUB_F),
        "d = a - b, rounded §9.7.3.4"),
    ROW("mul", NULL, 1, 2, PURE, T_F, 0, M_F32, F_FRND, EV(ev_fmul), I(MUL_F),
        "d = a * b, rounded §9.7.3.5"),
    ROW("fma", NULL, 1, 3, PURE, T_F, 0, M_F32, F_FRND, EV(ev_ffma), I(FMA_F),
        "d = a * b + c, one rounding §9.7.3.6"),
    ROW("mad", NULL, 1, 3, PURE, T_F, 0, M_F32, F_FRND, EV(ev_ffma), I(MAD_F),
        "d = a * b + c (= fma) §9.7.3.7"),
    ROW("div", "approx", 1, 2, PURE, TB(ISA_T_F32), 0, ISA_M_APPROX | ISA_M_FTZ, 0,
        EV(ev_fdiv_approx), I(DIV_F), "d ~ a * (1/b) §9.7.3.8"),
    ROW("div", "full", 1, 2, PURE, TB(ISA_T_F32), 0, ISA_M_FULL | ISA_M_FTZ, 0, EV(ev_fdiv_approx),
        I(DIV_F), "d ~ a / b, full range §9.7.3.8"),
    ROW("div", NULL, 1, 2, PURE, T_F, 0, ISA_M_FTZ, F_FRND | F_RNDREQ32, EV(ev_fdiv), I(DIV_F),
        "d = a / b, rounded §9.7.3.8"),
    ROW("rcp", "approx", 1, 1, PURE, TB(ISA_T_F64), 0, ISA_M_APPROX | ISA_M_FTZ, F_NEEDFTZ,
        EV(ev_frcp_approx64), I(RCP_APPROX_F64), "d ~ 1/a[63:32] §9.7.3.14"),
    ROW("rcp", "approx", 1, 1, PURE, TB(ISA_T_F32), 0, ISA_M_APPROX | ISA_M_FTZ, 0,
        EV(ev_frcp_approx), I(RCP_F), "d ~ 1/a §9.7.3.13"),
    ROW("rcp", NULL, 1, 1, PURE, T_F, 0, ISA_M_FTZ, F_FRND | F_RNDREQ32, EV(ev_frcp), I(RCP_F),
        "d = 1/a, rounded §9.7.3.13"),
    ROW("sqrt", "approx", 1, 1, PURE, TB(ISA_T_F32), 0, ISA_M_APPROX | ISA_M_FTZ, 0,
        EV(ev_fsqrt_approx), I(SQRT_F), "d ~ sqrt(a) §9.7.3.15"),
    ROW("sqrt", NULL, 1, 1, PURE, T_F, 0, ISA_M_FTZ, F_FRND | F_RNDREQ32, EV(ev_fsqrt), I(SQRT_F),
        "d = sqrt(a), rounded §9.7.3.15"),
    ROW("rsqrt", "approx", 1, 1, PURE, TB(ISA_T_F64), 0, ISA_M_APPROX | ISA_M_FTZ, F_NEEDFTZ,
        EV(ev_frsqrt_approx64), I(RSQRT_APPROX_F64), "d ~ 1/sqrt(a[63:32]) §9.7.3.17"),
    ROW("rsqrt", "approx", 1, 1, PURE, T_F, 0, ISA_M_APPROX | ISA_M_FTZ, 0, EV(ev_frsqrt_approx),
        I(RSQRT_F), "d ~ 1/sqrt(a) §9.7.3.16"),
    ROW("abs", NULL, 1, 1, PURE, T_F, 0, ISA_M_FTZ, 0, EV(ev_fabs), I(ABS_F), "d = |a| §9.7.3.9"),
    ROW("neg", NULL, 1, 1, PURE, T_F, 0, ISA_M_FTZ, 0, EV(ev_fneg), I(NEG_F), "d = -a §9.7.3.10"),
    ROW("min", NULL, 1, 2, PURE, T_F, 0, ISA_M_FTZ | ISA_M_NAN | ISA_M_XORSIGN | ISA_M_ABS, 0,
        EV(ev_fmin), I(MIN_F), "d = min(a, b), NaN ignored §9.7.3.11"),
    ROW("max", NULL, 1, 2, PURE, T_F, 0, ISA_M_FTZ | ISA_M_NAN | ISA_M_XORSIGN | ISA_M_ABS, 0,
        EV(ev_fmax), I(MAX_F), "d = max(a, b), NaN ignored §9.7.3.12"),
    ROW("sin", "approx", 1, 1, PURE, TB(ISA_T_F32), 0, ISA_M_APPROX | ISA_M_FTZ, 0, EV(ev_fsin),
        I(SIN), "d ~ sin(a) §9.7.3.18"),
    ROW("cos", "approx", 1, 1, PURE, TB(ISA_T_F32), 0, ISA_M_APPROX | ISA_M_FTZ, 0, EV(ev_fcos),
        I(COS), "d ~ cos(a) §9.7.3.19"),
    ROW("lg2", "approx", 1, 1, PURE, TB(ISA_T_F32), 0, ISA_M_APPROX | ISA_M_FTZ, 0, EV(ev_flg2),
        I(LG2), "d ~ log2(a) §9.7.3.20"),
    ROW("ex2", "approx", 1, 1, PURE, TB(ISA_T_F32), 0, ISA_M_APPROX | ISA_M_FTZ, 0, EV(ev_fex2),
        I(EX2), "d ~ 2^a §9.7.3.21"),
    ROW("tanh", "approx", 1, 1, PURE, TB(ISA_T_F32), 0, ISA_M_APPROX, 0, EV(ev_ftanh), I(TANH),
        "d ~ tanh(a) §9.7.3.22"),
    /* §9.7.8.20 cvt involving f32/f64 */
    ROW("cvt", NULL, 1, 1, PURE, T_CVTI, T_F, ISA_M_FTZ | ISA_M_SAT, F_TWO | F_IRND, EV(ev_cvt_fi),
        I(CVT), "d = clamp(round_i(a)), NaN -> 0 §9.7.8.20"),
    ROW("cvt", NULL, 1, 1, PURE, T_F, T_CVTI, ISA_M_SAT, F_TWO | F_FRND, EV(ev_cvt_if), I(CVT),
        "d = (float)a, rounded §9.7.8.20"),
    ROW("cvt", NULL, 1, 1, PURE, T_F, T_F, ISA_M_FTZ | ISA_M_SAT, F_TWO | F_FRND | F_IRND,
        EV(ev_cvt_ff), I(CVT), "d = a converted/rounded §9.7.8.20"),
    /* §9.7.4 half precision (.f16 .f16x2 .bf16 .bf16x2; x2: both halves in parallel) */
    ROW("add", NULL, 1, 2, PURE, T_F16ALL, 0, M_HALF, F_FRND, EV(ev_hadd), I(ADD_H),
        "d.h[i] = a.h[i] + b.h[i], .rn §9.7.4.1"),
    ROW("sub", NULL, 1, 2, PURE, T_F16ALL, 0, M_HALF, F_FRND, EV(ev_hsub), I(SUB_H),
        "d.h[i] = a.h[i] - b.h[i], .rn §9.7.4.2"),
    ROW("mul", NULL, 1, 2, PURE, T_F16ALL, 0, M_HALF, F_FRND, EV(ev_hmul), I(MUL_H),
        "d.h[i] = a.h[i] * b.h[i], .rn §9.7.4.3"),
    ROW("fma", NULL, 1, 3, PURE, T_F16ALL, 0, M_HALF | ISA_M_RELU | ISA_M_OOB, F_FRND, EV(ev_hfma),
        I(FMA_H), "d.h[i] = a.h[i] * b.h[i] + c.h[i], one rounding §9.7.4.4"),
    ROW("neg", NULL, 1, 1, PURE, T_F16ALL, 0, ISA_M_FTZ, 0, EV(ev_hneg), I(NEG_H),
        "d.h[i] = -a.h[i] §9.7.4.5"),
    ROW("abs", NULL, 1, 1, PURE, T_F16ALL, 0, ISA_M_FTZ, 0, EV(ev_habs), I(ABS_H),
        "d.h[i] = |a.h[i]| §9.7.4.6"),
    ROW("min", NULL, 1, 2, PURE, T_F16ALL, 0, ISA_M_FTZ | ISA_M_NAN | ISA_M_XORSIGN | ISA_M_ABS, 0,
        EV(ev_hmin), I(MIN_H), "d.h[i] = min, NaN ignored §9.7.4.7"),
    ROW("max", NULL, 1, 2, PURE, T_F16ALL, 0, ISA_M_FTZ | ISA_M_NAN | ISA_M_XORSIGN | ISA_M_ABS, 0,
        EV(ev_hmax), I(MAX_H), "d.h[i] = max, NaN ignored §9.7.4.8"),
    ROW("tanh", "approx", 1, 1, PURE, T_F16ALL, 0, ISA_M_APPROX, 0, EV(ev_htanh), I(TANH_H),
        "d.h[i] ~ tanh(a.h[i]) §9.7.4.9"),
    ROW("ex2", "approx", 1, 1, PURE, T_F16ALL, 0, ISA_M_APPROX | ISA_M_FTZ, 0, EV(ev_hex2),
        I(EX2_H), "d.h[i] ~ 2^a.h[i] §9.7.4.10"),
    /* §9.7.6 half precision comparison */
    ROW("setp", NULL, 1, 2, PURE, T_F16S, 0, ISA_M_FTZ, F_CMP | F_BOOL | F_BOOLDST, EV(ev_setp),
        I(SETP_H), "p = BoolOp(a CmpOp b, c), q = BoolOp(!t, c) §9.7.6.2"),
    ROW("setp", NULL, 2, 2, PURE, T_F16X, 0, ISA_M_FTZ, F_CMP | F_BOOL, EV(ev_setp_x2), I(SETP_H),
        "p = BoolOp(a.lo CmpOp b.lo, c), q = BoolOp(a.hi CmpOp b.hi, c) §9.7.6.2"),
    ROW("set", NULL, 1, 2, PURE, T_F16S, T_NUM | TB(ISA_T_F16), ISA_M_FTZ, F_CMP | F_BOOL | F_TWO,
        EV(ev_set), I(SET_H), "d = BoolOp(a CmpOp b, c) ? 1.0 : 0.0 (half format) §9.7.6.1"),
    ROW("set", NULL, 1, 2, PURE, T_1632, T_F16S, ISA_M_FTZ, F_CMP | F_BOOL | F_TWO, EV(ev_set),
        I(SET_H), "d = BoolOp(a CmpOp b, c) ? 0xffff/0xffffffff : 0 §9.7.6.1"),
    ROW("set", NULL, 1, 2, PURE, TB(ISA_T_F16X2) | T_32, TB(ISA_T_F16X2), ISA_M_FTZ,
        F_CMP | F_BOOL | F_TWO, EV(ev_set_x2), I(SET_H),
        "d.h[i] = BoolOp(a.h[i] CmpOp b.h[i], c) ? 1.0/0xffff : 0 §9.7.6.1"),
    ROW("set", NULL, 1, 2, PURE, TB(ISA_T_BF16X2) | T_32, TB(ISA_T_BF16X2), 0,
        F_CMP | F_BOOL | F_TWO, EV(ev_set_x2), I(SET_H),
        "d.h[i] = BoolOp(a.h[i] CmpOp b.h[i], c) ? 1.0/0xffff : 0 §9.7.6.1"),
    /* §9.7.8.20 cvt involving .f16/.bf16/.tf32/.e4m3x2/.e5m2x2, §9.7.8.21 cvt.pack */
    ROW("cvt", NULL, 1, 1, PURE, T_CVTI, T_F16S, ISA_M_SAT, F_TWO | F_IRND, EV(ev_cvt_fi), I(CVT),
        "d = clamp(round_i(a)), NaN -> 0 §9.7.8.20"),
    ROW("cvt", NULL, 1, 1, PURE, T_F16S, T_CVTI, ISA_M_SAT, F_TWO | F_FRND, EV(ev_cvt_h), I(CVT),
        "d = (half)a, rounded §9.7.8.20"),
    ROW("cvt", NULL, 1, 1, PURE, T_F16S | TB(ISA_T_TF32), T_F16S | T_F,
        ISA_M_FTZ | ISA_M_SAT | ISA_M_RELU | ISA_M_SATFINITE, F_TWO | F_FRND | F_IRND | F_RNA,
        EV(ev_cvt_h), I(CVT), "d = a rounded to f16/bf16/tf32 {.relu .satfinite .sat} §9.7.8.20"),
    ROW("cvt", NULL, 1, 1, PURE, T_F, T_F16S, ISA_M_FTZ | ISA_M_SAT, F_TWO | F_FRND, EV(ev_cvt_h),
        I(CVT), "d = a widened (exact) §9.7.8.20"),
    ROW("cvt", NULL, 1, 2, PURE, T_F16X, TB(ISA_T_F32), ISA_M_RELU | ISA_M_SATFINITE,
        F_TWO | F_FRND, EV(ev_cvt_x2), I(CVT),
        "d = {cvt(a), cvt(b)}: a -> d[31:16], b -> d[15:0] §9.7.8.20"),
    ROW("cvt", NULL, 1, 2, PURE, T_F8X2, TB(ISA_T_F32), ISA_M_RELU | ISA_M_SATFINITE,
        F_TWO | F_FRND, EV(ev_cvt_f8_f32), I(CVT),
        "d = {cvt(a), cvt(b)}: a -> d[15:8], b -> d[7:0] §9.7.8.20"),
    ROW("cvt", NULL, 1, 1, PURE, T_F8X2, TB(ISA_T_F16X2), ISA_M_RELU | ISA_M_SATFINITE,
        F_TWO | F_FRND, EV(ev_cvt_f8_h), I(CVT), "d.b[i] = cvt(a.h[i]) §9.7.8.20"),
    ROW("cvt", NULL, 1, 1, PURE, TB(ISA_T_F16X2), T_F8X2, ISA_M_RELU, F_TWO | F_FRND,
        EV(ev_cvt_h_f8), I(CVT), "d.h[i] = cvt(a.b[i]) (exact) §9.7.8.20"),
    ROW("cvt", "pack", 1, 2, PURE, TB(ISA_T_S32), 0, ISA_M_SAT, F_CVTPACK, EV(ev_cvt_pack),
        I(CVT_PACK), "d = {sat(a), sat(b)} 16-bit halves §9.7.8.21"),
    ROW("cvt", "pack", 1, 3, PURE, TB(ISA_T_S32), TB(ISA_T_B32), ISA_M_SAT, F_CVTPACK | F_TWO,
        EV(ev_cvt_pack), I(CVT_PACK), "d = {c.low, sat(a), sat(b)} 2/4/8-bit fields §9.7.8.21"),
    /* §9.7.8.4 mov pack/unpack: reached only through isa_mov_vector */
    ROW("mov", "pack", 1, 2, PURE, T_B, 0, 0, F_VEC, EV(ev_mov_pack), I(MOV_PACK),
        "d = a.x | a.y << w §9.7.8.4"),
    ROW("mov", "pack", 1, 4, PURE, TB(ISA_T_B32) | TB(ISA_T_B64), 0, 0, F_VEC, EV(ev_mov_pack),
        I(MOV_PACK), "d = a.x | a.y << w | a.z << 2w | a.w << 3w §9.7.8.4"),
    ROW("mov", "unpack", 2, 1, PURE, T_B, 0, 0, F_VEC, EV(ev_mov_unpack), I(MOV_PACK),
        "{d.x, d.y} = {a[w-1..0], a[2w-1..w]} §9.7.8.4"),
    ROW("mov", "unpack", 4, 1, PURE, TB(ISA_T_B32) | TB(ISA_T_B64), 0, 0, F_VEC, EV(ev_mov_unpack),
        I(MOV_PACK), "{d.x .. d.w} = 4 fields of a §9.7.8.4"),
};
const int isa_nops = (int)(sizeof isa_ops / sizeof isa_ops[0]);


/* seterr, then -1: a decode rule broken */
static int refuse(char *err, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int refuse(char *err, size_t n, const char *fmt, ...)
{
    if (err && n) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, n, fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* Decode rules of cvt with a half or alternate format (.f16 .bf16 .tf32 .e4m3x2 .e5m2x2, x2
 * packs), §9.7.8.20. */
static int half_cvt_rules(const isa_insn *x, char *err, size_t n)
{
    isa_type d = x->type, s = x->type2;
    uint32_t m = x->mods;
    int fd = isa_type_is_float(d), fs = isa_type_is_float(s),
        frnd = x->rnd >= ISA_RND_RN && x->rnd <= ISA_RND_RP;
    int relu = (m & ISA_M_RELU) != 0, satf = (m & ISA_M_SATFINITE) != 0, sat = (m & ISA_M_SAT) != 0;
    int rnrz = x->rnd == ISA_RND_RN || x->rnd == ISA_RND_RZ, irnd_ = irnd_of(x->rnd);
    if ((m & ISA_M_FTZ) && d != ISA_T_F32 && s != ISA_T_F32)
        return refuse(err, n, "cvt: .ftz needs .f32 (§9.7.8.20)");
    if (sat && (relu || satf))
        return refuse(err, n, "cvt: .sat does not combine with .relu/.satfinite (§9.7.8.20)");
    if (sat && (d == ISA_T_BF16 || d == ISA_T_TF32))
        return refuse(err, n, "cvt: .sat applies to .f16/.f32/.f64 (§9.7.8.20)");
    if (d == ISA_T_E4M3X2 || d == ISA_T_E5M2X2)
        return x->rnd == ISA_RND_RN && satf
                   ? 0
                   : refuse(err, n, "cvt to .e4m3x2/.e5m2x2 needs .rn.satfinite (§9.7.8.20)");
    if (s == ISA_T_E4M3X2 || s == ISA_T_E5M2X2)
        return x->rnd == ISA_RND_RN && !satf
                   ? 0
                   : refuse(err, n, "cvt.rn{.relu}.f16x2.f8x2type: .rn, no .satfinite (§9.7.8.20)");
    if (d == ISA_T_TF32) {
        if (x->rnd == ISA_RND_RNA)
            return relu ? refuse(err, n, "cvt.rna.tf32.f32 takes no .relu (§9.7.8.20)") : 0;
        return rnrz && !satf
                   ? 0
                   : refuse(err, n,
                            "cvt.tf32.f32 needs .rna{.satfinite} or .rn/.rz{.relu} (§9.7.8.20)");
    }
    if (x->rnd == ISA_RND_RNA) return refuse(err, n, "cvt: .rna only for .tf32 (§9.7.8.20)");
    if ((relu || satf) &&
        !((d == ISA_T_F16 || d == ISA_T_BF16 || is_x2(d)) && s == ISA_T_F32 && rnrz))
        return refuse(err, n,
                      "cvt: .relu/.satfinite need .rn/.rz and .f16/.bf16{x2}.f32 (§9.7.8.20)");
    if (is_x2(d))
        return rnrz ? 0
                    : refuse(err, n, "cvt.%s.f32 needs .rn or .rz (§9.7.8.20)", isa_type_name(d));
    if (!fd)
        return irnd_ ? 0 : refuse(err, n, "cvt float->int needs .rni/.rzi/.rmi/.rpi (§9.7.8.20)");
    if (!fs) return frnd ? 0 : refuse(err, n, "cvt int->float needs .rn/.rz/.rm/.rp (§9.7.8.20)");
    if (d == s)
        return frnd ? refuse(err, n,
                             "cvt same-type float takes only .rni/.rzi/.rmi/.rpi (§9.7.8.20)")
                    : 0;
    if (irnd_) return refuse(err, n, "cvt: integer rounding needs the same float type (§9.7.8.20)");
    if (d == ISA_T_F32 || d == ISA_T_F64) /* exact widening: no rounding, except the ISA's own
                                             example cvt.f64.bf16.rp */
        return x->rnd && s != ISA_T_BF16
                   ? refuse(err, n, "cvt widening float takes no rounding (§9.7.8.20)")
                   : 0;
    return frnd ? 0 : refuse(err, n, "cvt narrowing float needs .rn/.rz/.rm/.rp (§9.7.8.20)");
}

/* Decode rules of the half-precision forms (§9.7.4 syntax boxes, §9.7.6, §9.7.8.20 cvt). */
static int half_rules(const isa_insn *x, char *err, size_t n)
{
    const isa_opinfo *e = &isa_ops[x->op];
    isa_type d = x->type, s = x->type2;
    uint32_t m = x->mods;
    int bf = d == ISA_T_BF16 || d == ISA_T_BF16X2 || s == ISA_T_BF16 || s == ISA_T_BF16X2;
    if (m & ISA_M_OOB)
        return refuse(err, n,
                      "%s.oob: the OOB-NaN encoding is not defined by the ISA text (§9.7.4.4, "
                      "§5.5.3.3); not modelled",
                      e->name);
    if (!strcmp(e->name, "cvt")) return half_cvt_rules(x, err, n);
    if (!strcmp(e->name, "set") || !strcmp(e->name, "setp"))
        return bf && (m & ISA_M_FTZ)
                   ? refuse(err, n, "%s: .ftz not allowed with .bf16/.bf16x2 (§9.7.6)", e->name)
                   : 0;
    /* §9.7.4 arithmetic */
    if (x->rnd && x->rnd != ISA_RND_RN)
        return refuse(err, n, "%s: half precision takes only .rn (§9.7.4)", e->name);
    if (!strcmp(e->name, "fma") && !x->rnd) return refuse(err, n, "fma needs .rn (§9.7.4.4)");
    if (!strcmp(e->name, "ex2"))
        return bf != !!(m & ISA_M_FTZ) ? refuse(err, n,
                                                "ex2.approx: .ftz is required for .bf16/.bf16x2 "
                                                "and not allowed for .f16/.f16x2 (§9.7.4.10)")
                                       : 0;
    if (bf && (m & (ISA_M_FTZ | ISA_M_SAT)))
        return refuse(err, n, "%s: .ftz/.sat not allowed with .bf16/.bf16x2 (§9.7.4)", e->name);
    if ((m & ISA_M_SAT) && (m & ISA_M_RELU))
        return refuse(err, n, "%s: .sat and .relu exclude each other (§9.7.4.4)", e->name);
    if (!!(m & ISA_M_XORSIGN) != !!(m & ISA_M_ABS))
        return refuse(err, n, "%s: .xorsign and .abs go together (§9.7.4.7)", e->name);
    return 0;
}

/* Float-specific decode rules (Table 26 of §9.7.3; §9.7.8.20 for cvt). */
static int fp_rules(const isa_insn *x, char *err, size_t n)
{
    const isa_opinfo *e = &isa_ops[x->op];
    int fd = isa_type_is_float(x->type), fs = isa_type_is_float(x->type2);
    int frnd = x->rnd >= ISA_RND_RN && x->rnd <= ISA_RND_RP,
        irnd_ = x->rnd >= ISA_RND_RNI && x->rnd <= ISA_RND_RPI;
    if (is_half(x->type) || is_half(x->type2)) return half_rules(x, err, n);
    if (!strcmp(e->name, "cvt")) {
        unsigned bd = tinfo[x->type].bits, bs = tinfo[x->type2].bits;
        if (!fd && fs && !irnd_)
            return seterr(err, n, "cvt float->int needs .rni/.rzi/.rmi/.rpi (§9.7.8.20)"), -1;
        if (fd && !fs && !frnd)
            return seterr(err, n, "cvt int->float needs .rn/.rz/.rm/.rp (§9.7.8.20)"), -1;
        if (fd && fs && bd < bs && !frnd)
            return seterr(err, n, "cvt narrowing float needs .rn/.rz/.rm/.rp (§9.7.8.20)"), -1;
        if (fd && fs && bd > bs && x->rnd)
            return seterr(err, n, "cvt widening float takes no rounding (§9.7.8.20)"), -1;
        if (fd && fs && bd == bs && frnd)
            return seterr(err, n, "cvt same-size float takes only .rni/.rzi/.rmi/.rpi (§9.7.8.20)"),
                   -1;
        if ((x->mods & ISA_M_FTZ) && x->type != ISA_T_F32 && x->type2 != ISA_T_F32)
            return seterr(err, n, "cvt: .ftz needs .f32 (§9.7.8.20)"), -1;
        return 0;
    }
    if (!fd) return 0;
    if ((e->flags & F_NEEDFTZ) && !(x->mods & ISA_M_FTZ))
        return seterr(err, n, "%s.approx.f64 needs .ftz", e->name), -1;
    if ((x->mods & ISA_M_FTZ) && x->type == ISA_T_F64 && !(e->flags & F_NEEDFTZ))
        return seterr(err, n, "%s: .ftz applies only to .f32 (§9.7.3)", e->name), -1;
    if ((x->mods & (ISA_M_SAT | ISA_M_NAN | ISA_M_XORSIGN)) && x->type == ISA_T_F64)
        return seterr(err, n, "%s: .sat/.NaN/.xorsign apply only to .f32 (§9.7.3)", e->name), -1;
    if (!!(x->mods & ISA_M_XORSIGN) != !!(x->mods & ISA_M_ABS))
        return seterr(err, n, "%s: .xorsign and .abs go together (§9.7.3.11)", e->name), -1;
    if (!strcmp(e->name, "fma") && !x->rnd)
        return seterr(err, n, "fma needs .rn/.rz/.rm/.rp (§9.7.3.6)"), -1;
    return 0;
}

/* ================================================================ decoder */


static const struct { const char *s; uint32_t m; } modtab[] = {
    {"sat", ISA_M_SAT}, {"ftz", ISA_M_FTZ}, {"approx", ISA_M_APPROX}, {"full", ISA_M_FULL},
    {"NaN", ISA_M_NAN}, {"xorsign", ISA_M_XORSIGN}, {"abs", ISA_M_ABS}, {"relu", ISA_M_RELU},
    {"cc", ISA_M_CC}, {"shiftamt", ISA_M_SHIFTAMT}, {"clamp", ISA_M_CLAMP}, {"wrap", ISA_M_WRAP},
    {"hi", ISA_M_HI}, {"lo", ISA_M_LO}, {"wide", ISA_M_WIDE}, {"l", ISA_M_L}, {"r", ISA_M_R},
    {"noftz", ISA_M_NOFTZ}, {"satfinite", ISA_M_SATFINITE}, {"oob", ISA_M_OOB}, {"add", ISA_M_ADD},
    {"min", ISA_M_VMIN}, {"max", ISA_M_VMAX}, {"po", ISA_M_PO}, {"shr7", ISA_M_SHR7},
    {"shr15", ISA_M_SHR15},
};
static const char *const rndtab[] = {"", "rn", "rz", "rm", "rp", "rni", "rzi", "rmi", "rpi", "rna"};
static const char *const booltab[] = {"", "and", "or", "xor"};
static const char *const prmttab[] = {"", "f4e", "b4e", "rc8", "ecl", "ecr", "rc16"};
static const char *const packtab[] = {"", "u2", "s2", "u4", "s4", "u8", "s8", "u16", "s16"};
static const unsigned packbits[] = {0, 2, 2, 4, 4, 8, 8, 16, 16};
static const char *const testptab[] = { "",           "finite", "infinite", "number",
                                        "notanumber", "normal", "subnormal" };

static int cmp_parse(const char *s)
{
    for (int i = 1; i < ISA_CMP_COUNT; i++)
        if (!strcmp(cmptab[i].name, s)) return i;
    return 0;
}
static int find(const char *const *tab, int n, const char *s)
{
    for (int i = 1; i < n; i++)
        if (!strcmp(tab[i], s)) return i;
    return 0;
}
#define FIND(tab, s) find(tab, (int)(sizeof tab / sizeof tab[0]), s)
static uint32_t modbit(const char *s)
{
    for (size_t i = 0; i < sizeof modtab / sizeof modtab[0]; i++)
        if (!strcmp(modtab[i].s, s)) return modtab[i].m;
    return 0;
}
/* Same-width bit-size type (s64 -> b64), for bare mnemonics like "popc" in the litmus dialect. */
static isa_type bit_type(isa_type t)
{
    switch (tinfo[t].bits) {
    case 16: return ISA_T_B16;
    case 32: return ISA_T_B32;
    case 64: return ISA_T_B64;
    default: return ISA_T_NONE;
    }
}

/* try_entry, phase 1: the words after the name against entry e: its selecting mode, comparison,
 * BoolOp, prmt mode, testp property, cvt.pack width, rounding, types (into ty/nty), modifiers.
 * Returns 0, -1 (a rule of an entry that fits) or -2 (the entry does not fit). */
static int entry_words(const isa_opinfo *e, char **tok, int ntok, isa_insn *x, isa_type ty[3],
                       int *nty, char *err, size_t errlen)
{
    int have_mode = 0;
    for (int i = 0; i < ntok; i++) {
        const char *t = tok[i];
        int k;
        isa_type tt;
        if (e->mode && !strcmp(t, e->mode)) { have_mode = 1; x->mods |= modbit(t); continue; }
        if ((e->flags & F_CMP) && (k = cmp_parse(t))) {
            if (x->cmp) return seterr(err, errlen, "%s: two comparison operators", e->name), -1;
            x->cmp = k;
            continue;
        }
        if ((e->flags & F_BOOL) && (k = FIND(booltab, t))) { x->boolop = k; continue; }
        if ((e->flags & F_PRMT) && (k = FIND(prmttab, t))) { x->aux = k; continue; }
        if ((e->flags & F_TESTP) && (k = FIND(testptab, t))) { x->aux = k; continue; }
        if ((e->flags & F_CVTPACK) && !x->aux && (k = FIND(packtab, t))) {
            x->aux = (int)(packbits[k] | (t[0] == 's' ? 0x100u : 0));
            continue;
        }
        if ((k = FIND(rndtab, t))) {
            int fr = k <= ISA_RND_RP, ir = k >= ISA_RND_RNI && k <= ISA_RND_RPI,
                na = k == ISA_RND_RNA;
            if (!((fr && (e->flags & F_FRND)) || (ir && (e->flags & F_IRND)) ||
                  (na && (e->flags & F_RNA))))
                return seterr(err, errlen, "%s: rounding modifier .%s not allowed", e->name, t), -2;
            x->rnd = k;
            continue;
        }
        if ((tt = isa_type_parse(t)) != ISA_T_NONE) {
            if (*nty == 3) return seterr(err, errlen, "%s: too many types", e->name), -1;
            ty[(*nty)++] = tt;
            continue;
        }
        uint32_t m = modbit(t);
        if (m && (m & e->mods)) { x->mods |= m; continue; }
        return seterr(err, errlen, "%s: modifier .%s not allowed", e->name, t), -2;
    }
    if (e->mode && !have_mode) return seterr(err, errlen, "%s needs .%s", e->name, e->mode), -2;
    return 0;
}

/* try_entry, phase 2: the types written (one, .dtype.atype, or .dtype.atype.btype; a bare
 * mnemonic takes deftype, or the bit-size type of its width) against the entry's type sets. */
static int entry_types(const isa_opinfo *e, isa_insn *x, isa_type ty[3], int nty, isa_type deftype,
                       char *err, size_t errlen)
{
    if (e->flags & F_THREE) {
        if (nty != 3)
            return seterr(err, errlen, "%s needs three types (.dtype.atype.btype)", e->name), -1;
        x->type = ty[0], x->type2 = ty[1], x->type3 = ty[2];
    } else if (e->flags & F_TWO) {
        if (nty != 2) return seterr(err, errlen, "%s needs two types (.dtype.atype)", e->name), -1;
        x->type = ty[0], x->type2 = ty[1];
    } else {
        if (nty >= 2) return seterr(err, errlen, "%s takes one type", e->name), -1;
        if (nty == 0) {
            ty[0] = deftype;
            if (!(e->types & TB(deftype)) && (e->types & TB(bit_type(deftype))))
                ty[0] = bit_type(deftype);
        }
        x->type = x->type2 = ty[0];
    }
    uint32_t t2 = e->types2 ? e->types2 : e->types;
    if ((e->flags & F_THREE) && !(t2 & TB(x->type3)))
        return seterr(err, errlen, "%s: type .%s not allowed", e->name, isa_type_name(x->type3)),
               -2;
    if (!(e->types & TB(x->type)) || !(t2 & TB(x->type2)))
        return seterr(err, errlen, "%s: type .%s not allowed", e->name,
                      isa_type_name(!(e->types & TB(x->type)) ? x->type : x->type2)), -2;
    return 0;
}

/* Video (§9.7.16): the rules of the forms, and the default selectors of the SIMD forms (a: .h10 /
 * .b3210, b: .h32 / .b7654, mask: every element). */
static int video_rules(const isa_opinfo *e, isa_insn *x, char *err, size_t errlen)
{
    uint32_t m = x->mods;
    if ((e->flags & (F_V2 | F_V4)) && (m & ISA_M_SAT) && (m & ISA_M_ADD))
        return seterr(err, errlen, "%s: .sat does not combine with .add (§9.7.16.2)", e->name), -1;
    if (!!(m & ISA_M_ADD) + !!(m & ISA_M_VMIN) + !!(m & ISA_M_VMAX) > 1)
        return seterr(err, errlen, "%s: one secondary operation (.add, .min or .max)", e->name),
               -1;
    if ((m & ISA_M_SHR7) && (m & ISA_M_SHR15))
        return seterr(err, errlen, "vmad: one scale (.shr7 or .shr15) (§9.7.16.1.3)"), -1;
    if ((e->flags & F_VSH) && x->type3 != ISA_T_U32)
        return seterr(err, errlen, "%s: the shift amount type is .u32 (§9.7.16.1.2)", e->name), -1;
    if (x->cmp > ISA_CMP_GE)
        return seterr(err, errlen, "%s: .%s is not a video comparison (eq ne lt le gt ge, §9.7.16)",
                      e->name, cmptab[x->cmp].name),
               -1;
    if (e->flags & F_V2) x->asel = 0 | 1 << 3, x->bsel = 2 | 3 << 3, x->dsel = 3;
    if (e->flags & F_V4)
        x->asel = 0 | 1 << 3 | 2 << 6 | 3 << 9, x->bsel = 4 | 5 << 3 | 6 << 6 | 7 << 9,
        x->dsel = 0xf;
    return 0;
}

/* try_entry, phase 3: the rules of the entry's flags and of floating point (fp_rules). */
static int entry_rules(const isa_opinfo *e, isa_insn *x, char *err, size_t errlen)
{
    if ((e->flags & F_CMP) && !x->cmp)
        return seterr(err, errlen, "%s needs a comparison operator", e->name), -1;
    if (x->cmp) {
        int flt = isa_type_is_float(x->type2), bit = x->type2 >= ISA_T_B8 && x->type2 <= ISA_T_B128;
        const char *c = cmptab[x->cmp].name;
        if (cmptab[x->cmp].fonly && !flt)
            return seterr(err, errlen, "%s.%s needs a float type (§9.7.5)", e->name, c), -1;
        if (cmptab[x->cmp].ionly && flt)
            return seterr(err, errlen, "%s.%s needs an integer type (§9.7.5)", e->name, c), -1;
        if (bit && x->cmp != ISA_CMP_EQ && x->cmp != ISA_CMP_NE)
            return seterr(err, errlen, "%s.%s: bit-size types allow only eq/ne (§9.7.5)", e->name,
                          c),
                   -1;
    }
    if ((e->flags & F_BOOLDST) && x->boolop) x->mods |= ISA_M_PAIR;
    if ((e->flags & (F_VS | F_V2 | F_V4 | F_VNEG)) && video_rules(e, x, err, errlen)) return -1;
    if ((e->flags & F_SATS32) && (x->mods & ISA_M_SAT) && x->type != ISA_T_S32)
        return seterr(err, errlen, "%s: .sat applies only to .s32", e->name), -1;
    if ((e->flags & F_CW) && !!(x->mods & ISA_M_CLAMP) + !!(x->mods & ISA_M_WRAP) != 1)
        return seterr(err, errlen, "%s needs exactly one of .clamp/.wrap", e->name), -1;
    if ((e->flags & F_CVTPACK) &&
        (!(x->mods & ISA_M_SAT) || !x->aux || ((x->aux & 0xff) == 16) != (e->nsrc == 2)))
        return seterr(err, errlen,
                      "cvt.pack needs .sat and .u16/.s16.s32 or .{u2,s2,u4,s4,u8,s8}.s32.b32 "
                      "(§9.7.8.21)"),
               -1;
    if ((e->flags & F_TESTP) && !x->aux)
        return seterr(err, errlen, "%s needs a property (.finite ...)", e->name), -1;
    if ((e->flags & F_RNDREQ32) && x->type == ISA_T_F32 && !x->rnd &&
        !(x->mods & (ISA_M_APPROX | ISA_M_FULL)))
        return seterr(err, errlen, "%s.f32 needs .approx, .full or a rounding modifier (§9.7.3)",
                      e->name),
               -1;
    if (e->cls == PURE && fp_check && fp_check(x, err, errlen)) return -1;
    return 0;
}

/* Try to decode the modifier words tok[0..ntok-1] against table entry op: 0 and *out, or -1 (a
 * rule broken by an entry that fits) or -2 (the entry does not fit) with a reason. */
static int try_entry(int op, char **tok, int ntok, isa_type deftype, isa_insn *out, char *err,
                     size_t errlen)
{
    const isa_opinfo *e = &isa_ops[op];
    isa_insn x = {0};
    isa_type ty[3] = {ISA_T_NONE, ISA_T_NONE, ISA_T_NONE};
    int nty = 0, r;
    x.op = op;
    if ((r = entry_words(e, tok, ntok, &x, ty, &nty, err, errlen)) ||
        (r = entry_types(e, &x, ty, nty, deftype, err, errlen)) ||
        (r = entry_rules(e, &x, err, errlen)))
        return r;
    *out = x;
    return 0;
}

/* isa_decode: the tokenizer (ptx/mnemonic.c) checks the words and finds the opcode-table row;
 * only register computations (kinds ALU and CARRY) are decoded here.  Then every entry of
 * isa_ops[] with the base's first word as name is tried with the words after it ("add.cc.u32":
 * name "add", words cc, u32): the first that fits wins; the error of the entry that came
 * closest is reported otherwise. */
int isa_decode(const char *mnemonic, isa_type default_type, isa_insn *out, char *err, size_t errlen)
{
    if (!mnemonic) return seterr(err, errlen, "bad mnemonic"), -1;
    while (*mnemonic == ' ' || *mnemonic == '\t') mnemonic++;
    size_t len = strlen(mnemonic);
    ptx_mnemonic m;
    ptx_mn_error me;
    if (ptx_mnemonic_parse(mnemonic, len, &m, &me)) return seterr(err, errlen, "%s", me.msg), -1;
    const ptx_opinfo *row = &ptx_ops[m.op];
    if (row->kind != PTX_K_ALU && row->kind != PTX_K_CARRY)
        return seterr(err, errlen, "%s is not a register computation (%s, §%s)", row->mnemonic,
                      ptx_kinds[row->kind].doc, row->section), -1;
    char buf[160], *tok[PTX_MN_MAXQ + 4];
    int ntok = 0;
    if (len >= sizeof buf) return seterr(err, errlen, "a mnemonic of %zu characters", len), -1;
    memcpy(buf, mnemonic, len + 1);
    for (char *p = strchr(buf, '.'); p; p = strchr(p, '.')) {   /* words after the first */
        *p++ = 0;
        if (ntok == (int)(sizeof tok / sizeof tok[0]))
            return seterr(err, errlen, "too many words"), -1;
        tok[ntok++] = p;
    }
    int best = -3;
    char first[160] = "";
    for (int i = 0; i < isa_nops; i++) {
        if (strcmp(isa_ops[i].name, buf) || (isa_ops[i].flags & F_VEC)) continue;
        char e[160] = "";
        int r = try_entry(i, tok, ntok, default_type, out, e, sizeof e);
        if (r == 0) return 0;
        /* report the first rule violation (-1) of an entry that fitted, else the first misfit */
        if (r > best) best = r, snprintf(first, sizeof first, "%s", e);
    }
    return seterr(err, errlen, "%s", first), -1;
}

/* ================================================================ queries and evaluation */

int isa_class(const isa_insn *in)
{
    return (in && in->op >= 0 && in->op < isa_nops) ? isa_ops[in->op].cls : ISA_CLASS_OTHER;
}
/* Width of source operand k as the instruction reads it: the shift amount of shl/shr and the
 * position and length of bfe/bfi are .u32 (§9.7.7.7, §9.7.1.16, §9.7.1.17), cvt reads its
 * second type, the addend of .wide the doubled width, a predicate operand one bit; otherwise
 * the instruction's type (or its second type when wider, as set/setp compare it). */
unsigned isa_src_bits(const isa_insn *in, int k)
{
    const char *op = isa_op_name(in);
    unsigned t = isa_type_bits(in->type), t2 = isa_type_bits(in->type2);
    if ((!strcmp(op, "shl") || !strcmp(op, "shr")) && k == 1) return 32;
    if (!strcmp(op, "bfe") && k >= 1) return 32;
    if (!strcmp(op, "bfi") && k >= 2) return 32;
    if (!strcmp(op, "selp") && k == 2) return 1;
    /* §9.7.5.4 slct.dtype.{s32,f32} d, a, b, c: "operand c must match the second instruction
       type (.s32 or .f32)" (slct.u16.s32 must not cut c to 16 bits) */
    if (!strcmp(op, "slct") && k == 2) return t2;
    if (!strcmp(op, "cvt") || !strcmp(op, "set") || !strcmp(op, "setp")) return t2 ? t2 : t;
    if ((in->mods & ISA_M_WIDE) && k == 2) return 2 * t;
    return t ? t : 64;
}

/* The type of destination k: the instruction's type unless the ISA gives the destination its
   own (the litmus checker reads a register as the type its instruction writes it with). */
isa_type isa_dst_type(const isa_insn *in, int k)
{
    const char *op = isa_op_name(in);
    isa_type t = in->type;
    /* §9.7.5.2 setp, §9.7.6.2 setp (half), §9.7.3.1 testp: predicates; the second destination
       of setp/lop3 (p|q, d|p, §9.7.7.6) is a predicate */
    if (!strcmp(op, "setp") || !strcmp(op, "testp") || (k == 1 && !strcmp(op, "lop3")))
        return ISA_T_PRED;
    /* §9.7.8.4 mov unpack {d0, d1, ...}, a: bit-size elements of the type's width / count */
    if (!strcmp(op, "mov") && isa_ndst(in) > 1) {
        unsigned eb = isa_type_bits(t) / (unsigned)isa_ndst(in);
        return eb == 8 ? ISA_T_B8 : eb == 16 ? ISA_T_B16 : eb == 32 ? ISA_T_B32 : ISA_T_B64;
    }
    /* §9.7.1.14 popc, §9.7.1.15 clz, §9.7.1.16 bfind: "destination d has type .u32" */
    if (!strcmp(op, "popc") || !strcmp(op, "clz") || !strcmp(op, "bfind")) return ISA_T_U32;
    /* §9.7.1.23 dp4a, §9.7.1.24 dp2a: d = c, and "operand c has type .u32 if both .atype and
       .btype are .u32 else operand c has type .s32" */
    if (!strcmp(op, "dp4a") || !strcmp(op, "dp2a"))
        return t == ISA_T_U32 && in->type2 == ISA_T_U32 ? ISA_T_U32 : ISA_T_S32;
    /* §9.7.8.21 cvt.pack: "Destination d is an unsigned 32-bit integer" */
    if (isa_ops[in->op].flags & F_CVTPACK) return ISA_T_U32;
    /* §9.7.1.3 mul.wide, §9.7.1.4 mad.wide: d is twice as wide as the sources */
    if (in->mods & ISA_M_WIDE) {
        static const isa_type w[][2] = { { ISA_T_U16, ISA_T_U32 }, { ISA_T_S16, ISA_T_S32 },
                                         { ISA_T_U32, ISA_T_U64 }, { ISA_T_S32, ISA_T_S64 } };
        for (size_t i = 0; i < sizeof w / sizeof *w; i++)
            if (w[i][0] == t) return w[i][1];
    }
    return t;
}

const char *isa_op_name(const isa_insn *in)
{
    return (in && in->op >= 0 && in->op < isa_nops) ? isa_ops[in->op].name : "";
}
int isa_ndst(const isa_insn *in)
{
    return isa_ops[in->op].ndst + ((in->mods & ISA_M_PAIR) ? 1 : 0);
}
int isa_nsrc(const isa_insn *in)
{
    const isa_opinfo *e = &isa_ops[in->op];
    int c = (e->flags & F_VS) && (in->mods & (ISA_M_ADD | ISA_M_VMIN | ISA_M_VMAX | ISA_M_VMERGE));
    return e->nsrc + (in->boolop ? 1 : 0) + c;
}

int isa_is_video(const isa_insn *in)
{
    return in && in->op >= 0 && in->op < isa_nops &&
           (isa_ops[in->op].flags & (F_VS | F_V2 | F_V4 | F_VNEG));
}
/* The digits of a selector "h10" / "b3210" after its letter: 0, the count, or -1 when a digit
 * exceeds max; out[k] is the k-th digit from the right (element k). */
static int sel_digits(const char *s, int max, unsigned out[4])
{
    int n = (int)strlen(s);
    if (n < 1 || n > 4) return -1;
    for (int k = 0; k < n; k++) {
        int c = s[n - 1 - k] - '0';
        if (c < 0 || c > max) return -1;
        out[k] = (unsigned)c;
    }
    return n;
}
int isa_video_select(isa_insn *in, int opnd, const char *sel, char *err, size_t errlen)
{
    if (!isa_is_video(in) || !sel || opnd < 0 || opnd > 2)
        return seterr(err, errlen, "a selector on an operand of a non-video instruction"), -1;
    const isa_opinfo *e = &isa_ops[in->op];
    unsigned dg[4];
    int n = sel[0] ? sel_digits(sel + 1, e->flags & F_V4 ? 7 : 3, dg) : -1;
    if (e->flags & (F_VS | F_VNEG)) {
        static const char *const codes[] = { "", "b0", "b1", "b2", "b3", "h0", "h1" };
        int k = FIND(codes, sel);
        if (!k || (opnd == 0 && (e->flags & F_VNEG)))
            return seterr(err, errlen, "%s: selector .%s, expected %s (§9.7.16.1)", e->name, sel,
                          opnd == 0 && (e->flags & F_VNEG) ? "none on d"
                                                          : ".b0 .b1 .b2 .b3 .h0 or .h1"), -1;
        if (opnd == 1) in->asel = (uint16_t)k;
        else if (opnd == 2) in->bsel = (uint16_t)k;
        else {
            if (in->mods & (ISA_M_ADD | ISA_M_VMIN | ISA_M_VMAX))
                return seterr(err, errlen, "%s: d.%s merges into c and does not combine with a "
                              "secondary operation (§9.7.16.1)", e->name, sel), -1;
            in->dsel = (uint8_t)k;
            in->mods |= ISA_M_VMERGE;
        }
        return 0;
    }
    unsigned ne = (e->flags & F_V4) ? 4 : 2;
    char letter = ne == 4 ? 'b' : 'h';
    if (sel[0] != letter || n < 0 || (opnd > 0 && n != (int)ne) ||
        (opnd == 0 && dg[0] >= ne) )
        return seterr(err, errlen, "%s: selector .%s, expected %s (§9.7.16.2)", e->name, sel,
                      opnd > 0 ? (ne == 4 ? ".bxyzw, digits 0..7" : ".hxy, digits 0..3")
                               : (ne == 4 ? "a mask .b0 ... .b3210" : ".h0, .h1 or .h10")), -1;
    if (opnd == 0) {
        uint8_t mask = 0;
        for (int k = 0; k < n; k++) {
            if (dg[k] >= ne)
                return seterr(err, errlen, "%s: mask .%s names element %u (§9.7.16.2)", e->name,
                              sel, dg[k]), -1;
            mask |= (uint8_t)(1u << dg[k]);
        }
        in->dsel = mask;
        return 0;
    }
    uint16_t v = 0;
    for (unsigned k = 0; k < ne; k++) v |= (uint16_t)(dg[k] << (3 * k));
    if (opnd == 1) in->asel = v;
    else in->bsel = v;
    return 0;
}
int isa_video_negate(isa_insn *in, int opnd, char *err, size_t errlen)
{
    if (!isa_is_video(in) || !(isa_ops[in->op].flags & F_VNEG) || opnd < 1 || opnd > 3)
        return seterr(err, errlen, "only the sources of vmad may be negated (§9.7.16.1.3)"), -1;
    if (in->mods & ISA_M_PO)
        return seterr(err, errlen, "vmad.po: sources may not be negated (§9.7.16.1.3)"), -1;
    if (opnd < 3) in->mods ^= ISA_M_NEGP;
    else if (in->mods & ISA_M_NEGP)
        return seterr(err, errlen, "vmad: negate the product or c, not both (§9.7.16.1.3)"), -1;
    else in->mods |= ISA_M_NEGC;
    return 0;
}
void isa_set_pair(isa_insn *in)
{
    if (isa_ops[in->op].flags & F_BOOLDST) in->mods |= ISA_M_PAIR;
}

int isa_mov_vector(isa_insn *in, int unpack, int nelem, char *err, size_t errlen)
{
    if (!in || in->op < 0 || in->op >= isa_nops || strcmp(isa_ops[in->op].name, "mov") ||
        (isa_ops[in->op].flags & F_VEC))
        return seterr(err, errlen, "isa_mov_vector: not a decoded scalar mov"), -1;
    if (in->type != ISA_T_B16 && in->type != ISA_T_B32 && in->type != ISA_T_B64)
        return seterr(err, errlen,
                      "mov pack/unpack: type .%s not modelled (.b16/.b32/.b64; .b128 does not fit "
                      "the 64-bit value model) (§9.7.8.4)",
                      isa_type_name(in->type)),
               -1;
    if (nelem != 2 && nelem != 4)
        return seterr(err, errlen, "mov pack/unpack: %d elements (2 or 4, §9.7.8.4)", nelem), -1;
    if (BITS(in) / (unsigned)nelem < 8)
        return seterr(err, errlen, "mov.b16 packs two 8-bit elements (§9.7.8.4)"), -1;
    for (int i = 0; i < isa_nops; i++) {
        const isa_opinfo *e = &isa_ops[i];
        if (!(e->flags & F_VEC) || !(e->types & TB(in->type)) ||
            (unpack ? e->ndst : e->nsrc) != nelem || strcmp(e->mode, unpack ? "unpack" : "pack"))
            continue;
        in->op = i;
        in->aux = nelem;
        return 0;
    }
    return seterr(err, errlen, "mov pack/unpack: no entry"), -1;
}

int isa_eval(const isa_insn *in, const uint64_t *src, uint64_t *dst, char *err, size_t errlen)
{
    if (!in || in->op < 0 || in->op >= isa_nops) return seterr(err, errlen, "bad instruction"), -1;
    const isa_opinfo *e = &isa_ops[in->op];
    if (e->cls == CARRY)
        return seterr(err, errlen,
                      "%s: reads/writes the carry flag CC.CF (§9.7.2); use isa_eval_cc", e->name),
               -1;
    if (!e->eval) return seterr(err, errlen, "%s: no semantics function", e->name), -1;
    e->eval(in, dst, src);
    return 0;
}

int isa_eval_cc(const isa_insn *in, const uint64_t *src, uint64_t *dst, uint32_t *cc, char *err,
                size_t errlen)
{
    if (!in || in->op < 0 || in->op >= isa_nops) return seterr(err, errlen, "bad instruction"), -1;
    const isa_opinfo *e = &isa_ops[in->op];
    if (e->cls == CARRY) return carry_eval(in, e->name, src, dst, cc);
    return isa_eval(in, src, dst, err, errlen);
}

/* ================================================================ atomics §9.7.12.5 */

static const char *const atomtab[ISA_ATOM_COUNT] = { "",    "add", "sub", "exch", "cas",
                                                     "and", "or",  "xor", "min",  "max",
                                                     "inc", "dec", "mul", "div" };
isa_atom_op isa_atom_parse(const char *name)
{
    if (!name) return ISA_ATOM_NONE;
    if (*name == '.') name++;
    return (isa_atom_op)FIND(atomtab, name);
}
const char *isa_atom_name(isa_atom_op op)
{
    return (unsigned)op < ISA_ATOM_COUNT ? atomtab[op] : "";
}

/* atom semantics (§9.7.12.5):  inc(r, s) = (r >= s) ? 0 : r+1;  dec(r, s) = (r == 0 || r > s) ? s :
 * r-1; exch(r, s) = s;  cas(r, s, t) = (r == s) ? t : r.  inc/dec compare unsigned (they are .u32).
 */
int isa_atom_apply(isa_atom_op op, isa_type t, uint64_t old, uint64_t b, uint64_t c, uint64_t *newv)
{
    if (t == ISA_T_NONE) t = ISA_T_S64;
    if ((unsigned)t >= ISA_T_COUNT) return -1;
    if (tinfo[t].flt) return atom_float(op, t, old, b, c, newv);
    unsigned n = tinfo[t].bits > 64 ? 64 : tinfo[t].bits;
    uint64_t m = wmask(n), r;
    old &= m, b &= m, c &= m;
    uint64_t xo = ext(t, old), xb = ext(t, b);
    switch (op) {
    case ISA_ATOM_ADD: r = old + b; break;
    case ISA_ATOM_SUB: r = old - b; break;               /* litmus dialect: add of -b */
    case ISA_ATOM_EXCH: r = b; break;
    case ISA_ATOM_CAS:
        if (old != b) { *newv = old; return 0; }
        r = c;
        break;
    case ISA_ATOM_AND: r = old & b; break;
    case ISA_ATOM_OR: r = old | b; break;
    case ISA_ATOM_XOR: r = old ^ b; break;
    case ISA_ATOM_MIN: r = lt_t(t, xb, xo) ? b : old; break;
    case ISA_ATOM_MAX: r = lt_t(t, xo, xb) ? b : old; break;
    case ISA_ATOM_INC: r = old >= b ? 0 : old + 1; break;
    case ISA_ATOM_DEC: r = (old == 0 || old > b) ? b : old - 1; break;
    case ISA_ATOM_MUL: r = old * b; break; /* litmus dialect (Dat3M IntBinaryOp.MUL) */
    case ISA_ATOM_DIV:                                   /* litmus dialect: Dat3M's signed DIV */
        if (!xb) r = m; /* x / 0: all ones, as SMT-LIB's bvsdiv for x >= 0 */
        else if (n == 64 && xo == (uint64_t)INT64_MIN && xb == ~0ull) r = old;
        else r = tinfo[t].sgn ? (uint64_t)((int64_t)xo / (int64_t)xb) : old / b;
        break;
    default: return -1;
    }
    *newv = r & m;
    return 1;
}
