/* test_jobs_reply.c - reply tables (jobs/pool.c, `ocsolve jobs
 * --reply-tables N`): a job runs on its group's own table, so a group's
 * first job gives exactly the numbers of a job on a fresh table, whatever
 * other groups ran before; a group's table is kept for its next job; a
 * group without a table takes the least recently used one, cleared. And
 * the job-level search with reply tables gives the brute force's values,
 * with 1 and 2 workers, as many tables as replies or fewer, replies at the
 * default depth or deeper, replies taken by numbers or by work. And by
 * work (--reply-order work), one worker keeps to a reply until it is
 * decided. */
#include <criterion/criterion.h>

#include <string.h>

#include "../jobs/jobs.h"
#include "brute.h"
#include "testlib.h"

/* A guard against hangs, not a speed test: under the sanitizers a job
 * search here takes 40-50 s of CPU, which on a loaded 2-core machine
 * (make sanitize runs two tests at once) passed 120 s of wall time. */
#ifdef OCS_SANITIZE
TestSuite(jobs_reply, .timeout = 480);
#else
TestSuite(jobs_reply, .timeout = 120);
#endif

/* Needs some 628 K nodes (tests/test_checkpoint.c), so a 20 000-node
 * budget leaves it undecided. */
#define HARD "X.........X..........X....XO...O.O.."

typedef struct {
    Rules r;
    Board b;
    DfpnConfig cfg;
} Game;

static void hard_game(Game *g)
{
    RefPos p;
    cr_assert_eq(ref_parse(&p, 6, 5, 0, HARD), 0);
    tl_init_rules(&g->r, &p);
    g->b = tl_board(&p);
    g->cfg = dfpn_default_config();
    g->cfg.kn.centre = false;
}

/* One job of 20 000 nodes on HARD in group `group`, on worker w. */
static JobOutcome run_one(JobsTransport *t, const Game *g, int w, uint32_t group, uint32_t serial)
{
    JobOrder o = {.b = g->b, .node_limit = 20000, .tag = 7, .serial = serial, .group = group};
    char err[200] = "";
    cr_assert_eq(t->start(t, w, &o, err, sizeof err), 0, "%s", err);
    int got = -1;
    JobOutcome out;
    cr_assert_eq(t->wait(t, 60, &got, &out, err, sizeof err), 1, "no outcome: %s", err);
    cr_assert_eq(got, w);
    cr_assert_eq(out.serial, serial);
    cr_assert_eq(out.value, WINNER_NONE, "decided in 20 000 nodes: use a harder position");
    return out;
}

static bool same(const JobOutcome *a, const JobOutcome *b)
{
    return a->pn == b->pn && a->dn == b->dn && a->nodes == b->nodes;
}

Test(jobs_reply, a_group_sees_only_its_own_table)
{
    Game g;
    hard_game(&g);
    JobsTransport t;
    char err[200] = "";
    cr_assert_eq(pool_open(&t, 1, &g.r, &g.cfg, (size_t)1 << 20, true, 2, 1, NULL, err, sizeof err), 0, "%s", err);
    JobOutcome fresh = run_one(&t, &g, 0, 1, 1);  /* group 1: a fresh table */
    JobOutcome again = run_one(&t, &g, 0, 1, 2);  /* group 1's table, kept */
    JobOutcome other = run_one(&t, &g, 0, 2, 3);  /* group 2: the other table, fresh */
    JobOutcome third = run_one(&t, &g, 0, 3, 4);  /* group 3: group 1's table (least recent), cleared */
    JobOutcome back = run_one(&t, &g, 0, 1, 5);   /* group 1 again: group 2's table, cleared */
    JobOutcome third2 = run_one(&t, &g, 0, 3, 6); /* group 3's table, kept */
    t.close(&t);
    cr_expect(!same(&again, &fresh), "a group's second job did not go on from its table (pn %u dn %u)", again.pn,
              again.dn);
    cr_expect(same(&other, &fresh), "group 2's first job saw group 1's table: pn %u/%u dn %u/%u", other.pn,
              fresh.pn, other.dn, fresh.dn);
    cr_expect(same(&third, &fresh), "a reused table was not cleared: pn %u/%u dn %u/%u", third.pn, fresh.pn,
              third.dn, fresh.dn);
    cr_expect(same(&back, &fresh), "group 1 got back a table it had lost, or an uncleared one");
    cr_expect(same(&third2, &again), "group 3's table was not kept: pn %u/%u", third2.pn, again.pn);
}

