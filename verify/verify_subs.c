/* verify_subs.c - see verify_subs.h: the sub-certificate set of one
 * verification, its entries found by a hash index and queued for the
 * pre-pass in a binary heap. Nothing here checks a certificate or takes
 * a lock: the callers (verify.c, verify_par.c) do both. */
#include "verify_subs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What makes two see lines name the same file: its real path and the real
 * path of the folder its own see lines are resolved against (the folder
 * of the path the see line gives: a link from another folder names other
 * files). NULL when either cannot be resolved (no such file) or no memory. */
char *vsub_key(const char *path)
{
    const char *slash = strrchr(path, '/');
    char *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
    char *rfile = realpath(path, NULL), *rdir = dir ? realpath(dir, NULL) : NULL, *key = NULL;
    if (rfile && rdir && (key = malloc(strlen(rfile) + strlen(rdir) + 2)) != NULL)
        sprintf(key, "%s\n%s", rfile, rdir);
    free(dir), free(rfile), free(rdir);
    return key;
}

/* What vsub_find compares, hashed (FNV-1a over the key's bytes and the fields). */
static size_t sub_hash(const char *key, const Sub *like)
{
    uint64_t h = 1469598103934665603ULL;
    for (const unsigned char *c = (const unsigned char *)key; *c; c++) h = (h ^ *c) * 1099511628211ULL;
    const uint64_t f[] = {(uint64_t)like->n, (uint64_t)like->k, (uint64_t)like->rules, (uint64_t)like->winner,
                          (uint64_t)like->horizon_ok, like->root.x, like->root.o};
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) h = (h ^ f[i]) * 1099511628211ULL;
    return (size_t)(h ^ h >> 29);
}

static bool sub_same(const Sub *p, const char *key, const Sub *like)
{
    return p->key && strcmp(p->key, key) == 0 && p->n == like->n && p->k == like->k && p->rules == like->rules &&
           p->winner == like->winner && p->horizon_ok == like->horizon_ok && vr_key_equal(p->root, like->root);
}

/* The entry of key for this game, winner and root, or SIZE_MAX. */
size_t vsub_find(const SubSet *ss, const char *key, const Sub *like)
{
    if (!ss->idx_cap) return SIZE_MAX;
    for (size_t j = sub_hash(key, like) & (ss->idx_cap - 1);; j = (j + 1) & (ss->idx_cap - 1)) {
        size_t i = ss->idx[j];
        if (i == SIZE_MAX) return SIZE_MAX;
        if (sub_same(&ss->s[i], key, like)) return i;
    }
}

/* Entry i into the index (which has room). */
static void index_put(SubSet *ss, size_t i)
{
    size_t j = sub_hash(ss->s[i].key, &ss->s[i]) & (ss->idx_cap - 1);
    while (ss->idx[j] != SIZE_MAX) j = (j + 1) & (ss->idx_cap - 1);
    ss->idx[j] = i;
}

/* Room in the index for one more entry: false when out of memory. */
static bool index_room(SubSet *ss)
{
    if (2 * (ss->n + 1) <= ss->idx_cap) return true;
    size_t cap = ss->idx_cap ? 2 * ss->idx_cap : 128;
    size_t *idx = malloc(cap * sizeof *idx);
    if (!idx) return false;
    for (size_t j = 0; j < cap; j++) idx[j] = SIZE_MAX;
    free(ss->idx);
    ss->idx = idx;
    ss->idx_cap = cap;
    for (size_t i = 0; i < ss->n; i++)
        if (ss->s[i].key) index_put(ss, i);
    return true;
}

/* The order entries are checked in: the smallest small file first (a
 * top-tree node's file: a few lines naming other files, which reading it
 * queues), then the largest (the longest checks start first and end
 * together); ties by entry number, so the order is one total order. */
enum { SMALL_FILE = 1 << 20 };
static bool vsub_before(const SubSet *ss, size_t a, size_t b)
{
    const Sub *p = &ss->s[a], *q = &ss->s[b];
    bool ps = p->bytes < SMALL_FILE, qs = q->bytes < SMALL_FILE;
    if (ps != qs) return ps;
    if (p->bytes != q->bytes) return ps ? p->bytes < q->bytes : p->bytes > q->bytes;
    return a < b;
}

/* Room in the queue for one more entry: false when out of memory. */
static bool queue_room(SubSet *ss)
{
    if (ss->nqueue < ss->capqueue) return true;
    size_t cap = ss->capqueue ? 2 * ss->capqueue : 64;
    size_t *big = realloc(ss->queue, cap * sizeof *big);
    if (!big) return false;
    ss->queue = big;
    ss->capqueue = cap;
    return true;
}

/* The queue (a binary heap by vsub_before): entry i pushed (queue_room first). */
static void queue_push(SubSet *ss, size_t i)
{
    size_t j = ss->nqueue++;
    while (j > 0 && vsub_before(ss, i, ss->queue[(j - 1) / 2])) {
        ss->queue[j] = ss->queue[(j - 1) / 2];
        j = (j - 1) / 2;
    }
    ss->queue[j] = i;
}

size_t vsub_take(SubSet *ss)
{
    while (ss->nqueue > 0) {
        size_t top = ss->queue[0], last = ss->queue[--ss->nqueue], j = 0;
        for (;;) { /* last sifts down from the root */
            size_t c = 2 * j + 1;
            if (c >= ss->nqueue) break;
            if (c + 1 < ss->nqueue && vsub_before(ss, ss->queue[c + 1], ss->queue[c])) c++;
            if (!vsub_before(ss, ss->queue[c], last)) break;
            ss->queue[j] = ss->queue[c];
            j = c;
        }
        if (ss->nqueue > 0) ss->queue[j] = last;
        if (ss->s[top].state == S_QUEUED) return top;
    }
    return SIZE_MAX;
}

/* Adds a copy of *s (taking its key and path); its index, or SIZE_MAX with nothing taken when out of memory. */
size_t vsub_add(SubSet *ss, const Sub *s)
{
    if (!index_room(ss)) return SIZE_MAX;
    if (s->state == S_QUEUED && !queue_room(ss)) return SIZE_MAX; /* room first: nothing taken on failure */
    if (ss->n == ss->cap) {
        size_t cap = ss->cap ? 2 * ss->cap : 64;
        Sub *big = realloc(ss->s, cap * sizeof *big);
        if (!big) return SIZE_MAX;
        ss->s = big;
        ss->cap = cap;
    }
    ss->s[ss->n] = *s;
    if (s->key) index_put(ss, ss->n);
    if (s->state == S_QUEUED) queue_push(ss, ss->n);
    return ss->n++;
}

void vsubs_free(SubSet *ss)
{
    for (size_t i = 0; i < ss->n; i++) free(ss->s[i].key), free(ss->s[i].path), free(ss->s[i].dep);
    free(ss->s);
    free(ss->idx);
    free(ss->queue);
    *ss = (SubSet){0};
}

/* The positions of proved entry i and of the entries its proof reached,
 * those not counted yet, which it marks counted: what checking i's file
 * here would add with one thread, where each file is checked, and so
 * counted, once. The entries a proved one reached were proved before it
 * (settle), so the walk ends, at most its height deep. */
uint64_t vsub_count(SubSet *ss, size_t i)
{
    Sub *p = &ss->s[i];
    if (p->counted) return 0;
    p->counted = true;
    uint64_t sum = p->own;
    for (size_t d = 0; d < p->ndep; d++) sum += vsub_count(ss, p->dep[d].i);
    return sum;
}
