/* top_cert.h - the certificates of a job-level search (jobs.h): one file
 * per decided position, all in one folder, named by jobrun_cert_name
 * (the canonical key), so any node, run or worker that decides a position
 * names its certificate alike, and a later run on the same store finds it.
 *
 *   - a job's root: the df-pn certificate its worker wrote (job_run.h);
 *   - a top-tree node decided by its children: "ocproof 2" with, when the
 *     winner is to move, the line "POSITION MOVE" of a winning move and one
 *     "CHILD see NAME" line; when the loser is to move, a "CHILD see NAME"
 *     line for every distinct child (up to symmetry, as the verifier looks
 *     them up). No line is needed for a child where the game is over or
 *     where Order, to move, completes a line at once (the verifier judges
 *     those itself);
 *   - a position decided without a job (static knowledge, or a certificate
 *     missing for any reason): solved again here on a small table of its
 *     own and written like a job's.
 * The top tree's certificate is its root's file. Checking it checks every
 * file it names, each on its own (verify.h, "see" lines); nesting follows
 * the top tree's depth.
 *
 * Every file is written to a temporary file of a unique name beside it
 * (jobrun_open_tmp) and renamed, so a killed run leaves no
 * partial certificate under a real name.
 */
#ifndef OCS_TOP_CERT_H
#define OCS_TOP_CERT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <sys/types.h>

#include "../tables/store.h"
#include "job_run.h"

/* At most this many re-proofs at once (TopCert.threads). */
#define TOPCERT_THREADS_MAX 8

/* The table for a re-proof when none is given (TopCert.mini_bytes 0):
 * positions decided without a job are static wins (a few nodes) or,
 * rarely, a job's root whose file is missing. */
#define TOPCERT_MINI_MB 16

/* A dry run of topcert_ensure (top_regen.c topcert_prepare) or of
 * within_ensure (within_cert.c within_prepare): the positions it would
 * reach (seen, canonical) and, of them, those it would re-prove (leaf;
 * bounded, each with its question's plies: plies[i], else NULL); nothing
 * is written while TopCert.plan is set. */
typedef struct {
    Board *seen, *leaf;
    int *plies;
    int nseen, capseen, nleaf, capleaf, capplies;
    bool oom;
} TopCertPlan;

typedef struct {
    const Rules *r;
    DfpnConfig cfg;
    const char *dir;
    JobRunner mini; /* for positions decided without a job; allocated on first use */
    bool mini_ready;
    size_t mini_bytes; /* the re-proving table (default TOPCERT_MINI_MB MiB) */
    Store *store;      /* set: missing certificates are composed from its
                        * records where they cover the position (top_regen.c) */
    uint64_t written, solved, composed, split; /* files written here; of them,
                                                * solved here, composed from the
                                                * store, split into re-proved
                                                * children (top_regen.c) */
    int split_plies;         /* split a re-proof this many plies deep (0: whole) */
    uint64_t split_probe;    /* nodes of the whole re-proof tried before a split
                              * (0: TOPCERT_SPLIT_PROBE) */
    int threads;             /* a split's children re-proved this many at a time
                              * (top_regen_par.c; 1: one after another) */
    JobRunner more[TOPCERT_THREADS_MAX - 1]; /* the other threads' runners */
    int more_ready;
    TopCertPlan *plan;       /* set: topcert_ensure is a dry run (above) */
    Board *probed;           /* positions (canonical) whose whole re-proof was
                              * tried within the probe and did not finish */
    int nprobed, capprobed;
    uint8_t share, share_min; /* a re-proof's shared subtrees (JobOrder.share) */
    atomic_bool *interrupt; /* the run's stop flag (NULL: none): a re-proof
                             * here stops when it is set, and fails */
    bool stopped;           /* a re-proof here was stopped by *interrupt */
    /* Progress of a long end phase (NULL: none): progress(made, listed, arg)
     * at most every progress_every seconds, made the files written so far,
     * listed the re-proofs listed so far (the dry run's, then a split's
     * children: it grows; 0: none listed). Called by one
     * thread at a time (top_regen_par.c under its lock). */
    void (*progress)(uint64_t made, uint64_t listed, void *arg);
    void *progress_arg;
    double progress_every, progress_next;
    uint64_t listed;
} TopCert;

