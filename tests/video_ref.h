/* tests/video_ref.h — a C reference for the PTX video instructions (ISA 8.4 §9.7.16), written
 * from the pseudocode of the ISA text independently of ptx/isa.c, and a generator of random
 * instruction forms (mnemonic, operand selectors, vmad negations) for the tests that compare the
 * two: tests/test_isa.c (isa_decode + isa_video_select + isa_eval) and tests/test_exec_insn.c
 * (the same forms as PTX text, through the executor's loader).
 *
 * Where the ISA text leaves something open, the reference states the reading it takes (the same
 * as ptx/isa.c, documented in docs/executor.md): vshl keeps the low 34 bits of the shifted
 * value (the text's ".s34 intermediate"), and vset2/vset4 merge the positions outside the mask
 * from c (the pseudocode; the description says b). */
#ifndef TESTS_VIDEO_REF_H
#define TESTS_VIDEO_REF_H
#include <stdint.h>
#include <stdio.h>
#include <string.h>

enum { VR_ADD, VR_SUB, VR_ABSDIFF, VR_MIN, VR_MAX, VR_SHL, VR_SHR, VR_MAD, VR_SET, VR_AVRG };
typedef struct {
    const char *name;
    int op, n; /* n: 1 scalar, 2 or 4 SIMD */
} vref_insn;
static const vref_insn vref_insns[] = {
    { "vadd", VR_ADD, 1 },       { "vsub", VR_SUB, 1 },       { "vabsdiff", VR_ABSDIFF, 1 },
    { "vmin", VR_MIN, 1 },       { "vmax", VR_MAX, 1 },       { "vshl", VR_SHL, 1 },
    { "vshr", VR_SHR, 1 },       { "vmad", VR_MAD, 1 },       { "vset", VR_SET, 1 },
    { "vadd2", VR_ADD, 2 },      { "vsub2", VR_SUB, 2 },      { "vavrg2", VR_AVRG, 2 },
    { "vabsdiff2", VR_ABSDIFF, 2 }, { "vmin2", VR_MIN, 2 },   { "vmax2", VR_MAX, 2 },
    { "vset2", VR_SET, 2 },      { "vadd4", VR_ADD, 4 },      { "vsub4", VR_SUB, 4 },
    { "vavrg4", VR_AVRG, 4 },    { "vabsdiff4", VR_ABSDIFF, 4 }, { "vmin4", VR_MIN, 4 },
    { "vmax4", VR_MAX, 4 },      { "vset4", VR_SET, 4 },
};
#define VREF_NINSNS ((int)(sizeof vref_insns / sizeof vref_insns[0]))

typedef struct {
    int insn;                /* index into vref_insns */
    int dsgn, asgn, bsgn;    /* .s32 (1) or .u32 (0) of dtype, atype, btype (vset: a, b) */
    int sat, sec;            /* sec: 0 none, 1 .add, 2 .min, 3 .max (SIMD: 1 = .add) */
    int cmp;                 /* 0 eq 1 ne 2 lt 3 le 4 gt 5 ge */
    int wrap;                /* vshl/vshr: .wrap (1) or .clamp (0) */
    int po, scale, nega, negb, negc; /* vmad; scale 0, 7 or 15 */
    int dsel, asel, bsel;    /* scalar: -1 none, 0..3 .b0-.b3, 4/5 .h0/.h1 */
    unsigned sa[4], sb[4], mask; /* SIMD: source element of element i, mask bits */
} vref;

static const char *const vref_cmps[] = { "eq", "ne", "lt", "le", "gt", "ge" };
static const char *const vref_ssel[] = { "b0", "b1", "b2", "b3", "h0", "h1" };

/* partSelectSignExtend (§9.7.16.1) */
static inline int64_t vref_part(uint32_t v, int sgn, int sel)
{
    if (sel < 0) return sgn ? (int64_t)(int32_t)v : (int64_t)v;
    if (sel < 4) {
        uint32_t x = (v >> (8 * sel)) & 0xff;
        return sgn ? (int64_t)(int8_t)(uint8_t)x : (int64_t)x;
    }
    uint32_t x = (v >> (16 * (sel - 4))) & 0xffff;
    return sgn ? (int64_t)(int16_t)(uint16_t)x : (int64_t)x;
}
static inline int vref_cmp(int cmp, int64_t a, int64_t b)
{
    return cmp == 0 ? a == b : cmp == 1 ? a != b : cmp == 2 ? a < b : cmp == 3 ? a <= b
                                                   : cmp == 4 ? a > b : a >= b;
}
static inline int64_t vref_clamp(int64_t t, int64_t lo, int64_t hi)
{
    if (t > hi) return hi;
    if (t < lo) return lo;
    return t;
}

