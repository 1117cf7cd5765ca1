/* test_mpi.c - build/ocsolve-mpi (jobs/mpi_transport.h, app/main_mpi.c)
 * as a black box under Open MPI's mpirun, on this one machine: values of
 * random 6x6 positions against the independent brute force (tests/brute.h)
 * with budgets so small that the top tree must expand (positions that give
 * the search work are picked with the library's jobs_solve, which only
 * chooses inputs, never a value checked); a certificate that
 * the independent verifier accepts; a second run on a store deciding from
 * it; a time limit that the worker ranks obey (STOP); bad input refused
 * with exit 2 and one message; one rank refused; a failure only rank 0
 * sees still ending the whole run; the worker loop refusing what a
 * rank 0 that breaks the protocol sends (tests/mpi/hostile_rank0.c); and
 * the one-machine ocsolve not linked with MPI. (A rank killed or gone
 * silent: test_mpi_lost.c; separate network hosts: test_netns.c; how
 * mpirun is run, and its environment: tmpi.h.) */
#include <criterion/criterion.h>

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "brute.h"
#include "runbin.h"
#include "testlib.h"
#include "tmpi.h"

#ifndef OCS_HOSTILE_RANK0
#error "OCS_HOSTILE_RANK0 must name build/hostile_rank0 (tests/mpi/hostile_rank0.c)"
#endif

TestSuite(mpi, .timeout = 150);

static const char *cli_rules(int rules)
{
    return rules == REF_ORIGINAL ? "original" : rules == REF_EXACT ? "exact" : "exact-end";
}

/* Values against the brute force: 1, 2 and 3 worker ranks, every rule
 * set, a budget of 1 node so that undecided leaves are expanded (the top
 * tree then grows and its backup decides the root). */
Test(mpi, values_against_brute_force)
{
    BruteMemo *bm = brute_new();
    cr_assert(bm);
    uint64_t rng = 20261212;
    int expanded = 0;
    static const int ranks[6] = {3, 2, 3, 4, 3, 3};
    for (int t = 0; t < 6; t++) {
        RefPos p;
        char pos[65];
        int rules = t % 3;
        tmpi_busy_position(&p, pos, rules, 12 + t % 2, 1, &rng);
        MpiRun m;
        tmpi_run(&m, ranks[t], "jobs", "--quiet", "--no-centre", "--job-nodes", "1", "--job-tt-mb", "1", "--rules",
                cli_rules(rules), pos);
        tmpi_expect_ran(&m);
        MpiFigures f = tmpi_figures(&m);
        const char *want = tmpi_brute_name(bm, &p);
        cr_expect_str_eq(f.result, want, "%s: ocsolve-mpi says %s, the brute force %s", m.r.desc, f.result, want);
        if (f.expansions > 0 && f.undecided > 0) {
            cr_expect_gt(f.tree_nodes, 1, "%s: %llu expansions but one top-tree node", m.r.desc, f.expansions);
            expanded++;
        }
        tmpi_free(&m);
    }
    brute_free(bm);
    cr_expect_geq(expanded, 3, "only %d of 6 runs expanded a leaf after an undecided job", expanded);
}

/* A position the top tree must split, its certificate from --certs and
 * --proof, checked by the independent verifier against the brute-force
 * winner. */
Test(mpi, certificate_verifies)
{
    BruteMemo *bm = brute_new();
    cr_assert(bm);
    char dir[256], proof[300];
    tl_tmp_dir(dir, sizeof dir, "mpi-certs");
    snprintf(proof, sizeof proof, "%s/top.ocproof", dir);
    uint64_t rng = 5150;
    RefPos p;
    char pos[65];
    /* 30 nodes: a budget of 1 can make the top tree deeper than the 8
     * levels of "see" files the verifier follows. */
    tmpi_busy_position(&p, pos, REF_EXACT_END, 13, 30, &rng);
    MpiRun m;
    tmpi_run(&m, 3, "jobs", "--quiet", "--no-centre", "--job-nodes", "30", "--job-tt-mb", "1", "--rules", "exact-end",
            "--certs", dir, "--proof", proof, pos);
    tmpi_expect_ran(&m);
    MpiFigures f = tmpi_figures(&m);
    cr_expect(strstr(m.r.out, "proof: ") != NULL, "%s: no proof line: %s", m.r.desc, m.r.out);
    cr_expect_gt(f.expansions, 0, "%s: no expansion", m.r.desc);
    const char *want = tmpi_brute_name(bm, &p);
    cr_expect_str_eq(f.result, want);
    Run v;
    run_argv(&v, ARGS("verify", "--rules", "exact-end", "--root", pos, "--winner", want, proof));
    cr_expect(v.exited && v.code == 0, "%s: exit %d: %s%s", v.desc, v.code, v.out, v.err);
    run_free(&v);
    tmpi_free(&m);
    brute_free(bm);
    tl_rm_dir(dir);
}

/* Two runs on one store: the second decides from it (only rank 0 opens
 * the store; the workers write certificates into STORE/certs). */
