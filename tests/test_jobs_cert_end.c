/* test_jobs_cert_end.c - the job-level search's certificates made at the
 * end (--certs-later: jobs/jobs.h, jobs/top_cert.h), each against the
 * independent brute force (tests/brute.h) and the independent verifier
 * (verify/): no job writes as it decides, and the files the root's proof
 * needs, made from the store's records or re-proved, verify for the brute
 * force's winner; a signal stops the re-proofs, leaving no partial file,
 * and a run again makes the rest; --regen-split re-proves a job root as
 * its children's files, and after a stop only what is missing; the
 * split's probes within a node limit; a store's move that does not win
 * never yields a certificate for the wrong side. */
#include <criterion/criterion.h>

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../jobs/jobs.h"
#include "../jobs/top_cert.h"
#include "../verify/verify.h"
#include "brute.h"
#include "testlib.h"

TestSuite(jobs_cert_end, .timeout = 240);

/* What the end phase's progress reports said (JobsProgress.certs). */
typedef struct {
    int reports, backwards;
    uint64_t last;
} CertReports;

static void note_report(const JobsProgress *p, void *arg)
{
    CertReports *cr = arg;
    if (!p->certs) return;
    cr->backwards += p->certs_made < cr->last;
    cr->last = p->certs_made;
    cr->reports++;
}

/* --certs-later on a run from scratch (jobs.c certs_at_end): no job
 * writes anything as it decides (the jobs' lines stay 0), and the files
 * the root's proof needs, made at the end from the store's records or
 * re-proved, form a certificate that verifies for the brute force's
 * winner. Odd and even boards, every rule set, one and two workers; some
 * runs decide siblings by transposition, whose files are made at the end
 * too. */
Test(jobs_cert_end, certs_later_writes_at_the_end)
{
    BruteMemo *m = brute_new();
    uint64_t rng = 5122026;
    int checked = 0, order = 0, chaos = 0, remade = 0;
    for (int t = 0; t < 12; t++) {
        RefPos p;
        if (t % 2 == 0) tl_pick_deep(&p, t % 3, 12 + t % 3, &rng);
        else {
            int tries = 0;
            while (tl_random_ongoing(&p, 5, 5, t % 3, 25 - 13, &rng) != 0) cr_assert_lt(++tries, 200);
        }
        char dir[256], proof[300], certs[300];
        Store *st = tl_jobs_folder(dir, certs, proof, "jobs-later");
        CertReports cr = {0, 0, 0};
        JobsSpec s = {.workers = 1 + t % 2, .job_nodes = 1 + (uint64_t)(t % 3), .job_tt_bytes = (size_t)1 << 20,
                      .store = st, .cert_dir = certs, .proof = proof, .certs_later = true,
                      .report = note_report, .report_arg = &cr, .report_every = 1e-9};
        JobsResult res = tl_jobs_solve(&p, &s);
        store_close(st);
        cr_expect_eq(res.cert_lines, 0, "a job wrote %llu lines as it decided", (unsigned long long)res.cert_lines);
        /* a report after every file made at the end (the interval is
         * tiny), never counting back, never past the files made */
        uint64_t made = res.cert_composed + res.cert_resolved;
        cr_expect(made == 0 || cr.reports > 0, "%llu files made at the end, no report", (unsigned long long)made);
        cr_expect_eq(cr.backwards, 0);
        cr_expect_leq(cr.last, res.cert_files, "reported %llu files, %llu written", (unsigned long long)cr.last,
                      (unsigned long long)res.cert_files);
        Winner want = tl_check_jobs_run(m, &p, &res, proof);
        order += want == WINNER_ORDER;
        chaos += want == WINNER_CHAOS;
        remade += res.cert_composed + res.cert_resolved > 0;
        checked++;
        tl_rm_dir(dir);
    }
    brute_free(m);
    cr_log_info("%d certificates (%d order, %d chaos), %d with files made at the end", checked, order, chaos, remade);
    cr_assert_geq(order, 2);
    cr_assert_geq(chaos, 2);
    cr_assert_geq(remade, 6);
}

/* Counts the files tl_each_file hands it. */
static void count_file(const char *path, void *arg)
{
    (void)path;
    ++*(int *)arg;
}