static inline uint32_t vref_mad(const vref *v, uint32_t a, uint32_t b, uint32_t c)
{
    /* §9.7.16.1.3 Semantics, line by line, with what an H100 does instead (tests/kernels/gpu/
       video_ops.bin): a signed multiply takes both 32-bit values as signed, c is always
       sign-extended */
    int64_t ta = vref_part(a, v->asgn, v->asel), tb = vref_part(b, v->bsgn, v->bsel);
    if (v->asgn || v->bsgn) ta = (int32_t)(uint32_t)ta, tb = (int32_t)(uint32_t)tb;
    int signedFinal = v->asgn || v->bsgn || (v->nega ^ v->negb) || v->negc;
    __int128 tmp = (__int128)ta * (__int128)tb;
    int lsb = 0;
    uint32_t cc = c;
    if (v->po) lsb = 1;
    else if (v->nega ^ v->negb) { tmp = ~tmp; lsb = 1; }
    else if (v->negc) { cc = ~cc; lsb = 1; }
    __int128 c128 = (__int128)(int32_t)cc;
    tmp = tmp + c128 + lsb;
    if (v->scale)
        tmp = tmp / ((__int128)1 << v->scale) - (tmp < 0 && tmp % ((__int128)1 << v->scale) != 0);
    if (v->sat) {
        if (signedFinal) tmp = tmp > INT32_MAX ? INT32_MAX : tmp < INT32_MIN ? INT32_MIN : tmp;
        else tmp = tmp > UINT32_MAX ? UINT32_MAX : tmp < 0 ? 0 : tmp;
    }
    return (uint32_t)(uint64_t)tmp;
}

static inline uint32_t vref_scalar(const vref *v, uint32_t a, uint32_t b, uint32_t c)
{
    int op = vref_insns[v->insn].op;
    if (op == VR_MAD) return vref_mad(v, a, b, c);
    int64_t ta = vref_part(a, v->asgn, v->asel);
    int64_t tb = vref_part(b, op == VR_SHL || op == VR_SHR ? 0 : v->bsgn, v->bsel), tmp;
    if (op == VR_SHL || op == VR_SHR) {
        if (!v->wrap && tb > 32) tb = 32;
        if (v->wrap) tb = tb & 0x1f;
    }
    switch (op) {
    case VR_ADD: tmp = ta + tb; break;
    case VR_SUB: tmp = ta - tb; break;
    case VR_ABSDIFF: tmp = ta - tb < 0 ? tb - ta : ta - tb; break;
    case VR_MIN: tmp = ta < tb ? ta : tb; break;
    case VR_MAX: tmp = ta < tb ? tb : ta; break;
    case VR_SHL: { /* the .s34 intermediate: low 34 bits, sign-extended */
        __int128 w = (__int128)ta * ((__int128)1 << tb);
        uint64_t lo34 = (uint64_t)w & ((1ull << 34) - 1);
        tmp = (lo34 >> 33) ? (int64_t)(lo34 | ~((1ull << 34) - 1)) : (int64_t)lo34;
        break;
    }
    case VR_SHR: /* sign fill: floor division by 2^tb */
        tmp = ta >= 0 ? ta / ((int64_t)1 << tb) : -((-ta + ((int64_t)1 << tb) - 1) >> tb);
        break;
    default: tmp = vref_cmp(v->cmp, ta, tb) ? 1 : 0; break;
    }
    int sign = op == VR_SET ? 0 : v->dsgn;
    if (v->sat) { /* optSaturate */
        if (v->dsel >= 0 && v->dsel < 4)
            tmp = sign ? vref_clamp(tmp, -128, 127) : vref_clamp(tmp, 0, 255);
        else if (v->dsel >= 4)
            tmp = sign ? vref_clamp(tmp, -32768, 32767) : vref_clamp(tmp, 0, 65535);
        else tmp = sign ? vref_clamp(tmp, INT32_MIN, INT32_MAX) : vref_clamp(tmp, 0, UINT32_MAX);
    }
    int64_t cv = sign ? (int64_t)(int32_t)c : (int64_t)c;
    if (v->sec == 1) tmp = tmp + cv;                       /* optSecOp */
    else if (v->sec == 2) tmp = tmp < cv ? tmp : cv;
    else if (v->sec == 3) tmp = tmp > cv ? tmp : cv;
    uint32_t t = (uint32_t)(uint64_t)tmp;
    switch (v->dsel) {                                     /* optMerge */
    case 4: return (t & 0xffff) | (0xffff0000u & c);
    case 5: return ((t & 0xffff) << 16) | (0x0000ffffu & c);
    case 0: return (t & 0xff) | (0xffffff00u & c);
    case 1: return ((t & 0xff) << 8) | (0xffff00ffu & c);
    case 2: return ((t & 0xff) << 16) | (0xff00ffffu & c);
    case 3: return ((t & 0xff) << 24) | (0x00ffffffu & c);
    default: return t;
    }
}

