/* cli/run_tex.h — the `textures:` and `surfaces:` sections of the `ptxlitmus run` launch spec
 * (cli/run_tex.c; format in docs/executor.md, "Textures and surfaces"): texture and surface
 * objects made through include/ptxexec.h over spec buffers, passed as { texture: NAME } /
 * { surface: NAME } params or bound to module-scope .texref / .surfref variables (`bind:`). */
#ifndef PTX_CLI_RUN_TEX_H
#define PTX_CLI_RUN_TEX_H
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <yaml.h>
#include "include/ptxexec.h"

typedef struct {
    const char *spec;                 /* for SPEC:LINE:COL messages */
    yaml_document_t *doc;
    ptxeCtx *ctx;
    ptxeModule *mod;
    /* the device address and size of spec buffer `name`; -1 when there is none */
    int (*find_buf)(void *cookie, const char *name, ptxeDevptr *dev, size_t *bytes);
    void *cookie;
    struct run_tex_obj *objs; int nobjs;
} run_tex;

/* Create the objects of the sections tex, surf (either may be NULL) and do their binds; 0, or
 * -1 after printing SPEC:LINE:COL: found X, expected Y. */
int run_tex_create(run_tex *t, yaml_node_t *tex, yaml_node_t *surf);
/* A { texture: NAME } / { surface: NAME } param (key is "texture" or "surface"): the handle. */
int run_tex_param(run_tex *t, const char *key, yaml_node_t *v, uint64_t *handle);
void run_tex_free(run_tex *t);

/* YAML helpers the spec readers share (cli/run_cli.c too): print SPEC:LINE:COL: MESSAGE for node
 * n (NULL: 1:1) on stderr and return -1; the text of a scalar node, else NULL. */
int run_yaml_vfail(const char *spec, const yaml_node_t *n, const char *fmt, va_list ap);
const char *run_yaml_scalar(const yaml_node_t *n);
#endif
