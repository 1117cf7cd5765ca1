/* verify_pairing.h - the pairing lemma (a Chaos win), checked by the
 * verifier on its own: no code shared with the solver; the same plain style
 * as verify_rules.h (cell arrays cells[r * n + c] of VR_EMPTY, VR_X, VR_O).
 * Only the notation's cell parser (engine/notation.h) is borrowed, to read
 * the pairs.
 *
 * A pairing is a set of disjoint pairs of cells, each of one of two kinds:
 *   '~' opposite: Chaos answers a move on one cell with the other symbol
 *       on the other cell;
 *   '=' same: Chaos answers with the same symbol on the other cell.
 * Windows: k consecutive cells of a row, a column or a diagonal; the ends of
 * a window are the on-board cells just before and just after it on the same
 * line (0, 1 or 2 of them). A window w can still win for symbol S when no
 * cell of w holds the other symbol and, under exact and exact-end only, no
 * end of w holds S; w is live when it can still win for X or for O. A '~'
 * pair covers w when both its cells are in w; a '=' pair covers w when one
 * of its cells is in w and the other is an end of w.
 *
 * The lemma: Chaos wins a position (either side to move) when
 *   1. the certificate claims Chaos;
 *   2. the position has not already ended (vr_status says ongoing);
 *   3. '=' pairs appear only under exact-end;
 *   4. both cells of every pair are empty;
 *   5. parity: with E empty cells, Order is to move and E is even, or
 *      Chaos is to move and E is odd (Order is to move iff the number of
 *      pieces is even; so this holds on every even board and on no odd one);
 *      or, instead, every pair is breakable (below);
 *   6. every live window is covered by a pair.
 * A pair is breakable when it is '~' and every live window holding both its
 * cells can still win for one symbol only, the same symbol S for all of
 * them (a pair in no live window is breakable); or when it is '~' and has
 * a witness: an empty cell outside every pair that lies in every live
 * window holding both its cells. The line has one syntax for all the
 * forms; the verifier decides which condition holds.
 *
 * Why the breakable form holds, with either side to move and no parity.
 * A pair is intact while both its cells are empty. Chaos's strategy: when
 * Order plays on a cell of an intact pair, Chaos plays the other symbol on
 * the other cell; otherwise (Order played elsewhere, or Chaos moves first)
 * Chaos plays any empty cell outside the intact pairs, or, if there is
 * none, breaks an intact pair: the symbol other than its S on one of its
 * cells (the board is not full, since the game goes on, so an intact pair
 * is there). A window that can win for S only can afterwards win for S
 * only or for nobody (pieces only add), so an intact pair stays breakable
 * with the same S. Every window that can still win holds an intact pair
 * (but between Order's move in a pair and Chaos's answer): it could win at
 * the start, so it held a pair then; had that pair been filled by Order
 * and Chaos, the window would hold X and O; had Chaos broken it, the
 * window, winnable then for S only, would hold the other symbol inside.
 * A winning line needs a window that could win for S just before the move
 * that fills it with S (original, exact), or a window full of S that can
 * win for S on the full board (exact-end). The first never happens: before
 * Order's move, or a free or breaking move of Chaos, such a window holds an
 * intact pair, two empty cells, and one move fills one at most; Chaos's
 * answer on the partner b of Order's a fills a window that holds b and a
 * with X and O, and a window that holds b but not a held another intact
 * pair, still empty. The second never happens: on the full board no pair is
 * intact, so no window can still win.
 *
 * Why a witness is as good (2026-12-05). Chaos breaks a pair only when no
 * empty cell outside the intact pairs is left, and a witness is such a cell
 * from the start (it is in no pair), so at every break every witness is
 * filled, with X or O, say T. A window that holds both cells of a pair and
 * can still win could win at the start too (pieces only add), so it holds
 * that pair's witness, hence T, and can win for T only: at the break the
 * pair is breakable in the first sense, with S = T, which is all the
 * argument above uses of a pair it breaks (that every live window holding
 * both its cells can win for S only at that moment). No parity is used.
 *
 * Why the classic form holds. Chaos's strategy: when Order plays on a cell
 * of a pair, Chaos at once fills the other cell of the pair ('~' with the other
 * symbol, '=' with the same one); when Order plays on a cell outside every
 * pair (a free cell), Chaos plays on another free cell, anything. Parity
 * makes this possible: if Chaos moves first it plays one free cell (E is odd
 * and the pairs hold an even number of cells, so one exists); from then on,
 * at Order's turn every pair is empty or full and the number of free empty
 * cells is even, so after Order takes one there is one left for Chaos.
 * Now take any window w. If w was dead in the lemma's position it stays
 * dead: it holds both symbols for good, or (exact rule sets) the symbol S
 * on an end, and a run of S through w then continues onto that end and is
 * longer than k. If w was live, it is covered: by a '~' pair, whose two
 * cells in w end up holding X and O (and while only one is filled, the
 * other is empty), so w never holds k like symbols; or by a '=' pair, with
 * one cell in w and the other an end of w: once both are filled they hold
 * the same symbol, so if w is all S its end holds S too and the run is
 * longer than k. Under exact-end lines are judged only on the full board,
 * where every pair is full, so no run of exactly k stands and Chaos wins.
 * Under original and exact lines count the moment they appear, and '~'
 * pairs alone suffice: a window holding k like symbols (a run of exactly k,
 * or of k or more) needs a covered live window all of one symbol, which
 * never happens. A '=' pair is not enough there: Order plays S on the cell
 * inside w completing k in a row while the end is still empty, and the
 * exact-k run counts at once, before Chaos fills the end; under original a
 * run longer than k counts anyway. Hence condition 3.
 */
