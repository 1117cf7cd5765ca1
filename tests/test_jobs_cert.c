/* test_jobs_cert.c - the job-level search's certificates and budgets
 * (jobs/jobs.h), each against the independent brute force (tests/brute.h)
 * and the independent verifier (verify/): a run's certificate (job
 * certificates joined by "see" lines) verifies and claims the brute
 * force's winner; writing certificates leaves the search alone; a missing
 * job certificate makes it fail; re-run budgets and the expanded top give
 * the brute force's values; a store decides a second run at once, and with
 * the certificates gone a third searches again. The certificates made at
 * the end: test_jobs_cert_end.c; runs killed and resumed: test_jobs_kill.c. */
#include <criterion/criterion.h>

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "../jobs/jobs.h"
#include "../verify/verify.h"
#include "brute.h"
#include "testlib.h"

TestSuite(jobs_cert, .timeout = 240);

/* Certificates of runs with tiny budgets (so the top tree is one or more
 * plies deep and most leaves are job roots): each verifies, by the
 * verifier's own rules, for the brute force's winner and the position as
 * root. */
Test(jobs_cert, certificates_verify)
{
    BruteMemo *m = brute_new();
    uint64_t rng = 12012026;
    int checked = 0, order = 0, chaos = 0;
    for (int t = 0; t < 12; t++) {
        RefPos p;
        tl_pick_deep(&p, t % 3, 12 + t % 3, &rng);
        char dir[256], proof[300];
        tl_tmp_dir(dir, sizeof dir, "jobs-cert");
        snprintf(proof, sizeof proof, "%s/top.ocproof", dir);
        /* Shared and separate tables, jobs of 1 and 2 df-pn threads. */
        JobsSpec s = {.workers = 2, .job_nodes = 1 + (uint64_t)(t % 4), .job_tt_bytes = (size_t)1 << 20,
                      .cert_dir = dir, .proof = proof, .job_threads = 1 + t % 2, .separate_tables = t % 3 == 2};
        JobsResult res = tl_jobs_solve(&p, &s);
        Winner want = tl_check_jobs_run(m, &p, &res, proof);
        order += want == WINNER_ORDER;
        chaos += want == WINNER_CHAOS;
        checked++;
        tl_rm_dir(dir);
    }
    brute_free(m);
    cr_log_info("%d certificates (%d order, %d chaos)", checked, order, chaos);
    cr_assert_geq(order, 2);
    cr_assert_geq(chaos, 2);
}

/* Writing certificates leaves the search alone: the writer searches
 * again on a table of its own (job_run.h, Dfpn.scratch) and the side table
 * of proven moves (tables/wintab.h) is never read by the search, so one
 * worker's run (one job at a time, in the same order) takes the same jobs
 * and nodes with certificates as without. A job table of 64 KiB loses
 * most proofs, so the writer has searches to make. */
Test(jobs_cert, certificates_leave_the_search_alone)
{
    uint64_t rng = 3402026;
    int compared = 0;
    for (int t = 0; t < 12; t++) {
        RefPos p;
        tl_pick_deep(&p, t % 3, 17 + t % 3, &rng);
        char dir[256];
        tl_tmp_dir(dir, sizeof dir, "jobs-alone");
        JobsSpec s = {.workers = 1, .job_nodes = 50, .job_tt_bytes = (size_t)64 << 10, .cert_dir = dir};
        JobsResult with = tl_jobs_solve(&p, &s);
        s.cert_dir = NULL;
        JobsResult without = tl_jobs_solve(&p, &s);
        char pos[65];
        ref_format(&p, pos);
        cr_expect_gt(with.cert_files, 0, "%s: no certificate written", pos);
        cr_expect_eq(with.winner, without.winner, "%s", pos);
        cr_expect_eq(with.nodes, without.nodes, "%s: %llu nodes with certificates, %llu without", pos,
                     (unsigned long long)with.nodes, (unsigned long long)without.nodes);
        cr_expect_eq(with.jobs_run, without.jobs_run, "%s: jobs", pos);
        tl_rm_dir(dir);
        compared++;
    }
    cr_assert_eq(compared, 12);
}

/* Honesty of the check above: with one job certificate gone, the run's
 * certificate no longer verifies. */
