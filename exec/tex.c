/* exec/tex.c — textures and surfaces: the texture and surface objects of a context (ISA §5.3
 * opaque types, created through include/ptxexec.h like cudaCreateTextureObject), the decoding
 * of the mnemonics of tex, tld4, txq, istypep (§9.7.9.3-6) and suld, sust, sured, suq
 * (§9.7.10.1-4), and their per-lane semantics:
 *   - texturing in unified mode (§9.7.9.1): the handle names texture and sampler together;
 *   - coordinates, filtering and addressing as the CUDA C++ Programming Guide's appendix
 *     "Texture Fetching" describes them (the ISA leaves them to "the texture HW class", §5.3):
 *     nearest-point sampling T[floor(x)], linear filtering with weights in 9-bit fixed point with
 *     8 fractional bits (the fraction of x - 0.5 rounded to the nearest 1/256), address modes
 *     wrap, clamp, mirror, border applied to texel indices;
 *   - mip level 0 only: .level and .grad read level 0 (no mipmapped resources exist here).
 * Exact choices the hardware makes and this file has to pick are listed in docs/executor.md
 * ("Textures and surfaces"). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "exec/exec_int.h"
#include "exec/tex.h"

/* ---------------------------------------------------------------- objects */
enum { TK_NONE, TK_TEX, TK_SURF };
typedef struct {
    int kind;                  /* TK_*; TK_NONE once destroyed */
    ptxeResourceDesc r;
    ptxeTextureDesc d;
    unsigned nch, cb, tb;      /* channels, bytes per channel, bytes per texel */
    int64_t w, h, dep, nl;     /* width, height (1: 1D), depth (1: not 3D), layers (1: none) */
    int dims;                  /* 1, 2, 3 */
    size_t pitch;
} tex_obj;
struct tex_table { tex_obj *v; int n, cap; };

#define TEXH_TAG 0x5e00000000000000ull   /* handles: tag | kind << 32 | index */
#define TEXH_MASK 0xffff000000000000ull

static int is_handle(uint64_t h) { return (h & TEXH_MASK) == TEXH_TAG; }

static const tex_obj *lookup(const ptxeCtx *c, uint64_t h, int kind)
{
    if (!is_handle(h) || !c->tex) return NULL;
    uint64_t i = h & 0xffffffffu;
    if ((int)((h >> 32) & 0xff) != kind || i >= (uint64_t)c->tex->n) return NULL;
    const tex_obj *o = &c->tex->v[i];
    return o->kind == kind ? o : NULL;
}

static ptxeResult bad(ptxeCtx *c, const char *what)
{
    snprintf(c->msg, sizeof c->msg, "invalid texture/surface description: %s", what);
    return PTXE_ERROR_INVALID_VALUE;
}

/* channel layout and extents of a resource; NULL or the reason it is malformed */
static const char *check_res(const ptxeCtx *c, const ptxeResourceDesc *r, tex_obj *o)
{
    const ptxeChannelFormatDesc *f = &r->fmt;
    int b = f->x, bits[4] = { f->x, f->y, f->z, f->w };
    unsigned n = 0;
    for (int k = 0; k < 4; k++)
        if (bits[k]) { if (bits[k] != b || k != (int)n) return "channels of different sizes"; n++; }
    if (b != 8 && b != 16 && b != 32) return "channel bits not 8, 16 or 32";
    if (n == 3) return "3 channels (1, 2 or 4 expected)";
    if (f->f == PTXE_FMT_FLOAT && b == 8) return "8-bit float channels";
    if (f->f < PTXE_FMT_SIGNED || f->f > PTXE_FMT_FLOAT) return "unknown channel kind";
    o->nch = n; o->cb = (unsigned)b / 8; o->tb = o->nch * o->cb;
    if (!r->width) return "width 0";
    int cube = (r->flags & PTXE_ARRAY_CUBEMAP) != 0, lay = (r->flags & PTXE_ARRAY_LAYERED) != 0;
    if (r->type != PTXE_RES_ARRAY && (r->flags || r->depth))
        return "flags or depth on linear memory";
    if (r->type == PTXE_RES_LINEAR && r->height) return "height on a linear resource";
    if (r->type == PTXE_RES_PITCH2D && !r->height) return "pitch2D resource without height";
    if (r->type > PTXE_RES_PITCH2D) return "unknown resource type";
    if (cube && (r->width != r->height || r->depth)) return "cubemap not square or with depth";
    if (lay && (r->depth || !r->layers)) return "layered array with depth or without layers";
    if (r->width > (1u << 30) || r->height > (1u << 30) || r->depth > (1u << 30) ||
        r->layers > (1u << 20))
        return "extent too large";
    o->w = (int64_t)r->width; o->h = r->height ? (int64_t)r->height : 1;
    o->dep = r->depth ? (int64_t)r->depth : 1;
    o->nl = (lay ? (int64_t)r->layers : 1) * (cube ? 6 : 1);
    o->dims = r->depth ? 3 : r->height ? 2 : 1;
    o->pitch = r->pitch ? r->pitch : (size_t)o->w * o->tb;
    if (o->pitch < (size_t)o->w * o->tb || o->pitch % o->tb) return "pitch too small or unaligned";
    if (r->data % o->tb) return "data not aligned to the texel size";
    uint64_t bytes = (uint64_t)o->pitch * (uint64_t)(o->h * o->dep * o->nl);
    if (!mem_find((ptxeCtx *)c, r->data, bytes)) return "data not inside one device allocation";
    return NULL;
}

static ptxeResult add_obj(ptxeCtx *c, const tex_obj *o, uint64_t *h)
{
    if (!c->tex && !(c->tex = calloc(1, sizeof *c->tex))) return PTXE_ERROR_OUT_OF_MEMORY;
    struct tex_table *t = c->tex;
    if (t->n == t->cap) {
        int nc = t->cap ? 2 * t->cap : 16;
        tex_obj *nv = realloc(t->v, (size_t)nc * sizeof *nv);
        if (!nv) return PTXE_ERROR_OUT_OF_MEMORY;
        t->v = nv; t->cap = nc;
    }
    t->v[t->n] = *o;
    *h = TEXH_TAG | (uint64_t)o->kind << 32 | (uint64_t)t->n;
    t->n++;
    return PTXE_SUCCESS;
}

