/* play.h - `ocsolve play`: one game against the advisor (solver/advise.h),
 * shared by the terminal mode (cmd_play.c) and the GTP engine for
 * programs (play_protocol.c): the game's state, moves and undo, the
 * engine's choice of a move (also one restricted to a symbol), and the
 * texts that say what a move and a position are.
 * Invariant: b is start with hist[0..nhist) played on it, and the game
 * (r, n, k) is the one adv was set up for. */
#ifndef OCS_PLAY_H
#define OCS_PLAY_H

#include <stdio.h>

#include "../solver/advise.h"
#include "cli.h"

enum { PLAY_MAX_MOVES = 64 };

typedef struct {
    Rules r;
    Board start, b;            /* where the game began; now */
    Move hist[PLAY_MAX_MOVES]; /* the moves since start */
    int nhist;
    Advisor adv;
    bool ready;                /* adv is set up (for r) */
    double think;              /* seconds per engine move */
    size_t tt_bytes;
    int threads;
    Store *store;              /* NULL: none */
} PlayGame;

/* (Re)starts g on position start under r, keeping the advisor's tables
 * when the game (rules, n, k) is the same. 0, or -1 with a message. */
int play_new(PlayGame *g, const Rules *r, Board start, char *err, int errlen);
void play_free(PlayGame *g);
/* The same, but the advisor's memory (its last pairing and distance
 * claim) is kept when the game is the same: for a host that serves many
 * positions of one game (ocsolve serve). The advisor checks that memory
 * against the board before it uses it (advise.c), so any position may
 * follow any other. */
int play_at(PlayGame *g, const Rules *r, Board start, char *err, int errlen);

/* What play_text_move returns: the move was played, or it was not
 * because the text is no move of this board, or because the move is
 * illegal here (occupied cell, game over). Two kinds, because GTP tells a
 * "syntax error" from an "illegal move". */
enum { PLAY_OK = 0, PLAY_SYNTAX = -1, PLAY_ILLEGAL = -2 };

/* Parses a move ("Xc3"; the symbol may be written in lower case) and plays
 * it for the side to move: PLAY_OK, or PLAY_SYNTAX (malformed, off the
 * board) or PLAY_ILLEGAL (occupied, the game is over) with a one-line
 * message. */
int play_text_move(PlayGame *g, const char *text, Move *m, char *err, int errlen);
void play_move(PlayGame *g, Move m);
/* Takes back the last move; false when there is none. */
bool play_undo(PlayGame *g);

/* Who played move i of the history. */
Winner play_mover_of(const PlayGame *g, int i);

/* The engine's move for the side to move (the game ongoing). sym -1: any
 * symbol, the advisor's move (advise). sym PIECE_X or PIECE_O: a move
 * placing that symbol - the advisor's own when it places it, else the
 * best of sym's moves by their values (advise_value on each, the think
 * time shared among them; so up to about twice the think time), ranked:
 * wins at once, then proved to keep the mover's win, then undecided, then
 * proved lost (Chaos resisting longest where the distance is known).
 * So a move placing sym that is proved to keep the win is never passed
 * over for one that is not. */
typedef struct {
    Advice a;          /* a.move: the move (MOVE_NONE: none found); a.value:
                        * the position's value before it */
    bool restricted;   /* chosen among sym's moves, not the advisor's own */
    int sym;           /* restricted: the symbol */
    Winner mover;      /* the side that moves */
    Move preferred;    /* restricted: the advisor's own move */
    int rank;          /* restricted: 4 wins at once, 3 keeps a proved win,
                        * 2 undecided, 1 proved lost, 0 loses at once */
    AdviceValue child; /* restricted: the value after the move */
} PlayChoice;
void play_choose(PlayGame *g, int sym, PlayChoice *c);
/* The protocol's KIND of a choice: play_kind_token of the advisor's, or
 * for a restricted one win-now, keeps-win, guess or lost. */
const char *play_choice_kind(const PlayChoice *c);
/* The reason for a choice in words (play_reason for the advisor's own). */
void play_choice_reason(const PlayGame *g, const PlayChoice *c, char *buf, size_t size);

/* "Order" or "Chaos": a side as people read it. */
static inline const char *play_side_name(Winner w) { return w == WINNER_ORDER ? "Order" : "Chaos"; }

/* "order", "chaos" or "unknown" ... as protocol tokens. */
const char *play_kind_token(AdviceKind k);
const char *play_by_token(ProvedBy by);
/* The reason for a move, for people: "centre strategy: pairing answer on
 * f3 (Order wins: centre lemma)". */
void play_reason(const PlayGame *g, const Advice *a, char *buf, size_t size);
/* How the game ended, for people: "Order wins: five X from b2 to f6". */
void play_result(const PlayGame *g, char *buf, size_t size);

/* The position as a grid with the coordinates of the notation, the last
 * move in brackets: a header line and one line per row, each ending in a
 * newline, none empty (so it fits in a GTP response). buf: at least
 * PLAY_BOARD_TEXT bytes. */
enum { PLAY_BOARD_TEXT = 512 };
void play_board_text(const PlayGame *g, char *buf, size_t size);
/* The same grid between empty lines, for people. */
void play_draw(const PlayGame *g, FILE *out);

/* ocsolve as a GTP version 2 engine on in/out until quit or end of input
 * (play_protocol.c); returns the exit code. */
int play_protocol(PlayGame *g, FILE *in, FILE *out);

#endif
