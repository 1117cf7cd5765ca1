/* store_file.c - see store_file.h. Every number on a page is read with
 * le.h from a buffer this file filled with pread; nothing is ever read
 * through a pointer found in the file. */
#include "store_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "errmsg.h"
#include "le.h"

enum {
    PAGE_HDR = 16, /* pgno 8, pad 2, flags 2, lower 2, upper 2 */
    NODE_HDR = 8,  /* lo 2, hi 2, flags 2, ksize 2 */
    META_AT = 16,  /* MDB_meta after the page header */
    META_BYTES = 136,
    P_BRANCH = 0x01, P_LEAF = 0x02, P_OVERFLOW = 0x04, P_META = 0x08,
    P_IGNORED = 0x10 | 0x8000, /* P_DIRTY, P_KEEP: in-memory marks LMDB may leave */
    F_BIGDATA = 0x01,
    INTEGERKEY = 0x08, /* MDB_INTEGERKEY, the free list's flag */
    MAX_DEPTH = 32,    /* LMDB's CURSOR_STACK */
    MIN_PSIZE = 512, MAX_PSIZE = 32768,
};
#define LMDB_MAGIC 0xBEEFC0DEu
#define NO_PAGE UINT64_MAX /* P_INVALID: an empty tree's root */
/* A map of more than this is no store's: a hostile mapsize would only
 * make mmap fail, but say so plainly. */
#define MAX_MAP_BYTES (1ULL << 46)

typedef struct {
    uint32_t pad;
    uint16_t flags, depth;
    uint64_t branch, leaf, overflow, entries, root;
} Db;

typedef struct {
    uint64_t pgno;
    uint16_t flags;
    uint32_t magic, version;
    uint64_t mapsize, last, txnid;
    Db dbs[2]; /* 0 the free list, 1 the main database */
} Meta;

typedef struct {
    int fd;
    uint64_t psize, last, size;
    uint8_t *live;  /* a bit per page reached from a tree */
    uint8_t *freed; /* a bit per page the free list names */
    uint8_t *buf[MAX_DEPTH + 1];
    uint8_t *big;   /* an overflow run's bytes (the free list's) */
    size_t big_cap;
    int tree;       /* 0 the free list, 1 the main database */
    const Db *db;
    uint64_t branch, leaf, overflow, entries;
    uint64_t *freelist; /* page numbers the free list names */
    size_t nfree, free_cap;
    char *err;
    int errlen;
} Walk;

static const char *tree_name(const Walk *w) { return w->tree ? "the main database" : "the free list"; }

static int corrupt(Walk *w, const char *fmt, uint64_t a, uint64_t b)
{
    char what[200];
    snprintf(what, sizeof what, fmt, (unsigned long long)a, (unsigned long long)b);
    errmsg_set(w->err, w->errlen, "data.mdb is corrupt: %s: %s", tree_name(w), what);
    return -1;
}

static int read_at(int fd, uint8_t *buf, size_t len, uint64_t off)
{
    size_t got = 0;
    while (got < len) {
        ssize_t r = pread(fd, buf + got, len - got, (off_t)(off + got));
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return -1;
        got += (size_t)r;
    }
    return 0;
}

static void db_decode(const uint8_t *p, Db *d)
{
    d->pad = (uint32_t)le_get(p, 4);
    d->flags = (uint16_t)le_get(p + 4, 2);
    d->depth = (uint16_t)le_get(p + 6, 2);
    d->branch = le_get(p + 8, 8);
    d->leaf = le_get(p + 16, 8);
    d->overflow = le_get(p + 24, 8);
    d->entries = le_get(p + 32, 8);
    d->root = le_get(p + 40, 8);
}

static void meta_decode(const uint8_t *p, Meta *m)
{
    m->pgno = le_get(p, 8);
    m->flags = (uint16_t)le_get(p + 10, 2);
    const uint8_t *q = p + META_AT;
    m->magic = (uint32_t)le_get(q, 4);
    m->version = (uint32_t)le_get(q + 4, 4);
    m->mapsize = le_get(q + 16, 8);
    db_decode(q + 24, &m->dbs[0]);
    db_decode(q + 72, &m->dbs[1]);
    m->last = le_get(q + 120, 8);
    m->txnid = le_get(q + 128, 8);
}

