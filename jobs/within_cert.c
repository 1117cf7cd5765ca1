/* within_cert.c - the certificates of the job-level search's bounded mode
 * (within.h, Certificates): each file Order's within a depth ("-wP") or
 * Chaos's to a horizon ("-hP"), a top-tree node's composed from its
 * children's files by see lines. Every file is written to a temporary file
 * of a unique name and renamed (jobrun_open_tmp), so a killed run leaves
 * no partial certificate under a real name.
 *
 * A missing file (within_ensure) is composed from the store's bound
 * records where they cover the position, else re-proved by a bounded job
 * of its own; the node writer and the composition call each other down
 * the tree, so they live together, as top_regen.c's do for values.
 *
 * Why compose: a long bounded run (`make solve-within D=15`) goes on from
 * a committed snapshot of its store, and its certificates are made at the
 * end (--certs-later). A run resumed from a store that already decides the
 * root has a top tree of the root alone; without composition its one
 * re-proof is the monolithic bounded search of the root, the search the
 * job-level run exists to split (the empty board within 15: stopped after
 * 841 s, 2026-12-06). Composed, the root's file is a node over its
 * children's files, and so on down the records the run put, to the jobs'
 * roots, each re-proved by a bounded job of its own size.
 *
 * Why it may compose: a bound record is a fact a past run decided (a job's
 * df-pn, or a top-tree node from its children), guarded by its checksum
 * (tables/store.h). A claim at b, with p plies:
 *   - yes within p (Order): b's record says yes within p or less; with
 *     Order to move, one child known yes within p - 1 (the record's move
 *     first); with Chaos to move, every distinct child known yes within
 *     p - 1. The node's longest game is then 1 + its children's, <= p;
 *   - no to the horizon p (Chaos): b's record says no within p or more,
 *     or its value record a Chaos win; with Chaos to move, one child known
 *     no to p - 1; with Order to move, every distinct child.
 * A child is known by the rules (a line, a full board, Order to move
 * completing a line at once, no line possible within the plies left: the
 * verifier's own closings, within_trivial), by its records as above, or by
 * within_static (the run decided such children without a job and put no
 * record; their files are re-proved, a few nodes each). Nothing is
 * trusted in the end: the composed files are the verifier's to check
 * (see lines, verify.h), and a record that lied shows as a re-proof that
 * finds the other answer (an error) or a certificate that does not verify.
 *
 * within_prepare runs the composition dry (TopCert.plan: nothing written)
 * to list the re-proofs it needs, which top_regen_par.c then makes
 * tc->threads at a time; the composition proper then finds their files. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../engine/moves.h"
#include "../engine/notation.h"
#include "../solver/proof.h"
#include "within.h"

bool within_trivial(const TopCert *tc, Board b, Winner w, int d)
{
    Winner st = rules_status(tc->r, b);
    if (st != WINNER_NONE) return st == w;
    if (w == WINNER_ORDER) return topcert_trivial(tc, b); /* Order to move completes a line at once */
    return proof_fewest_to_line(tc->r, b) > d;            /* no line can stand in the plies left */
}

int within_agrees(const TopCert *tc, Board b, Winner w, int plies, const char *name, char *err, int errlen)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", tc->dir, name);
    Winner cw;
    int horizon;
    bool same;
    if (topcert_header_of(tc, path, b, &cw, &horizon, &same) != 0) return -1;
    int want = w == WINNER_CHAOS ? plies : -1;
    if (cw == w && same && horizon == want) return 1;
    char pos[NOTATION_POS_LEN];
    notation_format_position(b, tc->r->n, pos);
    snprintf(err, (size_t)errlen, "the store says %s for %s, its certificate %s %s", w == WINNER_ORDER ? "yes" : "no",
             pos, path,
             !same ? "is of another position" : cw != w ? "says the other side" : "states another horizon");
    return 0;
}

/* Is b's certificate for w with `plies` in the folder (a yes: its proof
 * depth at most plies, the re-proof may have found a shorter one)? Its
 * name then in name. */
