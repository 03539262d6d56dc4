/* frontend/tileir.h — litmus tests whose threads are Tile IR tile blocks (docs/tileir.md).
 *
 * Each tile block is written with the token-ordered memory operations of Tile IR on scalar
 * tiles (load_ptr_tko, store_ptr_tko, atomic_rmw_tko, atomic_cas_tko, with make_token,
 * join_tokens and constant), and becomes a litmus thread whose instructions are the PTX
 * memory instructions of the same semantics (weak, relaxed, acquire, release, acq_rel) and
 * scope (tl_blk -> .cta, device -> .gpu, sys -> .sys).  Program order is the token order
 * (lit_thread.order): an operation precedes another iff a chain of tokens leads from the first
 * to the second; operations not so connected are unordered, even within one tile block. */
#ifndef PTX_FRONTEND_TILEIR_H
#define PTX_FRONTEND_TILEIR_H
#include <stddef.h>
#include "frontend/litmus.h"

/* Parses a Tile IR litmus test (header word TILEIR).  Returns NULL with
   "file:line:col: found X, expected Y" in err on a malformed test.  max_depth: the condition's
   nesting limit (0: COND_MAX_DEPTH). */
lit_test *tileir_parse(const char *file, const char *text, int max_depth, char *err, size_t errlen);
#endif
