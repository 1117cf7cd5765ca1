/* test_jobs_within.c - the job-level search's bounded mode (jobs/jobs.h,
 * Bounded mode; jobs/within.h): `ocsolve jobs --within D` against the
 * independent brute force (tests/brute.h, which gives dtw) on 4x4, 5x5
 * (k 4) and 6x6 positions of every rule set, yes and no, with budgets so
 * small that the top tree, not one job, decides; its certificates checked
 * by the independent verifier (the claim, the longest game against the
 * brute force's dtw); the store's bound records checked against the
 * brute force after reopening and used by a second run; a run stopped
 * again and again and resumed from its store and journal; the command
 * line. */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../jobs/jobs.h"
#include "../verify/verify.h"
#include "brute.h"
#include "runbin.h"
#include "testlib.h"

#ifdef OCS_SANITIZE
TestSuite(jobs_within, .timeout = 480);
enum { PER_GAME = 1, STORE_POSITIONS = 1 };
#else
TestSuite(jobs_within, .timeout = 120);
enum { PER_GAME = 3, STORE_POSITIONS = 2 };
#endif

/* One bounded run of p with d plies under spec s: jobs_solve's return. */
static int try_within(const RefPos *p, int d, JobsSpec s, bool threats, JobsResult *res, char *err, int errlen)
{
    Rules r;
    tl_init_rules(&r, p);
    DfpnConfig cfg = dfpn_default_config();
    cfg.kn.centre = false;
    if (!threats) cfg.kn.threat_plies = 0;
    s.bounded = true;
    s.within = d;
    if (!s.job_tt_bytes) s.job_tt_bytes = (size_t)1 << 20;
    return jobs_solve(&r, tl_board(p), &cfg, &s, res, err, errlen);
}

/* The same, asserting it decided. */
static JobsResult run_within(const RefPos *p, int d, JobsSpec s, bool threats)
{
    JobsResult res;
    char err[512] = "";
    cr_assert_eq(try_within(p, d, s, threats, &res, err, sizeof err), 0, "jobs_solve: %s", err);
    cr_assert_neq(res.winner, WINNER_NONE, "no time limit, yet undecided");
    return res;
}

/* A run's folder: dir (a new temporary folder, tagged), its certificate
 * folder certs (made), its proof path and its store path (not made). */
static void within_folder(char dir[64], char certs[128], char proof[160], char sdir[128], const char *tag)
{
    tl_tmp_dir(dir, 64, tag);
    snprintf(certs, 128, "%s/certs", dir);
    snprintf(proof, 160, "%s/top.ocproof", dir);
    snprintf(sdir, 128, "%s/store", dir);
    cr_assert_eq(mkdir(certs, 0777), 0);
}

/* The run's answer against the brute force's dtw (-1: Chaos wins). */
static void check_answer(const RefPos *p, int d, int dtw, const JobsResult *res)
{
    char s[65];
    ref_format(p, s);
    bool yes = dtw >= 0 && dtw <= d;
    cr_assert_eq(res->winner, yes ? WINNER_ORDER : WINNER_CHAOS, "%s n=%d k=%d rules=%d within %d: jobs %s, dtw %d", s,
                 p->n, p->k, p->rules, d, res->winner == WINNER_ORDER ? "yes" : "no", dtw);
    if (yes)
        cr_assert(res->within_depth >= dtw && res->within_depth <= d, "%s within %d: proof depth %d, dtw %d", s, d,
                  res->within_depth, dtw);
}

/* The run's certificate, by the verifier alone: valid for p's game and
 * root; a yes an Order certificate whose longest game lies between the
 * brute force's dtw (it cannot be shorter) and d; a no Chaos's to the
 * horizon d. */
