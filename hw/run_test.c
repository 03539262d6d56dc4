/* hw/run_test.c — one litmus test through the whole pipeline: parse, plan, generate, compile,
 * run, classify, report.  Each stage that stops the test says why (refused, skipped for lack of
 * a GPU or nvcc, or an error) in the text output and in the JSON result object. */
#include "base/fileio.h"
#include "hw/hw_cli_int.h"
#include "hw/hw_int.h"
#include "report/report.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void hw_cli_prepare(hw_ctx *c)
{
    c->nvcc = hw_find_nvcc(&c->o);
    c->nvcc_version[0] = 0;
    if (c->nvcc && hw_nvcc_version(c->nvcc, c->nvcc_version, sizeof c->nvcc_version))
        snprintf(c->nvcc_version, sizeof c->nvcc_version, "unknown");
}

cJSON *hw_opts_json(const hw_opts *o)
{
    static const char *const stress[] = { "none", "lines", "random" };
    cJSON *j = cJSON_CreateObject();
    cJSON_AddNumberToObject(j, "instances", (double)o->instances);
    cJSON_AddNumberToObject(j, "launches", o->launches);
    cJSON_AddStringToObject(j, "stress", stress[o->stress]);
    cJSON_AddStringToObject(j, "placement",
                            o->placement == HW_PLACE_SHUFFLE ? "shuffle" : "as-test");
    cJSON_AddNumberToObject(j, "stride", o->stride);
    cJSON_AddStringToObject(j, "arch", o->arch);
    cJSON_AddStringToObject(j, "model", model_name(o->model));
    char seed[32];
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)o->seed);
    cJSON_AddStringToObject(j, "seed", seed);
    cJSON_AddNumberToObject(j, "timeout", o->timeout_s);
    cJSON_AddNumberToObject(j, "hang_timeout", o->hang_timeout_s);
    return j;
}

int hw_exit_status(const hw_tally *t, int suite)
{
    if (t->observed_forbidden || t->hang_alarms) return 1;
    if (t->errors || (!suite && t->refused)) return 2;
    if (t->skipped) return HW_EXIT_SKIP;
    return 0;
}

/* File name stem of a test, made safe for a file name, with an optional prefix. */
static void base_name(const char *path, const char *prefix, char *buf, size_t len)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    size_t n = 0;
    if (prefix) n = (size_t)snprintf(buf, len, "%s__", prefix);
    for (const char *s = b; *s && n + 1 < len && strcmp(s, ".litmus"); s++)
        buf[n++] = (char)((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
                                  (*s >= '0' && *s <= '9') || *s == '+' || *s == '-' || *s == '.'
                              ? *s
                              : '_');
    buf[n] = 0;
}

/* Writes dir/base.cu unless it already holds this text; *same says it did, and the program and
 * its PTX built from it are still there (--keep reuses them: delete DIR to force a rebuild). */
static int write_text(const char *dir, const char *base, const char *text, int *same)
{
    size_t n = strlen(dir) + strlen(base) + 8;
    char *p = malloc(n), *q = malloc(n);
    int rc = -1;
    *same = 0;
    if (!p || !q) goto out;
    snprintf(p, n, "%s/%s.cu", dir, base);
    FILE *f = fopen(p, "rb");
    if (f) {
        size_t len = strlen(text);
        char *old = malloc(len + 2);
        if (old) *same = fread(old, 1, len + 1, f) == len && !memcmp(old, text, len);
        free(old);
        fclose(f);
    }
    snprintf(q, n, "%s/%s", dir, base);
    struct stat bin, ptx;
    int have = !stat(q, &bin);
    snprintf(q, n, "%s/%s.ptx", dir, base);
    *same = *same && have && !stat(q, &ptx);
    rc = *same ? 0 : write_file_atomic(p, text, strlen(text));
out:
    free(p), free(q);
    return rc;
}

static void clean_dir(const char *dir, const char *base)
{
    static const char *const ext[] = { ".cu", "", ".ptx", ".nvcc", ".out", ".err", NULL };
    char p[4096];
    for (int i = 0; ext[i]; i++) {
        snprintf(p, sizeof p, "%.3700s/%.250s%s", dir, base, ext[i]);
        unlink(p);
    }
    rmdir(dir);
}

static cJSON *result(const char *path, const lit_test *t, const char *status, const char *reason)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "file", path);
    if (t && t->name) cJSON_AddStringToObject(o, "name", t->name);
    else cJSON_AddNullToObject(o, "name");
    cJSON_AddStringToObject(o, "status", status);
    if (reason) cJSON_AddStringToObject(o, "reason", reason);
    else cJSON_AddNullToObject(o, "reason");
    return o;
}

static void merge(cJSON *into, cJSON *from)
{
    while (from->child) {
        cJSON *it = cJSON_DetachItemViaPointer(from, from->child);
        cJSON_AddItemToObject(into, it->string, it);
    }
    cJSON_Delete(from);
}

