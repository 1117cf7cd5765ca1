/* test_store_hostile.c - a store is input from outside (tables/store.h,
 * store_file.h): damaged on purpose, it must give a refusal (one line,
 * exit 2; `store check` exit 1) or, where the damage missed everything the
 * store holds, the right answer, never a crash and never a wrong value.
 *
 * The base store is what `ocsolve jobs --store` leaves after deciding a
 * random 6x6 position with 13 empty cells (tiny budgets, so hundreds of
 * records over several pages); its value comes from the independent brute
 * force (tests/brute.h). The damage is done to data.mdb's bytes by this
 * file, never through the code under test: the winner byte of the root's
 * record flipped (the case: before checksums the run printed the
 * flipped winner with exit 0), a key byte changed, a record deleted or
 * added by raw LMDB, the file truncated (SIGBUS before the file checks),
 * pages zeroed, overwritten, swapped. The fuzz test draws OCS_STORE_FUZZ
 * variants (default 120) of those kinds and counts how each command
 * ended. */
#include <criterion/criterion.h>
#include <criterion/logging.h>

#include <fcntl.h>
#include <lmdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../engine/notation.h"
#include "../engine/symmetry.h"
#include "../jobs/job_run.h"
#include "brute.h"
#include "runbin.h"
#include "testlib.h"

TestSuite(store_hostile, .timeout = 240);

enum { PAGE = 4096 };

static uint8_t *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    cr_assert(f, "cannot read %s", path);
    fseek(f, 0, SEEK_END);
    *len = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc(*len + 1);
    cr_assert(b);
    cr_assert_eq(fread(b, 1, *len, f), *len);
    fclose(f);
    return b;
}

static void write_all(const char *path, const uint8_t *b, size_t len)
{
    FILE *f = fopen(path, "wb");
    cr_assert(f, "cannot write %s", path);
    cr_assert_eq(fwrite(b, 1, len, f), len);
    fclose(f);
}

/* The base: a random position decided by `ocsolve jobs` into dir/st. */
typedef struct {
    RefPos p;
    char pos[65];
    Winner want;
    char dir[256], store[300], certs[300];
    uint8_t *data; /* the sound data.mdb */
    size_t len;
    uint8_t rootkey[STORE_KEY_BYTES];
} Base;

/* A random position whose run leaves a store of at least 60 records
 * (one decided by a single job leaves one): the base of the damage. */
static void make_base(Base *b, uint64_t seed)
{
    BruteMemo *m = brute_new();
    uint64_t rng = seed;
    tl_tmp_dir(b->dir, sizeof b->dir, "store-hostile");
    snprintf(b->store, sizeof b->store, "%s/st", b->dir);
    snprintf(b->certs, sizeof b->certs, "%s/certs", b->dir);
    for (int tries = 0;; tries++) {
        cr_assert_lt(tries, 40, "no position gave a store of 60 records");
        cr_assert_eq(tl_random_ongoing(&b->p, 6, 5, 0, 21, &rng), 0);
        ref_format(&b->p, b->pos);
        Run r;
        expect_ok(&r, "jobs", "--workers", "1", "--job-nodes", "1", "--job-tt-mb", "1", "--no-centre", "--quiet",
                  "--store", b->store, "--certs", b->certs, b->pos);
        run_free(&r);
        expect_ok(&r, "store", "stats", b->store);
        char entries[64] = "";
        line_value(r.out, "entries: ", entries, sizeof entries);
        run_free(&r);
        if (atoi(entries) >= 60) break;
        tl_rm_dir(b->store);
        tl_rm_dir(b->certs);
    }
    b->want = tl_brute_winner(m, &b->p);
    brute_free(m);
    char path[400];
    snprintf(path, sizeof path, "%s/data.mdb", b->store);
    b->data = read_all(path, &b->len);
    /* the root's record: its canonical key, as the store writes it */
    StoreKey k = {RULES_ORIGINAL, 6, 5, sym_canonical(tl_board(&b->p), 6, NULL)};
    StoreKeyBytes kb;
    store_key_encode(&k, &kb);
    memcpy(b->rootkey, kb.b, sizeof kb.b);
}

static void free_base(Base *b)
{
    free(b->data);
    tl_rm_dir(b->dir);
}

