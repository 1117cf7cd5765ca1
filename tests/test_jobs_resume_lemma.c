/* test_jobs_resume_lemma.c - a job-level run resumed from a journal whose
 * entries predate the one-half-pair centre lemma (jobs/top_leaf.c
 * resumed_by_lemma): an Order node resumed from the journal, with a
 * child the lemma wins, is decided at once instead of waiting for its
 * next big job. Checked against the independent brute force (tests/
 * brute.h over ref.h, which shares nothing with centre_half.c or the
 * jobs): the run's winner, every store record, the move kept for each
 * resumed node (the position after it must be an Order win), and the
 * root's certificate by the independent verifier. */
#include <criterion/criterion.h>

#include <stdio.h>

#include "../engine/moves.h"
#include "../engine/symmetry.h"
#include "../jobs/jobs.h"
#include "../solver/centre_half.h"
#include "../tables/journal.h"
#include "brute.h"
#include "testlib.h"

TestSuite(jobs_resume_lemma, .timeout = 240);

/* The cell index of ring cell `cell` in a RefPos of side n. */
static int ref_index(int n, int cell) { return cell_row(cell) * n + cell_col(cell); }

/* Every pair full or empty (a half pair filled at random or emptied),
 * then pair q made half full: a piece put on one end of an empty pair, or
 * one end of a full pair emptied. false when q cannot be made so. */
static bool one_half_pair(RefPos *p, const Centre *c, int q, uint64_t *rng)
{
    for (int k = 0; k < c->npairs; k++) {
        char *a = &p->cell[ref_index(p->n, c->pair[k][0])], *b = &p->cell[ref_index(p->n, c->pair[k][1])];
        if ((*a == '.') == (*b == '.')) continue;
        if (tl_below(rng, 2)) *a = *b = '.';
        else if (*a == '.') *a = tl_below(rng, 2) ? 'X' : 'O';
        else *b = tl_below(rng, 2) ? 'X' : 'O';
    }
    char *a = &p->cell[ref_index(p->n, c->pair[q][0])], *b = &p->cell[ref_index(p->n, c->pair[q][1])];
    if (*a == '.' && *b == '.') *(tl_below(rng, 2) ? a : b) = tl_below(rng, 2) ? 'X' : 'O';
    else if (*a != '.' && *b != '.') *(tl_below(rng, 2) ? a : b) = '.';
    else return false;
    return true;
}

static int holes(const RefPos *p)
{
    int h = 0;
    for (int i = 0; i < p->n * p->n; i++) h += p->cell[i] == '.';
    return h;
}

/* Takes one piece off p's centre at random (the side to move changes);
 * false when the centre has none. */
static bool take_centre_piece(RefPos *p, uint64_t *rng)
{
    int n = p->n, cells[64], nc = 0;
    for (int r = 1; r < n - 1; r++)
        for (int col = 1; col < n - 1; col++)
            if (p->cell[r * n + col] != '.') cells[nc++] = r * n + col;
    if (nc == 0) return false;
    p->cell[cells[tl_below(rng, nc)]] = '.';
    return true;
}

/* Takes one end of a full pair other than q off p (the side to move
 * changes, and p has two half pairs); false when there is none. */
static bool half_another_pair(RefPos *p, const Centre *c, int q, uint64_t *rng)
{
    int full[CENTRE_MAX_PAIRS], nf = 0;
    for (int k = 0; k < c->npairs; k++)
        if (k != q && p->cell[ref_index(p->n, c->pair[k][0])] != '.' && p->cell[ref_index(p->n, c->pair[k][1])] != '.')
            full[nf++] = k;
    if (nf == 0) return false;
    int k = full[tl_below(rng, nf)];
    p->cell[ref_index(p->n, c->pair[k][tl_below(rng, 2)])] = '.';
    return true;
}

/* A root R (Chaos to move, ongoing, not a lemma position) with a child Q
 * (Order to move) that is not one either but has a child C that is: C
 * with exactly one half pair q and Chaos to move, Q made from it by
 * taking a ring piece off: q's own (no half pair left, so the plain
 * lemma, with its parity, decides Q) or, one time in two, one end of a
 * full pair (two half pairs: since the lemma takes two half pairs, such
 * a Q is nearly always a lemma position itself, kept only when it is
 * not), R from Q by taking a centre piece off. (A Q made by taking a
 * centre piece off C would be a lemma position itself: Order's move to C
 * is a move of the extended game.) */
static bool pick_root(RefPos *root, const Centre *c, int n, int rs, uint64_t *rng)
{
    RefPos p;
    if (tl_random_ongoing(&p, n, n - 1, rs, n * n - 6 - tl_below(rng, 4), rng) != 0) return false;
    int q = tl_below(rng, c->npairs);
    if (!one_half_pair(&p, c, q, rng) || ref_status(&p) != REF_ONGOING || holes(&p) > 10) return false;
    if (board_order_to_move(tl_board(&p)) || !centre_win_with_half(c, tl_board(&p), NULL, 0)) return false;
    *root = p;
    if (tl_below(rng, 2)) {
        if (!half_another_pair(root, c, q, rng)) return false;
    } else {
        root->cell[ref_index(n, c->pair[q][0])] = root->cell[ref_index(n, c->pair[q][1])] = '.';
    }
    if (centre_win_with_half(c, tl_board(root), NULL, 0)) return false;
    if (!take_centre_piece(root, rng) || ref_status(root) != REF_ONGOING) return false;
    return !centre_win_with_half(c, tl_board(root), NULL, 0);
}

/* A journal at path with an entry for every child of root (Order to move):
 * the numbers and budget of a long past run. How many entries. */
