/* litmus/sbuf.c — growable text buffer (see sbuf.h). */
#include "litmus/sbuf.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

void sb_add(sbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int l = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (l < 0) return;
    if (b->n + (size_t)l + 1 > b->cap) {
        size_t cap = (b->n + (size_t)l + 1) * 2 + 256;
        char *s = realloc(b->s, cap);
        if (!s) abort();
        b->s = s;
        b->cap = cap;
    }
    va_start(ap, fmt);
    vsnprintf(b->s + b->n, (size_t)l + 1, fmt, ap);
    va_end(ap);
    b->n += (size_t)l;
}
