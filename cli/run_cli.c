/* cli/run_cli.c — `ptxlitmus run SPEC.yaml [--json FILE|-] [--max-steps N] [--timeout S]
 * [--max-memory B] [--schedule its|lockstep] [--sm-count N] [--no-outputs]`: reads a YAML launch
 * spec (module, kernel, grid/block/cluster, dynamic shared size, schedule, SM count, cooperative
 * launch, buffers with initial contents, multicast objects for multimem.*,
 * parameters, outputs; paths relative to the spec file), runs the kernel through the public
 * executor API (include/ptxexec.h) and writes the output buffers and the JSON report with the
 * atomic writer (base/fileio.h).  Exit status: 0 ok, 1 kernel fault, 2 bad input.  Format:
 * docs/executor.md.
 *
 * exec_run_cli is a sequence of phases, each a function below: options, spec, launch shape,
 * module, buffers, multicast objects, parameters, outputs check, launch, outputs, JSON.  Every
 * message about the spec has the form SPEC:LINE:COL: found X, expected Y (docs/reliability.md). */
#include <cjson/cJSON.h>
#include <errno.h>
#include <limits.h>
#include <libgen.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <yaml.h>

#include "base/alloc.h"
#include "base/diag.h"
#include "base/fileio.h"
#include "base/opts.h"
#include "base/sbuf.h"
#include "cli/run_cli.h"
#include "cli/run_checks.h"
#include "cli/run_tex.h"
#include "include/ptxexec.h"
#include "report/report.h"
#include "ptx/isa.h"

typedef struct {
    char *name;
    isa_type type;
    size_t count, esz;
    uint8_t *host;
    ptxeDevptr dev;
    int has_init;       /* init: given (else the buffer counts as never written for initcheck) */
    yaml_node_t *tmap_init;   /* init: { tensormap: NAME } (filled once buffers have addresses) */
} buffer;

typedef struct {
    const char *spec, *json;
    uint64_t max_steps, max_memory;
    int quiet;               /* -q: no line on success */
    double timeout;     /* --timeout SECONDS, 0: none */
    unsigned checks;    /* --check LIST (PTXE_CHECK_*), default memcheck */
    int no_printf;      /* --no-printf: device printf output not printed */
    int no_outputs;     /* check the outputs but write none (dry runs, the fuzz target) */
    ptxeSchedule schedule;   /* --schedule (PTXE_SCHEDULE_DEFAULT: the spec's, else the target's) */
    unsigned sm_count;  /* --sm-count N (0: the spec's, else the architecture's) */
} run_opts;

/* One run: the spec document, its buffers, the executor objects. */
typedef struct run_state {
    const char *spec;
    char dir[4096];
    yaml_document_t doc;
    int have_doc;
    yaml_node_t *root;
    buffer *bufs; int nbufs;
    struct mcobj { const char *name; ptxeDevptr mc; } *mcs; int nmcs;   /* multicast: */
    const char **tmnames; ptxeTensorMap *tmaps; int ntmaps;   /* tensormaps: (encoded) */
    int failed;
    uint64_t max_memory, mem_total;   /* --max-memory, bytes of buffers so far */
    unsigned checks;
    ptxeCtx *ctx; ptxeModule *mod; ptxeFunction *fn;
    ptxeLaunchConfig cfg;
    char *text, *mpath;
    void **args; uint8_t *argbuf;
    const char **ins; int nins;      /* the files read: spec, module, init files (output checks) */
    run_tex tex;                     /* textures: and surfaces: (cli/run_tex.c) */
    run_expect *exp; int nexp;       /* expect: the outputs' values */
} R;

static void add_input(R *r, const char *path)
{
    r->ins = xrealloc(r->ins, (size_t)(r->nins + 1) * sizeof *r->ins);
    r->ins[r->nins++] = xstrdup(path);
}

static int bad(R *r, const yaml_node_t *n, const char *fmt, ...)
{
    if (r->failed) return -1;
    r->failed = 1;
    va_list ap;
    va_start(ap, fmt);
    run_yaml_vfail(r->spec, n, fmt, ap);
    va_end(ap);
    return -1;
}

/* 0 when n is a mapping, else the error "found a list|scalar, expected a mapping WHAT" */
static int want_mapping(R *r, const yaml_node_t *n, const char *what)
{
    if (n->type == YAML_MAPPING_NODE) return 0;
    return bad(r, n, "found a %s, expected a mapping %s",
               n->type == YAML_SEQUENCE_NODE ? "list" : "scalar", what);
}

static const char *scalar(const yaml_node_t *n) { return run_yaml_scalar(n); }
static yaml_node_t *node(R *r, int i) { return yaml_document_get_node(&r->doc, i); }

static yaml_node_t *map_get(R *r, yaml_node_t *m, const char *key)
{
    if (!m || m->type != YAML_MAPPING_NODE) return NULL;
    for (yaml_node_pair_t *p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top; p++) {
        const char *k = scalar(node(r, p->key));
        if (k && !strcmp(k, key)) return node(r, p->value);
    }
    return NULL;
}

static char *path_of(R *r, const char *rel)
{
    size_t n = strlen(r->dir) + strlen(rel) + 2;
    char *p = xmalloc(n);
    if (rel[0] == '/') snprintf(p, n, "%s", rel);
    else snprintf(p, n, "%s/%s", r->dir, rel);
    return p;
}

static int parse_u64(R *r, yaml_node_t *n, uint64_t *v, uint64_t max, const char *what)
{
    const char *s = scalar(n);
    char *e;
    errno = 0;
    if (!s || !*s || *s == '-')
        return bad(r, n, "found '%s', expected %s (a non-negative integer)", s ? s : "a collection",
                   what);
    unsigned long long x = strtoull(s, &e, 0);
    if (*e || errno || x > max)
        return bad(r, n, "found '%s', expected %s (an integer up to %llu)", s, what,
                   (unsigned long long)max);
    *v = x;
    return 0;
}

static int parse_dim3(R *r, yaml_node_t *n, unsigned d[3], const char *what)
{
    d[0] = d[1] = d[2] = 1;
    if (!n) return 0;
    uint64_t v;
    if (n->type == YAML_SCALAR_NODE) {
        if (parse_u64(r, n, &v, 0x7fffffff, what)) return -1;
        d[0] = (unsigned)v;
    } else if (n->type == YAML_SEQUENCE_NODE) {
        int k = 0;
        for (yaml_node_item_t *it = n->data.sequence.items.start; it < n->data.sequence.items.top;
             it++, k++) {
            if (k == 3)
                return bad(r, node(r, *it), "found a 4th dimension, expected at most 3 in %s",
                           what);
            if (parse_u64(r, node(r, *it), &v, 0x7fffffff, what)) return -1;
            d[k] = (unsigned)v;
        }
        if (k == 0) return bad(r, n, "found an empty list, expected 1 to 3 dimensions in %s", what);
    } else return bad(r, n, "found a mapping, expected an integer or [x, y, z] for %s", what);
    for (int k = 0; k < 3; k++)
        if (!d[k]) return bad(r, n, "found a zero dimension, expected positive sizes in %s", what);
    return 0;
}

/* A number -> f16/bf16 bits: converted by the instruction semantics (cvt.rn.f16.f64 /
   cvt.rn.bf16.f64 in ptx/isa.c), one rounding from double. */
static uint16_t to_half(double d, isa_type t)
{
    isa_insn in;
    char e[160];
    uint64_t src, dst = 0;
    memcpy(&src, &d, 8);
    if (isa_decode(t == ISA_T_F16 ? "cvt.rn.f16.f64" : "cvt.rn.bf16.f64", ISA_T_NONE, &in, e,
                   sizeof e) ||
        isa_eval(&in, &src, &dst, e, sizeof e))
        abort(); /* the table always has these */
    return (uint16_t)dst;
}

/* A float as YAML writes it (1.2 core schema: .nan, .inf, -.inf, in any of .nan .NaN .NAN;
   issue #30: `.nan` was refused) or as strtod reads it (1.5, 1e-3, nan, inf).  0 or -1. */
static int yaml_float(const char *s, double *d)
{
    const char *v = s + (s[0] == '-' || s[0] == '+');
    static const char *const nans[] = { ".nan", ".NaN", ".NAN", NULL },
                             *const infs[] = { ".inf", ".Inf", ".INF", NULL };
    for (int i = 0; nans[i]; i++)
        if (v == s && !strcmp(s, nans[i])) { *d = NAN; return 0; }
    for (int i = 0; infs[i]; i++)
        if (!strcmp(v, infs[i])) { *d = s[0] == '-' ? -INFINITY : INFINITY; return 0; }
    char *e;
    *d = strtod(s, &e);
    return *e || e == s ? -1 : 0;
}

