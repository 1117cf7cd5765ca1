/* parallel.h - running one function on several threads.
 *
 * parallel_run(T, fn, arg) calls fn(arg, tid) on T threads (tid 0..T-1; tid 0 is
 * the calling thread) and returns when all have returned. Everything the
 * caller wrote before parallel_run is visible to fn, and everything fn wrote is
 * visible to the caller afterwards (pthread_create and pthread_join order
 * them). A thread that cannot be created is left out: fn must not count on
 * every tid running (dfpn.c records which ran).
 *
 * Several threads may call parallel_run at once, each call with threads of its
 * own: a job-level search's worker threads each run a threaded df-pn.
 *
 * Why plain threads, not "#pragma omp parallel": gcc's libgomp hands a
 * region its data and synchronizes its thread pool with futexes
 * ThreadSanitizer cannot see, so TSan reports false races on the data
 * handed in and out; a static hand-off slot avoided that, but only one
 * region could run at a time. pthread_create and pthread_join are seen by
 * TSan and allow any number of calls at once; a thread start per call is
 * nothing next to a df-pn search (one call per solve or job).
 */
#ifndef OCS_PARALLEL_H
#define OCS_PARALLEL_H

typedef void (*ParallelFn)(void *arg, int tid);

void parallel_run(int threads, ParallelFn fn, void *arg);

/* Hardware threads available to this process (at least 1). */
int parallel_cores(void);

#endif
