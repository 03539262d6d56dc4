/* cli/sigwatch.h — finished results survive an interrupt of a long in-process run (issue #28,
 * item 3: `verify` interrupted during its second of four tests lost the first test's block,
 * still in stdout's buffer, and wrote no JSON).
 *
 * sigwatch_start blocks SIGINT, SIGTERM and SIGHUP (those that are not ignored: a job started
 * with & keeps ignoring them) in the calling thread and gives them to a watcher thread that
 * waits for them with sigwait.  When one arrives the watcher takes the lock and calls the
 * command's `stop` function, which writes what is finished (under the lock, nothing is half
 * printed) and ends the process; the run itself never has to notice.  The command holds the
 * lock (sigwatch_lock) while it changes what stop reads or writes to stdout.  sigwatch_end,
 * once the work is done, ends the watcher; a signal that arrived after sigwatch_finishing
 * does not stop the run (its outputs are being written) and is returned instead. */
#ifndef PTX_CLI_SIGWATCH_H
#define PTX_CLI_SIGWATCH_H

typedef void (*sigwatch_stop)(void *ctx, int sig);   /* called with the lock held; must exit */

int sigwatch_start(sigwatch_stop stop, void *ctx);   /* 0, or -1 (no watcher: run unprotected) */
void sigwatch_lock(void);
void sigwatch_unlock(void);
/* The run has finished its work and writes its outputs: a signal no longer calls stop. */
void sigwatch_finishing(void);
/* Ends the watcher; the signal received after sigwatch_finishing, or 0. */
int sigwatch_end(void);
#endif
