/* test_verify.c - the independent certificate verifier's rules and
 * symmetries (verify/verify_rules.*, verify_images.*) against ref.c: the
 * status of a position, after a move, a win at once, dead positions, the
 * 16 images and canonical keys, and the images kept move by move. Its
 * certificates are test_verify_cert.c's. */
#include <criterion/criterion.h>
#include <string.h>

#include "../verify/verify_images.h"
#include "../verify/verify_rules.h"
#include "certgen.h"
#include "testlib.h"

/* --- the rules and symmetries against the reference --- */

Test(verify, rules_match_the_reference)
{
    uint64_t rng = 101;
    for (int t = 0; t < 4000; t++) {
        int n = 4 + tl_below(&rng, 5), k = 3 + tl_below(&rng, n - 2), rules = tl_below(&rng, 3);
        RefPos p;
        tl_random_any(&p, n, k, rules, tl_below(&rng, 60), tl_below(&rng, 60), &rng);
        uint8_t cells[64] = {0};
        for (int i = 0; i < n * n; i++) cells[i] = p.cell[i] == 'X' ? VR_X : p.cell[i] == 'O' ? VR_O : VR_EMPTY;
        VrGame g = {n, k, rules};
        cr_assert_eq(vr_has_line(&g, cells), ref_has_line(&p) != 0, "n=%d k=%d rules=%d", n, k, rules);
        cr_assert_eq(vr_status(&g, cells), ref_status(&p), "n=%d k=%d rules=%d", n, k, rules);
        /* The 8 geometries are the reference's 8, and every image has the same canonical key. */
        VrSym sym;
        vr_sym_init(&sym, n);
        VrKey canon_key = vr_canonical(&sym, cells, NULL);
        for (int s = 0; s < 16; s++) {
            uint8_t img[64] = {0};
            vr_image(n, s, cells, img);
            cr_assert_eq(vr_status(&g, img), vr_status(&g, cells));
            int used, found = 0;
            cr_assert(vr_key_equal(vr_canonical(&sym, img, &used), canon_key));
            uint8_t back[64] = {0};
            vr_image(n, used, img, back);
            cr_assert(vr_key_equal(vr_key(n, back), canon_key), "the reported symmetry does not give the form");
            for (int r = 0; r < 16; r++) {
                RefPos q;
                ref_image(&p, r, &q);
                uint64_t x, o;
                cg_masks(&q, &x, &o);
                VrKey k2 = vr_key(n, img);
                found |= k2.x == x && k2.o == o;
            }
            cr_assert(found, "image %d is not one of the reference's images", s);
        }
    }
}

/* The reference position p as the verifier's cells; returns its number of
 * empty cells. */
static int cells_of(const RefPos *p, int n, uint8_t *cells)
{
    int empty = 0;
    for (int i = 0; i < n * n; i++) {
        cells[i] = p->cell[i] == 'X' ? VR_X : p->cell[i] == 'O' ? VR_O : VR_EMPTY;
        empty += p->cell[i] == '.';
    }
    return empty;
}

/* p's game for the verifier, and its windows (VrLines). */
static VrGame game_of(const RefPos *p, VrLines *lines)
{
    VrGame g = {p->n, p->k, p->rules};
    vr_lines_init(&g, lines);
    return g;
}

Test(verify, status_after_a_move_matches_the_full_status)
{
    uint64_t rng = 107;
    int wins = 0;
    for (int t = 0; t < 20000; t++) {
        RefPos p;
        if (tl_random_ongoing_game(&p, &rng) != 0) continue;
        int n = p.n, k = p.k, rules = p.rules;
        uint8_t cells[64] = {0};
        int empty = cells_of(&p, n, cells), cell;
        do cell = tl_below(&rng, n * n); while (cells[cell] != VR_EMPTY);
        cells[cell] = (uint8_t)(VR_X + tl_below(&rng, 2));
        VrLines lines;
        VrGame g = game_of(&p, &lines);
        VrKey key = vr_key(n, cells);
        int want = vr_status(&g, cells);
        cr_assert_eq(vr_status_after(&g, &lines, cells, key.x, key.o, cell, empty == 1), want, "n=%d k=%d rules=%d", n,
                     k, rules);
        wins += want == VR_ORDER_WINS && rules != VR_EXACT_END;
    }
    cr_assert(wins > 500, "only %d moves made a line (original, exact): the sample tests little", wins);
}

/* vr_wins_at_once against trying every empty cell with both symbols and
 * judging the whole board (vr_status, itself checked against the
 * reference above), on random ongoing positions of every n, k and rule
 * set, many of them with a line one move away. */