static inline uint32_t vref_simd(const vref *v, uint32_t a, uint32_t b, uint32_t c)
{
    int op = vref_insns[v->insn].op, n = vref_insns[v->insn].n, w = 32 / n;
    uint32_t em = n == 2 ? 0xffff : 0xff;
    uint8_t by[8];
    for (int k = 0; k < 4; k++)
        by[k] = (uint8_t)(a >> (8 * k)), by[4 + k] = (uint8_t)(b >> (8 * k));
    int asg = v->asgn, bsg = v->bsgn, dsg = op == VR_SET ? 0 : v->dsgn;
    int64_t t[4];
    for (int i = 0; i < n; i++) {
        uint32_t xa, xb;
        if (n == 2) {
            xa = (uint32_t)by[2 * v->sa[i]] | (uint32_t)by[2 * v->sa[i] + 1] << 8;
            xb = (uint32_t)by[2 * v->sb[i]] | (uint32_t)by[2 * v->sb[i] + 1] << 8;
        } else xa = by[v->sa[i]], xb = by[v->sb[i]];
        int64_t va = asg ? (n == 2 ? (int16_t)xa : (int8_t)xa) : (int64_t)xa;
        int64_t vb = bsg ? (n == 2 ? (int16_t)xb : (int8_t)xb) : (int64_t)xb;
        switch (op) {
        case VR_ADD: t[i] = va + vb; break;
        case VR_SUB: t[i] = va - vb; break;
        case VR_AVRG: {
            int64_t s = va + vb; /* >> of a negative value: floor */
            t[i] = s >= 0 ? (s + 1) / 2 : (s % 2 == 0) ? s / 2 : (s - 1) / 2;
            break;
        }
        case VR_ABSDIFF: t[i] = va > vb ? va - vb : vb - va; break;
        case VR_MIN: t[i] = va < vb ? va : vb; break;
        case VR_MAX: t[i] = va > vb ? va : vb; break;
        default: t[i] = vref_cmp(v->cmp, va, vb); break;
        }
        if (v->sat) {
            if (n == 2) t[i] = dsg ? vref_clamp(t[i], -32768, 32767) : vref_clamp(t[i], 0, 65535);
            else t[i] = dsg ? vref_clamp(t[i], -128, 127) : vref_clamp(t[i], 0, 255);
        }
    }
    uint32_t d;
    if (v->sec) {
        d = c;
        for (int i = 0; i < n; i++) d += (v->mask >> i & 1) ? (uint32_t)t[i] : 0;
    } else {
        d = 0;
        for (int i = 0; i < n; i++)
            d |= ((v->mask >> i & 1) ? ((uint32_t)t[i] & em) : ((c >> (w * i)) & em)) << (w * i);
    }
    return d;
}

static inline uint32_t vref_eval(const vref *v, uint32_t a, uint32_t b, uint32_t c)
{
    return vref_insns[v->insn].n == 1 ? vref_scalar(v, a, b, c) : vref_simd(v, a, b, c);
}

