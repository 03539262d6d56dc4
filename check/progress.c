/* check/progress.c — the progress line of a long test (check/progress.h): a thread that
 * sleeps until the test has run for the threshold, then rewrites one line on stderr every
 * second ("verify NAME: 12 s, solving: 340 states so far"), and erases it when stopped.  The
 * driver only stores numbers into verify_progress; nothing here touches the solver. */
#include "check/progress.h"
#include "base/alloc.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct progress_ticker {
    pthread_t th;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int stop, shown;
    double after_s;
    char name[96];
    verify_progress *p;
};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void line(progress_ticker *t, double secs)
{
    static const char *const what[] = { "enumerating paths", "building the solver problem",
                                        "deciding the verdict", "listing states",
                                        "deciding liveness" };
    char more[96] = "";
    const verify_progress *p = t->p;
    if (p->phase == PROG_STATES) snprintf(more, sizeof more, ": %ld states so far", p->states);
    else if (p->phase >= PROG_BUILD && p->paths)
        snprintf(more, sizeof more, " (%ld paths, %ld events)", p->paths, p->events);
    int ph = p->phase >= 0 && p->phase <= PROG_LIVENESS ? p->phase : 0;
    fprintf(stderr, "\r\033[Kverify %s: %.0f s, %s%s", t->name, secs, what[ph], more);
    fflush(stderr);
    t->shown = 1;
}

static void *run(void *arg)
{
    progress_ticker *t = arg;
    double t0 = now_s();
    pthread_mutex_lock(&t->mu);
    while (!t->stop) {
        double el = now_s() - t0;
        double wait = t->shown ? 1.0 : el < t->after_s ? t->after_s - el : 0.0;
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_sec += (time_t)wait;
        until.tv_nsec += (long)((wait - (double)(time_t)wait) * 1e9);
        if (until.tv_nsec >= 1000000000L) { until.tv_sec++; until.tv_nsec -= 1000000000L; }
        pthread_cond_timedwait(&t->cv, &t->mu, &until);
        if (!t->stop && now_s() - t0 >= t->after_s) line(t, now_s() - t0);
    }
    if (t->shown) { fputs("\r\033[K", stderr); fflush(stderr); }
    pthread_mutex_unlock(&t->mu);
    return NULL;
}

progress_ticker *progress_start(const char *name, verify_progress *p)
{
    progress_ticker *t = xcalloc(1, sizeof *t);
    const char *after = getenv("PTXLITMUS_PROGRESS_AFTER");
    t->after_s = after ? atof(after) : 2.0;
    snprintf(t->name, sizeof t->name, "%s", name ? name : "");
    t->p = p;
    pthread_mutex_init(&t->mu, NULL);
    pthread_cond_init(&t->cv, NULL);
    if (pthread_create(&t->th, NULL, run, t)) {
        pthread_mutex_destroy(&t->mu);
        pthread_cond_destroy(&t->cv);
        free(t);
        return NULL;
    }
    return t;
}

void progress_stop(progress_ticker *t)
{
    if (!t) return;
    pthread_mutex_lock(&t->mu);
    t->stop = 1;
    pthread_cond_signal(&t->cv);
    pthread_mutex_unlock(&t->mu);
    pthread_join(t->th, NULL);
    pthread_mutex_destroy(&t->mu);
    pthread_cond_destroy(&t->cv);
    free(t);
}