/* typed scalar -> little-endian bytes of isa type t */
static int typed_value(R *r, yaml_node_t *n, isa_type t, uint8_t *out)
{
    const char *s = scalar(n);
    if (!s) return bad(r, n, "found a collection, expected a %s value", isa_type_name(t));
    unsigned bytes = isa_type_bits(t) / 8;
    char *e; errno = 0;
    uint64_t bits;
    if (isa_type_is_float(t) && !(s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))) {
        double d;
        if (yaml_float(s, &d))
            return bad(r, n, "found '%s', expected a %s number (or .nan, .inf, -.inf)", s,
                       isa_type_name(t));
        if (t == ISA_T_F64) memcpy(&bits, &d, 8);
        else if (t == ISA_T_F32) { float f = (float)d; uint32_t u; memcpy(&u, &f, 4); bits = u; }
        else if (t == ISA_T_F16) bits = to_half(d, ISA_T_F16);
        else if (t == ISA_T_BF16) bits = to_half(d, ISA_T_BF16);
        else
            return bad(r, n, "found a number for type %s, expected hex bits (0x...)",
                       isa_type_name(t));
    } else if (isa_type_is_signed(t)) {
        long long v = strtoll(s, &e, 0);
        if (*e || e == s || errno)
            return bad(r, n, "found '%s', expected a %s integer", s, isa_type_name(t));
        unsigned b = bytes * 8;
        if (b < 64 && (v < -(1ll << (b - 1)) || v >= (1ll << (b - 1))))
            return bad(r, n, "found %s, expected a value in the range of %s", s, isa_type_name(t));
        bits = (uint64_t)v;
    } else {
        if (s[0] == '-') {   /* b/u types accept negative numbers as two's complement */
            long long v = strtoll(s, &e, 0);
            if (*e || e == s || errno)
                return bad(r, n, "found '%s', expected a %s integer", s, isa_type_name(t));
            bits = (uint64_t)v;
            if (bytes < 8 && v < -(1ll << (bytes * 8 - 1)))
                return bad(r, n, "found %s, expected a value in the range of %s", s,
                           isa_type_name(t));
        } else {
            unsigned long long v = strtoull(s, &e, 0);
            if (*e || e == s || errno)
                return bad(r, n, "found '%s', expected a %s integer", s, isa_type_name(t));
            if (bytes < 8 && v >> (bytes * 8))
                return bad(r, n, "found %s, expected a value in the range of %s", s,
                           isa_type_name(t));
            bits = v;
        }
    }
    memcpy(out, &bits, bytes);
    return 0;
}

static isa_type scalar_type(const char *s)
{
    isa_type t = isa_type_parse(s);
    switch (t) {
    case ISA_T_B8:
    case ISA_T_B16:
    case ISA_T_B32:
    case ISA_T_B64:
    case ISA_T_U8:
    case ISA_T_U16:
    case ISA_T_U32:
    case ISA_T_U64:
    case ISA_T_S8:
    case ISA_T_S16:
    case ISA_T_S32:
    case ISA_T_S64:
    case ISA_T_F16:
    case ISA_T_BF16:
    case ISA_T_F32: case ISA_T_F64: return t;
    default: return ISA_T_NONE;
    }
}

static buffer *find_buf(R *r, const char *name)
{
    for (int i = 0; i < r->nbufs; i++) if (!strcmp(r->bufs[i].name, name)) return &r->bufs[i];
    return NULL;
}

/* init: { file: F } — exactly count x size bytes */
static int init_from_file(R *r, buffer *b, yaml_node_t *iv)
{
    if (!scalar(iv)) return bad(r, iv, "found a collection, expected a file name");
    char *data = NULL, *path = path_of(r, scalar(iv)), why[200];
    size_t len = 0, need = b->count * b->esz;
    add_input(r, path);
    if (read_input(path, need, &data, &len, why, sizeof why)) {
        if (errno == EFBIG) len = need + 1;   /* larger than the buffer */
        else bad(r, iv, "found '%s' (%s), expected a readable regular file", path, why);
    }
    if (!r->failed && len != need)
        bad(r, iv, "file '%s' has %s bytes, expected exactly %llu (%llu x %s)", path,
            len > need ? "more" : "fewer", (unsigned long long)need, (unsigned long long)b->count,
            isa_type_name(b->type));
    if (!r->failed) memcpy(b->host, data, need);
    free(data);
    free(path);
    return r->failed ? -1 : 0;
}

/* init: { iota: START } — START, START + 1, ... in the buffer's type */
static int init_iota(R *r, buffer *b, yaml_node_t *iv)
{
    const char *s = scalar(iv);
    double start = 0;
    if (!s || yaml_float(s, &start) || !isfinite(start))
        return bad(r, iv, "found '%s', expected a starting number", s ? s : "?");
    for (size_t i = 0; i < b->count; i++) {
        double d = start + (double)i;
        uint64_t bits;
        if (b->type == ISA_T_F64) memcpy(&bits, &d, 8);
        else if (b->type == ISA_T_F32) {
            float f = (float)d;
            uint32_t u;
            memcpy(&u, &f, 4);
            bits = u;
        } else if (b->type == ISA_T_F16) bits = to_half(d, ISA_T_F16);
        else if (b->type == ISA_T_BF16) bits = to_half(d, ISA_T_BF16);
        else bits = (uint64_t)(int64_t)d;
        memcpy(b->host + i * b->esz, &bits, b->esz);
    }
    return 0;
}

/* init: one of { file: F } { fill: V } { values: [...] } { iota: START } */
static int init_buffer(R *r, buffer *b, yaml_node_t *in)
{
    if (in->type != YAML_MAPPING_NODE ||
        in->data.mapping.pairs.top - in->data.mapping.pairs.start != 1)
        return bad(r, in,
                   "found a bad init, expected one of { file: F } { fill: V } { values: [...] } { "
                   "iota: START }");
    const char *ik = scalar(node(r, in->data.mapping.pairs.start->key));
    yaml_node_t *iv = node(r, in->data.mapping.pairs.start->value);
    if (!ik) return bad(r, in, "found a bad init key, expected file, fill, values or iota");
    if (!strcmp(ik, "tensormap")) {   /* the 128 bytes of a map of tensormaps: (upload_buffers) */
        if (b->count * b->esz < 128)
            return bad(r, in, "found a tensormap init of a %zu-byte buffer, expected 128 bytes or "
                              "more", b->count * b->esz);
        b->tmap_init = iv;
        return 0;
    }
    if (!strcmp(ik, "file")) return init_from_file(r, b, iv);
    if (!strcmp(ik, "iota")) return init_iota(r, b, iv);
    if (!strcmp(ik, "fill")) {
        uint8_t val[8];
        if (typed_value(r, iv, b->type, val)) return -1;
        for (size_t i = 0; i < b->count; i++) memcpy(b->host + i * b->esz, val, b->esz);
        return 0;
    }
    if (strcmp(ik, "values"))
        return bad(r, in, "found init key '%s', expected file, fill, values or iota", ik);
    if (iv->type != YAML_SEQUENCE_NODE)
        return bad(r, iv, "found a scalar, expected a list of values");
    size_t i = 0;
    for (yaml_node_item_t *it = iv->data.sequence.items.start; it < iv->data.sequence.items.top;
         it++, i++) {
        if (i >= b->count)
            return bad(r, node(r, *it), "found more than %llu values, expected at most count",
                       (unsigned long long)b->count);
        if (typed_value(r, node(r, *it), b->type, b->host + i * b->esz)) return -1;
    }
    return 0;
}

/* A new buffer `name` of type tn, count cn and init in (NULL: none); v: the node for errors */
static int new_buffer(R *r, const char *name, yaml_node_t *v, yaml_node_t *tn, yaml_node_t *cn,
                      yaml_node_t *in)
{
    buffer *b = &r->bufs[r->nbufs++];
    b->name = xstrdup(name);
    if (!tn)
        return bad(r, v,
                   "found no 'type' for buffer '%s', expected one of u8..u64 s8..s64 b8..b64 f16 "
                   "bf16 f32 f64",
                   name);
    b->type = scalar_type(scalar(tn) ? scalar(tn) : "");
    if (b->type == ISA_T_NONE)
        return bad(r, tn,
                   "found type '%s', expected one of u8..u64 s8..s64 b8..b64 f16 bf16 f32 f64",
                   scalar(tn) ? scalar(tn) : "?");
    b->esz = isa_type_bits(b->type) / 8;
    uint64_t cnt;
    if (!cn)
        return bad(r, v, "found no 'count' for buffer '%s', expected a number of elements", name);
    if (parse_u64(r, cn, &cnt, (1ull << 32) / b->esz, "an element count")) return -1;
    b->count = cnt;
    r->mem_total += cnt * b->esz;
    if (r->mem_total > r->max_memory)
        return bad(r, cn,
                   "found %llu bytes of buffers in all, expected at most %llu bytes of device "
                   "memory (limit --max-memory)",
                   (unsigned long long)r->mem_total, (unsigned long long)r->max_memory);
    b->host = xcalloc(cnt * b->esz + 1, 1);
    b->has_init = in != NULL;
    return in ? init_buffer(r, b, in) : 0;
}