/* xorshift64 */
static inline uint64_t vref_rand(uint64_t *s)
{
    *s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
    return *s;
}
/* Operand values: edge values of every width, then random ones. */
static inline uint32_t vref_operand(uint64_t *s)
{
    static const uint32_t edge[] = { 0, 1, 2, 0x7f, 0x80, 0xff, 0x100, 0x7fff, 0x8000, 0xffff,
                                     0x10000, 0x7fffffff, 0x80000000u, 0xffffffffu, 0xfffffffeu,
                                     0x80808080u, 0x7f7f7f7fu, 0xff00ff00u, 0x00ff00ffu,
                                     0x8000ffffu, 31, 32, 33, 0x21, 0xffffffe0u };
    uint64_t r = vref_rand(s);
    if ((r & 3) == 0) return edge[(r >> 8) % (sizeof edge / sizeof edge[0])];
    if ((r & 3) == 1) return (uint32_t)(r >> 32) & 0x8181ffffu; /* lanes near the edges */
    return (uint32_t)(r >> 32);
}

/* A random valid form of instruction k. */
static inline void vref_random(vref *v, int k, uint64_t *s)
{
    memset(v, 0, sizeof *v);
    v->insn = k;
    int op = vref_insns[k].op, n = vref_insns[k].n;
    uint64_t r = vref_rand(s);
    v->dsgn = r & 1, v->asgn = r >> 1 & 1, v->bsgn = r >> 2 & 1;
    v->cmp = (int)((r >> 3) % 6);
    v->wrap = r >> 6 & 1;
    v->dsel = v->asel = v->bsel = -1;
    if (op == VR_SHL || op == VR_SHR) v->bsgn = 0;
    if (n == 1) {
        if (r >> 7 & 1) v->asel = (int)((r >> 8) % 6);
        if (r >> 11 & 1) v->bsel = (int)((r >> 12) % 6);
        if (op == VR_MAD) {
            v->sat = r >> 15 & 1;
            v->scale = (int)((r >> 16) % 3) == 1 ? 7 : (int)((r >> 16) % 3) == 2 ? 15 : 0;
            v->po = (r >> 18 & 3) == 0;
            if (!v->po) {
                v->nega = r >> 20 & 1, v->negb = r >> 21 & 1;
                v->negc = !(v->nega ^ v->negb) && (r >> 22 & 1);
            }
            return;
        }
        v->sat = op != VR_SET && (r >> 15 & 1);
        int form = (int)((r >> 16) % 5); /* 0 plain, 1-3 secondary op, 4 merge */
        if (form >= 1 && form <= 3) v->sec = form;
        if (form == 4) v->dsel = (int)((r >> 19) % 6);
        return;
    }
    int nsel = n == 2 ? 4 : 8;
    for (int i = 0; i < n; i++) {
        v->sa[i] = (r >> 8 & 1) ? (unsigned)(vref_rand(s) % (uint64_t)nsel) : (unsigned)i;
        v->sb[i] = (r >> 9 & 1) ? (unsigned)(vref_rand(s) % (uint64_t)nsel) : (unsigned)(n + i);
    }
    v->mask = (r >> 10 & 1) ? (unsigned)(vref_rand(s) % (uint64_t)(1u << n)) : (1u << n) - 1;
    if (!v->mask) v->mask = 1;
    v->sec = (r >> 14 & 3) == 0;
    v->sat = op != VR_SET && !v->sec && (r >> 16 & 1);
}

/* The form as PTX: mnemonic, and the selector suffixes of d, a, b ("" when none, without the
 * dot). */