/* A signal while the certificates are made at the end (--certs-later)
 * stops the re-proofs (top_cert.h topcert_stopped): jobs_solve returns -1
 * with `interrupted` set, writes no proof file, and leaves no partial
 * file (only whole files, renamed into place). A run again on the same
 * store and folder makes the rest, and its certificate verifies for the
 * brute force's winner. The flag is set before the second run starts:
 * the store decides the root at once, so the stop falls in the
 * certificate phase. Before 2026-12-05 the re-proofs ignored the flag, and
 * a SIGINT at the end of a long run went on proving for many minutes. */
Test(jobs_cert_end, signal_stops_the_certificates_at_the_end)
{
    BruteMemo *m = brute_new();
    uint64_t rng = 5122027;
    int stopped = 0, runs = 0;
    for (int t = 0; t < 8; t++) {
        RefPos p;
        tl_pick_deep(&p, t % 3, 14 + t % 2, &rng);
        char dir[256], proof[300], certs[300], err[512] = "";
        Store *st = tl_jobs_folder(dir, certs, proof, "jobs-stop");
        JobsSpec s = {.workers = 1, .job_nodes = 2, .job_tt_bytes = (size_t)1 << 20, .store = st, .cert_dir = certs,
                      .proof = proof, .certs_later = true};
        tl_jobs_solve(&p, &s);
        s.workers = 1 + t % 2; /* two: the re-proofs two at a time (top_regen_par.c), stopped alike */
        tl_rm_dir(certs); /* the store stays: it decides the root next time */
        cr_assert_eq(mkdir(certs, 0777), 0);
        remove(proof);
        atomic_bool flag = true;
        s.interrupt = &flag;
        JobsResult res;
        int rc = tl_jobs_try(&p, &s, &res, err, sizeof err);
        if (rc != 0) {
            cr_expect(res.interrupted, "failed, not stopped: %s", err);
            cr_expect(strstr(err, "stopped by a signal"), "%s", err);
            cr_expect_neq(access(proof, F_OK), 0, "a proof file after the stop");
            int partial = 0;
            tl_each_file(certs, ".tmp", count_file, &partial);
            cr_expect_eq(partial, 0, "%d partial files left", partial);
            stopped++;
        }
        flag = false; /* and again, to the end */
        JobsResult again = tl_jobs_solve(&p, &s);
        store_close(st);
        tl_check_jobs_run(m, &p, &again, proof);
        runs++;
        tl_rm_dir(certs);
        tl_rm_dir(dir);
    }
    brute_free(m);
    cr_log_info("%d runs, %d stopped while making certificates", runs, stopped);
    cr_assert_geq(stopped, 4);
}

/* The files tl_each_file hands it, with their times of change. */
typedef struct {
    char path[64][320];
    double when[64];
    int n;
} FileAges;

static void note_age(const char *path, void *arg)
{
    FileAges *a = arg;
    struct stat sb;
    if (a->n >= 64 || stat(path, &sb) != 0) return;
    snprintf(a->path[a->n], sizeof a->path[0], "%s", path);
    a->when[a->n++] = (double)sb.st_mtim.tv_sec + 1e-9 * (double)sb.st_mtim.tv_nsec;
}

/* Removes the newer half of dir's certificates: what a stop in the
 * middle of the end phase leaves (a node's file is renamed into place
 * after its children's, so the older files never name a newer one). */
static void remove_newer_half(const char *dir)
{
    FileAges a = {.n = 0};
    tl_each_file(dir, ".ocproof", note_age, &a);
    for (int i = 0; i < a.n; i++) {
        int newer = 0;
        for (int j = 0; j < a.n; j++) newer += a.when[j] > a.when[i] || (a.when[j] == a.when[i] && j > i);
        if (newer < a.n / 2) remove(a.path[i]);
    }
}

/* --regen-split (top_regen.c split): a job root re-proved at the end is
 * split into its children's certificates, each re-proved into a file of
 * its own. The run again on the same store, its certificates removed,
 * with split 1 or 2, one or two workers (two re-prove the children two at
 * a time): the certificate verifies for the brute force's
 * winner; then, the newer half of its files removed (what a stop leaves),
 * a third run re-proves only what is missing (fewer re-proofs than the
 * second run made) and its certificate verifies again. */
