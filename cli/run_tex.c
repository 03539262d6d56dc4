/* cli/run_tex.c — texture and surface objects of the `ptxlitmus run` launch spec (ISA §5.3
 * texture/sampler/surface types, used by §9.7.9 tex/tld4/txq and §9.7.10 suld/sust/sured/suq):
 *
 *   textures:
 *     img: { buffer: texels, format: f32x4, width: 8, height: 4, filter: linear,
 *            address: [wrap, clamp], normalized: true, read: element, border: [0, 0, 0, 1] }
 *   surfaces:
 *     out: { buffer: res, format: u8x4, width: 8, height: 4, layers: 2, bind: surf_var }
 *
 * Each becomes a ptxeCreateTextureObject / ptxeCreateSurfaceObject over the named buffer
 * (include/ptxexec.h; layout there), passed as a { texture: NAME } or { surface: NAME } param or
 * stored into the module-scope .texref / .surfref variable of `bind:`.  Messages have the form
 * SPEC:LINE:COL: found X, expected Y. */
#include "cli/run_tex.h"
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/alloc.h"
#include "base/diag.h"

struct run_tex_obj { char *name; int surf; uint64_t h; };

int run_yaml_vfail(const char *spec, const yaml_node_t *n, const char *fmt, va_list ap)
{
    char msg[800];
    diag_vformat(msg, sizeof msg, spec, n ? (int)n->start_mark.line + 1 : 1,
                 n ? (int)n->start_mark.column + 1 : 1, fmt, ap);
    fprintf(stderr, "%s\n", msg);
    return -1;
}

