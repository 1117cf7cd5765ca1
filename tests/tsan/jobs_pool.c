/* jobs_pool.c - a standalone threaded program for ThreadSanitizer
 * (Criterion does not run under TSan): the job-level search on 2 worker
 * threads (jobs/pool.c) over suite positions with 17-20 empty cells
 * (values from alpha-beta in bench/suite-original.txt), with tiny budgets
 * so that many jobs run, re-run and are interrupted, and certificates
 * written by the workers, in turn on one shared table, on a table each,
 * and with 2 df-pn threads per job (so two OpenMP teams search one table
 * at once); every fourth position on 2 reply tables, so that the workers
 * take, clear and share them at once; then a hard position stopped by a
 * time limit.
 * Exit 0 when every value is right; TSan reports any data race itself. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../engine/notation.h"
#include "../../jobs/jobs.h"

int main(void)
{
    FILE *f = fopen("bench/suite-original.txt", "r");
    if (!f) {
        fprintf(stderr, "jobs_pool: run from the repository root\n");
        return 2;
    }
    Rules r;
    char err[256];
    if (rules_init(&r, 6, 5, RULES_ORIGINAL, err, sizeof err) != 0) return 2;
    char certs[] = "/tmp/ocsolve-tsan-jobs-XXXXXX";
    if (!mkdtemp(certs)) return 2;
    DfpnConfig cfg = dfpn_default_config();
    cfg.kn.centre = false;
    char line[256];
    int done = 0, bad = 0;
    while (fgets(line, sizeof line, f) && done < 12) {
        char pos[64], value[16];
        int empty, n;
        Board b;
        if (line[0] == '#' || sscanf(line, "%63s %d %15s", pos, &empty, value) != 3) continue;
        if (empty < 17 || empty > 20) continue;
        if (notation_parse_position(pos, 6, &b, &n, err, sizeof err) != 0) return 2;
        JobsSpec s = {.workers = 2, .job_nodes = 200, .job_nodes_max = 3200, .expand_depth = done % 2,
                      .job_tt_bytes = (size_t)1 << 20, .cert_dir = certs, .separate_tables = done % 3 == 1,
                      .job_threads = done % 3 == 2 ? 2 : 1, .reply_tables = done % 4 == 3 ? 2 : 0};
        JobsResult res;
        if (jobs_solve(&r, b, &cfg, &s, &res, err, sizeof err) != 0) {
            fprintf(stderr, "jobs_pool: %s: %s\n", pos, err);
            return 1;
        }
        bool want_order = strcmp(value, "order") == 0;
        if ((res.winner == WINNER_ORDER) != want_order) {
            fprintf(stderr, "jobs_pool: %s: %s, the suite says %s\n", pos, winner_name(res.winner), value);
            bad++;
        }
        done++;
    }
    fclose(f);
    /* A hard opening, stopped by the time limit with both workers busy. */
    Board hard = board_empty();
    board_place(&hard, move_make(PIECE_X, board_cell(2, 2)));
    JobsSpec s = {.workers = 2, .job_threads = 2, .job_nodes = 100000, .job_tt_bytes = (size_t)1 << 20,
                  .time_limit = 0.5};
    JobsResult res;
    if (jobs_solve(&r, hard, &cfg, &s, &res, err, sizeof err) != 0 || res.winner != WINNER_NONE) {
        fprintf(stderr, "jobs_pool: the time-limited run: %s\n", err[0] ? err : "decided?");
        bad++;
    }
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", certs);
    if (system(cmd) != 0) fprintf(stderr, "jobs_pool: could not remove %s\n", certs);
    printf("jobs_pool: %d positions, %d wrong\n", done, bad);
    return bad || done < 8 ? 1 : 0;
}
