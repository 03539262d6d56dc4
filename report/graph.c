/* report/graph.c — execution graphs of witness executions as Graphviz DOT (docs/graphs.md).
 * Nodes are events, one column per thread, nested in CTA / cluster / GPU subgraphs; edges show
 * program order, reads-from, coherence, from-reads, synchronization and Fence-SC order. */
#include "base/alloc.h"
#include "base/fileio.h"
#include "base/sbuf.h"
#include "report/graph.h"
#include "report/report.h"
#include "model/execution.h"
#include <errno.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

struct graph_collector {
    verify_result *r;
    char **dot;              /* the executions handed over for the test being verified: the
                                witness, or (--show all / forbidden) every one, in order */
    int ndot;
};

static void drop_dots(graph_collector *g)
{
    for (int i = 0; i < g->ndot; i++) free(g->dot[i]);
    free(g->dot);
    g->dot = NULL;
    g->ndot = 0;
}

graph_collector *graph_new(void) { return xcalloc(1, sizeof(graph_collector)); }

void graph_free(graph_collector *g)
{
    if (!g) return;
    drop_dots(g);
    free(g);
}

void graph_begin(graph_collector *g, verify_result *r)
{
    drop_dots(g);
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

/* Edges of relation R (an n x n table) drawn as its transitive reduction when reduce is set. */
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

/* the bytes an access names, when it is not the whole location */
static void bytes_str(const lit_test *t, const mevent *ev, char *b, size_t n)
{
    if (ev->off == 0 && ev->size == t->sym[ev->loc].size) b[0] = 0;
    else snprintf(b, n, "[%d..%d]", ev->off, ev->off + ev->size - 1);
}

static void event_node(sbuf *b, const mexecution *x, int id)
{
    const lit_test *t = x->t;
    const mevent *ev = &x->ev[id];
    char v[64] = "", by[32] = "", what[200] = "";
    if (ev->k == EV_R || ev->k == EV_W || ev->k == EV_RMW) bytes_str(t, ev, by, sizeof by);
    if (ev->k == EV_R) {
        value_str(t, ev->rval, v, sizeof v);
        snprintf(what, sizeof what, "R %s%s = %s", sym_name(t, ev->loc), by, v);
    } else if (ev->k == EV_W) {
        value_str(t, ev->wval, v, sizeof v);
        snprintf(what, sizeof what, "W %s%s = %s", sym_name(t, ev->loc), by, v);
    } else if (ev->k == EV_RMW) {
        char w[64];
        value_str(t, ev->rval, v, sizeof v);
        value_str(t, ev->wval, w, sizeof w);
        snprintf(what, sizeof what, "RMW %s%s: %s -> %s", sym_name(t, ev->loc), by, v, w);
    } else if (ev->k == EV_F) snprintf(what, sizeof what, "F");
    else snprintf(what, sizeof what, "barrier");
    const lit_thread *th = &t->th[ev->thread];
    const char *text = ev->insn >= 0 && ev->insn < th->nins && th->ins[ev->insn].text
                           ? th->ins[ev->insn].text
                           : "";
    sb_add(b, "          e%d [label=\"", id);
    sb_esc(b, text);
    sb_add(b, "\\n%s\"%s];\n", what,
           ev->k == EV_F     ? ", shape=hexagon"
           : ev->k == EV_BAR ? ", shape=octagon"
                             : "");
}

/* one thread's column */
static void thread_column(sbuf *b, const mexecution *x, int th)
{
    sb_add(b, "        subgraph cluster_t%d {\n          label=\"", th);
    sb_esc(b, x->t->th[th].name);
    sb_add(b, "\"; style=rounded; color=gray;\n");
    for (int i = x->ninit; i < x->n; i++)
        if (x->ev[i].thread == th) event_node(b, x, i);
    sb_add(b, "        }\n");
}

/* threads nested in GPU / cluster / CTA */
static void placement(sbuf *b, const mexecution *x)
{
    const lit_test *t = x->t;
    int *done = xcalloc((size_t)(t->nth ? t->nth : 1), sizeof *done);
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
                    thread_column(b, x, t4);
                }
                sb_add(b, "      }\n");
            }
            if (has) sb_add(b, "    }\n");
        }
        sb_add(b, "  }\n");
    }
    free(done);
}