static inline void vref_text(const vref *v, char mn[96], char sel[3][8])
{
    const vref_insn *ri = &vref_insns[v->insn];
    const char *ty[2] = { "u32", "s32" };
    int n = 0;
    if (ri->op == VR_SET)
        n = snprintf(mn, 96, "%s.%s.%s.%s", ri->name, ty[v->asgn], ty[v->bsgn], vref_cmps[v->cmp]);
    else
        n = snprintf(mn, 96, "%s.%s.%s.%s", ri->name, ty[v->dsgn], ty[v->asgn], ty[v->bsgn]);
    if (v->sat) n += snprintf(mn + n, (size_t)(96 - n), ".sat");
    if (ri->op == VR_SHL || ri->op == VR_SHR)
        n += snprintf(mn + n, (size_t)(96 - n), v->wrap ? ".wrap" : ".clamp");
    if (v->po) n += snprintf(mn + n, (size_t)(96 - n), ".po");
    if (v->scale) n += snprintf(mn + n, (size_t)(96 - n), ".shr%d", v->scale);
    static const char *const secs[] = { "", ".add", ".min", ".max" };
    n += snprintf(mn + n, (size_t)(96 - n), "%s", secs[v->sec]);
    for (int k = 0; k < 3; k++) sel[k][0] = 0;
    if (ri->n == 1) {
        if (v->dsel >= 0) snprintf(sel[0], 8, "%s", vref_ssel[v->dsel]);
        if (v->asel >= 0) snprintf(sel[1], 8, "%s", vref_ssel[v->asel]);
        if (v->bsel >= 0) snprintf(sel[2], 8, "%s", vref_ssel[v->bsel]);
        return;
    }
    char l = ri->n == 2 ? 'h' : 'b';
    int p = 0, q = 0, m = 0;
    sel[0][m++] = l, sel[1][p++] = l, sel[2][q++] = l;
    for (int i = ri->n - 1; i >= 0; i--) {
        sel[1][p++] = (char)('0' + v->sa[i]), sel[2][q++] = (char)('0' + v->sb[i]);
        if (v->mask >> i & 1) sel[0][m++] = (char)('0' + i);
    }
    sel[0][m] = sel[1][p] = sel[2][q] = 0;
}
/* The form of a PTX video instruction written as text ("vsub2.s32.s32.s32.sat %0.h0, %1.h10,
 * %2.h32, %3;"), read independently of the executor's loader: 0, or -1 when it is not one. */
static inline int vref_parse(const char *text, vref *v)
{
    char buf[160], *ops;
    snprintf(buf, sizeof buf, "%s", text);
    memset(v, 0, sizeof *v);
    v->dsel = v->asel = v->bsel = -1;
    if (!(ops = strchr(buf, ' '))) return -1;
    *ops++ = 0;
    char *w = strtok(buf, ".");
    v->insn = -1;
    for (int k = 0; k < VREF_NINSNS; k++)
        if (!strcmp(w, vref_insns[k].name)) v->insn = k;
    if (v->insn < 0) return -1;
    int n = vref_insns[v->insn].n, set = vref_insns[v->insn].op == VR_SET, nty = 0;
    int *tys[3] = { set ? &v->asgn : &v->dsgn, set ? &v->bsgn : &v->asgn, &v->bsgn };
    while ((w = strtok(NULL, "."))) {
        if (!strcmp(w, "u32") || !strcmp(w, "s32")) *tys[nty++] = w[0] == 's';
        else if (!strcmp(w, "sat")) v->sat = 1;
        else if (!strcmp(w, "add")) v->sec = 1;
        else if (!strcmp(w, "min")) v->sec = 2;
        else if (!strcmp(w, "max")) v->sec = 3;
        else if (!strcmp(w, "wrap")) v->wrap = 1;
        else if (!strcmp(w, "po")) v->po = 1;
        else if (!strcmp(w, "shr7")) v->scale = 7;
        else if (!strcmp(w, "shr15")) v->scale = 15;
        else {
            int c = -1;
            for (int k = 0; k < 6; k++)
                if (!strcmp(w, vref_cmps[k])) c = k;
            if (c < 0 && strcmp(w, "clamp")) return -1;
            if (c >= 0) v->cmp = c;
        }
    }
    if (n > 1) {
        for (int i = 0; i < n; i++) v->sa[i] = (unsigned)i, v->sb[i] = (unsigned)(n + i);
        v->mask = (1u << n) - 1;
    }
    int k = 0;
    for (char *o = strtok(ops, ",;"); o && k < 4; o = strtok(NULL, ",;"), k++) {
        while (*o == ' ') o++;
        if (*o == '-') {
            if (k == 1) v->nega = 1;
            if (k == 2) v->negb = 1;
            if (k == 3) v->negc = 1;
        }
        char *dot = strchr(o, '.');
        if (!dot || k == 3) continue;
        const char *sel = dot + 1;
        if (n == 1) {
            for (int q = 0; q < 6; q++)
                if (!strcmp(sel, vref_ssel[q]))
                    *(k == 0 ? &v->dsel : k == 1 ? &v->asel : &v->bsel) = q;
            continue;
        }
        int len = (int)strlen(sel + 1);
        if (k == 0) {
            v->mask = 0;
            for (int q = 0; q < len; q++) v->mask |= 1u << (sel[1 + q] - '0');
        } else
            for (int q = 0; q < len && q < n; q++)
                (k == 1 ? v->sa : v->sb)[q] = (unsigned)(sel[len - q] - '0');
    }
    return 0;
}
#endif
