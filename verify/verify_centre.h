/* verify_centre.h - the centre strategy lemma, checked by the verifier on
 * its own (no code shared with the solver; same plain style as
 * verify_rules.h: cell arrays cells[r * n + c] of VR_EMPTY, VR_X, VR_O).
 *
 * Geometry. On the n x n board (n = 4, 5 or 6) the centre is the inner
 * m x m square, m = n-2; the ring is every other cell. The small game's
 * 2m+2 lines are the centre's m rows, m columns and two diagonals, m cells
 * each. Each lies on exactly one full line of n cells of the big board
 * (the centre line and one cell beyond each of its ends), and those two
 * end cells are its ring pair:
 *   small row r      (r,0)..(r,m-1)     pair (r+1,0)   and (r+1,n-1)
 *   small column c   (0,c)..(m-1,c)     pair (0,c+1)   and (n-1,c+1)
 *   small diagonal   (i,i)              pair (0,0)     and (n-1,n-1)
 *   small anti-diag. (i,m-1-i)          pair (0,n-1)   and (n-1,0)
 * The code derives each pair by stepping one cell beyond the ends of the
 * centre line (nothing is typed in). The 2(n-1) pairs split the ring:
 * 4(n-1) distinct cells, the corners in the diagonal pairs.
 *
 * A pair is EMPTY (both cells empty), MIXED (X and O), SAME-S (S and S) or
 * HALF (one piece, one empty cell). For a centre line L with pair P(L) the
 * symbols allowed to win on it are:
 *   P(L) EMPTY or MIXED:  {X, O}
 *   P(L) SAME-S:          {S} under original; {} under exact.
 * (Under original m like S in L plus the two S ends are n = k+1 like S,
 * "k or more"; the other symbol T's m in L is held by S on both sides, a
 * run of m = k-1. Under exact the n like S are an overline, which never
 * counts, and T's run is still k-1: nothing on L can count.)
 *
 * The restricted small game: the centre as a game of its own; either side
 * puts X or O on an empty centre cell; Order wins as soon as some line L
 * holds m like symbols S with S allowed on L; Chaos wins when the centre
 * is full without that. Order moves iff the centre's piece count is even.
 *
 * The lemma. Under rules original or exact (not exact-end), k = n-1,
 * n = 4..6: if no pair is HALF and the restricted small game at the
 * centre is an Order win, Order wins the big position. (HALF pairs:
 * dead ones in even numbers, and one or two of any kind, below.)
 *
 * Proof. Since no pair is HALF, every pair holds 0 or 2 pieces, so the
 * ring's piece count is even and the centre's count has the big board's
 * parity: the small game's side to move is the big game's (the check says
 * so again rather than assume it). Once some centre line L holds m like S
 * with S allowed on L (perhaps at the start), Order plays the finish
 * below. Until then Order plays:
 *   (a) after a Chaos move on a ring cell: the other symbol on its partner;
 *   (b) otherwise a winning move of the restricted small game.
 * Invariants until the finish: (i) no pair is HALF; the only ring moves
 * are Chaos's and Order's answers (a), so a pair's kind changes only from
 * EMPTY to MIXED and every line's allowed set stays what it was at the
 * start; (ii) the restricted small game at the centre, with the big game's
 * side to move, is an Order win. Both hold at the start. A Chaos ring move
 * can only land in an EMPTY pair (MIXED and SAME pairs are full, none is
 * HALF), so the partner is empty and answer (a) makes the pair MIXED: the
 * allowed sets, the centre and the side to move are as before, so (i) and
 * (ii) hold. A Chaos centre move is a small-game move from an Order win
 * with Chaos to move, so the result is an Order win with Order to move (or
 * the finish begins); Order's winning small-game move (b) keeps (ii). The
 * restricted small game is finite and by (ii) never ends in a Chaos win,
 * so the finish begins at the latest when the centre fills. Until then
 * Chaos has not won, as the board is not full (a centre cell is empty);
 * a line Order completes elsewhere meanwhile is Order's win already.
 * The finish: L holds m = k-1 like S, S allowed on L; its pair is (u, v),
 * and u, L, v are a full line of n = k+1 cells, u and v at the edges.
 *   - MIXED, say u holds S and v the other symbol T: u and L are k like S
 *     between the edge and T, a run of exactly k, which counts under
 *     original and exact: Order has won.
 *   - SAME-S (original only, since S is allowed): u, L, v are n = k+1
 *     like S, a run of k or more, which counts under original: Order has
 *     won.
 *   - EMPTY, Order to move: S on u makes a run of exactly k (v is empty).
 *   - EMPTY, Chaos to move: Chaos's S on u or v makes that run itself; its
 *     T there is answered by S on the partner (MIXED, above); any other
 *     move is answered by S on u. The board is not full meanwhile (u and v
 *     are empty), so Order wins within two plies.
 * Lines are judged at once under original and exact, so the first run
 * that counts ends the game in Order's favour. QED.
 *
 * Why not under exact-end (lines judged only on the full board): with L's
 * pair EMPTY, Order's S on u makes a run of k that does not count yet, and
 * Chaos's S on v then makes it an overline for good; waiting instead
 * leaves which side must first play into the pair to a parity the lemma
 * does not control. So the lemma is refused there.
 *
 * Every n, not only 4..6 (2026-12-04). No step above uses n: the ring's
 * 4(n-1) cells split into the 2m+2 = 2(n-1) pairs for every n (m pairs
 * of the centre rows' ends, m of the centre columns', the two diagonal
 * pairs of the four corners); each pair's cells u, v are the ends of a
 * full line of n cells, so the edge lies just beyond both, and a run
 * through u and L is held by the edge on u's side (no overline can grow
 * past u under exact); the runs in the finish are k = n-1 (MIXED, EMPTY)
 * or n = k+1 (SAME-S, original only) long whatever n is; the parity
 * argument counts pieces, not cells. So the lemma holds for every n >= 4
 * with k = n-1 under original and exact. What limits n is deciding the
 * small game: the exhaustive search below takes m <= 4 (3^16 positions;
 * 3^25 for m = 5 is out of reach). For n = 6..8 (m = 4..6) the small game
 * may instead be decided by a certificate of its own (the see form,
 * below).
 *
 *  Dead HALF pairs (2026-12-05). A centre line L is DEAD when its m centre
 * cells hold both symbols: no run of k on L's full line can ever stand
 * (both windows of k = n-1 cells on a line of n contain all of L), so its
 * pair no longer matters to L. The table form (not the see form) also
 * accepts a position where some pairs are HALF, if every HALF pair's line
 * is DEAD and the number of HALF pairs is even. Proof: let F be the empty
 * cells of the HALF pairs (one each, an even number). Order plays as above,
 * and (c): after a Chaos move on a cell of F, Order plays any symbol on
 * another cell of F. Invariants, with Chaos to move: F is even; every pair
 * not HALF is EMPTY, MIXED or SAME; each HALF pair's line is DEAD (pieces
 * are never removed, so a DEAD line stays DEAD). The ring then holds an
 * even number of pieces (two in a full pair, one in each HALF pair, and
 * their number is even), so the centre's count has the board's parity:
 * the check above, that the two parities agree, is exactly the evenness of
 * the HALF pairs, and it stays a check. A Chaos move on F leaves F odd and
 * so not empty; Order's answer (c) restores it, the centre and the side to
 * move unchanged. A Chaos ring move elsewhere lands in an EMPTY pair
 * (answer (a)); a centre move is answered by (b). A line made by a move in
 * F is Order's win. The allowed sets are as before: a HALF pair's line is
 * DEAD, so it never becomes monochrome and which symbols it would allow
 * does not matter (the check gives it both; the table reads the same). The
 * finish is on an allowed line L that becomes monochrome, so not DEAD,
 * whose pair is EMPTY, MIXED or SAME; a cell of F is on another pair's
 * line, not on L's full line (each ring cell is in one pair), so no move
 * in F can lengthen a run on L past exactly k under exact: the finish is
 * as above. With an odd number of HALF pairs the parities differ and the
 * lemma says nothing (Order would have to move twice in a row somewhere).
 *
 * One HALF pair (2026-12-06). The table form also accepts a position
 * where exactly one pair P = (u, v) is HALF, u holding S0 and v empty,
 * whatever its line L* (live or DEAD), every other pair EMPTY, MIXED or
 * SAME, if Order wins the EXTENDED GAME: the centre's m*m cells and v as
 * one more cell; either side puts X or O on any of those empty cells;
 * the side to move is the big game's, given explicitly (not by a piece
 * count: the ring's count is odd here); Order wins as soon as a line
 * counts: a line L other than L* holding m like S with S allowed on L (as
 * above), or L* on its full line u, L*, v: L* all S0 with v not S0 (exact)
 * or with any v (original), or L* all T (the other symbol) with v = T;
 * Chaos wins when all m*m + 1 cells are full without that.
 * Proof. Order plays: (a) after a Chaos move on a ring cell of an EMPTY
 * pair, the other symbol on its partner; (b) otherwise a winning move of
 * the extended game (which may be on v). Invariants, with Chaos to move:
 * every pair but P is EMPTY, MIXED or SAME, the allowed sets are as at the
 * start, and the extended game at (centre, v) with Chaos to move is an
 * Order win. A Chaos ring move off P lands in an EMPTY pair (the others
 * are full), and (a) makes it MIXED: the extended state and its side are
 * as before. A Chaos move on the centre or on v is an extended-game move
 * from an Order win with Chaos to move, and Order's answer (b) is a
 * winning one. The extended game is finite and by the invariant never ends
 * in Chaos's favour, so some line comes to count in it; until then a cell
 * of it is empty, so the board is not full and Chaos has not won, and a
 * line made elsewhere is Order's win. When a line L other than L* counts,
 * its pair is EMPTY, MIXED or SAME, v is not on L's full line (each ring
 * cell is in one pair), and the finish is as above. When L* counts: L*
 * all S0 is, with u, k = m+1 like S0 from the edge beyond u, ended by v
 * (not S0 under exact, so exactly k; under original k or more either
 * way): Order has won; L* all T with v = T is k like T from v's edge,
 * ended by u's S0: exactly k, Order has won. Lines are judged at once
 * under original and exact. QED. What it is for: a ring first move (X b1,
 * X c1) leaves one HALF pair with Chaos to move, and a ring reply to
 * X a1, answered by the other symbol on f6, leaves one too; the parity of
 * the plain form cannot take either. Tested against brute force on 4x4,
 * 5x5 and 6x6 under both rule sets (tests/test_verify_centre.c
 * one_half_pair_against_brute_force): every acceptance an Order win, and
 * some refusals Chaos wins. The extended game is decided by
 * verify_centre_ext.c; its memo is 2 bits a position (the side to move is
 * a function of the position: Order moves iff the extended game's pieces
 * plus the number of HALF pairs are even, as the ring's other pieces come
 * two to a full pair), 32 MB for m = 4, the tables of all configurations
 * kept within VR_EXT_CACHE_BYTES (1 GiB), least recently used out first.
 *
 * Two HALF pairs (2026-12-06). The table form also accepts a position
 * where exactly two pairs P1 = (u1, v1) and P2 = (u2, v2) are HALF, uj
 * holding S0j and vj empty, whatever their lines L1*, L2* (live or DEAD),
 * every other pair EMPTY, MIXED or SAME, if Order wins the EXTENDED GAME
 * with both empty ends: the centre's m*m cells and v1, v2; either side
 * puts X or O on any empty one; the side to move is the big game's; Order
 * wins as soon as a line counts: a small line L other than L1*, L2*
 * holding m like S with S allowed on L, or for j = 1 or 2, Lj* on its
 * full line uj, Lj*, vj: Lj* all S0j with vj not S0j (exact) or any vj
 * (original), or Lj* all T (the other symbol than S0j) with vj = T; Chaos
 * wins when all m*m + 2 cells are full without that. (Both lines DEAD:
 * the dead-half form above may hold as well; the lemma line is accepted
 * if either does.)
 * Proof: the one-pair proof with P1 and P2 in P's place. Order plays: (a)
 * after a Chaos move on a ring cell of an EMPTY pair, the other symbol on
 * its partner; (b) otherwise a winning move of the extended game (which
 * may be on v1 or v2). Invariants, with Chaos to move: every pair but P1,
 * P2 is EMPTY, MIXED or SAME, the allowed sets are as at the start, and
 * the extended game at (centre, v1, v2) with Chaos to move is an Order
 * win. The ring cells are u1, v1, u2, v2 and the cells of the other
 * pairs; u1, u2 and the MIXED and SAME pairs are full, so a Chaos ring
 * move off v1, v2 lands in an EMPTY pair, and (a) makes it MIXED: the
 * extended state and its side are as before, and (a) always finds its
 * partner empty. A Chaos move on the centre, v1 or v2 is an extended-game
 * move from an Order win with Chaos to move, and Order's answer (b) is a
 * winning one. The extended game is finite and by the invariant never ends
 * in Chaos's favour, so some line comes to count in it; until then a cell
 * of it is empty, so the board is not full and Chaos has not won, and a
 * line made elsewhere is Order's win. Each ring cell is the end of exactly
 * one centre full line (the pairs split the ring), so v1 and v2 lie on
 * no counted line's full line but their own: v(3-j) is not on Lj*'s, and
 * neither is on the full line of any other L. When such an L counts, its
 * pair is EMPTY, MIXED or SAME and the finish is as above. When Lj*
 * counts, the finish is the one-pair one on uj, Lj*, vj: Lj* all S0j is,
 * with uj, k = m+1 like S0j from the edge beyond uj, ended by vj (not S0j
 * under exact, so exactly k; under original k or more either way); Lj*
 * all T with vj = T is k like T from vj's edge, ended by uj's S0j: exactly
 * k. Order has won; lines are judged at once under original and exact.
 * QED. What it is for: after X a1 X f1 under exact both diagonals' pairs
 * are HALF (a1/f6 and f1/a6), and the hardest open opening's replies keep
 * two HALF pairs throughout. The extended game then has 3^18 positions
 * (97 MB of memo for m = 4; side as above). Which v cell ends which line
 * is a matter of naming only at the lemma's positions (both v cells are
 * empty there, so swapping them maps the game onto itself); what the
 * configuration must keep apart is which line has which S0 (vr_ext_key).
 * Tested against brute force on 4x4, 5x5 and 6x6 under both rule sets
 * (tests/test_verify_centre_two.c): every acceptance an Order win, some
 * refusals Chaos wins, and acceptance exactly where the test's own
 * extended game is Order's.
 *
 * The see form: 'POSITION lemma centre see FILE'. FILE is an ordinary
 * certificate of the m x m board with k = m under the same rules (original
 * or exact), winner order, whose root is the position's centre up to the
 * 16 symmetries (the board's symmetries map the centre onto itself, pairs
 * onto pairs, and with all pairs EMPTY or MIXED every line allows both
 * symbols, so any image will do). On an m x m board the windows of m
 * cells are exactly the small game's 2m+2 lines (every other diagonal is
 * shorter than m), a run of m can be neither longer nor shorter there (so
 * original and exact judge alike), lines are judged at once, Chaos wins on
 * the full board, either side plays either symbol, and Order moves iff
 * the piece count is even: that game is the unrestricted small game,
 * move for move. So a valid FILE shows that the small game at the centre
 * is an Order win with the centre's side to move, which the parity check
 * makes the big position's: the lemma's condition (ii). The form asks
 * every pair to be EMPTY or MIXED: a SAME pair restricts its line, which a
 * plain certificate of the m x m game cannot express (a restricted game
 * gives Order fewer wins, so the plain game's win would not carry over).
 * FILE is checked as a see line's file is (verify.h): on its own, within
 * the same reading limits, nested one level deeper under the same bound of
 * SEE_MAX_DEPTH (a cycle of files proves nothing), each file once per
 * verification, with threads in the pre-pass.
 */
