/* suite/table.c — `ptxlitmus table`: the verdicts of several models, or of several runs (the
 * --json output of verify or suite), side by side, as CSV, Markdown or LaTeX (booktabs), for a
 * paper.  Columns: test, quantifier, then each model's (or run's) observation; a verdict that
 * is not final reads Unknown.  Every table carries the provenance as comment lines. */
#include "base/alloc.h"
#include "base/fileio.h"
#include "base/opts.h"
#include "base/sbuf.h"
#include "report/provenance.h"
#include "report/report.h"
#include "suite/suite.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void usage(FILE *f)
{
    fprintf(f,
        "usage: ptxlitmus table [options] (FILE|DIR|RUN.json)...\n"
        "  the observation (Never, Sometimes, Always, Unknown) of each test under each model,\n"
        "  side by side.  Litmus files and directories are decided under every --model; a\n"
        "  RUN.json (the --json output of verify or suite) gives one column per model it holds\n"
        "  --model NAME        ptx (or ptx-v8.4), ptx-v7.5, ptx-v6.0 or rc11-scoped (repeatable;\n"
        "                      default ptx)\n"
        "  --format F          csv (default), markdown or latex (booktabs); also taken from the\n"
        "                      --out extension (.csv, .md, .tex)\n"
        "  --out FILE          write the table to FILE (default: standard output)\n"
        "  --jobs N, --timeout S, --unroll N   as in suite\n"
        "  --allow-unknown     exit 0 even when a cell is Unknown\n"
        "exit status: 0 every cell decided, 1 a cell Unknown or an error, 2 usage error, 3 the\n"
        "table could not be written\n");
}

enum { T_MODEL = 1, T_FORMAT, T_OUT, T_JOBS, T_TIMEOUT, T_UNROLL, T_ALLOW_UNKNOWN };
static const opt_def table_defs[] = {
    OPT_COMMON,
    { "model", 0, T_MODEL, "a model name", "model" },
    { "format", 0, T_FORMAT, "csv, markdown or latex", NULL },
    { "out", 'o', T_OUT | OPT_ONCE, "a file name", NULL },
    { "jobs", 'j', T_JOBS, "a whole number", "j" },
    { "timeout", 0, T_TIMEOUT, "a number of seconds", "timeout" },
    { "unroll", 0, T_UNROLL, "a whole number", "unroll" },
    { "allow-unknown", 0, T_ALLOW_UNKNOWN, NULL, NULL },
    { NULL, 0, 0, NULL, NULL },
};

/* Every result first goes into a flat list of entries; table_build then makes the rows (one per
 * test FILE: two tests that share a name are two rows, issue #28) and the columns (one per
 * model: the shards of one run, which hold different tests, share it; only runs that decided
 * the same test under the same model get a column each, labelled RUN:model). */
typedef struct {
    const char *run;        /* the RUN.json it came from (not owned), NULL: decided here */
    char *model, *key, *name, *quant, *cell;
} entry;
typedef struct { char *label, *model; const char *run; int split; } column;
typedef struct { char *key, *name, *quant; char **cell; } row;
typedef struct {
    entry *e; int ne;
    column *col; int ncol;
    row *row; int nrow;
    int unknown, errors;
} table;

/* One result object into the list. */
static void add_result(table *t, const char *run, const char *model, const cJSON *res)
{
    const char *name = suite_str(res, "name"), *file = suite_str(res, "file");
    char base[256];
    if (!*name) {   /* a file that did not parse: its base name */
        const char *s = strrchr(file, '/');
        snprintf(base, sizeof base, "%s", s ? s + 1 : file);
        size_t l = strlen(base);
        if (l > 7 && !strcmp(base + l - 7, ".litmus")) base[l - 7] = 0;
        name = base;
    }
    const char *st = suite_str(res, "status"), *obs = suite_str(res, "observation");
    const char *cell = !strcmp(st, "ok") ? obs : !strcmp(st, "timeout") ? "Unknown" : "error";
    if (!strcmp(cell, "Unknown") || !strcmp(suite_str(res, "verdict"), "Unknown")) {
        cell = "Unknown";
        t->unknown++;
    } else if (!strcmp(cell, "error")) t->errors++;
    t->e = xrealloc(t->e, (size_t)(t->ne + 1) * sizeof *t->e);
    t->e[t->ne++] = (entry){ run, xstrdup(model), xstrdup(*file ? file : name), xstrdup(name),
                             *suite_str(res, "quantifier") ? xstrdup(suite_str(res, "quantifier"))
                                                           : NULL,
                             xstrdup(cell) };
}

