/* test_jobs.c - job-level proof-number search (jobs/jobs.h) against the
 * independent brute force (tests/brute.h): random 6x6 k=5 positions of all
 * three rule sets and 4x4 boards (k = 3 and 4) from the empty board and
 * near it, with tiny job budgets so the top tree must expand several
 * plies; 1 and 2 workers, a shared table or one each, and jobs of 1 or 2
 * df-pn threads give the brute force's values; a second run on the same
 * store decides the root at once and the store's records agree with the
 * brute force; and the `ocsolve jobs` command line. */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../engine/notation.h"
#include "../jobs/jobs.h"
#include "brute.h"
#include "runbin.h"
#include "testlib.h"

/* A guard against hangs, not a speed test: under the sanitizers a job
 * search here takes 40-50 s of CPU, which on a loaded 2-core machine
 * (make sanitize runs two tests at once) passed 120 s of wall time. */
#ifdef OCS_SANITIZE
TestSuite(jobs, .timeout = 480);
#else
TestSuite(jobs, .timeout = 120);
#endif

/* One jobs_solve of spec s; asserts it ran. pairing: the pairing budget
 * (0: off, which leaves more for the jobs to do). */
static JobsResult run_jobs_spec(const RefPos *p, JobsSpec s, bool centre, int pairing)
{
    Rules r;
    tl_init_rules(&r, p);
    Board b = tl_board(p);
    DfpnConfig cfg = dfpn_default_config();
    cfg.kn.centre = centre;
    cfg.kn.pairing = pairing;
    cfg.kn.threat_plies = 0; /* it decides most of these positions at once (threats.h) */
    JobsResult res;
    char err[256] = "";
    cr_assert_eq(jobs_solve(&r, b, &cfg, &s, &res, err, sizeof err), 0, "jobs_solve: %s", err);
    cr_assert_neq(res.winner, WINNER_NONE, "no time limit, yet undecided");
    return res;
}

/* The same with a tiny budget and table. No helping: a helper's nodes take
 * no budget, so it could decide a root in its first job and leave the top
 * tree unexpanded, which these tests need (helping: workers_agree,
 * idle_worker_helps). */
static JobsResult run_jobs_cfg(const RefPos *p, int workers, uint64_t job_nodes, Store *store, bool centre,
                               int pairing)
{
    JobsSpec s = {.workers = workers, .job_nodes = job_nodes, .job_tt_bytes = (size_t)1 << 20, .store = store,
                  .no_help = true};
    return run_jobs_spec(p, s, centre, pairing);
}

static JobsResult run_jobs(const RefPos *p, int workers, uint64_t job_nodes, Store *store, bool centre);

static JobsResult run_jobs(const RefPos *p, int workers, uint64_t job_nodes, Store *store, bool centre)
{
    return run_jobs_cfg(p, workers, job_nodes, store, centre, 32);
}

static void check_one(BruteMemo *m, RefPos *p, int workers, uint64_t job_nodes, int pairing, int *expanded,
                      int *count)
{
    char s[65];
    ref_format(p, s);
    JobsResult res = run_jobs_cfg(p, workers, job_nodes, NULL, false, pairing);
    Winner want = tl_brute_winner(m, p);
    cr_assert_eq(res.winner, want, "%s n=%d k=%d rules=%d: jobs %s, brute force %s (jobs %llu, tree %llu)", s, p->n,
                 p->k, p->rules, winner_name(res.winner), winner_name(want), (unsigned long long)res.jobs_run,
                 (unsigned long long)res.tree_nodes);
    cr_assert_eq(res.jobs_run, res.jobs_decided + res.jobs_undecided + res.jobs_stopped);
    /* An undecided job means its leaf was expanded when next selected,
     * unless the root was decided first. */
    if (res.expansions > 0) {
        cr_assert_gt(res.jobs_undecided, 0, "%s: expanded without an undecided job", s);
        cr_assert_gt(res.tree_nodes, 1);
        (*expanded)++;
    }
    (*count)++;
}

/* 6x6 k=5, 12-14 empty cells, every rule set; budgets of 1-8 nodes
 * (the knowledge decides most such positions in a few dozen nodes). */
