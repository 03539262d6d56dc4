/* exec/heap.h — the device heap behind the CUDA runtime's device-side malloc and free (calls of
 * the extern .func malloc / free that nvcc and clang emit for them; exec/heap.c).  One heap per
 * launch of at most the context's cudaLimitMallocHeapSize (ptxeCtxSetMallocHeapSize, default
 * PTXE_DEFAULT_MALLOC_HEAP_SIZE): each block is a device allocation of its own, so memcheck sees
 * its bounds (an access past the block faults), a freed block stays reserved (a later access is
 * "in freed memory"), and initcheck counts its bytes unwritten.  A free of a pointer that malloc
 * did not return, or of a block already freed, is a fault; at the end of a launch that ran to
 * completion the blocks not freed are leaks (memcheck findings); then every block is released.
 * The engine (exec/printf.c) reads the arguments and writes malloc's result; it knows nothing
 * else of the heap. */
#ifndef PTX_EXEC_HEAP_H
#define PTX_EXEC_HEAP_H
#include <stddef.h>
#include <stdint.h>
#include "exec/exec_int.h"
#include "exec/sanitize.h"

/* a launch begins: an empty heap (no memory is set aside until a block is allocated) */
void heap_launch_begin(ptxeCtx *ctx);
/* malloc(n) by thread t: the block's device address, or 0 (NULL) when the heap (or the
 * context's device memory) has no room, or n is 0 */
uint64_t heap_malloc(ptxeCtx *ctx, const san_who *t, uint64_t n);
/* free(p) by thread t: 0, or -1 with the fault's text in why (a double free; an address that
 * malloc did not return).  free(NULL) does nothing. */
int heap_free(ptxeCtx *ctx, ptxeModule *m, const san_who *t, uint64_t p, char *why, size_t len);
/* the launch ends (completed: it ran to the end, no fault): the leaks reported to S (memcheck)
 * when it completed, every block released */
void heap_launch_end(ptxeCtx *ctx, san *S, int completed);
/* the context is destroyed */
void heap_ctx_free(ptxeCtx *ctx);
#endif
