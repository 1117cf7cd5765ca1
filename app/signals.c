/* signals.c - see signals.h. */
#include "signals.h"

#include <signal.h>
#include <string.h>

#include "../solver/stop.h"

static void on_signal(int sig) { stop_request(sig); }

void signals_stop_on_interrupt(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}
