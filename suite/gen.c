/* suite/gen.c — `ptxlitmus gen`: generated families of classic litmus shapes across
 * orderings, scopes, fences and placements, decided by the verifier (forked worker pool),
 * checked for monotonicity, and written with a suite manifest (docs/suites.md). */
#include "base/alloc.h"
#include "base/fileio.h"
#include "base/opts.h"
#include "base/sbuf.h"
#include "suite/suite.h"
#include "base/version.h"
#include "suite/suite.h"
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Operations: "W x 1" store, "R x r0" load, "X x r0 1" atom.exch, "A x r0 1" atom.add. */
typedef struct {
    const char *name;
    int nth;
    const char *ops[4][3];
    const char *cond;
    const char *doc;
} shape;

static const shape shapes[] = {
    { "MP",
      2,
      { { "W x 1", "W y 1" }, { "R y r0", "R x r1" } },
      "exists (P1:r0 == 1 /\\ P1:r1 == 0)",
      "message passing" },
    { "SB",
      2,
      { { "W x 1", "R y r0" }, { "W y 1", "R x r0" } },
      "exists (P0:r0 == 0 /\\ P1:r0 == 0)",
      "store buffering" },
    { "LB",
      2,
      { { "R x r0", "W y 1" }, { "R y r0", "W x 1" } },
      "exists (P0:r0 == 1 /\\ P1:r0 == 1)",
      "load buffering" },
    { "IRIW",
      4,
      { { "W x 1" }, { "W y 1" }, { "R x r0", "R y r1" }, { "R y r0", "R x r1" } },
      "exists (P2:r0 == 1 /\\ P2:r1 == 0 /\\ P3:r0 == 1 /\\ P3:r1 == 0)",
      "independent reads of independent writes" },
    { "WRC",
      3,
      { { "W x 1" }, { "R x r0", "W y 1" }, { "R y r0", "R x r1" } },
      "exists (P1:r0 == 1 /\\ P2:r0 == 1 /\\ P2:r1 == 0)",
      "write-to-read causality" },
    { "ISA2",
      3,
      { { "W x 1", "W y 1" }, { "R y r0", "W z 1" }, { "R z r0", "R x r1" } },
      "exists (P1:r0 == 1 /\\ P2:r0 == 1 /\\ P2:r1 == 0)",
      "ISA2 (transitive message passing)" },
    { "2+2W",
      2,
      { { "W x 1", "W y 2" }, { "W y 1", "W x 2" } },
      "exists (x == 1 /\\ y == 1)",
      "two writes each, coherence cycle" },
    { "R",
      2,
      { { "W x 1", "W y 1" }, { "W y 2", "R x r0" } },
      "exists (y == 2 /\\ P1:r0 == 0)",
      "R shape" },
    { "S",
      2,
      { { "W x 2", "W y 1" }, { "R y r0", "W x 1" } },
      "exists (x == 2 /\\ P1:r0 == 1)",
      "S shape" },
    { "RWC",
      3,
      { { "W x 1" }, { "R x r0", "R y r1" }, { "W y 1", "R x r0" } },
      "exists (P1:r0 == 1 /\\ P1:r1 == 0 /\\ P2:r0 == 0)",
      "read-to-write causality" },
    { "WRW+2W",
      3,
      { { "W x 2" }, { "R x r0", "W y 1" }, { "W y 2", "W x 1" } },
      "exists (P1:r0 == 2 /\\ x == 2 /\\ y == 2)",
      "WRW+2W" },
    { "CoRR",
      2,
      { { "W x 1" }, { "R x r0", "R x r1" } },
      "exists (P1:r0 == 1 /\\ P1:r1 == 0)",
      "coherence of read-read" },
    { "CoWR",
      2,
      { { "W x 1", "R x r0" }, { "W x 2" } },
      "exists (P0:r0 == 2 /\\ x == 1)",
      "coherence of write-read" },
    { "CoRW",
      2,
      { { "R x r0", "W x 1" }, { "W x 2" } },
      "exists (P0:r0 == 2 /\\ x == 2)",
      "coherence of read-write" },
    { "CoWW",
      2,
      { { "W x 1", "W x 2" }, { "R x r0", "R x r1" } },
      "exists (P1:r0 == 2 /\\ P1:r1 == 1)",
      "coherence of write-write" },
    { "MP+rmw",
      2,
      { { "W x 1", "X y r9 1" }, { "A y r0 0", "R x r1" } },
      "exists (P1:r0 == 1 /\\ P1:r1 == 0)",
      "message passing, flag by RMW" },
    { "SB+rmw",
      2,
      { { "X x r9 1", "R y r0" }, { "X y r9 1", "R x r0" } },
      "exists (P0:r0 == 0 /\\ P1:r0 == 0)",
      "store buffering, stores by atom.exch" },
    { "LB+rmw",
      2,
      { { "A x r0 0", "X y r9 1" }, { "A y r0 0", "X x r9 1" } },
      "exists (P0:r0 == 1 /\\ P1:r0 == 1)",
      "load buffering with RMWs" },
    { "RMW-atomicity",
      2,
      { { "A x r0 1" }, { "A x r0 1" } },
      "exists (P0:r0 == 0 /\\ P1:r0 == 0)",
      "two atom.add on one location" },
};
#define NSHAPES ((int)(sizeof shapes / sizeof shapes[0]))

