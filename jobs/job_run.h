/* job_run.h - what a worker does with one job of a job-level search
 * (jobs.h): a df-pn solve of one frontier position on the worker's own
 * table, with a node budget, and, when it decides the position and a
 * certificate folder is set, that position's certificate.
 *
 * The same code runs in a worker thread (jobs/pool.c) and in a worker
 * process of an MPI job (jobs/mpi_transport.c): a JobOrder goes out, a JobOutcome
 * comes back. Both are plain fixed-size structs, sent between MPI ranks
 * as bytes, so the ranks must run the same build on the same architecture
 * (the usual case on a cluster: one binary on a shared file system).
 *
 * The table is kept from one job to the next. That is sound: an entry is
 * an exact position's proof or disproof, or a pn/dn estimate that only
 * steers the search, and positions of this game never repeat along a line
 * (every move adds a piece), so an entry made while solving one root is
 * as good for any other (one long df-pn over several roots). It pays
 * because the jobs a worker gets share much: a job run again with a bigger
 * budget goes on where it stopped, and sibling positions transpose (either
 * side places either symbol, so the same pieces arise in many orders).
 *
 * Certificates: a decided job's certificate is written (solver/proof.h) to
 * DIR/NAME where NAME is jobrun_cert_name's: the position's canonical key
 * in hex, so every worker and every later run names one position's
 * certificate alike, and a top-tree certificate can point at it with a
 * "POSITION see NAME" line (verify.h). The file is written to a temporary
 * file of a unique name beside it (jobrun_open_tmp) and renamed, so a
 * killed worker leaves no partial certificate under NAME, and two writers
 * of one name (two ranks, or runs that should not share a folder) never
 * write into one temporary file.
 */
#ifndef OCS_JOB_RUN_H
#define OCS_JOB_RUN_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../engine/rules.h"
#include "../solver/dfpn.h"
#include "../tables/tt.h"
#include "../tables/wintab.h"

/* A job, coordinator to worker. */
typedef struct {
    Board b;             /* the job's root */
    uint64_t node_limit; /* its budget (df-pn nodes, this job only) */
    uint32_t tag;        /* the coordinator's (its top-tree node); echoed back */
    uint32_t serial;     /* the coordinator's job number; echoed back */
    uint8_t certify;     /* write the certificate when decided */
    uint8_t help;        /* not a job: help worker help_worker's running job
                          * help_serial (jobs/pool.c; only where it can) */
    uint16_t help_worker;
    uint32_t help_serial;
    uint32_t group;      /* which table (jobs/pool.c reply tables; 0: none);
                          * MPI ranks have one table each and ignore it */
    uint8_t bounded;     /* 0: a df-pn value job (jobrun_run); 1: a bounded
                          * job asking W(b, within) by dfpn_depth_within
                          * (jobrun_within): a transport picks by it */
    uint8_t within;      /* bounded: the plies, 0..64 */
    uint8_t share;       /* a value job's certificate: shared subtrees'
                          * files for the loser's positions 2..share plies
                          * below the root (solver/proof.h ProofShare);
                          * 0: none; over JOBRUN_SHARE_MAX: as the max */
    uint8_t share_min;   /* ... a file only for a proof of at least
                          * 2^share_min lines (ProofShare.min_lines; 0: 1;
                          * over 30: as 30) */
} JobOrder;

/* The outcome, worker to coordinator. */
typedef struct {
    uint32_t tag, serial;
    uint8_t value;       /* Winner: WINNER_NONE when the budget (or a stop) ended it */
    uint8_t stopped;     /* interrupted or out of time (not the budget) */
    uint8_t cert;        /* JOBRUN_CERT_* */
    uint8_t cert_why;    /* JOBRUN_WHY_* when cert is JOBRUN_CERT_FAILED */
    uint32_t pn, dn;     /* the root's numbers when undecided (bounded: 0 0
                          * when the table lost them) */
    int16_t depth;       /* bounded, yes: the depth of the proof (<= within) */
    uint8_t move;        /* value jobs, decided with the winner to move at the
                          * root: a winning move there (Move; MOVE_NONE when
                          * not found); for the top tree's sibling
                          * transpositions (top_sibling.c). Untrusted:
                          * the coordinator checks it is legal */
    uint64_t nodes;      /* df-pn nodes of this job */
    uint64_t cert_lines; /* the certificate's position lines */
    double seconds;      /* the job's wall time, certificate included */
    double cert_seconds; /* of which writing the certificate */
} JobOutcome;

