/* dfpn_kernel.c - see dfpn_kernel.h: the kernel's parts that are not on
 * every child's path (pairing and threat searches with their memos, the
 * threat move for certificates, the centre-first order, the 4-ply
 * refutation). */
#include "dfpn_kernel.h"

#include <stdlib.h>

/* Two memos in one block, one block per thread (a search's thread owns
 * it for the length of a solve or a bounded question), each direct-mapped
 * by a hash of the board; a child never has an empty board, so the zero
 * slot means "free".
 *   - Pairing failures (dfpn_kernel_pairing_slot, 2^14 slots). A child that
 *     misses the table is tested for pairing, and failures are not stored
 *     in the table, so the same child was tested again each time its
 *     parent was expanded (a third of all tests, measured on the bench
 *     with these 16 K slots). The test is a pure function of the board.
 *   - Threat searches at expanded Order nodes (threat_slot, 2^16 slots):
 *     df-pn enters a node again each time it comes back to it, and the
 *     search is a function of the board and its bound. The O word's row 7
 *     (off the board for n <= 7; no memo on 8x8) holds the result:
 *     THREAT_WON | p for a win of p plies, else the bound L it failed at. */
enum { MEMO_BITS = 14, THREAT_MEMO_BITS = 16 };
#define THREAT_ROW7 (0xFFULL << 56)
#define THREAT_WON 0x80u

Board *dfpn_kernel_memo_new(void) { return calloc(((size_t)1 << MEMO_BITS) + ((size_t)1 << THREAT_MEMO_BITS), sizeof(Board)); }

static inline Board *threat_slot(Board *memo, Board b)
{
    uint64_t h = b.s[0] * 0xC2B2AE3D27D4EB4FULL ^ b.s[1] * 0x9E3779B97F4A7C15ULL;
    return &memo[((size_t)1 << MEMO_BITS) + (h >> (64 - THREAT_MEMO_BITS))];
}

bool dfpn_kernel_chaos_pairs(const DfpnKernel *k, Board b, Board key, uint64_t h, bool bounded)
{
    /* odd boards: most positions fail the breakable form's first test, which
     * costs less than the memo probe and the prefetch (they cost the 7x7
     * search a third of its rate); boards with many short lines (6x6 k=4)
     * likewise fail the lines gate (pairing.h) */
    KnPairs form = kn_pairs_quick(k->r, k->kn, b);
    if (form == KN_PAIRS_NONE) return false;
    Board *m = k->memo ? dfpn_kernel_pairing_slot(k->memo, b) : NULL;
    if (m && board_equal(*m, b)) return false;
    /* The bucket a win goes into (the probe that led here read only the
     * fingerprints) loads while the test runs. */
    tt_prefetch_hashed(k->tt, h);
    if (!kn_chaos_pairs_quicked(k->r, k->kn, b, form)) {
        if (m) *m = b;
        return false;
    }
    if (k->read_only) {
        /* the caller reads the win from the child's numbers (kernel_table) */
    } else if (bounded) {
        TTBounds f = {TT_NO_WIN, TT_NO_WIN - 1, 0, MOVE_NONE}; /* never won, at any depth */
        tt_store_bounds(k->tt, key, &f);
    } else {
        TTData e = {DFPN_INF, 0, 0, MOVE_NONE};
        tt_store(k->tt, key, &e);
    }
    return true;
}

/* The memo's answer for bound L: a win of p plies answers L >= p; a
 * failure at bound L0 answers L <= L0 (threats.h: a failure at a bound is
 * one at every lower bound). A win of p > L answers no: the search deepens
 * from 3 and stops at its first win, so it failed at every bound below p
 * with budget left, and a failure claims nothing in any case. Else the
 * search runs, and its result replaces the slot's. */
bool dfpn_kernel_threat_search(const DfpnKernel *k, Board b, const KnNode *kn, int plies, bool memo, int *plies_won)
{
    Board *m = memo && k->memo && k->r->n < 8 ? threat_slot(k->memo, b) : NULL;
    if (m && m->s[PIECE_X] == b.s[PIECE_X] && (m->s[PIECE_O] & ~THREAT_ROW7) == b.s[PIECE_O]) {
        unsigned tag = (unsigned)(m->s[PIECE_O] >> 56), p = tag & ~THREAT_WON;
        if (tag & THREAT_WON) {
            *plies_won = (int)p;
            return (int)p <= plies;
        }
        if ((int)p >= plies) return false;
    }
    ThreatWin w;
    bool won = threats_win(k->r, k->kn, b, kn->maker, plies, (uint32_t)k->kn->threat_nodes, &w);
    k->threats->calls++;
    k->threats->wins += won;
    k->threats->spent += w.nodes;
    if (m) *m = (Board){{b.s[PIECE_X], b.s[PIECE_O] | (uint64_t)(won ? THREAT_WON | (unsigned)w.plies : (unsigned)plies) << 56}};
    if (won) *plies_won = w.plies;
    return won;
}

Move dfpn_kernel_threat_move(const DfpnKernel *k, Board b, int plies)
{
    KnNode kn;
    ThreatWin w;
    kn_node(k->r, k->kn, b, &kn);
    if (kn.value != WINNER_NONE || !threats_may(k->r, k->kn, kn.maker)) return MOVE_NONE;
    return threats_move(k->r, k->kn, b, kn.maker, plies, &w) ? w.move : MOVE_NONE;
}

int dfpn_kernel_center_order(int n, int *cells)
{
    int c = 0;
    for (int dist = 0; dist <= 2 * (n - 1); dist++)
        for (int row = 0; row < n; row++)
            for (int col = 0; col < n; col++)
                if (abs(2 * row - (n - 1)) + abs(2 * col - (n - 1)) == dist) cells[c++] = row * 8 + col;
    return c;
}

bool dfpn_kernel_refuted_at_once(const DfpnKernel *k, Board b, const KnNode *kn)
{
    int piece = kn->moves[PIECE_X] ? PIECE_X : PIECE_O;
    uint64_t cells = kn->moves[piece];
    if (!cells) {
        if (!kn->tempo) return false;
        cells = kn->dead;
        piece = PIECE_X;
    }
    Move m = move_make(piece, __builtin_ctzll(cells));
    Board cb = b;
    board_place(&cb, m);
    DfpnChild c = {.exact = false}; /* an open child's numbers are not set (nor read): says so to gcc -O1 */
    int nl;
    dfpn_kernel_static(k, NULL, cb, m, 3, &c, &nl, true);
    return c.exact && c.dn == 0;
}
