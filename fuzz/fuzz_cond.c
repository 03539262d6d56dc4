/* fuzz/fuzz_cond.c — libFuzzer target: the tokenizer and the condition parser (cond_parse) on
 * arbitrary text, with a resolver that accepts every reference, then the printer, the
 * reference walk and the evaluator on the tree it built. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "frontend/cond.h"
#include "frontend/lex.h"

#ifndef FUZZ_MAX_LEN
#define FUZZ_MAX_LEN 16384
#endif

static int resolve_all(void *ctx, cond_ref *r, char *err, size_t errlen)
{
    (void)ctx;
    /* a fixed failure for one name, to exercise the resolver's error path */
    if (r->k == REF_LOC && !strcmp(r->rname, "bad")) {
        snprintf(err, errlen, "fuzz:%d:%d: found 'bad', expected a location", r->line, r->col);
        return -1;
    }
    r->thread = 0; r->reg = 0; r->sym = 0;
    return 0;
}

static int64_t value(void *ctx, const cond_ref *r)
{
    (void)ctx;
    return r->k == REF_CONST ? r->val : (int64_t)(r->line * 31 + r->col) & 3;
}

static void count(void *ctx, const cond_ref *r) { (void)r; (*(long *)ctx)++; }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > FUZZ_MAX_LEN) return 0;
    char *text = malloc(size + 1);
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = 0;
    char err[512];
    tokvec tv;
    if (lex_all("fuzz", text, &tv, err, sizeof err) == 0) {
        int pos = 0;
        cond_node *n =
            cond_parse("fuzz", &tv, &pos, resolve_all, NULL, COND_MAX_DEPTH, err, sizeof err);
        if (n) {
            if (pos < 0 || pos >= tv.n) abort();
            char buf[256];
            size_t need = cond_print(n, buf, sizeof buf);
            if (need >= sizeof buf && strlen(buf) != sizeof buf - 1) abort();
            if (need < sizeof buf && strlen(buf) != need) abort();
            long refs = 0;
            cond_foreach_ref(n, count, &refs);
            (void)cond_eval(n, value, NULL);
            cond_free(n);
        } else if (strncmp(err, "fuzz:", 5) != 0) {
            abort();
        }
        /* locations-style single references */
        pos = 0;
        cond_ref r;
        while (pos < tv.n - 1 && cond_parse_ref("fuzz", &tv, &pos, &r, err, sizeof err) == 0)
            cond_ref_free(&r);
        tokvec_free(&tv);
    } else if (strncmp(err, "fuzz:", 5) != 0) {
        abort();
    }
    free(text);
    return 0;
}
