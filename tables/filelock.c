/* filelock.c - see filelock.h. */
#include "filelock.h"
#include "errmsg.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

void filelock_init(FileLock *l)
{
    l->fd = -1;
    l->path[0] = '\0';
}

bool filelock_held(const FileLock *l) { return l->fd >= 0; }

/* The pid a holder wrote into fd's file; 0 if none can be read (it may
 * have locked the file and not yet written it). */
static long holder_pid(int fd)
{
    char buf[32];
    ssize_t got = pread(fd, buf, sizeof buf - 1, 0);
    if (got <= 0) return 0;
    buf[got] = '\0';
    char *end;
    long pid = strtol(buf, &end, 10);
    return pid > 0 && *end == '\n' ? pid : 0;
}

/* Whether path still names the inode open on fd: the holder before us may
 * have removed the file after we opened it and before we locked it. */
static bool still_linked(int fd, const char *path)
{
    struct stat a, b;
    return fstat(fd, &a) == 0 && stat(path, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

/* Records our pid in the held file (for the refusal message of others). */
static void write_pid(int fd)
{
    char buf[32];
    int len = snprintf(buf, sizeof buf, "%ld\n", (long)getpid());
    /* Best effort: the lock, not the pid, keeps others out; a torn write
     * is emptied so that it is never read as another pid. */
    if (ftruncate(fd, 0) != 0) return;
    if (pwrite(fd, buf, (size_t)len, 0) != len && ftruncate(fd, 0) != 0) return;
}

int filelock_take(FileLock *l, const char *path, long *holder, char *err, int errlen)
{
    filelock_init(l);
    if (holder) *holder = 0;
    if (strlen(path) >= sizeof l->path) {
        errmsg_set(err, errlen, "lock file '%s': path too long", path);
        return -1;
    }
    /* A few rounds: each lost one means a holder released (and removed)
     * the file between our open and our lock; more than a few in a row
     * would take writers starting and ending in a tight loop. */
    for (int round = 0; round < 16; round++) {
        int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
        if (fd < 0) {
            errmsg_set(err, errlen, "cannot create lock file '%s': %s", path, strerror(errno));
            return -1;
        }
        if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
            int e = errno;
            if (e == EWOULDBLOCK) {
                long pid = holder_pid(fd);
                close(fd);
                if (holder) *holder = pid;
                if (pid) errmsg_set(err, errlen, "'%s' is locked by pid %ld", path, pid);
                else errmsg_set(err, errlen, "'%s' is locked by another process", path);
                return FILELOCK_BUSY;
            }
            close(fd);
            errmsg_set(err, errlen, "cannot lock '%s': %s", path, strerror(e));
            return -1;
        }
        if (!still_linked(fd, path)) {
            close(fd);
            continue;
        }
        write_pid(fd);
        l->fd = fd;
        snprintf(l->path, sizeof l->path, "%s", path);
        return 0;
    }
    errmsg_set(err, errlen, "cannot lock '%s': it was removed and re-created 16 times in a row", path);
    return -1;
}

void filelock_release(FileLock *l)
{
    if (l->fd < 0) return;
    /* Remove while still holding: a taker that opened the old file checks
     * it is still linked and starts again on a new one (filelock.h). */
    unlink(l->path);
    close(l->fd);
    filelock_init(l);
}
