/* checkpoint.c - see checkpoint.h. */
#include "checkpoint.h"

#include "../engine/rules.h"
#include "errmsg.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#define XXH_INLINE_ALL
#include <xxhash.h>

static const char ckpt_magic[8] = "OCSCKPT";
enum { CKPT_HEADER = 72, CKPT_ENTRY = 32, CKPT_ORDER = 0x01020304 };

/* A table entry as written (checkpoint.h). */
typedef struct {
    uint64_t key[2];
    uint32_t pn, dn, work;
    uint8_t move, flags, zero[2];
} CkptRecord;
_Static_assert(sizeof(CkptRecord) == CKPT_ENTRY, "a record is 32 bytes");

static void put32(unsigned char *p, uint32_t v) { memcpy(p, &v, 4); }
static void put64(unsigned char *p, uint64_t v) { memcpy(p, &v, 8); }
static uint32_t get32(const unsigned char *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}
static uint64_t get64(const unsigned char *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

static void header_encode(unsigned char *h, const CkptInfo *in, uint64_t count)
{
    memset(h, 0, CKPT_HEADER);
    memcpy(h, ckpt_magic, 8);
    put32(h + 8, CKPT_VERSION);
    put32(h + 12, CKPT_ORDER);
    put32(h + 16, in->rules);
    put32(h + 20, in->n);
    put32(h + 24, in->k);
    put32(h + 28, in->scheme);
    put64(h + 32, in->root.s[0]);
    put64(h + 40, in->root.s[1]);
    put64(h + 48, in->nodes);
    memcpy(h + 56, &in->seconds, 8);
    put64(h + 64, count);
}

static uint64_t used_entries(const TT *t)
{
    uint64_t n = 0;
    Board key;
    TTData d;
    for (size_t i = 0; i < tt_capacity(t); i++) n += tt_entry(t, i, &key, &d);
    return n;
}

int ckpt_save(const char *path, TT *t, const CkptInfo *info, uint64_t *saved, char *err, size_t errlen)
{
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp) return errmsg_set(err, (int)errlen, "checkpoint path too long");
    FILE *f = fopen(tmp, "wb");
    if (!f) return errmsg_set(err, (int)errlen, "cannot write checkpoint '%s': %s", tmp, strerror(errno));
    setvbuf(f, NULL, _IOFBF, 1 << 20);
    uint64_t count = used_entries(t);
    unsigned char h[CKPT_HEADER];
    header_encode(h, info, count);
    XXH3_state_t *st = XXH3_createState();
    if (!st) {
        fclose(f);
        remove(tmp);
        return errmsg_set(err, (int)errlen, "out of memory writing a checkpoint");
    }
    XXH3_64bits_reset(st);
    XXH3_64bits_update(st, h, sizeof h);
    bool ok = fwrite(h, sizeof h, 1, f) == 1;
    /* The caller has stopped every searching thread: the table is still. */
    for (size_t i = 0; i < tt_capacity(t) && ok; i++) {
        Board key;
        TTData d;
        if (!tt_entry(t, i, &key, &d)) continue;
        CkptRecord e = {{key.s[0], key.s[1]}, d.pn, d.dn, d.work, d.move, 1, {0, 0}};
        XXH3_64bits_update(st, &e, sizeof e);
        ok = fwrite(&e, sizeof e, 1, f) == 1;
    }
    unsigned char sum[8];
    put64(sum, XXH3_64bits_digest(st));
    XXH3_freeState(st);
    ok = ok && fwrite(sum, 8, 1, f) == 1 && fflush(f) == 0 && fsync(fileno(f)) == 0;
    int saved_errno = errno;
    if (fclose(f) != 0) ok = false;
    if (!ok) {
        remove(tmp);
        return errmsg_set(err, (int)errlen, "cannot write checkpoint '%s': %s", tmp, strerror(saved_errno));
    }
    if (rename(tmp, path) != 0) {
        saved_errno = errno;
        remove(tmp);
        return errmsg_set(err, (int)errlen, "cannot rename checkpoint to '%s': %s", path, strerror(saved_errno));
    }
    *saved = count;
    return 0;
}

/* Reads the whole file once to check its checksum; with t, a second time
 * to store its entries. */
