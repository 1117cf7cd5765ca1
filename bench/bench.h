/* bench.h - the measurements behind `ocsolve bench`: a fixed, built-in
 * workload measuring the hot path (perft), a fair baseline of it, the
 * transposition table and the solver, on one thread with fixed table sizes.
 *
 * A measurement library: each part fills a struct of raw figures (counts
 * and seconds; rates are derived from them with bench_rate) and returns 0,
 * or -1 with a one-line message in err when a check fails (a count or value
 * mismatch) or a table cannot be allocated. It prints nothing and never
 * exits: app/cmd_bench.c runs the parts and prints the text and the JSON.
 * A caller that prints as the work goes passes an `each` callback, called
 * after every position is measured (NULL: none).
 *
 * The solver part ends in the bench signature: the total df-pn nodes over
 * the fixed suite. Every input to it is fixed (positions, table size, the
 * table cleared before each position, no time or node limit, one thread),
 * so it is the same at -O0, -O3 and under the sanitizers; a change in it
 * means the search itself changed. bench/signature.txt records it.
 *
 * Everything is 6x6, k = 5, original rules: the game this project solves.
 */
#ifndef OCS_BENCH_H
#define OCS_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../engine/board.h"
#include "../engine/rules.h"

enum {
    BENCH_N = 6,
    BENCH_K = 5,
    BENCH_MAX_PERFT = 8,
    BENCH_MAX_SOLVE = 40,
    BENCH_HOT_RUNS = 2 /* each hot-path run timed this many times, the fastest kept */
};

/* Fixed table sizes: node counts depend on the solver's, rates on both. */
#define BENCH_SOLVER_TT_BYTES ((size_t)64 << 20)
#define BENCH_TT_BYTES ((size_t)64 << 20)

/* ---- the workload (workload.c) ---- */

typedef struct {
    const char *what;
    const char *pos;
    int depth, quick_depth; /* full-visit depth; bulk counts one ply deeper */
} BenchPerftPos;

typedef struct {
    const char *pos;
    Winner value; /* the recorded value the solver must reproduce */
    const char *source; /* where the value was established */
    bool quick;         /* also in the --quick workload */
} BenchSolvePos;

extern const BenchPerftPos bench_perft_pos[];
extern const int bench_perft_count;
extern const BenchSolvePos bench_solve_pos[];
extern const int bench_solve_count;
extern const char bench_tt_root[]; /* where the search-like table walk starts */

/* Parses a workload position, which must be ongoing: 0, or -1 with the
 * message in err (the workload is built in, so a failure is a bug). */
int bench_parse(const char *pos, const Rules *r, Board *b, char *err, int errlen);

/* ---- results ---- */

typedef struct {
    uint64_t count;  /* perft number (sequences) */
    uint64_t nodes;  /* positions made */
    uint64_t ends;   /* full-visit and baseline: sequences whose last move ends the game */
    double seconds;
} BenchPerftFig;

typedef struct {
    int npos;
    int depth[BENCH_MAX_PERFT];
    BenchPerftFig full[BENCH_MAX_PERFT], bulk[BENCH_MAX_PERFT], base[BENCH_MAX_PERFT];
    BenchPerftFig full_total, bulk_total, base_total;
    int base_windows; /* windows the baseline's detector covers per symbol at every node */
} BenchHot;

typedef struct {
    uint64_t ops, hits;
    double seconds;
} BenchTTFig;

typedef struct {
    size_t bytes;
    BenchTTFig rnd_store, rnd_probe;   /* the same ops (keys) each */
    BenchTTFig walk_probe, walk_store; /* search-like: seconds shared, in walk_probe */
    int walk_children;                 /* probes per simulated node */
} BenchTT;

typedef struct {
    uint64_t nodes;
    double seconds;
    Winner value;
    int empty; /* empty cells of the position */
} BenchSolveFig;

typedef struct {
    int threads;
    int npos;
    int index[BENCH_MAX_SOLVE]; /* into bench_solve_pos */
    BenchSolveFig pos[BENCH_MAX_SOLVE];
    uint64_t nodes;
    double seconds;
} BenchSolver;

/* ---- the parts: 0, or -1 with a one-line message in err ---- */

/* After hot-path position i: its figures are h->depth[i], full[i], bulk[i],
 * base[i] (and base_windows). */
typedef void (*BenchHotEach)(void *arg, int i, const BenchHot *h);
/* After solver position i: s->pos[i], of bench_solve_pos[s->index[i]]. */
typedef void (*BenchSolveEach)(void *arg, int i, const BenchSolver *s);

int bench_hotpath(bool quick, BenchHot *out, BenchHotEach each, void *arg, char *err, int errlen);
int bench_tt(bool quick, BenchTT *out, char *err, int errlen);
/* threads == 0: the reference run (the signature), one thread on an
 * unshared table; otherwise that many threads on a shared table. */
int bench_solver(bool quick, int threads, BenchSolver *out, BenchSolveEach each, void *arg, char *err, int errlen);

/* The fair baseline perft (baseline.c): original rules, n x n, k in a line,
 * every placement judged by the shift-based run detector, leaves included;
 * returns the perft number, *nodes the positions made, *ends the sequences
 * whose last move ends the game (PerftResult.leaf_ends), *windows the
 * k-windows its detector covers for each symbol at every node. */
uint64_t bench_baseline_perft(int n, int k, Board b, int depth, uint64_t *nodes, uint64_t *ends, int *windows);

/* ---- the opening tier (opening.c): `ocsolve bench --opening` ---- */

/* Positions near the empty board (two to six pieces), each decided by one
 * df-pn thread with no centre lemma (pure search) on a 1 GiB table cleared
 * before it, in 1-300 s on the machine it was chosen on; their values come
 * from verified certificates (opening.c says which). Its own signature,
 * the total nodes: fixed for the same reasons as the suite's. */
enum { BENCH_MAX_OPENING = 16 };
#define BENCH_OPENING_TT_BYTES ((size_t)1 << 30)

typedef struct {
    const char *moves; /* from the empty board, e.g. "Xc3 Ob1" */
    Winner value;
    const char *source;
} BenchOpeningPos;

extern const BenchOpeningPos bench_opening_pos[];
extern const int bench_opening_count;

typedef struct {
    int npos;
    BenchSolveFig pos[BENCH_MAX_OPENING];
    int pieces[BENCH_MAX_OPENING];
    uint64_t nodes;
    double seconds;
} BenchOpening;

/* After opening position i: out->pos[i], of bench_opening_pos[i]. */
typedef void (*BenchOpeningEach)(void *arg, int i, const BenchOpening *o);
int bench_opening(BenchOpening *out, BenchOpeningEach each, void *arg, char *err, int errlen);

/* Rates, guarded against a zero time. */
double bench_rate(double amount, double seconds);

/* Table operations per second in the search-like pattern: the bound the
 * solver's node rate is compared with. */
double bench_probe_bound(const BenchTT *tt);

#endif