const char *run_yaml_scalar(const yaml_node_t *n)
{
    return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

static int fail(const run_tex *t, const yaml_node_t *n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    run_yaml_vfail(t->spec, n, fmt, ap);
    va_end(ap);
    return -1;
}

static const char *scalar(const yaml_node_t *n) { return run_yaml_scalar(n); }

static int word(const run_tex *t, yaml_node_t *n, const char *const *w, const char *what)
{
    const char *s = scalar(n);
    for (int i = 0; s && w[i]; i++)
        if (!strcmp(s, w[i])) return i;
    return fail(t, n, "found '%s', expected %s", s ? s : "a collection", what), -1;
}

static int size_of(const run_tex *t, yaml_node_t *n, size_t *v, const char *what)
{
    const char *s = scalar(n);
    char *e;
    errno = 0;
    unsigned long long x = s && *s != '-' ? strtoull(s, &e, 0) : 0;
    if (!s || !*s || *s == '-' || *e || errno || x > (1ull << 30))
        return fail(t, n, "found '%s', expected %s (an integer up to 2^30)", s ? s : "?", what);
    *v = (size_t)x;
    return 0;
}

/* format: KIND BITS [xN]: u8 s16 f32 u8x4 f16x2 ... (cudaChannelFormatDesc) */
static int format(const run_tex *t, yaml_node_t *n, ptxeChannelFormatDesc *f)
{
    const char *s = scalar(n);
    char *e = NULL;
    long bits = s && s[0] && strchr("usf", s[0]) ? strtol(s + 1, &e, 10) : 0, ch = 1;
    if (e && *e == 'x') ch = strtol(e + 1, &e, 10);
    if (!e || *e || (bits != 8 && bits != 16 && bits != 32) || (ch != 1 && ch != 2 && ch != 4) ||
        (s[0] == 'f' && bits == 8))
        return fail(t, n, "found format '%s', expected u8 u16 u32 s8 s16 s32 f16 f32 with x2 or "
                          "x4 for 2 or 4 channels (e.g. f32x4)", s ? s : "?");
    memset(f, 0, sizeof *f);
    f->x = (int)bits; f->y = ch > 1 ? (int)bits : 0; f->z = f->w = ch > 2 ? (int)bits : 0;
    f->f = s[0] == 'u' ? PTXE_FMT_UNSIGNED : s[0] == 's' ? PTXE_FMT_SIGNED : PTXE_FMT_FLOAT;
    return 0;
}

static int flag(const run_tex *t, yaml_node_t *n, int *v)
{
    static const char *const w[] = { "false", "true", "0", "1", NULL };
    int i = word(t, n, w, "true or false");
    if (i < 0) return -1;
    *v = i & 1;
    return 0;
}

static const char *const tex_keys[] = { "buffer", "format", "width", "height", "depth", "layers",
                                        "cubemap", "pitch", "resource", "bind", "filter",
                                        "address", "normalized", "read", "border", NULL };

/* the sampler keys of a texture (filter, address, normalized, read, border) */
static int sampler(const run_tex *t, yaml_node_t *k, yaml_node_t *v, ptxeTextureDesc *d)
{
    static const char *const filt[] = { "point", "linear", NULL }, *const rd[] =
        { "element", "normalized", NULL }, *const am[] = { "wrap", "clamp", "mirror", "border",
                                                           NULL };
    const char *key = scalar(k);
    int i;
    if (!strcmp(key, "filter")) {
        if ((i = word(t, v, filt, "point or linear")) < 0) return -1;
        d->filterMode = (ptxeFilterMode)i;
    } else if (!strcmp(key, "read")) {
        if ((i = word(t, v, rd, "element or normalized")) < 0) return -1;
        d->readMode = (ptxeReadMode)i;
    } else if (!strcmp(key, "normalized")) return flag(t, v, &d->normalizedCoords);
    else if (!strcmp(key, "address")) {
        int n = v->type == YAML_SEQUENCE_NODE ? (int)(v->data.sequence.items.top -
                                                      v->data.sequence.items.start) : 1;
        if (n < 1 || n > 3) return fail(t, v, "found %d address modes, expected 1 to 3", n);
        for (int k2 = 0; k2 < 3; k2++) {
            yaml_node_t *e = v->type == YAML_SEQUENCE_NODE ? yaml_document_get_node(
                t->doc, v->data.sequence.items.start[k2 < n ? k2 : n - 1]) : v;
            if ((i = word(t, e, am, "wrap, clamp, mirror or border")) < 0) return -1;
            d->addressMode[k2] = (ptxeAddressMode)i;
        }
    } else {   /* border: [r, g, b, a] */
        int n = v->type == YAML_SEQUENCE_NODE ? (int)(v->data.sequence.items.top -
                                                      v->data.sequence.items.start) : 0;
        if (n != 4) return fail(t, v, "found a bad border, expected [r, g, b, a]");
        for (int c = 0; c < 4; c++) {
            yaml_node_t *e = yaml_document_get_node(t->doc, v->data.sequence.items.start[c]);
            const char *s = scalar(e);
            char *end = NULL;
            d->borderColor[c] = s ? strtof(s, &end) : 0;
            if (!s || !*s || *end) return fail(t, e, "found '%s', expected a number", s ? s : "?");
        }
    }
    return 0;
}

static int add(run_tex *t, yaml_node_t *kn, int surf, uint64_t h)
{
    for (int i = 0; i < t->nobjs; i++)
        if (!strcmp(t->objs[i].name, scalar(kn)))
            return fail(t, kn, "found a second object '%s', expected unique texture and surface "
                               "names", scalar(kn));
    t->objs = xrealloc(t->objs, (size_t)(t->nobjs + 1) * sizeof *t->objs);
    t->objs[t->nobjs++] = (struct run_tex_obj){ xstrdup(scalar(kn)), surf, h };
    return 0;
}

/* the resource keys (buffer, format, extents, flags) */
static int resource(const run_tex *t, yaml_node_t *k, yaml_node_t *v, ptxeResourceDesc *r)
{
    static const char *const res[] = { "array", "linear", "pitch2d", NULL };
    const char *key = scalar(k);
    int i;
    if (!strcmp(key, "buffer")) {
        size_t n;
        if (!scalar(v) || t->find_buf(t->cookie, scalar(v), &r->data, &n))
            return fail(t, v, "found buffer '%s', expected a buffer declared under buffers",
                        scalar(v) ? scalar(v) : "?");
        return 0;
    }
    if (!strcmp(key, "format")) return format(t, v, &r->fmt);
    if (!strcmp(key, "width")) return size_of(t, v, &r->width, "width");
    if (!strcmp(key, "height")) return size_of(t, v, &r->height, "height");
    if (!strcmp(key, "depth")) return size_of(t, v, &r->depth, "depth");
    if (!strcmp(key, "pitch")) return size_of(t, v, &r->pitch, "pitch");
    if (!strcmp(key, "layers")) {
        if (size_of(t, v, &r->layers, "layers")) return -1;
        if (r->layers) r->flags |= PTXE_ARRAY_LAYERED;
        return 0;
    }
    if (!strcmp(key, "cubemap")) {
        if (flag(t, v, &i)) return -1;
        if (i) r->flags |= PTXE_ARRAY_CUBEMAP;
        return 0;
    }
    if ((i = word(t, v, res, "array, linear or pitch2d")) < 0) return -1;   /* resource */
    r->type = (ptxeResourceType)i;
    return 0;
}

/* one object NAME: { ... } of section `surf` (0 textures, 1 surfaces) */
static int one(run_tex *t, yaml_node_t *kn, yaml_node_t *v, int surf)
{
    if (!scalar(kn) || v->type != YAML_MAPPING_NODE)
        return fail(t, v, "found a %s, expected NAME: { buffer: B, format: F, width: W, ... }",
                    v->type == YAML_SEQUENCE_NODE ? "list" : "scalar");
    ptxeResourceDesc r;
    ptxeTextureDesc d;
    memset(&r, 0, sizeof r); memset(&d, 0, sizeof d);
    d.addressMode[0] = d.addressMode[1] = d.addressMode[2] = PTXE_ADDRESS_CLAMP;
    yaml_node_t *bind = NULL, *buf = NULL, *fmt = NULL, *wid = NULL;
    for (yaml_node_pair_t *p = v->data.mapping.pairs.start; p < v->data.mapping.pairs.top; p++) {
        yaml_node_t *k = yaml_document_get_node(t->doc, p->key);
        yaml_node_t *e = yaml_document_get_node(t->doc, p->value);
        const char *key = scalar(k);
        int i = 0;
        while (key && tex_keys[i] && strcmp(tex_keys[i], key)) i++;
        if (!key || !tex_keys[i] || (surf && i >= 10))
            return fail(t, k, "found key '%s', expected buffer, format, width, height, depth, "
                              "layers, cubemap, pitch, resource, bind%s", key ? key : "?",
                        surf ? "" : ", filter, address, normalized, read or border");
        if (i == 9) bind = e;
        else if (i >= 10 ? sampler(t, k, e, &d) : resource(t, k, e, &r)) return -1;
        buf = i == 0 ? e : buf; fmt = i == 1 ? e : fmt; wid = i == 2 ? e : wid;
    }
    if (!buf || !fmt || !wid)
        return fail(t, v, "found no %s, expected buffer, format and width", !buf ? "buffer" :
                    !fmt ? "format" : "width");
    uint64_t h;
    ptxeResult e = surf ? ptxeCreateSurfaceObject(t->ctx, &h, &r)
                        : ptxeCreateTextureObject(t->ctx, &h, &r, &d);
    if (e) return fail(t, v, "found %s", ptxeGetErrorMessage(t->ctx));
    if (add(t, kn, surf, h)) return -1;
    if (bind && (!scalar(bind) || ptxeModuleBindRef(t->mod, scalar(bind), h)))
        return fail(t, bind, "found bind '%s', expected a module-scope .global .%s variable",
                    scalar(bind) ? scalar(bind) : "?", surf ? "surfref" : "texref");
    return 0;
}

int run_tex_create(run_tex *t, yaml_node_t *tex, yaml_node_t *surf)
{
    for (int s = 0; s < 2; s++) {
        yaml_node_t *sec = s ? surf : tex;
        if (!sec) continue;
        if (sec->type != YAML_MAPPING_NODE)
            return fail(t, sec, "found a %s, expected a mapping NAME: { buffer: B, ... }",
                        sec->type == YAML_SEQUENCE_NODE ? "list" : "scalar");
        for (yaml_node_pair_t *p = sec->data.mapping.pairs.start; p < sec->data.mapping.pairs.top;
             p++)
            if (one(t, yaml_document_get_node(t->doc, p->key),
                    yaml_document_get_node(t->doc, p->value), s))
                return -1;
    }
    return 0;
}

int run_tex_param(run_tex *t, const char *key, yaml_node_t *v, uint64_t *handle)
{
    int surf = !strcmp(key, "surface");
    for (int i = 0; scalar(v) && i < t->nobjs; i++)
        if (t->objs[i].surf == surf && !strcmp(t->objs[i].name, scalar(v))) {
            *handle = t->objs[i].h;
            return 0;
        }
    return fail(t, v, "found %s '%s', expected one declared under %s", key,
                scalar(v) ? scalar(v) : "?", surf ? "surfaces" : "textures");
}

void run_tex_free(run_tex *t)
{
    for (int i = 0; i < t->nobjs; i++) free(t->objs[i].name);
    free(t->objs);
    t->objs = NULL; t->nobjs = 0;
}