Test(jobs, brute_force_6x6)
{
    BruteMemo *m = brute_new();
    cr_assert(m);
    uint64_t rng = 20261201;
    int expanded = 0, count = 0;
    for (int rs = 0; rs < 3; rs++) {
        for (int t = 0; t < 9; t++) {
            RefPos p;
            int empties = 12 + t % 3;
            if (tl_random_ongoing(&p, 6, 5, rs, 36 - empties, &rng) != 0) continue;
            check_one(m, &p, 1, 1 + (uint64_t)(t % 8), 32, &expanded, &count);
        }
    }
    brute_free(m);
    cr_log_info("6x6: %d positions, %d expanded", count, expanded);
    cr_assert_geq(count, 24, "only %d positions", count);
    cr_assert_geq(expanded, 3, "only %d of %d positions needed an expansion", expanded, count);
}

/* 4x4, k = 3 and 4, near the empty board (2-4 pieces; the empty board
 * itself in brute_force_4x4_empty). */
Test(jobs, brute_force_4x4)
{
    BruteMemo *m = brute_new();
    cr_assert(m);
    uint64_t rng = 4404;
    int expanded = 0, count = 0;
    for (int k = 3; k <= 4; k++)
        for (int rs = 0; rs < 3; rs++)
            for (int pieces = 2; pieces <= 5; pieces++) {
                RefPos p;
                if (tl_random_ongoing(&p, 4, k, rs, pieces, &rng) != 0) continue;
                check_one(m, &p, 1, 5, (pieces & 1) ? 32 : 0, &expanded, &count);
            }
    brute_free(m);
    cr_log_info("4x4: %d positions, %d expanded", count, expanded);
    cr_assert_geq(count, 20, "only %d positions", count);
    cr_assert_geq(expanded, 4, "only %d of %d positions needed an expansion", expanded, count);
}

/* The value does not depend on the number of workers, on whether they
 * share one table (the default) or have one each, or on the df-pn threads
 * of each job: every mode against the brute force. */
Test(jobs, workers_agree)
{
    static const struct {
        int workers, threads;
        bool separate, plain;
    } modes[] = {{1, 1, false, false}, {2, 1, false, false}, {2, 1, true, false},
                 {1, 2, false, false}, {2, 2, false, false}, {2, 2, true, true}};
    BruteMemo *m = brute_new();
    uint64_t rng = 777;
    int n = 0;
    for (int t = 0; t < 12; t++) {
        RefPos p;
        int rs = t % 3;
        if (tl_random_ongoing(&p, 6, 5, rs, 36 - (12 + t % 3), &rng) != 0) continue;
        Winner want = tl_brute_winner(m, &p);
        for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++) {
            JobsSpec s = {.workers = modes[i].workers, .job_threads = modes[i].threads,
                          .separate_tables = modes[i].separate, .no_expect = modes[i].plain, .job_nodes = 10,
                          .job_tt_bytes = (size_t)1 << 20};
            JobsResult a = run_jobs_spec(&p, s, true, 32);
            cr_assert_eq(a.winner, want, "%d workers x %d threads%s: %s, brute force %s", modes[i].workers,
                         modes[i].threads, modes[i].separate ? ", separate tables" : "", winner_name(a.winner),
                         winner_name(want));
        }
        n++;
    }
    brute_free(m);
    cr_assert_geq(n, 10);
}

/* An idle worker is sent to help a running job (jobs.c help_target) where
 * every open path is busy: the root's first job on these positions (the
 * coordinator's choice, whatever the timing). The values stay the brute
 * force's, with expected outcomes and without. Whether a helper arrives
 * before its job ends depends on timing: that a helper searches and a team
 * decides right is tested by parallel::team_with_a_helper. */
Test(jobs, idle_worker_helps)
{
    BruteMemo *m = brute_new();
    uint64_t rng = 2024, helps = 0;
    int n = 0;
    for (int t = 0; t < 10; t++) {
        RefPos p;
        int rs = t % 3;
        if (tl_random_ongoing(&p, 6, 5, rs, 36 - (13 + t % 2), &rng) != 0) continue;
        Winner want = tl_brute_winner(m, &p);
        for (int plain = 0; plain < 2; plain++) {
            JobsSpec s = {.workers = 2, .job_threads = 1, .no_expect = plain, .job_nodes = 300,
                          .job_nodes_max = 1200, .job_tt_bytes = (size_t)1 << 20};
            JobsResult a = run_jobs_spec(&p, s, false, 32);
            cr_assert_eq(a.winner, want, "2 workers helping%s: %s, brute force %s", plain ? " (plain)" : "",
                         winner_name(a.winner), winner_name(want));
            cr_assert_leq(a.help_nodes, a.nodes);
            helps += a.helps;
        }
        n++;
    }
    brute_free(m);
    cr_assert_geq(n, 8);
    cr_expect_gt(helps, 0, "no worker was sent to help");
}