static char *build_dot(const mexecution *x, const verify_result *r)
{
    const lit_test *t = x->t;
    int n = x->n;
    sbuf b = { 0 };
    sb_add(&b, "// execution: %s; final state", x->note);
    char v[64];
    for (int k = 0; r && k < x->nstate && k < r->nobs; k++) {
        verify_value_str(r, k, x->state[k], v, sizeof v);
        sb_add(&b, " %s=%s;", r->obs[k].name, v);
    }
    sb_add(&b, "\ndigraph \"");
    sb_esc(&b, t->name ? t->name : "test");
    sb_add(&b, "\" {\n  label=\"");
    sb_esc(&b, t->name ? t->name : "test");
    sb_add(&b, " (model %s)\"; labelloc=t; rankdir=TB; newrank=true; compound=true;\n", x->model);
    sb_add(&b, "  node [shape=box, style=rounded, fontname=\"monospace\", fontsize=10];\n  edge "
               "[fontsize=9];\n");
    sb_add(&b,
           "  subgraph cluster_init {\n    label=\"initial state\"; style=dashed; color=gray;\n");
    for (int i = 0; i < x->ninit; i++) {
        char v[64];
        value_str(t, x->ev[i].wval, v, sizeof v);
        sb_add(&b, "    e%d [label=\"W0 %s = %s\", style=\"rounded,dashed\"];\n", i,
               sym_name(t, x->ev[i].loc), v);
    }
    sb_add(&b, "  }\n");
    placement(&b, x);
    /* program order between consecutive events (heavy weight keeps the columns straight), the
       initial writes above each thread's first event */
    const mrelation *po = mexecution_find(x, "po");
    for (int th = 0; th < t->nth; th++) {
        int prev = -1;
        for (int i = x->ninit; i < n; i++) {
            if (x->ev[i].thread != th) continue;
            if (prev >= 0 && (!po || po->m[prev * n + i]))
                sb_add(&b, "  e%d -> e%d [label=\"po\", color=black, weight=100];\n", prev, i);
            else if (prev < 0 && x->ninit)
                sb_add(&b, "  e%d -> e%d [style=invis];\n", x->ninit - 1, i);
            prev = i;
        }
    }
    static const struct { const char *name; int reduce; const char *attrs;
    } style[] = {
        { "rf", 0, "label=\"rf\", color=red, fontcolor=red, constraint=false" },
        { "co", 1, "label=\"co\", color=blue, fontcolor=blue, style=bold, constraint=false" },
        { "fr", 0, "label=\"fr\", color=orange, fontcolor=orange, style=dashed, constraint=false" },
        { "sync", 1,
          "label=\"sync\", color=darkgreen, fontcolor=darkgreen, penwidth=2, constraint=false" },
        { "sc", 1,
          "label=\"sc\", color=purple, fontcolor=purple, style=dotted, penwidth=2, "
          "constraint=false" },
    };
    for (size_t k = 0; k < sizeof style / sizeof style[0]; k++) {
        const mrelation *r = mexecution_find(x, style[k].name);
        if (r) edges(&b, r->m, n, style[k].reduce, style[k].attrs);
    }
    sb_add(&b, "}\n");
    return b.s;
}

void graph_callback(void *ctx, const mexecution *x)
{
    graph_collector *g = ctx;
    g->dot = xrealloc(g->dot, (size_t)(g->ndot + 1) * sizeof *g->dot);
    g->dot[g->ndot++] = build_dot(x, g->r);
}

int graph_count(const graph_collector *g, const verify_result *r) { return r->ok ? g->ndot : 0; }

char *graph_dot(graph_collector *g, const verify_result *r, int i)
{
    if (!r->ok || i < 0 || i >= g->ndot) return NULL;
    return xstrdup(g->dot[i]);
}

/* the DOT file dp drawn by Graphviz dot as the SVG file svg (written whole or not at all) */
static int draw_svg(const char *dp, const char *svg)
{
    atomic_temp t;
    if (atomic_temp_create(&t, svg)) {
        fprintf(stderr, "ptxlitmus: cannot write %s: %s\n", svg, fileio_error(errno));
        return -1;
    }
    char *args[] = { "dot", "-Tsvg", "-o", t.tmp, (char *)dp, NULL };
    pid_t pid;
    int st = 0;
    if (posix_spawnp(&pid, "dot", NULL, NULL, args, environ) == 0 &&
        waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0) {
        if (!atomic_temp_commit(&t)) return 0;
        fprintf(stderr, "ptxlitmus: cannot write %s: %s\n", svg, fileio_error(errno));
        return -1;
    }
    fprintf(stderr, "ptxlitmus: dot failed on %s, no SVG written\n", dp);
    atomic_temp_discard(&t);
    return -1;
}

char *graph_dot_execution(const mexecution *x) { return build_dot(x, NULL); }

int graph_write_file(const char *path, const char *dot)
{
    size_t l = strlen(path);
    if (l < 4 || strcmp(path + l - 4, ".svg")) return report_write_atomic(path, dot);
    /* FILE.svg: the DOT beside it, drawn by dot */
    char *dp = xmalloc(l + 1);
    memcpy(dp, path, l - 4);
    memcpy(dp + l - 4, ".dot", 5);
    int rc = report_write_atomic(dp, dot);
    if (!rc && !graph_have_dot()) {
        fprintf(stderr, "ptxlitmus: no Graphviz dot on PATH, %s not drawn (%s written)\n", path,
                dp);
        rc = -1;
    } else if (!rc) {
        rc = draw_svg(dp, path);
    }
    free(dp);
    return rc;
}

int graph_have_dot(void)
{
    const char *p = getenv("PATH");
    if (!p) return 0;
    char *path = xstrdup(p), *save = NULL;
    int found = 0;
    for (char *d = strtok_r(path, ":", &save); d && !found; d = strtok_r(NULL, ":", &save)) {
        size_t l = strlen(d) + 8;
        char *f = xmalloc(l);
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
    if (!rc && graph_have_dot()) rc = draw_svg(dp, sp);
    free(dp); free(sp);
    return rc;
}