/* Both meta pages, checked alone; *pick is the one LMDB uses. */
static int read_metas(int fd, uint64_t size, Meta m[2], const Meta **pick, char *err, int errlen)
{
    uint8_t b[PAGE_HDR + META_BYTES];
    if (size < sizeof b || read_at(fd, b, sizeof b, 0) != 0) {
        errmsg_set(err, errlen, "data.mdb is not an LMDB file (%llu bytes, too short for its meta page)",
                   (unsigned long long)size);
        return -1;
    }
    meta_decode(b, &m[0]);
    uint64_t ps = m[0].dbs[0].pad;
    if (m[0].magic != LMDB_MAGIC || !(m[0].flags & P_META)) {
        errmsg_set(err, errlen, "data.mdb is not an LMDB file (no LMDB magic in its first meta page)");
        return -1;
    }
    if (ps < MIN_PSIZE || ps > MAX_PSIZE || (ps & (ps - 1))) {
        errmsg_set(err, errlen, "data.mdb is corrupt: page size %llu (a power of two, %d to %d)",
                   (unsigned long long)ps, MIN_PSIZE, MAX_PSIZE);
        return -1;
    }
    if (size < 2 * ps || read_at(fd, b, sizeof b, ps) != 0) {
        errmsg_set(err, errlen, "data.mdb is truncated: %llu bytes, less than its two meta pages of %llu",
                   (unsigned long long)size, (unsigned long long)ps);
        return -1;
    }
    meta_decode(b, &m[1]);
    for (int i = 0; i < 2; i++) {
        if (m[i].magic != LMDB_MAGIC || !(m[i].flags & P_META) || m[i].pgno != (uint64_t)i) {
            errmsg_set(err, errlen, "data.mdb is corrupt: meta page %d is not one", i);
            return -1;
        }
        if (m[i].version != 1) {
            errmsg_set(err, errlen, "data.mdb has LMDB data version %u (this LMDB reads 1)", m[i].version);
            return -1;
        }
        if (m[i].dbs[0].pad != ps) {
            errmsg_set(err, errlen, "data.mdb is corrupt: its meta pages disagree on the page size");
            return -1;
        }
    }
    *pick = &m[m[0].txnid < m[1].txnid ? 1 : 0];
    return 0;
}

/* The meta LMDB uses, against the file. */
static int check_lmdb_meta(const Meta *m, uint64_t size, char *err, int errlen)
{
    uint64_t ps = m->dbs[0].pad;
    if (m->last < 1 || m->last >= size / ps) {
        errmsg_set(err, errlen,
                   "data.mdb is truncated: %llu pages of %llu bytes, its meta page (txn %llu) needs %llu",
                   (unsigned long long)(size / ps), (unsigned long long)ps, (unsigned long long)m->txnid,
                   (unsigned long long)(m->last + 1));
        return -1;
    }
    if (m->mapsize > MAX_MAP_BYTES) {
        errmsg_set(err, errlen, "data.mdb is corrupt: a map of %llu bytes", (unsigned long long)m->mapsize);
        return -1;
    }
    if (m->dbs[0].flags != INTEGERKEY || m->dbs[1].flags != 0 || m->dbs[1].pad != 0) {
        errmsg_set(err, errlen, "data.mdb is corrupt or not a store's: database flags 0x%x and 0x%x",
                   m->dbs[0].flags, m->dbs[1].flags);
        return -1;
    }
    return 0;
}

/* Keys in LMDB's order: the free list's as 8-byte integers, the main
 * database's by memcmp, a shorter key first on a tie. */
static int key_cmp(const Walk *w, const uint8_t *a, size_t al, const uint8_t *b, size_t bl)
{
    if (w->tree == 0) {
        uint64_t x = le_get(a, 8), y = le_get(b, 8);
        return x < y ? -1 : x > y;
    }
    int c = memcmp(a, b, al < bl ? al : bl);
    return c ? c : al < bl ? -1 : al > bl;
}

typedef struct {
    const uint8_t *key;
    size_t len; /* a bound is absent when key is NULL */
} Bound;

/* Marks page p reached; 0, or -1 when it is off the tree's range or was
 * reached already. */
static int reach(Walk *w, uint64_t p)
{
    if (p < 2 || p > w->last) return corrupt(w, "page %llu is outside pages 2..%llu", p, w->last);
    if (w->live[p >> 3] & (1u << (p & 7))) return corrupt(w, "page %llu is reached twice", p, 0);
    w->live[p >> 3] |= (uint8_t)(1u << (p & 7));
    return 0;
}

