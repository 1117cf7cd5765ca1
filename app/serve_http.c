/* serve_http.c - the HTTP front of `ocsolve serve` on libmicrohttpd: the
 * page (serve_assets.h), GET /api/analyse, GET /api/solve, POST /api/play
 * (serve_api.c, serve_json.c), and the bounds on what a client can make
 * it hold (serve.h).
 *
 * Bounds here: at most CONN_LIMIT connections at once (more are refused
 * by libmicrohttpd as they arrive), each with a memory pool of CONN_MEMORY
 * bytes for its request line and headers (a longer URL or header block is
 * answered 414/431 by libmicrohttpd), CONN_TIMEOUT seconds of silence
 * before it is closed (a slow client cannot hold a slot), and a body of at
 * most BODY_MAX bytes (413 beyond). Handlers never wait for the engine:
 * they read a job's state (serve_jobs_ask) and answer at once, 200 when
 * done, 202 while queued or running (the client asks again), 503 when the
 * queue is full. One thread answers every connection.
 *
 * Requests are refused unless their Host header names the loopback
 * (127.0.0.1, localhost, [::1], any port): a page elsewhere cannot reach
 * the server through a DNS name rebound to 127.0.0.1.
 */
#include <microhttpd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"
#include "serve.h"
#include "serve_assets.h"

enum { CONN_LIMIT = 64, CONN_MEMORY = 32 * 1024, CONN_TIMEOUT = 10, BODY_MAX = 4096 };

struct ServeHttp {
    struct MHD_Daemon *d;
    ServeJobs *jobs;
    double think;
};

/* One request's state between libmicrohttpd's calls: its body so far. */
typedef struct {
    size_t len;
    bool too_big;
    char body[BODY_MAX + 1];
} Request;

/* Queues a response of len bytes (taken over: freed by libmicrohttpd). */
static enum MHD_Result send_buf(struct MHD_Connection *c, unsigned status, char *buf, size_t len, const char *type)
{
    if (!buf) return MHD_NO; /* out of memory: libmicrohttpd closes the connection */
    struct MHD_Response *r = MHD_create_response_from_buffer(len, buf, MHD_RESPMEM_MUST_FREE);
    if (!r) {
        free(buf);
        return MHD_NO;
    }
    MHD_add_response_header(r, "Content-Type", type);
    MHD_add_response_header(r, "Cache-Control", "no-store");
    MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
    if (status == MHD_HTTP_ACCEPTED || status == MHD_HTTP_SERVICE_UNAVAILABLE)
        MHD_add_response_header(r, "Retry-After", "1");
    enum MHD_Result ok = MHD_queue_response(c, status, r);
    MHD_destroy_response(r);
    return ok;
}

/* {"error": msg} with the status: one line naming the problem. */
static enum MHD_Result send_error(struct MHD_Connection *c, unsigned status, const char *msg)
{
    char line[400];
    snprintf(line, sizeof line, "%s", msg);
    cli_one_line(line);
    size_t len;
    char *buf = serve_error_json(line, &len);
    return send_buf(c, status, buf, len, "application/json");
}

static enum MHD_Result send_asset(struct MHD_Connection *c, const ServeAsset *a)
{
    struct MHD_Response *r = MHD_create_response_from_buffer(a->size, (void *)a->data, MHD_RESPMEM_PERSISTENT);
    if (!r) return MHD_NO;
    MHD_add_response_header(r, "Content-Type", a->content_type);
    MHD_add_response_header(r, "Cache-Control", "no-cache");
    MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
    /* Nothing from elsewhere, ever: the page uses only its own files. */
    MHD_add_response_header(r, "Content-Security-Policy",
                            "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; form-action 'self'");
    enum MHD_Result ok = MHD_queue_response(c, MHD_HTTP_OK, r);
    MHD_destroy_response(r);
    return ok;
}

static const ServeAsset *find_asset(const char *url)
{
    if (strcmp(url, "/") == 0) url = "/index.html";
    for (size_t i = 0; i < serve_nassets; i++)
        if (strcmp(serve_assets[i].path, url) == 0) return &serve_assets[i];
    return NULL;
}

/* Is the Host header (if any) a loopback name? */
static bool host_ok(struct MHD_Connection *c)
{
    const char *h = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Host");
    if (!h) return true; /* HTTP/1.0 without Host: nothing to rebind */
    static const char *const names[] = {"127.0.0.1", "localhost", "[::1]"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        size_t n = strlen(names[i]);
        if (strncasecmp(h, names[i], n) == 0 && (h[n] == '\0' || h[n] == ':')) return true;
    }
    return false;
}

static enum MHD_Result add_arg(void *cls, enum MHD_ValueKind kind, const char *key, const char *value)
{
    (void)kind;
    serve_param_add(cls, key, value ? value : "");
    return MHD_YES;
}

