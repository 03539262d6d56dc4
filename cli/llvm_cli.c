/* cli/llvm_cli.c — `ptxlitmus llvm-check [--mapping M] [--show-ptx] FILE...`: for each
 * LLVM-level litmus test, the outcomes a lowering to PTX allows that the scoped C++ model
 * forbids (check/llvm_check.h, docs/llvm-mapping.md).  Exit status: 0 when no mapping bug was
 * found, 1 when some test shows one, 2 on a malformed test or a usage error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "check/llvm_check.h"
#include "base/fileio.h"
#include "base/opts.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: ptxlitmus llvm-check [options] FILE...\n"
            "  --mapping M   the LLVM -> PTX lowering: nvptx (default: the fence-based scoped "
            "mapping of\n"
            "                the NVPTX back end for sm_70+), llc14 (what llc 14 emits for sm_80),\n"
            "                no-fence-sc (seq_cst without fence.sc: a wrong table), or all\n"
            "  --show-ptx    print the PTX instructions of each thread after lowering\n"
            "  -q, --quiet   one line per test and mapping\n"
            "Each test is decided at source under model/rc11-scoped.cat and after lowering under\n"
            "model/ptx.cat; an outcome PTX allows and the source forbids is a mapping bug.\n"
            "Exit status: 0 no bug, 1 some bug, 2 error.\n");
}

static void show_ptx(const char *path, llvm_mode m)
{
    char *text = NULL, err[1024], why[200];
    size_t n;
    if (read_input(path, FILEIO_CAP_DEFAULT, &text, &n, why, sizeof why)) return;
    lit_test *t = llvm_parse(path, text, 0, m, err, sizeof err);
    free(text);
    if (!t) return;
    for (int i = 0; i < t->nth; i++) {
        printf("  %s:", t->th[i].name);
        for (int k = 0; k < t->th[i].nins; k++) printf("%s %s", k ? ";" : "", t->th[i].ins[k].text);
        printf("\n");
    }
    lit_free(t);
}

/* One file under one mapping; its error is printed unless it is the one printed last for the
   same file under another mapping (issue #30: `--mapping all` printed each parse error three
   times).  Returns 0, 1 (a bug) or 2 (an error). */
static int check_one(const char *path, llvm_mode m, const verify_opts *o, int quiet, int ptx,
                     char *last_err, size_t le)
{
    llvm_check_result r;
    int rc = llvm_check_file(path, m, o, &r);
    if (rc) {
        if (strcmp(last_err, r.error)) fprintf(stderr, "%s\n", r.error);
        snprintf(last_err, le, "%s", r.error);
        llvm_check_result_free(&r);
        return 2;
    }
    if (r.verdict == LLVM_CHECK_UNSUPPORTED)
        printf("unsupported %s %s: %s\n", r.name, llvm_mode_name(m), r.error);
    else
        printf("%s %s %s: %s (source %d states, PTX %d states; the condition: source %s, PTX %s)\n",
               llvm_check_verdict_name(r.verdict), r.name, llvm_mode_name(m),
               r.verdict == LLVM_CHECK_OK ? "every PTX outcome is allowed at source"
               : r.verdict == LLVM_CHECK_RACY
                   ? "the source has a data race (undefined behaviour): not judged"
                   : "outcomes allowed by PTX and forbidden by rc11-scoped",
               r.nsrc, r.nptx, r.src_cond ? "Ok" : "No", r.ptx_cond ? "Ok" : "No");
    if (!quiet) {
        for (int s = 0; s < r.nbug; s++) {
            printf("  ");
            for (int i = 0; i < r.nobs; i++) {
                char v[64];
                verify_value_str(&r.ptx, i, r.bug[(size_t)s * (size_t)r.nobs + (size_t)i], v,
                                 sizeof v);
                printf("%s=%s; ", r.obs[i], v);
            }
            printf("\n");
        }
        if (ptx) show_ptx(path, m);
    }
    int bug = r.verdict == LLVM_CHECK_BUG;
    llvm_check_result_free(&r);
    return bug;
}

enum { L_MAPPING = 1, L_SHOW_PTX };
static const opt_def llvm_defs[] = {
    OPT_COMMON,
    { "mapping", 0, L_MAPPING, "nvptx, llc14, no-fence-sc or all", NULL },
    { "show-ptx", 0, L_SHOW_PTX, NULL, NULL },
    { NULL, 0, 0, NULL, NULL },
};

int llvm_check_cli(int argc, char **argv)
{
    verify_opts o;
    verify_opts_default(&o);
    int all = 0, quiet = 0, ptx = 0, rc = -1, id;
    llvm_mode m = LLVM_MAP_NVPTX;
    opt_parser p;   /* the one option parser (base/opts.h): --opt=V, hints, @FILE */
    opt_init(&p, "llvm-check", llvm_defs, argc, argv);
    while (rc < 0 && (id = opt_next(&p)) != OPT_END) {
        switch (id) {
        case OPT_ERROR: usage(stderr); rc = 2; break;
        case OPT_HELP: usage(stdout); rc = 0; break;
        case OPT_QUIET: quiet = 1; break;
        case OPT_VERBOSE: break;
        case L_SHOW_PTX: ptx = 1; break;
        case L_MAPPING:
            if (!strcmp(p.arg, "all")) all = 1;
            else if (llvm_mode_parse(p.arg, &m) || m == LLVM_SOURCE) {
                opt_error(&p, "takes nvptx, llc14, no-fence-sc or all, found '%s'", p.arg);
                rc = 2;
            }
            break;
        }
    }
    if (rc < 0 && !p.npos) { usage(stderr); rc = 2; }
    int worst = 0;
    for (int f = 0; rc < 0 && f < p.npos; f++) {
        char last_err[1024] = "";
        for (int k = all ? LLVM_MAP_NVPTX : m; k <= (all ? LLVM_MODE_COUNT - 1 : (int)m); k++) {
            int r = check_one(p.pos[f], (llvm_mode)k, &o, quiet, ptx, last_err, sizeof last_err);
            if (r > worst) worst = r;
        }
    }
    opt_free(&p);
    return rc >= 0 ? rc : worst;
}