/* ---------------- the store ---------------- */

typedef struct {
    BruteMemo *m;
    int n, k, rules;
    int seen, checked, bad;
    char first_bad[80];
} StoreAgainstBrute;

static int check_record(const StoreKey *key, const StoreValue *v, void *ctx)
{
    StoreAgainstBrute *sc = ctx;
    sc->seen++;
    if (sc->seen % 3 != 1) return 0; /* a sample: every third record */
    RefPos p = {.n = key->n, .k = key->k, .rules = sc->rules};
    for (int r = 0; r < key->n; r++)
        for (int c = 0; c < key->n; c++) {
            uint64_t bit = 1ULL << (8 * r + c);
            p.cell[r * key->n + c] = (key->pos.s[PIECE_X] & bit) ? 'X' : (key->pos.s[PIECE_O] & bit) ? 'O' : '.';
        }
    Winner want = tl_brute_winner(sc->m, &p);
    sc->checked++;
    if (want != v->winner && !sc->bad++) ref_format(&p, sc->first_bad);
    return 0;
}

Test(jobs, store_second_run_at_once)
{
    char dir[] = "/tmp/ocsolve-jobs-store-XXXXXX";
    cr_assert(mkdtemp(dir) != NULL);
    BruteMemo *m = brute_new();
    uint64_t rng = 99;
    RefPos p;
    int tries = 0;
    JobsResult first;
    /* A position that needs expansions with a 10-node budget. */
    for (;;) {
        cr_assert(tries++ < 400, "no position needed an expansion");
        if (tl_random_ongoing(&p, 6, 5, REF_ORIGINAL, 36 - 13, &rng) != 0) continue;
        char err[256] = "";
        Store *st = store_open(dir, false, 0, err, sizeof err);
        cr_assert(st, "%s", err);
        first = run_jobs(&p, 2, 10, st, false);
        store_close(st);
        if (first.expansions >= 2) break;
        tl_rm_dir(dir);
        cr_assert(mkdtemp(strcpy(dir, "/tmp/ocsolve-jobs-store-XXXXXX")) != NULL);
    }
    cr_assert_eq(first.winner, tl_brute_winner(m, &p));
    char err[256] = "";
    Store *st = store_open(dir, false, 0, err, sizeof err);
    cr_assert(st, "%s", err);
    JobsResult again = run_jobs(&p, 2, 10, st, false);
    cr_expect_eq(again.winner, first.winner);
    cr_expect_eq(again.jobs_run, 0, "second run ran %llu jobs", (unsigned long long)again.jobs_run);
    cr_expect_eq(again.store_hits, 1);
    StoreStats ss;
    cr_assert_eq(store_stats(st, &ss, err, sizeof err), 0, "%s", err);
    cr_expect_geq(ss.entries, 3, "only %llu records", (unsigned long long)ss.entries);
    StoreAgainstBrute sc = {.m = m, .rules = REF_ORIGINAL};
    cr_assert_eq(store_foreach(st, check_record, &sc, err, sizeof err), 0, "%s", err);
    cr_expect_eq(sc.bad, 0, "%d of %d sampled records disagree with the brute force, e.g. %s", sc.bad, sc.checked,
                 sc.first_bad);
    cr_expect_geq(sc.checked, 1);
    store_close(st);
    brute_free(m);
    tl_rm_dir(dir);
}

/* ---------------- the command line ---------------- */