/* Are the keys of mapping v all in keys (NULL-terminated)?  what: for the message. */
static int only_keys(R *r, yaml_node_t *v, const char *const *keys, const char *what)
{
    for (yaml_node_pair_t *q = v->data.mapping.pairs.start; q < v->data.mapping.pairs.top; q++) {
        const char *k = scalar(node(r, q->key));
        int ok = 0;
        for (int i = 0; keys[i] && k; i++) ok |= !strcmp(k, keys[i]);
        if (!ok) return bad(r, node(r, q->key), "found key '%s', expected %s", k ? k : "?", what);
    }
    return 0;
}

/* One buffer: name: { type: T, count: N, init: ... } */
static int declare_buffer(R *r, yaml_node_t *kn, yaml_node_t *v)
{
    static const char *const keys[] = { "type", "count", "init", NULL };
    const char *name = scalar(kn);
    if (!name) return bad(r, kn, "found a collection, expected a buffer name");
    if (find_buf(r, name))
        return bad(r, kn, "found buffer '%s' twice, expected unique names", name);
    if (v->type != YAML_MAPPING_NODE)
        return bad(r, v, "found a %s, expected { type: T, count: N }",
                   v->type == YAML_SCALAR_NODE ? "scalar" : "list");
    if (only_keys(r, v, keys, "type, count or init")) return -1;
    return new_buffer(r, name, v, map_get(r, v, "type"), map_get(r, v, "count"),
                      map_get(r, v, "init"));
}

static int load_buffers(R *r, yaml_node_t *bn)
{
    if (!bn) return 0;
    if (want_mapping(r, bn, "name: { type, count, init }")) return -1;
    int n = (int)(bn->data.mapping.pairs.top - bn->data.mapping.pairs.start);
    r->bufs = xcalloc((size_t)n + 1, sizeof *r->bufs);
    for (yaml_node_pair_t *p = bn->data.mapping.pairs.start; p < bn->data.mapping.pairs.top; p++)
        if (declare_buffer(r, node(r, p->key), node(r, p->value))) return -1;
    return 0;
}

/* Buffers are written as one pre-rendered JSON array (a cJSON raw item) with exactly the text
 * cJSON would print for the array of items ("[a, b, c]" in formatted output): integral numbers
 * below 1e15 as their integer digits (cJSON: "%d", or "%1.15g", which shows such a value as
 * its digits), other numbers through cJSON itself, strings ("0x..", "nan", "inf") quoted.
 * This avoids one cJSON item, one allocation and a printf/scanf round trip per element, which
 * dominated `run --json` on large buffers.  Memory comes from base/sbuf (running out ends the
 * run with a message: a buffer is never dropped from the report). */
static void sb_number(sbuf *b, double d)
{
    char s[64];
    if (fabs(d) < 1e15 && d == (double)(long long)d &&
        !(d == 0 && signbit(d))) { /* -0: cJSON prints "-0" */
        long long v = (long long)d;
        unsigned long long u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
        char *e = s + sizeof s, *q = e;
        do { *--q = (char)('0' + u % 10); u /= 10; } while (u);
        if (v < 0) *--q = '-';
        sb_put(b, q, (size_t)(e - q));
        return;
    }
    cJSON *n = cJSON_CreateNumber(d);
    char *t = n ? cJSON_PrintUnformatted(n) : NULL;
    if (!t) x_out_of_memory(64);
    sb_put(b, t, strlen(t));
    free(t);
    cJSON_Delete(n);
}

static cJSON *buffer_json(const buffer *b)
{
    sbuf o = { 0 };
    sb_put(&o, "[", 1);
    for (size_t i = 0; i < b->count; i++) {
        if (i) sb_put(&o, ", ", 2);
        uint64_t v = 0; memcpy(&v, b->host + i * b->esz, b->esz);
        double d;
        if (b->type == ISA_T_F32) { uint32_t u = (uint32_t)v; float f; memcpy(&f, &u, 4); d = f; }
        else if (b->type == ISA_T_F64) memcpy(&d, &v, 8);
        else if (isa_type_is_signed(b->type)) {
            unsigned sh = 64 - 8 * (unsigned)b->esz;
            d = (double)((int64_t)(v << sh) >> sh);
        } else if (b->type == ISA_T_F16 || b->type == ISA_T_BF16 || b->esz == 8) {
            char s[40];
            int k = snprintf(s, sizeof s, "\"0x%0*llx\"", (int)b->esz * 2, (unsigned long long)v);
            sb_put(&o, s, (size_t)k);
            continue;
        } else d = (double)v;
        if (isnan(d)) sb_put(&o, "\"nan\"", 5);
        else if (isinf(d)) { if (d > 0) sb_put(&o, "\"inf\"", 5); else sb_put(&o, "\"-inf\"", 6); }
        else sb_number(&o, d);
    }
    sb_put(&o, "]", 1);
    cJSON *a = cJSON_CreateRaw(o.s);
    if (!a) x_out_of_memory(o.n);
    sb_free(&o);
    return a;
}


static int usage_to(FILE *f)
{
    fprintf(f, "usage: ptxlitmus run SPEC.yaml [--json FILE|-] [--max-steps N] [--timeout S] "
               "[--check memcheck,racecheck,synccheck,initcheck] [--no-printf] "
               "[--max-memory BYTES[K|M|G]] [--schedule its|lockstep] [--sm-count N] "
               "[--no-outputs] [-q] [-v]\n");
    return 2;
}
static int usage(void) { return usage_to(stderr); }

/* --max-memory BYTES[K|M|G], positive, at most 1 TiB */
static int parse_size(const char *s, uint64_t *out)
{
    return parse_bytes(s, 1ull << 40, out) || !*out ? -1 : 0;
}

enum { R_JSON = 1, R_STEPS, R_MEMORY, R_NO_OUTPUTS, R_NO_PRINTF, R_TIMEOUT, R_CHECK, R_SCHEDULE,
       R_SMS };

/* a schedule's name: its or lockstep (PTXE_SCHEDULE_DEFAULT: neither) */
static ptxeSchedule schedule_named(const char *s)
{
    return !s ? PTXE_SCHEDULE_DEFAULT : !strcmp(s, "its") ? PTXE_SCHEDULE_ITS
           : !strcmp(s, "lockstep")                     ? PTXE_SCHEDULE_LOCKSTEP
                                                        : PTXE_SCHEDULE_DEFAULT;
}
static const opt_def run_defs[] = {
    OPT_COMMON,
    { "json", 0, R_JSON | OPT_ONCE, "a file name or -", NULL },
    { "max-steps", 0, R_STEPS, "a positive integer", NULL },
    { "max-memory", 0, R_MEMORY, "a size in bytes", NULL },
    { "timeout", 0, R_TIMEOUT, "a number of seconds", "timeout" },
    { "check", 0, R_CHECK, "a list of checks", NULL },
    { "schedule", 0, R_SCHEDULE, "its or lockstep", NULL },
    { "sm-count", 0, R_SMS, "a number of SMs", NULL },
    { "no-outputs", 0, R_NO_OUTPUTS, NULL, NULL },
    { "no-printf", 0, R_NO_PRINTF, NULL, NULL },
    { NULL, 0, 0, NULL, NULL },
};

/* Phase 1: the command line (base/opts.h).  Returns -1 to go on, else the exit status. */
static int parse_options(int argc, char **argv, run_opts *o)
{
    memset(o, 0, sizeof *o);
    o->max_memory = PTXE_DEFAULT_MEMORY_LIMIT;
    o->checks = PTXE_CHECK_MEMCHECK;
    opt_parser p;
    opt_init(&p, "run", run_defs, argc, argv);
    int id, rc = -1;
    while (rc < 0 && (id = opt_next(&p)) != OPT_END) {
        char *e;
        switch (id) {
        case OPT_ERROR: rc = usage(); break;
        case OPT_HELP: usage_to(stdout); rc = 0; break;
        case OPT_QUIET: o->quiet = 1; break;
        case OPT_VERBOSE: break;
        case R_NO_OUTPUTS: o->no_outputs = 1; break;
        case R_NO_PRINTF: o->no_printf = 1; break;
        case R_JSON: o->json = p.arg; break;
        case R_CHECK: if (run_parse_checks(p.arg, &o->checks)) rc = 2; break;
        case R_STEPS:
            errno = 0;
            o->max_steps = strtoull(p.arg, &e, 10);
            if (*e || errno || !o->max_steps || p.arg[0] == '-') {
                fprintf(stderr,
                        "ptxlitmus run: --max-steps: found '%s', expected a positive integer\n",
                        p.arg);
                rc = 2;
            }
            break;
        case R_SCHEDULE:
            if (!(o->schedule = schedule_named(p.arg))) {
                fprintf(stderr, "ptxlitmus run: --schedule: found '%s', expected its or lockstep\n",
                        p.arg);
                rc = 2;
            }
            break;
        case R_SMS:
            errno = 0;
            o->sm_count = (unsigned)strtoul(p.arg, &e, 10);
            if (*e || errno || !o->sm_count || o->sm_count > 4096 || p.arg[0] == '-') {
                fprintf(stderr,
                        "ptxlitmus run: --sm-count: found '%s', expected a number of SMs from 1 "
                        "to 4096\n",
                        p.arg);
                rc = 2;
            }
            break;
        case R_TIMEOUT:
            errno = 0;
            o->timeout = strtod(p.arg, &e);
            if (e != p.arg && *e == 's' && !e[1]) e++;
            if (e == p.arg || *e || errno || !(o->timeout > 0) || o->timeout > 1e6) {
                fprintf(stderr,
                        "ptxlitmus run: --timeout: found '%s', expected a positive number of "
                        "seconds (fractions allowed) up to 1000000\n",
                        p.arg);
                rc = 2;
            }
            break;
        case R_MEMORY:
            if (parse_size(p.arg, &o->max_memory)) {
                fprintf(stderr,
                        "ptxlitmus run: --max-memory: found '%s', expected a positive size in "
                        "bytes (K, M, G suffixes) up to 1T\n",
                        p.arg);
                rc = 2;
            }
            break;
        }
    }
    for (int i = 0; rc < 0 && i < p.npos; i++) {
        if (o->spec) {
            fprintf(stderr, "ptxlitmus run: found a second spec '%s', expected one\n", p.pos[i]);
            rc = 2;
        } else o->spec = p.pos[i];
    }
    opt_free(&p);
    if (rc >= 0) return rc;
    return o->spec ? -1 : usage();
}

