/* runbin.h - running the ocsolve binary under test (OCSOLVE_BIN) as a child
 * process for black-box tests: fork + execv, no shell, stdout and stderr
 * captured in temporary files; and the checks every CLI test shares. */
#ifndef OCS_RUNBIN_H
#define OCS_RUNBIN_H

#include <stddef.h>
#include <sys/types.h>

typedef struct {
    int exited;   /* 1: exited normally, code in code */
    int code;     /* exit code */
    int signo;    /* the signal that ended it, 0 if none */
    char *out;    /* stdout, NUL-terminated */
    size_t outlen;
    char *err;    /* stderr, NUL-terminated */
    size_t errlen;
    char desc[512]; /* the command line, for messages */
} Run;

#define ARGS(...) ((const char *const[]){__VA_ARGS__, NULL})
#define expect_reject(needle, ...) expect_reject_v((needle), ARGS(__VA_ARGS__))
#define expect_ok(r, ...) expect_ok_v((r), ARGS(__VA_ARGS__))
#define spawn(...) run_spawn(ARGS(__VA_ARGS__))

int make_tmp(void);
char *slurp(int fd, size_t *len);
void run_argv(Run *res, const char *const *args);
void run_free(Run *r);
pid_t run_spawn(const char *const *args);
size_t count_char(const char *s, size_t len, char ch);
void expect_reject_v(const char *needle, const char *const *args);
void expect_ok_v(Run *r, const char *const *args);
const char *last_line(const char *s, char *buf, size_t size);
const char *line_value(const char *s, const char *prefix, char *buf, size_t size);
void make_pos(char *out, int n);
/* Starts `ocsolve ARGS`, sends SIGINT after `after` seconds, and expects
 * exit 128 + SIGINT within 10 s of the signal. */
void expect_sigint_exit(double after, const char *const *args);

#endif
