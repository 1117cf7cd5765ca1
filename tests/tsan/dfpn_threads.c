/* dfpn_threads.c - a standalone threaded program for ThreadSanitizer
 * (Criterion does not run under TSan): the parallel df-pn, 2 threads on one
 * shared table, over suite positions with 17-20 empty cells (values from
 * alpha-beta in bench/suite-original.txt), then a hard search stopped by a
 * node limit and one stopped by the interrupt flag. Exit 0 when every value is
 * right; TSan reports any data race itself. */
#include <stdio.h>
#include <string.h>

#include "../../engine/notation.h"
#include "../../solver/dfpn.h"

static Winner solve(const Rules *r, TT *tt, Board b, uint64_t node_limit, atomic_bool *stop, bool *stopped)
{
    DfpnConfig cfg = dfpn_default_config();
    Dfpn d;
    dfpn_init(&d, r, &cfg, tt);
    d.threads = 2;
    d.lim.node_limit = node_limit;
    d.lim.interrupt = stop;
    uint32_t pn, dn;
    Winner v = dfpn_solve(&d, b, &pn, &dn);
    *stopped = d.stopped;
    return v;
}

int main(void)
{
    FILE *f = fopen("bench/suite-original.txt", "r");
    if (!f) {
        fprintf(stderr, "dfpn_threads: run from the repository root\n");
        return 2;
    }
    Rules r;
    char err[160];
    if (rules_init(&r, 6, 5, RULES_ORIGINAL, err, sizeof err) != 0) return 2;
    TT tt;
    if (tt_init(&tt, 16 << 20, true) != 0) return 2;
    char line[256];
    int done = 0, bad = 0;
    bool stopped;
    Board hard; /* a Chaos win df-pn needs about 0.5 M nodes for */
    int hn;
    if (notation_parse_position("X.........X..........X....XO...O.O..", 6, &hard, &hn, err, sizeof err) != 0) return 2;
    while (fgets(line, sizeof line, f)) {
        char pos[64], value[16];
        int empty, n;
        Board b;
        if (line[0] == '#' || sscanf(line, "%63s %d %15s", pos, &empty, value) != 3) continue;
        if (notation_parse_position(pos, 6, &b, &n, err, sizeof err) != 0) return 2;
        if (empty < 17 || empty > 20) continue;
        tt_clear(&tt);
        Winner want = strcmp(value, "order") == 0 ? WINNER_ORDER : WINNER_CHAOS;
        Winner got = solve(&r, &tt, b, 0, NULL, &stopped);
        if (got != want) {
            fprintf(stderr, "dfpn_threads: %s: got %d, want %d\n", pos, got, want);
            bad++;
        }
        done++;
    }
    fclose(f);
    /* Stopped by the total node count, and by the flag a signal handler sets. */
    tt_clear(&tt);
    Winner v = solve(&r, &tt, hard, 3000, NULL, &stopped);
    bool limit_ok = v == WINNER_NONE && stopped;
    atomic_bool flag = true;
    tt_clear(&tt);
    v = solve(&r, &tt, hard, 0, &flag, &stopped);
    bool flag_ok = v == WINNER_NONE && stopped;
    tt_free(&tt);
    printf("dfpn_threads: %d positions, %d wrong; node limit %s; interrupt %s\n", done, bad, limit_ok ? "ok" : "FAILED",
           flag_ok ? "ok" : "FAILED");
    return bad == 0 && done >= 20 && limit_ok && flag_ok ? 0 : 1;
}
