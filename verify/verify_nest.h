/* verify_nest.h - internal to verify/: where one certificate's check
 * stands among the nested ones (Nest: its depth, the verification's
 * sub-certificate set, the pre-pass it is part of), the threaded
 * pre-pass's shared state (Prepass, run by verify_par.c), and the entry
 * points of verify.c's check that the pre-pass calls. The calls run one
 * way: verify_par.c calls verify.c, never the reverse, and both keep the
 * set through verify_subs.h, which calls neither.
 *
 * Invariants: a check nests at most SEE_MAX_DEPTH see levels below the
 * certificate asked for; every nested file is read within the one
 * VerifyLimits of the whole verification (Nest.lim, never NULL); with a
 * pre-pass, its SubSet, top, running and the entries' fields are read and
 * written only under Prepass.mu, and stop, once set, stays set.
 */
#ifndef OCS_VERIFY_NEST_H
#define OCS_VERIFY_NEST_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include "verify.h"
#include "verify_subs.h"

/* How deep sub-certificates may nest: a file that names itself, directly
 * or not, ends here instead of recursing for ever. A job-level search's
 * certificate nests as deep as its top tree (a file per top-tree node),
 * so the bound is generous; each level holds only its own file's table. */
enum { SEE_MAX_DEPTH = 64 };

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
    uint64_t checked, positions; /* files checked on their own so far, their positions (lim->progress) */
    double next_report;          /* when lim->progress is next due (monotonic seconds) */
} Prepass;

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
    _Atomic uint64_t *lemma_nodes; /* the centre lemma's search positions so far, charged against
                                      lim->max_lemma_nodes: the whole verification's (subs->lemma_nodes,
                                      every file and thread; a text's own counter); NULL: no bound */
} Nest;

static inline Nest vnest(int depth, SubSet *subs, Prepass *pre, size_t task, const VerifyLimits *lim)
{
    return (Nest){.depth = depth, .subs = subs, .pre = pre, .task = task, .rest = VSUB_REST_NONE, .lim = lim,
                  .lemma_nodes = subs ? &subs->lemma_nodes : NULL};
}

/* For the pre-pass: one file's check at a nesting (verify.c), and a
 * result's initial state (verify_read.c). */
int vr_verify_nested(const char *path, const VerifyExpect *exp, VerifyResult *out, Nest *nest);
void vr_result_init(VerifyResult *out);
/* lim with the defaults for its 0 fields (lim NULL: the defaults). */
VerifyLimits vr_limits(const VerifyLimits *lim);
/* The whole verification of path on one thread, within *lim (set). */
int vr_verify_one(const char *path, const VerifyExpect *exp, const VerifyLimits *lim, VerifyResult *out);

#endif