Test(jobs_cert, missing_job_certificate_fails)
{
    uint64_t rng = 31;
    for (int tries = 0; tries < 40; tries++) {
        RefPos p;
        if (tl_random_ongoing(&p, 6, 5, 0, 36 - 13, &rng) != 0) continue;
        char dir[256], proof[300];
        tl_tmp_dir(dir, sizeof dir, "jobs-cert-gone");
        snprintf(proof, sizeof proof, "%s/top.ocproof", dir);
        JobsSpec s = {.workers = 1, .job_nodes = 2, .job_tt_bytes = (size_t)1 << 20, .cert_dir = dir, .proof = proof};
        JobsResult res = tl_jobs_solve(&p, &s);
        VerifyResult vr;
        cr_assert_eq(verify_file(proof, &vr), VERIFY_VALID, "%s", vr.error);
        /* remove the job certificate the top certificate's first see line names */
        FILE *f = fopen(proof, "r");
        cr_assert(f);
        char line[512], *name = NULL;
        while (fgets(line, sizeof line, f))
            if ((name = strstr(line, " see "))) break;
        fclose(f);
        if (!name || res.jobs_decided == 0) {
            tl_rm_dir(dir);
            continue;
        }
        name += 5;
        name[strcspn(name, "\n")] = '\0';
        char path[800];
        snprintf(path, sizeof path, "%s%s%s", name[0] == '/' ? "" : dir, name[0] == '/' ? "" : "/", name);
        cr_assert_eq(remove(path), 0, "cannot remove %s", path);
        cr_expect_neq(verify_file(proof, &vr), VERIFY_VALID, "verified without %s", name);
        cr_expect(strstr(vr.error, "see ") != NULL, "%s", vr.error);
        tl_rm_dir(dir);
        return;
    }
    cr_assert_fail("no run with a see line");
}

/* Re-runs with growing budgets, and the top expanded without jobs: the
 * brute force's values. */
Test(jobs_cert, budgets_and_expand_depth)
{
    BruteMemo *m = brute_new();
    uint64_t rng = 5150;
    int reruns = 0;
    for (int t = 0; t < 8; t++) {
        RefPos p;
        tl_pick_deep(&p, t % 3, 12 + t % 2, &rng);
        /* No helping: a helper's nodes take no budget, so a helped job may
         * decide where the budgets under test would have left it undecided. */
        JobsSpec s = {.workers = 2, .job_nodes = 1, .job_nodes_max = 1 << (2 * (1 + t % 3)),
                      .expand_depth = t % 2, .job_tt_bytes = (size_t)1 << 20, .no_help = true};
        JobsResult res = tl_jobs_solve(&p, &s);
        cr_assert_eq(res.winner, tl_brute_winner(m, &p), "t=%d", t);
        reruns += res.jobs_undecided > 0;
    }
    brute_free(m);
    cr_assert_geq(reruns, 3);
}

/* A store plus certificates: a second run decides at once and its
 * certificate (the stored root's) verifies; with the certificates gone, a
 * third run searches again rather than trust the store blindly, and its
 * certificate verifies too. */
Test(jobs_cert, store_and_certificates)
{
    uint64_t rng = 8080;
    RefPos p;
    for (int tries = 0;; tries++) { /* a position that needs jobs */
        cr_assert_lt(tries, 50, "no position needed a job");
        if (tl_random_ongoing(&p, 6, 5, 0, 36 - 13, &rng) != 0) continue;
        JobsSpec s = {.workers = 1, .job_nodes = 3, .job_tt_bytes = (size_t)1 << 20};
        if (tl_jobs_solve(&p, &s).jobs_run >= 3) break;
    }
    char dir[256], certs[300], proof[300], err[256] = "";
    tl_tmp_dir(dir, sizeof dir, "jobs-store-certs");
    snprintf(certs, sizeof certs, "%s/certs", dir);
    snprintf(proof, sizeof proof, "%s/top.ocproof", dir);
    cr_assert_eq(mkdir(certs, 0777), 0);
    VerifyResult vr;
    for (int round = 0; round < 3; round++) {
        if (round == 2) { /* the certificates go, the store stays */
            tl_rm_dir(certs);
            cr_assert_eq(mkdir(certs, 0777), 0);
        }
        Store *st = store_open(dir, false, 0, err, sizeof err);
        cr_assert(st, "%s", err);
        JobsSpec s = {.workers = 2, .job_nodes = 3, .job_tt_bytes = (size_t)1 << 20, .store = st, .cert_dir = certs,
                      .proof = proof};
        JobsResult res = tl_jobs_solve(&p, &s);
        store_close(st);
        if (round == 1) cr_expect_eq(res.jobs_run, 0, "round 1 ran %llu jobs", (unsigned long long)res.jobs_run);
        if (round == 2) cr_expect_gt(res.jobs_run, 0, "trusted the store without certificates");
        cr_assert_eq(verify_file(proof, &vr), VERIFY_VALID, "round %d: %s", round, vr.error);
        cr_expect_gt(tl_each_file(certs, ".ocproof", NULL, NULL), 0);
    }
    tl_rm_dir(certs);
    tl_rm_dir(dir);
}