/* Phase 2: the spec as a YAML document whose top is a mapping of known keys. */
static int read_spec(R *r)
{
    char *text, why[200];
    size_t len;
    char *tmp = xstrdup(r->spec);
    snprintf(r->dir, sizeof r->dir, "%s", dirname(tmp));
    free(tmp);
    add_input(r, r->spec);
    if (read_input(r->spec, FILEIO_CAP_DEFAULT, &text, &len, why, sizeof why)) {
        fprintf(stderr, "%s:1:1: found no readable spec (%s), expected a YAML launch spec\n",
                r->spec, why);
        return r->failed = 1, -1;
    }
    yaml_parser_t yp;
    yaml_parser_initialize(&yp);
    yaml_parser_set_input_string(&yp, (const unsigned char *)text, len);
    int ok = yaml_parser_load(&yp, &r->doc);
    if (!ok) {   /* libyaml says what it did not find ("did not find expected ','"): restate it */
        const char *pb = yp.problem ? yp.problem : "a YAML error", *exp = strstr(pb, "expected ");
        const char *sp = yp.context ? " " : "", *ctx = yp.context ? yp.context : "";
        size_t line = yp.problem_mark.line + 1, col = yp.problem_mark.column + 1;
        if (exp)
            fprintf(stderr, "%s:%zu:%zu: found a YAML syntax error%s%s, expected %s\n", r->spec,
                    line, col, sp, ctx, exp + 9);
        else if (!strncmp(pb, "found ", 6))
            fprintf(stderr, "%s:%zu:%zu: %s, expected valid YAML\n", r->spec, line, col, pb);
        else
            fprintf(stderr, "%s:%zu:%zu: found %s%s%s, expected valid YAML\n", r->spec, line, col,
                    pb, sp, ctx);
        r->failed = 1;
    }
    yaml_parser_delete(&yp);
    free(text);
    if (!ok) return -1;
    r->have_doc = 1;
    r->root = yaml_document_get_root_node(&r->doc);
    yaml_node_t *root = r->root;
    if (!root || root->type != YAML_MAPPING_NODE)
        return bad(r, root, "found %s, expected a mapping with module, grid, block, ...",
                   root ? "a non-mapping document" : "an empty document");
    static const char *const keys[] = { "module",       "kernel",   "grid",       "block",
                                        "cluster",      "shared_bytes", "schedule", "sm_count",
                                        "cooperative",  "malloc_heap_bytes", "buffers", "params",
                                        "outputs",      "multicast", "tensormaps", "textures",
                                        "surfaces",     "expect",    NULL };
    for (yaml_node_pair_t *p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top;
         p++) {
        const char *k = scalar(node(r, p->key));
        int known = 0;
        for (int i = 0; keys[i] && k; i++) known |= !strcmp(k, keys[i]);
        if (!known)
            return bad(r, node(r, p->key),
                       "found key '%s', expected module, kernel, grid, block, cluster, "
                       "shared_bytes, schedule, sm_count, cooperative, malloc_heap_bytes, "
                       "buffers, multicast, tensormaps, textures, surfaces, params, outputs or "
                       "expect",
                       k ? k : "?");
    }
    return 0;
}

/* schedule: its|lockstep, sm_count: N, cooperative: true|false (the command line's --schedule
 * and --sm-count win over the spec's) */
static int launch_schedule(R *r, const run_opts *o)
{
    ptxeLaunchConfig *c = &r->cfg;
    yaml_node_t *sc = map_get(r, r->root, "schedule"), *sm = map_get(r, r->root, "sm_count"),
                *co = map_get(r, r->root, "cooperative");
    uint64_t v;
    if (sc && !(c->schedule = schedule_named(scalar(sc))))
        return bad(r, sc, "found schedule '%s', expected its or lockstep",
                   scalar(sc) ? scalar(sc) : "a collection");
    if (sm) {
        if (parse_u64(r, sm, &v, 4096, "sm_count") || (!v && bad(r, sm, "found sm_count 0, "
                                                                  "expected 1 to 4096")))
            return -1;
        c->sm_count = (unsigned)v;
    }
    if (co) {
        const char *s = scalar(co);
        if (!s || (strcmp(s, "true") && strcmp(s, "false")))
            return bad(r, co, "found cooperative '%s', expected true or false",
                       s ? s : "a collection");
        c->cooperative = !strcmp(s, "true");
    }
    if (o->schedule) c->schedule = o->schedule;
    if (o->sm_count) c->sm_count = o->sm_count;
    return 0;
}

/* Phase 3: grid, block, cluster, shared_bytes and the launch-shape limits, reported at the node
 * (CUDA: block x,y <= 1024, z <= 64, 1024 threads; grid y,z <= 65535); per-warp statistics
 * limit one launch to 2^26 warps. */
static int launch_shape(R *r, const run_opts *o)
{
    uint64_t max_steps = o->max_steps;
    double timeout = o->timeout;
    ptxeLaunchConfig *c = &r->cfg;
    yaml_node_t *gn = map_get(r, r->root, "grid"), *bn = map_get(r, r->root, "block");
    memset(c, 0, sizeof *c);
    c->max_steps = max_steps;
    c->timeout = timeout;
    yaml_node_t *mn = map_get(r, r->root, "module");
    if (!scalar(mn)) return bad(r, mn ? mn : r->root, "found no module, expected module: FILE.ptx");
    if (parse_dim3(r, gn, c->grid, "grid") || parse_dim3(r, bn, c->block, "block")) return -1;
    if (!gn || !bn)
        return bad(r, r->root, "found no %s, expected grid and block", gn ? "block" : "grid");
    unsigned long long nt = (unsigned long long)c->block[0] * c->block[1] * c->block[2];
    if (c->block[0] > 1024 || c->block[1] > 1024 || c->block[2] > 64 || nt > 1024)
        return bad(r, bn,
                   "found block (%u,%u,%u) of %llu threads, expected at most 1024 threads (x,y <= "
                   "1024, z <= 64)",
                   c->block[0], c->block[1], c->block[2], nt);
    unsigned long long nctas = (unsigned long long)c->grid[0] * c->grid[1] * c->grid[2],
                       nwarps = nctas * ((nt + 31) / 32);
    if (c->grid[1] > 65535 || c->grid[2] > 65535)
        return bad(r, gn, "found grid (%u,%u,%u), expected y and z at most 65535", c->grid[0],
                   c->grid[1], c->grid[2]);
    if (nwarps > (1ull << 26))
        return bad(r, gn,
                   "found a launch of %llu CTAs (%llu warps), expected at most 67108864 warps in "
                   "one launch",
                   nctas, nwarps);
    yaml_node_t *cn = map_get(r, r->root, "cluster"), *sn = map_get(r, r->root, "shared_bytes");
    if (cn && parse_dim3(r, cn, c->cluster, "cluster")) return -1;
    uint64_t v;
    if (sn) {
        if (parse_u64(r, sn, &v, 232448, "shared_bytes")) return -1;
        c->shared_bytes = (unsigned)v;
    }
    return launch_schedule(r, o);
}

