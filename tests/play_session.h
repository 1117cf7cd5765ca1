/* play_session.h - the tests' side of `ocsolve play` (test_play.c,
 * test_play_gtp.c, test_play_claims.c): a strict GTP version 2 client for
 * the binary under test (OCSOLVE_BIN), and the test's own board.
 *
 * The binary runs as a child with both ends piped: the test writes a
 * command with an id, reads the response and checks its framing
 * (ps_response(): '=' or '?', the id echoed, a space, the text, one empty
 * line at the end, nothing after it), and keeps its own copy of the board
 * (a RefPos), so nothing the engine says about the position is taken on
 * trust. Invariants: every read has a time limit (a response that does
 * not come or does not end is a failure, not a hang), and the child has
 * an alarm; a session's board in the engine and the test's RefPos move
 * together (ps_play_both, ps_genmove), and the test reads moves and the
 * board with its own reading of the notation, never the engine's. */
#ifndef OCS_PLAY_SESSION_H
#define OCS_PLAY_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "ref.h"

/* The suites' .init: SIGPIPE ignored, so that writing to a session that
 * has ended is a failed write (a test failure), not the test's death. */
void ps_no_sigpipe(void);

/* ------------------------------------------------------------------ */
/* A session with the binary: a strict GTP version 2 client            */
/* ------------------------------------------------------------------ */

typedef struct {
    pid_t pid;
    int to, from;        /* the child's stdin and stdout */
    char buf[1 << 16];   /* read from `from`, not yet taken */
    size_t have;
    bool eof;
    unsigned id;         /* the last id sent */
} Session;

/* Starts `ocsolve play ARGS...` with stdin and stdout piped (stderr to
 * /dev/null) and an alarm, so that a hang becomes a failure. */
void ps_start(Session *s, const char *const *args);
#define PS_START(s, ...) ps_start((s), (const char *const[]){__VA_ARGS__, NULL})
/* A GTP session (--protocol) thinking `think` seconds a move, for the game
 * n x n, k, rules, and the test's own empty board of it (rules as ref.h
 * numbers them: rref) in p. */
void ps_start_game(Session *s, RefPos *p, const char *rules, int rref, int n, int k, const char *think);

/* Writes len bytes of data to the session's stdin. */
void ps_send(Session *s, const char *data, size_t len);

/* Reads the response to cmd, sent with id ("" none), and checks its
 * framing: the first line is '=' or '?', the id, a space, the text; then
 * the text's further lines (an error has none), ended by one empty line,
 * with nothing after it. The text (lines joined by '\n') into text;
 * true for '='. */
bool ps_response(Session *s, const char *cmd, const char *id, char *text, size_t size);

/* Sends cmd with the next id and reads its response (see ps_response). */
bool ps_gtp(Session *s, const char *cmd, char *text, size_t size);

/* cmd must succeed: its result text. */
const char *ps_ask(Session *s, const char *cmd, char *text, size_t size);

/* cmd must fail with a message that contains needle. */
void ps_expect_error(Session *s, const char *cmd, const char *needle);

/* Closes stdin (end of input), reads what is left of stdout into rest (if
 * not NULL), and returns the exit code (-1: killed by a signal). */
int ps_finish(Session *s, char *rest, size_t size);

/* ------------------------------------------------------------------ */
/* The test's own board                                                 */
/* ------------------------------------------------------------------ */

/* The empty n x n board with k and the REF_ rules into p. */
void ps_ref_empty(RefPos *p, int n, int k, int rules);

/* Reads a move such as "Xc3" with the test's own reading of the notation:
 * the symbol, the column letter (a = 0), the row number from the top (1 =
 * row 0). The cell index in p, or -1. */
int ps_read_move(const RefPos *p, const char *mv, char *sym);

/* Is Order to move in p (an even number of pieces)? */
bool ps_order_to_move(const RefPos *p);

/* p's status as the engine words it: "order-won", "chaos-won", "ongoing". */
const char *ps_status_word(const RefPos *p);

/* The empty cells of p. */
int ps_empties(const RefPos *p);

/* A uniformly random move of p (ongoing). */
void ps_random_move(const RefPos *p, uint64_t *rng, char out[8]);

/* A random move of p (ongoing) that does not complete a line, if there
 * is one: a random Chaos that does not throw the game away. */
void ps_random_safe_move(const RefPos *p, uint64_t *rng, char out[8]);

/* Plays mv on both boards: the session's (must answer "= STATUS", the
 * status the reference rules give) and p. */
void ps_play_both(Session *s, RefPos *p, const char *mv);

/* One genmove answer, parsed: = MOVE KIND WINNER DTW REASON... */
typedef struct {
    char move[8], kind[32], winner[16], dtw[16];
    const char *reason;
    int cell;
    char sym;
} PsGen;

/* The advisor's kinds, then keeps-win (a move restricted to a symbol). */
enum { PS_NKINDS = 9 };
extern const char *const ps_kinds[PS_NKINDS];

/* Asks genmove (with the symbol sym, NULL: none), checks the answer's form
 * and that the move is legal in p (the game ongoing, the cell on the board
 * and empty, the symbol the one asked for), and plays it on p. */
void ps_genmove(Session *s, RefPos *p, PsGen *g, char *buf, size_t size, const char *sym);

/* Is word one whole line of text? */
bool ps_has_line(const char *text, const char *word);

/* showboard must show p: the first line "POSITION TO-MOVE STATUS" by the
 * test's own reading of p, then the board drawn with the notation's
 * coordinates (a header of column letters, one line per row numbered from
 * 1, a cell at column 4 + 2c), and nothing else; last (a cell of p, -1
 * none) in brackets. */
void ps_expect_board(Session *s, const RefPos *p, int last);

#endif
