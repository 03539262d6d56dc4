/* fuzz/fuzz_manifest.c — libFuzzer target: the suite manifest reader (suite_manifest_load, YAML
 * through libyaml) and its serialiser (suite_manifest_text), whose output must load again.  The
 * input is written to a private temporary file because the reader takes a path. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "base/fileio.h"
#include "suite/suite.h"

#ifndef FUZZ_MAX_LEN
#define FUZZ_MAX_LEN 16384
#endif

static char dir[512], path[600], path2[600];

/* the folder (under $TMPDIR, else /tmp) goes when the process ends */
static void cleanup(void)
{
    unlink(path);
    unlink(path2);
    rmdir(dir);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > FUZZ_MAX_LEN) return 0;
    if (!dir[0]) {
        const char *tmp = getenv("TMPDIR");
        snprintf(dir, sizeof dir, "%s/ptxlitmus-fuzz-XXXXXX", tmp && *tmp ? tmp : "/tmp");
        if (!mkdtemp(dir)) abort();
        atexit(cleanup);
        snprintf(path, sizeof path, "%s/manifest.yaml", dir);
        snprintf(path2, sizeof path2, "%s/again.yaml", dir);
    }
    if (write_file_atomic(path, data, size)) abort();
    char err[1024] = "";
    suite_manifest m;
    if (suite_manifest_load(path, &m, err, sizeof err) == 0) {
        char *text = suite_manifest_text(&m);
        if (text) {
            suite_manifest m2;
            char err2[1024] = "";
            if (write_file_atomic(path2, text, strlen(text))) abort();
            /* what we write we must read back, with the same tests */
            if (suite_manifest_load(path2, &m2, err2, sizeof err2) != 0) {
                fprintf(stderr, "reload: %s\n%s", err2, text);
                abort();
            }
            if (m2.nt != m.nt) abort();
            suite_manifest_free(&m2);
            free(text);
        }
    } else if (strncmp(err, path, strlen(path)) != 0) {
        abort();   /* rejections carry a position */
    }
    suite_manifest_free(&m);
    return 0;
}
