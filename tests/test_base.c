/* tests/test_base.c — unit tests of base/: the atomic writer against each fault of issue #16
 * (device and FIFO targets, symlinks planted at the target and at guessable temporary names,
 * mode preservation, killed runs), the input reader (FIFOs, directories, devices, size cap,
 * standard input), the text buffer and the diagnostics format. */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/diag.h"
#include "base/fileio.h"
#include "base/sbuf.h"

static char dir[64];

static void mkdir_tmp(void)
{
    strcpy(dir, "/tmp/ptxbase.XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
}

static char *at(const char *name)
{
    static char buf[4][256];
    static int k;
    char *b = buf[k++ & 3];
    snprintf(b, 256, "%s/%s", dir, name);
    return b;
}

static void put(const char *path, const char *text, mode_t mode)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    chmod(path, mode);
}

static char *get(const char *path)
{
    char *d, why[160];
    size_t n;
    ck_assert_msg(read_input(path, 1 << 20, &d, &n, why, sizeof why) == 0, "%s: %s", path, why);
    return d;
}

/* Entries of dir other than the expected ones (a left-over temporary file). */
static int stray_files(const char *keep1, const char *keep2)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && strcmp(e->d_name, keep1) &&
            (!keep2 || strcmp(e->d_name, keep2)))
            n++;
    closedir(d);
    return n;
}

static void rm_tmp(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ck_assert_int_eq(system(cmd), 0);
}

/* ---------------------------------------------------------------- writer: regular files */
START_TEST(writes_new_and_replaces)
{
    mkdir_tmp();
    mode_t old = umask(022);
    ck_assert_int_eq(write_file_atomic(at("a.json"), "one\n", 4), 0);
    struct stat st;
    ck_assert_int_eq(stat(at("a.json"), &st), 0);
    ck_assert_int_eq(st.st_mode & 0777, 0644);   /* a new file: 0666 & ~umask */
    umask(077);
    ck_assert_int_eq(write_file_atomic(at("b.json"), "x", 1), 0);
    ck_assert_int_eq(stat(at("b.json"), &st), 0);
    ck_assert_int_eq(st.st_mode & 0777, 0600);
    umask(old);
    ck_assert_int_eq(write_file_atomic(at("a.json"), "two\n", 4), 0);
    char *t = get(at("a.json"));
    ck_assert_str_eq(t, "two\n");
    free(t);
    ck_assert_int_eq(stray_files("a.json", "b.json"), 0);
    rm_tmp();
}
END_TEST

/* issue #16: "a 0600 file becomes 0644" */
START_TEST(mode_0600_preserved)
{
    mkdir_tmp();
    mode_t old = umask(022);
    put(at("secret.json"), "old", 0600);
    ck_assert_int_eq(write_file_atomic(at("secret.json"), "new", 3), 0);
    struct stat st;
    ck_assert_int_eq(stat(at("secret.json"), &st), 0);
    ck_assert_int_eq(st.st_mode & 0777, 0600);
    put(at("exec.sh"), "old", 0751);
    ck_assert_int_eq(write_file_atomic(at("exec.sh"), "new", 3), 0);
    ck_assert_int_eq(stat(at("exec.sh"), &st), 0);
    ck_assert_int_eq(st.st_mode & 0777, 0751);
    umask(old);
    rm_tmp();
}
END_TEST

/* issue #16: "the temp file is a predictable NAME.tmp.PID opened with fopen("wb"), so a symlink
 * planted at that name overwrites any file the user can write" */