static void check_proof(const char *proof, const RefPos *p, int d, int dtw, int threads)
{
    char s[65];
    ref_format(p, s);
    VerifyExpect x = {p->n, p->k, p->rules, 0, s};
    VerifyResult v;
    cr_assert_eq(verify_file_threads(proof, &x, threads, &v), VERIFY_VALID, "%s rules %d within %d: %s", s, p->rules,
                 d, v.error);
    if (dtw >= 0 && dtw <= d) {
        cr_assert_eq(v.winner, VERIFY_WINNER_ORDER, "%s within %d", s, d);
        cr_assert(v.longest >= dtw && v.longest <= d, "%s within %d: longest game %d, dtw %d", s, d, v.longest, dtw);
    } else {
        cr_assert_eq(v.winner, VERIFY_WINNER_CHAOS, "%s within %d", s, d);
        cr_assert_eq(v.horizon, d, "%s within %d: horizon %d", s, d, v.horizon);
    }
}

typedef struct {
    int runs, yes, no, expanded, certs, later_tree; /* later_tree: certs_later runs decided by the tree */
} Tally;

/* p asked d in one of a few modes (workers, budgets, a top split at once,
 * the threat search, certificates), chosen by `mode`. */
static void ask(const RefPos *p, int d, int dtw, int mode, Tally *t)
{
    char dir[64] = "", proof[128] = "";
    bool certs = mode % 2 == 0;
    JobsSpec s = {.workers = 1 + mode % 2, .job_nodes = 1 + (uint64_t)(mode % 3), .expand_depth = mode % 5 == 4,
                  .no_help = true};
    if (mode % 7 == 3) s.job_nodes_max = 4 * s.job_nodes; /* a re-run before the expansion */
    if (certs) {
        tl_tmp_dir(dir, sizeof dir, "jobs-within");
        snprintf(proof, sizeof proof, "%s/top.ocproof", dir);
        s.cert_dir = dir;
        s.proof = proof;
        s.certs_later = mode % 4 == 2 || mode % 5 == 4; /* nothing written by the jobs: the files at the end */
    }
    JobsResult res = run_within(p, d, s, mode % 3 != 1);
    check_answer(p, d, dtw, &res);
    t->later_tree += s.certs_later && res.expansions > 0 && res.jobs_decided > 1;
    if (certs) {
        check_proof(proof, p, d, dtw, 1 + mode % 2);
        tl_rm_dir(dir);
        t->certs++;
    }
    t->runs++;
    t->expanded += res.expansions > 0;
    if (res.winner == WINNER_ORDER) t->yes++;
    else t->no++;
}

/* The questions asked of a position of distance dtw (-1: Chaos wins) with
 * e empty cells: the least yes and the greatest no around dtw, and one
 * yes past it; for a Chaos win, the whole game and half of it. */
static int questions(int dtw, int e, int out[3])
{
    if (dtw < 0) {
        out[0] = e;
        out[1] = e / 2;
        return 2;
    }
    int n = 0;
    out[n++] = dtw;
    if (dtw >= 1) out[n++] = dtw - 1;
    if (dtw + 2 <= e) out[n++] = dtw + 2;
    return n;
}

/* Every rule set on 4x4 (k 3 and 4), 5x5 (k 4) and 6x6 (k 5), random
 * positions of 10-13 empty cells (the brute force's time grows as 3 to
 * the empty cells): each question's answer is the brute force's, and
 * every certificate written verifies. */
Test(jobs_within, agrees_with_brute_force)
{
    static const struct {
        int n, k;
    } games[] = {{4, 3}, {4, 4}, {5, 4}, {6, 5}};
    BruteMemo *m = brute_new();
    cr_assert(m);
    uint64_t rng = 36020261203ULL;
    Tally t = {0};
    int mode = 0;
    for (size_t g = 0; g < sizeof games / sizeof games[0]; g++)
        for (int rs = 0; rs < 3; rs++)
            for (int i = 0; i < PER_GAME; i++) {
                RefPos p;
                int cells = games[g].n * games[g].n, e = 10 + (i + rs) % 4;
                if (e > cells - 2) e = cells - 2;
                if (tl_random_ongoing(&p, games[g].n, games[g].k, rs, cells - e, &rng) != 0) continue;
                int dtw = brute_dtw(m, &p), q[3], nq = questions(dtw, e, q);
                for (int j = 0; j < nq; j++) ask(&p, q[j], dtw, mode++, &t);
            }
    brute_free(m);
    cr_log_info("%d runs: %d yes, %d no, %d expanded, %d certificates, %d of them made at the end after an expansion",
                t.runs, t.yes, t.no, t.expanded, t.certs, t.later_tree);
    cr_assert_geq(t.yes, 4 * PER_GAME, "only %d yes", t.yes);
    cr_assert_geq(t.no, 4 * PER_GAME, "only %d no", t.no);
    cr_assert_geq(t.expanded, PER_GAME, "only %d runs expanded the top tree", t.expanded);
}

