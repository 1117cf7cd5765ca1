/* journal.c - see journal.h for the format and why it is only an estimate. */
#include "journal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#define XXH_INLINE_ALL
#include <xxhash.h>

#include "../engine/symmetry.h"
#include "errmsg.h"
#include "store.h"
#include "le.h"

/* The latest record of each position: open addressing, doubled at half
 * full. A zero board marks a free slot, so the empty board's record is
 * kept apart (root). */
typedef struct {
    Board key;
    JournalEntry e;
} JournalSlot;

struct Journal {
    FILE *f;
    char *path;
    StoreGame g;
    JournalSlot *slot;
    size_t cap, used;
    bool has_root, readonly;
    JournalEntry root; /* the empty board's record */
    JournalStats st;
};

static size_t journal_slot(const Journal *j, Board k)
{
    size_t i = (size_t)XXH3_64bits(k.s, sizeof k.s) & (j->cap - 1);
    while (!board_equal(j->slot[i].key, (Board){{0, 0}}) && !board_equal(j->slot[i].key, k)) i = (i + 1) & (j->cap - 1);
    return i;
}

static int remember(Journal *j, Board k, const JournalEntry *e);

static int grow(Journal *j)
{
    Journal t = *j;
    t.cap = j->cap ? 2 * j->cap : 1024;
    t.used = 0;
    t.slot = calloc(t.cap, sizeof *t.slot);
    if (!t.slot) return -1;
    for (size_t i = 0; i < j->cap; i++)
        if (!board_equal(j->slot[i].key, (Board){{0, 0}})) remember(&t, j->slot[i].key, &j->slot[i].e);
    free(j->slot);
    j->slot = t.slot;
    j->cap = t.cap;
    return 0;
}

/* Keeps e as k's latest record (k canonical). */
static int remember(Journal *j, Board k, const JournalEntry *e)
{
    if (board_equal(k, (Board){{0, 0}})) {
        j->st.positions += !j->has_root;
        j->has_root = true;
        j->root = *e;
        return 0;
    }
    if (2 * (j->used + 1) > j->cap && grow(j) != 0) return -1;
    size_t i = journal_slot(j, k);
    if (board_equal(j->slot[i].key, k)) {
        j->slot[i].e = *e;
        return 0;
    }
    j->slot[i] = (JournalSlot){k, *e};
    j->used++;
    j->st.positions++;
    return 0;
}

static void encode(Board k, const JournalEntry *e, uint8_t r[JOURNAL_RECORD])
{
    le_put(r, k.s[PIECE_X], 8);
    le_put(r + 8, k.s[PIECE_O], 8);
    le_put(r + 16, e->budget, 8);
    le_put(r + 24, e->pn, 4);
    le_put(r + 28, e->dn, 4);
    le_put(r + 32, XXH64(r, 32, JOURNAL_SEED), 8);
}

static bool undecided(const JournalEntry *e)
{
    return e->pn != 0 && e->dn != 0 && e->pn != UINT32_MAX && e->dn != UINT32_MAX;
}

/* Decodes a record; false when it fails its check or its rules. */
static bool decode(const Journal *j, const uint8_t r[JOURNAL_RECORD], Board *k, JournalEntry *e)
{
    if (le_get(r + 32, 8) != XXH64(r, 32, JOURNAL_SEED)) return false;
    *k = (Board){{le_get(r, 8), le_get(r + 8, 8)}};
    *e = (JournalEntry){.budget = le_get(r + 16, 8), .pn = (uint32_t)le_get(r + 24, 4), .dn = (uint32_t)le_get(r + 28, 4)};
    uint64_t cells = board_mask(j->g.n);
    if ((k->s[0] & k->s[1]) || (board_occupied(*k) & ~cells) || !undecided(e)) return false;
    return board_equal(sym_canonical(*k, j->g.n, NULL), *k);
}

static int read_header(Journal *j, char *err, int errlen)
{
    uint8_t h[JOURNAL_HEADER];
    if (fread(h, 1, sizeof h, j->f) != sizeof h || memcmp(h, JOURNAL_MAGIC, 8) != 0) {
        errmsg_set(err, errlen, "journal %s is not an ocsolve job journal of this version", j->path);
        return -1;
    }
    if (h[8] != j->g.rules || h[9] != j->g.n || h[10] != j->g.k) {
        errmsg_set(err, errlen, "journal %s is of another game (%s %dx%d k=%d), not %s %dx%d k=%d", j->path,
                   h[8] <= RULES_EXACT_END ? rules_name((RuleSet)h[8]) : "?", h[9], h[9], h[10],
                   rules_name(j->g.rules), j->g.n, j->g.n, j->g.k);
        return -1;
    }
    return 0;
}

/* Reads every record; a bad one is corruption unless it is the last, a
 * torn append, which is cut off. */
static int read_records(Journal *j, long size, char *err, int errlen)
{
    long n = (size - JOURNAL_HEADER) / JOURNAL_RECORD;
    bool partial = (size - JOURNAL_HEADER) % JOURNAL_RECORD != 0;
    long good = 0;
    for (long i = 0; i < n; i++) {
        uint8_t r[JOURNAL_RECORD];
        Board k;
        JournalEntry e;
        if (fread(r, 1, sizeof r, j->f) != sizeof r) {
            errmsg_set(err, errlen, "journal %s: read error", j->path);
            return -1;
        }
        if (!decode(j, r, &k, &e)) {
            if (i == n - 1 && !partial) break; /* the last whole record: torn */
            errmsg_set(err, errlen, "journal %s is corrupt: record %ld of %ld fails its check", j->path, i + 1, n);
            return -1;
        }
        if (remember(j, k, &e) != 0) {
            errmsg_set(err, errlen, "journal %s: out of memory", j->path);
            return -1;
        }
        good++;
    }
    j->st.records = (uint64_t)good;
    long keep = JOURNAL_HEADER + good * JOURNAL_RECORD;
    if (keep != size) {
        j->st.torn = 1;
        if (j->readonly) return 0; /* a reader never cuts: the writer may be appending */
        if (fflush(j->f) != 0 || ftruncate(fileno(j->f), keep) != 0) {
            errmsg_set(err, errlen, "journal %s: cannot cut its torn last record: %s", j->path, strerror(errno));
            return -1;
        }
    }
    if (fseek(j->f, keep, SEEK_SET) != 0) {
        errmsg_set(err, errlen, "journal %s: %s", j->path, strerror(errno));
        return -1;
    }
    return 0;
}

