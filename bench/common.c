/* common.c - the small helpers the bench's parts share: rates from raw
 * counts and seconds, and the message of a failed check. */
#include <stdarg.h>
#include <stdio.h>

#include "bench.h"

double bench_rate(double amount, double seconds) { return amount / (seconds > 1e-9 ? seconds : 1e-9); }

int bench_error(char *err, int errlen, const char *fmt, ...)
{
    if (err && errlen > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, (size_t)errlen, fmt, ap);
        va_end(ap);
    }
    return -1;
}
