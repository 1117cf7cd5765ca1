/* parallel.c - see parallel.h. */
#include "parallel.h"

#include <omp.h>
#include <pthread.h>
#include <stdbool.h>

enum { PAR_MAX_THREADS = 256 };

typedef struct {
    ParallelFn fn;
    void *arg;
    int tid;
} ParCall;

static void *parallel_main(void *p)
{
    ParCall *c = p;
    c->fn(c->arg, c->tid);
    return NULL;
}

void parallel_run(int threads, ParallelFn fn, void *arg)
{
    if (threads > PAR_MAX_THREADS) threads = PAR_MAX_THREADS;
    ParCall call[PAR_MAX_THREADS];
    pthread_t th[PAR_MAX_THREADS];
    bool started[PAR_MAX_THREADS] = {false};
    for (int t = 1; t < threads; t++) {
        call[t] = (ParCall){fn, arg, t};
        /* A thread that cannot be had is left out: callers take fewer
         * threads than asked (dfpn.c counts the ones that ran). */
        started[t] = pthread_create(&th[t], NULL, parallel_main, &call[t]) == 0;
    }
    fn(arg, 0);
    for (int t = 1; t < threads; t++)
        if (started[t]) pthread_join(th[t], NULL);
}

int parallel_cores(void)
{
    int n = omp_get_num_procs();
    return n > 0 ? n : 1;
}