/* Writes the header of an empty journal. */
static int write_header(Journal *j, char *err, int errlen)
{
    uint8_t h[JOURNAL_HEADER] = {0};
    memcpy(h, JOURNAL_MAGIC, 8);
    h[8] = (uint8_t)j->g.rules, h[9] = (uint8_t)j->g.n, h[10] = (uint8_t)j->g.k;
    if (fseek(j->f, 0, SEEK_SET) != 0 || fwrite(h, 1, sizeof h, j->f) != sizeof h || fflush(j->f) != 0) {
        errmsg_set(err, errlen, "journal %s: write error: %s", j->path, strerror(errno));
        return -1;
    }
    return 0;
}

static int load_or_create(Journal *j, char *err, int errlen)
{
    j->f = fopen(j->path, j->readonly ? "rb" : "r+b");
    if (!j->f && errno == ENOENT && !j->readonly) j->f = fopen(j->path, "w+b");
    if (!j->f) {
        errmsg_set(err, errlen, "journal %s: %s", j->path, strerror(errno));
        return -1;
    }
    struct stat s;
    if (fstat(fileno(j->f), &s) != 0) {
        errmsg_set(err, errlen, "journal %s: %s", j->path, strerror(errno));
        return -1;
    }
    /* New, or left empty by a kill between its creation and its header. */
    if (s.st_size == 0 && j->readonly) return 0;
    if (s.st_size == 0 && write_header(j, err, errlen) != 0) return -1;
    if (s.st_size == 0) s.st_size = JOURNAL_HEADER;
    if (fseek(j->f, 0, SEEK_SET) != 0) {
        errmsg_set(err, errlen, "journal %s: %s", j->path, strerror(errno));
        return -1;
    }
    if (read_header(j, err, errlen) != 0) return -1;
    return read_records(j, (long)s.st_size, err, errlen);
}

static Journal *open_as(const char *path, const StoreGame *g, bool readonly, char *err, int errlen)
{
    Journal *j = calloc(1, sizeof *j);
    if (!j || !(j->path = strdup(path))) {
        free(j);
        errmsg_set(err, errlen, "journal %s: out of memory", path);
        return NULL;
    }
    j->g = *g;
    j->readonly = readonly;
    if (load_or_create(j, err, errlen) != 0) {
        journal_close(j);
        return NULL;
    }
    return j;
}

void journal_path(const char *store_dir, char *out, size_t len) { snprintf(out, len, "%s/journal", store_dir); }

void journal_path_within(const char *store_dir, int pieces, char *out, size_t len)
{
    snprintf(out, len, "%s/journal-within-%d", store_dir, pieces);
}

/* A process forbidden to open stores (store_forbid) opens no journal
 * either: the journal lives in the store's folder, with the same reason. */
Journal *journal_open(const char *path, const StoreGame *g, char *err, int errlen)
{
    if (store_forbidden()) {
        errmsg_set(err, errlen, "journal %s: not opened: this process is %s", path, store_forbidden());
        return NULL;
    }
    return open_as(path, g, false, err, errlen);
}

Journal *journal_open_readonly(const char *path, const StoreGame *g, char *err, int errlen)
{
    if (store_forbidden()) {
        errmsg_set(err, errlen, "journal %s: not opened: this process is %s", path, store_forbidden());
        return NULL;
    }
    return open_as(path, g, true, err, errlen);
}

int journal_put(Journal *j, Board b, const JournalEntry *e, char *err, int errlen)
{
    if (j->readonly) {
        errmsg_set(err, errlen, "journal %s: opened read-only", j->path);
        return -1;
    }
    if (!undecided(e)) {
        errmsg_set(err, errlen, "journal %s: a record with a decided number (pn %u, dn %u)", j->path, e->pn, e->dn);
        return -1;
    }
    Board k = sym_canonical(b, j->g.n, NULL);
    uint8_t r[JOURNAL_RECORD];
    encode(k, e, r);
    if (fwrite(r, 1, sizeof r, j->f) != sizeof r || fflush(j->f) != 0) {
        errmsg_set(err, errlen, "journal %s: write error: %s", j->path, strerror(errno));
        return -1;
    }
    if (remember(j, k, e) != 0) {
        errmsg_set(err, errlen, "journal %s: out of memory", j->path);
        return -1;
    }
    j->st.records++;
    return 0;
}

bool journal_get(const Journal *j, Board b, JournalEntry *out)
{
    Board k = sym_canonical(b, j->g.n, NULL);
    if (board_equal(k, (Board){{0, 0}})) {
        if (j->has_root) *out = j->root;
        return j->has_root;
    }
    if (j->cap == 0) return false;
    size_t i = journal_slot(j, k);
    if (!board_equal(j->slot[i].key, k)) return false;
    *out = j->slot[i].e;
    return true;
}

void journal_stats(const Journal *j, JournalStats *out) { *out = j->st; }

void journal_close(Journal *j)
{
    if (!j) return;
    if (j->f) fclose(j->f);
    free(j->slot);
    free(j->path);
    free(j);
}
