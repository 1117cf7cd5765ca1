/* test_symmetry.c - the bitboard symmetries against the reference's
 * coordinate maps, and the canonical form. */
#include <criterion/criterion.h>

#include "../engine/symmetry.h"
#include "testlib.h"

Test(symmetry, bitboard_images_match_reference_images)
{
    uint64_t rng = 11;
    for (int t = 0; t < 500; t++) {
        int n = 4 + tl_below(&rng, 5);
        RefPos p, q;
        tl_random_any(&p, n, 3, REF_ORIGINAL, 30, 30, &rng);
        for (int s = 0; s < SYM_COUNT; s++) {
            ref_image(&p, s, &q);
            Board want = tl_board(&q), got = sym_apply(tl_board(&p), s, n);
            cr_assert(board_equal(got, want), "n=%d sym=%d", n, s);
        }
    }
}

Test(symmetry, all_16_images_share_the_canonical_form)
{
    uint64_t rng = 12;
    for (int t = 0; t < 1000; t++) {
        int n = 4 + tl_below(&rng, 5);
        RefPos p, q;
        tl_random_any(&p, n, 3, REF_ORIGINAL, tl_below(&rng, 50), tl_below(&rng, 50), &rng);
        Board c0 = sym_canonical(tl_board(&p), n, NULL);
        for (int s = 0; s < SYM_COUNT; s++) {
            ref_image(&p, s, &q);
            int used;
            Board c = sym_canonical(tl_board(&q), n, &used);
            cr_assert(board_equal(c, c0), "n=%d sym=%d", n, s);
            cr_assert(board_equal(sym_apply(tl_board(&q), used, n), c), "reported symmetry does not give the form");
            cr_assert(!sym_less(tl_board(&q), c), "canonical form is not the least image");
        }
    }
}

Test(symmetry, different_positions_have_different_canonical_forms)
{
    /* X at a1 and X at b1 are not symmetric on 6x6; X at a1 and O at f6 are. */
    Board a = {{1ULL << board_cell(0, 0), 0}}, b = {{1ULL << board_cell(0, 1), 0}};
    Board c = {{0, 1ULL << board_cell(5, 5)}};
    cr_expect(!board_equal(sym_canonical(a, 6, NULL), sym_canonical(b, 6, NULL)));
    cr_expect(board_equal(sym_canonical(a, 6, NULL), sym_canonical(c, 6, NULL)));
}

Test(symmetry, cells_moves_and_inverses)
{
    for (int n = 4; n <= 8; n++)
        for (int s = 0; s < SYM_COUNT; s++) {
            int inv = sym_inverse(s);
            cr_assert_geq(inv, 0);
            for (int r = 0; r < n; r++)
                for (int c = 0; c < n; c++) {
                    int cell = board_cell(r, c);
                    Board one = {{1ULL << cell, 0}};
                    Board img = sym_apply(one, s, n);
                    Move m = sym_move(move_make(PIECE_X, cell), s, n);
                    cr_assert_eq(img.s[move_piece(m)], 1ULL << move_cell(m), "n=%d s=%d cell=%d", n, s, cell);
                    cr_assert_eq(sym_cell(sym_cell(cell, s, n), inv, n), cell);
                }
        }
    /* The 8 geometric maps are distinct on a 6x6 board. */
    Board probe = {{1ULL << board_cell(0, 1) | 1ULL << board_cell(0, 2) | 1ULL << board_cell(1, 0), 0}};
    for (int s = 0; s < SYM_GEOMETRIC; s++)
        for (int t = s + 1; t < SYM_GEOMETRIC; t++)
            cr_expect(!board_equal(sym_apply(probe, s, 6), sym_apply(probe, t, 6)), "%d == %d", s, t);
}
