/* kcheck/witness.c — a finding shown (kcheck/witness.h): the report text, the execution for
 * the pictures, and the extracted litmus test.
 *
 * The extracted test holds, per thread that communicates, its communicating events in program
 * order, each as the instruction's own mnemonic with constant operands: a load into a fresh
 * register, a store of the value it wrote, an atomic with the operands it had, the fences and
 * barriers; the locations named after their buffers, initialised as in the execution; each
 * thread placed in its CTA and cluster.  Its condition is the values the loads read and the
 * final values of the locations written more than once: `verify` finds the outcome allowed
 * when the model allows the execution (tests/cli/t_check.sh checks this for every pair of
 * suites/check). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/alloc.h"
#include "base/sbuf.h"
#include "kcheck/kpc.h"
#include "kcheck/witness.h"
#include "ptx/opcodes.h"

struct kcheck_witness {
    const kcheck_launch *L;
    const kcheck_result *r;
    const kcheck_finding *f;
    int fi;
    kpcs P;
    kcons *C;
    mexecution x;
    const kref *ref;
    char (*sym)[64];     /* per universe symbol: its name */
    char *force;         /* per graph location: shown (awaited: 1) or not (2) */
    uint64_t *dropped;   /* per graph location of an mbarrier: bytes of copies left out */
    uint64_t drop_bytes;
    int *reg;            /* per universe event: the litmus register of a read (-1) */
};

static void thread_desc(const kcheck_result *r, int t, char *b, size_t n)
{
    kx_thread_desc(r->grid, r->block, t, b, n);
}

/* The chunks of a bulk copy that read the latest value and whose copy every later read sees
   show nothing: the extracted test leaves them out (with their locations), keeping one chunk
   per copy, and lowers the expect_tx of the copy's mbarrier by their bytes (w->dropped); each
   4-byte chunk is a path-doubling read of the test. */
static void drop_chunks(kcheck_witness *w)
{
    const kgraph *g = w->f->g;
    w->dropped = xcalloc((size_t)g->nloc + 1, sizeof *w->dropped);
    for (int t = 0; t < g->nth; t++)
        for (int i = 0; i < g->nev[t]; i++) {
            if (w->P.kind[g->ev[t][i].pc] != PTX_K_BULK || g->ev[t][i].kind != KE_R ||
                (g->ev[t][i].flags & KF_ATOM))
                continue;
            int pc = g->ev[t][i].pc, kept = 0, mb = -1, j = i;
            for (; j + 1 < g->nev[t] && g->ev[t][j].pc == pc && g->ev[t][j].kind == KE_R &&
                   !(g->ev[t][j].flags & KF_ATOM);
                 j += 2) {
                const kev *r = &g->ev[t][j], *d = &g->ev[t][j + 1];
                int plain = kref_eq(r->rf, kg_co_max(g, r->loc)) && d->kind == KE_W;
                for (int u = 0; u < g->nth && plain; u++)
                    for (int k = 0; k < g->nev[u] && plain; k++)
                        if (g->ev[u][k].kind == KE_R && g->ev[u][k].loc == d->loc)
                            plain = kref_eq(g->ev[u][k].rf, ((kref){ t, j + 1 }));
                if (plain && (kept || j + 3 < g->nev[t])) {
                    w->force[r->loc] = w->force[d->loc] = 2;
                    w->drop_bytes += r->size;
                } else kept = 1;
            }
            for (int k = j; k < g->nev[t] && g->ev[t][k].pc == pc && mb < 0; k++)
                if (g->ev[t][k].flags & KF_ATOM) mb = g->ev[t][k].loc;
            if (!kept && j > i) {   /* every chunk plain: keep the last */
                w->force[g->ev[t][j - 2].loc] = w->force[g->ev[t][j - 1].loc] = 1;
                w->drop_bytes -= g->ev[t][j - 2].size;
            }
            if (mb >= 0) w->dropped[mb] += w->drop_bytes;
            w->drop_bytes = 0;
            i = j - 1;
        }
}

