/* test_parallel.c - the threaded df-pn decides exactly what the brute force
 * (brute.c over ref.c) and the committed suite's alpha-beta values say, for
 * 2 and 3 threads (3 on 2 cores interleaves more). Values only: node counts
 * of a parallel search depend on timing. */
#include <criterion/criterion.h>

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/notation.h"
#include "../solver/dfpn.h"
#include "brute.h"
#include "runbin.h"
#include "testlib.h"

#ifdef OCS_SANITIZE
#define SCALE 5
#else
#define SCALE 1
#endif

TestSuite(parallel, .timeout = 600);

static Winner solve_threads(const Rules *r, TT *tt, Board b, int threads)
{
    DfpnConfig cfg = dfpn_default_config();
    Dfpn d;
    dfpn_init(&d, r, &cfg, tt);
    d.threads = threads;
    uint32_t pn, dn;
    Winner v = dfpn_solve(&d, b, &pn, &dn);
    cr_assert(!d.stopped);
    return v;
}

static void against_brute(int rs, int threads)
{
    Rules r;
    char err[128];
    cr_assert_eq(rules_init(&r, 6, 5, tl_rules(rs), err, sizeof err), 0, "%s", err);
    TT tt;
    cr_assert_eq(tt_init(&tt, 16 << 20, true), 0);
    BruteMemo *memo = brute_new();
    cr_assert(memo);
    uint64_t rng = 77 + (uint64_t)rs * 10 + (uint64_t)threads;
    for (int t = 0; t < 200 / SCALE; t++) {
        RefPos p;
        int empties = 6 + t % 6;
        if (tl_random_ongoing(&p, 6, 5, rs, 36 - empties, &rng) != 0) {
            t--;
            continue;
        }
        tt_clear(&tt); /* each search on its own: threads must find it all */
        Winner want = brute_order_wins(memo, &p) ? WINNER_ORDER : WINNER_CHAOS;
        char s[65];
        ref_format(&p, s);
        cr_assert_eq(solve_threads(&r, &tt, tl_board(&p), threads), want, "%d threads, %s rules %d", threads, s, rs);
    }
    brute_free(memo);
    tt_free(&tt);
}

Test(parallel, two_threads_brute_force) { against_brute(REF_ORIGINAL, 2); }
Test(parallel, three_threads_brute_force_exact) { against_brute(REF_EXACT, 3); }

/* Deeper positions (17-24 empty cells), where the threads really share work:
 * the suite's values come from alpha-beta, not from df-pn. */
Test(parallel, suite_positions)
{
    FILE *f = fopen("bench/suite-original.txt", "r");
    cr_assert(f, "run the tests from the repository root");
    Rules r;
    char err[128];
    cr_assert_eq(rules_init(&r, 6, 5, RULES_ORIGINAL, err, sizeof err), 0, "%s", err);
    TT tt;
    cr_assert_eq(tt_init(&tt, 64 << 20, true), 0);
    char line[256];
    int done = 0, seen = 0;
    while (fgets(line, sizeof line, f)) {
        char pos[64], value[16];
        int empty;
        if (line[0] == '#' || sscanf(line, "%63s %d %15s", pos, &empty, value) != 3 || empty < 17) continue;
        if (seen++ % (2 * SCALE) != 0) continue;
        Board b;
        int n;
        cr_assert_eq(notation_parse_position(pos, 6, &b, &n, err, sizeof err), 0, "%s: %s", pos, err);
        tt_clear(&tt);
        Winner want = strcmp(value, "order") == 0 ? WINNER_ORDER : WINNER_CHAOS;
        cr_assert_eq(solve_threads(&r, &tt, b, 2), want, "2 threads: %s", pos);
        done++;
    }
    fclose(f);
    cr_expect_gt(done, 40 / SCALE / 2, "only %d suite positions", done);
    tt_free(&tt);
}

/* ---------------- teams: a solve an idle thread joins (dfpn_assist) ---------------- */

typedef struct {
    const Rules *r;
    TT *tt;
    Board b;
    DfpnShared *team;
    uint64_t nodes;
    atomic_bool done;
} Helper;

static void *helper_main(void *arg)
{
    Helper *h = arg;
    DfpnConfig cfg = dfpn_default_config();
    Dfpn d;
    dfpn_init(&d, h->r, &cfg, h->tt);
    dfpn_assist(&d, h->b, h->team, 1);
    h->nodes = d.nodes;
    atomic_store(&h->done, true);
    return NULL;
}

