/* centre.h - Order's centre strategy, as a lemma the search may use: a
 * static Order win, checked without search.
 *
 * Geometry (n x n board, k = n-1; computed by centre_init, never typed in):
 * the centre is the inner m x m square, m = n-2 (b2-e5 on 6x6); the ring
 * is the other 4(n-1) cells. The ring is split into 2(n-1) pairs, each the
 * two ends of one full line through the centre:
 *   for each centre row r (rows 2..n-1):     (a_r, last column _r)
 *   for each centre column c (b..):           (c1, c_n)
 *   the two long diagonals:                   (a1, f6) and (f1, a6)
 * Every ring cell lies in exactly one pair (the corners in the diagonal
 * pairs, the other ring cells in their row's or column's pair), and every
 * line of the small game (below) lies on exactly one full line of the big
 * board whose two ends are a pair.
 *
 * The small game: the centre taken as a game of its own on the m x m board
 * with k = m: Order wins as soon as one of its 2m+2 lines (rows, columns,
 * the two diagonals) holds m like symbols, Chaos when the centre is full
 * without one; either side places X or O; the side to move is the big
 * game's. (Its values: the small-game table, centre.c, computed by code on
 * first use; tests check it against a brute force and against df-pn.)
 *
 * A position is a centre-strategy win when every pair is either empty or
 * holds two different symbols, and the small game at its centre is an
 * Order win.
 *
 * Claim: under `original` and `exact` a centre-strategy win is an Order
 * win (of the big game).
 * Proof. Order plays this strategy: when Chaos has just played on a ring
 * cell whose partner is empty, Order plays the other symbol on the
 * partner; otherwise Order plays a winning move of the small game (or, once
 * a centre line is monochrome, completes it, below). Invariants: (i) every
 * pair is empty or mixed; (ii) the small game, with the big game's side to
 * move, is an Order win. Both hold at the start. A Chaos ring move lands in
 * an empty pair (by (i) no pair is half full), and Order's answer fills the
 * pair with two different symbols: (i) holds, the centre and the side to
 * move are as before, so (ii) holds. A Chaos centre move is a small-game
 * move from an Order-win position with Chaos to move, so the small game
 * stays an Order win with Order to move, and Order's small-game winning
 * move keeps (ii). Since ring pieces come in mixed pairs, their number is
 * even, so the parity of the centre's pieces is the parity of the board's:
 * the small game's side to move is the one its own piece count gives.
 * The small game is finite and by (ii) never ends in a Chaos win, so
 * some centre line L becomes monochrome, say all S, at the latest when the
 * centre fills; until then the board is not full, so Chaos has not won
 * (and a line that counts anywhere else is Order's win already). L's full
 * line is L plus its pair (u, v): n = k+1 cells.
 *   - Pair mixed: exactly one of u, v holds S, the other the other symbol:
 *     a run of exactly k = n-1 of S stands (k cells of S, bounded by the
 *     other symbol on one side and the board's edge on the other). Under
 *     original (k or more) and exact (exactly k) alike, Order has won.
 *   - Pair empty, Order to move: S on u gives a run of exactly k (v is
 *     empty): Order wins on this move.
 *   - Pair empty, Chaos to move: if Chaos plays on u or v, with S it
 *     completes the run itself (Order wins, whoever placed it), with the
 *     other symbol Order answers S on the partner (mixed pair: above);
 *     anywhere else, Order plays S on u. Order wins within two plies.
 * Lines are judged at once under original and exact, so the first run
 * that counts ends the game in Order's favour. QED.
 *
 * Why it fails under exact-end (lines judged only on the full board): the
 * last case analysis needs the game to end when the run of exactly k
 * appears. With the pair empty and Order to move, S on u makes a run of k
 * that does not count yet; Chaos answers S on v, and the full line of n = k+1
 * like symbols is an overline, which never counts under exact-end. Order
 * may wait instead, but then which side must first play into the pair is a
 * matter of the parity of the other free cells, which the lemma does not
 * control. (With the pair mixed the run of exactly k is permanent: only the
 * empty-pair case fails, and only under exact-end.) So the lemma is off
 * under exact-end.
 *
 * Measured worth (one thread, 64 MiB table): the empty 6x6 board under
 * original and exact is decided at once (0 nodes; the small-game table
 * takes 0.5 s to build), where pure df-pn is undecided after 10 minutes
 * (results/solve-empty-600s.json). On the bench's 27 positions (6-pieces
 * and more, mostly far from the lemma's condition) it costs 7% nodes
 * (2 818 385 against 2 636 859 with --no-centre), nearly all on one
 * position whose search takes another path once some children are proven
 * statically (640 197 against 455 970 nodes); 24 positions are unchanged.
 * On the 101 positions of bench/suite-original.txt (14-24 empty cells) it
 * changes no node (19 133 either way, results/heuristics.md): there fours
 * and pairings decide first. The table is built on first use, so a solve
 * that never meets the lemma's pair condition does not pay its 0.6 s.
 *
 * Where it applies: rules original or exact, k = n-1, n = 4..6 (m = 2..4:
 * the small-game table has 3^(m*m) positions, 43 M bits for m = 4; m = 5
 * would need 3^25). Elsewhere centre_win is always false.
 */
#ifndef OCS_CENTRE_H
#define OCS_CENTRE_H

#include "../engine/rules.h"

enum { CENTRE_MAX_PAIRS = 2 * (BOARD_MAX_N - 1) };

typedef struct {
    int n, m;            /* board size; centre side m = n-2 */
    bool on;             /* the lemma applies to these rules (above) */
    uint64_t centre;     /* the centre cells */
    int npairs;          /* 2(n-1) */
    int pair[CENTRE_MAX_PAIRS][2]; /* the ring's pairs, as cells */
    uint64_t pair_mask[CENTRE_MAX_PAIRS];
    /* Base-3 index of the centre (small-game position): digit 0 empty, 1 X,
     * 2 O; centre cell (i, j) is digit i*m + j. row_index[s][bits] is the
     * contribution of one centre row of symbol s with those m bits, before
     * scaling by 3^(m*i). */
    uint32_t pow3_row[BOARD_MAX_N];
    uint32_t row_index[2][1 << (BOARD_MAX_N - 2)];
} Centre;

/* Computes the geometry for r (every field; `on` says whether the lemma
 * applies at all). */
void centre_init(Centre *c, const Rules *r);

/* The small game's position at b's centre, as a base-3 index. */
uint32_t centre_index(const Centre *c, Board b);

/* Is the small game at index idx (m x m, side to move from its piece count)
 * an Order win? Computes the table of all 3^(m*m) positions on first use
 * (thread-safe; about 0.6 s for m = 4). */
bool centre_small_win(int m, uint32_t idx);

/* Is every pair empty or mixed? */
bool centre_pairs_ok(const Centre *c, Board b);

/* Is b (ongoing) a centre-strategy win (above)? Always false when !c->on. */
bool centre_win(const Centre *c, Board b);

#endif