/* Phase 4: the module, loaded into a new context, and the kernel. */
static int load_module(R *r)
{
    yaml_node_t *mn = map_get(r, r->root, "module"), *kn = map_get(r, r->root, "kernel");
    size_t tl;
    char why[200];
    r->mpath = path_of(r, scalar(mn));
    add_input(r, r->mpath);
    if (read_input(r->mpath, FILEIO_CAP_DEFAULT, &r->text, &tl, why, sizeof why))
        return bad(r, mn, "found module '%s' (%s), expected a readable PTX file", r->mpath, why);
    if (ptxeCtxCreate(&r->ctx)) return bad(r, NULL, "out of memory");
    ptxeCtxSetMemoryLimit(r->ctx, r->max_memory);
    ptxeCtxSetChecks(r->ctx, r->checks);   /* before the buffers: initcheck tracks host writes */
    yaml_node_t *hn = map_get(r, r->root, "malloc_heap_bytes");   /* cudaLimitMallocHeapSize */
    uint64_t heap;
    if (hn && parse_u64(r, hn, &heap, 1ull << 36, "malloc_heap_bytes")) return -1;
    if (hn) ptxeCtxSetMallocHeapSize(r->ctx, (size_t)heap);
    if (ptxeModuleLoadData(r->ctx, &r->mod, r->text, tl, r->mpath)) {
        fprintf(stderr, "%s\n", ptxeGetErrorMessage(r->ctx));
        return r->failed = 1, -1;
    }
    if (kn && !scalar(kn)) return bad(r, kn, "found a collection, expected a kernel name");
    if (ptxeModuleGetFunction(&r->fn, r->mod, kn ? scalar(kn) : NULL))
        return bad(r, kn ? kn : mn, "%s", ptxeGetErrorMessage(r->ctx));
    return 0;
}

/* tensormaps: NAME: { buffer: B, type: T, dims: [...], strides: [...], box: [...],
 * element_strides: [...], interleave, swizzle, l2_promotion, oob_fill, offset } or, with
 * mode: im2col, lower: [...], upper: [...], channels: C, pixels: P instead of box: a tensor map
 * of buffer B (ptxeTensorMapEncodeTiled / Im2col, docs/executor.md), for { tensormap: NAME }
 * params and buffer inits.  A list of up to 5 integers, dimension 0 first. */
static int int_list(R *r, yaml_node_t *n, int64_t *v, int want, int64_t lo, int64_t hi,
                    const char *what)
{
    if (!n || n->type != YAML_SEQUENCE_NODE)
        return bad(r, n, "found %s, expected %s: a list of %d integers", n ? "a scalar" : "none",
                   what, want);
    int k = (int)(n->data.sequence.items.top - n->data.sequence.items.start);
    if (k != want) return bad(r, n, "found %d %s, expected %d (the rank)", k, what, want);
    for (int i = 0; i < k; i++) {
        yaml_node_t *e = node(r, n->data.sequence.items.start[i]);
        const char *s = scalar(e);
        char *end;
        errno = 0;
        long long x = s ? strtoll(s, &end, 0) : 0;
        if (!s || !*s || *end || errno || x < lo || x > hi)
            return bad(r, e, "found '%s', expected an integer %lld..%lld in %s",
                       s ? s : "a collection", (long long)lo, (long long)hi, what);
        v[i] = x;
    }
    return 0;
}

/* a word of words[] (index), or dflt when the key is absent */
static int tm_word(R *r, yaml_node_t *m, const char *key, const char *const *words, int dflt)
{
    yaml_node_t *n = map_get(r, m, key);
    if (!n) return dflt;
    char all[200] = "";
    for (int i = 0; words[i]; i++) {
        if (scalar(n) && !strcmp(scalar(n), words[i])) return i;
        snprintf(all + strlen(all), sizeof all - strlen(all), "%s%s", i ? " " : "", words[i]);
    }
    return bad(r, n, "found %s '%s', expected one of %s", key, scalar(n) ? scalar(n) : "?", all);
}

static int tm_lists(R *r, yaml_node_t *v, int t, int rank, int im2col, int64_t dims[5],
                    int64_t str[4], int64_t box[5], int64_t es[5], int64_t lo[3], int64_t hi[3])
{
    static const unsigned esz[13] = { 1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4 };
    if (int_list(r, map_get(r, v, "dims"), dims, rank, 1, UINT32_MAX, "dims")) return -1;
    yaml_node_t *sn = map_get(r, v, "strides"), *en = map_get(r, v, "element_strides");
    str[0] = (int64_t)esz[t] * dims[0];   /* default: dense */
    for (int d = 1; d < rank - 1; d++) str[d] = str[d - 1] * dims[d];
    if (sn && int_list(r, sn, str, rank - 1, 1, INT64_MAX, "strides")) return -1;
    for (int d = 0; d < 5; d++) es[d] = 1;
    if (en && int_list(r, en, es, rank, 0, 255, "element_strides")) return -1;
    if (!im2col) return int_list(r, map_get(r, v, "box"), box, rank, 0, 1 << 20, "box");
    return int_list(r, map_get(r, v, "lower"), lo, rank - 2, -32768, 32767, "lower") ||
           int_list(r, map_get(r, v, "upper"), hi, rank - 2, -32768, 32767, "upper");
}

static int encode_tmap(R *r, yaml_node_t *kn, yaml_node_t *v, ptxeTensorMap *out)
{
    static const char *const keys[] = { "buffer", "offset", "mode", "type", "dims", "strides",
                                        "box", "element_strides", "interleave", "swizzle",
                                        "l2_promotion", "oob_fill", "lower", "upper",
                                        "channels", "pixels", NULL };
    if (v->type != YAML_MAPPING_NODE)
        return bad(r, v, "found a scalar, expected a mapping { buffer, type, dims, box, ... }");
    for (yaml_node_pair_t *q = v->data.mapping.pairs.start; q < v->data.mapping.pairs.top; q++) {
        const char *k = scalar(node(r, q->key));
        int known = 0;
        for (int i = 0; keys[i] && k; i++) known |= !strcmp(k, keys[i]);
        if (!known)
            return bad(r, node(r, q->key), "found key '%s', expected a tensor-map field (buffer "
                       "offset mode type dims strides box element_strides interleave swizzle "
                       "l2_promotion oob_fill lower upper channels pixels)", k ? k : "?");
    }
    yaml_node_t *bn = map_get(r, v, "buffer"), *dn = map_get(r, v, "dims"), *on;
    const buffer *b = scalar(bn) ? find_buf(r, scalar(bn)) : NULL;
    if (!b)
        return bad(r, bn ? bn : v, "found %s, expected buffer: a buffer declared under buffers",
                   scalar(bn) ? scalar(bn) : "no buffer");
    uint64_t off = 0, ch = 0, px = 0;
    if ((on = map_get(r, v, "offset")) && parse_u64(r, on, &off, b->count * b->esz, "offset"))
        return -1;
    int im2col = tm_word(r, v, "mode", (const char *const[]){ "tile", "im2col", NULL }, 0);
    int type = tm_word(r, v, "type", (const char *const[]){ "u8", "u16", "u32", "s32", "u64",
                                                           "s64", "f16", "f32", "f64", "bf16",
                                                           "f32.ftz", "tf32", "tf32.ftz", NULL },
                       -1);
    int il = tm_word(r, v, "interleave", (const char *const[]){ "none", "16B", "32B", NULL }, 0);
    int sw = tm_word(r, v, "swizzle", (const char *const[]){ "none", "32B", "64B", "128B", NULL },
                     0);
    int l2 = tm_word(r, v, "l2_promotion",
                     (const char *const[]){ "none", "64B", "128B", "256B", NULL }, 0);
    int fill = tm_word(r, v, "oob_fill", (const char *const[]){ "zeros", "nan", NULL }, 0);
    if (r->failed) return -1;
    if (type < 0) return bad(r, v, "found no type, expected type: u8 .. tf32.ftz");
    int rank = dn && dn->type == YAML_SEQUENCE_NODE
                   ? (int)(dn->data.sequence.items.top - dn->data.sequence.items.start) : 0;
    if (rank < 1 || rank > 5) return bad(r, dn ? dn : v, "found %d dims, expected 1..5", rank);
    int64_t dims[5], str[4] = { 0 }, box[5], es[5], lo[3], hi[3];
    if (tm_lists(r, v, type, rank, im2col, dims, str, box, es, lo, hi)) return -1;
    uint64_t gd[5], gs[4];
    uint32_t bx[5], e[5];
    int l3[3], h3[3];
    for (int d = 0; d < rank; d++) {
        gd[d] = (uint64_t)dims[d]; e[d] = (uint32_t)es[d]; bx[d] = (uint32_t)box[d];
        if (d < rank - 1) gs[d] = (uint64_t)str[d];
        if (d < rank - 2 && im2col) { l3[d] = (int)lo[d]; h3[d] = (int)hi[d]; }
    }
    if (im2col && (parse_u64(r, map_get(r, v, "channels"), &ch, 1024, "channels") ||
                   parse_u64(r, map_get(r, v, "pixels"), &px, 4096, "pixels")))
        return -1;
    ptxeResult res =
        im2col ? ptxeTensorMapEncodeIm2col(r->ctx, out, type, (uint32_t)rank, b->dev + off, gd,
                                           gs, l3, h3, (uint32_t)ch, (uint32_t)px, e, il, sw, l2,
                                           fill)
               : ptxeTensorMapEncodeTiled(r->ctx, out, type, (uint32_t)rank, b->dev + off, gd, gs,
                                          bx, e, il, sw, l2, fill);
    if (res)
        return bad(r, kn, "found a bad tensor map '%s' (%s), expected the rules of "
                   "cuTensorMapEncode%s", scalar(kn), ptxeGetErrorMessage(r->ctx),
                   im2col ? "Im2col" : "Tiled");
    return 0;
}

