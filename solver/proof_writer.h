/* proof_writer.h - internal to solver/proof*.c: the walk that writes a
 * certificate (proof.c), shared by the value search's writer (proof.c)
 * and the bounded question's two writers (proof_within.c), which differ
 * only in where the winner's moves come from and, for a "no", in the
 * horizon that closes branches.
 *
 * Invariants: each canonical position is written at most once (seen);
 * the loser's every move is followed; a branch is closed only where the
 * verifier closes it with its own code (a finished game, no window left
 * that can still win, a lemma line, Order's win within three plies by
 * a double four or the like that the verifier finds itself:
 * proof.c order_wins_in_three, and for a horizon certificate no
 * line possible in the plies left: proof_fewest_to_line, or Chaos to move
 * with at most four plies left and a move that holds them, which the
 * verifier finds itself: proof.c chaos_holds_short), so that every
 * position the verifier follows has its line.
 */
#ifndef OCS_PROOF_WRITER_H
#define OCS_PROOF_WRITER_H

#include <stdio.h>

#include "../engine/symmetry.h"
#include "centre.h"
#include "proof.h"

/* A position's 8 geometric images of each word (symmetry.h), handed from
 * a position to its children: a child's are its parent's exclusive-or the
 * images of the one cell placed, which is cheaper than making them anew
 * at every one of the ~70 children of each of the loser's positions. */
typedef struct ProofImages {
    uint64_t ix[SYM_GEOMETRIC], io[SYM_GEOMETRIC];
} Images;

static inline void images_of(Board b, int n, Images *im)
{
    sym_images(b.s[PIECE_X], n, im->ix);
    sym_images(b.s[PIECE_O], n, im->io);
}

static inline void images_child(const Images *parent, Move m, const SymCellMap *map, Images *child)
{
    *child = *parent;
    sym_images_xor(move_piece(m) == PIECE_X ? child->ix : child->io, 1ULL << move_cell(m), map);
}

/* Where the winner's moves come from: a move for b (the winner to move),
 * or MOVE_NONE with *why set. */
typedef Move (*MoveSource)(void *arg, Board b, const char **why);

/* Visited positions (canonical forms), proof.c. */
typedef struct {
    Board *slot;
    size_t cap, count;
} Seen;

typedef struct ProofWriter {
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
    ProofShare *share; /* NULL: one file (proof.h, shared subtrees) */
    struct ShareSpill *spill; /* a shared subtree held in memory until it is big
                                 enough for a file of its own (proof_share.c); NULL: none */
    int (*spill_line)(struct ProofWriter *w, Board b); /* with spill: proof_line's step (proof_share.c) */
    int share_lo, share_hi; /* the piece counts that get files of their own; set by proof_walk */
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

/* The walk's parts (proof.c), for the shared subtrees (proof_share.c):
 * b, its images im, reached by move m (MOVE_NONE at a file's root),
 * written from there; the header alone; an error at b (-1, the message in
 * w->err); whether the file is at its line bound. */
int proof_visit(Writer *w, Board b, Move m, const Images *im);
void proof_header(Writer *w, Board root, int version, const char *comment);
int proof_fail(Writer *w, const char *what, Board b);
bool proof_full(const Writer *w);
/* Counts a line written to w->f: 0, or -1 (w->err) when a shared subtree
 * held in memory could not move to its file on reaching its size. */
int proof_line(Writer *w, Board b);

/* Shared subtrees: proof_share.c installs its steps as hooks
 * (ProofShare.subtree, Writer.spill_line), so that the walk here never
 * calls that file and the two are no circle. */


#endif
