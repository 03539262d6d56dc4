/* exec/run_cli.c — `ptxlitmus run SPEC.yaml [--json FILE|-] [--max-steps N]`: reads a YAML
 * launch spec (module, kernel, grid/block/cluster, dynamic shared size, buffers with initial
 * contents, parameters, outputs; paths relative to the spec file), runs the kernel through the
 * public API (include/ptxexec.h) and writes the output buffers (temp file + rename).  Exit
 * status: 0 ok, 1 kernel fault, 2 bad input.  See docs/executor.md for the format. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <libgen.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>
#include <unistd.h>
#include <yaml.h>
#include "ptx/isa.h"
#include "cli/run_cli.h"
#include "base/fileio.h"
#include "include/ptxexec.h"

typedef struct { char *name; isa_type type; size_t count, esz; uint8_t *host; ptxeDevptr dev; } buffer;

typedef struct {
    const char *spec;
    char dir[4096];
    yaml_document_t doc;
    buffer *bufs; int nbufs;
    int failed;
    uint64_t max_memory, mem_total;   /* --max-memory, bytes of buffers so far */
} R;

static int bad(R *r, const yaml_node_t *n, const char *fmt, ...)
{
    if (r->failed) return -1;
    r->failed = 1;
    char msg[600];
    va_list ap; va_start(ap, fmt); vsnprintf(msg, sizeof msg, fmt, ap); va_end(ap);
    if (n) fprintf(stderr, "%s:%zu:%zu: %s\n", r->spec, n->start_mark.line + 1, n->start_mark.column + 1, msg);
    else fprintf(stderr, "%s:1:1: %s\n", r->spec, msg);
    return -1;
}

static const char *scalar(const yaml_node_t *n) { return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL; }
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
    char *p = malloc(strlen(r->dir) + strlen(rel) + 2);
    if (!p) return NULL;
    if (rel[0] == '/') strcpy(p, rel); else sprintf(p, "%s/%s", r->dir, rel);
    return p;
}

static int parse_u64(R *r, yaml_node_t *n, uint64_t *v, uint64_t max, const char *what)
{
    const char *s = scalar(n);
    char *e;
    errno = 0;
    if (!s || !*s || *s == '-') return bad(r, n, "found '%s', expected %s (a non-negative integer)", s ? s : "a collection", what);
    unsigned long long x = strtoull(s, &e, 0);
    if (*e || errno || x > max) return bad(r, n, "found '%s', expected %s (an integer up to %llu)", s, what, (unsigned long long)max);
    *v = x;
    return 0;
}

