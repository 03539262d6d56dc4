/* suite/suite_manifest.c — suite manifests (YAML, libyaml document API); format in
 * docs/suites.md. */
#include "base/alloc.h"
#include "base/fileio.h"
#include "base/sbuf.h"
#include "suite/suite.h"
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <yaml.h>

static void ferr(char *err, size_t n, const char *path, const yaml_node_t *nd, const char *fmt, ...)
{
    int l = snprintf(err, n, "%s:%zu:%zu: ", path, nd ? nd->start_mark.line + 1 : 1,
                     nd ? nd->start_mark.column + 1 : 1);
    if (l < 0 || (size_t)l >= n) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err + l, n - (size_t)l, fmt, ap);
    va_end(ap);
}

static const char *node_kind(const yaml_node_t *n)
{
    return n->type == YAML_SCALAR_NODE     ? "a scalar"
           : n->type == YAML_SEQUENCE_NODE ? "a list"
           : n->type == YAML_MAPPING_NODE  ? "a mapping"
                                           : "nothing";
}

static const char *scalar(const yaml_node_t *n)
{
    return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

static char *dir_of(const char *path)
{
    const char *s = strrchr(path, '/');
    if (!s) return xstrdup(".");
    if (s == path) return xstrdup("/");
    return xstrndup(path, (size_t)(s - path));
}

static char *join(const char *dir, const char *f)
{
    if (f[0] == '/' || !strcmp(dir, ".")) return xstrdup(f);
    size_t n = strlen(dir) + strlen(f) + 2;
    char *p = xmalloc(n);
    snprintf(p, n, "%s/%s", dir, f);
    return p;
}

int suite_expect_get(const suite_test *t, model_kind k)
{
    for (int i = 0; i < t->nexp; i++) if (t->exp[i].model == k) return t->exp[i].verdict;
    return -1;
}

void suite_expect_set(suite_test *t, model_kind k, int verdict)
{
    for (int i = 0; i < t->nexp; i++)
        if (t->exp[i].model == k) {
            t->exp[i].verdict = verdict;
            return;
        }
    t->exp = xrealloc(t->exp, (size_t)(t->nexp + 1) * sizeof *t->exp);
    t->exp[t->nexp].model = k;
    t->exp[t->nexp].verdict = verdict;
    t->nexp++;
}

/* The `expect: { MODEL: Ok|No, ... }` mapping v of a test entry, into t's expectations. */
static int load_expect(yaml_document_t *doc, yaml_node_t *v, const char *path, suite_test *t,
                       char *err, size_t errlen)
{
    if (v->type != YAML_MAPPING_NODE) {
        ferr(err, errlen, path, v,
             "found %s after expect:, expected a mapping such as { ptx: Ok }",
             node_kind(v));
        return -1;
    }
    for (yaml_node_pair_t *q = v->data.mapping.pairs.start; q < v->data.mapping.pairs.top;
         q++) {
        yaml_node_t *mk = yaml_document_get_node(doc, q->key),
                    *mv = yaml_document_get_node(doc, q->value);
        model_kind kind;
        if (!scalar(mk) || model_parse(scalar(mk), &kind)) {
            ferr(err, errlen, path, mk,
                 "found '%s' as a model, expected ptx, ptx-v7.5 or ptx-v6.0",
                 scalar(mk) ? scalar(mk) : node_kind(mk));
            return -1;
        }
        const char *vv = scalar(mv);
        if (!vv || (strcmp(vv, "Ok") && strcmp(vv, "No"))) {
            ferr(err, errlen, path, mv,
                 "found '%s' as the verdict for %s, expected Ok or No",
                 vv ? vv : node_kind(mv), scalar(mk));
            return -1;
        }
        if (suite_expect_get(t, kind) >= 0) {
            ferr(err, errlen, path, mk,
                 "found model %s twice, expected one verdict per model", scalar(mk));
            return -1;
        }
        suite_expect_set(t, kind, !strcmp(vv, "Ok"));
    }
    return 0;
}

/* One key k: v of a test entry other than expect: liveness, file, source or note, into t. */
static int load_test_key(yaml_node_t *k, yaml_node_t *v, const char *key, const char *path,
                         suite_test *t, char *err, size_t errlen)
{
    const char *val = scalar(v);
    if (!strcmp(key, "liveness")) {   /* the expected answer of verify --liveness */
        if (t->liveness >= 0) {
            ferr(err, errlen, path, k, "found key '%s' twice, expected it once", key);
            return -1;
        }
        if (!val || (strcmp(val, "terminates") && strcmp(val, "may-hang"))) {
            ferr(err, errlen, path, v,
                 "found '%s' after liveness:, expected terminates or may-hang",
                 val ? val : node_kind(v));
            return -1;
        }
        t->liveness = !strcmp(val, "may-hang");
        return 0;
    }
    if (strcmp(key, "file") && strcmp(key, "source") && strcmp(key, "note")) {
        ferr(err, errlen, path, k,
             "found key '%s' in a test entry, expected file, expect, liveness, source or note",
             key);
        return -1;
    }
    if (!val) {
        ferr(err, errlen, path, v, "found %s after %s:, expected a string", node_kind(v), key);
        return -1;
    }
    char **slot = !strcmp(key, "file") ? &t->file : !strcmp(key, "source") ? &t->source : &t->note;
    if (*slot) {
        ferr(err, errlen, path, k, "found key '%s' twice, expected it once", key);
        return -1;
    }
    *slot = xstrdup(val);
    return 0;
}

/* One test entry { file, expect, liveness, source, note }: each key read and checked by
 * load_expect or load_test_key, then the entry as a whole; appended to m->t. */
static int load_test(yaml_document_t *doc, yaml_node_t *n, const char *path, suite_manifest *m,
                     char *err, size_t errlen)
{
    if (n->type != YAML_MAPPING_NODE) {
        ferr(err, errlen, path, n,
             "found %s in tests, expected a mapping with file: and expect:", node_kind(n));
        return -1;
    }
    suite_test t = { 0 };
    t.line = (int)n->start_mark.line + 1;
    t.liveness = -1;
    int rc = -1;
    const yaml_node_t *expect = NULL;
    for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
        yaml_node_t *k = yaml_document_get_node(doc, p->key),
                    *v = yaml_document_get_node(doc, p->value);
        const char *key = scalar(k);
        if (!key) {
            ferr(err, errlen, path, k,
                 "found %s as a key, expected file, expect, liveness, source or note",
                 node_kind(k));
            goto out;
        }
        if (!strcmp(key, "expect")) {
            if (load_expect(doc, v, path, &t, err, errlen)) goto out;
            expect = v;
        } else if (load_test_key(k, v, key, path, &t, err, errlen)) goto out;
    }
    if (!t.file || !*t.file) {
        ferr(err, errlen, path, n, "found a test entry without file:, expected file: NAME.litmus");
        goto out;
    }
    if (!expect) {
        ferr(err, errlen, path, n,
             "found test %s without expect:, expected expect: { MODEL: Ok|No }", t.file);
        goto out;
    }
    for (int i = 0; i < m->nt; i++)
        if (!strcmp(m->t[i].file, t.file)) {
            ferr(err, errlen, path, n, "found test %s twice, expected each file once", t.file);
            goto out;
        }
    t.path = join(m->rootdir, t.file);
    m->t = xrealloc(m->t, (size_t)(m->nt + 1) * sizeof *m->t);
    m->t[m->nt++] = t;
    return 0;
out:
    free(t.file); free(t.source); free(t.note); free(t.exp);
    return rc;
}

