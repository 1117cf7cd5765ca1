/* cmd_jobs.c - `ocsolve jobs`: job-level proof-number search (jobs/jobs.h)
 * on W worker threads, with an optional store of decided positions. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "../jobs/jobs.h"
#include "../solver/parallel.h"
#include "cli.h"
#include "commands.h"

static const char jobs_help[] =
    "usage: ocsolve jobs [options] [POSITION [MOVE ...]]\n"
    "Decide POSITION (default: the empty board) by job-level proof-number search:\n"
    "a proof-number tree at the top whose leaves are df-pn jobs with a node budget,\n"
    "run on worker threads; a leaf whose job stays undecided is expanded one ply.\n" CLI_GAME_HELP
    "  --workers W        worker threads (default: all cores)\n"
    "  --job-nodes N      a job's node budget (default 200000)\n"
    "  --job-tt-mb M      each worker's table in MiB (default 64)\n"
    "  --time-limit S     stop after S seconds (result unknown)\n"
    "  --store DIR        look positions up in, and put decided ones into, the\n"
    "                     LMDB store DIR (created when missing)\n"
    "  --no-centre        no centre-strategy lemma (Order's static wins, centre.h)\n"
    "  --progress-every S progress on stderr every S seconds (default 5)\n"
    "  --quiet            no progress\n"
    "  --help             this text\n"
    "Exit 0 when the search ran (whatever the result), 1 on a store error or\n"
    "conflict, 2 on bad input.\n"
    "example: ocsolve jobs --workers 2 --job-nodes 200000 --no-centre - Xc3 Oa1\n";

enum { O_WORKERS = 1000, O_JNODES, O_JTT, O_TIME, O_STORE, O_NOCENTRE, O_EVERY, O_QUIET };

static const struct option jobs_longopts[] = {
    CLI_GAME_LONGOPTS,
    {"workers", required_argument, NULL, O_WORKERS},   {"job-nodes", required_argument, NULL, O_JNODES},
    {"job-tt-mb", required_argument, NULL, O_JTT},     {"time-limit", required_argument, NULL, O_TIME},
    {"store", required_argument, NULL, O_STORE},       {"no-centre", no_argument, NULL, O_NOCENTRE},
    {"progress-every", required_argument, NULL, O_EVERY}, {"quiet", no_argument, NULL, O_QUIET},
    {"help", no_argument, NULL, 'h'},                  {0, 0, 0, 0}};

static void show_progress(const JobsProgress *p, void *arg)
{
    (void)arg;
    if (p->final) return;
    fprintf(stderr,
            "%8.1fs  root pn %u dn %u  jobs %llu done, %llu running, %llu queued  top tree %llu (%llu won, %llu "
            "lost)  nodes %llu (%.0f/s)\n",
            p->seconds, p->root_pn, p->root_dn, (unsigned long long)p->jobs_done, (unsigned long long)p->jobs_running,
            (unsigned long long)p->jobs_queued, (unsigned long long)p->tree_nodes, (unsigned long long)p->proven,
            (unsigned long long)p->disproven, (unsigned long long)p->nodes, p->nodes_per_second);
}

int cmd_jobs(int argc, char **argv)
{
    JobsSpec s = {.workers = par_cores(), .job_nodes = JOBS_DEFAULT_NODES, .job_tt_bytes = (size_t)64 << 20,
                  .report_every = 5};
    DfpnConfig cfg = dfpn_default_config();
    GameOpts g = {0, 0, RULES_ORIGINAL};
    const char *store_dir = NULL;
    bool quiet = false;
    int opt;
    while ((opt = getopt_long(argc, argv, ":h", jobs_longopts, NULL)) != -1) {
        switch (opt) {
        case 'h': fputs(jobs_help, stdout); return 0;
        case O_WORKERS: s.workers = (int)cli_number(optarg, "--workers", 1, JOBS_MAX_WORKERS); break;
        case O_JNODES: s.job_nodes = (uint64_t)cli_number(optarg, "--job-nodes", 1, 0x7FFFFFFFFFFFFFFFL); break;
        case O_JTT: s.job_tt_bytes = (size_t)cli_number(optarg, "--job-tt-mb", 1, 1L << 22) << 20; break;
        case O_TIME: s.time_limit = cli_seconds(optarg, "--time-limit"); break;
        case O_STORE: store_dir = optarg; break;
        case O_NOCENTRE: cfg.kn.centre = false; break;
        case O_EVERY: s.report_every = cli_seconds(optarg, "--progress-every"); break;
        case O_QUIET: quiet = true; break;
        default:
            if (!cli_game_option(opt, optarg, &g)) cli_bad_option(argv, opt);
        }
    }
    const char *pos = optind < argc ? argv[optind] : NULL;
    int nmoves = optind + 1 < argc ? argc - optind - 1 : 0;
    Rules r;
    Board b;
    cli_position(&g, pos, argv + optind + 1, nmoves, &r, &b);
    if (!quiet) s.report = show_progress;
    char err[512] = "";
    if (store_dir && !(s.store = store_open(store_dir, false, 0, err, sizeof err))) cli_fail("%s", err);
    JobsResult res;
    int rc = jobs_solve(&r, b, &cfg, &s, &res, err, sizeof err);
    if (s.store) store_close(s.store);
    if (rc != 0) {
        fprintf(stderr, "ocsolve: %s\n", err);
        return 1;
    }
    printf("result: %s\n", winner_name(res.winner));
    printf("jobs: %llu (%llu decided, %llu undecided, %llu stopped)\n", (unsigned long long)res.jobs_run,
           (unsigned long long)res.jobs_decided, (unsigned long long)res.jobs_undecided,
           (unsigned long long)res.jobs_stopped);
    printf("nodes: %llu\n", (unsigned long long)res.nodes);
    printf("seconds: %.2f\n", res.seconds);
    printf("top tree: %llu nodes, %llu expansions, %llu decided statically, %llu from the store\n",
           (unsigned long long)res.tree_nodes, (unsigned long long)res.expansions,
           (unsigned long long)res.static_decided, (unsigned long long)res.store_hits);
    printf("root pn %u dn %u\n", res.root_pn, res.root_dn);
    return 0;
}