Test(jobs, cli)
{
    Run r;
    expect_ok(&r, "jobs", "--workers", "2", "--job-nodes", "100", "--job-tt-mb", "1", "--quiet", "--no-centre",
              "XX.OO./OX.X../..X.O./.O..X./X.O.../......");
    cr_expect(strstr(r.out, "result: ") != NULL, "%s", r.out);
    cr_expect(strstr(r.out, "jobs: ") != NULL, "%s", r.out);
    cr_expect(strstr(r.out, "top tree: ") != NULL, "%s", r.out);
    cr_expect(strstr(r.out, "result: unknown") == NULL, "%s", r.out);
    run_free(&r);
    expect_reject("--bogus", "jobs", "--bogus", "-");
    expect_reject("--workers", "jobs", "--workers", "0", "-");
    expect_reject("--job-nodes", "jobs", "--job-nodes", "x", "-");
    expect_reject("--job-log", "jobs", "--job-log", "/nonexistent-dir/log.csv", "-");
    expect_reject("--cost-weight", "jobs", "--cost-weight", "-1", "-");
    expect_reject("--cost-weight", "jobs", "--cost-weight", "heavy", "-");
    expect_reject("--focus-release", "jobs", "--focus-release", "-2", "-");
    expect_reject("--reply-tables", "jobs", "--reply-tables", "0", "-");
    expect_reject("--reply-tables", "jobs", "--workers", "3", "--reply-tables", "2", "-");
    expect_reject("--reply-depth", "jobs", "--reply-depth", "2", "-");
    expect_reject("--reply-depth", "jobs", "--reply-tables", "4", "--reply-depth", "0", "-");
    expect_reject("--reply-order", "jobs", "--reply-order", "work", "-");
    expect_reject("--reply-order", "jobs", "--reply-tables", "4", "--reply-order", "largest", "-");
    expect_reject("--regen-split", "jobs", "--regen-split", "1", "-");
    expect_reject("--regen-split", "jobs", "--store", "/tmp", "--certs-later", "--regen-split", "5", "-");
    expect_reject("--regen-split", "jobs", "--store", "/tmp", "--certs-later", "--regen-split", "x", "-");
    expect_reject("--regen-split", "jobs", "--store", "/tmp", "--certs-later", "--regen-split", "1", "--within", "5",
                  "-");
    expect_ok(&r, "jobs", "--workers", "2", "--job-nodes", "100", "--job-tt-mb", "1", "--quiet", "--no-centre",
              "--cost-weight", "0.5", "--expect-majority", "--focus-release", "16", "--reply-tables", "4",
              "--reply-order", "work",
              "XX.OO./OX.X../..X.O./.O..X./X.O.../......");
    cr_expect(strstr(r.out, "result: order") != NULL || strstr(r.out, "result: chaos") != NULL, "%s", r.out);
    run_free(&r);
    /* --job-log: the header and one row per job the run reports */
    char path[] = "/tmp/ocsolve-job-log-XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    close(fd);
    expect_ok(&r, "jobs", "--workers", "2", "--job-nodes", "100", "--job-tt-mb", "1", "--quiet", "--no-centre",
              "--job-log", path, "XX.OO./OX.X../..X.O./.O..X./X.O.../......");
    unsigned long long jobs = 0;
    const char *j = strstr(r.out, "jobs: ");
    cr_assert(j && sscanf(j, "jobs: %llu", &jobs) == 1, "%s", r.out);
    run_free(&r);
    FILE *f = fopen(path, "r");
    cr_assert(f);
    char line[512];
    unsigned long long rows = 0;
    cr_assert(fgets(line, sizeof line, f));
    cr_expect(strncmp(line, "serial,worker,start,end,node,", 29) == 0, "%s", line);
    while (fgets(line, sizeof line, f)) rows++;
    fclose(f);
    remove(path);
    cr_expect_eq(rows, jobs, "%llu rows, %llu jobs", rows, jobs);
}

/* The time limit: a hard opening (original, no centre lemma) stays
 * undecided, and the run returns soon after the limit. */
Test(jobs, time_limit)
{
    Rules r;
    char err[256] = "";
    cr_assert_eq(rules_init(&r, 6, 5, RULES_ORIGINAL, err, sizeof err), 0, "%s", err);
    Board b = board_empty();
    board_place(&b, move_make(PIECE_X, board_cell(2, 2)));
    board_place(&b, move_make(PIECE_O, board_cell(0, 0)));
    DfpnConfig cfg = dfpn_default_config();
    cfg.kn.centre = false;
    JobsSpec s = {.workers = 2, .job_nodes = 2000, .job_tt_bytes = (size_t)1 << 20, .time_limit = 0.5};
    JobsResult res;
    cr_assert_eq(jobs_solve(&r, b, &cfg, &s, &res, err, sizeof err), 0, "%s", err);
    cr_expect_eq(res.winner, WINNER_NONE);
    cr_expect_lt(res.seconds, 5.0, "took %.2f s", res.seconds);
    cr_expect_gt(res.jobs_run, 0);
    cr_expect_gt(res.root_pn, 0);
    cr_expect_gt(res.root_dn, 0);
}

/* ---------------- selection ---------------- */

/* With one worker no job is ever running when a leaf is chosen, so the
 * expected outcomes (jobs.c expect_of) settle nothing and must choose
 * exactly what plain selection chooses: the same jobs, nodes and tree.
 * Until 2026-12-02 they did not: the focus (select_child's stickiness)
 * moved only in plain selection, so with expected outcomes it was never
 * set. focus_matters shows the stickiness changes these runs at all, so
 * that the comparison can fail. */
