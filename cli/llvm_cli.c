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

static int check_one(const char *path, llvm_mode m, const verify_opts *o, int quiet, int ptx)
{
    llvm_check_result r;
    int rc = llvm_check_file(path, m, o, &r);
    if (rc) {
        fprintf(stderr, "%s\n", r.error);
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

int llvm_check_cli(int argc, char **argv)
{
    verify_opts o;
    verify_opts_default(&o);
    int all = 0, quiet = 0, ptx = 0, nf = 0;
    llvm_mode m = LLVM_MAP_NVPTX;
    const char **files = calloc((size_t)argc, sizeof *files);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) { usage(stdout); free(files); return 0; }
        if (!strcmp(a, "--mapping")) {
            const char *v = i + 1 < argc ? argv[++i] : "";
            if (!strcmp(v, "all")) all = 1;
            else if (llvm_mode_parse(v, &m) || m == LLVM_SOURCE) {
                fprintf(stderr,
                        "ptxlitmus llvm-check: --mapping takes nvptx, llc14, no-fence-sc or all, "
                        "found '%s'\n",
                        v);
                free(files);
                return 2;
            }
        } else if (!strcmp(a, "--show-ptx")) ptx = 1;
        else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) quiet = 1;
        else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "ptxlitmus llvm-check: unknown option '%s'\n", a);
            usage(stderr);
            free(files);
            return 2;
        } else files[nf++] = a;
    }
    if (!nf) { usage(stderr); free(files); return 2; }
    int worst = 0;
    for (int f = 0; f < nf; f++)
        for (int k = all ? LLVM_MAP_NVPTX : m; k <= (all ? LLVM_MODE_COUNT - 1 : (int)m); k++) {
            int rc = check_one(files[f], (llvm_mode)k, &o, quiet, ptx);
            if (rc > worst) worst = rc;
        }
    free(files);
    return worst;
}