_Static_assert(sizeof(JobOrder) == 48, "JobOrder travels as bytes between ranks");
_Static_assert(sizeof(JobOutcome) == 56, "JobOutcome travels as bytes between ranks");

enum {
    JOBRUN_CERT_NONE = 0, /* none asked for, or the job was undecided */
    JOBRUN_CERT_WRITTEN,  /* DIR/NAME holds it */
    JOBRUN_CERT_FAILED    /* asked for but not written (a limit, the line bound, the disk) */
};

enum {
    JOBRUN_WHY_STOPPED = 1, /* the writer's re-search was interrupted (or out of time) */
    JOBRUN_WHY_WRITE,       /* the file could not be made, written or renamed */
    JOBRUN_WHY_PROOF        /* the writer failed otherwise (a line bound, no winning move found) */
};

enum { JOBRUN_NAME_MAX = 64 };

/* Shared subtrees of job certificates (solver/proof.h ProofShare): the
 * loser's positions 2 to JobOrder.share plies below a job's root get files
 * of their own; the deepest setting a worker takes (each level deeper
 * multiplies the files). */
enum { JOBRUN_SHARE_LO = 2, JOBRUN_SHARE_MAX = 7 };

/* The side table of proven Order moves (tables/wintab.h) that goes with a
 * job table when certificates are written: this fraction of its bytes.
 * Measured (results/jobs/cert-cost.md): it spares the writer nearly all its
 * searches again, at no cost in nodes (the search never reads it). */
enum { JOBRUN_WINS_SHARE = 8 };
/* The writer's own table (Dfpn.scratch), for the positions it must search
 * again: made at a runner's first certificate, kept to its end. */
#define JOBRUN_SCRATCH_BYTES ((size_t)32 << 20)

typedef struct {
    const Rules *r;
    DfpnConfig cfg;
    TT own;                   /* the runner's own table (jobrun_init) */
    TT *tt;                   /* the table jobs run on: &own, or a shared one */
    WinTab own_wins;          /* the runner's own side table (jobrun_init, with
                               * certificates) */
    WinTab *wins;             /* the side table its value jobs fill and its
                               * writer reads: &own_wins, a shared one (the
                               * caller sets it), or NULL: none */
    TT scratch;               /* the writer's searches' table (job_run.c),
                               * once scratch_ready */
    bool scratch_ready;
    int threads;              /* df-pn threads per job (dfpn.h: Kaneko's parallel
                               * df-pn on the table; 1: one) */
    DfpnShared *team;         /* jobs of one thread run as a team others may
                               * join (dfpn.h dfpn_team_new); NULL: none */
    const char *cert_dir;     /* NULL: no certificates */
    uint64_t cert_max_lines;  /* 0: no bound */
} JobRunner;

/* The table of tt_bytes (huge pages as tt_init decides; made for threads
 * when threads > 1) and, with a certificate folder, its side table of
 * tt_bytes / JOBRUN_WINS_SHARE; -1 if they cannot be allocated. The runner points into itself afterwards: it is used
 * where it was initialised, never copied. */
int jobrun_init(JobRunner *jr, const Rules *r, const DfpnConfig *cfg, size_t tt_bytes, int threads,
                const char *cert_dir);