Test(verify, a_win_at_once_is_found_exactly)
{
    uint64_t rng = 109;
    int wins = 0;
    for (int t = 0; t < 20000; t++) {
        RefPos p;
        if (tl_random_ongoing_game(&p, &rng) != 0) continue;
        int n = p.n, k = p.k, rules = p.rules;
        uint8_t cells[64] = {0};
        int empty = cells_of(&p, n, cells);
        VrLines lines;
        VrGame g = game_of(&p, &lines);
        bool want = false;
        for (int i = 0; i < n * n && !want; i++)
            for (uint8_t s = VR_X; s <= VR_O && !want && cells[i] == VR_EMPTY; s++) {
                cells[i] = s;
                want = vr_status(&g, cells) == VR_ORDER_WINS;
                cells[i] = VR_EMPTY;
            }
        uint8_t before[64];
        memcpy(before, cells, sizeof before);
        VrKey key = vr_key(n, cells);
        cr_assert_eq(vr_wins_at_once(&g, &lines, cells, key.x, key.o, empty), want, "n=%d k=%d rules=%d", n, k, rules);
        cr_assert(memcmp(before, cells, sizeof before) == 0, "the position is restored");
        wins += want;
    }
    cr_assert(wins > 1000, "only %d positions with a win at once: the sample tests little", wins);
}

Test(verify, dead_positions_can_never_have_a_line)
{
    uint64_t rng = 102;
    int dead = 0, live = 0;
    for (int t = 0; t < 6000; t++) {
        int n = 4 + tl_below(&rng, 3), k = 3 + tl_below(&rng, n - 2), rules = tl_below(&rng, 3);
        RefPos p;
        tl_random_any(&p, n, k, rules, 45, 45, &rng);
        int empty[64], e = 0;
        uint8_t cells[64] = {0};
        for (int i = 0; i < n * n; i++) {
            cells[i] = p.cell[i] == 'X' ? VR_X : p.cell[i] == 'O' ? VR_O : VR_EMPTY;
            if (p.cell[i] == '.') empty[e++] = i;
        }
        VrGame g = {n, k, rules};
        if (e > 7 || !vr_dead(&g, cells)) {
            live++;
            continue;
        }
        dead++;
        int total = 1;
        for (int i = 0; i < e; i++) total *= 3;
        for (int a = 0; a < total; a++) { /* every way to fill or leave the empty cells */
            for (int i = 0, v = a; i < e; i++, v /= 3) p.cell[empty[i]] = ".XO"[v % 3];
            cr_assert(!ref_has_line(&p), "a dead position reaches a line: n=%d k=%d rules=%d", n, k, rules);
        }
    }
    cr_assert(dead > 100 && live > 100, "dead %d live %d", dead, live);
}

/* verify_images.h: along random games of every n played forward and
 * taken back, the images kept move by move equal vr_image's from scratch,
 * and the canonical key and symmetry equal vr_canonical's, also for every
 * child (vr_images_canonical_after) of the positions on the way. */
Test(verify, images_kept_move_by_move)
{
    uint64_t rng = 4711;
    for (int game = 0; game < 200; game++) {
        int n = 4 + game % 5, nn = n * n;
        VrSym t;
        vr_sym_init(&t, n);
        uint8_t cells[64] = {0};
        VrImages im;
        vr_images_of(&t, cells, &im);
        int order[64], played = 0, depth = tl_below(&rng, nn + 1);
        for (int i = 0; i < nn; i++) order[i] = i;
        for (int i = nn - 1; i > 0; i--) {
            int j = tl_below(&rng, i + 1), x = order[i];
            order[i] = order[j], order[j] = x;
        }
        for (int step = 0; step < 2 * depth; step++) {
            bool forward = step < depth;
            int cell = forward ? order[played] : order[played - 1];
            uint8_t s = forward ? (uint8_t)(VR_X + tl_below(&rng, 2)) : cells[cell];
            if (forward) { /* a child of the position before the move first */
                int sym_a, sym_b;
                VrKey a = vr_images_canonical_after(&t, &im, cell, s, &sym_a);
                cells[cell] = s;
                VrKey b = vr_canonical(&t, cells, &sym_b);
                cr_assert(vr_key_equal(a, b) && sym_a == sym_b, "n=%d: a child's canonical key", n);
            } else {
                cells[cell] = VR_EMPTY;
            }
            vr_images_toggle(&t, &im, cell, s);
            played += forward ? 1 : -1;
            for (int g = 0; g < VR_GEOMETRIES; g++) {
                uint8_t img[64];
                vr_image(n, g, cells, img);
                cr_assert(vr_key_equal(im.img[g], vr_key(n, img)), "n=%d geometry %d, %d pieces", n, g, played);
            }
            int sym_a, sym_b;
            VrKey a = vr_images_canonical(&im, &sym_a), b = vr_canonical(&t, cells, &sym_b);
            cr_assert(vr_key_equal(a, b) && sym_a == sym_b, "n=%d, %d pieces: canonical key or symmetry", n, played);
        }
        cr_assert_eq(played, 0);
        VrImages fresh;
        vr_images_of(&t, cells, &fresh);
        for (int g = 0; g < VR_GEOMETRIES; g++) cr_assert(vr_key_equal(im.img[g], fresh.img[g]));
    }
}
