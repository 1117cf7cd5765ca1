/* test_verify_hostile.c - a certificate is untrusted input: `ocsolve
 * verify` must end in bounded time and memory whatever file it is given,
 * as the top file or in a see line (verify.h): /dev/zero, a FIFO,
 * /dev/stdin, a directory, a symlink to /dev/zero, a 2 GiB sparse file, a
 * NUL byte before a long tail, a 100 MB line. Before, the first grew past
 * 4 GB in a minute, a FIFO blocked in open for ever, and so on.
 *
 * Each case runs the binary (runbin.h, which kills it after 60 s) and
 * expects: the exit code (2 for a top file refused, 1 for a certificate
 * whose see line names one: a malformed sub-certificate makes it
 * invalid, README), exactly one line on stderr naming the problem, an end
 * within TIME_BOUND seconds, and a peak resident size of the child under
 * RSS_BOUND_KB (getrusage of the children: each Criterion test is a process
 * of its own). An address-space limit, inherited by the child, keeps a
 * regression from eating the machine; not under ASan, which reserves
 * terabytes of address space. Big files are sparse or deleted at once.
 */
#include <criterion/criterion.h>

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "../verify/verify.h"
#include "certgen.h"
#include "runbin.h"
#include "testlib.h"

#ifdef OCS_SANITIZE
enum { RSS_BOUND_KB = 1024 * 1024 };
#else
enum { RSS_BOUND_KB = 64 * 1024 };
#endif
static const double TIME_BOUND = 5.0;

static void limit_memory(void)
{
#ifndef OCS_SANITIZE
    struct rlimit rl = {1UL << 30, 1UL << 30};
    cr_assert_eq(setrlimit(RLIMIT_AS, &rl), 0, "setrlimit: %s", strerror(errno));
#endif
}

TestSuite(verify_hostile, .init = limit_memory, .timeout = 40);

static char dir[64];

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Runs `ocsolve ARGS` and checks the run as the header says; *r is the
 * run (the caller frees). With code 2 and no --json, stdout is empty. */
static void hostile_v(Run *r, int code, const char *needle, const char *const *args)
{
    bool json = false;
    for (size_t i = 0; args[i]; i++) json |= strcmp(args[i], "--json") == 0;
    double t0 = now();
    run_argv(r, args);
    double secs = now() - t0;
    struct rusage ru;
    cr_assert_eq(getrusage(RUSAGE_CHILDREN, &ru), 0);
    cr_expect(r->signo == 0, "%s: killed by signal %d (%s) after %.1f s", r->desc, r->signo, strsignal(r->signo), secs);
    cr_expect(r->exited && r->code == code, "%s: exit %d, expected %d; stderr: %s", r->desc, r->code, code, r->err);
    cr_expect(secs < TIME_BOUND, "%s: took %.1f s", r->desc, secs);
    cr_expect(ru.ru_maxrss < RSS_BOUND_KB, "%s: peak resident size %ld KB", r->desc, ru.ru_maxrss);
    cr_expect(r->errlen > 1 && r->err[r->errlen - 1] == '\n' && count_char(r->err, r->errlen, '\n') == 1 &&
                  strlen(r->err) == r->errlen,
              "%s: expected one line on stderr, got [%s]", r->desc, r->err);
    cr_expect(strstr(r->err, needle) != NULL, "%s: stderr should name the problem ('%s'), got [%s]", r->desc, needle,
              r->err);
    if (code == 2 && !json) cr_expect(r->outlen == 0, "%s: stdout: %s", r->desc, r->out);
    if (json) cr_expect(r->outlen > 0 && r->out[0] == '{', "%s: no JSON object: %s", r->desc, r->out);
}
#define hostile(r, code, needle, ...) hostile_v((r), (code), (needle), ARGS(__VA_ARGS__))

/* hostile, the run freed. */
static void refused_v(int code, const char *needle, const char *const *args)
{
    Run r;
    hostile_v(&r, code, needle, args);
    run_free(&r);
}
#define refused(code, needle, ...) refused_v((code), (needle), ARGS(__VA_ARGS__))

static void in_dir(char *out, size_t size, const char *name) { snprintf(out, size, "%s/%s", dir, name); }

/* The refusal of a top file: exit 2, one line; with --json as without. */
static void top_refused(const char *path, const char *needle)
{
    refused(2, needle, "verify", path);
    refused(2, needle, "verify", "--threads", "1", path);
    Run r;
    hostile(&r, 2, needle, "verify", "--json", path);
    cr_expect(strstr(r.out, "\"result\":\"malformed\""), "%s", r.out);
    run_free(&r);
}

