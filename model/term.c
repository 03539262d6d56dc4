/* model/term.c — the term store (model/term.h): hash-consed bit-vector terms with constant
 * folding and the few rewrites that keep a thread's values small (a masked zero-extension is
 * the value itself, x == k on an extended value is a comparison of the value, ...), their C
 * semantics (mt_apply, one switch), and value sets over the variables' domains. */
#include "model/term.h"
#include "ptx/isa.h"
#include "base/alloc.h"
#include <stdlib.h>
#include <string.h>

static uint64_t wmask(unsigned w) { return w >= 64 ? ~0ull : (1ull << w) - 1; }
static int64_t sext(uint64_t v, unsigned w) { return (int64_t)isa_sext(v, w); }

uint64_t mt_apply(mt_op op, unsigned w, unsigned lo, unsigned aw, uint64_t a, uint64_t b,
                  uint64_t c)
{
    uint64_t m = wmask(w), r = 0;
    switch (op) {
    case MT_ZEXT: r = a; break;
    case MT_SEXT: r = w <= aw ? a : (uint64_t)sext(a, aw); break;
    case MT_EXTRACT: r = lo >= 64 ? 0 : a >> lo; break;
    case MT_NOT: r = ~a; break;
    case MT_NEG: r = 0 - a; break;
    case MT_ADD: r = a + b; break;
    case MT_SUB: r = a - b; break;
    case MT_MUL: r = a * b; break;
    case MT_AND: r = a & b; break;
    case MT_OR: r = a | b; break;
    case MT_XOR: r = a ^ b; break;
    case MT_SHL: r = b >= w ? 0 : a << b; break;
    case MT_LSHR: r = b >= w ? 0 : a >> b; break;
    case MT_ASHR: r = (uint64_t)(sext(a, w) >> (b >= w ? w - 1 : b)); break;
    case MT_EQ: r = a == b; break;
    case MT_ULT: r = a < b; break;
    case MT_SLT: r = sext(a, aw) < sext(b, aw); break;
    case MT_ITE: r = (a & 1) ? b : c; break;
    case MT_FADD32: isa_atom_apply(ISA_ATOM_ADD, ISA_T_F32, a, b, 0, &r); break;
    default: break;
    }
    return r & m;
}

/* ---------- the store ---------- */

static unsigned hash_node(const mt_node *x)
{
    uint64_t h = x->op * 0x9e3779b97f4a7c15ull ^ x->w * 0xc2b2ae3d27d4eb4full ^ x->lo;
    h = (h ^ (uint64_t)(unsigned)x->a) * 0x100000001b3ull;
    h = (h ^ (uint64_t)(unsigned)x->b) * 0x100000001b3ull;
    h = (h ^ (uint64_t)(unsigned)x->c) * 0x100000001b3ull;
    h = (h ^ x->k) * 0xff51afd7ed558ccdull;
    return (unsigned)(h ^ (h >> 29));
}

static int same_node(const mt_node *x, const mt_node *y)
{
    return x->op == y->op && x->w == y->w && x->lo == y->lo && x->a == y->a && x->b == y->b &&
           x->c == y->c && x->k == y->k;
}

static void rehash(mterms *s, unsigned cap)
{
    free(s->tab);
    s->tab = xmalloc(cap * sizeof *s->tab);
    memset(s->tab, 0xff, cap * sizeof *s->tab);
    s->tcap = cap;
    for (int i = 0; i < s->nn; i++) {
        unsigned h = hash_node(&s->n[i]) & (cap - 1);
        while (s->tab[h] >= 0) h = (h + 1) & (cap - 1);
        s->tab[h] = i;
    }
}

static int intern(mterms *s, mt_node x)
{
    unsigned h = hash_node(&x) & (s->tcap - 1);
    for (; s->tab[h] >= 0; h = (h + 1) & (s->tcap - 1))
        if (same_node(&s->n[s->tab[h]], &x)) return s->tab[h];
    if (s->nn == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 256;
        s->n = xrealloc(s->n, (size_t)s->cap * sizeof *s->n);
    }
    int id = s->nn++;
    s->n[id] = x;
    s->tab[h] = id;
    s->bytes += sizeof x + 2 * sizeof(int);
    if ((unsigned)s->nn * 2 > s->tcap) rehash(s, s->tcap * 2);
    return id;
}

void mt_init(mterms *s)
{
    memset(s, 0, sizeof *s);
    rehash(s, 1024);
    s->F = mt_const(s, 1, 0);
    s->T = mt_const(s, 1, 1);
}

