/* test_cert_share.c - the shared subtrees of job certificates
 * (solver/proof.h ProofShare, jobs/job_run.h JobOrder.share): runs whose
 * jobs give the loser's positions 2..5 plies below their roots files of
 * their own, and name the ones an earlier job wrote, against the
 * independent brute force and the independent verifier (verify/):
 *   - every run's certificate verifies, with one thread and two, for the
 *     brute force's winner; shared files are written, and a run made again
 *     into the same folder names them instead of writing them again;
 *   - a shared file found in the folder is trusted only as far as its
 *     header: one whose header claims the other winner is written again
 *     (the run's certificate verifies), one whose header is right but
 *     whose proof was cut off makes a certificate the verifier rejects;
 *   - a FIFO standing at a shared file's name is never opened (it would
 *     block the writer for ever): the writer writes the file and renames
 *     it over the FIFO, and the run's certificate verifies.
 */
#include <criterion/criterion.h>

#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../jobs/jobs.h"
#include "../verify/verify.h"
#include "brute.h"
#include "runbin.h"
#include "testlib.h"

TestSuite(cert_share, .timeout = 240);

static const char SHARED_MARK[] = "a subtree shared";

static JobsResult run_share_p(const RefPos *p, const char *dir, const char *proof, int workers, uint64_t budget,
                              int share)
{
    Rules r;
    tl_init_rules(&r, p);
    DfpnConfig cfg = dfpn_default_config();
    cfg.kn.centre = false;
    cfg.kn.threat_plies = 0; /* it decides most of these positions at once, leaving little to share */
    JobsSpec s = {.workers = workers, .job_nodes = budget, .job_tt_bytes = (size_t)1 << 20, .cert_dir = dir,
                  .proof = proof, .cert_share = share};
    JobsResult res;
    char err[256] = "";
    cr_assert_eq(jobs_solve(&r, tl_board(p), &cfg, &s, &res, err, sizeof err), 0, "jobs_solve: %s", err);
    return res;
}

static JobsResult run_share(const RefPos *p, const char *dir, const char *proof, int workers, uint64_t budget)
{
    return run_share_p(p, dir, proof, workers, budget, 5);
}

/* Is dir/name a shared subtree's file (its comment line says so)? */
static bool is_shared(const char *dir, const char *name)
{
    char path[600], line[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "r");
    if (!f) return false;
    bool yes = false;
    for (int i = 0; i < 3 && fgets(line, sizeof line, f); i++) yes |= strstr(line, SHARED_MARK) != NULL;
    fclose(f);
    return yes;
}

/* The shared files in dir (*files) and the see lines of all dir's files
 * that name one (*named); the first shared file's name in first. */
static void count_shared(const char *dir, int *files, int *named, char *first, size_t firstlen)
{
    *files = *named = 0;
    first[0] = '\0';
    DIR *d = opendir(dir);
    cr_assert(d, "cannot open %s", dir);
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!strstr(e->d_name, ".ocproof") || strstr(e->d_name, ".tmp.")) continue;
        if (is_shared(dir, e->d_name)) {
            if (!*files) snprintf(first, firstlen, "%s", e->d_name);
            ++*files;
        }
        char path[600], line[512];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        FILE *f = fopen(path, "r");
        cr_assert(f);
        while (fgets(line, sizeof line, f)) {
            char *see = strstr(line, " see ");
            if (!see) continue;
            see += 5;
            see[strcspn(see, "\n")] = '\0';
            *named += is_shared(dir, see);
        }
        fclose(f);
    }
    closedir(d);
}

static void expect_verdict(const char *proof, const RefPos *p, Winner want, bool valid)
{
    char pos[65];
    ref_format(p, pos);
    VerifyExpect x = {p->n, p->k, p->rules, want == WINNER_ORDER ? VERIFY_WINNER_ORDER : VERIFY_WINNER_CHAOS, pos};
    for (int threads = 1; threads <= 2; threads++) {
        VerifyResult vr;
        int rc = verify_file_threads(proof, &x, threads, &vr);
        if (valid) cr_expect_eq(rc, VERIFY_VALID, "%s (rules %d, %d threads): %s", pos, p->rules, threads, vr.error);
        else cr_expect_neq(rc, VERIFY_VALID, "%s (rules %d, %d threads): accepted", pos, p->rules, threads);
    }
}

