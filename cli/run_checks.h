/* cli/run_checks.h — the checks of `ptxlitmus run` (cli/run_checks.c). */
#ifndef PTX_CLI_RUN_CHECKS_H
#define PTX_CLI_RUN_CHECKS_H
#include <cjson/cJSON.h>
#include "include/ptxexec.h"
/* --check LIST: memcheck,racecheck,synccheck,initcheck (or all, none) into PTXE_CHECK_* bits;
 * -1 with a message on stderr */
int run_parse_checks(const char *list, unsigned *checks);
/* the findings of the last launch on stderr ("========= ..."), and the error summary */
void run_print_findings(ptxeCtx *ctx, ptxeResult lr);
/* the device printf output of the last launch on stdout (dropped bytes noted on stderr) */
void run_print_printf(ptxeCtx *ctx, const char *spec);
/* the findings of the last launch as a JSON array */
cJSON *run_findings_json(ptxeCtx *ctx);
#endif