/* The overflow run starting at p holding dsize bytes; with copy, its
 * bytes go to w->big. */
static int overflow_run(Walk *w, uint64_t p, uint64_t dsize, bool copy)
{
    uint8_t h[PAGE_HDR];
    if (p < 2 || p > w->last || read_at(w->fd, h, sizeof h, p * w->psize) != 0)
        return corrupt(w, "overflow page %llu is outside pages 2..%llu", p, w->last);
    uint64_t n = le_get(h + 12, 4);
    if (le_get(h, 8) != p || (le_get(h + 10, 2) & ~P_IGNORED) != P_OVERFLOW || n == 0 || n > w->last - p + 1)
        return corrupt(w, "overflow page %llu is not one (or runs past the last page, %llu)", p, w->last);
    if (dsize > n * w->psize - PAGE_HDR) return corrupt(w, "%llu bytes do not fit overflow page %llu", dsize, p);
    for (uint64_t i = 0; i < n; i++)
        if (reach(w, p + i) != 0) return -1;
    w->overflow += n;
    if (!copy) return 0;
    if (dsize > w->big_cap) {
        uint8_t *nb = realloc(w->big, dsize);
        if (!nb) return corrupt(w, "out of memory for %llu bytes", dsize, 0);
        w->big = nb;
        w->big_cap = dsize;
    }
    if (read_at(w->fd, w->big, dsize, p * w->psize + PAGE_HDR) != 0)
        return corrupt(w, "overflow page %llu cannot be read", p, 0);
    return 0;
}

/* A free-list record's data: a count, then that many page numbers. */
static int free_record(Walk *w, const uint8_t *d, uint64_t dsize)
{
    uint64_t n = dsize >= 8 ? le_get(d, 8) : 0;
    if (dsize < 8 || dsize % 8 || n != dsize / 8 - 1)
        return corrupt(w, "a record of %llu bytes is no page list (count %llu)", dsize, n);
    for (uint64_t i = 1; i <= n; i++) {
        uint64_t p = le_get(d + 8 * i, 8);
        if (p < 2 || p > w->last) return corrupt(w, "free page %llu is outside pages 2..%llu", p, w->last);
        if (w->nfree == w->free_cap) {
            size_t cap = w->free_cap ? 2 * w->free_cap : 1024;
            uint64_t *nf = realloc(w->freelist, cap * sizeof *nf);
            if (!nf) return corrupt(w, "out of memory for %llu free pages", (uint64_t)cap, 0);
            w->freelist = nf;
            w->free_cap = cap;
        }
        w->freelist[w->nfree++] = p;
    }
    return 0;
}

/* One leaf node at off (bounds checked by the caller up to its header). */
static int leaf_node(Walk *w, const uint8_t *pg, uint64_t off, uint64_t p)
{
    unsigned flags = (unsigned)le_get(pg + off + 4, 2), ksize = (unsigned)le_get(pg + off + 6, 2);
    uint64_t dsize = le_get(pg + off, 2) | le_get(pg + off + 2, 2) << 16;
    uint64_t at = off + NODE_HDR + ksize;
    if (flags & ~(unsigned)F_BIGDATA) return corrupt(w, "page %llu: a node with flags 0x%llx", p, flags);
    w->entries++;
    if (flags & F_BIGDATA) {
        if (at + 8 > w->psize) return corrupt(w, "page %llu: a node runs off the page", p, 0);
        if (overflow_run(w, le_get(pg + at, 8), dsize, w->tree == 0) != 0) return -1;
        return w->tree == 0 ? free_record(w, w->big, dsize) : 0;
    }
    if (at + dsize > w->psize) return corrupt(w, "page %llu: a node runs off the page", p, 0);
    return w->tree == 0 ? free_record(w, pg + at, dsize) : 0;
}

static int walk_page(Walk *w, uint64_t p, int depth, Bound lo, Bound hi);

/* Node i's key on page pg, whose offsets nodes_fit checked. */
static Bound node_key(const uint8_t *pg, uint64_t i)
{
    uint64_t off = le_get(pg + PAGE_HDR + 2 * i, 2);
    return (Bound){pg + off + NODE_HDR, (size_t)le_get(pg + off + 6, 2)};
}