static int load_tensormaps(R *r, yaml_node_t *tn)
{
    if (!tn) return 0;
    if (want_mapping(r, tn, "name: { buffer, type, dims, ... }")) return -1;
    int n = (int)(tn->data.mapping.pairs.top - tn->data.mapping.pairs.start);
    r->tmnames = xcalloc((size_t)n + 1, sizeof *r->tmnames);
    r->tmaps = xcalloc((size_t)n + 1, sizeof *r->tmaps);
    for (int i = 0; i < n; i++) {
        yaml_node_pair_t *q = &tn->data.mapping.pairs.start[i];
        yaml_node_t *kn = node(r, q->key);
        if (!scalar(kn)) return bad(r, kn, "found a collection, expected a tensor-map name");
        if (encode_tmap(r, kn, node(r, q->value), &r->tmaps[i])) return -1;
        r->tmnames[i] = scalar(kn);
        r->ntmaps = i + 1;
    }
    return 0;
}

/* the map a { tensormap: NAME } names; NULL after a report */
static const ptxeTensorMap *find_tmap(R *r, yaml_node_t *n)
{
    for (int i = 0; scalar(n) && i < r->ntmaps; i++)
        if (!strcmp(r->tmnames[i], scalar(n))) return &r->tmaps[i];
    bad(r, n, "found tensormap '%s', expected a map declared under tensormaps",
        scalar(n) ? scalar(n) : "?");
    return NULL;
}

/* Phase 5: buffers, declared, initialised and copied to device memory. */
static int upload_buffers(R *r)
{
    if (load_buffers(r, map_get(r, r->root, "buffers"))) return -1;
    for (int i = 0; i < r->nbufs; i++) {
        buffer *b = &r->bufs[i];
        if (ptxeMemAlloc(r->ctx, &b->dev, b->count * b->esz))
            return bad(r, NULL, "out of device memory for buffer '%s'", b->name);
        ptxeMemSetName(r->ctx, b->dev, b->name);
    }
    /* the tensor maps need the buffers' addresses; buffers may hold maps */
    if (load_tensormaps(r, map_get(r, r->root, "tensormaps"))) return -1;
    for (int i = 0; i < r->nbufs; i++) {
        buffer *b = &r->bufs[i];
        const ptxeTensorMap *tm = b->tmap_init ? find_tmap(r, b->tmap_init) : NULL;
        if (b->tmap_init && !tm) return -1;
        if (tm) memcpy(b->host, tm->opaque, 128);
        /* a buffer without init stays as allocated: zero, and never written for initcheck */
        if (b->has_init && ptxeMemcpyHtoD(r->ctx, b->dev, b->host, b->count * b->esz))
            return bad(r, NULL, "out of device memory for buffer '%s'", b->name);
    }
    return 0;
}

/* One multicast object (multimem.*, PTX ISA §9.7.8.13): name: { devices: N, type: T, count: C,
 * init: INIT or [INIT per device] }, made by ptxeMulticastCreate; the copy of device d is the
 * buffer NAME.d (outputs, the JSON report) and { multimem: NAME } passes the multimem address */
static int declare_multicast(R *r, yaml_node_t *kn, yaml_node_t *v)
{
    static const char *const keys[] = { "devices", "type", "count", "init", NULL };
    const char *name = scalar(kn);
    uint64_t nd;
    if (!name) return bad(r, kn, "found a collection, expected a multicast object name");
    if (v->type != YAML_MAPPING_NODE)
        return bad(r, v, "found a %s, expected { devices: N, type: T, count: C, init: ... }",
                   v->type == YAML_SCALAR_NODE ? "scalar" : "list");
    if (only_keys(r, v, keys, "devices, type, count or init")) return -1;
    yaml_node_t *dn = map_get(r, v, "devices"), *in = map_get(r, v, "init");
    if (!dn) return bad(r, v, "found no 'devices' for multicast object '%s', expected 1..8", name);
    if (parse_u64(r, dn, &nd, PTXE_MULTICAST_MAX_DEVICES, "a number of devices")) return -1;
    if (!nd) return bad(r, dn, "found 0 devices, expected 1..8");
    int listed = in && in->type == YAML_SEQUENCE_NODE;
    if (listed && in->data.sequence.items.top - in->data.sequence.items.start != (long)nd)
        return bad(r, in, "found %ld inits, expected one per device (%llu)",
                   (long)(in->data.sequence.items.top - in->data.sequence.items.start),
                   (unsigned long long)nd);
    ptxeDevptr devs[PTXE_MULTICAST_MAX_DEVICES];
    r->bufs = xrealloc(r->bufs, (size_t)(r->nbufs + (int)nd + 1) * sizeof *r->bufs);
    memset(r->bufs + r->nbufs, 0, (nd + 1) * sizeof *r->bufs);
    int first = r->nbufs;
    for (unsigned d = 0; d < nd; d++) {
        char bn[300];
        snprintf(bn, sizeof bn, "%s.%u", name, d);
        if (find_buf(r, bn))
            return bad(r, kn, "found buffer '%s' twice, expected unique names", bn);
        yaml_node_t *di = listed ? node(r, in->data.sequence.items.start[d]) : in;
        if (new_buffer(r, bn, v, map_get(r, v, "type"), map_get(r, v, "count"), di)) return -1;
    }
    buffer *b = &r->bufs[first];
    r->mcs = xrealloc(r->mcs, (size_t)(r->nmcs + 1) * sizeof *r->mcs);
    r->mcs[r->nmcs].name = name;
    if (ptxeMulticastCreate(r->ctx, b->count ? b->count * b->esz : 1, (int)nd,
                            &r->mcs[r->nmcs++].mc, devs))
        return bad(r, v, "out of device memory for multicast object '%s'", name);
    for (unsigned d = 0; d < nd; d++, b++) {
        b->dev = devs[d];
        if (b->has_init) ptxeMemcpyHtoD(r->ctx, b->dev, b->host, b->count * b->esz);
        ptxeMemSetName(r->ctx, b->dev, b->name);
    }
    return 0;
}

/* Phase 5b: the multicast objects. */
static int upload_multicast(R *r)
{
    yaml_node_t *mn = map_get(r, r->root, "multicast");
    if (!mn) return 0;
    if (want_mapping(r, mn, "name: { devices, type, count, init }")) return -1;
    for (yaml_node_pair_t *p = mn->data.mapping.pairs.start; p < mn->data.mapping.pairs.top; p++)
        if (declare_multicast(r, node(r, p->key), node(r, p->value))) return -1;
    return 0;
}

static int tex_find_buf(void *ck, const char *name, ptxeDevptr *dev, size_t *bytes)
{
    buffer *b = find_buf(ck, name);
    if (!b) return -1;
    *dev = b->dev; *bytes = b->count * b->esz;
    return 0;
}

/* Phase 5b: texture and surface objects over the buffers (cli/run_tex.c) */
static int make_textures(R *r)
{
    r->tex = (run_tex){ r->spec, &r->doc, r->ctx, r->mod, tex_find_buf, r, NULL, 0 };
    if (run_tex_create(&r->tex, map_get(r, r->root, "textures"), map_get(r, r->root, "surfaces")))
        return r->failed = 1, -1;
    return 0;
}

/* One parameter: { buffer: name }, { tensormap: name }, { texture: name }, { surface: name },
 * { multimem: name } or { type: value }, into its slot. */