/* Every bound record of the store at dir, read after reopening it, agrees
 * with the brute force; how many there are. */
static int check_bounds(const char *dir, BruteMemo *m, int rules)
{
    char err[512];
    Store *st = store_open(dir, true, 0, err, sizeof err);
    cr_assert(st, "%s", err);
    int checked = 0, n = tl_store_bound_disagreements(st, m, rules, &checked);
    cr_assert_eq(n, 0, "%d of %d bound records disagree with the brute force", n, checked);
    store_close(st);
    return checked;
}

/* A random position of e empty cells whose bounded question d (the whole
 * game: e) takes a run of one-node jobs at least 20 jobs, into p. */
static void pick_busy(RefPos *p, int e, uint64_t *rng)
{
    for (int tries = 0; tries < 200; tries++) {
        if (tl_random_ongoing(p, 6, 5, REF_ORIGINAL, 36 - e, rng) != 0) continue;
        JobsSpec s = {.workers = 1, .job_nodes = 1, .no_help = true};
        if (run_within(p, e, s, false).jobs_run >= 20) return;
    }
    cr_assert_fail("no position with %d empty cells took 20 jobs", e);
}

/* A run puts its decisions as bound records: after reopening, every one
 * agrees with the brute force; a second run of the same question is
 * answered without a job (the root's record, its certificate agreeing),
 * and runs of other questions take what the records answer. */
Test(jobs_within, store_bounds_survive_and_answer)
{
    BruteMemo *m = brute_new();
    uint64_t rng = 77036;
    int records = 0, reused = 0;
    for (int i = 0; i < STORE_POSITIONS; i++) {
        int last = 0;
        RefPos p;
        int e = 12, q[3 + 2] = {e, e};
        pick_busy(&p, e, &rng);
        int dtw = brute_dtw(m, &p), nq = 2 + questions(dtw, e, q + 2);
        char dir[64], certs[128], proof[160], sdir[128], err[512];
        within_folder(dir, certs, proof, sdir, "jobs-within-store");
        StoreGame g = {RULES_ORIGINAL, 6, 5};
        for (int run = 0; run < nq; run++) {
            Store *st = store_open_game(sdir, false, 0, &g, err, sizeof err);
            cr_assert(st, "%s", err);
            JobsSpec s = {.workers = 2, .job_nodes = 1, .store = st, .cert_dir = certs, .proof = proof,
                          .no_help = true};
            JobsResult res = run_within(&p, q[run], s, run % 2 == 0);
            store_close(st);
            check_answer(&p, q[run], dtw, &res);
            check_proof(proof, &p, q[run], dtw, 2);
            if (run == 1) /* the same question again */
                cr_assert_eq(res.jobs_run, 0, "the same question again: %llu jobs", (unsigned long long)res.jobs_run);
            if (run >= 1) reused += res.store_hits > 0 || res.root_from_store;
            last = check_bounds(sdir, m, REF_ORIGINAL);
        }
        records += last;
        tl_rm_dir(certs);
        tl_rm_dir(sdir);
        tl_rm_dir(dir);
    }
    brute_free(m);
    cr_log_info("%d bound records in the stores, %d runs used records", records, reused);
    cr_assert_geq(records, 2 * STORE_POSITIONS, "only %d bound records", records);
    cr_assert_geq(reused, STORE_POSITIONS * 2);
}