kcheck_witness *kcheck_witness_new(const kcheck_launch *L, const kcheck_opts *o,
                                   const kcheck_result *r, int finding, char *err, size_t errlen)
{
    kcheck_witness *w = xcalloc(1, sizeof *w);
    w->L = L; w->r = r; w->fi = finding; w->f = &r->f[finding];
    w->P = kx_pcs(L->fn);
    w->C = kcons_new(o->model_file, o->model_text, &w->P, o->bundled, err, errlen);
    kverdict v;
    if (!w->C) { kcheck_witness_free(w); return NULL; }
    /* the locations waiting threads read: shown even if no other thread writes them */
    const kgraph *g = w->f->g;
    w->force = xcalloc((size_t)g->nloc + 1, 1);
    for (int t = 0; t < g->nth; t++)
        for (int i = 0; i < g->nev[t]; i++) {
            const kev *b = &g->ev[t][i];
            for (int j = i - (int)b->gen; b->kind == KE_BLOCK && j < i; j++)
                if (j >= 0 && g->ev[t][j].kind == KE_R) w->force[g->ev[t][j].loc] = 1;
            if (w->P.kind[b->pc] == PTX_K_BULK && b->loc >= 0) w->force[b->loc] = 1;
        }
    drop_chunks(w);
    kcons_force(w->C, w->force);
    if (kcons_check(w->C, w->f->g, &v, err, errlen)) { kcheck_witness_free(w); return NULL; }
    kcons_export(w->C, &w->x, &w->ref);
    w->x.model = o->model_name;
    snprintf(w->x.note, sizeof w->x.note, "finding %d of ptxlitmus check", finding + 1);
    lit_test *t = kcons_test(w->C);
    w->sym = xcalloc((size_t)t->nsym + 1, sizeof *w->sym);
    for (int i = 0; i < w->x.ninit; i++) {
        const kloc *lc = &w->f->g->loc[w->ref[i].i];
        int s = w->x.ev[i].sym;
        kx_loc_name(L->fn, lc->key, lc->size, w->sym[s], sizeof w->sym[s]);
        t->sym[s].name = xstrdup(w->sym[s]);
    }
    for (int u = 0; u < t->nth; u++) {
        char b[96];
        snprintf(b, sizeof b, "P%d", u);
        t->th[u].name = xstrdup(b);
    }
    t->name = (char *)"check";
    w->reg = xmalloc((size_t)(w->x.n + 1) * sizeof *w->reg);
    int *next = xcalloc((size_t)t->nth + 1, sizeof *next);
    for (int i = 0; i < w->x.n; i++)
        w->reg[i] = w->x.ev[i].k == EV_R && i >= w->x.ninit &&
                            w->P.kind[kg_ev(g, w->ref[i])->pc] != PTX_K_BULK
                        ? next[w->x.ev[i].thread]++
                        : -1;
    free(next);
    return w;
}

void kcheck_witness_free(kcheck_witness *w)
{
    if (!w) return;
    if (w->C) {
        lit_test *t = kcons_test(w->C);
        t->name = NULL;
    }
    mexecution_free(&w->x);
    kcons_free(w->C);
    kx_pcs_free(&w->P);
    free(w->sym);
    free(w->reg);
    free(w->force);
    free(w->dropped);
    free(w);
}

const mexecution *kcheck_witness_execution(const kcheck_witness *w) { return &w->x; }

/* ---------------------------------------------------------------- the report */
/* the graph thread of universe thread u */
static int gthread(const kcheck_witness *w, int u)
{
    for (int i = w->x.ninit; i < w->x.n; i++)
        if (w->x.ev[i].thread == u) return w->ref[i].t;
    return -1;
}

static int uindex(const kcheck_witness *w, kref r)
{
    for (int i = 0; i < w->x.n; i++) if (w->ref[i].t == r.t && w->ref[i].i == r.i) return i;
    return -1;
}

