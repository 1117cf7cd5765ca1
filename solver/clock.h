/* clock.h - the one clock: monotonic seconds, for limits, progress and
 * timings (wall time, never the calendar). */
#ifndef OCS_CLOCK_H
#define OCS_CLOCK_H

#include <time.h>

static inline double clock_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

#endif