void mt_free(mterms *s)
{
    free(s->n);
    free(s->tab);
    free(s->var);
    memset(s, 0, sizeof *s);
}

int mt_const(mterms *s, unsigned w, uint64_t v)
{
    return intern(s, (mt_node){ MT_CONST, (uint8_t)w, 0, -1, -1, -1, v & wmask(w) });
}

int mt_var(mterms *s, unsigned w, mt_varinfo info)
{
    if (s->nvar == s->capvar) {
        s->capvar = s->capvar ? 2 * s->capvar : 64;
        s->var = xrealloc(s->var, (size_t)s->capvar * sizeof *s->var);
    }
    s->var[s->nvar] = info;
    s->bytes += sizeof info;
    return intern(s, (mt_node){ MT_VAR, (uint8_t)w, 0, -1, -1, -1, (uint64_t)s->nvar++ });
}

/* a node of constants is its value */
static int mk(mterms *s, mt_op op, unsigned w, unsigned lo, int a, int b, int c)
{
    int ca = a < 0 || mt_is_const(s, a), cb = b < 0 || mt_is_const(s, b),
        cc = c < 0 || mt_is_const(s, c);
    if (ca && cb && cc)
        return mt_const(s, w,
                        mt_apply(op, w, lo, a >= 0 ? s->n[a].w : 0, a >= 0 ? s->n[a].k : 0,
                                 b >= 0 ? s->n[b].k : 0, c >= 0 ? s->n[c].k : 0));
    return intern(s, (mt_node){ (uint8_t)op, (uint8_t)w, (uint8_t)lo, a, b, c, 0 });
}

/* how many low bits of t may be non-zero */
static unsigned sig_bits(const mterms *s, int t)
{
    const mt_node *x = &s->n[t];
    if (x->op == MT_CONST) return x->k ? 64 - (unsigned)__builtin_clzll(x->k) : 0;
    if (x->op == MT_ZEXT) return s->n[x->a].w < x->w ? s->n[x->a].w : x->w;
    if (x->op == MT_AND) {
        unsigned p = sig_bits(s, x->a), q = sig_bits(s, x->b);
        return p < q ? p : q;
    }
    if (x->op == MT_EQ || x->op == MT_ULT || x->op == MT_SLT) return 1;
    return x->w;
}

int mt_extract(mterms *s, unsigned w, unsigned lo, int a)
{
    const mt_node *x = &s->n[a];
    if (lo == 0 && w == x->w) return a;
    if (x->op == MT_EXTRACT) return mt_extract(s, w, lo + x->lo, x->a);
    if (lo == 0 && (x->op == MT_ZEXT || x->op == MT_SEXT)) {
        int in = x->a;
        unsigned iw = s->n[in].w;
        if (w == iw) return in;
        if (w < iw) return mt_extract(s, w, 0, in);
        return mt_op1(s, (mt_op)x->op, w, in);
    }
    if (x->op == MT_ZEXT && lo >= s->n[x->a].w) return mt_const(s, w, 0);
    return mk(s, MT_EXTRACT, w, lo, a, -1, -1);
}

int mt_op1(mterms *s, mt_op op, unsigned w, int a)
{
    const mt_node *x = &s->n[a];
    switch (op) {
    case MT_ZEXT: case MT_SEXT:
        if (w == x->w) return a;
        if (w < x->w) return mt_extract(s, w, 0, a);
        if (x->op == op && x->w > s->n[x->a].w) return mt_op1(s, op, w, x->a);
        if (op == MT_SEXT && x->op == MT_ZEXT && x->w > s->n[x->a].w)
            return mt_op1(s, MT_ZEXT, w, x->a);
        return mk(s, op, w, 0, a, -1, -1);
    case MT_NOT:
        if (x->op == MT_NOT) return x->a;
        return mk(s, op, x->w, 0, a, -1, -1);
    default:
        return mk(s, op, x->w, 0, a, -1, -1);
    }
}

static int is_k(const mterms *s, int t, uint64_t k)
{
    return mt_is_const(s, t) && s->n[t].k == (k & wmask(s->n[t].w));
}

/* x == k where x is an extension of a narrower value */
static int eq_ext(mterms *s, int a, int b)
{
    const mt_node *x = &s->n[a];
    unsigned iw = s->n[x->a].w;
    uint64_t k = s->n[b].k, low = k & wmask(iw);
    uint64_t back = x->op == MT_ZEXT ? low : (uint64_t)sext(low, iw) & wmask(x->w);
    if (back != k) return s->F;
    return mt_op2(s, MT_EQ, x->a, mt_const(s, iw, low));
}

