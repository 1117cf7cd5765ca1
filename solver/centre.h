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
 * game's. (Its values: the small-game table, centre_small.c, computed by code on
 * first use; tests check it against a brute force and against df-pn.)
 *
 * A position is a centre-strategy win when every pair is either empty or
 * holds two different symbols, and the small game at its centre is an
 * Order win (and, since 2026-12-03, also with settled same pairs: below).
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
 * Settled pairs (2026-12-03). The strategy above needs no pair to be half
 * full; a pair holding two LIKE symbols (a "same" pair, S S) is settled
 * too: Chaos cannot play there, and Order never has to answer there. Its
 * line L can still win for one symbol: with S S on the ends and S on all
 * m centre cells the full line holds n = k+1 like S, a win under original
 * (k or more) but an overline under exact; and m of the other symbol in the
 * centre, bounded by S on both ends, is a run of only m = k-1. So the
 * small game is played with, for each line L, the symbols allowed to win
 * it: both when L's pair is empty or mixed; S alone when it is S S under
 * original; none under exact. The claim, generalised: if every pair is
 * empty, mixed or same (none half full) and this restricted small game is
 * an Order win, Order wins the big game. Proof: the strategy and the
 * invariants are as above (a Chaos ring move lands in an empty pair, and
 * Order's answer makes it mixed, which leaves its line's allowed symbols
 * as they were; same and mixed pairs are full, so Chaos never plays
 * there; same pairs hold two pieces, so the ring's count stays even). When
 * a centre line L becomes monochrome S with S allowed: pair mixed or empty
 * as above; pair S S (original only): n like S on the full line, k or more:
 * Order has won. QED. The small game with restrictions is the same game
 * with fewer winning lines for Order, computed by the same backward pass
 * (centre_small_win_allowed), one table per restriction met (on first use;
 * at most 64 kept, 5.4 MiB each for m = 4; past that the lemma claims
 * nothing for a new one, which is sound). It is what a ring opening needs:
 * after X a1, Chaos's X f6 (or a ring reply spoiling a second pair that
 * Order then settles) leaves the diagonal's pair X X, and the lemma no
 * longer has to wait for a mixed pair.
 *
 * Dead half pairs (2026-12-05). A small line is dead when its centre
 * cells hold both symbols: no run of k = n-1 can ever stand on its full
 * line (both windows of k on a line of n = k+1 cells contain all of its
 * centre), so its pair no longer matters. The claim, generalised again: if
 * every pair is empty, mixed or same, or half full with a dead line, the
 * half-full ones are even in number, and the restricted small game is an
 * Order win, Order wins the big game. Proof: let F be the empty cells of
 * the half-full pairs (one each, so |F| is even). Order plays as above,
 * and after a Chaos move on a cell of F, Order plays any symbol on another
 * cell of F (|F| was even, so one is left); a line that makes is Order's.
 * The ring then holds two pieces in each full pair and one in each
 * half-full pair, an even number, so the centre's count keeps the board's
 * parity (with an odd number of half-full pairs it would not: Order would
 * have to move twice somewhere, and tests/test_verify_centre.c finds Chaos
 * wins there). A dead line stays dead, never becomes monochrome, so which
 * symbols its pair would allow is moot (allowed both: no new restriction,
 * no new table). The finish is on a line that becomes monochrome, so not
 * dead, whose pair is empty, mixed or same as before; F's cells lie on
 * other pairs (each ring cell is in one pair), not on that full line, so
 * nothing Order plays in F lengthens its run past exactly k. QED. What it
 * is for: a ring opening spoils one pair and Chaos's ring reply another;
 * once Order has both symbols on both lines in the centre, both pairs are
 * free, and the lemma applies without a tempo spent repairing them.
 * Any pair on a dead line is read the same way (a same pair there
 * restricts nothing that can happen, so it needs no restricted table and
 * counts past CENTRE_SAME_MAX_PIECES). Measured worth (2026-12-05): the
 * bench signatures full 1 125 862 -> 1 052 056 nodes (-7 %), quick 51 556
 * -> 13 361 (-74 %), the opening tier unchanged (28 997 559, before the
 * dead same pairs); the ring suite: results/rings/README.md.
 *
 * Where the search uses it, and what it costs (measured 2026-12-03, one
 * thread, 512 MiB table, 30 s, the machine otherwise idle but for one
 * other search): a search meets many restrictions, one for each set of
 * same pairs, and each new one costs a table (0.6 s). Used at every
 * position, "X a1, X b1" met over 1 200 restrictions in 30 s and searched
 * 3.4 M nodes instead of 8.6 M; with at most 6 pieces on the board, 35
 * restrictions and 5.6 M nodes; with at most 4 (CENTRE_SAME_MAX_PIECES),
 * 3 restrictions and 8.4 M nodes, and "X a1, X f6" is decided at once (0
 * nodes; without same pairs still undecided after 20 s). So same pairs
 * count only up to 4 pieces: near the first move, where the top tree
 * works and where one restriction decides a whole branch. The bench's
 * positions (6 pieces and more) are unchanged (signatures 2 818 385 and
 * 72 692). Positions with at least DFS_PIECES pieces in the centre are
 * solved by a search instead of a table (centre_small.c); the search's gate
 * keeps them out of real searches today, the tests use them.
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
 * (results/search/solve-empty-600s.json). On the bench's 27 positions (6-pieces
 * and more, mostly far from the lemma's condition) it costs 7% nodes
 * (2 818 385 against 2 636 859 with --no-centre), nearly all on one
 * position whose search takes another path once some children are proven
 * statically (640 197 against 455 970 nodes); 24 positions are unchanged.
 * On the 101 positions of bench/suite-original.txt (14-24 empty cells) it
 * changes no node (19 133 either way, results/solve/heuristics.md): there fours
 * and pairings decide first. The table is built on first use, so a solve
 * that never meets the lemma's pair condition does not pay its 0.6 s.
 *
 * Where it applies: rules original or exact, k = n-1, n = 4..6 (m = 2..4:
 * the small-game table has 3^(m*m) positions, 43 M bits for m = 4; m = 5
 * would need 3^25). Elsewhere centre_win is always false.
 *
 * Every n (2026-12-04). The proof above never uses n = 6, nor any bound
 * on n; checked step by step for every n >= 4, k = n-1:
 *   - the pairs: the ring's 4(n-1) cells are the m centre rows' two ends,
 *     the m centre columns' two ends and the four corners, 2m + 2 =
 *     2(n-1) pairs, each cell in one; each small line's pair is the two
 *     ends of the one full line of n cells through it (a row, a column, a
 *     long diagonal), so both ends lie on the board's edge;
 *   - the finish: the runs made there are u + L, k = n-1 like S, held by
 *     the edge beyond u and by T or an empty v beyond the other end (a run
 *     of exactly k: it counts under original and under exact, no
 *     overline, since nothing lies beyond u), or u + L + v, n = k+1 like S
 *     between two edges (SAME-S, original only: k or more);
 *   - the parity: mixed and same pairs hold two pieces, empty ones none,
 *     so the ring's count is even and the centre's count has the board's
 *     parity, whatever n;
 *   - the small game: m x m with k = m, finite; its lines are exactly the
 *     2m + 2 rows, columns and long diagonals of the centre.
 * So the lemma holds for every n >= 4 with k = n-1 under original and
 * exact (not exact-end, as above). What n limits is deciding the small
 * game: the table for m <= 4 here, and for n = 7 and 8 (m = 5, 6) a
 * search of the small game as a game of its own (centre_small_game,
 * centre_solve.h), whose certificate the big one names with a line
 * 'POSITION lemma centre see FILE' (verify/verify_centre.h). That route
 * takes only positions whose pairs are all empty or mixed: then every line
 * allows both symbols and the restricted small game is the plain m x m
 * game with k = m, move for move (on an m x m board the windows of m are
 * exactly its rows, columns and long diagonals; a run of m can be neither
 * longer nor shorter, so original and exact judge it alike).
 */