/* An API request whose parameters are in p: the job's state as JSON. */
static enum MHD_Result api(ServeHttp *h, struct MHD_Connection *c, ServeKind kind, ServeParams *p)
{
    char err[300];
    ServeQuery q;
    if (p->err[0]) return send_error(c, MHD_HTTP_BAD_REQUEST, p->err);
    if (serve_query(kind, p, &q, err, sizeof err) != 0) return send_error(c, MHD_HTTP_BAD_REQUEST, err);
    ServeJob *snap = malloc(sizeof *snap);
    if (!snap) return MHD_NO;
    if (serve_jobs_ask(h->jobs, &q, snap) != 0) {
        free(snap);
        snprintf(err, sizeof err, "busy: %d jobs are queued or running; ask again later", SERVE_QUEUE);
        return send_error(c, MHD_HTTP_SERVICE_UNAVAILABLE, err);
    }
    size_t len;
    unsigned status = snap->state == JOB_DONE     ? MHD_HTTP_OK
                      : snap->state == JOB_FAILED ? MHD_HTTP_INTERNAL_SERVER_ERROR
                                                  : MHD_HTTP_ACCEPTED;
    char *buf = serve_job_json(snap, h->think, &len);
    free(snap);
    return send_buf(c, status, buf, len, "application/json");
}

static enum MHD_Result not_allowed(struct MHD_Connection *c, const char *allow)
{
    char msg[120];
    snprintf(msg, sizeof msg, "method not allowed here (use %s)", allow);
    return send_error(c, MHD_HTTP_METHOD_NOT_ALLOWED, msg);
}

/* The whole request is in: answer it. */
static enum MHD_Result route(ServeHttp *h, struct MHD_Connection *c, const char *url, const char *method, Request *rq)
{
    bool get = strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0, post = strcmp(method, "POST") == 0;
    if (!host_ok(c)) return send_error(c, MHD_HTTP_FORBIDDEN, "the Host header must name the loopback (127.0.0.1)");
    const ServeAsset *a = find_asset(url);
    if (a) return get ? send_asset(c, a) : not_allowed(c, "GET");
    ServeParams *p = calloc(1, sizeof *p);
    if (!p) return MHD_NO;
    enum MHD_Result ok;
    if (strcmp(url, "/api/analyse") == 0 || strcmp(url, "/api/solve") == 0) {
        if (!get) ok = not_allowed(c, "GET");
        else {
            MHD_get_connection_values(c, MHD_GET_ARGUMENT_KIND, add_arg, p);
            ok = api(h, c, url[5] == 'a' ? SERVE_ANALYSE : SERVE_SOLVE, p);
        }
    } else if (strcmp(url, "/api/play") == 0) {
        const char *type = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Content-Type");
        if (!post) ok = not_allowed(c, "POST");
        else if (rq->too_big) ok = send_error(c, MHD_HTTP_CONTENT_TOO_LARGE, "request body too large (at most 4096 bytes)");
        else if (type && strncasecmp(type, "application/x-www-form-urlencoded", 33) != 0)
            ok = send_error(c, MHD_HTTP_UNSUPPORTED_MEDIA_TYPE, "the body must be application/x-www-form-urlencoded");
        else {
            serve_params_form(p, rq->body, rq->len);
            ok = api(h, c, SERVE_PLAY, p);
        }
    } else {
        ok = send_error(c, MHD_HTTP_NOT_FOUND, "no such page (/, /api/analyse, /api/solve, /api/play)");
    }
    free(p);
    return ok;
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *c, const char *url, const char *method,
                              const char *version, const char *upload, size_t *upload_size, void **state)
{
    (void)version;
    Request *rq = *state;
    if (!rq) { /* the headers are in; the body (if any) comes next */
        if (!(rq = calloc(1, sizeof *rq))) return MHD_NO;
        const char *cl = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Content-Length");
        rq->too_big = cl && strtoull(cl, NULL, 10) > BODY_MAX;
        *state = rq;
        return MHD_YES;
    }
    if (*upload_size > 0) {
        if (rq->len + *upload_size > BODY_MAX) rq->too_big = true;
        else memcpy(rq->body + rq->len, upload, *upload_size), rq->len += *upload_size;
        *upload_size = 0;
        return MHD_YES;
    }
    return route(cls, c, url, method, rq);
}

static void completed(void *cls, struct MHD_Connection *c, void **state, enum MHD_RequestTerminationCode code)
{
    (void)cls, (void)c, (void)code;
    free(*state);
    *state = NULL;
}

ServeHttp *serve_http_start(int listen_fd, ServeJobs *jobs, double think, char *err, int errlen)
{
    ServeHttp *h = calloc(1, sizeof *h);
    if (!h) {
        snprintf(err, (size_t)errlen, "out of memory");
        return NULL;
    }
    h->jobs = jobs;
    h->think = think;
    h->d = MHD_start_daemon(MHD_USE_AUTO_INTERNAL_THREAD, 0, NULL, NULL, handle, h, MHD_OPTION_LISTEN_SOCKET,
                            (MHD_socket)listen_fd, MHD_OPTION_CONNECTION_LIMIT, (unsigned)CONN_LIMIT,
                            MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)CONN_MEMORY, MHD_OPTION_CONNECTION_TIMEOUT,
                            (unsigned)CONN_TIMEOUT, MHD_OPTION_NOTIFY_COMPLETED, completed, NULL, MHD_OPTION_END);
    if (!h->d) {
        snprintf(err, (size_t)errlen, "cannot start the HTTP server (libmicrohttpd)");
        free(h);
        return NULL;
    }
    return h;
}

void serve_http_stop(ServeHttp *h)
{
    MHD_stop_daemon(h->d);
    free(h);
}
