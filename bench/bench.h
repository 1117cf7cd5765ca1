/* bench.h - `ocsolve bench`: a fixed, built-in workload measuring the hot
 * path (perft), a naive baseline of it, the transposition table and the
 * solver, on one thread with fixed table sizes.
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
#include <stdio.h>

#include "../engine/board.h"
#include "../solver/dfpn.h"

enum { BENCH_N = 6, BENCH_K = 5, BENCH_MAX_PERFT = 8, BENCH_MAX_SOLVE = 40 };

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

/* Parses a workload position (built in, so a failure is a bug: exit 1). */
void bench_parse(const char *pos, const Rules *r, Board *b);

/* ---- results ---- */

typedef struct {
    uint64_t count;  /* perft number (sequences) */
    uint64_t nodes;  /* positions made */
    double seconds;
} BenchPerftFig;

typedef struct {
    int npos;
    int depth[BENCH_MAX_PERFT];
    BenchPerftFig full[BENCH_MAX_PERFT], bulk[BENCH_MAX_PERFT], base[BENCH_MAX_PERFT];
    BenchPerftFig full_total, bulk_total, base_total;
    int base_windows; /* windows the baseline tests per symbol at every node */
} BenchHot;

typedef struct {
    uint64_t ops, hits;
    double seconds;
} BenchTTFig;

typedef struct {
    size_t bytes;
    BenchTTFig rnd_store, rnd_probe;
    BenchTTFig walk_probe, walk_store; /* search-like: seconds shared, in walk_probe */
    int walk_children;                 /* probes per simulated node */
} BenchTT;

typedef struct {
    uint64_t nodes;
    double seconds;
    Winner value;
} BenchSolveFig;

typedef struct {
    int threads;
    int npos;
    int index[BENCH_MAX_SOLVE]; /* into bench_solve_pos */
    BenchSolveFig pos[BENCH_MAX_SOLVE];
    uint64_t nodes;
    double seconds;
} BenchSolver;

typedef struct {
    bool quick, solver_only, json;
    int threads; /* 0: no parallel part */
    FILE *txt;   /* progressive text output, NULL with --json */
} BenchOpts;

/* ---- the parts; each prints its text lines to o->txt as it goes, and
 * exits with code 1 when a check fails (a count or value mismatch) ---- */

void bench_hotpath(const BenchOpts *o, BenchHot *out);
void bench_tt(const BenchOpts *o, BenchTT *out);
void bench_solver(const BenchOpts *o, int threads, BenchSolver *out);

/* The naive perft (baseline.c): original rules, n x n, k in a line, every
 * leaf made; returns the perft number, *nodes the positions made. */
uint64_t bench_baseline_perft(int n, int k, Board b, int depth, uint64_t *nodes, int *windows);

/* Rates, guarded against a zero time. */
double bench_rate(double amount, double seconds);

/* The JSON object of every figure (report.c). */
void bench_json(FILE *f, const BenchOpts *o, const BenchHot *hot, const BenchTT *tt, const BenchSolver *s1,
                const BenchSolver *sp);

/* Table operations per second in the search-like pattern: the bound the
 * solver's node rate is compared with. */
double bench_probe_bound(const BenchTT *tt);

/* Exits with code 1 after a one-line message on stderr: a failed check (a
 * count or value mismatch) or a table that cannot be had; not bad input. */
_Noreturn void bench_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
