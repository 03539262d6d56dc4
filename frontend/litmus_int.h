/* frontend/litmus_int.h — internals of the litmus front ends, not part of the public interface.
 * The files, each calling only those below it (docs/architecture.md, frontend):
 *   litmus_dialect.c   lit_parse*: the dispatcher on the first word of the text
 *   litmus_parse.c     the PTX dialect's test structure: header, initial state, placement,
 *                      rows, condition (lp_parse_ptx)  |  tileir_parse.c, llvm_parse.c
 *   litmus_insn.c      one cell: labels, guard, the instruction with its qualifiers, checked
 *                      against the PTX ISA or the Dat3M grammar (lp_parse_cell)
 *   litmus_check.c     the rules across instructions (lp_check_program), every dialect
 *   litmus_async.c     mbarrier, barrier.cluster, asynchronous copies, the newer fences
 *   litmus_opnd.c      a cell's operands (lp_cell_*)  |  litmus_build.c: the other dialects' frame
 *   litmus_test.c      the test being built: messages, symbols, threads, registers, lit_free */
#ifndef PTX_FRONTEND_LITMUS_INT_H
#define PTX_FRONTEND_LITMUS_INT_H
#include "frontend/litmus.h"
#include "frontend/lex.h"
#include <stddef.h>

typedef struct {
    const char *file;
    const char *text;
    tokvec tv;
    int pos;
    lit_test *t;
    char *err;
    size_t errlen;
    int failed;
    int max_depth;           /* condition nesting limit */
} parser;

/* frontend/litmus_parse.c: a test in the PTX dialect (Dat3M or real PTX spelling); the
   dispatcher lit_parse_ex (litmus_dialect.c) calls it for every text not TILEIR or LLVM. */
lit_test *lp_parse_ptx(const char *file, const char *text, int max_depth, char *err,
                       size_t errlen);

/* Labels of one thread while its rows are read. */
typedef struct { int nlab; char **labs; int *labat; } labels;

/* frontend/litmus_test.c: messages, names */
char *lp_tokstr(const token *t);
const char *lp_strip_pct(const char *s);
void lp_errat(parser *p, const token *t, const char *fmt, ...);
void lp_expect_fail(parser *p, const token *t, const char *expected);
/* A warning at t (lit_test.notes): the test is still parsed; verify --Werror makes it an error. */
void lp_warnat(parser *p, const token *t, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
int lp_add_sym(lit_test *t, const char *name);
int lp_add_reg(lit_thread *th, const char *name);

/* a cell being parsed: tokens a..b of thread th, at i; vel: the elements of a vector access
   (§8.2.4), which lp_parse_cell expands into one scalar access each */
typedef struct {
    parser *p;
    lit_thread *th;
    int a, b;
    int i;
    lit_opnd vel[4];
    int nvel, packed;
} lp_cell;
/* The cell's current token (its end when none is left), its end, the next one or the end. */
static inline const token *lp_ctok(const lp_cell *c)
{
    return &c->p->tv.v[c->i < c->b ? c->i : c->b];
}
static inline const token *lp_cend(const lp_cell *c) { return &c->p->tv.v[c->b]; }
static inline const token *lp_cnext(const lp_cell *c)
{
    return c->i < c->b ? lp_ctok(c) : lp_cend(c);
}
/* frontend/litmus_opnd.c, for litmus_insn.c and litmus_async.c: a constant ([-]digits), an
   address ([x], [%r+8], x), a value operand (dst: a destination register), ',', the end of the
   instruction.  Each returns 0, or -1 with the message set. */
int lp_cell_const(lp_cell *c, int64_t *v);
int lp_cell_addr(lp_cell *c, lit_opnd *o);
int lp_cell_value(lp_cell *c, lit_opnd *o, int dst);
int lp_cell_comma(lp_cell *c);
int lp_cell_end(lp_cell *c, const char *what);
struct ptx_mnemonic;
/* frontend/litmus_async.c: mbarrier, barrier.cluster, cp.async{.bulk}, st.async, red.async,
   multimem, fence.acquire/.release, .sync_restrict, .op_restrict, fence.proxy.async and
   tensormap.  Returns 1 when the instruction is none of these, else 0 or -1 (message set). */
int lp_parse_async(lp_cell *c, lit_insn *in, const struct ptx_mnemonic *m, const token *mt);
/* After size_locations and check_spaces: shared locations and their CTA, the order of
   asynchronous operations (lit_thread.order), predicate results. 0 or -1. */
int lp_async_check(parser *p);

/* frontend/litmus_insn.c: the cell tokens [a, b) of thread th (labels, guard, one instruction). */
int lp_parse_cell(parser *p, lit_thread *th, int a, int b, labels *L);
/* frontend/litmus_check.c, after all rows (every dialect): the rules of the ISA across
   instructions (location sizes, state spaces shared between threads, lp_async_check, vector
   accesses, register types, bar.red's predicate).  Returns 0 or -1 with the message set. */
int lp_check_program(parser *p);
#endif
