/* top_regen.c - topcert_ensure (top_cert.h): the certificate of a decided
 * position, made when it is missing: composed from the store's records
 * where they cover the position, else re-proved by a job (the two call
 * each other down the tree, so they live together). Composing is for long
 * runs that go on from a committed snapshot of the store on a machine
 * without the certificate folder (issue 35: certificates are too big to
 * commit).
 *
 * Why it may compose: a store record is a fact a past run decided (a job's
 * df-pn, a top-tree node from its children, a lemma), guarded by its
 * checksum (store.h). The top-tree node records were decided from children
 * that were put too (every decided top-tree node, job root and statically
 * decided child is put), so a node's certificate can be rebuilt from its
 * children's records as the run first built it: the winner to move plays
 * the stored move (or any child stored as a win for it), the loser's every
 * distinct child (up to symmetry) must be stored as the winner's, or be
 * over or an immediate Order win (the verifier judges those itself). A
 * position the records do not cover that way (a job's root: jobs store no
 * children) is re-proved by df-pn, knowing nothing but the rules (the
 * value is known, so only the proof is searched for). Nothing is trusted
 * in the end: the composed certificate is the verifier's to check, and a
 * record that lied would show as a re-proof that finds the other winner
 * (an error) or a certificate that does not verify.
 *
 * A re-proof may be split into its children's (--regen-split, split_node()
 * below) so that a long end phase stopped half way keeps what it made.
 * topcert_prepare runs the same composition dry (TopCert.plan: nothing
 * written) to list the re-proofs it needs, which top_regen_par.c then
 * makes several at a time. */
#include <stdio.h>
#include <stdlib.h>

#include "../engine/moves.h"
#include "../engine/notation.h"
#include "../engine/symmetry.h"
#include "top_cert.h"

/* Is c a win for w that needs no certificate of its own, or a position
 * the store holds as w's? */
static bool covered(TopCert *tc, Board c, Winner w)
{
    Winner st = rules_status(tc->r, c);
    if (st != WINNER_NONE) return st == w;
    /* Order to move completes a line: Order's, and no file says so */
    if (topcert_trivial(tc, c)) return w == WINNER_ORDER;
    char e[8];
    if (topcert_planned(tc, c, false, false)) return true; /* a dry run's: made for w */
    if (topcert_have(tc, c)) return topcert_agrees(tc, c, w, e, (int)sizeof e) == 1;
    StoreKey k = {tc->r->rules, tc->r->n, tc->r->k, c};
    StoreValue v;
    return store_get(tc->store, &k, &v) == 1 && v.winner == w;
}

int topcert_children(const TopCert *tc, Board b, Board *kids, Move *moves)
{
    MoveList ml;
    moves_generate(b, tc->r->cells, &ml);
    Board canon[MOVES_MAX];
    int nk = 0;
    for (int m = 0; m < ml.count; m++) {
        Board cb = b;
        board_place(&cb, ml.m[m]);
        Board cf = sym_canonical(cb, tc->r->n, NULL);
        bool dup = false;
        for (int j = 0; j < nk && !dup; j++) dup = board_equal(canon[j], cf);
        if (dup) continue;
        canon[nk] = cf;
        kids[nk] = cb;
        moves[nk++] = ml.m[m];
    }
    return nk;
}

int topcert_child_by_move(const TopCert *tc, Board b, Move m, const Board *kids, int nk)
{
    if (m == MOVE_NONE) return -1;
    Board cb = b;
    board_place(&cb, m);
    Board cf = sym_canonical(cb, tc->r->n, NULL);
    for (int i = 0; i < nk; i++)
        if (board_equal(cf, sym_canonical(kids[i], tc->r->n, NULL))) return i;
    return -1;
}

/* The certificate of b, won by w, from the store's records of b and its
 * children (argued above): 0 written (and its children's, recursively), 1
 * the records do not cover b (re-prove it), -1 an error (message in err). */
