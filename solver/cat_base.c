/* solver/cat_base.c — the base names of model/base.c as a cat engine's lookup and names
 * (solver/cat_base.h). */
#include "solver/cat_base.h"
#include "model/base.h"

int cat_base_lookup(void *ctx, const char *name, cat_kind *k)
{
    (void)ctx;
    const base_def *d = base_find(name);
    if (!d) return -1;
    *k = d->kind == BASE_SET ? CAT_SET : CAT_REL;
    return (int)(d - base_defs);
}

const char *const *cat_base_names(void *ctx, int *count)
{
    (void)ctx;
    static const char *names[128];
    static int n;
    if (!n) for (int i = 0; i < base_ndefs && i < 128; i++) names[n++] = base_defs[i].name;
    *count = n;
    return names;
}