/* A fresh copy of the base store at dir/v (data.mdb only: LMDB makes its
 * lock file anew) with the bytes given. */
static void variant(const Base *b, const uint8_t *data, size_t len, char *out, size_t outlen)
{
    snprintf(out, outlen, "%s/v", b->dir);
    tl_rm_dir(out);
    cr_assert_eq(mkdir(out, 0777), 0);
    char path[400];
    snprintf(path, sizeof path, "%s/data.mdb", out);
    write_all(path, data, len);
}

static size_t find(const uint8_t *hay, size_t len, const uint8_t *needle, size_t nlen)
{
    for (size_t i = 0; i + nlen <= len; i++)
        if (memcmp(hay + i, needle, nlen) == 0) return i;
    return (size_t)-1;
}

/* A refusal: the exit code wanted, one stderr line, nothing that reads as a
 * result on stdout. */
static void expect_refusal(Run *r, int code, const char *needle)
{
    cr_expect(r->exited && r->code == code, "%s: exit %d (signal %d), want %d; stderr [%s]", r->desc, r->code,
              r->signo, code, r->err);
    if (code == 2) {
        cr_expect_eq(count_char(r->err, r->errlen, '\n'), 1, "%s: stderr [%s]", r->desc, r->err);
        cr_expect(strstr(r->err, needle), "%s: stderr [%s], want [%s]", r->desc, r->err, needle);
    }
    cr_expect(!strstr(r->out, "result: "), "%s printed a result from a corrupt store: %s", r->desc, r->out);
}

/* jobs on the base's position with the store at dir and the base's
 * certificates (so that the store's records are used: jobs takes a
 * record only with its certificate). */
static void run_jobs(Run *r, const Base *b, const char *store)
{
    run_argv(r, ARGS("jobs", "--workers", "1", "--job-nodes", "1", "--job-tt-mb", "1", "--no-centre", "--quiet",
                     "--time-limit", "60", "--store", store, "--certs", b->certs, b->pos));
}

/* The case: the root's winner byte flipped. Before checksums,
 * `jobs` printed the flipped winner with exit 0. */
Test(store_hostile, flipped_winner_never_a_verdict)
{
    Base b;
    make_base(&b, 33);
    size_t at = find(b.data, b.len, b.rootkey, sizeof b.rootkey);
    cr_assert_neq(at, (size_t)-1, "the root's record is not in data.mdb");
    uint8_t *d = malloc(b.len);
    memcpy(d, b.data, b.len);
    d[at + STORE_KEY_BYTES] ^= 3; /* 1 <-> 2: Order <-> Chaos */
    char v[300];
    variant(&b, d, b.len, v, sizeof v);
    Run r;
    run_jobs(&r, &b, v);
    expect_refusal(&r, 2, "corrupt");
    run_free(&r);
    run_argv(&r, ARGS("store", "stats", v));
    expect_refusal(&r, 2, "fails its check");
    run_free(&r);
    run_argv(&r, ARGS("store", "export", v));
    expect_refusal(&r, 2, "fails its check");
    run_free(&r);
    run_argv(&r, ARGS("store", "get", v, b.pos));
    expect_refusal(&r, 2, "corrupt");
    run_free(&r);
    /* check names the bad record by its key and says corrupt, exit 1 */
    run_argv(&r, ARGS("store", "check", v));
    char hex[2 * STORE_KEY_BYTES + 1];
    for (int i = 0; i < STORE_KEY_BYTES; i++) snprintf(hex + 2 * i, 3, "%02x", b.rootkey[i]);
    cr_expect(r.exited && r.code == 1, "check: exit %d [%s]", r.code, r.out);
    cr_expect(strstr(r.out, hex) && strstr(r.out, "fails its check") && strstr(r.out, "is corrupt: 1 of "),
              "check: [%s], want the root's key %s", r.out, hex);
    run_free(&r);
    /* the sound store: the brute force's winner, from the store */
    variant(&b, b.data, b.len, v, sizeof v);
    run_jobs(&r, &b, v);
    char got[32];
    cr_assert(r.exited && r.code == 0 && line_value(r.out, "result: ", got, sizeof got), "%s", r.out);
    cr_expect_str_eq(got, winner_name(b.want));
    cr_expect(strstr(r.out, "decided by: the store"), "a result from the store must say so: %s", r.out);
    run_free(&r);
    free(d);
    free_base(&b);
}

