/* cmd_bench.c - `ocsolve bench`: its options; runs the bench's parts
 * (bench/bench.h) in a fixed order and has their figures printed
 * (bench_report.h): text lines as the work goes, ending with the signature
 * line, or one JSON object. A failed check is exit 1 with its message. */
#include <getopt.h>
#include <stdio.h>

#include "bench_report.h"
#include "cli.h"
#include "commands.h"

static const char bench_help[] =
    "usage: ocsolve bench [options]\n"
    "A fixed, built-in benchmark on one thread (6x6, k=5, original rules):\n"
    "  hot path   perft nodes/s over fixed positions: full-visit (every leaf made and\n"
    "             judged) and bulk-counted (last ply counted), and a fair baseline\n"
    "             perft: a shift-based five detector run on the whole board after\n"
    "             every placement, leaves included (counts must agree)\n"
    "  table      transposition table probes and stores per second, random keys and\n"
    "             a search-like pattern, 64 MiB\n"
    "  solver     df-pn over a fixed suite (64 MiB table, cleared per position);\n"
    "             every value is checked against its recorded value\n"
    "The last line is 'bench signature: N', N the solver's total nodes: the same on\n"
    "every build and run (bench/signature.txt records it).\n"
    "  --threads T   also the solver suite with T threads on a shared table: nodes/s\n"
    "                and wall-time speedup (the signature stays the one-thread count)\n"
    "  --quick       a much smaller workload (for tests); its own signature\n"
    "  --solver-only only the solver part (and --threads)\n"
    "  --opening     instead, the harder opening tier: positions 2-6 plies from the\n"
    "                empty board, one df-pn thread each on a 1 GiB table, no centre\n"
    "                lemma, values checked; nodes/s, total time and its own signature\n"
    "                (the last line, 'opening signature: N'; minutes, not seconds)\n"
    "  --json        all figures as one JSON object on stdout\n"
    "  --help        this text\n"
    "Exit 0, 1 when a check fails (a count or value mismatch), 2 on bad input.\n"
    "example: ocsolve bench --threads 2\n";

typedef struct {
    bool quick, solver_only, json, opening;
    int threads; /* 0: no parallel part */
} BenchOpts;

typedef struct {
    BenchHot hot;
    BenchTT tt;
    BenchSolver s1, sp; /* one thread (the signature); the parallel run */
} BenchFigs;

/* False after --help: nothing left to do. Bad options exit (cli.h). */
static bool parse_bench_options(int argc, char **argv, BenchOpts *o)
{
    enum { O_THREADS = 1000, O_QUICK, O_SOLVER, O_JSON, O_OPENING };
    static const struct option longopts[] = {{"threads", required_argument, NULL, O_THREADS},
                                             {"quick", no_argument, NULL, O_QUICK},
                                             {"solver-only", no_argument, NULL, O_SOLVER},
                                             {"json", no_argument, NULL, O_JSON},
                                             {"opening", no_argument, NULL, O_OPENING},
                                             {"help", no_argument, NULL, 'h'},
                                             {0, 0, 0, 0}};
    *o = (BenchOpts){0};
    int opt;
    while ((opt = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        switch (opt) {
        case 'h': fputs(bench_help, stdout); return false;
        case O_THREADS: o->threads = (int)cli_number(optarg, "--threads", 1, 256); break;
        case O_QUICK: o->quick = true; break;
        case O_SOLVER: o->solver_only = true; break;
        case O_JSON: o->json = true; break;
        case O_OPENING: o->opening = true; break;
        default: cli_bad_option(argv, opt);
        }
    }
    if (optind < argc) cli_fail("bench takes no arguments, got '%s' (try 'ocsolve bench --help')", argv[optind]);
    if (o->opening && (o->quick || o->solver_only || o->threads))
        cli_fail("--opening is a workload of its own: not with --quick, --solver-only or --threads");
    return true;
}

/* The hot path and the table; txt: the text output, NULL with --json. */
static int run_engine_parts(const BenchOpts *o, FILE *txt, BenchFigs *fg, char *err, int errlen)
{
    if (txt) bench_text_hot_head(txt);
    if (bench_hotpath(o->quick, &fg->hot, txt ? bench_text_hot_each : NULL, txt, err, errlen) != 0) return -1;
    if (txt) bench_text_hot_total(txt, &fg->hot);
    if (bench_tt(o->quick, &fg->tt, err, errlen) != 0) return -1;
    if (txt) bench_text_tt(txt, &fg->tt);
    return 0;
}

/* The solver on one thread, then on o->threads if asked. */
static int run_solver_parts(const BenchOpts *o, FILE *txt, BenchFigs *fg, char *err, int errlen)
{
    if (txt) bench_text_solver_head(txt);
    if (bench_solver(o->quick, 0, &fg->s1, txt ? bench_text_solver_each : NULL, txt, err, errlen) != 0) return -1;
    if (txt) bench_text_solver_total(txt, &fg->s1, false);
    if (txt && !o->solver_only) bench_text_bound(txt, &fg->tt, &fg->s1);
    if (o->threads == 0) return 0;
    if (txt) bench_text_parallel_head(txt, o->threads);
    if (bench_solver(o->quick, o->threads, &fg->sp, NULL, NULL, err, errlen) != 0) return -1;
    if (txt) {
        bench_text_solver_total(txt, &fg->sp, true);
        bench_text_speedup(txt, o->threads, &fg->s1, &fg->sp);
    }
    return 0;
}

/* The opening tier alone. */
static int run_opening(const BenchOpts *o)
{
    static BenchOpening op;
    char err[256];
    FILE *txt = o->json ? NULL : stdout;
    if (txt) bench_text_opening_head(txt);
    if (bench_opening(&op, txt ? bench_text_opening_each : NULL, txt, err, sizeof err) != 0) {
        fflush(stdout);
        fprintf(stderr, "ocsolve bench: %s\n", err);
        return 1;
    }
    if (txt) bench_text_opening_total(txt, &op);
    else bench_json_opening(stdout, &op);
    return 0;
}

int cmd_bench(int argc, char **argv)
{
    BenchOpts o;
    if (!parse_bench_options(argc, argv, &o)) return 0;
    if (o.opening) return run_opening(&o);
    FILE *txt = o.json ? NULL : stdout;
    if (txt) bench_text_start(txt, o.quick);
    static BenchFigs fg;
    char err[256];
    if ((!o.solver_only && run_engine_parts(&o, txt, &fg, err, sizeof err) != 0) ||
        run_solver_parts(&o, txt, &fg, err, sizeof err) != 0) {
        fflush(stdout);
        fprintf(stderr, "ocsolve bench: %s\n", err);
        return 1;
    }
    if (o.json)
        bench_json_print(stdout, o.quick, o.solver_only ? NULL : &fg.hot, o.solver_only ? NULL : &fg.tt, &fg.s1,
                         o.threads > 0 ? &fg.sp : NULL);
    else
        bench_text_signature(stdout, &fg.s1);
    return 0;
}
