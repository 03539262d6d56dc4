/* frontend/litmus_warn.c — warnings about a parsed litmus test (litmus.h, lit_warnings): a
 * condition names a register its thread never writes, or a location the initial state never
 * names.  Both read as 0, so a typo (P1:r5 for P1:r1, z for x) changes the verdict silently.
 * Before them, the parser's own (lit_test.notes): no condition at all (a file cut short reads
 * as `exists (true)`), a location or register initialised twice (the last value wins). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "frontend/litmus.h"

typedef struct {
    const lit_test *t;
    char **w;
    int n;
} warn_ctx;

static int reg_written(const lit_test *t, int th, int reg)
{
    const lit_thread *p = &t->th[th];
    for (int k = 0; k < p->nins; k++)
        for (int d = 0; d < p->ins[k].ndst && d < 2; d++)
            if (p->ins[k].dst[d].k == OPD_REG && p->ins[k].dst[d].reg == reg) return 1;
    for (int i = 0; i < t->ninit_regs; i++)
        if (t->init_regs[2 * i] == th && t->init_regs[2 * i + 1] == reg) return 1;
    return 0;
}

static void add(warn_ctx *c, const cond_ref *r, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void add(warn_ctx *c, const cond_ref *r, const char *fmt, ...)
{
    char msg[768], line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(line, sizeof line, "%s:%d:%d: warning: %s", c->t->file ? c->t->file : "<input>",
             r->line, r->col, msg);
    for (int i = 0; i < c->n; i++)   /* one warning per name and place */
        if (!strcmp(c->w[i], line)) return;
    c->w = xrealloc(c->w, (size_t)(c->n + 1) * sizeof *c->w);
    c->w[c->n++] = xstrdup(line);
}

static void check_ref(warn_ctx *c, const cond_ref *r)
{
    const lit_test *t = c->t;
    if (r->k == REF_REG && r->thread >= 0 && r->thread < t->nth) {
        if (!reg_written(t, r->thread, r->reg))
            add(c, r, "found %s, which thread %s never writes (it reads as 0), expected a "
                      "register the thread writes or the initial state sets",
                r->name, t->th[r->thread].name);
    } else if (r->k == REF_LOC && r->sym >= 0 && r->sym < t->nsym) {
        if (!t->sym[r->sym].in_init)
            add(c, r, "found the location '%s', which the initial state never declares (it "
                      "starts as 0), expected a location of the initial state",
                t->sym[r->sym].name);
    }
}

static void walk(warn_ctx *c, const cond_node *n)
{
    if (!n) return;
    switch (n->op) {
    case CN_AND: case CN_OR: walk(c, n->a); walk(c, n->b); break;
    case CN_NOT: walk(c, n->a); break;
    case CN_TRUE: case CN_FALSE: break;
    default: check_ref(c, &n->l); check_ref(c, &n->r); break;
    }
}

int lit_warnings(const lit_test *t, char ***out)
{
    warn_ctx c = { t, NULL, 0 };
    for (int i = 0; i < t->nnotes; i++) {   /* the parser's: no condition, twice initialised */
        c.w = xrealloc(c.w, (size_t)(c.n + 1) * sizeof *c.w);
        c.w[c.n++] = xstrdup(t->notes[i]);
    }
    walk(&c, t->cond);
    for (int i = 0; i < t->nlocations; i++) check_ref(&c, &t->locations[i]);
    *out = c.w;
    return c.n;
}

void lit_warnings_free(char **w, int n)
{
    for (int i = 0; i < n; i++) free(w[i]);
    free(w);
}
