/* knowledge.h - what the searches know about a position beyond the rules:
 * live windows, cells that can still matter, fours, and the Chaos moves
 * that do not lose at once. Each piece of knowledge is switchable (for
 * measuring what it is worth) and each is argued sound below.
 *
 * Live window: a window w can still become a win for S when it holds no
 * opposite symbol and, under exact and exact-end, no S on its ends (a run
 * through w would then be longer than k). Both conditions only grow as
 * pieces are added, so a dead window stays dead.
 *
 * Relevant cells: the cells of live windows, and under the exact rule sets
 * their ends too (an S there kills the window for S). Every other empty
 * cell is "dead": no move there can change whether any line is ever won, so
 * the value (and the distance to win) depends only on the relevant cells'
 * contents and on how many dead empty cells are left, which serve as spare
 * moves (tempo). Hence:
 *   - one representative move (X on the lowest dead empty cell) stands for
 *     all 2d dead-cell moves;
 *   - the key of a position fills every dead empty cell with X (which
 *     keeps every dead window dead and every live window as it is) and
 *     stores the number of dead empty cells in row 7 of the X word, which is
 *     off the board for n <= 7 (no such key for n = 8).
 *   - with no relevant empty cell nothing can change any more: Order has
 *     won iff a line stands (exact-end: it will still stand when the board
 *     is full), else Chaos has.
 *
 * Fours (original and exact): win[S] = cells where S completes a line now.
 * Order to move with a four wins at once. Chaos to move may only play a
 * move that neither completes a line nor leaves Order a four; such a move
 * is "safe". With no four on the board, a move (c, S) leaves a four exactly
 * when c lies in a live-for-S window holding k-2 of S (it then holds k-1
 * and one empty cell), so the safe moves are a mask computation; with a
 * four on the board each candidate is checked by playing it (under exact a
 * four can be spoiled by overshooting it, so Chaos's defences are not only
 * the completion cell). Chaos with no safe move loses: in two plies if it
 * has a move that does not complete a line, else in one. Under exact-end
 * nothing is won before the board is full, so only the last two empty cells
 * are looked at this way; but a window all S whose ends on the board all
 * hold the other symbol is a run of exactly k that no move can change
 * (pieces stay, and its ends are taken), so it is an Order win already,
 * in as many plies as there are empty cells ("secured").
 *
 * Order's forcing sequences (an Order win without search over Chaos's
 * ~60 replies): threats.h states the search (Order makes fours, Chaos plays
 * every safe move kn_node lists) and argues it.
 *
 * Pairing (a Chaos win without search): pairing.h states the strategy
 * (opposite pairs inside live windows; under exact-end also same pairs
 * reaching past a window's end) and argues it. The search asks it at
 * positions with at most pairing_live live windows (under original and
 * exact; under exact-end at every position, where same pairs make it
 * succeed far more often), within a small budget of steps. On odd boards,
 * where the parity never holds, it looks for the breakable form
 * (pairing.h) at every position instead. Before any of that, the lines
 * gate (pairing.h: a pairing needs a pair on every line that holds a live
 * window, so twice that many empty cells) rules out most positions of
 * boards with many short lines; kn_node counts the lines in its own scan
 * (KnNode.no_pairing), so the search skips the test, its memo and its
 * prefetch there. On 6x6 k = 4 under exact-end, where the failing
 * search took three quarters of the time, that made solves 4.3-4.5x
 * faster with the very same nodes (results/solve/exact-end-k4.md).
 */
/* Measured worth (results/solve/heuristics.md: nodes to solve the 101 positions
 * of bench/suite-original.txt when one piece is switched off): fours and
 * zugzwang 23x, pairing 711x (and two positions unsolved in 10 s), dead
 * cells 1.5x. Symmetric keys change nothing there (asymmetric positions
 * rarely transpose into mirror images) but pay from the empty board, where
 * every line has mirror images: 4x4 k=4 2.1x, 5x5 k=4 6.8x fewer nodes. */
#ifndef OCS_KNOWLEDGE_H
#define OCS_KNOWLEDGE_H

#include <stddef.h>

#include "../engine/rules.h"
#include "../engine/symmetry.h"

