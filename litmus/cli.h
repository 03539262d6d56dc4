/* litmus/cli.h — entry points of the litmus-side subcommands. */
#ifndef PTX_LITMUS_CLI_H
#define PTX_LITMUS_CLI_H
#define PTXLITMUS_VERSION "0.1.0"
int verify_cli(int argc, char **argv);   /* argv[0] == "verify" */
#endif
