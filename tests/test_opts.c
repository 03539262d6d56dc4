/* tests/test_opts.c — the option parser of every command (base/opts.c: --opt=value, herd7
 * single-dash spellings, hints, @FILE lists, directory expansion) and SHA-256 (base/sha256.c,
 * the model hash of the provenance). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/opts.h"
#include "base/sha256.h"

enum { O_MODEL = 1, O_UNROLL, O_JSON, O_TIMEOUT, O_SHOW, O_X };
static const opt_def defs[] = {
    OPT_COMMON,
    { "model", 0, O_MODEL, "a model name", "model" },
    { "unroll", 0, O_UNROLL, "a whole number", "unroll" },
    { "json", 0, O_JSON | OPT_ONCE, "a file name or -", NULL },
    { "timeout", 0, O_TIMEOUT, "seconds", NULL },
    { "show", 0, O_SHOW, "witness, all or forbidden", "show" },
    { "graph", 'o', O_X, "a directory", NULL },
    { NULL, 0, 0, NULL, NULL },
};

static int parse(int argc, char **argv, opt_parser *p, int *ids, const char **vals)
{
    opt_init(p, "test", defs, argc, argv);
    int k = 0, id;
    while ((id = opt_next(p)) > 0) { ids[k] = id; vals[k++] = p->arg; }
    return id == OPT_ERROR ? -1 : k;
}

START_TEST(long_short_herd_spellings)
{
    char *argv[] = { "verify", "--model=ptx-v7.5", "a.litmus", "-model", "ptx", "--unroll", "-1",
                     "-q", "-unroll", "3", "-o", "dir", "-odir2", "--", "--json", NULL };
    opt_parser p;
    int ids[16];
    const char *vals[16];
    int n = parse(15, argv, &p, ids, vals);
    ck_assert_int_eq(n, 7);
    ck_assert_int_eq(ids[0], O_MODEL); ck_assert_str_eq(vals[0], "ptx-v7.5");
    ck_assert_int_eq(ids[1], O_MODEL); ck_assert_str_eq(vals[1], "ptx");
    ck_assert_int_eq(ids[2], O_UNROLL); ck_assert_str_eq(vals[2], "-1");
    ck_assert_int_eq(ids[3], OPT_QUIET); ck_assert_ptr_null(vals[3]);
    ck_assert_int_eq(ids[4], O_UNROLL); ck_assert_str_eq(vals[4], "3");
    ck_assert_int_eq(ids[5], O_X); ck_assert_str_eq(vals[5], "dir");
    ck_assert_int_eq(ids[6], O_X); ck_assert_str_eq(vals[6], "dir2");
    ck_assert_int_eq(p.npos, 2);
    ck_assert_str_eq(p.pos[0], "a.litmus");
    ck_assert_str_eq(p.pos[1], "--json");   /* after -- */
    opt_free(&p);
}
END_TEST

START_TEST(errors_and_hints)
{
    opt_parser p;
    int ids[4];
    const char *vals[4];
    char *a1[] = { "verify", "--modle", "x", NULL };
    ck_assert_int_eq(parse(3, a1, &p, ids, vals), -1);
    opt_free(&p);
    char *a2[] = { "verify", "--json", NULL };   /* missing value */
    ck_assert_int_eq(parse(2, a2, &p, ids, vals), -1);
    opt_free(&p);
    char *a3[] = { "verify", "--quiet=1", NULL };   /* value given to a flag */
    ck_assert_int_eq(parse(2, a3, &p, ids, vals), -1);
    opt_free(&p);
    /* issue #28: an output given twice is refused, not "last one wins"; ids come back without
       OPT_ONCE; other options may repeat */
    char *a4[] = { "verify", "--json", "a.json", "--json=b.json", NULL };
    ck_assert_int_eq(parse(4, a4, &p, ids, vals), -1);
    opt_free(&p);
    char *a5[] = { "verify", "--json", "a.json", "--model", "x", "--model", "y", NULL };
    ck_assert_int_eq(parse(7, a5, &p, ids, vals), 3);
    ck_assert_int_eq(ids[0], O_JSON);
    opt_free(&p);
    char h[300];
    opt_hint(defs, "--modle", h, sizeof h);
    ck_assert_str_eq(h, "did you mean '--model'?");
    opt_hint(defs, "-jsn", h, sizeof h);
    ck_assert_str_eq(h, "did you mean '--json'?");
    opt_hint(defs, "-speedcheck", h, sizeof h);
    ck_assert_ptr_nonnull(strstr(h, "herd7's -speedcheck"));
    opt_hint(defs, "--zzzzzzzzzz", h, sizeof h);
    ck_assert_str_eq(h, "");
    ck_assert_int_eq(opt_distance("kitten", "sitting"), 3);
    ck_assert_int_eq(opt_distance("", "abc"), 3);
}
END_TEST

