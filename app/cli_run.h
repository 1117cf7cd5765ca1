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
       CLI_RUN_O_CHALF_MB, CLI_RUN_O_CHALF_TWO, CLI_RUN_O_CHALF_FILL, CLI_RUN_O_NORING };

/* The help lines of the options above that solve and jobs share the
 * meaning of (--centre-half, --centre-half-two, --centre-half-mb), for
 * their usage texts. */
#define CLI_RUN_HELP_CENTRE_HALF \
    "  --no-ring          no ring lemma (Chaos's static wins by the centre's small\n" \
    "                     game and ring pairs, centre_ring.h; on 4x4 and 6x6 with\n" \
    "                     k = n-1 under original and exact, with the centre lemma)\n" \
    "  --centre-half P    also with one half-full ring pair, at positions of at\n" \
    "                     most P pieces (centre_half.h; default 0: off; each\n" \
    "                     new configuration costs seconds and 65 MB)\n" \
    "  --centre-half-two P ... with two half-full pairs too, at positions of\n" \
    "                     at most P pieces and --centre-half's (default 0: off;\n" \
    "                     each such table costs about 20 s and 194 MB on 6x6,\n" \
    "                     and the search meets many: results/openings/exact-Xa1/\n" \
    "                     centre-half-two.md)\n" \
    "  --centre-half-mb M ... its tables in M MiB (default 256; on 6x6 65 MB each\n" \
    "                     with one half pair, 194 MB with two, one kept even if\n" \
    "                     larger; the 16 symmetries share one)\n" \
    "  --centre-half-fill ... each table filled whole when first met (about 10 s\n" \
    "                     for two half pairs on 6x6), then every ask is one read\n" \
    "                     (default: searched from each asked position)\n"

#define CLI_RUN_LONGOPTS                                                                                     \
    {"time-limit", required_argument, NULL, CLI_RUN_O_TIME}, {"proof", required_argument, NULL, CLI_RUN_O_PROOF}, \
        {"log", required_argument, NULL, CLI_RUN_O_LOG}, {"quiet", no_argument, NULL, CLI_RUN_O_QUIET},        \
        {"progress-every", required_argument, NULL, CLI_RUN_O_EVERY},                                         \
        {"no-centre", no_argument, NULL, CLI_RUN_O_NOCENTRE},                                                 \
        {"no-ring", no_argument, NULL, CLI_RUN_O_NORING},                                                     \
        {"threats-depth", required_argument, NULL, CLI_RUN_O_TDEPTH},                                         \
        {"threats-nodes", required_argument, NULL, CLI_RUN_O_TNODES},                                         \
        {"within", required_argument, NULL, CLI_RUN_O_WITHIN},                                                \
        {"centre-half", required_argument, NULL, CLI_RUN_O_CHALF},                                            \
        {"centre-half-mb", required_argument, NULL, CLI_RUN_O_CHALF_MB},                                      \
        {"centre-half-two", required_argument, NULL, CLI_RUN_O_CHALF_TWO},                                    \
        {"centre-half-fill", no_argument, NULL, CLI_RUN_O_CHALF_FILL}

/* Handles opt if it is one of CLI_RUN_LONGOPTS (the knowledge switches go
 * into kn); false otherwise. A bad value fails with one line, exit 2. */
bool cli_run_option(int opt, const char *arg, CliRun *run, Knowledge *kn);

#endif