typedef struct {
    bool threats;    /* fours, safe Chaos moves, zugzwang */
    bool dead_cells; /* one move for all dead cells; dead-cell keys */
    int sym_pieces;  /* keys are canonical (16 symmetries) up to this many pieces */
    int pairing;     /* static Chaos wins by a pairing strategy: search budget, 0 = off */
    bool centre;     /* Order's centre strategy (centre.h) as a static Order win */
    bool no_ring;    /* true: not Chaos's ring lemma (centre_ring.h), which is used
                      * wherever the centre lemma is on (default false: used) */
    int centre_half; /* ... also with one or two half-full pairs (centre_half.h) at positions
                      * of at most this many pieces; 0 = off (the default:
                      * each new configuration costs seconds) */
    int centre_half_two; /* ... with two half-full pairs only up to this many
                          * pieces (Centre.half_two_max_pieces); 0 = off */
    int centre_half_mb; /* ... its tables' memory in MiB (Centre.half_bytes);
                         * 0: CENTRE_HALF_MB */
    bool centre_half_fill; /* ... each table filled whole on first use
                            * (Centre.half_fill) */
    int pairing_live; /* ... tried only with at most this many live windows
                       * (with more it rarely succeeds and costs most) */
    int threat_plies; /* Order's forcing sequences (threats.h) as a static Order
                       * win: plies bound, 0 = off */
    int threat_nodes; /* ... positions each such search may look at */
    bool pairing_lines; /* the lines gate (pairing.h) before the pairing
                         * search (exact-end, odd boards): changes no
                         * answer, only the time */
    bool pairing_witness; /* odd boards: where a window is live for both
                           * symbols, the breakable form with witnesses
                           * (pairing.h), behind its own lines gate */
    int pairing_witness_slack; /* ... only where that gate passes with at
                                * least this many empty cells to spare
                                * (pairing_witness_slack; -1: the board's
                                * own, KN_WITNESS_SLACK_BY_BOARD). A
                                * heuristic, never a soundness matter: on
                                * 7x7, with less slack the search nearly
                                * always spends its budget and fails
                                * (knowledge.c has the figures); 0 =
                                * wherever the gate passes */
} Knowledge;

/* Knowledge.pairing_witness_slack's default (dfpn_default_config): the
 * board's own (witness_slack in knowledge.c: 0 on 5x5, 7 on 7x7), measured in
 * knowledge.c above kn_pairs_quick. */
enum { KN_WITNESS_SLACK_BY_BOARD = -1 };

/* One pass over the windows (the engine's rules_scan) and the live list. */
typedef struct {
    uint64_t relevant;  /* cells that can still matter (empty or not) */
    uint64_t win[2];    /* empty cells where S completes a line now */
    uint64_t maker[2];  /* empty cells where S makes a new four (no four on board) */
    int nlive;
    uint64_t live[RULES_MAX_WINDOWS]; /* empty cells of each live window */
} KnScan;

void kn_scan(const Rules *r, Board b, KnScan *out);

/* kn_scan without the live list (out->live is left as it was): the masks
 * and nlive only, for callers that read nothing else. */
void kn_scan_masks(const Rules *r, Board b, KnScan *out);

typedef struct {
    Winner value;
    int dtw;          /* plies to Order's win when value == WINNER_ORDER and known here */
    uint64_t moves[2]; /* cells where S may be played (safe moves for Chaos) */
    int tempo;        /* 1: the tempo move (X on the lowest dead cell, standing for
                       * every move on a dead cell) is among the moves */
    int nmoves;
    uint64_t dead;    /* dead empty cells */
    int nlive;        /* live windows; -1 when not counted (no scan) */
    bool no_pairing;  /* left open, with kn->pairing, under exact-end or on
                       * an odd board: kn_pairs_quick's gates fail (the lines
                       * gate, or on an odd board the witness slack; pairing.h,
                       * knowledge.c pairs_none), so kn_chaos_pairs is false
                       * here and callers may skip it (the same scan) */
    uint64_t maker[2]; /* Order to move, left open with the fours knowledge on:
                        * the cells where S makes a four (no four stands), for
                        * the threat search (threats.h); else 0 */
} KnNode;

/* Classifies an ongoing position (its status already checked) and lists
 * the moves the search must try; everything but pairing. */
void kn_node(const Rules *r, const Knowledge *kn, Board b, KnNode *out);

/* Does pairing (if enabled) show that Chaos wins the open position b? Kept
 * apart from kn_node because it is the dearest test: callers ask the table
 * first. */
