/* tests/evidence.h — test evidence for docs/coverage.md (`make coverage`, tools/gen_coverage.c).
 * When the environment names a file in PTX_EVIDENCE, the tests append lines
 *
 *     ROW SOURCE        e.g.  ADD_F test_isa.c     BAR kernels/reduce.ptx
 *
 * for the opcode-table rows (ptx/opcodes.def ids) their PTX uses: test_isa.c for every mnemonic
 * it decodes and evaluates; the executor tests for every instruction of a kernel they launch
 * (with the functions it calls directly) or of an inline module they load and run.  Without
 * PTX_EVIDENCE nothing is written.  Define EVIDENCE_EXEC before including it for the executor
 * helpers (they read the decoded program, exec/exec_int.h). */
#ifndef PTX_TESTS_EVIDENCE_H
#define PTX_TESTS_EVIDENCE_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/opcodes.h"

static void evidence_row(int op, const char *source)
{
    /* the source last written for each row, copied: a caller's buffer (hx_source) changes */
    static char last[PTX_I_COUNT][128];
    const char *file = getenv("PTX_EVIDENCE");
    if (!file || op <= PTX_I_NONE || op >= PTX_I_COUNT || !strcmp(last[op], source)) return;
    snprintf(last[op], sizeof last[op], "%s", source);
    FILE *f = fopen(file, "a");
    if (!f) return;
    fprintf(f, "%s %s\n", ptx_ops[op].id, source);
    fclose(f);
}

#ifdef EVIDENCE_EXEC
#include "exec/exec_int.h"

/* the instructions of function fi and of the functions it calls directly */
static void evidence_function(const ptxeModule *m, int fi, const char *source, unsigned char *seen)
{
    if (fi < 0 || fi >= m->nfuncs || seen[fi] || !m->funcs[fi].has_body) return;
    seen[fi] = 1;
    const xfunc *xf = &m->funcs[fi];
    for (int pc = xf->start; pc >= 0 && pc < xf->end; pc++) {
        const xinsn *x = &m->prog[pc];
        if (!strcmp(x->text, "(end of function)")) continue;   /* the implicit ret */
        evidence_row(x->op, source);
        if (x->has_guard) evidence_row(PTX_I_GUARD, source);
        if (x->op == PTX_I_CALL && x->target >= 0) evidence_function(m, x->target, source, seen);
    }
    const ptx_func *af = &m->ast->funcs[fi];
    for (int i = 0; i < af->nbody; i++)
        if (af->body[i].kind == PTX_ST_OPEN) { evidence_row(PTX_I_BLOCK, source); break; }
}

/* a launched kernel f */
__attribute__((unused)) static void evidence_kernel(const ptxeFunction *f, const char *source)
{
    if (!getenv("PTX_EVIDENCE")) return;
    unsigned char *seen = calloc((size_t)f->mod->nfuncs + 1, 1);
    evidence_function(f->mod, f->idx, source, seen);
    free(seen);
}

/* every function of a module */
__attribute__((unused)) static void evidence_module(const ptxeModule *m, const char *source)
{
    if (!getenv("PTX_EVIDENCE")) return;
    unsigned char *seen = calloc((size_t)m->nfuncs + 1, 1);
    for (int i = 0; i < m->nfuncs; i++) evidence_function(m, i, source, seen);
    free(seen);
}
#endif
#endif