int mt_op2(mterms *s, mt_op op, int a, int b)
{
    unsigned w = s->n[a].w;
    int comm = op == MT_ADD || op == MT_MUL || op == MT_AND || op == MT_OR || op == MT_XOR ||
               op == MT_EQ;
    if (comm && mt_is_const(s, a) && !mt_is_const(s, b)) { int t = a; a = b; b = t; }
    uint64_t m = wmask(w);
    switch (op) {
    case MT_ADD: case MT_SUB: case MT_OR: case MT_XOR: case MT_SHL: case MT_LSHR: case MT_ASHR:
        if (is_k(s, b, 0)) return a;
        if (a == b && (op == MT_SUB || op == MT_XOR)) return mt_const(s, w, 0);
        if (a == b && op == MT_OR) return a;
        if (op == MT_OR && is_k(s, b, m)) return b;
        break;
    case MT_MUL:
        if (is_k(s, b, 1)) return a;
        if (is_k(s, b, 0)) return b;
        break;
    case MT_AND:
        if (is_k(s, b, 0) || a == b) return b;
        if (mt_is_const(s, b) && (s->n[b].k & (s->n[b].k + 1)) == 0) {   /* a low mask */
            unsigned n = s->n[b].k == m ? w : (unsigned)__builtin_popcountll(s->n[b].k);
            if (sig_bits(s, a) <= n) return a;
            const mt_node *x = &s->n[a];
            if (x->op == MT_ZEXT && n < s->n[x->a].w)
                return mt_op1(s, MT_ZEXT, w, mt_extract(s, n, 0, x->a));
        }
        break;
    case MT_EQ:
        if (a == b) return s->T;
        if (mt_is_const(s, b) && !mt_is_const(s, a)) {
            const mt_node *x = &s->n[a];
            if ((x->op == MT_ZEXT || x->op == MT_SEXT) && x->w > s->n[x->a].w)
                return eq_ext(s, a, b);
            if (w == 1) return s->n[b].k ? a : mt_not1(s, a);
        }
        return mk(s, op, 1, 0, a, b, -1);
    case MT_ULT: case MT_SLT:
        if (a == b) return s->F;
        return mk(s, op, 1, 0, a, b, -1);
    default: break;
    }
    return mk(s, op, w, 0, a, b, -1);
}

int mt_ite(mterms *s, int c, int a, int b)
{
    if (c == s->T || a == b) return a;
    if (c == s->F) return b;
    if (s->n[a].w == 1 && a == s->T && b == s->F) return c;
    if (s->n[a].w == 1 && a == s->F && b == s->T) return mt_not1(s, c);
    if (s->n[c].op == MT_NOT) return mt_ite(s, s->n[c].a, b, a);
    return mk(s, MT_ITE, s->n[a].w, 0, c, a, b);
}

int mt_not1(mterms *s, int a) { return mt_op1(s, MT_NOT, 1, a); }
int mt_and1(mterms *s, int a, int b) { return mt_op2(s, MT_AND, a, b); }
int mt_or1(mterms *s, int a, int b) { return mt_op2(s, MT_OR, a, b); }
int mt_ne(mterms *s, int a, int b) { return mt_not1(s, mt_op2(s, MT_EQ, a, b)); }
int mt_ule(mterms *s, int a, int b) { return mt_not1(s, mt_op2(s, MT_ULT, b, a)); }
int mt_sle(mterms *s, int a, int b) { return mt_not1(s, mt_op2(s, MT_SLT, b, a)); }

int mt_mask(mterms *s, int a, unsigned bits)
{
    unsigned w = s->n[a].w;
    return bits >= w ? a : mt_op2(s, MT_AND, a, mt_const(s, w, wmask(bits)));
}

int mt_value_as(mterms *s, int t, int a)
{
    unsigned n = isa_type_bits((isa_type)t);
    if (!n || n >= 64 || t == ISA_T_PRED) return a;
    int low = mt_extract(s, n, 0, a);
    return mt_op1(s, isa_type_is_signed((isa_type)t) ? MT_SEXT : MT_ZEXT, 64, low);
}

/* ---------- evaluation ---------- */

/* the sub-terms of roots[0..nr), ascending (operands come before the nodes using them) */
typedef struct { int *v; int n, cap; } idset;

