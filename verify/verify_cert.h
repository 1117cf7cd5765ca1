/* verify_cert.h - internal to verify/: one certificate's check, shared
 * by its two halves: reading the certificate into a table of positions
 * (verify_read.c) and proving the claim from that table (verify.c).
 *
 * Invariants: the table holds one entry per canonical position (the
 * exact key, never a hash alone); an entry's flags say which kinds of line
 * the certificate has for it (at most one move, lemma or see line, up to
 * symmetry: reading refuses conflicts) and what the proof has done with it.
 */
#ifndef OCS_VERIFY_CERT_H
#define OCS_VERIFY_CERT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../engine/notation.h"
#include "verify.h"
#include "verify_images.h"
#include "verify_rules.h"
#include "verify_nest.h"
#include "verify_subboard.h"

/* --- a growable open-addressing table keyed by the exact canonical key:
 * the certificate's lines and the positions already proved, in one --- */

typedef struct {
    uint64_t x, o;  /* the key; x == o == EMPTY_WORD marks a free slot (X and O never overlap) */
    uint32_t line;  /* certificate line number (with E_LINE or E_LEMMA) */
    uint8_t move;   /* a move line's move in the canonical frame: cell r*n+c, bit 6 set for O */
    uint8_t flags;  /* E_* */
} Entry;

/* A certificate move line is known for the position; the proof has
 * followed its line; the winner is proved to win from the position; a
 * certificate lemma line ('POSITION lemma centre' or 'POSITION lemma
 * pairing ...') is known for it; with E_LEMMA, the lemma is pairing (else
 * centre). A pairing line is checked when it is read (add_lemma), so its
 * entry keeps no pairs. E_SEE: a see line; with E_LEMMA too, the centre
 * lemma's see form ('POSITION lemma centre see FILE', verify_centre.h),
 * whose FILE is of the centre's small game; with E_SUBBOARD as well, the
 * sub-board lemma ('POSITION lemma subboard CELL M see FILE',
 * verify_subboard.h), whose FILE is of the window's game. */
enum { E_LINE = 1, E_USED = 2, E_DONE = 4, E_LEMMA = 8, E_PAIRING = 16, E_SEE = 32, E_SUBBOARD = 64 };

/* 'POSITION see FILE', 'POSITION lemma centre see FILE' and 'POSITION
 * lemma subboard CELL M see FILE' lines, in line order (so found by line
 * number): the file, resolved against the certificate's folder, and the
 * position as written (the sub-certificate's root, or for the lemmas the
 * position whose centre or window is its root); for a sub-board line its
 * window, in the frame of the position as written. */
typedef struct {
    uint32_t line;
    char *path;
    uint8_t cells[VR_MAX_CELLS];
    VrWindow window;
} See;


typedef struct {
    Entry *e;
    size_t cap, count; /* cap is a power of two */
} Table;

/* The position's entry, NULL if it has none. */
Entry *vc_table_find(const Table *t, VrKey k);
/* Starts fetching the slot where k is or would go into the cache (a
 * hint: nothing is read or changed). */
void vc_table_prefetch(const Table *t, VrKey k);
/* The entry for k, added (fields zeroed, *fresh = true) if missing; NULL
 * when out of memory. */
Entry *vc_table_add(Table *t, VrKey k, bool *fresh);

/* The state of one verification (its place among the nested ones: verify_nest.h). */
typedef struct {
    VerifyResult *res;
    const char *name;         /* source name for malformed errors */
    VrGame g;
    int winner;               /* VERIFY_WINNER_* */
    int version;              /* the certificate's: 1 or 2 */
    int horizon;              /* 'horizon D' (a Chaos certificate to a horizon, verify.h); -1: none */
    VrSym sym;
    Table tab;
    uint8_t root[VR_MAX_CELLS];
    uint8_t cells[VR_MAX_CELLS]; /* the position being checked, in the root's frame */
    VrImages im;                 /* cells' 8 images (verify_images.h), changed with cells in prove() */
    VrLines lines;               /* the game's windows (vr_wins_at_once) */
    /* The children's canonical keys and symmetries at the loser's node
     * with e empty cells: row e (each level of one proof has its own
     * count). Here, not on the stack: nested sub-certificates (up to 64
     * deep) each recurse up to 64 levels, and 2 KiB a frame would pass a
     * thread's 8 MiB stack. */
    VrKey kid_key[VR_MAX_CELLS + 1][2 * VR_MAX_CELLS];
    int8_t kid_sym[VR_MAX_CELLS + 1][2 * VR_MAX_CELLS];
    char text[NOTATION_POS_LEN];
    char bad_lemma[VERIFY_ERR_LEN]; /* the first pairing line that failed when read, "" if none */
    Nest *nest;
    char dir[4096];                 /* its folder, with a trailing '/'; "" for text */
    See *see;
    size_t nsee, capsee;
    VrSym *small_sym;               /* the centre's m x m symmetries (the see form), made on first use; NULL */
} Verifier;

/* Where a certificate's lines come from: a file or a text, read within
 * lim (verify.h): a line at most VERIFY_LINE_MAX bytes, no NUL byte, at
 * most lim.max_lines lines and lim.max_bytes bytes. */
typedef struct {
    FILE *f;
    const char *path; /* NULL for text */
    char *buf;        /* the current line without its newline, NUL-terminated: VERIFY_LINE_MAX + 1 bytes */
    long line;        /* lines read */
    uint64_t bytes;   /* bytes read */
    VerifyLimits lim; /* both set (no 0) */
} Source;

/* res->error set from fmt; returns status (and sets res->status). */
int vc_error(VerifyResult *res, int status, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Board <-> cell array, through the notation's Board layout. */
void vc_board_to_cells(Board b, int n, uint8_t *cells);
void vc_format_pos(const uint8_t *cells, int n, char out[NOTATION_POS_LEN]);
/* Reads the whole certificate from src into v: the header (v->g,
 * v->winner, v->root, v->sym), the position lines into v->tab, the see
 * lines into v->see; pairing lines are checked as they are read (the
 * first failure in v->bad_lemma). 0, or VERIFY_MALFORMED with v->res's
 * error set; it reads nothing past the first fault (a refused byte, a
 * line over the bound, a malformed line). */
int vc_read_cert(Verifier *v, Source *src);

/* Opens path, a certificate, for reading (verify.h): a regular file of at
 * most lim->max_bytes bytes, or an error. stat() first, so that a device
 * or FIFO is refused without being opened (opening one may block, or act);
 * then open() with O_NONBLOCK, in case a FIFO took the file's place since
 * (its open then returns at once), and fstat() the file opened, which is
 * what will be read. */
FILE *vc_open_cert(const char *path, const VerifyLimits *lim, VerifyResult *out);

#endif