static suite_hw_check_fn hw_check;
void suite_manifest_check_hw(suite_hw_check_fn fn) { hw_check = fn; }

/* `hw: { instances: N, ... }`: the options of `ptxlitmus suite --hw` for this suite, checked by
 * the hw command's own option parser when it is registered (docs/hardware.md). */
static int load_hw(yaml_document_t *doc, yaml_node_t *v, const char *path, suite_manifest *m,
                   char *err, size_t errlen)
{
    if (v->type != YAML_MAPPING_NODE) {
        ferr(err, errlen, path, v, "found %s after hw:, expected a mapping such as "
             "{ instances: 65536 }", node_kind(v));
        return -1;
    }
    for (yaml_node_pair_t *q = v->data.mapping.pairs.start; q < v->data.mapping.pairs.top; q++) {
        yaml_node_t *hk = yaml_document_get_node(doc, q->key);
        yaml_node_t *hv = yaml_document_get_node(doc, q->value);
        if (!scalar(hk) || !scalar(hv)) {
            ferr(err, errlen, path, hk, "found %s in hw:, expected key: value",
                 node_kind(!scalar(hk) ? hk : hv));
            return -1;
        }
        char why[300];
        if (hw_check && hw_check(scalar(hk), scalar(hv), why, sizeof why)) {
            ferr(err, errlen, path, strncmp(why, "found the option", 16) ? hv : hk, "hw: %s", why);
            return -1;
        }
        char **k = xrealloc(m->hw_key, (size_t)(m->nhw + 1) * sizeof *k);
        if (k) m->hw_key = k;
        char **val = k ? xrealloc(m->hw_val, (size_t)(m->nhw + 1) * sizeof *val) : NULL;
        if (val) m->hw_val = val;
        char *ks = xstrdup(scalar(hk)), *vs = xstrdup(scalar(hv));
        if (!k || !val || !ks || !vs) {
            free(ks), free(vs);
            ferr(err, errlen, path, hk, "out of memory");
            return -1;
        }
        m->hw_key[m->nhw] = ks;
        m->hw_val[m->nhw++] = vs;
    }
    return 0;
}