/* A signal while a bounded run's certificates are made at the end
 * (--certs-later) stops the re-proofs (within_cert.c prove_now, top_cert.h
 * topcert_stopped): -1 with `interrupted`, no proof file; a run again on
 * the same store and folder finishes, and its certificate verifies for
 * the brute force's answer. The flag is set before the second run: the
 * store answers the root at once, so the stop falls in the certificate
 * phase. */
Test(jobs_within, signal_stops_the_certificates_at_the_end)
{
    BruteMemo *m = brute_new();
    uint64_t rng = 5122028;
    int stopped = 0;
    for (int i = 0; i < 4; i++) {
        RefPos p;
        int e = 12;
        pick_busy(&p, e, &rng);
        int dtw = brute_dtw(m, &p), d = dtw >= 0 && i % 2 == 0 ? dtw : e / 2;
        char dir[64], certs[128], proof[160], sdir[128], err[512] = "";
        within_folder(dir, certs, proof, sdir, "jobs-within-stop");
        StoreGame g = {RULES_ORIGINAL, 6, 5};
        Store *st = store_open_game(sdir, false, 0, &g, err, sizeof err);
        cr_assert(st, "%s", err);
        JobsSpec s = {.workers = 1, .job_nodes = 1, .store = st, .cert_dir = certs, .proof = proof,
                      .no_help = true, .certs_later = true};
        run_within(&p, d, s, false);
        tl_rm_dir(certs);
        cr_assert_eq(mkdir(certs, 0777), 0);
        remove(proof);
        atomic_bool flag = true;
        s.interrupt = &flag;
        JobsResult res;
        if (try_within(&p, d, s, false, &res, err, sizeof err) != 0) {
            cr_expect(res.interrupted, "failed, not stopped: %s", err);
            cr_expect(strstr(err, "stopped by a signal"), "%s", err);
            cr_expect_neq(access(proof, F_OK), 0, "a proof file after the stop");
            stopped++;
        }
        flag = false;
        JobsResult again = run_within(&p, d, s, false);
        store_close(st);
        check_answer(&p, d, dtw, &again);
        check_proof(proof, &p, d, dtw, 2);
        tl_rm_dir(certs);
        tl_rm_dir(sdir);
        tl_rm_dir(dir);
    }
    brute_free(m);
    cr_log_info("%d of 4 bounded runs stopped while making certificates", stopped);
    cr_assert_geq(stopped, 3);
}

/* A run stopped by a time limit again and again, each time resumed from
 * its store and its journal: the answer is the brute force's, the resumed
 * runs took earlier records and journal entries, and the certificate of
 * the run that decided verifies. */
Test(jobs_within, stopped_and_resumed)
{
    uint64_t rng = 3636;
    RefPos p;
    int e = 14, d = e;
    pick_busy(&p, e, &rng);
    BruteMemo *m = brute_new();
    int dtw = brute_dtw(m, &p);
    brute_free(m);
    char dir[64], certs[128], proof[160], sdir[128], jpath[200], err[512];
    within_folder(dir, certs, proof, sdir, "jobs-within-resume");
    StoreGame g = {RULES_ORIGINAL, 6, 5};
    int runs = 0, resumed = 0;
    JobsResult res = {0};
    for (; runs < 400 && res.winner == WINNER_NONE; runs++) {
        Store *st = store_open_game(sdir, false, 0, &g, err, sizeof err);
        cr_assert(st, "%s", err);
        journal_path_within(sdir, (36 - e) + d, jpath, sizeof jpath);
        Journal *j = journal_open(jpath, &g, err, sizeof err);
        cr_assert(j, "%s", err);
        Rules r;
        tl_init_rules(&r, &p);
        DfpnConfig cfg = dfpn_default_config();
        cfg.kn.centre = false;
        cfg.kn.threat_plies = 0;
        JobsSpec s = {.workers = 2, .job_nodes = 1, .job_tt_bytes = (size_t)1 << 20, .store = st, .journal = j,
                      .cert_dir = certs, .proof = proof, .no_help = true, .bounded = true, .within = d,
                      .time_limit = 0.01};
        cr_assert_eq(jobs_solve(&r, tl_board(&p), &cfg, &s, &res, err, sizeof err), 0, "%s", err);
        resumed += res.journal_hits > 0 || res.store_hits > 0 || res.root_from_store;
        journal_close(j);
        store_close(st);
    }
    cr_log_info("dtw %d, within %d: %d runs, %d resumed something", dtw, d, runs, resumed);
    cr_assert_neq(res.winner, WINNER_NONE, "within %d, dtw %d: undecided after %d runs", d, dtw, runs);
    check_answer(&p, d, dtw, &res);
    cr_assert_geq(runs, 2, "decided in one run: nothing was resumed");
    cr_assert_geq(resumed, 1);
    check_proof(proof, &p, d, dtw, 2);
    tl_rm_dir(certs);
    tl_rm_dir(sdir);
    tl_rm_dir(dir);
}

