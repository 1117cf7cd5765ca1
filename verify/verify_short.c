/* verify_short.c - the last plies the check searches itself
 * (verify_short.h): every move of both sides tried, each judged only by
 * verify_rules.* (vr_status_after, vr_wins_at_once). */
#include "verify_short.h"

static bool order_fails(Verifier *v, uint64_t x, uint64_t o, int empty, int h);

/* Places s on the empty cell i of v->cells (x and o: its masks before,
 * `empty` empty cells before): the masks after into *cx and *co, and the
 * status after (vr_status_after). The caller empties the cell again. */
static inline int place_and_judge(Verifier *v, int i, uint8_t s, uint64_t x, uint64_t o, int empty, uint64_t *cx,
                                  uint64_t *co)
{
    *cx = s == VR_X ? x | 1ULL << i : x;
    *co = s == VR_O ? o | 1ULL << i : o;
    v->cells[i] = s;
    return vr_status_after(&v->g, &v->lines, v->cells, *cx, *co, i, empty == 1);
}

bool vr_chaos_holds(Verifier *v, uint64_t x, uint64_t o, int empty, int h)
{
    const int nn = v->g.n * v->g.n;
    for (int i = 0; i < nn; i++) {
        if (v->cells[i] != VR_EMPTY) continue;
        for (uint8_t s = VR_X; s <= VR_O; s++) {
            uint64_t cx, co;
            int st = place_and_judge(v, i, s, x, o, empty, &cx, &co);
            bool holds = st != VR_ORDER_WINS && (h < 2 || st != VR_ONGOING || order_fails(v, cx, co, empty - 1, h - 1));
            v->cells[i] = VR_EMPTY;
            if (holds) return true;
        }
    }
    return false;
}

static bool order_fails(Verifier *v, uint64_t x, uint64_t o, int empty, int h)
{
    if (vr_wins_at_once(&v->g, &v->lines, v->cells, x, o, empty)) return false;
    if (h < 2) return true;
    const int nn = v->g.n * v->g.n;
    for (int i = 0; i < nn; i++) {
        if (v->cells[i] != VR_EMPTY) continue;
        for (uint8_t s = VR_X; s <= VR_O; s++) {
            uint64_t cx, co;
            int st = place_and_judge(v, i, s, x, o, empty, &cx, &co);
            bool fails = st != VR_ORDER_WINS && (st != VR_ONGOING || vr_chaos_holds(v, cx, co, empty - 1, h - 1));
            v->cells[i] = VR_EMPTY;
            if (!fails) return false;
        }
    }
    return true;
}

bool vr_order_move_found(Verifier *v, int empty, int *rest)
{
    const int nn = v->g.n * v->g.n;
    uint64_t x = v->im.img[0].x, o = v->im.img[0].o; /* geometry 0: the cells' own masks */
    for (int i = 0; i < nn; i++) {
        if (v->cells[i] != VR_EMPTY) continue;
        for (uint8_t s = VR_X; s <= VR_O; s++) {
            uint64_t ox, oo;
            bool all = place_and_judge(v, i, s, x, o, empty, &ox, &oo) == VR_ONGOING;
            int end = empty - 2; /* every reply completing a line: the game ends with it */
            for (int j = 0; j < nn && all; j++) {
                if (v->cells[j] != VR_EMPTY) continue;
                for (uint8_t t = VR_X; t <= VR_O && all; t++) {
                    uint64_t cx, co;
                    int st = place_and_judge(v, j, t, ox, oo, empty - 1, &cx, &co);
                    if (st != VR_ORDER_WINS) {
                        all = st == VR_ONGOING && vr_wins_at_once(&v->g, &v->lines, v->cells, cx, co, empty - 2);
                        end = empty - 3;
                    }
                    v->cells[j] = VR_EMPTY;
                }
            }
            v->cells[i] = VR_EMPTY;
            if (all) {
                *rest = end;
                return true;
            }
        }
    }
    return false;
}
