/* base/alloc.c — checked allocation (see alloc.h). */
#include "base/alloc.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/fileio.h"

_Noreturn void x_out_of_memory(size_t n)
{
    if (n) fprintf(stderr, "ptxlitmus: out of memory (%zu bytes)\n", n);
    else fprintf(stderr, "ptxlitmus: out of memory\n");   /* a library's own allocation (Z3) */
    fileio_remove_temps();
    exit(2);
}

void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) x_out_of_memory(n);
    return p;
}

void *xcalloc(size_t count, size_t size)
{
    if (size && count > SIZE_MAX / size) x_out_of_memory(SIZE_MAX);
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (!p) x_out_of_memory(count * size);
    return p;
}

void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q) x_out_of_memory(n);
    return q;
}

char *xstrndup(const char *s, size_t n)
{
    size_t l = strnlen(s, n);
    char *d = xmalloc(l + 1);
    memcpy(d, s, l);
    d[l] = 0;
    return d;
}

char *xstrdup(const char *s) { return xstrndup(s, strlen(s)); }