/* A certificate whose root hands the root to `target` (as written in the
 * see line): invalid, naming the see line and what is wrong with the file,
 * on one thread and on two (the pre-pass opens the file first). */
static void see_refused(const char *target, const char *needle)
{
    char text[512], top[128];
    snprintf(text, sizeof text, "ocproof 2\nboard 4 3\nrules original\nwinner order\nroot -\n- see %s\n", target);
    tl_write_text(dir, "top.txt", text);
    in_dir(top, sizeof top, "top.txt");
    for (int threads = 1; threads <= 2; threads++) {
        Run r;
        hostile(&r, 1, needle, "verify", "--threads", threads == 1 ? "1" : "2", top);
        cr_expect(strstr(r.err, "ocsolve: invalid: see ") && strstr(r.err, "(line 6): "), "%s", r.err);
        cr_expect(strstr(r.out, "\ninvalid: see "), "%s", r.out);
        run_free(&r);
        hostile(&r, 1, needle, "verify", "--json", "--threads", threads == 1 ? "1" : "2", top);
        cr_expect(strstr(r.out, "\"result\":\"invalid\""), "%s", r.out);
        run_free(&r);
    }
}

/* --- the targets --- */

Test(verify_hostile, dev_zero)
{
    tl_tmp_dir(dir, sizeof dir, "hostile");
    top_refused("/dev/zero", "certificate '/dev/zero' is not a regular file (a character device)");
    see_refused("/dev/zero", "certificate '/dev/zero' is not a regular file (a character device)");
    tl_rm_dir(dir);
}

Test(verify_hostile, fifo)
{
    tl_tmp_dir(dir, sizeof dir, "hostile");
    char fifo[128], needle[512];
    in_dir(fifo, sizeof fifo, "fifo");
    cr_assert_eq(mkfifo(fifo, 0600), 0, "mkfifo: %s", strerror(errno));
    snprintf(needle, sizeof needle, "certificate '%s' is not a regular file (a FIFO)", fifo);
    top_refused(fifo, needle);
    see_refused("fifo", needle); /* relative to top.txt's folder */
    tl_rm_dir(dir);
}

/* runbin gives the child /dev/null as stdin: a character device. */
Test(verify_hostile, dev_stdin)
{
    tl_tmp_dir(dir, sizeof dir, "hostile");
    top_refused("/dev/stdin", "certificate '/dev/stdin' is not a regular file (a character device)");
    see_refused("/dev/stdin", "certificate '/dev/stdin' is not a regular file (a character device)");
    tl_rm_dir(dir);
}

/* /dev/stdin on a pipe whose writer stays open, through the library in
 * this process: reading it would wait for ever (the suite's timeout). */
Test(verify_hostile, dev_stdin_on_an_open_pipe)
{
    tl_tmp_dir(dir, sizeof dir, "hostile");
    int p[2];
    cr_assert_eq(pipe(p), 0);
    cr_assert_geq(dup2(p[0], 0), 0);
    close(p[0]);
    VerifyResult r;
    double t0 = now();
    cr_expect_eq(verify_file("/dev/stdin", &r), VERIFY_MALFORMED, "%s", r.error);
    cr_expect_str_eq(r.error, "certificate '/dev/stdin' is not a regular file (a FIFO)");
    tl_write_text(dir, "top.txt", "ocproof 2\nboard 4 3\nrules original\nwinner order\nroot -\n- see /dev/stdin\n");
    char top[128];
    in_dir(top, sizeof top, "top.txt");
    for (int threads = 1; threads <= 2; threads++) {
        cr_expect_eq(verify_file_threads(top, NULL, threads, &r), VERIFY_INVALID, "%s", r.error);
        cr_expect(strstr(r.error, "see /dev/stdin at ") &&
                      strstr(r.error, "(line 6): certificate '/dev/stdin' is not a regular file (a FIFO)"),
                  "%s", r.error);
    }
    cr_expect_lt(now() - t0, TIME_BOUND);
    close(p[1]);
    tl_rm_dir(dir);
}

Test(verify_hostile, directory)
{
    tl_tmp_dir(dir, sizeof dir, "hostile");
    char sub[128], needle[512];
    in_dir(sub, sizeof sub, "d");
    cr_assert_eq(mkdir(sub, 0700), 0);
    snprintf(needle, sizeof needle, "certificate '%s' is not a regular file (a directory)", sub);
    top_refused(sub, needle);
    see_refused("d", needle);
    rmdir(sub);
    tl_rm_dir(dir);
}