static void event_line(const kcheck_witness *w, sbuf *b, int i)
{
    const kgraph *g = w->f->g;
    const kev *e = kg_ev(g, w->ref[i]);
    const mevent *m = &w->x.ev[i];
    char ptx[400], cu[200], td[96];
    kx_where(w->L->fn, e->pc, ptx, sizeof ptx, cu, sizeof cu);
    thread_desc(w->r, w->ref[i].t, td, sizeof td);
    sb_add(b, "    P%d %s  %s", m->thread, td, ptx);
    if (cu[0]) sb_add(b, "  (%s)", cu);
    sb_add(b, "\n       ");
    if (e->kind == KE_R) {
        int src = uindex(w, e->rf);
        sb_add(b, "reads %s = %llu", w->sym[m->sym], (unsigned long long)e->val);
        if (e->rf.t < 0) sb_add(b, " (the initial value)");
        else {
            char wp[400], wc[200];
            kx_where(w->L->fn, kg_ev(g, e->rf)->pc, wp, sizeof wp, wc, sizeof wc);
            sb_add(b, " (written by P%d at %.*s)", w->x.ev[src].thread,
                   (int)(strchr(wp, ' ') ? strchr(wp, ' ') - wp - 1 : (long)strlen(wp)), wp);
        }
    } else if (e->kind == KE_W) sb_add(b, "writes %s = %llu", w->sym[m->sym], (unsigned long long)e->val);
    else if (e->kind == KE_F) sb_add(b, "fence");
    else sb_add(b, "barrier %d, phase %u", e->bar, e->gen);
    sb_add(b, "\n");
}

static int by_stamp(const void *a, const void *b, void *ctx)
{
    const kcheck_witness *w = ctx;
    int x = *(const int *)a, y = *(const int *)b;
    return kg_ev(w->f->g, w->ref[x])->stamp - kg_ev(w->f->g, w->ref[y])->stamp;
}

static const char *kind_text(int k)
{
    static const char *const n[] = { "trap", "CUDA assert (__assertfail)", "fault",
                                     "output differs from expect:", "data race",
                                     "liveness failure (every thread waits forever)",
                                     "deadlock" };
    return n[k];
}

char *kcheck_witness_text(const kcheck_witness *w)
{
    sbuf b = { 0 };
    const kcheck_finding *f = w->f;
    sb_add(&b, "Finding %d: %s (execution %lld)\n", w->fi + 1, kind_text(f->kind),
           (long long)f->uses);
    if (f->thread >= 0 && f->pc >= 0) {
        char ptx[400], cu[200], td[96];
        kx_where(w->L->fn, f->pc, ptx, sizeof ptx, cu, sizeof cu);
        thread_desc(w->r, f->thread, td, sizeof td);
        sb_add(&b, "  %s at %s%s%s\n", td, ptx, cu[0] ? "  CUDA source " : "", cu);
    }
    for (const char *p = f->msg; *p;) {   /* the message, indented */
        size_t l = strcspn(p, "\n");
        sb_add(&b, "  %.*s\n", (int)l, p);
        p += l + (p[l] == '\n');
    }
    int n = w->x.n - w->x.ninit, *ord = xmalloc((size_t)(n + 1) * sizeof *ord);
    for (int i = 0; i < n; i++) ord[i] = w->x.ninit + i;
    qsort_r(ord, (size_t)n, sizeof *ord, by_stamp, (void *)w);
    sb_add(&b, "  The execution: its communicating events in the order they happened\n");
    for (int i = 0; i < n; i++) event_line(w, &b, ord[i]);
    free(ord);
    const kgraph *g = f->g;
    for (int i = 0; i < w->x.ninit; i++) {
        const kloc *L = &g->loc[w->ref[i].i];
        if (L->nco < 1) continue;
        sb_add(&b, "  Coherence of %s: %llu (initial)", w->sym[w->x.ev[i].sym],
               (unsigned long long)L->init);
        for (int k = 0; k < L->nco; k++)
            sb_add(&b, " -> %llu (P%d)", (unsigned long long)kg_ev(g, L->co[k])->val,
                   w->x.ev[uindex(w, L->co[k])].thread);
        sb_add(&b, "\n");
    }
    char *lit = kcheck_witness_litmus(w);
    sb_add(&b, "  The extracted litmus test (`ptxlitmus verify` decides it allowed):\n");
    for (const char *p = lit; *p;) {
        size_t l = strcspn(p, "\n");
        sb_add(&b, "    %.*s\n", (int)l, p);
        p += l + (p[l] == '\n');
    }
    free(lit);
    (void)gthread;
    return b.s;
}

