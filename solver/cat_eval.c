/* solver/cat_eval.c — the cat evaluator: a loaded model (frontend/cat_ast.h) evaluated over the
 * n events of one candidate, sets and relations being vectors and matrices of constant-folded
 * Z3 Boolean terms (solver/rel.h).
 *
 * Values are reference-counted and immutable; an operator's operands are released as soon as
 * its result exists.  Frames hold the slots of the top level, of each call and of each
 * `forall` iteration; a frame that a closure or procedure captures lives until the end of the
 * evaluation, any other is freed when its call returns.  `let rec` of sets and relations is the
 * least fixpoint by Kleene iteration from the empty values: it stops when an iteration leaves
 * every entry's term unchanged, or when one solver call shows that the new entries imply the
 * old ones (so the iteration cannot grow any more), or after 1 + the size of the lattice
 * (docs/cat.md). */
#include "base/alloc.h"
#include "solver/cat_eval.h"
#include "frontend/cat_ast.h"
#include "model/event.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_STEPS 2000000L      /* expression nodes evaluated per evaluation */
#define MAX_DEPTH 2500          /* nested evaluations (deep recursion of cat functions) */

struct cat_prog {
    const cat_model *m;
    cat_engine eng;
    int *ids;                   /* engine id of each base name, -1 unknown */
    cat_kind *kinds;
    int *drop_at;               /* top-level slot -> the top instruction after which its value
                                   is no longer used (-1: kept to the end) */
    int *drop_start, *drop;     /* slots to drop after top instruction i: drop[drop_start[i] ..
                                   drop_start[i+1]) */
};

typedef enum {
    V_EMPTY, V_SET, V_REL, V_TAG, V_TUPLE, V_VSET, V_FUN, V_PRIM, V_PROC, V_EVENT, V_PAIR
} vkind;

typedef struct frame frame;
typedef struct val val;

struct val {
    int refs;                   /* < 0: a static value */
    vkind k;
    rset s;                     /* V_SET */
    rel r;                      /* V_REL */
    int closed;                 /* V_REL: transitive by the engine's constraints (r+ = r) */
    int i, j;                   /* V_TAG: tag; V_PRIM: prim; V_EVENT: i; V_PAIR: (i, j) */
    int n;                      /* V_TUPLE, V_VSET (sorted, distinct) */
    val **v;
    const cat_expr *fun;        /* V_FUN */
    const cat_instr *proc;      /* V_PROC */
    frame *env;                 /* V_FUN, V_PROC */
};

struct frame {
    frame *parent, *next;       /* next: in the list of captured frames */
    int n, captured;
    val *slot[];
};

typedef struct {
    const cat_prog *p;
    const cat_model *m;
    enc *e;
    int n, dry;
    void *ctx;
    val **base;
    val *univ, *idrel;
    frame *captured;
    cat_check *chk;
    int nchk, capchk;
    const char *call_as;
    char msg[1024];
    long steps;
    int depth, fatal, top_index;
    Z3_solver fixs, bg;
    int max_iter;
    double deadline;            /* cat_eval_opts.deadline */
    int timed_out;              /* a convergence test ran out of time: the iteration stopped */
} ev_t;

static val EMPTY_V = { .refs = -1, .k = V_EMPTY };
static _Thread_local cat_eval_stats stats;

cat_eval_stats cat_eval_last_stats(void) { return stats; }

/* ---------- values ---------- */

/* values freed during an evaluation are kept for the next ones (run() empties the pool): the
 * operators make and drop one per step, and malloc's small-chunk churn would cost more */
static _Thread_local val *pool;
static _Thread_local int pooled;

static val *v_new(vkind k)
{
    val *v = pool;
    if (v) {
        pool = v->v ? (val *)v->v : NULL;
        pooled--;
        memset(v, 0, sizeof *v);
    } else {
        v = xcalloc(1, sizeof *v);
    }
    v->refs = 1;
    v->k = k;
    return v;
}

static void v_recycle(val *v)
{
    if (pooled >= 4096) { free(v); return; }
    v->v = (val **)pool;
    pool = v;
    pooled++;
}

static void pool_empty(void)
{
    while (pool) {
        val *nx = (val *)pool->v;
        free(pool);
        pool = nx;
    }
    pooled = 0;
}

static val *v_ref(val *v)
{
    if (v && v->refs >= 0) v->refs++;
    return v;
}

static void v_drop(val *v)
{
    if (!v || v->refs < 0 || --v->refs > 0) return;
    if (v->k == V_SET) rset_free(&v->s);
    if (v->k == V_REL) rel_free(&v->r);
    if (v->k == V_TUPLE || v->k == V_VSET) {
        for (int i = 0; i < v->n; i++) v_drop(v->v[i]);
        free(v->v);
    }
    v->v = NULL;
    v_recycle(v);
}

static val *v_set(rset s) { val *v = v_new(V_SET); v->s = s; return v; }
static val *v_rel(rel r) { val *v = v_new(V_REL); v->r = r; return v; }

static const char *describe(const val *v, char *buf, size_t len)
{
    switch (v->k) {
    case V_EMPTY: return "the empty value (0 or {}, of no known type)";
    case V_SET: return "a set of events";
    case V_REL: return "a relation";
    case V_TAG: return "a tag";
    case V_TUPLE:
        if (v->n == 0) return "the empty tuple ()";
        snprintf(buf, len, "a tuple of %d values", v->n);
        return buf;
    case V_VSET: return "a set of values";
    case V_FUN: case V_PRIM: return "a function";
    case V_PROC: return "a procedure";
    case V_EVENT: return "an event";
    case V_PAIR: return "a pair of events";
    }
    return "a value";
}

/* ---------- frames ---------- */

static frame *frame_new(frame *parent, int n)
{
    frame *f = xcalloc(1, sizeof *f + (size_t)(n > 0 ? n : 1) * sizeof(val *));
    f->parent = parent;
    f->n = n;
    return f;
}

static void frame_free(frame *f)
{
    for (int i = 0; i < f->n; i++) v_drop(f->slot[i]);
    free(f);
}

/* a call or an iteration is over: free its frame unless a closure captured it */
static void frame_release(ev_t *E, frame *f)
{
    if (!f->captured) { frame_free(f); return; }
    f->next = E->captured;
    E->captured = f;
}

static void capture(frame *f)
{
    for (; f && !f->captured; f = f->parent) f->captured = 1;
}

static void set_slot(frame *f, int slot, val *v)
{
    v_drop(f->slot[slot]);
    f->slot[slot] = v;
}

/* ---------- errors ---------- */

static val *fail_at(ev_t *E, int file, int line, int col, const char *fmt, ...)
{
    int o = snprintf(E->msg, sizeof E->msg, "%s:%d:%d: ", E->m->files[file], line, col);
    if (o < 0 || (size_t)o >= sizeof E->msg) o = 0;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(E->msg + o, sizeof E->msg - (size_t)o, fmt, ap);
    va_end(ap);
    return NULL;
}

#define FAIL(E, x, ...) fail_at((E), (x)->file, (x)->line, (x)->col, __VA_ARGS__)

/* "found <v>, expected <want> (<where>)" at the expression x that gave v; when x is a name,
 * "found the relation 'po', …" */
static val *type_err(ev_t *E, const cat_expr *x, const val *v, const char *want,
                     const char *where)
{
    char buf[64];
    const char *d = describe(v, buf, sizeof buf);
    if ((x->k == CE_VAR || x->k == CE_BASE || x->k == CE_PRIM) && x->name &&
        !strncmp(d, "a ", 2) && strlen(x->name) < 80)
        return FAIL(E, x, "found the %s '%s', expected %s (%s)", d + 2, x->name, want, where);
    return FAIL(E, x, "found %s, expected %s (%s)", d, want, where);
}

