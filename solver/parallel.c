/* parallel.c - see parallel.h. */
#include "parallel.h"

#include <omp.h>
#include <stdatomic.h>

typedef struct {
    ParFn fn;
    void *arg;
} ParJob;

/* The job and the finish count live in the caller's frame, shared into the
 * region: par_run may run in several threads at once (a job-level
 * search's worker threads each run a threaded df-pn, jobs/pool.c), each
 * call with its own OpenMP team. */
void par_run(int threads, ParFn fn, void *arg)
{
    if (threads <= 1) {
        fn(arg, 0);
        return;
    }
    ParJob job = {fn, arg};
    _Atomic(ParJob *) slot;
    atomic_uint done;
    atomic_init(&done, 0);
    atomic_store_explicit(&slot, &job, memory_order_release);
#pragma omp parallel num_threads(threads) shared(slot, done)
    {
        ParJob *j = atomic_load_explicit(&slot, memory_order_acquire);
        j->fn(j->arg, omp_get_thread_num());
        atomic_fetch_add_explicit(&done, 1, memory_order_acq_rel);
    }
    (void)atomic_load_explicit(&done, memory_order_acquire);
}

int par_cores(void)
{
    int n = omp_get_num_procs();
    return n > 0 ? n : 1;
}
