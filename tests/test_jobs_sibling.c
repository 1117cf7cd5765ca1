/* test_jobs_sibling.c - the top tree's sibling transpositions
 * (jobs/top_sibling.c): a node decided with its winner to move decides the
 * siblings that reach the position after its winning move. Against the
 * independent brute force (the run's value, and the value of every
 * position the run stored, siblings' among them) and the independent
 * verifier (the run's certificate, which goes through the siblings'
 * certificates where its proof does, and each sibling's file on its own). */
#include <criterion/criterion.h>

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "../jobs/jobs.h"
#include "../tables/store.h"
#include "../verify/verify.h"
#include "brute.h"
#include "testlib.h"

TestSuite(jobs_sibling, .timeout = 300);

typedef struct {
    const RefPos *p;
    int n, lies, rejected;
} NodeFiles;

/* The file at path with the winner's move (a "POS MOVE" line: X and O
 * swapped) changed, written to lie: the verifier must reject it (the see
 * line then names the file of a position the move does not reach). Counts
 * in nf. */
static void lie_about_the_move(const char *path, const VerifyExpect *x, NodeFiles *nf)
{
    FILE *f = fopen(path, "r");
    cr_assert(f);
    char lie[4300], text[8192] = "", line[4300];
    bool changed = false;
    while (fgets(line, sizeof line, f)) {
        char *sp = strrchr(line, ' ');
        if (!changed && sp && !strstr(line, " see ") && strncmp(line, "root ", 5) && (sp[1] == 'X' || sp[1] == 'O') &&
            strlen(sp) == 5) {
            sp[1] = sp[1] == 'X' ? 'O' : 'X';
            changed = true;
        }
        strncat(text, line, sizeof text - strlen(text) - 1);
    }
    fclose(f);
    if (!changed) return;
    snprintf(lie, sizeof lie, "%s.lie", path);
    FILE *w = fopen(lie, "w");
    cr_assert(w, "cannot write %s", lie);
    fputs(text, w);
    fclose(w);
    VerifyResult vr;
    nf->lies++;
    nf->rejected += verify_file_ex(lie, x, &vr) != VERIFY_VALID;
    remove(lie);
}

/* A file written for a top-tree node ("a top-tree node" in its header)
 * verifies on its own, for the winner it claims; counted in arg's n. */
static void verify_node_file(const char *path, void *arg)
{
    NodeFiles *nf = arg;
    const RefPos *p = nf->p;
    FILE *f = fopen(path, "r");
    cr_assert(f, "cannot open %s", path);
    char line[128];
    bool node = false;
    Winner w = WINNER_NONE;
    for (int i = 0; i < 6 && fgets(line, sizeof line, f); i++) {
        node |= strstr(line, "a top-tree node") != NULL;
        if (strncmp(line, "winner order", 12) == 0) w = WINNER_ORDER;
        if (strncmp(line, "winner chaos", 12) == 0) w = WINNER_CHAOS;
    }
    fclose(f);
    if (!node) return;
    VerifyExpect x = {p->n, p->k, p->rules, w == WINNER_ORDER ? VERIFY_WINNER_ORDER : VERIFY_WINNER_CHAOS, NULL};
    VerifyResult vr;
    cr_expect_eq(verify_file_ex(path, &x, &vr), VERIFY_VALID, "%s: %s", path, vr.error);
    nf->n++;
    lie_about_the_move(path, &x, nf);
}

/* The node files of dir verified (verify_node_file); how many. */
static int verify_node_files(const char *dir, const RefPos *p, int *lies, int *rejected)
{
    NodeFiles nf = {p, 0, 0, 0};
    tl_each_file(dir, ".ocproof", verify_node_file, &nf);
    *lies += nf.lies;
    *rejected += nf.rejected;
    return nf.n;
}

/* Runs with tiny budgets (many jobs, a top tree several plies deep), one
 * and two workers, with certificates and a store: the value is the brute
 * force's, the certificate verifies, every node file verifies, and every
 * record in the store is the brute force's value of its position. The
 * same runs without the rule (no_siblings) give the same values and
 * decide nothing by it. Siblings must be decided often enough to test. */