static const char *op_name(cat_ek k)
{
    switch (k) {
    case CE_UNION: return "'|'";
    case CE_INTER: return "'&'";
    case CE_DIFF: return "'\\'";
    case CE_SEQ: return "';'";
    case CE_CROSS: return "'*'";
    case CE_ADD: return "'++'";
    case CE_INV: return "'^-1'";
    case CE_PLUS: return "'+'";
    case CE_STAR: return "'*'";
    case CE_OPT: return "'?'";
    case CE_COMPL: return "'~'";
    case CE_BRACKET: return "'[…]'";
    default: return "the operator";
    }
}

/* ---------- unknown names ---------- */

static int edit_distance(const char *a, const char *b)
{
    int la = (int)strlen(a), lb = (int)strlen(b);
    if (la > 64) la = 64;
    if (lb > 64) lb = 64;
    int d[65], prev;
    for (int j = 0; j <= lb; j++) d[j] = j;
    for (int i = 1; i <= la; i++) {
        prev = d[0];
        d[0] = i;
        for (int j = 1; j <= lb; j++) {
            int t = d[j];
            int best = prev + (a[i - 1] != b[j - 1]);
            if (d[j] + 1 < best) best = d[j] + 1;
            if (d[j - 1] + 1 < best) best = d[j - 1] + 1;
            d[j] = best;
            prev = t;
        }
    }
    return d[lb];
}

typedef struct { const char *name; int dist; } cand;

static int cand_cmp(const void *x, const void *y)
{
    const cand *a = x, *b = y;
    if (a->dist != b->dist) return a->dist - b->dist;
    return strcmp(a->name, b->name);
}

static void add_cand(cand **v, int *n, int *cap, const char *name, const char *target)
{
    for (int i = 0; i < *n; i++)
        if (!strcmp((*v)[i].name, name)) return;
    if (*n == *cap) {
        *cap = *cap ? *cap * 2 : 64;
        cand *nv = xrealloc(*v, (size_t)*cap * sizeof **v);
        *v = nv;
    }
    (*v)[(*n)++] = (cand){ name, edit_distance(name, target) };
}

/* the names a top-level instruction binds, through f(name) */
static void instr_names(const cat_instr *in, void (*f)(void *, const char *), void *c)
{
    if (in->k == CI_LET)
        for (int b = 0; b < in->nb; b++)
            for (int k = 0; k < in->binds[b].pat.n; k++) f(c, in->binds[b].pat.name[k]);
    if (in->k == CI_PROC || in->k == CI_ENUM) f(c, in->name);
}

typedef struct { cand **v; int *n, *cap; const char *target; } cand_ctx;
static void cand_add_cb(void *c, const char *name)
{
    cand_ctx *k = c;
    add_cand(k->v, k->n, k->cap, name, k->target);
}

typedef struct { const char *target; const cat_instr *found; const cat_instr *in; } later_ctx;
static void later_cb(void *c, const char *name)
{
    later_ctx *k = c;
    if (!k->found && !strcmp(name, k->target)) k->found = k->in;
}

/* "found 'x', expected a name that exists: closest, …" */
static val *unknown_name(ev_t *E, const cat_expr *x)
{
    cand *v = NULL;
    int n = 0, cap = 0;
    cand_ctx cc = { &v, &n, &cap, x->name };
    const cat_block *top = &E->m->top;
    for (int i = 0; i < E->top_index && i < top->n; i++) instr_names(&top->v[i], cand_add_cb, &cc);
    for (int i = 0; i < PRIM_COUNT; i++) add_cand(&v, &n, &cap, cat_prim_names[i], x->name);
    if (E->p->eng.names) {
        int cnt = 0;
        const char *const *names = E->p->eng.names(E->ctx, &cnt);
        for (int i = 0; names && i < cnt; i++)
            if (names[i]) add_cand(&v, &n, &cap, names[i], x->name);
    }
    if (n) qsort(v, (size_t)n, sizeof *v, cand_cmp);
    char list[640] = "";
    size_t len = 0;
    int shown = 0;
    for (int i = 0; i < n && shown < 12 && len + 80 < sizeof list; i++, shown++)
        len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", i ? ", " : "",
                                v[i].name);
    if (shown < n) snprintf(list + len, sizeof list - len, " (and %d more)", n - shown);
    later_ctx lc = { x->name, NULL, NULL };
    for (int i = E->top_index; i < top->n && !lc.found; i++) {
        lc.in = &top->v[i];
        instr_names(&top->v[i], later_cb, &lc);
    }
    char note[256] = "";
    if (lc.found)
        snprintf(note, sizeof note, "; '%s' is bound later, at %s:%d:%d", x->name,
                 E->m->files[lc.found->file], lc.found->line, lc.found->col);
    free(v);
    return FAIL(E, x, "found '%s', expected a name that exists: %s%s", x->name,
                n ? list : "(none)", note);
}

/* ---------- base values ---------- */

static val *get_base(ev_t *E, const cat_expr *x, int i)
{
    if (E->base[i]) return v_ref(E->base[i]);
    int id = E->p->ids[i];
    if (id < 0) return unknown_name(E, x);
    cat_kind k = E->p->kinds[i];
    const char *name = E->m->base[i].name;
    val *v;
    if (E->dry) {
        v = k == CAT_SET ? v_set(rset_new(0)) : v_rel(rel_new(0));
    } else {
        cat_value out;
        memset(&out, 0, sizeof out);
        E->fatal = 1;   /* an engine failure is not an error `try` may catch */
        if (E->p->eng.value(E->ctx, id, E->n, &out) != 0)
            return FAIL(E, x, "found no value of '%s' (the engine failed), expected one", name);
        if (out.kind != k || (k == CAT_SET ? out.set.n != E->n || (E->n && !out.set.v)
                                           : out.rel.n != E->n || (E->n && !out.rel.m)))
            return FAIL(E, x, "found a value of '%s' that is not the %s over %d events the "
                        "engine declared, expected one", name, k == CAT_SET ? "set"
                        : "relation", E->n);
        E->fatal = 0;
        if (E->n == 0) v = k == CAT_SET ? v_set(rset_new(0)) : v_rel(rel_new(0));
        else v = k == CAT_SET ? v_set(rset_copy(&out.set)) : v_rel(rel_copy(&out.rel));
        if (k == CAT_REL) v->closed = out.transitive;
    }
    E->base[i] = v;
    return v_ref(v);
}

/* the universe `_` (base 0) */
static const rset *universe(ev_t *E, const cat_expr *x)
{
    if (!E->univ) {
        cat_expr at = *x;
        at.name = "_";
        E->univ = get_base(E, &at, 0);
        if (!E->univ) return NULL;
    }
    return &E->univ->s;
}

/* ---------- coercions: a set or a relation, borrowed or made ---------- */

typedef struct { const rset *p; rset tmp; } setref;
typedef struct { const rel *p; rel tmp; } relref;

static int is_setlike(const val *v) { return v->k == V_SET || v->k == V_EVENT; }
static int is_rellike(const val *v) { return v->k == V_REL || v->k == V_PAIR; }

/* v as a set of events (the empty value, an event promoted to a singleton); 0 or -1 */
static int get_set(ev_t *E, const val *v, setref *o)
{
    o->tmp.v = NULL;
    if (v->k == V_SET) { o->p = &v->s; return 0; }
    if (v->k != V_EMPTY && v->k != V_EVENT) return -1;
    o->tmp = rset_new(E->n);
    if (v->k == V_EVENT) o->tmp.v[v->i] = E->e->T;
    o->p = &o->tmp;
    return 0;
}

