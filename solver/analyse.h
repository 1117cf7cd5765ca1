/* analyse.h - every legal move's value in one position, as the analysis
 * board (`ocsolve serve`) shows it: who wins after the move, Order's
 * distance to win when known, what proved it, and whether the move keeps
 * a lemma's strategy (which pair answered which). Prints nothing, never
 * exits; progress through a callback.
 *
 * Two passes, so that the cheap answers come first:
 *   1. static: every move's child is judged by the rules (the move ends
 *      the game), the centre lemma (centre.h), a pairing (pairing.h) and
 *      the store, in that order, with no search;
 *   2. search: each child left undecided, then each Order win without a
 *      distance, gets advise_value (advise.h: df-pn, then alpha-beta for
 *      the distance) with an equal share of the think time left, so time
 *      a quick child leaves over goes to the later ones.
 *
 * Soundness (the board must never contradict the solver): a child's
 * winner is WINNER_NONE unless one of the sound sources above decided it
 * (the rules; the lemmas, proved in their headers; the store, which keeps
 * decided positions only; df-pn, exact when it answers); its dtw is -1
 * unless alpha-beta or the store found it exactly (or the move ends the
 * game: 0). The position's own value is the rules', a lemma's or the
 * store's, or else follows from its moves by minimax over decided values
 * only: the mover wins when one move is a proved win for the mover, loses
 * when every move is a proved loss. Its distance is given only when every
 * move that could matter has its exact distance (Order to move: no move
 * undecided and every winning move's distance known, dtw = 1 + the least;
 * Chaos to move: every move an Order win with a known distance, dtw = 1 +
 * the greatest), the definition of dtw (advise.h) applied once.
 *
 * Strategy steps (an annotation, never a value): with Order to move, a
 * move whose child is a centre-strategy win is a ring answer (STEP_CENTRE_
 * PAIR: its ring pair's other cell holds a piece, which it answers) or a
 * winning move of the small centre game (STEP_CENTRE_SMALL). With Chaos
 * to move and the last move known, the position before it (Order to move)
 * is given a pairing by pairing_find; if Order's last move was in one of
 * its pairs, the answer in that pair (the same symbol for a same pair,
 * the other for an opposite one) is STEP_PAIRING_PAIR when the rest of
 * the pairing still holds after it (pairing_holds), and if it was on a
 * free cell, every move on a free cell after which the whole pairing
 * holds is STEP_PAIRING_FREE. Such a move's child is a Chaos win by the
 * pairing lemma (pairing_holds checks it whole), and is shown so.
 */
#ifndef OCS_ANALYSE_H
#define OCS_ANALYSE_H

#include "advise.h"

enum { ANALYSE_MAX_MOVES = 2 * BOARD_MAX_N * BOARD_MAX_N };

typedef enum {
    STEP_NONE = 0,
    STEP_CENTRE_PAIR,  /* ring answer of the centre strategy */
    STEP_CENTRE_SMALL, /* a winning move of the small centre game */
    STEP_PAIRING_PAIR, /* the pairing's answer in Order's pair */
    STEP_PAIRING_FREE, /* a free-cell answer keeping the pairing */
} StrategyStep;

typedef struct {
    Move move;
    AdviceValue v;     /* of the position after the move: winner
                        * (WINNER_NONE: not decided), by, Order's dtw
                        * from there (-1 unknown; 0: the move made a line) */
    bool final;        /* no pass will look at it again */
    StrategyStep step;
    int answers;       /* STEP_*_PAIR: the cell of the piece it answers; -1 */
    bool same_pair;    /* STEP_PAIRING_PAIR: the pair is a same pair */
} MoveValue;

typedef struct {
    Winner status;     /* the rules' verdict on the position */
    AdviceValue value; /* the position's own value (above) */
    bool from_moves;   /* value follows from the moves' values */
    int nmoves;        /* every legal move: cells ascending, X before O */
    MoveValue mv[ANALYSE_MAX_MOVES];
    int pending;       /* moves the search pass has still to look at */
    bool centre_on;    /* the centre lemma applies to this game (centre.h) */
    bool centre_holds; /* ... and decides the position (centre_win) */
    bool pairing;      /* a pairing of the position was found: */
    PairSet pairs;     /* its pairs (Chaos wins) */
    double seconds;    /* so far */
} Analysis;

/* Called after the static pass (index -1) and after each move the search
 * pass looked at (its index), with the analysis as it stands. */
typedef void (*AnalyseNote)(const Analysis *an, int index, void *arg);

/* Analyses b (any status) with `last` the move that led to it (MOVE_NONE:
 * unknown; only the pairing's steps need it), searching for about `think`
 * seconds in all (less when adv->interrupt is set). The advisor's tables
 * are used and kept (advise.h). note may be NULL. */
void analyse(Advisor *adv, Board b, Move last, double think, Analysis *out, AnalyseNote note, void *arg);

#endif
