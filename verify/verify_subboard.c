/* verify_subboard.c - see verify_subboard.h: the sub-board lemma's
 * conditions, counted directly on the cell array. */
#include "verify_subboard.h"

#include <stdio.h>

/* The window as "b2-g7" (its top-left and bottom-right cells). */
static void window_corners(int n, VrWindow w, char out[8])
{
    char a[3], b[3];
    vr_cell_name(n, w.r0 * n + w.c0, a);
    vr_cell_name(n, (w.r0 + w.m - 1) * n + w.c0 + w.m - 1, b);
    snprintf(out, 8, "%s-%s", a, b);
}

/* The claim, the rules and the window's geometry. 1, or 0 and why. */
static int subboard_game_ok(const VrGame *g, bool claim_order, VrWindow w, char *why, size_t why_len)
{
    int n = g->n;
    if (!claim_order) return vr_why(why, why_len, "the certificate claims chaos");
    if (g->rules != VR_ORIGINAL)
        return vr_why(why, why_len, "not under %s (a run of k in the window can be lengthened from outside it)",
                      vr_rules_name(g->rules));
    if (w.m < 4 || w.m >= n)
        return vr_why(why, why_len, "a window of %d on the %dx%d board (it must be 4 to %d wide)", w.m, n, n, n - 1);
    if (w.r0 < 0 || w.c0 < 0 || w.r0 + w.m > n || w.c0 + w.m > n) {
        char a[3];
        vr_cell_name(n, w.r0 * n + w.c0, a);
        return vr_why(why, why_len, "the %dx%d window at %s leaves the %dx%d board", w.m, w.m, a, n, n);
    }
    if (w.m < g->k) return vr_why(why, why_len, "a window of %d is narrower than k=%d", w.m, g->k);
    return 1;
}

int vr_subboard_conditions(const VrGame *g, bool claim_order, const uint8_t *cells, VrWindow w, uint8_t *small,
                           char *why, size_t why_len)
{
    if (!subboard_game_ok(g, claim_order, w, why, why_len)) return 0;
    int n = g->n, pieces = 0, small_pieces = 0, empty_outside = 0;
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++) {
            uint8_t v = cells[r * n + c];
            bool inside = r >= w.r0 && r < w.r0 + w.m && c >= w.c0 && c < w.c0 + w.m;
            pieces += v != VR_EMPTY;
            if (inside) {
                small[(r - w.r0) * w.m + (c - w.c0)] = v;
                small_pieces += v != VR_EMPTY;
            } else {
                empty_outside += v == VR_EMPTY;
            }
        }
    char name[8];
    window_corners(n, w, name);
    if (empty_outside % 2 != 0)
        return vr_why(why, why_len, "%d empty cells outside the window %s (the lemma needs an even number)",
                      empty_outside, name);
    if (pieces % 2 != small_pieces % 2)
        return vr_why(why, why_len, "the window %s holds %d pieces, the board %d: not the same side to move", name,
                      small_pieces, pieces);
    return 1;
}
