/* tcentre.h - what the tests of the centre lemma (test_verify_centre.c,
 * test_verify_centre_conditions.c, test_verify_centre_small.c,
 * test_verify_centre_cert.c) share: the small game decided by this file's
 * own means (a retrograde table for m = 2 and 3), the ring pairs and the
 * centre line between each pair's cells typed in from the definition,
 * random lemma-shaped positions, and certificates with lemma lines.
 * Invariant: nothing here is taken from the verifier
 * (verify/verify_centre.*) but its cell values (VR_X, VR_O, VR_EMPTY) and
 * array bounds, so the verifier is checked against an independent
 * reading. Positions are strings of 'X', 'O' and '.', cell r * n + c, a1
 * the top-left. */
#ifndef OCS_TCENTRE_H
#define OCS_TCENTRE_H

#include <stdbool.h>
#include <stdint.h>

#include "../verify/verify_centre.h"
#include "../verify/verify_rules.h"

/* s's first count cells as the verifier's cell values. */
void tc_to_cells(const char *s, int count, uint8_t *out);
/* The empty cells among s's first count. */
int tc_count_empty(const char *s, int count);
/* Cell index of a name like "b1" on an n x n board (a1 top-left). */
int tc_cell_at(int n, const char *name);

/* --- the small game --- */

/* The small game's line l of m x m cell i (written here, not taken from
 * the verifier): rows 0..m-1, columns m..2m-1, the diagonal 2m, the
 * anti-diagonal 2m+1 - the order of the verifier's allowed vectors. */
int tc_small_line_cell(int m, int l, int i);
/* Has Order won the small position d (digits 0 empty, 1 X, 2 O): a line of
 * m equal symbols s with bit s set in allowed[line] (NULL: all allowed)? */
int tc_small_won(int m, const int *d, const uint8_t *allowed);
/* Every m x m position (m = 2, 3) by retrograde analysis, no search: by
 * piece count from the full board down; value[idx] = 1 when Order wins
 * with these allowed sets (NULL: all). idx = sum of digit(cell i) * 3^i,
 * digit 0 empty, 1 X, 2 O (VR_* values). */
void tc_retro_table(int m, const uint8_t *allowed, uint8_t *value);

/* --- the lemma on whole boards --- */

/* The ring pairs of the n x n board (n = 4, 5, 6), typed in from the
 * definition (the verifier computes them), as "a2/d2"; *count of them. */
const char *const *tc_pairs_of(int n, int *count);
/* A random lemma-shaped position on n x n: each pair empty with probability
 * pct_empty_pair %, else mixed; each centre cell empty with pct_empty %.
 * tc_lemma_shaped_but: then, with probability pct_bad %, one pair holds two
 * equal symbols or one piece. */
void tc_lemma_shaped_but(int n, int pct_empty_pair, int pct_empty, int pct_bad, uint64_t *rng, char *out);
void tc_lemma_shaped(int n, int pct_empty_pair, int pct_empty, uint64_t *rng, char *out);
/* Pair p's cells (a, b) and the centre line between them, from a to b:
 * the test's own geometry, one step at a time from a towards b. */
void tc_pair_line(int n, int p, int *a, int *b, int line[VR_SMALL_MAX]);
/* Does pair p's centre line of s hold both symbols (dead: verify_centre.h)? */
bool tc_line_dead(int n, int p, const char *s);

/* --- certificates --- */

/* An ocproof 2 certificate with these header fields and lines (malloc'd). */
char *tc_cert(int n, int k, const char *rules, const char *winner, const char *root, const char *lines);
/* 'POS lemma centre' with the position pos in symmetric form s (ref_image). */
void tc_lemma_line(int n, const char *pos, int s, char *out);

#endif
