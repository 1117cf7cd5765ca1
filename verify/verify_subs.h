/* verify_subs.h - internal to verify/: the sub-certificate set of one
 * verification (the files see lines name, each checked once): its
 * entries, the hash index that finds an entry and the queue the threaded
 * pre-pass takes entries from (vsub_*, verify_subs.c). The checks that
 * fill it are verify.c's (a nested check, sub_proved) and verify_par.c's
 * (the pre-pass, settle): this module only keeps the set, and calls
 * neither.
 *
 * Invariants:
 *   - entries are only added, never removed or reordered, so an entry's
 *     number (its index in s) names it for the whole verification; s may
 *     move when it grows (vsub_add's realloc), so a Sub pointer is good
 *     only until the next vsub_add, a number always;
 *   - the index `idx` maps what vsub_find compares (the key, the game,
 *     the winner, horizon_ok and the root: sub_hash) to the number of the
 *     one entry that has it: every entry with a key stands in it exactly
 *     once, in the first free slot from its hash on (open addressing,
 *     linear probing, SIZE_MAX free, no deletions so no tombstones);
 *     idx_cap is 0 or a power of two at least twice the entries, so a
 *     probe always ends at a free slot, and soon;
 *   - the queue is a binary min-heap of entry numbers in vsub_before's
 *     order (the parent before its children): small files first, the
 *     smallest first, since a small file is a top-tree node whose reading
 *     queues the files beneath it and so gives the other threads work;
 *     then the largest first, so that the longest checks start first and
 *     the threads end together; ties by entry number, so the order is
 *     total and the same on every run. An entry is pushed when added
 *     S_QUEUED; vsub_take passes over one whose state changed since;
 *   - an entry is S_PROVED only when its own check held and every entry
 *     its proof reached by see lines is S_PROVED at a lower height, each
 *     with the horizon its see line needs (a win, or at least the plies
 *     left there in a horizon certificate: verify.h; settle in
 *     verify_par.c), so proofs never rest on a cycle of files;
 *   - the set takes no lock: with threads, every field of it is read and
 *     written under the pre-pass's mutex (verify_nest.h, Prepass).
 */
#ifndef OCS_VERIFY_SUBS_H
#define OCS_VERIFY_SUBS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../engine/notation.h"
#include "verify_rules.h"

/* Sub-certificates, the files see lines name, in one verification (one
 * verify_file* call): what was proved, and with threads what the pre-pass
 * queued and checked. A file named by several see lines (a position
 * reached by transposition, or one job's certificate shared by many
 * parents) is checked once. An entry is what prove_see asks of a file:
 * its key (vsub_key), the game, the winner, whether a horizon will do (a
 * horizon certificate's see line) and the root's canonical form; the
 * horizon a file proved is kept, and each see line checks it is enough
 * for the plies left where it stands. */
enum {
    S_QUEUED,  /* pre-pass: waiting for a thread */
    S_RUNNING, /* pre-pass: being checked */
    S_CHECKED, /* pre-pass: its own check held; proved when its see lines' files are (settle) */
    S_FAILED,  /* pre-pass: its own check failed, or was stopped */
    S_PROVED   /* proved, `height` see levels deep: the sequential pass adds only these */
};

/* The longest game (VerifyResult.longest) is found through the fewest
 * empty cells left where a game the proof follows ends: every path from
 * a root to a position has the same length (one piece a ply), so the
 * longest game from the root is the root's empty cells minus that fewest,
 * and a file's fewest is the least of its own games' ends and those of the
 * files its see lines reach: one number per file, whatever reaches it.
 * Order certificates only; a position won by a lemma, or secured under
 * exact-end, counts as a game that ends on the full board (0 left), which
 * is all the verifier knows of it. */
enum { VSUB_REST_NONE = 1 << 20 };

/* A see line's file that a pre-pass entry's proof rests on, and the
 * least horizon it must have there (the plies left at the see line, when
 * the entry accepts horizons: Sub.horizon_ok; else -1). */
typedef struct {
    size_t i;
    int need;
} SubDep;

typedef struct {
    char *key;                      /* vsub_key(); NULL for the top file, which no see line names */
    char *path;                     /* pre-pass: the path the first see line gave (opened; resolves its see lines) */
    int n, k, rules, winner;
    bool horizon_ok;                /* named by a see line of a horizon certificate: a file with a horizon
                                       may prove it (verify.h, Horizon certificates; VerifyExpect) */
    VrKey root;
    int horizon;                    /* its check held: the file's horizon, -1 none (a win) */
    char root_text[NOTATION_POS_LEN]; /* pre-pass: the first see line's position, the root it must have */
    int state;                      /* S_* */
    bool counted;                   /* its positions are in this verification's positions_checked */
    int height;                     /* S_PROVED: how many see levels its proof went below it (0: none) */
    int rest;                       /* the fewest empty cells left where a game its proof follows ends
                                       (VSUB_REST_NONE: none); pre-pass: its own check's, until S_PROVED
                                       adds the files it reached (settle) */
    uint64_t own;                   /* pre-pass: positions its own check examined, its see lines' files not included */
    int64_t bytes;                  /* pre-pass: the file's size, for the queue's order */
    SubDep *dep;                    /* pre-pass: the entries its proof reached by see lines */
    size_t ndep, capdep;
    bool saw_see;                   /* pre-pass: its proof reached a see line (queued or not) */
} Sub;

typedef struct {
    Sub *s;
    size_t n, cap;
    size_t *idx;    /* vsub_find's index: entry numbers by hash (open addressing, SIZE_MAX free),
                       idx_cap a power of two at least twice the entries; a certificate of many shared
                       subtrees names tens of thousands of files, which a scan found in time squared */
    size_t idx_cap;
    size_t *queue;  /* the pre-pass's queued entries, a binary heap in the order they are taken
                       (vsub_before); vsub_add pushes an S_QUEUED entry */
    size_t nqueue, capqueue;
    _Atomic uint64_t lemma_nodes; /* the centre lemma's searches so far (small game and half pair,
                                     VrLemmaBudget): the pre-pass's, every file and thread; then the
                                     sequential check's, from 0 (verify_par.c) */
} SubSet;

/* What makes two see lines name the same file (real paths of the file and
 * of its folder); NULL when it cannot be resolved or no memory. */
char *vsub_key(const char *path);
/* The entry of key with like's game, winner, horizon_ok and root, or SIZE_MAX. */
size_t vsub_find(const SubSet *ss, const char *key, const Sub *like);
/* The queued entry to check next, taken off the queue; SIZE_MAX: none. */
size_t vsub_take(SubSet *ss);
/* Adds a copy of *s (taking its key and path); its index, or SIZE_MAX. */
size_t vsub_add(SubSet *ss, const Sub *s);
void vsubs_free(SubSet *ss);
/* The positions of proved entry i and those its proof reached, not counted yet. */
uint64_t vsub_count(SubSet *ss, size_t i);

#endif