ptxeResult ptxeCreateTextureObject(ptxeCtx *ctx, ptxeTexObject *tex, const ptxeResourceDesc *res,
                                   const ptxeTextureDesc *desc)
{
    if (!ctx || !tex || !res || !desc) return PTXE_ERROR_INVALID_VALUE;
    tex_obj o;
    memset(&o, 0, sizeof o);
    const char *why = check_res(ctx, res, &o);
    if (why) return bad(ctx, why);
    for (int k = 0; k < 3; k++)
        if ((unsigned)desc->addressMode[k] > PTXE_ADDRESS_BORDER) return bad(ctx, "address mode");
    if ((unsigned)desc->filterMode > PTXE_FILTER_LINEAR) return bad(ctx, "filter mode");
    if ((unsigned)desc->readMode > PTXE_READ_NORMALIZED_FLOAT) return bad(ctx, "read mode");
    if (desc->readMode == PTXE_READ_NORMALIZED_FLOAT && res->fmt.f != PTXE_FMT_FLOAT && o.cb == 4)
        return bad(ctx, "normalized-float read of 32-bit integer channels (8/16-bit only)");
    int fl = res->fmt.f == PTXE_FMT_FLOAT ||
             (desc->readMode == PTXE_READ_NORMALIZED_FLOAT && o.cb < 4);
    if (desc->filterMode == PTXE_FILTER_LINEAR && !fl)   /* as cudaCreateTextureObject */
        return bad(ctx, "linear filtering of texels read as integers");
    o.kind = TK_TEX; o.r = *res; o.d = *desc;
    return add_obj(ctx, &o, tex);
}

ptxeResult ptxeCreateSurfaceObject(ptxeCtx *ctx, ptxeSurfObject *surf, const ptxeResourceDesc *res)
{
    if (!ctx || !surf || !res) return PTXE_ERROR_INVALID_VALUE;
    tex_obj o;
    memset(&o, 0, sizeof o);
    if (res->type != PTXE_RES_ARRAY) return bad(ctx, "surface on linear memory (arrays only)");
    const char *why = check_res(ctx, res, &o);
    if (why) return bad(ctx, why);
    o.kind = TK_SURF; o.r = *res;
    return add_obj(ctx, &o, surf);
}

static ptxeResult destroy(ptxeCtx *c, uint64_t h, int kind)
{
    if (!c || !lookup(c, h, kind)) return PTXE_ERROR_INVALID_VALUE;
    c->tex->v[h & 0xffffffffu].kind = TK_NONE;
    return PTXE_SUCCESS;
}
ptxeResult ptxeDestroyTextureObject(ptxeCtx *c, ptxeTexObject t) { return destroy(c, t, TK_TEX); }
ptxeResult ptxeDestroySurfaceObject(ptxeCtx *c, ptxeSurfObject s) { return destroy(c, s, TK_SURF); }

ptxeResult ptxeModuleBindRef(ptxeModule *m, const char *name, uint64_t handle)
{
    if (!m || !name) return PTXE_ERROR_INVALID_VALUE;
    ptxeCtx *c = m->ctx;
    const ptx_var *v = NULL;
    for (int i = 0; i < m->ast->nvars && !v; i++)
        if (!strcmp(m->ast->vars[i].name, name)) v = &m->ast->vars[i];
    if (!v) return PTXE_ERROR_NOT_FOUND;
    int want = !strcmp(v->type, "texref") ? TK_TEX : !strcmp(v->type, "surfref") ? TK_SURF : 0;
    if (!want || !lookup(c, handle, want)) {
        snprintf(c->msg, sizeof c->msg, "cannot bind '%s' (.%s) to handle 0x%llx", name, v->type,
                 (unsigned long long)handle);
        return PTXE_ERROR_INVALID_VALUE;
    }
    uint64_t a;
    if (mem_symbol(m, name, &a, NULL)) return PTXE_ERROR_NOT_FOUND;
    return mem_write(c, a, &handle, sizeof handle) ? PTXE_ERROR_INVALID_ADDRESS : PTXE_SUCCESS;
}

void tex_ctx_free(ptxeCtx *ctx)
{
    if (!ctx->tex) return;
    free(ctx->tex->v);
    free(ctx->tex);
    ctx->tex = NULL;
}

/* ---------------------------------------------------------------- decoding */
int tex_geom_coords(int geom)
{
    static const int n[TG_COUNT] = { 1, 2, 3, 2, 3, 3, 4 };
    return n[geom];
}

/* txq / suq attributes (§9.7.9.5, §9.7.10.4) */
enum { TQ_WIDTH, TQ_HEIGHT, TQ_DEPTH, TQ_CDT, TQ_CORDER, TQ_NORM, TQ_ARRAY, TQ_MIPS, TQ_SAMPLES,
       TQ_FORCEUN, TQ_FILTER, TQ_ADDR0, TQ_ADDR1, TQ_ADDR2, TQ_LAYOUT, TQ_COUNT };
static const char *const tq_names[TQ_COUNT] = {
    "width", "height", "depth", "channel_data_type", "channel_order", "normalized_coords",
    "array_size", "num_mipmap_levels", "num_samples", "force_unnormalized_coords",
    "filter_mode", "addr_mode_0", "addr_mode_1", "addr_mode_2", "memory_layout" };
static const char *const geom_names[TG_COUNT] = { "1d", "2d", "3d", "a1d", "a2d", "cube",
                                                  "acube" };

static int lookup_word(const char *const *tab, int n, const char *w)
{
    for (int i = 0; i < n; i++) if (!strcmp(tab[i], w)) return i;
    return -1;
}

typedef struct { const char *w[12]; int n; char buf[128]; } words;

