/* signals.h - the commands' signal policy: SIGINT and SIGTERM become a
 * request to stop (solver/stop.h), which the searches read and end on
 * cleanly (a checkpoint saved, the store and journal kept, the command
 * exiting with 128 + N). Installed by the commands that honour it (solve,
 * jobs) just before they run; every other command keeps the default (a
 * signal ends it at once). */
#ifndef OCS_SIGNALS_H
#define OCS_SIGNALS_H

/* Routes SIGINT and SIGTERM to stop_request. Installing twice is
 * harmless. */
void signals_stop_on_interrupt(void);

#endif
