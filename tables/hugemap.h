/* hugemap.h: zeroed anonymous memory that starts on a 2 MiB boundary, for
 * the big tables (tt.c, wintab.c).
 *
 * Why: a probe of a table of hundreds of MiB misses the TLB as well as the
 * cache; on huge pages one TLB entry covers 2 MiB instead of 4 KiB. The
 * mapping is made one huge page longer than asked so that its start can be
 * rounded up to a 2 MiB boundary, and MADV_HUGEPAGE is asked for (a hint:
 * where the system refuses, only speed is lost).
 *
 * Invariants: hugemap_alloc returns len zeroed bytes, every page touched
 * (the memory is really had, or the process fails there and not
 * mid-search; page faults are not charged to the search), or NULL with
 * nothing mapped. hugemap_free on a HugeMap that holds nothing (all zero)
 * does nothing. */
#ifndef OCS_HUGEMAP_H
#define OCS_HUGEMAP_H

#include <stddef.h>

enum { HUGEMAP_PAGE = 2 << 20 };

typedef struct {
    void *map;      /* what was mapped, for munmap; NULL: nothing */
    size_t map_len; /* its length: len + HUGEMAP_PAGE */
} HugeMap;

/* len zeroed bytes starting on a HUGEMAP_PAGE boundary, or NULL. */
void *hugemap_alloc(HugeMap *m, size_t len);

void hugemap_free(HugeMap *m);

#endif
