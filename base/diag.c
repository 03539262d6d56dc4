/* base/diag.c — the diagnostics formatter (see diag.h). */
#include "base/diag.h"

#include <stdio.h>

int diag_vformat(char *buf, size_t n, const char *file, int line, int col, const char *fmt,
                 va_list ap)
{
    int k = snprintf(buf, n, "%s:%d:%d: ", file ? file : "<input>", line, col);
    if (k < 0) return k;
    int m = vsnprintf(n > (size_t)k ? buf + k : NULL, n > (size_t)k ? n - (size_t)k : 0, fmt, ap);
    return m < 0 ? m : k + m;
}

int diag_format(char *buf, size_t n, const char *file, int line, int col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = diag_vformat(buf, n, file, line, col, fmt, ap);
    va_end(ap);
    return k;
}

int diag_found(char *buf, size_t n, const char *file, int line, int col, const char *found,
               const char *expected)
{
    return diag_format(buf, n, file, line, col, "found %s, expected %s", found, expected);
}