/* Two workers at once on two groups' tables: each job as on a fresh table. */
Test(jobs_reply, two_workers_two_tables)
{
    Game g;
    hard_game(&g);
    JobsTransport t;
    char err[200] = "";
    cr_assert_eq(pool_open(&t, 1, &g.r, &g.cfg, (size_t)1 << 20, true, 1, 1, NULL, err, sizeof err), 0, "%s", err);
    JobOutcome fresh = run_one(&t, &g, 0, 5, 1);
    t.close(&t);
    cr_assert_eq(pool_open(&t, 2, &g.r, &g.cfg, (size_t)1 << 20, true, 2, 1, NULL, err, sizeof err), 0, "%s", err);
    JobOrder o1 = {.b = g.b, .node_limit = 20000, .serial = 1, .group = 1};
    JobOrder o2 = {.b = g.b, .node_limit = 20000, .serial = 2, .group = 2};
    cr_assert_eq(t.start(&t, 0, &o1, err, sizeof err), 0, "%s", err);
    cr_assert_eq(t.start(&t, 1, &o2, err, sizeof err), 0, "%s", err);
    for (int i = 0; i < 2; i++) {
        int w;
        JobOutcome out;
        cr_assert_eq(t.wait(&t, 60, &w, &out, err, sizeof err), 1, "%s", err);
        cr_expect(same(&out, &fresh), "worker %d: pn %u/%u dn %u/%u nodes %llu/%llu", w, out.pn, fresh.pn, out.dn,
                  fresh.dn, (unsigned long long)out.nodes, (unsigned long long)fresh.nodes);
    }
    t.close(&t);
    /* fewer tables than workers is refused */
    cr_expect_eq(pool_open(&t, 2, &g.r, &g.cfg, (size_t)1 << 20, true, 1, 1, NULL, err, sizeof err), -1);
    cr_expect(strstr(err, "reply tables") != NULL, "%s", err);
}

/* The values with reply tables against the brute force: 1 and 2 workers,
 * tables for every reply or fewer (then reused, cleared), jobs of 1 or 2
 * threads, tiny budgets so the top tree expands. */
Test(jobs_reply, values_agree_with_brute_force)
{
    static const struct {
        int workers, threads, tables, depth;
        bool work;
    } modes[] = {{1, 1, 64, 0, false}, {1, 1, 1, 0, false}, {2, 1, 64, 0, false}, {2, 1, 2, 0, false},
                 {2, 2, 3, 0, false},  {2, 1, 8, 3, false},  {1, 1, 64, 0, true},  {2, 1, 3, 0, true}};
    BruteMemo *m = brute_new();
    uint64_t rng = 4242;
    int n = 0;
    for (int t = 0; t < 10; t++) {
        RefPos p;
        int rs = t % 3;
        if (tl_random_ongoing(&p, 6, 5, rs, 36 - (12 + t % 3), &rng) != 0) continue;
        Winner want = tl_brute_winner(m, &p);
        Rules r;
        tl_init_rules(&r, &p);
        DfpnConfig cfg = dfpn_default_config();
        cfg.kn.centre = false;
        cfg.kn.pairing = 32;
        for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++) {
            JobsSpec s = {.workers = modes[i].workers, .job_threads = modes[i].threads,
                          .reply_tables = modes[i].tables, .reply_depth = modes[i].depth,
                          .reply_by_work = modes[i].work, .job_nodes = 10,
                          .job_nodes_max = 40,
                          .job_tt_bytes = (size_t)1 << 20};
            JobsResult a;
            char err[256] = "";
            cr_assert_eq(jobs_solve(&r, tl_board(&p), &cfg, &s, &a, err, sizeof err), 0, "jobs_solve: %s", err);
            cr_assert_eq(a.winner, want, "%d workers x %d threads, %d reply tables, depth %d%s: %s, brute force %s",
                         modes[i].workers, modes[i].threads, modes[i].tables, modes[i].depth,
                         modes[i].work ? ", by work" : "", winner_name(a.winner), winner_name(want));
        }
        n++;
    }
    brute_free(m);
    cr_assert_geq(n, 8);
}