#ifndef OCS_CENTRE_H
#define OCS_CENTRE_H

#include <stdatomic.h>

#include "../engine/rules.h"
#include "centre_small.h"

enum { CENTRE_MAX_PAIRS = 2 * (BOARD_MAX_N - 1) };

/* Same pairs are used at positions with at most this many pieces (the
 * lemma is sound at any; this is its price: measured in centre.h). */
enum { CENTRE_SAME_MAX_PIECES = 4 };


typedef struct {
    int n, m;            /* board size; centre side m = n-2 */
    bool on;             /* the lemma applies to these rules (above) */
    bool exact;          /* rules exact: a same pair's line wins for no symbol */
    bool ring;           /* the ring lemma, Chaos's counterpart (centre_ring.h), may be used:
                          * on and n even; Knowledge.no_ring (--no-ring) turns it off */
    int half_max_pieces; /* one or two half-full pairs (centre_half.h) up to this many pieces
                          * (CENTRE_HALF_MAX_PIECES; tests raise it) */
    int half_two_max_pieces; /* ... with two half-full pairs only up to this
                              * many pieces (0, centre_init's: never;
                              * centre_half.h says why it is off) */
    uint64_t half_bytes; /* half pairs: their tables' memory in bytes
                          * (centre_half_bytes_for; 0, centre_init's:
                          * CENTRE_HALF_MB MiB) */
    bool half_fill;      /* half pairs: each table filled whole on first use
                          * (centre_half.c half_fill; false, centre_init's:
                          * searched from each asked position) */
    bool half_plain;     /* half pairs: no symmetry reduction of their
                          * tables (centre_half.c half_canonical; tests
                          * compare the two) */
    int same_max_pieces; /* same pairs count up to this many pieces
                          * (CENTRE_SAME_MAX_PIECES; tests raise it) */
    uint64_t centre;     /* the centre cells */
    int npairs;          /* 2(n-1) */
    int pair[CENTRE_MAX_PAIRS][2]; /* the ring's pairs, as cells */
    uint64_t pair_mask[CENTRE_MAX_PAIRS];
    uint64_t line_mask[CENTRE_MAX_PAIRS]; /* the centre cells between pair p's ends: small line p */
    int8_t win_line[RULES_MAX_WINDOWS];   /* the small line window i of the Rules given to
                                           * centre_init holds whole, -1 none (the ring lemma's
                                           * guarded windows, centre_ring.h; on only) */
    /* Base-3 index of the centre (small-game position): digit 0 empty, 1 X,
     * 2 O; centre cell (i, j) is digit i*m + j. row_index[s][bits] is the
     * contribution of one centre row of symbol s with those m bits, before
     * scaling by 3^(m*i). */
    /* The m x m centre's own coordinates (centre cell i*m + j is board cell
     * (i+1, j+1)), for the half-pair tables (centre_half.c):
     * small_line[p] is line_mask[p] there; under symmetry s of the square
     * (bit 0 mirrors the rows, bit 1 the columns, bit 2 transposes) centre
     * cell i goes to sym_cell[s][i] and small line p to line sym_pair[s][p].
     * Computed once here, as the tables' symmetry reduction runs at every
     * lemma call. */
    uint32_t small_line[CENTRE_MAX_PAIRS];
    uint8_t sym_cell[8][(BOARD_MAX_N - 2) * (BOARD_MAX_N - 2)];
    int8_t sym_pair[8][CENTRE_MAX_PAIRS];
    uint32_t pow3_row[BOARD_MAX_N];
    uint32_t row_index[2][1 << (BOARD_MAX_N - 2)];
} Centre;