static int ckpt_pass(FILE *f, uint64_t count, TT *t, uint64_t *sum_out)
{
    XXH3_state_t *st = XXH3_createState();
    if (!st) return -1;
    XXH3_64bits_reset(st);
    unsigned char h[CKPT_HEADER];
    int rc = fseek(f, 0, SEEK_SET) == 0 && fread(h, sizeof h, 1, f) == 1 ? 0 : -1;
    XXH3_64bits_update(st, h, sizeof h);
    CkptRecord buf[4096];
    for (uint64_t done = 0; done < count && rc == 0;) {
        size_t want = count - done < 4096 ? (size_t)(count - done) : 4096;
        if (fread(buf, sizeof buf[0], want, f) != want) {
            rc = -1;
            break;
        }
        XXH3_64bits_update(st, buf, want * sizeof buf[0]);
        for (size_t i = 0; t && i < want; i++) {
            Board key = {{buf[i].key[0], buf[i].key[1]}};
            TTData d = {buf[i].pn, buf[i].dn, buf[i].work, buf[i].move};
            tt_store(t, key, &d);
        }
        done += want;
    }
    *sum_out = XXH3_64bits_digest(st);
    XXH3_freeState(st);
    return rc;
}

int ckpt_load(const char *path, TT *t, const CkptInfo *want, CkptInfo *got, uint64_t *loaded, char *err,
              size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) return errmsg_set(err, (int)errlen, "cannot read checkpoint '%s': %s", path, strerror(errno));
    struct stat sb;
    unsigned char h[CKPT_HEADER];
    int rc = -1;
    if (fstat(fileno(f), &sb) != 0 || sb.st_size < CKPT_HEADER + 8 || fread(h, sizeof h, 1, f) != 1) {
        errmsg_set(err, (int)errlen, "checkpoint '%s' is truncated (no complete header)", path);
        goto out;
    }
    if (memcmp(h, ckpt_magic, 8) != 0) {
        errmsg_set(err, (int)errlen, "'%s' is not an ocsolve checkpoint", path);
        goto out;
    }
    if (get32(h + 8) != CKPT_VERSION || get32(h + 12) != CKPT_ORDER) {
        errmsg_set(err, (int)errlen, "checkpoint '%s' has format version %u (this ocsolve reads %u) or another byte order", path,
             get32(h + 8), CKPT_VERSION);
        goto out;
    }
    *got = (CkptInfo){get32(h + 16), get32(h + 20), get32(h + 24), get32(h + 28), {{get64(h + 32), get64(h + 40)}},
                      get64(h + 48), 0};
    memcpy(&got->seconds, h + 56, 8);
    uint64_t count = get64(h + 64);
    if (count > ((uint64_t)sb.st_size - CKPT_HEADER - 8) / CKPT_ENTRY ||
        (uint64_t)sb.st_size != CKPT_HEADER + count * CKPT_ENTRY + 8) {
        errmsg_set(err, (int)errlen, "checkpoint '%s' is truncated or has trailing bytes (%lld bytes for %llu entries)", path,
             (long long)sb.st_size, (unsigned long long)count);
        goto out;
    }
    uint64_t sum;
    unsigned char stored[8];
    if (ckpt_pass(f, count, NULL, &sum) != 0 || fread(stored, 8, 1, f) != 1) {
        errmsg_set(err, (int)errlen, "cannot read checkpoint '%s'", path);
        goto out;
    }
    if (sum != get64(stored)) {
        errmsg_set(err, (int)errlen, "checkpoint '%s' is corrupt (checksum mismatch)", path);
        goto out;
    }
    if (got->rules != want->rules || got->n != want->n || got->k != want->k) {
        errmsg_set(err, (int)errlen, "checkpoint '%s' is for other rules or board (%s rules, %ux%u, k=%u)", path,
             got->rules <= RULES_EXACT_END ? rules_name((RuleSet)got->rules) : "unknown", got->n, got->n, got->k);
        goto out;
    }
    if (!board_equal(got->root, want->root)) {
        errmsg_set(err, (int)errlen, "checkpoint '%s' is for another root position", path);
        goto out;
    }
    if (got->scheme != want->scheme) {
        errmsg_set(err, (int)errlen, "checkpoint '%s' was made with other dead-cell/symmetry settings (key scheme %u, this run %u)",
             path, got->scheme, want->scheme);
        goto out;
    }
    if (ckpt_pass(f, count, t, &sum) != 0) {
        errmsg_set(err, (int)errlen, "cannot read checkpoint '%s'", path);
        goto out;
    }
    *loaded = count;
    rc = 0;
out:
    fclose(f);
    return rc;
}