/* The model's reachable states (all of them, to classify what the hardware shows) and, for a
 * test that can wait (a loop, a barrier, barrier.cluster), whether some execution never ends
 * (verify --liveness, docs/model.md).  Decided before the run: a test the model says may hang
 * gets --hang-timeout.  Returns 1 when r is usable. */
static int decide(const hw_plan *p, const hw_opts *o, verify_result *r)
{
    verify_opts vo;
    verify_opts_default(&vo);
    vo.model = o->model;
    vo.states = -1;
    vo.liveness = p->has_loop || p->has_barrier || p->uses_cbar;
    int vok = !verify_test(p->t, &vo, r) && r->ok;
    if (!vok) fprintf(stderr, "%s (the states are left unclassified)\n", r->error);
    return vok;
}

/* "P1 spins at 6:4 'ld.acquire.gpu r0, f' reading f=0": the model's first hanging thread */
static void hang_text(const verify_result *r, char *buf, size_t len)
{
    if (!r->nhangs) {
        snprintf(buf, len, "some execution never ends");
        return;
    }
    const struct verify_hang *h = &r->hangs[0];
    snprintf(buf, len, "%s %s at %d:%d '%s'%s%s", h->thread, h->spin ? "spins" : "waits",
             h->line, h->col, h->insn, h->spin && h->reads[0] ? " reading " : "",
             h->spin ? h->reads : "");
}

/* The program ran: classify against the model's states, report; a test the model says may
 * hang that ran to its end: the hang was never seen. */
static void report_run(hw_ctx *c, const hw_plan *p, model_kind m, verify_result *r, int vok,
                       hw_outcome *out, cJSON *res, hw_tally *t)
{
    hw_class cl;
    if (hw_classify(p, vok ? r : NULL, m, out, &cl)) {
        fprintf(stderr, "%s: out of memory classifying the states\n", p->t->file);
        t->errors++;
        return;
    }
    if (!vok) cJSON_AddStringToObject(res, "model_error", r->error);
    if (!c->quiet) hw_report_text(c->out, p, vok ? r : NULL, out, &cl);
    merge(res, hw_report_json(p, vok ? r : NULL, out, &cl));
    if (vok && r->liveness != LIVENESS_UNASKED) {
        int may = r->liveness == LIVENESS_MAY_HANG;
        cJSON_AddStringToObject(res, "liveness", may ? "may-hang" : "terminates");
        if (may) {
            char h[512];
            hang_text(r, h, sizeof h);
            cJSON_AddStringToObject(res, "hang", "never seen");
            if (!c->quiet)
                fprintf(c->out, "Liveness %s may-hang (%s): hang never seen\n\n", p->t->name, h);
            t->hang_never_seen++;
        }
    }
    t->ran++;
    t->observed_forbidden += cl.observed_forbidden;
    t->forbidden_tests += cl.observed_forbidden > 0;
    t->allowed_never_seen += cl.allowed_never_seen;
    hw_class_free(&cl);
}

/* The program ran past its limit and was killed: "hung".  Consistent when the model says the
 * test may hang; an alarm (exit status 1) when it says every execution terminates. */
static cJSON *report_hung(hw_ctx *c, const hw_plan *p, const verify_result *r, int vok,
                          const hw_opts *o, const char *path, hw_tally *t)
{
    char why[900], h[512];
    int may = vok && r->liveness == LIVENESS_MAY_HANG;
    t->hung++;
    if (may) hang_text(r, h, sizeof h);
    if (may)
        snprintf(why, sizeof why, "ran past %g s (killed); the model says it may hang: %s",
                 o->timeout_s, h);
    else if (vok) {
        t->hang_alarms++;
        snprintf(why, sizeof why,
                 "ran past %g s (killed) <== the model says every execution terminates",
                 o->timeout_s);
    } else
        snprintf(why, sizeof why, "ran past %g s (killed); the model did not decide", o->timeout_s);
    if (!c->quiet && !c->suite) fprintf(c->out, "Test %s: hung: %s\n", p->t->name, why);
    if (vok && !may) fprintf(stderr, "%s: hung, but the model says it terminates\n", path);
    cJSON *res = result(path, p->t, "hung", why);
    if (vok)
        cJSON_AddStringToObject(res, "liveness", may ? "may-hang" : "terminates");
    cJSON_AddStringToObject(res, "hang", may ? "consistent" : vok ? "alarm" : "undecided");
    return res;
}

static const char *say(hw_ctx *c, const lit_test *lt, const char *what, const char *detail)
{
    if (!c->quiet && !c->suite)
        fprintf(c->out, "Test %s: %s%s%s\n", lt->name, what, detail ? ": " : "",
                detail ? detail : "");
    return what;
}

/* --from FILE: classify what a harness printed elsewhere (built with --no-run, run on a GPU
 * host, or the CPU stand-in of the tests). */
