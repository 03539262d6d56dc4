/* litmus/sbuf.h — a growable text buffer for the report writers (JUnit, CSV, DOT, manifests). */
#ifndef PTX_LITMUS_SBUF_H
#define PTX_LITMUS_SBUF_H
#include <stddef.h>

typedef struct { char *s; size_t n, cap; } sbuf;

/* Appends printf-style text; b->s stays NUL-terminated.  Aborts when memory runs out. */
void sb_add(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#endif
