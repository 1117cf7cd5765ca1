/* bounded.c - see bounded.h: the bounded question's answers near the
 * leaves, each argued beside its code. */
#include "bounded.h"

/* Under original, what kn_node would say of the Chaos position after the
 * four-maker (c, S) from an open b (no four, Order to move), without
 * playing it: does Chaos then have no safe move? The move's fours are the
 * windows through c live for S with two empty cells (c and one more); no
 * other four exists (b had none, and T = the other symbol gains nothing).
 *   - Two or more distinct four cells: a Chaos piece on one leaves another
 *     (S on it completes a line), so no move is safe.
 *   - One, f: Chaos's only candidate is T on f (kn_node's, and S there
 *     completes the line); it completes nothing (T had no four and gains
 *     nothing from S on c) and kills every four of S (all have f as their
 *     empty cell; under original a T in a window kills it), so it is unsafe
 *     exactly when it makes a four of T: when f lies in a window live for T
 *     with two empty cells, not through c (those hold S now).
 * (The board is not full after T on f: the question asked 3 plies of b, so
 * b has at least 3 empty cells.) Chaos with no safe move loses within 2
 * plies (kn_node's zugzwang), so Order wins within 3. */
static inline bool maker_wins(const Rules *r, uint64_t me, uint64_t other, uint64_t empty, int c)
{
    uint64_t cbit = 1ULL << c, four = 0;
    for (int i = 0; i < r->cell_nwin[c]; i++) {
        uint64_t w = r->cell_win[c][i];
        if ((w & other) == 0 && __builtin_popcountll(w & empty) == 2) four |= w & empty;
    }
    four &= ~cbit;
    if (four & (four - 1)) return true;
    if (four == 0) return false; /* not a maker: no four, a safe move exists (see bounded_wins_in_3) */
    int f = __builtin_ctzll(four);
    for (int i = 0; i < r->cell_nwin[f]; i++) {
        uint64_t w = r->cell_win[f][i];
        if ((w & (cbit | me)) == 0 && __builtin_popcountll(w & empty) == 2) return true;
    }
    return false;
}

/* The q = 3 leaves: Order to move at an open position asked "within 3
 * plies?". With the fours knowledge on and a four-based rule set (original,
 * exact), kn_node left it open, so no four stands (dtw >= 3), and the
 * search would answer yes iff some Order move leaves a Chaos position that
 * kn_node decides for Order (no safe Chaos move: zugzwang, dtw 1 or 2), since
 * any other child is asked 2 plies with a safe move and so is no (bounded_question).
 * Only two kinds of Order move can do that:
 *   - a four-maker (c in maker[S] for the move (c, S)): tried one by one;
 *   - any other move (c, S) leaves no four (knowledge.h: with no four on
 *     the board only a maker makes one) and then a safe Chaos reply exists
 *     whenever some empty cell c' != c is no maker for the other symbol T in
 *     b: an S on c only kills T's windows through c, so T's live windows
 *     (hence T's makers) after it are a subset of those in b, and T on c'
 *     then completes nothing (no four) and makes no four. So when each
 *     symbol has two non-maker empty cells, no such move wins in 3, and only
 *     the makers are tried; otherwise every move is (as the search would).
 * The answer is thus the search's, in one scan plus one kn_node per maker
 * instead of a node with a kn_node per move and its table entries.
 * *depth gets the depth of the win found (parity makes it 3 under
 * original when only makers are tried). */
