/* report/provenance.h — where a result comes from, written into every JSON and CSV output
 * (issue #15): the ptxlitmus version and git hash (the Makefile passes -DPTX_GIT_HASH), the Z3
 * version, the SHA-256 of each model's cat text, the command line, and the date (UTC, ISO
 * 8601).  One record per process: the commands fill it, the writers read it. */
#ifndef PTX_REPORT_PROVENANCE_H
#define PTX_REPORT_PROVENANCE_H
#include <cjson/cJSON.h>
#include "model/models.h"

/* The command line (argv[0] is the command: "verify"); kept as given. */
void prov_set_command(int argc, char **argv);
/* A model results were computed with: its name, the file the text came from, the text. */
void prov_add_model(const char *name, const char *file, const char *text);
/* A bundled model (model/bundled.h gives its text). */
void prov_add_bundled(model_kind k);
/* A new JSON object: {"ptxlitmus", "git", "z3", "date", "command": [...], "models": [{"name",
   "file", "sha256"}]}. */
cJSON *prov_json(void);
/* The same as comment lines, each starting with prefix ("# " for CSV, "% " for LaTeX); caller
   frees. */
char *prov_comment(const char *prefix);
const char *prov_git_hash(void);
#endif