/* Whether two runs decided the same test under model m (their columns must be split). */
static int runs_overlap(const table *t, const char *m)
{
    for (int i = 0; i < t->ne; i++)
        for (int j = i + 1; j < t->ne; j++)
            if (t->e[i].run != t->e[j].run && !strcmp(t->e[i].model, m) &&
                !strcmp(t->e[j].model, m) && !strcmp(t->e[i].key, t->e[j].key))
                return 1;
    return 0;
}

/* The column of entry e, made when new (in the order entries first name them). */
static int col_of(table *t, const entry *e)
{
    for (int i = 0; i < t->ncol; i++)
        if (!strcmp(t->col[i].model, e->model) && (!t->col[i].split || t->col[i].run == e->run))
            return i;
    t->col = xrealloc(t->col, (size_t)(t->ncol + 1) * sizeof *t->col);
    t->col[t->ncol] = (column){ xstrdup(e->model), xstrdup(e->model), e->run,
                                runs_overlap(t, e->model) };
    return t->ncol++;
}

static int row_of(table *t, const entry *e)
{
    for (int i = 0; i < t->nrow; i++)
        if (!strcmp(t->row[i].key, e->key)) return i;
    t->row = xrealloc(t->row, (size_t)(t->nrow + 1) * sizeof *t->row);
    t->row[t->nrow] = (row){ xstrdup(e->key), xstrdup(e->name), NULL, NULL };
    return t->nrow++;
}

/* The last n components of path (all of it when it has fewer). */
static const char *path_tail(const char *path, int n)
{
    const char *s = path + strlen(path);
    while (s > path && n > 0) {
        s--;
        if (*s == '/' && --n == 0) return s + 1;
    }
    return path;
}

/* Rows of the same name get the shortest end of their file's path that tells them apart:
   `2+2W+rel (own/2+2W+rel.litmus)`. */
static void name_rows(table *t)
{
    char **named = xcalloc((size_t)t->nrow + 1, sizeof *named);
    for (int i = 0; i < t->nrow; i++) {
        int clash = 0;
        for (int j = 0; j < t->nrow; j++)
            clash |= j != i && !strcmp(t->row[i].name, t->row[j].name);
        if (!clash || !strcmp(t->row[i].key, t->row[i].name)) continue;
        const char *tail = t->row[i].key;
        for (int n = 1; n < 64; n++) {
            tail = path_tail(t->row[i].key, n);
            int same = 0;
            for (int j = 0; j < t->nrow; j++)
                same |= j != i && !strcmp(t->row[i].name, t->row[j].name) &&
                        !strcmp(tail, path_tail(t->row[j].key, n));
            if (!same || tail == t->row[i].key) break;
        }
        size_t l = strlen(t->row[i].name) + strlen(tail) + 4;
        named[i] = xmalloc(l);
        snprintf(named[i], l, "%s (%s)", t->row[i].name, tail);
    }
    for (int i = 0; i < t->nrow; i++)
        if (named[i]) { free(t->row[i].name); t->row[i].name = named[i]; }
    free(named);
}

/* The rows and columns from the entries (a later entry for the same cell replaces it). */
static void table_build(table *t)
{
    for (int k = 0; k < t->ne; k++) { col_of(t, &t->e[k]); row_of(t, &t->e[k]); }
    for (int i = 0; i < t->nrow; i++)
        t->row[i].cell = xcalloc((size_t)(t->ncol ? t->ncol : 1), sizeof(char *));
    for (int k = 0; k < t->ne; k++) {
        entry *e = &t->e[k];
        row *w = &t->row[row_of(t, e)];
        int c = col_of(t, e);
        if (!w->quant && e->quant) w->quant = xstrdup(e->quant);
        free(w->cell[c]);
        w->cell[c] = e->cell;
        e->cell = NULL;
    }
    name_rows(t);
}

static void table_free(table *t)
{
    for (int k = 0; k < t->ne; k++) {
        entry *e = &t->e[k];
        free(e->model); free(e->key); free(e->name); free(e->quant); free(e->cell);
    }
    for (int r = 0; r < t->nrow; r++) {
        for (int c = 0; c < t->ncol; c++) free(t->row[r].cell[c]);
        free(t->row[r].cell); free(t->row[r].key); free(t->row[r].name); free(t->row[r].quant);
    }
    for (int c = 0; c < t->ncol; c++) { free(t->col[c].label); free(t->col[c].model); }
    free(t->e); free(t->row); free(t->col);
}

