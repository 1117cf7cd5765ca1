/* test_journal.c - the job journal (tables/journal.h): its records read
 * back (latest wins, any symmetric image), a torn last record dropped, a
 * corrupt or foreign file refused; and job-level runs resumed from it,
 * whose values must be the independent brute force's even when every
 * record's numbers are scrambled (the journal steers, never decides). The
 * file format is written here by the test's own encoder, from the layout
 * drawn in journal.h. */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#define XXH_INLINE_ALL
#include <xxhash.h>

#include "../engine/symmetry.h"
#include "../jobs/jobs.h"
#include "../tables/journal.h"
#include "brute.h"
#include "runbin.h"
#include "testlib.h"

/* A guard against hangs, not a speed test: under the sanitizers the
 * resumed-runs test (54 job-level runs) passed 120 s of wall time on a
 * loaded 2-core machine (make sanitize runs two tests at once). */
#ifdef OCS_SANITIZE
TestSuite(journal, .timeout = 480);
#else
TestSuite(journal, .timeout = 120);
#endif

static const StoreGame G6 = {RULES_ORIGINAL, 6, 5};

static Journal *open_ok(const char *path, const StoreGame *g)
{
    char err[512] = "";
    Journal *j = journal_open(path, g, err, sizeof err);
    cr_assert(j, "journal_open %s: %s", path, err);
    return j;
}

static void put_ok(Journal *j, Board b, uint64_t budget, uint32_t pn, uint32_t dn)
{
    char err[512] = "";
    JournalEntry e = {.budget = budget, .pn = pn, .dn = dn};
    cr_assert_eq(journal_put(j, b, &e, err, sizeof err), 0, "%s", err);
}

static Board two_pieces(int x, int o)
{
    Board b = board_empty();
    board_place(&b, move_make(PIECE_X, x));
    board_place(&b, move_make(PIECE_O, o));
    return b;
}

static long file_size(const char *path)
{
    struct stat s;
    cr_assert_eq(stat(path, &s), 0, "%s", path);
    return (long)s.st_size;
}

/* The test's own record encoder (journal.h's drawing). */
static void encode(uint8_t r[40], Board k, uint64_t budget, uint32_t pn, uint32_t dn)
{
    uint64_t f[3] = {k.s[PIECE_X], k.s[PIECE_O], budget};
    for (int w = 0; w < 3; w++)
        for (int i = 0; i < 8; i++) r[8 * w + i] = (uint8_t)(f[w] >> (8 * i));
    for (int i = 0; i < 4; i++) r[24 + i] = (uint8_t)(pn >> (8 * i)), r[28 + i] = (uint8_t)(dn >> (8 * i));
    uint64_t c = XXH64(r, 32, 0x4F43534A524E4C31ULL);
    for (int i = 0; i < 8; i++) r[32 + i] = (uint8_t)(c >> (8 * i));
}

static void append_bytes(const char *path, const void *p, size_t n)
{
    FILE *f = fopen(path, "ab");
    cr_assert(f);
    cr_assert_eq(fwrite(p, 1, n, f), n);
    fclose(f);
}

static void expect_refused(const char *path, const StoreGame *g, const char *needle)
{
    char err[512] = "";
    Journal *j = journal_open(path, g, err, sizeof err);
    cr_expect_null(j, "%s was opened", path);
    journal_close(j);
    cr_expect(strstr(err, needle) != NULL, "message '%s' lacks '%s'", err, needle);
    cr_expect(strchr(err, '\n') == NULL, "message not one line: %s", err);
}

Test(journal, round_trip_latest_and_images)
{
    char dir[256], path[300];
    tl_tmp_dir(dir, sizeof dir, "journal");
    snprintf(path, sizeof path, "%s/journal", dir);
    Journal *j = open_ok(path, &G6);
    Board a = two_pieces(board_cell(2, 2), board_cell(1, 1)), b = two_pieces(board_cell(0, 5), board_cell(3, 3));
    put_ok(j, a, 100, 7, 9);
    put_ok(j, b, 400, 3, 2);
    put_ok(j, sym_apply(a, 5, 6), 1600, 11, 13); /* an image of a: replaces a's record */
    put_ok(j, board_empty(), 50, 4, 5);
    journal_close(j);
    cr_expect_eq(file_size(path), 16 + 4 * 40);

    j = open_ok(path, &G6);
    JournalStats st;
    journal_stats(j, &st);
    cr_expect_eq(st.records, 4);
    cr_expect_eq(st.positions, 3);
    cr_expect_eq(st.torn, 0);
    for (int s = 0; s < SYM_COUNT; s++) {
        JournalEntry e;
        cr_assert(journal_get(j, sym_apply(a, s, 6), &e), "image %d of a not found", s);
        cr_expect(e.budget == 1600 && e.pn == 11 && e.dn == 13, "image %d: %llu %u %u", s,
                  (unsigned long long)e.budget, e.pn, e.dn);
        cr_assert(journal_get(j, sym_apply(b, s, 6), &e));
        cr_expect(e.budget == 400 && e.pn == 3 && e.dn == 2);
    }
    JournalEntry e;
    cr_assert(journal_get(j, board_empty(), &e));
    cr_expect(e.budget == 50 && e.pn == 4 && e.dn == 5);
    cr_expect_not(journal_get(j, two_pieces(board_cell(0, 0), board_cell(5, 5)), &e));
    char err[256] = "";
    JournalEntry decided = {.budget = 1, .pn = 0, .dn = UINT32_MAX};
    cr_expect_neq(journal_put(j, a, &decided, err, sizeof err), 0, "a decided record was taken");
    journal_close(j);
    cr_expect_eq(file_size(path), 16 + 4 * 40, "the refused record was written");
    tl_rm_dir(dir);
}

