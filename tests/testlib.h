/* testlib.h - shared by the tests: a seeded RNG, random positions built
 * with the independent reference (ref.h), and the bridge from a reference
 * position to the engine's Board through the notation. */
#ifndef OCS_TESTLIB_H
#define OCS_TESTLIB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#include "../engine/board.h"
#include "../engine/rules.h"
#include "../jobs/jobs.h"
#include "../solver/centre.h"
#include "../tables/store.h"
#include "brute.h"
#include "ref.h"

uint64_t tl_rand(uint64_t *state);          /* splitmix64 */
int tl_below(uint64_t *state, int bound);   /* uniform in [0, bound) */

/* Plays random moves from the empty board, never one that ends the game,
 * until the position has `pieces` pieces; returns -1 if it got stuck. */
int tl_random_ongoing(RefPos *p, int n, int k, int rules, int pieces, uint64_t *rng);
/* tl_random_ongoing on a random game: n 4-8, k 3..n, any rule set, a
 * random number of pieces (p->n, p->k, p->rules say which). */
int tl_random_ongoing_game(RefPos *p, uint64_t *rng);
/* Any arrangement: each cell X, O or empty with the given percentages. */
void tl_random_any(RefPos *p, int n, int k, int rules, int pct_x, int pct_o, uint64_t *rng);

/* A fresh folder ocsolve-TAG-XXXXXX in /dev/shm, else /tmp (path gets its
 * name), and the removal of a folder with everything under it. */
void tl_tmp_dir(char *path, size_t size, const char *tag);
void tl_rm_dir(const char *path);
/* A job-level run's folder: a new temporary dir (tl_tmp_dir, 256 bytes),
 * its certs/ folder made, the proof path dir/top.ocproof (300 bytes each),
 * and an LMDB store opened in dir itself; the test fails if it cannot. */
Store *tl_jobs_folder(char dir[256], char certs[300], char proof[300], const char *tag);
/* Writes text to the file dir/name (asserts it could). */
void tl_write_text(const char *dir, const char *name, const char *text);

Board tl_board(const RefPos *p);
/* The m x m position s ('X', 'O', '.', row by row) as a Board with s at the
 * centre of an (m+2) x (m+2) board, its ring empty: the centre lemma's
 * small game as the solver's tables index it (tests of solver/centre.*). */
Board tl_embed_centre(const char *s, int m);
/* count random 4x4 positions (40-79 % of the cells taken, any arrangement,
 * lines included; seed for tl_below) each held against the brute force on
 * the 4x4 board with k = 4 (tests/brute.*): centre_small_win of c's index
 * of the position must agree (cr_expect per position). Returns the
 * number of Order wins among them, for the caller's one-sidedness check. */
int tl_centre_small_against_brute(const Centre *c, uint64_t seed, int count);
RuleSet tl_rules(int ref_rules);
void tl_init_rules(Rules *r, const RefPos *p);

/* A job log's row (jobs/job_log.h: 15 comma-separated fields, the root's
 * empty path among them) read from f into line and split in place: fld
 * gets the fields. false at the end of f; asserts a row has 15 fields. */
#define TL_JOB_LOG_FIELDS 15
bool tl_job_log_row(FILE *f, char *line, size_t size, char *fld[TL_JOB_LOG_FIELDS]);

/* The brute force's winner of p (Order when it has a distance to win). */
Winner tl_brute_winner(BruteMemo *m, RefPos *p);

/* Every record of the store st checked against the brute force (rules: the
 * REF_ rule set of its game): how many disagree; *checked gets how many
 * were read. Asserts the store could be read. */
int tl_store_disagreements(Store *st, BruteMemo *m, int rules, int *checked);
/* The same for its bound records (tables/store.h): a yes at y must have
 * 0 <= dtw <= y, a no at n dtw > n or no win; checked may be NULL. */
int tl_store_bound_disagreements(Store *st, BruteMemo *m, int rules, int *checked);

/* Calls fn(path, arg) for each file of dir whose name holds `part` (fn
 * may be NULL); how many there are. Asserts dir can be read. */
int tl_each_file(const char *dir, const char *part, void (*fn)(const char *path, void *arg), void *arg);

/* A finished job-level run of p (6x6 k = 5) checked: its winner is the
 * brute force's, and its certificate at `proof` verifies for that winner
 * with p as root. Returns the winner. */
Winner tl_check_jobs_run(BruteMemo *m, RefPos *p, const JobsResult *res, const char *proof);

/* A job-level run of p to the end (no time limit: asserts a winner), with
 * the default knowledge but the centre lemma and the threat search, which
 * decide most small test positions at once (threats.h; test_threats.c
 * runs jobs with it). */
JobsResult tl_jobs_solve(const RefPos *p, JobsSpec *s);

/* The same run, its return (0 or -1 with err) left to the caller. */
int tl_jobs_try(const RefPos *p, JobsSpec *s, JobsResult *res, char *err, int errlen);

/* A random ongoing 6x6 position (rules rs, `empty` empty cells) whose run
 * with a one-node budget needs at least one expansion, so that the top
 * tree, not one job, decides it (asserts one is found). */
void tl_pick_deep(RefPos *p, int rs, int empty, uint64_t *rng);

#endif