void topcert_init(TopCert *tc, const Rules *r, const DfpnConfig *cfg, const char *dir);

/* After a file is written: tc->progress when it is due, with `pending`
 * files written but not yet counted in tc->written (a batch's). */
void topcert_tick(TopCert *tc, uint64_t pending);
void topcert_free(TopCert *tc);

/* The path of b's certificate (dir/NAME). */
void topcert_path(const TopCert *tc, Board b, char *path, size_t len);

/* Does b need no certificate line at all (game over, or Order to move
 * completes a line at once)? */
bool topcert_trivial(const TopCert *tc, Board b);

/* Is there a certificate for b (or is none needed)? */
bool topcert_have(const TopCert *tc, Board b);

/* The header of a certificate file f on an n x n board: its winner
 * (WINNER_NONE when absent), its root (*has_root) and, when horizon is
 * not NULL, its horizon (-1 when absent). Reads at most the first 16
 * lines, each cut at 255 bytes: a header is short, and the file is not
 * trusted. */
Winner topcert_header(FILE *f, int n, Board *root, bool *has_root, int *horizon);

/* The header of the certificate file at path, held against b: its winner
 * (*cw), its horizon (*horizon, -1 when absent) and whether its root is b
 * up to symmetry (*same). 0, or -1 when the file cannot be opened. */
int topcert_header_of(const TopCert *tc, const char *path, Board b, Winner *cw, int *horizon, bool *same);

/* Does b's certificate in the folder claim w for b? A store's record of a
 * position is used only when its certificate agrees (top_tree.c
 * lookup): the store's checksum guards against damage, and this against
 * a record and a certificate that disagree, so that a verdict taken from
 * the store never contradicts the proof written for it. Reads only the
 * file's header (winner and root lines), not the proof; a horizon
 * certificate (a no to a bounded question) never agrees with a win. 1
 * agrees (or b needs no certificate), 0 disagrees (the message says how),
 * -1 no file to read. */
int topcert_agrees(const TopCert *tc, Board b, Winner w, char *err, int errlen);

/* Makes sure b, decided for w, has a certificate: present, trivial,
 * composed from the store's records (tc->store set), split into its
 * children's re-proofs (tc->split_plies), or solved and written now
 * (top_regen.c, which argues the composition and the split). 0, or -1 with
 * a message; -1 with tc->stopped set when *tc->interrupt stopped the
 * re-proof (the files made so far are whole and stay: a later run on
 * the same folder finds them). */
int topcert_ensure(TopCert *tc, Board b, Winner w, char *err, int errlen);

/* The re-proving runners: tc->mini and tc->more[0..threads-2], each on a
 * table of tc->mini_bytes (TOPCERT_MINI_MB when 0), made on first use and
 * kept to topcert_free. 0, or -1 with a message. */
int topcert_runners(TopCert *tc, int threads, char *err, int errlen);

/* Did the re-proof of b (decided for w) that ended with `out` find w and
 * write b's file? 0, or -1 with the message naming b. */
int topcert_outcome(const TopCert *tc, Board b, Winner w, const JobOutcome *out, char *err, int errlen);

/* Re-proves todo[0..count-1] (distinct up to symmetry, each decided for
 * w, none with a file yet), tc->threads at a time, each into its own
 * file (top_regen_par.c). 0, or -1 with a message (tc->stopped set when
 * the run's stop flag ended it; the files finished stay). */
int topcert_reprove_many(TopCert *tc, const Board *todo, int count, Winner w, char *err, int errlen);

/* The same within `limit` df-pn nodes each (> 0): a position that does not
 * finish within it gets no file and undecided[i] set (the others false);
 * that is not a failure. */
int topcert_probe_many(TopCert *tc, const Board *todo, int count, Winner w, uint64_t limit, bool *undecided,
                       char *err, int errlen);

/* topcert_reprove_many for the bounded mode (within.h): todo[i] re-proved
 * by a bounded job asking W(todo[i], plies[i]), each decided for w, into
 * its own -wP or -hP file (jobrun_within). 0, or -1 as above. */
