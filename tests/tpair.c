/* tpair.c - see tpair.h: the tests' own pairings. */
#include "tpair.h"

void tp_windows(int n, int k, TWindows *w)
{
    static const int dir[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};
    w->nw = 0;
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++)
            for (int d = 0; d < 4; d++) {
                int dr = dir[d][0], dc = dir[d][1], er = r + (k - 1) * dr, ec = c + (k - 1) * dc;
                if (er < 0 || er >= n || ec < 0 || ec >= n) continue;
                int i = w->nw++;
                for (int j = 0; j < k; j++) w->cell[i][j] = (r + j * dr) * n + c + j * dc;
                w->len[i] = k;
                w->nend[i] = 0;
                int br = r - dr, bc = c - dc, ar = er + dr, ac = ec + dc;
                if (br >= 0 && br < n && bc >= 0 && bc < n) w->end[i][w->nend[i]++] = br * n + bc;
                if (ar >= 0 && ar < n && ac >= 0 && ac < n) w->end[i][w->nend[i]++] = ar * n + ac;
            }
}

/* Can window i still become a winning line (for X or for O)? */
bool tp_live(const RefPos *p, const TWindows *w, int i)
{
    for (int s = 0; s < 2; s++) {
        char me = "XO"[s], other = "OX"[s];
        bool ok = true;
        for (int j = 0; j < w->len[i] && ok; j++) ok = p->cell[w->cell[i][j]] != other;
        if (p->rules != REF_ORIGINAL)
            for (int j = 0; j < w->nend[i] && ok; j++) ok = p->cell[w->end[i][j]] != me;
        if (ok) return true;
    }
    return false;
}

bool tp_in_window(const TWindows *w, int i, int cell)
{
    for (int j = 0; j < w->len[i]; j++)
        if (w->cell[i][j] == cell) return true;
    return false;
}

bool tp_at_end(const TWindows *w, int i, int cell)
{
    for (int j = 0; j < w->nend[i]; j++)
        if (w->end[i][j] == cell) return true;
    return false;
}


bool tp_covered(const TWindows *w, int i, const TPairs *t)
{
    for (int j = 0; j < t->n; j++) {
        if (!t->same[j] && tp_in_window(w, i, t->a[j]) && tp_in_window(w, i, t->b[j])) return true;
        if (t->same[j] && ((tp_in_window(w, i, t->a[j]) && tp_at_end(w, i, t->b[j])) ||
                           (tp_in_window(w, i, t->b[j]) && tp_at_end(w, i, t->a[j]))))
            return true;
    }
    return false;
}

/* Is t a pairing of p (disjoint empty cells, every live window covered;
 * parity apart)? */
bool tp_valid(const RefPos *p, const TWindows *w, const TPairs *t)
{
    char used[64] = {0};
    for (int j = 0; j < t->n; j++) {
        int a = t->a[j], b = t->b[j];
        if (a == b || p->cell[a] != '.' || p->cell[b] != '.' || used[a] || used[b]) return false;
        used[a] = used[b] = 1;
    }
    for (int i = 0; i < w->nw; i++)
        if (tp_live(p, w, i) && !tp_covered(w, i, t)) return false;
    return true;
}

/* Is window i live for symbol s (0: X, 1: O)? */
bool tp_live_for(const RefPos *p, const TWindows *w, int i, int s)
{
    char me = "XO"[s], other = "OX"[s];
    for (int j = 0; j < w->len[i]; j++)
        if (p->cell[w->cell[i][j]] == other) return false;
    if (p->rules != REF_ORIGINAL)
        for (int j = 0; j < w->nend[i]; j++)
            if (p->cell[w->end[i][j]] == me) return false;
    return true;
}

/* Is the opposite pair {a, b} breakable (pairing.h): every live window
 * holding both live for one symbol only, the same one? */
