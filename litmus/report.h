/* litmus/report.h — verdict output: herd-style text blocks and the JSON export. */
#ifndef PTX_LITMUS_REPORT_H
#define PTX_LITMUS_REPORT_H
#include <stdio.h>
#include <cjson/cJSON.h>
#include "litmus/verify.h"

void report_herd(FILE *f, const verify_result *r, int unroll);
/* One result object of the JSON schema (docs/json-schema.md). */
cJSON *report_json_result(const verify_result *r);
/* Writes n bytes to path atomically: a temporary file beside it, flushed, then renamed, so a
 * killed run never leaves a truncated file.  Returns 0, or -1 with errno (no message). */
int write_file_atomic(const char *path, const void *data, size_t n);
/* Writes text to path atomically; "-" = stdout.  Returns 0 or -1 with a message on stderr. */
int report_write_atomic(const char *path, const char *text);
#endif
