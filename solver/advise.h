/* advise.h - a move for the side to move, with a reason it can justify:
 * what `ocsolve play` answers with. Prints nothing, never exits.
 *
 * The reasons, in the order they are tried, and why each is sound:
 *
 *   ADVICE_WIN_NOW      the move ends the game in the mover's favour: it
 *                       completes a line (Order) or fills the board without
 *                       one (Chaos). The rules say so (rules_status_after).
 *   ADVICE_CENTRE_PAIR  (Order) after the move the position is a
 *   ADVICE_CENTRE_SMALL centre-strategy win (centre.h), which the lemma
 *                       proves an Order win whoever moves, so the move
 *                       keeps a proved win. The move is found by trying
 *                       every move, not by remembering the last one: the
 *                       lemma's proof shows that one always exists after
 *                       any Chaos reply (the partner of a ring cell Chaos
 *                       just played, with the other symbol: _PAIR; else a
 *                       winning move of the small centre game: _SMALL; once
 *                       a centre line is monochrome, the completing move
 *                       is a WIN_NOW at most two plies later).
 *   ADVICE_PAIRING      (Chaos) after the move a pairing (pairing.h)
 *                       holds, checked by pairing_holds or found by
 *                       pairing_find, which only returns pairings that
 *                       hold; the pairing lemma proves that a Chaos win.
 *                       The answer to a move into a pair of the pairing
 *                       remembered from the previous move is tried first
 *                       (the lemma's own strategy), then a free cell of a
 *                       pairing of the position itself, then every move.
 *                       Every candidate is checked on the board as it
 *                       stands, so the memory can only speed it up.
 *   ADVICE_STORE        the store of decided positions (tables/store.h)
 *                       says the position is won by the mover and gives a
 *                       move (a stored move is a winning move), or says a
 *                       child is won by the mover. The store holds only
 *                       decided values.
 *   ADVICE_SEARCH       df-pn decided the position a win for the mover
 *                       within the time, and the move is its winning move
 *                       (dfpn_winning_move: a child the table proves, or
 *                       re-searched). For Order, when alpha-beta also finds
 *                       the distance to win D in the time left, the move is
 *                       one that wins within D-1 more plies (ab_winning_move),
 *                       so "Order wins in at most D plies" holds whatever
 *                       Chaos does, as long as Order keeps hurrying; the
 *                       advisor then remembers the claim and hurries (it
 *                       searches before it uses the centre strategy) until
 *                       the game passes the claim's length.
 *   ADVICE_LOST         the mover is proved lost: by the centre lemma
 *                       (Chaos to move), a pairing (Order to move), the
 *                       store or df-pn. No move helps; the move resists:
 *                       for Chaos the longest resistance when alpha-beta
 *                       finds the distance to win in the time (then value.dtw
 *                       is the distance), else a move not itself proved
 *                       lost (statically, by the lemma, or in the table)
 *                       where there is one, preferring the one the
 *                       opponent's proof needed most work for.
 *   ADVICE_GUESS        nothing decided the position within the time: no
 *                       proof yet. The move is the most promising child by
 *                       df-pn's numbers; a child proved lost for the mover
 *                       (statically or in the table) is never chosen while
 *                       another is left.
 * So where the position is decided (the rules, the lemmas, the store, or
 * df-pn within the time) the advice never plays a move that loses.
 *
 * Tables: the advisor keeps its df-pn and alpha-beta tables from move to
 * move (their entries are facts or guesses about positions of one game, so
 * they stay valid: a later search starts from what earlier ones learnt).
 * One advisor per game (rules, n, k): the keys do not name the game.
 */
#ifndef OCS_ADVISE_H
#define OCS_ADVISE_H

#include "../tables/store.h"
#include "alphabeta.h"
#include "centre.h"
#include "dfpn.h"
#include "pairing.h"

typedef enum {
    ADVICE_NONE = 0, /* no move: the game is over */
    ADVICE_WIN_NOW,
    ADVICE_CENTRE_PAIR,
    ADVICE_CENTRE_SMALL,
    ADVICE_PAIRING,
    ADVICE_STORE,
    ADVICE_SEARCH,
    ADVICE_LOST,
    ADVICE_GUESS,
} AdviceKind;

/* How a position's value was established. */
typedef enum {
    PROVED_NONE = 0, /* not decided */
    PROVED_RULES,    /* the game is over, or the move ends it */
    PROVED_CENTRE,   /* the centre lemma (centre.h) */
    PROVED_PAIRING,  /* a pairing (pairing.h) */
    PROVED_STORE,    /* the store of decided positions */
    PROVED_SEARCH,   /* df-pn or alpha-beta within the time */
} ProvedBy;

typedef struct {
    Winner winner;  /* WINNER_NONE: not decided within the time */
    ProvedBy by;
    int dtw;        /* Order's distance to win (plies, Order hurrying and
                     * Chaos delaying; 1: Order wins on this move), -1 unknown */
    uint64_t nodes; /* searched */
    double seconds;
} AdviceValue;

typedef struct {
    Move move;         /* MOVE_NONE only when the game is over */
    AdviceKind kind;
    AdviceValue value; /* of the position before the move */
    int cell;          /* CENTRE_PAIR, PAIRING: the cell of the piece the move
                        * answers (its pair partner), -1 none */
    int pairs;         /* PAIRING: pairs left after the move */
} Advice;

typedef struct {
    Rules r;
    DfpnConfig cfg;
    Centre centre;
    TT tt, abtt;
    int threads;
    Store *store; /* NULL: none (or one of another game) */
    /* The last pairing found: it holds at pair_board (Order to move). */
    bool have_pairs;
    Board pair_board;
    PairSet pairs;
    /* The last distance to win claimed (-1 none), at claim_board. */
    int claim_dtw;
    Board claim_board;
    /* When set, the searches stop (a value they return as decided stays
     * exact; one stopped is WINNER_NONE); NULL: only the think time stops
     * them. advisor_init leaves it NULL: the caller points it at its flag. */
    atomic_bool *interrupt;
    /* The lemma's table builds give up past this (monotonic seconds,
     * clock.h; 0: none): set by advise, advise_value and analyse to the
     * end of their think time, so a new settled-pair restriction's table
     * (0.6 s each) cannot stretch a short think many times over (no claim
     * then, which is sound; centre.h centre_small_win_stoppable). */
    double lemma_deadline;
} Advisor;

/* Sets up an advisor for r with tables of tt_bytes in all (a quarter for
 * alpha-beta), df-pn on `threads` threads, and the store (NULL: none; not
 * used unless it is of r's game). 0, or -1 with a message (no memory). */
int advisor_init(Advisor *a, const Rules *r, size_t tt_bytes, int threads, Store *store, char *err, int errlen);
void advisor_free(Advisor *a);

/* A move for the side to move in b (any status), searching at most about
 * `think` seconds (the lemmas and the store take no search). */
void advise(Advisor *a, Board b, double think, Advice *out);

/* The value of b (and Order's distance to win when found in the time):
 * the rules, the lemmas, the store, then df-pn and alpha-beta. */
void advise_value(Advisor *a, Board b, double think, AdviceValue *out);

#endif
