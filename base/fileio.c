/* base/fileio.c — the one input reader and the one atomic output writer (see fileio.h). */
#include "base/fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ---------------------------------------------------------------- registry of temporary names
 * A slot is FREE, BUSY (being filled or emptied: the signal handler skips it) or LIVE (the
 * handler unlinks `path` when `pid` is this process).  Claimed with a compare-and-swap. */
enum { SLOT_FREE, SLOT_BUSY, SLOT_LIVE };
#define NSLOTS 32
static struct { atomic_int state; pid_t pid; char path[PATH_MAX]; } slots[NSLOTS];

void fileio_remove_temps(void)
{
    pid_t me = getpid();
    for (int i = 0; i < NSLOTS; i++)
        if (atomic_load(&slots[i].state) == SLOT_LIVE && slots[i].pid == me) unlink(slots[i].path);
}

static void on_signal(int sig)
{
    int e = errno;
    fileio_remove_temps();
    raise(sig);   /* SA_RESETHAND restored the default action: delivered when we return */
    errno = e;
}

/* Installs on_signal for the signals that still have their default action (checked at every
 * registration: a program may reset a signal, e.g. in a forked child). */
static void install_handlers(void)
{
    static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        struct sigaction old, sa;
        if (sigaction(sigs[i], NULL, &old) || (old.sa_flags & SA_SIGINFO) ||
            old.sa_handler != SIG_DFL)
            continue;   /* the program handles (or ignores) it itself */
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        sa.sa_flags = SA_RESETHAND;
        sigaction(sigs[i], &sa, NULL);
    }
}

/* Registers path; -1 when every slot is taken (the write goes on without signal cleanup). */
static int reg_add(const char *path)
{
    if (strlen(path) >= PATH_MAX) return -1;
    install_handlers();
    for (int i = 0; i < NSLOTS; i++) {
        int expected = SLOT_FREE;
        if (!atomic_compare_exchange_strong(&slots[i].state, &expected, SLOT_BUSY)) continue;
        strcpy(slots[i].path, path);
        slots[i].pid = getpid();
        atomic_store(&slots[i].state, SLOT_LIVE);
        return i;
    }
    return -1;
}

static void reg_del(int i)
{
    if (i < 0) return;
    atomic_store(&slots[i].state, SLOT_BUSY);
    atomic_store(&slots[i].state, SLOT_FREE);
}

/* ---------------------------------------------------------------- helpers */
static int write_all(int fd, const void *data, size_t n)
{
    const char *p = data;
    while (n) {
        ssize_t w = write(fd, p, n > (1u << 30) ? (1u << 30) : n);
        if (w < 0 && errno == EINTR) continue;
        if (w < 0) return -1;
        if (w == 0) { errno = EIO; return -1; }
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

/* 16 hex digits nobody can guess (getrandom; a mix of time, pid and a counter without it). */
static void random_hex(char out[17])
{
    static atomic_ulong counter;
    uint64_t r = 0;
    if (getrandom(&r, sizeof r, GRND_NONBLOCK) != (ssize_t)sizeof r) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        r = (uint64_t)ts.tv_nsec ^ (uint64_t)ts.tv_sec << 30 ^ (uint64_t)getpid() << 17 ^
            (uint64_t)atomic_fetch_add(&counter, 1) * 0x9e3779b97f4a7c15ull;
        r ^= r >> 31; r *= 0xbf58476d1ce4e5b9ull; r ^= r >> 29;
    }
    snprintf(out, 17, "%016llx", (unsigned long long)r);
}

/* "DIR/.BASE.RANDOM.tmp" beside path (malloc'd); NULL with errno. */
static char *temp_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    size_t dl = slash ? (size_t)(slash - path) + 1 : 0;
    const char *base = slash ? slash + 1 : path;
    char hex[17];
    random_hex(hex);
    size_t n = strlen(path) + 32;
    char *t = malloc(n);
    if (!t) { errno = ENOMEM; return NULL; }
    snprintf(t, n, "%.*s.%s.%s.tmp", (int)dl, path, base, hex);
    return t;
}

/* The folder of path as a string for open() ("." when there is none); malloc'd. */
static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash) return strdup(".");
    if (slash == path) return strdup("/");
    return strndup(path, (size_t)(slash - path));
}

static void sync_dir(const char *path)
{
    char *d = dir_of(path);
    if (!d) return;
    int fd = open(d, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) { fsync(fd); close(fd); }
    free(d);
}