static bool have_file(const TopCert *tc, Board b, Winner w, int plies, char name[JOBRUN_NAME_MAX])
{
    char path[4200];
    for (int p = w == WINNER_ORDER ? 0 : plies; p <= plies; p++) {
        jobrun_within_name(tc->r, b, w == WINNER_ORDER, p, name);
        snprintf(path, sizeof path, "%s/%s", tc->dir, name);
        if (access(path, R_OK) == 0) return true;
    }
    jobrun_within_name(tc->r, b, w == WINNER_ORDER, plies, name);
    return false;
}

/* A bounded job of question `plies` on b, re-proved as a batch of one
 * (topcert_reprove_within: the same checks of its answer and file as the
 * batches of within_prepare), whose certificate then names name; w is
 * what it must answer. 0, or -1. */
static int prove_now(TopCert *tc, Board b, Winner w, int plies, char name[JOBRUN_NAME_MAX], char *err, int errlen)
{
    if (topcert_reprove_within(tc, &b, &plies, 1, w, err, errlen) != 0) return -1;
    if (have_file(tc, b, w, plies, name)) return 0;
    char pos[NOTATION_POS_LEN];
    notation_format_position(b, tc->r->n, pos);
    snprintf(err, (size_t)errlen, "certificate of %s within %d: not found in %s after its re-proof", pos, plies,
             tc->dir);
    return -1;
}

/* What b's records claim for w with d plies (above): 1 a claim, with
 * *plies its own (yes: the record's depth, <= d; no: d, or -1 for a value
 * record of a Chaos win) and *move the record's move (yes; else
 * MOVE_NONE); 0 none; -1 a store error (message in err). */
static int recorded(TopCert *tc, Board b, Winner w, int d, int *plies, Move *move, char *err, int errlen)
{
    StoreKey k = {tc->r->rules, tc->r->n, tc->r->k, b};
    StoreBound bd;
    StoreValue v;
    *move = MOVE_NONE;
    int gb = store_get_bound(tc->store, &k, &bd);
    int gv = gb < 0 || w == WINNER_ORDER ? 0 : store_get(tc->store, &k, &v);
    if (gb < 0 || gv < 0) {
        snprintf(err, (size_t)errlen, "store: %s", store_error(tc->store));
        return -1;
    }
    if (gb && w == WINNER_ORDER && bd.yes != STORE_BOUND_NONE && bd.yes <= d) {
        *plies = bd.yes;
        *move = bd.move;
        return 1;
    }
    if (gb && w == WINNER_CHAOS && bd.no != STORE_BOUND_NONE && bd.no >= d) return *plies = d, 1;
    /* an Order win's value record is not used: no certificate of its length exists (within.h) */
    if (gv && v.winner == WINNER_CHAOS) return *plies = -1, 1;
    return 0;
}

/* Is child c known w's with d plies left (above), and its claim *plies
 * (as recorded's; yes by the rules: 0 or 1)? 1, 0, or -1 (store error). */
static int known(TopCert *tc, Board c, Winner w, int d, int *plies, char *err, int errlen)
{
    *plies = w == WINNER_ORDER ? 0 : d;
    Winner st = rules_status(tc->r, c);
    if (st != WINNER_NONE) return st == w;
    if (w == WINNER_ORDER && topcert_trivial(tc, c)) return (*plies = 1) <= d;
    if (w == WINNER_CHAOS && within_trivial(tc, c, w, d)) return 1;
    Move m;
    int rec = recorded(tc, c, w, d, plies, &m, err, errlen);
    if (rec != 0) return rec;
    uint32_t pn, dn;
    int depth;
    if (within_static(tc->r, &tc->cfg, c, d, &pn, &dn, &depth) != w) return 0;
    if (w == WINNER_ORDER) *plies = depth;
    return 1;
}

/* The certificate of b's claim (w, plies) composed from the records
 * (above): 0 written (or planned), 1 the records do not cover b
 * (re-prove it), -1 an error (message in err). */
