/* tcentre.c - see tcentre.h. */
#include "tcentre.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testlib.h"

void tc_to_cells(const char *s, int count, uint8_t *out)
{
    for (int i = 0; i < count; i++) out[i] = s[i] == 'X' ? VR_X : s[i] == 'O' ? VR_O : VR_EMPTY;
}

int tc_count_empty(const char *s, int count)
{
    int e = 0;
    for (int i = 0; i < count; i++) e += s[i] == '.';
    return e;
}

int tc_cell_at(int n, const char *name) { return (name[1] - '1') * n + (name[0] - 'a'); }

/* --- the small game --- */

int tc_small_line_cell(int m, int l, int i)
{
    return l < m ? l * m + i : l < 2 * m ? i * m + (l - m) : l == 2 * m ? i * m + i : i * m + (m - 1 - i);
}

int tc_small_won(int m, const int *d, const uint8_t *allowed)
{
    for (int l = 0; l < 2 * m + 2; l++) {
        int s = d[tc_small_line_cell(m, l, 0)], same = s != 0;
        for (int i = 1; i < m; i++) same &= d[tc_small_line_cell(m, l, i)] == s;
        if (same && (!allowed || (allowed[l] >> s & 1))) return 1;
    }
    return 0;
}

void tc_retro_table(int m, const uint8_t *allowed, uint8_t *value)
{
    int cells = m * m, total = 1, pow3[9];
    for (int i = 0; i < cells; i++) pow3[i] = total, total *= 3;
    for (int pieces = cells; pieces >= 0; pieces--)
        for (int idx = 0; idx < total; idx++) {
            int d[9], count = 0;
            for (int i = 0, v = idx; i < cells; i++, v /= 3) d[i] = v % 3, count += d[i] != 0;
            if (count != pieces) continue;
            int line = tc_small_won(m, d, allowed);
            if (line || pieces == cells) {
                value[idx] = (uint8_t)line;
                continue;
            }
            int wins = 0, moves = 0;
            for (int i = 0; i < cells; i++)
                if (d[i] == 0)
                    for (int s = 1; s <= 2; s++) moves++, wins += value[idx + s * pow3[i]];
            value[idx] = (uint8_t)(pieces % 2 == 0 ? wins > 0 : wins == moves);
        }
}

/* --- the lemma on whole boards --- */

/* The ring pairs, typed in from the definition (the verifier computes them). */
static const char *const PAIRS4[] = {"a2/d2", "a3/d3", "b1/b4", "c1/c4", "a1/d4", "d1/a4"};
static const char *const PAIRS5[] = {"a2/e2", "a3/e3", "a4/e4", "b1/b5", "c1/c5", "d1/d5", "a1/e5", "e1/a5"};
static const char *const PAIRS6[] = {"a2/f2", "a3/f3", "a4/f4", "a5/f5", "b1/b6",
                                     "c1/c6", "d1/d6", "e1/e6", "a1/f6", "f1/a6"};

const char *const *tc_pairs_of(int n, int *count)
{
    *count = 2 * (n - 1);
    return n == 4 ? PAIRS4 : n == 5 ? PAIRS5 : PAIRS6;
}

void tc_lemma_shaped_but(int n, int pct_empty_pair, int pct_empty, int pct_bad, uint64_t *rng, char *out)
{
    int np;
    const char *const *pairs = tc_pairs_of(n, &np);
    memset(out, '.', (size_t)(n * n));
    out[n * n] = '\0';
    for (int p = 0; p < np; p++) {
        if (tl_below(rng, 100) < pct_empty_pair) continue;
        int x = tl_below(rng, 2);
        out[tc_cell_at(n, pairs[p])] = "XO"[x];
        out[tc_cell_at(n, pairs[p] + 3)] = "OX"[x];
    }
    for (int r = 1; r < n - 1; r++)
        for (int c = 1; c < n - 1; c++)
            if (tl_below(rng, 100) >= pct_empty) out[r * n + c] = "XO"[tl_below(rng, 2)];
    if (tl_below(rng, 100) < pct_bad) {
        const char *pair = pairs[tl_below(rng, np)];
        static const char *const bad[] = {"XX", "OO", "X.", ".X", "O.", ".O"};
        const char *b = bad[tl_below(rng, 6)];
        out[tc_cell_at(n, pair)] = b[0];
        out[tc_cell_at(n, pair + 3)] = b[1];
    }
}

void tc_lemma_shaped(int n, int pct_empty_pair, int pct_empty, uint64_t *rng, char *out)
{
    tc_lemma_shaped_but(n, pct_empty_pair, pct_empty, 0, rng, out);
}

void tc_pair_line(int n, int p, int *a, int *b, int line[VR_SMALL_MAX])
{
    int np;
    const char *const *pairs = tc_pairs_of(n, &np);
    *a = tc_cell_at(n, pairs[p]), *b = tc_cell_at(n, pairs[p] + 3);
    int dr = (*b / n - *a / n) / (n - 1), dc = (*b % n - *a % n) / (n - 1);
    for (int i = 0; i < n - 2; i++) line[i] = *a + (i + 1) * (dr * n + dc);
}

bool tc_line_dead(int n, int p, const char *s)
{
    int a, b, line[VR_SMALL_MAX], x = 0, o = 0;
    tc_pair_line(n, p, &a, &b, line);
    for (int i = 0; i < n - 2; i++) x |= s[line[i]] == 'X', o |= s[line[i]] == 'O';
    return x && o;
}

/* --- certificates --- */

char *tc_cert(int n, int k, const char *rules, const char *winner, const char *root, const char *lines)
{
    size_t len = strlen(lines) + 256;
    char *t = malloc(len);
    snprintf(t, len, "ocproof 2\nboard %d %d\nrules %s\nwinner %s\nroot %s\n%s", n, k, rules, winner, root, lines);
    return t;
}

void tc_lemma_line(int n, const char *pos, int s, char *out)
{
    RefPos p, q;
    ref_parse(&p, n, n - 1, REF_ORIGINAL, pos);
    ref_image(&p, s, &q);
    ref_format(&q, out);
    strcat(out, " lemma centre\n");
}
