/* base/opts.c — the table-driven option parser of every command (see opts.h). */
#include "base/opts.h"

#include <dirent.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/alloc.h"
#include "base/fileio.h"

void opt_init(opt_parser *p, const char *cmd, const opt_def *defs, int argc, char **argv)
{
    memset(p, 0, sizeof *p);
    p->cmd = cmd;
    p->defs = defs;
    p->argc = argc;
    p->argv = argv;
    p->i = 1;
    p->pos = xcalloc((size_t)argc + 1, sizeof *p->pos);
}

void opt_free(opt_parser *p)
{
    free(p->pos);
    p->pos = NULL;
    p->npos = 0;
}

void opt_error(const opt_parser *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "ptxlitmus %s: %s ", p->cmd, p->spelled);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

int opt_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 63 || lb > 63) return 99;
    int d[64];
    for (size_t j = 0; j <= lb; j++) d[j] = (int)j;
    for (size_t i = 1; i <= la; i++) {
        int diag = d[0];
        d[0] = (int)i;
        for (size_t j = 1; j <= lb; j++) {
            int up = d[j], best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best) best = up + 1;
            if (d[j - 1] + 1 < best) best = d[j - 1] + 1;
            diag = up;
            d[j] = best;
        }
    }
    return d[lb];
}

/* herd7 options that have no ptxlitmus equivalent, and what to do instead */
static const struct { const char *name, *hint; } herd_notes[] = {
    { "speedcheck", "ptxlitmus always lists the states; -q hides them" },
    { "skipchecks", "give a model without those checks with --cat FILE" },
    { "graph", "use --graph DIR (and --show witness|all|forbidden)" },
    { "nshow", "use --show and --states N" },
    { "conf", "put the options in a file and pass it as @FILE" },
    { "set-libdir", "--cat searches includes beside the file, then the bundled models" },
    { "I", "--cat searches includes beside the file, then the bundled models" },
    { "bell", "herd7's bell files are not supported" },
    { "macros", "herd7's macros are not supported" },
    { "variant", "herd7's variants are not supported" },
    { "initwrites", "initial writes are always part of the executions" },
    { "web", "use --graph DIR for pictures" },
    { NULL, NULL },
};

/* The hint for an unknown word: herd7 notes, then -name for --name, then near names. */
void opt_hint(const opt_def *defs, const char *word, char *buf, size_t n)
{
    buf[0] = 0;
    const char *w = word;
    while (*w == '-') w++;
    char name[64];
    snprintf(name, sizeof name, "%.*s", (int)strcspn(w, "="), w);
    if (word[0] == '-' && word[1] != '-')
        for (int k = 0; herd_notes[k].name; k++)
            if (!strcmp(name, herd_notes[k].name)) {
                snprintf(buf, n, "herd7's %s: %s", word, herd_notes[k].hint);
                return;
            }
    int best = 99;
    for (const opt_def *d = defs; d->name; d++) {
        int dist = opt_distance(name, d->name);
        if (dist < best) best = dist;
    }
    size_t len = strlen(name);
    int limit = len <= 3 ? 1 : len <= 6 ? 2 : 3;
    if (best > limit) return;
    size_t k = (size_t)snprintf(buf, n, "did you mean");
    int first = 1;
    for (const opt_def *d = defs; d->name && k < n; d++) {
        if (opt_distance(name, d->name) != best) continue;
        int dup = 0;   /* several entries may share a name's neighbourhood: list each once */
        for (const opt_def *e = defs; e < d; e++) dup |= !strcmp(e->name, d->name);
        if (dup) continue;
        k += (size_t)snprintf(buf + k, n - k, "%s '--%s'", first ? "" : " or", d->name);
        first = 0;
    }
    if (k < n) snprintf(buf + k, n - k, "?");
}

static const opt_def *find_long(const opt_def *defs, const char *name, size_t len)
{
    for (const opt_def *d = defs; d->name; d++)
        if (strlen(d->name) == len && !strncmp(d->name, name, len)) return d;
    return NULL;
}

static const opt_def *find_herd(const opt_def *defs, const char *name)
{
    for (const opt_def *d = defs; d->name; d++)
        if (d->herd && !strcmp(d->herd, name)) return d;
    return NULL;
}

static const opt_def *find_short(const opt_def *defs, char c)
{
    for (const opt_def *d = defs; d->name; d++)
        if (d->shrt && d->shrt == c) return d;
    return NULL;
}

static int unknown(opt_parser *p, const char *w)
{
    char hint[300];
    opt_hint(p->defs, w, hint, sizeof hint);
    fprintf(stderr, "ptxlitmus %s: unknown option '%s'%s%s\n", p->cmd, w, *hint ? "; " : "",
            hint);
    return OPT_ERROR;
}

/* The value of the option p->def: attached (=V, -xV) or the next word. */
static int take_value(opt_parser *p, const char *attached)
{
    if (!p->def->value) {
        if (attached) {
            opt_error(p, "takes no value, found '%s'", attached);
            return OPT_ERROR;
        }
        p->arg = NULL;
        return p->def->id;
    }
    if (attached) p->arg = attached;
    else if (p->i < p->argc) p->arg = p->argv[p->i++];
    else {
        opt_error(p, "takes %s", p->def->value);
        return OPT_ERROR;
    }
    return p->def->id;
}

