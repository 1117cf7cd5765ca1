/* test_checkpoint_lock.c - one writer per checkpoint (solver/resumable.h): two
 * `ocsolve solve --checkpoint F` at once through the real binary, the
 * second refused with one line naming F and exit 2, under every spelling
 * of F's path; the first still saves F and ends well, and leaves no lock
 * file; a checkpoint resumed under another spelling of its own path is
 * recognised as the same file; and, in the library, a job without its
 * lock or with a lock another open holds is refused. */
#include <criterion/criterion.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../solver/resumable.h"
#include "runbin.h"
#include "testlib.h"

TestSuite(checkpoint_lock, .timeout = 60);

/* Quick: decided in well under a second. */
#define EASY "...OXOO.XO.............X.........OXX"

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* The pid written into a lock file, 0 if none yet. */
static long lock_holder(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    long pid = 0;
    if (fscanf(f, "%ld", &pid) != 1) pid = 0;
    fclose(f);
    return pid;
}

static void expect_one_line(const Run *r, int code, const char *needle)
{
    cr_expect(r->exited && r->code == code, "%s: exit %d (signal %d), expected %d; stderr: %s", r->desc, r->code,
              r->signo, code, r->err);
    cr_expect(strstr(r->err, needle) != NULL, "%s: stderr lacks [%s]: %s", r->desc, needle, r->err);
    cr_expect_eq(count_char(r->err, r->errlen, '\n'), 1, "%s: not one line: %s", r->desc, r->err);
}

/* A folder with sub/ and link -> the folder; the test runs inside it, so
 * that F, ./F, sub/../F, link/F and the absolute path all name one file. */
static void enter_dir(char *dir, size_t size)
{
    tl_tmp_dir(dir, size, "ckptlock");
    char p[128];
    snprintf(p, sizeof p, "%s/sub", dir);
    cr_assert_eq(mkdir(p, 0777), 0);
    snprintf(p, sizeof p, "%s/link", dir);
    cr_assert_eq(symlink(dir, p), 0);
    cr_assert_eq(chdir(dir), 0);
}

static void leave_dir(const char *dir)
{
    cr_assert_eq(chdir("/"), 0);
    char p[128];
    snprintf(p, sizeof p, "%s/link", dir);
    unlink(p);
    snprintf(p, sizeof p, "%s/sub", dir);
    rmdir(p);
    tl_rm_dir(dir);
}

Test(checkpoint_lock, second_solve_refused)
{
    char dir[64];
    enter_dir(dir, sizeof dir);
    /* The empty board without the centre lemma runs until its time limit;
     * it is stopped below long before. */
    pid_t first = spawn("solve", "--no-centre", "--quiet", "--threads", "1", "--tt-mb", "16", "--time-limit", "5",
                        "--checkpoint", "F", "--checkpoint-every", "0.2");
    /* Wait for its first save: then it holds the lock and searches (and
     * stops cleanly on SIGTERM; before the search a signal just kills). */
    struct stat st;
    for (int i = 0; i < 400 && stat("F", &st) != 0; i++) sleep_ms(10);
    cr_assert_eq(stat("F", &st), 0, "the first solve saved no checkpoint within 4 s");
    long holder = lock_holder("F.lock");
    cr_assert_eq(holder, (long)first, "F.lock names pid %ld, the first solve is %ld", holder, (long)first);
    char abs[160], want[200];
    snprintf(abs, sizeof abs, "%s/F", dir);
    const char *spellings[] = {"F", "./F", "sub/../F", "link/F", abs};
    for (size_t i = 0; i < sizeof spellings / sizeof spellings[0]; i++) {
        Run r;
        run_argv(&r, ARGS("solve", "--no-centre", "--quiet", "--threads", "1", "--tt-mb", "16", "--time-limit", "1",
                          "--checkpoint", spellings[i]));
        snprintf(want, sizeof want, "checkpoint '%s' is in use by another solve (pid %ld)", spellings[i], (long)first);
        expect_one_line(&r, 2, want);
        run_free(&r);
    }
    /* The first goes on undisturbed: stopped, it saves F and exits 128+15. */
    cr_assert_eq(kill(first, SIGTERM), 0);
    int status;
    cr_assert_eq(waitpid(first, &status, 0), first);
    cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 128 + SIGTERM, "first solve: status %d", status);
    cr_expect_eq(stat("F", &st), 0, "the first solve's checkpoint is gone");
    cr_expect(stat("F.lock", &st) != 0, "the first solve left F.lock behind");
    cr_expect(stat("F.tmp", &st) != 0, "the first solve left F.tmp behind");
    /* Now free: resumed under another spelling of its own name. */
    Run r;
    expect_ok(&r, "solve", "--no-centre", "--quiet", "--threads", "1", "--tt-mb", "16", "--time-limit", "0.2",
              "--checkpoint", "./F", "--resume", "F");
    cr_expect(strstr(r.out, "all runs:") != NULL, "%s", r.out);
    run_free(&r);
    cr_expect(stat("F.lock", &st) != 0, "the resumed solve left F.lock behind");
    leave_dir(dir);
}

