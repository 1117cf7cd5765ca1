/* pairing.h - Chaos's pairing strategies: a Chaos win without search.
 *
 * A pairing is a set of disjoint pairs of empty cells, each of one kind:
 *   opposite ('~'): Chaos answers Order's S on one cell with the other
 *                   symbol on the other cell;
 *   same     ('='): Chaos answers with the same symbol (exact-end only).
 * Every other Order move (on a cell in no pair, a "free" cell) Chaos
 * answers on another free cell, with either symbol.
 *
 * Coverage. A window w is live when a winning run can still be made in it
 * (knowledge.h: no opposite symbol in w and, under exact and exact-end, no
 * S on its ends, for S = X or O). A pairing covers w when
 *   - an opposite pair lies wholly inside w: once filled, w holds both
 *     symbols and is dead for ever; or
 *   - a same pair {u, v} has u in w and v on an end of w: once filled, if
 *     w ends up all S then u is S, so v is S, and the run through w is
 *     longer than k.
 * A pairing is a Chaos win when it covers every live window and the parity
 * holds (below).
 *
 * Why it wins. Pair cells are filled two at a time, Order's move and
 * Chaos's answer, so a pair is never half filled at Order's turn, and at
 * the end every pair holds what its kind says. Then on the full board:
 * a window covered by an opposite pair holds both symbols; a window w
 * covered by a same pair {u, v} that is all S has S on its end v, so it is
 * no run of exactly k; a window dead now stays dead (pieces only add: an
 * opposite symbol inside stays, an S on an end stays). So no window is a
 * winning line on the full board.
 *   Under exact-end lines are judged on the full board only, so that is a
 *   Chaos win for both kinds.
 *   Under original and exact only opposite pairs are allowed. A window
 *   covered by one keeps both pair cells empty until the pair is filled,
 *   and then it is dead: it is never complete, so no line ever stands and
 *   Chaos wins when the board is full. A same pair is not enough: under
 *   exact Order's S on u can complete w (a run of exactly k, won at once,
 *   before Chaos fills v), and under original a run longer than k wins
 *   anyway.
 * Parity: Chaos must always have a free cell to answer a free-cell move.
 * The number of free cells (empty cells minus twice the pairs) has the
 * parity of the number of empty cells; it drops by two per exchange. If it
 * is even at Order's turn, Order's free move leaves an odd number, at
 * least one, for Chaos. So the condition is: the number of empty cells is
 * even with Order to move, or odd with Chaos to move (Chaos first plays a
 * free cell, which exists since the number is odd). On an even board that
 * is every position; on an odd one none, and only the breakable form
 * below can apply. (With
 * the wrong parity Order can play the last free cell and force Chaos to
 * break a pair; tests/test_pairing.c shows positions where that wins.)
 *
 * Breakable pairings (odd boards; issues 34 and 37). On an odd board the
 * parity above never holds: Order can always take the last free cell and
 * make Chaos move into a pair. A pairing still wins, whoever is to move
 * and with no parity, when Chaos can afford that move, that is when every
 * pair is breakable. Call the window w "live for S" when it holds no
 * opposite symbol and (exact, exact-end) no S on its ends, knowledge.h's
 * per-symbol liveness. An opposite pair p = {a, b} of empty cells is
 * breakable when every live window holding both a and b is live for one
 * symbol only, the same symbol s_p for all of them (a pair covering no
 * live window is breakable too). The lemma: if the position is ongoing,
 * the pairs are opposite, disjoint and empty, every live window holds
 * some pair, and every pair is breakable, then Chaos wins.
 *   Strategy. A pair is intact while both its cells are empty. Order plays
 *   in an intact pair: Chaos plays the other symbol on its partner. Else
 *   (a free cell; or Chaos moves first): Chaos plays any empty cell in no
 *   intact pair, with either symbol, if there is one; if not, the board is
 *   not full (the game goes on), so some pair q is intact, and Chaos
 *   "breaks" it: opposite(s_q) on one of its cells. Its partner becomes a
 *   free cell. Chaos always has its move.
 *   Invariants, in every position but the one just after Order's move
 *   in an intact pair (before Chaos's answer): (i) every
 *   intact pair is breakable, with the same s_q: liveness for each symbol
 *   only shrinks as pieces are added, so a window live for s_q only stays
 *   so or dies, and a dead window stays dead; (ii) every window live now
 *   holds an intact pair. (ii) holds at the start; a window live now was
 *   live at the start, so it held a pair p then, and p is intact: had
 *   Order and Chaos filled it, the window would hold X and O; had Chaos
 *   broken it, the window, live then, was live for s_p only and got
 *   opposite(s_p); dead either way.
 *   No line is ever won. A win needs a window w that the move fills with
 *   S (or, under exact-end, full of S on the full board) while it was live
 *   for S just before: a run of k or more contains a window full of S
 *   without the other symbol, a run of exactly k also has no S on its
 *   ends, pieces only add, and a window full of S before the move would
 *   have ended the game already (exact-end: see below). Before Order's
 *   move, a free move or a breaking move, a live w holds an intact pair,
 *   two empty cells, and one move fills at most one: w is not full after
 *   it. Chaos's answer on b, partner of Order's a: a window live then and
 *   holding b either holds a too, and gets X and O, or it did not hold
 *   the pair {a, b} and so holds another intact pair (before Order's move
 *   it held one; Order played in {a, b}), which stays empty. Under
 *   exact-end, on the full board every pair has been filled or broken, so
 *   by (ii) no window is live: no run of exactly k stands. Under original
 *   and exact nothing is won on the way, and the full board is Chaos's.
 *   The break move may land in windows held by other pairs: it only adds a
 *   piece to them, which keeps (i) and (ii) (their pairs are untouched).
 *   Same pairs are never breakable (they need Chaos's same answer on an
 *   end, and breaking would leave the window's inside open), so a pairing
 *   with same pairs takes the classic parity only.
 *   The mixed form (some pairs breakable, some not, wrong parity) is not
 *   sound by this argument and is not used: the number of free cells at
 *   Order's turn keeps the parity of the empty cells (Order's free move and
 *   Chaos's free or breaking move each change it by one, an exchange in a
 *   pair by none), so it is odd at every Order turn of an odd board; Order
 *   can play into the breakable pairs (Chaos must answer there, or leave
 *   their windows to two of Order's moves) until none is left, then take
 *   the last free cell, and Chaos must move into a pair that is not
 *   breakable, opening a window live for both symbols.
 *   On an even board every position has the parity, and a breakable
 *   pairing is a classic one, so the form is looked for on odd boards only
 *   (where pairing_parity fails).
 *   Witnesses (2026-12-05; the verifier's own argument is in
 *   verify/verify_pairing.h). An opposite pair that is not breakable as
 *   above may still be taken when it has a witness: an empty cell in no
 *   pair that lies in every live window holding both its cells. The
 *   strategy is the same. Chaos breaks a pair only when no empty cell
 *   outside the intact pairs is left; a witness is such a cell from the
 *   start, so at every break every witness is filled, with X or O, say T.
 *   A window live at the break that holds both cells of the pair was live
 *   at the start (pieces only add), so it holds the witness, hence T, and
 *   is live for T only: the pair is breakable at that moment with s = T,
 *   which is all the argument uses of a pair Chaos breaks (invariant (i)
 *   is needed only there). No parity is used. A window may now be live for
 *   both symbols, so pairing_breakable_may's first test does not apply:
 *   the search with witnesses (pairing_search_with) skips it, and costs a
 *   real search where the plain one fails at once. It decides the empty
 *   7x7 board with k = 7, where every line is live for both symbols: 16
 *   pairs, one in each line, each line keeping an empty cell outside the
 *   pairs (results/claims/odd-pairing.md). The search's nodes look for it
 *   too where pairing_breakable_may fails, behind its own lines gate
 *   (pairing_witness_lines_may, below; knowledge.h).
 *
 * Two searches for a pairing, both sound: a found pairing is checked above;
 * not finding one (budget spent, or none exists) proves nothing.
 *   pairing_opposite: opposite pairs only, the search knowledge.c has used
 *     for original and exact since the first wave (windows most
 *     constrained first, in a fixed order); it returns no pairs.
 *   pairing_find: both kinds where the rule set allows them, choosing at
 *     each step the open window with the fewest ways to be covered and
 *     trying first the pairs that cover most open windows; it returns the
 *     pairs, for certificates ('POSITION lemma pairing ...').
 * Measured worth: under original, results/solve/heuristics.md (--pairing 0 costs
 * 753x the nodes on bench/suite-original.txt); under exact-end,
 * results/solve/pairing-exact-end.md (42 random positions with 12-28 empty
 * cells: 40 decided in 2.6 M nodes, against 29 in 39.7 M without
 * pairing); the empty 6x6 board under
 * exact-end has an 18-pair pairing (found within 160 steps), so it
 * is a Chaos win with no search. The breakable form (results/claims/
 * odd-pairing.md): 54 random 5x5 k=5 positions with 16-20 empty cells
 * (18 a rule set) took 45 K nodes with it against 44.6 M without (1 000x;
 * 54 decided against 49 in 60 s each, the 5 others counted to their stop);
 * the empty 5x5 board with k = 5,
 * undecided after 600 s (171 M nodes, original) and 2 x 2 400 s of
 * job-level search before, is a Chaos win under all three rule sets in
 * 2-3.4 M nodes (10-57 s on two threads, load average 6-10).
 */
