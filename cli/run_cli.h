/* cli/run_cli.h — entry point of `ptxlitmus run` (the executor's command line, cli/run_cli.c),
 * and its launch spec read for `ptxlitmus check` (cli/check_cli.c). */
#ifndef PTX_CLI_RUN_CLI_H
#define PTX_CLI_RUN_CLI_H
#include <stddef.h>
#include <stdint.h>
#include "include/ptxexec.h"
#include "ptx/isa.h"

int exec_run_cli(int argc, char **argv);   /* argv[0] == "run" */

/* an element the spec's expect: gives: size bytes at dev hold value (type: of its buffer) */
typedef struct {
    ptxeDevptr dev;
    unsigned size;
    isa_type type;
    uint64_t value;
    char what[80];       /* "out[3]" */
} run_expect;
void run_expect_str(const run_expect *x, uint64_t v, char *buf, size_t n);

/* A launch spec read, its module loaded, buffers and parameters ready: NULL after a message
 * (SPEC:LINE:COL: found X, expected Y) on stderr. */
typedef struct run_state run_state;
run_state *run_spec_open(const char *spec, uint64_t max_steps, double timeout);
ptxeFunction *run_spec_fn(run_state *r);
const ptxeLaunchConfig *run_spec_cfg(run_state *r);
void **run_spec_args(run_state *r);
const run_expect *run_spec_expect(run_state *r, int *n);
void run_spec_close(run_state *r);
#endif