#ifndef OCS_VERIFY_PAIRING_H
#define OCS_VERIFY_PAIRING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "verify_centre.h"
#include "verify_rules.h"

enum { VR_MAX_PAIRS = VR_MAX_CELLS / 2 };

typedef struct {
    uint8_t a, b; /* the two cells, r * n + c */
    bool same;    /* '=' (Chaos answers with the same symbol); false: '~' */
} VrPair;

/* The pair words of a lemma line (count of them, count <= VR_MAX_PAIRS) on
 * an n x n board, each CELL ':' CELL then '~' or '=' ("c1:c6~"), into
 * pairs[0..count-1]. 0, or -1 with one line in err (no newline) naming the
 * word: not of that form, a cell off the board, the same cell twice in a
 * pair, or a cell in two pairs. */
int vr_pairs_parse(char *const *words, int count, int n, VrPair *pairs, char *err, size_t err_len);

/* "c1:c6~" for a pair on an n x n board; out holds at least 8 bytes. */
void vr_pair_format(int n, VrPair p, char *out);

/* The whole lemma (the conditions above) for the position cells of game g
 * with the given pairs (written in the position's own frame), the
 * certificate claiming Chaos (claim_chaos) or Order. 1: it holds. 0: it does
 * not; why gets one line (no position, no newline), e.g. "window c1-c5 is
 * not covered". Pairs that vr_pairs_parse would refuse (a cell off the
 * board, twice, or in two pairs) also give 0. */
int vr_pairing_lemma(const VrGame *g, bool claim_chaos, const uint8_t *cells, const VrPair *pairs, int npairs,
                     char *why, size_t why_len);

/* The ring lemma (solver/centre_ring.h states and argues it; this is the
 * verifier's own check), 'POSITION lemma ring A:B~ ...': Chaos wins a
 * position (either side to move) when
 *   1. the certificate claims Chaos; the rules are original or exact,
 *      k = n-1 and n = 4..6 (the small game's m = n-2 from 2 to 4);
 *   2. the position has not already ended;
 *   3. every pair is '~', its two cells empty ring cells (row 1 or n,
 *      column 1 or n), the pairs disjoint, and every empty ring cell is in
 *      a pair;
 *   4. parity as the pairing lemma's 5 (Order to move iff the number of
 *      empty cells is even);
 *   5. every window that can still win for X or O is covered by a pair or
 *      holds every cell of a small line (the centre's rows, columns and
 *      two diagonals); the symbols allowed on small line L are those that
 *      some window holding all of L can still win for;
 *   6. the restricted small game with those allowed symbols
 *      (verify_centre.h, vr_small_order_wins_budget; Order to move iff
 *      the centre's pieces are even) is a Chaos win.
 * 1: it holds; 0: it does not (why); -1: out of memory; -2: the small
 * game's search would pass budget (NULL: none). */
int vr_ring_lemma(const VrGame *g, bool claim_chaos, const uint8_t *cells, const VrPair *pairs, int npairs,
                  const VrLemmaBudget *budget, char *why, size_t why_len);

#endif