Test(jobs_cert_end, regen_split_keeps_whole_children)
{
    BruteMemo *m = brute_new();
    uint64_t rng = 5122028;
    int split = 0;
    uint64_t first = 0, again = 0;
    for (int t = 0; t < 6; t++) {
        RefPos p;
        tl_pick_deep(&p, t % 3, 14 + t % 2, &rng);
        char dir[256], proof[300], certs[300];
        Store *st = tl_jobs_folder(dir, certs, proof, "jobs-split");
        JobsSpec s = {.workers = 1, .job_nodes = 2 + (uint64_t)(t % 3) * 40, .job_tt_bytes = (size_t)1 << 20,
                      .store = st, .cert_dir = certs, .proof = proof, .certs_later = true};
        tl_jobs_solve(&p, &s);
        tl_rm_dir(certs);
        cr_assert_eq(mkdir(certs, 0777), 0);
        s.regen_split = 1 + t % 2;
        /* split every re-proof that a node does not finish (probes that
         * finish and others that do not: probes_within_a_limit) */
        s.regen_probe = 1;
        s.workers = 1 + (t / 2) % 2; /* two: the children re-proved two at a time (top_regen_par.c) */
        JobsResult res = tl_jobs_solve(&p, &s);
        tl_check_jobs_run(m, &p, &res, proof);
        split += res.cert_split > 0;
        remove_newer_half(certs);
        JobsResult res2 = tl_jobs_solve(&p, &s);
        store_close(st);
        tl_check_jobs_run(m, &p, &res2, proof);
        cr_expect_leq(res2.cert_resolved, res.cert_resolved, "re-proved %llu after a partial stop, %llu at first",
                      (unsigned long long)res2.cert_resolved, (unsigned long long)res.cert_resolved);
        first += res.cert_resolved;
        again += res2.cert_resolved;
        tl_rm_dir(dir);
    }
    brute_free(m);
    cr_log_info("%d of 6 runs split; re-proofs %llu, then %llu after the newer half of the files went", split,
                (unsigned long long)first, (unsigned long long)again);
    cr_assert_geq(split, 4);
    cr_assert_lt(again, first);
}

/* Does the file at path verify for want with p as root? */
static bool verifies(const RefPos *p, const char *path, Winner want, char *why, size_t size)
{
    char pos[65];
    ref_format(p, pos);
    VerifyExpect x = {p->n, p->k, p->rules, want == WINNER_ORDER ? VERIFY_WINNER_ORDER : VERIFY_WINNER_CHAOS, pos};
    VerifyResult vr;
    bool ok = verify_file_ex(path, &x, &vr) == VERIFY_VALID;
    snprintf(why, size, "%s: %s", pos, ok ? "valid" : vr.error);
    return ok;
}

/* The split's probes, two at a time within a node limit
 * (topcert_probe_many): a position that finishes has a file that verifies
 * for the brute force's winner; one that does not has no file, and its
 * re-proof without a limit then verifies. Both kinds must occur. */