static int ids_has(const idset *x, int id)
{
    int lo = 0, hi = x->n - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (x->v[mid] == id) return mid;
        if (x->v[mid] < id) lo = mid + 1; else hi = mid - 1;
    }
    return -1;
}

static void collect(const mterms *s, int t, idset *x)
{
    /* iterative DFS; x kept unsorted until the end, a mark array would cost nn per call */
    int *stack = xmalloc(64 * sizeof *stack), sp = 0, cap = 64;
    stack[sp++] = t;
    while (sp) {
        int id = stack[--sp];
        int seen = 0;
        for (int i = 0; i < x->n && !seen; i++) seen = x->v[i] == id;
        if (seen) continue;
        if (x->n == x->cap) {
            x->cap = x->cap ? 2 * x->cap : 32;
            x->v = xrealloc(x->v, (size_t)x->cap * sizeof *x->v);
        }
        x->v[x->n++] = id;
        const mt_node *nd = &s->n[id];
        int ops[3] = { nd->a, nd->b, nd->c };
        for (int k = 0; k < 3; k++) {
            if (nd->op == MT_CONST || nd->op == MT_VAR || ops[k] < 0) continue;
            if (sp + 1 >= cap) { cap *= 2; stack = xrealloc(stack, (size_t)cap * sizeof *stack); }
            stack[sp++] = ops[k];
        }
    }
    free(stack);
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* evaluate the nodes of x (ascending) into out[], variables from val (indexed like x->v of
   the variables) */
static void eval_set(const mterms *s, const idset *x, const uint64_t *varval, uint64_t *out)
{
    for (int i = 0; i < x->n; i++) {
        const mt_node *nd = &s->n[x->v[i]];
        if (nd->op == MT_CONST) { out[i] = nd->k; continue; }
        if (nd->op == MT_VAR) { out[i] = varval[i]; continue; }
        uint64_t a = nd->a >= 0 ? out[ids_has(x, nd->a)] : 0,
                 b = nd->b >= 0 ? out[ids_has(x, nd->b)] : 0,
                 c = nd->c >= 0 ? out[ids_has(x, nd->c)] : 0;
        out[i] = mt_apply((mt_op)nd->op, nd->w, nd->lo, nd->a >= 0 ? s->n[nd->a].w : 0, a, b, c);
    }
}

uint64_t mt_eval(const mterms *s, int t, const uint64_t *val)
{
    idset x = { 0 };
    collect(s, t, &x);
    qsort(x.v, (size_t)x.n, sizeof *x.v, cmp_int);
    uint64_t *vv = xcalloc((size_t)x.n, sizeof *vv), *out = xcalloc((size_t)x.n, sizeof *out);
    for (int i = 0; i < x.n; i++)
        if (s->n[x.v[i]].op == MT_VAR) vv[i] = val[s->n[x.v[i]].k];
    eval_set(s, &x, vv, out);
    uint64_t r = out[ids_has(&x, t)];
    free(vv); free(out); free(x.v);
    return r;
}

int mt_vars(const mterms *s, int t, int *vars, int n, int cap)
{
    idset x = { 0 };
    collect(s, t, &x);
    for (int i = 0; i < x.n; i++) {
        if (s->n[x.v[i]].op != MT_VAR) continue;
        int v = (int)s->n[x.v[i]].k, seen = 0;
        for (int j = 0; j < n && !seen; j++) seen = vars[j] == v;
        if (!seen && n < cap) vars[n++] = v;
    }
    free(x.v);
    return n;
}

static int shares(const int *a, int na, const int *b, int nb)
{
    for (int i = 0; i < na; i++)
        for (int j = 0; j < nb; j++) if (a[i] == b[j]) return 1;
    return 0;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

enum { MAX_VARS = 24, MAX_COMBOS = 65536 };

/* the guards that share variables with t, transitively: their indexes into *use */
static int relevant(const mterms *s, int t, const int *guards, int ng, int *vars, int *nv,
                    int **use)
{
    int nu = 0, changed = 1;
    *use = xcalloc((size_t)(ng ? ng : 1), sizeof **use);
    unsigned char *in = xcalloc((size_t)(ng ? ng : 1), 1);
    *nv = mt_vars(s, t, vars, 0, MAX_VARS + 1);
    while (changed && *nv <= MAX_VARS) {
        changed = 0;
        for (int g = 0; g < ng; g++) {
            if (in[g]) continue;
            int gv[MAX_VARS + 1];
            int ngv = mt_vars(s, guards[g], gv, 0, MAX_VARS + 1);
            if (!ngv || !shares(gv, ngv, vars, *nv)) continue;
            in[g] = 1;
            (*use)[nu++] = guards[g];
            *nv = mt_vars(s, guards[g], vars, *nv, MAX_VARS + 1);
            changed = 1;
        }
    }
    free(in);
    return nu;
}

int mt_values(const mterms *s, int t, const int *guards, int ng, mt_domain_fn dom, void *ctx,
              uint64_t **out, int max)
{
    *out = NULL;
    if (mt_is_const(s, t)) {
        *out = xmalloc(sizeof **out);
        (*out)[0] = s->n[t].k;
        return 1;
    }
    int vars[MAX_VARS + 1], nv, *use;
    int nu = relevant(s, t, guards, ng, vars, &nv, &use);
    int rc = -1;
    uint64_t **dv = xcalloc(MAX_VARS + 1, sizeof *dv);
    int dn[MAX_VARS + 1];
    long combos = 1;
    idset x = { 0 };
    uint64_t *vv = NULL, *val = NULL, *res = NULL;
    if (nv > MAX_VARS) goto done;
    for (int i = 0; i < nv; i++) {
        dn[i] = dom(ctx, &s->var[vars[i]], &dv[i]);
        if (dn[i] < 0 || (combos *= dn[i] ? dn[i] : 1) > MAX_COMBOS) goto done;
        if (!dn[i]) { rc = 0; goto done; }   /* a read that reads nothing: no value */
    }
    collect(s, t, &x);
    for (int g = 0; g < nu; g++) collect(s, use[g], &x);
    qsort(x.v, (size_t)x.n, sizeof *x.v, cmp_int);
    int *gpos = xcalloc((size_t)(nu ? nu : 1), sizeof *gpos), tpos = ids_has(&x, t);
    for (int g = 0; g < nu; g++) gpos[g] = ids_has(&x, use[g]);
    int *vpos = xcalloc((size_t)(nv ? nv : 1), sizeof *vpos);   /* var i -> its position in x */
    for (int i = 0; i < x.n; i++)
        if (s->n[x.v[i]].op == MT_VAR)
            for (int j = 0; j < nv; j++) if ((int)s->n[x.v[i]].k == vars[j]) vpos[j] = i;
    vv = xcalloc((size_t)x.n, sizeof *vv);
    val = xcalloc((size_t)x.n, sizeof *val);
    res = xmalloc((size_t)(max + 1) * sizeof *res);
    int nres = 0;
    rc = 0;
    for (long k = 0; k < combos; k++) {
        long r = k;
        for (int i = 0; i < nv; i++) { vv[vpos[i]] = dv[i][r % dn[i]]; r /= dn[i]; }
        eval_set(s, &x, vv, val);
        int ok = 1;
        for (int g = 0; g < nu && ok; g++) ok = val[gpos[g]] & 1;
        if (!ok) continue;
        int seen = 0;
        for (int i = 0; i < nres && !seen; i++) seen = res[i] == val[tpos];
        if (seen) continue;
        if (nres == max) { rc = -1; break; }
        res[nres++] = val[tpos];
    }
    free(gpos);
    free(vpos);
    if (rc == 0) {
        qsort(res, (size_t)nres, sizeof *res, cmp_u64);
        *out = res;
        res = NULL;
        rc = nres;
    }
done:
    for (int i = 0; i <= MAX_VARS; i++) free(dv[i]);
    free(dv);
    free(use);
    free(x.v);
    free(vv);
    free(val);
    free(res);
    return rc;
}

int mt_decide(const mterms *s, int t, const int *guards, int ng, mt_domain_fn dom, void *ctx)
{
    if (mt_is_const(s, t)) return (int)(s->n[t].k & 1);
    for (int g = 0; g < ng; g++) {
        if (guards[g] == t) return 1;
        if ((s->n[guards[g]].op == MT_NOT && s->n[guards[g]].a == t) ||
            (s->n[t].op == MT_NOT && s->n[t].a == guards[g]))
            return 0;
    }
    if (!dom) return -1;
    uint64_t *v;
    int n = mt_values(s, t, guards, ng, dom, ctx, &v, 2);
    int r = n == 1 ? (int)(v[0] & 1) : n == 0 ? 0 : -1;
    free(v);
    return r;
}