/* The top-level keys of a manifest: suite, description, root (strings) and tests (a list, or
 * empty), into m and *tests; -1 with a message in err. */
static int manifest_keys(yaml_document_t *doc, yaml_node_t *root, const char *path,
                         suite_manifest *m, yaml_node_t **tests, char *err, size_t errlen)
{
    for (yaml_node_pair_t *q = root->data.mapping.pairs.start; q < root->data.mapping.pairs.top;
         q++) {
        yaml_node_t *k = yaml_document_get_node(doc, q->key),
                    *v = yaml_document_get_node(doc, q->value);
        const char *key = scalar(k);
        if (key && !strcmp(key, "tests")) {
            if (v->type != YAML_SEQUENCE_NODE && !(v->type == YAML_SCALAR_NODE && !*scalar(v))) {
                ferr(err, errlen, path, v, "found %s after tests:, expected a list of test entries",
                     node_kind(v));
                return -1;
            }
            *tests = v;
            continue;
        }
        if (key && !strcmp(key, "hw")) {
            if (load_hw(doc, v, path, m, err, errlen)) return -1;
            continue;
        }
        if (!key || (strcmp(key, "suite") && strcmp(key, "description") && strcmp(key, "root"))) {
            ferr(err, errlen, path, k,
                 "found key '%s', expected suite, description, root, hw or tests",
                 key ? key : node_kind(k));
            return -1;
        }
        if (!scalar(v)) {
            ferr(err, errlen, path, v, "found %s after %s:, expected a string", node_kind(v), key);
            return -1;
        }
        char **slot = !strcmp(key, "suite")         ? &m->name
                      : !strcmp(key, "description") ? &m->description
                                                    : &m->root;
        free(*slot);
        *slot = xstrdup(scalar(v));
    }
    return 0;
}

int suite_manifest_load(const char *path, suite_manifest *m, char *err, size_t errlen)
{
    memset(m, 0, sizeof *m);
    m->path = xstrdup(path);
    char *text, why[160];
    size_t tlen;
    if (read_input(path, FILEIO_CAP_DEFAULT, &text, &tlen, why, sizeof why)) {
        snprintf(err, errlen, "%s:1:1: found %s, expected a readable manifest", path, why);
        return -1;
    }
    yaml_parser_t p;
    yaml_document_t doc;
    yaml_parser_initialize(&p);
    yaml_parser_set_input_string(&p, (const unsigned char *)text, tlen);
    int rc = -1;
    if (!yaml_parser_load(&p, &doc)) {
        snprintf(err, errlen, "%s:%zu:%zu: found invalid YAML (%s%s%s), expected a manifest", path,
                 p.problem_mark.line + 1, p.problem_mark.column + 1,
                 p.problem ? p.problem : "syntax error", p.context ? " " : "",
                 p.context ? p.context : "");
        yaml_parser_delete(&p);
        free(text);
        return -1;
    }
    yaml_node_t *root = yaml_document_get_root_node(&doc);
    char *dir = dir_of(path);
    if (!root) {
        snprintf(err, errlen,
                 "%s:1:1: found an empty file, expected a manifest with suite: and tests:", path);
        goto done;
    }
    if (root->type != YAML_MAPPING_NODE) {
        ferr(err, errlen, path, root,
             "found %s at the top, expected a mapping with suite: and tests:", node_kind(root));
        goto done;
    }
    yaml_node_t *tests = NULL;
    if (manifest_keys(&doc, root, path, m, &tests, err, errlen)) goto done;
    if (!tests) {
        ferr(err, errlen, path, root, "found no tests: key, expected tests: followed by a list");
        goto done;
    }
    if (!m->name) {
        const char *b = strrchr(dir, '/');
        m->name = xstrdup(b ? b + 1 : dir);
    }
    m->rootdir = m->root ? join(dir, m->root) : xstrdup(dir);
    if (tests->type == YAML_SEQUENCE_NODE)
        for (yaml_node_item_t *it = tests->data.sequence.items.start;
             it < tests->data.sequence.items.top; it++)
            if (load_test(&doc, yaml_document_get_node(&doc, *it), path, m, err, errlen)) goto done;
    rc = 0;
done:
    free(dir);
    yaml_document_delete(&doc);
    yaml_parser_delete(&p);
    free(text);
    return rc;
}

void suite_manifest_free(suite_manifest *m)
{
    for (int i = 0; i < m->nt; i++) {
        free(m->t[i].file);
        free(m->t[i].path);
        free(m->t[i].source);
        free(m->t[i].note);
        free(m->t[i].exp);
    }
    for (int i = 0; i < m->nhw; i++) { free(m->hw_key[i]); free(m->hw_val[i]); }
    free(m->hw_key); free(m->hw_val);
    free(m->t); free(m->path); free(m->name); free(m->description); free(m->root); free(m->rootdir);
    memset(m, 0, sizeof *m);
}

