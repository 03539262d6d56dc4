/* suite/suite_report.c — reports over suite result objects: the failure list and summary
 * table, JSON (verify --json objects plus expected/outcome), JUnit XML and CSV. */
#include "base/alloc.h"
#include "base/sbuf.h"
#include "base/text.h"
#include "suite/suite.h"
#include "report/report.h"
#include "report/provenance.h"
#include "base/version.h"
#include "suite/suite.h"
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

const char *suite_str(const cJSON *o, const char *key)
{
    const cJSON *v = o ? cJSON_GetObjectItemCaseSensitive(o, key) : NULL;
    return cJSON_IsString(v) && v->valuestring ? v->valuestring : "";
}

double suite_num(const cJSON *o, const char *key)
{
    const cJSON *v = o ? cJSON_GetObjectItemCaseSensitive(o, key) : NULL;
    return cJSON_IsNumber(v) ? v->valuedouble : 0;
}

const char *suite_outcome_of(const cJSON *res)
{
    const char *o = suite_str(res, "outcome");
    return *o ? o : "error";
}


char *suite_state_text(const cJSON *state)
{
    sbuf b = { 0 };
    sb_add(&b, "%s", "");
    const cJSON *it;
    int first = 1;
    cJSON_ArrayForEach(it, state) {
        if (cJSON_IsNumber(it))
            sb_add(&b, "%s%s=%.0f;", first ? "" : " ", it->string, it->valuedouble);
        else if (cJSON_IsString(it))
            sb_add(&b, "%s%s=%s;", first ? "" : " ", it->string, it->valuestring);
        first = 0;
    }
    return b.s;
}

/* ---------- grouping by (suite, model) ---------- */

typedef struct {
    const char *suite, *model;
    int tests, agree, disagree, error, unknown, fresh;
    double ms;
} group;

static int group_of(group **g, int *ng, const char *suite, const char *model)
{
    for (int i = 0; i < *ng; i++)
        if (!strcmp((*g)[i].suite, suite) && !strcmp((*g)[i].model, model)) return i;
    *g = xrealloc(*g, (size_t)(*ng + 1) * sizeof **g);
    (*g)[*ng] = (group){ .suite = suite, .model = model };
    return (*ng)++;
}

static void tally(group *g, const cJSON *r)
{
    const char *o = suite_outcome_of(r);
    g->tests++;
    g->ms += suite_num(r, "time_ms");
    if (!strcmp(o, "agree")) g->agree++;
    else if (!strcmp(o, "new")) { g->agree++; g->fresh++; }
    else if (!strcmp(o, "disagree")) g->disagree++;
    else if (!strcmp(o, "unknown") || !strcmp(o, "timeout")) g->unknown++;
    else g->error++;
}

int suite_print_summary(FILE *f, const cJSON *results, double wall_s)
{
    return suite_print_summary_ex(f, results, wall_s, 0);
}

static int is_unknown(const char *o) { return !strcmp(o, "unknown") || !strcmp(o, "timeout"); }

int suite_print_summary_ex(FILE *f, const cJSON *results, double wall_s, int flags)
{
    group *g = NULL;
    int ng = 0, bad = 0, checked = 0;
    const cJSON *r;
    cJSON_ArrayForEach(r, results) {
        const char *o = suite_outcome_of(r);
        {
            int gi = group_of(&g, &ng, suite_str(r, "suite"), suite_str(r, "model"));
            tally(&g[gi], r);
        }
        if (!strcmp(o, "agree") || !strcmp(o, "disagree")) checked++;
        if (!strcmp(o, "agree") || !strcmp(o, "new")) continue;
        if (is_unknown(o)) {
            if (!(flags & SUITE_ALLOW_UNKNOWN)) bad = 1;
            const char *why = suite_str(r, "error");
            report_tprintf(
                f, "UNKNOWN %s/%s [%s]: %s\n", suite_str(r, "suite"), suite_str(r, "test"),
                suite_str(r, "model"),
                *why ? why : "a bound (--unroll) cut paths and the verdict rests on an absence");
            continue;
        }
        bad = 1;
        if (!strcmp(o, "disagree"))
            report_tprintf(f, "DISAGREE %s/%s [%s]: expected %s, got %s (%s)\n",
                           suite_str(r, "suite"), suite_str(r, "test"), suite_str(r, "model"),
                           suite_str(r, "expected"), suite_str(r, "verdict"),
                           suite_str(r, "observation"));
        else
            report_tprintf(f, "%s %s/%s [%s]: %s\n", "ERROR",
                    suite_str(r, "suite"), suite_str(r, "test"), suite_str(r, "model"),
                    suite_str(r, "error"));
    }
    int w = 5;
    for (int i = 0; i < ng; i++) if ((int)strlen(g[i].suite) > w) w = (int)strlen(g[i].suite);
    report_tprintf(f, "%-*s  %-8s %6s %6s %8s %6s %7s %9s\n", w, "suite", "model", "tests", "agree",
            "disagree", "error", "unknown", "time(s)");
    group tot = { 0 };
    for (int i = 0; i < ng; i++) {
        report_tprintf(f, "%-*s  %-8s %6d %6d %8d %6d %7d %9.2f\n", w, g[i].suite, g[i].model,
                       g[i].tests, g[i].agree, g[i].disagree, g[i].error, g[i].unknown,
                       g[i].ms / 1000.0);
        tot.tests += g[i].tests;
        tot.agree += g[i].agree;
        tot.disagree += g[i].disagree;
        tot.error += g[i].error;
        tot.unknown += g[i].unknown; tot.ms += g[i].ms; tot.fresh += g[i].fresh;
    }
    report_tprintf(f, "%-*s  %-8s %6d %6d %8d %6d %7d %9.2f\n", w, "total", "", tot.tests,
                   tot.agree, tot.disagree, tot.error, tot.unknown, tot.ms / 1000.0);
    if (tot.fresh)
        report_tprintf(f, "(%d of the agreeing results had no expectation yet)\n", tot.fresh);
    int nothing = !checked && !(flags & SUITE_UPDATING);
    if (nothing) {
        report_tprintf(f, "nothing checked: %d result%s, 0 expected verdicts compared\n", tot.tests,
                tot.tests == 1 ? "" : "s");
        bad = 1;
    }
    if (tot.unknown && (flags & SUITE_ALLOW_UNKNOWN))
        report_tprintf(f, "%d unknown result%s accepted (--allow-unknown)\n", tot.unknown,
                tot.unknown == 1 ? "" : "s");
    if (wall_s >= 0)
        report_tprintf(f, "wall time %.2f s; %s\n", wall_s,
                nothing ? "FAILED (nothing checked)" : bad ? "FAILED" : "all agree");
    free(g);
    return bad;
}

