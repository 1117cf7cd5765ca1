/* bench.c - `ocsolve bench`: runs the parts (bench.h) in a fixed order and
 * prints their figures, ending with the signature line. */
#include <getopt.h>
#include <stdio.h>

#include "cli.h"
#include "commands.h"
#include "../bench/bench.h"

static const char bench_help[] =
    "usage: ocsolve bench [options]\n"
    "A fixed, built-in benchmark on one thread (6x6, k=5, original rules):\n"
    "  hot path   perft nodes/s over fixed positions: full-visit (every leaf made and\n"
    "             judged) and bulk-counted (last ply counted), and a naive baseline\n"
    "             perft that tests every window at every node (counts must agree)\n"
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
    "  --json        all figures as one JSON object on stdout\n"
    "  --help        this text\n"
    "Exit 0, 1 when a check fails (a count or value mismatch), 2 on bad input.\n"
    "example: ocsolve bench --threads 2\n";

int cmd_bench(int argc, char **argv)
{
    enum { O_THREADS = 1000, O_QUICK, O_SOLVER, O_JSON };
    static const struct option longopts[] = {{"threads", required_argument, NULL, O_THREADS},
                                             {"quick", no_argument, NULL, O_QUICK},
                                             {"solver-only", no_argument, NULL, O_SOLVER},
                                             {"json", no_argument, NULL, O_JSON},
                                             {"help", no_argument, NULL, 'h'},
                                             {0, 0, 0, 0}};
    BenchOpts o = {false, false, false, 0, stdout};
    int opt;
    while ((opt = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        switch (opt) {
        case 'h': fputs(bench_help, stdout); return 0;
        case O_THREADS: o.threads = (int)cli_number(optarg, "--threads", 1, 256); break;
        case O_QUICK: o.quick = true; break;
        case O_SOLVER: o.solver_only = true; break;
        case O_JSON: o.json = true; break;
        default: cli_bad_option(argv, opt);
        }
    }
    if (optind < argc) cli_fail("bench takes no arguments, got '%s' (try 'ocsolve bench --help')", argv[optind]);
    if (o.json) o.txt = NULL;
    if (o.txt) {
        fprintf(o.txt, "ocsolve bench: %s workload, 6x6, k=5, original rules, one thread\n", o.quick ? "quick" : "full");
        fflush(o.txt);
    }

    static BenchHot hot;
    static BenchTT tt;
    static BenchSolver s1, sp;
    if (!o.solver_only) {
        bench_hotpath(&o, &hot);
        bench_tt(&o, &tt);
    }
    bench_solver(&o, 0, &s1);
    double nps = bench_rate((double)s1.nodes, s1.seconds);
    if (o.txt && !o.solver_only) {
        double bound = bench_probe_bound(&tt);
        fprintf(o.txt,
                "table-probe bound: %.2f M table operations/s (the search-like pattern above)\n"
                "  solver nodes/s / bound = %.4f (target >= 0.33, within 3x). A solver node is an expansion, which\n"
                "  probes the table once per open child and stores at least once: several operations per node;\n"
                "  at the bound a node could afford %.0f table operations\n",
                bound / 1e6, bench_rate(nps, bound), bench_rate(bound, nps));
    }
    if (o.threads > 0) {
        if (o.txt) fprintf(o.txt, "solver, %d thread%s, shared table:\n", o.threads, o.threads == 1 ? "" : "s");
        bench_solver(&o, o.threads, &sp);
        if (o.txt)
            fprintf(o.txt, "  speedup (wall time, one thread / %d): %.2fx\n", o.threads, bench_rate(s1.seconds, sp.seconds));
    }
    if (o.json)
        bench_json(stdout, &o, o.solver_only ? NULL : &hot, o.solver_only ? NULL : &tt, &s1, o.threads > 0 ? &sp : NULL);
    else
        printf("bench signature: %llu\n", (unsigned long long)s1.nodes);
    return 0;
}
