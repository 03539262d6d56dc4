/* report/report.h — verdict output: herd-style text blocks and the JSON export. */
#ifndef PTX_LITMUS_REPORT_H
#define PTX_LITMUS_REPORT_H
#include <stdio.h>
#include <cjson/cJSON.h>
#include "check/verify.h"

void report_herd(FILE *f, const verify_result *r, int unroll);
/* One result object of the JSON schema (docs/json-schema.md). */
cJSON *report_json_result(const verify_result *r);
/* Writes text to path with write_file_atomic (base/fileio.h); "-" = stdout (a failed write or
 * flush is an error too).  Returns 0 or -1 with a message on stderr. */
int report_write_atomic(const char *path, const char *text);
#endif
