/* play.h - `ocsolve play`: one game against the advisor (solver/advise.h),
 * shared by the terminal mode (cmd_play.c) and the line protocol for
 * programs (play_protocol.c): the game's state, moves and undo, and the
 * texts that say what a move and a position are. */
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

/* Parses a move ("Xc3"; the symbol may be written in lower case) and plays
 * it for the side to move: 0, or -1 with a one-line message (malformed,
 * off the board, occupied, the game is over). */
int play_text_move(PlayGame *g, const char *text, Move *m, char *err, int errlen);
void play_move(PlayGame *g, Move m);
/* Takes back the last move; false when there is none. */
bool play_undo(PlayGame *g);

/* Who played move i of the history. */
Winner play_mover_of(const PlayGame *g, int i);

/* "order", "chaos" or "unknown" ... as protocol tokens. */
const char *play_kind_token(AdviceKind k);
const char *play_by_token(ProvedBy by);
/* The reason for a move, for people: "centre strategy: pairing answer on
 * f3 (Order wins: centre lemma)". */
void play_reason(const PlayGame *g, const Advice *a, char *buf, size_t size);
/* How the game ended, for people: "Order wins: five X from b2 to f6". */
void play_result(const PlayGame *g, char *buf, size_t size);

/* Draws the position as a grid with the coordinates of the notation, the
 * last move in brackets. */
void play_draw(const PlayGame *g, FILE *out);

/* The line protocol on in/out until quit or end of input; returns the
 * exit code. */
int play_protocol(PlayGame *g, FILE *in, FILE *out);

#endif
