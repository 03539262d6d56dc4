/* model/execution.c — concrete executions (model/execution.h). */
#include "model/execution.h"
#include "base/alloc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

unsigned char *mexecution_add(mexecution *x, const char *name)
{
    mrelation *r = xrealloc(x->rel, (size_t)(x->nrel + 1) * sizeof *r);
    x->rel = r;
    mrelation *m = &x->rel[x->nrel++];
    snprintf(m->name, sizeof m->name, "%s", name);
    m->m = xcalloc((size_t)(x->n ? x->n : 1) * (size_t)(x->n ? x->n : 1), 1);
    return m->m;
}

const mrelation *mexecution_find(const mexecution *x, const char *name)
{
    for (int i = 0; i < x->nrel; i++)
        if (!strcmp(x->rel[i].name, name)) return &x->rel[i];
    return NULL;
}

void mexecution_free(mexecution *x)
{
    for (int i = 0; i < x->nrel; i++) free(x->rel[i].m);
    free(x->rel);
    free(x->ev);
    free(x->state);
    memset(x, 0, sizeof *x);
}