Test(jobs_cert_end, probes_within_a_limit)
{
    BruteMemo *m = brute_new();
    uint64_t rng = 5122030;
    int finished = 0, unfinished = 0;
    const char *dir_none = "/nonexistent";
    for (int rs = 0; rs < 3; rs++) {
        Rules r;
        RefPos pos[2][12];
        Board b[2][12];
        int count[2] = {0, 0};
        for (int tries = 0; tries < 400 && (count[0] < 12 || count[1] < 12); tries++) {
            RefPos p;
            if (tl_random_ongoing(&p, 6, 5, rs, 36 - 13, &rng) != 0) continue;
            tl_init_rules(&r, &p);
            int side = tl_brute_winner(m, &p) == WINNER_ORDER ? 0 : 1;
            TopCert look; /* only for topcert_trivial: Order completing a line needs no file */
            DfpnConfig cfg = dfpn_default_config();
            topcert_init(&look, &r, &cfg, dir_none);
            if (topcert_trivial(&look, tl_board(&p)) || count[side] == 12) continue;
            pos[side][count[side]] = p;
            b[side][count[side]++] = tl_board(&p);
        }
        for (int side = 0; side < 2; side++) {
            Winner w = side == 0 ? WINNER_ORDER : WINNER_CHAOS;
            char dir[256], err[512] = "", why[600];
            tl_tmp_dir(dir, sizeof dir, "jobs-probe");
            DfpnConfig cfg = dfpn_default_config();
            TopCert tc;
            topcert_init(&tc, &r, &cfg, dir);
            tc.mini_bytes = (size_t)1 << 20;
            tc.threads = 2;
            bool undecided[12];
            cr_assert_eq(topcert_probe_many(&tc, b[side], count[side], w, 40, undecided, err, sizeof err), 0, "%s",
                         err);
            Board rest[12];
            int nrest = 0;
            for (int i = 0; i < count[side]; i++) {
                char path[512];
                topcert_path(&tc, b[side][i], path, sizeof path);
                if (undecided[i]) {
                    cr_expect(access(path, F_OK) != 0, "an unfinished probe left %s", path);
                    rest[nrest++] = b[side][i];
                    unfinished++;
                } else {
                    cr_expect(verifies(&pos[side][i], path, w, why, sizeof why), "%s", why);
                    finished++;
                }
            }
            cr_assert_eq(topcert_reprove_many(&tc, rest, nrest, w, err, sizeof err), 0, "%s", err);
            for (int i = 0; i < count[side]; i++) {
                char path[512];
                topcert_path(&tc, b[side][i], path, sizeof path);
                cr_expect(verifies(&pos[side][i], path, w, why, sizeof why), "%s", why);
            }
            topcert_free(&tc);
            tl_rm_dir(dir);
        }
    }
    brute_free(m);
    cr_log_info("probes: %d finished within 40 nodes, %d did not", finished, unfinished);
    cr_expect_geq(finished, 3);
    cr_expect_geq(unfinished, 3);
}

/* A store whose record of a job root names a move that does not win:
 * the split follows the store's move only for the winner to move, and the
 * child's re-proof then finds the other winner, so the run fails with a
 * message (or, where the move wins after all, verifies); it never writes
 * a certificate for the wrong side. */
Test(jobs_cert_end, regen_split_with_a_lying_move)
{
    BruteMemo *m = brute_new();
    uint64_t rng = 5122029;
    int failed = 0, tried = 0;
    for (int t = 0; t < 60 && tried < 10; t++) {
        RefPos p;
        if (tl_random_ongoing(&p, 6, 5, t % 3, 36 - 14, &rng) != 0) continue;
        Winner w = tl_brute_winner(m, &p);
        int pieces = 0;
        for (int i = 0; i < 36; i++) pieces += p.cell[i] != '.';
        if ((w == WINNER_ORDER) != (pieces % 2 == 0)) continue; /* the winner to move */
        /* a move of the winner's that loses: a child the brute force gives the other side */
        Move bad = MOVE_NONE;
        for (int i = 0; i < 36 && bad == MOVE_NONE; i++)
            for (int sym = 0; sym < 2 && p.cell[i] == '.' && bad == MOVE_NONE; sym++) {
                RefPos c = p;
                c.cell[i] = sym ? 'O' : 'X';
                if (ref_status(&c) == REF_ONGOING && tl_brute_winner(m, &c) != w)
                    bad = move_make(sym ? PIECE_O : PIECE_X, 8 * (i / 6) + i % 6);
            }
        if (bad == MOVE_NONE) continue;
        char dir[256], proof[300], certs[300], err[512] = "";
        Store *st = tl_jobs_folder(dir, certs, proof, "jobs-splitlie");
        StoreKey key = {(RuleSet)p.rules, 6, 5, tl_board(&p)};
        StoreValue v = {w, bad, STORE_DTW_UNKNOWN, 0, STORE_SOURCE_HAND};
        char perr[256] = "";
        cr_assert_eq(store_put(st, &key, &v, perr, sizeof perr), 0, "%s", perr);
        JobsSpec s = {.workers = 1, .job_nodes = 2, .job_tt_bytes = (size_t)1 << 20, .store = st, .cert_dir = certs,
                      .proof = proof, .certs_later = true, .regen_split = 2, .regen_probe = 1};
        JobsResult res;
        int rc = tl_jobs_try(&p, &s, &res, err, sizeof err);
        store_close(st);
        if (rc != 0) failed++;
        else tl_check_jobs_run(m, &p, &res, proof);
        tried++;
        tl_rm_dir(dir);
    }
    brute_free(m);
    cr_log_info("%d lying moves, %d runs refused", tried, failed);
    cr_assert_geq(tried, 8);
    cr_assert_geq(failed, 3);
}