int topcert_reprove_within(TopCert *tc, const Board *todo, const int *plies, int count, Winner w, char *err,
                           int errlen);

/* Before topcert_ensure of roots[0..count-1] (each decided for w): a dry
 * run lists the positions those calls would re-prove (not compose), and
 * they are re-proved tc->threads at a time (topcert_reprove_many); the
 * calls then find their files (top_regen.c). With a split (tc->split_plies)
 * they are first tried whole within the split's probe, tc->threads at a
 * time; the ones that do not finish are noted (tc->probed), and the calls
 * split them without probing again. Nothing to do with one thread. 0, or
 * -1 with a message. */
int topcert_prepare(TopCert *tc, const Board *roots, int count, Winner w, char *err, int errlen);

/* Is b in the dry run's list of positions reached (tc->plan)? Marks it
 * when `mark` (as a leaf too when `leaf`). Internal to jobs/. */
bool topcert_planned(TopCert *tc, Board b, bool mark, bool leaf);

/* A bounded dry run's leaf: b, to be re-proved with `plies` as its
 * question (TopCertPlan.plies). False when b was listed before (or memory
 * ran out: plan->oom). */
bool topcert_plan_leaf(TopCert *tc, Board b, int plies);

/* The distinct children of b (up to symmetry) and the moves to them; the
 * count. */
int topcert_children(const TopCert *tc, Board b, Board *kids, Move *moves);

/* The child of b that move m leads to, up to symmetry (an index into
 * kids), or -1 (MOVE_NONE, or a move from the store that is not legal at
 * b: it places no child of b, so it matches none; the store is not
 * trusted for it). */
int topcert_child_by_move(const TopCert *tc, Board b, Move m, const Board *kids, int nk);

/* Writes the certificate of b decided for w by its children: kids[i]
 * (each ensured by the caller) reached by moves[i]; when the winner is to
 * move, kids[0] is the winning child and the only one written. To
 * `path` when given (see lines then name the folder as `prefix`), else to
 * dir/NAME. 0, or -1 with a message. */
int topcert_node(TopCert *tc, Board b, Winner w, const Board *kids, const Move *moves, int nkids, const char *path,
                 const char *prefix, char *err, int errlen);

/* Did *tc->interrupt stop the re-proof that ended with `out` (no value, or
 * no file), or, with out NULL, must the re-proof of b not start? Then
 * tc->stopped is set, and err says so for position b. Used by
 * topcert_ensure and within_cert.c before and after each re-proof: a
 * search reads the flag every LIMITS_CLOCK_EVERY nodes, and most re-proofs
 * are shorter, so the check before each is what stops a phase of many. */
bool topcert_stopped(TopCert *tc, Board b, const JobOutcome *out, char *err, int errlen);

/* Writes to `path` a certificate of b (decided for w as a whole) that
 * hands b itself to its file in the folder: "B see PREFIX NAME", or, when
 * b needs no line (topcert_trivial), the header alone. 0, or -1. */
int topcert_see_root(TopCert *tc, Board b, Winner w, const char *path, const char *prefix, char *err, int errlen);

/* The largest certificate topcert_root_move reads and topcert_reroot
 * copies (a job's is bounded by its lines, --proof-max-lines): 4 GiB. */
#define TOPCERT_REROOT_MAX ((off_t)4 << 30)

/* The move of b's own line in its certificate (the first line after the
 * header: the job's proof writer writes the root first), in the frame of
 * that line's position *pos (an image of b). 0, or -1 when the file has no
 * such line (a lemma line, a see line, no file) or it is not a move at b,
 * or the file is not a regular file of at most TOPCERT_REROOT_MAX bytes
 * (a FIFO, a device: never opened so that it blocks). */
int topcert_root_move(const TopCert *tc, Board b, Board *pos, Move *m);

/* Writes the certificate of `to` as a copy of from's with its root line
 * replaced: for a position whose whole proof lies inside from's (the
 * child of from's root by its winning move; top_sibling.c). Lines for
 * positions the proof of `to` never reaches (from's own) stay, unused. 0,
 * or -1 with a message. */
int topcert_reroot(TopCert *tc, Board from, Board to, char *err, int errlen);

#endif