static int get_rel(ev_t *E, const val *v, relref *o)
{
    o->tmp.m = NULL;
    if (v->k == V_REL) { o->p = &v->r; return 0; }
    if (v->k != V_EMPTY && v->k != V_PAIR) return -1;
    o->tmp = rel_new(E->n);
    if (v->k == V_PAIR) rel_set(&o->tmp, v->i, v->j, E->e->T);
    o->p = &o->tmp;
    return 0;
}

static void set_done(setref *o) { if (o->tmp.v) rset_free(&o->tmp); }
static void rel_done(relref *o) { if (o->tmp.m) rel_free(&o->tmp); }

/* ---------- sets of values (tags, tuples, events, pairs, sets of those) ---------- */

static int is_plain(const val *v)
{
    if (v->k == V_TAG || v->k == V_EVENT || v->k == V_PAIR) return 1;
    if (v->k != V_TUPLE && v->k != V_VSET) return 0;
    for (int i = 0; i < v->n; i++)
        if (!is_plain(v->v[i])) return 0;
    return 1;
}

static int v_cmp(const val *a, const val *b)
{
    if (a->k != b->k) return (int)a->k - (int)b->k;
    if (a->k == V_TUPLE || a->k == V_VSET) {
        if (a->n != b->n) return a->n - b->n;
        for (int i = 0; i < a->n; i++) {
            int c = v_cmp(a->v[i], b->v[i]);
            if (c) return c;
        }
        return 0;
    }
    if (a->i != b->i) return a->i < b->i ? -1 : 1;
    return a->j < b->j ? -1 : a->j > b->j;
}

static int v_cmp_q(const void *x, const void *y)
{
    return v_cmp(*(val *const *)x, *(val *const *)y);
}

/* a set of values from n plain values (references taken over): sorted, duplicates dropped */
static val *vset_of(val **v, int n)
{
    val *s = v_new(V_VSET);
    s->v = xcalloc((size_t)n, sizeof *s->v);
    if (n) qsort(v, (size_t)n, sizeof *v, v_cmp_q);
    for (int i = 0; i < n; i++) {
        if (s->n && !v_cmp(s->v[s->n - 1], v[i])) { v_drop(v[i]); continue; }
        s->v[s->n++] = v[i];
    }
    return s;
}

/* union (k = CE_UNION), intersection, difference of two sets of values */
static val *vset_op(cat_ek k, const val *a, const val *b)
{
    int na = a->k == V_VSET ? a->n : 0, nb = b->k == V_VSET ? b->n : 0;
    val **v = xcalloc((size_t)(na + nb), sizeof *v);
    int n = 0;
    for (int i = 0; i < na; i++) {
        int in_b = 0;
        for (int j = 0; j < nb && !in_b; j++) in_b = !v_cmp(a->v[i], b->v[j]);
        if (k == CE_UNION || (k == CE_INTER) == in_b) v[n++] = v_ref(a->v[i]);
    }
    if (k == CE_UNION)
        for (int j = 0; j < nb; j++) v[n++] = v_ref(b->v[j]);
    val *s = vset_of(v, n);
    free(v);
    return s;
}

/* ---------- operators ---------- */

static val *eval(ev_t *E, frame *F, const cat_expr *x);

/* the class of a value for the overloaded | & \: 0 empty, 1 set, 2 relation, 3 set of values,
 * 4 anything else */
static int op_class(const val *v)
{
    if (v->k == V_EMPTY) return 0;
    if (is_setlike(v)) return 1;
    if (is_rellike(v)) return 2;
    return v->k == V_VSET ? 3 : 4;
}

static val *setop_vals(ev_t *E, const cat_expr *x, val *a, val *b)
{
    int ka = op_class(a), kb = op_class(b), k = ka ? ka : kb;
    static const char *const what[] = { "", "a set of events", "a relation", "a set of values" };
    char where[96];
    if (ka == 4 || k == 4) {
        snprintf(where, sizeof where, "the left operand of %s", op_name(x->k));
        return type_err(E, x->a, a, "a set or a relation", where);
    }
    if (kb == 4 || (kb && kb != k)) {
        snprintf(where, sizeof where, "the right operand of %s, whose left operand is %s",
                 op_name(x->k), what[k]);
        return type_err(E, x->b, b, k ? what[k] : "a set or a relation", where);
    }
    if (k == 0) return &EMPTY_V;
    if (k == 3) return vset_op(x->k, a, b);
    if (k == 1) {
        setref sa, sb;
        get_set(E, a, &sa);
        get_set(E, b, &sb);
        rset r = x->k == CE_UNION ? rset_union(E->e, sa.p, sb.p)
               : x->k == CE_INTER ? rset_inter(E->e, sa.p, sb.p) : rset_diff(E->e, sa.p, sb.p);
        set_done(&sa); set_done(&sb);
        return v_set(r);
    }
    relref ra, rb;
    get_rel(E, a, &ra);
    get_rel(E, b, &rb);
    rel r = x->k == CE_UNION ? rel_union(E->e, ra.p, rb.p)
          : x->k == CE_INTER ? rel_inter(E->e, ra.p, rb.p) : rel_diff(E->e, ra.p, rb.p);
    rel_done(&ra); rel_done(&rb);
    return v_rel(r);
}

/* a ; b and a * b */
static val *seq_cross(ev_t *E, const cat_expr *x, val *a, val *b)
{
    int seq = x->k == CE_SEQ;
    const char *want = seq ? "a relation" : "a set of events";
    int (*ok)(const val *) = seq ? is_rellike : is_setlike;
    char where[64];
    if (a->k != V_EMPTY && !ok(a)) {
        snprintf(where, sizeof where, "the left operand of %s", op_name(x->k));
        return type_err(E, x->a, a, want, where);
    }
    if (b->k != V_EMPTY && !ok(b)) {
        snprintf(where, sizeof where, "the right operand of %s", op_name(x->k));
        return type_err(E, x->b, b, want, where);
    }
    if (a->k == V_EMPTY || b->k == V_EMPTY) return &EMPTY_V;
    if (seq) {
        relref ra, rb;
        get_rel(E, a, &ra);
        get_rel(E, b, &rb);
        rel r = rel_seq_sparse(E->e, ra.p, rb.p);
        rel_done(&ra); rel_done(&rb);
        return v_rel(r);
    }
    setref sa, sb;
    get_set(E, a, &sa);
    get_set(E, b, &sb);
    rel r = rel_cross(E->e, sa.p, sb.p);
    set_done(&sa); set_done(&sb);
    return v_rel(r);
}

/* e ++ s: s with the element e added */
static val *add_elem(ev_t *E, const cat_expr *x, val *a, val *b)
{
    if (b->k == V_SET && a->k == V_EVENT) {
        rset s = rset_copy(&b->s);
        s.v[a->i] = E->e->T;
        return v_set(s);
    }
    if (b->k == V_REL && a->k == V_PAIR) {
        rel r = rel_copy(&b->r);
        rel_set(&r, a->i, a->j, E->e->T);
        return v_rel(r);
    }
    if (b->k == V_EMPTY && (a->k == V_EVENT || a->k == V_PAIR)) {
        relref rr;
        setref sr;
        if (a->k == V_PAIR) { get_rel(E, a, &rr); return v_rel(rr.tmp); }
        get_set(E, a, &sr);
        return v_set(sr.tmp);
    }
    if (b->k != V_EMPTY && b->k != V_VSET)
        return type_err(E, x->b, b, "a set of values", "the right operand of '++'");
    if (!is_plain(a))
        return type_err(E, x->a, a, "a tag, an event, a pair or a tuple of those",
                        "an element added by '++'");
    val **v = xcalloc((size_t)(b->n + 1), sizeof *v);
    for (int i = 0; i < b->n; i++) v[i] = v_ref(b->v[i]);
    v[b->n] = v_ref(a);
    val *s = vset_of(v, b->n + 1);
    free(v);
    return s;
}

