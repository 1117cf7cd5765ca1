/* proof_writer.h - internal to solver/proof*.c: the walk that writes a
 * certificate (proof.c), shared by the value search's writer (proof.c)
 * and the bounded question's two writers (proof_within.c), which differ
 * only in where the winner's moves come from and, for a "no", in the
 * horizon that closes branches.
 *
 * Invariants: each canonical position is written at most once (seen);
 * the loser's every move is followed; a branch is closed only where the
 * verifier closes it with its own code (a finished game, no window left
 * that can still win, a lemma line, and for a horizon certificate no
 * line possible in the plies left: proof_fewest_to_line), so that every
 * position the verifier follows has its line.
 */
#ifndef OCS_PROOF_WRITER_H
#define OCS_PROOF_WRITER_H

#include <stdio.h>

#include "centre.h"
#include "proof.h"

/* Where the winner's moves come from: a move for b (the winner to move),
 * or MOVE_NONE with *why set. */
typedef Move (*MoveSource)(void *arg, Board b, const char **why);

/* Visited positions (canonical forms), proof.c. */
typedef struct {
    Board *slot;
    size_t cap, count;
} Seen;

typedef struct {
    FILE *f;
    const Rules *r;
    MoveSource move;
    void *arg;
    const Centre *centre; /* close Order's branches by centre lines where it wins; NULL: never */
    Winner winner;
    bool pairing;  /* close Chaos's branches by pairing lines */
    bool bounded;  /* a Chaos certificate to a horizon ('horizon' in the header): Order cannot win
                      within `horizon` plies of the root */
    int horizon;
    int root_pieces; /* set by proof_walk */
    uint64_t max_lines;
    Seen seen;
    ProofStats st;
    char *err;
    int errlen;
} Writer;

/* Writes the header (comment: its second line; 'horizon' when bounded)
 * and the proof from root; frees the walk's memory. Returns 0, or -1 with
 * the message in w->err. */
int proof_walk(Writer *w, Board root, int version, const char *comment, ProofStats *st);


#endif