Test(checkpoint_lock, resume_under_other_spellings)
{
    char dir[64];
    enter_dir(dir, sizeof dir);
    Run r;
    expect_ok(&r, "solve", "--quiet", "--threads", "1", "--tt-mb", "16", "--checkpoint", "F", EASY);
    run_free(&r);
    const char *pairs[][2] = {{"./F", "F"}, {"F", "./F"}, {"link/F", "sub/../F"}, {"sub/../F", "link/F"}};
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        expect_ok(&r, "solve", "--quiet", "--threads", "1", "--tt-mb", "16", "--checkpoint", pairs[i][0], "--resume",
                  pairs[i][1], EASY);
        cr_expect(strstr(r.out, "result: order wins") != NULL, "%s", r.out);
        run_free(&r);
    }
    /* Without --resume, any spelling of an existing checkpoint is refused. */
    run_argv(&r, ARGS("solve", "--quiet", "--checkpoint", "link/F", EASY));
    expect_one_line(&r, 2, "checkpoint file 'link/F' exists");
    run_free(&r);
    /* Resuming another file still protects this one. */
    expect_ok(&r, "solve", "--quiet", "--threads", "1", "--tt-mb", "16", "--checkpoint", "G", "--resume", "F", EASY);
    run_free(&r);
    run_argv(&r, ARGS("solve", "--quiet", "--checkpoint", "F", "--resume", "G", EASY));
    expect_one_line(&r, 2, "checkpoint file 'F' exists");
    run_free(&r);
    leave_dir(dir);
}

/* The library: a checkpoint needs its lock, and one lock per file also
 * within one process (a second open of F.lock is refused). */
Test(checkpoint_lock, resumable_lock_in_library)
{
    char dir[64], path[128], err[512];
    tl_tmp_dir(dir, sizeof dir, "ckptlock");
    snprintf(path, sizeof path, "%s/F", dir);
    ResumableOpts o = {.checkpoint = path, .every = 300};
    cr_expect_eq(resumable_check(&o, err, sizeof err), -1);
    cr_expect(strstr(err, "without its lock"), "%s", err);
    FileLock a, b;
    cr_assert_eq(resumable_lock(&o, &a, err, sizeof err), 0, "%s", err);
    cr_expect_eq(resumable_check(&o, err, sizeof err), 0, "%s", err);
    ResumableOpts o2 = {.checkpoint = path, .every = 300};
    cr_expect_eq(resumable_lock(&o2, &b, err, sizeof err), -1);
    cr_expect(strstr(err, "is in use by another solve") && strstr(err, path), "%s", err);
    cr_expect(!filelock_held(&b));
    resumable_unlock(&o);
    cr_expect_eq(resumable_lock(&o2, &b, err, sizeof err), 0, "%s", err);
    resumable_unlock(&o2);
    /* No checkpoint: nothing to lock. */
    ResumableOpts none = {.every = 300};
    cr_expect_eq(resumable_lock(&none, &a, err, sizeof err), 0, "%s", err);
    cr_expect(!filelock_held(&a));
    resumable_unlock(&none);
    tl_rm_dir(dir);
}

/* Another name for the file itself: a symlink to F (G -> F, its own G.lock
 * before 2026-12-03) and a hard link to F (the same inode under another
 * name), made while a solve works on F: each is refused. The first solve
 * resumes F and saves only at its end, so F stays the inode it locked. */
Test(checkpoint_lock, links_to_the_file_refused)
{
    char dir[64];
    enter_dir(dir, sizeof dir);
    Run r;
    expect_ok(&r, "solve", "--no-centre", "--quiet", "--threads", "1", "--tt-mb", "16", "--time-limit", "0.2",
              "--checkpoint", "F");
    run_free(&r);
    pid_t first = spawn("solve", "--no-centre", "--quiet", "--threads", "1", "--tt-mb", "16", "--time-limit", "20",
                        "--checkpoint", "F", "--resume", "F", "--checkpoint-every", "1000");
    struct stat st;
    for (int i = 0; i < 1000 && lock_holder("F.lock") != (long)first; i++) sleep_ms(10);
    cr_assert_eq(lock_holder("F.lock"), (long)first, "the first solve took no lock within 10 s");
    cr_assert_eq(symlink("F", "G"), 0);
    cr_assert_eq(link("F", "H"), 0);
    const char *names[] = {"G", "H", "link/H"};
    for (size_t i = 0; i < 3; i++) {
        run_argv(&r, ARGS("solve", "--no-centre", "--quiet", "--threads", "1", "--tt-mb", "16", "--time-limit", "1",
                          "--checkpoint", names[i], "--resume", names[i]));
        char want[80];
        snprintf(want, sizeof want, "checkpoint '%s' is in use by another solve", names[i]);
        expect_one_line(&r, 2, want);
        run_free(&r);
    }
    cr_assert_eq(kill(first, SIGTERM), 0);
    int status;
    cr_assert_eq(waitpid(first, &status, 0), first);
    cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 128 + SIGTERM, "first solve: status %d", status);
    cr_expect_eq(stat("F", &st), 0);
    unlink("G");
    unlink("H");
    leave_dir(dir);
}

