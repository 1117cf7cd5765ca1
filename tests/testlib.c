/* testlib.c - see testlib.h. */
#include "testlib.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <ftw.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../engine/notation.h"
#include "../verify/verify.h"
#include "../engine/rng.h"

uint64_t tl_rand(uint64_t *state) { return rng_next(state); }

int tl_below(uint64_t *state, int bound) { return (int)(tl_rand(state) % (uint64_t)bound); }

int tl_random_ongoing(RefPos *p, int n, int k, int rules, int pieces, uint64_t *rng)
{
    char empty[65];
    for (int i = 0; i < n * n; i++) empty[i] = '.';
    empty[n * n] = '\0';
    ref_parse(p, n, k, rules, empty);
    for (int placed = 0; placed < pieces; placed++) {
        int ok = 0;
        for (int tries = 0; tries < 200 && !ok; tries++) {
            int c = tl_below(rng, n * n);
            if (p->cell[c] != '.') continue;
            p->cell[c] = tl_below(rng, 2) ? 'X' : 'O';
            if (ref_status(p) == REF_ONGOING)
                ok = 1;
            else
                p->cell[c] = '.';
        }
        if (!ok) return -1;
    }
    return 0;
}

int tl_random_ongoing_game(RefPos *p, uint64_t *rng)
{
    int n = 4 + tl_below(rng, 5), k = 3 + tl_below(rng, n - 2), rules = tl_below(rng, 3);
    return tl_random_ongoing(p, n, k, rules, tl_below(rng, n * n), rng);
}

void tl_random_any(RefPos *p, int n, int k, int rules, int pct_x, int pct_o, uint64_t *rng)
{
    char s[65];
    for (int i = 0; i < n * n; i++) {
        int v = tl_below(rng, 100);
        s[i] = v < pct_x ? 'X' : v < pct_x + pct_o ? 'O' : '.';
    }
    s[n * n] = '\0';
    ref_parse(p, n, k, rules, s);
}

/* The scratch folders go to /dev/shm where the machine has it (tmpfs),
 * else /tmp. Why: a store commits with an fsync (LMDB), and on a disk
 * the many small stores of some tests wait on it, not compute:
 * jobs_sibling/thousands_of_siblings_against_the_brute_force took 240 s
 * of wall time for 47 s of CPU with its folders in /tmp on this machine
 * (2026-12-07). A process killed in a test loses nothing on tmpfs either
 * (what the kill-and-resume tests model), and a power cut is no test's. */
void tl_tmp_dir(char *path, size_t size, const char *tag)
{
    const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    snprintf(path, size, "%s/ocsolve-%s-XXXXXX", base, tag);
    cr_assert(mkdtemp(path) != NULL, "cannot make %s", path);
}

void tl_write_text(const char *dir, const char *name, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    cr_assert(f, "cannot write %s", path);
    cr_assert(fputs(text, f) >= 0 && fclose(f) == 0, "cannot write %s", path);
}

bool tl_job_log_row(FILE *f, char *line, size_t size, char *fld[TL_JOB_LOG_FIELDS])
{
    if (!fgets(line, (int)size, f)) return false;
    line[strcspn(line, "\n")] = '\0';
    int nf = 0;
    for (char *rest = line, *tok; (tok = strsep(&rest, ",")) != NULL;) {
        cr_assert_lt(nf, TL_JOB_LOG_FIELDS, "a job log row of more than %d fields", TL_JOB_LOG_FIELDS);
        fld[nf++] = tok;
    }
    cr_assert_eq(nf, TL_JOB_LOG_FIELDS, "a job log row of %d fields", nf);
    return true;
}

/* One entry of tl_rm_dir's walk: removed, and the walk goes on whatever
 * the result (a file gone already stops nothing). */
static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    remove(path);
    return 0;
}

/* The whole tree, depth first, never following a link: the tests' folders
 * hold subfolders (certs/, store/), which the one-level loop this replaced
 * left behind on every run. */