/* Every node of the page (n of them) with its header and key inside the
 * page, below the offsets; free-list keys 8 bytes (a branch page's first
 * key, which LMDB never compares, may be empty). */
static int nodes_fit(Walk *w, const uint8_t *pg, uint64_t p, uint64_t n, uint64_t upper, bool leaf)
{
    for (uint64_t i = 0; i < n; i++) {
        uint64_t off = le_get(pg + PAGE_HDR + 2 * i, 2);
        if (off < upper || off % 2 || off + NODE_HDR > w->psize)
            return corrupt(w, "page %llu: node offset %llu is outside the page's nodes", p, off);
        uint64_t ksize = le_get(pg + off + 6, 2);
        if (off + NODE_HDR + ksize > w->psize) return corrupt(w, "page %llu: a key runs off the page", p, 0);
        if (w->tree == 0 && ksize != 8 && (leaf || i > 0))
            return corrupt(w, "page %llu: a free-list key of %llu bytes", p, ksize);
    }
    return 0;
}

/* The nodes of page pg (number p, at depth), against the bounds: every
 * compared key (all but a branch page's first) is at least lo, above the
 * key before it and below hi; a branch's child i gets keys i..i+1. */
static int page_nodes(Walk *w, const uint8_t *pg, uint64_t p, int depth, bool leaf, Bound lo, Bound hi)
{
    uint64_t lower = le_get(pg + 12, 2), upper = le_get(pg + 14, 2), n = (lower - PAGE_HDR) / 2;
    if (lower < PAGE_HDR || lower > upper || upper > w->psize || (lower - PAGE_HDR) % 2 || n == 0)
        return corrupt(w, "page %llu: bad bounds (lower %llu)", p, lower);
    if (nodes_fit(w, pg, p, n, upper, leaf) != 0) return -1;
    for (uint64_t i = leaf ? 0 : 1; i < n; i++) {
        Bound key = node_key(pg, i), prev = i > (leaf ? 0 : 1) ? node_key(pg, i - 1) : lo;
        int c = prev.key ? key_cmp(w, key.key, key.len, prev.key, prev.len) : 1;
        if (c < 0 || (c == 0 && prev.key != lo.key) || (hi.key && key_cmp(w, key.key, key.len, hi.key, hi.len) >= 0))
            return corrupt(w, "page %llu: key %llu is out of order", p, i);
    }
    for (uint64_t i = 0; i < n; i++) {
        uint64_t off = le_get(pg + PAGE_HDR + 2 * i, 2);
        if (leaf) {
            if (leaf_node(w, pg, off, p) != 0) return -1;
            continue;
        }
        uint64_t child = le_get(pg + off, 2) | le_get(pg + off + 2, 2) << 16 | le_get(pg + off + 4, 2) << 32;
        Bound clo = i == 0 ? lo : node_key(pg, i), chi = i + 1 < n ? node_key(pg, i + 1) : hi;
        if (walk_page(w, child, depth + 1, clo, chi) != 0) return -1;
    }
    return 0;
}

static int walk_page(Walk *w, uint64_t p, int depth, Bound lo, Bound hi)
{
    if (reach(w, p) != 0) return -1;
    if (!w->buf[depth] && !(w->buf[depth] = malloc(w->psize))) return corrupt(w, "out of memory", 0, 0);
    uint8_t *pg = w->buf[depth];
    if (read_at(w->fd, pg, w->psize, p * w->psize) != 0) return corrupt(w, "page %llu cannot be read", p, 0);
    unsigned flags = (unsigned)le_get(pg + 10, 2) & ~(unsigned)P_IGNORED;
    bool leaf = depth == w->db->depth;
    if (le_get(pg, 8) != p) return corrupt(w, "page %llu says it is page %llu", p, le_get(pg, 8));
    if (flags != (unsigned)(leaf ? P_LEAF : P_BRANCH))
        return corrupt(w, "page %llu has flags 0x%llx where the tree's depth needs a leaf or a branch", p, flags);
    if (leaf) w->leaf++;
    else w->branch++;
    return page_nodes(w, pg, p, depth, leaf, lo, hi);
}

