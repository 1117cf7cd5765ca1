/* proof.h - writing a proof certificate (format: README, "Proof
 * certificates"). The certificate lists, for every position reachable in
 * the proof with the winner to move, the winner's move; with the loser to
 * move every legal move is followed, dead cells and symmetry included, so
 * that a verifier sharing none of the solver's knowledge can replay it.
 * Positions are written once each, in their canonical (least) form with the
 * move mapped into that frame; Order's lines are left out where Order can
 * complete a line at once. A position the centre lemma (centre.h) wins for
 * Order, with either side to move, is closed by a line "POSITION lemma
 * centre" (version 2 of the format) instead of being followed: the verifier
 * checks the lemma with its own code. Likewise a position of a Chaos proof
 * for which a pairing (pairing.h) is found, with either side to move, is
 * closed by "POSITION lemma pairing a1:f6= b2:b5~ ..." in the canonical
 * frame (when pairing is switched on; ocproof 2).
 *
 * The winner's moves come from a move source: the value search's table
 * (proof_write: dfpn_winning_move, with its side table of proven Order
 * moves when the caller set one: wintab.h), or the depth-bounded search's
 * (proof_within.c; proof_write_within: a move whose child Order wins
 * within the plies left; proof_write_not_within: a Chaos move whose child
 * Order cannot win within them). Every path from the root to a position
 * has the same length, so the plies left at a position are fixed by its
 * piece count and one line per canonical position serves every path: a
 * certificate so written wins within the bound, which the verifier's
 * longest game shows, or keeps every line off the board up to its
 * horizon, which the verifier checks (verify.h, Horizon certificates).
 */
#ifndef OCS_PROOF_H
#define OCS_PROOF_H

#include <stdio.h>

#include "dfpn.h"
#include "dfpn_depth.h"

typedef struct {
    uint64_t lines;     /* position lines written (moves and lemmas) */
    uint64_t positions; /* distinct positions visited */
    uint64_t lemmas;    /* of the lines, those closing a branch by a lemma */
} ProofStats;

/* Shared subtrees (proof_write_shared). A job-level search writes one
 * certificate per decided job, and sibling jobs reach the same positions
 * by transposition: on the empty board's run 66 % of the positions with
 * seven pieces under Order's moves stood in more than one job's file
 * (results/jobs/cert-share.md). With sharing on, the writer gives each
 * position with the loser to move `lo` to `hi` plies below the root
 * (counted from the first file's root, so files do not split for ever)
 * a file of its own in `dir`, named as the store names a position's
 * certificate (`name`), and writes "POSITION see NAME" where it stands;
 * a later writer that finds that file already there (its header this
 * game's, this winner's, no horizon, its root the position up to
 * symmetry) writes the see line alone. Nothing new is asked of the
 * verifier: a see line's file is checked on its own, as any other, and a
 * file's positions all have more pieces than its root, so files never
 * name one another in a circle. A file found there is trusted only as far
 * as its header: a damaged one makes a certificate the verifier rejects,
 * never a wrong one it accepts. */
struct ProofWriter;
struct ProofImages;

typedef struct {
    const char *dir;
    int lo, hi; /* plies below the root; 0 and 0: no sharing */
    void (*name)(const Rules *r, Board b, char *name, size_t len);
    uint64_t min_lines; /* a file only for a proof of at least this many lines: a
                         * smaller one (held in memory until then) is written in
                         * place, walked again (a file costs about as much as 50
                         * lines; results/jobs/cert-share.md); 0 or 1: every one */
    uint64_t files, lines, shared; /* files written, their lines, see lines to files found there */
    /* The loser to move at b (canonical form canon, images im), at a piece
     * count that gets files of its own: b's file, found or written now,
     * and the see line here: 0; 1 when b's proof is under min_lines lines
     * (no file: the walk writes it in place); -1 (the writer's error).
     * Set by proof_share_init (proof_share.c). */
    int (*subtree)(struct ProofWriter *w, Board b, Board canon, const struct ProofImages *im);
} ProofShare;

/* A ProofShare for the folder dir, positions lo..hi plies below the root,
 * files named by name, of at least min_lines lines (proof_share.c). */
void proof_share_init(ProofShare *sh, const char *dir, int lo, int hi,
                      void (*name)(const Rules *r, Board b, char *name, size_t len), uint64_t min_lines);


/* Writes the certificate of root, whose value winner the search d has
 * established, of at most max_lines position lines (0: no bound). Returns
 * 0, or -1 with a message in err (a limit stopped a re-search, the bound
 * was reached, or the output failed). */
int proof_write(FILE *f, Dfpn *d, Board root, Winner winner, uint64_t max_lines, ProofStats *st, char *err,
                int errlen);

/* proof_write with shared subtrees (ProofShare above; share NULL: none).
 * The certificate is then of version 2 (see lines); st counts the lines of
 * f alone, share->files and share->lines the files written beside it. */
int proof_write_shared(FILE *f, Dfpn *d, Board root, Winner winner, uint64_t max_lines, ProofShare *share,
                       ProofStats *st, char *err, int errlen);

/* Writes the certificate that Order wins root within `plies` plies, which
 * the bounded search s has answered yes (dfpn_depth_within), with the moves
 * dfpn_depth_proof_move gives; no lemma lines (ocproof 1). Returns as proof_write. */
int proof_write_within(FILE *f, DfpnDepth *s, Board root, int plies, uint64_t max_lines, ProofStats *st, char *err,
                       int errlen);

/* Writes the certificate that Order cannot win root within `plies` plies
 * (a Chaos certificate with 'horizon plies' in its header), which the
 * bounded search s has answered no (dfpn_depth_within). At each Chaos-to-move
 * position with h plies left it gives the first Chaos move (cells
 * ascending, X before O) whose child s answers no at h - 1, those the
 * table answers at once first; it follows every Order move, and closes a
 * branch where no line can stand in the plies left (at the horizon, with
 * no window live, under exact-end with too many empty cells) or by a
 * pairing line (ocproof 2, where s's knowledge has pairing on and the
 * board is even). Returns as proof_write; a root already ended has no
 * certificate. */
int proof_write_not_within(FILE *f, DfpnDepth *s, Board root, int plies, uint64_t max_lines, ProofStats *st,
                           char *err, int errlen);

/* The fewest plies after which a line can stand at b (ongoing, no line
 * standing), whatever either side plays: the fewest empty cells of a
 * window still live for a symbol (rules.h), under exact-end the empty
 * cells of the board if any window is live; INT_MAX if none is. The
 * verifier's vr_fewest_to_line, by the engine's windows (proof.c: the
 * walk closes a horizon certificate's branches by it): where it exceeds
 * the plies left, a horizon certificate needs no line (and the job-level
 * search's bounded mode answers no, jobs/within.h). */
int proof_fewest_to_line(const Rules *r, Board b);

#endif
