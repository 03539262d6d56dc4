/* fuzz/fuzz_ptx.c — libFuzzer target: the PTX module parser (ptx_parse) on arbitrary bytes.
 * The parser takes a length, so the input is passed as is (no NUL terminator added). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "frontend/ptx_parse.h"

#ifndef FUZZ_MAX_LEN
#define FUZZ_MAX_LEN 65536
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > FUZZ_MAX_LEN) return 0;
    /* copy to an exact-size heap block so that ASan sees any read past the end */
    char *src = malloc(size ? size : 1);
    if (!src) return 0;
    memcpy(src, data, size);
    char err[1024];
    err[0] = 0;
    ptx_module *m = ptx_parse("fuzz.ptx", src, size, err, sizeof err);
    if (m) ptx_module_free(m);
    else if (strncmp(err, "fuzz.ptx:", 9) != 0) abort();   /* rejections carry a position */
    free(src);
    return 0;
}
