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
    int n;
} NodeFiles;

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
}

/* The node files of dir verified (verify_node_file); how many. */
static int verify_node_files(const char *dir, const RefPos *p)
{
    NodeFiles nf = {p, 0};
    tl_each_file(dir, ".ocproof", verify_node_file, &nf);
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
    int runs = 0, files = 0;
    for (int t = 0; t < 16; t++) {
        RefPos p;
        if (tl_random_ongoing(&p, 6, 5, t % 3, 36 - (13 + t % 3), &rng) != 0) continue;
        char dir[256], certs[300], proof[300], err[256] = "";
        tl_tmp_dir(dir, sizeof dir, "jobs-sibling");
        snprintf(certs, sizeof certs, "%s/certs", dir);
        snprintf(proof, sizeof proof, "%s/top.ocproof", dir);
        cr_assert_eq(mkdir(certs, 0777), 0);
        Store *st = store_open(dir, false, 0, err, sizeof err);
        cr_assert(st, "%s", err);
        JobsSpec s = {.workers = 1 + t % 2, .job_nodes = 1 + (uint64_t)(t % 3), .job_tt_bytes = (size_t)1 << 20,
                      .cert_dir = certs, .proof = proof, .store = st};
        JobsResult res = tl_jobs_solve(&p, &s);
        Winner want = tl_check_jobs_run(m, &p, &res, proof);
        char pos[65];
        ref_format(&p, pos);
        files += verify_node_files(certs, &p);
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
    cr_log_info("%d runs, %llu positions decided by a sibling's move", runs, (unsigned long long)hits);
    cr_assert_geq(runs, 12);
    cr_assert_geq(hits, 20, "the rule was hardly used: nothing tested");
    cr_assert_geq((uint64_t)files, hits, "fewer node files verified than siblings decided");
}