/* A save renames a new file onto F: the lock on the file itself follows
 * it (filelock_follow), so a hard link made after the save is refused,
 * and the old inode, still under a hard link made before, is free. */
Test(checkpoint_lock, lock_follows_the_saved_file)
{
    char dir[64], f[128], tmp[128], h[128], h2[128], err[512];
    tl_tmp_dir(dir, sizeof dir, "ckptlock");
    snprintf(f, sizeof f, "%s/F", dir);
    snprintf(tmp, sizeof tmp, "%s/F.tmp", dir);
    snprintf(h, sizeof h, "%s/H", dir);
    snprintf(h2, sizeof h2, "%s/H2", dir);
    tl_write_text(dir, "F", "one\n");
    FileLock a, b;
    cr_assert_eq(filelock_take_file(&a, f, NULL, err, sizeof err), 0, "%s", err);
    cr_assert_eq(link(f, h), 0);
    cr_expect_eq(filelock_take_file(&b, h, NULL, err, sizeof err), FILELOCK_BUSY, "H is F: %s", err);
    tl_write_text(dir, "F.tmp", "two\n");
    cr_assert_eq(rename(tmp, f), 0);
    cr_expect_eq(filelock_follow(&a), 0);
    cr_assert_eq(link(f, h2), 0);
    cr_expect_eq(filelock_take_file(&b, h2, NULL, err, sizeof err), FILELOCK_BUSY, "H2 is the new F: %s", err);
    cr_expect_eq(filelock_take_file(&b, h, NULL, err, sizeof err), 0, "H is the old F, a copy now: %s", err);
    filelock_release(&b);
    filelock_release(&a);
    unlink(h);
    unlink(h2);
    char lock[160];
    snprintf(lock, sizeof lock, "%s/H.lock", dir);
    unlink(lock);
    tl_rm_dir(dir);
}

/* Two `ocsolve jobs` runs with the same certificate folder, or the same
 * proof file under another name, do not both start. */
Test(checkpoint_lock, jobs_outputs_one_run_each)
{
    char dir[64];
    enter_dir(dir, sizeof dir);
    pid_t first = spawn("jobs", "--workers", "1", "--no-centre", "--quiet", "--job-tt-mb", "8", "--time-limit", "6",
                        "--store", "s1", "--certs", "c", "--proof", "P", "-", "Xc3");
    struct stat st;
    for (int i = 0; i < 400 && stat("c/writer.lock", &st) != 0; i++) sleep_ms(10);
    cr_assert_eq(stat("c/writer.lock", &st), 0, "the first run took no lock on its certificate folder");
    sleep_ms(200);
    cr_assert_eq(symlink("P", "Q"), 0);
    Run r;
    run_argv(&r, ARGS("jobs", "--workers", "1", "--no-centre", "--quiet", "--job-tt-mb", "8", "--time-limit", "1",
                      "--store", "s2", "--certs", "link/c", "--proof", "P2", "-", "Xc3"));
    expect_one_line(&r, 2, "certificate folder 'link/c' is in use by another run");
    run_free(&r);
    run_argv(&r, ARGS("jobs", "--workers", "1", "--no-centre", "--quiet", "--job-tt-mb", "8", "--time-limit", "1",
                      "--store", "s3", "--certs", "c3", "--proof", "Q", "-", "Xc3"));
    expect_one_line(&r, 2, "proof file 'Q' is in use by another run");
    run_free(&r);
    cr_assert_eq(kill(first, SIGTERM), 0);
    int status;
    cr_assert_eq(waitpid(first, &status, 0), first);
    cr_expect(WIFEXITED(status), "first run: status %d", status);
    cr_expect(stat("c/writer.lock", &st) != 0, "the first run left its folder's lock behind");
    cr_assert_eq(system("rm -rf s1 s2 s3 c c3 P P2 Q"), 0);
    leave_dir(dir);
}
