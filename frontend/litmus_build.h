/* frontend/litmus_build.h — building a lit_test (frontend/litmus.h) directly, for the front
 * ends whose tests are not written in PTX: Tile IR tile blocks (frontend/tileir_parse.c,
 * docs/tileir.md) and LLVM-level atomics (frontend/llvm_parse.c, docs/llvm-mapping.md).
 *
 * Both formats share the frame of the PTX litmus format: a header word and the test name on
 * the first line, doc strings, an initial state in braces, one block per thread
 * `P0@cta 0,gpu 0 { ... }`, an optional `locations [...]` and the condition (frontend/cond.h).
 * What differs is the thread body, which each front end reads itself; after the last thread
 * each applies the PTX parser's rules across instructions (lp_check_program, litmus_check.c).
 * The helpers use the PTX parser's state and messages (frontend/litmus_int.h, litmus_test.c),
 * so every error is `file:line:col: found X, expected Y`. */
#ifndef PTX_FRONTEND_LITMUS_BUILD_H
#define PTX_FRONTEND_LITMUS_BUILD_H
#include "frontend/litmus_int.h"

/* The first word of the text after blanks and comments, copied into w (empty when none): the
   dialect (litmus_dialect.c lit_parse_ex; check/llvm_check.c). */
void lb_first_word(const char *text, char *w, size_t n);

/* Starts a parse: `word` and the test name (free text to the end of the line, as herd's
   names such as 2+2W are not tokens), then the doc strings.  Fills p (tokens, a new test with
   file, name, doc).  *copy receives the text the tokens point into (free it with lb_end).
   Returns 0, or -1 with the message in err (p->t may then be NULL or partly filled). */
int lb_begin(parser *p, const char *word, const char *file, const char *text, int max_depth,
             char *err, size_t errlen, char **copy);
/* Frees the tokens and the text copy (not the test). */
void lb_end(parser *p, char *copy);

const token *lb_cur(const parser *p);
const token *lb_peek(const parser *p, int k);
/* Consumes punctuation c or fails with "found X, expected WHAT". */
int lb_expect(parser *p, int c, const char *what);

/* The initial state: `{ x = 0; i32 y = 1; z; }` — locations, an optional element type
   i8/i16/i32/i64 (else the width the accesses give, 64-bit when none), an optional initial
   value (default 0). */
int lb_parse_init(parser *p);

/* A thread head `P0@cta 0,cluster 1,gpu 0 {`: appends the thread, consumes the '{'.
   allow_cluster: whether `cluster K` is accepted; default_cta: the CTA of a thread written
   without '@' (-1: the placement is required).  Returns the thread index or -1. */
int lb_parse_thread_head(parser *p, int allow_cluster, int default_cta);

/* `locations [...]` (optional), the quantifier and the proposition, then the end of the file. */
int lb_parse_tail(parser *p);

/* Appends an instruction to th at the position of token `at`; text: its display form (owned by
   the instruction).  Returns it zeroed but for k = LI_NOP, line, col, text, guard = -1. */
lit_insn *lb_add_insn(lit_thread *th, const token *at, char *text);

/* The source text of tokens [a, b), single-spaced (owned by the caller). */
char *lb_span_text(const parser *p, int a, int b);

#endif