/* The first record of the base store that has a certificate file. */
typedef struct {
    const Base *b;
    StoreKey key;
    Winner w;
    bool found;
} WithCert;

static int with_cert(const StoreKey *k, const StoreValue *v, void *ctx)
{
    WithCert *wc = ctx;
    Rules r;
    char err[128], name[JOBRUN_NAME_MAX], path[600];
    cr_assert_eq(rules_init(&r, k->n, k->k, k->rules, err, sizeof err), 0);
    jobrun_cert_name(&r, k->pos, name);
    snprintf(path, sizeof path, "%s/%s", wc->b->certs, name);
    if (access(path, R_OK) != 0) return 0;
    wc->key = *k;
    wc->w = v->winner;
    wc->found = true;
    return 1;
}

/* A record rewritten with its check made good (no accident: on
 * purpose) says the other winner; the certificate beside it does not
 * agree, so jobs refuses to print it. */
Test(store_hostile, record_against_its_certificate)
{
    Base b;
    make_base(&b, 36);
    char v[300], err[512] = "";
    Store *s = store_open(b.store, true, 0, err, sizeof err);
    cr_assert(s, "%s", err);
    WithCert wc = {.b = &b};
    store_foreach(s, with_cert, &wc, err, sizeof err);
    store_close(s);
    cr_assert(wc.found, "no record of the base store has a certificate file");
    snprintf(v, sizeof v, "%s/v", b.dir);
    s = store_open(v, false, 0, err, sizeof err);
    cr_assert(s, "%s", err);
    StoreValue lie = {wc.w == WINNER_ORDER ? WINNER_CHAOS : WINNER_ORDER, MOVE_NONE, STORE_DTW_UNKNOWN, 0,
                      STORE_SOURCE_HAND};
    cr_assert_eq(store_put(s, &wc.key, &lie, err, sizeof err), 0, "%s", err);
    store_close(s);
    char pos[NOTATION_POS_LEN];
    notation_format_position(wc.key.pos, 6, pos);
    Run r;
    run_argv(&r, ARGS("jobs", "--workers", "1", "--job-nodes", "1", "--job-tt-mb", "1", "--no-centre", "--quiet",
                      "--time-limit", "60", "--store", v, "--certs", b.certs, pos));
    cr_expect(r.exited && r.code == 1, "%s: exit %d [%s]", r.desc, r.code, r.err);
    cr_expect(strstr(r.err, "its certificate") && strstr(r.err, "says the other side"), "stderr [%s]", r.err);
    cr_expect(!strstr(r.out, "result: "), "a result against its certificate: %s", r.out);
    run_free(&r);
    free_base(&b);
}

/* A record's certificate file given a horizon line in its header (a
 * "not within 5 plies" claim, not a win): it no longer agrees with the
 * record, so jobs refuses to print the verdict it would take from it. */
Test(store_hostile, certificate_with_a_horizon)
{
    Base b;
    make_base(&b, 36);
    char err[512] = "", name[JOBRUN_NAME_MAX], path[700], cmd[1600];
    Store *s = store_open(b.store, true, 0, err, sizeof err);
    cr_assert(s, "%s", err);
    WithCert wc = {.b = &b};
    store_foreach(s, with_cert, &wc, err, sizeof err);
    store_close(s);
    cr_assert(wc.found, "no record of the base store has a certificate file");
    Rules r6;
    cr_assert_eq(rules_init(&r6, wc.key.n, wc.key.k, wc.key.rules, err, sizeof err), 0);
    jobrun_cert_name(&r6, wc.key.pos, name);
    snprintf(path, sizeof path, "%s/%s", b.certs, name);
    snprintf(cmd, sizeof cmd, "sed -i '/^winner /a horizon 5' %s && grep -q '^horizon 5$' %s", path, path);
    cr_assert_eq(system(cmd), 0, "%s", cmd);
    char pos[NOTATION_POS_LEN];
    notation_format_position(wc.key.pos, 6, pos);
    Run r;
    run_argv(&r, ARGS("jobs", "--workers", "1", "--job-nodes", "1", "--job-tt-mb", "1", "--no-centre", "--quiet",
                      "--time-limit", "60", "--store", b.store, "--certs", b.certs, pos));
    cr_expect(r.exited && r.code == 1, "%s: exit %d [%s]", r.desc, r.code, r.err);
    cr_expect(strstr(r.err, "its certificate") && strstr(r.err, "claims only a horizon"), "stderr [%s]", r.err);
    cr_expect(!strstr(r.out, "result: "), "a result from a horizon certificate: %s", r.out);
    run_free(&r);
    free_base(&b);
}

