/* hw/hw_cli.c — `ptxlitmus hw [options] TEST.litmus...`: for each test, plan, generate,
 * compile, run on the GPU, classify against the model, report (docs/hardware.md).
 * Exit status: 1 when the GPU showed a state the model forbids (a soundness alarm), else 2 on
 * any error or refused test (or a usage error), else 77 when a harness was built but could not
 * run (no CUDA driver, no device, or no nvcc), else 0. */
#include "base/fileio.h"
#include "hw/hw_cli_int.h"
#include "base/version.h"
#include "suite/suite.h"
#include "report/report.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include "base/opts.h"
#include <unistd.h>

static void usage(FILE *f)
{
    fprintf(
        f,
        "usage: ptxlitmus hw [options] TEST.litmus...\n"
        "  --instances N       instances per launch (default 65536, rounded up to whole warps)\n"
        "  --launches K        kernel launches per test, histograms summed (default 1)\n"
        "  --stress MODE       none (default), lines (stress warps sweep a few cache lines),\n"
        "                      random (stress warps hit random words of 16 MiB)\n"
        "  --placement P       as-test (default) or shuffle (random thread/instance/memory "
        "placement)\n"
        "  --stride BYTES      bytes between two location copies (default 128, a multiple of 8)\n"
        "  --arch sm_NN        nvcc -arch (default sm_90)\n"
        "  --model NAME        model the states are held against: ptx (default), ptx-v7.5, "
        "ptx-v6.0\n"
        "  --seed S            seed of the shuffles and stress addresses (default 1)\n"
        "  --timeout S         seconds one harness run may take (default 300)\n"
        "  --hang-timeout S    seconds for a test the model says may hang (default 5): killed\n"
        "                      then, it is reported 'hung'\n"
        "  --json FILE|-       results as JSON (docs/hardware.md)\n"
        "  --keep DIR          keep the generated .cu, .ptx, program and its output in DIR\n"
        "  --nvcc PATH         the nvcc to use (default: $PATH, then /usr/local/cuda/bin/nvcc)\n"
        "  --no-run            stop after compiling\n"
        "  --no-compile        stop after generating the CUDA program (see --keep)\n"
        "  --from FILE         classify the output of a harness program run elsewhere (one test)\n"
        "  -q, --quiet         no text blocks\n"
        "exit status: 0 done, 1 a state the model forbids was observed or a test the model says\n"
        "             terminates hung, 2 error or refused test,\n"
        "             77 built but not run (no CUDA driver, no GPU, or no nvcc)\n");
}

static const char *const valued[] = { "instances", "launches", "stress", "placement",
                                      "stride",    "arch",     "model",  "seed",
                                      "timeout",   "hang-timeout", NULL };

enum { H_VALUED = 1, H_JSON = 100, H_KEEP, H_NVCC, H_FROM, H_NO_RUN, H_NO_COMPILE, H_HW };
static const opt_def hw_defs[] = {
    OPT_COMMON,
    { "instances", 0, H_VALUED + 0, "a whole number", NULL },
    { "launches", 0, H_VALUED + 1, "a whole number", NULL },
    { "stress", 0, H_VALUED + 2, "none, lines or random", NULL },
    { "placement", 0, H_VALUED + 3, "as-test or shuffle", NULL },
    { "stride", 0, H_VALUED + 4, "a whole number of bytes", NULL },
    { "arch", 0, H_VALUED + 5, "sm_NN", NULL },
    { "model", 0, H_VALUED + 6, "ptx, ptx-v7.5 or ptx-v6.0", "model" },
    { "seed", 0, H_VALUED + 7, "a whole number", NULL },
    { "timeout", 0, H_VALUED + 8, "a number of seconds", "timeout" },
    { "hang-timeout", 0, H_VALUED + 9, "a number of seconds", NULL },
    { "json", 0, H_JSON | OPT_ONCE, "a file name", NULL },
    { "keep", 0, H_KEEP | OPT_ONCE, "a directory", NULL },
    { "nvcc", 0, H_NVCC, "a file name", NULL },
    { "from", 0, H_FROM, "a file name", NULL },
    { "no-run", 0, H_NO_RUN, NULL, NULL },
    { "no-compile", 0, H_NO_COMPILE, NULL, NULL },
    { "hw", 0, H_HW, NULL, NULL },
    { NULL, 0, 0, NULL, NULL },
};

/* Parses the options shared by `hw` and `suite --hw` (base/opts.h); the files are left for
 * the caller (*files).  Returns 0, 1 for --help, -1 on a usage error, -2 for an output refused
 * (base/fileio.h output_check, already reported). */
