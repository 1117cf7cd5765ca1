/* opening.c - the bench's opening tier: df-pn on positions two to six
 * plies from the empty board, where a node costs most (about 70 children
 * to canonicalise, test and probe, and a table too big for the caches).
 * One thread, the centre lemma off (it decides the centre openings without
 * search, and the tier measures search), a 1 GiB table (two-level, tt.h)
 * cleared before each position, no limit: the node counts, and so the
 * opening signature, are the same on every run and build. Every value must
 * equal the recorded one.
 *
 * Sources of the values:
 *   store     a position the pure search of the empty board decided and
 *             certified (results/search/search-original.md: its store and
 *             certificate, which `ocsolve verify` accepted from the empty
 *             board; every position a verified certificate covers has the
 *             value it claims), up to symmetry;
 *   line      a position on that certificate's lines (the winning move of
 *             a stored position played, or a position it lists);
 *   cert      certified on its own for this tier (ocsolve solve --no-centre
 *             --proof; the Chaos win's certificate ends in pairing lemma
 *             lines, which the verifier checks itself) and accepted by
 *             ocsolve verify: results/bench/bench-opening/ holds them.
 * Changing the list changes the opening signature (bench/signature.txt).
 */
#include "../engine/notation.h"
#include "../solver/clock.h"
#include "../solver/dfpn.h"
#include "../tables/errmsg.h"
#include "bench.h"

#include <string.h>

const BenchOpeningPos bench_opening_pos[] = {
    {"Xc3 Od4", WINNER_ORDER, "store"},
    {"Xc3 Ob2", WINNER_ORDER, "store"},
    {"Xc3 Oe3", WINNER_ORDER, "store"},
    {"Xc3 Od4 Xc2", WINNER_ORDER, "line"},
    {"Xc3 Od4 Oe4 Of6", WINNER_ORDER, "line"},
    {"Xc3 Od4 Oe4 Of6 Ob4", WINNER_ORDER, "line"},
    {"Xc3 Oa1 Xd4 Of6 Xb2", WINNER_CHAOS, "cert"},
    {"Xa1 Of1 Oa2 Xa3 Oc5 Xd6", WINNER_ORDER, "cert"},
    {"Od3 Oa4 Xb4 Of5 Ob6 Of6", WINNER_ORDER, "cert"},
};
const int bench_opening_count = (int)(sizeof bench_opening_pos / sizeof bench_opening_pos[0]);
_Static_assert(sizeof bench_opening_pos / sizeof bench_opening_pos[0] <= BENCH_MAX_OPENING, "raise BENCH_MAX_OPENING");

/* The position after `moves` from the empty board, which must be ongoing. */
static int play_moves(const Rules *r, const char *moves, Board *b, int *pieces, char *err, int errlen)
{
    *b = board_empty();
    *pieces = 0;
    char tok[8];
    for (const char *s = moves; *s;) {
        while (*s == ' ') s++;
        size_t n = strcspn(s, " ");
        if (n == 0) break;
        if (n >= sizeof tok) return errmsg_set(err, errlen, "opening workload: bad move in '%s'", moves);
        memcpy(tok, s, n);
        tok[n] = '\0';
        s += n;
        Move m;
        char msg[NOTATION_ERR_LEN];
        if (notation_parse_move(tok, r->n, &m, msg, sizeof msg) != 0)
            return errmsg_set(err, errlen, "opening workload: %s: %s", moves, msg);
        if (board_occupied(*b) >> move_cell(m) & 1)
            return errmsg_set(err, errlen, "opening workload: %s: %s is taken", moves, tok);
        board_place(b, m);
        ++*pieces;
    }
    if (rules_status(r, *b) != WINNER_NONE)
        return errmsg_set(err, errlen, "opening workload: %s is not an ongoing position", moves);
    return 0;
}

int bench_opening(BenchOpening *out, BenchOpeningEach each, void *arg, char *err, int errlen)
{
    *out = (BenchOpening){0};
    Rules r;
    if (rules_init(&r, BENCH_N, BENCH_K, RULES_ORIGINAL, err, errlen) != 0) return -1;
    TT tt;
    if (tt_init(&tt, BENCH_OPENING_TT_BYTES, false) != 0)
        return errmsg_set(err, errlen, "cannot allocate the %zu MiB table", BENCH_OPENING_TT_BYTES >> 20);
    DfpnConfig cfg = dfpn_default_config();
    cfg.kn.centre = false;
    int rc = 0;
    for (int i = 0; i < bench_opening_count && rc == 0; i++) {
        const BenchOpeningPos *p = &bench_opening_pos[i];
        Board b;
        int pieces;
        if ((rc = play_moves(&r, p->moves, &b, &pieces, err, errlen)) != 0) break;
        tt_clear(&tt);
        Dfpn d;
        dfpn_init(&d, &r, &cfg, &tt);
        uint32_t pn, dn;
        double t0 = clock_seconds();
        Winner v = dfpn_solve(&d, b, &pn, &dn);
        double dt = clock_seconds() - t0;
        if (v != p->value) {
            rc = errmsg_set(err, errlen, "opening: %s is a %s win, df-pn says %s", p->moves, winner_name(p->value),
                             winner_name(v));
            break;
        }
        int k = out->npos++;
        out->pos[k] = (BenchSolveFig){d.nodes, dt, v, __builtin_popcountll(r.cells & ~board_occupied(b))};
        out->pieces[k] = pieces;
        out->nodes += d.nodes;
        out->seconds += dt;
        if (each) each(arg, k, out);
    }
    tt_free(&tt);
    return rc;
}
