/* model/models.c — the catalogue of bundled models (model/models.h). */
#include "model/models.h"
#include <string.h>

static const struct {
    const char *name, *alias, *file;
    int cluster, proxies, dat3m;
} models[MODEL_COUNT] = {
    [MODEL_PTX] = { "ptx", "ptx-v8.4", "ptx.cat", 1, 1, 0 },
    [MODEL_PTX75] = { "ptx-v7.5", NULL, "ptx-v7.5.cat", 0, 1, 1 },
    [MODEL_PTX60] = { "ptx-v6.0", NULL, "ptx-v6.0.cat", 0, 0, 1 },
    [MODEL_RC11_SCOPED] = { "rc11-scoped", NULL, "rc11-scoped.cat", 1, 0, 0 },
};

/* every name model_parse accepts, for messages: kept beside the table (tests/test_cat.c
   checks that each parses and that each model is there) */
const char *model_choices(void)
{
    return "ptx (or ptx-v8.4), ptx-v7.5, ptx-v6.0 or rc11-scoped";
}

const char *model_name(model_kind k) { return (unsigned)k < MODEL_COUNT ? models[k].name : "?"; }
const char *model_file(model_kind k) { return (unsigned)k < MODEL_COUNT ? models[k].file : NULL; }
int model_has_cluster(model_kind k) { return (unsigned)k < MODEL_COUNT && models[k].cluster; }
int model_has_proxies(model_kind k) { return (unsigned)k < MODEL_COUNT && models[k].proxies; }
int model_dat3m_events(model_kind k) { return (unsigned)k < MODEL_COUNT && models[k].dat3m; }

int model_parse(const char *s, model_kind *k)
{
    for (int i = 0; i < MODEL_COUNT; i++)
        if (!strcmp(s, models[i].name) || (models[i].alias && !strcmp(s, models[i].alias))) {
            *k = (model_kind)i;
            return 0;
        }
    return -1;
}
