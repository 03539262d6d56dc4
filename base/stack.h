/* base/stack.h — how much room is left on the calling thread's stack (issue #28, item 4).
 *
 * Recursive passes whose depth follows the input (the condition of a litmus test: parsed,
 * printed, evaluated, encoded for the solver) bound that depth with a limit the user may raise
 * (--max-depth, at most 10000).  Whether a given depth fits depends on the real stack: 8 MiB
 * for a main thread by default, 1-2 MiB under some `ulimit -s` or for a library caller's
 * thread.  stack_room() measures it, so that a limit can be checked against it up front and
 * an input too deep for this stack gets an error instead of a SIGSEGV. */
#ifndef PTX_BASE_STACK_H
#define PTX_BASE_STACK_H
#include <stddef.h>
#include <stdint.h>

/* Bytes between the caller's frame and the low end of this thread's stack (stacks grow down
 * on every target we build for), or SIZE_MAX when they cannot be found. */
size_t stack_room(void);
#endif
