/* cmd_serve.c - `ocsolve serve`: the analysis board in a browser (serve.h).
 * Options, the listening socket (loopback only), the job runner and the
 * HTTP front, one line with the URL on stdout, then it waits for SIGINT
 * or SIGTERM and stops cleanly (exit 128 + N, as solve and jobs do).
 *
 * The socket is made here rather than by libmicrohttpd so that a port in
 * use is one line naming it (exit 2), and port 0 (any free port, for
 * tests) prints the port the system chose. */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "cli.h"
#include "commands.h"
#include "serve.h"

static const char serve_help[] =
    "usage: ocsolve serve [options]\n"
    "The analysis board: a local web page on 127.0.0.1 showing every move's value\n"
    "(win or loss for the side to move, the distance to win, how it was proved), the\n"
    "centre strategy and the pairings where they decide, and play against the proof.\n"
    "  --port P      TCP port on 127.0.0.1 (default 8347; 0: any free port)\n"
    "  --store DIR   also look positions up in a store of decided positions\n"
    "                (ocsolve store; read only)\n"
    "  --think S     seconds of search per request (default 3): an analysis\n"
    "                shares them among the moves the lemmas leave open\n"
    "  --tt-mb M     the engine's tables in MiB (default 64)\n"
    "  --help        this text\n"
    "It prints the URL to open; Ctrl-C (SIGINT) or SIGTERM stops it (exit 128+N).\n"
    "The JSON API (GET /api/analyse, GET /api/solve, POST /api/play): README.\n"
    "example: ocsolve serve --think 5\n";

/* A socket listening on 127.0.0.1:port; -1 with a message. *bound: the
 * port it got. */
static int listen_loopback(long port, int *bound, char *err, int errlen)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), one = 1;
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) != 0 ||
        bind(fd, (struct sockaddr *)&a, sizeof a) != 0 || listen(fd, 64) != 0 ||
        getsockname(fd, (struct sockaddr *)&a, &len) != 0) {
        snprintf(err, (size_t)errlen, "cannot listen on 127.0.0.1:%ld: %s", port, strerror(errno));
        if (fd >= 0) close(fd);
        return -1;
    }
    *bound = ntohs(a.sin_port);
    return fd;
}

enum { O_PORT = 1000, O_STORE, O_THINK, O_TT };

int cmd_serve(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"port", required_argument, NULL, O_PORT},   {"store", required_argument, NULL, O_STORE},
        {"think", required_argument, NULL, O_THINK}, {"tt-mb", required_argument, NULL, O_TT},
        {"help", no_argument, NULL, 'h'},            {0, 0, 0, 0}};
    ServeConfig cfg = {.think = 3, .tt_bytes = (size_t)64 << 20};
    long port = 8347;
    const char *store_dir = NULL;
    int opt;
    while ((opt = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        switch (opt) {
        case 'h': fputs(serve_help, stdout); return 0;
        case O_PORT: port = cli_number(optarg, "--port", 0, 65535); break;
        case O_STORE: store_dir = optarg; break;
        case O_THINK: cfg.think = cli_seconds(optarg, "--think"); break;
        case O_TT: cfg.tt_bytes = (size_t)cli_number(optarg, "--tt-mb", 1, 1L << 22) << 20; break;
        default: cli_bad_option(argv, opt);
        }
    }
    if (optind < argc) cli_fail("unexpected argument '%s' (serve takes options only)", argv[optind]);
    char err[512];
    if (store_dir && !(cfg.store = store_open(store_dir, true, 0, err, sizeof err))) cli_fail("%s", err);
    int bound, fd = listen_loopback(port, &bound, err, sizeof err);
    if (fd < 0) cli_fail("%s", err);
    /* SIGINT and SIGTERM are waited for below; blocked before any thread
     * starts, so that every thread inherits the mask and none takes them. */
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop, NULL);
    signal(SIGPIPE, SIG_IGN);
    ServeJobs *jobs = serve_jobs_start(&cfg, err, sizeof err);
    if (!jobs) cli_fail("%s", err);
    ServeHttp *http = serve_http_start(fd, jobs, cfg.think, err, sizeof err);
    if (!http) cli_fail("%s", err);
    printf("ocsolve serve: http://127.0.0.1:%d/ (think %g s a request; Ctrl-C stops it)\n", bound, cfg.think);
    fflush(stdout);
    int sig = 0;
    sigwait(&stop, &sig);
    serve_http_stop(http);
    serve_jobs_stop(jobs); /* libmicrohttpd has closed the socket */
    if (cfg.store) store_close(cfg.store);
    fprintf(stderr, "ocsolve serve: stopped by signal %d\n", sig);
    return 128 + sig;
}