/* Computes the geometry for r (every field; `on` says whether the lemma
 * applies at all). */
void centre_init(Centre *c, const Rules *r);

/* The cell paired with `cell` on the ring; -1 when cell is in no pair. */
static inline int centre_partner(const Centre *c, int cell)
{
    for (int p = 0; p < c->npairs; p++) {
        if (c->pair[p][0] == cell) return c->pair[p][1];
        if (c->pair[p][1] == cell) return c->pair[p][0];
    }
    return -1;
}

/* The small game's position at b's centre, as a base-3 index. */
uint32_t centre_index(const Centre *c, Board b);

/* Is every pair empty or mixed? */
bool centre_pairs_ok(const Centre *c, Board b);

/* Is every pair settled (empty, mixed or same), or half full with its
 * small line dead (both symbols on it), with an even number half full?
 * Then *allowed gets each small-game line's winning symbols (above; a
 * dead line's are both, whatever its pair holds). */
bool centre_allowed(const Centre *c, Board b, uint32_t *allowed);

/* For n = 7 and 8 (no table: above, "Every n"): is b, under r (original
 * or exact, k = n-1), ongoing with every pair empty or mixed and an
 * ongoing small game at its centre? Then *sr gets the small game's rules
 * (m x m, k = m, the same rule set) and *sb its position (centre cell
 * (i, j) at (i-1, j-1)): Order wins b if Order wins *sb (above). */
bool centre_small_game(const Rules *r, Board b, Rules *sr, Board *sb);

/* Is b (ongoing) a centre-strategy win (above, settled pairs included)?
 * Always false when !c->on. With one or two half-full pairs too:
 * centre_win_with_half (centre_half.h). */
bool centre_win(const Centre *c, Board b);
/* centre_win, stopping a table's build when *stop is set or the clock
 * passes deadline (0: none; above). */
bool centre_win_stoppable(const Centre *c, Board b, const atomic_bool *stop, double deadline);

#endif
