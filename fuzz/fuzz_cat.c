/* fuzz/fuzz_cat.c — libFuzzer target: the cat front end (cat_load_text: tokenizer, parser,
 * include resolution, name resolution) on arbitrary text, then linking (the type check over an
 * empty universe) against an engine that knows every name, evaluation over 3 events with
 * symbolic entries, assertion of the checks and their evaluation on a model.  Every failure
 * must be one line "file:line:col: found X, expected Y". */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "frontend/cat.h"
#include "solver/cat_eval.h"

#ifndef FUZZ_MAX_LEN
#define FUZZ_MAX_LEN 16384
#endif
#define FILE_NAME "/nonexistent/fuzz.cat"
#define N 3

static enc E;
static int E_ready, E_uses;
static rset sets[2];
static rel rels[2];

/* upper-case names (and _) are sets (ids 0, 1), the others relations (ids 2, 3) */
static int lookup(void *ctx, const char *name, cat_kind *k)
{
    (void)ctx;
    if (!strcmp(name, "nosuch")) return -1;   /* to exercise unknown names */
    int set = (name[0] >= 'A' && name[0] <= 'Z') || !strcmp(name, "_");
    *k = set ? CAT_SET : CAT_REL;
    return set ? (strcmp(name, "_") ? 1 : 0) : 2 + (name[0] == 'r');
}

static const char *const *names(void *ctx, int *count)
{
    static const char *const v[] = { "_", "po", "rf", "W", "R" };
    (void)ctx;
    *count = 5;
    return v;
}

static int value(void *ctx, int id, int n, cat_value *out)
{
    (void)ctx;
    if (n != N || id < 0 || id > 3) return -1;
    out->kind = id < 2 ? CAT_SET : CAT_REL;
    out->set = sets[id & 1];
    out->rel = rels[id & 1];
    return 0;
}

static const cat_engine ENGINE = { lookup, names, value };

static void setup(void)
{
    if (E_ready && E_uses < 2000) return;
    if (E_ready) {
        for (int i = 0; i < 2; i++) { rset_free(&sets[i]); rel_free(&rels[i]); }
        enc_free(&E);
    }
    enc_init(&E);
    E_ready = 1;
    E_uses = 0;
    for (int i = 0; i < 2; i++) {
        sets[i] = rset_new(N);
        rels[i] = rel_new(N);
        for (int k = 0; k < N; k++) sets[i].v[k] = i == 0 || k != 1 ? E.T : b_var(&E, "s");
        for (int k = 0; k < N * N; k++)
            rels[i].m[k] = k % 4 == 0 ? NULL : k % 4 == 1 ? E.T : b_var(&E, "r");
    }
}

/* ":<digits>" at *p: advances past it, 0 when absent */
static int number(const char **p)
{
    if (**p != ':' || (*p)[1] < '0' || (*p)[1] > '9') return 0;
    (*p)++;
    while (**p >= '0' && **p <= '9') (*p)++;
    return 1;
}

static void check_message(const char *err)
{
    /* FILE_NAME:line:col: found …, expected … (an included file: any absolute path) */
    size_t l = strlen(FILE_NAME);
    const char *p = err;
    if (!strncmp(p, FILE_NAME, l)) p += l;
    else if (err[0] == '/') p = strchr(err, ':');
    else abort();
    if (!p || !number(&p) || !number(&p) || strncmp(p, ": found ", 8) != 0) abort();
    if (!strstr(p, ", expected ") || strchr(err, '\n')) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > FUZZ_MAX_LEN) return 0;
    char *text = malloc(size + 1);
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = 0;
    char err[1024] = "";
    static const char *const search[] = { "/nonexistent/lib" };
    cat_model *m = cat_load_text(FILE_NAME, text, search, 1, err, sizeof err);
    free(text);
    if (!m) { check_message(err); return 0; }
    (void)cat_model_name(m);
    for (int i = 0; i < cat_nbase(m); i++) (void)cat_base_name(m, i);
    setup();
    E_uses++;
    cat_prog *p = cat_link(m, &ENGINE, NULL, err, sizeof err);
    if (!p) { check_message(err); cat_free(m); return 0; }
    cat_result r;
    if (cat_eval(p, &E, N, NULL, NULL, &r, err, sizeof err) == 0) {
        Z3_solver s = Z3_mk_simple_solver(E.z);
        Z3_solver_inc_ref(E.z, s);
        cat_assert_checks(&E, s, &r);
        for (int i = 0; i < r.n; i++) cat_assert_check(&E, s, &r.v[i], CAT_ACYCLIC_CLOSURE);
        Z3_solver_dec_ref(E.z, s);
        Z3_model mo = Z3_mk_model(E.z);
        Z3_model_inc_ref(E.z, mo);
        int holds[64];
        if (r.n <= 64 && cat_checks_hold(&E, mo, &r, holds) != 0) abort();
        Z3_model_dec_ref(E.z, mo);
        cat_result_free(&r);
    } else {
        check_message(err);
    }
    cat_prog_free(p);
    cat_free(m);
    return 0;
}
