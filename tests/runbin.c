/* runbin.c - see runbin.h. */
#include "runbin.h"

#include <criterion/criterion.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef OCSOLVE_BIN
#error "OCSOLVE_BIN must name the ocsolve binary under test"
#endif

/* ------------------------------------------------------------------ */
/* Running the binary                                                  */
/* ------------------------------------------------------------------ */


int make_tmp(void)
{
    char path[] = "/tmp/ocsolve-test-cli-XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0, "mkstemp: %s", strerror(errno));
    unlink(path); /* the file lives on while fd is open */
    return fd;
}

char *slurp(int fd, size_t *len)
{
    struct stat st;
    cr_assert(fstat(fd, &st) == 0, "fstat: %s", strerror(errno));
    size_t size = (size_t)st.st_size;
    char *buf = malloc(size + 1);
    cr_assert(buf != NULL);
    size_t got = 0;
    while (got < size) {
        ssize_t r = pread(fd, buf + got, size - got, (off_t)got);
        if (r < 0 && errno == EINTR) continue;
        cr_assert(r > 0, "pread: %s", r < 0 ? strerror(errno) : "short file");
        got += (size_t)r;
    }
    buf[size] = '\0';
    *len = size;
    return buf;
}

/* The program's argv for execv: "ocsolve", then args (NULL-terminated);
 * *nargs gets the count of args. Freed by the caller. */
static char **exec_argv(const char *const *args, size_t *nargs)
{
    size_t n = 0;
    while (args[n]) n++;
    char **argv = calloc(n + 2, sizeof *argv);
    cr_assert(argv != NULL);
    argv[0] = (char *)"ocsolve";
    for (size_t i = 0; i < n; i++) argv[i + 1] = (char *)args[i];
    *nargs = n;
    return argv;
}

/* The alarm of a run: nothing here should take long, and a hang becomes a
 * signal. Under the sanitizers every run is several times slower (a
 * 2-worker jobs run of netns's threads reference passed 60 s under ASan on
 * a loaded machine), so the alarm is wider there. */
#ifdef OCS_SANITIZE
#define RUN_ALARM 300
#else
#define RUN_ALARM 60
#endif

/* Forks and runs the binary with stdin from /dev/null, stdout and stderr to
 * out and err, and an alarm of secs seconds; returns the child's pid. */
static pid_t start_child(char **argv, int out, int err, unsigned secs)
{
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    cr_assert(pid >= 0, "fork: %s", strerror(errno));
    if (pid == 0) {
        int fin = open("/dev/null", O_RDONLY);
        if (fin >= 0) dup2(fin, 0);
        if (dup2(out, 1) < 0 || dup2(err, 2) < 0) _exit(126);
        signal(SIGPIPE, SIG_DFL);
        alarm(secs);
        execv(OCSOLVE_BIN, argv);
        _exit(127);
    }
    return pid;
}

/* argv: NULL-terminated arguments after the program name. */
void run_argv(Run *res, const char *const *args)
{
    memset(res, 0, sizeof *res);
    size_t nargs;
    char **argv = exec_argv(args, &nargs);

    size_t used = (size_t)snprintf(res->desc, sizeof res->desc, "ocsolve");
    for (size_t i = 0; i < nargs && used < sizeof res->desc; i++)
        used += (size_t)snprintf(res->desc + used, sizeof res->desc - used, " '%s'", args[i]);

    int fo = make_tmp(), fe = make_tmp();
    pid_t pid = start_child(argv, fo, fe, RUN_ALARM);
    int status;
    pid_t w;
    do w = waitpid(pid, &status, 0);
    while (w < 0 && errno == EINTR);
    cr_assert(w == pid, "waitpid: %s", strerror(errno));
    free(argv);

    res->out = slurp(fo, &res->outlen);
    res->err = slurp(fe, &res->errlen);
    close(fo);
    close(fe);
    if (WIFEXITED(status)) {
        res->exited = 1;
        res->code = WEXITSTATUS(status);
    } else if (WIFSIGNALED(status)) {
        res->signo = WTERMSIG(status);
    }
    cr_assert(!(res->exited && res->code == 127 && res->outlen == 0 && res->errlen == 0),
              "could not execute %s", OCSOLVE_BIN);
}

/* Starts the binary in the background, output discarded; the caller waits. */
pid_t run_spawn(const char *const *args)
{
    size_t nargs;
    char **argv = exec_argv(args, &nargs);
    int null = open("/dev/null", O_WRONLY);
    cr_assert(null >= 0);
    pid_t pid = start_child(argv, null, null, 2 * RUN_ALARM);
    close(null);
    free(argv);
    return pid;
}

void run_free(Run *r)
{
    free(r->out);
    free(r->err);
    r->out = r->err = NULL;
}


/* ------------------------------------------------------------------ */
/* Checks                                                              */
/* ------------------------------------------------------------------ */