/* r^-1, r+, r*, r? */
static val *postfix(ev_t *E, const cat_expr *x, val *a)
{
    char where[48];
    snprintf(where, sizeof where, "the operand of %s", op_name(x->k));
    if (a->k != V_EMPTY && !is_rellike(a)) return type_err(E, x->a, a, "a relation", where);
    if (a->k == V_EMPTY && (x->k == CE_INV || x->k == CE_PLUS)) return &EMPTY_V;
    if (a->k == V_REL && a->closed && x->k == CE_PLUS) return v_ref(a);
    relref ra;
    get_rel(E, a, &ra);
    rel r;
    if (x->k == CE_INV) r = rel_inverse(ra.p);
    else if (x->k == CE_PLUS) r = rel_plus(E->e, ra.p);
    else {
        const rset *u = universe(E, x);
        if (!u) { rel_done(&ra); return NULL; }
        r = x->k == CE_STAR ? rel_star(E->e, ra.p, u) : rel_opt(E->e, ra.p, u);
    }
    rel_done(&ra);
    return v_rel(r);
}

/* ~a: the complement in _ (sets) or in _ * _ (relations) */
static val *complement(ev_t *E, const cat_expr *x, val *a)
{
    if (!is_setlike(a) && !is_rellike(a))
        return type_err(E, x->a, a, "a set of events or a relation", "the operand of '~'");
    const rset *u = universe(E, x);
    if (!u) return NULL;
    if (is_setlike(a)) {
        setref sa;
        get_set(E, a, &sa);
        rset s = rset_diff(E->e, u, sa.p);
        set_done(&sa);
        return v_set(s);
    }
    relref ra;
    get_rel(E, a, &ra);
    rel r = rel_complement(E->e, ra.p, u);
    rel_done(&ra);
    return v_rel(r);
}

/* [s] (also toid s) */
static val *bracket(ev_t *E, const cat_expr *x, const cat_expr *at, val *a)
{
    setref sa;
    if (a->k == V_EMPTY) return &EMPTY_V;
    if (get_set(E, a, &sa) < 0)
        return type_err(E, at, a, "a set of events", x->k == CE_BRACKET ? "the operand of '[…]'"
                                                                        : "the argument of toid");
    rel r = rel_ident(sa.p);
    set_done(&sa);
    return v_rel(r);
}

/* newSet() / newRelation(): fresh variables on the events that exist */
static val *fresh(ev_t *E, const cat_expr *x, int relation)
{
    const rset *u = universe(E, x);
    if (!u) return NULL;
    int n = E->n;
    if (!relation) {
        rset s = rset_new(n);
        for (int i = 0; i < n; i++)
            if (u->v[i]) s.v[i] = b_and(E->e, u->v[i], b_var(E->e, "newSet"));
        return v_set(s);
    }
    rel r = rel_new(n);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            Z3_ast both = b_and(E->e, u->v[i], u->v[j]);
            if (both) rel_set(&r, i, j, b_and(E->e, both, b_var(E->e, "newRelation")));
        }
    return v_rel(r);
}

static val *prim_value(ev_t *E, const cat_expr *x)
{
    if (x->idx == PRIM_EMPTYSET) return v_set(rset_new(E->n));
    if (x->idx == PRIM_ID) {
        if (!E->idrel) {
            const rset *u = universe(E, x);
            if (!u) return NULL;
            E->idrel = v_rel(rel_ident(u));
        }
        return v_ref(E->idrel);
    }
    val *v = v_new(V_PRIM);
    v->i = x->idx;
    return v;
}

static val *prim_apply(ev_t *E, const cat_expr *x, const val *f, val *arg)
{
    const char *name = cat_prim_names[f->i];
    char where[64];
    snprintf(where, sizeof where, "the argument of %s", name);
    switch (f->i) {
    case PRIM_DOMAIN: case PRIM_RANGE: {
        if (arg->k != V_EMPTY && !is_rellike(arg))
            return type_err(E, x->b, arg, "a relation", where);
        if (arg->k == V_EMPTY) return &EMPTY_V;
        relref ra;
        get_rel(E, arg, &ra);
        rset s = f->i == PRIM_DOMAIN ? rel_domain(E->e, ra.p) : rel_range(E->e, ra.p);
        rel_done(&ra);
        return v_set(s);
    }
    case PRIM_TOID:
        return bracket(E, x, x->b, arg);
    case PRIM_NEWSET: case PRIM_NEWREL:
        if (arg->k != V_TUPLE || arg->n != 0) return type_err(E, x->b, arg, "()", where);
        return fresh(E, x, f->i == PRIM_NEWREL);
    }
    return FAIL(E, x, "found %s, expected a function", name);
}

/* ---------- patterns, functions ---------- */

/* binds the pattern's names in frame f to v (or its components); 0 or -1 */
static int bind_pat(ev_t *E, frame *f, const cat_pat *p, val *v, const cat_expr *at)
{
    char buf[64], want[48];
    if (p->k == CP_ID) { set_slot(f, p->slot[0], v_ref(v)); return 0; }
    if (p->k == CP_UNIT) {
        if (v->k == V_TUPLE && v->n == 0) return 0;
        FAIL(E, at, "found %s, expected () (the pattern ())", describe(v, buf, sizeof buf));
        return -1;
    }
    if (v->k == V_PAIR && p->n == 2) {
        for (int k = 0; k < 2; k++) {
            val *ev = v_new(V_EVENT);
            ev->i = k ? v->j : v->i;
            set_slot(f, p->slot[k], ev);
        }
        return 0;
    }
    if (v->k != V_TUPLE || v->n != p->n) {
        snprintf(want, sizeof want, "a tuple of %d values", p->n);
        FAIL(E, at, "found %s, expected %s (the pattern (%s, …))", describe(v, buf, sizeof buf),
             want, p->name[0]);
        return -1;
    }
    for (int k = 0; k < p->n; k++) set_slot(f, p->slot[k], v_ref(v->v[k]));
    return 0;
}

static val *apply(ev_t *E, const cat_expr *x, val *f, val *arg)
{
    if (f->k == V_PRIM) return prim_apply(E, x, f, arg);
    if (f->k != V_FUN)
        return type_err(E, x->a, f, "a function", "applied to an argument");
    const cat_expr *fn = f->fun;
    frame *g = frame_new(f->env, fn->frame);
    val *r = NULL;
    if (bind_pat(E, g, &fn->pat, arg, x->b) == 0) {
        r = eval(E, g, fn->a);
        if (!r && fn->name && !E->fatal) {
            /* say which call failed: append to the message */
            size_t l = strlen(E->msg);
            snprintf(E->msg + l, sizeof E->msg - l, " [in %s, called at %s:%d:%d]", fn->name,
                     E->m->files[x->file], x->line, x->col);
        }
    }
    frame_release(E, g);
    return r;
}

static val *eval_list(ev_t *E, frame *F, const cat_expr *x, val ***out)
{
    val **v = xcalloc((size_t)x->n, sizeof *v);
    for (int i = 0; i < x->n; i++) {
        v[i] = eval(E, F, x->v[i]);
        if (!v[i]) {
            for (int k = 0; k < i; k++) v_drop(v[k]);
            free(v);
            return NULL;
        }
    }
    *out = v;
    return &EMPTY_V;
}

static val *tuple(ev_t *E, frame *F, const cat_expr *x)
{
    val *t = v_new(V_TUPLE);
    if (x->n && !eval_list(E, F, x, &t->v)) { v_drop(t); return NULL; }
    t->n = x->n;
    return t;
}