Test(journal, torn_last_record_dropped)
{
    char dir[256], path[300];
    tl_tmp_dir(dir, sizeof dir, "journal");
    snprintf(path, sizeof path, "%s/journal", dir);
    Journal *j = open_ok(path, &G6);
    put_ok(j, two_pieces(board_cell(2, 2), board_cell(1, 1)), 100, 7, 9);
    put_ok(j, two_pieces(board_cell(2, 2), board_cell(0, 0)), 100, 5, 6);
    journal_close(j);
    /* A partial record (an append cut off). A reader counts it and
     * leaves the file as it is (a writer may be appending); the writer
     * cuts it. */
    uint8_t junk[17] = {1, 2, 3};
    append_bytes(path, junk, sizeof junk);
    char err[512] = "";
    Journal *ro = journal_open_readonly(path, &G6, err, sizeof err);
    cr_assert(ro, "%s", err);
    JournalStats rs;
    journal_stats(ro, &rs);
    cr_expect(rs.torn == 1 && rs.records == 2, "read-only: torn %llu, records %llu", (unsigned long long)rs.torn,
              (unsigned long long)rs.records);
    JournalEntry any = {.budget = 1, .pn = 1, .dn = 1};
    cr_expect_neq(journal_put(ro, board_empty(), &any, err, sizeof err), 0, "a read-only journal took a record");
    journal_close(ro);
    cr_expect_eq(file_size(path), 16 + 2 * 40 + 17, "a reader changed the file");
    j = open_ok(path, &G6);
    JournalStats st;
    journal_stats(j, &st);
    cr_expect_eq(st.torn, 1);
    cr_expect_eq(st.records, 2);
    cr_expect_eq(file_size(path), 16 + 2 * 40, "not cut back");
    put_ok(j, two_pieces(board_cell(3, 3), board_cell(0, 0)), 400, 2, 2);
    journal_close(j);
    /* A whole last record that fails its check. */
    uint8_t r[40];
    encode(r, sym_canonical(two_pieces(board_cell(4, 4), board_cell(0, 1)), 6, NULL), 100, 3, 3);
    r[5] ^= 1;
    append_bytes(path, r, sizeof r);
    j = open_ok(path, &G6);
    journal_stats(j, &st);
    cr_expect_eq(st.torn, 1);
    cr_expect_eq(st.records, 3);
    JournalEntry e;
    cr_expect(journal_get(j, two_pieces(board_cell(3, 3), board_cell(0, 0)), &e) && e.budget == 400);
    journal_close(j);
    j = open_ok(path, &G6);
    journal_stats(j, &st);
    cr_expect_eq(st.torn, 0, "the torn record came back");
    journal_close(j);
    tl_rm_dir(dir);
}