/* /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N: the descriptor, else -1. */
static int own_descriptor(const char *path)
{
    if (!strcmp(path, "/dev/stdout")) return 1;
    if (!strcmp(path, "/dev/stderr")) return 2;
    const char *num = !strncmp(path, "/dev/fd/", 8) ? path + 8
                    : !strncmp(path, "/proc/self/fd/", 14) ? path + 14 : NULL;
    if (!num || !*num) return -1;
    long v = 0;
    for (const char *p = num; *p; p++) {
        if (*p < '0' || *p > '9' || v > INT_MAX / 10) return -1;
        v = v * 10 + (*p - '0');
    }
    return (int)v;
}

/* A FIFO or device (or the process's own descriptor): written where it is. */
static int write_in_place(const char *path, const void *data, size_t n)
{
    int own = own_descriptor(path);
    if (own >= 0) {
        if (own == 1) fflush(stdout);
        if (own == 2) fflush(stderr);
        if (fcntl(own, F_GETFD) < 0) return -1;
        return write_all(own, data, n);
    }
    int fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) return -1;
    struct stat st;
    if (fstat(fd, &st) || S_ISREG(st.st_mode)) {   /* it changed under us: do not write */
        close(fd);
        errno = ELOOP;
        return -1;
    }
    int bad = write_all(fd, data, n);
    int e = errno;
    if (close(fd) && !bad) return -1;
    errno = e;
    return bad;
}

/* Gives the new file the mode (and, when permitted, the owner) of the file it replaces. */
static void keep_attributes(int fd, const struct stat *old)
{
    if (!old) return;
    fchmod(fd, old->st_mode & 07777);
    if (old->st_uid != geteuid() || old->st_gid != getegid())
        if (fchown(fd, old->st_uid, old->st_gid)) { /* not permitted: the new file is ours */ }
}

/* Creates a named temporary beside path: O_CREAT|O_EXCL|O_NOFOLLOW, retried on a clash. */
static int create_named(const char *path, char **tmp, int *slot)
{
    for (int tries = 0; tries < 64; tries++) {
        char *t = temp_name(path);
        if (!t) return -1;
        int s = reg_add(t);
        int fd = open(t, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd >= 0) { *tmp = t; *slot = s; return fd; }
        int e = errno;
        reg_del(s);
        free(t);
        if (e != EEXIST) { errno = e; return -1; }
    }
    errno = EEXIST;
    return -1;
}

/* Gives the anonymous (O_TMPFILE) file fd a fresh name beside path. */
static int link_anonymous(int fd, const char *path, char **tmp, int *slot)
{
    char proc[64];
    snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
    for (int tries = 0; tries < 64; tries++) {
        char *t = temp_name(path);
        if (!t) return -1;
        int s = reg_add(t);
        if (!linkat(AT_FDCWD, proc, AT_FDCWD, t, AT_SYMLINK_FOLLOW) ||
            (errno == ENOENT && !linkat(fd, "", AT_FDCWD, t, AT_EMPTY_PATH))) {
            *tmp = t; *slot = s;
            return 0;
        }
        int e = errno;
        reg_del(s);
        free(t);
        if (e != EEXIST) { errno = e; return -1; }
    }
    errno = EEXIST;
    return -1;
}

/* A regular file (old: its attributes) or a new one: temporary file, fsync, rename. */
static int replace_file(const char *path, const void *data, size_t n, const struct stat *old)
{
    char *tmp = NULL, *dir = dir_of(path);
    int slot = -1;
    if (!dir) { errno = ENOMEM; return -1; }
    int fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
    free(dir);
    if (fd < 0 && errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL) return -1;
    if (fd < 0 && (fd = create_named(path, &tmp, &slot)) < 0) return -1;
    int bad = write_all(fd, data, n);
    if (!bad) {
        keep_attributes(fd, old);
        if (fsync(fd) && errno != EINVAL) bad = -1;
    }
    if (!bad && !tmp) bad = link_anonymous(fd, path, &tmp, &slot);
    int e = errno;
    if (close(fd) && !bad) { bad = -1; e = errno; }
    if (!bad && rename(tmp, path)) { bad = -1; e = errno; }
    if (bad && tmp) unlink(tmp);
    reg_del(slot);
    free(tmp);
    if (bad) { errno = e; return -1; }
    sync_dir(path);
    return 0;
}