bool tp_breakable_pair(const RefPos *p, const TWindows *w, int a, int b)
{
    int lean = -1;
    for (int i = 0; i < w->nw; i++) {
        if (!tp_in_window(w, i, a) || !tp_in_window(w, i, b)) continue;
        bool lx = tp_live_for(p, w, i, 0), lo = tp_live_for(p, w, i, 1);
        if (!lx && !lo) continue;
        if (lx && lo) return false;
        if (lean >= 0 && lean != lo) return false;
        lean = lo;
    }
    return true;
}

/* Is cell c a witness of the pair {a, b} (pairing.h): empty, outside the
 * cells marked in paired, and in every live window holding both a and b? */
bool tp_witness(const RefPos *p, const TWindows *w, int a, int b, int c, const char *paired)
{
    if (p->cell[c] != '.' || paired[c]) return false;
    for (int i = 0; i < w->nw; i++)
        if (tp_in_window(w, i, a) && tp_in_window(w, i, b) && tp_live(p, w, i) && !tp_in_window(w, i, c)) return false;
    return true;
}

/* Does the pair {a, b} have a witness outside the cells in paired? */
bool tp_has_witness(const RefPos *p, const TWindows *w, int a, int b, const char *paired)
{
    for (int c = 0; c < p->n * p->n; c++)
        if (c != a && c != b && tp_witness(p, w, a, b, c, paired)) return true;
    return false;
}

/* The breakable form: a pairing (tp_valid) of opposite pairs, each
 * breakable or with a witness (a cell in no pair of t). */
bool tp_breakable(const RefPos *p, const TWindows *w, const TPairs *t)
{
    if (!tp_valid(p, w, t)) return false;
    char paired[64] = {0};
    for (int j = 0; j < t->n; j++) paired[t->a[j]] = paired[t->b[j]] = 1;
    for (int j = 0; j < t->n; j++)
        if (t->same[j] ||
            (!tp_breakable_pair(p, w, t->a[j], t->b[j]) && !tp_has_witness(p, w, t->a[j], t->b[j], paired)))
            return false;
    return true;
}

/* Exhaustive: a pairing covering every live window from window i on, same
 * pairs allowed or not; with brk (BRK_PLAIN), breakable opposite pairs
 * only; with BRK_WITNESS, the whole breakable form: opposite pairs, each
 * breakable or with a cell that may yet be its witness, the pairing
 * checked by tp_breakable when every window is covered (so every pairing
 * of the form is tried: a pair's witness is in no pair of the finished
 * pairing). */
enum { BRK_NONE, BRK_PLAIN, BRK_WITNESS };
static bool tp_exhaustive(const RefPos *p, const TWindows *w, int i, TPairs *t, char *used, bool same, int brk)
{
    while (i < w->nw && (!tp_live(p, w, i) || tp_covered(w, i, t))) i++;
    if (i == w->nw) return brk != BRK_WITNESS || tp_breakable(p, w, t);
    int nn = p->n * p->n;
    for (int a = 0; a < nn; a++) {
        if (p->cell[a] != '.' || used[a] || !tp_in_window(w, i, a)) continue;
        for (int b = 0; b < nn; b++) {
            if (b == a || p->cell[b] != '.' || used[b]) continue;
            for (int kind = 0; kind < 1 + same; kind++) {
                if (kind == 0 && (b < a || !tp_in_window(w, i, b))) continue;
                if (kind == 1 && !tp_at_end(w, i, b)) continue;
                if (brk && (kind == 1 || (!tp_breakable_pair(p, w, a, b) &&
                                          (brk == BRK_PLAIN || !tp_has_witness(p, w, a, b, used)))))
                    continue;
                t->a[t->n] = a, t->b[t->n] = b, t->same[t->n] = kind == 1, t->n++;
                used[a] = used[b] = 1;
                bool ok = tp_exhaustive(p, w, i + 1, t, used, same, brk);
                used[a] = used[b] = 0;
                t->n--;
                if (ok) return true;
            }
        }
    }
    return false;
}

bool tp_has_pairing(const RefPos *p, const TWindows *w, bool same)
{
    TPairs t = {0};
    char used[64] = {0};
    return tp_exhaustive(p, w, 0, &t, used, same, BRK_NONE);
}

