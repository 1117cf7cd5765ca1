/* common.c - the small helpers the bench's parts share: rates from raw
 * counts and seconds. */
#include "bench.h"

double bench_rate(double amount, double seconds) { return amount / (seconds > 1e-9 ? seconds : 1e-9); }
