/* tests/test_reliability.c — regression tests of issue #16 ("nothing lost, nothing overwritten,
 * no wrong verdict") that live below the command line: exact names of any length in
 * conditions, range-checked constants, the vacuous `forall` note, the text escaper of the
 * reporters (base/text.h).  The file-level faults are in tests/test_base.c, the command-line
 * ones in tests/cli/reliability.sh; docs/reliability.md maps each fault to its test. */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/text.h"
#include "include/ptxexec.h"
#include "check/verify.h"
#include "frontend/litmus.h"
#include "tests/litmus_run.h"
#include "report/report.h"
#include "cli/cli.h"
#include "base/fileio.h"
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/stat.h>
#include <unistd.h>
#include "solver/rel.h"

static verify_result run_text(const char *text)
{
    verify_opts o;
    verify_opts_default(&o);
    return verify_text(text, &o);
}

#define R40A "%r0123456789012345678901234567890123456A"
#define R40B "%r0123456789012345678901234567890123456B"

/* issue #16: names in conditions were cut to 31 characters, so a long register named in the
 * condition meant another (never-written) one and the verdict flipped */
START_TEST(long_names_in_conditions_are_exact)
{
    verify_result r = run_text("PTX long\n{ x=0; }\n P0@cta 0,gpu 0 ;\n"
                               " mov.u32 " R40A ", 5 ;\n mov.u32 " R40B ", 7 ;\n"
                               "exists (P0:" R40B " == 7 /\\ P0:" R40A " == 5)\n");
    ck_assert_int_eq(r.validated, 1);
    verify_result_free(&r);
    r = run_text("PTX long2\n{ x=0; }\n P0@cta 0,gpu 0 ;\n"
                 " mov.u32 " R40A ", 5 ;\n mov.u32 " R40B ", 7 ;\n"
                 "exists (P0:" R40B " == 5)\n");
    ck_assert_int_eq(r.validated, 0);
    verify_result_free(&r);
    /* a location name of 300 characters */
    char big[300 + 1], text[2048];
    memset(big, 'y', 300);
    big[300] = 0;
    big[0] = 'a';
    snprintf(text, sizeof text,
             "PTX longloc\n{ %s=0; %.299sz=0; }\n P0@cta 0,gpu 0 ;\n"
             " st.global.u32 [%s], 3 ;\nexists (%s == 3 /\\ %.299sz == 0)\n",
             big, big, big, big, big);
    r = run_text(text);
    ck_assert_int_eq(r.validated, 1);
    verify_result_free(&r);
}
END_TEST

/* issue #16: -9223372036854775809 wrapped to 9223372036854775807; negating INT64_MIN was
 * undefined behaviour (this file runs under UBSan in make check-asan) */
START_TEST(constants_are_range_checked)
{
    verify_result r =
        run_text("PTX min\n{ x=-9223372036854775808; }\n P0@cta 0,gpu 0 ;\n"
                 " ld.global.s64 r1, [x] ;\n"
                 "exists (P0:r1 == -9223372036854775808 /\\ x == -9223372036854775808)\n");
    ck_assert_int_eq(r.validated, 1);
    verify_result_free(&r);
    const char *bad[] = {
        "PTX b\n{ x=-9223372036854775809; }\n P0@cta 0,gpu 0 ;\n ld.global.s64 r1, [x] ;\nexists "
        "(x == 0)\n",
        "PTX b\n{ x=0; }\n P0@cta 0,gpu 0 ;\n ld.global.s64 r1, [x] ;\nexists (x == "
        "-9223372036854775809)\n",
        "PTX b\n{ x=0; }\n P0@cta 0,gpu 0 ;\n st.global.s64 [x], -9223372036854775809 ;\nexists (x "
        "== 0)\n",
        "PTX b\n{ x=0; }\n P0@cta 0,gpu 0 ;\n ld.global.s64 r1, [x] ;\nexists (x == "
        "18446744073709551616)\n",
        "PTX b\n{ x=0; }\n P0@cta 0,gpu 0 ;\n ld.global.s64 %%r1, [x] ;\nexists (x == 0)\n",
        "PTX b\n{ x=0; }\n P0@cta 0,gpu 0 ;\n ld.global.s64 %r1, [x] ;\nexists (P0:%%r1 == 0)\n",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char err[1024] = "";
        lit_test *t = lit_parse("bad.litmus", bad[i], err, sizeof err);
        ck_assert_msg(t == NULL, "accepted: %s", bad[i]);
        ck_assert_msg(strstr(err, "bad.litmus:") == err && strstr(err, "found"), "%s", err);
    }
}
END_TEST

