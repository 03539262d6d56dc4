/* frontend/litmus_dialect.c — the one entry of the litmus front ends (frontend/litmus.h
 * lit_parse*): reads the file (a regular file or "-", with a size cap) and dispatches on the
 * first word of the text (lb_first_word) to the parser of its dialect:
 *   TILEIR    frontend/tileir_parse.c (docs/tileir.md): tile blocks with their token order;
 *   LLVM      frontend/llvm_parse.c (docs/llvm-mapping.md): LLVM-level atomics lowered to PTX
 *             by the NVPTX mapping (llvm_parse_lowered);
 *   anything else: frontend/litmus_parse.c, the PTX litmus format (Dat3M and real PTX spelling),
 *             whose header check names 'PTX' when the word is none of these.
 * The parsers sit below this file and call neither it nor each other; below them all is the
 * test being built (litmus_test.c, and litmus_build.c's frame for the two other dialects). */
#include "frontend/litmus_build.h"
#include "frontend/tileir.h"
#include "frontend/llvm_litmus.h"
#include "base/fileio.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

lit_test *lit_parse(const char *file, const char *text, char *err, size_t errlen)
{
    return lit_parse_ex(file, text, COND_MAX_DEPTH, err, errlen);
}

lit_test *lit_parse_ex(const char *file, const char *text, int max_depth, char *err, size_t errlen)
{
    char w[16];
    lb_first_word(text, w, sizeof w);
    if (!strcasecmp(w, "TILEIR")) return tileir_parse(file, text, max_depth, err, errlen);
    if (!strcasecmp(w, "LLVM")) return llvm_parse_lowered(file, text, max_depth, err, errlen);
    return lp_parse_ptx(file, text, max_depth, err, errlen);
}

lit_test *lit_parse_file(const char *path, char *err, size_t errlen)
{
    return lit_parse_file_ex(path, COND_MAX_DEPTH, err, errlen);
}

lit_test *lit_parse_file_ex(const char *path, int max_depth, char *err, size_t errlen)
{
    return lit_parse_file_cap(path, max_depth, FILEIO_CAP_DEFAULT, err, errlen);
}

/* A litmus file: a regular file or "-" (base/fileio.h read_input: a FIFO, a directory or a
   device such as /dev/zero is refused before a byte is read), at most cap bytes, text. */
lit_test *lit_parse_file_cap(const char *path, int max_depth, size_t cap, char *err, size_t errlen)
{
    char *buf, why[200];
    size_t n;
    if (read_input(path, cap, &buf, &n, why, sizeof why)) {
        snprintf(err, errlen, "%s:1:1: found %s, expected a litmus test", path, why);
        return NULL;
    }
    if (strlen(buf) != n) {
        snprintf(err, errlen, "%s:1:1: found a NUL byte, expected a text file", path);
        free(buf);
        return NULL;
    }
    lit_test *t = lit_parse_ex(path, buf, max_depth, err, errlen);
    free(buf);
    return t;
}

