/* test_knowledge.c - kn_node's pairing gate (KnNode.no_pairing, read from
 * its own window scan) against kn_pairs_quick (pairing.c's scans): the
 * search skips the pairing test of a child where no_pairing is set, so it
 * must be set only where kn_chaos_pairs is false, and, to be worth its
 * place, wherever kn_pairs_quick already says so. Random ongoing positions of every n 4-8, k and
 * rule set, with the knowledge settings that change the gate. */
#include <criterion/criterion.h>

#include "../solver/dfpn.h"
#include "../solver/knowledge.h"
#include "../solver/pairing.h"
#include "testlib.h"

TestSuite(knowledge, .timeout = 600);

/* The settings the gate reads: the lines gate on or off, witnesses on or
 * off, and the slack the board's default, 0 or 3. */
static Knowledge setting(int i)
{
    Knowledge kn = dfpn_default_config().kn;
    kn.pairing_lines = i & 1;
    kn.pairing_witness = (i >> 1) & 1;
    static const int slack[3] = {KN_WITNESS_SLACK_BY_BOARD, 0, 3};
    kn.pairing_witness_slack = slack[(i >> 2) % 3];
    return kn;
}

Test(knowledge, kn_node_pairs_gate_is_kn_pairs_quick)
{
    uint64_t rng = 4242;
    int checked = 0, fired = 0, fired_odd = 0, searched = 0;
    for (int t = 0; t < 6000; t++) {
        RefPos p;
        if (tl_random_ongoing_game(&p, &rng) != 0) continue;
        Rules r;
        tl_init_rules(&r, &p);
        Board b = tl_board(&p);
        char str[65];
        ref_format(&p, str);
        for (int i = 0; i < 12; i++) {
            Knowledge kn = setting(i);
            KnNode node;
            kn_node(&r, &kn, b, &node);
            if (node.value != WINNER_NONE) continue;
            KnPairs q = kn_pairs_quick(&r, &kn, b);
            checked++;
            /* sound: a gate that fires leaves no pairing to find */
            cr_assert(!node.no_pairing || q == KN_PAIRS_NONE, "%s n=%d k=%d rules %d setting %d: no_pairing, but %d",
                      str, p.n, p.k, p.rules, i, (int)q);
            if (node.no_pairing && searched < 400) {
                searched++;
                cr_assert(!kn_chaos_pairs(&r, &kn, b), "%s: no_pairing, but kn_chaos_pairs finds one", str);
            }
            /* complete: the scan counts the lines wherever the count can fail */
            cr_assert_eq(node.no_pairing, q == KN_PAIRS_NONE, "%s n=%d k=%d rules %d setting %d: %d against %d",
                             str, p.n, p.k, p.rules, i, node.no_pairing, (int)q);
            fired += node.no_pairing;
            fired_odd += node.no_pairing && (r.n & 1) && !pairing_breakable_may(&r, b);
        }
    }
    cr_log_info("%d positions x settings, the gate fired %d times, %d on odd boards by the witness slack", checked,
                fired, fired_odd);
    cr_expect_gt(checked, 20000);
    cr_expect_gt(fired_odd, 1000, "the witness slack never fired on an odd board");
}

/* ---- Chaos's moves at a four: kn_node's list is the safe moves ---- */

/* The engine's cell of the reference's cell i on an n x n board, found
 * through the notation (tl_board) rather than assumed. */
static int engine_cell(int n, int i)
{
    RefPos p;
    p.n = n;
    p.k = 3;
    p.rules = REF_ORIGINAL;
    for (int j = 0; j < n * n; j++) p.cell[j] = j == i ? 'X' : '.';
    Board b = tl_board(&p);
    return __builtin_ctzll(b.s[PIECE_X]);
}

/* Whether Chaos's move (sym on ref cell i) is safe by the reference's own
 * rules: it does not end the game for Order, and either ends it for Chaos
 * or leaves Order no move that completes a line. */
