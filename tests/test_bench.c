/* test_bench.c - `ocsolve bench`: the signature of the quick workload
 * against the recorded one (bench/signature.txt), the same whatever else
 * runs beside it (the other parts, more threads); the text's parts in
 * order; the JSON object; bad options. And the measurement library
 * (bench/bench.h) called directly: its per-position callbacks, and its
 * failures returned as messages. Nothing here is timed: speed is what the
 * bench prints, not what a test may check. */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../bench/bench.h"
#include "../engine/notation.h"
#include "runbin.h"

#ifndef OCS_SIGNATURE_FILE
#error "OCS_SIGNATURE_FILE must name bench/signature.txt"
#endif

/* The quick workload takes about a second at -O3 and a few under the
 * sanitizers: already small, so OCS_SANITIZE does not scale it down (a
 * smaller workload would have another signature). */
TestSuite(bench, .timeout = 120);

/* The value recorded for `name` ("full" or "quick"). */
static unsigned long long recorded(const char *name)
{
    FILE *f = fopen(OCS_SIGNATURE_FILE, "r");
    cr_assert(f != NULL, "cannot open %s", OCS_SIGNATURE_FILE);
    char line[256];
    size_t nl = strlen(name);
    unsigned long long v = 0;
    bool found = false;
    while (fgets(line, sizeof line, f))
        if (line[0] != '#' && strncmp(line, name, nl) == 0 && line[nl] == ' ') {
            v = strtoull(line + nl + 1, NULL, 10);
            found = true;
        }
    fclose(f);
    cr_assert(found && v > 0, "no '%s N' line in %s", name, OCS_SIGNATURE_FILE);
    return v;
}

/* The N of the output's last line, which must be 'bench signature: N'. */
static unsigned long long printed(const Run *r)
{
    char buf[128];
    last_line(r->out, buf, sizeof buf);
    unsigned long long v = 0;
    int end = 0;
    cr_assert(sscanf(buf, "bench signature: %llu%n", &v, &end) == 1 && buf[end] == '\0',
              "%s: last line is not 'bench signature: N': [%s]", r->desc, buf);
    return v;
}

Test(bench, quick_signature_is_the_recorded_one)
{
    Run r;
    expect_ok(&r, "bench", "--quick", "--solver-only");
    cr_expect_eq(printed(&r), recorded("quick"),
                 "the quick bench signature changed: %llu, recorded %llu. If the search was changed on purpose, "
                 "update bench/signature.txt (it says how)",
                 printed(&r), recorded("quick"));
    run_free(&r);
}

/* All the parts, and a parallel run: the signature is the one-thread
 * solver's alone. */
Test(bench, quick_all_parts_same_signature)
{
    Run r;
    expect_ok(&r, "bench", "--quick", "--threads", "2");
    cr_expect_eq(printed(&r), recorded("quick"));
    const char *labels[] = {"full-visit", "bulk-counted", "baseline", "engine/baseline", "random keys", "search-like",
                            "table-probe bound", "speedup"};
    for (size_t i = 0; i < sizeof labels / sizeof labels[0]; i++)
        cr_expect(strstr(r.out, labels[i]) != NULL, "no '%s' in: %s", labels[i], r.out);
    /* The parts' headings, in the order they run. */
    const char *order[] = {"ocsolve bench: quick workload", "\nhot path: ", "\ntable (", "\nsolver: df-pn",
                           "\n  total: ", "\ntable-probe bound", "\nsolver, 2 threads", "\n  parallel: ",
                           "\n  speedup", "\nbench signature: "};
    const char *at = r.out;
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
        const char *next = strstr(at, order[i]);
        cr_expect(next != NULL, "no '%s' after the previous part in: %s", order[i], r.out);
        if (next) at = next;
    }
    run_free(&r);
}

