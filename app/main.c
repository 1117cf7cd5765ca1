/* main.c - the ocsolve command: dispatch to a subcommand. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "commands.h"

static const char main_help[] =
    "usage: ocsolve COMMAND [options] [args]\n"
    "Order and Chaos research engine.\n"
    "commands:\n"
    "  show POSITION [MOVE ...]         print a position, its status and canonical form\n"
    "  perft DEPTH [POSITION [MOVE ...]] count move sequences (the move generator's check)\n"
    "  solve [POSITION [MOVE ...]]      decide a position exactly (df-pn), with --dtw and --proof\n"
    "  verify FILE                      check a proof certificate (independent verifier)\n"
    "  random EMPTY [COUNT]             random ongoing positions (reproducible by --seed)\n"
    "  bench                            the fixed benchmark: hot path, table, solver, signature\n"
    "  store stats|get|export|put DIR   the store of decided positions (LMDB)\n"
    "  jobs [POSITION [MOVE ...]]       decide a position by job-level proof-number search\n"
    "  play [POSITION [MOVE ...]]       play against the solved strategy (--protocol for programs)\n"
    "  serve                            the analysis board: a local web page and JSON API\n"
    "  help                             this text\n"
    "'ocsolve COMMAND --help' describes a command's options.\n";

int main(int argc, char **argv)
{
    /* An error like any other: one line (the usage is 'ocsolve help'). */
    if (argc < 2) cli_fail("no command given (try 'ocsolve help')");
    const char *cmd = argv[1];
    if (strcmp(cmd, "help") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
        fputs(main_help, stdout);
        return 0;
    }
    static const struct {
        const char *name;
        int (*run)(int, char **);
    } cmds[] = {{"show", cmd_show},   {"perft", cmd_perft},   {"verify", cmd_verify},
                {"solve", cmd_solve}, {"random", cmd_random}, {"bench", cmd_bench},
                {"store", cmd_store},
                {"jobs", cmd_jobs},   {"play", cmd_play},     {"serve", cmd_serve}};
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
        if (strcmp(cmd, cmds[i].name) == 0) return cmds[i].run(argc - 1, argv + 1);
    cli_fail("unknown command '%s' (try 'ocsolve help')", cmd);
}
