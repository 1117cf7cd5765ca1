/*
 * brute.c - brute-force minimax with exact distance to win, for tests only.
 * See brute.h for the definitions.  Deliberately naive: every empty cell
 * times {X, O} is tried in board order, positions are judged only by the
 * reference rules (ref_status at the root, ref_status_after below it: the
 * lines through the cell just played), and the only help is a memo of
 * exact positions.  No symmetry, no threat logic, and one cut that keeps
 * the value exact: a node stops at a child whose value no other child can
 * beat (for Order 1, a win on this move, since a child's dtw is never
 * below 0; for Chaos INF, a child Chaos wins).
 *
 * The memo is a plain array indexed by the position written in base 3:
 * the memo has a "base" position B with empty cells e_0 < e_1 < ... < e_{E-1};
 * every position Q that keeps all of B's pieces (in particular everything
 * reachable from B) is numbered
 *     index(Q) = sum_j s_j * 3^j,  s_j = 0 / 1 / 2 if cell e_j of Q is . / X / O.
 * This is a bijection between such positions and 0 .. 3^E - 1, so slot
 * index(Q) belongs to Q alone: no hashing, no collisions, no key compare.
 * Slot value 0 = not computed yet, otherwise dtw + 2 (dtw = -1 for Chaos),
 * or ORDER_NO_DTW: Order wins, found by the value search (brute_value),
 * which stops at the first child that decides; the dtw search takes such a
 * slot as not computed and fills it.
 */
#include "brute.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BRUTE_INF 1000           /* internal "Chaos wins"; never returned */
#define ORDER_NO_DTW 127         /* slot: Order wins, distance not computed */

struct BruteMemo {
    int have_base;               /* 0: no base yet */
    RefPos base;                 /* base position (n, k, rules, cells) */
    uint32_t weight[64];         /* 3^j for base-empty cell e_j, 0 for base pieces */
    size_t size;                 /* 3^E: slots in use */
    size_t cap;                  /* slots allocated */
    signed char *val;            /* val[index]: 0 unknown, else dtw + 2 */
};

static void die(const char *what)
{
    fprintf(stderr, "brute: %s\n", what);
    abort();
}

BruteMemo *brute_new(void)
{
    return calloc(1, sizeof(BruteMemo));
}

void brute_free(BruteMemo *m)
{
    if (m == NULL)
        return;
    free(m->val);
    free(m);
}

/* Does q belong to the current base: same n, k, rules and every piece of
 * the base still on its cell? */
static int extends_base(const BruteMemo *m, const RefPos *q)
{
    const RefPos *b = &m->base;
    if (!m->have_base || q->n != b->n || q->k != b->k || q->rules != b->rules)
        return 0;
    for (int i = 0; i < q->n * q->n; i++)
        if (b->cell[i] != '.' && q->cell[i] != b->cell[i])
            return 0;
    return 1;
}

static void set_base(BruteMemo *m, const RefPos *p)
{
    int cells = p->n * p->n;
    int empties = 0;
    size_t size = 1;
    for (int i = 0; i < 64; i++)
        m->weight[i] = 0;
    for (int i = 0; i < cells; i++) {
        if (p->cell[i] != '.')
            continue;
        if (++empties > BRUTE_MAX_EMPTY)
            die("too many empty cells (see BRUTE_MAX_EMPTY)");
        m->weight[i] = (uint32_t)size;
        size *= 3;
    }
    if (size > m->cap) {
        free(m->val);
        m->val = malloc(size);
        if (m->val == NULL)
            die("out of memory");
        m->cap = size;
    }
    memset(m->val, 0, size);
    m->size = size;
    m->base = *p;
    m->have_base = 1;
}

/* Exact dtw of p (BRUTE_INF if Chaos wins); idx = index(p), pieces = number
 * of pieces on the board, st = ref_status(p).  p is restored on return. */
