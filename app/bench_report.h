/* bench_report.h - how `ocsolve bench` prints the figures that bench/
 * measures (bench/bench.h): text lines for people, as the work goes
 * (bench_text.c), or one JSON object at the end (bench_json.c). Nothing
 * here measures or decides: every figure comes from the bench's structs,
 * rates derived with bench_rate. app/cmd_bench.c calls these in order.
 */
#ifndef OCS_BENCH_REPORT_H
#define OCS_BENCH_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "../bench/bench.h"

/* ---- text (bench_text.c); the callbacks take the FILE * as arg ---- */

void bench_text_start(FILE *f, bool quick); /* the first line */
void bench_text_hot_head(FILE *f);
void bench_text_hot_each(void *f, int i, const BenchHot *h); /* a BenchHotEach */
void bench_text_hot_total(FILE *f, const BenchHot *h);
void bench_text_tt(FILE *f, const BenchTT *tt);
void bench_text_solver_head(FILE *f);
void bench_text_solver_each(void *f, int i, const BenchSolver *s); /* a BenchSolveEach */
void bench_text_solver_total(FILE *f, const BenchSolver *s, bool parallel);
/* The solver's node rate against the table-probe bound. */
void bench_text_bound(FILE *f, const BenchTT *tt, const BenchSolver *s1);
void bench_text_parallel_head(FILE *f, int threads);
void bench_text_speedup(FILE *f, int threads, const BenchSolver *s1, const BenchSolver *sp);
void bench_text_signature(FILE *f, const BenchSolver *s1); /* the last line */
/* The opening tier (--opening): its heading, a line per position, and the
 * totals ending in its signature line. */
void bench_text_opening_head(FILE *f);
void bench_text_opening_each(void *f, int i, const BenchOpening *o); /* a BenchOpeningEach */
void bench_text_opening_total(FILE *f, const BenchOpening *o);

/* ---- JSON (bench_json.c) ---- */

/* Every figure as one JSON object and a newline; hot and tt NULL when
 * not measured (--solver-only), sp NULL without a parallel run. */
void bench_json_print(FILE *f, bool quick, const BenchHot *hot, const BenchTT *tt, const BenchSolver *s1,
                      const BenchSolver *sp);

/* The opening tier as one JSON object and a newline. */
void bench_json_opening(FILE *f, const BenchOpening *o);

#endif
