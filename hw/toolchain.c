/* hw/toolchain.c — nvcc and the harness program: finding nvcc, compiling the generated CUDA
 * program, running it with a wall-clock limit (its process group is killed after the limit: a
 * litmus spin loop may never end on hardware) and reading its histogram back. */
#include "hw/hw_int.h"
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <fcntl.h>
#include <unistd.h>

static int executable(const char *p)
{
    struct stat st;
    return p && !stat(p, &st) && S_ISREG(st.st_mode) && !access(p, X_OK);
}

const char *hw_find_nvcc(const hw_opts *o)
{
    static char buf[4096];
    if (o->nvcc) return executable(o->nvcc) ? o->nvcc : NULL;
    const char *path = getenv("PATH");
    while (path && *path) {
        const char *e = strchr(path, ':');
        size_t n = e ? (size_t)(e - path) : strlen(path);
        if (n && n < sizeof buf - 8) {
            snprintf(buf, sizeof buf, "%.*s/nvcc", (int)n, path);
            if (executable(buf)) return buf;
        }
        path = e ? e + 1 : NULL;
    }
    snprintf(buf, sizeof buf, "/usr/local/cuda/bin/nvcc");
    return executable(buf) ? buf : NULL;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int hw_run_cmd(char *const argv[], const char *out, const char *errf, double timeout_s,
               int *timed_out)
{
    *timed_out = 0;
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        setpgid(0, 0);
        int fo = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int fe = strcmp(out, errf) ? open(errf, O_WRONLY | O_CREAT | O_TRUNC, 0644) : dup(fo);
        if (fo < 0 || fe < 0) _exit(126);
        dup2(fo, 1), dup2(fe, 2);
        close(fo), close(fe);
        execv(argv[0], argv);
        _exit(127);
    }
    setpgid(pid, pid);
    double t0 = now_s();
    int st = 0;
    for (;;) {
        pid_t r = waitpid(pid, &st, WNOHANG);
        if (r == pid) break;
        if (r < 0 && errno != EINTR) return -1;
        if (timeout_s > 0 && now_s() - t0 > timeout_s) {
            kill(-pid, SIGKILL);
            kill(pid, SIGKILL);
            waitpid(pid, &st, 0);
            *timed_out = 1;
            return 128 + SIGKILL;
        }
        struct timespec d = { 0, 20 * 1000 * 1000 };
        nanosleep(&d, NULL);
    }
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}

/* The last `len - 1` bytes of a file, as text. */
static void tail_of(const char *path, char *buf, size_t len)
{
    buf[0] = 0;
    FILE *f = fopen(path, "rb");
    if (!f) return;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    long from = n > (long)len - 1 ? n - (long)len + 1 : 0;
    fseek(f, from, SEEK_SET);
    size_t k = fread(buf, 1, len - 1, f);
    buf[k] = 0;
    fclose(f);
}

int hw_nvcc_version(const char *nvcc, char *buf, size_t len)
{
    char out[] = "/tmp/ptxlitmus-nvcc-XXXXXX";
    int fd = mkstemp(out);
    if (fd < 0) return -1;
    close(fd);
    char *argv[] = { (char *)nvcc, "--version", NULL };
    int to, rc = hw_run_cmd(argv, out, "/dev/null", 60, &to);
    char text[2048];
    tail_of(out, text, sizeof text);
    unlink(out);
    if (rc) return -1;
    /* "Cuda compilation tools, release 13.0, V13.0.88" */
    char *r = strstr(text, "release ");
    if (!r) return -1;
    char *e = strchr(r, '\n');
    snprintf(buf, len, "%.*s", e ? (int)(e - r) : (int)strlen(r), r);
    return 0;
}

int hw_compile(const char *nvcc, const hw_opts *o, const char *dir, const char *base, int want_ptx,
               int ptxas_o0, char *err, size_t errlen)
{
    size_t n = strlen(dir) + strlen(base) + 16;
    char *cu = malloc(n), *bin = malloc(n), *ptx = malloc(n), *log = malloc(n);
    char arch[32];
    int rc = -1, to;
    if (!cu || !bin || !ptx || !log) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    snprintf(cu, n, "%s/%s.cu", dir, base), snprintf(bin, n, "%s/%s", dir, base);
    snprintf(ptx, n, "%s/%s.ptx", dir, base), snprintf(log, n, "%s/%s.nvcc", dir, base);
    snprintf(arch, sizeof arch, "-arch=%s", o->arch);
    if (want_ptx) {
        char *pv[] = { (char *)nvcc, arch, "-ptx", "-o", ptx, cu, NULL };
        if (hw_run_cmd(pv, log, log, 600, &to)) goto fail;
    }
    /* -Xptxas -O0: a weak access in a loop, kept as the test writes it (hw/plan.c weak_loops) */
    char *bv[] = { (char *)nvcc, arch, "-O3", "-std=c++17", "-o", bin, cu, "-ldl",
                   ptxas_o0 ? "-Xptxas" : NULL, "-O0", NULL };
    if (hw_run_cmd(bv, log, log, 600, &to)) goto fail;
    rc = 0;
    goto out;
fail : {
    char t[1500];
    tail_of(log, t, sizeof t);
    snprintf(err, errlen, "nvcc failed on %s:\n%s", cu, t);
}
out:
    free(cu), free(bin), free(ptx), free(log);
    return rc;
}

void hw_outcome_free(hw_outcome *o)
{
    free(o->states), free(o->counts);
    o->states = o->counts = NULL;
    o->nstates = 0;
}