static int parse_dim3(R *r, yaml_node_t *n, unsigned d[3], const char *what)
{
    d[0] = d[1] = d[2] = 1;
    if (!n) return 0;
    uint64_t v;
    if (n->type == YAML_SCALAR_NODE) { if (parse_u64(r, n, &v, 0x7fffffff, what)) return -1; d[0] = (unsigned)v; }
    else if (n->type == YAML_SEQUENCE_NODE) {
        int k = 0;
        for (yaml_node_item_t *it = n->data.sequence.items.start; it < n->data.sequence.items.top; it++, k++) {
            if (k == 3) return bad(r, node(r, *it), "found a 4th dimension, expected at most 3 in %s", what);
            if (parse_u64(r, node(r, *it), &v, 0x7fffffff, what)) return -1;
            d[k] = (unsigned)v;
        }
        if (k == 0) return bad(r, n, "found an empty list, expected 1 to 3 dimensions in %s", what);
    } else return bad(r, n, "found a mapping, expected an integer or [x, y, z] for %s", what);
    for (int k = 0; k < 3; k++) if (!d[k]) return bad(r, n, "found a zero dimension, expected positive sizes in %s", what);
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
    if (isa_decode(t == ISA_T_F16 ? "cvt.rn.f16.f64" : "cvt.rn.bf16.f64", ISA_T_NONE, &in, e, sizeof e) ||
        isa_eval(&in, &src, &dst, e, sizeof e)) abort();   /* the table always has these */
    return (uint16_t)dst;
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
        double d = strtod(s, &e);
        if (*e || e == s) return bad(r, n, "found '%s', expected a %s number", s, isa_type_name(t));
        if (t == ISA_T_F64) memcpy(&bits, &d, 8);
        else if (t == ISA_T_F32) { float f = (float)d; uint32_t u; memcpy(&u, &f, 4); bits = u; }
        else if (t == ISA_T_F16) bits = to_half(d, ISA_T_F16);
        else if (t == ISA_T_BF16) bits = to_half(d, ISA_T_BF16);
        else return bad(r, n, "found a number for type %s, expected hex bits (0x...)", isa_type_name(t));
    } else if (isa_type_is_signed(t)) {
        long long v = strtoll(s, &e, 0);
        if (*e || e == s || errno) return bad(r, n, "found '%s', expected a %s integer", s, isa_type_name(t));
        unsigned b = bytes * 8;
        if (b < 64 && (v < -(1ll << (b - 1)) || v >= (1ll << (b - 1)))) return bad(r, n, "found %s, expected a value in the range of %s", s, isa_type_name(t));
        bits = (uint64_t)v;
    } else {
        if (s[0] == '-') {   /* b/u types accept negative numbers as two's complement */
            long long v = strtoll(s, &e, 0);
            if (*e || e == s || errno) return bad(r, n, "found '%s', expected a %s integer", s, isa_type_name(t));
            bits = (uint64_t)v;
            if (bytes < 8 && v < -(1ll << (bytes * 8 - 1))) return bad(r, n, "found %s, expected a value in the range of %s", s, isa_type_name(t));
        } else {
            unsigned long long v = strtoull(s, &e, 0);
            if (*e || e == s || errno) return bad(r, n, "found '%s', expected a %s integer", s, isa_type_name(t));
            if (bytes < 8 && v >> (bytes * 8)) return bad(r, n, "found %s, expected a value in the range of %s", s, isa_type_name(t));
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
    case ISA_T_B8: case ISA_T_B16: case ISA_T_B32: case ISA_T_B64: case ISA_T_U8: case ISA_T_U16: case ISA_T_U32:
    case ISA_T_U64: case ISA_T_S8: case ISA_T_S16: case ISA_T_S32: case ISA_T_S64: case ISA_T_F16: case ISA_T_BF16:
    case ISA_T_F32: case ISA_T_F64: return t;
    default: return ISA_T_NONE;
    }
}

static buffer *find_buf(R *r, const char *name)
{
    for (int i = 0; i < r->nbufs; i++) if (!strcmp(r->bufs[i].name, name)) return &r->bufs[i];
    return NULL;
}

/* Opens a regular file for reading; NULL with errno (EINVAL for a device, FIFO or directory,
   which could block or never end). */
static FILE *open_regular(const char *path)
{
    struct stat st;
    if (!path) { errno = ENOENT; return NULL; }
    if (stat(path, &st)) return NULL;
    if (!S_ISREG(st.st_mode)) { errno = EINVAL; return NULL; }
    return fopen(path, "rb");
}

