/* base/sbuf.h — a growable text buffer (reports, JSON, DOT, manifests).  The text stays
 * NUL-terminated in b->s; memory comes from xrealloc (base/alloc.h), so running out of memory
 * ends the program with a message instead of losing text silently.  An all-zero sbuf is empty. */
#ifndef PTX_BASE_SBUF_H
#define PTX_BASE_SBUF_H
#include <stddef.h>

typedef struct { char *s; size_t n, cap; } sbuf;

/* Appends printf-style text. */
void sb_add(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Appends n raw bytes. */
void sb_put(sbuf *b, const char *s, size_t n);
/* Releases the memory; b is empty again. */
void sb_free(sbuf *b);
#endif