#ifndef OCS_PAIRING_H
#define OCS_PAIRING_H

#include "../engine/rules.h"

enum { PAIRING_MAX = 32 }; /* at most 64 cells: 32 disjoint pairs */

typedef struct {
    uint8_t a, b; /* cells */
    bool same;    /* kind: '=' (true) or '~' */
} PairingPair;

typedef struct {
    int n;
    PairingPair p[PAIRING_MAX];
} PairSet;

/* Are the live windows (their empty cells, live[0..n)) coverable by
 * opposite pairs within budget steps? */
bool pairing_opposite(const uint64_t *live, int n, int budget);

/* Does the side to move in b allow a pairing (the parity above)? */
static inline bool pairing_parity(const Rules *r, Board b)
{
    int empty = __builtin_popcountll(r->cells & ~board_occupied(b));
    return board_order_to_move(b) == !(empty & 1);
}

/* Can the breakable form hold at all in b: is no window live for both
 * symbols (no piece in it, nor under exact and exact-end on its ends)? A
 * few mask tests, for callers to skip the dearer work around a search
 * (on odd boards most positions fail here). */
bool pairing_breakable_may(const Rules *r, Board b);

/* The lines gate: a count that shows most positions of boards with many
 * short lines (6x6 k = 4: 54 windows on 22 lines) to have no pairing.
 *   Every pair that covers a window lies on that window's line: an
 *   opposite pair inside it, a same pair with one cell in it and the other
 *   on one of its ends, which are on the line too. Two distinct cells lie
 *   on at most one common line (one direction, one line of it). So a
 *   pairing covering every live window, of any form (classic, with same
 *   pairs or not, or breakable: each covers every live window), holds for
 *   each line with a live window a pair on that line, a different pair for
 *   each such line; its pairs are disjoint pairs of empty cells, so
 *       2 x (lines holding a live window) <= empty cells.
 * pairing_lines_may is false when that fails: then there is no pairing at
 * all, and pairing_search (any budget), pairing_opposite and the
 * exhaustive searches of tests/test_pairing.c find none. So the gate
 * changes no answer of any pairing search, only its time: a search that
 * gives up after its budget gives up here at once. (A line is counted by
 * any live window on it, whichever symbol it is live for.) With
 * 2 x nlines <= empty cells (6x6 k = 5: 18 lines, 36 cells) it can never
 * fail and returns true before the scan.
 * Measured worth (results/solve/exact-end-k4.md): under exact-end on 6x6
 * k = 4, where pairing_find ran at every node with 256 steps and failed
 * almost always (72 % of the time), the gate alone makes solves 4.3-4.5x
 * faster with the same nodes; with kn_secured's fix, 3.3-11x (15x the
 * nodes/s from the empty board, 13x at the job level); 5x5 k = 4 1.7-2.4x,
 * 6x6 k = 5 exact-end 1.3-3.3x. */