/* ---------- JSON ---------- */

int suite_write_json(const char *path, cJSON *results, const char *shard, int interrupted)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "tool", "ptxlitmus");
    cJSON_AddStringToObject(root, "version", PTXLITMUS_VERSION);
    cJSON_AddStringToObject(root, "kind", "suite");
    if (shard) cJSON_AddStringToObject(root, "shard", shard);
    else cJSON_AddNullToObject(root, "shard");
    cJSON_AddItemToObject(root, "provenance", prov_json());
    cJSON_AddBoolToObject(root, "interrupted", interrupted);
    cJSON_AddItemReferenceToObject(root, "results", results);
    char *text = report_json_text(root, 1);
    int rc = report_write_atomic(path, text);
    free(text);
    cJSON_Delete(root);
    return rc;
}

/* ---------- JUnit XML ---------- */

/* XML 1.0 text (base/text.h: entities, U+FFFD for controls and invalid UTF-8) */
static void xml_esc(sbuf *b, const char *s) { text_xml(b, s); }

static void states_lines(sbuf *b, const cJSON *r)
{
    const cJSON *st = cJSON_GetObjectItemCaseSensitive(r, "states"), *s;
    cJSON_ArrayForEach(s, st) {
        char *t = suite_state_text(s);
        sb_add(b, "\n  ");
        xml_esc(b, t);
        free(t);
    }
}

/* The JUnit XML of a suite run.  About 80 lines: the document is written in its order
 * (testsuites, one testsuite per suite, one testcase per job), one block per element. */