#ifndef OCS_VERIFY_CENTRE_H
#define OCS_VERIFY_CENTRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "verify_rules.h"

enum {
    VR_SMALL_MIN = 2,
    VR_SMALL_MAX = 4,
    VR_SMALL_LINES = 2 * VR_SMALL_MAX + 2,
    /* The see form: a centre of m = 4..6 (n = 6..8), the largest board a
     * certificate has being 8x8. */
    VR_CENTRE_SEE_MIN = 4,
    VR_CENTRE_MAX_M = 6,
    VR_CENTRE_LINES = 2 * VR_CENTRE_MAX_M + 2,
};

/* A line's allowed symbols, a bit set: bit VR_X for X, bit VR_O for O. */
enum { VR_ALLOW_NONE = 0, VR_ALLOW_X = 1 << VR_X, VR_ALLOW_O = 1 << VR_O, VR_ALLOW_BOTH = VR_ALLOW_X | VR_ALLOW_O };

/* The restricted small game on m x m cells (m = 2..4; small_cells[r * m +
 * c]; Order to move iff the number of pieces is even). allowed[l] is the
 * VR_ALLOW_* set of line l, the lines in this order: rows 0..m-1, columns
 * 0..m-1, the diagonal (cells i*m+i), the anti-diagonal (cells
 * i*m+m-1-i): 2m+2 entries. 1 Order wins (also when a line already holds
 * m like allowed symbols), 0 Chaos wins, -1 out of memory or a bad
 * argument. It is the extended game with no HALF pair
 * (verify_centre_ext.h): a plain memoised minimax, one memo for each
 * allowed vector (2 bits for each of the 3^(m*m) positions, 10.8 MB for
 * m = 4), allocated on first use and kept with the HALF pair forms' under
 * one bound (VR_EXT_CACHE tables, VR_EXT_CACHE_BYTES), reachable, until
 * the process ends (evicting one never changes a result: values are
 * recomputed). Calls are serialised by a mutex, so the result never
 * depends on timing or on other threads' calls. */