/* ---------- writing ---------- */

/* A plain scalar when safe, else a double-quoted YAML string. */
static void sb_str(sbuf *b, const char *s)
{
    int plain = *s && !strchr("-?:,[]{}#&*!|>'\"%@` ", s[0]) && s[strlen(s) - 1] != ' ';
    for (const char *p = s; *p && plain; p++)
        if ((unsigned char)*p < 0x20 || *p == '#' || (*p == ':' && (p[1] == ' ' || !p[1])) ||
            *p == '"' || *p == '\\')
            plain = 0;
    if (plain &&
        (!strcmp(s, "true") || !strcmp(s, "false") || !strcmp(s, "null") || !strcmp(s, "~")))
        plain = 0;
    if (plain) { sb_add(b, "%s", s); return; }
    sb_add(b, "\"");
    for (const char *p = s; *p; p++) {
        unsigned char c = (unsigned char)*p;
        if (c == '"' || c == '\\') sb_add(b, "\\%c", c);
        else if (c == '\n') sb_add(b, "\\n");
        else if (c == '\t') sb_add(b, "\\t");
        else if (c < 0x20) sb_add(b, "\\x%02x", c);
        else sb_add(b, "%c", c);
    }
    sb_add(b, "\"");
}

char *suite_manifest_text(const suite_manifest *m)
{
    sbuf b = { 0 };
    sb_add(&b, "suite: "); sb_str(&b, m->name ? m->name : "suite"); sb_add(&b, "\n");
    if (m->description) {
        sb_add(&b, "description: ");
        sb_str(&b, m->description);
        sb_add(&b, "\n");
    }
    if (m->root) { sb_add(&b, "root: "); sb_str(&b, m->root); sb_add(&b, "\n"); }
    for (int i = 0; i < m->nhw; i++) {
        sb_add(&b, "%s%s: ", i ? ", " : "hw: { ", m->hw_key[i]);
        sb_str(&b, m->hw_val[i]);
        if (i == m->nhw - 1) sb_add(&b, " }\n");
    }
    sb_add(&b, "tests:\n");
    static const model_kind order[] = { MODEL_PTX, MODEL_PTX75, MODEL_PTX60 };
    for (int i = 0; i < m->nt; i++) {
        const suite_test *t = &m->t[i];
        sb_add(&b, "  - file: "); sb_str(&b, t->file); sb_add(&b, "\n    expect: {");
        int first = 1;
        for (int k = 0; k < 3; k++) {
            int v = suite_expect_get(t, order[k]);
            if (v < 0) continue;
            sb_add(&b, "%s %s: %s", first ? "" : ",", model_name(order[k]), v ? "Ok" : "No");
            first = 0;
        }
        sb_add(&b, " }\n");
        if (t->liveness >= 0)
            sb_add(&b, "    liveness: %s\n", t->liveness ? "may-hang" : "terminates");
        if (t->source) { sb_add(&b, "    source: "); sb_str(&b, t->source); sb_add(&b, "\n"); }
        if (t->note) { sb_add(&b, "    note: "); sb_str(&b, t->note); sb_add(&b, "\n"); }
    }
    return b.s;
}

/* ---------- finding manifests ---------- */

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void push(char ***out, int *n, const char *p)
{
    *out = xrealloc(*out, (size_t)(*n + 1) * sizeof **out);
    (*out)[(*n)++] = xstrdup(p);
}

static void scan(const char *dir, char ***out, int *n, int depth)
{
    if (depth > 8) return;
    char *mf = join(dir, "manifest.yaml");
    struct stat st;
    if (!stat(mf, &st) && S_ISREG(st.st_mode)) { push(out, n, mf); free(mf); return; }
    free(mf);
    DIR *d = opendir(dir);
    if (!d) return;
    char **subs = NULL;
    int ns = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        char *p = join(dir, e->d_name);
        if (!stat(p, &st) && S_ISDIR(st.st_mode)) push(&subs, &ns, p);
        free(p);
    }
    closedir(d);
    if (ns) qsort(subs, (size_t)ns, sizeof *subs, cmp_str);
    for (int i = 0; i < ns; i++) { scan(subs[i], out, n, depth + 1); free(subs[i]); }
    free(subs);
}

int suite_find_manifests(const char *path, char ***out, int *n)
{
    struct stat st;
    if (stat(path, &st)) return -1;
    int before = *n;
    if (S_ISREG(st.st_mode)) push(out, n, path);
    else {
        size_t l = strlen(path);
        char *p = xstrdup(path);
        while (l > 1 && p[l - 1] == '/') p[--l] = 0;
        scan(p, out, n, 0);
        free(p);
    }
    return *n - before;
}
