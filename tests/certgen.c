/* certgen.c - see certgen.h. */
#include "certgen.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runbin.h"
#include "testlib.h"

/* --- a growable map from exact (x, o) masks to a small value --- */

static CgMapE *cg_map_slot(CgMap *m, uint64_t x, uint64_t o)
{
    size_t i = (size_t)((x * 0x9E3779B97F4A7C15ULL ^ o * 0xC2B2AE3D27D4EB4FULL) >> 20) & (m->cap - 1);
    while (m->e[i].v && !(m->e[i].x == x && m->e[i].o == o)) i = (i + 1) & (m->cap - 1);
    return &m->e[i];
}
int cg_map_get(CgMap *m, uint64_t x, uint64_t o) { return m->cap ? cg_map_slot(m, x, o)->v : 0; }
void cg_map_put(CgMap *m, uint64_t x, uint64_t o, int v)
{
    if (2 * (m->count + 1) > m->cap) {
        CgMap big = {calloc(m->cap ? 2 * m->cap : 4096, sizeof(CgMapE)), m->cap ? 2 * m->cap : 4096, m->count};
        for (size_t i = 0; i < m->cap; i++)
            if (m->e[i].v) *cg_map_slot(&big, m->e[i].x, m->e[i].o) = m->e[i];
        free(m->e);
        *m = big;
    }
    CgMapE *e = cg_map_slot(m, x, o);
    if (!e->v) m->count++;
    *e = (CgMapE){x, o, v};
}

/* --- the test's own solver and certificate writer, on ref.c --- */
void cg_masks(const RefPos *p, uint64_t *x, uint64_t *o)
{
    *x = *o = 0;
    for (int i = 0; i < p->n * p->n; i++) {
        if (p->cell[i] == 'X') *x |= 1ULL << i;
        if (p->cell[i] == 'O') *o |= 1ULL << i;
    }
}
int cg_pieces(const RefPos *p)
{
    int c = 0;
    for (int i = 0; i < p->n * p->n; i++) c += p->cell[i] != '.';
    return c;
}
bool cg_order_wins_in_three(const RefPos *p)
{
    RefPos a = *p;
    char syms[1];
    int cells[1], nn = p->n * p->n;
    for (int c = 0; c < nn; c++)
        for (int s = 0; s < 2 && a.cell[c] == '.'; s++) {
            a.cell[c] = "XO"[s];
            int st = ref_status(&a);
            bool all = st == REF_ORDER_WINS;
            if (st == REF_ONGOING) {
                all = true;
                for (int d = 0; d < nn && all; d++)
                    for (int t = 0; t < 2 && all && a.cell[d] == '.'; t++) {
                        a.cell[d] = "XO"[t];
                        int st2 = ref_status(&a);
                        all = st2 == REF_ORDER_WINS || (st2 == REF_ONGOING && ref_winning_moves(&a, syms, cells, 1) > 0);
                        a.cell[d] = '.';
                    }
            }
            a.cell[c] = '.';
            if (all) return true;
        }
    return false;
}

bool cg_line_needed(const char *line, int n, int k, int rules)
{
    char pos[80], mv[8];
    RefPos q;
    if (sscanf(line, "%79s %7s", pos, mv) != 2 || ref_parse(&q, n, k, rules, pos) != 0) return true;
    return cg_pieces(&q) % 2 == 1 || ref_status(&q) != REF_ONGOING || !cg_order_wins_in_three(&q);
}

/* The least of the 16 images (by the cell characters). */
void cg_canon(const RefPos *p, RefPos *out)
{
    *out = *p;
    for (int s = 1; s < 16; s++) {
        RefPos q;
        ref_image(p, s, &q);
        if (memcmp(q.cell, out->cell, (size_t)(p->n * p->n)) < 0) *out = q;
    }
}

CgMap cg_solved;
int cg_solve(RefPos *p) /* REF_ORDER_WINS or REF_CHAOS_WINS */
{
    int st = ref_status(p);
    if (st != REF_ONGOING) return st;
    RefPos c;
    uint64_t x, o;
    cg_canon(p, &c);
    cg_masks(&c, &x, &o);
    int v = cg_map_get(&cg_solved, x, o);
    if (v) return v;
    int want = cg_pieces(p) % 2 == 0 ? REF_ORDER_WINS : REF_CHAOS_WINS;
    v = want == REF_ORDER_WINS ? REF_CHAOS_WINS : REF_ORDER_WINS;
    for (int i = 0; i < p->n * p->n && v != want; i++) {
        if (p->cell[i] != '.') continue;
        for (int s = 0; s < 2 && v != want; s++) {
            p->cell[i] = "XO"[s];
            if (cg_solve(p) == want) v = want;
            p->cell[i] = '.';
        }
    }
    cg_map_put(&cg_solved, x, o, v);
    return v;
}


