/* base/diag.h — the one diagnostics format of ptxlitmus:
 *
 *     FILE:LINE:COL: found X, expected Y
 *
 * (docs/reliability.md: every message about an input names the place, what was found there and
 * what was expected).  These write into a caller's buffer (no global state, thread-safe); the
 * callers decide where it goes (stderr, an API error string, a JSON field). */
#ifndef PTX_BASE_DIAG_H
#define PTX_BASE_DIAG_H
#include <stdarg.h>
#include <stddef.h>

/* "FILE:LINE:COL: " followed by the printf-formatted message.  Returns what snprintf returns. */
int diag_format(char *buf, size_t n, const char *file, int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
int diag_vformat(char *buf, size_t n, const char *file, int line, int col, const char *fmt,
                 va_list ap);
/* "FILE:LINE:COL: found FOUND, expected EXPECTED". */
int diag_found(char *buf, size_t n, const char *file, int line, int col, const char *found,
               const char *expected);
#endif
