/* filelock.h - one writer per file: an exclusive lock on a lock file,
 * held for as long as a process writes what the lock guards (a checkpoint,
 * a store).
 *
 * Why flock(2) on an open descriptor, not a lock file that merely exists
 * (O_EXCL) nor fcntl(F_SETLK): the kernel drops a flock lock when the last
 * descriptor of its open file goes, so a holder killed with SIGKILL (or
 * crashing) frees the lock with nothing stale to clean up; and fcntl locks
 * belong to the process, so a second open of the same file in the same
 * process would share, and its close would silently drop, the lock (two
 * writers in one process must be refused too). The lock is taken with
 * LOCK_NB: a second writer is refused at once, it never waits.
 *
 * Identity: the lock is on the lock file's inode, so every spelling of its
 * path ("./F.lock", "dir/../F.lock", a symlink to its folder) reaches the
 * same lock. The holder writes its pid into the file (a decimal number and
 * a newline), so that the refusal can name it; the pid is for people, the
 * lock alone decides.
 *
 * Lifetime of the file: the holder removes it on release, while it still
 * holds the lock, so that a normal run leaves no litter. Removing a lock
 * file is safe only because a taker checks, after it got the lock, that
 * the path still names the inode it locked (else the holder removed it in
 * between and the taker tries again on the new file). A holder killed
 * leaves the file behind, unlocked: the next taker simply takes it.
 *
 * Rules for callers: a fork()ed child inherits the descriptor and with it
 * the lock, which is then freed only when both have closed it (do not
 * fork while holding one and expect the release to free it; the
 * descriptor is close-on-exec, so a child that execs lets go at once);
 * the process must not change its working directory while holding a lock
 * taken by a relative path (the release removes the file by that path).
 *
 * Nothing here prints or exits: failures come back as a return value and a
 * one-line message.
 */
#ifndef OCS_FILELOCK_H
#define OCS_FILELOCK_H

#include <stdbool.h>
#include <stddef.h>

enum { FILELOCK_PATH_MAX = 4096 };
enum { FILELOCK_BUSY = 1 }; /* filelock_take: another open file holds the lock */

typedef struct {
    int fd; /* -1: not held */
    char path[FILELOCK_PATH_MAX];
    int target_fd; /* filelock_take_file: the file itself, flocked; -1 none */
    char target[FILELOCK_PATH_MAX];
} FileLock;

/* A lock not held (what filelock_release leaves, too). */
void filelock_init(FileLock *l);

/* Takes the exclusive lock on the file at path, creating it when missing
 * (mode 0666 less the umask), without waiting. Returns 0 held;
 * FILELOCK_BUSY when another open of the file holds it (*holder, if not
 * NULL, gets the pid the holder wrote, 0 when unknown; err says "'path' is
 * locked by pid N"); -1 on another failure (the file cannot be made or
 * locked; message in err). l must not be held already. */
int filelock_take(FileLock *l, const char *path, long *holder, char *err, int errlen);

bool filelock_held(const FileLock *l);

/* One writer per FILE (a checkpoint, a proof), under every name FILE has.
 * A lock file beside FILE by name alone is sidestepped by another name:
 * a symlink G -> d/F makes G.lock, a hard link G to d/F is the same file
 * under a name with no symlink to follow. So two locks are taken:
 *   - the lock file of FILE's canonical path: every symlink followed, in
 *     the folders and in FILE's own name (so a symlink to a FILE that does
 *     not exist yet also reaches it), then ".lock" (filelock_take);
 *   - when FILE exists and is a regular file, an flock on FILE itself (on
 *     its inode: every hard link reaches it).
 * A writer that replaces FILE by a rename (a checkpoint saved through
 * FILE.tmp) moves the second lock to the new inode with filelock_follow.
 * Returns 0 held; FILELOCK_BUSY when another open file holds either
 * (*holder: the pid in the lock file, 0 when unknown: a hard link says no
 * pid); -1 on another failure (FILE's folder cannot be resolved, the lock
 * cannot be made). */
int filelock_take_file(FileLock *l, const char *file, long *holder, char *err, int errlen);

/* After FILE was replaced: the flock on FILE itself moves to the file now
 * at that path (the old inode is no longer FILE). 0, or -1 when the new
 * file cannot be locked (it then stays unlocked; the name lock holds). */
int filelock_follow(FileLock *l);

/* Removes the lock file and drops the lock (and the flock on the file
 * itself); harmless on a lock not held. */
void filelock_release(FileLock *l);

#endif
