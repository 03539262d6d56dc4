/* cli/main.c — the ptxlitmus command line: dispatches to the subcommands.
 *   verify  decide PTX litmus tests under a PTX memory model   (cli/verify_cli.c)
 *   run     execute a PTX kernel on the CPU from a launch spec   (exec/run_cli.c)
 *   hw      run litmus tests on a GPU, compare with the model    (hw/hw_cli.c)      */
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include "base/alloc.h"
#include "base/fileio.h"
#include "base/opts.h"
#include "cli/cli.h"
#include "report/provenance.h"
#include "cli/run_cli.h"
#include "hw/hw.h"
#include "suite/suite.h"

static void usage(FILE *f)
{
    fprintf(
        f,
        "usage: ptxlitmus <command> [options] ...\n"
        "commands:\n"
        "  verify [--model NAME] [--json FILE|-] [--unroll N] FILE...   decide litmus tests\n"
        "  suite [PATH...] [--model M]... [--jobs N] [--timeout S] [--json F] [--junit F] [--csv "
        "F]\n"
        "        [--shard I/N] [--update]                               run suites against their "
        "manifests\n"
        "  merge A.json B.json ... [--json F] [--junit F] [--csv F]      combine sharded suite "
        "results\n"
        "  gen --out DIR [--shapes LIST] [--max-threads N]               generate a litmus test "
        "family\n"
        "  compare --model A --model B PATH...                          tests whose verdicts "
        "differ\n"
        "  llvm-check [--mapping M] FILE...                             LLVM atomics -> PTX "
        "mapping bugs\n"
        "  run SPEC.yaml [--json FILE] [--max-steps N] [--timeout S] ...  execute a PTX kernel\n"
        "  check SPEC.yaml [--model M] [--timeout S] [--max-executions N] ...  every execution\n"
        "        of a PTX kernel the memory model allows: traps, races, hangs (docs/check.md)\n"
        "  hw [--instances N] [--stress M] [--json F] ... FILE...        run litmus tests on a "
        "GPU\n"
        "  table [--model M]... [--format csv|markdown|latex] (FILE|DIR|RUN.json)...\n"
        "                                                               verdicts side by side\n"
        "  version                                                      print the version\n"
        "  help COMMAND                                                 the options of a command\n"
        "every command takes -q/--quiet, -v/--verbose, --opt=VALUE and @FILE (arguments, one per "
        "line)\n"
        "outputs never name an input; a launch spec's outputs stay in its folder and a device\n"
        "is written only with --allow-outside\n");
}

static int dispatch(int argc, char **argv);

/* Output to stdout that did not reach its destination (a full disk, a closed pipe reader that
 * does not raise SIGPIPE, /dev/full) makes the run fail with a message instead of exit 0
 * (issue #16): stdout is flushed and closed here, and its error flag checked.  A command that
 * reported a failed write already clears the flag (report_write_atomic). */
int main(int argc, char **argv)
{
    /* cJSON allocates through the checked allocator: out of memory is reported as such (exit 2,
       stdout flushed) instead of a NULL taken for "invalid JSON" or dereferenced */
    cJSON_Hooks hooks = { .malloc_fn = xmalloc, .free_fn = free };
    cJSON_InitHooks(&hooks);
    int n;
    char **v;
    if (opt_expand_at(argc, argv, &n, &v)) return 2;   /* @FILE: one argument per line */
    if (n > 1) prov_set_command(n - 1, v + 1);           /* the provenance of every output */
    int rc = dispatch(n, v);
    opt_free_argv(v);
    errno = 0;
    int bad = fflush(stdout) == EOF || ferror(stdout);
    int e = errno;
    if (fclose(stdout) == EOF && !bad) { bad = 1; e = errno; }
    if (bad) {
        fprintf(stderr, "ptxlitmus: cannot write to standard output: %s\n",
                e ? strerror(e) : "write error");
        if (rc == 0 || rc == 1) rc = EXIT_NOT_WRITTEN;   /* the results are lost (issue #30) */
    }
    return rc;
}

static const struct { const char *name; int (*fn)(int, char **); } commands[] = {
    { "verify", verify_cli }, { "suite", suite_cli }, { "merge", merge_cli }, { "gen", gen_cli },
    { "compare", compare_cli }, { "llvm-check", llvm_check_cli }, { "run", exec_run_cli },
    { "hw", hw_cli }, { "table", table_cli }, { "check", check_cli }, { NULL, NULL },
};

static int dispatch(int argc, char **argv)
{
    if (argc < 2) { usage(stderr); return 2; }
    const char *cmd = argv[1];
    suite_manifest_check_hw(hw_check_option);
    for (int i = 0; commands[i].name; i++)
        if (!strcmp(cmd, commands[i].name)) return commands[i].fn(argc - 1, argv + 1);
    if (!strcmp(cmd, "version") || !strcmp(cmd, "--version")) {
        printf("ptxlitmus %s\n", PTXLITMUS_VERSION);
        return 0;
    }
    if (!strcmp(cmd, "help") || !strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
        if (argc > 2) {   /* ptxlitmus help verify: the options of one command */
            for (int i = 0; commands[i].name; i++)
                if (!strcmp(argv[2], commands[i].name)) {
                    char *a[] = { argv[2], "--help", NULL };
                    return commands[i].fn(2, a);
                }
            fprintf(stderr, "ptxlitmus help: found '%s', expected a command: verify, suite, "
                            "merge, gen, compare, llvm-check, run, check, hw, table\n", argv[2]);
            return 2;
        }
        usage(stdout);
        return 0;
    }
    const char *best = NULL;
    int bd = 3;
    for (int i = 0; commands[i].name; i++) {
        int d = opt_distance(cmd, commands[i].name);
        if (d < bd) { bd = d; best = commands[i].name; }
    }
    if (best) fprintf(stderr, "ptxlitmus: unknown command '%s'; did you mean '%s'?\n", cmd, best);
    else fprintf(stderr, "ptxlitmus: unknown command '%s'\n", cmd);
    usage(stderr);
    return 2;
}
