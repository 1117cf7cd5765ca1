/* store_file.h - the LMDB data file of a store (store.h), checked with
 * plain reads before LMDB maps it.
 *
 * Why: LMDB trusts its file. It maps data.mdb and follows page numbers
 * straight into the map, so a truncated file dies by SIGBUS (a page past
 * the end of the file), and a page whose header or node offsets are
 * garbage ends in LMDB's own assert (`IS_LEAF(mp)`, SIGABRT) or a
 * SIGSEGV. A store is input from outside (a committed snapshot, a copy
 * from another machine, a disk that lost a sector), so a corrupt one must
 * be refused with one line, never crash the program. This module reads
 * the file with pread into its own buffers, never through a map, and
 * walks every page LMDB could reach from the meta page it would choose;
 * only a file that passes is handed to LMDB.
 *
 * What LMDB reads, and so what is checked (LMDB 0.9, data format version
 * 1, 64-bit: page numbers and transaction ids are 8 bytes; the layout is
 * LMDB's, described in its mdb.c, and is the same on every machine of one
 * byte order; the store is little-endian only, like le.h assumes for its
 * own bytes):
 *
 *   page     byte 0          8      10      12      14      16
 *                 | pgno     | pad  | flags | lower | upper | ptrs[] ...
 *            an overflow page has its page count (4 bytes) at 12;
 *   meta     pages 0 and 1 (flags P_META), MDB_meta at byte 16:
 *            magic 0xBEEFC0DE, version 1, address, mapsize, two MDB_db
 *            (the free list's, then the main database's; the free one's
 *            pad is the page size), last page, txnid;
 *   MDB_db   pad 4, flags 2, depth 2, branch, leaf, overflow pages,
 *            entries, root (8 each): 48 bytes;
 *   node     lo 2, hi 2, flags 2, ksize 2, then the key, then the data
 *            (leaf) or nothing (branch: the child's page number is
 *            lo | hi << 16 | flags << 32); a leaf's data size is
 *            lo | hi << 16, or with F_BIGDATA its data is the page number
 *            of its first overflow page.
 *
 * The checks, each of which a corrupt file can fail:
 *   - the file holds both meta pages; each has P_META, its own page
 *     number, LMDB's magic and data version, and the same page size, a
 *     power of two from 512 to 32768;
 *   - the meta LMDB picks (the one with the larger txnid; meta 0 on a tie)
 *     says no more pages than the file holds, (last + 1) * psize <= size,
 *     a sane map size, the free list as an integer-key database and the
 *     main one with no flags (the store uses no sub-databases and no
 *     duplicates);
 *   - each tree (the main database, the free list): every page it reaches
 *     lies in 2..last, is reached once (no cycle, no shared page), carries
 *     its own page number and the type its depth needs (branch above,
 *     leaf at the tree's depth, at most 32 levels as LMDB's cursor
 *     allows); its lower/upper bounds and every node lie inside the page;
 *     keys rise strictly within a page and stay inside the range their
 *     parent gives them; no node is a sub-database or has duplicates;
 *     overflow pages lie in the file, unshared; and the counts of branch,
 *     leaf and overflow pages and of entries match the MDB_db;
 *   - the free list's records are page lists (a count, then that many
 *     page numbers), each page in 2..last, none live in either tree, none
 *     listed twice (LMDB would write over a live page listed free).
 *
 * When: before LMDB maps the file, only the meta pages and the file's
 * size are checked (walk false): that is all LMDB's open reads, and a
 * file too short for its meta page is refused before any map exists.
 * The pages are checked (walk true) once the caller holds an LMDB read
 * transaction, before it reads any page through LMDB: a writer may commit
 * while the file is read (readers run beside the one writer, store.h),
 * and only a registered reader stops LMDB from reusing the pages of the
 * snapshot being walked. The caller passes that transaction's id, and the
 * walk checks the snapshot of that id; if both meta pages have moved on
 * (two commits since the transaction began), STOREFILE_GONE tells the
 * caller to begin a new transaction and try again.
 *
 * What this does not check is the records' content: that is the store's
 * own checksum (store.h). Nothing here prints or exits.
 */
#ifndef OCS_STORE_FILE_H
#define OCS_STORE_FILE_H

#include <stdbool.h>
#include <stdint.h>

typedef struct {
    uint64_t txnid;      /* of the meta page checked */
    uint64_t page_bytes; /* psize */
    uint64_t last_page;  /* the meta's last page */
    uint64_t file_bytes;
    uint64_t entries;    /* the main database's records (meta record included) */
} StoreFileInfo;

enum { STOREFILE_GONE = 1 };

/* Checks the LMDB data file at path (the rules above): the meta page of
 * txnid (0: the one LMDB would pick now) against the file, and with walk
 * every page of its snapshot. 0 sound (*out filled when not NULL);
 * STOREFILE_GONE when no meta page has txnid any more; -1 with one line
 * in err naming the fault, e.g. "data.mdb is truncated: 3 pages of 4096
 * bytes, its meta page (txn 9) needs 5". A missing file, or anything but
 * a regular file, is -1 too. */
int storefile_check(const char *path, uint64_t txnid, bool walk, StoreFileInfo *out, char *err, int errlen);

#endif