static void cg_emit(CgCert *c, const RefPos *p0)
{
    if (ref_status(p0) != REF_ONGOING) return;
    RefPos p;
    uint64_t x, o;
    cg_canon(p0, &p);
    cg_masks(&p, &x, &o);
    if (cg_map_get(&c->seen, x, o)) return;
    cg_map_put(&c->seen, x, o, 1);
    bool winner_moves = (cg_pieces(&p) % 2 == 0) == (c->winner == REF_ORDER_WINS);
    char syms[2];
    int cells[2];
    if (winner_moves && c->omit && c->winner == REF_ORDER_WINS && ref_winning_moves(&p, syms, cells, 2) > 0) return;
    for (int i = 0; i < p.n * p.n; i++) {
        if (p.cell[i] != '.') continue;
        for (int s = 0; s < 2; s++) {
            p.cell[i] = "XO"[s];
            if (!winner_moves) {
                cg_emit(c, &p);
            } else if (cg_solve(&p) == c->winner) {
                char pos[65], *l = malloc(80);
                p.cell[i] = '.';
                ref_format(&p, pos);
                snprintf(l, 80, "%s %c%c%d", pos, "XO"[s], 'a' + i % p.n, 1 + i / p.n);
                c->line = realloc(c->line, (size_t)(c->nlines + 1) * sizeof *c->line);
                c->line[c->nlines++] = l;
                p.cell[i] = "XO"[s];
                cg_emit(c, &p);
                return;
            }
            p.cell[i] = '.';
        }
    }
    cr_assert(!winner_moves, "the test solver found no winning move");
}

const char *const CG_RULES[3] = {"original", "exact", "exact-end"};

/* Solves root (a position string) and writes the certificate for the true winner. */
int cg_make_cert(CgCert *c, int n, int k, int rules, const char *root, int omit)
{
    RefPos p;
    cr_assert_eq(ref_parse(&p, n, k, rules, root), 0);
    free(cg_solved.e);
    cg_solved = (CgMap){0};
    memset(c, 0, sizeof *c);
    c->winner = cg_solve(&p);
    c->omit = omit;
    snprintf(c->header, sizeof c->header, "ocproof 1\nboard %d %d\nrules %s\nwinner %s\nroot %s\n", n, k, CG_RULES[rules],
             c->winner == REF_ORDER_WINS ? "order" : "chaos", root);
    cg_emit(c, &p);
    free(c->seen.e);
    return c->winner;
}

/* The certificate text; line `skip` left out, line `swap` given the move `move`. */
char *cg_cert_text(const CgCert *c, int skip, int swap, const char *move)
{
    size_t len = strlen(c->header) + 1;
    for (int i = 0; i < c->nlines; i++) len += strlen(c->line[i]) + 8;
    char *t = malloc(len), *e = t + sprintf(t, "%s", c->header);
    for (int i = 0; i < c->nlines; i++) {
        if (i == skip) continue;
        if (i == swap) e += sprintf(e, "%.*s %s\n", (int)strcspn(c->line[i], " "), c->line[i], move);
        else e += sprintf(e, "%s\n", c->line[i]);
    }
    return t;
}
char *cg_plain(const CgCert *c) { return cg_cert_text(c, -1, -1, NULL); }

char *cg_v2_text(int rules, const char *winner, const char *root, const char *lines)
{
    size_t len = strlen(lines) + 256;
    char *t = malloc(len);
    snprintf(t, len, "ocproof 2\nboard 5 4\nrules %s\nwinner %s\nroot %s\n%s", CG_RULES[rules], winner, root, lines);
    return t;
}

char *cg_replace(const char *text, const char *from, const char *to)
{
    const char *at = strstr(text, from);
    cr_assert(at, "'%s' not in the certificate", from);
    char *t = malloc(strlen(text) + strlen(to) + 1);
    sprintf(t, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
    return t;
}

int cg_check(const char *text, VerifyResult *r)
{
    int rc = verify_text(text, r);
    cr_assert_eq(rc, r->status);
    return rc;
}

void cg_find_root(int n, int k, int rules, int empties, int want, uint64_t *rng, char *out)
{
    for (int t = 0; t < 2000; t++) {
        RefPos p;
        if (tl_random_ongoing(&p, n, k, rules, n * n - empties, rng) != 0) continue;
        free(cg_solved.e);
        cg_solved = (CgMap){0};
        if (cg_solve(&p) != want) continue;
        ref_format(&p, out);
        return;
    }
    cr_assert_fail("no root found");
}

void cg_expect_malformed(const char *text, const char *error, const char *tag)
{
    char want[512];
    snprintf(want, sizeof want, "<text>:%s", error);
    VerifyResult r;
    cr_assert_eq(cg_check(text, &r), 2, "%s: %s", tag, r.error);
    cr_assert(strstr(r.error, want), "%s: %s", tag, r.error);
    /* the same file through the command line: one line naming the file, exit 2 */
    char path[] = "/tmp/ocsolve-malformed-XXXXXX";
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    cr_assert_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    snprintf(want, sizeof want, "%s:%s", path, error);
    expect_reject(want, "verify", path);
    unlink(path);
}

void cg_free_cert(CgCert *c)
{
    for (int i = 0; i < c->nlines; i++) free(c->line[i]);
    free(c->line);
}

const char *const CG_EMPTY44 = "................";

