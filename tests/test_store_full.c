/* test_store_full.c - a store of decided positions (tables/store.h) that
 * fills up: a full map grows, and a map at its limit, a write error (a file
 * size limit) and a map that cannot grow (an address space limit) each
 * fail with one line and lose no earlier put. Suite store, declared in
 * test_store.c. */
#include <criterion/criterion.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../tables/store.h"
#include "testlib.h"
#include "tstore.h"

/* A store opened with a 1 MiB map takes more than 1 MiB: a full map is
 * doubled and the put retried. */
Test(store, map_grows)
{
    char dir[64], err[256];
    tl_tmp_dir(dir, sizeof dir, "store");
    Store *s = tstore_open_ok(dir, false);
    /* Tens of thousands of puts: without a flush each (on a busy machine
     * the flushes alone took over a minute). */
    cr_assert_eq(store_set_durable(s, false), 0);
    StoreStats st;
    bool grew = false;
    for (int i = 0; i < 60000 && !grew; i++) {
        /* 8x8 keys: X on the first 16 cells as i's bits, one O on cell 63
         * (a few are images of one another; the map fills all the same). */
        StoreKey k = {RULES_ORIGINAL, 8, 5, {{(uint64_t)i, 1ULL << 63}}};
        StoreValue v = {WINNER_CHAOS, MOVE_NONE, STORE_DTW_UNKNOWN, 0, STORE_SOURCE_DFPN};
        cr_assert_eq(store_put(s, &k, &v, err, sizeof err), 0, "put %d: %s", i, err);
        if (i % 2000 == 1999) {
            cr_assert_eq(store_stats(s, &st, err, sizeof err), 0, "%s", err);
            grew = st.map_bytes > (1u << 20);
        }
    }
    cr_expect(grew, "the map never grew");
    cr_assert_eq(store_stats(s, &st, err, sizeof err), 0, "%s", err);
    cr_expect(st.file_bytes > (1u << 20), "file %llu bytes", (unsigned long long)st.file_bytes);
    store_close(s);
    tl_rm_dir(dir);
}

/* ------------------------------------------------------------------ */
/* A store that fills up                                               */
/* ------------------------------------------------------------------ */

/* 8x8 keys as in map_grows: X on the first 16 cells as i's bits. */
static StoreKey fill_key(int i) { return (StoreKey){RULES_ORIGINAL, 8, 5, {{(uint64_t)i, 1ULL << 63}}}; }

/* Puts fill keys until a put fails (at most max); the count that went in,
 * the failure's message in err (empty if none failed). */
static int fill(Store *s, int max, char *err, int errlen)
{
    err[0] = '\0';
    StoreValue v = {WINNER_CHAOS, MOVE_NONE, STORE_DTW_UNKNOWN, 0, STORE_SOURCE_DFPN};
    for (int i = 0; i < max; i++) {
        StoreKey k = fill_key(i);
        if (store_put(s, &k, &v, err, errlen) != 0) return i;
    }
    return max;
}

/* Every put that returned 0 is there, read by a fresh read-only open. */
static void expect_entries(const char *dir, int count)
{
    Store *s = tstore_open_ok(dir, true);
    StoreStats st;
    char err[256];
    cr_assert_eq(store_stats(s, &st, err, sizeof err), 0, "%s", err);
    /* A few fill keys are images of others (one record): at most count. */
    cr_expect(st.entries > 0 && st.entries <= (uint64_t)count, "%llu entries for %d puts",
              (unsigned long long)st.entries, count);
    for (int i = 0; i < count; i++) {
        StoreKey k = fill_key(i);
        StoreValue got;
        cr_assert_eq(store_get(s, &k, &got), 1, "put %d of %d lost", i, count);
    }
    store_close(s);
}

Test(store, map_limit_reached)
{
    char dir[64], err[512];
    tl_tmp_dir(dir, sizeof dir, "store");
    Store *s = tstore_open_ok(dir, false);
    cr_assert_eq(store_set_durable(s, false), 0);
    store_set_map_limit(s, 2u << 20);
    int in = fill(s, 200000, err, sizeof err);
    cr_assert(in > 1000 && in < 200000, "%d puts before the map filled: %s", in, err);
    char want[128];
    snprintf(want, sizeof want, "store %s is full: its map is at its limit of 2.0 MiB", dir);
    cr_expect(strstr(err, want) != NULL, "message: %s", err);
    /* Still usable: a put of a stored key (nothing new) and reads work. */
    StoreKey k = fill_key(0);
    StoreValue v = {WINNER_CHAOS, MOVE_NONE, STORE_DTW_UNKNOWN, 0, STORE_SOURCE_DFPN}, got;
    cr_expect_eq(store_put(s, &k, &v, err, sizeof err), 0, "%s", err);
    cr_expect_eq(store_get(s, &k, &got), 1, "%s", store_error(s));
    store_close(s);
    expect_entries(dir, in);
    tl_rm_dir(dir);
}

/* The disk full, simulated by a file size limit (RLIMIT_FSIZE: LMDB's
 * writes fail with EFBIG) in a child: the put fails with the store's name
 * and the cause, and every earlier put stays. */
