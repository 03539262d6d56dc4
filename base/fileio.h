/* base/fileio.h — reading inputs and writing outputs, once for the whole tool.
 *
 * Inputs: read_input() reads a regular file, or standard input when the name is "-".  Anything
 * else (a FIFO, a directory, a device such as /dev/zero, a socket) is refused before a byte is
 * read, so an input can neither block forever nor grow without bound; a size cap is a parameter.
 *
 * Outputs: write_file_atomic() replaces a file so that a run killed at any moment leaves either
 * the previous file or the complete new one (issue #16):
 *   - regular target (or none yet): the data goes to a temporary file in the target's folder,
 *     created without a name (O_TMPFILE: even SIGKILL leaves nothing behind) or, where the file
 *     system cannot, under an unpredictable name with O_CREAT|O_EXCL|O_NOFOLLOW (a symlink
 *     planted at some name cannot redirect it); it gets the mode of the file it replaces (and,
 *     when we may, its owner), a new file 0666 & ~umask; fsync, rename over the target, fsync
 *     of the folder.
 *   - non-regular target (a FIFO, a character or block device such as /dev/null or /dev/full):
 *     written in place, never replaced (a FIFO waits for its reader, as the shell's `>` does);
 *     /dev/stdout, /dev/stderr, /dev/fd/N and /proc/self/fd/N are written through the process's
 *     own descriptor N (at its current position, after flushing stdout/stderr).
 *   - a symbolic link to a regular file is REFUSED (errno ELOOP): neither followed nor replaced,
 *     so a link planted at an output name cannot make a run (possibly as root) overwrite the
 *     file it points to.  A link to a non-regular file (e.g. /dev/stdout) is written in place.
 *   - a directory: EISDIR.
 * A temporary file is removed on every failure path, and a named one also when the process gets
 * SIGINT, SIGTERM or SIGHUP: a small registry of live temporary names, and a handler installed
 * on first use for those signals that still have their default action; it removes them and
 * re-raises the signal.  Everything here is thread-safe (no strtok, no static buffers; the
 * registry uses atomics, and a forked child never removes its parent's files). */
#ifndef PTX_BASE_FILEIO_H
#define PTX_BASE_FILEIO_H
#include <stddef.h>

#define FILEIO_CAP_DEFAULT ((size_t)1 << 30)   /* 1 GiB: the default input size limit */
/* The exit status of a command whose results could not be written (a full disk, a folder
   removed during the run), distinct from 1 (a disagreement, an Unknown) and 2 (an error of
   the input or the usage): docs/user-guide.md, "Exit status" (issue #30). */
#define EXIT_NOT_WRITTEN 3

/* Reads all of `path` ("-": standard input) into a NUL-terminated buffer from malloc (*data,
 * *len bytes without the NUL).  Refuses non-regular files and more than cap bytes.  Returns 0,
 * or -1 with what was found in err, worded for "found %s, expected ...": e.g. "a FIFO",
 * "a directory", "a character device", "a file larger than the limit of 1048576 bytes",
 * "no such file". */
int read_input(const char *path, size_t cap, char **data, size_t *len, char *err, size_t errlen);

/* Writes n bytes to path as described above.  Returns 0, or -1 with errno set (ELOOP: a symbolic
 * link to a regular file, refused).  Prints nothing; fileio_error() words errno for a message. */
int write_file_atomic(const char *path, const void *data, size_t n);

/* A short reason for an errno of write_file_atomic ("it is a symbolic link (not followed)" for
 * ELOOP, strerror otherwise). */
const char *fileio_error(int err);

/* For an output that another program produces (e.g. `dot -o TMP`): a named temporary file beside
 * path (unpredictable name, registered for removal on signals), then committed with the rules of
 * write_file_atomic or discarded.  Both end the temporary file. */
typedef struct { char *path, *tmp; int slot; } atomic_temp;
int atomic_temp_create(atomic_temp *t, const char *path);   /* 0, or -1 with errno */
int atomic_temp_commit(atomic_temp *t);                      /* 0, or -1 with errno */
void atomic_temp_discard(atomic_temp *t);

/* Removes every live named temporary file of this process (async-signal-safe: for signal
 * handlers and fatal exits such as x_out_of_memory). */
void fileio_remove_temps(void);

/* ---------------------------------------------------------------- output paths (issue #16)
 * Every command checks each output path with output_check() before it reads or writes
 * anything, with the rules of docs/reliability.md ("Threat model"):
 *   1. never one of the run's inputs: the same file (device and inode, so `./x`, `x`, a hard
 *      link and a symbolic link to x all count) when the output exists, the same resolved path
 *      otherwise;
 *   2. an output named on the command line goes wherever the user says (issue #30: CI writes
 *      to /tmp/artifacts), but not to a device other than the streams below; an output that
 *      an input file names (the outputs of a launch spec: `base` is the spec's folder) stays
 *      inside that folder: its absolute path, with the symbolic links of its existing prefix
 *      resolved and `.`/`..` of the rest applied, is the folder or below it.  --allow-outside
 *      (output_set_allow_outside(1), set by base/opts.c for every command) lifts rule 2;
 *   3. (output_check, output_check_dir) its folder exists and may be written to, so that a
 *      typo is found before the first test rather than after the last.
 * "-" (standard output), /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N and /dev/null
 * pass every rule: they name no file of the run. */
void output_set_allow_outside(int on);
int output_allow_outside(void);

/* 0 when out may be written (rules 1 and 2); else -1 with the problem worded for "found %s,
 * expected %s" in found/expected (e.g. "output 'x.json', which is the input 'x.litmus'" /
 * "another file").  inputs: n paths (NULL and "-" skipped).  Paths are relative to the working
 * folder; base is the folder an output named by an input file must stay in (NULL: named on the
 * command line).  Prints nothing. */
int output_problem(const char *out, const char *const *inputs, int n, const char *base,
                   char *found, size_t fl, char *expected, size_t el);

/* Rules 1 to 3 for an output file named on the command line (output_check) or a folder the
 * command creates, one level, or fills (output_check_dir: --graph, gen --out, hw --keep),
 * printed as "ptxlitmus CMD: found ..., expected ..." on stderr.  0 or -1. */
int output_check(const char *cmd, const char *out, const char *const *inputs, int n);
int output_check_dir(const char *cmd, const char *out, const char *const *inputs, int n);
#endif