START_TEST(planted_temp_symlink)
{
    mkdir_tmp();
    put(at("victim"), "precious", 0644);
    char name[256];
    /* every name the old writer (and obvious variants) would have used, for our pid and
     * the next ones */
    for (int d = 0; d < 4; d++) {
        snprintf(name, sizeof name, "%s/out.json.tmp.%ld", dir, (long)getpid() + d);
        ck_assert_int_eq(symlink(at("victim"), name), 0);
        snprintf(name, sizeof name, "%s/.out.json.tmp.%ld", dir, (long)getpid() + d);
        ck_assert_int_eq(symlink(at("victim"), name), 0);
    }
    snprintf(name, sizeof name, "%s/out.json.tmp", dir);
    ck_assert_int_eq(symlink(at("victim"), name), 0);
    for (int i = 0; i < 20; i++) ck_assert_int_eq(write_file_atomic(at("out.json"), "{}\n", 3), 0);
    char *v = get(at("victim")), *o = get(at("out.json"));
    ck_assert_str_eq(v, "precious");
    ck_assert_str_eq(o, "{}\n");
    free(v); free(o);
    /* the same with the named-temporary path (atomic_temp, as for dot -o) */
    atomic_temp t;
    ck_assert_int_eq(atomic_temp_create(&t, at("out.svg")), 0);
    struct stat st;
    ck_assert_int_eq(lstat(t.tmp, &st), 0);
    ck_assert(S_ISREG(st.st_mode));
    put(t.tmp, "<svg/>", 0644);
    ck_assert_int_eq(atomic_temp_commit(&t), 0);
    v = get(at("victim"));
    ck_assert_str_eq(v, "precious");
    free(v);
    rm_tmp();
}
END_TEST

/* issue #16: a symlink at the target was replaced by a regular file; now refused (ELOOP), the
 * link and the file it names untouched; documented in base/fileio.h */
START_TEST(symlink_target_refused)
{
    mkdir_tmp();
    put(at("victim"), "precious", 0644);
    ck_assert_int_eq(symlink(at("victim"), at("link.json")), 0);
    errno = 0;
    ck_assert_int_eq(write_file_atomic(at("link.json"), "{}", 2), -1);
    ck_assert_int_eq(errno, ELOOP);
    ck_assert_str_eq(fileio_error(ELOOP), "it is a symbolic link (not followed)");
    struct stat st;
    ck_assert_int_eq(lstat(at("link.json"), &st), 0);
    ck_assert(S_ISLNK(st.st_mode));
    char *v = get(at("victim"));
    ck_assert_str_eq(v, "precious");
    free(v);
    ck_assert_int_eq(write_file_atomic(dir, "x", 1), -1);
    ck_assert_int_eq(errno, EISDIR);
    ck_assert_int_eq(stray_files("victim", "link.json"), 0);
    rm_tmp();
}
END_TEST

/* ---------------------------------------------------------------- writer: non-regular targets */
/* issue #16: "as root, --json /dev/full and --json /dev/stdout replaced those entries" */
START_TEST(device_target_in_place)
{
    mkdir_tmp();
    struct stat st;
    ck_assert_int_eq(write_file_atomic("/dev/null", "abc", 3), 0);
    ck_assert_int_eq(stat("/dev/null", &st), 0);
    ck_assert(S_ISCHR(st.st_mode));
    if (access("/dev/full", W_OK) == 0) {
        errno = 0;
        ck_assert_int_eq(write_file_atomic("/dev/full", "abc", 3), -1);
        ck_assert_int_eq(errno, ENOSPC);
        ck_assert_int_eq(stat("/dev/full", &st), 0);
        ck_assert(S_ISCHR(st.st_mode));
    }
    /* our own device node (root only): still a device afterwards, nothing beside it */
    if (mknod(at("null"), S_IFCHR | 0666, makedev(1, 3)) == 0) {
        ck_assert_int_eq(write_file_atomic(at("null"), "abc", 3), 0);
        ck_assert_int_eq(lstat(at("null"), &st), 0);
        ck_assert(S_ISCHR(st.st_mode));
        ck_assert_int_eq(stray_files("null", NULL), 0);
    }
    /* a symlink to a device is written in place too */
    ck_assert_int_eq(symlink("/dev/null", at("tonull")), 0);
    ck_assert_int_eq(write_file_atomic(at("tonull"), "abc", 3), 0);
    ck_assert_int_eq(lstat(at("tonull"), &st), 0);
    ck_assert(S_ISLNK(st.st_mode));
    rm_tmp();
}
END_TEST