int vr_small_order_wins_allowed(int m, const uint8_t *small_cells, const uint8_t *allowed);

/* The same with every line allowed both symbols (the unrestricted game). */
int vr_small_order_wins(int m, const uint8_t *small_cells);

/* The whole lemma for the big position cells of game g, the certificate
 * claiming that Order wins (claim_order) or Chaos. 1: it holds. 0: it does
 * not; why gets one line (no position, no newline), e.g.
 * "pair a2/f2 holds X and an empty cell", or "the centre small game (with
 * b2-e2 for X only) is a Chaos win (Order to move)". -1: out of memory. */
int vr_centre_lemma(const VrGame *g, bool claim_order, const uint8_t *cells, char *why, size_t why_len);

/* A verification's bound on the lemma's own searches (the small game's
 * and the HALF pair forms' extended game's, above): *spent counts the
 * positions searched so far, shared by every file and thread of one
 * verification; max is the most it may (0: no bound). Why: a lemma line
 * may need a table of its own (other allowed sets; other half pairs or
 * symbols), filled by a search of up to 3^16 positions (the small game,
 * about a second for m = 4), 3^17 (one HALF pair) or 3^18 (two; about a
 * minute), and only VR_EXT_CACHE tables and 1 GiB of them are kept
 * (verify_centre_ext.h), so a hostile
 * certificate of many lemma lines in ever other configurations (or
 * cycling among a few more than are kept) would cost seconds a line for
 * as many lines as it has: days. Legitimate ones use a few dozen tables
 * (exact X a1: about 20 configurations). */
