/* top_sibling.c - sibling transpositions in the top tree (top_sibling.h).
 *
 * The rule. Let node P = A + R (A its parent, R its move) be decided for
 * the side w that is to move at P, with a winning move M: the position
 * X = P + M, the other side to move, is a win for w. A sibling S of P
 * (another child of A, so the same number of pieces and w to move there
 * too) from which one move R' reaches X, or an image of X under one of the
 * 16 symmetries, is then a win for w by R'. This is the usual
 * transposition: in Order and Chaos either side may put either symbol on
 * any empty cell, so A + M + R and A + R + M are one board, and a
 * position's value is its board's and the side to move's, never the
 * order its pieces came in (every rule set judges the board: a line
 * standing, or the full board). S being an undecided top-tree node, it
 * is ongoing; X is whatever its board is, and P's proof shows it won.
 * Found S: every undecided sibling, every move of it, every image of X
 * (P + M's siblings that reach X are A + M up to symmetry).
 *
 * Why: a job-level search on the empty board proves the 40 replies to X b2
 * one by one, and the replies transpose: "X b2, O c3, then X f6" is "X b2,
 * X f6, then O c3". One worker met such a sibling already proved in its
 * table (a job of one node); two workers, whose jobs run side by side,
 * proved it again, 0.46-0.60 M nodes each (results/jobs/jobs-efficiency.md).
 * Measured worth there (make solve-search's jobs command, idle): one
 * worker 201 jobs and 45.1 M nodes against 210 and 45.4 M, 13 siblings
 * decided so; two workers 114.4 and 117.3 s against one worker's 195.8 s
 * (1.71x, 1.67x; 1.50x before), and one run of 264 s that went through
 * X c2 and then X c3 (the root's numbers, not this rule).
 *
 * Where M comes from: the job's (JobOutcome.move, found before its
 * certificate, so that a run takes the same jobs with certificates as
 * without) or the tree's (its winning child's). A move from a job is
 * checked to be legal first (an MPI rank's is not trusted). The
 * certificate of S is "S R'" and a see line to X's file: X's own when it
 * has one (the winning child's, when the tree decided P), else a copy of
 * P's certificate rooted at X when P's root line plays M (the proof of X
 * is inside it; topcert_reroot), else X proved again. A wrong M or R'
 * makes a certificate the verifier rejects, never one it accepts.
 */
#include "top_sibling.h"

#include "../engine/moves.h"
#include "../engine/symmetry.h"

/* X: P's position after its winning move, when known and legal. */
static bool won_position(const Coordinator *c, int i, Board *x)
{
    const TNode *p = &c->t[i];
    Move m = p->win;
    if (m == MOVE_NONE || !(c->r->cells >> move_cell(m) & 1) || (board_occupied(p->b) >> move_cell(m) & 1))
        return false;
    *x = p->b;
    board_place(x, m);
    return true;
}

/* A move of s that reaches an image of x (one more piece, the same
 * board up to symmetry), or MOVE_NONE. */
static Move reaching(const Coordinator *c, Board s, Board x)
{
    int n = c->r->n;
    if (board_count(x) != board_count(s) + 1) return MOVE_NONE;
    for (int g = 0; g < SYM_COUNT; g++) {
        /* y's pieces that s lacks: one exactly means s lies inside y (with
         * one piece more: had s a piece y lacks, y would have two s lacks) */
        Board y = sym_apply(x, g, n);
        uint64_t ex = y.s[PIECE_X] & ~s.s[PIECE_X], eo = y.s[PIECE_O] & ~s.s[PIECE_O];
        if (__builtin_popcountll(ex) + __builtin_popcountll(eo) != 1) continue;
        return move_make(ex ? PIECE_X : PIECE_O, __builtin_ctzll(ex | eo));
    }
    return MOVE_NONE;
}

/* Sibling j's certificate: its move r to sx, an image of x. The file of x
 * when it has none: P's certificate rooted at x when P's root line plays
 * that move (the proof of x is then inside it), else x proved again
 * (topcert_ensure). */
static int certify(Coordinator *c, int i, int j, Move r, Board x, Winner w)
{
    Board s = c->t[j].b, sx = s;
    board_place(&sx, r);
    if (!topcert_have(&c->tc, sx)) {
        Board pos;
        Move m;
        int n = c->r->n, rc;
        if (c->t[i].by == BY_JOB && topcert_root_move(&c->tc, c->t[i].b, &pos, &m) == 0 &&
            (board_place(&pos, m), board_equal(sym_canonical(pos, n, NULL), sym_canonical(x, n, NULL))))
            rc = topcert_reroot(&c->tc, c->t[i].b, pos, c->err, c->errlen);
        else
            rc = topcert_ensure(&c->tc, sx, w, c->err, c->errlen);
        if (rc != 0) return c->failed = true, -1;
    }
    if (topcert_node(&c->tc, s, w, &sx, &r, 1, NULL, NULL, c->err, c->errlen) != 0) return c->failed = true, -1;
    c->out->cert_files++;
    return 0;
}

int top_siblings(Coordinator *c, int i, int js[MOVES_MAX], Move rs[MOVES_MAX])
{
    const TNode *p = &c->t[i];
    Winner w = top_value(p);
    Board x;
    if (c->bounded || c->spec->no_siblings || p->parent < 0 || board_order_to_move(p->b) != (w == WINNER_ORDER) ||
        !won_position(c, i, &x))
        return 0;
    const TNode *a = &c->t[p->parent];
    int k = 0;
    for (int j = a->first; j < a->first + a->nchild && k < MOVES_MAX; j++) {
        if (j == i || top_decided(&c->t[j])) continue;
        Move r = reaching(c, c->t[j].b, x);
        if (r == MOVE_NONE) continue;
        if (top_certify_now(c) && certify(c, i, j, r, x, w) != 0) return -1;
        js[k] = j;
        rs[k++] = r;
    }
    return k;
}
