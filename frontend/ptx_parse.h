/* frontend/ptx_parse.h — parser for whole PTX modules as nvcc and LLVM's NVPTX back end emit
 * them (ISA 8.4 chapters 4-7 and the instruction syntax of §9.7) into the tree of ptx_ast.h. */
#ifndef PTX_FRONTEND_PTX_PARSE_H
#define PTX_FRONTEND_PTX_PARSE_H
#include <stddef.h>
#include "frontend/ptx_ast.h"

/* Parse src (len bytes; need not be NUL-terminated).  filename is used in messages.
 * Returns a module, or NULL with "file:line:col: found X, expected Y" in err. */
ptx_module *ptx_parse(const char *filename, const char *src, size_t len, char *err, size_t errlen);
void ptx_module_free(ptx_module *m);

/* Bump allocation in the module's arena (also used by the executor's loader). */
void *ptx_arena_alloc(ptx_module *m, size_t n);
const char *ptx_arena_strdup(ptx_module *m, const char *s);
#endif
