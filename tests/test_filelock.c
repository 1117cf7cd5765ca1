/* test_filelock.c - the one-writer lock (tables/filelock.h): a lock held by
 * one process refuses another (which learns the holder's pid) and is free
 * after the release; a holder killed with SIGKILL frees it; every spelling
 * of the path (./, dir/../, a symlink to the folder) reaches one lock, also
 * within one process; the release removes the file, a killed holder's
 * leftover file is taken over. */
#include <criterion/criterion.h>

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../tables/filelock.h"
#include "testlib.h"

TestSuite(filelock, .timeout = 30);

/* In a forked child: tries path and exits 0 when the result is the one
 * wanted (FILELOCK_BUSY with holder want_pid, or 0), else 1 + what it got. */
static int child_try(const char *path, int want, long want_pid)
{
    FileLock l;
    long holder = -1;
    char err[256];
    int rc = filelock_take(&l, path, &holder, err, sizeof err);
    if (rc == 0) filelock_release(&l);
    if (rc != want) return 1 + (rc < 0 ? 9 : rc);
    if (want == FILELOCK_BUSY && (holder != want_pid || !strstr(err, "locked by pid"))) return 5;
    return 0;
}

static int wait_code(pid_t pid)
{
    int status;
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    cr_assert(WIFEXITED(status), "child status %d", status);
    return WEXITSTATUS(status);
}

static void lock_path(char *path, size_t size, const char *dir) { snprintf(path, size, "%s/F.lock", dir); }

Test(filelock, other_process_refused_then_free)
{
    char dir[64], path[128], err[256];
    tl_tmp_dir(dir, sizeof dir, "lock");
    lock_path(path, sizeof path, dir);
    FileLock l;
    cr_assert_eq(filelock_take(&l, path, NULL, err, sizeof err), 0, "%s", err);
    cr_assert(filelock_held(&l));
    pid_t kid = fork();
    cr_assert(kid >= 0);
    if (kid == 0) _exit(child_try(path, FILELOCK_BUSY, (long)getppid()));
    cr_expect_eq(wait_code(kid), 0, "the child was not refused with the parent's pid");
    filelock_release(&l);
    cr_expect(!filelock_held(&l));
    struct stat st;
    cr_expect(stat(path, &st) != 0, "the release left the lock file");
    kid = fork();
    cr_assert(kid >= 0);
    if (kid == 0) _exit(child_try(path, 0, 0));
    cr_expect_eq(wait_code(kid), 0, "the child could not take the released lock");
    tl_rm_dir(dir);
}

Test(filelock, killed_holder_frees_it)
{
    char dir[64], path[128], err[256];
    tl_tmp_dir(dir, sizeof dir, "lock");
    lock_path(path, sizeof path, dir);
    int ready[2];
    cr_assert_eq(pipe(ready), 0);
    pid_t kid = fork();
    cr_assert(kid >= 0);
    if (kid == 0) {
        FileLock l;
        if (filelock_take(&l, path, NULL, NULL, 0) != 0) _exit(1);
        if (write(ready[1], "r", 1) != 1) _exit(2);
        for (;;) pause();
    }
    char c;
    cr_assert_eq(read(ready[0], &c, 1), 1, "the child did not take the lock");
    FileLock l;
    long holder = 0;
    cr_expect_eq(filelock_take(&l, path, &holder, err, sizeof err), FILELOCK_BUSY);
    cr_expect_eq(holder, (long)kid, "holder %ld, child %ld", holder, (long)kid);
    cr_assert_eq(kill(kid, SIGKILL), 0);
    int status;
    cr_assert_eq(waitpid(kid, &status, 0), kid);
    cr_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
    /* The killed holder left its file; the lock went with it. */
    struct stat st;
    cr_expect_eq(stat(path, &st), 0, "the killed holder's file is gone (was it released?)");
    cr_expect_eq(filelock_take(&l, path, &holder, err, sizeof err), 0, "%s", err);
    /* The file now names us. */
    FILE *f = fopen(path, "r");
    long pid = 0;
    cr_assert(f);
    cr_expect_eq(fscanf(f, "%ld", &pid), 1);
    fclose(f);
    cr_expect_eq(pid, (long)getpid());
    filelock_release(&l);
    close(ready[0]);
    close(ready[1]);
    tl_rm_dir(dir);
}

/* Other spellings of one path, and a second take in the same process. */
Test(filelock, spellings_reach_one_lock)
{
    char dir[64], path[128], err[256];
    tl_tmp_dir(dir, sizeof dir, "lock");
    lock_path(path, sizeof path, dir);
    char sub[128], link[128];
    snprintf(sub, sizeof sub, "%s/sub", dir);
    snprintf(link, sizeof link, "%s/link", dir);
    cr_assert_eq(mkdir(sub, 0777), 0);
    cr_assert_eq(symlink(dir, link), 0);
    FileLock l;
    cr_assert_eq(filelock_take(&l, path, NULL, err, sizeof err), 0, "%s", err);
    char other[4][160];
    snprintf(other[0], sizeof other[0], "%s/./F.lock", dir);
    snprintf(other[1], sizeof other[1], "%s/sub/../F.lock", dir);
    snprintf(other[2], sizeof other[2], "%s/link/F.lock", dir);
    snprintf(other[3], sizeof other[3], "%s", path);
    for (int i = 0; i < 4; i++) {
        FileLock m;
        long holder = 0;
        cr_expect_eq(filelock_take(&m, other[i], &holder, err, sizeof err), FILELOCK_BUSY, "%s was not refused",
                     other[i]);
        cr_expect_eq(holder, (long)getpid());
        cr_expect(strstr(err, other[i]) != NULL, "message does not name the path: %s", err);
    }
    /* A relative spelling, from inside the folder. */
    char cwd[512];
    cr_assert(getcwd(cwd, sizeof cwd));
    cr_assert_eq(chdir(sub), 0);
    FileLock m;
    cr_expect_eq(filelock_take(&m, "../F.lock", NULL, err, sizeof err), FILELOCK_BUSY);
    cr_assert_eq(chdir(cwd), 0);
    filelock_release(&l);
    unlink(link);
    rmdir(sub);
    tl_rm_dir(dir);
}

Test(filelock, unwritable_place_fails_with_message)
{
    FileLock l;
    char err[256] = "";
    cr_expect_eq(filelock_take(&l, "/nonexistent-ocsolve-dir/F.lock", NULL, err, sizeof err), -1);
    cr_expect(strstr(err, "/nonexistent-ocsolve-dir/F.lock") && strstr(err, "No such file"), "%s", err);
    cr_expect(!filelock_held(&l));
    filelock_release(&l); /* harmless */
}