enum { O_WEAK, O_VOL, O_RLX, O_RA };              /* orderings */
enum { F_NONE, F_AR, F_SC };                       /* fences */
enum { P_CTA, P_CLU, P_GPU, P_SYS }; /* same CTA, same cluster, other cluster, other GPU */
static const char *scope_names[] = { "", "cta", "cluster", "gpu", "sys" };
static const char *ord_names[] = { "weak", "volatile", "relaxed", "acqrel" };
static const char *fence_names[] = { "nofence", "fence.acq_rel", "fence.sc" };
static const char *place_names[] = { "same-cta", "same-cluster", "other-cluster", "other-gpu" };

typedef struct { int shape, ord, oscope, fence, fscope, place; } variant;

static int has_rmw(const shape *s)
{
    for (int t = 0; t < s->nth; t++)
        for (int k = 0; k < 3 && s->ops[t][k]; k++)
            if (s->ops[t][k][0] == 'X' || s->ops[t][k][0] == 'A') return 1;
    return 0;
}

static int has_pair(const shape *s)
{
    for (int t = 0; t < s->nth; t++) if (s->ops[t][1]) return 1;
    return 0;
}

static void vname(const variant *v, char *b, size_t n)
{
    char o[32], f[32];
    if (v->ord == O_WEAK || v->ord == O_VOL) snprintf(o, sizeof o, "%s", ord_names[v->ord]);
    else snprintf(o, sizeof o, "%s.%s", ord_names[v->ord], scope_names[v->oscope]);
    if (v->fence == F_NONE) snprintf(f, sizeof f, "nofence");
    else snprintf(f, sizeof f, "%s.%s", fence_names[v->fence], scope_names[v->fscope]);
    snprintf(b, n, "%s+%s+%s+%s", shapes[v->shape].name, o, f, place_names[v->place]);
}


static void insn(const variant *v, const char *op, char *out, size_t n)
{
    char loc[8] = "", a[8] = "", c[8] = "";
    const char *sc = scope_names[v->oscope];
    int k = op[0];
    if (k == 'W' || k == 'R') sscanf(op + 2, "%7s %7s", loc, a);
    else sscanf(op + 2, "%7s %7s %7s", loc, a, c);
    const char *aop = k == 'A' ? "add" : "exch";
    switch (v->ord) {
    case O_WEAK:
        if (k == 'W') snprintf(out, n, "st.weak %s, %s", loc, a);
        else if (k == 'R') snprintf(out, n, "ld.weak %s, %s", a, loc);
        else snprintf(out, n, "atom.relaxed.gpu.%s %s, %s, %s", aop, a, loc, c); /* not generated */
        break;
    case O_VOL:
        if (k == 'W') snprintf(out, n, "st.volatile %s, %s", loc, a);
        else if (k == 'R') snprintf(out, n, "ld.volatile %s, %s", a, loc);
        else snprintf(out, n, "atom.relaxed.sys.%s %s, %s, %s", aop, a, loc, c);
        break;
    case O_RLX:
        if (k == 'W') snprintf(out, n, "st.relaxed.%s %s, %s", sc, loc, a);
        else if (k == 'R') snprintf(out, n, "ld.relaxed.%s %s, %s", sc, a, loc);
        else snprintf(out, n, "atom.relaxed.%s.%s %s, %s, %s", sc, aop, a, loc, c);
        break;
    default:
        if (k == 'W') snprintf(out, n, "st.release.%s %s, %s", sc, loc, a);
        else if (k == 'R') snprintf(out, n, "ld.acquire.%s %s, %s", sc, a, loc);
        else snprintf(out, n, "atom.acq_rel.%s.%s %s, %s, %s", sc, aop, a, loc, c);
    }
}

