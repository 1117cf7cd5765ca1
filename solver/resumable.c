/* resumable.c - see resumable.h. */
#include "resumable.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../tables/checkpoint.h"
#include "clock.h"
#include "stop.h"

static void note(const ResumableOpts *o, bool error, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void note(const ResumableOpts *o, bool error, const char *fmt, ...)
{
    if (!o->note) return;
    char line[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    o->note(line, error, o->note_arg);
}

static CkptInfo resumable_info(const Dfpn *d, Board b)
{
    /* Keys depend on the dead-cell fill and on how many pieces are reduced
     * by symmetry (knowledge.h: kn_key). */
    uint32_t scheme = (d->cfg.kn.dead_cells ? 1u : 0u) | (uint32_t)d->cfg.kn.sym_pieces << 8;
    return (CkptInfo){(uint32_t)d->r->rules, (uint32_t)d->r->n, (uint32_t)d->r->k, scheme, b, 0, 0};
}

/* Whether a and b name one file: the same inode when both exist (any
 * spelling: "./F" and "F", a symlink), else the same string. */
static bool same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    if (stat(a, &sa) == 0 && stat(b, &sb) == 0) return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    return strcmp(a, b) == 0;
}

int resumable_lock(ResumableOpts *o, FileLock *l, char *err, int errlen)
{
    filelock_init(l);
    o->lock = l;
    if (o->checkpoint) {
        char why[FILELOCK_PATH_MAX + 100];
        long pid;
        /* the file under every name it has (filelock.h): a symlink or a
         * hard link to a running solve's checkpoint is refused too */
        int rc = filelock_take_file(l, o->checkpoint, &pid, why, sizeof why);
        if (rc == FILELOCK_BUSY && pid)
            snprintf(err, (size_t)errlen, "checkpoint '%s' is in use by another solve (pid %ld)", o->checkpoint, pid);
        else if (rc == FILELOCK_BUSY)
            snprintf(err, (size_t)errlen, "checkpoint '%s' is in use by another solve", o->checkpoint);
        else if (rc != 0)
            snprintf(err, (size_t)errlen, "checkpoint '%s': %s", o->checkpoint, why);
        if (rc != 0) return -1;
    }
    if (resumable_check(o, err, errlen) != 0) {
        resumable_unlock(o);
        return -1;
    }
    return 0;
}

void resumable_unlock(ResumableOpts *o)
{
    if (o->lock) filelock_release(o->lock);
}

int resumable_check(const ResumableOpts *o, char *err, int errlen)
{
    if (o->checkpoint && !(o->lock && filelock_held(o->lock))) {
        snprintf(err, (size_t)errlen, "checkpoint '%s' without its lock (resumable_lock)", o->checkpoint);
        return -1;
    }
    if (o->checkpoint && (!o->resume || !same_file(o->resume, o->checkpoint)) && access(o->checkpoint, F_OK) == 0) {
        snprintf(err, (size_t)errlen, "checkpoint file '%s' exists: continue it with --resume %s, or remove it",
                 o->checkpoint, o->checkpoint);
        return -1;
    }
    if (o->resume && access(o->resume, R_OK) != 0) {
        snprintf(err, (size_t)errlen, "cannot read checkpoint '%s': %s", o->resume, strerror(errno));
        return -1;
    }
    return 0;
}

int resumable_prepare(Dfpn *d, Board b, const ResumableOpts *o, ResumableResult *res, char *err, int errlen)
{
    memset(res, 0, sizeof *res);
    if (resumable_check(o, err, errlen) != 0) return -1;
    if (o->resume) {
        CkptInfo want = resumable_info(d, b), got;
        uint64_t loaded;
        if (ckpt_load(o->resume, d->tt, &want, &got, &loaded, err, errlen) != 0) return -1;
        res->prev_nodes = d->root.prev_nodes = got.nodes;
        res->prev_seconds = d->root.prev_seconds = got.seconds;
        note(o, false, "resumed from %s: %llu table entries; earlier runs searched %llu nodes in %.1f s", o->resume,
             (unsigned long long)loaded, (unsigned long long)got.nodes, got.seconds);
    }
    d->lim.interrupt = stop_flag();
    return 0;
}


static void resumable_save(Dfpn *d, Board b, const ResumableOpts *o, ResumableResult *res, double t0)
{
    CkptInfo info = resumable_info(d, b);
    info.nodes = res->prev_nodes + d->nodes;
    info.seconds = res->prev_seconds + (clock_seconds() - t0);
    uint64_t saved;
    double s0 = clock_seconds();
    res->save_failed = ckpt_save(o->checkpoint, d->tt, &info, &saved, res->save_error, sizeof res->save_error) != 0;
    if (res->save_failed) {
        note(o, true, "%s", res->save_error); /* the search goes on; the old checkpoint stays */
        return;
    }
    res->save_error[0] = '\0';
    res->checkpoints++;
    /* the rename made a new file: the lock on the file itself follows it
     * (the old inode, if a hard link keeps it, is a copy from now on) */
    if (o->lock) filelock_follow(o->lock);
    note(o, false, "checkpoint %s: %llu entries in %.1f s", o->checkpoint, (unsigned long long)saved, clock_seconds() - s0);
}

Winner resumable_run(Dfpn *d, Board b, const ResumableOpts *o, uint32_t *pn, uint32_t *dn, ResumableResult *res)
{
    double t0 = clock_seconds();
    const double deadline = d->lim.deadline; /* the whole run's */
    Winner v;
    for (;;) {
        double seg = deadline;
        if (o->checkpoint) {
            double next = clock_seconds() + o->every;
            if (seg <= 0 || next < seg) seg = next;
        }
        d->lim.deadline = seg;
        d->lim.segment = true, d->lim.run_deadline = deadline;
        v = dfpn_solve(d, b, pn, dn);
        bool over = v != WINNER_NONE || stop_signal() != 0 || (deadline > 0 && clock_seconds() >= deadline) ||
                    (d->lim.node_limit && d->nodes >= d->lim.node_limit) || !d->stopped;
        if (o->checkpoint) resumable_save(d, b, o, res, t0);
        if (over) break;
    }
    d->lim.deadline = deadline;
    d->lim.segment = false;
    res->signo = stop_signal();
    return v;
}