static int split(const char *op, words *ws)
{
    size_t len = strlen(op);
    if (len >= sizeof ws->buf) return -1;
    memcpy(ws->buf, op, len + 1);
    ws->n = 0;
    for (char *p = ws->buf; p; ) {
        char *dot = strchr(p, '.');
        if (dot) *dot = 0;
        if (ws->n == 12) return -1;
        ws->w[ws->n++] = p;
        p = dot ? dot + 1 : NULL;
    }
    return 0;
}

#define WHY(...) (snprintf(why, whylen, __VA_ARGS__), -1)

/* tex{.base,.level,.grad}.geom.v4.dtype.ctype, tld4.comp.geom.v4.dtype.f32 (§9.7.9.3-4) */
static int dec_tex_words(const words *ws, xtex *t, char *why, size_t whylen)
{
    int k = 1, tld4 = t->op == TO_TLD4;
    if (tld4) {
        static const char *const comps[] = { "r", "g", "b", "a" };
        int c = k < ws->n ? lookup_word(comps, 4, ws->w[k]) : -1;
        if (c < 0) return WHY("found no .r/.g/.b/.a component, expected one (§9.7.9.4)");
        t->comp = (uint8_t)c; k++;
    } else if (k < ws->n && (!strcmp(ws->w[k], "base") || !strcmp(ws->w[k], "level") ||
                             !strcmp(ws->w[k], "grad"))) {
        t->level = !strcmp(ws->w[k], "level") ? 1 : !strcmp(ws->w[k], "grad") ? 2 : 0;
        k++;
    }
    int g = k < ws->n ? lookup_word(geom_names, TG_COUNT, ws->w[k]) : -1;
    if (k < ws->n && (!strcmp(ws->w[k], "2dms") || !strcmp(ws->w[k], "a2dms")))
        return WHY("found multi-sample geometry .%s, expected .1d .2d .3d .a1d .a2d .cube or "
                   ".acube (multi-sample textures are not implemented)", ws->w[k]);
    if (g < 0 || (tld4 && (g == TG_1D || g == TG_3D || g == TG_A1D)))
        return WHY("found no geometry, expected %s", tld4 ? ".2d .a2d .cube .acube"
                                                          : ".1d .2d .3d .a1d .a2d .cube .acube");
    t->geom = (uint8_t)g; k++;
    int v2 = k < ws->n && !strcmp(ws->w[k], "v2") && !tld4;   /* .v2.f16x2 (§9.7.9.3) */
    if (!v2 && (k >= ws->n || strcmp(ws->w[k], "v4")))
        return WHY("found no .v4, expected .v4%s", tld4 ? "" : " or .v2.f16x2");
    k++;
    isa_type dt = k < ws->n ? isa_type_parse(ws->w[k]) : ISA_T_NONE;
    if (v2 ? dt != ISA_T_F16X2
           : dt != ISA_T_U32 && dt != ISA_T_S32 && dt != ISA_T_F32 && !(dt == ISA_T_F16 && !tld4))
        return WHY("found no result type, expected %s", v2 ? ".f16x2 after .v2"
                   : tld4 ? ".u32 .s32 .f32" : ".u32 .s32 .f32 .f16");
    t->dtype = (uint8_t)dt; k++;
    isa_type ct = k < ws->n ? isa_type_parse(ws->w[k]) : ISA_T_NONE;
    if (ct != ISA_T_F32 && (ct != ISA_T_S32 || tld4 || g == TG_CUBE || g == TG_ACUBE))
        return WHY("found no coordinate type, expected .f32%s", tld4 ? "" : " or .s32");
    t->fcoord = ct == ISA_T_F32; k++;
    if (k != ws->n) return WHY("found qualifier .%s, expected none after the types", ws->w[k]);
    t->ncoord = (uint8_t)tex_geom_coords(g);
    return 0;
}

/* txq{.level}.query.b32, suq.query.b32, istypep.type */
static int dec_query(const words *ws, xtex *t, char *why, size_t whylen)
{
    int k = 1;
    if (t->op == TO_ISTYPEP) {
        static const char *const ty[] = { "texref", "samplerref", "surfref" };
        int i = ws->n == 2 ? lookup_word(ty, 3, ws->w[1]) : -1;
        if (i < 0) return WHY("found no type, expected .texref .samplerref or .surfref");
        t->query = (uint8_t)(i + 1);
        return 0;
    }
    if (t->op == TO_TXQ && k < ws->n && !strcmp(ws->w[k], "level")) { t->level = 1; k++; }
    int q = k < ws->n ? lookup_word(tq_names, TQ_COUNT, ws->w[k]) : -1;
    int ok = t->op == TO_SUQ ? q <= TQ_CORDER || q == TQ_ARRAY || q == TQ_LAYOUT
                             : q != TQ_LAYOUT && (!t->level || q <= TQ_DEPTH);
    if (q < 0 || !ok)
        return WHY("found no %s attribute, expected one of §%s", t->op == TO_SUQ ? "surface" :
                   "texture or sampler", t->op == TO_SUQ ? "9.7.10.4" : "9.7.9.5");
    t->query = (uint8_t)q; k++;
    if (k + 1 != ws->n || strcmp(ws->w[k], "b32")) return WHY("found no .b32, expected .b32");
    return 0;
}

static int dec_clamp(const words *ws, int k, xtex *t, char *why, size_t whylen)
{
    static const char *const cm[] = { "trap", "clamp", "zero" };
    int c = k < ws->n ? lookup_word(cm, 3, ws->w[k]) : -1;
    if (c < 0 || k + 1 != ws->n)
        return WHY("found no out-of-range mode last, expected .trap .clamp or .zero (§9.7.10.1)");
    t->clampm = (uint8_t)c;
    return 0;
}

/* suld.b.geom{.cop}.vec.dtype.clamp, sust.{b,p}.geom{.cop}.vec.ctype.clamp (§9.7.10.1-2),
 * sured.{b,p}.op.geom.ctype.clamp (§9.7.10.3) */