/* {e1, …}: events make a set of events, pairs a relation, other plain values a set of values */
static val *set_literal(ev_t *E, frame *F, const cat_expr *x)
{
    val **v;
    if (!eval_list(E, F, x, &v)) return NULL;
    int events = 1, pairs = 1, plain = 1, bad = -1;
    for (int i = 0; i < x->n; i++) {
        events &= v[i]->k == V_EVENT;
        pairs &= v[i]->k == V_PAIR;
        if (!is_plain(v[i]) && bad < 0) bad = i;
        plain &= is_plain(v[i]);
    }
    val *r;
    if (events || pairs) {
        r = events ? v_set(rset_new(E->n)) : v_rel(rel_new(E->n));
        for (int i = 0; i < x->n; i++) {
            if (events) r->s.v[v[i]->i] = E->e->T;
            else rel_set(&r->r, v[i]->i, v[i]->j, E->e->T);
            v_drop(v[i]);
        }
    } else if (plain) {
        r = vset_of(v, x->n);
    } else {
        r = type_err(E, x->v[bad], v[bad], "a tag, an event, a pair or a tuple of those",
                     "an element of '{…}'; sets of sets of events are not supported");
        for (int i = 0; i < x->n; i++) v_drop(v[i]);
    }
    free(v);
    return r;
}

static val *closure(frame *F, const cat_expr *x)
{
    val *v = v_new(V_FUN);
    v->fun = x;
    v->env = F;
    capture(F);
    return v;
}

/* ---------- let, let rec ---------- */

/* entry k of a set or relation value (the empty value: NULL), and its size */
static Z3_ast entry(const val *v, int k)
{
    if (v->k == V_SET) return v->s.v[k];
    if (v->k == V_REL) return v->r.m[k];
    return NULL;
}

static int size_of(const val *v, int n) { return v->k == V_SET ? n : v->k == V_REL ? n * n : 0; }

/* does every new entry imply the old one (so the iteration has converged)?  1 yes, 0 no.
 * Only when the pairs that are not statically false are the same in both is the solver asked
 * (one call: is some new entry true while the old one is false?); a new pair means another
 * round, which is sound since the rounds are bounded anyway. */
static int implied(ev_t *E, val *const *nv, val *const *old, const int *idx, int cnt)
{
    Z3_ast *t = NULL;
    int nt = 0, cap = 0, sat_known = 0;
    for (int q = 0; q < cnt && !sat_known; q++) {
        const val *a = nv[idx[q]], *o = old[idx[q]];
        int sz = size_of(a, E->n) > size_of(o, E->n) ? size_of(a, E->n) : size_of(o, E->n);
        for (int k = 0; k < sz; k++) {
            Z3_ast x = entry(a, k), y = entry(o, k);
            if (x == y || !x || y == E->e->T) continue;
            /* a pair that was statically false and is not any more: the iteration grows (or
             * at worst makes one round more than needed); no solver call */
            if (!y) { sat_known = 1; break; }
            Z3_ast d = b_and(E->e, x, b_not(E->e, y));
            if (!d) continue;
            if (d == E->e->T) { sat_known = 1; break; }
            if (nt == cap) {
                cap = cap ? cap * 2 : 64;
                Z3_ast *nt2 = xrealloc(t, (size_t)cap * sizeof *t);
                t = nt2;
            }
            t[nt++] = d;
        }
    }
    if (sat_known || nt == 0) { free(t); return !sat_known; }
    Z3_context z = E->e->z;
    Z3_solver s = E->bg;
    if (!s) {
        if (!E->fixs) {
            E->fixs = enc_solver(E->e);
            if (E->e->timeout_ms) enc_solver_timeout(E->e, E->fixs, E->e->timeout_ms);
        }
        s = E->fixs;
    }
    if (E->deadline) {   /* the time left, for this test only (a stopped iteration: done) */
        double left = E->deadline - mclock_ms();
        if (left < 1) { E->timed_out = 1; free(t); return 1; }
        enc_solver_timeout(E->e, s, left);
    }
    Z3_solver_push(z, s);
    Z3_solver_assert(z, s, nt == 1 ? t[0] : Z3_mk_or(z, (unsigned)nt, t));
    Z3_lbool r = Z3_solver_check(z, s);
    Z3_solver_pop(z, s, 1);
    stats.fix_solver_calls++;
    free(t);
    if (r == Z3_L_UNDEF && E->deadline && mclock_ms() >= E->deadline - 1) {
        E->timed_out = 1;
        return 1;
    }
    return r == Z3_L_FALSE;
}

/* one round of a `let rec`: nv[i] = F_i(current slots) for the bindings that are not
 * functions; 0 or -1 */
static int rec_round(ev_t *E, frame *F, const cat_bind *b, const int *idx, int cnt, val **nv)
{
    for (int q = 0; q < cnt; q++) {
        const cat_bind *bi = &b[idx[q]];
        val *v = eval(E, F, bi->rhs);
        if (v && (v->k == V_EVENT || v->k == V_PAIR)) {
            setref sr;
            relref rr;
            val *w = v->k == V_EVENT ? (get_set(E, v, &sr), v_set(sr.tmp))
                                     : (get_rel(E, v, &rr), v_rel(rr.tmp));
            v_drop(v);
            v = w;
        }
        const val *old = F->slot[bi->pat.slot[0]];
        if (v && v->k != V_EMPTY && v->k != V_SET && v->k != V_REL) {
            type_err(E, bi->rhs, v, "a set of events or a relation", "a 'let rec' defines the "
                     "least fixpoint of sets and relations, or functions");
            v_drop(v);
            v = NULL;
        } else if (v && old->k != V_EMPTY && v->k != old->k) {
            type_err(E, bi->rhs, v, old->k == V_SET ? "a set of events" : "a relation",
                     "the value of the previous iteration of this 'let rec'");
            v_drop(v);
            v = NULL;
        }
        if (!v) {
            for (int k = 0; k < q; k++) v_drop(nv[idx[k]]);
            return -1;
        }
        nv[idx[q]] = v;
    }
    return 0;
}

/* whether x may read slot `slot` of the current frame (conservative: a function, a call, a
   let or a try may reach it some other way) */
static int mentions(const cat_expr *x, int slot)
{
    if (!x) return 0;
    switch (x->k) {
    case CE_VAR: return x->up == 0 && x->slot == slot;
    case CE_FUN: case CE_APP: case CE_LET: case CE_TRY: return 1;
    default: break;
    }
    if (mentions(x->a, slot) || mentions(x->b, slot) || mentions(x->c, slot)) return 1;
    for (int i = 0; i < x->n && x->v; i++)
        if (mentions(x->v[i], slot)) return 1;
    return 0;
}

static int is_self(const cat_expr *x, int slot)
{
    return x && x->k == CE_VAR && x->up == 0 && x->slot == slot;
}

/* `let rec x = A | x;B;x` (either operand order, either grouping of the sequence; A and B
   without x): the least fixpoint is A;(B;A)*.  A is in it, A(BA)^k ; B ; A(BA)^l is
   A(BA)^(k+l+1), so A;(B;A)* is a fixpoint, and each A(BA)^k is in every fixpoint (induction
   on k).  This holds in every candidate, so the closure (rel_plus) replaces Kleene iteration
   and its convergence tests (ptx-v6.0's `observation` over a chain of 8 atomic operations:
   minutes per test).  1 when x is bound, 0 when the binding has another form, -1 on error. */
