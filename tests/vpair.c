/* vpair.c - see vpair.h. */
#include "vpair.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- the test's own reading of the lemma, on RefPos cells ('X', 'O', '.') --- */

int vp_all_windows(int n, int k, VpWin *out)
{
    int count = 0, line[8], len;
    /* starts and steps of the lines: rows, columns, down-right from the top row and the left column,
     * down-left from the top row and the right column */
    for (int kind = 0; kind < 4; kind++)
        for (int s = 0; s < 2 * n; s++) {
            int r, c, dr, dc;
            if (kind == 0) {
                if (s >= n) continue;
                r = s, c = 0, dr = 0, dc = 1;
            } else if (kind == 1) {
                if (s >= n) continue;
                r = 0, c = s, dr = 1, dc = 0;
            } else if (kind == 2) {
                if (s == n) continue; /* (0, 0) once */
                r = s < n ? 0 : s - n, c = s < n ? s : 0, dr = 1, dc = 1;
            } else {
                if (s == n) continue; /* (0, n-1) once */
                r = s < n ? 0 : s - n, c = s < n ? s : n - 1, dr = 1, dc = -1;
            }
            len = 0;
            while (r >= 0 && r < n && c >= 0 && c < n) line[len++] = r * n + c, r += dr, c += dc;
            for (int off = 0; off + k <= len; off++) {
                VpWin *w = &out[count++];
                w->ncells = k;
                for (int i = 0; i < k; i++) w->cell[i] = line[off + i];
                w->nends = 0;
                if (off > 0) w->end[w->nends++] = line[off - 1];
                if (off + k < len) w->end[w->nends++] = line[off + k];
            }
        }
    return count;
}

int vp_has(const int *set, int count, int x)
{
    for (int i = 0; i < count; i++)
        if (set[i] == x) return 1;
    return 0;
}

int vp_live(const RefPos *p, const VpWin *w)
{
    for (int s = 0; s < 2; s++) {
        char me = "XO"[s], other = "OX"[s];
        int ok = 1;
        for (int i = 0; i < w->ncells; i++) ok &= p->cell[w->cell[i]] != other;
        if (p->rules != REF_ORIGINAL)
            for (int i = 0; i < w->nends; i++) ok &= p->cell[w->end[i]] != me;
        if (ok) return 1;
    }
    return 0;
}

int vp_covers(const VpWin *w, VpPair q)
{
    if (!q.same) return vp_has(w->cell, w->ncells, q.a) && vp_has(w->cell, w->ncells, q.b);
    return (vp_has(w->cell, w->ncells, q.a) && vp_has(w->end, w->nends, q.b)) ||
           (vp_has(w->cell, w->ncells, q.b) && vp_has(w->end, w->nends, q.a));
}

void vp_cell_name(int n, int cell, char *out)
{
    out[0] = (char)('a' + cell % n);
    out[1] = (char)('1' + cell / n);
    out[2] = '\0';
}

int vp_uncovered(const RefPos *p, const VpPair *q, int nq, char *out)
{
    static VpWin w[512];
    int nw = vp_all_windows(p->n, p->k, w), count = 0;
    out[0] = '\0';
    for (int i = 0; i < nw; i++) {
        if (!vp_live(p, &w[i])) continue;
        int cov = 0;
        for (int j = 0; j < nq; j++) cov |= vp_covers(&w[i], q[j]);
        if (cov) continue;
        char a[4], b[4];
        vp_cell_name(p->n, w[i].cell[0], a);
        vp_cell_name(p->n, w[i].cell[w[i].ncells - 1], b);
        sprintf(out + strlen(out), " %s-%s %s-%s", a, b, b, a);
        count++;
    }
    if (count) strcat(out, " ");
    return count;
}

int vp_count_empty(const RefPos *p)
{
    int e = 0;
    for (int i = 0; i < p->n * p->n; i++) e += p->cell[i] == '.';
    return e;
}

/* Can window w still win for the symbol me (the README's reading)? */
static int can_win_for(const RefPos *p, const VpWin *w, char me)
{
    char other = me == 'X' ? 'O' : 'X';
    for (int i = 0; i < w->ncells; i++)
        if (p->cell[w->cell[i]] == other) return 0;
    if (p->rules != REF_ORIGINAL)
        for (int i = 0; i < w->nends; i++)
            if (p->cell[w->end[i]] == me) return 0;
    return 1;
}

/* A witness of pair j (the README): an empty cell in no pair that every
 * live window holding both the pair's cells holds. */