static int dec_surf_words(const words *ws, xtex *t, char *why, size_t whylen)
{
    int k = 1;
    if (k < ws->n && !strcmp(ws->w[k], "p") && t->op != TO_SULD) t->fmt = 1;
    else if (k >= ws->n || strcmp(ws->w[k], "b"))
        return WHY("found no .b, expected .b%s", t->op == TO_SULD ? "" : " or .p");
    k++;
    if (t->op == TO_SURED) {
        isa_atom_op a = k < ws->n ? isa_atom_parse(ws->w[k]) : ISA_ATOM_NONE;
        if (a != ISA_ATOM_ADD && a != ISA_ATOM_MIN && a != ISA_ATOM_MAX && a != ISA_ATOM_AND &&
            a != ISA_ATOM_OR)
            return WHY("found no operation, expected .add .min .max .and .or");
        t->redop = (uint8_t)a; k++;
    }
    int g = k < ws->n ? lookup_word(geom_names, TG_COUNT, ws->w[k]) : -1;
    if (g < 0 || g >= TG_CUBE || (t->op == TO_SURED && g > TG_3D) || (t->fmt && g > TG_3D))
        return WHY("found no surface geometry, expected .1d .2d .3d%s",
                   t->op == TO_SURED || t->fmt ? "" : " .a1d .a2d");
    t->geom = (uint8_t)g; k++;
    t->ncoord = (uint8_t)tex_geom_coords(g);
    static const char *const cops[] = { "ca", "cg", "cs", "cv", "wb", "wt" };
    if (k < ws->n && lookup_word(cops, 6, ws->w[k]) >= 0) k++;   /* cache hints: no effect */
    t->vec = 1;
    if (t->op != TO_SURED && k < ws->n && (!strcmp(ws->w[k], "v2") || !strcmp(ws->w[k], "v4")))
        t->vec = (uint8_t)(ws->w[k++][1] - '0');
    isa_type ty = k < ws->n ? isa_type_parse(ws->w[k]) : ISA_T_NONE;
    if (t->op == TO_SURED) {
        int okb = ty == ISA_T_U32 || ty == ISA_T_S32 || ty == ISA_T_B32 || ty == ISA_T_U64 ||
                  ty == ISA_T_S64;
        if (t->fmt ? ty != ISA_T_B32 && ty != ISA_T_B64 : !okb)
            return WHY("found no type, expected %s", t->fmt ? ".b32 .b64"
                                                            : ".u32 .s32 .b32 .u64 .s64");
        t->redtype = (uint8_t)ty;
        /* §9.7.10.3: add on .u32 .u64 .s32, min/max on .u32 .s32 .u64 .s64, and/or on .b32;
         * sured.p .b64 only min/max */
        isa_atom_op a = (isa_atom_op)t->redop;
        int mm = a == ISA_ATOM_MIN || a == ISA_ATOM_MAX;
        int ok = t->fmt ? ty == ISA_T_B32 || mm
                 : a == ISA_ATOM_ADD ? ty == ISA_T_U32 || ty == ISA_T_U64 || ty == ISA_T_S32
                 : mm ? ty != ISA_T_B32 : ty == ISA_T_B32;
        if (!ok)
            return WHY("found .%s with .%s, expected add on .u32 .u64 .s32, min/max on .u32 "
                       ".s32 .u64 .s64, and/or on .b32 (sured.p: .b64 min/max only)",
                       isa_atom_name(a), ws->w[k]);
    } else if (t->fmt ? ty != ISA_T_B32 : ty != ISA_T_B8 && ty != ISA_T_B16 && ty != ISA_T_B32 &&
                                              ty != ISA_T_B64)
        return WHY("found no type, expected %s", t->fmt ? ".b32" : ".b8 .b16 .b32 .b64");
    t->size = (uint8_t)(isa_type_bits(ty) / 8); k++;
    return dec_clamp(ws, k, t, why, whylen);
}

int tex_decode(const char *opcode, xtex *t, char *why, size_t whylen)
{
    static const char *const ops[] = { "tex", "tld4", "txq", "istypep", "suld", "sust", "sured",
                                       "suq" };
    words ws;
    memset(t, 0, sizeof *t);
    if (split(opcode, &ws)) return WHY("found too many qualifiers");
    int op = lookup_word(ops, 8, ws.w[0]);
    if (op < 0) return WHY("found '%s', expected a texture or surface instruction", ws.w[0]);
    t->op = (uint8_t)op;
    switch (op) {
    case TO_TEX: case TO_TLD4: return dec_tex_words(&ws, t, why, whylen);
    case TO_TXQ: case TO_SUQ: case TO_ISTYPEP: return dec_query(&ws, t, why, whylen);
    default: return dec_surf_words(&ws, t, why, whylen);
    }
}

/* ---------------------------------------------------------------- texels */
typedef struct { float f[4]; uint32_t u[4]; } tval;   /* a texel as read: float or integer */

static float h2f(uint16_t h)
{
    uint32_t s = (uint32_t)(h >> 15) << 31, e = (h >> 10) & 31, m = h & 1023, b;
    if (e == 31) b = s | 0x7f800000u | m << 13;
    else if (e) b = s | (e + 112) << 23 | m << 13;
    else if (!m) b = s;
    else {
        float f = ldexpf((float)m, -24);
        memcpy(&b, &f, 4);
        b |= s;
    }
    float f;
    memcpy(&f, &b, 4);
    return f;
}

static uint16_t f2h(float f)   /* round to nearest even (cvt.rn.f16.f32, §9.7.9.3 .f16) */
{
    uint32_t b;
    memcpy(&b, &f, 4);
    uint16_t s = (uint16_t)(b >> 16 & 0x8000);
    float a = fabsf(f);
    if (a != a) return s | 0x7fff;
    if (a >= 65520.0f) return s | 0x7c00;
    if (a < 0x1p-14f) return s | (uint16_t)lrintf(a * 0x1p24f);   /* subnormal (exact scale) */
    int e;
    float m = frexpf(a, &e);               /* a = m * 2^e, m in [0.5, 1) */
    long q = lrintf(ldexpf(m, 11));        /* 11 significant bits */
    if (q == 2048) { q = 1024; e++; }
    return s | (uint16_t)((e + 14) << 10 | (q - 1024));
}

