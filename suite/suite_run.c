/* suite/suite_run.c — the suite runner: every (test, model) job runs in its own forked
 * process, at most o->jobs at a time.  The child decides the test and writes its JSON result
 * object to a pipe; the parent collects it, kills children that overrun the time limit and
 * turns crashes into error results, so one bad test never stops the run.
 *
 * Test-only hooks: PTXLITMUS_TEST_CRASH=NAME makes the worker abort() and
 * PTXLITMUS_TEST_HANG=NAME makes it sleep forever when the test file's base name is NAME. */
#include "base/alloc.h"
#include "suite/suite.h"
#include "report/report.h"
#include <errno.h>
#include <stdint.h>
#include <fcntl.h>
#include <malloc.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

void suite_run_opts_default(suite_run_opts *o)
{
    memset(o, 0, sizeof *o);
    o->jobs = suite_default_jobs();
    o->timeout_s = 60;
    verify_opts_default(&o->vo);
}

int suite_default_jobs(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 256 ? 256 : (int)n;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

static int hook_matches(const char *var, const char *path)
{
    const char *v = getenv(var);
    if (!v || !*v) return 0;
    return !strcmp(v, base_name(path)) || !strcmp(v, path);
}

/* Decides one job in the worker and returns its result object as text (caller frees). */
static char *child_job(const suite_job *j, const suite_run_opts *o)
{
    if (hook_matches("PTXLITMUS_TEST_CRASH", j->path)) {
        struct rlimit no_core = { 0, 0 };
        setrlimit(RLIMIT_CORE, &no_core);
        abort();
    }
    if (hook_matches("PTXLITMUS_TEST_HANG", j->path)) for (;;) pause();
    verify_opts vo = o->vo;
    vo.model = j->model;
    vo.graph = NULL;
    if (j->liveness) vo.liveness = 1;
    verify_result r;
    char err[1024];
    lit_test *t = lit_parse_file_ex(j->path, o->max_depth > 0 ? o->max_depth : COND_MAX_DEPTH,
                                    err, sizeof err);
    if (!t) {
        memset(&r, 0, sizeof r);
        r.file = xstrdup(j->path);
        snprintf(r.error, sizeof r.error, "%s", err);
    } else {
        verify_test(t, &vo, &r);
        free(r.file);
        r.file = xstrdup(j->path);
    }
    cJSON *res = report_json_result(&r);
    cJSON_AddStringToObject(res, "model", model_name(j->model));
    cJSON_AddNumberToObject(res, "solved", (double)r.solved);
    char *text = report_json_text(res, 0);   /* valid UTF-8, never NULL */
    cJSON_Delete(res);
    verify_result_free(&r);
    lit_free(t);
    return text;
}

static int write_all(int fd, const void *p, size_t n)
{
    const char *c = p;
    while (n) {
        ssize_t w = write(fd, c, n);
        if (w < 0) { if (errno == EINTR) continue; return -1; }
        c += w; n -= (size_t)w;
    }
    return 0;
}

static int read_all(int fd, void *p, size_t n)
{
    char *c = p;
    while (n) {
        ssize_t r = read(fd, c, n);
        if (r < 0) { if (errno == EINTR) continue; return -1; }
        if (r == 0) return -1;
        c += r; n -= (size_t)r;
    }
    return 0;
}

/* The worker: reads job indices from req until EOF, answers each with a length-prefixed
 * JSON result object on res. */
static void worker(const suite_job *jobs, const suite_run_opts *o, int req, int res)
{
    int32_t j;
    while (!read_all(req, &j, sizeof j)) {
        char *text = child_job(&jobs[j], o);
        uint32_t len = (uint32_t)strlen(text);
        if (write_all(res, &len, sizeof len) || write_all(res, text, len)) _exit(3);
        free(text);
    }
    _exit(0);
}

typedef struct {
    pid_t pid;
    int req, res;           /* parent's ends */
    int job;                /* -1 idle */
    int served;
    double start;
    char *buf;
    size_t n, cap;
} slot;

static cJSON *error_result(const suite_job *j, const char *status, const char *msg, double ms)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "file", j->path);
    cJSON_AddStringToObject(o, "status", status);
    cJSON_AddNullToObject(o, "name");
    cJSON_AddStringToObject(o, "error", msg);
    cJSON_AddNumberToObject(o, "time_ms", ms);
    cJSON_AddStringToObject(o, "model", model_name(j->model));
    return o;
}