size_t count_char(const char *s, size_t len, char ch)
{
    size_t k = 0;
    for (size_t i = 0; i < len; i++) k += s[i] == ch;
    return k;
}

/* Bad input: exit code 2, nothing on stdout, exactly one line on stderr
 * (non-empty, '\n'-terminated, no other newline), naming `needle`. */
void expect_reject_v(const char *needle, const char *const *args)
{
    Run r;
    run_argv(&r, args);
    cr_expect(r.signo == 0, "%s: killed by signal %d (%s); stderr: %s", r.desc, r.signo, strsignal(r.signo), r.err);
    cr_expect(r.exited && r.code == 2, "%s: exit code %d, expected 2; stderr: %s", r.desc, r.code, r.err);
    cr_expect(r.outlen == 0, "%s: expected nothing on stdout, got: %s", r.desc, r.out);
    cr_expect(r.errlen > 1, "%s: expected an error line on stderr, got %zu bytes", r.desc, r.errlen);
    cr_expect(strlen(r.err) == r.errlen, "%s: NUL byte on stderr", r.desc);
    if (r.errlen > 0) {
        cr_expect(r.err[r.errlen - 1] == '\n', "%s: stderr does not end with a newline: [%s]", r.desc, r.err);
        cr_expect(count_char(r.err, r.errlen, '\n') == 1, "%s: expected exactly one line on stderr, got: [%s]",
                  r.desc, r.err);
    }
    cr_expect(strstr(r.err, needle) != NULL, "%s: stderr should name the problem ('%s'), got: [%s]", r.desc, needle,
              r.err);
    run_free(&r);
}

/* Good input: exit 0 with something on stdout; returns the run (caller frees). */
void expect_ok_v(Run *r, const char *const *args)
{
    run_argv(r, args);
    cr_assert(r->signo == 0, "%s: killed by signal %d (%s)", r->desc, r->signo, strsignal(r->signo));
    cr_assert(r->exited && r->code == 0, "%s: exit code %d, expected 0; stderr: %s", r->desc, r->code, r->err);
    cr_assert(r->outlen > 0, "%s: expected output on stdout", r->desc);
    cr_assert(strlen(r->out) == r->outlen, "%s: NUL byte on stdout", r->desc);
}

/* The last line of s, without its newline, into buf. */
const char *last_line(const char *s, char *buf, size_t size)
{
    size_t len = strlen(s);
    if (len > 0 && s[len - 1] == '\n') len--;
    size_t start = len;
    while (start > 0 && s[start - 1] != '\n') start--;
    size_t n = len - start < size - 1 ? len - start : size - 1;
    memcpy(buf, s + start, n);
    buf[n] = '\0';
    return buf;
}

/* The rest of the line that starts with prefix (at the start of a line), or
 * "" if there is none; into buf. */
const char *line_value(const char *s, const char *prefix, char *buf, size_t size)
{
    size_t pl = strlen(prefix);
    buf[0] = '\0';
    for (const char *p = s; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
        if (strncmp(p, prefix, pl) == 0) {
            const char *v = p + pl;
            size_t n = strcspn(v, "\n");
            if (n > size - 1) n = size - 1;
            memcpy(buf, v, n);
            buf[n] = '\0';
            return buf;
        }
    }
    return buf;
}

/* The empty position of n*n cells, as a string, into out (n*n + 1 chars). */
void make_pos(char *out, int n)
{
    for (int i = 0; i < n * n; i++) out[i] = '.';
    out[n * n] = '\0';
}

/* ------------------------------------------------------------------ */
/* Rejections                                                          */
/* ------------------------------------------------------------------ */

/* Starts `ocsolve solve ARGS`, sends SIGINT after `after` seconds, and
 * expects exit 128 + SIGINT within 10 s of the signal (the phase running
 * then must honour it: before, the distance-to-win phase went on to the
 * end and exited 0, and alpha-beta died by the signal). */
void expect_sigint_exit(double after, const char *const *args)
{
    pid_t pid = run_spawn(args);
    struct timespec ts = {(time_t)after, (long)((after - (double)(time_t)after) * 1e9)};
    nanosleep(&ts, NULL);
    cr_assert_eq(kill(pid, SIGINT), 0);
    int status = 0;
    pid_t got = 0;
    for (int i = 0; i < 1000 && got == 0; i++) { /* 10 s */
        got = waitpid(pid, &status, WNOHANG);
        struct timespec tick = {0, 10 * 1000 * 1000};
        if (got == 0) nanosleep(&tick, NULL);
    }
    if (got == 0) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
        cr_assert_fail("%s %s: still running 10 s after SIGINT", args[0], args[1]);
    }
    cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 128 + SIGINT, "%s ... %s: status %#x, want exit %d", args[0],
              args[3], status, 128 + SIGINT);
}
