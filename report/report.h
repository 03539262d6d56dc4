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
/* The text of a JSON document, newline-terminated, from xmalloc: every string and key made valid
 * UTF-8 first (base/text.h: U+FFFD for invalid bytes; cJSON writes controls as \u00XX), so a test
 * name or file name with odd bytes cannot make the document invalid.  Out of memory ends the
 * program (base/alloc.h) instead of losing the document. */
char *report_json_text(cJSON *root, int pretty);
/* printf to f with the text escaped for a terminal (base/text.h text_term; newlines and tabs
 * kept): for lines that quote test names, file names or messages of an input. */
int report_tprintf(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Makes every string and key of the tree valid UTF-8 (as above). */
void report_json_fix_utf8(cJSON *item);
#endif