static int compose(TopCert *tc, Board b, Winner w, char *err, int errlen)
{
    if (!tc->store) return 1;
    StoreKey key = {tc->r->rules, tc->r->n, tc->r->k, b};
    StoreValue v;
    int got = store_get(tc->store, &key, &v);
    if (got < 0) {
        snprintf(err, (size_t)errlen, "%s", store_error(tc->store));
        return -1;
    }
    if (got == 0 || v.winner != w) return 1;
    Board kids[MOVES_MAX];
    Move moves[MOVES_MAX];
    int nk = topcert_children(tc, b, kids, moves);
    bool mover = board_order_to_move(b) == (w == WINNER_ORDER);
    if (mover) {
        /* the stored move first, else any child the store holds as w's */
        int pick = topcert_child_by_move(tc, b, v.move, kids, nk);
        for (int i = 0; i < nk && pick < 0; i++)
            if (covered(tc, kids[i], w)) pick = i;
        if (pick < 0 || !covered(tc, kids[pick], w)) return 1;
        kids[0] = kids[pick];
        moves[0] = moves[pick];
        nk = 1;
    } else {
        for (int i = 0; i < nk; i++)
            if (!covered(tc, kids[i], w)) return 1;
    }
    for (int i = 0; i < nk; i++)
        if (rules_status(tc->r, kids[i]) == WINNER_NONE && !topcert_trivial(tc, kids[i]) &&
            topcert_ensure(tc, kids[i], w, err, errlen) != 0)
            return -1;
    if (tc->plan) return topcert_planned(tc, b, true, false), 0; /* a dry run writes nothing */
    if (topcert_node(tc, b, w, kids, moves, nk, NULL, NULL, err, errlen) != 0) return -1;
    tc->composed++;
    return 0;
}

/* The store's move for b, won by w with w to move: the child it leads to
 * (child_by_move), or -1 when the store has none. */
static int stored_pick(TopCert *tc, Board b, Winner w, const Board *kids, int nk)
{
    StoreKey key = {tc->r->rules, tc->r->n, tc->r->k, b};
    StoreValue v;
    if (!tc->store || store_get(tc->store, &key, &v) != 1 || v.winner != w) return -1;
    return topcert_child_by_move(tc, b, v.move, kids, nk);
}

/* The last ply of a split with several threads: the children that need
 * a whole re-proof (no file, and not composed from the store: compose
 * writes those it can, here, one at a time) are re-proved
 * tc->threads at a time (top_regen_par.c); split's own loop then finds
 * their files. children() made them distinct up to symmetry. 0, or -1. */
static int reprove_leaves(TopCert *tc, const Board *kids, int nk, Winner w, char *err, int errlen)
{
    Board todo[MOVES_MAX];
    int nt = 0;
    for (int i = 0; i < nk; i++) {
        if (rules_status(tc->r, kids[i]) != WINNER_NONE || topcert_trivial(tc, kids[i]) || topcert_have(tc, kids[i]))
            continue;
        int c = compose(tc, kids[i], w, err, errlen);
        if (c < 0) return -1;
        if (c == 1) todo[nt++] = kids[i];
    }
    tc->listed += (uint64_t)nt; /* for the progress reports */
    return topcert_reprove_many(tc, todo, nt, w, err, errlen);
}

/* The certificate of b, won by w, as a node over its children's
 * certificates, each made by topcert_ensure one ply further down, instead
 * of one re-proof of b (tc->split_plies plies deep). The loser to move:
 * every distinct child must be w's, because b is (the store's record or
 * the node above says so; a re-proof that finds otherwise is the error
 * it is without the split); the winner to move: the store's move, and
 * without one b is re-proved whole (finding a move would cost a search of
 * b). Why: a re-proof is one df-pn and one file, all lost when the run is
 * stopped; split, each child's file is renamed into place when done, and
 * a run again skips it (topcert_have). The verifier checks the node's see
 * lines as any. 0 written, 1 not split (re-prove b), -1 an error. */
