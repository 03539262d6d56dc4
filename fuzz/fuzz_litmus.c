/* fuzz/fuzz_litmus.c — libFuzzer target: the litmus parser (lit_parse) on arbitrary bytes and,
 * when the input parses, the verify driver with small limits (unroll 1, 200 traces,
 * 200 states, a 200 ms wall-clock limit) so that every execution stays short.
 * With FUZZ_PARSE_ONLY defined (fuzz/fuzz_litmus_parse.c) only the parser runs, which is
 * some thousand times faster and so reaches far more inputs.
 * Build: make fuzz-build; run: make fuzz FUZZ_SECONDS=60. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "frontend/litmus.h"
#include "check/verify.h"

#ifndef FUZZ_MAX_LEN
#define FUZZ_MAX_LEN 8192
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > FUZZ_MAX_LEN) return 0;
    char *text = malloc(size + 1);
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = 0;          /* lit_parse takes a C string: an embedded NUL ends the text */
    char err[1024];
    err[0] = 0;
    lit_test *t = lit_parse("fuzz.litmus", text, err, sizeof err);
    if (!t) {
        /* every rejection must carry a position */
        if (strncmp(err, "fuzz.litmus:", 12) != 0) abort();
    } else {
#ifndef FUZZ_PARSE_ONLY
        verify_opts o;
        verify_opts_default(&o);
        o.unroll = 1;
        o.max_traces = 200;
        o.max_events = 64;
        o.states = 200;
        o.timeout_s = 0.2;   /* wall clock per input: the smoke run stays within its budget */
        verify_result r;
        memset(&r, 0, sizeof r);
        verify_test(t, &o, &r);
        verify_result_free(&r);
#endif
        lit_free(t);
    }
    free(text);
    return 0;
}
