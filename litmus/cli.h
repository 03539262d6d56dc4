/* litmus/cli.h — entry points of the litmus-side subcommands. */
#ifndef PTX_LITMUS_CLI_H
#define PTX_LITMUS_CLI_H
#define PTXLITMUS_VERSION "0.1.0"
int verify_cli(int argc, char **argv);   /* argv[0] == "verify" */
int suite_cli(int argc, char **argv);    /* argv[0] == "suite"   (litmus/suite_cli.c) */
int merge_cli(int argc, char **argv);    /* argv[0] == "merge"   (litmus/merge.c) */
int gen_cli(int argc, char **argv);      /* argv[0] == "gen"     (litmus/gen.c) */
int compare_cli(int argc, char **argv);  /* argv[0] == "compare" (litmus/compare.c) */
#endif