static int split_node(TopCert *tc, Board b, Winner w, char *err, int errlen)
{
    if (tc->split_plies <= 0) return 1;
    Board kids[MOVES_MAX];
    Move moves[MOVES_MAX];
    int nk = topcert_children(tc, b, kids, moves);
    if (board_order_to_move(b) == (w == WINNER_ORDER)) {
        int pick = stored_pick(tc, b, w, kids, nk);
        if (pick < 0) return 1;
        kids[0] = kids[pick];
        moves[0] = moves[pick];
        nk = 1;
    }
    for (int i = 0; i < nk; i++) {
        Winner st = rules_status(tc->r, kids[i]);
        if (st != WINNER_NONE ? st != w : topcert_trivial(tc, kids[i]) && w != WINNER_ORDER) return 1;
    }
    tc->split_plies--;
    int rc = tc->split_plies == 0 && tc->threads > 1 ? reprove_leaves(tc, kids, nk, w, err, errlen) : 0;
    for (int i = 0; i < nk && rc == 0; i++)
        if (rules_status(tc->r, kids[i]) == WINNER_NONE && !topcert_trivial(tc, kids[i]))
            rc = topcert_ensure(tc, kids[i], w, err, errlen);
    tc->split_plies++;
    if (rc != 0) return -1;
    if (topcert_node(tc, b, w, kids, moves, nk, NULL, NULL, err, errlen) != 0) return -1;
    tc->split++;
    return 0;
}

/* Re-proves b (decided for w) into its own file, on tc->mini, within
 * `limit` df-pn nodes (0: none). 0 written, 1 undecided within the limit,
 * -1 an error (or a stop: tc->stopped). */
static int reprove(TopCert *tc, Board b, Winner w, uint64_t limit, char *err, int errlen)
{
    if (topcert_runners(tc, 1, err, errlen) != 0) return -1;
    JobOrder o = {.b = b, .node_limit = limit, .certify = 1, .share = tc->share, .share_min = tc->share_min};
    JobOutcome out;
    if (topcert_stopped(tc, b, NULL, err, errlen)) return -1;
    jobrun_run(&tc->mini, &o, 0, tc->interrupt, &out);
    if (topcert_stopped(tc, b, &out, err, errlen)) return -1;
    if (limit && out.value == WINNER_NONE) return 1;
    if (topcert_outcome(tc, b, w, &out, err, errlen) != 0) return -1;
    tc->written++;
    tc->solved++;
    topcert_tick(tc, 0);
    return 0;
}

/* A position to split is first re-proved whole within this many nodes:
 * one the knowledge decides near its root (a pairing, the centre lemma)
 * has a short proof whole, while its children, split, may each need a
 * search of their own (6x6, X c3 O d4 X c4 O d3, --no-centre: 1 s whole,
 * 507 s as 16 children). On 7x7 a probe is under a minute. */
#define TOPCERT_SPLIT_PROBE ((uint64_t)1 << 20)

static uint64_t probe_nodes(const TopCert *tc) { return tc->split_probe ? tc->split_probe : TOPCERT_SPLIT_PROBE; }

/* Is the canonical form cf in a list of n canonical positions? */
static bool list_has(const Board *list, int n, Board cf)
{
    for (int i = 0; i < n; i++)
        if (board_equal(list[i], cf)) return true;
    return false;
}

/* Did topcert_prepare's probes try b whole, and not finish? */
static bool was_probed(const TopCert *tc, Board b)
{
    return list_has(tc->probed, tc->nprobed, sym_canonical(b, tc->r->n, NULL));
}

