/* verify_subs.h - internal to verify/: the sub-certificates of one
 * verification (the files see lines name, each checked once; the set's
 * functions, vsub_*, in verify.c with the certificate check itself) and
 * the threaded pre-pass over them (verify_par.c), which calls the check.
 *
 * Invariants: an entry is S_PROVED only when its own check held and every
 * entry its proof reached by see lines is S_PROVED at a lower height, each
 * with the horizon its see line needs (a win, or at least the plies left
 * there in a horizon certificate: verify.h; settle in verify_par.c), so
 * proofs never rest on a cycle of files; with
 * threads, every field of the SubSet is read and written under the
 * pre-pass's mutex.
 */
#ifndef OCS_VERIFY_SUBS_H
#define OCS_VERIFY_SUBS_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "verify.h"
#include "verify_rules.h"

/* How deep sub-certificates may nest: a file that names itself, directly
 * or not, ends here instead of recursing for ever. A job-level search's
 * certificate nests as deep as its top tree (a file per top-tree node),
 * so the bound is generous; each level holds only its own file's table. */
enum { SEE_MAX_DEPTH = 64 };

/* Sub-certificates, the files see lines name, in one verification (one
 * verify_file* call): what was proved, and with threads what the pre-pass
 * queued and checked. A file named by several see lines (a position
 * reached by transposition, or one job's certificate shared by many
 * parents) is checked once. An entry is what prove_see asks of a file:
 * its key (sub_key), the game, the winner, whether a horizon will do (a
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

/* A see line's file that a pre-pass entry's proof rests on, and the
 * least horizon it must have there (the plies left at the see line, when
 * the entry accepts horizons: Sub.horizon_ok; else -1). */
typedef struct {
    size_t i;
    int need;
} SubDep;

typedef struct {
    char *key;                      /* sub_key(); NULL for the top file, which no see line names */
    char *path;                     /* pre-pass: the path the first see line gave (opened; resolves its see lines) */
    int n, k, rules, winner;
    bool horizon_ok;                /* named by a see line of a horizon certificate: a file with a horizon
                                       may prove it (verify.h, Horizon certificates; VerifyExpect) */
    VrKey root;
    int horizon;                    /* its check held: the file's horizon, -1 none (a win) */
    char root_text[VERIFY_POS_LEN]; /* pre-pass: the first see line's position, the root it must have */
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
                       idx_cap a power of two over twice the entries; a certificate of many shared
                       subtrees names tens of thousands of files, which a scan found in time squared */
    size_t idx_cap;
    size_t *queue;  /* the pre-pass's queued entries, a binary heap in the order they are taken
                       (verify.c); vsub_add pushes an S_QUEUED entry */
    size_t nqueue, capqueue;
} SubSet;

/* The pre-pass (verify_file_threads): its threads take queued entries of
 * subs and check each file on its own. */
typedef struct Prepass {
    pthread_mutex_t mu; /* guards subs, top, running */
    pthread_cond_t cv;  /* an entry queued, or a check ended */
    SubSet *subs;
    const VerifyExpect *exp; /* what the top file (entry 0) must prove */
    const VerifyLimits *lim; /* the reading limits of every file */
    VerifyResult top;        /* entry 0's own check */
    int top_root_empty;      /* entry 0's root's empty cells */
    int running;             /* checks under way */
    atomic_bool stop;        /* a check failed: the certificate is invalid; the sequential pass says where */
} Prepass;

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

/* Where a certificate's check stands among the nested ones. */
typedef struct {
    int depth;    /* 0 for the certificate asked for, 1 for one it names, ... */
    SubSet *subs; /* shared by the whole verification; NULL for text */
    Prepass *pre; /* the pre-pass this check is part of (see lines queued, not followed); NULL otherwise */
    size_t task;  /* with pre: this file's entry in subs */
    int height;   /* out: how many see levels the proof went below this file */
    bool saw_see; /* out, with pre: the proof reached a see line */
    int rest;     /* out: the fewest empty cells left where a game the proof follows ends (VSUB_REST_NONE:
                     none yet), the files its see lines reached included except with pre */
    int root_empty; /* out: the root's empty cells */
    bool horizon_ok; /* named by a horizon certificate's see line: with the winner chaos asked for, a
                        certificate with a horizon is accepted too (the see line checks that it is long
                        enough: verify.h, Horizon certificates) */
    const VerifyLimits *lim; /* the reading limits, never NULL: every nested file is read within the same */
} Nest;

static inline Nest vnest(int depth, SubSet *subs, Prepass *pre, size_t task, const VerifyLimits *lim)
{
    return (Nest){.depth = depth, .subs = subs, .pre = pre, .task = task, .rest = VSUB_REST_NONE, .lim = lim};
}

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

/* verify.c's, for the pre-pass: one file's check at a nesting, and a
 * result's initial state. */
int vr_verify_nested(const char *path, const VerifyExpect *exp, VerifyResult *out, Nest *nest);
void vr_result_init(VerifyResult *out);
/* lim with the defaults for its 0 fields (lim NULL: the defaults). */
VerifyLimits vr_limits(const VerifyLimits *lim);
/* The whole verification of path on one thread, within *lim (set). */
int vr_verify_one(const char *path, const VerifyExpect *exp, const VerifyLimits *lim, VerifyResult *out);

#endif