/* A runner on `shared`, a table made with tt_init(..., shared = true) that
 * other runners (threads) use at the same time and that outlives this one;
 * no side table until the caller sets jr->wins (one made with
 * wintab_init(..., shared = true) that outlives the runner).
 * Sound for the same reasons as keeping a table between jobs (above): every
 * entry is an exact position's proof, disproof or estimate, whichever root
 * it was found under, and the table's sequence locks keep concurrent
 * probes and stores exact (tt.h). Worth it because the jobs running at once
 * are siblings and cousins in the top tree: their subtrees transpose, and
 * with a table each two workers proved the same positions twice
 * (results/jobs/jobs-efficiency.csv). */
void jobrun_init_shared(JobRunner *jr, const Rules *r, const DfpnConfig *cfg, TT *shared, int threads,
                        const char *cert_dir);
void jobrun_free(JobRunner *jr); /* frees only the runner's own table */

/* Runs o, a value job (o->bounded 0; a bounded order is jobrun_within's,
 * which the worker calls instead: job_within.c uses this file, never the
 * reverse); stops early at deadline (monotonic seconds, 0: none) or when
 * *interrupt is set (NULL: never). */
void jobrun_run(JobRunner *jr, const JobOrder *o, double deadline, atomic_bool *interrupt, JobOutcome *out);

/* Helps the running job o of another runner on the same shared table:
 * joins its team (o's runner's jr->team) as thread tid until that job's
 * search ends, or *interrupt is set. out gets this helper's nodes and
 * seconds only (value WINNER_NONE: the job's own outcome carries the
 * value; what the helper proved is in the table the job reads). */
void jobrun_assist(JobRunner *jr, const JobOrder *o, DfpnShared *team, int tid, atomic_bool *interrupt,
                   JobOutcome *out);

/* The certificate file name of position b under r (no folder): the hex of
 * its canonical key, e.g. "o-6-5-0000000000000000-0000000000000000.ocproof". */
void jobrun_cert_name(const Rules *r, Board b, char name[JOBRUN_NAME_MAX]);

/* A bounded job (o->bounded; a worker calls it for such an order, where
 * it calls jobrun_run for a value job; job_within.c): W(b,
 * within) by dfpn_depth_within on the runner's table under the budget; decided,
 * its certificate (with o->certify and a folder): yes, Order's within
 * the proof's depth p, named jobrun_within_name(r, b, true, p); no,
 * Chaos's to the horizon `within`, named jobrun_within_name(r, b, false,
 * within). Undecided: the root's numbers from the table. */
void jobrun_within(JobRunner *jr, const JobOrder *o, double deadline, atomic_bool *interrupt, JobOutcome *out);

/* The name of b's bounded certificate: jobrun_cert_name's with "-wP" (yes:
 * Order wins within P plies, its longest game at most P) or "-hP" (no: a
 * horizon of P) before ".ocproof", e.g. "o-6-5-...-0000000000000000-h13.ocproof";
 * a value run's certificates keep their names, so one folder holds both. */
void jobrun_within_name(const Rules *r, Board b, bool yes, int plies, char name[JOBRUN_NAME_MAX]);

/* A new temporary file for the file at path: "PATH.tmp.XXXXXX", unique
 * (mkstemp, O_EXCL: also on a folder shared by several machines), mode
 * 0644; its name in tmp. Rename it onto path when complete, remove it
 * otherwise. NULL on failure. */
FILE *jobrun_open_tmp(const char *path, char *tmp, size_t len);
/* Ends a certificate written to f (opened by jobrun_open_tmp as tmp, for
 * path) by a writer that returned rc (err: its message; stopped: a limit
 * stopped its search): renamed onto path, the lines written; or -1, no
 * file left behind, with *why set (JOBRUN_WHY_*; the caller sets
 * JOBRUN_WHY_WRITE first, for a failure of the file alone). */
int64_t jobrun_close_cert(FILE *f, const char *tmp, const char *path, int rc, const char *err, bool stopped,
                          uint64_t lines, uint8_t *why);

#endif