/* The inode of every shared file in dir, by name (at most max; their count). */
typedef struct {
    char name[256];
    ino_t ino;
} Ino;

static int shared_inodes(const char *dir, Ino *out, int max)
{
    DIR *d = opendir(dir);
    cr_assert(d, "cannot open %s", dir);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < max) {
        if (!strstr(e->d_name, ".ocproof") || strstr(e->d_name, ".tmp.") || !is_shared(dir, e->d_name)) continue;
        char path[600];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        cr_assert_eq(stat(path, &st), 0);
        snprintf(out[n].name, sizeof out[n].name, "%s", e->d_name);
        out[n++].ino = st.st_ino;
    }
    closedir(d);
    return n;
}

/* Positions of 4x4 with k = 4 (two random pieces; its games run to the
 * full board, so jobs' proofs are deep and transpose), under each rule
 * set, one worker and two, files 2..3 and 2..5 plies below the jobs' roots:
 * each run's certificate verifies for the brute force's winner, shared
 * files are written and named by more see lines than there are files
 * (later jobs name files earlier ones wrote);
 * then each run is made again into the same folder, whose writers must
 * name the files already there (a file written again is renamed onto its
 * name: a new inode), and its certificate must verify again. */
Test(cert_share, shared_subtrees_verify)
{
    BruteMemo *m = brute_new();
    uint64_t rng = 4122026;
    int runs = 0, files = 0, named = 0;
    for (int t = 0; t < 6; t++) {
        RefPos p;
        while (tl_random_ongoing(&p, 4, 4, t % 3, 2, &rng) != 0) {}
        char dir[256], proof[300], first[300];
        tl_tmp_dir(dir, sizeof dir, "cert-share");
        snprintf(proof, sizeof proof, "%s/top.ocproof", dir);
        int workers = 1 + t % 2, share = t < 3 ? 3 : 5;
        uint64_t budget = p.rules == RULES_EXACT_END ? 200 : 10;
        JobsResult res = run_share_p(&p, dir, proof, workers, budget, share);
        Winner want = tl_brute_winner(m, &p);
        char pos[65];
        ref_format(&p, pos);
        cr_assert_eq(res.winner, want, "%s: jobs %s, brute force %s", pos, winner_name(res.winner), winner_name(want));
        expect_verdict(proof, &p, want, true);
        int f, nm;
        count_shared(dir, &f, &nm, first, sizeof first);
        static Ino before[8192], after[8192];
        int nb = shared_inodes(dir, before, 8192);
        run_share_p(&p, dir, proof, workers, budget, share);
        int na = shared_inodes(dir, after, 8192);
        cr_expect(workers == 2 || na == nb, "%s: %d shared files, then %d", pos, nb, na);
        int kept = 0;
        for (int i = 0; i < nb; i++)
            for (int j = 0; j < na; j++)
                if (strcmp(before[i].name, after[j].name) == 0) {
                    cr_expect_eq(before[i].ino, after[j].ino, "%s: %s written again", pos, before[i].name);
                    kept++;
                }
        /* two workers may also decide a job at a shared file's position the
         * second time, whose own certificate then takes the name */
        cr_expect(workers == 2 ? 2 * kept >= nb : kept == nb, "%s: %d of %d shared files kept", pos, kept, nb);
        expect_verdict(proof, &p, want, true);
        cr_log_info("%s (rules %d, %d workers, share %d): %d shared files, named by %d see lines", pos, p.rules,
                    workers, share, f, nm);
        files += f;
        named += nm;
        runs++;
        tl_rm_dir(dir);
    }
    brute_free(m);
    cr_assert_gt(files, 100, "shared files written: %d", files);
    cr_assert_gt(named, files + files / 10, "few shared files named by later jobs (%d see lines, %d files)", named,
                 files);
}

/* Rewrites dir/name: its winner line says `winner` (header), or its lines
 * after the root line are dropped (cut). */
