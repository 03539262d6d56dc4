/* check/llvm_check.c — the LLVM -> PTX mapping check (check/llvm_check.h). */
#include "check/llvm_check.h"
#include "base/alloc.h"
#include "base/fileio.h"
#include "frontend/litmus_build.h"
#include <strings.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *llvm_check_verdict_name(llvm_check_verdict v)
{
    static const char *const n[] = { "ok", "bug", "racy", "error", "unsupported" };
    return (unsigned)v < 5 ? n[v] : "?";
}

static int row_cmp(const int64_t *a, const int64_t *b, int n)
{
    for (int i = 0; i < n; i++)
        if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
    return 0;
}

static int decide(const char *path, const char *text, llvm_mode m, const verify_opts *o0,
                  model_kind model, verify_result *r, char *err, size_t errlen)
{
    lit_test *t = llvm_parse(path, text, 0, m, err, errlen);
    if (!t) return -1;
    verify_opts o = *o0;
    o.model = model;
    o.cat = NULL;
    o.model_label = NULL;
    o.states = -1;
    o.graph = NULL;
    int rc = verify_test(t, &o, r);
    r->test = NULL;   /* freed below */
    if (rc || !r->ok) {
        snprintf(err, errlen, "%s", r->error[0] ? r->error : "verification failed");
        lit_free(t);
        return -1;
    }
    lit_free(t);
    return 0;
}

int llvm_check_file(const char *path, llvm_mode m, const verify_opts *o, llvm_check_result *r)
{
    memset(r, 0, sizeof *r);
    r->file = xstrdup(path);
    r->mapping = m;
    r->verdict = LLVM_CHECK_ERROR;
    char *text, why[200];
    size_t n;
    if (m == LLVM_SOURCE || (unsigned)m >= LLVM_MODE_COUNT) {
        snprintf(r->error, sizeof r->error,
                 "%s:1:1: found the mapping '%s', expected a lowering to PTX", path,
                 llvm_mode_name(m));
        return -1;
    }
    if (read_input(path, FILEIO_CAP_DEFAULT, &text, &n, why, sizeof why)) {
        snprintf(r->error, sizeof r->error, "%s:1:1: found %s, expected an LLVM litmus test", path,
                 why);
        return -1;
    }
    char w[16];
    lb_first_word(text, w, sizeof w);
    if (strcasecmp(w, "LLVM")) {
        snprintf(r->error, sizeof r->error,
                 "%s:1:1: found '%s', expected 'LLVM' and the test name (llvm-check reads "
                 "LLVM-level tests, docs/llvm-mapping.md)",
                 path, w);
        free(text);
        return -1;
    }
    if (decide(path, text, LLVM_SOURCE, o, MODEL_RC11_SCOPED, &r->src, r->error, sizeof r->error)) {
        free(text);
        return -1;
    }
    r->name = xstrdup(r->src.name ? r->src.name : "");
    if (m == LLVM_MAP_LLC14) {
        /* an instruction llc 14 cannot lower: the source parsed, so the lowering refused it */
        char err[1024];
        lit_test *t = llvm_parse(path, text, 0, m, err, sizeof err);
        if (!t) {
            snprintf(r->error, sizeof r->error, "%s", err);
            r->verdict = LLVM_CHECK_UNSUPPORTED;
            free(text);
            return 0;
        }
        lit_free(t);
    }
    if (decide(path, text, m, o, MODEL_PTX, &r->ptx, r->error, sizeof r->error)) {
        free(text);
        return -1;
    }
    free(text);
    if (r->src.nobs != r->ptx.nobs) {
        snprintf(r->error, sizeof r->error,
                 "%s:1:1: found %d observables after lowering, expected %d", path, r->ptx.nobs,
                 r->src.nobs);
        return -1;
    }
    int k = r->nobs = r->src.nobs;
    r->obs = xcalloc((size_t)(k ? k : 1), sizeof *r->obs);
    for (int i = 0; i < k; i++) r->obs[i] = xstrdup(r->src.obs[i].name);
    r->nsrc = r->src.nstates;
    r->nptx = r->ptx.nstates;
    r->src_cond = r->src.validated;
    r->ptx_cond = r->ptx.validated;
    for (int i = 0; i < r->src.nflags; i++)
        if (!strcmp(r->src.flags[i], "data-race")) { r->verdict = LLVM_CHECK_RACY; return 0; }
    /* both state lists are sorted: a merge */
    r->bug = xcalloc((size_t)(r->nptx ? r->nptx : 1) * (size_t)(k ? k : 1), sizeof *r->bug);
    for (int a = 0, b = 0; a < r->nptx; a++) {
        const int64_t *pa = r->ptx.states + (size_t)a * (size_t)k;
        while (b < r->nsrc && row_cmp(r->src.states + (size_t)b * (size_t)k, pa, k) < 0) b++;
        if (b < r->nsrc && !row_cmp(r->src.states + (size_t)b * (size_t)k, pa, k)) continue;
        memcpy(r->bug + (size_t)r->nbug * (size_t)k, pa, (size_t)k * sizeof *pa);
        r->nbug++;
    }
    r->verdict = r->nbug ? LLVM_CHECK_BUG : LLVM_CHECK_OK;
    return 0;
}

void llvm_check_result_free(llvm_check_result *r)
{
    free(r->file);
    free(r->name);
    for (int i = 0; i < r->nobs; i++) free(r->obs[i]);
    free(r->obs);
    free(r->bug);
    verify_result_free(&r->src);
    verify_result_free(&r->ptx);
    memset(r, 0, sizeof *r);
}
