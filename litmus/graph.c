/* litmus/graph.c — execution graphs of witness executions as Graphviz DOT (docs/graphs.md).
 * Nodes are events, one column per thread, nested in CTA / cluster / GPU subgraphs; edges show
 * program order, reads-from, coherence, from-reads, synchronization and Fence-SC order. */
#include "base/alloc.h"
#include "base/fileio.h"
#include "base/sbuf.h"
#include "litmus/graph.h"
#include "litmus/report.h"
#include <errno.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

typedef struct { int64_t *st; char *dot; } gstate;

struct graph_collector {
    verify_result *r;
    gstate *s;
    int n;
};

graph_collector *graph_new(void) { return calloc(1, sizeof(graph_collector)); }

static void clear(graph_collector *g)
{
    for (int i = 0; i < g->n; i++) { free(g->s[i].st); free(g->s[i].dot); }
    free(g->s);
    g->s = NULL;
    g->n = 0;
}

void graph_free(graph_collector *g)
{
    if (!g) return;
    clear(g);
    free(g);
}

void graph_begin(graph_collector *g, verify_result *r)
{
    clear(g);
    g->r = r;
}


static void sb_esc(sbuf *b, const char *s)
{
    for (; *s; s++) {
        if (*s == '"' || *s == '\\') sb_add(b, "\\%c", *s);
        else if (*s == '\n') sb_add(b, "\\n");
        else sb_add(b, "%c", *s);
    }
}

static int holds(enc *e, Z3_model m, Z3_ast a)
{
    if (!a) return 0;
    if (a == e->T) return 1;
    if (a == e->F) return 0;
    Z3_ast v;
    return Z3_model_eval(e->z, m, a, 1, &v) && Z3_get_bool_value(e->z, v) == Z3_L_TRUE;
}

static const char *sym_name(const lit_test *t, int s)
{
    return s >= 0 && s < t->nsym ? t->sym[s].name : "?";
}

static void value_str(const lit_test *t, int64_t v, char *b, size_t n)
{
    int s = lit_addr_sym(t, v);
    if (s >= 0) snprintf(b, n, "&%s", t->sym[s].name);
    else snprintf(b, n, "%lld", (long long)v);
}

/* Edges of relation R (an n x n matrix of truth values) drawn as its transitive reduction when
 * reduce is set. */
static void edges(sbuf *b, const unsigned char *R, int n, int reduce, const char *attrs)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            if (!R[i * n + j] || i == j) continue;
            int skip = 0;
            if (reduce)
                for (int k = 0; k < n && !skip; k++)
                    if (k != i && k != j && R[i * n + k] && R[k * n + j]) skip = 1;
            if (!skip) sb_add(b, "  e%d -> e%d [%s];\n", i, j, attrs);
        }
}

/* One event node: its instruction text and what it did (R x = v, W, RMW, F, barrier). */
static void dot_event(sbuf *b, const candidate *c, int th, int k)
{
    const lit_test *t = c->t;
    int id = c->base[th] + k;
    const mevent *ev = &c->ev[id];
    char v[64] = "", w[64], what[160] = "";
    if (ev->k == EV_R) {
        value_str(t, ev->rval, v, sizeof v);
        snprintf(what, sizeof what, "R %s = %s", sym_name(t, ev->loc), v);
    } else if (ev->k == EV_W) {
        value_str(t, ev->wval, v, sizeof v);
        snprintf(what, sizeof what, "W %s = %s", sym_name(t, ev->loc), v);
    } else if (ev->k == EV_RMW) {
        value_str(t, ev->rval, v, sizeof v);
        value_str(t, ev->wval, w, sizeof w);
        snprintf(what, sizeof what, "RMW %s: %s -> %s", sym_name(t, ev->loc), v, w);
    } else snprintf(what, sizeof what, "%s", ev->k == EV_F ? "F" : "barrier");
    const lit_thread *tt = &t->th[th];
    const char *text = ev->insn >= 0 && ev->insn < tt->nins && tt->ins[ev->insn].text
                           ? tt->ins[ev->insn].text
                           : "";
    sb_add(b, "          e%d [label=\"", id);
    sb_esc(b, text);
    sb_add(b, "\\n%s\"%s];\n", what,
           ev->k == EV_F     ? ", shape=hexagon"
           : ev->k == EV_BAR ? ", shape=octagon"
                             : "");
}

