/* checkpoint.h - the search table saved to a file and loaded back, so that
 * a solve survives being stopped or killed.
 *
 * File layout (native little-endian; the byte-order word refuses others):
 *
 *   offset  size
 *        0     8  magic "OCSCKPT\0"
 *        8     4  format version (CKPT_VERSION)
 *       12     4  byte-order word 0x01020304
 *       16     4  rule set (RuleSet)       20  4  board size n
 *       24     4  k (line length)          28  4  key scheme (see CkptInfo)
 *       32    16  root position (X bits, O bits)
 *       48     8  nodes searched by all runs so far
 *       56     8  seconds (double) spent by all runs so far
 *       64     8  entry count E
 *       72  32*E  table entries, each: key (X bits, O bits; 16), pn, dn,
 *                 work (4 each), move, flags (1 each; flags = 1), 2 zero bytes
 *   72+32E     8  XXH3-64 of every byte before it
 *
 * Invariants: a file is written to FILE.tmp, flushed to disk and renamed
 * over FILE, so a kill at any moment leaves either the old checkpoint or
 * the new one whole. A file is used only if its size, magic, version,
 * byte order and checksum are right and its rules, board, root and key
 * scheme are the run's own (keys of another scheme would be another
 * encoding of positions); anything else is refused with a message, never
 * used in part. Every used entry of the table is saved: all proven and
 * disproven positions, and the unproven numbers that let a resumed search
 * pick up where it was.
 */
#ifndef OCS_CHECKPOINT_H
#define OCS_CHECKPOINT_H

#include <stddef.h>
#include <stdint.h>

#include "tt.h"

#define CKPT_VERSION 1u

typedef struct {
    uint32_t rules, n, k;
    uint32_t scheme; /* how keys are made: the solver's dead-cell and symmetry settings */
    Board root;
    uint64_t nodes;  /* totals over all runs */
    double seconds;
} CkptInfo;

/* Returns 0, or -1 with a one-line reason in err. */
int ckpt_save(const char *path, TT *t, const CkptInfo *info, uint64_t *saved, char *err, size_t errlen);

/* Checks the whole file, then stores its entries into t. want: the run's
 * rules, board, root and scheme (its nodes and seconds are ignored); got:
 * the file's header. Returns 0, or -1 with a one-line reason in err (and t
 * untouched). */
int ckpt_load(const char *path, TT *t, const CkptInfo *want, CkptInfo *got, uint64_t *loaded, char *err,
              size_t errlen);

#endif
