/* cli/cli.h — entry points of the subcommands (cli/main.c dispatches to them). */
#ifndef PTX_CLI_CLI_H
#define PTX_CLI_CLI_H
#include "base/version.h"
int verify_cli(int argc, char **argv);   /* argv[0] == "verify"  (cli/verify_cli.c) */
int suite_cli(int argc, char **argv);    /* argv[0] == "suite"   (cli/suite_cli.c) */
int merge_cli(int argc, char **argv);    /* argv[0] == "merge"   (suite/merge.c) */
int gen_cli(int argc, char **argv);      /* argv[0] == "gen"     (suite/gen.c) */
int compare_cli(int argc, char **argv);  /* argv[0] == "compare" (suite/compare.c) */
int table_cli(int argc, char **argv);    /* argv[0] == "table"   (suite/table.c) */
int llvm_check_cli(int argc, char **argv);   /* argv[0] == "llvm-check" (cli/llvm_cli.c) */
int check_cli(int argc, char **argv);    /* argv[0] == "check"   (cli/check_cli.c) */
#endif
