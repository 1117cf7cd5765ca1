/* tpair.h - the tests' own pairings (pairing.h's forms), written from the
 * definitions on the reference rules' cells (tests/ref.h, r * n + c):
 * windows walked cell by cell, coverage, breakability and witnesses
 * checked pair by pair, and an exhaustive search for each form. Nothing is
 * taken from the engine or the solver, so the solver's pairing search
 * (solver/pairing.c) and gates are checked against it (test_pairing.c,
 * test_pairing_witness.c). */
#ifndef OCSOLVE_TESTS_TPAIR_H
#define OCSOLVE_TESTS_TPAIR_H

#include <stdbool.h>

#include "../solver/pairing.h"
#include "ref.h"

/* The windows of k cells of an n x n board, with their ends. */
typedef struct {
    int nw, len[400];
    int cell[400][8];
    int end[400][2], nend[400];
} TWindows;

/* Pairs by reference cells; same: a same-symbol pair (b on an end). */
typedef struct {
    int n, a[32], b[32];
    bool same[32];
} TPairs;

/* Geometry and liveness (tpair.c says each in full). */
void tp_windows(int n, int k, TWindows *w);
bool tp_live(const RefPos *p, const TWindows *w, int i);
bool tp_in_window(const TWindows *w, int i, int cell);
bool tp_at_end(const TWindows *w, int i, int cell);
bool tp_covered(const TWindows *w, int i, const TPairs *t);
/* Checks of a given pairing: covering, breakable pairs, witnesses. */
bool tp_valid(const RefPos *p, const TWindows *w, const TPairs *t);
bool tp_live_for(const RefPos *p, const TWindows *w, int i, int s);
bool tp_breakable_pair(const RefPos *p, const TWindows *w, int a, int b);
bool tp_witness(const RefPos *p, const TWindows *w, int a, int b, int c, const char *paired);
bool tp_has_witness(const RefPos *p, const TWindows *w, int a, int b, const char *paired);
bool tp_breakable(const RefPos *p, const TWindows *w, const TPairs *t);
/* A covering pairing (parity and breakability apart) into t, same pairs
 * allowed or not: the first the exhaustive search meets. */
bool tp_find_covering(const RefPos *p, const TWindows *w, bool same, TPairs *t);
/* The exhaustive searches, one a form. */
bool tp_has_pairing(const RefPos *p, const TWindows *w, bool same);
bool tp_has_breakable(const RefPos *p, const TWindows *w, TPairs *t);
bool tp_has_plain_breakable(const RefPos *p, const TWindows *w);
bool tp_parity_ok(const RefPos *p);
/* Between the solver's cells and the reference cells. */
TPairs tp_from_set(const PairSet *ps, int n);
PairingPair tp_pair_of(int a, int b, int n);
/* The lines gates by the tests' own count. */
int tp_line_key(const TWindows *w, int i, int n);
bool tp_lines_may(const RefPos *p, const TWindows *w);
bool tp_witness_lines_may(const RefPos *p, const TWindows *w);

#endif