Test(verify_hostile, symlink_to_dev_zero)
{
    tl_tmp_dir(dir, sizeof dir, "hostile");
    char link[128], needle[512];
    in_dir(link, sizeof link, "zero");
    cr_assert_eq(symlink("/dev/zero", link), 0);
    snprintf(needle, sizeof needle, "certificate '%s' is not a regular file (a character device)", link);
    top_refused(link, needle);
    see_refused("zero", needle);
    tl_rm_dir(dir);
}

/* Writes text (len bytes, NULs and all) to path, then makes the file
 * `size` bytes long with zeros if size is larger: sparse (truncate), so
 * it takes no room on the disk. */
static void write_with_tail(const char *path, const char *text, size_t len, off_t size)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    cr_assert_geq(fd, 0);
    cr_assert_eq(write(fd, text, len), (ssize_t)len);
    if (size > (off_t)len) cr_assert_eq(ftruncate(fd, size), 0, "truncate: %s", strerror(errno));
    close(fd);
}

/* A 2 GiB file of zeros, sparse (truncate): refused by its size before a
 * byte is read; with a limit above its size, by its first byte, a NUL. */
Test(verify_hostile, sparse_2gib)
{
    tl_tmp_dir(dir, sizeof dir, "hostile");
    char big[128], needle[512];
    in_dir(big, sizeof big, "sparse");
    write_with_tail(big, "", 0, (off_t)2 << 30);
    snprintf(needle, sizeof needle,
             "certificate '%s' is 2147483648 bytes, more than the limit of 1073741824 for a file (--max-bytes)", big);
    top_refused(big, needle);
    see_refused("sparse", needle);
    snprintf(needle, sizeof needle, "%s:1: NUL byte at column 1: not a text file", big);
    refused(2, needle, "verify", "--max-bytes", "4294967296", big);
    refused(2, needle, "verify", "--json", "--max-bytes", "4294967296", big);
    tl_rm_dir(dir);
}

/* A NUL byte in line 3, whose line then goes on for 900 MB of zeros
 * without a newline (sparse, under the size limit): refused at the NUL,
 * the rest never read (reading the whole line first took 900 MB). */
Test(verify_hostile, nul_byte_before_a_long_tail)
{
    tl_tmp_dir(dir, sizeof dir, "hostile");
    char path[128], needle[512];
    in_dir(path, sizeof path, "nul.txt");
    static const char head[] = "ocproof 2\nboard 4 3\nru\0";
    write_with_tail(path, head, sizeof head - 1, (off_t)900 << 20);
    snprintf(needle, sizeof needle, "%s:3: NUL byte at column 3: not a text file", path);
    top_refused(path, needle);
    see_refused("nul.txt", needle);
    /* a NUL in a line of a small file */
    static const char small[] = "ocproof 2\nboard 4 3\nru\0les original\nwinner order\n";
    write_with_tail(path, small, sizeof small - 1, 0);
    top_refused(path, needle);
    tl_rm_dir(dir);
}

/* Writes `len` bytes of c to fd, a megabyte at a time. */
static void write_run(int fd, char c, size_t len)
{
    static char mb[1 << 20];
    memset(mb, c, sizeof mb);
    while (len > 0) {
        size_t n = len < sizeof mb ? len : sizeof mb;
        cr_assert_eq(write(fd, mb, n), (ssize_t)n, "write: %s", strerror(errno));
        len -= n;
    }
}

/* A file whose line 2 is one 100 MB line: refused at its 65537th byte,
 * in bounded memory; deleted at once. */
Test(verify_hostile, one_100_mb_line)
{
    tl_tmp_dir(dir, sizeof dir, "hostile");
    char path[128], needle[512];
    in_dir(path, sizeof path, "long.txt");
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
    cr_assert_geq(fd, 0);
    cr_assert_eq(write(fd, "ocproof 2\n", 10), 10);
    write_run(fd, '#', (size_t)100 << 20);
    cr_assert_eq(write(fd, "\n", 1), 1);
    close(fd);
    snprintf(needle, sizeof needle, "%s:2: line longer than 65536 bytes, the limit for a line", path);
    top_refused(path, needle);
    see_refused("long.txt", needle);
    unlink(path);
    tl_rm_dir(dir);
}