int topcert_ensure(TopCert *tc, Board b, Winner w, char *err, int errlen)
{
    if (topcert_have(tc, b) || topcert_planned(tc, b, false, false)) return 0;
    int composed = compose(tc, b, w, err, errlen);
    if (composed <= 0) return composed;
    if (tc->plan) return topcert_planned(tc, b, true, true), 0; /* to be re-proved */
    if (tc->split_plies > 0) {
        int probe = was_probed(tc, b) ? 1 : reprove(tc, b, w, probe_nodes(tc), err, errlen);
        if (probe <= 0) return probe;
        int halves = split_node(tc, b, w, err, errlen);
        if (halves <= 0) return halves;
    }
    return reprove(tc, b, w, 0, err, errlen);
}

/* Appends b to a list grown as needed; false out of memory. */
static bool list_add(Board **list, int *n, int *cap, Board b)
{
    if (*n == *cap) {
        int ncap = *cap ? 2 * *cap : 64;
        Board *nl = realloc(*list, (size_t)ncap * sizeof *nl);
        if (!nl) return false;
        *list = nl;
        *cap = ncap;
    }
    (*list)[(*n)++] = b;
    return true;
}

bool topcert_planned(TopCert *tc, Board b, bool mark, bool leaf)
{
    TopCertPlan *p = tc->plan;
    if (!p) return false;
    Board cf = sym_canonical(b, tc->r->n, NULL);
    if (list_has(p->seen, p->nseen, cf)) return true;
    if (!mark) return false;
    if (!list_add(&p->seen, &p->nseen, &p->capseen, cf) || (leaf && !list_add(&p->leaf, &p->nleaf, &p->capleaf, b)))
        p->oom = true;
    return false;
}

/* The plan's leaves re-proved tc->threads at a time: whole, or with a
 * split, within the probe, the unfinished ones noted in tc->probed. */
static int prepare_leaves(TopCert *tc, const TopCertPlan *plan, Winner w, char *err, int errlen)
{
    if (tc->split_plies <= 0) return topcert_reprove_many(tc, plan->leaf, plan->nleaf, w, err, errlen);
    if (plan->nleaf == 0) return 0;
    bool *undecided = malloc((size_t)plan->nleaf * sizeof *undecided);
    if (!undecided) return snprintf(err, (size_t)errlen, "out of memory probing the re-proofs"), -1;
    int rc = topcert_probe_many(tc, plan->leaf, plan->nleaf, w, probe_nodes(tc), undecided, err, errlen);
    for (int i = 0; i < plan->nleaf && rc == 0; i++)
        if (undecided[i] && !list_add(&tc->probed, &tc->nprobed, &tc->capprobed,
                                      sym_canonical(plan->leaf[i], tc->r->n, NULL)))
            rc = -1, snprintf(err, (size_t)errlen, "out of memory probing the re-proofs");
    free(undecided);
    return rc;
}

int topcert_prepare(TopCert *tc, const Board *roots, int count, Winner w, char *err, int errlen)
{
    if (tc->threads < 2 || count <= 0) return 0;
    TopCertPlan plan = {.oom = false};
    tc->plan = &plan;
    int rc = 0;
    for (int i = 0; i < count && rc == 0; i++) rc = topcert_ensure(tc, roots[i], w, err, errlen);
    tc->plan = NULL;
    tc->listed += (uint64_t)plan.nleaf;
    if (rc == 0 && plan.oom) {
        snprintf(err, (size_t)errlen, "out of memory listing the positions to re-prove");
        rc = -1;
    }
    if (rc == 0) rc = prepare_leaves(tc, &plan, w, err, errlen);
    free(plan.seen);
    free(plan.leaf);
    free(plan.plies);
    return rc;
}

bool topcert_plan_leaf(TopCert *tc, Board b, int plies)
{
    TopCertPlan *p = tc->plan;
    int n = p->nleaf;
    if (topcert_planned(tc, b, true, true) || p->nleaf == n) return false; /* seen before, or out of memory */
    if (p->capplies < p->capleaf) {
        int *np = realloc(p->plies, (size_t)p->capleaf * sizeof *np);
        if (!np) return p->oom = true, false;
        p->plies = np;
        p->capplies = p->capleaf;
    }
    p->plies[n] = plies;
    return true;
}