static int write_journal(const char *path, const StoreGame *g, const Rules *r, Board root)
{
    char err[256] = "";
    Journal *j = journal_open(path, g, err, sizeof err);
    cr_assert(j, "%s", err);
    MoveList ml;
    moves_generate(root, r->cells, &ml);
    int n = 0;
    for (int m = 0; m < ml.count; m++) {
        Board b = root;
        board_place(&b, ml.m[m]);
        if (rules_status(r, b) != WINNER_NONE) continue;
        JournalEntry e = {.budget = 1u << 20, .pn = 5000, .dn = 90000};
        cr_assert_eq(journal_put(j, sym_canonical(b, r->n, NULL), &e, err, sizeof err), 0, "%s", err);
        n++;
    }
    journal_close(j);
    return n;
}

/* Each child Q of root the store holds as Order's with a move: the
 * position after that move is an Order win by the brute force. How many
 * such records there were. */
static int check_moves(Store *st, BruteMemo *m, const RefPos *root, const Rules *r)
{
    MoveList ml;
    Board rb = tl_board(root);
    moves_generate(rb, r->cells, &ml);
    int checked = 0;
    for (int i = 0; i < ml.count; i++) {
        Board q = rb;
        board_place(&q, ml.m[i]);
        StoreKey k = {r->rules, r->n, r->k, q};
        StoreValue v;
        if (store_get(st, &k, &v) != 1 || v.winner != WINNER_ORDER || v.move == MOVE_NONE) continue;
        cr_assert_eq(board_at(q, move_cell(v.move)), '.', "a stored move on a full cell");
        Board after = q;
        board_place(&after, v.move);
        RefPos a = {.n = root->n, .k = root->k, .rules = root->rules};
        for (int row = 0; row < a.n; row++)
            for (int col = 0; col < a.n; col++) a.cell[row * a.n + col] = board_at(after, board_cell(row, col));
        char s[80];
        ref_format(&a, s);
        cr_expect_eq(tl_brute_winner(m, &a), WINNER_ORDER, "%s: stored as Order's after the kept move, brute force Chaos",
                     s);
        checked++;
    }
    return checked;
}

/* One root: run resumed from a journal of every child, its figures
 * checked. 1 when a resumed node was decided by the lemma, 0 when none
 * was, -1 when the root was decided without its children (by the rules'
 * knowledge: nothing resumed, not counted). */
static int resume_one(BruteMemo *m, RefPos *root)
{
    Rules r;
    tl_init_rules(&r, root);
    char dir[256], certs[300], proof[300], jpath[300];
    Store *st = tl_jobs_folder(dir, certs, proof, "resume-lemma");
    StoreGame g = {r.rules, r.n, r.k};
    snprintf(jpath, sizeof jpath, "%s/journal", dir);
    int entries = write_journal(jpath, &g, &r, tl_board(root));
    char err[256] = "";
    Journal *j = journal_open(jpath, &g, err, sizeof err);
    cr_assert(j, "%s", err);
    DfpnConfig cfg = dfpn_default_config();
    cfg.kn.centre_half = r.n * r.n;
    cfg.kn.threat_plies = 0;
    JobsSpec s = {.workers = 1, .job_nodes = 64, .job_nodes_max = 1u << 20, .job_tt_bytes = (size_t)1 << 20,
                  .store = st, .journal = j, .cert_dir = certs, .proof = proof, .no_help = true, .expand_depth = 1};
    JobsResult res;
    cr_assert_eq(jobs_solve(&r, tl_board(root), &cfg, &s, &res, err, sizeof err), 0, "jobs_solve: %s", err);
    journal_close(j);
    tl_check_jobs_run(m, root, &res, proof);
    int checked = 0;
    cr_expect_eq(tl_store_disagreements(st, m, root->rules, &checked), 0, "store records the brute force refutes");
    int kept = check_moves(st, m, root, &r);
    store_close(st);
    tl_rm_dir(certs);
    tl_rm_dir(dir);
    cr_log_info("root: %d journal entries, %lu resumed, %lu static, %d kept moves checked, %d records", entries,
                (unsigned long)res.journal_hits, (unsigned long)res.static_decided, kept, checked);
    if (res.expansions == 0) return -1;
    return res.journal_hits < (uint64_t)entries && kept > 0;
}

/* On 5x5 (k 4) and 6x6 (k 5), under original and exact: roots with a
 * lemma win two plies down, every child resumed from a journal. */
Test(jobs_resume_lemma, decided_one_ply_down)
{
    BruteMemo *m = brute_new();
    cr_assert(m);
    int rsets[2] = {REF_ORIGINAL, REF_EXACT};
    for (int n = 5; n <= 6; n++) {
        for (int ri = 0; ri < 2; ri++) {
            Rules r;
            char err[128];
            cr_assert_eq(rules_init(&r, n, n - 1, tl_rules(rsets[ri]), err, sizeof err), 0, "%s", err);
            Centre c;
            centre_init(&c, &r);
            c.half_max_pieces = n * n;
            c.half_two_max_pieces = n * n;
            uint64_t rng = 7100 + (uint64_t)(10 * n + ri);
            int roots = 0, by_lemma = 0;
            for (int tries = 0; roots < 3 && tries < 200000; tries++) {
                RefPos root;
                if (!pick_root(&root, &c, n, rsets[ri], &rng)) continue;
                int got = resume_one(m, &root);
                roots += got >= 0;
                by_lemma += got > 0;
            }
            cr_log_info("%dx%d rules %d: %d roots, %d with a resumed node decided by the lemma", n, n, rsets[ri], roots,
                        by_lemma);
            cr_expect_eq(roots, 3, "%dx%d rules %d: too few roots found", n, n, rsets[ri]);
            cr_expect_geq(by_lemma, 1, "%dx%d rules %d: no resumed node decided by the lemma", n, n, rsets[ri]);
        }
    }
    brute_free(m);
}
