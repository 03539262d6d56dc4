/* fuzz/replay.c — main() for replaying fuzz inputs without libFuzzer: links with one fuzz
 * target and calls LLVMFuzzerTestOneInput on every file named on the command line (directories
 * are walked one level).  Used by `make check-fuzz-regress` (gcc + ASan/UBSan), so the
 * regression inputs under fuzz/regressions/ run in every `make check`, with or without clang. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) { fprintf(stderr, "replay: cannot open %s\n", path); return 1; }
    size_t cap = 4096, n = 0;
    uint8_t *buf = malloc(cap);
    size_t r;
    while (buf && (r = fread(buf + n, 1, cap - n, f)) > 0) {
        n += r;
        if (n == cap) {
            uint8_t *nb = realloc(buf, cap *= 2);
            if (!nb) {
                free(buf);
                buf = NULL;
            } else buf = nb;
        }
    }
    fclose(f);
    if (!buf) { fprintf(stderr, "replay: out of memory on %s\n", path); return 1; }
    /* an exact-size copy so that ASan sees reads past the end, as under libFuzzer */
    uint8_t *exact = malloc(n ? n : 1);
    if (!exact) { free(buf); return 1; }
    memcpy(exact, buf, n);
    free(buf);
    LLVMFuzzerTestOneInput(exact, n);
    free(exact);
    return 0;
}

int main(int argc, char **argv)
{
    int bad = 0, count = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st)) {
            fprintf(stderr, "replay: cannot stat %s\n", argv[i]);
            bad = 1;
            continue;
        }
        if (S_ISDIR(st.st_mode)) {
            DIR *d = opendir(argv[i]);
            struct dirent *e;
            while (d && (e = readdir(d))) {
                if (e->d_name[0] == '.') continue;
                char p[4096];
                snprintf(p, sizeof p, "%s/%s", argv[i], e->d_name);
                if (!stat(p, &st) && S_ISREG(st.st_mode)) { bad |= run_file(p); count++; }
            }
            if (d) closedir(d);
        } else {
            bad |= run_file(argv[i]);
            count++;
        }
    }
    printf("replay: %d inputs, %s\n", count, bad ? "errors" : "no crash");
    return bad;
}