bool bounded_wins_in_3(const Rules *r, const Knowledge *kn, Board b, const KnNode *node, int *depth)
{
    RulesScan sc = rules_scan(r, b.s[PIECE_X], b.s[PIECE_O]);
    uint64_t empty = r->cells & ~board_occupied(b);
    bool makers_only = __builtin_popcountll(empty & ~sc.maker[PIECE_X]) >= 2 &&
                       __builtin_popcountll(empty & ~sc.maker[PIECE_O]) >= 2;
    if (makers_only && r->rules == RULES_ORIGINAL) {
        /* Parity (dfpn_depth.h): Chaos's zugzwang after an Order move that
         * completes nothing lasts 2 plies, so the win is in 3. */
        *depth = 3;
        for (int p = 0; p < 2; p++)
            for (uint64_t cells = node->moves[p] & sc.maker[p]; cells;)
                if (maker_wins(r, b.s[p], b.s[p ^ 1], empty, bb_pop(&cells))) return true;
        return false;
    }
    for (int p = 0; p < 3; p++) {
        uint64_t cells = p < 2 ? node->moves[p] & (makers_only ? sc.maker[p] : ~0ULL)
                               : (node->tempo && !makers_only ? node->dead & -node->dead : 0);
        while (cells) {
            Move m = move_make(p < 2 ? p : PIECE_X, bb_pop(&cells));
            Board cb = b;
            board_place(&cb, m);
            Winner st = rules_status_after(r, cb, m);
            if (st != WINNER_NONE) {
                if (st == WINNER_ORDER) return *depth = 1, true;
                continue;
            }
            KnNode ckn;
            kn_node(r, kn, cb, &ckn);
            if (ckn.value == WINNER_ORDER && ckn.dtw <= 2) return *depth = ckn.dtw + 1, true;
        }
    }
    return false;
}

/* The 5-ply questions with Order to move (original, fours knowledge on):
 * Order moves that are no without a look. Let b be such an open node
 * (no four) that does not win in 3 (bounded_wins_in_3), where each symbol has at
 * least four empty cells that are no four-makers. Call the cells of
 * windows live for T with exactly three empty cells three[T], and
 * quiet[T] = the empty cells in neither maker[T] nor three[T]. Then an
 * Order move (c, S) with c in quiet[S] is no at 4 plies whenever quiet[T]
 * (T the other symbol) has a cell t != c:
 *   - S on c makes no four, and the windows live for either symbol with
 *     two empty cells after it are among b's, with the same empty cells:
 *     T's windows through c die; S's through c had four or more empty
 *     cells (c is in no S window with one, two or three), so keep three;
 *   - Chaos's T on t is then the same: it completes nothing and makes no
 *     four (T's windows through t had four or more empty cells; S's die),
 *     so it is a legal reply, and Order, to move, asked 3 plies, has the
 *     same or fewer two-empty windows, all as in b;
 *   - each symbol keeps two non-maker empty cells (makers only shrink;
 *     c and t are two cells), so bounded_wins_in_3 there tries the four-makers
 *     only, and maker_wins reads only two-empty windows: a win there
 *     (two four cells, or one whose block makes a four of T) would be one
 *     in b too, and b has none. So Order does not win within 3 after T on
 *     t, and the move (c, S) is no at 4.
 * Such children are entered as decided no, as the search would find them. */
static void windows_of_three(const Rules *r, Board b, uint64_t three[2])
{
    uint64_t x = b.s[PIECE_X], o = b.s[PIECE_O], empty = r->cells & ~(x | o);
    three[0] = three[1] = 0;
    for (int i = 0; i < r->nwin; i++) {
        uint64_t w = r->win[i], hole = w & empty;
        if (__builtin_popcountll(hole) != 3) continue;
        if ((w & o) == 0) three[PIECE_X] |= hole;
        if ((w & x) == 0) three[PIECE_O] |= hole;
    }
}

/* skip[S]: the cells c where Order's (c, S) is no at 4 plies (above). */
void bounded_quiet_moves(const Rules *r, const Knowledge *kn, Board b, const KnNode *node, uint64_t skip[2])
{
    skip[0] = skip[1] = 0;
    if (r->rules != RULES_ORIGINAL || !kn->threats) return;
    RulesScan sc = rules_scan(r, b.s[PIECE_X], b.s[PIECE_O]);
    uint64_t empty = r->cells & ~board_occupied(b);
    if (__builtin_popcountll(empty & ~sc.maker[PIECE_X]) < 4 || __builtin_popcountll(empty & ~sc.maker[PIECE_O]) < 4)
        return;
    int depth;
    if (bounded_wins_in_3(r, kn, b, node, &depth)) return;
    uint64_t three[2], quiet[2];
    windows_of_three(r, b, three);
    for (int p = 0; p < 2; p++) quiet[p] = empty & ~sc.maker[p] & ~three[p];
    for (int p = 0; p < 2; p++)
        if (__builtin_popcountll(quiet[p ^ 1]) >= 2) skip[p] = quiet[p];
}

