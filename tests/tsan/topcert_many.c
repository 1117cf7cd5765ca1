/* topcert_many.c - a standalone threaded program for ThreadSanitizer:
 * topcert_reprove_many (jobs/top_regen_par.c) re-proves positions two at
 * a time into one certificate folder, with shared subtrees on (two
 * threads may write the same shared file). The positions are the suite's
 * (bench/suite-original.txt: values from alpha-beta) with 16-19 empty
 * cells, Order's wins in one batch and Chaos's in another; Order's again
 * as probes within 30 nodes (topcert_probe_many); then a batch stopped by
 * the interrupt flag. Each file must verify, by the verifier's
 * own rules, for the suite's winner and its position as root. Exit 0 when
 * all do; TSan reports any data race itself. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../engine/notation.h"
#include "../../jobs/top_cert.h"
#include "../../verify/verify.h"
#include "../../verify/verify_rules.h"

enum { MAX_POS = 64 };

/* TopCert.progress: counts the reports (called under the batch's lock). */
static uint64_t reports, last_made;
static void on_progress(uint64_t made, uint64_t listed, void *arg)
{
    (void)listed, (void)arg;
    reports++;
    last_made = made;
}

static int check(TopCert *tc, const Board *b, int count, Winner w)
{
    int bad = 0;
    for (int i = 0; i < count; i++) {
        char path[512], pos[NOTATION_POS_LEN];
        topcert_path(tc, b[i], path, sizeof path);
        notation_format_position(b[i], 6, pos);
        VerifyExpect x = {6, 5, VR_ORIGINAL, w == WINNER_ORDER ? VERIFY_WINNER_ORDER : VERIFY_WINNER_CHAOS, pos};
        VerifyResult vr;
        if (verify_file_ex(path, &x, &vr) != VERIFY_VALID) {
            fprintf(stderr, "topcert_many: %s: %s\n", pos, vr.error);
            bad++;
        }
    }
    return bad;
}

int main(void)
{
    FILE *f = fopen("bench/suite-original.txt", "r");
    if (!f) {
        fprintf(stderr, "topcert_many: run from the repository root\n");
        return 2;
    }
    Rules r;
    char err[512];
    if (rules_init(&r, 6, 5, RULES_ORIGINAL, err, sizeof err) != 0) return 2;
    Board won[2][MAX_POS];
    int count[2] = {0, 0};
    char line[256];
    while (fgets(line, sizeof line, f)) {
        char pos[64], value[16];
        int empty, n;
        Board b;
        if (line[0] == '#' || sscanf(line, "%63s %d %15s", pos, &empty, value) != 3) continue;
        if (empty < 16 || empty > 19 || notation_parse_position(pos, 6, &b, &n, err, sizeof err) != 0) continue;
        int side = strcmp(value, "order") == 0 ? 0 : 1;
        if (count[side] < MAX_POS) won[side][count[side]++] = b;
    }
    fclose(f);
    char dir[] = "/tmp/ocsolve-topcert-many-XXXXXX";
    if (!mkdtemp(dir)) return 2;
    DfpnConfig cfg = dfpn_default_config();
    TopCert tc;
    topcert_init(&tc, &r, &cfg, dir);
    tc.mini_bytes = (size_t)4 << 20;
    tc.threads = 2;
    tc.share = 3;
    tc.progress = on_progress; /* every file: progress_every 0 */
    int bad = 0;
    for (int side = 0; side < 2; side++) {
        Winner w = side == 0 ? WINNER_ORDER : WINNER_CHAOS;
        if (topcert_reprove_many(&tc, won[side], count[side], w, err, sizeof err) != 0) {
            fprintf(stderr, "topcert_many: %s\n", err);
            bad++;
        }
        bad += check(&tc, won[side], count[side], w);
    }
    /* Probes within a node limit into a fresh folder (the split's first
     * step): the finished ones must verify, the rest have no file. */
    char probes[600];
    snprintf(probes, sizeof probes, "%s/probes", dir);
    mkdir(probes, 0777);
    topcert_free(&tc); /* the runners keep the folder they were made for */
    topcert_init(&tc, &r, &cfg, probes);
    tc.mini_bytes = (size_t)4 << 20;
    tc.threads = 2;
    tc.share = 3;
    bool undecided[MAX_POS];
    int unfinished = 0;
    if (topcert_probe_many(&tc, won[0], count[0], WINNER_ORDER, 30, undecided, err, sizeof err) != 0) {
        fprintf(stderr, "topcert_many: probes: %s\n", err);
        bad++;
    }
    for (int i = 0; i < count[0]; i++) {
        char path[700];
        topcert_path(&tc, won[0][i], path, sizeof path);
        if (undecided[i]) unfinished++, bad += access(path, F_OK) == 0;
        else bad += check(&tc, &won[0][i], 1, WINNER_ORDER);
    }
    /* A stop asked before the batch: no re-proof, a message, the flag. */
    atomic_bool stop = true;
    tc.interrupt = &stop;
    char sub[600];
    snprintf(sub, sizeof sub, "%s/stopped", dir);
    mkdir(sub, 0777);
    tc.dir = sub;
    int rc = topcert_reprove_many(&tc, won[1], count[1], WINNER_CHAOS, err, sizeof err);
    bool stop_ok = rc == -1 && tc.stopped && strstr(err, "stopped by a signal") != NULL;
    topcert_free(&tc);
    printf("topcert_many: %d Order wins, %d Chaos wins re-proved two at a time, %d probed (%d unfinished), %d wrong;"
           " stop %s; %llu progress reports\n", count[0], count[1], count[0], unfinished, bad, stop_ok ? "ok" : "FAILED",
           (unsigned long long)reports);
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) fprintf(stderr, "topcert_many: could not remove %s\n", dir);
    return bad == 0 && count[0] >= 5 && count[1] >= 5 && stop_ok && reports >= (uint64_t)(count[0] + count[1]) ? 0 : 1;
}