static int kernel_param(R *r, int i, yaml_node_t *it, uint8_t *slot)
{
    size_t psz;
    const char *ptype;
    ptxeFuncGetParamInfo(r->fn, i, &psz, &ptype);
    if (it->type != YAML_MAPPING_NODE ||
        it->data.mapping.pairs.top - it->data.mapping.pairs.start != 1)
        return bad(r, it, "found a bad param, expected { type: value } or { buffer: name }");
    const char *k = scalar(node(r, it->data.mapping.pairs.start->key));
    yaml_node_t *v = node(r, it->data.mapping.pairs.start->value);
    if (k && !strcmp(k, "multimem")) {   /* the multimem address of a multicast object */
        for (int m = 0; m < r->nmcs && scalar(v); m++)
            if (!strcmp(r->mcs[m].name, scalar(v)) && psz == 8) {
                memcpy(slot, &r->mcs[m].mc, 8);
                return 0;
            }
        return bad(r, v, "found multimem '%s', expected a multicast object declared under "
                   "multicast and a 64-bit parameter", scalar(v) ? scalar(v) : "?");
    }
    if (k && !strcmp(k, "tensormap")) {   /* a .param .align 64 .b8 NAME[128] */
        const ptxeTensorMap *tm = find_tmap(r, v);
        if (!tm) return -1;
        if (psz != 128)
            return bad(r, it, "found a tensormap for param %d, which has %zu bytes, expected a "
                              "128-byte parameter (.param .align 64 .b8 p[128])", i, psz);
        memcpy(slot, tm->opaque, 128);
        return 0;
    }
    if (k && !strcmp(k, "buffer")) {
        buffer *b = scalar(v) ? find_buf(r, scalar(v)) : NULL;
        if (!b)
            return bad(r, v, "found buffer '%s', expected a buffer declared under buffers",
                       scalar(v) ? scalar(v) : "?");
        if (psz != 8)
            return bad(
                r, it,
                "found a buffer for param %d, which has %zu bytes, expected a 64-bit parameter", i,
                psz);
        memcpy(slot, &b->dev, 8);
        return 0;
    }
    if (k && (!strcmp(k, "texture") || !strcmp(k, "surface"))) {
        uint64_t h;
        if (run_tex_param(&r->tex, k, v, &h)) return r->failed = 1, -1;
        if (psz != 8) return bad(r, it, "found a %s for param %d, expected a .u64 parameter", k, i);
        memcpy(slot, &h, 8);
        return 0;
    }
    isa_type t = k ? scalar_type(k) : ISA_T_NONE;
    if (t == ISA_T_NONE)
        return bad(
            r, it,
            "found param key '%s', expected a type (u8..u64 s8..s64 b8..b64 f32 f64), buffer, "
            "texture or surface",
            k ? k : "?");
    if (isa_type_bits(t) / 8 != psz)
        return bad(r, it, "found a %s for param %d, expected a %zu-byte value (.%s)", k, i, psz,
                   ptype);
    /* the kind too: a float for a .u32/.s32 parameter (or an integer for .f32) is refused;
     * .bN parameters take any N-bit value */
    int pf = ptype[0] == 'f', vf = k[0] == 'f';
    if (ptype[0] != 'b' && k[0] != 'b' && pf != vf)
        return bad(r, it, "found a %s for param %d, expected %s for .%s", k, i,
                   pf ? "a floating-point value (f32 f64, or bN)" : "an integer value (uN sN bN)",
                   ptype);
    return typed_value(r, v, t, slot);
}

/* Phase 6: the kernel's parameters, in .entry order. */
static int kernel_params(R *r)
{
    yaml_node_t *pn = map_get(r, r->root, "params");
    int np = ptxeFuncGetParamCount(r->fn);
    if (pn && pn->type != YAML_SEQUENCE_NODE)
        return bad(r, pn, "found a %s, expected a list of { type: value } or { buffer: name }",
                   pn->type == YAML_MAPPING_NODE ? "mapping" : "scalar");
    int given = pn ? (int)(pn->data.sequence.items.top - pn->data.sequence.items.start) : 0;
    if (given != np)
        return bad(r, pn ? pn : r->root, "found %d params, expected %d for kernel %s", given, np,
                   ptxeFuncGetName(r->fn));
    r->args = xcalloc((size_t)np + 1, sizeof *r->args);
    r->argbuf = xcalloc((size_t)np + 1, 128);   /* 128: a tensor map */
    for (int i = 0; i < np; i++) {
        r->args[i] = r->argbuf + 128 * (size_t)i;
        if (kernel_param(r, i, node(r, pn->data.sequence.items.start[i]),
                         r->argbuf + 128 * (size_t)i))
            return -1;
    }
    return 0;
}

/* expect: { BUF: [v0, v1, ...] } (the buffer's first elements after the launch) or
 * { BUF: v } (every element): values of the buffer's type, checked after the launch by `run`
 * and after every execution by `check`. */
static int load_expect(R *r)
{
    yaml_node_t *en = map_get(r, r->root, "expect");
    if (!en) return 0;
    if (want_mapping(r, en, "BUFFER: [values] or BUFFER: value")) return -1;
    for (yaml_node_pair_t *q = en->data.mapping.pairs.start; q < en->data.mapping.pairs.top; q++) {
        yaml_node_t *kn = node(r, q->key), *v = node(r, q->value);
        buffer *b = scalar(kn) ? find_buf(r, scalar(kn)) : NULL;
        if (!b)
            return bad(r, kn, "found buffer '%s', expected a buffer declared under buffers",
                       scalar(kn) ? scalar(kn) : "a collection");
        if (v->type == YAML_MAPPING_NODE)
            return bad(r, v, "found a mapping, expected a list of values or one value");
        size_t n = v->type == YAML_SEQUENCE_NODE
                       ? (size_t)(v->data.sequence.items.top - v->data.sequence.items.start)
                       : b->count;
        if (n > b->count)
            return bad(r, v, "found %zu values, expected at most the buffer's %zu elements", n,
                       b->count);
        r->exp = xrealloc(r->exp, (size_t)(r->nexp + (int)n + 1) * sizeof *r->exp);
        for (size_t i = 0; i < n; i++) {
            yaml_node_t *vn = v->type == YAML_SEQUENCE_NODE
                                  ? node(r, v->data.sequence.items.start[i]) : v;
            run_expect *x = &r->exp[r->nexp++];
            memset(x, 0, sizeof *x);
            if (typed_value(r, vn, b->type, (uint8_t *)&x->value)) return -1;
            x->dev = b->dev + i * b->esz;
            x->size = (unsigned)b->esz;
            x->type = b->type;
            snprintf(x->what, sizeof x->what, "%s[%zu]", b->name, i);
        }
    }
    return 0;
}

void run_expect_str(const run_expect *x, uint64_t v, char *buf, size_t n)
{
    if (x->type == ISA_T_F32) {
        float f; uint32_t u = (uint32_t)v; memcpy(&f, &u, 4);
        snprintf(buf, n, "%g", (double)f);
    } else if (x->type == ISA_T_F64) {
        double d; memcpy(&d, &v, 8);
        snprintf(buf, n, "%g", d);
    } else if (isa_type_is_signed(x->type)) {
        unsigned sh = 64 - 8 * x->size;
        snprintf(buf, n, "%lld", (long long)((int64_t)(v << sh) >> sh));
    } else if (isa_type_is_float(x->type)) snprintf(buf, n, "0x%llx", (unsigned long long)v);
    else snprintf(buf, n, "%llu", (unsigned long long)v);
}

/* after run's launch: each expected value against the buffer's; 1 when one differs */
static int expect_differs(R *r)
{
    for (int i = 0; i < r->nexp; i++) {
        const run_expect *x = &r->exp[i];
        uint64_t v = 0;
        ptxeMemcpyDtoH(r->ctx, &v, x->dev, x->size);
        if (v == x->value) continue;
        char a[64], b[64];
        run_expect_str(x, v, a, sizeof a);
        run_expect_str(x, x->value, b, sizeof b);
        fprintf(stderr, "%s: output %s is %s, expected %s (expect:)\n", r->spec, x->what, a, b);
        return 1;
    }
    return 0;
}

/* Phase 7: the outputs are checked before the launch, so that a bad spec fails fast. */
static int check_outputs(R *r)
{
    yaml_node_t *on = map_get(r, r->root, "outputs");
    if (!on) return 0;
    if (on->type != YAML_SEQUENCE_NODE)
        return bad(r, on, "found a %s, expected a list of { buffer: name, file: F }",
                   on->type == YAML_MAPPING_NODE ? "mapping" : "scalar");
    for (yaml_node_item_t *it = on->data.sequence.items.start; it < on->data.sequence.items.top;
         it++) {
        yaml_node_t *o = node(r, *it);
        const char *bn = scalar(map_get(r, o, "buffer")), *fnm = scalar(map_get(r, o, "file"));
        if (!bn || !fnm)
            return bad(r, o, "found an output without %s, expected { buffer: name, file: F }",
                       bn ? "file" : "buffer");
        if (!find_buf(r, bn))
            return bad(r, map_get(r, o, "buffer"),
                       "found buffer '%s', expected a buffer declared under buffers", bn);
        /* never an input (the spec, the module, an init file), inside the spec's folder */
        char *path = path_of(r, fnm), found[2 * PATH_MAX + 200], expected[200];
        int refused = output_problem(path, r->ins, r->nins, r->dir, found, sizeof found, expected,
                                     sizeof expected);
        free(path);
        if (refused) return bad(r, map_get(r, o, "file"), "found %s, expected %s", found, expected);
    }
    return 0;
}

/* Phase 9: each output buffer to its file (atomically). */
static int write_outputs(R *r)
{
    yaml_node_t *on = map_get(r, r->root, "outputs");
    if (!on) return 0;
    for (yaml_node_item_t *it = on->data.sequence.items.start; it < on->data.sequence.items.top;
         it++) {
        yaml_node_t *o = node(r, *it);
        buffer *b = find_buf(r, scalar(map_get(r, o, "buffer")));
        char *path = path_of(r, scalar(map_get(r, o, "file")));
        int rc = write_file_atomic(path, b->host, b->count * b->esz);
        if (rc)
            fprintf(stderr, "%s: cannot write output '%s' (%s)\n", r->spec, path,
                    fileio_error(errno));
        free(path);
        if (rc) return -1;
    }
    return 0;
}

