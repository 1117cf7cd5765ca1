/* stop.c - see stop.h. */
#include "stop.h"

#include <signal.h>
#include <stdbool.h>

static atomic_bool stop_requested;
static volatile sig_atomic_t stop_signo;

void stop_request(int signo)
{
    stop_signo = signo;
    atomic_store(&stop_requested, true);
}

atomic_bool *stop_flag(void) { return &stop_requested; }

int stop_signal(void) { return stop_signo; }
