/* test_pairing_witness.c - the solver's search for pairings with witnesses
 * (solver/pairing.c pairing_search_with, the form the search's nodes use
 * on odd boards) against the tests' own definitions (tests/tpair.h):
 * every pairing it returns must be of the breakable form, each pair
 * breakable or with a witness outside every pair. Its budgets are those of
 * the search's nodes and larger; the exhaustive search (5x5) must also
 * find one wherever the solver's does. */
#include <criterion/criterion.h>

#include "tpair.h"
#include "testlib.h"

TestSuite(pairing_witness, .timeout = 600);

/* Pairs of t that are not breakable and so stand on a witness. */
static int witnessed(const RefPos *p, const TWindows *w, const TPairs *t)
{
    int c = 0;
    for (int j = 0; j < t->n; j++) c += !tp_breakable_pair(p, w, t->a[j], t->b[j]);
    return c;
}

Test(pairing_witness, found_pairings_hold)
{
    static const struct { int n, k, min_empty, max_empty, count; } cfg[] = {
        {5, 4, 6, 16, 1500}, {5, 5, 6, 18, 1500}, {7, 5, 20, 38, 600}, {7, 6, 20, 40, 1500}, {7, 7, 26, 44, 600}};
    static const int budget[] = {32, 64, 512};
    int found = 0, with_witness = 0;
    for (size_t c = 0; c < sizeof cfg / sizeof cfg[0]; c++)
        for (int rs = REF_ORIGINAL; rs <= REF_EXACT_END; rs++) {
            TWindows w;
            tp_windows(cfg[c].n, cfg[c].k, &w);
            uint64_t rng = 900 + 10 * c + (uint64_t)rs;
            int n2 = cfg[c].n * cfg[c].n;
            for (int t = 0; t < cfg[c].count; t++) {
                RefPos p;
                int empty = cfg[c].min_empty + tl_below(&rng, cfg[c].max_empty - cfg[c].min_empty + 1);
                if (tl_random_ongoing(&p, cfg[c].n, cfg[c].k, rs, n2 - empty, &rng) != 0) continue;
                Rules r;
                tl_init_rules(&r, &p);
                Board b = tl_board(&p);
                char str[65];
                ref_format(&p, str);
                for (size_t i = 0; i < sizeof budget / sizeof budget[0]; i++) {
                    PairSet ps;
                    if (!pairing_search_with(&r, b, budget[i], true, &ps)) continue;
                    TPairs tp = tp_from_set(&ps, cfg[c].n);
                    cr_assert(tp_breakable(&p, &w, &tp), "%s %dx%d k=%d rules %d budget %d: not of the breakable form",
                              str, cfg[c].n, cfg[c].n, cfg[c].k, rs, budget[i]);
                    found++;
                    with_witness += witnessed(&p, &w, &tp) > 0;
                }
            }
        }
    cr_log_info("%d pairings found, %d of them with a pair on a witness", found, with_witness);
    cr_expect_gt(with_witness, 500, "too few pairings on witnesses to test");
}