static int next_word(opt_parser *p);

/* An OPT_ONCE option given a second time: refused (issue #28: `--json a --json b` wrote b and
   dropped a without a word). */
static int once(opt_parser *p, int id)
{
    if (id <= 0 || !(id & OPT_ONCE)) return id;
    id &= ~OPT_ONCE;
    for (int i = 0; i < p->nonce; i++)
        if (p->once_id[i] == id) {
            opt_error(p, "given twice ('%s', then '%s'), expected it once", p->once_arg[i],
                      p->arg ? p->arg : "");
            return OPT_ERROR;
        }
    if (p->nonce < (int)(sizeof p->once_id / sizeof *p->once_id)) {
        p->once_id[p->nonce] = id;
        p->once_arg[p->nonce++] = p->arg;
    }
    return id;
}

int opt_next(opt_parser *p)
{
    int id;
    while ((id = next_word(p)) == OPT_ALLOW_OUTSIDE) output_set_allow_outside(1);
    return once(p, id);
}

static int next_word(opt_parser *p)
{
    while (p->i < p->argc) {
        char *w = p->argv[p->i++];
        if (p->rest || w[0] != '-' || !w[1]) { p->pos[p->npos++] = w; continue; }
        if (!strcmp(w, "--")) { p->rest = 1; continue; }
        p->def = NULL;
        p->arg = NULL;
        if (w[1] == '-') {
            const char *name = w + 2, *eq = strchr(name, '=');
            size_t len = eq ? (size_t)(eq - name) : strlen(name);
            snprintf(p->spelled, sizeof p->spelled, "--%.*s", (int)len, name);
            p->def = find_long(p->defs, name, len);
            if (!p->def) return unknown(p, w);
            return take_value(p, eq ? eq + 1 : NULL);
        }
        snprintf(p->spelled, sizeof p->spelled, "%.*s", (int)strcspn(w, "="), w);
        if ((p->def = find_herd(p->defs, w + 1))) return take_value(p, NULL);
        /* -json is --json misspelt, not -j with the value "son" */
        if (w[2] && find_long(p->defs, w + 1, strcspn(w + 1, "="))) return unknown(p, w);
        if ((p->def = find_short(p->defs, w[1]))) {
            snprintf(p->spelled, sizeof p->spelled, "-%c", w[1]);
            if (!w[2]) return take_value(p, NULL);
            if (p->def->value) return take_value(p, w + 2);   /* -j4 */
        }
        return unknown(p, w);
    }
    return OPT_END;
}

int opt_long(const opt_parser *p, long lo, long hi, long *out)
{
    const char *s = p->arg ? p->arg : "";
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (!*s || *end || errno || v < lo || v > hi) {
        opt_error(p, "takes a whole number from %ld to %ld, found '%s'", lo, hi, s);
        return -1;
    }
    *out = v;
    return 0;
}

int opt_seconds(const opt_parser *p, double hi, double *out)
{
    const char *s = p->arg ? p->arg : "";
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end != s && *end == 's' && !end[1]) end++;
    if (!*s || *end || errno || !isfinite(v) || !(v >= 0 && v <= hi)) {
        opt_error(p, "takes a number of seconds from 0 to %.0f, found '%s'", hi, s);
        return -1;
    }
    *out = v;
    return 0;
}

int parse_bytes(const char *s, uint64_t hi, uint64_t *out)
{
    char *e;
    errno = 0;
    if (!s || !isdigit((unsigned char)s[0])) return -1;
    uint64_t v = strtoull(s, &e, 10);
    uint64_t unit = *e == 'K' ? 1ull << 10 : *e == 'M' ? 1ull << 20 : *e == 'G' ? 1ull << 30 : 1;
    if (unit > 1) e++;
    if (*e || errno || v > hi / unit) return -1;
    *out = v * unit;
    return 0;
}

int opt_bytes(const opt_parser *p, uint64_t hi, uint64_t *out)
{
    if (!parse_bytes(p->arg, hi, out)) return 0;
    opt_error(p, "takes a size in bytes (K, M, G suffixes) up to %lluG, found '%s'",
              (unsigned long long)(hi >> 30), p->arg ? p->arg : "");
    return -1;
}

int opt_word(const opt_parser *p, const char *const *words, int *out)
{
    const char *s = p->arg ? p->arg : "";
    for (int k = 0; words[k]; k++)
        if (!strcmp(words[k], s)) { *out = k; return 0; }
    char list[300];
    size_t k = 0;
    list[0] = 0;
    for (int j = 0; words[j] && k < sizeof list; j++)
        k += (size_t)snprintf(list + k, sizeof list - k, "%s%s", j ? (words[j + 1] ? ", " : " or ")
                                                                   : "", words[j]);
    opt_error(p, "takes %s, found '%s'", list, s);
    return -1;
}

/* ---------- @FILE ---------- */

