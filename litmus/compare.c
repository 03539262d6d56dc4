#include "litmus/cli.h"
int compare_cli(int argc, char **argv) { return 2; }
