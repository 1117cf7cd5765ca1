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
