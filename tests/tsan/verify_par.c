/* verify_par.c - a standalone threaded program for ThreadSanitizer
 * (Criterion does not run under TSan): the verifier's pre-pass
 * (verify_file_threads) on real job-level certificates, written by the
 * job-level search (jobs.h) for suite positions with 16-21 empty cells
 * with tiny budgets and an expanded top tree, so that each certificate
 * is a top file with see lines to many files (the first 4 positions
 * whose certificate has 5 files or more count). Each is verified with 1, 2
 * and 4 threads, whole, with one of its files spoilt (a line dropped) and
 * with one missing; every result must be the one thread's, field for
 * field, and the whole certificate valid. TSan reports any data race.
 * Exit 0 when all agree. Run from the repository root. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../engine/notation.h"
#include "../../jobs/jobs.h"
#include "../../verify/verify.h"

static int bad;
static unsigned long long reports; /* progress calls (VerifyLimits.progress, under the pre-pass lock) */

static void on_progress(uint64_t checked, uint64_t known, uint64_t positions, void *arg)
{
    (void)checked, (void)known, (void)positions, (void)arg;
    reports++;
}
static const char *const STATUS[4] = {"not tried", "valid", "invalid", "malformed"};

/* proof verified with 1, 2 and 4 threads: the results must agree; returns the status. */
static int agree(const char *proof, const char *what)
{
    VerifyResult one, r;
    int rc = verify_file_threads(proof, NULL, 1, &one);
    for (int t = 2; t <= 4; t += 2) {
        VerifyLimits lim = {.progress = on_progress, .progress_every = 0}; /* a report after every file */
        verify_file_limits(proof, NULL, t, &lim, &r);
        if (r.status != one.status || strcmp(r.error, one.error) != 0 || r.positions_checked != one.positions_checked ||
            r.lines != one.lines || r.lines_used != one.lines_used) {
            fprintf(stderr, "verify_par: %s, %d threads: %d %llu [%s]; one thread: %d %llu [%s]\n", what, t, r.status,
                    (unsigned long long)r.positions_checked, r.error, one.status,
                    (unsigned long long)one.positions_checked, one.error);
            bad++;
        }
    }
    return rc;
}

/* The largest .ocproof file in dir but the top one, into path. */
static int largest(const char *dir, char *path, size_t size)
{
    DIR *d = opendir(dir);
    long best = -1;
    for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
        char p[512];
        if (!strstr(e->d_name, ".ocproof") || strcmp(e->d_name, "top.ocproof") == 0) continue;
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        FILE *f = fopen(p, "r");
        if (!f) continue;
        fseek(f, 0, SEEK_END);
        long len = ftell(f);
        fclose(f);
        if (len > best) best = len, snprintf(path, size, "%s", p);
    }
    if (d) closedir(d);
    return best > 0 ? 0 : -1;
}

/* Drops the file's last line (a position line of a job's certificate), keeping the text in *keep. */
static void drop_last_line(const char *path, char **keep)
{
    FILE *f = fopen(path, "r");
    size_t cap = 0;
    ssize_t len = f ? getdelim(keep, &cap, '\0', f) : -1;
    if (f) fclose(f);
    if (len < 2) return;
    long cut = len - 2;
    while (cut > 0 && (*keep)[cut] != '\n') cut--;
    f = fopen(path, "w");
    fwrite(*keep, 1, (size_t)cut + 1, f);
    fclose(f);
}

static void put_back(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
}

static int one_position(const Rules *r, const DfpnConfig *cfg, const char *pos, const char *certs)
{
    Board b;
    int n;
    char err[256], proof[512], big[512];
    if (notation_parse_position(pos, 6, &b, &n, err, sizeof err) != 0) return -1;
    snprintf(proof, sizeof proof, "%s/top.ocproof", certs);
    JobsSpec s = {.workers = 2, .job_nodes = 100, .job_nodes_max = 400, .expand_depth = 2,
                  .job_tt_bytes = (size_t)1 << 20, .cert_dir = certs, .proof = proof};
    JobsResult res;
    if (jobs_solve(r, b, cfg, &s, &res, err, sizeof err) != 0 || res.winner == WINNER_NONE) {
        fprintf(stderr, "verify_par: %s: %s\n", pos, err[0] ? err : "undecided");
        return -1;
    }
    if (agree(proof, pos) != VERIFY_VALID) {
        fprintf(stderr, "verify_par: %s: the certificate does not verify\n", pos);
        bad++;
    }
    int dropped = -1, missing = -1;
    if (largest(certs, big, sizeof big) == 0) {
        char *keep = NULL;
        drop_last_line(big, &keep);
        dropped = agree(proof, "a line dropped");
        remove(big);
        missing = agree(proof, "a file missing");
        if (keep) put_back(big, keep);
        free(keep);
    }
    printf("verify_par: %s: %llu certificate files; a line dropped: %s, a file missing: %s\n", pos,
           (unsigned long long)res.cert_files, STATUS[dropped + 1], STATUS[missing + 1]);
    return res.cert_files >= 5 ? 0 : 1; /* a few files at least, or it does not count */
}

int main(void)
{
    FILE *f = fopen("bench/suite-original.txt", "r");
    if (!f) {
        fprintf(stderr, "verify_par: run from the repository root\n");
        return 2;
    }
    Rules r;
    char err[256], line[256];
    if (rules_init(&r, 6, 5, RULES_ORIGINAL, err, sizeof err) != 0) return 2;
    DfpnConfig cfg = dfpn_default_config();
    cfg.kn.centre = false;
    int done = 0;
    while (fgets(line, sizeof line, f) && done < 4) {
        char pos[64], value[16], certs[] = "/tmp/ocsolve-tsan-verify-XXXXXX", cmd[128];
        int empty;
        if (line[0] == '#' || sscanf(line, "%63s %d %15s", pos, &empty, value) != 3) continue;
        if (empty < 16 || empty > 21 || !mkdtemp(certs)) continue;
        if (one_position(&r, &cfg, pos, certs) == 0) done++;
        snprintf(cmd, sizeof cmd, "rm -rf %s", certs);
        if (system(cmd) != 0) fprintf(stderr, "verify_par: could not remove %s\n", certs);
    }
    fclose(f);
    printf("verify_par: %d certificates, %d disagreements, %llu progress reports\n", done, bad, reports);
    return bad || done < 4 || reports == 0 ? 1 : 0;
}
