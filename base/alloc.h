/* base/alloc.h — checked allocation for the command-line tools: on failure these print one line
 * ("ptxlitmus: out of memory (N bytes)") on stderr, remove the temporary files of writes in
 * progress (base/fileio.h), and exit with status 2, so that a run never continues on a NULL
 * pointer nor aborts with a core dump.  Output already written to stdout is flushed by exit().
 *
 * The executor library (exec/, include/ptxexec.h) does NOT use these: an API call that runs out
 * of memory returns PTXE_ERROR_OUT_OF_MEMORY instead of ending the host program. */
#ifndef PTX_BASE_ALLOC_H
#define PTX_BASE_ALLOC_H
#include <stddef.h>

void *xmalloc(size_t n);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *p, size_t n);             /* n == 0 allocates 1 byte (never returns NULL) */
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);       /* at most n bytes of s, NUL-terminated */
/* The reaction to an allocation failure of `n` bytes (prints, cleans up, exits 2). */
_Noreturn void x_out_of_memory(size_t n);
#endif