/* A RUN.json: every result, in the column of its model. */
static int add_run(table *t, const char *path)
{
    char *text, why[200];
    size_t len;
    if (read_input(path, (size_t)1 << 30, &text, &len, why, sizeof why)) {
        fprintf(stderr, "%s:1:1: found %s, expected the --json output of verify or suite\n",
                path, why);
        return -1;
    }
    cJSON *d = cJSON_Parse(text);
    free(text);
    const cJSON *res = d ? cJSON_GetObjectItemCaseSensitive(d, "results") : NULL;
    if (!cJSON_IsArray(res)) {
        fprintf(stderr,
                "%s:1:1: found %s, expected the --json output of verify or suite (an "
                "object with \"results\")\n",
                path, d ? "a JSON document without results" : "text that is not JSON");
        cJSON_Delete(d);
        return -1;
    }
    const char *dflt = suite_str(d, "model");
    const cJSON *r;
    cJSON_ArrayForEach(r, res) {
        const char *m = *suite_str(r, "model") ? suite_str(r, "model") : *dflt ? dflt : "?";
        add_result(t, path, m, r);
    }
    cJSON_Delete(d);
    return 0;
}

/* Labels: the model name, or RUN:model for the columns of runs that decided the same tests
   under the same model (`table a.json b.json` of two runs of ptx). */
static void label_columns(table *t)
{
    for (int i = 0; i < t->ncol; i++) {
        if (!t->col[i].split || !t->col[i].run) continue;
        const char *b = strrchr(t->col[i].run, '/');
        b = b ? b + 1 : t->col[i].run;
        size_t bl = strlen(b);
        if (bl > 5 && !strcmp(b + bl - 5, ".json")) bl -= 5;
        size_t l = bl + strlen(t->col[i].model) + 2;
        char *s = xmalloc(l);
        snprintf(s, l, "%.*s:%s", (int)bl, b, t->col[i].model);
        free(t->col[i].label);
        t->col[i].label = s;
    }
}

static void csv_field(sbuf *b, const char *s)
{
    if (strpbrk(s, ",\"\n\r")) {
        sb_add(b, "\"");
        for (const char *p = s; *p; p++) sb_add(b, *p == '"' ? "\"\"" : "%c", *p);
        sb_add(b, "\"");
    } else sb_add(b, "%s", s);
}

static void md_field(sbuf *b, const char *s)
{
    for (const char *p = s; *p; p++) sb_add(b, *p == '|' ? "\\|" : *p == '\n' ? " " : "%c", *p);
}

static void tex_field(sbuf *b, const char *s)
{
    for (const char *p = s; *p; p++) {
        switch (*p) {
        case '&': case '%': case '$': case '#': case '_': case '{': case '}':
            sb_add(b, "\\%c", *p); break;
        case '~': sb_add(b, "\\textasciitilde{}"); break;
        case '^': sb_add(b, "\\textasciicircum{}"); break;
        case '\\': sb_add(b, "\\textbackslash{}"); break;
        case '\n': sb_add(b, " "); break;
        default: sb_add(b, "%c", *p);
        }
    }
}

enum { F_CSV, F_MD, F_TEX };