static char *test_text(const variant *v, const char *name)
{
    const shape *s = &shapes[v->shape];
    char cells[4][8][96];
    int rows = 0;
    for (int t = 0; t < s->nth; t++) {
        int r = 0;
        for (int k = 0; k < 3 && s->ops[t][k]; k++) {
            if (k && v->fence != F_NONE)
                snprintf(cells[t][r++], 96, "%s.%s", fence_names[v->fence], scope_names[v->fscope]);
            insn(v, s->ops[t][k], cells[t][r++], 96);
        }
        for (int q = r; q < 8; q++) cells[t][q][0] = 0;
        if (r > rows) rows = r;
    }
    char head[4][64];
    int w[4];
    for (int t = 0; t < s->nth; t++) {
        switch (v->place) {
        case P_CTA: snprintf(head[t], 64, "P%d@cta 0,gpu 0", t); break;
        case P_CLU: snprintf(head[t], 64, "P%d@cta %d,cluster 0,gpu 0", t, t); break;
        case P_GPU: snprintf(head[t], 64, "P%d@cta %d,gpu 0", t, t); break;
        default: snprintf(head[t], 64, "P%d@cta 0,gpu %d", t, t); break;
        }
        w[t] = (int)strlen(head[t]);
        for (int r = 0; r < rows; r++)
            if ((int)strlen(cells[t][r]) > w[t]) w[t] = (int)strlen(cells[t][r]);
    }
    sbuf b = { 0 };
    char o[40], f[40];
    if (v->ord == O_WEAK || v->ord == O_VOL) snprintf(o, sizeof o, "%s", ord_names[v->ord]);
    else snprintf(o, sizeof o, "%s.%s", ord_names[v->ord], scope_names[v->oscope]);
    if (v->fence == F_NONE) snprintf(f, sizeof f, "none");
    else snprintf(f, sizeof f, "%s.%s", fence_names[v->fence], scope_names[v->fscope]);
    sb_add(&b,
           "PTX %s\n\"Generated by ptxlitmus gen: %s; ordering %s, fences %s, placement %s.\"\n{\n",
           name, s->doc, o, f, place_names[v->place]);
    int seen[26] = { 0 };
    for (int t = 0; t < s->nth; t++)
        for (int k = 0; k < 3 && s->ops[t][k]; k++) seen[s->ops[t][k][2] - 'a'] = 1;
    for (int l = 0; l < 26; l++) if (seen[l]) sb_add(&b, "%c=0; ", 'a' + l);
    b.s[b.n - 1] = '\n';
    sb_add(&b, "}\n");
    for (int r = -1; r < rows; r++) {
        for (int t = 0; t < s->nth; t++)
            sb_add(&b, " %-*s %s", w[t], r < 0 ? head[t] : cells[t][r],
                   t + 1 < s->nth ? "|" : ";\n");
    }
    sb_add(&b, "%s\n", s->cond);
    return b.s;
}

/* ---------- writing files ---------- */

static int write_file(const char *path, const char *text)
{
    if (write_file_atomic(path, text, strlen(text))) {
        fprintf(stderr, "ptxlitmus gen: cannot write %s: %s\n", path, fileio_error(errno));
        return -1;
    }
    return 0;
}

/* ---------- monotonicity ---------- */

