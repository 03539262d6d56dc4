/* exec/remote.h — asynchronous remote stores and reductions (st.async §9.7.8.12, red.async
 * §9.7.12.7) and multimem operations on multicast objects (§9.7.8.13): the forms the ISA allows
 * (checked once at load) and the arithmetic; exec/async.c does the memory accesses and the
 * mbarrier completion (h_stasync, h_multimem).  exec/remote.c documents the model. */
#ifndef PTX_EXEC_REMOTE_H
#define PTX_EXEC_REMOTE_H
#include <stddef.h>
#include <stdint.h>
#include "include/ptxexec.h"
#include "ptx/isa.h"
#include "ptx/mnemonic.h"

/* st.async / red.async: 0 when the mnemonic is a form of §9.7.8.12 / §9.7.12.7, else -1 with a
 * reason worded for "found ..., expected ...". */
int remote_async_form(const ptx_mnemonic *mn, char *why, size_t n);
/* multimem.ld_reduce / st / red: 0 when the mnemonic is a form of §9.7.8.13, else -1 */
int multimem_form(const ptx_mnemonic *mn, char *why, size_t n);
/* multimem.ld_reduce: the reduction op (isa_atom_op) of the ndev values v in device order
 * (accf32: .acc::f32) into *out; -1 for a pair isa_atom_apply has no semantics for */
int multimem_reduce(int op, isa_type t, int accf32, const uint64_t *v, int ndev, uint64_t *out);
/* the multicast object holding [a, a + n) whole, or NULL */
struct xmcast;
const struct xmcast *multimem_find(const ptxeCtx *ctx, uint64_t a, unsigned n);
#endif