bool pairing_lines_may(const Rules *r, Board b);

/* The lines gate for the breakable form with witnesses (odd boards, where
 * pairing_breakable_may fails). Besides one pair on each line with a live
 * window (above), such a pairing needs witnesses: a window live for both
 * symbols holds the pair that covers it, so that pair is not breakable
 * and needs a witness, an empty cell in no pair inside that window, on
 * its line. A cell lies on at most four lines (one a direction), so with
 * L lines holding a live window and L2 of them one live for both symbols,
 *     2 x L + ceil(L2 / 4) <= empty cells.
 * False when that fails: then no pairing of the form exists, and the
 * search with witnesses need not run. It holds wherever the form holds,
 * so it changes no answer, only the time. On 7x7 k = 6 (20 lines) it
 * leaves at most 4 pieces with every line live both ways, against 9 for
 * the plain gate.
 * pairing_witness_slack gives the margin, empty cells - (2 x L +
 * ceil(L2 / 4)): negative when the gate fails. The search's nodes ask for
 * more than 0 (Knowledge.pairing_witness_slack, a heuristic). */
int pairing_witness_slack(const Rules *r, Board b);

/* The margin itself, for a caller that has the lines (RulesScan.live_lines
 * and both_lines) and the number of empty cells. */
static inline int pairing_witness_margin(uint64_t lines, uint64_t both, int empty)
{
    return empty - (2 * __builtin_popcountll(lines) + (__builtin_popcountll(both) + 3) / 4);
}
static inline bool pairing_witness_lines_may(const Rules *r, Board b) { return pairing_witness_slack(r, b) >= 0; }