typedef struct { char **s; int n; } stset;

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static stset states_of(const cJSON *res)
{
    stset S = { 0 };
    const cJSON *st = cJSON_GetObjectItemCaseSensitive(res, "states"), *x;
    cJSON_ArrayForEach(x, st)
    {
        S.s = xrealloc(S.s, (size_t)(S.n + 1) * sizeof *S.s);
        S.s[S.n++] = suite_state_text(x);
    }
    if (S.n) qsort(S.s, (size_t)S.n, sizeof *S.s, cmp_str);
    return S;
}

static const char *not_subset(const stset *a, const stset *b)   /* first of a missing from b */
{
    for (int i = 0; i < a->n; i++)
        if (!bsearch(&a->s[i], b->s, (size_t)b->n, sizeof *b->s, cmp_str)) return a->s[i];
    return NULL;
}

static int vkey(const variant *v)
{
    return ((((v->shape * 4 + v->ord) * 5 + v->oscope) * 3 + v->fence) * 5 + v->fscope) * 4 +
           v->place;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: ptxlitmus gen --out DIR [--shapes LIST] [--max-threads N] [--jobs N] "
               "[--timeout S] [--models LIST] [-q]\n"
               "  writes litmus tests of classic shapes across orderings (weak, volatile, "
               "relaxed.S, acqrel.S),\n"
               "  fences (none, fence.acq_rel.S, fence.sc.S between the accesses of each thread) "
               "and placements\n"
               "  (same CTA, same cluster, other cluster, other GPU), decides them, checks "
               "monotonicity and\n"
               "  writes DIR/manifest.yaml with the verdicts (docs/suites.md)\n"
               "  --shapes LIST       comma-separated shape names (default: all): ");
    for (int i = 0; i < NSHAPES; i++)
        fprintf(f, "%s%s", shapes[i].name, i + 1 < NSHAPES ? "," : "\n");
    fprintf(f, "  --max-threads N     skip shapes with more than N threads (default 4)\n"
               "  --models LIST       models to record, comma-separated (default ptx); ptx-v7.5 "
               "and ptx-v6.0 are\n"
               "                      recorded only for tests without clusters\n"
               "  --fence-orders LIST orderings combined with fences (default weak,relaxed)\n");
}

enum { G_OUT = 1, G_SHAPES, G_MODELS, G_FENCES, G_THREADS, G_JOBS, G_TIMEOUT };
static const opt_def gen_defs[] = {
    OPT_COMMON,
    { "out", 'o', G_OUT | OPT_ONCE, "a directory", NULL },
    { "shapes", 0, G_SHAPES, "a comma-separated list of shapes", NULL },
    { "models", 0, G_MODELS, "a comma-separated list of models", NULL },
    { "fence-orders", 0, G_FENCES, "a comma-separated list of orderings", NULL },
    { "max-threads", 0, G_THREADS, "a whole number", NULL },
    { "jobs", 'j', G_JOBS, "a whole number", "j" },
    { "timeout", 0, G_TIMEOUT, "a number of seconds", "timeout" },
    { NULL, 0, 0, NULL, NULL },
};

/* The options of `gen`, and the lists they name. */
typedef struct {
    const char *out, *shapelist, *models_s, *fence_orders;
    int maxth;
    suite_run_opts ro;
    int want[NSHAPES];          /* shapes asked for */
    model_kind models[3]; int nmodels;
    int fo[4];                  /* orderings that get fence variants */
} gen_opts;

