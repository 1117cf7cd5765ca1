/* cli_run.h - the options a long search run shares, parsed once: ocsolve
 * solve and ocsolve jobs both take --time-limit, --proof, --log, --quiet,
 * --progress-every, --within and the knowledge switches --no-centre,
 * --centre-half, --centre-half-mb, --centre-half-two, --threats-depth and --threats-nodes, with the same spelling, ranges and
 * messages. Each command keeps its own help text and what the options mean
 * for it (where the log's columns come from, what --proof writes).
 *
 * Use: put CLI_RUN_LONGOPTS in the getopt_long table (its values,
 * CLI_RUN_O_*, lie below the commands' own, which start at 1000), and
 * offer every option to cli_run_option before the command's own switch
 * falls through to cli_bad_option.
 */
#ifndef OCS_CLI_RUN_H
#define OCS_CLI_RUN_H

#include <getopt.h>
#include <stdbool.h>

#include "../solver/knowledge.h"

typedef struct {
    double time_limit;     /* --time-limit S; 0: none */
    const char *proof;     /* --proof FILE; NULL: none */
    const char *log;       /* --log FILE; NULL: none */
    bool quiet;            /* --quiet */
    double progress_every; /* --progress-every S; the caller's default until given */
    bool within_asked;     /* --within D was given (D may be 0) */
    int within;
} CliRun;

enum { CLI_RUN_O_TIME = 900, CLI_RUN_O_PROOF, CLI_RUN_O_LOG, CLI_RUN_O_QUIET, CLI_RUN_O_EVERY, CLI_RUN_O_NOCENTRE,
       CLI_RUN_O_TDEPTH, CLI_RUN_O_TNODES, CLI_RUN_O_WITHIN, CLI_RUN_O_CHALF,
       CLI_RUN_O_CHALF_MB, CLI_RUN_O_CHALF_TWO };

#define CLI_RUN_LONGOPTS                                                                                     \
    {"time-limit", required_argument, NULL, CLI_RUN_O_TIME}, {"proof", required_argument, NULL, CLI_RUN_O_PROOF}, \
        {"log", required_argument, NULL, CLI_RUN_O_LOG}, {"quiet", no_argument, NULL, CLI_RUN_O_QUIET},        \
        {"progress-every", required_argument, NULL, CLI_RUN_O_EVERY},                                         \
        {"no-centre", no_argument, NULL, CLI_RUN_O_NOCENTRE},                                                 \
        {"threats-depth", required_argument, NULL, CLI_RUN_O_TDEPTH},                                         \
        {"threats-nodes", required_argument, NULL, CLI_RUN_O_TNODES},                                         \
        {"within", required_argument, NULL, CLI_RUN_O_WITHIN},                                                \
        {"centre-half", required_argument, NULL, CLI_RUN_O_CHALF},                                            \
        {"centre-half-mb", required_argument, NULL, CLI_RUN_O_CHALF_MB},                                      \
        {"centre-half-two", required_argument, NULL, CLI_RUN_O_CHALF_TWO}

/* Handles opt if it is one of CLI_RUN_LONGOPTS (the knowledge switches go
 * into kn); false otherwise. A bad value fails with one line, exit 2. */
bool cli_run_option(int opt, const char *arg, CliRun *run, Knowledge *kn);

#endif