static void stop_worker(slot *s, int sig, int *status)
{
    if (s->req >= 0) close(s->req);
    if (sig) kill(s->pid, sig);
    int st = 0;
    while (waitpid(s->pid, &st, 0) < 0 && errno == EINTR) {}
    if (status) *status = st;
    close(s->res);
    free(s->buf);
    *s = (slot){ .pid = 0, .req = -1, .res = -1, .job = -1 };
}

static int start_worker(slot *sl, int nw, int i, const suite_job *jobs, const suite_run_opts *o)
{
    int a[2], b[2];
    if (pipe(a)) return -1;
    if (pipe(b)) { close(a[0]); close(a[1]); return -1; }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) { close(a[0]); close(a[1]); close(b[0]); close(b[1]); return -1; }
    if (pid == 0) {
        signal(SIGINT, SIG_DFL);   /* the parent's interrupt handler is not the worker's */
        signal(SIGTERM, SIG_DFL);
        close(a[1]); close(b[0]);
        /* Keep freed memory in the worker's heap: each test creates and frees a Z3 context,
           and returning that memory to the kernel makes the next test fault it in again
           (measured: 3x slower on the generated suite). */
        mallopt(M_MMAP_THRESHOLD, 64 << 20);
        mallopt(M_TRIM_THRESHOLD, 512 << 20);
        for (int k = 0; k < nw; k++) if (sl[k].pid) { close(sl[k].req); close(sl[k].res); }
        worker(jobs, o, a[0], b[1]);
    }
    close(a[0]); close(b[1]);
    fcntl(a[1], F_SETFD, FD_CLOEXEC);
    fcntl(b[0], F_SETFD, FD_CLOEXEC);
    sl[i] = (slot){ .pid = pid, .req = a[1], .res = b[0], .job = -1 };
    return 0;
}

static void progress(const suite_run_opts *o, int done, int total, int fails, double t0, int final)
{
    if (!o->progress) return;
    double el = now_s() - t0;
    double eta = done ? el / done * (total - done) : 0;
    if (o->progress == 1) {
        int w = 30, fill = total ? (int)((long)w * done / total) : w;
        char bar[64];
        for (int i = 0; i < w; i++) bar[i] = i < fill ? '#' : '.';
        bar[w] = 0;
        fprintf(stderr, "\r%s [%s] %d/%d  failures %d  elapsed %.0fs  ETA %.0fs ",
                o->label ? o->label : "suite", bar, done, total, fails, el, eta);
        if (final) fputc('\n', stderr);
    } else {
        fprintf(stderr, "%s: %d/%d done, %d failing, %.1fs elapsed, ETA %.0fs\n",
                o->label ? o->label : "suite", done, total, fails, el, eta);
    }
    fflush(stderr);
}

/* Initialises Z3's global state once in the parent so that forked workers inherit it
 * (a fresh process pays ~60-90 ms for it on the first solver call). */
static void prewarm(const suite_run_opts *o)
{
    static int done;
    if (done) return;
    done = 1;
    static const char text[] =
        "PTX prewarm\n{ x=0; y=0; }\n"
        " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
        " st.weak x, 1 | ld.acquire.gpu r0, y ;\n"
        " st.release.gpu y, 1 | ld.weak r1, x ;\n"
        "exists (P1:r0 == 1 /\\ P1:r1 == 0)\n";
    char err[256];
    lit_test *t = lit_parse("prewarm", text, err, sizeof err);
    if (!t) return;
    verify_opts vo = o->vo;
    vo.graph = NULL;
    verify_result r;
    verify_test(t, &vo, &r);
    verify_result_free(&r);
    lit_free(t);
}