static int push_arg(char ***v, int *n, int *cap, char *s)
{
    if (*n + 2 > *cap) {
        *cap = *cap ? *cap * 2 : 16;
        *v = xrealloc(*v, (size_t)*cap * sizeof **v);
    }
    (*v)[(*n)++] = s;
    (*v)[*n] = NULL;
    return 0;
}

static int expand_one(const char *word, int depth, char ***v, int *n, int *cap)
{
    if (word[0] != '@' || !word[1]) return push_arg(v, n, cap, xstrdup(word));
    const char *path = word + 1;
    char *text, why[200];
    size_t len;
    if (depth >= 8) {
        fprintf(stderr, "%s:1:1: found @FILE nested more than 8 deep, expected at most 8\n", path);
        return -1;
    }
    if (read_input(path, (size_t)16 << 20, &text, &len, why, sizeof why)) {
        fprintf(stderr, "%s:1:1: found %s, expected a file of arguments (one per line)\n", path,
                why);
        return -1;
    }
    int rc = 0;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line && !rc;
         line = strtok_r(NULL, "\n", &save)) {
        size_t l = strlen(line);
        while (l && (line[l - 1] == '\r' || line[l - 1] == ' ' || line[l - 1] == '\t'))
            line[--l] = 0;
        while (*line == ' ' || *line == '\t') line++;
        if (!*line || *line == '#') continue;
        rc = expand_one(line, depth + 1, v, n, cap);
    }
    free(text);
    return rc;
}

int opt_expand_at(int argc, char **argv, int *argc_out, char ***argv_out)
{
    char **v = NULL;
    int n = 0, cap = 0;
    push_arg(&v, &n, &cap, xstrdup(argc > 0 ? argv[0] : "ptxlitmus"));
    for (int i = 1; i < argc; i++) {
        int rc = !strcmp(argv[i], "--") ? -2 : expand_one(argv[i], 0, &v, &n, &cap);
        if (rc == -2) {   /* after "--", words are taken as written */
            for (; i < argc; i++) push_arg(&v, &n, &cap, xstrdup(argv[i]));
            break;
        }
        if (rc) { opt_free_argv(v); return -1; }
    }
    *argc_out = n;
    *argv_out = v;
    return 0;
}

void opt_free_argv(char **argv)
{
    if (!argv) return;
    for (char **a = argv; *a; a++) free(*a);
    free(argv);
}

/* ---------- directories ---------- */

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int ends_with(const char *s, const char *ext)
{
    size_t l = strlen(s), e = strlen(ext);
    return l > e && !strcmp(s + l - e, ext);
}

static void push_path(char ***v, int *n, char *s)
{
    *v = xrealloc(*v, (size_t)(*n + 1) * sizeof **v);
    (*v)[(*n)++] = s;
}

/* the directories being read, from the argument down: a symbolic link back to one of them is
   a loop (issue #28: `ln -s .. loop` made every test of the folder count 16 times, once per
   level down to the depth limit) */
typedef struct { dev_t dev; ino_t ino; } dir_id;

static int scan_dir(const char *dir, const char *ext, char ***v, int *n, dir_id *up, int depth,
                    int *loops)
{
    DIR *d = opendir(dir);
    if (!d) return -1;
    char **names = NULL;
    int nn = 0, added = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        if (e->d_name[0] != '.') push_path(&names, &nn, xstrdup(e->d_name));
    closedir(d);
    if (nn) qsort(names, (size_t)nn, sizeof *names, cmp_str);
    for (int i = 0; i < nn; i++) {
        size_t l = strlen(dir) + strlen(names[i]) + 2;
        char *p = xmalloc(l);
        snprintf(p, l, "%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", names[i]);
        struct stat st;
        if (!stat(p, &st) && S_ISDIR(st.st_mode)) {
            int loop = -1;
            for (int k = 0; k <= depth && loop < 0; k++)
                if (up[k].dev == st.st_dev && up[k].ino == st.st_ino) loop = k;
            if (loop >= 0) {
                fprintf(stderr, "%s:1:1: found a symbolic link back to a folder being read (a "
                                "loop), expected a folder of tests; skipped\n", p);
                if (loops) (*loops)++;
            } else if (depth + 1 < PATH_EXPAND_DEPTH) {
                up[depth + 1] = (dir_id){ st.st_dev, st.st_ino };
                int k = scan_dir(p, ext, v, n, up, depth + 1, loops);
                added += k > 0 ? k : 0;
            }
            free(p);
        } else if (ends_with(names[i], ext)) {
            push_path(v, n, p);
            added++;
        } else free(p);
        free(names[i]);
    }
    free(names);
    return added;
}

int path_expand(const char *path, const char *ext, char ***v, int *n, int *loops)
{
    struct stat st;
    if (strcmp(path, "-") && !stat(path, &st) && S_ISDIR(st.st_mode)) {
        dir_id up[PATH_EXPAND_DEPTH];
        up[0] = (dir_id){ st.st_dev, st.st_ino };
        return scan_dir(path, ext, v, n, up, 0, loops);
    }
    push_path(v, n, xstrdup(path));
    return 1;
}
