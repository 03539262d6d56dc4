/* exec/run_cli.c — `ptxlitmus run`: placeholder until the executor lands; says so and fails. */
#include <stdio.h>
#include "exec/run_cli.h"
int exec_run_cli(int argc, char **argv)
{
    (void)argc; (void)argv;
    fprintf(stderr, "ptxlitmus run: the executor is not built yet\n");
    return 2;
}
