/* test_play_claims.c - the claims of `ocsolve play --protocol`'s genmove
 * (the winner, the distance to win, the kind of move) checked against the
 * brute force (brute.h) on small boards: random games where every claim
 * is checked (suite play), and genmove with a symbol (suite play_gtp: a
 * claimed winner is the true one, a move said to keep the win keeps it,
 * "lost" only when every move of the symbol loses). The client and the
 * test's own board are play_session.h's; the suites and their options are
 * declared in test_play.c and test_play_gtp.c. */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "brute.h"
#include "play_session.h"
#include "ref.h"
#include "testlib.h"

/* The brute force's winner of p: 'o' Order, 'c' Chaos; and the distance. */
static const char *brute_winner(BruteMemo *m, RefPos *p, int *dtw)
{
    *dtw = brute_dtw(m, p);
    return *dtw >= 0 ? "order" : "chaos";
}

/* Checks one genmove answer against the brute force: a claimed winner is
 * the true winner of the position before the move, a claimed distance the
 * true distance, and a move of a side claimed to win keeps the win. */
static void check_claim(BruteMemo *m, RefPos *before, RefPos *after, const PsGen *g, const char *ans)
{
    int dtw_before, dtw_after;
    const char *truth = brute_winner(m, before, &dtw_before);
    if (strcmp(g->winner, "unknown") != 0)
        cr_expect_str_eq(g->winner, truth, "claimed winner wrong: [%s]", ans);
    if (strcmp(g->dtw, "-") != 0)
        cr_expect_eq(atoi(g->dtw), dtw_before, "claimed distance %s, true %d: [%s]", g->dtw, dtw_before, ans);
    const char *mover = ps_order_to_move(before) ? "order" : "chaos";
    const char *now = brute_winner(m, after, &dtw_after);
    if (strcmp(g->winner, mover) == 0)
        cr_expect_str_eq(now, mover, "a proved win was thrown away by %s: [%s]", g->move, ans);
    if (strcmp(g->kind, "lost") == 0) cr_expect_str_neq(g->winner, mover, "[%s]", ans);
}

/* Random games on a small board, every claim checked. opening >= 0:
 * `opening` random plies, then each ply either genmove or a random move.
 * opening < 0: genmove plays Order from the empty board, a random Chaos
 * the other side, and the claims are checked once at most 12 cells are
 * empty (the brute force's reach). */
static void claims_game(const char *rules, int rref, int n, int k, int opening, uint64_t seed, int *seen)
{
    Session s;
    RefPos p;
    ps_start_game(&s, &p, rules, rref, n, k, "1");
    uint64_t rng = seed;
    BruteMemo *m = brute_new();
    cr_assert(m);
    for (int ply = 0; ref_status(&p) == REF_ONGOING; ply++) {
        char mv[8];
        if (opening < 0 ? !ps_order_to_move(&p) : ply < opening || tl_below(&rng, 2)) {
            ps_random_move(&p, &rng, mv);
            ps_play_both(&s, &p, mv);
            continue;
        }
        RefPos before = p;
        PsGen g;
        char gb[1024];
        ps_genmove(&s, &p, &g, gb, sizeof gb, NULL);
        if (ps_empties(&before) <= 12) check_claim(m, &before, &p, &g, gb);
        for (size_t i = 0; i < PS_NKINDS; i++) seen[i] += strcmp(g.kind, ps_kinds[i]) == 0;
    }
    brute_free(m);
    cr_expect(ps_finish(&s, NULL, 0) == 0);
}