/* is the texel read as float (float channels, or 8/16-bit integers read normalized)? */
static int reads_float(const tex_obj *o)
{
    return o->r.fmt.f == PTXE_FMT_FLOAT ||
           (o->kind == TK_TEX && o->d.readMode == PTXE_READ_NORMALIZED_FLOAT && o->cb < 4);
}

/* channels of texel bytes p; absent channels read 0, but alpha 1.0 when read as float.  Read as
 * integers, an absent alpha is 0 too: an H100 returns (x, y, 0, 0) for a 2-channel u16 texture
 * read by tex.2d.v4.s32.f32 (tests/kernels/gpu/tx_2di_u16.bin, 2026-11-26, all 64 lookups) */
static void decode_texel(const tex_obj *o, const uint8_t *p, tval *v)
{
    int fl = reads_float(o);
    for (unsigned c = 0; c < 4; c++) {
        v->f[c] = c == 3 && fl ? 1.0f : 0.0f;
        v->u[c] = c == 3 && fl ? 0x3f800000u : 0;
        if (c >= o->nch) continue;
        uint32_t raw = 0;
        memcpy(&raw, p + c * o->cb, o->cb);
        unsigned bits = o->cb * 8;
        int32_t sx = bits == 32 ? (int32_t)raw : (int32_t)(raw << (32 - bits)) >> (32 - bits);
        float f;
        if (o->r.fmt.f == PTXE_FMT_FLOAT) {
            if (bits == 16) f = h2f((uint16_t)raw);
            else memcpy(&f, &raw, 4);
        } else if (fl && o->r.fmt.f == PTXE_FMT_UNSIGNED)
            f = (float)raw / (float)((1u << bits) - 1);            /* unorm */
        else if (fl) {
            f = (float)sx / (float)((1u << (bits - 1)) - 1);       /* snorm, clamped to -1 */
            if (f < -1.0f) f = -1.0f;
        } else {
            v->u[c] = o->r.fmt.f == PTXE_FMT_SIGNED ? (uint32_t)sx : raw;
            continue;
        }
        v->f[c] = f;
        memcpy(&v->u[c], &f, 4);
    }
}

static void border_texel(const tex_obj *o, tval *v)
{
    int fl = reads_float(o);
    for (int c = 0; c < 4; c++) {
        float f = o->r.type == PTXE_RES_LINEAR ? 0.0f : o->d.borderColor[c];
        v->f[c] = f;
        if (fl) memcpy(&v->u[c], &f, 4);
        else v->u[c] = (uint32_t)(int32_t)f;
    }
}

/* index i of an extent n under address mode m: -1 for the border (CUDA guide, "Texture
 * Fetching": wrap and mirror apply to normalized coordinates only, else clamp) */
static int64_t address(const tex_obj *o, int dim, int64_t i, int64_t n)
{
    if (o->r.type == PTXE_RES_LINEAR) return i >= 0 && i < n ? i : -1;  /* tex1Dfetch: zero */
    int m = o->d.addressMode[dim];
    if ((m == PTXE_ADDRESS_WRAP || m == PTXE_ADDRESS_MIRROR) && !o->d.normalizedCoords)
        m = PTXE_ADDRESS_CLAMP;
    switch (m) {
    case PTXE_ADDRESS_WRAP: return ((i % n) + n) % n;
    case PTXE_ADDRESS_MIRROR: {
        int64_t k = ((i % (2 * n)) + 2 * n) % (2 * n);
        return k < n ? k : 2 * n - 1 - k;
    }
    case PTXE_ADDRESS_BORDER: return i >= 0 && i < n ? i : -1;
    default: return i < 0 ? 0 : i >= n ? n - 1 : i;
    }
}

/* the texel at indices ix (dims used), layer l; border when out of range */
static int fetch(const tex_env *e, const tex_obj *o, const int64_t *ix, int64_t l, tval *v)
{
    int64_t n[3] = { o->w, o->h, o->dep }, a[3] = { 0, 0, 0 };
    for (int k = 0; k < o->dims; k++) {
        a[k] = address(o, k, ix[k], n[k]);
        if (a[k] < 0) { border_texel(o, v); return 0; }
    }
    uint64_t row = (uint64_t)((l * o->dep + a[2]) * o->h + a[1]);
    uint64_t addr = o->r.data + row * o->pitch + (uint64_t)a[0] * o->tb;
    const uint8_t *p = e->mem(e->cookie, addr, o->tb, 0);
    if (!p) return -1;
    decode_texel(o, p, v);
    return 0;
}

/* 8-bit fixed-point fraction (CUDA guide, "Linear Filtering": 9-bit fixed point, 8 fraction
 * bits; the guide does not say how the fraction is rounded: to nearest, as an H100 does,
 * tests/kernels/gpu/tx_fixed_point.bin) */
static float frac8(float a) { return roundf(a * 256.0f) / 256.0f; }

/* The weights of the 2^nd texels of a linear sample from the fractions a[k] (multiples of
 * 1/256).  The guide's weights are the products of (1 - a) and a per dimension; an H100 rounds
 * the product of two fractions to 1/256 too (nearest, ties up) and derives the others from it:
 * w11 = ab, w10 = a - ab, w01 = b - ab, w00 = 1 - a - b + ab (tests/kernels/gpu/
 * tx_2d_linear_border.bin, 2026-11-26: 12 of 96 lookups mix texels with the border colour and
 * have ab not in 1/256; all 96 agree with this rule, two of them ties 30.5/256 -> 31 and
 * 88.5/256 -> 89; unrounded products miss 12).  So here: w_S = sum over T ⊇ S of
 * (-1)^|T \ S| P(T), P(T) the product of a[k] over T rounded to 1/256 when |T| >= 2.  For 3D
 * the triple product is rounded the same way: tx_3d.bin agrees, but its fractions (in 1/16)
 * cannot tell. */
