/* top_select.c - choosing the next leaf of the job-level search's top
 * tree (top_tree.h): the most-proving available leaf, by each node's
 * numbers (optionally weighed by budget, choice_number), its focus, and
 * the running jobs' expected outcomes (top_tree.c expect_of). Selection
 * only: nothing here changes a number or a value, so no choice made here
 * can make a verdict wrong, only slower. */
#include <math.h>

#include "top_tree.h"

/* The budget leaf n's next job would get: a re-run's is 4 times its last
 * (top_next_budget), a new or running leaf's is its own; an inner node has
 * none (0). */
static uint64_t next_budget(const Coordinator *c, const TNode *n)
{
    if (n->state == T_INNER) return 0;
    return n->state == T_RAN ? top_next_budget(c, n->budget) : n->budget;
}

/* The number child ch is chosen by at a node with the mover isor: its pn
 * (OR node) or dn (AND node), for a leaf times (B / first budget)^W, B its
 * next job's budget and W spec->cost_weight (0: the number alone). Why:
 * numbers after different budgets do not compare. A leaf re-run with 4
 * times the budget each time can keep a number below its siblings' while
 * its value is the other way: on X c3's replies, Od3 Xc4 ran budgets up to
 * 102.4 M (95 M nodes) before a job proved it lost, while its siblings
 * Oc4 (lost) and Xc2 (won) took about 7 M nodes together once tried (the
 * 2-thread run of results/jobs/jobs-efficiency.md). With W = 0.5
 * each budget step doubles the number, so a cheap sibling is tried long
 * before such a leaf gets its next, bigger budget. Selection only.
 * Measured worth: on one worker it made X c3's replies worse (over 359 M
 * nodes and undecided at 1260 s, against 255 M and 993 s at W = 0): it
 * tries many more Order moves at middling budgets. Default 0. */
static double choice_number(const Coordinator *c, const TNode *ch, bool isor)
{
    double v = isor ? ch->pn : ch->dn;
    if (c->spec->cost_weight <= 0 || ch->state == T_INNER || top_decided(ch)) return v;
    return v * pow((double)next_budget(c, ch) / (double)c->job_nodes, c->spec->cost_weight);
}

/* Whether the focus f lets go for the least-numbered sibling best
 * (spec->focus_release R > 0): f's next job would get more than R times
 * the budget of best's. Why: the stickiness is meant to spare cold
 * starts between siblings of like cost, not to keep paying 4 times more
 * for every re-run of one leaf while a sibling with a lower number has had
 * one small job. The trap it was made for: on X c3's replies, Od3 Xc4 ran
 * budgets of 12.8 M, 51.2 M and 102.4 M (109 M nodes) before a job proved
 * it lost, while its sibling Xc2, with a lower number (10 199 against
 * 10 581) from its one first-pass job, then won in 0.67 M
 * (results/jobs/jobs-efficiency.md). Selection only: never a value.
 * Measured worth: at R = 16 it made one worker worse on X c3's replies
 * (over 313 M nodes and undecided at 1230 s, against 255 M in all at
 * R = 0): the stickiness on a leaf far costlier than its siblings also
 * pays, as when one worker kept Of6 Xd3 through 12.8 M and won it at
 * 51.2 M. Default 0 (never). */
static bool focus_released(const Coordinator *c, const TNode *f, const TNode *best)
{
    double r = c->spec->focus_release;
    uint64_t bf = next_budget(c, f), bb = next_budget(c, best);
    return r > 0 && bf > 0 && bb > 0 && (double)bf > r * (double)bb;
}

/* Whether a running job (or a helper) works under reply j (a node
 * top_reply_depth plies below the root). */
static bool reply_busy(const Coordinator *c, int j)
{
    for (int k = 0; k < c->tr->workers; k++)
        if (c->ws[k].node >= 0 && top_ancestor(c, c->ws[k].node, c->t[j].depth) == j) return true;
    return false;
}

/* Whether child j of node n may be chosen: available (counting the
 * running jobs' expected outcomes when virt), and, when one_per_reply and
 * j is a reply (top_reply_depth), no job running under j. Why one job per
 * reply (with reply tables, spec->reply_tables): then every reply's jobs
 * run one after another on its own table, as with one worker, so each job
 * starts from the table one worker's would (the same jobs before it, of
 * that reply alone) and gives the same numbers; two workers then repeat
 * one worker's search instead of steering it elsewhere
 * (results/jobs/jobs-efficiency.md). Selection only: never a value. */
static bool can_choose(const Coordinator *c, const TNode *n, int j, bool virt, bool one_per_reply)
{
    if (!(virt ? top_vavail(&c->t[j]) : c->t[j].avail)) return false;
    return !one_per_reply || n->depth + 1 != top_reply_depth(c) || !reply_busy(c, j);
}

