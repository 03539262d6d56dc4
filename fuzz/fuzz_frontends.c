/* fuzz/fuzz_frontends.c — libFuzzer target: the Tile IR and LLVM-level litmus front ends
 * (frontend/tileir_parse.c, frontend/llvm_parse.c, frontend/litmus_build.c) on arbitrary bytes,
 * parse only.  The bytes are read as a Tile IR test and, in each mode (source and every
 * lowering), as an LLVM test; a header word is put in front when the input has none, so that
 * the mutations reach the bodies.  Every rejection must carry a position
 * (`fuzz.litmus:line:col: ...`); an accepted test must have a token order of its own size. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "frontend/tileir.h"
#include "frontend/llvm_litmus.h"

#ifndef FUZZ_MAX_LEN
#define FUZZ_MAX_LEN 8192
#endif

static void check(lit_test *t, const char *err)
{
    if (!t) {
        if (strncmp(err, "fuzz.litmus:", 12) != 0) abort();
        return;
    }
    for (int i = 0; i < t->nth; i++) {
        const lit_thread *th = &t->th[i];
        if (th->order)   /* a strict order: irreflexive and antisymmetric */
            for (int a = 0; a < th->nins; a++)
                for (int b = 0; b < th->nins; b++)
                    if (th->order[(size_t)a * (size_t)th->nins + (size_t)b] &&
                        (a == b || th->order[(size_t)b * (size_t)th->nins + (size_t)a]))
                        abort();
    }
    lit_free(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > FUZZ_MAX_LEN) return 0;
    char *text = malloc(size + 16);
    if (!text) return 0;
    char err[1024];
    for (int front = 0; front < 2; front++) {
        const char *word = front ? "LLVM f\n" : "TILEIR f\n";
        size_t wl = strlen(word);
        int has = size >= wl - 2 && !strncmp((const char *)data, word, wl - 2);
        size_t off = has ? 0 : wl;
        memcpy(text, word, off);
        memcpy(text + off, data, size);
        text[off + size] = 0;   /* a C string: an embedded NUL ends the text */
        if (!front) {
            err[0] = 0;
            check(tileir_parse("fuzz.litmus", text, 0, err, sizeof err), err);
        } else
            for (int m = 0; m < LLVM_MODE_COUNT; m++) {
                err[0] = 0;
                check(llvm_parse("fuzz.litmus", text, 0, (llvm_mode)m, err, sizeof err), err);
            }
    }
    free(text);
    return 0;
}