/* The command line; -1 to go on, else the exit status. */
static int gen_options(int argc, char **argv, gen_opts *o)
{
    memset(o, 0, sizeof *o);
    o->models_s = "ptx";
    o->fence_orders = "weak,relaxed";
    o->maxth = 4;
    suite_run_opts_default(&o->ro);
    opt_parser p;
    opt_init(&p, "gen", gen_defs, argc, argv);
    int id, rc = -1;
    while (rc < 0 && (id = opt_next(&p)) != OPT_END) {
        long v;
        double d;
        switch (id) {
        case OPT_ERROR: rc = 2; break;
        case OPT_HELP: usage(stdout); rc = 0; break;
        case OPT_QUIET: case OPT_VERBOSE: break;
        case G_OUT: o->out = p.arg; break;
        case G_SHAPES: o->shapelist = p.arg; break;
        case G_MODELS: o->models_s = p.arg; break;
        case G_FENCES: o->fence_orders = p.arg; break;
        case G_THREADS: if (opt_long(&p, 1, 100000, &v)) rc = 2; else o->maxth = (int)v; break;
        case G_JOBS: if (opt_long(&p, 1, 1024, &v)) rc = 2; else o->ro.jobs = (int)v; break;
        case G_TIMEOUT: if (opt_seconds(&p, 86400, &d)) rc = 2; else o->ro.timeout_s = d; break;
        }
    }
    if (rc < 0 && p.npos) {
        fprintf(stderr, "ptxlitmus gen: found '%s', expected an option (gen reads no files)\n",
                p.pos[0]);
        usage(stderr);
        rc = 2;
    }
    opt_free(&p);
    if (rc >= 0) return rc;
    if (!o->out) {
        fprintf(stderr, "ptxlitmus gen: --out DIR is required\n");
        usage(stderr);
        return 2;
    }
    if (output_check_dir("gen", o->out, NULL, 0)) return 2;
    return -1;
}