/* With spec->reply_by_work, at the replies in the one-job-per-reply pass:
 * the free reply (can_choose) that most nodes have been spent under
 * (TNode.spent), ties (at first every reply's 0) to the usual least
 * number; -1 if none is free. Why: with one job per reply, each reply's
 * jobs form a chain that one worker runs at a time, so a run cannot end
 * before its longest chain does. Chosen by least number, the workers take
 * turns over every reply (each next job on the reply least tried), so the
 * costly chains advance one small job at a time and are still long when
 * the cheap replies run out; on X c3's replies the 2-worker run then ended
 * on Of6 alone: its 51.2 M-node job began at 540 s of 692, and from 602 s
 * the other worker, out of free replies, only speculated beside it. By most
 * spent, a worker keeps to its reply until the reply is decided (its spent
 * only grows), and since each re-run gets 4 times the budget, the work a
 * reply has taken is also the best guess of the work it has left. Replayed
 * on the 1-worker job log of X c3's replies with 2 workers (reply chains
 * as logged, results/jobs/jobs-efficiency.md): by least spent 634 s, by most
 * spent 570-614 s (the order of untried replies varied), the optimum with
 * the chains known beforehand 570 s. The price: no reply is left early for
 * a cheaper sibling, so a root that Chaos wins through one cheap reply is
 * found later (a position of tests/test_jobs_reply.c: 1797 jobs against
 * 377).
 * Measured worth, X c3's replies with make solve-search's settings and 40
 * tables: 2 workers 355.0 and 374.0 s against 1 worker's 799.8 s (by
 * numbers: 691.6 s against 1158.0 s), neither worker idle at the end;
 * one worker also gains, as a reply's jobs in one stretch share more
 * through the top tree's transpositions (315 M nodes against 377 M).
 * Selection only: never a value. */
static int most_worked(const Coordinator *c, const TNode *n)
{
    bool isor = board_order_to_move(n->b);
    int best = -1;
    for (int j = n->first; j < n->first + n->nchild; j++) {
        if (!can_choose(c, n, j, false, true)) continue;
        uint64_t s = c->t[j].spent, bs = best < 0 ? 0 : c->t[best].spent;
        if (best < 0 || s > bs ||
            (s == bs && choice_number(c, &c->t[j], isor) < choice_number(c, &c->t[best], isor)))
            best = j;
    }
    return best;
}

/* The child of inner node n to descend into: the available child with the
 * least pn (OR node) or dn (AND node); but the child chosen last time
 * (n->focus) is kept while its number is at most (1 + focus) times that
 * least one. The stickiness is the top tree's form of df-pn's 1+epsilon
 * trick: without it, sibling numbers that grow with every job make the
 * selection hop between siblings, and each hop starts jobs on cold
 * tables. Selection only: never a value. */
static int select_child(Coordinator *c, TNode *n, bool virt, bool one_per_reply)
{
    if (one_per_reply && c->spec->reply_by_work && n->depth + 1 == top_reply_depth(c)) return most_worked(c, n);
    bool isor = board_order_to_move(n->b);
    int best = -1;
    double bv = 0;
    for (int j = n->first; j < n->first + n->nchild; j++) {
        if (!can_choose(c, n, j, virt, one_per_reply)) continue;
        double v = choice_number(c, &c->t[j], isor);
        if (best < 0 || v < bv) {
            best = j;
            bv = v;
        }
    }
    int f = n->focus;
    bool f_free = f >= 0 && can_choose(c, n, f, virt, one_per_reply);
    if (best >= 0 && f_free && f != best && !focus_released(c, &c->t[f], &c->t[best])) {
        double fv = choice_number(c, &c->t[f], isor);
        if (fv <= (1.0 + c->spec->focus) * bv) best = f;
    }
    /* A detour around busy (or, with expected outcomes, settled) work does
     * not move the focus; otherwise (the focus free, decided or unset) the
     * choice becomes it. (Until 2026-12-02 the focus moved only in plain
     * selection, so with expected outcomes, the default, it was never set
     * at all: no stickiness, even with one worker, which then searched
     * 34 % more nodes on X c3's replies: results/jobs/jobs-efficiency.md.) */
    if (f < 0 || f_free || top_decided(&c->t[f])) n->focus = best;
    return best;
}

/* The most-proving available leaf (the root must be available): with
 * reply tables, first one under a reply no job runs under (can_choose); then
 * among the leaves that running jobs' expected outcomes leave open when
 * there are any (expect_of), else among all. */
int top_select_leaf(Coordinator *c)
{
    if (top_reply_tables(c) && c->t[0].state == T_INNER) {
        int i = 0;
        while (i >= 0 && c->t[i].state == T_INNER) i = select_child(c, &c->t[i], false, true), c->select_steps++;
        if (i >= 0) return i;
    }
    bool virt = !c->spec->no_expect && top_vavail(&c->t[0]);
    for (;; virt = false) {
        int i = 0;
        while (i >= 0 && c->t[i].state == T_INNER) i = select_child(c, &c->t[i], virt, false), c->select_steps++;
        /* A dead end cannot happen (avail and vavail say some child is);
         * should the expectations ever be stale, the plain selection still
         * finds the work rather than leave a worker idle. */
        if (i >= 0 || !virt) return i;
    }
}