/* A pairing of the breakable form, witnesses allowed (pairing_find's). */
bool tp_has_breakable(const RefPos *p, const TWindows *w, TPairs *t)
{
    char used[64] = {0};
    t->n = 0;
    return tp_exhaustive(p, w, 0, t, used, false, BRK_WITNESS);
}

/* One with no witness needed (pairing_search's). */
bool tp_has_plain_breakable(const RefPos *p, const TWindows *w)
{
    TPairs t = {0};
    char used[64] = {0};
    return tp_exhaustive(p, w, 0, &t, used, false, BRK_PLAIN);
}

/* The parity of pairing.h, from the reference position. */
bool tp_parity_ok(const RefPos *p)
{
    int empty = 0, nn = p->n * p->n;
    for (int i = 0; i < nn; i++) empty += p->cell[i] == '.';
    bool order = (nn - empty) % 2 == 0;
    return order == (empty % 2 == 0);
}

TPairs tp_from_set(const PairSet *ps, int n)
{
    TPairs t = {0};
    t.n = ps->n;
    for (int j = 0; j < ps->n; j++) {
        t.a[j] = cell_row(ps->p[j].a) * n + cell_col(ps->p[j].a);
        t.b[j] = cell_row(ps->p[j].b) * n + cell_col(ps->p[j].b);
        t.same[j] = ps->p[j].same;
    }
    return t;
}

/* The opposite pair of reference cells a, b on an n x n board. */
PairingPair tp_pair_of(int a, int b, int n)
{
    return (PairingPair){(uint8_t)board_cell(a / n, a % n), (uint8_t)board_cell(b / n, b % n), false};
}


/* The line of window i, by the test's own geometry: its direction (from
 * its first two cells) and the first on-board cell of the line, found by
 * stepping back; as a number, direction * 64 + that cell. */
int tp_line_key(const TWindows *w, int i, int n)
{
    int r = w->cell[i][0] / n, c = w->cell[i][0] % n;
    int dr = w->cell[i][1] / n - r, dc = w->cell[i][1] % n - c;
    while (r - dr >= 0 && r - dr < n && c - dc >= 0 && c - dc < n) r -= dr, c -= dc;
    int dir = dr == 0 ? 0 : dc == 0 ? 1 : dc == 1 ? 2 : 3;
    return dir * 64 + r * n + c;
}

/* The lines gate (pairing.h) by the test's own count: 2 x (lines with a
 * live window) <= empty cells? */
bool tp_lines_may(const RefPos *p, const TWindows *w)
{
    char seen[4 * 64] = {0};
    int lines = 0, empty = 0;
    for (int i = 0; i < w->nw; i++)
        if (tp_live(p, w, i) && !seen[tp_line_key(w, i, p->n)]++) lines++;
    for (int c = 0; c < p->n * p->n; c++) empty += p->cell[c] == '.';
    return 2 * lines <= empty;
}

/* The witnesses' lines gate (pairing.h) by the test's own count: 2 x
 * (lines with a live window) + ceil((lines with a window live for both
 * symbols) / 4) <= empty cells? */
bool tp_witness_lines_may(const RefPos *p, const TWindows *w)
{
    char seen[4 * 64] = {0}, seen2[4 * 64] = {0};
    int lines = 0, both = 0, empty = 0;
    for (int i = 0; i < w->nw; i++) {
        int key = tp_line_key(w, i, p->n);
        if (tp_live(p, w, i) && !seen[key]++) lines++;
        if (tp_live_for(p, w, i, 0) && tp_live_for(p, w, i, 1) && !seen2[key]++) both++;
    }
    for (int c = 0; c < p->n * p->n; c++) empty += p->cell[c] == '.';
    return 2 * lines + (both + 3) / 4 <= empty;
}

bool tp_find_covering(const RefPos *p, const TWindows *w, bool same, TPairs *t)
{
    char used[64] = {0};
    t->n = 0;
    return tp_exhaustive(p, w, 0, t, used, same, BRK_NONE);
}