static char *table_text(const table *t, int fmt)
{
    sbuf b = { 0 };
    sb_add(&b, "%s", "");
    char *prov = prov_comment(fmt == F_TEX ? "% " : fmt == F_CSV ? "# " : "");
    if (fmt == F_MD) sb_add(&b, "<!--\n%s-->\n\n", prov);
    else sb_add(&b, "%s", prov);
    free(prov);
    const char *note = "Unknown: the test timed out, or a bound (--unroll) cut the search short";
    if (fmt == F_CSV) {
        sb_add(&b, "test,quantifier");
        for (int c = 0; c < t->ncol; c++) { sb_add(&b, ","); csv_field(&b, t->col[c].label); }
        sb_add(&b, "\n");
        for (int r = 0; r < t->nrow; r++) {
            csv_field(&b, t->row[r].name);
            sb_add(&b, ",");
            csv_field(&b, t->row[r].quant ? t->row[r].quant : "");
            for (int c = 0; c < t->ncol; c++) {
                sb_add(&b, ",");
                csv_field(&b, t->row[r].cell[c] ? t->row[r].cell[c] : "");
            }
            sb_add(&b, "\n");
        }
    } else if (fmt == F_MD) {
        sb_add(&b, "| test | quantifier |");
        for (int c = 0; c < t->ncol; c++) {
            sb_add(&b, " ");
            md_field(&b, t->col[c].label);
            sb_add(&b, " |");
        }
        sb_add(&b, "\n|---|---|");
        for (int c = 0; c < t->ncol; c++) sb_add(&b, "---|");
        sb_add(&b, "\n");
        for (int r = 0; r < t->nrow; r++) {
            sb_add(&b, "| ");
            md_field(&b, t->row[r].name);
            sb_add(&b, " | `%s` |", t->row[r].quant ? t->row[r].quant : "");
            for (int c = 0; c < t->ncol; c++) {
                const char *v = t->row[r].cell[c] ? t->row[r].cell[c] : "";
                sb_add(&b, !strcmp(v, "Unknown") ? " **Unknown** |" : " %s |", v);
            }
            sb_add(&b, "\n");
        }
        if (t->unknown) sb_add(&b, "\n**Unknown**: %s.\n", note + 9);
    } else {
        sb_add(&b, "\\begin{tabular}{ll");
        for (int c = 0; c < t->ncol; c++) sb_add(&b, "l");
        sb_add(&b, "}\n\\toprule\nTest & Quantifier");
        for (int c = 0; c < t->ncol; c++) { sb_add(&b, " & "); tex_field(&b, t->col[c].label); }
        sb_add(&b, " \\\\\n\\midrule\n");
        for (int r = 0; r < t->nrow; r++) {
            tex_field(&b, t->row[r].name);
            const char *q = t->row[r].quant ? t->row[r].quant : "";
            sb_add(&b, " & %s",
                   !strcmp(q, "exists")    ? "$\\exists$"
                   : !strcmp(q, "~exists") ? "$\\neg\\exists$"
                   : !strcmp(q, "forall")  ? "$\\forall$"
                                           : "");
            for (int c = 0; c < t->ncol; c++) {
                const char *v = t->row[r].cell[c] ? t->row[r].cell[c] : "";
                sb_add(&b, " & ");
                if (!strcmp(v, "Unknown")) sb_add(&b, "Unknown$^{\\dagger}$");
                else tex_field(&b, v);
            }
            sb_add(&b, " \\\\\n");
        }
        sb_add(&b, "\\bottomrule\n\\end{tabular}\n");
        if (t->unknown) sb_add(&b, "%% $^{\\dagger}$%s\n", note + 7);
    }
    return b.s;
}

static int ends_with(const char *s, const char *e)
{
    size_t l = strlen(s), k = strlen(e);
    return l >= k && !strcmp(s + l - k, e);
}

/* The format an --out name asks for: F_CSV, F_MD or F_TEX by its extension, F_CSV without
   one, -1 for an extension that names none of them. */
static int out_format(const char *out)
{
    const char *b = strrchr(out, '/'), *dot = strrchr(b ? b : out, '.');
    if (!dot || dot == (b ? b + 1 : out)) return F_CSV;   /* no extension, or a dot file */
    if (ends_with(out, ".md") || ends_with(out, ".markdown")) return F_MD;
    if (ends_with(out, ".tex")) return F_TEX;
    return ends_with(out, ".csv") ? F_CSV : -1;
}