/* Phase 10: the JSON report (status, fault, statistics, every buffer). */
static int write_json(R *r, const char *json, ptxeResult lr)
{
    ptxeLaunchStats st;
    ptxeGetLaunchStats(r->ctx, &st);
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "kernel", ptxeFuncGetName(r->fn));
    cJSON_AddStringToObject(j, "status", lr ? ptxeGetErrorName(lr) : "ok");
    if (lr) cJSON_AddStringToObject(j, "fault", ptxeGetErrorMessage(r->ctx));
    cJSON_AddItemToObject(j, "findings", run_findings_json(r->ctx));
    cJSON *sj = cJSON_AddObjectToObject(j, "stats");
    cJSON_AddNumberToObject(sj, "warp_instructions", (double)st.warp_insns);
    cJSON_AddNumberToObject(sj, "thread_instructions", (double)st.thread_insns);
    cJSON_AddNumberToObject(sj, "warps", (double)st.nwarps);
    cJSON_AddStringToObject(sj, "schedule",
                            st.schedule == PTXE_SCHEDULE_LOCKSTEP ? "lockstep" : "its");
    cJSON_AddNumberToObject(sj, "resident_ctas", (double)st.resident_ctas);
    cJSON_AddNumberToObject(sj, "sm_count", (double)st.sm_count);
    /* per_warp as text: one cJSON node per warp took 64+ bytes each (GBs for large grids) */
    sbuf pw = { 0 };
    sb_put(&pw, "[", 1);
    for (uint64_t i = 0; i < st.nwarps && st.per_warp; i++)
        sb_add(&pw, i ? ", %llu" : "%llu", (unsigned long long)st.per_warp[i]);
    sb_put(&pw, "]", 1);
    cJSON_AddRawToObject(sj, "per_warp", pw.s);
    sb_free(&pw);
    cJSON *bj = cJSON_AddObjectToObject(j, "buffers");
    for (int i = 0; i < r->nbufs; i++)
        cJSON_AddItemToObject(bj, r->bufs[i].name, buffer_json(&r->bufs[i]));
    char *s = report_json_text(j, 1);   /* newline-terminated, valid UTF-8 */
    cJSON_Delete(j);
    size_t sl = strlen(s) - 1;
    int werr = !strcmp(json, "-")
                   ? fwrite(s, 1, sl + 1, stdout) != sl + 1 || fflush(stdout) || ferror(stdout)
                   : write_file_atomic(json, s, sl + 1) != 0;
    int e = errno;
    free(s);
    if (werr) fprintf(stderr, "%s: cannot write JSON '%s' (%s)\n", r->spec, json, fileio_error(e));
    if (werr && !strcmp(json, "-")) clearerr(stdout);   /* reported (not again by cli/main.c) */
    return werr ? -1 : 0;
}

static void run_free(R *r)
{
    free(r->exp);
    for (int i = 0; i < r->nbufs; i++) { free(r->bufs[i].name); free(r->bufs[i].host); }
    for (int i = 0; i < r->nins; i++) free((char *)r->ins[i]);
    free(r->ins);
    free(r->tmnames); free(r->tmaps);
    free(r->bufs); free(r->mcs); free(r->args); free(r->argbuf); free(r->text); free(r->mpath);
    run_tex_free(&r->tex);
    if (r->mod) ptxeModuleUnload(r->mod);
    ptxeCtxDestroy(r->ctx);
    if (r->have_doc) yaml_document_delete(&r->doc);
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The one line of a run that went well (issue #30: `run` printed nothing), on stderr: stdout
   is the kernel's printf output. */
static void summary_line(R *r, double secs)
{
    ptxeLaunchStats st;
    ptxeGetLaunchStats(r->ctx, &st);
    const ptxeLaunchConfig *c = &r->cfg;
    fprintf(stderr,
            "ptxlitmus run: kernel %s, grid (%u,%u,%u) x block (%u,%u,%u): %llu warps, %llu "
            "warp-instructions (%llu thread-instructions) in %.3f s\n",
            ptxeFuncGetName(r->fn), c->grid[0], c->grid[1], c->grid[2], c->block[0], c->block[1],
            c->block[2], (unsigned long long)st.nwarps, (unsigned long long)st.warp_insns,
            (unsigned long long)st.thread_insns, secs);
}

/* The step limit counts the warp-instructions of the whole grid: a large grid reaches the
   default with every warp doing little (issue #30: 100 000 CTAs and no word of the option). */
static void step_limit_hint(R *r, uint64_t max_steps)
{
    ptxeLaunchStats st;
    ptxeGetLaunchStats(r->ctx, &st);
    const ptxeLaunchConfig *c = &r->cfg;
    unsigned long long ctas = (unsigned long long)c->grid[0] * c->grid[1] * c->grid[2];
    fprintf(stderr,
            "%s: hint: the limit of %llu warp-instructions (--max-steps) is for the whole grid of "
            "%llu CTAs (%llu warps); raise it with --max-steps N if the kernel is not stuck\n",
            r->spec, (unsigned long long)(max_steps ? max_steps : PTXE_DEFAULT_MAX_STEPS), ctas,
            (unsigned long long)st.nwarps);
}

int exec_run_cli(int argc, char **argv)
{
    run_opts o;
    int rc = parse_options(argc, argv, &o);
    if (rc >= 0) return rc;
    R r;
    memset(&r, 0, sizeof r);
    r.spec = o.spec;
    r.max_memory = o.max_memory;
    r.checks = o.checks;
    rc = 2;
    if (read_spec(&r) || launch_shape(&r, &o) || load_module(&r) ||
        upload_buffers(&r) || upload_multicast(&r) || make_textures(&r) || kernel_params(&r) ||
        load_expect(&r) ||
        check_outputs(&r) ||
        (o.json && output_check("run", o.json, r.ins, r.nins)))
        goto out;
    double t0 = now_seconds();
    ptxeResult lr = ptxeLaunchKernel(r.fn, &r.cfg, r.args);   /* phase 8: the launch */
    double secs = now_seconds() - t0;
    if (lr == PTXE_ERROR_INVALID_VALUE || lr == PTXE_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE) {
        yaml_node_t *co = map_get(&r, r.root, "cooperative");
        bad(&r, lr == PTXE_ERROR_INVALID_VALUE || !co ? r.root : co, "%s",
            ptxeGetErrorMessage(r.ctx));
        goto out;
    }
    if (!o.no_printf) run_print_printf(r.ctx, r.spec);
    int nf = ptxeGetFindingCount(r.ctx);
    if (lr == PTXE_ERROR_OUT_OF_MEMORY)   /* the launch's host memory: a limit, with a place */
        fprintf(stderr, "%s:1:1: %s", r.spec, ptxeGetErrorMessage(r.ctx));
    else if (lr) fprintf(stderr, "%s: %s", r.spec, ptxeGetErrorMessage(r.ctx));
    if (lr == PTXE_ERROR_LAUNCH_TIMEOUT && strstr(ptxeGetErrorMessage(r.ctx), "step limit"))
        step_limit_hint(&r, o.max_steps);
    if (r.checks) run_print_findings(r.ctx, lr);
    for (int i = 0; i < r.nbufs; i++)
        ptxeMemcpyDtoH(r.ctx, r.bufs[i].host, r.bufs[i].dev, r.bufs[i].count * r.bufs[i].esz);
    if (!lr && !o.no_outputs && write_outputs(&r)) goto out;
    if (o.json && write_json(&r, o.json, lr)) goto out;
    /* a kernel fault, the step limit or a finding: 1; the memory limit reached by the launch's
       own host memory (a host error, like a buffer beyond --max-memory): 2 */
    rc = lr == PTXE_ERROR_OUT_OF_MEMORY ? 2 : lr || nf || (!lr && expect_differs(&r)) ? 1 : 0;
    if (!rc && !o.quiet) summary_line(&r, secs);
out:
    if (r.failed) rc = 2;
    run_free(&r);
    return rc;
}

/* ---------------------------------------------------------------- for `check` */
run_state *run_spec_open(const char *spec, uint64_t max_steps, double timeout)
{
    run_opts o;
    memset(&o, 0, sizeof o);
    o.spec = spec;
    o.max_steps = max_steps;
    o.timeout = timeout;
    o.max_memory = PTXE_DEFAULT_MEMORY_LIMIT;
    R *r = xcalloc(1, sizeof *r);
    r->spec = spec;
    r->max_memory = o.max_memory;
    if (read_spec(r) || launch_shape(r, &o) || load_module(r) || upload_buffers(r) ||
        upload_multicast(r) || make_textures(r) || kernel_params(r) || load_expect(r)) {
        run_free(r);
        free(r);
        return NULL;
    }
    return r;
}

ptxeFunction *run_spec_fn(run_state *r) { return r->fn; }
const ptxeLaunchConfig *run_spec_cfg(run_state *r) { return &r->cfg; }
void **run_spec_args(run_state *r) { return r->args; }
const run_expect *run_spec_expect(run_state *r, int *n) { *n = r->nexp; return r->exp; }

void run_spec_close(run_state *r)
{
    if (!r) return;
    run_free(r);
    free(r);
}
