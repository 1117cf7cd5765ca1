/* vpair.h - the verifier's pairing tests' own reading of the pairing lemma
 * (test_verify_pairing.c, test_verify_pairing_lines.c), and the writing of
 * certificates with pairing lemma lines. The reading is the README's,
 * written here on the reference rules' cells (tests/ref.h: 'X', 'O', '.',
 * cell r * n + c) and shares nothing with verify/verify_pairing.c, so the
 * verifier can be checked against it (tpair.h is the solver's pairing
 * tests' reading, a separate one). Windows are built from the board's
 * lines, their ends are their neighbours on the line. */
#ifndef OCS_VPAIR_H
#define OCS_VPAIR_H

#include "../verify/verify.h"
#include "ref.h"

/* --- the test's own reading of the lemma, on RefPos cells ('X', 'O', '.') --- */

/* A window of k cells and its ends (0, 1 or 2 cells). */
typedef struct {
    int cell[8], ncells, end[2], nends;
} VpWin;

/* A pair of cells. */
typedef struct {
    int a, b, same; /* cells r*n+c; same: '=' */
} VpPair;

/* Every window of k cells, built from the board's full lines (rows,
 * columns, both diagonal directions), each line a list of cells; a
 * window's ends are its neighbours on the line. Returns the count. */
int vp_all_windows(int n, int k, VpWin *out);
/* Is x one of set's count cells? */
int vp_has(const int *set, int count, int x);
/* Is w live in p: can it still win for X or O (none of the other symbol
 * in it and, but under original, none of the symbol's own on its ends)? */
int vp_live(const RefPos *p, const VpWin *w);
/* Does q cover w: a '~' pair both of its cells in w, a '=' pair one in w
 * and the other on an end? */
int vp_covers(const VpWin *w, VpPair q);
/* The name of cell ("c3") into out (3 bytes). */
void vp_cell_name(int n, int cell, char *out);
/* The live windows no pair covers, as "c1-c5" names ("first-last" and
 * "last-first" both listed) joined by spaces into out; returns their number. */
int vp_uncovered(const RefPos *p, const VpPair *q, int nq, char *out);
/* The empty cells of p. */
int vp_count_empty(const RefPos *p);
/* Every pair breakable (the README): '~', and it leans or has a witness. */
int vp_all_breakable(const RefPos *p, const VpPair *q, int nq);
/* Does some pair need its witness (it does not lean)? */
int vp_needs_witness(const RefPos *p, const VpPair *q, int nq);
/* All the lemma's conditions, read from the README: claim Chaos, not over,
 * '=' only under exact-end, pair cells empty and used once, parity or
 * every pair breakable, every live window covered. */
int vp_spec_holds(const RefPos *p, int claim_chaos, const VpPair *q, int nq);

/* --- writing certificates --- */

/* The cell that cell i goes to under symmetry s (its geometry), found with ref_image. */
int vp_image_cell(int n, int s, int i);
/* q as written in a lemma line ("c1:c6~") into out. */
void vp_pair_text(int n, VpPair q, char *out);
/* "POS lemma pairing PAIRS\n" for p and its pairs, in symmetric form s. */
void vp_lemma_line(const RefPos *p, const VpPair *q, int nq, int s, char *out);
/* The REF_ rule sets' names in a certificate. */
extern const char *const VP_RULES_NAME[3];
/* An ocproof 2 certificate with these header fields and lines (malloc'd). */
char *vp_cert(int n, int k, int rules, const char *winner, const char *root, const char *lines);
/* verify_text on text, its status checked against the code returned. */
int vp_check(const char *text, VerifyResult *r);

#endif
