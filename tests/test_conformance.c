/* tests/test_conformance.c — the public Dat3M PTX suite in ../shared/conformance/dat3m-ptx,
 * read in place: every verdict must equal the published one (expected-ptx-v7.5.csv under
 * --model ptx-v7.5 and the default model, expected-ptx-v6.0.csv under --model ptx-v6.0),
 * except the deviations argued from the ISA text in docs/model.md ("Deviations"), which must
 * still deviate (so the document stays true).  Skips with a printed reason when ../shared is
 * absent (a user's clone). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "base/sanitized.h"
#include "check/verify.h"
#include "frontend/cat.h"
#include "model/bundled.h"
#include "solver/query.h"

#define TEST_TIMEOUT 600
/* Under the sanitizers (make check-asan) each of the five runs below decides every 5th test,
   a different fifth each (part), so the sanitized run still meets every test once: it looks for
   memory errors on these paths; the plain build checks every verdict of every run. */
#define CONF_STRIDE (PTX_SANITIZED ? 5 : 1)

/* docs/model.md, section "Deviations from the published verdicts" */
static const struct { model_kind model; const char *file; } deviations[] = {
    { MODEL_PTX, "Manual/LB+RMW-a.litmus" },
};

static const char *suite_dir(void)
{
    const char *env = getenv("PTXLITMUS_CONFORMANCE");
    if (env) return env;
    return "../shared/conformance/dat3m-ptx";
}

static int is_deviation(model_kind m, const char *file)
{
    for (size_t i = 0; i < sizeof deviations / sizeof *deviations; i++)
        if (deviations[i].model == m && !strcmp(deviations[i].file, file)) return 1;
    return 0;
}

/* Dat3M's own cat file, read in place from ../shared/spec/cat; NULL with a printed reason
   when it is absent */
static cat_model *dat3m_model(const char *name, cat_prog **prog)
{
    char path[4096];
    const char *spec = getenv("PTXLITMUS_SPEC");
    snprintf(path, sizeof path, "%s/cat/%s", spec ? spec : "../shared/spec", name);
    if (access(path, R_OK)) { printf("SKIP %s: %s not found\n", name, path); return NULL; }
    char err[1024];
    const char *search[] = { CAT_BUILTIN };
    cat_set_builtins(model_bundled, model_nbundled);
    cat_model *m = cat_load_file_prelude(path, search, 1, "stdlib.cat", err, sizeof err);
    ck_assert_msg(m != NULL, "%s", err);
    *prog = query_link_model(m, err, sizeof err);
    ck_assert_msg(*prog != NULL, "%s", err);
    return m;
}

static void run_model_cat(model_kind m, const char *csv, const cat_prog *cat, const char *label,
                          int part);

static void run_model(model_kind m, const char *csv, int part)
{
    run_model_cat(m, csv, NULL, NULL, part);
}

static void run_model_cat(model_kind m, const char *csv, const cat_prog *cat, const char *label,
                          int part)
{
    char path[8192];   /* suite folder + a CSV line of up to 4095 bytes */
    snprintf(path, sizeof path, "%s/%s", suite_dir(), csv);
    FILE *f = fopen(path, "r");
    if (!f) {
        printf("SKIP conformance (%s): %s not found (the public suite lives in ../shared beside "
               "the clone)\n",
               model_name(m), path);
        return;
    }
    verify_opts o;
    verify_opts_default(&o);
    o.model = m;
    o.cat = cat;
    o.states = 0;
    char line[4096];
    int total = 0, agree = 0, deviating = 0;
    char failures[8192] = "";
    for (int no = 0; fgets(line, sizeof line, f); no++) {
        char *comma = strrchr(line, ',');
        if (!comma || no % CONF_STRIDE != part % CONF_STRIDE) continue;
        *comma = 0;
        int want = atoi(comma + 1) == 1;
        snprintf(path, sizeof path, "%s/%s", suite_dir(), line);
        verify_result r;
        verify_file(path, &o, &r);
        total++;
        int dev = !cat && is_deviation(m, line);
        int same = r.ok && r.validated == want;
        if (same && !dev) agree++;
        else if (!same && dev && r.ok) deviating++;
        else {
            size_t l = strlen(failures);
            snprintf(failures + l, sizeof failures - l, "  %s: expected %s, got %s%s%s\n", line,
                     want ? "Ok" : "No",
                     !r.ok         ? "error: "
                     : r.validated ? "Ok"
                                   : "No",
                     !r.ok ? r.error : "", dev ? " (listed as a deviation)" : "");
        }
        verify_result_free(&r);
    }
    fclose(f);
    printf("conformance %s: %d/%d agree, %d documented deviations\n", label ? label : model_name(m),
           agree, total, deviating);
    ck_assert_msg(agree + deviating == total, "verdicts differ from %s:\n%s", csv, failures);
    ck_assert_int_gt(total * CONF_STRIDE, 90);
}

START_TEST(published_ptx_v75) { run_model(MODEL_PTX75, "expected-ptx-v7.5.csv", 0); }
END_TEST
START_TEST(published_ptx_v60) { run_model(MODEL_PTX60, "expected-ptx-v6.0.csv", 1); }
END_TEST
START_TEST(default_model_against_v75) { run_model(MODEL_PTX, "expected-ptx-v7.5.csv", 2); }
END_TEST

/* issue #9: Dat3M's own models, unmodified, through --cat */
START_TEST(dat3m_cat_files)
{
    static const struct { const char *file, *csv; model_kind m; } v[] = {
        { "dat3m-ptx-v7.5.cat", "expected-ptx-v7.5.csv", MODEL_PTX75 },
        { "dat3m-ptx-v6.0.cat", "expected-ptx-v6.0.csv", MODEL_PTX60 } };
    for (int i = 0; i < 2; i++) {
        cat_prog *p = NULL;
        cat_model *cm = dat3m_model(v[i].file, &p);
        if (!cm) continue;
        run_model_cat(v[i].m, v[i].csv, p, v[i].file, 3 + i);
        cat_prog_free(p);
        cat_free(cm);
    }
}
END_TEST

static void add_tests(TCase *tc)
{
    tcase_add_test(tc, published_ptx_v75);
    tcase_add_test(tc, published_ptx_v60);
    tcase_add_test(tc, default_model_against_v75);
    tcase_add_test(tc, dat3m_cat_files);
}

#include "check_main.h"