Test(play, claims_against_brute_force)
{
    int seen[PS_NKINDS] = {0};
    for (uint64_t seed = 1; seed <= 4; seed++) {
        claims_game("original", REF_ORIGINAL, 4, 3, 3, seed, seen);
        claims_game("exact", REF_EXACT, 4, 3, 3, seed + 100, seen);
        claims_game("exact-end", REF_EXACT_END, 4, 4, 3, seed + 200, seen);
        claims_game("original", REF_ORIGINAL, 5, 4, 12, seed + 300, seen);
        claims_game("exact", REF_EXACT, 5, 4, 12, seed + 400, seen);
        claims_game("original", REF_ORIGINAL, 4, 3, -1, seed + 500, seen);
        claims_game("exact", REF_EXACT, 5, 4, -1, seed + 600, seen);
    }
    char tally[256] = "";
    for (size_t i = 0; i < sizeof ps_kinds / sizeof ps_kinds[0]; i++)
        snprintf(tally + strlen(tally), sizeof tally - strlen(tally), " %s %d", ps_kinds[i], seen[i]);
    cr_log_info("genmove kinds:%s", tally);
    cr_expect(seen[0] > 0 && seen[1] + seen[2] > 0 && seen[5] > 0 && seen[6] > 0, "some reasons never came up:%s",
              tally);
}

/* genmove with a symbol on small boards against the brute force: the
 * claimed winner of the position is the true one; a move said to win or
 * keep the win keeps it; "lost" only when every move of the symbol loses;
 * and where some move of the symbol keeps the mover's win, the engine's
 * does (these positions are decided in milliseconds; the think time of 3 s
 * only leaves room for a loaded machine). */
static void check_symbol_claim(BruteMemo *m, const RefPos *before, const PsGen *g, const char *ans)
{
    RefPos q = *before;
    int dtw;
    const char *truth = brute_winner(m, &q, &dtw);
    if (strcmp(g->winner, "unknown") != 0) cr_expect_str_eq(g->winner, truth, "claimed winner wrong: [%s]", ans);
    const char *mover = ps_order_to_move(before) ? "order" : "chaos";
    bool can_keep = false;
    for (int i = 0; i < q.n * q.n; i++) {
        if (q.cell[i] != '.') continue;
        q.cell[i] = g->sym;
        can_keep |= strcmp(brute_winner(m, &q, &dtw), mover) == 0;
        q.cell[i] = '.';
    }
    q.cell[g->cell] = g->sym;
    bool keeps = strcmp(brute_winner(m, &q, &dtw), mover) == 0;
    if (!strcmp(g->kind, "keeps-win") || !strcmp(g->kind, "win-now"))
        cr_expect(keeps, "%s does not keep %s's win: [%s]", g->move, mover, ans);
    if (!strcmp(g->kind, "lost"))
        cr_expect(!can_keep, "said lost, but a move of %c keeps %s's win: [%s]", g->sym, mover, ans);
    if (can_keep) cr_expect(keeps, "a move of %c keeps %s's win, %s does not: [%s]", g->sym, mover, g->move, ans);
}

static void symbol_game(const char *rules, int rref, int n, int k, int opening, uint64_t seed, int *kept)
{
    Session s;
    RefPos p;
    ps_start_game(&s, &p, rules, rref, n, k, "3");
    uint64_t rng = seed;
    BruteMemo *m = brute_new();
    cr_assert(m);
    for (int ply = 0; ref_status(&p) == REF_ONGOING; ply++) {
        char mv[8];
        if (ply < opening || tl_below(&rng, 3) == 0) {
            ps_random_move(&p, &rng, mv);
            ps_play_both(&s, &p, mv);
            continue;
        }
        RefPos before = p;
        PsGen g;
        char gb[1024];
        ps_genmove(&s, &p, &g, gb, sizeof gb, tl_below(&rng, 2) ? "X" : "O");
        check_symbol_claim(m, &before, &g, gb);
        *kept += strcmp(g.kind, "keeps-win") == 0;
    }
    brute_free(m);
    cr_expect_eq(ps_finish(&s, NULL, 0), 0);
}

Test(play_gtp, genmove_with_a_symbol_against_brute_force)
{
    int kept = 0;
    for (uint64_t seed = 1; seed <= 3; seed++) {
        symbol_game("original", REF_ORIGINAL, 4, 3, 4, seed, &kept);
        symbol_game("exact", REF_EXACT, 4, 3, 4, seed + 100, &kept);
        symbol_game("exact-end", REF_EXACT_END, 4, 4, 4, seed + 200, &kept);
        symbol_game("original", REF_ORIGINAL, 5, 4, 13, seed + 300, &kept);
    }
    cr_expect(kept > 0, "no move restricted to a symbol was proved to keep a win: the case went untested");
}
