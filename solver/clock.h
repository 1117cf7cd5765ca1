/* clock.h - the one clock: monotonic seconds, for limits, progress and
 * timings (wall time, never the calendar); and a thread's CPU time. */
#ifndef OCS_CLOCK_H
#define OCS_CLOCK_H

#include <time.h>

static inline double clock_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The calling thread's CPU seconds: for a cost that the load of other
 * processes on a shared machine must not inflate (the job coordinator's
 * own work, results/jobs/mpi-cluster.md). */
static inline double clock_thread_cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

#endif