/* The threads as columns, nested in GPU / cluster / CTA subgraphs. */
static void dot_threads(sbuf *b, const candidate *c)
{
    const lit_test *t = c->t;
    int *done = xcalloc((size_t)t->nth + 1, sizeof *done);
    for (int th = 0; th < t->nth; th++) {
        if (done[th]) continue;
        int gpu = t->th[th].gpu;
        sb_add(b, "  subgraph cluster_gpu%d {\n    label=\"GPU %d\"; style=solid; color=black;\n",
               gpu, gpu);
        for (int t2 = th; t2 < t->nth; t2++) {
            if (done[t2] || t->th[t2].gpu != gpu) continue;
            int cl = t->th[t2].cluster, has = t->th[t2].has_cluster;
            if (has)
                sb_add(b,
                       "    subgraph cluster_g%d_cl%d {\n      label=\"cluster %d\"; style=dashed; "
                       "color=blue;\n",
                       gpu, cl < 0 ? -cl : cl, cl);
            for (int t3 = t2; t3 < t->nth; t3++) {
                if (done[t3] || t->th[t3].gpu != gpu || t->th[t3].cluster != cl) continue;
                int cta = t->th[t3].cta;
                sb_add(b,
                       "      subgraph cluster_g%d_cta%d {\n        label=\"CTA %d\"; "
                       "style=dotted; color=darkgreen;\n",
                       gpu, cta, cta);
                for (int t4 = t3; t4 < t->nth; t4++) {
                    if (done[t4] || t->th[t4].gpu != gpu || t->th[t4].cluster != cl ||
                        t->th[t4].cta != cta)
                        continue;
                    done[t4] = 1;
                    sb_add(b, "        subgraph cluster_t%d {\n          label=\"", t4);
                    sb_esc(b, t->th[t4].name);
                    sb_add(b, "\"; style=rounded; color=gray;\n");
                    for (int k = 0; k < c->tr[t4]->nev; k++) dot_event(b, c, t4, k);
                    sb_add(b, "        }\n");
                }
                sb_add(b, "      }\n");
            }
            if (has) sb_add(b, "    }\n");
        }
        sb_add(b, "  }\n");
    }
    free(done);
}

static char *build_dot(const candidate *c, enc *e, Z3_model m, const model_rels *mr)
{
    const lit_test *t = c->t;
    int n = c->n;
    sbuf b = { 0 };
    sb_add(&b, "digraph \"");
    sb_esc(&b, t->name ? t->name : "test");
    sb_add(&b, "\" {\n  label=\"");
    sb_esc(&b, t->name ? t->name : "test");
    sb_add(&b, " (model %s)\"; labelloc=t; rankdir=TB; newrank=true; compound=true;\n",
           model_name(c->kind));
    sb_add(&b, "  node [shape=box, style=rounded, fontname=\"monospace\", fontsize=10];\n  edge "
               "[fontsize=9];\n");
    /* initial writes */
    sb_add(&b,
           "  subgraph cluster_init {\n    label=\"initial state\"; style=dashed; color=gray;\n");
    for (int i = 0; i < c->ninit; i++) {
        char v[64];
        value_str(t, c->ev[i].wval, v, sizeof v);
        sb_add(&b, "    e%d [label=\"W0 %s = %s\", style=\"rounded,dashed\"];\n", i,
               sym_name(t, c->ev[i].loc), v);
    }
    sb_add(&b, "  }\n");
    dot_threads(&b, c);
    /* program order: consecutive events of a thread, heavy weight keeps the columns straight */
    for (int th = 0; th < t->nth; th++)
        for (int k = 0; k + 1 < c->tr[th]->nev; k++)
            sb_add(&b, "  e%d -> e%d [label=\"po\", color=black, weight=100];\n", c->base[th] + k,
                   c->base[th] + k + 1);
    /* inits above the first event of each thread */
    for (int th = 0; th < t->nth; th++)
        if (c->ninit && c->tr[th]->nev)
            sb_add(&b, "  e%d -> e%d [style=invis];\n", c->ninit - 1, c->base[th]);
    unsigned char *R = xmalloc((size_t)n * (size_t)n + 1);
    struct { const rel *r; int reduce; const char *attrs;
    } rels[] = {
        { &mr->rf, 0, "label=\"rf\", color=red, fontcolor=red, constraint=false" },
        { &mr->co, 1, "label=\"co\", color=blue, fontcolor=blue, style=bold, constraint=false" },
        { &mr->fr, 0,
          "label=\"fr\", color=orange, fontcolor=orange, style=dashed, constraint=false" },
        { &mr->sync, 1,
          "label=\"sync\", color=darkgreen, fontcolor=darkgreen, penwidth=2, constraint=false" },
        { &mr->sc, 1,
          "label=\"sc\", color=purple, fontcolor=purple, style=dotted, penwidth=2, "
          "constraint=false" },
    };
    for (size_t k = 0; k < sizeof rels / sizeof rels[0]; k++) {
        if (!rels[k].r->m || rels[k].r->n != n) continue;
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++)
                R[i * n + j] = (unsigned char)holds(e, m, rel_get(rels[k].r, i, j));
        edges(&b, R, n, rels[k].reduce, rels[k].attrs);
    }
    free(R);
    sb_add(&b, "}\n");
    return b.s;
}