/* One tree from its MDB_db, its counts checked. */
static int walk_tree(Walk *w, int tree, const Db *db)
{
    w->tree = tree;
    w->db = db;
    w->branch = w->leaf = w->overflow = w->entries = 0;
    if (db->root == NO_PAGE) {
        if (db->depth || db->entries || db->branch || db->leaf || db->overflow)
            return corrupt(w, "an empty tree with depth %llu and %llu entries", db->depth, db->entries);
        return 0;
    }
    if (db->depth < 1 || db->depth > MAX_DEPTH) return corrupt(w, "depth %llu (1..%llu)", db->depth, MAX_DEPTH);
    if (walk_page(w, db->root, 1, (Bound){NULL, 0}, (Bound){NULL, 0}) != 0) return -1;
    if (w->branch != db->branch || w->leaf != db->leaf || w->overflow != db->overflow || w->entries != db->entries)
        return corrupt(w, "its pages and entries (%llu entries found) do not match its header (%llu)", w->entries,
                    db->entries);
    return 0;
}

/* No free page is live or listed twice. */
static int check_freelist(Walk *w)
{
    w->tree = 0;
    for (size_t i = 0; i < w->nfree; i++) {
        uint64_t p = w->freelist[i];
        uint8_t bit = (uint8_t)(1u << (p & 7));
        if (w->live[p >> 3] & bit) return corrupt(w, "page %llu is both free and in use", p, 0);
        if (w->freed[p >> 3] & bit) return corrupt(w, "page %llu is listed free twice", p, 0);
        w->freed[p >> 3] |= bit;
    }
    return 0;
}

static void walk_free(Walk *w)
{
    for (int i = 0; i <= MAX_DEPTH; i++) free(w->buf[i]);
    free(w->live);
    free(w->freed);
    free(w->big);
    free(w->freelist);
}

/* Both trees of meta m, and the free list against them. */
static int walk_meta(int fd, const Meta *m, uint64_t size, char *err, int errlen)
{
    Walk w = {.fd = fd, .psize = m->dbs[0].pad, .last = m->last, .size = size, .err = err, .errlen = errlen};
    size_t bits = (size_t)(m->last / 8 + 1);
    w.live = calloc(bits, 1);
    w.freed = calloc(bits, 1);
    int rc = -1;
    if (!w.live || !w.freed) errmsg_set(err, errlen, "data.mdb: out of memory for a map of %zu bytes", bits);
    else if (walk_tree(&w, 1, &m->dbs[1]) == 0 && walk_tree(&w, 0, &m->dbs[0]) == 0 && check_freelist(&w) == 0)
        rc = 0;
    walk_free(&w);
    return rc;
}

/* Opens path for reading: a regular file only (O_NONBLOCK: a FIFO named
 * data.mdb must not block the open). The descriptor, or -1 with a
 * message. */
static int open_file(const char *path, struct stat *st, char *err, int errlen)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        errmsg_set(err, errlen, "data.mdb: %s", strerror(errno));
        return -1;
    }
    if (fstat(fd, st) != 0 || !S_ISREG(st->st_mode)) {
        close(fd);
        errmsg_set(err, errlen, "data.mdb is not a regular file");
        return -1;
    }
    return fd;
}

/* The meta page to check: the one LMDB picks (txnid 0) or the one of
 * txnid; NULL when no meta page has that txnid any more. */
static const Meta *meta_of(const Meta m[2], const Meta *pick, uint64_t txnid)
{
    if (!txnid) return pick;
    return m[0].txnid == txnid ? &m[0] : m[1].txnid == txnid ? &m[1] : NULL;
}

int storefile_check(const char *path, uint64_t txnid, bool walk, StoreFileInfo *out, char *err, int errlen)
{
    struct stat st;
    int fd = open_file(path, &st, err, errlen);
    if (fd < 0) return -1;
    uint64_t size = (uint64_t)st.st_size;
    Meta m[2];
    const Meta *pick, *use = NULL;
    int rc = -1;
    if (read_metas(fd, size, m, &pick, err, errlen) == 0) {
        use = meta_of(m, pick, txnid);
        if (!use) rc = STOREFILE_GONE;
        else if (check_lmdb_meta(use, size, err, errlen) == 0) rc = walk ? walk_meta(fd, use, size, err, errlen) : 0;
    }
    close(fd);
    if (rc == 0 && out)
        *out = (StoreFileInfo){.txnid = use->txnid, .page_bytes = use->dbs[0].pad, .last_page = use->last,
                               .file_bytes = size, .entries = use->dbs[1].entries};
    return rc;
}