static int solve(BruteMemo *m, RefPos *p, size_t idx, int pieces, int st)
{
    if (m->val[idx] != 0 && m->val[idx] != ORDER_NO_DTW)
        return m->val[idx] == 1 ? BRUTE_INF : m->val[idx] - 2;

    int result;
    if (st == REF_ORDER_WINS) {
        result = 0;
    } else if (st == REF_CHAOS_WINS) {
        result = BRUTE_INF;
    } else {
        int order_to_move = (pieces % 2 == 0);
        int best = order_to_move ? BRUTE_INF : -1;
        const int unbeatable = order_to_move ? 1 : BRUTE_INF;
        int any_move = 0;
        for (int i = 0; i < p->n * p->n && best != unbeatable; i++) {
            if (p->cell[i] != '.')
                continue;
            for (int s = 1; s <= 2 && best != unbeatable; s++) { /* 1: X, 2: O */
                any_move = 1;
                p->cell[i] = (s == 1) ? 'X' : 'O';
                int d = solve(m, p, idx + (size_t)s * m->weight[i], pieces + 1, ref_status_after(p, i));
                p->cell[i] = '.';
                int v = (d == BRUTE_INF) ? BRUTE_INF : 1 + d;
                if (order_to_move ? v < best : v > best)
                    best = v;
            }
        }
        if (!any_move)
            die("ongoing position with no empty cell");
        result = best;
    }
    m->val[idx] = (signed char)(result == BRUTE_INF ? 1 : result + 2);
    return result;
}

/* Does Order win p? Plain minimax over the values alone: Order's node
 * stops at its first child Order wins, Chaos's at its first child Chaos
 * wins (no other child can change a node's value then). */
static int solve_value(BruteMemo *m, RefPos *p, size_t idx, int pieces, int st)
{
    signed char have = m->val[idx];
    if (have != 0)
        return have != 1;
    int win;
    if (st != REF_ONGOING) {
        win = st == REF_ORDER_WINS;
    } else {
        int order_to_move = (pieces % 2 == 0);
        win = !order_to_move;               /* what no move changes */
        for (int i = 0; i < p->n * p->n && win != order_to_move; i++) {
            if (p->cell[i] != '.')
                continue;
            for (int s = 1; s <= 2 && win != order_to_move; s++) {
                p->cell[i] = (s == 1) ? 'X' : 'O';
                int c = solve_value(m, p, idx + (size_t)s * m->weight[i], pieces + 1, ref_status_after(p, i));
                p->cell[i] = '.';
                if (c == order_to_move)
                    win = c;
            }
        }
    }
    m->val[idx] = (signed char)(win ? ORDER_NO_DTW : 1);
    return win;
}

/* Checks p, makes it the memo's base unless it extends the base, and
 * gives its index and its number of pieces. */
static size_t prepare(BruteMemo *m, RefPos *p, int *pieces)
{
    if (m == NULL || p == NULL)
        die("NULL argument");
    if (p->n < 1 || p->n > 8)
        die("board size out of range");
    *pieces = 0;
    for (int i = 0; i < p->n * p->n; i++) {
        if (p->cell[i] == 'X' || p->cell[i] == 'O')
            ++*pieces;
        else if (p->cell[i] != '.')
            die("bad cell");
    }
    if (!extends_base(m, p))
        set_base(m, p);

    size_t idx = 0;
    for (int i = 0; i < p->n * p->n; i++) {
        if (m->base.cell[i] != '.')
            continue;                                /* same piece as the base */
        if (p->cell[i] == 'X')
            idx += 1 * (size_t)m->weight[i];
        else if (p->cell[i] == 'O')
            idx += 2 * (size_t)m->weight[i];
    }
    return idx;
}

int brute_dtw(BruteMemo *m, RefPos *p)
{
    int pieces;
    size_t idx = prepare(m, p, &pieces);
    int d = solve(m, p, idx, pieces, ref_status(p));
    return d == BRUTE_INF ? -1 : d;
}

int brute_value(BruteMemo *m, RefPos *p)
{
    int pieces;
    size_t idx = prepare(m, p, &pieces);
    return solve_value(m, p, idx, pieces, ref_status(p));
}
