/* report/provenance.c — the provenance record of an output (provenance.h). */
#include "report/provenance.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <z3.h>

#include "base/alloc.h"
#include "base/sbuf.h"
#include "base/sha256.h"
#include "base/version.h"
#include "model/bundled.h"

#ifndef PTX_GIT_HASH
#define PTX_GIT_HASH "unknown"
#endif

typedef struct { char *name, *file, hash[65]; } prov_model;

static char **cmd;
static int ncmd;
static prov_model *models;
static int nmodels;
static char date[32];

const char *prov_git_hash(void) { return PTX_GIT_HASH; }

void prov_set_command(int argc, char **argv)
{
    for (int i = 0; i < ncmd; i++) free(cmd[i]);
    free(cmd);
    cmd = xcalloc((size_t)argc + 1, sizeof *cmd);
    for (int i = 0; i < argc; i++) cmd[i] = xstrdup(argv[i]);
    ncmd = argc;
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

void prov_add_model(const char *name, const char *file, const char *text)
{
    for (int i = 0; i < nmodels; i++)
        if (!strcmp(models[i].name, name) && !strcmp(models[i].file, file)) return;
    models = xrealloc(models, (size_t)(nmodels + 1) * sizeof *models);
    prov_model *m = &models[nmodels++];
    m->name = xstrdup(name);
    m->file = xstrdup(file);
    sha256_hex(text ? text : "", text ? strlen(text) : 0, m->hash);
}

void prov_add_bundled(model_kind k)
{
    const char *file = model_file(k), *text = NULL;
    for (int i = 0; i < model_nbundled && file; i++)
        if (!strcmp(model_bundled[i].name, file)) text = model_bundled[i].text;
    char where[128];
    snprintf(where, sizeof where, "<builtin>/%s", file ? file : "?");
    prov_add_model(model_name(k), where, text);
}

static const char *the_date(void)
{
    if (!date[0]) {
        time_t now = time(NULL);
        struct tm tm;
        gmtime_r(&now, &tm);
        strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tm);
    }
    return date;
}

cJSON *prov_json(void)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "ptxlitmus", PTXLITMUS_VERSION);
    cJSON_AddStringToObject(o, "git", PTX_GIT_HASH);
    cJSON_AddStringToObject(o, "z3", Z3_get_full_version());
    cJSON_AddStringToObject(o, "date", the_date());
    cJSON *c = cJSON_AddArrayToObject(o, "command");
    for (int i = 0; i < ncmd; i++) cJSON_AddItemToArray(c, cJSON_CreateString(cmd[i]));
    cJSON *ms = cJSON_AddArrayToObject(o, "models");
    for (int i = 0; i < nmodels; i++) {
        cJSON *m = cJSON_CreateObject();
        cJSON_AddStringToObject(m, "name", models[i].name);
        cJSON_AddStringToObject(m, "file", models[i].file);
        cJSON_AddStringToObject(m, "sha256", models[i].hash);
        cJSON_AddItemToArray(ms, m);
    }
    return o;
}

char *prov_comment(const char *prefix)
{
    sbuf b = { 0 };
    sb_add(&b, "%sptxlitmus %s (git %s), Z3 %s, %s\n", prefix, PTXLITMUS_VERSION, PTX_GIT_HASH,
           Z3_get_full_version(), the_date());
    sb_add(&b, "%scommand: ptxlitmus", prefix);
    for (int i = 0; i < ncmd; i++) {   /* one line: newlines in a word are written as spaces */
        sb_add(&b, " ");
        for (const char *p = cmd[i]; *p; p++) sb_add(&b, "%c", *p == '\n' || *p == '\r' ? ' ' : *p);
    }
    sb_add(&b, "\n");
    for (int i = 0; i < nmodels; i++)
        sb_add(&b, "%smodel %s: %s sha256 %s\n", prefix, models[i].name, models[i].file,
               models[i].hash);
    return b.s;
}