START_TEST(fifo_target_in_place)
{
    mkdir_tmp();
    ck_assert_int_eq(mkfifo(at("fifo"), 0600), 0);
    pid_t pid = fork();
    if (pid == 0) {   /* the reader */
        char b[64] = "";
        int fd = open(at("fifo"), O_RDONLY);
        ssize_t n = read(fd, b, sizeof b - 1);
        _exit(n == 6 && !memcmp(b, "hello\n", 6) ? 0 : 1);
    }
    ck_assert_int_eq(write_file_atomic(at("fifo"), "hello\n", 6), 0);
    int st;
    ck_assert_int_eq(waitpid(pid, &st, 0), pid);
    ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    struct stat s;
    ck_assert_int_eq(lstat(at("fifo"), &s), 0);
    ck_assert(S_ISFIFO(s.st_mode));
    ck_assert_int_eq(stray_files("fifo", NULL), 0);
    rm_tmp();
}
END_TEST

/* /dev/stdout: the process's descriptor 1, at its position (not reopened, not replaced) */
START_TEST(dev_stdout_descriptor)
{
    mkdir_tmp();
    put(at("out"), "", 0644);
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open(at("out"), O_WRONLY | O_TRUNC);
        dup2(fd, 1);
        fputs("before ", stdout);   /* buffered: must come out first */
        int rc = write_file_atomic("/dev/stdout", "json ", 5);
        rc |= write_file_atomic("/dev/fd/1", "after", 5);
        _exit(rc ? 1 : 0);
    }
    int st;
    ck_assert_int_eq(waitpid(pid, &st, 0), pid);
    ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    char *o = get(at("out"));
    ck_assert_str_eq(o, "before json after");
    free(o);
    rm_tmp();
}
END_TEST

/* issue #16: "killed runs leave *.tmp.PID files (up to 680 MB) behind" */
START_TEST(killed_writer_leaves_nothing)
{
    mkdir_tmp();
    put(at("big.bin"), "previous", 0644);
    size_t n = (size_t)128 << 20;
    for (int sig = 0; sig < 2; sig++) {
        pid_t pid = fork();
        if (pid == 0) {
            signal(SIGTERM, SIG_DFL);   /* not the test harness's handler */
            char *b = malloc(n);
            memset(b, 7, n);
            write_file_atomic(at("big.bin"), b, n);
            _exit(0);
        }
        usleep(sig ? 150000 : 50000);
        kill(pid, sig ? SIGTERM : SIGKILL);
        int st;
        waitpid(pid, &st, 0);
        char *b, why[160];
        size_t len;
        ck_assert_int_eq(read_input(at("big.bin"), n + 1, &b, &len, why, sizeof why), 0);
        ck_assert(len == n || (len == 8 && !memcmp(b, "previous", 8)));   /* old or complete */
        free(b);
        ck_assert_int_eq(stray_files("big.bin", NULL), 0);
    }
    /* a named temporary file (atomic_temp) is removed when SIGTERM/SIGINT arrives */
    int sigs[] = { SIGTERM, SIGINT, SIGHUP };
    for (int i = 0; i < 3; i++) {
        pid_t pid = fork();
        if (pid == 0) {
            signal(sigs[i], SIG_DFL);   /* not the test harness's handler */
            atomic_temp t;
            if (atomic_temp_create(&t, at("graph.svg"))) _exit(3);
            raise(sigs[i]);
            _exit(4);   /* not reached: the signal ends the process */
        }
        int st;
        ck_assert_int_eq(waitpid(pid, &st, 0), pid);
        ck_assert_msg(WIFSIGNALED(st) && WTERMSIG(st) == sigs[i], "status 0x%x", st);
        ck_assert_int_eq(stray_files("big.bin", NULL), 0);
    }
    rm_tmp();
}
END_TEST