static int compose_bound(TopCert *tc, Board b, Winner w, int plies, char *err, int errlen)
{
    if (!tc->store || plies < 1) return 1;
    int own;
    Move move;
    int rec = recorded(tc, b, w, plies, &own, &move, err, errlen);
    if (rec <= 0) return rec < 0 ? -1 : 1;
    Board kids[MOVES_MAX];
    Move moves[MOVES_MAX];
    int kp[MOVES_MAX], nk = topcert_children(tc, b, kids, moves);
    if (board_order_to_move(b) == (w == WINNER_ORDER)) { /* the winner to move: one child */
        int pick = -1, first = topcert_child_by_move(tc, b, move, kids, nk);
        for (int t = -1; t < nk && pick < 0; t++) {
            int i = t < 0 ? first : t;
            if (i < 0) continue;
            int k = known(tc, kids[i], w, plies - 1, &kp[0], err, errlen);
            if (k < 0) return -1;
            if (k) pick = i;
        }
        if (pick < 0) return 1;
        kids[0] = kids[pick];
        moves[0] = moves[pick];
        nk = 1;
    } else {
        for (int i = 0; i < nk; i++) {
            int k = known(tc, kids[i], w, plies - 1, &kp[i], err, errlen);
            if (k <= 0) return k < 0 ? -1 : 1;
        }
    }
    if (tc->plan) {
        topcert_planned(tc, b, true, false);
        char name[JOBRUN_NAME_MAX];
        for (int i = 0; i < nk; i++)
            if (within_ensure(tc, kids[i], w, kp[i], plies - 1, name, err, errlen) != 0) return -1;
        return 0;
    }
    if (within_node(tc, b, w, plies, plies, kids, moves, kp, nk, NULL, NULL, err, errlen) != 0) return -1;
    tc->composed++;
    return 0;
}


int within_ensure(TopCert *tc, Board b, Winner w, int plies, int d, char name[JOBRUN_NAME_MAX], char *err,
                  int errlen)
{
    name[0] = '\0';
    if (within_trivial(tc, b, w, d)) return 0;
    if (plies < 0) { /* a Chaos win's certificate (a value record), else one to the horizon d */
        char path[4200];
        jobrun_cert_name(tc->r, b, name);
        snprintf(path, sizeof path, "%s/%s", tc->dir, name);
        if (access(path, R_OK) == 0) return 0;
        plies = d;
    }
    if (have_file(tc, b, w, plies, name)) return 0;
    if (topcert_planned(tc, b, false, false)) return 0; /* a dry run's, listed before */
    int composed = compose_bound(tc, b, w, plies, err, errlen);
    if (composed <= 0) return composed;
    if (tc->plan) return topcert_plan_leaf(tc, b, plies), 0; /* to be re-proved */
    return prove_now(tc, b, w, plies, name, err, errlen);
}

int within_prepare(TopCert *tc, int (*walk)(void *arg), void *arg, Winner w, char *err, int errlen)
{
    if (tc->threads < 2 || !tc->store) return 0;
    TopCertPlan plan = {.oom = false};
    tc->plan = &plan;
    int rc = walk(arg);
    tc->plan = NULL;
    tc->listed += (uint64_t)plan.nleaf;
    if (rc == 0 && plan.oom) {
        snprintf(err, (size_t)errlen, "out of memory listing the positions to re-prove");
        rc = -1;
    }
    if (rc == 0) rc = topcert_reprove_within(tc, plan.leaf, plan.plies, plan.nleaf, w, err, errlen);
    free(plan.seen);
    free(plan.leaf);
    free(plan.plies);
    return rc;
}

/* The header of a bounded certificate of b: Order's (yes), or Chaos's to
 * the horizon d (no). */