int table_cli(int argc, char **argv)
{
    suite_run_opts ro;
    suite_run_opts_default(&ro);
    model_kind models[MODEL_COUNT];
    int nm = 0, fmt = -1, allow = 0, rc = -1, quiet = 0;
    const char *out = NULL;
    opt_parser p;
    opt_init(&p, "table", table_defs, argc, argv);
    int id;
    static const char *const formats[] = { "csv", "markdown", "latex", NULL };
    while (rc < 0 && (id = opt_next(&p)) != OPT_END) {
        long v;
        double d;
        model_kind k;
        switch (id) {
        case OPT_ERROR: rc = 2; break;
        case OPT_HELP: usage(stdout); rc = 0; break;
        case OPT_QUIET: quiet = 1; break;
        case OPT_VERBOSE: break;
        case T_MODEL:
            if (model_parse(p.arg, &k)) {
                opt_error(&p, "takes %s, found '%s'", model_choices(), p.arg);
                rc = 2;
                break;
            }
            int dup = 0;
            for (int i = 0; i < nm; i++) dup |= models[i] == k;
            if (!dup) models[nm++] = k;
            break;
        case T_FORMAT: if (opt_word(&p, formats, &fmt)) rc = 2; break;
        case T_OUT:
            if (!*p.arg) {
                opt_error(&p, "takes a file name");
                rc = 2;
            } else out = p.arg;
            break;
        case T_JOBS: if (opt_long(&p, 1, 1024, &v)) rc = 2; else ro.jobs = (int)v; break;
        case T_TIMEOUT: if (opt_seconds(&p, 86400, &d)) rc = 2; else ro.timeout_s = d; break;
        case T_UNROLL: if (opt_long(&p, 0, 1000, &v)) rc = 2; else ro.vo.unroll = (int)v; break;
        case T_ALLOW_UNKNOWN: allow = 1; break;
        }
    }
    if (rc < 0 && fmt < 0 && out && out_format(out) < 0) {   /* t.xyz: not CSV unasked */
        const char *b = strrchr(out, '/');
        fprintf(stderr,
                "ptxlitmus table: --out %s: found the extension '%s', expected .csv, .md, "
                ".markdown or .tex (or --format csv|markdown|latex)\n",
                out, strrchr(b ? b : out, '.'));
        rc = 2;
    }
    if (rc < 0 && !p.npos) {
        fprintf(stderr, "ptxlitmus table: no test file or run given\n");
        usage(stderr);
        rc = 2;
    }
    if (rc >= 0) { opt_free(&p); return rc; }
    if (fmt < 0) fmt = out && out_format(out) >= 0 ? out_format(out) : F_CSV;
    if (!nm) models[nm++] = MODEL_PTX;
    table t = { 0 };
    char **files = NULL;
    int nf = 0, bad = 0, unwritten = 0;
    for (int i = 0; i < p.npos; i++) {
        if (ends_with(p.pos[i], ".json")) { if (add_run(&t, p.pos[i])) bad = 1; continue; }
        int loops = 0;
        int k = path_expand(p.pos[i], ".litmus", &files, &nf, &loops);
        if (loops) bad = 1;
        if (k == 0) {
            fprintf(stderr,
                    "%s:1:1: found a directory without .litmus files, expected litmus tests\n",
                    p.pos[i]);
            bad = 1;
        }
    }
    /* the output: never an input, its folder there (base/fileio.h) */
    const char **in = xcalloc((size_t)(p.npos + nf) + 1, sizeof *in);
    int ni = 0;
    for (int i = 0; i < p.npos; i++) if (ends_with(p.pos[i], ".json")) in[ni++] = p.pos[i];
    for (int i = 0; i < nf; i++) in[ni++] = files[i];
    int refused = output_check("table", out, in, ni);
    free(in);
    opt_free(&p);
    if (nf && !refused) {
        suite_job *jobs = xcalloc((size_t)nf * (size_t)nm, sizeof *jobs);
        for (int i = 0; i < nf; i++)
            for (int m = 0; m < nm; m++)
                jobs[i * nm + m] = (suite_job){ .path = files[i], .model = models[m] };
        for (int m = 0; m < nm; m++) prov_add_bundled(models[m]);
        ro.progress = quiet || !isatty(2) ? 0 : 1;
        ro.label = "table";
        suite_run(jobs, nf * nm, &ro);
        for (int m = 0; m < nm; m++)   /* the columns in --model order */
            for (int i = 0; i < nf; i++) {
                suite_job *j = &jobs[i * nm + m];
                add_result(&t, NULL, model_name(j->model), j->res);
                cJSON_Delete(j->res);
                j->res = NULL;
            }
        free(jobs);
    }
    if (!refused) {
        table_build(&t);
        label_columns(&t);
        char *text = table_text(&t, fmt);
        if (report_write_atomic(out ? out : "-", text)) unwritten = 1;
        free(text);
    }
    int unknown = t.unknown, errors = t.errors;
    table_free(&t);
    for (int i = 0; i < nf; i++) free(files[i]);
    free(files);
    if (refused) return 2;
    if (unwritten) return EXIT_NOT_WRITTEN;
    if (unknown && !allow)
        fprintf(
            stderr,
            "ptxlitmus table: %d cell%s Unknown; exit status 1 (--allow-unknown accepts them)\n",
            unknown, unknown == 1 ? "" : "s");
    return bad || errors || (unknown && !allow) ? 1 : 0;
}
