/* journal.h - the job journal: what a job-level run learnt about the
 * positions it could NOT decide, kept so that a restarted run does not
 * run those jobs again.
 *
 * Why: the store (store.h) keeps facts only, the decided positions. In a
 * job-level run most jobs end undecided (their budget runs out), and the
 * top tree then gives the leaf a bigger budget or expands it. Without a
 * record of those outcomes a restart after a kill reran every one of them
 * from the first budget up, including the longest jobs of the run (a
 * leaf is expanded only after a job of the largest budget stayed
 * undecided). With the journal a restart redoes only the jobs that were
 * in flight.
 *
 * What a record says: "a job of BUDGET nodes on this position (canonical
 * form) ended undecided with root numbers PN/DN". That is an estimate,
 * not a fact: the top tree uses it only to choose the next leaf and the
 * next budget, as it uses a job's numbers in a run without restarts, and
 * never to decide anything (top_tree.h). A wrong or stale record can
 * therefore cost time but never change a result. A later record of a
 * position replaces an earlier one (its job ran with a bigger budget).
 *
 * On disk: a file (job-level runs keep it in the store's folder, as
 * STORE_DIR/journal), little-endian, a 16-byte header and then 40-byte
 * records, appended one at a time:
 *
 *   header  byte 0            8       9     10    11      16
 *                | "OCSJRNL1"  | rules | n   | k   | 0 ... |
 *   record  byte 0         8         16        24     28     32          40
 *                | X (LE)   | O (LE)  | budget  | pn   | dn   | check     |
 *
 *   X, O     the position's canonical form (symmetry.h), board.h's layout;
 *   pn, dn   never 0 (a decided position goes to the store) nor
 *            UINT32_MAX (the searches' infinity);
 *   check    XXH64 of the record's first 32 bytes (seed JOURNAL_SEED).
 *
 * Reading (journal_open): an empty file (a kill between creating the
 * journal and writing its header) is a new journal; otherwise the header
 * must be a journal's, of this
 * version and of the game expected, else the file is refused with one
 * line. A record that fails its check or its rules (a board outside
 * n x n, X and O overlapping, not canonical, a decided number) is
 * corruption, and the file is refused, unless it is the last one: a
 * process killed while appending leaves a torn last record, which is
 * dropped (the file is cut back to the records before it, and
 * JournalStats.torn counts it, for the caller to say so).
 *
 * Durability: each put is written and flushed to the kernel before it
 * returns, so it survives the process being killed (kill -9); it is not
 * synced to the disk, so a power loss may lose the last records. Losing
 * records costs only the time to run those jobs again.
 *
 * One writer: the journal has no lock of its own. It is opened only by
 * the process that holds the store's writer lock (store.h, One writer)
 * for the same folder, which makes it the one writer.
 *
 * Why in tables/ although only job-level runs (jobs/) write it: it is a
 * file format, as the store and the checkpoint are (checked bytes from a
 * file that may be hostile, one writer, a folder shared with the store
 * and its writer lock), and it knows no algorithm: it keeps numbers that
 * only the top tree gives a meaning to. `ocsolve store` reads it too
 * (app/cmd_store.c) without anything of the job-level search.
 */
#ifndef OCS_JOURNAL_H
#define OCS_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../engine/board.h"
#include "store.h"

enum { JOURNAL_HEADER = 16, JOURNAL_RECORD = 40 };
#define JOURNAL_MAGIC "OCSJRNL1"
#define JOURNAL_SEED 0x4F43534A524E4C31ULL

typedef struct {
    uint64_t budget; /* the job's node budget */
    uint32_t pn, dn; /* its root numbers when the budget ran out */
} JournalEntry;

typedef struct {
    uint64_t records;   /* records read or appended */
    uint64_t positions; /* distinct positions among them */
    uint64_t torn;      /* torn last records dropped at open (0 or 1) */
} JournalStats;

typedef struct Journal Journal;

/* The journal's path beside a store: STORE_DIR/journal. */
void journal_path(const char *store_dir, char *out, size_t len);
/* The journal of bounded jobs (`ocsolve jobs --within`, jobs/within.h)
 * whose horizon is a board of `pieces` pieces: STORE_DIR/journal-within-
 * PIECES. Their numbers are another question's than the value jobs',
 * and every position has its question fixed by its pieces and the
 * horizon, so each horizon keeps a journal of its own (the same format). */
void journal_path_within(const char *store_dir, int pieces, char *out, size_t len);

/* Opens (creating it when missing) the journal at path for the game g,
 * reads it whole; NULL with one line in err when it cannot be. */
Journal *journal_open(const char *path, const StoreGame *g, char *err, int errlen);

/* The same for reading only (ocsolve store stats, while a writer may be
 * appending): never creates, writes or cuts the file (a torn last record
 * is only counted); an empty file reads as no records; NULL with one line
 * in err when missing (errno ENOENT) or refused. journal_put on it fails. */
Journal *journal_open_readonly(const char *path, const StoreGame *g, char *err, int errlen);

/* Appends what a job on b (any of its 16 images) ended with; 0, or -1
 * with one line in err (the write failed, or e has a decided number). */
int journal_put(Journal *j, Board b, const JournalEntry *e, char *err, int errlen);

/* The latest record of b (any image): true and *out, or false. */
bool journal_get(const Journal *j, Board b, JournalEntry *out);

void journal_stats(const Journal *j, JournalStats *out);

void journal_close(Journal *j);

#endif