/* ---------------------------------------------------------------- the extracted test */
/* a memory mnemonic with its floating-point type spelled as bits (the values are bits) */
static void bits_type(char *mn)
{
    static const char *const f[] = { ".f16", ".f32", ".f64", ".bf16" },
                             *const bt[] = { ".b16", ".b32", ".b64", ".b16" };
    for (int k = 0; k < 4; k++) {
        char *p = strstr(mn, f[k]);
        if (p && (p[strlen(f[k])] == 0 || p[strlen(f[k])] == '.')) {
            memcpy(p, bt[k], 4);
            if (k == 3) memmove(p + 4, p + 5, strlen(p + 5) + 1);
        }
    }
}

/* an mbarrier wait of the execution: its phase parity and whether it found the phase done */
static int mbar_wait(const kcheck_witness *w, const kev *e, int *parity)
{
    char mn[96];
    kpc_mnemonic(w->P.text[e->pc], mn, sizeof mn);
    if (w->P.kind[e->pc] != PTX_K_MBAR || !strstr(mn, "_wait")) return -1;
    int par = strstr(mn, ".parity") != NULL;
    *parity = par ? (int)(e->opb & 1) : (int)(e->opb >> 63);
    return kx_mbar_done(e->val, e->opb, par);
}

/* an mbarrier operation as a litmus cell (its forms in frontend/litmus_async.c): a wait by its
   phase parity, the others with their operand */
static void mbar_cell(const kcheck_witness *w, int i, const char *mn, const char *s, char *buf,
                      size_t n)
{
    const kev *e = kg_ev(w->f->g, w->ref[i]);
    int parity;
    if (mbar_wait(w, e, &parity) >= 0) {
        char m2[112];
        const char *wt = strstr(mn, "_wait");
        if (strstr(mn, ".parity")) snprintf(m2, sizeof m2, "%s", mn);
        else snprintf(m2, sizeof m2, "%.*s.parity%s", (int)(wt + 5 - mn), mn, wt + 5);
        snprintf(buf, n, "%s %%p%d, [%s], %d", m2, w->reg[i], s, parity);
    } else if (strstr(mn, ".init")) snprintf(buf, n, "%s [%s], %llu", mn, s, (unsigned long long)e->opb);
    else if (e->kind == KE_W) buf[0] = 0;   /* an arrive's write: its read's cell */
    else if (!strncmp(mn, "cp.", 3) || strstr(mn, ".inval")) snprintf(buf, n, "%s [%s]", mn, s);
    else if (strstr(mn, ".arrive"))
        snprintf(buf, n, strstr(mn, ".expect_tx") ? "%s %%r%d, [%s], %llu" : "%s %%r%d, [%s]", mn,
                 w->reg[i], s, (unsigned long long)(e->opb - w->dropped[e->loc]));
    else
        snprintf(buf, n, "%s [%s], %llu", mn, s,
                 (unsigned long long)(e->opb - (strstr(mn, "expect_tx") ? w->dropped[e->loc] : 0)));
}

/* a bulk copy's chunk (its read at universe index i) as a litmus bulk copy of 4 bytes, with
   the destination its write names and the mbarrier its complete-tx names; the copy's other
   events have no cell */