int write_file_atomic(const char *path, const void *data, size_t n)
{
    struct stat lst, st;
    if (!path || !*path) { errno = ENOENT; return -1; }
    if (own_descriptor(path) >= 0) return write_in_place(path, data, n);
    if (lstat(path, &lst)) {
        if (errno != ENOENT) return -1;
        return replace_file(path, data, n, NULL);
    }
    if (S_ISLNK(lst.st_mode)) {
        if (stat(path, &st)) return -1;                 /* dangling: ENOENT */
        if (S_ISDIR(st.st_mode)) { errno = EISDIR; return -1; }
        if (S_ISREG(st.st_mode)) { errno = ELOOP; return -1; }
        return write_in_place(path, data, n);          /* e.g. a link to a device */
    }
    if (S_ISDIR(lst.st_mode)) { errno = EISDIR; return -1; }
    if (!S_ISREG(lst.st_mode)) return write_in_place(path, data, n);
    return replace_file(path, data, n, &lst);
}

const char *fileio_error(int err)
{
    if (err == ELOOP) return "it is a symbolic link (not followed)";
    return strerror(err);
}

/* ---------------------------------------------------------------- atomic_temp */
int atomic_temp_create(atomic_temp *t, const char *path)
{
    memset(t, 0, sizeof *t);
    t->slot = -1;
    t->path = strdup(path);
    if (!t->path) { errno = ENOMEM; return -1; }
    int fd = create_named(path, &t->tmp, &t->slot);
    if (fd < 0) { int e = errno; free(t->path); t->path = NULL; errno = e; return -1; }
    close(fd);
    return 0;
}

void atomic_temp_discard(atomic_temp *t)
{
    if (t->tmp) unlink(t->tmp);
    reg_del(t->slot);
    free(t->tmp);
    free(t->path);
    memset(t, 0, sizeof *t);
    t->slot = -1;
}

int atomic_temp_commit(atomic_temp *t)
{
    char *data = NULL, why[160];
    size_t n = 0;
    int rc = read_input(t->tmp, SIZE_MAX - 1, &data, &n, why, sizeof why);
    int e = errno;
    if (!rc) { rc = write_file_atomic(t->path, data, n); e = errno; }
    free(data);
    atomic_temp_discard(t);
    errno = e;
    return rc;
}

/* ---------------------------------------------------------------- input */
static const char *kind_of(mode_t m)
{
    return S_ISFIFO(m) ? "a FIFO" : S_ISDIR(m) ? "a directory" : S_ISCHR(m) ? "a character device"
         : S_ISBLK(m) ? "a block device" : S_ISSOCK(m) ? "a socket" : "not a regular file";
}

static int read_fd(int fd, size_t cap, size_t hint, char **data, size_t *len, char *err,
                   size_t errlen)
{
    size_t size = (hint < cap ? hint : cap) + 1, n = 0;
    char *b = malloc(size + 1);
    if (!b) { snprintf(err, errlen, "a file too large for the memory"); errno = ENOMEM; return -1; }
    for (;;) {
        if (n == size) {   /* full: grow (up to cap + 1, to see whether there is more) */
            size_t ns = size > cap / 2 ? cap + 1 : size * 2;
            char *nb = ns > size ? realloc(b, ns + 1) : NULL;
            if (!nb) {
                free(b);
                if (ns > size) {
                    snprintf(err, errlen, "a file too large for the memory");
                    errno = ENOMEM;
                } else {
                    snprintf(err, errlen, "a file larger than the limit of %zu bytes", cap);
                    errno = EFBIG;
                }
                return -1;
            }
            b = nb;
            size = ns;
        }
        ssize_t r = read(fd, b + n, size - n);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) {
            int e = errno;
            snprintf(err, errlen, "an unreadable file (%s)", strerror(e));
            free(b);
            errno = e;
            return -1;
        }
        if (r == 0) break;
        n += (size_t)r;
        if (n > cap) {
            free(b);
            snprintf(err, errlen, "a file larger than the limit of %zu bytes", cap);
            errno = EFBIG;
            return -1;
        }
    }
    b[n] = 0;
    *data = b;
    *len = n;
    return 0;
}

