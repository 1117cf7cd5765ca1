/* serve_client.c - see serve_client.h. */
#include "serve_client.h"

#include <criterion/criterion.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "runbin.h"

#ifndef OCSOLVE_BIN
#error "OCSOLVE_BIN must name the ocsolve binary under test"
#endif

void server_start(Server *s, const char *const *args)
{
    int p[2];
    cr_assert(pipe(p) == 0);
    const char *argv[32] = {"ocsolve", "serve", "--port", "0"};
    int n = 4;
    for (int i = 0; args && args[i] && n < 31; i++) argv[n++] = args[i];
    argv[n] = NULL;
    fflush(stdout);
    fflush(stderr);
    s->pid = fork();
    cr_assert(s->pid >= 0);
    if (s->pid == 0) {
        dup2(p[1], 1);
        int null = open("/dev/null", O_RDWR);
        dup2(null, 0);
        dup2(null, 2); /* its one line at the end ("stopped by signal 15") */
        close(p[0]);
        execv(OCSOLVE_BIN, (char *const *)argv);
        _exit(127);
    }
    close(p[1]);
    FILE *f = fdopen(p[0], "r");
    char line[256] = "";
    cr_assert(fgets(line, sizeof line, f) != NULL, "ocsolve serve printed no URL line");
    fclose(f); /* the server's later output (none) goes to a closed pipe: SIGPIPE is ignored there */
    cr_assert(sscanf(line, "ocsolve serve: http://127.0.0.1:%d/", &s->port) == 1, "no URL in '%s'", line);
    snprintf(s->url, sizeof s->url, "http://127.0.0.1:%d", s->port);
}

int server_stop(Server *s)
{
    kill(s->pid, SIGTERM);
    int status;
    while (waitpid(s->pid, &status, 0) < 0 && errno == EINTR) {}
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

bool server_alive(const Server *s)
{
    int status;
    return waitpid(s->pid, &status, WNOHANG) == 0;
}

int run_prog(const char *const *argv, char **out)
{
    int fd = make_tmp();
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    cr_assert(pid >= 0);
    if (pid == 0) {
        int null = open("/dev/null", O_RDWR);
        dup2(null, 0);
        dup2(fd, 1);
        dup2(null, 2);
        alarm(120);
        execvp(argv[0], (char *const *)argv);
        _exit(127);
    }
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    size_t len;
    *out = slurp(fd, &len);
    close(fd);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int http_call(const char *url, const char *form, const char *host, char **body)
{
    char hosthdr[200];
    const char *argv[20] = {"curl", "-s", "-g", "--max-time", "30", "-w", "\n%{http_code}"};
    int n = 7;
    if (form) argv[n++] = "--data-raw", argv[n++] = form;
    if (host) {
        snprintf(hosthdr, sizeof hosthdr, "Host: %s", host);
        argv[n++] = "-H", argv[n++] = hosthdr;
    }
    argv[n++] = url;
    argv[n] = NULL;
    char *out;
    run_prog(argv, &out);
    char *nl = strrchr(out, '\n');
    int code = nl ? atoi(nl + 1) : 0;
    if (nl) *nl = '\0';
    *body = out;
    return code;
}

int http_until_done(const char *url, const char *form, char **body)
{
    for (int i = 0;; i++) {
        int code = http_call(url, form, NULL, body);
        if (code != 202 || i == 900) return code;
        free(*body);
        struct timespec ts = {0, 200 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
}

void solver_says(const char *rules, int n, int k, const char *position, const char *move, double limit, bool dtw,
                 SolverSays *out)
{
    char nb[8], kb[8], lim[32];
    snprintf(nb, sizeof nb, "%d", n);
    snprintf(kb, sizeof kb, "%d", k);
    snprintf(lim, sizeof lim, "%g", limit);
    const char *argv[] = {OCSOLVE_BIN, "solve", "--json", dtw ? "--dtw" : "--quiet", "--quiet", "--threads", "1", "--tt-mb", "32",
                          "--time-limit", lim, "--rules", rules, "--board", nb, "--k", kb, position, move, NULL};
    char *json;
    int rc = run_prog(argv, &json);
    cr_assert(rc == 0, "ocsolve solve %s %s failed (%d): %s", position, move ? move : "", rc, json);
    char d[32];
    cr_assert(json_field(json, "result", out->winner, sizeof out->winner), "no result in %s", json);
    out->dtw = dtw && json_field(json, "dtw", d, sizeof d) && strcmp(d, "null") != 0 ? atoi(d) : -1;
    free(json);
}

/* The value after `"key":` at p, into out. */
static bool value_at(const char *p, char *out, size_t size)
{
    size_t i = 0;
    if (*p == '"') {
        for (p++; *p && *p != '"' && i + 1 < size; p++) out[i++] = *p;
    } else {
        for (; *p && *p != ',' && *p != '}' && *p != ']' && i + 1 < size; p++) out[i++] = *p;
    }
    out[i] = '\0';
    return true;
}

bool json_field(const char *json, const char *key, char *out, size_t size)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    const char *p = strstr(json, pat);
    return p && value_at(p + strlen(pat), out, size);
}

bool move_field(const char *json, const char *move, const char *field, char *out, size_t size)
{
    char pat[64];
    snprintf(pat, sizeof pat, "{\"move\":\"%s\"", move);
    const char *p = strstr(json, pat);
    if (!p) return false;
    const char *end = strchr(p, '}');
    snprintf(pat, sizeof pat, "\"%s\":", field);
    const char *f = strstr(p, pat);
    return f && f < end && value_at(f + strlen(pat), out, size);
}

long proc_kib(pid_t pid, const char *field)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    long v = -1;
    size_t len = strlen(field);
    while (fgets(line, sizeof line, f))
        if (strncmp(line, field, len) == 0 && line[len] == ':') v = atol(line + len + 1);
    fclose(f);
    return v;
}
