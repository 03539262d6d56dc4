/* exec/run_cli.h — entry point of `ptxlitmus run` (the executor's command line). */
#ifndef PTX_EXEC_RUN_CLI_H
#define PTX_EXEC_RUN_CLI_H
int exec_run_cli(int argc, char **argv);   /* argv[0] == "run" */
#endif
