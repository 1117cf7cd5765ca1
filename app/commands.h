/* commands.h - the subcommands of ocsolve; each returns the exit code and
 * fails through cli_fail (exit 2) on bad input. */
#ifndef OCS_COMMANDS_H
#define OCS_COMMANDS_H

int cmd_show(int argc, char **argv);
int cmd_perft(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_solve(int argc, char **argv);
int cmd_random(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_store(int argc, char **argv);
int cmd_jobs(int argc, char **argv);

#endif