/* SIGINT/SIGTERM during a run: noted here, acted on by the polling loop (poll is not restarted) */
static volatile sig_atomic_t interrupted;
static void on_interrupt(int sig) { interrupted = sig; }

/* Hands the next jobs to idle workers, starting workers as needed and retiring idle ones
 * when no job is left or after 2000 jobs; returns the number of workers with a job. */
static int hand_out_jobs(slot *sl, int nw, const suite_job *jobs, int n, int *next,
                         const suite_run_opts *o)
{
    int busy = 0;
    for (int i = 0; i < nw; i++) {
        if (sl[i].pid && sl[i].job < 0 && (*next >= n || sl[i].served >= 2000))
            stop_worker(&sl[i], 0, NULL);
        if (*next < n && !sl[i].pid && start_worker(sl, nw, i, jobs, o))
            perror("ptxlitmus: starting a worker");
        if (sl[i].pid && sl[i].job < 0 && *next < n) {
            int32_t j = *next;
            sl[i].job = (*next)++;
            sl[i].start = now_s();
            sl[i].served++;
            if (write_all(sl[i].req, &j, sizeof j)) { /* worker gone: seen as EOF below */ }
        }
        if (sl[i].pid && sl[i].job >= 0) busy++;
    }
    return busy;
}

/* Fills pf with the result pipes of the busy workers; returns the seconds to wait, at most
 * 0.25 and no later than the first time limit. */
static double poll_setup(const slot *sl, struct pollfd *pf, int nw, const suite_run_opts *o)
{
    double now = now_s(), wait = 0.25;
    for (int i = 0; i < nw; i++) {
        int live = sl[i].pid && sl[i].job >= 0;
        pf[i].fd = live ? sl[i].res : -1;
        pf[i].events = POLLIN;
        pf[i].revents = 0;
        if (live && o->timeout_s > 0) {
            double left = sl[i].start + o->timeout_s - now;
            if (left < wait) wait = left < 0 ? 0 : left;
        }
    }
    return wait;
}

/* Reads what worker s wrote (readable: poll saw its pipe ready) and settles its job j: the
 * result it wrote, an error when it died or wrote garbage, a timeout when it overran (then it
 * is killed).  Returns 1 when j->res was set, 0 while the job is still running. */
static int settle_job(slot *s, suite_job *j, int readable, double now, const suite_run_opts *o)
{
    int dead = 0;
    if (readable) {
        if (s->n + 65536 > s->cap) {
            s->cap = (s->n + 65536) * 2;
            s->buf = xrealloc(s->buf, s->cap);
        }
        ssize_t r = read(s->res, s->buf + s->n, s->cap - s->n);
        if (r > 0) s->n += (size_t)r;
        else if (r == 0 || (errno != EINTR && errno != EAGAIN)) dead = 1;
    }
    uint32_t len = 0;
    if (s->n >= 4) memcpy(&len, s->buf, 4);
    char msg[1200];
    double ms = (now - s->start) * 1000.0;
    if (s->n >= 4 && s->n >= 4 + (size_t)len) {
        cJSON *r = cJSON_ParseWithLength(s->buf + 4, len);
        if (!r || !cJSON_IsObject(r)) {
            cJSON_Delete(r);
            snprintf(msg, sizeof msg,
                     "%s:1:1: the worker wrote an unreadable result, expected a JSON result object",
                     j->path);
            r = error_result(j, "error", msg, ms);
        }
        j->res = r;
        s->n = 0;
        s->job = -1;
    } else if (dead) {
        int st = 0;
        stop_worker(s, 0, &st);
        if (WIFSIGNALED(st))
            snprintf(msg, sizeof msg,
                     "%s:1:1: the worker crashed with signal %d (%s), expected a verdict", j->path,
                     WTERMSIG(st), strsignal(WTERMSIG(st)));
        else
            snprintf(msg, sizeof msg,
                     "%s:1:1: the worker exited with status %d before giving a verdict, expected a "
                     "verdict",
                     j->path, WIFEXITED(st) ? WEXITSTATUS(st) : -1);
        j->res = error_result(j, "error", msg, ms);
    } else if (o->timeout_s > 0 && now - s->start > o->timeout_s) {
        stop_worker(s, SIGKILL, NULL);
        snprintf(
            msg, sizeof msg,
            "%s:1:1: found no verdict after %g s, expected one within --timeout %g (worker killed)",
            j->path, o->timeout_s, o->timeout_s);
        j->res = error_result(j, "timeout", msg, ms);
    } else return 0;
    return 1;
}