/* ---------------------------------------------------------------- reader */
START_TEST(reader_refuses_special_files)
{
    mkdir_tmp();
    char *d = NULL, why[160];
    size_t n;
    ck_assert_int_eq(mkfifo(at("fifo"), 0600), 0);
    alarm(10);   /* a blocking open would hang here */
    ck_assert_int_eq(read_input(at("fifo"), 100, &d, &n, why, sizeof why), -1);
    ck_assert_str_eq(why, "a FIFO");
    ck_assert_int_eq(read_input(dir, 100, &d, &n, why, sizeof why), -1);
    ck_assert_str_eq(why, "a directory");
    ck_assert_int_eq(read_input("/dev/zero", 100, &d, &n, why, sizeof why), -1);
    ck_assert_str_eq(why, "a character device");
    alarm(0);
    ck_assert_int_eq(read_input(at("none"), 100, &d, &n, why, sizeof why), -1);
    ck_assert_str_eq(why, "no such file");
    put(at("f"), "0123456789", 0644);
    ck_assert_int_eq(read_input(at("f"), 9, &d, &n, why, sizeof why), -1);
    ck_assert_msg(strstr(why, "larger than the limit of 9 bytes"), "%s", why);
    ck_assert_int_eq(read_input(at("f"), 10, &d, &n, why, sizeof why), 0);
    ck_assert_int_eq(n, 10);
    ck_assert_str_eq(d, "0123456789");
    free(d);
    rm_tmp();
}
END_TEST

START_TEST(reader_stdin)
{
    int p[2];
    ck_assert_int_eq(pipe(p), 0);
    ck_assert_int_eq(write(p[1], "abcdef", 6), 6);
    close(p[1]);
    int saved = dup(0);
    dup2(p[0], 0);
    close(p[0]);
    char *d, why[160];
    size_t n;
    int rc = read_input("-", 4, &d, &n, why, sizeof why);   /* over the cap */
    dup2(saved, 0);
    close(saved);
    ck_assert_int_eq(rc, -1);
    ck_assert_msg(strstr(why, "limit of 4 bytes"), "%s", why);
}
END_TEST

/* ---------------------------------------------------------------- text and diagnostics */
START_TEST(sbuf_and_diag)
{
    sbuf b = { 0 };
    for (int i = 0; i < 1000; i++) sb_add(&b, "%d,", i);
    sb_put(&b, "end", 3);
    ck_assert_int_eq(strncmp(b.s, "0,1,2,", 6), 0);
    ck_assert_int_eq(strcmp(b.s + b.n - 7, "999,end"), 0);
    ck_assert_uint_eq(strlen(b.s), b.n);
    sb_free(&b);
    ck_assert_ptr_null(b.s);
    char m[128];
    diag_found(m, sizeof m, "k.ptx", 3, 7, "'frob'", "an instruction");
    ck_assert_str_eq(m, "k.ptx:3:7: found 'frob', expected an instruction");
    diag_format(m, 12, "k.ptx", 3, 7, "found %d", 5);   /* truncated, still terminated */
    ck_assert_str_eq(m, "k.ptx:3:7: ");
    char *s = xstrndup("abcdef", 3);
    ck_assert_str_eq(s, "abc");
    free(s);
}
END_TEST

static void add_tests(TCase *tc)
{
    tcase_add_test(tc, writes_new_and_replaces);
    tcase_add_test(tc, mode_0600_preserved);
    tcase_add_test(tc, planted_temp_symlink);
    tcase_add_test(tc, symlink_target_refused);
    tcase_add_test(tc, device_target_in_place);
    tcase_add_test(tc, fifo_target_in_place);
    tcase_add_test(tc, dev_stdout_descriptor);
    tcase_add_test(tc, killed_writer_leaves_nothing);
    tcase_add_test(tc, reader_refuses_special_files);
    tcase_add_test(tc, reader_stdin);
    tcase_add_test(tc, sbuf_and_diag);
}

#include "check_main.h"