static int has_witness(const RefPos *p, const VpPair *q, int nq, int j, const VpWin *w, int nw)
{
    for (int c = 0; c < p->n * p->n; c++) {
        int free = p->cell[c] == '.';
        for (int i = 0; i < nq && free; i++) free = q[i].a != c && q[i].b != c;
        for (int i = 0; i < nw && free; i++)
            if (vp_has(w[i].cell, w[i].ncells, q[j].a) && vp_has(w[i].cell, w[i].ncells, q[j].b) &&
                (can_win_for(p, &w[i], 'X') || can_win_for(p, &w[i], 'O')))
                free = vp_has(w[i].cell, w[i].ncells, c);
        if (free) return 1;
    }
    return 0;
}

/* Does pair j lean (the README's first sense of breakable): every live
 * window holding both its cells can still win for one symbol only, the
 * same one? */
static int pair_leans(const RefPos *p, VpPair q, const VpWin *w, int nw)
{
    char lean = 0;
    for (int i = 0; i < nw; i++) {
        if (!vp_has(w[i].cell, w[i].ncells, q.a) || !vp_has(w[i].cell, w[i].ncells, q.b)) continue;
        int x = can_win_for(p, &w[i], 'X'), o = can_win_for(p, &w[i], 'O');
        if (!x && !o) continue;
        char s = x ? 'X' : 'O';
        if ((x && o) || (lean && lean != s)) return 0;
        lean = s;
    }
    return 1;
}

int vp_all_breakable(const RefPos *p, const VpPair *q, int nq)
{
    static VpWin w[512];
    int nw = vp_all_windows(p->n, p->k, w);
    for (int j = 0; j < nq; j++)
        if (q[j].same || (!pair_leans(p, q[j], w, nw) && !has_witness(p, q, nq, j, w, nw))) return 0;
    return 1;
}

int vp_needs_witness(const RefPos *p, const VpPair *q, int nq)
{
    static VpWin w[512];
    int nw = vp_all_windows(p->n, p->k, w);
    for (int j = 0; j < nq; j++)
        if (!pair_leans(p, q[j], w, nw)) return 1;
    return 0;
}

int vp_spec_holds(const RefPos *p, int claim_chaos, const VpPair *q, int nq)
{
    int nn = p->n * p->n, seen[64] = {0};
    char unc[8192];
    if (!claim_chaos || ref_status(p) != REF_ONGOING) return 0;
    for (int i = 0; i < nq; i++) {
        if (q[i].same && p->rules != REF_EXACT_END) return 0;
        if (p->cell[q[i].a] != '.' || p->cell[q[i].b] != '.' || q[i].a == q[i].b) return 0;
        if (seen[q[i].a]++ || seen[q[i].b]++) return 0;
    }
    int e = vp_count_empty(p), order_to_move = (nn - e) % 2 == 0;
    if (!((order_to_move && e % 2 == 0) || (!order_to_move && e % 2 == 1)) && !vp_all_breakable(p, q, nq)) return 0;
    return vp_uncovered(p, q, nq, unc) == 0;
}

/* --- writing certificates --- */

int vp_image_cell(int n, int s, int i)
{
    RefPos p, q;
    char e[65];
    memset(e, '.', (size_t)(n * n));
    e[n * n] = '\0';
    ref_parse(&p, n, 3, REF_ORIGINAL, e);
    p.cell[i] = 'X';
    ref_image(&p, s & 7, &q);
    for (int j = 0; j < n * n; j++)
        if (q.cell[j] == 'X') return j;
    cr_assert_fail("image of cell %d lost", i);
    return -1;
}

void vp_pair_text(int n, VpPair q, char *out)
{
    char a[4], b[4];
    vp_cell_name(n, q.a, a);
    vp_cell_name(n, q.b, b);
    sprintf(out, "%s:%s%c", a, b, q.same ? '=' : '~');
}

void vp_lemma_line(const RefPos *p, const VpPair *q, int nq, int s, char *out)
{
    RefPos img;
    ref_image(p, s, &img);
    ref_format(&img, out);
    strcat(out, " lemma pairing");
    for (int i = 0; i < nq; i++) {
        VpPair m = {vp_image_cell(p->n, s, q[i].a), vp_image_cell(p->n, s, q[i].b), q[i].same};
        strcat(out, " ");
        vp_pair_text(p->n, m, out + strlen(out));
    }
    strcat(out, "\n");
}

const char *const VP_RULES_NAME[3] = {"original", "exact", "exact-end"};

char *vp_cert(int n, int k, int rules, const char *winner, const char *root, const char *lines)
{
    size_t len = strlen(lines) + 256;
    char *t = malloc(len);
    snprintf(t, len, "ocproof 2\nboard %d %d\nrules %s\nwinner %s\nroot %s\n%s", n, k, VP_RULES_NAME[rules], winner,
             root, lines);
    return t;
}

int vp_check(const char *text, VerifyResult *r)
{
    int rc = verify_text(text, r);
    cr_assert_eq(rc, r->status);
    return rc;
}