static void tamper(const char *dir, const char *name, bool cut)
{
    char path[600], line[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "r");
    cr_assert(f);
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    bool after_root = false;
    while (fgets(line, sizeof line, f)) {
        if (cut && after_root) break;
        if (!cut && strncmp(line, "winner ", 7) == 0)
            snprintf(line, sizeof line, "winner %s\n", strstr(line, "order") ? "chaos" : "order");
        fputs(line, out);
        after_root |= strncmp(line, "root ", 5) == 0;
    }
    fclose(f);
    fclose(out);
    f = fopen(path, "w");
    cr_assert(f);
    fputs(text, f);
    fclose(f);
    free(text);
}

/* Does the verifier accept proof for p's winner want (one thread)? */
static bool accepted(const char *proof, const RefPos *p, Winner want)
{
    char pos[65];
    ref_format(p, pos);
    VerifyExpect x = {p->n, p->k, p->rules, want == WINNER_ORDER ? VERIFY_WINNER_ORDER : VERIFY_WINNER_CHAOS, pos};
    VerifyResult vr;
    return verify_file_threads(proof, &x, 1, &vr) == VERIFY_VALID;
}

/* A run (its winner is the claim: the verifier, which shares nothing
 * with it, judges the certificates); then every shared file of it tampered with, which must make its
 * certificate invalid (else the proof reaches none with a body: another
 * position is tried); then the same run again into the same folder, whose
 * certificate must be valid (header: the files are written again) or not
 * (cut: the files are trusted by their headers, and the verifier is not). */
static bool tampered_rerun(bool cut, uint64_t seed)
{
    uint64_t rng = seed;
    for (int tries = 0; tries < 150; tries++) {
        RefPos p;
        if (tl_random_ongoing(&p, 6, 5, tries % 3, 36 - 16, &rng) != 0) continue;
        char dir[256], proof[300], first[300];
        tl_tmp_dir(dir, sizeof dir, "cert-share-tamper");
        snprintf(proof, sizeof proof, "%s/top.ocproof", dir);
        JobsResult res = run_share(&p, dir, proof, 1, 10);
        int files, named;
        count_shared(dir, &files, &named, first, sizeof first);
        if (files == 0) {
            tl_rm_dir(dir);
            continue;
        }
        /* the run's winner: the verifier, independent of it, judges every claim below */
        Winner want = res.winner;
        DIR *d = opendir(dir);
        cr_assert(d);
        struct dirent *e;
        while ((e = readdir(d)))
            if (strstr(e->d_name, ".ocproof") && is_shared(dir, e->d_name)) tamper(dir, e->d_name, cut);
        closedir(d);
        if (accepted(proof, &p, want)) {
            tl_rm_dir(dir);
            continue;
        }
        res = run_share(&p, dir, proof, 1, 10);
        cr_assert_eq(res.winner, want, "the second run found the other winner");
        expect_verdict(proof, &p, want, !cut);
        tl_rm_dir(dir);
        return true;
    }
    return false;
}

Test(cert_share, a_file_of_the_other_winner_is_written_again)
{
    cr_assert(tampered_rerun(false, 77), "no run wrote a shared file");
}

Test(cert_share, a_cut_file_makes_an_invalid_certificate)
{
    cr_assert(tampered_rerun(true, 78), "no run wrote a shared file");
}

/* Something other than a shared file at a shared file's name
 * (solver/proof_share.c, share_usable): a run of 4x4 k=4 writes its shared
 * files; the first of them is replaced (replace), and the same run made
 * again into the folder must write the file again, renamed over what is
 * there, and its certificate must verify with the brute force's winner.
 * The name must hold a shared file again after the run, which shows the
 * writer reached it. watch, when given, runs in a thread of its own during
 * the second run (its arg's done set at the end); its verdict is the
 * caller's. False if no run wrote a shared file. */
typedef struct {
    const char *path;
    atomic_bool done; /* the run ended: stop watching */
    atomic_bool read; /* someone opened the FIFO to read */
} FifoWatch;