/* Runs body(s, out) in a child on a fresh store in dir (1 MiB map, not
 * durable), where it may limit the child's resources; the parent gets the
 * child's report "PUTS RC\nFIRST-ERROR\nLATER-ERROR\n" in out and the
 * numbers in *in and *rc. */
typedef void (*ChildBody)(Store *s, char out[1200]);
static void in_child(const char *dir, ChildBody body, char out[1200], int *in, int *rc)
{
    int msg[2];
    cr_assert_eq(pipe(msg), 0);
    pid_t kid = fork();
    cr_assert(kid >= 0);
    if (kid == 0) {
        char err[512];
        Store *s = store_open(dir, false, 1, err, sizeof err);
        if (!s || store_set_durable(s, false) != 0) _exit(1);
        char rep[1200];
        body(s, rep);
        size_t len = strlen(rep);
        _exit(write(msg[1], rep, len) == (ssize_t)len ? 0 : 3);
    }
    int status;
    cr_assert_eq(waitpid(kid, &status, 0), kid);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child status %d", status);
    memset(out, 0, 1200);
    cr_assert(read(msg[0], out, 1199) > 0);
    close(msg[0]);
    close(msg[1]);
    cr_assert_eq(sscanf(out, "%d %d", in, rc), 2, "%s", out);
}

static void fill_past_file_limit(Store *s, char out[1200])
{
    char err[512] = "";
    signal(SIGXFSZ, SIG_IGN); /* a write past the limit fails instead of killing */
    struct rlimit rl = {256 << 10, 256 << 10};
    if (setrlimit(RLIMIT_FSIZE, &rl) != 0) _exit(2);
    int in = fill(s, 200000, err, sizeof err);
    char again[512] = "";
    StoreKey k = fill_key(in);
    StoreValue v = {WINNER_CHAOS, MOVE_NONE, STORE_DTW_UNKNOWN, 0, STORE_SOURCE_DFPN};
    int rc = store_put(s, &k, &v, again, sizeof again);
    store_close(s);
    snprintf(out, 1200, "%d %d\n%s\n%s\n", in, rc, err, again);
}

Test(store, write_error_reported)
{
    char dir[64];
    tl_tmp_dir(dir, sizeof dir, "store");
    char out[1200];
    int in = 0, rc = 0;
    in_child(dir, fill_past_file_limit, out, &in, &rc);
    cr_expect(in > 100 && in < 200000, "%d puts: %s", in, out);
    /* LMDB names a write refused at the limit EFBIG, and one cut short
     * there (part of it written) EIO: which one depends on where the
     * limit falls in the write (a put writes its record and the meta
     * record) */
    char want[128], want2[128];
    snprintf(want, sizeof want, "store %s: cannot write: File too large\n", dir);
    snprintf(want2, sizeof want2, "store %s: cannot write: Input/output error\n", dir);
    cr_expect(strstr(out, want) || strstr(out, want2), "first failure: %s", out);
    cr_expect_eq(rc, -1, "a put after the failure: %s", out);
    expect_entries(dir, in);
    tl_rm_dir(dir);
}

#ifndef OCS_SANITIZE
/* A map that cannot grow: the address space limited (RLIMIT_AS) in a
 * child, so that LMDB's mmap of the doubled map fails. The Store is then
 * unusable, and says so, rather than touching a missing map. (Not under
 * ASan, which reserves terabytes of address space.) */
static long vm_bytes(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    long pages = 0;
    if (!f) return -1;
    if (fscanf(f, "%ld", &pages) != 1) pages = -1;
    fclose(f);
    return pages < 0 ? -1 : pages * sysconf(_SC_PAGESIZE);
}

static void fill_past_address_space(Store *s, char out[1200])
{
    char err[512] = "";
    long vm = vm_bytes();
    /* Room for growing the map to 2 and 4 MiB (the old one is unmapped
     * first), not to 8. */
    struct rlimit rl = {(rlim_t)vm + (5 << 20), (rlim_t)vm + (5 << 20)};
    if (vm < 0 || setrlimit(RLIMIT_AS, &rl) != 0) _exit(2);
    int in = fill(s, 400000, err, sizeof err);
    StoreKey k = fill_key(0);
    StoreValue v;
    int rc = store_get(s, &k, &v);
    char again[512];
    snprintf(again, sizeof again, "%s", store_error(s));
    store_close(s);
    snprintf(out, 1200, "%d %d\n%s\n%s\n", in, rc, err, again);
}

Test(store, map_cannot_grow)
{
    char dir[64];
    tl_tmp_dir(dir, sizeof dir, "store");
    char out[1200];
    int in = 0, rc = 0;
    in_child(dir, fill_past_address_space, out, &in, &rc);
    char want[256];
    snprintf(want, sizeof want, "store %s is full and its map cannot grow from ", dir);
    cr_expect(strstr(out, want) && strstr(out, " MiB: Cannot allocate memory\n"), "failure: %s", out);
    cr_expect_eq(rc, -1, "a get after the failure: %s", out);
    expect_entries(dir, in);
    tl_rm_dir(dir);
}
#endif
