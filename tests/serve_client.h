/* serve_client.h - the tests' side of `ocsolve serve`: start the binary
 * under test (OCSOLVE_BIN) on a free loopback port (--port 0; the URL is
 * read from its first line), talk to it through a real HTTP client (curl,
 * from Debian, run as a child: no shell), and stop it with SIGTERM. Also
 * what the API and browser tests share: `ocsolve solve --json --dtw` on a
 * position (the solver's own word to check the server's values against)
 * and reading one move's fields out of an analysis. */
#ifndef OCS_SERVE_CLIENT_H
#define OCS_SERVE_CLIENT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

typedef struct {
    pid_t pid;
    int port;
    char url[64]; /* http://127.0.0.1:PORT */
} Server;

/* Starts `ocsolve serve --port 0 ARGS...` (args NULL-terminated). */
void server_start(Server *s, const char *const *args);
/* SIGTERM, then the exit code it ended with (128 + 15 expected), or -1
 * when it died of a signal (a crash). */
int server_stop(Server *s);
/* Is the process still alive (not a zombie)? */
bool server_alive(const Server *s);

/* Runs a program (argv[0] looked up in PATH) with stdout captured (NUL-
 * terminated, malloc'd) and stderr discarded; its exit code, -1 on a
 * signal. A hang guard: killed after 120 s. */
int run_prog(const char *const *argv, char **out);

/* One request through curl: the HTTP status (0: no answer), the body
 * (malloc'd) in *body. form: NULL for a GET, else the POST body
 * (application/x-www-form-urlencoded). host: a Host header to send
 * instead of curl's, or NULL. */
int http_call(const char *url, const char *form, const char *host, char **body);
/* Asks again while the answer is 202 (queued or running), every 200 ms,
 * up to a hang guard of 3 minutes; the last status and body. */
int http_until_done(const char *url, const char *form, char **body);

/* The solver on `position` (with --rules, --board, --k as given, moves
 * after it): its winner ("order", "chaos", "unknown") and, with dtw, its
 * distance to win (-1 none or not asked). */
typedef struct {
    char winner[16];
    int dtw;
} SolverSays;
void solver_says(const char *rules, int n, int k, const char *position, const char *move, double limit, bool dtw,
                 SolverSays *out);

/* In an analysis, the object of `move` ("Xc3"): its field's value as
 * text (a string without quotes, a number, or "null"); false if absent. */
bool move_field(const char *json, const char *move, const char *field, char *out, size_t size);
/* A top-level-ish member: the first `"key":` anywhere in json, as above. */
bool json_field(const char *json, const char *key, char *out, size_t size);

/* A value of /proc/PID/status in KiB ("VmRSS", "VmHWM"), -1 if absent. */
long proc_kib(pid_t pid, const char *field);

#endif
