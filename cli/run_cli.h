/* cli/run_cli.h — entry point of `ptxlitmus run` (the executor's command line, cli/run_cli.c). */
#ifndef PTX_CLI_RUN_CLI_H
#define PTX_CLI_RUN_CLI_H
int exec_run_cli(int argc, char **argv);   /* argv[0] == "run" */
#endif