static int letrec_closed_form(ev_t *E, frame *F, const cat_bind *bi)
{
    int slot = bi->pat.slot[0];
    const cat_expr *u = bi->rhs, *A = NULL, *B = NULL;
    if (u->k != CE_UNION) return 0;
    for (int side = 0; side < 2 && !B; side++) {
        const cat_expr *a = side ? u->b : u->a, *r = side ? u->a : u->b;
        if (mentions(a, slot) || r->k != CE_SEQ) continue;
        if (r->a->k == CE_SEQ && is_self(r->a->a, slot) && is_self(r->b, slot) &&
            !mentions(r->a->b, slot))
            A = a, B = r->a->b;
        else if (r->b->k == CE_SEQ && is_self(r->a, slot) && is_self(r->b->b, slot) &&
                 !mentions(r->b->a, slot))
            A = a, B = r->b->a;
    }
    if (!B) return 0;
    val *av = eval(E, F, A);
    if (!av) return -1;
    val *bv = eval(E, F, B);
    if (!bv) { v_drop(av); return -1; }
    int rc = 0;
    if ((av->k == V_REL || av->k == V_EMPTY || av->k == V_PAIR) &&
        (bv->k == V_REL || bv->k == V_EMPTY || bv->k == V_PAIR)) {
        relref ra, rb;
        get_rel(E, av, &ra);
        get_rel(E, bv, &rb);
        rel ba = rel_seq_sparse(E->e, rb.p, ra.p);
        rel p = rel_plus(E->e, &ba);
        rel ap = rel_seq_sparse(E->e, ra.p, &p);
        set_slot(F, slot, v_rel(rel_union(E->e, ra.p, &ap)));
        rel_free(&ba); rel_free(&p); rel_free(&ap);
        rel_done(&ra); rel_done(&rb);
        rc = 1;
    }
    v_drop(av);
    v_drop(bv);
    return rc;
}

static int letrec(ev_t *E, frame *F, const cat_bind *b, int nb)
{
    if (nb == 1 && b[0].rhs->k != CE_FUN && !E->dry) {
        int r = letrec_closed_form(E, F, &b[0]);
        if (r) return r < 0 ? -1 : 0;
    }
    int *idx = xcalloc((size_t)nb, sizeof *idx), cnt = 0, rc = 0;
    for (int i = 0; i < nb; i++) {
        if (b[i].rhs->k == CE_FUN) set_slot(F, b[i].pat.slot[0], closure(F, b[i].rhs));
        else { set_slot(F, b[i].pat.slot[0], &EMPTY_V); idx[cnt++] = i; }
    }
    val **nv = xcalloc((size_t)nb, sizeof *nv), **old = xcalloc((size_t)nb, sizeof *old);
    long cap = E->max_iter;
    for (long round = 1; cnt > 0; round++) {
        if (rec_round(E, F, b, idx, cnt, nv) < 0) { rc = -1; break; }
        stats.fix_rounds++;
        if (cap <= 0) {
            long h = 0;
            for (int q = 0; q < cnt; q++)
                h += nv[idx[q]]->k == V_SET ? E->n : (long)E->n * E->n;
            cap = h + 1;
        }
        for (int q = 0; q < cnt; q++) old[idx[q]] = F->slot[b[idx[q]].pat.slot[0]];
        if (implied(E, nv, old, idx, cnt)) {
            for (int q = 0; q < cnt; q++) v_drop(nv[idx[q]]);
            break;
        }
        for (int q = 0; q < cnt; q++) set_slot(F, b[idx[q]].pat.slot[0], nv[idx[q]]);
        if (round >= cap) { stats.fix_capped++; break; }
    }
    free(idx); free(nv); free(old);
    return rc;
}

static int do_let(ev_t *E, frame *F, int rec, const cat_bind *b, int nb)
{
    if (rec) return letrec(E, F, b, nb);
    val **v = xcalloc((size_t)nb, sizeof *v);
    int rc = 0;
    for (int i = 0; i < nb && rc == 0; i++)
        if (!(v[i] = eval(E, F, b[i].rhs))) rc = -1;
    for (int i = 0; i < nb; i++) {
        if (rc == 0 && bind_pat(E, F, &b[i].pat, v[i], b[i].rhs) < 0) rc = -1;
        v_drop(v[i]);
    }
    free(v);
    return rc;
}

static void clear_pat(frame *F, const cat_pat *p)
{
    if (F->captured) return;
    for (int k = 0; k < p->n; k++) set_slot(F, p->slot[k], NULL);
}

static val *let_in(ev_t *E, frame *F, const cat_expr *x)
{
    if (do_let(E, F, x->rec, x->binds, x->n) < 0) return NULL;
    val *r = eval(E, F, x->a);
    for (int i = 0; i < x->n; i++) clear_pat(F, &x->binds[i].pat);
    return r;
}

/* ---------- match, try ---------- */

static val *match_tag(ev_t *E, frame *F, const cat_expr *x)
{
    val *s = eval(E, F, x->a);
    if (!s) return NULL;
    if (s->k != V_TAG) {
        type_err(E, x->a, s, "a tag", "the value matched by the clauses 'tag ->'");
        v_drop(s);
        return NULL;
    }
    int tag = s->i;
    v_drop(s);
    for (int i = 0; i < x->n; i++)
        if (x->tags[i] == tag) return eval(E, F, x->v[i]);
    if (x->b) return eval(E, F, x->b);
    return FAIL(E, x, "found the tag '%s, expected one of the tags of the match's clauses",
                E->m->tags[tag].name);
}

/* the first member of a set of events or relation whose members are all known */
static int first_member(ev_t *E, const val *s, int *first)
{
    int sz = size_of(s, E->n);
    *first = -1;
    for (int k = 0; k < sz; k++) {
        Z3_ast x = entry(s, k);
        if (x && x != E->e->T) return -1;
        if (x && *first < 0) *first = k;
    }
    return 0;
}

static val *match_set(ev_t *E, frame *F, const cat_expr *x)
{
    val *s = eval(E, F, x->a), *elt = NULL, *rest = NULL;
    if (!s) return NULL;
    int k = -1;
    if (s->k == V_VSET && s->n) {
        elt = v_ref(s->v[0]);
        val **v = xcalloc((size_t)s->n, sizeof *v);
        for (int i = 1; i < s->n; i++) v[i - 1] = v_ref(s->v[i]);
        rest = vset_of(v, s->n - 1);
        free(v);
    } else if (s->k == V_SET || s->k == V_REL) {
        if (first_member(E, s, &k) < 0) {
            type_err(E, x->a, s, "one whose members are known", "a match takes a member out of "
                     "a set; here membership depends on the execution");
            v_drop(s);
            return NULL;
        }
        if (k >= 0) {
            elt = v_new(s->k == V_SET ? V_EVENT : V_PAIR);
            elt->i = s->k == V_SET ? k : k / E->n;
            elt->j = s->k == V_SET ? 0 : k % E->n;
            rest = s->k == V_SET ? v_set(rset_copy(&s->s)) : v_rel(rel_copy(&s->r));
            if (s->k == V_SET) rest->s.v[k] = NULL; else rest->r.m[k] = NULL;
        }
    } else if (s->k != V_EMPTY && s->k != V_VSET) {
        type_err(E, x->a, s, "a set", "the value matched by the clauses '{} ->' and 'x ++ s ->'");
        v_drop(s);
        return NULL;
    }
    v_drop(s);
    if (!elt) return eval(E, F, x->b);
    set_slot(F, x->s1, elt);
    set_slot(F, x->s2, rest);
    val *r = eval(E, F, x->c);
    if (!F->captured) { set_slot(F, x->s1, NULL); set_slot(F, x->s2, NULL); }
    return r;
}

/* ---------- the evaluator ---------- */

/* both operands, then op(x, a, b) */
static val *binary(ev_t *E, frame *F, const cat_expr *x,
                   val *(*op)(ev_t *, const cat_expr *, val *, val *))
{
    val *a = eval(E, F, x->a);
    if (!a) return NULL;
    val *b = eval(E, F, x->b);
    if (!b) { v_drop(a); return NULL; }
    val *r = op(E, x, a, b);
    v_drop(a);
    v_drop(b);
    return r;
}