/* A run resumed from a store that already decides its root, in a new
 * certificate folder, composes the proof from the store's bound records
 * (jobs/within_cert.c) instead of re-proving the root in one bounded
 * job: files composed, the root not re-proved (fewer re-proofs than the
 * first run's decided jobs), and the certificate verifies for the brute
 * force's answer. With one worker and with two (the dry run first). */
Test(jobs_within, composed_from_the_store)
{
    BruteMemo *m = brute_new();
    uint64_t rng = 40612;
    int composed_runs = 0;
    for (int i = 0; i < 2 * STORE_POSITIONS; i++) {
        RefPos p;
        int e = 12;
        pick_busy(&p, e, &rng);
        int dtw = brute_dtw(m, &p), d = dtw >= 1 ? dtw - (i % 2) : e / 2;
        char dir[64], certs[128], proof[160], sdir[128], err[512];
        within_folder(dir, certs, proof, sdir, "jobs-within-compose");
        StoreGame g = {RULES_ORIGINAL, 6, 5};
        JobsResult first = {0};
        for (int run = 0; run < 2; run++) {
            Store *st = store_open_game(sdir, false, 0, &g, err, sizeof err);
            cr_assert(st, "%s", err);
            JobsSpec s = {.workers = 1 + (i + run) % 2, .job_nodes = 1, .store = st, .cert_dir = certs,
                          .proof = proof, .no_help = true, .certs_later = true};
            JobsResult res = run_within(&p, d, s, false);
            store_close(st);
            check_answer(&p, d, dtw, &res);
            check_proof(proof, &p, d, dtw, 2);
            if (run == 0) {
                first = res;
                tl_rm_dir(certs); /* a fresh machine: the store alone */
                cr_assert_eq(mkdir(certs, 0777), 0);
                remove(proof);
                continue;
            }
            cr_assert(res.root_from_store && res.jobs_run == 0, "the second run searched again");
            if (first.jobs_decided < 2) continue; /* one job decided the root: nothing to compose */
            cr_assert_geq(res.cert_composed, 1, "within %d, dtw %d: nothing composed (%llu jobs decided)", d, dtw,
                          (unsigned long long)first.jobs_decided);
            cr_assert_leq(res.cert_resolved, first.jobs_decided + first.cert_resolved,
                          "%llu re-proofs after %llu decided jobs", (unsigned long long)res.cert_resolved,
                          (unsigned long long)first.jobs_decided);
            composed_runs++;
        }
        tl_rm_dir(certs);
        tl_rm_dir(sdir);
        tl_rm_dir(dir);
    }
    brute_free(m);
    cr_assert_geq(composed_runs, STORE_POSITIONS, "only %d resumed runs composed", composed_runs);
}

/* Bound records that lie (a no put for a position Order wins within d,
 * and for every child of it) never yield a certificate of the lie: the
 * composition reaches positions no record covers, whose re-proof finds
 * the truth and fails the run, or writes a proof the verifier refuses. */
