/* resumable.h - a long solve made resumable (not the job-level search of
 * jobs/, which splits a position into jobs): df-pn run in segments between
 * checkpoints, resumable, stopped cleanly by a stop request (stop.h: the
 * command layer turns SIGINT/SIGTERM into one).
 *
 * The search runs until the next checkpoint time, stops (every thread
 * unwinds and stores its numbers, so the table is whole and still), the
 * table is saved (tables/checkpoint.h), and the search goes on from the
 * root: nothing is lost but the frames' cached numbers, which the table
 * mostly holds. On a stop request the search stops the same way, the
 * checkpoint is saved, and the job ends, naming the signal (the command
 * exits with 128 + signal). The library installs no handler.
 *
 * The whole run's limits are the searcher's own (d->lim: the deadline and
 * node limit count the whole run); a job only cuts the run into segments.
 * It prints nothing: what a person may want to read (resumed, checkpoint
 * saved, a save that failed) goes to the note callback, one line each.
 *
 * One writer per checkpoint: two jobs saving to the same FILE would share
 * FILE.tmp, and one could rename the other's half-written table over FILE
 * and still end well. So a job with a checkpoint must hold its lock
 * (resumable_lock: an exclusive flock on FILE.lock, tables/filelock.h) from
 * before the "FILE exists" check to its last save; resumable_check refuses a
 * checkpoint whose lock is not held. Why a separate FILE.lock and not a
 * lock on FILE itself: every save renames a new FILE.tmp over FILE, so
 * FILE is a new inode after each save (a lock on it would guard a file
 * no longer there), and FILE does not exist before the first save. The
 * lock is on FILE.lock's inode, so every spelling of FILE's folder
 * ("./F", "../dir/F", a symlink to the folder) reaches the same lock; a
 * symlink to FILE itself is another name, and rightly another lock: a
 * save renames over the name it was given, replacing the link, never
 * writing through it. The kernel drops the lock when the process dies,
 * kill -9 included.
 */
#ifndef OCS_RESUMABLE_H
#define OCS_RESUMABLE_H

#include <stdbool.h>

#include "../tables/filelock.h"
#include "dfpn.h"

/* error: the line reports a failure (a checkpoint not saved), which a
 * person must see even when progress is off. */
typedef void (*ResumableNote)(const char *line, bool error, void *arg);

typedef struct {
    const char *checkpoint; /* save here; NULL: no checkpoints */
    double every;           /* seconds between checkpoints */
    const char *resume;     /* load this first; NULL: start afresh */
    ResumableNote note;           /* one line at a time for people; NULL: none */
    void *note_arg;
    FileLock *lock;         /* the checkpoint's lock, set by resumable_lock */
} ResumableOpts;

typedef struct {
    int signo;              /* the signal that stopped the job; 0: none */
    bool save_failed;       /* the last checkpoint could not be written */
    uint64_t prev_nodes;    /* earlier runs' totals, from the resumed file */
    double prev_seconds;
    int checkpoints;        /* saved by this run */
    char save_error[320];   /* why the last save failed ("" when it did not) */
} ResumableResult;

/* Takes the checkpoint's lock into *l (o->lock = l) for the job's whole
 * life, then makes resumable_check's checks under it (so that two jobs starting
 * at once cannot both find FILE missing). Returns 0 (also with no
 * checkpoint: then no lock, just resumable_check), or -1 with a one-line message
 * in err and nothing held: another process (or another resumable_lock in this
 * one) holds the lock ("checkpoint 'FILE' is in use by another solve (pid
 * N)"), the lock file cannot be made, or resumable_check refused. The caller
 * releases with resumable_unlock after the job's last save (ocsolve solve: when
 * solve_run has returned). */
int resumable_lock(ResumableOpts *o, FileLock *l, char *err, int errlen);
/* Releases (and removes) the lock resumable_lock took; harmless without one. */
void resumable_unlock(ResumableOpts *o);

/* Returns -1 with a message in err when a checkpoint is asked for without
 * its lock held (resumable_lock), when the checkpoint file exists but is not
 * being resumed (it would be lost; the resume file is the same file when
 * both names reach the same inode, e.g. "./F" and "F") or the resume file
 * is unreadable: cheap checks, made before a large table is allocated; 0
 * otherwise. */
int resumable_check(const ResumableOpts *o, char *err, int errlen);
/* resumable_check, then loads the resume file (a refused file: -1 and why in
 * err), and makes d stop on a stop request (stop.h). */
int resumable_prepare(Dfpn *d, Board b, const ResumableOpts *o, ResumableResult *res, char *err, int errlen);
/* Runs df-pn from b to the end (decided, d->lim hit, or a signal), saving
 * checkpoints on the way and at the end. */
Winner resumable_run(Dfpn *d, Board b, const ResumableOpts *o, uint32_t *pn, uint32_t *dn, ResumableResult *res);

#endif