int read_input(const char *path, size_t cap, char **data, size_t *len, char *err, size_t errlen)
{
    struct stat st;
    *data = NULL;
    *len = 0;
    if (!path) { snprintf(err, errlen, "no file name"); errno = ENOENT; return -1; }
    if (!strcmp(path, "-")) return read_fd(0, cap, 65536, data, len, err, errlen);
    /* O_NONBLOCK: opening a FIFO must not wait for a writer before we can refuse it */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        int e = errno;
        snprintf(err, errlen, "%s",
                 e == ENOENT   ? "no such file"
                 : e == EACCES ? "a file without read permission"
                               : strerror(e));
        errno = e;
        return -1;
    }
    if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
        snprintf(err, errlen, "%s", kind_of(st.st_mode));
        close(fd);
        errno = EINVAL;
        return -1;
    }
    if ((uintmax_t)st.st_size > cap) {
        snprintf(err, errlen, "a file of %lld bytes, larger than the limit of %zu bytes",
                 (long long)st.st_size, cap);
        close(fd);
        errno = EFBIG;
        return -1;
    }
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    int rc = read_fd(fd, cap, (size_t)st.st_size, data, len, err, errlen);
    int e = errno;
    close(fd);
    errno = e;
    return rc;
}

/* ---------------------------------------------------------------- output paths */
static int allow_outside;

void output_set_allow_outside(int on) { allow_outside = on; }
int output_allow_outside(void) { return allow_outside; }

/* Names that are no file of the run: standard output and the process's own descriptors. */
static int output_is_stream(const char *p)
{
    return !strcmp(p, "-") || own_descriptor(p) >= 0 || !strcmp(p, "/dev/null");
}

/* The absolute path of p (relative to the working folder) with the symbolic links of its
 * longest existing prefix resolved and '.', '..' and repeated '/' of the rest applied (as the
 * kernel would, the rest not existing).  malloc'd, NULL when the folder is unknown. */
static char *resolve_out(const char *p)
{
    char *abs;
    if (p[0] == '/') abs = strdup(p);
    else {
        char *b = realpath(".", NULL);
        if (!b) return NULL;
        size_t n = strlen(b) + strlen(p) + 2;
        abs = malloc(n);
        if (abs) snprintf(abs, n, "%s/%s", b, p);
        free(b);
    }
    if (!abs) return NULL;
    char *r = realpath(abs, NULL);
    if (r) { free(abs); return r; }
    /* strip components from the end until the prefix exists */
    size_t len = strlen(abs), cut = len;
    char *head = NULL;
    while (!head) {
        while (cut > 0 && abs[cut - 1] == '/') cut--;
        while (cut > 0 && abs[cut - 1] != '/') cut--;
        if (cut <= 1) { head = strdup("/"); cut = 1; break; }
        char save = abs[cut - 1];
        abs[cut - 1] = 0;
        head = realpath(abs, NULL);
        abs[cut - 1] = save;
    }
    if (!head) { free(abs); return NULL; }
    size_t cap = strlen(head) + len + 2;
    char *out = malloc(cap);
    if (!out) { free(head); free(abs); return NULL; }
    snprintf(out, cap, "%s", head);
    free(head);
    for (char *c = abs + cut; *c;) {   /* the components that do not exist */
        size_t l = strcspn(c, "/");
        if (l == 2 && c[0] == '.' && c[1] == '.') {
            char *s = strrchr(out, '/');
            if (s == out) out[1] = 0; else if (s) *s = 0;
        } else if (l && !(l == 1 && c[0] == '.')) {
            size_t ol = strlen(out);
            snprintf(out + ol, cap - ol, "%s%.*s", ol > 1 ? "/" : "", (int)l, c);
        }
        c += l;
        while (*c == '/') c++;
    }
    free(abs);
    return out;
}

/* Rule 1: out is one of the inputs (any spelling: device and inode when both exist, else the
   resolved paths). */
static int is_an_input(const char *out, const char *const *inputs, int n, char *found, size_t fl,
                       char *expected, size_t el)
{
    struct stat os, is;
    int exists = !stat(out, &os);
    char *ro = NULL;
    int same = 0;
    for (int i = 0; i < n && !same; i++) {
        const char *in = inputs[i];
        if (!in || !strcmp(in, "-")) continue;
        if (!stat(in, &is)) same = exists && os.st_dev == is.st_dev && os.st_ino == is.st_ino;
        else if (!exists) {
            if (!ro && !(ro = resolve_out(out))) continue;
            char *ri = resolve_out(in);
            same = ri && !strcmp(ri, ro);
            free(ri);
        }
        if (same) {
            snprintf(found, fl, "output %s, which is the input %s", out, in);
            snprintf(expected, el, "another file");
        }
    }
    free(ro);
    return same;
}