START_TEST(values)
{
    opt_parser p;
    char *argv[] = { "x", NULL };
    opt_init(&p, "test", defs, 1, argv);
    strcpy(p.spelled, "--timeout");
    double d;
    p.arg = "0.5";
    ck_assert_int_eq(opt_seconds(&p, 100, &d), 0);
    ck_assert(d == 0.5);
    p.arg = "2s";
    ck_assert_int_eq(opt_seconds(&p, 100, &d), 0);
    ck_assert(d == 2);
    p.arg = "-1";
    ck_assert_int_eq(opt_seconds(&p, 100, &d), -1);
    p.arg = "nan";
    ck_assert_int_eq(opt_seconds(&p, 100, &d), -1);
    p.arg = "101";
    ck_assert_int_eq(opt_seconds(&p, 100, &d), -1);
    long v;
    p.arg = "12";
    ck_assert_int_eq(opt_long(&p, 0, 12, &v), 0);
    ck_assert_int_eq(v, 12);
    p.arg = "13";
    ck_assert_int_eq(opt_long(&p, 0, 12, &v), -1);
    p.arg = "";
    ck_assert_int_eq(opt_long(&p, 0, 12, &v), -1);
    static const char *const w[] = { "witness", "all", "forbidden", NULL };
    int k;
    p.arg = "all";
    ck_assert_int_eq(opt_word(&p, w, &k), 0);
    ck_assert_int_eq(k, 1);
    p.arg = "some";
    ck_assert_int_eq(opt_word(&p, w, &k), -1);
    opt_free(&p);
}
END_TEST

static char tdir[64];

static void put(const char *name, const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", tdir, name);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

/* path_expand of tdir: want paths; returns the loops it skipped */
static int expand_loops(int want)
{
    char **paths = NULL;
    int np = 0, loops = 0;
    ck_assert_int_eq(path_expand(tdir, ".litmus", &paths, &np, &loops), want);
    for (int i = 0; i < np; i++) free(paths[i]);
    free(paths);
    return loops;
}

START_TEST(at_files_and_directories)
{
    snprintf(tdir, sizeof tdir, "build/tests/optsdir.%d", (int)getpid());
    ck_assert_int_eq(mkdir(tdir, 0700), 0);
    char sub[128], at[128], at2[128];
    snprintf(sub, sizeof sub, "%s/sub", tdir);
    ck_assert_int_eq(mkdir(sub, 0700), 0);
    put("b.litmus", "");
    put("a.litmus", "");
    put("notes.txt", "");
    put("sub/c.litmus", "");
    put(".hidden.litmus", "");
    put("more", "--unroll\n3\n");
    snprintf(at2, sizeof at2, "@%s/more", tdir);
    char text[256];
    snprintf(text, sizeof text, "# a comment\n--model\n  ptx-v7.5  \n\n%s\nx.litmus\n", at2);
    put("args", text);
    snprintf(at, sizeof at, "@%s/args", tdir);
    char *argv[] = { "verify", at, "--", "@literal", NULL };
    int n;
    char **v;
    ck_assert_int_eq(opt_expand_at(4, argv, &n, &v), 0);
    ck_assert_int_eq(n, 8);
    const char *want[] = { "verify", "--model", "ptx-v7.5", "--unroll", "3", "x.litmus", "--",
                           "@literal" };
    for (int i = 0; i < 8; i++) ck_assert_str_eq(v[i], want[i]);
    ck_assert_ptr_null(v[8]);
    opt_free_argv(v);
    char *bad[] = { "verify", "@/nonexistent/args", NULL };
    ck_assert_int_eq(opt_expand_at(2, bad, &n, &v), -1);

    char **paths = NULL;
    int np = 0;
    ck_assert_int_eq(path_expand(tdir, ".litmus", &paths, &np, NULL), 3);
    ck_assert_int_eq(np, 3);
    ck_assert(strstr(paths[0], "/a.litmus"));
    ck_assert(strstr(paths[1], "/b.litmus"));
    ck_assert(strstr(paths[2], "/sub/c.litmus"));
    ck_assert_int_eq(path_expand("-", ".litmus", &paths, &np, NULL), 1);
    ck_assert_str_eq(paths[3], "-");
    for (int i = 0; i < np; i++) free(paths[i]);
    free(paths);
    /* issue #28: a symbolic link back up (a loop) was followed down to the depth limit, every
       test counted once per level; a link to another folder is still followed */
    char link[160];
    snprintf(link, sizeof link, "%s/sub/up", tdir);
    ck_assert_int_eq(symlink("..", link), 0);
    snprintf(link, sizeof link, "%s/sub/self", tdir);
    ck_assert_int_eq(symlink(".", link), 0);
    ck_assert_int_eq(expand_loops(3), 2);
    char other[160];
    snprintf(other, sizeof other, "%s/other", tdir);
    ck_assert_int_eq(mkdir(other, 0700), 0);
    put("other/d.litmus", "");
    snprintf(link, sizeof link, "%s/sub/to-other", tdir);
    ck_assert_int_eq(symlink("../other", link), 0);
    /* a, b, other/d, sub/c, sub/to-other/d: a folder reached twice is no loop */
    ck_assert_int_eq(expand_loops(5), 2);
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tdir);
    ck_assert_int_eq(system(cmd), 0);
}
END_TEST

START_TEST(sha256_vectors)
{
    char h[65];
    sha256_hex("", 0, h);
    ck_assert_str_eq(h, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    sha256_hex("abc", 3, h);
    ck_assert_str_eq(h, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";   /* 56 bytes */
    sha256_hex(two, strlen(two), h);
    ck_assert_str_eq(h, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    char big[1000];
    memset(big, 'a', sizeof big);
    sha256_hex(big, sizeof big, h);
    ck_assert_str_eq(h, "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3");
}
END_TEST

static void add_tests(TCase *tc)
{
    tcase_add_test(tc, long_short_herd_spellings);
    tcase_add_test(tc, errors_and_hints);
    tcase_add_test(tc, values);
    tcase_add_test(tc, at_files_and_directories);
    tcase_add_test(tc, sha256_vectors);
}

#include "check_main.h"