/* --- the limits, at their edges --- */

/* A valid certificate of the test solver's in dir/name; its line count. */
static int write_cert(const char *name, char *path, size_t size)
{
    CgCert c;
    cg_make_cert(&c, 4, 3, 0, CG_EMPTY44, 1);
    char *text = cg_plain(&c);
    tl_write_text(dir, name, text);
    in_dir(path, size, name);
    int lines = (int)count_char(text, strlen(text), '\n');
    free(text);
    cg_free_cert(&c);
    return lines;
}

/* Appends a comment line of len bytes (its newline not counted) to path. */
static void append_comment(const char *path, size_t len)
{
    int fd = open(path, O_WRONLY | O_APPEND);
    cr_assert_geq(fd, 0);
    write_run(fd, '#', len);
    cr_assert_eq(write(fd, "\n", 1), 1);
    close(fd);
}

/* A comment line of exactly VERIFY_LINE_MAX bytes is read; one more byte is refused. */
Test(verify_hostile, line_length_bound)
{
    tl_tmp_dir(dir, sizeof dir, "hostile");
    char path[128], needle[512];
    write_cert("ok.txt", path, sizeof path);
    append_comment(path, VERIFY_LINE_MAX);
    Run r;
    expect_ok(&r, "verify", path);
    cr_expect(strstr(r.out, "\nvalid\n") && r.errlen == 0, "%s [%s]", r.out, r.err);
    run_free(&r);
    int lines = write_cert("over.txt", path, sizeof path);
    append_comment(path, VERIFY_LINE_MAX + 1);
    snprintf(needle, sizeof needle, "%s:%d: line longer than 65536 bytes, the limit for a line", path, lines + 1);
    top_refused(path, needle);
    tl_rm_dir(dir);
}

/* --max-lines L and --max-bytes B: a file of exactly L lines and B bytes
 * is read, one line or byte less is refused, naming the limit; bad
 * values are refused as every bad number is. */
Test(verify_hostile, max_lines_and_bytes)
{
    tl_tmp_dir(dir, sizeof dir, "hostile");
    char path[128], needle[512], num[32], less[32];
    int lines = write_cert("c.txt", path, sizeof path);
    cr_assert_gt(lines, 5);
    snprintf(num, sizeof num, "%d", lines);
    snprintf(less, sizeof less, "%d", lines - 1);
    Run r;
    expect_ok(&r, "verify", "--max-lines", num, path);
    run_free(&r);
    snprintf(needle, sizeof needle, "%s:%d: more than %d lines, the limit for a file (--max-lines)", path, lines,
             lines - 1);
    refused(2, needle, "verify", "--max-lines", less, path);
    refused(2, needle, "verify", "--json", "--max-lines", less, path);
    struct stat st;
    cr_assert_eq(stat(path, &st), 0);
    snprintf(num, sizeof num, "%lld", (long long)st.st_size);
    snprintf(less, sizeof less, "%lld", (long long)st.st_size - 1);
    expect_ok(&r, "verify", "--max-bytes", num, path);
    run_free(&r);
    snprintf(needle, sizeof needle, "certificate '%s' is %s bytes, more than the limit of %s for a file (--max-bytes)",
             path, num, less);
    refused(2, needle, "verify", "--max-bytes", less, path);
    expect_reject("--max-bytes", "verify", "--max-bytes", "0", path);
    expect_reject("--max-bytes", "verify", "--max-bytes", "1G", path);
    expect_reject("--max-lines", "verify", "--max-lines", "0", path);
    expect_reject("--max-lines", "verify", "--max-lines", "4294967296", path);
    /* the library's limits apply to files see lines name too */
    char text[512], top[128];
    snprintf(text, sizeof text, "ocproof 2\nboard 4 3\nrules original\nwinner order\nroot -\n- see c.txt\n");
    tl_write_text(dir, "top.txt", text);
    in_dir(top, sizeof top, "top.txt");
    VerifyLimits lim = {.max_bytes = 0, .max_lines = (uint64_t)lines - 1};
    VerifyResult v;
    snprintf(needle, sizeof needle, "(line 6): %s:%d: more than %d lines, the limit for a file (--max-lines)", path,
             lines, lines - 1);
    for (int threads = 1; threads <= 2; threads++) {
        cr_expect_eq(verify_file_limits(top, NULL, threads, &lim, &v), VERIFY_INVALID, "%s", v.error);
        cr_expect(strncmp(v.error, "see ", 4) == 0 && strstr(v.error, needle), "%s", v.error);
    }
    lim.max_lines = (uint64_t)lines;
    cr_expect_eq(verify_file_limits(top, NULL, 2, &lim, &v), VERIFY_VALID, "%s", v.error);
    tl_rm_dir(dir);
}

