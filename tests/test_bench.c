/* test_bench.c - `ocsolve bench`: the signature of the quick workload
 * against the recorded one (bench/signature.txt), the same whatever else
 * runs beside it (the other parts, more threads); the JSON object; bad
 * options. Nothing here is timed: speed is what the bench prints, not what
 * a test may check. */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runbin.h"

#ifndef OCS_SIGNATURE_FILE
#error "OCS_SIGNATURE_FILE must name bench/signature.txt"
#endif

/* The quick workload takes about a second at -O3 and a few under the
 * sanitizers: already small, so OCS_SANITIZE does not scale it down (a
 * smaller workload would have another signature). */
TestSuite(bench, .timeout = 120);

/* The value recorded for `name` ("full" or "quick"). */
static unsigned long long recorded(const char *name)
{
    FILE *f = fopen(OCS_SIGNATURE_FILE, "r");
    cr_assert(f != NULL, "cannot open %s", OCS_SIGNATURE_FILE);
    char line[256];
    size_t nl = strlen(name);
    unsigned long long v = 0;
    bool found = false;
    while (fgets(line, sizeof line, f))
        if (line[0] != '#' && strncmp(line, name, nl) == 0 && line[nl] == ' ') {
            v = strtoull(line + nl + 1, NULL, 10);
            found = true;
        }
    fclose(f);
    cr_assert(found && v > 0, "no '%s N' line in %s", name, OCS_SIGNATURE_FILE);
    return v;
}

/* The N of the output's last line, which must be 'bench signature: N'. */
static unsigned long long printed(const Run *r)
{
    char buf[128];
    last_line(r->out, buf, sizeof buf);
    unsigned long long v = 0;
    int end = 0;
    cr_assert(sscanf(buf, "bench signature: %llu%n", &v, &end) == 1 && buf[end] == '\0',
              "%s: last line is not 'bench signature: N': [%s]", r->desc, buf);
    return v;
}

Test(bench, quick_signature_is_the_recorded_one)
{
    Run r;
    expect_ok(&r, "bench", "--quick", "--solver-only");
    cr_expect_eq(printed(&r), recorded("quick"),
                 "the quick bench signature changed: %llu, recorded %llu. If the search was changed on purpose, "
                 "update bench/signature.txt (it says how)",
                 printed(&r), recorded("quick"));
    run_free(&r);
}

/* All the parts, and a parallel run: the signature is the one-thread
 * solver's alone. */
Test(bench, quick_all_parts_same_signature)
{
    Run r;
    expect_ok(&r, "bench", "--quick", "--threads", "2");
    cr_expect_eq(printed(&r), recorded("quick"));
    const char *labels[] = {"full-visit", "bulk-counted", "baseline", "engine/baseline", "random keys", "search-like",
                            "table-probe bound", "speedup"};
    for (size_t i = 0; i < sizeof labels / sizeof labels[0]; i++)
        cr_expect(strstr(r.out, labels[i]) != NULL, "no '%s' in: %s", labels[i], r.out);
    run_free(&r);
}

Test(bench, json_is_one_object_with_the_signature)
{
    Run r;
    expect_ok(&r, "bench", "--quick", "--json", "--threads", "1");
    cr_expect(r.out[0] == '{' && r.outlen >= 2 && r.out[r.outlen - 2] == '}', "%s", r.out);
    cr_expect_eq(count_char(r.out, r.outlen, '\n'), 1, "more than one line: %s", r.out);
    cr_expect_eq(count_char(r.out, r.outlen, '{'), count_char(r.out, r.outlen, '}'), "%s", r.out);
    char want[64];
    snprintf(want, sizeof want, "\"signature\":%llu}", recorded("quick"));
    cr_expect(strstr(r.out, want) != NULL, "no %s in: %s", want, r.out);
    const char *keys[] = {"\"hot_path\":", "\"engine_over_baseline\":", "\"table\":", "\"search_like\":",
                          "\"solver\":", "\"probe_bound\":", "\"parallel\":", "\"speedup\":"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        cr_expect(strstr(r.out, keys[i]) != NULL, "no %s in: %s", keys[i], r.out);
    run_free(&r);
}

/* The quick workload is a subset of the full one, with table cleared per
 * position: so its signature can only be smaller. */
Test(bench, recorded_signatures_are_consistent)
{
    cr_expect_lt(recorded("quick"), recorded("full"));
}

Test(bench, rejects_bad_options)
{
    expect_reject("--threads", "bench", "--threads", "0");
    expect_reject("--threads", "bench", "--threads", "two");
    expect_reject("needs a value", "bench", "--threads");
    expect_reject("unknown option '--fast'", "bench", "--fast");
    expect_reject("takes no value", "bench", "--quick=1");
    expect_reject("no arguments", "bench", "extra");
}