/* Raw LMDB on a store: delete the record with key k (del) or add a
 * record at k with a copy of another record's value (add). */
static void raw_edit(const char *dir, const uint8_t *k, bool del)
{
    MDB_env *env;
    MDB_txn *txn;
    MDB_dbi dbi;
    cr_assert_eq(mdb_env_create(&env), 0);
    cr_assert_eq(mdb_env_open(env, dir, 0, 0666), 0);
    cr_assert_eq(mdb_txn_begin(env, NULL, 0, &txn), 0);
    cr_assert_eq(mdb_dbi_open(txn, NULL, 0, &dbi), 0);
    MDB_val key = {STORE_KEY_BYTES, (void *)k}, val;
    if (del) cr_assert_eq(mdb_del(txn, dbi, &key, NULL), 0);
    else {
        cr_assert_eq(mdb_get(txn, dbi, &key, &val), 0);
        uint8_t nk[STORE_KEY_BYTES], nv[64];
        memcpy(nk, k, sizeof nk);
        memcpy(nv, val.mv_data, val.mv_size);
        nk[19] ^= 0x80; /* another position, with the first one's value */
        MDB_val k2 = {sizeof nk, nk}, v2 = {val.mv_size, nv};
        cr_assert_eq(mdb_put(txn, dbi, &k2, &v2, 0), 0);
    }
    cr_assert_eq(mdb_txn_commit(txn), 0);
    mdb_env_close(env);
}

/* A key changed in place, a record deleted, a record added: each is
 * found (its check, or the meta record's count and digest) and refused. */
Test(store_hostile, changed_lost_or_added_record_refused)
{
    Base b;
    make_base(&b, 34);
    size_t at = find(b.data, b.len, b.rootkey, sizeof b.rootkey);
    cr_assert_neq(at, (size_t)-1);
    char v[300];
    Run r;
    uint8_t *d = malloc(b.len);
    memcpy(d, b.data, b.len);
    d[at + 12] ^= 0x04; /* a key byte: now another position's key */
    variant(&b, d, b.len, v, sizeof v);
    run_argv(&r, ARGS("store", "stats", v));
    expect_refusal(&r, 2, "corrupt");
    run_free(&r);
    free(d);
    for (int del = 0; del < 2; del++) {
        variant(&b, b.data, b.len, v, sizeof v);
        raw_edit(v, b.rootkey, del == 1);
        run_jobs(&r, &b, v);
        expect_refusal(&r, 2, del ? "records where its meta record counts" : "corrupt");
        run_free(&r);
        run_argv(&r, ARGS("store", "export", v));
        expect_refusal(&r, 2, "corrupt");
        run_free(&r);
        run_argv(&r, ARGS("store", "check", v));
        cr_expect(r.exited && r.code == 1 && strstr(r.out, "is corrupt"), "check after %s: %d [%s]",
                  del ? "a delete" : "an add", r.code, r.out);
        run_free(&r);
    }
    free_base(&b);
}

/* The damage kinds the fuzz draws from. */
enum { D_TRUNCATE, D_FLIP, D_ZERO_PAGE, D_JUNK_PAGE, D_COPY_PAGE, D_HEADER, D_KINDS };
static const char *const damage_name[D_KINDS] = {"truncate", "flip", "zero-page", "junk-page", "copy-page", "header"};