static void lin_weights(int nd, const float *a, float *w)
{
    float P[8];
    for (int t = 0; t < 1 << nd; t++) {
        float p = 1.0f;
        int bits = 0;
        for (int k = 0; k < nd; k++)
            if (t >> k & 1) { p *= a[k]; bits++; }   /* exact: multiples of 2^-24 below 1 */
        P[t] = bits >= 2 ? floorf(p * 256.0f + 0.5f) / 256.0f : p;
    }
    for (int m = 0; m < 1 << nd; m++) {
        float s = 0.0f;
        for (int t = m; t < 1 << nd; t = (t + 1) | m)   /* every superset t of m */
            s += __builtin_popcount((unsigned)(t & ~m)) & 1 ? -P[t] : P[t];
        w[m] = s;   /* a multiple of 1/256 in [0, 1]: exact */
    }
}

static int64_t ifloor(float x)
{
    if (x != x) return 0;
    if (x > 0x1p40f) return (int64_t)1 << 40;
    if (x < -0x1p40f) return -((int64_t)1 << 40);
    return (int64_t)floorf(x);
}

/* coordinates x[dims] (texel units unless normalized): point or linear sample, layer l */
typedef struct { float x[3]; int64_t ix[3]; int intc, norm, linear; int64_t layer; } tcoord;

static int sample(const tex_env *e, const tex_obj *o, const tcoord *c, tval *out)
{
    int nd = o->dims, lin = c->linear && !c->intc;
    int64_t n[3] = { o->w, o->h, o->dep }, i0[3] = { 0, 0, 0 };
    float a[3] = { 0, 0, 0 };
    for (int k = 0; k < nd; k++) {
        if (c->intc) { i0[k] = c->ix[k]; continue; }
        float x = c->norm ? c->x[k] * (float)n[k] : c->x[k];
        if (lin) x -= 0.5f;
        float fl = floorf(x);
        i0[k] = ifloor(x);
        if (lin) a[k] = frac8(x - fl);
    }
    tval v[8];
    int nc = lin ? 1 << nd : 1;
    for (int m = 0; m < nc; m++) {
        int64_t ix[3];
        for (int k = 0; k < nd; k++) ix[k] = i0[k] + ((m >> k) & 1);
        if (fetch(e, o, ix, c->layer, &v[m])) return -1;
    }
    if (!lin) { *out = v[0]; return 0; }
    /* sum of w_m T_m in f32, corner 0 first (the order and precision of the H100's sum are not
     * known: every recorded sum is exact) */
    float w[8];
    lin_weights(nd, a, w);
    for (int ch = 0; ch < 4; ch++) {
        float acc = 0.0f;
        for (int m = 0; m < nc; m++) acc += w[m] * v[m].f[ch];
        out->f[ch] = acc;
        memcpy(&out->u[ch], &acc, 4);
    }
    return 0;
}

static float f32of(uint64_t b)
{
    float f;
    uint32_t u = (uint32_t)b;
    memcpy(&f, &u, 4);
    return f;
}

/* cubemap direction (s, t, r) -> face and normalized face coordinates (CUDA guide, "Cubemap
 * Textures" table; §9.7.9.3 tex.cube: the major axis selects the face); ties pick x, then y */
static void cube_face(const float *d, int *face, float *u, float *v)
{
    float ax = fabsf(d[0]), ay = fabsf(d[1]), az = fabsf(d[2]), m, s, t;
    if (ax >= ay && ax >= az) {
        m = ax; *face = d[0] >= 0 ? 0 : 1;
        s = d[0] >= 0 ? -d[2] : d[2]; t = -d[1];
    } else if (ay >= az) {
        m = ay; *face = d[1] >= 0 ? 2 : 3;
        s = d[0]; t = d[1] >= 0 ? d[2] : -d[2];
    } else {
        m = az; *face = d[2] >= 0 ? 4 : 5;
        s = d[2] >= 0 ? d[0] : -d[0]; t = -d[1];
    }
    if (m == 0) m = 1;
    *u = (s / m + 1.0f) * 0.5f;
    *v = (t / m + 1.0f) * 0.5f;
}

/* the coordinates of tex/tld4 operands s (§9.7.9.3: array index first for a1d/a2d/acube) */
static void tex_coords(const xtex *t, const tex_obj *o, const uint64_t *s, tcoord *c)
{
    memset(c, 0, sizeof *c);
    const uint64_t *x = s + 1;
    int g = t->geom, arr = g == TG_A1D || g == TG_A2D || g == TG_ACUBE;
    uint32_t idx = arr ? (uint32_t)*x++ : 0;
    int64_t layers = g == TG_ACUBE ? o->nl / 6 : o->nl;
    int64_t L = (int64_t)idx < layers ? (int64_t)idx : layers - 1;   /* index clamped */
    c->norm = o->d.normalizedCoords;
    c->linear = o->d.filterMode == PTXE_FILTER_LINEAR || t->op == TO_TLD4;
    if (g == TG_CUBE || g == TG_ACUBE) {
        float d[3] = { f32of(x[0]), f32of(x[1]), f32of(x[2]) };
        int face;
        cube_face(d, &face, &c->x[0], &c->x[1]);
        c->norm = 1;
        c->layer = face + 6 * L;
        return;
    }
    int nd = g == TG_1D || g == TG_A1D ? 1 : g == TG_3D ? 3 : 2;
    c->intc = !t->fcoord;
    const int64_t *off = NULL;
    int64_t offs[3] = { 0, 0, 0 };
    if (t->noff) {
        const uint64_t *e = s + 1 + t->ncoord + (t->level == 1);
        for (int k = 0; k < nd && k < t->noff; k++) offs[k] = (int32_t)e[k];
        off = offs;
    }
    for (int k = 0; k < nd; k++) {
        if (c->intc) c->ix[k] = (int32_t)x[k] + (off ? off[k] : 0);
        else c->x[k] = f32of(x[k]);
    }
    if (off && !c->intc)   /* offsets are in texels (§9.7.9.3 operand e) */
        for (int k = 0; k < nd; k++) {
            int64_t n = k == 0 ? o->w : k == 1 ? o->h : o->dep;
            c->x[k] += c->norm ? (float)off[k] / (float)n : (float)off[k];
        }
    c->layer = arr ? L : 0;
}

