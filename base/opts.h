/* base/opts.h — the one option parser of every ptxlitmus command (issue #15, item 4).
 *
 * A command describes its options in a table of opt_def and reads them with opt_next(), one at
 * a time, like getopt_long:
 *   --name VALUE, --name=VALUE     long options (a value may start with '-': --unroll -1)
 *   -x, -x VALUE, -xVALUE          one-letter spellings where the table gives one (-q, -v, -o)
 *   -herdname VALUE                herd7's single-dash spellings the table accepts (-model,
 *                                  -unroll, -show, -through, ...)
 *   --                             everything after it is a positional argument
 *   -                              a positional argument (standard input)
 * An option marked OPT_ONCE (the outputs) given twice is refused naming both values.
 * An unknown option is refused with a hint: the nearest option names ("did you mean
 * '--model'?"), the double-dash spelling of a single-dash word (-json → --json), or what to use
 * instead of a herd7 option this tool does not have.
 *
 * opt_expand_at() replaces every argument @FILE by the lines of FILE (one argument per line;
 * empty lines and lines starting with '#' are skipped; nested @FILE allowed to depth 8).
 * path_expand() turns a directory argument into the files below it with a given extension.
 * Values are read with opt_long/opt_seconds/opt_word, which print the one message format
 * "ptxlitmus CMD: --opt takes ..., found 'VALUE'". */
#ifndef PTX_BASE_OPTS_H
#define PTX_BASE_OPTS_H
#include <stdint.h>
#include <stdio.h>

typedef struct {
    const char *name;      /* long name without the dashes: "model" is --model */
    char shrt;             /* one-letter spelling ('q' is -q), 0 for none */
    int id;                /* what opt_next returns for it (> 0); several names may share one */
    const char *value;     /* NULL: a flag; else what the value is, for messages ("a file name
                              or -", "a whole number", "seconds") */
    const char *herd;      /* herd7's single-dash spelling accepted for it ("model"), or NULL */
} opt_def;
/* Or'ed into an id: the option may be given once (an output: `--json a --json b` would drop a
   if the last one won).  opt_next returns the id without it. */
#define OPT_ONCE 0x10000

typedef struct {
    const char *cmd;       /* the command, for messages: "verify" */
    const opt_def *defs;   /* terminated by an entry with name NULL */
    int argc;
    char **argv;           /* argv[0] is the command */
    int i;                 /* next word */
    int rest;              /* after "--": only positional arguments */
    /* the option just read */
    const opt_def *def;
    const char *arg;       /* its value (NULL for a flag) */
    char spelled[80];      /* as written, without "=VALUE": "--model", "-model", "-q" */
    /* positional arguments, in order (pointers into argv) */
    char **pos;
    int npos;
    /* the OPT_ONCE options given so far (their ids and values) */
    int once_id[16];
    const char *once_arg[16];
    int nonce;
} opt_parser;

#define OPT_END 0
#define OPT_ERROR (-1)
/* The options every command takes; put OPT_COMMON at the start of a table. */
/* --allow-outside is taken by opt_next itself (never returned): it lets a launch spec's outputs
 * leave the spec's folder and an output be a device (output_set_allow_outside, base/fileio.h). */
enum { OPT_HELP = 1000, OPT_QUIET, OPT_VERBOSE, OPT_ALLOW_OUTSIDE };
#define OPT_COMMON                                                                             \
    { "help", 'h', OPT_HELP, NULL, NULL }, { "quiet", 'q', OPT_QUIET, NULL, NULL },            \
    { "verbose", 'v', OPT_VERBOSE, NULL, NULL },                                               \
    { "allow-outside", 0, OPT_ALLOW_OUTSIDE, NULL, NULL }

void opt_init(opt_parser *p, const char *cmd, const opt_def *defs, int argc, char **argv);
/* The id of the next option; OPT_END when the words are used up (the positional arguments
 * are then in p->pos); OPT_ERROR after a message on stderr (unknown option with a hint, a
 * missing value, a value given to a flag). */
int opt_next(opt_parser *p);
void opt_free(opt_parser *p);

/* The value of the option just read as a whole number in [lo, hi] / a number of seconds in
 * [0, hi] (fractions allowed, an optional trailing 's') / one of the words (NULL-terminated;
 * *out is its index).  0, or -1 after "ptxlitmus CMD: --opt takes ..., found 'V'". */
int opt_long(const opt_parser *p, long lo, long hi, long *out);
int opt_seconds(const opt_parser *p, double hi, double *out);
int opt_word(const opt_parser *p, const char *const *words, int *out);
/* A size in bytes, BYTES[K|M|G] (KiB, MiB, GiB), from 0 to hi: 0, or -1 when s is not one. */
int parse_bytes(const char *s, uint64_t hi, uint64_t *out);
/* The value of the option just read as such a size: 0, or -1 after "ptxlitmus CMD: --opt takes
 * a size in bytes (K, M, G suffixes) up to HI, found 'V'". */
int opt_bytes(const opt_parser *p, uint64_t hi, uint64_t *out);
/* A message about the option just read: "ptxlitmus CMD: --opt " + the formatted text. */
void opt_error(const opt_parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The hint for an unknown option word (nearest names, --json for -json, herd7 notes), written
 * into buf ("" when there is none).  Exposed for the unit tests. */
void opt_hint(const opt_def *defs, const char *word, char *buf, size_t n);
/* Edit distance (Levenshtein) of two short words; exposed for the unit tests. */
int opt_distance(const char *a, const char *b);

/* Replaces every argument "@FILE" of argv (from index 1 on) by FILE's lines.  On success
 * *argv_out is a new NULL-terminated vector (free it with opt_free_argv) and *argc_out its
 * length; on failure -1 after "FILE:LINE:1: found ..., expected ..." on stderr. */
int opt_expand_at(int argc, char **argv, int *argc_out, char ***argv_out);
void opt_free_argv(char **argv);

/* Appends xstrdup(path) to *v, or — when path is a directory — every file below it whose name
 * ends in ext, sorted by name, recursively (entries starting with '.' skipped, depth at most
 * PATH_EXPAND_DEPTH).  A symbolic link back to a folder being read (a loop) is skipped with
 * "LINK:1:1: found a symbolic link back to a folder being read ..." on stderr and counted in
 * *loops (NULL: not counted).  Returns the number of paths added, or -1 with errno when path
 * cannot be read. */
#define PATH_EXPAND_DEPTH 32
int path_expand(const char *path, const char *ext, char ***v, int *n, int *loops);
#endif