/* --- every failure has its line on stderr, with --json too --- */

Test(verify_hostile, json_failures_have_a_stderr_line)
{
    tl_tmp_dir(dir, sizeof dir, "hostile");
    Run r;
    hostile(&r, 2, "/nonexistent: cannot open: No such file or directory", "verify", "--json", "/nonexistent");
    cr_expect(strstr(r.out, "\"result\":\"malformed\""), "%s", r.out);
    run_free(&r);
    refused(2, "/nonexistent: cannot open", "verify", "/nonexistent");
    char path[128];
    write_cert("c.txt", path, sizeof path);
    /* invalid: another claim; and --within on a valid one */
    hostile(&r, 1, "ocsolve: invalid: the certificate claims order wins, not chaos", "verify", "--json", "--winner",
            "chaos", path);
    cr_expect(strstr(r.out, "\"result\":\"invalid\""), "%s", r.out);
    run_free(&r);
    hostile(&r, 1, "ocsolve: invalid: the certificate claims order wins, not chaos", "verify", "--winner", "chaos",
            path);
    cr_expect(strstr(r.out, "\ninvalid: the certificate claims order wins, not chaos\n"), "%s", r.out);
    run_free(&r);
    hostile(&r, 1, "ocsolve: invalid: --within 0: its longest game is", "verify", "--json", "--within", "0", path);
    run_free(&r);
    /* malformed, quoting a control character of the file: still one line */
    tl_write_text(dir, "bad.txt", "ocproof 2\nboard 4 3\nrules orig\rinal\x01\n");
    char bad[128], needle[512];
    in_dir(bad, sizeof bad, "bad.txt");
    snprintf(needle, sizeof needle, "%s:3: ", bad);
    refused(2, needle, "verify", "--json", bad);
    /* the command line's own faults, with --json */
    expect_reject("--threads", "verify", "--json", "--threads", "0", path);
    expect_reject("certificate FILE", "verify", "--json");
    expect_reject("one FILE", "verify", "--json", path, path);
    expect_reject("--root", "verify", "--json", "--root", "XX", path);
    expect_reject("unknown rules", "verify", "--json", "--rules", "silly", path);
    expect_reject("--bogus", "verify", "--json", "--bogus", path);
    tl_rm_dir(dir);
}

/* --- real certificates still verify --- */

/* The test solver's certificates, alone and composed by see lines, and
 * one the solver writes: valid, nothing on stderr, under the defaults. */
Test(verify_hostile, real_certificates_still_verify)
{
    tl_tmp_dir(dir, sizeof dir, "hostile");
    uint64_t rng = 5;
    char root[26];
    cg_find_root(5, 4, 0, 9, REF_ORDER_WINS, &rng, root);
    CgCert c;
    cg_make_cert(&c, 5, 4, 0, root, 1);
    char *sub = cg_plain(&c), text[256], top[128], solved[128];
    tl_write_text(dir, "sub.txt", sub);
    snprintf(text, sizeof text, "ocproof 2\nboard 5 4\nrules original\nwinner order\nroot %s\n%s see sub.txt\n", root,
             root);
    tl_write_text(dir, "top.txt", text);
    in_dir(top, sizeof top, "top.txt");
    for (int threads = 1; threads <= 2; threads++) {
        Run r;
        expect_ok(&r, "verify", "--threads", threads == 1 ? "1" : "2", top);
        cr_expect(strstr(r.out, "\nvalid\n") && r.errlen == 0, "%s [%s]", r.out, r.err);
        run_free(&r);
    }
    in_dir(solved, sizeof solved, "solved.ocproof");
    Run r;
    expect_ok(&r, "solve", "--quiet", "--threads", "1", "--tt-mb", "16", "--proof", solved,
              "OXO.X.XOX..X..O..O.XOX..X.O..OOO..OX");
    run_free(&r);
    expect_ok(&r, "verify", "--json", solved);
    cr_expect(strstr(r.out, "\"valid\":true") && r.errlen == 0, "%s [%s]", r.out, r.err);
    run_free(&r);
    free(sub);
    cg_free_cert(&c);
    tl_rm_dir(dir);
}