static JobsResult run_focus(const RefPos *p, bool plain, double focus)
{
    JobsSpec s = {.workers = 1, .job_nodes = 2, .job_nodes_max = 8, .focus = focus, .no_expect = plain,
                  .job_tt_bytes = (size_t)1 << 20};
    return run_jobs_spec(p, s, false, 0);
}

Test(jobs, one_worker_either_selection)
{
    BruteMemo *m = brute_new();
    uint64_t rng = 1202;
    int n = 0, focus_matters = 0;
    for (int t = 0; t < 40 && n < 12; t++) {
        RefPos p;
        if (tl_random_ongoing(&p, 6, 5, REF_ORIGINAL, 36 - 14, &rng) != 0) continue;
        JobsResult plain = run_focus(&p, true, 3), expect = run_focus(&p, false, 3);
        if (plain.expansions < 2) continue;
        char s[65];
        ref_format(&p, s);
        Winner want = tl_brute_winner(m, &p);
        cr_assert_eq(plain.winner, want, "%s: plain %s, brute force %s", s, winner_name(plain.winner), winner_name(want));
        cr_assert_eq(expect.winner, want, "%s: expected outcomes %s, brute force %s", s, winner_name(expect.winner),
                     winner_name(want));
        cr_expect_eq(expect.jobs_run, plain.jobs_run, "%s: %llu jobs with expected outcomes, %llu plain", s,
                     (unsigned long long)expect.jobs_run, (unsigned long long)plain.jobs_run);
        cr_expect_eq(expect.nodes, plain.nodes, "%s: %llu nodes with expected outcomes, %llu plain", s,
                     (unsigned long long)expect.nodes, (unsigned long long)plain.nodes);
        cr_expect_eq(expect.tree_nodes, plain.tree_nodes, "%s", s);
        JobsResult nofocus = run_focus(&p, true, 0);
        focus_matters += nofocus.jobs_run != plain.jobs_run || nofocus.nodes != plain.nodes;
        n++;
    }
    brute_free(m);
    cr_log_info("one worker, either selection: %d positions, focus changed %d", n, focus_matters);
    cr_assert_geq(n, 4, "only %d positions needed 2 expansions", n);
    cr_assert_geq(focus_matters, 1, "the focus changed none of the %d runs: the test cannot fail", n);
}

/* ---------------- the job log ---------------- */

/* --job-log (job_log.h): one row per job, their nodes summing to the
 * run's, and every decided job's value, at the position its path leads
 * to from the root, the brute force's; a run with a proof marks some
 * jobs in it and (a first pass over every leaf) some not. */
Test(jobs, job_log_rows_agree_with_brute_force)
{
    BruteMemo *m = brute_new();
    uint64_t rng = 31;
    int runs = 0, decided_rows = 0;
    uint64_t in_all = 0, out_all = 0;
    for (int t = 0; t < 30 && runs < 3; t++) {
        RefPos p;
        if (tl_random_ongoing(&p, 6, 5, REF_ORIGINAL, 36 - 14, &rng) != 0) continue;
        FILE *f = tmpfile();
        cr_assert(f);
        JobsSpec s = {.workers = 1, .job_nodes = 2, .job_nodes_max = 8, .focus = 1, .job_tt_bytes = (size_t)1 << 20,
                      .expand_depth = 1, .job_log = f};
        JobsResult res = run_jobs_spec(&p, s, false, 0);
        rewind(f);
        char line[512];
        cr_assert(fgets(line, sizeof line, f));
        cr_assert_str_eq(line, "serial,worker,start,end,node,depth,path,budget,nodes,result,pn,dn,cert_seconds,"
                               "expanded,in_proof\n");
        uint64_t rows = 0, nodes = 0, in = 0, out = 0;
        char *fld[TL_JOB_LOG_FIELDS];
        while (tl_job_log_row(f, line, sizeof line, fld)) {
            rows++;
            nodes += strtoull(fld[8], NULL, 10);
            cr_assert(strcmp(fld[14], "1") == 0 || strcmp(fld[14], "0") == 0, "in_proof %s", fld[14]);
            in += fld[14][0] == '1';
            out += fld[14][0] == '0';
            if ((strcmp(fld[9], "order") != 0 && strcmp(fld[9], "chaos") != 0) || rows % 4 != 1) continue;
            RefPos q = p; /* every fourth row's position, replayed */
            char path[256];
            snprintf(path, sizeof path, "%s", fld[6]);
            int depth = 0;
            for (char *mv = strtok(path, " "); mv; mv = strtok(NULL, " "), depth++) {
                Move mm;
                char err[64];
                cr_assert_eq(notation_parse_move(mv, 6, &mm, err, sizeof err), 0, "%s: %s", mv, err);
                int cell = move_cell(mm), r = cell / 8, c = cell % 8;
                cr_assert_eq(q.cell[r * 6 + c], '.', "path %s: %s on a taken cell", fld[6], mv);
                q.cell[r * 6 + c] = move_piece(mm) == PIECE_X ? 'X' : 'O';
            }
            cr_assert_eq(depth, atoi(fld[5]), "path %s at depth %s", fld[6], fld[5]);
            Winner want = tl_brute_winner(m, &q);
            cr_assert_str_eq(fld[9], winner_name(want) , "path %s: logged %s, brute force %s", fld[6], fld[9],
                             winner_name(want));
            decided_rows++;
        }
        fclose(f);
        cr_assert_eq(rows, res.jobs_run);
        cr_assert_eq(nodes, res.nodes - res.help_nodes);
        in_all += in;
        out_all += out;
        runs += res.expansions > 1;
    }
    brute_free(m);
    cr_assert_geq(runs, 3);
    cr_assert_gt(in_all, 0, "no job in a proof");
    cr_assert_gt(out_all, 0, "no job outside a proof");
    cr_assert_geq(decided_rows, 5);
}

