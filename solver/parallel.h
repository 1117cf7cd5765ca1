/* parallel.h - running one function on several OpenMP threads.
 *
 * par_run(T, fn, arg) calls fn(arg, tid) on T threads (tid 0..T-1; tid 0 is
 * the calling thread) and returns when all have returned. Everything the
 * caller wrote before par_run is visible to fn, and everything fn wrote is
 * visible to the caller afterwards.
 *
 * Why a wrapper around "#pragma omp parallel": gcc's libgomp synchronizes
 * its thread pool with futexes ThreadSanitizer cannot see, so a plain
 * parallel region reports false races on the data handed in and out. Here
 * the hand-off goes through C11 release/acquire atomics, which TSan does
 * see: the threaded search is checked under TSan with OpenMP as it runs.
 *
 * Several threads may call par_run at once (each call gets a team of its
 * own): a job-level search's worker threads each run a threaded df-pn.
 */
#ifndef OCS_PARALLEL_H
#define OCS_PARALLEL_H

typedef void (*ParFn)(void *arg, int tid);

void par_run(int threads, ParFn fn, void *arg);

/* Hardware threads available to this process (at least 1). */
int par_cores(void);

#endif