static void bulk_cell(const kcheck_witness *w, int i, const char *mn, char *buf, size_t n)
{
    const kgraph *g = w->f->g;
    kref r = w->ref[i];
    const kev *e = kg_ev(g, r);
    buf[0] = 0;
    if (e->kind != KE_R || (e->flags & KF_ATOM) || r.i + 1 >= g->nev[r.t]) return;
    const kev *d = &g->ev[r.t][r.i + 1];
    const char *mb = NULL;
    for (int j = r.i + 2; j < g->nev[r.t] && g->ev[r.t][j].pc == e->pc && !mb; j++)
        if (g->ev[r.t][j].kind == KE_R && (g->ev[r.t][j].flags & KF_ATOM))
            for (int u = 0; u < w->x.ninit && !mb; u++)
                if (w->ref[u].i == g->ev[r.t][j].loc) mb = w->sym[w->x.ev[u].sym];
    const char *src = NULL, *dst = NULL;
    for (int u = 0; u < w->x.ninit; u++) {
        if (w->ref[u].i == e->loc) src = w->sym[w->x.ev[u].sym];
        if (w->ref[u].i == d->loc) dst = w->sym[w->x.ev[u].sym];
    }
    if (src && dst && mb) snprintf(buf, n, "%s [%s], [%s], 4, [%s]", mn, dst, src, mb);
}

static void cell(const kcheck_witness *w, int i, char *buf, size_t n)
{
    const kev *e = kg_ev(w->f->g, w->ref[i]);
    const mevent *m = &w->x.ev[i];
    char mn[96];
    kpc_mnemonic(w->P.text[e->pc], mn, sizeof mn);
    bits_type(mn);
    const char *s = w->sym[m->sym >= 0 ? m->sym : 0];
    buf[0] = 0;
    if (w->P.kind[e->pc] == PTX_K_MBAR) { mbar_cell(w, i, mn, s, buf, n); return; }
    if (w->P.kind[e->pc] == PTX_K_BULK) { bulk_cell(w, i, mn, buf, n); return; }
    switch (e->kind) {
    case KE_R: {
        const kpc *k = kpc_get((kpcs *)&w->P, e->pc);
        if (!(e->flags & KF_ATOM)) snprintf(buf, n, "%s %%r%d, [%s]", mn, w->reg[i], s);
        else if (e->flags & KF_RED) snprintf(buf, n, "%s [%s], %llu", mn, s, (unsigned long long)e->opb);
        else if (k && k->cas)
            snprintf(buf, n, "%s %%r%d, [%s], %llu, %llu", mn, w->reg[i], s,
                     (unsigned long long)e->opb, (unsigned long long)e->opc);
        else snprintf(buf, n, "%s %%r%d, [%s], %llu", mn, w->reg[i], s, (unsigned long long)e->opb);
        break;
    }
    case KE_W:
        if (!(e->flags & KF_ATOM)) snprintf(buf, n, "%s [%s], %llu", mn, s, (unsigned long long)e->val);
        break;   /* an atomic's write: its read's cell */
    case KE_F: snprintf(buf, n, "%s", mn); break;
    case KE_BAR:
        if (e->bmode >= KB_CARRIVE) snprintf(buf, n, "%s", mn);
        else if (e->bmode == KB_ARRIVE) {
            int c = 0;   /* the threads of this CTA in the test */
            for (int u = 0; u < kcons_test(w->C)->nth; u++)
                c += kcons_test(w->C)->th[u].cta == kcons_test(w->C)->th[m->thread].cta;
            snprintf(buf, n, "%s %d, %d", mn, e->bar, 32 * c);
        } else snprintf(buf, n, "%.*s %d", (int)strcspn(mn, " "), mn, e->bar);
        break;
    default: break;
    }
}

