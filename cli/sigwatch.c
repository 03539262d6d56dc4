/* cli/sigwatch.c — a watcher thread for SIGINT/SIGTERM/SIGHUP (cli/sigwatch.h). */
#include "cli/sigwatch.h"

#include <pthread.h>
#include <signal.h>
#include <string.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_t watcher;
static int running, finishing, late;
static sigset_t set;
static sigwatch_stop stop_fn;
static void *stop_ctx;

static void *watch(void *arg)
{
    (void)arg;
    for (;;) {
        int sig;
        if (sigwait(&set, &sig)) continue;
        pthread_mutex_lock(&lock);
        if (finishing) {   /* the outputs are being written: let them finish */
            late = sig;
            pthread_mutex_unlock(&lock);
            return NULL;
        }
        stop_fn(stop_ctx, sig);   /* exits */
        pthread_mutex_unlock(&lock);
    }
}

int sigwatch_start(sigwatch_stop stop, void *ctx)
{
    static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
    sigemptyset(&set);
    for (unsigned i = 0; i < sizeof sigs / sizeof *sigs; i++) {
        struct sigaction old;
        if (!sigaction(sigs[i], NULL, &old) && old.sa_handler != SIG_IGN)
            sigaddset(&set, sigs[i]);
    }
    stop_fn = stop;
    stop_ctx = ctx;
    finishing = late = 0;
    sigset_t old;
    if (pthread_sigmask(SIG_BLOCK, &set, &old)) return -1;
    if (pthread_create(&watcher, NULL, watch, NULL)) {
        pthread_sigmask(SIG_SETMASK, &old, NULL);
        return -1;
    }
    running = 1;
    return 0;
}

void sigwatch_lock(void) { pthread_mutex_lock(&lock); }
void sigwatch_unlock(void) { pthread_mutex_unlock(&lock); }

void sigwatch_finishing(void)
{
    pthread_mutex_lock(&lock);
    finishing = 1;
    pthread_mutex_unlock(&lock);
}

int sigwatch_end(void)
{
    if (!running) return 0;
    running = 0;
    pthread_mutex_lock(&lock);
    finishing = 1;
    pthread_mutex_unlock(&lock);
    pthread_cancel(watcher);   /* sigwait is a cancellation point; a finished one is joined */
    pthread_join(watcher, NULL);
    /* the signals stay blocked: one that arrives from here on is dropped at exit, after the
       outputs are complete */
    return late;
}