/* issue #16: test names with terminal escape sequences or invalid UTF-8 went raw to the
 * terminal and made the JSON invalid */
START_TEST(names_are_escaped_for_terminal_json_and_xml)
{
    char *t = text_term_dup("ev\x1b[31mil\xff\xc3\xa9\xe2\x80\xae\x7f\n");
    ck_assert_str_eq(t, "ev\\x1b[31mil\\xff\xc3\xa9\\xe2\\x80\\xae\\x7f\\x0a");
    free(t);
    ck_assert(text_term_clean("MP+fence.sys"));
    ck_assert(!text_term_clean("a\x1b"));
    ck_assert_ptr_null(text_utf8_fix("caf\xc3\xa9"));
    char *u = text_utf8_fix("a\xff\xc0\xaf" "b\xed\xa0\x80");   /* bad byte, overlong, surrogate */
    ck_assert_str_eq(u, "a\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"
                        "b\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
    free(u);
    sbuf x = { 0 };
    text_xml(&x, "<a&\x01\xff>");
    ck_assert_str_eq(x.s, "&lt;a&amp;\xef\xbf\xbd\xef\xbf\xbd&gt;");
    sb_free(&x);
    /* a verified test with such a name: herd text escaped, JSON valid UTF-8 */
    verify_result r =
        run_text("PTX ev\x1b[2Jil\xff\n{ x=0; }\n P0@cta 0,gpu 0 ;\n st.global.u32 [x], 1 ;\n"
                 "exists (x == 1)\n");
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    report_herd(f, &r, 2);
    fclose(f);
    ck_assert_msg(strstr(buf, "Test ev\\x1b[2Jil\\xff Allowed\n"), "%s", buf);
    ck_assert_ptr_null(strchr(buf, 0x1b));
    free(buf);
    cJSON *o = report_json_result(&r);
    char *js = report_json_text(o, 0);
    cJSON_Delete(o);
    ck_assert_ptr_nonnull(strstr(js, "\"name\":\"ev\\u001b[2Jil\xef\xbf\xbd\""));
    for (const unsigned char *p = (const unsigned char *)js; *p; p++)
        ck_assert(*p >= 0x20 || *p == '\n');
    free(js);
    verify_result_free(&r);
}
END_TEST

/* issue #16: qsort(NULL, 0) in merge (undefined behaviour: UBSan in make check-asan) and an
 * unchecked realloc; a merge of files without results runs to its end, and (issue #15: an
 * empty run never passes) exits 1, 'nothing checked' */
START_TEST(merge_of_empty_results)
{
    char path[] = "/tmp/ptxmerge.XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    const char *doc = "{\"tool\":\"ptxlitmus\",\"kind\":\"suite\",\"shard\":null,\"results\":[]}\n";
    ck_assert_int_eq(write(fd, doc, strlen(doc)), (ssize_t)strlen(doc));
    close(fd);
    char *argv[] = { "merge", "-q", path, path, NULL };
    FILE *keep = stdout;
    stdout = fopen("/dev/null", "w");
    int rc = merge_cli(4, argv);
    fclose(stdout);
    stdout = keep;
    unlink(path);
    ck_assert_int_eq(rc, 1);
}
END_TEST

/* issue #16: "a test where no execution terminates gets a vacuous Ok for forall with no note" */
START_TEST(vacuous_verdicts_are_marked)
{
    static const char *quant[] = { "forall", "~exists", "exists" };
    for (int q = 0; q < 3; q++) {
        char text[512];
        snprintf(text, sizeof text,
                 "PTX vacuous\n{ x=0; }\n P0@cta 0,gpu 0 ;\n LC00: ;\n"
                 " ld.global.u32 r0, [x] ;\n setp.eq.u32 p0, r0, 0 ;\n @p0 bra LC00 ;\n%s (P0:r0 "
                 "== 5)\n",
                 quant[q]);
        verify_result r = run_text(text);
        ck_assert_int_eq(r.vacuous, 1);
        ck_assert_int_eq(r.validated, q < 2);
        char *buf = NULL;
        size_t n = 0;
        FILE *f = open_memstream(&buf, &n);
        report_herd(f, &r, 2);
        fclose(f);
        ck_assert_msg(strstr(buf, "\nVacuous: no execution reaches a final state\n"), "%s", buf);
        free(buf);
        cJSON *o = report_json_result(&r);
        ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(o, "vacuous")));
        cJSON_Delete(o);
        verify_result_free(&r);
    }
    /* a test with final states is not vacuous */
    verify_result r = run_text(
        "PTX nv\n{ x=0; }\n P0@cta 0,gpu 0 ;\n ld.global.u32 r0, [x] ;\nforall (P0:r0 == 0)\n");
    ck_assert_int_eq(r.vacuous, 0);
    ck_assert_int_eq(r.validated, 1);
    cJSON *o = report_json_result(&r);
    ck_assert(cJSON_IsFalse(cJSON_GetObjectItem(o, "vacuous")));
    cJSON_Delete(o);
    verify_result_free(&r);
}
END_TEST

