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
    l->target_fd = -1;
    l->target[0] = '\0';
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
    if (l->target_fd >= 0) close(l->target_fd);
    if (l->fd >= 0) {
        /* Remove while still holding: a taker that opened the old file
         * checks it is still linked and starts again on a new one
         * (filelock.h). */
        unlink(l->path);
        close(l->fd);
    }
    filelock_init(l);
}

/* path with every symlink followed, in its folders and its last name,
 * whether or not the last name exists: realpath of the folder, then the
 * last name, repeated while the last name is a symlink (at most 40, as
 * the kernel's own limit). 0, or -1 with a message. */
static int canonical_path(const char *path, char *out, size_t len, char *err, int errlen)
{
    char cur[FILELOCK_PATH_MAX];
    snprintf(cur, sizeof cur, "%s", path);
    for (int hop = 0; hop < 40; hop++) {
        char dir[FILELOCK_PATH_MAX], *slash = strrchr(cur, '/');
        const char *base = slash ? slash + 1 : cur;
        if (slash == cur) snprintf(dir, sizeof dir, "/");
        else if (slash) snprintf(dir, sizeof dir, "%.*s", (int)(slash - cur), cur);
        else snprintf(dir, sizeof dir, ".");
        char *real = realpath(dir, NULL);
        if (!real || !*base) {
            free(real);
            errmsg_set(err, errlen, "'%s': cannot resolve its folder: %s", path, !*base ? "no file name" : strerror(errno));
            return -1;
        }
        char joined[2 * FILELOCK_PATH_MAX + 2], link[FILELOCK_PATH_MAX];
        snprintf(joined, sizeof joined, "%s/%s", strcmp(real, "/") ? real : "", base);
        free(real);
        ssize_t n = readlink(joined, link, sizeof link - 1);
        if (n < 0) { /* not a symlink (or missing): this is the file */
            size_t jl = strlen(joined);
            if (jl >= len) {
                errmsg_set(err, errlen, "'%s': path too long", path);
                return -1;
            }
            memcpy(out, joined, jl + 1);
            return 0;
        }
        link[n] = '\0';
        char *jslash = strrchr(joined, '/');
        size_t dl = link[0] == '/' ? 0 : (size_t)(jslash - joined);
        if (dl + 1 + (size_t)n >= sizeof cur) {
            errmsg_set(err, errlen, "'%s': path too long", path);
            return -1;
        }
        memcpy(cur, joined, dl);
        if (dl) cur[dl++] = '/';
        memcpy(cur + dl, link, (size_t)n + 1);
    }
    errmsg_set(err, errlen, "'%s': too many symlinks", path);
    return -1;
}

/* The flock on the file at path itself, if it is a regular file (a FIFO
 * is opened without blocking and left alone). 0 held or nothing to lock,
 * FILELOCK_BUSY, -1 on another failure. */
static int lock_target(FileLock *l, const char *path, char *err, int errlen)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    struct stat st;
    if (fd < 0) return 0; /* no file yet: the name lock is all there is */
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return 0;
    }
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        int e = errno;
        close(fd);
        if (e == EWOULDBLOCK) {
            errmsg_set(err, errlen, "'%s' is locked by another process (the same file under another name)", path);
            return FILELOCK_BUSY;
        }
        errmsg_set(err, errlen, "cannot lock '%s': %s", path, strerror(e));
        return -1;
    }
    if (l->target_fd >= 0) close(l->target_fd);
    l->target_fd = fd;
    return 0;
}

int filelock_take_file(FileLock *l, const char *file, long *holder, char *err, int errlen)
{
    filelock_init(l);
    if (holder) *holder = 0;
    char canon[FILELOCK_PATH_MAX - 8], lock[FILELOCK_PATH_MAX];
    if (canonical_path(file, canon, sizeof canon, err, errlen) != 0) return -1;
    snprintf(lock, sizeof lock, "%s.lock", canon);
    int rc = filelock_take(l, lock, holder, err, errlen);
    if (rc != 0) return rc;
    snprintf(l->target, sizeof l->target, "%s", canon);
    rc = lock_target(l, canon, err, errlen);
    if (rc != 0) filelock_release(l);
    return rc;
}

int filelock_follow(FileLock *l)
{
    if (l->fd < 0 || !l->target[0]) return -1;
    char err[64];
    int old = l->target_fd;
    l->target_fd = -1;
    int rc = lock_target(l, l->target, err, sizeof err);
    if (old >= 0) close(old);
    return rc == 0 && l->target_fd >= 0 ? 0 : -1;
}