Test(jobs_within, lying_records_are_not_certified)
{
    BruteMemo *m = brute_new();
    uint64_t rng = 90210;
    int refused = 0;
    for (int i = 0; i < 4; i++) {
        RefPos p;
        int dtw = -1;
        while (dtw < 2) {
            pick_busy(&p, 11, &rng);
            dtw = brute_dtw(m, &p);
        }
        char dir[64], certs[128], proof[160], sdir[128], err[512] = "";
        within_folder(dir, certs, proof, sdir, "jobs-within-lie");
        StoreGame g = {RULES_ORIGINAL, 6, 5};
        Store *st = store_open_game(sdir, false, 0, &g, err, sizeof err);
        cr_assert(st, "%s", err);
        Rules r;
        tl_init_rules(&r, &p);
        Board b = tl_board(&p), kids[MOVES_MAX + 1];
        MoveList ml;
        moves_generate(b, r.cells, &ml);
        int nk = 0;
        kids[nk++] = b;
        for (int k = 0; k < ml.count; k++) {
            kids[nk] = b;
            board_place(&kids[nk], ml.m[k]);
            nk++;
        }
        for (int k = 0; k < nk; k++) {
            StoreBound lie = {.yes = STORE_BOUND_NONE, .no = (uint8_t)(k == 0 ? dtw : dtw - 1), .move = MOVE_NONE,
                              .source = STORE_SOURCE_DFPN};
            StoreKey key = {RULES_ORIGINAL, 6, 5, kids[k]};
            if (rules_status(&r, kids[k]) != WINNER_NONE) continue;
            cr_assert_eq(store_put_bound(st, &key, &lie, err, sizeof err), 0, "%s", err);
        }
        JobsSpec s = {.workers = 1 + i % 2, .job_nodes = 1, .store = st, .cert_dir = certs, .proof = proof,
                      .no_help = true, .certs_later = true};
        JobsResult res;
        int rc = try_within(&p, dtw, s, false, &res, err, sizeof err);
        store_close(st);
        if (rc != 0) {
            cr_expect(strstr(err, "found yes") != NULL || strstr(err, "found order") != NULL, "failed otherwise: %s",
                      err);
            refused++;
        } else {
            char s6[65];
            ref_format(&p, s6);
            VerifyExpect x = {p.n, p.k, p.rules, 0, s6};
            VerifyResult v;
            int vr = verify_file_threads(proof, &x, 1, &v);
            cr_assert(vr != VERIFY_VALID || v.winner == VERIFY_WINNER_ORDER, "a lie certified: no within %d, dtw %d",
                      dtw, dtw);
            refused += vr != VERIFY_VALID;
        }
        tl_rm_dir(certs);
        tl_rm_dir(sdir);
        tl_rm_dir(dir);
    }
    brute_free(m);
    cr_assert_geq(refused, 1);
}

#define SLOW_DTW "XO...X..OO.O.....XOO...X.O.X.X....XX" /* Chaos to move, distance 14 (README) */

/* From the outside: yes at 14, no at 12 and 13, each certificate
 * accepted by `ocsolve verify --within`, and a second run answered by the
 * store; the options it refuses. */