/* Runs the jobs (see suite.h): the polling loop over the workers, with the progress display. */
int suite_run(suite_job *jobs, int n, const suite_run_opts *o)
{
    struct sigaction ia = { .sa_handler = on_interrupt }, old_int, old_term;
    sigemptyset(&ia.sa_mask);
    interrupted = 0;
    sigaction(SIGINT, &ia, &old_int);
    sigaction(SIGTERM, &ia, &old_term);
    if (n > 1) prewarm(o);
    int nw = o->jobs < 1 ? 1 : o->jobs;
    if (nw > n) nw = n ? n : 1;
    slot *sl = xcalloc((size_t)nw, sizeof *sl);
    for (int i = 0; i < nw; i++) sl[i] = (slot){ .pid = 0, .req = -1, .res = -1, .job = -1 };
    struct pollfd *pf = xcalloc((size_t)nw, sizeof *pf);
    int next = 0, done = 0, fails = 0;
    double t0 = now_s(), last = 0;
    int step = n / 10 > 0 ? n / 10 : 1, next_line = step;
    struct sigaction ign = { .sa_handler = SIG_IGN }, old;
    sigaction(SIGPIPE, &ign, &old);
    while (done < n && !interrupted) {
        if (!hand_out_jobs(sl, nw, jobs, n, &next,
                           o)) { /* no worker could be started: record the rest as errors */
            for (; next < n; next++) {
                jobs[next].res =
                    error_result(&jobs[next], "error", "cannot start a worker process", 0);
                done++;
            }
            break;
        }
        double wait = poll_setup(sl, pf, nw, o);
        int pr = poll(pf, (nfds_t)nw, (int)(wait * 1000) + 1);
        if (pr < 0 && errno != EINTR) perror("ptxlitmus: poll");
        if (interrupted) break;   /* the jobs in flight are dropped, not reported as crashes */
        double now = now_s();
        for (int i = 0; i < nw; i++) {
            slot *s = &sl[i];
            if (!s->pid || s->job < 0) continue;
            suite_job *j = &jobs[s->job];
            int readable = pr > 0 && (pf[i].revents & (POLLIN | POLLHUP | POLLERR));
            if (!settle_job(s, j, readable, now, o)) continue;
            done++;
            if (o->is_fail ? o->is_fail(o->fail_ctx, (int)(j - jobs), j->res)
                           : strcmp(suite_str(j->res, "status"), "ok") != 0)
                fails++;
        }
        if (o->progress == 1 && (now - last > 0.1 || done == n)) {
            progress(o, done, n, fails, t0, 0);
            last = now;
        }
        if (o->progress == 2 && done >= next_line) {
            progress(o, done, n, fails, t0, 0);
            while (next_line <= done) next_line += step;
        }
    }
    for (int i = 0; i < nw; i++)
        if (sl[i].pid) stop_worker(&sl[i], interrupted ? SIGKILL : 0, NULL);
    if (o->progress == 1) progress(o, done, n, fails, t0, 1);
    sigaction(SIGPIPE, &old, NULL);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    free(sl);
    free(pf);
    return interrupted;
}