/* issue #16: `verify --json in.litmus in.litmus` overwrote the test; outputs could name ../ or
 * absolute paths.  output_problem (base/fileio.h) is the one check of every command. */
static int problem(const char *out, const char *in, const char *base, char *found)
{
    char expected[200];
    const char *ins[] = { in };
    return output_problem(out, ins, in ? 1 : 0, base, found, 8192, expected, sizeof expected);
}

START_TEST(outputs_are_never_inputs_and_stay_inside)
{
    char old[PATH_MAX], dir[] = "/tmp/ptxlitmus-outpaths-XXXXXX", found[8192];
    ck_assert_ptr_nonnull(getcwd(old, sizeof old));
    ck_assert_ptr_nonnull(mkdtemp(dir));
    ck_assert_int_eq(chdir(dir), 0);
    ck_assert_int_eq(mkdir("sub", 0777), 0);
    FILE *f = fopen("in.litmus", "w");
    fputs("x", f);
    fclose(f);
    ck_assert_int_eq(symlink("in.litmus", "link.litmus"), 0);
    ck_assert_int_eq(link("in.litmus", "hard.litmus"), 0);
    output_set_allow_outside(0);
    /* the same file under every spelling */
    const char *same[] = { "in.litmus", "./in.litmus", "sub/../in.litmus", "link.litmus",
                           "hard.litmus", NULL };
    for (int i = 0; same[i]; i++) {
        ck_assert_msg(problem(same[i], "in.litmus", NULL, found) == -1, "%s accepted", same[i]);
        ck_assert_msg(strstr(found, "which is the input in.litmus"), "%s", found);
    }
    char abs[PATH_MAX + 32];
    snprintf(abs, sizeof abs, "%s/in.litmus", dir);
    ck_assert_int_eq(problem(abs, "in.litmus", NULL, found), -1);   /* absolute, same file */
    ck_assert_int_eq(problem("in.litmus", abs, NULL, found), -1);
    /* neither file exists: the resolved paths are compared */
    ck_assert_int_eq(problem("./new.json", "new.json", NULL, found), -1);
    ck_assert_int_eq(problem("sub/x/../../new.json", "new.json", NULL, found), -1);
    /* other files inside the working folder are fine */
    ck_assert_int_eq(problem("out.json", "in.litmus", NULL, found), 0);
    ck_assert_int_eq(problem("sub/out.json", "in.litmus", NULL, found), 0);
    ck_assert_int_eq(problem("sub/nodir/out.json", "in.litmus", NULL, found), 0);
    ck_assert_int_eq(problem(".", NULL, NULL, found), 0);
    /* named on the command line (base NULL): wherever the user says (issue #30: --json
       /tmp/artifacts/r.json in CI), through '..', absolute, a symlinked folder */
    ck_assert_int_eq(problem("/tmp/ptxlitmus-outside.json", "in.litmus", NULL, found), 0);
    ck_assert_int_eq(problem("../out.json", "in.litmus", NULL, found), 0);
    ck_assert_int_eq(problem("sub/../../out.json", NULL, NULL, found), 0);
    ck_assert_int_eq(symlink("/tmp", "up"), 0);
    ck_assert_int_eq(problem("up/out.json", NULL, NULL, found), 0);
    ck_assert_int_eq(problem(abs, NULL, NULL, found), 0);
    /* ... but not through a symbolic link to a file (the writer would refuse it after the run) */
    ck_assert_int_eq(problem("link.litmus", NULL, NULL, found), -1);
    ck_assert_msg(strstr(found, "which is a symbolic link to a file (not followed)"), "%s", found);
    /* ... nor to a device, unless on purpose */
    ck_assert_int_eq(problem("/dev/zero", NULL, NULL, found), -1);
    ck_assert_msg(strstr(found, "output /dev/zero, which is a character device"), "%s", found);
    /* named by an input file (run: the spec's folder, base): confined to that folder */
    ck_assert_int_eq(problem("sub/out.bin", NULL, "sub", found), 0);
    ck_assert_int_eq(problem("out.bin", NULL, "sub", found), -1);
    ck_assert_msg(strstr(found, "outside the folder sub"), "%s", found);
    ck_assert_int_eq(problem("/tmp/ptxlitmus-outside.json", NULL, ".", found), -1);
    ck_assert_int_eq(problem("../out.json", NULL, ".", found), -1);
    ck_assert_msg(strstr(found, "(it resolves to /tmp/out.json)"), "%s", found);
    ck_assert_int_eq(problem("up/out.json", NULL, ".", found), -1);
    ck_assert_int_eq(problem("sub/../../out.json", NULL, ".", found), -1);
    ck_assert_int_eq(problem(abs, NULL, ".", found), 0);   /* absolute but inside */
    /* streams are no file of the run */
    const char *streams[] = { "-", "/dev/stdout", "/dev/stderr", "/dev/fd/1", "/proc/self/fd/2",
                              "/dev/null", NULL };
    for (int i = 0; streams[i]; i++)
        ck_assert_msg(problem(streams[i], "in.litmus", NULL, found) == 0, "%s refused", streams[i]);
    /* --allow-outside widens rule 2, never rule 1 */
    output_set_allow_outside(1);
    ck_assert_int_eq(problem("/tmp/ptxlitmus-outside.json", "in.litmus", ".", found), 0);
    ck_assert_int_eq(problem("../out.json", NULL, ".", found), 0);
    ck_assert_int_eq(problem("/dev/zero", NULL, NULL, found), 0);
    ck_assert_int_eq(problem("link.litmus", "in.litmus", NULL, found), -1);
    output_set_allow_outside(0);
    /* rule 3: the folder exists and may be written to, checked before any work (issue #30) */
    ck_assert_int_eq(output_check("t", "sub/out.json", NULL, 0), 0);
    ck_assert_int_eq(output_check("t", "out.json", NULL, 0), 0);
    ck_assert_int_eq(output_check("t", "nodir/out.json", NULL, 0), -1);
    ck_assert_int_eq(output_check("t", "in.litmus/out.json", NULL, 0), -1);
    ck_assert_int_eq(output_check_dir("t", "sub", NULL, 0), 0);
    ck_assert_int_eq(output_check_dir("t", "sub/new", NULL, 0), 0);
    ck_assert_int_eq(output_check_dir("t", "nodir/new", NULL, 0), -1);
    ck_assert_int_eq(output_check_dir("t", "in.litmus", NULL, 0), -1);
    ck_assert_int_eq(output_check("t", "-", NULL, 0), 0);
    const char *rm[] = { "in.litmus", "link.litmus", "hard.litmus", "up", NULL };
    for (int i = 0; rm[i]; i++) unlink(rm[i]);
    rmdir("sub");
    ck_assert_int_eq(chdir(old), 0);
    ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

/* issue #16: "--max-memory does not cover stacks and per-warp statistics (6-8.4 GB observed),
 * and a host allocation failure is reported as a guest out-of-bounds fault" */
static const char kmem_ptx[] =
    ".version 7.0\n.target sm_70\n.address_size 64\n"
    ".func (.param .b32 r) rec(.param .b32 n)\n{\n"
    " .reg .b32 %r<4>;\n .reg .pred %p;\n"
    " ld.param.b32 %r1, [n];\n setp.eq.s32 %p, %r1, 0;\n @%p bra DONE;\n sub.s32 %r2, %r1, 1;\n"
    " {\n .param .b32 a;\n .param .b32 b;\n st.param.b32 [a], %r2;\n call (b), rec, (a);\n"
    " ld.param.b32 %r3, [b];\n }\n add.s32 %r1, %r3, 1;\n"
    "DONE:\n st.param.b32 [r], %r1;\n ret;\n}\n"
    ".visible .entry deep(.param .u64 out, .param .u32 n)\n{\n"
    " .reg .b32 %r<3>;\n .reg .b64 %rd<2>;\n ld.param.u32 %r1, [n];\n"
    " {\n .param .b32 a;\n .param .b32 b;\n st.param.b32 [a], %r1;\n call (b), rec, (a);\n"
    " ld.param.b32 %r2, [b];\n }\n"
    " ld.param.u64 %rd1, [out];\n st.global.u32 [%rd1], %r2;\n ret;\n}\n"
    ".visible .entry biglocal(.param .u64 out)\n{\n"
    " .local .align 8 .b8 buf[1048576];\n .reg .b32 %r<2>;\n .reg .b64 %rd<3>;\n"
    " mov.u64 %rd2, buf;\n st.local.u32 [%rd2+1048572], 7;\n ld.local.u32 %r1, [%rd2+1048572];\n"
    " ld.param.u64 %rd1, [out];\n st.global.u32 [%rd1], %r1;\n ret;\n}\n";

static ptxeResult launch_limited(const char *kernel, unsigned grid, unsigned block, uint32_t n,
                                 uint64_t limit, uint32_t *result, char *msg, size_t msglen)
{
    ptxeCtx *ctx;
    ck_assert_int_eq(ptxeCtxCreate(&ctx), PTXE_SUCCESS);
    ck_assert_int_eq(ptxeCtxSetMemoryLimit(ctx, limit), PTXE_SUCCESS);
    ptxeModule *m;
    ck_assert_msg(ptxeModuleLoadData(ctx, &m, kmem_ptx, sizeof kmem_ptx - 1, "kmem.ptx") ==
                      PTXE_SUCCESS,
                  "%s", ptxeGetErrorMessage(ctx));
    ptxeFunction *f;
    ck_assert_int_eq(ptxeModuleGetFunction(&f, m, kernel), PTXE_SUCCESS);
    ptxeDevptr out;
    ck_assert_int_eq(ptxeMemAlloc(ctx, &out, 4), PTXE_SUCCESS);
    ptxeLaunchConfig cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.grid[0] = grid; cfg.grid[1] = cfg.grid[2] = 1;
    cfg.block[0] = block; cfg.block[1] = cfg.block[2] = 1;
    void *args[] = { &out, &n };
    ptxeResult r = ptxeLaunchKernel(f, &cfg, args);
    snprintf(msg, msglen, "%s", ptxeGetErrorMessage(ctx));
    *result = 0;
    if (r == PTXE_SUCCESS) ptxeMemcpyDtoH(ctx, result, out, 4);
    ptxeModuleUnload(m);
    ptxeCtxDestroy(ctx);
    return r;
}

START_TEST(launch_host_memory_counts_against_the_limit)
{
    char msg[2048];
    uint32_t v;
    /* with room: the kernels run */
    ck_assert_int_eq(launch_limited("deep", 1, 32, 500, 1u << 30, &v, msg, sizeof msg),
                     PTXE_SUCCESS);
    ck_assert_uint_eq(v, 500);
    ck_assert_int_eq(launch_limited("biglocal", 1, 32, 0, 1u << 30, &v, msg, sizeof msg),
                     PTXE_SUCCESS);
    ck_assert_uint_eq(v, 7);
    /* call frames (the stack) of a deep recursion */
    ck_assert_int_eq(launch_limited("deep", 1, 32, 500, 256 << 10, &v, msg, sizeof msg),
                     PTXE_ERROR_OUT_OF_MEMORY);
    ck_assert_msg(strstr(msg, "more bytes of host memory for a call frame"), "%s", msg);
    ck_assert_msg(!strncmp(msg, "host error: found a launch", 26), "%s", msg);
    ck_assert_msg(!strstr(msg, "fault") && !strstr(msg, "out of bounds"), "%s", msg);
    /* local memory: 32 lanes x 1 MiB */
    ck_assert_int_eq(launch_limited("biglocal", 1, 32, 0, 4 << 20, &v, msg, sizeof msg),
                     PTXE_ERROR_OUT_OF_MEMORY);
    ck_assert_msg(strstr(msg, "more bytes of host memory for local memory"), "%s", msg);
    ck_assert_msg(!strstr(msg, "out of bounds"), "%s", msg);
    /* per-warp statistics of a large grid */
    ck_assert_int_eq(launch_limited("deep", 1u << 20, 32, 1, 1 << 20, &v, msg, sizeof msg),
                     PTXE_ERROR_OUT_OF_MEMORY);
    ck_assert_msg(strstr(msg, "more bytes of host memory for the per-warp statistics"), "%s", msg);
}
END_TEST

/* ^C during a solver check: Z3 installs its own SIGINT handler for the length of each check
 * unless the solver says ctrl_c=false, and then a ^C cancelled that one check (verify exited 2
 * with an error instead of 130, temporary outputs were left to Z3's handler).  While a check
 * runs in a thread (pigeonhole 9 into 8, 300 ms timeout), SIGINT keeps the process's handler. */
static void sigint_mine(int sig) { (void)sig; }
static atomic_int check_done;
static void *hard_check(void *arg)
{
    (void)arg;
    enc e;
    enc_init(&e);
    Z3_solver s = enc_solver(&e);
    Z3_params p = Z3_mk_params(e.z);
    Z3_params_inc_ref(e.z, p);
    Z3_params_set_uint(e.z, p, Z3_mk_string_symbol(e.z, "timeout"), 300);
    Z3_solver_set_params(e.z, s, p);
    Z3_params_dec_ref(e.z, p);
    enum { P = 9, H = 8 };
    Z3_ast x[P][H];
    for (int i = 0; i < P; i++)
        for (int h = 0; h < H; h++) {
            char n[16];
            snprintf(n, sizeof n, "p%d_%d", i, h);
            x[i][h] = Z3_mk_const(e.z, Z3_mk_string_symbol(e.z, n), e.boolsort);
        }
    for (int i = 0; i < P; i++) Z3_solver_assert(e.z, s, Z3_mk_or(e.z, H, x[i]));
    for (int h = 0; h < H; h++)
        for (int i = 0; i < P; i++)
            for (int j = i + 1; j < P; j++)
                Z3_solver_assert(e.z, s, Z3_mk_not(e.z, b_and(&e, x[i][h], x[j][h])));
    Z3_solver_check(e.z, s);
    Z3_solver_dec_ref(e.z, s);
    enc_free(&e);
    atomic_store(&check_done, 1);
    return NULL;
}

START_TEST(sigint_stays_with_the_tool_during_solver_checks)
{
    struct sigaction mine = { .sa_handler = sigint_mine }, old, cur;
    sigemptyset(&mine.sa_mask);
    ck_assert_int_eq(sigaction(SIGINT, &mine, &old), 0);
    atomic_store(&check_done, 0);
    pthread_t th;
    ck_assert_int_eq(pthread_create(&th, NULL, hard_check, NULL), 0);
    int polls = 0, changed = 0;
    while (!atomic_load(&check_done)) {
        sigaction(SIGINT, NULL, &cur);
        changed += cur.sa_handler != sigint_mine;
        polls++;
        usleep(1000);
    }
    pthread_join(th, NULL);
    sigaction(SIGINT, &old, NULL);
    ck_assert_msg(polls >= 20, "the check took %d ms: too short to watch", polls);
    ck_assert_msg(changed == 0, "SIGINT's handler replaced in %d of %d looks", changed, polls);
}
END_TEST

static void add_tests(TCase *tc)
{
    tcase_add_test(tc, outputs_are_never_inputs_and_stay_inside);
    tcase_add_test(tc, launch_host_memory_counts_against_the_limit);
    tcase_add_test(tc, vacuous_verdicts_are_marked);
    tcase_add_test(tc, merge_of_empty_results);
    tcase_add_test(tc, names_are_escaped_for_terminal_json_and_xml);
    tcase_add_test(tc, long_names_in_conditions_are_exact);
    tcase_add_test(tc, constants_are_range_checked);
    tcase_add_test(tc, sigint_stays_with_the_tool_during_solver_checks);
}

#include "check_main.h"