static void header(const TopCert *tc, FILE *f, Board b, Winner w, int d, const char *comment)
{
    char pos[NOTATION_POS_LEN];
    notation_format_position(b, tc->r->n, pos);
    fprintf(f, "ocproof 2\n# written by ocsolve jobs --within: %s\nboard %d %d\nrules %s\nwinner %s\nroot %s\n",
            comment, tc->r->n, tc->r->k, rules_name(tc->r->rules), winner_name(w), pos);
    if (w == WINNER_CHAOS) fprintf(f, "horizon %d\n", d);
}

/* A see line for position b and its file `name` ("": none needed). */
static void see_line(const TopCert *tc, FILE *f, Board b, const char *prefix, const char *name)
{
    if (!name[0]) return;
    char pos[NOTATION_POS_LEN];
    notation_format_position(b, tc->r->n, pos);
    fprintf(f, "%s see %s%s\n", pos, prefix, name);
}

/* Closes the temporary file f (written from `tmp`) and renames it onto
 * path; 0, or -1 with a message (nothing left behind). */
static int finish(FILE *f, const char *tmp, const char *path, char *err, int errlen)
{
    int rc = fflush(f) != 0 || ferror(f) ? -1 : 0;
    if (fclose(f) != 0) rc = -1;
    if (rc == 0 && rename(tmp, path) != 0) rc = -1;
    if (rc != 0) {
        remove(tmp);
        snprintf(err, (size_t)errlen, "cannot write the certificate %s", path);
    }
    return rc;
}

int within_node(TopCert *tc, Board b, Winner w, int wdepth, int d, const Board kids[], const Move moves[],
                const int kid_wdepth[], int nk, const char *path, const char *prefix, char *err, int errlen)
{
    char (*names)[JOBRUN_NAME_MAX] = malloc((size_t)(nk > 0 ? nk : 1) * sizeof *names);
    if (!names) return snprintf(err, (size_t)errlen, "out of memory"), -1;
    for (int k = 0; k < nk; k++)
        if (within_ensure(tc, kids[k], w, kid_wdepth[k], d - 1, names[k], err, errlen) != 0) return free(names), -1;
    if (tc->plan) { /* a dry run (within_prepare): b's file will be this node's */
        free(names);
        topcert_planned(tc, b, true, false);
        return 0;
    }
    char own[4200], tmp[4300], name[JOBRUN_NAME_MAX];
    if (!path) {
        jobrun_within_name(tc->r, b, w == WINNER_ORDER, wdepth, name);
        snprintf(own, sizeof own, "%s/%s", tc->dir, name);
        path = own;
        prefix = "";
    }
    FILE *f = jobrun_open_tmp(path, tmp, sizeof tmp);
    if (!f) return free(names), snprintf(err, (size_t)errlen, "cannot write the certificate %s", path), -1;
    header(tc, f, b, w, d, "a top-tree node");
    if (board_order_to_move(b) == (w == WINNER_ORDER) && nk > 0) { /* the winner's move */
        char pos[NOTATION_POS_LEN], mv[4];
        notation_format_position(b, tc->r->n, pos);
        notation_format_move(moves[0], mv);
        fprintf(f, "%s %s\n", pos, mv);
    }
    for (int k = 0; k < nk; k++) see_line(tc, f, kids[k], prefix, names[k]);
    free(names);
    if (finish(f, tmp, path, err, errlen) != 0) return -1;
    tc->written++;
    topcert_tick(tc, 0);
    return 0;
}

int within_see_root(TopCert *tc, Board b, Winner w, int plies, int D, const char *path, const char *prefix, char *err,
                    int errlen)
{
    char name[JOBRUN_NAME_MAX], tmp[4300];
    if (within_ensure(tc, b, w, plies, D, name, err, errlen) != 0) return -1;
    FILE *f = jobrun_open_tmp(path, tmp, sizeof tmp);
    if (!f) {
        snprintf(err, (size_t)errlen, "cannot write the certificate %s", path);
        return -1;
    }
    header(tc, f, b, w, D, "the root, handed to its own file");
    see_line(tc, f, b, prefix, name);
    return finish(f, tmp, path, err, errlen);
}