static bool replaced_rerun(uint64_t seed, void (*replace)(const char *path), void *(*watch)(void *), FifoWatch *fw)
{
    BruteMemo *m = brute_new();
    uint64_t rng = seed;
    bool tried = false;
    for (int t = 0; t < 6 && !tried; t++) {
        RefPos p;
        while (tl_random_ongoing(&p, 4, 4, t % 3, 2, &rng) != 0) {}
        char dir[256], proof[300], first[300], path[600];
        tl_tmp_dir(dir, sizeof dir, "cert-share-replaced");
        snprintf(proof, sizeof proof, "%s/top.ocproof", dir);
        uint64_t budget = p.rules == RULES_EXACT_END ? 200 : 10;
        run_share_p(&p, dir, proof, 1, budget, 3);
        int files, named;
        count_shared(dir, &files, &named, first, sizeof first);
        if (files > 0) {
            tried = true;
            snprintf(path, sizeof path, "%s/%s", dir, first);
            cr_assert_eq(unlink(path), 0, "cannot remove %s", path);
            replace(path);
            pthread_t th;
            if (watch) {
                fw->path = path;
                atomic_init(&fw->done, false);
                atomic_init(&fw->read, false);
                cr_assert_eq(pthread_create(&th, NULL, watch, fw), 0);
            }
            JobsResult res = run_share_p(&p, dir, proof, 1, budget, 3);
            if (watch) {
                atomic_store(&fw->done, true);
                pthread_join(th, NULL);
            }
            char pos[65];
            ref_format(&p, pos);
            struct stat st;
            cr_expect(lstat(path, &st) == 0 && S_ISREG(st.st_mode), "%s: %s is not a regular file after the run", pos,
                      first);
            cr_expect(is_shared(dir, first), "%s: %s is not a shared subtree's file after the run", pos, first);
            Winner want = tl_brute_winner(m, &p);
            cr_assert_eq(res.winner, want, "%s: jobs %s, brute force %s", pos, winner_name(res.winner),
                         winner_name(want));
            expect_verdict(proof, &p, want, true);
        }
        tl_rm_dir(dir);
    }
    brute_free(m);
    return tried;
}

/* Watches the FIFO at path while a run goes on: whether anyone opened
 * it to read. Opening a FIFO to write without blocking succeeds only
 * while it has a reader, and a reader blocked in its open counts: so the
 * watcher sees a writer that opened the FIFO, and its own open and close
 * then let that writer's open return (to read nothing) instead of
 * hanging the test until its timeout. */
static void *fifo_watch(void *arg)
{
    FifoWatch *fw = arg;
    while (!atomic_load(&fw->done)) {
        int fd = open(fw->path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
        if (fd >= 0) {
            struct stat st; /* the writer's regular file, once renamed over the FIFO, is left alone */
            if (fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode)) atomic_store(&fw->read, true);
            close(fd);
        }
        usleep(1000);
    }
    return NULL;
}

static void make_fifo(const char *path) { cr_assert_eq(mkfifo(path, 0644), 0, "cannot make the FIFO %s", path); }

/* A FIFO there must not be opened: opening a FIFO to read blocks until
 * someone writes to it, so the writer would hang. */
Test(cert_share, a_fifo_at_a_shared_name_is_not_opened, .timeout = 120)
{
    FifoWatch fw;
    cr_assert(replaced_rerun(4122026, make_fifo, fifo_watch, &fw), "no run wrote a shared file");
    cr_expect(!atomic_load(&fw.read), "the writer opened the FIFO at %s (it would have blocked)", fw.path);
}

/* A sparse file of 1 TiB of zero bytes (no disk used; 4 GiB where the file
 * system allows no more). share_usable reads at most its first lines: the
 * first is no "ocproof" line, so it is written again; a reader of the whole
 * file, or of one unbounded line, would take the test's timeout, or more
 * memory than the machine has. */
static void make_huge(const char *path)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    cr_assert(fd >= 0, "cannot make %s", path);
    cr_assert(ftruncate(fd, (off_t)1 << 40) == 0 || ftruncate(fd, (off_t)4 << 30) == 0, "cannot size %s", path);
    close(fd);
}

Test(cert_share, a_huge_file_at_a_shared_name_is_read_only_in_its_head, .timeout = 120)
{
    cr_assert(replaced_rerun(5122026, make_huge, NULL, NULL), "no run wrote a shared file");
}

/* The option's range (0 to JOBRUN_SHARE_MAX): outside it, one line naming
 * it and exit 2. */
Test(cert_share, option_range)
{
    expect_reject("--cert-share", "jobs", "--cert-share", "8", "-");
    expect_reject("--cert-share", "jobs", "--cert-share", "-1", "-");
    expect_reject("--cert-share", "jobs", "--cert-share", "two", "-");
}