void graph_callback(void *ctx, const candidate *c, enc *e, Z3_model m, const model_rels *mr,
                    const int64_t *mem)
{
    graph_collector *g = ctx;
    verify_result *r = g->r;
    if (!r) return;
    /* the final state as verify builds it: registers from the traces, locations from mem */
    int64_t *st = calloc((size_t)(r->nobs ? r->nobs : 1), sizeof *st);
    int *memloc = calloc((size_t)(r->nobs ? r->nobs : 1), sizeof *memloc), nm = 0;
    for (int i = 0; i < r->nobs; i++) {
        const observable *o = &r->obs[i];
        if (o->k == OBS_REG) { st[i] = c->tr[o->thread]->regs[o->reg]; continue; }
        int k = -1;
        for (int q = 0; q < nm; q++) if (memloc[q] == o->loc) k = q;
        if (k < 0) { k = nm; memloc[nm++] = o->loc; }
        st[i] = mem[k];
    }
    free(memloc);
    for (int i = 0; i < g->n; i++)
        if (!memcmp(g->s[i].st, st, (size_t)r->nobs * sizeof *st)) { free(st); return; }
    g->s = realloc(g->s, (size_t)(g->n + 1) * sizeof *g->s);
    g->s[g->n].st = st;
    g->s[g->n].dot = build_dot(c, e, m, mr);
    g->n++;
}

char *graph_witness_dot(graph_collector *g, const verify_result *r)
{
    if (!r->ok || !r->nstates) return NULL;
    int pick = -1;
    for (int s = 0; s < r->nstates && pick < 0; s++) {
        int h = r->holds[s];
        if ((r->quant == COND_EXISTS && h) || (r->quant == COND_NOT_EXISTS && h) ||
            (r->quant == COND_FORALL && !h))
            pick = s;
    }
    if (pick < 0) pick = 0;
    const int64_t *want = &r->states[(size_t)pick * (size_t)r->nobs];
    for (int i = 0; i < g->n; i++)
        if (!memcmp(g->s[i].st, want, (size_t)r->nobs * sizeof *want)) {
            const char *tag =
                pick >= 0 && ((r->quant == COND_FORALL) ? !r->holds[pick] : r->holds[pick])
                    ? (r->quant == COND_EXISTS ? "satisfies the condition"
                                               : "violates the condition")
                    : "a representative allowed execution";
            sbuf b = { 0 };
            sb_add(&b, "// witness: %s; final state", tag);
            char v[64];
            for (int k = 0; k < r->nobs; k++) {
                verify_value_str(r, want[k], v, sizeof v);
                sb_add(&b, " %s=%s;", r->obs[k].name, v);
            }
            sb_add(&b, "\n%s", g->s[i].dot);
            return b.s;
        }
    return g->n ? strdup(g->s[0].dot) : NULL;
}

int graph_have_dot(void)
{
    const char *p = getenv("PATH");
    if (!p) return 0;
    char *path = strdup(p), *save = NULL;
    int found = 0;
    for (char *d = strtok_r(path, ":", &save); d && !found; d = strtok_r(NULL, ":", &save)) {
        size_t l = strlen(d) + 8;
        char *f = malloc(l);
        snprintf(f, l, "%s/dot", *d ? d : ".");
        found = access(f, X_OK) == 0;
        free(f);
    }
    free(path);
    return found;
}

int graph_write(const char *dir, const char *test_file, const char *dot)
{
    if (mkdir(dir, 0777) && errno != EEXIST) {
        fprintf(stderr, "ptxlitmus: cannot create %s: %s\n", dir, strerror(errno));
        return -1;
    }
    const char *base = strrchr(test_file, '/');
    base = base ? base + 1 : test_file;
    size_t bl = strlen(base);
    if (bl > 7 && !strcmp(base + bl - 7, ".litmus")) bl -= 7;
    size_t l = strlen(dir) + bl + 16;
    char *dp = xmalloc(l), *sp = xmalloc(l);
    snprintf(dp, l, "%s/%.*s.dot", dir, (int)bl, base);
    snprintf(sp, l, "%s/%.*s.svg", dir, (int)bl, base);
    int rc = report_write_atomic(dp, dot);
    atomic_temp t;
    if (!rc && graph_have_dot()) {
        if (atomic_temp_create(&t, sp)) {
            fprintf(stderr, "ptxlitmus: cannot write %s: %s\n", sp, fileio_error(errno));
            rc = -1;
        } else {
            char *args[] = { "dot", "-Tsvg", "-o", t.tmp, dp, NULL };
            pid_t pid;
            int st = 0;
            if (posix_spawnp(&pid, "dot", NULL, NULL, args, environ) == 0 &&
                waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0) {
                if (atomic_temp_commit(&t)) {
                    fprintf(stderr, "ptxlitmus: cannot write %s: %s\n", sp, fileio_error(errno));
                    rc = -1;
                }
            } else {
                fprintf(stderr, "ptxlitmus: dot failed on %s, no SVG written\n", dp);
                atomic_temp_discard(&t);
                rc = -1;
            }
        }
    }
    free(dp); free(sp);
    return rc;
}