static uint64_t result(const xtex *t, const tex_obj *o, const tval *v, int ch)
{
    if (t->dtype == ISA_T_F16)
        return reads_float(o) ? f2h(v->f[ch]) : (uint16_t)v->u[ch];
    return v->u[ch];
}

static int tex_sample(const tex_env *e, const xtex *t, const tex_obj *o, const uint64_t *s,
                      uint64_t *d)
{
    tcoord c;
    tex_coords(t, o, s, &c);
    if (o->r.type == PTXE_RES_LINEAR) c.linear = 0;
    tval v;
    int nv = 4;
    if (t->op == TO_TEX) {
        if (sample(e, o, &c, &v)) return -1;
        for (int k = 0; k < 4; k++) d[k] = result(t, o, &v, k);
        if (t->dtype == ISA_T_F16X2) {   /* .v2.f16x2: {r, g}, {b, a}, the low half first */
            uint64_t h[4];
            for (int k = 0; k < 4; k++) h[k] = reads_float(o) ? f2h(v.f[k]) : (uint16_t)v.u[k];
            d[0] = h[0] | h[1] << 16; d[1] = h[2] | h[3] << 16;
            nv = 2;
        }
    } else {
        /* tld4 (§9.7.9.4): the bilinear footprint, counter-clockwise from lower left:
         * (i, j+1), (i+1, j+1), (i+1, j), (i, j) with i, j = floor(x - 0.5), floor(y - 0.5) */
        static const int dx[4] = { 0, 1, 1, 0 }, dy[4] = { 1, 1, 0, 0 };
        int64_t n[2] = { o->w, o->h }, i0[2];
        for (int k = 0; k < 2; k++)
            i0[k] = ifloor((c.norm ? c.x[k] * (float)n[k] : c.x[k]) - 0.5f);
        for (int k = 0; k < 4; k++) {
            int64_t ix[3] = { i0[0] + dx[k], i0[1] + dy[k], 0 };
            if (fetch(e, o, ix, c.layer, &v)) return -1;
            d[k] = result(t, o, &v, t->comp);
        }
    }
    if (t->pred) d[nv] = 1;   /* resident (§9.7.9.3 d|p) */
    return 0;
}

/* OpenCL enumerations of §5.3.3 (Tables 11, 12): the only ones the ISA defines */
static uint32_t cl_data_type(const tex_obj *o)
{
    int fl = reads_float(o), cb = (int)o->cb;
    switch (o->r.fmt.f) {
    case PTXE_FMT_FLOAT: return cb == 2 ? 0x10DD : 0x10DE;
    case PTXE_FMT_UNSIGNED:
        return fl ? (cb == 1 ? 0x10D2 : 0x10D3) : cb == 1 ? 0x10DA : cb == 2 ? 0x10DB : 0x10DC;
    default: return fl ? (cb == 1 ? 0x10D0 : 0x10D1) : cb == 1 ? 0x10D7 : cb == 2 ? 0x10D8 : 0x10D9;
    }
}

static uint32_t query(const xtex *t, const tex_obj *o, const uint64_t *s)
{
    /* addr_mode values: enum { wrap, mirror, clamp_ogl, clamp_to_edge, clamp_to_border } */
    static const uint32_t am[4] = { 0, 3, 1, 4 };
    unsigned lod = t->level ? (uint32_t)s[1] : 0;
    int64_t ext[3] = { o->w, o->h, o->dep };
    switch (t->query) {
    case TQ_WIDTH: case TQ_HEIGHT: case TQ_DEPTH: {
        int64_t v = lod < 63 ? ext[t->query] >> lod : 0;
        return (uint32_t)(v < 1 ? 1 : v);
    }
    case TQ_CDT: return cl_data_type(o);
    case TQ_CORDER: return o->nch == 1 ? 0x10B0 : o->nch == 2 ? 0x10B2 : 0x10B5;
    case TQ_NORM: return (uint32_t)(o->d.normalizedCoords != 0);
    case TQ_ARRAY:
        return o->r.flags & PTXE_ARRAY_LAYERED ? (uint32_t)o->r.layers : 0;
    case TQ_FILTER: return (uint32_t)o->d.filterMode;
    case TQ_ADDR0: case TQ_ADDR1: case TQ_ADDR2: return am[o->d.addressMode[t->query - TQ_ADDR0]];
    case TQ_LAYOUT: return o->r.type != PTXE_RES_ARRAY;
    default: return 0;   /* num_mipmap_levels, num_samples, force_unnormalized_coords */
    }
}

/* ---------------------------------------------------------------- surfaces */
/* the bytes of surface element (x bytes, y, z or layer) of `size` bytes, after .trap / .clamp /
 * .zero (§9.7.10.1); *skip when .zero drops the access */
static uint8_t *surf_at(const tex_env *e, const xtex *t, const tex_obj *o, const uint64_t *s,
                        unsigned size, int write, int *skip)
{
    const uint64_t *b = s + 1;
    int g = t->geom, arr = g == TG_A1D || g == TG_A2D;
    int64_t L = arr ? (int64_t)(uint32_t)*b++ : 0;
    int nd = g == TG_1D || g == TG_A1D ? 1 : g == TG_3D ? 3 : 2;
    int64_t c[3] = { 0, 0, 0 }, hi[3] = { o->w * o->tb - size, o->h - 1, o->dep - 1 };
    for (int k = 0; k < nd; k++) c[k] = (int32_t)b[k];
    if (t->fmt) c[0] *= o->tb;   /* .p: sample index */
    *skip = 0;
    if (c[0] % size || hi[0] < 0) {   /* "must be naturally aligned ... may fault" */
        if (hi[0] < 0)
            snprintf(e->msg, e->msglen, "a %u-byte surface access wider than the row of %lld "
                     "bytes (§9.7.10.1)", size, (long long)(o->w * o->tb));
        else
            snprintf(e->msg, e->msglen, "surface x coordinate %lld bytes not aligned to the "
                     "%u-byte access (§9.7.10.1)", (long long)c[0], size);
        return NULL;
    }
    int out = L >= o->nl;
    for (int k = 0; k < 3; k++) out |= c[k] < 0 || c[k] > hi[k];
    if (out && t->clampm == SC_TRAP) {
        snprintf(e->msg, e->msglen, "surface coordinates (%lld, %lld, %lld, layer %lld) out of "
                 "range of %lldx%lldx%lld (%lld layers) with .trap (§9.7.10.1)",
                 (long long)c[0], (long long)c[1], (long long)c[2], (long long)L,
                 (long long)(o->w * o->tb), (long long)o->h, (long long)o->dep, (long long)o->nl);
        return NULL;
    }
    if (out && t->clampm == SC_ZERO) { *skip = 1; return NULL; }
    for (int k = 0; k < 3; k++) c[k] = c[k] < 0 ? 0 : c[k] > hi[k] ? hi[k] : c[k];
    if (L >= o->nl) L = o->nl - 1;
    uint64_t row = (uint64_t)((L * o->dep + c[2]) * o->h + c[1]);
    return e->mem(e->cookie, o->r.data + row * o->pitch + (uint64_t)c[0], size, write);
}