/* The replies (a path's first move: Chaos is to move at the root) of the
 * jobs in log f, in the order they ran; the root's own jobs left out.
 * Returns how many. */
static int logged_replies(FILE *f, char reply[][8], int max)
{
    char line[512], *fld[TL_JOB_LOG_FIELDS];
    int n = 0;
    rewind(f);
    cr_assert(fgets(line, sizeof line, f) != NULL, "empty job log");
    while (n < max && tl_job_log_row(f, line, sizeof line, fld)) {
        const char *field = fld[6]; /* the path */
        size_t len = strcspn(field, " ");
        if (len == 0) continue; /* the root's job */
        cr_assert_lt(len, 8);
        memcpy(reply[n], field, len);
        reply[n++][len] = 0;
    }
    return n;
}

/* Whether, in run order, some reply's jobs stop and start again later. */
static bool left_and_resumed(char reply[][8], int n)
{
    for (int i = 1; i < n; i++) {
        if (strcmp(reply[i], reply[i - 1]) == 0) continue;
        for (int j = 0; j < i - 1; j++)
            if (strcmp(reply[j], reply[i]) == 0) return true;
    }
    return false;
}

/* By work, one worker runs each reply's jobs in one stretch; by numbers
 * (checked too, so that the positions are ones where it matters) it
 * leaves replies and comes back. Chaos is to move at the roots (an odd
 * number of pieces), so the replies are the root's children, and the
 * job log (in run order: serials) names each job's reply first. */
Test(jobs_reply, by_work_one_reply_at_a_time)
{
    uint64_t rng = 977;
    int tried = 0, interleaved = 0;
    for (int t = 0; t < 6; t++) {
        RefPos p;
        if (tl_random_ongoing(&p, 6, 5, t % 3, 13, &rng) != 0) continue;
        Rules r;
        tl_init_rules(&r, &p);
        cr_assert(!board_order_to_move(tl_board(&p)));
        DfpnConfig cfg = dfpn_default_config();
        cfg.kn.centre = false;
        for (int work = 0; work < 2; work++) {
            FILE *f = tmpfile();
            cr_assert(f != NULL);
            JobsSpec s = {.workers = 1, .reply_tables = 64, .reply_by_work = work, .job_nodes = 10,
                          .job_nodes_max = 640, .expand_depth = 1, .job_tt_bytes = (size_t)1 << 20, .job_log = f};
            JobsResult a;
            char err[256] = "";
            cr_assert_eq(jobs_solve(&r, tl_board(&p), &cfg, &s, &a, err, sizeof err), 0, "jobs_solve: %s", err);
            static char reply[20000][8];
            int n = logged_replies(f, reply, 20000);
            fclose(f);
            bool back = left_and_resumed(reply, n);
            if (work) cr_expect(!back, "position %d: by work, a reply was left undecided and taken again", t);
            else interleaved += back;
        }
        tried++;
    }
    cr_assert_geq(tried, 4);
    cr_assert_geq(interleaved, 2, "by numbers only %d of %d runs left a reply and came back: the test shows nothing",
                  interleaved, tried);
}
