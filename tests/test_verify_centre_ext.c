/* test_verify_centre_ext.c - the verifier's extended game
 * (verify/verify_centre_ext.h) on its own: every configuration kind (no,
 * one and two HALF pairs; original and exact; random allowed sets) on the
 * 2x2 and 3x3 centre, at random positions of every piece count, the v
 * cells filled too (positions the lemma's own roots never have, but its
 * search meets and memoises). Checked against this file's plain minimax
 * of the game as the header defines it, with its own lines and no cut:
 * the verifier's "no line can count any more" cut and its memo must give
 * the same value everywhere. Invariant: nothing here is taken from the
 * verifier but the header's cell numbering and constants. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "../verify/verify_centre.h"
#include "../verify/verify_centre_ext.h"
#include "testlib.h"

/* The game as the header states it, cells 0..m*m-1 the centre (r*m + c),
 * m*m + j the v cell of HALF pair j; cell values 0 empty, 1 X, 2 O. */
typedef struct {
    const VrExt *e;
    int cells, line[2 * VR_SMALL_MAX + 2][VR_SMALL_MAX];
    int8_t *val; /* 0 unknown, else value + 1, by the cells' base-3 number */
} Ref;

static void ref_lines(int m, int line[][VR_SMALL_MAX])
{
    for (int i = 0; i < m; i++)
        for (int j = 0; j < m; j++) {
            line[i][j] = i * m + j;     /* row i */
            line[m + i][j] = j * m + i; /* column i */
        }
    for (int i = 0; i < m; i++) {
        line[2 * m][i] = i * m + i;
        line[2 * m + 1][i] = i * m + (m - 1 - i);
    }
}

static bool ref_counts(const Ref *r, const uint8_t *c)
{
    const VrExt *e = r->e;
    for (int l = 0; l < 2 * e->m + 2; l++) {
        uint8_t S = c[r->line[l][0]];
        bool full = S != 0;
        for (int i = 1; i < e->m; i++) full &= c[r->line[l][i]] == S;
        if (!full) continue;
        int j = -1;
        for (int h = 0; h < e->nhalf; h++)
            if (e->line[h] == l) j = h;
        if (j < 0) {
            if (e->allowed[l] & (1 << S)) return true;
        } else {
            uint8_t v = c[e->m * e->m + j];
            if (S == e->s0[j] ? !e->exact || v != S : v == S) return true;
        }
    }
    return false;
}

static int ref_solve(Ref *r, uint8_t *c, uint32_t idx, const uint32_t *pow3, bool order)
{
    if (r->val[idx]) return r->val[idx] - 1;
    int v = ref_counts(r, c);
    bool full = true;
    for (int i = 0; i < r->cells; i++) full &= c[i] != 0;
    if (!v && !full) {
        v = !order;
        for (int i = 0; i < r->cells && v != order; i++)
            for (uint8_t sym = 1; sym <= 2 && !c[i] && v != order; sym++) {
                c[i] = sym;
                if (ref_solve(r, c, idx + sym * pow3[i], pow3, !order) == (int)order) v = order;
                c[i] = 0;
            }
    }
    r->val[idx] = (int8_t)(v + 1);
    return v;
}

static void random_config(uint64_t *rng, int m, int nhalf, bool exact, VrExt *e)
{
    memset(e, 0, sizeof *e);
    e->m = m, e->nhalf = nhalf, e->exact = exact;
    int lines = 2 * m + 2;
    e->line[0] = tl_below(rng, lines - 1);
    e->line[1] = e->line[0] + 1 + tl_below(rng, lines - 1 - e->line[0]);
    if (nhalf == 1 && tl_below(rng, 2)) e->line[0] = e->line[1];
    for (int j = 0; j < nhalf; j++) e->s0[j] = (uint8_t)(1 + tl_below(rng, 2));
    for (int l = 0; l < lines; l++) e->allowed[l] = (uint8_t)(tl_below(rng, 3) ? VR_ALLOW_BOTH : tl_below(rng, 3) << 1);
}

/* Each random configuration under both rule sets, positions asked of the
 * two in turn: a table must be the one of its own rules (with a HALF pair
 * they are different games), and the two share one table without. */
Test(verify_centre_ext, the_extended_game_against_a_plain_minimax)
{
    uint64_t rng = 4242;
    int seen[2] = {0, 0}, v_filled = 0, rules_differ = 0;
    for (int m = 2; m <= 3; m++)
        for (int nhalf = 0; nhalf <= VR_EXT_MAX_HALF; nhalf++)
            for (int k = 0; k < 12; k++) {
                VrExt e[2];
                Ref r[2];
                random_config(&rng, m, nhalf, false, &e[0]);
                e[1] = e[0], e[1].exact = true;
                uint32_t pow3[VR_EXT_MAX_CELLS], size = 1;
                for (int i = 0; i < m * m + nhalf; i++) pow3[i] = size, size *= 3;
                for (int x = 0; x < 2; x++) {
                    r[x] = (Ref){.e = &e[x], .cells = m * m + nhalf, .val = calloc(size, 1)};
                    cr_assert(r[x].val);
                    ref_lines(m, r[x].line);
                }
                for (int t = 0; t < 400; t++) {
                    uint8_t c[VR_EXT_MAX_CELLS];
                    uint32_t x = 0, o = 0, idx = 0;
                    int pieces = 0, fill = tl_below(&rng, 101), want[2];
                    for (int i = 0; i < m * m + nhalf; i++) {
                        c[i] = tl_below(&rng, 100) < fill ? (uint8_t)(1 + tl_below(&rng, 2)) : 0;
                        x |= (uint32_t)(c[i] == 1) << i, o |= (uint32_t)(c[i] == 2) << i;
                        idx += c[i] * pow3[i], pieces += c[i] != 0;
                    }
                    bool order = (pieces + nhalf) % 2 == 0;
                    for (int ex = 0; ex < 2; ex++) {
                        uint64_t nodes;
                        want[ex] = ref_solve(&r[ex], c, idx, pow3, order);
                        int got = vr_ext_order_wins(&e[ex], x, o, order, UINT64_MAX, &nodes);
                        cr_assert_eq(got, want[ex], "m=%d nhalf %d exact %d config %d position %u: %d, the minimax %d",
                                     m, nhalf, ex, k, idx, got, want[ex]);
                        cr_assert_eq(vr_ext_order_wins(&e[ex], x, o, !order, UINT64_MAX, &nodes), -1,
                                     "the side the parity does not give is refused");
                        seen[want[ex]]++;
                    }
                    rules_differ += want[0] != want[1];
                    for (int j = 0; j < nhalf; j++) v_filled += c[m * m + j] != 0;
                }
                free(r[0].val), free(r[1].val);
            }
    cr_assert(seen[0] > 1000 && seen[1] > 1000 && v_filled > 1000 && rules_differ > 50,
              "%d Chaos, %d Order, %d v cells filled, %d positions whose value the rules change", seen[0], seen[1],
              v_filled, rules_differ);
}