static int load_buffers(R *r, yaml_node_t *bn)
{
    if (!bn) return 0;
    if (bn->type != YAML_MAPPING_NODE) return bad(r, bn, "found a %s, expected a mapping name: { type, count, init }", bn->type == YAML_SEQUENCE_NODE ? "list" : "scalar");
    int n = (int)(bn->data.mapping.pairs.top - bn->data.mapping.pairs.start);
    r->bufs = calloc((size_t)n + 1, sizeof *r->bufs);
    if (!r->bufs) return bad(r, bn, "out of memory");
    for (yaml_node_pair_t *p = bn->data.mapping.pairs.start; p < bn->data.mapping.pairs.top; p++) {
        yaml_node_t *kn = node(r, p->key), *v = node(r, p->value);
        const char *name = scalar(kn);
        if (!name) return bad(r, kn, "found a collection, expected a buffer name");
        if (find_buf(r, name)) return bad(r, kn, "found buffer '%s' twice, expected unique names", name);
        if (v->type != YAML_MAPPING_NODE) return bad(r, v, "found a %s, expected { type: T, count: N }", v->type == YAML_SCALAR_NODE ? "scalar" : "list");
        for (yaml_node_pair_t *q = v->data.mapping.pairs.start; q < v->data.mapping.pairs.top; q++) {
            const char *k = scalar(node(r, q->key));
            if (!k || (strcmp(k, "type") && strcmp(k, "count") && strcmp(k, "init")))
                return bad(r, node(r, q->key), "found key '%s', expected type, count or init", k ? k : "?");
        }
        buffer *b = &r->bufs[r->nbufs++];
        b->name = strdup(name);
        yaml_node_t *tn = map_get(r, v, "type"), *cn = map_get(r, v, "count");
        if (!tn) return bad(r, v, "found no 'type' for buffer '%s', expected one of u8..u64 s8..s64 b8..b64 f16 bf16 f32 f64", name);
        b->type = scalar_type(scalar(tn) ? scalar(tn) : "");
        if (b->type == ISA_T_NONE) return bad(r, tn, "found type '%s', expected one of u8..u64 s8..s64 b8..b64 f16 bf16 f32 f64", scalar(tn) ? scalar(tn) : "?");
        b->esz = isa_type_bits(b->type) / 8;
        uint64_t cnt;
        if (!cn) return bad(r, v, "found no 'count' for buffer '%s', expected a number of elements", name);
        if (parse_u64(r, cn, &cnt, (1ull << 32) / b->esz, "an element count")) return -1;
        b->count = cnt;
        r->mem_total += cnt * b->esz;
        if (r->mem_total > r->max_memory)
            return bad(r, cn, "found %llu bytes of buffers in all, expected at most %llu bytes of device memory (limit --max-memory)",
                       (unsigned long long)r->mem_total, (unsigned long long)r->max_memory);
        b->host = calloc(cnt * b->esz + 1, 1);
        if (!b->host) return bad(r, cn, "out of memory for buffer '%s'", name);
        yaml_node_t *in = map_get(r, v, "init");
        if (!in) continue;
        if (in->type != YAML_MAPPING_NODE || in->data.mapping.pairs.top - in->data.mapping.pairs.start != 1)
            return bad(r, in, "found a bad init, expected one of { file: F } { fill: V } { values: [...] } { iota: START }");
        const char *ik = scalar(node(r, in->data.mapping.pairs.start->key));
        yaml_node_t *iv = node(r, in->data.mapping.pairs.start->value);
        if (!ik) return bad(r, in, "found a bad init key, expected file, fill, values or iota");
        if (!strcmp(ik, "file")) {
            if (!scalar(iv)) return bad(r, iv, "found a collection, expected a file name");
            char *path = path_of(r, scalar(iv));
            FILE *f = open_regular(path);
            if (!f) { int rc = bad(r, iv, "found '%s' (%s), expected a readable regular file", path ? path : "?", errno == EINVAL ? "not a regular file" : strerror(errno)); free(path); return rc; }
            size_t got = fread(b->host, 1, cnt * b->esz, f);
            int extra = fgetc(f) != EOF;
            fclose(f);
            if (got != cnt * b->esz || extra) {
                int rc = bad(r, iv, "file '%s' has %s bytes, expected exactly %llu (%llu x %s)", path, extra ? "more" : "fewer",
                             (unsigned long long)(cnt * b->esz), (unsigned long long)cnt, isa_type_name(b->type));
                free(path); return rc;
            }
            free(path);
        } else if (!strcmp(ik, "fill")) {
            uint8_t val[8];
            if (typed_value(r, iv, b->type, val)) return -1;
            for (size_t i = 0; i < cnt; i++) memcpy(b->host + i * b->esz, val, b->esz);
        } else if (!strcmp(ik, "values")) {
            if (iv->type != YAML_SEQUENCE_NODE) return bad(r, iv, "found a scalar, expected a list of values");
            size_t i = 0;
            for (yaml_node_item_t *it = iv->data.sequence.items.start; it < iv->data.sequence.items.top; it++, i++) {
                if (i >= cnt) return bad(r, node(r, *it), "found more than %llu values, expected at most count", (unsigned long long)cnt);
                if (typed_value(r, node(r, *it), b->type, b->host + i * b->esz)) return -1;
            }
        } else if (!strcmp(ik, "iota")) {
            const char *s = scalar(iv);
            char *e;
            double start = s ? strtod(s, &e) : 0;
            if (!s || *e || e == s) return bad(r, iv, "found '%s', expected a starting number", s ? s : "?");
            for (size_t i = 0; i < cnt; i++) {
                double d = start + (double)i;
                uint64_t bits;
                if (b->type == ISA_T_F64) memcpy(&bits, &d, 8);
                else if (b->type == ISA_T_F32) { float f = (float)d; uint32_t u; memcpy(&u, &f, 4); bits = u; }
                else if (b->type == ISA_T_F16) bits = to_half(d, ISA_T_F16);
                else if (b->type == ISA_T_BF16) bits = to_half(d, ISA_T_BF16);
                else bits = (uint64_t)(int64_t)d;
                memcpy(b->host + i * b->esz, &bits, b->esz);
            }
        } else return bad(r, in, "found init key '%s', expected file, fill, values or iota", ik);
    }
    return 0;
}

