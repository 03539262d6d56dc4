#include "litmus/cli.h"
int gen_cli(int argc, char **argv) { return 2; }