static val *unary(ev_t *E, frame *F, const cat_expr *x)
{
    val *a = eval(E, F, x->a);
    if (!a) return NULL;
    val *r = x->k == CE_COMPL ? complement(E, x, a)
           : x->k == CE_BRACKET ? bracket(E, x, x->a, a) : postfix(E, x, a);
    v_drop(a);
    return r;
}

static val *app(ev_t *E, const cat_expr *x, val *f, val *arg) { return apply(E, x, f, arg); }

static val *eval_node(ev_t *E, frame *F, const cat_expr *x)
{
    switch (x->k) {
    case CE_EMPTY: return &EMPTY_V;
    case CE_VAR: {
        frame *f = F;
        for (int i = 0; i < x->up; i++) f = f->parent;
        if (!f->slot[x->slot])
            return FAIL(E, x, "found '%s' before its value is known, expected a name whose "
                        "value is defined", x->name);
        return v_ref(f->slot[x->slot]);
    }
    case CE_BASE: return get_base(E, x, x->idx);
    case CE_PRIM: return prim_value(E, x);
    case CE_TAG: { val *v = v_new(V_TAG); v->i = x->idx; return v; }
    case CE_UNION: case CE_INTER: case CE_DIFF: return binary(E, F, x, setop_vals);
    case CE_SEQ: case CE_CROSS: return binary(E, F, x, seq_cross);
    case CE_ADD: return binary(E, F, x, add_elem);
    case CE_INV: case CE_PLUS: case CE_STAR: case CE_OPT: case CE_COMPL: case CE_BRACKET:
        return unary(E, F, x);
    case CE_APP: return binary(E, F, x, app);
    case CE_TUPLE: return tuple(E, F, x);
    case CE_SETLIT: return set_literal(E, F, x);
    case CE_FUN: return closure(F, x);
    case CE_LET: return let_in(E, F, x);
    case CE_MATCH_TAG: return match_tag(E, F, x);
    case CE_MATCH_SET: return match_set(E, F, x);
    case CE_TRY: {
        val *v = eval(E, F, x->a);
        if (v || E->fatal) return v;
        return eval(E, F, x->b);
    }
    }
    return FAIL(E, x, "found an unknown expression, expected one");
}

static val *eval(ev_t *E, frame *F, const cat_expr *x)
{
    if (E->fatal) return NULL;
    if (++E->steps > MAX_STEPS) {
        E->fatal = 1;
        return FAIL(E, x, "found an evaluation longer than %ld steps, expected one that ends",
                    MAX_STEPS);
    }
    if (E->depth >= MAX_DEPTH) {
        E->fatal = 1;
        return FAIL(E, x, "found a recursion deeper than %d, expected one that ends", MAX_DEPTH);
    }
    E->depth++;
    val *v = eval_node(E, F, x);
    E->depth--;
    return v;
}

/* ---------- instructions ---------- */

static int exec_block(ev_t *E, frame *F, const cat_block *b, int top);

static int add_check(ev_t *E, const cat_instr *in, val *v)
{
    char where[48];
    snprintf(where, sizeof where, "the operand of '%s'", cat_check_kind_name(in->check));
    rel r;
    if (v->k == V_REL && v->refs == 1) {   /* nobody else holds it: take the matrix */
        r = v->r;
        v->r.m = NULL;
    } else if (is_rellike(v) || v->k == V_EMPTY) {
        relref rr;
        get_rel(E, v, &rr);
        r = rr.tmp.m ? rr.tmp : rel_copy(rr.p);
    } else if (is_setlike(v) && in->check == CAT_EMPTY) {
        setref sr;
        get_set(E, v, &sr);
        r = rel_ident(sr.p);
        set_done(&sr);
    } else {
        type_err(E, in->e, v, in->check == CAT_EMPTY ? "a relation or a set of events"
                                                      : "a relation", where);
        return -1;
    }
    if (E->nchk == E->capchk) {
        E->capchk = E->capchk ? E->capchk * 2 : 16;
        cat_check *nc = xrealloc(E->chk, (size_t)E->capchk * sizeof *nc);
        E->chk = nc;
    }
    cat_check *c = &E->chk[E->nchk++];
    memset(c, 0, sizeof *c);
    c->kind = in->check;
    c->negated = in->negated;
    c->flag = in->flag;
    c->undefined_unless = in->undef;
    c->name = in->as ? in->as : E->call_as;
    c->file = E->m->files[in->file];
    c->line = in->line;
    c->col = in->col;
    c->site = in->site;
    c->r = r;
    return 0;
}

static int exec_call(ev_t *E, frame *F, const cat_instr *in)
{
    val *f = eval(E, F, in->e);
    if (!f) return -1;
    char buf[64];
    if (f->k != V_PROC) {
        FAIL(E, in->e, "found %s, expected a procedure (after 'call')",
             describe(f, buf, sizeof buf));
        v_drop(f);
        return -1;
    }
    val *arg = eval(E, F, in->arg);
    if (!arg) { v_drop(f); return -1; }
    const cat_instr *p = f->proc;
    frame *g = frame_new(f->env, p->frame);
    const char *save = E->call_as;
    if (in->as) E->call_as = in->as;
    int rc = bind_pat(E, g, &p->pat, arg, in->arg);
    if (rc == 0) rc = exec_block(E, g, &p->body, 0);
    E->call_as = save;
    frame_release(E, g);
    v_drop(arg);
    v_drop(f);
    return rc;
}

static int exec_forall(ev_t *E, frame *F, const cat_instr *in)
{
    val *s = eval(E, F, in->e);
    if (!s) return -1;
    int rc = 0, sz = size_of(s, E->n), first;
    if (s->k != V_EMPTY && s->k != V_VSET && s->k != V_SET && s->k != V_REL) {
        type_err(E, in->e, s, "a set", "the set 'forall' iterates over");
        rc = -1;
    } else if ((s->k == V_SET || s->k == V_REL) && first_member(E, s, &first) < 0) {
        type_err(E, in->e, s, "one whose members are known", "'forall' iterates over the "
                 "members; here membership depends on the execution");
        rc = -1;
    }
    int count = s->k == V_VSET ? s->n : sz;
    for (int k = 0; k < count && rc == 0; k++) {
        val *elt;
        if (s->k == V_VSET) elt = v_ref(s->v[k]);
        else if (!entry(s, k)) continue;
        else {
            elt = v_new(s->k == V_SET ? V_EVENT : V_PAIR);
            elt->i = s->k == V_SET ? k : k / E->n;
            elt->j = s->k == V_SET ? 0 : k % E->n;
        }
        frame *g = frame_new(F, in->frame);
        set_slot(g, in->pat.slot[0], elt);
        rc = exec_block(E, g, &in->body, 0);
        frame_release(E, g);
    }
    v_drop(s);
    return rc;
}

static int exec_instr(ev_t *E, frame *F, const cat_instr *in)
{
    switch (in->k) {
    case CI_LET: return do_let(E, F, in->rec, in->binds, in->nb);
    case CI_CHECK: {
        val *v = eval(E, F, in->e);
        if (!v) return -1;
        int rc = add_check(E, in, v);
        v_drop(v);
        return rc;
    }
    case CI_PROC: {
        val *v = v_new(V_PROC);
        v->proc = in;
        v->env = F;
        capture(F);
        set_slot(F, in->slot, v);
        return 0;
    }
    case CI_CALL: return exec_call(E, F, in);
    case CI_ENUM: {
        val **v = xcalloc((size_t)in->ntags, sizeof *v);
        for (int i = 0; i < in->ntags; i++) { v[i] = v_new(V_TAG); v[i]->i = in->tags[i]; }
        set_slot(F, in->slot, vset_of(v, in->ntags));
        free(v);
        return 0;
    }
    case CI_FORALL: return exec_forall(E, F, in);
    }
    return -1;
}