/* Buffers are written as one pre-rendered JSON array (a cJSON raw item) with exactly the text
 * cJSON would print for the array of items ("[a, b, c]" in formatted output): integral numbers
 * below 1e15 as their integer digits (cJSON: "%d", or "%1.15g", which shows such a value as
 * its digits), other numbers through cJSON itself, strings ("0x..", "nan", "inf") quoted.
 * This avoids one cJSON item, one allocation and a printf/scanf round trip per element, which
 * dominated `run --json` on large buffers. */
typedef struct { char *p; size_t n, cap; int oom; } sbuf;
static void sb_put(sbuf *b, const char *s, size_t n)
{
    if (b->oom) return;
    if (b->n + n + 1 > b->cap) {
        size_t nc = b->cap ? b->cap * 2 : 4096;
        while (nc < b->n + n + 1) nc *= 2;
        char *np = realloc(b->p, nc);
        if (!np) { b->oom = 1; return; }
        b->p = np; b->cap = nc;
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = 0;
}
static void sb_number(sbuf *b, double d)
{
    char s[64];
    if (fabs(d) < 1e15 && d == (double)(long long)d && !(d == 0 && signbit(d))) {   /* -0: cJSON prints "-0" */
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
    if (t) sb_put(b, t, strlen(t)); else b->oom = 1;
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
        else if (isa_type_is_signed(b->type)) { unsigned sh = 64 - 8 * (unsigned)b->esz; d = (double)((int64_t)(v << sh) >> sh); }
        else if (b->type == ISA_T_F16 || b->type == ISA_T_BF16 || b->esz == 8) {
            char s[40]; int k = snprintf(s, sizeof s, "\"0x%0*llx\"", (int)b->esz * 2, (unsigned long long)v);
            sb_put(&o, s, (size_t)k);
            continue;
        } else d = (double)v;
        if (isnan(d)) sb_put(&o, "\"nan\"", 5);
        else if (isinf(d)) { if (d > 0) sb_put(&o, "\"inf\"", 5); else sb_put(&o, "\"-inf\"", 6); }
        else sb_number(&o, d);
    }
    sb_put(&o, "]", 1);
    cJSON *a = o.oom ? NULL : cJSON_CreateRaw(o.p);
    free(o.p);
    return a;
}


static int usage(void)
{
    fprintf(stderr, "usage: ptxlitmus run SPEC.yaml [--json FILE|-] [--max-steps N] [--max-memory BYTES[K|M|G]] [--no-outputs]\n");
    return 2;
}

int exec_run_cli(int argc, char **argv)
{
    const char *spec = NULL, *json = NULL;
    uint64_t max_steps = 0, max_memory = PTXE_DEFAULT_MEMORY_LIMIT;
    int no_outputs = 0;   /* check the outputs but write none (dry runs, the fuzz target) */
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) { usage(); return 0; }
        if (!strcmp(argv[i], "--json")) { if (++i >= argc) return usage(); json = argv[i]; }
        else if (!strcmp(argv[i], "--max-steps")) {
            char *e;
            if (++i >= argc) return usage();
            errno = 0;
            max_steps = strtoull(argv[i], &e, 10);
            if (*e || errno || !max_steps || argv[i][0] == '-') { fprintf(stderr, "ptxlitmus run: --max-steps: found '%s', expected a positive integer\n", argv[i]); return 2; }
        } else if (!strcmp(argv[i], "--no-outputs")) no_outputs = 1;
        else if (!strcmp(argv[i], "--max-memory")) {
            char *e;
            if (++i >= argc) return usage();
            errno = 0;
            max_memory = strtoull(argv[i], &e, 10);
            uint64_t unit = *e == 'K' ? 1ull << 10 : *e == 'M' ? 1ull << 20 : *e == 'G' ? 1ull << 30 : 1;
            if (unit > 1) e++;
            if (*e || errno || !max_memory || argv[i][0] == '-' || max_memory > (1ull << 40) / unit) {
                fprintf(stderr, "ptxlitmus run: --max-memory: found '%s', expected a positive size in bytes (K, M, G suffixes) up to 1T\n", argv[i]);
                return 2;
            }
            max_memory *= unit;
        } else if (argv[i][0] == '-' && argv[i][1]) { fprintf(stderr, "ptxlitmus run: unknown option '%s'\n", argv[i]); return usage(); }
        else if (spec) { fprintf(stderr, "ptxlitmus run: found a second spec '%s', expected one\n", argv[i]); return 2; }
        else spec = argv[i];
    }
    if (!spec) return usage();
    R r; memset(&r, 0, sizeof r);
    r.spec = spec;
    r.max_memory = max_memory;
    { char *tmp = strdup(spec); snprintf(r.dir, sizeof r.dir, "%s", dirname(tmp)); free(tmp); }
    FILE *sf = open_regular(spec);
    if (!sf) { fprintf(stderr, "%s:1:1: found no readable spec (%s), expected a YAML launch spec\n", spec, errno == EINVAL ? "not a regular file" : strerror(errno)); return 2; }
    yaml_parser_t yp;
    yaml_parser_initialize(&yp);
    yaml_parser_set_input_file(&yp, sf);
    int rc = 2;
    ptxeCtx *ctx = NULL; ptxeModule *mod = NULL;
    char *text = NULL; char *mpath = NULL;
    void **args = NULL; uint8_t *argbuf = NULL;
    if (!yaml_parser_load(&yp, &r.doc)) {
        /* libyaml says what it did not find ("did not find expected ',' or ']'"): restate it */
        const char *pb = yp.problem ? yp.problem : "a YAML error";
        const char *exp = strstr(pb, "expected ");
        if (exp) fprintf(stderr, "%s:%zu:%zu: found a YAML syntax error%s%s, expected %s\n", spec, yp.problem_mark.line + 1, yp.problem_mark.column + 1,
                         yp.context ? " " : "", yp.context ? yp.context : "", exp + 9);
        else if (!strncmp(pb, "found ", 6))
            fprintf(stderr, "%s:%zu:%zu: %s, expected valid YAML\n", spec, yp.problem_mark.line + 1, yp.problem_mark.column + 1, pb);
        else fprintf(stderr, "%s:%zu:%zu: found %s%s%s, expected valid YAML\n", spec, yp.problem_mark.line + 1, yp.problem_mark.column + 1, pb,
                     yp.context ? " " : "", yp.context ? yp.context : "");
        yaml_parser_delete(&yp); fclose(sf);
        return 2;
    }
    yaml_parser_delete(&yp); fclose(sf);
    yaml_node_t *root = yaml_document_get_root_node(&r.doc);
    if (!root || root->type != YAML_MAPPING_NODE) { bad(&r, root, "found %s, expected a mapping with module, grid, block, ...", root ? "a non-mapping document" : "an empty document"); goto out; }
    static const char *const keys[] = { "module", "kernel", "grid", "block", "cluster", "shared_bytes", "buffers", "params", "outputs", NULL };
    for (yaml_node_pair_t *p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top; p++) {
        const char *k = scalar(node(&r, p->key));
        int ok = 0;
        for (int i = 0; keys[i] && k; i++) ok |= !strcmp(k, keys[i]);
        if (!ok) { bad(&r, node(&r, p->key), "found key '%s', expected module, kernel, grid, block, cluster, shared_bytes, buffers, params or outputs", k ? k : "?"); goto out; }
    }
    ptxeLaunchConfig cfg; memset(&cfg, 0, sizeof cfg);
    cfg.max_steps = max_steps;
    yaml_node_t *mn = map_get(&r, root, "module");
    if (!scalar(mn)) { bad(&r, mn ? mn : root, "found no module, expected module: FILE.ptx"); goto out; }
    if (parse_dim3(&r, map_get(&r, root, "grid"), cfg.grid, "grid") || parse_dim3(&r, map_get(&r, root, "block"), cfg.block, "block")) goto out;
    if (!map_get(&r, root, "grid") || !map_get(&r, root, "block")) { bad(&r, root, "found no %s, expected grid and block", map_get(&r, root, "grid") ? "block" : "grid"); goto out; }
    {   /* launch-shape limits, reported at the node (CUDA: block x,y <= 1024, z <= 64, 1024 threads;
           grid y,z <= 65535); the executor keeps per-warp statistics, so one launch is limited
           to 2^26 warps */
        yaml_node_t *bn = map_get(&r, root, "block"), *gn = map_get(&r, root, "grid");
        unsigned long long nt = (unsigned long long)cfg.block[0] * cfg.block[1] * cfg.block[2];
        if (cfg.block[0] > 1024 || cfg.block[1] > 1024 || cfg.block[2] > 64 || nt > 1024) {
            bad(&r, bn, "found block (%u,%u,%u) of %llu threads, expected at most 1024 threads (x,y <= 1024, z <= 64)", cfg.block[0], cfg.block[1], cfg.block[2], nt);
            goto out;
        }
        unsigned long long nctas = (unsigned long long)cfg.grid[0] * cfg.grid[1] * cfg.grid[2], nwarps = nctas * ((nt + 31) / 32);
        if (cfg.grid[1] > 65535 || cfg.grid[2] > 65535) { bad(&r, gn, "found grid (%u,%u,%u), expected y and z at most 65535", cfg.grid[0], cfg.grid[1], cfg.grid[2]); goto out; }
        if (nwarps > (1ull << 26)) { bad(&r, gn, "found a launch of %llu CTAs (%llu warps), expected at most 67108864 warps in one launch", nctas, nwarps); goto out; }
    }
    if (map_get(&r, root, "cluster") && parse_dim3(&r, map_get(&r, root, "cluster"), cfg.cluster, "cluster")) goto out;
    if (map_get(&r, root, "shared_bytes")) {
        uint64_t v;
        if (parse_u64(&r, map_get(&r, root, "shared_bytes"), &v, 232448, "shared_bytes")) goto out;
        cfg.shared_bytes = (unsigned)v;
    }
    mpath = path_of(&r, scalar(mn));
    FILE *mf = open_regular(mpath);
    if (!mf) { bad(&r, mn, "found module '%s' (%s), expected a readable PTX file", mpath ? mpath : "?", errno == EINVAL ? "not a regular file" : strerror(errno)); goto out; }
    fseek(mf, 0, SEEK_END); long ml = ftell(mf); fseek(mf, 0, SEEK_SET);
    text = malloc((size_t)(ml > 0 ? ml : 0) + 1);
    size_t tl = text ? fread(text, 1, (size_t)(ml > 0 ? ml : 0), mf) : 0;
    fclose(mf);
    if (!text) { bad(&r, mn, "out of memory"); goto out; }
    if (ptxeCtxCreate(&ctx)) { bad(&r, NULL, "out of memory"); goto out; }
    ptxeCtxSetMemoryLimit(ctx, max_memory);
    if (ptxeModuleLoadData(ctx, &mod, text, tl, mpath)) { fprintf(stderr, "%s\n", ptxeGetErrorMessage(ctx)); r.failed = 1; goto out; }
    yaml_node_t *kn = map_get(&r, root, "kernel");
    ptxeFunction *fn;
    if (kn && !scalar(kn)) { bad(&r, kn, "found a collection, expected a kernel name"); goto out; }
    if (ptxeModuleGetFunction(&fn, mod, kn ? scalar(kn) : NULL)) { bad(&r, kn ? kn : mn, "%s", ptxeGetErrorMessage(ctx)); goto out; }
    if (load_buffers(&r, map_get(&r, root, "buffers"))) goto out;
    for (int i = 0; i < r.nbufs; i++) {
        buffer *b = &r.bufs[i];
        if (ptxeMemAlloc(ctx, &b->dev, b->count * b->esz) || ptxeMemcpyHtoD(ctx, b->dev, b->host, b->count * b->esz)) { bad(&r, NULL, "out of device memory for buffer '%s'", b->name); goto out; }
    }
    /* parameters, in .entry order */
    yaml_node_t *pn = map_get(&r, root, "params");
    int np = ptxeFuncGetParamCount(fn);
    int given = pn && pn->type == YAML_SEQUENCE_NODE ? (int)(pn->data.sequence.items.top - pn->data.sequence.items.start) : 0;
    if (pn && pn->type != YAML_SEQUENCE_NODE) { bad(&r, pn, "found a %s, expected a list of { type: value } or { buffer: name }", pn->type == YAML_MAPPING_NODE ? "mapping" : "scalar"); goto out; }
    if (given != np) { bad(&r, pn ? pn : root, "found %d params, expected %d for kernel %s", given, np, ptxeFuncGetName(fn)); goto out; }
    args = calloc((size_t)np + 1, sizeof *args);
    argbuf = calloc((size_t)np + 1, 64);
    if (!args || !argbuf) { bad(&r, NULL, "out of memory"); goto out; }
    for (int i = 0; i < np; i++) {
        yaml_node_t *it = node(&r, pn->data.sequence.items.start[i]);
        size_t psz; const char *ptype;
        ptxeFuncGetParamInfo(fn, i, &psz, &ptype);
        if (it->type != YAML_MAPPING_NODE || it->data.mapping.pairs.top - it->data.mapping.pairs.start != 1) {
            bad(&r, it, "found a bad param, expected { type: value } or { buffer: name }"); goto out;
        }
        const char *k = scalar(node(&r, it->data.mapping.pairs.start->key));
        yaml_node_t *v = node(&r, it->data.mapping.pairs.start->value);
        uint8_t *slot = argbuf + 64 * (size_t)i;
        args[i] = slot;
        if (k && !strcmp(k, "buffer")) {
            buffer *b = scalar(v) ? find_buf(&r, scalar(v)) : NULL;
            if (!b) { bad(&r, v, "found buffer '%s', expected a buffer declared under buffers", scalar(v) ? scalar(v) : "?"); goto out; }
            if (psz != 8) { bad(&r, it, "found a buffer for param %d, which has %zu bytes, expected a 64-bit parameter", i, psz); goto out; }
            memcpy(slot, &b->dev, 8);
            continue;
        }
        isa_type t = k ? scalar_type(k) : ISA_T_NONE;
        if (t == ISA_T_NONE) { bad(&r, it, "found param key '%s', expected a type (u8..u64 s8..s64 b8..b64 f32 f64) or buffer", k ? k : "?"); goto out; }
        if (isa_type_bits(t) / 8 != psz) { bad(&r, it, "found a %s for param %d, expected a %zu-byte value (.%s)", k, i, psz, ptype); goto out; }
        if (typed_value(&r, v, t, slot)) goto out;
    }
    /* outputs are checked before the launch so a bad spec fails fast */
    yaml_node_t *on = map_get(&r, root, "outputs");
    if (on && on->type != YAML_SEQUENCE_NODE) { bad(&r, on, "found a %s, expected a list of { buffer: name, file: F }", on->type == YAML_MAPPING_NODE ? "mapping" : "scalar"); goto out; }
    if (on)
        for (yaml_node_item_t *it = on->data.sequence.items.start; it < on->data.sequence.items.top; it++) {
            yaml_node_t *o = node(&r, *it);
            const char *bn = scalar(map_get(&r, o, "buffer")), *fnm = scalar(map_get(&r, o, "file"));
            if (!bn || !fnm) { bad(&r, o, "found an output without %s, expected { buffer: name, file: F }", bn ? "file" : "buffer"); goto out; }
            if (!find_buf(&r, bn)) { bad(&r, map_get(&r, o, "buffer"), "found buffer '%s', expected a buffer declared under buffers", bn); goto out; }
        }
    ptxeResult lr = ptxeLaunchKernel(fn, &cfg, args);
    if (lr == PTXE_ERROR_INVALID_VALUE) { bad(&r, root, "%s", ptxeGetErrorMessage(ctx)); goto out; }
    if (lr) fprintf(stderr, "%s: %s", spec, ptxeGetErrorMessage(ctx));
    for (int i = 0; i < r.nbufs; i++) ptxeMemcpyDtoH(ctx, r.bufs[i].host, r.bufs[i].dev, r.bufs[i].count * r.bufs[i].esz);
    if (!lr && on && !no_outputs)
        for (yaml_node_item_t *it = on->data.sequence.items.start; it < on->data.sequence.items.top; it++) {
            yaml_node_t *o = node(&r, *it);
            buffer *b = find_buf(&r, scalar(map_get(&r, o, "buffer")));
            char *path = path_of(&r, scalar(map_get(&r, o, "file")));
            if (!path || write_file_atomic(path, b->host, b->count * b->esz)) {
                fprintf(stderr, "%s: cannot write output '%s' (%s)\n", spec, path ? path : "?", strerror(errno));
                free(path); rc = 2; goto out;
            }
            free(path);
        }
    if (json) {
        ptxeLaunchStats st; ptxeGetLaunchStats(ctx, &st);
        cJSON *j = cJSON_CreateObject();
        cJSON_AddStringToObject(j, "kernel", ptxeFuncGetName(fn));
        cJSON_AddStringToObject(j, "status", lr ? ptxeGetErrorName(lr) : "ok");
        if (lr) cJSON_AddStringToObject(j, "fault", ptxeGetErrorMessage(ctx));
        cJSON *sj = cJSON_AddObjectToObject(j, "stats");
        cJSON_AddNumberToObject(sj, "warp_instructions", (double)st.warp_insns);
        cJSON_AddNumberToObject(sj, "thread_instructions", (double)st.thread_insns);
        cJSON_AddNumberToObject(sj, "warps", (double)st.nwarps);
        cJSON *pw = cJSON_AddArrayToObject(sj, "per_warp");
        for (uint64_t i = 0; i < st.nwarps; i++) cJSON_AddItemToArray(pw, cJSON_CreateNumber((double)st.per_warp[i]));
        cJSON *bj = cJSON_AddObjectToObject(j, "buffers");
        for (int i = 0; i < r.nbufs; i++) cJSON_AddItemToObject(bj, r.bufs[i].name, buffer_json(&r.bufs[i]));
        char *s = cJSON_Print(j);
        cJSON_Delete(j);
        int werr = 0;
        if (!s) werr = 1;
        else if (!strcmp(json, "-")) { fputs(s, stdout); fputc('\n', stdout); }
        else {
            size_t sl = strlen(s);
            s[sl] = '\n';
            werr = write_file_atomic(json, s, sl + 1);
            s[sl] = 0;
        }
        free(s);
        if (werr) { fprintf(stderr, "%s: cannot write JSON '%s'\n", spec, json); rc = 2; goto out; }
    }
    rc = lr ? 1 : 0;
out:
    if (r.failed) rc = 2;
    for (int i = 0; i < r.nbufs; i++) { free(r.bufs[i].name); free(r.bufs[i].host); }
    free(r.bufs); free(args); free(argbuf); free(text); free(mpath);
    if (mod) ptxeModuleUnload(mod);
    ptxeCtxDestroy(ctx);
    yaml_document_delete(&r.doc);
    return rc;
}