/* A bad record before the last, a foreign game, another program's file. */
Test(journal, corrupt_or_foreign_refused)
{
    char dir[256], path[300];
    tl_tmp_dir(dir, sizeof dir, "journal");
    snprintf(path, sizeof path, "%s/journal", dir);
    Board k = sym_canonical(two_pieces(board_cell(2, 2), board_cell(1, 1)), 6, NULL);
    static const struct {
        const char *what;
        uint32_t pn, dn;
        int flip;      /* byte flipped after the check was computed, -1 none */
        bool mirror;   /* a non-canonical image */
    } bad[] = {
        {"check", 3, 4, 9, false},
        {"decided pn", 0, UINT32_MAX, -1, false},
        {"infinite dn", 5, UINT32_MAX, -1, false},
        {"not canonical", 3, 4, -1, true},
    };
    for (size_t t = 0; t < sizeof bad / sizeof bad[0]; t++) {
        remove(path);
        journal_close(open_ok(path, &G6));
        uint8_t r[40], good[40];
        Board kb = k;
        if (bad[t].mirror)
            for (int s = 1; s < SYM_COUNT && board_equal(kb, k); s++) kb = sym_apply(k, s, 6);
        cr_assert(!bad[t].mirror || !board_equal(kb, k));
        encode(r, kb, 100, bad[t].pn, bad[t].dn);
        if (bad[t].flip >= 0) r[bad[t].flip] ^= 0x10;
        encode(good, k, 100, 1, 1);
        append_bytes(path, r, sizeof r);
        append_bytes(path, good, sizeof good); /* so the bad one is not the last */
        expect_refused(path, &G6, "corrupt");
    }
    remove(path);
    journal_close(open_ok(path, &G6));
    expect_refused(path, &(StoreGame){RULES_EXACT, 6, 5}, "another game");
    expect_refused(path, &(StoreGame){RULES_ORIGINAL, 5, 4}, "another game");
    tl_write_text(dir, "journal", "this is not a journal at all\n");
    expect_refused(path, &G6, "not an ocsolve job journal");
    /* An empty file (a kill between creating it and writing its header)
     * is a new journal. */
    tl_write_text(dir, "journal", "");
    Journal *j = open_ok(path, &G6);
    put_ok(j, two_pieces(board_cell(2, 2), board_cell(1, 1)), 100, 7, 9);
    journal_close(j);
    j = open_ok(path, &G6);
    JournalStats st;
    journal_stats(j, &st);
    cr_expect_eq(st.records, 1);
    journal_close(j);
    tl_rm_dir(dir);
}

/* ---------------- job-level runs resumed from a journal ---------------- */

static JobsResult run_with(const RefPos *p, Journal *j, uint64_t job_nodes)
{
    Rules r;
    tl_init_rules(&r, p);
    DfpnConfig cfg = dfpn_default_config();
    cfg.kn.centre = false;
    cfg.kn.pairing = 0; /* more for the jobs to do */
    cfg.kn.threat_plies = 0; /* (threats.h: it decides most of these at once) */
    /* no_siblings: without a store, what a first run decided by a
     * sibling's move (top_sibling.c) is not kept for the resumed run, and
     * with budgets of 2 nodes the order of decisions steers the whole
     * search: on one 4x4 position here the resumed run took 9 175 jobs
     * against its first run's 6 887 with the rule, 5 827 against 6 615
     * without. What this file tests is the journal. */
    JobsSpec s = {.workers = 1, .job_nodes = job_nodes, .job_nodes_max = 16 * job_nodes,
                  .job_tt_bytes = (size_t)1 << 20, .no_help = true, .journal = j, .no_siblings = true};
    JobsResult res;
    char err[256] = "";
    cr_assert_eq(jobs_solve(&r, tl_board(p), &cfg, &s, &res, err, sizeof err), 0, "jobs_solve: %s", err);
    return res;
}

/* Rewrites every record of the journal at path with random numbers and
 * budgets (valid records: the scrambling is of the estimates only). */
static void scramble(const char *path, uint64_t *rng)
{
    FILE *f = fopen(path, "r+b");
    cr_assert(f);
    long size = file_size(path);
    for (long at = 16; at + 40 <= size; at += 40) {
        uint8_t r[40];
        cr_assert_eq(fseek(f, at, SEEK_SET), 0);
        cr_assert_eq(fread(r, 1, 40, f), 40);
        Board k = {{0, 0}};
        for (int i = 0; i < 8; i++) k.s[0] |= (uint64_t)r[i] << (8 * i), k.s[1] |= (uint64_t)r[8 + i] << (8 * i);
        uint32_t pn = 1 + (uint32_t)tl_below(rng, 100000), dn = 1 + (uint32_t)tl_below(rng, 100000);
        encode(r, k, 1 + (uint64_t)tl_below(rng, 64), pn, dn);
        cr_assert_eq(fseek(f, at, SEEK_SET), 0);
        cr_assert_eq(fwrite(r, 1, 40, f), 40);
    }
    fclose(f);
}

/* Positions whose runs need undecided jobs (tiny budgets); for each: a
 * run writing a journal, a second run resumed from it, and a run from a
 * scrambled copy, all three against the brute force. */
