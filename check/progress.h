/* check/progress.h — progress of one verify_test on a terminal (check/progress.c): after a
 * test has run for 2 s (PTXLITMUS_PROGRESS_AFTER seconds), a line on stderr says how long, in
 * which phase and how far, rewritten every second and erased when the test ends. */
#ifndef PTX_CHECK_PROGRESS_H
#define PTX_CHECK_PROGRESS_H

/* What the test is doing (written by the verify driver, read by the ticker). */
typedef struct {
    volatile int phase;      /* PROG_* */
    volatile long paths;     /* paths of the threads, once known */
    volatile long events;    /* events of the universe, once known */
    volatile long states;    /* reachable states found so far */
} verify_progress;
enum { PROG_PATHS, PROG_BUILD, PROG_VERDICT, PROG_STATES, PROG_LIVENESS };

typedef struct progress_ticker progress_ticker;
/* Starts the ticker of test `name` (NULL when it cannot: no thread). */
progress_ticker *progress_start(const char *name, verify_progress *p);
/* Stops it and erases its line. */
void progress_stop(progress_ticker *t);
#endif