/* The count itself, for a caller that has the lines (RulesScan.live_lines)
 * and the number of empty cells. */
static inline bool pairing_lines_enough(uint64_t lines, int empty) { return 2 * __builtin_popcountll(lines) <= empty; }

/* The search behind pairing_find, without the lines gate; with witnesses
 * or not (below). Without witnesses and without parity it finds nothing
 * where pairing_breakable_may fails, but does not ask it first: the
 * search's nodes (knowledge.c) have asked already, and most odd-board
 * positions fail that first test at once. */
bool pairing_search_with(const Rules *r, Board b, int budget, bool witnesses, PairSet *out);

/* pairing_search_with without witnesses, after pairing_breakable_may
 * where there is no parity: for tests (the gate's with/without
 * comparison) and for callers that asked the lines gate already. */
bool pairing_search(const Rules *r, Board b, int budget, PairSet *out);

/* A pairing for the ongoing position b, within budget steps (after the
 * lines gate above): true and the pairs in out (when out is not NULL), or
 * false. Where the parity holds,
 * the classic form (same pairs only under exact-end); where it fails (odd
 * boards), the breakable form: opposite pairs only, each breakable or
 * with a witness, found by the same search over those pairs alone. For
 * roots and certificates: with witnesses there is no cheap first test. At
 * most 64 live windows (false with more). */
bool pairing_find(const Rules *r, Board b, int budget, PairSet *out);

/* Is ps a pairing for b: disjoint empty cells on the board, every live
 * window covered, and either the classic form (kinds the rules allow, the
 * parity) or the breakable form (opposite pairs only, each breakable or
 * with a witness; any side to move)? The plain check, for tests and for
 * the proof writer's own assertion. */
bool pairing_holds(const Rules *r, Board b, const PairSet *ps);

#endif
