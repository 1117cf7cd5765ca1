/* parallel.c - see parallel.h. */
#include "parallel.h"

#include <omp.h>
#include <stdatomic.h>

typedef struct {
    ParFn fn;
    void *arg;
} ParJob;

/* One job at a time: par_run is not re-entered (the solver runs one
 * parallel search at a time, from the main thread). */
static _Atomic(ParJob *) par_job;
static atomic_uint par_done;

static void par_body(int tid)
{
    ParJob *j = atomic_load_explicit(&par_job, memory_order_acquire);
    j->fn(j->arg, tid);
    atomic_fetch_add_explicit(&par_done, 1, memory_order_acq_rel);
}

void par_run(int threads, ParFn fn, void *arg)
{
    if (threads <= 1) {
        fn(arg, 0);
        return;
    }
    ParJob job = {fn, arg};
    atomic_store_explicit(&par_job, &job, memory_order_release);
#pragma omp parallel num_threads(threads)
    par_body(omp_get_thread_num());
    (void)atomic_load_explicit(&par_done, memory_order_acquire);
}

int par_cores(void)
{
    int n = omp_get_num_procs();
    return n > 0 ? n : 1;
}