typedef struct {
    _Atomic uint64_t *spent;
    uint64_t max;
} VrLemmaBudget;

/* vr_small_order_wins_allowed within a budget (NULL: none): also -2 when
 * the search would pass it (verify_pairing.h's ring lemma). */
int vr_small_order_wins_budget(int m, const uint8_t *small_cells, const uint8_t *allowed, const VrLemmaBudget *b);

/* vr_centre_lemma within budget (NULL: none): also -2 when a search
 * would pass it (nothing claimed, why says so; what it searched is
 * counted). */
int vr_centre_lemma_budget(const VrGame *g, bool claim_order, const uint8_t *cells, const VrLemmaBudget *budget,
                           char *why, size_t why_len);

/* The see form's conditions on the big position (above), all but the small
 * game's value, which the caller checks by the certificate: the claim is
 * Order; the rules original or exact; k = n-1 and n = 6..8; every pair
 * EMPTY or MIXED; the centre's piece count of the big board's parity.
 * 1: they hold, and small gets the centre, small[r * m + c] for m = n-2.
 * 0: one fails; why gets one line, e.g. "pair a1/g7 holds X and X (the see
 * form needs every pair empty or mixed)". */
int vr_centre_see_conditions(const VrGame *g, bool claim_order, const uint8_t *cells, uint8_t *small, char *why,
                             size_t why_len);

#endif
