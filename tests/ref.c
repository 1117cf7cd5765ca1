/*
 * ref.c - independent, deliberately naive reference implementation of the
 * Order and Chaos rules, used ONLY by tests to cross-check the engine.
 * It shares no code with the engine (engine/, tables/, solver/) and is meant
 * to be obviously correct by reading: plain char arrays, nested loops,
 * no bit tricks, no tables, no caching.
 */
#include "ref.h"
#include <string.h>

int ref_parse(RefPos *p, int n, int k, int rules, const char *s)
{
    if (n < 4 || n > 8 || k < 3 || k > n || rules < 0 || rules > 2 || s == NULL)
        return -1;
    if ((int)strlen(s) != n * n)
        return -1;
    for (int i = 0; i < n * n; i++)
        if (s[i] != 'X' && s[i] != 'O' && s[i] != '.')
            return -1;
    p->n = n;
    p->k = k;
    p->rules = rules;
    for (int i = 0; i < 64; i++)
        p->cell[i] = '.';
    for (int i = 0; i < n * n; i++)
        p->cell[i] = s[i];
    return 0;
}

void ref_format(const RefPos *p, char *out)
{
    for (int i = 0; i < p->n * p->n; i++)
        out[i] = p->cell[i];
    out[p->n * p->n] = '\0';
}

static int on_board(int n, int r, int c)
{
    return r >= 0 && r < n && c >= 0 && c < n;
}

int ref_has_line(const RefPos *p)
{
    static const int dirs[4][2] = { {0, 1}, {1, 0}, {1, 1}, {1, -1} };
    int n = p->n;
    for (int d = 0; d < 4; d++) {
        int dr = dirs[d][0], dc = dirs[d][1];
        for (int r = 0; r < n; r++) {
            for (int c = 0; c < n; c++) {
                char s = p->cell[r * n + c];
                if (s != 'X' && s != 'O')
                    continue;
                /* only start at the first cell of a maximal run */
                int pr = r - dr, pc = c - dc;
                if (on_board(n, pr, pc) && p->cell[pr * n + pc] == s)
                    continue;
                int len = 0;
                int rr = r, cc = c;
                while (on_board(n, rr, cc) && p->cell[rr * n + cc] == s) {
                    len++;
                    rr += dr;
                    cc += dc;
                }
                if (p->rules == REF_ORIGINAL) {
                    if (len >= p->k)
                        return 1;
                } else {
                    if (len == p->k)
                        return 1;
                }
            }
        }
    }
    return 0;
}

static int is_full(const RefPos *p)
{
    for (int i = 0; i < p->n * p->n; i++)
        if (p->cell[i] == '.')
            return 0;
    return 1;
}

int ref_status(const RefPos *p)
{
    int full = is_full(p);
    if (p->rules == REF_EXACT_END) {
        if (!full)
            return REF_ONGOING;
        return ref_has_line(p) ? REF_ORDER_WINS : REF_CHAOS_WINS;
    }
    if (ref_has_line(p))
        return REF_ORDER_WINS;
    if (full)
        return REF_CHAOS_WINS;
    return REF_ONGOING;
}

/* The length of the run of cell's symbol through cell along (dr, dc). */
static int run_through(const RefPos *p, int cell, int dr, int dc)
{
    int n = p->n, r0 = cell / n, c0 = cell % n, len = 1;
    char s = p->cell[cell];
    for (int sign = -1; sign <= 1; sign += 2) {
        int r = r0 + sign * dr, c = c0 + sign * dc;
        while (on_board(n, r, c) && p->cell[r * n + c] == s) {
            len++;
            r += sign * dr;
            c += sign * dc;
        }
    }
    return len;
}

/* Why only the lines through cell: the position before the move was
 * ongoing. Under original and exact that means it had no winning run
 * (ref_status looks at lines first), and a move changes only the runs
 * through its own cell, so p has a winning run iff one of those is. Under
 * exact-end only the full board is judged, by ref_has_line itself. The
 * tests check this against ref_status on random positions (test_rules.c). */
int ref_status_after(const RefPos *p, int cell)
{
    static const int dirs[4][2] = { {0, 1}, {1, 0}, {1, 1}, {1, -1} };
    int full = is_full(p);
    if (p->rules == REF_EXACT_END)
        return !full ? REF_ONGOING : ref_has_line(p) ? REF_ORDER_WINS : REF_CHAOS_WINS;
    for (int d = 0; d < 4; d++) {
        int len = run_through(p, cell, dirs[d][0], dirs[d][1]);
        if (p->rules == REF_ORIGINAL ? len >= p->k : len == p->k)
            return REF_ORDER_WINS;
    }
    return full ? REF_CHAOS_WINS : REF_ONGOING;
}

uint64_t ref_perft(RefPos *p, int depth)
{
    static const char syms[2] = { 'X', 'O' };
    if (depth == 0)
        return 1;
    if (ref_status(p) != REF_ONGOING)
        return 0;
    uint64_t total = 0;
    for (int i = 0; i < p->n * p->n; i++) {
        if (p->cell[i] != '.')
            continue;
        for (int s = 0; s < 2; s++) {
            p->cell[i] = syms[s];
            total += ref_perft(p, depth - 1);
            p->cell[i] = '.';
        }
    }
    return total;
}

void ref_image(const RefPos *p, int sym, RefPos *out)
{
    int n = p->n;
    int g = sym & 7;
    RefPos tmp;               /* allows out == p */
    tmp.n = p->n;
    tmp.k = p->k;
    tmp.rules = p->rules;
    for (int i = 0; i < 64; i++)
        tmp.cell[i] = '.';
    for (int r = 0; r < n; r++) {
        for (int c = 0; c < n; c++) {
            char s = p->cell[r * n + c];
            if (s == '.')
                continue;
            int nr = r, nc = c;
            if (g & 1)
                nc = n - 1 - nc;
            if (g & 2)
                nr = n - 1 - nr;
            if (g & 4) {
                int t = nr;
                nr = nc;
                nc = t;
            }
            if (sym & 8)
                s = (s == 'X') ? 'O' : 'X';
            tmp.cell[nr * n + nc] = s;
        }
    }
    *out = tmp;
}

int ref_winning_moves(const RefPos *p, char *syms, int *cells, int max)
{
    static const char order[2] = { 'X', 'O' };
    if (ref_status(p) != REF_ONGOING)
        return 0;
    RefPos q = *p;
    int count = 0;
    for (int i = 0; i < q.n * q.n; i++) {
        if (q.cell[i] != '.')
            continue;
        for (int s = 0; s < 2; s++) {
            q.cell[i] = order[s];
            if (ref_status(&q) == REF_ORDER_WINS) {
                if (count < max) {
                    syms[count] = order[s];
                    cells[count] = i;
                }
                count++;
            }
            q.cell[i] = '.';
        }
    }
    return count < max ? count : max;
}