int hw_parse_args(int argc, char **argv, hw_ctx *c, char ***files, int *nf)
{
    hw_opts_default(&c->o);
    *files = calloc((size_t)argc + 1, sizeof **files);
    if (!*files) return -1;
    *nf = 0;
    opt_parser p;
    opt_init(&p, !strcmp(argv[0], "suite") ? "suite" : "hw", hw_defs, argc, argv);
    int id, rc = 0;
    char why[300];
    while (!rc && (id = opt_next(&p)) != OPT_END) {
        switch (id) {
        case OPT_ERROR: rc = -1; break;
        case OPT_HELP: rc = 1; break;
        case OPT_QUIET: c->quiet = 1; break;
        case OPT_VERBOSE: case H_HW: break;
        case H_JSON: case H_KEEP: case H_NVCC: case H_FROM:
            if (!*p.arg) {
                opt_error(&p, "takes a %s", id == H_KEEP ? "directory" : "file name");
                rc = -1;
            } else if (id == H_JSON) c->json = p.arg;
            else if (id == H_KEEP) c->o.keep = p.arg;
            else if (id == H_FROM) c->from = p.arg;
            else c->o.nvcc = p.arg;
            break;
        case H_NO_RUN: c->o.no_run = 1; break;
        case H_NO_COMPILE: c->o.no_compile = 1; break;
        default: {
            int k = id - H_VALUED;
            if (hw_opt_set(&c->o, valued[k], p.arg, why, sizeof why)) {
                fprintf(stderr, "ptxlitmus hw: --%s %s\n", valued[k], why);
                rc = -1;
            } else if (c->nset < 16) {
                c->set[c->nset] = k;
                c->setv[c->nset++] = p.arg;
            }
        }
        }
    }
    for (int i = 0; !rc && i < p.npos; i++) (*files)[(*nf)++] = p.pos[i];
    if (!rc) {   /* outputs: never an input, their folders there (base/fileio.h) */
        const char **in = calloc((size_t)*nf + 2, sizeof *in);
        if (!in) rc = -1;
        else {
            for (int i = 0; i < *nf; i++) in[i] = (*files)[i];
            in[*nf] = c->from;
            if (output_check(p.cmd, c->json, in, *nf + 1) ||
                output_check_dir(p.cmd, c->o.keep, in, *nf + 1))
                rc = -2;   /* reported: no usage text */
            free(in);
        }
    }
    opt_free(&p);
    c->argv = argv;
    return rc;
}

/* Options given on the command line override a manifest's `hw:` field: re-apply them. */
void hw_reapply_cli(hw_ctx *c, hw_opts *o)
{
    char why[300];
    for (int k = 0; k < c->nset; k++) hw_opt_set(o, valued[c->set[k]], c->setv[k], why, sizeof why);
}

cJSON *hw_json_root(const hw_ctx *c, const char *kind)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "tool", "ptxlitmus");
    cJSON_AddStringToObject(root, "version", PTXLITMUS_VERSION);
    cJSON_AddStringToObject(root, "kind", kind);
    char ts[32];
    time_t now = time(NULL);
    strftime(ts, sizeof ts, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    cJSON_AddStringToObject(root, "time", ts);
    cJSON_AddStringToObject(root, "model", model_name(c->o.model));
    cJSON_AddStringToObject(root, "nvcc", c->nvcc_version[0] ? c->nvcc_version : "none");
    cJSON_AddItemToObject(root, "options", hw_opts_json(&c->o));
    cJSON_AddArrayToObject(root, "results");
    return root;
}

/* The JSON text to path with the project's atomic writer ("-": stdout). */
int hw_write_json(const char *path, cJSON *root)
{
    char *text = report_json_text(root, 1);   /* valid UTF-8, newline-terminated */
    return report_write_atomic(path, text) ? (free(text), -1) : (free(text), 0);
}

int hw_cli(int argc, char **argv)
{
    hw_ctx c;
    memset(&c, 0, sizeof c);
    char **files;
    int nf, rc = hw_parse_args(argc, argv, &c, &files, &nf);
    if (rc == -2) { free(files); return 2; }
    if (rc) {
        usage(rc > 0 ? stdout : stderr);
        free(files);
        return rc > 0 ? 0 : 2;
    }
    if (!nf) {
        fprintf(stderr, "ptxlitmus hw: no test file given\n");
        usage(stderr);
        free(files);
        return 2;
    }
    if (c.from && nf != 1) {
        fprintf(stderr, "ptxlitmus hw: --from takes the output of one test, found %d test files\n",
                nf);
        free(files);
        return 2;
    }
    if (c.o.keep && mkdir(c.o.keep, 0755) && errno != EEXIST) {
        fprintf(stderr, "ptxlitmus hw: cannot create %s: %s\n", c.o.keep, strerror(errno));
        free(files);
        return 2;
    }
    hw_cli_prepare(&c);
    cJSON *root = c.json ? hw_json_root(&c, "hw") : NULL;
    hw_tally tally = { 0 };
    c.out = c.json && !strcmp(c.json, "-") ? stderr : stdout;
    for (int i = 0; i < nf; i++) {
        cJSON *res = hw_run_file(&c, &c.o, files[i], NULL, &tally);
        if (root) cJSON_AddItemToArray(cJSON_GetObjectItem(root, "results"), res);
        else cJSON_Delete(res);
    }
    if (root && hw_write_json(c.json, root)) tally.errors++;
    cJSON_Delete(root);
    free(files);
    return hw_exit_status(&tally, 0);
}