/* ---------------- selection options: cost weight, focus release, majority ---------------- */

/* --cost-weight (top_select.c choice_number), --focus-release
 * (focus_released) and --expect-majority (top_tree.c expect_of) choose
 * work only: every mode gives the brute force's values, with 1 and 2
 * workers, on runs that re-budget and expand leaves. The one worker runs
 * are deterministic: the weight and the release must each change at least
 * one of them (jobs or nodes), or this test could not notice either doing
 * nothing. */
Test(jobs, selection_options)
{
    static const struct {
        int workers;
        double weight, release;
        bool majority, no_help;
    } modes[] = {{1, 0.5, 0, false, true},  {1, 0, 2.0, false, true}, {1, 1.0, 0, true, true},
                 {2, 0.5, 0, true, false},  {2, 2.0, 0, true, true},  {2, 0.5, 0, false, false},
                 {2, 0, 4.0, false, false}, {2, 0, 2.0, true, true}};
    BruteMemo *m = brute_new();
    uint64_t rng = 1203;
    int n = 0, weight_matters = 0, release_matters = 0;
    for (int t = 0; t < 40 && n < 6; t++) {
        RefPos p;
        if (tl_random_ongoing(&p, 6, 5, t % 3, 36 - 14, &rng) != 0) continue;
        char s[65];
        ref_format(&p, s);
        Winner want = tl_brute_winner(m, &p);
        JobsSpec base = {.workers = 1, .job_nodes = 2, .job_nodes_max = 32, .focus = 3, .no_help = true,
                         .job_tt_bytes = (size_t)1 << 20};
        JobsResult plain = run_jobs_spec(&p, base, false, 0);
        cr_assert_eq(plain.winner, want, "%s: %s, brute force %s", s, winner_name(plain.winner), winner_name(want));
        for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++) {
            JobsSpec ms = base;
            ms.workers = modes[i].workers;
            ms.cost_weight = modes[i].weight;
            ms.focus_release = modes[i].release;
            ms.expect_majority = modes[i].majority;
            ms.no_help = modes[i].no_help;
            JobsResult a = run_jobs_spec(&p, ms, false, 0);
            cr_assert_eq(a.winner, want, "%s, %d workers, weight %.1f, release %.0f%s: %s, brute force %s", s,
                         modes[i].workers, modes[i].weight, modes[i].release, modes[i].majority ? ", majority" : "",
                         winner_name(a.winner), winner_name(want));
            bool changed = a.jobs_run != plain.jobs_run || a.nodes != plain.nodes;
            if (i == 0) weight_matters += changed;
            if (i == 1) release_matters += changed;
        }
        n++;
    }
    brute_free(m);
    cr_log_info("selection options: %d positions, the weight changed %d one-worker runs, the release %d", n,
                weight_matters, release_matters);
    cr_assert_geq(n, 5, "only %d positions", n);
    cr_assert_geq(weight_matters, 1, "the cost weight changed none of %d runs: the test cannot fail", n);
    cr_assert_geq(release_matters, 1, "the focus release changed none of %d runs: the test cannot fail", n);
}