void tl_rm_dir(const char *path)
{
    nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

Board tl_board(const RefPos *p)
{
    char s[65], err[NOTATION_ERR_LEN];
    ref_format(p, s);
    Board b;
    int n;
    cr_assert_eq(notation_parse_position(s, p->n, &b, &n, err, sizeof err), 0, "%s", err);
    return b;
}

Board tl_embed_centre(const char *s, int m)
{
    Board b = board_empty();
    for (int i = 0; i < m * m; i++)
        if (s[i] != '.') b.s[s[i] == 'X' ? PIECE_X : PIECE_O] |= 1ULL << board_cell(i / m + 1, i % m + 1);
    return b;
}

int tl_centre_small_against_brute(const Centre *c, uint64_t seed, int count)
{
    BruteMemo *memo = brute_new();
    cr_assert(memo);
    uint64_t rng = seed;
    int wins = 0;
    for (int t = 0; t < count; t++) {
        RefPos p;
        int fill = 40 + tl_below(&rng, 40); /* 40-79 % of the cells taken */
        tl_random_any(&p, 4, 4, REF_ORIGINAL, fill / 2, fill - fill / 2, &rng);
        char s[17];
        ref_format(&p, s);
        bool want = brute_order_wins(memo, &p), got = centre_small_win(4, centre_index(c, tl_embed_centre(s, 4)));
        cr_expect_eq(got, want, "m=4 %s: table %d, brute force %d", s, got, want);
        wins += want;
    }
    brute_free(memo);
    return wins;
}

RuleSet tl_rules(int ref_rules)
{
    return ref_rules == REF_ORIGINAL ? RULES_ORIGINAL : ref_rules == REF_EXACT ? RULES_EXACT : RULES_EXACT_END;
}

void tl_init_rules(Rules *r, const RefPos *p)
{
    char err[NOTATION_ERR_LEN];
    cr_assert_eq(rules_init(r, p->n, p->k, tl_rules(p->rules), err, sizeof err), 0, "%s", err);
}

typedef struct {
    BruteMemo *m;
    int rules, checked, bad;
} StoreSample;

/* The reference position of a store key (rules: the REF_ rule set). */
static RefPos key_pos(const StoreKey *key, int rules)
{
    RefPos p = {.n = key->n, .k = key->k, .rules = rules};
    for (int r = 0; r < key->n; r++)
        for (int c = 0; c < key->n; c++) {
            uint64_t bit = 1ULL << (8 * r + c);
            p.cell[r * key->n + c] = (key->pos.s[PIECE_X] & bit) ? 'X' : (key->pos.s[PIECE_O] & bit) ? 'O' : '.';
        }
    return p;
}

static int store_record(const StoreKey *key, const StoreValue *v, void *ctx)
{
    StoreSample *s = ctx;
    RefPos p = key_pos(key, s->rules);
    s->checked++;
    s->bad += (brute_order_wins(s->m, &p) ? WINNER_ORDER : WINNER_CHAOS) != v->winner;
    return 0;
}

Winner tl_brute_winner(BruteMemo *m, RefPos *p)
{
    return brute_order_wins(m, p) ? WINNER_ORDER : WINNER_CHAOS;
}

int tl_store_disagreements(Store *st, BruteMemo *m, int rules, int *checked)
{
    StoreSample s = {m, rules, 0, 0};
    char err[256] = "";
    cr_assert_eq(store_foreach(st, store_record, &s, err, sizeof err), 0, "%s", err);
    *checked = s.checked;
    return s.bad;
}

/* A bound record against the brute force's dtw (-1: Chaos wins): a yes
 * at y says 0 <= dtw <= y, a no at n says dtw > n or no win. */
static int bound_record(const StoreKey *key, const StoreBound *b, void *ctx)
{
    StoreSample *s = ctx;
    RefPos p = key_pos(key, s->rules);
    int dtw = brute_dtw(s->m, &p);
    s->checked++;
    bool ok = b->yes == STORE_BOUND_NONE || (dtw >= 0 && dtw <= b->yes);
    ok = ok && (b->no == STORE_BOUND_NONE || dtw < 0 || dtw > b->no);
    s->bad += !ok;
    return 0;
}

int tl_store_bound_disagreements(Store *st, BruteMemo *m, int rules, int *checked)
{
    StoreSample s = {m, rules, 0, 0};
    char err[256] = "";
    cr_assert_eq(store_foreach_bound(st, bound_record, &s, err, sizeof err), 0, "%s", err);
    if (checked) *checked = s.checked;
    return s.bad;
}

int tl_jobs_try(const RefPos *p, JobsSpec *s, JobsResult *res, char *err, int errlen)
{
    Rules r;
    tl_init_rules(&r, p);
    DfpnConfig cfg = dfpn_default_config();
    cfg.kn.centre = false;
    cfg.kn.threat_plies = 0;
    return jobs_solve(&r, tl_board(p), &cfg, s, res, err, errlen);
}

JobsResult tl_jobs_solve(const RefPos *p, JobsSpec *s)
{
    JobsResult res;
    char err[256] = "";
    cr_assert_eq(tl_jobs_try(p, s, &res, err, sizeof err), 0, "jobs_solve: %s", err);
    cr_assert_neq(res.winner, WINNER_NONE, "no time limit, yet undecided");
    return res;
}

void tl_pick_deep(RefPos *p, int rs, int empty, uint64_t *rng)
{
    for (int tries = 0; tries < 200; tries++) {
        if (tl_random_ongoing(p, 6, 5, rs, 36 - empty, rng) != 0) continue;
        JobsSpec s = {.workers = 1, .job_nodes = 1, .job_tt_bytes = (size_t)1 << 20};
        if (tl_jobs_solve(p, &s).expansions > 0) return;
    }
    cr_assert_fail("no position with %d empty cells needed an expansion", empty);
}

int tl_each_file(const char *dir, const char *part, void (*fn)(const char *path, void *arg), void *arg)
{
    DIR *d = opendir(dir);
    cr_assert(d, "cannot open %s", dir);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!strstr(e->d_name, part)) continue;
        char path[4200];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (fn) fn(path, arg);
        n++;
    }
    closedir(d);
    return n;
}

Winner tl_check_jobs_run(BruteMemo *m, RefPos *p, const JobsResult *res, const char *proof)
{
    Winner want = tl_brute_winner(m, p);
    char pos[65];
    ref_format(p, pos);
    cr_assert_eq(res->winner, want, "%s: jobs %s, brute force %s", pos, winner_name(res->winner), winner_name(want));
    VerifyExpect x = {p->n, p->k, p->rules, want == WINNER_ORDER ? VERIFY_WINNER_ORDER : VERIFY_WINNER_CHAOS, pos};
    VerifyResult vr;
    cr_assert_eq(verify_file_ex(proof, &x, &vr), VERIFY_VALID, "%s (rules %d): %s", pos, p->rules, vr.error);
    return want;
}

Store *tl_jobs_folder(char dir[256], char certs[300], char proof[300], const char *tag)
{
    char err[256] = "";
    tl_tmp_dir(dir, 256, tag);
    snprintf(certs, 300, "%s/certs", dir);
    snprintf(proof, 300, "%s/top.ocproof", dir);
    cr_assert_eq(mkdir(certs, 0777), 0, "%s: cannot make it", certs);
    Store *st = store_open(dir, false, 0, err, sizeof err);
    cr_assert(st, "store in %s: %s", dir, err);
    return st;
}
