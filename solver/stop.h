/* stop.h - the process's request to stop, which the library reads and
 * only the command layer makes.
 *
 * Process policy (which signals stop a run, and when handlers are
 * installed) belongs to the commands (app/signals.c routes SIGINT and
 * SIGTERM here); the library only reads the request: every search's
 * SearchLimits.interrupt may point at stop_flag(), and a stopped solve or
 * job-level run names stop_signal() so that its command can exit with
 * 128 + N. Nothing here installs a handler, so a program that links the
 * library (the tests, a host like the MPI ranks) keeps its own signal
 * policy.
 *
 * Invariant: once requested, the flag stays set for the life of the
 * process (a run that is stopped is not started again); stop_request is
 * async-signal-safe (it stores a sig_atomic_t and a lock-free atomic_bool,
 * as C11 allows in a handler).
 */
#ifndef OCS_STOP_H
#define OCS_STOP_H

#include <stdatomic.h>

_Static_assert(ATOMIC_BOOL_LOCK_FREE == 2, "stop_request sets an atomic_bool from a signal handler");

/* Requests a stop, naming the signal that asked for it (any positive
 * number). Async-signal-safe. */
void stop_request(int signo);
/* The flag a request sets, for SearchLimits.interrupt. */
atomic_bool *stop_flag(void);
/* The signal that requested the stop; 0 if none. */
int stop_signal(void);

#endif