/* Damages d (len bytes) in one of the ways; returns the new length. */
static size_t damage(uint8_t *d, size_t len, int kind, uint64_t *rng)
{
    size_t pages = len / PAGE, p = (size_t)tl_below(rng, (int)pages), q = (size_t)tl_below(rng, (int)pages);
    switch (kind) {
    case D_TRUNCATE: return (size_t)tl_below(rng, (int)len);
    case D_FLIP:
        for (int i = 1 + tl_below(rng, 8); i > 0; i--) d[tl_below(rng, (int)len)] ^= (uint8_t)(1 + tl_below(rng, 255));
        return len;
    case D_ZERO_PAGE: memset(d + p * PAGE, 0, PAGE); return len;
    case D_JUNK_PAGE:
        for (size_t i = 0; i < PAGE; i++) d[p * PAGE + i] = (uint8_t)tl_rand(rng);
        return len;
    case D_COPY_PAGE: memmove(d + p * PAGE, d + q * PAGE, PAGE); return len;
    default: /* a page header's or a node offset's bytes, where LMDB looks first */
        for (int i = 1 + tl_below(rng, 3); i > 0; i--) d[p * PAGE + tl_below(rng, 48)] = (uint8_t)tl_rand(rng);
        return len;
    }
}

typedef struct {
    int variants, refused, sound, crashed, wrong;
    int by_kind[D_KINDS][2]; /* refused, accepted */
} Tally;

/* One command on a damaged store: refused properly, or accepted with the
 * right answer; anything else fails. Returns 1 refused, 0 accepted. */
static int judge(Tally *t, Run *r, const Base *b, bool is_jobs)
{
    if (!r->exited) {
        t->crashed++;
        cr_expect(r->exited, "%s: killed by signal %d", r->desc, r->signo);
        return 1;
    }
    if (r->code != 0) {
        cr_expect_eq(r->code, 2, "%s: exit %d [%s]", r->desc, r->code, r->err);
        cr_expect_eq(count_char(r->err, r->errlen, '\n'), 1, "%s: stderr [%s]", r->desc, r->err);
        cr_expect(!strstr(r->out, "result: "), "%s: a result from a refused store", r->desc);
        return 1;
    }
    if (is_jobs) {
        char got[32] = "";
        line_value(r->out, "result: ", got, sizeof got);
        if (strcmp(got, winner_name(b->want)) != 0) t->wrong++;
        cr_expect_str_eq(got, winner_name(b->want), "%s: a wrong value from a damaged store", r->desc);
    }
    return 0;
}

Test(store_hostile, fuzz_refused_or_right)
{
    const char *env = getenv("OCS_STORE_FUZZ");
    int n = env ? atoi(env) : 120;
    Tally t = {0};
    uint64_t rng = 20261203;
    for (int round = 0; round < 2; round++) {
        Base b;
        make_base(&b, 35 + (uint64_t)round);
        uint8_t *d = malloc(b.len);
        for (int i = round; i < n; i += 2) {
            memcpy(d, b.data, b.len);
            int kind = i % D_KINDS;
            size_t len = damage(d, b.len, kind, &rng);
            char v[300];
            variant(&b, d, len, v, sizeof v);
            Run r;
            run_argv(&r, ARGS("store", "check", v));
            cr_expect(r.exited && (r.code == 0 || r.code == 1), "%s: exit %d signal %d", r.desc, r.code, r.signo);
            if (!r.exited) t.crashed++;
            bool check_bad = r.code != 0;
            run_free(&r);
            run_argv(&r, ARGS("store", "stats", v));
            int stats_refused = judge(&t, &r, &b, false);
            run_free(&r);
            /* check and the commands that trust the store agree */
            cr_expect_eq(check_bad, stats_refused == 1, "variant %d (%s): check %s, stats %s", i, damage_name[kind],
                         check_bad ? "corrupt" : "sound", stats_refused ? "refused" : "accepted");
            run_jobs(&r, &b, v);
            int jobs_refused = judge(&t, &r, &b, true);
            run_free(&r);
            t.variants++;
            t.by_kind[kind][jobs_refused ? 0 : 1]++;
            if (jobs_refused) t.refused++;
            else t.sound++;
        }
        free(d);
        free_base(&b);
    }
    for (int k = 0; k < D_KINDS; k++)
        cr_log_info("store fuzz: %-9s refused %d, accepted with the right value %d", damage_name[k], t.by_kind[k][0],
                    t.by_kind[k][1]);
    cr_log_info("store fuzz: %d variants, %d refused, %d accepted (right value), %d crashed, %d wrong", t.variants,
                t.refused, t.sound, t.crashed, t.wrong);
    cr_expect_eq(t.crashed, 0);
    cr_expect_eq(t.wrong, 0);
    cr_expect_geq(t.refused, t.variants / 2, "most damage must be found: %d of %d refused", t.refused, t.variants);
}
