/* kcheck/spin.c — the spin-loop reduction ("spin-assume", as GenMC's): a loop iteration that
 * read memory, wrote none (but for atomics writing back the value they read: atomicAdd(p, 0)
 * polls), passed no barrier, read the same locations by the same instructions
 * as the iteration before, and changed every register as that iteration did (by nothing, or by
 * the same amount: an iteration counter) is a failed iteration: every further one would be the
 * same, but for the counters.  The thread is then an await: it waits at the loop for a write
 * that makes the loop exit, which the explorer provides by revisiting the awaited reads when
 * such a write is added.  So a spin of 10 000 iterations costs three.
 *
 * The executions in which a bounded spin's count runs out are not explored while another
 * thread can still write (fair scheduling makes the awaited write visible, §8.9.6 and the
 * liveness notes of docs/model.md); when every thread waits, the explorer runs the bounded
 * spins out (explore.c) to see what the kernel does then. */
#include <stdlib.h>
#include <string.h>
#include "base/alloc.h"
#include "kcheck/kspin.h"

typedef struct {
    int target, depth, n;       /* n: backward branches seen here (0..2 snapshots kept) */
    int nev[2];                 /* events executed at the last two */
    uint64_t *regs[2];          /* the lane's registers at the last two */
} snap;

typedef struct { snap *v; int n, cap; } tsnaps;

struct kspin {
    int nth, nregs;
    tsnaps *t;
    struct { int target, pc, len; } *known;   /* spin loops found (all executions) */
    int nknown;
};

kspin *ksp_new(int nth, int nregs)
{
    kspin *S = xcalloc(1, sizeof *S);
    S->nth = nth; S->nregs = nregs;
    S->t = xcalloc((size_t)nth, sizeof *S->t);
    return S;
}

void ksp_reset(kspin *S)
{
    for (int t = 0; t < S->nth; t++) S->t[t].n = 0;
}

void ksp_free(kspin *S)
{
    if (!S) return;
    for (int t = 0; t < S->nth; t++) {
        for (int k = 0; k < S->t[t].cap; k++) { free(S->t[t].v[k].regs[0]); free(S->t[t].v[k].regs[1]); }
        free(S->t[t].v);
    }
    free(S->t);
    free(S->known);
    free(S);
}

static snap *find(kspin *S, int t, int target)
{
    tsnaps *T = &S->t[t];
    for (int k = 0; k < T->n; k++) if (T->v[k].target == target) return &T->v[k];
    if (T->n == T->cap) {
        T->cap = T->cap ? 2 * T->cap : 4;
        T->v = xrealloc(T->v, (size_t)T->cap * sizeof *T->v);
        for (int k = T->n; k < T->cap; k++) T->v[k].regs[0] = T->v[k].regs[1] = NULL;
    }
    snap *s = &T->v[T->n++];
    for (int k = 0; k < 2; k++)
        if (!s->regs[k]) s->regs[k] = xmalloc((size_t)(S->nregs + 1) * sizeof *s->regs[k]);
    s->target = target; s->n = 0;
    return s;
}

int ksp_idempotent(const kgraph *g, int t, int i)
{
    if (i < 1 || i >= g->nev[t]) return 0;
    const kev *r = &g->ev[t][i - 1], *w = &g->ev[t][i];
    return w->kind == KE_W && (w->flags & KF_ATOM) && r->kind == KE_R && (r->flags & KF_PAIR) &&
           w->val == r->val;
}

/* events [a, b) and [b, c) of thread t: both only reads and fences, some read, the same
   instructions on the same locations */
static int same_failed(const kgraph *g, int t, int a, int b, int c)
{
    if (b - a != c - b || b == a) return 0;
    int reads = 0;
    for (int i = 0; i < b - a; i++) {
        const kev *x = &g->ev[t][a + i], *y = &g->ev[t][b + i];
        if (x->kind != y->kind || x->pc != y->pc || x->loc != y->loc) return 0;
        if (x->kind == KE_W && ksp_idempotent(g, t, a + i) && ksp_idempotent(g, t, b + i))
            continue;
        if (x->kind == KE_BAR && x->bmode == KB_WSYNC) continue;   /* a vote of the lanes */
        if ((x->kind != KE_R && x->kind != KE_F) ||
            ((x->flags & KF_PAIR) && !ksp_idempotent(g, t, a + i + 1)) ||
            ((y->flags & KF_PAIR) && !ksp_idempotent(g, t, b + i + 1)))
            return 0;
        reads += x->kind == KE_R;
    }
    return reads > 0;
}

int ksp_backedge(kspin *S, const kgraph *g, int t, int n, int pc, int target,
                 const uint64_t *regs, int lane, int depth, int *from, int *counts)
{
    snap *s = find(S, t, target);
    int spin = 0;
    (void)pc;
    *counts = 0;
    if (s->n >= 2 && s->depth == depth && same_failed(g, t, s->nev[0], s->nev[1], n)) {
        spin = 1;
        for (int r = 0; r < S->nregs && spin; r++) {
            uint64_t a = s->regs[0][r], b = s->regs[1][r], c = regs[(size_t)r * 32 + (unsigned)lane];
            if (c - b != b - a) spin = 0;
            else if (c != b) *counts = 1;
        }
    }
    if (s->depth != depth) s->n = 0;
    if (spin) *from = s->nev[0];
    else *from = s->n ? s->nev[s->n - 1] : n;
    if (s->n == 2) {   /* keep the last two */
        uint64_t *x = s->regs[0];
        s->regs[0] = s->regs[1]; s->regs[1] = x;
        s->nev[0] = s->nev[1];
        s->n = 1;
    }
    s->depth = depth;
    s->nev[s->n] = n;
    for (int r = 0; r < S->nregs; r++) s->regs[s->n][r] = regs[(size_t)r * 32 + (unsigned)lane];
    s->n++;
    return spin;
}

void ksp_learn(kspin *S, int target, int pc, int len)
{
    if (ksp_known(S, target, pc)) return;
    S->known = xrealloc(S->known, (size_t)(S->nknown + 1) * sizeof *S->known);
    S->known[S->nknown].target = target;
    S->known[S->nknown].pc = pc;
    S->known[S->nknown++].len = len;
}

int ksp_known(const kspin *S, int target, int pc)
{
    for (int k = 0; k < S->nknown; k++)
        if (S->known[k].target == target && S->known[k].pc == pc) return S->known[k].len;
    return 0;
}

int ksp_inside(const kspin *S, int pc, int *target, int *end)
{
    for (int k = 0; k < S->nknown; k++)
        if (S->known[k].target <= pc && pc <= S->known[k].pc) {
            *target = S->known[k].target;
            *end = S->known[k].pc;
            return 1;
        }
    return 0;
}