/* Rule 2, for outputs an input file names (base: its folder): inside that folder. */
static int outside(const char *out, const char *base, char *found, size_t fl, char *expected,
                   size_t el)
{
    char *ro = resolve_out(out), *root = realpath(base, NULL);
    int inside = 0;
    if (ro && root) {
        size_t rl = strlen(root);
        inside = !strncmp(ro, root, rl) && (ro[rl] == 0 || ro[rl] == '/' || rl == 1);
    }
    if (!inside) {
        snprintf(found, fl, "output %s, which is outside the folder %s", out, base);
        if (ro && strcmp(ro, out)) {
            size_t k = strlen(found);
            snprintf(found + k, fl - k, " (it resolves to %s)", ro);
        }
        snprintf(expected, el, "a path inside it (or --allow-outside)");
    }
    free(ro);
    free(root);
    return !inside;
}

int output_problem(const char *out, const char *const *inputs, int n, const char *base,
                   char *found, size_t fl, char *expected, size_t el)
{
    if (!out || output_is_stream(out)) return 0;
    if (is_an_input(out, inputs, n, found, fl, expected, el)) return -1;
    struct stat ls, ts;   /* the writer refuses it (ELOOP): say so before any work is done */
    if (!lstat(out, &ls) && S_ISLNK(ls.st_mode) && !stat(out, &ts) && S_ISREG(ts.st_mode)) {
        snprintf(found, fl, "output %s, which is a symbolic link to a file (not followed)", out);
        snprintf(expected, el, "the file itself or a new name");
        return -1;
    }
    if (allow_outside) return 0;
    if (base) return outside(out, base, found, fl, expected, el) ? -1 : 0;
    /* named on the command line: wherever the user says, but a device only on purpose */
    struct stat st;
    if (!stat(out, &st) && (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode))) {
        snprintf(found, fl, "output %s, which is a %s device", out,
                 S_ISCHR(st.st_mode) ? "character" : "block");
        snprintf(expected, el, "a file (or --allow-outside to write to the device)");
        return -1;
    }
    return 0;
}

/* The folder an output goes to (dir: out is itself a folder the command makes, one level):
   it must exist and be writable, found before any work is done (issue #30: a missing folder
   was found after every test had run).  0, or -1 with found/expected. */
static int folder_problem(const char *out, int dir, char *found, size_t fl, char *expected,
                          size_t el)
{
    struct stat st;
    if (!out || output_is_stream(out)) return 0;
    if (!stat(out, &st)) {
        if (dir && !S_ISDIR(st.st_mode)) {
            snprintf(found, fl, "output %s, which is not a folder", out);
            snprintf(expected, el, "a folder (or a name for a new one)");
            return -1;
        }
        if (!dir && !S_ISREG(st.st_mode)) return 0;   /* a FIFO: written in place */
        if (dir && access(out, W_OK | X_OK)) {
            snprintf(found, fl, "output folder %s, which is not writable", out);
            snprintf(expected, el, "a folder it may write to");
            return -1;
        }
        if (dir) return 0;
    }
    size_t l = strlen(out);
    while (l > 1 && out[l - 1] == '/') l--;   /* "d/" is d */
    while (l > 0 && out[l - 1] != '/') l--;
    char folder[PATH_MAX];
    if (!l) snprintf(folder, sizeof folder, ".");
    else snprintf(folder, sizeof folder, "%.*s", (int)(l > 1 ? l - 1 : 1), out);
    const char *why = NULL;
    if (stat(folder, &st)) why = "does not exist";
    else if (!S_ISDIR(st.st_mode)) why = "is not a folder";
    else if (access(folder, W_OK | X_OK)) why = "is not writable";
    if (!why) return 0;
    snprintf(found, fl, "output %s, whose folder %s %s", out, folder, why);
    snprintf(expected, el, "an existing folder it may write to");
    return -1;
}

static int check(const char *cmd, const char *out, const char *const *inputs, int n, int dir)
{
    char found[PATH_MAX * 2 + 200], expected[200];
    if (!output_problem(out, inputs, n, NULL, found, sizeof found, expected, sizeof expected) &&
        !folder_problem(out, dir, found, sizeof found, expected, sizeof expected))
        return 0;
    fprintf(stderr, "ptxlitmus %s: found %s, expected %s\n", cmd, found, expected);
    return -1;
}

int output_check(const char *cmd, const char *out, const char *const *inputs, int n)
{
    return check(cmd, out, inputs, n, 0);
}

int output_check_dir(const char *cmd, const char *out, const char *const *inputs, int n)
{
    return check(cmd, out, inputs, n, 1);
}