char *kcheck_witness_litmus(const kcheck_witness *w)
{
    const lit_test *t = kcons_test(w->C);
    sbuf b = { 0 };
    sb_add(&b, "PTX check-finding-%d\n\"Extracted by ptxlitmus check: the communicating accesses "
           "of the execution of finding %d; the condition is what its loads read.\"\n{\n",
           w->fi + 1, w->fi + 1);
    for (int i = 0; i < w->x.ninit; i++)
        sb_add(&b, "%s=%lld;\n", w->sym[w->x.ev[i].sym], (long long)w->x.ev[i].wval);
    sb_add(&b, "}\n");
    int nth = t->nth, rows = 0;
    char ***cells = xcalloc((size_t)nth + 1, sizeof *cells);
    int *nc = xcalloc((size_t)nth + 1, sizeof *nc);
    for (int u = 0; u < nth; u++) cells[u] = xcalloc((size_t)w->x.n + 1, sizeof **cells);
    for (int i = w->x.ninit; i < w->x.n; i++) {
        char c[256];
        cell(w, i, c, sizeof c);
        if (!c[0]) continue;
        int u = w->x.ev[i].thread;
        cells[u][nc[u]++] = xstrdup(c);
        if (nc[u] > rows) rows = nc[u];
    }
    int *width = xcalloc((size_t)nth + 1, sizeof *width);
    char (*head)[64] = xcalloc((size_t)nth + 1, sizeof *head);
    for (int u = 0; u < nth; u++) {
        snprintf(head[u], sizeof head[u], "P%d@cta %d,cluster %d,gpu 0", u, t->th[u].cta,
                 t->th[u].cluster);
        width[u] = (int)strlen(head[u]);
        for (int k = 0; k < nc[u]; k++)
            if ((int)strlen(cells[u][k]) > width[u]) width[u] = (int)strlen(cells[u][k]);
    }
    for (int r = -1; r < rows; r++) {
        for (int u = 0; u < nth; u++) {
            const char *c = r < 0 ? head[u] : r < nc[u] ? cells[u][r] : "";
            sb_add(&b, " %-*s %s", width[u], c, u + 1 < nth ? "|" : ";\n");
        }
    }
    sb_add(&b, "exists (");
    int first = 1;
    for (int i = w->x.ninit; i < w->x.n; i++) {
        if (w->reg[i] < 0 || (kg_ev(w->f->g, w->ref[i])->flags & KF_RED)) continue;
        const kev *e = kg_ev(w->f->g, w->ref[i]);
        char mn[96];
        kpc_mnemonic(w->P.text[e->pc], mn, sizeof mn);
        int parity, done = mbar_wait(w, e, &parity);
        if (w->P.kind[e->pc] == PTX_K_BULK) continue;   /* a copy's read: no register */
        if (done >= 0 || w->P.kind[e->pc] == PTX_K_MBAR) {   /* mbarrier: a wait's answer */
            if (done >= 0) sb_add(&b, "%s%d:p%d=%d", first ? "" : " /\\ ", w->x.ev[i].thread, w->reg[i], done);
            first &= done < 0;
            continue;
        }
        long long v = (long long)e->val;
        if (strstr(mn, ".s8") || strstr(mn, ".s16") || strstr(mn, ".s32")) {
            int sh = 64 - 8 * e->size;
            v = (long long)((int64_t)((uint64_t)e->val << sh) >> sh);
        }
        sb_add(&b, "%s%d:r%d=%lld", first ? "" : " /\\ ", w->x.ev[i].thread, w->reg[i], v);
        first = 0;
    }
    const kgraph *g = w->f->g;
    for (int i = 0; i < w->x.ninit; i++) {
        const kloc *L = &g->loc[w->ref[i].i];
        if (L->nco < 2 || w->P.kind[kg_ev(g, L->co[0])->pc] == PTX_K_MBAR) continue;
        sb_add(&b, "%s%s=%llu", first ? "" : " /\\ ", w->sym[w->x.ev[i].sym],
               (unsigned long long)kg_ev(g, L->co[L->nco - 1])->val);
        first = 0;
    }
    if (first) sb_add(&b, "true");
    sb_add(&b, ")\n");
    for (int u = 0; u < nth; u++) {
        for (int k = 0; k < nc[u]; k++) free(cells[u][k]);
        free(cells[u]);
    }
    free(cells); free(nc); free(width); free(head);
    return b.s;
}
