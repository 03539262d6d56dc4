/* frontend/litmus_int.h — internals shared by the litmus parser's two halves:
 * litmus_parse.c (test structure: header, initial state, placement, rows, condition) and
 * litmus_insn.c (one cell: labels, guard, the instruction with its qualifiers and operands,
 * checked against the PTX ISA or the Dat3M grammar).  Not part of the public interface. */
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

/* Labels of one thread while its rows are read. */
typedef struct { int nlab; char **labs; int *labat; } labels;

char *lp_tokstr(const token *t);
const char *lp_strip_pct(const char *s);
void lp_errat(parser *p, const token *t, const char *fmt, ...);
void lp_expect_fail(parser *p, const token *t, const char *expected);
/* A warning at t (lit_test.notes): the test is still parsed; verify --Werror makes it an error. */
void lp_warnat(parser *p, const token *t, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
int lp_add_sym(lit_test *t, const char *name);
int lp_add_reg(lit_thread *th, const char *name);

/* One cell being read: its tokens [a, b), the next one i. */
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
/* Operand readers of litmus_insn.c, for litmus_async.c: an address ([x], [%r+8], x), a value
   operand (dst: a destination register), ',', the end of the instruction. */
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

/* Parse the cell tokens [a, b) of thread th (labels, guard, one instruction). */
int lp_parse_cell(parser *p, lit_thread *th, int a, int b, labels *L);
/* After all rows: cross-instruction rules of the ISA (state spaces shared between threads,
   barrier counts against the placement).  Returns 0 or -1 with the message set. */
int lp_check_program(parser *p);
#endif
