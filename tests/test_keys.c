/* test_keys.c - the incremental child keys (knowledge.h: kn_key_base,
 * kn_key_child) against the whole key kn_key, whose canonical form
 * test_symmetry.c holds against the reference's coordinate images; and the
 * single-cell images (symmetry.h: sym_cell_map) against the reference. */
#include <criterion/criterion.h>
#include <string.h>

#include "../engine/symmetry.h"
#include "../solver/knowledge.h"
#include "testlib.h"

/* A random subset of mask (each bit kept with probability 1/4). */
static uint64_t some_of(uint64_t mask, uint64_t *rng)
{
    uint64_t out = 0;
    for (uint64_t m = mask; m; m &= m - 1)
        if (tl_below(rng, 4) == 0) out |= m & -m;
    return out;
}

static uint64_t empties(const Rules *r, Board b) { return r->cells & ~board_occupied(b); }

/* Every move from b, and a few arbitrary boards, keyed both ways. */
static void check_children(const Rules *r, const Knowledge *kn, Board b, uint64_t *rng)
{
    KnKeyBase base;
    uint64_t pdead = some_of(empties(r, b), rng);
    kn_key_base(r, kn, b, pdead, &base);
    for (uint64_t e = empties(r, b); e; e &= e - 1) {
        int cell = __builtin_ctzll(e);
        for (int piece = PIECE_X; piece <= PIECE_O; piece++) {
            Board c = b;
            board_place(&c, move_make(piece, cell));
            /* The child's dead cells: the parent's (not the move's cell)
             * and perhaps more, as a move only kills windows; or any. */
            uint64_t cdead = tl_below(rng, 3) ? (pdead & ~(1ULL << cell)) | some_of(empties(r, c), rng)
                                              : some_of(empties(r, c), rng);
            Board want = kn_key(r, kn, c, cdead), got = kn_key_child(kn, &base, c, cdead);
            cr_assert(board_equal(want, got), "n=%d rules=%d cell %d piece %d: child key %016llx/%016llx, want %016llx/%016llx",
                      r->n, (int)r->rules, cell, piece, (unsigned long long)got.s[0], (unsigned long long)got.s[1],
                      (unsigned long long)want.s[0], (unsigned long long)want.s[1]);
        }
    }
    /* Not a child at all: the key must still be exact. */
    RefPos q;
    tl_random_any(&q, r->n, r->k, REF_ORIGINAL, 30, 30, rng);
    Board o = tl_board(&q);
    uint64_t odead = some_of(empties(r, o), rng);
    cr_assert(board_equal(kn_key(r, kn, o, odead), kn_key_child(kn, &base, o, odead)), "n=%d: an unrelated board", r->n);
}

Test(keys, child_keys_equal_whole_keys)
{
    uint64_t rng = 31;
    static const int sym_pieces[] = {0, 3, 8, 64};
    for (int t = 0; t < 400; t++) {
        int n = 4 + tl_below(&rng, 5);
        int k = n >= 5 ? n - 1 : n;
        int rules = tl_below(&rng, 3);
        RefPos p;
        tl_random_any(&p, n, k, rules, tl_below(&rng, 30), tl_below(&rng, 30), &rng);
        Rules r;
        tl_init_rules(&r, &p);
        Knowledge kn = {.dead_cells = tl_below(&rng, 4) != 0, .sym_pieces = sym_pieces[tl_below(&rng, 4)]};
        check_children(&r, &kn, tl_board(&p), &rng);
    }
}

Test(keys, cell_images_match_reference_images)
{
    for (int n = 4; n <= 8; n++) {
        const SymCellMap *map = sym_cell_map(n);
        for (int g = 0; g < SYM_GEOMETRIC; g++)
            for (int cell = 0; cell < 64; cell++) {
                uint64_t want = 0;
                if (cell_row(cell) < n && cell_col(cell) < n) {
                    RefPos p = {.n = n, .k = n}, q;
                    memset(p.cell, '.', sizeof p.cell);
                    p.cell[cell_row(cell) * n + cell_col(cell)] = 'X';
                    ref_image(&p, g, &q);
                    want = tl_board(&q).s[PIECE_X];
                }
                cr_assert_eq((*map)[g][cell], want, "n=%d g=%d cell=%d", n, g, cell);
            }
    }
}