Test(jobs_within, cli)
{
    char dir[64], store[128], proof[160];
    tl_tmp_dir(dir, sizeof dir, "jobs-within-cli");
    snprintf(store, sizeof store, "%s/st", dir);
    snprintf(proof, sizeof proof, "%s/p.ocproof", dir);
    static const struct {
        const char *d, *answer, *check;
    } cases[] = {{"14", "within 14: yes (Order forces a line within 14 plies)", NULL},
                 {"13", "within 13: no (Order cannot force a line within 13 plies)", "chaos"},
                 {"12", "within 12: no", "chaos"},
                 {"13", "decided by: the store", "chaos"}};
    Run r;
    char certs[192];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        expect_ok(&r, "jobs", "--workers", "2", "--job-nodes", "300", "--job-tt-mb", "4", "--quiet", "--within",
                  cases[i].d, "--store", store, "--proof", proof, SLOW_DTW);
        cr_expect(strstr(r.out, cases[i].answer) != NULL, "within %s: %s", cases[i].d, r.out);
        run_free(&r);
        if (cases[i].check) expect_ok(&r, "verify", "--within", cases[i].d, "--winner", "chaos", proof);
        else expect_ok(&r, "verify", "--within", cases[i].d, proof);
        cr_expect(strstr(r.out, "valid") != NULL, "%s", r.out);
        run_free(&r);
    }
    expect_ok(&r, "store", "stats", store);
    cr_expect(strstr(r.out, "bound records: ") != NULL && strstr(r.out, "bound records: 0") == NULL, "%s", r.out);
    run_free(&r);
    expect_ok(&r, "store", "get", store, SLOW_DTW);
    cr_expect(strstr(r.out, "within: 14 plies") != NULL || strstr(r.out, "not within: 13 plies") != NULL, "%s",
              r.out);
    run_free(&r);
    /* the jobs' tunings (--order, --epsilon): the same answers */
    for (int i = 0; i < 2; i++) {
        expect_ok(&r, "jobs", "--workers", "2", "--job-nodes", "300", "--job-tt-mb", "4", "--quiet", "--within",
                  i ? "13" : "14", "--order", "center", "--epsilon", i ? "2" : "0", SLOW_DTW);
        cr_expect(strstr(r.out, i ? "within 13: no" : "within 14: yes") != NULL, "tuned: %s", r.out);
        run_free(&r);
    }
    expect_reject("--order", "jobs", "--order", "magic", "-");
    expect_reject("--epsilon", "jobs", "--epsilon", "-1", "-");
    expect_reject("--order-switch", "jobs", "--order-switch", "100", "-");
    expect_reject("--order-switch", "jobs", "--within", "9", "--order-switch", "x", "-");
    expect_reject("--within", "jobs", "--within", "65", "-");
    expect_reject("--within", "jobs", "--within", "x", "-");
    expect_reject("--job-threads", "jobs", "--within", "9", "--job-threads", "2", "-");
    /* --certs-later: the jobs write nothing; the proof's files are made at the end */
    char store2[128], proof2[176];
    snprintf(store2, sizeof store2, "%s/st2", dir);
    snprintf(proof2, sizeof proof2, "%s/p2.ocproof", dir);
    for (int i = 0; i < 2; i++) {
        const char *d = i == 0 ? "14" : "13";
        /* the second with a change of order after 50 nodes, in its jobs and re-proofs */
        expect_ok(&r, "jobs", "--workers", "2", "--job-nodes", "300", "--job-tt-mb", "4", "--quiet", "--within", d,
                  "--store", store2, "--certs-later", "--proof", proof2, "--order-switch", i ? "50" : "0", SLOW_DTW);
        cr_expect(strstr(r.out, i == 0 ? "within 14: yes" : "within 13: no") != NULL, "certs-later within %s: %s", d,
                  r.out);
        /* the tree's files, and the jobs' made again at the end */
        cr_expect(strstr(r.out, "re-proved") != NULL && strstr(r.out, " 0 re-proved") == NULL, "%s", r.out);
        run_free(&r);
        if (i == 0) expect_ok(&r, "verify", "--within", d, proof2);
        else expect_ok(&r, "verify", "--within", d, "--winner", "chaos", proof2);
        cr_expect(strstr(r.out, "valid") != NULL, "certs-later within %s: %s", d, r.out);
        run_free(&r);
    }
    snprintf(certs, sizeof certs, "%s/certs", store2);
    tl_rm_dir(certs);
    tl_rm_dir(store2);
    expect_reject("7x7", "jobs", "--within", "9", "--board", "8", "-");
    snprintf(certs, sizeof certs, "%s/certs", store);
    tl_rm_dir(certs);
    tl_rm_dir(store);
    tl_rm_dir(dir);
}
