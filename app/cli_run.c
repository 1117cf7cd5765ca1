/* cli_run.c - see cli_run.h. */
#include "cli_run.h"

#include "cli.h"

bool cli_run_option(int opt, const char *arg, CliRun *run, Knowledge *kn)
{
    switch (opt) {
    case CLI_RUN_O_TIME: run->time_limit = cli_seconds(arg, "--time-limit"); return true;
    case CLI_RUN_O_PROOF: run->proof = arg; return true;
    case CLI_RUN_O_LOG: run->log = arg; return true;
    case CLI_RUN_O_QUIET: run->quiet = true; return true;
    case CLI_RUN_O_EVERY: run->progress_every = cli_seconds(arg, "--progress-every"); return true;
    case CLI_RUN_O_NOCENTRE: kn->centre = false; return true;
    case CLI_RUN_O_NORING: kn->no_ring = true; return true;
    case CLI_RUN_O_CHALF: kn->centre_half = (int)cli_number(arg, "--centre-half", 0, BOARD_MAX_N * BOARD_MAX_N); return true;
    case CLI_RUN_O_CHALF_TWO:
        kn->centre_half_two = (int)cli_number(arg, "--centre-half-two", 0, BOARD_MAX_N * BOARD_MAX_N);
        return true;
    case CLI_RUN_O_CHALF_FILL: kn->centre_half_fill = true; return true;
    case CLI_RUN_O_CHALF_MB: kn->centre_half_mb = (int)cli_number(arg, "--centre-half-mb", 1, 1 << 20); return true;
    case CLI_RUN_O_TDEPTH: kn->threat_plies = (int)cli_number(arg, "--threats-depth", 0, 64); return true;
    case CLI_RUN_O_TNODES: kn->threat_nodes = (int)cli_number(arg, "--threats-nodes", 1, 100000000); return true;
    case CLI_RUN_O_WITHIN:
        run->within_asked = true;
        run->within = (int)cli_number(arg, "--within", 0, 64);
        return true;
    default: return false;
    }
}