Test(journal, resumed_runs_agree_with_brute_force)
{
    BruteMemo *m = brute_new();
    cr_assert(m);
    uint64_t rng = 20261202;
    char dir[256], path[300];
    tl_tmp_dir(dir, sizeof dir, "journal-jobs");
    snprintf(path, sizeof path, "%s/journal", dir);
    int count = 0, resumed = 0;
    uint64_t jobs_first = 0, jobs_again = 0;
    for (int t = 0; t < 18; t++) {
        RefPos p;
        int n = t % 2 ? 6 : 4, k = n == 6 ? 5 : 3 + t % 4 / 2;
        int pieces = n == 6 ? 22 + t % 3 : 2 + t % 3;
        if (tl_random_ongoing(&p, n, k, t % 3, pieces, &rng) != 0) continue;
        Winner want = brute_order_wins(m, &p) ? WINNER_ORDER : WINNER_CHAOS;
        StoreGame g = {tl_rules(p.rules), p.n, p.k};
        remove(path);
        Journal *j = open_ok(path, &g);
        JobsResult first = run_with(&p, j, 2);
        journal_close(j);
        cr_assert_eq(first.winner, want, "t=%d: first run %s, brute force %s", t, winner_name(first.winner),
                     winner_name(want));
        j = open_ok(path, &g);
        JournalStats st;
        journal_stats(j, &st);
        cr_assert_eq(st.records, first.jobs_undecided, "t=%d: %llu records for %llu undecided jobs", t,
                     (unsigned long long)st.records, (unsigned long long)first.jobs_undecided);
        JobsResult again = run_with(&p, j, 2);
        journal_close(j);
        cr_assert_eq(again.winner, want, "t=%d: resumed run %s, brute force %s", t, winner_name(again.winner),
                     winner_name(want));
        if (first.jobs_undecided > 0) {
            cr_expect_gt(again.journal_hits, 0, "t=%d: nothing resumed", t);
            resumed++;
        }
        jobs_first += first.jobs_run;
        jobs_again += again.jobs_run;
        scramble(path, &rng);
        j = open_ok(path, &g);
        JobsResult odd = run_with(&p, j, 2);
        journal_close(j);
        cr_assert_eq(odd.winner, want, "t=%d: run from a scrambled journal %s, brute force %s", t,
                     winner_name(odd.winner), winner_name(want));
        count++;
    }
    tl_rm_dir(dir);
    brute_free(m);
    cr_log_info("%d positions, %d resumed; jobs %llu first, %llu resumed", count, resumed,
                (unsigned long long)jobs_first, (unsigned long long)jobs_again);
    cr_assert_geq(count, 12, "only %d positions", count);
    cr_assert_geq(resumed, 6, "only %d positions had undecided jobs", resumed);
    cr_expect_lt(jobs_again, jobs_first, "resumed runs ran %llu jobs, first runs %llu", (unsigned long long)jobs_again,
                 (unsigned long long)jobs_first);
}

/* The command line: a run with --store keeps STORE/journal; a run started
 * again says how many leaves it resumed; a journal that is not one, or is
 * of another game, is refused with one line and exit 2. */
Test(journal, command_line)
{
    char dir[256], store[300];
    tl_tmp_dir(dir, sizeof dir, "journal-cli");
    snprintf(store, sizeof store, "%s/store", dir);
    const char *pos = "X.X..O/..O.../...X../O.X..O/...X../......"; /* not decided in 0.3 s with these budgets */
    Run r;
    expect_ok(&r, "jobs", "--workers", "1", "--job-nodes", "1", "--job-nodes-max", "4", "--job-tt-mb", "1",
              "--no-centre", "--quiet", "--time-limit", "0.3", "--store", store, pos);
    run_free(&r);
    char path[400];
    snprintf(path, sizeof path, "%s/journal", store);
    cr_assert_gt(file_size(path), 16, "no journal records after the first run");
    expect_ok(&r, "jobs", "--workers", "1", "--job-nodes", "1", "--job-nodes-max", "4", "--job-tt-mb", "1",
              "--no-centre", "--quiet", "--time-limit", "0.3", "--store", store, pos);
    char got[200];
    cr_assert(line_value(r.out, "top tree: ", got, sizeof got), "%s", r.out);
    const char *at = strstr(got, "as transpositions, ");
    cr_assert(at, "%s", got);
    cr_expect_gt(atol(at + strlen("as transpositions, ")), 0, "nothing resumed: %s", got);
    cr_expect(strstr(got, "resumed from the journal") != NULL, "%s", got);
    run_free(&r);
    expect_ok(&r, "store", "stats", store);
    cr_assert(line_value(r.out, "journal: ", got, sizeof got), "%s", r.out);
    cr_expect_gt(atol(got), 0, "store stats: journal: %s", got);
    cr_expect(strstr(got, "undecided jobs") != NULL, "%s", got);
    run_free(&r);
    tl_write_text(store, "journal", "garbage, not a journal\n");
    expect_reject("not an ocsolve job journal", "jobs", "--quiet", "--no-centre", "--store", store, pos);
    expect_reject("not an ocsolve job journal", "store", "stats", store);
    tl_rm_dir(dir);
}