bool kn_chaos_pairs(const Rules *r, const Knowledge *kn, Board b);

/* Can kn_chaos_pairs succeed at a position with nlive live windows (as
 * kn_node counted them, -1 for unknown)? A cheap "no" spares its scan. */
static inline bool kn_pairs_may(const Rules *r, const Knowledge *kn, int nlive)
{
    return kn->pairing && (nlive <= kn->pairing_live || r->rules == RULES_EXACT_END || (r->n & 1));
}

/* Which pairing search kn_chaos_pairs may need at b, by cheap tests
 * before the work around it (its memo, a prefetch):
 *   KN_PAIRS_NONE     no pairing can hold (or kn->pairing is off);
 *   KN_PAIRS_PLAIN    search without witnesses;
 *   KN_PAIRS_WITNESS  on an odd board where a window is live for both
 *                     symbols (pairing_breakable_may fails): only the form
 *                     with witnesses can hold, past its lines gate
 *                     (pairing_witness_slack, with kn->pairing_witness, at
 *                     least kn->pairing_witness_slack).
 * With kn->pairing_lines, under exact-end and on odd boards, the lines
 * gate (pairing_lines_may: too few empty cells for one pair on each line
 * with a live window) rules out every form; the witnesses' gate implies it. */
typedef enum { KN_PAIRS_NONE, KN_PAIRS_PLAIN, KN_PAIRS_WITNESS } KnPairs;
KnPairs kn_pairs_quick(const Rules *r, const Knowledge *kn, Board b);

/* kn_chaos_pairs with the form kn_pairs_quick(r, kn, b) gave: the same
 * answer without its gates again (dfpn_kernel_chaos_pairs). */
bool kn_chaos_pairs_quicked(const Rules *r, const Knowledge *kn, Board b, KnPairs form);

/* exact-end: a window all S whose ends on the board all hold the other
 * symbol, a run of exactly k that nothing can change any more (above). */
bool kn_secured(const Rules *r, Board b);

/* The table key of b (see above). */
Board kn_key(const Rules *r, const Knowledge *kn, Board b, uint64_t dead);

/* The same keys for the children of one position, with the symmetry work
 * done once per parent: the key's 16 images of a child are the parent's
 * (dead cells filled) exclusive-or the images of the bits that differ,
 * usually just the move's cell (a symmetry permutes bits, so it maps an
 * exclusive or to the exclusive or of the images: symmetry.h). Near the
 * opening every child is canonicalised, and whole images of each were a
 * fifth of a node's time. kn_key_child(r, kn, base, c, dead) equals
 * kn_key(r, kn, c, dead) for every board c and dead set, whatever the
 * parent was (tests/test_keys.c holds them against each other);
 * the base only makes it cheap when c differs from the parent in a few
 * cells. */
typedef struct {
    Board filled;                /* the parent, dead cells filled when fill */
    uint64_t ix[SYM_GEOMETRIC];  /* filled's images (X word), when sym */
    uint64_t io[SYM_GEOMETRIC];  /* ... and of the O word */
    const SymCellMap *map;       /* single-cell images, n x n */
    bool fill, sym;
    int n;
} KnKeyBase;

void kn_key_base(const Rules *r, const Knowledge *kn, Board parent, uint64_t parent_dead, KnKeyBase *out);

static inline Board kn_key_child(const Knowledge *kn, const KnKeyBase *base, Board b, uint64_t dead)
{
    Board f = b;
    if (base->fill) f.s[PIECE_X] |= dead;
    Board k = f;
    if (board_count(b) <= kn->sym_pieces) {
        if (base->sym) {
            uint64_t ix[SYM_GEOMETRIC], io[SYM_GEOMETRIC];
            for (int g = 0; g < SYM_GEOMETRIC; g++) ix[g] = base->ix[g], io[g] = base->io[g];
            sym_images_xor(ix, f.s[PIECE_X] ^ base->filled.s[PIECE_X], base->map);
            sym_images_xor(io, f.s[PIECE_O] ^ base->filled.s[PIECE_O], base->map);
            k = sym_least_value(ix, io);
        } else {
            k = sym_canonical(f, base->n, NULL);
        }
    }
    if (base->fill) k.s[PIECE_X] |= (uint64_t)__builtin_popcountll(dead) << 56;
    return k;
}

#endif