/* sust.p: a 32-bit value converted to the channel format (f32, u32 or s32 by the format) */
static void put_channel(const tex_obj *o, uint8_t *p, uint32_t v)
{
    if (o->r.fmt.f == PTXE_FMT_FLOAT && o->cb == 2) {
        uint16_t h = f2h(f32of(v));
        memcpy(p, &h, 2);
    } else memcpy(p, &v, o->cb);
}

static int surf_access(const tex_env *e, const xtex *t, const tex_obj *o, const uint64_t *s,
                       uint64_t *d)
{
    int skip, w = t->op != TO_SULD;
    unsigned n = t->fmt && t->op == TO_SUST ? o->tb : (unsigned)t->size * t->vec;
    uint8_t *p = surf_at(e, t, o, s, n, w, &skip);
    if (!p && !skip) return -1;
    const uint64_t *v = s + 1 + t->ncoord;
    if (t->op == TO_SULD) {
        for (int k = 0; k < t->vec; k++) {
            d[k] = 0;
            if (!skip) memcpy(&d[k], p + k * t->size, t->size);
        }
        return 0;
    }
    if (skip) return 0;
    if (t->op == TO_SUST) {
        for (int k = 0; k < t->vec; k++) {
            if (!t->fmt) memcpy(p + k * t->size, &v[k], t->size);
            else if ((unsigned)k < o->nch) put_channel(o, p + k * o->cb, (uint32_t)v[k]);
        }
        return 0;
    }
    isa_type ty = (isa_type)t->redtype;
    if (t->fmt) {   /* sured.p: signedness from the format (§9.7.10.3) */
        int sg = o->r.fmt.f == PTXE_FMT_SIGNED;
        ty = ty == ISA_T_B64 ? (sg ? ISA_T_S64 : ISA_T_U64) : sg ? ISA_T_S32 : ISA_T_U32;
    }
    uint64_t old = 0, nv;
    memcpy(&old, p, t->size);
    if (isa_atom_apply((isa_atom_op)t->redop, ty, old, v[0], 0, &nv) < 0) {
        snprintf(e->msg, e->msglen, "sured.%s has no semantics for .%s",
                 isa_atom_name((isa_atom_op)t->redop), isa_type_name(ty));
        return -1;
    }
    memcpy(p, &nv, t->size);
    return 0;
}

/* the object a handle operand names: a handle, or the address of a .texref/.surfref variable
 * that holds one (module scope, §5.3; mov.u64 r, tex_var) */
static const tex_obj *resolve(const tex_env *e, uint64_t h, int kind, int quiet)
{
    if (!is_handle(h)) {
        galloc *g = mem_find(e->ctx, h, 8);
        if (g && g->host) memcpy(&h, g->host + (h - g->addr), 8);
    }
    const tex_obj *o = lookup(e->ctx, h, kind);
    if (!o && !quiet)
        snprintf(e->msg, e->msglen, "0x%llx is not a live %s object (§5.3, §9.7.%s)",
                 (unsigned long long)h, kind == TK_TEX ? "texture" : "surface",
                 kind == TK_TEX ? "9" : "10");
    return o;
}

/* does the geometry of the instruction match the texture's (dimensions, layered, cubemap)? */
static int geom_ok(int g, const tex_obj *o)
{
    static const int dims[TG_COUNT] = { 1, 2, 3, 1, 2, 2, 2 };
    int lay = (o->r.flags & PTXE_ARRAY_LAYERED) != 0, cube = (o->r.flags & PTXE_ARRAY_CUBEMAP) != 0;
    int glay = g == TG_A1D || g == TG_A2D || g == TG_ACUBE, gcube = g == TG_CUBE || g == TG_ACUBE;
    return dims[g] == o->dims && lay == glay && cube == gcube;
}

int tex_lane(const tex_env *e, const xtex *t, const uint64_t *s, uint64_t *d)
{
    if (t->op == TO_ISTYPEP) {
        d[0] = t->query == 1 ? resolve(e, s[0], TK_TEX, 1) != NULL
               : t->query == 3 ? resolve(e, s[0], TK_SURF, 1) != NULL : 0;
        return 0;
    }
    int surf = t->op >= TO_SULD;
    const tex_obj *o = resolve(e, s[0], surf ? TK_SURF : TK_TEX, 0);
    if (!o) return -1;
    switch (t->op) {
    case TO_TXQ: case TO_SUQ: d[0] = query(t, o, s); return 0;
    case TO_TEX: case TO_TLD4:
        if (!geom_ok(t->geom, o)) {
            snprintf(e->msg, e->msglen, "%s.%s on a %dD%s%s texture", t->op ? "tld4" : "tex",
                     geom_names[t->geom], o->dims,
                     o->r.flags & PTXE_ARRAY_LAYERED ? " layered" : "",
                     o->r.flags & PTXE_ARRAY_CUBEMAP ? " cubemap" : "");
            return -1;
        }
        return tex_sample(e, t, o, s, d);
    default: return surf_access(e, t, o, s, d);
    }
}