static cJSON *from_output(hw_ctx *c, const hw_opts *o, const hw_plan *p, const char *path,
                          hw_tally *t)
{
    hw_outcome out;
    cJSON *res;
    if (hw_read_output(c->from, p, &out)) {
        t->errors++;
        fprintf(stderr, "%s: %s\n", c->from, out.reason);
        res = result(path, p->t, "error", out.reason);
    } else if (out.skipped) {
        t->skipped++;
        res = result(path, p->t, say(c, p->t, "skipped", out.reason), out.reason);
    } else {
        verify_result r;
        int vok = decide(p, o, &r);
        res = result(path, p->t, "ran", NULL);
        report_run(c, p, o->model, &r, vok, &out, res, t);
        verify_result_free(&r);
    }
    hw_outcome_free(&out);
    return res;
}

/* Compile and run the program written to dir/base.cu. */
static cJSON *build_and_run(hw_ctx *c, const hw_opts *o, const hw_plan *p, const char *path,
                            const char *dir, const char *base, int built, hw_tally *t)
{
    const lit_test *lt = p->t;
    char err[2048], where[4200];
    snprintf(where, sizeof where, "%.3800s/%.250s.cu", dir, base);
    if (c->from) return from_output(c, o, p, path, t);
    if (o->no_compile) {
        t->generated++;
        return result(path, lt, say(c, lt, "generated", o->keep ? where : NULL), NULL);
    }
    if (!c->nvcc) {
        t->skipped++;
        const char *why = "cannot compile the harness: nvcc not found (give --nvcc PATH)";
        return result(path, lt, say(c, lt, "skipped", why), why);
    }
    if (!built && hw_compile(c->nvcc, o, dir, base, o->keep != NULL, p->weak_in_loop, err,
                              sizeof err)) {
        fprintf(stderr, "%s\n", err);
        t->errors++;
        return result(path, lt, say(c, lt, "error", "nvcc failed"), err);
    }
    if (o->no_run) {
        t->compiled++;
        return result(path, lt, say(c, lt, "compiled", o->keep ? where : NULL), NULL);
    }
    verify_result r;
    int vok = decide(p, o, &r);
    hw_opts run = *o;   /* a test the model says may hang: the short limit */
    if (vok && r.liveness == LIVENESS_MAY_HANG && run.hang_timeout_s < run.timeout_s)
        run.timeout_s = run.hang_timeout_s;
    hw_outcome out;
    int rc = hw_execute(dir, base, p, &run, &out);
    cJSON *res;
    if (out.ran) {
        res = result(path, lt, "ran", NULL);
        report_run(c, p, o->model, &r, vok, &out, res, t);
    } else if (out.hung) {
        res = report_hung(c, p, &r, vok, &run, path, t);
    } else if (out.skipped && !rc) {
        t->skipped++;
        snprintf(err, sizeof err, "the harness was built but cannot run here: %s", out.reason);
        res = result(path, lt, say(c, lt, "skipped", err), err);
    } else {
        t->errors++;
        fprintf(stderr, "%s: %s\n", path, out.reason);
        res = result(path, lt, say(c, lt, "error", out.reason), out.reason);
    }
    hw_outcome_free(&out);
    verify_result_free(&r);
    return res;
}

cJSON *hw_run_file(hw_ctx *c, const hw_opts *o, const char *path, const char *prefix, hw_tally *t)
{
    char err[2048], base[256], dir[4096];
    t->tests++;
    lit_test *lt = lit_parse_file(path, err, sizeof err);
    if (!lt) {
        fprintf(stderr, "%s\n", err);
        t->errors++;
        return result(path, NULL, "error", err);
    }
    hw_plan p;
    char *prog = NULL;
    if (hw_plan_build(lt, o, &p, err, sizeof err) ||
        !(prog = hw_emit_program(&p, o, err, sizeof err))) {
        if (!c->quiet && !c->suite) fprintf(stderr, "%s\n", err);
        t->refused++;
        cJSON *res = result(path, lt, "refused", err);
        if (p.t) hw_plan_free(&p);
        lit_free(lt);
        return res;
    }
    base_name(path, prefix, base, sizeof base);
    if (o->keep) snprintf(dir, sizeof dir, "%s", o->keep);
    else snprintf(dir, sizeof dir, "/tmp/ptxlitmus-hw-XXXXXX");
    cJSON *res;
    int same = 0;
    if (!o->keep && !mkdtemp(dir)) {
        t->errors++;
        res = result(path, lt, "error", "cannot create a temporary directory");
    } else if (write_text(dir, base, prog, &same)) {
        t->errors++;
        snprintf(err, sizeof err, "cannot write %.1500s/%.250s.cu: %s", dir, base, strerror(errno));
        res = result(path, lt, "error", err);
    } else res = build_and_run(c, o, &p, path, dir, base, same, t);
    if (!o->keep) clean_dir(dir, base);
    free(prog);
    hw_plan_free(&p);
    lit_free(lt);
    return res;
}
