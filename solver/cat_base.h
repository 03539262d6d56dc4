/* solver/cat_base.h — the base names of model/base.c (base_defs) as a cat engine's `lookup`
 * and `names` (solver/cat_eval.h cat_engine): shared by verify's engine (solver/query.c) and
 * check's (kcheck/consist.c), which differ only in how they compute a base value. */
#ifndef PTXLITMUS_SOLVER_CAT_BASE_H
#define PTXLITMUS_SOLVER_CAT_BASE_H
#include "solver/cat_eval.h"

/* the index of name in base_defs, with its kind; -1 when model/base.c has no such name */
int cat_base_lookup(void *ctx, const char *name, cat_kind *k);
/* every name of base_defs (at most 128) */
const char *const *cat_base_names(void *ctx, int *count);
#endif