static bool ref_safe(const RefPos *p, char sym, int i)
{
    RefPos q = *p;
    q.cell[i] = sym;
    int st = ref_status_after(&q, i);
    if (st != REF_ONGOING) return st == REF_CHAOS_WINS;
    char syms[2];
    int cells[2];
    return ref_winning_moves(&q, syms, cells, 2) == 0;
}

/* Random positions with Chaos to move and a four standing, under original
 * and exact (exact-end has no fours before the last cell), n 4-8, k 3..n:
 * kn_node (threats on, dead cells on and off) lists exactly the moves the
 * reference finds safe by playing each, and decides the node for Order
 * exactly when there is none. Why: kn_node tries only the moves that spoil
 * every four (four_spoilers), an argument; this holds it against the
 * tests' own rules, which know nothing of spoilers. */
Test(knowledge, chaos_moves_at_a_four_are_the_safe_ones)
{
    uint64_t rng = 977;
    int checked = 0, with_ends = 0, none_safe = 0;
    for (int t = 0; t < 60000 && checked < 6000; t++) {
        int n = 4 + tl_below(&rng, 5), k = 3 + tl_below(&rng, n - 2), rules = tl_below(&rng, 2);
        RefPos p;
        int fill = 25 + tl_below(&rng, 25);
        tl_random_any(&p, n, k, rules, fill, fill, &rng);
        int pieces = 0;
        for (int i = 0; i < n * n; i++) pieces += p.cell[i] != '.';
        char syms[2];
        int cells[2];
        if ((pieces & 1) == 0 || ref_status(&p) != REF_ONGOING || ref_winning_moves(&p, syms, cells, 2) == 0) continue;
        Rules r;
        tl_init_rules(&r, &p);
        Board b = tl_board(&p);
        char str[65];
        ref_format(&p, str);
        uint64_t want[2] = {0, 0};
        for (int i = 0; i < n * n; i++)
            for (int s = 0; s < 2 && p.cell[i] == '.'; s++)
                if (ref_safe(&p, "XO"[s], i)) want[s] |= 1ULL << engine_cell(n, i);
        for (int dead = 0; dead < 2; dead++) {
            Knowledge kn = dfpn_default_config().kn;
            kn.dead_cells = dead;
            KnNode node;
            kn_node(&r, &kn, b, &node);
            if ((want[0] | want[1]) == 0) {
                cr_assert_eq(node.value, WINNER_ORDER, "%dx%d k=%d rules %d %s: no safe move, kn_node value %d", n, n, k,
                             rules, str, node.value);
                continue;
            }
            cr_assert_eq(node.value, WINNER_NONE, "%dx%d k=%d rules %d %s: value %d", n, n, k, rules, str, node.value);
            cr_assert(node.moves[0] == want[0] && node.moves[1] == want[1] && node.tempo == 0,
                      "%dx%d k=%d rules %d %s: kn_node %llx/%llx tempo %d, safe %llx/%llx", n, n, k, rules, str,
                      (unsigned long long)node.moves[0], (unsigned long long)node.moves[1], node.tempo,
                      (unsigned long long)want[0], (unsigned long long)want[1]);
        }
        checked++;
        none_safe += (want[0] | want[1]) == 0;
        /* a safe move with the four's own symbol: an end spoiled (exact) */
        with_ends += rules == REF_EXACT && (want[0] | want[1]) != 0 && ref_winning_moves(&p, syms, cells, 1) == 1 &&
                     ((syms[0] == 'X' && want[0]) || (syms[0] == 'O' && want[1]));
    }
    cr_log_info("%d positions with a four, %d with no safe move, %d exact ones defended on an end", checked, none_safe,
                with_ends);
    cr_expect_geq(checked, 6000);
    cr_expect_gt(none_safe, 100);
    cr_expect_gt(with_ends, 100);
}