Test(jobs_sibling, siblings_are_the_brute_force_s_values)
{
    BruteMemo *m = brute_new();
    uint64_t rng = 5122026;
    uint64_t hits = 0;
    int runs = 0, files = 0, lies = 0, rejected = 0;
    for (int t = 0; t < 16; t++) {
        RefPos p;
        if (tl_random_ongoing(&p, 6, 5, t % 3, 36 - (13 + t % 3), &rng) != 0) continue;
        char dir[256], certs[300], proof[300];
        Store *st = tl_jobs_folder(dir, certs, proof, "jobs-sibling");
        JobsSpec s = {.workers = 1 + t % 2, .job_nodes = 1 + (uint64_t)(t % 3), .job_tt_bytes = (size_t)1 << 20,
                      .cert_dir = certs, .proof = proof, .store = st};
        JobsResult res = tl_jobs_solve(&p, &s);
        Winner want = tl_check_jobs_run(m, &p, &res, proof);
        char pos[65];
        ref_format(&p, pos);
        files += verify_node_files(certs, &p, &lies, &rejected);
        int checked = 0, bad = tl_store_disagreements(st, m, p.rules, &checked);
        cr_expect_eq(bad, 0, "%s: %d of %d stored records disagree with the brute force", pos, bad, checked);
        store_close(st);
        hits += res.sibling_hits;
        JobsSpec off = {.workers = 1, .job_nodes = 1 + (uint64_t)(t % 3), .job_tt_bytes = (size_t)1 << 20,
                        .no_siblings = true};
        JobsResult r0 = tl_jobs_solve(&p, &off);
        cr_assert_eq(r0.winner, want, "%s: without the rule, %s", pos, winner_name(r0.winner));
        cr_assert_eq(r0.sibling_hits, 0, "%s: decided by siblings with the rule off", pos);
        tl_rm_dir(certs);
        tl_rm_dir(dir);
        runs++;
    }
    brute_free(m);
    cr_log_info("%d runs, %llu positions decided by a sibling's move; %d of %d lying node certificates rejected", runs,
                (unsigned long long)hits, rejected, lies);
    cr_assert_geq(lies, 20, "too few node certificates with a move to lie about");
    cr_assert_eq(rejected, lies, "the verifier took a node certificate whose move was changed");
    cr_assert_geq(runs, 12);
    cr_assert_geq(hits, 20, "the rule was hardly used: nothing tested");
    cr_assert_geq((uint64_t)files, hits, "fewer node files verified than siblings decided");
}

/* Many small runs without certificates (4x4 and 5x5, budgets of a few
 * nodes: top trees many plies deep): every sibling decision is put in the
 * store, and every store record must be the brute force's value; the
 * runs' values too. Thousands of sibling decisions checked so. */
Test(jobs_sibling, thousands_of_siblings_against_the_brute_force)
{
    BruteMemo *m = brute_new();
    uint64_t rng = 7122026, hits = 0;
    int records = 0;
    for (int t = 0; t < 120 && hits < 3000; t++) {
        RefPos p;
        int n = 4 + t % 2, k = n == 4 ? 3 + t % 4 / 2 : 4;
        int pieces = n == 4 ? 2 + t % 4 : 9 + t % 3; /* the brute force's reach: 16 empty cells */
        if (tl_random_ongoing(&p, n, k, t % 3, pieces, &rng) != 0) continue;
        char dir[256], err[256] = "";
        tl_tmp_dir(dir, sizeof dir, "jobs-sibling-small");
        Store *st = store_open(dir, false, 0, err, sizeof err);
        cr_assert(st, "%s", err);
        JobsSpec s = {.workers = 1 + t % 2, .job_nodes = 1, .job_nodes_max = 4, .job_tt_bytes = (size_t)1 << 20,
                      .store = st};
        JobsResult res = tl_jobs_solve(&p, &s);
        char pos[65];
        ref_format(&p, pos);
        cr_assert_eq(res.winner, tl_brute_winner(m, &p), "%s n=%d k=%d rules %d", pos, n, k, p.rules);
        int checked = 0, bad = tl_store_disagreements(st, m, p.rules, &checked);
        cr_assert_eq(bad, 0, "%s: %d of %d stored records disagree with the brute force", pos, bad, checked);
        store_close(st);
        tl_rm_dir(dir);
        hits += res.sibling_hits;
        records += checked;
    }
    brute_free(m);
    cr_log_info("%llu sibling decisions, %d store records checked", (unsigned long long)hits, records);
    cr_assert_geq(hits, 1000, "too few sibling decisions to test");
}