Test(bench, json_is_one_object_with_the_signature)
{
    Run r;
    expect_ok(&r, "bench", "--quick", "--json", "--threads", "1");
    cr_expect(r.out[0] == '{' && r.outlen >= 2 && r.out[r.outlen - 2] == '}', "%s", r.out);
    cr_expect_eq(count_char(r.out, r.outlen, '\n'), 1, "more than one line: %s", r.out);
    cr_expect_eq(count_char(r.out, r.outlen, '{'), count_char(r.out, r.outlen, '}'), "%s", r.out);
    char want[64];
    snprintf(want, sizeof want, "\"signature\":%llu}", recorded("quick"));
    cr_expect(strstr(r.out, want) != NULL, "no %s in: %s", want, r.out);
    const char *keys[] = {"\"hot_path\":", "\"engine_over_baseline\":", "\"table\":", "\"search_like\":",
                          "\"solver\":", "\"probe_bound\":", "\"parallel\":", "\"speedup\":"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        cr_expect(strstr(r.out, keys[i]) != NULL, "no %s in: %s", keys[i], r.out);
    run_free(&r);
}

/* The quick workload is a subset of the full one, with table cleared per
 * position: so its signature can only be smaller. */
Test(bench, recorded_signatures_are_consistent)
{
    cr_expect_lt(recorded("quick"), recorded("full"));
}

typedef struct {
    int calls;
    uint64_t nodes;
    bool in_order;
} Seen;

static void seen_solve(void *arg, int i, const BenchSolver *s)
{
    Seen *seen = arg;
    const BenchSolvePos *p = &bench_solve_pos[s->index[i]];
    seen->in_order &= i == seen->calls && i == s->npos - 1 && p->quick && s->pos[i].value == p->value &&
                      s->pos[i].empty > 0;
    seen->calls++;
    seen->nodes += s->pos[i].nodes;
}

/* The library: each position reported once, in order, as it is solved;
 * the figures add up to the signature. */
Test(bench, library_solver_reports_each_position)
{
    static BenchSolver s;
    Seen seen = {0, 0, true};
    char err[256] = "";
    cr_assert_eq(bench_solver(true, 0, &s, seen_solve, &seen, err, sizeof err), 0, "%s", err);
    int quick = 0;
    for (int i = 0; i < bench_solve_count; i++) quick += bench_solve_pos[i].quick;
    cr_expect_eq(s.npos, quick);
    cr_expect_eq(seen.calls, s.npos);
    cr_expect(seen.in_order);
    cr_expect_eq(seen.nodes, s.nodes);
    cr_expect_eq(s.nodes, recorded("quick"));
    cr_expect_eq(s.threads, 1);
}

static void seen_hot(void *arg, int i, const BenchHot *h)
{
    Seen *seen = arg;
    seen->in_order &= i == seen->calls && h->full[i].count == h->base[i].count && h->full[i].count > 0;
    seen->calls++;
}

Test(bench, library_hotpath_reports_each_position)
{
    static BenchHot h;
    Seen seen = {0, 0, true};
    char err[256] = "";
    cr_assert_eq(bench_hotpath(true, &h, seen_hot, &seen, err, sizeof err), 0, "%s", err);
    cr_expect_eq(h.npos, bench_perft_count);
    cr_expect_eq(seen.calls, h.npos);
    cr_expect(seen.in_order);
    cr_expect_eq(h.base_total.nodes, h.full_total.nodes);
}

/* A failure is a return value and a message, never an exit. */
Test(bench, library_parse_returns_its_errors)
{
    Rules r;
    Board b;
    char err[256] = "";
    cr_assert_eq(rules_init(&r, BENCH_N, BENCH_K, RULES_ORIGINAL, err, sizeof err), 0, "%s", err);
    cr_expect_eq(bench_parse(bench_tt_root, &r, &b, err, sizeof err), 0, "%s", err);
    cr_expect_eq(bench_parse("XQ", &r, &b, err, sizeof err), -1);
    cr_expect(strncmp(err, "workload: ", 10) == 0, "%s", err);
    cr_expect_eq(bench_parse("XXXXX...............................", &r, &b, err, sizeof err), -1);
    cr_expect(strstr(err, "is not an ongoing position") != NULL, "%s", err);
}

Test(bench, rejects_bad_options)
{
    expect_reject("--threads", "bench", "--threads", "0");
    expect_reject("--threads", "bench", "--threads", "two");
    expect_reject("needs a value", "bench", "--threads");
    expect_reject("unknown option '--fast'", "bench", "--fast");
    expect_reject("takes no value", "bench", "--quick=1");
    expect_reject("no arguments", "bench", "extra");
    expect_reject("--opening is a workload of its own", "bench", "--opening", "--quick");
    expect_reject("--opening is a workload of its own", "bench", "--opening", "--threads", "2");
}

/* The opening tier (run by make bench-opening, not here: minutes): its
 * move lists are legal, two to six pieces, ongoing; its signature is
 * recorded. Parsed here with the notation module, not the tier's code. */
Test(bench, opening_workload_is_well_formed)
{
    Rules r;
    char err[128];
    cr_assert_eq(rules_init(&r, BENCH_N, BENCH_K, RULES_ORIGINAL, err, sizeof err), 0, "%s", err);
    cr_assert_geq(bench_opening_count, 5);
    for (int i = 0; i < bench_opening_count; i++) {
        const char *s = bench_opening_pos[i].moves;
        Board b = board_empty();
        int pieces = 0;
        char tok[8];
        int used;
        while (sscanf(s, "%7s%n", tok, &used) == 1) {
            Move m;
            cr_assert_eq(notation_parse_move(tok, BENCH_N, &m, err, sizeof err), 0, "%s: %s", bench_opening_pos[i].moves, err);
            cr_assert(!(board_occupied(b) >> move_cell(m) & 1), "%s: %s taken", bench_opening_pos[i].moves, tok);
            board_place(&b, m);
            pieces++;
            s += used;
        }
        cr_expect(pieces >= 2 && pieces <= 6, "%s: %d pieces", bench_opening_pos[i].moves, pieces);
        cr_expect_eq(rules_status(&r, b), WINNER_NONE, "%s is over", bench_opening_pos[i].moves);
        cr_expect(bench_opening_pos[i].value == WINNER_ORDER || bench_opening_pos[i].value == WINNER_CHAOS);
    }
    cr_expect_gt(recorded("opening"), 0);
}
