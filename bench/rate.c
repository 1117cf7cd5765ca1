/* rate.c - bench_rate (bench.h): an amount per second, the one division
 * every figure of the bench makes, guarded against a zero time. */
#include "bench.h"

double bench_rate(double amount, double seconds) { return amount / (seconds > 1e-9 ? seconds : 1e-9); }
