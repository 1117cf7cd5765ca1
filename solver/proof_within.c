/* proof_within.c - the certificates of the bounded question "does Order
 * force a line within d plies?" (proof.h): Order's for a yes
 * (proof_write_within), Chaos's to a horizon for a no
 * (proof_write_not_within). Both take their moves from the depth-bounded
 * search through its public interface only (dfpn_depth.h: dfpn_depth_within,
 * dfpn_depth_proof_move) and walk the proof with proof.c's writer.
 *
 * Invariants: a no certificate's Chaos move at a position with h plies
 * left is one whose child the search answers no at h - 1, so the walk
 * never meets a line within the horizon unless the search was wrong
 * (then it fails, "proof reaches a loss"); Order's every move is followed
 * by the walk itself, whatever the search skipped or merged (unsafe Chaos
 * moves, dead cells), so the certificate rests on nothing the search
 * knows; branches close only where the verifier closes them too
 * (proof_writer.h). */
#include <stdio.h>

#include "proof.h"
#include "proof_writer.h"

/* The bounded search's moves: at b, with plies - (pieces placed since the
 * root) plies left, the winner's move keeps the answer with one ply fewer. */
typedef struct {
    DfpnDepth *s;
    int root_pieces, plies;
} WithinSource;

static int plies_left(const WithinSource *v, Board b) { return v->plies - (board_count(b) - v->root_pieces); }

static Move within_move(void *arg, Board b, const char **why)
{
    WithinSource *v = arg;
    Move m = dfpn_depth_proof_move(v->s, b, plies_left(v, b));
    if (m == MOVE_NONE) *why = v->s->stopped ? "a limit stopped the search" : "no move within the bound found";
    return m;
}

int proof_write_within(FILE *f, DfpnDepth *s, Board root, int plies, uint64_t max_lines, ProofStats *st, char *err,
                       int errlen)
{
    WithinSource v = {s, board_count(root), plies};
    Writer w = {.f = f, .r = s->r, .move = within_move, .arg = &v, .centre = NULL, .winner = WINNER_ORDER,
                .pairing = false, .max_lines = max_lines, .err = err, .errlen = errlen};
    char comment[96];
    snprintf(comment, sizeof comment, "written by ocsolve solve --within: Order wins within %d plies", plies);
    return proof_walk(&w, root, 1, comment, st);
}

/* W(b, d) as far as the table and the knowledge answer it with at most
 * one expansion: the search's node limit is narrowed to one more node (a
 * stopped search answers -1 and stores nothing but facts, dfpn_depth.h)
 * and restored. The search that answered the parent no left a fact for
 * the child its disproof used, so this usually finds a move without
 * proving the children before it in cell order, which may be yes and
 * each cost a search. */
static int answer_cheaply(DfpnDepth *s, Board b, int d)
{
    SearchLimits keep = s->lim;
    uint64_t one = s->nodes + 1;
    if (!s->lim.node_limit || s->lim.node_limit > one) s->lim.node_limit = one;
    int a = dfpn_depth_within(s, b, d, NULL);
    s->lim = keep;
    return a;
}

/* Chaos to move at b with h plies left (h >= 1: the walk closed h = 0):
 * the first move, cells ascending and X before O, whose child is no at
 * h - 1 among those answered cheaply; else the move of a new disproof of
 * b (dfpn_depth_disproof_move: the most promising child first); else the
 * first such move by search, child after child. */
static Move chaos_move(void *arg, Board b, const char **why)
{
    WithinSource *v = arg;
    DfpnDepth *s = v->s;
    int h = plies_left(v, b);
    uint64_t empty = s->r->cells & ~board_occupied(b);
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1) {
            Move m = dfpn_depth_disproof_move(s, b, h);
            if (m != MOVE_NONE) return m;
            if (s->stopped) {
                *why = "a limit stopped the search";
                return MOVE_NONE;
            }
        }
        for (uint64_t e = empty; e;) {
            int c = bb_pop(&e);
            for (int p = 0; p < 2; p++) {
                Move m = move_make(p, c);
                Board cb = b;
                board_place(&cb, m);
                int a = pass == 0 ? answer_cheaply(s, cb, h - 1) : dfpn_depth_within(s, cb, h - 1, NULL);
                if (a == 0) return m;
                if (a < 0 && pass == 1) {
                    *why = "a limit stopped the search";
                    return MOVE_NONE;
                }
            }
        }
    }
    *why = "no Chaos move keeps every line off the board to the horizon (the search said no)";
    return MOVE_NONE;
}

int proof_write_not_within(FILE *f, DfpnDepth *s, Board root, int plies, uint64_t max_lines, ProofStats *st,
                           char *err, int errlen)
{
    *st = (ProofStats){0, 0, 0};
    if (rules_status(s->r, root) != WINNER_NONE) {
        snprintf(err, (size_t)errlen, "no certificate: the game has already ended at the root");
        return -1;
    }
    /* Pairing lines close Chaos's branches as in a value proof (proof.c) */
    bool pairing = s->kn.pairing;
    WithinSource v = {s, board_count(root), plies};
    Writer w = {.f = f, .r = s->r, .move = chaos_move, .arg = &v, .centre = NULL, .winner = WINNER_CHAOS,
                .pairing = pairing, .bounded = true, .horizon = plies, .max_lines = max_lines, .err = err,
                .errlen = errlen};
    char comment[96];
    snprintf(comment, sizeof comment, "written by ocsolve solve --within: Order cannot win within %d plies", plies);
    return proof_walk(&w, root, pairing ? 2 : 1, comment, st);
}