/* --shapes, --models and --fence-orders: comma-separated words into o's sets; 0 or 2. */
static int gen_lists(gen_opts *o)
{
    const char *lists[3] = { o->shapelist ? o->shapelist : "", o->models_s, o->fence_orders };
    for (int s = 0; s < NSHAPES; s++) o->want[s] = !o->shapelist;
    for (int which = 0; which < 3; which++) {
        char *l = xstrdup(lists[which]), *save = NULL;
        for (char *tok = strtok_r(l, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
            int hit = 0;
            if (which == 0)
                for (int s = 0; s < NSHAPES; s++) {
                    if (!strcmp(shapes[s].name, tok)) o->want[s] = hit = 1;
                }
            else if (which == 1)
                hit = o->nmodels < 3 && !model_parse(tok, &o->models[o->nmodels]) && ++o->nmodels;
            else
                for (int k = 0; k < 4; k++) { if (!strcmp(tok, ord_names[k])) o->fo[k] = hit = 1; }
            if (hit) continue;
            if (which == 0)
                fprintf(stderr, "ptxlitmus gen: unknown shape '%s' (see --help)\n", tok);
            else if (which == 1)
                fprintf(stderr,
                        "ptxlitmus gen: --models takes ptx, ptx-v7.5, ptx-v6.0, found '%s'\n", tok);
            else
                fprintf(stderr,
                        "ptxlitmus gen: --fence-orders takes weak, volatile, relaxed, acqrel, "
                        "found '%s'\n",
                        tok);
            free(l);
            return 2;
        }
        free(l);
    }
    return 0;
}

/* Every variant: shape x ordering x scope x fence x fence scope x placement. */
static variant *gen_variants(const gen_opts *o, int *nv)
{
    variant *vs = NULL;
    *nv = 0;
    for (int s = 0; s < NSHAPES; s++) {
        if (!o->want[s] || shapes[s].nth > o->maxth) continue;
        int rmw = has_rmw(&shapes[s]), pair = has_pair(&shapes[s]);
        for (int ord = 0; ord < 4; ord++)
            for (int os = 1; os <= 4; os++) {
                if (((ord == O_WEAK || ord == O_VOL) && os > 1) || (ord == O_WEAK && rmw)) continue;
                for (int f = 0; f < 3; f++)
                    for (int fs = 1; fs <= 4; fs++) {
                        if ((f == F_NONE && fs > 1) || (f != F_NONE && (!pair || !o->fo[ord])))
                            continue;
                        for (int p = 0; p < 4; p++) {
                            vs = xrealloc(vs, (size_t)(*nv + 1) * sizeof *vs);
                            vs[(*nv)++] = (variant){ s,
                                                     ord,
                                                     (ord == O_WEAK || ord == O_VOL) ? 0 : os,
                                                     f,
                                                     f == F_NONE ? 0 : fs,
                                                     p };
                        }
                    }
            }
    }
    return vs;
}

/* The variants one step stronger than v (st[], with the reason; eq: as strong, both ways). */
static int stronger_variants(variant v, variant st[8], const char *why[8], int eq[8])
{
    int ns = 0;
    memset(eq, 0, 8 * sizeof *eq);
#define STRONGER(field_change, reason) \
    do {                               \
        st[ns] = v;                    \
        field_change;                  \
        why[ns++] = reason;            \
    } while (0)
    if (v.ord == O_WEAK) {
        STRONGER((st[ns].ord = O_RLX, st[ns].oscope = 1), "weak <= relaxed.cta");
        STRONGER(st[ns].ord = O_VOL, "weak <= volatile");
    }
    if (v.ord == O_VOL) {
        eq[ns] = 1;
        STRONGER((st[ns].ord = O_RLX, st[ns].oscope = 4), "volatile == relaxed.sys");
    }
    if ((v.ord == O_RLX || v.ord == O_RA) && v.oscope < 4)
        STRONGER(st[ns].oscope++, "widening the scope of the accesses");
    if (v.ord == O_RLX) STRONGER(st[ns].ord = O_RA, "relaxed <= release/acquire (acq_rel RMW)");
    if (v.fence == F_NONE)
        STRONGER((st[ns].fence = F_AR, st[ns].fscope = 1), "no fence <= fence.acq_rel.cta");
    if (v.fence != F_NONE && v.fscope < 4)
        STRONGER(st[ns].fscope++, "widening the scope of the fences");
    if (v.fence == F_AR) STRONGER(st[ns].fence = F_SC, "fence.acq_rel <= fence.sc");
    if (v.place > P_CTA) STRONGER(st[ns].place--, "placing the threads closer");
#undef STRONGER
    return ns;
}

/* Monotonicity under one model: a stronger variant's reachable states are a subset of the
 * weaker one's.  Returns the violations (printed), adds the pairs checked to *checked. */
static long gen_monotone(const variant *vs, int nv, char **names, const suite_job *jobs,
                         const int *jv, int nj, model_kind model, const int *index, long *checked)
{
    long violations = 0;
    int *res_of = xmalloc((size_t)nv * sizeof *res_of + 1);
    for (int i = 0; i < nv; i++) res_of[i] = -1;
    for (int j = 0; j < nj; j++)
        if (jobs[j].model == model && !strcmp(suite_str(jobs[j].res, "status"), "ok"))
            res_of[jv[j]] = j;
    stset *S = xcalloc((size_t)nv + 1, sizeof *S);
    for (int i = 0; i < nv; i++) if (res_of[i] >= 0) S[i] = states_of(jobs[res_of[i]].res);
    for (int i = 0; i < nv; i++) {
        if (res_of[i] < 0) continue;
        variant st[8];
        const char *why[8];
        int eq[8], ns = stronger_variants(vs[i], st, why, eq);
        for (int k = 0; k < ns; k++) {
            int j = index[vkey(&st[k])];
            if (j < 0 || res_of[j] < 0) continue;
            (*checked)++;
            const char *miss = not_subset(&S[j], &S[i]);
            if (!miss && eq[k]) miss = not_subset(&S[i], &S[j]);
            if (!miss) continue;
            violations++;
            fprintf(stderr,
                    "gen: monotonicity violated under %s (%s): %s and %s differ on state %s\n",
                    model_name(model), why[k], names[j], names[i], miss);
        }
    }
    for (int i = 0; i < nv; i++) { for (int k = 0; k < S[i].n; k++) free(S[i].s[k]); free(S[i].s); }
    free(S);
    free(res_of);
    return violations;
}

/* The jobs: every variant under every model that has its scopes (cluster needs ptx). */
static suite_job *gen_jobs(const gen_opts *o, const variant *vs, int nv, char **paths, int **jv,
                           int *nj)
{
    suite_job *jobs = NULL;
    *jv = NULL;
    *nj = 0;
    for (int i = 0; i < nv; i++)
        for (int m = 0; m < o->nmodels; m++) {
            int cl = vs[i].place == P_CLU || vs[i].oscope == 2 || vs[i].fscope == 2;
            if (cl && o->models[m] != MODEL_PTX) continue;
            jobs = xrealloc(jobs, (size_t)(*nj + 1) * sizeof *jobs);
            *jv = xrealloc(*jv, (size_t)(*nj + 1) * sizeof **jv);
            jobs[*nj] = (suite_job){ .path = paths[i], .model = o->models[m] };
            (*jv)[(*nj)++] = i;
        }
    return jobs;
}

/* gen: write the family, decide it, write its manifest, check monotonicity. */
int gen_cli(int argc, char **argv)
{
    gen_opts o;
    int rc = gen_options(argc, argv, &o), nv, nj, *jv, werr = 0, errors = 0;
    if (rc >= 0) return rc;
    if (gen_lists(&o)) return 2;
    if (mkdir(o.out, 0777) && errno != EEXIST) {
        fprintf(stderr, "ptxlitmus gen: cannot create %s: %s\n", o.out, strerror(errno));
        return 2;
    }
    variant *vs = gen_variants(&o, &nv);
    char **names = xcalloc((size_t)nv + 1, sizeof *names),
         **paths = xcalloc((size_t)nv + 1, sizeof *paths);
    for (int i = 0; i < nv; i++) {
        char nm[160];
        vname(&vs[i], nm, sizeof nm);
        names[i] = xstrdup(nm);
        size_t l = strlen(o.out) + strlen(nm) + 16;
        paths[i] = xmalloc(l);
        snprintf(paths[i], l, "%s/%s.litmus", o.out, nm);
        char *text = test_text(&vs[i], nm);
        if (write_file(paths[i], text)) werr = 1;
        free(text);
    }
    if (werr) {
        fprintf(stderr, "ptxlitmus gen: could not write every test, stopping\n");
        return 1;
    }
    suite_job *jobs = gen_jobs(&o, vs, nv, paths, &jv, &nj);
    o.ro.progress = isatty(2) ? 1 : 2;
    o.ro.label = "gen";
    suite_run(jobs, nj, &o.ro);
    suite_manifest man = { 0 };
    man.name = xstrdup("gen");
    man.description = xstrdup("Generated by ptxlitmus gen: classic shapes x orderings x scopes x "
                              "fences x placements (docs/suites.md)");
    man.t = xcalloc((size_t)nv + 1, sizeof *man.t);
    man.nt = nv;
    for (int i = 0; i < nv; i++) {
        size_t l = strlen(names[i]) + 8;
        man.t[i].file = xmalloc(l);
        snprintf(man.t[i].file, l, "%s.litmus", names[i]);
    }
    for (int j = 0; j < nj; j++) {
        if (strcmp(suite_str(jobs[j].res, "status"), "ok")) {
            fprintf(stderr, "%s\n", suite_str(jobs[j].res, "error"));
            errors++;
            continue;
        }
        suite_expect_set(&man.t[jv[j]], jobs[j].model,
                         !strcmp(suite_str(jobs[j].res, "verdict"), "Ok"));
    }
    int maxkey = vkey(&(variant){ NSHAPES, 0, 0, 0, 0, 0 }),
        *index = xmalloc((size_t)maxkey * sizeof *index);
    for (int k = 0; k < maxkey; k++) index[k] = -1;
    for (int i = 0; i < nv; i++) index[vkey(&vs[i])] = i;
    long checked = 0, violations = 0;
    for (int m = 0; m < o.nmodels; m++)
        violations += gen_monotone(vs, nv, names, jobs, jv, nj, o.models[m], index, &checked);
    char *mtext = suite_manifest_text(&man);
    size_t l = strlen(o.out) + 32;
    char *mpath = xmalloc(l);
    snprintf(mpath, l, "%s/manifest.yaml", o.out);
    if (write_file(mpath, mtext)) werr = 1;
    printf("gen: wrote %d tests and %s (%d jobs, %d errors); monotonicity: %ld pairs checked, %ld "
           "violations\n",
           nv, mpath, nj, errors, checked, violations);
    free(mtext); free(mpath);
    suite_manifest_free(&man);
    for (int j = 0; j < nj; j++) cJSON_Delete(jobs[j].res);
    for (int i = 0; i < nv; i++) { free(names[i]); free(paths[i]); }
    free(names); free(paths); free(jobs); free(jv); free(vs); free(index);
    return werr || errors || violations ? 1 : 0;
}
