/* serve.h - `ocsolve serve`, the analysis board over HTTP: what its parts
 * share. cmd_serve.c (options, signals, the URL line) starts the job
 * runner (serve_jobs.c) and the HTTP front (serve_http.c, libmicrohttpd),
 * which turns requests into queries and results into JSON (serve_api.c)
 * and serves the page (web/, embedded at build time: serve_assets.h).
 *
 * Bounds, the server's answer to hostile input (README, ocsolve serve):
 * - work: one worker thread runs the jobs, one at a time, each bounded by
 *   the server's think time (--think; a client cannot ask for more);
 * - queue: at most SERVE_QUEUE jobs wait or run; a new query beyond that
 *   is answered 503 (busy) at once, never queued;
 * - memory: SERVE_SLOTS fixed job slots (results kept for repeated
 *   queries, the least recently asked done one reused), the worker's
 *   fixed tables, and the HTTP front's per-connection limits
 *   (serve_http.c); nothing grows with the number of requests;
 * - abandonment: a job nobody asked about for SERVE_STALE seconds is
 *   dropped from the queue, or stopped if it runs (a client polls: the
 *   page every fraction of a second), so a page clicking through
 *   positions never waits behind positions it left.
 */
#ifndef OCS_SERVE_H
#define OCS_SERVE_H

#include <stdatomic.h>
#include <stddef.h>

#include "../solver/analyse.h"

enum { SERVE_QUEUE = 8, SERVE_SLOTS = 64, SERVE_REASON = 512 };
#define SERVE_STALE 10.0

typedef struct {
    double think;    /* seconds of search per job */
    size_t tt_bytes; /* the worker's tables */
    Store *store;    /* NULL: none; read only */
} ServeConfig;

typedef enum { SERVE_ANALYSE, SERVE_SOLVE, SERVE_PLAY } ServeKind;

/* What a request asks: the key of its job. */
typedef struct {
    ServeKind kind;
    Rules r;
    Board b;   /* the position to work on (after the moves) */
    Move last; /* the move that led to b, MOVE_NONE: none given */
    int sym;   /* SERVE_PLAY: the symbol asked for, -1 either */
} ServeQuery;

typedef enum { JOB_FREE = 0, JOB_QUEUED, JOB_RUNNING, JOB_DONE, JOB_FAILED } JobState;

/* The engine's move for POST /api/play. */
typedef struct {
    Move move;            /* MOVE_NONE: the game is over */
    const char *kind;     /* play_choice_kind (a static string) */
    AdviceValue before;   /* the position's value before the move */
    int answers;          /* the cell the move answers in a pair, -1 */
    char reason[SERVE_REASON];
} ServePlay;

typedef struct {
    ServeQuery q;
    JobState state;
    int ahead;          /* QUEUED: jobs before it (the running one included) */
    double asked;       /* when a client last asked (clock_seconds) */
    double started, seconds; /* RUNNING: since; DONE: how long it took */
    unsigned long long order; /* when it was queued */
    char error[160];    /* JOB_FAILED: why */
    Analysis an;        /* SERVE_ANALYSE, as far as it has got */
    AdviceValue value;  /* SERVE_SOLVE */
    ServePlay play;     /* SERVE_PLAY */
} ServeJob;

typedef struct ServeJobs ServeJobs;

/* Starts the worker thread; NULL with a message when it cannot (no
 * memory, no thread). */
ServeJobs *serve_jobs_start(const ServeConfig *cfg, char *err, int errlen);
/* Asks for q: its job as it stands is copied into *snap (queued now if it
 * was not known). 0, or -1 when SERVE_QUEUE jobs are waiting or running
 * already (busy: nothing queued, *snap untouched). */
int serve_jobs_ask(ServeJobs *j, const ServeQuery *q, ServeJob *snap);
/* Stops the running job, ends the worker, frees everything. */
void serve_jobs_stop(ServeJobs *j);

/* The request parameters, as names and values (decoded). */
enum { SERVE_MAX_PARAMS = 8, SERVE_NAME_MAX = 16, SERVE_VALUE_MAX = 600 };
typedef struct {
    int n;
    char name[SERVE_MAX_PARAMS][SERVE_NAME_MAX + 1];
    char value[SERVE_MAX_PARAMS][SERVE_VALUE_MAX + 1];
    char err[200]; /* the first fault met while collecting; "" none */
} ServeParams;

/* Adds a parameter (decoded); a fault (too many, too long, repeated,
 * control characters) is kept in p->err. */
void serve_param_add(ServeParams *p, const char *name, const char *value);
/* Parses an application/x-www-form-urlencoded body into p. */
void serve_params_form(ServeParams *p, const char *body, size_t len);
/* The query for kind from p: 0, or -1 with a one-line message (an
 * unknown parameter, a bad position, move, rule set, size, symbol). */
int serve_query(ServeKind kind, const ServeParams *p, ServeQuery *q, char *err, int errlen);
/* The JSON of a job (one object and a newline), malloc'd; NULL when out
 * of memory. think: the server's think time, for the progress. */
char *serve_job_json(const ServeJob *job, double think, size_t *len);
/* {"error": msg} and a newline, malloc'd; NULL when out of memory. */
char *serve_error_json(const char *msg, size_t *len);

/* The HTTP front on a listening socket (cmd_serve.c made it, bound to
 * loopback); NULL with a message when libmicrohttpd cannot start. */
typedef struct ServeHttp ServeHttp;
ServeHttp *serve_http_start(int listen_fd, ServeJobs *jobs, double think, char *err, int errlen);
void serve_http_stop(ServeHttp *h);

#endif