Test(mpi, store_second_run)
{
    BruteMemo *bm = brute_new();
    cr_assert(bm);
    char dir[256], certs[300];
    tl_tmp_dir(dir, sizeof dir, "mpi-store");
    snprintf(certs, sizeof certs, "%s/certs", dir);
    RefPos p;
    char pos[65];
    uint64_t rng = 31337;
    tmpi_busy_position(&p, pos, REF_ORIGINAL, 13, 1, &rng);
    const char *want = tmpi_brute_name(bm, &p);
    MpiFigures f[2];
    for (int run = 0; run < 2; run++) {
        MpiRun m;
        /* the first run's worker ranks run 2-thread jobs */
        tmpi_run(&m, 3, "jobs", "--quiet", "--no-centre", "--job-nodes", "1", "--job-tt-mb", "1", "--job-threads",
                run ? "1" : "2", "--store", dir, pos);
        tmpi_expect_ran(&m);
        f[run] = tmpi_figures(&m);
        cr_expect_str_eq(f[run].result, want, "%s (run %d): %s, the brute force %s", m.r.desc, run + 1,
                         f[run].result, want);
        tmpi_free(&m);
    }
    cr_expect(f[1].from_store > 0 || f[1].jobs == 0, "second run: %llu jobs, %llu from the store", f[1].jobs,
              f[1].from_store);
    cr_expect(f[1].jobs == 0 || f[1].jobs < f[0].jobs, "second run ran %llu jobs, the first %llu", f[1].jobs,
              f[0].jobs);
    brute_free(bm);
    tl_rm_dir(certs);
    tl_rm_dir(dir);
}

/* A hard opening (original rules, no centre lemma) with a budget no job
 * reaches in time: at the time limit rank 0 sends STOP, and the worker
 * ranks' jobs end at once (stopped), not when their budget runs out. */
Test(mpi, time_limit_stops_jobs)
{
    MpiRun m;
    tmpi_run(&m, 3, "jobs", "--quiet", "--no-centre", "--job-nodes", "1000000000", "--job-tt-mb", "8",
            "--time-limit", "1", "-", "Xc3", "Oa1");
    tmpi_expect_ran(&m);
    char buf[256];
    unsigned long long run = 0, dec = 0, undec = 0, stopped = 0;
    cr_assert(sscanf(line_value(m.r.out, "jobs: ", buf, sizeof buf), TMPI_JOBS_LINE,
                     &run, &dec, &undec, &stopped) == 4,
              "%s", m.r.out);
    cr_expect(strstr(m.r.out, "result: unknown") != NULL, "%s", m.r.out);
    cr_expect_geq(stopped, 1, "%s: no job stopped: %s", m.r.desc, m.r.out);
    cr_expect_lt(m.seconds, 20.0, "%s: took %.1f s with a 1 s limit", m.r.desc, m.seconds);
    tmpi_free(&m);
}

Test(mpi, bad_input)
{
    tmpi_expect_refused(3, "--bogus", ARGS("jobs", "--bogus", "-"));
    tmpi_expect_refused(2, "--job-nodes", ARGS("jobs", "--job-nodes", "x", "-"));
    tmpi_expect_refused(3, "only command is jobs", ARGS("solve", "-"));
}

/* A coordinator needs workers. */
Test(mpi, one_rank_refused) { tmpi_expect_refused(1, "at least 2 ranks", ARGS("jobs", "--quiet", "-")); }

/* A failure only rank 0 sees (its --log file), after the workers entered
 * their loop: rank 0 exits 2 without QUIT, and mpirun must end the run. */
Test(mpi, coordinator_failure_ends_run)
{
    tmpi_expect_refused(3, "--log", ARGS("jobs", "--quiet", "--log", "/nonexistent-ocsolve-dir/log.csv", "-"));
}

/* A worker trusts nothing rank 0 sends (jobs/mpi_transport.h): a rank 0 of
 * the test's own (tests/mpi/hostile_rank0.c) breaks the protocol one way
 * per case, and the real worker loop must end with -1 and the message
 * naming what came, without hanging (mpirun's --timeout) and without
 * waiting in MPI_Finalize for a FIN that never comes; the "ok" case, the
 * protocol kept, must end with 0, so the harness itself is shown to work.
 * No test sent a wrong message after QUIT before FIN was added
 * (2026-12-04); these cover it and the other checks of server_message. */
Test(mpi, hostile_rank0_messages_refused)
{
    static const struct {
        const char *what, *expect;
    } cases[] = {
        {"ok", "worker rc 0: \n"},
        {"after-quit", "worker rc -1: protocol error: a message with tag 3 and 4 bytes from rank 0 after QUIT\n"},
        {"fin-with-bytes", "worker rc -1: protocol error: a message with tag 7 and 1 bytes from rank 0 after QUIT\n"},
        {"short-order", "worker rc -1: rank 0 sent a 5-byte job, not "},
        {"unknown-tag", "worker rc -1: protocol error: a message with tag 99 and 0 bytes from rank 0\n"},
        {"quit-with-bytes", "worker rc -1: protocol error: a message with tag 4 and 2 bytes from rank 0\n"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        MpiRun m;
        tmpi_run_prog(&m, 2, OCS_HOSTILE_RANK0, ARGS(cases[i].what));
        cr_expect(m.r.exited && m.r.code == 0, "%s: exit code %d (signal %d) after %.1f s; stderr: %s", m.r.desc,
                  m.r.code, m.r.signo, m.seconds, m.r.err ? m.r.err : "");
        cr_expect(m.r.out && strstr(m.r.out, cases[i].expect), "%s: stdout %s, not %s", m.r.desc,
                  m.r.out ? m.r.out : "(none)", cases[i].expect);
        run_free(&m.r);
    }
}

/* The one-machine binary must not need MPI at run time. */
Test(mpi, ocsolve_not_linked_with_mpi)
{
    FILE *f = popen("ldd " OCSOLVE_BIN " 2>&1", "r");
    cr_assert(f != NULL);
    char line[512];
    bool mpi = false, libc = false;
    while (fgets(line, sizeof line, f)) {
        mpi = mpi || strstr(line, "libmpi") != NULL;
        libc = libc || strstr(line, "libc.so") != NULL;
    }
    pclose(f);
    cr_assert(libc, "ldd listed no libc: is " OCSOLVE_BIN " there?");
    cr_expect(!mpi, OCSOLVE_BIN " is linked with libmpi");
}