/* b solved as a team of two: the solve and a helper on the same table.
 * Started at the same moment, which thread decides is up to the scheduler
 * (on a loaded machine the solve may end before the helper ever runs);
 * with helper_first the solve starts only once the helper has added a
 * batch of nodes to the team's count or ended, so the helper surely
 * searched. Adds the helper's nodes to *helped. */
static Winner solve_as_team(const Rules *r, TT *tt, DfpnShared *team, Board b, bool helper_first, uint64_t *helped)
{
    tt_clear(tt);
    dfpn_team_reset(team);
    Helper h = {r, tt, b, team, 0, false};
    pthread_t th;
    cr_assert_eq(pthread_create(&th, NULL, helper_main, &h), 0);
    while (helper_first && dfpn_team_nodes(team) == 0 && !atomic_load(&h.done)) sched_yield();
    DfpnConfig cfg = dfpn_default_config();
    Dfpn d;
    dfpn_init(&d, r, &cfg, tt);
    d.team = team;
    uint32_t pn, dn;
    Winner v = dfpn_solve(&d, b, &pn, &dn);
    dfpn_team_stop(team);
    pthread_join(th, NULL);
    cr_assert(!d.stopped);
    cr_assert_eq(dfpn_winner(pn, dn), v);
    *helped += h.nodes;
    return v;
}

/* Teams decide what the suite's alpha-beta values and the brute force say,
 * whichever thread reaches the decision; the helper does share the work;
 * and a helper that arrives after the solve has ended leaves at once. */
Test(parallel, team_with_a_helper)
{
    Rules r;
    char err[128];
    cr_assert_eq(rules_init(&r, 6, 5, RULES_ORIGINAL, err, sizeof err), 0, "%s", err);
    TT tt;
    cr_assert_eq(tt_init(&tt, 64 << 20, true), 0);
    DfpnShared *team = dfpn_team_new();
    cr_assert(team);
    FILE *f = fopen("bench/suite-original.txt", "r");
    cr_assert(f, "run the tests from the repository root");
    char line[256];
    int done = 0, seen = 0;
    uint64_t helped = 0;
    while (fgets(line, sizeof line, f)) {
        char pos[64], value[16];
        int empty;
        Board b;
        int n;
        if (line[0] == '#' || sscanf(line, "%63s %d %15s", pos, &empty, value) != 3 || empty < 17) continue;
        if (seen++ % (2 * SCALE) != 0) continue;
        cr_assert_eq(notation_parse_position(pos, 6, &b, &n, err, sizeof err), 0, "%s: %s", pos, err);
        Winner want = strcmp(value, "order") == 0 ? WINNER_ORDER : WINNER_CHAOS;
        cr_assert_eq(solve_as_team(&r, &tt, team, b, done % 4 == 0, &helped), want, "team of 2: %s", pos);
        done++;
    }
    fclose(f);
    cr_expect_gt(done, 40 / SCALE / 2, "only %d suite positions", done);
    cr_expect_gt(helped, 0, "the helper searched no node in %d solves", done);

    BruteMemo *memo = brute_new();
    uint64_t rng = 4242;
    for (int t = 0; t < 60 / SCALE; t++) {
        RefPos p;
        int rs = t % 3;
        cr_assert_eq(rules_init(&r, 6, 5, tl_rules(rs), err, sizeof err), 0, "%s", err);
        if (tl_random_ongoing(&p, 6, 5, rs, 36 - (8 + t % 5), &rng) != 0) continue;
        Winner want = brute_order_wins(memo, &p) ? WINNER_ORDER : WINNER_CHAOS;
        char s[65];
        ref_format(&p, s);
        cr_assert_eq(solve_as_team(&r, &tt, team, tl_board(&p), false, &helped), want, "team of 2: %s, rules %d", s, rs);
    }
    brute_free(memo);

    /* Late: the team has stopped (solve_as_team stopped it last). */
    Helper late = {&r, &tt, board_empty(), team, 0, false};
    helper_main(&late);
    cr_expect_eq(late.nodes, 0, "a helper of a finished solve searched %llu nodes", (unsigned long long)late.nodes);
    dfpn_team_free(team);
    tt_free(&tt);
}

/* When OpenMP starts fewer threads than asked (a thread limit, a busy
 * machine), the threads that never ran must not count as having decided
 * anything: a Chaos win stays a Chaos win. */
Test(parallel, fewer_threads_than_asked)
{
    cr_assert_eq(setenv("OMP_THREAD_LIMIT", "1", 1), 0);
    Run r;
    expect_ok(&r, "solve", "--threads", "4", "--quiet", "..X..OXX.....OO..O......X......X.XO.");
    cr_expect(strstr(r.out, "result: chaos wins") != NULL, "%s", r.out);
    run_free(&r);
}