static int exec_block(ev_t *E, frame *F, const cat_block *b, int top)
{
    const cat_prog *p = E->p;
    for (int i = 0; i < b->n; i++) {
        if (top) E->top_index = i;
        if (exec_instr(E, F, &b->v[i]) < 0) return -1;
        if (top && p->drop_start)   /* values no later instruction reads */
            for (int k = p->drop_start[i]; k < p->drop_start[i + 1]; k++)
                set_slot(F, p->drop[k], NULL);
    }
    return 0;
}

/* ---------- last uses of the top-level slots ---------- */

typedef struct { int *last; int instr; } uses;

static void use_pat(uses *U, const cat_pat *p, int depth)
{
    for (int k = 0; depth == 0 && k < p->n; k++)
        if (U->last[p->slot[k]] != -1) U->last[p->slot[k]] = U->instr;
}

/* depth: frames between the expression's and the top level (function bodies, procedures,
 * forall); a top-level slot read at depth > 0 may be read whenever the function is called */
static void use_expr(uses *U, const cat_expr *x, int depth)
{
    if (!x) return;
    if (x->k == CE_VAR && x->up == depth) {
        if (depth > 0) U->last[x->slot] = -1;
        else if (U->last[x->slot] != -1) U->last[x->slot] = U->instr;
    }
    int inner = x->k == CE_FUN ? depth + 1 : depth;
    use_expr(U, x->a, inner);
    use_expr(U, x->b, depth);
    use_expr(U, x->c, depth);
    for (int i = 0; i < x->n && (x->k == CE_TUPLE || x->k == CE_SETLIT || x->k == CE_MATCH_TAG);
         i++)
        use_expr(U, x->v[i], depth);
    if (x->k == CE_LET)
        for (int i = 0; i < x->n; i++) {
            use_pat(U, &x->binds[i].pat, depth);
            use_expr(U, x->binds[i].rhs, depth);
        }
    if (x->k == CE_MATCH_SET && depth == 0) {
        if (U->last[x->s1] != -1) U->last[x->s1] = U->instr;
        if (U->last[x->s2] != -1) U->last[x->s2] = U->instr;
    }
}

static void use_block(uses *U, const cat_block *b, int depth)
{
    for (int i = 0; i < b->n; i++) {
        const cat_instr *in = &b->v[i];
        for (int k = 0; k < in->nb; k++) {
            use_pat(U, &in->binds[k].pat, depth);
            use_expr(U, in->binds[k].rhs, depth);
        }
        use_expr(U, in->e, depth);
        use_expr(U, in->arg, depth);
        if ((in->k == CI_PROC || in->k == CI_ENUM) && depth == 0 && U->last[in->slot] != -1)
            U->last[in->slot] = U->instr;
        if (in->k == CI_PROC || in->k == CI_FORALL) use_block(U, &in->body, depth + 1);
    }
}

/* for each top instruction, the top-level slots whose values it reads last */
static void plan_drops(cat_prog *p)
{
    const cat_model *m = p->m;
    int ns = m->top_frame, ni = m->top.n;
    int *last = xcalloc((size_t)ns, sizeof *last);
    for (int s = 0; s < ns; s++) last[s] = -2;   /* never used */
    uses U = { last, 0 };
    for (int i = 0; i < ni; i++) {
        U.instr = i;
        cat_block one = { 1, &m->top.v[i] };
        use_block(&U, &one, 0);
    }
    p->drop_start = xcalloc((size_t)ni + 1, sizeof *p->drop_start);
    p->drop = xcalloc((size_t)ns, sizeof *p->drop);
    int k = 0;
    for (int i = 0; i < ni; i++) {
        p->drop_start[i] = k;
        for (int s = 0; s < ns; s++)
            if (last[s] == i) p->drop[k++] = s;
    }
    p->drop_start[ni] = k;
    free(last);
}

/* ---------- evaluation, linking ---------- */

void cat_result_free(cat_result *r)
{
    for (int i = 0; i < r->n; i++) rel_free(&r->v[i].r);
    free(r->v);
    r->v = NULL;
    r->n = 0;
}

static int run(const cat_prog *p, enc *e, int n, void *ctx, int dry, const cat_eval_opts *o,
               cat_result *out, char *err, size_t errlen)
{
    ev_t E;
    memset(&E, 0, sizeof E);
    E.p = p; E.m = p->m; E.e = e; E.n = n; E.dry = dry; E.ctx = ctx;
    E.bg = o ? o->background : NULL;
    E.max_iter = o ? o->max_iter : 0;
    E.deadline = o ? o->deadline : 0;
    E.base = xcalloc((size_t)p->m->nbase, sizeof *E.base);
    memset(&stats, 0, sizeof stats);
    frame *top = frame_new(NULL, p->m->top_frame);
    int rc = exec_block(&E, top, &p->m->top, 1);
    if (rc < 0 && err && errlen) snprintf(err, errlen, "%s", E.msg);
    frame_free(top);
    while (E.captured) {
        frame *nx = E.captured->next;
        frame_free(E.captured);
        E.captured = nx;
    }
    for (int i = 0; i < p->m->nbase; i++) v_drop(E.base[i]);
    free(E.base);
    v_drop(E.univ);
    v_drop(E.idrel);
    if (E.fixs) Z3_solver_dec_ref(e->z, E.fixs);
    pool_empty();
    cat_result r = { E.nchk, E.chk };
    if (rc < 0 || !out) {
        cat_result_free(&r);
        return rc;
    }
    for (int i = 0; i < r.n; i++)
        if (!r.v[i].name) {
            snprintf(r.v[i].gen, sizeof r.v[i].gen, "%s#%d", cat_check_kind_name(r.v[i].kind),
                     i + 1);
            r.v[i].name = r.v[i].gen;
        }
    *out = r;
    return 0;
}

int cat_eval(const cat_prog *p, enc *e, int n, void *ctx, const cat_eval_opts *opts,
             cat_result *out, char *err, size_t errlen)
{
    out->n = 0;
    out->v = NULL;
    return run(p, e, n < 0 ? 0 : n, ctx, 0, opts, out, err, errlen);
}

cat_prog *cat_link(const cat_model *m, const cat_engine *eng, void *ctx, char *err,
                   size_t errlen)
{
    cat_prog *p = xcalloc(1, sizeof *p);
    p->m = m;
    p->eng = *eng;
    p->ids = xcalloc((size_t)m->nbase, sizeof *p->ids);
    p->kinds = xcalloc((size_t)m->nbase, sizeof *p->kinds);
    for (int i = 0; i < m->nbase; i++) {
        p->kinds[i] = CAT_REL;
        p->ids[i] = eng->lookup ? eng->lookup(ctx, m->base[i].name, &p->kinds[i]) : -1;
        if (p->ids[i] >= 0 && p->kinds[i] != CAT_SET && p->kinds[i] != CAT_REL) p->ids[i] = -1;
    }
    if (p->ids[0] < 0 || p->kinds[0] != CAT_SET) {
        if (err && errlen)
            snprintf(err, errlen, "%s: the engine provides no universe set '_', which cat needs",
                     m->files[0]);
        cat_prog_free(p);
        return NULL;
    }
    plan_drops(p);
    enc dummy;
    memset(&dummy, 0, sizeof dummy);
    if (run(p, &dummy, 0, ctx, 1, NULL, NULL, err, errlen) < 0) {
        cat_prog_free(p);
        return NULL;
    }
    return p;
}

void cat_prog_free(cat_prog *p)
{
    if (!p) return;
    free(p->ids);
    free(p->kinds);
    free(p->drop_start);
    free(p->drop);
    free(p);
}

const cat_model *cat_prog_model(const cat_prog *p) { return p->m; }