char *suite_junit_text(const cJSON *results, int interrupted)
{
    group *g = NULL;
    int ng = 0;
    const cJSON *r;
    cJSON_ArrayForEach(r, results)
    {
        int gi = group_of(&g, &ng, suite_str(r, "suite"), suite_str(r, "model"));
        tally(&g[gi], r);
    }
    group tot = { 0 };
    for (int i = 0; i < ng; i++) {
        tot.tests += g[i].tests;
        tot.disagree += g[i].disagree;
        tot.error += g[i].error + g[i].unknown;
        tot.ms += g[i].ms;
    }
    sbuf b = { 0 };
    sb_add(&b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    sb_add(&b,
           "<testsuites name=\"ptxlitmus\" tests=\"%d\" failures=\"%d\" errors=\"%d\" "
           "time=\"%.3f\"%s>\n",
           tot.tests, tot.disagree, tot.error, tot.ms / 1000.0,
           interrupted ? " interrupted=\"true\"" : "");
    for (int i = 0; i < ng; i++) {
        sb_add(&b, "  <testsuite name=\"");
        xml_esc(&b, g[i].suite);
        sb_add(&b, " [");
        xml_esc(&b, g[i].model);
        sb_add(&b, "]\" tests=\"%d\" failures=\"%d\" errors=\"%d\" skipped=\"0\" time=\"%.3f\">\n",
               g[i].tests, g[i].disagree, g[i].error + g[i].unknown, g[i].ms / 1000.0);
        cJSON_ArrayForEach(r, results) {
            if (strcmp(suite_str(r, "suite"), g[i].suite) ||
                strcmp(suite_str(r, "model"), g[i].model))
                continue;
            const char *o = suite_outcome_of(r);
            sb_add(&b, "    <testcase classname=\"");
            xml_esc(&b, g[i].suite);
            sb_add(&b, ".");
            xml_esc(&b, g[i].model);
            sb_add(&b, "\" name=\"");
            xml_esc(&b, suite_str(r, "test"));
            sb_add(&b, "\" file=\"");
            xml_esc(&b, suite_str(r, "file"));
            sb_add(&b, "\" time=\"%.3f\"", suite_num(r, "time_ms") / 1000.0);
            if (!strcmp(o, "agree") || !strcmp(o, "new")) { sb_add(&b, "/>\n"); continue; }
            sb_add(&b, ">\n");
            if (!strcmp(o, "disagree")) {
                sb_add(&b, "      <failure type=\"disagree\" message=\"expected ");
                xml_esc(&b, suite_str(r, "expected"));
                sb_add(&b, ", got ");
                xml_esc(&b, suite_str(r, "verdict"));
                sb_add(&b, "\">expected ");
                xml_esc(&b, suite_str(r, "expected"));
                sb_add(&b, ", got ");
                xml_esc(&b, suite_str(r, "verdict"));
                sb_add(&b, " (observation ");
                xml_esc(&b, suite_str(r, "observation"));
                sb_add(&b, ") for ");
                xml_esc(&b, suite_str(r, "quantifier"));
                sb_add(&b, " ");
                xml_esc(&b, suite_str(r, "condition"));
                sb_add(&b, "&#10;reachable states:");
                states_lines(&b, r);
                sb_add(&b, "</failure>\n");
            } else {
                const char *why = suite_str(r, "error");
                if (is_unknown(o) && !*why)
                    why =
                        "Unknown: a bound (--unroll) cut paths and the verdict rests on an absence";
                sb_add(&b, "      <error type=\"%s\" message=\"",
                       is_unknown(o) ? "unknown" : "error");
                xml_esc(&b, why);
                sb_add(&b, "\">expected ");
                xml_esc(&b, *suite_str(r, "expected") ? suite_str(r, "expected") : "a verdict");
                sb_add(&b, ", got %s: ", is_unknown(o) ? "Unknown" : "an error");
                xml_esc(&b, why);
                sb_add(&b, "</error>\n");
            }
            sb_add(&b, "    </testcase>\n");
        }
        sb_add(&b, "  </testsuite>\n");
    }
    sb_add(&b, "</testsuites>\n");
    free(g);
    return b.s;
}

int suite_write_junit(const char *path, const cJSON *results, int interrupted)
{
    char *t = suite_junit_text(results, interrupted);
    int rc = report_write_atomic(path, t);
    free(t);
    return rc;
}

/* ---------- CSV ---------- */

static void csv_field(sbuf *b, const char *s, int last)
{
    char *fixed = text_utf8_fix(s);   /* valid UTF-8 (U+FFFD for invalid bytes) */
    if (fixed) s = fixed;
    if (strpbrk(s, ",\"\n\r")) {
        sb_add(b, "\"");
        for (const char *p = s; *p; p++) sb_add(b, *p == '"' ? "\"\"" : "%c", *p);
        sb_add(b, "\"");
    } else sb_add(b, "%s", s);
    sb_add(b, last ? "\n" : ",");
    free(fixed);
}

char *suite_csv_text(const cJSON *results)
{
    sbuf b = { 0 };
    char *prov = prov_comment("# ");   /* provenance: comment lines before the header */
    sb_add(&b, "%s", prov);
    free(prov);
    sb_add(&b, "suite,test,model,expected,verdict,observation,states,time_ms,outcome\n");
    const cJSON *r;
    cJSON_ArrayForEach(r, results) {
        char num[64];
        csv_field(&b, suite_str(r, "suite"), 0);
        csv_field(&b, suite_str(r, "test"), 0);
        csv_field(&b, suite_str(r, "model"), 0);
        csv_field(&b, suite_str(r, "expected"), 0);
        int unk = is_unknown(suite_outcome_of(r));
        csv_field(&b, unk && !*suite_str(r, "verdict") ? "Unknown" : suite_str(r, "verdict"), 0);
        csv_field(
            &b, unk && !*suite_str(r, "observation") ? "Unknown" : suite_str(r, "observation"), 0);
        const cJSON *st = cJSON_GetObjectItemCaseSensitive(r, "states");
        if (cJSON_IsArray(st)) snprintf(num, sizeof num, "%d", cJSON_GetArraySize(st));
        else num[0] = 0;
        csv_field(&b, num, 0);
        snprintf(num, sizeof num, "%.3f", suite_num(r, "time_ms"));
        csv_field(&b, num, 0);
        csv_field(&b, suite_outcome_of(r), 1);
    }
    return b.s;
}

int suite_write_csv(const char *path, const cJSON *results)
{
    char *t = suite_csv_text(results);
    int rc = report_write_atomic(path, t);
    free(t);
    return rc;
}
